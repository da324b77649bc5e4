"""The game contract (``balance.core.game.GameInfo``), checked for every registered game, and how
games are found: built in, or from another package through the ``balance.games`` entry point.
"""
import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import balance
from balance.analysis import contract
from balance.core import registry
from balance.cli import app
from balance.core.errors import BalanceError
from balance.core.game import PARTS, WIN_UNIT, GameInfo, Kind, Lever


@pytest.fixture(autouse=True)
def fresh_registry():
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_registered_game_declares_itself_soundly(game_id):
    info = registry.get_game(game_id)
    assert info.id == game_id and info.title and isinstance(info.kind, Kind)
    low, high = info.players
    assert (1 if info.kind == Kind.COOPERATIVE else 2) <= low <= high
    assert info.default_strategy in info.strategies
    for name in PARTS:
        assert info.part(name) is not None
    assert "refused outside" in contract.check_declaration(info)  # and the rules agree with the range


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_declared_lever_is_a_variant_compare_accepts_that_changes_the_rules(game_id):
    """A lever is proposed by the report as a ready --variant: it must parse, give valid rules
    at every player count the game allows, and change them at one count at least (a lever equal
    to the rulebook everywhere would compare the rulebook with itself; one reaching only the
    larger tables is left out of a report's command where it changes nothing); it acts on what
    the game has (a difficulty for a cooperative game's team, seats for a competitive one)."""
    info = registry.get_game(game_id)
    assert contract.check_levers(info).endswith(("and a change at one", "no levers declared"))


def test_a_lever_that_changes_nothing_or_is_refused_is_named():
    info = registry.get_game("smash-up")
    rules = info.part("rules").Rules()
    for lever, words in ((Lever("same", f"vp_to_win={rules.vp_to_win}", "seats", "x"), "unchanged at every"),
                         (Lever("nonsense", "vp_to_win=0", "seats", "x"), "refused at 2 players")):
        with pytest.raises(contract.ContractFailure, match=f"lever {lever.variant} .*{words}"):
            contract.check_levers(replace(info, levers=(lever,)))


def test_a_count_the_default_rules_refuse_must_be_declared_and_a_declared_one_refused(monkeypatch):
    """explicit_counts names the player counts whose default rules need a rule chosen
    (avengers-cards at 2); the contract checks skip exactly those, and hold the declaration to
    what the rules do."""
    dice = registry.get_game("dice-race")
    with pytest.raises(contract.ContractFailure, match="explicit_counts declares 3 players, yet the default rules"):
        contract.check_declaration(replace(dice, explicit_counts=(3,)))
    rules_cls = dice.part("rules").Rules
    original = rules_cls.validated

    def refuse_three(self):
        if self.players == 3:
            raise BalanceError("players=3 needs a board size")
        return original(self)
    monkeypatch.setattr(rules_cls, "validated", refuse_three)
    with pytest.raises(contract.ContractFailure, match=r"the default rules refuse 3 players \(players=3 needs a "
                                                       r"board size\); .* explicit_counts"):
        contract.check_declaration(dice)
    assert "play at 2, 4" in contract.check_declaration(replace(dice, explicit_counts=(3,)))


def test_win_unit_is_declared_once():
    """Kernels, engines and every analysis count a win in the same 1/WIN_UNIT units: no module
    but balance/core/game.py may set its own (a second `WIN_UNIT = 60` would drift unnoticed)."""
    import re
    from pathlib import Path

    root = Path(balance.__file__).parent
    setters = [str(f.relative_to(root)) for f in root.rglob("*.py")
               if re.search(r"^\s*WIN_UNIT\s*=", f.read_text(encoding="utf-8"), flags=re.M)]
    assert setters == ["core/game.py"]
    assert WIN_UNIT == 60  # exact for ties of up to 6 (60/k is whole for k <= 6)


def test_a_malformed_game_is_refused_with_everything_that_is_missing(monkeypatch):
    bad = GameInfo(id="Bad Game", title="", module="balance.games.no_such_game", players=(1, 4),
                   default_strategy="nope")
    with pytest.raises(BalanceError) as e:
        bad.check()
    message = str(e.value)
    for words in ("'Bad Game' is not lower-case words", "title is empty", "players (1, 4)",
                  "part balance.games.no_such_game.rules cannot be imported",
                  "part balance.games.no_such_game.engine cannot be imported"):
        assert words in message
    # parts that import but lack what the contract needs are named too
    half = replace(registry.get_game("avengers-cards"), id="half", module="balance",
                   default_strategy="random")
    with pytest.raises(BalanceError, match="cannot be imported"):
        half.check()
    wrong_default = replace(registry.get_game("avengers-cards"), default_strategy="perfect",
                            restrictable_rule="deck", restrict_items="")
    with pytest.raises(BalanceError, match="default_strategy 'perfect' is not one of its strategies"
                       ".*restrictable_rule 'deck' is not a rules key"
                       ".*restrict_items does not say how --card names one"):
        wrong_default.check()
    # an engine class that does not name its declaration (BaseEngine's GAME is None)
    dice = registry.get_game("dice-race")
    monkeypatch.setattr(dice.part("engine").Engine, "GAME", None)
    with pytest.raises(BalanceError, match=r"toys\.dice_race\.engine\.Engine\.GAME is not a GameInfo"):
        dice.check()
    bad_levers = replace(registry.get_game("avengers-cards"), levers=(
        Lever("two words", "a=1", "seats", "x"), Lever("same", "a=1", "luck", "x"), Lever("same", "a", "seats", ""),
        "bonus=2"))
    with pytest.raises(BalanceError, match="lever name 'two words' is not a distinct word"
                       ".*lever 'same' acts on 'luck'; allowed: seats, difficulty"
                       ".*lever name 'same' is not a distinct word"
                       ".*lever 'same' needs a key=value setting and a description"
                       ".*lever 'bonus=2' is not a balance.core.game.Lever"):
        bad_levers.check()
    with pytest.raises(BalanceError, match=r"capped_by \('max_turns', 4\) must be \(rules key, value\) pairs"):
        replace(registry.get_game("dice-race"), capped_by=("max_turns", 4)).check()


def test_a_part_that_fails_on_import_or_an_undescribed_rules_key_is_named_not_raised(tmp_path, monkeypatch):
    """A plug-in's part with a syntax error, or one that raises while it loads, is a problem of
    the declaration (so `balance games` lists the game as unusable and goes on), and so is a
    rules key that Rules.DOCS does not describe (`balance rules GAME` prints every key)."""
    package = tmp_path / "oops_game"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "rules.py").write_text("def broken(:\n", encoding="utf-8")
    (package / "engine.py").write_text("raise RuntimeError('needs a GPU')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    dice = registry.get_game("dice-race")
    oops = replace(dice, id="oops", module="oops_game")
    with pytest.raises(BalanceError) as refused:
        oops.check()
    assert "part oops_game.rules fails on import (SyntaxError: " in str(refused.value)
    assert "part oops_game.engine fails on import (RuntimeError: needs a GPU)" in str(refused.value)
    points = {"oops": FakeEntryPoint("oops", oops)}
    monkeypatch.setattr(registry, "_plugins", lambda: points)
    registry.get_game.cache_clear()
    listed = CliRunner().invoke(app, ["games"])
    assert listed.exit_code == 0 and "(unusable: game 'oops'" in listed.output
    checked = CliRunner().invoke(app, ["check", "oops"])  # a failed check (1), not bad input (2)
    assert checked.exit_code == 1
    assert "  FAIL  declaration  game 'oops' (oops_game) is malformed: part" in checked.output
    (package / "report.py").write_text("raise RuntimeError('needs a GPU')\n", encoding="utf-8")
    with pytest.raises(BalanceError, match=r"game 'oops': part oops_game.report fails on import \(RuntimeError"):
        oops.optional_part("report")  # the report's sections, loaded when a report is written

    rules_cls = dice.part("rules").Rules
    monkeypatch.setattr(rules_cls, "DOCS", {k: v for k, v in rules_cls.DOCS.items() if k != "bust_face"})
    with pytest.raises(BalanceError, match=r"Rules\.DOCS describes no bust_face \(key -> \(allowed values"):
        dice.check()


class FakeEntryPoint:
    """What importlib.metadata gives for an installed plug-in: a name and a loadable object."""

    def __init__(self, name, target, value="studio_games.copy"):
        self.name, self.target, self.value = name, target, value

    def load(self):
        if isinstance(self.target, Exception):
            raise self.target
        return self.target


@pytest.fixture
def plugin(monkeypatch):
    """A studio's game, installed in another distribution: here the avengers package declared
    again under another id, as its own package would declare it."""
    info = replace(registry.get_game("avengers-cards"), id="studio-avengers", title="Studio copy")
    points = {"studio-avengers": FakeEntryPoint("studio-avengers", info),
              "broken": FakeEntryPoint("broken", ImportError("No module named 'studio_games'")),
              "liar": FakeEntryPoint("liar", replace(info, id="someone-else"))}
    monkeypatch.setattr(registry, "_plugins", lambda: points)
    registry.get_game.cache_clear()
    return info


def test_a_game_from_another_package_works_with_every_command(plugin, tmp_path):
    assert registry.game_ids()[-3:] == ["studio-avengers", "broken", "liar"]
    listed = CliRunner().invoke(app, ["games"])
    assert listed.exit_code == 0
    lines = {line.split(" ", 1)[0]: line.split(" ", 1)[1].lstrip() for line in listed.output.splitlines()
             if line and not line.startswith(" ")}
    assert lines["studio-avengers"].startswith("Studio copy (competitive, 2-5 players")
    assert lines["broken"].startswith("(unusable: game 'broken': its entry point")
    assert "declares id 'someone-else'" in listed.output
    run = balance.simulate("studio-avengers", players=4, games=400, seed=1, out=tmp_path / "run")
    assert run.manifest["game"] == "studio-avengers"
    report = CliRunner().invoke(app, ["report", str(tmp_path / "run")])
    assert report.exit_code == 0, report.output
    cmp = CliRunner().invoke(app, ["compare", "studio-avengers", "--variant", "default",
                                   "--variant", "set_bonus=2", "--games", "300", "-q",
                                   "--out", str(tmp_path / "cmp")])
    assert cmp.exit_code == 0, cmp.output
    bad = CliRunner().invoke(app, ["simulate", "broken", "--games", "10"])
    assert bad.exit_code == 2 and "cannot be loaded (ImportError" in bad.stderr


def test_an_unknown_game_lists_the_known_ones_including_plug_ins(plugin):
    built_in = ", ".join(registry.BUILT_IN)  # built-in games first, then the plug-ins
    with pytest.raises(BalanceError, match=f"unknown game 'chess'; allowed: {built_in}, studio-avengers"):
        registry.get_game("chess")


def test_restricted_play_modes_are_declared_and_the_engine_knows_each():
    """A game with restricted play names its modes in words (reports and --help use them), and
    its engine accepts exactly those; a game without it declares none."""
    for game_id in registry.game_ids():
        info = registry.get_game(game_id)
        if info.restrictable is None:
            assert not info.restrict_modes
            continue
        engine = info.part("engine")
        rules = info.part("rules").Rules.from_overrides({"players": info.players[1]})
        for mode, meaning in info.restrict_modes:
            assert meaning and engine.card_strength_plan(rules, mode, 100).when == mode
        with pytest.raises(BalanceError, match="allowed: " + ", ".join(m for m, _ in info.restrict_modes)):
            engine.card_strength_plan(rules, "sometimes", 100)


# ---- every command on every game (the toys of tests/toys included) -------------------------------


def _cli(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result, result.output  # stdout and stderr together


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_rules_round_trip_and_bad_input_is_one_line(game_id):
    info = registry.get_game(game_id)
    assert "round-trip" in contract.check_rules(info)  # what manifests store; bad keys in one line
    with pytest.raises(BalanceError,
                       match=r"unknown rules key 'no_such_rule'; allowed: .*"
                             r"\(the player count: --players, players=\)$"):
        info.part("rules").Rules.from_overrides({"no_such_rule": 1})


def _a_rule_change(info, rules: dict) -> str:
    """KEY=VALUE: the first integer rule that one step up or down leaves valid rules."""
    rules_cls = info.part("rules").Rules
    for key, value in rules.items():
        if key == "players" or isinstance(value, bool) or not isinstance(value, int):
            continue
        for other in (value + 1, value - 1):
            try:
                rules_cls.from_overrides({**rules, key: other})
            except BalanceError:
                continue
            return f"{key}={other}"
    raise AssertionError(f"{info.id}: no integer rule can change")


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_simulate_report_compare_tune_ladder_and_matchups_or_restrict_run_end_to_end(game_id, tmp_path):
    """The chain a user runs, with tiny sizes, on every game: each command exits 0 and writes
    its files, or refuses in one line where the game's kind rules it out."""
    info = registry.get_game(game_id)
    players = max(info.players[0], min(3, info.players[1]))
    strategy = info.default_strategy
    run = tmp_path / "run"
    r, text = _cli("simulate", game_id, "--players", players, "--games", 300, "-s", strategy,
                   "--out", run, "-q")
    assert r.exit_code == 0, text
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["tables"]) >= {"seats", "outcomes", "lengths"}
    assert all((run / f"{name}.parquet").is_file() for name in manifest["tables"])
    r, text = _cli("report", run)
    assert r.exit_code == 0 and (run / "report.html").is_file(), text
    variant = _a_rule_change(info, manifest["runs"][0]["rules"])
    r, text = _cli("compare", game_id, "--players", players, "-s", strategy, "--variant", "default",
                   "--variant", variant, "--games", 200, "--out", tmp_path / "cmp", "-q")
    assert r.exit_code == 0 and (tmp_path / "cmp" / "comparison.json").is_file(), text
    tunable = next((s for s in info.strategies.values() if s.params), None)
    if tunable is not None:
        r, text = _cli("tune", game_id, "--strategy", tunable.name, "--players", players,
                       "--budget", 2000, "--population", 4, "--games-per-candidate", 100 * players,
                       "--validate-games", 100 * players, "--out", tmp_path / "tune", "-q")
        assert r.exit_code == 0 and (tmp_path / "tune" / "tuned.toml").is_file(), text
    ladder = ",".join(list(info.strategies)[:2])
    r, text = _cli("ladder", game_id, "--ladder", ladder, "--players", players, "--games", 200,
                   "--out", tmp_path / "ladder", "-q")
    assert r.exit_code == 0 and (tmp_path / "ladder" / "rungs.parquet").is_file(), text
    r, text = _cli("matchups", game_id, "--pool", ladder, "--players", players, "--games", 200,
                   "--out", tmp_path / "m")
    if info.cooperative:
        assert r.exit_code == 2 and "cooperative" in text and len(text.strip().splitlines()) == 1
    else:
        assert r.exit_code == 0, text
    r, text = _cli("restrict", game_id, "--players", players, "--games", 100, "-s", strategy,
                   "--out", tmp_path / "restrict", "-q")
    if info.restrictable is None:
        assert r.exit_code == 2 and "restrict" in text and len(text.strip().splitlines()) == 1
    else:
        assert r.exit_code == 0 and (tmp_path / "restrict" / "restrict.parquet").is_file(), text


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_a_cut_run_and_comparison_of_every_game_resume_to_the_uncut_numbers(game_id, tmp_path):
    """A checkpoint keeps the request as JSON, which reads a rules tuple back as a list: each
    game's run and comparison, cut after their first chunk, must still resume (Defenders'
    runs once could not), and end with the numbers of an uncut one."""
    from balance.analysis.compare import compare
    from balance.analysis.study import KINDS

    info = registry.get_game(game_id)
    players = max(info.players[0], min(3, info.players[1]))
    run = dict(players=players, games=400, seed=3, strategies=[info.default_strategy], chunk_size=100,
               threads=1)

    def cut(_games):
        raise KeyboardInterrupt

    whole = balance.simulate(game_id, **run)
    with pytest.raises(KeyboardInterrupt):
        balance.simulate(game_id, out=tmp_path / "run", on_progress=cut, **run)
    resumed = balance.simulate(game_id, out=tmp_path / "run", resume=True, **run)
    assert resumed.tables.keys() == whole.tables.keys()
    assert all(resumed.tables[name].equals(table) for name, table in whole.tables.items())

    variants = ["default", _a_rule_change(info, whole.manifest["runs"][0]["rules"])]
    arms = dict(players=players, games=400, seed=3, strategies=[info.default_strategy], chunk_size=100,
                threads=1)
    uncut = compare(game_id, variants, **arms).report
    keep = KINDS["compare"](tmp_path / "cmp", game_id, {"variant": variants})
    keep.start(force=False)
    with pytest.raises(KeyboardInterrupt):
        compare(game_id, variants, on_progress=cut, keep=keep, **arms)
    keep = KINDS["compare"](tmp_path / "cmp", game_id, {"variant": variants})
    keep.reopen()
    assert compare(game_id, variants, keep=keep, **arms).report == uncut


def test_the_core_imports_no_analysis_module_and_no_game():
    """The layers in the tree hold: balance/core knows no report and no game (the registry
    names built-in packages only as strings, imported when a game is used)."""
    import ast
    from pathlib import Path

    core = Path(balance.__file__).parent / "core"
    offenders = []
    for path in core.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}: {n}" for n in names
                          if n.startswith(("balance.analysis", "balance.games"))]
    assert not offenders


def test_simulating_loads_no_plotting_and_a_report_part_is_checked_when_used():
    """The declaration check imports no optional part (avengers' report sections import the
    plotting stack): a simulation in a fresh process never loads matplotlib, and a report part
    lacking what the contract needs is refused with its missing names when first used."""
    import subprocess
    import sys
    import types

    code = ("import sys, balance; balance.simulate('avengers-cards', games=50, seed=1); "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    info = registry.get_game("avengers-cards")
    assert info.optional_part("report") is not None
    import importlib.machinery

    name = "balance.games.avengers_cards.broken_report"
    broken = types.ModuleType(name)
    broken.__spec__ = importlib.machinery.ModuleSpec(name, None)
    broken.analyse = lambda *a: None
    sys.modules[name] = broken
    try:
        from balance.core import game as game_module

        original = dict(game_module.OPTIONAL_PARTS)
        game_module.OPTIONAL_PARTS["broken_report"] = ("analyse", "figures", "verdict")
        with pytest.raises(BalanceError, match="broken_report lacks figures, verdict"):
            info.optional_part("broken_report")
    finally:
        game_module.OPTIONAL_PARTS.clear()
        game_module.OPTIONAL_PARTS.update(original)
        del sys.modules[name]
