"""The game contract, checked by playing the game: what ``balance check GAME`` runs and what the
test suite runs for every registered game.

A game's declaration (``GameInfo.check``) says that its parts exist; these checks say that
they behave: the kernel plays the same games as the plain-Python reference, a run is the same
for any chunk size and thread count, one seat's strategy moves no other seat's chance draws,
wins are handed out as the game's kind says, and what ``compare`` measures stays in its bounds.
A studio's game in its own package is checked with ``balance check my-game``, with no clone of
balance and no test suite.

Each check takes the checked ``GameInfo`` and returns one line saying what it verified, or
raises ``ContractFailure`` naming the first game, seat or value that breaks the contract.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from balance.analysis.document import counted
from balance.core.errors import BalanceError
from balance.core.game import WIN_UNIT, GameInfo, Kind
from balance.core.strategy import parse_strategy

# games per (strategy, player count) in the kernel = reference check; a slow reference names
# its own (its CHECK_GAMES)
REFERENCE_GAMES = 30
# games per strategy in the chance-draws check (each changes one seat, every seat in turn)
CHANCE_GAMES = 20


class ContractFailure(Exception):
    """A game breaks the contract; the message names where."""


def _require(condition, message: str) -> None:
    if not condition:
        raise ContractFailure(message)


# ---- what the checks share ---------------------------------------------------------------------

def rules_at(info: GameInfo, players: int, **overrides):
    """The game's default rules at ``players`` (BalanceError if they do not validate)."""
    return info.part("rules").Rules.from_overrides({**overrides, "players": players})


def player_counts(info: GameInfo) -> list[int]:
    """The declared player counts but the declaration's ``explicit_counts`` (those need a rule
    chosen); the default rules must play every one of them."""
    counts = [n for n in range(info.players[0], info.players[1] + 1) if n not in info.explicit_counts]
    for n in counts:
        try:
            rules_at(info, n)
        except BalanceError as e:
            raise ContractFailure(f"the default rules refuse {counted(n, 'player')} ({e}); a count that "
                                  "needs a rule chosen belongs in the declaration's explicit_counts") from None
    _require(counts, "no player count plays with the default rules")
    return counts


def rule_settings(info: GameInfo, players: int) -> list[tuple[str, object]]:
    """(what, rules) for the default rules at ``players`` and each lever's: rules off their
    defaults, where a key to_dict forgets or a rule the reference ignores shows. A lever the
    count refuses is left out (the levers check names it)."""
    from balance.analysis.compare import parse_variant

    settings = [("the default rules", rules_at(info, players))]
    for lever in info.levers:
        try:
            settings.append((f"lever {lever.name}", rules_at(info, players, **parse_variant(lever.variant).overrides)))
        except BalanceError:
            continue
    return settings


def drawing_strategy(info: GameInfo) -> str:
    """A strategy that draws from its seat's stream: ``random`` where the game has one."""
    return "random" if "random" in info.strategies else info.default_strategy


def engine_for(info: GameInfo, rules, specs: list[str]):
    """An Engine with one strategy text per seat, or one for every seat."""
    from balance.core.runner import build_engine

    seats = [parse_strategy(s, info.strategies) for s in specs]
    return build_engine(info, rules, seats * rules.players if len(seats) == 1 else seats)


# ---- the checks ------------------------------------------------------------------------------------

def check_declaration(info: GameInfo) -> str:
    """The player range is sane and the rules refuse the counts outside it."""
    low, high = info.players
    least = 1 if info.kind == Kind.COOPERATIVE else 2
    _require(least <= low <= high, f"players {info.players}: a {info.kind.value} game needs "
             f"{least} <= smallest <= largest")
    counts = player_counts(info)
    rules_cls = info.part("rules").Rules
    for n in info.explicit_counts:  # declared to need a rule chosen: the defaults must refuse it
        try:
            rules_at(info, n)
        except BalanceError:
            continue
        raise ContractFailure(f"explicit_counts declares {n} players, yet the default rules play it")
    for outside in (low - 1, high + 1):
        try:
            rules_cls.from_overrides({"players": outside})
        except BalanceError as e:
            _require("players" in str(e), f"{outside} players is refused without naming players: {e}")
            continue
        raise ContractFailure(f"the rules accept {counted(outside, 'player')}, outside the declared "
                              f"{_span(low, high)}")
    return (f"{_span(low, high)} player{'s' * (high > 1)} declared, the default rules play at "
            f"{_listed(counts)}, refused outside")


def check_rules(info: GameInfo) -> str:
    """Rules survive to_dict/from_overrides (what a run's manifest stores), and an unknown key
    or strategy parameter is refused in one line."""
    rules_cls = info.part("rules").Rules
    counts = player_counts(info)
    for players in counts:
        for what, rules in rule_settings(info, players):
            again = rules_cls.from_overrides(rules.to_dict())
            _require(again == rules, f"at {players} players {what} do not survive to_dict() and "
                     f"from_overrides(): {rules} came back as {again}")
    _refused_in_one_line(lambda: rules_cls.from_overrides({"no_such_rule": 1}), "no_such_rule",
                         "an unknown rules key")
    tunable = next((s for s in info.strategies.values() if s.params), None)
    if tunable is not None:
        _refused_in_one_line(lambda: parse_strategy(f"{tunable.name}:nope=1", info.strategies), "nope",
                             f"an unknown parameter of {tunable.name}")
    return f"{len(rules_cls.keys())} keys round-trip at {_listed(counts)} players; unknown ones refused"


def _refused_in_one_line(call: Callable, word: str, what: str) -> None:
    try:
        call()
    except BalanceError as e:
        _require(word in str(e) and "\n" not in str(e),
                 f"{what} is refused, but not in one line naming {word!r}: {e}")
        return
    raise ContractFailure(f"{what} ({word!r}) is accepted")


def check_levers(info: GameInfo) -> str:
    """Every lever is a variant compare accepts, valid at every player count, that changes the
    rules at one count at least (a per-seat list may reach only the larger tables; the report
    leaves a lever out where it changes nothing), and acts on what the game has (seats, or a
    cooperative game's difficulty)."""
    from balance.analysis.compare import parse_variant

    rules_cls = info.part("rules").Rules
    target = "difficulty" if info.cooperative else "seats"
    for lever in info.levers:
        _require(lever.acts_on == target, f"lever {lever.name} acts on {lever.acts_on!r}; "
                 f"a {info.kind.value} game's levers act on {target!r}")
        variant = parse_variant(lever.variant)
        _require(variant.name == lever.name, f"lever {lever.name}'s variant is named {variant.name}")
        changes = []
        for players in player_counts(info):
            try:
                changed = rules_cls.from_overrides({**variant.overrides, "players": players})
            except BalanceError as e:
                raise ContractFailure(f"lever {lever.variant} is refused at {players} players: {e}") from None
            changes.append(changed != rules_at(info, players))
        _require(any(changes), f"lever {lever.variant} leaves the rules unchanged at every player count")
    return f"{counted(len(info.levers), 'lever')}, each valid at every player count and a change at one" \
        if info.levers else "no levers declared"


def check_reference(info: GameInfo, games: int | None = None) -> str:
    """The kernel plays the same games as the plain-Python reference, for every strategy at
    every player count, and under each lever's rules at the largest: win shares, scores,
    sides, outcome and length."""
    reference = info.part("reference")
    n = games or getattr(reference, "CHECK_GAMES", REFERENCE_GAMES)
    counts = player_counts(info)
    settings = [(players, "the default rules", rules_at(info, players)) for players in counts[:-1]]
    settings += [(counts[-1], what, rules) for what, rules in rule_settings(info, counts[-1])]
    for players, what, rules in settings:
        for name in info.strategies:
            engine = engine_for(info, rules, [name])
            chunk = engine.play(7, 100, n)
            for i in range(n):
                ref = reference.play_game(rules, engine.strategies, 7, 100 + i)
                pairs = [("win_units", chunk.win_units[i], ref.win_units)]
                if chunk.scores is not None:  # a game with a score
                    pairs.append(("scores", chunk.scores[i], ref.scores))
                if chunk.sides is not None:  # a game whose seats play sides
                    pairs.append(("sides", chunk.sides[i], ref.sides))
                if hasattr(ref, "outcome"):  # a reference that records them
                    pairs += [("outcome", [chunk.outcome[i]], [ref.outcome]),
                              ("length", [chunk.length[i]], [ref.length])]
                differ = [f"{field} {_ints(k)} against {_ints(r)}" for field, k, r in pairs if _ints(k) != _ints(r)]
                _require(not differ, f"{name} at {players} players under {what}, seed 7 game {100 + i}: kernel "
                         f"against reference: {'; '.join(differ)}")
    levers = f", and under {counted(len(info.levers), 'lever')} at {counts[-1]}" if info.levers else ""
    return (f"{n * len(settings) * len(info.strategies):,} games identical ({n} for each of "
            f"{len(info.strategies)} strategies at {_listed(counts)} players{levers})")


def _ints(values) -> list[int]:
    return [int(x) for x in np.ravel(values)]


def check_chunks(info: GameInfo) -> str:
    """The same seed writes identical tables for any chunk size and thread count."""
    from balance.core.api import simulate

    counts = player_counts(info)
    settings = ((1000, 1), (7, 1), (7, 2))
    # the default strategy, and one that draws from its seat's stream (a draw keyed by chunk
    # may hide in either)
    names = list(dict.fromkeys((info.default_strategy, drawing_strategy(info))))
    for name in names:
        runs = [simulate(info.id, players=counts, games=150, seed=3, strategies=[name],
                         chunk_size=chunk, threads=threads) for chunk, threads in settings]
        first = _same_tables(info, name, counts, settings, runs)
    return (f"{len(first)} tables identical for chunks of 1000 and 7, on 1 and 2 threads "
            f"({' and '.join(names)})")


def _same_tables(info: GameInfo, name: str, counts: list[int], settings, runs) -> dict:
    """The first run's tables, once every other run wrote the same (ContractFailure if not)."""
    first = runs[0].tables
    written = set(first)
    missing = {"seats", "outcomes", "lengths", "game_totals"} - written
    _require(not missing, f"the run wrote no {', '.join(sorted(missing))} table")
    _require(("pairs" in written) == (not info.cooperative),
             f"a {info.kind.value} game's run {'wrote' if 'pairs' in written else 'did not write'} the pairs table")
    _require(("scores" in written) == (info.score is not None),
             f"a game {'with' if info.score else 'without'} a score "
             f"{'wrote' if 'scores' in written else 'did not write'} the scores table")
    for (chunk, threads), other in zip(settings[1:], runs[1:]):
        setting = f"{name} in chunks of {chunk} on {threads} thread{'s' * (threads > 1)}"
        _require(set(other.tables) == set(first), f"{setting} writes the tables {sorted(other.tables)}, "
                 f"chunks of 1000 on 1 thread {sorted(first)}")
        for table, frame in first.items():
            _require(other.tables[table].equals(frame), f"{setting} changes the {table} table "
                     "(a draw keyed by chunk or thread rather than by game number?)")
    _require(first["seats"]["games"].sum() == 150 * sum(counts), "the seats table does not count every game")
    return first


def check_replay(info: GameInfo) -> str:
    """A game played alone is the same game as inside a chunk (every draw keyed by game number)."""
    rules = rules_at(info, player_counts(info)[-1])
    engine = engine_for(info, rules, [drawing_strategy(info)])
    chunk = engine.play(11, 40, 25)

    def game(c, i):  # everything a chunk says about its i-th game
        arrays = [c.win_units, c.scores, c.sides, *c.columns.values()]
        return (tuple(tuple(np.ravel(a[i]).tolist()) for a in arrays if a is not None),
                int(c.outcome[i]), int(c.length[i]))

    for g in (40, 52, 64):
        _require(game(engine.play(11, g, 1), 0) == game(chunk, g - 40),
                 f"game {g} played alone differs from game {g} played in a chunk from game 40")
    _require(len({game(chunk, i) for i in range(len(chunk))}) > 1,
             "25 games in a row are all the same game: the games draw nothing")
    return f"games 40, 52 and 64 replay alone as in a chunk ({rules.players} players)"


def check_chance(info: GameInfo) -> str:
    """Changing one seat's strategy moves no other seat's chance draws (the reference's
    ``chance_draws(record, players)``): the common random numbers paired comparisons use.
    Every seat is changed in turn (game g changes seat g mod players) to every other strategy,
    the others playing the drawing strategy."""
    reference = info.part("reference")
    draws = getattr(reference, "chance_draws", None)
    _require(draws is not None, f"{info.module}.reference defines no chance_draws(record, players)")
    players = player_counts(info)[-1]
    rules = rules_at(info, players)
    usual = drawing_strategy(info)
    base = [parse_strategy(usual, info.strategies)] * players
    others = [name for name in info.strategies if name != usual]
    moved = 0
    for other in others:
        for g in range(CHANCE_GAMES):
            seat = g % players
            changed = list(base)
            changed[seat] = parse_strategy(other, info.strategies)
            before = reference.play_game(rules, base, 5, g)
            after = reference.play_game(rules, changed, 5, g)
            a, b = draws(before, players), draws(after, players)
            for q in range(players):
                if q == seat:
                    continue
                k = min(len(a[q]), len(b[q]))  # the game may end sooner or later
                _require(k > 0, f"chance_draws gives seat {q} no draws in seed 5 game {g}")
                first = next((i for i in range(k) if a[q][i] != b[q][i]), None)
                _require(first is None, f"seat {seat} playing {other} instead of {usual} (the other seats play "
                         f"{usual}) moves seat {q}'s chance draws in seed 5 game {g}, from draw {first}: a strategy "
                         "draws from a stream not its seat's, or the draws depend on the moves")
            seen = [(r.scores, r.win_units, getattr(r, "outcome", None), getattr(r, "length", None))
                    for r in (before, after)]
            moved += seen[0] != seen[1]
    if not others:
        return "one strategy: no other to change a seat to"
    _require(moved > 0, "changing a seat's strategy never changed a game: the check would be empty")
    return (f"each of {players} seats changed in turn to {', '.join(others)}: no other seat's draws moved "
            f"({moved} of {CHANCE_GAMES * len(others)} games changed)")


def check_wins(info: GameInfo) -> str:
    """A finished competitive game hands out one win (a k-way tie WIN_UNIT/k each), a
    cooperative one the team's result to every seat, and a capped game none: under the default
    rules, and under the declaration's ``capped_by`` rules, which must cap some games."""
    counts = player_counts(info)
    capped = sum(_wins_hold(info, players, rules_at(info, players), "") for players in counts)
    played = f"300 games at {_listed(counts)} players"
    if info.capped_by:
        setting = ", ".join(f"{key}={value!r}" for key, value in info.capped_by)
        try:
            rules = [rules_at(info, players, **dict(info.capped_by)) for players in counts]
        except BalanceError as e:
            raise ContractFailure(f"the declaration's capped_by rules ({setting}) are refused: {e}") from None
        forced = sum(_wins_hold(info, r.players, r, f" under {setting}") for r in rules)
        _require(forced, f"the declaration's capped_by rules ({setting}) capped none of "
                 f"{300 * len(counts):,} games")
        capped += forced
        played += f", and as many under {setting},"
    cap = (f"{counted(capped, 'capped game')} among them" if capped else
           "no game reached the turn cap, so a capped game's result went unchecked; a game with "
           "a cap declares capped_by")
    return f"{played} hand out the {info.kind.value} results ({cap})"


def _wins_hold(info: GameInfo, players: int, rules, under: str) -> int:
    """Play 300 games (seed 2) and check every seat's result; the number of capped games."""
    import polars as pl

    from balance.core.game import CAPPED

    capped = info.capped_code
    engine = engine_for(info, rules, [drawing_strategy(info)])
    chunk = engine.play(2, 0, 300)
    total = chunk.win_units.sum(axis=1)
    where = f"at {players} players{under}, seed 2 game"
    _first_bad(total[chunk.outcome == capped] == 0, np.flatnonzero(chunk.outcome == capped),
               f"{where} {{}}: capped, yet it hands out a win")
    if info.cooperative:
        _first_bad((chunk.win_units == chunk.win_units[:, :1]).all(axis=1), np.arange(300),
                   f"{where} {{}}: the seats of a cooperative game get different results")
        _first_bad(np.isin(chunk.win_units, [0, WIN_UNIT]).all(axis=1), np.arange(300),
                   f"{where} {{}}: a cooperative seat gets neither 0 nor {WIN_UNIT}")
    else:
        done = np.flatnonzero(chunk.outcome != capped)
        _first_bad(total[done] == WIN_UNIT, done, f"{where} {{}}: finished, but the win shares "
                   f"do not sum to {WIN_UNIT}")
        shares = [0] + [WIN_UNIT // k for k in range(1, players + 1)]  # a k-way tie: 60/k each
        _first_bad(np.isin(chunk.win_units, shares).all(axis=1), np.arange(300),
                   f"{where} {{}}: a win share that is not {WIN_UNIT}/k")
    outcomes = engine.all_tables(chunk.totals)["outcomes"]
    _require(outcomes["games"].sum() == 300, f"at {players} players{under} the outcomes table counts "
             f"{outcomes['games'].sum()} of 300 games")
    _require(outcomes.filter(pl.col("outcome") == CAPPED)["won"].to_list() == [0],
             f"at {players} players{under} the outcomes table counts wins in capped games")
    return int((chunk.outcome == capped).sum())


def _first_bad(ok: np.ndarray, games: np.ndarray, message: str) -> None:
    """Fail naming the first game (of ``games``, where ``ok`` is False) in ``message``'s {}."""
    bad = np.flatnonzero(~ok)
    if len(bad):
        raise ContractFailure(message.format(int(games[bad[0]])))


def check_metrics(info: GameInfo) -> str:
    """What compare pairs per game: seats first, int64, as many names as units, scales and
    bounds, every value within its bounds, the seats' shares at most one win."""
    from balance.analysis.compare import seat_metric_count

    players = player_counts(info)[-1]
    rules = rules_at(info, players)
    metrics = info.part("metrics").compare_metrics([rules], players)
    seats = seat_metric_count(metrics, players)  # 0 for a cooperative game
    _require(seats == (0 if info.cooperative else players),
             f"{seats} seat metrics for a {info.kind.value} game at {players} players")
    _require(metrics.names[:seats] == [f"win_share_seat{s}" for s in range(seats)],
             f"the first metrics are {metrics.names[:seats]}, not the seats' win_share_seatS")
    sizes = [len(metrics.names), len(metrics.units), len(metrics.scales), len(metrics.bounds(rules))]
    _require(len(set(sizes)) == 1, f"names, units, scales and bounds have lengths {sizes}")
    values = metrics.per_game(engine_for(info, rules, [drawing_strategy(info)]).play(4, 0, 400), rules)
    _require(values.dtype == np.int64 and values.shape == (400, sizes[0]),
             f"per_game gives {values.dtype} {values.shape}, not int64 (400, {sizes[0]})")
    unscaled = values / metrics.scales
    outside = (unscaled < 0) | (unscaled > np.asarray(metrics.bounds(rules)) + 1e-12)
    if outside.any():
        game, column = (int(x) for x in np.argwhere(outside)[0])
        raise ContractFailure(f"{metrics.names[column]} is {unscaled[game, column]:g} in seed 4 game {game}, "
                              f"outside 0..{metrics.bounds(rules)[column]:g}")
    _require(np.all(unscaled[:, :seats].sum(axis=1) <= 1 + 1e-12), "the seats' win shares sum above one win")
    return f"{sizes[0]} metrics, within their bounds in 400 games at {players} players"


def _listed(counts: list[int]) -> str:
    return ", ".join(map(str, counts))


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[..., str]  # run(info) -> what it verified, or run(info, games) when takes_games
    takes_games: bool = False

    @property
    def what(self) -> str:
        """The first paragraph of the check's docstring, in one line."""
        return " ".join(self.run.__doc__.split("\n\n")[0].split())


CHECKS = {c.name: c for c in (
    Check("declaration", check_declaration),
    Check("rules", check_rules),
    Check("levers", check_levers),
    Check("reference", check_reference, takes_games=True),
    Check("chunks", check_chunks),
    Check("replay", check_replay),
    Check("chance", check_chance),
    Check("wins", check_wins),
    Check("metrics", check_metrics),
)}


@dataclass(frozen=True)
class Outcome:
    name: str
    passed: bool
    line: str  # what was verified, or what broke
    seconds: float


def run_check(check: Check, info: GameInfo, games: int | None = None) -> Outcome:
    """Run one check; a failure, or an exception from the game's own code, becomes its line."""
    import time

    start = time.perf_counter()
    try:
        line = check.run(info, games) if check.takes_games else check.run(info)
        passed = True
    except (ContractFailure, BalanceError) as e:
        line, passed = str(e), False
    except Exception as e:  # the game's code raised: name where, as a test runner would
        line, passed = _raised(e, info), False
    return Outcome(check.name, passed, line, time.perf_counter() - start)


def _raised(error: Exception, info: GameInfo) -> str:
    """One line for an exception: its type, its message's first line (a numba typing error
    runs to forty), and the deepest frame in the game's own package (else the deepest)."""
    import sys
    import traceback
    from pathlib import Path

    frames = traceback.extract_tb(error.__traceback__)
    module = sys.modules.get(info.module)
    home = Path(module.__file__).parent if module is not None and getattr(module, "__file__", None) else None
    own = [f for f in frames if home is not None and Path(f.filename).is_relative_to(home)]
    frame = (own or frames)[-1]
    at = f"{frame.filename}:{frame.lineno}"
    compiled = re.search(r'File "([^"]+)", line (\d+)', str(error))  # numba names the jitted source line
    if compiled is not None:
        at = f"{compiled[1]}:{compiled[2]}"
    lines = str(error).strip().splitlines() or [""]
    more = f" (and {counted(len(lines) - 1, 'more line')})" if len(lines) > 1 else ""
    return f"raised {type(error).__name__}: {lines[0]}{more} (at {at})"
