"""ZENONZARD (issue 12): the card model, the rules, the reference engine and the spec's worked
examples (``rules/zenonzard.md``, "Worked examples": each ``test_example_N`` is example N)."""
import dataclasses

import pytest

from balance.core.errors import BalanceError
from balance.core.strategy import parse_strategy
from balance.games.zenonzard import catalogue as cat
from balance.games.zenonzard.catalogue import (BASE, FIELD, K_CHARGE, K_NO_BLOCK, K_RESURGE, KEYWORDS, basic_mana,
                                                cards, resolved)
from balance.games.zenonzard.reference import DECK_OUT, LIFE, PLAYER, TOKEN, Game, Unit, play_game
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
    pool = [resolved(c) for c in cards() if c.kind == FIELD and c.colours in ((colour,), ("colorless",))]
    return [resolved(basic_mana(colour))] * 10 + [c for c in pool if c is not None][:30]


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
    results = [play_game(Rules(), strategies(*seats), decks(), forces, seed=7, game=g) for g in range(60)]
    assert all(r.end in (LIFE, DECK_OUT) and 1 <= r.turns <= Rules().turn_bound for r in results)
    assert all((r.life[1 - r.winner] <= 0) == (r.end == LIFE) for r in results)
    again = [play_game(Rules(), strategies(*seats), decks(), forces, seed=7, game=g) for g in range(60)]
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
    r = play_game(Rules(turn_cap=3), strategies("control", "control"), decks(),
                  (("Minotaur", "Chiron"), ("Minotaur", "Chiron")), seed=1, game=0)
    assert (r.winner, r.end, r.turns) == (-1, "capped", 3)


def test_aggro_beats_random():
    """A planted difference: aggro against random wins most games from either seat (300 games
    each; the observed share is far above the bound, so a correct engine fails this with
    probability well under 1e-6)."""
    forces = (("Cyclops", "Orthrus"), ("Cyclops", "Orthrus"))
    d = mono("red")
    for seats, me in ((("aggro", "random"), 0), (("random", "aggro"), 1)):
        wins = sum(play_game(Rules(), strategies(*seats), (d, d), forces, seed=5, game=g).winner == me
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
