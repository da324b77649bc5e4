"""Defenders of the Realm's board, generals, heroes and decks, read into the arrays both engines use.

The data are vendored (``data/data.json``, ``data/SOURCES.md``); ``rules/defenders-of-the-realm.md``
says how they map onto the rules ("How the data maps onto the rules"). Everything here is a
fact of the components; what a designer may vary is in ``rules.py``.

Colours are indexed so that general g has colour g: red (demons, Balazarg), green (orcs,
Gorgutt), black (undead, Varkolak), blue (dragonkin, Sapphire). A hero card's colour may also
be ``ANY`` (4); Monarch City and the inns have no colour (``NO_COLOUR``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

import numpy as np

COLOURS = ("red", "green", "black", "blue")
RACES = ("demons", "orcs", "undead", "dragonkin")
RED, GREEN, BLACK, BLUE = range(4)
ANY = 4  # a hero card that matches every general (and no location colour)
NO_COLOUR = -1  # Monarch City and the inns
MINION_TO_HIT = (4, 3, 4, 5)  # per colour: demons 4+, orcs 3+, undead 4+, dragonkin 5+

N_LOCATIONS = 45
MAX_DEGREE = 6
CITY, INN, GENERAL_START, NORMAL = range(4)  # location kinds
_KINDS = {"city": CITY, "inn": INN, "general": GENERAL_START, "normal": NORMAL}

# Hero-card travel icons; a special card has none.
GATE_ICON, HORSE_ICON, EAGLE_ICON, NO_ICON = range(4)
_ICONS = {"Magic Gate": GATE_ICON, "Horse": HORSE_ICON, "Eagle": EAGLE_ICON, "Special": NO_ICON}

# The 15 special actions of the 16 special cards (Battle Luck has two copies), in the spec's order.
SPECIALS = ("place_magic_gate", "move_hero", "purify_location", "elven_archers", "battle_strategy",
            "skip_darkness", "battle_luck", "battle_fury", "local_information", "kings_guard",
            "cavalry_sweep", "dark_visions", "militia_secures", "strong_defenses", "spy_in_camp")
(SP_MAGIC_GATE, SP_HAMMER, SP_PURITY, SP_ELVEN_ARCHERS, SP_BATTLE_STRATEGY, SP_ALL_QUIET, SP_BATTLE_LUCK,
 SP_BATTLE_FURY, SP_LOCAL_INFORMATION, SP_KINGS_GUARD, SP_CAVALRY_SWEEP, SP_DARK_VISIONS, SP_MILITIA,
 SP_STRONG_DEFENSES, SP_SPY) = range(len(SPECIALS))

# Darkness Spreads card kinds.
DK_REGULAR, DK_ALL_QUIET, DK_PATROL, DK_WAR_PARTY, DK_MONARCH = range(5)
NEXT_LOCATION = -2  # a general line's target "Next Location"

GENERALS = ("Balazarg", "Gorgutt", "Varkolak", "Sapphire")  # index = colour
GENERAL_SKILLS = ("curse", "parry", "no_rerolls", "regeneration")
# Each general's path, start first, Monarch City last (the spec's table; tests check that it is
# made of map edges and agrees with the Darkness cards' general lines).
PATHS = (
    ("Scorpion Canyon", "Raven Forest", "Angel Tear Falls", "Bounty Bay", "Monarch City"),
    ("Thorny Woods", "Amarak Peak", "Eagle Peak Pass", "Orc Valley", "Monarch City"),
    ("Dark Woods", "Windy Pass", "Sea Bird Port", "Father Oak Forest", "Monarch City"),
    ("Blizzard Mountains", "Heaven's Glade", "Ancient Ruins", "Greenleaf Village", "Monarch City"),
)
PATH_STEPS = 4  # steps from a general's start to Monarch City
# Hero-defeated penalty: wounds as (fixed, die) where die 3 means 1d3, 6 means 1d6, 0 none;
# cards lost as (fixed, die) with fixed -1 meaning every card.
PENALTY_WOUNDS = ((0, 3), (2, 0), (0, 6), (3, 0))
PENALTY_CARDS = ((-1, 0), (2, 0), (0, 6), (0, 6))

HEROES = ("Paladin", "Cleric", "Wizard", "Sorceress", "Eagle Rider", "Dwarf", "Ranger", "Rogue", "Druid")
PALADIN, CLERIC, WIZARD, SORCERESS, EAGLE_RIDER, DWARF, RANGER, ROGUE, DRUID = range(len(HEROES))
RULES_HEROES = HEROES[:8]  # the rules' 8 heroes; the data's Druid is optional (rules.hero_pool)


@dataclass(frozen=True)
class Catalogue:
    """The components as arrays (location index = data id - 1).

    Locations: names (45,), colour int64[45] (NO_COLOUR for the city and inns), kind int64[45],
    chest bool[45], start_gate bool[45], adjacency int64[45, 6] padded with -1, degree int64[45],
    distance int64[45, 45] (edges on the shortest path). Generals: path int64[4, 5] (start ..
    Monarch City), general_life int64[4]. Heroes: life int64[9]. Hero deck (97 cards): card_location int64 (-1 for a
    special), card_colour (0..3 or ANY), card_icon, card_dice, card_special (-1 or SPECIALS
    index). Darkness deck (56 cards): int64[56, 10] rows (kind, colour1, n1, loc1, colour2, n2,
    loc2, general, target, k), -1 where a field does not apply; target may be NEXT_LOCATION.
    """

    names: tuple[str, ...]
    colour: np.ndarray
    kind: np.ndarray
    chest: np.ndarray
    start_gate: np.ndarray
    adjacency: np.ndarray
    degree: np.ndarray
    distance: np.ndarray
    path: np.ndarray
    general_life: np.ndarray
    hero_life: np.ndarray
    card_location: np.ndarray
    card_colour: np.ndarray
    card_icon: np.ndarray
    card_dice: np.ndarray
    card_special: np.ndarray
    darkness: np.ndarray

    @property
    def monarch(self) -> int:
        return int(np.flatnonzero(self.kind == CITY)[0])

    @property
    def inns(self) -> np.ndarray:
        return np.flatnonzero(self.kind == INN)

    def index(self, name: str) -> int:
        """The location index of ``name`` (KeyError for an unknown name)."""
        return self.names.index(name)


def raw() -> dict:
    """The vendored data file as read."""
    return json.loads(files(__package__).joinpath("data", "data.json").read_text(encoding="utf-8"))


def _distances(adjacency: np.ndarray) -> np.ndarray:
    """All-pairs edge counts by breadth-first search from every location: int64[45, 45]."""
    n = len(adjacency)
    dist = np.full((n, n), -1, np.int64)
    for s in range(n):
        dist[s, s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in adjacency[u]:
                    if v >= 0 and dist[s, v] < 0:
                        dist[s, v] = dist[s, u] + 1
                        nxt.append(v)
            frontier = nxt
    return dist


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The components, read once."""
    d = raw()
    by_id = sorted(d["locations"].items(), key=lambda kv: kv[1]["id"])
    names = tuple(name for name, _ in by_id)
    assert [loc["id"] for _, loc in by_id] == list(range(1, N_LOCATIONS + 1))
    idx = {name: i for i, name in enumerate(names)}
    colour = np.array([COLOURS.index(loc["faction"]) if loc["faction"] in COLOURS else NO_COLOUR
                       for _, loc in by_id], np.int64)
    kind = np.array([_KINDS[loc["type"]] for _, loc in by_id], np.int64)
    chest = np.array([loc["chest"] for _, loc in by_id], bool)
    start_gate = np.array([loc["magicGate"] for _, loc in by_id], bool)
    adjacency = np.full((N_LOCATIONS, MAX_DEGREE), -1, np.int64)
    degree = np.zeros(N_LOCATIONS, np.int64)
    for name in names:
        i = idx[name]
        # neighbours in location-index order, so every enumeration over them is canonical
        for j, v in enumerate(sorted(idx[other] for other in d["connections"][name])):
            adjacency[i, j] = v
        degree[i] = len(d["connections"][name])
    path = np.array([[idx[step] for step in p] for p in PATHS], np.int64)
    health = {g["name"]: g["health"] for g in d["generals"]}
    general_life = np.array([health[g] for g in GENERALS], np.int64)
    life = {h["name"]: h["health"] for h in d["heroes"]}
    hero_life = np.array([life[h] for h in HEROES], np.int64)

    deck = d["hero_deck"]
    card_location = np.array([-1 if c.get("special") else idx[c["name"]] for c in deck], np.int64)
    card_colour = np.array([ANY if c["color"] == "any" else COLOURS.index(c["color"]) for c in deck], np.int64)
    card_icon = np.array([_ICONS[c["type"]] for c in deck], np.int64)
    card_dice = np.array([c["dice"] for c in deck], np.int64)
    card_special = np.array([SPECIALS.index(c["specialAction"]) if c.get("special") else -1 for c in deck],
                            np.int64)
    darkness = np.array([_darkness_row(c, idx) for c in d["darkness_deck"]], np.int64)
    return Catalogue(names, colour, kind, chest, start_gate, adjacency, degree, _distances(adjacency), path,
                     general_life, hero_life, card_location, card_colour, card_icon, card_dice,
                     card_special, darkness)


def _darkness_row(card: dict, idx: dict) -> list[int]:
    """One Darkness card as (kind, colour1, n1, loc1, colour2, n2, loc2, general, target, k)."""
    kinds = {None: DK_REGULAR, "all_quiet": DK_ALL_QUIET, "monarch_city_special": DK_MONARCH}
    if card.get("type") == "patrol":
        kind = DK_WAR_PARTY if card.get("patrolType") == "orc_war_party" else DK_PATROL
    else:
        kind = kinds[card.get("type")]
    row = [kind] + [-1] * 9
    if kind == DK_REGULAR:
        row[1:7] = [COLOURS.index(card["faction1"]), card["minions1"], idx[card["location1"]],
                    COLOURS.index(card["faction2"]), card["minions2"], idx[card["location2"]]]
    if "general" in card:
        target = card["location3"]
        row[7:10] = [COLOURS.index(card["general"]), NEXT_LOCATION if target == "Next Location" else idx[target],
                     card["minions3"]]
    return row
