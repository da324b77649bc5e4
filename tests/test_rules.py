"""Rules validation, variant files and overrides: bad input gets a message naming it."""
import pytest

from balance.core.errors import BalanceError
from balance.games.avengers_cards.rules import Rules
from balance.core.variants import load_variant_file, parse_overrides


def test_defaults_are_the_rulebook():
    for players, hand in [(3, (2, 3, 4, 5, 6, 7)), (4, (1, 2, 3, 4, 5, 6)), (5, (1, 2, 3, 4, 5, 6))]:
        r = Rules.from_overrides({"players": players})
        assert r.hand == hand
        assert (r.battles, r.villains_per_battle, r.deck_per_battle) == (3, 4, 5)
        assert r.tokens_per_colour == 15 and r.start_tokens == (1, 1, 1) and r.set_bonus == 3
        assert r.ties_cancel and r.loss_rule == "majority" and r.lost_tokens_to == "centre"
        assert len(r.deck.ids) == 15


@pytest.mark.parametrize("overrides, words", [
    ({"players": 9}, ["players=9", "2..5"]),
    ({"players": 2}, ["explicit hand"]),
    ({"hand": [1, 1, 2, 3, 4]}, ["repeats"]),
    ({"hand": [0, 1, 2, 3, 4]}, ["card value 0", "1..15"]),
    ({"villains_per_battle": 7}, ["villains_per_battle=7"]),
    ({"hand": [1, 2, 3]}, ["villains_per_battle=4 exceeds the hand"]),
    ({"deck_per_battle": 4}, ["deck_per_battle=4", "5 villains for battle 1"]),
    ({"battles": 4}, ["battles=4", "no villains for battle 4"]),
    ({"start_tokens": [4, 1, 1]}, ["more than tokens_per_colour=15"]),
    ({"extra_tokens": [[12, 0, 0]]}, ["deal [16, 4, 4]", "tokens_per_colour=15"]),
    ({"extra_tokens": [[1, 0]]}, ["3 numbers"]),
    ({"extra_tokens": [[0, 0, 0]] * 6}, ["6 entries", "at most 5"]),
    ({"extra_tokens": 1}, ["list of [Y, R, B] per seat"]),
    ({"loss_rule": "half"}, ["loss_rule", "majority, none, all, one"]),
    ({"ties_cancel": 3}, ["ties_cancel=3"]),
    ({"colour": 1}, ["unknown rules key 'colour'", "set_bonus"]),
    ({"villains": "nope.json"}, ["villains: 'nope.json'"]),
])
def test_bad_rules_are_named(overrides, words):
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides(overrides)
    for w in words:
        assert w in str(e.value)


def test_extra_tokens_go_to_the_named_seats():
    r = Rules.from_overrides({"extra_tokens": [[1, 0, 0], [0, 0, 2]]})
    assert r.start_array().tolist() == [[2, 1, 1], [1, 1, 3], [1, 1, 1], [1, 1, 1]]


def test_extra_tokens_past_the_player_count_are_unused_so_one_list_serves_every_count():
    """A seat lever for the seats that never hold the first-player card (3 and 4, with 3
    battles) is one list at every count: at 3 players its entries are unused, and the rules
    equal the rulebook's (a report leaves the lever out there); trailing [0, 0, 0] entries too."""
    late = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert Rules.from_overrides({"players": 3, "extra_tokens": late}) == Rules.from_overrides({"players": 3})
    four = Rules.from_overrides({"players": 4, "extra_tokens": late})
    assert four.start_array().tolist() == [[1, 1, 1], [1, 1, 1], [1, 1, 1], [2, 1, 1]]
    assert four.to_dict()["extra_tokens"] == [[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert Rules.from_overrides({"extra_tokens": [[1, 0, 0], [0, 0, 0]]}).extra_tokens == ((1, 0, 0),)


def test_two_players_with_explicit_hand_is_allowed():
    assert Rules.from_overrides({"players": 2, "hand": [1, 2, 3, 4, 5, 6, 7]}).players == 2


def test_overrides_parse_toml_and_bare_words():
    assert parse_overrides(["set_bonus=2", "ties_cancel=false", "loss_rule=one",
                            "hand=[1,2,3,4,5,6]", "start_tokens=2,2,2"]) == {
        "set_bonus": 2, "ties_cancel": False, "loss_rule": "one",
        "hand": [1, 2, 3, 4, 5, 6], "start_tokens": [2, 2, 2]}
    with pytest.raises(BalanceError, match="not KEY=VALUE"):
        parse_overrides(["set_bonus"])


def test_variant_file(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('name = "harsh"\nloss_rule = "all"\nset_bonus = 4\n')
    r = Rules.from_overrides(load_variant_file(f))
    assert (r.loss_rule, r.set_bonus) == ("all", 4)
    f.write_text("loss_rule = \n")
    with pytest.raises(BalanceError, match="not valid TOML"):
        load_variant_file(f)


def test_custom_villain_deck(tmp_path):
    f = tmp_path / "deck.json"
    cards = [{"id": f"v{b}{i}", "battle": b, "strength": 3 + i, "rewards": [["Y"], ["R", "B"]]}
             for b in (1, 2, 3) for i in range(5)]
    import json
    f.write_text(json.dumps({"villains": cards}))
    r = Rules.from_overrides({"villains": str(f)})
    assert r.deck.strength[:5] == (3, 4, 5, 6, 7)
    cards[0]["rewards"] = [["G"]]
    f.write_text(json.dumps({"villains": cards}))
    with pytest.raises(BalanceError, match="token 'G'"):
        Rules.from_overrides({"villains": str(f)})


@pytest.mark.parametrize("value", [True, False, 7, 0.5, "varied", "true", "2012", "a b", "x;y", [1, 1, 2],
                                   ["Aliens: Invader -> Collector"], [[1, 0, 0]], "Sphinx+Chiron"])
def test_a_rules_value_is_written_as_set_reads_it_back(value):
    """setting_text is what a report writes into a ready --set (a plain word bare, the rest as
    TOML): parse_setting reads back the same value, a word that looks like another type too."""
    from balance.core.variants import parse_setting, setting_text

    assert parse_setting("key", setting_text(value), "--set") == value
