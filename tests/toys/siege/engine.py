"""Python side of the siege kernel: arrays in, a Chunk with the core counters out."""
from __future__ import annotations

import numpy as np

from balance.core import kit
from balance.core.counters import BaseEngine, Chunk, distinct_sides
from balance.core.errors import BalanceError
from balance.core.strategy import Strategy

from . import CAPPED_CODE, GAME, WALL_FELL, WON, kernel
from .rules import HEROES, Rules
from .strategies import MAX_PARAMS

assert (kernel.WON, kernel.WALL_FELL, kernel.CAPPED) == (WON, WALL_FELL, CAPPED_CODE)


def side_names(rules: Rules) -> list[str]:
    """The hero classes a seat can play (what --side accepts), in side-index order."""
    return list(HEROES)


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, every seat a hero class.

    sides: the hero (side index) of each seat, distinct, or None: each game draws its heroes
    from its own stream (kit.draw_distinct). No score, no own tables: every table of a run is
    a core one (balance.core.schema.CORE_TABLES)."""

    GAME = GAME

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None, card_strength=None):
        if card_strength is not None:
            raise BalanceError("siege has no restricted play (nothing a seat can be denied); "
                               "run it without --card-strength")
        if len(strategies) != rules.players:
            raise BalanceError(f"{len(strategies)} strategies for {rules.players} players")
        self.rules = rules
        self.strategies = list(strategies)
        self.side_names = side_names(rules)
        sides = distinct_sides(sides, rules.players, list(HEROES), "hero class")
        self.given_sides = sides
        self.sids = np.array([s.info.id for s in strategies], np.int64)
        self.prm = np.array([s.param_row(MAX_PARAMS) for s in strategies], np.float64)
        self.given = np.array(sides if sides is not None else [-1] * rules.players, np.int64)
        self.max_length = rules.max_rounds

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        p, r = self.rules.players, self.rules
        win_units = np.zeros((n_games, p), np.int32)
        outcome = np.zeros(n_games, np.int8)
        length = np.zeros(n_games, np.int32)
        sides = np.zeros((n_games, p), np.int16)
        kernel.play_games(p, r.wall, r.min_rounds, r.max_rounds, r.horde_growth, self.sids, self.prm,
                          self.given, self.given_sides is None, np.uint64(seed), first_game, n_games,
                          win_units, outcome, length, sides)
        chunk = Chunk(first_game, win_units, outcome, length, scores=None, sides=sides)
        chunk.totals = self.empty_totals()
        kit.fold_chunk(chunk, chunk.totals)
        return chunk
