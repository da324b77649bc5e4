"""The simulation kernel: plays chunks of games with numba, arrays in, arrays out.

Rules arrays come from ``Rules.to_kernel()``; strategies are ``sids int64[P]`` and
``prm float64[P, MAX_PARAMS]``. Inputs are validated before they get here.
"""
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from balance._jit import drop_stale_cache, jit, jit_inline, jit_nonrt
from balance.rng import below, game_key, game_stream_key, seed_key

from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Cfg, LostTokensTo, RewardOrder
from .strategies import choose_card
from .tokens import centre_pick, score3, tokens_lost

drop_stale_cache(__file__)


@jit_inline
def _order_key(card, clockwise, lowest_first):
    """Sort key of a counted card for reward order; equal cards (ties_cancel=false) go clockwise."""
    rank = card if lowest_first else MAX_CARD + 1 - card
    return rank * 8 + clockwise


@jit_inline
def resolve_fight(cfg, first, villain, plays, tokens, reserve, centre, strength, rewards,
                  n_places, counted, order, keys, gained, lost, lowest):
    """Resolve one villain after every seat revealed ``plays[p]``; returns True if beaten.

    Updates tokens int64[P, 3], reserve and centre int64[3] in place and writes per seat:
    counted (1 if its card counts), gained / lost (tokens this fight), lowest (1 if it was a
    lowest card of a defeat). order int64[P + 1] and keys int64[P] are scratch.
    """
    players = cfg[Cfg.PLAYERS]
    bonus = cfg[Cfg.SET_BONUS]
    # Card values shown by two or more seats, as a bitmask: one pass instead of P x P compares.
    seen = 0
    dup = 0
    low = 1 << 30
    for p in range(players):
        bit = 1 << plays[p]
        dup |= seen & bit
        seen |= bit
        low = min(low, plays[p])
    if cfg[Cfg.TIES_CANCEL] != 1:
        dup = 0
    total = 0
    for p in range(players):
        card = plays[p]
        counts = 1 - ((dup >> card) & 1)
        counted[p] = counts
        total += card * counts
        gained[p] = 0
        lost[p] = 0
        lowest[p] = 0

    if total >= strength[villain]:
        lowest_first = cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST
        # Reward order by ranking instead of sorting: a counted seat's place is the number of
        # counted seats with a smaller key (keys are distinct). P x P compares without
        # data-dependent branches beat an insertion sort that mispredicts on random cards.
        p = first
        for k in range(players):
            keys[p] = _order_key(plays[p], k, lowest_first)
            p = p + 1 if p + 1 < players else 0  # clockwise; no modulo (an integer division)
        m = 0
        for p in range(players):
            place = 0
            for q in range(players):
                place += counted[q] & (keys[q] < keys[p])
            # Seats that do not count write to the spare slot order[players].
            order[place if counted[p] == 1 else players] = p
            m += counted[p]
        for k in range(min(m, n_places[villain])):
            p = order[k]
            for c in range(3):
                g = min(rewards[villain, k, c], reserve[c])
                tokens[p, c] += g
                reserve[c] -= g
                gained[p] += g
        i = 0
        while centre[0] + centre[1] + centre[2] > 0:
            p = order[i]
            c = centre_pick((tokens[p, 0], tokens[p, 1], tokens[p, 2]), centre, bonus)
            tokens[p, c] += 1
            centre[c] -= 1
            gained[p] += 1
            i = i + 1 if i + 1 < m else 0
        return True

    # Defeat: every seat that showed the lowest card loses tokens. Seats are independent and
    # the pools only add up, so the seat order does not matter.
    loss_rule = cfg[Cfg.LOSS_RULE]
    to_centre = cfg[Cfg.LOST_TOKENS_TO] == LostTokensTo.CENTRE
    for p in range(players):
        if plays[p] == low:
            lowest[p] = 1
            taken = tokens_lost((tokens[p, 0], tokens[p, 1], tokens[p, 2]), loss_rule, bonus)
            for c in range(3):
                tokens[p, c] -= taken[c]
                lost[p] += taken[c]
                if to_centre:
                    centre[c] += taken[c]
                else:
                    reserve[c] += taken[c]
    return False


@jit
def play_games(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, seed, first_game,
               n_games, out_scores, out_tokens, out_win_units, out_beaten, seat_stats,
               score_hist, card_stats, villain_stats, pair_stats, scratch):
    """Play games ``first_game .. first_game + n_games - 1`` of a run with ``seed``.

    Per game g (row g of the outputs): out_scores int32[n, P], out_tokens int32[n, P, 3]
    (final Y, R, B), out_win_units int32[n, P] (win share x WIN_UNIT), out_beaten int32[n]
    (villains beaten). Adds into the accumulators seat_stats int64[P, len(SeatStat)],
    score_hist int64[P, max_score + 1], card_stats int64[P, MAX_CARD + 1, len(CardStat)],
    villain_stats int64[NV, len(VillainStat)], pair_stats int64[P, P] (games in which seat a
    scored more than seat b). start int64[P, 3]: tokens each seat starts with.
    scratch int64[strategies.scratch_size(T)].
    """
    players = cfg[Cfg.PLAYERS]
    h = cfg[Cfg.HAND_SIZE]
    # Per-chunk working arrays; the game loop itself runs without the NRT (see _play_chunk).
    _play_chunk(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, seed,
                first_game, n_games, out_scores, out_tokens, out_win_units, out_beaten,
                seat_stats, score_hist, card_stats, villain_stats, pair_stats, scratch,
                np.zeros(players + 1, np.uint64), np.zeros((players, h), np.int64),
                np.zeros((_SEAT_ROWS, players + 1), np.int64),
                np.zeros((players, 3), np.int64), np.zeros(3, np.int64),
                np.zeros(3, np.int64), np.zeros(cfg[Cfg.DECK_PER_BATTLE], np.int64))


# Rows of the per-seat working array ``seat`` int64[_SEAT_ROWS, P + 1] of _play_chunk.
_HAND_N, _PICK, _PLAY, _COUNTED, _ORDER, _KEY, _GAINED, _LOST, _LOWEST, _PLAYED, _REWARDED, \
    _SCORE = range(12)
_SEAT_ROWS = 12


@jit_nonrt
def _play_chunk(cfg, hand, strength, rewards, n_places, decks, start, sids, prm, seed,
                first_game, n_games, out_scores, out_tokens, out_win_units, out_beaten,
                seat_stats, score_hist, card_stats, villain_stats, pair_stats, scratch, states,
                hands, seat, tokens, reserve, centre, deck):
    """The game loop of play_games; states, hands, seat, tokens, reserve, centre, deck are
    zeroed working arrays (uint64[P + 1], int64[P, H], int64[_SEAT_ROWS, P + 1], int64[P, 3],
    int64[3], int64[3], int64[deck_per_battle])."""
    players = cfg[Cfg.PLAYERS]
    h = cfg[Cfg.HAND_SIZE]
    battles = cfg[Cfg.BATTLES]
    vpb = cfg[Cfg.VILLAINS_PER_BATTLE]
    dpb = cfg[Cfg.DECK_PER_BATTLE]
    bonus = cfg[Cfg.SET_BONUS]
    per_colour = cfg[Cfg.TOKENS_PER_COLOUR]
    hand_n = seat[_HAND_N]
    picks = seat[_PICK]
    plays = seat[_PLAY]
    counted = seat[_COUNTED]
    order = seat[_ORDER]
    keys = seat[_KEY]
    gained = seat[_GAINED]
    lost = seat[_LOST]
    lowest = seat[_LOWEST]
    played_mask = seat[_PLAYED]
    rewarded_mask = seat[_REWARDED]
    scores = seat[_SCORE]
    seed_k = seed_key(seed)

    for g in range(n_games):
        game_k = game_key(seed_k, first_game + g)
        for s in range(players + 1):
            states[s] = game_stream_key(game_k, s)
        for c in range(3):
            reserve[c] = per_colour
            centre[c] = 0
            for p in range(players):
                tokens[p, c] = start[p, c]
                reserve[c] -= start[p, c]
        for p in range(players):
            played_mask[p] = 0
            rewarded_mask[p] = 0
        beaten_count = 0

        first = 0  # the first-player card passes clockwise each battle
        for b in range(battles):
            for p in range(players):
                hand_n[p] = h
                for i in range(h):
                    hands[p, i] = hand[i]
            # Shuffle the battle's deck and fight its first vpb cards (partial Fisher-Yates).
            for i in range(dpb):
                deck[i] = decks[b, i]
            for i in range(vpb):
                j = i + below(states, 0, dpb - i)
                deck[i], deck[j] = deck[j], deck[i]

            for t in range(vpb):
                villain = deck[t]
                for p in range(players):
                    picks[p] = choose_card(sids[p], prm, p, hands, hand_n, tokens, reserve,
                                           centre, villain, strength, rewards, n_places, cfg,
                                           vpb - 1 - t, states, scratch)
                    plays[p] = hands[p, picks[p]]
                in_centre = centre[0] + centre[1] + centre[2]
                beaten = resolve_fight(cfg, first, villain, plays, tokens, reserve, centre,
                                       strength, rewards, n_places, counted, order, keys,
                                       gained, lost, lowest)
                # Per-seat counters without data-dependent branches: random plays make such
                # branches unpredictable, and adding a zero is cheaper than a mispredict.
                handed = 0
                taken = 0
                for p in range(players):
                    card = plays[p]
                    was_rewarded = gained[p] > 0
                    card_stats[p, card, CardStat.PLAYED] += 1
                    card_stats[p, card, CardStat.CANCELLED] += 1 - counted[p]
                    card_stats[p, card, CardStat.REWARDED] += was_rewarded
                    card_stats[p, card, CardStat.TOKENS_GAINED] += gained[p]
                    card_stats[p, card, CardStat.LOWEST_ON_DEFEAT] += lowest[p]
                    card_stats[p, card, CardStat.TOKENS_LOST] += lost[p]  # 0 unless lowest
                    played_mask[p] |= 1 << card
                    rewarded_mask[p] |= was_rewarded << card
                    handed += gained[p]
                    taken += lost[p]
                    # The card leaves the hand (cards stay sorted): a fixed-length pass of
                    # selects instead of a loop whose length is the random pick.
                    pick = picks[p]
                    for i in range(h - 1):
                        hands[p, i] = hands[p, i + 1] if i >= pick else hands[p, i]
                    hand_n[p] -= 1
                villain_stats[villain, VillainStat.FOUGHT] += 1
                villain_stats[villain, VillainStat.TOKENS_LOST] += taken
                if beaten:
                    beaten_count += 1
                    villain_stats[villain, VillainStat.BEATEN] += 1
                    villain_stats[villain, VillainStat.CENTRE_TOKENS] += in_centre
                    villain_stats[villain, VillainStat.REWARD_TOKENS] += handed - in_centre
            first = first + 1 if first + 1 < players else 0

        best = -1
        for p in range(players):
            scores[p] = score3(tokens[p, 0], tokens[p, 1], tokens[p, 2], bonus)
            best = max(best, scores[p])
        winners = 0
        for p in range(players):
            if scores[p] == best:
                winners += 1
        out_beaten[g] = beaten_count
        share = WIN_UNIT // winners
        for p in range(players):
            s = scores[p]
            units = share if s == best else 0
            out_scores[g, p] = s
            out_win_units[g, p] = units
            for c in range(3):
                out_tokens[g, p, c] = tokens[p, c]
            seat_stats[p, SeatStat.GAMES] += 1
            seat_stats[p, SeatStat.WIN_UNITS] += units
            seat_stats[p, SeatStat.WIN_UNITS_SQ] += units * units
            for q in range(players):
                pair_stats[p, q] += s > scores[q]
            if s == best:
                if winners == 1:
                    seat_stats[p, SeatStat.WINS_OUTRIGHT] += 1
                else:
                    seat_stats[p, SeatStat.WINS_SHARED] += 1
            seat_stats[p, SeatStat.SCORE_SUM] += s
            seat_stats[p, SeatStat.SCORE_SQ_SUM] += s * s
            score_hist[p, s] += 1
            # Only the set bits: a loop over all MAX_CARD + 1 values branched on each bit.
            m = played_mask[p]
            while m != 0:
                v = trailing_zeros(m)
                m &= m - 1
                card_stats[p, v, CardStat.GAMES_PLAYED] += 1
                card_stats[p, v, CardStat.WIN_UNITS_PLAYED] += units
            m = rewarded_mask[p]
            while m != 0:
                v = trailing_zeros(m)
                m &= m - 1
                card_stats[p, v, CardStat.GAMES_REWARDED] += 1
                card_stats[p, v, CardStat.WIN_UNITS_REWARDED] += units


@jit
def replay_game(cfg, strength, rewards, n_places, start, villain_order, plays, trace_tokens,
                trace_reserve, trace_centre, trace_beaten):
    """Replay one scripted game: no randomness, no strategies. start int64[P, 3].

    villain_order int64[battles, vpb] villain indices in fight order; plays int64[battles,
    vpb, P] card values. Writes the state after each fight f = b * vpb + t:
    trace_tokens int64[F, P, 3], trace_reserve / trace_centre int64[F, 3], trace_beaten int64[F].
    """
    players = cfg[Cfg.PLAYERS]
    tokens = np.zeros((players, 3), np.int64)
    reserve = np.zeros(3, np.int64)
    centre = np.zeros(3, np.int64)
    for c in range(3):
        reserve[c] = cfg[Cfg.TOKENS_PER_COLOUR] - start[:, c].sum()
        tokens[:, c] = start[:, c]
    counted = np.zeros(players, np.int64)
    keys = np.zeros(players, np.int64)
    order = np.zeros(players + 1, np.int64)
    gained = np.zeros(players, np.int64)
    lost = np.zeros(players, np.int64)
    lowest = np.zeros(players, np.int64)
    f = 0
    for b in range(villain_order.shape[0]):
        for t in range(villain_order.shape[1]):
            trace_beaten[f] = resolve_fight(cfg, b % players, villain_order[b, t], plays[b, t],
                                            tokens, reserve, centre, strength, rewards, n_places,
                                            counted, order, keys, gained, lost, lowest)
            trace_tokens[f] = tokens
            trace_reserve[f] = reserve
            trace_centre[f] = centre
            f += 1
