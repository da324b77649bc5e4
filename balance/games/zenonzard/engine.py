"""Python side of the zenonzard kernel: decks and sides in, a Chunk with the core counters and
the game's ``decks`` and ``forces`` tables out."""
from __future__ import annotations

import numpy as np
import polars as pl

from balance.core import kit, schema
from balance.core.counters import BaseEngine, Chunk
from balance.core.errors import BalanceError
from balance.core.game import WIN_UNIT
from balance.core.strategy import Strategy

from . import GAME
from .catalogue import forces
from .decks import run_decks
from .rules import Rules
from .sides import PAIRS, Side, pair_name, parse_side, read_side, side_names  # noqa: F401 (the interface)
from .tables import DECKS, FORCES as FORCES_TABLE, GAME_COLUMNS

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

        if card_strength is not None:
            raise BalanceError("zenonzard has no restricted play yet; run it without --card-strength")
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
        self.given_deck = np.array(chosen, np.int64)
        self.given_pair = np.array([-1 if p.pair is None else p.pair for p in parsed], np.int64)
        self.pool = np.stack([K.deck_rows(d.cards) for d in self.decks])
        self.sizes = np.array([len(d.cards) for d in self.decks], np.int64)
        self.pairs = np.array(PAIRS, np.int64)
        self.lives = np.array([f.life for f in forces()], np.int64)
        self.state = K.new_state(rules, strategies)  # a template: play copies it
        self.max_score = 0
        self.max_length = rules.turn_cap or rules.turn_bound

    def game_totals(self) -> dict:
        n = len(self.decks)
        # deck_stats[seat, deck, opponent deck, (games, wins)]; force_stats[seat, pair, FS_*]
        return {"deck_stats": np.zeros((2, n, n, 2), np.int64),
                "force_stats": np.zeros((2, len(PAIRS), 4), np.int64)}

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        from .kernel import play_games

        totals = self.empty_totals()
        state = self.state.copy()  # a fresh copy per call: threads of one process share this engine
        n = n_games
        games = np.arange(first_game, first_game + n, dtype=np.int64)
        winner, turns, end = (np.zeros(n, np.int64) for _ in range(3))
        life, destroyed, deck_of, pair_of = (np.zeros((n, 2), np.int64) for _ in range(4))
        play_games(state[0], self.pool, self.sizes, self.n_drawn, self.given_deck, self.given_pair,
                   self.rules.mirror_decks, self.pairs, self.lives, np.uint64(seed), games, winner, turns, end,
                   life, destroyed, deck_of, pair_of)
        won = np.zeros((n, 2), np.int64)
        for s in range(2):
            won[:, s] = winner == s
        chunk = Chunk(first_game, (won * WIN_UNIT).astype(np.int32), end.astype(np.int8), turns.astype(np.int32),
                      None, pair_of.astype(np.int16),
                      {"deck": deck_of, "life_left": life, "forces_lost": destroyed}, totals)
        kit.fold_chunk(chunk, totals)
        for s in range(2):
            np.add.at(totals["deck_stats"], (s, deck_of[:, s], deck_of[:, 1 - s], 0), 1)
            np.add.at(totals["deck_stats"], (s, deck_of[:, s], deck_of[:, 1 - s], 1), won[:, s])
            for k, column in enumerate((np.ones(n, np.int64), won[:, s], destroyed[:, s], life[:, s])):
                np.add.at(totals["force_stats"], (s, pair_of[:, s], k), column)
        return chunk

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
        return out

    def game_columns(self, chunk: Chunk) -> dict:
        """The game's --keep-games columns of a chunk (tables.GAME_COLUMNS), flat [n * P]."""
        names = np.array([d.name for d in self.decks])
        return {"deck": names[chunk.columns["deck"].ravel()], "life_left": chunk.columns["life_left"].ravel(),
                "forces_lost": chunk.columns["forces_lost"].ravel()}
