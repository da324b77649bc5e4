"""Tricksters in the kernel (reference/cards/tricksters.py function by function), the current list
and the 2012 one (``R_TRICKSTERS_2012``): the cards that are not data (Take The Shinies,
Enshrouding Mist's talent, the after-played triggers of Leprechaun, Brownie, Flame Trap and Pay
the Piper, the current Flame Trap's start-of-turn clause and every play-on action's host are
programs in data/effects/tricksters.toml, the 2012 Gnome's on-play and Mark of Sleep in
data/effects/tricksters_2012.toml, run by ``kernel.effects``).
Gremlin's triggers are in ``triggers`` (destroyed) and
``turn.score_base`` (discarded by scoring); Block the Path's and Overrun's bans in
``board.minion_allowed``; the current Hideout's and Mark of Sleep's move bans in
``board.can_move``. The 2012 Brownie and the 2012 Hideout are in the core: ``board.touch``
(the Hideout's shield, asked by every primitive that affects a minion) and ``board.brownies``
(run by ``vm`` when a played card's own steps end).

- The current Gnome's before-scoring Special is data (``window``, ``special``; ``kernel.window``
  lists it, once per target); whether the baseline uses it stays here (``special_want``).
- Block the Path's named factions: a bit per faction in the attached card's ``C_NAMED``.
"""

from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from ..layout import unpack
from ..baseline import hit, opponent
from ..board import (
    R_TRICKSTERS_2012, actions_in_play, destroyable, insert, is_minion_card, minion_allowed, pick, power,
    push, refill, remove, shuffle, track_triggered, vp_now,
)
from ..layout import (
    SCRATCH, C_CTRL, C_DEF, C_ENTERED, C_HOST, C_NAMED, C_OWNER, C_SLOT, C_TALENT, C_ZONE, CAP,
    DECK, DONE, F_C, F_P, GREEDY, H_ATTACH, H_SPECIAL, H_TALENT, K_ACTION,
    L_DECK, L_DISC, L_HAND, L_SACT, L_SMIN, T_PLAYERS, Z_ATTACHED, Z_DECK, Z_HAND,
)
from ..names import (
    N_BLOCK_THE_PATH, N_DISENCHANT, N_ENSHROUDING_MIST, N_FLAME_TRAP, N_GNOME, N_HIDEOUT,
    N_PAY_THE_PIPER, N_PIXIE,
)
from ..tables import D_KIND, D_NAME, D_PLAYON, D_PROG, PLAYON_BASE
from ..choosers import disenchant_pick, seat_faction, vp_without
from ..effects import candidates
from ..triggers import destroy

F_ROBOTS = 4  # catalogue.FACTIONS


@jit
def current(st):
    return st.rs[R_TRICKSTERS_2012] == 0


@jit
def card_step(st, d, hook, step):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    name = defs[cs[c, C_DEF], D_NAME]
    if hook == H_ATTACH:
        if name == N_BLOCK_THE_PATH:
            name_factions(st, c)
    elif hook == H_TALENT:
        if name == N_HIDEOUT:
            hideout_use(st, p, c)
    return DONE


# ---- 3. Gnome ------------------------------------------------------------------------------------
@jit
def gnome_want(st, q, s, g, target):
    """Gnome ``g`` (on the scoring base ``s``) destroys ``target`` when it is, among the targets its
    special's selector lists (``effects.candidates``, as the window does), another player's of the
    highest power (the earliest in play on ties) and that raises ``q``'s vp_now there."""
    cs = st.cs
    cand = stack_empty(CAP)
    k = candidates(st, -1, st.defs[cs[g, C_DEF], D_PROG + H_SPECIAL], q, g, False, cand)
    best, bk = -1, (0, 0)
    for i in range(k):
        m = cand[i]
        if cs[m, C_CTRL] != q:
            key = (power(st, m), -cs[m, C_ENTERED])
            if best < 0 or key > bk:
                best, bk = m, key
    if best < 0 or target != best:
        return False
    now = stack_empty(4)
    vp_now(st, s, now)
    return vp_without(st, q, best) > now[q]


# ---- 5. Pixie ------------------------------------------------------------------------------------
@jit
def more_cards_than_someone(st, p, k):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_PLAYERS]
    for o in range(1, n):
        if k > ln[L_HAND + (p + o) % n]:
            return True
    return False


@jit
def pixie_want(st, p):
    """As an action: the counter condition fails and another player's action is in play."""
    cs, ln = st.cs, st.ln
    if more_cards_than_someone(st, p, ln[L_HAND + p] - 1):
        return False
    acts = stack_empty(CAP)
    k = actions_in_play(st, acts)
    for i in range(k):
        if cs[acts[i], C_CTRL] != p:
            return True
    return False


# ---- 6. Block the Path ------------------------------------------------------------------------------
@jit
def faction_minion_cards(st, q, half):
    """Minion cards (Pixie included) of seat q's faction ``half`` (0: first, 1: second)."""
    cs, defs = st.cs, st.defs
    k = 0
    for i in range(20):
        if defs[cs[q * DECK + half * 20 + i, C_DEF], D_KIND] != K_ACTION:
            k += 1
    return k


@jit
def block_default(st, q):
    """Of seat q's two factions: more minion cards, Robots first; ties: the first drafted."""
    best, bk = 0, (0, 0, 0)
    for h in range(2):
        k = (1 if seat_faction(st, q, h) == F_ROBOTS else 0, faction_minion_cards(st, q, h), -h)
        if h == 0 or k > bk:
            best, bk = h, k
    return best


@jit
def name_factions(st, a):
    """Name the factions now (on play, or when Hideout swaps it in [D21])."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c = cs[a, C_CTRL]
    n = tv[T_PLAYERS]
    bits = 0
    if current(st):
        for o in range(1, n):
            q = (c + o) % n
            default = block_default(st, q) if strat[c] == GREEDY else 0
            bits |= 1 << seat_faction(st, q, pick(st, c, 2, default))
        cs[a, C_NAMED] = bits
        return
    mark = opponent(st, c)
    want = seat_faction(st, mark, block_default(st, mark))
    default = -1
    k = 0
    for o in range(1, n):
        q = (c + o) % n
        for h in range(2):
            if default < 0 and seat_faction(st, q, h) == want:
                default = k
            k += 1
    i = pick(st, c, k, default)
    q = (c + 1 + i // 2) % n
    cs[a, C_NAMED] = 1 << seat_faction(st, q, i % 2)


# ---- 7. Enshrouding Mist --------------------------------------------------------------------------
@jit
def mist_want(st, p, x):
    cs, lst, ln = st.cs, st.lst, st.ln
    s = cs[x, C_SLOT]
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if is_minion_card(st, c) and minion_allowed(st, p, c, s):
            return True
    return False


# ---- 9. Hideout -------------------------------------------------------------------------------
@jit
def swap_candidates(st, p, out):
    """Play-on-base action cards in hand (hand order), then in the deck (bottom first; an
    empty deck's are the discard pile's, the deck the search would rebuild, §1.9) into ``out``.
    Returns (total, in hand)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for i in range(ln[L_HAND + p]):
        c = lst[L_HAND + p, i]
        if defs[cs[c, C_DEF], D_PLAYON] == PLAYON_BASE:
            out[k] = c
            k += 1
    nh = k
    li = L_DECK + p if ln[L_DECK + p] > 0 else L_DISC + p
    for i in range(ln[li]):
        c = lst[li, i]
        if defs[cs[c, C_DEF], D_PLAYON] == PLAYON_BASE:
            out[k] = c
            k += 1
    return k, nh


@jit
def small_ones(st, p, s, out):
    lst, ln = st.lst, st.ln
    k = 0
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        if power(st, m) <= 2 and destroyable(st, m, p, True):
            out[k] = m
            k += 1
    return k


@jit
def hideout_usable(st, p, x):
    if not current(st):
        return False
    cand = stack_empty(SCRATCH)
    k, _ = swap_candidates(st, p, cand)
    return k > 0  # no candidate, no talent [D21]


@jit
def hideout_use(st, p, x):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    s = cs[x, C_SLOT]
    refill(st, p)  # the search rebuilds an empty deck first (§1.9)
    cand = stack_empty(SCRATCH)
    k, nh = swap_candidates(st, p, cand)
    j = pick(st, p, k, 0)
    card = cand[j]
    from_hand = j < nh
    track_triggered(st, x, False)
    i = remove(lst, ln, L_SACT + s, x)  # the swapped-in card takes Hideout's place
    insert(lst, ln, L_SACT + s, i, card)
    entry = cs[x, C_ENTERED]
    o = cs[x, C_OWNER]  # a card leaving play goes to its owner's (§1.1)
    if from_hand:
        remove(lst, ln, L_HAND + p, card)
        push(lst, ln, L_HAND + o, x)
        cs[x, C_ZONE] = Z_HAND
    else:
        remove(lst, ln, L_DECK + p, card)
        push(lst, ln, L_DECK + o, x)
        cs[x, C_ZONE] = Z_DECK
    cs[card, C_ZONE] = Z_ATTACHED
    cs[card, C_CTRL] = p
    track_triggered(st, card, True)
    cs[card, C_SLOT] = s
    cs[card, C_HOST] = -1
    cs[card, C_ENTERED] = entry
    cs[card, C_TALENT] = 0
    cs[card, C_NAMED] = 0
    if not from_hand:
        shuffle(lst, ln, L_DECK + o, states)  # [D17]
        if o != p:
            shuffle(lst, ln, L_DECK + p, states)  # the searched deck too
    if defs[cs[card, C_DEF], D_NAME] == N_BLOCK_THE_PATH:  # not a play: only the naming [D21]
        name_factions(st, card)
    targets = stack_empty(CAP)
    n = small_ones(st, p, s, targets)
    default = n
    if strat[p] == GREEDY:
        h = hit(st, p, targets, n, False)
        if h >= 0:
            default = h
    t = pick(st, p, n + 1, default)
    if t < n:
        out = stack_empty(1)
        targets[0] = targets[t]
        destroy(st, targets, 1, p, True, out)


@jit
def hideout_want(st, p, x):
    cs = st.cs
    cand = stack_empty(SCRATCH)
    _, nh = swap_candidates(st, p, cand)
    if nh == 0:
        return False
    targets = stack_empty(CAP)
    n = small_ones(st, p, cs[x, C_SLOT], targets)
    for i in range(n):
        if cs[targets[i], C_CTRL] != p:
            return True
    return False


@jit
def want(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[c, C_DEF], D_NAME]
    if name == N_PIXIE:
        return pixie_want(st, p)
    elif name == N_BLOCK_THE_PATH or name == N_FLAME_TRAP or name == N_HIDEOUT or name == N_PAY_THE_PIPER:
        return True
    elif name == N_ENSHROUDING_MIST:
        for i in range(ln[L_HAND + p]):
            if is_minion_card(st, lst[L_HAND + p, i]):
                return True
        return False
    elif name == N_DISENCHANT:
        acts = stack_empty(CAP)
        k = actions_in_play(st, acts)
        return disenchant_pick(st, p, acts, k) >= 0
    return False


@jit
def talent_usable(st, p, x):
    cs, defs = st.cs, st.defs
    name = defs[cs[x, C_DEF], D_NAME]
    if name == N_ENSHROUDING_MIST:
        return True
    if name == N_HIDEOUT:
        return hideout_usable(st, p, x)
    return False


@jit
def talent_want(st, p, x):
    cs, defs = st.cs, st.defs
    name = defs[cs[x, C_DEF], D_NAME]
    if name == N_ENSHROUDING_MIST:
        return mist_want(st, p, x)
    if name == N_HIDEOUT:
        return hideout_want(st, p, x)
    return False


@jit
def special_want(st, q, s, a, b):
    """Gnome ``a`` destroys target ``b`` when ``b`` is the highest-power one of another player and
    that raises ``q``'s vp_now at the scoring base ``s``."""
    if st.defs[st.cs[a, C_DEF], D_NAME] == N_GNOME:
        return gnome_want(st, q, s, a, b)
    return False
