"""Scale and safety: threads, chunks and dask give identical numbers; runs survive Ctrl-C,
SIGTERM and SIGKILL and resume to the same outputs; bad directories get clear errors."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import balance
from balance.core.checkpoint import partial_dir
from balance.core.errors import BalanceError

TABLES = ("seats", "scores", "cards", "villains", "pairs")
RUN = dict(players=[3, 4], games=24_000, seed=11, strategies=["greedy:samples=4", "threshold", "random"],
           rotate=True)
EXE = str(Path(sys.executable).with_name("balance"))


def same_tables(a, b):
    return all(a.tables[n].equals(b.tables[n]) for n in TABLES)


@pytest.fixture(scope="module")
def reference_run():
    return balance.simulate("avengers-cards", threads=1, chunk_size=24_000, keep_games=True, **RUN)


def test_threads_and_chunk_sizes_give_identical_outputs(reference_run):
    for threads, chunk in [(2, 1_000), (2, 7_777), (1, 999)]:
        run = balance.simulate("avengers-cards", threads=threads, chunk_size=chunk, keep_games=True, **RUN)
        assert same_tables(run, reference_run), (threads, chunk)
        assert run.games.equals(reference_run.games)


def test_dask_local_cluster_gives_identical_outputs(reference_run):
    run = balance.simulate("avengers-cards", threads=2, backend="dask", chunk_size=3_000, **RUN)
    assert same_tables(run, reference_run)


KILL_WORKER = """
import os, signal, sys
import balance
from distributed import Client, LocalCluster

if __name__ == "__main__":
    run_kwargs, out = eval(sys.argv[1]), sys.argv[2]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        victims = list(client.run(os.getpid).values())
        killed = []

        def kill_one_worker(_games):
            if not killed:  # first finished chunk: others are still running on both workers
                os.kill(victims[0], signal.SIGKILL)
                killed.append(victims[0])

        run = balance.simulate("avengers-cards", threads=2, backend="dask", chunk_size=1_000,
                               scheduler=cluster.scheduler_address, on_progress=kill_one_worker,
                               **run_kwargs)
    assert killed
    for name, table in run.tables.items():
        table.write_parquet(f"{out}/{name}.parquet")
"""


@pytest.mark.slow
def test_a_dask_worker_killed_mid_run_costs_only_its_chunks(reference_run, tmp_path):
    """A worker SIGKILLed mid-run: its chunks are run again and the tables are identical.

    Run in a subprocess under a time limit: in about 1 run in 20 here the dask cluster did
    not shut down after the kill (a hang in distributed's teardown, seen once in 20 runs), so
    this test is in the slow tier and fails after 180 s instead of hanging.
    """
    script = tmp_path / "kill_worker.py"
    script.write_text(KILL_WORKER)
    r = subprocess.run([sys.executable, str(script), repr(RUN), str(tmp_path)], capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    for name in TABLES:
        assert pl.read_parquet(tmp_path / f"{name}.parquet").equals(reference_run.tables[name]), name


def interrupt_after(calls):
    """An on_progress that raises KeyboardInterrupt (as Ctrl-C would) after ``calls`` chunks."""
    seen = []

    def progress(_games):
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt

    return progress


def test_interrupted_run_resumes_to_identical_outputs(tmp_path, reference_run):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        balance.simulate("avengers-cards", threads=2, chunk_size=2_000, keep_games=True, out=out,
                         on_progress=interrupt_after(9), **RUN)
    assert not out.exists() and (partial_dir(out) / "checkpoint.npz").is_file()
    with pytest.raises(BalanceError, match="--resume"):  # never clobbered silently
        balance.simulate("avengers-cards", out=out, chunk_size=2_000, keep_games=True, **RUN)
    with pytest.raises(BalanceError, match="differs in seed"):
        balance.simulate("avengers-cards", out=out, resume=True, keep_games=True,
                         **{**RUN, "seed": 12})
    # a key that is no option's name is told by the options that set it
    with pytest.raises(BalanceError, match=r"differs in runs \(the rules, strategies or sides at a player count: "
                                           r"--set, --variant, -s, --side\) "
                                           r"\(it was: at 3 players: rules\.set_bonus=3, now 5\);"):
        balance.simulate("avengers-cards", out=out, resume=True, keep_games=True,
                         **{**RUN, "overrides": {"set_bonus": 5}})
    resumed = balance.simulate("avengers-cards", out=out, resume=True, keep_games=True, threads=1, **RUN)
    assert same_tables(resumed, reference_run)
    for name in TABLES:
        assert pl.read_parquet(out / f"{name}.parquet").equals(reference_run.tables[name])
    assert pl.read_parquet(out / "games.parquet").equals(reference_run.games)
    assert not partial_dir(out).exists()
    # its timing is the resuming session's, so it says for how many games: those it played
    timing = resumed.manifest["timing"]
    assert 0 < timing["games"] < RUN["games"] * len(RUN["players"]), timing


def test_a_signal_while_a_chunk_is_folded_waits_until_it_is_whole(tmp_path, reference_run, monkeypatch):
    """SIGTERM after a chunk's counts were added but before it was marked done: were the
    interrupt raised there, --resume would play that chunk again and count it twice."""
    from balance.core.checkpoint import RunState

    folded = []

    def fold_and_get_signalled(self, task, chunk):
        for name, array in chunk.totals.items():
            self.totals[task.block][name] += array
        folded.append(task.key)
        if len(folded) == 5:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler would run here, at the next bytecodes
                pass
        self.done.add(task.key)

    out = tmp_path / "run"
    monkeypatch.setattr(RunState, "fold", fold_and_get_signalled)
    with pytest.raises(KeyboardInterrupt):
        balance.simulate("avengers-cards", threads=1, chunk_size=2_000, out=out, keep_games=True, **RUN)
    assert len(folded) == 5
    monkeypatch.undo()
    resumed = balance.simulate("avengers-cards", out=out, resume=True, keep_games=True, **RUN)
    assert same_tables(resumed, reference_run)


def test_corrupted_checkpoint_is_a_clear_error_and_destroys_nothing(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        balance.simulate("avengers-cards", threads=1, chunk_size=2_000, out=out,
                         on_progress=interrupt_after(3), **RUN)
    checkpoint = partial_dir(out) / "checkpoint.npz"
    checkpoint.write_bytes(b"not a checkpoint")
    with pytest.raises(BalanceError, match="corrupted") as e:
        balance.simulate("avengers-cards", out=out, resume=True, **RUN)
    assert "pickle" not in str(e.value)  # numpy's advice to load a stranger's file unsafely, echoed
    assert checkpoint.read_bytes() == b"not a checkpoint"
    with pytest.raises(BalanceError, match="nothing to resume"):
        balance.simulate("avengers-cards", out=tmp_path / "other", resume=True, **RUN)


def test_a_request_edited_after_its_checkpoint_is_refused(tmp_path):
    """The options of a resume come from request.json: edited by hand (another seed), the
    resumed run took the old seed's counts for the new one's and finished a mix of two runs
    (audit A7). The checkpoint keeps a digest of the request it counts."""
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        balance.simulate("avengers-cards", threads=1, chunk_size=2_000, out=out,
                         on_progress=interrupt_after(3), **RUN)
    request = partial_dir(out) / "request.json"
    edited = json.loads(request.read_text(encoding="utf-8")) | {"seed": 12}
    request.write_text(json.dumps(edited), encoding="utf-8")
    with pytest.raises(BalanceError, match=r"request\.json' was changed after the checkpoint beside it was "
                                           r"written: its counts belong to another request"):
        balance.simulate("avengers-cards", out=out, resume=True, chunk_size=2_000, **{**RUN, "seed": 12})
    assert partial_dir(out).is_dir() and not out.exists()


def test_a_run_finishing_onto_files_of_the_users_keeps_them_and_stays_resumable(tmp_path):
    """--force and an empty --out were checked only at the start: a run cut and resumed after
    the user made --out a folder of their own, or a long run whose old output gained notes
    meanwhile, replaced it whole when it finished. Now the finished run is not swapped in,
    the folder is untouched and the run resumes once it is moved (found by a review)."""
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        balance.simulate("avengers-cards", threads=1, chunk_size=2_000, out=out,
                         on_progress=interrupt_after(3), **RUN)
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(BalanceError, match=r"holds no finished output of simulate, tune or an analysis .*, so the "
                                           r"finished run was not put in its place; it is kept: move what is in "
                                           r"the way, then balance simulate avengers-cards --resume "):
        balance.simulate("avengers-cards", out=out, resume=True, **RUN)
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine" and partial_dir(out).is_dir()
    (out / "notes.txt").unlink()
    done = balance.simulate("avengers-cards", out=out, resume=True, **RUN)
    assert (out / "manifest.json").is_file() and not partial_dir(out).exists() and done.seats.height


def test_unwritable_output_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = subprocess.run([EXE, "simulate", "avengers-cards", "--games", "100", "--out", str(blocker / "run")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == (f"error: --out {str(blocker / 'run')!r} cannot be made: {str(blocker)!r} is a file, "
                        "not a folder\n")
    assert blocker.read_text(encoding="utf-8") == "x"


def run_cli(out, *extra, env=None):
    args = [EXE, "simulate", "avengers-cards", "--players", "3,4", "--games", "150000", "--seed", "5",
            "-s", "greedy", "--chunk-size", "1000", "--threads", "1", "--keep-games", "--quiet",
            "--out", str(out), *extra]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BALANCE_CHECKPOINT_SECONDS": "0.05", **(env or {})})


def wait_for_checkpoint(out, proc, timeout=120):
    path = partial_dir(out) / "checkpoint.npz"
    start = time.monotonic()
    while not path.is_file():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - start < timeout
        time.sleep(0.05)
    time.sleep(0.3)  # a few more chunks


def signal_masks(pid):
    """The blocked/ignored/caught signal masks of every thread of ``pid``, to explain a failure."""
    lines = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        try:
            status = (task / "status").read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        lines.append(task.name + " " + " ".join(x.replace("\t", "") for x in status
                                               if x.startswith(("SigBlk", "SigIgn", "SigCgt"))))
    return "; ".join(lines)


@pytest.fixture
def deliverable_signals():
    """Children inherit the signal mask of the thread that starts them, and any signal set to be
    ignored. A CI harness may block SIGTERM (balance simulate unblocks it itself) and a
    non-interactive shell ignores SIGINT in background jobs (which balance respects, as a
    user's background job would want), so spawn the child as an interactive user's would be."""
    sigs = (signal.SIGTERM, signal.SIGINT)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, sigs)
    ignored = [s for s in sigs if signal.getsignal(s) == signal.SIG_IGN]
    for s in ignored:
        signal.signal(s, signal.SIG_DFL)
    yield
    for s in ignored:
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@pytest.fixture(scope="module")
def uninterrupted_run():
    """The run run_cli starts, played whole in this process (computed once for the three signals)."""
    return balance.simulate("avengers-cards", players=[3, 4], games=150_000, seed=5,
                            strategies=["greedy"], keep_games=True, threads=2)


@pytest.mark.parametrize("sig, code", [(signal.SIGKILL, -9), (signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_killed_process_resumes_to_the_uninterrupted_outputs(tmp_path, sig, code, deliverable_signals,
                                                               uninterrupted_run):
    out = tmp_path / "run"
    proc = run_cli(out)
    wait_for_checkpoint(out, proc)
    signal_state = signal_masks(proc.pid)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, f"{err}\nchild's signal masks before the signal: {signal_state}"
    if sig != signal.SIGKILL:
        assert "--resume" in err and "Traceback" not in err
    assert not out.exists() and partial_dir(out).is_dir()
    r = subprocess.run([EXE, "simulate", "avengers-cards", "--resume", str(out), "--quiet"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    whole = uninterrupted_run
    for name in TABLES:
        assert pl.read_parquet(out / f"{name}.parquet").equals(whole.tables[name]), name
    assert pl.read_parquet(out / "games.parquet").equals(whole.games)


# The default thread count (and make test's worker count): the CPUs the process may run on,
# capped by a cgroup CPU quota, read from a cgroup tree laid out as the kernel shows it.
@pytest.mark.parametrize("files, quota", [
    ({"cpu.max": "150000 100000\n"}, 1.5),  # cgroup v2, docker --cpus=1.5
    ({"cpu.max": "max 100000\n"}, None),  # v2, no quota
    ({"cpu/cpu.cfs_quota_us": "200000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 2.0),  # v1
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),  # v1, none
    ({}, None),  # no cgroup files (not Linux, or not mounted)
])
def test_the_cpu_quota_is_read_from_cgroup_v2_or_v1(tmp_path, files, quota):
    from balance.core.cpus import cpu_quota
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert cpu_quota(tmp_path) == quota


def test_a_cpu_quota_caps_the_default_threads_at_its_whole_cpus(tmp_path, monkeypatch):
    from balance.core import cpus
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert cpus.usable_cpus(tmp_path) == 64  # no quota: every CPU it may run on
    (tmp_path / "cpu.max").write_text("250000 100000\n")
    assert cpus.usable_cpus(tmp_path) == 2  # the time of 2.5 CPUs keeps 2 threads busy
    (tmp_path / "cpu.max").write_text("50000 100000\n")
    assert cpus.usable_cpus(tmp_path) == 1  # at least one
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    (tmp_path / "cpu.max").write_text("800000 100000\n")
    assert cpus.usable_cpus(tmp_path) == 1  # a quota never adds CPUs to the affinity


def test_a_written_run_loads_back_from_python_and_prints_in_one_line(tmp_path):
    run = balance.simulate("avengers-cards", players=4, games=300, seed=2, strategies=["greedy"],
                           out=str(tmp_path / "run"))
    loaded = balance.load(str(tmp_path / "run"))  # a path as text, as a notebook writes it
    assert same_tables(loaded, run) and loaded.manifest == run.manifest
    assert "seats" in dir(loaded) and {"simulate", "load"} <= set(dir(balance))
    assert repr(loaded) == (f"RunResult(game='avengers-cards', players=[4], games=300, seed=2, strategies=['greedy'], "
                            f"tables={list(run.tables)}, out={str(tmp_path / 'run')!r})")
    with pytest.raises(BalanceError, match="is not a run directory: missing manifest.json"):
        balance.load(tmp_path)
    # the other commands' functions are at the top too, as a notebook looks for them
    from balance.analysis.compare import compare
    from balance.analysis.report import write_run_report
    from balance.analysis.tune import tune

    assert (balance.compare, balance.tune, balance.report, balance.BalanceError) == (
        compare, tune, write_run_report, BalanceError)
    assert {"compare", "tune", "report", "BalanceError"} <= set(dir(balance))
    paths = balance.report(tmp_path / "run")
    assert paths["markdown"] == tmp_path / "run" / "report.md" and paths["markdown"].is_file()
