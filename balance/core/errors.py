"""Domain errors: bad input a user can fix. The CLI turns them into one line and exit code 2."""
import os
from collections.abc import Mapping, Set
from pathlib import Path


class BalanceError(ValueError):
    """A user-facing error: the message names the bad value and what is allowed."""


def one_of(kind: str, value: object, allowed) -> BalanceError:
    """Build the standard 'unknown X' error listing the allowed values (and the nearest,
    ``did_you_mean``)."""
    allowed = [str(a) for a in allowed]
    return BalanceError(f"unknown {kind} {value!r}; allowed: {', '.join(allowed)}{did_you_mean(value, allowed)}")


def did_you_mean(value: object, allowed) -> str:
    """' (did you mean 'Rogue'?)' when one of ``allowed`` is near ``value`` ('Rouge'), else
    '': a list of dozens of sides or cards hides a one-letter slip."""
    import difflib

    if not isinstance(value, str):
        return ""
    near = difflib.get_close_matches(value, [str(a) for a in allowed], n=1, cutoff=0.8)
    return f" (did you mean {near[0]!r}?)" if near and near[0] != value else ""


def check_int(name: str, value, low: int, high: int) -> None:
    """An integer (not a bool) in ``low..high``. A value of another type is called what it is,
    not "out of range": 1e2, "2" and true may lie inside the range, and that wording hid the
    real fault (a float, a quoted string, a bool) from the user."""
    allowed = f"allowed: integer {low}..{high}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise BalanceError(f"{name}={value!r} is not an integer; {allowed}")
    if not low <= value <= high:
        raise BalanceError(f"{name}={value!r} is out of range; {allowed}")


def plain_overrides(overrides, name: str = "overrides") -> dict:
    """Rules overrides from Python (the argument ``name``) as ``{key: plain value}`` (a manifest
    writes them as JSON); None is no override, anything but a dict a BalanceError."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise BalanceError(f"{name}={overrides!r}: give a dict of rules keys, e.g. {{'KEY': 12}} "
                           "(`balance rules GAME` lists them)")
    return {key: plain(value) for key, value in overrides.items()}


def plain(value):
    """A numpy scalar or array as the Python value it holds (``np.int64(4)`` -> 4,
    ``np.array([3, 4])`` -> [3, 4]), inside lists, tuples and dicts too (``list(np.array([3,
    4]))`` holds numpy ints); anything else unchanged. Python callers pass numbers read from
    numpy or polars, and the checks (and the manifest's JSON) take Python ints."""
    if isinstance(value, (str, bytes)):
        return value
    if hasattr(value, "tolist"):
        return value.tolist()
    if type(value) in (list, tuple):  # not a subclass: a namedtuple is not built from one iterable
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {key: plain(v) for key, v in value.items()}
    return value


def check_bool(name: str, value) -> bool:
    """True or False (numpy's too): 'no' and 1 are not, though Python would take them as true."""
    value = plain(value)
    if not isinstance(value, bool):
        raise BalanceError(f"{name}={value!r} is not True or False")
    return value


def check_callable(name: str, value) -> None:
    """None or something to call (a progress or status callback)."""
    if value is not None and not callable(value):
        raise BalanceError(f"{name}={value!r} is not a function; give one (e.g. a lambda) or None")


def check_text(name: str, value, example: str) -> str:
    """A text argument of the Python API (a game id, a strategy, a mode), else one line."""
    if not isinstance(value, str):
        raise BalanceError(f"{name}={value!r} is not text; give e.g. {example}")
    return value


def as_path(name: str, value):
    """A path argument of the Python API (str or os.PathLike) as a Path, ``~`` expanded (a shell
    expands it on the command line; pathlib does not, and polars does: a run was written to
    two places), None unchanged; anything else one line."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)) or isinstance(value, bytes):
        raise BalanceError(f"{name}={value!r} is not a path; give a str or a pathlib.Path")
    return Path(value).expanduser()


def as_list(name: str, value, example: str) -> list | None:
    """A list argument of the Python API as a list: one text is one item ("greedy" means
    ["greedy"], not its letters), any other iterable its items, None stays None; anything else
    is a BalanceError that shows ``example``."""
    if value is None or isinstance(value, str):
        return value if value is None else [value]
    # a mapping would give its keys, a set an order that changes from run to run, bytes numbers
    if isinstance(value, (Mapping, Set, bytes)):
        raise BalanceError(f"{name}={value!r}: give a list, e.g. {example}")
    try:
        return list(value)
    except TypeError:
        raise BalanceError(f"{name}={value!r}: give e.g. {example}") from None
