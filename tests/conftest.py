import importlib
import json
from pathlib import Path

import pytest

from balance.core import registry

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
    return json.loads((DATA / "avengers-cards" / "scripted_games.json").read_text())["games"]


# The Smash Up kernel compiles for several minutes when numba's cache is cold (a fresh clone,
# CI). With pytest-xdist (`make test` runs `-n auto --dist loadgroup`) every test that runs it
# goes to one worker, which compiles it once, while the other workers run everything else.
SMASH_KERNEL = ("test_smash_up_kernel", "test_smash_up_engine", "smash-up")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups into the node ids
def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(key in item.nodeid for key in SMASH_KERNEL):
            item.add_marker(pytest.mark.xdist_group("smash-up-kernel"))
