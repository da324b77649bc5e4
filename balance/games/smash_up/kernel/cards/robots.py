"""Robots in the kernel (reference/cards/robots.py function by function): the cards that are
not data (Hoverbot, Zapbot, Microbot Fixer's on-play, Microbot Guard and Microbot Reclaimer are programs in
data/effects/robots.toml, run by ``kernel.effects``). Nukebot's trigger and Microbot Archive's
draws are in ``triggers``; Warbot, Alpha and Fixer's power in ``board``."""
from balance.core._jit import jit_widened as jit

from ..board import draw, pick, power
from ..layout import C_CTRL, C_DEF, DONE, F_C, F_P, H_ACTION, L_SMIN, T_NSLOTS
from ..names import N_TECH_CENTER
from ..tables import D_NAME


@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ACTION and name == N_TECH_CENTER:
        k = tech_default(st, p)
        if tv[T_NSLOTS] > 0:
            s = pick(st, p, tv[T_NSLOTS], k)
            draw(st, p, mine_at(st, p, s))
    return DONE


@jit
def mine_at(st, p, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    k = 0
    for i in range(ln[L_SMIN + s]):
        if cs[lst[L_SMIN + s, i], C_CTRL] == p:
            k += 1
    return k


@jit
def tech_default(st, p):
    """The base with most of your minions (ties: the lower slot)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    best, bk = 0, -1
    for s in range(tv[T_NSLOTS]):
        k = mine_at(st, p, s)
        if k > bk:
            best, bk = s, k
    return best

@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    if defs[cs[c, C_DEF], D_NAME] == N_TECH_CENTER:
        return tv[T_NSLOTS] > 0 and mine_at(st, p, tech_default(st, p)) >= 2
    return False
