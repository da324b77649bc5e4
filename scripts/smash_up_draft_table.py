"""Write the win rates the `greedy` Smash Up draft picks by (balance/games/smash_up/data/draft.json).

    python scripts/smash_up_draft_table.py reports/smash-up/run [--players 2]

From a smash-up run whose sides were drawn per game (so the rates are causal): each faction's
and each faction pair's win rate at one player count, as the run's report computes them
(``balance.games.smash_up.report.analyse``: wins over seat-games, pooled over seats).
The greedy draft takes the available faction with the best rate first, then the one that makes
the best pair with it: "the faction with the best pair win rate so far" (issue 11).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

from balance.games.smash_up.report import analyse

OUT = Path(__file__).resolve().parents[1] / "balance" / "games" / "smash_up" / "data" / "draft.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a smash-up run directory with sides drawn per game")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    manifest = json.loads((args.run / "manifest.json").read_text())
    if manifest["game"] != "smash-up" or manifest.get("sides") != "drawn":
        raise SystemExit(f"{args.run}: not a smash-up run with sides drawn per game")
    tables = {path.stem: pl.read_parquet(path) for path in args.run.glob("*.parquet")}
    a = analyse(tables, manifest, "wilson")
    factions, pairs = (f.filter(pl.col("players") == args.players).sort("name") for f in (a.factions, a.pairs))
    if not factions.height:
        raise SystemExit(f"{args.run}: no {args.players}-player games")
    table = {
        "source": (f"{args.run} (strategies {', '.join(manifest['strategies'])}, {manifest['games']:,} "
                   f"games per player count, seed {manifest['seed']}, rules version "
                   f"{manifest.get('rules_version')}), {args.players} players"),
        "factions": {r["name"]: round(r["rate"], 5) for r in factions.iter_rows(named=True)},
        "pairs": {r["name"]: round(r["rate"], 5) for r in pairs.iter_rows(named=True)},
    }
    OUT.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"-> {OUT}")


if __name__ == "__main__":
    main()
