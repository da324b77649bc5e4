"""The one place that sets numba options for every kernel.

cache=True: compiled code is written next to the module, so only the first run compiles.
nogil=True: chunks can run on several threads of one process.
error_model='numpy': division never raises inside kernels (inputs are validated before).
PROBE: cycle probes compiled into a kernel only for ``scripts/phases.py`` (``cycles``).
Every kernel function compiles under a file lock (``_LockedDispatcher``): processes that need
the same function at once (test workers, a dask cluster's workers on one machine) compile it
once and the others load it from the cache.
``jit_widened`` kernels and ``jit_novec`` (their entry points) compile without LLVM's loop and
SLP vectorizers and without runtime loop unrolling (``_lean_llvm``): Smash Up's code is branches
over small integer arrays, which they do not speed up, and they took about a tenth of its cold
compile. avengers-cards' greedy kernel runs 2.3x slower without the vectorizers, so the other
decorators keep them (docs/BENCHMARKS.md).
``jit_widened`` kernels also compile without negative-index wraparound (``_NO_WRAPAROUND``):
they promise that every array index is in range, ``scripts/boundscheck.py`` checks it.
"""
import os
import platform
from contextlib import contextmanager, nullcontext
from functools import partial

import numba
import numba.extending
import numpy as np
import llvmlite.binding as llvm
from llvmlite import ir
from numba.core import cgutils, lowering, sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher
from numba.np import arrayobj

try:
    import fcntl
except ImportError:  # not POSIX: no lock, each process compiles for itself
    fcntl = None


_HELD: set = set()  # the lock files this process holds (a compile may start another inside)


@contextmanager
def _file_lock(folder: str, name: str):
    """An exclusive lock on the file ``folder/name`` across processes, held until exit; a no-op
    when this process holds it already (a second lock from the same process would wait for
    itself)."""
    path = os.path.join(folder, name)
    if path in _HELD:
        yield
        return
    try:
        os.makedirs(folder, exist_ok=True)
        handle = open(path, "a")
    except OSError:  # a read-only install (numba then caches elsewhere): compile unlocked
        yield
        return
    with handle:
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:  # a file system without locks (NFS without lockd, some FUSE mounts): unlocked
            pass
        _HELD.add(path)
        try:
            yield
        finally:
            _HELD.discard(path)


_LEAN_DEPTH = [0]  # how many ``_lean_llvm`` compiles are open (under numba's compiler lock)


@contextmanager
def _lean_llvm():
    """LLVM without its vectorizers and without runtime loop unrolling, for one compile.

    numba's pass builders read the vectorizer flags at every compile; they are restored on
    exit, so numba code outside the kernels keeps the user's settings. Runtime unrolling
    copies a loop whose count is known only at run time several times over, with tests to
    enter and leave the copies: these kernels' loops run over a few players, slots or cards,
    so the tests cost more than they save (Smash Up: 3% fewer instructions a game without it,
    docs/BENCHMARKS.md). Loops of a constant count are still unrolled in full. LLVM's flag is
    one global setting that cannot be unset again: on exit it is set to what LLVM chooses for
    this CPU unset (``_host_unrolls``: on for most x86 models, Intel's, AMD's Zen 3 and 4 and
    ``generic``; off for AMD's Zen 2). Where that is off, later compiles of the process get
    exactly the code they would have got without it. Where it is on, one kind of loop still
    differs: LLVM unset leaves a loop that calls a function as it is, and the flag set on
    unrolls it too, so such loops compiled later in the process (and cached so) are unrolled;
    the results are the same, the speed may not be.
    Compiles nest (a kernel function compiles its callees while it is typed, and is optimised
    after them), so the flag is set back only when the outermost one ends.
    """
    if _LEAN_DEPTH[0] == 0:
        _host_unrolls()  # read before the flag is first set (and before any setting changes)
    saved = numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE
    numba.config.LOOP_VECTORIZE = numba.config.SLP_VECTORIZE = False
    if _LEAN_DEPTH[0] == 0:
        llvm.set_option("", "-unroll-runtime=false")
    _LEAN_DEPTH[0] += 1
    try:
        yield
    finally:
        numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE = saved
        _LEAN_DEPTH[0] -= 1
        if _LEAN_DEPTH[0] == 0:
            llvm.set_option("", f"-unroll-runtime={'true' if _host_unrolls() else 'false'}")


# A loop of a run-time count (the sum of a[i] * 3 for i < n) in LLVM's IR: _host_unrolls' probe
_PROBE_LOOP = r"""
define i64 @probe(ptr %a, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %s = phi i64 [0, %entry], [%s1, %loop]
  %p = getelementptr i64, ptr %a, i64 %i
  %x = load i64, ptr %p
  %y = mul i64 %x, 3
  %s1 = add i64 %s, %y
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i64 [0, %entry], [%s1, %loop]
  ret i64 %r
}
"""
_HOST_UNROLLS: list = []  # [bool], once read in this process


def _host_unrolls() -> bool:
    """Whether LLVM, its runtime-unrolling flag unset, unrolls a loop of a run-time count for
    the CPU numba compiles for. LLVM decides it from the CPU's scheduling model (whether it
    gives a loop buffer size), which llvmlite does not expose; so the
    probe optimises a small loop as numba would (its target machine, -O3, no vectorizers) with
    the flag unset and then on, and compares (a few ms). Read once a process, before
    ``_lean_llvm`` first sets the flag: once set, it is never unset again."""
    if not _HOST_UNROLLS:
        from numba.core.registry import cpu_target

        machine = cpu_target.target_context.codegen()._tm  # numba's (host CPU, or NUMBA_CPU_NAME)

        def optimised() -> str:
            module = llvm.parse_assembly(_PROBE_LOOP)
            options = llvm.create_pipeline_tuning_options()
            options.speed_level, options.loop_vectorization, options.slp_vectorization = 3, False, False
            passes = llvm.create_pass_builder(machine, options)
            passes.getModulePassManager().run(module, passes)
            return str(module)

        unset = optimised()
        llvm.set_option("", "-unroll-runtime=true")
        _HOST_UNROLLS.append(optimised() == unset)
    return _HOST_UNROLLS[0]



# Negative-index wraparound. numba reads ``a[i]`` for a signed ``i`` as ``a[i + n if i < 0 else
# i]``: a compare and a select at every access whose index LLVM cannot prove non-negative, which
# is most accesses of a kernel that indexes arrays by values read from other arrays (Smash Up's
# cards, lists and slots). Python's ``a[-1]`` is never meant in the ``jit_widened`` kernels, so
# their functions compile without it: Smash Up's greedy games ran x1.17 faster, the same games
# (docs/BENCHMARKS.md). The setting follows the function being lowered (``_NO_WRAPAROUND``,
# with the helpers IR-inlined into it), not the compile around it: numba's own implementations
# compiled meanwhile (and cached for every later caller) keep Python's indexing. numba looks
# ``fix_integer_index`` up in its module at each use, so replacing the module's function once
# reaches every array access.
_NO_WRAPAROUND: set = set()  # (module, qualname) of the functions compiled without wraparound
_WRAPAROUND = [True]  # the setting of the function being lowered now
_numba_fix_integer_index = arrayobj.fix_integer_index
_numba_lower = lowering.BaseLower.lower


def _fix_integer_index(context, builder, idxty, idx, size):
    if _WRAPAROUND[0] or not idxty.signed:
        return _numba_fix_integer_index(context, builder, idxty, idx, size)
    return context.cast(builder, idx, idxty, types.intp)


def _lower(self):
    """``BaseLower.lower`` with the function's own wraparound setting, the caller's restored
    after (numba lowers a subroutine in the middle of its caller)."""
    saved = _WRAPAROUND[0]
    _WRAPAROUND[0] = (self.fndesc.modname, self.fndesc.qualname) not in _NO_WRAPAROUND
    try:
        return _numba_lower(self)
    finally:
        _WRAPAROUND[0] = saved


arrayobj.fix_integer_index = _fix_integer_index
lowering.BaseLower.lower = _lower


class _LockedDispatcher(CPUDispatcher):
    """A dispatcher whose compile holds a lock file beside its cache, one per function.

    Cold, a large kernel's entry point can take minutes to compile; two processes that start
    it together would both spend them. numba's ``compile`` tries the cache first, so
    the process that waited for the lock then loads what the first one wrote. The in-process
    compiler lock is taken first, so threads and files always lock in one order; the kernels'
    call graphs have no cycle, so processes cannot deadlock either. The lock is named like
    numba's cache files, by module and name: functions of one name in several modules of a
    folder may call each other."""

    vectorize = True  # False: compiled without LLVM's vectorizers (``_lean_llvm``)

    def compile(self, sig):
        folder = getattr(self._cache, "_cache_path", None)  # None: not cached (cache=False)
        args, _ = sigutils.normalize_signature(sig)
        if folder is None or tuple(args) in self.overloads:
            return super().compile(sig)
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}.lock"
        with global_compiler_lock, _file_lock(folder, name), \
                (nullcontext() if self.vectorize else _lean_llvm()):
            return super().compile(sig)


def _locked(make, vectorize=True):
    """A numba decorator whose dispatchers compile under the lock (``_LockedDispatcher``), with
    LLVM's vectorizers or without them."""
    def decorate(fn):
        dispatcher = make(fn)
        if isinstance(dispatcher, CPUDispatcher):  # not under NUMBA_DISABLE_JIT (a plain function)
            dispatcher.__class__ = _LockedDispatcher
            dispatcher.vectorize = vectorize
        return dispatcher
    return decorate


jit = _locked(partial(numba.njit, cache=True, nogil=True, error_model="numpy"))

# ``jit`` for the entry point of a ``jit_widened`` kernel: its library links and optimises the
# whole kernel again, so it too compiles with their LLVM settings (``_lean_llvm``).
jit_novec = _locked(partial(numba.njit, cache=True, nogil=True, error_model="numpy"), vectorize=False)

# Hot helpers called per card or per fight: inlined at the Numba IR level, so the kernel's
# loops see their bodies. A plain jitted call passes each array as a struct (7 words) with
# reference counting on entry and exit, which cost more than the helpers' work (measured: the
# resolve_fight call was about 120 ns of a 2.8 us game). Inlined helpers must not make array
# views (``a[p]``) in hot paths: each view is an atomic incref/decref pair; pass tuples or indices.
jit_inline = _locked(partial(numba.njit, cache=True, nogil=True, error_model="numpy", inline="always"))

# Hot loops that allocate nothing: compiled without the NRT, so no reference counting at all.
# IR-inlined helpers otherwise copy array arguments into new variables, and each copy is an
# atomic incref/decref pair (measured: the inlined game loop ran 3x slower with the NRT on).
# Callers allocate the arrays in a thin jit function and call the kernel once per chunk.
jit_nonrt = _locked(partial(numba.njit, cache=True, nogil=True, error_model="numpy", _nrt=False))


class _WidenedDispatcher(_LockedDispatcher):
    """A dispatcher that compiles one specialization per argument *type*: a constant argument
    at a call site (``f(st, 0)``, typed ``Literal[int](0)``) is widened to its plain type
    (``int64``) before compiling. numba's own dispatcher compiles a new copy of the callee (and
    of everything it calls) for every distinct constant it is called with from jitted code."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def jit_widened(fn):
    """The jit of a kernel of many mutually calling functions (a whole game's), made to compile in
    minutes rather than a quarter of an hour: one specialization per argument types
    (``_WidenedDispatcher``: constants passed as arguments do not multiply copies) and no NRT
    (no reference counting code at every call and array unpacking: about half of each
    function's compile time, and a faster kernel). Functions compiled this way allocate
    nothing: scratch arrays come from ``stack_empty`` / ``stack_zeros``; the caller from
    Python allocates the state. They index arrays only in range: ``a[-1]`` is not the last
    element but memory before the array (no wraparound, ``_NO_WRAPAROUND``; checked by
    ``scripts/boundscheck.py``)."""
    dispatcher = jit_nonrt(fn)
    if isinstance(dispatcher, _LockedDispatcher):  # not under NUMBA_DISABLE_JIT (a plain function)
        dispatcher.__class__ = _WidenedDispatcher
        dispatcher.vectorize = False
        _NO_WRAPAROUND.add((fn.__module__, fn.__qualname__))
    return dispatcher


def drop_stale_cache(module_file: str, recursive: bool = False) -> None:
    """Delete a game package's numba cache when any source it inlines has changed.

    numba keys a cached function on its own file only, so a kernel that inlines helpers from
    strategies.py, tokens.py or rng.py would keep running stale code after those change. We
    hash every source the package's kernels read and clear the cache when the hash moves.
    Call at the top of a kernel module, before anything is compiled. ``recursive``: the
    kernel spans subpackages (every ``.py`` below the module's folder is hashed and the cache
    of every folder below it cleared; call it from the kernel package's ``__init__``). The
    cache is where numba keeps it (``_numba_cache_folder``): beside the sources, or under
    NUMBA_CACHE_DIR or the user's cache folder, where it would otherwise never be cleared.
    """
    import hashlib
    from pathlib import Path

    module = Path(os.path.abspath(module_file))  # as numba names it (symlinks not resolved)
    package = module.parent
    root = Path(__file__).resolve().parent
    own = sorted(package.rglob("*.py") if recursive else package.glob("*.py"))
    sources = own + [root / "_jit.py", root / "rng.py", root / "kit.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    try:
        stamp = _numba_cache_folder(module) / "numba-sources.sha256"
        if stamp.is_file() and stamp.read_text() == digest:
            return
        for folder in {_numba_cache_folder(p) for p in own}:
            for f in folder.glob("*.nb[ic]"):
                f.unlink()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # no writable cache: numba then compiles every time, and nothing is stale


def _numba_cache_folder(source):
    """The folder numba caches the functions of the file ``source`` in (NUMBA_CACHE_DIR; else
    the ``__pycache__`` beside it when writable; else the user's cache folder; or the locators
    NUMBA_CACHE_LOCATOR_CLASSES names), asked of numba's own cache for a stand-in function of
    that file: the folder depends on the file, not on the function."""
    from pathlib import Path

    from numba.core import caching

    namespace: dict = {}
    exec(compile("def stand_in():\n    pass\n", str(source), "exec"), namespace)
    try:
        return Path(caching.CompileResultCacheImpl(namespace["stand_in"]).locator.get_cache_path())
    except RuntimeError:  # no folder numba can cache in: the in-tree one (absent) is as good
        return Path(source).parent / "__pycache__"


# Cycle probes: where a kernel's time goes, phase by phase. perf names a kernel's functions
# (scripts/profile_kernel.py) but cannot follow calls through numba's code (no frame pointers),
# and cachegrind counts a whole game's instructions (scripts/instructions.py); neither says
# what a turn's phases cost. A kernel reads ``cycles()`` at both ends of a phase under
# ``if PROBE:`` and adds the difference to a counter row (``probe_add``). PROBE is read once,
# at import: False unless BALANCE_PROBE=1, and then numba drops every probe from the code.
# numba keys its cache on the sources, not on PROBE, so a probed build needs a cache of its own.
PROBE = os.environ.get("BALANCE_PROBE") == "1"
# The cycle counter is x86's time-stamp counter. Elsewhere LLVM reads another register, which
# user code may not be allowed to: on AArch64 (PMCCNTR_EL0) the process dies of an illegal
# instruction. Probes are for scripts/phases.py on x86 only.
CYCLE_COUNTER = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")
if PROBE and not os.environ.get("NUMBA_CACHE_DIR"):
    raise RuntimeError("BALANCE_PROBE=1 needs NUMBA_CACHE_DIR set to a folder of its own: numba would "
                       "otherwise mix probed and plain kernels in one cache (scripts/phases.py sets both)")
if PROBE and not CYCLE_COUNTER:
    raise RuntimeError(f"BALANCE_PROBE=1 reads x86's time-stamp counter; this CPU is {platform.machine()}, "
                       "where the probes' counter may not be readable (on AArch64 it kills the process)")


@numba.extending.intrinsic
def cycles(typingctx):
    """The CPU's cycle counter now (LLVM ``readcyclecounter``: the time-stamp counter on x86),
    int64; for probes only (``PROBE``)."""
    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@jit_inline
def probe_add(rows, row, t0, yes):
    """One probe's reading: the cycles since ``t0`` (``cycles()``), one call and ``yes`` (0 or 1,
    e.g. a want's answer) added to ``rows[row]`` (int64[n, 3]: cycles, calls, yes)."""
    rows[row, 0] += cycles() - t0
    rows[row, 1] += 1
    rows[row, 2] += yes


@numba.extending.intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer: LLVM's ctpop, one instruction on CPUs with POPCNT.

    Hands are bitmasks of card values, so a hand's size is its popcount (no counter to keep).
    """
    if not isinstance(x, numba.types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


def _stack_array(shape, zero: bool):
    """The typing and codegen of an int64 array of a constant shape in the function's stack
    frame: no heap allocation, no NRT, freed when the function returns."""
    if isinstance(shape, types.IntegerLiteral):
        dims = (shape.literal_value,)
    elif isinstance(shape, types.BaseTuple) and all(isinstance(t, types.IntegerLiteral) for t in shape.types):
        dims = tuple(t.literal_value for t in shape.types)
    else:
        return None  # a size known only at run time: not supported (numba reports the call)
    arrty = types.Array(types.int64, len(dims), "C")

    def codegen(context, builder, sig, args):
        elem = context.get_value_type(types.int64)
        itemsize = context.get_abi_sizeof(elem)
        count = 1
        for d in dims:
            count *= d
        ptr = cgutils.alloca_once(builder, elem, size=count)  # in the entry block: once per call
        if zero:
            cgutils.memset(builder, ptr, context.get_constant(types.intp, count * itemsize), 0)
        strides, step = [], itemsize
        for d in reversed(dims):
            strides.insert(0, step)
            step *= d
        intp = context.get_value_type(types.intp)
        ary = context.make_array(arrty)(context, builder)
        populate_array(ary, data=ptr, shape=[intp(d) for d in dims], strides=[intp(x) for x in strides],
                       itemsize=intp(itemsize), meminfo=None)
        return ary._getvalue()

    return arrty(shape), codegen


if numba.config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1): ordinary arrays
    def stack_empty(shape):
        return np.empty(shape, np.int64)

    def stack_zeros(shape):
        return np.zeros(shape, np.int64)
else:
    from numba.np.arrayobj import populate_array

    @numba.extending.intrinsic
    def stack_empty(typingctx, shape):
        """``np.empty(shape, np.int64)`` for a constant ``shape`` (an int or a tuple of ints,
        e.g. a module constant), on the stack: kernels compiled without the NRT use it for
        scratch lists. Never return it or keep a view of it past the function's end."""
        return _stack_array(shape, zero=False)

    @numba.extending.intrinsic
    def stack_zeros(typingctx, shape):
        """``np.zeros(shape, np.int64)`` on the stack (see stack_empty)."""
        return _stack_array(shape, zero=True)
