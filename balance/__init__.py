"""balance: statistical balance analysis for tabletop games.

Heavy modules (numba kernels, polars) load on first use, so importing the package is cheap.
"""
__version__ = "0.1.0"

__all__ = ["simulate", "__version__"]


def __getattr__(name):
    if name == "simulate":
        from balance.core.api import simulate

        return simulate
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
