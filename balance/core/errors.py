"""Domain errors: bad input a user can fix. The CLI turns them into one line and exit code 2."""


class BalanceError(ValueError):
    """A user-facing error: the message names the bad value and what is allowed."""


def one_of(kind: str, value: object, allowed) -> BalanceError:
    """Build the standard 'unknown X' error listing the allowed values."""
    names = ", ".join(str(a) for a in allowed)
    return BalanceError(f"unknown {kind} {value!r}; allowed: {names}")


def check_int(name: str, value, low: int, high: int) -> None:
    """An integer (not a bool) in ``low..high``, else the standard out-of-range error."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BalanceError(f"{name}={value!r} is out of range; allowed: integer {low}..{high}")
