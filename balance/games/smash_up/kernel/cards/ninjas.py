"""Ninjas in the kernel (reference/cards/ninjas.py function by function): the cards that are not
data (Ninja Master, Tiger Assassin, Seeing Stars and Way of Deception are programs in
data/effects/ninjas.toml, run by ``kernel.effects``, as are what Poison and Infiltrate do on
attaching, Assassin's end-of-turn destruction and every play-on action's host).

The helpers above the cards (``vp_with_card``, ``hand_minions``; ``baseline.vp_of`` and
``vp_with_move``) are shared with pirates.py, as in the reference. Option lists live in local
arrays, never in ``opt``: ``want``/``special_want`` are called while the caller walks its own
``opt`` rows.

The before-scoring Specials of Shinobi and Hidden Ninja are data too (``window``, ``special``;
``kernel.window`` lists them), as is Ninja Acolyte's talent (``usable``, ``talent``); whether
the baseline uses one stays here (``special_want``, ``acolyte_want``).
"""

from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from ..layout import unpack
from ..baseline import SLOT_POWERS, best_printed, hit, place, read_slots, v_slot_edited, vp_of
from ..board import (
    CNT_N, as_if, affectable, card_power, counted_power, discard_attached, enter_play,
    is_minion_card, minion_allowed, pick, powers_term, printed, remove, return_to_hand, slot_bonus,
)
from ..hosts import hit_unscored, their_action_base
from ..layout import (
    C_CTRL, C_DEF, C_ENTERED, C_HOST, C_SLOT, C_TALENT, C_ZONE, CAP, DONE, F_C, F_I,
    F_P, F_Y, F_Z, GREEDY, H_ACTION, H_TALENT, L_HAND, L_SMIN, MAX_PLAYERS, MAX_SLOTS,
    S_CANCEL, T_MICROBOTS, T_NSLOTS, Z_HAND, Z_MINION,
)
from ..names import (
    N_ASSASSIN, N_DISGUISE, N_HIDDEN_NINJA, N_INFILTRATE, N_NINJA_ACOLYTE, N_POISON, N_SHINOBI, N_SMOKE_BOMB,
)
from ..choosers import action_targets
from ..effects import usable
from ..stack import play_minion_now
from ..tables import D_NAME, D_PER_NAME

MAX_MOVES = CAP * 16


# ---- the board "as if" (restored exactly) ------------------------------------------------------


@jit
def vp_with_card(st, p, c, s):
    """``vp_if(g, p, slot, add=[(c, slot)])``: p's vp_now at ``s`` with card ``c`` added there."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    zone, ctrl, slot, ent, h = cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT], cs[c, C_ENTERED], cs[c, C_HOST]
    as_if(st, 1)
    enter_play(st, p, c, s, 1 << 30)
    v = vp_of(st, s, p)
    ln[L_SMIN + s] -= 1
    cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT], cs[c, C_ENTERED], cs[c, C_HOST] = zone, ctrl, slot, ent, h
    as_if(st, -1)
    return v




@jit
def hand_minions(st, p, s, out):
    """Minion cards in ``p``'s hand that may be played on slot ``s``, hand order; the count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c) and minion_allowed(st, p, c, s):
            out[k] = c
            k += 1
    return k


# ---- the resumable part of the cards -------------------------------------------------------------
@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_TALENT:
        if name == N_INFILTRATE:
            s = cs[c, C_SLOT]
            discard_attached(st, c)
            ss[s, S_CANCEL] |= 1 << p  # for everyone, until the start of p's next turn
    elif hook == H_ACTION:
        if name == N_DISGUISE:
            return disguise(st, d, p, step)
    return DONE


# ---- minions ---------------------------------------------------------------------------------------


@jit
def acolyte_want(st, p, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    big = stack_empty(CAP)
    k = 0
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c) and printed(st, c) >= 3:
            big[k] = c
            k += 1
    if k == 0:
        return False
    card = big[best_printed(st, big, k)]
    slots = stack_empty(16)
    n = 0
    for t in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + t]):
            a = lst[L_SMIN + t, i]
            if cs[a, C_CTRL] != p or defs[cs[a, C_DEF], D_NAME] != N_NINJA_ACOLYTE or cs[a, C_TALENT] != 0:
                continue
            if usable(st, p, a) == 1 and minion_allowed(st, p, card, t):  # its data test
                seen = False
                for j in range(n):
                    if slots[j] == t:
                        seen = True
                if not seen:
                    slots[n] = t
                    n += 1
    if n == 0:
        return False
    return slots[place(st, p, card, False, slots, n)] == cs[x, C_SLOT]


# ---- actions -----------------------------------------------------------------------------------
@jit
def disguise_options(st, c, os_, oa, ob):
    """(base, chosen minion(s)) options: per base its singles in arrival order, then its pairs
    (``ob`` -1 for a single); only as many as the hand can replace there [D24]."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cards = stack_empty(CAP)
    mine = stack_empty(CAP)
    n = 0
    for s in range(tv[T_NSLOTS]):
        k = min(2, hand_minions(st, c, s, cards))
        km = 0
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if cs[m, C_CTRL] == c and affectable(st, m, c, True):
                mine[km] = m
                km += 1
        if k >= 1:
            for i in range(km):
                os_[n], oa[n], ob[n] = s, mine[i], -1
                n += 1
        if k >= 2:
            for i in range(km):
                for j in range(i + 1, km):
                    os_[n], oa[n], ob[n] = s, mine[i], mine[j]
                    n += 1
    return n


@jit
def best_hand_minions(st, c, s, added):
    """Up to two minion cards of ``c``'s hand that may be played on slot ``s``, the highest
    printed power first (ties: hand order; the stable sort by power Disguise's default plays
    them in) into ``added``; how many."""
    cards = stack_empty(CAP)
    k = hand_minions(st, c, s, cards)
    na = 0
    while na < 2 and k > 0:
        j = best_printed(st, cards, k)
        added[na] = cards[j]
        na += 1
        for i in range(j, k - 1):
            cards[i] = cards[i + 1]
        k -= 1
    return na


@jit
def disguise_value(st, c, s, a, b, added, na, cnt, terms, pws, totals, before):
    """V for ``c`` with the chosen minion(s) ``a`` (and ``b``, -1: none) gone from ``s`` and the
    hand minions ``added[:na]`` there, from ``read_slots``' reading of the board as it is
    (``cnt``, ``terms``, ``pws``, ``totals``, V ``before``; by ``disguise_default``).

    When no card the edit moves changes another minion's power (no Microbot Alpha or Fixer in
    the game, none of them counting its name) slot ``s``'s powers lose the chosen minions' and
    gain the new cards' as they would enter (``board.card_power``), as PLACE values a card
    (``baseline.v_added_alone``); otherwise the board is edited "as if" and ``s``'s term read."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    alone = tv[T_MICROBOTS] == 0 and na > 0 and defs[cs[a, C_DEF], D_PER_NAME] == 0 \
        and (b < 0 or defs[cs[b, C_DEF], D_PER_NAME] == 0)
    for i in range(na):
        alone = alone and defs[cs[added[i], C_DEF], D_PER_NAME] == 0
    if alone:  # c keeps a place: a new card arrives
        raptors, base_power = slot_bonus(st, s)
        pw = stack_empty(MAX_PLAYERS)
        for q in range(MAX_PLAYERS):
            pw[q] = pws[s * MAX_PLAYERS + q]
        total = totals[s]
        for m in (a, b):
            if m >= 0:
                x = counted_power(st, m, cnt, raptors, base_power)
                pw[c] -= x
                total -= x
        for i in range(na):
            x = card_power(st, cs[added[i], C_DEF], c, cnt, base_power, 0)
            pw[c] += x
            total += x
        return before - terms[s] + powers_term(st, c, s, pw, total)
    saved = stack_empty(CAP)
    n0 = ln[L_SMIN + s]
    for i in range(n0):
        saved[i] = lst[L_SMIN + s, i]
    as_if(st, 1)
    remove(lst, ln, L_SMIN + s, a)
    if b >= 0:
        remove(lst, ln, L_SMIN + s, b)
    keep = stack_empty((2, 5))
    for i in range(na):
        x = added[i]
        keep[i, 0], keep[i, 1], keep[i, 2] = cs[x, C_ZONE], cs[x, C_CTRL], cs[x, C_SLOT]
        keep[i, 3], keep[i, 4] = cs[x, C_ENTERED], cs[x, C_HOST]
        enter_play(st, c, x, s, 1 << 30)
    v = v_slot_edited(st, c, s, cnt, terms, before)
    for i in range(n0):
        lst[L_SMIN + s, i] = saved[i]
    ln[L_SMIN + s] = n0
    for i in range(na):
        x = added[i]
        cs[x, C_ZONE], cs[x, C_CTRL], cs[x, C_SLOT] = keep[i, 0], keep[i, 1], keep[i, 2]
        cs[x, C_ENTERED], cs[x, C_HOST] = keep[i, 3], keep[i, 4]
    as_if(st, -1)
    return v


@jit
def disguise_default(st, c, os_, oa, ob, n):
    """(The option of highest value, that value, V now); ties: the lower total power chosen,
    then the first. The options of one base are consecutive (``disguise_options``), so each
    base's hand minions are found once."""
    cnt = stack_empty(CNT_N)
    terms = stack_empty(MAX_SLOTS)
    totals = stack_empty(MAX_SLOTS)
    pws = stack_empty(SLOT_POWERS)
    before = read_slots(st, c, cnt, terms, pws, totals)
    added = stack_empty(2)
    na, at = 0, -1
    raptors, base_power = 0, 0
    best = 0
    bk = (0, 0)
    for i in range(n):
        s = os_[i]
        if s != at:
            at = s
            na = best_hand_minions(st, c, s, added)
            raptors, base_power = slot_bonus(st, s)
        tot = counted_power(st, oa[i], cnt, raptors, base_power)  # ``power``: the chosen are on s
        if ob[i] >= 0:
            tot += counted_power(st, ob[i], cnt, raptors, base_power)
        v = disguise_value(st, c, s, oa[i], ob[i], added, min(na, 1 if ob[i] < 0 else 2), cnt, terms, pws,
                           totals, before)
        k = (v, -tot)
        if i == 0 or k > bk:
            best, bk = i, k
    return best, bk[0], before


@jit
def disguise(st, d, c, step):
    """Step 0: the option; step 1: each new minion (a play at once), then the return [D24]."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if step == 0:
        os_ = stack_empty(MAX_MOVES)
        oa = stack_empty(MAX_MOVES)
        ob = stack_empty(MAX_MOVES)
        n = disguise_options(st, c, os_, oa, ob)
        if n == 0:
            return DONE
        default = disguise_default(st, c, os_, oa, ob, n)[0] if strat[c] == GREEDY else 0
        i = pick(st, c, n, default)
        fs[d, F_Y] = os_[i]
        fs[d, F_Z] = 1 if ob[i] < 0 else 2
        fs[d, F_I] = 0
        sc[d, 0], sc[d, 1] = oa[i], ob[i]
        sc[d, 2] = cs[oa[i], C_ENTERED]
        sc[d, 3] = cs[ob[i], C_ENTERED] if ob[i] >= 0 else -1
    s = fs[d, F_Y]
    if fs[d, F_I] < fs[d, F_Z]:
        cards = stack_empty(CAP)
        k = hand_minions(st, c, s, cards)
        if k > 0:
            fs[d, F_I] += 1
            i = pick(st, c, k, best_printed(st, cards, k))
            play_minion_now(st, c, cards[i], s, Z_HAND)
            return 1
    for j in range(fs[d, F_Z]):
        m = sc[d, j]
        if cs[m, C_ZONE] == Z_MINION and cs[m, C_ENTERED] == sc[d, 2 + j]:  # still in play
            return_to_hand(st, m)
    return DONE


@jit
def disguise_want(st, p):
    os_ = stack_empty(MAX_MOVES)
    oa = stack_empty(MAX_MOVES)
    ob = stack_empty(MAX_MOVES)
    n = disguise_options(st, p, os_, oa, ob)
    if n == 0:
        return False
    _, value, now = disguise_default(st, p, os_, oa, ob, n)
    return value > now


# ---- the hooks -----------------------------------------------------------------------------------
@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_ASSASSIN:
        hosts = stack_empty(CAP)
        k = action_targets(st, p, hosts)
        return hit_unscored(st, p, hosts, k) >= 0
    elif name == N_DISGUISE:
        return disguise_want(st, p)
    elif name == N_INFILTRATE:
        return their_action_base(st, p) >= 0
    elif name == N_POISON:
        hosts = stack_empty(CAP)
        k = action_targets(st, p, hosts)
        return hit(st, p, hosts, k, False) >= 0
    elif name == N_SMOKE_BOMB:
        hosts = stack_empty(CAP)
        k = action_targets(st, p, hosts)
        for i in range(k):
            if cs[hosts[i], C_CTRL] == p:
                return True
        return False
    return False  # Hidden Ninja [D25]: never an ordinary play


@jit
def talent_usable(st, p, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return defs[cs[x, C_DEF], D_NAME] == N_INFILTRATE


@jit
def talent_want(st, p, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if defs[cs[x, C_DEF], D_NAME] == N_NINJA_ACOLYTE:
        return acolyte_want(st, p, x)
    return False


@jit
def special_want(st, q, s, a):
    """Use Shinobi (card ``a`` in hand) when it raises ``q``'s vp_now at the scoring base ``s``;
    Hidden Ninja when the highest-printed minion it would play there does."""
    name = st.defs[st.cs[a, C_DEF], D_NAME]
    if name == N_SHINOBI:
        return vp_with_card(st, q, a, s) > vp_of(st, s, q)
    if name == N_HIDDEN_NINJA:
        cards = stack_empty(CAP)
        k = hand_minions(st, q, s, cards)
        return k > 0 and vp_with_card(st, q, cards[best_printed(st, cards, k)], s) > vp_of(st, s, q)
    return False
