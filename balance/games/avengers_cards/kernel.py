"""The simulation kernel: plays chunks of games with numba, arrays in, arrays out.

Rules arrays come from ``Rules.to_kernel()``; strategies are ``sids int64[P]`` and
``prm float64[P, MAX_PARAMS]``. Inputs are validated before they get here.
"""
import numpy as np

from balance._jit import jit, jit_inline
from balance.rng import below, stream_key

from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Cfg, LostTokensTo, RewardOrder
from .strategies import choose_card
from .tokens import centre_pick, score, tokens_lost


@jit_inline
def _order_key(card, clockwise, lowest_first):
    """Sort key of a counted card for reward order; equal cards (ties_cancel=false) go clockwise."""
    rank = card if lowest_first else MAX_CARD + 1 - card
    return rank * 8 + clockwise


@jit_inline
def resolve_fight(cfg, first, villain, plays, tokens, reserve, centre, strength, rewards,
                  n_places, counted, order, keys, gained, lost, lowest, tmp3):
    """Resolve one villain after every seat revealed ``plays[p]``; returns True if beaten.

    Updates tokens int64[P, 3], reserve and centre int64[3] in place and writes per seat:
    counted (1 if its card counts), gained / lost (tokens this fight), lowest (1 if it was a
    lowest card of a defeat). order, keys int64[P] and tmp3 int64[3] are scratch.
    """
    players = cfg[Cfg.PLAYERS]
    bonus = cfg[Cfg.SET_BONUS]
    ties_cancel = cfg[Cfg.TIES_CANCEL] == 1
    total = 0
    low = 1 << 30
    for p in range(players):
        card = plays[p]
        cut = False
        if ties_cancel:
            for q in range(players):
                if q != p and plays[q] == card:
                    cut = True
        counted[p] = 0 if cut else 1
        if not cut:
            total += card
        low = min(low, card)
        gained[p] = 0
        lost[p] = 0
        lowest[p] = 0

    if total >= strength[villain]:
        lowest_first = cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST
        m = 0  # insertion sort of the counted seats by reward order, keys kept in `keys`
        p = first
        for k in range(players):
            if counted[p] == 1:
                key = _order_key(plays[p], k, lowest_first)
                i = m
                while i > 0 and keys[i - 1] > key:
                    order[i] = order[i - 1]
                    keys[i] = keys[i - 1]
                    i -= 1
                order[i] = p
                keys[i] = key
                m += 1
            p = p + 1 if p + 1 < players else 0  # clockwise; no modulo (an integer division)
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
            c = centre_pick(tokens[p], centre, bonus)
            tokens[p, c] += 1
            centre[c] -= 1
            gained[p] += 1
            i = i + 1 if i + 1 < m else 0
        return True

    to_centre = cfg[Cfg.LOST_TOKENS_TO] == LostTokensTo.CENTRE
    p = first
    for k in range(players):
        if plays[p] == low:
            lowest[p] = 1
            tokens_lost(tokens[p], cfg[Cfg.LOSS_RULE], bonus, tmp3)
            for c in range(3):
                tokens[p, c] -= tmp3[c]
                lost[p] += tmp3[c]
                if to_centre:
                    centre[c] += tmp3[c]
                else:
                    reserve[c] += tmp3[c]
        p = p + 1 if p + 1 < players else 0
    return False


@jit
def play_games(cfg, hand, strength, rewards, n_places, decks, sids, prm, seed, first_game,
               n_games, out_scores, out_tokens, out_win_units, out_beaten, seat_stats,
               score_hist, card_stats, villain_stats, scratch):
    """Play games ``first_game .. first_game + n_games - 1`` of a run with ``seed``.

    Per game g (row g of the outputs): out_scores int32[n, P], out_tokens int32[n, P, 3]
    (final Y, R, B), out_win_units int32[n, P] (win share x WIN_UNIT), out_beaten int32[n]
    (villains beaten). Adds into the accumulators seat_stats int64[P, len(SeatStat)],
    score_hist int64[P, max_score + 1], card_stats int64[P, MAX_CARD + 1, len(CardStat)],
    villain_stats int64[NV, len(VillainStat)]. scratch int64[strategies.scratch_size(T)].
    """
    players = cfg[Cfg.PLAYERS]
    h = cfg[Cfg.HAND_SIZE]
    battles = cfg[Cfg.BATTLES]
    vpb = cfg[Cfg.VILLAINS_PER_BATTLE]
    dpb = cfg[Cfg.DECK_PER_BATTLE]
    bonus = cfg[Cfg.SET_BONUS]
    per_colour = cfg[Cfg.TOKENS_PER_COLOUR]

    states = np.zeros(players + 1, np.uint64)
    hands = np.zeros((players, h), np.int64)
    hand_n = np.zeros(players, np.int64)
    tokens = np.zeros((players, 3), np.int64)
    reserve = np.zeros(3, np.int64)
    centre = np.zeros(3, np.int64)
    deck = np.zeros(dpb, np.int64)
    picks = np.zeros(players, np.int64)
    plays = np.zeros(players, np.int64)
    counted = np.zeros(players, np.int64)
    order = np.zeros(players, np.int64)
    keys = np.zeros(players, np.int64)
    gained = np.zeros(players, np.int64)
    lost = np.zeros(players, np.int64)
    lowest = np.zeros(players, np.int64)
    played_mask = np.zeros(players, np.int64)
    rewarded_mask = np.zeros(players, np.int64)
    tmp3 = np.zeros(3, np.int64)
    scores = np.zeros(players, np.int64)

    for g in range(n_games):
        game = first_game + g
        for s in range(players + 1):
            states[s] = stream_key(seed, game, s)
        for c in range(3):
            start = cfg[Cfg.START_Y + c]
            reserve[c] = per_colour - players * start
            centre[c] = 0
            for p in range(players):
                tokens[p, c] = start
        for p in range(players):
            played_mask[p] = 0
            rewarded_mask[p] = 0
        beaten_count = 0

        for b in range(battles):
            first = b % players  # the first-player card passes clockwise each battle
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
                                       gained, lost, lowest, tmp3)
                handed = 0
                taken = 0
                for p in range(players):
                    card = plays[p]
                    card_stats[p, card, CardStat.PLAYED] += 1
                    card_stats[p, card, CardStat.CANCELLED] += 1 - counted[p]
                    played_mask[p] |= 1 << card
                    if gained[p] > 0:
                        card_stats[p, card, CardStat.REWARDED] += 1
                        card_stats[p, card, CardStat.TOKENS_GAINED] += gained[p]
                        rewarded_mask[p] |= 1 << card
                        handed += gained[p]
                    if lowest[p] == 1:
                        card_stats[p, card, CardStat.LOWEST_ON_DEFEAT] += 1
                        card_stats[p, card, CardStat.TOKENS_LOST] += lost[p]
                        taken += lost[p]
                    # The card leaves the hand (cards stay sorted).
                    for i in range(picks[p], hand_n[p] - 1):
                        hands[p, i] = hands[p, i + 1]
                    hand_n[p] -= 1
                villain_stats[villain, VillainStat.FOUGHT] += 1
                if beaten:
                    beaten_count += 1
                    villain_stats[villain, VillainStat.BEATEN] += 1
                    villain_stats[villain, VillainStat.CENTRE_TOKENS] += in_centre
                    villain_stats[villain, VillainStat.REWARD_TOKENS] += handed - in_centre
                villain_stats[villain, VillainStat.TOKENS_LOST] += taken

        best = -1
        for p in range(players):
            scores[p] = score(tokens[p], bonus)
            best = max(best, scores[p])
        winners = 0
        for p in range(players):
            if scores[p] == best:
                winners += 1
        out_beaten[g] = beaten_count
        for p in range(players):
            s = scores[p]
            units = WIN_UNIT // winners if s == best else 0
            out_scores[g, p] = s
            out_win_units[g, p] = units
            for c in range(3):
                out_tokens[g, p, c] = tokens[p, c]
            seat_stats[p, SeatStat.GAMES] += 1
            seat_stats[p, SeatStat.WIN_UNITS] += units
            if s == best:
                if winners == 1:
                    seat_stats[p, SeatStat.WINS_OUTRIGHT] += 1
                else:
                    seat_stats[p, SeatStat.WINS_SHARED] += 1
            seat_stats[p, SeatStat.SCORE_SUM] += s
            seat_stats[p, SeatStat.SCORE_SQ_SUM] += s * s
            score_hist[p, s] += 1
            for v in range(MAX_CARD + 1):
                if played_mask[p] & (1 << v):
                    card_stats[p, v, CardStat.GAMES_PLAYED] += 1
                    card_stats[p, v, CardStat.WIN_UNITS_PLAYED] += units
                if rewarded_mask[p] & (1 << v):
                    card_stats[p, v, CardStat.GAMES_REWARDED] += 1
                    card_stats[p, v, CardStat.WIN_UNITS_REWARDED] += units


@jit
def replay_game(cfg, strength, rewards, n_places, villain_order, plays, trace_tokens,
                trace_reserve, trace_centre, trace_beaten):
    """Replay one scripted game: no randomness, no strategies.

    villain_order int64[battles, vpb] villain indices in fight order; plays int64[battles,
    vpb, P] card values. Writes the state after each fight f = b * vpb + t:
    trace_tokens int64[F, P, 3], trace_reserve / trace_centre int64[F, 3], trace_beaten int64[F].
    """
    players = cfg[Cfg.PLAYERS]
    tokens = np.zeros((players, 3), np.int64)
    reserve = np.zeros(3, np.int64)
    centre = np.zeros(3, np.int64)
    for c in range(3):
        start = cfg[Cfg.START_Y + c]
        reserve[c] = cfg[Cfg.TOKENS_PER_COLOUR] - players * start
        tokens[:, c] = start
    counted = np.zeros(players, np.int64)
    order = np.zeros(players, np.int64)
    keys = np.zeros(players, np.int64)
    gained = np.zeros(players, np.int64)
    lost = np.zeros(players, np.int64)
    lowest = np.zeros(players, np.int64)
    tmp3 = np.zeros(3, np.int64)
    f = 0
    for b in range(villain_order.shape[0]):
        for t in range(villain_order.shape[1]):
            trace_beaten[f] = resolve_fight(cfg, b % players, villain_order[b, t], plays[b, t],
                                            tokens, reserve, centre, strength, rewards, n_places,
                                            counted, order, keys, gained, lost, lowest, tmp3)
            trace_tokens[f] = tokens
            trace_reserve[f] = reserve
            trace_centre[f] = centre
            f += 1
