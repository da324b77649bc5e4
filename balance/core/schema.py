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
    "side": pl.String,  # what the seat played as (GameInfo.side); "" for a game without sides
}

SCORES = {
    "players": pl.Int8,
    "seat": pl.Int8,
    "strategy": pl.String,
    "score": pl.Int32,
    "count": pl.Int64,
    "side": pl.String,
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
    "side": pl.String,
    "opponent_side": pl.String,
    # sum over games of the two seats' win shares multiplied: the covariance of seats that one
    # strategy holds together (a strategy's rate clustered by game, report.strategy_rates)
    "win_share_cross_sum": pl.Float64,
}

# One row per player count: the seats' scores summed within each game (T), so the mean
# score's interval can treat the seats of one game as the correlated cluster they are.
GAME_TOTALS = {
    "players": pl.Int8,
    "games": pl.Int64,
    "score_total_sum": pl.Int64,  # sum over games of T
    "score_total_sq_sum": pl.Int64,  # sum over games of T^2
}

# One row per (players, outcome): how games ended (balance.core.game.GameInfo.outcomes; "capped":
# stopped by the turn cap), how long they took, and how many were won (competitive: a win was
# handed out; cooperative: the team won).
OUTCOMES = {
    "players": pl.Int8,
    "outcome": pl.String,
    "games": pl.Int64,
    "length_sum": pl.Int64,  # game length in the game's unit (GameInfo.length)
    "length_sq_sum": pl.Int64,
    "won": pl.Int64,
}

# The game-length histogram: one row per (players, outcome, length) that occurred.
LENGTHS = {
    "players": pl.Int8,
    "outcome": pl.String,
    "length": pl.Int32,
    "games": pl.Int64,
}

# A cooperative game with sides: one row per (players, team) that played, the team being its
# set of sides (names in side order joined by "+"): games and games won.
TEAMS = {
    "players": pl.Int8,
    "team": pl.String,
    "games": pl.Int64,
    "won": pl.Int64,
}

# --keep-games: one row per game and seat; a game's own per-game columns follow these.
GAMES = {
    "players": pl.Int8,
    "game": pl.Int64,  # the game's index in the run: replay it with the same seed
    "seat": pl.Int8,
    "strategy": pl.String,
    "score": pl.Int16,
    "win_share": pl.Float64,
}
# ... and these close the row, after the game's columns (added with the game interface).
GAMES_TAIL = {
    "side": pl.String,
    "outcome": pl.String,
    "length": pl.Int32,
}

def frame(columns: dict, schema: dict) -> pl.DataFrame:
    """A DataFrame with exactly ``schema``'s columns, in order, cast to its dtypes."""
    missing = set(schema) - set(columns)
    assert not missing, f"missing columns {missing}"
    return pl.DataFrame({k: columns[k] for k in schema}, schema=schema)


# The core tables every run writes (pairs only for competitive games), their keys (rows with
# equal keys add up, e.g. the blocks of a rotated run; every other column is a sum) and meaning.
CORE_TABLES = {
    "seats": (SEATS, ["players", "seat", "strategy", "side"],
              "per seat: games, win share (ties split 1/k), wins, score sums"),
    "scores": (SCORES, ["players", "seat", "strategy", "side", "score"],
               "per seat: the score histogram"),
    "pairs": (PAIRS, ["players", "seat", "strategy", "side", "opponent_seat", "opponent_strategy",
                      "opponent_side"],
              "per ordered pair of seats: games one was ahead of the other, or level"),
    "game_totals": (GAME_TOTALS, ["players"],
                    "per player count: sums of each game's total score (the mean score's clustered CI)"),
    "outcomes": (OUTCOMES, ["players", "outcome"],
                 "per player count and outcome: games, length sums, games won (team wins)"),
    "lengths": (LENGTHS, ["players", "outcome", "length"], "the game-length histogram"),
    "teams": (TEAMS, ["players", "team"],
              "a cooperative game with sides: games and wins of each team (its set of sides)"),
}


def sum_rows(table: pl.DataFrame, keys: list[str], columns: dict) -> pl.DataFrame:
    """Add up rows with equal ``keys``, keeping the first-seen row order and the schema
    ``columns``; rows are then ordered by seat (rotation blocks after: a stable sort)."""
    keys = list(keys)
    summed = table.group_by(keys, maintain_order=True).agg(pl.exclude(keys).sum())
    if "seat" in keys:
        summed = summed.sort([k for k in keys if k not in ("strategy", "side", "opponent_side")],
                             maintain_order=True)
    return summed.select(list(columns)).cast(columns)
