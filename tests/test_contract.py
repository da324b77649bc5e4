"""The game contract (``balance.game.GameInfo``), checked for every registered game, and how
games are found: built in, or from another package through the ``balance.games`` entry point.
"""
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import balance
from balance import registry
from balance.cli import app
from balance.errors import BalanceError
from balance.game import PARTS, WIN_UNIT, GameInfo, Kind


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
    rules_cls = info.part("rules").Rules
    for players in range(low, high + 1):  # inside the declared range, no range error
        try:
            rules_cls.from_overrides({"players": players})
        except BalanceError as e:  # only a count that needs an explicit choice (a hand) may fail
            assert "out of range" not in str(e) and "needs an explicit" in str(e), str(e)
    for outside in (low - 1, high + 1):  # outside it, the rules refuse the count
        with pytest.raises(BalanceError, match="players"):
            rules_cls.from_overrides({"players": outside})


def test_win_unit_is_declared_once():
    """Kernels, engines and every analysis count a win in the same 1/WIN_UNIT units: no module
    but balance/game.py may set its own (a second `WIN_UNIT = 60` would drift unnoticed)."""
    import re
    from pathlib import Path

    root = Path(balance.__file__).parent
    setters = [str(f.relative_to(root)) for f in root.rglob("*.py")
               if re.search(r"^\s*WIN_UNIT\s*=", f.read_text(encoding="utf-8"), flags=re.M)]
    assert setters == ["game.py"]
    assert WIN_UNIT == 60  # exact for ties of up to 6 (60/k is whole for k <= 6)


def test_a_malformed_game_is_refused_with_everything_that_is_missing():
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
                            restrictable_rule="deck")
    with pytest.raises(BalanceError, match="default_strategy 'perfect' is not one of its strategies"
                       ".*restrictable_rule 'deck' is not a rules key"):
        wrong_default.check()


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
    assert "studio-avengers    Studio copy (competitive, 2-5 players" in listed.output
    assert "broken             (unusable: game 'broken': its entry point" in listed.output
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
    with pytest.raises(BalanceError, match="unknown game 'chess'; allowed: avengers-cards, studio-avengers"):
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
