"""The ``balance`` command: thin wrappers over ``balance.core.api``.

Heavy imports (numba kernels, polars) happen inside commands so ``balance --help`` is instant.
Bad input -> one line on stderr and exit code 2; no traceback, no half-written output.
"""
from __future__ import annotations

import json
import shutil
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional

import typer

from balance import __version__
from balance.core.errors import BalanceError

app = typer.Typer(
    name="balance",
    help="Statistical balance analysis for tabletop games: simulate millions of games with "
    "parameterised strategies and measure win rates by seat, player count and card.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # joins a docstring's lines: a sentence wraps where the terminal ends
)

EXIT_BAD_INPUT = 2


def _flag(*names: str, **kwargs):
    """A typer.Option for an on/off flag: typer 0.29 shows bool options with a `<bool>` value
    placeholder, as if they took one (`--quiet true` is refused); an empty metavar drops it."""
    return typer.Option(*names, metavar="", **kwargs)


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def stopped(e: KeyboardInterrupt, kept: str, out: Optional[Path] = None) -> None:
    """Ctrl-C or SIGTERM ended the command: say what was kept (``kept``: how to continue), or,
    when the signal came as the command's finished output ``out`` was moved in, that it is
    complete (an analysis's inner runs are moved in too: those leave it unfinished); exit 130
    for Ctrl-C, 143 for SIGTERM, as a shell reports them."""
    from balance.core.interrupts import FinishedThenInterrupted, exit_status

    if isinstance(e, FinishedThenInterrupted) and out is not None and Path(e.args[0]) == Path(out):
        kept = f"the output was already finished: {e.args[0]} is complete, with nothing to resume"
    typer.echo(f"interrupted: {kept}", err=True)
    raise typer.Exit(exit_status())


def _version(value: bool) -> None:
    if value:
        typer.echo(f"balance {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[Optional[bool], _flag("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """Statistical balance analysis for tabletop games."""


@app.command()
def games(
    tables: Annotated[bool, _flag(
        "--tables", help="Also list the tables a run of each game writes, with their keys and meaning.")] = False,
) -> None:
    """List the games balance can simulate (built in, or installed by other packages through
    the `balance.games` entry point)."""
    from balance.core.registry import game_ids, get_game
    from balance.core.schema import CORE_TABLES

    if tables:
        typer.echo("core tables (every game; pairs for competitive games, scores with a score):")
        for name, (_, keys, meaning) in CORE_TABLES.items():
            typer.echo(f"  {name:<14} {meaning} [keys: {', '.join(keys)}]")
    width = max(len(g) for g in game_ids()) + 1  # the ids in one column however long the longest
    for game_id in game_ids():
        try:
            info = get_game(game_id)
            sides = f"; seats play as: {info.side}" if info.side else ""
            low, high = info.players
            counts = f"{low}" if low == high else f"{low}-{high}"
            # what simulate and compare play unless told (random, a floor) is not always what
            # tune, ladder and restrict play (the game's default, e.g. its strongest); restrict
            # only in a game with restricted play
            others = "tune, ladder and restrict" if info.restrictable else "tune and ladder"
            plays = (f"plays {info.simulate_strategy} without -s" if info.simulate_strategy == info.default_strategy
                     else f"simulate and compare play {info.simulate_strategy} without -s, "
                          f"{others} {info.default_strategy}")
            typer.echo(f"{game_id:<{width}}{info.title} ({info.kind.value}, {counts} players; {plays}{sides})")
            for t in info.tables if tables else ():
                extra = " (on request)" if t.optional else ""
                typer.echo(f"  {t.name:<14} {t.meaning}{extra} [keys: {', '.join(t.keys)}]")
            if tables and info.restrictable:
                modes = "; ".join(f"{mode}: {meaning}" for mode, meaning in info.restrict_modes)
                typer.echo(f"  restricted play: {info.restrict_seat} has the {info.restrictable} "
                           f"{info.restrict_act[1]}; --when {modes}; --card takes {info.restrict_items}")
        except BalanceError as e:  # a broken plug-in is listed with its problem, not a traceback
            typer.echo(f"{game_id:<{width}}(unusable: {e})")


@app.command()
def strategies(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
) -> None:
    """List a game's strategies with their parameters (default, bounds, meaning).

    Use them as `--strategy NAME` or `--strategy NAME:PARAM=VALUE,PARAM=VALUE`.
    """
    from balance.core.registry import get_game

    try:
        catalogue = get_game(game).strategies
    except BalanceError as e:
        fail(str(e))
    for info in catalogue.values():
        typer.echo(f"{info.name}\n    {info.doc}")
        for p in info.params:
            kind = "int" if p.integer else "float"
            default = int(p.default) if p.integer else p.default
            typer.echo(f"    {p.name}={default}  ({kind} {p.bounds()})  {p.doc}")
        typer.echo("")


def _has_card_list(game_id: str) -> bool:
    """Whether the game declares a card list (a broken plug-in counts as none, not a traceback)."""
    from balance.core.registry import get_game

    try:
        return get_game(game_id).optional_part("cards") is not None
    except BalanceError:
        return False


@app.command()
def cards(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    unsupported: Annotated[bool, _flag(
        "--unsupported", help="List only the cards the engine plays without their abilities "
        "(every run that deals one says so); exit status 0 either way.")] = False,
    overrides: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Rules change KEY=VALUE (e.g. tricksters=2012): the card list they select.")] = None,
) -> None:
    """List a game's cards (the columns its card list declares, e.g. faction, card, kind,
    power, copies) and whether the engine simulates each card's ability."""
    from balance.core.registry import game_ids, get_game
    from balance.core.variants import parse_overrides

    try:
        info = get_game(game)
        part = info.optional_part("cards")
        if part is None:
            with_list = [g for g in game_ids() if _has_card_list(g)]
            fail(f"{game} declares no card list; the games with one: {', '.join(with_list) or 'none'}. "
                 f"`balance rules {game}` lists its rules")
        rules_obj = info.part("rules").Rules.from_overrides(parse_overrides(overrides or []))
        if unsupported:
            missing = part.unsupported(rules_obj)
            typer.echo(f"{len(missing)} {'card is' if len(missing) == 1 else 'cards are'} played without "
                       f"{'its' if len(missing) == 1 else 'their'} abilities" + (":" if missing else "."))
            for name in missing:
                typer.echo(f"  {name}")
            summary = getattr(part, "unsupported_summary", None)  # e.g. counts by set and colour
            for line in summary(rules_obj) if summary is not None else ():
                typer.echo(line)
            return
        frame = part.card_list(rules_obj)
    except BalanceError as e:
        fail(str(e))
    # the game's own columns, as it declares them (the "simulated" flag becomes a mark)
    columns = [c for c in frame.columns if c != "simulated"]
    cells = [["" if row[c] is None else str(row[c]) for c in columns] for row in frame.iter_rows(named=True)]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    typer.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
    for r, simulated in zip(cells, frame["simulated"].to_list()):
        mark = "" if simulated else "  (not simulated)"
        typer.echo("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() + mark)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    as_json: Annotated[bool, _flag(
        "--json", help="Print the rows as JSON: key, default, allowed, meaning.")] = False,
) -> None:
    """List a game's rules keys: default (the rulebook), allowed values and meaning.

    Change them with `--set KEY=VALUE` or a `--variant` TOML file; defaults are written the
    way --set takes them.
    """
    import textwrap

    from balance.core.registry import get_game

    try:
        # Every game's rules module declares its keys' words (Rules.describe), so this command
        # prints them without knowing the game.
        info = get_game(game)
        rows = info.part("rules").Rules.describe()
    except BalanceError as e:
        fail(str(e))
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        typer.echo(row["key"])
        for label in ("default", "allowed"):
            typer.echo(textwrap.fill(f"{label}: {row[label]}", 92, initial_indent="    ",
                                     subsequent_indent="        "))
        typer.echo(textwrap.fill(row["meaning"], 92, initial_indent="    ", subsequent_indent="    "))
        typer.echo("")
    if info.levers:  # the game's own suggestions, as a report's "what to try next" gives them
        typer.echo("Levers: rule changes the game's designers try, by what they act on (a report "
                   "proposes them;\ntry one with `balance compare GAME --variant default --variant NAME`, "
                   "or NAME:SETTING):")
        for target in dict.fromkeys(lever.acts_on for lever in info.levers):
            typer.echo(f"  {target}:")
            for lever in (lever for lever in info.levers if lever.acts_on == target):
                typer.echo(textwrap.fill(f"{lever.variant}  {lever.what}", 92, initial_indent="    ",
                                         subsequent_indent="        "))


def _parse_players(text: Optional[str]) -> Optional[list[int]]:
    if text is None:
        return None
    items = [x.strip() for x in text.split(",")]
    if any(items) and not all(items):  # "3,,4" or "3,": a count left out by mistake, not to guess
        fail(f"--players {text!r} has an empty item between its commas; allowed: a count or a comma "
             "list like 3,4,5")
    try:
        return [int(x) for x in items if x]
    except ValueError:
        fail(f"--players {text!r} is not a number or a comma list like 3,4,5")


def _integer(refusal):
    """A typer parser for an integer option whose bad value gets the line ``refusal(value)``:
    typer's own refusal ("Input should be a valid integer") is a box that names neither the
    option nor the value."""
    def parse(value):
        if value is None or isinstance(value, int):  # the default
            return value
        try:
            return int(value)
        except ValueError:
            fail(refusal(value))
    return parse


_whole_games = _integer(lambda value: f"--games {value!r} is not a whole number of games")
_whole_seed = _integer(lambda value: f"--seed {value!r} is not a whole number (a seed is 0 or more)")
_whole_thread_count = _integer(lambda value: f"--threads {value!r} is not a whole number of threads")


def _whole_threads(value):
    """--threads: a whole number. More than the CPUs this process may use is allowed (no number
    depends on it) but said, since it buys nothing: the extra threads take turns on the same
    CPUs, each holding a chunk in memory."""
    threads = _whole_thread_count(value)
    if isinstance(threads, int) and threads > 1:
        from balance.core.cpus import usable_cpus

        cpus = usable_cpus()
        if threads > cpus:
            typer.echo(f"warning: --threads {threads} is more than the {cpus} CPU{'s' * (cpus > 1)} this process "
                       "may use; the extra threads take turns on them (the same numbers, no faster)", err=True)
    return threads


_whole_batch = _integer(lambda value: f"--batch {value!r} is not a whole number of games")


EXIT_CHECK_FAILED = 1


@app.command()
def check(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    only: Annotated[Optional[list[str]], typer.Option(
        "--only", metavar="<name>", help="Run this check only (repeatable): declaration, rules, levers, "
        "reference, chunks, replay, chance, wins, metrics. Default: all of them.")] = None,
    games: Annotated[Optional[int], typer.Option(
        "--games", parser=_whole_games, metavar="<int>", help="Games for each strategy and player count in "
        "the kernel = reference check. Default: the reference's CHECK_GAMES, else 30.")] = None,
) -> None:
    """Check that a game keeps the contract every command relies on, by playing it.

    For a game's authors (a studio's game installed beside balance, or a built-in one): the
    declaration and rules are sound; every lever is a valid rule change; the kernel plays the
    same games as the plain-Python reference for every strategy and player count (and under
    each lever); a run is identical for any chunk size and thread count; a game replays alone;
    no seat's strategy moves another seat's chance draws; wins are handed out as the game's
    kind says; and what `balance compare` measures stays within its bounds. See
    docs/ADDING_A_GAME.md.

    Exit status: 0 when every check passes, 1 when one fails (a malformed declaration
    included), 2 for bad input.
    """
    from balance.analysis.contract import CHECKS, run_check
    from balance.core.errors import check_int, one_of
    from balance.core.registry import game_ids, get_game

    try:
        for name in only or ():
            if name not in CHECKS:
                raise one_of("check", name, list(CHECKS))
        if games is not None:
            check_int("--games", games, 1, 100_000)
            if only and "reference" not in only:
                raise BalanceError("--games sets the reference check's games, and --only leaves that check "
                                   "out; add --only reference or drop --games")
        if game not in game_ids():
            raise one_of("game", game, game_ids())
    except BalanceError as e:
        fail(str(e))
    try:
        info = get_game(game)
    except BalanceError as e:  # registered but malformed: the first check fails
        typer.echo(f"Checking {game}: the declaration")
        typer.echo(f"  FAIL  {'declaration':<12} {e}")
        raise typer.Exit(EXIT_CHECK_FAILED)
    chosen = [CHECKS[name] for name in CHECKS if not only or name in only]
    typer.echo(f"Checking {game}, {info.title}: {len(chosen)} check{'s' * (len(chosen) > 1)}")
    # on a terminal, the running check's line shows what it verifies (a cold compile or a slow
    # reference takes minutes) until its result replaces it
    live = sys.stdout.isatty()
    width = shutil.get_terminal_size().columns - 1
    failed, seen = 0, {}
    for item in chosen:
        if live:
            typer.echo(f"  ...   {item.name:<12} {item.what}"[:width], nl=False)
        try:
            outcome = run_check(item, info, games)
        except KeyboardInterrupt:
            if live:
                typer.echo("")  # end the running check's line
            typer.echo(f"interrupted during {item.name}: nothing is written by a check", err=True)
            raise typer.Exit(130)
        failed += not outcome.passed
        line = outcome.line
        if not outcome.passed:  # one fault often fails several checks: print it once
            line = f"(the same as {seen[line]})" if line in seen else line
            seen.setdefault(outcome.line, item.name)
        mark = "ok  " if outcome.passed else "FAIL"
        typer.echo(("\r\033[K" if live else "") + f"  {mark}  {item.name:<12} {line} ({outcome.seconds:.1f} s)")
    typer.echo(f"{len(chosen) - failed} passed, {failed} failed" if failed else f"all {len(chosen)} passed")
    if failed:
        raise typer.Exit(EXIT_CHECK_FAILED)


def _one_count(command: str):
    """--players of a command that plays one player count (simulate, compare and ladder take a comma list)."""
    return _integer(lambda value: f"--players {value!r}: {command} takes one player count, a whole number "
                                  "(run it once per count)")


@app.command()
def simulate(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    players: Annotated[Optional[str], typer.Option(
        help="Player count, or a comma list (3,4,5) to run each count. Default: the game's default "
        "count (its rules' players: `balance rules GAME`).")] = None,
    n_games: Annotated[Optional[int], typer.Option(
        "--games", "-n", parser=_whole_games, metavar="<int>",
        help="Games per player count. Default: 100000.")] = None,
    seed: Annotated[Optional[int], typer.Option(parser=_whole_seed, metavar="<int>",
        help="Run seed: the same seed gives the same numbers. Default: 0.")] = None,
    strategy: Annotated[Optional[list[str]], typer.Option(
        "--strategy", "-s",
        help="NAME or NAME:PARAM=VALUE,... Once for every seat, or once per seat in seat order. "
        "See `balance strategies GAME`. Default: random (a cooperative game, or one without random "
        "play: its default strategy, see `balance games`).")] = None,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Rules override KEY=VALUE, e.g. --set set_bonus=2 --set ties_cancel=false. "
        "Repeatable; wins over --variant.")] = None,
    variant: Annotated[Optional[list[Path]], typer.Option(
        help="TOML file of rules overrides (flat keys, e.g. loss_rule = \"one\"); one file (several "
        "variants side by side: balance compare).")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Run directory to write. Default: runs/GAME-TIMESTAMP.")] = None,
    rotate: Annotated[bool, _flag(
        "--rotate", help="Cycle the --strategy list over the seats and rotate it over equal blocks "
        "of games, so every strategy plays every seat equally often (at most one strategy per seat).")] = False,
    keep_games: Annotated[bool, _flag(
        "--keep-games", help="Also write games.parquet: one row per game and seat.")] = False,
    side: Annotated[Optional[list[str]], typer.Option(
        "--side", help="For a game whose seats play as something (a hero, a faction pair; see "
        "`balance games`): the side of every seat (once), of each seat (once per seat), or with "
        "--rotate up to one per seat, rotated over the seats with the strategies. Default: the game "
        "draws each game's sides from a stream of their own.")] = None,
    card_strength: Annotated[bool, _flag(
        "--card-strength", help="Also measure each card's strength causally: play games again "
        "with one seat denied the card, or given a stand-in for it where the game swaps cards (which "
        "seat, and what is done, are the game's: `balance games --tables`), "
        "paired with the games as played on the same random streams. Costs up to one extra game "
        "per card and game; writes card_strength.parquet, which `balance report` uses.")] = False,
    card: Annotated[Optional[list[str]], typer.Option(
        help="With --card-strength: a card to measure (repeatable), as the game names its cards "
        "(`balance games --tables` says how). Default: every card.")] = None,
    when: Annotated[str, typer.Option(
        help="With --card-strength: the mode of restricted play, one the game declares "
        "(`balance games --tables` lists them with their meaning).")] = "always",
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted run there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted run in this directory (after Ctrl-C, a kill or a crash); "
        "options not given are taken from it, options given must match it.")] = None,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
        help="Threads playing chunks in parallel. Default: every usable CPU (a CPU quota counts).")] = None,
    backend: Annotated[str, typer.Option(
        help="local (threads of this process) or dask (a dask.distributed cluster).")] = "local",
    scheduler: Annotated[Optional[str], typer.Option(
        help="dask scheduler address, e.g. tcp://10.0.0.5:8786. Default with --backend dask: "
        "a local cluster of --threads worker processes.")] = None,
    chunk_size: Annotated[Optional[int], typer.Option(
        help="Games per chunk (memory vs overhead); results do not depend on it. Default: "
        "at least 4 chunks per thread, at most 50,000 games each (more past 1,000,000 chunks).")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
    as_json: Annotated[bool, _flag("--json", help="Print the manifest as JSON at the end.")] = False,
) -> None:
    """Simulate games and write a run directory.

    Writes manifest.json, the core tables (seats, scores, pairs, game_totals, outcomes,
    lengths) and the game's own (e.g. cards and villains for avengers-cards) as .parquet, and
    games.parquet with --keep-games, into --out, atomically. Finished
    chunks are checkpointed: after Ctrl-C, a kill or a crash, --resume DIR continues the run
    and ends with the same numbers as an uninterrupted one.

    Example: balance simulate avengers-cards --players 3,4,5 --games 100000 -s greedy
    """
    from balance.core.api import resume_arguments
    from balance.core.api import simulate as run_simulation

    counts = _parse_players(players)
    if when != "always" and not card_strength:
        fail(f"--when {when} applies to --card-strength; add --card-strength (or drop --when)")
    if card and not card_strength:
        fail("--card names cards to measure with --card-strength; add --card-strength (or drop --card)")
    if variant and len(variant) > 1:  # click kept the last one and dropped the others silently
        fail(f"--variant is given {len(variant)} times ({', '.join(map(str, variant))}); a run plays one variant "
             "file: merge them, give the other settings with --set, or compare them with balance compare")
    variant = variant[0] if variant else None
    try:
        from balance.core.variants import parse_overrides

        overrides = parse_overrides(set_)
        if resume is not None:
            saved = resume_arguments(_resume_dir(resume, out))
            _same_game(resume, "run", saved["game"], game)
            out = resume
            counts = saved["players"] if counts is None else counts
            n_games = saved["games"] if n_games is None else n_games
            seed = saved["seed"] if seed is None else seed
            strategy = strategy or saved["strategies"]
            overrides = overrides or saved["overrides"]
            variant = variant or (Path(saved["variant"]) if saved["variant"] else None)
            rotate = rotate or saved["rotate"]
            keep_games = keep_games or saved["keep_games"]
            side = side or saved["sides"]
            if saved["card_strength"] and not card_strength:
                card_strength, when = True, saved["card_strength"]["when"]
                card = card or saved["card_strength"].get("cards")
        out = out or _default_out("", game, ctx)
        n_games = 100_000 if n_games is None else n_games
        total = n_games * (len(counts) if counts else 1)  # denied-card replays not counted
        with _progress(quiet or as_json, total) as advance:
            result = run_simulation(
                game, players=counts, games=n_games, seed=0 if seed is None else seed,
                strategies=strategy or None, overrides=overrides, variant=variant,
                out=out, keep_games=keep_games, force=force, chunk_size=chunk_size,
                on_progress=advance, on_start=getattr(advance, "start", None), rotate=rotate, threads=threads,
                backend=backend,
                scheduler=scheduler, resume=resume is not None,
                card_strength=when if card_strength else None, card_strength_cards=card or None,
                on_status=None if quiet or as_json else lambda msg: typer.echo(msg, err=True),
                sides=side or None,
            )
    except BalanceError as e:
        fail(str(e))
    except KeyboardInterrupt as e:
        stopped(e, f"finished chunks are kept; continue with balance simulate {game} --resume {out}", out)
    if as_json:
        typer.echo(json.dumps({**result.manifest, "out": str(result.out)}, indent=2))
    elif not quiet:
        _print_summary(result)


def _default_players(game: str) -> int:
    """The game's default player count (a one-line error for an unknown game)."""
    from balance.core.registry import get_game

    try:
        return get_game(game).default_players
    except BalanceError as e:
        fail(str(e))


def _default_out(kind: str, game: str, ctx: typer.Context | None = None) -> Path:
    """runs/KIND-GAME-TIMESTAMP (runs/GAME-TIMESTAMP for a run). A command started in the same
    second as another, whose directory or ``.NAME.partial`` is there, gets -2, -3, ...: it
    must not be refused as the other's "interrupted run", nor offered to --force it away. The
    name is reserved by making its ``.NAME.partial``, empty (mkdir is atomic): commands started
    together, as a script's `&` starts them, each checked before either made it, and took one
    name. The checkpoint takes an empty one as its own; one left empty when the command ends
    (an option refused before its work began) is removed, with runs/ if it made it (on
    ``ctx``'s close: the command's end, whatever ends it)."""
    from balance.core.checkpoint import partial_dir

    stem = "-".join(part for part in (kind, game, f"{datetime.now():%Y%m%d-%H%M%S}") if part)
    runs = Path("runs")
    made = [runs.absolute()] if not runs.exists() else []
    n = 1
    while True:
        out = runs / (stem if n == 1 else f"{stem}-{n}")
        if not out.exists():
            try:
                partial_dir(out).mkdir(parents=True)
            except FileExistsError:
                if not partial_dir(out).exists():  # runs/ itself is in the way (a dangling link): said at start
                    return out
                # else another command's (running, interrupted, or reserved just now): the next name
            except OSError:  # runs/ cannot be written: the command says so when it starts
                return out
            else:
                reserved = [partial_dir(out).absolute(), *made]
                if ctx is not None:
                    ctx.call_on_close(lambda: _remove_if_empty(reserved))
                return out
        n += 1


def _remove_if_empty(directories: list[Path]) -> None:
    """Remove each of ``directories`` that is empty, in order: a name reserved by
    ``_default_out`` for a command that stopped before its work began (a refused option), then
    runs/ if it made it. Anything holding a file is kept (an interrupted run's request)."""
    for directory in directories:
        try:
            directory.rmdir()
        except OSError:
            pass


def _options(ctx: typer.Context, command: str, game: str, names: tuple[str, ...], resume: Optional[Path],
             out: Optional[Path]) -> tuple[dict, Path]:
    """The options ``names`` (parameter names) of an analysis command, keyed by their long
    option ("--games" -> "games"), and its output directory. With --resume DIR, an option not
    given on the command line is the interrupted command's (the checkpoint refuses one given
    that differs, naming it)."""
    from balance.analysis.study import saved_options

    long = {p.name: next(o for o in p.opts if o.startswith("--"))[2:] for p in ctx.command.params
            if p.name in names}
    options = {long[name]: ctx.params[name] for name in names}
    if resume is None:
        return options, out or _default_out(command, game, ctx)
    try:
        saved_game, saved = saved_options(command, _resume_dir(resume, out))
    except BalanceError as e:
        fail(str(e))
    _same_game(resume, command, saved_game, game)
    for name in names:  # by name: typer vendors its own copy of click's ParameterSource
        source = getattr(ctx.get_parameter_source(name), "name", "DEFAULT")
        if source not in ("COMMANDLINE", "ENVIRONMENT") and long[name] in saved:
            options[long[name]] = saved[long[name]]
    return options, resume


def _resume_dir(resume: Path, out: Optional[Path]) -> Path:
    """The directory --resume continues; --out may repeat it, not name another."""
    if out is not None and out != resume:
        fail(f"--out {out} and --resume {resume} name different directories")
    return resume


def _same_game(resume: Path, what: str, saved: str, game: str) -> None:
    """--resume continues only the game it was started on."""
    if saved != game:
        fail(f"--resume {resume} holds a {what} of {saved!r}, not {game!r}")


def _run_study(command: str, game: str, options: dict, out: Path, force: bool, resume: bool, quiet: bool,
               total: int, run, write):
    """The shape every analysis command shares: check --out before any work; run with a
    progress bar, keeping finished work in .OUT.partial (``balance.analysis.study``); write the
    outputs there and swap them into --out in one step. BalanceError -> one line, exit 2;
    Ctrl-C or SIGTERM -> exit 130 or 143, the work kept and the command that resumes it printed.

    run(advance, study) returns the result; write(result, directory) writes the outputs."""
    from balance.core.interrupts import interrupting
    from balance.analysis.study import KINDS

    study = KINDS[command](out, game, options)
    try:
        with interrupting():  # SIGTERM, like Ctrl-C, leaves no half-written output behind
            if resume:
                study.reopen()
            else:
                study.start(force)
            try:
                with _progress(quiet, total) as advance:
                    result = run(advance, study)
            except BalanceError:
                if not resume:
                    study.discard_if_empty()  # bad input found by the analysis: nothing to resume
                raise
            study.finish(lambda directory: write(result, directory))
    except BalanceError as e:
        fail(str(e))
    except KeyboardInterrupt as e:
        stopped(e, f"the finished work is kept; continue with balance {command} {game} --resume {out}", out)
    return result


def _compact(n: float) -> str:
    """1234 -> '1.23k', 10_000_000 -> '10M': a count short enough for an 80-column bar (999,600
    is '1M', not '1e+03k': a value that rounds to 1000 of its unit takes the next)."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if float(f"{n:.3g}") >= size:
            return f"{float(f'{n:.3g}') / size:.3g}{suffix}"
    return f"{n:.0f}"


# Without a terminal (nohup, a CI log) the bar is replaced by a line now and then: the first
# after this many seconds (a short run prints nothing), then one every PLAIN_EVERY seconds.
PLAIN_FIRST, PLAIN_EVERY = 30.0, 60.0
KEPT_WITHIN = 1.0  # seconds: a first advance this soon is a resumed run's kept games (_plain_progress)


def _progress(silent: bool, total: int):
    """A context giving ``advance(n)``: a rich progress bar on a terminal (80 columns wide at
    most), a line to stderr now and then without one, or nothing when ``silent``."""
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if silent:
            yield None
            return
        if not sys.stderr.isatty():
            yield _plain_progress(total)
            return
        from rich.console import Console
        from rich.progress import (BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        from rich.text import Text

        class Count(ProgressColumn):
            def render(self, task):
                return Text(f"{_compact(task.completed)}/{_compact(task.total)} games")

        class Rate(ProgressColumn):
            def render(self, task):
                return Text(f"{_compact(task.speed)} games/s" if task.speed else "")

        columns = (TextColumn("simulating"), BarColumn(bar_width=20), Count(), Rate(), TimeElapsedColumn(),
                   TextColumn("eta"), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("games", total=total)
            yield lambda n: progress.advance(task, n)

    return bar()


def _plain_progress(total: int):
    """``advance(n)`` printing 'simulating: 12% (1,200,000 of 10,000,000 games), 95,000 games/s,
    about 0:01:33 left' to stderr after PLAIN_FIRST seconds, then every PLAIN_EVERY. The rate
    is of the games since play started: since ``advance.start()``, which `balance simulate` calls
    once its kernels are compiled (a first run's compiling, minutes, made 20,000 games read as 14
    games/s and 21 minutes left), else since the start; in both, leaving out a first advance
    within KEPT_WITHIN seconds of the start: a resumed run's kept games, told all at once
    (counted in, they made the rate and the time left look many times better; no chunk is
    played that fast in a run long enough to print). Not from the first chunk on: with several
    threads the first chunks end together."""
    import time
    from datetime import timedelta

    start = time.monotonic()
    # since: (games, time) the rate counts from: the start, or play's start (advance.start()),
    # after a resumed run's kept games
    state = {"done": 0, "next": start + PLAIN_FIRST, "since": (0, start), "first": True}

    def advance(n: int) -> None:
        state["done"] += n
        now = time.monotonic()
        if state["first"] and now - start < KEPT_WITHIN:  # the games a resumed run kept, told at once
            state["since"] = (state["done"], now)
        state["first"] = False
        (base, then), done = state["since"], state["done"]
        if now < state["next"] or now <= then:
            return
        state["next"] = now + PLAIN_EVERY
        rate = (done - base) / (now - then)
        left = f", about {timedelta(seconds=round((total - done) / rate))} left" if rate > 0 else ""
        typer.echo(f"simulating: {100 * done / max(total, 1):.0f}% ({done:,} of {total:,} games), "
                   f"{rate:,.0f} games/s{left}", err=True)

    def started() -> None:  # play starts: after compiling (a first run's is minutes)
        state["since"] = (state["done"], time.monotonic())

    advance.start = started
    return advance


def _print_summary(result) -> None:
    m = result.manifest
    typer.echo(f"{m['game']}: {m['games']:,} games per player count, seed {m['seed']}, "
               f"{m['timing']['games_per_second']:,} games/s -> {result.out}")
    if "card_strength" in result.tables:  # a game without restricted play has no such table
        from balance.core.registry import get_game

        done = get_game(m["game"]).restrict_act[1]  # "removed", or what the game does instead
        typer.echo(f"card strength: every game replayed once per card with it {done} for one seat "
                   f"(card_strength.parquet); `balance report {result.out}` ranks the cards")
    import polars as pl

    seats = result.seats
    keys = ["players", "seat", "strategy"]
    # seats played as something: show it when each seat kept one side (given with --side);
    # sides drawn per game are pooled here (the report tests them)
    sided = bool((seats["side"] != "").any())
    if sided and seats.group_by(keys).agg(pl.col("side").n_unique())["side"].max() > 1:
        typer.echo("sides drawn per game: seats pooled over them; the report has win rates by side")
        sided = False
    if not sided:
        seats = (seats.group_by(keys, maintain_order=True)
                 .agg(pl.col("games", "win_share", "score_sum").sum(), pl.lit("").alias("side")))
    from balance.core.registry import get_game

    scored = get_game(m["game"]).score is not None  # a game without a score shows win rates alone
    width = max([4] + [len(x) for x in seats["side"].to_list()]) + 1
    typer.echo(f"{'players':>7} {'seat':>4}  {'strategy':<24} " + (f"{'side':<{width}}" if sided else "")
               + f"{'win rate':>9}" + (f" {'mean score':>10}" if scored else ""))
    for row in seats.iter_rows(named=True):
        rate = row["win_share"] / row["games"]
        mean = f" {row['score_sum'] / row['games']:>10.2f}" if scored else ""
        typer.echo(f"{row['players']:>7} {row['seat']:>4}  {row['strategy']:<24} "
                   + (f"{row['side']:<{width}}" if sided else "") + f"{rate:>8.2%}{mean}")


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by `balance simulate`.")],
    out: Annotated[Optional[Path], typer.Option(
        help="Where to write report.md, report.html and figures/. Default: the run directory.")] = None,
    mix: Annotated[Optional[Path], typer.Option(
        help="A second run in which several strategies were rotated over the seats "
        "(`simulate -s A -s B -s C --rotate`): reported as the Strategies section, so the main run "
        "can have one strategy in every seat and its seat and card numbers are not mixed.")] = None,
    card_strength: Annotated[Optional[Path], typer.Option(
        "--card-strength", help="A run made with `simulate --card-strength` under the same rules, "
        "strategies and sides (checked), at some or all of this run's player counts: its card "
        "strength is reported as this run's. For a main run too large to play again once per card.")] = None,
    interval: Annotated[str, typer.Option(
        help="Interval for counted rates: wilson or clopper-pearson (exact).")] = "wilson",
) -> None:
    """Write a balance report (report.md, a self-contained report.html and PNG figures).

    The first screen is a plain-words verdict, each line decided by a named test: is any seat
    favoured (and how large an edge the run could have found), how player counts differ, which
    cards matter (causal, from `simulate --card-strength`), how strategies fare, and a ready
    `balance compare` command to try next.

    Example: balance report runs/study --mix runs/study-mix --out reports/study

    Card strength replays every game once per card; for a large study, measure it in a smaller
    run of its own and give that: balance report runs/study --card-strength runs/study-cards
    """
    from balance.analysis.report import write_run_report
    from balance.core.interrupts import interrupting

    try:
        with interrupting():  # SIGTERM as Ctrl-C: the report's files are moved into place whole
            paths = write_run_report(run_dir, out, interval, mix_dir=mix, cards_dir=card_strength)
    except BalanceError as e:
        fail(str(e))
    except KeyboardInterrupt as e:
        stopped(e, "no file was left half-written; run the command again for the report")
    typer.echo(f"wrote {paths['html']} and {paths['markdown']}")


CORRECTION_NAMES = ("holm", "bh")


def _margins(given) -> tuple[Optional[float], Optional[dict[str, float]]]:
    """--margin's values -> (the rates' margin, {metric: its own margin}); a comparison saved
    before METRIC=M existed kept one number, which reads as the rates' margin."""
    if given is None or isinstance(given, (int, float)):
        return given, None
    rate, named = None, {}
    for item in given:
        key, sep, text = item.rpartition("=")
        key = key.strip()
        if sep and not key:
            fail(f"--margin {item!r} names no metric; allowed: a number (a rate's margin) or METRIC=NUMBER")
        try:
            value = float(text)
        except ValueError:
            fail(f"--margin {item!r}: {text.strip()!r} is not a number; allowed: a number (a rate's margin, "
                 "0.005 = 0.5 pp) or METRIC=NUMBER (length=1)")
        if not sep and rate is not None:
            fail(f"--margin gives the rates' margin twice ({rate:g} and {value:g}); give it once")
        if sep and key in named:
            fail(f"--margin gives {key}'s margin twice; give it once")
        if sep:
            named[key] = value
        else:
            rate = value
    return rate, named or None


def _margin_request(given):
    """--margin's values in the one form a comparison's request keeps: None; the rates' margin
    alone as a number (as before METRIC=M existed, so such a comparison resumes with it typed
    again); else 'RATE' and 'METRIC=M' texts, each number as Python writes it, metrics sorted
    ('0.020' and '0.02', in either order, are one request)."""
    if not given:
        return None
    rate, named = _margins(given)
    if not named:
        return rate
    return [*([repr(rate)] if rate is not None else []), *(f"{k}={v!r}" for k, v in sorted(named.items()))]


def _words(values) -> str:
    """A repeatable option's values as typed: '0.01 length=1'."""
    return " ".join(map(str, values)) if isinstance(values, list) else str(values)


# compare takes one argument; extra ones are what the shell made of an unquoted value with
# spaces, which compare explains instead of click's bare "unexpected extra arguments".
@app.command(context_settings={"allow_extra_args": True})
def compare(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    variant: Annotated[Optional[list[str]], typer.Option(
        help="A rule variant: 'default' (the rulebook), a TOML file, or inline 'key=value;key=value', "
        "optionally named 'name:...'. Repeat, at least twice (unless --resume); the first is the "
        "baseline.")] = None,
    players: Annotated[Optional[str], typer.Option(
        help="Player count, or a comma list (2,3,4) to compare at each: every count's rows are then corrected "
        "together, so the verdict holds for the whole comparison (not with --sprt). Default: the game's "
        "default (its rules' players: `balance rules GAME`).")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", parser=_whole_games, metavar="<int>",
                                         help="Games per variant and player count (the cap with --sprt).")] = 100_000,
    seed: Annotated[int, typer.Option(parser=_whole_seed, metavar="<int>",
            help="Seed shared by every variant (common random numbers).")] = 0,
    strategy: Annotated[Optional[list[str]], typer.Option(
        "--strategy", "-s", help="NAME or NAME:PARAM=VALUE,...; once for all seats or once per seat. "
        "Default: random (a cooperative game, or one without random play: its default strategy).")] = None,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Rules setting KEY=VALUE every variant starts from (a study's conditions: the "
        "settings its run used); a variant's own setting of the key replaces it. Repeatable.")] = None,
    side: Annotated[Optional[list[str]], typer.Option(
        "--side", help="For a game whose seats play as something (a hero, a faction pair; see `balance "
        "games`): the side of every seat (once) or of each seat (once per seat), the same in every variant, "
        "at one player count: does the change help this matchup? The seats' rows then measure each seat "
        "with its side, and the sides' own rows are left out. Default: each game's sides drawn at random, "
        "the same in every variant.")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Directory for comparison.json, report.md, report.html. "
        "Default: under runs/, compare-GAME-TIMESTAMP.")] = None,
    alpha: Annotated[float, typer.Option(help="Significance level (after correction).")] = 0.05,
    correction: Annotated[str, typer.Option(
        help="Multiple-comparison correction over all metrics and variants (with --primary, over each "
        "family): holm or bh.")] = "holm",
    primary: Annotated[Optional[list[str]], typer.Option(
        help="The question, named before the games are seen: a metric whose rows (every variant's) "
        "alone decide the verdict and --fail-if-different, corrected as one family; every other row is "
        "secondary, corrected among themselves. Repeatable. One of the game's compare metrics, "
        "seat_shift, seat_distance, or the sides' side_distance (competitive) or side_relative_distance "
        "(cooperative). Default: every tested row in one family, which at dozens of rows costs power "
        "(docs/COMPARE.md).")] = None,
    margin: Annotated[Optional[list[str]], typer.Option(
        help="The largest change that does not matter. A number is a rate's (0.005 = 0.5 pp): each rate "
        "row of the question (--primary's, else every tested one) is also tested for being within it (two "
        "one-sided tests, corrected over those rows), so the verdict can say 'changed by less than +-0.5 pp', "
        "which 'no significant difference' does not. METRIC=M gives one metric its own, in its unit "
        "(length=1: game length within +-1). Repeatable.")] = None,
    sprt: Annotated[bool, _flag("--sprt", help="Sequential mode: play batches until an SPRT "
                                        "decides (H0: no difference larger than --delta).")] = False,
    delta: Annotated[float, typer.Option(help="SPRT: smallest difference that matters (metric's scale, "
                                         "0.01 = 1 pp of win rate).")] = 0.01,
    beta: Annotated[float, typer.Option(help="SPRT: accepted chance of missing a --delta difference.")] = 0.05,
    metric: Annotated[Optional[str], typer.Option(
        help="SPRT metric: one of the game's compare metrics (listed in comparison.json; "
        "avengers-cards: win_share_seat0, mean_score, heroes_success, tied_game, ...). Default: "
        "the first (seat 0's win share; a cooperative game: the team's win).")] = None,
    batch: Annotated[Optional[int], typer.Option(parser=_whole_batch, metavar="<int>",
            help="SPRT: games per batch between decisions.")] = None,
    fail_if_different: Annotated[bool, _flag(
        "--fail-if-different", help="Exit 1 if any difference is significant (with --primary: a row of the "
        "question; for a designer's CI).")] = False,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
            help="Threads. Default: every usable CPU (a CPU quota counts).")] = None,
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted comparison there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted comparison in this directory (after Ctrl-C, a kill or a crash); "
        "options not given are taken from it, options given must match it.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Compare rule variants on the same games (common random numbers, paired statistics).

    For each variant: every metric's change with its interval and corrected p-value, whether
    any seat moved, and whether the seats (and the sides they play as) are fairer, each
    by its own test (docs/COMPARE.md). Finished chunks are kept: after Ctrl-C, a kill or a
    crash, --resume DIR continues to the same numbers.

    Example: balance compare avengers-cards --variant default --variant bonus2:set_bonus=2
    --players 4 --games 200000 -s greedy
    """
    from balance.analysis.compare import compare as run_compare
    from balance.analysis.compare import parse_variant
    from balance.analysis.compare_report import write_compare_report
    from balance.core.output import write_json
    from balance.core.variants import parse_overrides

    if ctx.args:
        try:  # the variant the shell cut short names itself best
            for v in variant or ():
                parse_variant(v)
        except BalanceError as e:
            fail(f"{e} (left over: {' '.join(ctx.args)})")
        fail(f"unexpected argument(s) {' '.join(map(repr, ctx.args))}: compare takes one game; a "
             "value with spaces was split by the shell, so quote it, e.g. "
             '--variant "KEY=[1, 2, 3]"')
    counts = _parse_players(players)  # checked as simulate's are (api.player_counts)
    # one count as a number, as a comparison saved before several counts reads (and --resume matches)
    ctx.params["players"] = counts[0] if counts and len(counts) == 1 else counts
    o, out = _options(ctx, "compare", game, ("variant", "players", "n_games", "seed", "strategy", "set_", "alpha",
                                              "correction", "sprt", "delta", "beta", "metric", "batch", "primary",
                                              "margin", "side"), resume, out)
    o["side"] = o["side"] or None  # not given: None, as a comparison saved before --side reads
    o["primary"] = o["primary"] or None  # not given: None, as a comparison saved before --primary reads
    typed_margin = o["margin"]
    o["margin"] = _margin_request(o["margin"])  # one form saved, so that --resume with it typed again matches
    rate_margin, margins = _margins(o["margin"])
    if o["correction"] not in CORRECTION_NAMES:
        fail(f"unknown correction {o['correction']!r}; allowed: {', '.join(CORRECTION_NAMES)}")
    sprt_spec = ({"delta": o["delta"], "alpha": o["alpha"], "beta": o["beta"], "metric": o["metric"]}
                 if o["sprt"] else None)
    try:
        common = parse_overrides(o["set"])
    except BalanceError as e:
        fail(str(e))
    for name in ("metric", "batch", "delta", "beta"):  # the SPRT's settings would change nothing without it
        given = o[name] is not None and getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
        if given and not o["sprt"]:
            fail(f"--{name} {o[name]} applies to --sprt (the sequential mode); add --sprt (or drop --{name})")
    if o["primary"] and o["sprt"]:
        fail(f"--primary {o['primary'][0]} applies to the fixed-size comparison; with --sprt the question is "
             "--metric (its rows are descriptive): drop one of them")
    if o["margin"] is not None and o["sprt"]:
        fail(f"--margin {_words(typed_margin)} applies to the fixed-size comparison; with --sprt, --delta is the "
             "size that matters (H0 accepted: no difference that large): drop one of them")
    if isinstance(o["players"], list) and o["sprt"]:
        fail(f"--players {','.join(map(str, o['players']))} names {len(o['players'])} counts, and --sprt decides "
             "one: run the sequential comparison once per count, or drop --sprt")
    if isinstance(o["players"], list) and o["side"]:
        fail(f"--players {','.join(map(str, o['players']))} names {len(o['players'])} counts, and --side fixes each "
             "seat's side at one: compare once per count with its sides, or drop --side")

    def run(advance, study):
        return run_compare(game, o["variant"] or [], players=o["players"], games=o["games"], seed=o["seed"],
                           strategies=o["strategy"] or None, alpha=o["alpha"], correction=o["correction"],
                           sprt=sprt_spec, batch=o["batch"], on_progress=advance, threads=threads, keep=study,
                           common=common, primary=o["primary"], margin=rate_margin, margins=margins,
                           sides=o["side"])

    def write(result, directory):
        write_json(directory / "comparison.json", result.report)
        write_compare_report(result.report, directory)

    several = len(o["players"]) if isinstance(o["players"], list) else 1
    result = _run_study("compare", game, o, out, force, resume is not None, quiet,
                        o["games"] * len(o["variant"] or ()) * several, run, write)
    for warning in result.report["warnings"]:  # even with --quiet: the run may not be the one meant
        typer.echo(f"warning: {warning}", err=True)
    if not quiet:
        if result.report.get("by_players"):
            typer.echo(f"{game} at {', '.join(map(str, result.report['players']))} players: every count's rows "
                       "corrected together")
        for report in result.report.get("by_players") or [result.report]:
            _print_comparison(report, out)
    if fail_if_different and result.any_different:
        raise typer.Exit(1)
    if fail_if_different and result.report.get("untested"):  # a question not answered is not a pass
        typer.echo("--fail-if-different: the question could not be tested for "
                   + "; ".join(f"{v} ({', '.join(ms)})" for v, ms in result.report["untested"].items()), err=True)
        raise typer.Exit(1)


def _print_comparison(report: dict, out: Path) -> None:
    """The verdict in a few lines; rows with ``significant`` None (descriptive, or every row
    in sequential mode) are never listed as differences. With --primary, a row outside the
    question says "(secondary)" after its variant."""
    # sequential: each variant stops at its decision, within the cap asked
    size = (f"up to {report.get('games_requested', report['games']):,} games per variant ({report['games']:,} "
            "played at most)" if report.get("sprt") else f"{report['games']:,} games per variant")
    common = ", ".join(f"{k}={v}" for k, v in report.get("common", {}).items())
    given = report.get("seat_sides")  # --side: each seat's, the same in every variant
    sides = (f", sides given ({', '.join(f'seat {i} {side}' for i, side in enumerate(given))})"
             if isinstance(given, list) else "")
    typer.echo(f"{report['game']}, {report['players']} players, {size}, baseline {report['baseline']!r}"
               f"{f' (every variant starting from {common})' if common else ''}{sides} -> {out}")
    from balance.analysis.compare_report import change_text, level, split_sides  # imported: the report is written
    from balance.analysis.document import p_phrase  # as the report writes p: "< 1e-6", not "0"

    significant = [r for r in report["results"] if r["significant"]]
    # the fairness tests, in words, seats first
    label = f"the {(report.get('sides') or {}).get('label')}"
    distances = {"seat_distance": ("the seats", "from fair", " pp"),
                 "side_distance": (label, "from their average", " pp"),
                 "side_relative_distance": (label, "from their average, relative to it,", "%")}
    groups = dict.fromkeys((r["variant"], r.get("family")) for r in significant)
    for variant, family in sorted(groups, key=lambda g: g[1] == "secondary"):  # stable: the variants' order kept
        rows = [r for r in significant if r["variant"] == variant and r.get("family") == family]
        variant += " (secondary)" if family == "secondary" else ""
        for r in sorted((r for r in rows if r["metric"] in distances), key=lambda r: r["metric"] != "seat_distance"):
            who, where, unit = distances[r["metric"]]
            typer.echo(f"  {variant}: {who} {'fairer' if r['difference'] < 0 else 'less fair'}: distance {where} "
                       f"{100 * r['baseline']:.2f}{unit} -> {100 * r['value']:.2f}{unit} ({level(report)} CI "
                       f"{100 * r['lo']:+.2f} to {100 * r['hi']:+.2f} pp, adjusted {p_phrase(r['p_adjusted'])})")
        named, counted = split_sides(report, rows)  # many moved sides: counted, as the report does
        for r in (r for r in named if r["metric"] not in distances):
            where = f" (seat {r['seat']})" if r.get("seat") is not None else ""
            together = "simultaneous " if r["metric"] == "seat_shift" else ""  # every seat's interval at once
            typer.echo(f"  {variant}: {r['metric']}{where} {change_text(report, r, together)}, "
                       f"adjusted {p_phrase(r['p_adjusted'])})")
        if counted:
            typer.echo(f"  {variant}: {counted} moved (report.md: the table names them)")
    sprt = report.get("sprt")
    if sprt:
        for v in sprt["variants"]:
            # the report's words: "continue" at the cap is a test still undecided
            decision = {"H1": "different (H1)", "H0": "no difference that matters (H0)",
                        "continue": "undecided at the cap"}[v["decision"]]
            typer.echo(f"  SPRT {v['variant']}: {decision} after {v['games']:,} games (llr {v['llr']:.2f})")
        typer.echo("  (sequential mode: the other rows are descriptive, taken where each test stopped)")
    else:  # each variant with nothing significant: what it could have found
        from balance.analysis.compare_report import by_margin, by_variant, sensitivity

        asked = report.get("primary")
        for variant, rows in by_variant(report).items():
            tested = [m for m in asked or () if m not in report.get("untested", {}).get(variant, ())]
            if asked and not tested:
                typer.echo(f"  {variant}: not tested: no row of the question (--primary {', '.join(asked)})")
            elif not any(r["significant"] and r.get("family") != "secondary" for r in rows):
                where = f" in the question (--primary {', '.join(tested)})" if asked else ""
                typer.echo(f"  {variant}: no significant difference{where}{sensitivity(report, rows)}")
            elif asked:  # the question found in part: the rest of it, as the report's "but not"
                unfound = [r for r in rows if r.get("family") == "primary" and r["significant"] is False]
                if unfound:  # what could have been found, said of those rows only (none for a fairness row)
                    named = ", ".join(dict.fromkeys(r["metric"] for r in unfound))
                    typer.echo(f"  {variant}: not found in the question: {named}{sensitivity(report, unfound)}")
            within = [r for r in rows if r.get("equivalent")]
            if within:  # --margin: shown too small to matter
                named = "; by less than ".join(f"{m}: {', '.join(labels)}"
                                               for m, labels in by_margin(report, within).items())
                typer.echo(f"  {variant}: changed by less than {named}".replace("±", "+-"))
            open_ = [r for r in rows if r.get("equivalent") is False]
            if open_:  # as the report says: "no significant difference" does not make them small
                named = "; ".join(f"{', '.join(labels)} ({m})" for m, labels in by_margin(report, open_).items())
                typer.echo(f"  {variant}: not shown within its margin: {named} (corrected over every row with a "
                           "margin: report.md gives each one's adjusted p)".replace("±", "+-"))


@app.command()
def tune(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    strategy: Annotated[Optional[str], typer.Option(
        "--strategy", "-s", help="Strategy to tune (a spec is the starting point, e.g. greedy:@runs/old). Default: "
        "the game's default strategy (`balance games` names it).")] = None,
    players: Annotated[Optional[int], typer.Option(parser=_one_count("tune"), metavar="<int>",
        help="Player count. Default: the game's default (its rules' players: `balance rules GAME`).")] = None,
    against: Annotated[Optional[str], typer.Option(
        help="The field in the other seats: 'self' (every seat plays the current best) or "
        "SPEC,SPEC,... (one for all other seats, or one per other seat). Default: self.")] = None,
    budget: Annotated[Optional[int], typer.Option(
        help="Games the search may play (validation not included). Default: 2000000.")] = None,
    seed: Annotated[Optional[int], typer.Option(parser=_whole_seed, metavar="<int>",
        help="Seed: the same seed gives the same tuned parameters. Default: 0.")] = None,
    population: Annotated[Optional[int], typer.Option(help="Candidates per generation.")] = None,
    games_per_candidate: Annotated[Optional[int], typer.Option(help="Games per candidate and generation.")] = None,
    validate_games: Annotated[Optional[int], typer.Option(
        help="Fresh games per validation matchup. Default: 200000.")] = None,
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Rules override KEY=VALUE.")] = None,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
            help="Threads. Default: every usable CPU (a CPU quota counts).")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Directory for tuned.toml, convergence.png, report.md. "
        "Default: under runs/, tune-GAME-TIMESTAMP.")] = None,
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted tuning there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted tuning in this directory (after Ctrl-C, a kill or a crash) from "
        "its last finished generation; options not given are taken from it, options given must match it.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Tune a strategy's parameters (cross-entropy method, common random numbers) to maximise
    its win share against a field, then validate on fresh seeds.

    Use the result as --strategy NAME:@DIR, NAME the strategy tuned (e.g. greedy:@DIR, DIR holding
    its tuned.toml). Each finished generation is kept: after Ctrl-C, a kill or a crash, --resume
    DIR continues the search and ends with the same parameters as an uninterrupted one.

    Example: balance tune avengers-cards --strategy greedy --players 4 --against self --budget 5000000
    """
    from balance.core.interrupts import interrupting
    from balance.analysis.matchups import split_pool
    from balance.analysis.tune import plan as tune_plan
    from balance.analysis.tune import tune as run_tune
    from balance.analysis.tune_checkpoint import saved_arguments
    from balance.core.variants import parse_overrides

    field = None if against is None else against if against == "self" else split_pool([against])
    try:
        overrides = parse_overrides(set_)
        if resume is not None:  # what was not given is the interrupted tuning's
            saved = saved_arguments(_resume_dir(resume, out))
            _same_game(resume, "tuning", saved["game"], game)
            out, overrides = resume, overrides or saved["overrides"]
            strategy = saved["strategy"] if strategy is None else strategy
            players = saved["players"] if players is None else players
            field = saved["against"] if field is None else field
            budget = saved["budget"] if budget is None else budget
            seed = saved["seed"] if seed is None else seed
            population = saved["population"] if population is None else population
            games_per_candidate = saved["games_per_candidate"] if games_per_candidate is None else games_per_candidate
            validate_games = saved["validate_games"] if validate_games is None else validate_games
        field = "self" if field is None else field
        budget, seed = 2_000_000 if budget is None else budget, 0 if seed is None else seed
        validate_games = 200_000 if validate_games is None else validate_games
        out = out or _default_out("tune", game, ctx)
        total = tune_plan(game, strategy, players, field, budget, population, games_per_candidate,
                          validate_games, overrides).total_games
        with interrupting(), _progress(quiet, total) as advance:
            result = run_tune(game, strategy, players, field, budget, seed, population,
                              games_per_candidate, validate_games, out, advance, overrides,
                              threads, force, resume is not None)
    except BalanceError as e:
        fail(str(e))
    except KeyboardInterrupt as e:
        stopped(e, f"the finished generations (and validation fields) are kept; continue with "
                   f"balance tune {game} --resume {out}", out)
    if not quiet:
        from balance.analysis.tune import validation_summary

        typer.echo(f"tuned {result.strategy.label} -> {out / 'tuned.toml'}")
        typer.echo(validation_summary(result) + f"; the table: {out / 'report.md'}")
        typer.echo(f"use it as --strategy {result.strategy.name}:@{out / 'tuned.toml'}")


@app.command()
def restrict(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    card: Annotated[Optional[list[str]], typer.Option(
        help="Card to deny one seat (repeatable), as the game names its cards (`balance games "
        "--tables` says how). Default: every card.")] = None,
    when: Annotated[str, typer.Option(
        help="The mode of restricted play, one the game declares (`balance games --tables` lists "
        "them with their meaning).")] = "always",
    players: Annotated[Optional[int], typer.Option(parser=_one_count("restrict"), metavar="<int>",
        help="Player count. Default: the game's default (its rules' players: `balance rules GAME`).")] = None,
    # a list, so that a second -s is refused rather than silently replacing the first
    strategy: Annotated[Optional[list[str]], typer.Option(
        "--strategy", "-s", help="Strategy of every seat (once: restricted play measures a card "
        "in one field). Default: the game's default strategy (`balance games` names it).")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", parser=_whole_games, metavar="<int>",
                                         help="Games per card.")] = 100_000,
    seed: Annotated[int, typer.Option(parser=_whole_seed, metavar="<int>",
            help="Seed shared by every card (common random numbers).")] = 0,
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Rules override KEY=VALUE.")] = None,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
            help="Threads. Default: every usable CPU (a CPU quota counts).")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Directory for restrict.md, restrict.html. Default: runs/restrict-GAME-TIMESTAMP.")] = None,
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted restricted-play study there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted restricted-play study in this directory (after Ctrl-C, a kill or a crash); "
        "options not given are taken from it, options given must match it.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Card strength by restricted play: how much a seat loses when it may not play a card.

    Example: balance restrict avengers-cards --when before-last --players 4 -s greedy
    """
    from balance.analysis.restrict import run_restrict, write_restrict
    from balance.core.variants import parse_overrides

    if strategy and len(strategy) > 1:
        fail(f"-s given {len(strategy)} times ({', '.join(strategy)}); restrict plays one strategy in "
             "every seat: give -s once")
    ctx.params["strategy"] = strategy[0] if strategy else None  # one spec, as a resumed study saved it
    o, out = _options(ctx, "restrict", game, ("card", "when", "players", "strategy", "n_games", "seed", "set_"),
                      resume, out)
    result = _run_study(
        "restrict", game, o, out, force, resume is not None, quiet, o["games"],
        lambda advance, study: run_restrict(game, o["players"], o["strategy"], o["card"], o["when"], o["games"],
                                            o["seed"], parse_overrides(o["set"]), on_progress=advance,
                                            threads=threads, play=study.simulate),
        lambda result, directory: write_restrict(result, directory,
                                                 f"{game}: card strength by restricted play"))
    if not quiet:
        from balance.analysis.document import diff_ci

        for r in result.table.iter_rows(named=True):
            typer.echo(f"  card {r['card']:>2}: {diff_ci(r['difference'], r['lo'], r['hi'])}, "
                       + (f"Holm p = {r['p_adjusted']:.2g}" if r["p_adjusted"] is not None
                          else "untested (paired in fewer than 2 games)"))
        if result.table.is_empty():
            typer.echo("  no game dealt a card it measures: nothing was measured")
        typer.echo(f"-> {out}")


@app.command()
def matchups(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    pool: Annotated[Optional[list[str]], typer.Option(
        help="Strategies, comma-separated (SPEC,SPEC,...; a spec's own k=v,k=v parameters are "
        "kept together) or repeated; at least two (unless --resume).")] = None,
    players: Annotated[Optional[int], typer.Option(parser=_one_count("matchups"), metavar="<int>",
        help="Player count. Default: the game's default (its rules' players: `balance rules GAME`).")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", parser=_whole_games, metavar="<int>",
                                         help="Games per ordered pair.")] = 50_000,
    seed: Annotated[int, typer.Option(parser=_whole_seed, metavar="<int>",
            help="Seed shared by every pair (common random numbers).")] = 0,
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Rules override KEY=VALUE.")] = None,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
            help="Threads. Default: every usable CPU (a CPU quota counts).")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Directory for matchups.md, matchups.html, matrix.parquet. "
        "Default: runs/matchups-GAME-TIMESTAMP.")] = None,
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted matchup study there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted matchup study in this directory (after Ctrl-C, a kill or a crash); "
        "options not given are taken from it, options given must match it.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Every strategy of a pool against a field of every other, seat-rotated: a win-share
    matrix with intervals, dominated strategies, and the meta-game's replicator dynamics.

    Example: balance matchups avengers-cards --pool greedy,threshold,lowest,random --players 4
    """
    from balance.analysis.matchups import run_matchups, split_pool, write_matchups
    from balance.core.variants import parse_overrides

    o, out = _options(ctx, "matchups", game, ("pool", "players", "n_games", "seed", "set_"), resume, out)
    specs, n_games = split_pool(o["pool"] or []), o["games"]
    result = _run_study(
        "matchups", game, o, out, force, resume is not None, quiet, n_games * len(specs) * (len(specs) - 1),
        lambda advance, study: run_matchups(game, specs, o["players"], n_games, o["seed"], parse_overrides(o["set"]),
                                            threads, advance, play=study.simulate),
        lambda result, directory: write_matchups(result, directory,
                                                 f"{game}: strategy matchups, {result.players} players"))
    if not quiet:
        typer.echo(f"{result.players} players, {n_games:,} games per pair -> {out}")
        for r in result.meta.sort("population_share", descending=True).iter_rows(named=True):
            dominated = result.dominated.filter(result.dominated["strategy"] == r["strategy"])["dominated_by"][0]
            typer.echo(f"  {r['strategy']:<28} meta-game share {r['population_share']:6.1%}"
                       + (f"  (dominated by {dominated})" if dominated else ""))


@app.command()
def ladder(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    ladder_specs: Annotated[Optional[list[str]], typer.Option(
        "--ladder", help="Strategies from weakest to strongest, comma-separated or repeated, e.g. "
        "random,threshold,greedy, then a tuned one as greedy:@DIR (DIR written by balance tune); at least "
        "two (unless --resume).")] = None,
    players: Annotated[Optional[str], typer.Option(
        help="Player counts, e.g. 3,4,5. Default: the game's default count.")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", parser=_whole_games, metavar="<int>",
                                         help="Games per run.")] = 100_000,
    seed: Annotated[int, typer.Option(parser=_whole_seed, metavar="<int>", help="Seed shared by every run.")] = 0,
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Rules override KEY=VALUE.")] = None,
    threads: Annotated[Optional[int], typer.Option(parser=_whole_threads, metavar="<int>",
            help="Threads. Default: every usable CPU (a CPU quota counts).")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Directory for ladder.md, ladder.html. Default: runs/ladder-GAME-TIMESTAMP.")] = None,
    force: Annotated[bool, _flag(
        help="Replace --out if it holds an earlier output of balance (never other files), and "
        "discard an interrupted ladder there.")] = False,
    resume: Annotated[Optional[Path], typer.Option(
        help="Continue the interrupted ladder in this directory (after Ctrl-C, a kill or a crash); "
        "options not given are taken from it, options given must match it.")] = None,
    quiet: Annotated[bool, _flag("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Balance numbers side by side for a ladder of strategies of rising skill, and how often
    skill beats luck: is an imbalance real, or an artefact of naive play?

    Example: balance ladder avengers-cards --ladder random,lowest,threshold,greedy --players 3,4,5

    Each rung plays --games at every count with the strategy in every seat, and in a game with
    restricted play also measures the card that matters most: every game is played again once
    per card (balance cards GAME lists them; dozens of replays a game), which takes most of the
    time. The order given is what "weakest" and "strongest" mean; Skill vs luck measures how
    each strategy fares against the first.
    """
    from balance.analysis.ladder import run_ladder, write_ladder
    from balance.analysis.matchups import split_pool
    from balance.core.variants import parse_overrides

    o, out = _options(ctx, "ladder", game, ("ladder_specs", "players", "n_games", "seed", "set_"), resume, out)
    counts = _parse_players(o["players"]) if o["players"] is not None else [_default_players(game)]
    specs = split_pool(o["ladder"] or [])
    _run_study(
        "ladder", game, o, out, force, resume is not None, quiet, o["games"] * len(counts) * (2 * len(specs) - 1),
        lambda advance, study: run_ladder(game, specs, counts, o["games"], o["seed"], parse_overrides(o["set"]),
                                          threads, advance, play=study.simulate),
        lambda result, directory: write_ladder(result, directory, f"{game}: balance by skill"))
    if not quiet:  # both files, as report and compare say
        typer.echo(f"wrote {out / 'ladder.html'} and {out / 'ladder.md'}")


# The ranges `plan` answers in. Past them the games needed pass any run (0.001 pp takes about
# 10^11 games), and the normal and binomial tails at alpha / (family x sides) run out of double
# precision: the answer would be a traceback or a number that means nothing.
PLAN_LIMITS = {"effect": (1e-5, None), "alpha": (1e-10, None), "paired-sd": (None, 1_000_000),
               "sides": (None, 10_000), "family": (None, 100)}


def _check_plan_limits(**given) -> None:
    """One line naming the option, its value and its range, for a value past PLAN_LIMITS (or NaN)."""
    for name, value in given.items():
        option = name.replace("_", "-")
        low, high = PLAN_LIMITS[option]
        if value is None:
            continue
        if value != value:  # NaN fails every comparison: 'out of range' hid what it is
            fail(f"--{option} nan is not a number")
        if (low is not None and not value >= low) or (high is not None and not value <= high):
            allowed = f">= {low:g}" if high is None else f"<= {high:,}"
            fail(f"--{option} {value!r} is out of range for planning; allowed: {allowed}")


def _plan_counts(players: str, family: Optional[int]) -> tuple[list[int], int]:
    """The player counts of a planned run and its Holm family (default: how many counts)."""
    from balance.core.errors import check_int

    counts = _parse_players(players)
    if not counts:
        fail(f"--players {players!r} names no player count; allowed: a count 2..10 or a comma "
             "list like 3,4,5")
    for count in counts:
        check_int("players", count, 2, 10)
    repeated = sorted({c for c in counts if counts.count(c) > 1})
    if repeated:
        fail(f"--players {players!r} repeats {', '.join(map(str, repeated))}; allowed: distinct "
             "player counts")
    if family is None:
        return counts, len(counts)
    if family < len(counts):
        # the verdicts of every count in the run are adjusted together: a smaller family
        # would plan for a laxer test than the report applies
        fail(f"--family {family} is below the number of player counts given ({len(counts)}); "
             f"allowed: an integer >= {len(counts)}")
    return counts, family


@app.command()
def plan(
    ctx: typer.Context,
    effect: Annotated[float, typer.Option(
        help="Smallest effect to detect, as a rate (0.01 = 1 pp): a seat's gap from the fair "
        "rate 1/players, and a difference in a seat's win rate between variants.")] = 0.01,
    players: Annotated[str, typer.Option(
        help="Player count, or a comma list (3,4,5) for a run that plays each: their seat "
        "verdicts are Holm-adjusted together.")] = "4",
    family: Annotated[Optional[int], typer.Option(
        help="How many player counts the run will test together (the Holm family). Default: "
        "the number of --players; e.g. --players 4 --family 3 plans 4 players of a 3,4,5 "
        "run.")] = None,
    power: Annotated[float, typer.Option(help="Chance to detect the effect when it is real.")] = 0.9,
    alpha: Annotated[float, typer.Option(help="False-alarm rate (two-sided).")] = 0.05,
    paired_sd: Annotated[Optional[float], typer.Option(
        help="SD of per-game paired differences from a pilot `balance compare` (for CRN designs; "
        "--pilot DIR reads each row's from the pilot itself).")] = None,
    sides: Annotated[Optional[int], typer.Option(
        help="Also size the report's side verdict: how many sides one of its side tables tests "
        "(the sides a seat can play as; docs/POWER.md works an example).")] = None,
    per_seat: Annotated[int, typer.Option(
        help="With --sides: how many of them each seat holds in a game (a seat playing two of the "
        "table's sides at once holds 2).")] = 1,
    pilot: Annotated[Optional[Path], typer.Option(
        help="Plan the same `balance compare` from a pilot run of it (its --out directory): the "
        "games each tested row needs, with the pilot's own noise. Takes --effect, --power, "
        "--alpha, --primary and --margin only.")] = None,
    primary: Annotated[Optional[list[str]], typer.Option(
        help="With --pilot: plan the comparison whose question (`balance compare --primary`) is this "
        "metric, repeatable: only its rows, at alpha / (their number). Default: the pilot's own question, "
        "else every tested row.")] = None,
    margin: Annotated[Optional[list[str]], typer.Option(
        help="With --pilot: also the games to show each row of the question within this margin (as "
        "`balance compare --margin`: a number for the rate rows, METRIC=M for one metric in its unit) if "
        "the true change is the one the pilot saw. Repeatable.")] = None,
) -> None:
    """How many games a run needs to detect a given seat edge or variant difference.

    The answer has three parts (four with --sides), each with one line per
    player count:

    a seat edge: games per player count for the seat verdict of
    `balance report` ("seats differ") to catch, with this power, a seat
    whose win rate is --effect away from the fair 1/players. The verdict
    is a chi-square test over the seats of each player count, Holm-adjusted
    across the run's player counts, so the games are sized for that test
    at level alpha / family, with the seats least favourable to it (one
    seat off by --effect, the others sharing the difference). The report's
    "this run detects edges of X pp or more with 90% power" is the same
    sizing. A run simulates every count with one --games: the largest.

    a variant difference, independent runs: games per variant for a
    two-sample test of one seat's win rate when each variant plays its
    own chance draws (shuffles, dice).

    common random numbers: the same for `balance compare`, which plays
    every variant on the same chance draws and pairs the games; give
    --paired-sd, the SD of the per-game differences from a pilot
    comparison (often many times fewer games).

    a side edge (with --sides): games per player count for the side verdict
    of a game whose seats play sides drawn at random, to catch one side
    whose seats win --effect more or less than the average seat: an exact
    binomial test per side, Holm over every side and player count, so sized
    at alpha / (sides x family).

    from a pilot (with --pilot DIR, instead of the lines above): for each
    tested row of a small `balance compare`, the games per variant the same
    comparison needs to find --effect (rate rows) and to find the difference
    the pilot saw, with the per-game noise the pilot measured (common random
    numbers included), at Holm's first level alpha / (the pilot's tested rows);
    with --primary (default: the pilot's own), only the question's rows, at
    alpha / (their number), the family they will be corrected in; with
    --margin, also the games to show each row unchanged within the margin
    (two one-sided tests, as `balance compare --margin`).

    More in docs/POWER.md.

    Example: balance plan --effect 0.005 --players 3,4,5
    """
    from balance.analysis import stats

    _check_plan_limits(effect=effect, alpha=alpha, paired_sd=paired_sd, sides=sides, family=family)
    if pilot is not None:
        _plan_from_pilot(ctx, pilot, effect, power, alpha, primary or None, margin or None)
        return
    if margin:
        fail(f"--margin {_words(margin)} plans a comparison's equivalence tests from a pilot of it; give --pilot "
             "DIR too")
    if primary:
        fail(f"--primary {primary[0]} plans a comparison's question from a pilot of it; give --pilot DIR too")
    if sides is None and per_seat != 1:
        fail(f"--per-seat {per_seat} says how many of the --sides a seat holds; give --sides too")
    if sides is not None and sides < 2:
        fail(f"--sides {sides} is out of range; allowed: integer >= 2")
    if sides is not None and not 1 <= per_seat < sides:
        fail(f"--per-seat {per_seat} is out of range; allowed: integer 1..{sides - 1}")

    try:
        counts, family = _plan_counts(players, family)
        for count in counts:
            if not 0 < effect < 1 - 1 / count:
                fail(f"--effect {effect!r} is out of range for {count} players; allowed: "
                     f"0 < effect < {1 - 1 / count:.6g}")
        seat = [stats.games_for_seat_edge(effect, count, family, power, alpha) for count in counts]
        independent = [stats.games_for_difference(effect, 1 / count, power, alpha) for count in counts]
        paired = ([stats.games_for_difference(effect, 1 / count, power, alpha, paired_sd)
                   for count in counts] if paired_sd is not None else None)
        side = ([stats.games_for_side_edge(effect, count, sides, per_seat, family, power, alpha)
                 for count in counts] if sides is not None else None)
    except BalanceError as e:
        fail(str(e))
    fair = [f"{count} players (fair {1 / count:.2%})" for count in counts]
    level = f"level {alpha:g}" if family == 1 else (
        f"Holm-adjusted across {family} player counts: level {alpha:g}/{family}")
    typer.echo(f"To detect {effect * 100:.3g} pp with power {power:.0%} at alpha {alpha:g}:")
    typer.echo(f"  a seat edge (one seat's win rate {effect * 100:.3g} pp from fair), by the "
               "report's seat verdict")
    typer.echo(f"  (chi-square over the seats, {level}):")
    for label, games in zip(fair, seat):
        typer.echo(f"    {label}: {games:,} games")
    if len(counts) > 1:
        typer.echo(f"    one run of --players {','.join(map(str, counts))} --games {max(seat)} "
                   "covers them all")
    if side:
        held = f"each seat holding {per_seat}" if per_seat > 1 else "one held by each seat"
        typer.echo(f"  a side edge (one of {sides} sides, {held}: its seats' win rate {effect * 100:.3g} pp "
                   "from the average seat's),")
        typer.echo(f"  by the report's side verdict (exact binomial test per side, Holm over {sides} sides x "
                   f"{family} player count{'s' if family > 1 else ''}: level {alpha:g}/{sides * family}):")
        for label, (games, seat_games) in zip(fair, side):
            typer.echo(f"    {label}: {games:,} games (about {seat_games:,} seat-games per side)")
        crowded = [count for count in counts if count * per_seat > sides]
        if crowded:  # the sizing holds only where a game may deal a side to two seats at once
            from balance.analysis.document import and_list

            typer.echo(f"    note: at {and_list(crowded)} players the seats hold {'up to ' if len(crowded) > 1 else ''}"
                       f"{max(crowded) * per_seat} sides a game, more than the {sides} there are, so some side sits "
                       "in two seats of one game; a game that deals each side to one seat only cannot be played so")
    typer.echo("  a variant difference in a seat's win rate, independent runs:")
    for label, games in zip(fair, independent):
        typer.echo(f"    {label}: {games:,} games per variant")
    if paired:
        typer.echo(f"  the same with common random numbers (paired sd {paired_sd}):")
        for label, games in zip(fair, paired):
            typer.echo(f"    {label}: {games:,} games per variant")
    else:
        # how many fewer is the variants' own: a walkthrough's variants cut the variance only 1.0 to 1.2 times,
        # so "far fewer" promised what a pilot may not find
        typer.echo("  with common random numbers (balance compare) fewer, as far as the variants' games stay "
                   "alike: run a small comparison (--out DIR) and plan from it with --pilot DIR, which reads each "
                   "row's paired sd")


def _plan_from_pilot(ctx: typer.Context, pilot: Path, effect: float, power: float, alpha: float,
                     primary: Optional[list[str]], margin: Optional[list[str]] = None) -> None:
    """`balance plan --pilot`: one line per tested row of the pilot comparison."""
    from balance.analysis.pilot import load_pilot, plan_counts, plan_from_pilot

    other = [f"--{name.replace('_', '-')}" for name in ("players", "family", "paired_sd", "sides", "per_seat")
             if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") == "COMMANDLINE"]
    if other:
        fail(f"--pilot plans the pilot's own comparison (its players, variants and rows); "
             f"{', '.join(other)} cannot be given with it")
    if not 0 < effect < 1:
        fail(f"--effect {effect!r} is out of range; allowed: 0 < effect < 1 (a rate: 0.01 = 1 pp)")
    try:
        report = load_pilot(pilot)
        rate_margin, margins = _margins(margin)
        several = "by_players" in report  # a comparison at several player counts
        planned = (plan_counts if several else plan_from_pilot)(report, effect, power, alpha, primary, rate_margin,
                                                                margins)
    except BalanceError as e:
        fail(str(e))
    if several:
        counts = [r["players"] for r in report["by_players"]]
        typer.echo(f"A comparison at {', '.join(map(str, counts))} players corrects every count's rows together: "
                   f"each count is planned at\nthat family's level ({planned['family']} rows), and one --games "
                   "serves every count: give the largest any row you need asks.")
    plans = list(zip(report["by_players"], planned["by_players"])) if several else [(report, planned)]
    for part, plan in plans:
        _print_plan(pilot, part, plan, effect, power)
    # one --games for the run: the comparison plays every row on the same games, so the row that
    # needs most decides (several counts: one --games serves them all)
    # (each row's own power; a row the pilot gave no figure is left out, and the margin line says so)
    for column, what in (("for_own", "find each difference the pilot saw"),
                         ("for_effect", f"find a change of {effect * 100:.3g} pp in each rate"),
                         ("for_margin", "show each row with a margin within it")):
        needs = [(r[column], r, part["players"]) for part, plan in plans for r in plan["rows"]
                 if r.get(column) is not None]
        if column == "for_own":
            # a row whose pilot interval holds 0 may have no difference at all: the games to find
            # "it" are noise's figure (a walkthrough's headline came from a +0.06 pp row, 5.6 million)
            seen = [x for x in needs if x[1]["lo"] > 0 or x[1]["hi"] < 0]
            if not seen and needs:
                typer.echo("no row's pilot interval leaves out 0 (each difference may be none): plan by --effect "
                           "or --margin")
            elif len(seen) < len(needs):
                typer.echo(f"{len(needs) - len(seen)} of {len(needs)} rows' pilot intervals hold 0 (their difference "
                           "may be none):\nleft out of the next line; plan them by --effect or --margin")
            needs = seen
        if needs:
            n, row, count = max(needs, key=lambda x: x[0])
            at = f" at {count} players" if several else ""
            beyond = sum(r.get("margin") is not None and r[column] is None for _, plan in plans for r in plan["rows"])
            beyond = (f"; {beyond} more cannot be: the pilot's change reaches their margin"
                      if column == "for_margin" and beyond else "")
            typer.echo(f"one --games to {what} with power {power:.0%}: {n:,} ({row['variant']} "
                       f"{row['metric']}{at} needs most){beyond}")
    typer.echo(f"for {effect * 100:.3g} pp: a change of --effect in a rate. for its own: the difference the "
               "pilot saw,\nitself uncertain (the fairness rows on the squared distance they test). -: not a "
               "rate, or\nthe pilot saw no difference or no variation to scale. seat_shift is planned through "
               "its seats'\nrows. More in docs/POWER.md.")


def _print_plan(pilot: Path, report: dict, planned: dict, effect: float, power: float) -> None:
    """The table of ``plan_from_pilot``'s plan of the pilot comparison ``report`` (one count;
    its family may span several counts: ``plan_counts``)."""
    from balance.analysis.document import ci, counted, pp

    def shown(r):  # a rate's (or distance's) difference in pp, anything else as a value
        if r["unit"] in ("rate", "pp"):
            return f"{pp(r['difference'], signed=True)[:-3]} ({ci(r['lo'], r['hi'], ' pp')})"
        return f"{r['difference']:+.4g} ({r['lo']:+.4g} to {r['hi']:+.4g})"

    def games(n):
        return f"{n:,}" if n is not None else "-"

    within = planned["margin_level"] is not None

    def margin_cell(r):
        if r["margin"] is None:
            return "-"
        size = f"{100 * r['margin']:.3g} pp" if r["unit"] == "rate" else f"{r['margin']:g}"
        return f"{games(r['for_margin'])} (+-{size})"

    rows = [(r["variant"], r["metric"], shown(r), games(r["for_effect"]), games(r["for_own"]),
             *([margin_cell(r)] if within else [])) for r in planned["rows"]]
    head = ("variant", "metric", f"pilot difference ({report['confidence']:.0%} CI)",
            f"for {effect * 100:.3g} pp", "for its own", *(["within the margin"] if within else []))
    widths = [max(len(str(x)) for x in column) for column in zip(head, *rows)]
    asked = planned["primary"]
    rows_planned = (f"the {counted(planned['own_family'], 'row')} of the question --primary {', '.join(asked)}"
                    if asked else f"{planned['own_family']} tested rows")
    typer.echo(f"From the pilot {pilot} ({report['game']}, {report['players']} players, "
               f"{report['games']:,} games per variant, {rows_planned}):")
    typer.echo(f"games per variant for the same comparison to find each difference with power "
               f"{power:.0%},\nat Holm's first level {planned['alpha']:g}/{planned['family']}:")
    for row in (head, *rows):
        typer.echo("  " + "  ".join(str(x).ljust(w) if i < 3 else str(x).rjust(w)
                                    for i, (x, w) in enumerate(zip(row, widths))).rstrip())
    if planned["seat_level"] is not None:
        typer.echo(f"seat_shift: any seat moving decides it, so each seat at Sidak's 1 - (1 - "
                   f"{planned['level']:.4g})^(1/{report['players']}) = {planned['seat_level']:.4g}.")
    if within:
        typer.echo(f"within the margin: two one-sided tests showing the change smaller than the margin, "
                   f"if the true change\nis the pilot's, at {planned['alpha']:g}/"
                   f"{round(planned['alpha'] / planned['margin_level'])} (the rows with a margin); -: the "
                   "pilot's change reaches\nthe margin, or its games never differed.")
    if planned["untested"]:
        typer.echo(f"not planned: {', '.join(planned['untested'])}, which the pilot could not test (a cooperative "
                   "game's sides go untested when a team wins too few games: a larger pilot).")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
