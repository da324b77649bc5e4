"""Plain-Python reference of siege: slow, obvious, the oracle the kernel is tested against.

It reads the rules straight from ``Rules`` and draws from ``PyStream`` on the kernel's streams
(see kernel.py: stream 0 for chance, the horde's growth then one action die per seat every
round; stream ``1 + seat`` for the seat's strategy; ``SIDE_STREAM`` for drawn heroes). Nothing
is shared with the kernel on purpose, except the stream numbers, the convention both follow.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from balance.core.game import WIN_UNIT
from balance.core.kit import SIDE_STREAM  # the stream drawn heroes come from (the convention)
from balance.core.rng import PyStream
from balance.core.strategy import Strategy

from . import CAPPED_CODE, WALL_FELL, WON
from .rules import HEROES, Rules

POWER = {"knight": 3, "healer": 1}  # fixed fight power; archer and mage use their action die
REPAIR = {"healer": 2}  # wall points a repair adds; every other class 1
SHELTER = 3  # attackers the wall shrugs off each round


@dataclass
class Round:
    number: int  # 1-based
    growth: int  # attackers added at its start
    dice: list[int]  # the action die of each seat
    repaired: list[bool]  # each seat's choice (True: repaired, False: fought)
    horde: int  # attackers left after the heroes acted
    wall: int  # wall points at its end (after the damage)


@dataclass
class Game:
    rounds: list[Round] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)  # the hero (index into HEROES) of each seat
    win_units: list[int] = field(default_factory=list)
    scores: None = None  # siege has no score
    outcome: int = CAPPED_CODE  # index into GAME.outcomes
    length: int = 0  # rounds played


def draw_heroes(seed: int, game: int, players: int) -> list[int]:
    """The distinct heroes of a game drawn from its side stream (partial Fisher-Yates)."""
    stream = PyStream(seed, game, SIDE_STREAM)
    pool = list(range(len(HEROES)))
    for i in range(players):
        j = i + stream.below(len(HEROES) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:players]


def repairs(strategy: Strategy, wall: int, stream: PyStream) -> bool:
    """The strategy's choice: repair (True) or fight."""
    name = strategy.name
    if name == "random":
        return stream.below(2) == 1
    if name == "fighter":
        return False
    if name == "coordinated":
        (repair_below,) = strategy.values
        return wall < repair_below
    raise ValueError(f"no reference for strategy {name!r}")


def removes(hero: str, die: int) -> int:
    if hero == "archer":
        return die
    if hero == "mage":
        return 5 if die >= 4 else 1
    return POWER[hero]


def play_game(rules: Rules, strategies: list[Strategy], seed: int, game: int,
              sides: list[int] | None = None) -> Game:
    """Play game number ``game`` of a run with ``seed`` (the kernel's streams). sides: the hero
    index of each seat, or None to draw them as the kernel does."""
    n = rules.players
    assert len(strategies) == n
    heroes = list(sides) if sides is not None else draw_heroes(seed, game, n)
    chance = PyStream(seed, game, 0)
    mine = [PyStream(seed, game, 1 + p) for p in range(n)]
    g = Game(sides=heroes)
    wall, horde = rules.wall, 0
    while True:
        g.length += 1
        growth = 1 + chance.below(rules.horde_growth)
        horde += growth
        dice = [1 + chance.below(6) for _ in range(n)]
        choices = []
        for p in range(n):
            hero = HEROES[heroes[p]]
            repair = repairs(strategies[p], wall, mine[p])
            choices.append(repair)
            if repair:
                wall = min(rules.wall, wall + REPAIR.get(hero, 1))
            else:
                horde = max(0, horde - removes(hero, dice[p]))
        if horde == 0 and g.length >= rules.min_rounds:
            g.outcome, done = WON, True
        else:
            wall -= max(0, horde - SHELTER)
            if wall <= 0:
                g.outcome, done = WALL_FELL, True
            else:
                g.outcome, done = CAPPED_CODE, g.length >= rules.max_rounds
        g.rounds.append(Round(g.length, growth, dice, choices, horde, wall))
        if done:
            break
    g.win_units = [WIN_UNIT if g.outcome == WON else 0] * n
    return g


def chance_draws(record, players: int) -> list[list]:
    """Each seat's hero, then the horde's growth and the seat's action die round by round, in a
    game ``record`` (what play_game returns): what no other seat's strategy may move."""
    return [[("hero", record.sides[p])] + [(r.growth, r.dice[p]) for r in record.rounds]
            for p in range(players)]
