"""An interrupted tuning resumes where it stopped (Ctrl-C, a kill, a crash).

As a simulation keeps its finished chunks (``balance.core.checkpoint``), a tuning keeps its
finished generations in ``.NAME.partial/`` next to --out: ``request.json`` (the arguments, and
the values and plan they resolved to) and ``generations.json`` (each finished generation's
candidates, scores and updated sampling distribution, and the optimiser's random state after
it), replaced in one step after every generation. Generation g plays games g*G .. (g+1)*G - 1
of the tuning seed, so a resumed tuning ends with the same parameters as an uninterrupted one.
The validation (fresh games, after the search) is not kept: a resumed tuning plays it whole.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from balance.core.checkpoint import Checkpointer, read_request, write_atomic
from balance.core.errors import BalanceError
from balance.core.interrupts import deferred

STATE = "generations.json"
# What must match to resume: the arguments as resolved (a start spec's values, not its file
# name; the budget's split into population, games per candidate and generations).
TUNE_KEYS = ("command", "game", "rules_version", "players", "rules", "start", "against", "seed",
             "population", "games_per_candidate", "generations", "validate_games")


class TuneCheckpointer(Checkpointer):
    """``.NAME.partial`` of a tuning: the generations the search finished."""

    keys = TUNE_KEYS
    noun, command = "tuning", "tune"
    state_files = (STATE,)
    finished = "tune.json"

    def save_generations(self, generations: list, rng_state: dict) -> None:
        """Replace generations.json: every finished generation (``tune.Generation``) and the
        optimiser's ``bit_generator.state`` after the last one."""
        data = {"rng": rng_state, "generations": [
            {"generation": g.generation, "x": g.x.tolist(), "objectives": g.objectives.tolist(),
             "mean": g.mean.tolist(), "sd": g.sd.tolist()} for g in generations]}
        try:
            with deferred():  # a generation is saved whole or not at all
                write_atomic(self.dir / STATE, json.dumps(data).encode())
        except OSError as e:
            raise BalanceError(f"cannot write the checkpoint {str(self.dir / STATE)!r}: "
                               f"{e.strerror or e}") from None

    def load_generations(self) -> tuple[list, dict | None]:
        """The finished generations and the optimiser's state after them ([], None before the
        first generation finished). JSON floats read back exactly as written."""
        from balance.analysis.tune import Generation

        path = self.dir / STATE
        if not path.is_file():
            return [], None
        try:
            data = json.loads(path.read_text("utf-8"))
            generations = [Generation(int(g["generation"]), np.array(g["x"], np.float64),
                                      np.array(g["objectives"], np.float64), np.array(g["mean"], np.float64),
                                      np.array(g["sd"], np.float64)) for g in data["generations"]]
            return generations, data["rng"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise BalanceError(f"the checkpoint {str(path)!r} is corrupted ({e}); nothing was changed: "
                               "start again with --force") from None


def saved_arguments(out: str | Path) -> dict:
    """tune() arguments of the interrupted tuning in ``out`` (for a bare ``--resume DIR``)."""
    request = read_request(Path(out), TuneCheckpointer)
    try:
        return dict(request["arguments"])
    except (KeyError, TypeError, ValueError) as e:
        raise BalanceError(f"the interrupted tuning in {str(out)!r} is unreadable ({e}); start again "
                           "with --force") from None
