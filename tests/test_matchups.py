"""Strategy matchups: the matrix equals direct head-to-head runs; dominance and the meta-game."""
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import balance
from balance.cli import app
from balance.core.errors import BalanceError
from balance.analysis import stats
from balance.analysis.matchups import _dominated, _replicator, run_matchups, split_pool


def test_pool_specs_keep_their_parameters_together():
    assert split_pool(["greedy:samples=4,w_risk=2,threshold", "random"]) == [
        "greedy:samples=4,w_risk=2", "threshold", "random"]


def test_matrix_matches_direct_head_to_head_runs():
    result = run_matchups("avengers-cards", ["greedy:samples=2", "random"], players=4, games=4_000, seed=3)
    direct = balance.simulate("avengers-cards", players=4, games=4_000, seed=3, rotate=True,
                              strategies=["random"] + ["greedy:samples=2"] * 3)
    mine = direct.seats.filter(pl.col("strategy") == "random")
    cell = result.matrix.filter((pl.col("strategy") == "random") & (pl.col("field") == "greedy:samples=2"))
    assert cell["share"][0] == mine["win_share"].sum() / mine["games"].sum()
    assert cell["games"][0] == 4_000
    assert cell["lo"][0] < cell["share"][0] < cell["hi"][0]


def test_dominance_and_replicator_dynamics_on_known_matrices():
    # strategy 0 does best against every field: it dominates and takes over the population
    m = np.array([[0.25, 0.40, 0.50], [0.15, 0.25, 0.30], [0.10, 0.20, 0.25]])
    dominated = dict(_dominated(m, ["a", "b", "c"]).iter_rows())
    assert dominated == {"a": "", "b": "a", "c": "a; b"}
    # with intervals, "better against one" must be intervals apart: +-0.02 keeps every claim
    # (b's gaps over c are 0.05, more than 0.04), +-0.03 leaves a over b and c (gaps up to
    # 0.25) but not b over c; with 5-game intervals (+-0.4) none stands
    for half, want in ((0.02, {"a": "", "b": "a", "c": "a; b"}), (0.03, {"a": "", "b": "a", "c": "a"}),
                       (0.4, {"a": "", "b": "", "c": ""})):
        assert dict(_dominated(m, ["a", "b", "c"], m - half, m + half).iter_rows()) == want, half
    meta = _replicator(m, ["a", "b", "c"])["population_share"].to_numpy()
    assert meta[0] > 0.999
    # rock-paper-scissors: nothing dominated, the even mix is the rest point
    rps = np.array([[0.5, 0.3, 0.7], [0.7, 0.5, 0.3], [0.3, 0.7, 0.5]])
    assert all(d == "" for _, d in _dominated(rps, ["r", "p", "s"]).iter_rows())
    assert np.allclose(_replicator(rps, ["r", "p", "s"])["population_share"], 1 / 3, atol=0.02)


def test_equal_strategies_under_noise_are_seldom_called_dominated():
    """The null with sampling noise: three equally strong strategies (every cell's win share
    25%, 2,000 games, binomial), 2,000 matrices drawn with a fixed seed. A claim "k dominates
    i" needs k's interval wholly above i's against some field: for independent cells that is
    a difference beyond 1.96 (se_i + se_k) = 2.77 sd of the difference, one-sided 0.28% per
    field, at most 3 x 0.28% = 0.84% per claim over the 3 fields (cells played on common
    games only make it rarer). Tolerance: that bound plus 4 standard errors of the observed
    rate over the 12,000 ordered pairs (false failure < 1e-4). The point-estimate rule, which
    the intervals replaced, calls about 1 in 8 (every field's estimate at least as large),
    far above the 5% the verdict claims: the test tells the two apart."""
    from balance.analysis.stats import share_ci

    rng = np.random.default_rng(11)
    reps, size, games = 2000, 3, 2000
    labels = ["a", "b", "c"]
    with_intervals = point_only = 0
    for _ in range(reps):
        wins = rng.binomial(games, 0.25, size=(size, size)).astype(float)
        m, lo, hi = share_ci(wins, wins, games)  # a win is 0 or 1: its square sums to the wins
        with_intervals += sum(len(d.split("; ")) for d in _dominated(m, labels, lo, hi)["dominated_by"] if d)
        point_only += sum(len(d.split("; ")) for d in _dominated(m, labels)["dominated_by"] if d)
    claims = reps * size * (size - 1)
    bound = 3 * 0.0028
    assert with_intervals / claims <= bound + 4 * np.sqrt(bound * (1 - bound) / claims), with_intervals
    assert point_only / claims > 0.05, point_only


def test_bad_pools():
    with pytest.raises(BalanceError, match="at least two"):
        run_matchups("avengers-cards", ["random"])
    with pytest.raises(BalanceError, match="repeats"):
        run_matchups("avengers-cards", ["random", "random"])
    with pytest.raises(BalanceError, match="unknown strategy"):
        run_matchups("avengers-cards", ["random", "clever"])
    # a negative count is out of range, not "too few to rotate"
    with pytest.raises(BalanceError, match=r"^games=-1 is out of range; allowed: integer 1\.\."):
        run_matchups("avengers-cards", ["random", "greedy"], games=-1)
    with pytest.raises(BalanceError, match="^games=2 is too few to rotate over 4 seats; give at least 4$"):
        run_matchups("avengers-cards", ["random", "greedy"], games=2)


def test_cli_writes_the_matchup_report(tmp_path):
    out = tmp_path / "m"
    r = CliRunner().invoke(app, ["matchups", "avengers-cards", "--pool", "lowest,random,threshold",
                                 "--games", "2000", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert {"matchups.md", "matchups.html", "matrix.parquet"} <= {p.name for p in out.iterdir()}
    assert pl.read_parquet(out / "matrix.parquet").height == 6
    assert "data:image/png;base64," in (out / "matchups.html").read_text(encoding="utf-8")


def test_cell_tests_use_the_observed_spread_and_a_never_winning_strategy_gets_p_0():
    """Cells built from per-game shares: a strategy that never wins (share 0 in every game,
    zero variance) is as far from fair as can be: p = 0, where the old interval-width test
    gave p = 1. A cell whose every game is a four-way tie (share exactly 1/4) has p = 1. A
    mixed cell gets the one-sample test on its per-game shares (scipy's z-test as oracle)."""
    from scipy import stats as st

    from balance.analysis.matchups import _significance

    mixed = np.array([1.0, 0.0, 0.0, 0.5, 0.0, 1 / 3, 0.25, 0.0, 1.0, 0.0] * 30)
    cells = {"never": np.zeros(200), "tie": np.full(200, 0.25), "mixed": mixed}
    matrix = pl.DataFrame([{"strategy": k, "games": x.size, "win_share_sum": x.sum(),
                            "win_share_sq_sum": (x * x).sum()} for k, x in cells.items()])
    p = dict(zip(matrix["strategy"], _significance(matrix, players=4)["p_value"]))
    assert p["never"] == 0.0 and p["tie"] == 1.0
    z = (mixed.mean() - 0.25) / (mixed.std(ddof=1) / np.sqrt(mixed.size))
    assert p["mixed"] == pytest.approx(2 * st.norm.sf(abs(z)), rel=1e-9)


def test_a_cell_of_fair_ties_only_shows_no_p(tmp_path):
    """A cell whose every game gave the row strategy exactly the fair share has nothing to
    test: the report shows "–" for its p and Holm p, and says why, not "p = 1.00" as if a test
    had run; a never-winning cell (no spread, but away from fair) keeps its p."""
    from balance.analysis.matchups import MatchupResult, _significance, write_matchups

    cells = {("a", "b"): np.full(400, 0.25), ("b", "a"): np.zeros(400)}
    rows = []
    for (a, b), x in cells.items():
        share, lo, hi = stats.share_ci(x.sum(), (x * x).sum(), x.size)
        rows.append({"strategy": a, "field": b, "games": x.size, "share": share, "lo": lo, "hi": hi,
                     "win_share_sum": x.sum(), "win_share_sq_sum": (x * x).sum()})
    matrix = _significance(pl.DataFrame(rows).with_columns(fair=pl.lit(0.25)), players=4)
    result = MatchupResult(matrix, _dominated(np.eye(2), ["a", "b"]),
                           pl.DataFrame({"strategy": ["a", "b"], "population_share": [0.5, 0.5]}), 4, ["a", "b"])
    md = write_matchups(result, tmp_path, "t")["markdown"].read_text(encoding="utf-8")
    assert "| `a` | `b` | 400 | 25.00% |" in md and "| –  | –  |" not in md, md
    row = next(line for line in md.splitlines() if line.startswith("| `a` | `b` |"))
    assert row.rstrip(" |").endswith("| – | –"), row
    never = next(line for line in md.splitlines() if line.startswith("| `b` | `a` |"))
    assert "–" not in never.split("|")[-3] and "< 1e-6" in never, never
    assert "–: every game of the cell (1 of 2) gave the row strategy exactly the fair share" in md


def test_the_dominance_verdict_names_the_fields_that_decide_it(tmp_path):
    """A designer read "`greedy` is dominated by `planner`" beside cells whose own tests found
    nothing, with no test named. The line now says what decides it: at least as good against
    every field (point estimates), and which fields' intervals lie apart. Here lowest against
    greedy:samples=2 (4,000 games a cell): greedy's interval is above lowest's against every
    field, itself and lowest's own (25% by symmetry) included; random's is not above greedy's
    anywhere. The population line says it is a description, not a test."""
    from balance.analysis.matchups import write_matchups

    result = run_matchups("avengers-cards", ["greedy:samples=2", "random", "lowest"], players=4, games=4_000, seed=3)
    md = write_matchups(result, tmp_path, "t")["markdown"].read_text(encoding="utf-8")
    assert ("- `lowest` is dominated by `greedy:samples=2`: at least as good against every field (point "
            "estimates), and ahead against `greedy:samples=2`, `random`, `lowest` with the 99.17% intervals apart "
            "(intervals that hold together over the matrix's cells: a test at 5% over the whole matrix).") in md, md
    assert "is dominated by" not in md.replace("`lowest` is dominated by", "")
    assert "(replicator dynamics on the cells' point estimates: a description, not a test;" in md


def test_a_pool_strategy_tuned_at_another_count_is_named_before_the_verdict(tmp_path, tuned_at):
    """The pool's labels lose the @DIR a tuned strategy came from, so matchups at 3 players of
    weights tuned at 4 read as the tuned play. Planted: tuned at 4, at 3 players a caution names
    it first; tuned at 3, none."""
    verdicts = {}
    for at in (4, 3):
        out = tmp_path / f"m{at}"
        r = CliRunner().invoke(app, ["matchups", "avengers-cards", "--pool", f"random,{tuned_at(at)}",
                                     "--players", "3", "--games", "300", "--out", str(out), "-q"])
        assert r.exit_code == 0, r.output
        verdicts[at] = (out / "matchups.md").read_text(encoding="utf-8").split("## Verdict\n\n")[1]
    assert verdicts[4].startswith("- **Caution:** `greedy:samples=3` was tuned by `balance tune` at 4 players; at "
                                  "3 players it plays those weights untuned, so its play there may be weaker than "
                                  "at 4 players.\n- A population")
    assert verdicts[3].startswith("- A population") and "Caution" not in verdicts[3]


def test_equal_strategies_in_capped_games_are_fair_against_the_finished_games():
    """With the turn cap stopping 11% of games (no win handed out), two strategies that play alike
    (threshold never 30 behind in a race to 10 is cautious) each won 43.65% of their games: "below
    the fair 50%" at p < 1e-6. The fair share is 1/2 of the finished games, 44.56%: not told
    apart (p = 0.23 at this seed; a fresh seed would call equal strategies off fair 5% of the
    time, Holm over the matrix's one question)."""
    ov = {"target": 10, "max_rounds": 3}
    m = run_matchups("dice-race", ["cautious", "threshold:behind=30"], players=2, games=4000, seed=1, overrides=ov)
    run = balance.simulate("dice-race", players=2, games=4000, seed=1, overrides=ov, rotate=True,
                           strategies=["cautious", "threshold:behind=30"])
    capped = int(run.tables["outcomes"].filter(pl.col("outcome") == "capped")["games"].sum())
    assert capped > 300 and m.matrix["capped"].to_list() == [capped, capped]
    assert m.matrix["fair"].to_list() == [(4000 - capped) / 4000 / 2] * 2
    assert (m.matrix["share"] < 0.47).all() and (m.matrix["p_adjusted"] > 0.05).all()


def test_at_two_players_a_cell_and_its_mirror_are_one_estimate():
    """A walkthrough read greedy against a planner field at 47.50% and the planner against a
    greedy field at 50.40%, with no game capped: two runs of one matchup (the rotation already
    puts each strategy in both seats). Now one run per pair gives both cells, which sum to 1
    where no game is capped, and Holm and the joint intervals count the pair once: with 3
    strategies, 3 questions (98.33% joint intervals), and a cell's adjusted p is its mirror's."""
    from balance.analysis.matchups import joint_level, questions

    pool = ["cautious", "threshold:behind=5", "threshold:behind=20"]
    m = run_matchups("dice-race", pool, players=2, games=2000, seed=4)
    cells = {(r["strategy"], r["field"]): r for r in m.matrix.iter_rows(named=True)}
    assert m.matrix["capped"].sum() == 0 and set(m.matrix["games"]) == {2000}
    for a in pool:
        for b in pool:
            if a != b:
                assert cells[(a, b)]["share"] + cells[(b, a)]["share"] == pytest.approx(1.0, abs=1e-12)
                assert cells[(a, b)]["p_adjusted"] == cells[(b, a)]["p_adjusted"]
    assert questions(6, 2) == 3 and questions(6, 3) == 6 and joint_level(3) == pytest.approx(1 - 0.05 / 3)
    _, lo, _ = stats.share_ci(cells[(pool[0], pool[1])]["win_share_sum"], cells[(pool[0], pool[1])]["win_share_sq_sum"],
                              2000, 1 - 0.05 / 3)
    assert cells[(pool[0], pool[1])]["lo_joint"] == pytest.approx(lo)


def test_a_pool_of_one_is_refused_with_the_game_s_own_strategies_as_the_example():
    """The refusal's example named avengers-cards' strategies for every game: a Smash Up
    designer followed it and met "unknown strategy 'threshold'"."""
    from balance.core.errors import BalanceError

    with pytest.raises(BalanceError, match=r"e\.g\. --pool random,greedy \(`balance games` lists smash-up's\)"):
        run_matchups("smash-up", ["greedy"], players=2, games=10)
    # random and the game's default: avengers-cards' first three were two deterministic strategies whose copies tie
    with pytest.raises(BalanceError, match=r"e\.g\. --pool random,greedy \("):
        run_matchups("avengers-cards", ["greedy"], players=4, games=10)


def cells_of(wins: np.ndarray, games: int, labels: list[str]) -> list[dict]:
    """run_matchups' cell rows from wins[i, j] (one-winner games of strategy i against a field of
    j, 4 players, nothing capped): what summarise takes."""
    rows = []
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if i != j:
                share, lo, hi = stats.share_ci(wins[i, j], wins[i, j], games)  # a win's square is the win
                rows.append({"strategy": a, "field": b, "games": games, "share": share, "lo": lo, "hi": hi,
                             "win_share_sum": float(wins[i, j]), "win_share_sq_sum": float(wins[i, j]),
                             "finished": games, "capped": 0, "fair": 0.25})
    return rows


def test_the_matchup_verdict_names_a_planted_dominated_strategy_and_only_then(tmp_path):
    """The verdict's last line through the command's own path (summarise, write_matchups).
    Planted: three strategies at 4 players, 4,000 games a cell; `a` and `b` win 25% against each
    other's field and 35% against a field of `c`, which wins 15% against theirs (its own field
    is 25% by symmetry): 11 to 18 standard errors of a cell apart, beyond the 99.17% joint intervals,
    so `c` is dominated by `a` and by `b`, and `a` and `b` by nobody. With every cell at 25% the
    line says no strategy is dominated, save for false alarms, which the joint intervals hold to
    5% of matrices (the verdict's "a test at 5% over the whole matrix"; a strategy's own field is
    exactly fair by symmetry, so a cell whose joint interval clears 25% there is one). Of 200
    such matrices drawn binomially, at most the 99.9% point of Binomial(200, 0.05), 21, may hold
    a claim (a false failure 1 time in 1,000 for a matrix test holding its level)."""
    from scipy.stats import binom

    from balance.analysis.matchups import summarise, write_matchups

    labels, games = ["a", "b", "c"], 4_000
    rng = np.random.default_rng(12)
    rates = np.array([[0.25, 0.25, 0.35], [0.25, 0.25, 0.35], [0.15, 0.15, 0.25]])  # [strategy, field]
    planted = summarise(cells_of(rng.binomial(games, rates), games, labels), labels, 4)
    md = write_matchups(planted, tmp_path / "planted", "t")["markdown"].read_text(encoding="utf-8")
    assert "- `c` is dominated by `a`: " in md and "- `c` is dominated by `b`: " in md, md
    assert "`a` is dominated" not in md and "`b` is dominated" not in md and "No strategy of the pool" not in md
    alarms, quiet = 0, None
    for _ in range(200):
        equal = summarise(cells_of(rng.binomial(games, np.full((3, 3), 0.25)), games, labels), labels, 4)
        claimed = (equal.dominated["dominated_by"] != "").any()
        alarms += claimed
        quiet = quiet if claimed else equal
    assert alarms <= binom.ppf(0.999, 200, 0.05), alarms
    md = write_matchups(quiet, tmp_path / "equal", "t")["markdown"].read_text(encoding="utf-8")
    assert "- No strategy of the pool is dominated." in md, md
