"""The before-scoring window's Specials that the card data declares (``window`` and ``special``
in data/effects; ``tables.D_WINDOW``, ``opcodes.WINDOW_*``): which ones a player may use now.
What a Special does is its ``special`` program (``kernel.effects``); whether the baseline uses it
stays its faction module's ``special_want``."""
from balance.core._jit import jit_inline, stack_empty
from balance.core._jit import jit_widened as jit

from .board import affectable, can_move, can_play_actions, is_action_card, minion_allowed
from .layout import C_CTRL, C_DEF, CAP, F_J, L_HAND, L_SMIN, MAX_SLOTS, T_NSLOTS, T_WINDOW, unpack
from .opcodes import WINDOW_ELSEWHERE, WINDOW_HAND, WINDOW_ONCE_PER_PLAYER, WINDOW_ONLY
from .tables import D_WINDOW

SP_DATA = 1  # a window option's code (``opt[i, 0]``) for a Special the data declares
KEY = 1 + MAX_SLOTS * CAP  # an option's sort key: definition row * KEY + its place (0: in hand)


@jit
def data_specials(st, q, s, n):
    """Append to ``opt[n:]`` the Specials of the data that player ``q`` may use before slot ``s``
    scores, as (SP_DATA, card, -1); returns the new count. The order is the reference's: by
    definition row (faction, then catalogue order, as its BEFORE table is filled), a card in
    hand offered by its first copy there, copies in play in board order."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    used = (fs[tv[T_WINDOW] - 1, F_J] >> q) & 1 != 0  # q has used a once-per-player Special here
    keys = stack_empty(CAP)
    cards = stack_empty(CAP)
    k = 0
    for i in range(ln[L_HAND + q]):
        c = lst[L_HAND + q, i]
        bits = defs[cs[c, C_DEF], D_WINDOW]
        if bits & WINDOW_HAND == 0 or seen(keys, k, cs[c, C_DEF] * KEY):
            continue
        if not (used and bits & WINDOW_ONCE_PER_PLAYER) and \
                (can_play_actions(st, q) if is_action_card(st, c) else minion_allowed(st, q, c, s)):
            k = insert(keys, cards, k, cs[c, C_DEF] * KEY, c)
        else:  # the first copy decides: a later one is not offered in its place
            k = insert(keys, cards, k, cs[c, C_DEF] * KEY, -1)
    for t in range(tv[T_NSLOTS]):
        if t == s:
            continue
        for i in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, i]
            bits = defs[cs[m, C_DEF], D_WINDOW]
            if bits & WINDOW_ELSEWHERE and cs[m, C_CTRL] == q and not (used and bits & WINDOW_ONCE_PER_PLAYER) \
                    and affectable(st, m, q, False) and can_move(st, q, m, s):
                k = insert(keys, cards, k, cs[m, C_DEF] * KEY + 1 + t * CAP + i, m)
    for i in range(k):
        if cards[i] >= 0:
            opt[n, 0], opt[n, 1], opt[n, 2] = SP_DATA, cards[i], -1
            n += 1
    return n


@jit_inline
def seen(keys, k, key):
    for i in range(k):
        if keys[i] == key:
            return True
    return False


@jit_inline
def insert(keys, cards, k, key, c):
    """Insert (key, c) into ``keys[:k]``/``cards[:k]`` sorted by key (a few entries); the count."""
    j = k
    while j > 0 and keys[j - 1] > key:
        keys[j], cards[j] = keys[j - 1], cards[j - 1]
        j -= 1
    keys[j], cards[j] = key, c
    return k + 1


@jit_inline
def window_only(st, c):
    """Card ``c`` is played only as a before-scoring Special, never as an ordinary play (Hidden
    Ninja [D25])."""
    return st.defs[st.cs[c, C_DEF], D_WINDOW] & WINDOW_ONLY != 0


@jit_inline
def once_per_player(st, c):
    """Card ``c``'s Special is used at most once per player per scoring (Shinobi [D26])."""
    return st.defs[st.cs[c, C_DEF], D_WINDOW] & WINDOW_ONCE_PER_PLAYER != 0
