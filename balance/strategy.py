"""Strategy specs shared by every game: parameter declarations and ``name:key=value`` parsing.

A game declares its strategies as ``StrategyInfo`` objects (id used by the kernel, parameters
with defaults, bounds and meaning). Users write ``greedy`` or ``greedy:samples=8,w_risk=2``;
``parse_strategy`` checks every name and bound and returns a ``Strategy`` whose ``values``
line up with the kernel's parameter row.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance.errors import BalanceError, one_of


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


@dataclass(frozen=True)
class Strategy:
    """A strategy with every parameter value, in the order of ``info.params``."""

    info: StrategyInfo
    values: tuple[float, ...]

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
        return {
            "name": self.name,
            "label": self.label,
            "params": {p.name: (int(v) if p.integer else v) for p, v in zip(self.info.params, self.values)},
        }

    def param_row(self, width: int) -> np.ndarray:
        row = np.zeros(width, np.float64)
        row[: len(self.values)] = self.values
        return row


def parse_strategy(spec: str, catalogue: dict[str, StrategyInfo]) -> Strategy:
    """``'name'`` or ``'name:param=value,param=value'`` -> a validated ``Strategy``."""
    name, _, rest = spec.strip().partition(":")
    if name not in catalogue:
        raise one_of("strategy", name, catalogue)
    info = catalogue[name]
    by_name = {p.name: p for p in info.params}
    values = {p.name: p.default for p in info.params}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep:
            raise BalanceError(f"strategy {spec!r}: {item!r} is not param=value")
        if key not in by_name:
            raise one_of(f"parameter of strategy {name!r}:", key, by_name or ["(none)"])
        try:
            number = float(text)
        except ValueError:
            raise BalanceError(f"strategy {spec!r}: {key}={text!r} is not a number") from None
        values[key] = by_name[key].check(number, name)
    return Strategy(info, tuple(values[p.name] for p in info.params))


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))
