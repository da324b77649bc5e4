"""Smash Up reference engine: every Ninjas and Pirates card (rules/smash-up-cards.md §4, §5),
one test per card at least, each from the card's entry (steps, Default line, Watch line), with
the baseline default and a scripted non-default choice where it matters; and a smoke test of
full games with the two factions seated."""
import pytest

from balance.games.smash_up.reference import Greedy, Random, Scripted, play_seated
from balance.games.smash_up.reference import abilities as ab
from balance.games.smash_up.reference.scenario import attach, deck, discard, hand, put, scenario
from balance.games.smash_up.rules import Rules

PLAIN = ["Jungle Oasis", "Factory 436-1337", "Rhodes Plaza Mall"]  # 12 2/0/0, 25 2/2/1, 24 0/0/0


def _game(players=2, bases=PLAIN, script=None, **kw):
    """Seat 0 answers from ``script`` (else the baseline); the others are the baseline."""
    strategies = [Scripted(script or {})] + [Greedy() for _ in range(players - 1)]
    return scenario(players=players, bases=bases, strategies=strategies, **kw)


def _names(cards):
    return [c.name for c in cards]


def _board(g):
    return [(m.name, m.controller, m.slot.index) for m in g.minions()]


def _destroyed(g):
    return [e[1:3] for e in g.log if e[0] == "destroy"]


def _vp(g):
    return [pl.vp for pl in g.players]


def _seen(g, key, p=0):
    return [opts for k, opts in g.strategies[p].seen if k == key]


# ---- Ninjas (§4) ------------------------------------------------------------------------------

def test_ninja_master_may_destroy_a_minion_on_its_base_default_hit():
    g = _game()
    mine = put(g, 0, "Walker", 0)
    inv, rex = put(g, 1, "Invader", 0), put(g, 1, "King Rex", 0)
    far = put(g, 1, "Supreme Overlord", 1)
    nm = g.play_minion(0, hand(g, 0, "Ninja Master"), g.slots[0])
    assert _destroyed(g) == [("King Rex", 1)]  # HIT: seat 1 outranks seat 0 here, highest power
    assert _names(g.players[1].discard) == ["King Rex"] and far in g.slots[1].minions
    # options: every minion on this base, itself included, then decline; not the other base
    assert _seen(g, "Ninja Master") == [[mine, inv, rex, nm, None]]


def test_ninja_master_scripted_choices_and_declining_without_an_opponent_here():
    g = _game(script={"Ninja Master": [None]})
    put(g, 1, "King Rex", 0)
    g.play_minion(0, hand(g, 0, "Ninja Master"), g.slots[0])
    assert _destroyed(g) == []
    g = _game()
    put(g, 0, "Walker", 0)
    g.play_minion(0, hand(g, 0, "Ninja Master"), g.slots[0])  # only its own minions: decline
    assert _destroyed(g) == []
    g = _game(script={"Ninja Master": [lambda opts: 0]})
    put(g, 0, "Walker", 0), put(g, 1, "King Rex", 0)
    g.play_minion(0, hand(g, 0, "Ninja Master"), g.slots[0])
    assert _destroyed(g) == [("Walker", 0)]  # its own minion is a legal choice


def test_tiger_assassin_destroys_power_three_or_less_on_its_base():
    g = _game()
    mine = put(g, 0, "Walker", 0)
    inv, ench = put(g, 1, "Invader", 0), put(g, 1, "Enchantress", 0)
    put(g, 1, "King Rex", 0)
    put(g, 1, "Collector", 1)
    g.play_minion(0, hand(g, 0, "Tiger Assassin"), g.slots[0])
    assert _destroyed(g) == [("Invader", 1)]
    assert _seen(g, "Tiger Assassin") == [[mine, inv, ench, None]]  # <= 3, this base only [D3]


def test_tiger_assassin_any_base_switch():
    for any_base, expected in ((False, []), (True, [("Collector", 1)])):
        g = _game(rules=Rules(players=2, tiger_assassin_any_base=any_base))
        put(g, 1, "King Rex", 0)
        put(g, 1, "Collector", 1)
        g.play_minion(0, hand(g, 0, "Tiger Assassin"), g.slots[0])
        assert _destroyed(g) == expected, any_base


def _scoring(g):
    g.in_play_phase = False
    g.score_base(g.slots[0])


def test_shinobi_plays_from_hand_before_scoring_when_it_raises_vp_now():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Collector", 0), put(g, 0, "Invader", 0)  # 5
    put(g, 1, "King Rex", 0)                            # 7
    a, b = hand(g, 0, "Shinobi", "Shinobi")
    _scoring(g)
    assert _vp(g) == [2, 0]  # 8 > 7
    assert g.players[0].hand == [b] and a in g.players[0].discard  # one Shinobi per scoring [D26]
    assert g.free_minion == 1 and g.window is None


def test_shinobi_one_per_player_per_scoring_each_player_may_use_one():
    g = _game(base_deck=["Tortuga", "Tortuga"])
    put(g, 0, "Collector", 0), put(g, 0, "Invader", 0)  # 5
    put(g, 1, "King Rex", 0)                            # 7
    hand(g, 0, "Shinobi", "Shinobi")
    hand(g, 1, "Shinobi")
    _scoring(g)  # seat 0: 8 > 7; seat 1 answers: 10 > 8; seat 0 has used its one
    assert _vp(g) == [0, 2] and _names(g.players[0].hand) == ["Shinobi"]
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)    # Tortuga 4/3/2: a new scoring, a new use
    _scoring(g)
    assert not g.players[0].hand and _vp(g) == [4, 2 + 3]  # 2 + 3 > 3


def test_shinobi_is_held_when_it_does_not_raise_vp_now_or_cannot_be_played_there():
    g = _game()
    put(g, 0, "King Rex", 0), put(g, 1, "Walker", 0)
    hand(g, 0, "Shinobi")
    _scoring(g)  # already first
    assert _names(g.players[0].hand) == ["Shinobi"]
    g = _game()
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    attach(g, 1, "Block the Path", 0, named=("Ninjas",))
    hand(g, 0, "Shinobi")
    _scoring(g)
    assert _names(g.players[0].hand) == ["Shinobi"] and _seen(g, "before-scoring") == []
    g = _game(script={"before-scoring": [None]})  # a non-default pass
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    hand(g, 0, "Shinobi")
    _scoring(g)
    assert _names(g.players[0].hand) == ["Shinobi"] and _vp(g) == [0, 2]


def test_ninja_acolyte_returns_and_plays_a_minion_here_keeping_the_free_play():
    g = _game(bases=["Jungle Oasis", "The Great Library", "Rhodes Plaza Mall"])  # Library 4/2/1
    aco = put(g, 0, "Ninja Acolyte", 1)
    put(g, 1, "Invader", 1)
    other = put(g, 0, "Ninja Acolyte", 2)
    tiger, walker = hand(g, 0, "Tiger Assassin", "Walker")
    # PLACE for the Tiger Assassin among the Acolytes' bases: the Library (second -> first)
    assert ab.talent_wanted(g, 0, aco) and not ab.talent_wanted(g, 0, other)
    g.do_move(0, ("talent", aco))
    assert _board(g) == [("Tiger Assassin", 0, 1), ("Ninja Acolyte", 0, 2)]
    assert _destroyed(g) == [("Invader", 1)]  # the played minion's on-play resolved
    assert g.players[0].hand == [walker, aco.card] and g.free_minion == 1
    # Watch: a minion has been played this phase, so no second Acolyte talent
    assert ab.talent_moves(g, 0) == []
    assert ("hand", walker, g.slots[0]) in g.play_moves(0)


def test_ninja_acolyte_baseline_in_a_play_phase_and_without_a_big_minion():
    g = _game()
    aco = put(g, 0, "Ninja Acolyte", 1)
    hand(g, 0, "Walker")
    assert ab.talent_moves(g, 0) == [("talent", aco)] and not ab.talent_wanted(g, 0, aco)
    g = _game()
    put(g, 0, "Ninja Acolyte", 1)
    hand(g, 0, "Ninja Master")
    g.play_phase(0)  # talent first: the Master goes on the Acolyte's base, then the Acolyte again
    assert sorted(_board(g)) == [("Ninja Acolyte", 0, 0), ("Ninja Master", 0, 1)]
    assert g.free_minion == 0 and not g.players[0].hand


def test_ninja_acolyte_scripted_replays_itself_and_needs_a_legal_minion_here():  # [D37]
    g = _game(script={"Ninja Acolyte": [lambda opts: len(opts) - 1]})
    aco = put(g, 0, "Ninja Acolyte", 1)
    hand(g, 0, "Tiger Assassin")
    g.do_move(0, ("talent", aco))
    (back,) = g.minions()
    assert back is not aco and back.name == "Ninja Acolyte" and back.slot is g.slots[1]
    assert ab.talent_moves(g, 0) == []  # a minion was played in this phase
    g = _game()
    aco = put(g, 0, "Ninja Acolyte", 1)
    attach(g, 1, "Block the Path", 1, named=("Ninjas",))
    hand(g, 0, "Tiger Assassin")
    assert ab.talent_moves(g, 0) == []
    hand(g, 0, "Buccaneer")
    assert ab.talent_moves(g, 0) == [("talent", aco)]
    g.in_play_phase = True
    g.phase_minions = 1
    assert ab.talent_moves(g, 0) == []


def test_assassin_destroys_its_minion_at_the_end_of_the_turn():
    g = _game()
    put(g, 0, "Walker", 0)
    rex = put(g, 1, "King Rex", 0)          # gap 3, seat 1 outranks
    put(g, 1, "Supreme Overlord", 1)        # gap 20
    card = hand(g, 0, "Assassin")
    assert ab.want(g, 0, card)
    a = g.play_action(0, card)
    assert a.host is rex and _destroyed(g) == []
    g.end_of_turn(0)
    assert _destroyed(g) == [("King Rex", 1)] and _names(g.players[0].discard) == ["Assassin"]


def test_assassin_hold_scripted_host_and_scored_first():
    g = _game()
    put(g, 1, "King Rex", 0), put(g, 1, "Invader", 0), put(g, 1, "Walker", 0)  # 12: gap 0
    assert not ab.want(g, 0, hand(g, 0, "Assassin"))
    g = _game(script={"Assassin": [lambda opts: 0]})
    put(g, 0, "Walker", 0), put(g, 1, "King Rex", 0)
    g.play_action(0, hand(g, 0, "Assassin"))
    g.end_of_turn(0)
    assert _destroyed(g) == [("Walker", 0)]
    # Watch: its base scores first -> both discarded, nothing destroyed
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0)
    rex = put(g, 1, "Walker", 0)
    attach(g, 0, "Assassin", rex)
    assert g.power(rex) == 2
    _scoring(g)
    g.end_of_turn(0)
    assert _destroyed(g) == [] and "Assassin" in _names(g.players[0].discard)
    assert _names(g.players[1].discard) == ["Walker"]


def test_assassin_acts_only_at_the_end_of_its_own_turn_even_when_a_buccaneer_escapes():
    g = _game()
    bucc = put(g, 1, "Buccaneer", 0)
    put(g, 0, "Walker", 1)
    g.play_action(0, hand(g, 0, "Assassin"))
    g.end_of_turn(0)  # the Buccaneer moves instead; the Assassin stays attached to it
    assert _destroyed(g) == [] and bucc.slot is not g.slots[0] and bucc.attached
    g.turns += 1
    g.current = 1
    g.sleep[1] = ("moves", 0)  # no second escape: a destruction now would succeed
    g.end_of_turn(1)  # "destroy at the end of this turn": not the next one
    assert bucc in bucc.slot.minions


def test_disguise_swaps_the_lowest_minion_for_the_best_hand_minion_with_its_on_play():
    g = _game()
    walker, inv = put(g, 0, "Walker", 0), put(g, 0, "Invader", 0)
    put(g, 1, "King Rex", 0)
    card = hand(g, 0, "Disguise")
    hand(g, 0, "Tiger Assassin", "Ninja Master", "Collector")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    # (Walker,) and (Walker, Invader) both make seat 0 first; the lower total power chosen wins
    assert _board(g) == [("Invader", 0, 0), ("Ninja Master", 0, 0)]
    assert _destroyed(g) == [("King Rex", 1)]  # the Master's on-play resolved
    assert _names(g.players[0].hand) == ["Tiger Assassin", "Collector", "Walker"]
    assert _seen(g, "Disguise") == [[(g.slots[0], (walker,)), (g.slots[0], (inv,)),
                                      (g.slots[0], (walker, inv))]]


def test_disguise_scripted_pair_only_as_many_as_it_can_replace_and_returns_those_still_in_play():
    g = _game(script={"Disguise": [lambda opts: 2]})
    walker, inv = put(g, 0, "Walker", 0), put(g, 0, "Invader", 0)
    card = hand(g, 0, "Disguise")
    hand(g, 0, "Tiger Assassin", "First Mate")
    g.play_action(0, card)
    assert _board(g) == [("Tiger Assassin", 0, 0), ("First Mate", 0, 0)]
    assert _names(g.players[0].hand) == ["Walker", "Invader"]
    g = _game()  # no hand minion: nothing to choose
    w = put(g, 0, "Walker", 0)
    g.play_action(0, hand(g, 0, "Disguise"))
    assert _seen(g, "Disguise") == [] and w in g.slots[0].minions
    g = _game(script={"Disguise": [lambda opts: 0]})  # one hand minion: no pairs [D24]
    put(g, 0, "Walker", 0), put(g, 0, "Invader", 0)
    card = hand(g, 0, "Disguise")
    hand(g, 0, "First Mate")
    g.play_action(0, card)
    assert len(_seen(g, "Disguise")[0]) == 2
    # the new Ninja Master destroys the chosen Walker: it is not returned
    g = _game(script={"Disguise": [lambda opts: 0], "Ninja Master": [lambda opts: 0]})
    put(g, 0, "Walker", 0)
    card = hand(g, 0, "Disguise")
    hand(g, 0, "Ninja Master")
    g.play_action(0, card)
    assert _names(g.players[0].discard) == ["Walker", "Disguise"] and g.players[0].hand == []


def test_disguise_is_held_when_v_does_not_rise_and_ties_take_the_lowest_power():
    g = _game()
    inv, walker = put(g, 0, "Invader", 0), put(g, 0, "Walker", 0)
    put(g, 1, "Walker", 0)  # seat 0 first whatever it swaps
    card = hand(g, 0, "Disguise")
    hand(g, 0, "Buccaneer")
    assert not ab.want(g, 0, card)
    g.play_action(0, card)  # played anyway: equal V, the lower total power chosen
    assert _board(g) == [("Invader", 0, 0), ("Walker", 1, 0), ("Buccaneer", 0, 0)]
    assert g.players[0].hand == [walker.card]


def test_hidden_ninja_plays_a_minion_onto_the_scoring_base_as_a_special():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Walker", 0)
    put(g, 1, "Invader", 0)
    card = hand(g, 0, "Hidden Ninja")
    hand(g, 0, "First Mate", "Tiger Assassin")
    assert ("action", card) not in g.play_moves(0)  # Special only [D25]
    _scoring(g)
    assert _destroyed(g) == [("Invader", 1)]  # the Tiger Assassin's on-play
    assert _vp(g) == [2, 0] and _names(g.players[0].hand) == ["First Mate"]
    assert "Hidden Ninja" in _names(g.players[0].discard)
    assert g.free_action == 1 and g.actions_played[0] == 1  # a play, not the free one


def test_hidden_ninja_scripted_minion_and_mark_of_sleep():
    g = _game(script={"Hidden Ninja": [lambda opts: 0]}, base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    hand(g, 0, "Hidden Ninja", "First Mate", "Tiger Assassin")
    _scoring(g)
    assert _names(g.players[0].hand) == ["Tiger Assassin"] and _vp(g) == [2, 0]  # 4 > 3
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    hand(g, 0, "Hidden Ninja", "Tiger Assassin")
    g.sleep[0] = ("actions", 1)  # cannot play actions, Specials included [D36]
    _scoring(g)
    assert _names(g.players[0].hand) == ["Hidden Ninja", "Tiger Assassin"]
    g = _game()
    put(g, 0, "King Rex", 0)
    hand(g, 0, "Hidden Ninja", "Walker")
    _scoring(g)  # already first: held
    assert _names(g.players[0].hand) == ["Hidden Ninja", "Walker"]
    g = _game()
    g.play_action(0, hand(g, 0, "Hidden Ninja"))  # outside a window it does nothing [D25]
    assert g.minions() == [] and _names(g.players[0].discard) == ["Hidden Ninja"]


def test_infiltrate_destroys_another_players_action_on_its_base():
    g = _game()
    put(g, 0, "Walker", 0)
    mine = attach(g, 0, "Wildlife Preserve", 0)
    victim = put(g, 0, "Invader", 1)
    attach(g, 1, "Poison", victim)  # on a minion: not "on this base" [D22]
    card = hand(g, 0, "Infiltrate")
    assert not ab.want(g, 0, card)
    btp = attach(g, 1, "Block the Path", 2, named=("Ninjas",))
    assert ab.want(g, 0, card)
    a = g.play_action(0, card)
    assert a.host is g.slots[2] and g.slots[2].actions == [a]
    assert _names(g.players[1].discard) == ["Block the Path"]
    assert btp not in g.slots[2].actions and g.slots[0].actions == [mine]


def test_infiltrate_default_spares_your_own_action_and_may_decline():
    g = _game()
    mine = attach(g, 0, "Wildlife Preserve", 0)
    theirs = attach(g, 1, "Overrun", 0)
    a = g.play_action(0, hand(g, 0, "Infiltrate"))
    assert g.slots[0].actions == [mine, a] and theirs.card in g.players[1].discard
    assert _seen(g, "Infiltrate:destroy") == [[mine, theirs, None]]
    g = _game(script={"Infiltrate:destroy": [None]})
    attach(g, 1, "Overrun", 0)
    g.play_action(0, hand(g, 0, "Infiltrate"))
    assert len(g.slots[0].actions) == 2


def test_infiltrate_talent_cancels_the_base_until_the_start_of_your_next_turn():
    g = _game(bases=["The Central Brain", "Jungle Oasis", "Rhodes Plaza Mall"])
    w = put(g, 1, "Walker", 0)
    inf = attach(g, 0, "Infiltrate", 0)
    assert g.power(w) == 3 and ab.talent_moves(g, 0) == [("talent", inf)]
    assert not ab.talent_wanted(g, 0, inf)  # the baseline never uses it
    g.do_move(0, ("talent", inf))
    assert g.power(w) == 2 and not g.active(g.slots[0]) and g.slots[0].actions == []
    assert _names(g.players[0].discard) == ["Infiltrate"]
    g.start_of_turn(1)
    assert not g.active(g.slots[0])
    g.start_of_turn(0)
    assert g.active(g.slots[0]) and g.power(w) == 3


def test_poison_minus_four_and_destroys_other_players_actions_on_it():
    g = _game()
    put(g, 0, "Walker", 0)
    rex = put(g, 1, "King Rex", 0)
    theirs = attach(g, 1, "Upgrade", rex)
    mine = attach(g, 0, "Upgrade", rex)
    card = hand(g, 0, "Poison")
    assert ab.want(g, 0, card)
    a = g.play_action(0, card)
    assert a.host is rex and rex.attached == [mine, a] and theirs.card in g.players[1].discard
    assert g.power(rex) == 7 + 2 - 4


def test_poison_scripted_keeps_actions_floors_at_zero_and_is_held_without_targets():
    g = _game(script={"Poison:destroy": [None]})
    rex = put(g, 1, "King Rex", 0)
    attach(g, 1, "Upgrade", rex)
    g.play_action(0, hand(g, 0, "Poison"))
    assert g.power(rex) == 7 + 2 - 4 and len(rex.attached) == 2
    g = _game()
    w = put(g, 1, "Walker", 0)
    g.play_action(0, hand(g, 0, "Poison"))
    assert g.power(w) == 0  # [D11]
    g = _game()
    put(g, 0, "Walker", 0)
    assert not ab.want(g, 0, hand(g, 0, "Poison"))


def test_seeing_stars_destroys_power_three_or_less_default_hit():
    g = _game()
    put(g, 0, "Walker", 0)
    put(g, 1, "Invader", 0)       # seat 1 outranks on the Oasis
    put(g, 0, "King Rex", 1), put(g, 1, "Collector", 1)
    put(g, 1, "Warbot", 2)        # cannot be destroyed: not offered [D8]
    card = hand(g, 0, "Seeing Stars")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert _destroyed(g) == [("Invader", 1)]


def test_seeing_stars_is_held_with_only_your_minions_but_mandatory_when_played():
    g = _game()
    put(g, 0, "Walker", 0), put(g, 0, "Invader", 1), put(g, 1, "King Rex", 1)
    card = hand(g, 0, "Seeing Stars")
    assert not ab.want(g, 0, card)
    g.play_action(0, card)
    assert _destroyed(g) == [("Walker", 0)]  # [D9]: the lowest-power one of yours


def test_smoke_bomb_protects_help_target_from_other_players_actions_only():
    g = _game()
    w = put(g, 0, "Walker", 0)
    put(g, 1, "King Rex", 0)      # Oasis gap 3
    put(g, 0, "King Rex", 1)      # Factory gap 18
    poison = attach(g, 1, "Poison", w)
    card = hand(g, 0, "Smoke Bomb")
    assert ab.want(g, 0, card)
    a = g.play_action(0, card)
    assert a.host is w and w.attached == [a] and poison.card in g.players[1].discard  # [D7]
    assert not g.affectable(w, 1, True) and g.affectable(w, 1, False) and g.affectable(w, 0, True)
    g.current = 1
    g.play_action(1, hand(g, 1, "Seeing Stars"))  # Walker is no target
    assert w in w.slot.minions
    g.play_minion(1, hand(g, 1, "Tiger Assassin"), g.slots[0])  # a minion's ability still can
    assert _destroyed(g) == [("Walker", 0)]


def test_smoke_bomb_only_on_your_own_minions():
    g = _game()
    put(g, 1, "King Rex", 0)
    card = hand(g, 0, "Smoke Bomb")
    assert not ab.want(g, 0, card)
    assert g.play_action(0, card) is None and _names(g.players[0].discard) == ["Smoke Bomb"]


def test_way_of_deception_makes_the_move_raising_v_most():
    g = _game()
    put(g, 1, "Invader", 0), put(g, 0, "Collector", 0)
    rex = put(g, 0, "King Rex", 2)
    card = hand(g, 0, "Way of Deception")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert rex.slot is g.slots[0]
    assert ("move", "King Rex", 0, "Jungle Oasis") in g.log


def test_way_of_deception_scripted_mandatory_and_blocked_moves():
    g = _game(script={"Way of Deception": [lambda opts: 0]})
    col = put(g, 0, "Collector", 0)
    put(g, 0, "King Rex", 2)
    g.play_action(0, hand(g, 0, "Way of Deception"))
    assert col.slot is g.slots[1]
    assert None not in _seen(g, "Way of Deception")[0]  # mandatory
    g = _game()
    w = put(g, 0, "Walker", 0)
    card = hand(g, 0, "Way of Deception")
    assert not ab.want(g, 0, card)  # alone and first: no move raises V
    g.sleep[0] = ("moves", 1)
    g.play_action(0, card)
    assert w.slot is g.slots[0]
    g = _game()
    w = put(g, 0, "Walker", 0)
    attach(g, 1, "Hideout", 1)
    g.play_action(0, hand(g, 0, "Way of Deception"))
    assert w.slot is g.slots[2]  # the Hideout base is not a destination


# ---- Pirates (§5) -----------------------------------------------------------------------------

def test_pirate_king_moves_to_the_scoring_base_when_gain_exceeds_loss():
    g = _game(bases=["Jungle Oasis", "Rhodes Plaza Mall", "Factory 436-1337"], base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    king = put(g, 0, "Pirate King", 1)  # nothing to lose on the Mall
    _scoring(g)
    assert _vp(g) == [2, 0] and king.card in g.players[0].discard


def test_pirate_king_stays_when_it_would_lose_as_much_and_scripted_and_asleep():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    king = put(g, 0, "Pirate King", 1)  # first on the Factory: 2 to lose, 2 to gain
    _scoring(g)
    assert king.slot is g.slots[1] and _vp(g) == [0, 2]
    g = _game(script={"before-scoring": [lambda opts: 0]}, base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    king = put(g, 0, "Pirate King", 1)
    _scoring(g)
    assert _seen(g, "before-scoring")[0] == [("Pirate King", king), None] and _vp(g) == [2, 0]
    g = _game(bases=["Jungle Oasis", "Rhodes Plaza Mall", "Factory 436-1337"], base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    king = put(g, 0, "Pirate King", 1)
    g.sleep[0] = ("moves", 1)
    _scoring(g)
    assert king.slot.name == "Rhodes Plaza Mall"


def test_buccaneer_moves_instead_of_being_destroyed_once_per_turn():
    g = _game()
    bucc = put(g, 0, "Buccaneer", 0)
    put(g, 1, "Invader", 1)  # the Factory: 4 vs 3 makes seat 0 first there
    g.current = 1
    g.play_minion(1, hand(g, 1, "Ninja Master"), g.slots[0])  # HIT: the Buccaneer
    assert _destroyed(g) == [] and bucc.slot is g.slots[1] and bucc.buccaneer_used
    assert ("move", "Buccaneer", 0, "Factory 436-1337") in g.log
    assert g.destroy([bucc], 1, True) == [bucc]  # a second destruction the same turn succeeds
    bucc2 = put(g, 0, "Buccaneer", 0)
    g.destroy([bucc2], 1, True)
    g.end_of_turn(1)
    assert not bucc2.buccaneer_used and bucc2 in bucc2.slot.minions
    assert g.destroy([bucc2], 1, True) == [] and bucc2.buccaneer_used  # a new turn


def test_buccaneer_declined_hideout_and_mark_of_sleep_and_tar_pits():
    g = _game(script={"Buccaneer": [None]})
    bucc = put(g, 0, "Buccaneer", 0)
    assert g.destroy([bucc], 1, True) == [bucc]
    g = _game()
    bucc = put(g, 0, "Buccaneer", 0)
    attach(g, 1, "Hideout", 1)
    g.destroy([bucc], 1, True)
    assert bucc.slot is g.slots[2]  # Hideout's base is not a destination
    g = _game()
    bucc = put(g, 0, "Buccaneer", 0)
    g.sleep[0] = ("moves", 1)
    assert g.destroy([bucc], 1, True) == [bucc]
    # [D18]: the owner decides on the Buccaneer first; Tar Pits applies if it does not move
    g = _game(bases=["Tar Pits", "Jungle Oasis", "Rhodes Plaza Mall"], script={"Buccaneer": [None]})
    bucc = put(g, 0, "Buccaneer", 0)
    assert g.destroy([bucc], 1, True) == [] and _names(g.players[0].deck) == ["Buccaneer"]
    g = _game(bases=["Tar Pits", "Jungle Oasis", "Rhodes Plaza Mall"])
    bucc = put(g, 0, "Buccaneer", 0)
    g.destroy([bucc], 1, True)
    assert bucc.slot is not g.slots[0] and not g.slots[0].tar_pits_used


def test_cut_lass_destroys_power_two_or_less_here():
    g = _game()
    mine = put(g, 0, "Walker", 0)
    col = put(g, 1, "Collector", 0)
    put(g, 1, "Invader", 0)
    put(g, 1, "Enchantress", 1)
    g.play_minion(0, hand(g, 0, "Cut Lass"), g.slots[0])
    assert _destroyed(g) == [("Collector", 1)]
    assert _seen(g, "Cut Lass") == [[mine, col, None]]
    g = _game(script={"Cut Lass": [None]})
    put(g, 1, "Collector", 0)
    g.play_minion(0, hand(g, 0, "Cut Lass"), g.slots[0])
    assert _destroyed(g) == []


def test_first_mate_moves_to_another_base_after_scoring():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "Walker", 0)
    mate = put(g, 0, "First Mate", 0)
    put(g, 1, "Invader", 1)  # the Factory: second place pays 2 as well
    _scoring(g)
    assert mate.slot is g.slots[1] and mate in g.slots[1].minions
    assert _names(g.players[0].discard) == ["King Rex", "Walker"] and _vp(g) == [2, 0]
    assert _seen(g, "First Mate") == [[g.slots[1], g.slots[2], None]]  # never the replacement


def test_first_mate_scripted_stays_and_sleep_blocks_it():
    g = _game(script={"First Mate": [None]}, base_deck=["Tortuga"])
    put(g, 0, "First Mate", 0)
    _scoring(g)
    assert _names(g.players[0].discard) == ["First Mate"]
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "First Mate", 0)
    g.sleep[0] = ("moves", 1)
    _scoring(g)
    assert _names(g.players[0].discard) == ["First Mate"]


def test_broadside_destroys_one_players_small_minions_on_a_base_where_you_have_one():
    g = _game(players=3)
    mine = put(g, 0, "Walker", 0)
    put(g, 1, "Collector", 0), put(g, 1, "Enchantress", 0), put(g, 1, "Invader", 0)
    put(g, 2, "Walker", 0)
    put(g, 1, "Collector", 1), put(g, 1, "Walker", 1), put(g, 1, "Walker", 1)  # no minion of seat 0 there
    sb = put(g, 1, "Walker", 0)
    attach(g, 1, "Smoke Bomb", sb)  # protected: stays
    card = hand(g, 0, "Broadside")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert _destroyed(g) == [("Collector", 1), ("Enchantress", 1)]
    assert _seen(g, "Broadside") == [[(g.slots[0], 0), (g.slots[0], 1), (g.slots[0], 2)]]
    assert mine in g.slots[0].minions


def test_broadside_scripted_yourself_and_held_at_zero():
    g = _game(script={"Broadside": [lambda opts: 0]})
    put(g, 0, "Walker", 0), put(g, 1, "Collector", 0)
    g.play_action(0, hand(g, 0, "Broadside"))
    assert _destroyed(g) == [("Walker", 0)]
    g = _game()
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0), put(g, 1, "Collector", 1)
    assert not ab.want(g, 0, hand(g, 0, "Broadside"))


def test_cannon_destroys_up_to_two_small_minions_together():
    g = _game()
    put(g, 0, "Walker", 0)
    col = put(g, 1, "Collector", 0)
    put(g, 1, "Invader", 0)
    put(g, 1, "Enchantress", 1)
    far = put(g, 1, "Walker", 2)  # the Mall pays nobody: seat 1 does not outrank there
    card = hand(g, 0, "Cannon")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    # HIT: bases where seat 1 outranks first, smallest gap first (the Oasis, then the Factory)
    assert _destroyed(g) == [("Collector", 1), ("Enchantress", 1)] and far in g.slots[2].minions
    opts = _seen(g, "Cannon")
    assert len(opts) == 2 and col not in opts[1]


def test_cannon_scripted_one_target_and_held_without_opponents():
    g = _game(script={"Cannon": [lambda opts: 0, None]})
    put(g, 1, "Collector", 0), put(g, 1, "Walker", 1)
    g.play_action(0, hand(g, 0, "Cannon"))
    assert _destroyed(g) == [("Collector", 1)]
    g = _game()
    put(g, 0, "Walker", 0), put(g, 1, "Warbot", 0)
    card = hand(g, 0, "Cannon")
    assert not ab.want(g, 0, card)
    g.play_action(0, card)
    assert _destroyed(g) == []  # "up to": the baseline takes none of its own


def test_dinghy_makes_up_to_two_moves_raising_v_most_one_at_a_time():
    g = _game()
    put(g, 1, "Supreme Overlord", 0), put(g, 1, "Collector", 1)
    rex, walker = put(g, 0, "King Rex", 2), put(g, 0, "Walker", 2)
    card = hand(g, 0, "Dinghy")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert rex.slot is g.slots[0] and walker.slot is g.slots[1]
    second = _seen(g, "Dinghy")[1]
    assert all(mv is None or mv[0] is walker for mv in second)  # each minion at most once


def test_dinghy_scripted_stops_after_one_and_is_held_without_a_good_move():
    g = _game(script={"Dinghy": [lambda opts: 0, None]})
    w = put(g, 0, "Walker", 0)
    put(g, 0, "King Rex", 2)
    g.play_action(0, hand(g, 0, "Dinghy"))
    assert w.slot is g.slots[1] and [m.slot.index for m in g.minions_of(0)] == [1, 2]
    g = _game()
    put(g, 0, "Walker", 0)
    assert not ab.want(g, 0, hand(g, 0, "Dinghy"))


def test_full_sail_special_moves_minions_into_the_scoring_base():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0)
    rex = put(g, 0, "King Rex", 1)
    col = put(g, 0, "Collector", 2)  # moving it to the emptied Factory would raise V: not done
    card = hand(g, 0, "Full Sail")
    assert not ab.want(g, 0, card)  # never an ordinary play for the baseline
    _scoring(g)
    assert _vp(g) == [2, 0] and rex.card in g.players[0].discard and col.slot is g.slots[2]
    assert card in g.players[0].discard and g.free_action == 1 and g.actions_played[0] == 1


def test_full_sail_special_moves_out_when_you_would_score_zero():
    g = _game(base_deck=["Tortuga"])
    w = put(g, 0, "Walker", 0)
    put(g, 1, "King Rex", 0)
    put(g, 1, "Invader", 1)  # the Factory: second pays 2
    hand(g, 0, "Full Sail")
    _scoring(g)
    assert w.slot is g.slots[1] and w in g.slots[1].minions and _vp(g) == [0, 2]


def test_full_sail_held_when_useless_asleep_and_as_ordinary_action():
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "Walker", 1)
    hand(g, 0, "Full Sail")
    _scoring(g)  # already first, nothing to gain: kept
    assert _names(g.players[0].hand) == ["Full Sail"]
    g = _game(base_deck=["Tortuga"])
    put(g, 0, "Walker", 0), put(g, 1, "Invader", 0), put(g, 0, "King Rex", 1)
    hand(g, 0, "Full Sail")
    g.sleep[0] = ("actions", 1)
    _scoring(g)
    assert _names(g.players[0].hand) == ["Full Sail"] and _vp(g) == [0, 2]
    # as an ordinary action, any number of moves (scripted: both minions, then stop)
    g = _game(script={"Full Sail": [lambda opts: 0, lambda opts: 0, None]})
    a, b, c = put(g, 0, "Walker", 0), put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    g.play_action(0, hand(g, 0, "Full Sail"))
    assert [m.slot.index for m in (a, b, c)] == [1, 1, 0]


def test_powderkeg_destroys_your_minion_and_all_weaker_or_equal_there():
    g = _game()
    put(g, 0, "Invader", 0)
    w = put(g, 0, "Walker", 0)
    put(g, 1, "Collector", 0), put(g, 1, "Enchantress", 0), put(g, 1, "King Rex", 0)
    put(g, 0, "King Rex", 1)
    card = hand(g, 0, "Powderkeg")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert _destroyed(g) == [("Walker", 0), ("Collector", 1), ("Enchantress", 1)]
    assert w.card in g.players[0].discard and _seen(g, "Powderkeg")[0][1] is w


def test_powderkeg_warbot_survives_protected_stay_and_held_when_costly():
    g = _game(script={"Powderkeg": [lambda opts: 0]})
    bot = put(g, 0, "Warbot", 0)
    put(g, 1, "Invader", 0)
    sb = put(g, 1, "Walker", 0)
    attach(g, 1, "Smoke Bomb", sb)
    g.play_action(0, hand(g, 0, "Powderkeg"))
    assert _destroyed(g) == [("Invader", 1)] and bot in g.slots[0].minions and sb in g.slots[0].minions
    g = _game()
    put(g, 0, "Invader", 0), put(g, 1, "Walker", 0)
    assert not ab.want(g, 0, hand(g, 0, "Powderkeg"))  # 2 - 3 < 0


def test_sea_dogs_moves_a_faction_of_other_players_from_one_base_to_another():
    g = _game(factions=[("Ninjas", "Pirates"), ("Aliens", "Dinosaurs")])
    put(g, 0, "Tiger Assassin", 0), put(g, 0, "Walker", 0)   # 6
    inv, col = put(g, 1, "Invader", 0), put(g, 1, "Collector", 0)
    rex = put(g, 1, "King Rex", 0)                           # 12
    put(g, 1, "King Rex", 2), put(g, 1, "King Rex", 2)       # more, but the Mall pays nobody
    card = hand(g, 0, "Sea Dogs")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert rex.slot is g.slots[1] and inv.slot is col.slot is g.slots[0]  # most power, largest gap
    opts = _seen(g, "Sea Dogs")[0]
    assert len(opts) == 2 * 3 * 2 and [o[0] for o in opts[::6]] == ["Aliens", "Dinosaurs"]


def test_sea_dogs_scripted_faction_skips_protected_and_held_when_v_does_not_rise():
    g = _game(factions=[("Ninjas", "Pirates"), ("Aliens", "Dinosaurs")],
              script={"Sea Dogs": [lambda opts: opts.index(("Aliens", opts[0][1], opts[1][2]))]})
    inv, col = put(g, 1, "Invader", 0), put(g, 1, "Collector", 0)
    put(g, 1, "King Rex", 0)
    attach(g, 1, "Smoke Bomb", col)
    g.play_action(0, hand(g, 0, "Sea Dogs"))
    assert inv.slot is g.slots[2] and col.slot is g.slots[0]
    g = _game(factions=[("Ninjas", "Pirates"), ("Aliens", "Dinosaurs")])
    put(g, 0, "Walker", 0)
    put(g, 1, "Invader", 0), put(g, 1, "King Rex", 0)
    assert not ab.want(g, 0, hand(g, 0, "Sea Dogs"))  # 2 vs 7 or 3: still outranked


def test_shanghai_moves_another_players_minion_hit_to_the_largest_gap():
    g = _game()
    rex = put(g, 1, "King Rex", 0)
    put(g, 1, "Invader", 1)
    sb = put(g, 1, "Supreme Overlord", 2)
    attach(g, 1, "Smoke Bomb", sb)
    card = hand(g, 0, "Shanghai")
    assert ab.want(g, 0, card)
    g.play_action(0, card)
    assert rex.slot is g.slots[1]  # the largest gap: the Factory 25 - 3 > the Mall 24 - 5
    opts = _seen(g, "Shanghai")[0]
    assert None not in opts and all(m is not sb for m, _ in opts)


def test_swashbuckling_gives_your_minions_plus_one_until_the_end_of_the_turn():
    g = _game()
    a, b = put(g, 0, "Walker", 0), put(g, 0, "Invader", 1)
    theirs = put(g, 1, "Collector", 0)
    card = hand(g, 0, "Swashbuckling")
    assert ab.want(g, 0, card)  # the tie on the Oasis is broken
    g.play_action(0, card)
    later = put(g, 0, "Walker", 2)
    assert [g.power(m) for m in (a, b, theirs, later)] == [3, 4, 2, 2]
    g.end_of_turn(0)
    assert [g.power(m) for m in (a, b)] == [2, 3]
    g = _game()
    put(g, 0, "King Rex", 0)
    assert not ab.want(g, 0, hand(g, 0, "Swashbuckling"))


# ---- smoke ------------------------------------------------------------------------------------

SEATS = [("Ninjas", "Pirates"), ("Aliens", "Dinosaurs"), ("Robots", "Tricksters"), ("Wizards", "Zombies")]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("player", [Random, Greedy])
def test_full_games_with_ninjas_and_pirates_finish(n, player):
    for game in range(20):
        seats = SEATS[:n]
        k = game % n  # the Ninjas-Pirates deck sits at every seat in turn
        seats = seats[n - k:] + seats[:n - k]
        g = play_seated(Rules(players=n), seats, [player() for _ in range(n)], seed=11, game=game)
        vps = _vp(g)
        assert g.capped or max(vps) >= 15 and vps.count(max(vps)) == 1
