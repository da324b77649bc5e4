"""An interrupted tuning resumes where it stopped (Ctrl-C, a kill, a crash).

As a simulation keeps its finished chunks (``balance.core.checkpoint``), a tuning keeps its
finished generations in ``.NAME.partial/`` next to --out: ``request.json`` (the arguments, and
the values and plan they resolved to) and ``generations.json`` (each finished generation's
candidates, scores and updated sampling distribution, and the optimiser's random state after
it), replaced in one step after every generation. Generation g plays games g*G .. (g+1)*G - 1
of the tuning seed, so a resumed tuning ends with the same parameters as an uninterrupted one.
The validation (fresh games, after the search) is kept one field at a time in
``validation.json`` (each field's paired sums, JSON numbers read back exactly).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from balance.core.checkpoint import KEY_WORDS, Checkpointer, read_request
from balance.core.errors import BalanceError
from balance.core.paired import PairedSums

STATE, VALIDATION = "generations.json", "validation.json"
# What must match to resume: the arguments as resolved (a start spec's values, not its file
# name; the budget's split into population, games per candidate and generations).
TUNE_KEYS = ("command", "game", "rules_version", "players", "rules", "start", "against", "seed",
             "population", "games_per_candidate", "generations", "validate_games")


class TuneCheckpointer(Checkpointer):
    """``.NAME.partial`` of a tuning: the generations the search finished."""

    keys = TUNE_KEYS
    key_words = {"rules_version": KEY_WORDS["rules_version"], "rules": "rules (--set)",
                 "start": "start (the strategy to tune: --strategy)", "against": "against (--against)",
                 "generations": "generations (set by --budget, --population and --games-per-candidate)",
                 # derived from --budget when not given: a changed budget showed here, naming no option
                 "games_per_candidate": "games_per_candidate (--games-per-candidate, or set by --budget and "
                                        "--population)"}
    noun, command = "tuning", "tune"
    state_files = (STATE, VALIDATION)
    finished = "tune.json"

    def save_generations(self, generations: list, rng_state: dict) -> None:
        """Replace generations.json: every finished generation (``tune.Generation``) and the
        optimiser's ``bit_generator.state`` after the last one."""
        self.save_json(STATE, {"rng": rng_state, "generations": [
            {"generation": g.generation, "x": g.x.tolist(), "objectives": g.objectives.tolist(),
             "mean": g.mean.tolist(), "sd": g.sd.tolist()} for g in generations]})

    def load_generations(self) -> tuple[list, dict | None]:
        """The finished generations and the optimiser's state after them ([], None before the
        first generation finished). JSON floats read back exactly as written."""
        from balance.analysis.tune import Generation

        def read(data):
            return [Generation(int(g["generation"]), *(np.array(g[k], np.float64)
                                                       for k in ("x", "objectives", "mean", "sd")))
                    for g in data["generations"]], data["rng"]
        return self.load_json(STATE, read, ([], None))

    def save_validation(self, fields: dict[str, dict]) -> None:
        """Replace validation.json: the finished validation fields, label -> ``tune._matchup``'s
        result (its PairedSums: float sums of one metric, the win share)."""
        self.save_json(VALIDATION, {label: {"field": r["field"], "games": r["games"], "n": r["sums"].n,
                                        **{k: float(getattr(r["sums"], k)) for k in PairedSums.FIELDS}}
                                for label, r in fields.items()})

    def load_validation(self) -> dict[str, dict]:
        """The validation fields finished before the interruption ({} if none)."""
        def read(data):
            return {label: {"field": r["field"], "games": int(r["games"]), "sums": PairedSums(
                int(r["n"]), *(np.float64(r[k]) for k in PairedSums.FIELDS))}  # win shares: float sums
                    for label, r in data.items()}
        return self.load_json(VALIDATION, read, {})


def saved_arguments(out: str | Path) -> dict:
    """tune() arguments of the interrupted tuning in ``out`` (for a bare ``--resume DIR``)."""
    request = read_request(Path(out), TuneCheckpointer)
    try:
        return dict(request["arguments"])
    except (KeyError, TypeError, ValueError) as e:
        raise BalanceError(f"the interrupted tuning in {str(out)!r} is unreadable ({e}); start again "
                           "with --force") from None
