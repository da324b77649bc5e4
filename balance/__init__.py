"""balance: statistical balance analysis for tabletop games.

Heavy modules (numba kernels, polars) load on first use, so importing the package is cheap.
"""
__version__ = "0.1.0"

# name -> (module, attribute): what a notebook reaches as balance.NAME, each the function the
# CLI command of that name calls
_LAZY = {
    "simulate": ("balance.core.api", "simulate"),
    "load": ("balance.analysis.study", "load_result"),  # a run directory written before: load("runs/x").seats
    "compare": ("balance.analysis.compare", "compare"),
    "tune": ("balance.analysis.tune", "tune"),
    "report": ("balance.analysis.report", "write_run_report"),
    "BalanceError": ("balance.core.errors", "BalanceError"),
}
__all__ = [*_LAZY, "__version__"]


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module

        module, attribute = _LAZY[name]
        return getattr(import_module(module), attribute)
    raise AttributeError(f"module 'balance' has no attribute {name!r}")


def __dir__():  # completion and help() find the lazy names too
    return sorted({*globals(), *__all__})
