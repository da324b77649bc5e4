"""balance.core._jit: kernel functions compile once across processes (the lock file)."""
import os
import subprocess
import sys
import textwrap

import pytest

from balance.core import _jit
from balance.core._jit import CYCLE_COUNTER


MODULE = '''
from balance.core._jit import jit


@jit
def work(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total
'''

# Each process waits for the start file, so both ask for the cold function at the same moment,
# then reports whether it compiled the function or loaded it from the cache.
RUNNER = '''
import os, sys, time
sys.path.insert(0, {folder!r})
import kernel_for_lock_test as k
while not os.path.exists({start!r}):
    time.sleep(0.005)
assert k.work(1000) == sum(i * i % 7 for i in range(1000))
print(sum(k.work.stats.cache_misses.values()), sum(k.work.stats.cache_hits.values()))
'''


def test_two_processes_asking_at_once_compile_a_function_once(tmp_path):
    """Two processes call one cold cached function together: exactly one compiles it, the
    other waits for the lock and loads it from the cache. Without the lock both would compile
    whenever their compiles overlap (both start on the same signal); with it the count is one
    whatever the timing, so the test cannot fail by chance."""
    (tmp_path / "kernel_for_lock_test.py").write_text(MODULE)
    start = tmp_path / "start"
    code = textwrap.dedent(RUNNER.format(folder=str(tmp_path), start=str(start)))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # cache beside the module
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    start.touch()
    results = [tuple(map(int, p.communicate(timeout=120)[0].split())) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sorted(results) == [(0, 1), (1, 0)]
    assert (tmp_path / "__pycache__" / "kernel_for_lock_test.work.lock").is_file()


def test_functions_of_one_name_in_two_modules_of_a_folder_compile(tmp_path):
    """Each faction module of the Smash Up kernel has a ``want``, and one calls another: the lock
    files are named by module too, or the caller's compile would wait for its own lock (this
    hung the suite once)."""
    (tmp_path / "first_for_lock_test.py").write_text(MODULE)
    (tmp_path / "second_for_lock_test.py").write_text(textwrap.dedent('''
        from balance.core._jit import jit
        from first_for_lock_test import work as first_work


        @jit
        def work(n):
            return first_work(n) + 1
    '''))
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import second_for_lock_test as m; "
            "print(m.work(10))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == [str(sum(i * i % 7 for i in range(10)) + 1)]


def test_novec_kernels_compile_without_the_loop_vectorizer_and_restore_numba_settings(tmp_path, monkeypatch):
    """Smash Up's kernel (``jit_widened``, entry ``jit_novec``) compiles without LLVM's loop
    vectorizer, which cost a tenth of its cold compile and sped nothing up; plain ``jit`` keeps
    it (avengers-cards' greedy kernel runs 2.3x slower without). Seen through the pass builders
    numba creates while each cold function compiles; numba's own setting is back afterwards."""
    import importlib
    import numba
    import numba.core.codegen as codegen

    (tmp_path / "vectorize_for_test.py").write_text(MODULE + textwrap.dedent('''
        from balance.core._jit import jit_novec, jit_widened


        @jit_novec
        def work_novec(n):
            return work(n) + 1


        @jit_widened
        def work_widened(n):
            total = 0
            for i in range(n):
                total += i % 3
            return total
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    real = codegen.create_pass_builder

    def spy(tm, opt=2, loop_vectorize=False, slp_vectorize=False):
        seen.append(bool(loop_vectorize))
        return real(tm, opt=opt, loop_vectorize=loop_vectorize, slp_vectorize=slp_vectorize)

    monkeypatch.setattr(codegen, "create_pass_builder", spy)
    before = numba.config.LOOP_VECTORIZE
    k = importlib.import_module("vectorize_for_test")
    found = {}
    for name, fn, n in (("jit", k.work, 10), ("jit_novec", k.work_novec, 10), ("jit_widened", k.work_widened, 9)):
        seen.clear()
        fn(n)
        found[name] = (len(seen) > 0, any(seen))
    assert found == {"jit": (True, True), "jit_novec": (True, False), "jit_widened": (True, False)}
    assert numba.config.LOOP_VECTORIZE == before


@pytest.mark.skipif(not CYCLE_COUNTER, reason="probes read x86's time-stamp counter")
def test_probes_count_cycles_and_calls_and_are_off_unless_asked():
    """``cycles`` reads a counter that moves forward; ``probe_add`` adds the cycles since the
    reading, one call and the yes flag to its row; PROBE is off in a plain process (so the
    kernels' ``if PROBE:`` blocks are dropped)."""
    import numba
    import numpy as np

    from balance.core._jit import PROBE, cycles, probe_add

    @numba.njit
    def probed(rows, n):
        for i in range(n):
            t0 = cycles()
            x = 0
            for j in range(1000):
                x += j * i % 7
            probe_add(rows, i % 2, t0, 1 if x % 2 else 0)
        return cycles()

    rows = np.zeros((2, 3), np.int64)
    before = probed(rows, 0)
    assert probed(rows, 10) > before
    assert rows[:, 1].tolist() == [5, 5]
    assert (rows[:, 0] > 0).all()
    expected_yes = [sum(1 for i in range(k, 10, 2) if sum(j * i % 7 for j in range(1000)) % 2) for k in (0, 1)]
    assert rows[:, 2].tolist() == expected_yes
    assert PROBE is False


def test_probes_refuse_to_share_the_plain_cache():
    """BALANCE_PROBE=1 without a NUMBA_CACHE_DIR of its own stops at import with a message that
    says why: probed kernels would otherwise be cached beside the plain ones."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["BALANCE_PROBE"] = "1"
    out = subprocess.run([sys.executable, "-c", "import balance.core._jit"], env=env,
                         capture_output=True, text=True)
    assert out.returncode != 0
    assert "NUMBA_CACHE_DIR" in out.stderr


WRAP_MODULE = '''
from balance.core._jit import jit, jit_novec, jit_widened


@jit
def read_plain(a, i):
    return a[i]


@jit_widened
def read_widened(a, i):
    return a[i]


@jit_widened
def read_both(a, i):
    return read_plain(a, i) * 100 + a[i]  # read_plain is compiled while this one is typed


@jit_novec
def entry(a, i):
    return read_widened(a, i)
'''

WRAP_RUNNER = '''
import sys
sys.path.insert(0, {folder!r})
import numpy as np
import wrap_for_test as k
a = np.arange(5) + 10


def outcome(fn, i):
    try:
        return fn(a, i)
    except IndexError:
        return "IndexError"


print(outcome(k.read_plain, -1), outcome(k.read_widened, -1), outcome(k.read_widened, 5),
      outcome(k.read_both, -1), outcome(k.read_both, 2), outcome(k.entry, -1), outcome(k.entry, 4))
'''


def test_widened_kernels_compile_without_negative_index_wraparound(tmp_path):
    """``jit_widened`` functions read ``a[i]`` with no ``i < 0`` wraparound (a compare and a
    select at every index; Smash Up x1.17 without them); every other function keeps it, also
    one compiled while a widened caller is typed. Seen under NUMBA_BOUNDSCHECK=1 (as
    ``scripts/boundscheck.py`` runs the kernels): there a widened ``a[-1]`` is an IndexError, a
    plain one the last element."""
    (tmp_path / "wrap_for_test.py").write_text(WRAP_MODULE)
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    code = textwrap.dedent(WRAP_RUNNER.format(folder=str(tmp_path)))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["14", "IndexError", "IndexError", "IndexError", "1212", "IndexError", "14"]


UNROLL_RUNNER = r'''
import re
import llvmlite.binding
import numba
import numpy as np
from balance.core import _jit

numba.config.LOOP_VECTORIZE = numba.config.SLP_VECTORIZE = False  # as in _lean_llvm: unrolling alone differs


def code(fn):
    """The machine instructions of ``fn`` compiled now, without labels, directives and names."""
    f = numba.njit(fn)
    f(np.arange(8), np.arange(8), 5)
    lines = f.inspect_asm(f.signatures[0]).splitlines()
    return [re.sub(r"_Z\w+", "", x) for x in lines if x.startswith("\t") and not x.startswith("\t.")]


def loop():  # a fresh function each time: numba compiles it anew
    def body(a, b, n):
        s = 0
        for i in range(n):  # a count known only at run time
            s += a[b[i]] * 3 + (a[i] >> 2)
        return s
    return body


before = code(loop())
with _jit._lean_llvm():
    with _jit._lean_llvm():  # a callee's compile, ended before its caller is optimised
        pass
    lean = code(loop())
after = code(loop())
llvmlite.binding.set_option("", "-unroll-runtime=true")
forced = code(loop())  # runtime unrolling on, whatever this CPU's default
print(_jit._host_unrolls(), forced == before, len(forced) > len(lean), lean == before, after == before)
'''


def test_lean_llvm_compiles_without_runtime_unrolling_and_restores_it():
    """Inside ``_lean_llvm`` (the widened kernels' compiles) a loop of a run-time count is not
    unrolled (Smash Up: 3% fewer instructions a game), also after a nested compile ended;
    after it, a plain function compiles to the same code as before it: LLVM's flag, global and
    never unset again, is set back to this CPU's default, which ``_host_unrolls`` reads (on
    for most x86 models; off for AMD's Zen 2, where setting it on made every later compile of the
    process unroll, and this test failed)."""
    out = subprocess.run([sys.executable, "-c", UNROLL_RUNNER], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    host_unrolls, default_is_forced, lean_shorter_than_forced, lean_is_default, restored = out.stdout.split()
    assert host_unrolls == default_is_forced  # the probe reads the CPU's default as numba's compile shows it
    assert lean_shorter_than_forced == "True"  # the loop is runtime-unrolled when forced, not when lean
    assert lean_is_default == ("False" if host_unrolls == "True" else "True")
    assert restored == "True"  # after it, the code of the CPU's own default (on Zen 2: off)


def test_a_changed_source_clears_the_cache_where_numba_keeps_it(tmp_path, monkeypatch):
    """drop_stale_cache clears a package's compiled functions when one of its sources changed,
    in the folder numba really caches them in (a function is compiled there and found): beside
    the sources, and under NUMBA_CACHE_DIR when it is set, where they were never cleared and a
    changed helper ran as its old machine code."""
    import importlib

    import numba

    from balance.core import _jit

    package = tmp_path / "stale_pkg"
    package.mkdir()
    kernel = package / "stale_kernel.py"
    kernel.write_text("import numba\n\n\n@numba.njit(cache=True)\ndef work(n):\n    return n + 1\n")
    helper = package / "stale_helper.py"
    monkeypatch.syspath_prepend(str(package))
    for cache_dir in ("", str(tmp_path / "numba-cache")):
        monkeypatch.setattr(numba.config, "CACHE_DIR", cache_dir)
        folder = _jit._numba_cache_folder(kernel)
        assert (folder == package / "__pycache__") == (cache_dir == "")
        helper.write_text("y = 1\n")
        _jit.drop_stale_cache(str(kernel))  # the sources' first stamp
        module = importlib.reload(importlib.import_module("stale_kernel"))
        assert module.work(1) == 2
        compiled = sorted(folder.glob("stale_kernel.work-*.nb[ic]"))
        assert len(compiled) == 2  # numba cached it here: its index and its code
        _jit.drop_stale_cache(str(kernel))  # nothing changed: kept
        assert all(f.exists() for f in compiled)
        helper.write_text("y = 2\n")
        _jit.drop_stale_cache(str(kernel))  # a source changed: cleared
        assert not any(f.exists() for f in compiled)


@pytest.mark.skipif(_jit.fcntl is None, reason="no fcntl (not POSIX): compiles are never locked")
def test_a_file_system_without_locks_compiles_unlocked(tmp_path, monkeypatch):
    """Where flock fails (NFS without lockd, some FUSE mounts: ENOLCK), the compile goes on
    without the lock instead of every cached kernel's compile raising."""
    import errno

    from balance.core import _jit

    def no_locks(*args):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(_jit.fcntl, "flock", no_locks)
    ran = []
    with _jit._file_lock(str(tmp_path), "kernel.work.lock"):
        ran.append(True)
    assert ran == [True]
