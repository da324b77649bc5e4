"""avengers-cards numbers are unchanged by refactoring: every column recorded in
tests/data/avengers_golden.json is bit-identical; and every built-in game's games change only
with its RULES_VERSION (see tests/golden.py)."""
import json

import pytest

from balance.core.registry import BUILT_IN, get_game
from golden import (CONFIGS, FINGERPRINT_KINDS, GOLDEN, fingerprint, fingerprint_kinds, recorded_fingerprints,
                    rules_fingerprint)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_avengers_tables_are_bit_identical_to_the_recorded_run(name):
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))[name]
    now = fingerprint(name)
    for table, columns in recorded.items():
        assert table in now, f"{name}: table {table} is no longer written"
        changed = [c for c, h in columns.items() if now[table].get(c) != h]
        assert not changed, f"{name}: {table} columns changed: {changed}"


@pytest.mark.parametrize("kind", FINGERPRINT_KINDS)
@pytest.mark.parametrize("game_id", list(BUILT_IN))
def test_a_game_whose_games_change_bumps_its_rules_version(game_id, kind):
    """A run records RULES_VERSION and --resume refuses a run begun under another, so games
    that change under one version would mix two engines in a resumed run. Each version's
    fingerprints are recorded once (`python -m tests.golden rules`) and never rewritten."""
    if kind not in fingerprint_kinds(game_id):
        pytest.skip(f"{game_id} has no {kind} to play")
    version = get_game(game_id).rules_version
    recorded = recorded_fingerprints().get(version, {})
    assert kind in recorded, (f"{version} has no recorded {kind!r} fingerprint: record it with "
                              "`python -m tests.golden rules`")
    assert rules_fingerprint(game_id, kind) == recorded[kind], (
        f"{game_id}'s games changed under {version} ({kind}): bump RULES_VERSION in its rules.py, then "
        "`python -m tests.golden rules` (if the change was meant)")
