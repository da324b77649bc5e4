"""Analyses that play for minutes or hours (ladder, matchups, restrict, compare) keep their
finished work when cut (Ctrl-C, SIGTERM, a kill, a crash) and resume with ``--resume DIR``.

As ``balance simulate`` does (``balance.core.checkpoint``), such a command works in
``.NAME.partial/`` next to ``--out``: ``request.json`` holds the command and its options;
``runs/K/`` the K-th simulation the analysis asked for, in the order it asked. That order is
a function of the options alone, so a resumed analysis asks for the same runs: a finished one
is read back from its directory instead of played, a cut one resumes at its last checkpoint,
the rest are played. A command with state of its own (compare's paired sums) keeps it as JSON
(``save_json``). Either way a resumed analysis ends with the numbers an uninterrupted one
would, and its outputs are swapped into ``NAME`` in one step when it is done.
"""
from __future__ import annotations

from pathlib import Path

from balance.core.checkpoint import KEY_WORDS, Checkpointer, interrupted, partial_dir, read_request
from balance.core.errors import BalanceError, as_path


STATE = "state.json"  # a command's own state, if it keeps any (compare's sums)
API = "python_api"  # the request key of a study started from the Python API: its arguments


class StudyCheckpointer(Checkpointer):
    """``.NAME.partial`` of one analysis command; its subclasses name the command."""

    state_files = (STATE,)
    state_dirs = ("runs",)
    # its keys are its options' own names, and the game's rules version: the runs it finished
    # are read back as they are, so an upgrade that changed the games must not continue it
    key_words = {"rules_version": KEY_WORDS["rules_version"]}

    def __init__(self, out: Path, game: str, options: dict):
        """options: the command's options as resolved (JSON values); all must match to resume."""
        super().__init__(out, {"command": self.command, "game": game, "rules_version": _rules_version(game),
                               **options})
        self.keys = ("command", "game", "rules_version", *options)
        self.asked = 0  # simulations asked for so far

    def discard_if_empty(self) -> None:
        """Remove ``.NAME.partial`` if it keeps no work (the analysis refused its input)."""
        import shutil

        runs = self.dir / "runs"
        if not (runs.is_dir() and any(runs.iterdir())) and not any(
                (self.dir / name).exists() for name in self.state_files):
            shutil.rmtree(self.dir, ignore_errors=True)

    def simulate(self, game: str, on_progress=None, **kwargs):
        """``balance.core.api.simulate`` for the analysis's next run, kept under ``runs/``: read
        back if it finished before the cut, resumed if it was cut, else played (and kept)."""
        from balance.core.api import simulate

        run_dir = self.dir / "runs" / f"{self.asked:04d}"
        self.asked += 1
        # a progress line's rate counts from each run's play (its start(): the CLI's plain progress): counted
        # from the analysis's start, a ladder's first compiling read 62 games/s and 1:20:12 left for a 58 s run
        started = getattr(on_progress, "start", None)
        if (run_dir / "manifest.json").is_file():
            result = load_result(run_dir)
            if on_progress is not None:
                on_progress(sum(s["games"] for run in result.manifest["runs"] for s in run["seatings"]))
                if started is not None:  # games told at once, none played: left out of the rate
                    started()
            return result
        cut = (partial_dir(run_dir) / "request.json").is_file()  # else never started: start it
        return simulate(game, out=run_dir, resume=cut, force=not cut, on_progress=on_progress, on_start=started,
                        **kwargs)


def _rules_version(game: str) -> str | None:
    """The game's RULES_VERSION; None for a game id the command will refuse itself."""
    from balance.core.registry import get_game

    try:
        return get_game(game).rules_version
    except BalanceError:
        return None


def load_result(run_dir: str | Path):
    """The RunResult of a finished run directory (its manifest and tables, checked): what
    ``balance.load(DIR)`` gives for a run written by ``simulate(..., out=DIR)`` or ``balance
    simulate --out DIR``; BalanceError for a directory that holds none."""
    from balance.analysis.report import load_run
    from balance.core.api import RunResult, table_specs
    from balance.core.registry import get_game

    run_dir = as_path("run_dir", run_dir)
    if run_dir is None:
        raise BalanceError("load(None): give the run directory, e.g. balance.load('runs/x')")
    manifest, tables = load_run(run_dir)
    return RunResult(manifest, tables, out=run_dir, declared=tuple(table_specs(get_game(manifest["game"]))))


def _kind(command: str, noun: str, finished: str) -> type[StudyCheckpointer]:
    return type(f"{command.title()}Checkpointer", (StudyCheckpointer,),
                {"command": command, "noun": noun, "finished": finished})


# One per command: what it is called in messages, and the file its finished output holds.
KINDS = {kind.command: kind for kind in (
    _kind("ladder", "ladder", "ladder.md"),
    _kind("matchups", "matchup study", "matchups.md"),
    _kind("restrict", "restricted-play study", "restrict.md"),
    _kind("compare", "comparison", "comparison.json"),
)}


def kinds() -> dict[str, type[Checkpointer]]:
    """Every command that writes an output directory (simulate, tune and the analyses): its
    checkpointer, which names it and the file its finished output holds."""
    from balance.analysis.tune_checkpoint import TuneCheckpointer

    return {kind.command: kind for kind in (Checkpointer, TuneCheckpointer, *KINDS.values())}


def held_instead(path: Path, wanted: str, allowed: str) -> str | None:
    """Why ``path``, given as the output of ``balance {wanted}``, is not one, in words: it holds
    that command's output cut before it finished (how to finish it), or another command's output,
    finished or cut (what it is, then ``allowed``: what to give); None when it holds none of
    these (the caller says what is missing)."""
    path = Path(path)
    if path.name.startswith(".") and path.name.endswith(".partial") and (path / "request.json").is_file():
        path = path.parent / path.name[1:-len(".partial")]  # the hidden work directory itself: its output's
    by_command = kinds()
    command, game = interrupted(path) or (None, None)
    if command in by_command:
        finish = f"continue it with balance {command} {game} --resume {path}"
        if command == wanted:
            return f"the {by_command[command].noun} {str(path)!r} was interrupted before it finished; {finish}"
        return (f"{str(path)!r} holds a {by_command[command].noun} (`balance {command}`) interrupted before it "
                f"finished, not a {by_command[wanted].noun} ({finish}); allowed: {allowed}")
    held = [kind for kind in by_command.values() if kind.command != wanted and (path / kind.finished).is_file()]
    if not held:
        return None
    kind = held[0]
    report = path / (kind.finished if kind.finished.endswith(".md") else "report.md")
    what = (f"its report {str(report)!r}" if report.name == kind.finished else
            f"its {kind.finished}" + (f" and report {str(report)!r}" if report.is_file() else ""))
    return (f"{str(path)!r} holds a {kind.noun} (`balance {kind.command}`, {what}), not a "
            f"{by_command[wanted].noun}; allowed: {allowed}")


def saved_options(command: str, out: Path) -> tuple[str, dict]:
    """(game, options) of the interrupted ``balance COMMAND`` in ``out``, for ``--resume``."""
    request = read_request(Path(out), KINDS[command])
    if API in request:
        raise BalanceError(f"{str(out)!r} holds a {command} started from the Python API; continue it there "
                           f"with the same arguments and out={str(out)!r}, resume=True")
    try:
        return request["game"], {k: v for k, v in request.items() if k not in ("command", "game", "rules_version")}
    except (KeyError, TypeError, AttributeError) as e:
        raise BalanceError(f"the interrupted {command} in {str(out)!r} is unreadable ({e}); start "
                           "again with --force") from None
