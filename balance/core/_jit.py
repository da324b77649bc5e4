"""The one place that sets numba options for every kernel.

cache=True: compiled code is written next to the module, so only the first run compiles.
nogil=True: chunks can run on several threads of one process.
error_model='numpy': division never raises inside kernels (inputs are validated before).
"""
from functools import partial

import numba
import numba.extending

jit = partial(numba.njit, cache=True, nogil=True, error_model="numpy")

# Hot helpers called per card or per fight: inlined at the Numba IR level, so the kernel's
# loops see their bodies. A plain jitted call passes each array as a struct (7 words) with
# reference counting on entry and exit, which cost more than the helpers' work (measured: the
# resolve_fight call was about 120 ns of a 2.8 us game). Inlined helpers must not make array
# views (``a[p]``) in hot paths: each view is an atomic incref/decref pair; pass tuples or indices.
jit_inline = partial(numba.njit, cache=True, nogil=True, error_model="numpy", inline="always")

# Hot loops that allocate nothing: compiled without the NRT, so no reference counting at all.
# IR-inlined helpers otherwise copy array arguments into new variables, and each copy is an
# atomic incref/decref pair (measured: the inlined game loop ran 3x slower with the NRT on).
# Callers allocate the arrays in a thin jit function and call the kernel once per chunk.
jit_nonrt = partial(numba.njit, cache=True, nogil=True, error_model="numpy", _nrt=False)


def drop_stale_cache(module_file: str, recursive: bool = False) -> None:
    """Delete a game package's numba cache when any source it inlines has changed.

    numba keys a cached function on its own file only, so a kernel that inlines helpers from
    strategies.py, tokens.py or rng.py would keep running stale code after those change. We
    hash every source the package's kernels read and clear the cache when the hash moves.
    Call at the top of a kernel module, before anything is compiled. ``recursive``: the
    kernel spans subpackages (every ``.py`` below the module's folder is hashed and every
    ``__pycache__`` below it cleared; call it from the kernel package's ``__init__``).
    """
    import hashlib
    from pathlib import Path

    package = Path(module_file).resolve().parent
    root = Path(__file__).resolve().parent
    own = sorted(package.rglob("*.py") if recursive else package.glob("*.py"))
    sources = own + [root / "_jit.py", root / "rng.py", root / "kit.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    cache = package / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    try:
        if stamp.is_file() and stamp.read_text() == digest:
            return
        for folder in {p.parent / "__pycache__" for p in own}:
            for f in folder.glob("*.nb[ic]"):
                f.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba then caches elsewhere and nothing here is stale


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
