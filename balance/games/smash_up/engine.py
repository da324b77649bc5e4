"""Python side of the smash-up kernel: arrays in, a Chunk with the core counters and the
game's per-base table out."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl

from balance.core import card_trials, kit, schema
from balance.core.counters import BaseEngine, Chunk, same_side_hint
from balance.core.errors import BalanceError, one_of
from balance.core.strategy import Strategy

from . import GAME
from .catalogue import FACTIONS
from .draft import draft_rates
from .metrics import SCORE_ROOM
from .rules import Rules
from .tables import BASES, CARDS_PLAYED

PAIRS = list(combinations(range(len(FACTIONS)), 2))  # the 28 sides, catalogue order


def side_names(rules: Rules) -> list[str]:
    """The faction pairs a seat can play (what --side accepts), in side-index order."""
    return [f"{FACTIONS[a]}+{FACTIONS[b]}" for a, b in PAIRS]


def canonical_side(rules: Rules, name: str) -> str:
    """``Robots+Aliens`` (any order, any case) as its side name ``Aliens+Robots``; a name
    that is not two known factions is returned as given (the caller lists the allowed ones);
    one faction twice is refused as such (a list of the 28 pairs would not say why)."""
    parts = [p.strip() for p in name.split("+")]
    known = {f.lower(): f for f in FACTIONS}
    if len(parts) != 2 or not all(p.lower() in known for p in parts):
        return name
    a, b = sorted((known[p.lower()] for p in parts), key=FACTIONS.index)
    if a == b:
        other = FACTIONS[1] if a == FACTIONS[0] else FACTIONS[0]
        raise BalanceError(f"faction pair {name!r} names {a} twice; a pair is two different factions, e.g. "
                           + "+".join(sorted((a, other), key=FACTIONS.index)))
    return f"{a}+{b}"


def factions_of(side: int) -> tuple[str, str]:
    a, b = PAIRS[side]
    return FACTIONS[a], FACTIONS[b]


@dataclass(frozen=True)
class CardStrengthPlan:
    """Card strength by restricted play inside a run (``simulate --card-strength``).

    Every game of the run in which a seat's faction pair holds a card of ``cards`` is played
    again with every copy of that card removed from that seat's deck (``when`` "always"), on
    the same random streams: the same sides, the same shuffle draws (the card is shuffled in
    and then taken out, so the rest of the deck keeps its order) and the same strategy draws
    until the games part. No faction is in two seats, so the seat is the card's own.
    ``run_games``: the run's game count per player count (kept for the run's record).
    """

    when: str
    run_games: int
    cards: tuple[str, ...]


WHEN = ("always",)  # GameInfo.restrict_modes


def card_strength_plan(rules: Rules, when: str, run_games: int, cards=None) -> CardStrengthPlan:
    """A validated plan: every card of the rules' card list (catalogue order) unless ``cards``
    names some (card names, any case; ``Faction: Card`` also accepted)."""
    if when not in WHEN:
        raise one_of("card-strength mode", when, list(WHEN))
    cat = rules.catalogue()
    faction_of = {c.name.lower(): (c.name, f) for f in FACTIONS for c in cat.factions[f]}
    names = [name for name, _ in faction_of.values()]  # catalogue order
    chosen = []
    for given in cards or names:
        faction, _, text = str(given).rpartition(":")
        name, owner = faction_of.get(text.strip().lower(), (None, None))
        if name is None:
            raise BalanceError(f"card {given!r} is not in the {rules.tricksters} card list; "
                               f"`balance cards smash-up` lists them (e.g. {', '.join(names[:3])})")
        if faction.strip() and faction.strip().lower() != owner.lower():
            raise BalanceError(f"card {given!r}: {name} is a card of the {owner}, not the {faction.strip()}")
        chosen.append(name)
    if len(set(chosen)) != len(chosen):
        raise BalanceError(f"the cards to measure repeat a card: {', '.join(chosen)}")
    return CardStrengthPlan(when, run_games, tuple(chosen))


def card_names(rules: Rules) -> list[str]:
    """Every card of the rules' card list, once, in catalogue order (names are unique)."""
    cat = rules.catalogue()
    return [c.name for f in FACTIONS for c in cat.factions[f]]


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, each seat on a faction pair.

    sides: each seat's pair (side index into ``side_names``; no faction in two seats), or None:
    every game draws them from its own stream (rules.factions "drawn") or the seats draft them
    ("draft"). Table ``bases`` besides the core ones, and ``card_strength`` with a
    CardStrengthPlan."""

    GAME = GAME

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None,
                 card_strength: CardStrengthPlan | None = None):
        from .kernel.games import DRAFT, DRAWN
        from .kernel.run import new_state
        from .kernel.layout import BST_N, CT_N, MAX_DEFS, N_BASE_DEFS
        from .kernel.tables import D_FACTION, card_tables

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
                                   f"faction has one deck: give pairs with no faction in common{same_side_hint(sides)}")
        if sides is not None and rules.factions == "draft":
            raise BalanceError("--side fixes every seat's factions, factions=draft drafts them; "
                               "give one or the other")
        self.given_sides = sides
        self.given = np.array(sides if sides is not None else
                              [DRAFT if rules.factions == "draft" else DRAWN] * rules.players, np.int64)
        self.rates = draft_rates()
        self.state, decks = new_state(rules, strategies)  # a template: play copies it
        self.faction_decks = np.array([decks[f] for f in FACTIONS], np.int64)
        self.pairs = np.array(PAIRS, np.int64)
        self.pair_of = np.full((len(FACTIONS), len(FACTIONS)), -1, np.int64)
        for i, (a, b) in enumerate(PAIRS):
            self.pair_of[a, b] = i
        defs, _, self.bases, _ = card_tables(rules.catalogue())
        self.def_factions = [FACTIONS[f] for f in defs[:, D_FACTION]]
        self.card_totals_shape = (MAX_DEFS, CT_N)
        self.card_strength = card_strength
        if card_strength is not None:  # each card's definition row and faction
            rows = {name: d for d, name in enumerate(card_names(rules))}
            self.trial_defs = np.array([rows[c] for c in card_strength.cards], np.int64)
            self.trial_factions = defs[self.trial_defs, D_FACTION]
        self.max_score = rules.vp_to_win + SCORE_ROOM
        self.base_stats_size = N_BASE_DEFS * BST_N
        self.max_length = rules.max_turns

    def game_totals(self) -> dict:
        out = {"base_stats": np.zeros(self.base_stats_size, np.int64),
               "card_play": np.zeros(self.card_totals_shape, np.int64)}
        if self.card_strength is not None:
            out["card_trials"] = np.zeros((len(self.card_strength.cards), self.rules.players,
                                           len(card_trials.CardTrial)), np.int64)
        return out

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        totals = self.empty_totals()
        # a fresh copy of the state per call: threads of one process share this engine
        state = self.state.copy()
        games = np.arange(first_game, first_game + n_games, dtype=np.int64)
        win_units, scores, outcome, length, sides = self._kernel(state, seed, games, -1,
                                                                 totals["base_stats"], totals["card_play"])
        if n_games and scores.max() > self.max_score:  # cannot happen short of a runaway bug
            raise BalanceError(f"a game reached {scores.max()} VP, above the score histogram's "
                               f"{self.max_score}; report this")
        chunk = Chunk(first_game, win_units, outcome, length, scores, sides, {}, totals)
        kit.fold_chunk(chunk, totals)
        if self.card_strength is not None:
            self._play_removed(state, seed, chunk, totals["card_trials"])
        return chunk

    def _play_removed(self, state, seed: int, chunk: Chunk, trials: np.ndarray) -> None:
        """Replay each game of the chunk in which a seat holds a plan card's faction with the
        card removed from that seat's deck; add the seat's paired win units into trials
        int64[len(cards), P, len(CardTrial)]."""
        held = self.pairs[chunk.sides.astype(np.int64)]  # [n, P, 2]: each seat's factions
        for i, (d, f) in enumerate(zip(self.trial_defs, self.trial_factions)):
            holder = (held == f).any(axis=2)  # [n, P]: at most one seat per game
            rows = np.flatnonzero(holder.any(axis=1))
            if not len(rows):
                continue
            seat = holder[rows].argmax(axis=1)
            units = self.replay(seed, chunk.first_game + rows.astype(np.int64), int(d), state)[0]
            for s in range(self.rules.players):
                mine = seat == s
                if mine.any():
                    card_trials.add_pairs(trials[i, s], chunk.win_units[rows[mine], s],
                                          units[mine, s])

    def replay(self, seed: int, games: np.ndarray, card_def: int, state=None):
        """Games ``games`` int64[n] of the run with ``seed``, card definition row ``card_def``
        removed from the deck of the seat whose pair holds it (-1: none): (win_units int32[n, P],
        scores int32[n, P], length int32[n]). The bases' counters are not kept."""
        state = self.state.copy() if state is None else state
        units, scores, _, length, _ = self._kernel(state, seed, np.ascontiguousarray(games, np.int64),
                                                   card_def, np.zeros(self.base_stats_size, np.int64),
                                                   np.zeros(self.card_totals_shape, np.int64))
        return units, scores, length

    def _kernel(self, state, seed: int, games: np.ndarray, removed: int, base_stats: np.ndarray,
                card_play: np.ndarray):
        """kernel.games.play_games on ``games`` int64[n]: (win_units int32[n, P], scores
        int32[n, P], outcome int8[n], length int32[n], sides int16[n, P]); base_stats and
        card_play (int64[MAX_DEFS, CT_N]) are added to. ``state``: a copy of the state box
        (``kernel.run.new_state``), whose record the kernel plays in."""
        from .kernel.games import play_games

        p, k = self.rules.players, len(games)
        win_units, scores = np.zeros((k, p), np.int32), np.zeros((k, p), np.int32)
        outcome, length, sides = np.zeros(k, np.int8), np.zeros(k, np.int32), np.zeros((k, p), np.int16)
        play_games(state[0], self.faction_decks, self.pairs, self.pair_of, self.given, self.rates,
                   np.uint64(seed), games, removed, win_units, scores, outcome, length, sides, base_stats,
                   card_play)
        return win_units, scores, outcome, length, sides

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        from .kernel.names import BASE_NAMES
        from .kernel.layout import (BST_DECIDED, BST_ENTERED, BST_N, BST_SCORED, BST_TURNS,
                                  BST_TURNS_SQ, BST_VP1, BST_VP2, BST_VP3, CT_IN_DECK,
                                  CT_IN_DECK_WON, CT_PLAYED, CT_PLAYED_WON)

        b = totals["base_stats"].reshape(-1, BST_N)[:len(self.bases)]
        out = {"bases": schema.frame({
            "players": [self.rules.players] * len(b),
            "base": [BASE_NAMES[row[0]] for row in self.bases],
            "entered": b[:, BST_ENTERED], "scored": b[:, BST_SCORED],
            "turns_sum": b[:, BST_TURNS], "turns_sq_sum": b[:, BST_TURNS_SQ],
            "vp_first": b[:, BST_VP1], "vp_second": b[:, BST_VP2], "vp_third": b[:, BST_VP3],
            "decided": b[:, BST_DECIDED],
        }, BASES)}
        names = card_names(self.rules)
        c = totals["card_play"][:len(names)]
        out["cards_played"] = schema.frame({
            "players": [self.rules.players] * len(names), "faction": self.def_factions, "card": names,
            "in_deck": c[:, CT_IN_DECK], "in_deck_won": c[:, CT_IN_DECK_WON],
            "played": c[:, CT_PLAYED], "played_won": c[:, CT_PLAYED_WON],
        }, CARDS_PLAYED)
        if self.card_strength is not None:
            out["card_strength"] = card_trials.frame(
                self.rules.players, self.labels(), list(self.card_strength.cards),
                self.card_strength.when, totals["card_trials"], pl.String)
        return out
