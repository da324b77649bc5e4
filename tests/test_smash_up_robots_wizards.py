"""Robots (§6) and Wizards (§9) of rules/smash-up-cards.md in the reference engine: one test per
card (more where the entry has several clauses), each position built by hand, then full games."""
from __future__ import annotations

import pytest

from balance.games.smash_up.reference import Greedy, Random, Scripted, play_seated
from balance.games.smash_up.reference import abilities as ab
from balance.games.smash_up.reference.scenario import attach, deck, discard, hand, put, scenario
from balance.games.smash_up.rules import Rules

# bases without an ability outside scoring: nothing but the card under test acts
BASES = ["Jungle Oasis", "The Great Library", "Factory 436-1337"]


def names(cards):
    return [c.name for c in cards]


def game(players=2, bases=BASES, script=None, **kw):
    """A scenario whose seat 0 follows ``script`` (the baseline elsewhere)."""
    strategies = [Scripted(script or {})] + [Greedy() for _ in range(players - 1)]
    return scenario(players=players, bases=list(bases), strategies=strategies, **kw)


def asked(g, key, p=0):
    """The option lists seat ``p`` was offered under ``key``."""
    return [opts for k, opts in g.strategies[p].seen if k == key]


# ==== Robots ==================================================================================
def test_nukebot_destroyed_destroys_every_other_players_minion_on_its_base_together():
    g = game(players=3, bases=BASES + ["Tortuga"])
    nuke = put(g, 0, "Nukebot", 0)
    mine = put(g, 0, "Zapbot", 0)
    rex = put(g, 1, "King Rex", 0)
    warbot = put(g, 1, "Warbot", 0)  # cannot be destroyed
    lord = put(g, 2, "Zombie Lord", 0)
    guarded = put(g, 2, "Invader", 0)
    attach(g, 2, "Tooth and Claw...and Guns", guarded)  # protected from seat 0's cards
    away = put(g, 1, "Ninja Master", 1)
    g.destroy([nuke], 1, True)
    assert g.slots[0].minions == [mine, warbot, guarded]
    assert away in g.slots[1].minions
    assert names(g.players[0].discard) == ["Nukebot"]
    assert names(g.players[1].discard) == ["King Rex"] and names(g.players[2].discard) == ["Zombie Lord"]
    assert rex not in g.minions() and lord not in g.minions()


def test_nukebots_victims_are_destroyed_together_so_tar_pits_replaces_only_one_of_them():
    g = game(bases=["Tar Pits", "Jungle Oasis", "The Great Library"])
    g.slots[0].tar_pits_used = True  # the Nukebot itself is really destroyed
    nuke = put(g, 0, "Nukebot", 0)
    put(g, 1, "King Rex", 0), put(g, 1, "Invader", 0)
    g.destroy([nuke], 1, True)
    assert not g.slots[0].minions
    assert names(g.players[1].discard) == ["King Rex", "Invader"]
    g2 = game(bases=["Tar Pits", "Jungle Oasis", "The Great Library"])
    nuke = put(g2, 0, "Nukebot", 0)
    rex = put(g2, 1, "King Rex", 0)
    g2.destroy([nuke], 1, True)  # Tar Pits places it on the deck instead: no trigger
    assert names(g2.players[0].deck) == ["Nukebot"] and g2.slots[0].minions == [rex]


def test_a_player_orders_the_triggers_of_its_minions_destroyed_together():
    """§1.10: each player orders its own triggers. Seat 1's Nukebot and Microbot Guard (a
    Microbot, with Microbot Archive in play) are destroyed together: seat 1 picks whose trigger
    goes first, and only those two are offered (not its Zapbot, which has none). Picked second,
    the Nukebot destroys seat 0's Walker after the Archive's draw; the baseline keeps the order
    the victims were chosen in."""
    def play(script):
        g = scenario(players=2, bases=list(BASES), strategies=[Greedy(), Scripted(script)])
        nuke, zap, guard = put(g, 1, "Nukebot", 0), put(g, 1, "Zapbot", 1), put(g, 1, "Microbot Guard", 1)
        put(g, 1, "Microbot Archive", 2)
        walker = put(g, 0, "Walker", 0)
        deck(g, 1, "Warbot")
        drawn_at = []
        draw = g.draw
        g.draw = lambda p, n=1: (drawn_at.append(walker in g.minions()), draw(p, n))[1]
        g.destroy([nuke, zap, guard], 0, True)
        asked = [o for k, o in g.strategies[1].seen if k == "after destroyed: next"]
        assert asked == [[nuke, guard]] and walker not in g.minions()
        assert names(g.players[1].hand) == ["Warbot"]
        return drawn_at
    assert play({}) == [False]  # the baseline: the Nukebot first, then the draw
    assert play({"after destroyed: next": [lambda opts: 1]}) == [True]  # the Guard's draw first


def test_nukebot_does_not_trigger_when_returned_or_discarded_by_scoring():
    g = game()
    nuke = put(g, 0, "Nukebot", 0)
    rex = put(g, 1, "King Rex", 0)
    g.return_to_hand(nuke, 1)
    assert g.slots[0].minions == [rex] and names(g.players[0].hand) == ["Nukebot"]
    g = game()
    put(g, 0, "Nukebot", 0)
    put(g, 1, "King Rex", 0)
    g.score_base(g.slots[0])  # 12 power on Jungle Oasis: both are discarded, not destroyed
    assert ("destroy", "King Rex", 1) not in g.log


def test_warbot_cannot_be_destroyed_but_can_be_returned():
    g = game()
    warbot = put(g, 0, "Warbot", 0)
    assert not g.destroyable(warbot, 1, True)
    assert g.destroy([warbot], 1, True) == [] and warbot in g.slots[0].minions
    g.return_to_hand(warbot, 1)
    assert names(g.players[0].hand) == ["Warbot"] and not g.slots[0].minions


def test_hoverbot_plays_a_revealed_minion_at_once_on_the_place_base():
    g = game()
    deck(g, 0, "Tech Center", "Zapbot")  # Zapbot on top
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    # PLACE: the Zapbot alone on The Great Library (4 VP) beats adding it to the Oasis
    assert names(m.card for m in g.slots[1].minions) == ["Zapbot"]
    assert names(g.players[0].deck) == ["Tech Center"]
    assert g.minions_played[0] == 2 and g.grants == [("M2", None)]  # the Zapbot's on-play ran


def test_hoverbot_may_play_elsewhere_or_decline_and_the_card_stays_on_top():
    g = game(script={"Hoverbot": [2]})
    deck(g, 0, "Zapbot")
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    assert names(m.card for m in g.slots[2].minions) == ["Zapbot"]
    g = game(script={"Hoverbot": [None]})
    deck(g, 0, "Zapbot")
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    assert names(g.players[0].deck) == ["Zapbot"] and len(g.minions()) == 1
    assert asked(g, "Hoverbot")[0] == list(g.slots) + [None]


def test_hoverbot_leaves_an_action_on_top_and_offers_only_legal_bases():
    g = game(script={"Hoverbot": [None]})
    deck(g, 0, "Tech Center")
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    assert names(g.players[0].deck) == ["Tech Center"] and not asked(g, "Hoverbot")
    g = game(script={"Hoverbot": [None]})
    attach(g, 1, "Overrun", 1)  # seat 1's Overrun: seat 0 cannot play minions there
    discard(g, 0, "Zapbot")  # the empty deck is rebuilt from the discard pile first (§1.9)
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    assert asked(g, "Hoverbot")[0] == [g.slots[0], g.slots[2], None]
    assert names(g.players[0].deck) == ["Zapbot"] and not g.players[0].discard


def test_a_revealed_pixie_counts_as_a_minion_for_hoverbot_and_an_action_for_neophyte():  # [D20]
    g = game(script={"Hoverbot": [None], "Neophyte": [None]})
    deck(g, 0, "Pixie")
    g.play_minion(0, hand(g, 0, "Hoverbot"), g.slots[0])
    assert asked(g, "Hoverbot")[0] == list(g.slots) + [None]
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])
    assert asked(g, "Neophyte")[0] == ["hand", "play", None] and names(g.players[0].deck) == ["Pixie"]


def test_zapbot_grants_an_extra_minion_of_printed_power_two_or_less():
    g = game()
    g.play_minion(0, hand(g, 0, "Zapbot"), g.slots[0])
    assert g.grants == [("M2", None)]
    small, big = hand(g, 0, "Enchantress", "King Rex")
    g.free_minion = 0
    cards = {mv[1] for mv in g.minion_moves(0)}
    assert cards == {small}


def test_zapbot_outside_your_play_phase_is_used_at_once_or_lost():
    g = game()
    g.current, g.in_play_phase = 1, False  # e.g. played by a Special on seat 1's turn
    small, big = hand(g, 0, "Enchantress", "King Rex")
    g.play_minion(0, hand(g, 0, "Zapbot"), g.slots[0])
    assert names(g.players[0].hand) == ["King Rex"] and small in [m.card for m in g.minions()]
    assert not g.grants


def test_microbot_alpha_counts_other_microbots_and_makes_all_your_minions_microbots():
    g = game()
    alpha = put(g, 0, "Microbot Alpha", 0)
    warbot = put(g, 0, "Warbot", 1)
    zap = put(g, 0, "Zapbot", 2)
    theirs = put(g, 1, "Zapbot", 0)
    assert g.power(alpha) == 3 and g.is_microbot(warbot) and not g.is_microbot(theirs)
    put(g, 0, "Microbot Fixer", 0)  # every Microbot of seat 0 +1, the Warbot included
    assert g.power(warbot) == 5 and g.power(zap) == 3 and g.power(theirs) == 2
    assert g.power(alpha) == 1 + 3 + 1
    deck(g, 0, "Tech Center")
    put(g, 0, "Microbot Archive", 1)
    g.destroy([zap], 1, True)  # not named Microbot, but one while the Alpha is in play
    assert names(g.players[0].hand) == ["Tech Center"]


def test_microbot_archive_draws_for_each_of_your_microbots_destroyed_itself_included():
    g = game()
    deck(g, 0, "Zapbot", "Warbot", "Hoverbot", "Nukebot")
    archive = put(g, 0, "Microbot Archive", 0)
    guard = put(g, 0, "Microbot Guard", 1)
    zap = put(g, 0, "Zapbot", 1)
    theirs = put(g, 1, "Microbot Guard", 1)
    g.destroy([zap, theirs], 1, True)  # not a Microbot / not yours: no draw
    assert not g.players[0].hand
    g.destroy([guard], 1, True)
    assert names(g.players[0].hand) == ["Nukebot"]
    guard2 = put(g, 0, "Microbot Guard", 2)
    g.destroy([archive, guard2], 1, True)  # together: the Archive draws for both [D19]
    assert names(g.players[0].hand) == ["Nukebot", "Hoverbot", "Warbot"]


def test_microbot_fixer_grants_a_minion_only_as_the_first_minion_and_boosts_microbots():
    g = game()
    fixer = g.play_minion(0, hand(g, 0, "Microbot Fixer"), g.slots[0])
    assert g.grants == [("M", None)] and g.power(fixer) == 2
    g.play_minion(0, hand(g, 0, "Microbot Fixer"), g.slots[1])
    assert g.grants == [("M", None)]  # the second Fixer is not the first minion
    guard = put(g, 0, "Microbot Guard", 2)
    zap = put(g, 0, "Zapbot", 2)
    theirs = put(g, 1, "Microbot Guard", 2)
    assert g.power(guard) == 3 and g.power(fixer) == 3 and g.power(zap) == 2 and g.power(theirs) == 1


def test_microbot_guard_destroys_the_highest_power_minion_of_another_player_below_its_count():
    g = game()
    put(g, 0, "Zapbot", 0), put(g, 0, "Zapbot", 0)  # with the Guard: 3 minions, power < 3
    low = put(g, 1, "Microbot Archive", 0)  # 1
    mid = put(g, 1, "Enchantress", 0)  # 2
    guarded = put(g, 1, "Neophyte", 0)  # 2 but protected
    attach(g, 1, "Tooth and Claw...and Guns", guarded)
    big = put(g, 1, "Hoverbot", 0)  # 3: not below 3
    poisoned = put(g, 1, "Warbot", 0)  # 0 power, but cannot be destroyed
    attach(g, 0, "Poison", poisoned)
    g.play_minion(0, hand(g, 0, "Microbot Guard"), g.slots[0])
    assert mid not in g.minions() and names(g.players[1].discard) == ["Enchantress"]
    options = asked(g, "Microbot Guard")[0]
    assert low in options and guarded not in options and big not in options
    assert poisoned not in options and None not in options  # mandatory


def test_microbot_guard_may_pick_another_eligible_minion():
    g = game(script={"Microbot Guard": [lambda opts: next(i for i, m in enumerate(opts)
                                                          if m.name == "Microbot Archive")]})
    put(g, 0, "Zapbot", 0), put(g, 0, "Zapbot", 0)
    low = put(g, 1, "Microbot Archive", 0)
    mid = put(g, 1, "Enchantress", 0)
    g.play_minion(0, hand(g, 0, "Microbot Guard"), g.slots[0])
    assert low not in g.minions() and mid in g.minions()


def test_microbot_guard_with_only_your_own_minions_eligible_destroys_your_weakest_even_itself():
    g = game()
    zap = put(g, 0, "Zapbot", 0)  # 2 minions with the Guard: power < 2
    rex = put(g, 1, "King Rex", 0)
    g.play_minion(0, hand(g, 0, "Microbot Guard"), g.slots[0])  # [D9]
    assert g.slots[0].minions == [zap, rex] and names(g.players[0].discard) == ["Microbot Guard"]


def test_microbot_reclaimer_grants_a_minion_when_first_and_shuffles_microbots_back():
    g = game()
    discard(g, 0, "Microbot Guard", "Zapbot", "Microbot Alpha", "Tech Center")
    state = g.chance.state
    g.play_minion(0, hand(g, 0, "Microbot Reclaimer"), g.slots[0])
    assert g.chance.state != state  # shuffled into the deck
    assert g.grants == [("M", None)]
    assert sorted(names(g.players[0].deck)) == ["Microbot Alpha", "Microbot Guard"]
    assert names(g.players[0].discard) == ["Zapbot", "Tech Center"]


def test_microbot_reclaimer_may_keep_microbots_in_the_pile_and_no_grant_when_not_first():
    g = game(script={"Microbot Reclaimer": [None]})  # declines the first Microbot offered
    discard(g, 0, "Microbot Guard", "Microbot Alpha")
    g.minions_played[0] = 1
    g.play_minion(0, hand(g, 0, "Microbot Reclaimer"), g.slots[0])
    assert not g.grants
    assert names(g.players[0].deck) == ["Microbot Alpha"] and names(g.players[0].discard) == ["Microbot Guard"]


def test_tech_center_draws_one_card_per_minion_you_have_on_the_chosen_base():
    g = game()
    deck(g, 0, "Zapbot", "Warbot", "Hoverbot", "Nukebot")
    put(g, 0, "Zapbot", 0)
    put(g, 0, "Zapbot", 1), put(g, 0, "Zapbot", 1)
    for _ in range(3):
        put(g, 1, "King Rex", 2)
    tc = hand(g, 0, "Tech Center")
    assert ab.want(g, 0, tc)
    g.play_action(0, tc)
    assert names(g.players[0].hand) == ["Nukebot", "Hoverbot"]  # The Great Library: 2 minions
    assert names(g.players[0].discard) == ["Tech Center"]
    g = game(script={"Tech Center": [1]})
    deck(g, 0, "Zapbot", "Warbot")
    put(g, 0, "Zapbot", 0)
    tc = hand(g, 0, "Tech Center")
    assert not ab.want(g, 0, tc)  # at most one minion on any base: hold it
    g.play_action(0, tc)  # played anyway on a base without your minions: no draw
    assert not g.players[0].hand and asked(g, "Tech Center")[0] == list(g.slots)


# ==== Wizards =================================================================================
def test_archmage_talent_gives_an_extra_action_kept_when_it_leaves_play():
    g = game()
    arch = put(g, 0, "Archmage", 0)
    studies = hand(g, 0, "Mystic Studies")
    assert ("talent", arch) in g.play_moves(0) and ab.talent_wanted(g, 0, arch)
    g.do_move(0, ("talent", arch))
    assert g.extra_actions == 1 and ("talent", arch) not in g.play_moves(0)
    g.return_to_hand(arch, 1)
    g.do_move(0, ("action", studies))
    assert g.extra_actions == 0 and g.free_action == 1  # the extra play was used first [D12]


def test_archmage_baseline_uses_the_talent_only_holding_an_action_it_would_play():
    g = game()
    arch = put(g, 0, "Archmage", 0)
    assert not ab.talent_wanted(g, 0, arch)
    hand(g, 0, "Sacrifice")  # the Archmage alone wins its base: Sacrifice is held
    assert not ab.talent_wanted(g, 0, arch)
    hand(g, 0, "Mystic Studies")
    assert ab.talent_wanted(g, 0, arch)


def test_chronomage_grants_an_extra_action_this_turn():
    g = game()
    g.play_minion(0, hand(g, 0, "Chronomage"), g.slots[0])
    assert g.extra_actions == 1


def test_chronomage_outside_your_play_phase_plays_the_action_at_once_or_loses_it():
    g = game()
    g.current, g.in_play_phase = 1, False
    deck(g, 0, "Zapbot", "Warbot")
    studies = hand(g, 0, "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Chronomage"), g.slots[0])
    assert names(g.players[0].hand) == ["Warbot", "Zapbot"] and g.players[0].discard == [studies]
    assert g.extra_actions == 0
    g = game(script={"extra-action-now": [None]})
    g.current, g.in_play_phase = 1, False
    hand(g, 0, "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Chronomage"), g.slots[0])
    assert names(g.players[0].hand) == ["Mystic Studies"] and g.extra_actions == 0
    g = game()
    g.current, g.in_play_phase = 1, False
    g.sleep[0] = ("actions", 1)  # Mark of Sleep: no action plays at all [D36]
    hand(g, 0, "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Chronomage"), g.slots[0])
    assert names(g.players[0].hand) == ["Mystic Studies"]


def test_enchantress_draws_a_card_rebuilding_an_empty_deck():
    g = game()
    discard(g, 0, "Zapbot")
    g.play_minion(0, hand(g, 0, "Enchantress"), g.slots[0])
    assert names(g.players[0].hand) == ["Zapbot"] and not g.players[0].discard


def test_neophyte_plays_a_revealed_action_its_baseline_would_play():
    g = game()
    deck(g, 0, "Zapbot", "Warbot", "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])
    assert names(g.players[0].hand) == ["Warbot", "Zapbot"]
    assert names(g.players[0].discard) == ["Mystic Studies"] and g.actions_played[0] == 1
    assert g.free_action == 1 and g.extra_actions == 0  # an extra play: the free one is intact


def test_neophyte_takes_an_action_into_hand_when_its_baseline_would_hold_it():
    g = game()
    deck(g, 0, "Zapbot", "Sacrifice")
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])  # alone on its base: no free minion
    assert names(g.players[0].hand) == ["Sacrifice"] and names(g.players[0].deck) == ["Zapbot"]


def test_neophyte_may_decline_and_leaves_a_minion_on_top():
    g = game(script={"Neophyte": [None]})
    deck(g, 0, "Zapbot", "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])
    assert names(g.players[0].deck) == ["Zapbot", "Mystic Studies"] and not g.players[0].hand  # [D27]
    assert asked(g, "Neophyte")[0] == ["hand", "play", None]
    g = game()
    deck(g, 0, "Mystic Studies", "Zapbot")
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])
    assert names(g.players[0].deck) == ["Mystic Studies", "Zapbot"] and not g.players[0].hand


def test_neophyte_under_mark_of_sleep_can_only_take_the_action():
    g = game(script={"Neophyte": [None]})
    g.sleep[0] = ("actions", 1)
    deck(g, 0, "Mystic Studies")
    g.play_minion(0, hand(g, 0, "Neophyte"), g.slots[0])
    assert asked(g, "Neophyte")[0] == ["hand", None]


def test_mass_enchantment_plays_another_players_action_you_control_back_to_its_owner():
    g = game(players=3)
    deck(g, 0, "Zapbot", "Warbot")
    deck(g, 1, "Hoverbot")  # not an action: stays on top
    deck(g, 2, "Tech Center", "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert names(g.players[0].hand) == ["Warbot", "Zapbot"]  # "you" is seat 0
    assert names(g.players[2].discard) == ["Mystic Studies"] and names(g.players[2].deck) == ["Tech Center"]
    assert names(g.players[1].deck) == ["Hoverbot"] and names(g.players[0].discard) == ["Mass Enchantment"]
    assert g.actions_played[0] == 2


def test_mass_enchantment_default_plays_the_revealed_action_that_raises_v_most():
    g = game(players=3)
    deck(g, 0, *["Zapbot"] * 8)
    zap = put(g, 0, "Zapbot", 0)  # 2 against seat 1's 3 on Jungle Oasis: +4 takes first place
    put(g, 1, "Invader", 0)
    deck(g, 1, "Mystic Studies")  # revealed first, and its default would play: V unchanged
    deck(g, 2, "Augmentation")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert names(g.players[2].discard) == ["Augmentation"] and names(g.players[1].deck) == ["Mystic Studies"]
    assert g.power(zap) == 6 and not g.players[0].hand


def test_mass_enchantments_look_ahead_leaves_the_game_as_it_was():
    g = game(players=3, script={"Mass Enchantment": [0]})  # the look-ahead runs, seat 0 ignores it
    deck(g, 0, *["Zapbot"] * 8)
    zap = put(g, 0, "Zapbot", 0)
    put(g, 1, "Invader", 0)
    deck(g, 1, "Mystic Studies")
    deck(g, 2, "Augmentation")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert names(g.players[1].discard) == ["Mystic Studies"] and names(g.players[2].deck) == ["Augmentation"]
    assert g.power(zap) == 2 and names(g.players[0].hand) == ["Zapbot", "Zapbot"]
    assert not g.looking_ahead and g.actions_played[0] == 2


def test_a_random_seat_is_spared_mass_enchantments_look_ahead_and_plays_the_same_game(monkeypatch):
    """The look-ahead only finds a default, which a random seat ignores: no copy is made for one,
    as the kernel makes none, and its games are those it plays with the look-ahead run."""
    from balance.games.smash_up.reference import Game  # noqa: PLC0415
    from balance.games.smash_up.reference.cards import wizards  # noqa: PLC0415
    tried = []
    look = wizards.v_after_playing
    monkeypatch.setattr(wizards, "v_after_playing", lambda *a: tried.append(1) or look(*a))

    class Looking(Random):
        reads_default = True  # as before: the look-ahead runs and its default goes unread

    seats = [("Wizards", "Ninjas"), ("Ninjas", "Wizards"), ("Wizards", "Pirates"), ("Robots", "Wizards")]

    def outcomes(kind):
        games = [Game(Rules(players=4), seats, [kind() for _ in seats], 37, i).setup().play() for i in range(6)]
        return [(g.winner, g.turns, [p.vp for p in g.players]) for g in games]
    spared = outcomes(Random)
    assert not tried
    assert outcomes(Looking) == spared and len(tried) == 25  # look-ahead plays in these 6 games


def test_mass_enchantment_default_picks_the_first_revealed_action_its_own_default_would_play():
    g = game(players=3)
    deck(g, 0, *["Zapbot"] * 8)
    rex = put(g, 0, "King Rex", 0)  # alone: Sacrifice's default holds, Mystic Studies' plays
    deck(g, 1, "Sacrifice")
    deck(g, 2, "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert rex in g.minions() and len(g.players[0].hand) == 2
    assert names(g.players[1].deck) == ["Sacrifice"] and names(g.players[2].discard) == ["Mystic Studies"]
    g = game(players=3)  # with a Warbot to sacrifice both would play: the first revealed
    deck(g, 0, *["Zapbot"] * 8)
    warbot = put(g, 0, "Warbot", 0)
    deck(g, 1, "Sacrifice")
    deck(g, 2, "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert warbot in g.minions() and len(g.players[0].hand) == 4
    assert names(g.players[1].discard) == ["Sacrifice"] and names(g.players[2].deck) == ["Mystic Studies"]


def test_mass_enchantment_may_pick_any_revealed_action_but_must_play_one():
    g = game(players=3, script={"Mass Enchantment": [0]})
    deck(g, 0, *["Zapbot"] * 8)
    rex = put(g, 0, "King Rex", 0)
    deck(g, 1, "Sacrifice")
    deck(g, 2, "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert rex not in g.minions() and len(g.players[0].hand) == 7  # drew its power, then destroyed
    assert names(g.players[1].discard) == ["Sacrifice"]
    assert None not in asked(g, "Mass Enchantment")[0]  # [D28]


def test_mass_enchantment_play_on_action_is_yours_and_goes_to_its_owners_pile():
    g = game(script={"Jammed Signal": [2]})
    deck(g, 1, "Jammed Signal")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    (a,) = g.slots[2].actions
    assert a.controller == 0 and a.card.owner == 1
    g.discard_action(a)
    assert names(g.players[1].discard) == ["Jammed Signal"] and names(g.players[0].discard) == ["Mass Enchantment"]


def test_mass_enchantment_rebuilds_an_empty_deck_and_does_nothing_under_mark_of_sleep():
    g = game()
    deck(g, 0, "Zapbot", "Warbot")
    discard(g, 1, "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert len(g.players[0].hand) == 2 and names(g.players[1].discard) == ["Mystic Studies"]
    assert not g.players[1].deck
    g = game()
    g.sleep[0] = ("actions", 1)
    deck(g, 1, "Mystic Studies")
    g.play_action(0, hand(g, 0, "Mass Enchantment"))
    assert names(g.players[1].deck) == ["Mystic Studies"] and not g.players[0].hand


def test_mystic_studies_draws_two():
    g = game()
    deck(g, 0, "Zapbot", "Warbot", "Hoverbot")
    ms = hand(g, 0, "Mystic Studies")
    assert ab.want(g, 0, ms)
    g.play_action(0, ms)
    assert names(g.players[0].hand) == ["Hoverbot", "Warbot"] and names(g.players[0].deck) == ["Zapbot"]


def test_portal_takes_every_revealed_minion_and_returns_the_rest_in_revealed_order():
    g = game()
    deck(g, 0, "Summon", "Zapbot", "Scry", "Warbot", "Tech Center", "Hoverbot", "Time Loop")
    g.play_action(0, hand(g, 0, "Portal"))  # reveals Time Loop, Hoverbot, Tech Center, Warbot, Scry
    assert names(g.players[0].hand) == ["Hoverbot", "Warbot"]
    assert names(g.players[0].deck) == ["Summon", "Zapbot", "Scry", "Tech Center", "Time Loop"]


def test_portal_may_leave_minions_and_choose_the_order_back_on_top():
    g = game(script={"Portal": [None], "Portal:order": [lambda opts: names(opts).index("Hoverbot")]})
    deck(g, 0, "Scry", "Hoverbot", "Time Loop")
    g.play_action(0, hand(g, 0, "Portal"))
    assert not g.players[0].hand
    assert names(g.players[0].deck) == ["Scry", "Time Loop", "Hoverbot"]  # Hoverbot on top


def test_portal_reveals_through_an_empty_deck_from_the_reshuffled_discard_pile():
    g = game()
    deck(g, 0, "Zapbot", "Summon")
    discard(g, 0, "Warbot", "Scry", "Nukebot", "Time Loop")
    g.play_action(0, hand(g, 0, "Portal"))  # 2 from the deck, 3 from the rebuilt deck [D17]
    pl = g.players[0]
    assert "Zapbot" in names(pl.hand) and len(pl.hand) + len(pl.deck) == 6
    assert all(c.is_minion for c in pl.hand) and names(pl.discard) == ["Portal"]
    assert not any(c.is_minion for c in pl.deck[1:])  # only the bottom card was not revealed


def test_sacrifice_on_a_warbot_draws_its_power_and_it_survives():
    g = game()
    deck(g, 0, *["Zapbot"] * 6)
    put(g, 0, "King Rex", 0)
    warbot = put(g, 0, "Warbot", 1)
    sac = hand(g, 0, "Sacrifice")
    assert ab.want(g, 0, sac)
    g.play_action(0, sac)
    assert len(g.players[0].hand) == 4 and warbot in g.minions()


def test_sacrifice_takes_your_strongest_minion_whose_loss_costs_no_vp_else_it_is_held():
    g = game()
    deck(g, 0, *["Zapbot"] * 8)
    put(g, 0, "King Rex", 0)
    spare = put(g, 0, "Hoverbot", 0)  # the Rex still beats the Zombie Lord alone: the Hoverbot is free
    put(g, 1, "Zombie Lord", 0)
    lone = put(g, 0, "Invader", 1)  # alone on the Library: losing it costs 4 VP
    g.play_action(0, hand(g, 0, "Sacrifice"))
    assert spare not in g.minions() and lone in g.minions() and len(g.players[0].hand) == 3
    g = game()
    put(g, 0, "King Rex", 0)
    assert not ab.want(g, 0, hand(g, 0, "Sacrifice"))


def test_sacrifice_chosen_minion_draws_its_current_power_then_is_destroyed():
    g = game(script={"Sacrifice": [lambda opts: names(m.card for m in opts).index("King Rex")]})
    deck(g, 0, *["Zapbot"] * 9)
    rex = put(g, 0, "King Rex", 0)
    put(g, 0, "Hoverbot", 0)
    attach(g, 0, "Upgrade", rex)  # 7 + 2
    g.play_action(0, hand(g, 0, "Sacrifice"))
    assert rex not in g.minions() and len(g.players[0].hand) == 9
    assert sorted(names(g.players[0].discard)) == ["King Rex", "Sacrifice", "Upgrade"]


def test_scry_takes_time_loop_first_and_shuffles_the_deck():
    g = game()
    deck(g, 0, "Portal", "Time Loop", "Summon", "Zapbot", "Mystic Studies")
    state = g.chance.state
    g.play_action(0, hand(g, 0, "Scry"))
    assert g.chance.state != state
    assert names(g.players[0].hand) == ["Time Loop"]
    assert sorted(names(g.players[0].deck)) == ["Mystic Studies", "Portal", "Summon", "Zapbot"]
    g = game()
    deck(g, 0, "Portal", "Zapbot", "Tech Center", "Portal")
    sc = hand(g, 0, "Scry")
    assert ab.want(g, 0, sc)
    g.play_action(0, sc)  # neither Time Loop, Summon nor Mystic Studies: the first in data order
    assert names(g.players[0].hand) == ["Tech Center"]
    assert names(asked(g, "Scry")[0]) == ["Tech Center", "Portal"]  # one option per name


def test_scry_may_take_any_action_and_without_one_only_shuffles():
    g = game(script={"Scry": [lambda opts: names(opts).index("Portal")]})
    deck(g, 0, "Portal", "Time Loop")
    g.play_action(0, hand(g, 0, "Scry"))
    assert names(g.players[0].hand) == ["Portal"]
    g = game()
    discard(g, 0, "Zapbot", "Warbot")  # the empty deck is rebuilt, searched, shuffled
    sc = hand(g, 0, "Scry")
    assert not ab.want(g, 0, sc)
    g.play_action(0, sc)
    assert not g.players[0].hand and sorted(names(g.players[0].deck)) == ["Warbot", "Zapbot"]
    assert names(g.players[0].discard) == ["Scry"]


def test_summon_grants_an_extra_minion_played_when_a_minion_would_wait():
    g = game()
    su = hand(g, 0, "Summon")
    assert not ab.want(g, 0, su)
    hand(g, 0, "Zapbot")
    assert not ab.want(g, 0, su)  # the free minion play is still open
    g.free_minion = 0
    assert ab.want(g, 0, su)
    g.free_minion = 1
    hand(g, 0, "Warbot")
    assert ab.want(g, 0, su)
    g.play_action(0, su)
    assert g.grants == [("M", None)]


def test_time_loop_grants_two_extra_actions_played_with_another_action_to_play():
    g = game()
    tl = hand(g, 0, "Time Loop")
    assert not ab.want(g, 0, tl)
    hand(g, 0, "Sacrifice")  # nothing to sacrifice: held
    assert not ab.want(g, 0, tl)
    hand(g, 0, "Mystic Studies")
    assert ab.want(g, 0, tl)
    g.play_action(0, tl)
    assert g.extra_actions == 2


def test_time_loop_outside_your_play_phase_plays_two_actions_at_once():
    g = game()
    g.current, g.in_play_phase = 1, False
    deck(g, 0, *["Zapbot"] * 4)
    hand(g, 0, "Mystic Studies", "Mystic Studies")
    g.play_action(0, hand(g, 0, "Time Loop"), controller=0)
    assert names(g.players[0].hand) == ["Zapbot"] * 4
    assert names(g.players[0].discard) == ["Mystic Studies", "Mystic Studies", "Time Loop"]


def test_the_baseline_turn_plays_time_loop_then_the_actions_it_opened():
    g = game()
    deck(g, 0, *["Tech Center"] * 6)  # held by the baseline: no minion anywhere
    hand(g, 0, "Time Loop", "Mystic Studies", "Mystic Studies")
    g.play_phase(0)
    assert names(g.players[0].discard) == ["Time Loop", "Mystic Studies", "Mystic Studies"]
    assert names(g.players[0].hand) == ["Tech Center"] * 4 and g.extra_actions == 0 and g.free_action == 0


def test_winds_of_change_shuffles_the_hand_in_draws_five_and_grants_an_action():
    g = game()
    deck(g, 0, "Zapbot", "Warbot", "Hoverbot", "Nukebot")
    hand(g, 0, "Tech Center", "Microbot Alpha")
    w = hand(g, 0, "Winds of Change")
    assert ab.want(g, 0, w)
    g.play_action(0, w)
    assert len(g.players[0].hand) == 5 and len(g.players[0].deck) == 1
    assert names(g.players[0].discard) == ["Winds of Change"]
    assert g.extra_actions == 1
    assert sorted(names(g.players[0].hand + g.players[0].deck)) == sorted(
        ["Zapbot", "Warbot", "Hoverbot", "Nukebot", "Tech Center", "Microbot Alpha"])
    g = game()
    hand(g, 0, "Zapbot", "Warbot", "Hoverbot")
    assert not ab.want(g, 0, hand(g, 0, "Winds of Change"))  # 3 other cards: hold


# ==== full games ==============================================================================
SEATS = [("Robots", "Wizards"), ("Aliens", "Dinosaurs"), ("Ninjas", "Pirates"), ("Tricksters", "Zombies")]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("player", [Greedy, Random])
def test_full_games_with_robots_and_wizards_finish(n, player):
    for gm in range(20):
        seats = SEATS[:n] if gm % 2 == 0 else [("Robots", "Aliens"), ("Wizards", "Ninjas"),
                                               ("Pirates", "Zombies"), ("Dinosaurs", "Tricksters")][:n]
        g = play_seated(Rules(players=n), seats, [player() for _ in range(n)], seed=11, game=gm)
        vps = [pl.vp for pl in g.players]
        assert g.capped or (max(vps) >= 15 and vps.count(max(vps)) == 1)
