"""Defenders of the Realm (issue 13): the components, the rules, the reference engine and the
spec's worked examples (``rules/defenders-of-the-realm.md``, "Worked examples": each
``test_example_N`` is example N), invariants of play, the kernel playing the reference's games,
the engine's tables, the report's verdict lines on planted truths, and the spec's other
[decision]s as rules keys."""
import functools
import re
from collections import Counter
from itertools import combinations

import numpy as np
import polars as pl
import pytest

from balance.core.errors import BalanceError
from balance.core.rng import PyStream
from balance.core.strategy import parse_strategy
from balance.games.defenders import catalogue as cat
from balance.games.defenders import kernel as K
from balance.games.defenders import report as R
from balance.games.defenders.catalogue import (BLACK, BLUE, GREEN, HEROES, PATH_STEPS, RED, SP_BATTLE_LUCK,
                                               catalogue)
from balance.games.defenders.engine import Engine, champion_units
from balance.games.defenders.reference import game as G
from balance.games.defenders.reference import team
from balance.games.defenders.reference.team import hit_chance, policy
from balance.games.defenders.rules import Rules
from balance.games.defenders.strategies import STRATEGIES

C = catalogue()


def loc(name: str) -> int:
    return C.index(name)


def hero(name: str) -> int:
    return HEROES.index(name)


def table(heroes=("Paladin", "Cleric", "Wizard", "Rogue"), strategy="coordinated", rules=None) -> G.State:
    """A game before setup: an empty board, full supplies, every hero in Monarch City with no
    cards; seat 0 active at turn 0."""
    rules = rules or Rules(players=len(heroes))
    s = parse_strategy(strategy, STRATEGIES)
    return G.State(rules, 1, 0, [hero(h) for h in heroes],
                   [policy(s, PyStream(1, 0, 1 + p)) for p in range(len(heroes))])


def fixed_dice(st: G.State, faces) -> None:
    """The next dice of ``st`` are ``faces`` (then an error: the test rolled more than it said)."""
    it = iter(faces)
    st.die = lambda: next(it)


def put(st: G.State, where: str, colour: int, n: int) -> None:
    st.minions[loc(where)][colour] += n
    st.supply[colour] -= n


def card_of(colour: int, dice: int, special: int = -1) -> int:
    """The first hero card of that colour and dice (a special one when ``special`` >= 0)."""
    for k in range(len(C.card_dice)):
        if C.card_colour[k] == colour and C.card_dice[k] == dice and C.card_special[k] == special:
            return k
    raise KeyError((colour, dice, special))


def cards_of(colour: int, dice: int, n: int) -> list[int]:
    found = [k for k in range(len(C.card_dice))
             if C.card_colour[k] == colour and C.card_dice[k] == dice and C.card_special[k] < 0]
    return found[:n]


# ---- the components --------------------------------------------------------------------------

def test_the_board_has_the_spec_counts():
    assert len(C.names) == 45
    edges = {(a, int(b)) for a in range(45) for b in C.adjacency[a] if b >= 0}
    assert len(edges) == 2 * 75 and all((b, a) in edges for a, b in edges)  # symmetric, 75 edges
    assert C.degree.min() == 1 and C.degree.max() == 6
    assert Counter(int(x) for x in C.colour) == {RED: 10, GREEN: 11, BLUE: 10, BLACK: 10, cat.NO_COLOUR: 4}
    assert C.names[C.monarch] == "Monarch City" and sorted(C.names[i] for i in C.inns) == [
        "Chimera Inn", "Eagle Nest Inn", "Gryphon Inn"]
    assert sorted(C.names[i] for i in np.flatnonzero(C.chest)) == sorted(
        ["Monarch City", "Bounty Bay", "Sea Bird Port", "Pleasant Hill", "McCorm Highlands", "Mermaid Harbor",
         "Land of Amazons"])
    assert [C.names[i] for i in np.flatnonzero(C.start_gate)] == ["Dancing Stone"]
    assert (C.distance >= 0).all() and (C.distance == C.distance.T).all()


def test_general_paths_are_edges_and_match_their_darkness_lines():
    """Each general: 4 steps of map edges to Monarch City; 13 general lines (regular cards,
    patrols and war parties): 3 per path step (Sapphire 2, 3, 4), 2 to Monarch City and 2 Next
    Location, as the spec counts them."""
    for g in range(4):
        path = [int(x) for x in C.path[g]]
        assert C.colour[path[0]] == g and C.kind[path[0]] == cat.GENERAL_START and path[-1] == C.monarch
        assert all(C.distance[path[i], path[i + 1]] == 1 for i in range(PATH_STEPS))
        lines = C.darkness[C.darkness[:, 7] == g]
        targets = Counter(int(t) for t in lines[:, 8])
        per_step = [2, 3, 4] if g == BLUE else [3, 3, 3]
        assert targets == {cat.NEXT_LOCATION: 2, path[1]: per_step[0], path[2]: per_step[1], path[3]: per_step[2],
                           C.monarch: 2}


def test_the_darkness_deck_has_the_spec_kinds():
    kinds = Counter(int(k) for k in C.darkness[:, 0])
    assert kinds == {cat.DK_REGULAR: 46, cat.DK_ALL_QUIET: 3, cat.DK_PATROL: 4, cat.DK_WAR_PARTY: 2, cat.DK_MONARCH: 1}
    regular = C.darkness[C.darkness[:, 0] == cat.DK_REGULAR]
    # every regular card's minion colours are its locations' colours (the spec's note)
    assert all(C.colour[row[3]] == row[1] and C.colour[row[6]] == row[4] for row in regular)
    assert set(int(x) for x in C.darkness[C.darkness[:, 0] == cat.DK_PATROL][:, 8]) == {cat.NEXT_LOCATION}


def test_the_hero_deck_has_the_spec_counts():
    assert len(C.card_dice) == 97 and sum(C.card_special >= 0) == 16
    per = {}
    for colour in (RED, BLUE, GREEN, BLACK, cat.ANY):
        mask = C.card_colour == colour
        per[colour] = (int(mask.sum()), int(C.card_dice[mask].sum()))
    assert per == {RED: (22, 27), BLUE: (20, 25), GREEN: (24, 28), BLACK: (23, 26), cat.ANY: (8, 10)}
    icons = Counter(int(i) for i in C.card_icon[C.card_special < 0])
    assert icons == {cat.GATE_ICON: 39, cat.HORSE_ICON: 31, cat.EAGLE_ICON: 11}
    assert sum(C.card_special == SP_BATTLE_LUCK) == 2


# ---- the rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize("overrides, words", [
    ({"players": 5}, "players"),
    ({"hero_pool": ["Paladin", "Bard"]}, "Bard"),
    ({"hero_pool": ["Paladin", "Paladin", "Cleric", "Rogue"]}, "twice"),
    ({"players": 3, "hero_pool": ["Paladin", "Cleric"]}, "at least 3"),
    ({"general_to_hit": [4, 3, 4]}, "general_to_hit=[4, 3, 4]: give 4 integers 2..6"),  # a list, as given
    ({"hero_pool": []}, "hero_pool=[]: give a list of heroes"),
    ({"war_cards": [1, 2, 9]}, "war_cards"),
    ({"wound_check": "never"}, "never"),
    ({"quests": True}, "quests"),
    ({"start_taint": 12}, "start_taint"),
    ({"monarch_card": "half"}, "half"), ({"parry_scope": "all"}, "all"), ({"fireball_action": "yes"}, "fireball"),
    ({"turn_cap": 0}, "turn_cap"),
])
def test_bad_rules_are_refused_in_one_line(overrides, words):
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides(overrides)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_every_rules_key_is_documented_and_the_druid_is_optional():
    assert set(Rules.keys()) == set(Rules.DOCS)
    assert "Druid" not in Rules().hero_pool and len(Rules().hero_pool) == 8
    assert Rules.from_overrides({"hero_pool": list(HEROES)}).pool == tuple(range(9))


# ---- the worked examples -----------------------------------------------------------------------

@pytest.mark.parametrize("game", range(40))
def test_example_1_setup(game):
    st = table()
    st.chance = PyStream(7, game, 0)
    st.setup()
    total = sum(map(sum, st.minions))
    assert total == 30
    for g in range(4):
        assert st.minions[C.path[g][0]][g] == 3
    others = [v for v in range(45) if v not in C.path[:, 0] and st.total(v)]
    assert 6 <= len(others) <= 12 and sum(st.total(v) for v in others) == 18
    assert st.total(C.monarch) == 0 and all(st.total(int(i)) == 0 for i in C.inns)
    assert all(st.total(v) <= 3 for v in range(45))
    demons3 = sum(st.minions[v][RED] == 3 for v in range(45) if v != C.path[RED][0])
    assert sum(st.taint) == 1 + demons3 and st.taint[C.path[RED][0]] >= 1
    assert len(st.dark_deck) == 56 and sorted(st.dark_deck) == list(range(56))
    assert all(len(h) == 2 for h in st.hand) and len(st.hero_deck) == 97 - 8
    assert sum(st.supply) + total == 100


def test_example_2_a_third_demon_taints():
    st = table()
    put(st, "Windy Pass", RED, 2)
    st.place(RED, 1, loc("Windy Pass"))
    assert st.minions[loc("Windy Pass")][RED] == 3 and st.taint[loc("Windy Pass")] == 1


def test_example_3_an_overrun_spreads_and_a_full_neighbour_takes_a_crystal():
    st = table()
    put(st, "Sea Bird Port", BLACK, 3)
    put(st, "Windy Pass", RED, 3)  # the neighbour already at 3
    st.place(BLACK, 2, loc("Sea Bird Port"))  # one overrun per instruction: the second minion is dropped
    assert st.total(loc("Sea Bird Port")) == 3 and st.taint[loc("Sea Bird Port")] == 1
    for name in ("Rock Bridge Pass", "Brookdale Village", "Father Oak Forest"):
        assert st.minions[loc(name)][BLACK] == 1
    assert st.minions[loc("Windy Pass")][BLACK] == 0 and st.taint[loc("Windy Pass")] == 1
    assert sum(st.taint) == 2 and st.supply[BLACK] == 25 - 3 - 3


def test_example_4_a_fifth_minion_in_monarch_city_loses():
    st = table()
    put(st, "Monarch City", GREEN, 4)
    put(st, "Father Oak Forest", GREEN, 3)
    with pytest.raises(G.GameOver) as end:
        st.place(GREEN, 1, loc("Father Oak Forest"))
    assert end.value.outcome == G.CITY_OVERRUN and st.total(C.monarch) == 5


def line(general: int, target: str, k: int) -> int:
    """A Darkness card whose general line is (general, target, k): the index of the first one."""
    t = cat.NEXT_LOCATION if target == "Next Location" else loc(target)
    for i, row in enumerate(C.darkness):
        if row[7] == general and row[8] == t and row[9] == k:
            return i
    raise KeyError((general, target, k))


def test_example_5_a_general_moves_only_to_its_next_step():
    st = table()
    assert C.names[C.path[GREEN][st.step[GREEN]]] == "Thorny Woods"
    st.general_line(line(GREEN, "Eagle Peak Pass", 2))
    assert st.step[GREEN] == 0 and st.total(loc("Eagle Peak Pass")) == 0
    st.general_line(line(GREEN, "Amarak Peak", 2))
    assert st.step[GREEN] == 1 and st.minions[loc("Amarak Peak")][GREEN] == 2
    st.general_line(line(GREEN, "Next Location", 2))
    assert C.names[C.path[GREEN][st.step[GREEN]]] == "Eagle Peak Pass"
    assert st.minions[loc("Eagle Peak Pass")][GREEN] == 2
    st.step[GREEN] = 3  # Orc Valley
    with pytest.raises(G.GameOver) as end:
        st.general_line(line(GREEN, "Monarch City", 0))
    assert end.value.outcome == G.GENERAL_IN_CITY


def test_a_general_in_its_serious_zone_ignores_its_lines():
    st = table()
    st.life[GREEN] = 2
    st.general_line(line(GREEN, "Amarak Peak", 2))
    assert st.step[GREEN] == 0
    st.life[GREEN] = 3
    st.general_line(line(GREEN, "Amarak Peak", 2))
    assert st.step[GREEN] == 1


@pytest.mark.parametrize("name, shape, ground, wounds", [
    ("Cleric", G.NO_SHAPE, False, 4), ("Paladin", G.NO_SHAPE, False, 2), ("Dwarf", G.NO_SHAPE, False, 3),
    ("Rogue", G.NO_SHAPE, False, 1), ("Sorceress", GREEN, False, 2), ("Eagle Rider", G.NO_SHAPE, False, 0),
    ("Eagle Rider", G.NO_SHAPE, True, 4), ("Sorceress", BLACK, False, 2),
])
def test_example_6_end_of_day_wounds(name, shape, ground, wounds):
    st = table(heroes=(name,))
    st.loc[0] = loc("Orc Valley")
    put(st, "Orc Valley", GREEN, 2)
    put(st, "Orc Valley", BLACK, 1)
    st.shape[0], st.ground[0] = shape, ground
    assert st.end_of_day_wounds(0) == wounds


def test_example_7_hit_chances_per_die():
    st = table()
    assert [hit_chance(st, cat.MINION_TO_HIT[c], 0) for c in (GREEN, RED, BLACK, BLUE)] == [4 / 6, 3 / 6, 3 / 6, 2 / 6]
    assert hit_chance(st, cat.MINION_TO_HIT[BLACK], 1) == 4 / 6  # the Cleric's +1 against undead


def combat_table(general: int, heroes=("Paladin",)) -> G.State:
    st = table(heroes=heroes)
    where = int(C.path[general][0])
    for p in range(len(heroes)):
        st.loc[p] = where
    st.turn = 10
    return st


def test_example_8_gorgutts_parry():
    st = combat_table(GREEN)
    st.hand[0] = cards_of(GREEN, 1, 5)
    fixed_dice(st, [6, 4, 1, 3, 2])
    st.attack_general(GREEN)
    assert st.life[GREEN] == 4 and not st.slain[GREEN]
    assert st.combats[-1].cards1 == 5 and st.combats[-1].slain is False


def test_example_9_balazargs_curse_and_penalty():
    st = combat_table(RED)
    ones = cards_of(RED, 1, 2)
    two = cards_of(RED, 2, 1)
    st.hand[0] = ones + two + cards_of(GREEN, 1, 2)
    st.hp[0] = 5
    # curse dice [1, 4, 6] (the first card lost), attack dice [5, 2, 4], then the 1d3 wound die
    fixed_dice(st, [1, 4, 6, 5, 2, 4, 3])
    st.policies[0] = type("Commit", (), {"commit": lambda self, st, p, g, eligible: ones + two,
                                         "battle_luck": lambda self, st, p, g: False})()
    st.attack_general(RED)
    assert st.life[RED] == 4 and st.hand[0] == []  # every hero card lost
    assert st.hp[0] == 5 - (2 - 1) and st.loc[0] == C.monarch  # 1d3 = 2 wounds, the Paladin's aura -1
    assert st.heal_from[RED] == 11  # light zone: heals from the end of the next turn


def test_example_10_sapphire_regenerates_and_the_hero_pays():
    st = combat_table(BLUE, heroes=("Rogue",))
    st.hand[0] = cards_of(BLUE, 2, 2) + cards_of(RED, 1, 6)
    fixed_dice(st, [5, 6, 2, 5, 4])  # four attack dice, then the 1d6 of cards lost
    st.chance = PyStream(3, 0, 0)  # which cards the penalty takes
    st.attack_general(BLUE)
    assert st.life[BLUE] == 4 and not st.slain[BLUE]
    assert st.hp[0] == 6 - 3 and len(st.hand[0]) == 6 - 4 and st.loc[0] == C.monarch


def test_example_11_a_general_heals_on_the_clock():
    st = combat_table(GREEN, heroes=("Paladin", "Cleric", "Wizard"))
    st.turn = 0
    st.life[GREEN] = 4
    st.heal_from[GREEN] = st.turn + 1  # as a failed combat leaving the light zone sets it
    lives = []
    for t in range(3):
        st.turn = t
        st.heal_generals()
        lives.append(st.life[GREEN])
    assert lives == [4, 5, 6] and st.heal_from[GREEN] == -1
    st.life[GREEN], st.turn = 2, 0
    st.heal_from[GREEN] = 0 + 3  # serious zone: the attacker's next turn (t + n)
    lives = []
    for t in range(4):
        st.turn = t
        st.heal_generals()
        lives.append(st.life[GREEN])
    assert lives == [2, 2, 2, 3]


def test_a_failed_combat_sets_the_clock_by_zone():
    for left, expected in ((4, 11), (2, 13)):
        st = combat_table(GREEN, heroes=("Paladin", "Cleric", "Wizard"))
        st.hand[0] = cards_of(GREEN, 1, 6)
        hits = 6 - left
        fixed_dice(st, [6] * hits + [2] * (6 - hits) + [1, 1])
        st.attack_general(GREEN)
        assert st.life[GREEN] == left and st.heal_from[GREEN] == expected


def test_example_12_the_rogue_draws_five_a_rumor():
    st = table(heroes=("Rogue",))
    st.loc[0] = loc("Gryphon Inn")
    st.actions = 6
    drawn = st.hero_deck[-10:]
    for _ in range(2):
        st.do_action(0, (G.A_RUMORS, -1, RED))
    kept = [k for k in drawn if C.card_colour[k] == RED or C.card_special[k] >= 0]
    assert sorted(st.hand[0]) == sorted(kept) and len(st.hero_discard) == 10 - len(kept)
    assert st.rumors == 2 and (G.A_RUMORS, -1, RED) not in st.day_options(0)


def test_a_slain_general_rewards_the_group_and_the_fourth_wins():
    st = combat_table(BLUE, heroes=("Paladin", "Cleric"))
    st.hand[0] = cards_of(BLUE, 2, 2)
    st.hand[1] = []
    fixed_dice(st, [5, 6, 5, 6])
    st.attack_general(BLUE)
    assert st.slain[BLUE] and st.champion == [1, 0] and len(st.hand[0]) == 3 and len(st.hand[1]) == 3
    assert st.war_status() == G.MID
    st.slain = [True, True, False, True]  # Varkolak (black) the last one standing
    st.hand[0] = cards_of(BLACK, 2, 3)
    st.loc[0] = st.loc[1] = int(C.path[BLACK][0])
    fixed_dice(st, [6] * 6)
    with pytest.raises(G.GameOver) as end:
        st.attack_general(BLACK)
    assert end.value.outcome == G.WON


def test_the_active_player_picks_who_of_the_group_rolls_next():
    """The spec's combat step 4: the active hero rolls first, then the active player picks who
    rolls next after seeing each result. Sapphire has 2 life and every die hits: the second to
    roll slays her and becomes the Slayer, and the third does not roll. Picked from the two
    waiting, seat 2 rolls second; the coordinated baseline keeps seat order."""
    def fight(order):
        st = combat_table(BLUE, heroes=("Paladin", "Cleric", "Rogue"))
        for p in range(3):
            st.hand[p] = [cards_of(BLUE, 1, 3)[p]]
        st.life[BLUE] = 2
        fixed_dice(st, [6, 6])  # two dice: the third hero never rolls
        waiting = []
        if order is not None:
            st.policies[0] = type("Order", (), {
                "commit": lambda self, st, p, g, eligible: eligible,
                "battle_luck": lambda self, st, p, g: False,
                "next_roller": lambda self, st, p, g, w: waiting.append(list(w)) or order})()
        st.attack_general(BLUE)
        assert st.slain[BLUE]
        return st.champion, waiting
    assert fight(None)[0] == [0, 1, 0]
    assert fight(1) == ([0, 0, 1], [[1, 2]])  # asked once: after the active hero's roll


# ---- whole games -------------------------------------------------------------------------------

def strategies(name, n):
    return [parse_strategy(name, STRATEGIES)] * n


@pytest.mark.parametrize("name", ["random", "coordinated"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_games_end_and_repeat_from_their_seed(name, players):
    r = Rules(players=players)
    for g in range(6):
        a = G.play_game(r, strategies(name, players), 5, g)
        b = G.play_game(r, strategies(name, players), 5, g)
        assert a == b and a.outcome in range(6) and 1 <= a.length <= r.turn_cap
        assert a.win_units == [60 if a.outcome == G.WON else 0] * players


class Checked(G.State):
    """A state that checks the spec's invariants after every action and every night."""

    def check(self):
        r = self.r
        for col in range(4):
            on_board = sum(self.minions[v][col] for v in range(45))
            assert on_board + self.supply[col] == r.minions_per_colour and self.supply[col] >= 0
        assert sum(self.taint) + self.crystals_left == r.taint_crystals and self.crystals_left >= 0
        assert all(self.total(v) <= r.location_cap for v in range(45) if v != self.monarch)
        assert all(self.total(int(i)) == 0 for i in C.inns)
        for p in range(self.n):
            assert self.hp[p] <= self.max_hp(p)
        for g in range(4):
            assert 0 <= self.step[g] < PATH_STEPS and self.step[g] >= self.seen_step[g] - 1
            self.seen_step[g] = max(self.seen_step[g], self.step[g])
            assert 0 <= self.life[g] <= self.max_life[g]
        cards = sorted(self.hero_deck + self.hero_discard + [k for h in self.hand for k in h])
        assert cards == list(range(97))

    def do_action(self, seat, action):
        options = self.day_options(seat)
        kind, card, arg = action
        if kind == G.A_SPECIAL and C.card_special[card] == cat.SP_HAMMER:  # the Hammer goes anywhere
            assert (kind, card, self.hammer_default(seat)) in options and self.can_enter(seat, arg)
        else:
            assert action in options
        super().do_action(seat, action)
        self.check()

    def night(self, seat):
        super().night(seat)
        self.check()


@pytest.mark.parametrize("name", ["random", "coordinated"])
def test_invariants_hold_in_play(name):
    """Minion supply conserved, crystals within the supply, no location over its cap, heroes'
    life within their maximum, every hero card somewhere, generals only forward (a Battle
    Strategy may push one back a step), over 60 games of 4 heroes."""
    r = Rules(players=4)
    ends = Counter()
    for g in range(60):
        pols = [policy(s, PyStream(3, g, 1 + p)) for p, s in enumerate(strategies(name, 4))]
        st = Checked(r, 3, g, G.draw_heroes(r, 3, g), pols)
        st.seen_step = [0] * 4
        try:
            st.setup()
            st.started = True
            st.check()
            while st.turn < r.turn_cap:
                st.hero_turn(st.turn % 4)
        except G.GameOver as end:
            ends[end.outcome] += 1
    assert sum(ends.values()) == 60


def test_drawn_heroes_are_distinct_and_from_the_pool():
    r = Rules(players=4, hero_pool=("Paladin", "Cleric", "Wizard", "Druid", "Rogue"))
    seen = Counter()
    for g in range(200):
        heroes = G.draw_heroes(r, 1, g)
        assert len(set(heroes)) == 4 and set(heroes) <= set(r.pool)
        seen.update(heroes)
    assert set(seen) == set(r.pool)


# ---- the kernel plays the reference's games -------------------------------------------------------


def test_the_kernels_constants_are_the_catalogues():
    assert K.MONARCH == C.monarch and K.STARTING_GATE == int(np.flatnonzero(C.start_gate)[0])
    assert K.TO_HIT == cat.MINION_TO_HIT and K.PENALTY_WOUNDS == cat.PENALTY_WOUNDS
    assert K.PENALTY_CARDS == cat.PENALTY_CARDS and K.PATH_STEPS == PATH_STEPS
    assert (K.N_LOC, K.N_CARDS, K.N_DARK, K.N_HEROES) == (45, 97, 56, 9)
    assert K.GENERAL_LIFE == (6, 6, 5, 4) == tuple(int(x) for x in C.general_life)
    assert (K.SP_BATTLE_LUCK, K.SP_SPY, K.SP_HAMMER) == (cat.SP_BATTLE_LUCK, cat.SP_SPY, cat.SP_HAMMER)
    assert (K.A_SPECIAL, K.A_ATTACK, K.NO_SHAPE) == (G.A_SPECIAL, G.A_ATTACK, G.NO_SHAPE)
    assert (K.W_INN, K.W_HEAL) == (team.W_INN, team.W_HEAL)
    from balance.games.defenders import strategies as S
    assert ((K.W_ATTACK_MARGIN, K.W_HEAL_AT, K.W_OVERRUN, K.W_CITY, K.W_GENERAL, K.W_TAINT, K.W_DISTANCE,
             K.W_TRAVEL_SAVING, K.W_INN_BELOW, K.W_N)
            == (S.ATTACK_MARGIN, S.HEAL_AT, S.W_OVERRUN, S.W_CITY, S.W_GENERAL, S.W_TAINT, S.W_DISTANCE,
                S.TRAVEL_SAVING, S.INN_BELOW, S.MAX_PARAMS))


def summary(game: G.Game) -> tuple:
    return (game.outcome, game.length, list(game.sides), list(game.champion), list(game.deaths),
            [int(x) for x in game.slain], list(game.general_step), game.minions, game.crystals,
            len(game.combats), sum(c.slain for c in game.combats))


def kernel_summaries(chunk) -> list[tuple]:
    cols = chunk.columns
    return [(int(chunk.outcome[i]), int(chunk.length[i]), [int(x) for x in chunk.sides[i]],
             [int(x) for x in cols["champion"][i]], [int(x) for x in cols["deaths"][i]],
             [int(x) for x in cols["slain"][i]], [int(x) for x in cols["steps"][i]], int(cols["board"][i, 0]),
             int(cols["board"][i, 1]), int(cols["board"][i, 2]), int(cols["board"][i, 3]))
            for i in range(len(chunk))]


def combat_counts(games) -> Counter:
    """The reference's combats keyed as the kernel's combats table rows."""
    out = Counter()
    for game in games:
        for c in game.combats:
            key = (cat.GENERALS[c.general], 1, c.life, c.cards1, c.cards2, c.modifier, c.rerolls) if c.heroes == 1 \
                else (cat.GENERALS[c.general], c.heroes, -1, -1, -1, -1, -1)
            out[key] += 1
            out[key + ("kills",)] += c.slain
    return out


def check_same_games(rules, names, seed, first, n, sides=None):
    strategies = [parse_strategy(x, STRATEGIES) for x in names]
    engine = Engine(rules, strategies, sides=sides)
    chunk = engine.play(seed, first, n)
    games = [G.play_game(rules, strategies, seed, first + i, sides) for i in range(n)]
    assert kernel_summaries(chunk) == [summary(g) for g in games]
    table = engine.tables(chunk.totals)["combats"]
    got = Counter()
    for row in table.iter_rows(named=True):
        key = (row["general"], row["heroes"], row["life"], row["cards1"], row["cards2"], row["modifier"],
               row["rerolls"])
        got[key] += row["combats"]
        got[key + ("kills",)] += row["kills"]
    assert +got == +combat_counts(games)
    return chunk


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("name", ["random", "coordinated"])
def test_kernel_plays_the_references_games(name, players):
    """Every strategy at 1 to 4 heroes, teams drawn: 150 games each, every per-game result and
    the combat table identical (1,200 games in all)."""
    chunk = check_same_games(Rules(players=players), [name] * players, 11, 500, 150)
    assert len(set(chunk.outcome.tolist())) >= 2  # the games end in more than one way


# Every weight away from its default and from every other weight's value: at the defaults five
# weights are 2.0 and two are 0.5, so a kernel reading one of them for another played the same
# games and passed. The committed study's tuned team, too.
DISTINCT = ("coordinated:attack_margin=1.3,heal_at=3,w_overrun=4.1,w_city=1.7,w_general=7.3,w_taint=2.9,"
            "w_distance=0.8,travel_saving=3,inn_below=5")
TUNED = ("coordinated:attack_margin=-0.1108,heal_at=4,w_overrun=1.3714,w_city=2.6253,w_general=4.2339,"
         "w_taint=2.3874,w_distance=0.7865,inn_below=7")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("spec", [DISTINCT, TUNED], ids=["distinct", "tuned"])
def test_kernel_plays_the_references_games_with_tuned_weights(spec, players):
    """A parameterised team at 1 to 4 heroes (100 games each), and beside random heroes and
    the default team at 4 (60 games)."""
    chunk = check_same_games(Rules(players=players), [spec] * players, 13, 700, 100)
    default = check_same_games(Rules(players=players), ["coordinated"] * players, 13, 700, 100)
    assert kernel_summaries(chunk) != kernel_summaries(default)  # the weights changed the games
    if players == 4:
        check_same_games(Rules(players=4), [spec, "random", "coordinated", spec], 13, 0, 60)


def test_a_random_active_player_orders_the_group_and_the_kernel_matches(monkeypatch):
    """A random seat picks who rolls next against a general (``next_roller``). Random heroes
    seldom gather, so the case needs coordinated teammates, and even then it is rare: of
    games 0-999 at seed 5 (a random hero at seat 1 of 4), three hold a pick other than seat
    order (games 173, 816 and 987, counted in the reference). These windows play two of them:
    the kernel plays every game alike, so a kernel that kept seat order fails here."""
    picks = []
    pick = team.RandomPolicy.next_roller

    def counting(self, st, seat, g, waiting):
        picks.append(pick(self, st, seat, g, waiting))
        return picks[-1]
    monkeypatch.setattr(team.RandomPolicy, "next_roller", counting)
    names = ["coordinated", "random", "coordinated", "coordinated"]
    for first, n in ((160, 20), (980, 10)):
        check_same_games(Rules(players=4), names, 5, first, n)
    assert sum(p > 0 for p in picks) == 3, picks  # game 987 picks twice


@pytest.mark.parametrize("overrides", [
    {"war_cards": (0, 1, 2)}, {"overrun_per_instruction": False, "supply_loss_scope": "any"},
    {"orc_patrol_target": "no_orc", "wound_check": "end_of_turn"},
    {"group_scope": "committed", "penalty_roll": "shared", "hand_limit": 4},
    {"general_to_hit": (3, 3, 3, 3), "serious_zone": (0, 0, 0, 0), "late_war_after": 1},
    {"natural_one_misses": False, "rumor_draw": 4, "heal_elsewhere": 1, "slain_reward_cards": 0},
    {"hero_pool": tuple(HEROES), "minions_per_colour": 12, "taint_crystals": 6, "turn_cap": 30},
    {"start_taint": 4, "evening_draw": 3, "start_hand": 4, "rumor_actions": 0},
    {"heal_land_with_minions": False, "fireball_action": False, "wound_limits_actions": False,
     "monarch_card": "nothing", "parry_scope": "own", "ambush_scope": "every", "undead_form_fear": True,
     "hero_pool": tuple(HEROES)},
])
def test_kernel_plays_the_references_games_under_rule_variants(overrides):
    rules = Rules.from_overrides({"players": 4, **overrides})
    check_same_games(rules, ["coordinated", "random", "coordinated", "random"], 3, 0, 60)


@pytest.mark.parametrize("players, pool", [(1, ("Paladin",)), (4, ("Paladin", "Cleric", "Wizard", "Dwarf"))])
def test_a_pool_as_large_as_the_team_gives_a_dead_hero_back(players, pool):
    """With no unused hero left, a player takes a fresh copy of a dead one (rules: Hero death),
    the one that just died among them: a pool no larger than the team has no other. The
    reference raised IndexError here and the kernel dealt a hero from unset memory."""
    rules = Rules(players=players, hero_pool=pool)
    chunk = check_same_games(rules, ["random"] * players, 1, 0, 30)
    assert chunk.columns["deaths"].sum() > 0  # heroes did die: the case was played


def test_kernel_plays_the_references_games_with_given_heroes():
    rules = Rules(players=3, hero_pool=tuple(HEROES))
    for team_ in (("Wizard", "Sorceress", "Eagle Rider"), ("Druid", "Dwarf", "Ranger"), ("Cleric", "Rogue", "Paladin")):
        sides = [hero(h) for h in team_]
        for name in ("random", "coordinated"):
            chunk = check_same_games(rules, [name] * 3, 9, 40, 40, sides=sides)
            assert (chunk.sides == np.array(sides)).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "coordinated"])
def test_kernel_plays_the_references_games_at_length(name):
    """The slow set: 2,500 games per strategy at 4 heroes and 1,000 at 1 and 2."""
    check_same_games(Rules(players=4), [name] * 4, 2026, 10_000, 2500)
    for players in (1, 2):
        check_same_games(Rules(players=players), [name] * players, 2026, 20_000, 1000)


def test_tables_add_up():
    rules = Rules(players=4)
    engine = Engine(rules, [parse_strategy("coordinated", STRATEGIES)] * 4)
    chunk = engine.play(1, 0, 400)
    t = engine.tables(chunk.totals)
    assert t["generals"]["games"].to_list() == [400] * 4
    assert t["generals"]["slain"].sum() == chunk.columns["slain"].sum()
    assert t["generals"]["in_city"].sum() == (chunk.outcome == G.GENERAL_IN_CITY).sum()
    assert t["combats"]["combats"].sum() == chunk.columns["board"][:, 2].sum()
    assert t["combats"]["kills"].sum() == chunk.columns["board"][:, 3].sum()
    heroes_t = t["heroes"]
    assert heroes_t.group_by("seat").agg(pl.col("games").sum()).sort("seat")["games"].to_list() == [400] * 4
    assert heroes_t["champion_units"].sum() == 400 * 60  # one title a game, shared out
    assert t["champions"]["games"].sum() == 400 * 4
    assert heroes_t["deaths"].sum() == chunk.columns["deaths"].sum()


def test_the_champion_title_is_shared_among_the_most_slayers():
    scores = np.array([[2, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]])
    assert champion_units(scores).tolist() == [[60, 0, 0, 0], [30, 30, 0, 0], [15, 15, 15, 15]]


@pytest.mark.parametrize("sides, words", [
    ([0, 0, 1, 2], "at most once"), ([0, 1, 2], "give one hero per seat"), ([0, 1, 2, 12], "out of range"),
])
def test_the_engine_refuses_bad_teams(sides, words):
    with pytest.raises(BalanceError, match=words):
        Engine(Rules(players=4), [parse_strategy("random", STRATEGIES)] * 4, sides=sides)


@pytest.mark.parametrize("k", [0, 3])
def test_start_taint_sets_the_crystals_on_balazargs_start(k):
    st = table(rules=Rules(players=4, start_taint=k))
    st.setup()
    demons3 = sum(st.minions[v][RED] == 3 for v in range(45) if v != C.path[RED][0])
    assert st.taint[C.path[RED][0]] == k and sum(st.taint) == k + demons3
    assert st.crystals_left == 12 - sum(st.taint)


# ---- the report: each verdict line points the right way on a planted truth ------------------------


def planted_tables(rate_with=None, losses=(700, 100, 150, 50), in_city=(10, 10, 10, 10), kills_scale=1.0,
                   players=4, games=400):
    """A run's tables with planted truths: every 4-hero team of the 8 plays ``games`` games, won
    at 5% or, for a team holding a hero of ``rate_with`` (hero -> rate), that rate; the lost
    games end by the causes in the proportions ``losses``; the generals enter the city
    ``in_city`` times; lone combats kill ``kills_scale`` times what the exact odds expect."""
    rate_with = rate_with or {}
    rows = []
    for team_ in combinations(cat.RULES_HEROES, players):
        rate = max([rate_with.get(h, 0.05) for h in team_])
        rows.append({"players": players, "team": "+".join(team_), "games": games, "won": round(games * rate)})
    teams = pl.DataFrame(rows, schema={"players": pl.Int8, "team": pl.String, "games": pl.Int64, "won": pl.Int64})
    lost = int(teams["games"].sum() - teams["won"].sum())
    shares = np.array(losses) / sum(losses)
    counts = np.floor(shares * lost).astype(int)
    counts[0] += lost - counts.sum()
    outcomes = pl.DataFrame({"players": [players] * 6, "outcome": list(R.LOSSES) + ["won", "capped"],
                             "games": list(counts) + [int(teams["won"].sum()), 0],
                             "length_sum": [0] * 6, "length_sq_sum": [0] * 6,
                             "won": [0] * 4 + [int(teams["won"].sum()), 0]},
                            schema_overrides={"players": pl.Int8})
    total = int(teams["games"].sum())
    generals = pl.DataFrame({"players": [players] * 4, "general": list(cat.GENERALS), "games": [total] * 4,
                             "slain": [100] * 4, "in_city": list(in_city), "step_sum": [0] * 4},
                            schema_overrides={"players": pl.Int8})
    crows = []
    for g in cat.GENERALS:
        for cards1 in range(4, 12):
            p = R.exact_kill(g, R.ODDS[g].life, cards1, 0, 0, 0)
            crows.append({"players": players, "general": g, "heroes": 1, "life": R.ODDS[g].life, "cards1": cards1,
                          "cards2": 0, "modifier": 0, "rerolls": 0, "combats": 2000,
                          "kills": min(2000, round(2000 * p * kills_scale))})
    combats = pl.DataFrame(crows)
    heroes_t = pl.DataFrame({"players": [players], "seat": [0], "hero": ["Paladin"], "games": [1], "won": [0],
                             "deaths": [0], "slain": [0], "champion_units": [60], "champion_units_won": [0]})
    champions = pl.DataFrame({"players": [players], "seat": [0], "score": [0], "games": [1], "won": [0]})
    return {"teams": teams, "outcomes": outcomes, "generals": generals, "combats": combats, "heroes": heroes_t,
            "champions": champions}


def verdict_text(tables, sides="drawn") -> str:
    a = R.analyse(tables, {"sides": sides}, "wilson")
    out = []
    for block in R.verdict(a):
        items = block.items if hasattr(block, "items") else [block.parts]
        out += ["".join(str(x) for x in item) for item in items]
    return "\n".join(out)


def test_a_planted_strong_hero_is_named_alone_and_a_fair_pool_names_none():
    """A strong Rogue beats every other hero, and no other hero beats another (the presence test
    would have called all seven others weak: a team with one of them holds the Rogue less often)."""
    strong = verdict_text(planted_tables({"Rogue": 0.30}))
    assert ("4 players: 1 hero beats others: Rogue beats Cleric, Dwarf, Eagle Rider, Paladin, Ranger, Sorceress, "
            "Wizard (by") in strong
    assert re.search(r"Wizard \(by [\d.]+ pp( to [\d.]+ pp)?, each Holm-adjusted p (< 1e-6|≤ 0\.0\d+)\)",
                     strong), strong
    a = R.analyse(planted_tables({"Rogue": 0.30}), {"sides": "drawn"}, "wilson")
    assert a.heroes.filter((pl.col("name") == "Wizard") & (pl.col("p_adjusted") < 0.05)).height == 1  # displaced
    fair = verdict_text(planted_tables())
    assert "4 players: no hero beats another" in fair
    two = verdict_text(planted_tables({"Rogue": 0.30, "Cleric": 0.30}))  # two strong heroes, each named
    assert "4 players: 2 heroes beat others: Cleric beats Dwarf, " in two and "; Rogue beats Dwarf, " in two, two
    given = verdict_text(planted_tables({"Rogue": 0.30}), sides=["Rogue", "Cleric", "Wizard", "Dwarf"])
    assert "describe the teams that played" in given and "the hero's doing" not in given


def test_the_hero_ranking_follows_the_swap_tests(tmp_path):
    """The ranked table sums the swap tests: a planted strong Rogue ranks first alone (stronger
    than all 7, weaker than none); the 7 others, told apart by no test, share rank 2=. In a fair
    pool every hero shares rank 1. The furthest swap of a fair pool is named the way round it
    reads ("X in place of Y" and the change it makes)."""
    a = R.analyse(planted_tables({"Rogue": 0.30}), {"sides": "drawn"}, "wilson")
    ranks = R.ranking(a.swaps)
    assert ranks.row(0, named=True) | {"mean_swap": 0} == {"players": 4, "hero": "Rogue", "beats": 7, "beaten": 0,
                                                          "net": 7, "mean_swap": 0, "rank": 1, "shared": False}
    assert ranks["mean_swap"][0] > 0.2 and (ranks["rank"][1:] == 2).all() and (ranks["net"][1:] == -1).all()
    figures = {name: tmp_path / f"{name}.png" for name in ("generals", "losses", "combat_odds")}
    from balance.analysis.document import to_markdown

    md = to_markdown("t", R.sections(a, figures)[:1], tmp_path)
    assert "| 4 | 1 | `Rogue` | 7 | 0 | +25.00 pp |" in md and "| 4 | 2= | `Wizard` | 0 | 1 | -3.57 pp |" in md, md
    fair = R.ranking(R.analyse(planted_tables(), {"sides": "drawn"}, "wilson").swaps)
    assert (fair["rank"] == 1).all() and fair["shared"].all() and (fair["net"] == 0).all() and fair.height == 8
    text = verdict_text(planted_tables({"Rogue": 0.055}))  # +0.5 pp: too small to be found here
    far = re.search(r"furthest: (\w[\w ]*) in place of (\w[\w ]*) ([+-][\d.]+) pp", text)
    assert far and "Rogue" in far.groups(), text
    assert float(far[3]) > 0 if far[1] == "Rogue" else float(far[3]) < 0, text  # the Rogue in: the team wins more


def test_a_team_that_never_won_tests_no_hero_and_claims_no_power():
    """With no win at a count there is nothing to tell heroes apart: the line said "by less
    than this run detects (... detectable 0.00 pp with 90% power)", a power no run has."""
    never = verdict_text(planted_tables({hero: 0.0 for hero in cat.RULES_HEROES}))
    assert "4 players: no hero tested: the team never won at this count" in never, never
    assert "detectable 0.00 pp" not in never and "no hero beats another" not in never


def test_a_run_too_small_for_any_hero_test_says_so_and_claims_no_power():
    """40 games over 70 teams of 4 (about 0.6 games a team, won 30%): no swap can be found even for
    a hero that wins every game it plays, and the line says that rather than a detectable size."""
    text = "".join(map(str, R._swap_lines(R.swaps(_drawn_teams(np.random.default_rng(1), 40, 4, 0.3)))[0]))
    assert text.startswith("4 players: no hero beats another: ") and text.endswith(
        "; this run is too small to find even a hero that wins every game it plays."), text


def _drawn_teams(rng, games: int, size: int, rate: float, strong: str = "", by: float = 0.0) -> pl.DataFrame:
    """A run's teams table: ``games`` games over the teams of ``size`` heroes drawn uniformly,
    each won at ``rate``, or ``rate + by`` for a team holding ``strong`` (binomial draws)."""
    teams = ["+".join(t) for t in combinations(cat.RULES_HEROES, size)]
    played = rng.multinomial(games, np.full(len(teams), 1 / len(teams)))
    won = rng.binomial(played, [rate + by if strong in t.split("+") else rate for t in teams])
    return pl.DataFrame({"players": size, "team": teams, "games": played, "won": won},
                        schema_overrides={"players": pl.Int8})


def test_equal_heroes_under_noise_seldom_beat_one_another():
    """The null with sampling noise (the planted tables above have none): 200 runs of 4,000
    games, teams of 4 drawn uniformly, every team winning 5% (binomial), fixed seed. "A beats
    B" is claimed where a swap's Holm-adjusted p (over the run's 28 swaps) is under 5%, so at
    most 5% of fair runs should name any. Tolerance: 5% plus 3 standard errors of a rate over
    200 runs, 9.6% (false failure about 1 in 375 if the rate were exactly 5%, the exact binomial
    tail; Fisher's test is conservative: measured 4.5%). Unadjusted p would name a pair in
    about half the runs (measured 48%): the test tells the two apart."""
    rng = np.random.default_rng(7)
    runs, named, unadjusted = 200, 0, 0
    for _ in range(runs):
        swaps = R.swaps(_drawn_teams(rng, 4000, 4, 0.05))
        named += bool((swaps["p_adjusted"] < 0.05).any())
        unadjusted += bool((swaps["p_value"] < 0.05).any())
    assert swaps.height == 28
    assert named / runs <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / runs), named
    assert unadjusted / runs > 0.25, unadjusted


@pytest.mark.slow
@pytest.mark.parametrize("games, size, rate, normal_found", [(3000, 2, 0.004, 0.5), (20000, 4, 0.03, 0.9)])
def test_a_swap_of_the_stated_detectable_size_is_found_with_the_power_stated(games, size, rate, normal_found):
    """"No hero beats another ...; a swap raising it by d or more would have been found with 90%
    power": d came from a normal approximation, which at a rare win (the team winning a few
    games in a thousand) promised 90% power for a change Fisher's test found in about 4% of
    runs. Now d is the exact power of that test at the run's Holm level. Planted: one hero
    raises its team's win rate by the d a fair run of this size states; over 400 runs (fixed
    seed) the swap of it for another named hero is found, in its favour, in at least 85.5% of
    them (3 standard errors under 90%: a false failure about 1 time in 700 if the power were
    exactly 90%; the statement is for the hardest pair, so most pairs do better). At the d the
    normal approximation gave, the same planted swap is found in under half the runs at the
    rare win, and still under 90% at 3% (measured: 86%). About 25 s a case."""
    out = swap_power(games, size, rate)
    assert not np.isnan(out["stated"]) and out["found"] >= 0.855, out
    assert out["normal"] < out["stated"] and out["normal_found"] < normal_found, out


def swap_power(games: int, size: int, rate: float, runs: int = 400) -> dict:
    """The hero-swap verdict's power statement, checked by planting (the slow test above and
    scripts/verdict_power.py): the difference a fair run of ``games`` games over teams of
    ``size`` heroes winning at ``rate`` states (``stated``) and the normal approximation it
    replaced (``normal``); the share of ``runs`` runs, one hero (the Rogue) raising its team's
    win rate by each, where its swap for the Dwarf is found in its favour."""
    from scipy.stats import norm

    rng = np.random.default_rng(20261206 + size)
    fair = R.swaps(_drawn_teams(rng, games, size, rate))
    stated = R.swap_detectable(fair, fair.height)
    q = float((fair["won"] + fair["other_won"]).sum() / (fair["games"] + fair["other_games"]).sum())
    normal = float((norm.isf(0.05 / fair.height / 2) + norm.isf(0.1)) * np.sqrt(
        q * (1 - q) * (1 / fair["games"].min() + 1 / fair["other_games"].min())))

    def found(by: float) -> float:
        hits = 0
        for _ in range(runs):
            row = R.swaps(_drawn_teams(rng, games, size, rate, "Rogue", by)).filter(
                (pl.col("hero") == "Dwarf") & (pl.col("other") == "Rogue")).row(0, named=True)
            hits += row["p_adjusted"] < 0.05 and row["difference"] < 0  # Rogue's side wins more
        return hits / runs

    return {"stated": stated, "normal": normal, "found": found(stated), "normal_found": found(normal)}


def test_the_commonest_loss_cause_is_named_only_when_it_leads():
    assert "lost mostly to the last taint crystal" in verdict_text(planted_tables(losses=(100, 150, 700, 50)))
    even = verdict_text(planted_tables(losses=(300, 300, 301, 100)))
    assert "lost as often to" in even and "lost mostly" not in even


def test_the_general_reaching_the_city_most_is_named_only_when_one_leads():
    """A count of how games end, worded as one: it said "the real threat", a strength claim that
    an outcome-conditioned count cannot make."""
    assert "Sapphire reaches Monarch City most often" in verdict_text(planted_tables(in_city=(20, 15, 18, 90)))
    for counts in ((30, 31, 29, 30), (60, 60, 5, 5)):  # even; two leaders, neither ahead of the other
        even = verdict_text(planted_tables(in_city=counts))
        assert "no general reaches Monarch City more often than every other" in even and "most often" not in even
    never = verdict_text(planted_tables(in_city=(0, 0, 0, 0)))
    assert "4 players: no general reached Monarch City." in never and "often" not in never.split("Generals")[1]


def test_the_dice_check_agrees_with_exact_kills_and_flags_wrong_ones():
    assert "no disagreement with the exact odds found" in verdict_text(planted_tables())
    wrong = verdict_text(planted_tables(kills_scale=1.15))
    assert "the simulated combats disagree with the exact odds" in wrong and "do not trust" in wrong


def test_the_kills_law_is_the_convolution_of_the_binomials():
    """_kills_law (merged chances, one vectorised pmf, direct or FFT convolution) against the
    plain convolution of every binomial's whole pmf: equal to 1e-12 wherever either has mass,
    with a chance repeated, chances 0 and 1, and laws long enough for the FFT path."""
    from scipy.stats import binom

    n = np.array([3, 5, 3, 200, 1000, 7, 7, 400])
    q = np.array([0.2, 0.9, 0.2, 0.5, 0.3, 1.0, 0.0, 0.97])
    brute = np.ones(1)
    for size, chance in zip(n, q):
        brute = np.convolve(brute, binom.pmf(np.arange(size + 1), size, chance))
    first, law = R._kills_law(n.astype(float), q)
    assert first >= 0 and first + len(law) <= len(brute) and R.DIRECT < len(law)
    whole = np.zeros_like(brute)
    whole[first:first + len(law)] = law
    assert np.abs(whole - brute).max() < 1e-12


def _lone_combats(rng, per_size: int, shift: float = 0.0, general: str = "") -> pl.DataFrame:
    """Lone combats against every general, ``per_size`` at each of 4 to 11 cards; kills drawn
    binomially at the exact odds, ``general``'s shifted by ``shift`` on the log-odds scale."""
    from scipy.special import expit, logit

    exact = _exact_kills()
    chance = expit(logit(exact["p"].to_numpy()) + np.where(exact["general"] == general, shift, 0.0))
    return exact.drop("p").with_columns(combats=pl.lit(per_size), kills=pl.Series(rng.binomial(per_size, chance)))


@functools.cache
def _exact_kills() -> pl.DataFrame:
    return pl.DataFrame([{"players": 1, "general": g, "heroes": 1, "life": R.ODDS[g].life, "cards1": cards1,
                          "cards2": 0, "modifier": 0, "rerolls": 0,
                          "p": R.exact_kill(g, R.ODDS[g].life, cards1, 0, 0, 0)}
                         for g in cat.GENERALS for cards1 in range(4, 12)])


@pytest.mark.parametrize("per_size", [100, 250])
def test_a_dice_error_of_the_stated_size_is_found_with_the_power_stated(per_size):
    """"No disagreement with the exact odds found ...; kills off by r or more from what the odds
    expect, at any general, would have been found with 90% power." r is the largest of the
    generals' figures. Planted: the chances of the general it comes from (the least checked)
    shifted by what makes r, as a fair run of this size states it; over 400 runs (fixed seed)
    the check flags that general in at least 85.5% (3 standard errors under 90%: a false
    failure about 1 time in 700 at exactly 90%). Measured: 87.25% at 100 combats a size, 89.5%
    at 250 (each within 2 standard errors of 90%). The line said "agree" before, with no power:
    183 combats passed as a check of the dice."""
    out = dice_power(per_size)
    assert 0 < out["stated"] < R.DICE_TOO_FEW and out["found"] >= 0.855, out


def dice_power(per_size: int, runs: int = 400) -> dict:
    """The dice line's power statement, checked by planting (the test above and
    scripts/verdict_power.py): the error a fair run of ``per_size`` lone combats at each card
    count states, the general it is stated for (the least checked), and the share of ``runs``
    runs with that general's chances shifted by it in which the check flags that general."""
    rng = np.random.default_rng(7 + per_size)
    odds = R.odds_check(_lone_combats(rng, per_size))
    least = odds.row(int(odds["detectable"].arg_max()), named=True)
    flagged = sum(R.odds_check(_lone_combats(rng, per_size, least["detectable_shift"], least["general"]), reach=False)
                  .filter(pl.col("general") == least["general"])["p_adjusted"][0] < 0.05 for _ in range(runs))
    return {"general": least["general"], "stated": least["detectable"], "found": flagged / runs}


def test_a_healthy_engines_small_runs_are_not_called_broken():
    """A small run: 3 lone combats a general, each with 6 one-die cards (kill chances 0.10 to
    0.27), kills drawn at the exact odds. A normal z-test called the dice wrong in more of such
    runs than its 5% (a designer's 3-hero run read "do not trust this run's combat numbers"):
    few combats at small chances are no normal sum. The exact test keeps the chance
    of any general flagged at or below 5% (Holm over 4): over 1,000 runs (fixed seed) at most
    6.6% are flagged, 5% + 3 standard errors (a false failure about 1 in 700 at exactly 5%;
    the discrete test sits below it)."""
    exact = _exact_kills().filter(pl.col("cards1") == 6)
    rng = np.random.default_rng(11)

    def run() -> pl.DataFrame:
        return exact.drop("p").with_columns(combats=pl.lit(3), kills=pl.Series(rng.binomial(3, exact["p"].to_numpy())))

    flagged = sum(bool((R.odds_check(run(), reach=False)["p_adjusted"] < 0.05).any()) for _ in range(1000))
    assert flagged / 1000 <= 0.066, flagged


def test_too_few_combats_are_not_called_a_check_of_the_dice():
    """A 200-game run had 1 lone combat and printed that the combats agree with the odds. Where
    one general was fought rarely and the others often, the line names which were checked."""
    few = "".join(map(str, R._odds_line(R.odds_check(_lone_combats(np.random.default_rng(1), 1)))))
    assert "are too few to check the dice" in few and "no disagreement" not in few
    some = _lone_combats(np.random.default_rng(2), 250).with_columns(
        combats=pl.when(pl.col("general") == "Sapphire").then(1).otherwise(pl.col("combats")),
        kills=pl.when(pl.col("general") == "Sapphire").then(0).otherwise(pl.col("kills")))
    line = "".join(map(str, R._odds_line(R.odds_check(some))))
    assert "no disagreement with the exact odds found" in line and "at Balazarg, Gorgutt and Varkolak" in line, line
    assert line.endswith("the 8 combats with Sapphire are too few to check."), line


def test_a_team_that_won_every_game_tests_no_hero():
    """Never losing tells heroes apart no more than never winning: it read "too small to find
    even a hero that wins every game it plays"."""
    always = verdict_text(planted_tables({hero: 1.0 for hero in cat.RULES_HEROES}))
    assert "4 players: no hero tested: the team won every game at this count" in always, always


def test_a_runs_combats_agree_with_the_exact_odds():
    """The engine's dice against odds.py: one hero that attacks whenever its expected hits come
    within 3 of a general's life, 6,000 games (about 20,000 combats; fixed seed, deterministic).
    If both are right, each general's adjusted p is below 0.001 with probability at most 0.001
    (Holm's adjusted p is at least the raw one), so this fails by chance at most 0.4% of seeds."""
    engine = Engine(Rules(players=1), [parse_strategy("coordinated:attack_margin=-3,inn_below=8", STRATEGIES)])
    chunk = engine.play(2026, 0, 6000)
    odds = R.odds_check(engine.tables(chunk.totals)["combats"])
    assert (odds["combats"] > 3000).all() and (odds["p_adjusted"] > 1e-3).all()


def test_the_report_part_renders_a_real_run(tmp_path):
    from balance.core.api import simulate
    from balance.analysis.report import write_run_report

    simulate("defenders-of-the-realm", players=[1, 2], games=400, strategies=["coordinated"], out=tmp_path / "run")
    write_run_report(tmp_path / "run")
    text = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    for heading in ("## Heroes", "## Generals", "## Why games are lost", "## Combat odds", "## King's Champion"):
        assert heading in text
    assert "**Dice**" in text and (tmp_path / "run" / "figures" / "combat_odds.png").exists()
    generals = text.split("## Generals")[1].split("## Why games are lost")[0]
    assert all(f"| {players} | {g} | 400 |" in generals for g in cat.GENERALS for players in (1, 2))


def test_compare_measures_each_heros_team_win_rate_on_the_runs_games(tmp_path):
    """`balance compare` estimates the team's win rate with each hero of the pool (Horvitz-
    Thompson: the team's wins with the hero over the chance 2/8 a team of 2 holds it). On the
    same games as `simulate` with the same seed, the baseline times games times 2/8 is exactly
    the report's wins with that hero; the eight average to the team's win rate; and the verdict
    has a Heroes line. No hero is measured when the variants draw from different pools, or
    when the pool is the team (every hero in every game)."""
    from balance.analysis.compare import compare
    from balance.analysis.compare_report import write_compare_report
    from balance.core.api import simulate

    games, seed = 300, 3
    report = compare("defenders-of-the-realm", ["default", "fewer:minions_per_colour=20"], players=2,
                     games=games, seed=seed).report
    base = {r["metric"]: r["baseline"] for r in report["results"] if r["variant"] == "fewer"}
    run = simulate("defenders-of-the-realm", players=2, games=games, seed=seed, threads=1)
    heroes = R.presence(run.tables["teams"], 1, "wilson")
    assert heroes.height == 8
    for row in heroes.iter_rows(named=True):
        assert abs(base[f"team_win_{row['name'].replace(' ', '')}"] * games * 2 / 8 - row["won"]) < 1e-9, row
    rates = [base[m] for m in report["sides"]["metrics"]]
    assert report["sides"]["label"] == "heroes" and sum(rates) / 8 == pytest.approx(base["team_win"], abs=1e-12)
    text = write_compare_report(report, tmp_path)["markdown"].read_text(encoding="utf-8")
    moved = [r for r in report["results"] if r["metric"] in report["sides"]["metrics"] and r["difference"] != 0]
    assert ("- Heroes under `fewer`: moved most `team_win_" if moved else  # no win changed: no "most" to name
            "- Heroes under `fewer`: no change in any of the heroes' rates (each +0.00 pp)") in text, text
    four = "hero_pool=[\"Paladin\", \"Cleric\", \"Wizard\", \"Dwarf\"]"
    for variants, players in ((["default", four], 2), ([four, "b:" + four + ";minions_per_colour=20"], 4)):
        other = compare("defenders-of-the-realm", variants, players=players, games=20, seed=seed).report
        assert other["sides"] is None and not any(r["metric"].startswith("team_win_") for r in other["results"])


# ---- the spec's other [decision]s as rules keys -------------------------------------------------

def test_the_druid_heals_the_land_without_a_card():
    st = table(heroes=("Druid",), rules=Rules(players=1, hero_pool=tuple(HEROES)))
    here = loc("Windy Pass")
    st.loc[0], st.actions, st.taint[here], st.crystals_left = here, 5, 2, 10
    st.hand[0] = cards_of(RED, 1, 1)
    heal = [o for o in st.day_options(0) if o[0] == G.A_HEAL_LAND]
    assert heal == [(G.A_HEAL_LAND, -1, -1)]
    fixed_dice(st, [6, 2])
    st.do_action(0, heal[0])
    assert st.taint[here] == 1 and st.hand[0] == cards_of(RED, 1, 1) and st.actions == 4


def test_heal_land_with_minions_present_is_a_rule():
    for allowed in (True, False):
        st = table(heroes=("Paladin",), rules=Rules(players=1, heal_land_with_minions=allowed))
        here = loc("Windy Pass")
        st.loc[0], st.actions, st.taint[here] = here, 5, 1
        st.hand[0] = cards_of(RED, 1, 1)
        put(st, "Windy Pass", RED, 1)
        assert any(o[0] == G.A_HEAL_LAND for o in st.day_options(0)) is allowed


def test_fireball_and_wounds_against_the_actions_left():
    for costs in (True, False):
        st = table(heroes=("Wizard",), rules=Rules(players=1, fireball_action=costs))
        st.loc[0], st.actions = loc("Windy Pass"), 4
        put(st, "Windy Pass", RED, 2)
        st.hand[0] = cards_of(RED, 1, 1)
        fixed_dice(st, [2, 1])
        st.do_action(0, (G.A_FIREBALL, st.hand[0][0], -1))
        assert st.actions == (3 if costs else 4) and st.minions[loc("Windy Pass")][RED] == 1
    for limits in (True, False):
        st = table(heroes=("Paladin",), rules=Rules(players=1, wound_limits_actions=limits))
        st.actions, st.hp[0] = 4, 5
        st.wound(0, 3)
        assert st.actions == (2 if limits else 4)


def test_the_monarch_city_card_can_do_nothing():
    card = int(np.flatnonzero(C.darkness[:, 0] == cat.DK_MONARCH)[0])
    for effect, expected in (("spread", 1), ("nothing", 0)):
        st = table(rules=Rules(players=4, monarch_card=effect))
        put(st, "Wolf Pass", GREEN, 1)
        st.dark_deck.remove(card)
        st.resolve(card, True, [0, 1, 2, 3])
        assert st.total(C.monarch) == expected
        assert (card in st.dark_deck) is (effect == "spread") and (card in st.dark_discard) is (effect == "nothing")


def test_gorgutts_parry_pool_or_own():
    """The first hero rolls two 1s and no hit, the second two hits: the pool cancels them, 'own'
    does not."""
    for scope, left in (("pool", 6), ("own", 4)):
        st = combat_table(GREEN, heroes=("Paladin", "Cleric"))
        st.r = Rules(players=2, parry_scope=scope)
        st.hand[0], st.hand[1] = cards_of(GREEN, 1, 2), cards_of(GREEN, 1, 4)[2:]
        fixed_dice(st, [1, 1, 6, 6] + [1] * 4)
        st.attack_general(GREEN)
        assert st.life[GREEN] == left


def test_ambush_first_or_every_attack_and_undead_form_fear():
    """A demon at Windy Pass, engaged twice with a 2 each time: the ambush's +2 hits (4+) on the
    first engage always, on the second only when every attack is an ambush."""
    for scope in ("first", "every"):
        st = table(heroes=("Sorceress",), rules=Rules(players=1, ambush_scope=scope))
        st.loc[0], st.shape[0] = loc("Windy Pass"), RED
        put(st, "Windy Pass", RED, 1)
        fixed_dice(st, [2, 2])  # 2 + 2 hits a demon (4+) only with the ambush's +2
        st.engage(0, loc("Windy Pass"))
        put(st, "Windy Pass", RED, 1 - st.minions[loc("Windy Pass")][RED])
        st.engage(0, loc("Windy Pass"))
        assert st.minions[loc("Windy Pass")][RED] == (1 if scope == "first" else 0)
    for fear, wounds in ((False, 0), (True, 1)):
        st = table(heroes=("Sorceress",), rules=Rules(players=1, undead_form_fear=fear))
        st.loc[0], st.shape[0] = loc("Windy Pass"), BLACK
        put(st, "Windy Pass", BLACK, 1)
        assert st.end_of_day_wounds(0) == wounds


def test_a_run_without_a_combat_is_reported(tmp_path):
    """Three 1-hero games end before any lone combat with a general: the run's combats table is
    empty (a game's own table may be), and the report says the odds were not checked instead of
    refusing the run."""
    from balance.core.api import simulate
    from balance.analysis.report import write_run_report

    simulate("defenders-of-the-realm", players=1, games=3, seed=0, strategies=["coordinated"], out=tmp_path / "run")
    assert pl.read_parquet(tmp_path / "run" / "combats.parquet").is_empty()
    write_run_report(tmp_path / "run")
    assert "No lone hero fought a general in this run" in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
