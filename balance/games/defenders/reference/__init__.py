"""The plain-Python oracle of Defenders of the Realm: ``game.py`` (the rules) and ``team.py``
(the policies). ``play_game(rules, strategies, seed, game, sides=None)`` plays one game."""
from .game import Game, play_game

__all__ = ["Game", "play_game"]  # the interface the tests and the game contract use
