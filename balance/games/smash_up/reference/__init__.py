"""Plain-Python reference of Smash Up: slow, obvious, written from the spec; the oracle the
kernel is tested against game by game (rules/smash-up.md, rules/smash-up-cards.md).

``play_game(rules, factions, players, seed, game)`` plays one game: ``factions`` per seat (its
two factions), ``players`` per seat (``Greedy()``, ``Random()`` or ``Scripted(...)``).
"""
from __future__ import annotations

from . import bases, cards  # noqa: F401  (fill the ability tables)
from .game import Game
from .players import Greedy, Random, Scripted

__all__ = ["Game", "Greedy", "Random", "Scripted", "play_game"]


def play_game(rules, factions, players, seed=0, game=0) -> Game:
    return Game(rules.validated(), factions, players, seed, game).setup().play()
