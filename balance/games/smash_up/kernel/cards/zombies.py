"""Zombies in the kernel (reference/cards/zombies.py function by function): the wants and the
play-phase moves that are not data. Every effect is a program in data/effects/zombies.toml, run
by ``kernel.effects``; the defaults of Grave Robbing, Mall Crawl and Not Enough Bullets are
``choosers.grave_robbing``, ``crawl`` and ``bullets``.

Already in the kernel's core, not here: Tenacious Z from the discard pile (``stack.minion_moves``),
Overrun's ban (``board.minion_allowed``), the M∅ and Mdisc grants (``board.grant_for``), playing
through They're Coming To Get You (``turn.use_ctgy``: the free play or a generic grant; the
action's once a turn is its ``C_TALENT``).
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from ..layout import unpack
from ..baseline import place
from ..board import has_minion_on, is_minion_card, minion_allowed, printed
from ..choosers import bullets, crawl, names_in_data_order
from ..layout import (
    C_CTRL, C_DEF, C_SLOT, C_TALENT, CAP, DONE, G_ANY, K_ACTION, L_DECK, L_DISC, L_HAND, L_SACT, MV_CTGY,
    T_CURRENT, T_FREE_MIN, T_IN_PHASE, T_NGRANTS, T_NSLOTS,
)
from ..names import (
    N_GRAVE_ROBBING, N_MALL_CRAWL, N_NOT_ENOUGH_BULLETS, N_OUTBREAK, N_OVERRUN,
    N_THEY_RE_COMING_TO_GET_YOU,
)
from ..stack import add_option
from ..tables import D_KIND, D_NAME, D_POWER


# ---- the resumable part of the cards -------------------------------------------------------------
@jit
def card_step(st, d, hook, step):
    """Every Zombies card's effect is data now; kept so that the dispatch stays uniform."""
    return DONE


# ---- 2. Grave Digger, 4. Walker ---------------------------------------------------------------------
@jit
def discard_minions(st, p, out):
    lst, ln = st.lst, st.ln
    k = 0
    for i in range(ln[L_DISC + p]):
        c = lst[L_DISC + p, i]
        if is_minion_card(st, c):
            out[k] = c
            k += 1
    return k


# ---- 5. Grave Robbing (its effect is data, its default ``choosers.grave_robbing``) -----------
@jit
def grave_robbing_want(st, p):
    cs, lst, ln, defs = st.cs, st.lst, st.ln, st.defs
    for i in range(ln[L_DISC + p]):
        c = lst[L_DISC + p, i]
        if defs[cs[c, C_DEF], D_KIND] == K_ACTION or (is_minion_card(st, c) and printed(st, c) >= 3):
            return True
    return False


# ---- 6. Lend a Hand ------------------------------------------------------------------------------


# ---- 7. Mall Crawl, 8. Not Enough Bullets (their effects are data, their defaults in choosers) -----
@jit
def named_default(st, p, li, rule_crawl):
    """The copies in list ``li`` of the name the baseline's TAKE_NAMED rule (``choosers.crawl``,
    or ``bullets`` of minions) names, times its printed power for Bullets; 0 for no name."""
    names = stack_empty(CAP)
    count = stack_empty(CAP)
    k = names_in_data_order(st, li, not rule_crawl, names, count)
    if k == 0:
        return 0
    if rule_crawl:
        return count[crawl(st, names, count, k)]
    j = bullets(st, names, count, k)
    return count[j] * st.defs[names[j], D_POWER]


# ---- 9. Outbreak ------------------------------------------------------------------------------------
@jit
def outbreak_want(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cards = stack_empty(CAP)
    k = 0
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c):
            cards[k] = c
            k += 1
    if k == 0 or (tv[T_FREE_MIN] > 0 and k < 2):
        return False
    slots = stack_empty(16)
    for j in range(k):
        n = 0
        for s in range(tv[T_NSLOTS]):
            if minion_allowed(st, p, cards[j], s):
                slots[n] = s
                n += 1
        if n > 0:
            s = slots[place(st, p, cards[j], False, slots, n)]
            if not has_minion_on(st, p, s):
                return True
    return False


# ---- 12. They're Coming To Get You --------------------------------------------------------------
@jit
def ctgy_want(st, p, c, a):
    """A discard minion of higher printed power than every minion in hand: the best one."""
    cs, lst, ln = st.cs, st.lst, st.ln
    s = cs[a, C_SLOT]
    best = -1
    for i in range(ln[L_DISC + p]):
        x = lst[L_DISC + p, i]
        if is_minion_card(st, x) and minion_allowed(st, p, x, s) and printed(st, x) > best:
            best = printed(st, x)
    hand = -1
    for i in range(ln[L_HAND + p]):
        x = lst[L_HAND + p, i]
        if is_minion_card(st, x) and printed(st, x) > hand:
            hand = printed(st, x)
    return best >= 0 and printed(st, c) == best and printed(st, c) > hand


# ---- the hooks -----------------------------------------------------------------------------------
@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_GRAVE_ROBBING:
        return grave_robbing_want(st, p)
    elif name == N_MALL_CRAWL:
        return named_default(st, p, L_DECK + p, True) >= 2
    elif name == N_NOT_ENOUGH_BULLETS:
        return named_default(st, p, L_DISC + p, False) >= 4
    elif name == N_OUTBREAK:
        return outbreak_want(st, p)
    elif name == N_OVERRUN or name == N_THEY_RE_COMING_TO_GET_YOU:
        return True
    return False


@jit
def extra_moves(st, p, n):
    """They're Coming To Get You: (MV_CTGY, a discard minion, the action), once per turn per
    action, in ``p``'s Play Cards phase with the free minion play or a generic grant open."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if tv[T_IN_PHASE] == 0 or p != tv[T_CURRENT]:
        return n
    open_ = tv[T_FREE_MIN] > 0
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == G_ANY:
            open_ = True
    if not open_:
        return n
    for s in range(tv[T_NSLOTS]):  # a play-on-base action: never on a minion
        for i in range(ln[L_SACT + s]):
            a = lst[L_SACT + s, i]
            if defs[cs[a, C_DEF], D_NAME] == N_THEY_RE_COMING_TO_GET_YOU and cs[a, C_CTRL] == p \
                    and cs[a, C_TALENT] == 0:
                for j in range(ln[L_DISC + p]):
                    c = lst[L_DISC + p, j]
                    if is_minion_card(st, c) and minion_allowed(st, p, c, s):
                        n = add_option(opt, n, MV_CTGY, c, a)
    return n


@jit
def extra_want(st, p, i):
    opt = st.opt
    if opt[i, 0] == MV_CTGY:
        return ctgy_want(st, p, opt[i, 1], opt[i, 2])
    return False
