"""The ``balance`` command: thin wrappers over ``balance.api``.

Heavy imports (numba kernels, polars) happen inside commands so ``balance --help`` is instant.
Bad input -> one line on stderr and exit code 2; no traceback, no half-written output.
"""
from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional

import typer

from balance import __version__
from balance.errors import BalanceError

app = typer.Typer(
    name="balance",
    help="Statistical balance analysis for tabletop games: simulate millions of games with "
    "parameterised strategies and measure win rates by seat, player count and card.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_BAD_INPUT = 2


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"balance {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """Statistical balance analysis for tabletop games."""


@app.command()
def games() -> None:
    """List the games balance can simulate."""
    from balance.registry import GAMES, get_game

    for game_id in GAMES:
        typer.echo(f"{game_id:<18} {get_game(game_id).title}")


@app.command()
def strategies(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
) -> None:
    """List a game's strategies with their parameters (default, bounds, meaning).

    Use them as `--strategy NAME` or `--strategy NAME:PARAM=VALUE,PARAM=VALUE`.
    """
    from balance.registry import get_game

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


def _parse_players(text: Optional[str]) -> Optional[list[int]]:
    if text is None:
        return None
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        fail(f"--players {text!r} is not a number or a comma list like 3,4,5")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    players: Annotated[Optional[str], typer.Option(
        help="Player count, or a comma list (3,4,5) to run each count. Default: 4.")] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Games per player count.")] = 100_000,
    seed: Annotated[int, typer.Option(help="Run seed: the same seed gives the same numbers.")] = 0,
    strategy: Annotated[Optional[list[str]], typer.Option(
        "--strategy", "-s",
        help="NAME or NAME:PARAM=VALUE,... Once for every seat, or once per seat in seat order. "
        "See `balance strategies GAME`. Default: random.")] = None,
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", help="Rules override KEY=VALUE, e.g. --set set_bonus=2 --set ties_cancel=false. "
        "Repeatable; wins over --variant.")] = None,
    variant: Annotated[Optional[Path], typer.Option(
        help="TOML file of rules overrides (flat keys, e.g. loss_rule = \"one\").")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="Run directory to write. Default: runs/GAME-TIMESTAMP.")] = None,
    rotate: Annotated[bool, typer.Option(
        "--rotate", help="Cycle the --strategy list over the seats and rotate it over equal blocks "
        "of games, so every strategy plays every seat equally often (any number of strategies).")] = False,
    keep_games: Annotated[bool, typer.Option(
        "--keep-games", help="Also write games.parquet: one row per game and seat.")] = False,
    force: Annotated[bool, typer.Option(help="Replace --out if it exists and is not empty.")] = False,
    chunk_size: Annotated[Optional[int], typer.Option(
        help="Games per chunk (memory vs overhead); results do not depend on it.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON at the end.")] = False,
) -> None:
    """Simulate games and write a run directory.

    Writes manifest.json, seats.parquet, scores.parquet, cards.parquet, villains.parquet
    (and games.parquet with --keep-games) into --out, atomically.

    Example: balance simulate avengers-cards --players 3,4,5 --games 100000 -s greedy
    """
    from balance.api import simulate as run_simulation

    counts = _parse_players(players)
    if out is None:
        out = Path("runs") / f"{game}-{datetime.now():%Y%m%d-%H%M%S}"
    try:
        from balance.variants import parse_overrides

        overrides = parse_overrides(set_)
        with _progress(quiet or as_json, n_games * (len(counts) if counts else 1)) as advance:
            result = run_simulation(
                game, players=counts, games=n_games, seed=seed,
                strategies=strategy or ["random"], overrides=overrides, variant=variant,
                out=out, keep_games=keep_games, force=force, chunk_size=chunk_size,
                on_progress=advance, rotate=rotate,
            )
    except BalanceError as e:
        fail(str(e))
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing was written", err=True)
        raise typer.Exit(130)
    if as_json:
        typer.echo(json.dumps({**result.manifest, "out": str(result.out)}, indent=2))
    elif not quiet:
        _print_summary(result)


def _progress(silent: bool, total: int):
    """A context giving ``advance(n)``: a rich progress bar on a terminal, else nothing."""
    from contextlib import contextmanager

    @contextmanager
    def bar():
        if silent or not sys.stderr.isatty():
            yield None
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games"), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("games", total=total)
            yield lambda n: progress.advance(task, n)

    return bar()


def _print_summary(result) -> None:
    m = result.manifest
    typer.echo(f"{m['game']}: {m['games']:,} games per player count, seed {m['seed']}, "
               f"{m['timing']['games_per_second']:,} games/s -> {result.out}")
    typer.echo(f"{'players':>7} {'seat':>4}  {'strategy':<24} {'win rate':>9} {'mean score':>10}")
    for row in result.seats.iter_rows(named=True):
        rate = row["win_share"] / row["games"]
        mean = row["score_sum"] / row["games"]
        typer.echo(f"{row['players']:>7} {row['seat']:>4}  {row['strategy']:<24} "
                   f"{rate:>8.2%} {mean:>10.2f}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
