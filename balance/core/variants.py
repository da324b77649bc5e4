"""Rule variants from TOML files and ``key=value`` overrides, shared by every game.

A variant file is flat TOML: rules fields as keys, plus optional ``name`` and ``description``
strings, e.g.::

    name = "no set bonus"
    set_bonus = 0
    loss_rule = "one"

An override is ``key=value`` where value is read as TOML (``hand=[1,2,3,4,5,6]``,
``ties_cancel=false``) or, failing that, as a bare word or comma list
(``loss_rule=one``, ``start_tokens=1,1,1``). Two slips of the command line are caught
there rather than read as a list: a second setting after a comma (``set_bonus=2,loss_rule=one``)
and a value the shell cut at a space (``key=[1,`` from an unquoted ``key=[1, 2, 3]``).
"""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from balance.core.errors import BalanceError

META_KEYS = ("name", "description")


def load_variant_file(path: str | Path) -> dict:
    """Rules overrides from a TOML variant file (meta keys removed)."""
    p = Path(path)
    if p.is_dir():  # "does not exist" would send the user looking for a file that is there
        raise BalanceError(f"variant file {str(p)!r} is a directory, not a file; give a TOML file of rules keys")
    if not p.is_file():
        raise BalanceError(f"variant file {str(p)!r} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BalanceError(f"variant file {str(p)!r} is not valid TOML: {e}") from None
    for key, value in data.items():
        if isinstance(value, dict):
            raise BalanceError(
                f"variant file {str(p)!r}: table [{key}] is not allowed; write rules as flat keys"
            )
    return {k: v for k, v in data.items() if k not in META_KEYS}


def refuse_players(changes: dict, where: str) -> None:
    """Rules changes of a command that has --players hold no player count: --players 5 replaced
    players=3 without a word, and simulate took players=3 as the count only when --players was
    not given. One way to give it, the option."""
    if "players" in changes:
        raise BalanceError(f"give the player count with --players (players=), not "
                           f"players={changes['players']!r} in {where}")


_NOT_TOML = object()


def _toml(text: str):
    """``text`` read as a TOML value, or _NOT_TOML."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return _NOT_TOML


def toml_value(value) -> str:
    """``value`` (a bool, number, string or list of them) written as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)  # Python's int and finite float reprs are valid TOML
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in value) + "]"
    return json.dumps(str(value))  # a JSON string is a TOML basic string


def setting_text(value) -> str:
    """``value`` as ``--set`` and ``--variant`` read it back (``parse_value``): a plain word
    bare (``curves=varied``), anything else as TOML."""
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z_][\w.-]*", value) and value not in ("true", "false"):
        return value
    return toml_value(value)


def parse_value(text: str):
    """Read one override value: TOML first, then a bare word or a comma-separated list."""
    text = text.strip()
    value = _toml(text)
    return value if value is not _NOT_TOML else _bare(text)


def _bare(text: str):
    """A value that is not TOML: a comma list (items read as values) or a bare word."""
    if "," in text:
        return [parse_value(part) for part in text.strip("()[]").split(",") if part.strip()]
    return text


# ", name=" inside a value: a second setting joined with a comma instead of its own separator
_SETTING_AFTER_COMMA = re.compile(r",\s*([A-Za-z_]\w*)\s*=")
_PAIRS = (("[", "]"), ("(", ")"), ("{", "}"))


def parse_setting(key: str, text: str, option: str, joiner: str | None = None):
    """Read the value ``text`` of setting ``key`` given with ``option`` (``--set``,
    ``--variant``), refusing what the command line mangled.

    joiner: how that option separates several settings (``;`` in a variant), or None when
    each setting takes its own option. Raises BalanceError for a second setting after a
    comma (``a=2,b=one``) and for unbalanced brackets or quotes, which is what the shell leaves
    of an unquoted value with spaces (``key=[1,`` from ``key=[1, 2, 3]``).
    Valid TOML is taken as written (a quoted string may hold anything).
    """
    text = text.strip()
    value = _toml(text)
    if value is not _NOT_TOML:
        return value
    second = _SETTING_AFTER_COMMA.search(text)
    if second:
        first, rest = f"{key}={text[:second.start()].strip()}", text[second.start() + 1:].strip()
        how = (f"separate settings with {joiner!r} and quote the variant, e.g. "
               f'{option} "{first}{joiner}{rest}"' if joiner else
               f"give each setting its own {option}, e.g. {option} {first} {option} {rest}")
        raise BalanceError(f"{key}={text!r}: {second.group(1)!r} after a ',' is a second setting; {how}")
    unbalanced = [o for o, c in _PAIRS if text.count(o) != text.count(c)]
    unbalanced += [q for q in "\"'" if text.count(q) % 2]
    if unbalanced:
        raise BalanceError(
            f"{key}={text!r} has an unbalanced {unbalanced[0]!r}: the shell split the value at a "
            f"space (an unquoted {option} {key}=[1, 2, 3] arrives as '{key}=[1,'); put the whole "
            f"{option} value in quotes, or write it without spaces")
    return _bare(text)


def parse_overrides(items: list[str] | None) -> dict:
    """``["a=1", "b=x"]`` (``--set`` items) -> ``{"a": 1, "b": "x"}``; a malformed item is a
    BalanceError (see ``parse_setting`` for the mangled values it refuses)."""
    out: dict = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BalanceError(f"override {item!r} is not KEY=VALUE (`balance rules GAME` lists the keys)")
        if key.strip() in out:  # the last would win silently, while the command line shows both
            raise BalanceError(f"--set {key.strip()} is given twice; give each rules key once")
        out[key.strip()] = parse_setting(key.strip(), value, "--set")
    return out
