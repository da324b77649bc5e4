"""Zombies in the kernel (reference/cards/zombies.py function by function): the cards that are
not data (Zombie Lord, Grave Digger, Walker, Lend a Hand, and Outbreak's, They Keep Coming's and
Grave Robbing's effects are programs in data/effects/zombies.toml, run by ``kernel.effects``;
Grave Robbing's default is ``choosers.grave_robbing``).

Already in the kernel's core, not here: Tenacious Z from the discard pile (``stack.minion_moves``),
Overrun's ban (``board.minion_allowed``), the M∅ and Mdisc grants (``board.grant_for``), playing
through They're Coming To Get You (``turn.use_ctgy``: the free play or a generic grant; the
action's once a turn is its ``C_TALENT``).

"Data order" (the reference's ``_data_rank``: the faction order of the card list, then the
card's place in its faction) is the definition row ``C_DEF``: ``tables.card_tables`` builds the
rows in exactly that order, one per distinct name.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from ..layout import unpack
from ..baseline import place
from ..board import (
    has_minion_on, is_minion_card, minion_allowed, pick, printed, push, refill,
    shuffle, to_discard,
)
from ..layout import (
    C_CTRL, C_DEF, C_SLOT, C_TALENT, C_ZONE, CAP, DONE, F_C, F_P, G_ANY, GREEDY, H_ACTION, K_ACTION, L_DECK,
    L_DISC, L_HAND, L_SACT, MV_CTGY, T_CURRENT, T_FREE_MIN, T_IN_PHASE, T_NGRANTS, T_NSLOTS, Z_HAND,
)
from ..names import (
    N_GRAVE_ROBBING, N_MALL_CRAWL, N_NOT_ENOUGH_BULLETS, N_OUTBREAK, N_OVERRUN, N_TENACIOUS_Z,
    N_THEY_RE_COMING_TO_GET_YOU,
)
from ..stack import add_option
from ..tables import D_KIND, D_NAME


# ---- the resumable part of the cards -------------------------------------------------------------
@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ACTION:
        if name == N_MALL_CRAWL:
            mall_crawl(st, p)
        elif name == N_NOT_ENOUGH_BULLETS:
            not_enough_bullets(st, p)
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


# ---- 7. Mall Crawl, 8. Not Enough Bullets -----------------------------------------------------------
@jit
def names_in_data_order(st, li, minions_only, out, count):
    """The distinct definitions (names) of list ``li`` (only minion cards if ``minions_only``),
    in data order, in ``out``; ``count[j]`` the copies of ``out[j]``. Returns how many."""
    cs, lst, ln = st.cs, st.lst, st.ln
    k = 0
    for i in range(ln[li]):
        c = lst[li, i]
        if minions_only and not is_minion_card(st, c):
            continue
        dd = cs[c, C_DEF]
        j = 0
        while j < k and out[j] < dd:
            j += 1
        if j < k and out[j] == dd:
            count[j] += 1
            continue
        for t in range(k, j, -1):
            out[t] = out[t - 1]
            count[t] = count[t - 1]
        out[j] = dd
        count[j] = 1
        k += 1
    return k


@jit
def crawl_default(st, names, count, k):
    defs = st.defs
    any_minion = False
    for i in range(k):
        if defs[names[i], D_KIND] != K_ACTION:
            any_minion = True
    best, bk = -1, (0, 0, 0, 0)
    for i in range(k):
        if any_minion:
            if defs[names[i], D_KIND] == K_ACTION:
                continue
            key = (count[i], 1 if defs[names[i], D_NAME] == N_TENACIOUS_Z else 0,
                   defs[names[i], 2], -i)  # D_POWER
        else:
            key = (count[i], 0, 0, -i)
        if best < 0 or key > bk:
            best, bk = i, key
    return best


@jit
def take_copies(st, p, li, dd, n_copies, out):
    """Choose how many copies of definition ``dd`` to take from list ``li`` (all by default),
    from its end; ``out[:k]`` the cards taken (removed from the list), in order. Returns k."""
    cs, lst, ln = st.cs, st.lst, st.ln
    j = pick(st, p, n_copies + 1, 0)
    n = n_copies - j if j < n_copies else 0
    k = 0
    i = ln[li] - 1
    while i >= 0 and k < n:
        c = lst[li, i]
        if cs[c, C_DEF] == dd:
            out[k] = c
            k += 1
            for t in range(i, ln[li] - 1):
                lst[li, t] = lst[li, t + 1]
            ln[li] -= 1
        i -= 1
    return k


@jit
def mall_crawl(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not refill(st, c):  # an empty deck: search the reshuffled discard pile (§1.9)
        return
    names = stack_empty(CAP)
    count = stack_empty(CAP)
    k = names_in_data_order(st, L_DECK + c, False, names, count)
    default = crawl_default(st, names, count, k) if strat[c] == GREEDY else 0
    j = pick(st, c, k, default)
    taken = stack_empty(CAP)
    n = take_copies(st, c, L_DECK + c, names[j], count[j], taken)
    for i in range(n):
        to_discard(st, taken[i])
    shuffle(lst, ln, L_DECK + c, states)  # every search ends with a shuffle [D17]


@jit
def mall_crawl_want(st, p):
    names = stack_empty(CAP)
    count = stack_empty(CAP)
    k = names_in_data_order(st, L_DECK + p, False, names, count)
    if k == 0:
        return False
    return count[crawl_default(st, names, count, k)] >= 2


@jit
def bullets(st, p, names, count, res):
    """res = (default index or -1, its copies x power); returns the number of names."""
    defs = st.defs
    k = names_in_data_order(st, L_DISC + p, True, names, count)
    res[0], res[1] = -1, 0
    for i in range(k):
        v = count[i] * defs[names[i], 2]  # D_POWER
        if res[0] < 0 or v > res[1]:
            res[0], res[1] = i, v
    return k


@jit
def not_enough_bullets(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    names = stack_empty(CAP)
    count = stack_empty(CAP)
    res = stack_zeros(2)
    k = bullets(st, c, names, count, res)
    if k == 0:
        return
    j = pick(st, c, k, res[0])
    taken = stack_empty(CAP)
    n = take_copies(st, c, L_DISC + c, names[j], count[j], taken)
    for i in range(n):
        push(lst, ln, L_HAND + c, taken[i])
        cs[taken[i], C_ZONE] = Z_HAND


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
        return mall_crawl_want(st, p)
    elif name == N_NOT_ENOUGH_BULLETS:
        names = stack_empty(CAP)
        count = stack_empty(CAP)
        res = stack_zeros(2)
        bullets(st, p, names, count, res)
        return res[1] >= 4
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
