"""Python side of the dice-race kernel: arrays in, a Chunk with the core counters out."""
from __future__ import annotations

import numpy as np

from balance.core import kit
from balance.core.counters import BaseEngine, Chunk
from balance.core.errors import BalanceError
from balance.core.strategy import Strategy

from . import CAPPED_CODE, FINISHED, GAME, kernel
from .rules import DICE_SETS, Rules
from .strategies import MAX_PARAMS

assert (kernel.FINISHED, kernel.CAPPED) == (FINISHED, CAPPED_CODE)  # the kernel's outcome codes


def side_names(rules: Rules) -> list[str]:
    """The dice sets a seat can play (what --side accepts), in side-index order."""
    return list(DICE_SETS)


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, each seat on a dice set.

    sides: each seat's dice set (side index), or None: every game draws them from its own
    stream. No own tables: every table of a run is a core one (balance.core.schema.CORE_TABLES)."""

    GAME = GAME

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None, card_strength=None):
        if card_strength is not None:
            raise BalanceError("dice-race has no restricted play (nothing a seat can be denied); "
                               "run it without --card-strength")
        if len(strategies) != rules.players:
            raise BalanceError(f"{len(strategies)} strategies for {rules.players} players")
        self.rules = rules
        self.strategies = list(strategies)
        self.sids = np.array([s.info.id for s in strategies], np.int64)
        self.prm = np.array([s.param_row(MAX_PARAMS) for s in strategies], np.float64)
        self.side_names = side_names(rules)
        if sides is not None:
            sides = tuple(int(s) for s in sides)
            if len(sides) != rules.players or not all(0 <= s < len(DICE_SETS) for s in sides):
                raise BalanceError(f"sides {list(sides)}: give one dice set per seat, each 0.."
                                   f"{len(DICE_SETS) - 1} ({', '.join(DICE_SETS)})")
        self.given_sides = sides
        self.given = np.array(sides if sides is not None else [-1] * rules.players, np.int64)
        self.faces = np.array(list(DICE_SETS.values()), np.int64)
        self.max_score = rules.max_score
        self.max_length = rules.max_rounds

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        p, r = self.rules.players, self.rules
        win_units = np.zeros((n_games, p), np.int32)
        scores = np.zeros((n_games, p), np.int32)
        outcome = np.zeros(n_games, np.int8)
        length = np.zeros(n_games, np.int32)
        sides = np.zeros((n_games, p), np.int16)
        kernel.play_games(p, r.target, r.max_rounds, r.bust_face, self.sids, self.prm, self.faces,
                          self.given, np.uint64(seed), first_game, n_games, win_units, scores,
                          outcome, length, sides)
        chunk = Chunk(first_game, win_units, outcome, length, scores, sides)
        chunk.totals = self.empty_totals()
        kit.fold_chunk(chunk, chunk.totals)
        return chunk
