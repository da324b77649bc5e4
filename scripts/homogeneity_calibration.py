"""The figures of the homogeneity tests' permutation fallback (docs/MEASURES.md), reproduced:
on planted teams with few wins (54 equal teams, about 4 wins in 200 games), the share of runs
that chi-square's approximation and ``stats.rate_homogeneity`` (permutations below 5 expected)
call the teams different at 5%, and the share of runs that find six stronger teams among 54
(``few_wins_homogeneity`` from tests/test_verdicts.py, which the test runs on seed 1).

Usage: python scripts/homogeneity_calibration.py [--seeds 1,2,3] [--permutations 2000]   (about 40 s)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(root), str(root / "tests")]

from test_verdicts import few_wins_homogeneity  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3", help="seeds, comma-separated")
    parser.add_argument("--permutations", type=int, default=2000, help="draws per p-value")
    args = parser.parse_args()
    print("seed  tested  chi-square false  permutation false  planted found")
    for seed in (int(s) for s in args.seeds.split(",")):
        out = few_wins_homogeneity(seed, args.permutations)
        print(f"{seed:>4}  {out['tested']:>6}  {out['approximation']:>16.1%}  {out['permuted']:>17.1%}  "
              f"{out['found']:>13.1%}")


if __name__ == "__main__":
    main()
