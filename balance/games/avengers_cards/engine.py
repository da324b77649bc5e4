"""Python side of the avengers-cards kernel: prepares arrays, plays chunks, builds tables."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import polars as pl

from balance import schema
from balance.errors import BalanceError, one_of
from balance.strategy import Strategy

from . import kernel
from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Restrict, Rules
from .strategies import MAX_PARAMS, scratch_size

TOTALS = ("seat_stats", "score_hist", "card_stats", "villain_stats", "pair_stats", "game_scores")
# Restricted play: when a seat's banned card is out of reach (see rules.Restrict).
WHEN = {"always": Restrict.ALWAYS, "before-last": Restrict.BEFORE_LAST}


class CardTrial(IntEnum):
    """Per card value and restricted seat: ``card_trials[MAX_CARD + 1, P, len(CardTrial)]``,
    each game of the run played again with that seat denied the card, paired with the game
    as played (common random numbers). Win shares in WIN_UNIT units, so sums are exact."""

    GAMES = 0
    UNITS_UNRESTRICTED = 1  # the seat's win units in the games as played
    UNITS_RESTRICTED = 2  # ... in the same games with the card denied
    DIFF_SQ = 3  # sum of (restricted - unrestricted)^2


@dataclass(frozen=True)
class CardStrengthPlan:
    """Card strength by restricted play inside a run (``simulate --card-strength``).

    Game i of the run is played again once per card in ``cards`` with one seat denied that
    card (``when``: "always" or "before-last"); the seat is rotated over the run in equal
    blocks, seat r in games ``[r * run_games // P, (r + 1) * run_games // P)``, where
    ``run_games`` is the run's game count per player count. The same game numbers, and so
    the same shuffles and strategy draws, pair each restricted game with its original.
    """

    when: str
    run_games: int
    cards: tuple[int, ...]

    def seat_bounds(self, players: int) -> list[int]:
        return [r * self.run_games // players for r in range(players + 1)]


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


def card_strength_plan(rules: Rules, when: str, run_games: int,
                       cards: list[int] | None = None) -> CardStrengthPlan:
    """A validated plan for ``rules``: every card of the hand unless ``cards`` names some."""
    if when not in WHEN:
        raise one_of("card-strength mode", when, list(WHEN))
    hand = sorted(rules.hand)
    cards = hand if not cards else list(cards)
    for card in cards:
        if card not in hand:
            raise BalanceError(f"card {card} is not in the hand; allowed: {', '.join(map(str, hand))}")
    if len(set(cards)) != len(cards):
        raise BalanceError(f"the cards to measure repeat a value: {cards}")
    if when == "always" and len(hand) - 1 < rules.villains_per_battle:
        raise BalanceError(f"removing a card leaves {len(hand) - 1} cards for "
                           f"{rules.villains_per_battle} villains per battle; use before-last")
    if run_games < rules.players:
        raise BalanceError(f"games={run_games} is too few to deny a card to each of "
                           f"{rules.players} seats in turn; give at least {rules.players}")
    return CardStrengthPlan(when, run_games, tuple(cards))


class Engine:
    """Plays games of one rules object with one strategy per seat."""

    def __init__(self, rules: Rules, strategies: list[Strategy], restrict: np.ndarray | None = None,
                 card_strength: CardStrengthPlan | None = None):
        """restrict int64[P, 2]: per seat a bitmask of banned card values and a ``Restrict``
        (when they are out of reach); default: no restriction. card_strength: also play
        every game again with one seat denied each card (see CardStrengthPlan)."""
        assert len(strategies) == rules.players
        self.rules = rules
        self.strategies = strategies
        self.restrict = (np.zeros((rules.players, 2), np.int64) if restrict is None
                         else np.ascontiguousarray(restrict, np.int64))
        self.arrays = rules.to_kernel()
        self.sids = np.array([s.info.id for s in strategies], np.int64)
        self.prm = np.array([s.param_row(MAX_PARAMS) for s in strategies], np.float64)
        self.card_strength = card_strength
        self._denied: dict[tuple[int, int], Engine] = {}

    def denied(self, card: int, seat: int) -> "Engine":
        """The same line-up with ``seat`` denied ``card`` as the card-strength plan says."""
        key = (card, seat)
        if key not in self._denied:
            restrict = np.zeros((self.rules.players, 2), np.int64)
            restrict[seat] = (1 << card, WHEN[self.card_strength.when])
            self._denied[key] = Engine(self.rules, self.strategies, restrict)
        return self._denied[key]

    def empty_totals(self) -> dict:
        p = self.rules.players
        return {
            "seat_stats": np.zeros((p, len(SeatStat)), np.int64),
            "score_hist": np.zeros((p, self.rules.max_score + 1), np.int64),
            "card_stats": np.zeros((p, MAX_CARD + 1, len(CardStat)), np.int64),
            "villain_stats": np.zeros((len(self.rules.deck.ids), len(VillainStat)), np.int64),
            "pair_stats": np.zeros((p, p), np.int64),
            # games, sum of T and of T^2 for T = a game's total score over the seats: the
            # mean score's variance with the seats of one game correlated (clustered by game)
            "game_scores": np.zeros(3, np.int64),
            **({"card_trials": np.zeros((MAX_CARD + 1, p, len(CardTrial)), np.int64)}
               if self.card_strength is not None else {}),
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
        total = chunk.scores.sum(axis=1, dtype=np.int64)
        t["game_scores"] += (n_games, total.sum(), (total * total).sum())
        if self.card_strength is not None:
            self._play_denied(seed, chunk, t["card_trials"])
        return chunk

    def _play_denied(self, seed: int, chunk: Chunk, trials: np.ndarray) -> None:
        """Replay the chunk's games once per card with the plan's seat denied it; add the
        paired win units into trials int64[MAX_CARD + 1, P, len(CardTrial)]."""
        first, n = chunk.first_game, len(chunk.scores)
        bounds = self.card_strength.seat_bounds(self.rules.players)
        for seat in range(self.rules.players):
            lo, hi = max(first, bounds[seat]), min(first + n, bounds[seat + 1])
            if lo >= hi:
                continue
            played = chunk.win_units[lo - first:hi - first, seat].astype(np.int64)
            for card in self.card_strength.cards:
                denied = self.denied(card, seat).play(seed, lo, hi - lo).win_units[:, seat]
                diff = denied.astype(np.int64) - played
                trials[card, seat] += (hi - lo, played.sum(), denied.sum(dtype=np.int64),
                                       (diff * diff).sum())

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
        gs = totals["game_scores"]
        game_table = schema.frame({
            "players": [n], "games": [gs[0]], "score_total_sum": [gs[1]], "score_total_sq_sum": [gs[2]],
        }, schema.GAME_TOTALS)
        out = {"seats": seat_table, "scores": score_table, "cards": card_table,
               "villains": villain_table, "pairs": pair_table, "game_totals": game_table}
        if self.card_strength is not None:
            out["card_strength"] = self._card_strength_table(totals["card_trials"])
        return out

    def _card_strength_table(self, trials: np.ndarray) -> pl.DataFrame:
        """One row per (restricted seat, card) that this block played (see schema.CARD_STRENGTH)."""
        n, labels = self.rules.players, self.labels()
        rows = [(seat, card) for seat in range(n) for card in self.card_strength.cards
                if trials[card, seat, CardTrial.GAMES] > 0]
        t = np.array([trials[card, seat] for seat, card in rows], np.int64).reshape(len(rows), len(CardTrial))
        return schema.frame({
            "players": [n] * len(rows), "seat": [s for s, _ in rows],
            "strategy": [labels[s] for s, _ in rows], "card": [c for _, c in rows],
            "when": [self.card_strength.when] * len(rows),
            "games": t[:, CardTrial.GAMES],
            "win_share_unrestricted": t[:, CardTrial.UNITS_UNRESTRICTED] / WIN_UNIT,
            "win_share_restricted": t[:, CardTrial.UNITS_RESTRICTED] / WIN_UNIT,
            "diff_sq_sum": t[:, CardTrial.DIFF_SQ] / WIN_UNIT**2,
        }, schema.CARD_STRENGTH)

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
