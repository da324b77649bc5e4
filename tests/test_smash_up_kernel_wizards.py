"""The kernel plays the reference's games game by game with Wizards card abilities: every seat
("Wizards", "Robots") and ("Wizards", "Pirates"), and mixes with the factions already ported
(Ninjas, Pirates, Robots) — Mass Enchantment plays another player's revealed action, so the
opponents' action-rich decks (Ninjas, Pirates, Wizards) matter. No rules variant switch is read
by a Wizards card (rules.py: Collector, Tiger Assassin, The Homeworld, the Trickster lists)."""
import numpy as np
import pytest

from balance.core.rng import PyStream
from balance.games.smash_up.kernel.lookahead import transfer
from balance.games.smash_up.kernel.run import deck_rows, new_state, play_one
from balance.games.smash_up.kernel.turn import play_game
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


def _simple_reference(rules, factions, seed, game):
    """The reference with Mass Enchantment's default as before smash-up/4: the first revealed
    action whose own default says play (what it still does inside a look-ahead)."""
    g = Game(rules, factions, [Greedy() for _ in range(rules.players)], seed, game)
    g.looking_ahead = True
    g.setup().play()
    return (-1 if g.winner is None else g.winner), g.turns, [p.vp for p in g.players]


def test_mass_enchantments_look_ahead_plays_the_references_games():
    """Greedy seats try each revealed action (kernel ``lookahead``, reference a copy of the game):
    the kernel plays the reference's games, and in these games the look-ahead decides 6 of 10
    (they end otherwise with the first-that-wants default: the figure docs/SMASH_UP_EFFECTS.md
    gives), so an engine without it fails here."""
    rules = Rules(players=4)
    decided = 0
    for game in range(10):
        kernel = play_one(rules, MIXES_3, ["greedy"] * 4, 37, game)
        assert kernel == _reference(rules, MIXES_3, "greedy", 37, game), game
        decided += kernel != _simple_reference(rules, MIXES_3, 37, game)
    assert decided == 6


def test_the_look_ahead_restores_the_state_it_saved():
    """``lookahead.transfer`` saves what a game changes and puts back exactly that: a finished
    game's arrays, scribbled over, come back equal (the lists as far as filled; the stack is
    empty once a game is over, and the kernel = reference tests cover it mid-game)."""
    rules = Rules(players=3)
    box, decks = new_state(rules, ["greedy"] * 3)
    st = box[0]
    for s in range(len(st["states"])):
        st["states"][s] = np.uint64(PyStream(5, 0, s).state)
    play_game(st, deck_rows(decks, MIXES_3[:3]))
    before = {f: st[f].copy() for f in ("cs", "ln", "ss", "ps", "gr", "stats", "tv", "states")}
    lists = [list(st["lst"][i, :n]) for i, n in enumerate(st["ln"])]
    transfer(st, True)
    for f in before:
        st[f][...] = 7
    st["lst"][...] = -1
    transfer(st, False)
    for f, a in before.items():
        assert np.array_equal(st[f], a), f
    assert [list(st["lst"][i, :n]) for i, n in enumerate(st["ln"])] == lists
