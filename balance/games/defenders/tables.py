"""Defenders of the Realm's own tables, besides the core ones (balance.core.schema): columns (an
interface: add, never rename), keys and meaning, declared in the game's GAME."""
import polars as pl

from balance.core.game import TableSpec

# Per general: games, games in which it was slain, games in which it entered Monarch City (the
# loss), and its path step at the end summed (0 at its start .. 4 in the city).
GENERALS = {
    "players": pl.Int8,
    "general": pl.String,
    "games": pl.Int64,
    "slain": pl.Int64,
    "in_city": pl.Int64,
    "step_sum": pl.Int64,
}

# Combats with a general: one hero alone, by everything that decides its odds (the general's
# life when it began, the committed 1- and 2-die cards, the hero's to-hit modifier and reroll
# passes), so the odds can be computed exactly and checked; a group's combats by group size,
# with cards1 .. rerolls = -1.
COMBATS = {
    "players": pl.Int8,
    "general": pl.String,
    "heroes": pl.Int8,
    "life": pl.Int8,
    "cards1": pl.Int8,
    "cards2": pl.Int8,
    "modifier": pl.Int8,
    "rerolls": pl.Int8,
    "combats": pl.Int64,
    "kills": pl.Int64,
}

# Per seat and its first hero (the side): games, team wins, heroes lost, generals slain by the
# seat, and its King's Champion share (the seats with the most slain-general cards share one
# title, x WIN_UNIT) over all games and over won games.
HEROES_TABLE = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "hero": pl.String,
    "games": pl.Int64,
    "won": pl.Int64,
    "deaths": pl.Int64,
    "slain": pl.Int64,
    "champion_units": pl.Int64,
    "champion_units_won": pl.Int64,
}

# The King's Champion score distribution: per seat and score (slain-general cards), games and won.
CHAMPIONS = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "score": pl.Int8,
    "games": pl.Int64,
    "won": pl.Int64,
}

GAME_COLUMNS = {"champion": pl.Int64, "deaths": pl.Int64}

TABLES = (
    TableSpec("generals", GENERALS, ("players", "general"),
              "per general: games, slain, entered Monarch City, path step at the end"),
    TableSpec("combats", COMBATS, ("players", "general", "heroes", "life", "cards1", "cards2", "modifier", "rerolls"),
              "combats with a general by what decides their odds (a lone hero) or group size: combats, kills"),
    TableSpec("heroes", HEROES_TABLE, ("players", "seat", "hero"),
              "per seat and first hero: games, team wins, deaths, generals slain, King's Champion share"),
    TableSpec("champions", CHAMPIONS, ("players", "seat", "score"),
              "per seat: the King's Champion score (slain-general cards) histogram, games and won"),
)
