"""zenonzard's own tables, besides the core ones (balance.core.schema): their columns (an
interface: add, never rename), keys and meaning, declared in the game's GAME."""
import polars as pl

from balance.core import card_trials
from balance.core.game import TableSpec

# Per seat, deck and the opponent's deck: games and wins. The deck's colours and curve
# features are keys (constant per deck), so a report can relate win rates to them.
DECKS = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "deck": pl.String,  # mono:red#7 (deck 7 of the generated pool), mono:red (given), a file's name
    "colours": pl.String,  # the deck's mana colours: red, red+blue
    "curve": pl.String,  # its curve: low, standard, high (decks.CURVES), list (a deck list file)
    "opponent_deck": pl.String,
    "opponent_colours": pl.String,
    "mean_cost": pl.Float64,  # mean cost of the deck's field minions
    "low_cost": pl.Int64,  # field minions of cost 1 or 2
    "keywords": pl.Int64,  # field minions with at least one simulated keyword
    "games": pl.Int64,
    "wins": pl.Int64,
}

# Per seat and Force pair: the player life it leaves, games, wins, Forces lost and life left.
FORCES = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "forces": pl.String,  # Minotaur+Phoenix (catalogue order)
    "player_life": pl.Int64,  # total_life minus the two Forces' lives
    "games": pl.Int64,
    "wins": pl.Int64,
    "forces_lost": pl.Int64,  # the seat's own Forces destroyed, summed over games
    "life_left_sum": pl.Int64,  # the seat's player life at the end, summed (can go below 0)
}

# Per field minion of the run's decks: the seat-games whose deck held it, those in which it was
# drawn (reached the hand) and played (summoned), with the seats' wins. A description ("played /
# drawn", 17lands-style), not a cause: a card is drawn and played more in longer, better games.
CARDS_PLAYED = {
    "players": pl.Int8,
    "card": pl.String,  # English name (first id)
    "colours": pl.String,
    "cost": pl.Int64,
    "in_deck": pl.Int64,
    "in_deck_won": pl.Int64,
    "drawn": pl.Int64,
    "drawn_won": pl.Int64,
    "played": pl.Int64,
    "played_won": pl.Int64,
}

GAME_COLUMNS = {"deck": pl.String, "life_left": pl.Int64, "forces_lost": pl.Int64}

TABLES = (
    TableSpec("decks", DECKS, ("players", "seat", "deck", "colours", "curve", "opponent_deck", "opponent_colours",
                               "mean_cost", "low_cost", "keywords"),
              "per seat, deck (with its colours and curve features) and opponent deck: games and wins"),
    TableSpec("forces", FORCES, ("players", "seat", "forces", "player_life"),
              "per seat and Force pair: the life it leaves, games, wins, Forces lost, life left"),
    TableSpec("cards_played", CARDS_PLAYED, ("players", "card", "colours", "cost"),
              "per field minion: seat-games with it in deck, drawn and played, and the wins there "
              "(a description, not a cause)"),
    # simulate --card-strength: per (players, seat, strategy, card, when), the games in which the
    # seat's deck held the card, played again with it swapped for a vanilla stand-in
    TableSpec("card_strength", card_trials.columns(pl.String), card_trials.KEYS,
              card_trials.MEANING, optional=True),
    TableSpec(card_trials.UNITS_TABLE, card_trials.unit_columns(pl.String), card_trials.UNIT_KEYS,
              card_trials.UNIT_MEANING, optional=True),
)
