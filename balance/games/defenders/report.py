"""Defenders of the Realm's own report sections: which heroes and hero pairs help the team, why
games are lost, which general reaches Monarch City most often, each general's kill rate, the combat odds
computed exactly and checked against the simulation, and the King's Champion.

Why the hero tests are causal: a run that draws its team per game (no --side) draws the heroes
from the game's side stream, independently of everything else, so the team win rate of the
games with a hero against the games without it is the hero's doing (averaged over its
team-mates). With the heroes given, the numbers describe the teams that played.

The generic run report (balance.analysis.report) calls these through the game's declaration;
it already shows the team's win rate by player count and by team, and how games end.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator
import numpy as np
import polars as pl

from balance.analysis import aggregate, plots, stats
from balance.analysis.document import (Bullets, Code, Figure, Para, Section, Strong, Table, ci, count, counted, num,
                                       p_phrase, pct, pp, pvalue)
from balance.analysis.report import ALPHA, LEVEL, POWER, and_list, each_row, players_phrase

from .catalogue import GENERALS
from .odds import GENERALS as ODDS, kill_probability

FIGURES = ("heroes", "generals", "losses", "combat_odds")
LOSSES = ("general in city", "no minions", "no taint", "city overrun")
LOSS_WORDS = {"general in city": "a general reaching Monarch City", "no minions": "the minion supply running out",
              "no taint": "the last taint crystal", "city overrun": "Monarch City overrun"}
MAX_TABLE_DICE = 14  # the attack-size table's rows
DICE_TOO_FEW = 0.5  # a dice check that would miss a kill rate off by half says nothing
DIRECT = 64  # laws this short are convolved directly; longer pairs by FFT (the faster from here)
MIN_POINT = 20  # plain combats of one size the figure needs to show the simulated rate


@dataclass
class DefendersAnalysis:
    """heroes / pairs: per (players, name) the team win rate of the games with the hero (both
    heroes of the pair) and without, the difference and Holm-adjusted p (``presence``; a
    description: a hero's presence also displaces others); swaps: per (players, hero, other)
    the swap contrast that decides which hero is stronger (``swaps``); losses: per (players,
    cause) its share of the lost games; top_loss: per player count the commonest cause against
    the next (``leader``); generals: per (players, general) its kill and city rates; threat:
    per player count the general that entered Monarch City most often against the next
    (``leader``); odds: per general the lone heroes' combats, kills and the kills the exact
    odds expect (``odds_check``); attack: the plain combats by attack size (``attack_sizes``);
    champions: the King's Champion score shares; hero_detail: per (players, hero) deaths,
    slain generals and title share per game; drawn: the team was drawn per game (the hero
    tests are causal)."""

    heroes: pl.DataFrame
    swaps: pl.DataFrame
    pairs: pl.DataFrame
    losses: pl.DataFrame
    top_loss: pl.DataFrame
    generals: pl.DataFrame
    threat: pl.DataFrame
    odds: pl.DataFrame
    attack: pl.DataFrame
    champions: pl.DataFrame
    hero_detail: pl.DataFrame
    drawn: bool


def analyse(tables: dict, manifest: dict, method: str) -> DefendersAnalysis | None:
    """The game's frames from a run's tables, or None when the run lacks them."""
    needed = ("teams", "generals", "combats", "heroes", "champions", "outcomes")
    if any(t not in tables for t in needed):
        return None
    teams = tables["teams"]
    heroes = presence(teams, 1, method)
    pairs = presence(teams, 2, method)
    hero_swaps = swaps(teams)
    losses, top_loss = loss_ranking(tables["outcomes"], method)
    g = tables["generals"].group_by("players", "general", maintain_order=True).agg(
        pl.col("games", "slain", "in_city", "step_sum").sum())
    generals = aggregate.rate(aggregate.rate(g, "slain", "games", "kill", method), "in_city", "games", "city", method)
    hero_detail = tables["heroes"].group_by("players", "hero").agg(
        pl.col("games", "deaths", "slain", "champion_units", "champion_units_won", "won").sum()).with_columns(
        deaths_per_game=pl.col("deaths") / pl.col("games"), slain_per_game=pl.col("slain") / pl.col("games"),
        title=pl.col("champion_units") / 60 / pl.col("games")).sort("players", "hero")
    champions = tables["champions"].group_by("players", "score").agg(pl.col("games", "won").sum()).with_columns(
        share=pl.col("games") / pl.col("games").sum().over("players"),
        share_won=pl.when(pl.col("won").sum().over("players") > 0)
        .then(pl.col("won") / pl.col("won").sum().over("players")).otherwise(None)).sort("players", "score")
    return DefendersAnalysis(heroes, hero_swaps, pairs, losses, top_loss, generals, leader(g, "general", "in_city"),
                             odds_check(tables["combats"]),
                             attack_sizes(tables["combats"], method), champions, hero_detail,
                             manifest.get("sides") == "drawn")


def compared(out: pl.DataFrame) -> pl.DataFrame:
    """Two groups per row (``won`` of ``games`` against ``other_won`` of ``other_games``): the
    difference of their win rates, the two-sided p-value of Fisher's exact test (exact at any
    count: a team win rate of a few per cent leaves cells near 0, where a z-test's normal
    approximation is not to be trusted) and Holm over every row."""
    from scipy.stats import fisher_exact

    if out.height == 0:
        return out.with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in ("difference", "p_value", "p_adjusted")))
    won, n, other_won, other_n = (out[c].to_numpy() for c in ("won", "games", "other_won", "other_games"))
    p = np.array([fisher_exact([[w, m - w], [ow, om - ow]]).pvalue
                  for w, m, ow, om in zip(won, n, other_won, other_n)], dtype=float)
    return out.with_columns(difference=pl.Series(won / n - other_won / other_n), p_value=pl.Series(p),
                            p_adjusted=pl.Series(stats.holm(p)))


def swap_detectable(count: pl.DataFrame, family: int) -> float:
    """The change of the team's win rate that one swap of heroes at this count would show with
    POWER: exact power of Fisher's test at the Bonferroni level ALPHA / family (Holm's first
    step; Holm finds at least as much), one hero raising the team's win rate by d over the
    count's. ``count``: the swaps rows of one player count; the sizes are the fewest games on
    either side of any of them (fewer games find less), so every swap of the count detects d
    at least as well, up to a discrete test's small steps. NaN when not even a hero winning
    every game it plays would be found."""
    from balance.analysis.exact_power import detectable_fisher_difference

    rate = (count["won"] + count["other_won"]).sum() / (count["games"] + count["other_games"]).sum()
    return detectable_fisher_difference(int(count["games"].min()), int(count["other_games"].min()), float(rate),
                                        POWER, ALPHA / family)


def presence(teams: pl.DataFrame, size: int, method: str) -> pl.DataFrame:
    """Per (players, name): the team win rate of the games whose team holds the hero (size 1)
    or both heroes of a pair (size 2) against the other games at that count (``compared``:
    Fisher's exact test, Holm over every row, one family per ``size``). A name held by every
    team (a pool as large as the team) has nothing to compare and is left out."""
    rows = []
    for (players,), g in teams.group_by("players", maintain_order=True):
        members = [set(t.split("+")) for t in g["team"].to_list()]
        games, won = g["games"].to_numpy(), g["won"].to_numpy()
        heroes = sorted(set().union(*members))
        for names in combinations(heroes, size):
            holds = np.array([set(names) <= m for m in members])
            n1, n2 = int(games[holds].sum()), int(games[~holds].sum())
            if n1 and n2:
                rows.append({"players": players, "name": "+".join(names), "games": n1,
                             "won": int(won[holds].sum()), "other_games": n2, "other_won": int(won[~holds].sum())})
    out = pl.DataFrame(rows, schema={"players": pl.Int64, "name": pl.String, "games": pl.Int64, "won": pl.Int64,
                                     "other_games": pl.Int64, "other_won": pl.Int64})
    out = aggregate.rate(out, "won", "games", "rate", method).rename({"rate_lo": "lo", "rate_hi": "hi"})
    out = out.with_columns(other_rate=pl.col("other_won") / pl.col("other_games"),
                           expected=(pl.col("won") + pl.col("other_won")) / (pl.col("games") + pl.col("other_games")))
    return compared(out)


def swaps(teams: pl.DataFrame) -> pl.DataFrame:
    """Per (players, hero, other), hero < other in name order: the team win rate of the games
    whose team holds the hero but not the other, against those holding the other but not the
    hero (``compared``: Fisher's exact test, Holm over every pair and player count). With teams
    drawn at random the rest of the team is distributed alike in both, so the difference is the
    effect of swapping one hero for the other; the presence test cannot say this, since a team
    holding one hero holds fewer of the others (a strong hero makes every other look weak)."""
    rows = []
    for (players,), g in teams.group_by("players", maintain_order=True):
        members = [set(t.split("+")) for t in g["team"].to_list()]
        games, won = g["games"].to_numpy(), g["won"].to_numpy()
        for hero, other in combinations(sorted(set().union(*members)), 2):
            one = np.array([hero in m and other not in m for m in members])
            two = np.array([other in m and hero not in m for m in members])
            n1, n2 = int(games[one].sum()), int(games[two].sum())
            if n1 and n2:
                rows.append({"players": players, "hero": hero, "other": other, "games": n1, "won": int(won[one].sum()),
                             "other_games": n2, "other_won": int(won[two].sum())})
    return compared(pl.DataFrame(rows, schema={"players": pl.Int64, "hero": pl.String, "other": pl.String,
                                               "games": pl.Int64, "won": pl.Int64, "other_games": pl.Int64,
                                               "other_won": pl.Int64}))


def ranking(swaps: pl.DataFrame) -> pl.DataFrame:
    """Per (players, hero), the swap tests summed up: ``beats`` (heroes it is found stronger
    than, Holm-adjusted p < ALPHA), ``beaten`` (heroes found stronger than it), ``net`` (the one
    minus the other; ``rank`` 1 the highest, equal nets sharing a rank: ``shared``) and ``mean_swap`` (its
    win-rate difference averaged over the swaps with every other hero, a description). A
    ranking decided by the tests that decide each pair, not a new test of its own."""
    rows = []
    for (players,), g in swaps.group_by("players", maintain_order=True):
        heroes = sorted(set(g["hero"]) | set(g["other"]))
        beats, beaten, diffs = ({h: 0 for h in heroes}, {h: 0 for h in heroes}, {h: [] for h in heroes})
        for r in each_row(g):
            diffs[r["hero"]].append(r["difference"])
            diffs[r["other"]].append(-r["difference"])
            if r["p_adjusted"] < ALPHA:
                winner, loser = (r["hero"], r["other"]) if r["difference"] > 0 else (r["other"], r["hero"])
                beats[winner] += 1
                beaten[loser] += 1
        rows += [{"players": players, "hero": h, "beats": beats[h], "beaten": beaten[h], "net": beats[h] - beaten[h],
                  "mean_swap": float(np.mean(diffs[h]))} for h in heroes]
    out = pl.DataFrame(rows, schema={"players": pl.Int64, "hero": pl.String, "beats": pl.Int64, "beaten": pl.Int64,
                                     "net": pl.Int64, "mean_swap": pl.Float64})
    out = out.with_columns(rank=pl.col("net").rank("min", descending=True).over("players").cast(pl.Int64))
    out = out.with_columns(shared=pl.len().over("players", "rank") > 1)  # printed "2=": another hero ranks alike
    return out.sort("players", "rank", "mean_swap", descending=[False, False, True])


def leader(counts: pl.DataFrame, name: str, n: str) -> pl.DataFrame:
    """Per player count, the commonest of ``counts``' rows (``name``, count ``n``; one game counts
    once, so the counts are one multinomial sample) against the next: among the games either
    ended, an exact binomial test that each was as likely; Holm over the player counts.
    Columns: first, second, first_n, second_n, total (every row's games), p_value, p_adjusted."""
    from scipy.stats import binomtest

    rows = []
    for (players,), g in counts.group_by("players", maintain_order=True):
        g = g.sort(n, name, descending=[True, False])
        if g.height < 2:
            continue
        a, b = int(g[n][0]), int(g[n][1])
        rows.append({"players": players, "first": g[name][0], "second": g[name][1], "first_n": a, "second_n": b,
                     "total": int(g[n].sum()), "p_value": float(binomtest(a, a + b, 0.5).pvalue) if a + b else 1.0})
    out = pl.DataFrame(rows, schema={"players": pl.Int64, "first": pl.String, "second": pl.String,
                                     "first_n": pl.Int64, "second_n": pl.Int64, "total": pl.Int64,
                                     "p_value": pl.Float64})
    p = out["p_value"].to_numpy()
    return out.with_columns(p_adjusted=pl.Series(stats.holm(p) if p.size else p, dtype=pl.Float64))


def loss_ranking(outcomes: pl.DataFrame, method: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per (players, cause): its share of the lost games (Wilson interval); and per player count
    the commonest cause against the next (``leader``)."""
    lost = (outcomes.filter(pl.col("outcome").is_in(LOSSES)).group_by("players", "outcome", maintain_order=True)
            .agg(pl.col("games").sum()).with_columns(lost=pl.col("games").sum().over("players")))
    lost = aggregate.rate(lost.filter(pl.col("lost") > 0), "games", "lost", "share", method).sort(
        "players", "games", descending=[False, True])
    return lost, leader(lost, "outcome", "games")


def exact_kill(general: str, life: int, cards1: int, cards2: int, modifier: int, rerolls: int) -> float:
    """The exact chance that a lone hero with these committed cards kills the general (odds.py)."""
    if cards1 + cards2 == 0:
        return 0.0
    return kill_probability(ODDS[general], [((1,) * cards1 + (2,) * cards2, modifier, rerolls)], life)


def _lone_combats(combats: pl.DataFrame) -> pl.DataFrame:
    """The lone heroes' combats pooled over player counts, each configuration's exact kill chance."""
    lone = (combats.filter(pl.col("heroes") == 1)
            .group_by("general", "life", "cards1", "cards2", "modifier", "rerolls")
            .agg(pl.col("combats", "kills").sum()))
    exact = [exact_kill(r["general"], r["life"], r["cards1"], r["cards2"], r["modifier"], r["rerolls"])
             for r in lone.iter_rows(named=True)]
    return lone.with_columns(exact=pl.Series(exact, dtype=pl.Float64))


def odds_check(combats: pl.DataFrame, reach: bool = True) -> pl.DataFrame:
    """Per general: a lone hero's combats, kills, and the kills the exact odds expect given each
    combat's cards, life, modifier and rerolls (sum of exact chances; ``variance``, sum p (1 -
    p); ``z`` = (kills - expected) / sqrt(variance), for reading); the exact test of the kills
    against their law under the odds, a sum of independent Bernoulli trials (``_kills_law``):
    p = 2 min(P(K <= kills), P(K >= kills)), at most 1, Holm over the generals. (A normal z-test
    here called a healthy engine broken too often in small runs: a few combats at small
    chances are no normal sum; test_a_healthy_engines_small_runs_are_not_called_broken.) A
    disagreement means the engine does not roll the dice the rules say (or odds.py does not).
    With ``reach``: ``detectable``, the relative error of the expected kills this test finds
    with POWER at the Bonferroni level ALPHA / generals, and ``detectable_shift``, the log-odds
    shift of every chance that makes it (``kill_rate_reach``; a figure above DICE_TOO_FEW is
    reported as too few combats to check)."""
    lone = _lone_combats(combats)
    rows = []
    for general in GENERALS:
        g = lone.filter(pl.col("general") == general)
        n = g["combats"].to_numpy().astype(float)
        p = g["exact"].to_numpy()
        expected, var = float((n * p).sum()), float((n * p * (1 - p)).sum())
        kills = int(g["kills"].sum())
        z = (kills - expected) / math.sqrt(var) if var > 0 else 0.0
        rows.append({"general": general, "combats": int(n.sum()), "kills": kills, "expected": expected,
                     "variance": var, "z": z, "p_value": float(_exact_p(*_kills_law(n, p), np.array([kills]))[0]),
                     **dict(zip(("detectable", "detectable_shift"),
                                kill_rate_reach(n, p) if reach else (math.nan, math.nan)))})
    out = pl.DataFrame(rows, schema={"general": pl.String, "combats": pl.Int64, "kills": pl.Int64,
                                     "expected": pl.Float64, "variance": pl.Float64, "z": pl.Float64,
                                     "p_value": pl.Float64, "detectable": pl.Float64,
                                     "detectable_shift": pl.Float64})
    return out.with_columns(p_adjusted=pl.Series(stats.holm(out["p_value"].to_numpy()), dtype=pl.Float64))


def _exact_p(first: int, law: np.ndarray, kills: np.ndarray) -> np.ndarray:
    """The two-sided exact p of each count in ``kills`` under ``law`` (pmf from ``first`` on,
    ``_kills_law``): 2 min(P(K <= k), P(K >= k)), at most 1; a count outside the law's kept
    range (beyond 12 sd) has p 0 to the precision kept."""
    below = np.concatenate([[0.0], np.cumsum(law)])  # below[i]: P(K < first + i)
    above = np.concatenate([np.cumsum(law[::-1])[::-1], [0.0]])  # above[i]: P(K >= first + i)
    i = np.clip(np.asarray(kills) - first, -1, len(law))
    at_most = np.where(i < 0, 0.0, below[np.clip(i + 1, 0, len(law))])
    at_least = np.where(i >= len(law), 0.0, above[np.clip(i, 0, len(law))])
    return np.clip(2 * np.minimum(at_most, at_least), 0.0, 1.0)  # each tail summed, no 1 - x below 0


def kill_rate_reach(n: np.ndarray, p: np.ndarray) -> tuple[float, float]:
    """``odds_check``'s detectable error for combats ``n`` at exact chances ``p``: (r, shift).

    The error is a shift of every chance on the log-odds scale (p -> expit(logit p + shift),
    which keeps chances near 1 chances); r is the relative change of the expected kills it
    makes. The power is the exact test's own: the chance that the kills, a sum of independent
    binomials under the shift (``_kills_law``), land where the test under the odds gives p <
    ALPHA / generals (``_exact_p``; a count beyond the odds' kept range counts as found). The
    shift is found where that power crosses
    POWER, starting from the normal approximation, in the direction that needs the larger r.
    (nan, nan) where the kills cannot vary or no shift reaches POWER."""
    from scipy.optimize import brentq
    from scipy.special import expit, logit
    from scipy.stats import norm

    expected, var = float((n * p).sum()), float((n * p * (1 - p)).sum())
    if var <= 0:
        return math.nan, math.nan
    z_a, z_b = norm.isf(ALPHA / len(GENERALS) / 2), norm.isf(1 - POWER)
    first0, null = _kills_law(n, p)
    found = _exact_p(first0, null, first0 + np.arange(len(null))) < ALPHA / len(GENERALS)
    odds = logit(np.clip(p, 1e-12, 1 - 1e-12))
    worst = (math.nan, math.nan)
    for sign in (1.0, -1.0):
        def kills(shift: float) -> np.ndarray:
            return expit(odds + sign * shift)

        def approximate(shift: float) -> float:  # the normal approximation: a starting bracket
            q = kills(shift)
            return (abs(float((n * q).sum()) - expected) - z_a * math.sqrt(var)
                    - z_b * math.sqrt(float((n * q * (1 - q)).sum())))

        def shortfall(shift: float) -> float:
            first, law = _kills_law(n, kills(shift))
            i = first + np.arange(len(law)) - first0  # each count's place in the odds' law
            outside = (i < 0) | (i >= len(null))
            return float(law[outside | found[np.clip(i, 0, len(null) - 1)]].sum()) - POWER

        if approximate(30.0) <= 0 or shortfall(30.0) < 0:
            return math.nan, math.nan
        low = high = brentq(approximate, 0.0, 30.0, xtol=1e-6)
        while shortfall(high) < 0:
            low, high = high, min(30.0, high * 1.25 + 1e-3)
        while low > 1e-6 and shortfall(low) >= 0:
            low /= 1.25
        shift = sign * (high if low <= 1e-6 else brentq(shortfall, low, high, xtol=1e-6))
        r = abs(float((n * expit(odds + shift)).sum()) / expected - 1)
        if not r <= worst[0]:
            worst = (r, shift)
    return worst


def _kills_law(n: np.ndarray, q: np.ndarray) -> tuple[int, np.ndarray]:
    """The law of a sum of independent Binomial(n_i, q_i): (its first value, the pmf from it
    on), each binomial cut 12 standard deviations (plus 2) either side of its mean (mass left
    out below about 1e-11), then convolved.

    Binomials of one chance are first merged (their sizes summed), every pmf is computed in one
    vectorised pass, and short ones are convolved directly (FFT only where both are long): the
    dice line's power search calls this some 70 times a report, and a call per binomial of
    scipy's pmf and fftconvolve had doubled the Defenders report's time."""
    from scipy import special
    from scipy.signal import fftconvolve

    if len(n) == 0:
        return 0, np.ones(1)  # no combat: no kill, surely
    q, at = np.unique(q, return_inverse=True)
    n = np.bincount(at, weights=n, minlength=len(q)).round().astype(np.int64)
    sd = np.sqrt(n * q * (1 - q))
    low = np.maximum(0, np.floor(n * q - 12 * sd - 2)).astype(np.int64)
    high = np.minimum(n, np.ceil(n * q + 12 * sd + 2)).astype(np.int64)
    width = high - low + 1
    which = np.repeat(np.arange(len(q)), width)  # (sum of widths,): each value's binomial
    k = np.arange(width.sum()) - np.repeat(np.cumsum(width) - width, width) + low[which]
    size, chance = n[which], q[which]
    with np.errstate(divide="ignore", invalid="ignore"):  # chances of exactly 0 or 1: log 0 = -inf
        pmf = np.exp(special.gammaln(size + 1.0) - special.gammaln(k + 1.0) - special.gammaln(size - k + 1.0)
                     + special.xlogy(k, chance) + special.xlog1py(size - k, -chance))
    law = np.ones(1)
    for part in np.split(pmf, np.cumsum(width)[:-1]):
        law = (np.convolve(law, part) if min(len(part), len(law)) <= DIRECT
               else np.clip(fftconvolve(law, part), 0, None))  # FFT's rounding can dip below 0
    return int(low.sum()), law


def attack_sizes(combats: pl.DataFrame, method: str) -> pl.DataFrame:
    """Per (general, dice) for 1 .. MAX_TABLE_DICE dice: a lone hero's exact chance to kill the
    general at full life with no modifier or reroll (odds.attack_table: 1-die cards against the
    curse) and the expected net hits; beside it, the run's plain combats of that size (a lone
    hero, full life, no modifier, no reroll; dice = 1-die cards + 2 x 2-die cards): combats,
    kills, the simulated rate with its interval and the exact chance of the cards actually
    committed (``exact_committed``; it differs from ``exact`` only for the curse general)."""
    from .odds import attack_table

    table = pl.concat([attack_table(ODDS[g], MAX_TABLE_DICE).select(
        "general", "dice", exact="kill_probability", net_hits="expected_net_hits") for g in GENERALS])
    full = {name: o.life for name, o in ODDS.items()}
    lone = _lone_combats(combats).filter((pl.col("modifier") == 0) & (pl.col("rerolls") == 0))
    lone = lone.filter(pl.col("life") == pl.col("general").replace_strict(full, return_dtype=pl.Int8))
    sized = (lone.with_columns(dice=pl.col("cards1").cast(pl.Int64) + 2 * pl.col("cards2").cast(pl.Int64),
                               weighted=pl.col("exact") * pl.col("combats"))
             .group_by("general", "dice").agg(pl.col("combats", "kills", "weighted").sum())
             .with_columns(exact_committed=pl.col("weighted") / pl.col("combats")).drop("weighted"))
    out = (table.with_columns(pl.col("dice").cast(pl.Int64)).join(sized, on=["general", "dice"], how="left")
           .with_columns(pl.col("combats", "kills").fill_null(0)))
    out = aggregate.rate(out, "kills", "combats", "rate", method)
    return out.with_columns(*(pl.when(pl.col("combats") > 0).then(pl.col(c)).otherwise(None).alias(c)
                              for c in ("rate", "rate_lo", "rate_hi")))


# --------------------------------------------------------------------------------------------
# verdict


def _swap_lines(frame: pl.DataFrame) -> list[tuple]:
    """Per player count: each hero that beats others (the swap contrasts found), strongest first."""
    lines = []
    for (players,), g in frame.group_by("players", maintain_order=True):
        found = g.filter(pl.col("p_adjusted") < ALPHA)
        # no win, or no loss, to tell heroes apart: no test, no power
        never_won = (g["won"] + g["other_won"]).sum() == 0
        if never_won or (g["won"] + g["other_won"] == g["games"] + g["other_games"]).all():
            lines.append((_heroes(players), Strong("no hero tested"), f": the team "
                          f"{'never won' if never_won else 'won every game'} at this count, so no hero can be "
                          "told from another.",))
            continue
        if found.height == 0:
            far = g.row(int(g["difference"].abs().arg_max()), named=True)
            edge = swap_detectable(g, frame.height)
            power = (f"a swap raising it by {pp(edge)} or more would have been found with {POWER:.0%} power "
                     "(exact power of Fisher's test at this run's strictest Holm level)" if not math.isnan(edge) else
                     "this run is too small to find even a hero that wins every game it plays")
            lines.append((_heroes(players), Strong("no hero beats another"),
                          f": no swap of one hero for another changed the team's win rate detectably (furthest: "
                          f"{far['other']} in place of {far['hero']} {pp(-far['difference'], signed=True)}, adjusted "
                          f"{p_phrase(far['p_adjusted'])}); {power}.",))
            continue
        beats: dict[str, list] = {}
        for r in each_row(found):
            winner, loser = (r["hero"], r["other"]) if r["difference"] > 0 else (r["other"], r["hero"])
            beats.setdefault(winner, []).append((loser, abs(r["difference"]), r["p_adjusted"]))
        order = sorted(beats, key=lambda h: (-len(beats[h]), -max(d for _, d, _ in beats[h]), h))
        parts = [f"{h} beats {', '.join(name for name, *_ in sorted(beats[h]))} ({_by(beats[h])})" for h in order]
        lines.append((_heroes(players), Strong(f"{len(order)} {'heroes beat' if len(order) > 1 else 'hero beats'} "
                                               "others"), ": " + "; ".join(parts) + ".",))
    return lines


def _by(found: list) -> str:
    """'by 6.79 pp to 12.04 pp, each Holm-adjusted p ≤ 0.0120' of a hero's found swaps
    ((other, difference, adjusted p) each): the sizes and the weakest of its tests."""
    low, high = min(d for _, d, _ in found), max(d for _, d, _ in found)
    worst = max(p for *_, p in found)
    if len(found) == 1:  # one swap: its own p, not a bound over several
        return f"by {pp(low)}, Holm-adjusted {p_phrase(worst)}"
    test = "each Holm-adjusted p < 1e-6" if worst < 1e-6 else f"each Holm-adjusted p ≤ {pvalue(worst)}"
    return (f"by {pp(low)}" if pp(low) == pp(high) else f"by {pp(low)} to {pp(high)}") + f", {test}"


def _heroes(players: int) -> str:
    """A verdict line's head: "2 players: " (a team of as many heroes), as the Team block says it."""
    return f"{players_phrase(players)}: "


def plural(noun: str) -> str:
    return noun + ("es" if noun.endswith("o") else "s")


def verdict(a: DefendersAnalysis) -> list:
    """The verdict's Heroes, Hero pairs, Losses, Threat and Dice blocks."""
    how = ("every game drew its team at random, so a difference is the hero's doing, averaged over its "
           "team-mates" if a.drawn else "the heroes were given with --side, so these describe the teams "
           "that played; draw the team (no --side) for a causal answer")
    blocks = []
    if a.swaps.height:
        blocks += [Para((Strong("Heroes"), f" (which hero is stronger: the team's win rate with one hero and not the "
                         f"other against the reverse; {how}; Fisher's exact tests, Holm over every pair of "
                         "heroes and player count)."),),
                   Bullets(_swap_lines(a.swaps))]
    losses = []
    for r in each_row(a.top_loss):
        share = a.losses.filter((pl.col("players") == r["players"]) & (pl.col("outcome") == r["first"])).row(
            0, named=True)
        if r["p_adjusted"] < ALPHA:
            losses.append((_heroes(r["players"]), Strong(f"lost mostly to {LOSS_WORDS[r['first']]}"),
                           f", {pct(share['share'])} of the lost games ({LEVEL} CI "
                           f"{ci(share['share_lo'], share['share_hi'])}); "
                           f"more than to {LOSS_WORDS[r['second']]} ({counted(r['second_n'], 'game')}; exact binomial "
                           f"test, adjusted {p_phrase(r['p_adjusted'])}).",))
        else:
            losses.append((_heroes(r["players"]), Strong(f"lost as often to {LOSS_WORDS[r['first']]} as to "
                                                             f"{LOSS_WORDS[r['second']]}"),
                           f" ({count(r['first_n'])} and {counted(r['second_n'], 'game')}; adjusted "
                           f"{p_phrase(r['p_adjusted'])}).",))
    if losses:
        blocks += [Para((Strong("Why games are lost"), " (the commonest cause against the next, among the "
                         "games lost to either)."),), Bullets(losses)]
    threats = []
    for r in each_row(a.threat):
        if r["total"] == 0:
            threats.append((_heroes(r["players"]), "no general reached Monarch City.",))
        elif r["p_adjusted"] < ALPHA:
            threats.append((_heroes(r["players"]), Strong(f"{r['first']} reaches Monarch City most often"),
                            f": it entered Monarch City in {count(r['first_n'])} of the {count(r['total'])} "
                            f"games lost that way, more than {r['second']} ({count(r['second_n'])}; exact "
                            f"binomial test, adjusted {p_phrase(r['p_adjusted'])}).",))
        else:
            threats.append((_heroes(r["players"]), Strong("no general reaches Monarch City more often than every "
                                                          "other"),
                            f" ({r['first']} {count(r['first_n'])} and {r['second']} {count(r['second_n'])} "
                            f"of the {count(r['total'])} games lost to a general in the city; adjusted "
                            f"{p_phrase(r['p_adjusted'])}).",))
    if threats:
        blocks += [Para((Strong("Generals"), " (which general reaches Monarch City in the games lost that way: "
                         "a count of how games end, not a measure of a general's strength, which only a "
                         "rule change that weakens it, compared on the same games, can give)."),),
                   Bullets(threats)]
    blocks += [Para((Strong("Dice"), " (a lone hero's combats with a general against the exact odds of the cards "
                     "it committed; exact test of the kills against their law under those odds, Holm over the "
                     "generals)."),),
               Bullets([_odds_line(a.odds)])]
    return blocks


def _odds_line(odds: pl.DataFrame) -> tuple:
    tested = odds.filter(pl.col("combats") > 0)
    if tested.height == 0:
        return ("No lone hero fought a general in this run: the combat odds were not checked.",)
    off = tested.filter(pl.col("p_adjusted") < ALPHA)
    if off.height:
        names = "; ".join(f"{r['general']} {counted(r['kills'], 'kill')} where the odds expect {num(r['expected'], 1)} "
                          f"(adjusted {p_phrase(r['p_adjusted'])})" for r in each_row(off))
        return (Strong("the simulated combats disagree with the exact odds"), f": {names}. The engine's dice "
                "do not follow the rules as odds.py computes them: do not trust this run's combat numbers.",)
    combats = counted(int(tested["combats"].sum()), "combat")
    # a general whose every chance was 0 or 1 has kills the odds fix: nothing to check there
    varied = tested.filter(pl.col("variance") > 0).with_columns(pl.col("detectable").fill_nan(None))
    checked = varied.filter(pl.col("detectable") <= DICE_TOO_FEW)
    few = varied.filter(pl.col("detectable").is_null() | (pl.col("detectable") > DICE_TOO_FEW))
    if checked.height == 0:
        return ("These ", combats, f" of {counted(tested.height, 'general')} are too few to check the dice "
                f"against the exact odds (a kill rate off by less than {DICE_TOO_FEW:.0%} could pass unseen).",)
    where = ("at any general" if checked.height == tested.height
             else f"at {and_list(checked['general'].to_list())}")
    unchecked = ("" if few.height == 0 else
                 f"; the {counted(int(few['combats'].sum()), 'combat')} with {and_list(few['general'].to_list())} "
                 "are too few to check")
    return (Strong("no disagreement with the exact odds found"), f" ({combats} of "
            f"{counted(tested.height, 'general')}; smallest adjusted {p_phrase(float(tested['p_adjusted'].min()))}); "
            f"kills off by {float(checked['detectable'].max()):.1%} or more of what the odds expect (a relative "
            f"error: 10% is 110 kills where the odds expect 100), {where}, "
            f"would have been found with {POWER:.0%} power{unchecked}.",)


def variant_hint(a: DefendersAnalysis) -> dict | None:
    """No item to deny: the generic hint (compare a rule change of yours) applies."""
    return None


def methods() -> list[tuple]:
    return [
        ("Heroes: for every two heroes, the team's win rate in the games whose team held the first and "
         "not the second against the reverse; Fisher's exact test, Holm over every pair of "
         "heroes and player count. With the team drawn per game (the default) the rest of the team is "
         "distributed alike in both groups, so the difference is the effect of swapping one hero for "
         "the other. Where no hero beats another, the difference stated is the one found with 90% "
         "power by Fisher's test itself (its exact power, a sum over the tables it rejects), at the "
         "Bonferroni level (Holm's first step), for one hero raising the team's win rate at that count "
         "by that much, with the fewest games on either side of any swap of the count (fewer games "
         "find less). The with/without "
         "table and the hero-pair table (both heroes in the team against the other games, Holm) are "
         "descriptions: a hero's presence also displaces the others.",),
        ("Why games are lost: among the games lost to the two commonest causes, an exact binomial test "
         f"of equal chances (Holm over player counts); shares with {aggregate.INTERVALS}.",),
        ("Which general reaches Monarch City: the games lost to a general entering the city, counted per "
         "general (one per game); the commonest against the next, an exact binomial test of equal chances among "
         "the games either ended, Holm over player counts. Kill and city rates per general are "
         f"descriptions with {aggregate.INTERVALS}.",),
        ("Combat odds: the exact chance that a lone hero kills a general, given the general's life and "
         "skill and the hero's committed cards, to-hit modifier and reroll passes, by convolution of the "
         "per-die outcomes and a binomial mixture over the curse (odds.py, scipy). The check sums those "
         "chances over the run's combats and tests the kills against their exact law (a sum of "
         "independent Bernoulli trials, by convolution): p = 2 min(P(K <= kills), P(K >= kills)) per "
         "general, Holm over the four (not a normal z-test: few combats at small chances are no normal "
         "sum, and it called a healthy engine's dice wrong too often). Where it finds nothing, the "
         f"error stated is the one it finds with {POWER:.0%} power at the Bonferroni level: every kill "
         "chance shifted alike on the log-odds scale, the power summed exactly over the kills' law (a "
         "sum of binomials), the error given as the change of the expected kills; a general whose error "
         f"would have to pass {DICE_TOO_FEW:.0%} is named as fought too rarely to check.",),
        ("King's Champion: the seats with the most slain-general cards share the title (1/k each); "
         "shares over all games and over won games.",),
    ]


# --------------------------------------------------------------------------------------------
# figures and sections


def figures(a: DefendersAnalysis, fig_dir: Path) -> dict[str, Path]:
    drawn = {}
    if a.heroes.height:
        # the team's win rate with the hero, against every game's: a description (the swaps decide)
        drawn["heroes"] = plots.named_rates(a.heroes, fig_dir / "heroes.png", reference="all games",
                                            title=players_phrase,
                                            xlabel="team win rate with the hero")
    drawn["generals"] = generals_figure(a.generals, fig_dir / "generals.png")
    drawn["losses"] = losses_figure(a.losses, fig_dir / "losses.png")
    drawn["combat_odds"] = odds_figure(a.attack, fig_dir / "combat_odds.png")
    return drawn


def generals_figure(generals: pl.DataFrame, path: Path) -> Path:
    """Per player count: each general's kill rate and city rate with their intervals."""
    counts = generals["players"].unique().sort().to_list()
    fig, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 1, 3.2), squeeze=False,
                             layout="constrained", sharey=True)
    for ax, players in zip(axes[0], counts):
        g = generals.filter(pl.col("players") == players)
        x = np.arange(g.height)
        plots.interval(ax, x - 0.12, g["kill"].to_numpy(), g["kill_lo"].to_numpy(), g["kill_hi"].to_numpy(),
                       label="slain")
        plots.interval(ax, x + 0.12, g["city"].to_numpy(), g["city_lo"].to_numpy(), g["city_hi"].to_numpy(),
                       label="entered Monarch City")
        ax.set_xticks(x, g["general"].to_list(), rotation=30)
        ax.set_title(players_phrase(players))
        plots.percent(ax)
    axes[0][0].set_ylabel("share of games (95% CI)")
    axes[0][0].legend(fontsize="x-small")
    return plots.save(fig, path)


def losses_figure(losses: pl.DataFrame, path: Path) -> Path:
    """Per player count: the share of the lost games each cause ended, with its interval; the
    causes named as the text names them ('no taint' read as a clean board: it is the last
    crystal placed), the legend beside the bars, not over them."""
    counts = losses["players"].unique().sort().to_list()
    fig, ax = plt.subplots(figsize=(7.5, 3.2), layout="constrained")
    width = 0.8 / len(LOSSES)
    for k, cause in enumerate(LOSSES):
        g = losses.filter(pl.col("outcome") == cause).sort("players")
        x = np.array([counts.index(p) for p in g["players"].to_list()]) + (k - (len(LOSSES) - 1) / 2) * width
        share = g["share"].to_numpy()
        err = np.vstack([share - g["share_lo"].to_numpy(), g["share_hi"].to_numpy() - share])
        ax.bar(x, share, width, yerr=err, capsize=2, error_kw={"linewidth": 1}, label=LOSS_WORDS[cause])
    ax.set_xticks(range(len(counts)), [players_phrase(p) for p in counts])
    ax.set_ylabel("share of the lost games (95% CI)")
    plots.percent(ax)
    plots.legend_outside(ax)
    return plots.save(fig, path)


def odds_figure(attack: pl.DataFrame, path: Path) -> Path:
    """Per general: the exact kill chance by dice committed (line) and, where the run has at least
    ``MIN_POINT`` plain combats of that size, the simulated rate (points)."""
    fig, axes = plt.subplots(1, len(GENERALS), figsize=(12, 3.2), squeeze=False, layout="constrained", sharey=True)
    labelled = False
    for ax, general in zip(axes[0], GENERALS):
        g = attack.filter(pl.col("general") == general)
        ax.plot(g["dice"].to_numpy(), g["exact"].to_numpy(), color="0.3", label="exact")
        seen = g.filter(pl.col("combats") >= MIN_POINT)
        if seen.height:
            plots.interval(ax, seen["dice"].to_numpy(), seen["rate"].to_numpy(), seen["rate_lo"].to_numpy(),
                           seen["rate_hi"].to_numpy(), label="simulated")
            if not labelled:
                ax.legend(fontsize="x-small")
                labelled = True
        ax.set(title=general, xlabel="dice committed")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of dice: no 2.5
        plots.percent(ax)
    axes[0][0].set_ylabel("kill chance")
    return plots.save(fig, path)


def _presence_table(frame: pl.DataFrame, what: str) -> Table:
    """With the hero (pair) against without: a description, so no p-value is shown. A team
    holding one hero holds fewer of the others, and a test here calls a neutral hero weak when
    another is strong (tests/test_defenders.py, the planted Rogue); the swaps decide."""
    rows = [[str(r["players"]), Code(r["name"]), count(r["games"]), pct(r["rate"]), ci(r["lo"], r["hi"]),
             count(r["other_games"]), pct(r["other_rate"]), pp(r["difference"], signed=True)]
            for r in each_row(frame.sort("players", "difference", "name", descending=[False, True, False]))]
    return Table(["heroes", what, "games with", "team win rate", f"{LEVEL} CI", "games without", "without",
                  "difference"], rows, left=2)


def sections(a: DefendersAnalysis, figures: dict) -> list[Section]:
    out = []
    if a.heroes.height:
        ranks = ranking(a.swaps)
        given = "" if a.drawn else (" The heroes were given with --side, so the tests describe the teams that "
                                    "played; draw the team (no --side) for a causal ranking.")
        blocks = [Para(("Heroes ranked by the swap tests below: the number of heroes each is found stronger than, "
                        f"less the number found stronger than it (Holm-adjusted p < {ALPHA:g}); equal ranks (=) "
                        "share that net. A rank sums the tests up and is not itself a test: two heroes of "
                        "different ranks differ only where their own swap row below says so. Mean swap: the "
                        "team's win rate with the hero in place of another, less the reverse, averaged over the "
                        "other heroes (a description)." + given,)),
                  Table(["heroes", "rank", "hero", "found stronger than", "found weaker than", "mean swap"],
                        [[str(r["players"]), f"{r['rank']}{'=' if r['shared'] else ''}", Code(r["hero"]),
                          str(r["beats"]), str(r["beaten"]), pp(r["mean_swap"], signed=True)]
                         for r in each_row(ranks)], left=3),
                  Para(("Which hero is stronger: for each two heroes, the team's win rate in the games whose team held "
                        "the first and not the second, against the reverse (the rest of the team is drawn alike in "
                        "both); Fisher's exact test, Holm over every pair of heroes and player count. Positive: the "
                        "first hero is the better one.",)),
                  Table(["heroes", "hero", "instead of", "games", "team win rate", "games", "team win rate",
                         "difference", "adjusted p"],
                        [[str(r["players"]), Code(r["hero"]), Code(r["other"]), count(r["games"]),
                          pct(r["won"] / r["games"]), count(r["other_games"]), pct(r["other_won"] / r["other_games"]),
                          pp(r["difference"], signed=True), p_phrase(r["p_adjusted"])]
                         for r in each_row(a.swaps.sort("players", "p_value", "hero", "other"))], left=3),
                  Para(("With each hero in the team, against the games without it (a description: a team holding "
                        "one hero holds fewer of the others, so a strong hero makes every other look weak here; the "
                        "swaps above decide).",))]
        if "heroes" in figures:
            blocks.append(Figure("heroes", figures["heroes"], "Team win rate with each hero in the team, against "
                                 "all games (dashed): a description, not a ranking (the swaps above decide)"))
        blocks.append(_presence_table(a.heroes, "hero"))
        if a.pairs.height:
            blocks += [Para(("Hero pairs: both heroes in the team, against the other games (a description, like "
                             "the table above). A pair of two strong heroes wins more without any synergy; with two "
                             "heroes the pair is the team (the Team section's composition test).",)),
                       _presence_table(a.pairs, "pair")]
        blocks += [Para(("Per hero (the seat's first hero): heroes lost, generals slain and the King's Champion "
                         "title (shared among the seats with the most slain generals), per game.",)),
                   Table(["heroes", "hero", "seat-games", "deaths / game", "slain / game", "title share"],
                         [[str(r["players"]), Code(r["hero"]), count(r["games"]), num(r["deaths_per_game"], 2),
                           num(r["slain_per_game"], 2), pct(r["title"])] for r in each_row(a.hero_detail)], left=2)]
        out.append(Section("Heroes", blocks))
    out.append(Section("Generals", [
        Para(("Each general's kill rate (games in which it was slain) and city rate (games it ended by entering "
              f"Monarch City), with {aggregate.INTERVALS}; mean step: how far along its path it stood at "
              "the end (0 its start, 4 the city).",)),
        Figure("generals", figures["generals"], "Slain and in the city, per general"),
        Table(["heroes", "general", "games", "slain", f"{LEVEL} CI", "in the city", f"{LEVEL} CI", "mean step"],
              [[str(r["players"]), r["general"], count(r["games"]), pct(r["kill"]), ci(r["kill_lo"], r["kill_hi"]),
                pct(r["city"]), ci(r["city_lo"], r["city_hi"]), num(r["step_sum"] / r["games"], 2)]
               for r in each_row(a.generals)], left=2)]))
    out.append(Section("Why games are lost", [
        Para((f"The share of the lost games each cause ended, with {aggregate.INTERVALS} (the Game length "
              "section gives every outcome's share of all games and its length).",)),
        Figure("losses", figures["losses"], "Causes of the lost games"),
        Table(["heroes", "cause", "games", "share of losses", f"{LEVEL} CI"],
              [[str(r["players"]), LOSS_WORDS[r["outcome"]], count(r["games"]), pct(r["share"]),
                ci(r["share_lo"], r["share_hi"])] for r in each_row(a.losses)], left=2)]))
    blocks = [Para(("A lone hero's combats with a general: the kills against those the exact odds expect for the "
                    "cards each hero committed, its to-hit modifier and reroll passes and the general's life "
                    "(odds.py), per general.",)),
              Table(["general", "combats", "kills", "expected", "z", "adjusted p"],
                    [[r["general"], count(r["combats"]), count(r["kills"]), num(r["expected"], 1), num(r["z"], 2),
                      p_phrase(r["p_adjusted"])] for r in each_row(a.odds)], left=1)]
    blocks += [Para(("By attack size: a lone hero's exact chance to kill each general at full life with no "
                     "modifier or reroll (1-die cards against Balazarg's curse) and its expected net hits; beside it "
                     "the run's plain combats of that size (a lone hero, full life, no modifier, no reroll), the "
                     "simulated rate with its interval and the exact chance of the cards those heroes committed.",)),
               Figure("combat_odds", figures["combat_odds"], "Kill chance by dice committed"),
               Table(["general", "dice", "exact", "net hits", "combats", "simulated", f"{LEVEL} CI",
                      "exact as committed"],
                     [[r["general"], str(r["dice"]), pct(r["exact"]), num(r["net_hits"], 2), count(r["combats"]),
                       pct(r["rate"]) if r["combats"] else "—",
                       ci(r["rate_lo"], r["rate_hi"]) if r["combats"] else "—",
                       pct(r["exact_committed"]) if r["combats"] else "—"] for r in each_row(a.attack)], left=1)]
    out.append(Section("Combat odds", blocks))
    out.append(Section("King's Champion", [
        Para(("The score (slain-general cards) of each seat: its share of the seat-games, over all games and over "
              "the won games.",)),
        Table(["heroes", "score", "seat-games", "share", "in won games"],
              [[str(r["players"]), str(r["score"]), count(r["games"]), pct(r["share"]),
                pct(r["share_won"]) if r["share_won"] is not None else "—"]
               for r in each_row(a.champions)], left=1)]))
    return out
