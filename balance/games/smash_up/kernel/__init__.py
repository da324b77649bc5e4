"""The Smash Up kernel (numba): the reference's game on integer arrays.

``layout`` is the state, ``board`` the primitives, ``baseline`` the baseline's measures,
``triggers`` destruction, ``stack``/``vm`` plays inside plays, ``bases`` the base abilities,
``cards/`` the card abilities by faction (``hooks`` dispatches to them), ``turn`` the game.
"""
from balance.core._jit import drop_stale_cache

# the kernel's functions call each other across these files: any edit anywhere in the package
# must drop every compiled function, or numba would keep running the old callee
drop_stale_cache(__file__, recursive=True)
