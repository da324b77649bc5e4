import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def scripted_games():
    """36 scripted games with the expected state after every villain (vendored from shared/)."""
    return json.loads((DATA / "avengers-cards" / "scripted_games.json").read_text())["games"]
