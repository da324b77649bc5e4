"""What a game is, declared once: the contract every game package fulfils.

A game package under ``balance/games/`` (or in another distribution, registered through the
``balance.games`` entry-point group) exposes ``GAME = GameInfo(...)`` in its ``__init__``.
The declaration is data the generic layers read instead of looking attributes up by string,
and ``GameInfo.check()`` verifies it when the game is registered, so a malformed game fails
with one message naming everything that is missing, not later with a KeyError.

Modelled on OpenSpiel's ``GameType`` (declared dynamics, utility and player range, checked by
one consistency test for every game) and pgx's one API for every game. This module imports
no game.
"""
from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from types import ModuleType

from balance.core.errors import BalanceError

# A game's win is counted in 1/60 units by every kernel: a k-way tie gives each winner 60/k,
# exact for k <= 6, so every win total is an integer and bit-identical for any chunking.
WIN_UNIT = 60

# The outcome every game declares: stopped by its turn cap before the rules ended it. Such a
# game hands out no win and is counted apart, never as a finish.
CAPPED = "capped"

# The modules a game package provides, and what each must define.
PARTS = {
    "rules": ("Rules", "RULES_VERSION"),  # the frozen rules dataclass and its version string
    "strategies": ("STRATEGIES",),  # name -> StrategyInfo
    "engine": ("Engine",),  # arrays -> kernel -> chunks and tables
    "reference": (),  # the plain-Python oracle the kernel is tested against
    # compare_metrics(rules list, players) -> what `balance compare` pairs per game: .names
    # (seat win shares first), .units, .scales, .per_game(chunk, rules), .bounds(rules)
    "metrics": ("compare_metrics",),
}
# Parts a game may provide. report: the game's own report sections over its own tables
# (analyse(tables, manifest, method) -> analysis or None, figures(analysis, dir) -> {name: path},
# verdict(analysis) -> [Para/Bullets blocks], sections(analysis, figures) -> [Section],
# variant_hint(analysis) -> {"players", "item", "why"} (and optionally a ready "variant" with
# the "hint" that says what it changes, the object of "compare the rulebook with ...", or the
# "when" of the restricted play that found the item, which the hint names if it did not remove
# it) or None, for the report's "try next"; or a list of them, the first as that dict and each
# further one with a ready "variant" (another line),
# methods() -> [paragraph parts] for the report's Methods section; and, for `balance ladder`,
# optionally ladder_measures(tables, manifest) -> [(column, heading, frame[, kind[, note]])], the
# game's rung columns (balance.analysis.ladder.Measure), and ladder_verdict(rungs, labels) ->
# [line parts], its first-screen lines on them).
# cards: a game with a card list (card_list(rules) -> polars frame with a boolean "simulated"
# column, unsupported(rules) -> ["what: name", ...] the engine plays without their abilities;
# `balance cards` prints them and every run dealing one says so in its manifest and report).
# The cards part may also give unsupported_in_play(rules, side texts or None) -> the unsupported
# cards a run's decks can deal (the manifest lists those instead of the whole list) and
# unsupported_summary(rules) -> lines `balance cards --unsupported` prints after the list.
OPTIONAL_PARTS = {
    "report": ("analyse", "figures", "verdict", "sections", "variant_hint", "methods"),
    "cards": ("card_list", "unsupported"),
}


@dataclass(frozen=True)
class TableSpec:
    """A table a game writes besides the core ones (``balance.core.schema.CORE_TABLES``).

    columns: name -> polars dtype, in file order; keys: the columns whose equal values make
    rows add up (every other column is a sum, so blocks and chunks fold exactly); meaning: one
    line for the README and ``balance games``; optional: written only when the run asks for it
    (e.g. ``--card-strength``), so a report must work without it.
    """

    name: str
    columns: dict
    keys: tuple[str, ...]
    meaning: str
    optional: bool = False


# What a lever acts on: "seats", the seats' distance from fair (a competitive game's seat
# edge); "difficulty", the team's win rate (a cooperative game).
LEVER_TARGETS = ("seats", "difficulty")


@dataclass(frozen=True)
class Lever:
    """A rule change the game's designers try for one purpose, declared so a report's "What to
    try next" can propose it as a ready ``balance compare --variant NAME:SETTING``.

    A lever is the game's knowledge of which rules act on what, not a measured claim: the
    proposed comparison measures it. name: the variant's name (a word); setting:
    ``key=value;key=value`` over the game's rules; acts_on: one of LEVER_TARGETS; what: the
    change in words, as a designer reads it.
    """

    name: str
    setting: str
    acts_on: str
    what: str

    @property
    def variant(self) -> str:
        return f"{self.name}:{self.setting}"


class Kind(str, Enum):
    """How a game's result is shared out."""

    COMPETITIVE = "competitive"  # one win per finished game, ties split 1/k
    COOPERATIVE = "cooperative"  # one team result shared by every seat


def _unimportable(module: str, name: str, error: Exception) -> str:
    """A part that cannot be imported, in words: missing (ImportError) or failing as it loads
    (a plug-in's syntax error, an exception at import)."""
    if isinstance(error, ImportError):
        return f"part {module}.{name} cannot be imported ({error})"
    return f"part {module}.{name} fails on import ({type(error).__name__}: {error})"


@dataclass(frozen=True)
class GameInfo:
    """A game's declaration.

    id: the name users type (``avengers-cards``); title: for reports; module: the package
    holding the parts in PARTS; kind: competitive or cooperative; players: the smallest and
    largest player count the rules allow (1 only for cooperative games); default_strategy: the
    strategy analysis commands use when none is given (e.g. the strongest the game ships);
    restrictable: what restricted play denies a seat (``"card"``), or None when the game has
    no restricted play; restrictable_rule: the rules key that lists those items (``"hand"``),
    so a report can propose the rule variant without one of them; restrict_modes: (mode,
    what it denies in words) per mode of restricted play; restrict_seat: which seat, in which
    games, is denied the item (the game's CardStrengthPlan decides it; reports say it);
    restrict_items: how ``--card`` names an item ("a value of the hand"); levers: the rule
    changes a report proposes to try (Lever); explicit_counts: the player counts inside
    ``players`` that the default rules refuse because a rule must be chosen for them
    (avengers-cards at 2: a hand), which the contract checks skip; capped_by: rules settings
    ((key, value) pairs) under which games reach the turn cap, so ``balance check`` can see
    that a capped game hands out no win where the default rules cap none; seat_order: who
    plays first, in words, for reports beside the seat numbers, or a function (players, rules
    as a dict) -> those words: a game whose first player changes during play says so, or a
    seat's edge reads as the first player's.
    """

    id: str
    title: str
    module: str
    kind: Kind = Kind.COMPETITIVE
    players: tuple[int, int] = (2, 2)
    default_strategy: str = "random"
    restrictable: str | None = None
    restrictable_rule: str | None = None
    outcomes: tuple[str, ...] = ("finished", CAPPED)
    score: str | None = "points"
    length: str = "turns"
    side: str | None = None
    tables: tuple[TableSpec, ...] = ()
    restrict_modes: tuple[tuple[str, str], ...] = ()
    restrict_seat: str = "one seat (rotated over all seats in equal blocks of games)"
    restrict_items: str = ""  # how --card names an item, in words
    # what restricted play does to an item, for verdict sentences: (gerund phrase with {} for
    # the item, past participle phrase), e.g. ("swapping {} for its stand-in", "swapped for its stand-in")
    restrict_act: tuple[str, str] = ("removing {}", "removed")
    # a mode whose restriction is not the act above: (mode, gerund phrase, past participle phrase),
    # e.g. ("before-last", "holding {} back until ...", "held back until ...")
    restrict_mode_acts: tuple[tuple[str, str, str], ...] = ()
    levers: tuple[Lever, ...] = ()  # rule changes to try, by what they act on (Lever)
    explicit_counts: tuple[int, ...] = ()  # player counts the default rules refuse (a rule to choose)
    capped_by: tuple[tuple[str, object], ...] = ()  # e.g. (("max_turns", 4),): games that reach the cap
    seat_order: str | Callable[[int, dict], str] = "seat 0 is the first player"

    def part(self, name: str) -> ModuleType:
        """One of the game's parts (PARTS): ``rules``, ``strategies``, ``engine``, ...."""
        if name not in PARTS and name not in OPTIONAL_PARTS:
            raise BalanceError(f"unknown game part {name!r}; allowed: {', '.join([*PARTS, *OPTIONAL_PARTS])}")
        return importlib.import_module(f"{self.module}.{name}")

    def optional_part(self, name: str) -> ModuleType | None:
        """An optional part (OPTIONAL_PARTS) if the game provides it, else None; BalanceError
        naming what is missing when it lacks what the contract needs or cannot be imported."""
        try:
            if importlib.util.find_spec(f"{self.module}.{name}") is None:
                return None
            module = self.part(name)
        except Exception as e:  # a plug-in's broken part must not take the CLI down
            raise BalanceError(f"game {self.id!r}: {_unimportable(self.module, name, e)}") from None
        missing = [attr for attr in OPTIONAL_PARTS[name] if not hasattr(module, attr)]
        if missing:
            raise BalanceError(f"game {self.id!r} ({self.module}) is malformed: "
                               f"{self.module}.{name} lacks {', '.join(missing)}")
        return module

    @property
    def default_players(self) -> int:
        """The player count commands use when none is given: the rules' default."""
        return int(self.part("rules").Rules.players)

    @property
    def simulate_strategy(self) -> str:
        """What `simulate` and `compare` play when no strategy is given: uniform random play
        where the game has it (the floor every competitive study starts from), else its default
        strategy. A cooperative game plays its default strategy: a random team may all but
        never win, and then every measure of it would be empty."""
        if self.cooperative or "random" not in self.strategies:
            return self.default_strategy
        return "random"

    @property
    def cooperative(self) -> bool:
        return self.kind == Kind.COOPERATIVE

    @property
    def capped_code(self) -> int:
        return self.outcomes.index(CAPPED)

    def act(self, mode: str | None) -> tuple[str, str]:
        """What restricted play in ``mode`` does to an item, for verdict sentences: the mode's own
        act (restrict_mode_acts), else restrict_act."""
        return next(((gerund, done) for m, gerund, done in self.restrict_mode_acts if m == mode), self.restrict_act)

    def restrict_meaning(self, mode: str) -> str:
        """What restricted play in ``mode`` denies a seat, in words ("removed from the hand")."""
        return dict(self.restrict_modes).get(mode, mode)

    @property
    def rules_version(self) -> str:
        return self.part("rules").RULES_VERSION

    @property
    def strategies(self) -> dict:
        return self.part("strategies").STRATEGIES

    def check(self) -> "GameInfo":
        """Every problem of the declaration and its parts, in one BalanceError; else self."""
        problems = []
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", str(self.id)):
            problems.append(f"id {self.id!r} is not lower-case words joined by '-'")
        if not str(self.title).strip():
            problems.append("title is empty")
        if not isinstance(self.kind, Kind):
            problems.append(f"kind {self.kind!r} is not one of {', '.join(k.value for k in Kind)}")
        low, high = self.players if len(self.players) == 2 else (0, -1)
        least = 1 if self.kind == Kind.COOPERATIVE else 2
        if not (isinstance(low, int) and isinstance(high, int) and least <= low <= high):
            problems.append(f"players {self.players!r} is not a range (low, high) with "
                            f"{least} <= low <= high for a {getattr(self.kind, 'value', self.kind)} game")
        modules = {}
        for name, needed in PARTS.items():
            try:
                modules[name] = importlib.import_module(f"{self.module}.{name}")
            except Exception as e:  # a plug-in's broken part must not take the CLI down
                problems.append(_unimportable(self.module, name, e))
                continue
            missing = [attr for attr in needed if not hasattr(modules[name], attr)]
            if missing:
                problems.append(f"{self.module}.{name} lacks {', '.join(missing)}")
        # BaseEngine reads the outcomes, kind and score from its class's GAME (None in the base)
        engine_cls = getattr(modules.get("engine"), "Engine", None)
        if engine_cls is not None and not isinstance(getattr(engine_cls, "GAME", None), GameInfo):
            problems.append(f"{self.module}.engine.Engine.GAME is not a GameInfo "
                            "(set GAME = GAME, the package's declaration, in the class)")
        catalogue = getattr(modules.get("strategies"), "STRATEGIES", None)
        if isinstance(catalogue, dict) and self.default_strategy not in catalogue:
            problems.append(f"default_strategy {self.default_strategy!r} is not one of its strategies "
                            f"({', '.join(catalogue) or 'none'})")
        rules_cls = getattr(modules.get("rules"), "Rules", None)
        if self.restrictable_rule is not None and rules_cls is not None and \
                self.restrictable_rule not in rules_cls.keys():
            problems.append(f"restrictable_rule {self.restrictable_rule!r} is not a rules key")
        docs = getattr(rules_cls, "DOCS", None)
        if isinstance(docs, dict) and callable(getattr(rules_cls, "keys", None)):
            # `balance rules GAME` prints every key's allowed values and meaning from DOCS
            undocumented = [key for key in rules_cls.keys() if key not in docs]
            if undocumented:
                problems.append(f"Rules.DOCS describes no {', '.join(undocumented)} "
                                "(key -> (allowed values, meaning) for each rules key)")
        problems += self._check_declared()
        # Optional parts (the report sections) import the plotting stack: they are checked when
        # first used (optional_part), so simulating never loads matplotlib.
        if problems:
            raise BalanceError(f"game {self.id!r} ({self.module}) is malformed: " + "; ".join(problems))
        return self

    def _check_declared(self) -> list[str]:
        """Problems of the declared outcomes, score, length, side, levers and tables."""
        from balance.core.schema import CORE_TABLES

        problems = []
        outcomes = tuple(self.outcomes) if isinstance(self.outcomes, (tuple, list)) else ()
        if CAPPED not in outcomes or len(set(outcomes)) != len(outcomes) or len(outcomes) < 2:
            problems.append(f"outcomes {self.outcomes!r} must be distinct names including "
                            f"{CAPPED!r} and at least one way to finish")
        for field in ("score", "side"):
            value = getattr(self, field)
            if value is not None and not (isinstance(value, str) and value.strip()):
                problems.append(f"{field} {value!r} is not a name or None")
        if not (isinstance(self.length, str) and self.length.strip()):
            problems.append(f"length {self.length!r} is not a unit name")
        if self.restrictable is not None and not self.restrict_modes:
            problems.append("restrictable is set but restrict_modes names no mode of restricted play")
        if self.restrictable is not None and not self.restrict_items:
            problems.append("restrictable is set but restrict_items does not say how --card names one")
        problems += self._check_levers()
        if not set(self.explicit_counts) <= set(range(self.players[0], self.players[-1] + 1)):
            problems.append(f"explicit_counts {self.explicit_counts!r} must be player counts in "
                            f"players {self.players!r}")
        if not all(isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                   for pair in self.capped_by):
            problems.append(f"capped_by {self.capped_by!r} must be (rules key, value) pairs")
        seen = set(CORE_TABLES)
        for t in self.tables:
            if not isinstance(t, TableSpec):
                problems.append(f"table {t!r} is not a balance.core.game.TableSpec")
                continue
            if t.name in seen:
                problems.append(f"table {t.name!r} is declared twice or takes a core table's name")
            seen.add(t.name)
            if not set(t.keys) <= set(t.columns) or "players" not in t.keys:
                problems.append(f"table {t.name!r}: keys {list(t.keys)} must be columns and "
                                "include 'players'")
        return problems

    def _check_levers(self) -> list[str]:
        """Problems of the declared levers' form (the contract test checks that each setting
        is valid rules)."""
        problems, names = [], set()
        for lever in self.levers:
            if not isinstance(lever, Lever):
                problems.append(f"lever {lever!r} is not a balance.core.game.Lever")
                continue
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", lever.name) or lever.name in names:
                problems.append(f"lever name {lever.name!r} is not a distinct word")
            names.add(lever.name)
            if lever.acts_on not in LEVER_TARGETS:
                problems.append(f"lever {lever.name!r} acts on {lever.acts_on!r}; allowed: "
                                f"{', '.join(LEVER_TARGETS)}")
            if "=" not in lever.setting or not lever.what.strip():
                problems.append(f"lever {lever.name!r} needs a key=value setting and a description")
        return problems
