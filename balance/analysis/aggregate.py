"""From a run's tables to the small frames a report shows: rates with intervals and tests.

Every function takes the aggregated tables of a run directory (``balance.core.schema``) and returns
a small polars frame, one row per thing a designer looks at. Intervals: Wilson for counted
rates (Clopper-Pearson on request: ``method="clopper-pearson"``, for whole counts); for win
shares (fractional with ties) a normal interval on the per-game share with its observed
variance where the run kept the sum of squares, else Wilson on the share, which is
conservative because a share in [0, 1] has variance at most p(1 - p).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from balance.analysis import stats

CONFIDENCE = 0.95
POWER = 0.9  # the power a detectable difference is sized for (as the report's)
# How a game's report part names the binomial intervals: the report's --interval chooses them,
# and its Methods name the one used.
INTERVALS = "binomial intervals (Wilson, or Clopper-Pearson with --interval clopper-pearson)"


def interval_name(method: str) -> str:
    """'Wilson' or 'Clopper-Pearson': the binomial interval ``method`` (stats.PROPORTION_METHODS)."""
    return {"wilson": "Wilson", "clopper-pearson": "Clopper-Pearson"}.get(method, method)


def share_interval(frame: pl.DataFrame, share: str, sq: str | None, n: str, method: str) -> pl.DataFrame:
    """Add rate / lo / hi for ``share / n`` (share = a sum of per-game win shares)."""
    s = frame[share].to_numpy().astype(float)
    games = frame[n].to_numpy().astype(float)
    if sq is not None and sq in frame.columns:
        rate, lo, hi = stats.share_ci(s, frame[sq].to_numpy().astype(float), games, CONFIDENCE)
    else:
        rate = np.divide(s, games, out=np.zeros_like(s), where=games > 0)
        if method == "clopper-pearson" and not np.all(s == np.round(s)):
            method = "wilson"  # fractional (tied) wins: no exact binomial interval
        lo, hi = stats.proportion_ci(s, games, CONFIDENCE, method)
    return frame.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi))


def rate(frame: pl.DataFrame, num: str, den: str, name: str, method: str) -> pl.DataFrame:
    x = frame[num].to_numpy().astype(float)
    n = frame[den].to_numpy().astype(float)
    if method == "clopper-pearson" and not np.all(x == np.round(x)):
        method = "wilson"  # an exact binomial interval needs whole counts; shares are fractional
    lo, hi = stats.proportion_ci(x, n, CONFIDENCE, method)
    rate = np.divide(x, n, out=np.full_like(x, np.nan), where=n > 0)
    return frame.with_columns(**{name: pl.Series(rate), f"{name}_lo": pl.Series(lo), f"{name}_hi": pl.Series(hi)})


def fair_rate() -> pl.Expr:
    """A seat's fair win rate at its player count, over rows pooled per (players, seat) or per
    (players, strategy[, seat]): 1/n of the wins handed out per game, fewer than one a game
    when the turn cap stopped some (the rows' win shares summed over their seat-games, each
    game counted once per seat)."""
    return pl.col("win_share").sum().over("players") / pl.col("games").sum().over("players")


def fair_share(fairness: dict) -> float:
    """One seat's fair share at a table, from a run's ``seat_fairness`` row: 1/n of the games that
    handed out a win (a game the turn cap stopped hands out none); 1/n exactly when none was
    capped (what ``fair_rate`` gives pooled rows)."""
    played = fairness["games"] + fairness["capped"]
    return fairness["games"] / played / fairness["players"] if played else 1.0 / fairness["players"]


def seat_rates(seats: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, seat), pooled over strategies: win rate with CI, fair = 1/players
    of the games that handed out a win (all of them unless some hit the turn cap)."""
    pooled = (seats.group_by("players", "seat")
              .agg(pl.col("games", "win_share", "wins_outright", "wins_shared", "score_sum",
                          "score_sq_sum").sum(),
                   *([pl.col("win_share_sq_sum").sum()] if "win_share_sq_sum" in seats.columns else []))
              .sort("players", "seat"))
    out = share_interval(pooled, "win_share", "win_share_sq_sum", "games", method)
    return out.with_columns(
        fair=fair_rate(),
        mean_score=pl.col("score_sum") / pl.col("games"),
    ).select("players", "seat", "games", "rate", "lo", "hi", "fair", "mean_score",
             "wins_outright", "wins_shared")


def strategy_seat(seats: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, strategy, seat): win rate with CI."""
    out = share_interval(seats.sort("players", "strategy", "seat"), "win_share",
                          "win_share_sq_sum", "games", method)
    return out.with_columns(fair=fair_rate(),  # as the seats': a capped game hands out no win
                            mean_score=pl.col("score_sum") / pl.col("games")).select(
        "players", "strategy", "seat", "games", "rate", "lo", "hi", "fair", "mean_score")


def seat_fairness(seats: pl.DataFrame, power: float = 0.9) -> pl.DataFrame:
    """Per player count: the chi-square test of equal seat win shares, the seat gap and the
    edge this run can detect, over the finished games (``games``; ``capped``: games stopped by
    the turn cap, which hand out no win).

    ``p_adjusted``: Holm over the player counts of the run that could be tested. ``gap``:
    best seat's win rate minus the worst seat's. ``detectable_edge``: the smallest deviation of
    a seat's win rate from 1/n that this test, in this Holm family, finds with ``power``
    (``stats.detectable_seat_edge``). ``constant``: no seat's share ever varied (every game
    ended the same way for every seat, e.g. every game an n-way tie): there is nothing to test,
    so chi2, p and the detectable edge are NaN. ``all_tied``: every game's win was shared by
    every seat.
    """
    rows = []
    sq = "win_share_sq_sum" in seats.columns
    for (players,), group in seats.group_by("players", maintain_order=True):
        g = (group.group_by("seat")
             .agg(pl.col("games", "win_share", "wins_shared", *(["win_share_sq_sum"] if sq else [])).sum())
             .sort("seat"))
        played = int(g["games"][0])
        shares = g["win_share"].to_numpy()
        # Every finished game hands out exactly one win (a game stopped by the turn cap none), so
        # the shares add up to the finished games: the seats are tested on those.
        games = int(round(float(shares.sum())))
        # every game a tie shared by all (none when no game finished: the turn cap stopped them all)
        all_tied = games > 0 and bool((g["wins_shared"] == games).all() and np.allclose(shares, games / players))
        if sq:  # a share's variance is (sum_sq - sum^2 / n) / (n - 1): zero for every seat?
            spread = g["win_share_sq_sum"].to_numpy() - shares**2 / max(games, 1)
            constant = bool(np.all(spread <= 1e-9 * np.maximum(g["win_share_sq_sum"].to_numpy(), 1.0)))
        else:  # runs written before the squares were kept: the cases that can be told apart
            constant = all_tied or bool(np.any(shares == games))
        constant = constant or games == 0
        chi2, dof, p = (math.nan, players - 1, math.nan) if constant else stats.seat_equality_test(shares, games)
        gap = (stats.seat_gap(shares, games, CONFIDENCE) if games else
               {"best": 0, "worst": 0, "gap": math.nan, "lo": math.nan, "hi": math.nan})
        rows.append({"players": players, "games": games, "capped": played - games,
                     "chi2": float(chi2), "dof": int(dof),
                     "p_value": float(p), "best_seat": int(gap["best"]), "worst_seat": int(gap["worst"]),
                     "gap": float(gap["gap"]), "gap_lo": float(gap["lo"]), "gap_hi": float(gap["hi"]),
                     "constant": constant, "all_tied": all_tied})
    out = pl.DataFrame(rows).with_columns(pl.col("players").cast(pl.Int8)).sort("players")
    # One test per player count that has one: Holm keeps the chance of any false "unfair"
    # verdict <= alpha, and the detectable edge is sized for that same family.
    tested = ~out["constant"].to_numpy()
    family = int(tested.sum())
    adjusted = np.full(out.height, math.nan)
    edges = np.full(out.height, math.nan)
    if family:
        adjusted[tested] = stats.holm(out["p_value"].to_numpy()[tested])
        for i in map(int, np.flatnonzero(tested)):
            edges[i] = stats.detectable_seat_edge(int(out["games"][i]), int(out["players"][i]),
                                                  family=family, power=power)
    return out.with_columns(p_adjusted=pl.Series(adjusted), detectable_edge=pl.Series(edges))


def seat_edges(seats: pl.DataFrame, fairness: pl.DataFrame) -> pl.DataFrame | None:
    """Which seats win more or less than fair: one row per (players, seat) of every player count
    ``fairness`` could test, with ``edge`` (the seat's win rate minus the fair rate, both over
    every game played, capped ones counted as won by no one), ``p_value`` (``stats.mean_test``
    of the per-game win shares against the fair rate) and ``p_adjusted`` (Holm over every seat
    of every tested count, so the chance of naming any fair seat is at most alpha).

    The equal-seats chi-square says whether the seats differ; this says which. The seats with
    the highest and lowest rates are not evidence by themselves: with four fair seats and one
    weak one, the highest of the four is the luck of the draw. None when the run kept no
    squared shares (runs written before them): no per-seat variance to test with.
    """
    if "win_share_sq_sum" not in seats.columns:
        return None
    tested = fairness.filter(~pl.col("constant"))["players"].to_list()
    pooled = (seats.filter(pl.col("players").is_in(tested))
              .group_by("players", "seat").agg(pl.col("games", "win_share", "win_share_sq_sum").sum())
              .sort("players", "seat"))
    if not pooled.height:
        return None
    pooled = pooled.with_columns(fair=fair_rate())
    rows = []
    for r in pooled.iter_rows(named=True):
        test = stats.mean_test(r["win_share"], r["win_share_sq_sum"], r["games"], r["fair"])
        rows.append({"players": r["players"], "seat": r["seat"], "edge": test["mean"], "p_value": test["pvalue"]})
    out = pl.DataFrame(rows)
    return out.with_columns(p_adjusted=pl.Series(stats.holm(out["p_value"].to_numpy())))


def matchups(pairs: pl.DataFrame, method: str = "wilson", by: str = "strategy") -> pl.DataFrame:
    """Head to head, one row per (players, strategy, opponent): how often a seat of ``strategy``
    outscored a seat of ``opponent`` in the same game, level scores counting half.

    Pooled over every ordered pair of seats holding those strategies (seat-rotated runs make
    seat effects cancel). ``rate`` 0.5 means an even matchup; Wilson interval on the pooled
    score, conservative because level games count half. A strategy facing itself is included.
    by="side": the same matrix of sides (what the seats played as); the columns keep the
    names ``strategy`` and ``opponent_strategy`` so one heatmap draws both.
    """
    if by == "side":
        pairs = (pairs.filter(pl.col("side") != "")
                 .drop("strategy", "opponent_strategy")
                 .rename({"side": "strategy", "opponent_side": "opponent_strategy"}))
    pooled = (pairs.group_by("players", "strategy", "opponent_strategy")
              .agg(pl.col("games", "ahead", "level").sum())
              .with_columns(points=pl.col("ahead") + pl.col("level") / 2)
              .sort("players", "strategy", "opponent_strategy"))
    out = rate(pooled, "points", "games", "rate", method)
    return out.rename({"rate_lo": "lo", "rate_hi": "hi"}).select(
        "players", "strategy", "opponent_strategy", "games", "ahead", "level", "rate", "lo", "hi")


def card_effects(trials: pl.DataFrame, units: pl.DataFrame | None = None) -> pl.DataFrame:
    """Causal card strength: one row per (players, card, when) from a run's ``card_strength``
    table (restricted play, paired game by game), pooled over the denied seats.

    units: the run's ``card_strength_units`` table (card_trials.UNITS_TABLE), written by a game
    whose cards sit in units drawn from a generated pool (decks): then those are the test's
    units (``_over_units``), and a card held by one unit is not tested.

    ``difference`` is the mean per-game change of the denied seat's win share (restricted minus
    as played; negative: losing the card hurts), with a normal interval from the observed
    variance of the paired differences (``stats.paired_mean_test``). ``p_adjusted``: Holm over
    every card and player count of the run (one family: the verdict reads them together).
    ``unchanged``: not one game's win share moved (the differences are all zero), so the card
    made no difference at all in these games and there is no test to speak of. A card paired
    in fewer than 2 games has no interval and no test (null lo, hi, p_value, p_adjusted).
    ``detectable``: the change this card's test finds with POWER at Holm's first level
    alpha / m over the m tested rows (a card whose own p is below it is found whatever the
    others show), from its own interval (``stats.detectable_from_interval``). With ``units``
    the interval, test and detectable change are the t ones over the units (``_over_units``),
    and the table gains ``units`` (how many held the card).
    """
    pooled = (trials.group_by("players", "card", "when")
              .agg(pl.col("games", "win_share_unrestricted", "win_share_restricted", "diff_sq_sum").sum())
              .sort("players", "card"))
    games = pooled["games"].to_numpy().astype(float)
    base = pooled["win_share_unrestricted"].to_numpy()
    denied = pooled["win_share_restricted"].to_numpy()
    # a card paired in fewer than 2 games (a rare card of a short run) has no variance: its row
    # keeps its mean but no interval or test, and stays out of the Holm family
    tested = games >= 2
    mean = (denied - base) / games  # every row has games >= 1
    lo, hi, p = (np.full(len(games), np.nan) for _ in range(3))
    if tested.any():
        test = stats.paired_mean_test((denied - base)[tested], pooled["diff_sq_sum"].to_numpy()[tested],
                                      games[tested], CONFIDENCE)
        lo[tested], hi[tested], p[tested] = test["lo"], test["hi"], test["pvalue"]
    detectable = (stats.detectable_from_interval(lo, hi, CONFIDENCE, POWER, (1 - CONFIDENCE) / max(tested.sum(), 1))
                  if len(games) else np.array([]))
    held = None
    if units is not None and not units.is_empty():
        lo, hi, p, detectable, held = _over_units(pooled, units, mean, lo, hi, p, detectable)
    adjusted = np.full(len(games), np.nan)
    tested = ~np.isnan(p)
    adjusted[tested] = stats.holm(p[tested])
    out = pooled.with_columns(
        unrestricted=pl.Series(base / games), restricted=pl.Series(denied / games),
        # untested rows get nulls, not NaN: polars orders NaN above every number, so a NaN p would
        # pass a ">= alpha" filter as "no detectable difference"
        difference=pl.Series(mean), lo=pl.Series(lo, nan_to_null=True), hi=pl.Series(hi, nan_to_null=True),
        p_value=pl.Series(p, nan_to_null=True), p_adjusted=pl.Series(adjusted, nan_to_null=True),
        unchanged=pl.col("diff_sq_sum") == 0,
        detectable=pl.Series(np.atleast_1d(detectable), dtype=pl.Float64, nan_to_null=True),
    ).select("players", "card", "when", "games", "unrestricted", "restricted", "difference", "lo",
             "hi", "p_value", "p_adjusted", "unchanged", "detectable")
    return out if held is None else out.with_columns(units=pl.Series(held, dtype=pl.Int64))


def _over_units(pooled: pl.DataFrame, units: pl.DataFrame, mean, lo, hi, p, detectable) -> tuple:
    """(lo, hi, p, detectable, units) of ``pooled``'s rows (players, card, when) over the sampled
    units of ``units`` (a game's generated decks): a card's change differs from unit to unit, and
    the units are a sample of what the generator deals, so a card's claim beyond this pool rests
    on how many units hold it, not on how many games they played. The mean stays the pooled
    paired change; its standard error is the cluster-robust one over the units
    (``stats.cluster_ratio_se``), a t interval and test on the units less one degree of freedom,
    ``detectable`` (t at ALPHA / m / 2 + t at POWER) times it, m the tested rows (Holm's first
    level). A card held by one unit has no spread to judge it by: untested (NaN). A card whose
    units all changed alike (no spread, e.g. no game changed) keeps the per-game row."""
    # sorted: the float sums of cluster_ratio_se then run in one order (a group_by's own order changes from
    # call to call, and with it the last bits of lo, hi and p: restrict.parquet differed between two runs)
    per = units.group_by("players", "card", "when", "unit").agg(
        pl.col("games").sum(), (pl.col("win_share_restricted") - pl.col("win_share_unrestricted")).sum().alias("d")
    ).sort("players", "card", "when", "unit")
    spread = {key: (g.height, *stats.cluster_ratio_se(g["games"], g["d"]))
              for key, g in per.group_by("players", "card", "when", maintain_order=True)}
    lo, hi, p, detectable = (np.array(x, float, copy=True) for x in (lo, hi, p, detectable))
    held = np.zeros(pooled.height, np.int64)
    keys = list(pooled.select("players", "card", "when").iter_rows())
    for i, key in enumerate(keys):
        held[i] = spread.get(key, (0,))[0]
        if held[i] < 2:
            lo[i] = hi[i] = p[i] = detectable[i] = math.nan
    family = max(int((~np.isnan(p)).sum()), 1)  # the tested rows, Holm's family
    for i, key in enumerate(keys):
        g, se, df = spread.get(key, (0, math.nan, 0))
        if g >= 2 and se > 0:
            half, p[i], detectable[i] = stats.t_from_se(mean[i], se, df, family, CONFIDENCE, POWER)
            lo[i], hi[i] = mean[i] - half, mean[i] + half
    return lo, hi, p, detectable, held


def outcome_shares(outcomes: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, outcome): its share of the games with CI, the games won in it
    (cooperative: the team's wins) and the mean game length with its normal CI."""
    pooled = (outcomes.group_by("players", "outcome", maintain_order=True)
              .agg(pl.col("games", "length_sum", "length_sq_sum", "won").sum())
              .with_columns(all_games=pl.col("games").sum().over("players")))
    out = rate(pooled, "games", "all_games", "share", method)
    n = out["games"].to_numpy().astype(float)
    mean, lo, hi = stats.mean_ci(out["length_sum"].to_numpy().astype(float),
                                 out["length_sq_sum"].to_numpy().astype(float), n, CONFIDENCE)
    return out.with_columns(length_mean=pl.Series(mean),
                            length_lo=pl.Series(lo), length_hi=pl.Series(hi))


def team_rates(outcomes: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """A cooperative game's team win rate per player count, with its interval: games won over
    every game played (a game stopped by the turn cap counts as not won)."""
    pooled = (outcomes.group_by("players").agg(pl.col("games", "won").sum()).sort("players"))
    return rate(pooled, "won", "games", "rate", method).rename({"rate_lo": "lo", "rate_hi": "hi"})


def side_rates(seats: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """Per (players, side): the win rate of the seats that played the side, pooled over seats
    and strategies, with its interval (cooperative: the team's win rate when the side was in
    it). Descriptive: the rest of the table varied with it."""
    pooled = (seats.filter(pl.col("side") != "").group_by("players", "side")
              .agg(pl.col("games", "win_share").sum()).sort("players", "side"))
    # Wilson on the summed share: exact coverage for 0/1 results (a team's), conservative with
    # shared wins; the observed-variance interval would collapse at a rate of 0 or 1.
    return share_interval(pooled, "win_share", None, "games", method)


def score_summary(scores: pl.DataFrame) -> pl.DataFrame:
    """Per (players, strategy): mean, sd and quartiles of the final score."""
    rows = []
    for (players, strategy), g in scores.group_by("players", "strategy", maintain_order=True):
        g = g.group_by("score").agg(pl.col("count").sum()).sort("score")
        s, c = g["score"].to_numpy().astype(float), g["count"].to_numpy().astype(float)
        n = c.sum()
        mean = (s * c).sum() / n
        sd = np.sqrt(max((c * (s - mean) ** 2).sum() / max(n - 1, 1), 0.0))
        cum = np.cumsum(c) / n
        q = [float(s[np.searchsorted(cum, x)]) for x in (0.25, 0.5, 0.75)]
        rows.append({"players": players, "strategy": strategy, "games": int(n), "mean": mean,
                     "sd": sd, "q25": q[0], "median": q[1], "q75": q[2], "max": float(s[-1])})
    return pl.DataFrame(rows).with_columns(pl.col("players").cast(pl.Int8)).sort("players", "strategy")
