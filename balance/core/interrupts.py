"""Ctrl-C and SIGTERM during a run: stop promptly, but never in the middle of a step that must
be done whole.

Python's own Ctrl-C handling raises KeyboardInterrupt wherever the main thread happens to be.
Two kinds of place must not be cut that way:

- folding a finished chunk into the run's totals and checkpoint: a chunk whose counts were
  added but which was not yet marked done would be counted twice by ``--resume``;
- library code that swallows the exception: polars' conversion of numpy columns was seen to
  (the run went on to the end and exited 0, as if the signal had never come).

``interrupting()`` makes SIGINT and SIGTERM raise KeyboardInterrupt, except inside
``deferred()`` blocks, where the signal is only noted and raised when the block ends.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

_depth = 0  # how many deferred() blocks the main thread is in
_pending = False  # a signal came inside one of them
_received = signal.SIGINT  # the last signal taken: the exit status says which (128 + its number)


class FinishedThenInterrupted(KeyboardInterrupt):
    """A signal came while a finished output was being moved into place (a ``deferred()``
    block): the move completed, so the output is whole and there is nothing to resume. Its
    argument is the output's path."""


def exit_status() -> int:
    """The shell's status for a command stopped by the last signal taken: 130 for Ctrl-C
    (SIGINT), 143 for SIGTERM."""
    return 128 + int(_received)


def _on_signal(signum, frame):
    global _pending, _received
    _received = signum
    if _depth:
        _pending = True
    else:
        raise KeyboardInterrupt


@contextmanager
def deferred():
    """Run a block that a signal must not cut; a signal received inside it is raised at its
    end as KeyboardInterrupt. Nests; a no-op for signals when ``interrupting()`` is not active,
    and in other threads than the main one (signal handlers run only there)."""
    global _depth, _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    if _depth == 0 and _pending:
        _pending = False
        raise KeyboardInterrupt


@contextmanager
def interrupting():
    """Within the block, SIGTERM and SIGINT raise KeyboardInterrupt (outside ``deferred()``).

    SIGTERM is taken even when the parent blocked it (a process inherits its parent's blocked
    signals: under a CI harness that blocks SIGTERM our handler would never run). SIGINT is
    left alone when it is ignored, as a shell does for background jobs. Only the main thread
    can install handlers; elsewhere this does nothing.
    """
    global _pending, _received
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received = signal.SIGINT  # Python's own Ctrl-C, should one come outside the block
    signals = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signals.append(signal.SIGINT)
    _pending = False
    previous = {s: signal.signal(s, _on_signal) for s in signals}
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for s, handler in previous.items():
            signal.signal(s, handler)
