"""zenonzard's card list as `balance cards` shows it, and what the engine does not simulate.

The card model v1 (``rules/zenonzard.md``) plays a card's cost, colour part, BP, DP and the
eight simulated keywords. A card whose text says more (a ``[When Summoned]`` effect, a magic
card's spell, a base minion's ``[When Placed]``) is "not simulated": a deck that holds one
plays it as its numbers and keywords, and every run whose decks hold one lists it in its
manifest (``unsupported_in_play``) and report. Magic cards are never played by v1.
"""
from __future__ import annotations

from collections import Counter

import polars as pl

from .catalogue import FIELD, KEYWORDS, MAGIC, Card, cards, resolved
from .rules import Rules


def simulated(card: Card) -> bool:
    """The engine plays the card's whole text: numbers and v1 keywords only, and not a magic
    card (v1 plays no spell)."""
    return card.exact and card.kind != MAGIC


def label(card: Card) -> str:
    """``colour: Name (id)``, the form lists of unsupported cards use."""
    return f"{'+'.join(card.colours)}: {card.name_en or card.name} ({card.id})"


def card_list(rules: Rules) -> pl.DataFrame:
    """Every card of the list (1,439), in file order: id, name, kind, colours, cost (as the
    rules read it), colour part, BP, DP, simulated keywords, set, simulated."""
    rows = []
    for c in cards():
        r = resolved(c, rules.cost_9plus, rules.colour_part, rules.missing_stats) or c
        kw = ", ".join(k for i, k in enumerate(KEYWORDS) if c.keywords >> i & 1)
        rows.append((c.id, c.name_en or c.name, c.kind, "+".join(c.colours), r.cost, r.part, r.bp, r.dp, kw,
                     c.pack, simulated(c)))
    return pl.DataFrame(rows, schema={"id": pl.String, "name": pl.String, "kind": pl.String,
                                      "colours": pl.String, "cost": pl.Int64, "part": pl.Int64, "bp": pl.Int64,
                                      "dp": pl.Int64, "keywords": pl.String, "set": pl.String,
                                      "simulated": pl.Boolean}, orient="row")


def unsupported(rules: Rules) -> list[str]:
    """Every card of the list whose text the engine does not simulate, in file order."""
    return [label(c) for c in cards() if not simulated(c)]


def unsupported_summary(rules: Rules) -> list[str]:
    """Counts of the unsupported cards by set and by colour (`balance cards --unsupported`),
    and how many of them generated decks can deal (the field minions with printed BP/DP)."""
    lacking = [c for c in cards() if not simulated(c)]
    by_set = Counter(c.pack for c in lacking)
    by_colour = Counter("+".join(c.colours) for c in lacking)
    in_pool = sum(c.kind == FIELD and resolved(c, rules.cost_9plus, rules.colour_part, rules.missing_stats)
                  is not None for c in lacking)
    return ([f"not simulated, by set ({len(lacking)} of {len(cards())} cards):"]
            + [f"  {name}: {n}" for name, n in sorted(by_set.items(), key=lambda kv: (-kv[1], kv[0]))]
            + ["not simulated, by colour:"]
            + [f"  {name}: {n}" for name, n in sorted(by_colour.items(), key=lambda kv: (-kv[1], kv[0]))]
            + [f"of them, {in_pool} field minions with BP/DP can be dealt in generated decks (played as their "
               "numbers and keywords); the rest only in deck lists, or never (magic cards)"])


def unsupported_in_play(rules: Rules, sides) -> list[str]:
    """The unsupported cards a run can deal: those in the decks its sides play (``sides``: the
    given side texts, or None when every side is drawn), in deck order."""
    from .decks import run_decks
    from .sides import Side, read_side

    parsed = [read_side(t) for t in sides] if sides else [Side(None, None)]
    decks = run_decks(rules, parsed)[0]
    seen, out = set(), []
    for deck in decks:
        for c in deck.cards:
            if not simulated(c) and c.id not in seen:
                seen.add(c.id)
                out.append(label(c))
    return out
