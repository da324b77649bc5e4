"""Board primitives of the kernel: lists, cards moving between zones, power, places, the
baseline's measures (V, gap) and the legality checks. Mirrors reference/game.py and
reference/baseline.py function by function (same names where possible); the reference is
the oracle, tests/test_smash_up_kernel.py plays both.

Arrays: see ``layout``. ``defs`` and ``bases`` from ``tables``; ``rs`` the rules row
(``rules_row``). Every function here is non-recursive (numba cannot cache recursion).
"""
from balance.core._jit import jit_inline
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty
from balance.core.rng import below

from .layout import unpack
from .opcodes import (
    FL_INDESTRUCTIBLE, FL_MICROBOT, LEGAL_AFFECT, OWNER_MINE, OWNER_THEIRS, PROT_ACTIONS_HOST,
    PROT_ACTIONS_MINE_HERE, PROT_CARDS_HOST, WHERE_HERE, WHERE_OUT_OR_IN, WHERE_TO_HERE,
)
from .layout import (
    C_BUCC, C_COUNTERS, C_CTRL, C_DEF, C_ENTERED, C_HOST, C_NAMED, C_OWNER, C_SLOT, C_STEGO,
    C_TALENT, C_TEMP, C_TOUCH, C_TURN, C_ZONE, F_P, F_PROC, F_SHIELD, F_X, GREEDY, H_ATTACH, MAX_SLOTS,
    PR_CARD, PR_PLAY_ACTION, T_QUIET, T_SP, MAX_PLAYERS, SW_DENY, SW_READY, T_ASIF, P_ALPHAS, P_FIXERS, P_MINIONS,
    G_ANY, G_AT, G_DISC, G_EMPTY, G_TWO, K_ACTION, K_MINION,
    L_ATT, L_DECK, L_DISC, L_HAND, L_SACT, L_SMIN, L_TRIGGERED, P_SLEEP_MODE, S_BASE, S_CANCEL,
    S_REDUCTION, SLEEP_ACTIONS, SLEEP_MOVES, SLEEP_ON_TURN, T_CURRENT, T_FREE_MIN, T_IN_PHASE, T_MICROBOTS,
    T_RAPTORS, T_NGRANTS,
    T_NSLOTS, T_PLAYERS, T_TURNS, Z_ATTACHED, Z_DISCARD, Z_HAND, Z_MINION,
)
from .names import (
    N_ARMOR_STEGO, N_BLOCK_THE_PATH, N_BROWNIE, N_HIDEOUT, N_JAMMED_SIGNAL, N_MICROBOT_ALPHA,
    N_MICROBOT_FIXER, N_OVERRUN,
)
from .tables import (
    BS_BREAK, BS_MINION_POWER, BS_VP0, D_FLAGS, D_HOST_POWER, D_KIND, D_NAME, D_PER_NAME, D_POWER, D_PROTECT,
    D_TRIGGERS,
)

# rules row
R_PLAYERS, R_VP_TO_WIN, R_MINION_PLAYS, R_ACTION_PLAYS, R_HAND_SIZE, R_MULLIGAN, R_DRAW, \
    R_HAND_LIMIT, R_BASES_IN_PLAY, R_MAX_TURNS, R_TRICKSTERS_2012, R_BASES_2012, \
    R_COLLECTOR_EXCL, R_TIGER_ANY, R_HOMEWORLD_EACH, R_MODE, R_START_VP = range(17)
# R_START_VP + seat: the VP the seat starts with; R_OPENING_HAND + seat: its opening hand's cards
R_OPENING_HAND = R_START_VP + MAX_PLAYERS
R_N = R_OPENING_HAND + MAX_PLAYERS
# R_COLLECTOR_EXCL, R_TIGER_ANY, R_HOMEWORLD_EACH: the rules switches, kept in the row as the
# run's rules; no kernel code reads them (a switch selects a card's or base's data program)
# R_MODE: which abilities the kernel runs (both in every real run; the tests switch them off to
# check the core alone against the reference with its ability tables emptied)
MODE_BASES, MODE_CARDS = 1, 2


@jit_inline
def pick(st, seat, n, default):
    """The seat's strategy picks one of ``n`` options (the baseline's is ``default``); one
    option is taken without a draw, as in the reference's ``Game.choose``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if n <= 1:
        return 0
    if strat[seat] == GREEDY:
        return default
    return below(states, 1 + seat, n)


# ---- lists --------------------------------------------------------------------------------
@jit_inline
def push(lst, ln, li, x):
    lst[li, ln[li]] = x
    ln[li] += 1


@jit_inline
def pop(lst, ln, li):
    ln[li] -= 1
    return lst[li, ln[li]]


@jit_inline
def position(lst, ln, li, x):
    """Where ``x`` is in list ``li`` (-1: not there)."""
    for i in range(ln[li]):
        if lst[li, i] == x:
            return i
    return -1


@jit
def remove(lst, ln, li, x):
    """Remove ``x`` from list ``li`` keeping the order; returns its position (or -1)."""
    n = ln[li]
    for i in range(n):
        if lst[li, i] == x:
            for j in range(i, n - 1):
                lst[li, j] = lst[li, j + 1]
            ln[li] = n - 1
            return i
    return -1


@jit
def insert(lst, ln, li, pos, x):
    for j in range(ln[li], pos, -1):
        lst[li, j] = lst[li, j - 1]
    lst[li, pos] = x
    ln[li] += 1


@jit_inline
def insert_sorted(keys, cards, k, key, c):
    """Insert (key, c) into ``keys[:k]``/``cards[:k]``, kept sorted by key, after any equal key
    (insertion sort: the lists are short); returns the new count."""
    j = k
    while j > 0 and keys[j - 1] > key:
        keys[j], cards[j] = keys[j - 1], cards[j - 1]
        j -= 1
    keys[j], cards[j] = key, c
    return k + 1


@jit
def shuffle(lst, ln, li, states):
    """Fisher-Yates from the chance stream (slot 0), as the reference's ``Game.shuffle``."""
    for i in range(ln[li] - 1, 0, -1):
        j = below(states, 0, i + 1)
        t = lst[li, i]
        lst[li, i] = lst[li, j]
        lst[li, j] = t


# ---- card facts ---------------------------------------------------------------------------
@jit_inline
def name_of(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return defs[cs[c, C_DEF], D_NAME]


@jit_inline
def printed(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return defs[cs[c, C_DEF], D_POWER]


@jit_inline
def is_minion_card(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return defs[cs[c, C_DEF], D_KIND] != K_ACTION


@jit_inline
def is_action_card(st, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return defs[cs[c, C_DEF], D_KIND] != K_MINION


# ---- drawing and discarding ------------------------------------------------------------------
@jit
def refill(st, p):
    """An empty deck becomes the shuffled discard pile; False if both are empty (§1.9)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if ln[L_DECK + p] > 0:
        return True
    n = ln[L_DISC + p]
    if n == 0:
        return False
    for i in range(n):
        c = lst[L_DISC + p, i]
        lst[L_DECK + p, i] = c
        cs[c, 2] = 1  # C_ZONE = Z_DECK
    ln[L_DECK + p] = n
    ln[L_DISC + p] = 0
    shuffle(lst, ln, L_DECK + p, states)
    return True


@jit
def draw(st, p, k):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for _ in range(k):
        if ln[L_DECK + p] == 0 and not refill(st, p):
            return
        c = pop(lst, ln, L_DECK + p)
        push(lst, ln, L_HAND + p, c)
        cs[c, C_ZONE] = Z_HAND


@jit
def top(st, p):
    """The top card of ``p``'s deck (refilled first, §1.9), or -1 (``Game.top``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not refill(st, p):
        return -1
    return lst[L_DECK + p, ln[L_DECK + p] - 1]


@jit
def to_discard(st, c):
    """A card goes to its owner's discard pile (from wherever it was already taken)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    o = cs[c, C_OWNER]
    push(lst, ln, L_DISC + o, c)
    cs[c, C_ZONE] = Z_DISCARD


@jit
def discard_from_hand(st, p, c):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    remove(lst, ln, L_HAND + p, c)
    to_discard(st, c)


@jit
def discard_random(st, p, k):
    """``p`` discards ``k`` random cards (chance stream), fewer if the hand runs out."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for _ in range(k):
        h = ln[L_HAND + p]
        if h == 0:
            return
        discard_from_hand(st, p, lst[L_HAND + p, below(states, 0, h)])


@jit
def discard_random_others(st, p, k):
    """Every player but ``p``, in turn order after ``p``, discards ``k`` random cards
    (``DISCARD others random k``: a card's program, a minion's leaf)."""
    n = st.tv[T_PLAYERS]
    for o in range(1, n):
        discard_random(st, (p + o) % n, k)


@jit
def keep_value(st, c):
    """Baseline discard order: the lowest value goes first (a minion its printed power, any
    other card 3)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    d = cs[c, C_DEF]
    return defs[d, D_POWER] if defs[d, D_KIND] == K_MINION else 3


@jit
def discard_choice(st, p):
    """``p`` discards one card of its choice (baseline: the lowest ``keep_value``, first in
    hand order on ties); ``Game.discard_choice``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = ln[L_HAND + p]
    if n == 0:
        return
    best, bv = 0, 1 << 30
    for i in range(n):
        v = keep_value(st, lst[L_HAND + p, i])
        if v < bv:
            best, bv = i, v
    discard_from_hand(st, p, lst[L_HAND + p, pick(st, p, n, best)])


# ---- board reading ------------------------------------------------------------------------------
@jit_inline
def nslots(st):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return tv[T_NSLOTS]


@jit
def count_named(st, name, p):
    """Minions named ``name`` in play controlled by ``p`` (p < 0: anyone's)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if defs[cs[m, C_DEF], D_NAME] == name and (p < 0 or cs[m, C_CTRL] == p):
                k += 1
    return k


@jit
def active(st, s):
    """False while the base's ability is cancelled (Jammed Signal, Infiltrate's talent)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if ss[s, S_CANCEL] != 0:
        return False
    for i in range(ln[L_SACT + s]):
        if defs[cs[lst[L_SACT + s, i], C_DEF], D_NAME] == N_JAMMED_SIGNAL:
            return False
    return True


@jit
def is_microbot(st, m):
    """A Microbot in play: a Microbot card, or any minion of a player with a Microbot Alpha."""
    return is_microbot_card(st, m) or count_named(st, N_MICROBOT_ALPHA, st.cs[m, C_CTRL]) > 0


@jit_inline
def is_microbot_card(st, c):
    """Out of play only the Microbot cards (static MICROBOT) are Microbots (§1.1)."""
    return (st.defs[st.cs[c, C_DEF], D_FLAGS] & FL_MICROBOT) != 0


# ---- power ------------------------------------------------------------------------------------
# A minion's power reads the rest of the board (Microbot Alpha and Fixer, War Raptors, The
# Central Brain). Counting that once per board reading, not once per minion, keeps a reading of
# every base linear in the minions in play: the baseline's V reads the board for every
# candidate of every choice, and re-counting per minion was most of the kernel's time.
#
# The helpers a reading calls per minion or per slot are ``jit_inline``: when the state was a
# tuple, a plain kernel call copied its 17 arrays (about 150 machine words) onto the stack, more
# than these helpers' work (measured: inlining them and the listing's per-slot tests took greedy
# play at 2 players from about 1,200 to 2,400 games/s). Each inlined helper adds a little to the
# cold compile, so only helpers called in loops are inlined. Since the state is a record (one
# pointer per call), the per-slot readings (``slot_power``, ``slot_term``, ``powers_term``,
# ``counted_vp_now``; baseline's ``read_slots`` and ``v_*``) are plain functions again: inlined
# at every caller they made the cold compile x1.5 for no measurable speed (docs/BENCHMARKS.md).
CNT_ALPHA, CNT_FIXER, CNT_MINIONS = 0, MAX_PLAYERS, 2 * MAX_PLAYERS
CNT_N = 3 * MAX_PLAYERS


@jit_inline
def power_counts(st, cnt):
    """``cnt int64[CNT_N]``: per controller p, its Microbot Alphas (``cnt[CNT_ALPHA + p]``),
    Microbot Fixers (``CNT_FIXER + p``) and minions (``CNT_MINIONS + p``) in play: as kept per
    seat (``count_minion``), or counted on the board while it is edited "as if" (``as_if``).
    Left unset in a game without an Alpha or Fixer (``T_MICROBOTS`` 0), where nothing reads
    them (``card_power`` and PLACE's ``place_read`` ask ``T_MICROBOTS`` first): inlined, so the
    many readings of such a game make no call (619 a greedy game at 2 players) and clear nothing."""
    if st.tv[T_MICROBOTS] != 0:
        cnt[:] = 0
        microbot_counts(st, cnt)


@jit
def microbot_counts(st, cnt):
    """``power_counts`` in a game whose decks hold an Alpha or Fixer (``cnt`` zeroed)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if tv[T_ASIF] == 0:
        for p in range(tv[T_PLAYERS]):
            cnt[CNT_ALPHA + p] = ps[p, P_ALPHAS]
            cnt[CNT_FIXER + p] = ps[p, P_FIXERS]
            cnt[CNT_MINIONS + p] = ps[p, P_MINIONS]
        return
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            p = cs[m, C_CTRL]
            cnt[CNT_MINIONS + p] += 1
            n = defs[cs[m, C_DEF], D_NAME]
            if n == N_MICROBOT_ALPHA:
                cnt[CNT_ALPHA + p] += 1
            elif n == N_MICROBOT_FIXER:
                cnt[CNT_FIXER + p] += 1


@jit_inline
def count_minion(st, m, delta):
    """Minion ``m`` enters play (``delta`` 1) or leaves it (-1) under its controller: keeps the
    seat's counts that powers read (``P_ALPHAS``, ``P_FIXERS``, ``P_MINIONS``; ``power_counts``).
    Called where minions really enter and leave play (``vm.enter_minion``, ``leave``)."""
    cs, ps = st.cs, st.ps
    p = cs[m, C_CTRL]
    ps[p, P_MINIONS] += delta
    n = st.defs[cs[m, C_DEF], D_NAME]
    if n == N_MICROBOT_ALPHA:
        ps[p, P_ALPHAS] += delta
    elif n == N_MICROBOT_FIXER:
        ps[p, P_FIXERS] += delta


@jit_inline
def as_if(st, delta):
    """The baseline begins (``delta`` 1) or ends (-1) an "as if" edit of the board, read and
    then restored exactly: meanwhile ``power_counts`` counts the board itself (the edit may add
    or take away minions), not the counts kept per seat."""
    st.tv[T_ASIF] += delta


@jit_inline
def slot_bonus(st, s):
    """(Minions on slot ``s`` whose power counts their name there (static PER_NAME_HERE: War
    Raptors; one such name per card list; counted only in a game whose decks hold one,
    ``T_RAPTORS``), ``base_bonus(st, s)``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    raptors = 0
    if tv[T_RAPTORS] != 0:
        for i in range(ln[L_SMIN + s]):
            if defs[cs[lst[L_SMIN + s, i], C_DEF], D_PER_NAME] != 0:
                raptors += 1
    return raptors, base_bonus(st, s)


@jit_inline
def base_bonus(st, s):
    """The power slot ``s``'s base gives every minion there (static MINION_POWER: The Central
    Brain's +1; 0 while its ability is cancelled)."""
    base_power = st.bases[st.ss[s, S_BASE], BS_MINION_POWER]
    if base_power != 0 and not active(st, s):
        base_power = 0
    return base_power


@jit_inline
def counted_power(st, m, cnt, raptors, base_power):
    """Current power (§1.4) of minion ``m`` given the board's ``power_counts`` and its slot's
    ``slot_bonus``; floored at 0 as a total [D11]. Reference ``Game.power``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    d = cs[m, C_DEF]
    p = cs[m, C_CTRL]
    total = cs[m, C_COUNTERS] + cs[m, C_TEMP]
    for i in range(ln[L_ATT + m]):  # static HOST_POWER: Upgrade +2, Poison -4
        total += defs[cs[lst[L_ATT + m, i], C_DEF], D_HOST_POWER]
    total += raptors * defs[d, D_PER_NAME]
    if defs[d, D_NAME] == N_ARMOR_STEGO and cs[m, C_STEGO] != 0 and tv[T_CURRENT] != p:
        total += 2
    return card_power(st, d, p, cnt, base_power, total)


@jit_inline
def card_power(st, d, p, cnt, base_power, total):
    """The power of a minion of definition ``d`` under ``p``, floored at 0 as a total [D11]:
    ``total`` (what its own state adds: counters, temporary power, attached actions, War
    Raptors, Armor Stego's mark) plus its printed power, its base's ``base_power`` and the
    Microbot terms from ``cnt``. ``counted_power`` of a minion in play, and of a card the
    moment it would enter play (``total`` 0: ``baseline.v_added_alone``)."""
    defs, tv = st.defs, st.tv
    total += defs[d, D_POWER] + base_power
    if tv[T_MICROBOTS] != 0:  # else no Alpha or Fixer in this game, and the counts are 0
        if (defs[d, D_FLAGS] & FL_MICROBOT) != 0 or cnt[CNT_ALPHA + p] > 0:
            total += cnt[CNT_FIXER + p]
        if defs[d, D_NAME] == N_MICROBOT_ALPHA:
            total += cnt[CNT_MINIONS + p] - 1
    return max(0, total)


@jit
def power(st, m):
    """Current power of minion ``m`` (in play); reference ``Game.power``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cnt = stack_empty(CNT_N)
    power_counts(st, cnt)
    raptors, base_power = slot_bonus(st, cs[m, C_SLOT])
    return counted_power(st, m, cnt, raptors, base_power)


@jit
def slot_power(st, s, cnt, pw):
    """Fills ``pw[p]`` (p's power on slot ``s``, -1: no minion there) given the board's
    ``power_counts``; returns the slot's total power."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    raptors, base_power = slot_bonus(st, s)
    for p in range(MAX_PLAYERS):  # a constant count: stores, where tv[T_PLAYERS] made a memset call
        pw[p] = -1
    total = 0
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        x = counted_power(st, m, cnt, raptors, base_power)
        p = cs[m, C_CTRL]
        if pw[p] < 0:
            pw[p] = 0
        pw[p] += x
        total += x
    return total


@jit
def total_power(st, s):
    cnt = stack_empty(CNT_N)
    pw = stack_empty(MAX_PLAYERS)
    power_counts(st, cnt)
    return slot_power(st, s, cnt, pw)


@jit_inline
def breakpoint_of(st, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return max(0, bases[ss[s, S_BASE], BS_BREAK] - ss[s, S_REDUCTION])


@jit
def gap(st, s):
    return breakpoint_of(st, s) - total_power(st, s)


@jit_inline
def rank(pw, place):
    """``place[p]`` (0 = first; -1: no place) from ``pw`` (``slot_power``'s, -1: no minion,
    and so for every seat past the players): a player's place is the number of players with
    strictly more power (seed 003). Over every seat slot, as ``powers_term``."""
    for p in range(MAX_PLAYERS):
        place[p] = -1
        if pw[p] >= 0:
            k = 0
            for q in range(MAX_PLAYERS):
                if pw[q] > pw[p]:
                    k += 1
            place[p] = k


@jit
def places(st, s, pw, place):
    """Fills ``pw[p]`` (power on the base, -1: no minion) and ``place[p]`` (``rank``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cnt = stack_empty(CNT_N)
    power_counts(st, cnt)
    slot_power(st, s, cnt, pw)
    rank(pw, place)


@jit
def counted_vp_now(st, s, cnt, out):
    """``out[p]``: the VP each seat would take from slot ``s``'s places if it scored now, given
    the board's ``power_counts``; returns the slot's total power."""
    pw = stack_empty(MAX_PLAYERS)
    total = slot_power(st, s, cnt, pw)
    vp_of_powers(st, s, pw, out)
    return total


@jit_inline
def vp_of_two(bases, b, x, y):
    """The VP base ``b`` gives a seat with power ``x`` there (-1: no minion) in a game of two
    players, the other with ``y``: first place unless ``y`` is more (a tie shares first)."""
    return bases[b, BS_VP0 + (1 if y > x else 0)] if x >= 0 else 0


@jit_inline
def vp_of_powers(st, s, pw, out):
    """``out[p]``: the VP each seat would take from slot ``s``'s places with the seats' powers
    there ``pw`` (``slot_power``'s, -1: no minion); 0 for every seat past the players."""
    ss, bases = st.ss, st.bases
    if st.tv[T_PLAYERS] == 2:  # as ``powers_term``: a place is one comparison
        b = ss[s, S_BASE]
        x, y = pw[0], pw[1]
        out[0], out[1] = vp_of_two(bases, b, x, y), vp_of_two(bases, b, y, x)
        for q in range(2, MAX_PLAYERS):
            out[q] = 0
        return
    place = stack_empty(MAX_PLAYERS)
    rank(pw, place)
    for p in range(MAX_PLAYERS):
        out[p] = bases[ss[s, S_BASE], BS_VP0 + place[p]] if 0 <= place[p] < 3 else 0


@jit_inline
def best_rival(p, now):
    """The most VP any seat but ``p`` would take (``now``, ``vp_now``'s: 0 past the players),
    at least 0."""
    best = 0
    for q in range(MAX_PLAYERS):
        if q != p and now[q] > best:
            best = now[q]
    return best


@jit
def vp_now(st, s, out):
    """``out[p]``: the VP each seat would take from the base's places if it scored now."""
    cnt = stack_empty(CNT_N)
    power_counts(st, cnt)
    counted_vp_now(st, s, cnt, out)


@jit
def V(st, p):
    """The baseline's board value for seat ``p`` (§1.11), in the seat's weights (percent):
    sum over bases of (ready% if the base is ready to score, else 100%) x (100 x p's VP there
    now - deny% x the best rival's). The baseline's 200% and 100% give 10,000 x the spec's V,
    so every comparison of V values decides alike; a ``planner`` seat tunes both."""
    cnt = stack_empty(CNT_N)
    power_counts(st, cnt)
    terms = stack_empty(MAX_SLOTS)
    return slot_terms(st, p, cnt, terms)


@jit_inline
def slot_terms(st, p, cnt, terms):
    """Every slot's term of ``V`` for seat ``p`` into ``terms`` int64[MAX_SLOTS], given the
    board's ``power_counts``; returns their sum, ``V(st, p)``."""
    total = 0
    for s in range(st.tv[T_NSLOTS]):
        terms[s] = slot_term(st, p, s, cnt)[0]
        total += terms[s]
    return total


@jit
def slot_term(st, p, s, cnt):
    """(slot ``s``'s term of ``V`` for seat ``p``, the slot's total power), given the board's
    ``power_counts``. A term reads the rest of the board only through ``cnt``, so a change
    that leaves ``cnt`` alone changes only the terms of the slots it touches."""
    pw = stack_empty(MAX_PLAYERS)
    total = slot_power(st, s, cnt, pw)
    return powers_term(st, p, s, pw, total), total


@jit
def powers_term(st, p, s, pw, total):
    """Slot ``s``'s term of ``V`` for seat ``p`` from the seats' powers there ``pw`` (-1: no
    minion) and the slot's ``total`` power (``slot_term`` without reading the slot)."""
    strat, bases = st.strat, st.bases
    b = st.ss[s, S_BASE]
    if st.tv[T_PLAYERS] == 2:  # p and one rival: a place is one comparison (the loop's VP)
        x, y = pw[p], pw[1 - p]
        mine, rival = vp_of_two(bases, b, x, y), vp_of_two(bases, b, y, x)
    else:
        mine, rival = 0, 0  # vp_of_powers' VP for p and best_rival's, without the arrays
        # Over every seat slot, not tv[T_PLAYERS]: past the players pw is -1 (``slot_power``),
        # so those seats neither place nor outrank anyone, and a constant count compiles to
        # straight code with no count to test (docs/ARCHITECTURE.md, "Loops of a few").
        for q in range(MAX_PLAYERS):
            x = pw[q]
            if x < 0:
                continue
            k = 0  # q's place (``rank``)
            for r in range(MAX_PLAYERS):
                if pw[r] > x:
                    k += 1
            if k < 3:
                v = bases[b, BS_VP0 + k]
                if q == p:
                    mine = v
                elif v > rival:
                    rival = v
    w = strat[SW_READY + 2 * p] if total >= breakpoint_of(st, s) else 100
    return w * (100 * mine - strat[SW_DENY + 2 * p] * rival)


# ---- legality --------------------------------------------------------------------------------
@jit
def affectable(st, m, by, action):
    """Can a card controlled by ``by`` (-1: a base) affect minion ``m`` (§1.3.4)?"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if by < 0:
        return True
    for i in range(ln[L_ATT + m]):  # static PROTECT host (Tooth and Claw, Smoke Bomb)
        a = lst[L_ATT + m, i]
        prot = defs[cs[a, C_DEF], D_PROTECT]
        if by != cs[a, C_CTRL] and ((prot & PROT_CARDS_HOST) != 0
                                    or (action and (prot & PROT_ACTIONS_HOST) != 0)):
            return False
    if action:  # static PROTECT mine_here (Wildlife Preserve)
        s = cs[m, C_SLOT]
        for i in range(ln[L_SACT + s]):
            a = lst[L_SACT + s, i]
            if (defs[cs[a, C_DEF], D_PROTECT] & PROT_ACTIONS_MINE_HERE) != 0 \
                    and cs[m, C_CTRL] == cs[a, C_CTRL] and cs[a, C_CTRL] != by:
                return False
    return True


@jit
def destroyable(st, m, by, action):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    return (defs[cs[m, C_DEF], D_FLAGS] & FL_INDESTRUCTIBLE) == 0 and affectable(st, m, by, action)


@jit
def move_pairs(st, who, legal, where, here, p, action, moved, nm, mm, md):
    """The (minion ``mm[j]``, base ``md[j]``) moves a card of seat ``p`` offers: minions in board
    order of ``who`` (``opcodes.OWNER_*``) not in ``moved[:nm]``, that the card may affect when
    ``legal`` is LEGAL_AFFECT (``action``: an action card's), each one's legal bases in slot
    order; the count. ``where`` (``opcodes.WHERE_*``) narrows them to the minions on slot
    ``here`` (WHERE_HERE), to the moves onto it (WHERE_TO_HERE), or lists the moves out of it
    and then those onto it (WHERE_OUT_OR_IN: Mushroom Kingdom)."""
    if where == WHERE_OUT_OR_IN:
        k = moves_listed(st, who, legal, WHERE_HERE, here, p, action, moved, nm, mm, md, 0)
        return moves_listed(st, who, legal, WHERE_TO_HERE, here, p, action, moved, nm, mm, md, k)
    return moves_listed(st, who, legal, where, here, p, action, moved, nm, mm, md, 0)


@jit
def moves_listed(st, who, legal, where, here, p, action, moved, nm, mm, md, k):
    """``move_pairs`` for one ``where`` other than WHERE_OUT_OR_IN, written from ``mm[k]`` on;
    returns the new count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    lo, hi = (here, here + 1) if where == WHERE_TO_HERE else (0, tv[T_NSLOTS])  # the destinations
    for t in range(tv[T_NSLOTS]):
        if where == WHERE_HERE and t != here or where == WHERE_TO_HERE and t == here:
            continue  # WHERE_HERE: the minions here only; WHERE_TO_HERE: the others
        for j in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, j]
            if (who == OWNER_MINE and cs[m, C_CTRL] != p) or (who == OWNER_THEIRS and cs[m, C_CTRL] == p):
                continue
            done = False
            for e in range(nm):
                if moved[e] == m:
                    done = True
            if done or (legal == LEGAL_AFFECT and not affectable(st, m, p, action)):
                continue
            for s in range(lo, hi):
                if can_move(st, p, m, s):
                    mm[k], md[k] = m, s
                    k += 1
    return k


@jit
def can_move(st, p, m, dest):
    """May seat ``p`` move minion ``m`` to slot ``dest`` (Mark of Sleep, current Hideout)?"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if dest == cs[m, C_SLOT] or ps[p, P_SLEEP_MODE] == SLEEP_MOVES:
        return False
    if rs[R_TRICKSTERS_2012] == 0:
        for i in range(ln[L_SACT + dest]):
            a = lst[L_SACT + dest, i]
            if defs[cs[a, C_DEF], D_NAME] == N_HIDEOUT and cs[a, C_CTRL] != p:
                return False
    return True


@jit_inline
def can_play_actions(st, p):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    mode = ps[p, P_SLEEP_MODE]
    return mode != SLEEP_ACTIONS and not (mode == SLEEP_ON_TURN and tv[T_CURRENT] == p)


@jit_inline
def minion_allowed(st, p, c, s):
    """May ``p`` play minion card ``c`` on slot ``s`` (Overrun, Block the Path)?"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    faction_bit = 1 << defs[cs[c, C_DEF], 3]  # D_FACTION
    for i in range(ln[L_SACT + s]):
        a = lst[L_SACT + s, i]
        an = defs[cs[a, C_DEF], D_NAME]
        if an == N_OVERRUN and cs[a, C_CTRL] != p:
            return False
        if an == N_BLOCK_THE_PATH and (cs[a, C_NAMED] & faction_bit) != 0:
            return False
    return True


@jit
def count_on(st, p, s):
    """How many minions ``p`` controls on slot ``s``."""
    cs, lst, ln = st.cs, st.lst, st.ln
    k = 0
    for i in range(ln[L_SMIN + s]):
        if cs[lst[L_SMIN + s, i], C_CTRL] == p:
            k += 1
    return k


@jit_inline
def has_minion_on(st, p, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for i in range(ln[L_SMIN + s]):
        if cs[lst[L_SMIN + s, i], C_CTRL] == p:
            return True
    return False


@jit_inline
def grant_for(st, p, c, s, from_discard):
    """Index into ``gr`` of the most restrictive open grant the play fits [D12]; ``-2`` for the
    free play, ``-1`` for none (reference ``Game.grant_for``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_NGRANTS]
    if from_discard:
        for i in range(n):
            if gr[i, 0] == G_DISC:
                return i
        return -1
    for i in range(n):
        if gr[i, 0] == G_AT and gr[i, 1] == s:
            return i
    for i in range(n):
        if gr[i, 0] == G_EMPTY:
            if not has_minion_on(st, p, s):
                return i
            break
    for i in range(n):
        if gr[i, 0] == G_TWO:
            if defs[cs[c, C_DEF], D_POWER] <= 2:
                return i
            break
    for i in range(n):
        if gr[i, 0] == G_ANY:
            return i
    if hand_play_open(st, p):
        return -2
    return -1


@jit_inline
def hand_play_open(st, p):
    """``p``'s free minion play of its Play Cards phase is still open."""
    tv = st.tv
    return tv[T_FREE_MIN] > 0 and p == tv[T_CURRENT] and tv[T_IN_PHASE] != 0


@jit
def use_grant(st, i):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if i == -2:
        tv[T_FREE_MIN] -= 1
        return
    n = tv[T_NGRANTS]
    for j in range(i, n - 1):
        gr[j, 0] = gr[j + 1, 0]
        gr[j, 1] = gr[j + 1, 1]
    tv[T_NGRANTS] = n - 1


@jit
def add_grant(st, kind, s):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    n = tv[T_NGRANTS]
    gr[n, 0] = kind
    gr[n, 1] = s
    tv[T_NGRANTS] = n + 1


# ---- leaving play and moving (the parts without triggers) ---------------------------------------
@jit
def lowest_if_mixed(st, s):
    """The lowest power among the minions on slot ``s`` if their powers differ, else -1 (none,
    or all equal: Survival of the Fittest [D38])."""
    lst, ln = st.lst, st.ln
    low, high = 1 << 30, -1
    for i in range(ln[L_SMIN + s]):
        pw = power(st, lst[L_SMIN + s, i])
        low = min(low, pw)
        high = max(high, pw)
    return low if high > low else -1


@jit
def actions_in_play(st, out):
    """Every action in play in ``out``: on bases (slot order), then on minions (board order);
    the count."""
    lst, ln, tv = st.lst, st.ln, st.tv
    k = 0
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SACT + s]):
            out[k] = lst[L_SACT + s, i]
            k += 1
    for s in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            for j in range(ln[L_ATT + m]):
                out[k] = lst[L_ATT + m, j]
                k += 1
    return k


@jit
def discard_attached(st, a):
    """An attached action leaves play to its owner's discard pile."""
    detach(st, a)
    to_discard(st, a)


@jit
def detach(st, a):
    """Attached action ``a`` leaves play (to a pile its caller puts it in): off its host's list
    (a minion's, or its base's) and off its controller's cards with a trigger (``track_triggered``)."""
    cs, lst, ln = st.cs, st.lst, st.ln
    track_triggered(st, a, False)
    h = cs[a, C_HOST]
    if h >= 0:
        remove(lst, ln, L_ATT + h, a)
    else:
        remove(lst, ln, L_SACT + cs[a, C_SLOT], a)


@jit
def leave(st, m):
    """Take a minion out of play; its actions go to their owners' discard piles (§1.6)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    track_triggered(st, m, False)
    count_minion(st, m, -1)
    remove(lst, ln, L_SMIN + cs[m, C_SLOT], m)
    while ln[L_ATT + m] > 0:
        discard_attached(st, lst[L_ATT + m, 0])
    cs[m, C_COUNTERS] = 0
    cs[m, C_TEMP] = 0
    cs[m, C_TALENT] = 0
    cs[m, C_STEGO] = 0
    cs[m, C_BUCC] = 0


@jit
def protect(st, m):
    """Discard other players' actions already on a minion that became protected [D7]."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    i = 0
    while i < ln[L_ATT + m]:
        a = lst[L_ATT + m, i]
        if not affectable(st, m, cs[a, C_CTRL], True):
            discard_attached(st, a)
        else:
            i += 1


@jit
def protect_on_attach(st, a):
    """Action ``a`` just attached: the minions its PROTECT static covers (its host, or its
    controller's minions on its base) lose other players' actions already on them [D7]."""
    cs, lst, ln, defs = st.cs, st.lst, st.ln, st.defs
    prot = defs[cs[a, C_DEF], D_PROTECT]
    if (prot & (PROT_CARDS_HOST | PROT_ACTIONS_HOST)) != 0:
        protect(st, cs[a, C_HOST])
    if (prot & PROT_ACTIONS_MINE_HERE) != 0:
        s = cs[a, C_SLOT]
        for i in range(ln[L_SMIN + s]):
            m = lst[L_SMIN + s, i]
            if cs[m, C_CTRL] == cs[a, C_CTRL]:
                protect(st, m)


# ---- what a played card's own steps affect (2012 Hideout and Brownie) --------------------------
@jit
def own_play(st):
    """The depth of the play frame (PR_PLAY_MINION or PR_PLAY_ACTION) whose card's own steps
    are running (the reference's innermost ``Game.plays`` entry), or -1: none, or another
    card's ability runs (an after-played frame, a talent, a destruction's triggers)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    d = tv[T_SP] - 1
    if tv[T_QUIET] != 0 or d < 0:
        return -1
    if fs[d, F_PROC] == PR_PLAY_ACTION:  # choosing and attaching to the host
        return d
    if fs[d, F_PROC] == PR_CARD and fs[d, F_X] <= H_ATTACH:  # on-play, action, on-attach hooks
        return d - 1  # pushed by the play's frame, right under it
    return -1


@jit
def touch(st, m):
    """``Game.touch``: the card being played is about to affect minion ``m`` (§1.3.5 [D6]);
    False when the 2012 Hideout shields ``m`` from it (the caller then leaves ``m`` alone).
    With the 2012 list only: the Hideout shields its controller's minions on its base from the
    first other player's action that would affect one of them, for that whole action, and is
    destroyed instead [D41]; an affected minion is marked for the 2012 Brownie (``C_TOUCH``).
    Outside a card's own steps (``own_play``) nothing happens."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if rs[R_TRICKSTERS_2012] == 0:
        return True
    d = own_play(st)
    if d < 0:
        return True
    q, s = cs[m, C_CTRL], cs[m, C_SLOT]
    if fs[d, F_PROC] == PR_PLAY_ACTION and q != fs[d, F_P]:
        bit = 1 << (q * MAX_SLOTS + s)
        if fs[d, F_SHIELD] & bit:
            return False
        for i in range(ln[L_SACT + s]):
            a = lst[L_SACT + s, i]
            if defs[cs[a, C_DEF], D_NAME] == N_HIDEOUT and cs[a, C_CTRL] == q:
                discard_attached(st, a)
                fs[d, F_SHIELD] |= bit
                return False
    cs[m, C_TOUCH] |= 1 << d
    return True


@jit
def brownies(st, d):
    """``Game.end_play``: the own steps of the play at depth ``d`` are over; each 2012 Brownie
    they affected makes the card's player, if not its controller, discard two random cards,
    whether it is still in play or not [D30]. (All discards are the same player's, so their
    order among Brownies changes nothing.)"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if rs[R_TRICKSTERS_2012] == 0:
        return
    p, bit = fs[d, F_P], 1 << d
    for c in range(cs.shape[0]):
        if cs[c, C_TOUCH] & bit:
            cs[c, C_TOUCH] &= ~bit
            if defs[cs[c, C_DEF], D_NAME] == N_BROWNIE and cs[c, C_CTRL] != p:
                discard_random(st, p, 2)


@jit
def move(st, m, dest):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not touch(st, m):
        return
    remove(lst, ln, L_SMIN + cs[m, C_SLOT], m)
    push(lst, ln, L_SMIN + dest, m)
    cs[m, C_SLOT] = dest
    for i in range(ln[L_ATT + m]):
        cs[lst[L_ATT + m, i], C_SLOT] = dest
    protect(st, m)


@jit
def return_to_hand(st, m):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not touch(st, m):
        return
    leave(st, m)
    o = cs[m, C_OWNER]
    push(lst, ln, L_HAND + o, m)
    cs[m, C_ZONE] = Z_HAND


@jit
def to_deck_bottom(st, m):
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if not touch(st, m):
        return
    leave(st, m)
    o = cs[m, C_OWNER]
    insert(lst, ln, L_DECK + o, 0, m)
    cs[m, C_ZONE] = 1  # Z_DECK


@jit
def enter_play(st, p, c, s, entry):
    """A minion card enters play on slot ``s`` under ``p``'s control (already out of its zone)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    push(lst, ln, L_SMIN + s, c)
    cs[c, C_ZONE] = Z_MINION
    cs[c, C_CTRL] = p
    cs[c, C_SLOT] = s
    cs[c, C_ENTERED] = entry
    cs[c, C_COUNTERS] = 0
    cs[c, C_TEMP] = 0
    cs[c, C_TALENT] = 0
    cs[c, C_STEGO] = 0
    cs[c, C_BUCC] = 0
    cs[c, C_HOST] = -1


@jit
def attach(st, c, ctrl, s, host, entry):
    """An action card attaches to slot ``s`` (host -1) or to minion ``host`` (on slot ``s``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if host >= 0:
        push(lst, ln, L_ATT + host, c)
    else:
        push(lst, ln, L_SACT + s, c)
    cs[c, C_ZONE] = Z_ATTACHED
    cs[c, C_CTRL] = ctrl
    cs[c, C_SLOT] = s
    cs[c, C_HOST] = host
    cs[c, C_ENTERED] = entry
    cs[c, C_TALENT] = 0
    cs[c, C_NAMED] = 0
    cs[c, C_TURN] = tv[T_TURNS]  # the reference's Attached.turn
    track_triggered(st, c, True)


@jit_inline
def track_triggered(st, x, entering):
    """Card ``x`` comes into play (``entering``) or leaves it under its controller: keeps list
    ``L_TRIGGERED + q``, seat q's cards in play with a talent or a triggered ability (any
    ``D_TRIGGERS`` bit), so their uses find them without searching the board (the Play Cards
    phase's talents, ``turn.talent_moves``; the start, end and after-played triggers,
    ``vm.in_play_by_order``). Called where cards really enter and leave play
    (``vm.enter_minion``, ``attach``, ``leave``, ``detach``, Hideout's swap), never by the
    baseline's "as if" boards, which call ``enter_play`` and restore the lists themselves."""
    cs, lst, ln, defs = st.cs, st.lst, st.ln, st.defs
    if defs[cs[x, C_DEF], D_TRIGGERS] != 0:
        if entering:
            push(lst, ln, L_TRIGGERED + cs[x, C_CTRL], x)
        else:
            remove(lst, ln, L_TRIGGERED + cs[x, C_CTRL], x)

