"""Smash Up games per second of this tree against a git REF, precise to about 0.5%: for steps
too small for ``bench.py --against`` (whose ratios move by 2%) and whose instruction counts
(``instructions.py``) do not say how much faster they run.

A process per tree plays ``--games`` games per round, the same games each round; the two take
turns (ABBA order, never both at once) for ``--rounds`` rounds, and then a fresh pair does
(``--pairs``); each tree's fastest round and median round are compared. A process is warmed
before its rounds, so a round times the kernel alone. Two copies of one tree read x0.999
(fastest) and x0.998 (median) (session 30, ``python scripts/speed_ab.py HEAD`` with nothing
changed); a single pair of processes once read x1.037 for a step that fresh pairs put at x1.00.
Compiles REF's kernel first, cold (about 3 minutes); keep the other core idle while it runs.

    python scripts/speed_ab.py 4fa1c53                      # greedy at 2 players
    python scripts/speed_ab.py 4fa1c53 --players 4 -s random
    python scripts/speed_ab.py HEAD --env NUMBA_OPT=max     # a setting, on the same code
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import ENGINE_LINES, ref_worktree  # noqa: E402  (scripts/ is not a package)

# ``{engine}``: bench.py's lines that make ``engine`` (``ENGINE_LINES``), one strategy per seat
WORKER = """
import sys, time
from balance.core.strategy import parse_strategy
{engine}
engine.play(0, 0, 20)
print("ready", flush=True)
for _ in sys.stdin:
    t = time.perf_counter()
    engine.play(0, 0, {games})
    print(time.perf_counter() - t, flush=True)
"""


def worker(tree: Path, players: int, spec: str, games: int, env: dict) -> subprocess.Popen:
    """A process playing ``tree``'s kernel, compiled and warm, that plays a round per line;
    ``env``: variables added to its environment."""
    code = WORKER.format(engine=ENGINE_LINES["smash-up"].format(players=players, specs=[spec] * players),
                         games=games)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=tree,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(tree), **env})
    if proc.stdout.readline().strip() != "ready":
        raise SystemExit(f"the kernel of {tree} did not start")
    return proc


def rounds_seconds(trees: list[Path], players: int, spec: str, games: int, rounds: int,
                   pairs: int, envs: list[dict]) -> list[list[float]]:
    """Per tree, the seconds of each round: ``pairs`` times a fresh process per tree, which take
    turns (A B, B A, ...) for ``rounds`` rounds. Fresh processes because one process runs up to
    about 1% faster or slower than another of the same tree for as long as it lives (where its
    arrays and code fall in memory)."""
    seconds = [[] for _ in trees]
    for _ in range(pairs):
        procs = [worker(t, players, spec, games, env) for t, env in zip(trees, envs)]
        try:
            for r in range(rounds):
                for i in (0, 1) if r % 2 == 0 else (1, 0):
                    procs[i].stdin.write("go\n")
                    procs[i].stdin.flush()
                    seconds[i].append(float(procs[i].stdout.readline()))
        finally:
            for proc in procs:
                proc.stdin.close()
                proc.wait()
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", help="the git commit (or branch) to compare this tree with")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", "-s", default="greedy")
    ap.add_argument("--games", type=int, default=3000, help="games per round")
    ap.add_argument("--rounds", type=int, default=6, help="rounds per pair of processes")
    ap.add_argument("--pairs", type=int, default=6, help="pairs of fresh processes")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="run this tree's processes with this environment variable (repeatable), and a "
                         "numba cache of their own, so that a compile setting takes effect: e.g. "
                         "NUMBA_OPT=max, with REF HEAD")
    args = ap.parse_args()
    bad = [e for e in args.env if "=" not in e or not e.split("=", 1)[0]]
    if bad:
        raise SystemExit(f"--env takes KEY=VALUE; got {', '.join(bad)}")
    env = dict(e.split("=", 1) for e in args.env)
    with ref_worktree(args.ref) as old, tempfile.TemporaryDirectory() as cache:
        if env:
            env["NUMBA_CACHE_DIR"] = cache  # numba's cache key does not hold the compile settings
        seconds = rounds_seconds([old, ROOT], args.players, args.strategy, args.games, args.rounds,
                                 args.pairs, [{}, env])
    this = "this tree" + "".join(f" {e}" for e in args.env)
    for name, s in zip((args.ref, this), seconds):
        print(f"{name:>12}: fastest round {args.games / min(s):9,.0f} games/s, "
              f"median {args.games / statistics.median(s):9,.0f}")
    (before, after) = seconds
    fastest, median = min(before) / min(after), statistics.median(before) / statistics.median(after)
    print(f"{args.strategy} at {args.players} players, {this} / {args.ref}: fastest x{fastest:.3f}, "
          f"median x{median:.3f}")


if __name__ == "__main__":
    main()
