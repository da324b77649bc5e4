"""What ``balance compare`` measures in avengers-cards, game by game, as exact integers.

The generic comparison (``balance.analysis.compare``) pairs these per-game values across rule
variants; everything that names this game's concepts (scores, villains beaten, tokens) lives
here, declared through ``compare_metrics``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance.core.game import WIN_UNIT

RATE, VALUE = "rate", "value"  # a rate shows in % (differences in pp); a value as a number


@dataclass(frozen=True)
class CompareMetrics:
    """The metrics of one comparison at ``players`` players, for every variant's rules.

    Columns, seats first (the generic seat test reads the first ``players``):
    win_share_seat{s} (x WIN_UNIT: win units); mean_score (x players: the score sum);
    score_range (best minus worst seat); heroes_success (x fights_lcm: villains beaten scaled
    to a common number of fights, so variants with other battle sizes compare); tied_game (1 if
    the win was shared); tokens_held (x players: the tokens held at the end). Every column is
    the metric times ``scales`` so every sum is an exact integer and totals do not depend on
    chunking or threads.
    """

    players: int
    fights_lcm: int

    @property
    def names(self) -> list[str]:
        return [f"win_share_seat{s}" for s in range(self.players)] + [
            "mean_score", "score_range", "heroes_success", "tied_game", "tokens_held"]

    @property
    def units(self) -> list[str]:
        return [RATE] * self.players + [VALUE, VALUE, RATE, RATE, VALUE]

    @property
    def scales(self) -> np.ndarray:
        """What each column is multiplied by: float64[n_metrics]."""
        p = self.players
        return np.array([float(WIN_UNIT)] * p + [p, 1, self.fights_lcm, 1, p], np.float64)

    def per_game(self, chunk, rules) -> np.ndarray:
        """A chunk's per-game metrics as scaled integers: int64[n_games, n_metrics]."""
        scores = chunk.scores.astype(np.int64)
        fights = rules.battles * rules.villains_per_battle
        columns = [chunk.win_units[:, s].astype(np.int64) for s in range(rules.players)] + [
            scores.sum(axis=1),
            scores.max(axis=1) - scores.min(axis=1),
            chunk.columns["beaten"].astype(np.int64) * (self.fights_lcm // fights),
            ((chunk.win_units > 0).sum(axis=1) > 1).astype(np.int64),
            chunk.columns["tokens"].sum(axis=(1, 2)).astype(np.int64),
        ]
        return np.column_stack(columns)

    def bounds(self, rules) -> np.ndarray:
        """The largest per-game value of each metric (unscaled; every metric is >= 0):
        float64[n_metrics]. A paired difference of two variants then has
        |d| <= max(bound_a, bound_b), which lets the SPRT accept H0 on differences that are
        all exactly zero (``stats.SPRT``'s ``bound``).

        Win shares, heroes_success and tied_game are at most 1. A seat's score is at most the
        rules' max_score (every token of the game, all in sets), so is score_range, and the
        mean score over the seats is at most max_score / players (the seats share the tokens).
        Tokens come from a supply of tokens_per_colour per colour, so the tokens held at the
        end total at most 3 tokens_per_colour: tokens_held <= 3 tokens_per_colour / players.
        """
        p = self.players
        return np.array([1.0] * p + [rules.max_score / p, rules.max_score, 1.0, 1.0,
                                     3 * rules.tokens_per_colour / p], np.float64)


def compare_metrics(rules: list, players: int) -> CompareMetrics:
    """The metrics for a comparison of these rules (one per variant) at ``players`` players."""
    return CompareMetrics(players, math.lcm(*(r.battles * r.villains_per_battle for r in rules)))
