"""Destruction and its triggers in the kernel (reference ``Game.destroy``, §1.6, [D19]).

The reference recurses (a destroyed Nukebot destroys, and those destructions trigger in turn);
here an explicit stack of levels does the same in the same order: a level removes its victims
together (Buccaneer's move and Tar Pits' replacement first), runs the base triggers, then each
destroyed minion's own triggers in its owner's turn order — a Nukebot's victims become the next
level, finished before the level below goes on.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import jit_inline, stack_empty, stack_zeros
from balance.core.kit import to_front

from .layout import unpack
from .baseline import place
from .board import (
    R_TRICKSTERS_2012,
    MODE_BASES, MODE_CARDS, R_MODE,
    active, can_move, count_named, destroyable, discard_random_others, draw, is_microbot, leave, move, pick, position,
    to_deck_bottom, to_discard, touch,
)
from .layout import (
    C_BUCC, C_CTRL, C_DEF, C_OWNER, C_SLOT, CAP, H_AFTER_DESTROYED, L_SMIN, P_BASES_USED, P_SLEEP_MODE,
    P_VP, S_BASE, S_TARPITS, SLEEP_MOVES, T_CURRENT, T_NSLOTS, T_PLAYERS, T_QUIET,
)
from .names import B_TAR_PITS, N_BUCCANEER, N_MICROBOT_ARCHIVE, N_NUKEBOT
from .opcodes import (
    COND_ALWAYS, COND_UNUSED_THIS_TURN, FL_INDESTRUCTIBLE, I_ARG1, I_ARG2, I_ARG3, I_NOT, I_OP, OP_DISCARD_RANDOM,
    OP_DRAW, OP_END, OP_GAIN_VP, OP_IF, OP_MARK_USED,
)
from .tables import BS_NAME, BS_PROG, D_FLAGS, D_NAME, D_PROG

MAX_LEVELS = 16


@jit
def in_slot(st, m, s):
    return position(st.lst, st.ln, L_SMIN + s, m) >= 0


@jit
def remove_victims(st, vic, nv, by, level, dcard, dslot, dmicro):
    """One ``destroy`` call's removal: fills ``dcard/dslot/dmicro[level]`` with the minions
    destroyed, sorted by their owners' turn order; runs the base triggers; returns how many.
    ``by``: the resolving player (-1: a base's), who orders the victims at Tar Pits."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    k = 0
    slots = stack_empty(16)
    for j in range(nv):
        m = vic[j]
        s = cs[m, C_SLOT]
        if not in_slot(st, m, s) or (defs[cs[m, C_DEF], D_FLAGS] & FL_INDESTRUCTIBLE) != 0:  # Warbot
            continue
        dcard[level, k], dslot[level, k] = m, s
        dmicro[level, k] = 1 if is_microbot(st, m) else 0
        k += 1
    if by >= 0 and k > 1:  # most destructions have one victim: no order to pick
        tar_pits_first(st, by, k, level, dcard, dslot, dmicro)
    # the victims, read before removal; now each is removed, replaced or moved
    nd = 0
    for j in range(k):
        m, s, micro = dcard[level, j], dslot[level, j], dmicro[level, j]
        if not in_slot(st, m, s):
            continue
        ctrl = cs[m, C_CTRL]
        if defs[cs[m, C_DEF], D_NAME] == N_BUCCANEER and cs[m, C_BUCC] == 0 \
                and ps[ctrl, P_SLEEP_MODE] != SLEEP_MOVES:
            nd_ = 0
            for t in range(tv[T_NSLOTS]):
                if can_move(st, ctrl, m, t):
                    slots[nd_] = t
                    nd_ += 1
            default = place(st, ctrl, m, True, slots, nd_) if nd_ > 0 else 0
            i = pick(st, ctrl, nd_ + 1, default)
            if i < nd_:
                cs[m, C_BUCC] = 1
                move(st, m, slots[i])
                continue
        if tar_pits_open(st, s):
            ss[s, S_TARPITS] = 1
            to_deck_bottom(st, m)
            continue
        leave(st, m)
        to_discard(st, m)
        dcard[level, nd], dslot[level, nd], dmicro[level, nd] = m, s, micro
        nd += 1
    for j in range(nd):  # base triggers first (§1.10): Cave of Shinies
        s = dslot[level, j]
        start = bases[ss[s, S_BASE], BS_PROG + H_AFTER_DESTROYED]
        if start >= 0 and rs[R_MODE] & MODE_BASES and active(st, s):
            leaf(st, start, cs[dcard[level, j], C_OWNER], s)
    cur = tv[T_CURRENT]
    for j in range(1, nd):  # stable insertion sort by the owner's place in turn order
        m, s, micro = dcard[level, j], dslot[level, j], dmicro[level, j]
        key = (cs[m, C_OWNER] - cur) % n
        i = j - 1
        while i >= 0 and (cs[dcard[level, i], C_OWNER] - cur) % n > key:
            dcard[level, i + 1], dslot[level, i + 1], dmicro[level, i + 1] = \
                dcard[level, i], dslot[level, i], dmicro[level, i]
            i -= 1
        dcard[level, i + 1], dslot[level, i + 1], dmicro[level, i + 1] = m, s, micro
    return nd


@jit_inline
def tar_pits_open(st, s):
    """Slot ``s`` holds Tar Pits, active and unused this turn."""
    ss = st.ss
    return st.bases[ss[s, S_BASE], BS_NAME] == B_TAR_PITS and active(st, s) and ss[s, S_TARPITS] == 0


@jit
def tar_pits_first(st, by, k, level, dcard, dslot, dmicro):
    """``Game._tar_pits_first``: among the ``k`` victims at an unused Tar Pits, ``by`` picks
    the one replaced [D19]; it moves to the place of the first one there, the others keep
    their order."""
    places = stack_empty(CAP)  # where the victims at Tar Pits are, in order
    n = 0
    for j in range(k):
        if tar_pits_open(st, dslot[level, j]):
            places[n] = j
            n += 1
    if n < 2:
        return
    first, j = places[0], places[pick(st, by, n, 0)]
    to_front(dcard[level], j, first)
    to_front(dslot[level], j, first)
    to_front(dmicro[level], j, first)


@jit
def has_trigger(st, m, micro, arch):
    """Whether destroyed minion ``m`` triggers (``destroy_touched``'s cases): a Microbot
    (``micro``) with its controller's Microbot Archive in play (``arch``: a bit per player),
    a Nukebot, or a minion with an after-destroyed program (Gremlin)."""
    cs, defs = st.cs, st.defs
    d = cs[m, C_DEF]
    return (micro != 0 and (arch >> cs[m, C_CTRL]) & 1 != 0) or defs[d, D_NAME] == N_NUKEBOT or \
        ((st.rs[R_MODE] & MODE_CARDS) != 0 and defs[d, D_PROG + H_AFTER_DESTROYED] >= 0)


@jit
def next_destroyed(st, level, j, k, arch, dcard, dslot, dmicro):
    """``Game._next_destroyed``: each player orders its own triggers (§1.10), so when the owner
    of the minion at ``j`` (next of the level's ``k``) has two or more destroyed minions with a
    trigger at ``j:k``, it picks the one whose triggers resolve next; that one moves to ``j``,
    the others keep their order (default: the first)."""
    cs = st.cs
    owner = cs[dcard[level, j], C_OWNER]
    places = stack_empty(CAP)  # where the owner's minions with a trigger are, in order
    n = 0
    for i in range(j, k):
        if cs[dcard[level, i], C_OWNER] == owner and has_trigger(st, dcard[level, i], dmicro[level, i], arch):
            places[n] = i
            n += 1
    if n < 2:
        return
    i = places[pick(st, owner, n, 0)]
    to_front(dcard[level], i, j)
    to_front(dslot[level], i, j)
    to_front(dmicro[level], i, j)


@jit
def leaf(st, i, p, s):
    """Run the leaf program from row ``i`` with ``p`` as "me": a base's after_destroyed (slot
    ``s``'s base, "me" the destroyed minion's owner) or a minion's own after_destroyed or
    after_discarded ("me" its owner). A leaf pushes no frame, since it runs inside a destruction
    or a scoring (the interpreter's ``step`` may call ``destroy``; a frame run from here would
    make the call graph recursive). Its steps: IF (ALWAYS, NEVER, UNUSED_THIS_TURN: ``p`` has
    not used slot ``s``'s base's once-per-turn ability this turn), MARK self used (that use),
    GAIN_VP me N, DRAW me N, DISCARD others random N (the assembler allows no other, and a
    card's leaf neither MARK nor UNUSED_THIS_TURN)."""
    pg, ps = st.pg, st.ps
    bit = 1 << st.ss[s, S_BASE]
    while pg[i, I_OP] != OP_END:
        op = pg[i, I_OP]
        i += 1
        if op == OP_IF:
            cond = pg[i - 1, I_ARG1]
            holds = cond == COND_ALWAYS or (cond == COND_UNUSED_THIS_TURN and (ps[p, P_BASES_USED] & bit) == 0)
            if holds == (pg[i - 1, I_NOT] != 0):  # failed: end, or skip I_ARG3 rows
                if pg[i - 1, I_ARG3] == 0:
                    return
                i += pg[i - 1, I_ARG3]
        elif op == OP_MARK_USED:
            ps[p, P_BASES_USED] |= bit
        elif op == OP_GAIN_VP:
            ps[p, P_VP] += pg[i - 1, I_ARG2]
        elif op == OP_DRAW:
            draw(st, p, pg[i - 1, I_ARG2])
        elif op == OP_DISCARD_RANDOM:
            discard_random_others(st, p, pg[i - 1, I_ARG2])


@jit
def archives(st):
    """Bitmask of the seats with a Microbot Archive in play."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    mask = 0
    for p in range(tv[T_PLAYERS]):
        if count_named(st, N_MICROBOT_ARCHIVE, p) > 0:
            mask |= 1 << p
    return mask


@jit
def destroy(st, vic, nv, by, action, out):
    """Destroy minions ``vic[:nv]`` together (``Game.destroy``); ``out[:k]`` the ones this call
    destroyed (not those its triggers destroyed); returns k. ``by``, ``action``: the source, as
    the reference's signature has them (the callers checked legality already)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if rs[R_TRICKSTERS_2012] == 0:
        return destroy_touched(st, vic, nv, by, out)
    kept = stack_empty(CAP)  # the victims a 2012 Hideout does not shield (``board.touch``)
    k = 0
    for j in range(nv):
        m = vic[j]
        if in_slot(st, m, cs[m, C_SLOT]) and (defs[cs[m, C_DEF], D_FLAGS] & FL_INDESTRUCTIBLE) == 0 \
                and touch(st, m):
            kept[k] = m
            k += 1
    return destroy_touched(st, kept, k, by, out)


@jit
def destroy_touched(st, vic, nv, by, out):
    """``destroy`` once the victims were touched: the replacements and triggers run as no
    card's own steps (``T_QUIET``); ``by`` orders the victims at Tar Pits."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    tv[T_QUIET] += 1
    dcard = stack_empty((MAX_LEVELS, CAP))
    dslot = stack_empty((MAX_LEVELS, CAP))
    dmicro = stack_empty((MAX_LEVELS, CAP))
    count = stack_zeros(MAX_LEVELS)
    idx = stack_zeros(MAX_LEVELS)
    arch = stack_zeros(MAX_LEVELS)
    nuke = stack_empty(CAP)
    arch[0] = archives(st)
    count[0] = remove_victims(st, vic, nv, by, 0, dcard, dslot, dmicro)
    for j in range(count[0]):
        out[j] = dcard[0, j]
    level = 0
    while level >= 0:
        if idx[level] >= count[level]:
            level -= 1
            continue
        j = idx[level]
        if count[level] - j > 1:  # most destructions have one victim: no order to pick
            next_destroyed(st, level, j, count[level], arch[level], dcard, dslot, dmicro)
        idx[level] += 1
        m, s = dcard[level, j], dslot[level, j]
        ctrl = cs[m, C_CTRL]
        if dmicro[level, j] != 0 and (arch[level] >> ctrl) & 1:
            draw(st, ctrl, 1)
        name = defs[cs[m, C_DEF], D_NAME]
        if name == N_NUKEBOT and s < tv[T_NSLOTS]:
            k = 0
            for i in range(ln[L_SMIN + s]):
                x = lst[L_SMIN + s, i]
                if cs[x, C_CTRL] != ctrl and destroyable(st, x, ctrl, False):
                    nuke[k] = x
                    k += 1
            if k > 0:
                level += 1
                arch[level] = archives(st)
                count[level] = remove_victims(st, nuke, k, ctrl, level, dcard, dslot, dmicro)
                idx[level] = 0
        elif rs[R_MODE] & MODE_CARDS and defs[cs[m, C_DEF], D_PROG + H_AFTER_DESTROYED] >= 0:  # Gremlin
            leaf(st, defs[cs[m, C_DEF], D_PROG + H_AFTER_DESTROYED], cs[m, C_OWNER], s)
    tv[T_QUIET] -= 1
    return count[0]
