"""Rule-variant comparison: pairing, planted effects, A/A error rates, SPRT, the CLI."""
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from balance import stats
from balance.cli import app
from balance.compare import compare, parse_variant
from balance.errors import BalanceError
from balance.games.avengers_cards.rules import load_villains

PLANTED = "seat0:extra_tokens=[[1,0,0]]"


def result(report, variant, metric):
    return next(r for r in report["results"] if r["variant"] == variant and r["metric"] == metric)


@pytest.fixture(scope="module")
def shuffled_deck(tmp_path_factory):
    """The same 15 villains listed in reverse order within each battle: every game differs from
    the default deck's game with the same seed, but the distribution of games is identical."""
    deck = load_villains("default")
    cards = []
    for battle in (1, 2, 3):
        for i in reversed(deck.in_battle(battle)):
            cards.append({"id": deck.ids[i], "battle": battle, "strength": deck.strength[i],
                          "rewards": [[c for c, n in zip("YRB", place) for _ in range(n)]
                                      for place in deck.rewards[i]]})
    path = tmp_path_factory.mktemp("deck") / "reversed.json"
    path.write_text(json.dumps({"villains": cards}))
    return str(path)


def test_variant_specs():
    assert parse_variant("default").overrides == {}
    v = parse_variant("harsh:loss_rule=all;set_bonus=2")
    assert (v.name, v.overrides) == ("harsh", {"loss_rule": "all", "set_bonus": 2})
    assert parse_variant("set_bonus=2").name == "set_bonus=2"
    with pytest.raises(BalanceError, match="not key=value"):
        parse_variant("set_bonus")


def test_planted_seat_advantage_is_found_and_a_no_op_is_not():
    report = compare("avengers-cards", ["default", PLANTED, "same:set_bonus=3"], players=4,
                     games=20_000, seed=3).report
    seat0 = result(report, "seat0", "win_share_seat0")
    assert seat0["significant"] and seat0["lo"] > 0
    assert seat0["variance_reduction"] > 5  # common random numbers pay off
    for r in report["results"]:
        if r["variant"] == "same":  # identical rules: identical games, zero difference
            assert r["difference"] == 0 and not r["significant"]
    assert report["any_different"]


def test_planted_effect_is_detected_with_the_planned_power():
    """Plan the games for power 0.9 from a pilot's effect and paired sd, then check that 60
    fresh comparisons detect it (raw two-sided p < 0.05 on seat 0's win share) at least
    0.9 - 3 binomial standard errors (0.78) of the time: false-failure rate about 0.002."""
    pilot = result(compare("avengers-cards", ["default", PLANTED], games=100_000, seed=1).report,
                   "seat0", "win_share_seat0")
    sd = (pilot["hi"] - pilot["lo"]) / (2 * 1.959964) * np.sqrt(100_000)
    n = stats.games_for_difference(pilot["difference"], 0.25, power=0.9, alpha=0.05, paired_sd=sd)
    hits = sum(result(compare("avengers-cards", ["default", PLANTED], games=n, seed=1000 + r).report,
                      "seat0", "win_share_seat0")["p_value"] < 0.05 for r in range(60))
    assert hits / 60 >= 0.78, (n, hits)


@pytest.mark.slow
def test_a_a_comparisons_are_significant_no_more_often_than_alpha(shuffled_deck):
    """300 comparisons of the rulebook with an equivalent deck order (different games, same
    distribution). With Holm over all metrics the chance of any significant result is at most
    0.05 per comparison; allow 0.05 + 3 binomial SEs (0.088): false-failure rate < 0.002.
    Seat 0's raw p-value must also reject at about 0.05 (within 3 SEs either side)."""
    any_sig = raw = 0
    for r in range(300):
        report = compare("avengers-cards", ["default", f"shuffled:villains={shuffled_deck}"],
                         games=2_000, seed=500 + r).report
        any_sig += report["any_different"]
        raw += result(report, "shuffled", "win_share_seat0")["p_value"] < 0.05
    assert any_sig / 300 <= 0.088, any_sig
    assert 0.012 <= raw / 300 <= 0.088, raw


def test_sprt_decides_h1_on_a_planted_effect_and_h0_on_an_equivalent_deck(shuffled_deck):
    sprt = {"delta": 0.01, "alpha": 0.05, "beta": 0.05, "metric": "win_share_seat0"}
    planted = compare("avengers-cards", ["default", PLANTED], games=400_000, seed=2,
                      sprt=sprt, batch=2_000).report["sprt"]["variants"][0]
    assert planted["decision"] == "H1" and planted["games"] < 400_000
    same = compare("avengers-cards", ["default", f"shuffled:villains={shuffled_deck}"],
                   games=400_000, seed=2, sprt=sprt, batch=2_000).report["sprt"]["variants"][0]
    assert same["decision"] == "H0"
    assert same["history"][-1][1] <= same["lower"]


@pytest.mark.slow
def test_sprt_error_rates_on_the_game(shuffled_deck):
    """40 sequential A/A runs: false H1 at most 0.05 + 3 SEs (0.15); false-failure rate < 0.003."""
    sprt = {"delta": 0.01, "alpha": 0.05, "beta": 0.05, "metric": "win_share_seat0"}
    false_h1 = sum(
        compare("avengers-cards", ["default", f"s:villains={shuffled_deck}"], games=400_000,
                seed=900 + r, sprt=sprt, batch=2_000).report["sprt"]["variants"][0]["decision"] == "H1"
        for r in range(40))
    assert false_h1 / 40 <= 0.15


def test_bad_compare_input():
    with pytest.raises(BalanceError, match="at least two"):
        compare("avengers-cards", ["default"])
    with pytest.raises(BalanceError, match="sets players"):
        compare("avengers-cards", ["default", "players=3"])
    with pytest.raises(BalanceError, match="unknown metric"):
        compare("avengers-cards", ["default", PLANTED], sprt={"delta": 0.01, "alpha": 0.05,
                                                            "beta": 0.05, "metric": "fun"})
    with pytest.raises(BalanceError, match="unknown rules key"):
        compare("avengers-cards", ["default", "colour=2"])


def test_cli_compare_writes_json_and_report_and_exit_codes(tmp_path):
    runner = CliRunner()
    out = tmp_path / "cmp"
    args = ["compare", "avengers-cards", "--variant", "default", "--variant", PLANTED,
            "--games", "5000", "--seed", "4", "--quiet"]
    r = runner.invoke(app, args + ["--out", str(out)])
    assert r.exit_code == 0, r.output
    report = json.loads((out / "comparison.json").read_text())
    assert report["baseline"] == "default" and report["correction"].startswith("Holm")
    assert {"report.md", "report.html"} <= {p.name for p in out.iterdir()}
    r = runner.invoke(app, args + ["--out", str(tmp_path / "c2"), "--fail-if-different"])
    assert r.exit_code == 1
    r = runner.invoke(app, ["compare", "avengers-cards", "--variant", "default", "--variant",
                            "same:set_bonus=3", "--games", "2000", "--quiet", "--fail-if-different",
                            "--out", str(tmp_path / "c3")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["compare", "avengers-cards", "--variant", "default", "--variant",
                            PLANTED, "--sprt", "--games", "100000", "--batch", "2000",
                            "--out", str(tmp_path / "c4"), "--quiet"])
    assert r.exit_code == 0, r.output
    sprt = json.loads((tmp_path / "c4" / "comparison.json").read_text())["sprt"]
    assert sprt["variants"][0]["decision"] == "H1"
    r = runner.invoke(app, ["compare", "avengers-cards", "--variant", "default", "--variant",
                            "x=1", "--out", str(tmp_path / "c5")])
    assert r.exit_code == 2 and "unknown rules key 'x'" in r.output
    assert not (tmp_path / "c5").exists()


def test_same_numbers_for_any_threads_and_chunk_size():
    kwargs = dict(players=4, games=6_000, seed=8, strategies=["greedy:samples=2"])
    variants = ["default", PLANTED, "bonus:set_bonus=2;villains_per_battle=5"]
    runs = [compare("avengers-cards", variants, threads=t, chunk_size=c, **kwargs).report["results"]
            for t, c in [(1, 6_000), (2, 1_000), (2, 777)]]
    assert runs[0] == runs[1] == runs[2]
