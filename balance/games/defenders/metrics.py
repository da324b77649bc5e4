"""What ``balance compare`` measures in Defenders of the Realm, game by game, as exact integers.

A cooperative game has one result for the whole team (``seat_columns = 0``): the team's win
comes first, so "how much harder is variant X" reads in team win-rate points.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.game import WIN_UNIT

from . import CAPPED_CODE

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number


@dataclass(frozen=True)
class CompareMetrics:
    """Columns: team_win (x WIN_UNIT); capped (1 if the turn cap stopped the game); length (hero
    turns); generals_slain; crystals and minions (on the board at the end); deaths (heroes lost)."""

    players: int
    seat_columns: int = 0  # no per-seat win-share columns (cooperative: one team result)

    @property
    def names(self) -> list[str]:
        return ["team_win", "capped", "length", "generals_slain", "crystals", "minions", "deaths"]

    @property
    def units(self) -> list[str]:
        return [RATE, RATE, VALUE, VALUE, VALUE, VALUE, VALUE]

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT), 1, 1, 1, 1, 1, 1], np.float64)

    def per_game(self, chunk, rules) -> np.ndarray:
        """A chunk's per-game metrics as scaled integers: int64[n_games, n_metrics]."""
        board = chunk.columns["board"]
        return np.column_stack([
            chunk.win_units[:, 0].astype(np.int64),
            (chunk.outcome == CAPPED_CODE).astype(np.int64),
            chunk.length.astype(np.int64),
            chunk.columns["slain"].sum(axis=1),
            board[:, 1],
            board[:, 0],
            chunk.columns["deaths"].sum(axis=1),
        ])

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        return np.array([1.0, 1.0, float(rules.turn_cap), 4.0, float(rules.taint_crystals),
                         4.0 * rules.minions_per_colour, float(rules.players * rules.turn_cap)], np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players."""
    return CompareMetrics(players)
