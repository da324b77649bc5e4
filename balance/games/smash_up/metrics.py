"""What ``balance compare`` measures in smash-up, game by game, as exact integers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.game import WIN_UNIT

from . import CAPPED_CODE

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number
SCORE_ROOM = 100  # VP above vp_to_win a game can reach (play on while tied): the histograms' room


@dataclass(frozen=True)
class CompareMetrics:
    """Columns, seats first: win_share_seat{s} (x WIN_UNIT); capped (1 if the turn cap
    stopped the game); length (turns played); mean_vp (x players: the VP sum); vp_margin (the
    winner's VP minus the runner-up's: how close the game was)."""

    players: int

    @property
    def names(self) -> list[str]:
        return [f"win_share_seat{s}" for s in range(self.players)] + [
            "capped", "length", "mean_vp", "vp_margin"]

    @property
    def units(self) -> list[str]:
        return [RATE] * self.players + [RATE, VALUE, VALUE, VALUE]

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT)] * self.players + [1, 1, self.players, 1], np.float64)

    def per_game(self, chunk, rules) -> np.ndarray:
        """A chunk's per-game metrics as scaled integers: int64[n_games, n_metrics]."""
        vp = np.sort(chunk.scores.astype(np.int64), axis=1)
        columns = [chunk.win_units[:, s].astype(np.int64) for s in range(rules.players)] + [
            (chunk.outcome == CAPPED_CODE).astype(np.int64),
            chunk.length.astype(np.int64),
            vp.sum(axis=1),
            vp[:, -1] - vp[:, -2],
        ]
        return np.column_stack(columns)

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        top = float(rules.vp_to_win + SCORE_ROOM)
        return np.array([1.0] * self.players + [1.0, rules.max_turns, top, top], np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players."""
    return CompareMetrics(players)
