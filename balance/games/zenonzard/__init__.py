"""ZENONZARD (Bandai, 2019): a two-player duel card game with the real 1,439-card list.

Each seat plays a deck and a pair of Forces, its side (``deck=mono:red,forces=Minotaur+Phoenix``):
fixed with ``--side`` (a generated deck or a deck list file), or drawn per game from the sides'
own stream (a deck of the rules' generated pool, a Force pair uniformly of 45). The rules are
``rules/zenonzard.md`` with its card model v1 (cost, colour part, BP, DP and eight keywords);
``reference.py`` is the plain-Python oracle, ``kernel.py`` the numba engine that plays the same
games. A game ends when a player's life reaches 0 (``life``) or a player cannot draw
(``deck-out``).
"""
from balance.core.game import CAPPED, GameInfo, Kind, Lever

from .tables import TABLES

GAME = GameInfo(
    id="zenonzard",
    title="ZENONZARD",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 2),
    default_strategy="evaluator",
    restrictable="card",
    restrictable_rule=None,  # no rules key lists the cards: the decks are the sides'
    restrict_modes=(("always", "swapped, every copy, for a vanilla stand-in of the same cost and colours "
                     "(the median BP and DP of its cost, no keyword) in its deck"),),
    restrict_seat="in every game where a seat's deck holds the card, that seat (one replay per seat)",
    restrict_items="a field minion's id, English or Japanese name (`balance cards zenonzard` lists them)",
    restrict_act=("swapping {} for its stand-in", "swapped for its stand-in"),
    outcomes=("life", "deck-out", CAPPED),
    capped_by=(("turn_cap", 3),),  # what `balance check` plays to see a capped game hands out no win
    score=None,  # no score: a deck-out loser may have more life than the winner
    length="turns",
    side="deck and Force pair",
    tables=TABLES,
    # the rules that act on the first player's tempo, the seat edge's likely source
    levers=tuple(Lever(name, setting, "seats", what) for name, setting, what in (
        ("life16", "total_life=16", "a player's life total 16 instead of 12 (longer games)"),
        ("life24", "total_life=24", "a player's life total 24 instead of 12 (longer games)"),
        ("no_first_attack", "first_turn_attack=false",
         "the first player may not attack on the game's first turn (the fan rulebook's rule)"),
        ("summon_rested", "summon_enters=rested",
         "a summoned minion enters rested: it cannot attack or block until its owner's next turn"),
    )),
)

CAPPED_CODE = GAME.capped_code
