"""From a run's tables to the small frames a report shows: rates with intervals and tests.

Every function takes the aggregated tables of a run directory (``balance.schema``) and returns
a small polars frame, one row per thing a designer looks at. Intervals: Wilson for counted
rates (Clopper-Pearson on request: ``method="clopper-pearson"``, for whole counts); for win
shares (fractional with ties) a normal interval on the per-game share with its observed
variance where the run kept the sum of squares, else Wilson on the share, which is
conservative because a share in [0, 1] has variance at most p(1 - p).
"""
from __future__ import annotations

import numpy as np
import polars as pl

from balance import stats

CONFIDENCE = 0.95


def _share_interval(frame: pl.DataFrame, share: str, sq: str | None, n: str, method: str) -> pl.DataFrame:
    """Add rate / lo / hi for ``share / n`` (share = a sum of per-game win shares)."""
    s = frame[share].to_numpy().astype(float)
    games = frame[n].to_numpy().astype(float)
    if sq is not None and sq in frame.columns:
        rate, lo, hi = stats.mean_ci(s, frame[sq].to_numpy().astype(float), games, CONFIDENCE)
    else:
        rate = np.divide(s, games, out=np.zeros_like(s), where=games > 0)
        if method == "clopper-pearson" and not np.all(s == np.round(s)):
            method = "wilson"  # fractional (tied) wins: no exact binomial interval
        lo, hi = stats.proportion_ci(s, games, CONFIDENCE, method)
    return frame.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi))


def _rate(frame: pl.DataFrame, num: str, den: str, name: str, method: str) -> pl.DataFrame:
    x = frame[num].to_numpy().astype(float)
    n = frame[den].to_numpy().astype(float)
    if method == "clopper-pearson" and not np.all(x == np.round(x)):
        method = "wilson"  # an exact binomial interval needs whole counts; shares are fractional
    lo, hi = stats.proportion_ci(x, n, CONFIDENCE, method)
    rate = np.divide(x, n, out=np.full_like(x, np.nan), where=n > 0)
    return frame.with_columns(**{name: pl.Series(rate), f"{name}_lo": pl.Series(lo), f"{name}_hi": pl.Series(hi)})


def seat_rates(seats: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, seat), pooled over strategies: win rate with CI, fair = 1/players."""
    pooled = (seats.group_by("players", "seat")
              .agg(pl.col("games", "win_share", "wins_outright", "wins_shared", "score_sum",
                          "score_sq_sum").sum(),
                   *([pl.col("win_share_sq_sum").sum()] if "win_share_sq_sum" in seats.columns else []))
              .sort("players", "seat"))
    out = _share_interval(pooled, "win_share", "win_share_sq_sum", "games", method)
    return out.with_columns(
        fair=1.0 / pl.col("players"),
        mean_score=pl.col("score_sum") / pl.col("games"),
    ).select("players", "seat", "games", "rate", "lo", "hi", "fair", "mean_score",
             "wins_outright", "wins_shared")


def strategy_seat(seats: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, strategy, seat): win rate with CI."""
    out = _share_interval(seats.sort("players", "strategy", "seat"), "win_share",
                          "win_share_sq_sum", "games", method)
    return out.with_columns(fair=1.0 / pl.col("players"),
                            mean_score=pl.col("score_sum") / pl.col("games")).select(
        "players", "strategy", "seat", "games", "rate", "lo", "hi", "fair", "mean_score")


def seat_fairness(seats: pl.DataFrame) -> pl.DataFrame:
    """Per player count: chi-square test of equal seat win shares and the largest seat gap;
    ``p_adjusted`` is Holm-corrected across the player counts of the run."""
    rows = []
    for (players,), group in seats.group_by("players", maintain_order=True):
        g = group.group_by("seat").agg(pl.col("games", "win_share").sum()).sort("seat")
        games = int(g["games"][0])
        shares = g["win_share"].to_numpy()
        chi2, dof, p = stats.seat_equality_test(shares, games)
        gap = stats.seat_gap(shares, games, CONFIDENCE)
        rows.append({"players": players, "games": games, "chi2": float(chi2), "dof": int(dof),
                     "p_value": float(p), "best_seat": int(gap["best"]), "worst_seat": int(gap["worst"]),
                     "gap": float(gap["gap"]), "gap_lo": float(gap["lo"]), "gap_hi": float(gap["hi"]),
                     "detectable_edge": float(stats.detectable_rate_edge(games, players))})
    out = pl.DataFrame(rows).with_columns(pl.col("players").cast(pl.Int8)).sort("players")
    # One test per player count: Holm keeps the chance of any false "unfair" verdict <= alpha.
    return out.with_columns(p_adjusted=pl.Series(stats.holm(out["p_value"].to_numpy())))


def matchups(pairs: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """Head to head, one row per (players, strategy, opponent): how often a seat of ``strategy``
    outscored a seat of ``opponent`` in the same game, level scores counting half.

    Pooled over every ordered pair of seats holding those strategies (seat-rotated runs make
    seat effects cancel). ``rate`` 0.5 means an even matchup; Wilson interval on the pooled
    score, conservative because level games count half. A strategy facing itself is included.
    """
    pooled = (pairs.group_by("players", "strategy", "opponent_strategy")
              .agg(pl.col("games", "ahead", "level").sum())
              .with_columns(points=pl.col("ahead") + pl.col("level") / 2)
              .sort("players", "strategy", "opponent_strategy"))
    out = _rate(pooled, "points", "games", "rate", method)
    return out.rename({"rate_lo": "lo", "rate_hi": "hi"}).select(
        "players", "strategy", "opponent_strategy", "games", "ahead", "level", "rate", "lo", "hi")


def card_strength(cards: pl.DataFrame, method: str = "wilson", correction: str = "holm") -> pl.DataFrame:
    """One row per (players, card), pooled over seats and strategies.

    Rates per play: rewarded, cancelled, lowest card of a defeat (Wilson). ``win_rate_rewarded``:
    the win share of players in games where this card won them tokens, with a conservative
    Wilson interval. Winning tokens goes with winning games whatever the card, so each card is
    judged against the other cards of its player count (``others``: their pooled rate, as
    17lands compares a card with the format average): ``p_value`` is a two-proportion z-test
    of the two (approximate: one game can count for several cards of a player), and
    ``p_adjusted`` corrects across the cards of each player count (Holm or Benjamini-Hochberg).
    """
    pooled = (cards.group_by("players", "card")
              .agg(pl.exclude("seat", "strategy").sum()).sort("players", "card"))
    out = pooled
    for num, name in (("rewarded", "reward_rate"), ("cancelled", "cancel_rate"),
                      ("lowest_on_defeat", "defeat_rate")):
        out = _rate(out, num, "played", name, method)
    out = _rate(out, "win_share_rewarded", "games_rewarded", "win_rate_rewarded", method)
    out = _rate(out, "win_share_played", "games_played", "win_rate_played", method)
    out = out.with_columns(
        others_x=pl.col("win_share_rewarded").sum().over("players") - pl.col("win_share_rewarded"),
        others_n=pl.col("games_rewarded").sum().over("players") - pl.col("games_rewarded"),
    )
    x, n = out["win_share_rewarded"].to_numpy().astype(float), out["games_rewarded"].to_numpy().astype(float)
    xo, no = out["others_x"].to_numpy().astype(float), out["others_n"].to_numpy().astype(float)
    usable = (n > 0) & (no > 0)
    pvals = np.ones(len(x))
    if usable.any():
        pvals[usable] = stats.two_proportion_test(x[usable], n[usable], xo[usable], no[usable])[2]
    adjust = stats.holm if correction == "holm" else stats.benjamini_hochberg
    adjusted = np.empty_like(pvals)
    players = out["players"].to_numpy()
    for n_players in np.unique(players):
        mask = players == n_players
        adjusted[mask] = adjust(pvals[mask])
    out = out.with_columns(others=pl.col("others_x") / pl.col("others_n")).drop("others_x", "others_n")
    return out.with_columns(
        tokens_per_play=pl.col("tokens_gained") / pl.col("played"),
        lost_per_defeat=pl.col("tokens_lost") / pl.col("lowest_on_defeat"),
        p_value=pl.Series(pvals), p_adjusted=pl.Series(adjusted),
        fair=1.0 / pl.col("players"),
    )


def villain_strength(villains: pl.DataFrame, method: str = "wilson") -> pl.DataFrame:
    """One row per (players, villain): the heroes' success rate with CI and tokens per fight."""
    out = _rate(villains.sort("players", "battle", "strength"), "beaten", "fought", "success_rate", method)
    return out.with_columns(
        tokens_per_fight=(pl.col("reward_tokens") + pl.col("centre_tokens")) / pl.col("fought"),
        lost_per_fight=pl.col("tokens_lost") / pl.col("fought"),
    )


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
