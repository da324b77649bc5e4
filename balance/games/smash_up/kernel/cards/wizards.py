"""Wizards in the kernel (reference/cards/wizards.py function by function): the cards that are
not data (Enchantress, Chronomage, Neophyte, Archmage's talent, Mystic Studies, Portal, Scry,
Summon, Time Loop's effect, Winds of Change and Sacrifice's effect are programs in
data/effects/wizards.toml, run by ``kernel.effects``; Sacrifice's default is
``choosers.sacrifice``; Neophyte's PLAY_ACTION asks ``hooks.want`` from ``vm.offer``).

Grant A (Chronomage, Archmage, Time Loop, Winds of Change) is ``stack.grant_action``: in the
receiver's own Play Cards phase it adds to the extra action plays, anywhere else it is a frame
(a play at once or lost). Mass Enchantment plays an action at once (``stack.play_action_now``
from the deck of the card's owner; Mass Enchantment's player controls it); a greedy seat with
two or more to choose from tries each first (``lookahead``).

"The baseline would play this card" (``ab.want`` in the reference: Mass Enchantment's default,
Time Loop's and Archmage's wants) must read every faction's ``want``;
calling back into ``hooks`` would make the call graph recursive (numba cannot cache that), so
this module dispatches itself to the other faction modules (``other_want``). Time Loop's want
reads the other cards' wants, which may be a Time Loop again (another player's revealed by Mass
Enchantment, then your own in hand): ``hand_wants`` writes the two levels out as nested loops.
They cover every reachable chain: a seat holds one Time Loop and only its own cards in hand, so
at the last level no Time Loop is left to ask about. (The levels were once one dispatcher each;
every dispatcher re-optimises all it calls, and the chain cost about 100 s of the cold compile.)
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from ..layout import unpack
from ..board import can_play_actions, is_action_card, pick, top
from ..layout import (C_DEF, CAP, DONE, F_C, F_K, F_P, GREEDY, H_ACTION, L_HAND, PR_LOOKAHEAD, SN_ACTIVE, T_PLAYERS,
                      Z_DECK)
from ..names import N_ARCHMAGE, N_MASS_ENCHANTMENT, N_SACRIFICE, N_TIME_LOOP
from ..stack import play_action_now, playable_now, push_frame, special_only
from ..tables import D_FACTION, D_NAME
from ..choosers import own_targets, sacrifice_pick
from .. import effects
from . import aliens, dinosaurs, ninjas, pirates, robots, tricksters, zombies

WIZARDS = 6  # catalogue.FACTIONS index


# ---- the resumable part of the cards -------------------------------------------------------------
@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ACTION and name == N_MASS_ENCHANTMENT:
        mass_enchantment(st, p)
    return DONE  # a frame pushed above (a play at once) runs before this one is removed


@jit
def other_want(st, p, c):
    """``ab.want`` of a card of another faction: that faction's ``want``."""
    cs, defs = st.cs, st.defs
    f = defs[cs[c, C_DEF], D_FACTION]
    if f == 0:
        return aliens.want(st, p, c)
    elif f == 1:
        return dinosaurs.want(st, p, c)
    elif f == 2:
        return ninjas.want(st, p, c)
    elif f == 3:
        return pirates.want(st, p, c)
    elif f == 4:
        return robots.want(st, p, c)
    elif f == 5:
        return tricksters.want(st, p, c)
    elif f == 7:
        return zombies.want(st, p, c)
    return False


@jit
def is_wizards(st, c):
    cs, defs = st.cs, st.defs
    return defs[cs[c, C_DEF], D_FACTION] == WIZARDS


@jit
def own_want(st, p, c):
    """``ab.want`` of a card as far as it reads no other card's: 1 or 0, or -1 for a Time Loop
    (its want asks the rest of the hand). Its data want (``effects.want``), else its faction
    module's."""
    cs, defs = st.cs, st.defs
    w = effects.want(st, p, c)
    if w >= 0:
        return w
    if not is_wizards(st, c):
        return 1 if other_want(st, p, c) else 0
    if defs[cs[c, C_DEF], D_NAME] == N_TIME_LOOP:
        return -1
    return 1 if plain_want(st, p, c) else 0


@jit
def playable_action(st, c):
    """An action the baseline may play now (``would_play``'s first tests)."""
    return is_action_card(st, c) and not special_only(st, c, False)


@jit
def hand_wants(st, p, card):
    """Time Loop's want: an action in p's hand other than ``card`` that the baseline would play
    now. A Time Loop among them asks the same of the rest of the hand; a Time Loop at that
    second level wants nothing (the reference's recursion ends there: a seat holds one Time
    Loop, so a third level would find none to ask about)."""
    lst, ln = st.lst, st.ln
    for i in range(ln[L_HAND + p]):
        x = lst[L_HAND + p, i]
        if x == card or not playable_action(st, x):
            continue
        w = own_want(st, p, x)
        if w == 1:
            return True
        if w < 0:  # a Time Loop: the level below, written out (no recursion: numba caches it)
            for j in range(ln[L_HAND + p]):
                y = lst[L_HAND + p, j]
                if y != x and playable_action(st, y) and own_want(st, p, y) == 1:
                    return True
    return False


@jit
def want_of(st, p, c):
    """``ab.want`` of any card (Mass Enchantment's default and Archmage's want)."""
    w = own_want(st, p, c)
    if w >= 0:
        return w == 1
    return hand_wants(st, p, c)


@jit
def plain_want(st, p, c):
    """The Wizards actions' wants that read no other card's want."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_MASS_ENCHANTMENT:
        return True
    elif name == N_SACRIFICE:
        return sacrifice_want(st, p)
    return False


# ---- actions -----------------------------------------------------------------------------------
@jit
def mass_enchantment(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    actions = stack_empty(4)
    k = 0
    for o in range(1, n):  # §1.9 per deck, in turn order after c
        x = top(st, (c + o) % n)
        if x >= 0 and is_action_card(st, x) and playable_now(st, c, x):
            actions[k] = x
            k += 1
    if k == 0:
        return  # every revealed card simply stays on top
    default = 0
    if strat[c] == GREEDY and k > 1:
        if st.snap[SN_ACTIVE] == 0:  # the default: try each (``lookahead``)
            d = push_frame(st, PR_LOOKAHEAD, c, -1, -1, 0)
            fs[d, F_K] = k
            for i in range(k):
                sc[d, i] = actions[i]
            return
        for i in range(k):  # inside a look-ahead: the first whose own default says play
            if want_of(st, c, actions[i]):
                default = i
                break
    play_action_now(st, c, actions[pick(st, c, k, default)], Z_DECK)  # owner unchanged [D28]


@jit
def sacrifice_want(st, p):
    mine = stack_empty(CAP)
    k = own_targets(st, p, mine)
    return k > 0 and sacrifice_pick(st, p, mine, k) >= 0


# ---- the hooks -----------------------------------------------------------------------------------
@jit
def want(st, p, c):
    """A Wizards card's want (``hooks.want``, after its data want)."""
    cs, defs = st.cs, st.defs
    if defs[cs[c, C_DEF], D_NAME] == N_TIME_LOOP:
        return hand_wants(st, p, c)
    return plain_want(st, p, c)


@jit
def talent_usable(st, p, x):
    cs, defs = st.cs, st.defs
    return defs[cs[x, C_DEF], D_NAME] == N_ARCHMAGE


@jit
def talent_want(st, p, x):
    """Archmage's talent (the only Wizards talent): an action in hand the baseline would play
    now. (One function, not a wrapper around an ``archmage_want``: each dispatcher level
    re-optimises the whole want chain it calls in the cold compile.)"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if defs[cs[x, C_DEF], D_NAME] != N_ARCHMAGE or not can_play_actions(st, p):
        return False
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if playable_action(st, c) and want_of(st, p, c):
            return True
    return False
