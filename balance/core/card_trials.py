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


# A game whose cards sit in units drawn from a generated pool (decks) also keeps its trials per
# unit of the denied seat: the units are a sample of what the generator deals, and a card's
# effect differs from unit to unit, so aggregate.card_effects takes them as the test's units.
UNITS_TABLE = "card_strength_units"
UNIT_KEYS = ("players", "card", "when", "unit")
UNIT_MEANING = ("simulate --card-strength with sampled units (generated decks): the paired games per card "
                "and unit of the denied seat (the units of the card test)")


def unit_columns(card_type) -> dict:
    """The ``card_strength_units`` table's columns: per (players, card, when, unit) the paired
    games and win shares, as ``columns`` has them per seat."""
    full = columns(card_type)
    return {"players": pl.Int8, "card": card_type, "when": pl.String, "unit": pl.String,
            **{k: full[k] for k in ("games", "win_share_unrestricted", "win_share_restricted", "diff_sq_sum")}}


def add_unit_pairs(rows: np.ndarray, unit: np.ndarray, played: np.ndarray, denied: np.ndarray) -> None:
    """Add paired win units (int[n] each) into ``rows`` int64[units, len(CardTrial)], game g
    into row ``unit[g]`` (the denied seat's unit, e.g. its deck)."""
    played = played.astype(np.int64)
    denied = denied.astype(np.int64)
    diff = denied - played
    for column, values in ((CardTrial.GAMES, np.ones_like(played)), (CardTrial.UNITS_UNRESTRICTED, played),
                           (CardTrial.UNITS_RESTRICTED, denied), (CardTrial.DIFF_SQ, diff * diff)):
        np.add.at(rows[:, column], unit, values)


def unit_frame(players: int, cards: list, units: list[str], when: str, trials: np.ndarray, card_type) -> pl.DataFrame:
    """One row per (card, unit) with at least one paired game. trials int64[len(cards),
    len(units), len(CardTrial)]; units: each unit's name."""
    card, unit = np.nonzero(trials[..., CardTrial.GAMES])
    t = trials[card, unit].reshape(len(card), len(CardTrial))
    return schema.frame({
        "players": [players] * len(card), "card": [cards[i] for i in card], "when": [when] * len(card),
        "unit": [units[u] for u in unit],
        "games": t[:, CardTrial.GAMES],
        "win_share_unrestricted": t[:, CardTrial.UNITS_UNRESTRICTED] / WIN_UNIT,
        "win_share_restricted": t[:, CardTrial.UNITS_RESTRICTED] / WIN_UNIT,
        "diff_sq_sum": t[:, CardTrial.DIFF_SQ] / WIN_UNIT**2,
    }, unit_columns(card_type))
