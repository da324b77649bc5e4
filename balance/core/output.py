"""Run directories written atomically: everything goes to a hidden temp directory next to the
target, which is renamed into place only when complete. A crash or Ctrl-C leaves no
half-written output, and an existing directory is replaced only with ``force``."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polars as pl

from balance.core.errors import BalanceError


# The file each command's finished output holds (Checkpointer.finished of simulate, tune and
# the analysis commands): --force replaces a directory only when it holds one of them, written
# by balance (below), and nothing balance does not write.
FINISHED_OUTPUTS = ("manifest.json", "tune.json", "comparison.json", "ladder.md", "matchups.md", "restrict.md")
# Every entry balance writes into an output directory besides a run's tables (which its
# manifest lists) and figures/*.png.
OWN_FILES = frozenset({
    "manifest.json", "games.parquet", "report.md", "report.html",  # simulate (+ report into the run)
    "tune.json", "tuned.toml", "history.parquet", "validation.parquet", "convergence.png",  # tune
    "comparison.json",  # compare (+ report.md, report.html)
    "ladder.md", "ladder.html", "rungs.parquet", "skill.parquet",
    "matchups.md", "matchups.html", "matrix.parquet",
    "restrict.md", "restrict.html", "restrict.parquet"})
# Where a report is staged in the directory it is written to (output.publish); a killed report
# leaves it behind, and the next report, or --force, clears it.
REPORT_STAGING = ".report.partial"
# What file managers leave in any folder they open (macOS Finder, Windows Explorer).
OS_LITTER = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
# A Markdown marker is balance's when the table written with it is there too.
_MARKDOWN_WITH = {"ladder.md": "rungs.parquet", "matchups.md": "matrix.parquet", "restrict.md": "restrict.parquet"}


def check_target(out: Path, force: bool) -> None:
    """Fail early (before any simulation) if ``out`` cannot be written, or if --force would
    delete anything but an earlier output of balance: a typo like --out ~/Documents, a folder
    that happens to hold a file named manifest.json (a web app's), or a run directory the user
    added notes to. --force replaces the whole directory, so everything in it must be balance's."""
    _check_own_directory(out)
    if out.is_symlink():  # the finished output is renamed into place: it would replace the link
        raise BalanceError(f"--out {str(out)!r} is a symbolic link; give the folder it points to "
                           f"({str(out.resolve())!r}) or a new one")
    if out.exists() and not out.is_dir():
        raise BalanceError(f"--out {str(out)!r} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise BalanceError(f"--out {str(out)!r} exists and is not empty; use --force to replace it")
        problem = not_replaceable(out)
        if problem:
            raise BalanceError(f"{problem}; --force replaces only an output of balance: "
                               "move it out, or give a new directory")
    existing = next(q for q in out.absolute().parents if q.exists())
    if not existing.is_dir():  # else the error named the hidden .NAME.partial beside --out
        raise BalanceError(f"--out {str(out)!r} cannot be made: {str(existing)!r} is a file, not a folder")
    parent = _existing_parent(out)
    if not os.access(parent, os.W_OK):
        raise BalanceError(f"cannot write under {str(parent)!r}: permission denied")


def not_replaceable(out: Path) -> str | None:
    """Why replacing ``out`` whole would delete something balance did not write, or None when
    it is absent, empty, or an output of balance and nothing else. Asked when a run starts
    with --force and again just before any run (fresh or resumed) swaps its output in: a
    directory made at --out while the run was cut, or notes added to the old output during a
    long run, are not deleted either."""
    if not out.exists() and not out.is_symlink():
        return None
    if not out.is_dir() or out.is_symlink():
        return f"--out {str(out)!r} exists and is not a directory"
    if not any(e.name not in OS_LITTER for e in out.iterdir()):
        return None
    if not _holds_finished_output(out):
        return (f"--out {str(out)!r} holds no finished output of simulate, tune or an analysis (none of "
                f"{', '.join(FINISHED_OUTPUTS)} as balance writes it)")
    strays = _not_written_by_balance(out)
    if strays:
        shown = ", ".join(strays[:5]) + (f" and {len(strays) - 5} more" if len(strays) > 5 else "")
        return f"--out {str(out)!r} also holds what balance did not write ({shown})"
    return None


def _json_object(path: Path) -> dict | None:
    """The JSON object in ``path``, or None (no file, not JSON, not an object, unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    return data if isinstance(data, dict) else None


def _holds_finished_output(out: Path) -> bool:
    """A marker balance wrote: a JSON one naming the game, its rules version and balance's
    version (every manifest, tune.json and comparison.json does), or a Markdown one beside its table."""
    for name in ("manifest.json", "tune.json", "comparison.json"):
        data = _json_object(out / name)
        if data is not None and {"game", "rules_version", "package_version"} <= data.keys():
            return True
    return any((out / md).is_file() and (out / table).is_file() for md, table in _MARKDOWN_WITH.items())


def _not_written_by_balance(out: Path) -> list[str]:
    """The entries of ``out`` that no balance command writes (sorted, directories with a '/')."""
    manifest = _json_object(out / "manifest.json") or {}
    tables = manifest.get("tables")
    own = OWN_FILES | ({f"{name}.parquet" for name in tables} if isinstance(tables, dict) else set())
    strays = []
    for entry in sorted(out.iterdir()):
        if entry.is_symlink():
            strays.append(entry.name)
        elif entry.is_dir():
            if entry.name == REPORT_STAGING:
                continue
            if entry.name != "figures" or any(
                    f.name not in OS_LITTER and (f.suffix != ".png" or not f.is_file() or f.is_symlink())
                    for f in entry.iterdir()):
                strays.append(entry.name + "/")
        elif entry.name not in own | OS_LITTER:
            strays.append(entry.name)
    return strays


def _check_own_directory(out: Path) -> None:
    """``out`` is replaced whole and built beside it as ``.NAME.partial``: the current directory
    (``--out ""`` reads as ".") or one of its parents would be replaced under the user's feet,
    and its partial directory would be named "..partial" or worse."""
    target, here = out.resolve(), Path.cwd().resolve()
    shown = "'' (or '.')" if str(out) == "." else repr(str(out))
    allowed = "allowed: a directory of its own, e.g. --out runs/NAME"
    if target == here or target in here.parents:
        raise BalanceError(f"--out {shown} is the current directory or one of its parents, which would be "
                           f"replaced whole; {allowed}")
    if out.name == "..":
        raise BalanceError(f"--out {shown} ends in '..'; {allowed}")


def swap_into_place(done: Path, out: Path) -> None:
    """Rename the finished directory ``done`` to ``out``, replacing any previous ``out``:
    at every instant ``out`` is the old complete output or the new one."""
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    done.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def publish(staged: Path, out: Path, stale=()) -> None:
    """Move every file under ``staged`` to the same place under ``out`` (each replaced in one
    step), remove ``stale`` (paths under ``out`` the new output no longer has), then remove
    ``staged``. For outputs written into a directory that holds other things (a report in its
    run directory): no file is ever half-written, and a signal cannot stop the moving half way."""
    from balance.core.interrupts import deferred

    files = sorted(p for p in staged.rglob("*") if p.is_file())
    for path in files:  # everything in the way is found before anything moves
        _check_writable(out, path.relative_to(staged))
    with deferred():
        for path in files:
            target = out / path.relative_to(staged)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
        for path in stale:
            path.unlink(missing_ok=True)
        shutil.rmtree(staged, ignore_errors=True)


def _check_writable(out: Path, relative: Path) -> None:
    """BalanceError naming what stands where ``out / relative`` (a file) must go: a directory
    of that name, or a file where one of its folders must be."""
    target = out / relative
    if target.is_dir():
        raise BalanceError(f"cannot write {str(target)!r}: a directory of that name is in the way; move it")
    for folder in list(reversed(relative.parents))[1:]:  # out/figures, ... (not out itself)
        if (out / folder).exists() and not (out / folder).is_dir():
            raise BalanceError(f"cannot write {str(target)!r}: {str(out / folder)!r} is a file, where a folder "
                               "must be; move it")


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")


def write_tables(directory: Path, tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    """Write each table as NAME.parquet; returns each file's ``file_digest`` (the manifest keeps
    them, so a table copied in from another run, or edited, is not read as this run's)."""
    for name, table in tables.items():
        table.write_parquet(directory / f"{name}.parquet")
    return {name: file_digest(directory / f"{name}.parquet") for name in tables}


def file_digest(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _existing_parent(path: Path) -> Path:
    p = path.absolute()
    while not p.exists():
        p = p.parent
    return p if p.is_dir() else p.parent
