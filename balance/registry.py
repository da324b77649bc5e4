"""The games the toolkit knows: game id -> where its rules, strategies and engine live.

Game modules are imported only when a game is used, so ``balance --help`` stays fast.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from balance.errors import one_of

# game id -> package; each package holds rules.py, strategies.py, kernel.py, engine.py,
# reference.py and a GAME = GameSpec(...) in its __init__.
GAMES = {
    "avengers-cards": "balance.games.avengers_cards",
}


@dataclass(frozen=True)
class GameSpec:
    id: str
    title: str
    module: str

    def part(self, name: str) -> ModuleType:
        """The game's ``rules``, ``strategies``, ``engine`` or ``reference`` module."""
        return importlib.import_module(f"{self.module}.{name}")

    @property
    def rules_version(self) -> str:
        return self.part("rules").RULES_VERSION

    @property
    def strategies(self) -> dict:
        return self.part("strategies").STRATEGIES


def get_game(game_id: str) -> GameSpec:
    if game_id not in GAMES:
        raise one_of("game", game_id, GAMES)
    return importlib.import_module(GAMES[game_id]).GAME
