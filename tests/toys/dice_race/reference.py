"""Plain-Python reference of dice-race: slow, obvious, the oracle the kernel is tested against.

It reads the rules straight from ``Rules`` and draws from ``PyStream`` on the kernel's streams
(see kernel.py: stream ``1 + seat`` for the strategy, ``DICE_STREAM + seat`` for the seat's
dice, two dice every turn). Nothing is shared with the kernel on purpose, except the stream
numbers, which are the convention both follow.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from balance.core.game import WIN_UNIT
from balance.core.rng import PyStream
from balance.core.strategy import Strategy

from balance.core.kit import SIDE_STREAM

from . import CAPPED_CODE, FINISHED
from .rules import DICE_SETS, Rules

DICE_STREAM = 64  # the kernel's: seat s rolls from stream DICE_STREAM + s


@dataclass
class Turn:
    round: int  # 1-based
    seat: int
    dice: tuple[int, int]  # both dice drawn this turn (one die uses the first)
    two: bool  # rolled two dice
    gained: int
    score: int  # the seat's score after the turn


@dataclass
class Game:
    turns: list[Turn] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    win_units: list[int] = field(default_factory=list)
    outcome: int = FINISHED  # index into GAME.outcomes
    length: int = 0  # rounds played
    sides: list[int] = field(default_factory=list)  # each seat's dice set (index into DICE_SETS)

    def dice_of(self, seat: int) -> list[tuple[int, int]]:
        """The dice ``seat`` drew, turn by turn."""
        return [t.dice for t in self.turns if t.seat == seat]


def rolls_two(strategy: Strategy, seat: int, scores: list[int], stream: PyStream) -> bool:
    """The strategy's choice: two dice (True) or one."""
    name = strategy.name
    if name == "random":
        return stream.below(2) == 1
    if name == "cautious":
        return False
    if name == "bold":
        return True
    if name == "threshold":
        (behind,) = strategy.values
        return max(scores) - scores[seat] >= behind
    raise ValueError(f"no reference for strategy {name!r}")


class _Scripted:
    """Dice from a fixed list (a worked example): ``below(6)`` gives the next face - 1."""

    def __init__(self, faces):
        self.faces = iter(faces)

    def below(self, n: int) -> int:
        assert n == 6
        return next(self.faces) - 1


def play_game(rules: Rules, strategies: list[Strategy], seed: int, game: int,
              dice: list[list[int]] | None = None, sides: list[int] | None = None) -> Game:
    """Play game number ``game`` of a run with ``seed`` (the kernel's streams). dice: per seat
    the faces it rolls, two per turn, instead of its dice stream (for worked examples; then
    every seat plays standard dice unless ``sides`` says otherwise). sides: each seat's dice
    set (index into DICE_SETS), or None to draw them as the kernel does."""
    n = rules.players
    assert len(strategies) == n
    sets = list(DICE_SETS.values())
    side_stream = PyStream(seed, game, SIDE_STREAM)
    drawn = [side_stream.below(len(sets)) for _ in range(n)]  # drawn for every seat, given or not
    if sides is None:
        sides = [0] * n if dice is not None else drawn
    chance = [PyStream(seed, game, 1 + p) for p in range(n)]
    rolls = ([_Scripted(faces) for faces in dice] if dice is not None
             else [PyStream(seed, game, DICE_STREAM + p) for p in range(n)])
    scores = [0] * n
    g = Game()
    while True:
        g.length += 1
        for p in range(n):
            two = rolls_two(strategies[p], p, scores, chance[p])
            face = sets[sides[p]]
            d1, d2 = face[rolls[p].below(6)], face[rolls[p].below(6)]
            if not two:
                gained = d1
            elif rules.bust_face in (d1, d2):  # bust_face 0 is no face: never busts
                gained = 0
            else:
                gained = d1 + d2
            scores[p] += gained
            g.turns.append(Turn(g.length, p, (d1, d2), two, gained, scores[p]))
        if max(scores) >= rules.target:
            winners = [p for p in range(n) if scores[p] == max(scores)]
            g.win_units = [WIN_UNIT // len(winners) if p in winners else 0 for p in range(n)]
            g.outcome = FINISHED
            break
        if g.length >= rules.max_rounds:
            g.win_units = [0] * n
            g.outcome = CAPPED_CODE
            break
    g.scores = scores
    g.sides = list(sides)
    return g


def chance_draws(record, players: int) -> list[list]:
    """Each seat's dice, turn by turn, in a game ``record`` (what play_game returns): what no
    other seat's strategy may move (the game contract's common random numbers)."""
    return [record.dice_of(p) for p in range(players)]
