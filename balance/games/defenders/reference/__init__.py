"""The plain-Python oracle of Defenders of the Realm: ``game.py`` (the rules) and ``team.py``
(the policies). ``play_game(rules, strategies, seed, game, sides=None)`` plays one game;
``chance_draws(record, players)`` reads what no seat's strategy may move."""
from .game import Game, play_game

__all__ = ["Game", "chance_draws", "play_game"]  # the interface the tests and the game contract use


def chance_draws(record, players: int) -> list[list]:
    """Each seat's drawn hero and starting hand in a game ``record`` (what play_game returns):
    what no other seat's strategy may move. Later draws are not: the chance stream is shared
    in time order after setup, so later dice follow the team's play."""
    return [[(record.sides[p], tuple(record.start_hands[p]))] for p in range(players)]
