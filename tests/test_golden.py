"""avengers-cards numbers are unchanged by refactoring: every column recorded in
tests/data/avengers_golden.json is bit-identical (see tests/golden.py)."""
import json

import pytest

from golden import CONFIGS, GOLDEN, fingerprint


@pytest.mark.parametrize("name", list(CONFIGS))
def test_avengers_tables_are_bit_identical_to_the_recorded_run(name):
    recorded = json.loads(GOLDEN.read_text())[name]
    now = fingerprint(name)
    for table, columns in recorded.items():
        assert table in now, f"{name}: table {table} is no longer written"
        changed = [c for c, h in columns.items() if now[table].get(c) != h]
        assert not changed, f"{name}: {table} columns changed: {changed}"
