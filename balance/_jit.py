"""The one place that sets numba options for every kernel.

cache=True: compiled code is written next to the module, so only the first run compiles.
nogil=True: chunks can run on several threads of one process.
error_model='numpy': division never raises inside kernels (inputs are validated before).
"""
from functools import partial

import numba

jit = partial(numba.njit, cache=True, nogil=True, error_model="numpy")

# Hot helpers called per card or per fight: inlined at the Numba IR level. A plain jitted call
# passes each array as a struct with reference counting on entry and exit, which costs more
# than the helper's work (measured: about 7 us of a 10 us game).
jit_inline = partial(numba.njit, cache=True, nogil=True, error_model="numpy", _nrt=False)
