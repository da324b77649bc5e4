"""Defenders of the Realm (Eagle Games, 2010): the cooperative game, 1 to 4 heroes against four generals.

Each seat plays a hero, its side (``--side Paladin``), fixed or drawn per game from the rules'
hero pool. The heroes win together when the fourth general is slain and lose together when a
general reaches Monarch City, a Darkness card needs a minion the supply lacks, the last taint
crystal is placed, or Monarch City holds too many minions. The rules are
``rules/defenders-of-the-realm.md`` with every [decision] a rules key; ``reference/`` is the
plain-Python oracle, ``kernel.py`` the numba engine that plays the same games.
"""
from balance.core.game import CAPPED, GameInfo, Kind

from .tables import TABLES

GAME = GameInfo(
    id="defenders-of-the-realm",
    title="Defenders of the Realm",
    module=__name__,
    kind=Kind.COOPERATIVE,
    players=(1, 4),
    default_strategy="coordinated",
    restrictable=None,
    restrictable_rule=None,
    outcomes=("won", "general in city", "no minions", "no taint", "city overrun", CAPPED),
    score=None,
    length="hero turns",
    side="hero",
    tables=TABLES,
)

CAPPED_CODE = GAME.capped_code
WON = GAME.outcomes.index("won")
