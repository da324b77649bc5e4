"""What every engine returns and every run counts, defined once for every game.

An engine's ``play(seed, first_game, n_games)`` returns a ``Chunk``: the per-game core arrays
(win units, outcome, length, optional scores and sides), the game's own per-game columns, and
its summed counters (``totals``). The core counters (``core_totals``) have one layout for every
game; ``balance.core.kit.fold_games`` fills them from the per-game arrays (a game whose kernel
counts them in its own loop, like avengers-cards, fills the same layout). ``core_tables``
turns them into the core tables of ``balance.core.schema.CORE_TABLES``.

Every sum is an integer (win shares in 1/WIN_UNIT units), so totals are bit-identical for any
chunking, thread count or backend.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np
import polars as pl

from balance.core import schema
from balance.core.errors import BalanceError
from balance.core.game import WIN_UNIT


class SeatStat(IntEnum):
    """Per seat and side: ``seat_stats[P, S, len(SeatStat)]``."""

    GAMES = 0
    WIN_UNITS = 1  # sum of win shares x WIN_UNIT
    WINS_OUTRIGHT = 2  # games the seat won alone (cooperative: the team won)
    WINS_SHARED = 3  # games it won with others (a tie)
    SCORE_SUM = 4
    SCORE_SQ_SUM = 5
    WIN_UNITS_SQ = 6  # sum of squared win shares x WIN_UNIT**2 (the share's observed variance)


class PairStat(IntEnum):
    """Per ordered pair of (seat, side): ``pair_stats[P, S, P, S, len(PairStat)]``."""

    GAMES = 0
    AHEAD = 1  # games the first scored more than the second (no score: won more)
    CROSS = 2  # sum of the two seats' win shares multiplied, x WIN_UNIT**2 (their covariance)


class OutcomeStat(IntEnum):
    """Per outcome code: ``outcome_stats[len(outcomes), len(OutcomeStat)]``."""

    GAMES = 0
    LENGTH_SUM = 1
    LENGTH_SQ_SUM = 2
    WON = 3  # games in which a win was handed out (cooperative: the team won)


# A team (a set of sides) is counted by its bitmask of side indices: up to this many sides.
MAX_TEAM_SIDES = 12


@dataclass
class Chunk:
    """One chunk's games, numbered ``first_game + row``, and its summed counters.

    win_units int32[n, P] (win share x WIN_UNIT; a capped game hands out none); outcome
    int8[n] (index into GameInfo.outcomes); length int32[n] (GameInfo.length units); scores
    int32[n, P] or None (a game without a score); sides int16[n, P] or None (index into the
    engine's ``side_names``; None: one side per seat for the whole block); columns: the game's
    own per-game arrays, first axis n; totals: name -> int64 array (core_totals' and the game's).
    """

    first_game: int
    win_units: np.ndarray | None
    outcome: np.ndarray | None
    length: np.ndarray | None
    scores: np.ndarray | None = None
    sides: np.ndarray | None = None
    columns: dict = field(default_factory=dict)
    totals: dict = field(default_factory=dict)

    def totals_only(self) -> "Chunk":
        """The chunk without its per-game arrays (what a worker sends back without keep_games)."""
        return Chunk(self.first_game, None, None, None, totals=self.totals)

    def __len__(self) -> int:
        return 0 if self.win_units is None else len(self.win_units)


def core_totals(players: int, sides: int, max_score: int, outcomes: int, max_length: int) -> dict:
    """Zeroed core counters. sides: how many side names the block uses (1 without sides);
    max_score: the highest score (0 without a score); max_length: the longest game (lengths
    above it are counted at max_length; a turn cap makes it exact)."""
    p, s = players, sides
    return {
        "seat_stats": np.zeros((p, s, len(SeatStat)), np.int64),
        "score_hist": np.zeros((p, s, max_score + 1), np.int64),
        "pair_stats": np.zeros((p, s, p, s, len(PairStat)), np.int64),
        # games, sum of T and of T^2 for T = a game's total score over the seats: the mean
        # score's variance with the seats of one game correlated (clustered by game)
        "game_scores": np.zeros(3, np.int64),
        "outcome_stats": np.zeros((outcomes, len(OutcomeStat)), np.int64),
        "length_hist": np.zeros((outcomes, max_length + 1), np.int64),
    }


def core_tables(players: int, labels: list[str], side_names: list[str], totals: dict,
                outcomes: tuple[str, ...], competitive: bool, has_score: bool) -> dict[str, pl.DataFrame]:
    """The core tables (schema.CORE_TABLES) of one block's totals: seats, scores (with a
    score), pairs (competitive), game_totals, outcomes and lengths. labels: strategy per seat."""
    n, sides = players, len(side_names)
    ss = totals["seat_stats"]
    seat_i, side_i = (x.ravel() for x in np.meshgrid(np.arange(n), np.arange(sides), indexing="ij"))
    if sides > 1:  # a seat that never played a side has no row
        seen = ss[seat_i, side_i, SeatStat.GAMES] > 0
        seat_i, side_i = seat_i[seen], side_i[seen]
    rows = ss[seat_i, side_i]
    out = {"seats": schema.frame({
        "players": np.full(len(seat_i), n), "seat": seat_i, "strategy": [labels[i] for i in seat_i],
        "games": rows[:, SeatStat.GAMES],
        "win_share": rows[:, SeatStat.WIN_UNITS] / WIN_UNIT,
        "wins_outright": rows[:, SeatStat.WINS_OUTRIGHT],
        "wins_shared": rows[:, SeatStat.WINS_SHARED],
        "score_sum": rows[:, SeatStat.SCORE_SUM],
        "score_sq_sum": rows[:, SeatStat.SCORE_SQ_SUM],
        "win_share_sq_sum": rows[:, SeatStat.WIN_UNITS_SQ] / WIN_UNIT**2,
        "side": [side_names[i] for i in side_i],
    }, schema.SEATS)}
    if has_score:
        hist = totals["score_hist"]
        a, s, score = np.nonzero(hist)
        out["scores"] = schema.frame({
            "players": np.full(len(a), n), "seat": a, "strategy": [labels[i] for i in a],
            "score": score, "count": hist[a, s, score], "side": [side_names[i] for i in s],
        }, schema.SCORES)
    if "team_stats" in totals:
        ts = totals["team_stats"]
        masks = np.flatnonzero(ts[:, 0])
        out["teams"] = schema.frame({
            "players": np.full(len(masks), n),
            "team": ["+".join(side_names[i] for i in range(sides) if m >> i & 1) for m in masks],
            "games": ts[masks, 0], "won": ts[masks, 1],
        }, schema.TEAMS)
    if competitive:
        ps = totals["pair_stats"]
        a, s, b, t = np.nonzero(ps[..., PairStat.GAMES])
        keep = a != b
        a, s, b, t = a[keep], s[keep], b[keep], t[keep]
        games, ahead = ps[a, s, b, t, PairStat.GAMES], ps[a, s, b, t, PairStat.AHEAD]
        out["pairs"] = schema.frame({
            "players": np.full(len(a), n), "seat": a, "strategy": [labels[i] for i in a],
            "opponent_seat": b, "opponent_strategy": [labels[i] for i in b],
            "games": games, "ahead": ahead, "level": games - ahead - ps[b, t, a, s, PairStat.AHEAD],
            "win_share_cross_sum": ps[a, s, b, t, PairStat.CROSS] / WIN_UNIT**2,
            "side": [side_names[i] for i in s], "opponent_side": [side_names[i] for i in t],
        }, schema.PAIRS)
    gs = totals["game_scores"]
    out["game_totals"] = schema.frame({
        "players": [n], "games": [gs[0]], "score_total_sum": [gs[1]], "score_total_sq_sum": [gs[2]],
    }, schema.GAME_TOTALS)
    os_ = totals["outcome_stats"]
    out["outcomes"] = schema.frame({
        "players": [n] * len(outcomes), "outcome": list(outcomes),
        "games": os_[:, OutcomeStat.GAMES], "length_sum": os_[:, OutcomeStat.LENGTH_SUM],
        "length_sq_sum": os_[:, OutcomeStat.LENGTH_SQ_SUM], "won": os_[:, OutcomeStat.WON],
    }, schema.OUTCOMES)
    o, length = np.nonzero(totals["length_hist"])
    out["lengths"] = schema.frame({
        "players": np.full(len(o), n), "outcome": [outcomes[i] for i in o], "length": length,
        "games": totals["length_hist"][o, length],
    }, schema.LENGTHS)
    return out


def games_table(chunk: Chunk, players: int, labels: list[str], side_names: list[str],
                outcomes: tuple[str, ...], game_columns: dict, game_schema: dict) -> pl.DataFrame:
    """Per-game rows of a chunk, one per game and seat (``--keep-games``): the core columns
    (schema.GAMES), the game's own (``game_columns``: name -> flat array [n * P], typed by
    ``game_schema``), then schema.GAMES_TAIL."""
    n_games, n = len(chunk), players
    scores = chunk.scores if chunk.scores is not None else np.zeros((n_games, n), np.int32)
    sides = (np.zeros((n_games, n), np.int64) if chunk.sides is None else chunk.sides)
    names = np.array(side_names)
    return schema.frame({
        "players": np.full(n_games * n, n),
        "game": np.repeat(np.arange(chunk.first_game, chunk.first_game + n_games), n),
        "seat": np.tile(np.arange(n), n_games),
        "strategy": np.tile(np.array(labels), n_games),
        "score": scores.ravel(), "win_share": chunk.win_units.ravel() / WIN_UNIT,
        **game_columns,
        "side": names[sides.ravel()], "outcome": np.array(outcomes)[np.repeat(chunk.outcome, n)],
        "length": np.repeat(chunk.length, n),
    }, {**schema.GAMES, **game_schema, **schema.GAMES_TAIL})


def holders_win_units(held: np.ndarray, win_units: np.ndarray, codes) -> list[np.ndarray]:
    """Per code, each game's win units of the seats holding it (0 where no seat does): the
    numerator of a compare metric that measures one side at a time. held int[n, P, k]: each
    seat's k codes (the two members of a seat's side pair; k = 1 for a seat that is one side);
    win_units int[n, P]. Returns [int64[n] for each of ``codes``]."""
    units = win_units.astype(np.int64)
    return [np.where((held == c).any(axis=2), units, 0).sum(axis=1) for c in codes]


def same_side_hint(sides) -> str:
    """What to add to a refusal of a side given to two seats when every seat has the same one:
    the user most likely gave one --side, which plays every seat (the error listed 'X, X'
    though they wrote X once)."""
    return " (every seat has it: one --side plays every seat; give one per seat)" if (
        len(sides) > 1 and len(set(sides)) == 1) else ""


def distinct_sides(sides, players: int, names: list[str], noun: str) -> tuple[int, ...] | None:
    """Given sides for a team game whose seats hold different sides (heroes): one index into
    ``names`` per seat, each in range, none twice; a one-line BalanceError naming the problem
    otherwise. None (the sides drawn per game) stays None."""
    if sides is None:
        return None
    sides = tuple(int(s) for s in sides)
    if len(sides) != players:
        raise BalanceError(f"{len(sides)} sides given for {players} players; give one {noun} per seat")
    bad = [s for s in sides if not 0 <= s < len(names)]
    if bad:
        raise BalanceError(f"{noun} index {bad[0]} is out of range; allowed: 0..{len(names) - 1} ({', '.join(names)})")
    if len(set(sides)) != len(sides):
        raise BalanceError(f"a team has each {noun} at most once; got {', '.join(names[s] for s in sides)}"
                           f"{same_side_hint(sides)}")
    return sides


class BaseEngine:
    """What every game's Engine shares; a game subclasses it and provides:

    ``__init__(rules, strategies, **options)`` setting ``self.rules`` (with ``.players``) and
    ``self.strategies`` (one balance.core.strategy.Strategy per seat); ``max_score`` and
    ``max_length`` (for the histograms); ``play(seed, first_game, n_games) -> Chunk``; and, for
    a game with its own tables, ``game_totals()`` (its zeroed counters), ``tables(totals)`` (its
    TableSpec tables) and ``game_columns(chunk)`` with ``GAME_COLUMNS`` (its --keep-games
    columns). ``side_names``: what each side index means ([""]: the game has no sides). A game
    with sides (GameInfo.side) also takes ``sides=`` (a side index per seat, or None: its
    kernel draws them per game, see kit.draw_distinct), keeps it as ``given_sides`` (what a
    worker needs to rebuild the engine), fills ``Chunk.sides`` and exposes a module-level
    ``side_names(rules) -> list[str]`` in its engine module (the names --side accepts). A game
    whose sides are an open set (a deck list file) instead exposes ``parse_side(rules, text)
    -> str`` (the checked, canonical text) and its Engine takes ``sides`` as those texts; its
    ``side_names`` are then what the counters count (e.g. the Force pair of a deck and pair).
    ``GAME``: the game's declaration (balance.core.game.GameInfo), for its outcomes, kind and score.
    ``fixed_sides``: per seat, whether its counted side (``Chunk.sides``) is fixed by the sides
    given rather than drawn per game; a game whose side text may leave that part drawn (a side
    of two parts given one of them) says so for its engine.
    """

    GAME = None
    GAME_COLUMNS: dict = {}
    given_sides: tuple | None = None
    side_names: list[str] = [""]
    max_score: int = 0
    max_length: int = 0

    @property
    def fixed_sides(self) -> tuple[bool, ...]:
        return (self.given_sides is not None,) * self.rules.players

    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    def game_totals(self) -> dict:
        return {}

    def empty_totals(self) -> dict:
        """Zeroed counters of a block: the core ones (core_totals) and the game's."""
        totals = core_totals(self.rules.players, len(self.side_names), self.max_score,
                             len(self.GAME.outcomes), self.max_length)
        if self.GAME.cooperative and 1 < len(self.side_names) <= MAX_TEAM_SIDES:
            # games and wins per team, indexed by the bitmask of its sides
            totals["team_stats"] = np.zeros((1 << len(self.side_names), 2), np.int64)
        return {**totals, **self.game_totals()}

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        return {}

    def game_columns(self, chunk: Chunk) -> dict:
        return {}

    def all_tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        """The core tables and the game's own, of one block's totals."""
        info = self.GAME
        return {**core_tables(self.rules.players, self.labels(), self.side_names, totals,
                              info.outcomes, not info.cooperative, info.score is not None),
                **self.tables(totals)}

    def games_table(self, chunk: Chunk) -> pl.DataFrame:
        """Per-game rows of a chunk (--keep-games): core columns, then the game's."""
        return games_table(chunk, self.rules.players, self.labels(), self.side_names, self.GAME.outcomes,
                           self.game_columns(chunk), self.GAME_COLUMNS)
