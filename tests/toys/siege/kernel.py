"""The siege kernel: plays a chunk of games with numba, arrays in, arrays out.

Random streams of game ``g`` in a run with ``seed`` (balance.core.rng keys, balance.core.kit's convention):

- stream 0 (chance): every round draws the horde's growth, then one action die per seat in
  seat order, whether the seat's hero uses it or not. So the chance draws of a game depend on
  (seed, game) alone: no strategy and no side moves them (common random numbers across
  strategies, sides and rule variants with the same dice);
- stream ``1 + seat``: that seat's strategy draws (only the random strategy draws);
- stream ``kit.SIDE_STREAM``: the heroes of the game when they are drawn (``kit.draw_distinct``,
  distinct classes), so a game keeps its heroes when any seat's strategy changes.

``reference.py`` plays the same games in plain Python from the same streams.
"""
import numpy as np

from balance.core._jit import drop_stale_cache, jit, jit_inline
from balance.core.kit import (SIDE_STREAM, award_team, below, draw_distinct, game_key, game_stream_key,
                              open_streams, seed_key)

from .rules import ACTION_DIE, ARCHER, HEALER, HEROES, KNIGHT, SHELTER
from .strategies import repairs

drop_stale_cache(__file__)

WON, WALL_FELL, CAPPED = 0, 1, 2  # outcome codes: indices into GAME.outcomes
N_HEROES = len(HEROES)


@jit_inline
def removes(hero, die):
    """Attackers a fighting hero of class ``hero`` removes, with its action die ``die``."""
    if hero == KNIGHT:
        return 3
    if hero == ARCHER:
        return die
    if hero == HEALER:
        return 1
    return 5 if die >= 4 else 1  # mage


@jit
def play_games(players, wall0, min_rounds, max_rounds, growth, sids, prm, given, draw, seed,
               first_game, n_games, win_units, outcome, length, sides):
    """Play games ``first_game .. first_game + n_games - 1``; fill row i of win_units
    int32[n, P], outcome int8[n], length int32[n] (rounds played) and sides int16[n, P].
    sids int64[P] strategy ids; prm float64[P, MAX_PARAMS] their parameters; given int64[P]
    the hero of each seat, used when ``draw`` is False (else drawn per game)."""
    sk = seed_key(seed)
    states = np.zeros(1 + players, np.uint64)  # slot 0 chance, slot 1 + seat its strategy
    side_state = np.zeros(1, np.uint64)
    pool = np.zeros(N_HEROES, np.int64)
    hero = np.zeros(players, np.int64)
    dice = np.zeros(players, np.int64)
    for i in range(n_games):
        gk = game_key(sk, first_game + i)
        open_streams(gk, states, players)
        if draw:
            side_state[0] = game_stream_key(gk, SIDE_STREAM)
            draw_distinct(side_state, 0, N_HEROES, players, pool, hero)
        else:
            for p in range(players):
                hero[p] = given[p]
        for p in range(players):
            sides[i, p] = hero[p]
        wall = wall0
        horde = 0
        rounds = 0
        result = CAPPED
        while True:
            rounds += 1
            horde += 1 + below(states, 0, growth)
            for p in range(players):
                dice[p] = 1 + below(states, 0, ACTION_DIE)
            for p in range(players):
                if repairs(sids[p], prm, p, wall, states):
                    wall = min(wall0, wall + (2 if hero[p] == HEALER else 1))
                else:
                    horde = max(0, horde - removes(hero[p], dice[p]))
            if horde == 0 and rounds >= min_rounds:
                result = WON
                break
            wall -= max(0, horde - SHELTER)
            if wall <= 0:
                result = WALL_FELL
                break
            if rounds >= max_rounds:
                result = CAPPED
                break
        award_team(result == WON, players, win_units[i])
        outcome[i] = result
        length[i] = rounds
