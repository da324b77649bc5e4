"""ZENONZARD decks: the generated v1 decks, users' deck lists, and the deck rules' check.

Generated decks (``rules/zenonzard.md``, "Generated decks"): ``deck_size - 30`` Basic base
minions of the deck's colours (the mana) and 30 field minions on the fixed ``CURVE``, drawn
from ``pool(rules)`` — the field minions the rules can play (known BP/DP under
``missing_stats = "exclude"``), of one colour each.

- ``mono(X)``: all mana is X's Basic base minion; field minions from X and colorless.
- ``duo(X, Y)``: the mana split as evenly as possible (X gets the odd one); field minions from
  X, Y and colorless.
- ``reference(X)``: a deterministic mono deck (the strongest cards by BP, then DP), for tests
  and as a fixed opponent.

Randomness: deck ``k`` of a run with seed ``seed`` draws from ``PyStream(seed, k, DECK_STREAM)``
(``DECK_STREAM = 100``, apart from the games' chance stream 0 and seat streams ``1 + seat``),
exactly one ``below(total weight)`` per field slot in curve order. So a deck is a pure function
of ``(kind, colours, rules, seed, k)``: deck ``k`` comes out the same whether or not decks
``0 .. k-1`` were generated first, and any deck can be rebuilt alone.

Deck list files (``read_list``): UTF-8 text (a byte-order mark is accepted), one entry a line;
``#`` starts a comment (to the end of the line); blank lines are ignored. An entry is
``[N ]CARD`` or ``[Nx ]CARD``: ``N`` a copy count (a whole number >= 1, default 1), ``CARD`` an
``image_id``, an English name (``name_en``) or a Japanese name (``name_jp``); names and ids
match case-insensitively, after Unicode NFKC normalisation and with runs of spaces read as one.
A line that is a card's whole name is that card even if it starts with a number. Where a name
or id matches several cards (reprints that share a name), the first card in file order
(``data/cards.tsv``) that the rules can play is taken: the copy limit counts names, so only
its stats matter. Example (the first lines of a list)::

    # red, Emerald Dragon splash
    10 Miner of Aguma
    3x Fire Beetle
    red_07_02_00_00        # an image_id: Exptera
    2 エメラルド・ドラゴン

Every error is a one-line ``BalanceError`` naming the file, the line and the card.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Callable, Iterable, Sequence

from balance.core.errors import BalanceError, one_of
from balance.core.rng import PyStream

from .catalogue import COLOURED, FIELD, TOKEN, Card, basic_mana, cards, resolved
from .sides import Side

# cost -> field slots of that cost (30 in all); the last slot's cost takes every card costing
# at least that much (9 and the one printed 10; "9+" read as ``cost_9plus``).
CURVE = ((1, 2), (2, 4), (3, 6), (4, 5), (5, 4), (6, 4), (7, 2), (8, 2), (9, 1))
# Curves for curve studies (Rules.curves = "varied"): the same 30 slots shifted a cost lower or
# higher on average (mean field cost 3.37, 4.37 for the spec's CURVE, 5.17).
CURVES = {
    "low": ((1, 4), (2, 7), (3, 7), (4, 5), (5, 3), (6, 2), (7, 1), (8, 1), (9, 0)),
    "standard": CURVE,
    "high": ((1, 1), (2, 2), (3, 4), (4, 5), (5, 5), (6, 5), (7, 3), (8, 3), (9, 2)),
}
FIELD_SLOTS = sum(n for _, n in CURVE)
TOP_COST = CURVE[-1][0]

DECK_STREAM = 100  # stream id of deck generation: PyStream(seed, k, DECK_STREAM) for deck k
KINDS = ("mono", "duo", "reference")
_N_COLOURS = {"mono": 1, "duo": 2, "reference": 1}
# a slot draws a card of the deck's colour twice as often as a colorless one
COLOURED_WEIGHT, COLOURLESS_WEIGHT = 2, 1


def _resolve(card: Card, rules) -> Card | None:
    return resolved(card, rules.cost_9plus, rules.colour_part, rules.missing_stats)


@lru_cache(maxsize=None)
def _pool(cost_9plus: int, part_rule: str, missing: str) -> tuple[Card, ...]:
    out = []
    for c in cards():
        if c.kind != FIELD or len(c.colours) != 1:
            continue  # dual-colour minions stay out (none of them has printed stats anyway)
        r = resolved(c, cost_9plus, part_rule, missing)
        if r is not None:
            out.append(r)
    return tuple(out)


def pool(rules) -> list[Card]:
    """The field minions a generated deck may use, resolved by the rules, in catalogue order:
    single-colour field minions the rules can play (287 with the default rules)."""
    return list(_pool(rules.cost_9plus, rules.colour_part, rules.missing_stats))


def _slot_cost(card: Card) -> int:
    """The curve cost whose slots ``card`` fills (cards above the top cost fill the top slot)."""
    return min(card.cost, TOP_COST)


def _check_colours(kind: str, colours) -> tuple[str, ...]:
    if kind not in KINDS:
        raise one_of("deck kind", kind, KINDS)
    colours = (colours,) if isinstance(colours, str) else tuple(colours)
    for c in colours:
        if c not in COLOURED:
            raise one_of("deck colour", c, COLOURED)
    n = _N_COLOURS[kind]
    if len(colours) != n:
        raise BalanceError(f"a {kind} deck takes {n} colour{'s' if n > 1 else ''}, not {len(colours)} "
                           f"({', '.join(colours) or 'none'}); allowed: {', '.join(COLOURED)}")
    if len(set(colours)) != len(colours):
        raise BalanceError(f"a {kind} deck needs {n} different colours, not {', '.join(colours)}")
    return colours


def _mana(colours: tuple[str, ...], rules) -> list[Card]:
    """The deck's Basic base minions: ``deck_size - 30``, split as evenly as possible over the
    colours, the first colours taking the odd ones."""
    n = rules.deck_size - FIELD_SLOTS
    if n < 1:
        raise BalanceError(f"deck_size={rules.deck_size} leaves no room for mana beside the {FIELD_SLOTS} "
                           f"field slots of a generated deck; allowed: deck_size >= {FIELD_SLOTS + 1}")
    out = []
    for i, colour in enumerate(colours):
        share = n // len(colours) + (1 if i < n % len(colours) else 0)
        out += [_resolve(basic_mana(colour), rules)] * share
    return out


def _fill(cands: list[Card], rules, choose: Callable[[list[Card]], Card], curve=CURVE) -> list[Card]:
    """The 30 field slots of ``curve`` (CURVES' values) in curve order; ``choose`` picks one
    card of a slot's eligible list
    (catalogue order). A card is eligible while the deck holds fewer than ``max_copies`` of its
    name; a cost with none eligible falls back to the nearest lower cost that has one, then the
    nearest higher."""
    by_cost: dict[int, list[Card]] = {}
    for c in cands:
        by_cost.setdefault(_slot_cost(c), []).append(c)
    costs = sorted(by_cost)
    copies: Counter = Counter()
    out = []
    for cost, n in curve:
        order = [c for c in reversed(costs) if c <= cost] + [c for c in costs if c > cost]
        for _ in range(n):
            for at in order:
                eligible = [c for c in by_cost[at] if copies[c.name] < rules.max_copies]
                if eligible:
                    break
            else:
                raise BalanceError(f"the pool holds too few cards for {FIELD_SLOTS} field slots at "
                                   f"max_copies={rules.max_copies}")
            card = choose(eligible)
            copies[card.name] += 1
            out.append(card)
    return out


def generate(kind: str, colours, rules, seed: int, k: int, curve: str = "standard") -> list[Card]:
    """Deck ``k`` of a run with ``seed``: a list of ``rules.deck_size`` resolved cards, the mana
    (Basic base minions, colour by colour) first, then the 30 field minions in the order of
    ``curve`` (a name of CURVES; "standard" is the spec's).

    ``kind`` is ``mono`` (one colour), ``duo`` (two different colours) or ``reference`` (one
    colour; no randomness, ``seed`` and ``k`` unused); ``colours`` a sequence of colour names
    (a single name is read as a one-colour sequence). Raises BalanceError on a bad kind, colour,
    or a deck_size below 31."""
    colours = _check_colours(kind, colours)
    if curve not in CURVES:
        raise one_of("curve", curve, CURVES)
    slots = CURVES[curve]
    mana = _mana(colours, rules)
    cands = [c for c in pool(rules) if c.colours[0] in colours or not c.coloured]
    if kind == "reference":
        return mana + _fill(cands, rules, lambda eligible: min(eligible, key=lambda c: (-c.bp, -c.dp, c.id)), slots)
    stream = PyStream(seed, k, DECK_STREAM)

    def draw(eligible: list[Card]) -> Card:
        # one draw per slot, even when one card is eligible, so the stream's use is fixed
        weights = [COLOURED_WEIGHT if c.coloured else COLOURLESS_WEIGHT for c in eligible]
        i = stream.below(sum(weights))
        for card, w in zip(eligible, weights):
            if i < w:
                return card
            i -= w
        raise AssertionError("below() returned a value out of range")

    return mana + _fill(cands, rules, draw, slots)


def _label(card: Card) -> str:
    return f"{card.name_en or card.name} ({card.id})"


def _check(deck: Sequence[Card], rules, where: Callable[[Card | None], str]) -> None:
    """Raise the first deck-rule violation of ``deck``; ``where(card)`` prefixes the message
    (the file and line for a deck list, nothing for a generated deck). The rules' deck rules
    are its size and copies: a deck whose mana cannot pay a card's colour part is legal (the
    card waits in hand, or a field minion moved to the base supplies the colour)."""
    if len(deck) != rules.deck_size:
        raise BalanceError(f"{where(None)}{len(deck)} cards; allowed: exactly {rules.deck_size}")
    for c in deck:
        if c.kind == TOKEN:
            raise BalanceError(f"{where(c)}{_label(c)} is a token, not a deck card")
    counts = Counter(c.name for c in deck if not c.unlimited)
    for c in deck:
        if counts.get(c.name, 0) > rules.max_copies:
            raise BalanceError(f"{where(c)}{counts[c.name]} copies of {_label(c)} (name {c.name}); "
                               f"allowed: at most {rules.max_copies} of one name")


def validate(deck: Sequence[Card], rules) -> list[Card]:
    """``deck`` (resolved cards) as a list if it keeps the deck rules, else a one-line
    BalanceError: wrong size, a token, or more than ``max_copies`` copies of one name (Basic
    base minions exempt). Magic cards pass."""
    _check(deck, rules, lambda card: "")
    return list(deck)


def unsupported_in(deck: Iterable[Card]) -> list[Card]:
    """The distinct cards of ``deck`` (by id, in deck order) with abilities beyond the simulated
    keyword set (``not card.exact``): what a report should list as approximated."""
    seen, out = set(), []
    for c in deck:
        if not c.exact and c.id not in seen:
            seen.add(c.id)
            out.append(c)
    return out


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@lru_cache(maxsize=None)
def _index() -> tuple[dict[str, list[int]], dict[str, str]]:
    """(normalised id or name -> indices into ``cards()`` in file order, normalised -> as printed)."""
    index: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for i, c in enumerate(cards()):
        for text in (c.id, c.name, c.name_en):
            if not text:
                continue  # many reprints print no English name
            key = _key(text)
            shown.setdefault(key, text)
            hits = index.setdefault(key, [])
            if not hits or hits[-1] != i:
                hits.append(i)
    return index, shown


_COUNTISH = re.compile(r"[-+]?\d[\d.,]*[xX×]?")  # a first word meant as a count, good or bad
_COUNT = re.compile(r"(\d+)[xX]?")


def _entry(text: str, rules, at: str) -> tuple[int, str]:
    """(count, card text) of one entry; ``at`` is the "file line N: " prefix of errors."""
    index, _ = _index()
    if _key(text) in index:
        return 1, text  # a whole card name wins over reading its first word as a count
    first, _, rest = text.partition(" ")
    rest = rest.strip()
    if not _COUNTISH.fullmatch(first):
        return 1, text
    if not rest:
        raise BalanceError(f"{at}count {first!r} without a card; allowed: [N ]CARD or [Nx ]CARD")
    m = _COUNT.fullmatch(first)
    if m is None or not 1 <= int(m.group(1)) <= rules.deck_size:
        raise BalanceError(f"{at}bad count {first!r} for {rest!r}; allowed: a whole number "
                           f"1..{rules.deck_size}, optionally followed by x (3 or 3x)")
    return int(m.group(1)), rest


def named_card(text: str, rules, at: str) -> Card:
    """The resolved card an entry's card text names (the first playable one in file order)."""
    index, shown = _index()
    hits = index.get(_key(text))
    if not hits:
        close = difflib.get_close_matches(_key(text), list(index), n=3, cutoff=0.6)
        hint = f"; did you mean: {', '.join(shown[k] for k in close)}?" if close else ""
        raise BalanceError(f"{at}unknown card {text!r} (not an image_id, English or Japanese name){hint}")
    found = [cards()[i] for i in hits]
    for c in found:
        if c.kind != TOKEN:
            r = _resolve(c, rules)
            if r is not None:
                return r
    deckable = [c for c in found if c.kind != TOKEN]
    if not deckable:
        raise BalanceError(f"{at}{_label(found[0])} is a token card, not a deck card")
    raise BalanceError(f"{at}{_label(deckable[0])} has no printed BP/DP; allowed with --set missing_stats=impute")


def read_list(path, rules) -> list[Card]:
    """The deck of the deck-list file ``path`` (format: module docstring) as resolved cards in
    file order, checked by ``validate``. Magic cards are returned (v1 never plays them; the
    caller reports them). Raises a one-line BalanceError naming the file, line and card."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BalanceError(f"deck list {str(path)!r} not found") from None
    except UnicodeDecodeError as e:
        raise BalanceError(f"deck list {str(path)!r} is not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise BalanceError(f"cannot read deck list {str(path)!r}: {e.strerror or e}") from None
    deck: list[Card] = []
    lines: dict[str, list[int]] = {}  # card name -> lines that hold it, for the deck-wide errors
    for no, raw in enumerate(text.splitlines(), 1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        at = f"{path} line {no}: "
        count, name = _entry(entry, rules, at)
        card = named_card(name, rules, at)
        deck += [card] * count
        seen = lines.setdefault(card.name, [])
        if no not in seen:
            seen.append(no)

    def where(card: Card | None) -> str:
        if card is None:
            return f"{path}: "
        at = lines[card.name]
        return f"{path} line{'s' if len(at) > 1 else ''} {', '.join(map(str, at))}: "

    _check(deck, rules, where)
    return deck


# ---- the decks a run plays ------------------------------------------------------------------------------
GIVEN_K = 10**6  # a generated deck given with --side is deck GIVEN_K of the deck seed: both seats get the same list
# the keywords a deck's "keywords" feature counts: Swoop .. Infiltrate (not the restrictions)
FEATURE_KEYWORDS = (1 << 6) - 1


@dataclass(frozen=True)
class Deck:
    """A deck a run plays: its name, mana colours and resolved cards (``rules.deck_size``)."""

    name: str
    colours: tuple[str, ...]
    cards: tuple[Card, ...]
    curve: str = "standard"  # the CURVES entry it was generated on ("list" for a deck list file)

    def features(self, rules) -> tuple[float, int, int]:
        """(mean cost of its field minions, field minions of cost 1-2, field minions with a
        simulated keyword): the curve features of the ``decks`` table."""
        field = [c for c in self.cards if c.kind == FIELD]
        kw = rules.keyword_mask & FEATURE_KEYWORDS
        mean = sum(c.cost for c in field) / len(field) if field else 0.0
        return round(mean, 4), sum(c.cost <= 2 for c in field), sum(bool(c.keywords & kw) for c in field)


def _choices(kind: str) -> list[tuple[str, tuple[str, ...]]]:
    """(generator, colours) of the decks ``Rules.decks`` draws from, in the order deck k cycles."""
    mono = [("mono", (c,)) for c in COLOURED]
    duo = [("duo", pair) for pair in combinations(COLOURED, 2)]
    return {"mono": mono, "duo": duo, "mono+duo": mono + duo,
            "reference": [("reference", (c,)) for c in COLOURED]}[kind]


VARIED = ("low", "standard", "high")  # Rules.curves = "varied": the curves deck k cycles through


@lru_cache(maxsize=16)
def drawn_pool(rules) -> tuple[Deck, ...]:
    """The decks a side without a given deck draws from: ``rules.deck_pool`` generated decks
    (deck k: the k-th colour choice in turn, from the stream (deck_seed, k)); the six
    reference decks for ``decks = reference``. With ``curves = varied`` deck k's curve is
    VARIED[(k // colour choices) % 3], so every colour meets every curve equally often."""
    choices = _choices(rules.decks)
    n = len(choices) if rules.decks == "reference" else rules.deck_pool
    if rules.curves == "varied":
        n = max(n, len(choices) * len(VARIED)) if rules.decks == "reference" else n
    out = []
    for k in range(n):
        kind, colours = choices[k % len(choices)]
        curve = VARIED[(k // len(choices)) % len(VARIED)] if rules.curves == "varied" else "standard"
        name = (f"{kind}:{'+'.join(colours)}" + ("" if curve == "standard" else f"/{curve}")
                + ("" if kind == "reference" else f"#{k}"))
        out.append(Deck(name, colours, tuple(generate(kind, colours, rules, rules.deck_seed, k, curve)), curve))
    return tuple(out)


def given_deck(rules, side: Side) -> Deck:
    """The deck a --side names: generated (deck GIVEN_K of the deck seed) or read from its file
    (checked against the deck rules)."""
    generated = side.generated
    if generated is not None:
        kind, colours, curve = generated
        return Deck(side.deck, colours, tuple(generate(kind, colours, rules, rules.deck_seed, GIVEN_K, curve)), curve)
    cards = read_list(side.deck, rules)
    colours = tuple(c for c in COLOURED if any(card.kind == "base" and c in card.colours for card in cards))
    return Deck(Path(side.deck).name, colours or ("colorless",), tuple(cards), "list")


def run_decks(rules, sides: list[Side]) -> tuple[list[Deck], int, list[int]]:
    """The decks a run with these sides plays: (decks, how many of them are the drawn pool
    (first; none when every side gives its deck), each seat's given deck index or -1)."""
    decks = list(drawn_pool(rules)) if any(p.deck is None for p in sides) else []
    n_drawn = len(decks)
    chosen = []
    for p in sides:
        if p.deck is None:
            chosen.append(-1)
            continue
        deck = given_deck(rules, p)
        if deck not in decks:
            decks.append(deck)
        chosen.append(decks.index(deck))
    return decks, n_drawn, chosen
