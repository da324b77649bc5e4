"""Python side of the avengers-cards kernel: prepares arrays, plays chunks, builds tables."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from balance import schema
from balance.strategy import Strategy

from . import kernel
from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Rules
from .strategies import MAX_PARAMS, scratch_size

TOTALS = ("seat_stats", "score_hist", "card_stats", "villain_stats", "pair_stats")


@dataclass
class Chunk:
    """One chunk's games: per-game rows (``first_game`` + row) and its summed counters."""

    first_game: int
    scores: np.ndarray  # int32[n, P]
    tokens: np.ndarray  # int32[n, P, 3]
    win_units: np.ndarray  # int32[n, P], win share x WIN_UNIT
    beaten: np.ndarray  # int32[n], villains beaten
    totals: dict  # name in TOTALS -> int64 array

    def totals_only(self) -> "Chunk":
        """The chunk without its per-game rows (what a worker sends back without keep_games)."""
        return Chunk(self.first_game, None, None, None, None, self.totals)


class Engine:
    """Plays games of one rules object with one strategy per seat."""

    def __init__(self, rules: Rules, strategies: list[Strategy], restrict: np.ndarray | None = None):
        """restrict int64[P, 2]: per seat a bitmask of banned card values and a ``Restrict``
        (when they are out of reach); default: no restriction."""
        assert len(strategies) == rules.players
        self.rules = rules
        self.strategies = strategies
        self.restrict = (np.zeros((rules.players, 2), np.int64) if restrict is None
                         else np.ascontiguousarray(restrict, np.int64))
        self.arrays = rules.to_kernel()
        self.sids = np.array([s.info.id for s in strategies], np.int64)
        self.prm = np.array([s.param_row(MAX_PARAMS) for s in strategies], np.float64)

    def empty_totals(self) -> dict:
        p = self.rules.players
        return {
            "seat_stats": np.zeros((p, len(SeatStat)), np.int64),
            "score_hist": np.zeros((p, self.rules.max_score + 1), np.int64),
            "card_stats": np.zeros((p, MAX_CARD + 1, len(CardStat)), np.int64),
            "villain_stats": np.zeros((len(self.rules.deck.ids), len(VillainStat)), np.int64),
            "pair_stats": np.zeros((p, p), np.int64),
        }

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        p = self.rules.players
        chunk = Chunk(
            first_game,
            np.zeros((n_games, p), np.int32),
            np.zeros((n_games, p, 3), np.int32),
            np.zeros((n_games, p), np.int32),
            np.zeros(n_games, np.int32),
            self.empty_totals(),
        )
        t = chunk.totals
        kernel.play_games(
            *self.arrays, self.sids, self.prm, self.restrict, np.uint64(seed), first_game, n_games,
            chunk.scores, chunk.tokens, chunk.win_units, chunk.beaten,
            t["seat_stats"], t["score_hist"], t["card_stats"], t["villain_stats"], t["pair_stats"],
            np.zeros(scratch_size(self.rules.tokens_per_colour), np.int64),
        )
        return chunk

    # ---- tables -------------------------------------------------------------------------------
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        """The aggregated tables of a run (see ``balance.schema``)."""
        rules, labels = self.rules, self.labels()
        n = rules.players
        seats = np.arange(n)
        ss = totals["seat_stats"]
        seat_table = schema.frame({
            "players": [n] * n, "seat": seats, "strategy": labels,
            "games": ss[:, SeatStat.GAMES],
            "win_share": ss[:, SeatStat.WIN_UNITS] / WIN_UNIT,
            "wins_outright": ss[:, SeatStat.WINS_OUTRIGHT],
            "wins_shared": ss[:, SeatStat.WINS_SHARED],
            "score_sum": ss[:, SeatStat.SCORE_SUM],
            "score_sq_sum": ss[:, SeatStat.SCORE_SQ_SUM],
            "win_share_sq_sum": ss[:, SeatStat.WIN_UNITS_SQ] / WIN_UNIT**2,
        }, schema.SEATS)

        hist = totals["score_hist"]
        seat_i, score_i = np.nonzero(hist)
        score_table = schema.frame({
            "players": np.full(len(seat_i), n), "seat": seat_i,
            "strategy": [labels[i] for i in seat_i], "score": score_i,
            "count": hist[seat_i, score_i],
        }, schema.SCORES)

        cs = totals["card_stats"]
        values = sorted(rules.hand)
        rows = [(p, v) for p in range(n) for v in values]
        c = np.array([cs[p, v] for p, v in rows]).reshape(len(rows), len(CardStat))
        card_table = schema.frame({
            "players": [n] * len(rows), "seat": [p for p, _ in rows],
            "strategy": [labels[p] for p, _ in rows], "card": [v for _, v in rows],
            "played": c[:, CardStat.PLAYED], "cancelled": c[:, CardStat.CANCELLED],
            "rewarded": c[:, CardStat.REWARDED], "tokens_gained": c[:, CardStat.TOKENS_GAINED],
            "lowest_on_defeat": c[:, CardStat.LOWEST_ON_DEFEAT],
            "tokens_lost": c[:, CardStat.TOKENS_LOST],
            "games_played": c[:, CardStat.GAMES_PLAYED],
            "win_share_played": c[:, CardStat.WIN_UNITS_PLAYED] / WIN_UNIT,
            "games_rewarded": c[:, CardStat.GAMES_REWARDED],
            "win_share_rewarded": c[:, CardStat.WIN_UNITS_REWARDED] / WIN_UNIT,
        }, schema.CARDS)

        vs = totals["villain_stats"]
        deck = rules.deck
        in_play = [i for i, b in enumerate(deck.battle) if b <= rules.battles]
        villain_table = schema.frame({
            "players": [n] * len(in_play), "villain": [deck.ids[i] for i in in_play],
            "battle": [deck.battle[i] for i in in_play],
            "strength": [deck.strength[i] for i in in_play],
            "fought": vs[in_play, VillainStat.FOUGHT], "beaten": vs[in_play, VillainStat.BEATEN],
            "reward_tokens": vs[in_play, VillainStat.REWARD_TOKENS],
            "centre_tokens": vs[in_play, VillainStat.CENTRE_TOKENS],
            "tokens_lost": vs[in_play, VillainStat.TOKENS_LOST],
        }, schema.VILLAINS)
        ahead = totals["pair_stats"]
        games = ss[:, SeatStat.GAMES]
        a, b = (x.ravel() for x in np.meshgrid(seats, seats, indexing="ij"))
        keep = a != b
        a, b = a[keep], b[keep]
        pair_table = schema.frame({
            "players": [n] * len(a), "seat": a, "strategy": [labels[i] for i in a],
            "opponent_seat": b, "opponent_strategy": [labels[i] for i in b],
            "games": games[a], "ahead": ahead[a, b], "level": games[a] - ahead[a, b] - ahead[b, a],
        }, schema.PAIRS)
        return {"seats": seat_table, "scores": score_table, "cards": card_table,
                "villains": villain_table, "pairs": pair_table}

    def games_table(self, chunk: Chunk) -> pl.DataFrame:
        """Per-game rows of a chunk: one row per game and seat (``--keep-games``)."""
        n_games, n = chunk.scores.shape
        game = np.repeat(np.arange(chunk.first_game, chunk.first_game + n_games), n)
        return schema.frame({
            "players": np.full(n_games * n, n), "game": game,
            "seat": np.tile(np.arange(n), n_games),
            "strategy": np.tile(np.array(self.labels()), n_games),
            "score": chunk.scores.ravel(), "win_share": chunk.win_units.ravel() / WIN_UNIT,
            "tokens_y": chunk.tokens[:, :, 0].ravel(), "tokens_r": chunk.tokens[:, :, 1].ravel(),
            "tokens_b": chunk.tokens[:, :, 2].ravel(),
            "villains_beaten": np.repeat(chunk.beaten, n),
        }, schema.GAMES)
