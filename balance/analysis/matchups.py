"""Strategy matchups: every strategy of a pool against a field of every other, seat-rotated.

Cell (A, B) of the matrix is A's win share when A holds one seat and B every other seat, with
A's seat rotated over all seats in equal blocks of games (seat effects cancel); the fair
share is 1/players. Every cell plays the same game numbers with one seed (common random
numbers). At 2 players A against a field of B is B against a field of A, and the rotation
already puts each in both seats: one run per pair gives both cells (one estimate and its
complement, one hypothesis). From the matrix: which strategies are dominated, and where the replicator dynamics
of a population choosing among the pool settles (an evolutionary summary of the meta-game).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from balance.analysis import aggregate, stats
from balance.core.errors import BalanceError, check_int
from balance.core.game import WIN_UNIT
from balance.core.strategy import untuned_counts


def split_pool(items: list[str]) -> list[str]:
    """``["greedy:samples=4,w_risk=2,threshold", "random"]`` -> three specs.

    A comma-separated item that is ``key=value`` (no ``:``) continues the previous spec's
    parameters, so specs with several parameters survive the comma-separated list.
    """
    specs: list[str] = []
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            if "=" in part and ":" not in part and specs:
                specs[-1] += "," + part
            else:
                specs.append(part)
    return specs


@dataclass
class MatchupResult:
    matrix: pl.DataFrame  # strategy, field, games, share, lo, hi, win_share_sum,
    # win_share_sq_sum, fair, p_value, p_adjusted, no_spread
    dominated: pl.DataFrame  # strategy, dominated_by
    meta: pl.DataFrame  # strategy, population share at the replicator dynamics' rest point
    players: int
    labels: list[str]
    untuned: dict | None = None  # tuned strategies played at another count (strategy.untuned_counts)


def run_matchups(game: str, pool: list[str], players: int | None = None, games: int = 100_000, seed: int = 0,
                 overrides: dict | None = None, threads: int | None = None,
                 on_progress=None, play=None) -> MatchupResult:
    """Play every ordered pair of the pool (``games`` games each) and summarise the matrix.

    play: what plays each run, with ``balance.core.api.simulate``'s arguments (default: it; the
    CLI passes ``StudyCheckpointer.simulate``, which keeps every finished run for --resume).
    """
    from balance.core.api import MAX_GAMES, simulate
    from balance.core.registry import get_game
    from balance.core.strategy import example_pool, parse_strategy

    simulate = play or simulate

    spec = get_game(game)
    players = spec.default_players if players is None else players
    if spec.cooperative:
        raise BalanceError(f"{spec.id} is cooperative: its seats win or lose together, so no strategy "
                           "plays against another; compare team strategies with `balance ladder`")
    parsed = [parse_strategy(s, spec.strategies) for s in pool]
    labels = [s.label for s in parsed]
    if len(parsed) < 2:
        example = example_pool(spec.strategies, spec.default_strategy)
        raise BalanceError(f"give at least two strategies in --pool, e.g. --pool {example} (`balance games` lists "
                           f"{spec.id}'s)")
    if len(set(labels)) != len(labels):
        raise BalanceError(f"--pool repeats a strategy: {', '.join(labels)}")
    check_int("games", games, 1, MAX_GAMES)  # -1 is out of range, not "too few to rotate"
    if games < players:
        raise BalanceError(f"games={games} is too few to rotate over {players} seats; give at least {players}")
    given = dict(zip(labels, pool))  # each run is given the spec itself: a tuned one's @DIR says where it came from
    played, manifests = {}, []
    for a in labels:
        for b in labels:
            # at 2 players the run (a, b) is the matchup (b, a) too: the rotation puts each in both seats
            # (two runs of one matchup had read 47.50% and 50.40% with no game capped)
            if a == b or (players == 2 and (b, a) in played):
                continue
            run = simulate(game, players=players, games=games, seed=seed, overrides=overrides,
                           strategies=[given[a]] + [given[b]] * (players - 1), rotate=True, threads=threads,
                           on_progress=on_progress)
            manifests.append(run.manifest)
            played[(a, b)] = run.seats
    return summarise(_cells(labels, played), labels, players, untuned_counts(*manifests))


def _cells(labels: list[str], played: dict) -> list[dict]:
    """One row per ordered pair (a, b), a != b: a's win share against a field of b with its
    interval and sums, the finished and capped games and the fair share, from the runs'
    seats tables ``played[(a, b)]`` (at 2 players one run serves both orders)."""
    rows = []
    for a in labels:
        for b in labels:
            if a == b:
                continue
            seats = played[(a, b)] if (a, b) in played else played[(b, a)]
            mine = seats.filter(pl.col("strategy") == a)
            n = int(mine["games"].sum())
            total, total_sq = mine["win_share"].sum(), mine["win_share_sq_sum"].sum()
            share, lo, hi = stats.share_ci(total, total_sq, n)
            fairness = aggregate.seat_fairness(seats).row(0, named=True)  # finished and capped games
            rows.append({"strategy": a, "field": b, "games": n, "share": share, "lo": lo, "hi": hi,
                         "win_share_sum": total, "win_share_sq_sum": total_sq,
                         "finished": fairness["games"], "capped": fairness["capped"],
                         "fair": aggregate.fair_share(fairness)})  # 1/players of the games that handed out a win
    return rows


def summarise(cells: list[dict], labels: list[str], players: int, untuned: dict | None = None) -> MatchupResult:
    """The matrix of ``cells`` (``_cells``' rows) tested, with its dominance and meta-game: each
    cell against its fair share (Holm), intervals at the matrix's joint level, the strategies
    dominated by those intervals and the replicator dynamics' rest point."""
    matrix = _joint_intervals(_significance(pl.DataFrame(cells), players), players)
    share = _share_matrix(matrix, labels, players)
    lo, hi = (_share_matrix(matrix, labels, players, column) for column in ("lo_joint", "hi_joint"))
    return MatchupResult(matrix, _dominated(share, labels, lo, hi), _replicator(share, labels), players, labels,
                         untuned)


def joint_level(cells: int) -> float:
    """The confidence of intervals that hold together over ``cells`` questions (Bonferroni):
    the level at which two cells' intervals apart is a test at 5% over the whole matrix."""
    return 1 - (1 - aggregate.CONFIDENCE) / max(cells, 1)


def questions(cells: int, players: int) -> int:
    """The matrix's distinct questions: every cell, save at 2 players, where a cell and its mirror
    (A against B, B against A) are one estimate and its complement, one question."""
    return cells // 2 if players == 2 else cells


def _joint_intervals(matrix: pl.DataFrame, players: int) -> pl.DataFrame:
    """``lo_joint`` and ``hi_joint``: each cell's interval at ``joint_level`` of the matrix's
    questions, so that "dominated" (intervals apart) is corrected over the matrix as its cells'
    p-values are (Holm): a claim decided by two 95% intervals had stood beside a Holm p of 0.0504."""
    _, lo, hi = stats.share_ci(matrix["win_share_sum"].to_numpy(), matrix["win_share_sq_sum"].to_numpy(),
                               matrix["games"].to_numpy(), joint_level(questions(matrix.height, players)))
    return matrix.with_columns(lo_joint=pl.Series(np.atleast_1d(lo), dtype=pl.Float64),
                               hi_joint=pl.Series(np.atleast_1d(hi), dtype=pl.Float64))


def _significance(matrix: pl.DataFrame, players: int) -> pl.DataFrame:
    """Test each cell's win share against its fair share (1/players of the cell's games that
    handed out a win: ``finished`` of ``finished + capped``; 1/players where none was capped or
    the matrix has no ``capped`` column); Holm-adjusted over the matrix.

    matrix: one row per cell with ``games`` (n), ``win_share_sum`` and ``win_share_sq_sum``
    (sums over the cell's games of the row strategy's share x and of x^2). Adds ``p_value``
    and ``p_adjusted`` (float64, one per row) and ``no_spread`` (bool: every game gave exactly
    the fair share, so the report shows no p).

    Method: ``stats.mean_test`` of the per-game share against 1/players (a one-sample z-test
    with the observed variance). The sums are counted in 1/60 win units (exact integers for
    ties of up to 6) so that a cell whose every game gives exactly 1/P has d = 0 exactly
    (p = 1), and a cell with no spread away from 1/P (a strategy that never wins) has p = 0,
    not the p = 1 that an interval of zero width gave before.
    """
    n = matrix["games"].to_numpy().astype(np.float64)
    total = np.round(matrix["win_share_sum"].to_numpy() * WIN_UNIT)
    total_sq = np.round(matrix["win_share_sq_sum"].to_numpy() * WIN_UNIT**2)
    # in win units, formed so that a cell no game of which was capped gets WIN_UNIT / players exactly
    if "capped" in matrix.columns:
        finished, capped = (matrix[c].to_numpy().astype(np.float64) for c in ("finished", "capped"))
        fair = WIN_UNIT * finished / ((finished + capped) * players)
    else:
        fair = WIN_UNIT / players
    test = stats.mean_test(total, total_sq, n, fair)
    p = np.asarray(test["pvalue"], dtype=np.float64).reshape(-1)
    # every game exactly the fair share (e.g. a tie shared by all): nothing to test, p = 1 by convention
    no_spread = (total == n * fair) & (total_sq == n * fair * fair)
    adjusted = stats.holm(p)
    if players == 2 and matrix.height:  # a cell and its mirror are one question: Holm over the pairs, once each
        key = [tuple(sorted(k)) for k in zip(matrix["strategy"], matrix["field"])]
        first = {k: i for i, k in reversed(list(enumerate(key)))}  # each pair's first cell
        once = sorted(first.values())
        held = dict(zip(once, stats.holm(p[once])))
        adjusted = np.array([held[first[k]] for k in key])
    return matrix.with_columns(p_value=pl.Series(p), p_adjusted=pl.Series(adjusted),
                               no_spread=pl.Series(no_spread))


def _share_matrix(matrix: pl.DataFrame, labels: list[str], players: int, column: str = "share") -> np.ndarray:
    """M[i, j]: strategy i's win share (or its interval's ``lo``/``hi``) against a field of j;
    the diagonal is the fair share (a strategy against a field of itself is symmetric): 1/n, or
    where games were capped the mean fair share of row i's cells (``fair``), as near as the
    matrix tells it."""
    m = np.full((len(labels), len(labels)), 1.0 / players)
    if "fair" in matrix.columns:  # a strategy whose every game was capped keeps 1/n (a share of 0 has no meta-game)
        for (label,), g in matrix.group_by("strategy"):
            if g["fair"].mean() > 0:
                m[labels.index(label), labels.index(label)] = float(g["fair"].mean())
    for r in matrix.iter_rows(named=True):
        m[labels.index(r["strategy"]), labels.index(r["field"])] = r[column]
    return m


def _dominated(m: np.ndarray, labels: list[str], lo: np.ndarray | None = None,
               hi: np.ndarray | None = None) -> pl.DataFrame:
    """Strategy i is dominated by k when k does at least as well as i against every field of
    the pool (point estimates) and better against one: with intervals (``lo``, ``hi``, the
    shape of ``m``), k's interval wholly above i's there, a test at 5% or less whatever their
    correlation (report.apart); without, a larger point estimate. ``dominated_by``: the
    labels of those k, joined by "; " (a label's own parameters are joined by commas)."""
    rows = []
    for i, a in enumerate(labels):
        by = [labels[k] for k in range(len(labels))
              if k != i and np.all(m[k] >= m[i])
              and (np.any(_ahead(lo, hi, k, i)) if lo is not None else np.any(m[k] > m[i]))]
        rows.append({"strategy": a, "dominated_by": "; ".join(by)})  # "; ": a label has commas of its own
    return pl.DataFrame(rows)


def _ahead(lo: np.ndarray, hi: np.ndarray, k: int, i: int) -> np.ndarray:
    """bool[fields]: where strategy k's interval lies wholly above strategy i's (``lo``, ``hi``
    the interval matrices), each a test at 5% or less whatever the correlation."""
    return lo[k] > hi[i]


def _dominance_words(labels: list[str], lo: np.ndarray, hi: np.ndarray, strategy: str, by: str,
                     level: str) -> tuple:
    """Why ``strategy`` is dominated by ``by``, in words: at least as good against every field
    (point estimates), and the fields where its interval lies wholly above (``_ahead``, the test
    ``_dominated`` decides by), the intervals at the matrix's joint ``level``."""
    from balance.analysis.document import Code, code_list

    ahead = _ahead(lo, hi, labels.index(by), labels.index(strategy))
    return (Code(by), ": at least as good against every field (point estimates), and ahead against ",
            *code_list(labels[j] for j in np.flatnonzero(ahead)), f" with the {level} intervals apart (intervals "
            "that hold together over the matrix's cells: a test at 5% over the whole matrix).")


def _replicator(m: np.ndarray, labels: list[str], steps: int = 20_000) -> pl.DataFrame:
    """Rest point of the discrete replicator dynamics x_i <- x_i f_i / mean f, from the uniform
    mix, with fitness f_i = sum_j x_j M[i, j]: the win share of an i-player whose opponents are
    drawn from the population, approximated by the 1-vs-field cells (each game's field is
    taken as one strategy)."""
    x = np.full(len(labels), 1.0 / len(labels))
    for _ in range(steps):
        fitness = m @ x
        x = x * fitness / (x @ fitness)
    return pl.DataFrame({"strategy": labels, "population_share": x})


def write_matchups(result: MatchupResult, out: Path, title: str) -> dict:
    """matchups.md, matchups.html (self-contained), figures/matchups.png, matrix.parquet."""
    from balance.analysis import plots
    from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Table, ci, pp, pvalue,
                                  to_html, to_markdown)
    from balance.analysis.report import untuned_cautions

    out = Path(out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    frame = result.matrix.select(pl.lit(result.players).alias("players"), "strategy",
                                 pl.col("field").alias("opponent_strategy"), pl.col("share").alias("rate"), "lo", "hi")
    figure = plots.matchups(frame, out / "figures" / "matchups.png", centre=1.0 / result.players,
                            title="row's win share vs a field of column", order=result.labels)  # the pool's order
    result.matrix.write_parquet(out / "matrix.parquet")
    fair = 1.0 / result.players
    # a cell's fair share is 1/n of its games that handed out a win (a matrix written before
    # this column: 1/n)
    capped = "capped" in result.matrix.columns and bool((result.matrix["capped"] > 0).any())
    still = result.matrix["no_spread"].to_numpy()  # no p to show (_significance)
    rows = [[Code(r["strategy"]), Code(r["field"]), f"{r['games']:,}", f"{100 * r['share']:.2f}%",
             ci(r["lo"], r["hi"]), pp(r["share"] - r.get("fair", fair), signed=True),
             *(["–", "–"] if flat else [pvalue(r["p_value"]), pvalue(r["p_adjusted"])])]
            for r, flat in zip(result.matrix.iter_rows(named=True), still)]
    meta = result.meta.sort("population_share", descending=True)
    survivors = [(Code(r["strategy"]), f" {100 * r['population_share']:.1f}%")
                 for r in meta.iter_rows(named=True) if r["population_share"] > 1e-3]
    joint = (result.matrix if "lo_joint" in result.matrix.columns
             else _joint_intervals(result.matrix, result.players))
    lo, hi = (_share_matrix(joint, result.labels, result.players, column) for column in ("lo_joint", "hi_joint"))
    level = f"{joint_level(questions(result.matrix.height, result.players)):.2%}"
    dominated = [(Code(r["strategy"]), " is dominated by ",
                  *_dominance_words(result.labels, lo, hi, r["strategy"], by, level))
                 for r in result.dominated.iter_rows(named=True) if r["dominated_by"]
                 for by in r["dominated_by"].split("; ")]
    # cautions come before the lines they qualify: a strategy tuned at another count plays untuned
    # here; a run whose every game was capped measures nothing (a degenerate run, named)
    cautions = untuned_cautions(result.untuned or {}, result.labels)
    if "finished" in result.matrix.columns and not (result.matrix["finished"] > 0).any():
        cautions.append(("The turn cap stopped every game of every cell: no game handed out a win, so nothing below "
                        "measures the strategies (raise the cap: ", Code("balance rules"), ").",))
    sections = [
        Section("Verdict", [Bullets([
            *cautions,
            ("A population choosing among the pool settles on: ",
             *[p for s in survivors for p in (*s, "; ")][:-1],
             " (replicator dynamics on the cells' point estimates: a description, not a test; cells "
             "within their intervals of one another could settle elsewhere)."),
            *(dominated or [("No strategy of the pool is dominated.",)]),
        ])]),
        Section("Matrix", [
            Para((f"{result.players} players. Each cell: the row strategy in one seat (rotated over "
                  f"every seat), the column strategy in the others; fair share {100 * fair:.2f}%"
                  + (" of the games that handed out a win (the turn cap stopped some, which hand out none; "
                     "vs fair is against each cell's own)" if capped else "") + ". "
                  "Normal intervals from each game's observed win share; p tests the cell against "
                  "the fair share, Holm-adjusted over the matrix."
                  + (" With two seats, A against a field of B is B against a field of A: one run gives both "
                     "cells, one estimate and its complement, and Holm counts them as one question."
                     if result.players == 2 else ""),)),
            Figure("matchups", figure, "Row strategy's win share against a field of the column strategy"
                   + plots.CELL_INTERVAL),
            Table(["strategy", "field", "games", "win share", "95% CI", "vs fair", "p", "Holm p"], rows, left=2),
            *([Para((f"–: every game of the cell ({still.sum()} of {len(still)}) gave the row strategy exactly "
                     "the fair share, so there is no spread to test; the cell stays in the Holm family as "
                     "p = 1, which only makes the other cells' adjusted p larger.",))] if still.any() else []),
        ]),
        Section("Meta-game", [
            Para(("Replicator dynamics over the matrix from an even mix; a strategy's fitness is its "
                  "win share against a field drawn from the population (approximated by the "
                  "one-strategy fields measured above). Dominated: another strategy does at least as "
                  "well against every field (point estimates) and better against one, its interval wholly "
                  f"above at the level {level} at which the matrix's "
                  f"{questions(result.matrix.height, result.players)} questions' intervals hold together "
                  "(Bonferroni: a test at 5% over the whole matrix, whatever the correlation).",)),
            Table(["strategy", "population share at rest", "dominated by"],
                  [[Code(r["strategy"]), f"{100 * r['population_share']:.1f}%",
                    next(d["dominated_by"] for d in result.dominated.iter_rows(named=True)
                         if d["strategy"] == r["strategy"]) or "–"]
                   for r in result.meta.iter_rows(named=True)], left=1),
        ]),
    ]
    md, page = out / "matchups.md", out / "matchups.html"
    md.write_text(to_markdown(title, sections, out), encoding="utf-8")
    page.write_text(to_html(title, sections), encoding="utf-8")
    return {"markdown": md, "html": page, "figures": [figure]}
