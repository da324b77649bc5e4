"""Avengers: Infinity War — the card game (Hobby World, 2019; a reskin of Dungeon Busters)."""
from balance.core.game import CAPPED, GameInfo, Kind

from .tables import TABLES

GAME = GameInfo(
    id="avengers-cards",
    title="Avengers: Infinity War — the card game",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 5),  # the rulebook covers 3..5; 2 only with an explicit hand
    explicit_counts=(2,),
    default_strategy="greedy",
    restrictable="card",
    restrictable_rule="hand",
    outcomes=("finished", CAPPED),  # a game always plays all its fights: never capped
    score="points",
    length="fights",
    tables=TABLES,
    restrict_modes=(("always", "removed from the hand"),
                    ("before-last", "not playable before the last villain of a battle")),
    restrict_items="a value of the hand (`balance rules avengers-cards`: hand)",
    # the first-player card passes clockwise after each battle (rules, "Seat")
    seat_order="seat 0 holds the first-player card in battle 1, seat 1 in battle 2 and seat 2 in battle 3",
)
