"""The card list of a smash-up run and what the kernel does not simulate yet (``balance cards``).

``NOT_IN_KERNEL`` is kept by hand with the kernel's faction modules (``kernel/cards/``): a
faction leaves it when its module plays every card exactly as the reference does, which its
``tests/test_smash_up_kernel_<factions>.py`` shows game by game. A card listed here is played
by the kernel without its ability (a vanilla minion, an action with no effect), so every run
that deals it says so.
"""
from __future__ import annotations

import polars as pl

from .catalogue import FACTIONS
from .rules import Rules

# faction -> its cards whose abilities the kernel lacks ("*": every card of the faction)
NOT_IN_KERNEL: dict[str, tuple[str, ...]] = {}  # every faction of the core set is ported
# the 2012 Tricksters list: cards the reference itself does not play (none since its Brownie
# and Hideout joined the core, session 15); a card named here is listed by --unsupported
NOT_IN_REFERENCE_2012: tuple[str, ...] = ()


def card_list(rules: Rules) -> pl.DataFrame:
    """Every card of the rules' card list: faction, card, kind, power, copies, simulated."""
    cat = rules.catalogue()
    missing = set(unsupported(rules))
    rows = [(f, c.name, c.kind, c.power, c.copies, f"{f}: {c.name}" not in missing)
            for f in FACTIONS for c in cat.factions[f]]
    return pl.DataFrame(rows, schema={"faction": pl.String, "card": pl.String, "kind": pl.String,
                                      "power": pl.Int64, "copies": pl.Int64, "simulated": pl.Boolean},
                        orient="row")


def unsupported(rules: Rules) -> list[str]:
    """``"Faction: Card"`` for every card of the rules' list the engine plays without its
    ability, in catalogue order."""
    cat = rules.catalogue()
    out = []
    for f in FACTIONS:
        lacking = set(NOT_IN_KERNEL.get(f, ()))
        if f == "Tricksters" and rules.tricksters == "2012":
            lacking |= set(NOT_IN_REFERENCE_2012)
        out += [f"{f}: {c.name}" for c in cat.factions[f] if "*" in lacking or c.name in lacking]
    return out
