"""What ``balance compare`` measures in Defenders of the Realm, game by game, as exact integers.

A cooperative game has one result for the whole team (``seat_columns = 0``): the team's win
comes first, so "how much harder is variant X" reads in team win-rate points.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.core.counters import holders_win_units
from balance.core.game import WIN_UNIT

from . import CAPPED_CODE
from .catalogue import HEROES

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number


@dataclass(frozen=True)
class CompareMetrics:
    """Columns: team_win (x WIN_UNIT); capped (1 if the turn cap stopped the game); length (hero
    turns); generals_slain; crystals and minions (on the board at the end); deaths (heroes lost);
    then, when every variant draws its team from the same hero pool (``pool``, hero indices) of
    more heroes than seats, team_win_{Hero} for each hero of the pool (``Eagle Rider``:
    team_win_EagleRider): the team's win units in a game whose team holds the hero, else 0
    (every seat carries the team's result, and one seat holds the hero).

    A hero's column is a Horvitz-Thompson estimate of the team's win rate with that hero: each
    game draws its players distinct heroes of the pool's m uniformly from its own stream, so a
    hero is in the team with probability players / m, and the column's mean divided by that
    (its scale) estimates the rate without bias. Both variants draw the same teams in every
    game, so the paired difference says which heroes a rule change helps or hurts most."""

    players: int
    pool: tuple[int, ...] = ()  # the heroes measured one by one (empty: none)
    seat_columns: int = 0  # no per-seat win-share columns (cooperative: one team result)
    side_label = "heroes"  # what compare's side_imbalance row calls the sides

    @property
    def side_metrics(self) -> list[str]:
        """The metrics that are each hero's team win rate (compare's side_imbalance reads them)."""
        return [f"team_win_{HEROES[h].replace(' ', '')}" for h in self.pool]

    @property
    def in_team(self) -> float:
        """The chance a game's team holds a given hero of the pool (1 with none measured)."""
        return self.players / len(self.pool) if self.pool else 1.0

    @property
    def names(self) -> list[str]:
        return ["team_win", "capped", "length", "generals_slain", "crystals", "minions", "deaths"] + self.side_metrics

    @property
    def units(self) -> list[str]:
        return [RATE, RATE, VALUE, VALUE, VALUE, VALUE, VALUE] + [RATE] * len(self.pool)

    @property
    def scales(self) -> np.ndarray:
        return np.array([float(WIN_UNIT), 1, 1, 1, 1, 1, 1] + [WIN_UNIT * self.in_team] * len(self.pool),
                        np.float64)

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
        ] + holders_win_units(chunk.sides[:, :, None], chunk.win_units, self.pool))  # one seat, the team's win

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled, every metric >= 0)."""
        return np.array([1.0, 1.0, float(rules.turn_cap), 4.0, float(rules.taint_crystals),
                         4.0 * rules.minions_per_colour, float(rules.players * rules.turn_cap)]
                        + [1.0 / self.in_team] * len(self.pool), np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players: each
    hero's too when every variant draws its team from one pool larger than the team (a pool
    of exactly the team puts every hero in every game: nothing to tell apart)."""
    pools = {r.pool for r in rules}
    pool = pools.pop() if len(pools) == 1 else ()
    return CompareMetrics(players, pool if len(pool) > players else ())
