"""The Python API: what the CLI calls and what users script against.

>>> import balance
>>> run = balance.simulate("avengers-cards", players=[3, 4, 5], games=10_000, seed=1,
...                        strategies=["greedy"])
>>> run.seats            # polars DataFrame, one row per (players, seat, strategy)
"""
from __future__ import annotations

import platform
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from balance import __version__
from balance.core import interrupts, schema
from balance.core.errors import (BalanceError, as_list, as_path, check_bool, check_callable, check_int, check_text,
                                 one_of, plain, plain_overrides)
from balance.core.registry import game_package, get_game
from balance.core.strategy import parse_strategy
from balance.core.variants import load_variant_file, refuse_players

MAX_GAMES = 10**12
MAX_SEED = 2**64 - 1
MAX_THREADS = 1024
BACKENDS = ("local", "dask")
# A warm-up longer than this is compiling, not loading numba's cache: say so.
COMPILE_NOTICE_SECONDS = 2.0


@dataclass
class RunResult:
    """A finished run: its manifest and its tables (name -> DataFrame, as the manifest's
    ``tables`` lists them), also readable as attributes: ``run.seats``, ``run.cards``.

    A table the game declares but this run did not write (``card_strength`` without
    --card-strength, ``pairs`` of a cooperative game) reads as None. ``games`` (one row per
    game and seat) is filled only with keep_games and no ``out``; a written run keeps them in
    ``out / "games.parquet"``.
    """

    manifest: dict
    tables: dict = field(default_factory=dict)
    games: pl.DataFrame | None = None
    out: Path | None = None
    declared: tuple[str, ...] = ()  # every table name the game can write

    def __getattr__(self, name: str):
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        if name in self.__dict__.get("declared", ()):
            return None
        raise AttributeError(f"a run of {self.__dict__.get('manifest', {}).get('game')!r} has no "
                             f"table {name!r}; it has: {', '.join(tables)}")

    def __dir__(self):  # a notebook's completion offers the tables
        return sorted({*super().__dir__(), *self.__dict__.get("tables", {})})

    def __repr__(self) -> str:
        """One line, not the whole manifest: the game, counts, games, strategies and tables."""
        m = self.manifest
        where = f", out={str(self.out)!r}" if self.out is not None else ""
        return (f"RunResult(game={m.get('game')!r}, players={m.get('players')}, games={m.get('games')}, "
                f"seed={m.get('seed')}, strategies={m.get('strategies')}, tables={list(self.tables)}{where})")


def player_counts(players) -> list[int]:
    """``players`` (a count, or a list of counts: simulate's, compare's) as a list of distinct
    whole counts, in the order given; each count's range is its rules' to check."""
    counts = [players] if isinstance(players, int) else as_list("players", players, "4 or [3, 4]")
    if not counts:
        raise BalanceError("players: give at least one player count")
    for n in counts:  # before set(), which a list inside the list fails (the range is the rules')
        if isinstance(n, bool) or not isinstance(n, int):
            raise BalanceError(f"players={n!r} is not an integer; give a count or a list of counts, e.g. 4 or [3, 4]")
    if len(set(counts)) != len(counts):
        raise BalanceError(f"players {counts} repeats a count")
    return counts


def simulate(
    game: str,
    players: int | Sequence[int] | None = None,
    games: int = 100_000,
    seed: int = 0,
    strategies: Sequence[str] | None = None,
    overrides: dict | None = None,
    variant: str | Path | None = None,
    out: str | Path | None = None,
    keep_games: bool = False,
    force: bool = False,
    chunk_size: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_start: Callable[[], None] | None = None,
    rotate: bool = False,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    card_strength: str | bool | None = None,
    card_strength_cards: Sequence[int | str] | None = None,
    on_status: Callable[[str], None] | None = None,
    sides: Sequence[str] | None = None,
) -> RunResult:
    """Simulate ``games`` games for each player count and aggregate them.

    strategies: one spec for every seat, or one per seat (``name`` or ``name:k=v,k=v``);
    default: ``random`` (the game's default strategy for a cooperative game, or one with no
    random play: GameInfo.simulate_strategy);
    with ``rotate``, up to one per seat, cycled over the seats and rotated so each strategy plays
    every seat equally often (see ``_seatings``).
    overrides / variant: rules changes (``{"set_bonus": 2}`` / a TOML variant file); the
    overrides win. With ``out`` the run directory is written atomically and checkpointed;
    ``resume=True`` continues an interrupted run of the same request in ``out``.
    on_progress: called with the games each finished chunk adds (a resumed run's kept games
    first, at once). on_start: called once when play starts, after the kernels are compiled
    (minutes on a first run), so that a rate counted from there leaves the compiling out.
    threads: local threads (default: every core); backend ``local`` or ``dask`` (at
    ``scheduler``, or a LocalCluster). Results do not depend on threads, chunks or backend.
    card_strength: a mode of restricted play the game declares (GameInfo.restrict_modes, e.g.
    ``"always"``; True: ``"always"``): also play games again with one seat denied each card of
    ``card_strength_cards`` (default: every card; as the game names them, e.g. a value or a
    name), paired with the games as played on the same random streams (which seat, and how, is
    the game's: see its ``CardStrengthPlan``); the run gets a ``card_strength`` table (causal
    card strength, see balance.core.card_trials).
    on_status: called with a one-line message when something slow happens that is not
    simulation (compiling the kernels on a first run).
    sides: for a game whose seats play as something (GameInfo.side: a hero, a faction pair):
    one side name for every seat or one per seat, or with ``rotate`` up to one per seat, cycled and
    rotated over the seats together with the strategies; None: the game's kernel draws each
    game's sides from a stream of their own (so they survive a change of strategy).
    """
    from balance.core import runner

    spec = get_game(game)
    rules_mod = spec.part("rules")
    engine_mod = spec.part("engine")
    games, seed, threads, chunk_size, players = map(plain, (games, seed, threads, chunk_size, players))
    check_int("games", games, 1, MAX_GAMES)
    check_int("seed", seed, 0, MAX_SEED)
    if isinstance(players, str):
        raise BalanceError(f"players={players!r} is text; give a count or a list of counts, e.g. 4 or [3, 4]")
    strategies = as_list("strategies", strategies, f"[{spec.simulate_strategy!r}] (one for every seat) or one per seat")
    sides = as_list("sides", plain(sides), "['NAME'] (one for every seat) or one per seat")
    keep_games, force, rotate, resume = (check_bool(name, value) for name, value in (
        ("keep_games", keep_games), ("force", force), ("rotate", rotate), ("resume", resume)))
    check_callable("on_progress", on_progress)
    check_callable("on_start", on_start)
    check_callable("on_status", on_status)
    variant, out = as_path("variant", variant), as_path("out", out)
    card_strength_cards = as_list("card_strength_cards", plain(card_strength_cards),
                                  f"[CARD, ...] as `balance cards {spec.id}` or its rules name them")
    if card_strength_cards is not None and not card_strength:
        raise BalanceError("card_strength_cards names the cards card strength measures: give card_strength "
                           "too (e.g. card_strength=True)")
    if not (card_strength is None or isinstance(card_strength, (bool, str))):
        raise BalanceError(f"card_strength={card_strength!r}: give True, a mode of restricted play "
                           "(e.g. 'always') or None")
    if resume and out is None:
        raise BalanceError("resume needs the run directory (--resume DIR)")
    if chunk_size is None:  # a resumed run keeps its chunking (its checkpoint is per chunk)
        chunk_size = _saved_chunk_size(Path(out)) if resume else None
    threads = runner.default_threads() if threads is None else threads
    check_int("threads", threads, 1, MAX_THREADS)
    chunk_size = default_chunk_size(games, threads) if chunk_size is None else chunk_size
    check_int("chunk_size", chunk_size, 1, 10**8)
    chunks = -(-games // chunk_size)
    if chunks > MAX_CHUNKS:
        raise BalanceError(f"--chunk-size {chunk_size:,} cuts {games:,} games into {chunks:,} "
                           f"chunks; allowed: at most {MAX_CHUNKS:,} a player count (each is tracked for "
                           f"--resume), so --chunk-size (chunk_size=) {-(-games // MAX_CHUNKS):,} or more, or none")
    if backend not in BACKENDS:
        raise BalanceError(f"unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise BalanceError("--scheduler needs --backend dask")
    if scheduler is not None:
        check_scheduler(check_text("scheduler", scheduler, "'tcp://10.0.0.5:8786'"))

    overrides = plain_overrides(overrides)
    rule_changes = dict(load_variant_file(variant)) if variant is not None else {}
    refuse_players(rule_changes, f"variant file {str(variant)!r}")
    refuse_players(overrides, "--set (overrides=)")
    rule_changes.update(overrides)
    counts = player_counts(rules_mod.Rules.players if players is None else players)
    strategies = [spec.simulate_strategy] if strategies is None else strategies
    if not strategies:
        raise BalanceError("give at least one strategy")
    parsed = [parse_strategy(s, spec.strategies) for s in strategies]
    if sides is not None and spec.side is None:
        raise BalanceError(f"{spec.id} has no sides: its seats do not play as anything; drop --side (sides=)")

    when = "always" if card_strength is True else (card_strength or None)
    if when and spec.restrictable is None:
        raise BalanceError(f"{spec.id} has no restricted play (nothing a seat can be denied); "
                           "drop --card-strength")
    runs = []
    for n in counts:
        rules = _rules(rules_mod.Rules, rule_changes, overrides, variant, n)
        plan = (engine_mod.card_strength_plan(rules, when, games, card_strength_cards)
                if when else None)
        chosen = side_indices(engine_mod, rules, sides, spec.side) if sides is not None else None
        seated = _seatings(parsed, n, rotate, games)
        if chosen is not None:  # each seating position keeps its side, rotated with its strategy
            side_seats = _seatings(chosen, n, rotate, games, what="sides")
            seated = [(first, count, list(zip(seats, side_row)))
                      for (first, count, seats), (_, _, side_row) in zip(seated, side_seats)]
        else:
            seated = [(first, count, [(s, None) for s in seats]) for first, count, seats in seated]
        runs.append((rules, seated, plan))

    # cards the engine plays without their abilities: named in the manifest (and so the report)
    cards_part = spec.optional_part("cards")
    lacking = {rules.players: _unsupported(cards_part, rules, seated)
               for rules, seated, _ in runs} if cards_part else {}
    if any(lacking.values()) and on_status is not None:
        names = sorted({c for cs in lacking.values() for c in cs})
        what = ("card is", "its", "it") if len(names) == 1 else ("cards are", "their", "them")
        on_status(f"warning: {len(names)} {what[0]} played without {what[1]} abilities (not simulated yet; "
                  f"`balance cards {spec.id} --unsupported` lists {what[2]})")
    manifest = {
        "game": spec.id,
        "title": spec.title,
        "rules_version": spec.rules_version,
        "package_version": __version__,
        **({"game_package": package} if (package := game_package(spec.id)) else {}),  # a studio's game
        "seed": seed,
        "games": games,
        "players": counts,
        "rotate": rotate,
        "strategies": [s.label for s in parsed],
        "variant": {"file": str(variant) if variant is not None else None,
                    "overrides": dict(overrides)},
        "runs": [
            {
                "players": rules.players,
                "rules": rules.to_dict(),
                **({"unsupported": lacking[rules.players]} if lacking.get(rules.players) else {}),
                "seatings": [
                    {"first_game": first, "games": n_games,
                     "strategies": [{"seat": i, **s.to_dict(),
                                     **({"side": side[1]} if side is not None else {})}
                                    for i, (s, side) in enumerate(seats)]}
                    for first, n_games, seats in seatings
                ],
            }
            for rules, seatings, _ in runs
        ],
        "chunk_size": chunk_size,
        "keep_games": keep_games,
        # cards None: every card of each player count's hand
        "card_strength": ({"when": when, "cards": list(card_strength_cards) if card_strength_cards else None}
                          if when else None),
        # the --side list as the game spells it (its canonical_side or parse_side: a run given
        # another spelling of the same sides is the same run), each seat's side in the seatings;
        # or drawn per game
        **({"sides": [name for _, name in chosen] if sides is not None else "drawn"} if spec.side is not None
           else {}),
    }
    blocks = [(_engine(spec, rules, seats, plan), first, n_games)
              for rules, seatings, plan in runs for first, n_games, seats in seatings]

    execution = {"threads": threads, "backend": backend, "scheduler": scheduler}
    with interrupts.interrupting():  # Ctrl-C and SIGTERM stop the run as KeyboardInterrupt
        return _run(blocks, manifest, None if out is None else Path(out), keep_games, on_progress,
                    execution, force, resume, on_status, on_start)


# A dask scheduler's address as distributed parses it: a protocol it knows (or none: tcp), a
# host (a name, an IPv4 address or a bracketed IPv6 one) and a port. Checked here, before the run
# directory is made: distributed itself finds a bad one only when the workers are contacted.
SCHEDULER_ADDRESS = re.compile(r"((tcp|tls|ws|wss|ucx)://)?([A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\]):(\d{1,5})")


def check_scheduler(address: str) -> None:
    """A dask scheduler address with a host and a port, else one line naming it."""
    match = SCHEDULER_ADDRESS.fullmatch(address)
    if match is None or not 1 <= int(match.group(4)) <= 65535:
        raise BalanceError(f"--scheduler {address!r}: give an address tcp://HOST:PORT "
                           "(e.g. tcp://10.0.0.5:8786; also tls://, ws://, wss://, ucx://)")


def _unsupported(cards_part, rules, seatings) -> list[str]:
    """The cards a run of these seatings plays without their abilities: the game's own count of
    what its decks can deal (``unsupported_in_play(rules, side texts or None)``, when the cards
    part has it), else every unsupported card of the rules' list."""
    in_play = getattr(cards_part, "unsupported_in_play", None)
    if in_play is None:
        return cards_part.unsupported(rules)
    sides = sorted({side[1] for _, _, seats in seatings for _, side in seats if side is not None})
    drawn = any(side is None for _, _, seats in seatings for _, side in seats)
    return in_play(rules, None if drawn or not sides else sides)


CHUNKS_PER_THREAD = 4  # the default chunk size leaves each thread at least this many chunks
MAX_CHUNKS = 1_000_000  # chunks a player count at most (a chunk planned and tracked: ~300 bytes)


def default_chunk_size(games: int, threads: int) -> int:
    """At most DEFAULT_CHUNK games, and at least CHUNKS_PER_THREAD chunks per thread (every core
    busy, the progress bar moving on a slow game: a few hundred games a second with card
    strength's replays); but no more than MAX_CHUNKS chunks a player count: every chunk is
    planned and tracked (for --resume) before the first game, so 10^12 games in chunks of
    50,000 took 30 s and 3.4 GB first. (A chunk's per-game arrays cost about 100 bytes a game,
    so the chunks grow only as far as that needs.)"""
    from balance.core.runner import DEFAULT_CHUNK

    return max(min(DEFAULT_CHUNK, max(1, -(-games // (CHUNKS_PER_THREAD * threads)))), -(-games // MAX_CHUNKS))


def _engine(spec, rules, seats: list, plan):
    """The block's engine: strategies per seat, and for a game with sides their indices
    (None: drawn per game). ``seats``: (Strategy, (side index, name) or None) per seat."""
    from balance.core.runner import build_engine

    given = None if seats[0][1] is None else tuple(side[0] for _, side in seats)
    return build_engine(spec, rules, [s for s, _ in seats], given, plan)


def side_indices(engine_mod, rules, sides: Sequence[str], noun: str) -> list[tuple]:
    """(index, name) of each given side, checked against the game's choices for these rules;
    for a game whose engine module parses sides itself (``parse_side(rules, text) -> canonical
    text``, raising BalanceError), (text, text): its Engine takes the texts."""
    if not sides:
        raise BalanceError(f"give at least one --side ({noun}), or none to draw them per game")
    for given in sides:
        check_text("side", given, f"one {noun} name for every seat, or one per seat")
    parse = getattr(engine_mod, "parse_side", None)
    if parse is not None:  # an open set of sides (e.g. a deck list file): the game checks each and
        return [(name, name) for name in (parse(rules, given) for given in sides)]  # takes its text
    names = list(engine_mod.side_names(rules))
    # a game may accept other spellings of a side (its parts in another order, another case)
    canonical = getattr(engine_mod, "canonical_side", lambda rules, name: name)
    out = []
    for given in sides:
        name = canonical(rules, given)
        if name not in names:
            raise one_of(noun, given, names)
        out.append((names.index(name), name))
    return out


def _rules(rules_cls, changes: dict, overrides: dict, variant, players: int):
    """The rules of ``changes`` (the variant file's, then --set's) at ``players``. A value that
    the rules refuse and --set alone would not is the file's: the message names it (a user
    with several variant files could not tell which one held set_bonus=200). A fault of
    --set's own is given as --set alone has it."""
    try:
        return rules_cls.from_overrides({**changes, "players": players})
    except BalanceError as e:
        if variant is None:
            raise
        rules_cls.from_overrides({**overrides, "players": players})  # raises --set's own fault
        raise BalanceError(f"variant file {str(variant)!r}: {e}") from None


def _seatings(parsed: list, n: int, rotate: bool, games: int, what: str = "strategies") -> list[tuple[int, int, list]]:
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
                f"{k} {what} given for {n} players; give one for every seat, exactly {n}, "
                "or use --rotate to cycle them over the seats"
            )
        return [(0, games, parsed * n if k == 1 else list(parsed))]
    if k > n:
        raise BalanceError(f"{k} {what} do not fit {n} seats; give at most {n} with --rotate")
    if games < n:
        raise BalanceError(f"games={games} is too few to rotate over {n} seats; give at least {n}")
    seating = [parsed[s % k] for s in range(n)]
    bounds = [r * games // n for r in range(n + 1)]
    return [(bounds[r], bounds[r + 1] - bounds[r], [seating[(s + r) % n] for s in range(n)])
            for r in range(n)]


def _warm_up(engines: list, on_status) -> float:
    """Compile (or load from numba's cache) every game loop the run will play, before the
    clock starts: games/s then measures simulation, not compilation. Returns the seconds taken.

    Loading the cache takes well under COMPILE_NOTICE_SECONDS; a first run compiles for tens
    of seconds, and on_status says so once that threshold passes, so a user does not take the
    silence for a hang.
    """
    import threading

    started = time.perf_counter()
    notice = None
    if on_status is not None:
        notice = threading.Timer(COMPILE_NOTICE_SECONDS, on_status,
                                 ["compiling the kernel (first run only; later runs load it from the cache)"])
        notice.daemon = True
        notice.start()
    try:
        for engine in engines:
            engine.play(0, 0, 1)  # with a card-strength plan, game 0's replays compile theirs
    finally:
        if notice is not None:
            notice.cancel()
    return time.perf_counter() - started


def _run(blocks, manifest, out: Path | None, keep_games: bool, on_progress, execution: dict,
         force: bool, resume: bool, on_status=None, on_start=None) -> RunResult:
    """Play every chunk of every block, folding as they finish; write ``out`` if given."""
    import json

    from balance.core import output, runner
    from balance.core.checkpoint import Checkpointer, RunState, merge_games

    engines = [engine for engine, _, _ in blocks]
    specs = [runner.BlockSpec(manifest["game"], json.dumps(e.rules.to_dict(), sort_keys=True),
                              tuple(s.label for s in e.strategies), manifest["seed"],
                              _plan_tuple(e), getattr(e, "given_sides", None)) for e in engines]
    tasks = runner.plan_tasks([(first, n) for _, first, n in blocks], manifest["chunk_size"])
    state = RunState([e.empty_totals() for e in engines])
    kept: dict = {}
    checkpoint = None
    if out is not None:
        checkpoint = Checkpointer(out, manifest)
        if resume:
            state = checkpoint.resume(state)
        else:
            checkpoint.start(force)
    todo = [t for t in tasks if t.key not in state.done]
    if on_progress is not None and len(todo) < len(tasks):
        on_progress(sum(t.n for t in tasks if t.key in state.done))
    # Workers of a dask cluster compile or load their own kernels; locally, do it first.
    compile_seconds = _warm_up(engines, on_status) if execution["backend"] == "local" and todo else 0.0
    if on_start is not None and todo:
        on_start()  # play starts now: a rate counted from here leaves the compiling out
    started = time.perf_counter()

    def on_done(task, chunk):
        with interrupts.deferred():  # a chunk is folded and checkpointed whole, or not at all
            if keep_games:
                frame = engines[task.block].games_table(chunk)  # core columns, then the game's
                if checkpoint is None:
                    kept[task.key] = frame
                else:  # on disk before the checkpoint names the chunk done: resume never lacks it
                    frame.write_parquet(checkpoint.chunk_games_path(task))
            state.fold(task, chunk)
            if checkpoint is not None:
                checkpoint.maybe_save(state)
        if on_progress is not None:
            on_progress(task.n)

    try:
        runner.execute(specs, todo, keep_games, on_done, execution["threads"],
                       execution["backend"], execution["scheduler"])
    except BaseException as e:
        if checkpoint is not None:  # keep every finished chunk for --resume (Ctrl-C, SIGTERM, errors)
            with interrupts.deferred():
                if state.done or resume or isinstance(e, KeyboardInterrupt):
                    checkpoint.save(state)
                else:  # a failure before any chunk (e.g. no scheduler): nothing to resume, and a
                    checkpoint.discard()  # .NAME.partial kept would only block the corrected command
                checkpoint.release()  # a notebook goes on: another command may continue the run
        raise
    if checkpoint is not None:  # every chunk saved before the outputs are built and written: a full
        with interrupts.deferred():  # disk or a signal from here on leaves a run --resume only finishes
            checkpoint.save(state)

    info = get_game(manifest["game"])
    per_block = [e.all_tables(t) for e, t in zip(engines, state.totals)]
    specs_by_name = table_specs(info)
    tables = {name: schema.sum_rows(pl.concat([t[name] for t in per_block]), *specs_by_name[name][:2])
              for name in per_block[0] if all(name in t for t in per_block)}
    elapsed = time.perf_counter() - started
    manifest = {
        **manifest,
        # every table the run wrote: what `balance report` loads, and what each one holds
        "tables": {name: {"rows": frame.height, "keys": specs_by_name[name][0],
                          "meaning": specs_by_name[name][2]} for name, frame in tables.items()},
        "execution": execution,
        "timing": {  # of this invocation (a resumed run played only the missing chunks)
            "seconds": round(elapsed, 3),
            "games": sum(t.n for t in todo),  # played by this invocation: all, or what a resume had left
            "games_per_second": round(sum(t.n for t in todo) / max(elapsed, 1e-9)),
            "compile_seconds": round(compile_seconds, 3),  # not in seconds or games/s
            "machine": platform.machine(),
            "python": platform.python_version(),
        },
    }
    games = pl.concat([kept[t.key] for t in tasks]) if keep_games and out is None else None
    result = RunResult(manifest, tables, games=games, declared=tuple(specs_by_name))
    if checkpoint is not None:
        def write_outputs(directory: Path) -> None:
            for name, digest in output.write_tables(directory, tables).items():
                manifest["tables"][name]["sha256"] = digest  # read back only as written
            if keep_games:
                merge_games([checkpoint.chunk_games_path(t) for t in tasks], directory / "games.parquet")
            output.write_json(directory / "manifest.json", manifest)

        checkpoint.finish(write_outputs)
        result.out = out
    return result


def table_specs(info) -> dict[str, tuple[list[str], dict, str]]:
    """Every table a run of the game ``info`` may write: name -> (keys, columns, meaning);
    the core tables first (schema.CORE_TABLES), then the game's (GameInfo.tables)."""
    out = {name: (keys, columns, meaning) for name, (columns, keys, meaning) in schema.CORE_TABLES.items()}
    out.update({t.name: (list(t.keys), t.columns, t.meaning) for t in info.tables})
    return out


def _plan_tuple(engine) -> tuple:
    """The engine's card-strength plan as BlockSpec carries it (picklable), or ()."""
    plan = getattr(engine, "card_strength", None)
    return () if plan is None else (plan.when, plan.run_games, plan.cards)


def resume_arguments(out: str | Path) -> dict:
    """simulate() arguments of the interrupted run in ``out`` (for a bare ``--resume DIR``)."""
    from balance.core.checkpoint import partial_dir, read_request

    request = read_request(Path(out))
    try:
        return {"game": request["game"], "players": request["players"], "games": request["games"],
                "seed": request["seed"], "strategies": request["strategies"],
                "overrides": request["variant"]["overrides"], "variant": request["variant"]["file"],
                "rotate": request["rotate"], "keep_games": request["keep_games"],
                "card_strength": request.get("card_strength"),
                "sides": request["sides"] if isinstance(request.get("sides"), list) else None}
    except (KeyError, TypeError) as e:
        path = partial_dir(Path(out)) / "request.json"
        raise BalanceError(f"{str(path)!r} is unreadable ({e}); start again with --force") from None


def _saved_chunk_size(out: Path) -> int | None:
    import json

    from balance.core.checkpoint import partial_dir

    try:
        return json.loads((partial_dir(out) / "request.json").read_text("utf-8")).get("chunk_size")
    except (OSError, ValueError):
        return None  # Checkpointer.resume explains what is wrong
