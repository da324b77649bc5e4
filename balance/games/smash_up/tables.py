"""smash-up's own tables, besides the core ones (balance.core.schema): their columns (an
interface: add, never rename), keys and meaning, declared in the game's GAME."""
import polars as pl

from balance.core import card_trials
from balance.core.game import TableSpec

# Per base (one row per players and base): how often it came into play and scored, how long it
# stayed, the VP it gave by place and the games it decided. Summed over every game of a block.
BASES = {
    "players": pl.Int8,
    "base": pl.String,
    "entered": pl.Int64,  # times it came into play (setup or replacement)
    "scored": pl.Int64,  # times it scored
    "turns_sum": pl.Int64,  # turns it was in play when it scored, summed over its scorings
    "turns_sq_sum": pl.Int64,
    "vp_first": pl.Int64,  # VP gained there by the seats in first place (ability VP included)
    "vp_second": pl.Int64,
    "vp_third": pl.Int64,
    "decided": pl.Int64,  # won games whose winner gained its last VP from this base
}

TABLES = (
    TableSpec("bases", BASES, ("players", "base"),
              "per base: times in play and scored, turns to score, VP by place, games decided"),
    # simulate --card-strength: per (players, seat, strategy, card, when), the games in which
    # the seat's pair held the card, played again with every copy removed from its deck
    TableSpec("card_strength", card_trials.columns(pl.String), card_trials.KEYS,
              card_trials.MEANING, optional=True),
)
