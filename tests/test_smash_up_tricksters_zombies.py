"""Tricksters (§7 current list, §8 the 2012 list) and Zombies (§10) in the reference engine: one
test per card from its entry in rules/smash-up-cards.md (more where the entry has several clauses
or a "Watch:" line), the core pieces these cards rely on (Overrun, Block the Path, Hideout and
Mark of Sleep in the core's checks, Tenacious Z, They're Coming To Get You's moves), and a smoke
test of full games."""
from __future__ import annotations

import pytest

from balance.games.smash_up.reference import Greedy, Random, Scripted, play_seated
from balance.games.smash_up.reference import abilities as ab
from balance.games.smash_up.reference.baseline import greedy_play
from balance.games.smash_up.reference.scenario import attach, deck, discard, hand, put, scenario
from balance.games.smash_up.rules import Rules

B3 = ["Jungle Oasis", "The Great Library", "Tortuga"]  # no ability reacts during a play
OLD = Rules(players=2, tricksters="2012")


def _names(cards):
    return [c.name for c in cards]


def _on(g, i):
    return [m.name for m in g.slots[i].minions]


def _seat(p, script, players=2):
    """Strategies: seat ``p`` scripted (its other choices by the baseline), the rest baseline."""
    return [Scripted(script) if s == p else Greedy() for s in range(players)]


def _want(g, p, name):
    return ab.want(g, p, next(c for c in g.players[p].hand if c.name == name))


def _asked(g, p, key):
    return [opts for k, opts in g.strategies[p].seen if k == key]


# ==== Tricksters, current list (§7) ==============================================================

# ---- 1. Leprechaun ------------------------------------------------------------------------------
def test_leprechaun_destroys_a_weaker_minion_another_player_plays_here():
    g = scenario(bases=B3)
    put(g, 0, "Leprechaun", 0)
    g.current = 1
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])
    assert _on(g, 0) == ["Leprechaun"] and _names(g.players[1].discard) == ["Armor Stego"]


@pytest.mark.parametrize("who, name, slot", [(1, "Pirate King", 0), (1, "King Rex", 0),
                                             (0, "Armor Stego", 0), (1, "Armor Stego", 1)])
def test_leprechaun_spares_equal_stronger_own_and_elsewhere(who, name, slot):
    g = scenario(bases=B3)
    put(g, 0, "Leprechaun", 0)
    m = g.play_minion(who, hand(g, who, name), g.slots[slot])
    assert m in g.slots[slot].minions and ("leprechaun", g.slots[0].minions[0].card.uid) not in g.flags


def test_leprechaun_compares_current_power_here():
    g = scenario(bases=B3)
    put(g, 0, "Leprechaun", 0)
    put(g, 1, "War Raptor", 0), put(g, 1, "War Raptor", 0)
    raptor = g.play_minion(1, hand(g, 1, "War Raptor"), g.slots[0])  # 2 + 3 Raptors = 5
    assert g.power(raptor) == 5 and raptor in g.slots[0].minions


def test_leprechaun_acts_only_after_the_minions_own_ability_resolved():
    g = scenario(bases=B3)
    lep = put(g, 0, "Leprechaun", 0)
    attach(g, 0, "Upgrade", lep)  # 7
    master = g.play_minion(1, hand(g, 1, "Ninja Master"), g.slots[0])  # 5 < 7: destroys it first
    assert lep not in g.slots[0].minions and master in g.slots[0].minions


def test_leprechaun_is_once_per_turn_and_spent_only_by_a_removal():  # [D29]
    g = scenario(bases=B3)
    put(g, 0, "Leprechaun", 0)
    g.current = 1
    warbot = g.play_minion(1, hand(g, 1, "Warbot"), g.slots[0])  # cannot be destroyed: not spent
    scout = g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    stego = g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])  # the second: spared
    assert warbot in g.slots[0].minions and scout not in g.slots[0].minions
    assert stego in g.slots[0].minions
    g.end_of_turn(1)  # a new turn: a new use
    mate = g.play_minion(1, hand(g, 1, "First Mate"), g.slots[0])
    assert mate not in g.slots[0].minions


def test_leprechaun_use_is_spent_when_buccaneer_moves_away():
    g = scenario(bases=B3)
    put(g, 0, "Leprechaun", 0)
    g.current = 1
    bucc = g.play_minion(1, hand(g, 1, "Buccaneer"), g.slots[0])  # moves instead of dying
    assert bucc.slot is not g.slots[0] and bucc in bucc.slot.minions
    scout = g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    assert scout in g.slots[0].minions


def test_leprechaun_2012_has_no_once_per_turn_limit():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Leprechaun", 0)
    g.current = 1
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])
    assert _on(g, 0) == ["Leprechaun"] and len(g.players[1].discard) == 2


# ---- 2. Brownie ---------------------------------------------------------------------------------
def test_brownie_draws_once_per_turn_when_another_player_plays_on_another_base():
    g = scenario(bases=B3)
    put(g, 0, "Brownie", 0)
    deck(g, 0, "Gnome", "Gremlin")
    g.current = 1
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])  # this base: nothing
    g.play_minion(0, hand(g, 0, "Scout"), g.slots[1])  # own minion: nothing
    assert not g.players[0].hand[1:]
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[1])
    g.play_minion(1, hand(g, 1, "First Mate"), g.slots[2])  # once per turn
    assert _names(g.players[0].hand) == ["Gremlin"]
    g.end_of_turn(1)
    g.play_minion(1, hand(g, 1, "First Mate"), g.slots[2])
    assert _names(g.players[0].hand) == ["Gremlin", "Gnome"]


def test_each_brownie_draws_for_itself():
    g = scenario(bases=B3)
    put(g, 0, "Brownie", 0), put(g, 0, "Brownie", 1)
    deck(g, 0, "Gnome", "Gremlin", "Pixie")
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[2])
    assert _names(g.players[0].hand) == ["Pixie", "Gremlin"]


def test_brownie_2012_does_not_draw():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Brownie", 0)
    deck(g, 0, "Gnome")
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[1])
    assert not g.players[0].hand and not g.players[1].discard


def test_brownie_2012_an_action_that_affects_it_costs_two_random_cards():  # [D30]: also if removed
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Brownie", 0)
    hand(g, 1, "Scout", "Walker", "King Rex")
    g.current = 1
    g.play_action(1, hand(g, 1, "Beam Up"))
    assert _names(g.players[0].hand) == ["Brownie"] and len(g.players[1].hand) == 1
    assert len(g.players[1].discard) == 3  # two random cards and the Beam Up


def test_brownie_2012_a_minion_whose_on_play_affects_it_costs_two_random_cards():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Brownie", 0)
    hand(g, 1, "Scout", "Walker", "King Rex")
    g.current = 1
    g.play_minion(1, hand(g, 1, "Supreme Overlord"), g.slots[1])  # returns the Brownie (HIT)
    assert _names(g.players[0].hand) == ["Brownie"] and len(g.players[1].hand) == 1


def test_brownie_2012_ignores_cards_that_do_not_affect_it_and_cards_in_play():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Brownie", 0)
    walker = put(g, 1, "Walker", 1)
    hand(g, 1, "Scout", "Walker", "King Rex")
    g.current = 1
    g.play_action(1, hand(g, 1, "Take the Shinies"))
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])
    g.move(walker, g.slots[0], 1)
    assert len(g.players[1].hand) == 3


def test_brownie_2012_its_owners_cards_cost_nothing():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Brownie", 0)
    hand(g, 0, "Scout", "Walker")
    g.play_action(0, hand(g, 0, "Beam Up"))  # returns the owner's own Brownie (HIT_M: only minion)
    assert sorted(_names(g.players[0].hand)) == ["Brownie", "Scout", "Walker"]


def test_brownie_2012_a_trigger_inside_the_play_is_not_the_played_cards_step():
    # seat 1's Ninja Master destroys seat 1's own Nukebot; the Nukebot's trigger (a card already
    # in play) destroys the Brownie: not the Ninja Master's own step, so nothing is discarded
    g = scenario(bases=B3, rules=OLD, strategies=_seat(1, {"Ninja Master": [lambda o: 1]}))
    brownie = put(g, 0, "Brownie", 0)
    nukebot = put(g, 1, "Nukebot", 0)
    hand(g, 1, "Scout", "Walker", "King Rex")
    g.current = 1
    g.play_minion(1, hand(g, 1, "Ninja Master"), g.slots[0])
    assert _asked(g, 1, "Ninja Master")[0][1] is nukebot
    assert nukebot not in g.slots[0].minions and brownie not in g.slots[0].minions
    assert len(g.players[1].hand) == 3


# ---- 3. Gnome -----------------------------------------------------------------------------------
def _gnome_board(rules=None, script=None):
    """Seat 0: Gnome + 2 Walkers on the Oasis (3 minions: power < 3); seat 1: First Mate + Rex."""
    g = scenario(bases=B3, rules=rules, strategies=_seat(0, script or {}))
    gnome = put(g, 0, "Gnome", 0)
    w1, w2 = put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    mate, rex = put(g, 1, "First Mate", 0), put(g, 1, "King Rex", 0)
    return g, gnome, (w1, w2), mate, rex


def test_gnome_before_scoring_destroys_the_best_target_when_it_raises_your_vp():
    g, gnome, _, mate, rex = _gnome_board()
    assert g.vp_now(g.slots[0]) == [0, 2]
    ab.before_scoring_window(g, g.slots[0])  # 7 v 9 -> 7 v 7: a tie for first
    assert mate not in g.slots[0].minions and rex in g.slots[0].minions
    assert g.vp_now(g.slots[0]) == [2, 2]


def test_gnome_offers_minions_below_your_count_and_is_once_per_scoring():  # [D26]
    g, gnome, (w1, w2), mate, rex = _gnome_board(script={"before-scoring": [0, 0]})
    ab.before_scoring_window(g, g.slots[0])  # scripted: destroy the first option, own Walker
    assert w1 not in g.slots[0].minions and mate in g.slots[0].minions
    first = _asked(g, 0, "before-scoring")[0]
    assert first == [("Gnome", (gnome, x)) for x in (w1, w2, mate)] + [None]
    assert len(_asked(g, 0, "before-scoring")) == 1  # used: seat 0 had nothing more to offer


def test_gnome_declines_when_it_would_not_raise_your_vp_and_has_no_on_play():
    g = scenario(bases=B3)
    put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    mate = put(g, 1, "First Mate", 0)
    g.play_minion(0, hand(g, 0, "Gnome"), g.slots[0])  # current list: no on-play step
    assert mate in g.slots[0].minions
    ab.before_scoring_window(g, g.slots[0])  # seat 0 already first: no gain
    assert mate in g.slots[0].minions


def _target(m):
    return lambda opts: next(i for i, o in enumerate(opts) if o is not None and o[1][1] is m)


def test_two_gnomes_each_destroy_once_in_a_scoring():
    g, gnome, (w1, w2), mate, rex = _gnome_board()
    g.strategies[0] = Scripted({"before-scoring": [_target(w1), _target(w2)]})
    gnome2 = put(g, 0, "Gnome", 0)  # 4 minions: power < 4, the Gnomes themselves included
    ab.before_scoring_window(g, g.slots[0])
    asked = _asked(g, 0, "before-scoring")
    assert [x for _, (_, x) in asked[0][:-1]] == [gnome, w1, w2, mate, gnome2]
    assert [o[0][1][0] for o in asked] == [gnome, gnome2]  # then nothing left to offer
    assert w1 not in g.slots[0].minions and w2 not in g.slots[0].minions


def test_gnome_2012_on_play_destroys_the_hit_target_here():
    g = scenario(bases=B3, rules=OLD)
    put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    mate, stego = put(g, 1, "First Mate", 0), put(g, 1, "Armor Stego", 0)
    g.play_minion(0, hand(g, 0, "Gnome"), g.slots[0])  # 3 minions: power < 3
    assert mate not in g.slots[0].minions and stego in g.slots[0].minions
    ab.before_scoring_window(g, g.slots[0])  # no before-scoring Special in 2012
    assert len(g.slots[0].minions) == 4


def test_gnome_2012_may_decline():
    g = scenario(bases=B3, rules=OLD, strategies=_seat(0, {"Gnome": [None]}))
    put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    mate = put(g, 1, "First Mate", 0)
    gnome = g.play_minion(0, hand(g, 0, "Gnome"), g.slots[0])
    assert mate in g.slots[0].minions
    assert _asked(g, 0, "Gnome")[0][-2:] == [mate, None] and gnome not in _asked(g, 0, "Gnome")[0]


# ---- 4. Gremlin ---------------------------------------------------------------------------------
def test_gremlin_destroyed_draws_and_each_other_player_discards_a_random_card():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"])
    gremlin = put(g, 0, "Gremlin", 0)
    deck(g, 0, "Gnome")
    hand(g, 1, "Scout", "Walker")
    hand(g, 2, "King Rex")
    g.destroy([gremlin], 1, True)
    assert _names(g.players[0].hand) == ["Gnome"] and _names(g.players[0].discard) == ["Gremlin"]
    assert len(g.players[1].hand) == 1 and len(g.players[1].discard) == 1
    assert not g.players[2].hand and _names(g.players[2].discard) == ["King Rex"]


def test_gremlin_discarded_by_scoring_only_draws():
    for rules, drawn in ((None, ["Gnome"]), (OLD, [])):
        g = scenario(bases=B3, rules=rules)
        gremlin = put(g, 0, "Gremlin", 0)
        deck(g, 0, "Gnome")
        hand(g, 1, "Scout")
        g.score_discard(gremlin)
        assert _names(g.players[0].hand) == drawn and _names(g.players[1].hand) == ["Scout"]


def test_gremlin_returned_or_put_on_a_deck_does_nothing():
    g = scenario(bases=["Tar Pits", "The Great Library", "Tortuga"])
    deck(g, 0, "Gnome")
    hand(g, 1, "Scout")
    g.return_to_hand(put(g, 0, "Gremlin", 1), 1)
    g.destroy([put(g, 0, "Gremlin", 0)], 1, True)  # Tar Pits: to the deck's bottom, not destroyed
    assert _names(g.players[0].hand) == ["Gremlin"] and _names(g.players[0].deck) == ["Gremlin", "Gnome"]
    assert _names(g.players[1].hand) == ["Scout"]


def test_gremlin_2012_destroyed_draws_and_others_discard():
    g = scenario(bases=B3, rules=OLD)
    deck(g, 0, "Gnome")
    hand(g, 1, "Scout")
    g.destroy([put(g, 0, "Gremlin", 0)], 1, False)
    assert _names(g.players[0].hand) == ["Gnome"] and _names(g.players[1].discard) == ["Scout"]


# ---- 5. Pixie -----------------------------------------------------------------------------------
def test_pixie_minion_counters_your_minions_here_when_your_hand_beats_someone():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"])
    walker = put(g, 0, "Walker", 0)
    theirs = put(g, 1, "Scout", 0)
    rex = put(g, 0, "King Rex", 1)
    hand(g, 0, "Gnome", "Gremlin")
    hand(g, 1, "Scout", "Scout", "Scout")
    hand(g, 2, "Walker")  # 2 > 1: at least one other player
    pixie = g.play_minion(0, hand(g, 0, "Pixie"), g.slots[0])
    assert (walker.counters, pixie.counters, theirs.counters, rex.counters) == (1, 1, 0, 0)
    assert g.power(pixie) == 3 and g.power(walker) == 3


def test_pixie_minion_needs_more_cards_than_someone_and_each_counter_is_a_may():
    g = scenario(bases=B3)
    walker = put(g, 0, "Walker", 0)
    hand(g, 0, "Gnome")
    hand(g, 1, "Scout")  # 1 v 1: not more
    pixie = g.play_minion(0, hand(g, 0, "Pixie"), g.slots[0])
    assert walker.counters == pixie.counters == 0
    g = scenario(bases=B3, strategies=_seat(0, {"Pixie": [None]}))
    walker = put(g, 0, "Walker", 0)
    hand(g, 0, "Gnome")
    pixie = g.play_minion(0, hand(g, 0, "Pixie"), g.slots[0])
    assert (walker.counters, pixie.counters) == (0, 1)


def test_pixie_action_destroys_an_opponents_action_where_you_are_outranked_then_two_counters():
    g = scenario(bases=B3)
    mine = put(g, 0, "Walker", 0)
    preserve = attach(g, 1, "Wildlife Preserve", 0)  # seat 0 leads the Oasis
    put(g, 1, "King Rex", 1)
    overrun = attach(g, 1, "Overrun", 1)  # seat 1 outranks seat 0 at the Library
    own = attach(g, 0, "Flame Trap", 2)
    big = put(g, 0, "Gnome", 2)
    g.play_action(0, hand(g, 0, "Pixie"))
    assert overrun.card in g.players[1].discard and preserve in g.slots[0].actions
    assert own in g.slots[2].actions
    assert (mine.counters, big.counters) == (2, 0)  # HELP: the base with the smallest gap (Oasis)
    assert _names(g.players[0].discard) == ["Pixie"]


def test_pixie_action_counters_may_be_split_and_need_an_action_destroyed():  # [D10]
    g = scenario(bases=B3, strategies=_seat(0, {"Pixie:action": [0], "Pixie:counter": [0, 1]}))
    a, b = put(g, 0, "Walker", 0), put(g, 0, "Gnome", 1)
    own = attach(g, 0, "Flame Trap", 2)  # only your own: mandatory [D10]
    g.play_action(0, hand(g, 0, "Pixie"))
    assert own.card in g.players[0].discard and (a.counters, b.counters) == (1, 1)
    g = scenario(bases=B3)
    a = put(g, 0, "Walker", 0)
    g.play_action(0, hand(g, 0, "Pixie"))  # no action in play: no counters
    assert a.counters == 0


def test_pixie_is_offered_both_ways_and_the_baseline_plays_the_action_only_when_it_helps():  # [D20]
    g = scenario(bases=B3)
    pixie = hand(g, 0, "Pixie")
    g.free_minion = 1
    moves = g.play_moves(0)
    assert ("action", pixie) in moves and ("hand", pixie, g.slots[0]) in moves
    assert not _want(g, 0, "Pixie")  # no opposing action in play
    attach(g, 1, "Overrun", 1)
    assert _want(g, 0, "Pixie")
    hand(g, 0, "Gnome", "Gremlin")  # 2 cards v 0 after the play: the minion mode's counters
    assert not _want(g, 0, "Pixie")


def test_the_baseline_plays_a_pixie_as_a_minion_when_its_action_mode_cannot_be_played_now():
    """§7.5's default keeps a Pixie for its action mode only when that mode can be played: with
    the action play spent, or under Mark of Sleep, the minion mode is the only way to play it
    (§1.11: minions are played whenever a minion play is open)."""
    g = scenario(bases=B3)
    attach(g, 1, "Overrun", 1)  # another player's action in play: the default wants the action
    pixie = hand(g, 0, "Pixie")
    g.free_minion = 1
    assert _want(g, 0, "Pixie")
    moves = g.play_moves(0)
    assert moves[greedy_play(g, 0, moves)] == ("action", pixie)  # the action play is open
    g.free_action = 0
    moves = g.play_moves(0)
    assert ("action", pixie) not in moves
    assert moves[greedy_play(g, 0, moves)][:2] == ("hand", pixie)
    g.free_action, g.sleep[0] = 1, ("actions", 1)  # Mark of Sleep: no actions this turn
    moves = g.play_moves(0)
    assert ("action", pixie) not in moves and moves[greedy_play(g, 0, moves)][:2] == ("hand", pixie)


# ---- 6. Block the Path --------------------------------------------------------------------------
def test_block_the_path_names_a_faction_for_each_other_player():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"])
    put(g, 0, "Walker", 1)  # seat 0 leads only at the Library
    put(g, 0, "Walker", 2), put(g, 1, "Scout", 2)
    a = g.play_action(0, hand(g, 0, "Block the Path"))
    assert a.host is g.slots[1]
    assert a.named == ("Ninjas", "Robots")  # ties: drafted first; Robots first
    ninja, pirate = hand(g, 1, "Shinobi", "Cut Lass")
    assert not g.minion_allowed(1, ninja, a.host) and g.minion_allowed(1, pirate, a.host)
    assert not g.minion_allowed(2, hand(g, 2, "Zapbot"), a.host)
    assert g.minion_allowed(0, hand(g, 0, "King Rex"), a.host)
    g.current = 1
    assert all(mv[2] is not a.host for mv in g.minion_moves(1) if mv[1] is ninja)
    m = put(g, 1, "Shinobi", 0)
    assert g.can_move(1, m, a.host)  # moving in is allowed


def test_block_the_path_default_host_is_where_you_lead_with_the_smallest_gap():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 1)  # lead, gap 15
    put(g, 0, "Walker", 2)  # lead, gap 19
    put(g, 1, "King Rex", 0), put(g, 1, "King Rex", 0)  # gap -2 but seat 1 leads
    assert g.play_action(0, hand(g, 0, "Block the Path")).host is g.slots[1]


def test_block_the_path_scripted_names():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"],
                 strategies=_seat(0, {"Block the Path:faction": ["Pirates", "Tricksters"]}, 3))
    a = g.play_action(0, hand(g, 0, "Block the Path"))
    assert a.named == ("Pirates", "Tricksters")
    assert _asked(g, 0, "Block the Path:faction") == [["Ninjas", "Pirates"], ["Robots", "Tricksters"]]


def test_block_the_path_2012_names_one_faction_of_the_opponent_pick():
    rules = Rules(players=3, tricksters="2012")
    g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"], rules=rules,
                 strategies=_seat(0, {}, 3))
    g.players[1].vp, g.players[2].vp = 3, 2
    a = g.play_action(0, hand(g, 0, "Block the Path"))
    assert a.named == ("Ninjas",)
    assert _asked(g, 0, "Block the Path:faction") == [["Ninjas", "Pirates", "Robots", "Tricksters"]]
    assert g.minion_allowed(2, hand(g, 2, "Zapbot"), a.host)


# ---- 7. Enshrouding Mist ------------------------------------------------------------------------
def test_enshrouding_mist_goes_where_place_puts_your_best_minion_and_its_talent_grants_a_play_there():
    g = scenario(bases=B3)
    put(g, 1, "Walker", 1)  # Rex alone at the Library would take its 4 VP
    rex, small = hand(g, 0, "King Rex", "Walker")
    mist = g.play_action(0, hand(g, 0, "Enshrouding Mist"))
    assert mist.host is g.slots[1]
    g.free_minion = 0
    assert ("talent", mist) in g.play_moves(0) and ab.talent_wanted(g, 0, mist)
    g.do_move(0, ("talent", mist))
    assert g.grants == [("M@", g.slots[1])]
    assert {(mv[1].name, mv[2].index) for mv in g.minion_moves(0)} == {("King Rex", 1), ("Walker", 1)}
    assert ("talent", mist) not in g.play_moves(0)  # once per turn
    g.end_of_turn(0)
    g.in_play_phase = True
    assert ("talent", mist) in g.play_moves(0)  # each of your turns


def test_enshrouding_mist_is_held_without_a_minion():
    g = scenario(bases=B3)
    hand(g, 0, "Enshrouding Mist", "Flame Trap")
    assert not _want(g, 0, "Enshrouding Mist")
    hand(g, 0, "Walker")
    assert _want(g, 0, "Enshrouding Mist")


def test_enshrouding_mist_2012_works_the_same():
    g = scenario(bases=B3, rules=OLD)
    hand(g, 0, "Gnome")
    mist = g.play_action(0, hand(g, 0, "Enshrouding Mist"))
    g.do_move(0, ("talent", mist))
    assert g.grants == [("M@", mist.host)]


# ---- 8. Flame Trap ------------------------------------------------------------------------------
def test_flame_trap_destroys_itself_and_another_players_minion_played_here():
    g = scenario(bases=B3)
    trap = attach(g, 0, "Flame Trap", 0)
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])  # own: nothing
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[1])  # elsewhere: nothing
    assert trap in g.slots[0].actions
    g.play_minion(1, hand(g, 1, "King Rex"), g.slots[0])
    assert _on(g, 0) == ["Walker"] and _names(g.players[0].discard) == ["Flame Trap"]
    assert _names(g.players[1].discard) == ["King Rex"]


def test_a_players_reactions_that_spend_nothing_come_first_leprechaun_before_flame_trap():
    """§1.10 [D13]: each player orders its own simultaneous triggers, the baseline those that
    spend nothing first. The trap entered play before the Leprechaun, yet the Leprechaun
    destroys the weaker minion and the trap, with nothing left to destroy, stays."""
    g = scenario(bases=B3)
    trap = attach(g, 0, "Flame Trap", 0)
    put(g, 0, "Leprechaun", 0)
    g.current = 1
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])
    assert _on(g, 0) == ["Leprechaun"] and _names(g.players[1].discard) == ["Armor Stego"]
    assert trap in g.slots[0].actions and _names(g.players[0].discard) == []


def test_a_player_orders_its_own_reactions_flame_trap_before_leprechaun():
    """§1.10: the order above is the baseline's; the player may resolve the trap first. Then
    the trap is spent on the minion, and the Leprechaun, with nothing left to destroy, keeps
    its once-per-turn use [D29]. The choice lists only the cards reacting on that base."""
    g = scenario(bases=B3, strategies=_seat(0, {"after played: next": [lambda opts: 1]}))
    trap = attach(g, 0, "Flame Trap", 0)
    lep = put(g, 0, "Leprechaun", 0)
    put(g, 0, "Brownie", 1), attach(g, 0, "Pay the Piper", 1)  # elsewhere: not asked
    deck(g, 0, "Walker")  # the Brownie's draw
    g.current = 1
    g.play_minion(1, hand(g, 1, "Armor Stego"), g.slots[0])
    assert _asked(g, 0, "after played: next") == [[lep, trap]]
    assert _on(g, 0) == ["Leprechaun"] and _names(g.players[1].discard) == ["Armor Stego"]
    assert trap not in g.slots[0].actions and _names(g.players[0].discard) == ["Flame Trap"]
    assert ("leprechaun", lep.card.uid) not in g.flags and _names(g.players[0].hand) == ["Walker"]


def test_no_reaction_order_is_asked_for_ones_own_minion_or_a_single_reaction():
    g = scenario(bases=B3, strategies=_seat(0, {}))
    attach(g, 0, "Flame Trap", 0), put(g, 0, "Leprechaun", 0), attach(g, 0, "Pay the Piper", 1)
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])  # its own minion: nothing reacts
    g.current = 1
    g.play_minion(1, hand(g, 1, "Walker"), g.slots[1])  # one reaction on that base
    assert _asked(g, 0, "after played: next") == []


def test_flame_trap_stays_when_the_minion_cannot_be_destroyed_or_is_protected():  # [D10]
    g = scenario(bases=B3)
    trap = attach(g, 0, "Flame Trap", 0)
    warbot = g.play_minion(1, hand(g, 1, "Warbot"), g.slots[0])
    assert warbot in g.slots[0].minions and trap in g.slots[0].actions
    attach(g, 1, "Wildlife Preserve", 0)  # seat 1's minions here: not affected by actions
    scout = g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    assert scout in g.slots[0].minions and trap in g.slots[0].actions


def test_flame_trap_start_of_turn_reduces_the_breakpoint_when_alone_in_first():
    g = scenario(bases=B3)
    attach(g, 0, "Flame Trap", 0)
    put(g, 0, "Walker", 0)
    g.start_of_turn(0)
    assert g.breakpoint(g.slots[0]) == 8
    g.end_of_turn(0)
    assert g.breakpoint(g.slots[0]) == 12
    put(g, 1, "Walker", 0)  # tied first: no
    g.start_of_turn(0)
    assert g.breakpoint(g.slots[0]) == 12
    g = scenario(bases=B3, strategies=_seat(0, {"Flame Trap": [True]}))
    attach(g, 0, "Flame Trap", 0)
    g.start_of_turn(1)  # only at the start of your turn
    assert g.breakpoint(g.slots[0]) == 12
    g.start_of_turn(0)  # scripted: reduce without a minion there
    assert g.breakpoint(g.slots[0]) == 8


def test_flame_trap_default_host_is_where_an_opponent_leads_with_the_smallest_gap():
    g = scenario(bases=B3)
    put(g, 1, "King Rex", 1)  # gap 15
    put(g, 1, "Walker", 2)  # gap 19
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0)  # seat 0 leads, gap -2
    assert g.play_action(0, hand(g, 0, "Flame Trap")).host is g.slots[1]


def test_flame_trap_2012_is_destroyed_even_when_the_minion_survives_and_has_no_reduction():
    g = scenario(bases=B3, rules=OLD)
    attach(g, 0, "Flame Trap", 0)
    warbot = g.play_minion(1, hand(g, 1, "Warbot"), g.slots[0])
    assert warbot in g.slots[0].minions and not g.slots[0].actions
    assert _names(g.players[0].discard) == ["Flame Trap"]
    attach(g, 0, "Flame Trap", 0)
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    assert _on(g, 0) == ["Warbot"] and not g.slots[0].actions
    attach(g, 0, "Flame Trap", 1)
    put(g, 0, "Walker", 1)
    g.start_of_turn(0)
    assert g.breakpoint(g.slots[1]) == 22


# ---- 9. Hideout ---------------------------------------------------------------------------------
def test_hideout_stops_other_players_moving_minions_there():
    g = scenario(bases=B3)
    attach(g, 0, "Hideout", 0)
    theirs, mine = put(g, 1, "Scout", 1), put(g, 0, "Walker", 1)
    assert not g.can_move(1, theirs, g.slots[0]) and not g.can_move(1, mine, g.slots[0])
    assert g.can_move(0, theirs, g.slots[0]) and g.can_move(1, theirs, g.slots[2])
    g = scenario(bases=B3, rules=OLD)  # 2012: no such clause
    attach(g, 0, "Hideout", 0)
    assert g.can_move(1, put(g, 1, "Scout", 1), g.slots[0])


def test_hideout_talent_swaps_with_a_hand_card_then_destroys_a_small_minion_here():
    g = scenario(bases=B3)
    hide = attach(g, 0, "Hideout", 0)
    flame = attach(g, 1, "Flame Trap", 0)
    mate, rex = put(g, 1, "First Mate", 0), put(g, 1, "King Rex", 0)
    mine = put(g, 0, "Walker", 0)
    overrun = hand(g, 0, "Overrun")
    assert ("talent", hide) in ab.talent_moves(g, 0) and ab.talent_wanted(g, 0, hide)
    g.do_move(0, ("talent", hide))
    assert [a.card for a in g.slots[0].actions] == [overrun, flame.card]
    new = g.slots[0].actions[0]
    assert new.controller == 0 and new.entered == hide.entered
    assert _names(g.players[0].hand) == ["Hideout"]
    assert mate not in g.slots[0].minions and rex in g.slots[0].minions and mine in g.slots[0].minions


def test_hideout_talent_from_the_deck_shuffles_it_and_the_destroy_is_a_may():
    g = scenario(bases=B3, strategies=_seat(0, {"Hideout:destroy": [None]}))
    hide = attach(g, 0, "Hideout", 0)
    mate = put(g, 1, "First Mate", 0)
    deck(g, 0, "Walker", "Pay the Piper", "Gnome", "Gremlin")
    assert not ab.talent_wanted(g, 0, hide)  # the baseline swaps only from hand
    g.do_move(0, ("talent", hide))
    assert _names(a.card for a in g.slots[0].actions) == ["Pay the Piper"]
    assert sorted(_names(g.players[0].deck)) == ["Gnome", "Gremlin", "Hideout", "Walker"]
    assert mate in g.slots[0].minions
    assert _asked(g, 0, "Hideout:destroy") == [[mate, None]]


def test_hideout_talent_searches_an_empty_deck_rebuilt_from_the_discard_pile():  # §1.9
    g = scenario(bases=B3, strategies=_seat(0, {"Hideout:destroy": [None]}))
    hide = attach(g, 0, "Hideout", 0)
    g.players[0].deck.clear()
    discard(g, 0, "Walker", "Pay the Piper", "Gnome")
    assert ("talent", hide) in ab.talent_moves(g, 0)  # only the discard pile holds a candidate
    g.do_move(0, ("talent", hide))
    assert _names(a.card for a in g.slots[0].actions) == ["Pay the Piper"]
    assert sorted(_names(g.players[0].deck)) == ["Gnome", "Hideout", "Walker"] and not g.players[0].discard
    g = scenario(bases=B3)
    hide = attach(g, 0, "Hideout", 0)
    g.players[0].deck.clear()
    discard(g, 0, "Walker", "Gnome")
    assert ("talent", hide) not in ab.talent_moves(g, 0)  # no candidate anywhere [D21]


def test_hideout_swap_is_not_a_play_but_block_the_path_names_its_factions():  # [D21]
    g = scenario(bases=B3)
    hide = attach(g, 0, "Hideout", 0)
    hand(g, 0, "Block the Path")
    g.do_move(0, ("talent", hide))
    new = g.slots[0].actions[0]
    assert new.card.name == "Block the Path" and new.named == ("Ninjas",)
    assert g.actions_played[0] == 0


def test_hideout_talent_needs_a_candidate_and_the_2012_hideout_has_none():  # [D21]
    g = scenario(bases=B3)
    hide = attach(g, 0, "Hideout", 0)
    hand(g, 0, "Mark of Sleep", "Walker")
    assert ("talent", hide) not in ab.talent_moves(g, 0)
    g = scenario(bases=B3, rules=OLD)
    hide = attach(g, 0, "Hideout", 0)
    hand(g, 0, "Overrun")
    assert ("talent", hide) not in ab.talent_moves(g, 0)


def test_hideout_default_host_is_where_you_lead_by_most():
    for rules in (None, OLD):
        g = scenario(bases=B3, rules=rules)
        put(g, 0, "Walker", 0)  # lead 2
        put(g, 0, "King Rex", 1), put(g, 1, "Walker", 1)  # lead 5
        put(g, 1, "King Rex", 2)
        assert g.play_action(0, hand(g, 0, "Hideout")).host is g.slots[1]


def test_hideout_2012_shields_your_minions_there_from_one_action_then_is_destroyed():  # [D41]
    g = scenario(bases=B3, rules=OLD)
    attach(g, 0, "Hideout", 0)
    walker = put(g, 0, "Walker", 0)
    g.current = 1
    g.play_action(1, hand(g, 1, "Beam Up"))
    assert walker in g.slots[0].minions and not g.slots[0].actions
    assert _names(g.players[0].discard) == ["Hideout"]
    g.play_action(1, hand(g, 1, "Beam Up"))  # used up: the next action affects it
    assert _names(g.players[0].hand) == ["Walker"]


def test_hideout_2012_shields_every_minion_of_yours_there_for_the_whole_action():
    g = scenario(bases=B3, rules=OLD)
    attach(g, 0, "Hideout", 0)
    w1, w2 = put(g, 0, "Walker", 0), put(g, 0, "Walker", 0)
    theirs = put(g, 1, "Walker", 0)
    elsewhere = put(g, 0, "Walker", 1)
    g.current = 1
    g.strategies[1] = Scripted({"Cannon": [w1, w2]})  # up to two minions of power <= 2
    g.play_action(1, hand(g, 1, "Cannon"))  # both chosen; the shield acts as they would go
    assert w1 in g.slots[0].minions and w2 in g.slots[0].minions
    assert _names(g.players[0].discard) == ["Hideout"]
    assert theirs in g.slots[0].minions and elsewhere in g.slots[1].minions


def test_hideout_2012_a_play_on_action_on_a_shielded_minion_has_no_effect():
    g = scenario(bases=B3, rules=OLD)
    attach(g, 0, "Hideout", 0)
    walker = put(g, 0, "Walker", 0)
    g.current = 1
    g.play_action(1, hand(g, 1, "Poison"))
    assert not walker.attached and not g.slots[0].actions
    assert _names(g.players[1].discard) == ["Poison"] and _names(g.players[0].discard) == ["Hideout"]


def test_hideout_2012_does_not_shield_from_its_owners_actions():
    g = scenario(bases=B3, rules=OLD)
    hide = attach(g, 0, "Hideout", 0)
    put(g, 0, "Walker", 0)
    g.play_action(0, hand(g, 0, "Beam Up"))  # HIT_M: the owner's only minion
    assert _names(g.players[0].hand) == ["Walker"] and hide in g.slots[0].actions


def test_hideout_2012_does_not_shield_from_minion_abilities():
    g = scenario(bases=B3, rules=OLD)
    hide = attach(g, 0, "Hideout", 0)
    walker = put(g, 0, "Walker", 0)
    g.play_minion(1, hand(g, 1, "Ninja Master"), g.slots[0])
    assert walker not in g.slots[0].minions and hide in g.slots[0].actions


# ---- 10. Mark of Sleep --------------------------------------------------------------------------
def test_mark_of_sleep_chooses_per_player_moves_for_pirates_else_actions():  # [D36]
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"])
    m1 = put(g, 1, "Scout", 0)
    g.play_action(0, hand(g, 0, "Mark of Sleep"))
    assert g.sleep == {1: ("moves", 0), 2: ("actions", 0)}
    assert not g.can_move(1, m1, g.slots[1]) and g.can_play_actions(1)
    assert not g.can_play_actions(2)
    g.current = 2
    hand(g, 2, "Tech Center")
    assert not [mv for mv in g.play_moves(2) if mv is not None and mv[0] == "action"]
    g.start_of_turn(1), g.start_of_turn(2)
    assert len(g.sleep) == 2
    g.start_of_turn(0)  # until the start of your next turn
    assert g.sleep == {} and g.can_play_actions(2)


def test_mark_of_sleep_scripted_choice():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"],
                 strategies=_seat(0, {"Mark of Sleep": ["actions", "moves"]}, 3))
    g.play_action(0, hand(g, 0, "Mark of Sleep"))
    assert g.sleep == {1: ("actions", 0), 2: ("moves", 0)}
    assert _asked(g, 0, "Mark of Sleep") == [["actions", "moves"]] * 2


def test_mark_of_sleep_2012_stops_the_opponent_pick_from_playing_actions():
    rules = Rules(players=3, tricksters="2012")
    g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"], rules=rules)
    g.players[2].vp = 4
    g.play_action(0, hand(g, 0, "Mark of Sleep"))
    assert g.sleep == {2: ("actions_on_turn", 0)}
    g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"], rules=rules,
                 strategies=_seat(0, {"Mark of Sleep": [1]}, 3))
    g.play_action(0, hand(g, 0, "Mark of Sleep"))
    assert g.sleep == {1: ("actions_on_turn", 0)} and g.can_move(1, put(g, 1, "Scout", 0), g.slots[1])


def test_mark_of_sleep_2012_holds_during_the_marked_players_next_turn_only():
    """§8.10: "during that player's next turn they cannot play actions (Specials included)":
    not in the turn it was played (the marked player's Specials in its scoring window), not in
    a third player's turn, and no longer from the marking player's next turn."""
    rules = Rules(players=3, tricksters="2012")
    g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"], rules=rules)
    g.players[2].vp = 4  # the opponent pick
    g.play_action(0, hand(g, 0, "Mark of Sleep"))
    allowed = []
    for turn in (0, 1, 2):
        if turn:
            g.current = turn
            g.start_of_turn(turn)
        allowed.append(g.can_play_actions(2))
    g.current = 0
    g.start_of_turn(0)
    assert allowed + [g.can_play_actions(2)] == [True, True, False, True]


# ---- 11. Pay the Piper --------------------------------------------------------------------------
def test_pay_the_piper_makes_another_player_playing_here_discard_a_card():
    g = scenario(bases=B3)
    attach(g, 0, "Pay the Piper", 0)
    hand(g, 0, "Gnome")
    hand(g, 1, "Beam Up", "Walker")
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])  # own: nothing
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[1])  # elsewhere: nothing
    assert len(g.players[0].hand) == 1 and len(g.players[1].hand) == 2
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    assert _names(g.players[1].hand) == ["Beam Up"] and _names(g.players[1].discard) == ["Walker"]
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[0])  # an empty hand: nothing
    assert not g.players[1].hand and len(g.players[1].discard) == 2


def test_pay_the_piper_the_discarding_player_chooses_and_the_default_host():
    g = scenario(bases=B3, strategies=_seat(1, {"Pay the Piper": [0]}))
    put(g, 1, "King Rex", 2), put(g, 1, "Walker", 1)
    a = g.play_action(0, hand(g, 0, "Pay the Piper"))
    assert a.host is g.slots[2]  # most power of other players
    hand(g, 1, "Beam Up", "Walker")
    g.play_minion(1, hand(g, 1, "Scout"), g.slots[2])
    assert _names(g.players[1].discard) == ["Beam Up"]


# ---- 12. Take The Shinies -----------------------------------------------------------------------
def test_take_the_shinies_each_other_player_discards_two_random_cards():
    for rules, name in ((Rules(players=3), "Take The Shinies"), (Rules(players=3, tricksters="2012"),
                                                                  "Take the Shinies")):
        g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"], rules=rules)
        hand(g, 0, "Gnome")
        hand(g, 1, "Scout", "Walker", "King Rex")
        hand(g, 2, "Zapbot")
        hand(g, 0, name)
        assert _want(g, 0, name)
        g.play_action(0, g.players[0].hand[-1])
        assert len(g.players[1].hand) == 1 and len(g.players[1].discard) == 2
        assert not g.players[2].hand and _names(g.players[2].discard) == ["Zapbot"]
        assert _names(g.players[0].hand) == ["Gnome"] and _names(g.players[0].discard) == [name]


# ==== Tricksters, 2012 list (§8): Disenchant (the other cards are tested above) ================
def test_disenchant_destroys_an_opponents_action_on_a_minion_where_you_are_outranked_first():
    g = scenario(bases=B3, rules=OLD)
    overrun = attach(g, 1, "Overrun", 0)
    rex = put(g, 1, "King Rex", 1)
    upgrade = attach(g, 1, "Upgrade", rex)
    hand(g, 0, "Disenchant")
    assert _want(g, 0, "Disenchant")
    g.play_action(0, g.players[0].hand[0])
    assert upgrade not in rex.attached and overrun in g.slots[0].actions
    assert _names(g.players[1].discard) == ["Upgrade"]
    g.play_action(0, hand(g, 0, "Disenchant"))  # then one on a base
    assert not g.slots[0].actions


def test_disenchant_is_held_without_a_target_and_takes_your_own_when_played():
    g = scenario(bases=B3, rules=OLD)
    own = attach(g, 0, "Flame Trap", 0)
    put(g, 0, "King Rex", 1)
    hidden = attach(g, 1, "Smoke Bomb", put(g, 1, "Walker", 1))  # seat 0 leads there: not a target
    hand(g, 0, "Disenchant")
    assert not _want(g, 0, "Disenchant")
    g.play_action(0, g.players[0].hand[0])  # mandatory: another player's first action, else yours
    assert hidden.card in g.players[1].discard and own in g.slots[0].actions
    g.play_action(0, hand(g, 0, "Disenchant"))
    assert own.card in g.players[0].discard and not g.slots[0].actions


def test_disenchant_scripted_target():
    g = scenario(bases=B3, rules=OLD, strategies=_seat(0, {"Disenchant": [1]}))
    attach(g, 1, "Overrun", 0)
    own = attach(g, 0, "Flame Trap", 1)
    g.play_action(0, hand(g, 0, "Disenchant"))
    assert own not in g.slots[1].actions and len(g.slots[0].actions) == 1


# ==== Zombies (§10) ==============================================================================

# ---- 1. Zombie Lord -----------------------------------------------------------------------------
def test_zombie_lord_plays_small_discard_minions_on_each_base_where_you_have_none():
    g = scenario(bases=B3)
    put(g, 0, "Walker", 1)
    discard(g, 0, "Tenacious Z", "Grave Digger", "Tenacious Z")
    g.play_minion(0, hand(g, 0, "Zombie Lord"), g.slots[0])
    assert _on(g, 0) == ["Zombie Lord"] and _on(g, 1) == ["Walker"] and _on(g, 2) == ["Tenacious Z"]
    assert _names(g.players[0].discard) == ["Grave Digger", "Tenacious Z"]
    assert g.minions_played[0] == 2


def test_zombie_lord_fills_each_listed_base_and_respects_overrun():
    g = scenario(bases=B3)
    attach(g, 1, "Overrun", 2)
    discard(g, 0, "Tenacious Z", "Tenacious Z", "Walker")
    g.play_minion(0, hand(g, 0, "Zombie Lord"), g.slots[0])
    assert _on(g, 1) == ["Tenacious Z"] and _on(g, 2) == [] and len(g.players[0].discard) == 2


def test_zombie_lord_may_decline_a_base():
    g = scenario(bases=B3, strategies=_seat(0, {"Zombie Lord": [None]}))
    discard(g, 0, "Tenacious Z", "Tenacious Z")
    g.play_minion(0, hand(g, 0, "Zombie Lord"), g.slots[0])
    assert _on(g, 1) == [] and _on(g, 2) == ["Tenacious Z"]
    assert [len(o) for o in _asked(g, 0, "Zombie Lord")] == [3, 3]  # two copies and None, twice


def test_zombie_lord_fills_its_bases_in_the_order_its_player_picks():
    """Each base in turn is the player's pick (the baseline's: slot order, as above): with one
    small minion in the discard pile, the base picked first gets it."""
    g = scenario(bases=B3, strategies=_seat(0, {"Zombie Lord: base": [lambda opts: 1]}))
    discard(g, 0, "Tenacious Z")
    g.play_minion(0, hand(g, 0, "Zombie Lord"), g.slots[0])
    assert _on(g, 1) == [] and _on(g, 2) == ["Tenacious Z"]
    assert _asked(g, 0, "Zombie Lord: base") == [[g.slots[1], g.slots[2]]]


# ---- 2. Grave Digger ----------------------------------------------------------------------------
def test_grave_digger_takes_your_best_discard_minion():
    g = scenario(bases=B3)
    discard(g, 0, "Walker", "Zombie Lord", "Grave Robbing")
    g.play_minion(0, hand(g, 0, "Grave Digger"), g.slots[0])
    assert _names(g.players[0].hand) == ["Zombie Lord"]
    assert _names(g.players[0].discard) == ["Walker", "Grave Robbing"]
    g = scenario(bases=B3, strategies=_seat(0, {"Grave Digger": [None]}))
    discard(g, 0, "Walker")
    g.play_minion(0, hand(g, 0, "Grave Digger"), g.slots[0])
    assert not g.players[0].hand and _names(g.players[0].discard) == ["Walker"]


# ---- 3. Tenacious Z (in the core: Game.minion_moves) --------------------------------------------
def test_tenacious_z_plays_from_the_discard_pile_once_a_turn_without_a_grant():
    g = scenario(bases=B3)
    attach(g, 1, "Overrun", 2)
    tz = discard(g, 0, "Tenacious Z", "Tenacious Z")
    moves = [mv for mv in g.minion_moves(0) if mv[0] == "tenacious"]
    assert moves == [("tenacious", tz[0], g.slots[0]), ("tenacious", tz[0], g.slots[1])]
    g.free_minion = 0
    g.do_move(0, moves[1])
    assert _on(g, 1) == ["Tenacious Z"] and g.free_minion == 0 and g.minions_played[0] == 1
    assert not [mv for mv in g.minion_moves(0) if mv[0] == "tenacious"]  # one use per turn
    g.end_of_turn(0)
    g.in_play_phase = True
    assert [mv for mv in g.minion_moves(0) if mv[0] == "tenacious"]
    g.current = 1
    assert not [mv for mv in g.minion_moves(0) if mv[0] == "tenacious"]  # on your turn only


def test_tenacious_z_from_hand_is_an_ordinary_minion():
    g = scenario(bases=B3)
    tz = hand(g, 0, "Tenacious Z")
    assert {mv[0] for mv in g.minion_moves(0)} == {"hand"}
    g.do_move(0, ("hand", tz, g.slots[0]))
    assert g.free_minion == 0 and not g.minion_moves(0)


# ---- 4. Walker ----------------------------------------------------------------------------------
def test_walker_discards_a_small_minion_and_keeps_anything_else():
    for top, kept in (("Tenacious Z", False), ("Grave Digger", True), ("Outbreak", True)):
        g = scenario(bases=B3)
        deck(g, 0, "Walker", top)
        g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])
        assert (_names(g.players[0].deck)[-1] == top) is kept
        assert _names(g.players[0].discard) == ([] if kept else [top])


def test_walker_may_discard_an_action_and_reads_a_refilled_deck():
    g = scenario(bases=B3, strategies=_seat(0, {"Walker": [0]}))
    deck(g, 0, "Outbreak")
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])
    assert _names(g.players[0].discard) == ["Outbreak"] and not g.players[0].deck
    g = scenario(bases=B3)
    discard(g, 0, "Tenacious Z")  # empty deck: the discard pile becomes the deck first (§1.9)
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])
    assert _names(g.players[0].discard) == ["Tenacious Z"] and not g.players[0].deck
    g = scenario(bases=B3)
    g.play_minion(0, hand(g, 0, "Walker"), g.slots[0])  # nothing anywhere: nothing
    assert not g.players[0].discard


# ---- 5. Grave Robbing ---------------------------------------------------------------------------
def test_grave_robbing_takes_the_best_minion_else_the_first_action_in_data_order():
    g = scenario(bases=B3)
    discard(g, 0, "Walker", "Grave Digger", "Outbreak")
    hand(g, 0, "Grave Robbing")
    assert _want(g, 0, "Grave Robbing")
    g.play_action(0, g.players[0].hand[0])
    assert _names(g.players[0].hand) == ["Grave Digger"]
    assert _names(g.players[0].discard) == ["Walker", "Outbreak", "Grave Robbing"]
    g = scenario(bases=B3)
    discard(g, 0, "Overrun", "Lend a Hand", "Beam Up")
    g.play_action(0, hand(g, 0, "Grave Robbing"))
    assert _names(g.players[0].hand) == ["Beam Up"]  # Aliens come first in the card list


def test_grave_robbing_is_held_for_small_minions_and_takes_a_scripted_card():
    g = scenario(bases=B3)
    discard(g, 0, "Walker", "Tenacious Z")
    hand(g, 0, "Grave Robbing")
    assert not _want(g, 0, "Grave Robbing")
    g = scenario(bases=B3, strategies=_seat(0, {"Grave Robbing": [0]}))
    discard(g, 0, "Walker", "Grave Digger")
    g.play_action(0, hand(g, 0, "Grave Robbing"))
    assert _names(g.players[0].hand) == ["Walker"]


# ---- 6. Lend a Hand -----------------------------------------------------------------------------
def test_lend_a_hand_shuffles_your_discard_pile_into_your_deck():
    g = scenario(bases=B3)
    deck(g, 0, "Walker")
    discard(g, 0, "Outbreak", "Tenacious Z", "Grave Digger")
    hand(g, 0, "Lend a Hand")
    assert _want(g, 0, "Lend a Hand")
    g.play_action(0, g.players[0].hand[0])
    assert sorted(_names(g.players[0].deck)) == ["Grave Digger", "Outbreak", "Tenacious Z", "Walker"]
    assert _names(g.players[0].discard) == ["Lend a Hand"]


def test_lend_a_hand_any_number_and_held_while_the_deck_is_larger():
    g = scenario(bases=B3, strategies=_seat(0, {"Lend a Hand": [None]}))
    discard(g, 0, "Outbreak", "Tenacious Z")
    g.play_action(0, hand(g, 0, "Lend a Hand"))
    assert _names(g.players[0].deck) == ["Tenacious Z"]
    assert _names(g.players[0].discard) == ["Outbreak", "Lend a Hand"]
    g = scenario(bases=B3)
    deck(g, 0, "Walker", "Walker")
    discard(g, 0, "Outbreak")
    hand(g, 0, "Lend a Hand")
    assert not _want(g, 0, "Lend a Hand")


# ---- 7. Mall Crawl ------------------------------------------------------------------------------
def test_mall_crawl_discards_every_copy_of_the_most_common_minion_and_shuffles():
    g = scenario(bases=B3)
    deck(g, 0, "Walker", "Tenacious Z", "Walker", "Grave Digger", "Tenacious Z", "Outbreak")
    hand(g, 0, "Mall Crawl")
    assert _want(g, 0, "Mall Crawl")
    g.play_action(0, g.players[0].hand[0])
    assert _names(g.players[0].discard) == ["Tenacious Z", "Tenacious Z", "Mall Crawl"]
    assert sorted(_names(g.players[0].deck)) == ["Grave Digger", "Outbreak", "Walker", "Walker"]


def test_mall_crawl_is_held_below_two_copies_and_takes_any_number():
    g = scenario(bases=B3)
    deck(g, 0, "Walker", "Grave Digger", "Outbreak")
    hand(g, 0, "Mall Crawl")
    assert not _want(g, 0, "Mall Crawl")
    g = scenario(bases=B3, strategies=_seat(0, {"Mall Crawl": ["Walker"], "Mall Crawl:copies": [1]}))
    deck(g, 0, "Walker", "Tenacious Z", "Walker")
    g.play_action(0, hand(g, 0, "Mall Crawl"))
    assert _names(g.players[0].discard) == ["Walker", "Mall Crawl"]
    assert _asked(g, 0, "Mall Crawl") == [["Tenacious Z", "Walker"]]  # data order
    assert _asked(g, 0, "Mall Crawl:copies") == [[2, 1, None]]


# ---- 8. Not Enough Bullets ----------------------------------------------------------------------
def test_not_enough_bullets_takes_every_copy_of_the_best_name():
    g = scenario(bases=B3)
    discard(g, 0, "Walker", "Grave Digger", "Walker", "Outbreak", "Walker")
    hand(g, 0, "Not Enough Bullets")
    assert _want(g, 0, "Not Enough Bullets")
    g.play_action(0, g.players[0].hand[0])  # 3 x 2 beats 1 x 4
    assert _names(g.players[0].hand) == ["Walker"] * 3
    assert _names(g.players[0].discard) == ["Grave Digger", "Outbreak", "Not Enough Bullets"]


def test_not_enough_bullets_held_below_four_and_any_number():
    g = scenario(bases=B3)
    discard(g, 0, "Tenacious Z", "Outbreak")
    hand(g, 0, "Not Enough Bullets")
    assert not _want(g, 0, "Not Enough Bullets")
    g = scenario(bases=B3, strategies=_seat(0, {"Not Enough Bullets:copies": [1]}))
    discard(g, 0, "Walker", "Walker", "Walker")
    g.play_action(0, hand(g, 0, "Not Enough Bullets"))
    assert _names(g.players[0].hand) == ["Walker"] and len(g.players[0].discard) == 3


# ---- 9. Outbreak --------------------------------------------------------------------------------
def test_outbreak_grants_a_minion_on_a_base_where_you_have_none():
    g = scenario(bases=B3)
    put(g, 0, "Walker", 0)
    rex = hand(g, 0, "King Rex")
    g.free_minion = 0
    hand(g, 0, "Outbreak")
    assert _want(g, 0, "Outbreak")
    g.play_action(0, next(c for c in g.players[0].hand if c.name == "Outbreak"))
    assert g.grants == [("M0", None)]
    assert [(mv[1], mv[2].index) for mv in g.minion_moves(0)] == [(rex, 1), (rex, 2)]


def test_outbreak_is_held_while_the_free_play_is_open_with_one_minion():
    g = scenario(bases=B3)
    hand(g, 0, "Outbreak", "King Rex")
    assert not _want(g, 0, "Outbreak")
    hand(g, 0, "Walker")
    assert _want(g, 0, "Outbreak")
    g = scenario(bases=B3)
    put(g, 0, "Walker", 0), put(g, 0, "Walker", 1), put(g, 0, "Walker", 2)
    hand(g, 0, "Outbreak", "King Rex")
    g.free_minion = 0
    assert not _want(g, 0, "Outbreak")  # you are everywhere


# ---- 10. Overrun --------------------------------------------------------------------------------
def test_overrun_bars_other_players_minions_and_is_destroyed_at_your_next_turn():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 2)  # lead, gap 14
    put(g, 0, "Walker", 1)  # lead, gap 20
    a = g.play_action(0, hand(g, 0, "Overrun"))
    assert a.host is g.slots[2]
    assert not g.minion_allowed(1, hand(g, 1, "Scout"), a.host)
    assert g.minion_allowed(0, hand(g, 0, "Walker"), a.host)
    assert g.can_move(1, put(g, 1, "Scout", 0), a.host)  # moving in is allowed
    g.start_of_turn(1)
    assert a in g.slots[2].actions
    g.start_of_turn(0)
    assert not g.slots[2].actions and _names(g.players[0].discard) == ["Overrun"]


# ---- 11. They Keep Coming -----------------------------------------------------------------------
def test_they_keep_coming_grants_a_minion_from_your_discard_pile():
    g = scenario(bases=B3)
    hand(g, 0, "They Keep Coming")
    assert not _want(g, 0, "They Keep Coming")
    walker, digger = discard(g, 0, "Walker", "Grave Digger")
    assert _want(g, 0, "They Keep Coming")
    g.free_minion = 0
    g.play_action(0, g.players[0].hand[0])
    assert g.grants == [("Mdisc", None)]
    moves = g.play_moves(0)
    pick = moves[greedy_play(g, 0, moves)]
    assert pick[:2] == ("discard", digger)
    g.do_move(0, pick)
    assert digger in [m.card for m in g.minions()] and not g.grants


# ---- 12. They're Coming To Get You --------------------------------------------------------------
def test_ctgy_offers_discard_minions_onto_its_base_with_the_free_play():
    g = scenario(bases=B3)
    a = attach(g, 0, "They're Coming To Get You", 1)
    walker, digger = discard(g, 0, "Walker", "Grave Digger")
    discard(g, 0, "Outbreak")
    moves = ab.ctgy_moves(g, 0)
    assert moves == [("ctgy", a, walker), ("ctgy", a, digger)]
    assert [mv for mv in g.play_moves(0) if mv is not None and mv[0] == "ctgy"] == moves
    g.do_move(0, moves[1])
    assert _on(g, 1) == ["Grave Digger"] and g.free_minion == 0 and g.minions_played[0] == 1
    assert ab.ctgy_moves(g, 0) == []


def test_ctgy_is_once_a_turn_and_only_with_the_free_play_or_a_generic_grant():
    g = scenario(bases=B3)
    a = attach(g, 0, "They're Coming To Get You", 1)
    discard(g, 0, "Walker", "Walker")
    g.grants = [("M", None)]
    g.do_move(0, ab.ctgy_moves(g, 0)[0])
    assert g.grants == [] and g.free_minion == 1  # the generic grant goes first
    assert ab.ctgy_moves(g, 0) == []  # used this turn
    g.end_of_turn(0)
    g.in_play_phase = True
    g.free_minion = 0
    g.grants = [("M2", None), ("M@", a.host), ("M0", None), ("Mdisc", None)]
    assert ab.ctgy_moves(g, 0) == []  # specific grants do not serve
    g.free_minion = 1
    assert len(ab.ctgy_moves(g, 0)) == 1
    g.current = 1
    assert ab.ctgy_moves(g, 0) == []  # your turn only
    g.current, g.in_play_phase = 0, False
    assert ab.ctgy_moves(g, 0) == []  # your Play Cards phase only


def test_ctgy_respects_blocked_bases_and_other_players_attachments():
    g = scenario(bases=B3)
    a = attach(g, 0, "They're Coming To Get You", 1)
    attach(g, 1, "Block the Path", 1, named=("Zombies",))
    discard(g, 0, "Walker", "King Rex")
    assert [mv[2].name for mv in ab.ctgy_moves(g, 0)] == ["King Rex"]
    attach(g, 1, "They're Coming To Get You", 2)
    assert all(mv[1] is a for mv in ab.ctgy_moves(g, 0))


def test_ctgy_baseline_uses_it_for_a_discard_minion_better_than_the_hand():
    g = scenario(bases=B3)
    put(g, 1, "Walker", 0)
    a = attach(g, 0, "They're Coming To Get You", 1)
    walker, digger = discard(g, 0, "Walker", "Grave Digger")
    hand(g, 0, "Tenacious Z")
    use = ab.WANT["They're Coming To Get You:use"]
    assert use(g, 0, ("ctgy", a, digger)) and not use(g, 0, ("ctgy", a, walker))
    moves = g.play_moves(0)
    assert moves[greedy_play(g, 0, moves)] == ("ctgy", a, digger)
    hand(g, 0, "Zombie Lord")
    assert not use(g, 0, ("ctgy", a, digger))


def test_ctgy_default_host_is_place_for_your_best_discard_minion():
    g = scenario(bases=B3)
    put(g, 1, "Walker", 1)  # the Grave Digger alone at the Library takes its 4 VP
    discard(g, 0, "Walker", "Grave Digger")
    hand(g, 0, "Tenacious Z")
    hand(g, 0, "They're Coming To Get You")
    assert _want(g, 0, "They're Coming To Get You")
    a = g.play_action(0, g.players[0].hand[1])
    assert a.host is g.slots[1]


# ==== full games ==================================================================================
SEATINGS = [("Tricksters", "Zombies"), ("Aliens", "Dinosaurs"), ("Ninjas", "Pirates"), ("Robots", "Wizards")]


@pytest.mark.parametrize("tricksters", ["current", "2012"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("player", [Random, Greedy])
def test_full_games_with_tricksters_and_zombies_finish(players, player, tricksters):
    for game in range(20):
        k = game % players  # Tricksters and Zombies sit at every seat in turn
        factions = SEATINGS[1:players][:k] + [SEATINGS[0]] + SEATINGS[1:players][k:]
        rules = Rules(players=players, tricksters=tricksters, trickster_bases=tricksters)
        g = play_seated(rules, factions, [player() for _ in range(players)], seed=11, game=game)
        vp = [pl.vp for pl in g.players]
        assert g.capped or (max(vp) >= 15 and vp.count(max(vp)) == 1)
