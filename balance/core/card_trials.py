"""Card strength by restricted play, the part every game shares: the paired counters and the
``card_strength`` table they become (``simulate --card-strength``, read by
``balance.analysis.aggregate.card_effects``).

A game replays games of its run with one seat denied a card, on the same random streams
(common random numbers), and adds each (game as played, game with the card denied) pair of
that seat's win units into one row of ``trials int64[cards, P, len(CardTrial)]``. Which seat
is denied, and how, is the game's (avengers-cards rotates the seat over blocks of games;
smash-up denies the seat whose faction pair holds the card). Win shares are counted in
WIN_UNIT units, so sums are exact for any chunking.
"""
from __future__ import annotations

from enum import IntEnum

import numpy as np
import polars as pl

from balance.core import schema
from balance.core.game import WIN_UNIT


class CardTrial(IntEnum):
    """Per card and denied seat: paired games and the seat's win units in them."""

    GAMES = 0
    UNITS_UNRESTRICTED = 1  # the seat's win units in the games as played
    UNITS_RESTRICTED = 2  # ... in the same games with the card denied
    DIFF_SQ = 3  # sum of (restricted - unrestricted)^2


def columns(card_type) -> dict:
    """The ``card_strength`` table's columns; ``card_type``: how the game names a card
    (pl.Int8 for a card value, pl.String for a card name)."""
    return {
        "players": pl.Int8,
        "seat": pl.Int8,  # the seat denied the card
        "strategy": pl.String,  # that seat's strategy
        "card": card_type,
        "when": pl.String,  # the mode of restricted play (GameInfo.restrict_modes)
        "games": pl.Int64,  # paired games
        "win_share_unrestricted": pl.Float64,  # the seat's summed win share, games as played
        "win_share_restricted": pl.Float64,  # ... the same games with the card denied
        "diff_sq_sum": pl.Float64,  # sum of (restricted - unrestricted share)^2 per game
    }


KEYS = ("players", "seat", "strategy", "card", "when")
MEANING = ("simulate --card-strength: games played again with one seat denied a card, paired "
           "with the games as played (causal card strength)")


def add_pairs(row: np.ndarray, played: np.ndarray, denied: np.ndarray) -> None:
    """Add paired win units (int[n] each, the same seat in the same games) into ``row``
    int64[len(CardTrial)]."""
    played = played.astype(np.int64)
    diff = denied.astype(np.int64) - played
    row += (len(played), played.sum(), denied.sum(dtype=np.int64), (diff * diff).sum())


def frame(players: int, labels: list[str], cards: list, when: str, trials: np.ndarray,
          card_type) -> pl.DataFrame:
    """One row per (denied seat, card) with at least one paired game. trials int64[len(cards),
    P, len(CardTrial)], row i for ``cards[i]``; labels: each seat's strategy label."""
    rows = [(seat, i) for seat in range(players) for i in range(len(cards))
            if trials[i, seat, CardTrial.GAMES] > 0]
    t = np.array([trials[i, seat] for seat, i in rows], np.int64).reshape(len(rows), len(CardTrial))
    return schema.frame({
        "players": [players] * len(rows), "seat": [s for s, _ in rows],
        "strategy": [labels[s] for s, _ in rows], "card": [cards[i] for _, i in rows],
        "when": [when] * len(rows),
        "games": t[:, CardTrial.GAMES],
        "win_share_unrestricted": t[:, CardTrial.UNITS_UNRESTRICTED] / WIN_UNIT,
        "win_share_restricted": t[:, CardTrial.UNITS_RESTRICTED] / WIN_UNIT,
        "diff_sq_sum": t[:, CardTrial.DIFF_SQ] / WIN_UNIT**2,
    }, columns(card_type))
