"""ZENONZARD's real card list and its 10 Forces, read as the simulator's card model (v1).

``rules/zenonzard.md`` ("Card model of the simulator"): every card keeps its id, name (the
copy limit counts Japanese names), type, colours, cost, printed colour part, BP, DP and the v1
keywords printed on it. Which cost a ``9+`` card has, how a colour part is read when it is
not printed, and what a card without BP/DP gets are rules keys (``Rules.cost_9plus``,
``colour_part``, ``missing_stats``): ``resolved`` applies them. Abilities beyond the v1
keyword set are not simulated; ``Card.exact`` says whether a card has none.

The data are vendored (``data/cards.tsv``, ``data/forces.tsv``; ``data/SOURCES.md``).
"""
from __future__ import annotations

import csv
import re
import statistics
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib.resources import files

COLOURS = ("white", "yellow", "red", "blue", "green", "purple", "colorless")
COLOURED = COLOURS[:6]
# the kanji a printed colour part uses: "5(黄2)" is 5 mana, 2 of them yellow
_KANJI = {"白": "white", "黄": "yellow", "赤": "red", "青": "blue", "緑": "green", "紫": "purple"}

FIELD, BASE, MAGIC, TOKEN = "field", "base", "magic", "token"
_KINDS = {"field_minion": FIELD, "base_minion": BASE, "magic": MAGIC, "token_minion": TOKEN}

# The v1 keyword set (bit i of ``Card.keywords``), English and Japanese.
KEYWORDS = ("Swoop", "Charge", "Resurge", "Revenge", "Pierce", "Infiltrate", "cannot block", "cannot move")
K_SWOOP, K_CHARGE, K_RESURGE, K_REVENGE, K_PIERCE, K_INFILTRATE, K_NO_BLOCK, K_NO_MOVE = (1 << i for i in range(8))
ALL_KEYWORDS = (1 << len(KEYWORDS)) - 1
_PRINTED = {"飛来": K_SWOOP, "襲撃": K_CHARGE, "再起": K_RESURGE, "奪命": K_REVENGE, "貫通": K_PIERCE,
            "潜入": K_INFILTRATE}
_EN_PRINTED = {"swoop": K_SWOOP, "charge": K_CHARGE, "resurge": K_RESURGE, "revenge": K_REVENGE,
               "pierce": K_PIERCE, "infiltrate": K_INFILTRATE}
# the card's own restrictions, in the Japanese text (the English is OCR and sometimes garbled)
_NO_BLOCK = re.compile(r"この(?:ミニオン|カード)はブロックできない。?")
_NO_MOVE = re.compile(r"この(?:ミニオン|カード|マナ)は移動できない。?")
_UNLIMITED = "このカードは何枚でもデッキに入れられる。"
# lines that say nothing a simulator needs once the above are read
_PASSIVE = "【常時】"
_EMPTY_LINES = {"", "効果なし", "《デッキ》", _PASSIVE, "《ベース》"}
_EN_EMPTY = {"", "no effect", "no effect.", "---", "———"}

NINE_PLUS = 9  # the rules' default reading of "9+"


@dataclass(frozen=True)
class Card:
    """One card of the list as printed, before the rules' readings (``resolved``).

    cost: the printed total (``None`` for the base minions, which print none; a ``9+`` card
    has 9 and ``nine_plus``); part: the printed colour part (``None`` where not printed);
    bp, dp: ``None`` where unknown; keywords: bits of ``KEYWORDS`` printed on the card;
    exact: its text holds nothing beyond those keywords and the deck rule (simulated exactly).
    """

    id: str
    name: str
    name_en: str
    kind: str
    colours: tuple[str, ...]
    cost: int | None
    nine_plus: bool
    part: int | None
    bp: int | None
    dp: int | None
    keywords: int
    unlimited: bool
    exact: bool
    pack: str

    @property
    def coloured(self) -> bool:
        return self.colours != ("colorless",)

    def has(self, keyword: int) -> bool:
        return bool(self.keywords & keyword)


@dataclass(frozen=True)
class Force:
    """A Force (``forces.tsv``): its English name (the creature), id, life and Japanese text."""

    name: str
    id: str
    life: int
    passive_jp: str


# What the v1 card model leaves of a Force's passive where it leaves less than all (the spec's
# Force table, column "v1"): the kernel acts on the other seven in full (kernel.force_up)
PASSIVE_IN_V1 = {
    "Siren": "in part (its mana for a base minion moved to the field, not for Boost)",
    "Sphinx": "not at all (no minion effect of v1 chooses a target)",
    "Chiron": "not at all (v1 decks hold no magic cards)",
}

# forces.tsv's ids in the spec's order, with the English names the spec's table gives
FORCE_NAMES = {"force_li": "Siren", "force_kai": "Minotaur", "force_so": "Orthrus", "force_sei": "Sphinx",
               "force_e": "Cyclops", "force_kon": "Chimera", "force_chi": "Chiron", "force_sho": "Pegasus",
               "force_so2": "Phoenix", "force_rin": "Ouroboros"}


def _lines(text: str) -> list[str]:
    """A text cell's lines: the file holds both real newlines and written ``\\n``."""
    return [line.strip() for line in re.split(r"\\n|\n", text)]


def _int(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def _cost(text: str) -> tuple[int | None, bool, int | None]:
    """(total, 9+, printed colour part) of a cost cell: "", "4", "9+" or "5(黄2)"."""
    text = text.strip()
    if not text:
        return None, False, None
    m = re.fullmatch(r"(\d+)(\+)?(?:\((.)(\d+)\))?", text)
    if m is None:
        raise ValueError(f"cards.tsv: unreadable cost {text!r}")
    return int(m.group(1)), m.group(2) is not None, (int(m.group(4)) if m.group(4) else None)


def _keywords(jp: str, en: str) -> tuple[int, bool, bool]:
    """(keyword bits, unlimited copies, exact) from a card's texts.

    A printed keyword is a line of its own: "Swoop" in English, "［飛来］" or "飛来" in
    Japanese (several may share a line: "［襲撃］［再起］"). "This minion cannot block/move" is a
    sentence of the Japanese text, read under the timing line above it in its ability (a
    《zone》 line starts another ability): with none or under 【常時】 (Passive) it always
    holds; under "on your turn" only "cannot move" matters and under "on the opponent's turn"
    only "cannot block" (v1 moves on its own turn and blocks on the other's), the other one
    being a sentence that never applies; under any other timing it stays text. Exact: nothing
    else is left of the Japanese text, or, for a card with none, of the English one (a keyword
    line alone)."""
    bits, rest = 0, []
    timing, held = None, None  # the current timing line; it joins the text unless all under it was read
    for line in _lines(jp):
        words = re.findall(r"［([^］]*)］", line)
        bare = line.strip("［］[] ")
        if words and "".join(f"［{w}］" for w in words) == line and all(w in _PRINTED for w in words):
            for w in words:
                bits |= _PRINTED[w]
            continue
        if bare in _PRINTED:
            bits |= _PRINTED[bare]
            continue
        if line.startswith("《"):
            timing, held = None, None
            rest.append(line)
            continue
        header = re.match(r"【[^】]*(?:】|$)", line)
        if header is not None:
            timing = header.group(0)
            if line[header.end():].strip():  # the ability's text on the timing's own line
                held = None
                rest.append(line)
            else:
                held = line
            continue
        applies = _restrictions_under(timing)
        said = (K_NO_BLOCK if _NO_BLOCK.search(line) else 0) | (K_NO_MOVE if _NO_MOVE.search(line) else 0)
        if applies is not None and said:
            bits |= said & applies  # one that never applies under this timing is read, not kept
            line = _NO_MOVE.sub("", _NO_BLOCK.sub("", line))
            if not line.strip():
                continue
        if held is not None:  # text under the timing line: the line is part of the ability
            rest.append(held)
            held = None
        rest.append(line)
    english = _lines(en)
    for line in english:
        bits |= _EN_PRINTED.get(line.rstrip(".").strip().lower(), 0)
    text = "\n".join(rest)
    unlimited = _UNLIMITED in text
    left = [line for line in text.replace(_UNLIMITED, "").split("\n") if line.strip() not in _EMPTY_LINES]
    if not any(_lines(jp)) and any(english):  # no Japanese text: the English is all there is
        left = [line for line in english if line.rstrip(".").strip().lower() not in _EN_PRINTED
                and line.strip().lower() not in _EN_EMPTY]
    return bits, unlimited, not left


def _restrictions_under(timing: str | None) -> int | None:
    """The restriction bits that hold under a timing line (OCR may cut or garble it: "【自分の夕"
    is "【自分のターン】"), or None where the sentences stay text (a trigger's timing)."""
    if timing is None or timing == _PASSIVE:
        return K_NO_BLOCK | K_NO_MOVE
    if any(word in timing for word in ("終了", "開始", "フェイズ")):  # end or start of a turn, a phase
        return None
    if timing.startswith("【自分の"):  # on your turn: moves happen then, blocks never
        return K_NO_MOVE
    if timing.startswith("【相手の"):  # on the opponent's turn: blocks happen then, moves never
        return K_NO_BLOCK
    return None


def _read_tsv(name: str) -> list[dict]:
    with files(__package__).joinpath("data", name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@lru_cache(maxsize=None)
def cards() -> tuple[Card, ...]:
    """Every card of ``data/cards.tsv`` in file order, as printed. A printing the data leaves
    without an English name takes the one another printing of the same Japanese name has
    (4 reprints, e.g. the 9+ cost 復讐のドラゴン is the Vengeful Dragon), so reports do not name
    one card in two languages; no Japanese name has two English ones."""
    rows = _read_tsv("cards.tsv")
    english = {r["name_jp"]: r["name_en"] for r in rows if r["name_en"]}
    out = []
    for r in rows:
        cost, nine_plus, part = _cost(r["cost"])
        bits, unlimited, exact = _keywords(r["ability_jp"], r["ability_en"])
        name_en = r["name_en"] or english.get(r["name_jp"], "")
        out.append(Card(id=r["image_id"], name=r["name_jp"], name_en=name_en, kind=_KINDS[r["card_type"]],
                        colours=tuple(r["color"].split("|")), cost=cost, nine_plus=nine_plus, part=part,
                        bp=_int(r["bp"]), dp=_int(r["dp"]), keywords=bits, unlimited=unlimited, exact=exact,
                        pack=r["pack_jp_official"] or "unknown"))
    return tuple(out)


@lru_cache(maxsize=None)
def forces() -> tuple[Force, ...]:
    """The 10 Forces in ``forces.tsv``'s order."""
    return tuple(Force(FORCE_NAMES[r["id"]], r["id"], int(r["life"]), r["passive_jp"]) for r in _read_tsv("forces.tsv"))


def force_by_name() -> dict[str, Force]:
    return {f.name: f for f in forces()}


@lru_cache(maxsize=None)
def stat_medians() -> dict[int, tuple[int, int]]:
    """cost -> (median BP, median DP) of the field minions whose stats are printed (the lower
    median of an even count: whole numbers), the ``impute`` reading of a missing value. Cost
    0, where none is known, is the spec's extrapolation 100/0; a ``9+`` card counts as 9."""
    known: dict[int, list[Card]] = {}
    for c in cards():
        if c.kind == FIELD and c.bp is not None and c.dp is not None:
            known.setdefault(c.cost, []).append(c)
    medians = {cost: (statistics.median_low(c.bp for c in group), statistics.median_low(c.dp for c in group))
               for cost, group in known.items()}
    medians.setdefault(0, (100, 0))
    return medians


BASE_IMPUTED = (300, 1)  # a base minion without printed stats (the median of the 37 known)


def colour_part(card: Card, cost: int, rule: str) -> int:
    """The mana of the card's own colour its cost needs, under the rules' ``colour_part``:
    ``printed_only`` (0 where not printed), ``zero``, or ``ceil_third`` (printed, else a
    coloured card needs ceil(cost / 3) and a colourless one none)."""
    if rule == "zero" or not card.coloured:
        return 0
    if card.part is not None:
        return card.part
    return -(-cost // 3) if rule == "ceil_third" else 0


def resolved(card: Card, cost_9plus: int = NINE_PLUS, part_rule: str = "ceil_third",
             missing: str = "exclude") -> Card | None:
    """``card`` as the rules read it: a whole cost (``9+`` as ``cost_9plus``; a base minion,
    which is never paid, costs 0), its colour part in ``part``, BP and DP filled by
    ``missing == "impute"`` (``stat_medians``; base minions 300/1). None: a minion the rules
    cannot play (stats unknown under ``exclude``)."""
    cost = cost_9plus if card.nine_plus else (card.cost or 0)
    bp, dp = card.bp, card.dp
    if card.kind in (FIELD, BASE, TOKEN) and (bp is None or dp is None):
        if missing != "impute":
            return None
        bp, dp = BASE_IMPUTED if card.kind == BASE else stat_medians()[min(cost, max(stat_medians()))]
    return replace(card, cost=cost, part=colour_part(card, cost, part_rule), bp=bp, dp=dp)


def basic_mana(colour: str) -> Card:
    """The colour's Basic base minion: unlimited copies, 300/1, cannot block (the mana of
    every generated deck)."""
    for c in cards():
        if c.kind == BASE and c.unlimited and c.colours == (colour,):
            return c
    raise KeyError(colour)
