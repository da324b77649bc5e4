"""Strategies for Avengers: Infinity War — the card game: declarations and njit choosers.

A strategy decides which card a seat plays against the revealed villain. Every hand is public
(played cards stay face up until the battle ends), so strategies may read every remaining hand.
The centre pick and the colour lost on a tie always use the rulebook's auto-choices
(``tokens.centre_pick`` / ``tokens.loss_colour``).

``choose_card`` returns the value of the chosen card; strategies choose by index into the
seat's ascending remaining hand, as the reference does.
Randomness comes only from the seat's own stream (slot ``1 + seat``), so changing one seat's
strategy never changes another seat's draws. ``reference.py`` restates every strategy in plain
Python; tests check both pick the same cards.
"""
from enum import IntEnum

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from balance.core._jit import jit_inline, popcount
from balance.core.rng import below, below_from
from balance.core.strategy import Param, StrategyInfo

from .rules import MAX_CARD, MAX_PLACES, MAX_PLAYERS, Cfg, RewardOrder
from .tokens import centre_pick, score3, tokens_lost


class StrategyId(IntEnum):
    RANDOM = 0
    LOWEST = 1
    HIGHEST = 2
    THRESHOLD = 3
    GREEDY = 4


MAX_PARAMS = 4
MAX_SAMPLES = 64  # greedy's `samples` bound

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", StrategyId.RANDOM, "plays a card chosen uniformly from its hand"),
        StrategyInfo("lowest", StrategyId.LOWEST, "always plays its lowest card", deterministic=True),
        StrategyInfo("highest", StrategyId.HIGHEST, "always plays its highest card", deterministic=True),
        StrategyInfo(
            "threshold",
            StrategyId.THRESHOLD,
            "estimates the others' contribution as the mean of each remaining hand and plays "
            "the cheapest card that reaches the villain's strength plus a margin; holds back "
            "its highest cards while more villains remain in the battle; if no card reaches, "
            "plays its lowest",
            (
                Param("margin", 1.0, 0.0, 20.0, "safety margin added to the villain's strength"),
                Param(
                    "keep_high", 1.0, 0.0, float(MAX_CARD),
                    "number of highest cards held back unless this is the battle's last villain",
                    integer=True,
                ),
            ),
            deterministic=True,
        ),
        StrategyInfo(
            "greedy",
            StrategyId.GREEDY,
            "samples the opponents' plays uniformly from their remaining hands and scores each "
            "card by w_reward x expected score gain from rewards and centre tokens (score-aware: "
            "completing a Y-R-B set counts) - w_risk x expected score lost as the lowest card of "
            "a defeat - w_future x the card's value kept for the rest of the battle",
            (
                Param("samples", 8.0, 1.0, float(MAX_SAMPLES), "opponent plays sampled per decision", integer=True),
                Param("w_reward", 1.0, 0.0, 10.0, "weight of the expected score gained"),
                Param("w_risk", 1.0, 0.0, 10.0, "weight of the expected score lost on a defeat"),
                Param(
                    "w_future", 0.5, 0.0, 10.0,
                    "cost per pip above the hand's lowest card, times the share of the battle's "
                    "villains still to come",
                ),
            ),
        ),
    )
}

# Layout of the int64 scratch array the greedy chooser works in (allocated once per chunk).
OFF_PLACE = 0  # score gain of each reward place            [MAX_PLACES]
OFF_OPP = OFF_PLACE + MAX_PLACES  # sampled opponent cards          [MAX_PLAYERS]
# Per sample (up to MAX_SAMPLES): the opponents' values shown as a bitmask, those shown once,
# the sum and number of the counted ones, their per-value prefix counts (4-bit fields), the lowest.
OFF_S_SEEN = OFF_OPP + MAX_PLAYERS
OFF_S_UNCUT = OFF_S_SEEN + MAX_SAMPLES
OFF_S_SUM = OFF_S_UNCUT + MAX_SAMPLES
OFF_S_UP = OFF_S_SUM + MAX_SAMPLES
OFF_S_AT_MOST = OFF_S_UP + MAX_SAMPLES
OFF_S_MIN = OFF_S_AT_MOST + MAX_SAMPLES
# Gain of a beaten villain for a counted card with `ahead` counted cards before it in reward
# order, out of `counted`: entry counted * MAX_PLAYERS + ahead     [(MAX_PLAYERS + 1) * MAX_PLAYERS]
OFF_TABLE = OFF_S_MIN + MAX_SAMPLES
OFF_ZERO = OFF_TABLE + (MAX_PLAYERS + 1) * MAX_PLAYERS  # always 0          [1]
# Every seat's hand as an ascending card list (row q at OFF_HANDS + q * MAX_CARD)
OFF_HANDS = OFF_ZERO + 1  #                                     [MAX_PLAYERS * MAX_CARD]
OFF_CENTRE = OFF_HANDS + MAX_PLAYERS * MAX_CARD  # gain of taking k centre tokens  [3 * tokens_per_colour + 1]

_U0 = np.uint64(0)
_NIBBLE_ONES = np.uint64(0x1111111111111111)


def scratch_size(tokens_per_colour: int) -> int:
    return OFF_CENTRE + 3 * tokens_per_colour + 1


def _select_tables():
    """Per byte value b: SEL8[b, k] = position of its k-th lowest set bit; POP8[b] = its set
    bits; SUM8[b] = the total of its set bit positions."""
    sel = np.zeros((256, 8), np.int64)
    pop = np.zeros(256, np.int64)
    total = np.zeros(256, np.int64)
    for b in range(256):
        bits = [i for i in range(8) if b >> i & 1]
        pop[b] = len(bits)
        total[b] = sum(bits)
        sel[b, :len(bits)] = bits
    return sel, pop, total


_SEL8, _POP8, _SUM8 = _select_tables()  # 16 + 2 + 2 KB: frozen into the compiled code as constants


@jit_inline
def kth_card(mask, k):
    """The k-th lowest card (k from 0) of a hand held as a bitmask of card values.

    Hands are masks (bit v set: the card of value v is in the hand), so playing a card is one
    bit clear instead of shifting a sorted array. Values are <= MAX_CARD = 15: two bytes, and a
    byte table picks the bit without a loop whose length is the (random) k.
    """
    if mask < 256:  # values <= 7, as in every rulebook hand: one table read
        return _SEL8[mask, k]
    low = mask & 255
    in_low = _POP8[low]
    high = k >= in_low
    byte = (mask >> 8) if high else low
    return _SEL8[byte, k - in_low if high else k] + (8 if high else 0)


@jit_inline
def mask_sum(mask):
    """Total of the card values in a hand held as a bitmask (values <= MAX_CARD: two bytes)."""
    return _SUM8[mask & 255] + _SUM8[mask >> 8] + 8 * _POP8[mask >> 8]


@jit_inline
def lowest_card(mask):
    return trailing_zeros(mask)


@jit_inline
def highest_card(mask):
    return 63 - leading_zeros(mask)


@jit_inline
def choose_card(players, sid, prm, seat, hand_mask, tokens, reserve, centre, villain,
                strength, rewards, n_places, cfg, remaining_after, states, scratch, with_greedy):
    """The card value seat plays (from ``hand_mask[seat]``).

    players: the number of seats (== cfg[Cfg.PLAYERS]; a compile-time constant in the game
    loops that fix it, so greedy's loops over the seats unroll).
    hand_mask int64[P]: each seat's remaining hand as a bitmask of card values (see
    ``kth_card``; its size is the popcount);
    tokens int64[P, 3]; reserve, centre int64[3]; states uint64[1 + P];
    remaining_after: villains of this battle still to come after this one;
    prm float64[P, MAX_PARAMS] every seat's parameters (row ``seat`` is this one's).
    Strategies pick by index into the ascending hand, as the reference does.
    with_greedy: a compile-time constant of the caller; False leaves greedy's chooser out of
    the compiled loop (the caller then has no greedy seat).
    """
    if sid == StrategyId.RANDOM:
        return kth_card(hand_mask[seat], below(states, 1 + seat, popcount(hand_mask[seat])))
    if sid == StrategyId.LOWEST:
        return lowest_card(hand_mask[seat])
    if sid == StrategyId.HIGHEST:
        return highest_card(hand_mask[seat])
    if sid == StrategyId.THRESHOLD:
        return _threshold(prm, seat, hand_mask, strength[villain], cfg,
                          remaining_after)
    if with_greedy:
        return _greedy(players, prm, seat, hand_mask, tokens, reserve, centre, villain, strength,
                       rewards, n_places, cfg, remaining_after, states, scratch)
    return lowest_card(hand_mask[seat])  # not reached: no greedy seat without with_greedy


@jit_inline
def _threshold(prm, seat, hand_mask, strength, cfg, remaining_after):
    expected = 0.0
    for q in range(cfg[Cfg.PLAYERS]):
        if q != seat:
            expected += mask_sum(hand_mask[q]) / popcount(hand_mask[q])
    need = strength + prm[seat, 0] - expected
    n = popcount(hand_mask[seat])
    eligible = n
    if remaining_after > 0:
        eligible = max(1, n - int(prm[seat, 1]))
    m = hand_mask[seat]
    for i in range(eligible):  # the cards in ascending order
        card = trailing_zeros(m)
        if card >= need:
            return card
        m &= m - 1
    return lowest_card(hand_mask[seat])


@jit_inline
def _greedy(players, prm, seat, hand_mask, tokens, reserve, centre, villain, strength, rewards,
            n_places, cfg, remaining_after, states, scratch):
    bonus = cfg[Cfg.SET_BONUS]
    ties_cancel = cfg[Cfg.TIES_CANCEL] == 1
    lowest_first = cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST
    samples = int(prm[seat, 0])
    ty, tr, tb = tokens[seat, 0], tokens[seat, 1], tokens[seat, 2]
    now = score3(ty, tr, tb, bonus)
    s_needed = strength[villain]
    places = n_places[villain]

    # Gain of each place, taking the tokens the places before it took from the reserve first.
    ry, rr, rb = reserve[0], reserve[1], reserve[2]
    for k in range(places):
        gy = min(rewards[villain, k, 0], ry)
        gr = min(rewards[villain, k, 1], rr)
        gb = min(rewards[villain, k, 2], rb)
        scratch[OFF_PLACE + k] = score3(ty + gy, tr + gr, tb + gb, bonus) - now
        ry -= gy
        rr -= gr
        rb -= gb

    # Gain of taking k centre tokens by the auto-choice (ignoring the others' picks between).
    in_centre = centre[0] + centre[1] + centre[2]
    oy, or_, ob = ty, tr, tb
    cy, cr, cb = centre[0], centre[1], centre[2]
    scratch[OFF_CENTRE] = 0
    for k in range(1, in_centre + 1):
        c = centre_pick((oy, or_, ob), (cy, cr, cb), bonus)
        if c == 0:
            oy += 1
            cy -= 1
        elif c == 1:
            or_ += 1
            cr -= 1
        else:
            ob += 1
            cb -= 1
        scratch[OFF_CENTRE + k] = score3(oy, or_, ob, bonus) - now

    # Gain of a win by (counted cards, place among them), precomputed once per decision: the
    # sampling loop below then does one table read instead of a division and a modulo.
    for counted in range(1, players + 1):
        share_low = in_centre // counted  # centre tokens go round-robin in reward order
        extra = in_centre - share_low * counted  # the first `extra` places take one more
        for ahead in range(counted):
            gain = scratch[OFF_PLACE + ahead] if ahead < places else 0
            if in_centre > 0:
                gain += scratch[OFF_CENTRE + share_low + (1 if ahead < extra else 0)]
            scratch[OFF_TABLE + counted * MAX_PLAYERS + ahead] = gain

    lost = tokens_lost((ty, tr, tb), cfg[Cfg.LOSS_RULE], bonus)
    loss_value = now - score3(ty - lost[0], tr - lost[1], tb - lost[2], bonus)

    scratch[OFF_ZERO] = 0
    m = players - 1
    # The opponents' hands as card lists, so the sampling loop reads a drawn card with one
    # load instead of a kth_card lookup per draw (each list is read `samples` times).
    for q in range(players):
        rest = hand_mask[q]
        for i in range(popcount(hand_mask[q])):
            scratch[OFF_HANDS + q * MAX_CARD + i] = trailing_zeros(rest)
            rest &= rest - 1
    # 1) Draw every sample first (in seat order: the draw order is part of the results) and
    # keep what a card's outcome needs from it, one array slot per sample.
    state = states[1 + seat]  # this seat's stream, in a register for the sampling loop
    for k in range(samples):
        # Card values are bits of a mask: `seen` has the values shown, `dup` those shown twice.
        seen = 0
        dup = 0
        opp_min = 1 << 30
        j = 0
        for q in range(players):
            if q != seat:
                pick, state = below_from(state, popcount(hand_mask[q]))
                o = scratch[OFF_HANDS + q * MAX_CARD + pick]
                scratch[OFF_OPP + j] = o
                j += 1
                dup |= seen & (1 << o)
                seen |= 1 << o
                opp_min = min(opp_min, o)
        if not ties_cancel:
            seen = 0  # no card cancels
            dup = 0
        # Sum and number of the opponents' counted cards, and a count of them per value packed
        # in 4-bit fields (field v = how many show v; at most 4, so fields never carry).
        opp_sum = 0
        n_up = 0
        counts = _U0
        for j in range(m):
            o = scratch[OFF_OPP + j]
            keep = 1 - ((dup >> o) & 1)
            opp_sum += o * keep
            n_up += keep
            counts += np.uint64(keep) << np.uint64(4 * o)
        scratch[OFF_S_SEEN + k] = seen
        scratch[OFF_S_UNCUT + k] = seen & ~dup  # values shown by exactly one opponent
        scratch[OFF_S_SUM + k] = opp_sum
        scratch[OFF_S_UP + k] = n_up
        # Prefix sums of the fields with one multiply: field v = counted opponents showing
        # <= v. The top field is at most 4, so the value is a non-negative int64.
        scratch[OFF_S_AT_MOST + k] = np.int64(counts * _NIBBLE_ONES)
        scratch[OFF_S_MIN + k] = opp_min
    states[1 + seat] = state

    # 2) Score each card over the samples, without data-dependent branches (they mispredict
    # on random draws); sums stay in registers.
    vpb = cfg[Cfg.VILLAINS_PER_BATTLE]
    n = popcount(hand_mask[seat])
    rest = hand_mask[seat]
    low_card = lowest_card(rest)
    best = 0
    best_utility = 0.0
    for i in range(n):  # the cards in ascending order
        card = trailing_zeros(rest)
        rest &= rest - 1
        gain_sum = 0
        losses = 0  # samples where the card is the lowest of a defeat
        for k in range(samples):
            cut = (scratch[OFF_S_SEEN + k] >> card) & 1  # ties an opponent: does not count;
            # the opponent's card it ties stops counting too, unless already cancelled.
            total = (scratch[OFF_S_SUM + k] + card * (1 - cut)
                     - card * ((scratch[OFF_S_UNCUT + k] >> card) & 1))
            win = total >= s_needed
            n_up = scratch[OFF_S_UP + k]
            if lowest_first:  # counted opponents before us in reward order (card >= 1)
                ahead = (scratch[OFF_S_AT_MOST + k] >> (4 * card - 4)) & 15
            else:
                ahead = n_up - ((scratch[OFF_S_AT_MOST + k] >> (4 * card)) & 15)
            # Read the table unconditionally (a zero slot when nothing is gained): a
            # conditional read compiles to a branch that mispredicts.
            slot = OFF_TABLE + (n_up + 1) * MAX_PLAYERS + ahead
            gain_sum += scratch[slot if win & (cut == 0) else OFF_ZERO]
            losses += (not win) & (card <= scratch[OFF_S_MIN + k])
        # Same float operations in the same order as the reference (bit-identical choices).
        risk = losses * loss_value
        utility = (prm[seat, 1] * gain_sum / samples
                   - prm[seat, 2] * risk / samples
                   - prm[seat, 3] * (card - low_card) * remaining_after / vpb)
        if i == 0 or utility > best_utility:
            best = card
            best_utility = utility
    return best
