"""Strategies for ZENONZARD: declarations (parameters, defaults, bounds, docs).

Every decision of a seat is a choice among a list of legal options in a fixed order
(``reference.py`` lists them: mulligan, mana, the main phase's summons, moves and attacks,
flash summons, blocks and the overflow choices). ``random`` takes one uniformly from the seat's
own stream (slot ``1 + seat``; no draw when there is one option). The others are one policy,
``evaluator``, whose weights say how it attacks, blocks, holds mana and ramps; ``aggro`` and
``control`` are two named settings of it:

- mulligan: return the whole hand if it holds no base minion, five or more, or no field minion
  of cost 3 or less; else keep it;
- mana: the base minion of the colour most field minions in hand have (first in hand on a
  tie), else a colourless mana; nothing once the base is full;
- summon: the costliest affordable field minion (then the highest BP, then hand order) while
  the field has room; with ``hold_swoop`` Swoop minions wait for a flash timing and other
  summons leave enough active mana for the cheapest Swoop in hand;
- attack: with the first minion (field order) whose strongest possible blocker is at most
  ``attack_margin`` BP above it; the player when that is lethal, else the player with
  probability ``aggression`` when both the player and a Force may be attacked (a draw only
  when 0 < aggression < 1), else the Force it destroys (else the one with the least life);
- move: with ``ramp``, a rested field minion (the weakest) goes to the base after the attacks;
- block: with the cheapest blocker that wins the battle; else trade an equal BP for an
  attacker that costs at least as much; else chump with the weakest when the damage to the
  player is lethal or at least ``block_margin``;
- flash: the defender summons the cheapest Swoop minion that would win as a blocker; the
  attacker passes;
- overflow: trash the weakest field minion; discard a colourless mana, else the base card of
  the colour least needed by the hand.
"""
from balance.core.strategy import Param, StrategyInfo

RANDOM, EVALUATOR = 0, 1
MAX_PARAMS = 5

_WEIGHTS = ("aggression", "attack_margin", "block_margin", "hold_swoop", "ramp")


def _params(aggression, attack_margin, block_margin, hold_swoop, ramp) -> tuple[Param, ...]:
    return (
        Param("aggression", aggression, 0.0, 1.0, "Probability of attacking the player rather than a Force when "
              "both are allowed (a lethal attack always goes to the player)."),
        Param("attack_margin", attack_margin, -1000.0, 1000.0, "Attack while the strongest minion that could block "
              "has at most this much more BP (1000: always attack; negative: only when every blocker loses).",
              integer=True),
        Param("block_margin", block_margin, 0.0, 20.0, "Chump-block (the blocker loses) when the attack would deal "
              "the player at least this much damage, or lethal damage.", integer=True),
        Param("hold_swoop", hold_swoop, 0.0, 1.0, "1: keep Swoop minions and the mana for the cheapest of them for "
              "the opponent's attacks.", integer=True),
        Param("ramp", ramp, 0.0, 1.0, "1: after attacking, use the right to move to put the weakest rested field "
              "minion onto the base (more mana next turn).", integer=True),
    )


STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", RANDOM, "Uniform over the legal options of every decision (a floor)."),
        StrategyInfo("aggro", EVALUATOR, "Attacks the player whenever it may, with every minion, whatever the "
                     "blockers; chump-blocks only lethal damage; never holds mana or ramps. The evaluator with "
                     "aggression=1, attack_margin=1000, block_margin=20, hold_swoop=0, ramp=0.",
                     params=_params(1.0, 1000, 20, 0, 0), deterministic=True),
        StrategyInfo("control", EVALUATOR, "Trades on the board: attacks only when no blocker would win or tie, "
                     "and then Forces; blocks to win, trade or save 2 life; holds Swoop mana; ramps. The evaluator "
                     "with aggression=0, attack_margin=-100, block_margin=2, hold_swoop=1, ramp=1.",
                     params=_params(0.0, -100, 2, 1, 1), deterministic=True),
        StrategyInfo("evaluator", EVALUATOR, "The policy aggro and control are settings of: attacks with the "
                     "first minion no blocker beats by more than attack_margin BP (the player with probability "
                     "aggression, else a Force); blocks to win or trade, or chumps once the damage reaches "
                     "block_margin; may hold Swoop mana and ramp; `balance tune` optimises its weights.",
                     params=_params(0.5, 0, 3, 0, 0)),
    )
}
assert all(s.params == () or tuple(p.name for p in s.params) == _WEIGHTS for s in STRATEGIES.values())
