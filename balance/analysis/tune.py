"""Strategy tuning: search a strategy's parameters for the highest win share against a field.

The search is the cross-entropy method (CEM; Rubinstein & Kroese, The Cross-Entropy Method,
2004) on the parameters scaled to [0, 1] by their declared bounds: each generation samples a
population from a diagonal Gaussian, plays every candidate on the same games (common random
numbers), and moves the Gaussian towards the elite. It needs no gradient, tolerates noise
(the mean of many elites averages the luck out) and respects bounds by clipping.

A candidate's objective is its win share when it holds one seat and the field holds the
others, its seat rotated over every seat in equal blocks of games so seat effects cancel.
With ``against="self"`` the field is the current sampling mean: the search climbs towards a
strategy that does well against itself. The tuned parameters (the final sampling mean, not
the luckiest candidate) are then validated on fresh seeds against every strategy of the game.

Seeds: ``np.random.SeedSequence(seed)`` spawns three independent streams: the optimiser's
numpy Generator, the tuning games' seed and the validation games' seed (fresh games: no
validation game was seen by the search).
"""
from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from balance.core.errors import BalanceError, as_path, check_bool, check_callable, check_int, plain, plain_overrides
from balance.core.game import WIN_UNIT
from balance.core.paired import PairedSums
from balance.core.runner import build_engine
from balance.core.strategy import TUNED_FILE, Strategy, StrategyInfo, parse_strategy
from balance.core.variants import refuse_players, toml_value

ALPHA = 0.05

# CEM settings (on [0, 1] coordinates). The floor keeps the search sampling 2% of each range
# around the mean, so a noisy early collapse can still be undone.
ELITE = 0.25
SMOOTHING = 0.7
SD_START = 0.25
SD_FLOOR = 0.02

# Default split of the budget: population 8 + 6 x dimensions (32 for greedy's 4 parameters)
# and enough games per candidate for about TARGET_GENERATIONS generations.
TARGET_GENERATIONS = 30
MIN_GAMES_PER_SEAT = 25  # a candidate plays at least this many games in every seat
MIN_POPULATION = 4
MAX_POPULATION = 10_000
DECIMALS = 4  # tuned real values are rounded: the search's noise is far above 1e-4
CHUNK = 50_000  # validation games per kernel call (bounded memory)


# --------------------------------------------------------------------------------------------
# the optimiser (any noisy objective)


@dataclass
class Generation:
    """One CEM generation: what was sampled, how it scored, and the updated distribution."""

    generation: int
    x: np.ndarray  # float[population, dim] candidates in [0, 1]
    objectives: np.ndarray  # float[population]
    mean: np.ndarray  # float[dim] sampling mean after this generation's update
    sd: np.ndarray  # float[dim] sampling sd after the update


@dataclass
class Optimum:
    x: np.ndarray  # float[dim] the final sampling mean: the answer
    sd: np.ndarray  # float[dim]
    generations: list[Generation]


def maximise(f: Callable, dim: int, rng: np.random.Generator, generations: int, population: int,
             x0=None, sd0: float = SD_START, elite: float = ELITE, smoothing: float = SMOOTHING,
             sd_floor: float = SD_FLOOR, on_generation: Callable | None = None,
             done: list[Generation] | None = None) -> Optimum:
    """Maximise a noisy ``f`` over [0, 1]^dim with the cross-entropy method.

    f(x, g, mean) -> float[population]: x float[population, dim] (candidates of generation g),
    mean float[dim] the distribution they were drawn from. Score all candidates of one call on
    the same noise where possible (common random numbers): selection then compares candidates,
    not luck. x0: starting mean (default the centre). The answer is the final mean, an average
    over many elites, rather than the best single sample, whose score is the most inflated
    by noise. on_generation(history): after each generation, every generation so far.
    done: generations already played (a resumed search; ``rng`` in its state after them).
    """
    mean = np.full(dim, 0.5) if x0 is None else np.clip(np.asarray(x0, np.float64), 0.0, 1.0)
    sd = np.full(dim, float(sd0))
    n_elite = max(2, math.ceil(elite * population))
    history = list(done or [])
    if history:
        mean, sd = history[-1].mean.copy(), history[-1].sd.copy()
    for g in range(len(history), generations):
        x = np.clip(mean + sd * rng.standard_normal((population, dim)), 0.0, 1.0)
        y = np.asarray(f(x, g, mean), np.float64)
        top = x[np.argsort(-y, kind="stable")[:n_elite]]
        mean = smoothing * top.mean(axis=0) + (1 - smoothing) * mean
        sd = np.maximum(smoothing * top.std(axis=0) + (1 - smoothing) * sd, sd_floor)
        history.append(Generation(g, x, y, mean.copy(), sd.copy()))
        if on_generation is not None:
            on_generation(history)
    return Optimum(mean, sd, history)


# --------------------------------------------------------------------------------------------
# parameters <-> [0, 1]


def decode(info: StrategyInfo, x) -> tuple[float, ...]:
    """float[dim] in [0, 1] -> parameter values within bounds (integers rounded)."""
    values = []
    for p, xi in zip(info.params, np.clip(x, 0.0, 1.0)):
        v = p.low + float(xi) * (p.high - p.low)
        v = float(round(v)) if p.integer else round(v, DECIMALS)
        values.append(min(max(v, p.low), p.high))
    return tuple(values)


def encode(info: StrategyInfo, values) -> np.ndarray:
    """Parameter values -> float[dim] in [0, 1]."""
    return np.array([(v - p.low) / (p.high - p.low) for p, v in zip(info.params, values)])


# --------------------------------------------------------------------------------------------
# setup and budget


@dataclass(frozen=True)
class TunePlan:
    """How the budget is spent. Every number is games (all seats of a game count once)."""

    population: int
    games_per_candidate: int
    generations: int
    matchups: int  # validation fields
    validate_games: int  # per matchup and arm (tuned, default)

    @property
    def tuning_games(self) -> int:
        return self.generations * self.population * self.games_per_candidate

    @property
    def validation_games(self) -> int:
        return 2 * self.matchups * self.validate_games

    @property
    def total_games(self) -> int:
        return self.tuning_games + self.validation_games


@dataclass
class _Setup:
    spec: object  # balance.core.game.GameInfo
    rules: object
    engine_mod: object
    start: Strategy  # where the search starts (the given spec's values)
    default: Strategy  # the strategy at its declared defaults
    field: list[Strategy] | None  # players - 1 strategies; None = self-play
    opponents: list[tuple[str, list[Strategy]]]  # validation fields (label, players - 1 seats)
    plan: TunePlan
    overrides: dict  # the rules overrides as plain values (``plain_overrides``)


def plan(game: str, strategy: str | None = None, players: int | None = None, against: list[str] | str = "self",
         budget: int = 2_000_000, population: int | None = None,
         games_per_candidate: int | None = None, validate_games: int = 200_000,
         overrides: dict | None = None) -> TunePlan:
    """The split of ``budget`` that ``tune`` with these arguments uses (for a progress total)."""
    return _setup(game, strategy, players, against, budget, population, games_per_candidate,
                  validate_games, overrides).plan


def _setup(game, strategy, players, against, budget, population, games_per_candidate,
           validate_games, overrides) -> _Setup:
    """Validate every input (BalanceError naming the value and what is allowed)."""
    from balance.core.api import MAX_GAMES
    from balance.core.registry import get_game

    spec = get_game(game)
    players = spec.default_players if players is None else players
    catalogue = spec.strategies
    strategy = spec.default_strategy if strategy is None else strategy
    if not isinstance(strategy, str):
        raise BalanceError(f"strategy={strategy!r}; allowed: a strategy spec such as "
                          f"{spec.default_strategy!r}")
    name = strategy.strip().partition(":")[0]
    tunable = [s for s, info in catalogue.items() if info.params]
    if name in catalogue and not catalogue[name].params:
        raise BalanceError(f"strategy {name!r} has no parameters to tune; allowed: {', '.join(tunable)}")
    start = parse_strategy(strategy, catalogue)
    check_int("players", players, *spec.players)
    overrides = plain_overrides(overrides)
    refuse_players(overrides, "--set (overrides=)")
    rules = spec.part("rules").Rules.from_overrides({**overrides, "players": players})
    if spec.cooperative and not (isinstance(against, str) and against.strip() == "self"):
        raise BalanceError(f"{spec.id} is cooperative: every seat plays for one team, so it is tuned "
                           "in self-play (the team's win rate); drop --against or give 'self'")
    field_ = _parse_field(against, players, catalogue)
    check_int("budget", budget, 1, MAX_GAMES)
    check_int("validate_games", validate_games, players, MAX_GAMES)

    dim = len(start.info.params)
    population = 8 + 6 * dim if population is None else population
    check_int("population", population, MIN_POPULATION, MAX_POPULATION)
    min_games = MIN_GAMES_PER_SEAT * players
    if games_per_candidate is None:
        per = budget // (population * TARGET_GENERATIONS)
        games_per_candidate = max(min_games, per - per % players)  # a multiple: equal seat blocks
    else:
        check_int("games_per_candidate", games_per_candidate, players, MAX_GAMES)
    generations = budget // (population * games_per_candidate)
    if generations < 1:
        raise BalanceError(
            f"budget={budget:,} games is too small for one generation of {population} candidates x "
            f"{games_per_candidate:,} games; allowed: at least {population * games_per_candidate:,} "
            "(or a smaller population / games_per_candidate)")

    default = Strategy(start.info, tuple(p.default for p in start.info.params))
    # a cooperative team plays every seat itself: it is validated as a team against the default
    # team on the same games (its other strategies are no opponents)
    opponents = ([(TEAM_FIELD, [default] * (players - 1))] if spec.cooperative
                 else _opponents(default, field_, catalogue, players))
    tune_plan = TunePlan(population, games_per_candidate, generations, len(opponents), validate_games)
    return _Setup(spec, rules, spec.part("engine"), start, default, field_, opponents, tune_plan, overrides)


def _parse_field(against, players: int, catalogue) -> list[Strategy] | None:
    """``"self"`` -> None; one spec (every other seat) or players - 1 specs -> the field."""
    if isinstance(against, str):
        if against.strip() == "self":
            return None
        against = [against]
    specs = list(against)
    if "self" in (s.strip() for s in specs):
        raise BalanceError("against: 'self' (self-play) must be given alone, not in a list of strategies")
    if len(specs) not in (1, players - 1):
        raise BalanceError(f"against: {len(specs)} strategies for the {players - 1} other seats; "
                           f"allowed: 'self', one strategy for every other seat, or exactly {players - 1}")
    parsed = [parse_strategy(s, catalogue) for s in specs]
    return parsed * (players - 1) if len(parsed) == 1 else parsed


def _opponents(default: Strategy, field_, catalogue, players: int) -> list[tuple[str, list[Strategy]]]:
    """Validation fields: the tuned strategy's defaults first, then every other strategy at its
    defaults, then the tuning field when it is not one of those."""
    names = [default.name] + [n for n in catalogue if n != default.name]
    fields = [[default]] + [[parse_strategy(n, catalogue)] for n in names[1:]]
    out = [(f[0].label, f * (players - 1)) for f in fields]
    if field_ is not None and [s.label for s in field_] not in [[s.label for s in f] for _, f in out]:
        out.append((", ".join(s.label for s in field_), field_))
    return out


# --------------------------------------------------------------------------------------------
# playing: one candidate seat, rotated, against a field (a cooperative game: the whole team)

TEAM_FIELD = "the whole team"  # the validation row of a cooperative game's tuning


def _seating(candidate: Strategy, field_: list[Strategy], seat: int, team: bool = False) -> list[Strategy]:
    """The candidate at ``seat``; the field's j-th strategy at seat (seat + 1 + j) mod P. A
    cooperative ``team``: the candidate in every seat (the field is ignored)."""
    players = len(field_) + 1
    seats = [candidate] * players
    if team:
        return seats
    for j, s in enumerate(field_):
        seats[(seat + 1 + j) % players] = s
    return seats


def _blocks(n: int, players: int, chunk: int) -> list[tuple[int, int, int]]:
    """(seat, offset, games) pieces of n games: block r (games r*n//P .. (r+1)*n//P - 1)
    seats the candidate at r, split into pieces of at most ``chunk`` games."""
    out = []
    for seat in range(players):
        lo, hi = seat * n // players, (seat + 1) * n // players
        out += [(seat, a, min(chunk, hi - a)) for a in range(lo, hi, chunk)]
    return out


def _shares(setup: _Setup, candidate: Strategy, field_: list[Strategy], seed: int, first: int,
            n: int, chunk: int = CHUNK):
    """Yield float64[k] win shares of the candidate in consecutive pieces of games
    ``first .. first + n - 1`` (same games and seats for every candidate: common random numbers)."""
    players = setup.rules.players
    for seat, offset, games in _blocks(n, players, chunk):
        engine = build_engine(setup.spec, setup.rules, _seating(candidate, field_, seat, setup.spec.cooperative))
        yield engine.play(seed, first + offset, games).win_units[:, seat] / WIN_UNIT


def _mean_share(setup: _Setup, candidate: Strategy, field_, seed: int, first: int, n: int) -> float:
    return float(sum(s.sum() for s in _shares(setup, candidate, field_, seed, first, n)) / n)


# --------------------------------------------------------------------------------------------
# validation


def _matchup(setup: _Setup, tuned: Strategy, label: str, field_: list[Strategy], seed: int,
             n: int) -> dict:
    """Tuned and default in the rotated seat against ``field_`` on the same n games: sums."""
    sums = PairedSums()  # baseline: the default strategy; the other arm: the tuned one
    for mine, base in zip(_shares(setup, tuned, field_, seed, 0, n),
                          _shares(setup, setup.default, field_, seed, 0, n)):
        sums.add(base, mine)
    return {"field": label, "games": n, "sums": sums}


def _validation_table(sums: list[dict], players: int, default_label: str, team: bool = False) -> pl.DataFrame:
    """One row per field: tuned's share vs fair, default's share, paired tuned - default;
    Holm over both p-values of every row (one family). A cooperative ``team`` has no fair
    share (every seat shares the team's result): only tuned - default is tested (fair and
    p_fair are NaN)."""
    from balance.analysis import stats

    fair = float("nan") if team else 1.0 / players
    rows = []
    for m in sums:
        n = m["games"]
        sums = m["sums"]
        t, t2, b, b2, d, d2 = sums.b, sums.b2, sums.a, sums.a2, sums.d, sums.d2
        share, lo, hi = stats.share_ci(t, t2, n)
        vs_fair = {"pvalue": float("nan")} if team else stats.mean_test(t, t2, n, fair)  # tie-aware variance
        base, base_lo, base_hi = stats.share_ci(b, b2, n)
        paired = stats.paired_mean_test(d, d2, n)
        rows.append({"field": m["field"], "games": n, "win_share": share, "lo": lo, "hi": hi,
                     "fair": fair, "p_fair": vs_fair["pvalue"], "default": default_label,
                     "default_win_share": base, "default_lo": base_lo, "default_hi": base_hi,
                     "difference": paired["mean"], "difference_lo": paired["lo"],
                     "difference_hi": paired["hi"], "p_difference": paired["pvalue"]})
    if team:
        adjusted = [float("nan")] * len(rows) + list(stats.holm([r["p_difference"] for r in rows]))
    else:
        adjusted = stats.holm([r["p_fair"] for r in rows] + [r["p_difference"] for r in rows])
    for r, holm_fair, holm_diff in zip(rows, adjusted[: len(rows)], adjusted[len(rows):]):
        r["p_fair_holm"] = float(holm_fair)
        r["p_difference_holm"] = float(holm_diff)
        r["beats_field"] = bool(not team and r["win_share"] > fair and holm_fair < ALPHA)
        r["beats_default"] = bool(r["difference"] > 0 and holm_diff < ALPHA)
    return pl.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# the command


@dataclass
class TuneResult:
    params: dict  # parameter name -> tuned value
    strategy: Strategy
    history: pl.DataFrame  # one row per generation (see _history_frame)
    validation: pl.DataFrame  # one row per validation field (see _validation_table)
    plan: TunePlan | None  # None: read back from its files (read_outputs)
    manifest: dict
    paths: dict[str, Path] = field(default_factory=dict)


def tune(game: str, strategy: str | None = None, players: int | None = None, against: list[str] | str = "self",
         budget: int = 2_000_000, seed: int = 0, population: int | None = None,
         games_per_candidate: int | None = None, validate_games: int = 200_000, out=None,
         on_progress: Callable[[int], None] | None = None, overrides: dict | None = None,
         threads: int | None = None, force: bool = False, resume: bool = False) -> TuneResult:
    """Tune ``strategy``'s parameters for win share against ``against``; validate; write ``out``.

    strategy: a strategy name (the search starts at its defaults), a spec whose values are
    the starting point (``greedy:@runs/old`` continues an earlier tuning), or None for the
    game's declared default strategy. against: ``"self"``
    (every other seat plays the current sampling mean) or strategy specs, one for every other
    seat or exactly players - 1. budget: tuning games in all (validation excluded), split as
    ``plan`` says. validate_games: games per validation field and arm, on a fresh seed.
    on_progress(games) is called from this thread as games finish (total: ``plan(...)
    .total_games``). Results are identical for any ``threads`` (default: every core).
    With ``out``, each finished generation is kept in ``.NAME.partial`` next to it
    (``tune_checkpoint``); ``resume=True`` continues the interrupted tuning there, to the
    same parameters as an uninterrupted one.
    """
    from balance.analysis.tune_checkpoint import TuneCheckpointer
    from balance.core import runner
    from balance.core.api import MAX_SEED, MAX_THREADS

    players, budget, seed, population, games_per_candidate, validate_games, threads = map(
        plain, (players, budget, seed, population, games_per_candidate, validate_games, threads))
    setup = _setup(game, strategy, players, against, budget, population, games_per_candidate,
                   validate_games, overrides)
    check_int("seed", seed, 0, MAX_SEED)
    threads = runner.default_threads() if threads is None else threads
    check_int("threads", threads, 1, MAX_THREADS)
    check_callable("on_progress", on_progress)
    force, resume, out = check_bool("force", force), check_bool("resume", resume), as_path("out", out)
    if resume and out is None:
        raise BalanceError("resume needs the tuning's directory (--resume DIR)")
    opt_seq, tune_seq, valid_seq = np.random.SeedSequence(seed).spawn(3)
    tune_seed, valid_seed = (int(s.generate_state(1, np.uint64)[0]) for s in (tune_seq, valid_seq))
    rng = np.random.default_rng(opt_seq)  # the optimiser's: a resumed search restores its state
    checkpoint, done = None, []
    if out is not None:  # fail now, not after the search
        arguments = {"game": game, "strategy": strategy, "players": setup.rules.players, "against": against,
                     "budget": budget, "seed": seed, "population": population,
                     "games_per_candidate": games_per_candidate, "validate_games": validate_games,
                     "overrides": setup.overrides}
        checkpoint = TuneCheckpointer(Path(out), _request(setup, seed, arguments))
        if resume:
            checkpoint.reopen()
            done, rng_state = checkpoint.load_generations()
            if rng_state is not None:
                rng.bit_generator.state = rng_state
        else:
            checkpoint.start(force)
    progress = on_progress or (lambda n: None)
    progress(len(done) * setup.plan.population * setup.plan.games_per_candidate)  # a resumed search's
    started = time.perf_counter()

    def keep(history: list[Generation]) -> None:
        if checkpoint is not None:
            checkpoint.save_generations(history, rng.bit_generator.state)

    try:
        with ThreadPoolExecutor(threads) as pool:
            optimum = _search(setup, rng, tune_seed, pool, progress, done, keep)
            tuned = Strategy(setup.start.info, decode(setup.start.info, optimum.x))
            fields = checkpoint.load_validation() if resume else {}  # label -> a finished field's sums
            progress(2 * validate_games * len(fields))
            jobs = {label: pool.submit(_matchup, setup, tuned, label, f, valid_seed, validate_games)
                    for label, f in setup.opponents if label not in fields}
            for label, job in jobs.items():
                fields[label] = job.result()
                if checkpoint is not None:
                    checkpoint.save_validation(fields)
                progress(2 * validate_games)
            sums = [fields[label] for label, _ in setup.opponents]
    except BaseException:
        if checkpoint is not None:
            checkpoint.release()  # a notebook goes on: another command may continue the tuning
        raise
    validation = _validation_table(sums, setup.rules.players, setup.default.label, setup.spec.cooperative)
    history = _history_frame(setup, optimum)
    params = tuned.to_dict()["params"]
    manifest = _manifest(setup, tuned, seed, tune_seed, valid_seed, threads,
                         time.perf_counter() - started)
    result = TuneResult(params, tuned, history, validation, setup.plan, manifest)
    if checkpoint is not None:
        names = {}
        checkpoint.finish(lambda directory: names.update(write_outputs(result, directory)))
        result.paths = {k: Path(out) / v for k, v in names.items()}
    return result


def _request(setup: _Setup, seed: int, arguments: dict) -> dict:
    """What a tuning's checkpoint records: the values that decide its games and its answer
    (``tune_checkpoint.TUNE_KEYS``), and the ``arguments`` a bare --resume takes again."""
    p = setup.plan
    request = {"command": "tune", "game": setup.spec.id, "rules_version": setup.spec.rules_version,
               "players": setup.rules.players, "rules": setup.rules.to_dict(), "start": setup.start.to_dict(),
               "against": "self" if setup.field is None else [s.to_dict() for s in setup.field],
               "seed": seed, "population": p.population, "games_per_candidate": p.games_per_candidate,
               "generations": p.generations, "validate_games": p.validate_games, "arguments": arguments}
    return request  # compared on --resume as JSON reads it back (Checkpointer.reopen)


def _search(setup: _Setup, rng, tune_seed: int, pool, progress, done=(), on_generation=None) -> Optimum:
    """Run CEM; generation g plays games g*G .. (g+1)*G - 1 of ``tune_seed`` for every candidate.
    ``done``: the generations a resumed search has played; on_generation(history) after each."""
    info, plan_ = setup.start.info, setup.plan
    players, n = setup.rules.players, plan_.games_per_candidate

    def objective(x, g, mean):
        field_ = setup.field or [Strategy(info, decode(info, mean))] * (players - 1)
        candidates = [Strategy(info, decode(info, xi)) for xi in x]
        scores = []
        for score in pool.map(lambda c: _mean_share(setup, c, field_, tune_seed, g * n, n), candidates):
            scores.append(score)
            progress(n)
        return np.array(scores)

    return maximise(objective, len(info.params), rng, plan_.generations, plan_.population,
                    x0=encode(info, setup.start.values), on_generation=on_generation, done=list(done))


def _history_frame(setup: _Setup, optimum: Optimum) -> pl.DataFrame:
    """One row per generation: games per candidate, objective mean/sd/best over the population,
    and per parameter the sampling mean after the update (decoded) and its sd (in [0, 1] units)."""
    info, n = setup.start.info, setup.plan.games_per_candidate
    rows = []
    for g in optimum.generations:
        row = {"generation": g.generation, "first_game": g.generation * n, "games": n,
               "objective_mean": float(g.objectives.mean()),
               "objective_sd": float(g.objectives.std()),
               "objective_best": float(g.objectives.max())}
        for p, v, s in zip(info.params, decode(info, g.mean), g.sd):
            row[p.name] = v
            row[f"{p.name}_sd"] = float(s)
        rows.append(row)
    return pl.DataFrame(rows)


def _manifest(setup: _Setup, tuned: Strategy, seed, tune_seed, valid_seed, threads,
              seconds: float) -> dict:
    from balance import __version__

    p = setup.plan
    return {
        "game": setup.spec.id, "rules_version": setup.spec.rules_version,
        "package_version": __version__, "players": setup.rules.players,
        "rules": setup.rules.to_dict(), "strategy": tuned.name, "start": setup.start.label,
        "tuned": tuned.to_dict(), "default": setup.default.to_dict(),
        "against": "self" if setup.field is None else [s.label for s in setup.field],
        "cooperative": bool(setup.spec.cooperative),
        "seed": seed, "tuning_seed": tune_seed, "validation_seed": valid_seed,
        "population": p.population, "games_per_candidate": p.games_per_candidate,
        "generations": p.generations, "tuning_games": p.tuning_games,
        "validate_games": p.validate_games, "validation_games": p.validation_games,
        "optimiser": {"method": "cross-entropy", "elite": ELITE, "smoothing": SMOOTHING,
                      "sd_start": SD_START, "sd_floor": SD_FLOOR},
        "threads": threads, "seconds": round(seconds, 3),
    }


# --------------------------------------------------------------------------------------------
# outputs


def write_outputs(result: TuneResult, directory: Path) -> dict[str, str]:
    """tuned.toml, history.parquet, validation.parquet, convergence.png, report.md, tune.json."""
    directory = Path(directory)
    (directory / TUNED_FILE).write_text(tuned_toml(result), encoding="utf-8")
    result.history.write_parquet(directory / "history.parquet")
    result.validation.write_parquet(directory / "validation.parquet")
    convergence_plot(result, directory / "convergence.png")
    (directory / "report.md").write_text(report_markdown(result, directory), encoding="utf-8")
    (directory / "tune.json").write_text(json.dumps(result.manifest, indent=2) + "\n", encoding="utf-8")
    return {"tuned": TUNED_FILE, "history": "history.parquet", "validation": "validation.parquet",
            "convergence": "convergence.png", "report": "report.md", "manifest": "tune.json"}


def read_outputs(directory: Path) -> TuneResult:
    """A finished tuning read back from the files ``write_outputs`` wrote (tune.json, the
    parquet tables): enough to write its report again (no ``plan``: the manifest holds its
    figures)."""
    from balance.core.registry import get_game

    directory = Path(directory)
    manifest = json.loads((directory / "tune.json").read_text(encoding="utf-8"))
    tuned = manifest["tuned"]
    strategy = parse_strategy(tuned["label"], get_game(manifest["game"]).strategies)
    return TuneResult(tuned["params"], strategy, pl.read_parquet(directory / "history.parquet"),
                      pl.read_parquet(directory / "validation.parquet"), None, manifest)


def tuned_toml(result: TuneResult) -> str:
    """The tuned parameters as TOML (read back by ``strategy.load_tuned``)."""
    m = result.manifest
    lines = [f"# Written by `balance tune`. Use as --strategy {result.strategy.name}:@DIR "
             f"(DIR holding this file) or paste the [params] inline:",
             f"# {result.strategy.label}",
             f"strategy = {toml_value(result.strategy.name)}", "", "[params]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in result.params.items()]
    lines += ["", "[tune]"]
    lines += [f"{k} = {toml_value(m[k])}" for k in
              ("game", "players", "against", "seed", "tuning_games", "population",
               "games_per_candidate", "generations", "validate_games", "package_version")]
    return "\n".join(lines) + "\n"


def convergence_plot(result: TuneResult, path: Path) -> Path:
    """Objective (population mean and best) per generation, then each parameter's sampling
    mean with a +-1 sd band (decoded units) and its default dotted."""
    from balance.analysis import plots

    h, info = result.history, result.strategy.info
    fig, axes = plots.grid(1 + len(info.params))
    gen = h["generation"].to_numpy()
    ax = axes[0]
    ax.plot(gen, h["objective_mean"], label="population mean")
    ax.plot(gen, h["objective_best"], label="best candidate", alpha=0.7)
    if result.manifest.get("cooperative"):
        ax.set(title="team win rate (every seat the candidate)", xlabel="generation")
    else:  # against itself, a mean near fair is the search's design, not a finding
        ax.axhline(1.0 / result.manifest["players"], label="fair 1/players", **plots.FAIR_STYLE)
        field = "itself" if result.manifest.get("against") == "self" else "the field"
        ax.set(title=f"win share vs {field}", xlabel="generation")
    plots.percent(ax)
    for ax, p in zip(axes[1:], info.params):
        mean = h[p.name].to_numpy()
        half = h[f"{p.name}_sd"].to_numpy() * (p.high - p.low)
        ax.plot(gen, mean, color="C2", label="sampling mean")
        ax.fill_between(gen, np.maximum(mean - half, p.low), np.minimum(mean + half, p.high), color="C2", alpha=0.25,
                        label="±1 sd")
        ax.axhline(p.default, color="0.3", linestyle=":", linewidth=1.0, label="default")
        ax.set(title=p.name, xlabel="generation")
    plots.legend_outside(axes[-1], axes)  # beside the panels: inside, it hid the first generations
    return plots.save(fig, path)


def report_markdown(result: TuneResult, directory: Path) -> str:
    """A short report: tuned parameters, the validation table and the convergence figure. A
    cooperative game's tuned strategy plays the whole team (``_team_validation``)."""
    from balance.analysis.document import Bullets, Code, Figure, Para, Section, Table, count, to_markdown

    m = result.manifest
    team = bool(m.get("cooperative"))
    against = m["against"] if m["against"] == "self" else ", ".join(m["against"])
    objective = ("the team's win rate with the candidate in every seat" if team
                 else f"win share against {against}, seat rotated")
    params = Table(["parameter", "default", "tuned"],
                   [[Code(k), str(m["default"]["params"][k]), str(val)] for k, val in result.params.items()])
    sections = [
        Section("Tuned parameters", [
            Para(("Use as ", Code(f"--strategy {m['strategy']}:@DIR"), " or inline ",
                  Code(result.strategy.label), ".")), params]),
        Section("Validation on fresh seeds", _team_validation(result) if team else _field_validation(result)),
        Section("Convergence", [Figure("convergence", directory / "convergence.png",
                                       "objective and parameters per generation")]),
        Section("Method", [Bullets([
            (f"Cross-entropy method on parameters scaled to [0, 1] by their bounds: population "
             f"{m['population']}, elite {ELITE:.0%}, smoothing {SMOOTHING}, sd floor {SD_FLOOR}; "
             f"{m['generations']} generations x {count(m['games_per_candidate'])} games per candidate "
             f"= {count(m['tuning_games'])} tuning games.",),
            (f"Objective: {objective}; every candidate of a generation plays the same games (common random "
             "numbers), a new block of games each generation. The answer is the final sampling mean.",),
            (f"Seed {m['seed']}; validation games use a seed the search never saw.",)])]),
    ]
    title = f"{m['game']}: tuned {m['strategy']}{' team' if team else ''} ({m['players']} players)"
    return to_markdown(title, sections, directory)


def validation_summary(result: TuneResult) -> str:
    """The validation's verdict in one plain line, as the command prints it: the tuned team
    against the default's (a cooperative game), or how many fields the tuned strategy beats
    the default against and is above the fair share against (Holm over every test, as the
    report's table)."""
    from balance.analysis.document import p_phrase

    m, v = result.manifest, result.validation
    default = m["default"]["label"]
    if m.get("cooperative"):
        r = v.row(0, named=True)
        better = ("significantly better than" if r["beats_default"] else "significantly worse than"
                  if _worse(v).height else "not shown better than")
        return (f"validation ({m['validate_games']:,} fresh games): the tuned team wins {100 * r['win_share']:.2f}%, "
                f"{better} the default {default} team's {100 * r['default_win_share']:.2f}% "
                f"({100 * r['difference']:+.2f} pp, 95% CI {100 * r['difference_lo']:+.2f} to "
                f"{100 * r['difference_hi']:+.2f}; {p_phrase(r['p_difference_holm'])})")
    better = v.filter(pl.col("beats_default")).sort("difference", descending=True)
    worse = _worse(v)
    worse_words = f", significantly worse against {worse.height}{_fields(worse)}" if worse.height else ""
    return (f"validation ({m['validate_games']:,} fresh games per field): significantly better than the default "
            f"{default} against {better.height} of {v.height} fields{_fields(better)}{worse_words}; above the "
            f"fair share against {int(v['beats_field'].sum())} of {v.height} (Holm, alpha {ALPHA})")


def _fields(rows: pl.DataFrame, named: int = 3) -> str:
    """' (random -4.05 pp, greedy -3.13 pp)': the validation fields ``rows`` with tuned - default,
    the first ``named`` of them ('and 2 more' for the rest); '' for none."""
    if not rows.height:
        return ""
    shown = [f"{r['field']} {100 * r['difference']:+.2f} pp" for r in rows.head(named).iter_rows(named=True)]
    more = f" and {rows.height - named} more" if rows.height > named else ""
    return f" ({', '.join(shown)}{more})"


def _worse(v: pl.DataFrame) -> pl.DataFrame:
    """The validation rows (fields) against which the tuned strategy is significantly worse than
    the default (Holm, as ``beats_default`` is decided), worst first: a tuning can trade one
    field for another."""
    return v.filter((pl.col("difference") < 0) & (pl.col("p_difference_holm") < ALPHA)).sort("difference")


def _field_validation(result: TuneResult) -> list:
    """The tuned strategy in one rotated seat against each field, beside the default."""
    from balance.analysis.document import Code, Para, Table, ci, count, pct, pp, pvalue

    m, v = result.manifest, result.validation
    table = Table(
        ["field (every other seat)", "tuned win share", "95% CI", "p vs fair (Holm)",
         f"{m['default']['label']} win share", "tuned - default", "95% CI", "p (Holm)"],
        [[Code(r["field"]), pct(r["win_share"]), ci(r["lo"], r["hi"]), pvalue(r["p_fair_holm"]),
          pct(r["default_win_share"]), pp(r["difference"], signed=True),
          ci(r["difference_lo"], r["difference_hi"], " pp"), pvalue(r["p_difference_holm"])]
         for r in v.iter_rows(named=True)])
    return [
        Para((f"Significantly above the fair share against {int(v['beats_field'].sum())} of "
              f"{v.height} fields; significantly better than the default {m['strategy']} on the "
              f"same games against {int(v['beats_default'].sum())} of {v.height}"
              + (f" and significantly worse against {_worse(v).height}" if _worse(v).height else "")
              + f" (Holm, alpha {ALPHA}).",)),
        Para((f"The tuned strategy holds one seat (rotated over all {m['players']} seats in "
              f"equal blocks) against a field of one strategy; {count(m['validate_games'])} games "
              f"per field, fair share {pct(1 / m['players'])}. The default {m['strategy']} plays "
              "the same games in the same seat, so tuned - default is paired game by game. "
              f"p-values are two-sided z-tests, Holm-adjusted over all {2 * v.height} tests.",)),
        table, *_alike_fields(v)]


def _alike_fields(v) -> list:
    """A sentence for each group of validation fields whose every measured figure is the same:
    strategies that play alike on these games (one whose defaults are another's), whose
    identical rows would otherwise read as a coincidence or a bug."""
    from balance.analysis.document import Para, code_list

    measured = ["win_share", "lo", "hi", "default_win_share", "difference", "difference_lo", "difference_hi"]
    groups = v.group_by(measured, maintain_order=True).agg("field").filter(pl.col("field").list.len() > 1)
    return [Para(("The fields ", *code_list(fields, last=" and "), " gave the same figures in every column: on "
                  "these games their strategies play alike, so their rows are one result repeated (Holm counts "
                  "each repeat, which only makes the tests stricter)."))
            for fields in groups["field"].to_list()]


def _team_validation(result: TuneResult) -> list:
    """A cooperative game: the tuned team against the default team on the same games."""
    from balance.analysis.document import Code, Para, Table, ci, count, pct, pp, pvalue

    m = result.manifest
    r = result.validation.row(0, named=True)
    table = Table(["team", "team win rate", "95% CI", f"{m['default']['label']} team", "tuned - default", "95% CI",
                   "p"],
                  [[Code(result.strategy.label), pct(r["win_share"]), ci(r["lo"], r["hi"]),
                    pct(r["default_win_share"]), pp(r["difference"], signed=True),
                    ci(r["difference_lo"], r["difference_hi"], " pp"), pvalue(r["p_difference_holm"])]])
    better = ("is significantly better than" if r["beats_default"] else
              "is significantly worse than" if _worse(result.validation).height else "is not significantly better than")
    return [
        Para((f"The tuned team {better} the default {m['strategy']} team on the same "
              f"games (paired, alpha {ALPHA}).",)),
        Para((f"A cooperative game: the tuned strategy plays every one of the {m['players']} seats, as does "
              f"the default on the same {count(m['validate_games'])} games, so tuned - default is paired "
              "game by game (a two-sided z-test); there is no fair share, every seat sharing the team's "
              "result.",)),
        table]
