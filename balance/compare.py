"""Rule-variant comparison with common random numbers and paired statistics.

Every variant plays the same game numbers with the same seed, so game i of each variant sees
the same shuffles and the same strategy draws as far as the rules let them (common random
numbers). Per game we compute the metrics of each variant and fold the paired differences
(variant - baseline) into integer-free running sums; the difference of two correlated means has
variance Var(d) instead of Var(a) + Var(b), and the report states that reduction.

Linear per-game metrics (a mean over games) get a paired normal interval; the seat gap (a
max minus a min of means, not a per-game quantity) gets a batch-means interval over
``BATCHES`` equal blocks of games, paired by block.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from balance import stats
from balance.errors import BalanceError, check_int
from balance.variants import load_variant_file, parse_value

BATCHES = 40


@dataclass(frozen=True)
class VariantSpec:
    name: str
    overrides: dict
    source: str  # what the user wrote


def parse_variant(spec: str) -> VariantSpec:
    """``default`` | ``FILE.toml`` | ``key=value;key=value``, optionally ``name:...``."""
    text = spec.strip()
    name = None
    head, sep, rest = text.partition(":")
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
        overrides[key.strip()] = parse_value(value)
    return VariantSpec(name or text, overrides, spec)


def game_metrics(chunk, rules, fights_lcm: int) -> np.ndarray:
    """Per-game metrics of a chunk as exact integers: int64[n_games, n_metrics].

    Column m holds the metric times ``metric_scales(players, fights_lcm)[m]``, so every sum
    is an exact integer and totals do not depend on chunking or threads:
    win_share_seat{s} (x60: win units); mean_score (x players: the score sum); score_range
    (best minus worst seat); heroes_success (x fights_lcm: villains beaten scaled to a common
    number of fights, so variants with other battle sizes compare); tied_game (1 if the win
    was shared); tokens_held (x players: the tokens held at the end).
    """
    scores = chunk.scores.astype(np.int64)
    fights = rules.battles * rules.villains_per_battle
    columns = [chunk.win_units[:, s].astype(np.int64) for s in range(rules.players)] + [
        scores.sum(axis=1),
        scores.max(axis=1) - scores.min(axis=1),
        chunk.beaten.astype(np.int64) * (fights_lcm // fights),
        ((chunk.win_units > 0).sum(axis=1) > 1).astype(np.int64),
        chunk.tokens.sum(axis=(1, 2)).astype(np.int64),
    ]
    return np.column_stack(columns)


def metric_scales(players: int, fights_lcm: int) -> np.ndarray:
    """What each ``game_metrics`` column is multiplied by (float64[n_metrics])."""
    return np.array([60.0] * players + [players, 1, fights_lcm, 1, players], np.float64)


@dataclass
class PairedSums:
    """Running sums for one variant against the baseline, per metric: exact int64 sums of the
    scaled integer metrics of ``game_metrics``."""

    n: int = 0
    a: np.ndarray | None = None  # sum of baseline values
    a2: np.ndarray | None = None
    b: np.ndarray | None = None  # sum of variant values
    b2: np.ndarray | None = None
    d: np.ndarray | None = None  # sum of paired differences
    d2: np.ndarray | None = None
    batch_shares: list = field(default_factory=list)  # per batch: (baseline, variant) seat share sums

    def add(self, base: np.ndarray, other: np.ndarray) -> None:
        diff = other - base
        parts = [base.sum(0), (base**2).sum(0), other.sum(0), (other**2).sum(0), diff.sum(0),
                 (diff**2).sum(0)]
        if self.a is None:
            self.a, self.a2, self.b, self.b2, self.d, self.d2 = parts
        else:
            for name, value in zip(("a", "a2", "b", "b2", "d", "d2"), parts):
                setattr(self, name, getattr(self, name) + value)
        self.n += len(base)


def _var(total, total_sq, n):
    return np.maximum(total_sq - total**2 / n, 0.0) / max(n - 1, 1)


def summarize(names: list[str], sums: PairedSums, scales: np.ndarray, alpha: float) -> list[dict]:
    """One dict per metric: baseline and variant (``value``) means, the paired difference with
    its CI and p-value, and the variance reduction of pairing (sums are scaled integers)."""
    n = sums.n
    rows = []
    z = stats.paired_mean_test
    for i, name in enumerate(names):
        k, k2 = scales[i], scales[i] ** 2
        test = z(sums.d[i] / k, sums.d2[i] / k2, n, 1 - alpha)
        var_a = _var(sums.a[i] / k, sums.a2[i] / k2, n)
        var_b = _var(sums.b[i] / k, sums.b2[i] / k2, n)
        var_d = _var(sums.d[i] / k, sums.d2[i] / k2, n)
        unpaired = var_a + var_b
        rows.append({
            "metric": name, "baseline": sums.a[i] / k / n, "value": sums.b[i] / k / n,
            "difference": test["mean"], "lo": test["lo"], "hi": test["hi"], "p_value": test["pvalue"],
            "variance_reduction": float(unpaired / var_d) if var_d > 0 else math.inf,
        })
    rows.append(_gap_row(sums, alpha))
    return rows


def _gap_row(sums: PairedSums, alpha: float) -> dict:
    """Largest seat gap (best minus worst seat win rate) by batch means, paired by batch."""
    from scipy import stats as sps

    base = np.array([b for b, _ in sums.batch_shares])  # [batches, seats] rates
    other = np.array([v for _, v in sums.batch_shares])

    def gap(rates):
        return rates.max(axis=-1) - rates.min(axis=-1)

    base_rate = base.mean(0)
    other_rate = other.mean(0)
    d = gap(other) - gap(base)
    k = len(d)
    se = d.std(ddof=1) / math.sqrt(k) if k > 1 else math.nan
    t = sps.t.ppf(1 - alpha / 2, max(k - 1, 1))
    diff = float(gap(other_rate) - gap(base_rate))
    p = float(2 * sps.t.sf(abs(d.mean() / se), k - 1)) if k > 1 and se > 0 else 1.0
    return {"metric": "seat_gap", "baseline": float(gap(base_rate)), "value": float(gap(other_rate)),
            "difference": diff, "lo": diff - t * se, "hi": diff + t * se, "p_value": p,
            "variance_reduction": math.nan}


@dataclass
class Comparison:
    """A finished comparison: ``report`` is the JSON-ready dict (also comparison.json)."""

    report: dict
    out: Path | None = None

    @property
    def any_different(self) -> bool:
        return self.report["any_different"]


def compare(game: str, variants: list[str], players: int = 4, games: int = 100_000, seed: int = 0,
            strategies=("random",), alpha: float = 0.05, correction: str = "holm",
            sprt: dict | None = None, batch: int | None = None, chunk_size: int | None = None,
            on_progress=None, threads: int | None = None) -> Comparison:
    """Compare rule variants (the first is the baseline) on the same games.

    variants: specs for ``parse_variant``. sprt: ``{"delta", "alpha", "beta", "metric"}`` to
    stop as soon as a sequential test decides (``games`` is then the cap, played in batches
    of ``batch`` games). Returns every metric's baseline, variant, paired difference with CI,
    p-value adjusted over all metrics and variants (Holm or Benjamini-Hochberg). Metrics are
    summed as exact integers, so any ``threads`` and ``chunk_size`` give the same numbers.
    """
    from balance.api import MAX_GAMES, MAX_SEED
    from balance.registry import get_game
    from balance.runner import DEFAULT_CHUNK
    from balance.strategy import parse_strategy

    spec = get_game(game)
    check_int("games", games, 2, MAX_GAMES)
    check_int("seed", seed, 0, MAX_SEED)
    check_int("players", players, 2, 10)
    if not 0 < alpha < 1:
        raise BalanceError(f"alpha={alpha} is out of range; allowed: 0 < alpha < 1")
    if correction not in CORRECTIONS:
        raise BalanceError(f"unknown correction {correction!r}; allowed: {', '.join(CORRECTIONS)}")
    if len(variants) < 2:
        raise BalanceError("give at least two --variant (the first is the baseline), e.g. "
                           "--variant default --variant set_bonus=2")
    chunk_size = chunk_size or DEFAULT_CHUNK
    check_int("chunk_size", chunk_size, 1, 10**8)
    parsed = [parse_variant(v) for v in variants]
    names = _unique_names([p.name for p in parsed])
    rules_mod = spec.part("rules")
    engine_mod = spec.part("engine")
    seats = [parse_strategy(s, spec.strategies) for s in strategies]
    if len(seats) not in (1, players):
        raise BalanceError(f"{len(seats)} strategies given for {players} players; give one for every seat or exactly {players}")
    seats = seats * players if len(seats) == 1 else seats
    engines = []
    for p in parsed:
        if "players" in p.overrides:
            raise BalanceError(f"variant {p.source!r} sets players; compare at one player count with --players")
        engines.append(engine_mod.Engine(rules_mod.Rules.from_overrides({**p.overrides, "players": players}), seats))

    metric_names = game_metrics_names(players)
    tests = {}
    if sprt is not None:
        metric = sprt.get("metric") or "win_share_seat0"
        if metric not in metric_names:
            raise BalanceError(f"unknown metric {metric!r}; allowed: {', '.join(metric_names)}")
        # Either one-sided test may accept H1, so each gets alpha / 2: the overall false-H1
        # rate is then about alpha (see stats.SPRT).
        tests = {name: stats.SPRT(sprt["delta"], sprt["alpha"] / 2, sprt["beta"]) for name in names[1:]}
        batch = batch or 10_000
        check_int("batch", batch, 2, MAX_GAMES)
    else:
        batch = max(1, -(-games // BATCHES))

    fights_lcm = math.lcm(*(e.rules.battles * e.rules.villains_per_battle for e in engines))
    scales = metric_scales(players, fights_lcm)
    sums = [PairedSums() for _ in names[1:]]
    decisions = {name: "continue" for name in tests}

    def play_chunk(first_n):
        """Every variant's metrics and win units on the same games (numba releases the GIL)."""
        first, n = first_n
        chunks = [e.play(seed, first, n) for e in engines]
        return ([game_metrics(c, e.rules, fights_lcm) for c, e in zip(chunks, engines)],
                [c.win_units.sum(axis=0, dtype=np.int64) for c in chunks], n)

    from concurrent.futures import ThreadPoolExecutor

    from balance.runner import default_threads

    played = 0
    with ThreadPoolExecutor(max_workers=threads or default_threads()) as pool:
        while played < games:
            n_batch = min(batch, games - played)
            spans = [(f, min(chunk_size, played + n_batch - f))
                     for f in range(played, played + n_batch, chunk_size)]
            batch_units = np.zeros((len(engines), players), np.int64)
            for metrics, units, n in pool.map(play_chunk, spans):  # integer sums: any order
                for v in range(len(engines)):
                    batch_units[v] += units[v]
                    if v:
                        sums[v - 1].add(metrics[0], metrics[v])
                if on_progress is not None:
                    on_progress(n * len(engines))
            played += n_batch
            for v, s in enumerate(sums):
                s.batch_shares.append((batch_units[0] / 60.0 / n_batch,
                                       batch_units[v + 1] / 60.0 / n_batch))
            if tests:
                i = metric_names.index(metric)
                k = scales[i]
                for name, s in zip(names[1:], sums):
                    if decisions[name] == "continue":
                        decisions[name] = tests[name].update(float(s.d[i] / k), float(s.d2[i] / k**2), s.n)
                if all(d != "continue" for d in decisions.values()):
                    break

    rows = []
    for name, s in zip(names[1:], sums):
        for row in summarize(metric_names, s, scales, alpha):
            rows.append({"variant": name, **row})
    adjust = stats.holm if correction == "holm" else stats.benjamini_hochberg
    p_adj = adjust(np.array([r["p_value"] for r in rows]))
    for r, p in zip(rows, p_adj):
        r["p_adjusted"] = float(p)
        r["significant"] = bool(p < alpha)
    sprt_report = None
    if tests:
        sprt_report = {
            "metric": metric, "delta": sprt["delta"], "alpha": sprt["alpha"], "beta": sprt["beta"],
            "batch": batch,
            "variants": [{"variant": name, "decision": decisions[name], "games": sums[i].n,
                          "llr": tests[name].llr, "lower": tests[name].lower, "upper": tests[name].upper,
                          "history": [[int(n), float(x)] for n, x in tests[name].history]}
                         for i, name in enumerate(names[1:])],
        }
    any_different = any(r["significant"] for r in rows) or any(d == "H1" for d in decisions.values())
    from balance import __version__

    report = {
        "game": spec.id, "title": spec.title, "rules_version": spec.rules_version,
        "package_version": __version__, "players": players, "seed": seed, "games": played,
        "games_requested": games, "strategies": [{"seat": i, **s.to_dict()} for i, s in enumerate(seats)],
        "baseline": names[0],
        "variants": [{"name": n, "source": p.source, "overrides": p.overrides, "rules": e.rules.to_dict()}
                     for n, p, e in zip(names, parsed, engines)],
        "alpha": alpha, "confidence": 1 - alpha, "correction": CORRECTIONS[correction],
        "methods": METHODS, "results": _jsonable(rows), "sprt": sprt_report,
        "any_different": bool(any_different),
    }
    return Comparison(report)


CORRECTIONS = {"holm": "Holm (family-wise error)", "bh": "Benjamini-Hochberg (false discovery rate)"}
METHODS = {
    "pairing": "common random numbers: every variant plays the same game numbers with the same "
               "seed (same shuffles and strategy draws); differences are paired per game",
    "linear metrics": "mean of the per-game paired difference, normal interval with its observed "
                      "variance; two-sided z-test",
    "seat_gap": f"best minus worst seat win rate; interval and t-test by batch means over {BATCHES} "
                "equal blocks of games, paired by block",
    "variance_reduction": "(Var(baseline) + Var(variant)) / Var(paired difference): how many times "
                          "fewer games the paired design needs than independent runs",
}


def game_metrics_names(players: int) -> list[str]:
    return [f"win_share_seat{s}" for s in range(players)] + [
        "mean_score", "score_range", "heroes_success", "tied_game", "tokens_held"]


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
