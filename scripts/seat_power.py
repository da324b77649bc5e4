"""The seat verdict's power at the printed seat edge, to within +-0.0003 (docs/POWER.md).

The slow test (tests/test_stats.py, test_seat_edge_power_by_simulation_of_the_report_verdict)
checks the power with 10,000 simulated runs per case through ``seat_equality_test`` and
``holm`` themselves (standard error 0.003). This script measures the same quantity a hundred
times more precisely, which only a vectorised procedure can afford: a run plays N games at
each of 3, 4 and 5 players (Holm family 3), the seat win counts of each count are one
multinomial draw, the edge ``detectable_seat_edge(N, P, family=3)`` is planted at one count
(least favourable seats: one seat ahead by it, or one behind) and the others are fair. It
prints the share of runs in which the planted count's Holm-adjusted p is below 0.05, and how
much of that Holm adds over the planning level 0.05 / 3; beside it, the seat ahead at the edge
printed before session 43 (the noncentral chi-square's).

The vectorised chi-square and Holm are checked against ``stats.seat_equality_test`` and
``stats.holm`` on the first runs of every case before anything is printed.

Usage: python scripts/seat_power.py [--runs 1000000] [--seed 0] [--games 200,1000,20000,300000]
       (about a minute at 1e6)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import stats as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from balance.analysis import stats  # noqa: E402

COUNTS = (3, 4, 5)
ALPHA = 0.05
CHECKED = 200  # runs per case compared with the library's own functions


def seats(players: int, edge: float, sign: int) -> np.ndarray:
    """Least favourable seat probabilities, shape (players,): seat 0 at 1/P + sign * edge."""
    p = np.full(players, 1 / players - sign * edge / (players - 1))
    p[0] = 1 / players + sign * edge
    return p


def pvalues(counts: np.ndarray, games: int) -> np.ndarray:
    """seat_equality_test's p for every run: counts shape (runs, P) -> shape (runs,)."""
    expected = games / counts.shape[1]
    statistic = ((counts - expected) ** 2).sum(axis=1) / expected
    return st.chi2.sf(statistic, counts.shape[1] - 1)


def holm_rows(p: np.ndarray) -> np.ndarray:
    """stats.holm applied to every row of p, shape (runs, m)."""
    m = p.shape[1]
    order = np.argsort(p, axis=1, kind="stable")
    ranked = np.take_along_axis(p, order, axis=1) * np.arange(m, 0, -1)
    adjusted = np.minimum(np.maximum.accumulate(ranked, axis=1), 1.0)
    out = np.empty_like(adjusted)
    np.put_along_axis(out, order, adjusted, axis=1)
    return out


def noncentral_edge(games: int, players: int) -> float:
    """The edge printed before session 43: the noncentral chi-square's, at the same level."""
    lam = stats._seat_noncentrality(players, len(COUNTS), 0.9, ALPHA)
    return (lam / (games * stats._lfc_lambda_per_game(1.0, players))) ** 0.5


def case(games: int, planted: int, sign: int, runs: int, rng, edge: float) -> tuple[float, float]:
    """(power of the Holm verdict, power at the planning level alpha / 3) for one case."""
    draws = {players: rng.multinomial(games, seats(players, edge, sign) if players == planted
                                      else np.full(players, 1 / players), size=runs)
             for players in COUNTS}
    p = np.stack([pvalues(draws[players], games) for players in COUNTS], axis=1)
    adjusted = holm_rows(p)
    for r in range(min(CHECKED, runs)):
        own = [stats.seat_equality_test(draws[players][r].astype(float), games)[2] for players in COUNTS]
        np.testing.assert_allclose(p[r], own, rtol=1e-9)
        np.testing.assert_allclose(adjusted[r], stats.holm(own), rtol=1e-9)
    column = COUNTS.index(planted)
    return float(np.mean(adjusted[:, column] < ALPHA)), float(np.mean(p[:, column] < ALPHA / len(COUNTS)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default="200,1000,20000,300000", help="games per count, comma-separated")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    se = (0.09 / args.runs) ** 0.5
    print(f"{args.runs:,} runs per case (standard error {se:.4f}); power of the seat verdict at "
          "the printed edge, Holm over 3, 4, 5 players (in brackets: p < 0.05/3 alone)")
    print("| players | games per count | printed edge | one seat ahead | one seat behind | noncentral edge "
          "(before) | its seat ahead |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for games in (int(g) for g in args.games.split(",")):
        for players in COUNTS:
            edge = stats.detectable_seat_edge(games, players, family=len(COUNTS))
            cells = [case(games, players, sign, args.runs, rng, edge) for sign in (1, -1)]
            shown = " | ".join(f"{holm:.4f} ({alone:.4f})" for holm, alone in cells)
            old = noncentral_edge(games, players)
            before = case(games, players, 1, args.runs, rng, old)[0]
            print(f"| {players} | {games:,} | {edge:.3%} | {shown} | {old:.3%} | {before:.4f} |", flush=True)


if __name__ == "__main__":
    main()
