"""Avengers: Infinity War — the card game (Hobby World, 2019; a reskin of Dungeon Busters)."""
from balance.registry import GameSpec

GAME = GameSpec(
    id="avengers-cards",
    title="Avengers: Infinity War — the card game",
    module=__name__,
)
