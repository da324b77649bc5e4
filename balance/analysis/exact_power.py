"""Exact power of Fisher's exact test and of the exact binomial test, and the difference each
detects.

Where wins are rare (a cooperative team winning a few per cent of its games, or fewer), the
normal approximation behind a z-test's power formula is far off: at 323 games a side and a
pooled win rate of 0.13%, it promised 90% power for a 2.1 pp difference that Fisher's test at
the report's Holm level finds in about 4% of runs (``fisher_power(323, 323, 0.0223, 0.0013,
0.05 / 56)``: 0.044). So a power statement beside a Fisher test
is computed for that test itself, by summing the two binomial laws over the tables it rejects:

    power = sum over (x1, x2) of Bin(x1; n1, p1) Bin(x2; n2, p2) [Fisher's p(x1, x1 + x2) < alpha]

Fisher's two-sided p-value (scipy's "minlike") of x1 given the total t = x1 + x2 is the null
hypergeometric mass of every x no more likely than x1, with scipy's relative tolerance of
1e-7. That law is unimodal, so at each t the rejected x1 are two tails, x1 <= low[t] or
x1 >= high[t]. Every sum is cut SPAN standard deviations (plus 2) either side of its law's
mean: the mass left out is below about 1e-11 (a skewed binomial's tail), which changes no
power at the precision stated and no decision at a level above it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special, stats

TOLERANCE = 1e-7  # scipy.stats.fisher_exact's relative tolerance for "no more likely"
SPAN = 10.0  # standard deviations kept either side of a law's mean
LOG_FLOOR = -200.0  # log masses below this (e^-200) count as 0
SHIFT = 1000.0  # keeps rows apart in one sorted search (a row's log masses span under 200)
CELLS = 2_000_000  # tables held at once by fisher_bounds (a few arrays of this many floats)
# Above this binomial variance in both groups (n q (1 - q); 2,500: a standard deviation of 50
# wins) the test's discreteness no longer shows and the normal formula, with the variance the
# difference brings, is used: it avoids sums over millions of tables, which grow with it
LARGE = 2_500.0
CLOSE = 1e-6  # p-values this near alpha (relative) are left to scipy's own binomtest


def _window(mean: float, sd: float, low: int, high: int) -> np.ndarray:
    """The integers of [low, high] within SPAN sd (plus 2) of mean."""
    return np.arange(max(low, math.floor(mean - SPAN * sd - 2)), min(high, math.ceil(mean + SPAN * sd + 2)) + 1)


def _log_choose(n, k):
    return special.gammaln(n + 1.0) - special.gammaln(k + 1.0) - special.gammaln(n - k + 1.0)


def fisher_bounds(n1: int, n2: int, alpha: float, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fisher's two-sided rejection region for tables of ``n1`` against ``n2`` games at level
    ``alpha``: where scipy.stats.fisher_exact's p-value is below alpha (the report's strict
    decision).

    totals: (T,) total wins t. Returns (low, high), int arrays of shape (T,): at total t the
    test rejects the tables where the first group won x1 <= low or x1 >= high (no tail on a
    side: just past the support, max(0, t - n2) - 1 or min(n1, t) + 1).
    """
    totals = np.asarray(totals, np.int64)
    n = n1 + n2
    sd = math.sqrt(float(totals.max()) * (n1 / n) * (n2 / n))  # at least each row's sd (n - t <= n - 1 + 1)
    rows = max(1, CELLS // (2 * math.ceil(SPAN * sd + 2) + 1))
    parts = [_bounds(n1, n2, alpha, totals[i:i + rows]) for i in range(0, len(totals), rows)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _bounds(n1: int, n2: int, alpha: float, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``fisher_bounds`` for one block of totals."""
    n = n1 + n2
    t = totals[:, None]  # (T, 1)
    sd = np.sqrt(t * (n1 / n) * (n2 / n) * (n - t) / max(n - 1, 1))
    half = int(math.ceil(SPAN * float(sd.max()) + 2))
    x = (t * n1) // n + np.arange(-half, half + 1)[None, :]  # (T, W): each total's window around its mean
    first, last = np.maximum(0, t - n2), np.minimum(n1, t)
    valid = (x >= first) & (x <= last)
    xs = np.clip(x, first, last)
    log_mass = np.where(valid, _log_choose(t, xs) + _log_choose(n - t, n1 - xs) - _log_choose(n, n1), -np.inf)
    # p(x): the mass of every value of its row no more likely than x (1 + TOLERANCE times x's),
    # found for every row by one search: row r's log masses shifted by r * SHIFT sort apart
    rows = np.arange(len(t))[:, None] * SHIFT
    keys = np.maximum(log_mass, LOG_FLOOR) + rows
    order = np.sort(keys, axis=1)
    running = np.cumsum(np.where(order - rows > LOG_FLOOR, np.exp(order - rows), 0.0), axis=1)
    at = np.searchsorted(order.ravel(), (keys + math.log1p(TOLERANCE)).ravel(), side="right") - 1
    rejected = valid & (running.ravel()[at].reshape(x.shape) < alpha)  # the report's strict p < alpha
    # the law is unimodal, so p rises towards the mode from either end: the tails are the
    # rejected values left and right of the mode; outside the window every value is rejected
    mode = np.argmax(log_mass, axis=1)[:, None]
    left = np.where(rejected & (np.arange(x.shape[1]) < mode), x, x[:, :1] - 1).max(axis=1)
    right = np.where(rejected & (np.arange(x.shape[1]) > mode), x, x[:, -1:] + 1).min(axis=1)
    # no tail on a side: just past the support, whatever the window's width
    return np.maximum(left, first[:, 0] - 1), np.minimum(right, last[:, 0] + 1)


def fisher_power(n1: int, n2: int, p1: float, p2: float, alpha: float) -> float:
    """The chance that Fisher's two-sided exact test at level ``alpha`` rejects when ``n1`` games
    win at rate ``p1`` and ``n2`` games at rate ``p2`` (two binomials)."""
    x1 = _window(n1 * p1, math.sqrt(n1 * p1 * (1 - p1)), 0, n1)
    x2 = _window(n2 * p2, math.sqrt(n2 * p2 * (1 - p2)), 0, n2)
    first = int(x1[0] + x2[0])
    low, high = fisher_bounds(n1, n2, alpha, np.arange(first, int(x1[-1] + x2[-1]) + 1))
    b1, b2 = stats.binom.pmf(x1, n1, p1), stats.binom.pmf(x2, n2, p2)
    power, rows = 0.0, max(1, CELLS // len(x2))  # blocks of x1 keep the tables held at once bounded
    for i in range(0, len(x1), rows):
        block = x1[i:i + rows, None]
        at = block + x2[None, :] - first  # (rows, len(x2)): each table's total, as an index
        rejected = (block <= low[at]) | (block >= high[at])
        power += float(b1[i:i + rows] @ (rejected * b2[None, :]).sum(axis=1))
    return min(1.0, power)


def detectable_fisher_difference(n1: int, n2: int, rate: float, power: float, alpha: float) -> float:
    """The smallest difference d (to 1e-5, rounded up to 1e-4) that Fisher's test at ``alpha``
    finds with ``power`` when one group wins at ``rate`` + d and the other at ``rate``: the
    worse of the two ways round. NaN when not even d = 1 - rate is found so often.

    The search starts at the normal approximation and brackets the crossing by factors of 1.25
    (a few evaluations near the answer, where each costs a sum over the tables around it). A
    discrete test's power is not quite monotone in d: the value returned is checked to reach
    ``power``."""
    if n1 < 1 or n2 < 1:
        return math.nan
    rate = min(max(float(rate), 0.0), 1.0 - 1e-6)
    top = 1.0 - rate
    if min(n1, n2) * rate * (1 - rate) >= LARGE:
        return _normal_difference(n1, n2, rate, power, alpha)
    z = stats.norm.isf(alpha / 2) + stats.norm.isf(1 - power)
    guess = min(top, max(1e-4, z * math.sqrt(max(rate * (1 - rate), 1e-4) * (1 / n1 + 1 / n2))))
    found = 0.0
    for a, b in ((n1, n2), (n2, n1)):
        def shortfall(d: float) -> float:
            return fisher_power(a, b, rate + d, rate, alpha) - power

        if shortfall(top) < 0:
            return math.nan
        low = high = guess
        while shortfall(high) < 0:
            low, high = high, min(top, high * 1.25)
        while low > 1e-6 and shortfall(low) >= 0:
            low /= 1.25
        d = high if low <= 1e-6 else optimize.brentq(shortfall, low, high, xtol=1e-5)
        d = math.ceil(d * 1e4) / 1e4
        while d < top and shortfall(d) < 0:
            d = min(top, d + 1e-4)
        found = max(found, d)
    return found


def _normal_difference(n1: int, n2: int, rate: float, power: float, alpha: float) -> float:
    """``detectable_fisher_difference`` where both groups' binomial variance is over LARGE: d
    with d = z_alpha sqrt(q (1 - q) (1/n1 + 1/n2)) + z_power sqrt(p1 (1 - p1)/n1 + p2 (1 - p2)/n2)
    + (1/n1 + 1/n2) / 2, q the pooled rate under the difference: the power of the score test
    with Yates' continuity correction (Fleiss), which Fisher's test follows (without it the
    figure fell short: 89.8% power at 10,000 games a side and 50%), rounded up to 1e-4; the
    worse of the two ways round."""
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.isf(1 - power)
    found = 0.0
    for a, b in ((n1, n2), (n2, n1)):
        def shortfall(d: float) -> float:
            p1, p2 = rate + d, rate
            q = (a * p1 + b * p2) / (a + b)
            spread = math.sqrt(p1 * (1 - p1) / a + p2 * (1 - p2) / b)
            return d - z_a * math.sqrt(q * (1 - q) * (1 / a + 1 / b)) - z_b * spread - (1 / a + 1 / b) / 2

        found = max(found, optimize.brentq(shortfall, 1e-12, 1.0 - rate, xtol=1e-7))
    return math.ceil(found * 1e4) / 1e4


# The exact binomial test (scipy.stats.binomtest, two-sided), as the sides verdicts use it: the
# seats holding a faction against the average seat's rate. Its discreteness matters in small
# runs, where the normal formula promised more than the test gives; and the average seat's rate
# is not 1/players where games end without a winner (capped, tied). Here the rejection region
# is found from scipy's own p-value, so the power is that of the decision the report makes.

def binomial_bounds(n: int, rate: float, alpha: float) -> tuple[int, int]:
    """The two-sided exact binomial test of ``rate`` on ``n`` trials rejects (scipy's
    binomtest p-value < ``alpha``, the report's strict decision) exactly where the count is
    <= low or >= high; (low, high), low = -1 or high = n + 1 where a side rejects nothing.

    scipy's p-value (its "minlike") of a count is the mass of every count no more likely (with
    its relative tolerance 1e-7): computed here for the counts within SPAN standard deviations
    at once (one sort, one running sum), those beyond counted rejected. It rises towards the
    mode from either side, so each side's rejected counts are a tail. Where a p-value next to a
    tail's end lies within rounding (CLOSE) or the window's left-out mass of alpha, scipy's own
    binomtest settles that end, so such a count is decided as scipy decides it (checked
    against every count in the tests)."""
    from scipy.stats import binomtest

    def rejected(k: int) -> bool:
        return binomtest(k, n, rate).pvalue < alpha

    k = _window(n * rate, math.sqrt(n * rate * (1 - rate)), 0, n)
    mass = stats.binom.pmf(k, n, rate)
    order = np.sort(mass)
    p_value = np.cumsum(order)[np.searchsorted(order, mass * (1 + TOLERANCE), side="right") - 1]
    mode = int(np.argmax(mass))
    left = k[:mode][p_value[:mode] < alpha]
    right = k[mode + 1:][p_value[mode + 1:] < alpha]
    low = int(left.max()) if left.size else int(k[0]) - 1
    high = int(right.min()) if right.size else int(k[-1]) + 1
    top = int(k[mode])
    # scipy decides a tail's end where a p-value either side of it is within CLOSE of alpha
    # (sums in another order differ in the last digits) or of the mass the window leaves out;
    # elsewhere the sums above decide
    outside = float(stats.binom.cdf(k[0] - 1, n, rate) + stats.binom.sf(k[-1], n, rate))
    near = np.abs(p_value - alpha) <= CLOSE * alpha + outside
    if near[np.isin(k, (low, low + 1))].any() or (low == int(k[0]) - 1 and low >= 0):
        while low >= 0 and not rejected(low):
            low -= 1
        while low + 1 < top and rejected(low + 1):
            low += 1
    if near[np.isin(k, (high - 1, high))].any() or (high == int(k[-1]) + 1 and high <= n):
        while high <= n and not rejected(high):
            high += 1
        while high - 1 > top and rejected(high - 1):
            high -= 1
    return low, high


def binomial_power(n: int, rate: float, true_rate: float, alpha: float) -> float:
    """The chance that the two-sided exact binomial test of ``rate`` at level ``alpha`` rejects
    when ``n`` trials succeed at ``true_rate``."""
    low, high = binomial_bounds(n, rate, alpha)
    return float(stats.binom.cdf(low, n, true_rate) + stats.binom.sf(high - 1, n, true_rate))


def detectable_binomial_difference(n: int, rate: float, power: float, alpha: float) -> float:
    """The smallest d on a grid of 1e-4 past which the exact binomial test of ``rate`` at
    ``alpha`` on ``n`` trials finds a true rate of ``rate`` + d and of ``rate`` - d with at least
    ``power`` (a side the rate cannot move d towards needs nothing), so "any difference of d or
    more" holds either way. Where even a rate of 0 is not found so often, d is past ``rate``
    (no difference below can be that large). NaN when not even a rate of 1 is (a run too small).

    d is one step past the last grid point short of ``power``: the power rises with the
    distance (the near tail's mass grows faster than the far tail's shrinks), so that point is
    looked for from half to twice the normal approximation's d, and over the whole grid when
    it is not there. Every point's power is summed at once over the one rejection region
    (``binomial_bounds``): a few milliseconds."""
    if n < 1 or not 0.0 < rate < 1.0:
        return math.nan
    low, high = binomial_bounds(n, rate, alpha)
    guess = (stats.norm.isf(alpha / 2) + stats.norm.isf(1 - power)) * math.sqrt(rate * (1 - rate) / n)
    found = 0.0
    for sign, room in ((1, 1.0 - rate), (-1, rate)):
        grid = np.append(np.arange(1, math.ceil(room * 1e4)) * 1e-4, room)  # (G,): ending at the room
        near = grid[(grid >= guess / 2) & (grid <= 2 * guess)]
        d = None
        for points in ((near, grid) if near.size > 1 else (grid,)):
            true_rate = rate + sign * points
            short = stats.binom.cdf(low, n, true_rate) + stats.binom.sf(high - 1, n, true_rate) < power
            if short.any() and not short[-1]:  # the last point short is inside
                d = float(points[np.flatnonzero(short)[-1] + 1])
                break
        if d is None:  # the whole grid: nothing short, or the room itself short
            if short[-1] and sign == 1:  # not even every trial succeeding is found so often
                return math.nan
            # below: a rate of 0 not found so often, so only differences past the room (which
            # cannot lie below) are detected, and d is the first grid point beyond it
            d = math.floor(room * 1e4 + 1) / 1e4 if short[-1] else float(points[0])
        found = max(found, d)
    return round(found, 4)  # a grid point, without the float noise of k * 1e-4
