"""The power figures of `balance plan`'s side and pilot lines (docs/POWER.md), reproduced.

- ``--sides``: the exact power of the side verdict's exact binomial test at the seat-games
  ``stats.games_for_side_edge`` plans, one side the effect above or below fair (computed, not
  simulated: ``exact_binomial_power`` from tests/test_stats.py);
- ``--pilot``: a 100,000-game pilot of a planted seat advantage plans N games for its own
  difference; the share of 200 fresh comparisons of N games that find it, on several seeds
  (``planted_pilot_power`` from tests/test_compare.py, which the test runs on seed 1);
- the card verdict's "a change of X pp ... would have been found with 90% power": a card
  changed by exactly X among six, found in how many of 400 runs (``planted_card_power`` from
  tests/test_verdicts.py, which the test runs on seed 40; docs/MEASURES.md).

Usage: python scripts/plan_power.py [--seeds 1,2,3] [--card-seeds 40,41,42]   (about 15 seconds)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(root), str(root / "tests")]

from balance.analysis import stats  # noqa: E402
from test_compare import planted_pilot_power  # noqa: E402
from test_stats import exact_binomial_power  # noqa: E402
from test_verdicts import planted_card_power  # noqa: E402

# (players, sides, per seat, player counts in the run, edge): the cases the test checks
SIDE_CASES = [(2, 45, 1, 1, 0.02), (4, 8, 2, 3, 0.02), (3, 28, 1, 3, 0.03)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3", help="seeds of the fresh comparisons, comma-separated")
    parser.add_argument("--card-seeds", default="40,41,42", help="seeds of the planted card runs")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    print("plan --sides: exact power of the exact binomial test at the planned seat-games (asked 0.90)")
    for players, sides, per_seat, family, edge in SIDE_CASES:
        games, seat_games = stats.games_for_side_edge(edge, players, sides, per_seat, family)
        level = 0.05 / (sides * family)
        powers = [exact_binomial_power(seat_games, 1 / players, 1 / players + sign * edge, level) for sign in (1, -1)]
        print(f"  {players} players, {sides} sides, {per_seat} a seat, family {family}, edge {edge:g}: "
              f"{games:,} games ({seat_games:,} seat-games a side); power above {powers[0]:.3f}, below {powers[1]:.3f}")
    print("plan --pilot: share of 200 fresh comparisons of the planned size finding the planted edge (asked 0.90)")
    for seed in seeds:
        n, found = planted_pilot_power(seed)
        print(f"  seed {seed}: {n:,} games planned, found in {found:.3f}")
    print("card verdict: a card changed by exactly its detectable X among six, 20,000 games, 400 runs (asked 0.90)")
    for seed in (int(s) for s in args.card_seeds.split(",")):
        size, found, wrong, false = planted_card_power(seed)
        print(f"  seed {seed}: X = {100 * size:.2f} pp, found in {found / 400:.1%}, the wrong way in {wrong}; "
              f"the other cards fired in {false / 2000:.2%} of their tests")


if __name__ == "__main__":
    main()
