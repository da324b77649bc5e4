"""A ZENONZARD seat's side: its deck and its Force pair (what ``--side`` takes).

Syntax: ``deck=DECK,forces=A+B``, either part alone, a bare Force pair ``A+B``, or ``drawn``
(both parts drawn: fixes another seat's side alone). DECK is a generated deck (``mono:red``,
``duo:red+blue``, ``reference:red``, optionally on another curve of ``decks.CURVES``:
``mono:red/low``) or a deck list file
(``decks.read_list``; its path may not hold a comma, which separates the parts); A and B are
two different Forces (any case, either order). A part not given is drawn per game
(``Rules.decks``, ``deck_pool``; the Force pair uniformly of 45).

The counters' side is the Force pair (``side_names``: the 45 pairs): the deck is counted in
the game's ``decks`` table. So ``--side`` names an open set (any file) and the game checks it
(``parse_side``), while the win rates by side stay 45 rows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from balance.core.errors import BalanceError, one_of

from .catalogue import COLOURED, forces

FORCES = tuple(f.name for f in forces())  # catalogue order: the kernel's Force codes
PAIRS = tuple(combinations(range(len(FORCES)), 2))  # the 45 sides, catalogue order
DRAWN = "drawn"
GENERATED = re.compile(r"(?:(mono|reference):(\w+)|duo:(\w+)\+(\w+))(?:/(\w+))?")


def pair_name(i: int) -> str:
    a, b = PAIRS[i]
    return f"{FORCES[a]}+{FORCES[b]}"


def side_names(rules) -> list[str]:
    """The counters' sides: the 45 Force pairs, in side-index order."""
    return [pair_name(i) for i in range(len(PAIRS))]


@dataclass(frozen=True)
class Side:
    """A parsed side: ``deck`` a generated deck's spec or a file's absolute path (None: drawn),
    ``pair`` an index into PAIRS (None: drawn)."""

    deck: str | None
    pair: int | None

    @property
    def text(self) -> str:
        if self.deck is None and self.pair is None:
            return DRAWN
        parts = ([f"deck={self.deck}"] if self.deck else []) + (
            [f"forces={pair_name(self.pair)}"] if self.pair is not None else [])
        return ",".join(parts)

    @property
    def generated(self) -> tuple[str, tuple[str, ...], str] | None:
        """(kind, colours, curve) of a generated deck, None for a file (or no deck)."""
        m = GENERATED.fullmatch(self.deck or "")
        if m is None:
            return None
        curve = m.group(5) or "standard"
        return (m.group(1), (m.group(2),), curve) if m.group(1) else ("duo", (m.group(3), m.group(4)), curve)


def _pair(text: str) -> int:
    names = {f.lower(): i for i, f in enumerate(FORCES)}
    given = [p.strip() for p in text.split("+")]
    parts = [p.lower() for p in given]
    for p, shown in zip(parts, given):
        if p not in names:
            raise one_of("Force", shown, FORCES)  # as the user wrote it
    if len(parts) != 2 or parts[0] == parts[1]:
        raise BalanceError(f"forces={text!r}: give two different Forces joined by '+', e.g. Minotaur+Phoenix")
    return PAIRS.index(tuple(sorted(names[p] for p in parts)))


def _deck(text: str) -> str:
    m = GENERATED.fullmatch(text.strip().lower())
    if m is not None:
        from .decks import CURVES

        colours = [c for c in m.groups()[1:4] if c]
        if m.group(5) is not None and m.group(5) not in CURVES:
            raise one_of("deck curve", m.group(5), CURVES)
        for c in colours:
            if c not in COLOURED:
                raise one_of("deck colour", c, COLOURED)
        if len(set(colours)) != len(colours):
            raise BalanceError(f"deck={text!r}: a duo deck needs two different colours")
        return m.group(0).removesuffix("/standard")
    path = Path(text).expanduser()
    if path.is_dir():
        raise BalanceError(f"deck={text!r} is a directory; give a deck list file in it, or a generated deck "
                           "(mono:COLOUR, duo:COLOUR+COLOUR, reference:COLOUR)")
    if not path.is_file():
        raise BalanceError(f"deck={text!r} is neither a generated deck (mono:COLOUR, duo:COLOUR+COLOUR, "
                           f"reference:COLOUR, each optionally /low or /high; colours {', '.join(COLOURED)}) "
                           "nor a deck list file that exists")
    return str(path.resolve())


def read_side(text: str) -> Side:
    """A side's text (as given or canonical) as a Side; BalanceError naming what is wrong."""
    deck = pair = None
    if text.strip().lower() == DRAWN:
        return Side(None, None)
    for item in filter(None, (t.strip() for t in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep and item.lower() == DRAWN:
            raise BalanceError(f"side {text!r}: {DRAWN} is a whole side (deck and Forces both drawn); give it "
                               "alone, or leave out the part to draw (deck=DECK alone draws the Forces)")
        if not sep:  # a bare Force pair
            key, value = "forces", item
        key = key.strip().lower()
        if key == "deck" and deck is None:
            deck = _deck(value.strip())
        elif key == "forces" and pair is None:
            pair = _pair(value)
        elif key in ("deck", "forces"):
            raise BalanceError(f"side {text!r} gives {key} twice")
        else:
            raise one_of("side part", key, ["deck", "forces"])
    if deck is None and pair is None:
        raise BalanceError(f"side {text!r} is empty; give deck=DECK, forces=A+B, both, or {DRAWN}")
    return Side(deck, pair)


def parse_side(rules, text: str) -> str:
    """``text`` checked (a deck list is read and checked against the deck rules) and written
    canonically: ``deck=...,forces=A+B``."""
    side = read_side(text)
    if side.deck is not None and side.generated is None:
        from .decks import read_list

        read_list(side.deck, rules)
    return side.text
