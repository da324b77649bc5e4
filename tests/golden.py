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
# fingerprints are recorded once in RULES_FINGERPRINTS and never rewritten; test_golden.py fails
# when the games change under a recorded version.
#
# Two fingerprints, each over a few hundred games at every player count:
# - "one strategy": the default strategy at every seat, then the one that draws from its seat's
#   stream at every seat;
# - "mixed seats": one seat of each and the others of the other. Some rules are met only when the
#   strategies mix (Defenders' active hero ordering a group gathered by coordinated heroes, which
#   random heroes never gather: defenders-of-the-realm/3 kept /2's one-strategy fingerprint), so
#   a change to those must move a fingerprint too. Versions recorded before the kind (d3426b0)
#   hold only the first. A game whose default strategy draws (or one seat only) has nothing to
#   mix: it records no "mixed seats" fingerprint, rather than the hash of nothing.

RULES_FINGERPRINTS = Path(__file__).parent / "data" / "rules_fingerprints.json"
FINGERPRINT_GAMES = 200
FINGERPRINT_KINDS = ("one strategy", "mixed seats")


def _fingerprint_seatings(info, players: int, kind: str) -> list[list[str]]:
    """The seatings a fingerprint plays at ``players``: lists of strategy texts, one per seat (or
    one for every seat)."""
    from balance.analysis.contract import drawing_strategy

    default, drawing = info.default_strategy, drawing_strategy(info)
    if kind == "one strategy":
        return [[name] for name in dict.fromkeys((default, drawing))]
    if default == drawing or players == 1:  # nothing mixes
        return []
    return [[drawing] + [default] * (players - 1), [default] + [drawing] * (players - 1)]


def fingerprint_kinds(game_id: str) -> list[str]:
    """The kinds with seatings to play for this game (FINGERPRINT_KINDS, in order)."""
    from balance.analysis.contract import player_counts
    from balance.core.registry import get_game

    info = get_game(game_id)
    return [kind for kind in FINGERPRINT_KINDS
            if any(_fingerprint_seatings(info, n, kind) for n in player_counts(info))]


def rules_fingerprint(game_id: str, kind: str = "one strategy") -> str:
    """sha256 (16 hex digits) of every per-game array (win shares, outcome, length, scores,
    sides and the game's own columns) of FINGERPRINT_GAMES games, seed 7, at each default
    player count, for each seating of ``kind`` (FINGERPRINT_KINDS)."""
    from balance.analysis.contract import engine_for, player_counts, rules_at
    from balance.core.registry import get_game

    info = get_game(game_id)
    digest = hashlib.sha256()
    for players in player_counts(info):
        for seating in _fingerprint_seatings(info, players, kind):
            chunk = engine_for(info, rules_at(info, players), seating).play(7, 0, FINGERPRINT_GAMES)
            arrays = [chunk.win_units, chunk.outcome, chunk.length, chunk.scores, chunk.sides,
                      *(chunk.columns[key] for key in sorted(chunk.columns))]
            for array in arrays:
                if array is not None:
                    digest.update(column_hash(array).encode())
    return digest.hexdigest()[:16]


def recorded_fingerprints() -> dict[str, dict[str, str]]:
    """{version: {kind: fingerprint}} as recorded."""
    return json.loads(RULES_FINGERPRINTS.read_text(encoding="utf-8")) if RULES_FINGERPRINTS.exists() else {}


def record_rules_fingerprints() -> None:
    """Add each built-in game's current version and fingerprints, or a kind its version lacks; a
    recorded fingerprint is never changed."""
    from balance.core.registry import BUILT_IN, get_game

    recorded = recorded_fingerprints()
    for game_id in BUILT_IN:
        version = get_game(game_id).rules_version
        kept = recorded.setdefault(version, {})
        for kind in fingerprint_kinds(game_id):
            now = rules_fingerprint(game_id, kind)
            if kept.get(kind, now) != now:
                raise SystemExit(f"{game_id}'s games changed under {version} ({kind}): bump RULES_VERSION "
                                 "in its rules.py (a recorded version is never rewritten)")
            print(f"{version} {kind}: {now}{'' if kind in kept else ' (new)'}")
            kept[kind] = now
    RULES_FINGERPRINTS.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["rules"]:  # python -m tests.golden rules
        record_rules_fingerprints()
    else:
        GOLDEN.write_text(json.dumps({name: fingerprint(name) for name in CONFIGS}, indent=1) + "\n")
        print(f"wrote {GOLDEN}")
