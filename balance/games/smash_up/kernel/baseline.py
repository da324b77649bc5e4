"""The baseline's vocabulary in the kernel: HIT, HELP, PLACE and the minion-play choice
(reference/baseline.py function by function). Candidate lists are int64 arrays of card ids
(or slots) with a count; results are indices into them, -1 for none."""
import numpy as np

from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from .board import V, enter_play, gap, power, remove, vp_now, insert, push
from .layout import C_CTRL, C_DEF, C_ENTERED, C_SLOT, C_ZONE, L_SMIN, MAX_SLOTS, P_MINIONS_PLAYED, T_PLAYERS
from .names import N_MICROBOT_FIXER, N_MICROBOT_RECLAIMER, N_WAR_RAPTOR
from .tables import D_NAME, D_POWER


@jit
def outranked(st, p, s):
    """Some opponent would take more VP than ``p`` from slot ``s`` now."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    now = stack_empty(4)
    vp_now(st, s, now)
    best = 0
    for q in range(tv[T_PLAYERS]):
        if q != p and now[q] > best:
            best = now[q]
    return best > now[p]


@jit
def hit(st, p, cand, n, mandatory):
    """HIT over minions ``cand[:n]``: another player's minion on a base where an opponent
    outranks ``p`` (smallest gap, then highest power), else the highest-power one anywhere;
    for a mandatory step with only ``p``'s minions, the lowest-power one [D9]; else -1."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    best, hot_best = -1, -1
    bk = (0, 0, 0, 0)
    hk = (0, 0, 0, 0)
    for i in range(n):
        m = cand[i]
        if cs[m, C_CTRL] == p:
            continue
        s = cs[m, C_SLOT]
        g, pw = gap(st, s), power(st, m)
        if outranked(st, p, s):
            k = (g, -pw, s, cs[m, C_ENTERED])
            if hot_best < 0 or k < hk:
                hot_best, hk = i, k
        k2 = (-pw, g, s, cs[m, C_ENTERED])
        if best < 0 or k2 < bk:
            best, bk = i, k2
    if hot_best >= 0:
        return hot_best
    if best >= 0:
        return best
    if mandatory and n > 0:
        own = 0
        ok = (0, 0, 0)
        for i in range(n):
            m = cand[i]
            k3 = (power(st, m), cs[m, C_SLOT], cs[m, C_ENTERED])
            if i == 0 or k3 < ok:
                own, ok = i, k3
        return own
    return -1


@jit
def help_(st, p, cand, n):
    """HELP over minions ``cand[:n]``: ``p``'s minion on the smallest-gap base, highest power."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    best = -1
    bk = (0, 0, 0, 0)
    for i in range(n):
        m = cand[i]
        if cs[m, C_CTRL] != p:
            continue
        s = cs[m, C_SLOT]
        k = (gap(st, s), -power(st, m), s, cs[m, C_ENTERED])
        if best < 0 or k < bk:
            best, bk = i, k
    return best


@jit
def v_with_card(st, p, c, s):
    """V for ``p`` with minion card ``c`` (not in play) added to slot ``s`` (``_v_with``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    zone, ctrl, slot = cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT]
    enter_play(st, p, c, s, 1 << 30)
    v = V(st, p)
    ln[L_SMIN + s] -= 1
    cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT] = zone, ctrl, slot
    return v


@jit
def v_with_minion(st, p, m, s):
    """V for ``p`` with minion ``m`` (in play) moved to slot ``s``, then put back in place."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    old = cs[m, C_SLOT]
    i = remove(lst, ln, L_SMIN + old, m)
    push(lst, ln, L_SMIN + s, m)
    cs[m, C_SLOT] = s
    v = V(st, p)
    ln[L_SMIN + s] -= 1
    insert(lst, ln, L_SMIN + old, i, m)
    cs[m, C_SLOT] = old
    return v


@jit
def place(st, p, x, in_play, slots, n):
    """PLACE: the index in ``slots[:n]`` with the highest V once ``x`` (a card, or a minion in
    play when ``in_play``) arrives; ties: (a War Raptor: more of your War Raptors there,)
    smaller gap, lower slot; -1 when n == 0."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    raptor = defs[cs[x, C_DEF], D_NAME] == N_WAR_RAPTOR
    best = -1
    bk = (0, 0, 0, 0)
    for i in range(n):
        s = slots[i]
        v = v_with_minion(st, p, x, s) if in_play else v_with_card(st, p, x, s)
        r = 0
        if raptor:  # §3.4 Default: ties -> the base with more of your War Raptors
            for j in range(ln[L_SMIN + s]):
                m = lst[L_SMIN + s, j]
                if cs[m, C_CTRL] == p and defs[cs[m, C_DEF], D_NAME] == N_WAR_RAPTOR:
                    r += 1
        k = (v, r, -gap(st, s), -s)
        if best < 0 or k > bk:
            best, bk = i, k
    return best


@jit
def greedy_minion(st, p, lo, hi):
    """``greedy_minion`` over minion moves ``opt[lo:hi]`` (kind, card, slot): the card first
    (Fixer or Reclaimer as the first minion of the turn, else the highest printed power; ties:
    hand, discard, Tenacious Z, then option order), then its base by PLACE."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    first = ps[p, P_MINIONS_PLAYED] == 0
    best = -1
    bk = (0, 0, 0)
    for i in range(lo, hi):
        c = opt[i, 1]
        nm = defs[cs[c, C_DEF], D_NAME]
        bonus = first and (nm == N_MICROBOT_FIXER or nm == N_MICROBOT_RECLAIMER)
        k = (0 if bonus else 1, -defs[cs[c, C_DEF], D_POWER], opt[i, 0])
        if best < 0 or k < bk:
            best, bk = i, k
    kind, c = opt[best, 0], opt[best, 1]
    a = best  # the card's options are contiguous: one card, each legal slot in order
    while a > lo and opt[a - 1, 0] == kind and opt[a - 1, 1] == c:
        a -= 1
    b = best
    while b + 1 < hi and opt[b + 1, 0] == kind and opt[b + 1, 1] == c:
        b += 1
    slots = stack_empty(MAX_SLOTS)  # one card's legal slots
    for i in range(a, b + 1):
        slots[i - a] = opt[i, 2]
    return a + place(st, p, c, False, slots, b + 1 - a)
