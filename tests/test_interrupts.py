"""Ctrl-C and SIGTERM during a run: immediate outside deferred blocks, postponed inside them."""
import os
import signal

import pytest

from balance.core.interrupts import deferred, interrupting


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


def test_sigterm_during_an_analysis_exits_130_and_writes_nothing(tmp_path):
    """The CLI's analysis commands (compare, restrict, matchups, ladder) share _run_analysis."""
    import typer

    from balance import cli

    def run(advance):
        send(signal.SIGTERM)
        raise AssertionError("SIGTERM did not stop the run")

    def write_then_get_killed(result, directory):
        (directory / "half.md").write_text("half")
        send(signal.SIGTERM)
        raise AssertionError("SIGTERM did not stop the writing")

    def unhandled(signum, frame):  # what the test meets if _run_analysis takes no signals
        raise RuntimeError("SIGTERM reached the default handler")

    previous = signal.signal(signal.SIGTERM, unhandled)
    try:
        for kwargs in ({"run": run, "write": None},
                       {"run": lambda advance: 1, "write": write_then_get_killed}):
            with pytest.raises(typer.Exit) as stopped:
                cli._run_analysis(tmp_path / "out", False, True, 1, **kwargs)
            assert stopped.value.exit_code == 130
            assert list(tmp_path.iterdir()) == []  # neither the output nor its temp directory
    finally:
        signal.signal(signal.SIGTERM, previous)


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
