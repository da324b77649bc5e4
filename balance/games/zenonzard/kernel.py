"""The ZENONZARD kernel: ``reference.Game`` in numba, playing the same games from the same streams.

The state is one numpy record (``STATE``, fields below), passed to every function as one
pointer, as Smash Up's kernel does (docs/ARCHITECTURE.md: a tuple of arrays is copied field by
field at every call). Each function mirrors the reference method of the same name; every
option list is built in the reference's order, so a ``random`` seat's draw picks the same
option and the evaluator computes the same index. Units on a field or base are rows
(card, active, entered, moved_in); a seat's cards are indices into its rows of ``cd``.

Streams of game ``g`` (``balance.core.kit``): slot 0 chance (shuffles), slot 1 + seat the
seat's strategy, slot 3 the seats' sides (``kit.SIDE_STREAM``).
"""
import numpy as np

from balance.core._jit import drop_stale_cache, jit_inline, jit_novec, jit_widened as jit, stack_empty
from balance.core.kit import SIDE_STREAM
from balance.core.rng import below, game_key, game_stream_key, seed_key

drop_stale_cache(__file__)

MAX_DECK = 64  # cards in a deck (rules: 10..60)
MAX_FIELD = 10  # rules.field_max <= 10
MAX_BASE = 20  # rules.base_max <= 20
MAX_OPT = 1 + MAX_DECK + MAX_BASE + MAX_FIELD + MAX_FIELD * 3  # summons, moves, attacks, end

# card data cd[s, c, CF_*]
CF_KIND, CF_COL, CF_COST, CF_PART, CF_BP, CF_DP, CF_KW, CF_N = range(8)
KIND_FIELD, KIND_BASE, KIND_MAGIC, KIND_TOKEN = range(4)
COLORLESS = 64  # colour bits: white 1, yellow 2, red 4, blue 8, green 16, purple 32, colorless 64
# lists zl[s, L_*, :] with counts sv[s, SV_NDECK + L_*]
L_DECK, L_HAND, L_TRASH = range(3)
# a unit's row: fu[s, i, U_*] (field), bu[s, i, U_*] (base)
U_CARD, U_ACTIVE, U_ENTERED, U_MOVED, U_N = range(5)
TOKEN = -1
# seat values sv[s, *]
SV_LIFE, SV_RIGHTS, SV_NFIELD, SV_NBASE, SV_F0, SV_F1, SV_FL0, SV_FL1, SV_NDECK, SV_NHAND, SV_NTRASH, SV_N = range(12)
# game values gv[*]
G_TURN, G_CURRENT, G_OVER, G_WINNER, G_END, G_N = range(6)
END_LIFE, END_DECK_OUT, END_CAPPED = range(3)  # = the GameInfo outcomes' order
# the Forces, in catalogue.forces() order
SIREN, MINOTAUR, ORTHRUS, SPHINX, CYCLOPS, CHIMERA, CHIRON, PEGASUS, PHOENIX, OUROBOROS = range(10)
# keyword bits (catalogue.KEYWORDS)
K_SWOOP, K_CHARGE, K_RESURGE, K_REVENGE, K_PIERCE, K_INFILTRATE, K_NO_BLOCK, K_NO_MOVE = (1 << i for i in range(8))
# the rules row rr[R_*] (``rules_row``)
(R_TOTAL_LIFE, R_OPENING, R_MULLIGANS, R_HAND_MAX, R_FIELD_MAX, R_BASE_MAX, R_MOVES, R_FT_DRAW, R_FT_MOVE,
 R_FT_ATTACK, R_NEW_TARGETS, R_MOVED_TARGETS, R_TIE_BOTH, R_OVERFLOW, R_MANA_ACTIVE, R_SUMMON_ACTIVE,
 R_TUTOR_ACTIVE, R_KW, R_PIERCE, R_INFILTRATE, R_TURN_CAP, R_TURN_BOUND, R_N) = range(23)
NEW_FORCE_ONLY, NEW_PLAYER_IF_NO_FORCE, NEW_ANY = range(3)
PIERCE_DIFF, PIERCE_FULL, PIERCE_OFF = range(3)
# strategy ids (strategies.RANDOM / EVALUATOR) and the evaluator's weights wt[s, W_*]
RANDOM = 0
W_AGGR, W_ATTACK, W_BLOCK, W_HOLD, W_RAMP, W_N = range(6)
PLAYER = -1
# options opt[i, :] = (kind, a, b)
O_SUMMON, O_UP, O_DOWN, O_ATTACK, O_END = range(5)

STATE_FIELDS = ("cd", "zl", "fu", "bu", "sv", "gv", "rr", "states", "sid", "wt", "milli", "opt", "seen")
# seen[s, c]: what became of deck card c this game (the descriptive cards table)
SEEN_DRAWN, SEEN_PLAYED = 1, 2
# card_stats[card, CS_*]: seat-games whose deck held the card, and those where it was drawn or
# played, each with the seat's wins
CS_IN_DECK, CS_IN_DECK_WON, CS_DRAWN, CS_DRAWN_WON, CS_PLAYED, CS_PLAYED_WON, CS_N = range(7)


def state_dtype() -> np.dtype:
    shapes = {"cd": ((2, MAX_DECK, CF_N), np.int64), "zl": ((2, 3, MAX_DECK), np.int64),
              "fu": ((2, MAX_FIELD, U_N), np.int64), "bu": ((2, MAX_BASE, U_N), np.int64),
              "sv": ((2, SV_N), np.int64), "gv": ((G_N,), np.int64), "rr": ((R_N,), np.int64),
              "states": ((4,), np.uint64), "sid": ((2,), np.int64), "wt": ((2, W_N), np.float64),
              "milli": ((2,), np.int64), "opt": ((MAX_OPT, 3), np.int64), "seen": ((2, MAX_DECK), np.int64)}
    return np.dtype([(f, shapes[f][1], shapes[f][0]) for f in STATE_FIELDS])


STATE = state_dtype()


def rules_row(rules) -> np.ndarray:
    """The kernel's rules row ``rr`` (``R_*``) of a ``rules.Rules``."""
    from .rules import INFILTRATE, MOVED_BASE_TARGETS, NEW_MINION_TARGETS, PIERCE

    row = np.zeros(R_N, np.int64)
    row[[R_TOTAL_LIFE, R_OPENING, R_MULLIGANS, R_HAND_MAX, R_FIELD_MAX, R_BASE_MAX, R_MOVES]] = (
        rules.total_life, rules.opening_hand, rules.mulligans, rules.hand_max, rules.field_max, rules.base_max,
        rules.moves_per_turn)
    row[[R_FT_DRAW, R_FT_MOVE, R_FT_ATTACK, R_TIE_BOTH]] = (
        rules.first_turn_draw, rules.first_turn_move, rules.first_turn_attack, rules.tie_destroys_both)
    row[R_NEW_TARGETS] = NEW_MINION_TARGETS.index(rules.new_minion_targets)
    row[R_MOVED_TARGETS] = MOVED_BASE_TARGETS.index(rules.moved_base_minion_targets)
    row[R_OVERFLOW] = rules.force_overflow == "to_player"
    row[[R_MANA_ACTIVE, R_SUMMON_ACTIVE, R_TUTOR_ACTIVE]] = (
        rules.mana_enters == "active", rules.summon_enters == "active", rules.force_tutor_enters == "active")
    row[R_KW] = rules.keyword_mask
    row[R_PIERCE] = PIERCE.index(rules.pierce)
    row[R_INFILTRATE] = INFILTRATE.index(rules.infiltrate)
    row[R_TURN_CAP] = rules.turn_cap
    row[R_TURN_BOUND] = rules.turn_bound
    return row


_KIND_CODES = {"field": KIND_FIELD, "base": KIND_BASE, "magic": KIND_MAGIC, "token": KIND_TOKEN}
_COLOUR_BITS = {"white": 1, "yellow": 2, "red": 4, "blue": 8, "green": 16, "purple": 32, "colorless": COLORLESS}


def deck_rows(deck) -> np.ndarray:
    """int64[MAX_DECK, CF_N]: a deck's resolved cards (``catalogue.resolved``) as ``cd`` rows."""
    rows = np.zeros((MAX_DECK, CF_N), np.int64)
    for i, c in enumerate(deck):
        rows[i] = (_KIND_CODES[c.kind], sum(_COLOUR_BITS[x] for x in c.colours), c.cost, c.part, c.bp or 0,
                   c.dp or 0, c.keywords)
    return rows


def new_state(rules, strategies) -> np.ndarray:
    """A one-element array of ``STATE`` for games under ``rules`` with ``strategies`` (one
    ``Strategy`` per seat); the kernel's state is its element ``[0]``."""
    box = np.zeros(1, STATE)
    st = box[0]
    st["rr"][:] = rules_row(rules)
    for s, strategy in enumerate(strategies):
        st["sid"][s] = strategy.info.id
        if strategy.info.params:
            st["wt"][s, :len(strategy.values)] = strategy.values
            st["milli"][s] = round(1000 * strategy.values[0])  # aggression, as the reference draws it
    return box


# ---- small readings ------------------------------------------------------------------------------
@jit_inline
def force_up(st, s, f):
    sv = st.sv
    return (sv[s, SV_F0] == f and sv[s, SV_FL0] > 0) or (sv[s, SV_F1] == f and sv[s, SV_FL1] > 0)


@jit_inline
def has(st, s, c, k):
    return (st.cd[s, c, CF_KW] & k & st.rr[R_KW]) != 0


@jit_inline
def bp(st, s, c):
    return st.cd[s, c, CF_BP] + (100 if force_up(st, s, CYCLOPS) else 0)


@jit_inline
def dp(st, s, c):
    return st.cd[s, c, CF_DP] + (1 if st.cd[s, c, CF_COST] >= 5 and force_up(st, s, ORTHRUS) else 0)


@jit_inline
def player_damage(st, s, amount):
    return max(0, amount - 1) if force_up(st, s, MINOTAUR) else amount


@jit_inline
def choose(st, s, n, default):
    if st.sid[s] == RANDOM:
        return 0 if n == 1 else below(st.states, 1 + s, n)
    return default


@jit_inline
def unit_colours(st, s, card):
    return COLORLESS if card == TOKEN else st.cd[s, card, CF_COL]


@jit
def need(st, s, col):
    """Field minions in ``s``'s hand sharing a colour bit with ``col`` (one bit)."""
    k = 0
    for i in range(st.sv[s, SV_NDECK + L_HAND]):
        c = st.zl[s, L_HAND, i]
        if st.cd[s, c, CF_KIND] == KIND_FIELD and (st.cd[s, c, CF_COL] & col) != 0:
            k += 1
    return k


@jit
def need_of(st, s, cols, least):
    """The least (``least``) or the most need over the colour bits of ``cols``."""
    best = -1
    for b in range(7):
        if cols & (1 << b):
            v = need(st, s, 1 << b)
            if best < 0 or (v < best if least else v > best):
                best = v
    return best


# ---- lists ---------------------------------------------------------------------------------------
@jit_inline
def push(st, s, li, c):
    n = st.sv[s, SV_NDECK + li]
    st.zl[s, li, n] = c
    st.sv[s, SV_NDECK + li] = n + 1


@jit
def remove_at(st, s, li, i):
    """Take the card at position ``i`` of list ``li`` out, keeping the others' order."""
    n = st.sv[s, SV_NDECK + li]
    c = st.zl[s, li, i]
    for k in range(i, n - 1):
        st.zl[s, li, k] = st.zl[s, li, k + 1]
    st.sv[s, SV_NDECK + li] = n - 1
    return c


@jit
def index_of(st, s, li, c):
    for i in range(st.sv[s, SV_NDECK + li]):
        if st.zl[s, li, i] == c:
            return i
    return -1


@jit
def shuffle(st, s, li):
    """Fisher-Yates from the chance stream (``Game.shuffle``)."""
    zl = st.zl
    for i in range(st.sv[s, SV_NDECK + li] - 1, 0, -1):
        j = below(st.states, 0, i + 1)
        t = zl[s, li, i]
        zl[s, li, i] = zl[s, li, j]
        zl[s, li, j] = t


@jit
def draw(st, s):
    if st.sv[s, SV_NDECK + L_DECK] == 0:
        return
    c = remove_at(st, s, L_DECK, st.sv[s, SV_NDECK + L_DECK] - 1)
    if st.sv[s, SV_NDECK + L_HAND] < st.rr[R_HAND_MAX]:
        push(st, s, L_HAND, c)
        st.seen[s, c] |= SEEN_DRAWN
    else:
        push(st, s, L_TRASH, c)


@jit_inline
def set_unit(u, card, active, entered, moved):
    u[U_CARD], u[U_ACTIVE], u[U_ENTERED], u[U_MOVED] = card, active, entered, moved


@jit
def pop_unit(units, n, i, out):
    """Row ``i`` of ``units`` (``n`` rows) into ``out`` (int64[U_N]), the rows after it moved up."""
    for k in range(U_N):
        out[k] = units[i, k]
    for r in range(i, n - 1):
        for k in range(U_N):
            units[r, k] = units[r + 1, k]


# ---- setup and the turn ---------------------------------------------------------------------------
@jit
def setup(st):
    rr, sv = st.rr, st.sv
    for s in range(2):
        shuffle(st, s, L_DECK)
        for _ in range(rr[R_OPENING]):
            draw_opening(st, s)
    back = stack_empty(MAX_DECK)
    for s in range(2):
        for _ in range(rr[R_MULLIGANS]):
            k = mulligan_choice(st, s, back)
            if k == 0:
                break
            for j in range(k):
                remove_at(st, s, L_HAND, index_of(st, s, L_HAND, back[j]))
                push(st, s, L_DECK, back[j])
            shuffle(st, s, L_DECK)
            for _ in range(k):
                draw_opening(st, s)
        sv[s, SV_RIGHTS] = 0


@jit_inline
def draw_opening(st, s):
    """The opening hand takes no notice of the hand limit (``Game.setup``)."""
    c = remove_at(st, s, L_DECK, st.sv[s, SV_NDECK + L_DECK] - 1)
    push(st, s, L_HAND, c)
    st.seen[s, c] |= SEEN_DRAWN


@jit
def mulligan_choice(st, s, back):
    """The hand cards ``s`` returns into ``back``; returns their count (``Game.mulligan_choice``)."""
    n = st.sv[s, SV_NDECK + L_HAND]
    k = 0
    if st.sid[s] == RANDOM:
        for i in range(n):
            c = st.zl[s, L_HAND, i]
            if below(st.states, 1 + s, 2) == 1:
                back[k] = c
                k += 1
        return k
    mana, cheap = 0, 0
    for i in range(n):
        c = st.zl[s, L_HAND, i]
        if st.cd[s, c, CF_KIND] == KIND_BASE:
            mana += 1
        elif st.cd[s, c, CF_KIND] == KIND_FIELD and st.cd[s, c, CF_COST] <= 3:
            cheap += 1
    if mana == 0 or mana >= 5 or cheap == 0:
        for i in range(n):
            back[i] = st.zl[s, L_HAND, i]
        return n
    return 0


@jit
def take_turn(st, s):
    rr, sv, gv = st.rr, st.sv, st.gv
    first = gv[G_TURN] == 1
    sv[s, SV_RIGHTS] = 0 if first and rr[R_FT_MOVE] == 0 else rr[R_MOVES]
    if force_up(st, s, PEGASUS) and sv[s, SV_NBASE] >= 4:
        sv[s, SV_RIGHTS] += 1
    for i in range(sv[s, SV_NFIELD]):
        st.fu[s, i, U_ACTIVE] = 1
    for i in range(sv[s, SV_NBASE]):
        st.bu[s, i, U_ACTIVE] = 1
    if not first or rr[R_FT_DRAW] != 0:
        if sv[s, SV_NDECK + L_DECK] == 0:
            game_over(st, 1 - s, END_DECK_OUT)
            return
        draw(st, s)
    mana_phase(st, s)
    main_phase(st, s)
    if gv[G_OVER]:
        return
    if force_up(st, s, PHOENIX):
        for i in range(sv[s, SV_NBASE]):
            st.bu[s, i, U_ACTIVE] = 1
    ouro = force_up(st, s, OUROBOROS)
    for i in range(sv[s, SV_NFIELD]):
        if ouro or has(st, s, st.fu[s, i, U_CARD], K_RESURGE):
            st.fu[s, i, U_ACTIVE] = 1
    sv[s, SV_RIGHTS] = 0


@jit_inline
def game_over(st, winner, end):
    st.gv[G_OVER], st.gv[G_WINNER], st.gv[G_END] = 1, winner, end


# ---- mana ----------------------------------------------------------------------------------------
@jit
def mana_phase(st, s):
    """Options: each base minion in hand (hand order), a colourless mana, nothing."""
    sv, rr = st.sv, st.rr
    cards = stack_empty(MAX_DECK)
    k = 0
    for i in range(sv[s, SV_NDECK + L_HAND]):
        c = st.zl[s, L_HAND, i]
        if st.cd[s, c, CF_KIND] == KIND_BASE:
            cards[k] = c
            k += 1
    n = k + 2
    if sv[s, SV_NBASE] >= rr[R_BASE_MAX]:
        default = n - 1
    elif k > 0:
        default, best = 0, -1
        for i in range(k):
            v = need_of(st, s, st.cd[s, cards[i], CF_COL], False)
            if v > best:
                default, best = i, v
    else:
        default = n - 2
    i = choose(st, s, n, default)
    if i == n - 1:
        return
    if i < k:
        remove_at(st, s, L_HAND, index_of(st, s, L_HAND, cards[i]))
        put_on_base(st, s, cards[i], rr[R_MANA_ACTIVE])
    else:
        put_on_base(st, s, TOKEN, rr[R_MANA_ACTIVE])


@jit
def put_on_base(st, s, card, active):
    if st.sv[s, SV_NBASE] >= st.rr[R_BASE_MAX]:
        discard_base(st, s)
    n = st.sv[s, SV_NBASE]
    set_unit(st.bu[s, n], card, active, st.gv[G_TURN], -1)
    st.sv[s, SV_NBASE] = n + 1


@jit
def discard_base(st, s):
    """Options: each base unit in base order; a card goes to the trash, a token leaves."""
    n = st.sv[s, SV_NBASE]
    default = -1
    for i in range(n):
        if st.bu[s, i, U_CARD] == TOKEN:
            default = i
            break
    if default < 0:
        best = -1
        for i in range(n):
            v = need_of(st, s, st.cd[s, st.bu[s, i, U_CARD], CF_COL], True)
            if best < 0 or v < best:
                default, best = i, v
    u = stack_empty(U_N)
    pop_unit(st.bu[s], n, choose(st, s, n, default), u)
    st.sv[s, SV_NBASE] = n - 1
    if u[U_CARD] != TOKEN:
        push(st, s, L_TRASH, u[U_CARD])


@jit
def can_pay(st, s, c):
    """``Game.payment(...) is not None``: enough active mana, and enough of it matches the
    card's colour part (Chimera: colourless mana too, for a field minion on its owner's turn)."""
    sv, bu = st.sv, st.bu
    cost, part, col = st.cd[s, c, CF_COST], st.cd[s, c, CF_PART], st.cd[s, c, CF_COL]
    chimera = st.cd[s, c, CF_KIND] == KIND_FIELD and s == st.gv[G_CURRENT] and force_up(st, s, CHIMERA)
    free, matching = 0, 0
    for i in range(sv[s, SV_NBASE]):
        if bu[s, i, U_ACTIVE]:
            free += 1
            m = unit_colours(st, s, bu[s, i, U_CARD])
            if (m & col & ~COLORLESS) != 0 or (chimera and m == COLORLESS):
                matching += 1
    return free >= cost and (part == 0 or matching >= part)


@jit
def pay(st, s, c):
    """Rest the units ``Game.payment`` chooses (``can_pay`` holds): the colour part from
    single-colour, then dual, then (Chimera) colourless mana; the free part colourless first,
    then single-colour mana by the hand's least need, then dual; base order within equals."""
    sv, bu = st.sv, st.bu
    cost, part, col = st.cd[s, c, CF_COST], st.cd[s, c, CF_PART], st.cd[s, c, CF_COL]
    n = sv[s, SV_NBASE]
    paid = 0
    if part > 0:
        chimera = st.cd[s, c, CF_KIND] == KIND_FIELD and s == st.gv[G_CURRENT] and force_up(st, s, CHIMERA)
        for rank in range(3):  # single, dual, colourless under Chimera
            for i in range(n):
                if paid == part:
                    break
                if bu[s, i, U_ACTIVE] == 0:
                    continue
                m = unit_colours(st, s, bu[s, i, U_CARD])
                single = (m & (m - 1)) == 0 and (m & col & ~COLORLESS) != 0
                dual = (m & (m - 1)) != 0 and (m & col & ~COLORLESS) != 0
                if (rank == 0 and single) or (rank == 1 and dual) or (rank == 2 and chimera and m == COLORLESS):
                    bu[s, i, U_ACTIVE] = 0
                    paid += 1
    keys = stack_empty(MAX_BASE)
    for i in range(n):
        keys[i] = -1
        if bu[s, i, U_ACTIVE]:
            m = unit_colours(st, s, bu[s, i, U_CARD])
            kind = 0 if m == COLORLESS else (2 if (m & (m - 1)) != 0 else 1)
            keys[i] = kind * 1000 + (need_of(st, s, m, True) if kind else 0)
    while paid < cost:  # the smallest key, the first in base order on a tie
        best = -1
        for i in range(n):
            if keys[i] >= 0 and (best < 0 or keys[i] < keys[best]):
                best = i
        bu[s, best, U_ACTIVE] = 0
        keys[best] = -1
        paid += 1


# ---- the main phase ----------------------------------------------------------------------------------
@jit
def summons(st, s, flash, out):
    """Hand cards ``s`` may summon now into ``out`` (hand order); returns the count."""
    k = 0
    for i in range(st.sv[s, SV_NDECK + L_HAND]):
        c = st.zl[s, L_HAND, i]
        if st.cd[s, c, CF_KIND] == KIND_FIELD and (not flash or has(st, s, c, K_SWOOP)) and can_pay(st, s, c):
            out[k] = c
            k += 1
    return k


@jit
def forces_standing(st, s):
    """Bits: 1 Force 0 stands, 2 Force 1 stands."""
    return (1 if st.sv[s, SV_FL0] > 0 else 0) | (2 if st.sv[s, SV_FL1] > 0 else 0)


@jit
def player_targetable(st, s, i):
    """``Game.targets``: whether field unit ``i`` of ``s`` may attack the player (-1: it may
    not attack at all this turn, the first player's first turn without first_turn_attack)."""
    rr, gv = st.rr, st.gv
    if gv[G_TURN] == 1 and rr[R_FT_ATTACK] == 0:
        return -1
    forces = forces_standing(st, 1 - s)
    c = st.fu[s, i, U_CARD]
    player = True
    if not has(st, s, c, K_CHARGE):
        if st.fu[s, i, U_ENTERED] == gv[G_TURN]:
            if rr[R_NEW_TARGETS] == NEW_FORCE_ONLY:
                player = False
            elif rr[R_NEW_TARGETS] == NEW_PLAYER_IF_NO_FORCE:
                player = forces == 0
        if st.cd[s, c, CF_KIND] == KIND_BASE and st.fu[s, i, U_MOVED] == gv[G_TURN] and rr[R_MOVED_TARGETS] == 0:
            player = player and forces == 0
    return 1 if player else 0


@jit_inline
def add(opt, n, kind, a, b):
    opt[n, 0], opt[n, 1], opt[n, 2] = kind, a, b
    return n + 1


@jit
def main_options(st, s):
    """``Game.main_options`` into ``opt``; returns the count."""
    sv, rr, opt = st.sv, st.rr, st.opt
    cards = stack_empty(MAX_DECK)
    n = 0
    for j in range(summons(st, s, False, cards)):
        n = add(opt, n, O_SUMMON, cards[j], 0)
    if sv[s, SV_RIGHTS] > 0:
        if sv[s, SV_NFIELD] < rr[R_FIELD_MAX]:
            for i in range(sv[s, SV_NBASE]):
                if movable(st, s, st.bu[s, i, U_CARD]):
                    n = add(opt, n, O_UP, i, 0)
        if sv[s, SV_NBASE] < rr[R_BASE_MAX]:
            for i in range(sv[s, SV_NFIELD]):
                if movable(st, s, st.fu[s, i, U_CARD]):
                    n = add(opt, n, O_DOWN, i, 0)
    forces = forces_standing(st, 1 - s)
    for i in range(sv[s, SV_NFIELD]):
        if st.fu[s, i, U_ACTIVE]:
            p = player_targetable(st, s, i)
            if p < 0:
                continue
            if p == 1:
                n = add(opt, n, O_ATTACK, i, PLAYER)
            for f in range(2):
                if forces & (1 << f):
                    n = add(opt, n, O_ATTACK, i, f)
    return add(opt, n, O_END, 0, 0)


@jit_inline
def movable(st, s, card):
    return card != TOKEN and not has(st, s, card, K_NO_MOVE)


@jit
def main_phase(st, s):
    opt = st.opt
    while True:
        n = main_options(st, s)
        i = choose(st, s, n, 0) if st.sid[s] == RANDOM else main_default(st, s, n)
        kind, a, b = opt[i, 0], opt[i, 1], opt[i, 2]
        if kind == O_END:
            return
        if kind == O_SUMMON:
            summon(st, s, a)
        elif kind == O_UP:
            move_up(st, s, a)
        elif kind == O_DOWN:
            move_down(st, s, a)
        else:
            attack(st, s, a, b)
            if st.gv[G_OVER]:
                return


@jit
def move_unit(st, s, src, n_src, dst, n_dst, i, moved):
    """Use a right to move: unit ``i`` of ``src`` (``sv[s, n_src]`` units) to the end of
    ``dst`` (``sv[s, n_dst]`` units), its moved-in turn set to ``moved`` (-1: kept)."""
    sv = st.sv
    sv[s, SV_RIGHTS] -= 1
    u = stack_empty(U_N)
    pop_unit(src, sv[s, n_src], i, u)
    sv[s, n_src] -= 1
    n = sv[s, n_dst]
    set_unit(dst[n], u[U_CARD], u[U_ACTIVE], u[U_ENTERED], u[U_MOVED] if moved < 0 else moved)
    sv[s, n_dst] = n + 1


@jit
def move_down(st, s, i):
    move_unit(st, s, st.fu[s], SV_NFIELD, st.bu[s], SV_NBASE, i, -1)


@jit
def move_up(st, s, i):
    """Base unit ``i`` to the field; Siren adds a rested colourless mana."""
    sv = st.sv
    move_unit(st, s, st.bu[s], SV_NBASE, st.fu[s], SV_NFIELD, i, st.gv[G_TURN])
    if force_up(st, s, SIREN):
        n = sv[s, SV_NBASE]
        set_unit(st.bu[s, n], TOKEN, 0, st.gv[G_TURN], -1)
        sv[s, SV_NBASE] = n + 1


@jit
def summon(st, s, c):
    """Pay and summon hand card ``c``; a full field first trashes one of its minions (a choice)."""
    sv = st.sv
    pay(st, s, c)
    remove_at(st, s, L_HAND, index_of(st, s, L_HAND, c))
    n = sv[s, SV_NFIELD]
    if n >= st.rr[R_FIELD_MAX]:
        weakest, kb, kd = 0, 1 << 40, 0
        for i in range(n):
            b, d = bp(st, s, st.fu[s, i, U_CARD]), dp(st, s, st.fu[s, i, U_CARD])
            if b < kb or (b == kb and d < kd):
                weakest, kb, kd = i, b, d
        u = stack_empty(U_N)
        pop_unit(st.fu[s], n, choose(st, s, n, weakest), u)
        push(st, s, L_TRASH, u[U_CARD])
        n -= 1
    set_unit(st.fu[s, n], c, st.rr[R_SUMMON_ACTIVE], st.gv[G_TURN], -1)
    sv[s, SV_NFIELD] = n + 1
    st.seen[s, c] |= SEEN_PLAYED


@jit
def can_block(st, d, blocker, active, a_side, a_card):
    """Card ``blocker`` of ``d`` (``active``) may block minion ``a_card`` of ``a_side``."""
    if active == 0 or has(st, d, blocker, K_NO_BLOCK):
        return False
    if has(st, a_side, a_card, K_INFILTRATE):
        return st.rr[R_INFILTRATE] == 0 and st.cd[d, blocker, CF_COST] == st.cd[a_side, a_card, CF_COST]
    return True


# ---- the evaluator's main-phase choice ---------------------------------------------------------------------
@jit
def main_default(st, s, n):
    opt, sv, wt = st.opt, st.sv, st.wt
    pick, best_cost, best_bp, best_pos = -1, -1, -1, 0
    if sv[s, SV_NFIELD] < st.rr[R_FIELD_MAX]:
        hold = wt[s, W_HOLD] >= 0.5
        min_swoop = -1
        if hold:
            for j in range(sv[s, SV_NDECK + L_HAND]):
                c = st.zl[s, L_HAND, j]
                if st.cd[s, c, CF_KIND] == KIND_FIELD and has(st, s, c, K_SWOOP):
                    if min_swoop < 0 or st.cd[s, c, CF_COST] < min_swoop:
                        min_swoop = st.cd[s, c, CF_COST]
        active = 0
        for j in range(sv[s, SV_NBASE]):
            active += st.bu[s, j, U_ACTIVE]
        for i in range(n):
            if opt[i, 0] != O_SUMMON:
                continue
            c = opt[i, 1]
            if min_swoop >= 0 and (has(st, s, c, K_SWOOP) or active - st.cd[s, c, CF_COST] < min_swoop):
                continue
            cost, b, pos = st.cd[s, c, CF_COST], st.cd[s, c, CF_BP], index_of(st, s, L_HAND, c)
            if cost > best_cost or (cost == best_cost and (b > best_bp or (b == best_bp and pos < best_pos))):
                pick, best_cost, best_bp, best_pos = i, cost, b, pos
    if pick >= 0:
        return pick
    for u in range(sv[s, SV_NFIELD]):
        first = -1
        for i in range(n):
            if opt[i, 0] == O_ATTACK and opt[i, 1] == u:
                first = i
                break
        if first >= 0 and attack_advised(st, s, u):
            t = target_pick(st, s, u, first, n)
            for i in range(first, n):
                if opt[i, 0] == O_ATTACK and opt[i, 1] == u and opt[i, 2] == t:
                    return i
    if wt[s, W_RAMP] >= 0.5:
        pick, kb = -1, 0
        for i in range(n):
            if opt[i, 0] == O_DOWN and st.fu[s, opt[i, 1], U_ACTIVE] == 0:
                b = bp(st, s, st.fu[s, opt[i, 1], U_CARD])
                if pick < 0 or b < kb:
                    pick, kb = i, b
        if pick >= 0:
            return pick
    return n - 1


@jit
def attack_advised(st, s, u):
    a = st.fu[s, u, U_CARD]
    d = 1 - s
    top, any_ = 0, False
    for j in range(st.sv[d, SV_NFIELD]):
        b = st.fu[d, j, U_CARD]
        if can_block(st, d, b, st.fu[d, j, U_ACTIVE], s, a):
            v = bp(st, d, b)
            if not any_ or v > top:
                top, any_ = v, True
    return not any_ or top - bp(st, s, a) <= st.wt[s, W_ATTACK]


@jit
def target_pick(st, s, u, first, n):
    """``Game.target_pick`` over unit ``u``'s attack options (rows from ``first``)."""
    opt, sv = st.opt, st.sv
    d = 1 - s
    amount = dp(st, s, st.fu[s, u, U_CARD])
    player, forces = False, 0
    for i in range(first, n):
        if opt[i, 0] == O_ATTACK and opt[i, 1] == u:
            if opt[i, 2] == PLAYER:
                player = True
            else:
                forces |= 1 << opt[i, 2]
    if player:
        if forces == 0 or player_damage(st, d, amount) >= sv[d, SV_LIFE]:
            return PLAYER
        a = st.wt[s, W_AGGR]
        if a >= 1.0 or (a > 0.0 and below(st.states, 1 + s, 1000) < st.milli[s]):
            return PLAYER
    kill, kill_life, low, low_life = -1, -1, -1, 0
    for f in range(2):
        if forces & (1 << f):
            life = sv[d, SV_FL0 + f]
            if life <= amount and life > kill_life:
                kill, kill_life = f, life
            if low < 0 or life < low_life:
                low, low_life = f, life
    return kill if kill >= 0 else low


# ---- an attack ------------------------------------------------------------------------------------------------
@jit
def field_index(st, s, card):
    for i in range(st.sv[s, SV_NFIELD]):
        if st.fu[s, i, U_CARD] == card:
            return i
    return -1


@jit
def attack(st, s, i, target):
    """Declare (rest the attacker), flash timing, block, resolve."""
    st.fu[s, i, U_ACTIVE] = 0
    a = st.fu[s, i, U_CARD]
    flash(st, s, a)
    if field_index(st, s, a) < 0:
        return
    b = block(st, 1 - s, s, a, target)
    resolve(st, s, a, target, b)


@jit
def flash(st, s, a):
    """Defender first, then alternately: a Swoop summon or a pass, until two passes in a row
    or the attacker leaves the field."""
    cards = stack_empty(MAX_DECK)
    q, passes = 1 - s, 0
    while passes < 2:
        k = summons(st, q, True, cards)
        default = k
        if q != s and st.sid[q] != RANDOM and st.sv[q, SV_NFIELD] < st.rr[R_FIELD_MAX]:
            a_bp, best = bp(st, s, a), -1
            for j in range(k):
                c = cards[j]
                if bp(st, q, c) > a_bp and can_block(st, q, c, 1, s, a) and (
                        best < 0 or st.cd[q, c, CF_COST] < best):
                    default, best = j, st.cd[q, c, CF_COST]
        j = choose(st, q, k + 1, default)
        if j == k:
            passes += 1
        else:
            passes = 0
            summon(st, q, cards[j])
            if field_index(st, s, a) < 0:
                return  # the attacker left the field (trashed for room): the flash timing stops at once
        q = 1 - q


@jit
def block(st, d, s, a, target):
    """Defender ``d`` rests a blocker (its card) or not (-1). Options: each eligible field
    unit (field order), no block."""
    cands = stack_empty(MAX_FIELD)
    k = 0
    for j in range(st.sv[d, SV_NFIELD]):
        if can_block(st, d, st.fu[d, j, U_CARD], st.fu[d, j, U_ACTIVE], s, a):
            cands[k] = j
            k += 1
    default = k
    if k > 0 and st.sid[d] != RANDOM:
        a_bp = bp(st, s, a)
        revenge = has(st, s, a, K_REVENGE)
        win, wc, wb, trade = -1, 0, 0, -1
        weak, weak_bp = -1, 0
        for j in range(k):
            c = st.fu[d, cands[j], U_CARD]
            b, cost = bp(st, d, c), st.cd[d, c, CF_COST]
            if b > a_bp and not revenge and (win < 0 or cost < wc or (cost == wc and b < wb)):
                win, wc, wb = j, cost, b
            if trade < 0 and b == a_bp and st.rr[R_TIE_BOTH] != 0 and cost <= st.cd[s, a, CF_COST]:
                trade = j
            if weak < 0 or b < weak_bp:
                weak, weak_bp = j, b
        damage = player_damage(st, d, dp(st, s, a)) if target == PLAYER else 0
        if win >= 0:
            default = win
        elif trade >= 0:
            default = trade
        elif target == PLAYER and damage > 0 and (damage >= st.sv[d, SV_LIFE] or damage >= st.wt[d, W_BLOCK]):
            default = weak
    j = choose(st, d, k + 1, default)
    if j == k:
        return -1
    st.fu[d, cands[j], U_ACTIVE] = 0
    return st.fu[d, cands[j], U_CARD]


@jit
def resolve(st, s, a, target, b):
    rr = st.rr
    d = 1 - s
    amount = dp(st, s, a)
    pierce = has(st, s, a, K_PIERCE) and rr[R_PIERCE] != PIERCE_OFF
    if b < 0:
        damage(st, s, target, amount, pierce)
        return
    a_bp, b_bp = bp(st, s, a), bp(st, d, b)
    tie = a_bp == b_bp and rr[R_TIE_BOTH] != 0
    a_dies = a_bp < b_bp or tie
    b_dies = b_bp < a_bp or tie or has(st, s, a, K_REVENGE)
    b_dp = dp(st, d, b)
    if a_dies:
        destroy(st, s, a)
    if b_dies:
        destroy(st, d, b)
    if pierce and b_dies and not a_dies:
        damage(st, s, target, max(0, amount - b_dp) if rr[R_PIERCE] == PIERCE_DIFF else amount, True)


@jit
def destroy(st, s, card):
    u = stack_empty(U_N)
    n = st.sv[s, SV_NFIELD]
    pop_unit(st.fu[s], n, field_index(st, s, card), u)
    st.sv[s, SV_NFIELD] = n - 1
    push(st, s, L_TRASH, card)


@jit
def damage(st, s, target, amount, pierce):
    """A minion of ``s`` deals ``amount`` DP damage to the other seat's ``target``."""
    sv = st.sv
    d = 1 - s
    if target == PLAYER:
        sv[d, SV_LIFE] -= player_damage(st, d, amount)
    else:
        life = sv[d, SV_FL0 + target]
        sv[d, SV_FL0 + target] = max(0, life - amount)
        if sv[d, SV_FL0 + target] == 0:
            force_destroyed(st, d)
        over = amount - life
        if over > 0 and (pierce or st.rr[R_OVERFLOW] != 0):
            sv[d, SV_LIFE] -= player_damage(st, d, over)
    if sv[d, SV_LIFE] <= 0:
        game_over(st, s, END_LIFE)


@jit
def force_destroyed(st, d):
    """The first base minion from the top of the deck onto the base, shuffle, draw 1."""
    for k in range(st.sv[d, SV_NDECK + L_DECK] - 1, -1, -1):
        c = st.zl[d, L_DECK, k]
        if st.cd[d, c, CF_KIND] == KIND_BASE:
            remove_at(st, d, L_DECK, k)
            put_on_base(st, d, c, st.rr[R_TUTOR_ACTIVE])
            break
    shuffle(st, d, L_DECK)
    draw(st, d)


# ---- a game and a chunk --------------------------------------------------------------------------------------
@jit
def play_game(st, lives, forces):
    """One game from the streams in ``st.states`` and the decks in ``st.cd`` (``sv`` deck
    counts set): ``forces`` int64[2, 2] Force codes, ``lives`` int64[10] each Force's life.
    Leaves the result in ``gv`` (winner -1 when capped) and ``sv``."""
    sv, gv, rr = st.sv, st.gv, st.rr
    for s in range(2):
        n = sv[s, SV_NDECK + L_DECK]
        sv[s, :] = 0
        sv[s, SV_NDECK + L_DECK] = n
        for k in range(n):
            st.zl[s, L_DECK, k] = k
            st.seen[s, k] = 0
        sv[s, SV_F0], sv[s, SV_F1] = forces[s, 0], forces[s, 1]
        sv[s, SV_FL0], sv[s, SV_FL1] = lives[forces[s, 0]], lives[forces[s, 1]]
        sv[s, SV_LIFE] = rr[R_TOTAL_LIFE] - sv[s, SV_FL0] - sv[s, SV_FL1]
    gv[:] = 0
    gv[G_WINNER] = -1
    setup(st)
    while True:
        gv[G_TURN] += 1
        if rr[R_TURN_CAP] > 0 and gv[G_TURN] > rr[R_TURN_CAP]:
            gv[G_TURN] -= 1
            gv[G_END] = END_CAPPED
            return
        assert gv[G_TURN] <= rr[R_TURN_BOUND]
        s = (gv[G_TURN] - 1) % 2
        gv[G_CURRENT] = s
        take_turn(st, s)
        if gv[G_OVER]:
            return


@jit
def count_cards(st, s, won, slots, stamp, marker, acc, card_stats):
    """Add seat ``s``'s game to ``card_stats`` int64[C, CS_N]: each card of its deck once
    (``slots`` int64[MAX_DECK]: the card index of each deck slot, -1 none), drawn or played if
    any copy was. ``marker``/``acc`` int64[C]: scratch, ``stamp`` unique to this seat-game."""
    for k in range(MAX_DECK):
        c = slots[k]
        if c < 0:
            continue
        if marker[c] != stamp:
            marker[c] = stamp
            acc[c] = 0
        acc[c] |= st.seen[s, k]
    for k in range(MAX_DECK):
        c = slots[k]
        if c < 0 or marker[c] != stamp:
            continue
        marker[c] = -stamp  # counted once
        card_stats[c, CS_IN_DECK] += 1
        card_stats[c, CS_IN_DECK_WON] += won
        if acc[c] & SEEN_DRAWN:
            card_stats[c, CS_DRAWN] += 1
            card_stats[c, CS_DRAWN_WON] += won
        if acc[c] & SEEN_PLAYED:
            card_stats[c, CS_PLAYED] += 1
            card_stats[c, CS_PLAYED_WON] += won


@jit_novec
def play_games(st, pool, sizes, n_drawn, given_deck, given_pair, mirror, pairs, lives, seed, games, winner, turns,
               end, life, destroyed, deck_of, pair_of, swap_seat, pool_swapped, card_of, card_stats):
    """Games ``games`` int64[n] of the run with ``seed``.

    pool int64[D, MAX_DECK, CF_N]: deck card rows (``sizes[d]`` rows each); seat s plays deck
    ``given_deck[s]``, or when that is -1 one of the first ``n_drawn`` drawn uniformly per game
    (with ``mirror``, seat 1 plays seat 0's draw); likewise Force pair ``given_pair[s]`` (an
    index into ``pairs`` int64[45, 2] of Force codes) or a uniform draw. The draws come from the
    game's side stream (``kit.SIDE_STREAM``), both seats' pairs first, then their decks, made
    whether used or not, so fixing one seat's side moves no other draw. ``lives`` int64[10]: each Force's life.
    Outputs per game: winner int64[n] (-1 capped), turns, end (END_*), life int64[n, 2],
    destroyed int64[n, 2] (each seat's own Forces destroyed), deck_of and pair_of int64[n, 2].

    Card strength: seat ``swap_seat`` (-1: none) loads its deck from ``pool_swapped`` (the same
    decks with one card swapped for a stand-in), all else equal. The cards table: with
    ``card_stats`` int64[C, CS_N] of C > 0 rows, each seat-game is counted there
    (``count_cards``; ``card_of`` int64[D, MAX_DECK] each slot's card index, -1 none)."""
    sk = seed_key(seed)
    forces = np.zeros((2, 2), np.int64)
    marker = np.zeros(card_stats.shape[0], np.int64)
    acc = np.zeros(card_stats.shape[0], np.int64)
    for i in range(games.shape[0]):
        gk = game_key(sk, np.uint64(games[i]))
        for k in range(3):
            st.states[k] = game_stream_key(gk, k)
        st.states[3] = game_stream_key(gk, SIDE_STREAM)
        for s in range(2):  # the Force pairs first: they do not depend on the deck pool
            p = below(st.states, 3, pairs.shape[0])
            pair_of[i, s] = given_pair[s] if given_pair[s] >= 0 else p
            forces[s, 0], forces[s, 1] = pairs[pair_of[i, s], 0], pairs[pair_of[i, s], 1]
        for s in range(2):
            d = below(st.states, 3, n_drawn) if n_drawn > 0 else 0
            if given_deck[s] >= 0:
                d = given_deck[s]
            elif mirror and s == 1:
                d = deck_of[i, 0]
            deck_of[i, s] = d
            if s == swap_seat:
                st.cd[s, :sizes[d], :] = pool_swapped[d, :sizes[d], :]
            else:
                st.cd[s, :sizes[d], :] = pool[d, :sizes[d], :]
            st.sv[s, SV_NDECK + L_DECK] = sizes[d]
        play_game(st, lives, forces)
        winner[i], turns[i], end[i] = st.gv[G_WINNER], st.gv[G_TURN], st.gv[G_END]
        for s in range(2):
            life[i, s] = st.sv[s, SV_LIFE]
            destroyed[i, s] = (1 if st.sv[s, SV_FL0] <= 0 else 0) + (1 if st.sv[s, SV_FL1] <= 0 else 0)
            if card_stats.shape[0] > 0:
                count_cards(st, s, 1 if winner[i] == s else 0, card_of[deck_of[i, s]], 2 * i + s + 1, marker, acc,
                            card_stats)
