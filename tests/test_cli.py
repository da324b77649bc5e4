"""The balance command: help, a small run, and every bad-input case (exit 2, one line)."""
import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import BalanceError
from balance.games.avengers_cards.rules import RULE_DOCS, Rules, _default_hand
from balance.core.registry import game_ids, get_game
from balance.core.variants import parse_value

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_help_and_version():
    for args in (["--help"], ["simulate", "--help"], ["strategies", "--help"]):
        r = invoke(*args)
        assert r.exit_code == 0 and "Usage" in r.output
    assert "--keep-games" in invoke("simulate", "--help").output
    assert invoke("--version").output.startswith("balance ")


def test_help_reflows_the_docstrings_to_the_terminal(monkeypatch):
    """The docstrings are wrapped at 90 columns in the source; --help joins their lines so a
    sentence is broken where the terminal is full, not where the source happened to break."""
    import typer.rich_utils

    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 400)
    listing = invoke("--help").output
    assert "installed by other packages through the balance.games entry point)." in listing
    simulate = invoke("simulate", "--help").output
    assert "into --out, atomically. Finished chunks are checkpointed" in simulate


def test_games_and_strategies_list():
    listed = invoke("games").output
    assert "avengers-cards" in listed and "defenders-of-the-realm" in listed
    lines = [line for line in listed.splitlines() if line and not line.startswith(" ")]
    # every title starts in one column, however long the longest id
    assert len({len(line) - len(line.split(" ", 1)[1].lstrip()) for line in lines}) == 1
    out = invoke("strategies", "avengers-cards").output
    for word in ("random", "lowest", "highest", "threshold", "greedy", "margin=1.0", "samples=8", "1..64"):
        assert word in out


def test_small_run_writes_every_file(tmp_path):
    out = tmp_path / "run"
    r = invoke("simulate", "avengers-cards", "--players", "3,4", "--games", 2000, "--seed", 3,
               "-s", "greedy:samples=4", "--set", "set_bonus=2", "--out", out, "--keep-games")
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["cards.parquet", "game_totals.parquet", "games.parquet", "lengths.parquet",
                     "manifest.json", "outcomes.parquet", "pairs.parquet", "scores.parquet",
                     "seats.parquet", "villains.parquet"]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["game"] == "avengers-cards" and manifest["seed"] == 3 and manifest["games"] == 2000
    assert manifest["runs"][0]["rules"]["set_bonus"] == 2
    assert manifest["runs"][1]["seatings"][0]["strategies"][3]["params"]["samples"] == 4
    assert manifest["package_version"] and manifest["rules_version"] == "avengers-cards/1"
    seats = pl.read_parquet(out / "seats.parquet")
    assert seats.columns == ["players", "seat", "strategy", "games", "win_share", "wins_outright",
                             "wins_shared", "score_sum", "score_sq_sum", "win_share_sq_sum", "side"]
    assert seats["side"].to_list() == [""] * 7  # avengers-cards has no sides
    assert set(manifest["tables"]) == {n.removesuffix(".parquet") for n in names if n.endswith(".parquet")} - {"games"}
    outcomes = pl.read_parquet(out / "outcomes.parquet")
    assert outcomes.filter(pl.col("outcome") == "capped")["games"].to_list() == [0, 0]
    assert outcomes.filter(pl.col("outcome") == "finished")["won"].to_list() == [2000, 2000]
    assert seats.height == 7 and seats["games"].to_list() == [2000] * 7
    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 2000 * 7
    # the per-game rows add up to the aggregates
    by_seat = games.group_by("players", "seat").agg(pl.col("score").sum()).sort("players", "seat")
    assert by_seat["score"].to_list() == seats["score_sum"].to_list()
    scores = pl.read_parquet(out / "scores.parquet")
    assert scores["count"].sum() == 2000 * 7
    # per-game score totals add up to the seats' score sums, and their squares to the games'
    totals = pl.read_parquet(out / "game_totals.parquet").sort("players")
    per_game = games.group_by("players", "game").agg(pl.col("score").sum()).group_by("players").agg(
        pl.col("score").sum().alias("t"), (pl.col("score") ** 2).sum().alias("t2")).sort("players")
    assert totals["score_total_sum"].to_list() == per_game["t"].to_list()
    assert totals["score_total_sq_sum"].to_list() == per_game["t2"].to_list()
    # head to head: seat a ahead of b, b ahead of a and level add up to the games played
    pairs = pl.read_parquet(out / "pairs.parquet").filter(pl.col("players") == 3)
    ahead = {(r["seat"], r["opponent_seat"]): r for r in pairs.iter_rows(named=True)}
    for (a, b), r in ahead.items():
        assert r["ahead"] + ahead[(b, a)]["ahead"] + r["level"] == 2000
    # ... and equal what the per-game rows say
    wide = games.filter(pl.col("players") == 3).pivot(on="seat", index="game", values="score")
    for (a, b), r in ahead.items():
        assert r["ahead"] == (wide[str(a)] > wide[str(b)]).sum()


def test_per_seat_strategies_and_variant_file(tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text('name = "soft"\nloss_rule = "one"\n')
    r = invoke("simulate", "avengers-cards", "--games", 500, "-s", "random", "-s", "lowest",
               "-s", "greedy", "-s", "threshold:margin=2", "--variant", variant,
               "--out", tmp_path / "r", "--quiet")
    assert r.exit_code == 0, r.output
    seats = pl.read_parquet(tmp_path / "r" / "seats.parquet")
    assert seats["strategy"].to_list() == ["random", "lowest", "greedy", "threshold:margin=2"]
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["runs"][0]["rules"]["loss_rule"] == "one"


BAD = [
    (["simulate", "chess"], "unknown game 'chess'"),
    (["strategies", "chess"], "unknown game 'chess'"),
    (["rules", "chess"], "unknown game 'chess'"),
    (["simulate", "avengers-cards", "--players", "9"], "players=9"),
    (["simulate", "avengers-cards", "--players", "x"], "--players 'x'"),
    (["simulate", "avengers-cards", "--games", "0"], "games=0"),
    (["simulate", "avengers-cards", "--seed", "-1"], "seed=-1"),
    (["simulate", "avengers-cards", "-s", "smart"], "unknown strategy 'smart'"),
    (["simulate", "avengers-cards", "-s", "threshold:margin=-1"], "margin=-1"),
    (["simulate", "avengers-cards", "-s", "greedy:samples=2.5"], "samples=2.5"),
    (["simulate", "avengers-cards", "-s", "greedy:depth=2"], "'depth'"),
    (["simulate", "avengers-cards", "-s", "greedy:samples=4,samples=5"],
     "error: strategy 'greedy:samples=4,samples=5': samples is given twice; give each parameter once"),
    (["simulate", "avengers-cards", "-s", "random", "-s", "lowest"], "2 strategies given for 4 players"),
    (["simulate", "avengers-cards", "--set", "colours=4"], "unknown rules key 'colours'"),
    (["simulate", "avengers-cards", "--set", "loss_rule=half"], "loss_rule"),
    (["simulate", "avengers-cards", "--set", "set_bonus"], "not KEY=VALUE"),
    (["simulate", "avengers-cards", "--variant", "missing.toml"], "does not exist"),
    # a value of the wrong type inside the range is not an integer, not "out of range"
    (["simulate", "avengers-cards", "--set", "set_bonus=1e2"],
     "error: set_bonus=100.0 is not an integer; allowed: integer 0..100"),
    (["simulate", "avengers-cards", "--set", "set_bonus=true"],
     "error: set_bonus=True is not an integer; allowed: integer 0..100"),
    (["simulate", "avengers-cards", "--set", "set_bonus=101"],
     "error: set_bonus=101 is out of range; allowed: integer 0..100"),
    (["simulate", "avengers-cards", "--set", "hand=[1.5]"],
     "error: hand: card value 1.5 is not an integer; allowed: integers 1..15"),
    (["simulate", "avengers-cards", "--set", "hand=[2,16]"], "error: hand: card value 16 is out of range"),
    # the allowed keys do not offer players, which --set refuses (--players gives it)
    (["simulate", "avengers-cards", "--set", "colour=2"],
     "error: unknown rules key 'colour'; allowed: hand, battles,"),
]


@pytest.mark.parametrize("args, words", BAD)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    r = invoke(*args, *(["--out", out] if args[0] == "simulate" else []))
    assert r.exit_code == 2, r.output
    assert words in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize("address", ["tcp://localhost", "not-an-address", "http://x:y", "tcp://h:70000"])
def test_a_malformed_scheduler_address_is_refused_before_the_run_directory_is_made(tmp_path, address):
    """distributed finds a bad address only when the run asks for workers (a traceback, and the
    run's .X.partial left behind to block the corrected command)."""
    r = invoke("simulate", "avengers-cards", "--games", 200, "--backend", "dask", "--scheduler", address,
               "--threads", 1, "--out", tmp_path / "X")
    assert r.exit_code == 2, r.output
    assert r.output == (f"error: --scheduler {address!r}: give an address tcp://HOST:PORT "
                        "(e.g. tcp://10.0.0.5:8786; also tls://, ws://, wss://, ucx://)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_run_that_fails_before_any_chunk_leaves_nothing_to_resume(tmp_path, monkeypatch):
    """A scheduler that cannot be reached (or any failure before a chunk is done) keeps no
    .X.partial: there is nothing to resume, and it would make the next run ask for --force."""
    from balance.core import runner

    def unreachable(*args, **kwargs):
        raise BalanceError("cannot reach the dask scheduler 'tcp://10.0.0.5:8786': timed out")

    monkeypatch.setattr(runner, "execute", unreachable)
    args = ("simulate", "avengers-cards", "--games", 200, "--backend", "dask", "--scheduler",
            "tcp://10.0.0.5:8786", "--out", tmp_path / "X")
    r = invoke(*args)
    assert r.exit_code == 2 and r.output == "error: cannot reach the dask scheduler 'tcp://10.0.0.5:8786': timed out\n"
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    r = invoke("simulate", "avengers-cards", "--games", 200, "--threads", 1, "--out", tmp_path / "X", "-q")
    assert r.exit_code == 0, r.output


OUT_COMMANDS = [
    ["simulate", "avengers-cards", "--games", 100],
    ["compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2", "--games", 100],
    ["restrict", "avengers-cards", "--games", 100],
    ["matchups", "avengers-cards", "--pool", "random,lowest", "--games", 100],
    ["ladder", "avengers-cards", "--ladder", "random,lowest", "--games", 100],
    ["tune", "avengers-cards", "--budget", 4000, "--population", 4, "--games-per-candidate", 100],
]


@pytest.mark.parametrize("command", OUT_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("out, shown", [("", "'' (or '.')"), (".", "'' (or '.')"), ("..", "'..'")])
def test_an_out_that_is_the_current_directory_or_a_parent_is_refused(tmp_path, monkeypatch, command, out, shown):
    """--out is replaced whole, built beside it as .NAME.partial: "" (read as ".") replaced the
    current directory and left a folder named '..partial'."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    r = invoke(*command, "--out", out, "--force")
    assert r.exit_code == 2, r.output
    assert r.output == (f"error: --out {shown} is the current directory or one of its parents, which would be "
                        "replaced whole; allowed: a directory of its own, e.g. --out runs/NAME\n")
    assert list(tmp_path.iterdir()) == [work] and list(work.iterdir()) == []


def test_a_quoted_number_in_a_variant_file_is_not_an_integer(tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text('set_bonus = "2"\n')
    r = invoke("simulate", "avengers-cards", "--variant", variant, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: variant file {str(variant)!r}: set_bonus='2' is not an integer; "
                        "allowed: integer 0..100\n")
    assert not (tmp_path / "o").exists()


def test_files_saved_with_a_byte_order_mark_are_read(tmp_path):
    """Windows editors save UTF-8 with a BOM; it was 'not valid TOML ... line 1, column 1'."""
    from importlib import resources

    from balance.core.strategy import load_tuned
    from balance.core.variants import load_variant_file
    from balance.games.avengers_cards.strategies import STRATEGIES

    (tmp_path / "v.toml").write_text("set_bonus = 2\n", encoding="utf-8-sig")
    assert load_variant_file(tmp_path / "v.toml") == {"set_bonus": 2}
    (tmp_path / "tuned.toml").write_text('strategy = "greedy"\n[params]\nsamples = 4\n', encoding="utf-8-sig")
    assert load_tuned(tmp_path, STRATEGIES["greedy"]) == {"samples": 4.0}
    # a villain deck (avengers-cards' villains=PATH), the vendored one saved with a BOM
    deck = resources.files("balance.games.avengers_cards").joinpath("data/villains.json").read_text("utf-8")
    (tmp_path / "villains.json").write_text(deck, encoding="utf-8-sig")
    read = Rules.from_overrides({"villains": str(tmp_path / "villains.json")}).to_kernel()
    assert all(np.array_equal(a, b) for a, b in zip(read, Rules.from_overrides({}).to_kernel(), strict=True))


def test_a_villain_deck_saved_as_utf16_is_a_clear_error_and_leaves_nothing(tmp_path, monkeypatch):
    """Notepad's "Unicode" is UTF-16: the villain deck reader raised a UnicodeDecodeError (a
    traceback), and compare, which had already begun its study, left a .partial behind whose
    --resume crashed again (found by an audit of bad input)."""
    from importlib import resources

    deck = resources.files("balance.games.avengers_cards").joinpath("data/villains.json").read_text("utf-8")
    (tmp_path / "v16.json").write_text(deck, encoding="utf-16")
    monkeypatch.chdir(tmp_path)
    r = invoke("simulate", "avengers-cards", "--games", 50, "--set", f"villains={tmp_path / 'v16.json'}", "-q")
    assert r.exit_code == 2 and r.output.startswith(f"error: villains: cannot read {str(tmp_path / 'v16.json')!r} "
                                                    "as UTF-8 JSON (")
    assert r.output.endswith("); save it as UTF-8\n")
    r = invoke("compare", "avengers-cards", "--variant", "default", "--variant", f"villains={tmp_path / 'v16.json'}",
               "--games", 50, "--out", tmp_path / "cmp", "-q")
    assert r.exit_code == 2 and "save it as UTF-8" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v16.json"]


def test_a_report_blocked_by_what_is_in_its_way_writes_nothing_and_names_it(tmp_path):
    """The report moved its files in one at a time: with a directory named report.md in the
    way it wrote report.html and the figures, then failed saying only 'Is a directory'."""
    run = tmp_path / "run"
    assert invoke("simulate", "avengers-cards", "--games", 100, "--out", run, "-q").exit_code == 0
    out = tmp_path / "out"
    (out / "report.md").mkdir(parents=True)
    r = invoke("report", run, "--out", out)
    assert r.exit_code == 2 and r.output == (f"error: cannot write {str(out / 'report.md')!r}: a directory of "
                                             "that name is in the way; move it\n")
    assert [p.name for p in out.iterdir()] == ["report.md"]
    (out / "report.md").rmdir()
    (out / "figures").write_text("not a folder")
    r = invoke("report", run, "--out", out)
    assert r.exit_code == 2 and f"{str(out / 'figures')!r} is a file, where a folder must be" in r.output
    assert [p.name for p in out.iterdir()] == ["figures"]


def test_commands_started_in_the_same_second_get_directories_of_their_own(tmp_path, monkeypatch):
    """The default --out is runs/GAME-TIMESTAMP to the second: a second run started in the same
    second as another was refused as "an interrupted run" of the first's directory, and offered
    --force to discard it (a code reading found it)."""
    from datetime import datetime

    import balance.cli

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 12, 7, 5, 30, 0)

    monkeypatch.setattr(balance.cli, "datetime", Frozen)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / ".avengers-cards-20261207-053000-2.partial").mkdir(parents=True)  # one still running
    for _ in range(2):
        assert invoke("simulate", "avengers-cards", "--games", 20, "-q").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [
        ".avengers-cards-20261207-053000-2.partial", "avengers-cards-20261207-053000",
        "avengers-cards-20261207-053000-3"]
    assert balance.cli._default_out("compare", "zenonzard") == Path("runs/compare-zenonzard-20261207-053000")
    # commands started together (a script's `&`) each checked the name before either made it:
    # now the name is reserved at once (an empty .NAME.partial), the run takes its reservation,
    # and a reservation nothing took is removed at exit
    from balance.core.checkpoint import partial_dir

    first, second = (balance.cli._default_out("", "avengers-cards") for _ in range(2))
    assert (first.name, second.name) == ("avengers-cards-20261207-053000-4", "avengers-cards-20261207-053000-5")
    assert partial_dir(first).is_dir() and partial_dir(second).is_dir()
    assert invoke("simulate", "avengers-cards", "--games", 20, "--out", first, "-q").exit_code == 0
    assert (first / "manifest.json").is_file() and not partial_dir(first).exists()
    balance.cli._remove_if_empty([partial_dir(second).absolute()])
    assert not partial_dir(second).exists()


def test_a_bad_value_in_a_variant_file_names_the_file(tmp_path):
    """simulate said only 'set_bonus=200 is out of range': with several variant files about, the
    user could not tell which one held it. A fault of --set's own is not blamed on the file."""
    (tmp_path / "v.toml").write_text("set_bonus = 200\n")
    r = invoke("simulate", "avengers-cards", "--games", 50, "--variant", tmp_path / "v.toml", "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output == (f"error: variant file {str(tmp_path / 'v.toml')!r}: set_bonus=200 is "
                                             "out of range; allowed: integer 0..100\n")
    r = invoke("simulate", "avengers-cards", "--games", 50, "--variant", tmp_path / "v.toml", "--set", "battles=0",
               "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output.startswith("error: battles=0 is out of range")
    assert not (tmp_path / "o").exists()


def test_one_side_refused_in_two_seats_says_it_plays_every_seat(tmp_path):
    """--side Paladin at 2 players said 'a team has each hero at most once; got Paladin,
    Paladin', though the user gave Paladin once: one --side plays every seat. The games say so
    where they find the repeat (Defenders' heroes in the core's distinct_sides, Smash Up's
    factions in its engine), and only when every seat has the same side."""
    hint = " (every seat has it: one --side plays every seat; give one per seat)"
    r = invoke("simulate", "defenders-of-the-realm", "--players", 2, "--games", 10, "--side", "Paladin",
               "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output == f"error: a team has each hero at most once; got Paladin, Paladin{hint}\n"
    r = invoke("simulate", "defenders-of-the-realm", "--players", 3, "--games", 10, "--side", "Paladin",
               "--side", "Paladin", "--side", "Cleric", "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output == ("error: a team has each hero at most once; got Paladin, Paladin, "
                                             "Cleric\n")
    r = invoke("simulate", "smash-up", "--players", 2, "--games", 10, "--side", "Aliens+Ninjas",
               "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output.endswith(f"give pairs with no faction in common{hint}\n")
    assert not (tmp_path / "o").exists()


def test_simulate_refuses_a_second_variant_file(tmp_path):
    """--variant A --variant B played B alone, without a word (click keeps an option's last
    value); compare takes several, so a user repeats it here too."""
    (tmp_path / "a.toml").write_text("set_bonus = 2\n")
    (tmp_path / "b.toml").write_text('loss_rule = "one"\n')
    r = invoke("simulate", "avengers-cards", "--games", 50, "--variant", tmp_path / "a.toml", "--variant",
               tmp_path / "b.toml", "--out", tmp_path / "o")
    given = f"({tmp_path / 'a.toml'}, {tmp_path / 'b.toml'})"
    assert r.exit_code == 2
    assert r.output.startswith(f"error: --variant is given 2 times {given}; a run plays one variant file")
    assert not (tmp_path / "o").exists()


def test_cards_of_a_game_without_a_card_list_names_the_games_with_one():
    """'avengers-cards has no card list' left the user to guess which games have one."""
    r = invoke("cards", "avengers-cards")
    assert r.exit_code == 2 and r.output == (
        "error: avengers-cards declares no card list; the games with one: smash-up, zenonzard. "
        "`balance rules avengers-cards` lists its rules\n")


def test_flags_take_no_value_in_help():
    """typer showed '--quiet -q <bool>', as if it took a value ('--quiet true' is refused)."""
    for command in ("simulate", "compare", "tune", "restrict", "matchups", "ladder", "report", "games", "rules"):
        flagged = [line for line in invoke(command, "--help").output.splitlines()
                   if "<bool>" in line and "--help" not in line]  # --help's own is typer's
        assert not flagged, (command, flagged)


def test_a_rules_key_given_twice_is_refused(tmp_path):
    """The last value won silently, while the command (and a variant's name) showed both."""
    r = invoke("simulate", "avengers-cards", "--set", "set_bonus=2", "--set", "set_bonus=3", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == "error: --set set_bonus is given twice; give each rules key once\n"
    r = invoke("compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2;set_bonus=3",
               "--games", "100", "--out", tmp_path / "c")
    assert r.exit_code == 2
    assert r.output == ("error: variant 'set_bonus=2;set_bonus=3': set_bonus is given twice; give each rules "
                        "key once\n")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_tuned_file_is_said_to_hold_no_strategy(tmp_path):
    """It was said to hold parameters of strategy None, to be used as None:@DIR."""
    (tmp_path / "tuned.toml").write_text("")
    r = invoke("simulate", "avengers-cards", "-s", f"greedy:@{tmp_path}", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: {str(tmp_path / 'tuned.toml')!r} holds no tuned strategy (no line "
                        'strategy = "NAME"); give a tuned.toml that `balance tune --out` wrote\n')
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", ["simulate", "restrict"])
def test_a_tuned_integer_no_float_holds_is_out_of_range(tmp_path, command):
    """TOML integers have no bound: one of 401 digits was an OverflowError traceback (and left
    restrict's partial behind)."""
    (tmp_path / "tuned.toml").write_text('strategy = "greedy"\n[params]\nsamples = 1' + "0" * 400 + "\n")
    r = invoke(command, "avengers-cards", "-s", f"greedy:@{tmp_path}", "--games", "100", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: {str(tmp_path / 'tuned.toml')!r}: samples is an integer of 401 digits, out of "
                        "range; allowed 1..64\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tuned.toml"]


@pytest.mark.parametrize("command", ["restrict", "tune", "matchups"])
def test_a_command_of_one_player_count_names_a_comma_list_given_to_it(tmp_path, command):
    """simulate, compare and ladder take --players 3,4; these took it to typer's box "Input
    should be a valid integer", which names neither the option nor the value."""
    r = invoke(command, "avengers-cards", "--players", "3,4", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: --players '3,4': {command} takes one player count, a whole number "
                        "(run it once per count)\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "compare", "restrict", "matchups", "ladder"])
def test_games_that_are_not_a_whole_number_are_named(tmp_path, command):
    r = invoke(command, "avengers-cards", "--games", "10k", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == "error: --games '10k' is not a whole number of games\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option, value, message", [
    ("--seed", "x1", "--seed 'x1' is not a whole number (a seed is 0 or more)"),
    ("--threads", "two", "--threads 'two' is not a whole number of threads"),
])
@pytest.mark.parametrize("command", ["simulate", "compare", "restrict", "matchups", "ladder", "tune"])
def test_a_seed_or_thread_count_that_is_not_a_whole_number_is_named(tmp_path, command, option, value, message):
    """typer's own refusal is a box that names neither the option nor the value."""
    r = invoke(command, "avengers-cards", option, value, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == f"error: {message}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_batch_that_is_not_a_whole_number_is_named(tmp_path):
    r = invoke("compare", "avengers-cards", "--sprt", "--batch", "1e4", "--out", tmp_path / "o")
    assert r.exit_code == 2 and r.output == "error: --batch '1e4' is not a whole number of games\n"


@pytest.mark.parametrize("deck, what", [
    ('[{"id": "a", "battle": 1, "strength": 3, "rewards": [["Y"]]}]', 'not an object whose "villains" is a list'),
    ('{"villains": [{"id": "a", "strength": 3, "rewards": [["Y"]]}]}', "villain 'a' has no 'battle'"),
    ('{"villains": [{"id": "a", "battle": "1", "strength": 3, "rewards": [["Y"]]}]}',
     "villain 'a' has battle '1', not an integer"),
    ('{"villains": [{"id": "a", "battle": 1, "strength": 3, "rewards": ["Y"]}]}',
     "villain 'a' has rewards ['Y'], not a list of token lists"),
    ('{"villains": [', "not valid JSON (Expecting value: line 1 column 15 (char 14))"),
])
def test_a_villain_deck_of_the_wrong_shape_says_what_is_wrong_and_what_is_expected(tmp_path, deck, what):
    """A top-level list was refused with Python's "TypeError: list indices must be integers or
    slices, not str", which names neither the villain nor the shape."""
    path = tmp_path / "deck.json"
    path.write_text(deck)
    r = invoke("simulate", "avengers-cards", "--set", f"villains={path}", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: villains {str(path)!r}: {what}; expected "
                        '{"villains": [{"id", "battle", "strength", "rewards": [["Y", ...], ...]}, ...]}\n')
    assert not (tmp_path / "o").exists()


def test_restrict_refuses_a_second_strategy(tmp_path):
    """restrict plays one strategy in every seat; a second -s silently replaced the first."""
    r = invoke("restrict", "avengers-cards", "-s", "greedy", "-s", "random", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == ("error: -s given 2 times (greedy, random); restrict plays one strategy in every seat: "
                        "give -s once\n")
    assert list(tmp_path.iterdir()) == []


COMPARE = ["compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2", "--games", 200]
METRICS = ("win_share_seat0, win_share_seat1, win_share_seat2, win_share_seat3, mean_score, score_range, "
           "heroes_success, tied_game, tokens_held")


@pytest.mark.parametrize("args, message", [
    (["--metric", "win_rate", "--sprt"], f"unknown metric 'win_rate'; allowed: {METRICS}"),
    (["--metric", "win_rate"], "--metric win_rate applies to --sprt (the sequential mode); add --sprt "
                               "(or drop --metric)"),
    # the SPRT's settings alone were accepted and changed nothing
    (["--metric", "mean_score"], "--metric mean_score applies to --sprt (the sequential mode); add --sprt "
                                 "(or drop --metric)"),
    (["--batch", "500"], "--batch 500 applies to --sprt (the sequential mode); add --sprt (or drop --batch)"),
    (["--delta", "0.02"], "--delta 0.02 applies to --sprt (the sequential mode); add --sprt (or drop --delta)"),
    (["--beta", "0.1"], "--beta 0.1 applies to --sprt (the sequential mode); add --sprt (or drop --beta)"),
    # a batch of 0 quietly became 10000
    (["--sprt", "--batch", "0"], "batch=0 is out of range; allowed: integer 2..1000000000000"),
])
def test_compare_refuses_sprt_settings_it_would_ignore(tmp_path, args, message):
    r = invoke(*COMPARE, *args, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == f"error: {message}\n"
    assert list(tmp_path.iterdir()) == []


def test_compare_warns_that_a_repeated_variant_name_is_reported_under_another(tmp_path):
    """Two variants named b were reported as b and b#2 without a word."""
    r = invoke("compare", "avengers-cards", "--variant", "default", "--variant", "b:set_bonus=2",
               "--variant", "b:set_bonus=4", "--games", 200, "--threads", 1, "--out", tmp_path / "o", "-q")
    assert r.exit_code == 0, r.output
    assert r.stderr == ("warning: two variants are named 'b': the later one is reported as 'b#2'; name each "
                        "with NAME:SETTINGS\n")


@pytest.mark.parametrize("command", [["simulate", "avengers-cards"],
                                     ["compare", "avengers-cards", "--variant", "default"]])
def test_a_variant_that_is_a_directory_is_called_one(tmp_path, command):
    """It was said not to exist."""
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    r = invoke(*command, "--variant", folder, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: variant file {str(folder)!r} is a directory, not a file; give a TOML file of "
                        "rules keys\n")
    assert list(tmp_path.iterdir()) == [folder]


def test_help_says_rotate_fits_one_strategy_or_side_per_seat_and_the_default_count(monkeypatch):
    """The help said "(any number of strategies)" and "Default: 4"; the code refuses more
    strategies or sides than seats, and smash-up and zenonzard default to 2 players."""
    import typer.rich_utils

    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 400)
    text = invoke("simulate", "--help").output
    assert "any number" not in text and "Default: 4" not in text
    assert "every strategy plays every seat equally often (at most one strategy per seat)" in text
    assert "or with --rotate up to one per seat, rotated over the seats with the strategies" in text
    assert "Default: the game's default count (its rules' players: balance rules GAME)" in text
    for game in ("smash-up", "zenonzard"):  # what that sentence points to
        rows = {row["key"]: row for row in get_game(game).part("rules").Rules.describe()}
        assert rows["players"]["default"] in ("2", 2)


def test_restrict_takes_threads_and_its_numbers_do_not_depend_on_them(tmp_path):
    outs = []
    for threads in (1, 2):
        outs.append(tmp_path / f"t{threads}")
        r = invoke("restrict", "avengers-cards", "--players", 3, "-n", 400, "--threads", threads,
                   "--out", outs[-1], "-q")
        assert r.exit_code == 0, r.output
    assert pl.read_parquet(outs[0] / "restrict.parquet").equals(pl.read_parquet(outs[1] / "restrict.parquet"))


def test_ladder_names_both_files_it_wrote(tmp_path):
    out = tmp_path / "l"
    r = invoke("ladder", "avengers-cards", "--ladder", "random,lowest", "--players", 3, "-n", 200,
               "--threads", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stdout == f"wrote {out / 'ladder.html'} and {out / 'ladder.md'}\n"
    assert (out / "ladder.md").is_file() and (out / "ladder.html").is_file()


@pytest.mark.parametrize("command", [
    ["simulate", "avengers-cards", "--players", 5],  # ran 5 players without a word
    ["simulate", "avengers-cards"],  # took players=3 as the count: one way to give it instead
    ["tune", "avengers-cards"],
    ["matchups", "avengers-cards", "--pool", "random,lowest"],
    ["ladder", "avengers-cards", "--ladder", "random,lowest"],
    ["restrict", "avengers-cards"],
], ids=lambda c: "-".join(map(str, c[::2])))
def test_a_player_count_among_the_rules_changes_is_refused(tmp_path, command):
    r = invoke(*command, "--set", "players=3", "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == "error: give the player count with --players (players=), not players=3 in --set (overrides=)\n"
    assert list(tmp_path.iterdir()) == []


def test_a_player_count_in_a_variant_file_is_refused(tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text("players = 3\n")
    r = invoke("simulate", "avengers-cards", "--variant", variant, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert r.output == (f"error: give the player count with --players (players=), not players=3 in variant file "
                        f"{str(variant)!r}\n")
    assert list(tmp_path.iterdir()) == [variant]


def test_malformed_toml_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("set_bonus = = 2\n")
    r = invoke("simulate", "avengers-cards", "--variant", bad, "--out", tmp_path / "o")
    assert r.exit_code == 2 and "not valid TOML" in r.output
    assert not (tmp_path / "o").exists()


def test_existing_output_is_kept_without_force(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    r = invoke("simulate", "avengers-cards", "--games", 100, "--out", out)
    assert r.exit_code == 2 and "--force" in r.output
    assert (out / "precious.txt").read_text(encoding="utf-8") == "keep me"
    # --force replaces a balance output, never a directory of the user's own files
    r = invoke("simulate", "avengers-cards", "--games", 100, "--out", out, "--force", "-q")
    assert r.exit_code == 2
    assert "holds no finished output of simulate, tune or an analysis (none of manifest.json" in r.output
    assert sorted(p.name for p in out.iterdir()) == ["precious.txt"]
    (out / "precious.txt").unlink()
    assert invoke("simulate", "avengers-cards", "--games", 100, "--out", out, "-q").exit_code == 0
    # notes a user added to a run: --force would delete them with it, so it refuses, naming them
    (out / "notes.txt").write_text("my notes on this run")
    r = invoke("simulate", "avengers-cards", "--games", 100, "--out", out, "--force", "-q")
    assert r.exit_code == 2 and r.output == (
        f"error: --out {str(out)!r} also holds what balance did not write (notes.txt); --force replaces only an "
        "output of balance: move it out, or give a new directory\n")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes on this run"
    (out / "notes.txt").unlink()
    assert invoke("report", out).exit_code == 0  # a report written into the run is balance's
    r = invoke("simulate", "avengers-cards", "--games", 100, "--out", out, "--force", "-q")
    assert r.exit_code == 0 and (out / "manifest.json").is_file() and not (out / "report.md").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp dirs left


def test_force_never_deletes_a_folder_that_merely_holds_a_file_named_like_balances(tmp_path):
    """--force checked only that a file named manifest.json (or ladder.md, ...) was there: a web
    app's folder, whose manifest.json is its own, was replaced whole, its source gone (an
    audit of bad input). The marker must be balance's (a JSON one naming the game, rules and
    balance versions; a Markdown one beside its table), and nothing else may be there."""
    app = tmp_path / "webapp"
    (app / "src").mkdir(parents=True)
    (app / "manifest.json").write_text('{"name": "my-web-app", "version": "1.0"}')
    (app / "src" / "app.js").write_text("console.log(1)")
    r = invoke("simulate", "avengers-cards", "--games", 100, "--out", app, "--force", "-q")
    assert r.exit_code == 2 and "holds no finished output of simulate, tune or an analysis" in r.output
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ladder.md").write_text("# my ladder of ideas\n")
    (notes / "data.csv").write_text("a,b\n")
    assert invoke("ladder", "avengers-cards", "--ladder", "random,lowest", "--games", 100, "--out", notes,
                  "--force", "-q").exit_code == 2
    run = tmp_path / "run"
    assert invoke("simulate", "avengers-cards", "--games", 100, "--out", run, "-q").exit_code == 0
    (run / "thesis").mkdir()
    (run / "thesis" / "draft.tex").write_text("\\section{Results}")
    r = invoke("compare", "avengers-cards", "--variant", "default", "--variant", "set_bonus=2", "--games", 100,
               "--out", run, "--force", "-q")
    assert r.exit_code == 2 and "(thesis/)" in r.output
    assert (app / "src" / "app.js").is_file() and (notes / "data.csv").is_file()
    assert (run / "thesis" / "draft.tex").is_file() and (run / "manifest.json").is_file()


def test_force_takes_file_manager_litter_and_a_killed_reports_staging_as_balances(tmp_path):
    """Finder leaves .DS_Store in every folder it opens (figures/ too), and a report killed
    mid-write leaves .report.partial: neither is the user's, so neither blocks --force."""
    from balance.core.output import not_replaceable

    out = tmp_path / "run"
    assert invoke("simulate", "avengers-cards", "--games", 100, "--out", out, "-q").exit_code == 0
    assert invoke("report", out).exit_code == 0
    (out / ".DS_Store").write_bytes(b"\0")
    (out / "figures" / ".DS_Store").write_bytes(b"\0")
    (out / ".report.partial" / "figures").mkdir(parents=True)
    assert not_replaceable(out) is None
    (out / "figures" / "mine.svg").write_text("<svg/>")
    assert not_replaceable(out).endswith("also holds what balance did not write (figures/)")


@pytest.mark.parametrize("command", OUT_COMMANDS, ids=lambda c: c[0])
def test_force_replaces_each_commands_own_output(tmp_path, command):
    """Every file each command writes is one --force knows as balance's, so an output is
    replaced by the same command again."""
    out = tmp_path / "out"
    assert invoke(*command, "--out", out, "-q").exit_code == 0
    r = invoke(*command, "--out", out, "--force", "-q")
    assert r.exit_code == 0, r.output


def test_force_knows_the_finished_file_of_every_command():
    """The outputs --force may replace are those whose finished file a command writes."""
    from balance.analysis.study import kinds
    from balance.core.output import FINISHED_OUTPUTS

    written = {kind.finished for kind in kinds().values()}
    assert set(kinds()) == {"simulate", "tune", "compare", "ladder", "matchups", "restrict"}
    assert written == set(FINISHED_OUTPUTS)


def test_json_summary_is_machine_readable_and_quiet_is_silent(tmp_path):
    r = invoke("simulate", "avengers-cards", "--games", 300, "--out", tmp_path / "j", "--json")
    assert r.exit_code == 0
    summary = json.loads(r.stdout)
    assert summary["games"] == 300 and summary["out"] == str(tmp_path / "j")
    assert summary["execution"]["backend"] == "local" and summary["timing"]["seconds"] >= 0
    r = invoke("simulate", "avengers-cards", "--games", 300, "--out", tmp_path / "q", "--quiet")
    assert r.exit_code == 0 and r.output == ""


# ---- balance rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_ids())
def test_every_rules_key_is_described(game):
    rules_cls = get_game(game).part("rules").Rules
    rows = rules_cls.describe()  # a key without words raises here
    assert [r["key"] for r in rows] == rules_cls.keys()
    for r in rows:
        assert set(r) == {"key", "default", "allowed", "meaning"}
        assert all(isinstance(v, str) and v.strip() for v in r.values()), r


def test_rule_docs_hold_only_real_keys():
    assert set(RULE_DOCS) == set(Rules.keys())


def test_described_defaults_are_the_dataclass_defaults():
    rulebook = Rules()
    for r in Rules.describe():
        if r["key"] == "hand":
            continue
        # Read back as --set reads it, the printed default is the dataclass field's value...
        value = parse_value(r["default"])
        expected = getattr(rulebook, r["key"])
        assert value == (json.loads(json.dumps(expected))), r
        # ... and setting it changes nothing.
        assert Rules.from_overrides({r["key"]: value}) == Rules.from_overrides({})
    hand = next(r for r in Rules.describe() if r["key"] == "hand")
    assert rulebook.hand is None  # so the default must name the hand of each player count
    for players in (3, 4, 5):
        resolved = Rules.from_overrides({"players": players}).hand
        assert resolved == _default_hand(players)
        # the hand, then the player counts it is for (e.g. "[1, ...] for 4 or 5 players")
        said = re.escape(json.dumps(list(resolved))) + rf" for [0-9 or]*\b{players}\b"
        assert re.search(said, hand["default"]), hand["default"]


def test_described_ranges_and_choices_are_the_validated_ones():
    """The allowed values printed are the ones validation enforces: the neighbours of an
    integer range are refused with the same range; every listed word is accepted and another
    word refused with the same list."""
    checked = 0
    for r in Rules.describe():
        key, allowed = r["key"], r["allowed"]
        span = re.match(r"integer (-?\d+)\.\.(\d+)", allowed)
        if span:
            low, high = int(span[1]), int(span[2])
            for bad in (low - 1, high + 1):
                with pytest.raises(BalanceError, match=rf"{key}={bad}\b.*\b{low}\.\.{high}\b"):
                    Rules.from_overrides({key: bad, **({"hand": [1, 2, 3, 4, 5, 6]} if key == "players" else {})})
            checked += 1
        elif re.fullmatch(r"[a-z_]+(, [a-z_]+)+", allowed):
            for word in allowed.split(", "):
                Rules.from_overrides({key: parse_value(word)})
            with pytest.raises(BalanceError, match=rf"allowed: {re.escape(allowed)}$"):
                Rules.from_overrides({key: "bogus"})
            checked += 1
    assert checked >= 9  # players, battles, deck, tokens, bonus; ties, loss, lost-to, order


def test_rules_command_prints_every_key_with_default_and_meaning():
    r = invoke("rules", "avengers-cards")
    assert r.exit_code == 0, r.output
    keys = r.output.split("\nLevers: ", 1)[0]  # then its levers (the next test)
    blocks = keys.strip().split("\n\n")  # one block per key, in declaration order
    rows = Rules.describe()
    assert [b.splitlines()[0] for b in blocks] == [row["key"] for row in rows]
    for block, row in zip(blocks, rows):
        text = " ".join(block.split())  # undo the wrapping
        assert f"default: {row['default']}" in text and f"allowed: {row['allowed']}" in text
        assert row["meaning"] in text
    assert "by player count" in r.output


def test_rules_command_ends_with_the_games_levers():
    """A game that declares levers lists each, by what it acts on, as the --variant a report
    would propose; a game without any prints none (the toy dice-race ends with its keys)."""
    from balance.core.registry import get_game

    for game, target in (("defenders-of-the-realm", "difficulty:"), ("avengers-cards", "seats:")):
        r = invoke("rules", game)
        assert r.exit_code == 0, r.output
        tail = " ".join(r.output.split("\nLevers: ", 1)[1].split())
        assert tail.startswith("rule changes the game's designers try") and target in tail
        for lever in get_game(game).levers:
            assert f"{lever.variant} {lever.what}" in tail
    assert not get_game("dice-race").levers and "Levers:" not in invoke("rules", "dice-race").output


def test_rules_command_json_is_the_described_rows():
    r = invoke("rules", "avengers-cards", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == Rules.describe()


# --------------------------------------------------------------------------------------------
# balance plan


def plan_lines(*args):
    r = invoke("plan", *args)
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_plan_sizes_the_seat_edge_for_the_report_verdict():
    from balance.analysis import stats

    lines = plan_lines("--effect", 0.01, "--players", "3,4,5")
    assert lines[0] == "To detect 1 pp with power 90% at alpha 0.05:"
    assert "Holm-adjusted across 3 player counts: level 0.05/3" in lines[2]
    # one seat line per count, sized for the chi-square verdict with Holm family 3 ...
    seat = {p: stats.games_for_seat_edge(0.01, p, family=3) for p in (3, 4, 5)}
    assert lines[3:6] == [f"    {p} players (fair {1 / p:.2%}): {seat[p]:,} games" for p in (3, 4, 5)]
    assert lines[6] == f"    one run of --players 3,4,5 --games {seat[3]} covers them all"
    # ... more than the one-seat z-test asked for (it left the verdict at 0.59-0.84 power)
    assert all(seat[p] > stats.games_for_rate_edge(0.01, p) for p in (3, 4, 5))
    # the variant-difference lines are as before, one per count
    independent = {p: stats.games_for_difference(0.01, 1 / p) for p in (3, 4, 5)}
    assert lines[7] == "  a variant difference in a seat's win rate, independent runs:"
    assert lines[8:11] == [f"    {p} players (fair {1 / p:.2%}): {independent[p]:,} games per variant"
                           for p in (3, 4, 5)]
    assert "plan from it with --pilot DIR, which reads each row's paired sd" in lines[11] and len(lines) == 12


def test_plan_family_defaults_to_the_number_of_counts_and_can_be_given():
    from balance.analysis import stats

    alone = plan_lines("--players", 4)
    assert "(chi-square over the seats, level 0.05):" in alone[2] and "Holm" not in alone[2]
    assert alone[3] == f"    4 players (fair 25.00%): {stats.games_for_seat_edge(0.01, 4):,} games"
    # 4 players planned as one count of a 3,4,5 run: the same games as in the full plan
    part = plan_lines("--players", 4, "--family", 3)
    full = plan_lines("--players", "3,4,5")
    assert part[3] == full[4] and "level 0.05/3" in part[2]
    assert not any("covers them all" in line for line in part)


def test_plan_paired_lines_and_other_power_and_alpha():
    from balance.analysis import stats

    lines = plan_lines("--effect", 0.005, "--players", "3,5", "--power", 0.8, "--alpha", 0.01,
                       "--paired-sd", 0.3)
    assert lines[0] == "To detect 0.5 pp with power 80% at alpha 0.01:"
    assert "level 0.01/2" in lines[2]
    assert lines[3] == (f"    3 players (fair 33.33%): "
                        f"{stats.games_for_seat_edge(0.005, 3, 2, 0.8, 0.01):,} games")
    assert lines[-3] == "  the same with common random numbers (paired sd 0.3):"
    assert lines[-1] == (f"    5 players (fair 20.00%): "
                         f"{stats.games_for_difference(0.005, 0.2, 0.8, 0.01, 0.3):,} games per variant")


def test_plan_sizes_the_side_verdict_when_given_the_sides():
    """Smash Up's factions at 2, 3 and 4 players: 8 sides, 2 held by each seat, Holm over 8 x 3
    rows; the lines come after the seat lines and name the level actually used."""
    from balance.analysis import stats

    lines = plan_lines("--effect", 0.02, "--players", "2,3,4", "--sides", 8, "--per-seat", 2)
    start = lines.index("  a side edge (one of 8 sides, each seat holding 2: its seats' win rate 2 pp from "
                        "the average seat's),")
    assert lines[start - 1].startswith("    one run of --players 2,3,4")
    assert "Holm over 8 sides x 3 player counts: level 0.05/24" in lines[start + 1]
    for line, count in zip(lines[start + 2:start + 5], (2, 3, 4)):
        games, seat_games = stats.games_for_side_edge(0.02, count, 8, 2, 3)
        assert line == f"    {count} players (fair {1 / count:.2%}): {games:,} games (about {seat_games:,} " \
                       "seat-games per side)"
    assert "side edge" not in " ".join(plan_lines("--effect", 0.02))
    assert not any("note:" in line for line in lines)  # 4 players x 2 = 8 sides: every one dealt once at most
    crowded = plan_lines("--effect", 0.02, "--players", "4,5,6", "--sides", 8, "--per-seat", 2)
    assert ("    note: at 5 and 6 players the seats hold up to 12 sides a game, more than the 8 there are, so some "
            "side sits in two seats of one game; a game that deals each side to one seat only cannot be played "
            "so") in crowded


def test_plan_from_a_pilot_prints_each_tested_row_and_refuses_what_does_not_apply(tmp_path):
    """--pilot DIR: a header naming the pilot and the level, then one row per tested row but
    seat_shift, whose figures are plan_from_pilot's; options about a fresh run are refused,
    and a missing or foreign file is one line."""
    import json

    from balance.analysis.pilot import plan_from_pilot

    out = tmp_path / "pilot"
    r = invoke("compare", "avengers-cards", "--variant", "default", "--variant", "seat0:extra_tokens=[[1,0,0]]",
               "--players", 4, "-s", "random", "--games", 3000, "--seed", 1, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    lines = plan_lines("--pilot", out, "--effect", 0.02, "--power", 0.8)
    planned = plan_from_pilot(json.loads((out / "comparison.json").read_text(encoding="utf-8")), 0.02, 0.8)
    assert lines[0] == f"From the pilot {out} (avengers-cards, 4 players, 3,000 games per variant, " \
                       f"{planned['family']} tested rows):"
    assert lines[1].endswith("power 80%,") and lines[2] == f"at Holm's first level 0.05/{planned['family']}:"
    assert lines[3].split() == ["variant", "metric", "pilot", "difference", "(95%", "CI)", "for", "2", "pp",
                                "for", "its", "own"]
    body = lines[4:4 + len(planned["rows"])]
    for line, row in zip(body, planned["rows"]):
        words = line.split()
        assert words[:2] == ["seat0", row["metric"]]
        assert words[-2:] == [f"{row['for_effect']:,}" if row["for_effect"] else "-",
                              f"{row['for_own']:,}" if row["for_own"] else "-"], line
    assert len(body) == len(planned["rows"]) and not any(" seat_shift " in line for line in body)
    # one --games for the run: the row that needs most decides (they are played on the same games)
    # ... save the rows whose pilot interval holds 0, which may have no difference to find
    seen = [r for r in planned["rows"] if r["for_own"] is not None and (r["lo"] > 0 or r["hi"] < 0)]
    held = sum(r["for_own"] is not None for r in planned["rows"]) - len(seen)
    assert held > 0 and f"{held} of {held + len(seen)} rows' pilot intervals hold 0 (their difference may be none):" \
        in lines
    for column, what, rows in (("for_own", "each difference the pilot saw", seen),
                               ("for_effect", "a change of 2 pp in each rate", planned["rows"])):
        most = max((r for r in rows if r[column] is not None), key=lambda r: r[column])
        assert f"one --games to find {what} with power 80%: {most[column]:,} (seat0 {most['metric']} needs most)" \
            in lines
    for args, words in (([ "--players", 3], "--players cannot be given with it"),
                        (["--sides", 8], "--sides cannot be given with it"),
                        (["--effect", 1.5], "--effect 1.5 is out of range")):
        r = invoke("plan", "--pilot", out, *args)
        assert r.exit_code == 2 and words in r.output, r.output
    (tmp_path / "other.json").write_text('{"a": 1}')
    for path, words in ((tmp_path / "none", "no comparison.json there"),
                        (tmp_path / "other.json", "is not a `balance compare` comparison.json")):
        r = invoke("plan", "--pilot", path)
        assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1, r.output
    # an edited comparison.json of the right keys but the wrong shapes (these were tracebacks)
    report = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    for edit, words in (({"results": None}, "results that are not a list of rows"),
                        ({"confidence": 5}, "confidence 5, not a level between 0 and 1"),
                        ({"results": [{**report["results"][0], "games": "x"}]}, "a positive whole number of games"),
                        ({"results": [{**report["results"][0], "games": -5}]}, "a positive whole number of games"),
                        ({"results": [{**report["results"][0], "lo": float("inf")}]}, "finite lo, hi, difference"),
                        ({"results": [{k: v for k, v in report["results"][0].items() if k != "variant"}]},
                         "without its variant"),
                        ({"games": "x"}, "no game id, player count and games per variant")):
        (tmp_path / "edited.json").write_text(json.dumps({**report, **edit}))
        r = invoke("plan", "--pilot", tmp_path / "edited.json")
        assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_plan_help_explains_each_line():
    out = " ".join(invoke("plan", "--help").output.split())  # a phrase may wrap anywhere
    for words in ("a seat edge:", "Holm-adjusted", "alpha / family", "least favourable",
                  "independent runs:", "common random numbers:", "--family", "docs/POWER.md",
                  "a side edge (with --sides):", "alpha / (sides x family)", "from a pilot (with --pilot DIR",
                  "alpha / (the pilot's tested rows)"):
        assert words in out, words


PLAN_BAD = [
    (["--players", "3,3"], "--players '3,3' repeats 3"),
    (["--players", "11"], "players=11 is out of range; allowed: integer 2..10"),
    (["--players", "x"], "--players 'x'"),
    (["--players", ","], "names no player count"),
    (["--players", "3,,4"], "--players '3,,4' has an empty item between its commas"),
    (["--players", "3,"], "--players '3,' has an empty item between its commas"),
    (["--players", "3,4,5", "--family", "2"], "--family 2 is below the number of player counts given (3)"),
    (["--family", "0"], "--family 0"),
    (["--effect", "0.7", "--players", "3"],
     "--effect 0.7 is out of range for 3 players; allowed: 0 < effect < 0.666667"),
    (["--effect", "0"], "--effect 0.0"),
    (["--power", "1.5"], "power=1.5"),
    (["--power", "0.04", "--alpha", "0.05"], "power=0.04 is not above alpha"),
    (["--paired-sd", "0"], "paired_sd=0.0"),
    (["--sides", "1"], "--sides 1 is out of range; allowed: integer >= 2"),
    (["--sides", "8", "--per-seat", "8"], "--per-seat 8 is out of range; allowed: integer 1..7"),
    (["--per-seat", "2"], "--per-seat 2 says how many of the --sides a seat holds; give --sides too"),
    # past the ranges plan answers in (these were tracebacks: a division by zero, NaN, overflow)
    (["--effect", "1e-300"], "--effect 1e-300 is out of range for planning; allowed: >= 1e-05"),
    (["--alpha", "1e-17"], "--alpha 1e-17 is out of range for planning; allowed: >= 1e-10"),
    (["--alpha", "nan"], "--alpha nan is not a number"),
    (["--sides", "1000000000", "--alpha", "1e-9"],
     "--sides 1000000000 is out of range for planning; allowed: <= 10,000"),
    (["--paired-sd", "1e300"], "--paired-sd 1e+300 is out of range for planning"),
    (["--family", "1000000"], "--family 1000000 is out of range for planning; allowed: <= 100"),
    (["--pilot", ".", "--effect", "1e-300"], "--effect 1e-300 is out of range for planning"),
]


def test_plan_answers_at_the_far_corner_of_its_ranges():
    """The smallest alpha over the largest family and side count: alpha / (family x sides) =
    1e-16, whose normal quantile 1 - alpha / 2 cannot hold (it was NaN): finite games."""
    r = invoke("plan", "--effect", "0.001", "--alpha", "1e-10", "--sides", "10000", "--players", "10",
               "--family", "100")
    assert r.exit_code == 0, r.output
    import re

    games = [int(n.replace(",", "")) for n in re.findall(r": ([\d,]+) games", r.output)]
    assert len(games) == 3 and all(n > 1_000_000 for n in games), r.output  # seat, side, variant lines


@pytest.mark.parametrize("args, words", PLAN_BAD)
def test_plan_bad_input_is_one_line_exit_2(args, words):
    r = invoke("plan", *args)
    assert r.exit_code == 2, r.output
    assert words in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_a_slow_warm_up_says_it_is_compiling_and_is_not_counted_as_simulation(monkeypatch, tmp_path):
    """The kernels are compiled (or loaded from numba's cache) before the clock starts; when that
    takes long, the user is told why nothing moves. A slow warm-up is simulated here."""
    import time

    from balance.core import api
    from balance.games.avengers_cards.engine import Engine

    play = Engine.play

    def slow_first_game(self, seed, first, n):
        if n == 1:  # the warm-up plays one game per engine
            time.sleep(0.3)
        return play(self, seed, first, n)

    monkeypatch.setattr(Engine, "play", slow_first_game)
    monkeypatch.setattr(api, "COMPILE_NOTICE_SECONDS", 0.05)
    messages = []
    run = api.simulate("avengers-cards", players=4, games=300, seed=1, on_status=messages.append)
    assert messages == ["compiling the kernel (first run only; later runs load it from the cache)"]
    timing = run.manifest["timing"]
    assert timing["compile_seconds"] >= 0.3 and timing["seconds"] < timing["compile_seconds"]
    r = invoke("simulate", "avengers-cards", "--players", "4", "--games", 300, "--out", tmp_path / "r")
    assert r.exit_code == 0 and "compiling the kernel (first run only" in r.stderr


def test_simulate_card_strength_from_the_command_line(tmp_path):
    out = tmp_path / "cs"
    r = invoke("simulate", "avengers-cards", "--players", "4", "--games", 400, "-s", "random",
               "--card-strength", "--when", "before-last", "--out", out)
    assert r.exit_code == 0, r.output
    assert "card strength: every game replayed" in r.output
    table = pl.read_parquet(out / "card_strength.parquet")
    assert set(table["when"]) == {"before-last"} and sorted(table["card"].unique()) == [1, 2, 3, 4, 5, 6]
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["card_strength"] == {"when": "before-last",
                                                                                "cards": None}
    r = invoke("simulate", "avengers-cards", "--games", 100, "--when", "before-last", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "--when before-last applies to --card-strength" in r.stderr
    r = invoke("simulate", "avengers-cards", "--games", 100, "--card-strength", "--when", "never",
               "--out", tmp_path / "y")
    assert r.exit_code == 2 and "unknown card-strength mode 'never'; allowed: always, before-last" in r.stderr


def test_a_run_without_a_terminal_reports_progress_now_and_then(tmp_path, monkeypatch):
    """Under nohup or in a CI log a long run printed nothing until its end. Without a terminal
    it now prints a line after PLAIN_FIRST seconds and every PLAIN_EVERY after (a short run,
    as every other test here, prints nothing). The bar's compact counts are checked here; that
    it fits 80 columns was seen by hand (`script` with `stty cols 80`: 78 characters)."""
    from balance import cli

    monkeypatch.setattr(cli, "PLAIN_FIRST", 0.0)
    monkeypatch.setattr(cli, "PLAIN_EVERY", 3600.0)
    r = CliRunner().invoke(app, ["simulate", "avengers-cards", "--games", "3000", "--chunk-size", "1000",
                                 "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("simulating: ")]
    # the first chunk starts the clock: the line comes at the second, with a rate and the time left
    assert len(lines) == 1 and re.fullmatch(r"simulating: 67% \(2,000 of 3,000 games\), [\d,]+ games/s, "
                                            r"about \d:\d\d:\d\d left", lines[0]), r.output
    assert [cli._compact(n) for n in (999, 1234, 150_000, 999_600, 10_000_000, 2.5e9)] == [
        "999", "1.23k", "150k", "1M", "10M", "2.5G"]  # 999,600: not '1e+03k'


def test_a_resumed_runs_progress_rate_leaves_out_the_games_it_kept(monkeypatch, capsys):
    """A resumed run advances by the games it kept, at once, then plays on: 9,000 kept of
    10,000, then 500 played in 10 s is 50 games/s with 10 s left (counting the kept games
    made it 950 games/s and 0:00:01 left)."""
    import time

    from balance import cli

    monkeypatch.setattr(cli, "PLAIN_FIRST", 0.0)
    monkeypatch.setattr(cli, "PLAIN_EVERY", 0.0)
    clock = iter([0.0, 0.0, 10.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    advance = cli._plain_progress(10_000)
    advance(9_000)  # the kept games
    advance(500)
    assert capsys.readouterr().err == "simulating: 95% (9,500 of 10,000 games), 50 games/s, about 0:00:10 left\n"


def test_more_threads_than_cpus_are_played_with_a_warning(tmp_path, monkeypatch):
    """--threads above the CPUs this process may use changes no number and buys no speed: said
    once on stderr, and the run goes on; at or below them, nothing is said."""
    import balance.core.cpus as cpus

    monkeypatch.setattr(cpus, "usable_cpus", lambda: 2)
    for threads, out in ((3, "a"), (2, "b")):
        r = invoke("simulate", "avengers-cards", "--games", 200, "--threads", threads, "--out", tmp_path / out,
                   "-q")
        assert r.exit_code == 0, r.output
        warned = [x for x in r.stderr.splitlines() if x.startswith("warning: --threads")]
        assert warned == ([] if threads == 2 else [
            "warning: --threads 3 is more than the 2 CPUs this process may use; the extra threads take turns on "
            "them (the same numbers, no faster)"]), r.stderr


def test_a_default_out_under_a_dangling_runs_link_is_refused_at_once(tmp_path, monkeypatch):
    """runs/ a symlink to nowhere: the name reservation read its parent's 'file exists' as a
    name taken and tried -2, -3, ... for ever. Now the command starts and says what is wrong."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").symlink_to(tmp_path / "nowhere")
    r = invoke("simulate", "avengers-cards", "--games", 20, "-q")
    assert r.exit_code == 2 and r.output.startswith("error: ") and "runs" in r.output, r.output


def test_a_fresh_runs_progress_rate_counts_from_the_start(monkeypatch, capsys):
    """With several threads the first chunks end together: a rate counted from the first of
    them read 100,000 games/s where 2,500 were played. The rate counts from the start; only an
    advance within KEPT_WITHIN of it (a resumed run's kept games) is left out."""
    import time

    from balance import cli

    monkeypatch.setattr(cli, "PLAIN_FIRST", 0.0)
    monkeypatch.setattr(cli, "PLAIN_EVERY", 0.0)
    clock = iter([0.0, 40.0, 40.5, 80.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    advance = cli._plain_progress(400_000)
    advance(50_000)  # two threads' first chunks, 40 s each
    advance(50_000)
    advance(100_000)
    assert capsys.readouterr().err.splitlines() == [
        "simulating: 12% (50,000 of 400,000 games), 1,250 games/s, about 0:04:40 left",
        "simulating: 25% (100,000 of 400,000 games), 2,469 games/s, about 0:02:02 left",
        "simulating: 50% (200,000 of 400,000 games), 2,500 games/s, about 0:01:20 left"]


def test_a_first_runs_progress_rate_leaves_out_the_compiling(monkeypatch, capsys):
    """A first run compiles its kernels for minutes before it plays: 2,500 games played in 2 s
    after 180 s of compiling read as 14 games/s, about 0:21 left. The simulation calls
    advance.start() when play starts (its on_start), and the rate counts from there; a resumed
    run's kept games, told before it, stay out too."""
    import time

    from balance import cli

    monkeypatch.setattr(cli, "PLAIN_FIRST", 0.0)
    monkeypatch.setattr(cli, "PLAIN_EVERY", 0.0)
    clock = iter([0.0, 180.0, 182.0, 0.0, 0.0, 180.0, 182.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    advance = cli._plain_progress(20_000)
    advance.start()  # compiled: play starts
    advance(2_500)
    advance = cli._plain_progress(20_000)
    advance(10_000)  # a resumed run's kept games
    advance.start()
    advance(2_500)
    assert capsys.readouterr().err.splitlines() == [
        "simulating: 12% (2,500 of 20,000 games), 1,250 games/s, about 0:00:14 left",
        "simulating: 62% (12,500 of 20,000 games), 1,250 games/s, about 0:00:06 left"]


def test_the_simulation_says_when_play_starts():
    """simulate() calls on_start once, after compiling and before the first chunk is told (the
    command line hands it its progress line's start)."""
    import balance

    told = []
    balance.simulate("avengers-cards", players=4, games=300, seed=1, chunk_size=100, threads=1,
                     on_progress=told.append, on_start=lambda: told.append("start"))
    assert told == ["start", 100, 100, 100]
    with pytest.raises(BalanceError, match="on_start=1 is not a function"):
        balance.simulate("avengers-cards", games=20, on_start=1)


def test_a_run_of_more_chunks_than_it_can_track_is_refused_or_chunked_coarser(tmp_path):
    """Every chunk is planned and tracked for --resume before the first game: --games 10^12 in
    the default chunks of 50,000 spent 30 s and 3.4 GB on that before playing. At most
    MAX_CHUNKS a player count: a --chunk-size that cuts finer is refused, naming the smallest
    allowed, and the default chunk grows to keep to it (games are the same in any chunking)."""
    from balance.core.api import MAX_CHUNKS, default_chunk_size

    r = invoke("simulate", "avengers-cards", "--games", str(2 * MAX_CHUNKS), "--chunk-size", "1",
               "--out", str(tmp_path / "r"))
    assert r.exit_code == 2 and r.output == (
        "error: --chunk-size 1 cuts 2,000,000 games into 2,000,000 chunks; allowed: at most 1,000,000 a player "
        "count (each is tracked for --resume), so --chunk-size (chunk_size=) 2 or more, or none\n"), r.output
    assert not (tmp_path / "r").exists() and not (tmp_path / ".r.partial").exists()
    assert default_chunk_size(10**6, 2) == 50_000 and default_chunk_size(1000, 2) == 125  # 4 a thread
    assert default_chunk_size(10**12, 2) == 10**6 and -(-10**12 // default_chunk_size(10**12, 2)) == MAX_CHUNKS


@pytest.mark.parametrize("args, hint", [
    (["defenders-of-the-realm", "--side", "Rouge"], "(did you mean 'Rogue'?)"),
    (["avengers-cards", "--set", "extra_token=1"], "(did you mean 'extra_tokens'?)"),
    (["avengers-cards", "-s", "greddy"], "(did you mean 'greedy'?)"),
    (["smash-up", "--players", "2", "--side", "Alien+Robots", "--side", "Ninjas+Wizards"],
     "(did you mean 'Aliens+Robots'?)"),
])
def test_a_near_miss_is_named(args, hint, tmp_path):
    """A one-letter slip in a hero, a rules key, a strategy or one of 28 faction pairs: the
    error names the nearest allowed value (difflib, ratio 0.8 or more) after the list; a value
    near none gets no guess (designer audit)."""
    r = invoke("simulate", *args, "--games", "10", "--out", str(tmp_path / "r"))
    assert r.exit_code == 2 and r.output.rstrip("\n").endswith(hint), r.output
    r = invoke("simulate", "avengers-cards", "-s", "clever", "--games", "10", "--out", str(tmp_path / "r"))
    assert r.exit_code == 2 and "did you mean" not in r.output, r.output


def test_an_analysis_s_progress_rate_counts_from_each_run_s_play(tmp_path):
    """A ladder's first progress line read 62 games/s and 1:20:12 left for a run that took 58 s:
    its rate counted from the analysis's start, the first rung's compiling included. Each run an
    analysis plays now starts the rate (the progress line's start()) when its play starts, and a
    run read back from a cut analysis, told at once, is left out the same way."""
    from balance.analysis.study import KINDS

    calls = []

    def advance(n):
        calls.append(n)

    advance.start = lambda: calls.append("start")
    study = KINDS["ladder"](tmp_path / "l", "avengers-cards", {"x": 1})
    study.start(False)
    study.simulate("avengers-cards", on_progress=advance, players=4, games=200, seed=0)
    assert calls[0] == "start" and sum(c for c in calls if c != "start") == 200, calls
    calls.clear()
    study.asked = 0  # as a resumed analysis asks for its runs again: the finished one is read back
    study.simulate("avengers-cards", on_progress=advance, players=4, games=200, seed=0)
    assert calls == [200, "start"], calls
    study.release()
