"""Checkpointed run directories: a run in progress lives in ``.NAME.partial`` next to ``--out``.

``.NAME.partial/`` holds ``request.json`` (the run's manifest as requested), ``checkpoint.npz``
(the folded totals of every finished chunk and which chunks those are, replaced atomically)
and, with --keep-games, one Parquet file per finished chunk under ``games/``. An interrupted
run (Ctrl-C, SIGTERM, SIGKILL, power loss) keeps it; ``--resume`` plays only the chunks the
checkpoint lacks. A finished run is assembled there and renamed to ``NAME`` in one step, so
``NAME`` is always either absent, the previous complete run, or the new complete run.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import zipfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: runs are not locked
    fcntl = None

import numpy as np

from balance.core.errors import BalanceError
from balance.core.interrupts import FinishedThenInterrupted

# What must match for a checkpoint to be resumed (timing and threads may differ).
RESUME_KEYS = ("game", "rules_version", "seed", "games", "players", "rotate", "runs", "chunk_size",
               "keep_games", "card_strength")
# What a user changed, in the options' words, for the resume keys that are not an option's name
# (the request keeps what the options resolve to).
KEY_WORDS = {"runs": "runs (the rules, strategies or sides at a player count: --set, --variant, -s, --side)",
             "rules_version": "rules_version (the game's rules changed since: start again with --force)",
             "chunk_size": "chunk_size (--chunk-size)", "keep_games": "keep_games (--keep-games)",
             "card_strength": "card_strength (--card-strength)"}
# How often the folded totals are saved: a crash loses at most this much work. Tests shorten it.
CHECKPOINT_SECONDS = float(os.environ.get("BALANCE_CHECKPOINT_SECONDS", "5"))


# In .NAME.partial: the process id of the balance process writing it, locked (flock) while it
# runs, so that a second command on the same --out is told so, not offered to --resume or
# --force a live run. The kernel drops the lock when the process ends, however it ends: a pid
# alone could be reused after a crash or a reboot and block the run for good.
OWNER_FILE = "owner.pid"
_held: dict[str, int] = {}  # .NAME.partial (absolute) -> its owner.pid's locked descriptor, in this process


def partial_dir(out: Path) -> Path:
    return out.parent / f".{out.name}.partial"


def live_owner(directory: Path) -> int | None:
    """The id of another process holding ``directory``'s owner.pid locked (a live run), else
    None: none recorded, this process, or one that has ended. 0 when the holder's id cannot
    be read. Without flock (not POSIX) no run is ever taken for live."""
    path = directory / OWNER_FILE
    if os.path.abspath(directory) in _held or fcntl is None or not path.is_file():
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:  # locked: its owner runs
        try:
            return int(os.read(fd, 32).decode("ascii").strip())
        except ValueError:
            return 0
    finally:
        os.close(fd)  # (closing drops a shared lock this test took)
    return None


def _lock(directory: Path) -> None:
    """Record this process in ``directory``'s owner.pid and hold it locked until ``release``
    or the process's end."""
    if fcntl is None or os.path.abspath(directory) in _held:
        return
    fd = os.open(directory / OWNER_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # taken between the check and here: by another command
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode("ascii"))
    _held[os.path.abspath(directory)] = fd


def release(directory: Path) -> None:
    """Drop this process's lock on ``directory``'s owner.pid: its run has ended here (finished,
    failed or interrupted) while the process goes on (a notebook), so a later command may
    continue it."""
    fd = _held.pop(os.path.abspath(directory), None)
    if fd is not None:
        os.close(fd)


class RunState:
    """Totals per block and the chunks folded into them (keys ``(block, first_game)``)."""

    def __init__(self, totals: list[dict], done: set | None = None):
        self.totals = totals
        self.done = set(done or ())

    def fold(self, task, chunk) -> None:
        for name, array in chunk.totals.items():
            self.totals[task.block][name] += array
        self.done.add(task.key)


class Checkpointer:
    """Owns ``.NAME.partial``: creates or reopens it, saves and loads checkpoints, finishes.

    A simulation's; ``balance.analysis.tune_checkpoint`` subclasses it for a tuning, with its
    own ``keys`` (what must match to resume), ``noun``, ``command`` and ``state_files``."""

    keys = RESUME_KEYS
    key_words = KEY_WORDS  # a subclass names its own keys' options
    noun, command = "run", "simulate"  # "an interrupted run", "balance simulate GAME --resume"
    state_files = ("checkpoint.npz",)  # removed when the outputs are in place
    state_dirs = ("games",)  # made at the start, removed when the outputs are in place
    finished = "manifest.json"  # the file a finished one holds

    def __init__(self, out: Path, request: dict):
        self.out = Path(out)
        self.dir = partial_dir(self.out)
        self.request = request
        self.last_save = time.monotonic()

    # ---- opening -------------------------------------------------------------------------
    def start(self, force: bool) -> None:
        """A fresh run: refuse to clobber a complete run or an interrupted one without force."""
        from balance.core.output import check_target

        check_target(self.out, force)
        self._refuse_live()
        # an empty .NAME.partial holds nothing to resume: a name the CLI reserved for this command
        # (cli._default_out), or a run cut before its request was written
        reserved = self.dir.is_dir() and not self.dir.is_symlink() and not any(self.dir.iterdir())
        if self.dir.exists() and not reserved:
            if not force:
                raise BalanceError(
                    f"an interrupted {self.noun} of {str(self.out)!r} exists ({self.dir.name}); continue "
                    f"it with --resume {self.out} or discard it with --force"
                )
            release(self.dir)  # this process's own, interrupted earlier (a notebook)
            shutil.rmtree(self.dir)
        try:  # made before the directory: a request JSON cannot hold must leave nothing behind
            request = json.dumps(self.request, indent=2).encode()
        except (TypeError, ValueError) as e:
            raise BalanceError(f"the {self.noun}'s settings cannot be saved for --resume ({e})") from None
        try:
            self.dir.mkdir(parents=True, exist_ok=reserved)
            for name in self.state_dirs:
                (self.dir / name).mkdir()
            write_atomic(self.dir / "request.json", request)
            self._claim()
        except OSError as e:
            raise BalanceError(f"cannot create {str(self.dir)!r}: {e.strerror or e}") from None

    def _refuse_live(self) -> None:
        """Another balance process writing this very ``.NAME.partial`` is not an interrupted
        run: neither --resume (two copies of one run) nor --force (deleting its work) applies."""
        pid = live_owner(self.dir)
        if pid is not None:
            who = f"another balance process (pid {pid})" if pid else "another balance process"
            stop = f"stop it (kill {pid})" if pid else "stop it"
            raise BalanceError(f"{who} is writing {str(self.out)!r} now; wait for it to finish, or {stop} and "
                               f"continue its {self.noun} with --resume")

    def _claim(self) -> None:
        """Record this process as the one writing ``.NAME.partial``, locked while it runs."""
        try:
            _lock(self.dir)
        except BlockingIOError:
            self._refuse_live()
            raise BalanceError(f"another balance process is writing {str(self.out)!r} now") from None

    def release(self) -> None:
        """This process no longer writes ``.NAME.partial`` (``release``)."""
        release(self.dir)

    def resume(self, state: RunState) -> RunState:
        """Reopen an interrupted run; checks it is the same run and loads its checkpoint."""
        self.reopen()
        return self.load(state)

    def reopen(self) -> None:
        """Check that ``.NAME.partial`` holds an interrupted run of this very request, and
        claim it."""
        saved = read_request(self.out, type(self))
        self._refuse_live()
        now = as_json(self.request)  # as it was saved: tuples in rules read back as lists
        # an option saved as None and one a request saved before it existed lacks are the same
        differ = [k for k in self.keys if _given(saved.get(k)) != _given(now.get(k))]
        if "runs" in differ and {"games", "players"} & set(differ) and _same_runs(saved.get("runs"), now.get("runs")):
            differ.remove("runs")  # the runs differ only by the --games that split them or the --players they are at
        if not differ:
            _adopt_origins(saved.get("runs"), self.request.get("runs"))
        if differ:
            raise BalanceError(
                f"--resume {self.out}: the interrupted {self.noun} differs in "
                f"{', '.join(self.key_words.get(k, k) for k in differ)} "
                f"(it was: {'; '.join(_difference(k, saved.get(k), now.get(k)) for k in differ)}); resume with "
                "the same options (on the command line, --resume DIR alone: they are read from it), or start "
                "again with --force (force=True)"
            )
        try:
            self._claim()
        except OSError as e:
            raise BalanceError(f"cannot write in {str(self.dir)!r}: {e.strerror or e}") from None

    def discard(self) -> None:
        """Remove ``.NAME.partial`` (a fresh start that failed before keeping any work)."""
        self.release()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ---- checkpoints ---------------------------------------------------------------------------
    def due(self) -> bool:
        """Whether the last save is CHECKPOINT_SECONDS old: time to save again."""
        return time.monotonic() - self.last_save >= CHECKPOINT_SECONDS

    def maybe_save(self, state: RunState) -> None:
        if self.due():
            self.save(state)

    def save(self, state: RunState) -> None:
        """Replace checkpoint.npz atomically (write a temp file, fsync, rename)."""
        arrays = {f"b{b}__{name}": a for b, t in enumerate(state.totals) for name, a in t.items()}
        arrays["done"] = np.array(sorted(state.done), np.int64).reshape(-1, 2)
        arrays["request"] = np.array(self.request_digest())
        path = self.dir / "checkpoint.npz"
        tmp = path.with_suffix(".tmp")
        try:
            with open(tmp, "wb") as f:
                np.savez(f, **arrays)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            raise BalanceError(f"cannot write the checkpoint {str(path)!r}: {e.strerror or e}") from None
        self.last_save = time.monotonic()

    def request_digest(self) -> str:
        """A digest of what must match to resume (the ``keys`` of the request, as saved), kept
        in the checkpoint: a request.json edited by hand (another seed, more games) must not
        take the counts of the games played for the old one."""
        # without the strategies' tuned records, which a resume may lack (_given) and then adopts
        asked = _without_origins(as_json({k: self.request.get(k) for k in self.keys}))
        return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()

    def load(self, state: RunState) -> RunState:
        path = self.dir / "checkpoint.npz"
        if not path.is_file():
            return state  # interrupted before the first checkpoint: start from zero
        if not zipfile.is_zipfile(path):  # np.load would try it as a pickle and advise loading it unsafely
            raise BalanceError(f"the checkpoint {str(path)!r} is corrupted (not the archive balance writes); "
                               "nothing was changed: start again with --force")
        try:
            with np.load(path) as data:
                if "request" in data and str(data["request"]) != self.request_digest():  # absent: older
                    raise BalanceError(
                        f"{str(self.dir / 'request.json')!r} was changed after the checkpoint beside it was "
                        "written: its counts belong to another request; nothing was changed: start again "
                        "with --force")
                done = {tuple(int(x) for x in row) for row in data["done"]}
                for b, totals in enumerate(state.totals):
                    for name, array in totals.items():
                        saved = data[f"b{b}__{name}"]
                        if saved.shape != array.shape:
                            raise ValueError(f"{name} has shape {saved.shape}, expected {array.shape}")
                        array[...] = saved
        except (ValueError, KeyError) as e:  # a counter missing or of another shape
            raise BalanceError(f"the checkpoint {str(path)!r} does not match this version's counters "
                               f"({e}): it was written by another version of balance, or is "
                               "corrupted; nothing was changed: start again with --force") from None
        except (OSError, zipfile.BadZipFile, EOFError) as e:
            raise BalanceError(f"the checkpoint {str(path)!r} is corrupted ({e}); nothing was "
                               f"changed: start again with --force") from None
        return RunState(state.totals, done)

    def save_json(self, name: str, data) -> None:
        """Replace ``name`` in the partial directory by ``data`` as JSON, whole or not at all
        (a command's own state: a tuning's generations, a comparison's sums)."""
        from balance.core.interrupts import deferred

        try:
            with deferred():
                write_atomic(self.dir / name, json.dumps(data).encode())
        except OSError as e:
            raise BalanceError(f"cannot write the checkpoint {str(self.dir / name)!r}: {e.strerror or e}") from None
        self.last_save = time.monotonic()

    def load_json(self, name: str, read, empty):
        """``read`` of the JSON in ``name``, or ``empty`` when it was never written. JSON
        numbers read back exactly as written (Python's float repr round-trips)."""
        path = self.dir / name
        if not path.is_file():
            return empty
        try:
            return read(json.loads(path.read_text("utf-8")))
        except BalanceError:  # read() found the state readable but not this run's: it says why
            raise
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise BalanceError(f"the checkpoint {str(path)!r} is corrupted ({e}); nothing was changed: "
                               "start again with --force") from None

    def chunk_games_path(self, task) -> Path:
        return self.dir / "games" / f"b{task.block:03d}-{task.first:015d}.parquet"

    # ---- finishing ---------------------------------------------------------------------------
    def finish(self, write_outputs) -> None:
        """``write_outputs(dir)`` writes the final files; then the run is swapped into place.
        Whatever happens, this process no longer holds the run (``release``)."""
        try:
            self._finish(write_outputs)
        finally:
            self.release()

    def _finish(self, write_outputs) -> None:
        from balance.core.interrupts import deferred
        from balance.core.output import not_replaceable, swap_into_place

        problem = not_replaceable(self.out)  # asked again: --out may have changed since the start
        if problem:
            game = self.request.get("game", "GAME")
            raise BalanceError(f"{problem}, so the finished {self.noun} was not put in its place; it is kept: "
                               f"move what is in the way, then balance {self.command} {game} --resume {self.out}")
        import polars as pl

        try:
            write_outputs(self.dir)
        except (OSError, pl.exceptions.PolarsError) as e:
            # polars reports a full disk as its own error, naming the OS error; any other of its
            # errors is a fault of ours, not of the disk, and --resume would only meet it again
            if isinstance(e, pl.exceptions.PolarsError) and "os error" not in str(e).lower():
                raise
            raise BalanceError(f"writing {str(self.out)!r} failed: {getattr(e, 'strerror', None) or e}; the "
                               f"finished work is kept in {str(self.dir)!r} (--resume)") from None
        try:
            # Cut here, the run would have neither its checkpoint nor its outputs in place.
            with deferred():
                for name in (*self.state_files, "request.json", OWNER_FILE):
                    (self.dir / name).unlink(missing_ok=True)
                for name in self.state_dirs:
                    shutil.rmtree(self.dir / name, ignore_errors=True)
                self.release()
                swap_into_place(self.dir, self.out)
        except OSError as e:
            raise BalanceError(f"writing {str(self.out)!r} failed: {e.strerror or e}; the finished "
                               f"work is kept in {str(self.dir)!r} (--resume)") from None
        except KeyboardInterrupt:  # the signal came while the output was moved in: it is complete
            raise FinishedThenInterrupted(str(self.out)) from None


def read_request(out: Path, kind: type[Checkpointer] = Checkpointer) -> dict:
    """The request.json of the interrupted run (or, with ``kind`` a subclass, tuning) in
    ``out``, or a BalanceError saying why there is none to resume. A tuning's request names
    its command; a run's names none."""
    path = partial_dir(Path(out)) / "request.json"
    try:
        saved = json.loads(path.read_text("utf-8"))
        command = saved.get("command", "simulate")
    except FileNotFoundError:
        done = " (it is complete)" if (Path(out) / kind.finished).is_file() else ""
        raise BalanceError(f"nothing to resume at {str(out)!r}: no interrupted {kind.noun}{done}") from None
    except (OSError, ValueError, AttributeError) as e:  # not JSON, or not an object
        raise BalanceError(f"{str(path)!r} is unreadable ({e}); start again with --force") from None
    if command != kind.command:
        raise BalanceError(f"{str(out)!r} holds an interrupted `balance {command}`, not a {kind.noun}: "
                           f"continue it with balance {command} {saved.get('game', 'GAME')} --resume {out}")
    return saved


def interrupted(out: Path) -> tuple[str, str] | None:
    """(command, game) of the output ``out`` of any command cut before it finished (the
    request.json in its .NAME.partial; a run's names no command: simulate), or None when there
    is none, or it is not a request balance wrote (not JSON, not an object, a command not text)."""
    try:
        saved = json.loads((partial_dir(Path(out)) / "request.json").read_text("utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    command = saved.get("command", "simulate") if isinstance(saved, dict) else None
    return (command, str(saved.get("game") or "GAME")) if isinstance(command, str) else None


def as_json(value):
    """``value`` as JSON reads it back (tuples become lists): what a saved request or state
    is compared with."""
    return json.loads(json.dumps(value))


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` in one step (a temp file renamed): a cut leaves the old file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def merge_games(chunk_files: list[Path], target: Path) -> None:
    """Concatenate per-chunk Parquet files into one file, a row group each (streaming)."""
    import pyarrow.parquet as pq

    writer = None
    try:
        for path in chunk_files:
            table = pq.read_table(path)
            if writer is None:
                writer = pq.ParquetWriter(target, table.schema)
            writer.write_table(table)
    finally:
        if writer is not None:
            writer.close()


def _given(value):
    """A request value with the settings not given (None) left out of its dicts, at any depth: a
    request saved before an option existed lacks the key that a newer one holds as None. A
    strategy's ``tuned`` record (the tuned.toml its values came from) is left out too: the values
    are what a run plays, and a bare --resume gives the labels, which carry no record."""
    if isinstance(value, dict):
        return {k: _given(v) for k, v in value.items() if v is not None and k != ORIGIN}
    return [_given(v) for v in value] if isinstance(value, list) else value


ORIGIN = "tuned"  # a strategy's record of where its values came from (Strategy.tuned)


def _without_origins(value):
    """``value`` (JSON) without the strategies' ``tuned`` records, at any depth."""
    if isinstance(value, dict):
        return {k: _without_origins(v) for k, v in value.items() if k != ORIGIN}
    return [_without_origins(v) for v in value] if isinstance(value, list) else value


def _adopt_origins(saved, now) -> None:
    """Give the strategies of the request ``now`` the ``tuned`` records of the interrupted one
    (``saved``; both JSON requests' runs) where it kept one: the finished manifest then says
    where the values came from however the run was resumed (a bare --resume names labels)."""
    if not isinstance(saved, list) or not isinstance(now, list):
        return
    kept = {(run.get("players"), i, s.get("seat")): s[ORIGIN]
            for run in saved if isinstance(run, dict)
            for i, block in enumerate(run.get("seatings") or []) if isinstance(block, dict)
            for s in block.get("strategies") or [] if isinstance(s, dict) and s.get(ORIGIN) is not None}
    for run in now:
        for i, block in enumerate(run.get("seatings") or []):
            for s in block.get("strategies") or []:
                origin = kept.get((run.get("players"), i, s.get("seat")))
                if origin is not None:
                    s[ORIGIN] = origin


def _runs_by_count(runs) -> dict:
    """A request's runs (one per player count) by their count, each with its settings not given
    left out and without its seatings' game counts (what --games decides)."""
    if not isinstance(runs, list):
        return {}
    return {run.get("players"): _given({**run, "seatings": [
        {k: v for k, v in seating.items() if k not in ("first_game", "games")}
        for seating in run.get("seatings", []) if isinstance(seating, dict)]})
        for run in runs if isinstance(run, dict)}


def _same_runs(was, now) -> bool:
    """Whether two requests' runs are alike at every player count both play, their game
    counts aside."""
    was, now = _runs_by_count(was), _runs_by_count(now)
    return all(was[n] == now[n] for n in was.keys() & now.keys())


def _difference(path: str, was, now) -> str:
    """The first place where ``was`` and ``now`` (JSON values) differ, as 'PATH=WAS, now NOW':
    'at 4 players: rules.set_bonus=1, now 5', where the whole runs list, cut at 60 characters,
    showed only the start of the first run's hand (a run's place in the list is its player count;
    its seatings' game counts are --games's, named by that key)."""
    if path == "runs":  # at the first count both play whose run differs beyond its game counts
        before, after = _runs_by_count(was), _runs_by_count(now)
        n = next((n for n in before if n in after and before[n] != after[n]), None)
        if n is not None:
            return f"at {n} players: " + _difference("", before[n], after[n]).lstrip(".")
    if isinstance(was, dict) and isinstance(now, dict):
        key = next((k for k in [*was, *(k for k in now if k not in was)]
                    if _given(was.get(k)) != _given(now.get(k))), None)
        if key is not None:
            return _difference(f"{path}.{key}", was.get(key), now.get(key))
    if isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        i = next((i for i, (a, b) in enumerate(zip(was, now)) if _given(a) != _given(b)), None)
        if i is not None:
            return _difference(f"{path}[{i}]", was[i], now[i])
    return f"{path}={_short(was)}, now {_short(now)}"


def _short(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
