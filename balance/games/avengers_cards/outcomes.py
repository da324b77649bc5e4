"""What a run measures: the counter layouts the kernel fills, shared with the reference.

All sums are integers, so totals are bit-identical however games are chunked. Win shares are
counted in units of 1/60 (``balance.core.game.WIN_UNIT``): a k-way tie gives each winner 60/k, exact
for k <= 6.
"""
from enum import IntEnum

from balance.core.counters import SeatStat  # noqa: F401 (re-exported: the core layout the kernel fills)
from balance.core.game import WIN_UNIT  # noqa: F401 (re-exported: the kernel and engine read it here)


class CardStat(IntEnum):
    """Per seat and battle-card value: ``card_stats[P, MAX_CARD + 1, len(CardStat)]``."""

    PLAYED = 0  # times the card was played
    CANCELLED = 1  # times it was discarded by a tie
    REWARDED = 2  # plays that gained the player at least one token (place reward or centre)
    TOKENS_GAINED = 3  # tokens those plays gained
    LOWEST_ON_DEFEAT = 4  # times it was the lowest card of a heroes' defeat
    TOKENS_LOST = 5  # tokens lost on those defeats
    GAMES_PLAYED = 6  # games in which the seat played the card at least once
    WIN_UNITS_PLAYED = 7  # the seat's win share in those games, x WIN_UNIT
    GAMES_REWARDED = 8  # games in which the card gained the seat tokens at least once
    WIN_UNITS_REWARDED = 9  # the seat's win share in those games, x WIN_UNIT


class VillainStat(IntEnum):
    """Per villain card: ``villain_stats[NV, len(VillainStat)]``."""

    FOUGHT = 0
    BEATEN = 1
    REWARD_TOKENS = 2  # place-reward tokens handed out
    CENTRE_TOKENS = 3  # centre tokens handed out with its defeat
    TOKENS_LOST = 4  # tokens the lowest players lost when it won
