"""The resolution stack's pushing side: what a card does when it plays another card at once.

A play inside a play (Hoverbot's revealed minion, a grant used at once, Neophyte's action ...)
must finish before the card that started it goes on. The reference recurses; numba cannot cache
recursive functions, so such a play is a frame pushed on ``fs`` that ``vm.run`` executes. A card
function that pushes a frame returns the step it continues at (never ``DONE`` in the same call:
its own frame is under the new one). Nothing here runs a frame; card modules import this.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import jit_inline, stack_empty

from .layout import unpack
from .baseline import greedy_minion
from .board import add_grant, can_play_actions, grant_for, hand_play_open, is_minion_card, minion_allowed, use_grant
from .layout import (
    CAP, MAX_SLOTS, PR_CARD, PR_GRANT_ACTION, PR_GRANT_NOW, PR_PLAY_ACTION, PR_PLAY_MINION,
    C_DEF, F_C, F_P, F_PROC, F_S, F_X, G_DISC, GREEDY, L_DISC, L_HAND, MV_DISCARD, MV_HAND,
    MV_TENACIOUS, P_TENACIOUS_Z, T_CURRENT, T_EXTRA_ACT, T_IN_PHASE, T_NGRANTS, T_NSLOTS, T_SP, T_TENACIOUS, T_WINDOW,
    Z_DISCARD, Z_HAND,
)
from .names import N_TENACIOUS_Z
from .opcodes import WINDOW_ONLY
from .tables import D_NAME, D_WINDOW


@jit
def push_frame(st, proc, p, c, s, x):
    """Push a frame; returns its depth (``sc[depth]`` is its scratch list)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    d = tv[T_SP]
    fs[d, :] = 0
    fs[d, F_PROC], fs[d, F_P], fs[d, F_C], fs[d, F_S], fs[d, F_X] = proc, p, c, s, x
    tv[T_SP] = d + 1
    return d


@jit
def push_base_frame(st, p, b, s, hook):
    """Push a frame running base ``b``'s program for ``hook`` (the base in slot ``s``, or for
    H_AFTER_REPLACED the base that was there) with ``p`` as "me": a card frame without a card,
    its ``F_C`` -1 - (s + MAX_SLOTS * b) (``kernel.effects.here_of`` and ``frame_base`` decode
    it). Returns its depth."""
    return push_frame(st, PR_CARD, p, -1 - (s + MAX_SLOTS * b), s, hook)


@jit
def play_minion_now(st, p, c, s, source):
    """Play minion card ``c`` from ``source`` (a zone) onto slot ``s`` at once (no grant used)."""
    push_frame(st, PR_PLAY_MINION, p, c, s, source)


@jit
def play_action_now(st, p, c, source):
    """``p`` plays action card ``c`` at once from ``source`` (Z_HAND or Z_DECK of its owner);
    ``p`` controls it (Mass Enchantment plays another player's card)."""
    push_frame(st, PR_PLAY_ACTION, p, c, -1, source)


@jit
def push_move(st, p, kind, c, s):
    """Start a minion play of the Play Cards phase or of a grant (``Game.do_move``'s minion
    kinds): the grant is used now, the play resolves when ``run`` gets to it."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if kind == MV_TENACIOUS:
        tv[T_TENACIOUS] = 1
        push_frame(st, PR_PLAY_MINION, p, c, s, Z_DISCARD)
        return
    use_grant(st, grant_for(st, p, c, s, kind == MV_DISCARD))
    push_frame(st, PR_PLAY_MINION, p, c, s, Z_HAND if kind == MV_HAND else Z_DISCARD)


@jit
def grant_minion(st, p, kind, s):
    """``Game.grant_minion``: in the receiver's Play Cards phase the grant stays open; anywhere
    else it is offered at once (a frame). Returns True when a frame was pushed."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT]:
        add_grant(st, kind, s)
        return False
    push_frame(st, PR_GRANT_NOW, p, -1, s, kind)
    return True


@jit
def grant_action(st, p, k):
    """``Game.grant_action``: ``k`` extra action plays; outside the receiver's Play Cards phase
    each is used at once or lost (a frame). Returns True when a frame was pushed."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT]:
        tv[T_EXTRA_ACT] += k
        return False
    push_frame(st, PR_GRANT_ACTION, p, -1, -1, k)
    return True


@jit
def add_option(opt, n, kind, c, s):
    opt[n, 0] = kind
    opt[n, 1] = c
    opt[n, 2] = s
    return n + 1


@jit_inline
def minion_cards(st, p, kinds, cards):
    """The cards ``p`` may try to play as a Play Cards minion move, in ``Game.minion_moves``'
    order, whether or not a base takes them: its minion cards in hand (``MV_HAND``), in its
    discard pile with a discard grant open (``MV_DISCARD``), and its first Tenacious Z there in
    its own phase (``MV_TENACIOUS``). Fills ``kinds`` and ``cards`` (int64[CAP]); returns the
    count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    if tv[T_NGRANTS] > 0 or hand_play_open(st, p):  # else no grant nor the free play fits a card
        for i in range(ln[L_HAND + p]):
            c = lst[L_HAND + p, i]
            if is_minion_card(st, c):
                kinds[k], cards[k] = MV_HAND, c
                k += 1
    has_disc = False
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == G_DISC:
            has_disc = True
    if has_disc:
        for i in range(ln[L_DISC + p]):
            c = lst[L_DISC + p, i]
            if is_minion_card(st, c):
                kinds[k], cards[k] = MV_DISCARD, c
                k += 1
    if ps[p, P_TENACIOUS_Z] != 0 and tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT] and tv[T_TENACIOUS] == 0:
        for i in range(ln[L_DISC + p]):
            c = lst[L_DISC + p, i]
            if defs[cs[c, C_DEF], D_NAME] == N_TENACIOUS_Z:
                kinds[k], cards[k] = MV_TENACIOUS, c
                k += 1
                break
    return k


@jit_inline
def card_slots(st, p, kind, c, slots):
    """The slots, in order, onto which ``p`` may play minion card ``c`` as a move of ``kind``
    (``minion_cards``; from hand a grant or the free play must fit it) into ``slots``
    (int64[MAX_SLOTS]); returns the count."""
    k = 0
    for s in range(st.tv[T_NSLOTS]):
        if minion_allowed(st, p, c, s) and (kind != MV_HAND or grant_for(st, p, c, s, False) != -1):
            slots[k] = s
            k += 1
    return k


@jit
def minion_moves(st, p, n):
    """``Game.minion_moves`` appended to ``opt`` from row ``n``; returns the new count."""
    opt = st.opt
    kinds = stack_empty(CAP)
    cards = stack_empty(CAP)
    slots = stack_empty(MAX_SLOTS)
    for i in range(minion_cards(st, p, kinds, cards)):
        for j in range(card_slots(st, p, kinds[i], cards[i], slots)):
            n = add_option(opt, n, kinds[i], cards[i], slots[j])
    return n


@jit
def minion_moves_now(st, p):
    """The plays a grant used at once may make: ``minion_moves`` without Tenacious Z."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = minion_moves(st, p, 0)
    k = 0
    for i in range(n):
        if opt[i, 0] != MV_TENACIOUS:
            opt[k, 0], opt[k, 1], opt[k, 2] = opt[i, 0], opt[i, 1], opt[i, 2]
            k += 1
    return k


@jit
def greedy_now(st, p, n):
    """The baseline's pick among ``n`` minion plays made at once (``greedy_minion``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if n > 0 and strat[p] == GREEDY:
        return greedy_minion(st, p, 0, n)
    return 0


@jit_inline
def special_only(st, c, in_window):
    """A card played only as a before-scoring Special (``window = "hand only"``: Hidden Ninja
    [D25]), outside a window: not playable."""
    return st.defs[st.cs[c, C_DEF], D_WINDOW] & WINDOW_ONLY != 0 and not in_window


@jit
def playable_now(st, p, c):
    """May ``p`` play action card ``c`` at once (Neophyte, Mass Enchantment; Mark of Sleep [D36],
    Hidden Ninja [D25])?"""
    return can_play_actions(st, p) and not special_only(st, c, st.tv[T_WINDOW] != 0)



