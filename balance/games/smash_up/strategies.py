"""Smash Up strategies: declarations (the kernel's ``strat`` codes, ``kernel.layout``).

A strategy answers every choice of the game through ``kernel.board.pick``: which card to play
where, which minion to destroy, move or return, whether to use a "may", a talent or a Special,
the mulligan, the base to score first. ``random`` draws uniformly among the legal options from
its seat's stream (slot ``1 + seat``); ``greedy`` takes the documented baseline default of
``rules/smash-up-cards.md`` for every card (``reference/baseline.py``: a minion goes where it
wins or keeps a base, else where it helps most; removal hits the strongest rival minion on the
base closest to scoring; an action is held while it would do nothing); ``planner`` is greedy
with its board value V weighted by two tunable parameters (``board.V``). The reference
(``reference/players.py``) plays each alike, draw for draw.
"""
from enum import IntEnum

from balance.core.strategy import Param, StrategyInfo

from .kernel.layout import BASELINE_DENY, BASELINE_READY, GREEDY, RANDOM


class StrategyId(IntEnum):
    RANDOM = RANDOM
    GREEDY = GREEDY
    PLANNER = 2  # plays as GREEDY in the kernel, with its own V weights (kernel.run.strategy_row)


MAX_PARAMS = 2

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
        StrategyInfo("planner", StrategyId.PLANNER,
                     "greedy with its board value V weighted: how much a base about to score "
                     "counts against one that is not, and how much a rival's VP there counts "
                     "against its own; `balance tune` finds the weights that win most",
                     params=(
                         Param("ready", BASELINE_READY, 0, 600, "weight (%) of a base ready to score "
                               "in V, against 100% for one that is not (greedy: 200)", integer=True),
                         Param("deny", BASELINE_DENY, 0, 300, "weight (%) of the best rival's VP on a "
                               "base in V, against 100% for its own (greedy: 100; 0 ignores rivals)",
                               integer=True),
                     ),
                     deterministic=True),
    )
}
