"""ZENONZARD (issue 12): the card model, the rules, the reference engine and the spec's worked
examples (``rules/zenonzard.md``, "Worked examples": each ``test_example_N`` is example N)."""
import dataclasses
from collections import Counter
from dataclasses import replace
from itertools import groupby
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.analysis.report import ALPHA
from balance.core.errors import BalanceError
from balance.core.rng import PyStream
from balance.core.strategy import parse_strategy
from balance.games.zenonzard import catalogue as cat
from balance.games.zenonzard.catalogue import (BASE, FIELD, K_CHARGE, K_NO_BLOCK, K_RESURGE, KEYWORDS, basic_mana,
                                                cards, resolved)
from balance.games.zenonzard.decks import (CURVE, DECK_STREAM, _fill, generate, pool, read_list, unsupported_in,
                                           validate)
from balance.games.zenonzard.reference import DECK_OUT, LIFE, PLAYER, TOKEN, Game, Result, Unit, play_decks, play_game
from balance.games.zenonzard.rules import Rules
from balance.games.zenonzard.strategies import STRATEGIES


def card(name_en: str, rules: Rules = Rules()) -> cat.Card:
    """The resolved card of an English name (the first printing the rules can play)."""
    for c in cards():
        if c.name_en == name_en:
            r = resolved(c, rules.cost_9plus, rules.colour_part, rules.missing_stats)
            if r is not None:
                return r
    raise KeyError(name_en)


def strategies(*names):
    return [parse_strategy(n, STRATEGIES) for n in names]


def mono(colour: str) -> list[cat.Card]:
    """A fixed 40-card deck: 10 Basic mana, then field minions of the colour and colourless (file order)."""
    minions = [resolved(c) for c in cards() if c.kind == FIELD and c.colours in ((colour,), ("colorless",))]
    return [resolved(basic_mana(colour))] * 10 + [c for c in minions if c is not None][:30]


def table(forces=(("Cyclops", "Ouroboros"), ("Minotaur", "Chiron")), decks=None, rules=Rules(),
          seats=("control", "control")) -> Game:
    """A game before setup (empty hands, fields and bases; decks unshuffled), turn 3, seat 0 to act."""
    g = Game(rules, strategies(*seats), decks or (mono("red"), mono("blue")), forces, seed=1, game=0)
    g.turn, g.current = 3, 0
    return g


def put(g: Game, s: int, c: cat.Card, zone="field", active=True, entered=0) -> Unit:
    """Card ``c`` added to seat ``s``'s deck list and put onto its field or base."""
    seat = g.seats[s]
    seat.deck_cards.append(c)
    u = Unit(len(seat.deck_cards) - 1, active, entered)
    getattr(seat, zone).append(u)
    return u


# ---- the card model ------------------------------------------------------------------------------------
def test_a_reprint_without_an_english_name_takes_its_other_printing_s():
    """The data leaves 4 reprints without an English name; each takes the one its other
    printing of the same Japanese name has (the 9+ cost 復讐のドラゴン reads Vengeful Dragon, as
    its 9 cost printing), and a name no printing translates stays Japanese."""
    by_id = {c.id: c for c in cards()}
    assert by_id["colorless_09_02_02r_00"].name_en == by_id["colorless_09_02_ex01_00"].name_en == "Vengeful Dragon"
    filled = [c for c in cards() if c.name_en and any(d.name == c.name and not d.name_en for d in cards())]
    assert filled == []  # every printing of a translated name now has it
    assert sum(not c.name_en for c in cards()) == 138


def test_the_list_has_the_spec_counts():
    """rules/zenonzard.md: 1,439 cards (998 field, 202 base, 223 magic, 16 tokens); 287 field
    minions with BP/DP (colorless 110; blue, green, purple, red 30; white 29; yellow 28); six
    Basic base minions with unlimited copies, 300/1, cannot block; 10 Forces."""
    all_cards = cards()
    kinds = {k: sum(c.kind == k for c in all_cards) for k in (FIELD, BASE, cat.MAGIC, cat.TOKEN)}
    assert len(all_cards) == 1439 and kinds == {FIELD: 998, BASE: 202, cat.MAGIC: 223, cat.TOKEN: 16}
    pool = [c for c in all_cards if c.kind == FIELD and c.bp is not None and c.dp is not None]
    colours = {col: sum(c.colours == (col,) for c in pool) for col in cat.COLOURS}
    assert len(pool) == 287
    assert colours == {"colorless": 110, "blue": 30, "green": 30, "purple": 30, "red": 30, "white": 29, "yellow": 28}
    basics = [c for c in all_cards if c.unlimited]
    assert sorted(c.colours[0] for c in basics) == sorted(cat.COLOURED)
    assert all((c.kind, c.bp, c.dp) == (BASE, 300, 1) and c.has(K_NO_BLOCK) for c in basics)
    assert [(f.name, f.life) for f in cat.forces()] == [
        ("Siren", 2), ("Minotaur", 4), ("Orthrus", 3), ("Sphinx", 3), ("Cyclops", 2), ("Chimera", 3),
        ("Chiron", 4), ("Pegasus", 3), ("Phoenix", 3), ("Ouroboros", 2)]


def test_keywords_of_the_v1_pool():
    """Printed keywords among the 287 field minions with stats. The spec's table counts Resurge
    10 where a keyword printed on a line of its own gives 9 (the others agree); 20 carry only
    keywords and 18 print "no effect": 38 are simulated exactly."""
    pool = [c for c in cards() if c.kind == FIELD and c.bp is not None and c.dp is not None]
    counts = {k: sum(c.has(1 << i) for c in pool) for i, k in enumerate(KEYWORDS)}
    assert counts == {"Swoop": 9, "Charge": 10, "Resurge": 9, "Revenge": 7, "Pierce": 7, "Infiltrate": 7,
                      "cannot block": 0, "cannot move": 0}
    exact = [c for c in pool if c.exact]
    assert len(exact) == 38 and sum(1 for c in exact if c.keywords) == 20
    assert card("Karna - Master of Thunder").keywords == K_CHARGE | K_RESURGE  # "［襲撃］［再起］" on one line


def test_cost_readings():
    """9+ is 9 (or the rules' value); the ceil(cost/3) colour part reproduces 54 of the 65
    printed ones; the imputed medians are the spec's table."""
    printed = [c for c in cards() if c.part is not None and c.coloured]
    assert len(printed) == 65 and sum(-(-c.cost // 3) == c.part for c in printed) == 54
    nine = next(c for c in cards() if c.nine_plus and c.kind == FIELD and c.bp is not None)
    assert resolved(nine).cost == 9 and resolved(nine, cost_9plus=10).cost == 10
    assert cat.stat_medians() == {0: (100, 0), 1: (200, 0), 2: (200, 1), 3: (300, 1), 4: (400, 1), 5: (500, 2),
                                  6: (600, 2), 7: (700, 2), 8: (800, 2), 9: (900, 3), 10: (1000, 2)}
    unknown = next(c for c in cards() if c.kind == FIELD and c.bp is None and c.cost == 4 and not c.nine_plus)
    assert resolved(unknown) is None
    assert (resolved(unknown, missing="impute").bp, resolved(unknown, missing="impute").dp) == (400, 1)
    charmi = card("Angel Charmi")
    assert (charmi.cost, charmi.part, card("Angel Charmi", Rules(colour_part="zero")).part) == (5, 2, 0)
    assert card("Exptera", Rules(colour_part="printed_only")).part == 0


# ---- the rules ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("overrides, words", [
    ({"total_life": 8}, "total_life=8 is out of range; allowed: integer 9..40"),
    ({"pierce": "half"}, "unknown pierce 'half'; allowed: dp_difference, full_dp, off"),
    ({"keywords": ["Swoop", "Flying"]}, "unknown keyword 'Flying'"),
    ({"opening_hand": 12, "deck_size": 10}, "opening_hand=12 is more than deck_size=10"),
    ({"opening_hand": 8, "hand_max": 7}, "opening_hand=8 is more than deck_size=40 or hand_max=7; allowed: "
                                         "integer 0..7"),
    ({"first_turn_draw": "yes"}, "first_turn_draw='yes' is not true or false"),
    ({"life": 10}, "unknown rules key 'life'"),
])
def test_bad_rules_are_refused_in_one_line(overrides, words):
    with pytest.raises(BalanceError, match=None) as e:
        Rules.from_overrides(overrides)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_rules_keys_are_documented_and_keywords_mask():
    assert set(Rules.keys()) == set(Rules.DOCS)
    assert Rules().keyword_mask == (1 << len(KEYWORDS)) - 1
    assert Rules.from_overrides({"keywords": "Charge"}).keyword_mask == K_CHARGE
    assert Rules().turn_bound == 70


# ---- the worked examples ------------------------------------------------------------------------------------
def test_example_1_player_life():
    assert [s.life for s in table().seats] == [8, 4]


def test_example_2_first_turns():
    """Turn 1: the first player has no right to move and draws nothing (hand 6); with one mana it
    can summon only cost <= 1. The second player's first turn: it draws (7) and has 1 right."""
    g = Game(Rules(mulligans=0), strategies("control", "control"), (mono("red"), mono("blue")),
             (("Cyclops", "Ouroboros"), ("Minotaur", "Chiron")), seed=3, game=0)
    g.setup()
    seen = {}
    g.mana_phase = lambda s: seen.setdefault(g.turn, (len(g.seats[s].hand), g.seats[s].rights))
    g.main_phase = lambda s: None
    g.turn, g.current = 1, 0
    g.take_turn(0)
    g.turn, g.current = 2, 1
    g.take_turn(1)
    assert seen == {1: (6, 0), 2: (7, 1)}
    g = table()
    g.turn = 1
    put(g, 0, resolved(basic_mana("red")), "base")
    seat = g.seats[0]
    for name in ("Fire Beetle", "Armadahlio"):  # cost 2
        seat.deck_cards.append(card(name))
        seat.hand.append(len(seat.deck_cards) - 1)
    cheap = next(c for c in mono("red") if c.kind == FIELD and c.cost == 1)
    seat.deck_cards.append(cheap)
    seat.hand.append(len(seat.deck_cards) - 1)
    assert [seat.card(c).cost for c in g.summons(0, False)] == [1]


def test_example_3_colour_part():
    """Angel Charmi (yellow, 5(黄2)): {2 yellow, 3 colourless} pays it; {1 yellow, 4 colourless}
    does not, unless Chimera is its owner's on its owner's turn. Exptera: imputed 3 red."""
    yellow = resolved(basic_mana("yellow"))
    charmi = card("Angel Charmi")

    def base(forces, yellows, turn_of):
        g = table(forces=(forces, ("Minotaur", "Chiron")))
        g.current = turn_of
        for _ in range(yellows):
            put(g, 0, yellow, "base")
        for _ in range(5 - yellows):
            g.seats[0].base.append(Unit(TOKEN))
        return g.payment(0, charmi)

    assert base(("Cyclops", "Ouroboros"), 2, 0) is not None
    assert base(("Cyclops", "Ouroboros"), 1, 0) is None
    assert base(("Chimera", "Ouroboros"), 1, 0) is not None
    assert base(("Chimera", "Ouroboros"), 1, 1) is None  # a flash summon on the opponent's turn
    assert card("Exptera").part == 3 and card("Exptera").colours == ("red",)


def test_example_4_equal_bp_destroys_both_and_cyclops_breaks_the_tie():
    g = table(forces=(("Minotaur", "Chiron"), ("Minotaur", "Chiron")))
    dragon, ursa = put(g, 0, card("Emerald Dragon")), put(g, 1, card("Ursarano"))
    g.resolve(0, dragon, PLAYER, ursa)
    assert g.seats[0].field == [] and g.seats[1].field == []
    g = table(forces=(("Minotaur", "Chiron"), ("Cyclops", "Ouroboros")))
    dragon, ursa = put(g, 0, card("Emerald Dragon")), put(g, 1, card("Ursarano"))
    ursa.active = False  # rested to block
    g.resolve(0, dragon, PLAYER, ursa)
    assert g.seats[0].field == [] and g.seats[1].field == [ursa] and not ursa.active


def test_example_5_pierce_through_a_blocker():
    for forces, taken in ((("Cyclops", "Ouroboros"), 2), (("Minotaur", "Ouroboros"), 1)):
        g = table(forces=(("Cyclops", "Ouroboros"), forces))
        life = g.seats[1].life
        ursa, armada = put(g, 0, card("Ursarano")), put(g, 1, card("Armadahlio"))
        g.resolve(0, ursa, PLAYER, armada)
        assert g.seats[1].field == [] and g.seats[0].field == [ursa]
        assert life - g.seats[1].life == taken


def test_example_6_revenge_only_on_its_owners_turn():
    g = table(forces=(("Minotaur", "Chiron"), ("Minotaur", "Chiron")))
    tortoise, dragon = put(g, 0, card("Toadstool Tortoise")), put(g, 1, card("Emerald Dragon"))
    g.resolve(0, tortoise, PLAYER, dragon)
    assert g.seats[0].field == [] and g.seats[1].field == []
    g = table(forces=(("Minotaur", "Chiron"), ("Minotaur", "Chiron")))
    g.current = 1
    dragon, tortoise = put(g, 1, card("Emerald Dragon")), put(g, 0, card("Toadstool Tortoise"))
    g.resolve(1, dragon, PLAYER, tortoise)
    assert g.seats[0].field == [] and g.seats[1].field == [dragon]


def test_example_7_orthrus_overflow_is_lost_and_the_force_tutors():
    g = table(forces=(("Orthrus", "Chiron"), ("Cyclops", "Ouroboros")))
    defender = g.seats[1]
    defender.deck = list(range(len(defender.deck_cards)))  # mana cards first: the top holds field minions
    life, hand, deck = defender.life, len(defender.hand), len(defender.deck)
    exptera = put(g, 0, card("Exptera"))
    g.resolve(0, exptera, 0, None)  # Cyclops: 2 life
    assert defender.force_life == [0, 2] and defender.life == life
    assert [defender.card(u).kind for u in defender.base] == [BASE] and defender.base[0].active
    assert len(defender.hand) == hand + 1 and len(defender.deck) == deck - 2
    assert sorted(defender.deck) != defender.deck  # shuffled


def test_example_8_charge_lifts_the_entry_restriction():
    g = table()
    beetle = put(g, 0, card("Fire Beetle"), entered=g.turn)
    sigre = put(g, 0, card("Sigre - The Crow Tengu"), entered=g.turn)
    assert g.targets(0, beetle) == [PLAYER, 0, 1]
    assert g.targets(0, sigre) == [0, 1]
    g.seats[1].force_life = [0, 0]
    assert g.targets(0, sigre) == []  # force_only, literally
    g = table(rules=Rules(new_minion_targets="player_if_no_force"))
    sigre = put(g, 0, card("Sigre - The Crow Tengu"), entered=g.turn)
    assert g.targets(0, sigre) == [0, 1]
    g.seats[1].force_life = [0, 0]
    assert g.targets(0, sigre) == [PLAYER]


def test_example_9_infiltrate():
    g = table()
    cloth = card("Floating Cloth")
    imp, ursa = put(g, 1, card("Trickster Imp")), put(g, 1, card("Ursarano"))
    assert g.can_block(1, imp, cloth) and not g.can_block(1, ursa, cloth)
    g = table(rules=Rules(infiltrate="unblockable"))
    assert not g.can_block(1, put(g, 1, card("Trickster Imp")), cloth)


def test_example_10_resurge_stands_up_at_the_end_of_its_turn():
    g = table(forces=(("Minotaur", "Chiron"), ("Minotaur", "Chiron")))
    g.seats[0].hand.clear()
    armada, other = put(g, 0, card("Armadahlio")), put(g, 0, card("Emerald Dragon"))
    g.mana_phase = lambda s: None
    g.main_phase = lambda s: [setattr(u, "active", False) for u in g.seats[s].field]
    g.take_turn(0)
    assert armada.active and not other.active


def test_the_flash_timing_stops_once_the_attacker_has_left_the_field():
    """rules/zenonzard.md, Attack 2 (the original: if the attacking minion has left the field,
    the flash timing stops): the attacker summons a Swoop minion onto its full field and trashes
    the attacker for room; the defender is offered nothing more and takes no damage."""
    g = table(seats=("random", "random"))
    attacker = put(g, 0, card("Fire Beetle"))
    for _ in range(g.rules.field_max - 1):
        put(g, 0, card("Armadahlio"))
    for seat in g.seats:
        seat.base.extend(Unit(TOKEN) for _ in range(14))  # mana to pay any Swoop minion
        for name in ("Gargantuan Eagle", "Cheetera"):
            seat.deck_cards.append(card(name))
            seat.hand.append(len(seat.deck_cards) - 1)
    asked = []

    def choose(s, n, default):  # seat 1 passes; seat 0 summons and trashes field[0], the attacker
        asked.append(s)
        return n - 1 if s == 1 else 0
    g.choose = choose
    life = g.seats[1].life
    g.attack(0, 0, PLAYER)
    assert asked == [1, 0, 0]  # the pass, the summon, the unit trashed for room; then nothing
    assert all(u is not attacker for u in g.seats[0].field) and g.seats[1].life == life
    assert len(g.seats[1].field) == 0  # the defender summoned nothing after the attacker left


def test_example_11_an_empty_deck_at_the_draw_step_loses():
    g = table()
    g.seats[0].deck = []
    with pytest.raises(Exception) as e:
        g.take_turn(0)
    assert (e.value.winner, e.value.end) == (1, DECK_OUT)


# ---- whole games ------------------------------------------------------------------------------------------------
def decks():
    return mono("red"), mono("blue")


@pytest.mark.parametrize("seats", [("random", "random"), ("aggro", "control"), ("evaluator", "random")])
def test_games_end_within_the_bound_and_repeat_from_their_seed(seats):
    forces = (("Cyclops", "Phoenix"), ("Pegasus", "Siren"))
    results = [play_decks(Rules(), strategies(*seats), decks(), forces, seed=7, game=g) for g in range(60)]
    assert all(r.end in (LIFE, DECK_OUT) and 1 <= r.turns <= Rules().turn_bound for r in results)
    assert all((r.life[1 - r.winner] <= 0) == (r.end == LIFE) for r in results)
    again = [play_decks(Rules(), strategies(*seats), decks(), forces, seed=7, game=g) for g in range(60)]
    assert again == results
    assert len({(r.winner, r.turns) for r in results}) > 3  # the games differ


def test_zones_stay_within_their_limits_in_random_play():
    """Every turn of 100 random games: hand <= hand_max, field <= field_max, base <= base_max,
    Force life in 0..its life, and each seat's 40 cards in exactly one zone."""
    rules = Rules(hand_max=7, field_max=3, base_max=6)
    for game in range(100):
        g = Game(rules, strategies("random", "random"), decks(), (("Siren", "Pegasus"), ("Phoenix", "Orthrus")),
                 seed=11, game=game)
        turn = g.take_turn

        def checked(s, turn=turn, g=g):
            turn(s)
            for seat in g.seats:
                assert len(seat.hand) <= 7 and len(seat.field) <= 3 and len(seat.base) <= 6
                held = (seat.deck + seat.hand + seat.trash + [u.card for u in seat.field + seat.base
                                                               if u.card != TOKEN])
                assert sorted(held) == list(range(40))
        g.take_turn = checked
        g.play()


def test_a_turn_cap_ends_as_capped():
    r = play_decks(Rules(turn_cap=3), strategies("control", "control"), decks(),
                  (("Minotaur", "Chiron"), ("Minotaur", "Chiron")), seed=1, game=0)
    assert (r.winner, r.end, r.turns) == (-1, "capped", 3)


def test_aggro_beats_random():
    """A planted difference: aggro against random wins most games from either seat (300 games
    each; the observed share is far above the bound, so a correct engine fails this with
    probability well under 1e-6)."""
    forces = (("Cyclops", "Orthrus"), ("Cyclops", "Orthrus"))
    d = mono("red")
    for seats, me in ((("aggro", "random"), 0), (("random", "aggro"), 1)):
        wins = sum(play_decks(Rules(), strategies(*seats), (d, d), forces, seed=5, game=g).winner == me
                   for g in range(300))
        assert wins > 0.7 * 300


def test_rule_variants_change_the_game():
    g = table(forces=(("Minotaur", "Chiron"), ("Minotaur", "Chiron")), rules=Rules(tie_destroys_both=False))
    dragon, ursa = put(g, 0, card("Emerald Dragon")), put(g, 1, card("Ursarano"))
    g.resolve(0, dragon, PLAYER, ursa)
    assert g.seats[0].field == [dragon] and g.seats[1].field == [ursa]
    g = table(forces=(("Cyclops", "Ouroboros"), ("Cyclops", "Ouroboros")), rules=Rules(force_overflow="to_player"))
    life = g.seats[1].life
    g.resolve(0, put(g, 0, card("Ursarano")), 0, None)  # 3 DP into a 2-life Force
    assert g.seats[1].life == life - 1
    g = table(forces=(("Cyclops", "Ouroboros"), ("Cyclops", "Ouroboros")), rules=Rules(keywords=("Charge",)))
    tortoise, dragon = put(g, 0, card("Toadstool Tortoise")), put(g, 1, card("Emerald Dragon"))
    g.resolve(0, tortoise, PLAYER, dragon)  # Revenge not simulated
    assert g.seats[1].field == [dragon]
    assert dataclasses.replace(Rules(), pierce="off").validated().pierce == "off"


# ---- decks: generated, read from a list file, checked --------------------------------------------------
ZZ_RULES = Rules()


def _zz_card(name_en):
    """The first printing of an English name, resolved by the default rules."""
    return resolved(next(c for c in cards() if c.name_en == name_en))


def _zz_curve_costs():
    return [cost for cost, n in CURVE for _ in range(n)]


def test_zenonzard_pool_size_and_colours():
    p = pool(ZZ_RULES)
    assert len(p) == 287
    assert Counter(c.colours[0] for c in p) == {"colorless": 110, "blue": 30, "green": 30, "purple": 30,
                                                 "red": 30, "white": 29, "yellow": 28}
    assert all(c.kind == FIELD and len(c.colours) == 1 and c.bp is not None for c in p)
    # impute lets the minions without printed stats in
    assert len(pool(Rules(missing_stats="impute"))) > 287


def test_zenonzard_curve_has_30_slots():
    assert sum(n for _, n in CURVE) == 30
    assert [cost for cost, _ in CURVE] == list(range(1, 10))


def _zz_check_generated(deck, colours, mana_counts):
    assert len(deck) == 40
    mana, field = deck[:10], deck[10:]
    assert all(c.kind == BASE and c.unlimited for c in mana)
    assert Counter(c.colours[0] for c in mana) == mana_counts
    assert all(c.kind == FIELD for c in field)
    # slot i of the curve holds a card of that cost (the 9 slot: 9 or more)
    assert [min(c.cost, 9) for c in field] == _zz_curve_costs()
    assert max(Counter(c.name for c in field).values()) <= 3
    assert {c.colours[0] for c in field} <= set(colours) | {"colorless"}
    assert validate(deck, ZZ_RULES) == deck


def test_zenonzard_mono_deck():
    deck = generate("mono", ("red",), ZZ_RULES, 7, 0)
    _zz_check_generated(deck, ("red",), {"red": 10})
    assert deck[0] == resolved(basic_mana("red"))
    assert (deck[0].bp, deck[0].dp, deck[0].cost) == (300, 1, 0)
    assert any(c.colours == ("red",) for c in deck[10:])
    assert generate("mono", ("red",), ZZ_RULES, 7, 0) == deck
    assert generate("mono", ("red",), ZZ_RULES, 7, 1) != deck
    assert generate("mono", ("red",), ZZ_RULES, 8, 0) != deck
    assert generate("mono", "red", ZZ_RULES, 7, 0) == deck  # a single colour name is accepted


def test_zenonzard_duo_deck():
    deck = generate("duo", ("blue", "yellow"), ZZ_RULES, 11, 2)
    _zz_check_generated(deck, ("blue", "yellow"), {"blue": 5, "yellow": 5})
    assert {c.colours[0] for c in deck[10:]} >= {"blue", "yellow"}
    assert generate("duo", ("blue", "yellow"), ZZ_RULES, 11, 2) == deck
    assert generate("duo", ("blue", "yellow"), ZZ_RULES, 11, 3) != deck


def test_zenonzard_mana_count_follows_deck_size():
    deck = generate("duo", ("green", "white"), Rules(deck_size=41), 1, 0)
    assert len(deck) == 41
    assert Counter(c.colours[0] for c in deck if c.kind == BASE) == {"green": 6, "white": 5}
    with pytest.raises(BalanceError, match="deck_size=30"):
        generate("mono", ("red",), Rules(deck_size=30), 1, 0)


def test_zenonzard_generation_is_pure_in_seed_and_k():
    alone = generate("mono", ("purple",), ZZ_RULES, 3, 3)
    for k in range(3):
        generate("mono", ("purple",), ZZ_RULES, 3, k)
    assert generate("mono", ("purple",), ZZ_RULES, 3, 3) == alone
    decks = {tuple(c.id for c in generate("mono", ("purple",), ZZ_RULES, 3, k)) for k in range(6)}
    assert len(decks) == 6


def test_zenonzard_first_slot_replays_the_documented_draw():
    seed, k = 5, 4
    deck = generate("mono", ("green",), ZZ_RULES, seed, k)
    ones = [c for c in pool(ZZ_RULES) if c.cost == 1 and c.colours[0] in ("green", "colorless")]
    weights = [2 if c.coloured else 1 for c in ones]
    assert DECK_STREAM == 100
    i = PyStream(seed, k, 100).below(sum(weights))
    for card, w in zip(ones, weights):
        if i < w:
            break
        i -= w
    assert deck[10] == card


def test_zenonzard_coloured_cards_weigh_double():
    # cost-3 slots of mono red: 7 red and 21 colorless cards; weighted 2:1 red takes 14/35 = 0.4
    red = total = 0
    for k in range(200):
        deck = generate("mono", ("red",), ZZ_RULES, 1, k)
        first3 = deck[10 + 6]  # the first cost-3 slot: no copies taken yet, all 28 cards eligible
        red += first3.colours == ("red",)
        total += 1
    assert 0.3 < red / total < 0.5


def test_zenonzard_reference_deck_is_deterministic_and_strongest():
    deck = generate("reference", ("red",), ZZ_RULES, 0, 0)
    assert generate("reference", ("red",), ZZ_RULES, 99, 5) == deck
    _zz_check_generated(deck, ("red",), {"red": 10})
    threes = deck[10 + 6:10 + 12]
    # by hand: Hermit Horncrab 500/2 and Megalosaurus 500/1 are the top BP of cost 3 (red + colorless)
    assert [c.id for c in threes] == ["colorless_03_02_01_00"] * 3 + ["colorless_03_02_00_01"] * 3
    cands = sorted((c for c in pool(ZZ_RULES) if c.cost == 3 and c.colours[0] in ("red", "colorless")),
                   key=lambda c: (-c.bp, -c.dp, c.id))
    assert [c.id for c in threes] == [cands[0].id] * 3 + [cands[1].id] * 3
    assert min(c.bp for c in threes) >= max(c.bp for c in cands[2:])


def test_zenonzard_slot_falls_back_lower_then_higher():
    p = pool(ZZ_RULES)
    one = next(c for c in p if c.cost == 1)
    nines = [c for c in p if c.cost >= 9]
    best = lambda eligible: min(eligible, key=lambda c: (-c.bp, -c.dp, c.id))  # noqa: E731
    field = _fill([one] + nines, ZZ_RULES, best)
    assert len(field) == 30
    # cost 1: two copies; the first cost-2 slot falls back to cost 1 (its third copy), then to cost 9+
    assert field[:3] == [one] * 3
    assert all(c.cost >= 9 for c in field[3:])
    assert max(Counter(c.name for c in field).values()) == 3


def test_zenonzard_bad_kind_and_colours():
    for kind, colours, word in (("trio", ("red",), "trio"), ("mono", ("pink",), "pink"),
                                ("mono", ("colorless",), "colorless"), ("duo", ("red", "red"), "different"),
                                ("duo", ("red",), "2 colours"), ("reference", ("red", "blue"), "1 colour")):
        with pytest.raises(BalanceError, match=word) as e:
            generate(kind, colours, ZZ_RULES, 1, 0)
        assert "\n" not in str(e.value)
    with pytest.raises(BalanceError, match="allowed: mono, duo, reference"):
        generate("trio", ("red",), ZZ_RULES, 1, 0)
    with pytest.raises(BalanceError, match="allowed: white, yellow, red, blue, green, purple$"):
        generate("mono", ("pink",), ZZ_RULES, 1, 0)


def _zz_write(tmp_path, text, name="deck.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_zenonzard_read_list_round_trip(tmp_path):
    deck = generate("mono", ("yellow",), ZZ_RULES, 21, 0)
    # runs of one card, in deck order (a card may come back after another of its cost)
    runs = [(cid, len(list(group))) for cid, group in groupby(c.id for c in deck)]
    assert len(runs) < len(deck)  # some counts above 1 are written
    lines = ["# a generated deck, written back", ""] + [f"{n}x {cid}" for cid, n in runs]
    assert read_list(_zz_write(tmp_path, "\n".join(lines) + "\n"), ZZ_RULES) == deck


def test_zenonzard_read_list_names_counts_comments(tmp_path):
    text = """# red list by hand
10 Miner of Aguma
3x fire beetle          # English names match case-insensitively
エクスプテラ            # a Japanese name: Exptera
2X Exptera
colorless_06_02_01_00   # Emerald Dragon by image_id

"""
    fillers = [c for c in pool(ZZ_RULES) if c.colours == ("colorless",) and c.name_en
               and c.name_en not in ("Emerald Dragon",)][:7]
    text += "".join(f"3 {c.name_en}\n" for c in fillers)
    deck = read_list(_zz_write(tmp_path, text), Rules(deck_size=10 + 3 + 3 + 1 + 21))
    assert len(deck) == 38
    assert deck[:10] == [resolved(basic_mana("red"))] * 10
    assert deck[10:13] == [_zz_card("Fire Beetle")] * 3
    assert deck[13:16] == [_zz_card("Exptera")] * 3
    assert deck[16] == _zz_card("Emerald Dragon")
    assert [c.id for c in deck[17::3]] == [c.id for c in fillers]


def test_zenonzard_read_list_reprint_takes_first_playable(tmp_path):
    # 「天知」プラトーナ has two printings; the reprint has no printed stats
    first, reprint = [c for c in cards() if c.name == "「天知」プラトーナ"]
    assert first.bp is not None and reprint.bp is None
    path = _zz_write(tmp_path, "「天知」プラトーナ\n9 Miner of Aguma\n")
    for missing in ("exclude", "impute"):
        assert read_list(path, Rules(deck_size=10, missing_stats=missing))[0].id == first.id


def _zz_error(tmp_path, text, rules=ZZ_RULES):
    with pytest.raises(BalanceError) as e:
        read_list(_zz_write(tmp_path, text), rules)
    message = str(e.value)
    assert "\n" not in message
    assert "deck.txt" in message
    return message


def test_zenonzard_read_list_errors(tmp_path):
    m = _zz_error(tmp_path, "10 Miner of Aguma\n3 Emerld Dragon\n")
    assert "line 2" in m and "'Emerld Dragon'" in m and "Emerald Dragon" in m  # names and suggests
    m = _zz_error(tmp_path, "qqqqqqqqqqqqqqqqqqq\n")
    assert "line 1" in m and "qqqqqqqqqqqqqqqqqqq" in m and "did you mean" not in m
    for bad in ("0", "-2", "2.5x", "41"):
        m = _zz_error(tmp_path, f"# header\n{bad} Fire Beetle\n")
        assert "line 2" in m and f"bad count '{bad}'" in m and "Fire Beetle" in m
    m = _zz_error(tmp_path, "3x\n")
    assert "line 1" in m and "'3x'" in m
    m = _zz_error(tmp_path, "Token Merman\n")
    assert "line 1" in m and "Token Merman" in m and "token" in m
    m = _zz_error(tmp_path, "\n\nJellygirl\n")
    assert "line 3" in m and "Jellygirl" in m and "missing_stats=impute" in m


def test_zenonzard_read_list_impute_allows_unknown_stats(tmp_path):
    rules = Rules(deck_size=10, missing_stats="impute")
    deck = read_list(_zz_write(tmp_path, "Jellygirl\n9 Songbird of Poseido\n"), rules)
    assert deck[0].name_en == "Jellygirl" and deck[0].bp is not None and deck[0].dp is not None


def test_zenonzard_read_list_missing_file(tmp_path):
    with pytest.raises(BalanceError, match="nope.txt.*not found"):
        read_list(tmp_path / "nope.txt", ZZ_RULES)


def test_zenonzard_read_list_deck_rule_errors(tmp_path):
    red = "\n".join(f"{n} {c.id}" for c, n in Counter(generate("mono", ("red",), ZZ_RULES, 2, 0)).items())
    m = _zz_error(tmp_path, red + "\nFire Beetle\n")
    assert "41 cards; allowed: exactly 40" in m
    m = _zz_error(tmp_path, "4 Fire Beetle\n36 Miner of Aguma\n")
    assert "line 1" in m and "4 copies" in m and "Fire Beetle" in m
    m = _zz_error(tmp_path, "2 Fire Beetle\n36 Miner of Aguma\n2 ファイアービートル\n")
    assert "lines 1, 3" in m and "4 copies" in m


def test_zenonzard_validate_size_and_copies():
    deck = generate("mono", ("white",), ZZ_RULES, 4, 0)
    with pytest.raises(BalanceError, match="39 cards; allowed: exactly 40"):
        validate(deck[:-1], ZZ_RULES)
    beetle = _zz_card("Fire Beetle")
    with pytest.raises(BalanceError, match="4 copies of Fire Beetle") as e:
        validate([beetle] * 4 + [resolved(basic_mana("red"))] * 36, ZZ_RULES)
    assert "at most 3" in str(e.value)
    # the Basic base minions are unlimited; a generous max_copies lets 4 through
    assert len(validate([beetle] * 4 + [resolved(basic_mana("red"))] * 36, Rules(max_copies=4))) == 40


def test_a_deck_whose_mana_cannot_pay_a_colour_part_is_legal_as_in_the_rules(tmp_path):
    """rules/zenonzard.md, Components: a deck is 40 cards with at most 3 copies of a name; no
    rule asks for mana of a card's colour (a field minion moved to the base is mana of its
    colour too). Angel Charmi (yellow, 5(黄2)) with one yellow mana card, with or without
    Chimera, and a magic card, are accepted."""
    charmi = _zz_card("Angel Charmi")
    assert (charmi.cost, charmi.part) == (5, 2)
    yellow, red = resolved(basic_mana("yellow")), resolved(basic_mana("red"))
    deck = [charmi] + [yellow] + [red] * 38
    assert validate(deck, ZZ_RULES) == deck
    listed = read_list(_zz_write(tmp_path, "Angel Charmi\n39 Miner of Aguma\n"), ZZ_RULES)
    assert listed[0].name_en == "Angel Charmi"
    magic = read_list(_zz_write(tmp_path, "Merfolk March\n39 Songbird of Poseido\n"), ZZ_RULES)
    assert magic[0].kind == "magic"


def test_zenonzard_unsupported_in():
    charmi, beetle = _zz_card("Angel Charmi"), _zz_card("Fire Beetle")
    assert not charmi.exact and beetle.exact
    deck = [beetle, charmi, beetle, charmi, replace(charmi)]
    assert unsupported_in(deck) == [charmi]
    generated = generate("mono", ("red",), ZZ_RULES, 9, 0)
    found = unsupported_in(generated)
    assert found and all(not c.exact for c in found)
    assert len({c.id for c in found}) == len(found)
    assert [c.id for c in found] == list(dict.fromkeys(c.id for c in generated if not c.exact))


# ---- the kernel plays the reference's games ---------------------------------------------------------------
def kernel_results(rules, seats, deck_pair, forces, seed, games):
    """``reference.Result``s of the kernel's games ``games`` (``kernel.play_games``)."""
    import numba
    import numpy as np

    from balance.games.zenonzard import kernel as K

    st = K.new_state(rules, strategies(*seats))
    rows = np.stack([K.deck_rows(d) for d in deck_pair])
    sizes = np.array([len(d) for d in deck_pair], np.int64)
    codes = {f.name: i for i, f in enumerate(cat.forces())}
    pairs = np.array([[codes[n] for n in pair] for pair in forces], np.int64)  # in the order given
    lives = np.array([f.life for f in cat.forces()], np.int64)
    games = np.asarray(games, np.int64)
    n = len(games)
    winner, turns, end = (np.zeros(n, np.int64) for _ in range(3))
    life, destroyed, deck_of, pair_of = (np.zeros((n, 2), np.int64) for _ in range(4))
    state = st.view(np.recarray)[0] if numba.config.DISABLE_JIT else st[0]
    seats_01 = np.arange(2, dtype=np.int64)
    K.play_games(state, rows, sizes, 0, seats_01, seats_01, False, pairs, lives, seed, games, winner, turns, end,
                 life, destroyed, deck_of, pair_of, -1, rows, np.zeros((2, K.MAX_DECK), np.int64),
                 np.zeros((0, K.CS_N), np.int64))
    ends = (LIFE, DECK_OUT, "capped")
    return [Result(int(winner[i]), int(turns[i]), ends[end[i]], tuple(map(int, life[i])),
                       tuple(map(int, destroyed[i]))) for i in range(n)]


def random_decks(seed):
    """Two 40-card decks (red and blue: 10 Basic mana + 30 minions of the colour or colourless,
    drawn with repeats up to 3 copies) that differ with ``seed``: they reach every keyword."""
    import random

    rng, pair = random.Random(seed), []
    for colour in ("red", "blue"):
        minions = [c for c in pool(Rules()) if c.colours in ((colour,), ("colorless",))]
        deck = [resolved(basic_mana(colour))] * 10
        while len(deck) < 40:
            c = rng.choice(minions)
            if deck.count(c) < 3:
                deck.append(c)
        pair.append(deck)
    return pair


EQUIVALENCE = [  # (seats, rules, forces): every strategy, both seat orders, rule variants, every Force
    (("random", "random"), Rules(), (("Cyclops", "Ouroboros"), ("Minotaur", "Phoenix"))),
    (("aggro", "control"), Rules(), (("Siren", "Chimera"), ("Orthrus", "Sphinx"))),
    (("control", "aggro"), Rules(), (("Chiron", "Pegasus"), ("Cyclops", "Chimera"))),
    (("evaluator", "evaluator"), Rules(), (("Phoenix", "Ouroboros"), ("Siren", "Minotaur"))),
    (("evaluator:aggression=0.3,attack_margin=50,block_margin=1,hold_swoop=1,ramp=1", "random"),
     Rules(), (("Sphinx", "Pegasus"), ("Chimera", "Chiron"))),
    (("aggro", "random"), Rules(tie_destroys_both=False, force_overflow="to_player", pierce="full_dp",
                                 moved_base_minion_targets="any", new_minion_targets="any", first_turn_draw=True,
                                 first_turn_move=True),
     (("Orthrus", "Phoenix"), ("Cyclops", "Siren"))),
    (("random", "control"), Rules(hand_max=5, field_max=3, base_max=6, moves_per_turn=2, infiltrate="unblockable",
                                   mana_enters="rested", summon_enters="rested", force_tutor_enters="rested",
                                   keywords=("Swoop", "Charge", "Pierce"), turn_cap=20),
     (("Minotaur", "Chimera"), ("Ouroboros", "Pegasus"))),
]


def check_equivalence(case, blocks, seed):
    """Game by game, the kernel's (winner, turns, end, life, Forces destroyed) equal the
    reference's: ``blocks`` blocks of 50 games of case ``case``, new decks each block."""
    seats, rules, forces = EQUIVALENCE[case]
    for block in range(blocks):
        pair = random_decks(1000 * seed + 100 * case + block)
        games = range(50 * block, 50 * block + 50)
        want = [play_decks(rules, strategies(*seats), pair, forces, seed=seed, game=g) for g in games]
        assert kernel_results(rules, seats, pair, forces, seed, games) == want


@pytest.mark.parametrize("case", range(len(EQUIVALENCE)))
def test_the_kernel_plays_the_references_games(case):
    """200 games per case (1,400 in all)."""
    check_equivalence(case, blocks=4, seed=case)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(EQUIVALENCE)))
def test_the_kernel_plays_the_references_games_at_length(case):
    """2,000 more games per case (14,000 in all), other seeds and decks."""
    check_equivalence(case, blocks=40, seed=100 + case)


# ---- the engine: sides, decks, tables --------------------------------------------------------------------------
def engine(seats=("random", "random"), sides=None, rules=Rules()):
    from balance.games.zenonzard.engine import Engine

    return Engine(rules, strategies(*seats), sides=sides)


def deck_file(tmp_path, colour="red") -> str:
    """A deck list file of the generated mono deck 0 of ``colour`` (image ids, one a line)."""
    path = tmp_path / f"{colour}.txt"
    path.write_text("\n".join(c.id for c in generate("mono", colour, Rules(), 0, 0)) + "\n", encoding="utf-8")
    return str(path)


SIDED = [  # (sides, rules): drawn, a mirror pool of two-colour decks, fixed parts, files
    (None, Rules()),
    (None, Rules(decks="duo", deck_pool=7, mirror_decks=True)),
    (["forces=Minotaur+Phoenix", "deck=reference:blue"], Rules()),
    (["deck=duo:red+blue,forces=Chimera+Siren"] * 2, Rules(decks="reference")),
    (["FILE,forces=Cyclops+Siren", "drawn"], Rules(decks="mono+duo", deck_pool=30)),
    (["MAGIC,forces=Chimera+Pegasus", "forces=Orthrus+Phoenix"], Rules()),  # dead magic cards in hand
]


def magic_deck_file(tmp_path) -> str:
    """A red list whose last four field minions are four different magic cards (v1 never plays
    them: they sit in the hand as dead cards)."""
    magic = [c for c in cards() if c.kind == cat.MAGIC and c.cost is not None][:4]
    deck = generate("mono", "red", Rules(), 0, 0)[:-4] + magic
    path = tmp_path / "magic.txt"
    path.write_text("\n".join(c.id for c in deck), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("case", range(len(SIDED)))
def test_the_engine_plays_the_references_games_with_drawn_and_given_sides(case, tmp_path):
    """The engine's chunk equals ``reference.play_game`` game by game (win units, Force pair,
    deck, outcome, length) for 40 games, with sides drawn, given in part, given from a file."""
    sides, rules = SIDED[case]
    if sides is not None:
        sides = [s.replace("FILE", "deck=" + deck_file(tmp_path)).replace("MAGIC", "deck=" + magic_deck_file(tmp_path))
                 for s in sides]
    e = engine(("evaluator", "random"), sides, rules)
    chunk = e.play(5, 40, 40)
    for i in range(40):
        ref = play_game(rules, e.strategies, 5, 40 + i, e.given_sides)
        assert list(chunk.win_units[i]) == ref.win_units and list(chunk.sides[i]) == list(ref.sides), i
        assert list(chunk.columns["deck"][i]) == list(ref.decks), i
        assert (chunk.outcome[i], chunk.length[i]) == (ref.outcome, ref.length), i
    if rules.mirror_decks:
        assert (chunk.columns["deck"][:, 0] == chunk.columns["deck"][:, 1]).all()
    if sides is not None and sides[0] != "drawn":
        assert (chunk.sides[:, 0] == e.given_pair[0]).all() or e.given_pair[0] < 0


def test_fixing_one_seats_side_moves_no_other_draw():
    """Common random numbers: with seat 0's Force pair fixed, seat 1 draws the same pairs and
    decks as when both are drawn."""
    drawn = engine().play(3, 0, 300)
    fixed = engine(sides=["forces=Siren+Minotaur", "drawn"]).play(3, 0, 300)
    assert (fixed.sides[:, 0] == 0).all()
    assert (fixed.sides[:, 1] == drawn.sides[:, 1]).all()
    assert (fixed.columns["deck"] == drawn.columns["deck"]).all()
    assert len(set(drawn.sides[:, 0])) > 30  # the draws range over the 45 pairs


@pytest.mark.parametrize("given, canonical", [
    ("Phoenix+minotaur", "forces=Minotaur+Phoenix"),
    ("forces=Phoenix+Minotaur, deck=Mono:Red", "deck=mono:red,forces=Minotaur+Phoenix"),
    ("deck=duo:blue+green", "deck=duo:blue+green"),
    ("DRAWN", "drawn"),
    ("deck=mono:red/LOW", "deck=mono:red/low"),
    ("deck=duo:red+blue/standard", "deck=duo:red+blue"),
])
def test_sides_are_written_canonically(given, canonical):
    from balance.games.zenonzard.sides import parse_side

    assert parse_side(Rules(), given) == canonical


@pytest.mark.parametrize("given, words", [
    ("forces=Minotaur+Hydra", "unknown Force 'Hydra'; allowed: Siren, Minotaur"),  # as written, not lowered
    ("forces=Siren+Siren", "two different Forces"),
    ("Siren", "two different Forces"),
    ("deck=mono:black", "unknown deck colour 'black'; allowed: white"),
    ("deck=duo:red+red", "two different colours"),
    ("deck=nowhere.txt", "neither a generated deck"),
    ("deck=mono:red,deck=mono:blue", "gives deck twice"),
    ("colour=red", "unknown side part 'colour'; allowed: deck, forces"),
    ("deck=mono:red/flat", "unknown deck curve 'flat'; allowed: low, standard, high"),
    ("deck=.", "deck='.' is a directory; give a deck list file in it"),  # was "neither ... nor a file"
    ("drawn,deck=mono:red", "drawn is a whole side"),  # was "unknown Force 'drawn'"
])
def test_bad_sides_are_refused_in_one_line(given, words):
    from balance.games.zenonzard.sides import parse_side

    with pytest.raises(BalanceError) as e:
        parse_side(Rules(), given)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_mirror_decks_with_another_deck_given_to_seat_1_is_refused():
    """Seat 1's own deck was silently played instead of the mirror (also when --rotate moves a
    given deck to seat 1); seat 0's deck alone (seat 1 mirrors it), the same deck in both
    seats (one --side for both) and Forces alone are fine."""
    from balance.games.zenonzard.engine import Engine

    rules = Rules.from_overrides({"mirror_decks": True})
    seats = [parse_strategy("random", STRATEGIES)] * 2
    for sides in (["deck=mono:red", "deck=mono:blue"], ["forces=Cyclops+Phoenix", "deck=mono:red"]):
        with pytest.raises(BalanceError, match="mirror_decks=true gives seat 1 seat 0's deck, and seat 1 is "
                                               "given another deck"):
            Engine(rules, seats, sides=sides)
    assert Engine(rules, seats, sides=["deck=mono:red", "forces=Cyclops+Phoenix"]).given_deck[1] == -1
    same = Engine(rules, seats, sides=["deck=mono:red", "deck=mono:red"]).given_deck
    assert same[0] == same[1] >= 0


def test_a_deck_file_off_its_mana_colour_is_a_side_with_any_forces(tmp_path):
    """Blue field minions over red mana: legal (no deck rule asks for matching mana), whatever
    the Forces."""
    from balance.games.zenonzard.sides import parse_side

    deck = [resolved(basic_mana("red"))] * 10 + generate("mono", "blue", Rules(), 0, 0)[10:]
    path = tmp_path / "off.txt"
    path.write_text("\n".join(c.id for c in deck), encoding="utf-8")
    for forces in ("Siren+Minotaur", "Siren+Chimera"):
        assert parse_side(Rules(), f"deck={path},forces={forces}").startswith("deck=")


def test_the_engines_tables_add_up():
    """decks and forces count every seat-game once; wins add up to the finished games; the
    Force pair's player life is total_life minus its two lives."""
    import balance

    run = balance.simulate("zenonzard", games=400, seed=2, strategies=["aggro", "control"], threads=1)
    decks, forces_t, outcomes = run.tables["decks"], run.tables["forces"], run.tables["outcomes"]
    finished = outcomes.filter(pl.col("outcome") != "capped")["games"].sum()
    for t in (decks, forces_t):
        assert t["games"].sum() == 800 and t["wins"].sum() == finished
    lives = {f.name: f.life for f in cat.forces()}
    for row in forces_t.iter_rows(named=True):
        a, b = row["forces"].split("+")
        assert row["player_life"] == 12 - lives[a] - lives[b]
    assert set(decks["colours"]) == set(cat.COLOURED) and decks["mean_cost"].min() > 2


def test_compare_measures_each_forces_win_rate_on_the_runs_games(tmp_path):
    """`balance compare zenonzard` estimates each Force's win rate (Horvitz-Thompson: the win
    units of the seats holding it over the expected 0.4 holders a game). On the same games as
    `simulate` with the same seed, its baseline times games times 0.4 is exactly the wins the
    run's forces table counts for the pairs holding that Force; the ten add up to the seats'
    (each seat holds two Forces); and the verdict has a Forces line."""
    import balance
    from balance.analysis.compare import compare
    from balance.analysis.compare_report import write_compare_report

    games, seed, strategies = 300, 3, ["aggro", "control"]
    report = compare("zenonzard", ["default", "over:force_overflow=to_player"], games=games, seed=seed,
                     strategies=strategies).report
    base = {r["metric"]: r["baseline"] for r in report["results"] if r["variant"] == "over"}
    forces_t = balance.simulate("zenonzard", games=games, seed=seed, strategies=strategies,
                                threads=1).tables["forces"]
    for force in cat.forces():
        wins = forces_t.filter(pl.col("forces").str.split("+").list.contains(force.name))["wins"].sum()
        assert abs(base[f"win_share_{force.name}"] * games * 0.4 - wins) < 1e-9, force.name
    won = 1 - base["capped"]
    assert sum(base[f"win_share_{f.name}"] for f in cat.forces()) == pytest.approx(2 * won / 0.4, abs=1e-12)
    assert report["sides"]["label"] == "Forces" and len(report["sides"]["metrics"]) == 10
    text = write_compare_report(report, tmp_path)["markdown"].read_text(encoding="utf-8")
    assert "- Forces under `over`: moved most `win_share_" in text


def test_the_card_list_and_what_it_does_not_simulate():
    """1,439 cards; the unsupported ones are every magic card and every card whose text holds
    more than the v1 numbers and keywords; the summary's counts add up to the list."""
    from balance.games.zenonzard import cards as zc

    frame = zc.card_list(Rules())
    lacking = zc.unsupported(Rules())
    assert frame.height == 1439 and frame["simulated"].sum() == 1439 - len(lacking)
    assert all(c.kind == cat.MAGIC or not c.exact for c in cards() if zc.label(c) in set(lacking))
    summary = zc.unsupported_summary(Rules())
    by_set = summary[1:summary.index("not simulated, by colour:")]
    assert sum(int(line.rsplit(": ", 1)[1]) for line in by_set) == len(lacking)
    in_play = zc.unsupported_in_play(Rules(), ["deck=reference:red,forces=Siren+Minotaur"])
    assert in_play and set(in_play) <= set(lacking)


@pytest.mark.parametrize("jp, en, bits, exact", [
    ("", "Charge\n[When Attacking]\nDeal 3 damage to your opponent's Life.", cat.K_CHARGE, False),  # Lord Alabaster
    ("", "Charge", cat.K_CHARGE, True),
    # Gadphant's OCR'd text: "on the opponent's turn", when v1 never moves
    ("【相手の夕\nこのミニオンは移動できない。", "[On Your Opponent's Turn]\nThis minion cannot move.", 0, True),
    # MachG's: "on your turn", when v1 moves
    ("【自分の夕\nこのミニオンは移動できない。", "Swoop\n[On Your Turn]\nThis minion cannot move.",
     cat.K_NO_MOVE | cat.K_SWOOP, True),
    ("【相手のターン】\nこのミニオンはブロックできない。", "", cat.K_NO_BLOCK, True),
    ("【自分のターン終了時】\nこのミニオンは移動できない。", "", 0, False),  # a trigger's timing: text
    ("【破壊時】自分はカードを1枚引く。", "[When Destroyed]\nDraw one card.", 0, False),  # Cobra Mage
    ("【常時】\nこのミニオンはブロックできない。", "[Passive]\nThis minion cannot block.", cat.K_NO_BLOCK, True),
    ("《ベース》\n【配置時】\nカード1枚を引く。\n《ベース》\nこのマナは移動できない。", "", cat.K_NO_MOVE, False),
])
def test_a_cards_restrictions_and_exactness_come_from_what_its_text_says(jp, en, bits, exact):
    """A card with no Japanese text is exact only if its English is keywords alone (17 cards
    with English abilities were called exact); a restriction holds under no timing or Passive,
    "cannot move" on your turn and "cannot block" on the opponent's (when v1 moves and blocks),
    and under a trigger's timing stays text; a 《zone》 line starts a new ability, so a
    restriction after one holds."""
    got_bits, _, got_exact = cat._keywords(jp, en)
    assert (got_bits, got_exact) == (bits, exact)


# ---- the report's verdicts on planted truths ---------------------------------------------------------------
def synthetic(games: int, seed: int, strong: dict, per_cell: int = 1, deck_sd: float = 0.0) -> dict:
    """Tables of a drawn-sides run: each game deals each seat a Force pair (of 45) and a deck
    (6 colours x 3 curves, ``per_cell`` decks of each), and draws the winner with weight 1,
    plus ``strong[key]`` for a seat whose pair, colour or curve is ``key``, plus its deck's own
    strength (normal, sd ``deck_sd``, drawn once per deck: a generated deck's luck)."""
    from balance.games.zenonzard.sides import pair_name

    rng = np.random.default_rng(seed)
    names = [pair_name(i) for i in range(45)]
    lives = {f.name: f.life for f in cat.forces()}
    curves = {"low": 3.37, "standard": 4.37, "high": 5.17}
    decks = [(f"mono:{c}/{v}" + (f"#{k}" if per_cell > 1 else ""), c, v)
             for c in cat.COLOURED for v in curves for k in range(per_cell)]
    own = rng.normal(0.0, deck_sd, len(decks)) if deck_sd else np.zeros(len(decks))
    pair = rng.integers(0, 45, (games, 2))
    deck = rng.integers(0, len(decks), (games, 2))
    weight = 1.0 + own[deck]
    for s in range(2):
        for i in range(games):
            for key in (names[pair[i, s]], decks[deck[i, s]][1], decks[deck[i, s]][2]):
                weight[i, s] += strong.get(key, 0.0)
    first = rng.random(games) < weight[:, 0] / weight.sum(axis=1)
    won = np.stack([first, ~first], axis=1).astype(int)
    seats, forces, deck_rows = [], [], []
    for s in range(2):
        for i in range(games):
            a, b = names[pair[i, s]].split("+")
            seats.append((2, s, "x", names[pair[i, s]], 1, float(won[i, s])))
            forces.append((2, s, names[pair[i, s]], 12 - lives[a] - lives[b], 1, int(won[i, s])))
            d, e = decks[deck[i, s]], decks[deck[i, 1 - s]]
            deck_rows.append((2, s, d[0], d[1], d[2], e[0], e[1], curves[d[2]], 4, 3, 1, int(won[i, s])))
    seat_frame = (pl.DataFrame(seats, schema=["players", "seat", "strategy", "side", "games", "win_share"],
                               orient="row").group_by("players", "seat", "strategy", "side").sum())
    forces_frame = (pl.DataFrame(forces, schema=["players", "seat", "forces", "player_life", "games", "wins"],
                                 orient="row").group_by("players", "seat", "forces", "player_life").sum()
                    .with_columns(forces_lost=pl.lit(0), life_left_sum=pl.lit(0)))
    keys = ["players", "seat", "deck", "colours", "curve", "opponent_deck", "opponent_colours", "mean_cost",
            "low_cost", "keywords"]
    decks_frame = pl.DataFrame(deck_rows, schema=keys + ["games", "wins"], orient="row").group_by(keys).sum()
    outcomes = pl.DataFrame({"players": [2, 2, 2], "outcome": ["life", "deck-out", "capped"],
                             "games": [games, 0, 0], "length_sum": [games * 20, 0, 0]})
    return {"seats": seat_frame, "forces": forces_frame, "decks": decks_frame, "outcomes": outcomes}


def verdict_text(a) -> str:
    from balance.games.zenonzard import report as zr

    return "\n".join("".join(str(p) for p in line) for b in zr.verdict(a)
                     for line in (b.items if hasattr(b, "items") else [b.parts]))


def test_a_dominant_force_pair_colour_and_curve_are_named():
    """12,000 games; the seat with Cyclops+Ouroboros, with green decks, or with the high curve
    gets weight +1 (about 2:1 odds in its favour alone). Cyclops+Ouroboros's ~530 seat-games
    put it about 8 standard errors above the average; green's ~4,000 and high's ~8,000 many
    more (each missed with a chance below 1e-9). The others are truly a little below the
    average (they meet the strong ones), so Holm may call some below, never above. The life
    split of the strong pair (8: Cyclops and Ouroboros have 2 lives each; one of its 3 pairs is
    strong) is about 3.7 standard errors up: named first with probability about 0.86 on a
    random seed (Holm over 5 splits), and on this fixed seed."""
    from balance.games.zenonzard import report as zr

    a = zr.analyse(synthetic(12_000, 3, {"Cyclops+Ouroboros": 1.0, "green": 1.0, "high": 1.0}),
                   {"sides": "drawn"}, "wilson")
    for frame, name in ((a.pairs, "Cyclops+Ouroboros"), (a.colours, "green"), (a.curves, "high")):
        above = frame.filter((pl.col("p_adjusted") < ALPHA) & (pl.col("difference") > 0))
        assert above["name"].to_list() == [name]
    lines = verdict_text(a).splitlines()
    # each family's line names its planted truth first (the strongest of those found)
    for heading, first in (("Force pairs", "Cyclops+Ouroboros"), ("Colours", "green"), ("Mana curves", "high"),
                           ("Life split", "life 8")):
        line = lines[1 + next(i for i, text in enumerate(lines) if text.startswith(heading))]
        assert line.split("50.00%: ", 1)[1].startswith(first), line
    assert "so a difference is the Force's doing" in lines[0]
    assert "so a difference is the pair's doing" in next(x for x in lines if x.startswith("Force pairs"))


def test_a_dominant_force_is_named_from_the_pairs_that_hold_it():
    """Every pair holding Cyclops gets weight +1 (6,000 games): a seat holds Cyclops in about a
    fifth of its seat-games (2,400), winning about 62% against the average 50%, some 12
    standard errors out. The Forces line names Cyclops, alone above the average, first; the
    other Forces meet it, so they are truly a little below, and Holm may call some below. Each
    Force's rows pool the seat-games of the 9 pairs holding it (so every seat-game counts
    twice over the 10 Forces)."""
    from balance.games.zenonzard import report as zr
    from balance.games.zenonzard.sides import pair_name

    strong = {pair_name(i): 1.0 for i in range(45) if "Cyclops" in pair_name(i).split("+")}
    a = zr.analyse(synthetic(6_000, 4, strong), {"sides": "drawn"}, "wilson")
    above = a.forces.filter((pl.col("p_adjusted") < ALPHA) & (pl.col("difference") > 0))
    assert above["name"].to_list() == ["Cyclops"] and a.forces.height == 10
    assert a.forces["games"].sum() == 2 * a.pairs["games"].sum() == 2 * 2 * 6_000
    lines = verdict_text(a).splitlines()
    first = next(i for i, text in enumerate(lines) if text.startswith("Forces"))
    # the caution on the Forces v1 plays without their passive comes before the Force line
    assert lines[first + 1].startswith("Caution: the simulated card model (v1) plays Siren's passive in part")
    line = lines[first + 2]
    assert line.split("50.00%: ", 1)[1].startswith("Cyclops"), line


def test_the_forces_caution_names_exactly_the_passives_the_kernel_leaves_out():
    """The Forces caution (catalogue.PASSIVE_IN_V1) must name every Force whose passive the
    kernel never applies, and only those besides Siren, whose passive it applies in part: read
    from kernel.py, where every applied passive is a force_up(st, s, NAME) test."""
    import re
    from pathlib import Path

    from balance.games.zenonzard import catalogue, kernel

    source = Path(kernel.__file__).read_text(encoding="utf-8")
    applied = set(re.findall(r"force_up\(st, [a-z]+, ([A-Z]+)\)", source))
    names = {n.upper(): n for n in catalogue.FORCE_NAMES.values()}
    never = {names[n] for n in names if n not in applied}
    assert never == {n for n, what in catalogue.PASSIVE_IN_V1.items() if what.startswith("not at all")}
    assert never == {"Sphinx", "Chiron"} and "SIREN" in applied and "in part" in catalogue.PASSIVE_IN_V1["Siren"]


def test_a_fair_game_is_called_fair_and_given_sides_are_not_called_causal():
    """No planted effect: no pair, life split, colour or curve is called (Holm keeps the chance
    of a false call at or below 5% per family for a seed; this seed gives none)."""
    from balance.games.zenonzard import report as zr

    a = zr.analyse(synthetic(6_000, 8, {}), {"sides": "drawn"}, "wilson")
    text = verdict_text(a)
    for noun in ("Force", "Force pair", "life split", "colour", "curve"):
        assert f"2 players: no {noun} differs from the average seat's" in text
    assert "Card strength was not measured" in text and "text beyond" not in text
    given = zr.analyse(synthetic(500, 1, {}), {"sides": ["forces=Siren+Minotaur"],
                                               "runs": [{"unsupported": ["red: Fire Beetle (x)", "blue: Y (y)"]}]},
                       "wilson")
    text = verdict_text(given)
    assert "describe the seats that held them" in text and "doing" not in text
    assert "2 cards in this run's decks have text beyond the simulated card model" in text


GENERATED = {"sides": "drawn", "runs": [{"rules": {"decks": "mono"}}]}  # a manifest whose decks were generated


def test_equal_colours_of_unequal_generated_decks_are_called_equal():
    """Planted: no colour or curve effect, but each of the 72 generated decks (4 per colour and
    curve) has its own strength (weight sd 0.2: its seat's rate moves by about 4.5 pp), 20,000
    games. Counting seat-games (the exact test of the fixed reference decks) calls colours
    different on this seed: a finding about these decks. With the decks generated, the colours'
    decks are the units (sides.tested_over_units; its level is held by test_verdicts), the
    verdict says so and calls no colour and no curve (this seed; each family's chance of a false
    call is at most 5%)."""
    from balance.games.zenonzard import report as zr

    tables = synthetic(20_000, 11, {}, per_cell=4, deck_sd=0.2)
    fixed = zr.analyse(tables, {"sides": "drawn"}, "wilson")
    assert (fixed.colours["p_adjusted"] < ALPHA).sum() >= 1 and "df" not in fixed.colours.columns
    a = zr.analyse(tables, GENERATED, "wilson")
    assert a.sampled and a.colours["units"].to_list() == [12] * 6 and a.curves["units"].to_list() == [24] * 3
    text = verdict_text(a)
    assert "2 players: no colour differs from the average seat's" in text
    assert "2 players: no curve differs from the average seat's" in text
    assert ("The 12 generated decks of each colour are a sample of the decks the generator deals, and a deck's "
            "games share its luck of the draw, so the decks, not the seat-games, are the test's units") in text
    assert "more decks (--set deck_pool=N), not more games, narrow it" in text
    # the Forces meet this run's decks only, and say so (the fixed manifest has no generated decks)
    assert "so a difference is the Force's doing with this run's decks" in text
    assert "with this run's decks" not in verdict_text(fixed)


def test_cards_judged_over_decks_say_how_many_decks_hold_them_and_which_are_not_judged():
    """Planted card trials over decks: `Steady` costs its seat 3 pp in each of its 6 decks, `Pair`
    sits in 2 and `Lonely` in 1. The Cards paragraph says the decks are the test's units; the
    caution before the lines gives the median decks a card is in (2 of 1 to 6), names the one
    card held by one deck as not judged and the one held by 2 as findable only far beyond its
    decks' spread. Steady is found (about 8 of its deck-clustered errors out) and named first;
    Lonely's larger estimate is said to be untested, not found."""
    from balance.analysis import aggregate
    from balance.games.zenonzard import report as zr

    rng = np.random.default_rng(3)
    sums = ["games", "win_share_unrestricted", "win_share_restricted", "diff_sq_sum"]
    trials, units = [], []
    for card, changes in (("Steady", [-0.03] * 6), ("Pair", [-0.02, 0.01]), ("Lonely", [-0.09])):
        for k, e in enumerate(changes):
            d = rng.choice([-1, 0, 1], size=2000, p=[0.1 + max(-e, 0), 0.8 - abs(e), 0.1 + max(e, 0)])
            row = (2000, 1000.0, 1000.0 + d.sum(), float((d * d).sum()))
            units.append((2, card, "always", f"mono:red#{k}", *row))
            trials.append((2, k % 2, "evaluator", card, "always", *row))
    a = zr.analyse(synthetic(2_000, 11, {}, per_cell=4, deck_sd=0.2), GENERATED, "wilson")
    a.card_effects = aggregate.card_effects(
        pl.DataFrame(trials, schema=["players", "seat", "strategy", "card", "when", *sums], orient="row"),
        pl.DataFrame(units, schema=["players", "card", "when", "unit", *sums], orient="row"))
    text = verdict_text(a)
    assert "the generated decks that hold a card are its test's units, as for the colours" in text
    assert ("Caution: this pool deals a card in 2 of its decks (median; 1 to 6), and a card's strength is judged "
            "over those decks; 1 card is held by one deck only and not judged") in text, text
    assert "1 held by 2 to 4 decks can be found only by a change far beyond their decks' spread" in text
    cards = next(x for x in text.splitlines() if x.startswith("2 players: ") and "stand-in" in x)
    assert cards.startswith("2 players: the Steady costs most of the cards found (the Lonely's estimate is larger, "
                            "but not tested) — swapping it for its stand-in costs its seat 3.69 pp"), cards
    assert "1 of 3 cards change their seat's win rate detectably" in cards


def test_a_dominant_colour_of_generated_decks_is_named():
    """Planted: green's seats +0.5 weight (about 12 pp), decks with their own strength (weight
    sd 0.2), 20,000 games: some 14 of green's standard errors over its 12 decks here, found at Holm's
    first step (t on 9 degrees of freedom) on all but a negligible share of seeds; alone above
    and named first. The others are truly a little below the average (they meet green), so
    Holm may call some below."""
    from balance.games.zenonzard import report as zr

    a = zr.analyse(synthetic(20_000, 12, {"green": 0.5}, per_cell=4, deck_sd=0.2), GENERATED, "wilson")
    above = a.colours.filter((pl.col("p_adjusted") < ALPHA) & (pl.col("difference") > 0))
    assert above["name"].to_list() == ["green"]
    line = next(x for x in verdict_text(a).splitlines() if x.startswith("2 players: ") and "colour" in x)
    assert line.split("50.00%: ", 1)[1].startswith("green 61.25%") and "Strongest: green" in line, line


def test_the_curve_slope_finds_a_planted_association_and_holds_its_level():
    """The first player's win weight grows with its deck's mean cost (the high curve +1): the
    slope on mean cost is positive and called (Holm; about 10 standard errors out). With no
    effect, over 60 seeds of 2,000 games, the test calls p < 0.05 at most 9 times: a correct
    5% test exceeds that with probability 0.0015 (binomial), a test whose standard error is
    too small (a 10% or higher error rate) fails it more often than not. The same holds where
    each of 72 generated decks has its own strength (weight sd 0.2, unrelated to its curve):
    the slope's error is clustered by deck, so a pool whose strong decks happen to sit on one
    curve is not an association found."""
    from scipy.stats import binom

    from balance.games.zenonzard import report as zr

    planted = zr.curve_slopes(synthetic(12_000, 5, {"high": 1.0})["decks"])
    row = planted.filter(pl.col("feature") == "mean_cost").row(0, named=True)
    assert row["slope"] > 0 and row["p_adjusted"] < ALPHA
    assert binom.sf(9, 60, 0.05) < 0.002
    for decks in ({}, {"per_cell": 4, "deck_sd": 0.2}):
        calls = sum(zr.curve_slopes(synthetic(2_000, seed, {}, **decks)["decks"])["p_value"][0] < 0.05
                    for seed in range(60))
        assert calls <= 9, (decks, calls)


def test_the_slopes_deck_clustering_sums_every_pair_of_games_that_share_a_deck():
    """``_deck_meat`` equals the sum of s_i s_j over every pair of rows sharing a deck, in either
    seat (mirror rows, one deck both seats, included), computed pair by pair; the two-way sum it
    replaced (own deck + opponent's deck - both) left the cross term out and is smaller."""
    from balance.games.zenonzard import report as zr

    first = synthetic(3_000, 6, {}, per_cell=2)["decks"].filter(pl.col("seat") == 0)
    assert (first["deck"] == first["opponent_deck"]).any()  # mirror rows are in the check
    score = np.random.default_rng(1).normal(size=first.height)
    a, b = first["deck"].to_numpy(), first["opponent_deck"].to_numpy()
    share = ((a[:, None] == a[None]) | (b[:, None] == b[None]) | (a[:, None] == b[None]) | (b[:, None] == a[None]))
    assert zr._deck_meat(first["deck"], first["opponent_deck"], score) == pytest.approx(score @ share @ score)
    deck_s = first.select("deck", "opponent_deck", s=pl.Series(score))
    two_way = sum(float((deck_s.group_by(*by).agg(pl.col("s").sum())["s"] ** 2).sum())
                  for by in (["deck"], ["opponent_deck"])) - float(
        (deck_s.group_by("deck", "opponent_deck").agg(pl.col("s").sum())["s"] ** 2).sum())
    assert two_way != pytest.approx(score @ share @ score)


def test_curves_shift_the_field_costs_and_varied_pools_cross_colours_with_curves():
    """decks.CURVES: 30 field slots each, mean field cost low < standard < high; a varied pool
    puts every colour on every curve (deck k: colour k mod 6, curve (k div 6) mod 3)."""
    from balance.games.zenonzard.decks import CURVES, drawn_pool

    # docs/ZENONZARD.md quotes the slots' mean costs
    assert [round(sum(c * n for c, n in curve) / 30, 2) for curve in CURVES.values()] == [3.37, 4.37, 5.17]
    means = {}
    for name, curve in CURVES.items():
        assert sum(n for _, n in curve) == 30
        deck = generate("mono", "green", Rules(), 0, 0, name)
        field = [c.cost for c in deck if c.kind == FIELD]
        assert len(deck) == 40 and len(field) == 30
        means[name] = sum(field) / 30
    assert means["low"] < means["standard"] < means["high"]
    pool_ = drawn_pool(Rules(curves="varied", deck_pool=36))
    assert Counter((d.colours, d.curve) for d in pool_) == {((c,), v): 2 for c in cat.COLOURED
                                                            for v in ("low", "standard", "high")}
    assert pool_[6].name == "mono:white#6" and pool_[0].name == "mono:white/low#0"  # standard: unnamed


# ---- card strength: a card swapped for its vanilla stand-in, the same games again -----------------------
def test_a_swapped_game_is_the_reference_game_with_the_stand_in():
    """engine.replay with a card swapped in seat 1's deck plays, game by game, what the
    reference plays with that seat's copies replaced by the stand-in card (same cost, colours
    and part; the median BP/DP of its cost; no keyword); unswapped, it replays the run."""
    from balance.games.zenonzard.engine import Engine

    side = "deck=mono:red,forces=Cyclops+Phoenix"
    e = Engine(Rules(), strategies("evaluator", "aggro"), sides=[side, side])
    chunk = e.play(4, 0, 60)
    assert list(e.replay(4, np.arange(60), None, 1)) == [int(np.argmax(w)) if w.any() else -1
                                                         for w in chunk.win_units]
    deck = list(e.decks[0].cards)
    medians = cat.stat_medians()
    # a cheap card far above its cost's median: drawn and played often, so its swap matters
    target = max((c for c in deck if c.kind == FIELD and c.cost <= 3), key=lambda c: c.bp - medians[c.cost][0])
    vanilla = replace(target, bp=medians[target.cost][0], dp=medians[target.cost][1], keywords=0)
    swapped = [vanilla if c.name == target.name else c for c in deck]
    winners = e.replay(4, np.arange(60), target.name, 1)
    pair = ["Cyclops", "Phoenix"]
    for g in range(60):
        ref = play_decks(Rules(), e.strategies, [deck, swapped], [pair, pair], seed=4, game=g)
        assert winners[g] == ref.winner, g
    assert (winners != e.replay(4, np.arange(60), None, 1)).any()  # the swap changed some game


def test_card_strength_names_a_planted_strong_card_and_leaves_a_vanilla_card_unchanged(tmp_path):
    """Mirror reference decks (the highest BP of each cost): swapping the top card of the
    mono:red reference deck for the median minion of its cost weakens its seat (the paired
    difference is negative and called, Holm); a card that already is its own stand-in (median
    BP and DP, no keyword) changes no game at all. Measured: the swap costs 16.2 pp, 29
    standard errors at 3,000 games (Holm-adjusted p 1e-183), so a fresh seed finds it too."""
    import balance
    from balance.analysis import aggregate

    medians = cat.stat_medians()
    red = generate("reference", "red", Rules(), 0, 0)
    strong = max((c for c in red if c.kind == FIELD), key=lambda c: c.bp - medians[c.cost][0])
    plain = next(c for c in pool(Rules()) if not c.keywords and (c.bp, c.dp) == medians[c.cost]
                 and c.colours in (("red",), ("colorless",)))
    deck = red[:-1] + [plain]  # the last slot (the top of the curve) makes room for the plain card
    path = tmp_path / "red.txt"
    path.write_text("\n".join(c.id for c in deck), encoding="utf-8")
    side = f"deck={path},forces=Cyclops+Phoenix"
    run = balance.simulate("zenonzard", games=3000, seed=1, strategies=["evaluator"], sides=[side, side],
                           card_strength=True, card_strength_cards=[strong.id, plain.id], threads=1)
    effects = {r["card"].split(" (")[0]: r for r in aggregate.card_effects(run.card_strength).iter_rows(named=True)}
    s, p = effects[strong.name_en], effects[plain.name_en]
    assert s["difference"] < 0 and s["p_adjusted"] < ALPHA
    assert p["unchanged"] and p["difference"] == 0
    # the report's Cards line names the strong card first, in the swap's words, and the plain one as unchanged
    from balance.games.zenonzard import report as zr

    a = zr.analyse(run.tables, run.manifest, "wilson")
    # the Cards heading, then (a caution on simplified cards, before the lines it qualifies) the line
    line = next(x for x in verdict_text(a).split("Cards")[1].splitlines()[1:] if not x.startswith("Caution"))
    assert line.startswith(f"2 players: the {strong.name_en} ({strong.id}) matters most — swapping it for its "
                           "stand-in costs its seat"), line
    assert f"swapping the {plain.name_en} ({plain.id}) for its stand-in changed no game at all" in line


def test_generated_decks_keep_the_card_trials_per_deck_and_fixed_decks_do_not():
    """With decks drawn from a generated pool the run also writes card_strength_units: per card
    and deck of the swapped seat, the same paired games as card_strength per seat, split by
    deck; with given decks (a fixed list) it writes none, and the per-game test stands."""
    import balance

    red = next(c for c in pool(Rules()) if c.colours == ("red",))
    run = balance.simulate("zenonzard", games=600, seed=2, strategies=["random"], card_strength=True,
                           card_strength_cards=[red.id], overrides={"deck_pool": 24}, threads=1)
    units, trials = run.tables["card_strength_units"], run.card_strength
    assert units.height >= 2 and set(units["unit"]) <= {d for d in run.decks["deck"]}
    for column in ("games", "win_share_unrestricted", "win_share_restricted", "diff_sq_sum"):
        assert units[column].sum() == pytest.approx(trials[column].sum())
    side = "deck=mono:red,forces=Cyclops+Phoenix"
    fixed = balance.simulate("zenonzard", games=200, seed=2, strategies=["random"], sides=[side, side],
                             card_strength=True, card_strength_cards=[red.id], threads=1)
    assert "card_strength_units" not in fixed.tables and fixed.card_strength.height


def test_the_cards_played_table_counts_every_seat_game_of_each_card_once():
    """in_deck >= drawn >= played per card; a card of every deck (mirror decks of one list) is
    in every seat-game, and the wins never exceed their games."""
    from balance.games.zenonzard.engine import Engine

    side = "deck=mono:blue,forces=Siren+Sphinx"
    e = Engine(Rules(), strategies("random", "random"), sides=[side, side])
    t = e.tables(e.play(2, 0, 500).totals)["cards_played"]
    assert t.height == len({c.name for c in e.decks[0].cards if c.kind == FIELD})
    assert (t["in_deck"] == 1000).all()
    assert ((t["in_deck"] >= t["drawn"]) & (t["drawn"] >= t["played"])).all()
    for a, b in (("in_deck_won", "in_deck"), ("drawn_won", "drawn"), ("played_won", "played")):
        assert (t[a] <= t[b]).all()
    assert t["played"].sum() > 0


# ---- the command line ----------------------------------------------------------------------------------------
def test_simulate_takes_a_deck_list_file_as_a_side(tmp_path):
    """`--side deck=FILE,forces=A+B`: the run plays that list (its manifest keeps the canonical
    side, as every game's sides are recorded, and the list's unsupported cards); a bad list
    fails in one line naming the file, line and card, with exit code 2 and no run directory."""
    import json

    from typer.testing import CliRunner

    from balance.cli import app

    deck = deck_file(tmp_path, "green")
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["simulate", "zenonzard", "--games", "200", "-s", "aggro", "-s", "control",
                                 "--side", f"deck={deck},forces=Phoenix+Minotaur", "--side", "forces=Siren+Sphinx",
                                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sides"] == [f"deck={Path(deck).resolve()},forces=Minotaur+Phoenix", "forces=Siren+Sphinx"]
    seatings = manifest["runs"][0]["seatings"][0]["strategies"]
    assert seatings[0]["side"] == f"deck={Path(deck).resolve()},forces=Minotaur+Phoenix"
    decks = pl.read_parquet(out / "decks.parquet")
    assert set(decks.filter(pl.col("seat") == 0)["deck"]) == {"green.txt"}
    lacking = manifest["runs"][0]["unsupported"]
    assert lacking and all(":" in c for c in lacking)
    bad = tmp_path / "bad.txt"
    bad.write_text("10 Miner of Aguma\n4x Fire Beetle\nNo Such Card\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["simulate", "zenonzard", "--games", "10", "--side", f"deck={bad}",
                                 "--out", str(tmp_path / "bad-run")])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert f"{bad} line 3" in r.output and "No Such Card" in r.output
    assert not (tmp_path / "bad-run").exists()


def test_card_strength_of_a_card_no_seats_deck_holds_is_said_so(tmp_path):
    """Both seats play the mono:red reference deck; the measured card is a blue one, so no
    game deals it: the card_strength table is empty, and the report says no game dealt it
    instead of failing."""
    import balance
    from typer.testing import CliRunner
    from balance.cli import app

    red = generate("reference", "red", Rules(), 0, 0)
    blue = next(c for c in pool(Rules()) if c.colours == ("blue",) and c.id not in {r.id for r in red})
    path = tmp_path / "red.txt"
    path.write_text("\n".join(c.id for c in red), encoding="utf-8")
    side = f"deck={path},forces=Cyclops+Phoenix"
    run = tmp_path / "run"
    balance.simulate("zenonzard", games=20, seed=1, strategies=["random"], out=run, threads=1,
                     sides=[side, side], card_strength="always", card_strength_cards=[blue.id])
    assert pl.read_parquet(run / "card_strength.parquet").is_empty()
    result = CliRunner().invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    text = (run / "report.md").read_text(encoding="utf-8")
    assert "Card strength was measured, but **no game dealt a card it measures**" in text
    assert "## Card strength" not in text


def test_card_findings_say_which_named_cards_are_simplified():
    """An audit found the card verdict's named cards and all 92 'changed no game' cards were
    cards whose text the model leaves out: the verdict now says so. Planted: A (simplified)
    and B (modelled) found, C (simplified) unchanged, D (modelled) neither."""
    from types import SimpleNamespace

    from balance.analysis.report import card_verdict
    from balance.games.zenonzard.report import _simplified_cards

    effects = pl.DataFrame({"card": ["A (a_1)", "B (b_1)", "C (c_1)", "D (d_1)"],
                            "difference": [-0.05, -0.02, 0.0, 0.001], "lo": [-0.06, -0.03, 0.0, -0.01],
                            "hi": [-0.04, -0.01, 0.0, 0.012], "p_adjusted": [1e-9, 1e-3, None, 0.9],
                            "unchanged": [False, False, True, False], "players": [2] * 4})
    lines = [card_verdict(effects, "card", "swapping {} for its stand-in", "swapped for its stand-in")]
    a = SimpleNamespace(card_effects=effects, unsupported=["red: A (a_1)", "blue: C (c_1)"])
    assert _simplified_cards(a, lines) == (
        "Of the 2 cards found to change their seat's win rate, 1 has text beyond the model, the A named "
        "below among them: their strength here is that of their cost, colours, BP, DP and keywords, not of "
        "the printed card. 1 of the 1 cards that changed no game is such a card: as simulated it equals "
        "their stand-in, so they change nothing by construction.")
    assert _simplified_cards(SimpleNamespace(card_effects=effects, unsupported=["green: D (d_1)"]), lines) == ""


def test_a_lever_is_a_variant_by_its_name_alone(tmp_path):
    """`balance rules zenonzard` lists the levers by name (life16:total_life=16); `--variant
    life16` was refused as "'life16' is not key=value". A lever's name alone is its variant,
    named as the lever; any other word is still refused."""
    from typer.testing import CliRunner

    from balance.analysis.compare import compare
    from balance.cli import app

    report = compare("zenonzard", ["default", "life16"], games=200, seed=1).report
    assert [v["name"] for v in report["variants"]] == ["default", "life16"]
    assert report["variants"][1]["overrides"] == {"total_life": 16}
    r = CliRunner().invoke(app, ["compare", "zenonzard", "--variant", "default", "--variant", "life17",
                                 "--games", "200", "--out", str(tmp_path / "c")])
    assert r.exit_code == 2 and "'life17' is not key=value" in r.output
    assert "--variant NAME`, or NAME:SETTING" in CliRunner().invoke(app, ["rules", "zenonzard"]).output


def test_a_game_without_a_score_has_no_score_columns():
    """ZENONZARD declares no score (a deck-out loser may have more life than the winner); its
    Player count table showed "mean score 0.00 (0.00 to 0.00), sd 0.00" as if measured."""
    from pathlib import Path

    md = (Path(__file__).parent.parent / "reports" / "zenonzard" / "report.md").read_text(encoding="utf-8")
    section = md.split("## Player count")[1].split("\n## ")[0]
    assert "| players | games | fair rate | seat gap | Holm p | detectable edge | tied games |" in section
    assert "score" not in section.split("tied games:")[0]


def test_card_strength_is_worded_as_the_game_restricts_a_card(tmp_path):
    """`simulate --card-strength` said every game was replayed "with one seat denied" the card,
    and `balance games --tables` that the seat "is denied" it, while ZENONZARD swaps the card
    for a stand-in: both now say what the game does."""
    from typer.testing import CliRunner

    from balance.cli import app

    r = CliRunner().invoke(app, ["simulate", "zenonzard", "--games", "20", "--card-strength", "--out",
                                 str(tmp_path / "z")])
    assert r.exit_code == 0 and "replayed once per card with it swapped for its stand-in for one seat" in r.output
    listed = CliRunner().invoke(app, ["games", "--tables"]).output
    assert "has the card swapped for its stand-in; --when always" in listed and "is denied the" not in listed


def test_a_run_whose_sides_gave_every_deck_drew_no_generated_deck():
    """decks_sampled follows the engine: generated decks are a sample only where a seat drew
    one; with every deck given by --side the colour lines keep the exact test and say so."""
    from balance.games.zenonzard.report import decks_sampled

    runs = [{"rules": {"decks": "mono"}}]
    assert decks_sampled({"sides": "drawn", "runs": runs})
    assert not decks_sampled({"sides": ["deck=mono:red,forces=Siren+Sphinx", "deck=a.txt,forces=Orthrus+Chimera"],
                              "runs": runs})
    assert decks_sampled({"sides": ["forces=Siren+Sphinx", "deck=a.txt,forces=Orthrus+Chimera"], "runs": runs})
    assert not decks_sampled({"sides": "drawn", "runs": [{"rules": {"decks": "reference"}}]})
