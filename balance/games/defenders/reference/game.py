"""The plain-Python oracle of Defenders of the Realm (``rules/defenders-of-the-realm.md``).

One game: setup, then hero turns in seat order (day, evening, night, end of turn) until the
heroes win (the last general slain), lose (a general in Monarch City, a minion the supply
lacks, the last taint crystal, Monarch City overrun) or the turn cap stops it. Every rule the
spec leaves open is the ``Rules`` field it names; every choice is asked of the seat's team
policy (``team.py``) or follows the documented default (``docs/DEFENDERS.md``).

Streams (the kernel draws in the same order): stream 0 is chance: the hero deck's shuffle and
the starting hands, the Darkness deck's shuffles and draws, every die, every reshuffle, the
cards a penalty takes and a dead hero's replacement. Stream ``1 + seat`` is that seat's policy
(only ``random`` draws). ``SIDE_STREAM`` draws the team's heroes when not given. A deck's top
is the end of its list; a shuffle is Fisher-Yates from the last position down.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from balance.core.game import WIN_UNIT
from balance.core.kit import SIDE_STREAM
from balance.core.rng import PyStream

from ..catalogue import (ANY, BLACK, BLUE, CITY, CLERIC, DK_MONARCH, DK_PATROL, DK_REGULAR, DRUID,
                         DK_WAR_PARTY, DWARF, EAGLE_ICON, EAGLE_RIDER, GATE_ICON, GREEN, HORSE_ICON, INN,
                         MINION_TO_HIT, NEXT_LOCATION, PALADIN, PATH_STEPS, PENALTY_CARDS, PENALTY_WOUNDS, RANGER,
                         RED, ROGUE, SORCERESS, SP_ALL_QUIET, SP_BATTLE_FURY, SP_BATTLE_LUCK,
                         SP_BATTLE_STRATEGY, SP_CAVALRY_SWEEP, SP_DARK_VISIONS, SP_ELVEN_ARCHERS, SP_HAMMER,
                         SP_KINGS_GUARD, SP_LOCAL_INFORMATION, SP_MAGIC_GATE, SP_MILITIA, SP_PURITY, SP_SPY,
                         SP_STRONG_DEFENSES, WIZARD, catalogue)
from ..rules import Rules

# outcome codes: indices into GAME.outcomes
WON, GENERAL_IN_CITY, NO_MINIONS, NO_TAINT, CITY_OVERRUN, CAPPED = range(6)
NO_SHAPE = 4  # the Sorceress in her own form
EARLY, MID, LATE = range(3)

# day actions (kind, a, b), listed in this kind order (docs/DEFENDERS.md, "The day")
(A_END, A_WALK, A_HORSE, A_NOBLE_STEED, A_EAGLE, A_EAGLE_FLIGHT, A_GATE_CARD, A_GATE_TO_GATE, A_TELEPORT,
 A_BUILD_GATE, A_RUMORS, A_HEAL_LAND, A_SANCTIFY, A_HEAL_WOUNDS, A_ENGAGE, A_ARCHERY, A_FIREBALL, A_ATTACK,
 A_SLAYER, A_SPECIAL) = range(20)
MOVES = (A_WALK, A_HORSE, A_NOBLE_STEED, A_EAGLE, A_EAGLE_FLIGHT, A_GATE_CARD, A_GATE_TO_GATE, A_TELEPORT)
DAY_SPECIALS = (SP_MAGIC_GATE, SP_HAMMER, SP_PURITY, SP_ELVEN_ARCHERS, SP_BATTLE_STRATEGY, SP_BATTLE_FURY,
                SP_LOCAL_INFORMATION, SP_KINGS_GUARD, SP_CAVALRY_SWEEP, SP_DARK_VISIONS, SP_SPY)


class GameOver(Exception):
    """The game ended at once (a loss checked the moment it happens, or the last general slain)."""

    def __init__(self, outcome: int):
        super().__init__(outcome)
        self.outcome = outcome


@dataclass
class Combat:
    """One combat with a general, for the odds check: cards1/cards2 the committed 1- and 2-die
    cards (every participant), modifier and rerolls the lone participant's (-1 for a group)."""

    general: int
    life: int  # the general's life when the combat began
    heroes: int
    cards1: int
    cards2: int
    modifier: int
    rerolls: int
    slain: bool


@dataclass
class Game:
    """What one game produced (the tests compare these with the kernel's arrays)."""

    sides: list[int] = field(default_factory=list)  # the first hero of each seat
    outcome: int = CAPPED
    length: int = 0  # hero turns played
    win_units: list[int] = field(default_factory=list)
    scores: None = None  # no score: the team wins or loses
    champion: list[int] = field(default_factory=list)  # slain-general cards per seat
    deaths: list[int] = field(default_factory=list)  # heroes lost per seat
    slain: list[bool] = field(default_factory=list)  # per general
    general_step: list[int] = field(default_factory=list)  # per general at the end
    combats: list[Combat] = field(default_factory=list)
    minions: int = 0  # on the board at the end
    crystals: int = 0  # on the board at the end
    start_hands: list[list[int]] = field(default_factory=list)  # each seat's cards after setup


class State:
    """A game in play: the board, the decks, the generals and the heroes of every seat."""

    def __init__(self, rules: Rules, seed: int, game: int, heroes: list[int], policies: list):
        self.r = rules
        self.c = catalogue()
        self.n = rules.players
        self.chance = PyStream(seed, game, 0)
        self.policies = policies
        c = self.c
        self.monarch = c.monarch
        self.minions = [[0] * 4 for _ in range(len(c.names))]
        self.taint = [0] * len(c.names)
        self.gate = [bool(g) for g in c.start_gate]
        self.gates_left = rules.gate_tokens - sum(self.gate)
        self.supply = [rules.minions_per_colour] * 4
        self.crystals_left = rules.taint_crystals
        self.step = [0] * 4
        self.life = [int(x) for x in c.general_life]
        self.max_life = list(self.life)
        self.slain = [False] * 4
        self.heal_from = [-1] * 4  # the first turn whose end heals the general (-1: not healing)
        self.skip_heal = [0] * 4
        self.hero = list(heroes)
        self.ever = set(heroes)  # every hero that has been in play (replacements prefer others)
        self.loc = [self.monarch] * self.n
        self.hp = [int(c.hero_life[h]) for h in heroes]
        self.hand: list[list[int]] = [[] for _ in range(self.n)]
        self.champion = [0] * self.n
        self.slayer = [[False] * 4 for _ in range(self.n)]
        self.deaths = [0] * self.n
        self.shape = [NO_SHAPE] * self.n
        self.ground = [False] * self.n
        self.fresh_mount = [False] * self.n
        self.turn = 0
        self.active = 0
        self.actions = 0
        self.rumors = 0
        self.teleported = False
        self.ambush_used = False
        self.active_dead = False  # the active hero died this turn (its day and evening end)
        self.started = False  # setup done: a loss now ends a turn in progress
        self.combats: list[Combat] = []
        self.hero_deck = list(range(len(c.card_dice)))
        self.hero_discard: list[int] = []
        self.dark_deck = list(range(len(c.darkness)))
        self.dark_discard: list[int] = []

    # ---- chance ------------------------------------------------------------------------------
    def die(self) -> int:
        return 1 + self.chance.below(6)

    def shuffle(self, cards: list[int]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.chance.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def draw_hero_card(self) -> int:
        """The hero deck's top card (-1 when deck and discard are both empty); an empty deck is
        refilled from its shuffled discard."""
        if not self.hero_deck:
            if not self.hero_discard:
                return -1
            self.hero_deck, self.hero_discard = self.hero_discard, []
            self.shuffle(self.hero_deck)
        return self.hero_deck.pop()

    def give(self, seat: int, k: int) -> None:
        for _ in range(k):
            card = self.draw_hero_card()
            if card >= 0:
                self.hand[seat].append(card)

    def discard(self, seat: int, pos: int) -> int:
        card = self.hand[seat].pop(pos)
        self.hero_discard.append(card)
        return card

    def draw_darkness(self) -> int:
        if not self.dark_deck:
            self.dark_deck, self.dark_discard = self.dark_discard, []
            self.shuffle(self.dark_deck)
        return self.dark_deck.pop()

    # ---- the board ---------------------------------------------------------------------------
    def total(self, loc: int) -> int:
        return sum(self.minions[loc])

    def general_at(self, loc: int) -> int:
        """The living general standing at ``loc`` (the lowest index), or -1."""
        for g in range(4):
            if not self.slain[g] and self.c.path[g][self.step[g]] == loc:
                return g
        return -1

    def add_crystal(self, loc: int) -> None:
        self.taint[loc] += 1
        self.crystals_left -= 1
        if self.crystals_left <= 0:
            raise GameOver(NO_TAINT)

    def add_minion(self, colour: int, loc: int) -> None:
        """One minion from the supply onto a location with room (not Monarch City)."""
        self.minions[loc][colour] += 1
        self.supply[colour] -= 1
        if colour == RED and self.minions[loc][RED] == self.r.demon_taint_at:
            self.add_crystal(loc)

    def add_to_city(self, colour: int) -> None:
        self.minions[self.monarch][colour] += 1
        self.supply[colour] -= 1
        if self.total(self.monarch) >= self.r.monarch_city_limit:
            raise GameOver(CITY_OVERRUN)

    def arrive(self, colour: int, loc: int) -> bool:
        """One minion of ``colour`` onto ``loc`` when it has room (Monarch City always has):
        True; a location at its cap takes none: False (the caller taints it)."""
        if loc == self.monarch:
            self.add_to_city(colour)
        elif self.total(loc) < self.r.location_cap:
            self.add_minion(colour, loc)
        else:
            return False
        return True

    def place(self, colour: int, n: int, loc: int, direct: bool = True) -> None:
        """A Darkness instruction: ``n`` minions of ``colour`` onto ``loc`` (spec, "Placement")."""
        if self.c.kind[loc] == INN:
            return
        for _ in range(n):
            if self.supply[colour] == 0:
                if direct or self.r.supply_loss_scope == "any":
                    raise GameOver(NO_MINIONS)
                continue
            if not self.arrive(colour, loc):
                self.add_crystal(loc)
                self.overrun(colour, loc)
                if self.r.overrun_per_instruction:
                    return

    def overrun(self, colour: int, loc: int) -> None:
        for v in self.c.adjacency[loc]:
            if v < 0:
                break
            v = int(v)
            if self.c.kind[v] == INN:
                continue
            if self.supply[colour] == 0:
                if self.r.supply_loss_scope == "any":
                    raise GameOver(NO_MINIONS)
                continue
            if not self.arrive(colour, v):
                self.add_crystal(v)

    def remove(self, loc: int, colour: int, k: int) -> None:
        self.minions[loc][colour] -= k
        self.supply[colour] += k

    def clear(self, loc: int) -> None:
        for col in range(4):
            self.remove(loc, col, self.minions[loc][col])

    def war_status(self) -> int:
        dead = sum(self.slain)
        return EARLY if dead == 0 else LATE if dead >= self.r.late_war_after else MID

    def moves_general(self, card: int) -> bool:
        """Whether the card's general line would move its general now."""
        row = self.c.darkness[card]
        g, target = int(row[7]), int(row[8])
        if g < 0 or self.slain[g] or self.life[g] <= self.r.serious_zone[g]:
            return False
        return target == NEXT_LOCATION or target == self.c.path[g][self.step[g] + 1]

    def general_line(self, card: int) -> None:
        row = self.c.darkness[card]
        if not self.moves_general(card):
            return
        g, k = int(row[7]), int(row[9])
        self.step[g] += 1
        if self.step[g] == PATH_STEPS:
            raise GameOver(GENERAL_IN_CITY)
        self.place(g, k, int(self.c.path[g][self.step[g]]))

    def threat_order(self) -> list[int]:
        """Locations by minions (most first), then nearer Monarch City, then index: the default
        target order of the special cards."""
        d = self.c.distance[self.monarch]
        return sorted(range(len(self.c.names)), key=lambda v: (-self.total(v), d[v], v))

    # ---- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        c, r = self.c, self.r
        self.shuffle(self.hero_deck)
        for s in range(self.n):
            self.give(s, r.start_hand)
        for g in range(4):
            start = int(c.path[g][0])
            for _ in range(3):
                self.minions[start][g] += 1
                self.supply[g] -= 1
        self.taint[int(c.path[RED][0])] += r.start_taint
        self.crystals_left -= r.start_taint
        self.shuffle(self.dark_deck)
        chosen: set[int] = set()
        taken = 0
        while taken < 3 and self.dark_deck:  # round A: 2 minions on 6 empty, distinct locations
            row = c.darkness[self.dark_deck.pop()]
            if row[0] != DK_REGULAR:
                continue
            l1, l2 = int(row[3]), int(row[6])
            if l1 == l2 or l1 in chosen or l2 in chosen or self.total(l1) or self.total(l2):
                continue
            for col, loc in ((int(row[1]), l1), (int(row[4]), l2)):
                chosen.add(loc)
                for _ in range(2):
                    self.minions[loc][col] += 1
                    self.supply[col] -= 1
            taken += 1
        taken = 0
        while taken < 3 and self.dark_deck:  # round B: 1 minion each, none to 4
            row = c.darkness[self.dark_deck.pop()]
            if row[0] != DK_REGULAR:
                continue
            l1, l2 = int(row[3]), int(row[6])
            if self.total(l1) + 1 + (l1 == l2) > r.location_cap or self.total(l2) + 1 + (l1 == l2) > r.location_cap:
                continue
            for col, loc in ((int(row[1]), l1), (int(row[4]), l2)):
                self.minions[loc][col] += 1
                self.supply[col] -= 1
                if col == RED and self.minions[loc][RED] == r.demon_taint_at:
                    self.taint[loc] += 1
                    self.crystals_left -= 1
            taken += 1
        self.dark_deck = list(range(len(c.darkness)))
        self.shuffle(self.dark_deck)

    # ---- heroes ------------------------------------------------------------------------------
    def max_hp(self, seat: int) -> int:
        return int(self.c.hero_life[self.hero[seat]])

    def wound(self, seat: int, w: int) -> bool:
        """Take ``w`` wounds; True when the hero died (and was replaced)."""
        if w <= 0:
            return False
        self.hp[seat] -= w
        if seat == self.active and self.r.wound_limits_actions:
            self.actions = min(self.actions, max(self.hp[seat], 0))
        if self.hp[seat] <= 0:
            self.die_hero(seat)
            return True
        return False

    def die_hero(self, seat: int) -> None:
        """The hero leaves; its cards are discarded; its player takes a new hero in Monarch City."""
        self.deaths[seat] += 1
        while self.hand[seat]:
            self.discard(seat, 0)
        # the hero that died has left the game: with no unused hero left it is one of the dead
        # a fresh copy may be taken of (a pool as large as the team has no other)
        others = {h for p, h in enumerate(self.hero) if p != seat}
        fresh = [h for h in self.r.pool if h not in others and h not in self.ever]
        options = fresh or [h for h in self.r.pool if h not in others]
        new = options[self.chance.below(len(options))] if len(options) > 1 else options[0]
        self.hero[seat] = new
        self.ever.add(new)
        self.loc[seat] = self.monarch
        self.hp[seat] = self.max_hp(seat)
        self.shape[seat] = NO_SHAPE
        self.ground[seat] = False
        self.fresh_mount[seat] = False
        self.give(seat, self.r.start_hand)
        if seat == self.active:
            self.actions = 0
            self.active_dead = True

    def end_of_day_wounds(self, seat: int) -> int:
        """Wounds from the minions at the hero's location (spec example 6)."""
        m, h = self.minions[self.loc[seat]], self.hero[seat]
        if sum(m) == 0 or (h == EAGLE_RIDER and not self.ground[seat]):
            return 0
        w = 0 if h == ROGUE else sum(m[col] for col in range(4) if not (h == SORCERESS and self.shape[seat] == col))
        undead_form = h == SORCERESS and self.shape[seat] == BLACK and not self.r.undead_form_fear
        if m[BLACK] and h != PALADIN and not undead_form:
            w += 1
        if h in (PALADIN, DWARF):
            w -= 1
        return max(w, 0)

    def turn_undead(self, seat: int) -> None:
        """The Cleric's undead leave her location one at a time, each to the adjacent location
        (not an inn or Monarch City) with the fewest minions and room; the rest stay."""
        here = self.loc[seat]
        while self.minions[here][BLACK]:
            best = -1
            for v in self.c.adjacency[here]:
                if v < 0:
                    break
                v = int(v)
                if self.c.kind[v] in (INN, CITY) or self.total(v) >= self.r.location_cap:
                    continue
                if best < 0 or self.total(v) < self.total(best):
                    best = v
            if best < 0:
                return
            self.minions[here][BLACK] -= 1
            self.minions[best][BLACK] += 1

    # ---- dice --------------------------------------------------------------------------------
    def hits(self, face: int, modifier: int, to_hit: int) -> bool:
        if face == 1 and self.r.natural_one_misses:
            return False
        return face + modifier >= to_hit

    def engage(self, seat: int, loc: int, archery: bool = False) -> None:
        """One die per minion at ``loc`` (colour order), each aimed at its minion; rerolls as the
        hero allows; each hit removes its minion."""
        h = self.hero[seat]
        colours = [col for col in range(4) for _ in range(self.minions[loc][col])]
        ambush = h == SORCERESS and self.ambush_ready() and self.shape[seat] in colours
        mods = []
        for col in colours:
            m = 0
            if h == CLERIC and col in (RED, BLACK):
                m += 1
            if h == RANGER and not archery and self.c.colour[self.loc[seat]] == GREEN:
                m += 1
            if ambush and col == self.shape[seat]:
                m += 2
            mods.append(m)
        if ambush:
            self.ambush_used = True
        faces = [self.die() for _ in colours]
        if h == EAGLE_RIDER and self.ground[seat]:
            for i, col in enumerate(colours):
                if not self.hits(faces[i], mods[i], MINION_TO_HIT[col]):
                    faces[i] = self.die()
        if h == DWARF:
            for i, col in enumerate(colours):
                if col == BLUE and not self.hits(faces[i], mods[i], MINION_TO_HIT[col]):
                    faces[i] = self.die()
        for i, col in enumerate(colours):
            if self.hits(faces[i], mods[i], MINION_TO_HIT[col]):
                self.remove(loc, col, 1)

    def ambush_ready(self) -> bool:
        """The Sorceress' Ambush applies: her first attack this turn, or every one."""
        return self.r.ambush_scope == "every" or not self.ambush_used

    def fireball(self, loc: int) -> None:
        colours = [col for col in range(4) for _ in range(self.minions[loc][col])]
        faces = [self.die() for _ in colours]
        for face, col in zip(faces, colours):
            if face >= 2:
                self.remove(loc, col, 1)

    def heal_land(self, loc: int, dice: int) -> None:
        faces = [self.die() for _ in range(dice)]
        if max(faces) >= 5 and self.taint[loc] > 0:
            self.taint[loc] -= 1
            self.crystals_left += 1

    # ---- combat with a general ---------------------------------------------------------------
    def _next_roller(self, s: int, g: int, i: int, *lists) -> None:
        """Who rolls next: the active player picks among the participants still to roll, having
        seen each result (the spec's combat step 4); the pick moves to place ``i`` of every list
        (participants, commitments, Battle Lucks, dice), the others keep their order."""
        j = i + self.policies[s].next_roller(self, s, g, lists[0][i:])
        for values in lists:
            values.insert(i, values.pop(j))

    def attack_general(self, g: int) -> None:
        c, r, s = self.c, self.r, self.active
        loc = self.loc[s]
        present = [s] + [(s + k) % self.n for k in range(1, self.n) if self.loc[(s + k) % self.n] == loc]
        commits, lucks, parts = [], [], []
        for p in present:
            eligible = [card for card in self.hand[p] if c.card_colour[card] in (g, ANY)]
            cards = self.policies[p].commit(self, p, g, eligible) if eligible else []
            if p != s and r.group_scope == "committed" and not cards:
                continue
            for card in cards:  # committed cards leave the hand at once, in commit order
                self.hand[p].remove(card)
            luck = -1
            if g != BLACK:
                held = [card for card in self.hand[p] if c.card_special[card] == SP_BATTLE_LUCK]
                if held and self.policies[p].battle_luck(self, p, g):
                    luck = held[0]
                    self.hand[p].remove(luck)
            parts.append(p)
            commits.append(list(cards))
            lucks.append(luck)
        life0 = self.life[g]
        skill_curse, skill_parry, no_rerolls = g == RED, g == GREEN, g == BLACK
        dice = []
        for cards in commits:
            n = 0
            for card in cards:
                if skill_curse and self.die() == 1:
                    continue
                n += int(c.card_dice[card])
            dice.append(n)
        to_hit = r.general_to_hit[g]
        pool = 0
        killer = -1
        mods, passes = [], []
        for i in range(len(parts)):
            if 0 < i < len(parts) - 1 and not self.slain[g]:  # two or more still to roll
                self._next_roller(s, g, i, parts, commits, lucks, dice)
            p = parts[i]
            h = self.hero[p]
            m = 0
            if h == RANGER and c.colour[loc] == GREEN:
                m += 1
            if h == SORCERESS and p == s and self.shape[p] == g and self.ambush_ready():
                m += 1
                self.ambush_used = True
            passes_p = 0 if no_rerolls else (int(h == EAGLE_RIDER and self.ground[p]) + int(h == DWARF and g == BLUE)
                                             + int(lucks[i] >= 0))
            mods.append(m)
            passes.append(passes_p)
            if self.slain[g]:
                continue
            faces = [self.die() for _ in range(dice[i])]
            for _ in range(passes_p):
                for j in range(len(faces)):
                    if not self.hits(faces[j], m, to_hit):
                        faces[j] = self.die()
            hit = sum(self.hits(f, m, to_hit) for f in faces)
            if skill_parry:
                if self.r.parry_scope == "own":
                    pool = 0  # a participant's 1s cancel its own hits only
                pool += sum(f == 1 for f in faces)
                cancel = min(pool, hit)
                pool -= cancel
                hit -= cancel
            if hit:
                self.life[g] = max(0, self.life[g] - hit)
                if self.life[g] == 0:
                    self.slain[g] = True
                    killer = p
        cards1 = sum(int(c.card_dice[card]) == 1 for cards in commits for card in cards)
        cards2 = sum(len(cards) for cards in commits) - cards1
        alone = len(parts) == 1
        self.combats.append(Combat(g, life0, len(parts), cards1, cards2, mods[0] if alone else -1,
                                   passes[0] if alone else -1, self.slain[g]))
        for i, p in enumerate(parts):  # committed cards go to the discard, used or not
            self.hero_discard.extend(commits[i])
            if lucks[i] >= 0:
                self.hero_discard.append(lucks[i])
        if self.slain[g]:
            self.champion[killer] += 1
            self.slayer[killer][g] = True
            self.heal_from[g] = -1
            for p in parts:
                self.give(p, r.slain_reward_cards)
            if all(self.slain):
                raise GameOver(WON)
            return
        if g == BLUE:
            self.life[g] = self.max_life[g]
            self.heal_from[g] = -1
        elif self.life[g] < self.max_life[g]:
            serious = self.life[g] <= r.serious_zone[g]
            self.heal_from[g] = self.turn + (self.n if serious else 1)
        self.penalty(g, parts)

    def penalty(self, g: int, parts: list[int]) -> None:
        """Each participant of a failed combat: wounds and lost cards, then to Monarch City."""
        fixed_w, die_w = PENALTY_WOUNDS[g]
        fixed_c, die_c = PENALTY_CARDS[g]
        shared = self.r.penalty_roll == "shared"
        roll = None
        for p in parts:
            h = self.hero[p]
            if h == EAGLE_RIDER and not self.ground[p]:
                self.loc[p] = self.monarch
                continue
            if roll is None or not shared:
                w = fixed_w + (self._d(die_w) if die_w else 0)
                k = fixed_c + (self._d(die_c) if die_c else 0)
                roll = (w, k)
            w, k = roll
            if h in (PALADIN, DWARF):
                w = max(0, w - 1)
            if k < 0:
                while self.hand[p]:
                    self.discard(p, 0)
            else:
                for _ in range(min(k, len(self.hand[p]))):
                    self.discard(p, self.chance.below(len(self.hand[p])))
            self.loc[p] = self.monarch
            self.wound(p, w)

    def _d(self, sides: int) -> int:
        face = self.die()
        return (face + 1) // 2 if sides == 3 else face

    # ---- the day -----------------------------------------------------------------------------
    def can_enter(self, seat: int, loc: int) -> bool:
        """The Sorceress in an enemy's shape may not enter Monarch City or an inn."""
        if self.hero[seat] == SORCERESS and self.shape[seat] != NO_SHAPE:
            return self.c.kind[loc] not in (CITY, INN)
        return True

    def in_range(self, seat: int, low: int, high: int) -> list[int]:
        here = self.loc[seat]
        return [v for v in range(len(self.c.names))
                if low <= self.c.distance[here][v] <= high and self.can_enter(seat, v)]

    def gates(self) -> list[int]:
        return [v for v in range(len(self.c.names)) if self.gate[v]]

    def gate_card_targets(self, seat: int, card: int) -> list[int]:
        here = self.loc[seat]
        named = int(self.c.card_location[card])
        return [v for v in range(len(self.c.names))
                if (self.gate[v] or v == named) and v != here and self.can_enter(seat, v)]

    def special_playable(self, seat: int, sp: int) -> bool:
        here, c = self.loc[seat], self.c
        if sp == SP_MAGIC_GATE:
            return self.gates_left > 0 and not all(self.gate)
        if sp == SP_HAMMER:
            return True
        if sp == SP_PURITY:
            return sum(self.taint) > 0
        if sp == SP_ELVEN_ARCHERS:
            return any(self.total(v) for v in range(len(c.names)) if c.colour[v] == GREEN)
        if sp == SP_BATTLE_STRATEGY:
            return any(self.total(v) for v in range(len(c.names))) or any(
                not self.slain[g] and self.step[g] > 0 for g in range(4))
        if sp == SP_BATTLE_FURY:
            return self.actions > 0 and self.total(here) > 0
        if sp == SP_LOCAL_INFORMATION:
            return c.kind[here] == INN
        if sp == SP_KINGS_GUARD:
            return self.total(self.monarch) + sum(self.total(int(v)) for v in c.adjacency[self.monarch] if v >= 0) > 0
        if sp == SP_CAVALRY_SWEEP:
            return any(self.total(v) for v in range(len(c.names)))
        if sp == SP_DARK_VISIONS:
            return len(self.dark_deck) > 0
        if sp == SP_SPY:
            return any(not self.slain[g] and self.life[g] < self.max_life[g] for g in range(4))
        return False

    def hammer_default(self, seat: int) -> int:
        """The Hammer of Valor's default destination: the first location in threat order the
        hero may enter, other than its own."""
        for v in self.threat_order():
            if v != self.loc[seat] and self.can_enter(seat, v):
                return v
        return self.loc[seat]

    def day_options(self, seat: int) -> list[tuple[int, int, int]]:
        """The legal day actions (kind, card, arg) in the canonical order: by kind, then card in
        hand order, then destination or colour in index order. Ending the day comes first."""
        c, here, h, hand = self.c, self.loc[seat], self.hero[seat], self.hand[seat]
        opts = [(A_END, -1, -1)]
        if self.actions > 0:
            opts += [(A_WALK, -1, int(v)) for v in c.adjacency[here] if v >= 0 and self.can_enter(seat, int(v))]
            near, far = self.in_range(seat, 1, 2), self.in_range(seat, 1, 4)
            opts += [(A_HORSE, card, v) for card in hand if c.card_icon[card] == HORSE_ICON for v in near]
            if h == PALADIN:
                opts += [(A_NOBLE_STEED, -1, v) for v in near]
            opts += [(A_EAGLE, card, v) for card in hand if c.card_icon[card] == EAGLE_ICON for v in far]
            if h == EAGLE_RIDER:
                opts += [(A_EAGLE_FLIGHT, -1, v) for v in far]
            opts += [(A_GATE_CARD, card, v) for card in hand if c.card_icon[card] == GATE_ICON
                     for v in self.gate_card_targets(seat, card)]
            others = [v for v in self.gates() if v != here and self.can_enter(seat, v)]
            if self.gate[here]:
                opts += [(A_GATE_TO_GATE, -1, v) for v in others]
            if h == WIZARD and not self.teleported:
                opts += [(A_TELEPORT, -1, v) for v in others]
            if self.gates_left > 0 and not self.gate[here]:
                opts += [(A_BUILD_GATE, card, -1) for card in hand if c.card_location[card] == here]
            if c.kind[here] == INN and self.rumors < self.r.rumor_actions:
                opts += [(A_RUMORS, -1, col) for col in range(4)]
            if self.taint[here] > 0 and (self.r.heal_land_with_minions or self.total(here) == 0):
                if h == DRUID:  # Cleanse Corruption: no card
                    opts.append((A_HEAL_LAND, -1, -1))
                elif c.colour[here] >= 0:
                    opts += [(A_HEAL_LAND, card, -1) for card in hand if c.card_colour[card] == c.colour[here]]
            if h == CLERIC and self.taint[here] > 0 and self.total(here) == 0:
                opts.append((A_SANCTIFY, -1, -1))
            if self.hp[seat] < self.max_hp(seat) and self.total(here) == 0 and self.general_at(here) < 0:
                opts.append((A_HEAL_WOUNDS, -1, -1))
            if self.total(here) > 0:
                opts.append((A_ENGAGE, -1, -1))
            if h == RANGER:
                opts += [(A_ARCHERY, -1, int(v)) for v in c.adjacency[here] if v >= 0 and self.total(int(v)) > 0]
            if h == WIZARD and self.total(here) > 0:
                opts += [(A_FIREBALL, card, -1) for card in hand
                         if c.card_colour[card] < 4 and self.minions[here][c.card_colour[card]] > 0]
            if self.total(here) == 0:
                opts += [(A_ATTACK, -1, g) for g in range(4)
                         if not self.slain[g] and c.path[g][self.step[g]] == here]
            opts += [(A_SLAYER, -1, col) for col in range(4) if self.slayer[seat][col] and self.minions[here][col]]
        for card in hand:
            sp = int(c.card_special[card])
            if sp not in DAY_SPECIALS or not self.special_playable(seat, sp):
                continue
            if sp == SP_LOCAL_INFORMATION:
                opts += [(A_SPECIAL, card, col) for col in range(4)]
            elif sp == SP_HAMMER:
                opts.append((A_SPECIAL, card, self.hammer_default(seat)))
            else:
                opts.append((A_SPECIAL, card, -1))
        return opts

    def spend(self, seat: int, card: int) -> None:
        self.hand[seat].remove(card)
        self.hero_discard.append(card)

    def search(self, seat: int, draws: int, colour: int) -> None:
        """Rumors and Local Information: draw, keep the named colour and the special cards."""
        for _ in range(draws):
            card = self.draw_hero_card()
            if card < 0:
                return
            if self.c.card_colour[card] == colour or self.c.card_special[card] >= 0:
                self.hand[seat].append(card)
            else:
                self.hero_discard.append(card)

    def do_action(self, seat: int, action: tuple[int, int, int]) -> None:
        kind, card, arg = action
        c, here, h = self.c, self.loc[seat], self.hero[seat]
        free = (kind == A_SPECIAL and c.card_special[card] != SP_BATTLE_FURY) or \
            (kind == A_FIREBALL and not self.r.fireball_action)
        if not free:
            self.actions -= 1
        if kind in MOVES:
            if card >= 0:
                self.spend(seat, card)
            if kind == A_TELEPORT:
                self.teleported = True
            self.loc[seat] = arg
        elif kind == A_BUILD_GATE:
            self.spend(seat, card)
            self.gate[here] = True
            self.gates_left -= 1
        elif kind == A_RUMORS:
            self.rumors += 1
            self.search(seat, 5 if h == ROGUE else self.r.rumor_draw, arg)
        elif kind == A_HEAL_LAND:
            if card >= 0:
                self.spend(seat, card)
            self.heal_land(here, 3 if h == SORCERESS else 2)
        elif kind == A_SANCTIFY:
            self.heal_land(here, 1)
        elif kind == A_HEAL_WOUNDS:
            full = c.kind[here] in (CITY, INN)
            self.hp[seat] = self.max_hp(seat) if full else min(self.max_hp(seat), self.hp[seat] + self.r.heal_elsewhere)
        elif kind == A_ENGAGE:
            self.engage(seat, here)
        elif kind == A_ARCHERY:
            self.engage(seat, arg, archery=True)
        elif kind == A_FIREBALL:
            self.spend(seat, card)
            self.fireball(here)
        elif kind == A_ATTACK:
            self.attack_general(arg)
        elif kind == A_SLAYER:
            self.remove(here, arg, self.minions[here][arg])
        elif kind == A_SPECIAL:
            self.spend(seat, card)
            self.play_special(seat, int(c.card_special[card]), arg)

    def play_special(self, seat: int, sp: int, arg: int) -> None:
        """A day special card's effect with its default targets (docs/DEFENDERS.md)."""
        c, here, n_loc = self.c, self.loc[seat], len(self.c.names)
        if sp == SP_MAGIC_GATE:
            v = next(v for v in self.threat_order() if not self.gate[v])
            self.gate[v] = True
            self.gates_left -= 1
        elif sp == SP_HAMMER:
            self.loc[seat] = arg
        elif sp == SP_PURITY:
            v = max(range(n_loc), key=lambda v: (self.taint[v], -v))
            self.crystals_left += self.taint[v]
            self.taint[v] = 0
        elif sp == SP_ELVEN_ARCHERS:
            greens = sorted((v for v in range(n_loc) if c.colour[v] == GREEN and self.total(v)),
                            key=lambda v: (-self.total(v), v))
            for v in greens[:2]:
                self.clear(v)
        elif sp == SP_BATTLE_STRATEGY:
            for v in [v for v in self.threat_order() if self.total(v)][:3]:
                self.clear(v)
            living = [g for g in range(4) if not self.slain[g] and self.step[g] > 0]
            if living:
                g = max(living, key=lambda g: (self.step[g], -g))
                self.step[g] -= 1
        elif sp == SP_BATTLE_FURY:
            self.clear(here)
        elif sp == SP_LOCAL_INFORMATION:
            self.search(seat, 5, arg)
        elif sp == SP_KINGS_GUARD:
            ring = sorted((int(v) for v in c.adjacency[self.monarch] if v >= 0), key=lambda v: (-self.total(v), v))
            left = 6
            for v in [self.monarch] + ring:
                for col in range(4):
                    k = min(left, self.minions[v][col])
                    self.remove(v, col, k)
                    left -= k
        elif sp == SP_CAVALRY_SWEEP:
            self.cavalry_sweep()
        elif sp == SP_DARK_VISIONS:
            k = min(5, len(self.dark_deck))
            top = self.dark_deck[len(self.dark_deck) - k:]  # bottom .. top
            kept = [card for card in top if not self.moves_general(card)]
            self.dark_discard.extend(card for card in reversed(top) if self.moves_general(card))
            self.dark_deck[len(self.dark_deck) - k:] = kept
        elif sp == SP_SPY:
            g = min((g for g in range(4) if not self.slain[g] and self.life[g] < self.max_life[g]),
                    key=lambda g: (self.life[g], g))
            self.skip_heal[g] += 1

    def cavalry_sweep(self) -> None:
        """From the first location in threat order, along adjacent steps to the neighbour with
        the most minions not yet swept: up to 2 per location, 6 in all, a dragonkin counting 2."""
        v, budget, seen = self.threat_order()[0], 6, set()
        while budget > 0 and v >= 0:
            seen.add(v)
            units = min(2, budget)
            for col in range(4):
                cost = 2 if col == BLUE else 1
                while self.minions[v][col] and cost <= units:
                    self.remove(v, col, 1)
                    units -= cost
                    budget -= cost
            nxt = -1
            for u in self.c.adjacency[v]:
                u = int(u)
                if u >= 0 and u not in seen and self.total(u) and (nxt < 0 or self.total(u) > self.total(nxt)):
                    nxt = u
            v = nxt

    def day(self, seat: int) -> None:
        while not self.active_dead:
            action = self.policies[seat].day(self, seat)
            if action[0] == A_END:
                return
            self.do_action(seat, action)

    # ---- evening, night, end of turn --------------------------------------------------------
    def evening(self, seat: int) -> None:
        h = self.hero[seat]
        self.give(seat, self.r.evening_draw + int(h == ROGUE and bool(self.c.chest[self.loc[seat]])))
        while len(self.hand[seat]) > self.r.hand_limit:
            self.discard(seat, self.policies[seat].discard(self, seat))

    def night_card(self, order: list[int], sp: int, ask) -> bool:
        """The first seat (from the active one) holding special ``sp`` whose policy plays it."""
        for p in order:
            for card in self.hand[p]:
                if self.c.card_special[card] == sp:
                    if ask(p):
                        self.spend(p, card)
                        return True
                    break
        return False

    def night(self, seat: int) -> None:
        order = [(seat + k) % self.n for k in range(self.n)]
        if self.night_card(order, SP_ALL_QUIET, lambda p: self.policies[p].all_is_quiet(self, p)):
            return
        status = self.war_status()
        k = self.r.war_cards[status]
        wizard = next((p for p in order if self.hero[p] == WIZARD), -1)
        wisdom_used = False
        for i in range(k):
            full = not (status != EARLY and k >= 2 and i == k - 1)
            card = self.draw_darkness()
            if wizard >= 0 and (status != EARLY or not wisdom_used) and \
                    self.policies[wizard].wisdom(self, wizard, card, full):
                wisdom_used = True
                self.dark_discard.append(card)
                card = self.draw_darkness()
            self.resolve(card, full, order)

    def militia(self, order: list[int], card: int, line: int) -> bool:
        return self.night_card(order, SP_MILITIA, lambda p: self.policies[p].militia(self, p, card, line))

    def resolve(self, card: int, full: bool, order: list[int]) -> None:
        row = self.c.darkness[card]
        kind = int(row[0])
        if full and kind == DK_REGULAR:
            for line in (1, 2):
                colour, n, loc = int(row[3 * line - 2]), int(row[3 * line - 1]), int(row[3 * line])
                if not self.militia(order, card, line):
                    self.place(colour, n, loc)
        elif full and kind == DK_PATROL:
            if not self.militia(order, card, 0):
                no_orc = self.r.orc_patrol_target == "no_orc"
                for v in range(len(self.c.names)):
                    if self.c.colour[v] == GREEN and (self.minions[v][GREEN] == 0 if no_orc else self.total(v) == 0):
                        self.place(GREEN, 1, v)
        elif full and kind == DK_WAR_PARTY:
            if not self.militia(order, card, 0):
                for v in range(len(self.c.names)):
                    if self.minions[v][GREEN] == 1 and self.total(v) == 1:
                        self.place(GREEN, 1, v)
        elif full and kind == DK_MONARCH and self.r.monarch_card == "spread":
            if not self.militia(order, card, 0):
                ring = [int(v) for v in self.c.adjacency[self.monarch] if v >= 0]
                for col in range(4):
                    if any(self.minions[v][col] for v in ring):
                        self.place(col, 1, self.monarch)
            self.dark_deck, self.dark_discard = list(range(len(self.c.darkness))), []
            self.shuffle(self.dark_deck)
            self.hero_deck, self.hero_discard = self.hero_deck + self.hero_discard, []
            self.shuffle(self.hero_deck)
            return
        if kind in (DK_REGULAR, DK_PATROL, DK_WAR_PARTY) and self.moves_general(card):
            if not self.night_card(order, SP_STRONG_DEFENSES,
                                   lambda p: self.policies[p].strong_defenses(self, p, card)):
                self.general_line(card)
        self.dark_discard.append(card)

    def heal_generals(self) -> None:
        for g in range(4):
            if self.slain[g] or self.heal_from[g] < 0 or self.turn < self.heal_from[g]:
                continue
            if self.skip_heal[g]:
                self.skip_heal[g] -= 1
                continue
            self.life[g] += 1
            if self.life[g] >= self.max_life[g]:
                self.life[g] = self.max_life[g]
                self.heal_from[g] = -1

    def hero_turn(self, seat: int) -> None:
        r, c = self.r, self.c
        self.active, self.rumors, self.teleported, self.ambush_used, self.active_dead = seat, 0, False, False, False
        h = self.hero[seat]
        if h == SORCERESS:
            self.shape[seat] = self.policies[seat].shape(self, seat)
        if h == EAGLE_RIDER:
            self.ground[seat] = self.policies[seat].ground(self, seat)
        here = self.loc[seat]
        self.actions = (self.hp[seat] + int(h == DWARF and c.colour[here] == RED)
                        + int(h == RANGER and c.colour[here] == GREEN) + int(self.fresh_mount[seat]))
        self.fresh_mount[seat] = False
        self.day(seat)
        if not self.active_dead:
            if self.hero[seat] == CLERIC:
                self.turn_undead(seat)
            if r.wound_check == "end_of_day":
                self.wound(seat, self.end_of_day_wounds(seat))
        if not self.active_dead:
            here = self.loc[seat]
            fresh = here == self.monarch or c.colour[here] == BLUE
            if self.hero[seat] == EAGLE_RIDER and self.ground[seat] and fresh:
                self.fresh_mount[seat] = True
            self.evening(seat)
        self.night(seat)
        if r.wound_check == "end_of_turn":
            self.active_dead = False
            self.wound(seat, self.end_of_day_wounds(seat))
        self.heal_generals()
        self.turn += 1


def draw_heroes(rules: Rules, seed: int, game: int) -> list[int]:
    """The team's distinct heroes (indices into catalogue.HEROES) from the side stream: a
    partial Fisher-Yates over the rules' pool, as kit.draw_distinct."""
    stream = PyStream(seed, game, SIDE_STREAM)
    pool = list(range(len(rules.pool)))
    for i in range(rules.players):
        j = i + stream.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return [rules.pool[k] for k in pool[:rules.players]]


def play_game(rules: Rules, strategies: list, seed: int, game: int, sides: list[int] | None = None) -> Game:
    """Play game number ``game`` of a run with ``seed``. strategies: one ``Strategy`` per seat;
    sides: the hero index of each seat, or None to draw them as the kernel does."""
    from .team import policy

    n = rules.players
    heroes = list(sides) if sides is not None else draw_heroes(rules, seed, game)
    st = State(rules, seed, game, heroes, [policy(strategies[p], PyStream(seed, game, 1 + p)) for p in range(n)])
    outcome = CAPPED
    start_hands: list[list[int]] = []
    try:
        st.setup()
        st.started = True
        start_hands = [list(h) for h in st.hand]
        while st.turn < rules.turn_cap:
            st.hero_turn(st.turn % n)
    except GameOver as end:
        outcome = end.outcome
        st.turn += int(st.started)  # the turn it ended in counts
    return Game(sides=heroes, outcome=outcome, length=st.turn,
                win_units=[WIN_UNIT if outcome == WON else 0] * n, champion=st.champion, deaths=st.deaths,
                slain=st.slain, general_step=st.step, combats=st.combats,
                minions=sum(map(sum, st.minions)), crystals=sum(st.taint), start_hands=start_hands)
