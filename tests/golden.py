"""Fingerprints of avengers-cards runs: every column of every table, hashed; and of every
built-in game's games under its RULES_VERSION (below).

``tests/data/avengers_golden.json`` was written by ``python -m tests.golden`` before the core
was made game-neutral (issue 10); ``test_golden.py`` checks every recorded column is still
bit-identical. New columns may appear; a recorded one may never change.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).parent / "data" / "avengers_golden.json"

# Small runs that cover every loop the kernel specialises and every table the game writes.
CONFIGS = {
    "random-4": dict(players=4, games=3000, seed=1, strategies=["random"]),
    "greedy-3": dict(players=3, games=1500, seed=2, strategies=["greedy"]),
    "mix-5-rotate": dict(players=5, games=2000, seed=3, rotate=True, keep_games=True,
                         strategies=["greedy", "threshold", "random"]),
    "strength-4": dict(players=4, games=800, seed=4, strategies=["lowest"], card_strength="always"),
    "variant-3": dict(players=3, games=2000, seed=5, strategies=["threshold"],
                      overrides={"set_bonus": 2, "ties_cancel": False}),
    "hand-2": dict(players=2, games=2000, seed=6, strategies=["random", "greedy"],
                   overrides={"hand": [1, 2, 3, 4, 5, 6, 7, 8, 9]}),
}


def column_hash(values) -> str:
    array = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if array.dtype == object:
        data = "\x1f".join(map(str, array.tolist())).encode()
    else:
        data = np.ascontiguousarray(array).tobytes()
    return hashlib.sha256(data + str(array.dtype).encode()).hexdigest()[:16]


def fingerprint(name: str) -> dict:
    import balance

    run = balance.simulate("avengers-cards", **CONFIGS[name])
    tables = dict(run.tables)
    if run.games is not None:
        tables["games"] = run.games
    return {table: {col: column_hash(frame[col]) for col in frame.columns}
            for table, frame in sorted(tables.items())}


# ---- every built-in game's games, tied to its RULES_VERSION -------------------------------------
#
# A run records its game's RULES_VERSION, and `--resume` refuses to continue a run begun under
# another (balance/core/checkpoint.py): that is what keeps a resumed run from mixing games of two
# engines. It holds only if a change to what the engine plays bumps the version. Each version's
# fingerprint (a few hundred games of the default and a drawing strategy at every player count)
# is recorded once in RULES_FINGERPRINTS and never rewritten; test_golden.py fails when the
# games change under a recorded version.

RULES_FINGERPRINTS = Path(__file__).parent / "data" / "rules_fingerprints.json"
FINGERPRINT_GAMES = 200


def rules_fingerprint(game_id: str) -> str:
    """sha256 (16 hex digits) of every per-game array (win shares, outcome, length, scores,
    sides and the game's own columns) of FINGERPRINT_GAMES games, seed 7, at each default
    player count, for the default strategy and the one that draws from its seat's stream."""
    from balance.analysis.contract import drawing_strategy, engine_for, player_counts, rules_at
    from balance.core.registry import get_game

    info = get_game(game_id)
    digest = hashlib.sha256()
    for players in player_counts(info):
        for name in dict.fromkeys((info.default_strategy, drawing_strategy(info))):
            chunk = engine_for(info, rules_at(info, players), [name]).play(7, 0, FINGERPRINT_GAMES)
            arrays = [chunk.win_units, chunk.outcome, chunk.length, chunk.scores, chunk.sides,
                      *(chunk.columns[key] for key in sorted(chunk.columns))]
            for array in arrays:
                if array is not None:
                    digest.update(column_hash(array).encode())
    return digest.hexdigest()[:16]


def record_rules_fingerprints() -> None:
    """Add each built-in game's current version and fingerprint; a recorded one is never changed."""
    from balance.core.registry import BUILT_IN, get_game

    recorded = json.loads(RULES_FINGERPRINTS.read_text(encoding="utf-8")) if RULES_FINGERPRINTS.exists() else {}
    for game_id in BUILT_IN:
        version, now = get_game(game_id).rules_version, rules_fingerprint(game_id)
        if recorded.get(version, now) != now:
            raise SystemExit(f"{game_id}'s games changed under {version}: bump RULES_VERSION in its "
                             "rules.py (a recorded version is never rewritten)")
        print(f"{version}: {now}{'' if version in recorded else ' (new)'}")
        recorded[version] = now
    RULES_FINGERPRINTS.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["rules"]:  # python -m tests.golden rules
        record_rules_fingerprints()
    else:
        GOLDEN.write_text(json.dumps({name: fingerprint(name) for name in CONFIGS}, indent=1) + "\n")
        print(f"wrote {GOLDEN}")
