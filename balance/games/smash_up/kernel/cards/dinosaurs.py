"""Dinosaurs in the kernel (reference/cards/dinosaurs.py function by function): their wants.
Every effect is a program in data/effects/dinosaurs.toml, run by ``kernel.effects``; the
defaults of Augmentation, Rampage and Natural Selection are rules in ``choosers``.

War Raptor's, Armor Stego's and Upgrade's power are in ``board.power`` (the Stego's mark is
``C_STEGO``, cleared at the start of its controller's turn); the protection of Tooth and
Claw...and Guns and Wildlife Preserve is in ``board.affectable`` (and ``protect`` on every
arrival, ``protect_on_attach`` when they attach); their hosts, as every play-on action's, are
data rules (``kernel/hosts.py``); Rampage's reduction ends with the turn
(``turn.end_of_turn``). King Rex has no ability. Option lists live in local arrays, never in ``opt``.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from ..layout import unpack
from ..baseline import help_, hit
from ..board import destroyable, lowest_if_mixed, power
from ..layout import C_CTRL, C_DEF, CAP, DONE, L_SMIN, MAX_SLOTS, T_NSLOTS
from ..names import (
    N_ARMOR_STEGO, N_AUGMENTATION, N_NATURAL_SELECTION, N_RAMPAGE, N_SURVIVAL_OF_THE_FITTEST,
    N_TOOTH_AND_CLAW_AND_GUNS, N_UPGRADE, N_WILDLIFE_PRESERVE,
)
from ..tables import D_NAME
from ..choosers import action_targets, augment_pick, minions_of, ns_pair, rampage_pick


@jit
def card_step(st, d, hook, step):
    """Every Dinosaurs card's effect is data now; kept so that the dispatch stays uniform."""
    return DONE


@jit
def sotf_candidates(st, c, cands, counts):
    """Per base with unequal powers: its lowest-power minions ``c``'s card can destroy [D38]
    (``cands[j, :counts[j]]``, bases in slot order); returns the number of lists. (The card's
    effect is data, ``SEL_MINION ... lowest_if_mixed``; its want reads the same lists.)"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = 0
    for s in range(tv[T_NSLOTS]):
        low = lowest_if_mixed(st, s)
        if low < 0:
            continue
        k = 0
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if power(st, m) == low and destroyable(st, m, c, True):
                cands[n, k] = m
                k += 1
        if k > 0:
            counts[n] = k
            n += 1
    return n


@jit
def survival_want(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cands = stack_empty((MAX_SLOTS, CAP))
    counts = stack_zeros(MAX_SLOTS)
    n = sotf_candidates(st, p, cands, counts)
    theirs, mine = 0, 0
    for j in range(n):
        m = cands[j, hit(st, p, cands[j], counts[j], True)]
        if cs[m, C_CTRL] != p:
            theirs += power(st, m)
        else:
            mine += power(st, m)
    return theirs > mine


# ---- the hooks -----------------------------------------------------------------------------------
@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_AUGMENTATION:
        cand = stack_empty(CAP)
        k = action_targets(st, p, cand)
        return augment_pick(st, p, cand, k) >= 0
    elif name == N_NATURAL_SELECTION:
        pair = stack_zeros(2)
        ns_pair(st, p, pair)
        return pair[0] >= 0
    elif name == N_RAMPAGE:
        mine = stack_empty(CAP)
        return rampage_pick(st, p, mine, minions_of(st, p, mine)) >= 0
    elif name == N_SURVIVAL_OF_THE_FITTEST:
        return survival_want(st, p)
    elif name == N_TOOTH_AND_CLAW_AND_GUNS or name == N_UPGRADE:
        cand = stack_empty(CAP)
        k = action_targets(st, p, cand)
        return help_(st, p, cand, k) >= 0
    elif name == N_WILDLIFE_PRESERVE:
        mine = stack_empty(CAP)
        return minions_of(st, p, mine) > 0
    return False


@jit
def talent_usable(st, p, x):
    cs, defs = st.cs, st.defs
    return defs[cs[x, C_DEF], D_NAME] == N_ARMOR_STEGO


@jit
def talent_want(st, p, x):
    cs, defs = st.cs, st.defs
    return defs[cs[x, C_DEF], D_NAME] == N_ARMOR_STEGO
