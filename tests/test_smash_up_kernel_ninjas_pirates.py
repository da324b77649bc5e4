"""The kernel plays the reference's games game by game with Ninjas and Pirates card abilities:
every seat ("Ninjas", "Pirates"), mixes with Robots (already ported), and Tiger Assassin's
any-base variant."""
import pytest

from balance.games.smash_up.kernel.run import play_one
from balance.games.smash_up.reference import Game, Greedy, Random
from balance.games.smash_up.rules import Rules

N = 10  # games per cell


def _reference(rules, factions, strategy, seed, game):
    players = [Greedy() if strategy == "greedy" else Random() for _ in range(rules.players)]
    g = Game(rules, factions, players, seed, game).setup().play()
    return (-1 if g.winner is None else g.winner), g.turns, [p.vp for p in g.players]


def _check(rules, factions, strategy, seed, games):
    for game in range(games):
        assert play_one(rules, factions, [strategy] * rules.players, seed, game) == \
            _reference(rules, factions, strategy, seed, game), game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_ninjas_pirates_every_seat(players, strategy):
    _check(Rules(players=players), [("Ninjas", "Pirates")] * players, strategy, 7, N)


MIXES = [("Ninjas", "Robots"), ("Robots", "Pirates"), ("Pirates", "Ninjas"), ("Robots", "Ninjas")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_ninjas_pirates_with_robots(players, strategy):
    _check(Rules(players=players), MIXES[:players], strategy, 17, N // 2)


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_tiger_assassin_any_base(strategy):
    rules = Rules(players=3, tiger_assassin_any_base=True)
    _check(rules, [("Ninjas", "Pirates")] * 3, strategy, 23, N // 2)
