"""dice-race strategies: declarations and the njit chooser (``reference.py`` restates each in
plain Python; tests check both choose alike).

A strategy decides, on its seat's turn, whether to roll one die or two. Its random draws come
only from its seat's strategy stream (slot ``1 + seat``, balance.core.kit's convention), drawn only
when the strategy is random, so another seat's strategy never moves them.
"""
from enum import IntEnum

from balance.core._jit import jit_inline
from balance.core.rng import below
from balance.core.strategy import Param, StrategyInfo


class StrategyId(IntEnum):
    RANDOM = 0
    CAUTIOUS = 1
    BOLD = 2
    THRESHOLD = 3


MAX_PARAMS = 1

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", StrategyId.RANDOM, "rolls one die or two with probability 1/2 each"),
        StrategyInfo("cautious", StrategyId.CAUTIOUS, "always rolls one die (never busts)",
                     deterministic=True),
        StrategyInfo("bold", StrategyId.BOLD, "always rolls two dice (more points on average, "
                     "but a bust adds nothing)", deterministic=True),
        StrategyInfo(
            "threshold", StrategyId.THRESHOLD,
            "rolls two dice when at least `behind` points behind the leader, else one",
            (Param("behind", 4.0, 0.0, 30.0,
                   "points behind the best score at which it starts rolling two dice "
                   "(0: always two)", integer=True),),
            deterministic=True,
        ),
    )
}


@jit_inline
def rolls_two(sid, prm, seat, scores, players, states):
    """Whether ``seat`` rolls two dice now. scores: every seat's score (int32[P]);
    prm float64[P, MAX_PARAMS]; states uint64[1 + P] (slot 1 + seat: its strategy stream)."""
    if sid == StrategyId.RANDOM:
        return below(states, 1 + seat, 2) == 1
    if sid == StrategyId.CAUTIOUS:
        return False
    if sid == StrategyId.BOLD:
        return True
    leader = scores[0]
    for q in range(1, players):
        leader = max(leader, scores[q])
    return leader - scores[seat] >= prm[seat, 0]
