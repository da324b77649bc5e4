"""Rules of dice-race: every variant parameter, validated.

The rulebook (the defaults):

1. 2 to 4 players sit in seat order, every score at 0.
2. On its turn a seat chooses to roll one die or two (six-sided) and adds the total to its
   score; but two dice of which either shows ``bust_face`` (1) add nothing (a bust). One die
   never busts.
3. A round is every seat taking one turn, seat 0 first. After each round, if any seat has
   ``target`` (20) points or more, the game ends: every seat at the highest score wins, tied
   seats sharing the win.
4. If ``max_rounds`` (12) rounds pass without that, the game is capped: nobody wins.
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.core.errors import check_int
from balance.core.rulebook import RulesBase

RULES_VERSION = "dice-race/2"  # 2: seats play dice sets (sides)
# The sides: a seat's dice set, the face each rolled face becomes (index face - 1).
DICE_SETS = {"standard": (1, 2, 3, 4, 5, 6), "loaded": (2, 2, 3, 4, 5, 6)}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_TARGET = 200
MAX_ROUNDS = 100
FACES = 6

# `balance rules dice-race`: (allowed values, meaning) per key; defaults come from the dataclass.
RULE_DOCS: dict[str, tuple[str, str]] = {
    "players": (f"integer {MIN_PLAYERS}..{MAX_PLAYERS}", "Number of players, seat 0 first in every round."),
    "target": (f"integer 1..{MAX_TARGET}",
               "Points that end the game: after a round in which some seat has at least this "
               "many, the highest score wins (tied seats share the win)."),
    "max_rounds": (f"integer 1..{MAX_ROUNDS}",
                   "The turn cap: after this many rounds without a seat at the target, the game "
                   "stops as capped and nobody wins."),
    "bust_face": (f"integer 0..{FACES}; 0 disables busting",
                  "A roll of two dice showing this face on either die adds nothing (a bust). "
                  "One die never busts."),
}


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule-variant parameter of dice-race; defaults are the rulebook above."""

    DOCS = RULE_DOCS  # `balance rules`: allowed values and meaning per key

    players: int = 2
    target: int = 20
    max_rounds: int = 12
    bust_face: int = 1

    def validated(self) -> "Rules":
        """Check every parameter (one-line BalanceError naming the value and the range)."""
        check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("target", self.target, 1, MAX_TARGET)
        check_int("max_rounds", self.max_rounds, 1, MAX_ROUNDS)
        check_int("bust_face", self.bust_face, 0, FACES)
        return self

    @property
    def max_score(self) -> int:
        """The highest final score: a seat below the target before the last round gains at
        most 12 in it (two sixes), and no seat gains more than 12 a round."""
        return min(self.target - 1 + 2 * FACES, 2 * FACES * self.max_rounds)

