"""Base abilities in the kernel (reference/bases.py, §11): the two that are code, School of
Wizardry here and Tar Pits in ``triggers``; the scoring-VP rule (Factory 436-1337, Rhodes Plaza
Mall); and the baseline's rules for the bases' MOVE steps (The Grey Opal, Tortuga, Mushroom
Kingdom). The other abilities are data (data/effects/bases.toml): programs run by
``turn.score_base`` (after scoring, after being replaced), ``turn.start_of_turn`` (at the start
of a turn), ``vm.base_after_played`` (The Homeworld) and ``triggers.leaf`` (Cave of Shinies);
``board.slot_bonus`` reads the static power (The Central Brain)."""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty

from .layout import unpack
from .baseline import place
from .choosers import vp_without
from .board import gap, pick, power, vp_now
from .layout import C_CTRL, C_ENTERED, C_SLOT, L_BDECK, L_SMIN, MAX_PLAYERS, MAX_SLOTS, S_BASE, T_PLAYERS
from .names import B_SCHOOL_OF_WIZARDRY
from .opcodes import VP_PER_MINION, VP_WINNERS_POWER_DIV
from .tables import BS_BREAK, BS_NAME, BS_VP0, BS_VP_ARG, BS_VP_RULE


@jit
def scoring_vp(st, s, place_, gained):
    """"When this base scores" VP, the base's ``scoring_vp`` data (opcodes.VP_*: Factory
    436-1337, Rhodes Plaza Mall)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    rule, n = bases[ss[s, S_BASE], BS_VP_RULE], bases[ss[s, S_BASE], BS_VP_ARG]
    if rule == VP_WINNERS_POWER_DIV:
        for p in range(tv[T_PLAYERS]):
            if place_[p] == 0:
                t = 0
                for i in range(ln[L_SMIN + s]):
                    m = lst[L_SMIN + s, i]
                    if cs[m, C_CTRL] == p:
                        t += power(st, m)
                gained[p] += t // n
    elif rule == VP_PER_MINION:
        for i in range(ln[L_SMIN + s]):
            gained[cs[lst[L_SMIN + s, i], C_CTRL]] += n


@jit
def after_scoring(st, s, winners, nw):
    """School of Wizardry's after-scoring ability, the one base ability left as code here: its
    first winner (``winners[:nw]``, turn order) looks at the top 3 bases of the base deck and
    picks the replacement; the others go back on top. Returns the base picked, or -1 (another
    base, or no winner or base deck: the usual replacement)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if bases[ss[s, S_BASE], BS_NAME] != B_SCHOOL_OF_WIZARDRY or nw == 0 or ln[L_BDECK] == 0:
        return -1
    buf = stack_empty(3)
    p = winners[0]
    k = min(3, ln[L_BDECK])
    for i in range(k):
        buf[i] = lst[L_BDECK, ln[L_BDECK] - 1 - i]  # the top first
    ln[L_BDECK] -= k
    best = 0
    for i in range(1, k):
        bi, bb = buf[i], buf[best]
        if (bases[bi, BS_VP0], -bases[bi, BS_BREAK]) > (bases[bb, BS_VP0], -bases[bb, BS_BREAK]):
            best = i
    j = pick(st, p, k, best)
    chosen = buf[j]
    # the others go back "in any order": with two left, which goes on top is the winner's
    # choice (the baseline keeps the order seen: the first seen on top), as in the reference
    n = 0
    for i in range(k):
        if i != j:
            buf[n] = buf[i]
            n += 1
    if pick(st, p, n, 0) == 1:
        buf[0], buf[1] = buf[1], buf[0]
    for i in range(n - 1, -1, -1):  # buf[0] back last, on top
        lst[L_BDECK, ln[L_BDECK]] = buf[i]
        ln[L_BDECK] += 1
    return chosen


# ---- the baseline's rules for the bases' MOVE steps (``effects.move_pick``) --------------------
# Each takes the (minion ``mm[j]``, base ``md[j]``) options of the step (``board.move_pairs``) and
# returns the index of the baseline's move, or -1 for none (the decline).

@jit
def strongest_by_place(st, p, here, mm, md, k):
    """RULE_STRONGEST_BY_PLACE (The Grey Opal): ``p``'s highest-power minion on slot ``here``
    (ties: the earliest to enter play), to the base PLACE picks among its moves; none if that
    minion has no move."""
    cs, lst, ln = st.cs, st.lst, st.ln
    best = -1
    for i in range(ln[L_SMIN + here]):
        m = lst[L_SMIN + here, i]
        if cs[m, C_CTRL] == p and (best < 0 or (power(st, m), -cs[m, C_ENTERED]) >
                                   (power(st, best), -cs[best, C_ENTERED])):
            best = m
    dests = stack_empty(MAX_SLOTS)
    nd = 0
    for j in range(k):
        if mm[j] == best:
            dests[nd] = md[j]
            nd += 1
    if nd == 0:
        return -1
    dest = dests[place(st, p, best, True, dests, nd)]
    for j in range(k):
        if mm[j] == best and md[j] == dest:
            return j
    return -1


@jit
def free_strongest(st, p, mm, k):
    """RULE_FREE_STRONGEST (Tortuga): the highest-power minion among the options whose leaving
    its base costs ``p`` no VP there now (ties: the first); none if every one costs some."""
    cs = st.cs
    now = stack_empty(4)
    best, bp = -1, -1
    for j in range(k):
        m = mm[j]
        vp_now(st, cs[m, C_SLOT], now)
        if vp_without(st, p, m) == now[p] and power(st, m) > bp:
            best, bp = j, power(st, m)
    return best


@jit
def push_out(st, p, here, mm, md, k):
    """RULE_PUSH_OUT (Mushroom Kingdom): when an opponent outranks ``p`` on slot ``here``, that
    opponent's strongest minion there (ties: the earliest to enter play) to the base with the
    largest gap among its moves (ties: the lower slot); else none. Of several opponents who
    outrank ``p``, the one taking the most VP there (ties: the first in turn order after ``p``)."""
    cs, lst, ln = st.cs, st.lst, st.ln
    n = st.tv[T_PLAYERS]
    now = stack_empty(MAX_PLAYERS)
    vp_now(st, here, now)
    rival = -1
    for i in range(1, n):
        q = (p + i) % n
        if now[q] > now[p] and (rival < 0 or now[q] > now[rival]):
            rival = q
    if rival < 0:
        return -1
    target, tp, te = -1, -1, 0
    for i in range(ln[L_SMIN + here]):
        m = lst[L_SMIN + here, i]
        if cs[m, C_CTRL] == rival and (power(st, m) > tp or (power(st, m) == tp and cs[m, C_ENTERED] < te)):
            target, tp, te = m, power(st, m), cs[m, C_ENTERED]
    best, bg, bs = -1, 0, 0
    for j in range(k):
        if mm[j] == target:
            t = md[j]
            g = gap(st, t)
            if best < 0 or g > bg or (g == bg and t < bs):
                best, bg, bs = j, g, t
    return best
