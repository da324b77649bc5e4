"""The kernels' tests with every array index checked: are all indices in range?

The ``jit_widened`` kernels (Smash Up, ZENONZARD, Defenders of the Realm) compile without
numba's negative-index wraparound (``balance/core/_jit.py``): an index of -1 there reads the
memory before the array instead of its last element, and nothing says so. This script runs
those games' tests (kernel = reference, game by game, every strategy, player count and rules
variant the tests play) in kernels compiled with NUMBA_BOUNDSCHECK=1, where any index below 0
or past the end stops the game with an IndexError, so the test fails. The checked kernels are
compiled into a temporary cache of their own, so they never mix with the plain kernels' cache:
the run takes a cold compile of each kernel, about 6 minutes on 2 cores.

    python scripts/boundscheck.py                       # the three games' test files
    python scripts/boundscheck.py tests/test_zenonzard.py -k kernel   # pytest's arguments
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_smash_up*.py", "tests/test_zenonzard.py", "tests/test_defenders.py"]


def main(argv: list[str]) -> int:
    args = argv or sorted(str(p.relative_to(ROOT)) for pattern in TESTS for p in ROOT.glob(pattern))
    with tempfile.TemporaryDirectory(prefix="balance-boundscheck-") as cache:
        env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
        cmd = [sys.executable, "-m", "pytest", "-n", "auto", "--dist", "loadgroup", "-q",
               "-p", "no:cacheprovider", *args]
        print("NUMBA_BOUNDSCHECK=1", " ".join(cmd[1:]), flush=True)
        return subprocess.run(cmd, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
