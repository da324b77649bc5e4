"""Base abilities in the kernel that are code (reference/bases.py class by class, §11): The
Grey Opal, School of Wizardry, Tortuga and Mushroom Kingdom here, Tar Pits in ``triggers``.
The others are data (data/effects/bases.toml): programs run by ``turn.score_base`` (after
scoring), ``vm.base_after_played`` (The Homeworld) and ``triggers.leaf`` (Cave of
Shinies); ``scoring_vp`` here reads the scoring-VP rule (Factory 436-1337, Rhodes Plaza Mall)
and ``board.slot_bonus`` the static power (The Central Brain)."""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from .layout import unpack
from .baseline import outranked, place, v_with_minion
from .board import (
    as_if, V, active, can_move, gap, move, pick, power, remove, insert, vp_now,
)
from .layout import (
    C_CTRL, C_ENTERED, C_SLOT, CAP, L_BDECK, L_HAND, L_SMIN, S_BASE, T_CURRENT, T_NSLOTS, T_PLAYERS,
)
from .names import B_MUSHROOM_KINGDOM, B_SCHOOL_OF_WIZARDRY, B_THE_GREY_OPAL, B_TORTUGA
from .opcodes import VP_PER_MINION, VP_WINNERS_POWER_DIV
from .tables import BS_BREAK, BS_NAME, BS_VP0, BS_VP_ARG, BS_VP_RULE

R_BASES_2012 = 11


@jit
def scoring_vp(st, s, place_, gained):
    """"When this base scores" VP, the base's ``scoring_vp`` data (opcodes.VP_*: Factory
    436-1337, Rhodes Plaza Mall)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    rule, n = bases[ss[s, S_BASE], BS_VP_RULE], bases[ss[s, S_BASE], BS_VP_ARG]
    if rule == VP_WINNERS_POWER_DIV:
        for p in range(tv[T_PLAYERS]):
            if place_[p] == 0:
                t = 0
                for i in range(ln[L_SMIN + s]):
                    m = lst[L_SMIN + s, i]
                    if cs[m, C_CTRL] == p:
                        t += power(st, m)
                gained[p] += t // n
    elif rule == VP_PER_MINION:
        for i in range(ln[L_SMIN + s]):
            gained[cs[lst[L_SMIN + s, i], C_CTRL]] += n


@jit
def mine_on(st, p, s, out):
    """``p``'s minions on slot ``s`` (arrival order) into ``out``; returns how many."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        if cs[m, C_CTRL] == p:
            out[k] = m
            k += 1
    return k


@jit
def after_scoring(st, s, winners, nw, runners, nr):
    """The base's own after-scoring ability; returns the replacement base School of Wizardry
    picked, or -1 (``base_after_scoring``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    b = bases[ss[s, S_BASE], BS_NAME]
    n = tv[T_PLAYERS]
    cur = tv[T_CURRENT]
    buf = stack_empty(CAP)
    buf2 = stack_empty(CAP)
    if b == B_THE_GREY_OPAL:
        for o in range(n):
            p = (cur + o) % n
            skip = False
            for w in range(nw):
                if winners[w] == p:
                    skip = True
            if skip:
                continue
            k = mine_on(st, p, s, buf)
            no = 0  # options (minion, slot) in opt rows
            for i in range(k):
                for t in range(tv[T_NSLOTS]):
                    if t != s and can_move(st, p, buf[i], t):
                        opt[no, 0], opt[no, 1] = buf[i], t
                        no += 1
            if no == 0:
                continue
            best = buf[0]
            for i in range(1, k):  # highest power; ties: the earliest to enter play
                m = buf[i]
                if (power(st, m), -cs[m, C_ENTERED]) > (power(st, best), -cs[best, C_ENTERED]):
                    best = m
            nd = 0
            for i in range(no):
                if opt[i, 0] == best:
                    buf2[nd] = opt[i, 1]
                    nd += 1
            default = no
            if nd > 0:
                dest = buf2[place(st, p, best, True, buf2, nd)]
                for i in range(no):
                    if opt[i, 0] == best and opt[i, 1] == dest:
                        default = i
            i = pick(st, p, no + 1, default)
            if i < no:
                move(st, opt[i, 0], opt[i, 1])
    elif b == B_SCHOOL_OF_WIZARDRY:
        if nw == 0 or ln[L_BDECK] == 0:
            return -1
        p = winners[0]
        k = min(3, ln[L_BDECK])
        for i in range(k):
            buf[i] = lst[L_BDECK, ln[L_BDECK] - 1 - i]  # the top first
        ln[L_BDECK] -= k
        best = 0
        for i in range(1, k):
            bi, bb = buf[i], buf[best]
            if (bases[bi, BS_VP0], -bases[bi, BS_BREAK]) > (bases[bb, BS_VP0], -bases[bb, BS_BREAK]):
                best = i
        j = pick(st, p, k, best)
        for i in range(k - 1, -1, -1):  # the others back, the first seen on top
            if i != j:
                lst[L_BDECK, ln[L_BDECK]] = buf[i]
                ln[L_BDECK] += 1
        return buf[j]
    _ = runners, nr
    return -1


@jit
def vp_without(st, p, m):
    """``p``'s vp_now at ``m``'s base if ``m`` were gone."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    s = cs[m, C_SLOT]
    now = stack_empty(4)
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + s, m)
    vp_now(st, s, now)
    insert(lst, ln, L_SMIN + s, i, m)
    as_if(st, -1)
    return now[p]


@jit
def after_replaced(st, old_base, new, runners, nr):
    """Tortuga: each runner-up may move one of its minions elsewhere to the replacement."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if bases[old_base, BS_NAME] != B_TORTUGA:
        return
    buf = stack_empty(CAP)
    now = stack_empty(4)
    for r in range(nr):
        p = runners[r]
        k = 0
        for t in range(tv[T_NSLOTS]):
            for i in range(ln[L_SMIN + t]):
                m = lst[L_SMIN + t, i]
                if cs[m, C_CTRL] == p and t != new and can_move(st, p, m, new):
                    buf[k] = m
                    k += 1
        if k == 0:
            continue
        default, bp = k, -1
        for i in range(k):
            m = buf[i]
            vp_now(st, cs[m, C_SLOT], now)
            if vp_without(st, p, m) == now[p] and power(st, m) > bp:
                default, bp = i, power(st, m)
        i = pick(st, p, k + 1, default)
        if i < k:
            move(st, buf[i], new)


@jit
def start_of_turn_bases(st, p):
    """Mushroom Kingdom (§11.12), current or 2012 [D5]."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for s in range(tv[T_NSLOTS]):
        if bases[ss[s, S_BASE], BS_NAME] == B_MUSHROOM_KINGDOM and active(st, s):
            mushroom(st, s, p)


@jit
def mushroom(st, s, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    no = 0
    default = 0
    if rs[R_BASES_2012] == 0:
        for q in range(n):  # strictly more cards than every other player [D32]
            if q != p and ln[L_HAND + p] <= ln[L_HAND + q]:
                return
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            for t in range(tv[T_NSLOTS]):
                if t != s and can_move(st, p, m, t):
                    opt[no, 0], opt[no, 1] = m, t
                    no += 1
        for t in range(tv[T_NSLOTS]):
            if t != s:
                for i in range(ln[L_SMIN + t]):
                    m = lst[L_SMIN + t, i]
                    if can_move(st, p, m, s):
                        opt[no, 0], opt[no, 1] = m, s
                        no += 1
        default = no
        if outranked(st, p, s):
            target, tp, te = -1, -1, 0
            for i in range(ln[L_SMIN + s]):
                m = lst[L_SMIN + s, i]
                if cs[m, C_CTRL] != p and (power(st, m) > tp or (power(st, m) == tp and cs[m, C_ENTERED] < te)):
                    target, tp, te = m, power(st, m), cs[m, C_ENTERED]
            best, bg, bs = -1, 0, 0
            for i in range(no):
                if opt[i, 0] == target:
                    t = opt[i, 1]
                    g = gap(st, t)
                    if best < 0 or g > bg or (g == bg and t < bs):
                        best, bg, bs = i, g, t
            if best >= 0:
                default = best
    else:
        for t in range(tv[T_NSLOTS]):
            if t != s:
                for i in range(ln[L_SMIN + t]):
                    m = lst[L_SMIN + t, i]
                    if cs[m, C_CTRL] != p and can_move(st, p, m, s):
                        opt[no, 0], opt[no, 1] = m, s
                        no += 1
        before = V(st, p)
        default, bg = no, 0
        for i in range(no):
            g = v_with_minion(st, p, opt[i, 0], s) - before
            if g > bg:
                default, bg = i, g
    if no > 0:
        i = pick(st, p, no + 1, default)
        if i < no:
            move(st, opt[i, 0], opt[i, 1])
