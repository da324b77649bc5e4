"""Tests of sides: do the seats holding a name (a faction, a Force pair, a colour) win more or
less than the average seat? Shared by the games' report sections.

The test is causal when the run drew its sides per game from a stream of their own (no
--side): which name a seat holds is then independent of everything else in the game, a
randomised experiment, and the difference from the average seat is the name's doing.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import polars as pl

from balance.analysis import aggregate, stats
from balance.analysis.document import Strong, ci, p_phrase, pct, pp
from balance.analysis.exact_power import detectable_binomial_difference
from balance.analysis.report import ALPHA, LEVEL, POWER, each_row
from balance.core.errors import BalanceError

# The methods text of the "this run detects any X" figure, for the games' reports
DETECTABLE = ("The detectable difference is the exact binomial test's own: the smallest distance "
              f"above and below the average seat's rate that the test finds with {POWER:.0%} power at the "
              "Bonferroni level (Holm's first step), summed exactly over the counts it rejects "
              "(balance.analysis.exact_power), the largest of the rows of a player count.")


def tested(rows: pl.DataFrame, average: pl.DataFrame, method: str) -> pl.DataFrame:
    """Per (players, name): the seats' win rate with its interval, the average seat's rate at
    that count (``expected``), and the two-sided exact binomial test of rate = expected,
    Holm-adjusted over every row (one family: the verdict reads them together).

    rows: (players, name, games, win_share) seat-games and wins of the seats holding ``name``;
    average: (players, win_share) wins per seat-game over every seat. A game hands out at most
    one whole win (the caller's game never splits one), so the wins are counts. Within a
    player count the names share games, so the rows are not independent; Holm holds the
    family-wise error at ALPHA under any dependence. ``detectable``: the deviation either way
    from ``expected`` that this many seat-games detect with POWER in this exact test at the
    Bonferroni level ALPHA / rows (Holm's first step; ``exact_power``), NaN where none is.
    """
    from scipy.stats import binomtest

    out = (rows.join(average.rename({"win_share": "expected"}), on="players")
           .sort("players", "name"))
    out = aggregate.rate(out, "win_share", "games", "rate", method).rename({"rate_lo": "lo", "rate_hi": "hi"})
    wins = np.rint(out["win_share"].to_numpy()).astype(np.int64)
    if not np.allclose(wins, out["win_share"].to_numpy()):
        raise BalanceError("this run's win shares are not whole wins (this test is for games "
                           "that hand out at most one whole win); the run's tables are damaged")
    games, expected = out["games"].to_numpy(), out["expected"].to_numpy()
    p = np.array([binomtest(int(w), int(n), float(e)).pvalue if n and 0 < e < 1 else 1.0
                  for w, n, e in zip(wins, games, expected)])
    family = max(out.height, 1)
    edge = [_detectable(int(n), float(e), family) for n, e in zip(games, expected)]
    return out.with_columns(difference=pl.col("rate") - pl.col("expected"), p_value=pl.Series(p),
                            p_adjusted=pl.Series(stats.holm(p) if p.size else p),
                            detectable=pl.Series(edge, dtype=pl.Float64))


def tested_over_units(rows: pl.DataFrame, average: pl.DataFrame, method: str,
                      stratum: str | None = None) -> pl.DataFrame:
    """As ``tested``, for names that each stand for a sample of generated units (a colour: the
    generated decks of a run's pool of that colour), so that the answer is about the name,
    not about the units this run happened to generate. The seat-games of one unit share its luck
    of the draw (a strong deck wins all its games more often); counting them as independent
    made a dozen units look like tens of thousands of independent trials.

    rows: (players, name, unit, games, win_share, and the ``stratum`` column if given) seat-games
    and wins of the seats holding ``name`` with ``unit``; average as for ``tested``.

    Per name with two units or more: the rate is sum(wins) / sum(seat-games) (a ratio estimator
    over the units); its error the cluster-robust (CR1) one (``stats.cluster_ratio_se``), within
    the ``stratum`` when every stratum of the name holds two units or more (the design fixed the
    strata's units, e.g. every colour on every curve equally often, so the spread between strata
    is not sampling noise); df = units less strata. Interval r -/+ t(df) se; two-sided t-test of
    rate = expected; ``detectable``: (t at ALPHA / rows / 2 + t at POWER) * se, at Holm's first
    step (``stats.t_from_se``). A name
    held with one unit keeps ``tested``'s exact binomial test: its claim is about that unit.
    Holm over every row. Added columns: ``units`` (G) and ``df`` (NaN for a binomial row).
    """
    pooled = rows.group_by("players", "name").agg(pl.col("games", "win_share").sum())
    out = tested(pooled, average, method).with_columns(units=pl.lit(1, dtype=pl.Int64), df=pl.lit(math.nan))
    keys = ["players", "name", "unit"] + ([stratum] if stratum else [])
    units = rows.group_by(keys).agg(pl.col("games", "win_share").sum()).sort(keys)  # one order of float sums
    spread = {}  # (players, name) -> (G, se, df) for names held with two units or more
    for (players, name), g in units.group_by("players", "name", maintain_order=True):
        if g.height >= 2:
            se, df = stats.cluster_ratio_se(g["games"], g["win_share"], g[stratum] if stratum else None)
            spread[(players, name)] = g.height, se, df
    family = max(out.height, 1)
    columns = {c: out[c].to_list() for c in ("lo", "hi", "p_value", "detectable", "units", "df")}
    for i, r in enumerate(each_row(out)):
        if (r["players"], r["name"]) not in spread:
            continue
        g, se, df = spread[(r["players"], r["name"])]
        columns["units"][i] = g
        if not se > 0 or df < 1:  # every unit won at the same rate, or no spread to estimate: keep the binomial row
            continue
        half, columns["p_value"][i], columns["detectable"][i] = stats.t_from_se(
            r["difference"], se, df, family, 1 - ALPHA, POWER)
        columns["lo"][i], columns["hi"][i] = max(r["rate"] - half, 0.0), min(r["rate"] + half, 1.0)
        columns["df"][i] = float(df)
    p = np.array(columns["p_value"], dtype=float)
    return out.with_columns(**{c: pl.Series(v, dtype=out.schema[c]) for c, v in columns.items()},
                            p_adjusted=pl.Series(stats.holm(p) if p.size else p))


@functools.lru_cache(maxsize=4096)  # the rows of a player count often share their seat-games
def _detectable(games: int, expected: float, family: int) -> float:
    return detectable_binomial_difference(games, expected, POWER, ALPHA / family)


def ranked_lines(frame: pl.DataFrame, noun: str, ends: int | None = None, where: str = "the tables") -> list[tuple]:
    """One line per player count: the names whose rate differs from the average seat's
    (Holm-adjusted p < ALPHA), strongest first, or that none does and what this run could have
    detected. ends: name only the ``ends`` strongest and weakest of those found (the tables
    list every one)."""
    lines = []
    for (players,), g in frame.group_by("players", maintain_order=True):
        found = g.filter(pl.col("p_adjusted") < ALPHA).sort("difference", "name", descending=[True, False])
        average = f"the average seat's {pct(float(g['expected'][0]))}"
        if found.height:
            parts = [f"{_named(r)} {'above' if r['difference'] > 0 else 'below'}" for r in each_row(found)]
            if ends is not None and len(parts) > 2 * ends:
                parts = parts[:ends] + [f"... {len(parts) - 2 * ends} more ({where})"] + parts[-ends:]
            lines.append((f"{players} players: ", Strong(f"{found.height} {noun}s differ" if found.height > 1
                                                       else f"1 {noun} differs"),
                          f" from {average}: " + "; ".join(parts) + "." + _ends(g, noun),))
            continue
        far = g.row(int(g["difference"].abs().arg_max()), named=True)
        # a row the run cannot test reliably (NaN) leaves no "any" to state (polars' max skips NaN)
        edge = math.nan if g["detectable"].is_nan().any() else float(g["detectable"].max())
        power = (f"; this run detects any {noun} {pp(edge)} or more from the average with {POWER:.0%} power"
                 if not math.isnan(edge) else "; this run is too small to detect any difference reliably")
        lines.append((f"{players} players: ", Strong(f"no {noun} differs"), f" from {average} (furthest: "
                      f"{_named(far)}){power}.",))
    return lines


def _ends(g: pl.DataFrame, noun: str) -> str:
    """' Strongest: A (its interval above every other side's); weakest by estimate: B (its
    interval overlaps another's).': the test against the average says which
    names are strong, not which is the strongest; a designer asks that, and an interval apart
    from every other's answers it (``report.apart``: each comparison a test at 5% or less)."""
    from balance.analysis.report import apart

    if g.height < 3:  # two names: above and below the average already rank them
        return ""
    out = []
    for word, i, top in (("strongest", int(g["rate"].arg_max()), True), ("weakest", int(g["rate"].arg_min()), False)):
        name = g["name"][i]
        out.append(f"{word}: {name} (its interval {'above' if top else 'below'} every other {noun}'s)"
                   if apart(g, i, top=top) else
                   f"{word} by estimate: {name} (its interval overlaps another {noun}'s: not ranked)")
    return " " + out[0][0].upper() + out[0][1:] + "; " + out[1] + "."


def _named(r: dict) -> str:
    return (f"{r['name']} {pct(r['rate'])} ({LEVEL} CI {ci(r['lo'], r['hi'])}; adjusted "
            f"{p_phrase(r['p_adjusted'])})")
