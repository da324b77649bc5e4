"""siege: a toy cooperative game with sides, used by the tests and the tutorial.

A team of 1 to 4 heroes, each seat playing one hero class (its side: knight, archer, healer
or mage, each at most once per team), defends a castle wall against a growing horde. Every
round the horde grows by a die roll; each hero then either fights (removes attackers, how
many depends on the class and a die) or repairs the wall (the healer repairs more); then the
attackers left beyond the first three damage the wall. The team wins together when the horde
is wiped out at the end of a round from round ``min_rounds`` on, loses together when the wall
falls, and the game is capped after ``max_rounds`` rounds (nobody wins). See rules.py.
"""
from balance.core.game import CAPPED, GameInfo, Kind

GAME = GameInfo(
    id="siege",
    title="Siege (toy cooperative game)",
    module=__name__,
    kind=Kind.COOPERATIVE,
    players=(1, 4),
    default_strategy="coordinated",
    restrictable=None,  # nothing a seat could be denied: no restricted play
    restrictable_rule=None,
    outcomes=("won", "wall fell", CAPPED),
    score=None,  # the team wins or loses: no score
    length="rounds",
    side="hero",
    tables=(),
)

WON = GAME.outcomes.index("won")
WALL_FELL = GAME.outcomes.index("wall fell")
CAPPED_CODE = GAME.capped_code
