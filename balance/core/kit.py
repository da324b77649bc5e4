"""The njit kit: what every game's kernel repeats, written once.

- random streams: ``open_streams`` (a game's chance and seat streams at once), and
  ``seed_key``, ``game_key``, ``game_stream_key``, ``below`` (balance.core.rng).
  Convention: stream 0 of a game is chance, stream 1 + seat is that seat's strategy, and
  stream ``SIDE_STREAM`` draws the seats' sides; so changing one seat's strategy moves no
  other draw, and sides survive a change of strategy (common random numbers).
- awarding a finished game: ``award_by_rank`` (the best rank wins, a k-way tie gives each
  winner WIN_UNIT / k) and ``award_team`` (cooperative: every seat gets the team's result).
- ``fold_games``: the core counters (balance.core.counters) of a chunk from its per-game arrays.
- ``to_front``: a player's pick goes first in an order the others keep (an order the rules leave
  to a player: Smash Up's reactions and triggers, Defenders' group rolls).

A new game's kernel then holds only its rules: it fills win_units, outcome, length and scores
per game and its engine calls ``fold_chunk`` once per chunk (``fold_games`` on its arrays).
"""
from __future__ import annotations

import numpy as np

from balance.core._jit import jit, jit_inline
from balance.core.counters import OutcomeStat, PairStat, SeatStat
from balance.core.errors import BalanceError
from balance.core.game import WIN_UNIT
from balance.core.rng import below, game_key, game_stream_key, seed_key  # noqa: F401 (the kit's streams)

SIDE_STREAM = 255  # a game's stream for drawing sides (seats use 1 + seat, far below)


@jit_inline
def open_streams(game_k, states, players):
    """Open game ``game_k``'s streams (``game_key(seed_key(seed), game)``) in ``states``
    (uint64[>= 1 + players]): slot 0 chance (stream 0), slot 1 + seat that seat's strategy."""
    for s in range(1 + players):
        states[s] = game_stream_key(game_k, s)


@jit_inline
def award_by_rank(ranks, players, win_units_row):
    """A finished competitive game: the seats with the highest ``ranks[p]`` share one win.
    Writes win_units_row[:players] (int32); returns how many seats won."""
    best = ranks[0]
    for p in range(1, players):
        best = max(best, ranks[p])
    k = 0
    for p in range(players):
        if ranks[p] == best:
            k += 1
    for p in range(players):
        win_units_row[p] = WIN_UNIT // k if ranks[p] == best else 0
    return k


@jit_inline
def award_team(won, players, win_units_row):
    """A cooperative game: every seat gets the team's result (WIN_UNIT on a win, else 0)."""
    for p in range(players):
        win_units_row[p] = WIN_UNIT if won else 0


@jit_inline
def draw_distinct(states, s, n_choices, k, pool, out):
    """Draw ``k`` distinct indices of ``range(n_choices)`` from stream slot ``s`` into
    ``out[:k]`` (partial Fisher-Yates over ``pool``, int64[>= n_choices], reset here).

    For sides drawn per game: open slot ``s`` with ``game_stream_key(game_k, SIDE_STREAM)``, so
    the draw depends only on the seed and the game number, never on the strategies.
    """
    for i in range(n_choices):
        pool[i] = i
    for i in range(k):
        j = i + below(states, s, n_choices - i)
        pool[i], pool[j] = pool[j], pool[i]
        out[i] = pool[i]


@jit_inline
def to_front(a, j, first):
    """Move ``a[j]`` to ``a[first]`` (first <= j), the ones between one place on. ``a`` may be
    a row or column view, to move a whole record held across arrays."""
    x = a[j]
    for t in range(j, first, -1):
        a[t] = a[t - 1]
    a[first] = x


@jit
def fold_games(win_units, scores, sides, outcome, length, by_score, seat_stats, score_hist,
               pair_stats, game_scores, outcome_stats, length_hist):
    """Add a chunk's games into the core counters (shapes as balance.core.counters.core_totals).

    win_units int32[n, P]; scores int32[n, P] (zeros for a game without a score); sides
    int[n, P] (zeros without sides); outcome int8[n]; length int32[n]. by_score: pairs compare
    scores (else win units). Lengths above the histogram's end count at its end.
    """
    n, players = win_units.shape
    top = length_hist.shape[1] - 1
    for g in range(n):
        total = 0
        won = 0
        for p in range(players):
            s = sides[g, p]
            u = win_units[g, p]
            sc = scores[g, p]
            seat_stats[p, s, SeatStat.GAMES] += 1
            seat_stats[p, s, SeatStat.WIN_UNITS] += u
            if u == WIN_UNIT:
                seat_stats[p, s, SeatStat.WINS_OUTRIGHT] += 1
            elif u > 0:
                seat_stats[p, s, SeatStat.WINS_SHARED] += 1
            seat_stats[p, s, SeatStat.SCORE_SUM] += sc
            seat_stats[p, s, SeatStat.SCORE_SQ_SUM] += sc * sc
            seat_stats[p, s, SeatStat.WIN_UNITS_SQ] += u * u
            score_hist[p, s, sc] += 1
            total += sc
            won += u
            for q in range(players):
                if q != p:
                    t = sides[g, q]
                    pair_stats[p, s, q, t, PairStat.GAMES] += 1
                    mine, theirs = (sc, scores[g, q]) if by_score else (u, win_units[g, q])
                    if mine > theirs:
                        pair_stats[p, s, q, t, PairStat.AHEAD] += 1
                    pair_stats[p, s, q, t, PairStat.CROSS] += u * win_units[g, q]
        game_scores[0] += 1
        game_scores[1] += total
        game_scores[2] += total * total
        o = outcome[g]
        length_g = length[g]
        outcome_stats[o, OutcomeStat.GAMES] += 1
        outcome_stats[o, OutcomeStat.LENGTH_SUM] += length_g
        outcome_stats[o, OutcomeStat.LENGTH_SQ_SUM] += length_g * length_g
        if won > 0:
            outcome_stats[o, OutcomeStat.WON] += 1
        length_hist[o, min(length_g, top)] += 1


def fold_chunk(chunk, totals: dict) -> None:
    """``fold_games`` on a Chunk's arrays into ``totals`` (core_totals layout), after checking
    that every value has its counter (``check_in_range``)."""
    check_in_range(chunk, totals)
    n, players = chunk.win_units.shape
    scores = chunk.scores if chunk.scores is not None else np.zeros((n, players), np.int32)
    sides = chunk.sides if chunk.sides is not None else np.zeros((n, players), np.int16)
    if "team_stats" in totals and chunk.sides is not None:  # a cooperative team of sides
        team = np.bitwise_or.reduce(np.left_shift(1, chunk.sides.astype(np.int64)), axis=1)
        np.add.at(totals["team_stats"][:, 0], team, 1)
        np.add.at(totals["team_stats"][:, 1], team, (chunk.win_units[:, 0] > 0).astype(np.int64))
    fold_games(chunk.win_units, scores, sides, chunk.outcome, chunk.length, chunk.scores is not None,
               totals["seat_stats"],
               totals["score_hist"], totals["pair_stats"], totals["game_scores"],
               totals["outcome_stats"], totals["length_hist"])


def check_in_range(chunk, totals: dict) -> None:
    """BalanceError unless each of a chunk's values indexes the counters built for it: a score
    in 0..max_score, a side below the engine's side names, an outcome below the game's
    outcomes, a length and a win share at least 0 (a win share at most WIN_UNIT).

    ``fold_games`` indexes its histograms with these values unchecked (a kernel's speed), so an
    engine whose ``max_score`` is below a score its rules allow would write past the score
    histogram's end: another array's counts, or the allocator's records (a crash, or wrong
    numbers). Lengths above ``max_length`` are counted at its end; lengths, not scores, may
    run past it. Costs a few passes over the chunk's arrays, against the games' playing.
    """
    problems = []

    def outside(name, values, low, high, why=""):  # high None: no upper bound
        if values is None:
            return
        bad = values < low if high is None else (values < low) | (values > high)
        if bad.any():
            first = tuple(int(i) for i in np.argwhere(bad)[0])  # (game,) or (game, seat)
            where = f"game {chunk.first_game + first[0]}" + (f", seat {first[1]}" if len(first) > 1 else "")
            bounds = f"below {low}" if high is None else f"outside {low}..{high}"
            problems.append(f"{name} {values[first]} ({where}) is {bounds}" + (f" ({why})" if why else ""))

    outside("a score", chunk.scores, 0, totals["score_hist"].shape[2] - 1,
            "the engine's max_score must be the highest score its rules allow")
    outside("a side", chunk.sides, 0, totals["seat_stats"].shape[1] - 1, "an index into the engine's side_names")
    outside("an outcome", chunk.outcome, 0, totals["outcome_stats"].shape[0] - 1,
            "an index into the game's outcomes")
    outside("a length", chunk.length, 0, None)
    outside("a win share", chunk.win_units, 0, WIN_UNIT, f"a seat's share of one win, in 1/{WIN_UNIT}")
    if problems:
        raise BalanceError("the engine played games its counters cannot hold: " + "; ".join(problems)
                           + " (a defect of the game's engine, not of its rules or options)")
