"""Domain errors: bad input a user can fix. The CLI turns them into one line and exit code 2."""


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
