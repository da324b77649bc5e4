"""Python side of the kernel: the rules row, the state arrays, one game for the tests."""
from __future__ import annotations

import numpy as np

from balance.core.rng import PyStream

from .board import MODE_BASES, MODE_CARDS
from .layout import (F_N, MAX_DEPTH, C_N, CAP, DECK, GREEDY, MAX_GRANTS, MAX_OPTIONS, MAX_PLAYERS, MAX_SLOTS,
                     P_N, RANDOM, S_N, T_N, n_lists, BASELINE_DENY, BASELINE_READY, STRAT_N, SW_DENY,
                     SW_READY)
from ..rules import SWITCHES
from .tables import card_tables
from .layout import O_N
from .turn import play_game

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
                     int(rules.tiger_assassin_any_base), int(rules.homeworld_each_time), mode], np.int64)


def new_state(rules, strategies, mode=MODE_BASES | MODE_CARDS):
    """The state tuple ``st`` for games under ``rules``; ``strategies``: per seat a name or a
    Strategy (``strategy_row``)."""
    defs, decks, bases, prog = card_tables(rules.catalogue(), switches_on(rules))
    ncards = MAX_PLAYERS * DECK
    st = (np.zeros((ncards, C_N), np.int64), np.zeros((n_lists(ncards), CAP), np.int64),
          np.zeros(n_lists(ncards), np.int64), np.zeros((MAX_SLOTS, S_N), np.int64),
          np.zeros((MAX_PLAYERS, P_N), np.int64), np.zeros(T_N, np.int64),
          np.zeros((MAX_GRANTS, 2), np.int64), defs, bases, rules_row(rules, mode),
          np.zeros(1 + MAX_PLAYERS, np.uint64), strategy_row(strategies),
          np.zeros((MAX_OPTIONS, 3), np.int64), np.zeros(O_N, np.int64),
          np.zeros((MAX_DEPTH, F_N), np.int64), np.zeros((MAX_DEPTH, CAP), np.int64), prog)
    return st, decks


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
    """One game (for tests): the state tuple after it (``st[13]`` its stats row)."""
    st, decks = new_state(rules, strategies, mode)
    states = st[10]
    for s in range(len(states)):
        states[s] = np.uint64(PyStream(seed, game, s).state)
    play_game(st, deck_rows(decks, factions))
    return st
