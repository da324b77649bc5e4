"""Rule-variant comparison with common random numbers and paired statistics.

Every variant plays the same game numbers with the same seed, so game i of each variant sees
the same shuffles and the same strategy draws as far as the rules let them (common random
numbers). Per game we compute the metrics of each variant and fold the paired differences
(variant - baseline) into exact integer running sums; the difference of two correlated means
has variance Var(d) instead of Var(a) + Var(b), and the report states that reduction.

Rows of a comparison, per variant (``results``):
- linear per-game metrics (each seat's win share, mean score, ...): the mean of the per-game
  paired difference, its normal interval and z-test;
- ``seat_shift``: did the variant move any seat's win rate? The largest per-seat |z| of the
  paired win-share differences, Sidak-corrected over the seats; its interval is that seat's;
- ``seat_distance``: are the seats nearer fair? Their root-mean-square distance from
  1/players (where the turn cap stopped games, which hand out no win, of their shares of the
  finished games' wins) with the noise's share taken out, each variant's, and a paired test of its change
  (``stats.paired_fairness_test``); ``side_distance`` the same for a competitive game's sides
  (what its seats play as) around their average;
- ``seat_gap`` (best minus worst seat) and ``seat_imbalance`` (total distance of the seats
  from the fair 1/players): descriptions of each variant, with no test. Both grow with noise,
  so a variant that makes the seats noisier (e.g. fewer ties) looks less fair by them even
  when every seat is fair; ``seat_shift`` and ``seat_distance`` are the tests.
With ``sprt``, each variant plays batches until its sequential test decides and stops there.
With ``primary``, the rows of the metrics named are the question: corrected as one family,
they alone decide ``any_different``; the other tested rows are corrected among themselves.
With ``margin``, each rate row of the question is also tested for equivalence: is its change
within +-margin (``equivalent``, two one-sided tests, corrected over those rows)?
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from balance.analysis import stats
from balance.analysis.study import STATE
from balance.core.checkpoint import as_json
from balance.core.errors import (BalanceError, as_list, as_path, check_bool, check_callable, check_int, check_text,
                                 one_of, plain, plain_overrides)
from balance.core.paired import PairedSums
from balance.core.runner import build_engine
from balance.core.variants import load_variant_file, parse_setting

# Rows that describe each variant without a test: no interval, no p-value, outside the
# multiple-comparison family (side_imbalance too, for a game that measures its sides).
DESCRIPTIVE = ("seat_gap", "seat_imbalance")
# The fairness rows: a root-mean-square distance from fair of each variant, tested on its
# square U (their rows keep U's change and standard error: u_change, u_se).
FAIRNESS = ("seat_distance", "side_distance", "side_relative_distance")


@dataclass(frozen=True)
class VariantSpec:
    name: str
    overrides: dict
    source: str  # what the user wrote


def _lever_variant(spec, text):
    """A lever of the game named alone (``--variant NAME``, as ``balance rules GAME`` lists the
    levers) as its ``NAME:SETTING``; anything else (a file of that name too) as given."""
    name = text.strip() if isinstance(text, str) else None
    lever = next((lever for lever in spec.levers if lever.name == name), None)
    return lever.variant if lever is not None and not Path(name).exists() else text


def parse_variant(spec: str) -> VariantSpec:
    """``default`` | ``FILE.toml`` | ``key=value;key=value``, optionally ``name:...``."""
    text = check_text("variant", spec, "'default', 'v.toml' or 'NAME:KEY=VALUE'").strip()
    name = None
    head, sep, rest = text.partition(":")
    if sep and not head.strip() and "=" in rest:  # read as a key ':hand' before
        raise BalanceError(f"variant {spec!r} has an empty name before ':'; give NAME:{rest.strip()}, "
                           f"or {rest.strip()} alone (named by its settings)")
    if sep and head and "=" not in head and "/" not in head and not head.endswith(".toml"):
        name, text = head.strip(), rest.strip()
    if text in ("", "default"):
        return VariantSpec(name or "default", {}, spec)
    if text.endswith(".toml") or Path(text).is_file():
        return VariantSpec(name or Path(text).stem, load_variant_file(text), spec)
    overrides = {}
    for item in filter(None, (s.strip() for s in text.split(";"))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BalanceError(
                f"variant {spec!r}: {item!r} is not key=value; a variant is 'default', a .toml "
                "file, or 'key=value;key=value' (optionally 'name:...')"
            )
        if key.strip() in overrides:  # the last would win silently, while the variant's name shows both
            raise BalanceError(f"variant {spec!r}: {key.strip()} is given twice; give each rules key once")
        try:
            overrides[key.strip()] = parse_setting(key.strip(), value, "--variant", joiner=";")
        except BalanceError as e:
            raise BalanceError(f"variant {spec!r}: {e}") from None
    return VariantSpec(name or text, overrides, spec)


def _var(total, total_sq, n):
    return np.maximum(total_sq - total**2 / n, 0.0) / max(n - 1, 1)


def summarize(names: list[str], sums: PairedSums, scales: np.ndarray, alpha: float,
              players: int, sides: list[str] = (), moments: np.ndarray | None = None) -> list[dict]:
    """One dict per metric of ``names`` (the game's compare metrics, seats first), then with
    ``sides`` (the metrics that are each side's win rate) ``side_imbalance`` (a description)
    and the sides' fairness test: ``side_distance`` in a competitive game,
    ``side_relative_distance`` in a cooperative one (left out when a variant's team won too
    few games, ``stats.paired_relative_fairness_test``); then, when ``players`` seat columns
    lead them (competitive games; 0 for cooperative ones), ``seat_shift`` and
    ``seat_distance`` (tests), ``seat_gap`` and ``seat_imbalance`` (descriptions). Each:
    baseline and variant (``value``) means, the paired difference with its CI and p-value
    (None for the descriptive rows), the variance reduction of pairing, ``games`` (n) and
    ``seat`` (the seat a seat_shift row names, else None). Sums are the metrics' scaled
    integers (``scales``); ``moments`` the per-game second moments of the
    ``fairness_columns`` (``pair_moments``)."""
    n = sums.n
    rows = []
    for i, name in enumerate(names):
        k, k2 = scales[i], scales[i] ** 2
        test = stats.paired_mean_test(sums.d[i] / k, sums.d2[i] / k2, n, 1 - alpha)
        var_a = _var(sums.a[i] / k, sums.a2[i] / k2, n)
        var_b = _var(sums.b[i] / k, sums.b2[i] / k2, n)
        var_d = _var(sums.d[i] / k, sums.d2[i] / k2, n)
        unpaired = var_a + var_b
        rows.append({
            "metric": name, "seat": None, "games": n, "baseline": sums.a[i] / k / n,
            "value": sums.b[i] / k / n, "difference": test["mean"], "lo": test["lo"],
            "hi": test["hi"], "p_value": test["pvalue"],
            "variance_reduction": float(unpaired / var_d) if var_d > 0 else math.inf,
        })
    columns = fairness_columns(names, players, sides)
    scale = np.r_[scales[columns], scales[columns]]  # the moments' columns: the baseline's, then the variant's
    cross = moments / np.outer(scale, scale) / n if columns else None
    if sides:  # how far the sides' rates are from their average, relative to it (noise adds to it)
        rates = [np.array([r[key] for r in rows if r["metric"] in sides]) for key in ("baseline", "value")]
        rows.append(_described("side_imbalance", *rates, relative_spread, n))
        side_cross = _block(cross, range(players, len(columns)))
        same_sides = not sums.d2[columns[players:]].any()
        if players:  # the sides' average is the seats' (fixed): their distance from it is tested
            test = stats.paired_fairness_test(np.concatenate(rates), side_cross, n, 1 - alpha, target=None)
            rows.append(_distance_row("side_distance", test, len(sides), n, same_sides))
        else:  # the team's rate moves with the difficulty: the distance relative to it is tested
            test = stats.paired_relative_fairness_test(np.concatenate(rates), side_cross, n, 1 - alpha)
            if test is not None:  # None: a variant's team won too few games to be relative to
                rows.append(_distance_row("side_relative_distance", test, len(sides), n, same_sides))
    if not players:  # a cooperative game: one team result, no seat to shift
        return rows
    return rows + _seat_rows(sums, scales[:players], alpha, rows[:players], _block(cross, range(players)))


def relative_spread(rates: np.ndarray) -> float:
    """The sides' mean absolute distance from their average win rate, divided by that average
    (float64[k] rates; NaN when no side won). Relative, because a variant may move every side:
    a rule that makes a cooperative game harder lowers every side's rate, and an absolute
    distance would shrink with them, calling the sides closer when only the game got harder."""
    mean = rates.mean()
    return float(np.abs(rates - mean).mean() / mean) if mean > 0 else math.nan


def _described(metric: str, base: np.ndarray, other: np.ndarray, measure, n: int) -> dict:
    """A descriptive row: ``measure`` of the baseline's and the variant's rates (float64[k]
    each), with no interval or test."""
    b, v = float(measure(base)), float(measure(other))
    return {"metric": metric, "seat": None, "games": n, "baseline": b, "value": v,
            "difference": v - b, "lo": None, "hi": None, "p_value": None, "variance_reduction": None}


def seat_confidence(alpha: float, players: int) -> float:
    """Per-seat confidence of the seat_shift test: (1 - alpha)^(1/players) (Sidak)."""
    return (1 - alpha) ** (1 / players)


def _seat_rows(sums: PairedSums, scales: np.ndarray, alpha: float, seat_rows: list[dict],
               cross: np.ndarray) -> list[dict]:
    """seat_shift and seat_distance (the tests), seat_gap and seat_imbalance (descriptions)
    from the per-seat sums: ``scales`` float64[players] (win units per share), ``seat_rows``
    the win-share rows, ``cross`` float64[2P, 2P] the seats' mean per-game products.

    seat_shift: with d_s a game's win-share difference of seat s, z_s = mean(d_s) / se_s and
    T = max_s |z_s|; p = 1 - (1 - p_min)^P with p_min = 2 Phi(-T), valid whatever the
    correlation between seats (Sidak 1967, JASA 62:626: for a normal vector,
    P(all |Z_s| <= c) >= prod_s P(|Z_s| <= c)). The interval is the most-moved seat's,
    mean(d_S) +- z' se_S with z' the two-sided quantile of per-seat confidence
    (1 - alpha)^(1/P), so p < alpha exactly when it excludes 0: interval and p are the
    same statistic.
    """
    n, players = sums.n, len(scales)
    test = stats.paired_mean_test(sums.d[:players] / scales, sums.d2[:players] / scales**2, n,
                                  seat_confidence(alpha, players))
    z = np.abs(np.asarray(test["z"]))
    seat = int(np.argmax(z))  # the first seat among equals (all of them when nothing moved)
    p_min = float(np.asarray(test["pvalue"])[seat])
    p = 1.0 if p_min >= 1 else -math.expm1(players * math.log1p(-p_min))  # exact for tiny p_min
    base = sums.a[:players] / scales / n  # float64[players] win rates
    other = sums.b[:players] / scales / n
    fair = 1.0 / players
    # a game the turn cap stopped hands out no win, so the seats' rates add up to less than 1 and
    # neither 1/players nor a distance in points of every game is fair to compare: a variant
    # finishing more games scales every seat's rate up, its gaps with them. With games capped the
    # seats are judged by their shares of the finished games' wins (each rate over the seats'
    # average, over players), so capping fewer games makes the seats neither fairer nor less so
    capped = min(base.sum(), other.sum()) < 1 - 1e-9

    return [
        {"metric": "seat_shift", "seat": seat, "games": n, "baseline": float(base[seat]),
         "value": float(other[seat]), "difference": float(np.asarray(test["mean"])[seat]),
         "lo": float(np.asarray(test["lo"])[seat]), "hi": float(np.asarray(test["hi"])[seat]),
         "p_value": p, "variance_reduction": seat_rows[seat]["variance_reduction"]},
        _distance_row("seat_distance", _seat_fairness_test(np.r_[base, other], cross, n, alpha, capped), players,
                       n, not sums.d2[:players].any()),
        _described("seat_gap", base, other, lambda rates: rates.max() - rates.min(), n),
        _described("seat_imbalance", base, other,
                   lambda rates: (np.abs(rates / rates.mean() - 1).sum() / players if capped and rates.mean() > 0
                                  else np.abs(rates - fair).sum()), n),
    ]


def _seat_fairness_test(means: np.ndarray, cross: np.ndarray, n: int, alpha: float, capped: bool) -> dict:
    """The seat_distance test (``stats.paired_fairness_test`` around 1/players), or where games
    were capped the same test on the seats' shares of the finished games' wins: the relative
    test (``stats.paired_relative_fairness_test``, each rate over the seats' average) scaled by
    1/players, so its distances read in points of those shares. Too few wins for a relative
    test: the distance around each variant's own average seat rate."""
    players = means.size // 2
    if not capped:
        return stats.paired_fairness_test(means, cross, n, 1 - alpha, target=1.0 / players)
    test = stats.paired_relative_fairness_test(means, cross, n, 1 - alpha)
    if test is None:
        return stats.paired_fairness_test(means, cross, n, 1 - alpha, target=None)
    # r = rate / average - 1 = players x (share of the finished games' wins) - 1: U scales by 1/P^2
    scale = 1.0 / players**2
    return {k: v * scale if k in ("u_a", "u_b", "delta", "lo", "hi", "sd", "sd_unpaired") else v
            for k, v in test.items()}


def fairness_columns(names: list[str], players: int, sides=()) -> list[int]:
    """The metric columns whose fairness compare tests (indices into ``names``): the P seats'
    win shares (none in a cooperative game), then each side's win rate."""
    return [*range(players), *(names.index(side) for side in sides)]


def pair_moments(base: np.ndarray, other: np.ndarray, columns: list[int]) -> np.ndarray:
    """A chunk's per-game second moments of the ``columns`` (``fairness_columns``), the
    baseline's then the variant's: int64[2L, 2L], sums of products over the chunk's games of
    the scaled integer metrics int64[games, k]; exact, so they add up the same in any
    chunking."""
    values = np.hstack([base[:, columns], other[:, columns]]).astype(np.float64)
    # BLAS in float64, exact: a chunk's sums of products of win units (at most WIN_UNIT^2 per
    # game, chunks of at most 10^8 games) stay far below 2^53
    return np.rint(values.T @ values).astype(np.int64)


def _block(cross: np.ndarray, index: range) -> np.ndarray:
    """The baseline's and the variant's entries of ``index`` in ``cross`` (float64[2L, 2L]:
    the baseline's L columns, then the variant's): float64[2k, 2k]."""
    both = [*index, *(i + len(cross) // 2 for i in index)]
    return cross[np.ix_(both, both)]


def _distance_row(metric: str, test: dict, k: int, n: int, identical: bool) -> dict:
    """A fairness row (``FAIRNESS``) from its ``test`` of k rates (``stats.paired_fairness_test``
    or ``paired_relative_fairness_test``): each variant's root-mean-square distance from fair,
    sqrt(U / k) with U the squared distance less its noise, and whether it changed. The test
    and its interval are on U; the interval is shown on the distance scale at the baseline's
    U (the same map for both ends, so it excludes 0 exactly when p < alpha). ``identical``:
    the k rates' per-game values are the same in both arms (their integer sums of squared
    differences are 0), so pairing removed all the noise."""

    def distance(u):
        return math.sqrt(max(u, 0.0) / k)

    d_a = distance(test["u_a"])
    return {"metric": metric, "seat": None, "games": n, "baseline": d_a,
            "value": distance(test["u_b"]), "difference": distance(test["u_b"]) - d_a,
            "lo": distance(test["u_a"] + test["lo"]) - d_a, "hi": distance(test["u_a"] + test["hi"]) - d_a,
            "p_value": test["pvalue"],
            # identical games leave an sd of rounding error, not 0, whose size depends on the
            # machine's BLAS (1e-19 and 2e-9 of the unpaired sd were seen): decided exactly instead
            "variance_reduction": math.inf if identical else (test["sd_unpaired"] / test["sd"]) ** 2,
            # the tested change of U and its standard error, which `balance plan --pilot` scales
            "u_change": test["delta"], "u_se": test["sd"]}


@dataclass
class Comparison:
    """A finished comparison: ``report`` is the JSON-ready dict (also comparison.json)."""

    report: dict
    out: Path | None = None

    @property
    def any_different(self) -> bool:
        return self.report["any_different"]


def compare(game: str, variants: list[str], players: int | None = None, games: int = 100_000, seed: int = 0,
            strategies=None, alpha: float = 0.05, correction: str = "holm",
            sprt: dict | None = None, batch: int | None = None, chunk_size: int | None = None,
            on_progress=None, threads: int | None = None, keep=None, common: dict | None = None,
            out: str | Path | None = None, force: bool = False, resume: bool = False,
            primary: list[str] | None = None, margin: float | None = None,
            margins: dict[str, float] | None = None, sides: list[str] | None = None) -> Comparison:
    """Compare rule variants (the first is the baseline) on the same games.

    players: a count (None: the game's default), or a list of counts: every variant is then
    played at each (``games`` per variant and count), and ``report`` holds one comparison per
    count (``by_players``) whose rows are adjusted together, each family spanning the counts
    (not with ``sprt``).

    variants: specs for ``parse_variant``. common: rule settings every variant starts from
    (a study's conditions, the settings its run used: ``--set``); a variant's own setting of
    the same key replaces it. Returns every metric's baseline, variant, paired
    difference with CI, p-value adjusted over all tested metrics and variants (Holm or
    Benjamini-Hochberg) and ``significant``; ``seat_shift`` tests every seat at once;
    ``seat_gap`` and ``seat_imbalance`` describe (no test). Metrics are summed as exact
    integers, so any ``threads`` and ``chunk_size`` give the same numbers.

    sprt: ``{"delta", "alpha", "beta", "metric"}`` for the sequential mode: ``games`` is then
    a cap, played in batches of ``batch`` games (default 10,000). After each batch every
    undecided variant's SPRT on ``metric`` (default win_share_seat0) is updated; a variant
    that decides stops being played, and its rows are summarised at that point with its own
    ``games``. With m variants besides the baseline, each SPRT runs at alpha / (2m) per side,
    so the chance that any of them falsely accepts H1 is about alpha (Bonferroni over the m
    tests, each two-sided at alpha / m). ``any_different`` is then "some variant accepted
    H1", and the rows are descriptive (``significant`` None): p-values taken at a stopping
    point chosen by the data are not valid tests.

    primary: the metrics (rows) the comparison is about, named before it is played, e.g.
    ``['win_share_seat0']`` or ``['seat_distance']`` (``tested_metrics``): their rows of every
    variant are one family, corrected together, and alone decide ``any_different`` (and so
    ``--fail-if-different``); every other tested row is secondary, corrected among the
    secondary rows (each row's ``family``). A small family keeps the question's power: over
    111 rows Holm's first level is alpha / 111, which needs 2.2 times the games alpha does
    (at 90% power). A question row a variant could not test (a cooperative game's sides when
    its team won too few games) is named in ``untested`` and ``warnings``.
    None: every tested row is one family. Not with ``sprt``, whose metric is the question.

    margin: the largest change of a rate that does not matter (0.005 = 0.5 pp). Each rate row of
    the question (the primary rows, else every tested rate row; not seat_shift's simultaneous
    interval, nor the fairness rows, which are tested on their square) gets ``p_equivalent``,
    the TOST p of "its change is within +-margin" (``stats.equivalence_test``), adjusted over
    those rows by ``correction`` (``p_equivalent_adjusted``), and ``equivalent`` (adjusted p <
    alpha): a change shown too small to matter, which "no significant difference" is not. A row
    whose games never differed is decided by how many games could have (``stats.
    equivalence_test``'s bound). Not with ``sprt``, nor with a question that has no rate row.

    margins: a margin per named metric, in its own unit (``{"length": 1}``: a game length
    within +-1 of its unit; a rate's as ``margin``), for metrics that are not rates, or a rate
    whose margin is not ``margin``'s. Each must be one of the game's compare metrics and, with
    ``primary``, one of the question's. Its rows join the equivalence test above (one family
    with the rate rows ``margin`` tests), and each tested row carries its ``margin``.

    sides: for a game whose seats play as something (a hero, a faction pair): the side of every
    seat (one) or of each seat (one per seat), the same in every variant, at one player count.
    The seats' rows then measure each seat with its side (the seats are not rotated), and the
    sides' own rows and fairness test are left out: they estimate a side's rate over games that
    deal it at random. None: each game's sides are drawn, the same in every variant.

    ``warnings`` lists variants whose rules are identical (their differences are zero by
    construction).

    keep: a ``balance.analysis.study`` checkpointer: the sums of every finished chunk (and each
    SPRT's state) are kept in its ``state.json``, and a resumed comparison plays only the
    chunks it lacks, to the same numbers.

    out: write comparison.json and the report (report.md, report.html, its figure) into this
    directory, as ``balance compare --out`` does, all at once when the comparison is done. A
    directory that holds other files is refused; a finished output is replaced only with
    ``force``. Meanwhile the finished chunks are kept in ``.NAME.partial`` beside it, so a
    comparison cut by Ctrl-C or a crash continues with ``resume=True`` and the same arguments.
    """
    from balance.core.api import MAX_GAMES, MAX_SEED, MAX_THREADS
    from balance.core.runner import DEFAULT_CHUNK

    # every argument checked before anything is made: with out, a .NAME.partial made for a call
    # whose arguments are then refused would block the corrected retry
    games, seed, threads, chunk_size, batch, players, alpha = map(
        plain, (games, seed, threads, chunk_size, batch, players, alpha))
    check_int("games", games, 2, MAX_GAMES)
    check_int("seed", seed, 0, MAX_SEED)
    if threads is not None:
        check_int("threads", threads, 1, MAX_THREADS)
    if isinstance(variants, str):
        raise BalanceError(f"variants={variants!r} is one text; give a list of at least two, the baseline "
                           f"first, e.g. ['default', 'KEY=VALUE'] (`balance rules {game}` lists the keys)")
    # a set's order (which variant is the baseline) would change from run to run
    variants = [str(v) if isinstance(v, PathLike) else v
                for v in as_list("variants", variants, "['default', 'KEY=VALUE']")]
    strategies = as_list("strategies", strategies, "['NAME'] (one for every seat) or one per seat")
    sides = as_list("sides", sides, "['NAME'] (one for every seat) or one per seat")
    if sides is not None:
        sides = [check_text("side", side, "one side for every seat, or one per seat") for side in sides]
        if not sides:
            raise BalanceError("sides=[] names no side; give one for every seat or one per seat, or None to draw "
                               "them per game")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise BalanceError(f"alpha={alpha!r} is not a number; allowed: 0 < alpha < 1")
    if not 0 < alpha < 1:
        raise BalanceError(f"alpha={alpha!r} is out of range; allowed: a number, 0 < alpha < 1")
    _check_sprt(sprt, batch)
    if primary is not None:
        primary = [check_text("primary", m, "'win_share_seat0'")
                   for m in as_list("primary", primary, "['win_share_seat0']")]
        if not primary:
            raise BalanceError("primary=[] names no metric; give one or more (e.g. ['win_share_seat0']), or "
                               "None for every row in one family")
        if sprt is not None:
            raise BalanceError("primary applies to the fixed-size comparison; with sprt the SPRT's metric is "
                               "the question (its rows are descriptive): drop one of them")
    margin = check_rate_margin(margin)
    if margin is not None:
        if sprt is not None:
            raise BalanceError("margin applies to the fixed-size comparison; with sprt, its delta is the size "
                               "that matters (H0 accepted: no difference that large): drop one of them")
    margins = check_margins(margins, sprt)
    if check_text("correction", correction, "'holm'") not in CORRECTIONS:
        raise BalanceError(f"unknown correction {correction!r}; allowed: {', '.join(CORRECTIONS)}")
    common = plain_overrides(common, "common")
    check_callable("on_progress", on_progress)
    force, resume = check_bool("force", force), check_bool("resume", resume)
    if len(variants) < 2:
        from balance.core.registry import get_game

        get_game(game)  # an unknown game is the error to report, not the variants
        raise BalanceError("give at least two --variant (the first is the baseline), e.g. "
                           f"--variant default --variant KEY=VALUE (`balance rules {game}` lists the keys)")
    chunk_size = DEFAULT_CHUNK if chunk_size is None else chunk_size  # 0 is refused, not replaced
    check_int("chunk_size", chunk_size, 1, 10**8)
    counts = _player_counts(players)
    players = players if players is None or isinstance(players, int) else counts  # what a resume compares
    if len(counts) > 1 and sprt is not None:
        raise BalanceError(f"sprt decides one player count, and players={counts} names {len(counts)}: run the "
                           "sequential comparison once per count, or drop sprt")
    if len(counts) > 1 and sides is not None:
        raise BalanceError(f"sides fix each seat's side at one player count, and players={counts} names "
                           f"{len(counts)}: compare once per count with its sides, or drop sides")
    if out is not None or resume:
        return _compare_into(as_path("out", out), force, resume, keep, game, variants, dict(
            players=players, games=games, seed=seed, strategies=strategies, alpha=alpha,
            correction=correction, sprt=sprt, batch=batch, chunk_size=chunk_size, on_progress=on_progress,
            threads=threads, common=common, primary=primary, margin=margin, margins=margins, sides=sides))
    if len(counts) > 1:
        return _compare_counts(counts, game, variants, keep, dict(
            games=games, seed=seed, strategies=strategies, alpha=alpha, correction=correction, sprt=None,
            batch=batch, chunk_size=chunk_size, on_progress=on_progress, threads=threads, common=common,
            primary=primary, margin=margin, margins=margins))
    played = _play(_prepare_count(game, variants, counts[0], games=games, strategies=strategies, sprt=sprt,
                                  batch=batch, common=common, primary=primary, margin=margin, margins=margins,
                                  sides=sides),
                   keep, seed=seed, alpha=alpha, chunk_size=chunk_size, on_progress=on_progress, threads=threads)
    _decide([played], correction, alpha, margin, margins)
    return Comparison(_count_report(played, seed=seed, games=games, alpha=alpha, correction=correction,
                                    common=common, margin=margin, margins=margins))


def _given_names(engine) -> list[str]:
    """Each seat's given side as the game names it: the engine keeps an index into its
    ``side_names``, or, for a game that parses its sides (``parse_side``), the canonical text."""
    return [side if isinstance(side, str) else engine.side_names[int(side)] for side in engine.given_sides]


def _refuse_side_rows(metrics, primary, margins, sprt) -> None:
    """A question about the rows ``GivenSides`` leaves out, refused in words that say why (they
    exist, and read as "unknown" they sent a user to look for a misspelling)."""
    dropped = set(getattr(metrics, "side_metrics", ())) | {"side_distance", "side_relative_distance"}
    asked = [*(primary or ()), *(margins or {}), *([sprt.get("metric")] if sprt else [])]
    wrong = [m for m in asked if m in dropped]
    if wrong:
        raise BalanceError(f"{wrong[0]} is left out with --side (sides=): a side's row estimates its rate over games "
                           "that deal it at random, and here each seat's is given; ask the seats' rows "
                           "(win_share_seat0, seat_distance, ...), which are the given sides' own")


class GivenSides:
    """A game's compare metrics where every seat's side is given (``sides``): its side rows
    left out (the last ``side_metrics`` columns). A side's row estimates its win rate over the
    games that deal it at random (its column scaled by the chance a game does); with the sides
    given none is dealt at random, and each seat's own row is then its side's rate."""

    def __init__(self, inner):
        self.inner = inner
        self.keep = len(inner.names) - len(getattr(inner, "side_metrics", ()))

    side_metrics: list = []

    def __getattr__(self, name):  # what the game's metrics say besides (side_label, seat_columns)
        return getattr(self.inner, name)

    @property
    def names(self) -> list[str]:
        return self.inner.names[:self.keep]

    @property
    def units(self) -> list[str]:
        return list(self.inner.units)[:self.keep]

    @property
    def scales(self) -> np.ndarray:
        return self.inner.scales[:self.keep]

    def per_game(self, chunk, rules) -> np.ndarray:
        return self.inner.per_game(chunk, rules)[:, :self.keep]

    def bounds(self, rules) -> np.ndarray:
        return self.inner.bounds(rules)[:self.keep]


@dataclass
class _Played:
    """One player count of a comparison, played: its setup, its tally and its rows (not yet
    adjusted: ``_decide`` adjusts the rows of every count of the comparison together)."""

    spec: object
    parsed: list
    seats: list
    engines: list
    names: list[str]
    metrics: object
    sides: list[str]
    seat_columns: int
    primary: list[str] | None
    units: dict
    tally: "_Tally"
    tests: dict
    metric: str | None
    batch: int
    games: int  # games per variant (the cap with sprt)
    sprt: dict | None
    rows: list[dict]
    given_sides: list[str] | None = None  # each seat's side, when given (--side); None: drawn per game
    fixed_sides: list[bool] | None = None  # per seat, its counted side fixed by the side given

    @property
    def players(self) -> int:
        return len(self.seats)


def _prepare_count(game: str, variants: list[str], players: int | None, *, games, strategies, sprt, batch, common,
                   primary, margin, margins, sides=None) -> _Played:
    """One player count's engines, metrics and empty tally, every setting checked (nothing
    played: a comparison at several counts checks them all before it plays any)."""
    from balance.core.api import MAX_GAMES

    spec, parsed, seats, engines = _setup(game, variants, players, strategies, common, sides)
    players = len(seats)
    names = _unique_names([p.name for p in parsed])
    metrics = spec.part("metrics").compare_metrics([e.rules for e in engines], players)
    given = fixed = None
    if sides is not None:  # each seat's side as the game names it (_setup checked them), read off the baseline's engine
        given = _given_names(engines[0])
        fixed = list(engines[0].fixed_sides)  # a side text may leave the counted side drawn (one part given)
        if any(fixed):  # the side rows assume every seat's side drawn at random
            _refuse_side_rows(metrics, primary, margins, sprt)
            metrics = GivenSides(metrics)
    metric_names = metrics.names
    seat_columns = seat_metric_count(metrics, players)
    side_rows = list(getattr(metrics, "side_metrics", ()))  # each side's win rate, if the game has sides
    primary = _check_primary(primary, tested_metrics(metric_names, seat_columns, side_rows))
    units = dict(zip(metric_names, metrics.units))
    if margin is not None and primary and not any(units.get(m) == "rate" for m in primary):
        rates = [m for m in metric_names if units[m] == "rate"]
        raise BalanceError(f"--margin tests the rate rows of the question, and --primary {', '.join(primary)} has "
                           f"none; add a rate to --primary ({', '.join(rates[:4])}, ...), or drop --margin")
    # the seat and side rows too, so that a margin on one is told why it has none
    check_margin_metrics(margins, {**units, **_row_units(seat_columns, side_rows)}, primary)
    tests, metric = {}, None
    if sprt is not None:
        metric = sprt.get("metric") or metric_names[0]  # seat 0's win share, or the team's win
        if metric not in metric_names:
            raise BalanceError(f"unknown metric {metric!r}; allowed: {', '.join(metric_names)}")
        tests = _sprt_tests(sprt, metric_names.index(metric), engines, names, metrics)
        batch = 10_000 if batch is None else batch  # not `batch or`: a batch of 0 is refused, not replaced
        check_int("batch", batch, 2, MAX_GAMES)
    else:
        batch = games  # one batch: every chunk in parallel

    # what the variants' games add up to so far (and what a checkpoint keeps)
    tally = _Tally(names, fairness_columns(metric_names, seat_columns, side_rows), tests)
    return _Played(spec, parsed, seats, engines, names, metrics, side_rows, seat_columns, primary, units, tally, tests,
                   metric, batch, games, sprt, [], given, fixed)


def _play(c: _Played, keep, *, seed: int, alpha: float, chunk_size: int, on_progress, threads) -> _Played:
    """Play ``c``'s games (those a checkpoint ``keep`` lacks) and fill its rows."""
    engines, metrics, tally, tests, games, batch = c.engines, c.metrics, c.tally, c.tests, c.games, c.batch
    metric_names, scales = metrics.names, metrics.scales
    rules = as_json([e.rules.to_dict() for e in engines])  # as a checkpoint saves them
    if keep is not None and keep.load_json(STATE, lambda data: tally.restore(data, rules), None):
        if on_progress is not None:
            on_progress(tally.progress)

    def play_chunk(playing, first_n):
        """Metrics of the variants ``playing`` (the baseline first) on the same games; numba
        releases the GIL, so chunks run in parallel."""
        first, n = first_n
        return [metrics.per_game(engines[v].play(seed, first, n), engines[v].rules)
                for v in playing], first, n

    from concurrent.futures import ThreadPoolExecutor
    from functools import partial

    from balance.core.interrupts import deferred
    from balance.core.runner import default_threads

    column = metric_names.index(c.metric) if tests else None  # the SPRT's metric
    try:
        with ThreadPoolExecutor(max_workers=threads or default_threads()) as pool:
            while tally.played < games and tally.active:
                n_batch = min(batch, games - tally.played)
                spans = [(f, min(chunk_size, tally.played + n_batch - f))
                         for f in range(tally.played, tally.played + n_batch, chunk_size) if f not in tally.done]
                playing = [0] + tally.active
                for values, first, n in pool.map(partial(play_chunk, playing), spans):  # integer sums: any order
                    with deferred():  # a chunk is folded and marked done together, or not at all
                        tally.fold(playing, values, first, n)
                        if keep is not None and keep.due():
                            keep.save_json(STATE, tally.to_json(rules))
                    if on_progress is not None:
                        on_progress(n * len(playing))
                with deferred():  # the batch's end: its decisions and the next batch's start
                    tally.end_batch(n_batch, column, scales[column] if tests else None)
    except BaseException:
        if keep is not None:
            keep.release()  # a notebook goes on: another command may continue the comparison
        raise
    finally:  # every finished chunk kept for --resume: after Ctrl-C, SIGTERM or an error, and before
        if keep is not None:  # the outputs are written (a full disk there)
            with deferred():
                keep.save_json(STATE, tally.to_json(rules))
    c.rows = [{"variant": name, **row} for name, s, m in zip(c.names[1:], tally.sums, tally.moments)
              for row in summarize(metric_names, s, scales, alpha, c.seat_columns, c.sides, m)]
    return c


def _decide(counts: list[_Played], correction: str, alpha: float, margin: float | None,
            margins: dict | None) -> None:
    """Adjust the rows of every player count of a comparison together, in place: one family
    (with a question, one per family) over the counts, so the chance of any false claim holds
    for the whole comparison; then the equivalence tests, one family over the counts too."""
    rows = [r for c in counts for r in c.rows]
    _adjust(rows, correction, alpha, sequential=bool(counts[0].tests), primary=counts[0].primary)
    if margin is None and not margins:
        return
    bound = {}  # id(row) -> a game's largest |difference| of its metric, under its variant's rules or the baseline's
    for c in counts:
        largest = {name: np.maximum(c.metrics.bounds(c.engines[0].rules), c.metrics.bounds(e.rules))
                   for name, e in zip(c.names[1:], c.engines[1:])}
        index = {m: i for i, m in enumerate(c.metrics.names)}
        bound |= {id(r): largest[r["variant"]][index[r["metric"]]] for r in c.rows if r["metric"] in index}
    each = {m: v for c in counts for m, v in row_margins(margin, margins, c.units).items()}  # seat 3 at 4 players
    _equivalence(rows, each, lambda r: bound[id(r)], correction, alpha)


def _count_report(c: _Played, *, seed: int, games: int, alpha: float, correction: str, common: dict | None,
                  margin: float | None, margins: dict | None, counts: list[int] | None = None) -> dict:
    """The comparison.json of one player count (its rows adjusted by ``_decide``); ``counts``:
    every player count of a comparison that played several (their rows were corrected together)."""
    from balance import __version__
    from balance.core.registry import game_package

    spec, players, names, tally, metrics = c.spec, c.players, c.names, c.tally, c.metrics
    rows, primary, units = c.rows, c.primary, c.units
    untested = _untested(rows, primary, names[1:])
    if c.tests:
        any_different = any(d == "H1" for d in tally.decisions.values())
    else:  # with primary, the question's rows alone
        any_different = any(r["significant"] for r in rows if r.get("family", "primary") == "primary")
    return {
        "game": spec.id, "title": spec.title, "rules_version": spec.rules_version,
        "package_version": __version__, **({"game_package": package} if (package := game_package(spec.id)) else {}),
        "players": players, "seed": seed, "games": tally.played,
        "games_requested": games,
        "strategies": [{"seat": i, **s.to_dict(), **({"side": c.given_sides[i]} if c.given_sides else {})}
                       for i, s in enumerate(c.seats)],
        # each seat's side when given (the same in every variant); "drawn": per game; absent: the game has none
        **({"seat_sides": c.given_sides or "drawn"} if c.spec.side is not None else {}),
        # per seat, whether the side given fixes its counted side (a side may leave a part drawn)
        **({"seat_sides_fixed": c.fixed_sides} if c.given_sides else {}),
        "baseline": names[0], "common": common or {},
        "variants": [{"name": n, "source": p.source, "overrides": p.overrides, "rules": e.rules.to_dict()}
                     for n, p, e in zip(names, c.parsed, c.engines)],
        "alpha": alpha, "confidence": 1 - alpha, "correction": CORRECTIONS[correction],
        "seat_confidence": seat_confidence(alpha, players),
        # how each metric reads: a "rate" in % (differences in pp), "pp" a distance between
        # rates (in pp, as its differences), a "value" as a number
        "units": {**units, **_row_units(c.seat_columns, c.sides)},
        "methods": methods(players, alpha, sequential=bool(c.tests), primary=primary, margin=margin,
                           correction=correction, margins=margins, units=units, counts=counts),
        "results": _jsonable(rows),
        "primary": primary,  # the metrics the comparison is about (None: every tested row, one family)
        "margin": margin,  # the largest change of a rate that does not matter (None: no equivalence test)
        "margins": margins,  # a margin per named metric, in its unit (None: none named)
        # the metrics that are each side's win rate, and what the game calls its sides
        "sides": {"label": metrics.side_label, "metrics": c.sides} if c.sides else None,
        "sprt": _sprt_report(c.sprt, c.metric, c.batch, c.tests, tally.decisions, names, tally.sums)
        if c.tests else None,
        # the question's metrics a variant could not test (its rows absent), by variant
        "untested": untested,
        "warnings": _renamed([p.name for p in c.parsed], names) + _identical_rules(names, c.engines)
        + _untuned(c.seats, players) + [
            f"variant {v!r} could not test {', '.join(ms)} of the question: its team won too few games "
            f"for its {metrics.side_label}' rates to be relative to" for v, ms in untested.items()],
        "any_different": bool(any_different),
        # the player counts whose rows were corrected together with these (None: this count alone)
        "counts": counts,
    }


def _player_counts(players) -> list[int | None]:
    """``players`` as the counts to compare at: [None] (the game's default), or the distinct
    counts given (``api.player_counts``) in rising order, each checked against the game's range by
    ``_setup``: --players 3,2 is the comparison --players 2,3 is (it resumes it, and reads alike)."""
    from balance.core.api import player_counts

    return [None] if players is None else sorted(player_counts(players))


def _compare_counts(counts: list[int], game: str, variants: list[str], keep, kwargs: dict) -> Comparison:
    """A comparison at several player counts: each count played as ``compare`` plays one (its
    state kept under its count, ``_CountKeep``), then every count's rows adjusted together."""
    setup = {k: kwargs[k] for k in ("games", "strategies", "sprt", "batch", "common", "primary", "margin", "margins")}
    if kwargs["strategies"] and len(kwargs["strategies"]) > 1:  # seats differ between the counts
        raise BalanceError(f"{len(kwargs['strategies'])} strategies given, one per seat; with several player counts "
                           f"({', '.join(map(str, counts))}) give one strategy, which every seat plays")
    prepared = []
    for n in counts:  # every count checked before any is played
        try:
            prepared.append(_prepare_count(game, variants, n, **setup))
        except BalanceError as e:  # a metric another count has, or a count's own rules
            raise BalanceError(_only_some(game, variants, counts, setup) or f"at {n} players: {e}") from None
    shared = keep.load_json(STATE, lambda data: dict(data["by_players"]), {}) if keep is not None else {}
    played = [_play(c, _CountKeep(keep, c.players, shared) if keep is not None else None, seed=kwargs["seed"],
                    alpha=kwargs["alpha"], chunk_size=kwargs["chunk_size"], on_progress=kwargs["on_progress"],
                    threads=kwargs["threads"]) for c in prepared]
    _decide(played, kwargs["correction"], kwargs["alpha"], kwargs["margin"], kwargs["margins"])
    options = {k: kwargs[k] for k in ("seed", "games", "alpha", "correction", "common", "margin", "margins")}
    reports = [_count_report(c, counts=counts, **options) for c in played]
    tested = [r.get("family") or "all" for c in played for r in c.rows if r["p_value"] is not None]
    for r in reports:  # each count's power statements are at the level of the family over every count
        r["family_sizes"] = {name: tested.count(name) for name in dict.fromkeys(tested)}
    first = reports[0]
    from balance import __version__

    return Comparison({
        "game": first["game"], "title": first["title"], "rules_version": first["rules_version"],
        "package_version": __version__, **({"game_package": first["game_package"]} if "game_package" in first else {}),
        "players": counts, "seed": first["seed"],
        "games": first["games_requested"], "baseline": first["baseline"], "common": first["common"],
        "alpha": first["alpha"], "correction": first["correction"], "primary": first["primary"],
        "margin": first["margin"], "margins": first["margins"],
        "by_players": reports,  # one complete comparison per count, in the order given
        "untested": {f"{v} at {r['players']} players": ms for r in reports for v, ms in r["untested"].items()},
        "warnings": [f"{r['players']} players: {w}" for r in reports for w in r["warnings"]],
        "any_different": any(r["any_different"] for r in reports),
    })


def _only_some(game: str, variants: list[str], counts: list[int], setup: dict) -> str | None:
    """Why a question cannot be asked of every count, when it names a metric some counts lack
    (seat 3's win share exists from 4 players), or None."""
    bare = {**setup, "primary": None, "margin": None, "margins": None}
    try:
        have = {n: tested_metrics(c.metrics.names, c.seat_columns, c.sides)
                for n, c in ((n, _prepare_count(game, variants, n, **bare)) for n in counts)}
    except BalanceError:  # a count's rules themselves: the caller's message names it
        return None
    for m in [*(setup["primary"] or ()), *(setup["margins"] or {})]:
        at = [n for n in counts if m in have[n]]
        if at and len(at) < len(counts):
            return (f"{m} exists at {', '.join(map(str, at))} players only, and a comparison at several counts asks "
                    f"every count the same question: compare at {', '.join(map(str, at))} players for it, or ask "
                    "seat_shift or seat_distance, which every count has")
    return None


class _CountKeep:
    """One player count's part of a checkpointed comparison at several counts: its tally is
    kept under its count in the one STATE file (the counts are played one after another, so a
    resumed comparison reads back the finished counts whole and the cut one where it stopped)."""

    def __init__(self, keep, players: int, shared: dict):
        self.keep, self.key, self.shared = keep, str(players), shared

    def load_json(self, name: str, read, empty):
        """As ``Checkpointer.load_json`` (a malformed state is called corrupted), of this count's part."""
        return self.keep.load_json(name, lambda data: read(data["by_players"][self.key])
                                   if self.key in data["by_players"] else empty, empty)

    def save_json(self, name: str, data) -> None:
        self.shared[self.key] = data
        self.keep.save_json(name, {"by_players": self.shared})

    def due(self) -> bool:
        return self.keep.due()

    def release(self) -> None:
        self.keep.release()


SPRT_KEYS = ("delta", "alpha", "beta", "metric")  # the first three required


def _check_sprt(sprt, batch) -> None:
    """The SPRT's settings: a dict of SPRT_KEYS (a misspelt key was dropped without a word, and
    the test ran on the default metric), and batch only with it (it changes nothing without)."""
    if sprt is None:
        if batch is not None:
            raise BalanceError(f"batch={batch!r} applies to sprt (the sequential mode); give sprt too, or drop batch")
        return
    if not (isinstance(sprt, dict) and set(SPRT_KEYS[:3]) <= set(sprt)):
        raise BalanceError(f"sprt={sprt!r}; give {{'delta': ..., 'alpha': ..., 'beta': ...}} (and optionally "
                           "'metric')")
    unknown = sorted(str(k) for k in sprt if k not in SPRT_KEYS)
    if unknown:
        raise BalanceError(f"sprt: unknown key {unknown[0]!r}; allowed: {', '.join(SPRT_KEYS)}")


def _compare_into(out, force: bool, resume: bool, keep, game: str, variants, kwargs: dict) -> Comparison:
    """``compare`` with ``out``: the CLI's way (``cli._run_study``) without its progress bar and
    signal handling, which belong to a program, not to a library call."""
    from balance.analysis.compare_report import write_compare_report
    from balance.analysis.study import API, KINDS
    from balance.core.checkpoint import read_request
    from balance.core.output import write_json

    if out is None:
        raise BalanceError("resume=True continues a comparison written to a directory: give out=DIR too")
    if keep is not None:
        raise BalanceError("give out=DIR or keep=CHECKPOINTER, not both (out keeps the work itself)")
    out = Path(out)
    # what decides the numbers, as JSON, and chunk_size, which names the kept chunks (threads and
    # on_progress do neither)
    request = {name: kwargs[name] for name in ("players", "games", "seed", "strategies", "alpha", "correction",
                                               "sprt", "batch", "common", "chunk_size", "primary", "margin",
                                               "margins")}
    if kwargs.get("sides") is not None:  # a comparison saved before sides reads as one without them
        request["sides"] = kwargs["sides"]
    request = {API: _request_value({"variants": variants, **request})}
    study = KINDS["compare"](out, game, request)
    if resume:
        if API not in read_request(out, KINDS["compare"]):
            raise BalanceError(f"{str(out)!r} holds a comparison started by the command line; continue it "
                               f"with balance compare {game} --resume {out}")
        study.reopen()
    else:
        study.start(force)
    try:
        result = compare(game, variants, keep=study, **kwargs)
    except Exception:  # not a KeyboardInterrupt: the chunks it kept are resumed
        if not resume:
            study.discard_if_empty()  # nothing to resume, and the directory would block a retry
        raise

    def write(directory: Path) -> None:
        write_json(directory / "comparison.json", result.report)
        write_compare_report(result.report, directory)

    study.finish(write)
    result.out = out
    return result


def _request_value(x):
    """``x`` as a request.json can hold it: numpy numbers and arrays as Python's (``plain``),
    anything else that JSON lacks (a value the validation will refuse) as its repr."""
    x = plain(x)
    if isinstance(x, dict):
        return {str(k): _request_value(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_request_value(v) for v in x]
    return x if x is None or isinstance(x, (str, int, float, bool)) else repr(x)


def _row_units(seat_columns: int, sides: list) -> dict:
    """The units of the rows summarize adds to the game's metrics: the seat rows only where
    seats compete, the side rows only with sides (side_distance in a competitive game,
    side_relative_distance in a cooperative one)."""
    units = {}
    if seat_columns:
        # seat_gap and seat_imbalance, like seat_distance, are distances between rates
        units |= {"seat_shift": "rate"} | {name: "pp" for name in ("seat_distance", *DESCRIPTIVE)}
    if sides:
        # a competitive game's sides in pp from their average; a cooperative game's relative to it
        units |= {"side_imbalance": "rate"} | ({"side_distance": "pp"} if seat_columns
                                               else {"side_relative_distance": "rate"})
    return units


class _Tally:
    """What a comparison's games add up to so far: for each variant besides the baseline
    (``names[1:]``) its PairedSums and the second moments of the ``columns`` (the fairness
    tests'), each SPRT and its decision, the variants still played (indices of ``names``),
    the games of the finished batches (``played``), the first games of the chunks finished
    in the current batch (``done``) and the games the progress bar counted. All of it is what
    a comparison's checkpoint keeps (``to_json``, ``restore``)."""

    def __init__(self, names: list[str], columns: list[int], tests: dict):
        self.names, self.columns, self.tests = names, columns, tests
        self.sums = [PairedSums() for _ in names[1:]]
        self.moments = [np.zeros((2 * len(columns),) * 2, np.int64) for _ in names[1:]]
        self.decisions = {name: "continue" for name in tests}
        self.active = list(range(1, len(names)))
        self.played, self.done, self.progress = 0, set(), 0

    def fold(self, playing: list[int], values: list[np.ndarray], first: int, n: int) -> None:
        """Add a chunk's per-game metrics (int64[n, k] of each variant ``playing``, the
        baseline first), whose first game is ``first``."""
        for j, v in enumerate(playing[1:], start=1):
            self.sums[v - 1].add(values[0], values[j])
            self.moments[v - 1] += pair_moments(values[0], values[j], self.columns)
        self.done.add(first)
        self.progress += n * len(playing)

    def end_batch(self, n_batch: int, column: int | None, scale: float | None) -> None:
        """A batch of ``n_batch`` games is played: update each active variant's SPRT on its
        ``column`` (of ``scale`` units); a variant that decides stops (its sums stay at n)."""
        self.played, self.done = self.played + n_batch, set()
        for v in list(self.active) if self.tests else ():
            s, name = self.sums[v - 1], self.names[v]
            self.decisions[name] = self.tests[name].update(float(s.d[column] / scale),
                                                           float(s.d2[column] / scale**2), s.n)
            if self.decisions[name] != "continue":
                self.active.remove(v)

    def to_json(self, rules: list) -> dict:
        return {"played": self.played, "done": sorted(self.done), "progress": self.progress,
                "active": self.active, "decisions": self.decisions, "rules": rules,
                "sums": [s.to_json() for s in self.sums], "moments": [m.tolist() for m in self.moments],
                "tests": {name: {"llr": t.llr, "history": t.history} for name, t in self.tests.items()}}

    def restore(self, data: dict, rules: list) -> bool:
        """Take a checkpoint's state. The options match (the checkpointer checked them), but a
        variant file they name may have changed since: the variants' ``rules`` (as JSON) must
        be those the kept games were played with."""
        changed = [i for i, (now, then) in enumerate(zip(rules, data["rules"])) if now != then]
        if changed:
            raise BalanceError(f"the rules of variant {changed[0]} differ from those of the interrupted "
                               "comparison (was its file edited?); start again with --force")
        moments = [np.array(m, np.int64) for m in data["moments"]]  # (JSON keeps no shape of 0 x 0)
        if any(m.size != own.size for m, own in zip(moments, self.moments)):
            raise BalanceError("the interrupted comparison kept other fairness columns (it was written by "
                               "another version of balance); start again with --force")
        self.sums = [PairedSums.from_json(saved) for saved in data["sums"]]
        self.moments = [m.reshape(own.shape) for m, own in zip(moments, self.moments)]
        self.decisions.update(data["decisions"])
        for name, test in self.tests.items():
            test.llr = float(data["tests"][name]["llr"])
            test.history = [(int(n), float(x)) for n, x in data["tests"][name]["history"]]
        self.played, self.progress = int(data["played"]), int(data["progress"])
        self.done = {int(f) for f in data["done"]}
        self.active = [int(v) for v in data["active"]]
        return True


def _setup(game: str, variants: list[str], players: int | None, strategies, common: dict | None = None,
           sides: list[str] | None = None):
    """(game spec, parsed variants, one Strategy per seat, one Engine per variant);
    players None: the game's default count; common: the settings every variant starts from;
    sides: each seat's side (one for every seat, or one per seat), checked against each
    variant's rules, or None: drawn per game."""
    from balance.core.api import side_indices
    from balance.core.registry import get_game
    from balance.core.strategy import parse_strategy

    spec = get_game(game)
    players = spec.default_players if players is None else players
    low, high = spec.players
    check_int("players", players, low, high)
    parsed = [parse_variant(_lever_variant(spec, v)) for v in variants]
    rules_mod = spec.part("rules")
    strategies = [spec.simulate_strategy] if strategies is None else strategies
    seats = [parse_strategy(s, spec.strategies) for s in strategies]
    if len(seats) not in (1, players):
        raise BalanceError(f"{len(seats)} strategies given for {players} players; give one for every seat "
                           f"or exactly {players}")
    seats = seats * players if len(seats) == 1 else seats
    if sides is not None and spec.side is None:
        raise BalanceError(f"{spec.id} has no sides: its seats do not play as anything; drop --side (sides=)")
    if sides is not None and len(sides) not in (1, players):
        raise BalanceError(f"{len(sides)} sides given for {players} players; give one for every seat or exactly "
                           f"{players}")
    common = common or {}
    if "players" in common:
        raise BalanceError("--set (common=) cannot set players; compare at one player count with --players (players=)")
    engines = []
    for p in parsed:
        if "players" in p.overrides:
            raise BalanceError(f"variant {p.source!r} sets players; compare at one player count with "
                               "--players (players=)")
        try:
            rules = rules_mod.Rules.from_overrides({**common, **p.overrides, "players": players})
        except BalanceError as e:  # with several variants, say which one is wrong (or --set)
            raise BalanceError(f"{_blame(rules_mod, common, players, p)}: {e}") from None
        given = None
        if sides is not None:  # the same sides in every variant, each checked against its rules
            try:
                chosen = side_indices(spec.part("engine"), rules, sides, spec.side)
            except BalanceError as e:  # the baseline's: the sides themselves; a later variant's: its rules
                if p is parsed[0]:
                    raise
                raise BalanceError(f"variant {p.source!r}: {e}") from None
            given = tuple(index for index, _ in (chosen * players if len(chosen) == 1 else chosen))
        engines.append(build_engine(spec, rules, seats, given))
    return spec, parsed, seats, engines


def _blame(rules_mod, common: dict, players: int, variant) -> str:
    """Who set the value a variant's rules refused: --set when its settings fail on their own
    (every variant starts from them), else the variant."""
    if common:
        try:
            rules_mod.Rules.from_overrides({**common, "players": players})
        except BalanceError:
            return "--set"
    return f"variant {variant.name!r} ({variant.source})"


def seat_metric_count(metrics, players: int) -> int:
    """How many of a game's compare metrics are per-seat win shares (they lead the list):
    ``metrics.seat_columns`` when the game says (0 for a cooperative game), else ``players``."""
    return int(getattr(metrics, "seat_columns", players))


def _sprt_tests(sprt: dict, metric: int, engines, names: list[str], metrics) -> dict:
    """One SPRT per variant besides the baseline, at alpha / (2m) per side for m variants:
    each two-sided test then falsely accepts H1 with probability about alpha / m (see
    stats.SPRT), and any of the m with about alpha at most (Bonferroni). Each gets the
    largest possible |d| of ``metric`` (index into the game metrics) for its pair of rules."""
    per_side = sprt["alpha"] / (2 * (len(engines) - 1))
    base = metrics.bounds(engines[0].rules)[metric]
    return {name: stats.SPRT(sprt["delta"], per_side, sprt["beta"],
                             bound=float(max(base, metrics.bounds(e.rules)[metric])))
            for name, e in zip(names[1:], engines[1:])}


def _sprt_report(sprt: dict, metric: str, batch: int, tests: dict, decisions: dict,
                 names: list[str], sums: list[PairedSums]) -> dict:
    first = next(iter(tests.values()))
    return {
        "metric": metric, "delta": sprt["delta"], "alpha": sprt["alpha"], "beta": sprt["beta"],
        "alpha_per_side": first.alpha, "batch": batch,
        "variants": [{"variant": name, "decision": decisions[name], "games": s.n,
                      "llr": tests[name].llr, "lower": tests[name].lower, "upper": tests[name].upper,
                      "bound": tests[name].bound,
                      "history": [[int(n), float(x)] for n, x in tests[name].history]}
                     for name, s in zip(names[1:], sums)],
    }


def tested_metrics(names: list[str], seat_columns: int, sides: list[str]) -> list[str]:
    """The metrics a comparison tests, each a row per variant (what ``primary`` may name): the
    game's compare metrics ``names``, then seat_shift and seat_distance where seats compete
    (``seat_columns`` > 0), then the sides' fairness test (side_distance in a competitive game,
    side_relative_distance in a cooperative one). Not the descriptions (``DESCRIPTIVE``,
    side_imbalance), which have no test."""
    seats = ["seat_shift", "seat_distance"] if seat_columns else []
    fairness = ["side_distance" if seat_columns else "side_relative_distance"] if sides else []
    return [*names, *seats, *fairness]


def _check_primary(primary: list[str] | None, tested: list[str]) -> list[str] | None:
    """``primary`` (checked texts) as the tested metrics it names, each once; a description or
    an unknown name is refused with the allowed ones."""
    if primary is None:
        return None
    for m in primary:
        if m in (*DESCRIPTIVE, "side_imbalance"):
            raise BalanceError(f"primary metric {m!r} is a description, with no test to decide it; allowed: "
                               f"{', '.join(tested)}")
        if m not in tested:
            raise one_of("primary metric", m, tested)
    return list(dict.fromkeys(primary))


def _adjust(rows: list[dict], correction: str, alpha: float, sequential: bool,
            primary: list[str] | None = None) -> None:
    """Add ``p_adjusted`` and ``significant`` to every row in place: the family is every row
    with a test (not the descriptive ones, which get None). With ``primary``, two families,
    each corrected on its own: the rows of the primary metrics (every variant's), and the other
    tested rows; each tested row then names its ``family``. In sequential mode the rows are
    descriptive too (``significant`` None): they were taken at a data-chosen stopping point."""
    tested = [r for r in rows if r["p_value"] is not None]
    if primary is None:
        families = [tested]
    else:
        for r in tested:
            r["family"] = "primary" if r["metric"] in primary else "secondary"
        families = [[r for r in tested if r["family"] == name] for name in ("primary", "secondary")]
    adjust = stats.holm if correction == "holm" else stats.benjamini_hochberg
    for r, p in ((r, p) for family in families if family
                 for r, p in zip(family, adjust(np.array([r["p_value"] for r in family])))):
        r["p_adjusted"] = float(p)
        r["significant"] = None if sequential else bool(p < alpha)
    for r in rows:
        r.setdefault("p_adjusted", None)
        r.setdefault("significant", None)


def check_rate_margin(margin) -> float | None:
    """``margin`` (the rate rows' equivalence margin) as a float in (0, 1), or None."""
    margin = plain(margin)
    if margin is None:
        return None
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or math.isnan(margin):
        raise BalanceError(f"margin={margin!r} is not a number; allowed: 0 < margin < 1 (a rate: 0.005 = 0.5 pp)")
    if not 0 < margin < 1:
        raise BalanceError(f"margin={margin!r} is out of range; allowed: 0 < margin < 1 (a rate: 0.005 = 0.5 pp)")
    return float(margin)


def check_margins(margins, sprt) -> dict[str, float] | None:
    """``margins`` as {metric: positive finite float}, or None when none is named; which
    metrics they may name is checked once the game's metrics are known (check_margin_metrics)."""
    margins = plain(margins)
    if not margins:
        return None
    if not isinstance(margins, dict) or not all(isinstance(k, str) for k in margins):
        raise BalanceError(f"margins={margins!r} is not a mapping of metric to margin; allowed e.g. {{'length': 1}}")
    for metric, value in margins.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise BalanceError(f"margin {metric}={value!r} is not a positive number; allowed: a change in the "
                               "metric's own unit, > 0 (a rate's < 1: 0.005 = 0.5 pp)")
    if sprt is not None:
        raise BalanceError("margins apply to the fixed-size comparison; with sprt, its delta is the size that "
                           "matters (H0 accepted: no difference that large): drop one of them")
    return {k: float(v) for k, v in margins.items()}


def check_margin_metrics(margins: dict | None, units: dict, primary: list[str] | None) -> None:
    """Each metric ``margins`` names is one of the game's compare metrics (``units``: name ->
    unit), a rate's margin below 1, and, with ``primary``, one of the question's metrics (the
    equivalence test is of the question's rows)."""
    for metric, value in (margins or {}).items():
        if metric in ("seat_shift", *FAIRNESS, *DESCRIPTIVE, "side_imbalance") and metric in units:
            # a distance (or the seat that moved most) has no two one-sided test here: the rates it
            # is made of do, and within their margins every seat (side) is within it too
            rates = ("each seat's win rate (win_share_seatK)" if metric.startswith("seat") else
                     "each side's rate (its row of the comparison)")
            what = ("its verdict gives the changes that fit instead" if metric in ("seat_shift", *FAIRNESS)
                    else "it is a description, with no test")
            raise BalanceError(f"--margin {metric}={value:g}: {metric} has no equivalence test ({what}); to show "
                               f"the {metric.split('_')[0]}s unchanged, give {rates} a margin: --margin M gives "
                               "every rate one")
        if metric not in units:
            raise one_of("metric of --margin", metric, list(units))
        if units[metric] == "rate" and value >= 1:
            raise BalanceError(f"margin {metric}={value:g} is out of range; allowed for a rate: 0 < margin < 1 "
                               "(0.005 = 0.5 pp)")
        if primary and metric not in primary:
            raise BalanceError(f"margin {metric}={value:g} names a metric outside the question (--primary "
                               f"{', '.join(primary)}); add --primary {metric}, or drop its margin")


def row_margins(margin: float | None, margins: dict | None, units: dict) -> dict[str, float]:
    """Each metric's margin: its own (``margins``), else ``margin`` for a rate; a metric not
    here is not tested for equivalence."""
    out = {m: margin for m, unit in units.items() if unit == "rate" and margin is not None}
    return out | (margins or {})


def _equivalence(rows: list[dict], margins: dict[str, float], bound, correction: str, alpha: float) -> None:
    """Add ``margin``, ``p_equivalent``, ``p_equivalent_adjusted`` and ``equivalent`` to every
    row in place: for each row of the question (the primary family's, else every tested row's)
    whose metric has a margin (``margins``: a rate's from --margin, others named), the TOST p of
    "its change is within +-its margin" from its interval's standard error, adjusted over those
    rows; None for the others. ``bound(row)``: a game's largest |difference| of the row's
    metric for its variant, which decides a row whose games never differed."""
    asked = [r for r in rows if r["p_value"] is not None and r["metric"] in margins
             and r.get("family", "primary") == "primary"]
    adjust = stats.holm if correction == "holm" else stats.benjamini_hochberg
    p = [float(stats.equivalence_test(r["difference"], stats.se_from_interval(r["lo"], r["hi"], 1 - alpha),
                                      margins[r["metric"]], n=r["games"],
                                      bound=bound(r)))
         for r in asked]
    for r, raw, adjusted in zip(asked, p, adjust(np.array(p)) if asked else ()):
        r.update(margin=margins[r["metric"]], p_equivalent=raw, p_equivalent_adjusted=float(adjusted),
                 equivalent=bool(adjusted < alpha))
    for r in rows:
        for key in ("margin", "p_equivalent", "p_equivalent_adjusted", "equivalent"):
            r.setdefault(key, None)


def _untested(rows: list[dict], primary: list[str] | None, variants: list[str]) -> dict[str, list[str]]:
    """The --primary metrics each variant has no row of (a cooperative game's side fairness test
    is left out when a variant's team won too few games): {variant: [metric, ...]}, only the
    variants that miss some."""
    present = {(r["variant"], r["metric"]) for r in rows}
    missing = {v: [m for m in primary or () if (v, m) not in present] for v in variants}
    return {v: ms for v, ms in missing.items() if ms}


def _renamed(given: list[str], names: list[str]) -> list[str]:
    """A warning for each variant reported under another name than its own (``b`` as ``b#2``):
    a reader looking for the second ``b`` would not find it."""
    return [f"two variants are named {g!r}: the later one is reported as {n!r}; name each with NAME:SETTINGS"
            for g, n in zip(given, names) if g != n]


def _identical_rules(names: list[str], engines) -> list[str]:
    """A warning for each variant whose resolved rules equal an earlier variant's."""
    out = []
    for j, e in enumerate(engines):
        same = next((i for i in range(j) if engines[i].rules == e.rules), None)
        if same is not None:
            out.append(f"variants {names[same]!r} and {names[j]!r} have identical rules: they play "
                       "the same games, so their differences are zero by construction")
    return out


def _untuned(seats, players: int) -> list[str]:
    """A warning for each strategy of the seats that a tuned.toml gave for another player count
    (``Strategy.tuned``): its weights play here untuned, so the comparison is of weaker play,
    perhaps, than the tuning's."""
    from balance.analysis.document import counted

    tuned = {s.label: s.tuned["players"] for s in seats if (s.tuned or {}).get("players", players) != players}
    # the words of the reports' caution (report.untuned_cautions), as plain text: a warning is printed too
    return [f"{label} was tuned by balance tune at {counted(at, 'player')}; at {counted(players, 'player')} it "
            f"plays those weights untuned, so its play there may be weaker than at {counted(at, 'player')}"
            for label, at in tuned.items()]


CORRECTIONS = {"holm": "Holm (family-wise error)", "bh": "Benjamini-Hochberg (false discovery rate)"}


def methods(players: int, alpha: float, sequential: bool, primary: list[str] | None = None,
            margin: float | None = None, correction: str = "holm", margins: dict | None = None,
            units: dict | None = None, counts: list[int] | None = None) -> dict:
    """The methods text of a comparison, one entry per measure (comparison.json ``methods``);
    ``units`` (metric -> unit) words a named rate's margin in pp; ``counts``: the player counts
    of a comparison at several, whose rows are corrected together."""
    from balance.analysis.document import and_list

    confidence = seat_confidence(alpha, players)
    out = {
        "pairing": "common random numbers: every variant plays the same game numbers with the same "
                   "seed (the same chance draws, such as shuffles and dice, and strategy draws); differences "
                   "are paired per game",
        "linear metrics": "mean of the per-game paired difference, normal interval with its observed "
                          "variance; two-sided z-test",
        "seat_shift": f"did the variant move any seat's win rate: for each of the {players} seats the "
                      "per-game paired difference of its win share, z = mean / standard error; the "
                      f"seat with the largest |z| is reported with its {100 * confidence:.2f}% interval "
                      f"(Sidak: {100 * (1 - alpha):.0f}% for all seats at once, whatever their "
                      "correlation) and p = 1 - (1 - p_seat)^players, so p < alpha exactly when "
                      "that interval excludes 0",
        "seat_distance": "are the seats nearer fair: the seats' root-mean-square distance from "
                         "the fair 1/players (where the turn cap stopped games, which hand out no "
                         "win: of each seat's share of the finished games' wins, tested as "
                         "side_relative_distance is on the rates over their average), "
                         "sqrt(U / players) with U = sum of (win rate - fair)^2 less the part noise "
                         "adds (unbiased), for "
                         "baseline and variant; tested on the paired games by the change in U, z = change / "
                         "its standard error (the delta method with the quadratic term, from the "
                         "seats' per-game second moments of both variants; conservative where "
                         "both are near fair), two-sided; its interval is shown on the distance "
                         "scale at the baseline's U, so it excludes 0 exactly when p < alpha",
        "side_distance": "in a competitive game whose sides are measured one by one (each "
                         "side's win rate): are the sides nearer their average, the same test as "
                         "seat_distance with each variant's own average of the sides as fair "
                         "(it is fixed by the seats' shares, 1/players, save capped games)",
        "side_relative_distance": "in a cooperative game whose sides are measured one by one (the "
                                  "team's win rate with each): are the sides nearer their average relative "
                                  "to it, sqrt(U / sides) with U = sum of (rate / average - 1)^2 less "
                                  "the part noise adds; the same test as seat_distance, with the "
                                  "covariance of the relative rates from the delta method (the "
                                  "average's own noise included). Relative, because the average is the "
                                  "team's win rate, which every rule of difficulty moves: halving every "
                                  "side's rate leaves them exactly as unequal. Left out when a variant's "
                                  "team won too few games for its rate to be relative to (standard error "
                                  "above 0.2 of the rate, about 25 wins)",
        "seat_gap": "best minus worst seat win rate of each variant; descriptive (no test): noise "
                    "alone makes it positive, and more so the noisier the seats, so a variant that "
                    "only changes how often games tie moves it with every seat fair; seat_shift "
                    "and seat_distance are the tests",
        "seat_imbalance": "sum over the seats of |win rate - fair| (as for seat_distance): how far the seats are "
                          "from fair in total, for baseline and variant; descriptive, and biased "
                          "upward by noise like seat_gap",
        "variance_reduction": "(Var(baseline) + Var(variant)) / Var(paired difference): how many times "
                              "fewer games the paired design needs than independent runs",
        "intervals": "each row's interval is its own test's (seat_shift's simultaneous over the seats), "
                     "not adjusted for the comparison's other tests, while a row is called "
                     "significant by its adjusted p-value: an interval can exclude 0 where the "
                     "adjusted p is above alpha, which is why the verdict calls such intervals "
                     "unadjusted",
    }
    # what one family's correction holds: Holm the chance of any false claim, BH their expected share
    holds = ("the chance that any of them is falsely called {} is at most alpha" if correction == "holm" else
             "the expected share of false '{}' calls among them is at most alpha")
    equivalence = margin is not None or bool(margins)
    families = 2 + equivalence
    if primary:
        out["primary"] = (
            f"the rows of {', '.join(primary)}, of every variant, are the primary family, corrected "
            f"together, so {holds.format('different')}; they alone decide the verdict's 'different' "
            "and --fail-if-different. Every other tested row is secondary, corrected among the "
            f"secondary rows, so the same holds of them on their own"
            + (f"; {'with the equivalence claims, three' if equivalence else 'the two'} families each "
               f"held so, the chance of any false claim of the comparison is at most {families} alpha"
               if correction == "holm" else "")
            + ". Such a split is valid only when the question was named before the games were seen; "
            "chosen after, it would select the rows that happened to move")
    if equivalence:
        given = ([f"every rate row at +-{100 * margin:.4g} pp"] if margin is not None else []) + [
            f"{m} at +-{100 * v:.4g} pp" if (units or {}).get(m) == "rate" else f"{m} at +-{v:.4g} (its unit)"
            for m, v in (margins or {}).items()]
        out["equivalence"] = (
            "is a change too small to matter: for each row of the question (the primary rows, else every "
            f"tested row) that has a margin (--margin: {'; '.join(given)}; a metric's own margin before "
            "the rates'; not seat_shift, nor the fairness rows), two one-sided tests (TOST, Schuirmann "
            "1987) of 'its change is within +-its margin' from its interval's standard error, adjusted "
            "over those rows by the comparison's correction: 'within its margin' where the adjusted p < "
            "alpha, so " + holds.format("within its margin") + " (of rows that changed by their margin "
            "or more). A row whose games never differed is decided by the chance that none of them would "
            "have if the metric had moved by the margin ((1 - margin / largest per-game difference)^games). "
            "A row that finds no difference is not thereby within the margin; one that finds a "
            "difference smaller than the margin is both")
    if counts:
        out["player_counts"] = (
            f"the comparison played every variant at {and_list(counts)} players, "
            "each count on the same game numbers; the rows of every count are corrected together (each "
            "family above spans the counts), so what holds of a family holds of the whole comparison, not "
            "of one count at a time")
    if sequential:
        out["sequential"] = (
            "each variant plays batches until its SPRT decides, then stops; its rows are "
            "computed at that point with its own games. Those rows are descriptive: an "
            "interval or p-value taken where the data chose to stop is not a valid test, so "
            "no row is marked significant; the SPRT decision is the verdict. With m variants "
            "each SPRT runs at alpha / (2m) per side, so the chance that any variant falsely "
            "accepts H1 is about alpha")
    return out


def _unique_names(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def _jsonable(rows: list[dict]) -> list[dict]:
    def clean(x):
        if isinstance(x, (np.floating, float)):
            x = float(x)
            return None if math.isnan(x) else ("inf" if math.isinf(x) else x)
        if isinstance(x, np.integer):
            return int(x)
        return x

    return [{k: clean(v) for k, v in r.items()} for r in rows]
