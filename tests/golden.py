"""Fingerprints of avengers-cards runs: every column of every table, hashed.

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


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({name: fingerprint(name) for name in CONFIGS}, indent=1) + "\n")
    print(f"wrote {GOLDEN}")
