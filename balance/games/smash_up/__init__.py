"""Smash Up, core set (AEG, 2012): 8 factions shuffled together in pairs, 16 bases.

Each seat plays a faction pair, its side (``Aliens+Dinosaurs``): fixed with ``--side``,
rotated over the seats, or drawn per game from the sides' own stream (every seat a distinct
pair of distinct factions). The rules are ``rules/smash-up.md`` with every card and base of
``rules/smash-up-cards.md``; ``reference/`` is the plain-Python oracle, ``kernel/`` the numba
engine that plays the same games.
"""
from balance.core.game import CAPPED, GameInfo, Kind, Lever

from .tables import TABLES

GAME = GameInfo(
    id="smash-up",
    title="Smash Up (core set)",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 4),
    default_strategy="greedy",
    restrictable="card",
    restrictable_rule=None,  # no rules key lists the cards: the factions' lists are the data
    outcomes=("finished", CAPPED),
    capped_by=(("max_turns", 6),),  # what `balance check` plays to see a capped game hands out no win
    score="VP",
    length="turns",
    side="faction pair",
    tables=TABLES,
    restrict_modes=(("always", "removed from its deck (every copy)"),),
    restrict_seat="in every game where a seat's faction pair holds the card, that seat",
    restrict_items="a card name, optionally 'Faction: Card' (`balance cards smash-up` lists them)",
    # handicaps for the seats that play later, the first seat's edge being its head start
    levers=tuple(Lever(name, setting, "seats", what) for name, setting, what in (
        ("sixth_card", "extra_cards=[0, 1, 1, 1]", "every seat after the first draws a sixth card for its "
         "opening hand"),
        ("one_vp", "start_vp=[0, 1, 1, 1]", "every seat after the first starts with 1 VP"),
        # the same as sixth_card at 2 players, where the report leaves it out of the command
        ("cards_by_seat", "extra_cards=[0, 1, 2, 3]", "each seat draws one more opening card than the seat "
         "before it"),
    )),
)

FINISHED = GAME.outcomes.index("finished")
CAPPED_CODE = GAME.capped_code
