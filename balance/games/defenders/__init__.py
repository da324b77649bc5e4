"""Defenders of the Realm (Eagle Games, 2010): the cooperative game, 1 to 4 heroes against four generals.

Each seat plays a hero, its side (``--side Paladin``), fixed or drawn per game from the rules'
hero pool. The heroes win together when the fourth general is slain and lose together when a
general reaches Monarch City, a Darkness card needs a minion the supply lacks, the last taint
crystal is placed, or Monarch City holds too many minions. The rules are
``rules/defenders-of-the-realm.md`` with every [decision] a rules key; ``reference/`` is the
plain-Python oracle, ``kernel.py`` the numba engine that plays the same games.
"""
from balance.core.game import CAPPED, GameInfo, Kind, Lever

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
    capped_by=(("turn_cap", 4),),  # what `balance check` plays to see a capped game hands out nothing
    score=None,
    length="hero turns",
    side="hero",
    tables=TABLES,
    # what a designer turns to make the game easier or harder, each way (the Makefile's
    # difficulty comparison measures them at 4 heroes)
    levers=tuple(Lever(name, setting, "difficulty", what) for name, setting, what in (
        ("fewer_cards", "war_cards=[1, 1, 2]", "one Darkness card fewer each night in Mid and Late War"),
        ("more_cards", "war_cards=[2, 2, 3]", "one Darkness card more each night in Early and Mid War"),
        ("fast_war", "late_war_after=2", "Late War after 2 slain generals instead of 3"),
        ("more_minions", "minions_per_colour=30", "30 minions of each colour in the supply instead of 25"),
        ("fewer_minions", "minions_per_colour=20", "20 minions of each colour in the supply instead of 25"),
        ("clean_start", "start_taint=0", "no taint crystal at setup instead of 1"),
        ("tainted_start", "start_taint=3", "3 taint crystals at setup instead of 1"),
    )),
)

CAPPED_CODE = GAME.capped_code
WON = GAME.outcomes.index("won")
