"""Smash Up strategies: declarations (the kernel's ``strat`` codes, ``kernel.layout``).

A strategy answers every choice of the game through ``kernel.board.pick``: which card to play
where, which minion to destroy, move or return, whether to use a "may", a talent or a Special,
the mulligan, the base to score first. ``random`` draws uniformly among the legal options from
its seat's stream (slot ``1 + seat``); ``greedy`` takes the documented baseline default of
``rules/smash-up-cards.md`` for every card (``reference/baseline.py``: a minion goes where it
wins or keeps a base, else where it helps most; removal hits the strongest rival minion on the
base closest to scoring; an action is held while it would do nothing). The reference
(``reference/players.py``) plays both alike, draw for draw.
"""
from enum import IntEnum

from balance.core.strategy import StrategyInfo

from .kernel.layout import GREEDY, RANDOM


class StrategyId(IntEnum):
    RANDOM = RANDOM
    GREEDY = GREEDY


MAX_PARAMS = 1

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", StrategyId.RANDOM,
                     "every choice uniform over the legal options (card and base to play, "
                     "targets, each 'may', the base to score first, ending the turn)"),
        StrategyInfo("greedy", StrategyId.GREEDY,
                     "the spec's baseline default for every choice: a minion where it wins or "
                     "keeps a base (else where it adds most), removal on the strongest rival "
                     "minion of the base nearest to scoring, actions held while they would do "
                     "nothing, every 'may' by the card's stated default",
                     deterministic=True),
    )
}
