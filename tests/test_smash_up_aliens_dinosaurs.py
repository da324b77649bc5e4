"""Aliens (§2) and Dinosaurs (§3) in the reference engine: one test per card from its entry in
rules/smash-up-cards.md (more where the entry has several clauses or a "Watch:" line), the core
pieces these cards rely on, and a smoke test of full games."""
from __future__ import annotations

import pytest

from balance.games.smash_up.reference import Greedy, Random, Scripted, play_seated
from balance.games.smash_up.reference import abilities as ab
from balance.games.smash_up.reference.baseline import greedy_minion
from balance.games.smash_up.reference.scenario import attach, deck, hand, put, scenario
from balance.games.smash_up.rules import Rules

B3 = ["Jungle Oasis", "The Great Library", "Tortuga"]  # no ability reacts during a play


def _names(cards):
    return [c.name for c in cards]


def _vp(g):
    return [pl.vp for pl in g.players]


def _seat0(script, players=2):
    """Strategies: seat 0 scripted (the rest of its choices by the baseline), others baseline."""
    return [Scripted(script)] + [Greedy() for _ in range(players - 1)]


def _want(g, p, name):
    return ab.want(g, p, next(c for c in g.players[p].hand if c.name == name))


# ==== Aliens (§2) ===========================================================================

# ---- 1. Supreme Overlord ----------------------------------------------------------------
def test_supreme_overlord_returns_the_hit_target_to_its_owners_hand():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 0)
    lord = put(g, 1, "Zombie Lord", 0)  # seat 0 leads the Oasis: not a HIT base
    put(g, 1, "Walker", 1)  # alone at the Library: seat 1 outranks seat 0 there
    g.play_minion(0, hand(g, 0, "Supreme Overlord"), g.slots[2])
    assert _names(g.players[1].hand) == ["Walker"] and lord in g.slots[0].minions
    assert [m.name for m in g.slots[1].minions] == []


def test_supreme_overlord_may_decline_or_return_itself():
    g = scenario(bases=B3, strategies=_seat0({"Supreme Overlord": [None]}))
    put(g, 1, "Walker", 1)
    g.play_minion(0, hand(g, 0, "Supreme Overlord"), g.slots[2])
    assert len(g.minions()) == 2 and not g.players[1].hand
    g = scenario(bases=B3, strategies=_seat0({"Supreme Overlord": [lambda opts: len(opts) - 2]}))
    put(g, 1, "Walker", 1)
    g.play_minion(0, hand(g, 0, "Supreme Overlord"), g.slots[2])  # the last minion offered: itself
    assert _names(g.players[0].hand) == ["Supreme Overlord"] and len(g.minions()) == 1


def test_supreme_overlord_is_stopped_by_tooth_and_claw_not_by_smoke_bomb_or_wildlife_preserve():
    g = scenario(bases=B3, strategies=_seat0({}))
    clawed = put(g, 1, "Zombie Lord", 0)
    attach(g, 1, "Tooth and Claw...and Guns", clawed)
    bombed = put(g, 1, "Walker", 1)
    attach(g, 1, "Smoke Bomb", bombed)
    preserved = put(g, 1, "Cut Lass", 2)
    attach(g, 1, "Wildlife Preserve", 2)
    so = g.play_minion(0, hand(g, 0, "Supreme Overlord"), g.slots[0])
    (key, options), = g.strategies[0].seen
    assert key == "Supreme Overlord" and options == [so, bombed, preserved, None]


# ---- 2. Invader ----------------------------------------------------------------------------
def test_invader_gains_one_vp_each_time_it_is_played_and_keeps_it():
    g = scenario(bases=B3)
    g.players[0].vp = 14
    inv = g.play_minion(0, hand(g, 0, "Invader"), g.slots[0])
    assert _vp(g) == [15, 0] and g.winner is None  # the 15-VP check waits for the end of turn
    g.return_to_hand(inv, 1)
    g.play_minion(0, g.players[0].hand[0], g.slots[1])  # played again: scores again
    assert _vp(g) == [16, 0]
    g.destroy(g.minions(), 1, True)
    assert _vp(g) == [16, 0] and _names(g.players[0].discard) == ["Invader"]


# ---- 3. Scout ----------------------------------------------------------------------------
def test_scout_returns_to_hand_after_its_base_scores_instead_of_the_discard_pile():
    g = scenario(bases=B3)
    g.current = 1  # a Special: on any player's turn
    put(g, 0, "Scout", 0), put(g, 1, "Walker", 0)
    g.score_base(g.slots[0])
    assert _names(g.players[0].hand) == ["Scout"] and not g.players[0].discard
    assert _names(g.players[1].discard) == ["Walker"] and _vp(g) == [2, 0]


def test_scout_may_stay_to_be_discarded():
    g = scenario(bases=B3, strategies=_seat0({"Scout": [None]}))
    put(g, 0, "Scout", 0)
    g.score_base(g.slots[0])
    assert not g.players[0].hand and _names(g.players[0].discard) == ["Scout"]


def test_scout_resolves_after_temple_of_goju():  # Watch line, [D13]
    g = scenario(bases=["Temple of Goju", "Jungle Oasis", "Tortuga"])
    put(g, 0, "Scout", 0)  # seat 0's strongest minion there: under the deck first
    g.score_base(g.slots[0])
    assert not g.players[0].hand and _names(g.players[0].deck) == ["Scout"]
    g = scenario(bases=["Temple of Goju", "Jungle Oasis", "Tortuga"])
    put(g, 0, "Scout", 0), put(g, 0, "Invader", 0)  # tied at 3: Goju takes the one without a Special
    g.score_base(g.slots[0])
    assert _names(g.players[0].hand) == ["Scout"] and _names(g.players[0].deck) == ["Invader"]


# ---- 4. Collector ---------------------------------------------------------------------------
def _collector_board(rules=None, script=None):
    g = scenario(bases=B3, rules=rules, strategies=_seat0(script or {}))
    put(g, 0, "War Raptor", 0), put(g, 0, "War Raptor", 0)  # 4 each: too strong now (current power)
    lass = put(g, 1, "Cut Lass", 0)
    other = put(g, 1, "Collector", 0)
    put(g, 1, "Zombie Lord", 0)
    put(g, 1, "Walker", 1)  # another base: never offered
    return g, lass, other


def test_collector_returns_a_power_3_or_less_minion_here_another_collector_allowed():  # [D4]
    g, lass, other = _collector_board()
    mine = g.play_minion(0, hand(g, 0, "Collector"), g.slots[0])
    assert g.strategies[0].seen[0][1] == [lass, other, mine, None]  # itself allowed
    assert _names(g.players[1].hand) == ["Cut Lass"]  # HIT: the opponent's highest power
    g, lass, other = _collector_board(script={"Collector": [lambda opts: 1]})
    g.play_minion(0, hand(g, 0, "Collector"), g.slots[0])
    assert _names(g.players[1].hand) == ["Collector"]


def test_collector_excludes_collectors_switch_and_declines_without_a_target():
    g, lass, other = _collector_board(rules=Rules(players=2, collector_excludes_collectors=True))
    g.play_minion(0, hand(g, 0, "Collector"), g.slots[0])
    assert g.strategies[0].seen[0][1] == [lass, None]
    g = scenario(bases=B3)
    put(g, 0, "Invader", 0)
    g.play_minion(0, hand(g, 0, "Collector"), g.slots[0])  # only its own minions: decline
    assert len(g.minions()) == 2 and not g.players[0].hand


# ---- 5. Abduction ---------------------------------------------------------------------------
def _abduction_board():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 0), put(g, 1, "Zombie Lord", 0)
    walker = put(g, 1, "Walker", 1)
    return g, walker


def test_abduction_returns_the_hit_target_and_grants_an_extra_minion():
    g, walker = _abduction_board()
    abd, _ = hand(g, 0, "Abduction", "Invader")
    assert _want(g, 0, "Abduction")
    g.play_action(0, abd)
    assert _names(g.players[1].hand) == ["Walker"] and g.grants == [("M", None)]
    assert _names(g.players[0].discard) == ["Abduction"]
    g, _ = _abduction_board()
    hand(g, 0, "Abduction")
    assert not _want(g, 0, "Abduction")  # no minion in hand to use the extra play


def test_abduction_with_only_your_minions_must_return_one():  # [D9]
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 1)
    hand(g, 0, "Abduction", "Walker")
    assert not _want(g, 0, "Abduction")
    g.play_action(0, g.players[0].hand[0])
    assert _names(g.players[0].hand) == ["Walker", "Invader"]  # the lowest power
    assert g.grants == [("M", None)]


# ---- 6. Beam Up -----------------------------------------------------------------------------
def test_beam_up_returns_the_hit_target_and_smoke_bomb_stops_it():
    g, walker = _abduction_board()
    g.play_action(0, hand(g, 0, "Beam Up"))
    assert _names(g.players[1].hand) == ["Walker"] and g.grants == []
    g, walker = _abduction_board()
    attach(g, 1, "Smoke Bomb", walker)
    beam = hand(g, 0, "Beam Up")
    assert _want(g, 0, "Beam Up")
    g.play_action(0, beam)
    assert _names(g.players[1].hand) == ["Zombie Lord"] and walker in g.slots[1].minions


def test_beam_up_is_held_without_a_hit_target_but_if_played_returns_your_own():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 0)
    beam = hand(g, 0, "Beam Up")
    assert not _want(g, 0, "Beam Up")
    g.play_action(0, beam)
    assert _names(g.players[0].hand) == ["Invader"]


# ---- 7. Crop Circles ------------------------------------------------------------------------
def test_crop_circles_returns_every_minion_it_can_affect_on_the_chosen_base():
    g = scenario(bases=B3)
    put(g, 1, "Tiger Assassin", 0)  # score 4 at the Oasis
    put(g, 1, "Zombie Lord", 1), put(g, 1, "Ninja Master", 1)
    walker = put(g, 1, "Walker", 1)
    attach(g, 1, "Tooth and Claw...and Guns", walker)  # protected from seat 0: stays
    put(g, 0, "Invader", 1)  # score 10 - 3 = 7 at the Library
    cc = hand(g, 0, "Crop Circles")
    assert _want(g, 0, "Crop Circles")
    g.play_action(0, cc)
    assert g.slots[1].minions == [walker] and _names(g.players[0].hand) == ["Invader"]
    assert sorted(_names(g.players[1].hand)) == ["Ninja Master", "Zombie Lord"]
    assert [m.name for m in g.slots[0].minions] == ["Tiger Assassin"]


def test_crop_circles_is_held_unless_an_opponent_outranks_you_there_and_a_choice_is_honoured():
    g = scenario(bases=["Rhodes Plaza Mall", "Jungle Oasis", "Tortuga"],
                 strategies=_seat0({"Crop Circles": [1]}))
    put(g, 1, "Zombie Lord", 0)  # returns 5 net, but nobody outranks anyone at a 0/0/0 base
    put(g, 0, "Invader", 1)
    cc = hand(g, 0, "Crop Circles")
    assert not _want(g, 0, "Crop Circles")
    g.play_action(0, cc)  # scripted: the Oasis, returning seat 0's own Invader
    assert _names(g.players[0].hand) == ["Invader"] and len(g.minions()) == 1


# ---- 8. Disintegrator -----------------------------------------------------------------------
def test_disintegrator_puts_a_power_3_or_less_minion_under_its_owners_deck():
    g = scenario(bases=["Jungle Oasis", "Tar Pits", "Tortuga"])
    put(g, 1, "King Rex", 0)  # the HIT target overall, but too strong
    pair = [put(g, 1, "War Raptor", 2), put(g, 1, "War Raptor", 2)]  # 4 each: too strong
    lass = put(g, 1, "Cut Lass", 1)  # on Tar Pits: placing is not destroying
    deck(g, 1, "Walker")
    dis = hand(g, 0, "Disintegrator")
    assert _want(g, 0, "Disintegrator")
    g.play_action(0, dis)
    assert _names(g.players[1].deck) == ["Cut Lass", "Walker"]  # the bottom is index 0
    assert not g.players[1].discard and not g.slots[1].tar_pits_used
    assert lass not in g.minions() and all(m in g.minions() for m in pair)


def test_disintegrator_is_held_without_a_weak_enough_opponent():
    g = scenario(bases=B3)
    put(g, 1, "King Rex", 0), put(g, 0, "Invader", 1)
    dis = hand(g, 0, "Disintegrator")
    assert not _want(g, 0, "Disintegrator")
    g.play_action(0, dis)  # mandatory: its own Invader [D9]
    assert _names(g.players[0].deck) == ["Invader"]


# ---- 9. Invasion --------------------------------------------------------------------------
def test_invasion_moves_your_minion_to_place_when_that_beats_the_hit_move():
    g = scenario(bases=B3)
    put(g, 1, "Zombie Lord", 0)
    inv = put(g, 0, "Invader", 0)  # seat 1 outranks seat 0 at the Oasis
    put(g, 0, "King Rex", 1)
    # V now 2; Zombie Lord -> Tortuga (largest gap): V 2; Invader -> Tortuga: V 6
    card = hand(g, 0, "Invasion")
    assert _want(g, 0, "Invasion")
    g.play_action(0, card)
    assert inv.slot is g.slots[2] and [m.name for m in g.slots[0].minions] == ["Zombie Lord"]


def test_invasion_moves_the_hit_target_to_the_base_with_the_largest_gap():
    g = scenario(bases=B3)
    lord = put(g, 1, "Zombie Lord", 0)
    put(g, 0, "King Rex", 1)
    put(g, 1, "Walker", 2)
    # V now -2; Lord -> Tortuga: V 0; King Rex -> Oasis: V 0 (ties go to the HIT move)
    g.play_action(0, hand(g, 0, "Invasion"))
    assert lord.slot is g.slots[2] and ("move", "Zombie Lord", 1, "Tortuga") in g.log


def test_invasion_obeys_hideout_and_mark_of_sleep():
    g = scenario(bases=B3)
    lord = put(g, 1, "Zombie Lord", 0)
    attach(g, 1, "Hideout", 1)  # the largest gap, but seat 0 cannot move minions there
    g.play_action(0, hand(g, 0, "Invasion"))
    assert lord.slot is g.slots[2]
    g = scenario(bases=B3)
    lord = put(g, 1, "Zombie Lord", 0)
    g.sleep[0] = ("moves", 1)
    card = hand(g, 0, "Invasion")
    assert not _want(g, 0, "Invasion")
    g.play_action(0, card)
    assert lord.slot is g.slots[0] and _names(g.players[0].discard) == ["Invasion"]


# ---- 10. Jammed Signal ----------------------------------------------------------------------
def _jam_board(strategies=None):
    g = scenario(bases=["The Central Brain", "Rhodes Plaza Mall", "Jungle Oasis"], strategies=strategies)
    put(g, 1, "Zombie Lord", 0), put(g, 1, "Walker", 0)
    rex = put(g, 0, "King Rex", 0)  # Brain: 17 of 19, seat 1 has more minions
    put(g, 1, "Walker", 1)  # Mall: 2 of 24, seat 1 would gain more
    return g, rex


def test_jammed_signal_goes_on_the_nearest_base_whose_ability_favours_an_opponent():
    g, rex = _jam_board()
    assert g.power(rex) == 8
    jam = hand(g, 0, "Jammed Signal")
    assert _want(g, 0, "Jammed Signal")
    a = g.play_action(0, jam)
    assert a.host is g.slots[0] and not g.active(g.slots[0])
    assert g.power(rex) == 7  # The Central Brain's +1 ends at once
    g, rex = _jam_board(_seat0({"Jammed Signal": [1]}))
    g.play_action(0, hand(g, 0, "Jammed Signal"))
    assert g.power(rex) == 8 and not g.active(g.slots[1])
    g.score_base(g.slots[1])
    assert _vp(g) == [0, 0]  # Rhodes Plaza Mall pays nothing while jammed


def test_jammed_signal_is_held_when_no_ability_favours_an_opponent():
    g = scenario(bases=["The Central Brain", "Factory 436-1337", "Jungle Oasis"])
    put(g, 0, "King Rex", 0), put(g, 0, "Walker", 0), put(g, 1, "Zombie Lord", 0)
    put(g, 0, "King Rex", 1), put(g, 1, "Walker", 1)  # seat 0 wins the Factory
    jam = hand(g, 0, "Jammed Signal")
    assert not _want(g, 0, "Jammed Signal")
    put(g, 1, "King Rex", 1), put(g, 1, "Zombie Lord", 1)  # now seat 1 wins it, 14 -> +2 VP
    assert _want(g, 0, "Jammed Signal")
    assert g.play_action(0, jam).host is g.slots[1]


def test_a_jammed_school_of_wizardry_is_replaced_by_the_plain_top_card():
    g = scenario(bases=["School of Wizardry", "Jungle Oasis", "Tortuga"],
                 base_deck=["The Great Library", "The Mothership", "Rhodes Plaza Mall"])
    put(g, 0, "King Rex", 0)
    attach(g, 1, "Jammed Signal", 0)
    g.score_base(g.slots[0])
    assert g.slots[0].name == "Rhodes Plaza Mall"  # unjammed, the winner would take a 4-VP base


# ---- 11. Probe ------------------------------------------------------------------------------
def test_probe_makes_the_opponent_with_most_vp_discard_their_strongest_minion():
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"])
    g.players[1].vp = g.players[2].vp = 3  # tie: the next in turn order after seat 0
    hand(g, 1, "Walker", "Zombie Lord", "Poison")
    hand(g, 2, "King Rex")
    probe = hand(g, 0, "Probe")
    assert _want(g, 0, "Probe")
    g.play_action(0, probe)
    assert _names(g.players[1].hand) == ["Walker", "Poison"]
    assert _names(g.players[1].discard) == ["Zombie Lord"]
    g.players[2].vp = 4
    g.play_action(0, hand(g, 0, "Probe"))
    assert _names(g.players[2].discard) == ["King Rex"]


def test_probe_scripted_player_and_minion_and_pixie_counts_as_a_minion():  # [D20]
    g = scenario(players=3, bases=["Jungle Oasis", "The Great Library", "Tortuga", "Tar Pits"],
                 strategies=_seat0({"Probe": [2, 1], "Probe:minion": [1]}, players=3))
    hand(g, 1, "Poison")
    hand(g, 2, "Pixie", "Walker")  # printed 2 both: the baseline would take the first
    g.play_action(0, hand(g, 0, "Probe"))
    assert _names(g.players[2].discard) == ["Walker"]
    g.play_action(0, hand(g, 0, "Probe"))  # seat 1 holds no minion: nothing
    assert _names(g.players[1].hand) == ["Poison"]
    g = scenario(players=2)
    hand(g, 1, "Pixie", "Beam Up")
    g.play_action(0, hand(g, 0, "Probe"))
    assert _names(g.players[1].discard) == ["Pixie"]


# ---- 12. Terraforming ------------------------------------------------------------------------
def _terra_board(strategies=None, base_deck=("The Mothership", "Temple of Goju", "The Homeworld")):
    g = scenario(bases=B3, base_deck=base_deck, strategies=strategies)
    rex = put(g, 0, "King Rex", 0)
    put(g, 1, "Walker", 0)  # seat 0 leads the Oasis by 5
    put(g, 0, "Invader", 1)  # and the Library by 3
    up = attach(g, 0, "Upgrade", rex)
    block = attach(g, 1, "Block the Path", 0, named=("Zombies",))
    g.slots[0].reduction = 3
    return g, rex, up, block


def test_terraforming_swaps_the_base_you_lead_most_for_the_best_deck_base():
    g, rex, up, block = _terra_board()
    slot = g.slots[0]
    terra = hand(g, 0, "Terraforming")
    assert _want(g, 0, "Terraforming")
    g.play_action(0, terra)
    # highest 1st-place VP, ties (Mothership 20 vs Homeworld 23): the lower breakpoint
    assert g.slots[0] is slot and slot.name == "The Mothership"
    assert [m.name for m in slot.minions] == ["King Rex", "Walker"] and slot.actions == [block]
    assert rex.attached == [up] and g.power(rex) == 9  # everything on it stays
    assert slot.reduction == 0  # reductions stay with the old card [D23]
    assert sorted(b.name for b in g.base_deck) == ["Jungle Oasis", "Temple of Goju", "The Homeworld"]
    assert g.grants == [("M@", slot)]
    small = hand(g, 0, "Walker")
    assert g.grant_for(0, small, slot) == ("M@", slot)


def test_terraforming_scripted_choices_and_empty_base_deck():
    g, *_ = _terra_board(_seat0({"Terraforming": [1], "Terraforming:base": [1]}))
    g.play_action(0, hand(g, 0, "Terraforming"))
    assert g.slots[1].name == "Temple of Goju" and g.grants == [("M@", g.slots[1])]
    assert "The Great Library" in [b.name for b in g.base_deck]
    g, *_ = _terra_board(base_deck=())
    terra = hand(g, 0, "Terraforming")
    assert not _want(g, 0, "Terraforming")
    g.play_action(0, terra)
    assert [s.name for s in g.slots] == B3 and g.grants == []


def test_terraforming_is_held_when_you_lead_nowhere():
    g = scenario(bases=B3, base_deck=["The Mothership"])
    put(g, 0, "Invader", 0), put(g, 1, "Invader", 0)
    hand(g, 0, "Terraforming")
    assert not _want(g, 0, "Terraforming")


# ==== Dinosaurs (§3) ==========================================================================

# ---- 1. King Rex --------------------------------------------------------------------------
def test_king_rex_has_no_ability():
    g = scenario(bases=B3)
    rex = g.play_minion(0, hand(g, 0, "King Rex"), g.slots[0])
    assert g.power(rex) == 7 and g.log == [("play", "King Rex", 0, "Jungle Oasis")]
    assert "King Rex" not in ab.ON_PLAY and "King Rex" not in ab.TALENT


# ---- 2. Lasertops -------------------------------------------------------------------------
def test_lasertops_destroys_the_strongest_opponent_minion_of_printed_power_2_or_less_here():
    g = scenario(bases=B3, strategies=_seat0({}))
    r1, r2 = put(g, 1, "War Raptor", 0), put(g, 1, "War Raptor", 0)  # printed 2, 4 each now
    rex = put(g, 1, "King Rex", 0)
    attach(g, 0, "Poison", rex)  # 3 now, but printed 7
    walker = put(g, 1, "Walker", 0)
    put(g, 1, "Walker", 1)  # another base
    g.play_minion(0, hand(g, 0, "Lasertops"), g.slots[0])
    assert g.strategies[0].seen[0][1] == [r1, r2, walker, None]
    assert _names(g.players[1].discard) == ["War Raptor"] and r1 not in g.minions()
    assert g.power(r2) == 3  # recounted


def test_lasertops_declines_with_only_your_minions_but_may_destroy_one():
    g = scenario(bases=B3)
    put(g, 0, "Collector", 1)
    g.play_minion(0, hand(g, 0, "Lasertops"), g.slots[1])
    assert len(g.minions()) == 2
    g = scenario(bases=B3, strategies=_seat0({"Lasertops": [0]}))
    put(g, 0, "Collector", 1)
    g.play_minion(0, hand(g, 0, "Lasertops"), g.slots[1])
    assert _names(g.players[0].discard) == ["Collector"]


# ---- 3. Armor Stego ------------------------------------------------------------------------
def test_armor_stego_talent_gives_plus_2_on_other_players_turns_until_your_next_turn():
    g = scenario(bases=B3)
    stego = put(g, 0, "Armor Stego", 0)
    put(g, 1, "Tiger Assassin", 0)
    g.play_phase(0)  # the baseline uses the talent every turn
    assert stego.stego and stego.talent_used and g.power(stego) == 3  # +0 on your own turn
    assert ab.talent_moves(g, 0) == []  # once per turn
    g.end_of_turn(0)
    g.current = 1
    assert g.power(stego) == 5
    assert g.places(g.slots[0]) == {0: 0, 1: 1}  # scoring on seat 1's turn: 5 beats 4
    g.current = 0
    g.start_of_turn(0)
    assert not stego.stego and ab.talent_moves(g, 0) == [("talent", stego)]
    g.current = 1
    assert g.power(stego) == 3


# ---- 4. War Raptor ------------------------------------------------------------------------
def test_war_raptor_gains_one_per_war_raptor_on_its_base_recounted_on_every_change():
    g = scenario(bases=B3)
    raptors = [put(g, 0, "War Raptor", 0)]
    assert g.power(raptors[0]) == 3
    raptors.append(put(g, 1, "War Raptor", 0))  # any owner counts
    assert [g.power(r) for r in raptors] == [4, 4]
    raptors += [put(g, 0, "War Raptor", 0), put(g, 0, "War Raptor", 0)]
    assert [g.power(r) for r in raptors] == [6, 6, 6, 6]
    g.move(raptors[0], g.slots[1], 0)
    assert [g.power(r) for r in raptors] == [3, 5, 5, 5]
    g.destroy([raptors[1]], 0, True)
    assert [g.power(r) for r in raptors[2:]] == [4, 4] and raptors[0].card.power == 2


def test_war_raptor_place_ties_go_to_the_base_with_more_of_your_war_raptors():
    g = scenario(bases=["Rhodes Plaza Mall", "Jungle Oasis", "Tortuga"])
    put(g, 0, "War Raptor", 0)  # Mall: 0/0/0, V never moves there
    put(g, 1, "King Rex", 1), put(g, 1, "Zombie Lord", 1)  # Oasis: ready, 2nd pays 0 (gap 0)
    put(g, 1, "King Rex", 2), put(g, 1, "King Rex", 2), put(g, 0, "Zombie Lord", 2)  # seat 0 2nd
    raptor = hand(g, 0, "War Raptor")
    moves = g.minion_moves(0)
    # the raptor changes V nowhere: PLACE's own tie-break would take the Oasis (smallest gap)
    assert moves[greedy_minion(g, 0, moves)] == ("hand", raptor, g.slots[0])


# ---- 5. Augmentation ------------------------------------------------------------------------
def test_augmentation_gives_plus_4_until_end_of_turn_where_it_raises_your_vp():
    g = scenario(bases=B3)
    inv = put(g, 0, "Invader", 0)
    put(g, 1, "Tiger Assassin", 0)  # +4 turns seat 0's 2nd (0 VP) into 1st
    rex = put(g, 0, "King Rex", 1)  # already 1st: +4 changes nothing
    aug = hand(g, 0, "Augmentation")
    assert _want(g, 0, "Augmentation")
    g.play_action(0, aug)
    assert g.power(inv) == 7 and g.power(rex) == 7
    g.end_of_turn(0)
    assert g.power(inv) == 3


def test_augmentation_is_held_when_it_raises_nothing_and_may_go_to_any_minion():
    g = scenario(bases=B3, strategies=_seat0({"Augmentation": [1]}))
    put(g, 0, "King Rex", 0)
    tiger = put(g, 1, "Tiger Assassin", 1)
    aug = hand(g, 0, "Augmentation")
    assert not _want(g, 0, "Augmentation")
    g.play_action(0, aug)
    assert g.power(tiger) == 8


# ---- 6. Howl ------------------------------------------------------------------------------
def test_howl_gives_your_minions_in_play_plus_1_until_end_of_turn():
    g = scenario(bases=B3)
    inv = put(g, 0, "Invader", 0)
    tiger = put(g, 1, "Tiger Assassin", 0)  # +1: seat 0 ties for 1st, V rises
    rex = put(g, 0, "King Rex", 1)
    howl = hand(g, 0, "Howl")
    assert _want(g, 0, "Howl")
    g.play_action(0, howl)
    assert [g.power(m) for m in (inv, tiger, rex)] == [4, 4, 8]
    late = g.play_minion(0, hand(g, 0, "Walker"), g.slots[2])
    assert g.power(late) == 2  # later arrivals do not gain it
    g.end_of_turn(0)
    assert [g.power(m) for m in (inv, rex)] == [3, 7]


def test_howl_is_held_when_v_does_not_rise():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 1)
    hand(g, 0, "Howl")
    assert not _want(g, 0, "Howl")


# ---- 7. Natural Selection ------------------------------------------------------------------
def _ns_board(strategies=None):
    g = scenario(bases=B3, strategies=strategies)
    put(g, 0, "Zombie Lord", 0)
    tiger = put(g, 1, "Tiger Assassin", 0)
    put(g, 1, "Walker", 0), put(g, 1, "Cut Lass", 0)  # seat 1 outranks seat 0 at the Oasis (9 vs 5)
    put(g, 0, "King Rex", 1)
    master = put(g, 1, "Ninja Master", 1)  # stronger, but seat 0 leads the Library
    return g, tiger, master


def test_natural_selection_destroys_the_strongest_weaker_opponent_minion_hit_bases_first():
    g, tiger, master = _ns_board()
    ns = hand(g, 0, "Natural Selection")
    assert _want(g, 0, "Natural Selection")
    g.play_action(0, ns)
    assert _names(g.players[1].discard) == ["Tiger Assassin"] and tiger not in g.minions()


def test_natural_selection_scripted_pair_and_an_own_target_when_forced():  # [D9]
    g, tiger, master = _ns_board(_seat0({"Natural Selection": [lambda o: 1]}))
    g.play_action(0, hand(g, 0, "Natural Selection"))  # King Rex: only the Ninja Master is weaker
    assert _names(g.players[1].discard) == ["Ninja Master"]
    g = scenario(bases=B3, strategies=_seat0({"Natural Selection": [0]}))
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 0), put(g, 1, "King Rex", 0)
    ns = hand(g, 0, "Natural Selection")
    assert not _want(g, 0, "Natural Selection")  # only your own minion qualifies
    g.play_action(0, ns)  # King Rex chosen: the Invader is the only weaker minion, mandatory
    assert _names(g.players[0].discard) == ["Invader", "Natural Selection"]


def test_natural_selection_baseline_forced_picks_a_minion_with_nothing_weaker():
    g = scenario(bases=B3)
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 0)
    g.play_action(0, hand(g, 0, "Natural Selection"))
    assert len(g.minions()) == 2


# ---- 8. Rampage -----------------------------------------------------------------------------
def _rampage_board(strategies=None):
    g = scenario(bases=B3, strategies=strategies)
    put(g, 0, "Invader", 0), put(g, 1, "Tiger Assassin", 0)
    rex = put(g, 0, "King Rex", 1)
    attach(g, 0, "Upgrade", rex)  # 9 now: the reduction reads current power
    put(g, 0, "Zombie Lord", 1), put(g, 0, "Ninja Master", 1), put(g, 1, "Walker", 1)  # 21 of 22
    return g, rex


def test_rampage_reduces_the_breakpoint_by_your_strongest_minion_there_until_end_of_turn():
    g, rex = _rampage_board()
    ramp = hand(g, 0, "Rampage")
    assert _want(g, 0, "Rampage") and not g.ready(g.slots[1])
    g.play_action(0, ramp)
    assert g.slots[1].reduction == 9 and g.breakpoint(g.slots[1]) == 13 and g.ready(g.slots[1])
    g.boost(rex, 0, temp=4)
    assert g.breakpoint(g.slots[1]) == 13  # fixed when played
    g.end_of_turn(0)
    assert g.slots[1].reduction == 0


def test_rampage_is_held_unless_you_would_be_alone_first_and_stacks_floored_at_zero():
    g, rex = _rampage_board(_seat0({"Rampage": [0, 0]}))
    put(g, 1, "King Rex", 1), put(g, 1, "Zombie Lord", 1), put(g, 1, "Ninja Master", 1)  # tie 19-19
    hand(g, 0, "Rampage", "Rampage")
    assert not _want(g, 0, "Rampage")
    g.play_action(0, g.players[0].hand[0])
    g.play_action(0, g.players[0].hand[0])  # scripted: the Invader on the Oasis, twice
    assert g.slots[0].reduction == 6 and g.breakpoint(g.slots[0]) == 6
    g.slots[0].reduction = 20
    assert g.breakpoint(g.slots[0]) == 0  # [D11]


# ---- 9. Survival of the Fittest ---------------------------------------------------------------
def _sotf_board(strategies=None):
    g = scenario(bases=["Jungle Oasis", "The Great Library", "Tortuga", "Temple of Goju"],
                 strategies=strategies)
    put(g, 0, "Invader", 0), put(g, 1, "Walker", 0), put(g, 1, "Tiger Assassin", 0)
    mine = put(g, 0, "Collector", 1)
    ench = put(g, 1, "Enchantress", 1)  # tied lowest with seat 0's Collector
    put(g, 1, "King Rex", 1)
    put(g, 1, "Cut Lass", 2), put(g, 0, "Scout", 2)  # all equal: skipped
    put(g, 1, "Walker", 3)  # alone: skipped
    return g, mine, ench


def test_survival_of_the_fittest_destroys_the_lowest_on_each_unequal_base_together():
    g, mine, ench = _sotf_board()
    sotf = hand(g, 0, "Survival of the Fittest")
    assert _want(g, 0, "Survival of the Fittest")
    g.play_action(0, sotf)
    assert _names(g.players[1].discard) == ["Walker", "Enchantress"]  # ties go to other players
    assert mine in g.minions() and len(g.minions()) == 7


def test_survival_of_the_fittest_scripted_tie_and_protected_lowest_destroys_nothing_there():  # [D38]
    g, mine, ench = _sotf_board(_seat0({"Survival of the Fittest": [0, 0]}))
    attach(g, 1, "Tooth and Claw...and Guns", g.slots[0].minions[1])  # the Oasis' only lowest
    put(g, 1, "Warbot", 2), put(g, 1, "King Rex", 2)  # Tortuga: the lowest are 3s
    g.play_action(0, hand(g, 0, "Survival of the Fittest"))
    assert g.strategies[0].seen[0][1] == [mine, ench]  # the Oasis offered nothing
    assert _names(g.players[0].discard) == ["Collector", "Survival of the Fittest"]
    assert _names(g.players[1].discard) == ["Cut Lass"]  # scripted first of Tortuga's two 3s
    g = scenario(bases=B3)
    put(g, 1, "Warbot", 0), put(g, 1, "King Rex", 0)  # cannot be destroyed: not offered [D8]
    put(g, 0, "Invader", 1), put(g, 1, "King Rex", 1)
    hand(g, 0, "Survival of the Fittest")
    assert not _want(g, 0, "Survival of the Fittest")  # only seat 0 would lose power


# ---- 10. Tooth and Claw...and Guns ----------------------------------------------------------------
def test_tooth_and_claw_shields_from_other_players_cards_and_discards_their_actions():  # [D7], [D39]
    g = scenario(bases=B3)
    rex = put(g, 0, "King Rex", 0)  # HELP: the Oasis has the smaller gap
    put(g, 1, "Walker", 0)
    inv = put(g, 0, "Invader", 1)
    poison = attach(g, 1, "Poison", rex)
    up = attach(g, 0, "Upgrade", rex)
    tc = hand(g, 0, "Tooth and Claw...and Guns")
    assert _want(g, 0, "Tooth and Claw...and Guns")
    a = g.play_action(0, tc)
    assert a.host is rex and rex.attached == [up, a] and _names(g.players[1].discard) == ["Poison"]
    assert poison not in rex.attached and g.power(rex) == 9
    assert not g.affectable(rex, 1, False) and not g.affectable(rex, 1, True)
    assert g.affectable(rex, 0, True) and g.affectable(rex, None, False) and g.affectable(inv, 1, True)
    g.current = 1
    g.play_action(1, hand(g, 1, "Beam Up"))  # seat 1 cannot touch the Rex: the Invader goes
    assert _names(g.players[0].hand) == ["Invader"] and rex in g.minions()


def test_tooth_and_claw_is_held_without_a_minion_of_yours():
    g = scenario(bases=B3)
    put(g, 1, "Walker", 0)
    hand(g, 0, "Tooth and Claw...and Guns")
    assert not _want(g, 0, "Tooth and Claw...and Guns")


# ---- 11. Upgrade --------------------------------------------------------------------------------
def test_upgrade_gives_plus_2_to_the_help_minion_while_attached():
    g = scenario(bases=B3)
    put(g, 0, "Invader", 1)
    rex = put(g, 0, "King Rex", 0)
    put(g, 1, "Zombie Lord", 0)
    up = hand(g, 0, "Upgrade")
    assert _want(g, 0, "Upgrade")
    a = g.play_action(0, up)
    assert a.host is rex and g.power(rex) == 9
    g.discard_action(a)
    assert g.power(rex) == 7 and _names(g.players[0].discard) == ["Upgrade"]
    g = scenario(bases=B3)
    put(g, 1, "Walker", 0)
    hand(g, 0, "Upgrade")
    assert not _want(g, 0, "Upgrade")


# ---- 12. Wildlife Preserve ------------------------------------------------------------------------
def test_wildlife_preserve_shields_your_minions_there_from_other_players_actions():  # [D7], [D40]
    g = scenario(bases=B3)
    inv = put(g, 0, "Invader", 0)
    rex = put(g, 0, "King Rex", 1)  # most power at the Library
    theirs = put(g, 1, "Walker", 1)
    attach(g, 1, "Poison", rex)
    poisoned = attach(g, 1, "Poison", inv)
    wp = hand(g, 0, "Wildlife Preserve")
    assert _want(g, 0, "Wildlife Preserve")
    a = g.play_action(0, wp)
    assert a.host is g.slots[1] and rex.attached == [] and _names(g.players[1].discard) == ["Poison"]
    g.move(inv, g.slots[1], 0)  # an arrival: its Poison is discarded too
    assert poisoned not in inv.attached and g.power(inv) == 3
    assert not g.affectable(rex, 1, True) and g.affectable(rex, 1, False) and g.affectable(theirs, 0, True)
    g.current = 1
    g.play_action(1, hand(g, 1, "Beam Up"))  # only seat 1's own Walker is a legal target
    assert _names(g.players[1].hand) == ["Walker"]
    g.play_minion(1, hand(g, 1, "Supreme Overlord"), g.slots[2])  # a minion ability still can
    assert _names(g.players[0].hand) == ["King Rex"]


def test_wildlife_preserve_is_held_without_a_minion_of_yours():
    g = scenario(bases=B3)
    put(g, 1, "Walker", 0)
    hand(g, 0, "Wildlife Preserve")
    assert not _want(g, 0, "Wildlife Preserve")


# ==== full games ================================================================================
SEATINGS = [("Aliens", "Dinosaurs"), ("Ninjas", "Pirates"), ("Robots", "Tricksters"), ("Wizards", "Zombies")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("player", [Random, Greedy])
def test_full_games_with_aliens_and_dinosaurs_finish(players, player):
    for game in range(20):
        k = game % players  # Aliens and Dinosaurs sit at every seat in turn
        factions = SEATINGS[1:players][:k] + [SEATINGS[0]] + SEATINGS[1:players][k:]
        g = play_seated(Rules(players=players), factions, [player() for _ in range(players)],
                      seed=5, game=game)
        vp = _vp(g)
        assert g.capped or (max(vp) >= 15 and vp.count(max(vp)) == 1)
