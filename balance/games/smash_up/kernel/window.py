"""The before-scoring window's Specials, as the card data declares them (``window`` and
``special`` in data/effects; ``tables.D_WINDOW``, ``opcodes.WINDOW_*``): which ones a player may
use now. What a Special does is its ``special`` program (``kernel.effects``); whether the baseline
uses one stays its faction module's ``special_want``."""
from balance.core._jit import jit_inline, stack_empty
from balance.core._jit import jit_widened as jit

from .board import affectable, can_move, can_play_actions, insert_sorted, is_action_card, minion_allowed
from .effects import candidates
from .layout import (
    C_CTRL, C_DEF, CAP, F_J, F_K, F_PC, H_SPECIAL, L_HAND, L_SMIN, MAX_SLOTS, T_NSLOTS, T_WINDOW, unpack,
)
from .opcodes import (
    WINDOW_EACH_TARGET, WINDOW_ELSEWHERE, WINDOW_HAND, WINDOW_HERE, WINDOW_ONCE_PER_CARD, WINDOW_ONCE_PER_PLAYER,
)
from .tables import D_PROG, D_WINDOW

SP_DATA = 1  # a window option's code (``opt[i, 0]``) for a Special the data declares
KEY = 1 + MAX_SLOTS * CAP  # an option's sort key: definition row * KEY + its place (0: in hand)


@jit
def data_specials(st, q, s, n):
    """Append to ``opt[n:]`` the Specials that player ``q`` may use before slot ``s`` scores, as
    (SP_DATA, card, target or -1); returns the new count. The order is the reference's: by
    definition row (faction, then catalogue order, as its BEFORE table is filled), a card in
    hand offered by its first copy there, copies on other bases in board order, on the scoring
    base the first one unused in this window, and an ``each_target`` card once per target."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    w = tv[T_WINDOW] - 1
    used = (fs[w, F_J] >> q) & 1 != 0  # q has used a once-per-player Special here
    keys = stack_empty(CAP)
    cards = stack_empty(CAP)
    k = 0
    for i in range(ln[L_HAND + q]):
        c = lst[L_HAND + q, i]
        bits = defs[cs[c, C_DEF], D_WINDOW]
        key = cs[c, C_DEF] * KEY
        if bits & WINDOW_HAND == 0 or seen(keys, k, key, key + 1):
            continue
        if not (used and bits & WINDOW_ONCE_PER_PLAYER) and \
                (can_play_actions(st, q) if is_action_card(st, c) else minion_allowed(st, q, c, s)):
            k = insert_sorted(keys, cards, k, key, c)
        else:  # the first copy decides: a later one is not offered in its place
            k = insert_sorted(keys, cards, k, key, -1)
    for t in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, i]
            bits = defs[cs[m, C_DEF], D_WINDOW]
            if bits == 0 or cs[m, C_CTRL] != q or (used and bits & WINDOW_ONCE_PER_PLAYER):
                continue
            key = cs[m, C_DEF] * KEY
            if t != s and bits & WINDOW_ELSEWHERE and affectable(st, m, q, False) and can_move(st, q, m, s):
                k = insert_sorted(keys, cards, k, key + 1 + t * CAP + i, m)
            elif t == s and bits & WINDOW_HERE and not seen(keys, k, key + 1, key + KEY) \
                    and not (bits & WINDOW_ONCE_PER_CARD and used_here(sc, fs, w, m)):
                k = insert_sorted(keys, cards, k, key + 1 + t * CAP + i, m)  # the first unused copy only
    targets = stack_empty(CAP)
    for i in range(k):
        c = cards[i]
        if c < 0:
            continue
        if defs[cs[c, C_DEF], D_WINDOW] & WINDOW_EACH_TARGET == 0:
            opt[n, 0], opt[n, 1], opt[n, 2] = SP_DATA, c, -1
            n += 1
            continue
        for j in range(candidates(st, -1, defs[cs[c, C_DEF], D_PROG + H_SPECIAL], q, c, False, targets)):
            opt[n, 0], opt[n, 1], opt[n, 2] = SP_DATA, c, targets[j]
            n += 1
    return n


@jit_inline
def used_here(sc, fs, w, m):
    """Card ``m``'s once-per-card Special was used in window frame ``w`` (``sc[w, :F_K]``)."""
    for i in range(fs[w, F_K]):
        if sc[w, i] == m:
            return True
    return False


@jit_inline
def seen(keys, k, lo, hi):
    """Some key of ``keys[:k]`` is in [lo, hi)."""
    for i in range(k):
        if lo <= keys[i] < hi:
            return True
    return False


@jit
def chosen(st, d, q, e, a, b):
    """Window frame ``d``: player ``q`` uses the Special of card ``a`` (target ``b`` or -1), run
    by card frame ``e``: its limits are marked, and a target chosen in the window is the frame's
    selection, its selecting step done."""
    cs, defs, fs, sc = st.cs, st.defs, st.fs, st.sc
    bits = defs[cs[a, C_DEF], D_WINDOW]
    if bits & WINDOW_ONCE_PER_PLAYER:
        fs[d, F_J] |= 1 << q
    if bits & WINDOW_ONCE_PER_CARD:
        sc[d, fs[d, F_K]] = a
        fs[d, F_K] += 1
    if bits & WINDOW_EACH_TARGET:
        sc[e, 0], fs[e, F_K], fs[e, F_PC] = b, 1, 1
