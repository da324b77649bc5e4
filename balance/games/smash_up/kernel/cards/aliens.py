"""Aliens in the kernel (reference/cards/aliens.py function by function): the cards that are not
data (Supreme Overlord, Invader, Collector, Abduction, Beam Up, Disintegrator, Probe, Crop
Circles and Invasion are programs in data/effects/aliens.toml, run by ``kernel.effects``; Crop
Circles' and Invasion's defaults are ``choosers.crop_circles`` and ``choosers.invasion``).

Jammed Signal's cancellation is in ``board.active``; Scout's after-scoring Special and Jammed
Signal's host are data too. Option lists live in local arrays, never in ``opt``: ``want`` is called
while the caller walks its own ``opt`` rows.

Terraforming swaps the base card of a slot: the new card starts fresh (no reduction, an unused
Tar Pits replacement, no Infiltrate cancellation) and, for the statistics, comes into play now
(``S_SINCE`` and its ``BST_ENTERED`` counter; the reference only reports scored bases).
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from ..layout import unpack
from ..baseline import lead, outranked
from ..board import active, move_pairs, pick, remove, shuffle, push
from ..layout import (
    BST_ENTERED, BST_N, O_BASE, C_DEF, CAP, DONE, F_C, F_P, G_AT, GREEDY, H_ACTION, L_BDECK, MAX_SLOTS,
    S_BASE, S_CANCEL, S_REDUCTION, S_SINCE, S_TARPITS, T_NSLOTS, T_TURNS,
)
from ..hosts import favours_opponent, lead_most
from ..names import (
    N_CROP_CIRCLES, N_INVASION, N_JAMMED_SIGNAL, N_TERRAFORMING,
)
from ..opcodes import LEGAL_AFFECT, OWNER_ANY, WHERE_ANY
from ..choosers import crop_circles, crop_score, invasion_pick
from ..stack import grant_minion
from ..tables import BS_BREAK, BS_VP0, D_NAME

MAX_MOVES = CAP * 16


@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ACTION:
        if name == N_TERRAFORMING:
            terraforming(st, p)
    return DONE


# ---- Crop Circles -------------------------------------------------------------------------------
@jit
def crop_circles_want(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if tv[T_NSLOTS] == 0:
        return False
    s = crop_circles(st, p)
    return crop_score(st, p, s) > 0 and outranked(st, p, s)


# ---- Invasion ---------------------------------------------------------------------------------------
@jit
def invasion_want(st, p):
    mm = stack_empty(MAX_MOVES)
    md = stack_empty(MAX_MOVES)
    k = move_pairs(st, OWNER_ANY, LEGAL_AFFECT, WHERE_ANY, -1, p, True, mm, 0, mm, md)
    res = stack_zeros(3)
    invasion_pick(st, p, mm, md, k, res)
    return res[0] >= 0 and res[1] > res[2]


# ---- Jammed Signal ----------------------------------------------------------------------------
@jit
def jam_want(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for s in range(tv[T_NSLOTS]):
        if active(st, s) and favours_opponent(st, p, s):
            return True
    return False


# ---- Terraforming ----------------------------------------------------------------------------------
@jit
def terraform_default(st, p):
    """The base where ``p`` leads by most (ties: the lower slot), as Hideout's host rule."""
    slots = stack_empty(MAX_SLOTS)
    for s in range(st.tv[T_NSLOTS]):
        slots[s] = s
    return lead_most(st, p, slots, st.tv[T_NSLOTS])


@jit
def terraforming(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    nd = ln[L_BDECK]
    if nd == 0 or tv[T_NSLOTS] == 0:  # no new base: nothing, not even the grant
        return
    default = terraform_default(st, c) if strat[c] == GREEDY else 0
    s = pick(st, c, tv[T_NSLOTS], default)
    best, bk = 0, (0, 0)
    for i in range(nd):  # the highest 1st-place VP, ties: the lower breakpoint, then the first
        b = lst[L_BDECK, i]
        key = (bases[b, BS_VP0], -bases[b, BS_BREAK])
        if i == 0 or key > bk:
            best, bk = i, key
    new = lst[L_BDECK, pick(st, c, nd, best)]
    remove(lst, ln, L_BDECK, new)
    push(lst, ln, L_BDECK, ss[s, S_BASE])
    ss[s, S_BASE] = new  # the cards on it stay (published clarification)
    ss[s, S_REDUCTION] = 0  # [D23]: reductions stay with the old card
    ss[s, S_TARPITS] = 0
    ss[s, S_CANCEL] = 0
    ss[s, S_SINCE] = tv[T_TURNS]
    stats[O_BASE + new * BST_N + BST_ENTERED] += 1
    shuffle(lst, ln, L_BDECK, states)  # [D17]
    grant_minion(st, c, G_AT, s)


# ---- the hooks ---------------------------------------------------------------------------------
@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_CROP_CIRCLES:
        return crop_circles_want(st, p)
    elif name == N_INVASION:
        return invasion_want(st, p)
    elif name == N_JAMMED_SIGNAL:
        return jam_want(st, p)
    elif name == N_TERRAFORMING:
        return ln[L_BDECK] > 0 and tv[T_NSLOTS] > 0 and lead(st, p, terraform_default(st, p)) > 0
    return False
