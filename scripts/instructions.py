"""Machine instructions one Smash Up game executes, counted by cachegrind.

They show where a step acts and do not drift with the machine's load. They are not its
speed: fewer instructions are often a faster game, but not always (session 30: LLVM-inlining
three board readings took 8.6% of them and no time, most likely because the calls'
instructions ran while the core waited on loads and branches). Time a step with
``scripts/speed_ab.py REF``.

Each tree is compiled for ``NUMBA_CPU_NAME=generic`` into a cache of its own (under valgrind
numba sees another CPU and would compile again, for hours), then played twice under
``valgrind --tool=cachegrind``: 10 warm-up games, then ``--games`` more or none. The difference
divided by ``--games`` is one game's instructions (the import and the warm-up cancel out).
Needs valgrind. Takes about 4 minutes (a compile per tree; two trees run side by side).

    python scripts/instructions.py                       # this tree, greedy at 2 players
    python scripts/instructions.py --against 66f503f     # and that commit, side by side
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import ref_worktree  # noqa: E402  (scripts/ is not a package)

PLAY = """
import sys
from balance.core.strategy import parse_strategy
from balance.games.smash_up.engine import Engine
from balance.games.smash_up.rules import Rules
from balance.games.smash_up.strategies import STRATEGIES
players, spec, games = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
engine = Engine(Rules.from_overrides({"players": players}), [parse_strategy(spec, STRATEGIES)] * players)
engine.play(0, 0, 10)
if games:
    engine.play(1, 0, games)
"""


# What makes two runs count alike (measured: two runs of 3,000 games within 0.002%, against
# 0.7% without): valgrind runs a process's threads one at a time, so a thread pool that spins
# while it waits (OpenBLAS's) adds instructions that depend on timing, hence one thread each;
# and one hash seed, so Python's dicts and sets are walked in the same order.
STEADY = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                     "NUMBA_NUM_THREADS", "POLARS_MAX_THREADS")}
STEADY["PYTHONHASHSEED"] = "0"


def instructions(tree: Path, cache: str, players: int, spec: str, games: int) -> float:
    """One game's instructions in ``tree`` (its kernel compiled into ``cache``)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": cache,
           **STEADY}
    args = [str(players), spec]
    subprocess.run([sys.executable, "-c", PLAY, *args, "0"], cwd=tree, env=env, check=True)  # compile

    def counted(n: int) -> int:
        out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
                              "--cachegrind-out-file=/dev/null", sys.executable, "-c", PLAY, *args, str(n)],
                             cwd=tree, env=env, check=True, capture_output=True, text=True).stderr
        found = re.search(r"I\s+refs:\s+([\d,]+)", out)
        if not found:
            raise SystemExit(f"no instruction count in valgrind's output:\n{out[-2000:]}")
        return int(found.group(1).replace(",", ""))

    return (counted(games) - counted(0)) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="REF", help="also count git commit REF's (side by side)")
    ap.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    ap.add_argument("--strategy", "-s", default="greedy", choices=["greedy", "random"])
    ap.add_argument("--games", type=int, default=3000, help="games counted (after 10 warm-up games)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: it counts the instructions (apt install valgrind)")
    if args.games < 1:
        raise SystemExit(f"--games must be at least 1, not {args.games}")
    case = (args.players, args.strategy, args.games)
    with tempfile.TemporaryDirectory() as tmp:
        if args.against is None:
            print(f"{args.strategy} {args.players}p: {instructions(ROOT, tmp, *case):,.0f} instructions per game")
            return
        with ref_worktree(args.against) as old, ThreadPoolExecutor(2) as pool:
            ref = pool.submit(instructions, old, f"{tmp}/ref", *case)
            this = pool.submit(instructions, ROOT, f"{tmp}/this", *case)
            before, after = ref.result(), this.result()
    print(f"{args.strategy} {args.players}p instructions per game: {args.against} {before:,.0f}, "
          f"this tree {after:,.0f}, ratio {after / before:.4f}")


if __name__ == "__main__":
    main()
