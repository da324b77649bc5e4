"""Python side of the smash-up kernel: arrays in, a Chunk with the core counters and the
game's per-base table out."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import polars as pl

from balance.core import kit, schema
from balance.core.counters import BaseEngine, Chunk
from balance.core.errors import BalanceError
from balance.core.strategy import Strategy

from . import CAPPED_CODE, FINISHED, GAME
from .catalogue import FACTIONS
from .metrics import SCORE_ROOM
from .rules import Rules
from .tables import BASES

PAIRS = list(combinations(range(len(FACTIONS)), 2))  # the 28 sides, catalogue order


def side_names(rules: Rules) -> list[str]:
    """The faction pairs a seat can play (what --side accepts), in side-index order."""
    return [f"{FACTIONS[a]}+{FACTIONS[b]}" for a, b in PAIRS]


def canonical_side(rules: Rules, name: str) -> str:
    """``Robots+Aliens`` (any order, any case) as its side name ``Aliens+Robots``; a name
    that is not two known factions is returned as given (the caller lists the allowed ones)."""
    parts = [p.strip() for p in name.split("+")]
    known = {f.lower(): f for f in FACTIONS}
    if len(parts) != 2 or not all(p.lower() in known for p in parts):
        return name
    a, b = sorted((known[p.lower()] for p in parts), key=FACTIONS.index)
    return f"{a}+{b}"


def factions_of(side: int) -> tuple[str, str]:
    a, b = PAIRS[side]
    return FACTIONS[a], FACTIONS[b]


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, each seat on a faction pair.

    sides: each seat's pair (side index into ``side_names``; no faction in two seats), or None:
    every game draws them from its own stream. Table ``bases`` besides the core ones."""

    GAME = GAME

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None, card_strength=None):
        from .kernel.games import CAPPED, FINISHED as K_FINISHED
        from .kernel.run import new_state
        from .kernel.tables import card_tables

        assert (K_FINISHED, CAPPED) == (FINISHED, CAPPED_CODE)
        if card_strength is not None:
            raise BalanceError("smash-up has no card strength by restricted play yet (issue 11); "
                               "run it without --card-strength")
        if len(strategies) != rules.players:
            raise BalanceError(f"{len(strategies)} strategies for {rules.players} players")
        self.rules = rules
        self.strategies = list(strategies)
        self.side_names = side_names(rules)
        if sides is not None:
            sides = tuple(int(s) for s in sides)
            if len(sides) != rules.players or not all(0 <= s < len(PAIRS) for s in sides):
                raise BalanceError(f"sides {list(sides)}: give one faction pair per seat, each "
                                   f"0..{len(PAIRS) - 1}")
            used = [f for s in sides for f in factions_of(s)]
            twice = sorted({f for f in used if used.count(f) > 1})
            if twice:
                raise BalanceError(f"{', '.join(twice)} would play in two seats' pairs "
                                   f"({', '.join(self.side_names[s] for s in sides)}); each "
                                   "faction has one deck: give pairs with no faction in common")
        self.given_sides = sides
        self.given = np.array(sides if sides is not None else [-1] * rules.players, np.int64)
        self.state, decks = new_state(rules, [s.name for s in strategies])  # a template: play copies it
        self.faction_decks = np.array([decks[f] for f in FACTIONS], np.int64)
        self.pairs = np.array(PAIRS, np.int64)
        self.pair_of = np.full((len(FACTIONS), len(FACTIONS)), -1, np.int64)
        for i, (a, b) in enumerate(PAIRS):
            self.pair_of[a, b] = i
        _, _, self.bases = card_tables(rules.tricksters, rules.trickster_bases)
        self.max_score = rules.vp_to_win + SCORE_ROOM
        self.max_length = rules.max_turns

    def game_totals(self) -> dict:
        from .kernel.layout import BST_N, N_BASE_DEFS

        return {"base_stats": np.zeros(N_BASE_DEFS * BST_N, np.int64)}

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        from .kernel.games import play_games

        p = self.rules.players
        win_units = np.zeros((n_games, p), np.int32)
        scores = np.zeros((n_games, p), np.int32)
        outcome = np.zeros(n_games, np.int8)
        length = np.zeros(n_games, np.int32)
        sides = np.zeros((n_games, p), np.int16)
        totals = self.empty_totals()
        # a fresh copy of the state per call: threads of one process share this engine
        state = tuple(a.copy() for a in self.state)
        play_games(state, self.faction_decks, self.pairs, self.pair_of, self.given,
                   np.uint64(seed), first_game, n_games, win_units, scores, outcome, length,
                   sides, totals["base_stats"])
        if n_games and scores.max() > self.max_score:  # cannot happen short of a runaway bug
            raise BalanceError(f"a game reached {scores.max()} VP, above the score histogram's "
                               f"{self.max_score}; report this")
        chunk = Chunk(first_game, win_units, outcome, length, scores, sides, {}, totals)
        kit.fold_chunk(chunk, totals)
        return chunk

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        from .kernel.names import BASE_NAMES
        from .kernel.layout import (BST_DECIDED, BST_ENTERED, BST_N, BST_SCORED, BST_TURNS,
                                  BST_TURNS_SQ, BST_VP1, BST_VP2, BST_VP3)

        b = totals["base_stats"].reshape(-1, BST_N)[:len(self.bases)]
        return {"bases": schema.frame({
            "players": [self.rules.players] * len(b),
            "base": [BASE_NAMES[row[0]] for row in self.bases],
            "entered": b[:, BST_ENTERED], "scored": b[:, BST_SCORED],
            "turns_sum": b[:, BST_TURNS], "turns_sq_sum": b[:, BST_TURNS_SQ],
            "vp_first": b[:, BST_VP1], "vp_second": b[:, BST_VP2], "vp_third": b[:, BST_VP3],
            "decided": b[:, BST_DECIDED],
        }, BASES)}
