"""Where a Smash Up turn's time goes, phase by phase: the kernel's cycle probes, compiled in.

perf names the kernel's functions (scripts/profile_kernel.py) but cannot follow calls through
numba's code, and cachegrind counts a whole game (scripts/instructions.py); neither says what a
turn's phases, a greedy seat's choices or one card's want cost. The kernel holds probes at
those places (``if PROBE:`` in ``kernel/turn.py`` and ``kernel/vm.py``, rows ``layout.PB_*``)
that read the CPU's cycle counter; numba drops them unless ``BALANCE_PROBE=1`` at import. This
script compiles such a kernel into a cache of its own (a temporary folder: about 3 minutes),
plays ``--games`` games as ``scripts/bench.py`` does (sides drawn per game, default rules) and
prints cycles per turn by phase, the greedy choice's parts, the moves, the VM's steps and the
costliest wants.

Each probe adds its own reading's cost (printed) to what it measures and to every phase around
it, so small entries are overstated; compare entries of one run, not runs of two trees.

    python scripts/phases.py                          # greedy at 2 players, 3,000 games
    python scripts/phases.py --players 4 -s random
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROCEDURES = ("play minion", "after played", "grant now", "play action", "card", "grant action",
              "window", "offer", "look-ahead", "finished")
MOVES = ("minion from hand", "minion from discard", "Tenacious Z", "action", "talent",
         "They're Coming")


def calibrate() -> tuple[float, float]:
    """(cycle-counter ticks per microsecond, ticks one ``probe_add`` adds to what it measures)."""
    import numba
    import numpy as np

    from balance.core._jit import cycles, probe_add

    @numba.njit
    def ticks():
        return cycles()

    @numba.njit
    def overhead(rows, n):
        for _ in range(n):
            t0 = cycles()
            probe_add(rows, 0, t0, 0)
        return rows[0, 0] / n

    ticks()
    rows = np.zeros((1, 3), np.int64)
    overhead(rows, 10)
    t, c = time.perf_counter(), ticks()
    time.sleep(0.3)
    rate = (ticks() - c) / ((time.perf_counter() - t) * 1e6)
    rows[:] = 0
    return rate, overhead(rows, 100_000)


def report(players: int, spec: str, games: int) -> None:
    """Plays the games with probes on and prints the tables (run with BALANCE_PROBE=1)."""
    import numpy as np

    from balance.core.strategy import parse_strategy
    from balance.games.smash_up.engine import Engine
    from balance.games.smash_up.kernel import layout as L
    from balance.games.smash_up.kernel.names import CARD_NAMES
    from balance.games.smash_up.rules import Rules
    from balance.games.smash_up.strategies import STRATEGIES

    engine = Engine(Rules.from_overrides({"players": players}), [parse_strategy(spec, STRATEGIES)] * players)
    state = engine.state.copy()
    engine.replay(0, np.arange(10, dtype=np.int64), -1, state)  # compiles
    probe = state[0]["probe"]
    probe[:] = 0
    turns = int(engine.replay(1, np.arange(games, dtype=np.int64), -1, state)[2].sum())
    rate, cost = calibrate()

    def line(name: str, row: int, with_yes: bool = False) -> None:
        cyc, calls, yes = probe[row]
        if calls:
            extra = f"{calls / turns:7.2f} {cyc / calls:9,.0f}" + (f" {yes / calls:6.0%}" if with_yes else "")
            print(f"  {name:28s} {cyc / turns:9,.0f}  {extra}")

    phases = sum(int(probe[r, 0]) for r in (L.PB_START, L.PB_PLAY, L.PB_SCORE, L.PB_END))
    print(f"{spec} at {players} players, {games:,} games, {turns / games:.2f} turns per game; "
          f"{rate:,.0f} cycles per µs; each probe adds about {cost:.0f} cycles to what it measures")
    print(f"per turn: {phases / turns:,.0f} cycles ({phases / turns / rate:.2f} µs), setup "
          f"{probe[L.PB_SETUP, 0] / games:,.0f} per game")
    print(f"  {'':28s} {'cycles/turn':>9s}  {'calls/turn':>7s} {'per call':>9s}")
    for name, row in (("start of turn", L.PB_START), ("play cards", L.PB_PLAY), ("scoring", L.PB_SCORE),
                      ("draw and end of turn", L.PB_END)):
        line(name, row)
    print("greedy Play Cards choices (inside play cards; yes: share that chose a move):")
    line("the whole choice", L.PB_CHOICE)
    line("talent and extra-move wants", L.PB_TALENTS, with_yes=True)
    line("minion move (card, PLACE)", L.PB_MINION, with_yes=True)
    wants = range(L.PB_WANT, L.PB_WANT + len(CARD_NAMES))
    asked = probe[list(wants)]
    if asked[:, 1].sum():
        print(f"  {'action wants, all':28s} {asked[:, 0].sum() / turns:9,.0f}  {asked[:, 1].sum() / turns:7.2f}")
    print("moves done (inside play cards; each runs on the VM):")
    for kind, name in enumerate(MOVES):
        line(name, L.PB_MOVE + kind)
    print("VM steps (procedure, step; a step that runs frames of its own counts them too):")
    for row in range(L.PB_STEP, L.PB_WANT):
        proc, pc = divmod(row - L.PB_STEP, 5)
        line(f"{PROCEDURES[proc]}, step {pc}{'+' if pc == 4 else ''}", row)
    print("costliest action wants (yes: share of asks that played the card):")
    for row in sorted(wants, key=lambda r: -probe[r, 0])[:15]:
        line(CARD_NAMES[row - L.PB_WANT], row, with_yes=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    ap.add_argument("--strategy", "-s", default="greedy", choices=["greedy", "random"])
    ap.add_argument("--games", type=int, default=3000, help="games measured (after 10 that compile)")
    args = ap.parse_args()
    if args.games < 1:
        raise SystemExit(f"--games must be at least 1, not {args.games}")
    if os.environ.get("BALANCE_PROBE") == "1":
        report(args.players, args.strategy, args.games)
        return
    with tempfile.TemporaryDirectory() as cache:  # a probed kernel never lands in the tree's cache
        env = {**os.environ, "BALANCE_PROBE": "1", "NUMBA_CACHE_DIR": cache}
        sys.exit(subprocess.run([sys.executable, __file__, *sys.argv[1:]], env=env).returncode)


if __name__ == "__main__":
    main()
