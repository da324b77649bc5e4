"""The baseline's hand-written rules for data cards (class D* in docs/SMASH_UP_EFFECTS.md): a
card whose effect is data but whose default choice is no shared rule names one here
(``rule=NAME`` in its data; ``kernel.effects`` calls it: ``rule_pick`` for SEL_MINION,
``card_rule`` for SEL_CARD, ``move_pick`` for MOVE, ``any_base`` for SEL_BASE, ``take_named`` for
TAKE_NAMED, and OP_SLEEP's choice). A chooser reads the board and returns the index of the
baseline's pick among the step's candidates, or -1 (decline).

It lives below the interpreter (``effects`` imports it; it imports no faction module), so a
faction module may ask it too, for its card's want; the readings a chooser and a want share
(``minions_of``, ``own_targets``, ``names_in_data_order``, ``seat_faction``) are here for that.
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import stack_empty, stack_zeros

from .layout import unpack
from .baseline import (
    SLOT_POWERS, help_, help_w, hit, outranked, place_read, read_slots, strongest, v_move, weakest,
)
from .board import (
    CNT_N, affectable, as_if, breakpoint_of, counted_power, destroyable, gap, insert, is_minion_card, places, power,
    power_counts, printed, remove, slot_bonus, slot_power, total_power, vp_now, vp_of_powers,
)
from .layout import (
    C_CTRL, C_DEF, C_ENTERED, C_HOST, C_SLOT, C_TEMP, CAP, DECK, K_ACTION, L_SMIN, MAX_PLAYERS, MAX_SLOTS, T_NSLOTS,
    T_PLAYERS,
)
from .names import (
    N_BLOCK_THE_PATH, N_FLAME_TRAP, N_JAMMED_SIGNAL, N_OVERRUN, N_PAY_THE_PIPER, N_TENACIOUS_Z, N_WILDLIFE_PRESERVE,
)
from .opcodes import FL_INDESTRUCTIBLE
from .tables import D_FACTION, D_FLAGS, D_KIND, D_NAME, D_POWER

F_PIRATES = 3  # catalogue.FACTIONS


@jit
def vp_without(st, p, m):
    """``p``'s vp_now at ``m``'s base if minion ``m`` were gone (Tortuga's rule, the Gnome's want)."""
    cs, lst, ln = st.cs, st.lst, st.ln
    s = cs[m, C_SLOT]
    now = stack_empty(4)
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + s, m)
    vp_now(st, s, now)
    insert(lst, ln, L_SMIN + s, i, m)
    as_if(st, -1)
    return now[p]


@jit
def vp_without_same(st, p, m, now):
    """``_vp_without(g, p, m) == now``: p's vp_now on every base with minion ``m`` gone."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    s = cs[m, C_SLOT]
    as_if(st, 1)
    i = remove(lst, ln, L_SMIN + s, m)
    out = stack_empty(4)
    same = True
    for t in range(tv[T_NSLOTS]):
        vp_now(st, t, out)
        if out[p] != now[t]:
            same = False
    insert(lst, ln, L_SMIN + s, i, m)
    as_if(st, -1)
    return same


@jit
def sacrifice_pick(st, c, mine, k):
    """Sacrifice's default (rules/smash-up-cards.md): among seat ``c``'s minions ``mine[:k]``, a
    Warbot (an indestructible minion: it survives), else the highest-power minion whose loss
    costs no vp_now (ties: board order); -1 for none (the card's want: not played)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    best, bp = -1, 0
    for i in range(k):
        if defs[cs[mine[i], C_DEF], D_FLAGS] & FL_INDESTRUCTIBLE:
            pw = power(st, mine[i])
            if best < 0 or pw > bp:
                best, bp = i, pw
    if best >= 0:
        return best
    now = stack_empty(16)
    out = stack_empty(4)
    for t in range(tv[T_NSLOTS]):
        vp_now(st, t, out)
        now[t] = out[c]
    for i in range(k):
        if vp_without_same(st, c, mine[i], now):
            pw = power(st, mine[i])
            if best < 0 or pw > bp:
                best, bp = i, pw
    return best


@jit
def sacrifice(st, p, cand, k, mandatory):
    """RULE_SACRIFICE: ``sacrifice_pick``; when it finds none, for a mandatory choice (played
    anyway, e.g. by Neophyte) your lowest-power minion (ties: the first) [D9]."""
    j = sacrifice_pick(st, p, cand, k)
    if j < 0 and mandatory and k > 0:
        j = weakest(st, cand, k)
    return j


@jit
def grave_robbing(st, cand, k):
    """RULE_GRAVE_ROBBING (SEL_CARD, your discard pile ``cand[:k]``, k >= 1): the minion card of
    the highest printed power (ties: the first), else the card first in data order (its
    definition row; ties: the first)."""
    cs = st.cs
    best, bp = -1, 0
    for j in range(k):
        if is_minion_card(st, cand[j]) and (best < 0 or printed(st, cand[j]) > bp):
            best, bp = j, printed(st, cand[j])
    if best >= 0:
        return best
    best = 0
    for j in range(1, k):
        if cs[cand[j], C_DEF] < cs[cand[best], C_DEF]:
            best = j
    return best


@jit
def raises_vp(st, p, m, by):
    """Would ``by`` more power on minion ``m`` raise ``p``'s vp_now at its base? Only ``m``'s
    own power changes (no power reads another minion's), so the slot is read once and ``m``'s
    power taken with and without the bonus."""
    cs = st.cs
    s = cs[m, C_SLOT]
    cnt = stack_empty(CNT_N)
    power_counts(st, cnt)
    pw = stack_empty(MAX_PLAYERS)
    slot_power(st, s, cnt, pw)
    now = stack_empty(MAX_PLAYERS)
    vp_of_powers(st, s, pw, now)
    before = now[p]
    raptors, base_power = slot_bonus(st, s)
    own = counted_power(st, m, cnt, raptors, base_power)
    cs[m, C_TEMP] += by  # read, then undone at once: nothing else runs meanwhile
    pw[cs[m, C_CTRL]] += counted_power(st, m, cnt, raptors, base_power) - own
    cs[m, C_TEMP] -= by
    vp_of_powers(st, s, pw, now)
    return now[p] > before


@jit
def augment_pick(st, p, cand, k):
    """Augmentation's default: HELP among your minions in ``cand[:k]`` whose +4 raises your
    vp_now there, as an index into ``cand``; -1 if none (the card's want: not played)."""
    cs = st.cs
    good = stack_empty(CAP)
    idx = stack_empty(CAP)
    n = 0
    for i in range(k):
        m = cand[i]
        if cs[m, C_CTRL] == p and raises_vp(st, p, m, 4):
            good[n], idx[n] = m, i
            n += 1
    i = help_(st, p, good, n)
    return -1 if i < 0 else idx[i]


@jit
def augmentation(st, p, cand, k, mandatory):
    """RULE_AUGMENTATION: ``augment_pick``; when it finds none, for a mandatory choice, HELP
    else the lowest-power minion (``baseline.help_w``)."""
    j = augment_pick(st, p, cand, k)
    if j < 0 and mandatory and k > 0:
        j = help_w(st, p, cand, k)
    return j


@jit
def rampage_wins(st, p, m):
    """Would Rampage on minion ``m`` (its base's breakpoint lower by its power) make that base
    ready with ``p`` alone in first place?"""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    s = cs[m, C_SLOT]
    if total_power(st, s) < max(0, breakpoint_of(st, s) - power(st, m)):
        return False
    pw = stack_empty(4)
    pl = stack_empty(4)
    places(st, s, pw, pl)
    for q in range(tv[T_PLAYERS]):
        if (pl[q] == 0) != (q == p):
            return False
    return True


@jit
def rampage_pick(st, p, mine, k):
    """Rampage's default when it wins a base: among ``p``'s minions ``mine[:k]`` (board order),
    base by base in slot order, your highest-power minion there (ties: the first) if its
    reduction wins that base (``rampage_wins``); -1 if none (the card's want: not played)."""
    cs, tv = st.cs, st.tv
    for s in range(tv[T_NSLOTS]):
        best = -1
        for i in range(k):
            if cs[mine[i], C_SLOT] == s and (best < 0 or power(st, mine[i]) > power(st, mine[best])):
                best = i
        if best >= 0 and rampage_wins(st, p, mine[best]):
            return best
    return -1


@jit
def rampage(st, p, cand, k, mandatory):
    """RULE_RAMPAGE: ``rampage_pick``; when it finds none, for a mandatory choice your
    highest-power minion (ties: the first)."""
    j = rampage_pick(st, p, cand, k)
    return strongest(st, cand, k) if j < 0 and mandatory and k > 0 else j


@jit
def crop_score(st, p, s):
    """Crop Circles on slot ``s``: the power it returns of other players' minions minus ``p``'s
    (the minions it may not affect stay)."""
    cs, lst, ln = st.cs, st.lst, st.ln
    t = 0
    for i in range(ln[L_SMIN + s]):
        m = lst[L_SMIN + s, i]
        if affectable(st, m, p, True):
            t += power(st, m) if cs[m, C_CTRL] != p else -power(st, m)
    return t


@jit
def crop_circles(st, p):
    """RULE_CROP_CIRCLES (SEL_BASE, any base; at least one in play): the slot of the highest
    ``crop_score`` (ties: the lower)."""
    best, bv = 0, 0
    for s in range(st.tv[T_NSLOTS]):
        v = crop_score(st, p, s)
        if s == 0 or v > bv:
            best, bv = s, v
    return best


@jit
def names_in_data_order(st, li, minions_only, out, count):
    """The distinct definitions (names) of list ``li`` (only minion cards if ``minions_only``),
    in data order, in ``out``; ``count[j]`` the copies of ``out[j]``. Returns how many. Data
    order (the reference's ``_data_rank``: the faction order of the card list, then the card's
    place in its faction) is the definition row ``C_DEF``: ``tables.card_tables`` builds the
    rows in exactly that order, one per distinct name."""
    cs, lst, ln = st.cs, st.lst, st.ln
    k = 0
    for i in range(ln[li]):
        c = lst[li, i]
        if minions_only and not is_minion_card(st, c):
            continue
        dd = cs[c, C_DEF]
        j = 0
        while j < k and out[j] < dd:
            j += 1
        if j < k and out[j] == dd:
            count[j] += 1
            continue
        for t in range(k, j, -1):
            out[t] = out[t - 1]
            count[t] = count[t - 1]
        out[j] = dd
        count[j] = 1
        k += 1
    return k


@jit
def crawl(st, names, count, k):
    """RULE_CRAWL (Mall Crawl; ``names[:k]`` definitions, k >= 1, with ``count`` copies): among
    the minion names if any, the most copies, then Tenacious Z, then the highest printed power;
    among actions the most copies; the first on ties."""
    defs = st.defs
    any_minion = False
    for i in range(k):
        if defs[names[i], D_KIND] != K_ACTION:
            any_minion = True
    best, bk = -1, (0, 0, 0, 0)
    for i in range(k):
        if any_minion:
            if defs[names[i], D_KIND] == K_ACTION:
                continue
            key = (count[i], 1 if defs[names[i], D_NAME] == N_TENACIOUS_Z else 0, defs[names[i], D_POWER], -i)
        else:
            key = (count[i], 0, 0, -i)
        if best < 0 or key > bk:
            best, bk = i, key
    return best


@jit
def bullets(st, names, count, k):
    """RULE_BULLETS (Not Enough Bullets; minion ``names[:k]``, k >= 1): the most copies x printed
    power (the first on ties)."""
    best, bv = 0, 0
    for i in range(k):
        v = count[i] * st.defs[names[i], D_POWER]
        if i == 0 or v > bv:
            best, bv = i, v
    return best


@jit
def invasion_pick(st, p, mm, md, k, res):
    """Invasion's default among the moves ``mm[:k]``/``md[:k]`` (minions in board order, each
    one's destinations in slot order): the HIT target among other players' minions to the base
    with the largest gap (ties: the lower slot), unless moving one of your own minions by PLACE
    gives a higher V. res = (the move's index, V after it, V now); res[0] = -1 without options.
    Every V comes from one reading of the board (``read_slots``, ``v_move``)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    res[0], res[1] = -1, 0
    if k == 0:
        return
    cnt = stack_empty(CNT_N)
    terms = stack_empty(MAX_SLOTS)
    totals = stack_empty(MAX_SLOTS)
    pws = stack_empty(SLOT_POWERS)
    res[2] = read_slots(st, p, cnt, terms, pws, totals)
    theirs = stack_empty(CAP)
    nt = 0
    for i in range(k):  # the moves of one minion are contiguous
        if (i == 0 or mm[i] != mm[i - 1]) and cs[mm[i], C_CTRL] != p:
            theirs[nt] = mm[i]
            nt += 1
    found = False
    bi, bv = -1, 0
    j = hit(st, p, theirs, nt, False)
    if j >= 0:  # the HIT target to the base with the largest gap (ties: lower slot)
        m = theirs[j]
        bk = (0, 0)
        for i in range(k):
            if mm[i] == m:
                key = (breakpoint_of(st, md[i]) - totals[md[i]], -md[i])
                if bi < 0 or key > bk:
                    bi, bk = i, key
        bv = v_move(st, p, m, md[bi], cnt, pws, totals, terms, res[2])
        found = True
    # your own minion whose PLACE move gives the highest V (ties: board order)
    dests = stack_empty(16)
    oi, ov = -1, 0
    i = 0
    while i < k:
        m = mm[i]
        a = i
        while i < k and mm[i] == m:
            i += 1
        if cs[m, C_CTRL] != p:
            continue
        nd = i - a
        for t in range(nd):
            dests[t] = md[a + t]
        j, v = place_read(st, p, m, True, dests, nd, cnt, terms, pws, totals, res[2])
        idx = a + j
        if oi < 0 or v > ov:
            oi, ov = idx, v
    if oi >= 0 and (not found or ov > bv):  # ties go to the HIT move
        bi, bv = oi, ov
        found = True
    if found:
        res[0], res[1] = bi, bv


@jit
def invasion(st, p, mm, md, k):
    """RULE_INVASION (MOVE who=any legal=affect): ``invasion_pick``'s move, -1 for none."""
    res = stack_zeros(3)
    invasion_pick(st, p, mm, md, k, res)
    return res[0]


@jit
def minions_of(st, p, out):
    """``p``'s minions in board order (slot, then arrival) in ``out``; the count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for t in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, i]
            if cs[m, C_CTRL] == p:
                out[k] = m
                k += 1
    return k


@jit
def weaker(st, c, m, out):
    """The minions on m's base with less power than m that seat ``c``'s action may destroy."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    s = cs[m, C_SLOT]
    pm = power(st, m)
    k = 0
    for i in range(ln[L_SMIN + s]):
        t = lst[L_SMIN + s, i]
        if power(st, t) < pm and destroyable(st, t, c, True):
            out[k] = t
            k += 1
    return k


@jit
def ns_key(st, p, t):
    """Natural Selection's order of targets: on a base where ``p`` is outranked first, then the
    highest power, the smallest gap, the lower slot, the earliest in play."""
    cs = st.cs
    s = cs[t, C_SLOT]
    return (0 if outranked(st, p, s) else 1, -power(st, t), gap(st, s), s, cs[t, C_ENTERED])


@jit
def ns_pair(st, p, res):
    """res = (your minion, other player's target) of Natural Selection's baseline (the least
    ``ns_key``), or (-1, -1) (the card's want: not played)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    mine = stack_empty(CAP)
    k = minions_of(st, p, mine)
    tg = stack_empty(CAP)
    res[0], res[1] = -1, -1
    bk = (0, 0, 0, 0, 0)
    for i in range(k):
        m = mine[i]
        nt = weaker(st, p, m, tg)
        for j in range(nt):
            t = tg[j]
            if cs[t, C_CTRL] != p:
                key = ns_key(st, p, t)
                if res[0] < 0 or key < bk:
                    res[0], res[1], bk = m, t, key


@jit
def ns_mine(st, p, cand, k):
    """RULE_NS_MINE (``cand[:k]`` your minions, board order, k >= 1): the minion of ``ns_pair``,
    else one with no weaker minion on its base, else your lowest-power one (ties: the first).
    Its target is then HIT's among the weaker minions there: on one base HIT's order (highest
    power, the earliest in play) is ``ns_key``'s, so it is ``ns_pair``'s target."""
    pair = stack_zeros(2)
    ns_pair(st, p, pair)
    best, bk = 0, (0, 0)
    tg = stack_empty(CAP)
    for i in range(k):
        if cand[i] == pair[0]:
            return i
        key = (1 if weaker(st, p, cand[i], tg) > 0 else 0, power(st, cand[i]))
        if i == 0 or key < bk:
            best, bk = i, key
    return best


@jit
def keg_victims(st, c, m, out):
    """What Powderkeg on ``m`` destroys: m first if destroyable (a Warbot m survives, the others
    still die), then the others on its base with power <= m's that ``c``'s action may destroy."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    pw = power(st, m)
    k = 0
    if destroyable(st, m, c, True):
        out[k] = m
        k += 1
    s = cs[m, C_SLOT]
    for i in range(ln[L_SMIN + s]):
        x = lst[L_SMIN + s, i]
        if x != m and power(st, x) <= pw and destroyable(st, x, c, True):
            out[k] = x
            k += 1
    return k


@jit
def action_targets(st, c, out):
    """The minions seat ``c``'s action may affect (board order): the hosts a play-on-minion
    action may take, and Augmentation's, Upgrade's and Tooth and Claw's choices, for their wants."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for t in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, i]
            if affectable(st, m, c, True):
                out[k] = m
                k += 1
    return k


@jit
def own_targets(st, c, out):
    """Seat ``c``'s minions its action may affect (board order; a Warbot too [D8]): the choices
    of Powderkeg and Sacrifice (for their wants) and of Pixie's action."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    k = 0
    for t in range(tv[T_NSLOTS]):
        for i in range(ln[L_SMIN + t]):
            m = lst[L_SMIN + t, i]
            if cs[m, C_CTRL] == c and affectable(st, m, c, True):
                out[k] = m
                k += 1
    return k


@jit
def keg_pick(st, c, options, n, res):
    """Powderkeg's default among ``options[:n]``: res = (the index of the minion whose blast
    destroys most power of other players less yours, the first on ties; that difference)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    vic = stack_empty(CAP)
    res[0], res[1] = 0, 0
    for i in range(n):
        k = keg_victims(st, c, options[i], vic)
        t = 0
        for j in range(k):
            x = vic[j]
            t += power(st, x) if cs[x, C_CTRL] != c else -power(st, x)
        if i == 0 or t > res[1]:
            res[0], res[1] = i, t


@jit
def powderkeg(st, p, cand, k):
    """RULE_POWDERKEG (``cand[:k]`` your minions its action may affect, k >= 1): ``keg_pick``."""
    res = stack_zeros(2)
    keg_pick(st, p, cand, k, res)
    return res[0]


@jit
def disenchant_pick(st, p, acts, k):
    """Disenchant's (2012) default among the actions in play ``acts[:k]``: another player's
    action on a minion of a base where an opponent outranks you, else another player's on a
    base among the listed names (abilities that favour them); -1 (the want: hold) if none."""
    cs, defs = st.cs, st.defs
    for i in range(k):
        a = acts[i]
        if cs[a, C_CTRL] != p and cs[a, C_HOST] >= 0 and outranked(st, p, cs[a, C_SLOT]):
            return i
    for i in range(k):
        a = acts[i]
        if cs[a, C_CTRL] != p and cs[a, C_HOST] < 0:
            nm = defs[cs[a, C_DEF], D_NAME]
            if nm == N_OVERRUN or nm == N_BLOCK_THE_PATH or nm == N_FLAME_TRAP or \
                    nm == N_PAY_THE_PIPER or nm == N_JAMMED_SIGNAL or nm == N_WILDLIFE_PRESERVE:
                return i
    return -1


@jit
def disenchant(st, p, cand, k):
    """RULE_DISENCHANT (SEL_CARD over the actions in play, k >= 1): ``disenchant_pick``, else
    another player's first action, else the first."""
    i = disenchant_pick(st, p, cand, k)
    if i >= 0:
        return i
    for j in range(k):
        if st.cs[cand[j], C_CTRL] != p:
            return j
    return 0


@jit
def theirs_outranked(st, p, acts, k):
    """RULE_THEIRS_OUTRANKED (SEL_CARD among actions ``acts[:k]``; Pixie's): another player's
    action on a base where an opponent outranks you, else another player's first action; -1
    when every action is yours."""
    cs = st.cs
    first = -1
    for i in range(k):
        a = acts[i]
        if cs[a, C_CTRL] != p:
            if outranked(st, p, cs[a, C_SLOT]):
                return i
            if first < 0:
                first = i
    return first


# ---- the resumable part of the cards -------------------------------------------------------------


@jit
def seat_faction(st, q, half):
    """Seat ``q``'s faction ``half`` (0: the first drafted, 1: the second): its deck holds the
    first faction's 20 cards, then the second's."""
    cs, defs = st.cs, st.defs
    return defs[cs[q * DECK + half * 20, C_DEF], D_FACTION]


@jit
def sleep_moves(st, q):
    """Mark of Sleep's default for the chosen player ``q`` (OP_SLEEP's choice; 0 actions, 1
    moves): moves if ``q`` plays Pirates (whose actions move), else actions."""
    return 1 if seat_faction(st, q, 0) == F_PIRATES or seat_faction(st, q, 1) == F_PIRATES else 0
