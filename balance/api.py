"""The Python API: what the CLI calls and what users script against.

>>> import balance
>>> run = balance.simulate("avengers-cards", players=[3, 4, 5], games=10_000, seed=1,
...                        strategies=["greedy"])
>>> run.seats            # polars DataFrame, one row per (players, seat, strategy)
"""
from __future__ import annotations

import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from balance import __version__, schema
from balance.errors import BalanceError
from balance.registry import get_game
from balance.strategy import parse_strategy
from balance.variants import load_variant_file

MAX_GAMES = 10**12
MAX_SEED = 2**64 - 1
TABLES = ("seats", "scores", "cards", "villains", "pairs")


@dataclass
class RunResult:
    """A finished run: its manifest and its tables.

    ``games`` (one row per game and seat) is filled only with keep_games and no ``out``;
    a written run keeps them in ``out / "games.parquet"``.
    """

    manifest: dict
    seats: pl.DataFrame
    scores: pl.DataFrame
    cards: pl.DataFrame
    villains: pl.DataFrame
    pairs: pl.DataFrame
    games: pl.DataFrame | None = None
    out: Path | None = None
    tables: dict = field(default_factory=dict, repr=False)


def simulate(
    game: str,
    players: int | Sequence[int] | None = None,
    games: int = 100_000,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    overrides: dict | None = None,
    variant: str | Path | None = None,
    out: str | Path | None = None,
    keep_games: bool = False,
    force: bool = False,
    chunk_size: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    rotate: bool = False,
) -> RunResult:
    """Simulate ``games`` games for each player count and aggregate them.

    strategies: one spec for every seat, or one per seat (``name`` or ``name:k=v,k=v``);
    with ``rotate``, any number, cycled over the seats and rotated so each strategy plays
    every seat equally often (see ``_seatings``).
    overrides / variant: rules changes (``{"set_bonus": 2}`` / a TOML variant file); the
    overrides win. With ``out`` the run directory is written atomically.
    """
    from balance import output, runner

    spec = get_game(game)
    rules_mod = spec.part("rules")
    engine_mod = spec.part("engine")
    _check_int("games", games, 1, MAX_GAMES)
    _check_int("seed", seed, 0, MAX_SEED)
    chunk_size = runner.DEFAULT_CHUNK if chunk_size is None else chunk_size
    _check_int("chunk_size", chunk_size, 1, 10**8)

    rule_changes = dict(load_variant_file(variant)) if variant is not None else {}
    rule_changes.update(overrides or {})
    if players is None:
        players = rule_changes.get("players", rules_mod.Rules.players)
    counts = [players] if isinstance(players, int) else list(players)
    if not counts:
        raise BalanceError("players: give at least one player count")
    if len(set(counts)) != len(counts):
        raise BalanceError(f"players {counts} repeats a count")
    if not strategies:
        raise BalanceError("give at least one strategy")
    parsed = [parse_strategy(s, spec.strategies) for s in strategies]

    runs = []
    for n in counts:
        rules = rules_mod.Rules.from_overrides({**rule_changes, "players": n})
        runs.append((rules, _seatings(parsed, n, rotate, games)))

    manifest = {
        "game": spec.id,
        "title": spec.title,
        "rules_version": spec.rules_version,
        "package_version": __version__,
        "seed": seed,
        "games": games,
        "players": counts,
        "rotate": rotate,
        "variant": {"file": str(variant) if variant is not None else None,
                    "overrides": dict(overrides or {})},
        "runs": [
            {
                "players": rules.players,
                "rules": rules.to_dict(),
                "seatings": [
                    {"first_game": first, "games": n_games,
                     "strategies": [{"seat": i, **s.to_dict()} for i, s in enumerate(seats)]}
                    for first, n_games, seats in seatings
                ],
            }
            for rules, seatings in runs
        ],
        "chunk_size": chunk_size,
        "keep_games": keep_games,
    }
    blocks = [(engine_mod.Engine(rules, seats), first, n_games)
              for rules, seatings in runs for first, n_games, seats in seatings]

    if out is None:
        return _run(blocks, manifest, None, keep_games, on_progress)
    out = Path(out)
    with output.atomic_dir(out, force) as tmp:
        result = _run(blocks, manifest, tmp, keep_games, on_progress)
        output.write_tables(tmp, {name: result.tables[name] for name in TABLES})
        output.write_json(tmp / "manifest.json", result.manifest)
    result.out = out
    return result


def _seatings(parsed: list, n: int, rotate: bool, games: int) -> list[tuple[int, int, list]]:
    """``(first_game, n_games, strategy per seat)`` blocks that make up one player count's run.

    Without rotate: one block; one strategy for every seat or exactly one per seat. With
    rotate, the k <= n strategies are cycled over the seats (seat s: strategy s mod k) and
    that seating is rotated over n equal blocks of games (block r: seat s takes the seating's
    seat (s + r) mod n). Every seat then plays every position of the same table equally
    often, so seat effects cancel out of strategy comparisons and seat comparisons stay fair.
    """
    k = len(parsed)
    if not rotate:
        if k not in (1, n):
            raise BalanceError(
                f"{k} strategies given for {n} players; give one for every seat, exactly {n}, "
                "or use --rotate to cycle them over the seats"
            )
        return [(0, games, parsed * n if k == 1 else list(parsed))]
    if k > n:
        raise BalanceError(f"{k} strategies do not fit {n} seats; give at most {n} with --rotate")
    if games < n:
        raise BalanceError(f"games={games} is too few to rotate over {n} seats; give at least {n}")
    seating = [parsed[s % k] for s in range(n)]
    bounds = [r * games // n for r in range(n + 1)]
    return [(bounds[r], bounds[r + 1] - bounds[r], [seating[(s + r) % n] for s in range(n)])
            for r in range(n)]


def _run(blocks, manifest, directory: Path | None, keep_games: bool, on_progress) -> RunResult:
    from balance import runner

    started = time.perf_counter()
    per_block = []
    kept: list[pl.DataFrame] = []
    writer = None
    try:
        for engine, first_game, n_games in blocks:
            def keep(chunk, engine=engine):
                nonlocal writer
                frame = engine.games_table(chunk)
                if directory is None:
                    kept.append(frame)
                    return
                import pyarrow.parquet as pq

                table = frame.to_arrow()
                if writer is None:
                    writer = pq.ParquetWriter(directory / "games.parquet", table.schema)
                writer.write_table(table)

            totals = runner.run_chunks(
                engine, manifest["seed"], first_game, n_games, manifest["chunk_size"],
                on_chunk=keep if keep_games else None, on_progress=on_progress,
            )
            per_block.append(engine.tables(totals))
    finally:
        if writer is not None:
            writer.close()
    tables = {name: schema.sum_rows(pl.concat([t[name] for t in per_block]), name) for name in TABLES}
    # Written runs keep per-game rows on disk only (read them from ``out/games.parquet``).
    games = pl.concat(kept) if keep_games and directory is None else None
    elapsed = time.perf_counter() - started
    manifest = {
        **manifest,
        "timing": {
            "seconds": round(elapsed, 3),
            "games_per_second": round(manifest["games"] * len(manifest["players"]) / max(elapsed, 1e-9)),
            "machine": platform.machine(),
            "python": platform.python_version(),
        },
    }
    return RunResult(manifest, *(tables[n] for n in TABLES), games=games, tables=tables)


def _check_int(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BalanceError(f"{name}={value!r} is out of range; allowed: integer {low}..{high}")
