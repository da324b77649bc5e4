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

# Per card (one row per players and card of the card list): the seat-games whose deck held it and
# those in which the seat played it from its own deck, with the seats' wins. A description
# (17lands-style "played / in deck"), not a cause: a card is played more in games going well.
CARDS_PLAYED = {
    "players": pl.Int8,
    "faction": pl.String,
    "card": pl.String,
    "in_deck": pl.Int64,  # seat-games whose deck held the card (any number of copies)
    "in_deck_won": pl.Int64,  # of those, the seat won
    "played": pl.Int64,  # seat-games in which the seat played it (minion or action) at least once
    "played_won": pl.Int64,  # of those, the seat won
}

TABLES = (
    TableSpec("bases", BASES, ("players", "base"),
              "per base: times in play and scored, turns to score, VP by place, games decided"),
    TableSpec("cards_played", CARDS_PLAYED, ("players", "faction", "card"),
              "per card: seat-games with it in deck and with it played, and the wins there "
              "(a description, not a cause)"),
    # simulate --card-strength: per (players, seat, strategy, card, when), the games in which
    # the seat's pair held the card, played again with every copy removed from its deck
    TableSpec("card_strength", card_trials.columns(pl.String), card_trials.KEYS,
              card_trials.MEANING, optional=True),
)
