"""The resolution stack: plays that happen inside other plays, without recursion.

A minion play resolves its on-play ability, then "after a minion is played" triggers; either
may play another card at once (Hoverbot, The Homeworld outside the Play Cards phase ...), whose
resolution completes first. The reference recurses; numba cannot cache recursive functions,
so here every such resolution is a frame on ``fs`` (procedure, step, arguments, registers) and
``run`` executes the top frame's next step until the stack is back where it started. A step
never calls ``run``: it pushes a frame and returns, and its own frame continues after.
"""
import numpy as np

from balance.core._jit import jit

from .baseline import greedy_minion
from .board import (
    MODE_BASES, R_MODE,
    active, add_grant, affectable, attach, enter_play, grant_for, is_minion_card, minion_allowed,
    pick, printed, protect, remove, to_discard, use_grant,
)
from .layout import (
    C_CTRL, C_DEF, C_OWNER, C_SLOT, CAP, F_C, F_P, F_PC, F_PROC, F_S, F_X, G_DISC, GREEDY,
    L_DECK, L_DISC, L_HAND, L_SMIN, MV_DISCARD, MV_HAND, MV_TENACIOUS, P_ACTIONS_PLAYED,
    P_HOMEWORLD, P_MINIONS_PLAYED, T_CURRENT, T_ENTRY, T_IN_PHASE, T_NGRANTS, T_NSLOTS,
    T_PHASE_MIN, T_SP, T_TENACIOUS, Z_DECK, Z_DISCARD, Z_HAND,
)
from .names import B_THE_HOMEWORLD, N_TENACIOUS_Z
from .tables import BS_NAME, D_NAME, D_PLAYON, PLAYON_BASE, PLAYON_MINION, PLAYON_OWN

PR_PLAY_MINION, PR_AFTER_PLAYED, PR_GRANT_NOW, PR_PLAY_ACTION = range(4)
R_HOMEWORLD_EACH = 14  # board.R_HOMEWORLD_EACH


@jit
def push_frame(st, proc, p, c, s, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    d = tv[T_SP]
    fs[d, :] = 0
    fs[d, F_PROC], fs[d, F_P], fs[d, F_C], fs[d, F_S], fs[d, F_X] = proc, p, c, s, x
    tv[T_SP] = d + 1


@jit
def run(st, base):
    """Execute frames until the stack is back to depth ``base``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    while tv[T_SP] > base:
        d = tv[T_SP] - 1
        proc = fs[d, F_PROC]
        pc = fs[d, F_PC]
        fs[d, F_PC] = pc + 1
        if proc == PR_PLAY_MINION:
            if pc == 0:
                enter_minion(st, fs[d, F_P], fs[d, F_C], fs[d, F_S], fs[d, F_X])
            elif pc == 1:
                push_frame(st, PR_AFTER_PLAYED, fs[d, F_P], fs[d, F_C], fs[d, F_S], 0)
            else:
                tv[T_SP] = d
        elif proc == PR_AFTER_PLAYED:
            if pc == 0:
                homeworld(st, fs[d, F_C], fs[d, F_S])
            else:
                tv[T_SP] = d
        elif proc == PR_GRANT_NOW:
            if pc == 0:
                grant_now(st, fs[d, F_P], fs[d, F_X], fs[d, F_S])
            else:
                drop_grant(st, fs[d, F_X], fs[d, F_S])
                tv[T_SP] = d
        elif proc == PR_PLAY_ACTION:
            if pc == 0:
                action(st, fs[d, F_P], fs[d, F_C])
            else:
                tv[T_SP] = d


# ---- minions -------------------------------------------------------------------------------------
@jit
def enter_minion(st, p, c, s, source):
    """``Game.play_minion`` up to the on-play ability: the card leaves ``source``, enters play."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    if source == Z_HAND:
        remove(lst, ln, L_HAND + p, c)
    elif source == Z_DISCARD:
        remove(lst, ln, L_DISC + p, c)
    elif source == Z_DECK:
        remove(lst, ln, L_DECK + p, c)
    tv[T_ENTRY] += 1
    enter_play(st, p, c, s, tv[T_ENTRY])
    protect(st, c)
    ps[p, P_MINIONS_PLAYED] += 1
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT]:
        tv[T_PHASE_MIN] += 1


@jit
def push_move(st, p, kind, c, s):
    """Start a minion play of the Play Cards phase or of a grant (``Game.do_move``'s minion
    kinds): the grant is used now, the play resolves when ``run`` gets to it."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    if kind == MV_TENACIOUS:
        tv[T_TENACIOUS] = 1
        push_frame(st, PR_PLAY_MINION, p, c, s, Z_DISCARD)
        return
    use_grant(st, grant_for(st, p, c, s, kind == MV_DISCARD))
    push_frame(st, PR_PLAY_MINION, p, c, s, Z_HAND if kind == MV_HAND else Z_DISCARD)


@jit
def grant_minion(st, p, kind, s):
    """``Game.grant_minion``: in the receiver's Play Cards phase the grant stays open; anywhere
    else it is offered at once (a frame)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT]:
        add_grant(st, kind, s)
        return
    push_frame(st, PR_GRANT_NOW, p, -1, s, kind)


@jit
def grant_now(st, p, kind, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    add_grant(st, kind, s)
    n = minion_moves_now(st, p)
    default = 0
    if n > 0 and strat[p] == GREEDY:
        default = greedy_minion(st, p, 0, n)
    i = pick(st, p, n + 1, default)
    if i < n:
        push_move(st, p, opt[i, 0], opt[i, 1], opt[i, 2])


@jit
def drop_grant(st, kind, s):
    """The grant offered at once is gone whether used or not."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == kind and gr[i, 1] == s:
            use_grant(st, i)
            return


@jit
def add_option(opt, n, kind, c, s):
    opt[n, 0] = kind
    opt[n, 1] = c
    opt[n, 2] = s
    return n + 1


@jit
def minion_moves(st, p, n):
    """``Game.minion_moves`` appended to ``opt`` from row ``n``; returns the new count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c):
            for s in range(tv[T_NSLOTS]):
                if minion_allowed(st, p, c, s) and grant_for(st, p, c, s, False) != -1:
                    n = add_option(opt, n, MV_HAND, c, s)
    has_disc = False
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == G_DISC:
            has_disc = True
    if has_disc:
        for i in range(ln[L_DISC + p]):
            c = lst[L_DISC + p, i]
            if is_minion_card(st, c):
                for s in range(tv[T_NSLOTS]):
                    if minion_allowed(st, p, c, s):
                        n = add_option(opt, n, MV_DISCARD, c, s)
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT] and tv[T_TENACIOUS] == 0:
        for i in range(ln[L_DISC + p]):
            c = lst[L_DISC + p, i]
            if defs[cs[c, C_DEF], D_NAME] == N_TENACIOUS_Z:
                for s in range(tv[T_NSLOTS]):
                    if minion_allowed(st, p, c, s):
                        n = add_option(opt, n, MV_TENACIOUS, c, s)
                break
    return n


@jit
def minion_moves_now(st, p):
    """The plays a grant used at once may make: ``minion_moves`` without Tenacious Z."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    n = minion_moves(st, p, 0)
    k = 0
    for i in range(n):
        if opt[i, 0] != MV_TENACIOUS:
            opt[k, 0], opt[k, 1], opt[k, 2] = opt[i, 0], opt[i, 1], opt[i, 2]
            k += 1
    return k


# ---- after a minion is played --------------------------------------------------------------------
@jit
def homeworld(st, m, s):
    """The Homeworld (§11.1): once per player per turn, a minion of printed power <= 2."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    if bases[ss[s, 0], BS_NAME] != B_THE_HOMEWORLD or not active(st, s) or (rs[R_MODE] & MODE_BASES) == 0:
        return
    p = cs[m, C_CTRL]
    if ps[p, P_HOMEWORLD] != 0 and rs[R_HOMEWORLD_EACH] == 0:
        return
    small = False
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c) and printed(st, c) <= 2:
            small = True
    if small and pick(st, p, 2, 0) == 0:
        ps[p, P_HOMEWORLD] = 1
        grant_minion(st, p, 2, -1)  # G_TWO, any base [D31]


# ---- actions ------------------------------------------------------------------------------------
@jit
def action(st, p, c):
    """``Game.play_action`` (no card program yet): a play-on action attaches to the host its
    controller picks, any other action is discarded."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc = st
    remove(lst, ln, L_HAND + cs[c, C_OWNER], c)
    ps[p, P_ACTIONS_PLAYED] += 1
    kind = defs[cs[c, C_DEF], D_PLAYON]
    if kind == PLAYON_BASE:
        if tv[T_NSLOTS] == 0:  # every base scored and none left to replace it: no effect
            to_discard(st, c)
            return
        s = pick(st, p, tv[T_NSLOTS], 0)
        tv[T_ENTRY] += 1
        attach(st, c, p, s, -1, tv[T_ENTRY])
        return
    if kind == PLAYON_MINION or kind == PLAYON_OWN:
        hosts = np.empty(CAP, np.int64)
        k = 0
        for s in range(tv[T_NSLOTS]):
            for i in range(ln[L_SMIN + s]):
                m = lst[L_SMIN + s, i]
                if affectable(st, m, p, True) and (kind == PLAYON_MINION or cs[m, C_CTRL] == p):
                    hosts[k] = m
                    k += 1
        if k == 0:
            to_discard(st, c)
            return
        h = hosts[pick(st, p, k, 0)]
        tv[T_ENTRY] += 1
        attach(st, c, p, cs[h, C_SLOT], h, tv[T_ENTRY])
        return
    to_discard(st, c)
