"""Rule variants from TOML files and ``key=value`` overrides, shared by every game.

A variant file is flat TOML: rules fields as keys, plus optional ``name`` and ``description``
strings, e.g.::

    name = "no set bonus"
    set_bonus = 0
    loss_rule = "one"

An override is ``key=value`` where value is read as TOML (``hand=[1,2,3,4,5,6]``,
``ties_cancel=false``) or, failing that, as a bare word or comma list
(``loss_rule=one``, ``start_tokens=1,1,1``).
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from balance.errors import BalanceError

META_KEYS = ("name", "description")


def load_variant_file(path: str | Path) -> dict:
    """Rules overrides from a TOML variant file (meta keys removed)."""
    p = Path(path)
    if not p.is_file():
        raise BalanceError(f"variant file {str(p)!r} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BalanceError(f"variant file {str(p)!r} is not valid TOML: {e}") from None
    for key, value in data.items():
        if isinstance(value, dict):
            raise BalanceError(
                f"variant file {str(p)!r}: table [{key}] is not allowed; write rules as flat keys"
            )
    return {k: v for k, v in data.items() if k not in META_KEYS}


def parse_value(text: str):
    """Read one override value: TOML first, then a bare word or a comma-separated list."""
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    if "," in text:
        return [parse_value(part) for part in text.strip("()[]").split(",") if part.strip()]
    return text


def parse_overrides(items: list[str] | None) -> dict:
    """``["a=1", "b=x"]`` -> ``{"a": 1, "b": "x"}``; a malformed item is a BalanceError."""
    out: dict = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BalanceError(f"override {item!r} is not KEY=VALUE (e.g. set_bonus=2)")
        out[key.strip()] = parse_value(value)
    return out
