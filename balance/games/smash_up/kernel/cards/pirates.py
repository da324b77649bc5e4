"""Pirates in the kernel (reference/cards/pirates.py function by function): the cards that are
not data (Cut Lass, Cannon, Dinghy, Full Sail, Shanghai and Swashbuckling are programs in
data/effects/pirates.toml, run by ``kernel.effects``). Buccaneer's move instead of destruction
is in ``triggers``.

The before-scoring Specials of Pirate King and Full Sail are data too (``window``, ``special``;
``kernel.window`` lists them); whether the baseline uses one stays here (``special_want``).
First Mate's after-scoring Special is a program (``after_scoring``) in the data.
"""

from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from ..layout import unpack
from ..baseline import outranked, sail_default, vp_of, vp_with_move
from ..board import (
    as_if, V, affectable, can_move, destroyable, gap, move, move_pairs, pick, power, remove, push,
)
from ..layout import (
    SEA_OPTIONS, C_CTRL, C_DEF, C_SLOT, CAP, DECK, DONE, F_C, F_P, GREEDY, H_ACTION,
    L_SMIN, T_NSLOTS, T_PLAYERS,
)
from ..names import N_BROADSIDE, N_FULL_SAIL, N_PIRATE_KING, N_POWDERKEG, N_SEA_DOGS
from ..opcodes import LEGAL_AFFECT, OWNER_MINE, WHERE_ANY
from ..choosers import keg_pick, own_targets
from ..tables import D_FACTION, D_NAME
from ..triggers import destroy
from .ninjas import MAX_MOVES


@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ACTION:
        if name == N_BROADSIDE:
            broadside(st, p)
        elif name == N_SEA_DOGS:
            sea_dogs(st, p)
    return DONE


# ---- minions ---------------------------------------------------------------------------------------
@jit
def king_want(st, q, s, m):
    old = st.cs[m, C_SLOT]
    gain = vp_with_move(st, q, m, s, s) - vp_of(st, s, q)
    loss = vp_of(st, old, q) - vp_with_move(st, q, m, s, old)
    return gain > loss


# ---- actions -----------------------------------------------------------------------------------
@jit
def has_minion(st, c, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for i in range(ln[L_SMIN + s]):
        if cs[lst[L_SMIN + s, i], C_CTRL] == c:
            return True
    return False


@jit
def broadside_victims(st, c, s, q, out):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        if cs[m, C_CTRL] == q and power(st, m) <= 2 and destroyable(st, m, c, True):
            out[k] = m
            k += 1
    return k


@jit
def broadside_options(st, c, os_, oq):
    """(base where c has a minion, seat) pairs, every seat."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = 0
    for s in range(tv[T_NSLOTS]):
        if has_minion(st, c, s):
            for q in range(tv[T_PLAYERS]):
                os_[n], oq[n] = s, q
                n += 1
    return n


@jit
def broadside_default(st, c, os_, oq, n, res):
    """res = (index, destroyed power) of the opponent pair destroying most (ties: the first)."""
    vic = stack_empty(CAP)
    res[0], res[1] = 0, 0
    found = False
    for i in range(n):
        if oq[i] == c:
            continue
        k = broadside_victims(st, c, os_[i], oq[i], vic)
        t = 0
        for j in range(k):
            t += power(st, vic[j])
        if not found or t > res[1]:
            res[0], res[1] = i, t
            found = True


@jit
def broadside(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    os_ = stack_empty(64)
    oq = stack_empty(64)
    n = broadside_options(st, c, os_, oq)
    if n == 0:
        return
    res = stack_zeros(2)
    if strat[c] == GREEDY:
        broadside_default(st, c, os_, oq, n, res)
    i = pick(st, c, n, res[0])
    vic = stack_empty(CAP)
    k = broadside_victims(st, c, os_[i], oq[i], vic)
    out = stack_empty(CAP)
    destroy(st, vic, k, c, True, out)






@jit
def sea_factions(st, c, out):
    """The other players' factions: seats in turn order after c, each its two factions in draft
    order (a seat's deck is its first faction's 20 cards, then its second's), no repeats."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    k = 0
    for o in range(1, n):
        q = (c + o) % n
        for card in (q * DECK, q * DECK + DECK - 1):
            f = defs[cs[card, C_DEF], D_FACTION]
            seen = False
            for j in range(k):
                if out[j] == f:
                    seen = True
            if not seen:
                out[k] = f
                k += 1
    return k


@jit
def sea_options(st, c, of, osrc, odst):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    fac = stack_empty(8)
    nf = sea_factions(st, c, fac)
    n = 0
    for i in range(nf):
        for src in range(tv[T_NSLOTS]):
            for dst in range(tv[T_NSLOTS]):
                if dst != src:
                    of[n], osrc[n], odst[n] = fac[i], src, dst
                    n += 1
    return n


@jit
def sea_movers(st, c, f, src, dst, out):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for i in range(ln[L_SMIN + src]):
        m = lst[L_SMIN + src, i]
        if cs[m, C_CTRL] != c and defs[cs[m, C_DEF], D_FACTION] == f and affectable(st, m, c, True) \
                and can_move(st, c, m, dst):
            out[k] = m
            k += 1
    return k


@jit
def sea_default(st, c, of, osrc, odst, n):
    """Index of the baseline's (faction, source, destination), or -1 (hold)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    ns = tv[T_NSLOTS]
    hot = stack_zeros(16)
    target = stack_empty(16)
    for src in range(ns):
        hot[src] = 1 if outranked(st, c, src) else 0
        best, bg = -1, 0
        for t in range(ns):  # the largest gap among the other bases, ties: the lower slot
            if t != src:
                g = gap(st, t)
                if best < 0 or g > bg:
                    best, bg = t, g
        target[src] = best
    movers = stack_empty(CAP)
    best, most = -1, 0
    for i in range(n):
        src, dst = osrc[i], odst[i]
        if hot[src] == 0 or dst != target[src]:
            continue
        k = sea_movers(st, c, of[i], src, dst, movers)
        t = 0
        for j in range(k):
            t += power(st, movers[j])
        if t > most:
            best, most = i, t
    return best


@jit
def sea_dogs(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    of = stack_empty(SEA_OPTIONS)
    osrc = stack_empty(SEA_OPTIONS)
    odst = stack_empty(SEA_OPTIONS)
    n = sea_options(st, c, of, osrc, odst)
    if n == 0:
        return
    default = 0
    if strat[c] == GREEDY:
        i = sea_default(st, c, of, osrc, odst, n)
        default = 0 if i < 0 else i
    i = pick(st, c, n, default)
    movers = stack_empty(CAP)
    k = sea_movers(st, c, of[i], osrc[i], odst[i], movers)
    for j in range(k):
        move(st, movers[j], odst[i])


@jit
def v_with_moves(st, p, ms, k, src, dst):
    """V for ``p`` with minions ``ms[:k]`` (all on ``src``) moved to ``dst`` in order."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    saved = stack_empty(CAP)
    n0 = ln[L_SMIN + src]
    for i in range(n0):
        saved[i] = lst[L_SMIN + src, i]
    as_if(st, 1)
    for j in range(k):
        remove(lst, ln, L_SMIN + src, ms[j])
        push(lst, ln, L_SMIN + dst, ms[j])
        cs[ms[j], C_SLOT] = dst
    v = V(st, p)
    ln[L_SMIN + dst] -= k
    for i in range(n0):
        lst[L_SMIN + src, i] = saved[i]
    ln[L_SMIN + src] = n0
    for j in range(k):
        cs[ms[j], C_SLOT] = src
    as_if(st, -1)
    return v


@jit
def sea_dogs_want(st, p):
    of = stack_empty(SEA_OPTIONS)
    osrc = stack_empty(SEA_OPTIONS)
    odst = stack_empty(SEA_OPTIONS)
    n = sea_options(st, p, of, osrc, odst)
    i = sea_default(st, p, of, osrc, odst, n)
    if i < 0:
        return False
    movers = stack_empty(CAP)
    k = sea_movers(st, p, of[i], osrc[i], odst[i], movers)
    return v_with_moves(st, p, movers, k, osrc[i], odst[i]) > V(st, p)


# ---- the hooks -----------------------------------------------------------------------------------
@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_BROADSIDE:
        os_ = stack_empty(64)
        oq = stack_empty(64)
        n = broadside_options(st, p, os_, oq)
        res = stack_zeros(2)
        broadside_default(st, p, os_, oq, n, res)
        return res[1] > 0
    elif name == N_POWDERKEG:
        options = stack_empty(CAP)
        n = own_targets(st, p, options)
        res = stack_zeros(2)
        keg_pick(st, p, options, n, res)
        return res[1] > 0
    elif name == N_SEA_DOGS:
        return sea_dogs_want(st, p)
    return False  # Full Sail: the baseline keeps it for the Special
@jit
def special_want(st, q, s, a):
    """Move Pirate King ``a`` when its vp_now gain at the scoring base ``s`` exceeds its loss where
    it stands; play Full Sail when its default moves some minion (``baseline.sail_default``)."""
    name = st.defs[st.cs[a, C_DEF], D_NAME]
    if name == N_PIRATE_KING:
        return king_want(st, q, s, a)
    if name == N_FULL_SAIL:
        mm = stack_empty(MAX_MOVES)
        md = stack_empty(MAX_MOVES)
        k = move_pairs(st, OWNER_MINE, LEGAL_AFFECT, WHERE_ANY, -1, q, True, mm, 0, mm, md)
        return k > 0 and sail_default(st, q, s, mm, md, k) >= 0
    return False
