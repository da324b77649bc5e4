"""The interpreter of the cards' effect programs (``opcodes``; built by ``smash_up.effects`` from
data/effects/*.toml, docs/SMASH_UP_EFFECTS.md).

``step`` runs a card frame's program for its hook, as ``hooks.card_step`` runs a faction module's
code: the frame's step is the program offset, so a step that pushes a frame (a grant used at once)
returns the offset to resume at once that frame is done. The selection of ``OP_SEL_MINION`` and
``OP_SEL_CARD`` is kept in the frame's scratch list ``sc[d]`` with its size in ``F_K`` (and, for
cards, the list they are in in ``F_Y``), so it survives such a pause; the chosen player is in
``F_Z``, the chosen base in ``F_I``. Each choice offers the options the reference's card function
offers, in its order, with the decline (None) last, and the baseline's default from the same rule
(``baseline.hit`` and the strongest-other-player rule), so a random seat draws the same numbers in
both engines.

A base's program (``bases.toml``) runs in a card frame without a card: its ``F_C`` is
``-1 - (slot + MAX_SLOTS * base)`` (``stack.push_base_frame``; ``here_of`` and ``frame_base``),
"here" is that slot, and its steps never read a card (the assembler allows a base only the steps
and conditions that do not).
"""
from balance.core._jit import jit_widened as jit
from balance.core._jit import jit_inline, stack_empty

from .layout import unpack
from .baseline import best_move, best_printed, help_, hit, opponent, place, sail_default, weakest
from .bases import free_strongest, push_out, strongest_by_place
from .choosers import (
    augmentation, bullets, crawl, crop_circles, disenchant, grave_robbing, invasion, names_in_data_order, ns_mine,
    powderkeg, rampage, sacrifice, sleep_moves, theirs_outranked,
)
from .board import (
    CNT_N, actions_in_play, lowest_if_mixed, as_if, affectable, can_move, count_on, counted_power, destroyable, detach,
    discard_attached, discard_choice, discard_from_hand, discard_random_others, draw, gap, has_minion_on,
    is_action_card, is_microbot_card, is_minion_card, minion_allowed, move, move_pairs, pick, places, pop, power,
    power_counts, printed, push, refill, remove, return_to_hand, shuffle, slot_bonus, slot_term, slot_terms,
    to_deck_bottom, to_discard, top, touch,
)
from .layout import (
    CAP, C_COUNTERS, C_CTRL, C_DEF, C_HOST, C_NAMED, C_SLOT, C_TEMP, C_TURN, C_ZONE, DONE, F_C, F_I, F_J, F_K, F_L, F_M,
    F_P, F_S, F_Y, F_Z, GREEDY, G_AT, H_AFTER_SCORING, H_ON_PLAY, L_ATT, L_DECK, L_DISC, L_HAND, L_SACT, L_SMIN,
    MAX_PLAYERS, MAX_SLOTS,
    PR_OFFER, P_BASES_USED, P_MINIONS_PLAYED, P_SLEEP_BY, P_SLEEP_MODE, P_VP, S_REDUCTION, SLEEP_ACTIONS, SLEEP_MOVES,
    SLEEP_ON_TURN,
    T_CURRENT, T_FREE_MIN, T_NSLOTS, T_PHASE_MIN, T_PLAYERS, T_RUNNERS, T_TURNS, T_WINDOW, Z_ATTACHED, Z_DECK,
    Z_DISCARD, Z_HAND, Z_MINION,
)
from .opcodes import (
    CARD_BY_NAME, CARD_PRINTED_LE, COND_ALONE_FIRST_HERE, COND_ALWAYS, COND_DECK_HAS_ACTION,
    COND_PLAYED_BY_OTHER, COND_PLAYED_DESTROYABLE, COND_PLAYED_HERE, COND_PLAYED_ON_BASE, COND_PLAYED_WEAKER,
    COND_UNUSED_THIS_TURN, COND_HAND_MOST, FOR_NON_WINNERS, FOR_RUNNERS_UP, RULE_FREE_STRONGEST, RULE_PUSH_OUT,
    RULE_STRONGEST_BY_PLACE, RULE_SACRIFICE, RULE_GRAVE_ROBBING, RULE_AUGMENTATION, RULE_RAMPAGE, DRAW_SEL_POWER,
    I_NOT, REDUCE_SEL_POWER, OP_TAKE_NAMED, RULE_CRAWL, RULE_INVASION, RULE_NS_MINE, RULE_POWDERKEG, FLAG_SEL_FIRST,
    RULE_DISENCHANT, RULE_HELP, RULE_THEIRS_OUTRANKED, OP_COUNTERS, COND_HAND_GT_SOMEONE,
    OP_DISCARD_CHOICE_PLAYED, OP_MARK_USED, OP_PLAY_SELF, RULE_SCORING, MOVE_SELF_TO_BASE, PILE_HAND, RULE_HERE,
    COND_PHASE_NO_MINION, COND_MINION_PLAYABLE_HERE,
    OP_MOVE_SELF, OP_SEL_PLAYED,
    OP_SEL_SELF, OP_DISCARD_HAND, FOR_BASES_NONE_MINE, FOR_PLAYERS, FOR_WINNERS, RULE_HIGHEST_PRINTED,
    RULE_HIT_ELSEWHERE, RULE_SPARE_SPECIALS, TEST_TOP_POWER, TEST_LOWEST_MIXED, FLAG_APPEND, FOR_BASES,
    FOR_OTHERS, SLEEP_ACTIONS_ONLY, SLEEP_CHOICE,
    COND_HAND_HAS_MINION_PRINTED_LE,
    COND_DISCARD_GT_DECK, COND_DISCARD_HAS_MINION, COND_FIRST_MINION, COND_HAND_HAS_MINION, COND_HAND_LE,
    COND_HAS_BEST_MOVE, COND_HAS_HIT, COND_HAS_OPTIONS, COND_ATTACHED_THIS_TURN, COND_MINION_PLAY_USEFUL,
    COND_MOST_MINE_GE, COND_SELECTED, COND_SEL_IS_ACTION, COND_SEL_IS_MINION, COND_SEL_MINION_PRINTED_LE,
    COND_V_RISES,
    DRAW_MINE_AT_BASE, FLAG_NOT_SAME_NAME, I_ARG1, I_ARG2, I_ARG3, I_COUNT, I_FLAGS, I_LEGAL, I_MODE, I_N,
    I_OP, I_RULE, I_TEST, I_VAL, I_VSRC, I_WHERE, I_WHO, KIND_ACTION, KIND_MICROBOT, KIND_MINION,
    LEGAL_AFFECT, LEGAL_ALLOWED, LEGAL_DESTROY, MAX_REVEAL, MODE_EACH, MODE_EACH_MAY, MODE_ONE,
    OP_BOTTOM, OP_DESTROY, OP_DISCARD_RANDOM, OP_DISCARD_SELF, OP_DRAW, OP_END, OP_FOR, OP_GAIN_VP,
    OP_GRANT_ACTION, OP_GRANT_MINION, OP_HAND_TO_DECK, OP_IF, OP_MARK, OP_MAY, OP_MOVE, OP_NEXT,
    OP_PLAY_ACTION, OP_PLAY_MINION, OP_POWER_TEMP, OP_REDUCE_BREAKPOINT, OP_RESTACK, OP_RETURN, OP_REVEAL, OP_SEL_BASE,
    OP_SEL_CARD, OP_SEL_HOST, OP_SEL_MINION, OP_SEL_PLAYER, OP_SHUFFLE, OP_SLEEP, OP_TAKE_TOP, OP_TO_PILE,
    OWNER_MINE, OWNER_THEIRS, PILE_ACTIONS_HERE, PILE_ACTIONS_IN_PLAY, PILE_ACTIONS_ON_HOST, PILE_DECK, PILE_DISCARD,
    PILE_REVEALED, RULE_BEST_MOVE, RULE_BEST_PRINTED, RULE_HIT, RULE_MOST_MINE, RULE_PLACE, RULE_PREFER, RULE_SAIL,
    RULE_THEIRS, RULE_YES, TEST_POWER_LE, TEST_POWER_LT, TEST_PRINTED_LE, TO_DECK, TO_HAND, VAL_MINE_HERE,
    VAL_SEL_POWER, WHERE_ANY, WHERE_BASE, WHERE_SEL_BASE,
)
from .stack import grant_action, grant_minion, play_action_now, play_minion_now, push_frame
from .tables import BS_PROG, D_NAME, D_POWER, D_PROG, D_USABLE, D_WANT
from .triggers import destroy

MAX_MOVES = CAP * MAX_SLOTS  # (minion, base) pairs of one MOVE
REVEALED = CAP - MAX_REVEAL  # the frame's revealed cards: sc[d, REVEALED:REVEALED + F_J]


@jit_inline
def step(st, d, hook, pc):
    """Run card frame ``d``'s program for ``hook`` from offset ``pc``; returns the offset to
    resume at (a frame was pushed above this one), or DONE."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    c, p = fs[d, F_C], fs[d, F_P]
    # a base's frame has no card: F_C encodes its slot and base (``stack.push_base_frame``)
    start = defs[cs[c, C_DEF], D_PROG + hook] if c >= 0 else bases[frame_base(c), BS_PROG + hook]
    # an action card's effect (played, or attached: its on-attach and triggered abilities, also
    # once it discarded itself), so protection from actions applies
    action = hook != H_ON_PLAY and c >= 0 and is_action_card(st, c)
    while True:
        i = start + pc
        op = pg[i, I_OP]
        pc += 1
        if op == OP_END:
            return DONE
        elif op == OP_IF:  # when the condition fails: skip I_ARG3 rows, or (0) end the program
            if not holds(st, d, p, c, i):
                if pg[i, I_ARG3] == 0:
                    return DONE
                pc += pg[i, I_ARG3]
        elif op == OP_FOR:  # fix the loop's list, then let its NEXT take the first
            kind = pg[i, I_ARG1]
            fs[d, F_L] = bases_none_mine(st, p) if kind == FOR_BASES_NONE_MINE else \
                (1 << tv[T_NSLOTS]) - 1 if kind == FOR_BASES else \
                (1 << tv[T_PLAYERS]) - 2 if kind == FOR_OTHERS else \
                players_listed(st, kind, here_of(st, c))
            fs[d, F_I] = -1
            pc += pg[i, I_ARG2] - 1
        elif op == OP_NEXT:  # the next listed base still in play, or player: run the body again
            kind = pg[i - pg[i, I_ARG1], I_ARG1]
            if kind == FOR_BASES_NONE_MINE:  # the player picks the next (Zombie Lord's order)
                s = pick_listed(st, d, p)
            elif kind == FOR_BASES:
                s = next_listed(fs[d, F_L], fs[d, F_I], tv[T_NSLOTS])
            else:
                s = next_listed(fs[d, F_L], fs[d, F_I], tv[T_PLAYERS])
                if s >= 0 and kind == FOR_OTHERS:  # the chosen player, s seats after "me"
                    fs[d, F_Z] = (p + s) % tv[T_PLAYERS]
                elif s >= 0:  # the player of the body's steps ("me")
                    p = (tv[T_CURRENT] + s) % tv[T_PLAYERS]
                    fs[d, F_P] = p
            if s >= 0:
                fs[d, F_I] = s
                pc -= pg[i, I_ARG1]
        elif op == OP_SLEEP:  # the chosen player cannot play actions (or move) until your next turn [D36];
            q = fs[d, F_Z]  # the 2012 card's: cannot play actions during its own next turn
            mode = SLEEP_ON_TURN if pg[i, I_ARG1] == SLEEP_ACTIONS_ONLY else SLEEP_ACTIONS
            if pg[i, I_ARG1] == SLEEP_CHOICE and pick(st, p, 2, sleep_moves(st, q)) != 0:
                mode = SLEEP_MOVES
            ps[q, P_SLEEP_MODE], ps[q, P_SLEEP_BY] = mode, p
        elif op == OP_TAKE_TOP:
            take_top(st, d, p, pg[i, I_ARG1])
        elif op == OP_TAKE_NAMED:
            if not take_named(st, p, i):
                return DONE
        elif op == OP_RESTACK:
            restack(st, d, p)
        elif op == OP_MAY:  # options yes, None; the baseline says yes when the condition holds
            if pick(st, p, 2, 0 if holds(st, d, p, c, i) else 1) != 0:  # None: end, or skip I_ARG3 rows
                if pg[i, I_ARG3] == 0:
                    return DONE
                pc += pg[i, I_ARG3]
        elif op == OP_DRAW:
            draw(st, p, draw_count(st, d, p, i))
        elif op == OP_GAIN_VP:
            ps[p, P_VP] += pg[i, I_ARG2]
        elif op == OP_DISCARD_RANDOM:
            discard_random_others(st, p, pg[i, I_ARG2])
        elif op == OP_DISCARD_HAND:  # p's whole hand, in hand order
            while ln[L_HAND + p] > 0:
                discard_from_hand(st, p, lst[L_HAND + p, 0])
        elif op == OP_HAND_TO_DECK:
            for j in range(ln[L_HAND + p]):
                x = lst[L_HAND + p, j]
                push(lst, ln, L_DECK + p, x)
                cs[x, C_ZONE] = Z_DECK
            ln[L_HAND + p] = 0
        elif op == OP_SHUFFLE:
            shuffle(lst, ln, L_DECK + p, states)
        elif op == OP_GRANT_MINION:
            kind = pg[i, I_ARG1]
            if grant_minion(st, p, kind, cs[c, C_SLOT] if kind == G_AT else -1):
                return resume_at(pg, start, pc)
        elif op == OP_GRANT_ACTION:
            if grant_action(st, p, pg[i, I_ARG1]):
                return resume_at(pg, start, pc)
        elif op == OP_SEL_MINION:
            select_minions(st, d, i, p, c, action)
        elif op == OP_DESTROY:
            k = fs[d, F_K]
            victims = stack_empty(CAP)
            for j in range(k):
                victims[j] = sc[d, j]
            out = stack_empty(CAP)
            destroy(st, victims, k, p if c >= 0 else -1, action, out)  # a base's: by no player
        elif op == OP_RETURN:
            for j in range(fs[d, F_K]):
                return_to_hand(st, sc[d, j])
        elif op == OP_BOTTOM:  # not destroyed: no trigger, no Tar Pits
            for j in range(fs[d, F_K]):
                to_deck_bottom(st, sc[d, j])
        elif op == OP_POWER_TEMP or op == OP_COUNTERS:  # the selected minions: until the end of the turn, or
            column = C_TEMP if op == OP_POWER_TEMP else C_COUNTERS  # +1 power counters (while in play)
            for j in range(fs[d, F_K]):
                if touch(st, sc[d, j]):
                    cs[sc[d, j], column] += pg[i, I_ARG1]
        elif op == OP_MOVE:
            move_minions(st, i, p, here_of(st, c), action)
        elif op == OP_MARK:
            cs[c, pg[i, I_ARG1]] = pg[i, I_ARG2]
        elif op == OP_DISCARD_SELF:  # an attached card leaves play (a card gone since: nothing)
            if cs[c, C_ZONE] == Z_ATTACHED:
                discard_attached(st, c)
        elif op == OP_SEL_HOST:  # the minion the card is attached to becomes the selection
            sc[d, 0], fs[d, F_K] = cs[c, C_HOST], 1
        elif op == OP_REDUCE_BREAKPOINT:  # until the end of the turn; fixed now, floored in breakpoint_of [D11]
            if pg[i, I_ARG1] != REDUCE_SEL_POWER:  # the card's base, by I_ARG2
                ss[cs[c, C_SLOT], S_REDUCTION] += pg[i, I_ARG2]
            elif fs[d, F_K] > 0:  # the selected minion's base, by its power now
                ss[cs[sc[d, 0], C_SLOT], S_REDUCTION] += power(st, sc[d, 0])
        elif op == OP_SEL_PLAYED:  # the minion whose play triggered the card becomes the selection
            sc[d, 0], fs[d, F_K] = fs[d, F_M], 1
        elif op == OP_DISCARD_CHOICE_PLAYED:  # that minion's controller discards a card they choose
            discard_choice(st, cs[fs[d, F_M], C_CTRL])
        elif op == OP_MARK_USED:  # the card's once-per-turn use is spent (a minion's C_NAMED)
            if c >= 0:
                cs[c, C_NAMED] = tv[T_TURNS] + 1
            else:  # a base's: p's use of it this turn
                ps[p, P_BASES_USED] |= 1 << frame_base(c)
        elif op == OP_SEL_SELF:  # the card itself (a minion in play) becomes the selection
            sc[d, 0], fs[d, F_K] = c, 1
        elif op == OP_MOVE_SELF:
            if pg[i, I_ARG1] == MOVE_SELF_TO_BASE:  # to the chosen base, no choice (Pirate King's Special)
                move(st, c, fs[d, F_I])
            else:
                move_self(st, p, c)
        elif op == OP_REVEAL:  # the top card of p's deck (refilled first) becomes the selection
            x = top(st, p)
            if x < 0:
                return DONE
            sc[d, 0], fs[d, F_K], fs[d, F_Y] = x, 1, L_DECK + p
        elif op == OP_SEL_CARD:
            if not select_cards(st, d, i, p):
                return DONE
        elif op == OP_TO_PILE:
            to_pile(st, d, p, pg[i, I_ARG1])
        elif op == OP_SEL_PLAYER:
            fs[d, F_Z] = choose_opponent(st, p)
        elif op == OP_SEL_BASE:
            rule = pg[i, I_RULE]
            fs[d, F_I] = choose_base(st, d, p) if rule == RULE_PLACE else \
                (fs[tv[T_WINDOW] - 1, F_S] if tv[T_WINDOW] != 0 else -1) if rule == RULE_SCORING else \
                cs[c, C_SLOT] if rule == RULE_HERE else any_base(st, p, rule)
            if fs[d, F_I] < 0:
                return DONE
        elif op == OP_PLAY_MINION:  # the selected card, at once (no grant used), from its pile
            if fs[d, F_K] == 0:  # none to choose from (SEL_CARD mode=one of an empty pile): nothing
                return DONE
            li = fs[d, F_Y]
            zone = Z_DECK if li < L_HAND else Z_HAND if li < L_DISC else Z_DISCARD
            play_minion_now(st, p, sc[d, 0], fs[d, F_I], zone)
            return resume_at(pg, start, pc)
        elif op == OP_PLAY_ACTION:  # the selected action: offered by its own frame, which asks wants
            if fs[d, F_K] == 0:
                return DONE
            push_frame(st, PR_OFFER, p, sc[d, 0], pg[i, I_ARG1], fs[d, F_Y])
            return resume_at(pg, start, pc)
        elif op == OP_PLAY_SELF:  # from p's hand at once, no play used: a minion on the chosen base
            if is_action_card(st, c):
                play_action_now(st, p, c, Z_HAND)
            else:
                play_minion_now(st, p, c, fs[d, F_I], Z_HAND)
            return resume_at(pg, start, pc)
        # OP_NAMES: the names of the SEL_CARD row above it (RULE_PREFER); nothing to run


@jit_inline
def draw_count(st, d, p, i):
    """How many cards OP_DRAW row ``i`` of frame ``d`` draws for ``p`` (``opcodes.DRAW_*``)."""
    kind = st.pg[i, I_ARG1]
    if kind == DRAW_MINE_AT_BASE:
        return count_on(st, p, st.fs[d, F_I])
    if kind == DRAW_SEL_POWER:  # the selected minion's power now (Sacrifice: before it goes)
        return power(st, st.sc[d, 0]) if st.fs[d, F_K] > 0 else 0
    return st.pg[i, I_ARG2]


@jit
def resume_at(pg, start, pc):
    """After a step pushed a frame: the offset to resume at, or DONE when only OP_END is left
    (the frame is finished now; the pushed one still runs before it is removed)."""
    return DONE if pg[start + pc, I_OP] == OP_END else pc


# ---- minion selections -----------------------------------------------------------------------------
@jit
def candidates(st, d, i, p, c, action, out):
    """The minions selector row ``i`` of frame ``d`` (-1 in a want) admits for card ``c`` of
    controller ``p``, in board order (slot, then arrival); the count."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    here = here_of(st, c)
    at = here  # where=here|base|sel_base: that slot alone
    if pg[i, I_WHERE] == WHERE_BASE:
        at = fs[d, F_I]
    elif pg[i, I_WHERE] == WHERE_SEL_BASE:
        at = cs[sc[d, 0], C_SLOT]
    by = p if c >= 0 else -1  # a base's ability is no player's card
    who, test, legal = pg[i, I_WHO], pg[i, I_TEST], pg[i, I_LEGAL]
    value = pg[i, I_VAL]
    if pg[i, I_VSRC] == VAL_MINE_HERE:
        value = count_on(st, p, here)
    elif pg[i, I_VSRC] == VAL_SEL_POWER:
        value = power(st, sc[d, 0])
    same_name = (pg[i, I_FLAGS] & FLAG_NOT_SAME_NAME) != 0
    name = defs[cs[c, C_DEF], D_NAME] if c >= 0 else -1
    by_power = test == TEST_POWER_LE or test == TEST_POWER_LT  # read as ``power``, the counts once
    cnt = stack_empty(CNT_N)
    if by_power:
        power_counts(st, cnt)
    k = 0
    for t in range(tv[T_NSLOTS]):
        if pg[i, I_WHERE] != WHERE_ANY and t != at:
            continue
        low = lowest_if_mixed(st, t) if test == TEST_LOWEST_MIXED else 0
        if low < 0:
            continue
        raptors, base_power = slot_bonus(st, t) if by_power else (0, 0)
        for j in range(ln[L_SMIN + t]):
            x = lst[L_SMIN + t, j]
            if test == TEST_LOWEST_MIXED and power(st, x) != low:
                continue
            if (who == OWNER_MINE and cs[x, C_CTRL] != p) or (who == OWNER_THEIRS and cs[x, C_CTRL] == p):
                continue
            if by_power:
                x_power = counted_power(st, x, cnt, raptors, base_power)
                if x_power > value or (test == TEST_POWER_LT and x_power == value):
                    continue
            if test == TEST_PRINTED_LE and printed(st, x) > value:
                continue
            if same_name and defs[cs[x, C_DEF], D_NAME] == name:
                continue
            if legal == LEGAL_AFFECT and not affectable(st, x, by, action):
                continue
            if legal == LEGAL_DESTROY and not destroyable(st, x, by, action):
                continue
            out[k] = x
            k += 1
    if test == TEST_TOP_POWER and k > 0:  # keep those of the highest power, in order
        top = power(st, out[0])
        for j in range(1, k):
            top = max(top, power(st, out[j]))
        n = 0
        for j in range(k):
            if power(st, out[j]) == top:
                out[n] = out[j]
                n += 1
        k = n
    return k


@jit
def here_of(st, c):
    """The slot "here" means for card ``c``: its own, or for a base's frame (``c`` < 0, see
    ``step``) the base's: with ``frame_base``, the one place that decodes
    ``stack.push_base_frame``'s -1 - (slot + MAX_SLOTS * base)."""
    return st.cs[c, C_SLOT] if c >= 0 else (-1 - c) % MAX_SLOTS


@jit_inline
def frame_base(c):
    """The base (definition row) whose program a base's frame runs (``c`` < 0, ``here_of``)."""
    return (-1 - c) // MAX_SLOTS


@jit
def strongest_theirs(st, p, cand, k, mandatory):
    """Another player's minion of the highest power (the earliest on ties); with none, for a
    mandatory choice your own weakest [D9], else -1."""
    cs = st.cs
    best = -1
    for j in range(k):
        if cs[cand[j], C_CTRL] != p and (best < 0 or power(st, cand[j]) > power(st, cand[best])):
            best = j
    if best < 0 and mandatory and k > 0:
        best = weakest(st, cand, k)
    return best


@jit
def rule_pick(st, p, rule, cand, k, mandatory, here):
    """The baseline's choice among ``cand[:k]`` by ``rule`` (``here``: the slot "here" means):
    an index, or -1 (decline)."""
    if rule == RULE_HIT:
        return hit(st, p, cand, k, mandatory)
    if rule == RULE_HIGHEST_PRINTED:
        return best_printed(st, cand, k) if k > 0 else -1
    if rule == RULE_HIT_ELSEWHERE:
        return hit_elsewhere(st, p, cand, k, here)
    if rule == RULE_SPARE_SPECIALS:
        return spare_specials(st, cand, k)
    if rule == RULE_SACRIFICE:
        return sacrifice(st, p, cand, k, mandatory)
    if rule == RULE_AUGMENTATION:
        return augmentation(st, p, cand, k, mandatory)
    if rule == RULE_RAMPAGE:
        return rampage(st, p, cand, k, mandatory)
    if rule == RULE_NS_MINE:
        return ns_mine(st, p, cand, k)
    if rule == RULE_POWDERKEG:
        return powderkeg(st, p, cand, k)
    if rule == RULE_HELP:
        return help_(st, p, cand, k)
    return strongest_theirs(st, p, cand, k, mandatory)


@jit
def hit_elsewhere(st, p, cand, k, here):
    """HIT among the candidates not on slot ``here`` (Ninja Dojo): its index in ``cand``, or -1."""
    cs = st.cs
    sub = stack_empty(CAP)
    at = stack_empty(CAP)
    n = 0
    for j in range(k):
        if cs[cand[j], C_SLOT] != here:
            sub[n], at[n] = cand[j], j
            n += 1
    j = hit(st, p, sub, n, False)
    return at[j] if j >= 0 else -1


@jit
def spare_specials(st, cand, k):
    """The lowest printed power among the candidates without an after-scoring ability, else
    among all (the first on ties; Temple of Goju [D33]); -1 for none."""
    cs, defs = st.cs, st.defs
    best, bk = -1, (0, 0)
    for j in range(k):
        d = cs[cand[j], C_DEF]
        key = (1 if defs[d, D_PROG + H_AFTER_SCORING] >= 0 else 0, defs[d, D_POWER])
        if best < 0 or key < bk:
            best, bk = j, key
    return best


@jit
def select_minions(st, d, i, p, c, action):
    """``OP_SEL_MINION``: ``p`` chooses from the candidates into ``sc[d, :F_K]``. MODE_ONE: one
    option per candidate, no decline (none: nothing selected). MODE_UP_TO: up to I_COUNT times
    the candidates left and None last; None stops."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    cand = stack_empty(CAP)
    k = candidates(st, d, i, p, c, action, cand)
    if pg[i, I_FLAGS] & FLAG_SEL_FIRST:  # the minion selected before, if a candidate, goes first
        for j in range(k):
            if cand[j] == sc[d, 0]:
                for t in range(j, 0, -1):
                    cand[t] = cand[t - 1]
                cand[0] = sc[d, 0]
                break
    rule = pg[i, I_RULE]
    here = here_of(st, c)
    n = fs[d, F_K] if pg[i, I_FLAGS] & FLAG_APPEND else 0  # append: after the selection so far
    if pg[i, I_MODE] == MODE_EACH:
        for j in range(k):
            sc[d, n + j] = cand[j]
        n += k
    elif pg[i, I_MODE] == MODE_EACH_MAY:
        n = ask_each(st, d, p, rule, cand, k, n)
    elif pg[i, I_MODE] == MODE_ONE:
        if k > 0:
            default = rule_pick(st, p, rule, cand, k, True, here) if strat[p] == GREEDY else 0
            sc[d, n] = cand[pick(st, p, k, default)]
            n += 1
    else:
        for _ in range(pg[i, I_COUNT]):
            default = k
            if strat[p] == GREEDY:
                j = rule_pick(st, p, rule, cand, k, False, here)
                if j >= 0:
                    default = j
            j = pick(st, p, k + 1, default)
            if j >= k:
                break
            take(sc, d, n, cand, j, k)
            n, k = n + 1, k - 1
    fs[d, F_K] = n


@jit_inline
def ask_each(st, d, p, rule, cand, k, n):
    """MODE_EACH_MAY (minions or cards): a yes/no per candidate of ``cand[:k]`` in list order
    (yes first; the baseline's yes with rule YES), each yes selected into ``sc[d, n:]``; returns
    the new selection count."""
    for j in range(k):
        if pick(st, p, 2, 0 if rule == RULE_YES else 1) == 0:
            st.sc[d, n] = cand[j]
            n += 1
    return n


@jit
def take(sc, d, n, cand, j, k):
    """Candidate ``cand[j]`` becomes the selection's ``sc[d, n]``; ``cand[:k - 1]`` keeps the
    others in order (an up-to choice offers the ones left next)."""
    sc[d, n] = cand[j]
    for t in range(j, k - 1):
        cand[t] = cand[t + 1]


# ---- moves ------------------------------------------------------------------------------------------


@jit
def move_pick(st, p, rule, here, mm, md, k, mandatory):
    """The baseline's move among ``k`` >= 1 options: BEST_MOVE (raising V most, else -1), SAIL
    (while a base scores, Full Sail's Special's ``sail_default``; else BEST_MOVE), HIT_TO_GAP
    (the minion HIT picks among the movable ones, to its base with the largest gap, the lower
    slot on ties), INVASION (``choosers.invasion``), or a base's rule (``kernel/bases.py``; ``here``
    its slot); a mandatory choice takes the first when the rule finds none."""
    j = -1
    if rule == RULE_SAIL and st.tv[T_WINDOW] != 0:  # the scoring base is the window frame's slot
        j = sail_default(st, p, st.fs[st.tv[T_WINDOW] - 1, F_S], mm, md, k)
    elif rule == RULE_BEST_MOVE or rule == RULE_SAIL:
        j = best_move(st, p, mm, md, k)
    elif rule == RULE_STRONGEST_BY_PLACE:
        j = strongest_by_place(st, p, here, mm, md, k)
    elif rule == RULE_FREE_STRONGEST:
        j = free_strongest(st, p, mm, k)
    elif rule == RULE_PUSH_OUT:
        j = push_out(st, p, here, mm, md, k)
    elif rule == RULE_INVASION:
        j = invasion(st, p, mm, md, k)
    else:
        movable = stack_empty(CAP)
        n = 0
        for e in range(k):  # the moves of one minion are contiguous
            if e == 0 or mm[e] != mm[e - 1]:
                movable[n] = mm[e]
                n += 1
        h = hit(st, p, movable, n, False)
        if h >= 0:
            bk = (0, 0)
            for e in range(k):
                if mm[e] == movable[h]:
                    key = (gap(st, md[e]), -md[e])
                    if j < 0 or key > bk:
                        j, bk = e, key
    if j < 0 and mandatory:
        j = 0
    return j


@jit
def move_minions(st, i, p, here, action):
    """``OP_MOVE``: MODE_ONE, one move (no decline); MODE_UP_TO, up to I_COUNT moves, each minion
    at most once, the moves left and None last each time (None stops). ``here``: the slot the
    row's I_WHERE reads (``board.move_pairs``)."""
    strat, pg = st.strat, st.pg
    mm = stack_empty(MAX_MOVES)
    md = stack_empty(MAX_MOVES)
    moved = stack_empty(CAP)
    rule, who, legal, where = pg[i, I_RULE], pg[i, I_WHO], pg[i, I_LEGAL], pg[i, I_WHERE]
    if pg[i, I_MODE] == MODE_ONE:
        k = move_pairs(st, who, legal, where, here, p, action, moved, 0, mm, md)
        if k > 0:
            default = move_pick(st, p, rule, here, mm, md, k, True) if strat[p] == GREEDY else 0
            j = pick(st, p, k, default)
            move(st, mm[j], md[j])
        return
    for nm in range(pg[i, I_COUNT]):
        k = move_pairs(st, who, legal, where, here, p, action, moved, nm, mm, md)
        if k == 0:
            return
        default = k
        if strat[p] == GREEDY:
            j = move_pick(st, p, rule, here, mm, md, k, False)
            if j >= 0:
                default = j
        j = pick(st, p, k + 1, default)
        if j >= k:
            return
        moved[nm] = mm[j]
        move(st, mm[j], md[j])


@jit
def move_self(st, p, m):
    """``OP_MOVE_SELF``: ``p`` may move minion ``m`` (the card itself) to another base it may
    go to, slot order, None last; the baseline's by PLACE (First Mate)."""
    cs, tv, strat = st.cs, st.tv, st.strat
    dests = stack_empty(MAX_SLOTS)
    k = 0
    for t in range(tv[T_NSLOTS]):
        if t != cs[m, C_SLOT] and can_move(st, p, m, t):
            dests[k] = t
            k += 1
    if k == 0:
        return
    default = place(st, p, m, True, dests, k) if strat[p] == GREEDY else 0
    i = pick(st, p, k + 1, default)
    if i < k:
        move(st, m, dests[i])


# ---- cards in piles, players, bases ---------------------------------------------------------------
@jit
def select_cards(st, d, i, p):
    """``OP_SEL_CARD``: cards of a pile (your discard pile, the chosen player's hand or your deck,
    the frame's revealed cards, the actions on the card's base or the other actions on its host
    minion) that row ``i`` admits (``admit``), in pile order (the deck's from the top), chosen
    into ``sc[d, :F_K]`` (the pile in ``F_Y``, -1 for the revealed cards): MODE_ONE one, no
    decline; MODE_UP_TO up to I_COUNT, None last; MODE_EACH_MAY a yes/no per card in list order
    (yes first), all asked before any moves. False: the pile is your deck and
    it is empty even after rebuilding it from the discard pile (§1.9; the program ends)."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    where = pg[i, I_WHERE]
    cand = stack_empty(CAP)
    k = 0
    li = -1
    if where == PILE_REVEALED:
        for j in range(fs[d, F_J]):
            k = admit(st, d, i, p, sc[d, REVEALED + j], cand, k)
    elif where == PILE_ACTIONS_IN_PLAY:  # in no one list (F_Y -1): TO_PILE detaches an attached card
        acts = stack_empty(CAP)
        for j in range(actions_in_play(st, acts)):
            k = admit(st, d, i, p, acts[j], cand, k)
    else:
        if where == PILE_DECK:
            if not refill(st, p):
                return False
            li = L_DECK + p
        elif where == PILE_ACTIONS_HERE:
            li = L_SACT + fs[d, F_S]
        elif where == PILE_ACTIONS_ON_HOST:
            li = L_ATT + cs[fs[d, F_C], C_HOST]
        else:
            li = L_DISC + p if where == PILE_DISCARD else L_HAND + p if where == PILE_HAND else L_HAND + fs[d, F_Z]
        n = ln[li]
        for j in range(n):
            x = lst[li, n - 1 - j] if where == PILE_DECK else lst[li, j]
            if x != fs[d, F_C] or li < L_SACT:  # an attached card is not among its own pile's others
                k = admit(st, d, i, p, x, cand, k)
    rule, n = pg[i, I_RULE], 0
    if pg[i, I_MODE] == MODE_EACH_MAY:
        n = ask_each(st, d, p, rule, cand, k, n)
    elif pg[i, I_MODE] == MODE_ONE:
        if k > 0:
            default = max(card_rule(st, p, i, rule, cand, k), 0) if strat[p] == GREEDY else 0
            sc[d, 0] = cand[pick(st, p, k, default)]
            n = 1
    else:
        for _ in range(pg[i, I_COUNT]):
            default = k  # none (more)
            if strat[p] == GREEDY and rule != RULE_YES and k > 0:
                default = card_rule(st, p, i, rule, cand, k)
                if default < 0:
                    default = k
            j = pick(st, p, k + 1, default)
            if j >= k:
                break
            take(sc, d, n, cand, j, k)
            n, k = n + 1, k - 1
    fs[d, F_Y], fs[d, F_K] = li, n
    return True


@jit
def admit(st, d, i, p, x, cand, k):
    """Card ``x`` joins ``cand[:k]`` if SEL_CARD row ``i`` admits it (its kind, printed power,
    playable on the chosen base); returns the count. CARD_BY_NAME keeps one card per definition
    row, the first met, with the list in data order (definition row: catalogue order)."""
    cs, fs, pg = st.cs, st.fs, st.pg
    kind, flags = pg[i, I_TEST], pg[i, I_FLAGS]
    if kind == KIND_MINION and not is_minion_card(st, x):  # a Pixie counts [D20]
        return k
    if kind == KIND_ACTION and not is_action_card(st, x):
        return k
    if kind == KIND_MICROBOT and not is_microbot_card(st, x):
        return k
    if (flags & CARD_PRINTED_LE) != 0 and printed(st, x) > pg[i, I_VAL]:
        return k
    if pg[i, I_LEGAL] == LEGAL_ALLOWED and not minion_allowed(st, p, x, fs[d, F_I]):
        return k
    j = k
    if (flags & CARD_BY_NAME) != 0:
        for t in range(k):
            if cs[cand[t], C_DEF] == cs[x, C_DEF]:
                return k
        while j > 0 and cs[cand[j - 1], C_DEF] > cs[x, C_DEF]:
            cand[j] = cand[j - 1]
            j -= 1
    cand[j] = x
    return k + 1


@jit
def card_rule(st, p, i, rule, cand, k):
    """Player ``p``'s card among ``cand[:k]`` (k >= 1) by SEL_CARD row ``i``'s rule: the highest
    printed power (BEST_PRINTED), the first with the earliest name of the OP_NAMES row after
    ``i`` (PREFER), the first of another player (THEIRS; -1: none of theirs), a card's own rule
    (``choosers``: GRAVE_ROBBING), else the first."""
    cs, defs, pg = st.cs, st.defs, st.pg
    if rule == RULE_BEST_PRINTED:
        return best_printed(st, cand, k)
    if rule == RULE_GRAVE_ROBBING:
        return grave_robbing(st, cand, k)
    if rule == RULE_DISENCHANT:
        return disenchant(st, p, cand, k)
    if rule == RULE_THEIRS_OUTRANKED:
        return theirs_outranked(st, p, cand, k)
    if rule == RULE_THEIRS:
        for j in range(k):
            if cs[cand[j], C_CTRL] != p:
                return j
        return -1
    if rule == RULE_PREFER:
        for t in range(1, I_N):
            name = pg[i + 1, t]
            if name < 0:
                break
            for j in range(k):
                if defs[cs[cand[j], C_DEF], D_NAME] == name:
                    return j
    return 0


@jit
def to_pile(st, d, p, dest):
    """``OP_TO_PILE``: the selected cards leave their pile (``F_Y``; -1: the revealed cards), one
    at a time in selection order, for your hand, the top of your deck, or their owner's discard pile."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    for j in range(fs[d, F_K]):
        x = sc[d, j]
        if cs[x, C_ZONE] == Z_ATTACHED:  # an action leaving play (Poison's and Infiltrate's victims)
            detach(st, x)
        elif fs[d, F_Y] < 0:
            drop_revealed(st, d, x)
        else:
            remove(lst, ln, fs[d, F_Y], x)
        if dest == TO_HAND:
            push(lst, ln, L_HAND + p, x)
            cs[x, C_ZONE] = Z_HAND
        elif dest == TO_DECK:
            push(lst, ln, L_DECK + p, x)
            cs[x, C_ZONE] = Z_DECK
        else:
            to_discard(st, x)


@jit
def take_top(st, d, p, n):
    """``OP_TAKE_TOP``: up to ``n`` cards off the top of ``p``'s deck, rebuilding an empty deck on
    the way [D17], become the frame's revealed cards (out of every pile until they are placed)."""
    lst, ln, fs, sc = st.lst, st.ln, st.fs, st.sc
    k = 0
    while k < n and refill(st, p):
        sc[d, REVEALED + k] = pop(lst, ln, L_DECK + p)
        k += 1
    fs[d, F_J] = k


@jit
def take_named(st, p, i):
    """``OP_TAKE_NAMED`` row ``i``: ``p`` names a card of their pile (the deck rebuilt first when
    empty, §1.9; or the discard pile), names in data order, of minions only with kind=minion; then
    how many of its copies to take (the baseline: all), from the pile's end; they go to ``p``'s
    hand or their discard pile. False: nothing to name (the program ends)."""
    cs, lst, ln, pg = st.cs, st.lst, st.ln, st.pg
    li = L_DECK + p if pg[i, I_WHERE] == PILE_DECK else L_DISC + p
    if pg[i, I_WHERE] == PILE_DECK and not refill(st, p):
        return False
    names = stack_empty(CAP)
    count = stack_empty(CAP)
    k = names_in_data_order(st, li, pg[i, I_TEST] == KIND_MINION, names, count)
    if k == 0:
        return False
    default = 0
    if st.strat[p] == GREEDY:
        default = crawl(st, names, count, k) if pg[i, I_RULE] == RULE_CRAWL else bullets(st, names, count, k)
    j = pick(st, p, k, default)
    n_copies = count[j]
    n = n_copies - pick(st, p, n_copies + 1, 0)  # option t: all but t (the last, n_copies: none)
    t = ln[li] - 1
    while t >= 0 and n > 0:
        x = lst[li, t]
        if cs[x, C_DEF] == names[j]:
            remove(lst, ln, li, x)
            n -= 1
            if pg[i, I_VAL] == TO_HAND:
                push(lst, ln, L_HAND + p, x)
                cs[x, C_ZONE] = Z_HAND
            else:
                to_discard(st, x)
        t -= 1
    return True


@jit
def drop_revealed(st, d, x):
    """Card ``x`` leaves the frame's revealed cards (the others keep their order)."""
    fs, sc = st.fs, st.sc
    k = fs[d, F_J]
    for j in range(k):
        if sc[d, REVEALED + j] == x:
            for t in range(j, k - 1):
                sc[d, REVEALED + t] = sc[d, REVEALED + t + 1]
            fs[d, F_J] = k - 1
            return


@jit
def restack(st, d, p):
    """``OP_RESTACK``: the revealed cards left go back on top of ``p``'s deck in the order ``p``
    picks them, one pick at a time, the first picked on top (the baseline: revealed order)."""
    cs, lst, ln, fs, sc = st.cs, st.lst, st.ln, st.fs, st.sc
    order = stack_empty(MAX_REVEAL)  # top first
    no = 0
    while fs[d, F_J] > 0:
        x = sc[d, REVEALED + pick(st, p, fs[d, F_J], 0)]
        drop_revealed(st, d, x)
        order[no] = x
        no += 1
    for j in range(no - 1, -1, -1):
        push(lst, ln, L_DECK + p, order[j])
        cs[order[j], C_ZONE] = Z_DECK


@jit
def bases_none_mine(st, p):
    """The slots with no minion of ``p`` on them, a bit per slot (FOR_BASES_NONE_MINE)."""
    mask = 0
    for s in range(st.tv[T_NSLOTS]):
        if not has_minion_on(st, p, s):
            mask |= 1 << s
    return mask


@jit
def players_listed(st, kind, s):
    """The players a base's FOR loop lists (FOR_WINNERS, FOR_PLAYERS_HERE, FOR_NON_WINNERS on
    slot ``s``, FOR_PLAYERS, FOR_RUNNERS_UP of the base scored last), a bit per turn-order
    position from the current player (``next_listed``)."""
    tv = st.tv
    if kind == FOR_RUNNERS_UP:
        return tv[T_RUNNERS]
    n = tv[T_PLAYERS]
    pw = stack_empty(MAX_PLAYERS)
    place_ = stack_empty(MAX_PLAYERS)
    places(st, s, pw, place_)
    mask = 0
    for o in range(n):
        q = (tv[T_CURRENT] + o) % n
        if kind == FOR_PLAYERS or (place_[q] == 0 if kind == FOR_WINNERS else place_[q] != 0
                                   if kind == FOR_NON_WINNERS else has_minion_on(st, q, s)):
            mask |= 1 << o
    return mask


@jit
def pick_listed(st, d, p):
    """The next base of a FOR bases_none_mine loop, ``p``'s pick among the listed ones not yet
    taken (the baseline's: the lowest slot, so slot order): the one taken last (``F_I``) leaves
    the list ``F_L``; -1 when none is left."""
    fs = st.fs
    if fs[d, F_I] >= 0:
        fs[d, F_L] &= ~(1 << fs[d, F_I])
    n = 0
    for t in range(st.tv[T_NSLOTS]):
        n += (fs[d, F_L] >> t) & 1
    if n == 0:
        return -1
    j = pick(st, p, n, 0)
    for t in range(st.tv[T_NSLOTS]):
        if (fs[d, F_L] >> t) & 1:
            if j == 0:
                return t
            j -= 1
    return -1


@jit
def next_listed(mask, i, n):
    """The first bit after ``i`` and below ``n`` set in a FOR loop's ``mask`` (a slot still in
    play, or a turn-order position), or -1."""
    for t in range(i + 1, n):
        if (mask >> t) & 1:
            return t
    return -1


@jit
def choose_opponent(st, p):
    """``OP_SEL_PLAYER others rule=OPPONENT``: one of the other players, in turn order after
    ``p``; the baseline's is the one with most VP (ties: the earliest)."""
    tv, strat = st.tv, st.strat
    n = tv[T_PLAYERS]
    default = (opponent(st, p) - p - 1) % n if strat[p] == GREEDY else 0
    return (p + 1 + pick(st, p, n - 1, default)) % n


@jit
def most_mine(st, p):
    """The slot with most of ``p``'s minions, the lower on ties (SEL_BASE rule=MOST_MINE)."""
    best, bk = 0, -1
    for s in range(st.tv[T_NSLOTS]):
        k = count_on(st, p, s)
        if k > bk:
            best, bk = s, k
    return best


@jit
def any_base(st, p, rule):
    """``OP_SEL_BASE legal=any mode=one``: a base in play, the baseline's by ``rule`` (MOST_MINE,
    CROP_CIRCLES); -1: none in play."""
    n = st.tv[T_NSLOTS]
    if n == 0:
        return -1
    default = 0
    if st.strat[p] == GREEDY:
        default = most_mine(st, p) if rule == RULE_MOST_MINE else crop_circles(st, p)
    return pick(st, p, n, default)


@jit
def choose_base(st, d, p):
    """``OP_SEL_BASE legal=allowed mode=may rule=PLACE``: a base the selected minion card may be
    played on (slot order) and None last; the baseline's PLACE. -1: none, or declined."""
    sc, tv, strat = st.sc, st.tv, st.strat
    x = sc[d, 0]
    slots = stack_empty(MAX_SLOTS)
    k = 0
    for s in range(tv[T_NSLOTS]):
        if minion_allowed(st, p, x, s):
            slots[k] = s
            k += 1
    if k == 0:
        return -1
    i = pick(st, p, k + 1, place(st, p, x, False, slots, k) if strat[p] == GREEDY else 0)
    return slots[i] if i < k else -1


# ---- conditions and wants ----------------------------------------------------------------------------
@jit
def holds(st, d, p, c, i):
    """The condition of IF/MAY row ``i`` (negated when its I_NOT is set)."""
    pg = st.pg
    return condition(st, d, p, c, pg[i, I_ARG1], pg[i, I_ARG2]) != (pg[i, I_NOT] != 0)


@jit
def condition(st, d, p, c, cond, arg):
    """Condition ``cond`` (with its number ``arg``) for card ``c`` of seat ``p``; ``d`` the
    running frame (the frame conditions read its selection), -1 in a want."""
    cs, lst, ln, ss, ps, tv, gr, defs, bases, rs, states, strat, opt, stats, fs, sc, pg = unpack(st)
    if cond == COND_ALWAYS:
        return True
    elif cond == COND_SELECTED:
        return fs[d, F_K] > 0
    elif cond == COND_SEL_IS_MINION or cond == COND_SEL_MINION_PRINTED_LE:
        x = sc[d, 0]
        return is_minion_card(st, x) and (cond == COND_SEL_IS_MINION or printed(st, x) <= arg)
    elif cond == COND_SEL_IS_ACTION:
        return is_action_card(st, sc[d, 0])
    elif cond == COND_DECK_HAS_ACTION:  # your deck, or the discard pile a search rebuilds it from
        li = L_DECK + p if ln[L_DECK + p] > 0 else L_DISC + p
        for j in range(ln[li]):
            if is_action_card(st, lst[li, j]):
                return True
        return False
    elif cond == COND_MOST_MINE_GE:  # a base to choose, and the default one holds arg of yours
        return tv[T_NSLOTS] > 0 and count_on(st, p, most_mine(st, p)) >= arg
    elif cond == COND_DISCARD_GT_DECK:
        return ln[L_DISC + p] > ln[L_DECK + p]
    elif cond == COND_UNUSED_THIS_TURN:  # its once-per-turn use (MARK self used) not spent
        if c < 0:  # a base's frame: p's use of the base this turn
            return (ps[p, P_BASES_USED] >> frame_base(c)) & 1 == 0
        return cs[c, C_NAMED] != tv[T_TURNS] + 1
    elif COND_PLAYED_BY_OTHER <= cond <= COND_PLAYED_DESTROYABLE:  # the minion whose play triggered it
        return played(st, d, p, c, cond)
    elif cond == COND_ATTACHED_THIS_TURN:  # an attached card, attached in this turn
        return cs[c, C_ZONE] == Z_ATTACHED and cs[c, C_TURN] == tv[T_TURNS]
    elif cond == COND_ALONE_FIRST_HERE:  # p alone has the most power on the card's base
        pw = stack_empty(MAX_PLAYERS)
        place_ = stack_empty(MAX_PLAYERS)
        places(st, cs[c, C_SLOT], pw, place_)
        firsts = 0
        for q in range(tv[T_PLAYERS]):
            if place_[q] == 0:
                firsts += 1
        return place_[p] == 0 and firsts == 1
    elif cond == COND_HAND_GT_SOMEONE:  # more cards in hand than at least one other player (Pixie)
        for q in range(tv[T_PLAYERS]):
            if q != p and ln[L_HAND + p] > ln[L_HAND + q]:
                return True
        return False
    elif cond == COND_HAND_MOST:  # more cards in hand than every other player [D32]
        for q in range(tv[T_PLAYERS]):
            if q != p and ln[L_HAND + p] <= ln[L_HAND + q]:
                return False
        return True
    elif cond == COND_FIRST_MINION:  # no other minion played earlier this turn
        return ps[p, P_MINIONS_PLAYED] == 1
    elif cond == COND_HAS_HIT:  # arg: the row of the selection whose candidates HIT reads
        cand = stack_empty(CAP)
        k = candidates(st, -1, arg, p, c, True, cand)
        return hit(st, p, cand, k, False) >= 0
    elif cond == COND_HAND_LE:  # the card itself aside
        k = 0
        for j in range(ln[L_HAND + p]):
            if lst[L_HAND + p, j] != c:
                k += 1
        return k <= arg
    elif cond == COND_HAND_HAS_MINION_PRINTED_LE:
        for j in range(ln[L_HAND + p]):
            x = lst[L_HAND + p, j]
            if is_minion_card(st, x) and printed(st, x) <= arg:
                return True
        return False
    elif cond == COND_PHASE_NO_MINION:  # no minion played yet in this Play Cards phase (Ninja Acolyte)
        return tv[T_PHASE_MIN] == 0
    elif cond == COND_MINION_PLAYABLE_HERE:  # the card itself, or a minion in your hand, could go on its base
        if minion_allowed(st, p, c, cs[c, C_SLOT]):
            return True
        for j in range(ln[L_HAND + p]):
            if is_minion_card(st, lst[L_HAND + p, j]) and minion_allowed(st, p, lst[L_HAND + p, j], cs[c, C_SLOT]):
                return True
        return False
    elif cond == COND_HAND_HAS_MINION or cond == COND_DISCARD_HAS_MINION:
        li = L_HAND + p if cond == COND_HAND_HAS_MINION else L_DISC + p
        for j in range(ln[li]):
            if is_minion_card(st, lst[li, j]):
                return True
        return False
    elif cond == COND_MINION_PLAY_USEFUL:  # two minions in hand, or one and no minion play left
        k = 0
        for j in range(ln[L_HAND + p]):
            if is_minion_card(st, lst[L_HAND + p, j]):
                k += 1
        return k >= 2 or (k >= 1 and tv[T_FREE_MIN] == 0)
    elif cond == COND_HAS_OPTIONS or cond == COND_HAS_BEST_MOVE:
        if pg[arg, I_OP] == OP_SEL_MINION:
            cand = stack_empty(CAP)
            return candidates(st, -1, arg, p, c, True, cand) > 0
        mm = stack_empty(MAX_MOVES)
        md = stack_empty(MAX_MOVES)
        k = move_pairs(st, pg[arg, I_WHO], pg[arg, I_LEGAL], pg[arg, I_WHERE], here_of(st, c), p, True, mm, 0,
                       mm, md)
        return k > 0 if cond == COND_HAS_OPTIONS else best_move(st, p, mm, md, k) >= 0
    elif cond == COND_V_RISES:  # the selection's POWER_TEMP (the next row) read into V
        cand = stack_empty(CAP)
        k = candidates(st, -1, arg, p, c, True, cand)
        by = pg[arg + 1, I_ARG1]
        cnt = stack_empty(CNT_N)  # a power change keeps the counts: V changes on its slots only
        power_counts(st, cnt)
        terms = stack_empty(MAX_SLOTS)
        before = slot_terms(st, p, cnt, terms)
        as_if(st, 1)
        touched = 0  # a bit per slot
        for j in range(k):
            cs[cand[j], C_TEMP] += by
            touched |= 1 << cs[cand[j], C_SLOT]
        after = before
        for s in range(tv[T_NSLOTS]):
            if (touched >> s) & 1:
                after += slot_term(st, p, s, cnt)[0] - terms[s]
        for j in range(k):
            cs[cand[j], C_TEMP] -= by
        as_if(st, -1)
        return after > before
    return False  # COND_NEVER


@jit
def played(st, d, p, c, cond):
    """A PLAYED_ condition on the minion ``fs[d, F_M]`` whose play triggered card ``c`` of ``p``."""
    cs, fs = st.cs, st.fs
    m = fs[d, F_M]
    if cond == COND_PLAYED_BY_OTHER:
        return cs[m, C_CTRL] != p
    elif cond == COND_PLAYED_ON_BASE:  # the base it was played on (in play or not now)
        return cs[m, C_SLOT] == cs[c, C_SLOT]
    elif cond == COND_PLAYED_HERE:  # in play on the card's base
        return cs[m, C_ZONE] == Z_MINION and cs[m, C_SLOT] == cs[c, C_SLOT]
    elif cond == COND_PLAYED_WEAKER:
        return power(st, m) < power(st, c)
    # COND_PLAYED_DESTROYABLE: in play, and the card may destroy it (as a minion's or an action's)
    return cs[m, C_ZONE] == Z_MINION and destroyable(st, m, p, is_action_card(st, c))


@jit
def want(st, p, c):
    """The data want of action card ``c`` for seat ``p``: 1 (play it now), 0, or -1 (the card has
    none: its faction module decides)."""
    return conditions(st, p, c, D_WANT)


@jit
def usable(st, p, c):
    """The data usable test of card ``c``'s talent for seat ``p``: 1 (usable now), 0, or -1 (the
    card has none: its faction module decides)."""
    return conditions(st, p, c, D_USABLE)


@jit_inline
def conditions(st, p, c, column):
    """The OP_IF rows from ``defs[c's row, column]`` for card ``c`` of seat ``p`` (no frame): 1
    when every one holds, 0, or -1 when there are none."""
    cs, defs, pg = st.cs, st.defs, st.pg
    i = defs[cs[c, C_DEF], column]
    if i < 0:
        return -1
    while pg[i, I_OP] == OP_IF:
        if not holds(st, -1, p, c, i):
            return 0
        i += 1
    return 1
