"""The Smash Up core set as data: every faction's cards and every base, read and checked.

Issue 11 groundwork: the engine, strategies and declaration (``GAME``) are not written yet, so
the package is not registered and no command offers ``smash-up``. What is here is the data
layer the engine will read: ``load_catalogue`` turns the vendored ``data/core_set.json`` (the
AEG rulebook wiki's current wording, see ``data/SOURCES.md``) into frozen records and checks
them against the sanity table of ``rules/smash-up-cards.md`` §13 (tests/test_smash_up.py).

Card kinds: ``minion``, ``action``, or ``dual`` (Pixie: played as a minion of printed power 2
or as an action, its text says which part applies). Printed power is the number on the card
(War Raptor 2); out of play a card has only its printed power.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from balance.core.errors import BalanceError, one_of

DATA = Path(__file__).parent / "data" / "core_set.json"
FACTIONS = ("Aliens", "Dinosaurs", "Ninjas", "Pirates", "Robots", "Tricksters", "Wizards", "Zombies")
TRICKSTER_LISTS = ("current", "2012")
COPIES_PER_FACTION = 20
BASES = 16
PLACES = 3  # a base pays VP to its first, second and third place
_POWER_PREFIX = re.compile(r"^Power (\d+|X) - ")
# The two revised Tricksters bases as printed in 2012 (rules/smash-up-cards.md §11.11-11.12,
# [D5]); the data file holds the revised ones: name -> (breakpoint, VP, text).
BASES_2012 = {
    "Cave of Shinies": (23, (4, 2, 1), "After each minion here is destroyed, its owner gains 1 VP."),
    "Mushroom Kingdom": (20, (5, 3, 2), "At the start of each player's turn, that player may move "
                         "one minion of another player from any base to here."),
}


@dataclass(frozen=True)
class Card:
    """One distinct card of a faction: ``copies`` of it are in the faction's 20."""

    name: str
    faction: str
    kind: str  # minion | action | dual
    copies: int
    power: int | None  # printed power (minions and duals), None for actions
    text: str  # the ability, without the "Power N -" prefix


@dataclass(frozen=True)
class Base:
    name: str
    faction: str  # the faction whose box it came in
    breakpoint: int
    vp: tuple[int, int, int]  # first, second, third place
    text: str


@dataclass(frozen=True)
class Catalogue:
    """The factions (name -> its distinct cards) and the bases of one card list."""

    factions: dict
    bases: tuple[Base, ...]
    tricksters: str
    trickster_bases: str = "current"  # Cave of Shinies and Mushroom Kingdom: "current" or "2012"

    def deck(self, faction: str) -> list[Card]:
        """The faction's 20 cards, one entry per copy, in catalogue order."""
        if faction not in self.factions:
            raise one_of("faction", faction, list(self.factions))
        return [card for card in self.factions[faction] for _ in range(card.copies)]


def _card(faction: str, raw: dict) -> Card:
    kind = {"minion": "minion", "action": "action", "other": "dual"}.get(raw["type"])
    if kind is None:
        raise BalanceError(f"{faction} card {raw['name']!r} has type {raw['type']!r}; "
                           "allowed: minion, action, other (a minion-or-action card)")
    text = raw["text"]
    prefix = _POWER_PREFIX.match(text)
    power = raw["power"]
    if kind == "dual" and power is None and prefix and prefix.group(1).isdigit():
        power = int(prefix.group(1))  # Pixie: "Power 2 - Minion: ... Action: ..."
    if kind != "action" and not isinstance(power, int):
        raise BalanceError(f"{faction} minion {raw['name']!r} has no printed power")
    return Card(raw["name"], faction, kind, int(raw["quantity"]), power if kind != "action" else None,
                _POWER_PREFIX.sub("", text))


def _tricksters_2012(raw: dict) -> tuple[Card, ...]:
    """The 2012 list: (name, printed power, copies) minions and (name, copies) actions; its
    texts are operational in rules/smash-up-cards.md §8 (the file keeps names and counts)."""
    minions = [Card(name, "Tricksters", "minion", copies, power, "")
               for name, power, copies in raw["minions"]]
    actions = [Card(name, "Tricksters", "action", copies, None, "") for name, copies in raw["actions"]]
    return tuple(minions + actions)


@lru_cache(maxsize=None)
def load_catalogue(tricksters: str = "current", path: str | None = None,
                   trickster_bases: str = "current") -> Catalogue:
    """The checked core set; ``tricksters``: the current list (default) or the 2012 one;
    ``trickster_bases``: Cave of Shinies and Mushroom Kingdom as revised or as printed in 2012."""
    if tricksters not in TRICKSTER_LISTS:
        raise one_of("tricksters list", tricksters, list(TRICKSTER_LISTS))
    if trickster_bases not in TRICKSTER_LISTS:
        raise one_of("trickster_bases edition", trickster_bases, list(TRICKSTER_LISTS))
    source = Path(path) if path is not None else DATA
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BalanceError(f"cannot read the Smash Up card list {str(source)!r}: {e}") from None
    factions = {f["name"]: tuple(_card(f["name"], c) for c in f["cards"]) for f in raw["factions"]}
    if tricksters == "2012":
        factions["Tricksters"] = _tricksters_2012(raw["original_tricksters_2012"])
    if tuple(factions) != FACTIONS:
        raise BalanceError(f"the card list has factions {list(factions)}; expected {list(FACTIONS)}")
    for name, cards in factions.items():
        copies = sum(c.copies for c in cards)
        if copies != COPIES_PER_FACTION:
            raise BalanceError(f"{name} has {copies} cards; a faction has {COPIES_PER_FACTION}")
    bases = tuple(Base(b["name"], b["sourceFaction"], int(b["breakpoint"]),
                       tuple(int(v) for v in b["vp"]), b["text"]) for b in raw["bases"])
    if trickster_bases == "2012":
        bases = tuple(Base(b.name, b.faction, *BASES_2012[b.name]) if b.name in BASES_2012 else b
                      for b in bases)
    if len(bases) != BASES or any(len(b.vp) != PLACES for b in bases):
        raise BalanceError(f"the card list has {len(bases)} bases (each with {PLACES} VP values "
                           f"expected); the core set has {BASES}")
    return Catalogue(factions, bases, tricksters, trickster_bases)


@lru_cache(maxsize=None)
def catalogue_for(tricksters: str = "current", trickster_bases: str = "current",
                  swaps: tuple[str, ...] = ()) -> Catalogue:
    """The card list a rules object plays (``Rules.catalogue``): the edition, then the swaps."""
    cat = load_catalogue(tricksters, trickster_bases=trickster_bases)
    return swapped(cat, swaps) if swaps else cat


def swapped(cat: Catalogue, swaps: tuple[str, ...]) -> Catalogue:
    """``cat`` with per-faction card substitutions, each ``"Faction: Old -> New"``: one copy of
    Old becomes one more copy of New, a card of the same faction (a faction stays 20 cards of
    its own: the engines read a seat's factions from its deck). Applied in order; a card may
    drop to 0 copies. One-line BalanceError naming the bad swap and what is allowed."""
    factions = {f: list(cards) for f, cards in cat.factions.items()}
    for swap in swaps:
        faction, old, new = parse_swap(swap)
        names = [c.name for c in factions[faction]]
        index = {name.lower(): i for i, name in enumerate(names)}
        for name in (old, new):
            if name.lower() not in index:
                raise BalanceError(f"swap {swap!r}: {name!r} is not among the {faction} cards of the "
                                   f"{cat.tricksters} list; allowed: {', '.join(names)}")
        i, j = index[old.lower()], index[new.lower()]
        if factions[faction][i].copies == 0:
            raise BalanceError(f"swap {swap!r}: no copy of {names[i]} is left to swap out")
        factions[faction][i] = replace(factions[faction][i], copies=factions[faction][i].copies - 1)
        factions[faction][j] = replace(factions[faction][j], copies=factions[faction][j].copies + 1)
    return Catalogue({f: tuple(cards) for f, cards in factions.items()}, cat.bases, cat.tricksters,
                     cat.trickster_bases)


def parse_swap(swap: str) -> tuple[str, str, str]:
    """``"Aliens: Invader -> Collector"`` (any case) as (faction, old card, new card); the
    card names are checked against a card list by ``swapped``."""
    form = "write it as 'Faction: Card -> Card', e.g. 'Aliens: Invader -> Collector'"
    if not isinstance(swap, str) or ":" not in swap or "->" not in swap:
        raise BalanceError(f"swap {swap!r}: {form}")
    faction, cards = (x.strip() for x in swap.split(":", 1))
    old, new = (x.strip() for x in cards.split("->", 1))
    known = {f.lower(): f for f in FACTIONS}
    if faction.lower() not in known:
        raise one_of(f"faction of swap {swap!r}", faction, list(FACTIONS))
    faction = known[faction.lower()]
    if not old or not new or old.lower() == new.lower():
        raise BalanceError(f"swap {swap!r}: give two different cards; {form}")
    return faction, old, new
