"""Plain-Python reference of Smash Up: slow, obvious, written from the spec; the oracle the
kernel is tested against game by game (rules/smash-up.md, rules/smash-up-cards.md).

``play_seated(rules, factions, players, seed, game)`` plays one game: ``factions`` per seat
(its two factions), ``players`` per seat (``Greedy()``, ``Random()`` or ``Scripted(...)``).
``play_game(rules, strategies, seed, game, sides=None, removed=None)`` is the game contract's
entry (the one every game's reference has): declared strategies, sides as the engine's pair
indices or drawn from the game's side stream exactly as the kernel draws them; ``removed`` a
card taken out of its seat's deck (card strength).
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.core.game import WIN_UNIT
from balance.core.kit import SIDE_STREAM
from balance.core.rng import PyStream

from .. import CAPPED_CODE, FINISHED
from . import bases, cards  # noqa: F401  (fill the ability tables)
from .game import Game
from .players import Greedy, Planner, Random, Scripted

# Games per strategy and player count in every game's kernel = reference check
# (tests/test_toys.py; 30 where a reference names none): this plain Python is slow
# (its greedy values every move on every base).
CHECK_GAMES = 8

__all__ = ["Game", "Greedy", "Planner", "Random", "Scripted", "Result", "play_game", "play_seated", "draw_sides",
           "draft_sides", "chance_draws"]
PLAYERS = {"greedy": Greedy, "random": Random, "planner": Planner}


def play_seated(rules, factions, players, seed=0, game=0, removed=None) -> Game:
    return Game(rules.validated(), factions, players, seed, game, removed=removed).setup().play()


@dataclass
class Result:
    """One game as the contract reads it: win_units, scores (VP) and sides per seat, outcome
    (0 finished, 1 capped: GameInfo.outcomes order) and length (turns)."""

    win_units: list[int]
    scores: list[int]
    sides: list[int]
    outcome: int
    length: int
    decks: list[tuple[str, ...]]  # per seat its deck as setup shuffled it (card names, top last)


def draw_sides(seed: int, game: int, players: int) -> list[int]:
    """Each seat's faction pair (side index) of a game whose sides are drawn: 2 * players
    distinct factions from the side stream (partial Fisher-Yates, ``kit.draw_distinct``),
    seat p taking draws 2p and 2p + 1."""
    from ..engine import PAIRS

    stream = PyStream(seed, game, SIDE_STREAM)
    pool = list(range(8))
    for i in range(2 * players):
        j = i + stream.below(8 - i)
        pool[i], pool[j] = pool[j], pool[i]
    return [PAIRS.index(tuple(sorted(pool[2 * p:2 * p + 2]))) for p in range(players)]


def draft_sides(seed: int, game: int, strategies: list[str]) -> list[int]:
    """Each seat's faction pair (side index) from the snake draft (rules/smash-up.md, Setup):
    seats pick in turn order, then in reverse. ``random`` picks uniformly among the factions
    left (the side stream); any other strategy takes the best by the draft table
    (``draft.draft_rates``): first the best faction, then the best pair with it; ties go to
    the faction first in catalogue order."""
    from ..draft import draft_rates
    from ..engine import PAIRS

    rates, n = draft_rates(), len(strategies)
    stream = PyStream(seed, game, SIDE_STREAM)
    left = list(range(8))
    picks: list[list[int]] = [[] for _ in range(n)]
    for order in (range(n), reversed(range(n))):
        for p in order:
            if strategies[p] == "random":
                f = left[stream.below(len(left))]
            else:
                f = max(left, key=lambda f: (rates[f, f] if not picks[p] else rates[picks[p][0], f], -f))
            left.remove(f)
            picks[p].append(f)
    return [PAIRS.index(tuple(sorted(p))) for p in picks]


def play_game(rules, strategies, seed: int, game: int, sides=None, removed=None) -> Result:
    """``removed``: a card name taken out of the deck of the seat whose pair holds it."""
    from ..engine import factions_of

    n = rules.players
    if sides is None:
        sides = (draft_sides(seed, game, [s.name for s in strategies]) if rules.factions == "draft"
                 else draw_sides(seed, game, n))
    sides = list(sides)
    g = play_seated(rules, [factions_of(s) for s in sides], [PLAYERS[s.name](*s.values) for s in strategies],
                    seed, game, removed)
    return Result([WIN_UNIT if p == g.winner else 0 for p in range(n)], [pl.vp for pl in g.players],
                  sides, FINISHED if g.winner is not None else CAPPED_CODE, g.turns,
                  [pl.dealt for pl in g.players])


def chance_draws(record: Result, players: int) -> list[list]:
    """Each seat's faction pair and its deck as setup shuffled it, in a game ``record`` (what
    play_game returns): what no other seat's strategy may move, with the pairs drawn (the
    ``factions`` rule's default; in a draft each seat's picks narrow the next seat's choice).
    Later draws are not: a reshuffled discard pile takes the chance stream where play left it."""
    return [[record.sides[p], record.decks[p]] for p in range(players)]
