"""Avengers: Infinity War — the card game (Hobby World, 2019; a reskin of Dungeon Busters)."""
from balance.game import GameInfo, Kind

GAME = GameInfo(
    id="avengers-cards",
    title="Avengers: Infinity War — the card game",
    module=__name__,
    kind=Kind.COMPETITIVE,
    players=(2, 5),  # the rulebook covers 3..5; 2 only with an explicit hand
    default_strategy="greedy",
    restrictable="card",
    restrictable_rule="hand",
)
