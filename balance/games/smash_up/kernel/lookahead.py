"""Mass Enchantment's look-ahead (rules/smash-up-cards.md §9.5: the default plays "the revealed
action whose own default raises V most; if none does, the one that harms you least", one
ranking: the V each leaves, the first of the best). The reference plays each on a copy of the
game (``reference/cards/wizards.py``). Here a frame (PR_LOOKAHEAD) saves the state, plays each
candidate on the stack like any play, reads V once that play is over, restores the state, and
at last plays the best: the VM is iterative, so trying a card needs no recursion.

The frame: ``F_P`` the player, ``F_K`` the candidates (``sc[d, :k]``, turn order). The saved
state is ``st.snap`` (``layout.SNAP_SAVED``); one level: a Mass Enchantment inside a look-ahead
(another player's: a card list that puts one in another faction, or the tests' Wizards at
several seats) ranks the simple way (``cards/wizards.py``), in both engines.
"""
from balance.core._jit import jit_widened as jit

from .board import V, pick
from .layout import F_K, F_P, SN_ACTIVE, SN_I, SN_V, SNAP_AT, T_SP, Z_DECK, unpack
from .stack import play_action_now


@jit
def rows(a, n, snap, k, save):
    """Copy rows ``a[:n]`` (2-d) to ``snap[k:]`` (``save``) or back; returns the next ``k``."""
    for i in range(n):
        for j in range(a.shape[1]):
            if save:
                snap[k] = a[i, j]
            else:
                a[i, j] = snap[k]
            k += 1
    return k


@jit
def flat(a, snap, k, save):
    """Copy 1-d ``a`` to ``snap[k:]`` (``save``) or back; returns the next ``k``."""
    for i in range(a.shape[0]):
        if save:
            snap[k] = a[i]
        else:
            a[i] = snap[k]
        k += 1
    return k


@jit
def transfer(st, save):
    """Save the arrays a game changes (``layout.SNAP_SAVED``) into ``st.snap`` (``save``), or
    restore them, in one order: the lengths before the lists and ``tv`` (the stack's depth)
    before the stack, so a restore reads each length it needs already restored. The read-only
    tables are not saved, nor ``opt`` (a choice's options, rebuilt by every choice)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    snap = st.snap
    k = rows(cs, cs.shape[0], snap, SNAP_AT, save)
    k = flat(ln, snap, k, save)
    for li in range(ln.shape[0]):  # each list as far as it is filled
        for j in range(ln[li]):
            if save:
                snap[k] = lst[li, j]
            else:
                lst[li, j] = snap[k]
            k += 1
    k = rows(ss, ss.shape[0], snap, k, save)
    k = rows(ps, ps.shape[0], snap, k, save)
    k = rows(gr, gr.shape[0], snap, k, save)
    k = flat(stats, snap, k, save)
    k = flat(tv, snap, k, save)
    k = rows(fs, tv[T_SP], snap, k, save)
    rows(sc, tv[T_SP], snap, k, save)
    for i in range(states.shape[0]):
        if save:
            st.snap_states[i] = states[i]
        else:
            states[i] = st.snap_states[i]


@jit
def look_ahead(st, d, pc):
    """Step ``pc`` of the PR_LOOKAHEAD frame at depth ``d``: 0 saves the state and plays the
    first candidate; each later step reads the V the last one left, restores the state (this
    frame back at step 1) and plays the next, or, all tried, the best. True: the frame is done
    (its last play, pushed above it, still to run)."""
    fs, sc, snap = st.fs, st.sc, st.snap
    p, k = fs[d, F_P], fs[d, F_K]
    if pc == 0:
        transfer(st, True)  # with this frame at step 1: each restore comes back here
        snap[SN_ACTIVE], snap[SN_I] = 1, 0
        play_action_now(st, p, sc[d, 0], Z_DECK)
        return False
    i = snap[SN_I]
    snap[SN_V + i] = V(st, p)
    transfer(st, False)
    i += 1
    snap[SN_I] = i
    if i < k:
        play_action_now(st, p, sc[d, i], Z_DECK)
        return False
    snap[SN_ACTIVE] = 0
    best = 0
    for j in range(1, k):
        if snap[SN_V + j] > snap[SN_V + best]:
            best = j
    play_action_now(st, p, sc[d, pick(st, p, k, best)], Z_DECK)  # owner unchanged [D28]
    return True
