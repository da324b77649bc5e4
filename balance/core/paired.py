"""Paired sums: the running totals behind every common-random-numbers comparison.

Two arms (a baseline and a variant, a default and a tuned strategy) play the same games;
per game and metric we keep the sums of each arm's value, of their squares, and of the paired
difference and its square. From those, ``stats.mean_ci`` gives each arm's mean and
``stats.paired_mean_test`` the difference, whose variance Var(d) is what pairing buys against
Var(a) + Var(b). ``compare`` folds its metrics with it and ``tune`` its validation arms.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class PairedSums:
    """Running sums for one arm against the baseline, per metric.

    ``add(base, other)`` takes per-game values, shape (games,) for one metric or (games, k)
    for k; the sums have shape () or (k,). Integer inputs (compare's scaled metrics) give
    exact integer sums, so totals do not depend on how the games were chunked."""

    FIELDS = ("a", "a2", "b", "b2", "d", "d2")  # the sums, in field order (not a dataclass field)

    n: int = 0
    a: np.ndarray | None = None  # sum of baseline values
    a2: np.ndarray | None = None
    b: np.ndarray | None = None  # sum of variant values
    b2: np.ndarray | None = None
    d: np.ndarray | None = None  # sum of paired differences
    d2: np.ndarray | None = None

    def add(self, base: np.ndarray, other: np.ndarray) -> None:
        diff = other - base
        parts = [base.sum(0), (base**2).sum(0), other.sum(0), (other**2).sum(0), diff.sum(0),
                 (diff**2).sum(0)]
        if self.a is None:
            self.a, self.a2, self.b, self.b2, self.d, self.d2 = parts
        else:
            for name, value in zip(self.FIELDS, parts):
                setattr(self, name, getattr(self, name) + value)
        self.n += len(base)

    def to_json(self) -> dict:
        """The sums as JSON values, read back exactly by ``from_json`` (a checkpoint's)."""
        if self.a is None:
            return {"n": self.n}
        return {"n": self.n, "dtype": str(np.asarray(self.a).dtype),
                **{k: np.asarray(getattr(self, k)).tolist() for k in self.FIELDS}}

    @classmethod
    def from_json(cls, data: dict) -> "PairedSums":
        if "dtype" not in data:
            return cls(int(data["n"]))
        return cls(int(data["n"]), *(np.array(data[k], data["dtype"]) for k in cls.FIELDS))
