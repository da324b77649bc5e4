"""siege (tests/toys/siege): a toy cooperative game with sides, proving the cooperative game
interface end to end: kernel against reference, the team result, sides drawn or given, the
core tables through balance.simulate, determinism, and the analysis commands on it."""
from __future__ import annotations

import json
import re
import tomllib

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import balance
from balance.cli import app
from balance.core.errors import BalanceError
from balance.core.game import CAPPED, WIN_UNIT, Kind
from balance.core.registry import game_ids, get_game
from balance.core.strategy import parse_strategy
from toys.siege import CAPPED_CODE, GAME, WALL_FELL, WON, reference
from toys.siege.engine import Engine, side_names
from toys.siege.metrics import compare_metrics
from toys.siege.rules import HEROES, Rules
from toys.siege.strategies import STRATEGIES

SPECS = ["random", "fighter", "coordinated", "coordinated:repair_below=9"]
# Every outcome is common here (won, wall fell and capped each in > 10% of games).
MIXED = {"players": 2, "strategies": ["random"], "overrides": {"max_rounds": 8}}


def engine(players: int, spec: str = "coordinated", sides=None, **rules) -> Engine:
    strategy = parse_strategy(spec, STRATEGIES)
    return Engine(Rules(players=players, **rules).validated(), [strategy] * players, sides=sides)


def given_sides(players: int) -> tuple[int, ...]:
    """Distinct heroes, not in index order (so a mix-up of seats and sides shows)."""
    return tuple(reversed(range(len(HEROES))))[:players]


# --- declaration and rules ------------------------------------------------------------------


def test_declared_as_a_cooperative_game_with_sides():
    info = get_game("siege")
    assert "siege" in game_ids()
    assert info.kind == Kind.COOPERATIVE and info.cooperative
    assert info.players == (1, 4)
    assert info.side == "hero" and info.score is None and info.length == "rounds"
    assert info.outcomes[info.capped_code] == CAPPED
    assert (WON, WALL_FELL, CAPPED_CODE) == (0, 1, 2)
    assert info.default_strategy in info.strategies
    assert side_names(Rules()) == ["knight", "archer", "healer", "mage"]
    assert [row["key"] for row in Rules.describe()] == Rules.keys()


def test_a_cooperative_game_without_a_strategy_plays_its_default_not_random(tmp_path):
    """A random team all but never wins a real cooperative game (Defenders: 0 of 200 games),
    so every measure would be empty: simulate and compare play the game's default strategy,
    where a competitive game keeps random play as its floor."""
    assert get_game("siege").simulate_strategy == "coordinated" != "random"
    assert get_game("dice-race").simulate_strategy == "random"  # competitive
    run = balance.simulate("siege", players=2, games=200, seed=0)
    labels = {s["label"] for block in run.manifest["runs"][0]["seatings"] for s in block["strategies"]}
    assert labels == {"coordinated"}


@pytest.mark.parametrize("overrides, named", [
    ({"players": 0}, "players=0"),
    ({"players": 5}, "players=5"),
    ({"wall": 0}, "wall=0"),
    ({"min_rounds": 0}, "min_rounds=0"),
    ({"max_rounds": 4, "min_rounds": 5}, "min_rounds=5"),
    ({"horde_growth": 0}, "horde_growth=0"),
    ({"wall": True}, "wall=True"),
    ({"moat": 3}, "'moat'"),
])
def test_bad_rules_get_one_line_errors(overrides, named):
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides(overrides)
    message = str(e.value)
    assert named in message and "allowed" in message and "\n" not in message


def test_rules_round_trip():
    rules = Rules.from_overrides({"players": 3, "wall": 7, "horde_growth": 4})
    assert Rules.from_overrides(rules.to_dict()) == rules
    assert rules.to_dict()["wall"] == 7


# --- kernel against reference ---------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("drawn", [True, False], ids=["drawn", "given"])
def test_kernel_matches_reference_game_by_game(players, spec, drawn):
    sides = None if drawn else given_sides(players)
    e = engine(players, spec, sides)
    seed, first, n = 11, 1000, 60
    chunk = e.play(seed, first, n)
    assert chunk.scores is None and chunk.sides.shape == (n, players)
    for i in range(n):
        g = reference.play_game(e.rules, e.strategies, seed, first + i, sides=sides)
        assert chunk.win_units[i].tolist() == g.win_units, i
        assert chunk.outcome[i] == g.outcome, i
        assert chunk.length[i] == g.length == len(g.rounds), i
        assert chunk.sides[i].tolist() == g.sides, i
        assert g.scores is None
    if not drawn:
        assert (chunk.sides == np.array(sides)).all()


def test_reference_plays_by_the_rulebook():
    """A few games of the reference checked against the rules themselves, round by round."""
    rules = Rules(players=3)
    strategies = [parse_strategy("random", STRATEGIES)] * 3
    for game in range(30):
        g = reference.play_game(rules, strategies, 5, game)
        assert len(set(g.sides)) == 3  # distinct heroes
        for r in g.rounds:
            assert 1 <= r.growth <= rules.horde_growth and all(1 <= d <= 6 for d in r.dice)
            assert r.horde >= 0 and r.wall <= rules.wall
        last = g.rounds[-1]
        if g.outcome == WON:
            assert last.horde == 0 and g.length >= rules.min_rounds and last.wall > 0
        elif g.outcome == WALL_FELL:
            assert last.wall <= 0
        else:
            assert g.length == rules.max_rounds and last.wall > 0
        assert all(r.wall > 0 for r in g.rounds[:-1])


# --- the team result ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_seat_gets_the_team_result(players):
    for spec in SPECS:
        chunk = engine(players, spec, max_rounds=8).play(3, 0, 500)
        team = chunk.win_units[:, :1]
        assert (chunk.win_units == team).all()
        assert set(np.unique(team).tolist()) <= {0, WIN_UNIT}
        assert ((team[:, 0] == WIN_UNIT) == (chunk.outcome == WON)).all()


def test_win_loss_and_capped_all_occur_and_the_outcomes_table_counts_them():
    games = 2000
    run = balance.simulate("siege", games=games, seed=1, threads=1, **MIXED)
    outcomes = run.tables["outcomes"].sort("outcome")
    by_name = {r["outcome"]: r for r in outcomes.iter_rows(named=True)}
    assert set(by_name) == set(GAME.outcomes)
    assert all(by_name[o]["games"] > games // 20 for o in GAME.outcomes), by_name
    assert sum(r["games"] for r in by_name.values()) == games
    assert by_name["won"]["won"] == by_name["won"]["games"]
    assert by_name["wall fell"]["won"] == 0 and by_name[CAPPED]["won"] == 0
    # the seats table agrees: every seat won exactly the team's games, outright
    seats = run.seats.group_by("seat").agg(pl.col("games", "wins_outright", "wins_shared", "win_share").sum())
    assert seats["wins_outright"].to_list() == [by_name["won"]["games"]] * 2
    assert seats["wins_shared"].to_list() == [0, 0]
    assert seats["win_share"].to_list() == [float(by_name["won"]["games"])] * 2
    # lengths: capped games all last max_rounds, won games at least min_rounds
    lengths = run.tables["lengths"]
    assert lengths.filter(pl.col("outcome") == CAPPED)["length"].to_list() == [8]
    assert lengths.filter(pl.col("outcome") == "won")["length"].min() >= Rules.min_rounds


def test_strategies_and_sides_matter():
    """Team win rates over 2,000 games each (measured, seed 2): fighter 92.0% against random
    25.6% (30 pp asserted; a rate's standard error is at most 1.1 pp), repairing below 10
    81.3% against never 92.0% (10.7 pp, about 8 standard errors of the difference), a lone
    knight 32.6% against a lone healer 0% (10 pp asserted): each margin is many standard
    errors, so a fresh seed keeps the order too."""
    def team_rate(**kw):
        o = balance.simulate("siege", games=2000, seed=2, threads=1, **kw).tables["outcomes"]
        return o["won"].sum() / o["games"].sum()

    assert team_rate(players=2, strategies=["fighter"]) > team_rate(players=2, strategies=["random"]) + 0.3
    # repairing more trades wins for lost and capped games
    assert team_rate(players=2, strategies=["coordinated:repair_below=10"]) < \
        team_rate(players=2, strategies=["coordinated:repair_below=0"])
    # a lone knight clears the horde far more often than a lone healer
    assert team_rate(players=1, strategies=["fighter"], sides=["knight"]) > \
        team_rate(players=1, strategies=["fighter"], sides=["healer"]) + 0.1


# --- sides ----------------------------------------------------------------------------------


def test_drawn_sides_are_distinct_vary_and_survive_a_change_of_strategy():
    seed, n = 4, 400
    base = engine(3, "fighter").play(seed, 0, n)
    strategies = [parse_strategy(s, STRATEGIES) for s in ("fighter", "random", "fighter")]
    other = Engine(Rules(players=3), strategies).play(seed, 0, n)
    assert (base.sides == other.sides).all()
    assert (base.outcome != other.outcome).any()  # the change did change games
    assert all(len(set(row)) == 3 for row in base.sides.tolist())
    assert len({tuple(row) for row in base.sides.tolist()}) == 24  # every ordered team of 3
    # chance draws (stream 0) do not move either: the same growth and dice in every round both played
    rules = Rules(players=3)
    for game in range(20):
        a = reference.play_game(rules, [strategies[0]] * 3, seed, game)
        b = reference.play_game(rules, strategies, seed, game)
        for ra, rb in zip(a.rounds, b.rounds):
            assert (ra.growth, ra.dice) == (rb.growth, rb.dice)


def test_given_sides_go_to_the_seats_table():
    run = balance.simulate("siege", players=2, games=300, seed=0, strategies=["coordinated"],
                           sides=["knight", "healer"], threads=1)
    seats = run.seats.sort("seat")
    assert seats["side"].to_list() == ["knight", "healer"]
    assert seats["games"].to_list() == [300, 300]
    assert run.manifest["sides"] == ["knight", "healer"]  # what --resume gives back
    seating = run.manifest["runs"][0]["seatings"][0]["strategies"]
    assert [s["side"] for s in seating] == ["knight", "healer"]


def test_drawn_sides_spread_over_the_seats_table():
    run = balance.simulate("siege", players=2, games=800, seed=0, strategies=["fighter"], threads=1)
    assert run.manifest["sides"] == "drawn"
    seats = run.seats
    for seat in (0, 1):
        mine = seats.filter(pl.col("seat") == seat)
        assert sorted(mine["side"].to_list()) == sorted(HEROES)
        assert mine["games"].sum() == 800 and mine["games"].min() > 100


def test_rotated_sides_cycle_over_the_seats():
    games = 300
    run = balance.simulate("siege", players=3, games=games, seed=0, strategies=["coordinated"],
                           sides=["knight", "archer", "healer"], rotate=True, threads=1)
    seats = run.seats
    assert seats.height == 9  # every seat played every one of the three heroes
    assert set(seats["side"].to_list()) == {"knight", "archer", "healer"}
    assert seats["games"].to_list() == [games // 3] * 9
    blocks = [[s["side"] for s in b["strategies"]] for b in run.manifest["runs"][0]["seatings"]]
    assert len(blocks) == 3 and all(sorted(b) == ["archer", "healer", "knight"] for b in blocks)
    assert len({tuple(b) for b in blocks}) == 3


def test_an_unknown_side_gets_a_one_line_error_listing_the_heroes():
    with pytest.raises(BalanceError) as e:
        balance.simulate("siege", players=2, games=10, sides=["knight", "dragon"], threads=1)
    message = str(e.value)
    assert "'dragon'" in message and "\n" not in message
    assert all(h in message for h in HEROES)


def test_a_team_cannot_repeat_a_hero():
    with pytest.raises(BalanceError) as e:
        balance.simulate("siege", players=2, games=10, sides=["knight"], threads=1)
    assert "knight, knight" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(BalanceError):
        Engine(Rules(players=2), [parse_strategy("fighter", STRATEGIES)] * 2, sides=(0, 7))


# --- determinism ----------------------------------------------------------------------------


@pytest.mark.parametrize("kw", [
    dict(players=[1, 2, 3, 4], strategies=["random"]),
    dict(players=3, strategies=["random", "coordinated", "fighter"], rotate=True,
         sides=["mage", "archer", "knight"]),
], ids=["drawn", "given-rotated"])
def test_same_seed_same_tables_for_any_chunking_and_threads(kw):
    kw = dict(kw, games=500, seed=9)
    a = balance.simulate("siege", chunk_size=7, threads=1, **kw)
    b = balance.simulate("siege", chunk_size=1000, threads=2, **kw)
    assert set(a.tables) == set(b.tables) and {"seats", "outcomes", "lengths"} <= set(a.tables)
    for name in a.tables:
        assert a.tables[name].equals(b.tables[name]), name


def test_one_game_replays_alone():
    e = engine(4, "random")
    many = e.play(21, 100, 50)
    for game in (100, 137, 149):
        alone = e.play(21, game, 1)
        i = game - 100
        assert alone.win_units[0].tolist() == many.win_units[i].tolist()
        assert (alone.outcome[0], alone.length[0]) == (many.outcome[i], many.length[i])
        assert alone.sides[0].tolist() == many.sides[i].tolist()


def test_one_player():
    run = balance.simulate("siege", players=1, games=400, seed=0, strategies=["fighter"], threads=1)
    seats = run.seats
    assert set(seats["seat"].to_list()) == {0} and seats["games"].sum() == 400
    assert run.tables["outcomes"]["games"].sum() == 400
    assert run.pairs is None  # cooperative: no seat plays against another
    assert "scores" not in run.tables  # no score
    assert run.seats["win_share"].sum() == run.tables["outcomes"]["won"].sum()


def test_kept_games_name_each_seats_hero_and_the_outcome():
    run = balance.simulate("siege", players=2, games=40, seed=6, strategies=["coordinated"],
                           keep_games=True, threads=1)
    games = run.games.sort("game", "seat")
    chunk = engine(2).play(6, 0, 40)
    assert games["side"].to_list() == [HEROES[s] for s in chunk.sides.ravel()]
    assert games["outcome"].to_list() == [GAME.outcomes[o] for o in np.repeat(chunk.outcome, 2)]
    assert games["win_share"].to_list() == (chunk.win_units.ravel() / WIN_UNIT).tolist()


def test_compare_metrics():
    rules = Rules(players=3, max_rounds=8)
    chunk = engine(3, "random", max_rounds=8).play(0, 0, 300)
    m = compare_metrics([rules], 3)
    values = m.per_game(chunk, rules)
    assert m.seat_columns == 0 and m.names[0] == "team_win"
    assert values.shape == (300, len(m.names)) == (300, len(m.units)) and values.dtype == np.int64
    assert (values[:, 0] == chunk.win_units[:, 0]).all()
    assert (values[:, 1] == (chunk.outcome == CAPPED_CODE)).all() and values[:, 1].any()
    assert (values[:, 2] == chunk.length).all()
    assert ((values / m.scales) <= m.bounds(rules)).all()


# --- the commands ---------------------------------------------------------------------------

runner = CliRunner()


def invoke(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result, result.output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("siege") / "run"
    result, text = invoke("simulate", "siege", "--players", "1,2,3", "--games", 2000, "-s", "coordinated",
                          "--set", "max_rounds=8", "--out", out, "--threads", 1, "--quiet")
    assert result.exit_code == 0, text
    return out


def test_cli_simulate_with_sides(tmp_path):
    result, text = invoke("simulate", "siege", "--players", 2, "--games", 200, "-s", "fighter",
                          "--side", "knight", "--side", "mage", "--out", tmp_path / "run", "--threads", 1)
    assert result.exit_code == 0, text
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet").sort("seat")
    assert seats["side"].to_list() == ["knight", "mage"]
    result, text = invoke("simulate", "siege", "--players", 2, "--games", 20, "--side", "dragon",
                          "--out", tmp_path / "bad", "--threads", 1, "--quiet")
    assert result.exit_code == 2 and "dragon" in text and "knight" in text


def test_cli_games_lists_siege():
    result, text = invoke("games")
    line = next(l for l in text.splitlines() if l.startswith("siege"))
    assert "cooperative" in line and "1-4 players" in line and "hero" in line


def test_cli_report(run_dir, tmp_path):
    result, text = invoke("report", run_dir, "--out", tmp_path / "report")
    assert result.exit_code == 0, text
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert (tmp_path / "report" / "report.html").is_file()
    assert "team" in md.lower()


def test_cli_compare(tmp_path):
    out = tmp_path / "cmp"
    result, text = invoke("compare", "siege", "--variant", "default", "--variant", "wall=4",
                          "--players", 2, "--games", 2000, "-s", "coordinated", "--out", out, "--threads", 1)
    assert result.exit_code == 0, text
    report = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    metrics = {r["metric"] for r in report["results"]}
    assert {"team_win", "capped", "length"} <= metrics
    assert not any(m.startswith("win_share_seat") or m == "seat_shift" for m in metrics)
    team = next(r for r in report["results"] if r["metric"] == "team_win")
    assert team["difference"] < 0 and team["significant"]  # a weaker wall loses more games
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "seat_shift" not in md and "no seat test" in md  # no seat words for a team game


def test_cli_tune(tmp_path):
    out = tmp_path / "tune"
    result, text = invoke("tune", "siege", "--strategy", "coordinated", "--players", 2, "--budget", 4000,
                          "--validate-games", 1000, "--out", out, "--threads", 1)
    assert result.exit_code == 0, text
    # a team game's validation verdict: the tuned team against the default team, as the report says it
    assert re.search(r"validation \(1,000 fresh games\): the tuned team wins [\d.]+%, "
                     r"(significantly better|significantly worse|not shown better) than the default coordinated "
                     r"team's [\d.]+% "
                     r"\([+-][\d.]+ pp, 95% CI [+-][\d.]+ to [+-][\d.]+; p",
                     text), text
    tuned = tomllib.loads((out / "tuned.toml").read_text(encoding="utf-8"))
    assert tuned["strategy"] == "coordinated"
    assert 0 <= tuned["params"]["repair_below"] <= 1000
    result, text = invoke("tune", "siege", "--players", 2, "--against", "random", "--budget", 1000,
                          "--out", tmp_path / "tune2", "--quiet")
    assert result.exit_code == 2 and "cooperative" in text


def test_cli_matchups_refuses_a_cooperative_game(tmp_path):
    result, text = invoke("matchups", "siege", "--pool", "random,fighter,coordinated", "--players", 2,
                          "--games", 200, "--out", tmp_path / "mu", "--threads", 1)
    assert result.exit_code == 2
    assert "cooperative" in text and len(text.strip().splitlines()) == 1


def test_cli_ladder(tmp_path):
    from balance.analysis.ladder import run_ladder

    games = 500
    result = run_ladder("siege", ["random", "fighter", "coordinated"], [1, 2, 3], games, 0, {}, 1)
    rungs = result.rungs
    assert rungs.height == 9
    assert (rungs["capped"] >= 0).all() and (rungs["games"] + rungs["capped"] == games).all()
    out = tmp_path / "ladder"
    cli, text = invoke("ladder", "siege", "--ladder", "random,fighter,coordinated", "--players", "1,2,3",
                       "--games", games, "--out", out, "--threads", 1, "--quiet")
    assert cli.exit_code == 0, text
    assert (out / "ladder.md").is_file()


def test_an_interrupted_run_with_given_sides_resumes_with_them(tmp_path):
    """--resume DIR takes the sides from the interrupted run, and ends with the numbers of an
    uninterrupted one."""
    from balance.core.api import resume_arguments

    kwargs = dict(players=3, games=3000, seed=4, strategies=["coordinated"], rotate=True,
                  sides=["mage", "knight", "archer"], chunk_size=500, threads=1)
    whole = balance.simulate("siege", **kwargs)
    out = tmp_path / "run"
    calls = []

    def stop(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        balance.simulate("siege", out=out, on_progress=stop, **kwargs)
    saved = resume_arguments(out)
    assert saved["sides"] == ["mage", "knight", "archer"] and saved["rotate"]
    result, text = invoke("simulate", "avengers-cards", "--resume", out, "-q")
    assert result.exit_code == 2 and "holds a run of 'siege', not 'avengers-cards'" in text, text
    result, text = invoke("simulate", "siege", "--resume", out, "--out", tmp_path / "other", "-q")
    assert result.exit_code == 2 and "name different directories" in text, text
    result, text = invoke("simulate", "siege", "--resume", out, "-q")
    assert result.exit_code == 0, text
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)
