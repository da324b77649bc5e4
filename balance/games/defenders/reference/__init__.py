"""The plain-Python oracle of Defenders of the Realm: ``game.py`` (the rules) and ``team.py``
(the policies). ``play_game(rules, strategies, seed, game, sides=None)`` plays one game."""
from .game import Game, play_game  # noqa: F401 (the interface the tests and the contract use)
