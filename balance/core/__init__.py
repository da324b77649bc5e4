"""The core: what a game is (game, registry), how runs are played and stored (api, runner,
checkpoint, output, schema, counters), and what every kernel shares (kit, rng, _jit)."""
