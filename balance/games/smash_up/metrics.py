"""What ``balance compare`` measures in smash-up, game by game, as exact integers."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.counters import holders_win_units
from balance.core.game import WIN_UNIT

from . import CAPPED_CODE
from .catalogue import FACTIONS

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number
SCORE_ROOM = 100  # VP above vp_to_win a game can reach (play on while tied): the histograms' room


@dataclass(frozen=True)
class CompareMetrics:
    """Columns, seats first: win_share_seat{s} (x WIN_UNIT); capped (1 if the turn cap
    stopped the game); length (turns played); mean_vp (x players: the VP sum); vp_margin (the
    winner's VP minus the runner-up's: how close the game was); then, when every variant
    draws the factions (``factions``), win_share_{Faction} for each of the 8 factions: the
    win share of the seat dealt it (x WIN_UNIT; 0 in a game that deals it to no seat).

    A faction's column is a Horvitz-Thompson estimate of its win rate: every game draws 2P
    of the 8 factions uniformly from its own stream, so each is dealt with probability
    2P / 8, and the column's mean divided by that probability (its scale) estimates the
    faction's win rate without bias. The draw uses no rule, so both variants deal the same
    factions to the same seats in every game, and the paired difference is that faction's
    change alone. Where the seats' win shares cannot show a change to one faction (the sides
    are drawn over the seats), these can: a rule variant that weakens a faction's card."""

    players: int
    factions: bool = False
    side_label = "factions"  # what compare's side_imbalance row calls the sides

    @property
    def side_metrics(self) -> list[str]:
        """The metrics that are each faction's win rate (compare's side_imbalance reads them)."""
        return [f"win_share_{f}" for f in FACTIONS] if self.factions else []

    @property
    def dealt(self) -> float:
        """The chance a game deals a given faction to some seat (drawn factions)."""
        return 2 * self.players / len(FACTIONS)

    @property
    def names(self) -> list[str]:
        return [f"win_share_seat{s}" for s in range(self.players)] + [
            "capped", "length", "mean_vp", "vp_margin"] + self.side_metrics

    @property
    def units(self) -> list[str]:
        return [RATE] * self.players + [RATE, VALUE, VALUE, VALUE] + [RATE] * (len(FACTIONS) * self.factions)

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT)] * self.players + [1, 1, self.players, 1]
                        + [WIN_UNIT * self.dealt] * (len(FACTIONS) * self.factions), np.float64)

    def per_game(self, chunk, rules) -> np.ndarray:
        """A chunk's per-game metrics as scaled integers: int64[n_games, n_metrics]."""
        vp = np.sort(chunk.scores.astype(np.int64), axis=1)
        units = chunk.win_units.astype(np.int64)
        columns = [units[:, s] for s in range(rules.players)] + [
            (chunk.outcome == CAPPED_CODE).astype(np.int64),
            chunk.length.astype(np.int64),
            vp.sum(axis=1),
            vp[:, -1] - vp[:, -2],
        ]
        if self.factions:
            from .engine import PAIRS  # here: the engine imports this module

            held = np.asarray(PAIRS, np.int64)[chunk.sides.astype(np.int64)]  # [n, P, 2]: each seat's factions
            columns += holders_win_units(held, units, range(len(FACTIONS)))  # one seat at most
        return np.column_stack(columns)

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        top = float(rules.vp_to_win + SCORE_ROOM)
        return np.array([1.0] * self.players + [1.0, rules.max_turns, top, top]
                        + [1.0 / self.dealt] * (len(FACTIONS) * self.factions), np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players:
    the factions' win shares too when every variant draws the factions (a draft deals them
    by the seats' choices, with no known chance per faction)."""
    return CompareMetrics(players, factions=all(r.factions == "drawn" for r in rules))
