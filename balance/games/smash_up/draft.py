"""The snake faction draft's table: the win rates a drafting ``greedy`` seat picks by.

``data/draft.json`` holds each faction's and each faction pair's win rate at 2 players from a
run with sides drawn per game (so the rates are causal), written by
``scripts/smash_up_draft_table.py`` from ``reports/smash-up/run``; its ``source`` names the run.
Both engines draft with it (``kernel.games.snake_draft``, ``reference.draft_sides``).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from .catalogue import FACTIONS

TABLE = Path(__file__).parent / "data" / "draft.json"


@lru_cache(maxsize=None)
def _table() -> dict:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def draft_rates() -> np.ndarray:
    """float64[8, 8] in catalogue order: [f, f] faction f's rate, [a, b] pair a+b's (symmetric)."""
    table = _table()
    rates = np.zeros((len(FACTIONS), len(FACTIONS)))
    for i, f in enumerate(FACTIONS):
        rates[i, i] = table["factions"][f]
    for name, rate in table["pairs"].items():
        a, b = (FACTIONS.index(f) for f in name.split("+"))
        rates[a, b] = rates[b, a] = rate
    return rates


def source() -> str:
    return _table()["source"]
