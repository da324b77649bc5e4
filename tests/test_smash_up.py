"""Smash Up (issue 11, in progress): the vendored card list read and checked against the
sanity table of rules/smash-up-cards.md §13, and the bases against the cross-check of six
public implementations (data/bases_crosscheck.csv)."""
import csv
import re

import pytest

from balance.core.errors import BalanceError
from balance.games.smash_up.catalogue import DATA, FACTIONS, load_catalogue

# rules/smash-up-cards.md §13: distinct cards, copies, minion copies, action copies, minion
# power total (printed power x copies), minion copies of printed power <= 2, largest power.
# Pixie (dual, printed power 2, 2 copies) counts apart, as the table does.
SANITY = {
    "Aliens": (12, 20, 10, 10, 28, 4, 5),
    "Dinosaurs": (12, 20, 10, 10, 32, 4, 7),
    "Ninjas": (12, 20, 10, 10, 30, 4, 5),
    "Pirates": (12, 20, 10, 10, 30, 4, 5),
    "Robots": (10, 20, 18, 2, 38, 12, 5),
    "Tricksters": (12, 20, 10, 8, 30, 4, 5),
    "Wizards": (12, 20, 10, 10, 24, 7, 4),
    "Zombies": (12, 20, 10, 10, 27, 7, 5),
}


def _row(cards):
    minions = [c for c in cards if c.kind == "minion"]
    return (len(cards), sum(c.copies for c in cards), sum(c.copies for c in minions),
            sum(c.copies for c in cards if c.kind == "action"),
            sum(c.power * c.copies for c in minions),
            sum(c.copies for c in minions if c.power <= 2), max(c.power for c in minions))


@pytest.mark.parametrize("faction", FACTIONS)
def test_every_faction_matches_the_sanity_table(faction):
    assert _row(load_catalogue().factions[faction]) == SANITY[faction]


def test_the_default_set_holds_160_cards_with_two_pixies_and_16_bases():
    catalogue = load_catalogue()
    cards = [c for f in catalogue.factions.values() for c in f]
    assert sum(c.copies for c in cards) == 160
    assert sum(c.copies for c in cards if c.kind == "minion") == 88
    assert sum(c.copies for c in cards if c.kind == "action") == 70
    (pixie,) = [c for c in cards if c.kind == "dual"]
    assert (pixie.name, pixie.copies, pixie.power) == ("Pixie", 2, 2)
    assert not pixie.text.startswith("Power")
    assert len(catalogue.bases) == 16 and len(catalogue.deck("Robots")) == 20


def test_the_2012_tricksters_list_matches_its_sanity_row():
    tricksters = load_catalogue("2012").factions["Tricksters"]
    assert _row(tricksters) == (12, 20, 10, 10, 30, 4, 5)
    assert {"Leprechaun", "Disenchant"} <= {c.name for c in tricksters}


def test_bases_agree_with_the_consensus_of_six_implementations():
    with open(DATA.with_name("bases_crosscheck.csv"), newline="", encoding="utf-8") as f:
        consensus = {r["base"]: (int(r["consensus_breakpoint"]),
                                 tuple(int(v) for v in r["consensus_vp"].split("/"))) for r in csv.DictReader(f)}
    bases = {b.name: (b.breakpoint, b.vp) for b in load_catalogue().bases}
    # [D5]: the revised Tricksters base Mushroom Kingdom (19, 4/3/2, smash-up-cards.md §11.12)
    # by default; the six implementations agree on its 2012 printing, 20, 5/3/2
    printed_2012 = {b.name: (b.breakpoint, b.vp) for b in load_catalogue(trickster_bases="2012").bases}
    assert printed_2012 == consensus
    assert bases.pop("Mushroom Kingdom") == (19, (4, 3, 2))
    assert consensus.pop("Mushroom Kingdom") == (20, (5, 3, 2))
    assert bases == consensus


def test_bad_requests_are_one_line_errors():
    with pytest.raises(BalanceError, match="unknown tricksters list '2011'; allowed: current, 2012"):
        load_catalogue("2011")
    with pytest.raises(BalanceError, match="unknown faction 'Elves'; allowed: Aliens, Dinosaurs"):
        load_catalogue().deck("Elves")


@pytest.mark.parametrize("swap,message", [
    ("Aliens: Invader -> Zapbot", "'Zapbot' is not among the Aliens cards of the current list; allowed: "
                                  "Supreme Overlord, Invader"),
    ("Elves: Invader -> Scout", "unknown faction of swap 'Elves: Invader -> Scout' 'Elves'; allowed: Aliens"),
    ("Invader for Scout", "write it as 'Faction: Card -> Card', e.g. 'Aliens: Invader -> Collector'"),
    ("Aliens: Scout -> scout", "give two different cards"),
    (["Aliens: Supreme Overlord -> Scout"] * 2, "no copy of Supreme Overlord is left to swap out"),
    (3, "swap 3: write it as 'Faction: Card -> Card'"),
    # TOML tables and nested lists (--set 'swap={a=1}', swap = [["a"]]): no traceback
    ({"a": 1}, "swap {'a': 1}: write it as 'Faction: Card -> Card'"),
    ([["Aliens: Invader -> Scout"]], "swap ['Aliens: Invader -> Scout']: write it as"),
])
def test_a_bad_card_swap_is_a_one_line_error_naming_it(swap, message):
    from balance.games.smash_up.rules import Rules

    with pytest.raises(BalanceError, match=re.escape(message)):
        Rules.from_overrides({"swap": swap})


def test_swaps_from_a_variant_file_or_set_keep_every_faction_at_20_cards(tmp_path):
    from balance.core.variants import load_variant_file, parse_overrides
    from balance.games.smash_up.rules import Rules

    path = tmp_path / "swaps.toml"
    path.write_text('swap = ["Aliens: Invader -> Collector", "Aliens: Invader -> Scout"]\n')
    rules = Rules.from_overrides(dict(load_variant_file(path)))
    aliens = {c.name: c.copies for c in rules.catalogue().factions["Aliens"]}
    assert (aliens["Invader"], aliens["Collector"], aliens["Scout"]) == (0, 5, 4)
    assert all(sum(c.copies for c in cards) == 20 for cards in rules.catalogue().factions.values())
    one = Rules.from_overrides(parse_overrides(["swap=Zombies: Walker -> Grave Digger"]))
    assert one.swap == ("Zombies: Walker -> Grave Digger",) and Rules().catalogue() == load_catalogue()


# ---- the rules (not read by an engine yet) --------------------------------------------------------

from balance.games.smash_up.rules import Rules  # noqa: E402


def test_the_rulebook_validates_at_every_player_count_and_round_trips():
    for players in (2, 3, 4):
        rules = Rules.from_overrides({"players": players})
        assert rules.bases_in_play == players + 1 and rules.vp_to_win == 15
        assert Rules.from_overrides(rules.to_dict()) == rules
    assert [row["key"] for row in Rules.describe()] == Rules.keys()
    assert all(row["allowed"] and row["meaning"] for row in Rules.describe())


@pytest.mark.parametrize("key, value, words", [
    ("players", 5, "players=5 is out of range; allowed: integer 2..4"),
    ("players", 1, "players=1 is out of range"),
    ("extra_bases", 13, "extra_bases=13 is out of range; allowed: integer 0..12"),
    ("tricksters", "2011", "unknown tricksters list '2011'; allowed: current, 2012"),
    ("trickster_bases", "old", "unknown trickster_bases edition 'old'"),
    ("mulligan", "yes", "mulligan='yes' is not true or false"),
    ("draw", 2.5, "draw=2.5 is not an integer; allowed: integer 0..10"),
    ("vp", 12, "unknown rules key 'vp'; allowed: vp_to_win"),
    # one number for a per-seat list was a list of one: a head start for seat 0, the favoured seat
    ("start_vp", 1, "start_vp=1 is one number, but start_vp is a list, one entry per seat from seat 0; "
                    "e.g. start_vp=[0, 1, 1, 1]"),
    ("extra_cards", 1, "extra_cards=1 is one number, but extra_cards is a list"),
])
def test_bad_rules_are_one_line_errors(key, value, words):
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides({key: value})
    assert words in str(e.value) and "\n" not in str(e.value)


# ---- the reference engine: scoring, ties, the end, setup and bases (smash-up.md, seed 003) -----

from balance.games.smash_up.reference import Greedy, Random, Scripted, play_seated  # noqa: E402
from balance.games.smash_up.reference.scenario import (  # noqa: E402
    attach, deck, discard, hand, put, scenario)


def _vp(g):
    return [pl.vp for pl in g.players]


def test_tied_players_share_the_best_place_and_use_up_the_places_they_occupy():
    # seed 003, "Споры при раздаче": powers 10, 10 and 5 -> both tens take 1st, the five 3rd
    g = scenario(players=3, bases=["The Great Library", "Jungle Oasis", "Tar Pits", "Factory 436-1337"])
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 0)
    put(g, 1, "Zombie Lord", 0), put(g, 1, "Ninja Master", 0)
    put(g, 2, "Supreme Overlord", 0)
    assert g.places(g.slots[0]) == {0: 0, 1: 0, 2: 2}
    g.score_base(g.slots[0])
    assert _vp(g) == [4, 4, 1]  # The Great Library pays 4/2/1


def test_a_tie_for_second_leaves_nobody_third_and_no_minion_means_no_place():
    g = scenario(players=4, bases=["The Great Library", "Jungle Oasis", "Tar Pits", "Factory 436-1337",
                                   "Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "Ninja Master", 0)   # 12
    put(g, 1, "Zombie Lord", 0), put(g, 1, "Enchantress", 0)  # 7
    put(g, 2, "King Rex", 0)                                  # 7
    put(g, 3, "Invader", 0)                                   # 3: would be 3rd, but 2nd was shared
    g.score_base(g.slots[0])
    assert _vp(g) == [4, 2, 2, 0]


def test_a_minion_of_power_zero_still_takes_a_place_and_cards_go_to_their_owners_discard():
    g = scenario(players=2, bases=["The Great Library", "Jungle Oasis", "Tar Pits"], base_deck=["Tortuga"])
    put(g, 0, "King Rex", 0)
    weak = put(g, 1, "Enchantress", 0)
    attach(g, 0, "Poison", weak)  # 2 - 4 -> 0, floored [D11]
    attach(g, 1, "Block the Path", 0, named=("Zombies",))
    assert g.power(weak) == 0
    g.score_base(g.slots[0])
    assert _vp(g) == [4, 2]
    assert g.slots[0].name == "Tortuga" and g.base_discard[-1].name == "The Great Library"
    assert sorted(c.name for c in g.players[0].discard) == ["King Rex", "Poison"]
    assert sorted(c.name for c in g.players[1].discard) == ["Block the Path", "Enchantress"]
    assert not g.players[0].hand and not g.players[1].hand  # Great Library: draws from empty decks


def test_a_scored_base_with_an_empty_base_deck_is_not_replaced():
    g = scenario(players=2, bases=["Jungle Oasis", "Tar Pits", "The Grey Opal"])
    put(g, 0, "King Rex", 0), put(g, 0, "Ninja Master", 0)
    g.score_phase()
    assert [s.name for s in g.slots] == ["Tar Pits", "The Grey Opal"] and _vp(g) == [2, 0]
    assert [s.index for s in g.slots] == [0, 1]


def test_the_current_player_orders_ready_bases_and_a_base_scores_only_while_ready():
    g = scenario(players=2, bases=["Jungle Oasis", "The Great Library", "Tar Pits"],
                 base_deck=["Tortuga", "Factory 436-1337"])
    put(g, 0, "King Rex", 0), put(g, 0, "Ninja Master", 0)         # Oasis 12: ready, 2 VP
    for _ in range(3):
        put(g, 0, "King Rex", 1)                                     # Library 21 < 22
    put(g, 1, "Invader", 1)                                          # 24: ready, 4 VP to seat 0
    g.score_phase()  # baseline: the base paying the current player most first
    assert [e[1] for e in g.log if e[0] == "score"] == ["The Great Library", "Jungle Oasis"]
    assert _vp(g) == [6, 2]


def test_the_game_ends_after_a_turn_with_15_vp_and_a_tied_lead_plays_on():
    g = scenario(players=2)
    g.players[0].vp = g.players[1].vp = 15
    for _ in range(3):
        g.take_turn()  # nobody leads: no end
    assert g.winner is None and g.turns == 3
    g.players[1].vp = 16
    g.play()
    assert g.winner == 1 and g.turns == 4 and not g.capped


def test_the_turn_cap_ends_a_runaway_game_as_capped():
    g = scenario(players=2, rules=Rules(players=2, max_turns=5))
    g.play()
    assert g.capped and g.winner is None and g.turns == 5


def test_draw_two_reshuffles_an_empty_deck_and_the_hand_limit_discards_the_least_useful():
    g = scenario(players=2, rules=Rules(players=2, hand_limit=3))
    hand(g, 0, "Beam Up", "King Rex", "Invader")
    deck(g, 0, "Enchantress")
    discard(g, 0, "Scout")
    g.draw_phase(0)  # Enchantress from the deck, then the discard pile (Scout) becomes the deck
    assert sorted(c.name for c in g.players[0].hand) == ["Invader", "King Rex", "Scout"]
    # the baseline discards the lowest value first (printed power, an action 3; ties: hand
    # order): Enchantress (2), then Beam Up, the first of three cards valued 3
    assert [c.name for c in g.players[0].discard] == ["Enchantress", "Beam Up"]


def test_a_hand_without_minions_is_redrawn_once_by_the_baseline_and_kept_when_declined():
    rules = Rules(players=2)
    seen = {}
    for strategy in (Greedy(), Scripted({"mulligan": [None]})):
        for seed in range(200):
            g = play_game_setup(rules, [strategy, Greedy()], seed)
            if any(e == "mulligan" for e in g.asked):
                seen[type(strategy).__name__] = g
                break
    assert set(seen) == {"Greedy", "Scripted"}
    redrawn = seen["Greedy"].players[0]
    assert len(redrawn.hand) == 5 and len(redrawn.discard) == 5  # the first hand is discarded
    kept = seen["Scripted"].players[0]
    assert len(kept.hand) == 5 and not kept.discard and not any(c.is_minion for c in kept.hand)


def play_game_setup(rules, strategies, seed):
    from balance.games.smash_up.reference import Game  # noqa: PLC0415

    class Asking:
        def __init__(self, inner, asked):
            self.inner, self.asked = inner, asked

        def pick(self, g, p, key, options, default):
            if p == 0:
                self.asked.append(key)
            return self.inner.pick(g, p, key, options, default)
    asked = []
    g = Game(rules, [("Aliens", "Dinosaurs"), ("Ninjas", "Pirates")],
             [Asking(strategies[0], asked), strategies[1]], seed, 0).setup()
    g.asked = asked
    return g


def test_a_play_uses_the_most_restrictive_grant_that_fits():  # [D12]
    g = scenario(players=2)
    g.grants = [("M", None), ("M2", None), ("M@", g.slots[1])]
    small = hand(g, 0, "Enchantress")
    assert g.grant_for(0, small, g.slots[1]) == ("M@", g.slots[1])
    assert g.grant_for(0, small, g.slots[0]) == ("M2", None)
    big = hand(g, 0, "King Rex")
    assert g.grant_for(0, big, g.slots[0]) == ("M", None)
    g.do_move(0, ("hand", small, g.slots[0]))
    assert g.grants == [("M", None), ("M@", g.slots[1])] and g.free_minion == 1


def test_full_games_finish_at_every_player_count_with_both_players():
    for n in (2, 3, 4):
        for player in (Greedy, Random):
            for game in range(3):
                g = play_seated(Rules(players=n), [("Aliens", "Dinosaurs"), ("Ninjas", "Pirates"),
                                                 ("Robots", "Tricksters"), ("Wizards", "Zombies")][:n],
                              [player() for _ in range(n)], seed=7, game=game)
                assert g.capped or max(_vp(g)) >= 15 and _vp(g).count(max(_vp(g))) == 1


# ---- every base (rules/smash-up-cards.md §11) -----------------------------------------------

def _names(cards):
    return [c.name for c in cards]


def test_homeworld_grants_a_minion_of_printed_power_two_once_per_turn():
    g = scenario(players=2, bases=["The Homeworld", "Jungle Oasis", "Tar Pits"])
    rex, small, other = hand(g, 0, "King Rex", "Enchantress", "Walker")
    g.do_move(0, ("hand", rex, g.slots[0]))
    assert g.grants == [("M2", None)]  # any base [D31]
    g.do_move(0, ("hand", small, g.slots[0]))  # uses the grant; the second play earns none
    assert g.grants == [] and ("homeworld", 0) in g.flags
    assert [(m.name, m.slot.index) for m in g.minions()] == [("King Rex", 0), ("Enchantress", 0)]


def test_homeworld_offers_its_minion_to_a_hand_without_one_and_the_baseline_declines():
    """§11.1: "they may take grant M≤2", usable any time later in the phase (§1.5), so it is
    offered with no small minion in hand (a card drawn later may use it); the baseline's default
    takes it only when holding one."""
    scripted = Scripted({"The Homeworld": [0]})  # take it
    g = scenario(players=2, bases=["The Homeworld", "Jungle Oasis", "Tar Pits"],
                 strategies=[scripted, Greedy()])
    g.do_move(0, ("hand", hand(g, 0, "King Rex"), g.slots[0]))
    assert ("The Homeworld", [True, None]) in scripted.seen and g.grants == [("M2", None)]
    g = scenario(players=2, bases=["The Homeworld", "Jungle Oasis", "Tar Pits"])
    g.do_move(0, ("hand", hand(g, 0, "King Rex"), g.slots[0]))
    assert g.grants == [] and ("homeworld", 0) not in g.flags  # the baseline declines


def test_homeworld_each_time_is_the_original_printing():
    g = scenario(players=2, bases=["The Homeworld", "Jungle Oasis", "Tar Pits"],
                 rules=Rules(players=2, homeworld_each_time=True))
    a, b, _ = hand(g, 0, "Enchantress", "Walker", "Walker")
    g.do_move(0, ("hand", a, g.slots[0]))
    g.do_move(0, ("hand", b, g.slots[0]))
    assert g.grants == [("M2", None)]  # the second play, made with the first grant, earns another


def test_mothership_winner_returns_one_minion_of_power_three_or_less():
    g = scenario(players=2, bases=["The Mothership", "Jungle Oasis", "Tar Pits"])
    put(g, 0, "King Rex", 0), put(g, 0, "Enchantress", 0), put(g, 0, "Chronomage", 0)
    put(g, 1, "King Rex", 0)
    put(g, 1, "Walker", 0)
    g.score_base(g.slots[0])
    assert _names(g.players[0].hand) == ["Chronomage"]  # highest printed power <= 3
    assert not g.players[1].hand and _vp(g) == [4, 2]


def test_ninja_dojo_each_tied_winner_destroys_a_minion_in_turn_order():  # seed 003, [D15]
    g = scenario(players=3, bases=["Ninja Dojo", "Jungle Oasis", "Tar Pits", "Tortuga"])
    g.current = 1
    put(g, 0, "King Rex", 0), put(g, 1, "King Rex", 0), put(g, 2, "Ninja Master", 0)
    put(g, 2, "Zombie Lord", 1)
    a = put(g, 0, "Grave Digger", 2)
    g.score_base(g.slots[0])
    assert _vp(g) == [2, 2, 2]  # Dojo 2/3/2: both sevens take 1st (2), the five 3rd (2)
    # seat 1 moves first and destroys the highest-power minion not on the Dojo (the Lord),
    # then seat 0 the next one (the Grave Digger is its own: no other target, it declines)
    destroyed = [e[1:3] for e in g.log if e[0] == "destroy"]
    assert destroyed == [("Zombie Lord", 2)] and a in a.slot.minions and a.slot.name == "Tar Pits"


def test_temple_of_goju_sends_each_players_strongest_minion_to_the_bottom_of_its_deck():
    g = scenario(players=2, bases=["Temple of Goju", "Jungle Oasis", "Tar Pits"])
    put(g, 0, "King Rex", 0), put(g, 0, "Invader", 0)
    put(g, 1, "Ninja Master", 0), put(g, 1, "Zombie Lord", 0)  # a tie: the owner picks
    deck(g, 1, "Walker")
    g.score_base(g.slots[0])
    assert _names(g.players[0].deck) == ["King Rex"] and _names(g.players[0].discard) == ["Invader"]
    assert _names(g.players[1].deck) == ["Ninja Master", "Walker"]  # bottom = index 0
    assert _vp(g) == [2, 2]  # 10 and 10: both first


def test_grey_opal_lets_non_winners_move_a_minion_away_instead_of_discarding_it():
    g = scenario(players=2, bases=["The Grey Opal", "Jungle Oasis", "Tar Pits"], base_deck=["Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0), put(g, 0, "Ninja Master", 0)
    put(g, 1, "Zombie Lord", 0)
    put(g, 0, "Invader", 1)
    g.score_base(g.slots[0])
    assert [(m.name, m.controller) for m in g.slots[1].minions] == [("Invader", 0), ("Zombie Lord", 1)]
    assert _names(g.players[0].discard) == ["King Rex", "King Rex", "Ninja Master"]


def test_tortuga_runner_up_moves_a_minion_to_the_replacement():
    g = scenario(players=2, bases=["Tortuga", "Jungle Oasis", "Tar Pits"], base_deck=["The Great Library"])
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0)
    put(g, 1, "Invader", 0)
    put(g, 1, "Zombie Lord", 1)      # alone on Jungle Oasis: moving it loses its 2 VP
    put(g, 1, "Grave Digger", 2), put(g, 1, "Walker", 2)
    put(g, 0, "King Rex", 2), put(g, 0, "King Rex", 2)  # seat 1 second on Tar Pits either way
    g.score_base(g.slots[0])
    assert _vp(g) == [4, 3]
    assert [(m.name, m.controller) for m in g.slots[0].minions] == [("Grave Digger", 1)]
    assert g.slots[0].name == "The Great Library"


def test_factory_pays_the_winner_one_vp_per_five_power_and_central_brain_adds_one():
    g = scenario(players=2, bases=["Factory 436-1337", "The Central Brain", "Tar Pits"], base_deck=["Tortuga"])
    for _ in range(3):
        put(g, 0, "King Rex", 0)        # 21 -> 2/2/1 + 4
    put(g, 1, "Zombie Lord", 0)
    brain = put(g, 1, "Walker", 1)
    assert g.power(brain) == 3
    g.score_base(g.slots[0])
    assert _vp(g) == [2 + 4, 2]
    attach(g, 0, "Jammed Signal", 1)  # the Brain's +1 ends at once
    assert g.power(brain) == 2


def test_cave_of_shinies_pays_an_owner_once_per_turn_and_2012_for_every_minion():
    for edition, expected in (("current", 1), ("2012", 2)):
        g = scenario(players=2, bases=["Cave of Shinies", "Jungle Oasis", "Tar Pits"],
                     rules=Rules(players=2, trickster_bases=edition))
        a, b = put(g, 1, "Walker", 0), put(g, 1, "Walker", 0)
        g.destroy([a], 0, True)
        g.destroy([b], 0, True)
        assert _vp(g) == [0, expected], edition


def test_tar_pits_puts_the_first_minion_destroyed_there_each_turn_on_the_bottom_of_its_deck():
    g = scenario(players=2, bases=["Tar Pits", "Jungle Oasis", "The Homeworld"])
    a, b = put(g, 1, "Walker", 0), put(g, 1, "Zombie Lord", 0)
    deck(g, 1, "Grave Digger")
    assert g.destroy([a, b], 0, True) == [b]  # the first of a group is the one replaced [D19]
    assert _names(g.players[1].deck) == ["Walker", "Grave Digger"] and _names(g.players[1].discard) == ["Zombie Lord"]
    g.end_of_turn(0)
    c = put(g, 1, "Walker", 0)
    assert g.destroy([c], 0, True) == []  # a new turn: replaced again


def test_tar_pits_replaces_the_victim_the_resolving_player_puts_first():
    """[D19] "the first in the resolving player's order": the destroying player picks which of
    the victims there goes first (the baseline keeps the order they were chosen in, as above);
    victims elsewhere are not among the options."""
    script = Scripted({"Tar Pits: first": [lambda opts: 1]})
    g = scenario(players=2, bases=["Tar Pits", "Jungle Oasis", "The Homeworld"], strategies=[script, Greedy()])
    a, b, c = put(g, 1, "Walker", 0), put(g, 1, "Zombie Lord", 0), put(g, 1, "Grave Digger", 1)
    assert g.destroy([a, c, b], 0, True) == [a, c]
    assert _names(g.players[1].deck) == ["Zombie Lord"]
    assert [o for k, o in script.seen if k == "Tar Pits: first"] == [[a, b]]


def test_mushroom_kingdom_current_needs_the_biggest_hand_and_moves_an_opponent_out():
    g = scenario(players=2, bases=["Mushroom Kingdom", "Jungle Oasis", "Tar Pits"])
    threat = put(g, 1, "King Rex", 0)
    put(g, 0, "Invader", 0)
    put(g, 1, "Walker", 2)
    hand(g, 0, "Walker", "Walker")
    hand(g, 1, "Walker", "Walker")
    g.start_of_turn(0)
    assert threat.slot.index == 0  # equal hands: no move [D32]
    hand(g, 0, "Walker")
    g.start_of_turn(0)
    assert threat.slot.index == 2  # to the base with the largest gap (Tar Pits 16 - 2 > Oasis 12)


def test_mushroom_kingdom_current_moves_the_minion_of_the_opponent_who_outranks_you():
    """smash-up-cards.md §11.12's default: "if an opponent outranks you here, move that
    opponent's highest-power minion". At 3 players the strongest opponent minion here (Ninja
    Master, 5) belongs to seat 2, who ranks below seat 0; seat 1 outranks seat 0 with two
    Lasertops, and one of them goes."""
    g = scenario(players=3, bases=["Mushroom Kingdom", "Jungle Oasis", "Tar Pits", "Tortuga"])
    put(g, 0, "King Rex", 0)  # seat 0: 7, second
    lasertops = [put(g, 1, "Lasertops", 0), put(g, 1, "Lasertops", 0)]  # seat 1: 8, first
    master = put(g, 2, "Ninja Master", 0)  # seat 2: 5, third
    hand(g, 0, "Walker", "Walker", "Walker")
    assert g.vp_now(g.slots[0])[:3] == [3, 4, 2]
    g.start_of_turn(0)
    assert master.slot.index == 0 and [m.slot.index for m in lasertops].count(0) == 1
    assert g.vp_now(g.slots[0])[0] == 4  # seat 0 now takes the first place's VP


def test_mushroom_kingdom_2012_pulls_the_opponent_minion_whose_departure_helps_most():
    g = scenario(players=2, bases=["Mushroom Kingdom", "Jungle Oasis", "Tar Pits"],
                 rules=Rules(players=2, trickster_bases="2012"))
    put(g, 0, "Invader", 1)
    put(g, 0, "King Rex", 0), put(g, 0, "Ninja Master", 0)
    rex = put(g, 1, "King Rex", 1)  # takes Jungle Oasis (2 VP) from seat 0
    g.start_of_turn(0)
    # V for seat 0: pulling the Rex costs 3 on the Kingdom (5 - 0 -> 5 - 3) and gains 4 on the Oasis
    assert rex.slot.index == 0


def test_school_of_wizardry_winner_picks_the_replacement_from_the_top_three():
    g = scenario(players=2, bases=["School of Wizardry", "Jungle Oasis", "Tar Pits"],
                 base_deck=["The Homeworld", "Rhodes Plaza Mall", "Evans City Cemetery", "Tortuga"])
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0)
    g.score_base(g.slots[0])
    assert g.slots[0].name == "Evans City Cemetery"  # 5 VP first: the best of the top three
    assert _names(g.base_deck) == ["The Homeworld", "Rhodes Plaza Mall", "Tortuga"]


def test_school_of_wizardry_winner_chooses_which_other_base_goes_back_on_top():
    """"Returns the others in any order": with two left, which goes on top is the winner's
    choice. The baseline keeps the order seen (the first seen on top, as above); a script, or
    a random seat, may put the other on top."""
    script = Scripted({"School of Wizardry: on top": [lambda opts: _names(opts).index("Rhodes Plaza Mall")]})
    g = scenario(players=2, bases=["School of Wizardry", "Jungle Oasis", "Tar Pits"],
                 base_deck=["The Homeworld", "Rhodes Plaza Mall", "Evans City Cemetery", "Tortuga"],
                 strategies=[script, Greedy()])
    put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0), put(g, 0, "King Rex", 0)
    g.score_base(g.slots[0])
    assert g.slots[0].name == "Evans City Cemetery"
    assert _names(g.base_deck) == ["The Homeworld", "Tortuga", "Rhodes Plaza Mall"]  # top last
    assert [(k, _names(o)) for k, o in script.seen if k.startswith("School")] == [
        ("School of Wizardry", ["Tortuga", "Evans City Cemetery", "Rhodes Plaza Mall"]),
        ("School of Wizardry: on top", ["Tortuga", "Rhodes Plaza Mall"])]


def test_great_library_cemetery_and_rhodes_plaza():
    g = scenario(players=2, bases=["The Great Library", "Evans City Cemetery", "Rhodes Plaza Mall"],
                 base_deck=["Tortuga", "Tortuga", "Tortuga"])
    for _ in range(3):
        put(g, 0, "King Rex", 0)
    put(g, 1, "Walker", 0)
    deck(g, 0, "Invader"), deck(g, 1, "Walker")
    g.score_base(g.slots[0])
    assert _names(g.players[0].hand) == ["Invader"] and _names(g.players[1].hand) == ["Walker"]
    hand(g, 0, "Beam Up")
    deck(g, 0, *["Scout"] * 6)
    for _ in range(3):
        put(g, 0, "King Rex", 1)
    g.score_base(g.slots[1])  # the winner discards its hand and draws five
    assert _names(g.players[0].hand) == ["Scout"] * 5 and {"Invader", "Beam Up"} <= set(_names(g.players[0].discard))
    for _ in range(4):
        put(g, 1, "King Rex", 2)
    put(g, 0, "Walker", 2), put(g, 0, "Walker", 2)
    before = _vp(g)
    g.score_base(g.slots[2])  # 0/0/0 places; one VP per minion
    assert [v - b for v, b in zip(_vp(g), before)] == [2, 4]


def test_a_cancelled_base_has_no_ability_but_still_pays_its_vp():
    g = scenario(players=2, bases=["Rhodes Plaza Mall", "Jungle Oasis", "Tar Pits"])
    for _ in range(4):
        put(g, 1, "King Rex", 0)
    attach(g, 0, "Jammed Signal", 0)
    g.score_base(g.slots[0])
    assert _vp(g) == [0, 0]


def test_the_readmes_count_of_cards_whose_effects_are_data():
    """README: 85 of the 94 cards have an entry in the faction files; King Rex has no ability and
    eight cards' whole effects are code. A card moved into data (or back) must update it."""
    from balance.games.smash_up.effects import faction_data

    names = {c.name for f in FACTIONS for c in load_catalogue().factions[f]}
    in_data = {name for f in FACTIONS for name in faction_data(f)}
    assert (len(names), len(in_data & names)) == (94, 85)
    assert names - in_data == {"King Rex", "Disguise", "Nukebot", "Terraforming", "Buccaneer",
                               "Mass Enchantment", "Broadside", "Sea Dogs", "Tenacious Z"}


def test_the_swap_example_plays_as_the_run_played_and_asks_the_faction_s_rate():
    """The Cards paragraph's swap example had no -s, so it played `random`, not the run's greedy
    field, and its summary named win_share_seat0, which a swap inside a faction barely moves."""
    from balance.games.smash_up.report import _swap_example

    manifest = {"runs": [{"players": 3, "seatings": [{"strategies": [{"label": "greedy"}] * 3}]}]}
    assert _swap_example(manifest) == ("balance compare smash-up --players 3 -s greedy --variant default --variant "
                                       """'x:swap=["Ninjas: Ninja Acolyte -> Shinobi"]' --primary win_share_Ninjas""")
    mixed = {"runs": [{"players": 2, "seatings": [{"strategies": [{"label": "greedy"}, {"label": "random"}]}]}]}
    assert " -s " not in _swap_example(mixed)
