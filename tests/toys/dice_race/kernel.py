"""The dice-race kernel: plays a chunk of games with numba, arrays in, arrays out.

Random streams of game ``g`` in a run with ``seed`` (balance.core.rng keys, balance.core.kit's convention):

- stream ``1 + seat``: that seat's strategy draws (only the random strategy draws);
- stream ``DICE_STREAM + seat``: that seat's dice. Every turn draws two dice from it, first
  die then second, whether the seat rolls one die (it uses the first) or two. So the dice of a
  seat's k-th turn are fixed by (seed, game, seat, k): no strategy, the seat's own or another
  seat's, moves any seat's dice (common random numbers across strategies and rule variants).

- stream ``kit.SIDE_STREAM``: each seat's dice set when the sides are drawn (one draw per seat,
  in seat order, whether or not that seat's side is given), so a game keeps its dice sets
  whatever the strategies.

Stream 0 (chance) is unused: the game has no shared deck. ``reference.py`` plays the same
games in plain Python from the same streams.
"""
import numpy as np

from balance.core._jit import drop_stale_cache, jit
from balance.core.kit import SIDE_STREAM, award_by_rank, below, game_key, game_stream_key, seed_key

from .strategies import rolls_two

drop_stale_cache(__file__)

DICE_STREAM = 64  # seat s rolls from stream DICE_STREAM + s (strategies use 1 + s, below it)
FINISHED, CAPPED = 0, 1  # outcome codes: indices into GAME.outcomes


@jit
def play_games(players, target, max_rounds, bust_face, sids, prm, faces, given, seed, first_game,
               n_games, win_units, scores, outcome, length, sides):
    """Play games ``first_game .. first_game + n_games - 1``; fill row i of win_units
    int32[n, P], scores int32[n, P], outcome int8[n], length int32[n] (rounds played) and sides
    int16[n, P] (each seat's dice set). sids int64[P] strategy ids; prm float64[P, MAX_PARAMS]
    their parameters; faces int64[n_sets, 6] what each rolled face becomes on each dice set;
    given int64[P] each seat's dice set, or -1 to draw it."""
    sk = seed_key(seed)
    states = np.zeros(1 + players, np.uint64)  # slot 1 + seat: the seat's strategy stream
    dice = np.zeros(players, np.uint64)  # slot seat: the seat's dice stream
    side_state = np.zeros(1, np.uint64)
    n_sets = faces.shape[0]
    for i in range(n_games):
        gk = game_key(sk, first_game + i)
        side_state[0] = game_stream_key(gk, SIDE_STREAM)
        for p in range(players):
            states[1 + p] = game_stream_key(gk, 1 + p)
            dice[p] = game_stream_key(gk, DICE_STREAM + p)
            scores[i, p] = 0
            drawn = below(side_state, 0, n_sets)
            sides[i, p] = drawn if given[p] < 0 else given[p]
        rounds = 0
        while True:
            for p in range(players):
                two = rolls_two(sids[p], prm, p, scores[i], players, states)
                d1 = faces[sides[i, p], below(dice, p, 6)]
                d2 = faces[sides[i, p], below(dice, p, 6)]
                if not two:
                    scores[i, p] += d1
                elif bust_face == 0 or (d1 != bust_face and d2 != bust_face):
                    scores[i, p] += d1 + d2
            rounds += 1
            best = scores[i, 0]
            for p in range(1, players):
                best = max(best, scores[i, p])
            if best >= target:
                award_by_rank(scores[i], players, win_units[i])
                outcome[i] = FINISHED
                break
            if rounds >= max_rounds:
                for p in range(players):
                    win_units[i, p] = 0
                outcome[i] = CAPPED
                break
        length[i] = rounds
