"""The baseline's vocabulary in the kernel: HIT, HELP, PLACE and the minion-play choice
(reference/baseline.py function by function). Candidate lists are int64 arrays of card ids
(or slots) with a count; results are indices into them, -1 for none."""
from balance.core._jit import jit_widened as jit
from balance.core._jit import jit_inline, stack_empty, stack_zeros

from .layout import unpack
from .board import (
    as_if, CNT_ALPHA, CNT_N, V, base_bonus, best_rival, breakpoint_of, card_power, counted_power, counted_vp_now,
    enter_play, insert, power, power_counts, powers_term, printed, push, remove, slot_bonus, slot_power, slot_term,
    vp_now,
)
from .layout import (
    C_CTRL, C_DEF, C_ENTERED, C_SLOT, C_ZONE, L_SMIN, MAX_PLAYERS, MAX_SLOTS, P_MINIONS_PLAYED, P_VP,
    T_MEMO, T_MEMO_AT, T_MEMO_P, T_MICROBOTS, T_NSLOTS, T_PLAYERS, MEMO_N,
)
from .names import N_MICROBOT_ALPHA, N_MICROBOT_FIXER, N_MICROBOT_RECLAIMER, N_WAR_RAPTOR
from .tables import D_NAME, D_PER_NAME, D_POWER


@jit
def outranked(st, p, s):
    """Some opponent would take more VP than ``p`` from slot ``s`` now."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    now = stack_empty(MAX_PLAYERS)
    vp_now(st, s, now)
    return best_rival(p, now) > now[p]


@jit
def opponent(st, p):
    """The baseline's opponent to target: most VP, ties to the earliest in turn order after ``p``."""
    ps, tv = st.ps, st.tv
    n = tv[T_PLAYERS]
    best = (p + 1) % n
    for o in range(2, n):
        q = (p + o) % n
        if ps[q, P_VP] > ps[best, P_VP]:
            best = q
    return best


@jit
def vp_of(st, s, q):
    """``g.vp_now(slot)[q]``."""
    now = stack_empty(4)
    vp_now(st, s, now)
    return now[q]


@jit
def vp_with_move(st, p, m, dest, s):
    """``vp_if(g, p, slot s, moves=[(m, dest)])``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    old = cs[m, C_SLOT]
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + old, m)
    push(lst, ln, L_SMIN + dest, m)
    cs[m, C_SLOT] = dest
    v = vp_of(st, s, p)
    ln[L_SMIN + dest] -= 1
    insert(lst, ln, L_SMIN + old, i, m)
    cs[m, C_SLOT] = old
    as_if(st, -1)
    return v

@jit
def hit(st, p, cand, n, mandatory):
    """HIT over minions ``cand[:n]``: another player's minion on a base where an opponent
    outranks ``p`` (smallest gap, then highest power), else the highest-power one anywhere;
    for a mandatory step with only ``p``'s minions, the lowest-power one [D9]; else -1."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cnt = stack_empty(CNT_N)
    reading = stack_empty(BOARD_READING)
    board_reading(st, p, cnt, reading)
    best, hot_best = -1, -1
    bk = (0, 0, 0, 0)
    hk = (0, 0, 0, 0)
    for i in range(n):
        m = cand[i]
        if cs[m, C_CTRL] == p:
            continue
        s = cs[m, C_SLOT]
        g, pw = reading[RD_GAP + s], read_power(st, m, cnt, reading)
        if reading[RD_OUTRANKED + s]:
            k = (g, -pw, s, cs[m, C_ENTERED])
            if hot_best < 0 or k < hk:
                hot_best, hk = i, k
        k2 = (-pw, g, s, cs[m, C_ENTERED])
        if best < 0 or k2 < bk:
            best, bk = i, k2
    if hot_best >= 0:
        return hot_best
    if best >= 0:
        return best
    if mandatory and n > 0:
        own = 0
        ok = (0, 0, 0)
        for i in range(n):
            m = cand[i]
            k3 = (read_power(st, m, cnt, reading), cs[m, C_SLOT], cs[m, C_ENTERED])
            if i == 0 or k3 < ok:
                own, ok = i, k3
        return own
    return -1


@jit
def best_move(st, p, mm, md, k):
    """Index of the move (mm[i] to md[i]) raising V most (ties: the first), or -1 if none does."""
    if k == 0:
        return -1
    cnt = stack_empty(CNT_N)  # a move keeps the counts: each V recomputes only the two slots
    terms = stack_empty(MAX_SLOTS)
    totals = stack_empty(MAX_SLOTS)
    pws = stack_empty(SLOT_POWERS)
    before = read_slots(st, p, cnt, terms, pws, totals)
    best, bg = -1, 0
    gone, left = -1, 0  # the minion last valued leaving its slot, and V then (``v_left``)
    for i in range(k):
        m = mm[i]
        if st.defs[st.cs[m, C_DEF], D_PER_NAME] != 0 or md[i] == st.cs[m, C_SLOT]:
            g = v_move(st, p, m, md[i], cnt, pws, totals, terms, before) - before
        else:  # as v_moved_alone, with each minion's leaving valued once for all its bases
            if m != gone:
                gone, left = m, v_left(st, p, m, cnt, pws, totals, terms, before)
            g = v_arrived(st, p, m, md[i], cnt, pws, totals, terms, left) - before
        if best < 0 or g > bg:
            best, bg = i, g
    return best if bg > 0 else -1


@jit
def best_printed(st, cards, k):
    """Index of the highest printed power among ``cards[:k]`` (ties: the first); 0 for none."""
    best = 0
    for i in range(1, k):
        if printed(st, cards[i]) > printed(st, cards[best]):
            best = i
    return best


@jit
def strongest(st, cand, k):
    """The highest-power minion of ``cand[:k]`` (ties: the first); ``k`` >= 1."""
    best = 0
    for i in range(1, k):
        if power(st, cand[i]) > power(st, cand[best]):
            best = i
    return best


@jit
def weakest(st, cand, k):
    """The lowest-power minion of ``cand[:k]`` (ties: the first); ``k`` >= 1."""
    best = 0
    for i in range(1, k):
        if power(st, cand[i]) < power(st, cand[best]):
            best = i
    return best


# A reading of the whole board for seat p, taken once for a choice over many minions (with
# the power_counts): per slot its gap, whether an opponent outranks p there, and its
# slot_bonus (War Raptors, The Central Brain).
RD_GAP = 0
RD_OUTRANKED = RD_GAP + MAX_SLOTS
RD_RAPTORS = RD_OUTRANKED + MAX_SLOTS
RD_BRAIN = RD_RAPTORS + MAX_SLOTS
BOARD_READING = RD_BRAIN + MAX_SLOTS
assert CNT_N + BOARD_READING == MEMO_N  # the reading kept in tv (layout.T_MEMO)


@jit
def read_board(st, p, cnt, reading):
    """Fills ``cnt int64[CNT_N]`` (``power_counts``) and ``reading int64[BOARD_READING]``."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    power_counts(st, cnt)
    now = stack_empty(MAX_PLAYERS)
    for s in range(tv[T_NSLOTS]):
        reading[RD_GAP + s] = breakpoint_of(st, s) - counted_vp_now(st, s, cnt, now)
        reading[RD_OUTRANKED + s] = 1 if best_rival(p, now) > now[p] else 0
        reading[RD_RAPTORS + s], reading[RD_BRAIN + s] = slot_bonus(st, s)


@jit
def board_reading(st, p, cnt, reading):
    """``read_board``, kept in ``tv`` while ``turn.greedy_play`` makes one choice for seat
    ``p`` (T_MEMO): its wants and hosts read the same board many times."""
    tv = st.tv
    if tv[T_MEMO] == 0 or tv[T_MEMO_P] != p:
        read_board(st, p, cnt, reading)
        return
    kept = T_MEMO_AT + CNT_N  # the reading after the counts (element loops: no NRT for slices)
    if tv[T_MEMO] == 1:
        read_board(st, p, cnt, reading)
        for i in range(CNT_N):
            tv[T_MEMO_AT + i] = cnt[i]
        for i in range(BOARD_READING):
            tv[kept + i] = reading[i]
        tv[T_MEMO] = 2
        return
    for i in range(CNT_N):
        cnt[i] = tv[T_MEMO_AT + i]
    for i in range(BOARD_READING):
        reading[i] = tv[kept + i]


@jit_inline
def read_power(st, m, cnt, reading):
    """``power(st, m)`` from a ``read_board`` reading."""
    cs = st.cs
    s = cs[m, C_SLOT]
    return counted_power(st, m, cnt, reading[RD_RAPTORS + s], reading[RD_BRAIN + s])


@jit
def help_(st, p, cand, n):
    """HELP over minions ``cand[:n]``: ``p``'s minion on the smallest-gap base, highest power."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cnt = stack_empty(CNT_N)
    reading = stack_empty(BOARD_READING)
    board_reading(st, p, cnt, reading)
    best = -1
    bk = (0, 0, 0, 0)
    for i in range(n):
        m = cand[i]
        if cs[m, C_CTRL] != p:
            continue
        s = cs[m, C_SLOT]
        k = (reading[RD_GAP + s], -read_power(st, m, cnt, reading), s, cs[m, C_ENTERED])
        if best < 0 or k < bk:
            best, bk = i, k
    return best


@jit
def help_w(st, p, cand, k):
    """HELP_W: HELP, else (no minion of yours) the lowest-power minion."""
    i = help_(st, p, cand, k)
    return weakest(st, cand, k) if i < 0 else i


@jit
def lead(st, p, s):
    """How far ``p`` leads on slot ``s``: its power there minus the highest other player's
    (negative: behind)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    pw = stack_zeros(MAX_PLAYERS)
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        pw[cs[m, C_CTRL]] += power(st, m)
    best = -1
    for q in range(tv[T_PLAYERS]):
        if q != p and (best < 0 or pw[q] > best):
            best = pw[q]
    return pw[p] - best


@jit
def v_with_card(st, p, c, s):
    """V for ``p`` with minion card ``c`` (not in play) added to slot ``s`` (``_v_with``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    zone, ctrl, slot = cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT]
    as_if(st, 1)
    enter_play(st, p, c, s, 1 << 30)
    v = V(st, p)
    ln[L_SMIN + s] -= 1
    cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT] = zone, ctrl, slot
    as_if(st, -1)
    return v


@jit
def v_with_minion(st, p, m, s):
    """V for ``p`` with minion ``m`` (in play) moved to slot ``s``, then put back in place."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    old = cs[m, C_SLOT]
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + old, m)
    push(lst, ln, L_SMIN + s, m)
    cs[m, C_SLOT] = s
    v = V(st, p)
    ln[L_SMIN + s] -= 1
    insert(lst, ln, L_SMIN + old, i, m)
    cs[m, C_SLOT] = old
    as_if(st, -1)
    return v


SLOT_POWERS = MAX_SLOTS * MAX_PLAYERS  # every slot's ``slot_power`` per seat (``read_slots``)


@jit
def read_slots(st, p, cnt, terms, pws, totals):
    """The board's ``power_counts`` into ``cnt``, then every slot's term of ``V`` for seat ``p``
    into ``terms``, its powers per seat into ``pws`` (slot s's from ``s * MAX_PLAYERS``,
    ``slot_power``'s) and its total power into ``totals`` (int64[MAX_SLOTS] each); returns
    ``V(st, p)``."""
    power_counts(st, cnt)
    pw = stack_empty(MAX_PLAYERS)
    before = 0
    for s in range(st.tv[T_NSLOTS]):
        total = slot_power(st, s, cnt, pw)
        for q in range(MAX_PLAYERS):
            pws[s * MAX_PLAYERS + q] = pw[q]
        terms[s], totals[s] = powers_term(st, p, s, pw, total), total
        before += terms[s]
    return before


@jit
def place(st, p, x, in_play, slots, n):
    """PLACE: the index in ``slots[:n]`` with the highest V once ``x`` (a card, or a minion in
    play when ``in_play``) arrives; ties: (a War Raptor: more of your War Raptors there,)
    smaller gap, lower slot; -1 when n == 0 (``place_read`` on the board read now)."""
    cnt = stack_empty(CNT_N)
    terms = stack_empty(MAX_SLOTS)
    totals = stack_empty(MAX_SLOTS)
    pws = stack_empty(SLOT_POWERS)
    before = read_slots(st, p, cnt, terms, pws, totals)
    return place_read(st, p, x, in_play, slots, n, cnt, terms, pws, totals, before)[0]


@jit
def place_read(st, p, x, in_play, slots, n, cnt, terms, pws, totals, before):
    """(PLACE's index, V once ``x`` is there) on ``read_slots``' reading of the board.

    V is a sum of per-slot terms that read the rest of the board only through the
    ``power_counts``, so the terms are taken once and each candidate recomputes only the slots
    it touches (a moved minion: its old and new slot). A card that changes no other minion's
    power (not a Microbot Alpha or Fixer, no seat's Alpha, no power per name) adds only its
    own power to its slot's; a card whose arrival changes the counts gets the whole V."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    name = defs[cs[x, C_DEF], D_NAME]
    raptor = name == N_WAR_RAPTOR
    local = in_play or tv[T_MICROBOTS] == 0 \
        or not (name == N_MICROBOT_ALPHA or name == N_MICROBOT_FIXER or cnt[CNT_ALPHA + p] > 0)
    alone = local and defs[cs[x, C_DEF], D_PER_NAME] == 0
    best = -1
    bk = (0, 0, 0, 0)
    for i in range(n):
        s = slots[i]
        if in_play:
            v = v_move(st, p, x, s, cnt, pws, totals, terms, before)
        elif alone:
            v = v_added_alone(st, p, x, s, cnt, pws, totals[s], terms, before)
        elif local:
            v = v_added(st, p, x, s, cnt, terms, before)
        else:
            v = v_with_card(st, p, x, s)
        r = 0
        if raptor:  # §3.4 Default: ties -> the base with more of your War Raptors
            for j in range(ln[L_SMIN + s]):
                m = lst[L_SMIN + s, j]
                if cs[m, C_CTRL] == p and defs[cs[m, C_DEF], D_NAME] == N_WAR_RAPTOR:
                    r += 1
        k = (v, r, totals[s] - breakpoint_of(st, s), -s)  # minus the gap
        if best < 0 or k > bk:
            best, bk = i, k
    return best, bk[0]


@jit
def v_added_alone(st, p, c, s, cnt, pws, total, terms, before):
    """``v_added`` for a card that changes no other minion's power: slot ``s``'s powers
    (``pws`` from ``s * MAX_PLAYERS``, ``total``) gain only the card's own, as it would be the
    moment it entered play there (``card_power``: nothing on it yet, no power per name, and
    not an Alpha or Fixer, so the counts ``cnt`` taken before it arrives still hold)."""
    own = card_power(st, st.cs[c, C_DEF], p, cnt, base_bonus(st, s), 0)
    pw = stack_empty(MAX_PLAYERS)
    for q in range(MAX_PLAYERS):
        pw[q] = pws[s * MAX_PLAYERS + q]
    pw[p] = max(pw[p], 0) + own
    return before - terms[s] + powers_term(st, p, s, pw, total + own)


@jit
def v_added(st, p, c, s, cnt, terms, before):
    """``v_with_card`` for a card whose arrival leaves ``cnt`` alone: only slot ``s``'s term
    changes (``terms``: every slot's term now, summing to ``before``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    zone, ctrl, slot = cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT]
    as_if(st, 1)
    enter_play(st, p, c, s, 1 << 30)
    v = before - terms[s] + slot_term(st, p, s, cnt)[0]
    ln[L_SMIN + s] -= 1
    cs[c, C_ZONE], cs[c, C_CTRL], cs[c, C_SLOT] = zone, ctrl, slot
    as_if(st, -1)
    return v


@jit_inline
def v_slot_edited(st, p, s, cnt, terms, before):
    """V for ``p`` while slot ``s`` alone is edited "as if", from the board's counts ``cnt`` and
    every slot's term ``terms`` (``board.slot_terms``, summing to V ``before``) taken before the
    edit: only ``s``'s term changes, unless a Microbot Alpha or Fixer in this game makes the
    counts (which the edit may change) matter."""
    if st.tv[T_MICROBOTS] != 0:
        return V(st, p)
    return before - terms[s] + slot_term(st, p, s, cnt)[0]


@jit_inline
def v_move(st, p, m, s, cnt, pws, totals, terms, before):
    """V for ``p`` with minion ``m`` moved to slot ``s`` (``v_with_minion``), from ``read_slots``'
    reading: ``v_moved_alone``, or for a minion whose power counts its name (a War Raptor: it
    changes its old and new slot-mates' powers) ``v_moved``."""
    if st.defs[st.cs[m, C_DEF], D_PER_NAME] != 0:
        return v_moved(st, p, m, s, cnt, terms, before)
    return v_moved_alone(st, p, m, s, cnt, pws, totals, terms, before)


@jit
def v_moved_alone(st, p, m, s, cnt, pws, totals, terms, before):
    """``v_moved`` for a minion whose move changes no other minion's power (not a War Raptor;
    a move keeps ``cnt``): its old slot loses its power there and slot ``s`` gains its power
    there (only the base's bonus differs), without editing the board."""
    if s == st.cs[m, C_SLOT]:  # V does not depend on the order of a slot's minions
        return before
    return v_arrived(st, p, m, s, cnt, pws, totals, terms, v_left(st, p, m, cnt, pws, totals, terms, before))


@jit_inline
def v_left(st, p, m, cnt, pws, totals, terms, before):
    """V for ``p`` once minion ``m`` (not a War Raptor) has left its slot, from ``read_slots``'
    reading (V ``before``): the first half of ``v_moved_alone``, the same for every base it
    may go to. Its controller keeps a place on the old slot only while another of its minions
    stays there."""
    cs, lst, ln = st.cs, st.lst, st.ln
    old = cs[m, C_SLOT]
    q = cs[m, C_CTRL]
    stays = False
    for i in range(ln[L_SMIN + old]):
        x = lst[L_SMIN + old, i]
        if x != m and cs[x, C_CTRL] == q:
            stays = True
            break
    pw = stack_empty(MAX_PLAYERS)
    own = counted_power(st, m, cnt, 0, base_bonus(st, old))
    for o in range(MAX_PLAYERS):
        pw[o] = pws[old * MAX_PLAYERS + o]
    pw[q] = pw[q] - own if stays else -1
    return before - terms[old] + powers_term(st, p, old, pw, totals[old] - own)


@jit_inline
def v_arrived(st, p, m, s, cnt, pws, totals, terms, left):
    """V for ``p`` once minion ``m``, gone from its slot (V ``left``, ``v_left``), arrives on slot
    ``s`` (another): the second half of ``v_moved_alone``."""
    q = st.cs[m, C_CTRL]
    pw = stack_empty(MAX_PLAYERS)
    own = counted_power(st, m, cnt, 0, base_bonus(st, s))
    for o in range(MAX_PLAYERS):
        pw[o] = pws[s * MAX_PLAYERS + o]
    pw[q] = max(pw[q], 0) + own
    return left - terms[s] + powers_term(st, p, s, pw, totals[s] + own)


@jit
def v_moved(st, p, m, s, cnt, terms, before):
    """``v_with_minion`` from the slot terms: a move keeps ``cnt`` (same minions, same
    controllers), so only the old and the new slot's terms change."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    old = cs[m, C_SLOT]
    if s == old:  # V does not depend on the order of a slot's minions
        return before
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + old, m)
    push(lst, ln, L_SMIN + s, m)
    cs[m, C_SLOT] = s
    v = before - terms[old] - terms[s] + slot_term(st, p, old, cnt)[0] + slot_term(st, p, s, cnt)[0]
    ln[L_SMIN + s] -= 1
    insert(lst, ln, L_SMIN + old, i, m)
    cs[m, C_SLOT] = old
    as_if(st, -1)
    return v


@jit_inline
def minion_key(st, first, c, kind):
    """``greedy_minion``'s key of minion card ``c`` offered as a move of ``kind``, lowest first:
    a Fixer or Reclaimer as the turn's ``first`` minion, then the highest printed power, then
    hand, discard pile, Tenacious Z."""
    defs = st.defs
    d = st.cs[c, C_DEF]
    bonus = first and (defs[d, D_NAME] == N_MICROBOT_FIXER or defs[d, D_NAME] == N_MICROBOT_RECLAIMER)
    return (0 if bonus else 1, -defs[d, D_POWER], kind)


@jit
def greedy_minion(st, p, lo, hi):
    """``greedy_minion`` over minion moves ``opt[lo:hi]`` (kind, card, slot): the card first
    (Fixer or Reclaimer as the first minion of the turn, else the highest printed power; ties:
    hand, discard, Tenacious Z, then option order), then its base by PLACE."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    first = ps[p, P_MINIONS_PLAYED] == 0
    best = -1
    bk = (0, 0, 0)
    for i in range(lo, hi):
        c = opt[i, 1]
        k = minion_key(st, first, c, opt[i, 0])
        if best < 0 or k < bk:
            best, bk = i, k
    kind, c = opt[best, 0], opt[best, 1]
    a = best  # the card's options are contiguous: one card, each legal slot in order
    while a > lo and opt[a - 1, 0] == kind and opt[a - 1, 1] == c:
        a -= 1
    b = best
    while b + 1 < hi and opt[b + 1, 0] == kind and opt[b + 1, 1] == c:
        b += 1
    slots = stack_empty(MAX_SLOTS)  # one card's legal slots
    for i in range(a, b + 1):
        slots[i - a] = opt[i, 2]
    return a + place(st, p, c, False, slots, b + 1 - a)

@jit
def sail_default(st, c, s, mm, md, k):
    """The Special's baseline: in to raise your vp_now at ``s``, or out while it is 0; -1: stop."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    now = vp_of(st, s, c)
    best, bg = -1, 0
    for i in range(k):
        g = vp_with_move(st, c, mm[i], s, s) - now if md[i] == s else 0
        if g > bg:
            best, bg = i, g
    if best >= 0:
        return best
    if now == 0:
        m = -1
        dests = stack_empty(16)
        nd = 0
        for i in range(k):
            if cs[mm[i], C_SLOT] == s:
                if m < 0:
                    m = mm[i]
                if mm[i] == m:
                    dests[nd] = md[i]
                    nd += 1
        if m >= 0:
            dest = dests[place(st, c, m, True, dests, nd)]
            for i in range(k):
                if mm[i] == m and md[i] == dest:
                    return i
    return -1
