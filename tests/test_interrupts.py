"""Ctrl-C and SIGTERM during a run: immediate outside deferred blocks, postponed inside them."""
import json
import os
import signal

import pytest

from balance.core.interrupts import deferred, interrupting
from balance.core.checkpoint import partial_dir


@pytest.fixture(autouse=True)
def usual_signal_dispositions():
    """Every test here starts as in an interactive shell: SIGINT raises KeyboardInterrupt and
    neither signal is blocked. A shell's background job (`make test &`) inherits SIGINT as
    ignored, and interrupting() rightly leaves an ignored SIGINT alone, so without this the
    SIGINT cases would test the background job's dispositions, not ours."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT, signal.SIGTERM])
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, previous)


def send(sig):
    os.kill(os.getpid(), sig)
    for _ in range(1000):  # the handler runs at the next bytecode boundaries
        pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_raises_keyboard_interrupt_at_once_outside_deferred_blocks(sig):
    reached = False
    with pytest.raises(KeyboardInterrupt), interrupting():
        send(sig)
        reached = True
    assert not reached


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_inside_a_deferred_block_is_raised_when_the_block_ends(sig):
    steps = []
    with pytest.raises(KeyboardInterrupt), interrupting():
        with deferred():
            send(sig)
            steps.append("rest of the block")  # not cut short
            with deferred():  # nested: raised only at the outermost end
                steps.append("inner")
            steps.append("after inner")
        steps.append("after the block")
    assert steps == ["rest of the block", "inner", "after inner"]


def test_handlers_and_blocked_signals_are_restored():
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
    try:
        with interrupting():
            assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
            assert signal.getsignal(signal.SIGTERM) is not before[0]
        assert signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)


def test_an_ignored_sigint_stays_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupting():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_sigterm_during_an_analysis_exits_143_and_leaves_its_output_unwritten(tmp_path):
    """The CLI's analysis commands (compare, restrict, matchups, ladder) share _run_study: a
    signal while playing or while writing the outputs leaves --out absent and the work in
    .out.partial (what --resume continues from). The exit status is the shell's for SIGTERM,
    143 (128 + 15; Ctrl-C's is 130)."""
    import typer

    from balance import cli

    def run(advance, study):
        send(signal.SIGTERM)
        raise AssertionError("SIGTERM did not stop the run")

    def write_then_get_killed(result, directory):
        (directory / "half.md").write_text("half")
        send(signal.SIGTERM)
        raise AssertionError("SIGTERM did not stop the writing")

    def unhandled(signum, frame):  # what the test meets if _run_study takes no signals
        raise RuntimeError("SIGTERM reached the default handler")

    previous = signal.signal(signal.SIGTERM, unhandled)
    try:
        for kwargs in ({"run": run, "write": None},
                       {"run": lambda advance, study: 1, "write": write_then_get_killed}):
            with pytest.raises(typer.Exit) as stopped:
                cli._run_study("ladder", "avengers-cards", {}, tmp_path / "out", True, False, True, 1, **kwargs)
            assert stopped.value.exit_code == 143
            assert [p.name for p in tmp_path.iterdir()] == [".out.partial"]
            assert (tmp_path / ".out.partial" / "request.json").is_file()
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_report_cut_while_drawing_leaves_the_previous_one_whole(tmp_path, monkeypatch):
    """`balance report` writes beside the run's own files: cut (SIGTERM) after its figures
    are drawn, it exits 143 and the report already there is untouched, with nothing staged
    left behind; uncut, it replaces it."""
    from typer.testing import CliRunner

    import balance
    from balance import cli
    from balance.analysis import report

    run = tmp_path / "run"
    balance.simulate("avengers-cards", games=200, out=run)
    (run / "report.md").write_text("the previous report")
    (run / "figures").mkdir()
    (run / "figures" / "seat_rates.png").write_bytes(b"its figure")
    before = _files(run)
    build = report.build_sections

    def killed(*args):
        send(signal.SIGTERM)
        return build(*args)

    monkeypatch.setattr(report, "build_sections", killed)
    r = CliRunner().invoke(cli.app, ["report", str(run)])
    assert r.exit_code == 143 and "interrupted: no file was left half-written" in r.output
    assert _files(run) == before and not (run / ".report.partial").exists()
    monkeypatch.setattr(report, "build_sections", build)
    r = CliRunner().invoke(cli.app, ["report", str(run)])
    assert r.exit_code == 0, r.output
    assert (run / "report.md").read_text(encoding="utf-8").startswith("# Balance report")
    assert (run / "figures" / "seat_rates.png").read_bytes().startswith(b"\x89PNG")
    assert not (run / ".report.partial").exists()


# ---- analyses cut and resumed through the CLI ------------------------------------------------

# Each command small, on avengers-cards, and where it is cut (games counted by the progress
# bar). compare's chunks are shortened (below) so that the cut falls between two of them; its
# --sprt case (batches of 2 chunks) drops set_bonus=2 after the first batch (H0) and is cut in
# the third, loss_rule=one decides after the fourth.
ANALYSES = {
    "compare": (["compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2",
                 "--set", "tokens_per_colour=4", "--games", "6000", "--threads", "2",
                 "--primary", "seat_distance", "--primary", "win_share_seat0", "--margin", "0.01"],
                7_000),  # the question and the margin: kept in the request, resumed
    "compare --sprt": (["compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2",
                        "--variant", "loss_rule=one", "--games", "8000", "--sprt", "--batch", "1000",
                        "--delta", "0.02", "--threads", "2"], 6_000),
    "ladder": (["ladder", "avengers-cards", "--ladder", "random,threshold", "--games", "2000",
                "--threads", "2"], 2_500),
    "matchups": (["matchups", "avengers-cards", "--pool", "random,threshold", "--games", "2000",
                  "--threads", "2"], 2_500),
    "restrict": (["restrict", "avengers-cards", "-s", "random", "--games", "4000", "--card", "1",
                  "--card", "5"], 2_000),
}


def _cut_after(monkeypatch, games):
    """Make the CLI's progress bar raise KeyboardInterrupt (as Ctrl-C does) once ``games``
    games were counted (None: never); returns the list of counts it was given."""
    from contextlib import contextmanager

    from balance import cli

    seen = []

    @contextmanager
    def progress(silent, total):
        def advance(n):
            seen.append(n)
            if games is not None and sum(seen) >= games:
                raise KeyboardInterrupt
        yield advance

    monkeypatch.setattr(cli, "_progress", progress)
    return seen


def _files(directory):
    return {p.relative_to(directory): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", list(ANALYSES))
def test_a_cut_analysis_resumes_to_the_uninterrupted_outputs(case, tmp_path, monkeypatch):
    """Cut in the middle (in compare between chunks, in ladder and matchups inside their second
    simulation), `--resume DIR` with no other option ends with the very files an uninterrupted
    run writes; runs finished before the cut are read back, not played again."""
    from typer.testing import CliRunner

    import balance.core.api as api
    from balance import cli
    from balance.core import runner

    monkeypatch.setattr(runner, "DEFAULT_CHUNK", 500)  # compare's chunks (the others choose their own)
    monkeypatch.setenv("BALANCE_CHECKPOINT_SECONDS", "0")
    (args, cut_at), cli_runner = ANALYSES[case], CliRunner()
    whole = tmp_path / "whole"
    _cut_after(monkeypatch, None)
    r = cli_runner.invoke(cli.app, args + ["--out", str(whole), "-q"])
    assert r.exit_code == 0, r.output

    cut = tmp_path / "cut"
    _cut_after(monkeypatch, cut_at)
    r = cli_runner.invoke(cli.app, args + ["--out", str(cut), "-q"])
    assert r.exit_code == 130, r.output
    assert f"continue with balance {args[0]} avengers-cards --resume {cut}" in r.output
    assert not cut.exists() and (tmp_path / ".cut.partial" / "request.json").is_file()
    finished = [d for d in (tmp_path / ".cut.partial" / "runs").iterdir() if (d / "manifest.json").is_file()]

    played = []
    simulate = api.simulate
    monkeypatch.setattr(api, "simulate", lambda *a, **k: played.append(k) or simulate(*a, **k))
    seen = _cut_after(monkeypatch, None)
    r = cli_runner.invoke(cli.app, [args[0], "avengers-cards", "--resume", str(cut), "-q"])
    assert r.exit_code == 0, r.output
    assert _files(cut) == _files(whole)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut", "whole"]  # nothing left behind
    runs = {"compare": args.count("--variant"), "ladder": 3, "matchups": 2, "restrict": 1}[args[0]]
    if args[0] != "compare":  # compare plays its variants itself, not through simulate
        assert len(finished) == (args[0] != "restrict")  # the first simulation, read back
        assert len(played) == runs - len(finished)  # the cut one resumed, and the rest
        assert [k["resume"] for k in played] == [True] + [False] * (len(played) - 1)
    total = int(args[args.index("--games") + 1]) * runs
    if case != "compare --sprt":  # a variant that decides stops being played
        assert sum(seen) == total  # the bar starts where the cut left it


def test_resume_refuses_what_it_cannot_continue(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from balance import cli

    runner, out = CliRunner(), tmp_path / "l"
    args = ANALYSES["ladder"][0]
    r = runner.invoke(cli.app, ["ladder", "avengers-cards", "--resume", str(out)])
    assert r.exit_code == 2 and "nothing to resume at" in r.output and "no interrupted ladder" in r.output
    _cut_after(monkeypatch, 2500)
    assert runner.invoke(cli.app, args + ["--out", str(out), "-q"]).exit_code == 130
    _cut_after(monkeypatch, None)
    r = runner.invoke(cli.app, ["ladder", "avengers-cards", "--resume", str(out), "--games", "3000"])
    assert r.exit_code == 2 and "differs in games (it was: games=2000, now 3000)" in r.output
    r = runner.invoke(cli.app, ["compare", "avengers-cards", "--resume", str(out)])
    assert r.exit_code == 2 and "holds an interrupted `balance ladder`, not a comparison" in r.output
    r = runner.invoke(cli.app, ["ladder", "zenonzard", "--resume", str(out)])
    assert r.exit_code == 2 and "holds a ladder of 'avengers-cards', not 'zenonzard'" in r.output
    r = runner.invoke(cli.app, args + ["--out", str(out), "-q"])
    assert r.exit_code == 2 and "an interrupted ladder of" in r.output and "--resume" in r.output
    r = runner.invoke(cli.app, ["ladder", "avengers-cards", "--resume", str(out), "-q"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli.app, ["ladder", "avengers-cards", "--resume", str(out)])
    assert r.exit_code == 2 and "no interrupted ladder (it is complete)" in r.output


def test_a_report_of_a_cut_run_says_how_to_finish_it(tmp_path, monkeypatch):
    """It said the run directory does not exist, while the run waits in .NAME.partial."""
    from typer.testing import CliRunner

    from balance import cli

    runner, out = CliRunner(), tmp_path / "run"
    _cut_after(monkeypatch, 1000)
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--games", "4000", "--chunk-size", "500",
                                "--threads", "1", "--out", str(out), "-q"])
    assert r.exit_code == 130 and not out.exists()
    r = runner.invoke(cli.app, ["report", str(out)])
    assert r.exit_code == 2
    assert r.output == (f"error: the run {str(out)!r} was interrupted before it finished; continue it with "
                        f"balance simulate avengers-cards --resume {out}\n")
    r = runner.invoke(cli.app, ["report", str(partial_dir(out))])  # the hidden directory itself
    assert r.exit_code == 2 and r.output.startswith(f"error: the run {str(out)!r} was interrupted"), r.output
    # resumed with another --games: that alone is named, not the seatings --games splits (it also
    # named "runs[0].seatings[0].games=4000, now 3000")
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--games", "3000", "--resume", str(out)])
    assert r.exit_code == 2 and r.output == (
        f"error: --resume {out}: the interrupted run differs in games (it was: games=4000, now 3000); resume with "
        "the same options (on the command line, --resume DIR alone: they are read from it), or start again with "
        "--force (force=True)\n"), r.output
    # another --players: the players alone, not the runs it makes (at counts the runs share they are alike)
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--players", "3,4", "--resume", str(out)])
    assert r.exit_code == 2 and "differs in players (it was: players=" in r.output and "runs" not in r.output, r.output
    # a rule changed at a player count is named by the count, not by its place in a list
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--set", "set_bonus=5", "--resume", str(out)])
    assert r.exit_code == 2 and "(it was: at 4 players: rules.set_bonus=" in r.output, r.output
    # with --games changed too, the rule is still what the runs are said to differ in
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--games", "3000", "--set", "set_bonus=5",
                                "--resume", str(out)])
    assert r.exit_code == 2 and "(it was: games=4000, now 3000; at 4 players: rules.set_bonus=" in r.output, r.output


@pytest.mark.parametrize("output, words", [
    ("defenders-of-the-realm/variants", "holds a comparison (`balance compare`, its comparison.json and report "),
    ("avengers-cards/ladder", "holds a ladder (`balance ladder`, its report "),
    ("avengers-cards/tuned-greedy", "holds a tuning (`balance tune`, its tune.json and report ")])
def test_a_report_of_another_commands_output_says_what_it_holds(output, words):
    """`balance report` of a comparison, ladder or tuning said it was no run directory, "missing
    manifest.json", as if the output were damaged: it names what the directory holds and where
    its report is."""
    from pathlib import Path

    from typer.testing import CliRunner

    from balance import cli

    path = Path(__file__).parent.parent / "reports" / output
    r = CliRunner().invoke(cli.app, ["report", str(path), "--out", "unused"])
    assert r.exit_code == 2 and r.output.startswith(f"error: {str(path)!r} {words}"), r.output
    assert "not a run; allowed: a run directory written by `balance simulate ... --out DIR`" in r.output


def test_a_report_of_a_file_or_of_a_damaged_request_is_one_line(tmp_path):
    """What ``held_instead`` cannot read is no output of balance: a file given as the run, a
    request.json whose command is not text (it raised TypeError), or not JSON."""
    from typer.testing import CliRunner

    from balance import cli

    (tmp_path / "file").write_text("x")
    for request in ('{"command": ["a"]}', "not json", "[1]"):
        (tmp_path / ".run.partial").mkdir(exist_ok=True)
        (tmp_path / ".run.partial" / "request.json").write_text(request)
        for given in (tmp_path / "run", tmp_path / ".run.partial", tmp_path / "file"):
            r = CliRunner().invoke(cli.app, ["report", str(given)])
            assert r.exit_code == 2 and r.output.startswith("error: ") and len(r.output.splitlines()) == 1, r.output


def test_a_run_is_not_resumed_across_a_change_of_the_games_rules_version(tmp_path, monkeypatch):
    """An upgrade that changes the games a seed plays bumps the game's RULES_VERSION
    (tests/test_golden.py); a run cut before it must not be finished with the other engine's
    games."""
    import shutil

    from typer.testing import CliRunner

    from balance import cli
    from balance.games.avengers_cards import rules

    runner, out, version = CliRunner(), tmp_path / "run", rules.RULES_VERSION
    _cut_after(monkeypatch, 1000)
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--games", "4000", "--chunk-size", "500",
                                "--threads", "1", "--out", str(out), "-q"])
    assert r.exit_code == 130 and not out.exists()
    _cut_after(monkeypatch, None)
    monkeypatch.setattr(rules, "RULES_VERSION", "avengers-cards/99")
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--resume", str(out), "-q"])
    assert r.exit_code == 2 and "rules_version (the game's rules changed since" in r.output, r.output
    assert not out.exists()
    # an analysis too: the runs it finished would be read back as the old engine played them
    monkeypatch.setattr(rules, "RULES_VERSION", version)
    ladder = tmp_path / "ladder"
    _cut_after(monkeypatch, 2500)
    assert runner.invoke(cli.app, ANALYSES["ladder"][0] + ["--out", str(ladder), "-q"]).exit_code == 130
    for cut in (tmp_path / ".ladder.partial" / "runs").glob(".*.partial"):
        shutil.rmtree(cut)  # as if cut between two runs: the first finished, nothing else begun
    _cut_after(monkeypatch, None)
    monkeypatch.setattr(rules, "RULES_VERSION", "avengers-cards/99")
    r = runner.invoke(cli.app, ["ladder", "avengers-cards", "--resume", str(ladder), "-q"])
    assert r.exit_code == 2 and "rules_version (the game's rules changed since" in r.output, r.output


def test_bad_input_leaves_nothing_to_resume(tmp_path):
    """An analysis that refuses its input keeps no .partial directory: the corrected command
    must not be told that an interrupted one is in the way."""
    from typer.testing import CliRunner

    from balance import cli

    for args in (["ladder", "avengers-cards", "--ladder", "random"],
                 ["restrict", "avengers-cards", "--card", "99"],
                 ["compare", "avengers-cards", "--variant", "default"]):
        r = CliRunner().invoke(cli.app, args + ["--out", str(tmp_path / "o"), "-q"])
        assert r.exit_code == 2, (args, r.output)
        assert list(tmp_path.iterdir()) == [], args


def test_deferred_blocks_in_other_threads_do_not_hold_back_the_main_thread():
    import threading

    inside = threading.Event()
    release = threading.Event()

    def worker():
        with deferred():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=worker)
    t.start()
    inside.wait(5)
    try:
        with pytest.raises(KeyboardInterrupt), interrupting():
            send(signal.SIGTERM)
            raise AssertionError("held back by another thread's deferred block")
    finally:
        release.set()
        t.join()


def test_a_full_disk_at_the_end_keeps_every_chunk_and_resume_finishes(tmp_path, monkeypatch):
    """polars reports a full disk as its own ComputeError, which went out as a traceback; and
    the last checkpoint could be seconds old, so --resume played those games again. Now every
    chunk is saved before the outputs are written: the error is one line, and --resume plays
    nothing and writes the same tables as an uninterrupted run."""
    import polars as pl
    from typer.testing import CliRunner

    from balance import cli
    from balance.core import output

    args = ["simulate", "avengers-cards", "--games", "4000", "--chunk-size", "1000", "--seed", "3", "-q"]
    runner = CliRunner()
    assert runner.invoke(cli.app, args + ["--out", str(tmp_path / "whole")]).exit_code == 0
    write_tables = output.write_tables

    def full(directory, tables):
        raise pl.exceptions.ComputeError("parquet: underlying IO error: No space left on device (os error 28)")
    monkeypatch.setattr(output, "write_tables", full)
    monkeypatch.setenv("BALANCE_CHECKPOINT_SECONDS", "3600")  # no periodic save: only the final one
    r = runner.invoke(cli.app, args + ["--out", str(tmp_path / "cut")])
    assert r.exit_code == 2 and r.output.startswith(f"error: writing {str(tmp_path / 'cut')!r} failed: "), r.output
    assert "No space left on device" in r.output and "(--resume)" in r.output and "Traceback" not in r.output
    assert (tmp_path / ".cut.partial" / "checkpoint.npz").is_file() and not (tmp_path / "cut").exists()
    monkeypatch.setattr(output, "write_tables", write_tables)
    played = []
    r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--resume", str(tmp_path / "cut"), "--json"])
    assert r.exit_code == 0, r.output
    played.append(json.loads(r.output)["timing"]["games"])
    assert played == [0]  # every chunk was in the checkpoint
    for name in ("seats", "cards", "scores"):
        assert pl.read_parquet(tmp_path / "cut" / f"{name}.parquet").equals(
            pl.read_parquet(tmp_path / "whole" / f"{name}.parquet"))


def test_a_signal_as_the_finished_run_moves_in_says_it_is_complete(tmp_path, monkeypatch):
    """Ctrl-C while the finished run is renamed into place (a deferred block) is raised when
    the rename is done: the run is whole, and the message said it was interrupted with chunks
    to resume ('nothing to resume' followed). Now it says the run is complete."""
    from typer.testing import CliRunner

    from balance import cli
    from balance.core import output

    swap = output.swap_into_place

    def swap_and_get_interrupted(done, out):
        send(signal.SIGINT)  # inside finish's deferred block: noted, raised after it
        swap(done, out)
    monkeypatch.setattr(output, "swap_into_place", swap_and_get_interrupted)
    out = tmp_path / "r"
    r = CliRunner().invoke(cli.app, ["simulate", "avengers-cards", "--games", "500", "--out", str(out), "-q"])
    assert r.exit_code == 130
    assert r.output == f"interrupted: the output was already finished: {out} is complete, with nothing to resume\n"
    assert (out / "manifest.json").is_file() and not (tmp_path / ".r.partial").exists()


def test_a_run_another_live_process_is_writing_is_neither_resumed_nor_forced(tmp_path, monkeypatch):
    """Two commands on one --out: the second was told the live run was 'interrupted' and
    offered --resume (a second copy of the same run) or --force (deleting its work). A live
    owner (one holding owner.pid locked) is named instead; an ended one's run is an interrupted
    run as before, and so is one whose pid a live bystander took since (a pid alone would block
    the run for good). (The run here is left in .r.partial by a failed write, then given
    another process as its owner.)"""
    import subprocess
    import sys

    from typer.testing import CliRunner

    from balance import cli
    from balance.core import output
    from balance.core.checkpoint import OWNER_FILE

    runner, out = CliRunner(), tmp_path / "r"
    args = ["simulate", "avengers-cards", "--games", "500", "--out", str(out), "-q"]
    def full(directory, tables):
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as m:
        m.setattr(output, "write_tables", full)
        assert runner.invoke(cli.app, args).exit_code == 2
    partial = tmp_path / ".r.partial"
    assert (partial / OWNER_FILE).read_text() == str(os.getpid())  # the failed run's (this process)
    # a live process's pid in the file, unlocked (a pid reused after a crash): not the owner
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (partial / OWNER_FILE).write_text(str(bystander.pid))
        r = runner.invoke(cli.app, args)
        assert r.exit_code == 2 and "an interrupted run of" in r.output, r.output
    finally:
        bystander.kill()
        bystander.wait()
    # the owner: a process holding owner.pid locked, as a running balance does
    hold = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX); "
            "os.ftruncate(fd, 0); os.write(fd, str(os.getpid()).encode()); print('held', flush=True); time.sleep(60)")
    live = subprocess.Popen([sys.executable, "-c", hold, str(partial / OWNER_FILE)], stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout.readline() == "held\n"
        for extra in ([], ["--force"]):
            r = runner.invoke(cli.app, args + extra)
            assert r.exit_code == 2, r.output
            assert r.output == (f"error: another balance process (pid {live.pid}) is writing {str(out)!r} now; "
                                f"wait for it to finish, or stop it (kill {live.pid}) and continue its run with "
                                "--resume\n")
        r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--resume", str(out)])
        assert r.exit_code == 2 and f"another balance process (pid {live.pid})" in r.output, r.output
        assert partial.is_dir()  # its work untouched
    finally:
        live.kill()
        live.wait()
    r = runner.invoke(cli.app, args)  # the owner has ended: an interrupted run, as before
    assert r.exit_code == 2 and "an interrupted run of" in r.output and "--force" in r.output
    assert runner.invoke(cli.app, args + ["--force"]).exit_code == 0 and (out / "manifest.json").is_file()


def test_an_out_that_is_a_symbolic_link_is_refused_before_the_run(tmp_path):
    """The finished output is renamed into place, which replaces a link, not its folder: the run
    was played whole, then refused, its work not in a checkpoint."""
    from typer.testing import CliRunner

    from balance import cli

    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "folder")
    r = CliRunner().invoke(cli.app, ["simulate", "avengers-cards", "--games", "500", "--out",
                                     str(tmp_path / "link"), "-q"])
    assert r.exit_code == 2
    assert r.output == (f"error: --out {str(tmp_path / 'link')!r} is a symbolic link; give the folder it points "
                        f"to ({str(tmp_path / 'folder')!r}) or a new one\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "link"]


def test_a_run_that_failed_in_a_notebook_leaves_its_lock_for_the_next_command(tmp_path, monkeypatch):
    """A run that ends in a process that goes on (a notebook: a failed write, Ctrl-C) drops its
    lock on owner.pid: a command started elsewhere may continue it (it was refused, with
    advice to kill the notebook's kernel)."""
    import subprocess
    import sys

    import balance
    from balance.core import output
    from balance.core.checkpoint import OWNER_FILE

    def full(directory, tables):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output, "write_tables", full)
    with pytest.raises(balance.BalanceError, match="No space left on device"):
        balance.simulate("avengers-cards", games=500, out=tmp_path / "r")
    probe = ("import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
             "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); print('free')")
    r = subprocess.run([sys.executable, "-c", probe, str(tmp_path / ".r.partial" / OWNER_FILE)],
                       capture_output=True, text=True)
    assert r.stdout == "free\n", r.stderr


def test_an_analysis_cut_as_an_inner_run_moves_in_is_not_called_complete(tmp_path, monkeypatch):
    """ladder, matchups and restrict move each finished simulation into .OUT.partial/runs/: a
    signal then was reported as "the output was already finished: .../runs/0000 is complete,
    with nothing to resume", with --out unwritten. Only the command's own output is complete."""
    from typer.testing import CliRunner

    from balance import cli
    from balance.core import output

    swap, calls = output.swap_into_place, []

    def swap_and_get_interrupted(done, out):
        calls.append(out)
        if len(calls) == 1:  # the first inner run's move
            send(signal.SIGINT)
        swap(done, out)
    monkeypatch.setattr(output, "swap_into_place", swap_and_get_interrupted)
    out = tmp_path / "l"
    r = CliRunner().invoke(cli.app, ["ladder", "avengers-cards", "--ladder", "random,greedy", "--games", "60",
                                     "--players", "4", "--out", str(out), "-q"])
    assert r.exit_code == 130, r.output
    assert r.output == (f"interrupted: the finished work is kept; continue with balance ladder avengers-cards "
                        f"--resume {out}\n"), r.output
    assert not out.exists() and (tmp_path / ".l.partial").is_dir()


def test_a_cut_run_of_a_tuned_strategy_resumes_bare_or_respelled_and_keeps_where_it_came_from(
        tmp_path, monkeypatch, tuned_at):
    """A run of a strategy from a tuned.toml records the file and count it came from. A bare
    --resume gives the saved labels, which carry no record, and was refused ("differs in runs
    ... tuned=..., now null"); so was the same file named otherwise (@DIR/tuned.toml for @DIR).
    Both resume now, and the finished manifest keeps the record (its report's caution)."""
    from typer.testing import CliRunner

    from balance import cli

    spec = tuned_at(4)
    runner = CliRunner()
    for name, again in (("bare", []), ("respelled", ["-s", spec + "/tuned.toml"])):
        out = tmp_path / name
        _cut_after(monkeypatch, 1000)
        r = runner.invoke(cli.app, ["simulate", "avengers-cards", "--players", "3", "--games", "4000", "-s", spec,
                                    "--chunk-size", "500", "--threads", "1", "--out", str(out), "-q"])
        assert r.exit_code == 130 and not out.exists()
        _cut_after(monkeypatch, None)
        r = runner.invoke(cli.app, ["simulate", "avengers-cards", *again, "--resume", str(out), "-q"])
        assert r.exit_code == 0, r.output
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        held = manifest["runs"][0]["seatings"][0]["strategies"][0]["tuned"]
        assert held == {"from": spec.split("@", 1)[1], "players": 4}, held
