"""What ``balance compare`` measures in zenonzard, game by game, as exact integers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.counters import holders_win_units
from balance.core.game import WIN_UNIT

from . import CAPPED_CODE, GAME
from .sides import FORCES, PAIRS

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number
DECK_OUT = GAME.outcomes.index("deck-out")
HOLDERS = 2 * (len(FORCES) - 1) / len(PAIRS)  # seats holding a given Force, on average per game: 0.4


@dataclass(frozen=True)
class CompareMetrics:
    """Columns, seats first: win_share_seat{s} (x WIN_UNIT); capped (1 if the turn cap
    stopped the game); length (turns played); deck_out (1 if a player lost by drawing from an
    empty deck); winner_life (the winner's player life left, 0 when capped); forces_lost (both
    seats' Forces destroyed); then win_share_{Force} for each of the 10 Forces: the win units
    of the seats holding it (x WIN_UNIT; 0 in a game where no seat holds it).

    A Force's column is a Horvitz-Thompson estimate of its win rate (the win rate of a seat
    holding it): each seat's Force pair is drawn uniformly of the 45 from the game's side
    stream, before anything a rule decides, so a seat holds a given Force with probability
    9/45 and the column's mean divided by the expected number of holders, 2 x 9/45 (its
    scale), estimates that rate without bias; a game where both seats hold it adds both seats'
    units (one win between them). Both variants deal the same pairs in every game, so the
    paired difference is that Force's change alone: a rule such as ``force_overflow`` may
    move some Forces and not others, which the seats' shares cannot show."""

    players: int
    side_label = "Forces"  # what compare's side_imbalance row calls the sides

    @property
    def side_metrics(self) -> list[str]:
        """The metrics that are each Force's win rate (compare's side_imbalance reads them)."""
        return [f"win_share_{f}" for f in FORCES]

    @property
    def names(self) -> list[str]:
        return [f"win_share_seat{s}" for s in range(self.players)] + [
            "capped", "length", "deck_out", "winner_life", "forces_lost"] + self.side_metrics

    @property
    def units(self) -> list[str]:
        return [RATE] * self.players + [RATE, VALUE, RATE, VALUE, VALUE] + [RATE] * len(FORCES)

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT)] * self.players + [1, 1, 1, 1, 1]
                        + [WIN_UNIT * HOLDERS] * len(FORCES), np.float64)

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
        held = np.asarray(PAIRS, np.int64)[chunk.sides.astype(np.int64)]  # [n, 2, 2]: each seat's Forces
        columns += holders_win_units(held, chunk.win_units, range(len(FORCES)))  # both seats may hold one
        return np.column_stack(columns)

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        return np.array([1.0] * self.players + [1.0, rules.turn_cap or rules.turn_bound, 1.0,
                                                float(rules.total_life), 4.0]
                        + [1.0 / HOLDERS] * len(FORCES), np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players."""
    return CompareMetrics(players)
