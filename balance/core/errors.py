"""Domain errors: bad input a user can fix. The CLI turns them into one line and exit code 2."""
from collections.abc import Mapping, Set


class BalanceError(ValueError):
    """A user-facing error: the message names the bad value and what is allowed."""


def one_of(kind: str, value: object, allowed) -> BalanceError:
    """Build the standard 'unknown X' error listing the allowed values."""
    names = ", ".join(str(a) for a in allowed)
    return BalanceError(f"unknown {kind} {value!r}; allowed: {names}")


def check_int(name: str, value, low: int, high: int) -> None:
    """An integer (not a bool) in ``low..high``. A value of another type is called what it is,
    not "out of range": 1e2, "2" and true may lie inside the range, and that wording hid the
    real fault (a float, a quoted string, a bool) from the user."""
    allowed = f"allowed: integer {low}..{high}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise BalanceError(f"{name}={value!r} is not an integer; {allowed}")
    if not low <= value <= high:
        raise BalanceError(f"{name}={value!r} is out of range; {allowed}")


def plain_overrides(overrides) -> dict:
    """Rules overrides from Python as ``{key: plain value}`` (a manifest writes them as JSON);
    None is no override, anything but a dict a BalanceError."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise BalanceError(f"overrides={overrides!r}: give a dict of rules keys, e.g. {{'vp_to_win': 12}}")
    return {key: plain(value) for key, value in overrides.items()}


def plain(value):
    """A numpy scalar or array as the Python value it holds (``np.int64(4)`` -> 4,
    ``np.array([3, 4])`` -> [3, 4]); anything else unchanged. Python callers pass numbers read
    from numpy or polars, and the checks (and the manifest's JSON) take Python ints."""
    return value.tolist() if hasattr(value, "tolist") and not isinstance(value, (str, bytes)) else value


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
