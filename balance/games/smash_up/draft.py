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


def table_from_run(run: Path, players: int = 2) -> dict:
    """The draft table (draft.json's content) from a smash-up run directory whose sides were
    drawn per game: each faction's and pair's win rate at ``players``, as the run's report
    computes them (wins over seat-games, pooled over seats). BalanceError for another run."""
    import polars as pl

    from balance.analysis.report import load_run
    from balance.core.errors import BalanceError

    from .report import analyse

    manifest, tables = load_run(run)
    if manifest.get("game") != "smash-up" or manifest.get("sides") != "drawn":
        raise BalanceError(f"{run}: not a smash-up run with sides drawn per game")
    a = analyse(tables, manifest, "wilson")
    factions, pairs = (f.filter(pl.col("players") == players).sort("name") for f in (a.factions, a.pairs))
    if not factions.height:
        raise BalanceError(f"{run}: no {players}-player games")
    return {
        "source": (f"{run.as_posix()} (strategies {', '.join(manifest['strategies'])}, {manifest['games']:,} "
                   f"games per player count, seed {manifest['seed']}, rules version "
                   f"{manifest.get('rules_version')}), {players} players"),
        "factions": {r["name"]: round(r["rate"], 5) for r in factions.iter_rows(named=True)},
        "pairs": {r["name"]: round(r["rate"], 5) for r in pairs.iter_rows(named=True)},
    }
