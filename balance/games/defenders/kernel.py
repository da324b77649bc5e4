"""The Defenders of the Realm kernel: ``reference/game.py`` and ``reference/team.py`` in numba,
playing the same games from the same streams.

The state is one numpy record (``STATE``, fields below) passed to every function, as the other
kernels do (docs/ARCHITECTURE.md). Each function mirrors the reference method of the same
name; every list is built in the reference's order, so a ``random`` seat's draw picks the same
option and ``coordinated`` computes the same floats (sums in the same order, powers as
products). A loss or the last kill sets ``gv[G_OVER]`` (the reference raises ``GameOver``):
every caller of a function that can end the game returns at once when it is set.

Streams of game ``g`` (``balance.core.kit``): slot 0 chance, slot ``1 + seat`` the seat's
policy, ``SIDE_STREAM`` (slot 5 here) the team's heroes when drawn.
"""
import numpy as np

from balance.core._jit import drop_stale_cache, jit_inline, jit_novec, jit_widened as jit, stack_empty
from balance.core.kit import SIDE_STREAM, to_front
from balance.core.rng import below, game_key, game_stream_key, seed_key

drop_stale_cache(__file__)

N_LOC, MAX_DEG, N_CARDS, N_DARK, N_HEROES = 45, 6, 97, 56, 9
MAX_SEATS = 4
MAX_HAND = 128  # a hand never holds more than the deck
MAX_OPT = 8192  # day options (a hand of eagle cards times 44 destinations is the most)
MAX_DICE = 64
MAX_FACES = 2 * MAX_HAND  # a combat's dice: at most two a card
RING = MAX_DEG + 1  # Monarch City and its neighbours
# catalogue constants (catalogue.py; the tests check they agree)
RED, GREEN, BLACK, BLUE, ANY = 0, 1, 2, 3, 4
TO_HIT = (4, 3, 4, 5)
CITY, INN, GENERAL_START, NORMAL = range(4)
GATE_ICON, HORSE_ICON, EAGLE_ICON, NO_ICON = range(4)
(SP_MAGIC_GATE, SP_HAMMER, SP_PURITY, SP_ELVEN_ARCHERS, SP_BATTLE_STRATEGY, SP_ALL_QUIET, SP_BATTLE_LUCK,
 SP_BATTLE_FURY, SP_LOCAL_INFORMATION, SP_KINGS_GUARD, SP_CAVALRY_SWEEP, SP_DARK_VISIONS, SP_MILITIA,
 SP_STRONG_DEFENSES, SP_SPY) = range(15)
DK_REGULAR, DK_ALL_QUIET, DK_PATROL, DK_WAR_PARTY, DK_MONARCH = range(5)
NEXT_LOCATION = -2
PATH_STEPS = 4
PALADIN, CLERIC, WIZARD, SORCERESS, EAGLE_RIDER, DWARF, RANGER, ROGUE, DRUID = range(9)
NO_SHAPE = 4
EARLY, MID, LATE = range(3)
WON, GENERAL_IN_CITY, NO_MINIONS, NO_TAINT, CITY_OVERRUN, CAPPED = range(6)
(A_END, A_WALK, A_HORSE, A_NOBLE_STEED, A_EAGLE, A_EAGLE_FLIGHT, A_GATE_CARD, A_GATE_TO_GATE, A_TELEPORT,
 A_BUILD_GATE, A_RUMORS, A_HEAL_LAND, A_SANCTIFY, A_HEAL_WOUNDS, A_ENGAGE, A_ARCHERY, A_FIREBALL, A_ATTACK,
 A_SLAYER, A_SPECIAL) = range(20)
RANDOM = 0  # strategies.RANDOM; any other id is coordinated
# coordinated's weights wt[seat, W_*] (strategies.py)
W_ATTACK_MARGIN, W_HEAL_AT, W_OVERRUN, W_CITY, W_GENERAL, W_TAINT, W_DISTANCE, W_TRAVEL_SAVING, W_INN_BELOW, W_N = \
    range(10)
W_INN, W_HEAL = 3.0, 4.0  # team.py's constants

# the rules row rr[R_*] (``rules_row``): scalars, then to-hit and serious zone (4 each) and war cards (3)
(R_PLAYERS, R_MINIONS, R_CRYSTALS, R_GATES, R_CAP, R_CITY_LIMIT, R_DEMON_TAINT, R_LATE_AFTER, R_OVERRUN_ONCE,
 R_SUPPLY_ANY, R_PATROL_NO_ORC, R_WOUND_END_OF_TURN, R_GROUP_COMMITTED, R_PENALTY_SHARED, R_START_HAND,
 R_EVENING, R_HAND_LIMIT, R_RUMOR_ACTIONS, R_RUMOR_DRAW, R_SLAIN_REWARD, R_HEAL_ELSEWHERE, R_ONE_MISSES,
 R_TURN_CAP, R_POOL_N, R_START_TAINT, R_HEAL_WITH_MINIONS, R_FIREBALL_ACTION, R_WOUND_LIMITS, R_MONARCH_SPREAD,
 R_PARRY_OWN, R_AMBUSH_EVERY, R_UNDEAD_FEAR) = range(32)
R_TO_HIT, R_SERIOUS, R_WAR = 32, 36, 40
R_N = 43

# game values gv[G_*]
(G_TURN, G_ACTIVE, G_ACTIONS, G_RUMORS, G_TELEPORTED, G_AMBUSH_USED, G_ACTIVE_DEAD, G_OVER,
 G_GATES_LEFT, G_CRYSTALS_LEFT, G_HDN, G_HXN, G_DDN, G_DXN, G_COMBATS, G_KILLS, G_N) = range(17)
# generals gs[g, GS_*]
GS_STEP, GS_LIFE, GS_MAX, GS_SLAIN, GS_HEAL_FROM, GS_SKIP, GS_N = range(7)
GENERAL_LIFE = (6, 6, 5, 4)
# heroes of the seats hs[p, HS_*]
HS_HERO, HS_LOC, HS_HP, HS_SHAPE, HS_GROUND, HS_FRESH, HS_CHAMPION, HS_DEATHS, HS_NHAND, HS_N = range(10)
# hero-defeated penalties (catalogue.PENALTY_WOUNDS / PENALTY_CARDS): (fixed, die), fixed -1 = every card
PENALTY_WOUNDS = ((0, 3), (2, 0), (0, 6), (3, 0))
PENALTY_CARDS = ((-1, 0), (2, 0), (0, 6), (0, 6))
# the combat table of lone heroes: cmb[general, life - 1, cards1, cards2, modifier, rerolls, (combats, kills)];
# a group's combats: grp[general, heroes, (combats, kills)]
CMB_CARDS, CMB_MOD, CMB_REROLLS = 16, 2, 4

STATE_FIELDS = ("adj", "dist", "lcol", "lkind", "chest", "path", "hlife", "cloc", "ccol", "cicon", "cdice", "csp",
                "dk", "rr", "pool", "sid", "wt", "states", "gv", "mi", "tn", "gt", "sup", "gs", "hs", "hand", "slayer",
                "ever", "hd", "hx", "dd", "dx", "opt", "order", "cmb", "grp")


def state_dtype() -> np.dtype:
    i8, f8 = np.int64, np.float64
    shapes = {"adj": ((N_LOC, MAX_DEG), i8), "dist": ((N_LOC, N_LOC), i8), "lcol": ((N_LOC,), i8),
              "lkind": ((N_LOC,), i8), "chest": ((N_LOC,), i8), "path": ((4, PATH_STEPS + 1), i8),
              "hlife": ((N_HEROES,), i8), "cloc": ((N_CARDS,), i8), "ccol": ((N_CARDS,), i8),
              "cicon": ((N_CARDS,), i8), "cdice": ((N_CARDS,), i8), "csp": ((N_CARDS,), i8),
              "dk": ((N_DARK, 10), i8), "rr": ((R_N,), i8), "pool": ((N_HEROES,), i8), "sid": ((MAX_SEATS,), i8),
              "wt": ((MAX_SEATS, W_N), f8), "states": ((6,), np.uint64), "gv": ((G_N,), i8),
              "mi": ((N_LOC, 4), i8), "tn": ((N_LOC,), i8), "gt": ((N_LOC,), i8), "sup": ((4,), i8),
              "gs": ((4, GS_N), i8), "hs": ((MAX_SEATS, HS_N), i8), "hand": ((MAX_SEATS, MAX_HAND), i8),
              "slayer": ((MAX_SEATS, 4), i8), "ever": ((N_HEROES,), i8), "hd": ((N_CARDS,), i8),
              "hx": ((N_CARDS,), i8), "dd": ((N_DARK,), i8), "dx": ((N_DARK,), i8), "opt": ((MAX_OPT, 3), i8),
              "order": ((N_LOC,), i8),
              "cmb": ((4, 6, CMB_CARDS, CMB_CARDS, CMB_MOD, CMB_REROLLS, 2), i8), "grp": ((4, MAX_SEATS + 1, 2), i8)}
    return np.dtype([(f, shapes[f][1], shapes[f][0]) for f in STATE_FIELDS])


STATE = state_dtype()


def rules_row(rules) -> np.ndarray:
    """The kernel's rules row ``rr`` (``R_*``) of a ``rules.Rules``."""
    r = rules
    row = [r.players, r.minions_per_colour, r.taint_crystals, r.gate_tokens, r.location_cap, r.monarch_city_limit,
           r.demon_taint_at, r.late_war_after, int(r.overrun_per_instruction), int(r.supply_loss_scope == "any"),
           int(r.orc_patrol_target == "no_orc"), int(r.wound_check == "end_of_turn"),
           int(r.group_scope == "committed"), int(r.penalty_roll == "shared"), r.start_hand, r.evening_draw,
           r.hand_limit, r.rumor_actions, r.rumor_draw, r.slain_reward_cards, r.heal_elsewhere,
           int(r.natural_one_misses), r.turn_cap, len(r.pool), r.start_taint, int(r.heal_land_with_minions),
           int(r.fireball_action), int(r.wound_limits_actions), int(r.monarch_card == "spread"),
           int(r.parry_scope == "own"), int(r.ambush_scope == "every"), int(r.undead_form_fear)]
    row += list(r.general_to_hit) + list(r.serious_zone) + list(r.war_cards)
    assert len(row) == R_N
    return np.array(row, np.int64)


def new_state(rules, strategies) -> np.ndarray:
    """A one-element array of ``STATE`` for games under ``rules`` with ``strategies`` (one
    ``Strategy`` per seat); the kernel's state is its element ``[0]``."""
    from .catalogue import catalogue
    c = catalogue()
    box = np.zeros(1, STATE)
    st = box[0]
    for name, value in (("adj", c.adjacency), ("dist", c.distance), ("lcol", c.colour), ("lkind", c.kind),
                        ("chest", c.chest.astype(np.int64)), ("path", c.path), ("hlife", c.hero_life),
                        ("cloc", c.card_location), ("ccol", c.card_colour), ("cicon", c.card_icon),
                        ("cdice", c.card_dice), ("csp", c.card_special), ("dk", c.darkness)):
        st[name][...] = value
    st["rr"][:] = rules_row(rules)
    st["pool"][:len(rules.pool)] = rules.pool
    for s, strategy in enumerate(strategies):
        st["sid"][s] = strategy.info.id
        if strategy.info.params:
            st["wt"][s, :len(strategy.values)] = strategy.values
    return box


# ---- chance and decks ----------------------------------------------------------------------------
@jit_inline
def die(st):
    return 1 + below(st.states, 0, 6)


@jit
def shuffle(st, deck, n):
    """Fisher-Yates on ``deck[:n]`` (the hero or Darkness deck) from the chance stream."""
    for i in range(n - 1, 0, -1):
        j = below(st.states, 0, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@jit
def draw(st, deck, discard, top, pile):
    """The top card of ``deck`` (its count in ``gv[top]``), -1 when it and ``discard`` (count
    ``gv[pile]``) are both empty; an empty deck is refilled from its shuffled discard."""
    gv = st.gv
    if gv[top] == 0:
        if gv[pile] == 0:
            return -1
        for i in range(gv[pile]):
            deck[i] = discard[i]
        gv[top], gv[pile] = gv[pile], 0
        shuffle(st, deck, gv[top])
    gv[top] -= 1
    return deck[gv[top]]


@jit_inline
def draw_hero_card(st):
    return draw(st, st.hd, st.hx, G_HDN, G_HXN)


@jit_inline
def draw_darkness(st):
    return draw(st, st.dd, st.dx, G_DDN, G_DXN)


@jit_inline
def to_discard(st, card):
    st.hx[st.gv[G_HXN]] = card
    st.gv[G_HXN] += 1


@jit_inline
def hand_push(st, p, card):
    st.hand[p, st.hs[p, HS_NHAND]] = card
    st.hs[p, HS_NHAND] += 1


@jit
def hand_pop(st, p, i):
    """Remove and return the card at hand position ``i`` (the others keep their order)."""
    n = st.hs[p, HS_NHAND]
    card = st.hand[p, i]
    for j in range(i, n - 1):
        st.hand[p, j] = st.hand[p, j + 1]
    st.hs[p, HS_NHAND] = n - 1
    return card


@jit
def hand_remove(st, p, card):
    for i in range(st.hs[p, HS_NHAND]):
        if st.hand[p, i] == card:
            hand_pop(st, p, i)
            return


@jit
def holds(st, p, sp):
    """The first card of special ``sp`` in seat ``p``'s hand, or -1."""
    for i in range(st.hs[p, HS_NHAND]):
        if st.csp[st.hand[p, i]] == sp:
            return st.hand[p, i]
    return -1


@jit
def give(st, p, k):
    for _ in range(k):
        card = draw_hero_card(st)
        if card >= 0:
            hand_push(st, p, card)


@jit
def discard_at(st, p, i):
    to_discard(st, hand_pop(st, p, i))


@jit
def spend(st, p, card):
    hand_remove(st, p, card)
    to_discard(st, card)


@jit_inline
def dark_discard(st, card):
    st.dx[st.gv[G_DXN]] = card
    st.gv[G_DXN] += 1


# ---- the board -----------------------------------------------------------------------------------
@jit_inline
def total(st, v):
    return st.mi[v, 0] + st.mi[v, 1] + st.mi[v, 2] + st.mi[v, 3]


@jit
def board_total(st):
    t = 0
    for v in range(N_LOC):
        t += total(st, v)
    return t


@jit
def general_at(st, v):
    """The living general standing at ``v`` (the lowest index), or -1."""
    for g in range(4):
        if st.gs[g, GS_SLAIN] == 0 and st.path[g, st.gs[g, GS_STEP]] == v:
            return g
    return -1


@jit_inline
def ended(st):
    return st.gv[G_OVER] >= 0


@jit
def add_crystal(st, v):
    st.tn[v] += 1
    st.gv[G_CRYSTALS_LEFT] -= 1
    if st.gv[G_CRYSTALS_LEFT] <= 0:
        st.gv[G_OVER] = NO_TAINT


@jit
def add_minion(st, col, v):
    st.mi[v, col] += 1
    st.sup[col] -= 1
    if col == RED and st.mi[v, RED] == st.rr[R_DEMON_TAINT]:
        add_crystal(st, v)


@jit
def add_to_city(st, col, monarch):
    st.mi[monarch, col] += 1
    st.sup[col] -= 1
    if total(st, monarch) >= st.rr[R_CITY_LIMIT]:
        st.gv[G_OVER] = CITY_OVERRUN


@jit
def arrive(st, col, v, monarch):
    """``State.arrive``: one minion onto ``v`` if it has room (the city always has): True."""
    if v == monarch:
        add_to_city(st, col, monarch)
    elif total(st, v) < st.rr[R_CAP]:
        add_minion(st, col, v)
    else:
        return False
    return True


@jit
def overrun(st, col, v, monarch):
    for j in range(MAX_DEG):
        u = st.adj[v, j]
        if u < 0:
            break
        if st.lkind[u] == INN:
            continue
        if st.sup[col] == 0:
            if st.rr[R_SUPPLY_ANY]:
                st.gv[G_OVER] = NO_MINIONS
                return
            continue
        if not arrive(st, col, u, monarch):
            add_crystal(st, u)
        if ended(st):
            return


@jit
def place(st, col, n, v, direct, monarch):
    """A Darkness instruction: ``n`` minions of ``col`` onto ``v`` (``State.place``)."""
    if st.lkind[v] == INN:
        return
    for _ in range(n):
        if st.sup[col] == 0:
            if direct or st.rr[R_SUPPLY_ANY]:
                st.gv[G_OVER] = NO_MINIONS
                return
            continue
        if not arrive(st, col, v, monarch):
            add_crystal(st, v)
            if ended(st):
                return
            overrun(st, col, v, monarch)
            if ended(st) or st.rr[R_OVERRUN_ONCE]:
                return
        if ended(st):
            return


@jit_inline
def remove(st, v, col, k):
    st.mi[v, col] -= k
    st.sup[col] += k


@jit
def clear(st, v):
    for col in range(4):
        remove(st, v, col, st.mi[v, col])


@jit
def slain_count(st):
    return st.gs[0, GS_SLAIN] + st.gs[1, GS_SLAIN] + st.gs[2, GS_SLAIN] + st.gs[3, GS_SLAIN]


@jit
def war_status(st):
    dead = slain_count(st)
    if dead == 0:
        return EARLY
    return LATE if dead >= st.rr[R_LATE_AFTER] else MID


@jit
def moves_general(st, card):
    """Whether the card's general line would move its general now."""
    g, target = st.dk[card, 7], st.dk[card, 8]
    if g < 0 or st.gs[g, GS_SLAIN] or st.gs[g, GS_LIFE] <= st.rr[R_SERIOUS + g]:
        return False
    return target == NEXT_LOCATION or target == st.path[g, st.gs[g, GS_STEP] + 1]


@jit
def general_line(st, card, monarch):
    if not moves_general(st, card):
        return
    g, k = st.dk[card, 7], st.dk[card, 9]
    st.gs[g, GS_STEP] += 1
    if st.gs[g, GS_STEP] == PATH_STEPS:
        st.gv[G_OVER] = GENERAL_IN_CITY
        return
    place(st, g, k, st.path[g, st.gs[g, GS_STEP]], True, monarch)


@jit_inline
def threat_before(st, a, b, monarch):
    """Location ``a`` comes before ``b`` in threat order (more minions, then nearer the city)."""
    ta, tb = total(st, a), total(st, b)
    if ta != tb:
        return ta > tb
    return st.dist[monarch, a] < st.dist[monarch, b]


@jit
def threat_order(st, monarch):
    """Every location by minions (most first), then nearer Monarch City, then index, into
    ``st.order`` (``State.threat_order``: a stable sort keeps the index order on a tie)."""
    out = st.order
    for v in range(N_LOC):
        out[v] = v
    for i in range(1, N_LOC):
        v = out[i]
        j = i - 1
        while j >= 0 and threat_before(st, v, out[j], monarch):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v


# ---- setup ----------------------------------------------------------------------------------------
@jit
def setup(st, n, monarch):
    rr, gv = st.rr, st.gv
    shuffle(st, st.hd, gv[G_HDN])
    for p in range(n):
        give(st, p, rr[R_START_HAND])
    for g in range(4):
        start = st.path[g, 0]
        st.mi[start, g] += 3
        st.sup[g] -= 3
    st.tn[st.path[RED, 0]] += rr[R_START_TAINT]
    gv[G_CRYSTALS_LEFT] -= rr[R_START_TAINT]
    shuffle(st, st.dd, gv[G_DDN])
    chosen = stack_empty(N_LOC)
    for v in range(N_LOC):
        chosen[v] = 0
    taken = 0
    while taken < 3 and gv[G_DDN] > 0:  # round A: 2 minions on 6 empty, distinct locations
        gv[G_DDN] -= 1
        card = st.dd[gv[G_DDN]]
        if st.dk[card, 0] != DK_REGULAR:
            continue
        l1, l2 = st.dk[card, 3], st.dk[card, 6]
        if l1 == l2 or chosen[l1] or chosen[l2] or total(st, l1) or total(st, l2):
            continue
        for line in range(2):
            col, v = st.dk[card, 1 + 3 * line], st.dk[card, 3 + 3 * line]
            chosen[v] = 1
            st.mi[v, col] += 2
            st.sup[col] -= 2
        taken += 1
    taken = 0
    while taken < 3 and gv[G_DDN] > 0:  # round B: 1 minion each, none to 4
        gv[G_DDN] -= 1
        card = st.dd[gv[G_DDN]]
        if st.dk[card, 0] != DK_REGULAR:
            continue
        l1, l2 = st.dk[card, 3], st.dk[card, 6]
        same = 1 if l1 == l2 else 0
        if total(st, l1) + 1 + same > rr[R_CAP] or total(st, l2) + 1 + same > rr[R_CAP]:
            continue
        for line in range(2):
            col, v = st.dk[card, 1 + 3 * line], st.dk[card, 3 + 3 * line]
            st.mi[v, col] += 1
            st.sup[col] -= 1
            if col == RED and st.mi[v, RED] == rr[R_DEMON_TAINT]:
                st.tn[v] += 1
                gv[G_CRYSTALS_LEFT] -= 1
        taken += 1
    for i in range(N_DARK):
        st.dd[i] = i
    gv[G_DDN], gv[G_DXN] = N_DARK, 0
    shuffle(st, st.dd, N_DARK)


# ---- heroes ---------------------------------------------------------------------------------------
@jit_inline
def max_hp(st, p):
    return st.hlife[st.hs[p, HS_HERO]]


@jit
def held_by_another(st, h, p):
    """Another seat than ``p`` plays hero ``h``."""
    for q in range(st.rr[R_PLAYERS]):
        if q != p and st.hs[q, HS_HERO] == h:
            return True
    return False


@jit
def die_hero(st, p, monarch):
    """The hero leaves; its cards are discarded; its player takes a new hero in Monarch City."""
    hs, rr = st.hs, st.rr
    hs[p, HS_DEATHS] += 1
    while hs[p, HS_NHAND] > 0:
        discard_at(st, p, 0)
    options = stack_empty(N_HEROES)
    k = 0
    for i in range(rr[R_POOL_N]):
        h = st.pool[i]
        if not held_by_another(st, h, p) and st.ever[h] == 0:
            options[k] = h
            k += 1
    if k == 0:
        for i in range(rr[R_POOL_N]):
            h = st.pool[i]
            if not held_by_another(st, h, p):  # a dead one, the hero that just died among them
                options[k] = h
                k += 1
    new = options[below(st.states, 0, k)] if k > 1 else options[0]
    hs[p, HS_HERO] = new
    st.ever[new] = 1
    hs[p, HS_LOC] = monarch
    hs[p, HS_HP] = max_hp(st, p)
    hs[p, HS_SHAPE], hs[p, HS_GROUND], hs[p, HS_FRESH] = NO_SHAPE, 0, 0
    give(st, p, rr[R_START_HAND])
    if p == st.gv[G_ACTIVE]:
        st.gv[G_ACTIONS] = 0
        st.gv[G_ACTIVE_DEAD] = 1


@jit
def wound(st, p, w, monarch):
    if w <= 0:
        return
    st.hs[p, HS_HP] -= w
    if p == st.gv[G_ACTIVE] and st.rr[R_WOUND_LIMITS]:
        st.gv[G_ACTIONS] = min(st.gv[G_ACTIONS], max(st.hs[p, HS_HP], 0))
    if st.hs[p, HS_HP] <= 0:
        die_hero(st, p, monarch)


@jit
def end_of_day_wounds(st, p):
    v, h, shape = st.hs[p, HS_LOC], st.hs[p, HS_HERO], st.hs[p, HS_SHAPE]
    if total(st, v) == 0 or (h == EAGLE_RIDER and st.hs[p, HS_GROUND] == 0):
        return 0
    w = 0
    if h != ROGUE:
        for col in range(4):
            if not (h == SORCERESS and shape == col):
                w += st.mi[v, col]
    undead_form = h == SORCERESS and shape == BLACK and st.rr[R_UNDEAD_FEAR] == 0
    if st.mi[v, BLACK] and h != PALADIN and not undead_form:
        w += 1
    if h == PALADIN or h == DWARF:
        w -= 1
    return max(w, 0)


@jit
def turn_undead(st, p):
    here = st.hs[p, HS_LOC]
    while st.mi[here, BLACK]:
        best = -1
        for j in range(MAX_DEG):
            u = st.adj[here, j]
            if u < 0:
                break
            if st.lkind[u] == INN or st.lkind[u] == CITY or total(st, u) >= st.rr[R_CAP]:
                continue
            if best < 0 or total(st, u) < total(st, best):
                best = u
        if best < 0:
            return
        st.mi[here, BLACK] -= 1
        st.mi[best, BLACK] += 1


# ---- dice -----------------------------------------------------------------------------------------
@jit_inline
def hits(st, face, modifier, to_hit):
    if face == 1 and st.rr[R_ONE_MISSES]:
        return False
    return face + modifier >= to_hit


@jit
def engage(st, p, v, archery):
    """One die per minion at ``v`` (colour order), rerolls as the hero allows; each hit removes
    its minion (``State.engage``)."""
    h, shape = st.hs[p, HS_HERO], st.hs[p, HS_SHAPE]
    cols = stack_empty(MAX_DICE)
    mods = stack_empty(MAX_DICE)
    faces = stack_empty(MAX_DICE)
    n = 0
    present = False
    for col in range(4):
        for _ in range(st.mi[v, col]):
            cols[n] = col
            n += 1
        if col == shape and st.mi[v, col] > 0:
            present = True
    ambush = h == SORCERESS and ambush_ready(st) and present
    green_here = st.lcol[st.hs[p, HS_LOC]] == GREEN
    for i in range(n):
        col = cols[i]
        m = 0
        if h == CLERIC and (col == RED or col == BLACK):
            m += 1
        if h == RANGER and not archery and green_here:
            m += 1
        if ambush and col == shape:
            m += 2
        mods[i] = m
    if ambush:
        st.gv[G_AMBUSH_USED] = 1
    for i in range(n):
        faces[i] = die(st)
    if h == EAGLE_RIDER and st.hs[p, HS_GROUND]:
        for i in range(n):
            if not hits(st, faces[i], mods[i], TO_HIT[cols[i]]):
                faces[i] = die(st)
    if h == DWARF:
        for i in range(n):
            if cols[i] == BLUE and not hits(st, faces[i], mods[i], TO_HIT[cols[i]]):
                faces[i] = die(st)
    for i in range(n):
        if hits(st, faces[i], mods[i], TO_HIT[cols[i]]):
            remove(st, v, cols[i], 1)


@jit_inline
def ambush_ready(st):
    """``State.ambush_ready``: her first attack this turn, or every one."""
    return st.rr[R_AMBUSH_EVERY] == 1 or st.gv[G_AMBUSH_USED] == 0


@jit
def fireball(st, v):
    cols = stack_empty(MAX_DICE)
    faces = stack_empty(MAX_DICE)
    n = 0
    for col in range(4):
        for _ in range(st.mi[v, col]):
            cols[n] = col
            n += 1
    for i in range(n):
        faces[i] = die(st)
    for i in range(n):
        if faces[i] >= 2:
            remove(st, v, cols[i], 1)


@jit
def heal_land(st, v, dice):
    best = 0
    for _ in range(dice):
        best = max(best, die(st))
    if best >= 5 and st.tn[v] > 0:
        st.tn[v] -= 1
        st.gv[G_CRYSTALS_LEFT] += 1


@jit_inline
def roll_d(st, sides):
    face = die(st)
    return (face + 1) // 2 if sides == 3 else face


# ---- combat with a general -----------------------------------------------------------------------
@jit
def attack_general(st, g, monarch):
    """``State.attack_general``: commitments, curse, rolls in participant order, parry pool,
    the slayer's reward, or regeneration, the healing clock and the penalty."""
    rr, gv, hs = st.rr, st.gv, st.hs
    s, n = gv[G_ACTIVE], rr[R_PLAYERS]
    v = hs[s, HS_LOC]
    parts = stack_empty(MAX_SEATS)
    ncommit = stack_empty(MAX_SEATS)
    lucks = stack_empty(MAX_SEATS)
    commits = stack_empty((MAX_SEATS, MAX_HAND))
    eligible = stack_empty(MAX_HAND)
    k_parts = 0
    for k in range(n):
        p = (s + k) % n
        if k > 0 and hs[p, HS_LOC] != v:
            continue
        ne = 0
        for i in range(hs[p, HS_NHAND]):
            card = st.hand[p, i]
            if st.ccol[card] == g or st.ccol[card] == ANY:
                eligible[ne] = card
                ne += 1
        nc = 0
        if ne > 0:
            nc = commit(st, p, eligible, ne, commits, k_parts)
        if p != s and rr[R_GROUP_COMMITTED] and nc == 0:
            continue
        for i in range(nc):
            hand_remove(st, p, commits[k_parts, i])
        luck = -1
        if g != BLACK:
            held = holds(st, p, SP_BATTLE_LUCK)
            if held >= 0 and battle_luck(st, p):
                luck = held
                hand_remove(st, p, luck)
        parts[k_parts] = p
        ncommit[k_parts] = nc
        lucks[k_parts] = luck
        k_parts += 1
    life0 = st.gs[g, GS_LIFE]
    dice = stack_empty(MAX_SEATS)
    for i in range(k_parts):
        d = 0
        for j in range(ncommit[i]):
            if g == RED and die(st) == 1:
                continue
            d += st.cdice[commits[i, j]]
        dice[i] = d
    to_hit = rr[R_TO_HIT + g]
    pool = 0
    killer = -1
    mod0, passes0 = 0, 0
    faces = stack_empty(MAX_FACES)
    for i in range(k_parts):
        if 0 < i < k_parts - 1 and st.gs[g, GS_SLAIN] == 0:  # two or more still to roll
            next_roller(st, s, i, k_parts, parts, ncommit, lucks, dice, commits)
        p = parts[i]
        h = hs[p, HS_HERO]
        m = 0
        if h == RANGER and st.lcol[v] == GREEN:
            m += 1
        if h == SORCERESS and p == s and hs[p, HS_SHAPE] == g and ambush_ready(st):
            m += 1
            gv[G_AMBUSH_USED] = 1
        passes = 0
        if g != BLACK:
            passes = ((1 if h == EAGLE_RIDER and hs[p, HS_GROUND] else 0) + (1 if h == DWARF and g == BLUE else 0)
                      + (1 if lucks[i] >= 0 else 0))
        if i == 0:
            mod0, passes0 = m, passes
        if st.gs[g, GS_SLAIN]:
            continue
        nd = dice[i]
        for j in range(nd):
            faces[j] = die(st)
        for _ in range(passes):
            for j in range(nd):
                if not hits(st, faces[j], m, to_hit):
                    faces[j] = die(st)
        hit = 0
        ones = 0
        for j in range(nd):
            if hits(st, faces[j], m, to_hit):
                hit += 1
            if faces[j] == 1:
                ones += 1
        if g == GREEN:
            if st.rr[R_PARRY_OWN]:
                pool = 0  # a participant's 1s cancel its own hits only
            pool += ones
            cancel = min(pool, hit)
            pool -= cancel
            hit -= cancel
        if hit:
            st.gs[g, GS_LIFE] = max(0, st.gs[g, GS_LIFE] - hit)
            if st.gs[g, GS_LIFE] == 0:
                st.gs[g, GS_SLAIN] = 1
                killer = p
    slain = st.gs[g, GS_SLAIN]
    cards1, cards_all = 0, 0
    for i in range(k_parts):
        for j in range(ncommit[i]):
            cards_all += 1
            if st.cdice[commits[i, j]] == 1:
                cards1 += 1
    cards2 = cards_all - cards1
    gv[G_COMBATS] += 1
    gv[G_KILLS] += slain
    if k_parts == 1:
        if cards1 < CMB_CARDS and cards2 < CMB_CARDS and mod0 < CMB_MOD and passes0 < CMB_REROLLS:
            st.cmb[g, life0 - 1, cards1, cards2, mod0, passes0, 0] += 1
            st.cmb[g, life0 - 1, cards1, cards2, mod0, passes0, 1] += slain
    else:
        st.grp[g, k_parts, 0] += 1
        st.grp[g, k_parts, 1] += slain
    for i in range(k_parts):  # committed cards go to the discard, used or not
        for j in range(ncommit[i]):
            to_discard(st, commits[i, j])
        if lucks[i] >= 0:
            to_discard(st, lucks[i])
    if slain:
        hs[killer, HS_CHAMPION] += 1
        st.slayer[killer, g] = 1
        st.gs[g, GS_HEAL_FROM] = -1
        for i in range(k_parts):
            give(st, parts[i], rr[R_SLAIN_REWARD])
        if slain_count(st) == 4:
            gv[G_OVER] = WON
        return
    if g == BLUE:
        st.gs[g, GS_LIFE] = st.gs[g, GS_MAX]
        st.gs[g, GS_HEAL_FROM] = -1
    elif st.gs[g, GS_LIFE] < st.gs[g, GS_MAX]:
        serious = st.gs[g, GS_LIFE] <= rr[R_SERIOUS + g]
        st.gs[g, GS_HEAL_FROM] = gv[G_TURN] + (n if serious else 1)
    penalty(st, g, parts, k_parts, monarch)


@jit
def next_roller(st, s, i, k_parts, parts, ncommit, lucks, dice, commits):
    """``State._next_roller``: the active seat ``s`` picks who of ``parts[i:k_parts]`` rolls
    next (random: uniform; coordinated: seat order, the first); the pick moves to place ``i``
    of every participant's array, the others keep their order."""
    j = i + (pick(st, s, k_parts - i) if st.sid[s] == RANDOM else 0)
    if j == i:
        return
    width = 0  # the commitments' rows, as far as any is filled
    for u in range(i, j + 1):
        width = max(width, ncommit[u])
    for t in range(width):
        to_front(commits[:, t], j, i)
    to_front(ncommit, j, i)
    to_front(parts, j, i)
    to_front(lucks, j, i)
    to_front(dice, j, i)


@jit
def penalty(st, g, parts, k_parts, monarch):
    """Each participant of a failed combat: wounds and lost cards, then to Monarch City."""
    hs = st.hs
    fixed_w, die_w = PENALTY_WOUNDS[g]
    fixed_c, die_c = PENALTY_CARDS[g]
    shared = st.rr[R_PENALTY_SHARED]
    rolled = False
    w, k = 0, 0
    for i in range(k_parts):
        p = parts[i]
        h = hs[p, HS_HERO]
        if h == EAGLE_RIDER and hs[p, HS_GROUND] == 0:
            hs[p, HS_LOC] = monarch
            continue
        if not rolled or not shared:
            w = fixed_w + (roll_d(st, die_w) if die_w else 0)
            k = fixed_c + (roll_d(st, die_c) if die_c else 0)
            rolled = True
        wp = max(0, w - 1) if h == PALADIN or h == DWARF else w
        if k < 0:
            while hs[p, HS_NHAND] > 0:
                discard_at(st, p, 0)
        else:
            for _ in range(min(k, hs[p, HS_NHAND])):
                discard_at(st, p, below(st.states, 0, hs[p, HS_NHAND]))
        hs[p, HS_LOC] = monarch
        wound(st, p, wp, monarch)


# ---- the policies: the small decisions ------------------------------------------------------------
@jit_inline
def pick(st, p, n):
    return below(st.states, 1 + p, n) if n > 1 else 0


@jit_inline
def coin(st, p):
    return below(st.states, 1 + p, 2) == 1


@jit
def commit(st, p, eligible, ne, commits, row):
    """The cards seat ``p`` commits, into ``commits[row]``; returns their count."""
    nc = 0
    for i in range(ne):
        card = eligible[i]
        if st.sid[p] == RANDOM:
            if not coin(st, p):
                continue
        elif st.csp[card] == SP_BATTLE_LUCK:
            continue
        commits[row, nc] = card
        nc += 1
    return nc


@jit
def battle_luck(st, p):
    return coin(st, p) if st.sid[p] == RANDOM else True


@jit
def discard_choice(st, p):
    """The hand position seat ``p`` discards to the hand limit (``Coordinated.discard``)."""
    n = st.hs[p, HS_NHAND]
    if st.sid[p] == RANDOM:
        return pick(st, p, n)
    best, best_keep = 0, 0
    tg = target_general(st)
    for i in range(n):
        card = st.hand[p, i]
        colour = st.ccol[card]
        keep = st.cdice[card]
        if colour == ANY or st.gs[colour, GS_SLAIN] == 0:
            keep += 2
        if st.csp[card] >= 0:
            keep += 3
        if colour == tg:
            keep += 3
        if i == 0 or keep < best_keep:
            best, best_keep = i, keep
    return best


@jit
def choose_shape(st, p):
    if st.sid[p] == RANDOM:
        return pick(st, p, 5)
    if st.hs[p, HS_HP] <= st.wt[p, W_HEAL_AT]:
        return NO_SHAPE
    here = st.hs[p, HS_LOC]
    best, best_n = NO_SHAPE, 0
    for col in range(4):
        count = st.mi[here, col]
        for j in range(MAX_DEG):
            u = st.adj[here, j]
            if u >= 0:
                count += st.mi[u, col]
        if count > 0 and (best == NO_SHAPE or count > best_n):
            best, best_n = col, count
    return best


@jit
def choose_ground(st, p):
    if st.sid[p] == RANDOM:
        return 1 if coin(st, p) else 0
    here = st.hs[p, HS_LOC]
    for g in range(4):
        if st.gs[g, GS_SLAIN] == 0 and st.dist[here, st.path[g, st.gs[g, GS_STEP]]] <= 2:
            return 1
    return 0


@jit
def wants_all_is_quiet(st, p, monarch):
    if st.sid[p] == RANDOM:
        return coin(st, p)
    for g in range(4):
        if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_LIFE] > st.rr[R_SERIOUS + g] and st.gs[g, GS_STEP] == 3:
            return True
    return total(st, monarch) >= st.rr[R_CITY_LIMIT] - 2 or st.gv[G_CRYSTALS_LEFT] <= 2


@jit
def wants_militia(st, p, card, line, monarch):
    if st.sid[p] == RANDOM:
        return coin(st, p)
    kind = st.dk[card, 0]
    if kind == DK_REGULAR:
        n, v = st.dk[card, 3 * line - 1], st.dk[card, 3 * line]
        return v == monarch or (st.lkind[v] != INN and total(st, v) + n > st.rr[R_CAP])
    if kind == DK_MONARCH:
        return total(st, monarch) >= st.rr[R_CITY_LIMIT] - 2
    return False


@jit
def wants_strong_defenses(st, p, card):
    if st.sid[p] == RANDOM:
        return coin(st, p)
    return st.gs[st.dk[card, 7], GS_STEP] + 1 >= 3


@jit
def wants_wisdom(st, p, card, full):
    if st.sid[p] == RANDOM:
        return coin(st, p)
    if full and st.dk[card, 0] == DK_MONARCH:
        return True
    return moves_general(st, card) and st.gs[st.dk[card, 7], GS_STEP] + 1 >= 3


# ---- coordinated's estimates ---------------------------------------------------------------------
@jit
def hit_chance(st, to_hit, modifier):
    n = 0
    for face in range(1, 7):
        if face == 1 and st.rr[R_ONE_MISSES]:
            continue
        if face + modifier >= to_hit:
            n += 1
    return n / 6.0


@jit
def dice_for(st, p, g):
    d = 0
    for i in range(st.hs[p, HS_NHAND]):
        card = st.hand[p, i]
        if (st.ccol[card] == g or st.ccol[card] == ANY) and st.csp[card] != SP_BATTLE_LUCK:
            d += st.cdice[card]
    return d


@jit
def expected(st, p, g, v):
    """``Coordinated.expected``: the hero's expected net hits on ``g`` at ``v``."""
    h = st.hs[p, HS_HERO]
    d = dice_for(st, p, g)
    if d == 0:
        return 0.0
    m = 1 if h == RANGER and st.lcol[v] == GREEN else 0
    rerolls = 0
    if g != BLACK:
        rerolls = ((1 if h == EAGLE_RIDER and st.hs[p, HS_GROUND] else 0) + (1 if h == DWARF and g == BLUE else 0)
                   + (1 if holds(st, p, SP_BATTLE_LUCK) >= 0 else 0))
    q = 1.0 - hit_chance(st, st.rr[R_TO_HIT + g], m)
    q_r = 1.0
    for _ in range(rerolls):
        q_r *= q
    e = d * (1.0 - q_r * q)
    if g == RED:
        e = e * 5.0 / 6.0
    if g == GREEN:
        e = e - d * q_r / 6.0
    return e


@jit
def can_kill(st, p, g, v):
    e = expected(st, p, g, v)
    for o in range(st.rr[R_PLAYERS]):
        if o != p and st.hs[o, HS_LOC] == v:
            e += expected(st, o, g, v)
    return e >= st.gs[g, GS_LIFE] + st.wt[p, W_ATTACK_MARGIN]


@jit
def rally(st, p, g):
    v = st.path[g, st.gs[g, GS_STEP]]
    e = 0.0
    for o in range(st.rr[R_PLAYERS]):
        e += expected(st, o, g, v)
    return e >= st.gs[g, GS_LIFE] + st.wt[p, W_ATTACK_MARGIN]


@jit
def target_general(st):
    best = -1
    for g in range(4):
        if st.gs[g, GS_SLAIN] == 0 and (best < 0 or st.gs[g, GS_STEP] > st.gs[best, GS_STEP]):
            best = g
    return best


@jit
def rally_target(st, p):
    """``Coordinated.rally_target``: generals nearest the city first (the lowest index on a tie)."""
    done = stack_empty(4)
    for g in range(4):
        done[g] = 0
    for _ in range(4):
        best = -1
        for g in range(4):
            if done[g] == 0 and st.gs[g, GS_SLAIN] == 0 and (best < 0 or st.gs[g, GS_STEP] > st.gs[best, GS_STEP]):
                best = g
        if best < 0:
            return -1
        done[best] = 1
        if dice_for(st, p, best) > 0 and rally(st, p, best):
            return st.path[best, st.gs[best, GS_STEP]]
    return -1


@jit
def can_enter(st, p, v):
    if st.hs[p, HS_HERO] == SORCERESS and st.hs[p, HS_SHAPE] != NO_SHAPE:
        return st.lkind[v] != CITY and st.lkind[v] != INN
    return True


@jit
def minion_chance(st, p, col, v):
    h = st.hs[p, HS_HERO]
    m = (1 if h == CLERIC and (col == RED or col == BLACK) else 0) + (1 if h == RANGER and st.lcol[v] == GREEN else 0)
    q = 1.0 - hit_chance(st, TO_HIT[col], m)
    if (h == EAGLE_RIDER and st.hs[p, HS_GROUND]) or (h == DWARF and col == BLUE):
        q = q * q
    return 1.0 - q


@jit
def clearing(st, p, v, k, monarch):
    removed = 0.0
    for col in range(4):
        t = st.mi[v, col]
        if t:
            q = 1.0 - minion_chance(st, p, col, v)
            q_k = 1.0
            for _ in range(k):
                q_k *= q
            removed += t * (1.0 - q_k)
    weight = 1.0
    if total(st, v) >= st.rr[R_CAP]:
        weight += st.wt[p, W_OVERRUN]
    if st.dist[monarch, v] <= 1:
        weight += st.wt[p, W_CITY]
    return removed * weight


@jit
def cheapest_heal_card(st, p, v):
    """The card Heal the Land at ``v`` would spend (fewest dice, not special, first on a tie), or -1."""
    colour = st.lcol[v]
    if colour < 0:
        return -1
    best = -1
    for i in range(st.hs[p, HS_NHAND]):
        card = st.hand[p, i]
        if st.ccol[card] == colour and st.csp[card] < 0 and (best < 0 or st.cdice[card] < st.cdice[best]):
            best = card
    return best


@jit
def cleanse_chance(st, p, v):
    if st.hs[p, HS_HERO] == CLERIC:
        return 1.0 / 3.0
    if st.hs[p, HS_HERO] != DRUID and cheapest_heal_card(st, p, v) < 0:
        return 0.0
    miss = 4.0 / 6.0
    if st.hs[p, HS_HERO] == SORCERESS:
        return 1.0 - miss * miss * miss
    return 1.0 - miss * miss


@jit
def work(st, p, v, k, monarch):
    value = clearing(st, p, v, k, monarch) if total(st, v) else 0.0
    if st.tn[v] and total(st, v) == 0:
        value += st.wt[p, W_TAINT] * min(float(st.tn[v]), k * cleanse_chance(st, p, v))
    g = general_at(st, v)
    if g >= 0 and total(st, v) == 0 and can_kill(st, p, g, v):
        value += st.wt[p, W_GENERAL]
    return value


@jit
def work_target(st, p, actions, monarch):
    here = st.hs[p, HS_LOC]
    best, best_value = -1, 0.0
    for v in range(N_LOC):
        d = st.dist[here, v]
        if d >= actions or not can_enter(st, p, v):
            continue
        value = work(st, p, v, actions - d, monarch) - st.wt[p, W_DISTANCE] * d
        if value > best_value:
            best, best_value = v, value
    return best


@jit
def goal(st, p, monarch):
    """``Coordinated.goal``: the location of most value less its distance."""
    here = st.hs[p, HS_LOC]
    tg = target_general(st)
    need_cards = tg >= 0 and dice_for(st, p, tg) < st.wt[p, W_INN_BELOW] and \
        st.gv[G_RUMORS] < st.rr[R_RUMOR_ACTIONS]
    wounded = st.hs[p, HS_HP] <= st.wt[p, W_HEAL_AT]
    best, best_score = -1, 0.0
    for v in range(N_LOC):
        if not can_enter(st, p, v):
            continue
        value = 0.0
        t = total(st, v)
        if t > 0:
            value = float(t)
            if t >= st.rr[R_CAP]:
                value += st.wt[p, W_OVERRUN]
            if st.dist[monarch, v] <= 1:
                value += st.wt[p, W_CITY] * t
        g = general_at(st, v)
        if g >= 0 and (can_kill(st, p, g, v) or rally(st, p, g)):
            value += st.wt[p, W_GENERAL] + st.gs[g, GS_STEP]
        if need_cards and st.lkind[v] == INN:
            value += W_INN
        if wounded and (st.lkind[v] == CITY or st.lkind[v] == INN):
            value += W_HEAL
        if value <= 0.0:
            continue
        score = value - st.dist[here, v]
        if best < 0 or score > best_score:
            best, best_score = v, score
    return best


# ---- coordinated: moving -------------------------------------------------------------------------
@jit_inline
def card_cost(st, card, tg):
    """``Coordinated.card_cost``: a card's dice, +3 when it can fight the target general."""
    return st.cdice[card] + (3 if st.ccol[card] == tg or st.ccol[card] == ANY else 0)


@jit
def nearest_in_range(st, p, low, high, target):
    """Of the locations at ``low..high`` steps the hero may enter (index order), the one nearest
    ``target`` (the first on a tie), or -1."""
    here = st.hs[p, HS_LOC]
    best = -1
    for v in range(N_LOC):
        d = st.dist[here, v]
        if low <= d <= high and can_enter(st, p, v) and (best < 0 or st.dist[v, target] < st.dist[best, target]):
            best = v
    return best


@jit
def nearest_gate(st, p, named, target):
    """Of the gates (and ``named``, -1 for none) other than here that the hero may enter, the one
    nearest ``target`` (the first on a tie), or -1."""
    here = st.hs[p, HS_LOC]
    best = -1
    for v in range(N_LOC):
        if (st.gt[v] or v == named) and v != here and can_enter(st, p, v) and \
                (best < 0 or st.dist[v, target] < st.dist[best, target]):
            best = v
    return best


@jit
def travel(st, p, target, out):
    """``Coordinated.travel``: one action toward ``target`` into out[0:3] (kind, card, arg)."""
    here, h = st.hs[p, HS_LOC], st.hs[p, HS_HERO]
    d = st.dist[here, target]
    ts = st.wt[p, W_TRAVEL_SAVING]
    tg = target_general(st)
    best_kind, best_card, best_v, best_saving = -1, -1, -1, 0
    for step in range(4):  # the free moves, in the reference's order
        kind, v = -1, -1
        if step == 0 and h == PALADIN:
            kind, v = A_NOBLE_STEED, nearest_in_range(st, p, 1, 2, target)
        elif step == 1 and h == EAGLE_RIDER:
            kind, v = A_EAGLE_FLIGHT, nearest_in_range(st, p, 1, 4, target)
        elif step == 2 and h == WIZARD and st.gv[G_TELEPORTED] == 0:
            kind, v = A_TELEPORT, nearest_gate(st, p, -1, target)
        elif step == 3 and st.gt[here]:
            kind, v = A_GATE_TO_GATE, nearest_gate(st, p, -1, target)
        if kind < 0 or v < 0:
            continue
        saving = d - 1 - st.dist[v, target]
        if saving >= 1 and saving > best_saving:
            best_kind, best_card, best_v, best_saving = kind, -1, v, saving
    for i in range(st.hs[p, HS_NHAND]):
        card = st.hand[p, i]
        icon = st.cicon[card]
        kind, v, saving = -1, -1, 0
        if icon == HORSE_ICON:
            kind, v = A_HORSE, nearest_in_range(st, p, 1, 2, target)
        elif icon == EAGLE_ICON:
            kind, v = A_EAGLE, nearest_in_range(st, p, 1, 4, target)
        elif icon == GATE_ICON:
            kind, v = A_GATE_CARD, nearest_gate(st, p, st.cloc[card], target)
        elif st.csp[card] == SP_HAMMER:
            kind, v = A_SPECIAL, target
        if kind < 0 or v < 0:
            continue
        saving = d if kind == A_SPECIAL else d - 1 - st.dist[v, target]
        if saving < ts:
            continue
        if saving > best_saving or (saving == best_saving and best_card >= 0 and
                                    card_cost(st, card, tg) < card_cost(st, best_card, tg)):
            best_kind, best_card, best_v, best_saving = kind, card, v, saving
    if best_kind >= 0:
        out[0], out[1], out[2] = best_kind, best_card, best_v
        return
    step_to = -1
    for j in range(MAX_DEG):
        u = st.adj[here, j]
        if u < 0:
            break
        if can_enter(st, p, u) and (step_to < 0 or st.dist[u, target] < st.dist[step_to, target]):
            step_to = u
    if step_to >= 0:
        out[0], out[1], out[2] = A_WALK, -1, step_to
    else:
        out[0], out[1], out[2] = A_END, -1, -1


# ---- coordinated: the day ------------------------------------------------------------------------
@jit
def special_playable(st, p, sp, monarch):
    here = st.hs[p, HS_LOC]
    if sp == SP_MAGIC_GATE:
        if st.gv[G_GATES_LEFT] <= 0:
            return False
        for v in range(N_LOC):
            if st.gt[v] == 0:
                return True
        return False
    if sp == SP_HAMMER:
        return True
    if sp == SP_PURITY:
        for v in range(N_LOC):
            if st.tn[v]:
                return True
        return False
    if sp == SP_ELVEN_ARCHERS:
        for v in range(N_LOC):
            if st.lcol[v] == GREEN and total(st, v):
                return True
        return False
    if sp == SP_BATTLE_STRATEGY:
        if board_total(st) > 0:
            return True
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_STEP] > 0:
                return True
        return False
    if sp == SP_BATTLE_FURY:
        return st.gv[G_ACTIONS] > 0 and total(st, here) > 0
    if sp == SP_LOCAL_INFORMATION:
        return st.lkind[here] == INN
    if sp == SP_KINGS_GUARD:
        return ring_total(st, monarch) > 0
    if sp == SP_CAVALRY_SWEEP:
        return board_total(st) > 0
    if sp == SP_DARK_VISIONS:
        return st.gv[G_DDN] > 0
    if sp == SP_SPY:
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_LIFE] < st.gs[g, GS_MAX]:
                return True
        return False
    return False


@jit
def ring_total(st, monarch):
    t = total(st, monarch)
    for j in range(MAX_DEG):
        u = st.adj[monarch, j]
        if u >= 0:
            t += total(st, u)
    return t


@jit
def top_sum(st, k, greens_only):
    """The sum of the ``k`` largest location totals (green locations only when asked)."""
    taken = stack_empty(N_LOC)
    for v in range(N_LOC):
        taken[v] = 0
    s = 0
    for _ in range(k):
        best = -1
        for v in range(N_LOC):
            if taken[v] or (greens_only and st.lcol[v] != GREEN):
                continue
            if best < 0 or total(st, v) > total(st, best):
                best = v
        if best < 0:
            break
        taken[best] = 1
        s += total(st, best)
    return s


@jit
def special_trigger(st, p, card, monarch, out):
    """``Coordinated.special``: a free special card to play now into ``out``; False when none."""
    sp = st.csp[card]
    if sp < 0 or not special_playable(st, p, sp, monarch):
        return False
    play = False
    arg = -1
    if sp == SP_PURITY:
        play = st.rr[R_CRYSTALS] - st.gv[G_CRYSTALS_LEFT] >= st.rr[R_CRYSTALS] // 2
    elif sp == SP_ELVEN_ARCHERS:
        play = top_sum(st, 2, True) >= 3
    elif sp == SP_BATTLE_STRATEGY:
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_STEP] >= 2:
                play = True
        play = play or top_sum(st, 3, False) >= 6
    elif sp == SP_KINGS_GUARD:
        play = ring_total(st, monarch) >= 3
    elif sp == SP_CAVALRY_SWEEP:
        play = board_total(st) >= 24
    elif sp == SP_DARK_VISIONS:
        play = True
    elif sp == SP_SPY:
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_HEAL_FROM] >= 0:
                play = True
    elif sp == SP_LOCAL_INFORMATION:
        play, arg = True, max(target_general(st), 0)
    if play:
        out[0], out[1], out[2] = A_SPECIAL, card, arg
    return play


@jit
def work_here(st, p, out):
    here = st.hs[p, HS_LOC]
    g = general_at(st, here)
    if total(st, here):
        if total(st, here) >= 2:
            fury = holds(st, p, SP_BATTLE_FURY)
            if fury >= 0:
                out[0], out[1], out[2] = A_SPECIAL, fury, -1
                return
        out[0], out[1], out[2] = A_ENGAGE, -1, -1
        return
    if g >= 0 and can_kill(st, p, g, here):
        out[0], out[1], out[2] = A_ATTACK, -1, g
        return
    if st.hs[p, HS_HERO] == CLERIC:
        out[0], out[1], out[2] = A_SANCTIFY, -1, -1
        return
    card = -1 if st.hs[p, HS_HERO] == DRUID else cheapest_heal_card(st, p, here)  # Cleanse Corruption
    out[0], out[1], out[2] = A_HEAL_LAND, card, -1


@jit
def nearest_inn(st, p):
    here = st.hs[p, HS_LOC]
    best = -1
    for v in range(N_LOC):
        if st.lkind[v] == INN and can_enter(st, p, v) and (best < 0 or st.dist[v, here] < st.dist[best, here]):
            best = v
    return best


@jit
def coordinated_day(st, p, monarch, out):
    """``Coordinated.day``: the action into out[0:3]."""
    here = st.hs[p, HS_LOC]
    for i in range(st.hs[p, HS_NHAND]):
        if special_trigger(st, p, st.hand[p, i], monarch, out):
            return
    a = st.gv[G_ACTIONS]
    out[0], out[1], out[2] = A_END, -1, -1
    if a == 0:
        return
    g = general_at(st, here)
    if g >= 0 and total(st, here) == 0 and can_kill(st, p, g, here):
        out[0], out[1], out[2] = A_ATTACK, -1, g
        return
    hp, top = st.hs[p, HS_HP], max_hp(st, p)
    if hp <= st.wt[p, W_HEAL_AT] and hp < top and total(st, here) == 0 and g < 0:
        out[0] = A_HEAL_WOUNDS
        return
    rallying = rally_target(st, p)
    if rallying == here:
        if total(st, here):
            out[0] = A_ENGAGE
        return
    if rallying >= 0:
        travel(st, p, rallying, out)
        return
    tg = target_general(st)
    if tg >= 0 and dice_for(st, p, tg) < st.wt[p, W_INN_BELOW] and st.gv[G_RUMORS] < st.rr[R_RUMOR_ACTIONS]:
        if st.lkind[here] == INN:
            out[0], out[1], out[2] = A_RUMORS, -1, tg
            return
        inn = nearest_inn(st, p)
        if inn >= 0 and st.dist[here, inn] < a:
            travel(st, p, inn, out)
            return
    target = work_target(st, p, a, monarch)
    if target == here:
        work_here(st, p, out)
        return
    if target >= 0:
        travel(st, p, target, out)
        return
    target = goal(st, p, monarch)
    if target < 0:
        return
    if target == here:
        if hp < top and g < 0 and total(st, here) == 0:
            out[0] = A_HEAL_WOUNDS
        return
    travel(st, p, target, out)


# ---- random: the legal options --------------------------------------------------------------------
@jit_inline
def add_opt(st, n, kind, card, arg):
    st.opt[n, 0], st.opt[n, 1], st.opt[n, 2] = kind, card, arg
    return n + 1


@jit
def add_in_range(st, n, p, far, kind, card):
    """Option (kind, card, v) for every location v that hero ``p`` may enter 1 to ``far`` steps
    away, in location order (the reference's ``State.in_range``); returns the new count."""
    here = st.hs[p, HS_LOC]
    for v in range(N_LOC):
        if 1 <= st.dist[here, v] <= far and can_enter(st, p, v):
            n = add_opt(st, n, kind, card, v)
    return n


@jit
def hammer_default(st, p, monarch):
    threat_order(st, monarch)
    here = st.hs[p, HS_LOC]
    for i in range(N_LOC):
        v = st.order[i]
        if v != here and can_enter(st, p, v):
            return v
    return here


@jit
def day_options(st, p, monarch):
    """``State.day_options`` into ``st.opt``: the count of legal actions, in the canonical order."""
    here, h, nh = st.hs[p, HS_LOC], st.hs[p, HS_HERO], st.hs[p, HS_NHAND]
    n = add_opt(st, 0, A_END, -1, -1)
    if st.gv[G_ACTIONS] > 0:
        for j in range(MAX_DEG):
            u = st.adj[here, j]
            if u >= 0 and can_enter(st, p, u):
                n = add_opt(st, n, A_WALK, -1, u)
        for i in range(nh):
            card = st.hand[p, i]
            if st.cicon[card] == HORSE_ICON:
                n = add_in_range(st, n, p, 2, A_HORSE, card)
        if h == PALADIN:
            n = add_in_range(st, n, p, 2, A_NOBLE_STEED, -1)
        for i in range(nh):
            card = st.hand[p, i]
            if st.cicon[card] == EAGLE_ICON:
                n = add_in_range(st, n, p, 4, A_EAGLE, card)
        if h == EAGLE_RIDER:
            n = add_in_range(st, n, p, 4, A_EAGLE_FLIGHT, -1)
        for i in range(nh):
            card = st.hand[p, i]
            if st.cicon[card] == GATE_ICON:
                named = st.cloc[card]
                for v in range(N_LOC):
                    if (st.gt[v] or v == named) and v != here and can_enter(st, p, v):
                        n = add_opt(st, n, A_GATE_CARD, card, v)
        if st.gt[here]:
            for v in range(N_LOC):
                if st.gt[v] and v != here and can_enter(st, p, v):
                    n = add_opt(st, n, A_GATE_TO_GATE, -1, v)
        if h == WIZARD and st.gv[G_TELEPORTED] == 0:
            for v in range(N_LOC):
                if st.gt[v] and v != here and can_enter(st, p, v):
                    n = add_opt(st, n, A_TELEPORT, -1, v)
        if st.gv[G_GATES_LEFT] > 0 and st.gt[here] == 0:
            for i in range(nh):
                if st.cloc[st.hand[p, i]] == here:
                    n = add_opt(st, n, A_BUILD_GATE, st.hand[p, i], -1)
        if st.lkind[here] == INN and st.gv[G_RUMORS] < st.rr[R_RUMOR_ACTIONS]:
            for col in range(4):
                n = add_opt(st, n, A_RUMORS, -1, col)
        t = total(st, here)
        if st.tn[here] > 0 and (st.rr[R_HEAL_WITH_MINIONS] or t == 0):
            if h == DRUID:  # Cleanse Corruption: no card
                n = add_opt(st, n, A_HEAL_LAND, -1, -1)
            elif st.lcol[here] >= 0:
                for i in range(nh):
                    if st.ccol[st.hand[p, i]] == st.lcol[here]:
                        n = add_opt(st, n, A_HEAL_LAND, st.hand[p, i], -1)
        if h == CLERIC and st.tn[here] > 0 and t == 0:
            n = add_opt(st, n, A_SANCTIFY, -1, -1)
        if st.hs[p, HS_HP] < max_hp(st, p) and t == 0 and general_at(st, here) < 0:
            n = add_opt(st, n, A_HEAL_WOUNDS, -1, -1)
        if t > 0:
            n = add_opt(st, n, A_ENGAGE, -1, -1)
        if h == RANGER:
            for j in range(MAX_DEG):
                u = st.adj[here, j]
                if u >= 0 and total(st, u) > 0:
                    n = add_opt(st, n, A_ARCHERY, -1, u)
        if h == WIZARD and t > 0:
            for i in range(nh):
                col = st.ccol[st.hand[p, i]]
                if col < 4 and st.mi[here, col] > 0:
                    n = add_opt(st, n, A_FIREBALL, st.hand[p, i], -1)
        if t == 0:
            for g in range(4):
                if st.gs[g, GS_SLAIN] == 0 and st.path[g, st.gs[g, GS_STEP]] == here:
                    n = add_opt(st, n, A_ATTACK, -1, g)
        for col in range(4):
            if st.slayer[p, col] and st.mi[here, col]:
                n = add_opt(st, n, A_SLAYER, -1, col)
    for i in range(nh):
        card = st.hand[p, i]
        sp = st.csp[card]
        if sp < 0 or sp == SP_ALL_QUIET or sp == SP_BATTLE_LUCK or sp == SP_MILITIA or sp == SP_STRONG_DEFENSES:
            continue
        if not special_playable(st, p, sp, monarch):
            continue
        if sp == SP_LOCAL_INFORMATION:
            for col in range(4):
                n = add_opt(st, n, A_SPECIAL, card, col)
        elif sp == SP_HAMMER:
            n = add_opt(st, n, A_SPECIAL, card, hammer_default(st, p, monarch))
        else:
            n = add_opt(st, n, A_SPECIAL, card, -1)
    return n


@jit
def random_day(st, p, monarch, out):
    """``RandomPolicy.day``: a kind uniformly among the legal kinds, then one of its options."""
    n = day_options(st, p, monarch)
    kinds = 0
    for i in range(n):
        if i == 0 or st.opt[i, 0] != st.opt[i - 1, 0]:
            kinds += 1
    k = pick(st, p, kinds)
    start, count, seen = 0, 0, -1
    for i in range(n):
        if i == 0 or st.opt[i, 0] != st.opt[i - 1, 0]:
            seen += 1
            if seen == k:
                start = i
        if seen == k:
            count += 1
    j = start + pick(st, p, count)
    out[0], out[1], out[2] = st.opt[j, 0], st.opt[j, 1], st.opt[j, 2]


# ---- doing it -------------------------------------------------------------------------------------
@jit
def search(st, p, draws, colour):
    for _ in range(draws):
        card = draw_hero_card(st)
        if card < 0:
            return
        if st.ccol[card] == colour or st.csp[card] >= 0:
            hand_push(st, p, card)
        else:
            to_discard(st, card)


@jit
def do_action(st, p, kind, card, arg, monarch):
    here, h = st.hs[p, HS_LOC], st.hs[p, HS_HERO]
    free = (kind == A_SPECIAL and st.csp[card] != SP_BATTLE_FURY) or \
        (kind == A_FIREBALL and st.rr[R_FIREBALL_ACTION] == 0)
    if not free:
        st.gv[G_ACTIONS] -= 1
    if kind >= A_WALK and kind <= A_TELEPORT:
        if card >= 0:
            spend(st, p, card)
        if kind == A_TELEPORT:
            st.gv[G_TELEPORTED] = 1
        st.hs[p, HS_LOC] = arg
    elif kind == A_BUILD_GATE:
        spend(st, p, card)
        st.gt[here] = 1
        st.gv[G_GATES_LEFT] -= 1
    elif kind == A_RUMORS:
        st.gv[G_RUMORS] += 1
        search(st, p, 5 if h == ROGUE else st.rr[R_RUMOR_DRAW], arg)
    elif kind == A_HEAL_LAND:
        if card >= 0:
            spend(st, p, card)
        heal_land(st, here, 3 if h == SORCERESS else 2)
    elif kind == A_SANCTIFY:
        heal_land(st, here, 1)
    elif kind == A_HEAL_WOUNDS:
        if st.lkind[here] == CITY or st.lkind[here] == INN:
            st.hs[p, HS_HP] = max_hp(st, p)
        else:
            st.hs[p, HS_HP] = min(max_hp(st, p), st.hs[p, HS_HP] + st.rr[R_HEAL_ELSEWHERE])
    elif kind == A_ENGAGE:
        engage(st, p, here, False)
    elif kind == A_ARCHERY:
        engage(st, p, arg, True)
    elif kind == A_FIREBALL:
        spend(st, p, card)
        fireball(st, here)
    elif kind == A_ATTACK:
        attack_general(st, arg, monarch)
    elif kind == A_SLAYER:
        remove(st, here, arg, st.mi[here, arg])
    elif kind == A_SPECIAL:
        spend(st, p, card)
        play_special(st, p, st.csp[card], arg, monarch)


@jit
def play_special(st, p, sp, arg, monarch):
    """A day special card's effect with its default targets (``State.play_special``)."""
    here = st.hs[p, HS_LOC]
    if sp == SP_MAGIC_GATE:
        threat_order(st, monarch)
        for i in range(N_LOC):
            v = st.order[i]
            if st.gt[v] == 0:
                st.gt[v] = 1
                st.gv[G_GATES_LEFT] -= 1
                return
    elif sp == SP_HAMMER:
        st.hs[p, HS_LOC] = arg
    elif sp == SP_PURITY:
        best = 0
        for v in range(1, N_LOC):
            if st.tn[v] > st.tn[best]:
                best = v
        st.gv[G_CRYSTALS_LEFT] += st.tn[best]
        st.tn[best] = 0
    elif sp == SP_ELVEN_ARCHERS:
        for _ in range(2):
            best = -1
            for v in range(N_LOC):
                if st.lcol[v] == GREEN and total(st, v) and (best < 0 or total(st, v) > total(st, best)):
                    best = v
            if best < 0:
                break
            clear(st, best)
    elif sp == SP_BATTLE_STRATEGY:
        threat_order(st, monarch)
        cleared = 0
        for i in range(N_LOC):  # clearing one location changes no other's total: the first three
            v = st.order[i]
            if cleared < 3 and total(st, v):
                clear(st, v)
                cleared += 1
        best = -1
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_STEP] > 0 and \
                    (best < 0 or st.gs[g, GS_STEP] > st.gs[best, GS_STEP]):
                best = g
        if best >= 0:
            st.gs[best, GS_STEP] -= 1
    elif sp == SP_BATTLE_FURY:
        clear(st, here)
    elif sp == SP_LOCAL_INFORMATION:
        search(st, p, 5, arg)
    elif sp == SP_KINGS_GUARD:
        ring = stack_empty(RING)
        m = 0
        for j in range(MAX_DEG):
            u = st.adj[monarch, j]
            if u < 0:
                break
            i = m  # insertion by (most minions, then index): the ring lists neighbours in index order
            while i > 0 and total(st, u) > total(st, ring[i - 1]):
                ring[i] = ring[i - 1]
                i -= 1
            ring[i] = u
            m += 1
        left = 6
        for i in range(-1, m):
            v = monarch if i < 0 else ring[i]
            for col in range(4):
                k = min(left, st.mi[v, col])
                remove(st, v, col, k)
                left -= k
    elif sp == SP_CAVALRY_SWEEP:
        cavalry_sweep(st, monarch)
    elif sp == SP_DARK_VISIONS:
        dark_visions(st)
    elif sp == SP_SPY:
        best = -1
        for g in range(4):
            if st.gs[g, GS_SLAIN] == 0 and st.gs[g, GS_LIFE] < st.gs[g, GS_MAX] and \
                    (best < 0 or st.gs[g, GS_LIFE] < st.gs[best, GS_LIFE]):
                best = g
        st.gs[best, GS_SKIP] += 1


@jit
def cavalry_sweep(st, monarch):
    threat_order(st, monarch)
    v, budget = st.order[0], 6
    seen = stack_empty(N_LOC)
    for u in range(N_LOC):
        seen[u] = 0
    while budget > 0 and v >= 0:
        seen[v] = 1
        units = min(2, budget)
        for col in range(4):
            cost = 2 if col == BLUE else 1
            while st.mi[v, col] and cost <= units:
                remove(st, v, col, 1)
                units -= cost
                budget -= cost
        nxt = -1
        for j in range(MAX_DEG):
            u = st.adj[v, j]
            if u < 0:
                break
            if seen[u] == 0 and total(st, u) and (nxt < 0 or total(st, u) > total(st, nxt)):
                nxt = u
        v = nxt


@jit
def dark_visions(st):
    """The top five Darkness cards: those that would move a general now are discarded (top
    first), the rest go back in their order."""
    n = st.gv[G_DDN]
    k = min(5, n)
    kept = n - k
    for i in range(n - 1, n - k - 1, -1):  # the discards, top first
        if moves_general(st, st.dd[i]):
            dark_discard(st, st.dd[i])
    for i in range(n - k, n):  # the kept ones, bottom to top
        if not moves_general(st, st.dd[i]):
            st.dd[kept] = st.dd[i]
            kept += 1
    st.gv[G_DDN] = kept


# ---- evening, night, end of turn -----------------------------------------------------------------
@jit
def evening(st, p):
    bonus = 1 if st.hs[p, HS_HERO] == ROGUE and st.chest[st.hs[p, HS_LOC]] else 0
    give(st, p, st.rr[R_EVENING] + bonus)
    while st.hs[p, HS_NHAND] > st.rr[R_HAND_LIMIT]:
        discard_at(st, p, discard_choice(st, p))


@jit
def night_card(st, s, sp, ask, card, line, monarch):
    """``State.night_card``: the first seat from the active one holding special ``sp`` whose
    policy plays it (ask 0 All Is Quiet, 1 Militia for ``card``'s ``line``, 2 Strong Defenses)."""
    n = st.rr[R_PLAYERS]
    for k in range(n):
        p = (s + k) % n
        held = holds(st, p, sp)
        if held < 0:
            continue
        if ask == 0:
            yes = wants_all_is_quiet(st, p, monarch)
        elif ask == 1:
            yes = wants_militia(st, p, card, line, monarch)
        else:
            yes = wants_strong_defenses(st, p, card)
        if yes:
            spend(st, p, held)
            return True
    return False


@jit
def night(st, s, monarch):
    if night_card(st, s, SP_ALL_QUIET, 0, -1, 0, monarch):
        return
    status = war_status(st)
    k = st.rr[R_WAR + status]
    n = st.rr[R_PLAYERS]
    wizard = -1
    for j in range(n):
        if st.hs[(s + j) % n, HS_HERO] == WIZARD:
            wizard = (s + j) % n
            break
    wisdom_used = False
    for i in range(k):
        full = not (status != EARLY and k >= 2 and i == k - 1)
        card = draw_darkness(st)
        if wizard >= 0 and (status != EARLY or not wisdom_used) and wants_wisdom(st, wizard, card, full):
            wisdom_used = True
            dark_discard(st, card)
            card = draw_darkness(st)
        resolve(st, s, card, full, monarch)
        if ended(st):
            return


@jit
def resolve(st, s, card, full, monarch):
    kind = st.dk[card, 0]
    if full and kind == DK_REGULAR:
        for line in range(1, 3):
            col, k, v = st.dk[card, 3 * line - 2], st.dk[card, 3 * line - 1], st.dk[card, 3 * line]
            if not night_card(st, s, SP_MILITIA, 1, card, line, monarch):
                place(st, col, k, v, True, monarch)
                if ended(st):
                    return
    elif full and kind == DK_PATROL:
        if not night_card(st, s, SP_MILITIA, 1, card, 0, monarch):
            for v in range(N_LOC):
                if st.lcol[v] != GREEN:
                    continue
                if (st.mi[v, GREEN] == 0) if st.rr[R_PATROL_NO_ORC] else (total(st, v) == 0):
                    place(st, GREEN, 1, v, True, monarch)
                    if ended(st):
                        return
    elif full and kind == DK_WAR_PARTY:
        if not night_card(st, s, SP_MILITIA, 1, card, 0, monarch):
            for v in range(N_LOC):
                if st.mi[v, GREEN] == 1 and total(st, v) == 1:
                    place(st, GREEN, 1, v, True, monarch)
                    if ended(st):
                        return
    elif full and kind == DK_MONARCH and st.rr[R_MONARCH_SPREAD]:
        if not night_card(st, s, SP_MILITIA, 1, card, 0, monarch):
            for col in range(4):
                present = False
                for j in range(MAX_DEG):
                    u = st.adj[monarch, j]
                    if u >= 0 and st.mi[u, col]:
                        present = True
                if present:
                    place(st, col, 1, monarch, True, monarch)
                    if ended(st):
                        return
        for i in range(N_DARK):
            st.dd[i] = i
        st.gv[G_DDN], st.gv[G_DXN] = N_DARK, 0
        shuffle(st, st.dd, N_DARK)
        m = st.gv[G_HDN]
        for i in range(st.gv[G_HXN]):
            st.hd[m + i] = st.hx[i]
        st.gv[G_HDN], st.gv[G_HXN] = m + st.gv[G_HXN], 0
        shuffle(st, st.hd, st.gv[G_HDN])
        return
    if (kind == DK_REGULAR or kind == DK_PATROL or kind == DK_WAR_PARTY) and moves_general(st, card):
        if not night_card(st, s, SP_STRONG_DEFENSES, 2, card, 0, monarch):
            general_line(st, card, monarch)
            if ended(st):
                return
    dark_discard(st, card)


@jit
def heal_generals(st):
    for g in range(4):
        if st.gs[g, GS_SLAIN] or st.gs[g, GS_HEAL_FROM] < 0 or st.gv[G_TURN] < st.gs[g, GS_HEAL_FROM]:
            continue
        if st.gs[g, GS_SKIP]:
            st.gs[g, GS_SKIP] -= 1
            continue
        st.gs[g, GS_LIFE] += 1
        if st.gs[g, GS_LIFE] >= st.gs[g, GS_MAX]:
            st.gs[g, GS_LIFE] = st.gs[g, GS_MAX]
            st.gs[g, GS_HEAL_FROM] = -1


@jit
def day(st, p, monarch):
    action = stack_empty(3)
    while st.gv[G_ACTIVE_DEAD] == 0:
        if st.sid[p] == RANDOM:
            random_day(st, p, monarch, action)
        else:
            coordinated_day(st, p, monarch, action)
        if action[0] == A_END:
            return
        do_action(st, p, action[0], action[1], action[2], monarch)
        if ended(st):
            return


@jit
def hero_turn(st, s, monarch):
    gv, hs = st.gv, st.hs
    gv[G_ACTIVE], gv[G_RUMORS], gv[G_TELEPORTED], gv[G_AMBUSH_USED], gv[G_ACTIVE_DEAD] = s, 0, 0, 0, 0
    h = hs[s, HS_HERO]
    if h == SORCERESS:
        hs[s, HS_SHAPE] = choose_shape(st, s)
    if h == EAGLE_RIDER:
        hs[s, HS_GROUND] = choose_ground(st, s)
    here = hs[s, HS_LOC]
    gv[G_ACTIONS] = (hs[s, HS_HP] + (1 if h == DWARF and st.lcol[here] == RED else 0)
                     + (1 if h == RANGER and st.lcol[here] == GREEN else 0) + hs[s, HS_FRESH])
    hs[s, HS_FRESH] = 0
    day(st, s, monarch)
    if ended(st):
        return
    if gv[G_ACTIVE_DEAD] == 0:
        if hs[s, HS_HERO] == CLERIC:
            turn_undead(st, s)
        if st.rr[R_WOUND_END_OF_TURN] == 0:
            wound(st, s, end_of_day_wounds(st, s), monarch)
    if gv[G_ACTIVE_DEAD] == 0:
        here = hs[s, HS_LOC]
        if hs[s, HS_HERO] == EAGLE_RIDER and hs[s, HS_GROUND] and (here == monarch or st.lcol[here] == BLUE):
            hs[s, HS_FRESH] = 1
        evening(st, s)
    night(st, s, monarch)
    if ended(st):
        return
    if st.rr[R_WOUND_END_OF_TURN]:
        gv[G_ACTIVE_DEAD] = 0
        wound(st, s, end_of_day_wounds(st, s), monarch)
    heal_generals(st)
    gv[G_TURN] += 1


# ---- one game, a chunk of games ------------------------------------------------------------------
@jit
def reset(st, heroes, n, monarch):
    """A fresh game: empty board, full supplies, decks in id order, heroes in Monarch City."""
    rr, gv = st.rr, st.gv
    for i in range(G_N):
        gv[i] = 0
    gv[G_OVER] = -1
    gv[G_CRYSTALS_LEFT] = rr[R_CRYSTALS]
    for v in range(N_LOC):
        for col in range(4):
            st.mi[v, col] = 0
        st.tn[v] = 0
        st.gt[v] = 1 if v == STARTING_GATE else 0
    gv[G_GATES_LEFT] = rr[R_GATES] - 1
    for col in range(4):
        st.sup[col] = rr[R_MINIONS]
    for g in range(4):
        st.gs[g, GS_STEP], st.gs[g, GS_LIFE], st.gs[g, GS_MAX] = 0, GENERAL_LIFE[g], GENERAL_LIFE[g]
        st.gs[g, GS_SLAIN], st.gs[g, GS_HEAL_FROM], st.gs[g, GS_SKIP] = 0, -1, 0
    for h in range(N_HEROES):
        st.ever[h] = 0
    for p in range(n):
        h = heroes[p]
        st.ever[h] = 1
        st.hs[p, HS_HERO], st.hs[p, HS_LOC], st.hs[p, HS_HP] = h, monarch, st.hlife[h]
        st.hs[p, HS_SHAPE], st.hs[p, HS_GROUND], st.hs[p, HS_FRESH] = NO_SHAPE, 0, 0
        st.hs[p, HS_CHAMPION], st.hs[p, HS_DEATHS], st.hs[p, HS_NHAND] = 0, 0, 0
        for col in range(4):
            st.slayer[p, col] = 0
    for i in range(N_CARDS):
        st.hd[i] = i
    gv[G_HDN], gv[G_HXN] = N_CARDS, 0
    for i in range(N_DARK):
        st.dd[i] = i
    gv[G_DDN], gv[G_DXN] = N_DARK, 0


STARTING_GATE = 24  # Dancing Stone (catalogue: the one location with magicGate; the tests check it)
MONARCH = 19  # Monarch City's index (the tests check it)


@jit
def play_game(st, heroes):
    n = st.rr[R_PLAYERS]
    reset(st, heroes, n, MONARCH)
    setup(st, n, MONARCH)
    while st.gv[G_TURN] < st.rr[R_TURN_CAP]:
        hero_turn(st, st.gv[G_TURN] % n, MONARCH)
        if ended(st):
            st.gv[G_TURN] += 1  # the turn it ended in counts
            return
    st.gv[G_OVER] = CAPPED


@jit_novec
def play_games(st, given, seed, first_game, n_games, win_units, outcome, length, sides, champion, deaths, slain,
               steps, board):
    """Games ``first_game .. first_game + n_games - 1`` of the run with ``seed``.

    given int64[P]: each seat's hero, or all -1 to draw the team from the pool (distinct, from
    the game's side stream). Outputs per game: win_units int32[n, P], outcome int8[n], length
    int32[n] (hero turns), sides int16[n, P] (the first hero of each seat), champion and deaths
    int64[n, P] (slain-general cards and heroes lost per seat), slain int64[n, 4] (each general),
    steps int64[n, 4] (each general's path step at the end), board int64[n, 4] (minions and
    crystals on the board at the end, combats and kills). The combat tables add up in
    ``st.cmb`` and ``st.grp`` over the chunk."""
    sk = seed_key(seed)
    n = st.rr[R_PLAYERS]
    heroes = np.zeros(MAX_SEATS, np.int64)
    idx = np.zeros(N_HEROES, np.int64)
    for i in range(n_games):
        gk = game_key(sk, np.uint64(first_game + i))
        for k in range(1 + n):
            st.states[k] = game_stream_key(gk, k)
        if given[0] < 0:
            st.states[5] = game_stream_key(gk, SIDE_STREAM)
            m = st.rr[R_POOL_N]
            for k in range(m):
                idx[k] = k
            for k in range(n):
                j = k + below(st.states, 5, m - k)
                idx[k], idx[j] = idx[j], idx[k]
                heroes[k] = st.pool[idx[k]]
        else:
            for k in range(n):
                heroes[k] = given[k]
        for k in range(n):
            sides[i, k] = heroes[k]
        play_game(st, heroes)
        outcome[i] = st.gv[G_OVER]
        length[i] = st.gv[G_TURN]
        for k in range(n):
            win_units[i, k] = 60 if st.gv[G_OVER] == WON else 0
            champion[i, k] = st.hs[k, HS_CHAMPION]
            deaths[i, k] = st.hs[k, HS_DEATHS]
        crystals = 0
        for v in range(N_LOC):
            crystals += st.tn[v]
        for g in range(4):
            slain[i, g] = st.gs[g, GS_SLAIN]
            steps[i, g] = st.gs[g, GS_STEP]
        board[i, 0], board[i, 1], board[i, 2], board[i, 3] = board_total(st), crystals, st.gv[G_COMBATS], \
            st.gv[G_KILLS]
