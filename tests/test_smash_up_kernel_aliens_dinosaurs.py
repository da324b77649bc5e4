"""The kernel plays the reference's games game by game with Aliens and Dinosaurs card abilities:
every seat ("Aliens", "Dinosaurs"), mixes with Robots, Ninjas and Pirates (already ported), and
Collector's collector_excludes_collectors variant [D4]."""
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
def test_aliens_dinosaurs_every_seat(players, strategy):
    _check(Rules(players=players), [("Aliens", "Dinosaurs")] * players, strategy, 5, N)


MIXES = [("Aliens", "Robots"), ("Dinosaurs", "Ninjas"), ("Pirates", "Aliens"), ("Robots", "Dinosaurs")]
MIXES_2 = [("Dinosaurs", "Pirates"), ("Ninjas", "Aliens"), ("Aliens", "Dinosaurs"), ("Pirates", "Robots")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
@pytest.mark.parametrize("mixes", [MIXES, MIXES_2], ids=["mix1", "mix2"])
def test_aliens_dinosaurs_mixed(players, strategy, mixes):
    _check(Rules(players=players), mixes[:players], strategy, 13, N)


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_collector_excludes_collectors(strategy):
    rules = Rules(players=3, collector_excludes_collectors=True)
    _check(rules, [("Aliens", "Dinosaurs")] * 3, strategy, 29, N)

