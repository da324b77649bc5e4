"""Domain errors: bad input a user can fix. The CLI turns them into one line and exit code 2."""


class BalanceError(ValueError):
    """A user-facing error: the message names the bad value and what is allowed."""


def one_of(kind: str, value: object, allowed) -> BalanceError:
    """Build the standard 'unknown X' error listing the allowed values."""
    names = ", ".join(str(a) for a in allowed)
    return BalanceError(f"unknown {kind} {value!r}; allowed: {names}")
