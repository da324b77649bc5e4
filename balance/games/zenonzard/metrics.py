"""What ``balance compare`` measures in zenonzard, game by game, as exact integers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.game import WIN_UNIT

from . import CAPPED_CODE, GAME

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number
DECK_OUT = GAME.outcomes.index("deck-out")


@dataclass(frozen=True)
class CompareMetrics:
    """Columns, seats first: win_share_seat{s} (x WIN_UNIT); capped (1 if the turn cap
    stopped the game); length (turns played); deck_out (1 if a player lost by drawing from an
    empty deck); winner_life (the winner's player life left, 0 when capped); forces_lost (both
    seats' Forces destroyed)."""

    players: int

    @property
    def names(self) -> list[str]:
        return [f"win_share_seat{s}" for s in range(self.players)] + [
            "capped", "length", "deck_out", "winner_life", "forces_lost"]

    @property
    def units(self) -> list[str]:
        return [RATE] * self.players + [RATE, VALUE, RATE, VALUE, VALUE]

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT)] * self.players + [1, 1, 1, 1, 1], np.float64)

    def per_game(self, chunk, rules) -> np.ndarray:
        """A chunk's per-game metrics as scaled integers: int64[n_games, n_metrics]."""
        won = chunk.win_units > 0
        life = np.maximum(chunk.columns["life_left"], 0)
        columns = [chunk.win_units[:, s].astype(np.int64) for s in range(rules.players)] + [
            (chunk.outcome == CAPPED_CODE).astype(np.int64),
            chunk.length.astype(np.int64),
            (chunk.outcome == DECK_OUT).astype(np.int64),
            (life * won).sum(axis=1),
            chunk.columns["forces_lost"].sum(axis=1),
        ]
        return np.column_stack(columns)

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        return np.array([1.0] * self.players + [1.0, rules.turn_cap or rules.turn_bound, 1.0,
                                                float(rules.total_life), 4.0], np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players."""
    return CompareMetrics(players)
