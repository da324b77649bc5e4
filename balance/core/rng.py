"""Counter-based per-game random streams (SplitMix64), for kernels and for reference code.

Every random draw of game ``i`` in a run with seed ``s`` comes from a stream keyed by
``(s, i, stream)``: stream 0 is chance (deck shuffles), stream ``1 + seat`` is that seat's
strategy. The n-th output of a stream is ``mix64(key + n * GAMMA)``, a pure function of the
key and a counter, so results do not depend on how games are split over chunks or threads,
any game can be replayed alone, and two rule variants run with one seed see the same shuffles
(common random numbers). SplitMix64 passes BigCrush; see Steele, Lea & Flood, OOPSLA 2014.

Kernels keep stream states in a ``uint64`` array (one slot per stream) and call
``next_u64`` / ``below``. ``PyStream`` is the same generator in plain Python for the
reference implementations; tests check the two agree draw by draw.
"""
import numpy as np

from balance.core._jit import jit_inline

MASK64 = (1 << 64) - 1
GAMMA_INT = 0x9E3779B97F4A7C15
MUL1_INT = 0xBF58476D1CE4E5B9
MUL2_INT = 0x94D049BB133111EB
SEED_SALT_INT = 0x243F6A8885A308D3  # digits of pi: keeps seed 0 away from the zero state

_GAMMA = np.uint64(GAMMA_INT)
_MUL1 = np.uint64(MUL1_INT)
_MUL2 = np.uint64(MUL2_INT)
_SALT = np.uint64(SEED_SALT_INT)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@jit_inline
def mix64(z):
    """SplitMix64 finaliser: a bijection of uint64 with full avalanche."""
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@jit_inline
def seed_key(seed):
    """Per-run part of every stream key (hoisted out of the per-game loop by kernels)."""
    return mix64(np.uint64(seed) ^ _SALT)


@jit_inline
def game_key(seed_k, game):
    """Per-game part of the stream keys, from ``seed_key(seed)``."""
    return mix64(seed_k + np.uint64(game))


@jit_inline
def stream_key(seed, game, stream):
    """Key (the starting state) of stream ``stream`` of game ``game`` in a run with ``seed``."""
    return game_stream_key(game_key(seed_key(seed), game), stream)


@jit_inline
def game_stream_key(game_k, stream):
    """``stream_key(seed, game, stream)`` from ``game_key(seed_key(seed), game)``."""
    return mix64(game_k + np.uint64(stream) * _GAMMA)


@jit_inline
def next_u64(states, s):
    """Next 64-bit output of stream slot ``s`` (advances ``states[s]``)."""
    states[s] += _GAMMA
    return mix64(states[s])


@jit_inline
def below_from(state, n):
    """``below`` on a stream state held in a local variable: returns ``(value, new_state)``.

    For loops drawing many values from one stream: the state stays in a register instead of
    a load and store per draw through an array that the compiler must assume aliases others.
    """
    un = np.uint64(n)
    state += _GAMMA
    m = (mix64(state) >> _S32) * un
    low = m & _LOW32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            state += _GAMMA
            m = (mix64(state) >> _S32) * un
            low = m & _LOW32
    return np.int64(m >> _S32), state


@jit_inline
def below(states, s, n):
    """Uniform integer in ``[0, n)`` from stream slot ``s``; exact (Lemire's rejection), n < 2**32."""
    value, states[s] = below_from(states[s], n)
    return value


def _mix64_py(z: int) -> int:
    z = ((z ^ (z >> 30)) * MUL1_INT) & MASK64
    z = ((z ^ (z >> 27)) * MUL2_INT) & MASK64
    return z ^ (z >> 31)


class PyStream:
    """The same stream as the kernels' ``next_u64``/``below``, in plain Python ints."""

    def __init__(self, seed: int, game: int, stream: int):
        k = _mix64_py((seed & MASK64) ^ SEED_SALT_INT)
        k = _mix64_py((k + game) & MASK64)
        self.state = _mix64_py((k + stream * GAMMA_INT) & MASK64)

    def next_u64(self) -> int:
        self.state = (self.state + GAMMA_INT) & MASK64
        return _mix64_py(self.state)

    def below(self, n: int) -> int:
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32
