"""The kernel's game: setup, the Play Cards phase, scoring, the turn and the end.

Mirrors reference/game.py (``Game.setup``, ``play_phase``, ``score_phase``, ``score_base``,
``take_turn``) and the baseline's choices of reference/baseline.py. A choice is made by
``pick``: the seat's strategy takes the baseline's index (``GREEDY``) or draws uniformly from
the seat's stream (``RANDOM``); one option is taken without a draw, as in the reference. A
greedy seat's Play Cards move comes from ``greedy_choice`` without the list of every legal
move (a greedy seat draws no number, so only the move matters).

The phases and the other functions above ``vm.run``, each called from one place, are
``jit_inline``: compiled into ``play_game``. As libraries of their own, each made numba
re-optimise the VM's whole closure in the cold compile (docs/ARCHITECTURE.md, "What a cold
compile costs"); ``run`` itself, called from several of them, stays one library.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import PROBE, cycles, jit_inline, probe_add, stack_empty, stack_zeros

from .layout import unpack
from .bases import after_scoring, scoring_vp
from .baseline import minion_key, place
from .board import (
    MODE_BASES, MODE_CARDS, R_MODE, R_DRAW, use_grant, R_HAND_LIMIT, R_MAX_TURNS, R_MULLIGAN,
    R_OPENING_HAND, R_PLAYERS, R_START_VP, R_VP_TO_WIN, active,
    can_play_actions, discard_attached, discard_choice, draw, is_action_card, is_minion_card,
    insert_sorted, leave, pick, places, pop, position, push, remove, shuffle, to_discard, vp_now,
    CNT_N, breakpoint_of, power_counts, slot_power,
)
from .layout import (
    PR_CARD, PR_PLAY_ACTION, PR_WINDOW,
    BST_DECIDED, BST_ENTERED, BST_N, BST_SCORED, BST_TURNS, BST_TURNS_SQ, BST_VP1, O_BASE, O_LAST, O_TURNS,
    O_VP, O_WINNER, S_N, CAP, C_BUCC, C_CTRL, C_DEF, C_HOST, C_OWNER, C_SLOT, C_STEGO, C_TALENT, C_TEMP, C_ZONE, DECK,
    GREEDY, L_ATT, L_BDECK, L_BDISC, L_DECK, L_HAND, L_SACT, L_SMIN, MV_ACTION, MV_DISCARD, MV_END, MV_HAND,
    MV_TENACIOUS, P_ACTIONS_PLAYED, P_BASES_USED, P_MINIONS_PLAYED, P_SLEEP_BY, P_SLEEP_MODE, P_VP,
    S_BASE, S_CANCEL, S_REDUCTION, S_SINCE, S_TARPITS, SLEEP_NONE, T_CURRENT, T_RUNNERS, T_EXTRA_ACT, T_FREE_ACT,
    T_FREE_MIN, T_IN_PHASE, T_NGRANTS, T_NSLOTS, T_PHASE_MIN, T_PLAYERS, T_MICROBOTS, T_RAPTORS, T_FACTIONS, T_SP,
    T_TENACIOUS,
    T_TURNS, Z_DECK, Z_DISCARD, Z_HAND, Z_MINION, Z_NONE, G_ANY, H_AFTER_DISCARDED, H_AFTER_REPLACED,
    H_AFTER_SCORING, H_END, H_START, H_TALENT,
    MV_TALENT, MV_CTGY, K_DUAL, T_MEMO, T_MEMO_P, MAX_PLAYERS, MAX_SLOTS, L_TRIGGERED, P_TENACIOUS_Z, Z_ATTACHED,
    PB_CHOICE, PB_END, PB_MINION, PB_MOVE, PB_PLAY, PB_SCORE, PB_SETUP, PB_START, PB_TALENTS, PB_WANT,
)
from .names import N_MICROBOT_ALPHA, N_MICROBOT_FIXER, N_TENACIOUS_Z
from .triggers import leaf
from .tables import (
    BS_PROG, BS_VP0, D_FACTION, D_KIND, D_NAME, D_PER_NAME, D_PROG, D_TRIGGERS, TR_END, TR_START, TR_TALENT,
)
from . import hooks
from .stack import (
    add_option, card_slots, minion_cards, minion_moves, play_minion_now, push_base_frame, push_frame, push_move,
    special_only,
)
from .vm import in_play_by_order, run, still_in_play

R_ACTION_PLAYS_, R_MINION_PLAYS_ = 3, 2  # board's R_ACTION_PLAYS, R_MINION_PLAYS
MAX_PLAY_STEPS = 200  # the reference's bound on Play Cards moves in one turn


# ---- setup ----------------------------------------------------------------------------------
@jit
def setup(st, deck_defs):
    """Decks, bases, opening hands and the mulligan (``Game.setup``); ``deck_defs int64[P, 40]``:
    each seat's two factions' cards as definition rows, in catalogue order. A row ``-1 - d``
    is card ``d`` removed from the game (card strength): it is shuffled with the deck and then
    taken out, so the shuffle draws the same numbers as the game without the removal and the
    rest of the deck keeps its order (the paired games stay equal until the card's turn comes)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = rs[R_PLAYERS]
    ln[:] = 0
    for p in range(n):
        for k in range(DECK):
            c = p * DECK + k
            d = deck_defs[p, k]
            cs[c, :] = 0
            cs[c, C_DEF] = d if d >= 0 else -1 - d
            cs[c, C_OWNER] = p
            cs[c, C_ZONE] = Z_DECK
            cs[c, C_SLOT] = -1
            push(lst, ln, L_DECK + p, c)
        shuffle(lst, ln, L_DECK + p, states)
        for k in range(DECK):
            if deck_defs[p, k] < 0:
                c = p * DECK + k
                remove(lst, ln, L_DECK + p, c)
                cs[c, C_ZONE] = Z_NONE  # out of the game: no list holds it
    for b in range(bases.shape[0]):
        push(lst, ln, L_BDECK, b)
    shuffle(lst, ln, L_BDECK, states)
    tv[:] = 0
    tv[T_PLAYERS] = n
    for c in range(n * DECK):  # what this game's decks hold (a removed card is out of the game)
        if cs[c, C_ZONE] != Z_DECK:
            continue
        d = cs[c, C_DEF]
        if defs[d, D_NAME] == N_MICROBOT_ALPHA or defs[d, D_NAME] == N_MICROBOT_FIXER:
            tv[T_MICROBOTS] = 1
        if defs[d, D_PER_NAME] != 0:
            tv[T_RAPTORS] = 1
        tv[T_FACTIONS] |= 1 << defs[d, D_FACTION]
    tv[T_NSLOTS] = rs[8]  # R_BASES_IN_PLAY
    for s in range(tv[T_NSLOTS]):
        ss[s, :] = 0
        ss[s, S_BASE] = pop(lst, ln, L_BDECK)
        stats[O_BASE + ss[s, S_BASE] * BST_N + BST_ENTERED] += 1
    ps[:, :] = 0
    for p in range(n):
        ps[p, P_VP] = rs[R_START_VP + p]
    for c in range(n * DECK):
        if cs[c, C_ZONE] == Z_DECK and defs[cs[c, C_DEF], D_NAME] == N_TENACIOUS_Z:
            ps[cs[c, C_OWNER], P_TENACIOUS_Z] = 1
    reset_turn(st)
    for p in range(n):
        draw(st, p, rs[R_OPENING_HAND + p])
        if rs[R_MULLIGAN] != 0 and not hand_has_minion(st, p):
            if pick(st, p, 2, 0) == 0:
                while ln[L_HAND + p] > 0:
                    c = lst[L_HAND + p, 0]
                    remove(lst, ln, L_HAND + p, c)
                    to_discard(st, c)
                draw(st, p, rs[R_OPENING_HAND + p])


@jit
def hand_has_minion(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for i in range(ln[L_HAND + p]):
        if is_minion_card(st, lst[L_HAND + p, i]):
            return True
    return False


@jit
def reset_turn(st):
    """``Game._reset_turn``: fresh plays, no grants, per-turn counters and uses cleared."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    tv[T_FREE_MIN] = rs[R_MINION_PLAYS_]
    tv[T_FREE_ACT] = rs[R_ACTION_PLAYS_]
    tv[T_NGRANTS] = 0
    tv[T_EXTRA_ACT] = 0
    tv[T_PHASE_MIN] = 0
    tv[T_IN_PHASE] = 0
    tv[T_TENACIOUS] = 0
    for p in range(tv[T_PLAYERS]):
        ps[p, P_MINIONS_PLAYED] = 0
        ps[p, P_ACTIONS_PLAYED] = 0
        ps[p, P_BASES_USED] = 0


# ---- the Play Cards phase ---------------------------------------------------------------------
@jit
def play_moves(st, p):
    """``Game.play_moves``: every legal move in order, the last one ending the phase."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = minion_moves(st, p, 0)
    if (tv[T_FREE_ACT] > 0 or tv[T_EXTRA_ACT] > 0) and can_play_actions(st, p):
        for i in range(ln[L_HAND + p]):
            c = lst[L_HAND + p, i]
            if is_action_card(st, c) and not special_only(st, c, False):
                n = add_option(opt, n, MV_ACTION, c, -1)
    if rs[R_MODE] & MODE_CARDS:
        n = talent_moves(st, p, n)
        n = hooks.extra_moves(st, p, n)
    return add_option(opt, n, MV_END, -1, -1)


@jit
def talent_moves(st, p, n):
    """Usable talents of ``p``'s cards in play in the reference's order: minions (board order),
    then actions on bases, then actions on minions. The seat's cards in play with a talent are
    in list ``L_TRIGGERED + p`` (a few at most), so the board is not searched for them: the
    usable ones are sorted by ``board_order``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    keys = stack_empty(CAP)
    cards = stack_empty(CAP)
    k = 0
    for i in range(ln[L_TRIGGERED + p]):
        x = lst[L_TRIGGERED + p, i]
        if not talent_ready(st, p, x):
            continue
        k = insert_sorted(keys, cards, k, board_order(st, x), x)
    for i in range(k):
        n = add_option(opt, n, MV_TALENT, cards[i], cs[cards[i], C_SLOT])
    return n


@jit_inline
def board_order(st, x):
    """Card ``x``'s place on the board as one number, ordered as ``talent_moves`` lists them:
    (minion, action on a base, action on a minion), slot, its place on its list (an action on a
    minion: its host's place, then its own on the host)."""
    cs, lst, ln = st.cs, st.lst, st.ln
    s = cs[x, C_SLOT]
    if cs[x, C_ZONE] != Z_ATTACHED:
        return (s * CAP + position(lst, ln, L_SMIN + s, x)) * CAP
    h = cs[x, C_HOST]
    if h < 0:
        return ((MAX_SLOTS + s) * CAP + position(lst, ln, L_SACT + s, x)) * CAP
    return ((2 * MAX_SLOTS + s) * CAP + position(lst, ln, L_SMIN + s, h)) * CAP + position(lst, ln, L_ATT + h, x)


@jit_inline
def talent_ready(st, p, x):
    """Card ``x`` of ``L_TRIGGERED + p`` (``p``'s, in play, with a trigger) has a talent ``p``
    may use now: it has one, unused this turn, and usable."""
    cs = st.cs
    return (st.defs[cs[x, C_DEF], D_TRIGGERS] & TR_TALENT) != 0 and cs[x, C_TALENT] == 0 \
        and hooks.talent_usable(st, p, x)


@jit_inline
def greedy_play(st, p):
    """``greedy_choice`` with the board reading kept for this one choice (``T_MEMO``): the
    board does not change while it asks wants and hosts."""
    tv = st.tv
    tv[T_MEMO], tv[T_MEMO_P] = 1, p
    t0 = cycles() if PROBE else 0
    kind, c, s = greedy_choice(st, p)
    if PROBE:
        probe_add(st.probe, PB_CHOICE, t0, 0)
    tv[T_MEMO] = 0
    return kind, c, s


@jit_inline
def greedy_choice(st, p):
    """The baseline's Play Cards move (``greedy_play``) as (kind, card, slot): a wanted talent,
    a wanted extra move (They're Coming To Get You), a minion, the first wanted action in hand,
    else (``MV_END``, -1, -1).

    It asks the same wants in the same order as a choice over ``play_moves``' whole list, but
    lists only what it asks about: a greedy seat draws no number, so the list's length and
    order never matter, and listing every minion card's every base was the greedy turn's
    largest cost after its board readings."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if rs[R_MODE] & MODE_CARDS:
        t0 = cycles() if PROBE else 0
        kind, c, s = wanted_talent_or_extra(st, p)
        if PROBE:
            probe_add(st.probe, PB_TALENTS, t0, 1 if kind >= 0 else 0)
        if kind >= 0:
            return kind, c, s
    t0 = cycles() if PROBE else 0
    kind, c, s = greedy_minion_move(st, p)
    if PROBE:
        probe_add(st.probe, PB_MINION, t0, 1 if kind >= 0 else 0)
    if kind >= 0:
        return kind, c, s
    if (tv[T_FREE_ACT] > 0 or tv[T_EXTRA_ACT] > 0) and can_play_actions(st, p):
        for i in range(ln[L_HAND + p]):
            c = lst[L_HAND + p, i]
            if is_action_card(st, c) and not special_only(st, c, False):
                t0 = cycles() if PROBE else 0
                yes = hooks.want(st, p, c)
                if PROBE:
                    probe_add(st.probe, PB_WANT + defs[cs[c, C_DEF], D_NAME], t0, 1 if yes else 0)
                if yes:
                    return MV_ACTION, c, -1
    return MV_END, -1, -1


@jit_inline
def wanted_talent_or_extra(st, p):
    """``greedy_choice``'s first question: a talent it wants to use, else an extra move (They're
    Coming To Get You) it wants, as (kind, card, slot); (-1, -1, -1): none."""
    opt = st.opt
    n = talent_moves(st, p, 0)
    for i in range(n):
        if hooks.talent_want(st, p, opt[i, 1]):
            return MV_TALENT, opt[i, 1], opt[i, 2]
    n = hooks.extra_moves(st, p, 0)
    for i in range(n):
        if opt[i, 0] == MV_CTGY and hooks.extra_want(st, p, i):
            return MV_CTGY, opt[i, 1], opt[i, 2]
    return -1, -1, -1


@jit_inline
def greedy_minion_move(st, p):
    """``baseline.greedy_minion`` over the Play Cards minion moves, without listing them: the
    card by its key among the cards some base takes (a Pixie whose own default is its action
    mode is not played as a minion while an action play is open to it, §7.5 Default), then its
    base by PLACE. The cards are
    tried lowest key first (ties: the earlier), so only the card played has its bases looked
    up, unless a better one is refused. (-1, -1, -1): no minion move."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    kinds = stack_empty(CAP)
    cards = stack_empty(CAP)
    slots = stack_empty(MAX_SLOTS)
    first = ps[p, P_MINIONS_PLAYED] == 0
    # a Pixie is kept for its action only when it can be played as one now
    action_open = (tv[T_FREE_ACT] > 0 or tv[T_EXTRA_ACT] > 0) and can_play_actions(st, p)
    n = minion_cards(st, p, kinds, cards)
    for _ in range(n):
        best = -1
        bk = (0, 0, 0)
        for i in range(n):
            if kinds[i] >= 0:  # not refused yet
                k = minion_key(st, first, cards[i], kinds[i])
                if best < 0 or k < bk:
                    best, bk = i, k
        if best < 0:
            break
        c = cards[best]
        # (only a Pixie in hand can be played as an action: one from the discard is a minion)
        dual = defs[cs[c, C_DEF], D_KIND] == K_DUAL
        if not (dual and kinds[best] == MV_HAND and action_open and hooks.want(st, p, c)):
            ns = card_slots(st, p, kinds[best], c, slots)
            if ns > 0:
                return kinds[best], c, slots[place(st, p, c, False, slots, ns)]
        kinds[best] = -1  # refused: no base takes it, or a Pixie kept for its action
    return -1, -1, -1


@jit_inline
def do_move(st, p, kind, c, s):
    """``Game.do_move``: the move's resolution runs on the stack until it is complete."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    base = tv[T_SP]
    if kind == MV_HAND or kind == MV_DISCARD or kind == MV_TENACIOUS:
        push_move(st, p, kind, c, s)
    elif kind == MV_ACTION:
        if tv[T_EXTRA_ACT] > 0:
            tv[T_EXTRA_ACT] -= 1
        else:
            tv[T_FREE_ACT] -= 1
        push_frame(st, PR_PLAY_ACTION, p, c, -1, Z_HAND)
    elif kind == MV_TALENT:
        cs[c, C_TALENT] = 1
        push_frame(st, PR_CARD, p, c, s, H_TALENT)
    elif kind == MV_CTGY:  # They're Coming To Get You (c the minion card, s the attached action)
        use_ctgy(st, p, c, s)
    run(st, base)


@jit
def use_ctgy(st, p, c, a):
    """``do_move`` "ctgy": the free play or a generic M grant; the action's once a turn used."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    g = -2
    for i in range(tv[T_NGRANTS]):
        if gr[i, 0] == G_ANY:
            g = i
            break
    use_grant(st, g)
    cs[a, C_TALENT] = 1
    play_minion_now(st, p, c, cs[a, C_SLOT], Z_DISCARD)


@jit_inline
def play_phase(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    tv[T_IN_PHASE] = 1
    for _ in range(MAX_PLAY_STEPS):
        if strat[p] == GREEDY:
            kind, c, s = greedy_play(st, p)
        else:
            i = pick(st, p, play_moves(st, p), 0)
            kind, c, s = opt[i, 0], opt[i, 1], opt[i, 2]
        if kind == MV_END:
            break
        t0 = cycles() if PROBE else 0
        do_move(st, p, kind, c, s)
        if PROBE:
            probe_add(st.probe, PB_MOVE + kind, t0, 0)
    tv[T_IN_PHASE] = 0
    tv[T_NGRANTS] = 0  # unused grants end with the phase (§1.5)
    tv[T_EXTRA_ACT] = 0


# ---- scoring ------------------------------------------------------------------------------------
@jit_inline
def score_phase(st):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    rdy = stack_empty(16)
    now = stack_empty(4)
    cnt = stack_empty(CNT_N)
    pw = stack_empty(MAX_PLAYERS)
    while True:
        k = 0
        power_counts(st, cnt)  # ``ready`` for every slot, the board's counts taken once
        for s in range(tv[T_NSLOTS]):
            if slot_power(st, s, cnt, pw) >= breakpoint_of(st, s):
                rdy[k] = s
                k += 1
        if k == 0:
            return
        cur = tv[T_CURRENT]
        best, bv = 0, -1
        for i in range(k):  # the current player's VP from it, highest first; ties: lower slot
            vp_now(st, rdy[i], now)
            if now[cur] > bv:
                best, bv = i, now[cur]
        s = rdy[pick(st, cur, k, best)]
        base = tv[T_SP]
        push_frame(st, PR_WINDOW, cur, -1, s, 0)
        run(st, base)
        score_base(st, s)


@jit_inline
def score_base(st, s):
    """``Game.score_base`` (§1.8): places and VP, the base's hooks, discards, replacement."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    cur = tv[T_CURRENT]
    pw = stack_empty(4)
    place = stack_empty(4)
    gained = stack_zeros(4)
    winners = stack_empty(4)
    places(st, s, pw, place)
    is_active = active(st, s) and (rs[R_MODE] & MODE_BASES) != 0
    b = ss[s, S_BASE]
    for p in range(n):
        if 0 <= place[p] < 3:
            gained[p] += bases[b, BS_VP0 + place[p]]
    if is_active:
        scoring_vp(st, s, place, gained)
    for p in range(n):
        ps[p, P_VP] += gained[p]
    count_scored(st, s, place, gained)
    nw = 0
    tv[T_RUNNERS] = 0  # a bit per turn-order position (a base's FOR runners_up)
    for o in range(n):
        p = (cur + o) % n
        if place[p] == 0:
            winners[nw] = p
            nw += 1
        elif place[p] == 1:
            tv[T_RUNNERS] |= 1 << o
    choice = -1
    if is_active and bases[b, BS_PROG + H_AFTER_SCORING] >= 0:  # the base's program (bases.toml)
        base_program(st, cur, b, s, H_AFTER_SCORING)
    elif is_active:
        choice = after_scoring(st, s, winners, nw)
    if rs[R_MODE] & MODE_CARDS:  # after-scoring Specials (Scout, First Mate), in turn order
        after_specials(st, s)
    while ln[L_SMIN + s] > 0:
        m = lst[L_SMIN + s, 0]
        leave(st, m)
        to_discard(st, m)
        if rs[R_MODE] & MODE_CARDS and defs[cs[m, C_DEF], D_PROG + H_AFTER_DISCARDED] >= 0:  # Gremlin
            leaf(st, defs[cs[m, C_DEF], D_PROG + H_AFTER_DISCARDED], cs[m, C_OWNER], s)
    while ln[L_SACT + s] > 0:
        discard_attached(st, lst[L_SACT + s, 0])
    push(lst, ln, L_BDISC, b)
    if choice >= 0:
        new = choice
    elif ln[L_BDECK] > 0:
        new = pop(lst, ln, L_BDECK)
    else:
        remove_slot(st, s)
        return
    ss[s, :] = 0
    ss[s, S_BASE] = new
    ss[s, S_SINCE] = tv[T_TURNS]
    stats[O_BASE + new * BST_N + BST_ENTERED] += 1
    if is_active and bases[b, BS_PROG + H_AFTER_REPLACED] >= 0:  # the old base's (Tortuga)
        base_program(st, cur, b, s, H_AFTER_REPLACED)


@jit
def base_program(st, p, b, s, hook):
    """Run base ``b``'s program for ``hook`` (bases.toml) to its end, "here" slot ``s``, "me"
    seat ``p`` (``stack.push_base_frame``)."""
    sp = st.tv[T_SP]
    push_base_frame(st, p, b, s, hook)
    run(st, sp)


@jit
def count_scored(st, s, place, gained):
    """The scored base's counters in ``stats`` (place, gained: int64[4] per seat)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    b = ss[s, S_BASE]
    row = O_BASE + b * BST_N
    turns = tv[T_TURNS] - ss[s, S_SINCE]
    stats[row + BST_SCORED] += 1
    stats[row + BST_TURNS] += turns
    stats[row + BST_TURNS_SQ] += turns * turns
    for p in range(tv[T_PLAYERS]):
        if 0 <= place[p] < 3:
            stats[row + BST_VP1 + place[p]] += gained[p]
        if gained[p] > 0:
            stats[O_LAST + p] = b


@jit_inline
def after_specials(st, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    mine = stack_empty(CAP)
    for o in range(tv[T_PLAYERS]):
        q = (tv[T_CURRENT] + o) % tv[T_PLAYERS]
        k = 0
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if cs[m, C_CTRL] == q:
                mine[k] = m
                k += 1
        for i in range(k):
            m = mine[i]
            if cs[m, C_ZONE] == Z_MINION and cs[m, C_SLOT] == s \
                    and defs[cs[m, C_DEF], D_PROG + H_AFTER_SCORING] >= 0:
                base = tv[T_SP]
                push_frame(st, PR_CARD, q, m, s, H_AFTER_SCORING)
                run(st, base)


@jit
def remove_slot(st, s):
    """The scored base is not replaced: later slots move down one (their cards with them)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    last = tv[T_NSLOTS] - 1
    for t in range(s, last):
        for k in range(S_N):  # column by column: an array copy would need the NRT
            ss[t, k] = ss[t + 1, k]
        for li in (L_SMIN, L_SACT):
            ln[li + t] = ln[li + t + 1]
            for i in range(ln[li + t]):
                c = lst[li + t + 1, i]
                lst[li + t, i] = c
                cs[c, C_SLOT] = t
                for j in range(ln[L_ATT + c]):
                    cs[lst[L_ATT + c, j], C_SLOT] = t
    ln[L_SMIN + last] = 0
    ln[L_SACT + last] = 0
    tv[T_NSLOTS] = last


# ---- the turn ----------------------------------------------------------------------------------
@jit_inline
def start_of_turn(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if cs[m, C_CTRL] == p:
                cs[m, C_STEGO] = 0
    for q in range(tv[T_PLAYERS]):
        if ps[q, P_SLEEP_MODE] != SLEEP_NONE and ps[q, P_SLEEP_BY] == p:
            ps[q, P_SLEEP_MODE] = SLEEP_NONE
    for s in range(tv[T_NSLOTS]):
        ss[s, S_CANCEL] &= ~(1 << p)
    if rs[R_MODE] & MODE_CARDS:
        edge_hooks(st, p, True)
    if rs[R_MODE] & MODE_BASES:  # the bases' start-of-turn programs, slot order (Mushroom Kingdom)
        for s in range(tv[T_NSLOTS]):
            b = ss[s, S_BASE]
            if bases[b, BS_PROG + H_START] >= 0 and active(st, s):
                base_program(st, p, b, s, H_START)


@jit_inline
def edge_hooks(st, p, starting):
    """Start-of-turn abilities of ``p``'s cards, or end-of-turn abilities of every card, in
    ``cards_in_play_by_order`` (§1.7): each card's data program (``start``, ``end``) runs in a
    card frame of its controller, finished before the next card's."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    order = stack_empty(CAP)
    k = in_play_by_order(st, order, TR_START if starting else TR_END)
    hook = H_START if starting else H_END
    for i in range(k):
        x = order[i]
        if still_in_play(st, x) and (not starting or cs[x, C_CTRL] == p) \
                and defs[cs[x, C_DEF], D_PROG + hook] >= 0:
            base = tv[T_SP]
            push_frame(st, PR_CARD, cs[x, C_CTRL], x, cs[x, C_SLOT], hook)
            run(st, base)


@jit
def draw_phase(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    draw(st, p, rs[R_DRAW])
    while ln[L_HAND + p] > rs[R_HAND_LIMIT]:
        discard_choice(st, p)


@jit_inline
def end_of_turn(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if rs[R_MODE] & MODE_CARDS:
        edge_hooks(st, p, False)
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            cs[m, C_TEMP] = 0
            cs[m, C_TALENT] = 0
            cs[m, C_BUCC] = 0
            for j in range(ln[L_ATT + m]):
                cs[lst[L_ATT + m, j], C_TALENT] = 0
        for i in range(ln[L_SACT + s]):
            cs[lst[L_SACT + s, i], C_TALENT] = 0
        ss[s, S_REDUCTION] = 0
        ss[s, S_TARPITS] = 0
    reset_turn(st)


@jit
def play_game(st, deck_defs):
    """One game from setup to the end; ``stats[O_WINNER]`` the winning seat (-1: capped)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    stats[:] = 0
    stats[O_LAST:O_LAST + 4] = -1
    t0 = cycles() if PROBE else 0
    setup(st, deck_defs)
    if PROBE:
        probe_add(st.probe, PB_SETUP, t0, 0)
    n = rs[R_PLAYERS]
    stats[O_WINNER] = -1
    while True:
        p = tv[T_CURRENT]
        t0 = cycles() if PROBE else 0
        start_of_turn(st, p)
        if PROBE:
            probe_add(st.probe, PB_START, t0, 0)
            t0 = cycles()
        play_phase(st, p)
        if PROBE:
            probe_add(st.probe, PB_PLAY, t0, 0)
            t0 = cycles()
        score_phase(st)
        if PROBE:
            probe_add(st.probe, PB_SCORE, t0, 0)
            t0 = cycles()
        draw_phase(st, p)
        end_of_turn(st, p)
        if PROBE:
            probe_add(st.probe, PB_END, t0, 0)
        tv[T_TURNS] += 1
        best, leaders, who = -1, 0, -1
        for q in range(n):
            if ps[q, P_VP] > best:
                best, leaders, who = ps[q, P_VP], 1, q
            elif ps[q, P_VP] == best:
                leaders += 1
        if best >= rs[R_VP_TO_WIN] and leaders == 1:
            stats[O_WINNER] = who
            break
        if tv[T_TURNS] >= rs[R_MAX_TURNS]:
            break
        tv[T_CURRENT] = (p + 1) % n
    stats[O_TURNS] = tv[T_TURNS]
    for q in range(n):
        stats[O_VP + q] = ps[q, P_VP]
    w = stats[O_WINNER]
    if w >= 0 and stats[O_LAST + w] >= 0:
        stats[O_BASE + stats[O_LAST + w] * BST_N + BST_DECIDED] += 1


