"""The kernel plays the reference's games game by game with Wizards card abilities: every seat
("Wizards", "Robots") and ("Wizards", "Pirates"), and mixes with the factions already ported
(Ninjas, Pirates, Robots) — Mass Enchantment plays another player's revealed action, so the
opponents' action-rich decks (Ninjas, Pirates, Wizards) matter. No rules variant switch is read
by a Wizards card (rules.py: Collector, Tiger Assassin, The Homeworld, the Trickster lists)."""
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
@pytest.mark.parametrize("seat", [("Wizards", "Robots"), ("Wizards", "Pirates")])
def test_wizards_every_seat(seat, players, strategy):
    _check(Rules(players=players), [seat] * players, strategy, 31, N)


MIXES = [("Wizards", "Ninjas"), ("Pirates", "Ninjas"), ("Robots", "Wizards"), ("Ninjas", "Pirates")]
MIXES_2 = [("Pirates", "Wizards"), ("Ninjas", "Robots"), ("Wizards", "Ninjas"), ("Robots", "Pirates")]
# Wizards at every seat: Mass Enchantment reveals Wizards actions (another player's Time Loop);
# Hidden Ninja plays a Chronomage or Neophyte in a scoring window (grant A used at once)
MIXES_3 = [("Wizards", "Ninjas"), ("Ninjas", "Wizards"), ("Wizards", "Pirates"), ("Robots", "Wizards")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
@pytest.mark.parametrize("mix", [MIXES, MIXES_2, MIXES_3])
def test_wizards_with_ported_factions(mix, players, strategy):
    _check(Rules(players=players), mix[:players], strategy, 37, N)
