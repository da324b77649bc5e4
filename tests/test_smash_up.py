"""Smash Up (issue 11, in progress): the vendored card list read and checked against the
sanity table of rules/smash-up-cards.md §13, and the bases against the cross-check of six
public implementations (data/bases_crosscheck.csv)."""
import csv

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
    ("draw", 2.5, "draw=2.5 is out of range"),
    ("vp", 12, "unknown rules key 'vp'; allowed: players, vp_to_win"),
])
def test_bad_rules_are_one_line_errors(key, value, words):
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides({key: value})
    assert words in str(e.value) and "\n" not in str(e.value)
