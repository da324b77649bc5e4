"""The skill ladder: balance numbers per strategy and skill vs luck, against direct runs."""
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import balance
from balance.cli import app
from balance.core.errors import BalanceError
from balance.analysis.ladder import LadderResult, run_ladder, write_ladder


def test_ladder_numbers_match_direct_runs():
    result = run_ladder("avengers-cards", ["random", "greedy:samples=2"], players=[3, 4], games=3_000, seed=4)
    assert result.rungs.height == 4 and result.skill.height == 2
    direct = balance.simulate("avengers-cards", players=4, games=3_000, seed=4, rotate=True,
                              strategies=["greedy:samples=2", "random", "random", "random"])
    mine = direct.seats.filter(pl.col("strategy") == "greedy:samples=2")
    row = result.skill.filter(pl.col("players") == 4).row(0, named=True)
    assert row["share"] == mine["win_share"].sum() / mine["games"].sum()
    assert row["lo"] < row["share"] < row["hi"] and row["fair"] == 0.25
    # greedy beats random players far more often than luck would: 34.6% against 25%, 11
    # standard errors at 3,000 games (measured), so the interval clears 25% whatever the seed
    assert row["lo"] > 0.25
    rung = result.rungs.filter((pl.col("strategy") == "random") & (pl.col("players") == 3)).row(0, named=True)
    same = balance.simulate("avengers-cards", players=3, games=3_000, seed=4, strategies=["random"])
    beaten = same.villains["beaten"].sum() / same.villains["fought"].sum()
    assert rung["heroes_success"] == pytest.approx(beaten)


def test_bad_ladders():
    with pytest.raises(BalanceError, match="at least two strategies for a ladder, weakest first, e.g. --ladder "
                       "random,greedy$"):
        run_ladder("avengers-cards", ["random"], players=[4])
    with pytest.raises(BalanceError, match="repeats"):
        run_ladder("avengers-cards", ["random", "random"], players=[4])


def test_too_few_games_for_the_skill_runs_are_refused_before_any_rung_is_played(tmp_path):
    """They were refused after every rung had been played, leaving a partial study that only
    --force could clear (--resume failed the same way)."""
    played = []
    with pytest.raises(BalanceError, match="games=3 is too few to rotate over 5 seats in the skill runs"):
        run_ladder("avengers-cards", ["random", "threshold"], players=[3, 5], games=3,
                   play=lambda *a, **k: played.append(k))
    assert played == []
    with pytest.raises(BalanceError, match=r"^games=-1 is out of range; allowed: integer 1\.\."):
        run_ladder("avengers-cards", ["random", "threshold"], players=[3, 5], games=-1,
                   play=lambda *a, **k: played.append(k))
    assert played == []
    r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", "random,threshold", "--players", "3,5",
                                 "--games", "3", "--out", str(tmp_path / "l")])
    assert r.exit_code == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("entry, words", [
    (("heroes_success", "heroes' success", pl.DataFrame(), "percent"), "heroes_success ('percent'); allowed kinds: "),
    (("heroes_success", "heroes' success"), "('heroes_success', \"heroes' success\"); allowed: tuples of column, "
                                            "heading, frame[, kind, note]")])
def test_a_games_faulty_ladder_column_is_named_before_any_rung_is_played(entry, words, monkeypatch):
    """A column of an unknown kind was found after the first rung's whole simulation; a tuple
    too short failed in a bare TypeError."""
    from balance.games.avengers_cards import report

    monkeypatch.setattr(report, "ladder_measures", lambda tables, manifest: [entry])
    played = []
    with pytest.raises(ValueError, match="^avengers-cards's ladder_measures give ") as e:
        run_ladder("avengers-cards", ["random", "threshold"], players=[4], games=100,
                   play=lambda *a, **k: played.append(k))
    assert words in str(e.value) and played == []


def test_cli_writes_the_ladder(tmp_path):
    out = tmp_path / "l"
    r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", "random,threshold",
                                 "--players", "4", "--games", "1000", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    html = (out / "ladder.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 2 and "Skill vs luck" in html
    # skill runs measure each strategy against the first only: the ready command for the rest
    md = (out / "ladder.md").read_text(encoding="utf-8")
    assert ("which strategy of the ladder beats which is the question of `balance matchups avengers-cards "
            "--pool random,threshold --players 4`.") in md


def test_skill_vs_luck_names_a_highest_share_only_when_it_is_apart(tmp_path):
    """The Skill vs luck line named the highest estimate as if ranked. One greedy player among
    random players (about 47% at 1,000 games, interval +-3 pp) is apart from one threshold player
    (about 35%): "the highest share". Greedy against itself with one more sample (the same
    player, nearly) overlaps: "by estimate ... not ranked"."""
    lines = {}
    for name, ladder in (("apart", "random,threshold,greedy"), ("close", "random,greedy,greedy:samples=9")):
        r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", ladder, "--players", "4",
                                     "--games", "1000", "--seed", "1", "--out", str(tmp_path / name), "-q"])
        assert r.exit_code == 0, r.output
        text = (tmp_path / name / "ladder.md").read_text(encoding="utf-8")
        lines[name] = next(x for x in text.splitlines() if x.startswith("- Skill vs luck, 4 players"))
    assert lines["apart"].startswith("- Skill vs luck, 4 players, the highest share: one `greedy` player"), lines
    assert lines["close"].startswith("- Skill vs luck, 4 players, the highest share by estimate (its interval "
                                     "overlaps another's: not ranked): one `greedy"), lines


def test_a_ladder_of_ties_says_nothing_was_tested_and_blames_no_determinism(tmp_path):
    """With no tokens to win every game is a 4-way tie, under random players too. The ladder
    said "seat edges found under no tested strategy" (nothing was tested), gave random's ties
    to "identical deterministic players", and read a skilled player's 25.00% as luck winning."""
    out = tmp_path / "l"
    r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", "random,lowest", "--players", "4",
                                 "--games", "300", "--seed", "1", "--set", "tokens_per_colour=0",
                                 "--set", "start_tokens=[0,0,0]", "--threads", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    verdict = (out / "ladder.md").read_text(encoding="utf-8").split("## Balance by skill")[0]
    assert "4 players: no strategy of the ladder could be tested" in verdict and "seat edges found" not in verdict
    random_line = next(line for line in verdict.splitlines() if "`random` in every seat" in line)
    lowest_line = next(line for line in verdict.splitlines() if "`lowest` in every seat" in line)
    assert "deterministic" not in random_line and "identical deterministic players" in lowest_line
    assert "Skill vs luck, 4 players: not measured — every game was a 4-way tie" in verdict


def _team_rungs(won: list[int], players: int, games: int = 2000) -> pl.DataFrame:
    """A cooperative ladder's rungs at one count: strategy s<i> won won[i] of ``games``."""
    from balance.analysis.stats import wilson

    lo, hi = wilson(np.array(won), np.full(len(won), games))
    return pl.DataFrame({"strategy": [f"s{i}" for i in range(len(won))], "players": players, "games": games,
                         "capped": 0, "team_win": np.array(won) / games, "team_win_lo": lo, "team_win_hi": hi,
                         "team_won": won, "top_card": None, "constant": True, "all_tied": False},
                        schema_overrides={"top_card": pl.Int64})


def test_a_cooperative_ladder_names_the_best_strategy_only_when_a_test_separates_it(tmp_path):
    """"The team wins most with X" had no test. Planted: 10% against 2% and 1.5% of 2,000 games
    is named, with the next strategy and a Holm-adjusted Fisher p; 5.0% against 4.8% is "not
    told apart"; a team that never won names no strategy; no skill-vs-luck claim is made."""
    rungs = pl.concat([_team_rungs([40, 200, 30], 1), _team_rungs([96, 100, 90], 2), _team_rungs([0, 0, 0], 3)])
    result = LadderResult(rungs, pl.DataFrame(), ["s0", "s1", "s2"], None, {}, cooperative=True)
    write_ladder(result, tmp_path, "planted")
    verdict = (tmp_path / "ladder.md").read_text(encoding="utf-8").split("## Balance by skill")[0]
    assert ("1 player: the team wins most with `s1` in every seat, 10.00% (95% CI 8.76 to 11.39%), more than "
            "with `s0`, the next, 2.00%") in verdict and "adjusted p < 1e-6" in verdict
    assert "2 players: the two strategies under which the team wins most are not told apart: `s1` 5.00%" in verdict
    assert "3 players: the team never won, under any strategy of the ladder" in verdict
    assert "Skill vs luck: not measured — in a cooperative game" in verdict and "## Skill vs luck" not in verdict


@pytest.mark.parametrize("game", ["avengers-cards", "zenonzard", "smash-up"])
def test_every_committed_ladder_is_what_this_version_writes_from_its_tables(game, tmp_path):
    """The committed ladders (`make skill`, `make report-zenonzard`, `make skill-smash-up`), written again from their
    own rungs.parquet and skill.parquet (``read_ladder``), must be what is committed: a ladder
    wording change must regenerate them, as for the reports."""
    from pathlib import Path

    from balance.analysis.ladder import read_ladder

    committed = Path(__file__).parent.parent / "reports" / game / "ladder"
    write_ladder(read_ladder(committed, game), tmp_path, f"{game}: balance by skill")
    assert (tmp_path / "ladder.md").read_text(encoding="utf-8") == (committed / "ladder.md").read_text(encoding="utf-8")


def test_a_tuned_strategy_played_at_counts_it_was_not_tuned_at_is_named_first(tmp_path, tuned_at):
    """The Smash Up ladder played the planner tuned at 2 players at 3 and 4 as well and said
    nothing: a strategy's label loses the @DIR its values came from. Planted: tuned at 4, laddered
    at 3 and 4, a caution names 3 before every other line; laddered at 4 alone, none. A ladder
    written before rungs kept the tuned count (no column) says nothing rather than fail."""
    from balance.analysis.ladder import read_ladder

    tuned = tuned_at(4)
    verdicts = {}
    for counts in ("3,4", "4"):
        out = tmp_path / counts
        r = CliRunner().invoke(app, ["ladder", "avengers-cards", "--ladder", f"random,{tuned}",
                                     "--players", counts, "--games", "200", "--seed", "1", "--out", str(out), "-q"])
        assert r.exit_code == 0, r.output
        verdicts[counts] = (out / "ladder.md").read_text(encoding="utf-8").split("## Balance by skill")[0]
    first = verdicts["3,4"].split("## Verdict\n\n")[1].splitlines()[0]
    assert first == ("- **Caution:** `greedy:samples=3` was tuned by `balance tune` at 4 players; at 3 players its "
                     "rungs and skill runs play those weights untuned, so its play there may be weaker than at 4 "
                     "players.")
    assert "Caution" not in verdicts["4"]
    old = read_ladder(tmp_path / "3,4", "avengers-cards")
    old.rungs = old.rungs.drop("tuned_players")
    write_ladder(old, tmp_path / "old", "before the column")
    assert "Caution" not in (tmp_path / "old" / "ladder.md").read_text(encoding="utf-8")


def test_skill_vs_luck_in_capped_games_is_against_the_finished_games_share():
    """Pure luck was 1/n of every game, while a game the turn cap stopped hands out no win: a
    player as good as the rest "lost to luck" by the capped share. Planted: threshold never 30
    behind plays as cautious does; at 2 and 3 players, luck is 1/n of the finished games and the
    equal player's interval covers it (at this seed; 95% intervals)."""
    ov = {"target": 10, "max_rounds": 3}
    result = run_ladder("dice-race", ["cautious", "threshold:behind=30"], players=[2, 3], games=4000, seed=1,
                        overrides=ov)
    for row in result.skill.iter_rows(named=True):
        n = row["players"]
        run = balance.simulate("dice-race", players=n, games=4000, seed=1, overrides=ov, rotate=True,
                               strategies=["threshold:behind=30"] + ["cautious"] * (n - 1))
        capped = int(run.tables["outcomes"].filter(pl.col("outcome") == "capped")["games"].sum())
        assert capped > 0 and row["fair"] == (4000 - capped) / 4000 / n
        assert row["lo"] < row["fair"] < row["hi"] < 1 / n, row


def test_the_ladders_columns_of_words_are_left_aligned():
    """The rung table right-aligned every column after the players, the faction names and the
    top card among them, like numbers. Smash Up's committed ladder: its text columns (factions
    found, highest, lowest) and the top card are left-aligned, its numbers right-aligned."""
    from pathlib import Path

    md = (Path(__file__).parent.parent / "reports" / "smash-up" / "ladder" / "ladder.md").read_text(encoding="utf-8")
    lines = md.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("| strategy | players | games |"))
    header = [c.strip() for c in lines[head].strip("|").split("|")]
    rule = dict(zip(header, (c.strip() for c in lines[head + 1].strip("|").split("|"))))
    assert [h for h, r in rule.items() if r == "---"] == ["strategy", "players", "factions found", "highest",
                                                          "lowest", "top card"], rule


def test_the_seat_line_names_the_rung_with_a_planted_seat_edge_and_only_it(tmp_path):
    """dice-race, target 30 in 6 rounds, 3,000 games at seed 4 (the report's planted case,
    tests/test_verdicts.py): under `bold` every seat rolls the same dice law and waits for no one,
    so the seats are fair; under `threshold` the later seat reacts to the round's earlier rolls
    and wins 82% of the finished games, about 20 standard errors from 50%. The ladder names
    `threshold` and not `bold`; a ladder of `bold` and `random` (which rolls one die or two at
    random, without looking either) names neither (fair seats pass the test at 5% at this seed;
    a fresh seed would name one of the two fair rungs about 1 time in 10)."""
    result = run_ladder("dice-race", ["bold", "threshold"], players=[2], games=3_000, seed=4,
                        overrides={"target": 30, "max_rounds": 6})
    write_ladder(result, tmp_path, "t")
    text = (tmp_path / "ladder.md").read_text(encoding="utf-8")
    assert ("- 2 players: seat edges found under `threshold` (equal-seats test, Holm over the player "
            "counts).") in text, text
    # random, like bold, rolls without looking at the other seat: a ladder of fair rungs names none
    fair = run_ladder("dice-race", ["bold", "random"], players=[2], games=3_000, seed=4,
                      overrides={"target": 30, "max_rounds": 6})
    write_ladder(fair, tmp_path / "fair", "t")
    assert "- 2 players: no seat edge found under any tested strategy of the ladder" in \
        (tmp_path / "fair" / "ladder.md").read_text(encoding="utf-8")
