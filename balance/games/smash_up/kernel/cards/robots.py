"""Robots in the kernel (reference/cards/robots.py function by function): the cards that are
not data (Hoverbot, Zapbot, Microbot Fixer's on-play and Microbot Guard are programs in
data/effects/robots.toml, run by ``kernel.effects``). Nukebot's trigger and Microbot Archive's
draws are in ``triggers``; Warbot, Alpha and Fixer's power in ``board``."""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from ..board import is_microbot_card, draw, pick, power, push, remove, shuffle
from ..layout import (
    C_CTRL, C_DEF, C_ZONE, CAP, DONE, F_C, F_P, G_ANY, H_ACTION, H_ON_PLAY, L_DECK, L_DISC, L_SMIN,
    P_MINIONS_PLAYED, T_NSLOTS, Z_DECK,
)
from ..names import N_MICROBOT_RECLAIMER, N_TECH_CENTER
from ..stack import grant_minion
from ..tables import D_NAME


@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ON_PLAY:
        if name == N_MICROBOT_RECLAIMER:
            if step == 0:
                if ps[p, P_MINIONS_PLAYED] == 1:
                    grant_minion(st, p, G_ANY, -1)
                return 1  # then (after a grant used at once) the shuffle back
            reclaim(st, p)
    elif hook == H_ACTION and name == N_TECH_CENTER:
        k = tech_default(st, p)
        if tv[T_NSLOTS] > 0:
            s = pick(st, p, tv[T_NSLOTS], k)
            draw(st, p, mine_at(st, p, s))
    return DONE


@jit
def reclaim(st, p):
    """Shuffle any number of Microbots from the discard pile into the deck: one yes/no per
    Microbot card, pile order; the deck is shuffled only if one went in."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = st
    chosen = stack_empty(CAP)
    k = 0
    for i in range(ln[L_DISC + p]):
        c = lst[L_DISC + p, i]
        if is_microbot_card(st, c) and pick(st, p, 2, 0) == 0:
            chosen[k] = c
            k += 1
    for i in range(k):
        remove(lst, ln, L_DISC + p, chosen[i])
        push(lst, ln, L_DECK + p, chosen[i])
        cs[chosen[i], C_ZONE] = Z_DECK
    if k > 0:
        shuffle(lst, ln, L_DECK + p, states)


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
