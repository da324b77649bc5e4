"""Rules of siege: every variant parameter, validated.

The rulebook (the defaults):

1. 1 to 4 heroes sit in seat order; each plays a hero class (its side): knight, archer,
   healer or mage, each class at most once per team. The castle wall starts at ``wall`` (10)
   points and the horde at 0 attackers.
2. A round: the horde grows by a ``horde_growth``-sided die (d6); then one action die (d6) is
   rolled for every seat, in seat order; then each hero in seat order either
   - fights, removing attackers (never below 0): knight 3, archer its action die (1..6),
     healer 1, mage 5 when its action die shows 4 or more, else 1; or
   - repairs the wall: healer 2 points, any other class 1, never above ``wall``.
3. End of the round: if the horde is 0 and at least ``min_rounds`` (5) rounds were played,
   the heroes win together. Otherwise the attackers beyond the first 3 each knock one point
   off the wall; at 0 or below the wall falls and the heroes lose together.
4. If ``max_rounds`` (15) rounds pass without either, the game is capped: nobody wins.
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.core.errors import BalanceError, check_int
from balance.core.rulebook import RulesBase

RULES_VERSION = "siege/1"
MIN_PLAYERS, MAX_PLAYERS = 1, 4
MAX_WALL = 1000
MAX_ROUNDS = 200
MAX_GROWTH = 100
HEROES = ("knight", "archer", "healer", "mage")  # the sides, in side-index order
KNIGHT, ARCHER, HEALER, MAGE = range(len(HEROES))
ACTION_DIE = 6  # every seat's action die (used by the archer and the mage when they fight)
SHELTER = 3  # attackers the wall shrugs off each round

RULE_DOCS: dict[str, tuple[str, str]] = {
    "players": (f"integer {MIN_PLAYERS}..{MAX_PLAYERS}",
                "Number of heroes, seat 0 acting first every round; each plays a distinct hero class."),
    "wall": (f"integer 1..{MAX_WALL}",
             "The wall's starting (and largest) points; the heroes lose when it drops to 0."),
    "min_rounds": (f"integer 1..{MAX_ROUNDS}, at most max_rounds",
                   "The heroes win at the end of a round with no attackers left, but only from "
                   "this round on (the horde keeps coming until then)."),
    "max_rounds": (f"integer 1..{MAX_ROUNDS}",
                   "The turn cap: after this many rounds without a win or a fallen wall the game "
                   "stops as capped and nobody wins."),
    "horde_growth": (f"integer 1..{MAX_GROWTH}",
                     "Sides of the die the horde grows by at the start of every round (1..N attackers)."),
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of siege; defaults are the rulebook above."""

    DOCS = RULE_DOCS  # `balance rules`: allowed values and meaning per key

    players: int = 2
    wall: int = 10
    min_rounds: int = 5
    max_rounds: int = 15
    horde_growth: int = 6

    def validated(self) -> "Rules":
        """Check every parameter (one-line BalanceError naming the value and what is allowed)."""
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("wall", self.wall, 1, MAX_WALL)
        check_int("min_rounds", self.min_rounds, 1, MAX_ROUNDS)
        check_int("max_rounds", self.max_rounds, 1, MAX_ROUNDS)
        check_int("horde_growth", self.horde_growth, 1, MAX_GROWTH)
        if self.min_rounds > self.max_rounds:
            raise BalanceError(f"min_rounds={self.min_rounds} is out of range; allowed: integer "
                               f"1..max_rounds ({self.max_rounds})")
        return self

