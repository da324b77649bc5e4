"""The resolution stack's running side: ``run`` executes frames (``stack``) until the stack is
back where it started. A frame is a procedure and its step: a minion play (enter, on-play,
after-played triggers), an action play (host, effect, discard), a card's resumable ability
(``hooks.card_step``), a grant used at once, a before-scoring window. A finished frame is
marked ``PR_DONE`` and removed when it is on top, so a step may push a frame and finish in the
same call (the pushed frame completes first, exactly as the reference's recursive call would).
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import PROBE, cycles, jit_inline, probe_add, stack_empty
from balance.core.kit import to_front

from .layout import unpack
from . import hooks
from .board import (
    MODE_BASES, MODE_CARDS, R_MODE, active, add_grant, affectable, attach, brownies, can_play_actions,
    count_minion, enter_play, track_triggered,
    is_action_card, pick, protect, protect_on_attach, push, remove, to_discard, touch, use_grant,
)
from .opcodes import PLAY_ALT_HAND, PLAY_MAY
from .layout import (
    C_CTRL, C_DEF, C_ENTERED, C_OWNER, C_SLOT, C_ZONE, CAP, DONE, F_C, F_I, F_K, F_M, F_P, F_PC,
    F_PROC, F_S, F_X, F_Y, GREEDY, H_ACTION, H_AFTER_PLAYED, H_ATTACH, H_ON_PLAY, H_SPECIAL,
    L_DECK, L_DISC, L_HAND, L_SMIN, L_TRIGGERED, O_PLAYED, PB_STEP, P_ACTIONS_PLAYED, P_MINIONS_PLAYED,
    N_PROCEDURES, PR_AFTER_PLAYED, PR_CARD, PR_GRANT_ACTION, PR_GRANT_NOW, PR_LOOKAHEAD, PR_OFFER, PR_PLAY_ACTION,
    PR_PLAY_MINION, PR_WINDOW, S_BASE,
    T_CURRENT, T_ENTRY, T_IN_PHASE, T_NGRANTS, T_NSLOTS, T_PHASE_MIN, T_PLAYERS, T_SP, T_WINDOW, Z_DECK,
    Z_DISCARD, Z_HAND, Z_NONE,
)
from .hosts import host_rule
from .lookahead import look_ahead
from .window import chosen, data_specials
from .stack import greedy_now, minion_moves_now, playable_now, push_base_frame, push_frame, push_move, special_only
from .tables import (
    BS_PROG, D_HOST, D_PLAYON, D_PROG, D_TRIGGERS, PLAYON_BASE, PLAYON_MINION, PLAYON_OWN, TR_AFTER_PLAYED, TR_HERE,
    TR_SPENT,
)

PR_DONE = 99
MAX_WINDOW_STEPS = 1000  # the reference's bound on a before-scoring window


@jit
def finish(st, d):
    st.fs[d, F_PROC] = PR_DONE


@jit
def run(st, base):
    """Execute frames until the stack is back to depth ``base``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    while tv[T_SP] > base:
        d = tv[T_SP] - 1
        proc = fs[d, F_PROC]
        pc = fs[d, F_PC]
        fs[d, F_PC] = pc + 1
        t0 = cycles() if PROBE else 0
        if proc == PR_DONE:
            tv[T_SP] = d
        elif proc == PR_PLAY_MINION:
            if pc == 0:
                enter_minion(st, fs[d, F_P], fs[d, F_C], fs[d, F_S], fs[d, F_X])
            elif pc == 1:
                if rs[R_MODE] & MODE_CARDS:
                    push_frame(st, PR_CARD, fs[d, F_P], fs[d, F_C], fs[d, F_S], H_ON_PLAY)
            elif pc == 2:
                brownies(st, d)  # the own steps are over (``Game.end_play``)
                push_frame(st, PR_AFTER_PLAYED, fs[d, F_P], fs[d, F_C], fs[d, F_S], 0)
            else:
                finish(st, d)
        elif proc == PR_AFTER_PLAYED:  # the base's, then each card's in play (one per step)
            if pc == 0:
                base_after_played(st, fs[d, F_C], fs[d, F_S])
            elif pc == 1:  # the cards in play once the Homeworld's play (if any) is over
                fs[d, F_K] = in_play_by_order(st, sc[d], TR_AFTER_PLAYED) if rs[R_MODE] & MODE_CARDS else 0
            elif pc - 2 < fs[d, F_K]:
                if fs[d, F_K] - (pc - 2) > 1:  # two or more cards left: an order to pick
                    next_reaction(st, d, pc - 2)
                after_played(st, sc[d, pc - 2], fs[d, F_C])
            else:
                finish(st, d)
        elif proc == PR_CARD:
            nxt = hooks.card_step(st, d, fs[d, F_X], pc)
            if nxt == DONE:
                finish(st, d)
            else:
                fs[d, F_PC] = nxt
        elif proc == PR_GRANT_NOW:
            if pc == 0:
                grant_now(st, fs[d, F_P], fs[d, F_X], fs[d, F_S])
            else:
                drop_grant(st, fs[d, F_X], fs[d, F_S])
                finish(st, d)
        elif proc == PR_PLAY_ACTION:
            if pc == 0:
                if not action_starts(st, d):
                    finish(st, d)
            else:
                brownies(st, d)  # the own steps are over (``Game.end_play``)
                if fs[d, F_Y] == 0:  # not attached: to its owner's discard pile
                    to_discard(st, fs[d, F_C])
                finish(st, d)
        elif proc == PR_GRANT_ACTION:
            if pc >= fs[d, F_X] or not action_now(st, fs[d, F_P]):
                finish(st, d)
        elif proc == PR_WINDOW:
            if not window_step(st, d):
                tv[T_WINDOW] = 0
                finish(st, d)
        elif proc == PR_OFFER:
            offer(st, d)
            finish(st, d)
        elif proc == PR_LOOKAHEAD:
            if look_ahead(st, d, pc):
                finish(st, d)
        if PROBE:  # a step that runs frames of its own (``run`` inside it) counts them too
            probe_add(st.probe, PB_STEP + 5 * (N_PROCEDURES if proc == PR_DONE else proc) + min(pc, 4), t0, 0)


# ---- minions -------------------------------------------------------------------------------------
@jit
def enter_minion(st, p, c, s, source):
    """``Game.play_minion`` up to the on-play ability: the card leaves ``source``, enters play."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if source == Z_HAND:
        remove(lst, ln, L_HAND + p, c)
    elif source == Z_DISCARD:
        remove(lst, ln, L_DISC + p, c)
    elif source == Z_DECK:
        remove(lst, ln, L_DECK + p, c)
    tv[T_ENTRY] += 1
    enter_play(st, p, c, s, tv[T_ENTRY])
    track_triggered(st, c, True)
    count_minion(st, c, 1)
    protect(st, c)
    mark_played(st, p, c)
    ps[p, P_MINIONS_PLAYED] += 1
    if tv[T_IN_PHASE] != 0 and p == tv[T_CURRENT]:
        tv[T_PHASE_MIN] += 1


@jit
def mark_played(st, p, c):
    """Seat ``p`` played card ``c`` (its definition row's bit from ``stats[O_PLAYED + 2p]``):
    the reference's log of plays ("play" and "action" entries), for the cards-played table."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    d = cs[c, C_DEF]
    stats[O_PLAYED + 2 * p + (d >> 6)] |= 1 << (d & 63)


@jit
def grant_now(st, p, kind, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    add_grant(st, kind, s)
    n = minion_moves_now(st, p)
    i = pick(st, p, n + 1, greedy_now(st, p, n))
    if i < n:
        push_move(st, p, opt[i, 0], opt[i, 1], opt[i, 2])


@jit
def drop_grant(st, kind, s):
    """The grant offered at once is gone whether used or not."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == kind and gr[i, 1] == s:
            use_grant(st, i)
            return


# ---- after a minion is played ----------------------------------------------------------------------
@jit
def base_after_played(st, m, s):
    """The after_played program of the base minion ``m`` was played on (slot ``s``: The
    Homeworld, §11.1), if it has one and its ability is on: a base frame with ``m``'s
    controller as "me" and ``m`` in ``F_M``, pushed on top (it runs before the cards' triggers)."""
    cs, ss, bases, rs = st.cs, st.ss, st.bases, st.rs
    b = ss[s, S_BASE]
    if (rs[R_MODE] & MODE_BASES) != 0 and bases[b, BS_PROG + H_AFTER_PLAYED] >= 0 and active(st, s):
        d = push_base_frame(st, cs[m, C_CTRL], b, s, H_AFTER_PLAYED)
        st.fs[d, F_M] = m


@jit_inline
def in_play_by_order(st, out, trigger):
    """``cards_in_play_by_order`` of the cards with the ``trigger`` bit (``D_TRIGGERS``):
    minions and attached actions, by controller in turn order from the current player, each by
    entry (after a minion is played, the reactions that use their card up after their
    controller's others: ``TR_SPENT``); returns the count. The cards come from the seats'
    ``L_TRIGGERED`` lists, not from a search of the board: every card in play has its own entry
    (``T_ENTRY``; Hideout's swap passes the leaving card's on), so the sort decides the order
    alone."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for q in range(tv[T_PLAYERS]):
        for i in range(ln[L_TRIGGERED + q]):
            x = lst[L_TRIGGERED + q, i]
            if defs[cs[x, C_DEF], D_TRIGGERS] & trigger:
                out[k] = x
                k += 1
    n, cur = tv[T_PLAYERS], tv[T_CURRENT]
    spent = TR_SPENT if trigger == TR_AFTER_PLAYED else 0  # a reaction that uses its card up: last
    for j in range(1, k):  # insertion sort on (turn-order place of the controller, spent, entry)
        x = out[j]
        kx = ((cs[x, C_CTRL] - cur) % n, defs[cs[x, C_DEF], D_TRIGGERS] & spent, cs[x, C_ENTERED])
        i = j - 1
        while i >= 0 and ((cs[out[i], C_CTRL] - cur) % n, defs[cs[out[i], C_DEF], D_TRIGGERS] & spent,
                          cs[out[i], C_ENTERED]) > kx:
            out[i + 1] = out[i]
            i -= 1
        out[i + 1] = x
    return k


@jit_inline
def reacts_here(st, x, m, s):
    """Card ``x`` reacts to minion ``m`` another player played on ``x``'s own base ``s``."""
    cs, defs = st.cs, st.defs
    return (cs[x, C_CTRL] != cs[m, C_CTRL] and (defs[cs[x, C_DEF], D_TRIGGERS] & TR_HERE) != 0
            and still_in_play(st, x) and cs[x, C_SLOT] == s)


@jit
def next_reaction(st, d, i):
    """``abilities.next_reaction``: before the after-played step ``i`` of frame ``d`` (the
    cards ``sc[d, i:F_K]`` left, in the baseline's order), the controller of ``sc[d, i]`` picks
    which of its cards reacting to the minion played on their base goes next, when it has two
    or more; the pick moves to place ``i`` and the others keep their order."""
    cs, fs, sc = st.cs, st.fs, st.sc
    m, s, k = fs[d, F_C], fs[d, F_S], fs[d, F_K]
    q = cs[sc[d, i], C_CTRL]
    if not reacts_here(st, sc[d, i], m, s):
        return
    places = stack_empty(CAP)  # where the controller's reacting cards are, in order
    n = 0
    for j in range(i, k):
        if cs[sc[d, j], C_CTRL] == q and reacts_here(st, sc[d, j], m, s):
            places[n] = j
            n += 1
    to_front(sc[d], places[pick(st, q, n, 0)], i)


@jit_inline
def still_in_play(st, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if cs[x, C_ZONE] == 4:  # Z_MINION
        return True
    return cs[x, C_ZONE] == 5  # Z_ATTACHED


@jit
def after_played(st, x, m):
    """Card ``x`` in play reacts to minion ``m`` having been played: its ``after_played``
    program runs in a card frame of its controller (``F_M`` holding ``m``), pushed on top."""
    cs, defs = st.cs, st.defs
    if still_in_play(st, x) and defs[cs[x, C_DEF], D_PROG + H_AFTER_PLAYED] >= 0:
        e = push_frame(st, PR_CARD, cs[x, C_CTRL], x, cs[x, C_SLOT], H_AFTER_PLAYED)
        st.fs[e, F_M] = m


# ---- actions ------------------------------------------------------------------------------------
@jit
def action_starts(st, d):
    """``Game.play_action`` up to the effect: a play-on action attaches to the host its
    controller picks (then its arrival hook), another resolves; False if nothing follows."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    p, c, source = fs[d, F_P], fs[d, F_C], fs[d, F_X]
    o = cs[c, C_OWNER]
    if source == Z_DECK:
        remove(lst, ln, L_DECK + o, c)
    else:
        remove(lst, ln, L_HAND + o, c)
    cs[c, C_ZONE] = Z_NONE
    mark_played(st, p, c)
    ps[p, P_ACTIONS_PLAYED] += 1
    kind = defs[cs[c, C_DEF], D_PLAYON]
    rule = defs[cs[c, C_DEF], D_HOST]
    cards = (rs[R_MODE] & MODE_CARDS) != 0
    if kind == PLAYON_BASE:
        if tv[T_NSLOTS] == 0:  # every base scored and none left to replace it: no effect
            to_discard(st, c)
            return False
        hosts = sc[d]
        for s in range(tv[T_NSLOTS]):
            hosts[s] = s
        default = host_rule(st, p, rule, hosts, tv[T_NSLOTS]) if cards and strat[p] == GREEDY else 0
        s = pick(st, p, tv[T_NSLOTS], default)
        tv[T_ENTRY] += 1
        attach(st, c, p, s, -1, tv[T_ENTRY])
        fs[d, F_Y] = 1
        if cards:
            protect_on_attach(st, c)
            push_frame(st, PR_CARD, p, c, s, H_ATTACH)
        return True
    if kind == PLAYON_MINION or kind == PLAYON_OWN:
        hosts = sc[d]
        k = 0
        for s in range(tv[T_NSLOTS]):
            for i in range(ln[L_SMIN + s]):
                m = lst[L_SMIN + s, i]
                if affectable(st, m, p, True) and (kind == PLAYON_MINION or cs[m, C_CTRL] == p):
                    hosts[k] = m
                    k += 1
        if k == 0:
            to_discard(st, c)
            return False
        default = host_rule(st, p, rule, hosts, k) if cards and strat[p] == GREEDY else 0
        h = hosts[pick(st, p, k, default)]
        if not touch(st, h):  # a 2012 Hideout shields the host: no effect
            to_discard(st, c)
            return False
        tv[T_ENTRY] += 1
        attach(st, c, p, cs[h, C_SLOT], h, tv[T_ENTRY])
        fs[d, F_Y] = 1
        if cards:
            protect_on_attach(st, c)
            push_frame(st, PR_CARD, p, c, cs[h, C_SLOT], H_ATTACH)
        return True
    if cards:
        push_frame(st, PR_CARD, p, c, -1, H_ACTION)
    return True


@jit_inline
def action_now(st, p):
    """One extra action used at once (``Game.grant_action`` outside the phase); False when
    none is played (the rest of the grant is lost too)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not can_play_actions(st, p):
        return False
    cards = stack_empty(CAP)
    k = 0
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_action_card(st, c) and not special_only(st, c, tv[T_WINDOW] != 0):
            cards[k] = c
            k += 1
    default = k
    if strat[p] == GREEDY:
        for i in range(k):
            if hooks.want(st, p, cards[i]):
                default = i
                break
    i = pick(st, p, k + 1, default)
    if i == k:
        return False
    push_frame(st, PR_PLAY_ACTION, p, cards[i], -1, Z_HAND)
    return True


@jit
def offer(st, d):
    """A card's PLAY_ACTION (``effects.py``): action card ``fs[d, F_C]``, in list ``F_X`` (the
    deck or the hand of player ``F_P``), with the step's options ``F_S`` (``opcodes.PLAY_*``): into the hand
    (PLAY_ALT_HAND), played at once while ``p`` may play it, declined (PLAY_MAY: it stays), in
    that order. The baseline plays it when it wants to (``hooks.want``, above the interpreter),
    else puts it into the hand, else declines. Neophyte: ``Game``'s ``neophyte``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    p, c, flags, li = fs[d, F_P], fs[d, F_C], fs[d, F_S], fs[d, F_X]
    hand = (flags & PLAY_ALT_HAND) != 0
    play = playable_now(st, p, c)
    n = (1 if hand else 0) + (1 if play else 0) + (1 if flags & PLAY_MAY else 0)
    if n == 0:
        return
    yes = 1 if hand else 0  # the index of "play"
    default = 0 if hand else n - 1
    if play and strat[p] == GREEDY and hooks.want(st, p, c):
        default = yes
    i = pick(st, p, n, default)
    if hand and i == 0:
        remove(lst, ln, li, c)
        push(lst, ln, L_HAND + p, c)
        cs[c, C_ZONE] = Z_HAND
    elif play and i == yes:
        push_frame(st, PR_PLAY_ACTION, p, c, -1, Z_DECK if li < L_HAND else Z_HAND)


# ---- the before-scoring window ----------------------------------------------------------------------
@jit
def window_step(st, d):
    """One player's turn in the window (§1.2): a Special or a pass; False once every player
    has passed in succession."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    s = fs[d, F_S]
    if fs[d, F_Y] >= n or fs[d, F_I] >= MAX_WINDOW_STEPS:
        return False
    tv[T_WINDOW] = d + 1
    q = (tv[T_CURRENT] + fs[d, F_I]) % n
    fs[d, F_I] += 1
    k = data_specials(st, q, s, 0) if rs[R_MODE] & MODE_CARDS else 0
    default = k
    if strat[q] == GREEDY:
        for i in range(k):
            if hooks.special_want(st, q, s, opt[i, 1], opt[i, 2]):
                default = i
                break
    i = pick(st, q, k + 1, default)
    if i == k:
        fs[d, F_Y] += 1
        return True
    fs[d, F_Y] = 0
    e = push_frame(st, PR_CARD, q, opt[i, 1], s, H_SPECIAL)
    chosen(st, d, q, e, opt[i, 1], opt[i, 2])
    return True

