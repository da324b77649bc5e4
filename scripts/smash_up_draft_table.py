"""Write the win rates the `greedy` Smash Up draft picks by (balance/games/smash_up/data/draft.json).

    python scripts/smash_up_draft_table.py reports/smash-up/run [--players 2]

From a smash-up run whose sides were drawn per game (so the rates are causal): each faction's
and each faction pair's win rate at one player count, as the run's report computes them
(``balance.games.smash_up.draft.table_from_run``). The greedy draft takes the available faction
with the best rate first, then the one that makes the best pair with it: "the faction with the
best pair win rate so far" (issue 11). tests/test_smash_up_engine.py checks the committed table
is the one this writes from the committed run, so regenerate it whenever `make report-smash-up`
changes the run.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from balance.core.errors import BalanceError
from balance.games.smash_up.draft import TABLE, table_from_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a smash-up run directory with sides drawn per game")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    try:
        table = table_from_run(args.run, args.players)
    except BalanceError as e:
        raise SystemExit(str(e)) from None
    TABLE.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"-> {TABLE}")


if __name__ == "__main__":
    main()
