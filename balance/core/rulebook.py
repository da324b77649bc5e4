"""What every game's ``Rules`` dataclass repeats, written once: ``RulesBase``.

A game's rules are a frozen dataclass of every parameter a designer may vary, defaults the
rulebook. Subclass ``RulesBase``, set ``DOCS`` (key -> (allowed values, meaning), what
``balance rules GAME`` prints) and write ``validated()``; ``keys``, ``describe``,
``from_overrides`` and ``to_dict`` come from here. Fields whose names start with ``_`` are
private (caches), not rules keys.
"""
from __future__ import annotations

import dataclasses
import json
from typing import ClassVar

from balance.core.errors import BalanceError, did_you_mean, plain


def unknown_key(key: str, keys: list[str]) -> BalanceError:
    """'unknown rules key' naming the keys a user may set: not players, which every command
    takes as --players (and refuses in --set or a variant file)."""
    settable = [k for k in keys if k != "players"]
    return BalanceError(f"unknown rules key {key!r}; allowed: {', '.join(settable)} (the player count: --players, "
                        f"players=){did_you_mean(key, settable)}")


class RulesBase:
    DOCS: ClassVar[dict[str, tuple[str, str]]] = {}

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]

    @classmethod
    def describe(cls) -> list[dict[str, str]]:
        """Every rules key in declaration order: rows ``{key, default, allowed, meaning}``;
        the default as JSON, which ``--set KEY=VALUE`` and variant files also take."""
        rulebook = cls()
        return [{"key": key, "default": json.dumps(getattr(rulebook, key)),
                 "allowed": cls.DOCS[key][0], "meaning": cls.DOCS[key][1]} for key in cls.keys()]

    @classmethod
    def from_overrides(cls, overrides: dict):
        """Build and validate rules from ``{key: value}`` (values as parsed from TOML/CLI, or
        numpy numbers from Python, taken as the numbers they hold); an unknown key is refused
        naming the allowed ones."""
        keys = cls.keys()
        for key in overrides:
            if key not in keys:
                raise unknown_key(key, keys)
        return cls(**{k: cls.coerce(k, plain(v)) for k, v in overrides.items()}).validated()

    @classmethod
    def coerce(cls, key: str, value):
        """A parsed value as the field wants it; override for more (lists to tuples, ...).

        A text field given a number gets its text: ``--set edition=2012`` and ``edition = 2012``
        in a variant file arrive as the integer 2012, while the rules name the value "2012".
        A list field (a tuple default) takes a TOML list as a tuple, and one item as a list of
        one: ``--set swap="Aliens: Invader -> Scout"`` arrives as a string."""
        default = getattr(cls, key, None)
        if isinstance(default, str) and isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(default, tuple):
            return tuple(value) if isinstance(value, (list, tuple)) else (value,)
        return value

    def validated(self):
        raise NotImplementedError("a game's Rules checks every parameter in validated()")

    def to_dict(self) -> dict:
        """Every parameter as plain JSON/TOML values."""
        return {k: getattr(self, k) for k in self.keys()}
