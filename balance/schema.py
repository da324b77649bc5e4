"""Column names and dtypes of every table the toolkit writes (the run-directory format).

Other tools read these files: names here are an interface; add columns, never rename.
"""
import polars as pl

SEATS = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "strategy": pl.String,
    "games": pl.Int64,
    "win_share": pl.Float64,  # sum of win shares: 1 outright, 1/k for a k-way tie
    "wins_outright": pl.Int64,
    "wins_shared": pl.Int64,
    "score_sum": pl.Int64,
    "score_sq_sum": pl.Int64,
    "win_share_sq_sum": pl.Float64,  # sum of squared per-game shares: the share's variance
}

SCORES = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "strategy": pl.String,
    "score": pl.Int32,
    "count": pl.Int64,
}

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

# Head to head: one row per ordered pair of seats (players, seat, opponent_seat).
PAIRS = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "strategy": pl.String,
    "opponent_seat": pl.Int8,
    "opponent_strategy": pl.String,
    "games": pl.Int64,
    "ahead": pl.Int64,  # games in which seat scored more than opponent_seat
    "level": pl.Int64,  # games in which they scored the same
}

# One row per player count: the seats' scores summed within each game (T), so the mean
# score's interval can treat the seats of one game as the correlated cluster they are.
GAME_TOTALS = {
    "players": pl.Int8,
    "games": pl.Int64,
    "score_total_sum": pl.Int64,  # sum over games of T
    "score_total_sq_sum": pl.Int64,  # sum over games of T^2
}

# simulate --card-strength: one row per (players, seat, strategy, card, when). Each game of
# the run was played again with ``seat`` denied ``card`` (seat rotated over equal blocks of
# games), on the same random streams: the difference is paired game by game.
CARD_STRENGTH = {
    "players": pl.Int8,
    "seat": pl.Int8,  # the seat denied the card
    "strategy": pl.String,  # that seat's strategy
    "card": pl.Int8,
    "when": pl.String,  # always (removed from the hand) or before-last
    "games": pl.Int64,  # paired games
    "win_share_unrestricted": pl.Float64,  # the seat's summed win share, games as played
    "win_share_restricted": pl.Float64,  # ... the same games with the card denied
    "diff_sq_sum": pl.Float64,  # sum of (restricted - unrestricted share)^2 per game
}

# --keep-games: one row per game and seat.
GAMES = {
    "players": pl.Int8,
    "game": pl.Int64,  # the game's index in the run: replay it with the same seed
    "seat": pl.Int8,
    "strategy": pl.String,
    "score": pl.Int16,
    "win_share": pl.Float64,
    "tokens_y": pl.Int16,
    "tokens_r": pl.Int16,
    "tokens_b": pl.Int16,
    "villains_beaten": pl.Int16,
}


def frame(columns: dict, schema: dict) -> pl.DataFrame:
    """A DataFrame with exactly ``schema``'s columns, in order, cast to its dtypes."""
    missing = set(schema) - set(columns)
    assert not missing, f"missing columns {missing}"
    return pl.DataFrame({k: columns[k] for k in schema}, schema=schema)


# The key columns of each aggregated table: rows with equal keys add up (e.g. the blocks of a
# rotated run); every other column is a sum.
KEYS = {
    "seats": ["players", "seat", "strategy"],
    "scores": ["players", "seat", "strategy", "score"],
    "cards": ["players", "seat", "strategy", "card"],
    "villains": ["players", "villain", "battle", "strength"],
    "pairs": ["players", "seat", "strategy", "opponent_seat", "opponent_strategy"],
    "game_totals": ["players"],
    "card_strength": ["players", "seat", "strategy", "card", "when"],
}
SCHEMAS = {"seats": SEATS, "scores": SCORES, "cards": CARDS, "villains": VILLAINS, "pairs": PAIRS,
           "game_totals": GAME_TOTALS, "card_strength": CARD_STRENGTH}


def sum_rows(table: pl.DataFrame, name: str) -> pl.DataFrame:
    """Add up rows with equal keys, keeping the first-seen row order and the schema."""
    keys = KEYS[name]
    summed = table.group_by(keys, maintain_order=True).agg(pl.exclude(keys).sum())
    if "seat" in keys:  # seat order first, rotation blocks after (a stable sort)
        summed = summed.sort([k for k in keys if k != "strategy"], maintain_order=True)
    return summed.select(list(SCHEMAS[name])).cast(SCHEMAS[name])
