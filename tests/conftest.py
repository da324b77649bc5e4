import importlib
import json
import os
from pathlib import Path

import pytest

# The tests read help and messages as plain text. typer (at import) and rich (for each console)
# force a colour terminal when any of these is set (every GitHub Actions runner sets
# GITHUB_ACTIONS), and the escape codes then split the phrases the tests look for. Unset for the
# session and the commands it starts, before anything imports typer.
for _forcing in ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "TTY_COMPATIBLE"):
    os.environ.pop(_forcing, None)

from balance.core import registry  # noqa: E402
from balance.core.cpus import usable_cpus  # noqa: E402

DATA = Path(__file__).parent / "data"

# Toy games (tests/toys/) registered for the test session the way an installed plug-in is:
# through the ``balance.games`` entry points that registry._plugins reads, so nothing in
# balance/ knows them. Wrapped at import time, before the test modules are collected, so
# tests parametrised over registry.game_ids() include them.
TOY_GAMES = {"dice-race": "toys.dice_race", "siege": "toys.siege"}


class ToyEntryPoint:
    """What importlib.metadata gives for an installed game: a name, a value, load()."""

    def __init__(self, name: str, module: str):
        self.name, self.value = name, module

    def load(self):
        return importlib.import_module(self.value)


_installed_plugins = registry._plugins


def _plugins_with_toys() -> dict:
    return {**_installed_plugins(), **{name: ToyEntryPoint(name, module)
                                       for name, module in TOY_GAMES.items()}}


registry._plugins = _plugins_with_toys
registry.get_game.cache_clear()


@pytest.fixture(scope="session")
def scripted_games():
    """36 scripted games with the expected state after every villain (vendored from shared/)."""
    return json.loads((DATA / "avengers-cards" / "scripted_games.json").read_text(encoding="utf-8"))["games"]


@pytest.fixture
def tuned_at(tmp_path):
    """tuned_at(players, strategy="greedy", params="samples = 3") -> "greedy:@DIR": a tuned.toml
    as `balance tune` writes it (its [tune] table gives the count it was tuned at), in tmp_path."""
    def write(players: int, strategy: str = "greedy", params: str = "samples = 3") -> str:
        directory = tmp_path / f"tuned-{strategy}-{players}"
        directory.mkdir(exist_ok=True)
        (directory / "tuned.toml").write_text(f'strategy = "{strategy}"\n[params]\n{params}\n\n[tune]\n'
                                              f'players = {players}\nagainst = "self"\n', encoding="utf-8")
        return f"{strategy}:@{directory}"
    return write


# The Smash Up kernel compiles for about ten minutes when numba's cache is cold (a fresh clone,
# CI); the avengers-cards loops for several more between them. `make test` runs on every core
# (`-n auto --dist loadgroup`: one test at a time per worker, in this order) and every kernel
# function compiles under a lock file (balance.core._jit), so a worker that needs a function
# another is compiling waits and then loads it. The order keeps both cores busy: the first
# Smash Up kernel test starts that compile at once on one worker while the other runs the
# avengers-cards tests (their compiles) and the rest; the other Smash Up kernel tests come last,
# when the compile is done, and spread over every worker.
SMASH_KERNEL = ("test_smash_up_kernel", "test_smash_up_engine", "smash-up")


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (make test): one worker per CPU this process may keep busy (its affinity,
    capped by a CPU quota such as ``docker --cpus``: balance.core.cpus). xdist's own count, with
    psutil installed (distributed brings it), is the machine's physical cores: one worker on a
    VM of two vCPUs that are one core's two threads, and every core of a host whose container
    is pinned to a few or given the time of a few. PYTEST_XDIST_AUTO_NUM_WORKERS still decides
    where set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    return usable_cpus()


def pytest_collection_modifyitems(config, items):
    smash = [item for item in items if any(key in item.nodeid for key in SMASH_KERNEL)]
    # the first to run must compile (not, say, test_cli's rules-key check of smash-up)
    first = next((item for item in smash if "test_smash_up_engine.py::" in item.nodeid), None)
    if first is not None:
        held = set(smash)
        rest = [item for item in items if item not in held]
        items[:] = [first] + rest + [item for item in smash if item is not first]
