"""The reference's team policies: ``random`` and ``coordinated`` (``strategies.py`` documents them).

Each seat has a policy object; the game (``game.State``) asks it every decision. ``random``
draws from the seat's stream (no draw for a single option); ``coordinated`` never draws. Float
sums are taken in a fixed order (the hero itself, then the others in seat order) and powers as
repeated products, so the kernel computes bit-identical values.
"""
from __future__ import annotations

from ..catalogue import (ANY, BLACK, BLUE, CITY, CLERIC, DK_MONARCH, DK_REGULAR, DRUID, DWARF, EAGLE_ICON, EAGLE_RIDER,
                         GATE_ICON, MINION_TO_HIT, GREEN, HORSE_ICON, INN, N_LOCATIONS, PALADIN, RANGER, RED, SORCERESS,
                         SP_BATTLE_FURY, SP_BATTLE_LUCK, SP_BATTLE_STRATEGY, SP_CAVALRY_SWEEP, SP_DARK_VISIONS,
                         SP_ELVEN_ARCHERS, SP_HAMMER, SP_KINGS_GUARD, SP_LOCAL_INFORMATION, SP_PURITY, SP_SPY,
                         WIZARD)
from ..strategies import (ATTACK_MARGIN, HEAL_AT, INN_BELOW, RANDOM, TRAVEL_SAVING, W_CITY, W_DISTANCE, W_GENERAL,
                          W_OVERRUN, W_TAINT)
from .game import (A_EAGLE, A_EAGLE_FLIGHT, A_END, A_ATTACK, A_ENGAGE, A_GATE_CARD, A_GATE_TO_GATE, A_HEAL_LAND,
                   A_HEAL_WOUNDS, A_HORSE, A_NOBLE_STEED, A_RUMORS, A_SANCTIFY, A_SPECIAL, A_TELEPORT, A_WALK,
                   NO_SHAPE)

W_INN = 3.0  # value of an inn when the hand is short of dice against the target general
W_HEAL = 4.0  # value of Monarch City and the inns when the hero needs healing
END = (A_END, -1, -1)


def policy(strategy, stream):
    """The policy object of one seat: its ``Strategy`` and its own stream."""
    if strategy.info.id == RANDOM:
        return RandomPolicy(stream)
    return Coordinated(strategy.values)


class RandomPolicy:
    """Every decision uniform over its options; a day action by kind first, then its options."""

    def __init__(self, stream):
        self.stream = stream

    def pick(self, n: int) -> int:
        return self.stream.below(n) if n > 1 else 0

    def coin(self) -> bool:
        return self.stream.below(2) == 1

    def shape(self, st, seat):
        return self.pick(5)

    def ground(self, st, seat):
        return self.coin()

    def day(self, st, seat):
        opts = st.day_options(seat)
        kinds = sorted({o[0] for o in opts})
        kind = kinds[self.pick(len(kinds))]
        of_kind = [o for o in opts if o[0] == kind]
        return of_kind[self.pick(len(of_kind))]

    def commit(self, st, seat, g, eligible):
        return [card for card in eligible if self.coin()]

    def battle_luck(self, st, seat, g):
        return self.coin()

    def next_roller(self, st, seat, g, waiting):
        return self.pick(len(waiting))

    def discard(self, st, seat):
        return self.pick(len(st.hand[seat]))

    def all_is_quiet(self, st, seat):
        return self.coin()

    def militia(self, st, seat, card, line):
        return self.coin()

    def strong_defenses(self, st, seat, card):
        return self.coin()

    def wisdom(self, st, seat, card, full):
        return self.coin()


def hit_chance(st, to_hit: int, modifier: int) -> float:
    """One die's chance to hit: faces (a 1 misses when the rules say so) reaching ``to_hit``."""
    n = 0
    for face in range(1, 7):
        if face == 1 and st.r.natural_one_misses:
            continue
        if face + modifier >= to_hit:
            n += 1
    return n / 6.0


def target_general(st) -> int:
    """The living general nearest Monarch City (the lowest index on a tie), or -1."""
    best = -1
    for g in range(4):
        if not st.slain[g] and (best < 0 or st.step[g] > st.step[best]):
            best = g
    return best


class Coordinated:
    """The team policy (deterministic): its weights are the strategy's parameter row."""

    def __init__(self, values):
        self.w = [float(v) for v in values]

    # ---- estimates -------------------------------------------------------------------------
    def dice_for(self, st, seat: int, g: int) -> int:
        c = st.c
        return sum(int(c.card_dice[card]) for card in st.hand[seat]
                   if c.card_colour[card] in (g, ANY) and c.card_special[card] != SP_BATTLE_LUCK)

    def expected(self, st, seat: int, g: int, loc: int) -> float:
        """Expected net hits of the hero at ``seat`` attacking ``g`` at ``loc`` with every card
        it would commit (the curse and the parry as averages)."""
        c, h = st.c, st.hero[seat]
        d = self.dice_for(st, seat, g)
        if d == 0:
            return 0.0
        m = 1 if h == RANGER and c.colour[loc] == GREEN else 0
        rerolls = 0
        if g != BLACK:
            rerolls = (int(h == EAGLE_RIDER and st.ground[seat]) + int(h == DWARF and g == BLUE)
                       + int(any(c.card_special[card] == SP_BATTLE_LUCK for card in st.hand[seat])))
        q = 1.0 - hit_chance(st, st.r.general_to_hit[g], m)
        q_r = 1.0
        for _ in range(rerolls):
            q_r *= q
        e = d * (1.0 - q_r * q)
        if g == RED:
            e = e * 5.0 / 6.0
        if g == GREEN:
            e = e - d * q_r / 6.0
        return e

    def team_expected(self, st, seat: int, g: int, loc: int) -> float:
        """The hero at ``seat`` (as if at ``loc``) and every other hero at ``loc``, in seat order."""
        e = self.expected(st, seat, g, loc)
        for p in range(st.n):
            if p != seat and st.loc[p] == loc:
                e += self.expected(st, p, g, loc)
        return e

    def can_kill(self, st, seat: int, g: int, loc: int) -> bool:
        return self.team_expected(st, seat, g, loc) >= st.life[g] + self.w[ATTACK_MARGIN]

    def rally(self, st, g: int) -> bool:
        """The whole team, wherever it stands, could kill ``g``: every hero heads for it."""
        loc = int(st.c.path[g][st.step[g]])
        e = 0.0
        for p in range(st.n):
            e += self.expected(st, p, g, loc)
        return e >= st.life[g] + self.w[ATTACK_MARGIN]

    # ---- the day -----------------------------------------------------------------------------
    def day(self, st, seat):
        """The day's next action (the legal list is not needed: every rule below names a legal one)."""
        c, r, here, hand = st.c, st.r, st.loc[seat], st.hand[seat]
        for card in hand:
            action = self.special(st, seat, card)
            if action is not None:
                return action
        a = st.actions
        if a == 0:
            return END
        g = st.general_at(here)
        if g >= 0 and st.total(here) == 0 and self.can_kill(st, seat, g, here):
            return (A_ATTACK, -1, g)
        hp, top = st.hp[seat], st.max_hp(seat)
        if hp <= self.w[HEAL_AT] and hp < top and st.total(here) == 0 and g < 0:
            return (A_HEAL_WOUNDS, -1, -1)
        rally = self.rally_target(st, seat)
        if rally == here:  # wait for the team here, clearing the way
            return (A_ENGAGE, -1, -1) if st.total(here) else END
        if rally >= 0:
            return self.travel(st, seat, rally)
        tg = target_general(st)
        if tg >= 0 and self.dice_for(st, seat, tg) < self.w[INN_BELOW] and st.rumors < r.rumor_actions:
            if c.kind[here] == INN:
                return (A_RUMORS, -1, tg)
            inn = self.nearest(st, seat, [int(v) for v in st.c.inns if st.can_enter(seat, int(v))], here)
            if inn >= 0 and c.distance[here][inn] < a:
                return self.travel(st, seat, inn)
        work = self.work_target(st, seat, a)
        if work == here:
            return self.work_here(st, seat)
        if work >= 0:
            return self.travel(st, seat, work)
        goal = self.goal(st, seat)
        if goal < 0:
            return END
        if goal == here:
            if hp < top and g < 0 and st.total(here) == 0:
                return (A_HEAL_WOUNDS, -1, -1)
            return END
        return self.travel(st, seat, goal)

    def rally_target(self, st, seat) -> int:
        """The location of the general the whole team could kill (the nearest Monarch City first)
        when this hero has dice for it, else -1."""
        for g in self.by_threat(st):
            if self.dice_for(st, seat, g) > 0 and self.rally(st, g):
                return int(st.c.path[g][st.step[g]])
        return -1

    def by_threat(self, st) -> list[int]:
        """Living generals, nearest Monarch City first (the lowest index on a tie)."""
        return sorted((g for g in range(4) if not st.slain[g]), key=lambda g: (-st.step[g], g))

    def minion_chance(self, st, seat, colour: int, loc: int) -> float:
        """This hero's chance to remove one minion of ``colour`` with one engage die at ``loc``."""
        h = st.hero[seat]
        m = int(h == CLERIC and colour in (RED, BLACK)) + int(h == RANGER and st.c.colour[loc] == GREEN)
        q = 1.0 - hit_chance(st, MINION_TO_HIT[colour], m)
        if (h == EAGLE_RIDER and st.ground[seat]) or (h == DWARF and colour == BLUE):
            q = q * q
        return 1.0 - q

    def clearing(self, st, seat, v: int, k: int) -> float:
        """The worth of ``k`` engage actions at ``v``: expected minions removed, weighted up where
        one more minion overruns and next to Monarch City."""
        removed = 0.0
        for col in range(4):
            t = st.minions[v][col]
            if t:
                q = 1.0 - self.minion_chance(st, seat, col, v)
                q_k = 1.0
                for _ in range(k):
                    q_k *= q
                removed += t * (1.0 - q_k)
        weight = 1.0
        if st.total(v) >= st.r.location_cap:
            weight += self.w[W_OVERRUN]
        if st.c.distance[st.monarch][v] <= 1:
            weight += self.w[W_CITY]
        return removed * weight

    def heal_card(self, st, seat, v: int) -> int:
        """The card Heal the Land at ``v`` would spend (fewest dice, not a special), or -1."""
        c = st.c
        colour = c.colour[v]
        if colour < 0:
            return -1
        return self.cheapest(st, seat, lambda k: c.card_colour[k] == colour and c.card_special[k] < 0)

    def cleanse_chance(self, st, seat, v: int) -> float:
        """The chance one action removes a crystal at ``v`` once no minion is there: Sanctify for
        the Cleric (a 5+ on one die), else Heal the Land (the Druid needs no card; the others a
        card of its colour, none: 0)."""
        if st.hero[seat] == CLERIC:
            return 1.0 / 3.0
        if st.hero[seat] != DRUID and self.heal_card(st, seat, v) < 0:
            return 0.0
        miss = 4.0 / 6.0  # a die below 5
        return 1.0 - miss * miss * miss if st.hero[seat] == SORCERESS else 1.0 - miss * miss

    def work(self, st, seat, v: int, k: int) -> float:
        """The worth of spending ``k`` actions at ``v``: clearing its minions, cleansing its taint,
        killing its general."""
        value = self.clearing(st, seat, v, k) if st.total(v) else 0.0
        if st.taint[v] and st.total(v) == 0:
            value += self.w[W_TAINT] * min(float(st.taint[v]), k * self.cleanse_chance(st, seat, v))
        g = st.general_at(v)
        if g >= 0 and st.total(v) == 0 and self.can_kill(st, seat, g, v):
            value += self.w[W_GENERAL]
        return value

    def work_target(self, st, seat, actions: int) -> int:
        """The location in reach this day whose work, less ``w_distance`` a step, is worth most
        (the lowest index on a tie); -1 when none is worth anything."""
        here, best, best_value = st.loc[seat], -1, 0.0
        for v in range(N_LOCATIONS):
            d = int(st.c.distance[here][v])
            if d >= actions or not st.can_enter(seat, v):
                continue
            value = self.work(st, seat, v, actions - d) - self.w[W_DISTANCE] * d
            if value > best_value:
                best, best_value = v, value
        return best

    def work_here(self, st, seat):
        """The work at the hero's own location: its minions, its general, its taint."""
        c, here = st.c, st.loc[seat]
        g = st.general_at(here)
        if st.total(here):
            if st.total(here) >= 2:
                for card in st.hand[seat]:
                    if c.card_special[card] == SP_BATTLE_FURY:
                        return (A_SPECIAL, card, -1)
            return (A_ENGAGE, -1, -1)
        if g >= 0 and self.can_kill(st, seat, g, here):
            return (A_ATTACK, -1, g)
        if st.hero[seat] == CLERIC:
            return (A_SANCTIFY, -1, -1)
        return (A_HEAL_LAND, -1 if st.hero[seat] == DRUID else self.heal_card(st, seat, here), -1)

    def special(self, st, seat, card):
        """A free special card to play now (its trigger holds), as an action, or None."""
        c, sp = st.c, int(st.c.card_special[card])
        if sp < 0 or not st.special_playable(seat, sp):
            return None
        n_loc = N_LOCATIONS
        play = False
        arg = -1
        if sp == SP_PURITY:
            play = st.r.taint_crystals - st.crystals_left >= st.r.taint_crystals // 2
        elif sp == SP_ELVEN_ARCHERS:
            greens = sorted((st.total(v) for v in range(n_loc) if c.colour[v] == GREEN), reverse=True)
            play = sum(greens[:2]) >= 3
        elif sp == SP_BATTLE_STRATEGY:
            tops = sorted((st.total(v) for v in range(n_loc)), reverse=True)
            play = any(not st.slain[g] and st.step[g] >= 2 for g in range(4)) or sum(tops[:3]) >= 6
        elif sp == SP_KINGS_GUARD:
            ring = st.total(st.monarch) + sum(st.total(int(v)) for v in c.adjacency[st.monarch] if v >= 0)
            play = ring >= 3
        elif sp == SP_CAVALRY_SWEEP:
            play = sum(st.total(v) for v in range(n_loc)) >= 24
        elif sp == SP_DARK_VISIONS:
            play = True
        elif sp == SP_SPY:
            play = any(not st.slain[g] and st.heal_from[g] >= 0 for g in range(4))
        elif sp == SP_LOCAL_INFORMATION:
            play, arg = True, max(target_general(st), 0)
        return (A_SPECIAL, card, arg) if play else None

    def cheapest(self, st, seat, ok) -> int:
        """The card of fewest dice (the first in hand on a tie) for which ``ok`` holds, or -1."""
        best = -1
        for card in st.hand[seat]:
            if ok(card) and (best < 0 or st.c.card_dice[card] < st.c.card_dice[best]):
                best = card
        return best

    def goal(self, st, seat) -> int:
        """The location of most value less its distance (value > 0 only; the lowest index on a tie)."""
        c, r, here = st.c, st.r, st.loc[seat]
        tg = target_general(st)
        need_cards = tg >= 0 and self.dice_for(st, seat, tg) < self.w[INN_BELOW] and st.rumors < r.rumor_actions
        wounded = st.hp[seat] <= self.w[HEAL_AT]
        best, best_score = -1, 0.0
        for v in range(N_LOCATIONS):
            if not st.can_enter(seat, v):
                continue
            value = 0.0
            t = st.total(v)
            if t > 0:
                value = float(t)
                if t >= r.location_cap:
                    value += self.w[W_OVERRUN]
                if c.distance[st.monarch][v] <= 1:
                    value += self.w[W_CITY] * t
            g = st.general_at(v)
            if g >= 0 and (self.can_kill(st, seat, g, v) or self.rally(st, g)):
                value += self.w[W_GENERAL] + st.step[g]
            if need_cards and c.kind[v] == INN:
                value += W_INN
            if wounded and c.kind[v] in (CITY, INN):
                value += W_HEAL
            if value <= 0.0:
                continue
            score = value - c.distance[here][v]
            if best < 0 or score > best_score:
                best, best_score = v, score
        return best

    @staticmethod
    def card_cost(st, card: int, tg: int) -> int:
        """What spending a card costs the team: its dice, +3 when it can fight the target general
        (its colour, or any)."""
        colour = st.c.card_colour[card]
        return int(st.c.card_dice[card]) + (3 if colour == tg or colour == ANY else 0)

    def nearest(self, st, seat, targets, goal) -> int:
        """Of ``targets`` (index order), the one nearest ``goal`` (the first on a tie)."""
        best = -1
        for v in targets:
            if best < 0 or st.c.distance[v][goal] < st.c.distance[best][goal]:
                best = v
        return best

    def travel(self, st, seat, goal):
        """One action toward ``goal``: the move saving the most actions over walking (a card only
        when it saves ``travel_saving``; of two cards saving as much, the one of least worth by
        ``card_cost``), else a step along a shortest path."""
        c, here, h = st.c, st.loc[seat], st.hero[seat]
        d = int(c.distance[here][goal])
        tg = target_general(st)
        best, best_saving = None, 0
        others = [v for v in st.gates() if v != here and st.can_enter(seat, v)]

        def consider(kind, card, v, saving, free):
            nonlocal best, best_saving
            if v < 0 or saving < (1 if free else self.w[TRAVEL_SAVING]):
                return
            # more saved wins; on a tie a free move stays, and a card of fewer dice replaces a card
            if saving > best_saving or (saving == best_saving and best is not None and best[1] >= 0
                                        and self.card_cost(st, card, tg) < self.card_cost(st, best[1], tg)):
                best, best_saving = (kind, card, v), saving

        def move(kind, card, targets, free):
            v = self.nearest(st, seat, targets, goal)
            consider(kind, card, v, d - 1 - int(c.distance[v][goal]) if v >= 0 else 0, free)

        if h == PALADIN:
            move(A_NOBLE_STEED, -1, st.in_range(seat, 1, 2), True)
        if h == EAGLE_RIDER:
            move(A_EAGLE_FLIGHT, -1, st.in_range(seat, 1, 4), True)
        if h == WIZARD and not st.teleported:
            move(A_TELEPORT, -1, others, True)
        if st.gate[here]:
            move(A_GATE_TO_GATE, -1, others, True)
        for card in st.hand[seat]:
            icon = c.card_icon[card]
            if icon == HORSE_ICON:
                move(A_HORSE, card, st.in_range(seat, 1, 2), False)
            elif icon == EAGLE_ICON:
                move(A_EAGLE, card, st.in_range(seat, 1, 4), False)
            elif icon == GATE_ICON:
                move(A_GATE_CARD, card, st.gate_card_targets(seat, card), False)
            elif c.card_special[card] == SP_HAMMER:
                consider(A_SPECIAL, card, goal, d, False)  # costs no action: saves all d
        if best is not None:
            return best
        step = self.nearest(st, seat, [int(v) for v in c.adjacency[here] if v >= 0 and st.can_enter(seat, int(v))],
                            goal)
        return (A_WALK, -1, step) if step >= 0 else END

    # ---- the other decisions ----------------------------------------------------------------
    def commit(self, st, seat, g, eligible):
        return [card for card in eligible if st.c.card_special[card] != SP_BATTLE_LUCK]

    def next_roller(self, st, seat, g, waiting):
        """The next of the group's heroes to roll against a general: seat order from the active
        hero (the first of ``waiting``)."""
        return 0

    def battle_luck(self, st, seat, g):
        return True

    def discard(self, st, seat):
        """The hand position of least worth: dice, +2 for a living general's colour or any, +3 for
        a special card, +3 for the target general's colour (the first on a tie)."""
        c, best, best_keep = st.c, 0, 0
        tg = target_general(st)
        for i, card in enumerate(st.hand[seat]):
            colour = int(c.card_colour[card])
            keep = int(c.card_dice[card]) + (2 if colour == ANY or not st.slain[colour] else 0) + \
                (3 if c.card_special[card] >= 0 else 0) + (3 if colour == tg else 0)
            if i == 0 or keep < best_keep:
                best, best_keep = i, keep
        return best

    def shape(self, st, seat):
        """The colour of most minions here and next door (the first on a tie); none when there
        are none or the hero needs healing (an enemy shape may not enter the city or an inn)."""
        if st.hp[seat] <= self.w[HEAL_AT]:
            return NO_SHAPE
        here = st.loc[seat]
        count = list(st.minions[here])
        for v in st.c.adjacency[here]:
            if v >= 0:
                for col in range(4):
                    count[col] += st.minions[int(v)][col]
        best = NO_SHAPE
        for col in range(4):
            if count[col] > 0 and (best == NO_SHAPE or count[col] > count[best]):
                best = col
        return best

    def ground(self, st, seat):
        """Ground style (its reroll) when a living general is within 2 steps, else Sky (no wounds)."""
        return any(not st.slain[g] and st.c.distance[st.loc[seat]][st.c.path[g][st.step[g]]] <= 2 for g in range(4))

    def all_is_quiet(self, st, seat):
        r = st.r
        return (any(not st.slain[g] and st.life[g] > r.serious_zone[g] and st.step[g] == 3 for g in range(4))
                or st.total(st.monarch) >= r.monarch_city_limit - 2 or st.crystals_left <= 2)

    def militia(self, st, seat, card, line):
        row = st.c.darkness[card]
        if row[0] == DK_REGULAR:
            n, loc = int(row[3 * line - 1]), int(row[3 * line])
            return loc == st.monarch or (st.c.kind[loc] != INN and st.total(loc) + n > st.r.location_cap)
        if row[0] == DK_MONARCH:
            return st.total(st.monarch) >= st.r.monarch_city_limit - 2
        return False

    def strong_defenses(self, st, seat, card):
        return st.step[int(st.c.darkness[card][7])] + 1 >= 3

    def wisdom(self, st, seat, card, full):
        row = st.c.darkness[card]
        if full and row[0] == DK_MONARCH:
            return True
        return st.moves_general(card) and st.step[int(row[7])] + 1 >= 3

