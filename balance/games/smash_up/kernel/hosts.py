"""The baseline's host for a play-on action, by the rule its data names (``host = "HELP"`` in
data/effects, ``tables.D_HOST``, opcodes ``HOST_*``): the Default lines of smash-up-cards.md,
each a function of the reference (reference/cards/*.py ``HOST``) in the order given there.

``hosts[:k]`` are the legal hosts: minions (board order) for a card played on a minion, the
slots 0..k-1 for one played on a base. Every rule returns an index into ``hosts``."""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from .layout import unpack
from .baseline import best_printed, help_, help_w, hit, lead, place
from .board import active, destroyable, gap, is_minion_card, minion_allowed, places, power
from .layout import C_CTRL, C_SLOT, CAP, L_DISC, L_HAND, L_SACT, L_SMIN, S_BASE, SCRATCH, T_NSLOTS, T_PLAYERS
from .opcodes import (
    HOST_BEHIND_GAP, HOST_HELP, HOST_HELP_W, HOST_HIT_M, HOST_HIT_UNSCORED, HOST_LEAD_GAP, HOST_LEAD_MOST,
    HOST_MOST_MY_POWER, HOST_MOST_THEIR_POWER, HOST_OPP_ABILITY_GAP, HOST_PLACE_FROM_DISCARD_HAND,
    HOST_PLACE_FROM_HAND, HOST_THEIR_ACTION, VP_PER_MINION, VP_WINNERS_POWER_DIV,
)
from .tables import BS_MINION_POWER, BS_VP_ARG, BS_VP_RULE


@jit
def host_rule(st, p, rule, hosts, k):
    """Player ``p``'s host among ``hosts[:k]`` by ``rule`` (opcodes HOST_*): an index."""
    if rule == HOST_HELP:
        i = help_(st, p, hosts, k)
        return 0 if i < 0 else i
    elif rule == HOST_HELP_W:
        return help_w(st, p, hosts, k)
    elif rule == HOST_HIT_M:
        return hit(st, p, hosts, k, True)
    elif rule == HOST_HIT_UNSCORED:
        i = hit_unscored(st, p, hosts, k)
        return i if i >= 0 else hit(st, p, hosts, k, True)
    elif rule == HOST_LEAD_GAP:
        return where_gap(st, p, hosts, k, 1)
    elif rule == HOST_BEHIND_GAP:
        return where_gap(st, p, hosts, k, -1)
    elif rule == HOST_OPP_ABILITY_GAP:
        return where_gap(st, p, hosts, k, 0)
    elif rule == HOST_LEAD_MOST:
        return lead_most(st, p, hosts, k)
    elif rule == HOST_MOST_MY_POWER:
        return most_my_power(st, p, hosts, k)
    elif rule == HOST_MOST_THEIR_POWER:
        return most_their_power(st, p, hosts, k)
    elif rule == HOST_PLACE_FROM_HAND:
        return place_best(st, p, hosts, k, False)
    elif rule == HOST_PLACE_FROM_DISCARD_HAND:
        return place_best(st, p, hosts, k, True)
    elif rule == HOST_THEIR_ACTION:
        s = their_action_base(st, p)
        return 0 if s < 0 else s
    return 0


# ---- minions -------------------------------------------------------------------------------------
@jit
def hit_unscored(st, p, hosts, k):
    """HIT among the destroyable minions of ``hosts[:k]`` on bases short of their breakpoint
    (gap > 0: one that scores first takes the minion anyway), or -1 (Assassin)."""
    cs = st.cs
    idx = stack_empty(SCRATCH)
    sub = stack_empty(SCRATCH)
    n = 0
    for i in range(k):
        m = hosts[i]
        if gap(st, cs[m, C_SLOT]) > 0 and destroyable(st, m, p, True):
            idx[n], sub[n] = i, m
            n += 1
    i = hit(st, p, sub, n, False)
    return -1 if i < 0 else idx[i]


# ---- bases: a filter, then the smallest gap ------------------------------------------------------
@jit
def where_gap(st, p, hosts, k, sign):
    """The smallest gap (ties: the first) among the bases where ``p`` leads (``sign`` 1), is
    behind (-1), or whose active ability favours an opponent (0); among all if there is none."""
    best, bk = -1, 0
    for i in range(k):
        s = hosts[i]
        if sign == 0:
            ok = active(st, s) and favours_opponent(st, p, s)
        else:
            ok = lead(st, p, s) * sign > 0
        if ok:
            g = gap(st, s)
            if best < 0 or g < bk:
                best, bk = i, g
    return best if best >= 0 else smallest_gap(st, hosts, k)


@jit
def smallest_gap(st, hosts, k):
    """The index of the smallest-gap base of ``hosts[:k]`` (ties: the first)."""
    best, bk = 0, 0
    for i in range(k):
        g = gap(st, hosts[i])
        if i == 0 or g < bk:
            best, bk = i, g
    return best


@jit
def favours_opponent(st, p, s):
    """Would slot ``s``'s base ability help some opponent more than ``p`` (§2.10 Default)?
    A base giving power or VP per minion (The Central Brain, Rhodes Plaza Mall) by minion
    count, one giving its winners VP by power (Factory 436-1337) by the VP its winners' power
    would give; other bases: no."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    b = ss[s, S_BASE]
    if bases[b, BS_MINION_POWER] > 0 or bases[b, BS_VP_RULE] == VP_PER_MINION:
        count = stack_zeros(4)
        for i in range(ln[L_SMIN + s]):
            count[cs[lst[L_SMIN + s, i], C_CTRL]] += 1
        for q in range(n):
            if q != p and count[q] > count[p]:
                return True
        return False
    if bases[b, BS_VP_RULE] == VP_WINNERS_POWER_DIV:
        pw = stack_empty(4)
        pl = stack_empty(4)
        places(st, s, pw, pl)
        bonus = stack_zeros(4)
        for q in range(n):
            if pl[q] == 0:
                bonus[q] = pw[q] // bases[b, BS_VP_ARG]
        for q in range(n):
            if q != p and bonus[q] > bonus[p]:
                return True
        return False
    return False


# ---- bases: the most of something ----------------------------------------------------------------
@jit
def lead_most(st, p, hosts, k):
    """The base where ``p`` leads by most (ties: the first)."""
    best, bv = 0, 0
    for i in range(k):
        v = lead(st, p, hosts[i])
        if i == 0 or v > bv:
            best, bv = i, v
    return best


@jit
def most_my_power(st, p, hosts, k):
    """The base with most of ``p``'s power; ties: the smaller gap, then the first."""
    best, bk = 0, (0, 0)
    for i in range(k):
        key = (side_power(st, p, hosts[i], True), -gap(st, hosts[i]))
        if i == 0 or key > bk:
            best, bk = i, key
    return best


@jit
def most_their_power(st, p, hosts, k):
    """The base with most power of the other players together (ties: the first)."""
    best, bv = 0, 0
    for i in range(k):
        v = side_power(st, p, hosts[i], False)
        if i == 0 or v > bv:
            best, bv = i, v
    return best


@jit
def side_power(st, p, s, mine):
    """The power on slot ``s`` of ``p``'s minions (``mine``) or of everyone else's."""
    cs, lst, ln = st.cs, st.lst, st.ln
    v = 0
    for j in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, j]
        if (cs[m, C_CTRL] == p) == mine:
            v += power(st, m)
    return v


@jit
def place_best(st, p, hosts, k, discard_first):
    """Where PLACE would play ``p``'s highest-printed minion card (from the discard pile first
    when ``discard_first``, then from hand) among the bases it may go to; else the smallest
    gap (Enshrouding Mist, They're Coming To Get You)."""
    lst, ln = st.lst, st.ln
    cards = stack_empty(CAP)
    legal = stack_empty(SCRATCH)
    idx = stack_empty(SCRATCH)
    for pile in range(2):
        if pile == 0 and not discard_first:
            continue
        li = L_DISC + p if pile == 0 else L_HAND + p
        n = 0
        for i in range(ln[li]):
            x = lst[li, i]
            if is_minion_card(st, x):
                cards[n] = x
                n += 1
        if n > 0:
            card = cards[best_printed(st, cards, n)]
            nl = 0
            for i in range(k):
                if minion_allowed(st, p, card, hosts[i]):
                    legal[nl], idx[nl] = hosts[i], i
                    nl += 1
            if nl > 0:
                return idx[place(st, p, card, False, legal, nl)]
    return smallest_gap(st, hosts, k)


@jit
def their_action_base(st, p):
    """The first slot carrying another player's action (Infiltrate), else -1."""
    cs, lst, ln, tv = st.cs, st.lst, st.ln, st.tv
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SACT + s]):
            if cs[lst[L_SACT + s, i], C_CTRL] != p:
                return s
    return -1
