"""The card and base data the kernel reads, built from the catalogue (Python side).

``defs int64[ndefs, D_N]``: one row per distinct card of the selected card list (catalogue
order, faction by faction); ``decks``: per faction, its 20 cards as definition rows (one per
copy, catalogue order — the reference builds a deck the same way); ``bases int64[16, BS_N]``.
"""
from __future__ import annotations

import numpy as np

from ..catalogue import FACTIONS
from .layout import K_ACTION, K_DUAL, K_MINION
from .names import BASE_NAMES, card_code

D_NAME, D_KIND, D_POWER, D_FACTION, D_PLAYON, D_N = range(6)
BS_NAME, BS_BREAK, BS_VP0, BS_VP1, BS_VP2, BS_N = range(6)
PLAYON_NONE, PLAYON_BASE, PLAYON_MINION, PLAYON_OWN = range(4)
# rules/smash-up-cards.md §1.1: "Play on a base / on a minion / on one of your minions"
_PLAY_ON = {
    "Jammed Signal": PLAYON_BASE, "Wildlife Preserve": PLAYON_BASE, "Infiltrate": PLAYON_BASE,
    "Block the Path": PLAYON_BASE, "Enshrouding Mist": PLAYON_BASE, "Flame Trap": PLAYON_BASE,
    "Hideout": PLAYON_BASE, "Pay the Piper": PLAYON_BASE, "Overrun": PLAYON_BASE,
    "They're Coming To Get You": PLAYON_BASE,
    "Tooth and Claw...and Guns": PLAYON_MINION, "Upgrade": PLAYON_MINION, "Assassin": PLAYON_MINION,
    "Poison": PLAYON_MINION, "Smoke Bomb": PLAYON_OWN,
}
_KIND = {"minion": K_MINION, "action": K_ACTION, "dual": K_DUAL}


def card_tables(cat):
    """(defs, decks, bases) for a card list (``catalogue.Catalogue``, e.g. ``rules.catalogue()``):
    see the module docstring."""
    rows, decks = [], {}
    for f, faction in enumerate(FACTIONS):
        decks[faction] = []
        for spec in cat.factions[faction]:
            d = len(rows)
            rows.append((card_code(spec.name), _KIND[spec.kind], spec.power or 0, f,
                         _PLAY_ON.get(spec.name, PLAYON_NONE)))
            decks[faction] += [d] * spec.copies
    bases = np.array([(BASE_NAMES.index(b.name), b.breakpoint, *b.vp) for b in cat.bases], np.int64)
    return np.array(rows, np.int64), decks, bases
