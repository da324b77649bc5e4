"""Python side of the zenonzard kernel: decks and sides in, a Chunk with the core counters and
the game's ``decks``, ``forces`` and ``cards_played`` tables out, and with a CardStrengthPlan the
``card_strength`` table (each card swapped for a vanilla stand-in, the same games again)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.core import card_trials, kit, schema
from balance.core.counters import BaseEngine, Chunk
from balance.core.errors import BalanceError, one_of
from balance.core.game import WIN_UNIT
from balance.core.strategy import Strategy

from . import GAME
from .catalogue import FIELD, Card, forces, stat_medians
from .decks import run_decks
from .rules import Rules
from .sides import PAIRS, Side, pair_name, parse_side, read_side, side_names  # noqa: F401 (the interface)
from .tables import CARDS_PLAYED, DECKS, FORCES as FORCES_TABLE, GAME_COLUMNS

WHEN = ("always",)  # GameInfo.restrict_modes


def card_label(card: Card) -> str:
    """How tables and --card name a card: its English name (else Japanese) and first id."""
    return f"{card.name_en or card.name} ({card.id})"


def field_cards(decks) -> list[Card]:
    """The distinct field minions of ``decks`` (by name: reprints share one), each name's first
    printing in deck order: the cards the cards tables and card strength count."""
    seen, out = set(), []
    for deck in decks:
        for c in deck.cards:
            if c.kind == FIELD and c.name not in seen:
                seen.add(c.name)
                out.append(c)
    return out


@dataclass(frozen=True)
class CardStrengthPlan:
    """Card strength by restricted play inside a run (``simulate --card-strength``).

    Every game of the run in which a seat's deck holds a card of ``cards`` (field minion names,
    Japanese as printed; empty: every field minion of the run's decks) is played again with
    every copy of it in that seat's deck swapped for a vanilla stand-in: a field minion of the
    same cost, colours and colour part with the median BP and DP of its cost and no keyword
    (``stand_in``). The same random streams: the same sides, shuffles (the deck keeps its size
    and order) and strategy draws until the games part. When both seats hold the card, each is
    swapped in a replay of its own. ``run_games``: the run's game count (kept for the record).
    """

    when: str
    run_games: int
    cards: tuple[str, ...]


def card_strength_plan(rules: Rules, when: str, run_games: int, cards=None) -> CardStrengthPlan:
    """A validated plan; ``cards`` as ids or English or Japanese names (any case) of field
    minions the rules can play; None: every field minion of each block's decks."""
    from .decks import named_card

    if when not in WHEN:
        raise one_of("card-strength mode", when, list(WHEN))
    names = []
    for given in cards or ():
        card = named_card(str(given), rules, "--card: ")
        if card.kind != FIELD:
            raise BalanceError(f"--card {given!r}: {card_label(card)} is a {card.kind} card; card strength swaps "
                               "field minions (the only cards v1 summons)")
        names.append(card.name)
    if len(set(names)) != len(names):
        raise BalanceError(f"the cards to measure repeat a card: {', '.join(map(str, cards))}")
    return CardStrengthPlan(when, run_games, tuple(names))


def stand_in(row: np.ndarray) -> np.ndarray:
    """A kernel card row (``kernel.CF_*``) as its vanilla stand-in: the same kind, colours,
    cost and colour part; the median BP and DP of the printed minions of its cost (the top
    known cost above 10); no keyword."""
    from .kernel import CF_BP, CF_COST, CF_DP, CF_KW

    medians = stat_medians()
    cost = int(row[CF_COST])
    bp, dp = medians.get(cost) or medians[max(k for k in medians if k <= cost)]
    out = row.copy()
    out[CF_BP], out[CF_DP], out[CF_KW] = bp, dp, 0
    return out

def _add_counts(target: np.ndarray, rows: np.ndarray, columns) -> None:
    """target[..., k] += the sum of ``columns[k]`` (int64[n] each) per flat row index ``rows``
    (int64[n] into target's leading axes, flattened): np.add.at, as bincounts (exact for
    integers below 2**53)."""
    flat = target.reshape(-1, target.shape[-1])
    for k, column in enumerate(columns):
        flat[:, k] += np.rint(np.bincount(rows, weights=column, minlength=flat.shape[0])).astype(np.int64)


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat, each seat on a deck and a
    Force pair.

    sides: per seat a side's text (``sides.parse_side``: deck and Force pair, either may be
    left to draw), or None: both drawn every game. The counters' side is the Force pair; the
    deck is counted in the ``decks`` table."""

    GAME = GAME
    GAME_COLUMNS = GAME_COLUMNS

    def __init__(self, rules: Rules, strategies: list[Strategy], sides=None, card_strength=None):
        from . import kernel as K

        if len(strategies) != rules.players:
            raise BalanceError(f"{len(strategies)} strategies for {rules.players} players")
        self.rules = rules
        self.strategies = list(strategies)
        self.side_names = side_names(rules)
        self.given_sides = None if sides is None else tuple(parse_side(rules, s) for s in sides)
        parsed = [read_side(s) for s in self.given_sides] if sides is not None else [Side(None, None)] * 2
        if len(parsed) != rules.players:
            raise BalanceError(f"sides {list(sides)}: give one side per seat")
        self.decks, self.n_drawn, chosen = run_decks(rules, parsed)
        if rules.mirror_decks and chosen[1] >= 0 and chosen[1] != chosen[0]:  # the mirror would be ignored
            raise BalanceError("mirror_decks=true gives seat 1 seat 0's deck, and seat 1 is given another deck "
                               "(by --side, or by --rotate moving a seat's given deck to seat 1); give one or "
                               "the other")
        self.given_deck = np.array(chosen, np.int64)
        self.given_pair = np.array([-1 if p.pair is None else p.pair for p in parsed], np.int64)
        self.pool = np.stack([K.deck_rows(d.cards) for d in self.decks])
        self.sizes = np.array([len(d.cards) for d in self.decks], np.int64)
        self.pairs = np.array(PAIRS, np.int64)
        self.lives = np.array([f.life for f in forces()], np.int64)
        self.state = K.new_state(rules, strategies)  # a template: play copies it
        # the cards tables: each deck slot's card (index into self.cards, -1 for mana and magic)
        self.cards = field_cards(self.decks)
        self.card_index = {c.name: i for i, c in enumerate(self.cards)}
        self.card_of = np.full((len(self.decks), K.MAX_DECK), -1, np.int64)
        for d, deck in enumerate(self.decks):
            for k, c in enumerate(deck.cards):
                self.card_of[d, k] = self.card_index.get(c.name, -1) if c.kind == FIELD else -1
        self.card_strength = card_strength
        if card_strength is not None:  # the plan's cards that these decks hold (indices into self.cards)
            wanted = card_strength.cards or tuple(c.name for c in self.cards)
            self.trials = [self.card_index[n] for n in wanted if n in self.card_index]
        # decks generated at random are a sample of what the generator deals: the card trials are
        # then also kept per deck, the units of the card test (card_trials.UNITS_TABLE)
        self.sampled = self.n_drawn > 0 and rules.decks != "reference"
        self.max_score = 0
        self.max_length = rules.turn_cap or rules.turn_bound

    @property
    def fixed_sides(self) -> tuple[bool, ...]:
        """Per seat, whether its Force pair (the counted side) was given: a side of a deck alone draws it."""
        return tuple(bool(p >= 0) for p in self.given_pair)

    def game_totals(self) -> dict:
        """deck_stats[seat, deck, opponent deck, (games, wins)]; force_stats[seat, pair, (games,
        wins, Forces lost, life left)]; card_stats[card, kernel.CS_*]; with a plan, card_trials
        [trial card, seat, CardTrial] and, for generated decks, card_unit_trials[trial card, deck,
        CardTrial] (by the denied seat's deck)."""
        from .kernel import CS_N

        n = len(self.decks)
        out = {"deck_stats": np.zeros((2, n, n, 2), np.int64),
               "force_stats": np.zeros((2, len(PAIRS), 4), np.int64),
               "card_stats": np.zeros((len(self.cards), CS_N), np.int64)}
        if self.card_strength is not None:
            out["card_trials"] = np.zeros((len(self.trials), 2, len(card_trials.CardTrial)), np.int64)
            if self.sampled:
                out["card_unit_trials"] = np.zeros((len(self.trials), n, len(card_trials.CardTrial)), np.int64)
        return out

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        totals = self.empty_totals()
        state = self.state.copy()  # a fresh copy per call: threads of one process share this engine
        n = n_games
        games = np.arange(first_game, first_game + n, dtype=np.int64)
        winner, turns, end, life, destroyed, deck_of, pair_of = self._kernel(
            state, seed, games, -1, self.pool, totals["card_stats"])
        won = self._won(winner)
        chunk = Chunk(first_game, (won * WIN_UNIT).astype(np.int32), end.astype(np.int8), turns.astype(np.int32),
                      None, pair_of.astype(np.int16),
                      {"deck": deck_of, "life_left": life, "forces_lost": destroyed}, totals)
        kit.fold_chunk(chunk, totals)
        d = len(self.decks)
        for s in range(2):
            _add_counts(totals["deck_stats"][s], deck_of[:, s] * d + deck_of[:, 1 - s],
                        (np.ones(n, np.int64), won[:, s]))
            _add_counts(totals["force_stats"][s], pair_of[:, s], (np.ones(n, np.int64), won[:, s], destroyed[:, s],
                                                                  life[:, s]))
        if self.card_strength is not None:
            self._play_swapped(state, seed, games, deck_of, won, totals["card_trials"], totals.get("card_unit_trials"))
        return chunk

    @staticmethod
    def _won(winner: np.ndarray) -> np.ndarray:
        """int64[n, 2]: 1 where the seat won."""
        return np.stack([winner == 0, winner == 1], axis=1).astype(np.int64)

    def _kernel(self, state, seed: int, games: np.ndarray, swap_seat: int, pool_swapped: np.ndarray,
                card_stats: np.ndarray):
        """kernel.play_games on ``games`` int64[n]: (winner, turns, end int64[n]; life, destroyed,
        deck_of, pair_of int64[n, 2]); ``card_stats`` (int64[C, CS_N], C = 0: not counted) is
        added to. ``state``: a copy of the state box (``kernel.new_state``)."""
        from .kernel import play_games

        n = len(games)
        winner, turns, end = (np.zeros(n, np.int64) for _ in range(3))
        life, destroyed, deck_of, pair_of = (np.zeros((n, 2), np.int64) for _ in range(4))
        play_games(state[0], self.pool, self.sizes, self.n_drawn, self.given_deck, self.given_pair,
                   self.rules.mirror_decks, self.pairs, self.lives, np.uint64(seed), games, winner, turns, end,
                   life, destroyed, deck_of, pair_of, swap_seat, pool_swapped, self.card_of, card_stats)
        return winner, turns, end, life, destroyed, deck_of, pair_of

    def swapped_pool(self, card: int) -> np.ndarray:
        """The decks with every copy of card ``card`` (an index into self.cards) swapped for
        its stand-in."""
        pool = self.pool.copy()
        for d, k in zip(*np.nonzero(self.card_of == card)):
            pool[d, k] = stand_in(self.pool[d, k])
        return pool

    def _play_swapped(self, state, seed: int, games: np.ndarray, deck_of: np.ndarray, won: np.ndarray,
                      trials: np.ndarray, by_deck: np.ndarray | None = None) -> None:
        """Replay the chunk's games once per plan card and seat whose deck holds it, that seat's
        copies swapped (``swapped_pool``); add the seat's paired win units into trials
        int64[len(self.trials), 2, len(CardTrial)] and, given, by_deck int64[len(self.trials),
        decks, len(CardTrial)] at that seat's deck."""
        from .kernel import CS_N

        no_cards = np.zeros((0, CS_N), np.int64)
        for i, card in enumerate(self.trials):
            holds = (self.card_of == card).any(axis=1)  # [D]: the decks holding it
            pool = None
            for s in range(2):
                rows = np.flatnonzero(holds[deck_of[:, s]])
                if not len(rows):
                    continue
                pool = self.swapped_pool(card) if pool is None else pool
                winner = self._kernel(state, seed, games[rows], s, pool, no_cards)[0]
                played, denied = won[rows, s] * WIN_UNIT, self._won(winner)[:, s] * WIN_UNIT
                card_trials.add_pairs(trials[i, s], played, denied)
                if by_deck is not None:
                    card_trials.add_unit_pairs(by_deck[i], deck_of[rows, s], played, denied)

    def replay(self, seed: int, games: np.ndarray, card: str | None, seat: int):
        """Games ``games`` int64[n] of the run with ``seed``, with every copy of the field minion
        named ``card`` swapped for its stand-in in seat ``seat``'s deck (None: as played):
        winner int64[n] (-1 capped)."""
        from .kernel import CS_N

        pool = self.pool if card is None else self.swapped_pool(self.card_index[card])
        return self._kernel(self.state.copy(), seed, np.ascontiguousarray(games, np.int64),
                            -1 if card is None else seat, pool, np.zeros((0, CS_N), np.int64))[0]

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        p = self.rules.players
        ds = totals["deck_stats"]
        seat, deck, opp = np.nonzero(ds[..., 0])
        features = [d.features(self.rules) for d in self.decks]
        colours = ["+".join(d.colours) for d in self.decks]
        decks = schema.frame({
            "players": [p] * len(seat), "seat": seat, "deck": [self.decks[d].name for d in deck],
            "colours": [colours[d] for d in deck], "curve": [self.decks[d].curve for d in deck],
            "opponent_deck": [self.decks[d].name for d in opp],
            "opponent_colours": [colours[d] for d in opp],
            "mean_cost": [features[d][0] for d in deck], "low_cost": [features[d][1] for d in deck],
            "keywords": [features[d][2] for d in deck],
            "games": ds[seat, deck, opp, 0], "wins": ds[seat, deck, opp, 1],
        }, DECKS)
        fs = totals["force_stats"]
        seat, pair = np.nonzero(fs[..., 0])
        life = {pair_name(i): self.rules.total_life - self.lives[list(PAIRS[i])].sum() for i in range(len(PAIRS))}
        out = {"decks": decks, "forces": schema.frame({
            "players": [p] * len(seat), "seat": seat, "forces": [pair_name(i) for i in pair],
            "player_life": [life[pair_name(i)] for i in pair],
            "games": fs[seat, pair, 0], "wins": fs[seat, pair, 1], "forces_lost": fs[seat, pair, 2],
            "life_left_sum": fs[seat, pair, 3]}, FORCES_TABLE)}
        cs = totals["card_stats"]
        from .kernel import CS_DRAWN, CS_DRAWN_WON, CS_IN_DECK, CS_IN_DECK_WON, CS_PLAYED, CS_PLAYED_WON

        out["cards_played"] = schema.frame({
            "players": [p] * len(self.cards), "card": [card_label(c) for c in self.cards],
            "colours": ["+".join(c.colours) for c in self.cards], "cost": [c.cost for c in self.cards],
            "in_deck": cs[:, CS_IN_DECK], "in_deck_won": cs[:, CS_IN_DECK_WON], "drawn": cs[:, CS_DRAWN],
            "drawn_won": cs[:, CS_DRAWN_WON], "played": cs[:, CS_PLAYED], "played_won": cs[:, CS_PLAYED_WON],
        }, CARDS_PLAYED)
        if self.card_strength is not None:
            out["card_strength"] = card_trials.frame(
                p, self.labels(), [card_label(self.cards[i]) for i in self.trials], self.card_strength.when,
                totals["card_trials"], pl.String)
            if "card_unit_trials" in totals:
                out[card_trials.UNITS_TABLE] = card_trials.unit_frame(
                    p, [card_label(self.cards[i]) for i in self.trials], [d.name for d in self.decks],
                    self.card_strength.when, totals["card_unit_trials"], pl.String)
        return out

    def game_columns(self, chunk: Chunk) -> dict:
        """The game's --keep-games columns of a chunk (tables.GAME_COLUMNS), flat [n * P]."""
        names = np.array([d.name for d in self.decks])
        return {"deck": names[chunk.columns["deck"].ravel()], "life_left": chunk.columns["life_left"].ravel(),
                "forces_lost": chunk.columns["forces_lost"].ravel()}
