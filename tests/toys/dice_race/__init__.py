"""dice-race: a toy competitive dice game (ties, a turn cap), used by the tests and the tutorial.

Players take turns in seat order. On its turn a seat rolls one or two six-sided dice and adds
the total to its score, except that two dice showing a ``bust_face`` (default 1) add nothing.
After every full round, if any seat has reached ``target`` the game ends and every seat at the
highest score shares the win; if ``max_rounds`` rounds pass without that, the game is capped
(no win handed out).

Each seat plays a set of dice, its side: ``standard`` dice, or ``loaded`` ones on which the 1 is
a second 2 (they never bust and roll a little higher). Fixed with ``--side``, or drawn for every
seat of every game from the sides' own stream (each set with probability 1/2).
"""
from balance.core.game import CAPPED, GameInfo, Kind

GAME = GameInfo(
    id="dice-race",
    title="Dice race (a toy game)",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 4),
    default_strategy="threshold",
    restrictable=None,  # nothing a seat could be denied: no restricted play
    restrictable_rule=None,
    outcomes=("finished", CAPPED),
    score="points",
    length="rounds",
    side="dice",
    tables=(),
)

FINISHED = GAME.outcomes.index("finished")
CAPPED_CODE = GAME.capped_code
