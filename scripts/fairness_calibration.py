"""The false-call rates and power of compare's fairness tests (docs/COMPARE.md, seat_distance).

The tests in tests/test_compare.py hold each rate to at most alpha + 3 binomial SDs over
1,000 comparisons. This script measures the same rates on more comparisons, through the same
synthetic paired games (``coupled_wins``: seats; ``side_rows``: 4 sides dealt over 2 seats,
both from tests/test_compare.py) and compare's own ``summarize``:

- seat_distance where the variant is exactly as unfair as the baseline (the edge moved to
  another seat) and where both are fair; its power at 55/45 -> 53/47 on 20,000 games;
- side_distance where the sides are exactly as spread (strengths reversed) and where every
  side is equal; its power at strengths 2, 1, 1, 0.5 -> 1.4, 1, 1, 0.7.

Usage: python scripts/fairness_calibration.py [--reps 4000]   (about two minutes)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(root), str(root / "tests")]

from test_compare import coupled_wins, seat_rows, side_rows  # noqa: E402

SEATS = [((0.6, 0.4), (0.4, 0.6)), ((0.31, 0.23, 0.23, 0.23), (0.23, 0.31, 0.23, 0.23)),
         ((0.5, 0.5), (0.5, 0.5)), ((0.25,) * 4, (0.25,) * 4)]
SIDES = [((2, 1, 1, 0.5), (0.5, 1, 1, 2)), ((1.5, 1.2, 1, 0.8), (0.8, 1, 1.2, 1.5)), ((1,) * 4, (1,) * 4)]


def fired(rows: list[dict]) -> float:
    return float(np.mean([r["p_value"] < 0.05 for r in rows]))


def called(rows: list[dict]) -> tuple[float, float]:
    """Shares called fairer and less fair (p < 0.05)."""
    return (float(np.mean([r["p_value"] < 0.05 and r["difference"] < 0 for r in rows])),
            float(np.mean([r["p_value"] < 0.05 and r["difference"] > 0 for r in rows])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000, help="comparisons per case")
    reps = parser.parse_args().reps
    print(f"{reps:,} comparisons of 4,000 games per case; a call is p < 0.05")
    for rates, other in SEATS:
        rng = np.random.default_rng(31)
        rows = [seat_rows(*coupled_wins(rng, 4_000, rates, other))["seat_distance"] for _ in range(reps)]
        print(f"  seat_distance {rates} -> {other}: fired in {fired(rows):.2%}")
    rng = np.random.default_rng(32)
    rows = [seat_rows(*coupled_wins(rng, 20_000, (0.55, 0.45), (0.53, 0.47)))["seat_distance"] for _ in range(200)]
    print("  seat_distance (0.55, 0.45) -> (0.53, 0.47), 20,000 games, 200 comparisons: "
          "fairer {:.1%}, less fair {:.1%}".format(*called(rows)))
    for strengths, other in SIDES:
        rng = np.random.default_rng(33)
        rows = [side_rows(rng, 4_000, strengths, other)["side_distance"] for _ in range(reps)]
        print(f"  side_distance strengths {strengths} -> {other}: fired in {fired(rows):.2%}")
    rng = np.random.default_rng(34)
    rows = [side_rows(rng, 4_000, (2, 1, 1, 0.5), (1.4, 1, 1, 0.7))["side_distance"] for _ in range(200)]
    print("  side_distance strengths (2, 1, 1, 0.5) -> (1.4, 1, 1, 0.7), 200 comparisons: "
          "fairer {:.1%}, less fair {:.1%}".format(*called(rows)))


if __name__ == "__main__":
    main()
