"""The Smash Up kernel (numba): the reference's game on integer arrays, one call per game or
chunk. ``layout`` is the state, ``board`` the primitives, ``turn`` the game loop."""
