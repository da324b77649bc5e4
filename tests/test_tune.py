"""Strategy tuning: the optimiser on a known noisy optimum, determinism, tuned.toml, bad input."""
import json

import numpy as np
import polars as pl
import pytest

from balance.core.errors import BalanceError
from balance.core.registry import get_game
from balance.core.strategy import parse_strategy
from balance.analysis.tune import _blocks, _seating, decode, encode, maximise, plan, tune

GAME = "avengers-cards"
CATALOGUE = get_game(GAME).strategies
# 3 generations of 8 candidates x 100 games (25 per seat), 400 validation games per field/arm
SMALL = dict(players=4, budget=2_400, population=8, games_per_candidate=100, validate_games=400)


# ---- the optimiser ---------------------------------------------------------------------------

OPTIMUM = np.array([0.2, 0.7, 0.45, 0.9])
NOISE_SD = 0.05  # per evaluation; the objective's range over [0, 1]^4 is about 4


def _noisy_quadratic(noise_rng):
    """-|x - OPTIMUM|^2 x 4 plus a shared per-generation shift (what common random numbers
    leave) and independent noise per candidate: x float[pop, 4] -> float[pop]."""
    def f(x, g, mean):
        shift = noise_rng.normal(0.0, 0.2)
        return -4 * ((x - OPTIMUM) ** 2).sum(axis=1) + shift + noise_rng.normal(0, NOISE_SD, len(x))
    return f


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_maximise_finds_the_optimum_of_a_noisy_quadratic(seed):
    result = maximise(_noisy_quadratic(np.random.default_rng(100 + seed)), 4,
                      np.random.default_rng(seed), generations=40, population=32)
    assert np.abs(result.x - OPTIMUM).max() < 0.05
    assert len(result.generations) == 40
    assert result.generations[-1].objectives.shape == (32,)


def test_maximise_respects_bounds_and_finds_a_corner():
    """The optimum outside the box: the answer goes to the nearest corner, never outside."""
    rng = np.random.default_rng(3)
    corner = np.array([1.3, -0.4])
    result = maximise(lambda x, g, m: -((x - corner) ** 2).sum(axis=1) + rng.normal(0, 0.02, len(x)),
                      2, np.random.default_rng(0), generations=30, population=16)
    assert all(((g.x >= 0) & (g.x <= 1)).all() for g in result.generations)
    assert np.abs(result.x - [1.0, 0.0]).max() < 0.05


def test_maximise_is_deterministic_for_a_seed():
    runs = [maximise(_noisy_quadratic(np.random.default_rng(7)), 4, np.random.default_rng(5),
                     generations=5, population=8).x for _ in range(2)]
    np.testing.assert_array_equal(*runs)


# ---- parameters and seats ----------------------------------------------------------------------

def test_decode_rounds_integers_and_stays_within_bounds():
    info = CATALOGUE["greedy"]
    assert decode(info, [0.0, 0.0, 0.0, 0.0]) == (1.0, 0.0, 0.0, 0.0)
    assert decode(info, [1.0, 1.0, 1.0, 1.0]) == (64.0, 10.0, 10.0, 10.0)
    samples, w_reward, _, _ = decode(info, [0.5, 0.123456789, 0.5, 0.5])
    assert samples == round(1 + 0.5 * 63) and w_reward == 1.2346
    defaults = tuple(p.default for p in info.params)
    assert decode(info, encode(info, defaults)) == defaults


def test_rotation_blocks_give_every_seat_equal_games():
    pieces = _blocks(1_000, 4, chunk=100)
    per_seat = np.bincount([s for s, _, _ in pieces], weights=[n for _, _, n in pieces])
    assert per_seat.tolist() == [250] * 4
    starts = sorted((a, n) for _, a, n in pieces)
    assert all(a + n == b for (a, n), (b, _) in zip(starts, starts[1:]))  # contiguous, no overlap
    assert max(n for _, _, n in pieces) <= 100
    cand, a, b, c = (parse_strategy(s, CATALOGUE) for s in ("greedy", "random", "lowest", "highest"))
    assert [s.name for s in _seating(cand, [a, b, c], 2)] == ["lowest", "highest", "greedy", "random"]


# ---- tune ----------------------------------------------------------------------------------

def test_tune_is_deterministic_for_a_seed_and_any_threads():
    one = tune(GAME, seed=11, threads=1, **SMALL)
    two = tune(GAME, seed=11, threads=2, **SMALL)
    assert one.params == two.params
    assert one.history.equals(two.history)
    assert one.validation.equals(two.validation)
    other = tune(GAME, seed=12, threads=2, **SMALL)
    assert not other.history.equals(one.history)


def test_tune_spends_the_budget_as_planned():
    p = plan(GAME, **SMALL)
    assert (p.population, p.games_per_candidate, p.generations) == (8, 100, 3)
    assert p.matchups == len(CATALOGUE)  # every strategy of the game at its defaults
    result = tune(GAME, seed=1, threads=1, against=["threshold", "random", "lowest"], **SMALL)
    assert result.history["generation"].to_list() == [0, 1, 2]
    assert result.history["first_game"].to_list() == [0, 100, 200]  # a new block of games each generation
    assert result.validation["field"].to_list() == [
        "greedy", "random", "lowest", "highest", "threshold", "threshold, random, lowest"]
    assert result.plan.total_games == 2_400 + 2 * 6 * 400
    defaults = plan(GAME, budget=30_000_000)  # the documented split
    assert (defaults.population, defaults.generations, defaults.games_per_candidate) == (32, 30, 31_248)


def test_progress_counts_every_game():
    seen = []
    result = tune(GAME, seed=2, threads=2, on_progress=seen.append, **SMALL)
    assert sum(seen) == result.plan.total_games


def test_tuned_toml_round_trips_through_parse_strategy(tmp_path):
    out = tmp_path / "tuned"
    result = tune(GAME, seed=3, threads=1, out=out, **SMALL)
    assert sorted(p.name for p in out.iterdir()) == [
        "convergence.png", "history.parquet", "report.md", "tune.json", "tuned.toml", "validation.parquet"]
    assert parse_strategy(f"greedy:@{out}/tuned.toml", CATALOGUE) == result.strategy
    assert parse_strategy(f"greedy:@{out}", CATALOGUE) == result.strategy
    assert parse_strategy(f"greedy:@{out}", CATALOGUE).label == result.strategy.label
    tweaked = parse_strategy(f"greedy:@{out}, w_risk=2", CATALOGUE)
    assert tweaked.values[2] == 2.0 and tweaked.values[:2] == result.strategy.values[:2]
    assert pl.read_parquet(out / "validation.parquet").equals(result.validation)
    assert "| `greedy` |" in (out / "report.md").read_text(encoding="utf-8")


def test_rules_overrides_from_numpy_are_the_numbers_they_hold(tmp_path):
    """A notebook's overrides read from numpy are written to tune.json as plain numbers (the
    rules refused np.int64(2) as "not an integer", and JSON could not write it)."""
    tune(GAME, seed=3, threads=1, out=tmp_path / "t", overrides={"set_bonus": np.int64(2)}, **SMALL)
    assert json.loads((tmp_path / "t" / "tune.json").read_text(encoding="utf-8"))["rules"]["set_bonus"] == 2


def test_tune_can_start_from_tuned_parameters(tmp_path):
    first = tune(GAME, seed=3, threads=1, out=tmp_path / "a", **SMALL)
    again = tune(GAME, strategy=f"greedy:@{tmp_path / 'a'}", seed=4, threads=1, **SMALL)
    assert again.manifest["start"] == first.strategy.label


@pytest.mark.parametrize("text, message", [
    ('strategy = "threshold"\n[params]\nmargin = 2\n', "holds parameters of strategy 'threshold'"),
    ('strategy = "greedy"\n[params]\nw_risk = 11\n', "w_risk=11 is out of range; allowed 0..10"),
    ('strategy = "greedy"\n[params]\nsamples = 2.5\n', "samples=2.5 must be an integer"),
    ('strategy = "greedy"\n[params]\nw_bogus = 1\n', "unknown parameter of strategy 'greedy'"),
    ('strategy = "greedy"\n[params]\nw_risk = "high"\n', "w_risk='high' is not a number"),
    ('strategy = "greedy"\nparams = 3\n', "params must be a table"),
    ('strategy = "greedy"\nextra = 1\n', "unknown key 'extra'"),
    ('strategy = "greedy\n', "are not valid TOML"),
])
def test_bad_tuned_files_are_refused(tmp_path, text, message):
    (tmp_path / "tuned.toml").write_text(text)
    with pytest.raises(BalanceError, match=message.replace("(", r"\(").replace(".", r"\.")):
        parse_strategy(f"greedy:@{tmp_path}", CATALOGUE)


def test_a_tuned_directory_with_a_comma_in_its_name_is_read_whole(tmp_path):
    """'greedy:@runs/a,b' looked for 'runs/a' (the comma ended the path): a path is the longest
    comma-separated prefix that exists, and what follows it overrides parameters."""
    folder = tmp_path / "a,b"
    folder.mkdir()
    (folder / "tuned.toml").write_text('strategy = "greedy"\n[params]\nw_risk = 3\n')
    assert parse_strategy(f"greedy:@{folder}", CATALOGUE).values[2] == 3.0
    assert parse_strategy(f"greedy:@{folder},w_risk=2", CATALOGUE).values[2] == 2.0
    with pytest.raises(BalanceError, match=f"tuned parameters '{tmp_path / 'a'}' do not exist"):
        parse_strategy(f"greedy:@{tmp_path / 'a'},c", CATALOGUE)  # nothing exists: the text before the comma


def test_missing_tuned_file_is_refused(tmp_path):
    with pytest.raises(BalanceError, match="do not exist"):
        parse_strategy(f"greedy:@{tmp_path / 'nowhere'}", CATALOGUE)


@pytest.mark.parametrize("kwargs, message", [
    (dict(strategy="smart"), "unknown strategy 'smart'; allowed: random, lowest"),
    (dict(strategy="random"), "strategy 'random' has no parameters to tune; allowed: threshold, greedy"),
    (dict(budget=799), "budget=799 games is too small for one generation of 8 candidates x 100 games"),
    (dict(budget=0), "budget=0 is out of range"),
    (dict(against=["random", "lowest"]), "against: 2 strategies for the 3 other seats"),
    (dict(against=["self", "random"]), "'self' .* must be given alone"),
    (dict(against="smart"), "unknown strategy 'smart'"),
    (dict(population=3), "population=3 is out of range; allowed: integer 4..10000"),
    (dict(games_per_candidate=3), "games_per_candidate=3 is out of range; allowed: integer 4"),
    (dict(validate_games=1), "validate_games=1 is out of range"),
    (dict(players=1), "players=1 is out of range"),
    (dict(seed=-1), "seed=-1 is out of range"),
    (dict(game="chess"), "unknown game 'chess'"),
])
def test_bad_inputs_are_refused(kwargs, message):
    args = {"game": GAME, **SMALL, "threads": 1, **kwargs}
    with pytest.raises(BalanceError, match=message):
        tune(**args)


def test_an_occupied_out_is_refused_before_tuning(tmp_path):
    (tmp_path / "old.txt").write_text("keep")
    with pytest.raises(BalanceError, match="exists and is not empty"):
        tune(GAME, out=tmp_path, threads=1, **{**SMALL, "budget": 10**9})  # would take minutes


# ---- interrupted and resumed --------------------------------------------------------------

def _interrupted(out, after: int, resume: bool = False, **kwargs):
    """A tuning into ``out`` stopped as by Ctrl-C once ``after`` games are done."""
    seen = [0]

    def progress(n):
        seen[0] += n
        if seen[0] > after:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        tune(GAME, seed=5, threads=2, out=out, on_progress=progress, resume=resume, **{**SMALL, **kwargs})


def test_an_interrupted_tuning_resumes_to_the_uninterrupted_answer(tmp_path):
    """Each finished generation and validation field is kept next to --out; a tuning cut in
    generation 1, resumed, cut in generation 2, resumed, cut in its validation and resumed
    again ends exactly where one uninterrupted run does (the same games per generation and
    field, the optimiser's random state restored), and leaves nothing behind but its outputs."""
    import json

    whole = tune(GAME, seed=5, threads=2, out=tmp_path / "whole", **SMALL)
    out, partial = tmp_path / "cut", tmp_path / ".cut.partial"
    _interrupted(out, after=1_200)  # 800 games a generation: in the second
    generations = json.loads((partial / "generations.json").read_text(encoding="utf-8"))["generations"]
    assert not out.exists() and len(generations) == 1
    _interrupted(out, after=2_000, resume=True)  # the 800 resumed count first: in the third
    assert len(json.loads((partial / "generations.json").read_text(encoding="utf-8"))["generations"]) == 2
    _interrupted(out, after=3_300, resume=True)  # the search is done (2,400): in validation's second field
    assert len(json.loads((partial / "generations.json").read_text(encoding="utf-8"))["generations"]) == 3
    assert len(json.loads((partial / "validation.json").read_text(encoding="utf-8"))) == 2  # each field of 800 kept
    seen = []
    resumed = tune(GAME, seed=5, threads=1, out=out, resume=True, on_progress=seen.append, **SMALL)
    assert resumed.params == whole.params
    assert resumed.history.equals(whole.history) and resumed.validation.equals(whole.validation)
    assert sum(seen) == resumed.plan.total_games  # the bar starts where the tuning stopped
    assert not partial.exists()
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in (tmp_path / "whole").iterdir())
    assert ((out / "tuned.toml").read_text(encoding="utf-8")
            == (tmp_path / "whole" / "tuned.toml").read_text(encoding="utf-8"))


def test_resume_refuses_another_tuning_and_a_missing_one(tmp_path):
    out = tmp_path / "t"
    with pytest.raises(BalanceError, match="nothing to resume at .*no interrupted tuning"):
        tune(GAME, seed=5, out=out, resume=True, **SMALL)
    _interrupted(out, after=1_200)
    with pytest.raises(BalanceError, match="differs in seed, generations"):
        tune(GAME, seed=6, out=out, resume=True, **{**SMALL, "budget": 4_000})
    state = tmp_path / ".t.partial" / "generations.json"
    kept = state.read_text(encoding="utf-8")
    state.write_text(kept[:len(kept) // 2])  # cut mid-write by something other than balance
    with pytest.raises(BalanceError, match="generations.json' is corrupted .* start again with --force"):
        tune(GAME, seed=5, out=out, resume=True, **SMALL)
    state.write_text(kept)
    with pytest.raises(BalanceError, match="an interrupted tuning of .* exists .* or discard it with --force"):
        tune(GAME, seed=5, out=out, **SMALL)
    with pytest.raises(BalanceError, match="holds an interrupted `balance tune`, not a run: continue it "
                                           f"with balance tune {GAME} --resume"):
        import balance
        balance.simulate(GAME, games=100, out=out, resume=True)
    fresh = tune(GAME, seed=5, threads=2, out=out, force=True, **SMALL)  # --force discards it
    assert fresh.paths and not (tmp_path / ".t.partial").exists()
    with pytest.raises(BalanceError, match=r"no interrupted tuning \(it is complete\)"):
        tune(GAME, seed=5, out=out, resume=True, **SMALL)


def test_cli_resume_takes_the_interrupted_tunings_options(tmp_path):
    from typer.testing import CliRunner

    from balance.cli import app

    whole = tune(GAME, seed=5, threads=2, **SMALL)
    out = tmp_path / "t"
    _interrupted(out, after=1_200)
    r = CliRunner().invoke(app, ["tune", GAME, "--resume", str(out), "--budget", "9999", "-q"])
    # named by the options that set it (the request keeps the generations --budget buys)
    assert r.exit_code == 2 and "differs in generations (set by --budget, --population and " in r.output, r.output
    # a tuning whose games per candidate came from its budget: a new --budget changes them, and the
    # refusal names --budget (it said "differs in games_per_candidate", an option never given)
    derived = tmp_path / "d"
    _interrupted(derived, after=1_000, games_per_candidate=None, budget=200_000)
    r = CliRunner().invoke(app, ["tune", GAME, "--resume", str(derived), "--budget", "400000", "-q"])
    assert r.exit_code == 2 and ("differs in games_per_candidate (--games-per-candidate, or set by --budget and "
                                 "--population)") in r.output, r.output
    r = CliRunner().invoke(app, ["tune", "zenonzard", "--resume", str(out), "-q"])
    assert r.exit_code == 2 and f"holds a tuning of {GAME!r}, not 'zenonzard'" in r.output, r.output
    r = CliRunner().invoke(app, ["tune", GAME, "--resume", str(out), "--out", str(tmp_path / "u"), "-q"])
    assert r.exit_code == 2 and "name different directories" in r.output, r.output
    r = CliRunner().invoke(app, ["tune", GAME, "--resume", str(out), "-q"])  # every option from it
    assert r.exit_code == 0, r.output
    assert parse_strategy(f"greedy:@{out}", CATALOGUE).to_dict()["params"] == whole.params


# ---- a real tuning -------------------------------------------------------------------------

@pytest.mark.slow
def test_tuned_greedy_beats_weak_fields_on_fresh_seeds():
    result = tune(GAME, seed=0, budget=400_000, validate_games=40_000)
    rows = {r["field"]: r for r in result.validation.iter_rows(named=True)}
    for field in ("random", "lowest", "greedy"):
        assert rows[field]["beats_field"], rows[field]
    assert rows["greedy"]["win_share"] > 0.25


def test_cli_tune_writes_a_usable_tuned_toml(tmp_path):
    from typer.testing import CliRunner

    from balance.cli import app

    out = tmp_path / "t"
    # -s, as simulate, compare and restrict take it (tune refused it: "No such option: -s")
    r = CliRunner().invoke(app, ["tune", "avengers-cards", "-s", "threshold", "--budget", "20000",
                                 "--validate-games", "2000", "--out", str(out)])
    assert r.exit_code == 0, r.output
    # the validation's verdict is printed, not only written (its counts are the table's)
    v = pl.read_parquet(out / "validation.parquet")
    worse = int(((v["difference"] < 0) & (v["p_difference_holm"] < 0.05)).sum())
    assert worse > 0  # here the tuning traded a field away: said, not hidden in the spread
    assert (f"validation (2,000 fresh games per field): significantly better than the default threshold against "
            f"{int(v['beats_default'].sum())} of {v.height} fields (") in r.output, r.output
    # each field named with its paired change, worst first (a spread of estimates read as an interval)
    first = v.filter(pl.col("difference") < 0).sort("difference").row(0, named=True)
    assert (f", significantly worse against {worse} ({first['field']} {100 * first['difference']:+.2f} pp"
            in r.output), r.output
    assert f"above the fair share against {int(v['beats_field'].sum())} of {v.height} (Holm, alpha 0.05)" in r.output
    assert (out / "tuned.toml").is_file() and (out / "convergence.png").is_file()
    r = CliRunner().invoke(app, ["simulate", "avengers-cards", "--games", "200", "-s",
                                 f"threshold:@{out}", "--out", str(tmp_path / "s"), "-q"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["tune", "avengers-cards", "--strategy", "random", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "no parameters to tune" in r.output


def test_a_cooperative_team_is_tuned_and_validated_as_a_whole_team(tmp_path):
    """siege (the toy cooperative game): every seat plays the candidate, so the validation row
    is the tuned team's own win rate, the same as playing that team directly on the validation
    seed; no fair share is tested (a team's seats share one result)."""
    from balance.analysis.tune import TEAM_FIELD

    info = get_game("siege")
    result = tune("siege", seed=3, threads=2, players=3, budget=1_800, population=6, games_per_candidate=60,
                  validate_games=600, out=tmp_path / "t")
    row = result.validation.row(0, named=True)
    assert result.validation.height == 1 and row["field"] == TEAM_FIELD
    assert np.isnan(row["fair"]) and np.isnan(row["p_fair_holm"]) and row["beats_field"] is False
    rules = info.part("rules").Rules.from_overrides(result.manifest["rules"])
    engine = info.part("engine").Engine(rules, [result.strategy] * 3)
    team = engine.play(result.manifest["validation_seed"], 0, 600).win_units[:, 0].mean() / 60
    assert row["win_share"] == pytest.approx(team, abs=1e-12)
    assert _seating(result.strategy, [parse_strategy("fighter", info.strategies)] * 2, 1, team=True) == \
        [result.strategy] * 3
    report = (tmp_path / "t" / "report.md").read_text(encoding="utf-8")
    assert "plays every one of the 3 seats" in report and "fair share" in report.split("Validation")[1]
    assert "p vs fair" not in report


@pytest.mark.parametrize("directory", ["avengers-cards/tuned-greedy", "smash-up/tuned-planner",
                                       "zenonzard/tuned-evaluator", "defenders-of-the-realm/tuned-coordinated"])
def test_every_committed_tuning_report_is_what_this_version_writes_from_its_files(directory, tmp_path):
    """The committed tunings' report.md, written again from their own tune.json and tables
    (``read_outputs``), must be what is committed: Avengers' still showed unsigned intervals
    a later version had signed. Smash Up's default planner plays as greedy, so its two fields
    give the same row, and its report says so; the others' fields differ and say nothing."""
    from pathlib import Path

    from balance.analysis.tune import read_outputs, report_markdown

    committed = Path(__file__).parent.parent / "reports" / directory
    written = report_markdown(read_outputs(committed), committed)
    assert written == (committed / "report.md").read_text(encoding="utf-8")
    assert ("gave the same figures in every column" in written) == directory.startswith("smash-up"), written


# ---- the validation's verdict on planted truths ------------------------------------------------


def planted_validation(tuned_rate: float, games: int, seed: int, team: bool = False):
    """The validation verdict of a tuned strategy winning ``tuned_rate`` of its games where the
    default wins 25%, paired game by game (the same uniform draw decides both: the tuned one wins
    every game the default wins, and more, or fewer): (the validation table, its summary line)."""
    from types import SimpleNamespace

    from balance.analysis.tune import _validation_table, validation_summary
    from balance.core.paired import PairedSums

    u = np.random.default_rng(seed).random(games)
    sums = PairedSums()
    sums.add((u < 0.25).astype(float), (u < tuned_rate).astype(float))
    v = _validation_table([{"field": "random", "games": games, "sums": sums}], 4, "greedy", team=team)
    manifest = {"default": {"label": "greedy"}, "validate_games": games, "cooperative": team}
    return v, validation_summary(SimpleNamespace(manifest=manifest, validation=v))


@pytest.mark.parametrize("team", [False, True])
def test_the_validation_calls_a_planted_better_or_worse_tuning_so_and_an_identical_one_neither(team):
    """Planted: the tuned strategy wins 30% or 20% of 10,000 games where the default wins 25%, on
    the same games (a paired difference of +-5 pp, about 22 standard errors); identical play (25%)
    has no difference at all. The summary says better, worse, and neither, for a field (against
    the default in a rotated seat) and for a cooperative team alike."""
    better, worse, same = (planted_validation(rate, 10_000, 1, team)[1] for rate in (0.30, 0.20, 0.25))
    if team:
        assert "significantly better than the default greedy team's" in better and "(+" in better, better
        assert "significantly worse than the default greedy team's" in worse and "(-" in worse, worse
        assert "not shown better than the default greedy team's" in same and "+0.00 pp" in same, same
    else:
        assert "significantly better than the default greedy against 1 of 1 fields (random +" in better, better
        assert "significantly worse against 1 (random -" in worse and "against 0 of 1 fields" in worse, worse
        assert "against 0 of 1 fields;" in same and "worse" not in same, same


def test_the_validation_holds_its_level_where_the_tuning_changed_nothing():
    """The null: tuned and default equally strong (25%), their games independent draws (no pairing
    to help), 400 validations of 2,000 games. A better or worse call is a false alarm of the
    paired z-test (Holm over the row's two tests), at most 5% each. Tolerance: the 99.9% point of
    Binomial(400, 0.05), 35 calls (a false failure 1 time in 1,000 for a test holding its level)."""
    from scipy.stats import binom

    from balance.analysis.tune import _validation_table
    from balance.core.paired import PairedSums

    rng = np.random.default_rng(8)
    alarms = 0
    for _ in range(400):
        sums = PairedSums()
        sums.add((rng.random(2000) < 0.25).astype(float), (rng.random(2000) < 0.25).astype(float))
        row = _validation_table([{"field": "random", "games": 2000, "sums": sums}], 4, "greedy").row(0, named=True)
        alarms += row["p_difference_holm"] < 0.05
    assert alarms <= binom.ppf(0.999, 400, 0.05), alarms
