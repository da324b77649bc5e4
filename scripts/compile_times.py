"""Where a cold compile of the Smash Up kernel goes: seconds per numba dispatcher.

numba reports a ``numba:compile`` event at the start and end of every function it compiles,
nested when a function's compile compiles its callees. A function's *exclusive* time is its
compile's time minus the compiles nested in it; that is what removing or merging the
dispatcher would save. Run it on a cold cache (a fresh clone, or after editing a kernel file):

    python scripts/compile_times.py --top 40

It compiles ``turn.play_game`` (the tests' entry point) with greedy seats at 2 players and
prints the total, then the dispatchers by exclusive time, with their inclusive time. On a warm
cache nothing compiles and the list is empty.

Then LLVM's share: numba finalises each dispatcher's library by linking in its callees' modules
and optimising and emitting them all again, so a function is optimised once per library above
it. The script counts, per library, the function bodies it optimised and the seconds its
finalisation took (LLVM's optimisation and machine code), and prints the totals and the
largest libraries.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40, help="how many dispatchers to list")
    args = parser.parse_args()

    from numba.core import event

    from balance.core.strategy import parse_strategy
    from balance.games.smash_up.kernel import run
    from balance.games.smash_up.rules import Rules
    from balance.games.smash_up.strategies import STRATEGIES

    rules = Rules.from_overrides({"players": 2})
    seats = [parse_strategy("greedy", STRATEGIES)] * 2
    libraries = count_llvm_work()
    start = time.time()
    with event.install_recorder("numba:compile") as recorder:
        run.play_one(rules, [("Aliens", "Dinosaurs"), ("Ninjas", "Pirates")], seats)
    print(f"play_game's first call: {time.time() - start:.1f} s")

    open_compiles, exclusive, inclusive = [], Counter(), {}
    for stamp, ev in recorder.buffer:
        fn = ev.data["dispatcher"].py_func
        name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"
        if ev.status == event.EventStatus.START:
            open_compiles.append([name, stamp, 0.0])
            continue
        name, began, nested = open_compiles.pop()
        spent = stamp - began
        exclusive[name] += spent - nested
        inclusive[name] = spent
        if open_compiles:
            open_compiles[-1][2] += spent
    print(f"{len(exclusive)} dispatchers, {sum(exclusive.values()):.1f} s in all\n")
    print(f"{'exclusive s':>11} {'inclusive s':>11}  dispatcher")
    for name, seconds in exclusive.most_common(args.top):
        print(f"{seconds:11.1f} {inclusive[name]:11.1f}  {name}")

    bodies = sum(n for _, n, _ in libraries)
    print(f"\nLLVM: {len(libraries)} libraries finalised, {bodies:,} function bodies optimised and "
          f"emitted, {sum(t for _, _, t in libraries):.1f} s\n")
    print(f"{'bodies':>6} {'seconds':>8}  library")
    for name, n, t in sorted(libraries, key=lambda row: -row[1])[:args.top]:
        print(f"{n:6} {t:8.2f}  {name}")


def count_llvm_work() -> list:
    """Patches numba's library finalisation to record (library name, function bodies in its
    final module, seconds) per library; returns the list that fills as libraries finalise."""
    import numba.core.codegen as codegen

    seen = []
    finalize = codegen.CPUCodeLibrary.finalize

    def counted(self):
        began = time.time()
        finalize(self)
        bodies = sum(1 for f in self._final_module.functions if not f.is_declaration)
        seen.append((self.name, bodies, time.time() - began))

    codegen.CPUCodeLibrary.finalize = counted
    return seen


if __name__ == "__main__":
    main()
