"""Card strength by restricted play: a restriction that never binds changes nothing; one that
binds moves the restricted seat's win share, measured paired on the same games."""
import polars as pl
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import BalanceError
from balance.restrict import run_restrict


def test_a_restriction_that_never_binds_has_exactly_zero_effect():
    # `lowest` plays its four lowest cards in every battle: it never reaches the 5 or the 6
    result = run_restrict("avengers-cards", players=4, strategy="lowest", cards=[5, 6],
                          when="before-last", games=2_000, seed=1)
    assert (result.table["difference"] == 0).all() and (result.table["p_value"] == 1).all()
    assert (result.table["baseline"] == result.table["restricted"]).all()


def test_a_binding_restriction_is_measured_with_an_interval():
    result = run_restrict("avengers-cards", players=4, strategy="lowest", cards=[1],
                          when="before-last", games=2_000, seed=1)
    row = result.table.row(0, named=True)
    # the restricted seat keeps its 1 for the last villain while the others play theirs early:
    # its cards no longer tie and cancel, and it wins far more than 1/4
    assert row["lo"] > 0 and row["p_adjusted"] < 1e-6
    assert row["restricted"] - row["baseline"] == pytest.approx(row["difference"])


def test_bad_restrictions():
    with pytest.raises(BalanceError, match="card 7 is not in the hand"):
        run_restrict("avengers-cards", players=4, cards=[7], games=100)
    with pytest.raises(BalanceError, match="unknown --when"):
        run_restrict("avengers-cards", players=4, when="sometimes", games=100)


def test_cli_writes_the_ranking(tmp_path):
    out = tmp_path / "r"
    r = CliRunner().invoke(app, ["restrict", "avengers-cards", "--games", "800", "-s", "random",
                                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    table = pl.read_parquet(out / "restrict.parquet")
    assert sorted(table["card"].to_list()) == [1, 2, 3, 4, 5, 6]
    assert table["difference"].is_sorted()  # most harmful first
    assert "data:image/png;base64," in (out / "restrict.html").read_text()
