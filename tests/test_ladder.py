"""The skill ladder: balance numbers per strategy and skill vs luck, against direct runs."""
import polars as pl
import pytest
from typer.testing import CliRunner

import balance
from balance.cli import app
from balance.core.errors import BalanceError
from balance.analysis.ladder import run_ladder


def test_ladder_numbers_match_direct_runs():
    result = run_ladder("avengers-cards", ["random", "greedy:samples=2"], players=[3, 4], games=3_000, seed=4)
    assert result.rungs.height == 4 and result.skill.height == 2
    direct = balance.simulate("avengers-cards", players=4, games=3_000, seed=4, rotate=True,
                              strategies=["greedy:samples=2", "random", "random", "random"])
    mine = direct.seats.filter(pl.col("strategy") == "greedy:samples=2")
    row = result.skill.filter(pl.col("players") == 4).row(0, named=True)
    assert row["share"] == mine["win_share"].sum() / mine["games"].sum()
    assert row["lo"] < row["share"] < row["hi"] and row["fair"] == 0.25
    # greedy beats random players far more often than luck would
    assert row["lo"] > 0.25
    rung = result.rungs.filter((pl.col("strategy") == "random") & (pl.col("players") == 3)).row(0, named=True)
    same = balance.simulate("avengers-cards", players=3, games=3_000, seed=4, strategies=["random"])
    beaten = same.villains["beaten"].sum() / same.villains["fought"].sum()
    assert rung["heroes_success"] == pytest.approx(beaten)


def test_bad_ladders():
    with pytest.raises(BalanceError, match="at least two"):
        run_ladder("avengers-cards", ["random"], players=[4])
    with pytest.raises(BalanceError, match="repeats"):
        run_ladder("avengers-cards", ["random", "random"], players=[4])


def test_cli_writes_the_ladder(tmp_path):
    out = tmp_path / "l"
    r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", "random,threshold",
                                 "--players", "4", "--games", "1000", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    html = (out / "ladder.html").read_text()
    assert html.count("data:image/png;base64,") == 2 and "Skill vs luck" in html
