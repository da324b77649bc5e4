"""siege strategies: declarations and the njit chooser (``reference.py`` restates each in
plain Python; tests check both choose alike).

On its turn a hero chooses to fight or to repair the wall. Its random draws come only from
its seat's strategy stream (slot ``1 + seat``, balance.core.kit's convention), drawn only by the
random strategy, so no strategy moves the chance draws (stream 0) or another seat's choices.
"""
from enum import IntEnum

from balance.core._jit import jit_inline
from balance.core.rng import below
from balance.core.strategy import Param, StrategyInfo


class StrategyId(IntEnum):
    RANDOM = 0
    FIGHTER = 1
    COORDINATED = 2


MAX_PARAMS = 1

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", StrategyId.RANDOM, "fights or repairs with probability 1/2 each"),
        StrategyInfo("fighter", StrategyId.FIGHTER, "always fights, never repairs", deterministic=True),
        StrategyInfo(
            "coordinated", StrategyId.COORDINATED,
            "repairs when the wall (as the earlier heroes of the round left it) is below "
            "`repair_below`, else fights",
            (Param("repair_below", 5.0, 0.0, 1000.0,
                   "wall points below which the hero repairs instead of fighting (0: never repairs)",
                   integer=True),),
            deterministic=True,
        ),
    )
}


@jit_inline
def repairs(sid, prm, seat, wall, states):
    """Whether ``seat`` repairs (else fights) with the wall at ``wall``. prm float64[P,
    MAX_PARAMS]; states uint64[1 + P] (slot 1 + seat: the seat's strategy stream)."""
    if sid == StrategyId.RANDOM:
        return below(states, 1 + seat, 2) == 1
    if sid == StrategyId.FIGHTER:
        return False
    return wall < prm[seat, 0]
