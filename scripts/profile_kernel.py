"""Where a game's numba kernel spends its time: perf samples named by kernel function.

numba's cached machine code carries no symbols perf can read. This script keeps each object
numba loads from its cache, reads the object's symbol table (``nm``), finds where the object was
loaded (through a symbol only that object defines) and writes ``/tmp/perf-<pid>.map``, the file
perf reads to name JIT code, with short names (``board.slot_power``). Run it under perf:

    perf record -F 1999 -g -o /tmp/perf.data \\
        python scripts/profile_kernel.py smash-up --players 2 --strategy greedy --games 20000
    perf report -i /tmp/perf.data --no-children --sort symbol -g none | head -40

Only code loaded from the cache is named, so run the game once before (a warm cache). The
shares include the process's start-up (imports); use enough games that the kernel dominates.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def keep_cached_objects() -> list:
    """Patch numba so each library loaded from the cache keeps its object code; returns the
    list (library, object bytes) that fills as numba loads them."""
    import numba.core.codegen as codegen

    kept = []
    original = codegen.CPUCodeLibrary._set_compiled_object

    def keep(self, value):
        kept.append((self, bytes(value)))
        return original(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keep
    return kept


def short_name(mangled: str) -> str:
    """``_ZN7balance5games...5board10slot_powerB3v81...`` -> ``board.slot_power``."""
    if not mangled.startswith("_ZN"):
        return mangled
    rest, parts = mangled[3:], []
    while rest[:1].isdigit():
        n = int(re.match(r"\d+", rest).group())
        digits = len(str(n))
        parts.append(rest[digits:digits + n])
        rest = rest[digits + n:]
    return ".".join(parts[-2:]) or mangled


def symbols(obj: bytes) -> list[tuple[int, int, str, str]]:
    """(offset, size, nm type, name) of the functions an object file defines."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True,
                             check=True).stdout
    finally:
        os.unlink(f.name)
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
    return rows


def write_perf_map(kept: list) -> int:
    """Writes /tmp/perf-<pid>.map for the kept objects; returns the number of functions named.
    A symbol defined by several objects resolves to one of them only, so each object is placed
    by a global symbol no other object defines."""
    parsed = [(lib, symbols(obj)) for lib, obj in kept]
    defined = Counter(name for _, rows in parsed for _, _, _, name in rows)
    lines = []
    for lib, rows in parsed:
        base = next((lib._codegen._engine.get_function_address(name) - offset
                     for offset, _, kind, name in rows if kind in "TW" and defined[name] == 1
                     and lib._codegen._engine.get_function_address(name)), None)
        if base is not None:
            lines += [f"{base + offset:x} {size:x} {short_name(name)}\n" for offset, size, _, name in rows]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("".join(lines))
    return len(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", "-s", default="greedy")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    kept = keep_cached_objects()
    import balance

    balance.simulate(args.game, players=args.players, games=args.games, seed=args.seed,
                     strategies=[args.strategy], threads=1)
    print(f"{write_perf_map(kept)} functions named in /tmp/perf-{os.getpid()}.map")


if __name__ == "__main__":
    main()
