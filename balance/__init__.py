"""balance: statistical balance analysis for tabletop games.

Heavy modules (numba kernels, polars) load on first use, so importing the package is cheap.
"""
__version__ = "0.1.0"

__all__ = ["simulate", "load", "__version__"]


def __getattr__(name):
    if name == "simulate":
        from balance.core.api import simulate

        return simulate
    if name == "load":  # a run directory written before: load("runs/x").seats
        from balance.analysis.study import load_result

        return load_result
    raise AttributeError(f"module 'balance' has no attribute {name!r}")


def __dir__():  # completion and help() find the lazy names too
    return sorted({*globals(), *__all__})
