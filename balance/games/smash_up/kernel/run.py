"""Python side of the kernel: the rules row, the state arrays, one game for the tests."""
from __future__ import annotations

import numpy as np

from balance.core.rng import PyStream

from .board import MODE_BASES, MODE_CARDS, R_N
from .layout import (F_N, MAX_DEFS, MAX_DEPTH, MAX_PROG, C_N, CAP, DECK, GREEDY, MAX_GRANTS, MAX_OPTIONS,
                     MAX_PLAYERS, MAX_SLOTS, N_BASE_DEFS, O_N, P_N, PB_WANT, PROBE_ROWS, RANDOM, S_N, SNAP_AT,
                     SNAP_SAVED, STATE_FIELDS, T_N, n_lists, BASELINE_DENY, BASELINE_READY, STRAT_N, SW_DENY, SW_READY)
from .names import CARD_NAMES
from .opcodes import I_N
from ..rules import SWITCHES
from .tables import BS_N, D_N, card_tables
from .turn import play_game

assert PB_WANT + len(CARD_NAMES) <= PROBE_ROWS  # a want's probe row per card name

STRATEGY_IDS = {"random": RANDOM, "greedy": GREEDY, "planner": GREEDY}  # a planner plays as greedy


def strategy_row(strategies) -> np.ndarray:
    """``strat`` int64[STRAT_N] (layout): per seat its kernel strategy and V weights (percent).
    strategies: per seat a name (the baseline's weights) or a Strategy (a planner's own)."""
    row = np.zeros(STRAT_N, np.int64)
    for p, s in enumerate(strategies):
        name = s if isinstance(s, str) else s.name
        ready, deny = BASELINE_READY, BASELINE_DENY
        if name == "planner" and not isinstance(s, str):
            ready, deny = (int(v) for v in s.values)
        row[p], row[SW_READY + 2 * p], row[SW_DENY + 2 * p] = STRATEGY_IDS[name], ready, deny
    return row


def rules_row(rules, mode=MODE_BASES | MODE_CARDS) -> np.ndarray:
    return np.array([rules.players, rules.vp_to_win, rules.minion_plays, rules.action_plays,
                     rules.hand_size, int(rules.mulligan), rules.draw, rules.hand_limit,
                     rules.bases_in_play, rules.max_turns, int(rules.tricksters == "2012"),
                     int(rules.trickster_bases == "2012"), int(rules.collector_excludes_collectors),
                     int(rules.tiger_assassin_any_base), int(rules.homeworld_each_time), mode,
                     *(rules.seat_start_vp(p) for p in range(MAX_PLAYERS)),
                     *(rules.opening_hand(p) for p in range(MAX_PLAYERS))], np.int64)


def state_dtype() -> np.dtype:
    """The state record's type (``layout``): every field's shape is fixed (the most players,
    cards, definitions and program rows any run has), so the kernel compiles once for all runs."""
    ncards, nl = MAX_PLAYERS * DECK, n_lists(MAX_PLAYERS * DECK)
    shapes = {"cs": (ncards, C_N), "lst": (nl, CAP), "ln": (nl,), "ss": (MAX_SLOTS, S_N),
              "ps": (MAX_PLAYERS, P_N), "tv": (T_N,), "gr": (MAX_GRANTS, 2), "defs": (MAX_DEFS, D_N),
              "bases": (N_BASE_DEFS, BS_N), "rs": (R_N,), "states": (1 + MAX_PLAYERS,), "strat": (STRAT_N,),
              "opt": (MAX_OPTIONS, 3), "stats": (O_N,), "fs": (MAX_DEPTH, F_N), "sc": (MAX_DEPTH, CAP),
              "pg": (MAX_PROG, I_N)}
    # then the look-ahead's saved state and the probes' counters (``layout.PB_*``), which only a
    # probed build writes (neither unpacked)
    return np.dtype([(f, np.uint64 if f == "states" else np.int64, shapes[f]) for f in STATE_FIELDS]
                    + [("snap", np.int64, (SNAP_AT + sum(int(np.prod(shapes[f])) for f in SNAP_SAVED),)),
                       ("snap_states", np.uint64, (1 + MAX_PLAYERS,)),
                       ("probe", np.int64, (PROBE_ROWS, 3))])


STATE = state_dtype()


def new_state(rules, strategies, mode=MODE_BASES | MODE_CARDS):
    """(``box``, decks): ``box`` a one-element array of ``STATE`` for games under ``rules``, the
    kernel's state ``st`` is ``box[0]`` (a record that views the array, so the kernel's writes
    land in ``box``); ``strategies``: per seat a name or a Strategy (``strategy_row``)."""
    defs, decks, bases, prog = card_tables(rules.catalogue(), switches_on(rules))
    box = np.zeros(1, STATE)
    st = box[0]
    for name, table, limit in (("defs", defs, MAX_DEFS), ("pg", prog, MAX_PROG)):
        if len(table) > limit:  # the layout's bound, not a user's input: a card list grew past it
            raise ValueError(f"{len(table)} {name} rows exceed the state's {limit}; raise the bound in layout.py")
        st[name][:len(table), :table.shape[1]] = table  # defs' rows are padded (D_COLS of D_N, pow2), pg's not
    st["bases"][:, :bases.shape[1]] = bases
    st["rs"][:] = rules_row(rules, mode)
    st["strat"][:] = strategy_row(strategies)
    return box, decks


def fields(box) -> tuple:
    """The state's arrays (views into ``box``), in ``STATE_FIELDS`` order: ``fields(box)[13]``
    is the stats row."""
    return tuple(box[0][f] for f in STATE_FIELDS)


def switches_on(rules) -> frozenset:
    """The rules switches that are on (``tables.card_tables``: a switch may change a program)."""
    return frozenset(s for s in SWITCHES if getattr(rules, s))


def deck_rows(decks, factions) -> np.ndarray:
    return np.array([decks[a] + decks[b] for a, b in factions], np.int64)


def play_one(rules, factions, strategies, seed=0, game=0, mode=MODE_BASES | MODE_CARDS):
    """One game (for tests): returns (winner seat or -1, turns, VP per seat)."""
    out = played_game(rules, factions, strategies, seed, game, mode)[13]
    return int(out[0]), int(out[1]), [int(v) for v in out[2:2 + rules.players]]


def played_game(rules, factions, strategies, seed=0, game=0, mode=MODE_BASES | MODE_CARDS):
    """One game (for tests): the state's arrays after it (``fields``; ``[13]`` its stats row)."""
    box, decks = new_state(rules, strategies, mode)
    states = box[0]["states"]
    for s in range(len(states)):
        states[s] = np.uint64(PyStream(seed, game, s).state)
    play_game(box[0], deck_rows(decks, factions))
    return fields(box)
