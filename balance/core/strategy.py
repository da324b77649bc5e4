"""Strategy specs shared by every game: parameter declarations and ``name:key=value`` parsing.

A game declares its strategies as ``StrategyInfo`` objects (id used by the kernel, parameters
with defaults, bounds and meaning). Users write ``greedy`` or ``greedy:samples=8,w_risk=2``;
``parse_strategy`` checks every name and bound and returns a ``Strategy`` whose ``values``
line up with the kernel's parameter row. ``greedy:@runs/tuned`` (or ``@runs/tuned/tuned.toml``)
takes the parameters from a ``balance tune`` result; ``greedy:@runs/tuned,w_risk=2`` overrides
one of them further. Such a strategy remembers the player count it was tuned at (``Strategy.tuned``,
in every manifest), so a report can say where it plays weights that were not tuned for the table.
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from balance.core.errors import BalanceError, check_text, one_of


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    doc: str
    integer: bool = False

    def check(self, value: float, strategy: str) -> float:
        if not math.isfinite(value):
            raise BalanceError(f"{strategy}: {self.name}={value} is not a finite number; allowed {self.bounds()}")
        if self.integer and value != int(value):
            raise BalanceError(f"{strategy}: {self.name}={value} must be an integer in {self.bounds()}")
        if not self.low <= value <= self.high:
            raise BalanceError(f"{strategy}: {self.name}={_fmt(value)} is out of range; allowed {self.bounds()}")
        return float(value)

    def bounds(self) -> str:
        return f"{_fmt(self.low)}..{_fmt(self.high)}"


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    id: int  # the kernel's dispatch id
    doc: str
    params: tuple[Param, ...] = ()
    # Draws nothing from its stream: the same situation always gets the same move. A report
    # uses it to explain a run where identical players cancel out (every game a tie).
    deterministic: bool = False


@dataclass(frozen=True)
class Strategy:
    """A strategy with every parameter value, in the order of ``info.params``."""

    info: StrategyInfo
    values: tuple[float, ...]
    # where the values came from when a tuned.toml gave them: {"players": the count it was tuned
    # at, "from": the path as given}; not part of the strategy's identity (equal values play alike)
    tuned: dict | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def label(self) -> str:
        """``name`` alone when every parameter is at its default, else ``name:k=v,...``."""
        changed = [
            f"{p.name}={_fmt(v)}" for p, v in zip(self.info.params, self.values) if v != p.default
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

    def to_dict(self) -> dict:
        out = {
            "name": self.name,
            "label": self.label,
            "params": {p.name: (int(v) if p.integer else v) for p, v in zip(self.info.params, self.values)},
            "deterministic": self.info.deterministic,
        }
        # only when tuned: a manifest of a strategy given by its values stays as it was
        return out | ({"tuned": self.tuned} if self.tuned is not None else {})

    def param_row(self, width: int) -> np.ndarray:
        row = np.zeros(width, np.float64)
        row[: len(self.values)] = self.values
        return row


def example_pool(catalogue: dict[str, StrategyInfo], default: str) -> str:
    """Two of a game's strategies for an example --ladder or --pool, weakest first: random and
    the game's default (its strongest, as a rule), else its first two. A game's first three may
    be deterministic strategies whose copies tie every game (a walkthrough met such a ladder)."""
    names = list(dict.fromkeys(n for n in ("random", default) if n in catalogue))
    return ",".join(names if len(names) == 2 else list(catalogue)[:2])


def deterministic_alike(manifest: dict) -> str | None:
    """The label of the one strategy every seat of a run (its manifest) played, when that
    strategy draws nothing at random; else None."""
    seen = {(s["label"], s.get("deterministic", False))
            for run in manifest.get("runs", []) for block in run["seatings"] for s in block["strategies"]}
    if len(seen) == 1:
        label, deterministic = seen.pop()
        return label if deterministic else None
    return None


def untuned_counts(*manifests: dict) -> dict[str, tuple[int, list[int]]]:
    """label -> (the count it was tuned at, the counts of the runs it plays untuned) for every
    strategy of the runs (their manifests) that came from a tuned.toml and plays at a player count
    other than its tuning's: weights tuned for one table size, played at another as they are."""
    found: dict[str, tuple[int, set[int]]] = {}
    for run in (run for manifest in manifests for run in manifest.get("runs", [])):
        for block in run["seatings"]:
            for s in block["strategies"]:
                tuned = (s.get("tuned") or {}).get("players")
                if isinstance(tuned, int) and run["players"] != tuned:
                    found.setdefault(s["label"], (tuned, set()))[1].add(run["players"])
    return {label: (tuned, sorted(counts)) for label, (tuned, counts) in found.items()}


def parse_strategy(spec: str, catalogue: dict[str, StrategyInfo]) -> Strategy:
    """``'name'``, ``'name:param=value,param=value'`` or ``'name:@PATH[,param=value...]'``
    -> a validated ``Strategy``. PATH is a ``tuned.toml`` or a directory holding one."""
    example = next(iter(catalogue), "NAME")
    name, _, rest = check_text("strategy", spec, f"{example!r} or '{example}:PARAM=VALUE'").strip().partition(":")
    if name not in catalogue:
        raise one_of("strategy", name, catalogue)
    info = catalogue[name]
    by_name = {p.name: p for p in info.params}
    values = {p.name: p.default for p in info.params}
    rest = rest.strip()
    tuned = None
    if rest.startswith("@"):
        path, rest = _tuned_path(rest[1:])
        found, tuned = _read_tuned(path, info)
        values.update(found)
    given = set()  # a tuned file's values may be overridden once each, not twice in one spec
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep:
            raise BalanceError(f"strategy {spec!r}: {item!r} is not param=value")
        if key not in by_name:
            raise one_of(f"parameter of strategy {name!r}:", key, by_name or ["(none)"])
        if key in given:  # the last one silently won
            raise BalanceError(f"strategy {spec!r}: {key} is given twice; give each parameter once")
        given.add(key)
        try:
            number = float(text)
        except ValueError:
            raise BalanceError(f"strategy {spec!r}: {key}={text!r} is not a number") from None
        values[key] = by_name[key].check(number, name)
    return Strategy(info, tuple(values[p.name] for p in info.params), tuned)


def _tuned_path(text: str) -> tuple[str, str]:
    """``PATH[,param=value...]`` split into PATH and the overrides. A comma may be part of
    the path (``runs/a,b``, which was cut to 'runs/a'): the longest comma-separated prefix that
    exists is the path; when none does, the text before the first comma (its error names it)."""
    parts = text.split(",")
    for k in range(len(parts), 0, -1):
        path = ",".join(parts[:k]).strip()
        if path and Path(path).expanduser().exists():
            return path, ",".join(parts[k:])
    return parts[0].strip(), ",".join(parts[1:])


TUNED_FILE = "tuned.toml"
TUNED_KEYS = ("strategy", "params", "tune")  # "tune": how the file was made (informational)


def load_tuned(path: str | Path, info: StrategyInfo) -> dict[str, float]:
    """Parameter values of ``info`` from a tuned.toml (or a directory holding one).

    The file (written by ``balance.analysis.tune``) is ``strategy = "name"`` plus a ``[params]`` table;
    parameters it leaves out keep their defaults. Its strategy must be ``info.name`` and every
    value must pass ``Param.check``.
    """
    return _read_tuned(path, info)[0]


def _read_tuned(path: str | Path, info: StrategyInfo) -> tuple[dict[str, float], dict]:
    """``load_tuned``'s values, and where they came from (``Strategy.tuned``): the path as given
    and the player count of the file's [tune] table (left out when the table does not give one,
    as in a file written by hand)."""
    p = Path(path)
    if p.is_dir():
        p = p / TUNED_FILE
    if not p.is_file():
        raise BalanceError(f"tuned parameters {str(p)!r} do not exist; give a {TUNED_FILE} or "
                           "the directory `balance tune --out` wrote")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BalanceError(f"tuned parameters {str(p)!r} are not valid TOML: {e}") from None
    unknown = sorted(set(data) - set(TUNED_KEYS))
    if unknown:
        raise BalanceError(f"{str(p)!r}: unknown key {unknown[0]!r}; allowed: {', '.join(TUNED_KEYS)}")
    if not isinstance(data.get("strategy"), str):  # an empty file, or one written by hand
        raise BalanceError(f"{str(p)!r} holds no tuned strategy (no line strategy = \"NAME\"); give a "
                           f"{TUNED_FILE} that `balance tune --out` wrote")
    if data.get("strategy") != info.name:
        raise BalanceError(f"{str(p)!r} holds parameters of strategy {data.get('strategy')!r}, "
                           f"not {info.name!r}; use it as {data.get('strategy')}:@{path}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise BalanceError(f"{str(p)!r}: params must be a table ([params] with name = number)")
    by_name = {q.name: q for q in info.params}
    values = {}
    for key, value in params.items():
        if key not in by_name:
            raise one_of(f"parameter of strategy {info.name!r} in {str(p)!r}:", key, by_name or ["(none)"])
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BalanceError(
                f"{str(p)!r}: {key}={value!r} is not a number; allowed {by_name[key].bounds()}")
        if isinstance(value, int) and abs(value) > 2 ** 53:  # TOML integers are unbounded; no float holds this
            raise BalanceError(f"{str(p)!r}: {key} is an integer of {len(str(abs(value)))} digits, out of "
                               f"range; allowed {by_name[key].bounds()}")
        values[key] = by_name[key].check(float(value), info.name)
    tune = data.get("tune")
    players = tune.get("players") if isinstance(tune, dict) else None
    origin = {"from": str(path)} | ({"players": players} if type(players) is int else {})
    return values, origin


def _fmt(x: float) -> str:
    """A parameter value as a label writes it: 4, 0.25; a huge one as given (1e+308: its
    integer would print 309 digits)."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))
