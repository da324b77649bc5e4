"""avengers-cards' own tables, besides the core ones (balance.core.schema): their columns (an
interface: add, never rename), keys and meaning, declared in the game's GAME."""
import polars as pl

from balance.core import card_trials
from balance.core.game import TableSpec

# Battle-card counters, one row per (players, seat, strategy, card value).
CARDS = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "strategy": pl.String,
    "card": pl.Int8,
    "played": pl.Int64,
    "cancelled": pl.Int64,
    "rewarded": pl.Int64,  # plays that gained at least one token
    "tokens_gained": pl.Int64,
    "lowest_on_defeat": pl.Int64,
    "tokens_lost": pl.Int64,
    "games_played": pl.Int64,  # games in which the seat played this card
    "win_share_played": pl.Float64,  # the seat's win share summed over those games
    "games_rewarded": pl.Int64,  # games in which this card gained the seat tokens
    "win_share_rewarded": pl.Float64,
}

VILLAINS = {
    "players": pl.Int8,
    "villain": pl.String,
    "battle": pl.Int8,
    "strength": pl.Int16,
    "fought": pl.Int64,
    "beaten": pl.Int64,
    "reward_tokens": pl.Int64,
    "centre_tokens": pl.Int64,
    "tokens_lost": pl.Int64,
}

# simulate --card-strength: one row per (players, seat, strategy, card, when). Each game of
# the run was played again with ``seat`` denied ``card`` (seat rotated over equal blocks of
# games), on the same random streams: the difference is paired game by game.
CARD_STRENGTH = card_trials.columns(pl.Int8)

# --keep-games: the game's own per-game columns (after balance.core.schema.GAMES).
GAME_COLUMNS = {
    "tokens_y": pl.Int16,
    "tokens_r": pl.Int16,
    "tokens_b": pl.Int16,
    "villains_beaten": pl.Int16,
}

TABLES = (
    TableSpec("cards", CARDS, ("players", "seat", "strategy", "card"),
              "per seat and battle card: plays, rewards, tokens and the seat's win share when "
              "played (how cards are used: an association, not strength)"),
    TableSpec("villains", VILLAINS, ("players", "villain", "battle", "strength"),
              "per villain: fights, defeats and the tokens handed out"),
    TableSpec("card_strength", CARD_STRENGTH, card_trials.KEYS, card_trials.MEANING, optional=True),
)
