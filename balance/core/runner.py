"""Plays a run as independent chunks on threads or a dask cluster, folding each at once.

A run is a list of ``Task``s (a block of games with one seating, cut into chunks). Each task
is played by ``play_task`` from a picklable ``BlockSpec`` (game, rules, strategies, seed), so
the same function runs on a local thread or a dask worker. Results are folded into integer
totals as they arrive, in any order: game numbers, not chunks or workers, key the random
streams, and integer sums do not depend on order, so every thread count, chunk size and
backend gives bit-identical totals. Memory stays flat: only the chunks in flight exist.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from balance.core.cpus import usable_cpus

DEFAULT_CHUNK = 50_000


@dataclass(frozen=True)
class BlockSpec:
    """Everything a worker needs to play a block's games (picklable, hashable)."""

    game: str
    rules: str  # the validated rules as sorted JSON (Rules.to_dict())
    strategies: tuple[str, ...]  # one spec per seat (Strategy.label)
    seed: int
    card_strength: tuple = ()  # (when, run_games, cards) of a CardStrengthPlan, or () for none
    sides: tuple | None = None  # side index (or parse_side text) per seat, or None (no sides, or drawn per game)


@dataclass(frozen=True)
class Task:
    block: int  # index into the run's blocks
    first: int  # first game number of the chunk
    n: int  # games in the chunk

    @property
    def key(self) -> tuple[int, int]:
        return (self.block, self.first)


def plan_tasks(blocks: list[tuple[int, int]], chunk_size: int) -> list[Task]:
    """Cut each block ``(first_game, n_games)`` into chunks of at most ``chunk_size`` games."""
    tasks = []
    for b, (first_game, n_games) in enumerate(blocks):
        end = first_game + n_games
        for first in range(first_game, end, chunk_size):
            tasks.append(Task(b, first, min(chunk_size, end - first)))
    return tasks


@lru_cache(maxsize=64)
def engine_for(spec: BlockSpec):
    """The block's engine, built once per process (rules validated again on a worker)."""
    import json

    from balance.core.registry import get_game
    from balance.core.strategy import parse_strategy

    game = get_game(spec.game)
    rules = game.part("rules").Rules.from_overrides(json.loads(spec.rules))
    strategies = [parse_strategy(s, game.strategies) for s in spec.strategies]
    engine = game.part("engine")
    plan = engine.CardStrengthPlan(*spec.card_strength) if spec.card_strength else None
    return build_engine(game, rules, strategies, spec.sides, plan)


def build_engine(game, rules, strategies: list, sides=None, plan=None):
    """``Engine(rules, strategies)`` of ``game`` (a GameInfo), with only the options it uses:
    ``sides=`` for a game with sides (a side per seat, or None: drawn per game), and
    ``card_strength=`` when a card-strength plan is given (a game with restricted play). A
    game with neither may define its Engine with those two arguments alone."""
    options = {} if game.side is None else {"sides": sides}
    if plan is not None:
        options["card_strength"] = plan
    return game.part("engine").Engine(rules, strategies, **options)


def play_task(spec: BlockSpec, task: Task, keep_games: bool):
    """Play one chunk; without keep_games only its totals travel back (per-game rows dropped)."""
    chunk = engine_for(spec).play(spec.seed, task.first, task.n)
    if not keep_games:
        chunk = chunk.totals_only()
    return chunk


def default_threads() -> int:
    """One thread per CPU this process may keep busy (its affinity, capped by a CPU quota)."""
    return usable_cpus()


def execute(specs: list[BlockSpec], tasks: Iterable[Task], keep_games: bool,
            on_done: Callable, threads: int = 1, backend: str = "local",
            scheduler: str | None = None) -> None:
    """Play every task and call ``on_done(task, chunk)`` in the calling thread as each finishes.

    backend ``local``: ``threads`` threads of this process (numba kernels release the GIL).
    backend ``dask``: a dask.distributed cluster at ``scheduler`` (or a LocalCluster with
    ``threads`` single-threaded worker processes); a chunk lost with its worker is retried.
    On an exception or Ctrl-C, chunks not yet delivered are cancelled; delivered ones stay.
    """
    if backend == "dask":
        results = _dask_results(specs, list(tasks), keep_games, threads, scheduler)
    else:
        results = _thread_results(specs, tasks, keep_games, threads)
    for task, chunk in results:
        on_done(task, chunk)


def _thread_results(specs, tasks: Iterable[Task], keep_games: bool, threads: int) -> Iterator:
    if threads == 1:  # no pool: simplest to debug and profile
        for task in tasks:
            yield task, play_task(specs[task.block], task, keep_games)
        return
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    pending = iter(tasks)
    window = 2 * threads  # chunks in flight: enough to keep every thread busy, memory bounded
    with ThreadPoolExecutor(max_workers=threads) as pool:
        running = {}
        try:
            while True:
                while len(running) < window:
                    task = next(pending, None)
                    if task is None:
                        break
                    running[pool.submit(play_task, specs[task.block], task, keep_games)] = task
                if not running:
                    return
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
        finally:
            for future in running:
                future.cancel()


def _dask_results(specs, tasks: list[Task], keep_games: bool, threads: int,
                  scheduler: str | None) -> Iterator:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        from balance.core.errors import BalanceError

        raise BalanceError("--backend dask needs dask.distributed: pip install 'balance[dask]'") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=threads, threads_per_worker=1, processes=True,
                               dashboard_address=":0")
    try:
        client = Client(cluster if cluster is not None else scheduler, timeout=30)
    except (OSError, TimeoutError, ValueError) as e:  # ValueError: an address distributed cannot parse
        if cluster is not None:
            cluster.close()
        from balance.core.errors import BalanceError

        raise BalanceError(f"cannot reach the dask scheduler {scheduler!r}: {e}") from None
    try:
        # retries: a chunk whose worker died is rescheduled (the scheduler also resubmits
        # tasks lost with a worker by itself; retries cover errors raised on a worker).
        futures = {client.submit(play_task, specs[t.block], t, keep_games, pure=False, retries=3): t
                   for t in tasks}
        try:
            # with_results: results arrive through as_completed's own gathering, which stays on
            # the client's event loop (future.result() from here can meet a different loop when
            # the process holds several clients).
            for future, chunk in as_completed(futures, with_results=True):
                yield futures[future], chunk
        finally:
            client.cancel(list(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
