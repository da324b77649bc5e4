"""Python side of the avengers-cards kernel: prepares arrays, plays chunks, builds tables."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.core import card_trials, schema
from balance.core.counters import BaseEngine, Chunk, PairStat
from balance.core.errors import BalanceError, one_of
from balance.core.strategy import Strategy

from . import GAME, kernel
from .outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from .rules import MAX_CARD, Restrict, Rules
from .strategies import MAX_PARAMS, scratch_size
from .tables import CARDS, GAME_COLUMNS, VILLAINS

FINISHED = GAME.outcomes.index("finished")  # every game plays all its fights: none is capped
# Restricted play: when a seat's banned card is out of reach (see rules.Restrict).
WHEN = {"always": Restrict.ALWAYS, "before-last": Restrict.BEFORE_LAST}


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


def card_strength_plan(rules: Rules, when: str, run_games: int,
                       cards: list[int] | None = None) -> CardStrengthPlan:
    """A validated plan for ``rules``: every card of the hand unless ``cards`` names some."""
    if when not in WHEN:
        raise one_of("card-strength mode", when, list(WHEN))
    hand = sorted(rules.hand)
    cards = hand if not cards else [_card_value(c, hand) for c in cards]
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


def _card_value(card, hand: list[int]) -> int:
    """A card as given (a value, or its digits from the command line) as its value; 3.7 and
    True are not card values (int() made them 3 and 1, and the wrong card was measured)."""
    if isinstance(card, str) and card.strip().isdigit():
        return int(card)
    if isinstance(card, int) and not isinstance(card, bool):
        return card
    raise BalanceError(f"card {card!r} is not a card value; allowed: {', '.join(map(str, hand))}")


class Engine(BaseEngine):
    """Plays games of one rules object with one strategy per seat.

    Chunk.columns: ``tokens`` int32[n, P, 3] (tokens held at the end, by colour) and
    ``beaten`` int32[n] (villains beaten). A game's length is its fights (battles x villains).
    """

    GAME = GAME
    GAME_COLUMNS = GAME_COLUMNS

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
        self.max_score = rules.max_score
        self.max_length = rules.battles * rules.villains_per_battle

    def denied(self, card: int, seat: int) -> "Engine":
        """The same line-up with ``seat`` denied ``card`` as the card-strength plan says."""
        key = (card, seat)
        if key not in self._denied:
            restrict = np.zeros((self.rules.players, 2), np.int64)
            restrict[seat] = (1 << card, WHEN[self.card_strength.when])
            self._denied[key] = Engine(self.rules, self.strategies, restrict)
        return self._denied[key]

    def game_totals(self) -> dict:
        p = self.rules.players
        return {
            "card_stats": np.zeros((p, MAX_CARD + 1, len(CardStat)), np.int64),
            "villain_stats": np.zeros((len(self.rules.deck.ids), len(VillainStat)), np.int64),
            **({"card_trials": np.zeros((MAX_CARD + 1, p, len(card_trials.CardTrial)), np.int64)}
               if self.card_strength is not None else {}),
        }

    def play(self, seed: int, first_game: int, n_games: int) -> Chunk:
        """Play games ``first_game .. first_game + n_games - 1`` of the run with ``seed``."""
        p = self.rules.players
        scores = np.zeros((n_games, p), np.int32)
        win_units = np.zeros((n_games, p), np.int32)
        tokens = np.zeros((n_games, p, 3), np.int32)
        beaten = np.zeros(n_games, np.int32)
        t = self.empty_totals()
        # The kernel counts seats, scores and pairs in its own loop (no side, no cap), into
        # arrays of its own layout; they are added into the core layout once per chunk.
        seat_stats = np.zeros((p, len(SeatStat)), np.int64)
        score_hist = np.zeros((p, self.max_score + 1), np.int64)
        ahead = np.zeros((p, p), np.int64)
        kernel.play_games(
            *self.arrays, self.sids, self.prm, self.restrict, np.uint64(seed), first_game, n_games,
            scores, tokens, win_units, beaten,
            seat_stats, score_hist, t["card_stats"], t["villain_stats"], ahead,
            np.zeros(scratch_size(self.rules.tokens_per_colour), np.int64),
        )
        t["seat_stats"][:, 0] += seat_stats
        t["score_hist"][:, 0] += score_hist
        t["pair_stats"][:, 0, :, 0, PairStat.GAMES] += n_games * (1 - np.eye(p, dtype=np.int64))
        t["pair_stats"][:, 0, :, 0, PairStat.AHEAD] += ahead
        units = win_units.astype(np.int64)
        cross = units.T @ units  # [P, P]: sum over games of the two seats' win units multiplied
        np.fill_diagonal(cross, 0)
        t["pair_stats"][:, 0, :, 0, PairStat.CROSS] += cross
        total = scores.sum(axis=1, dtype=np.int64)
        t["game_scores"] += (n_games, total.sum(), (total * total).sum())
        # Every game plays all its fights and the top score wins (shared on a tie): every game
        # is finished and won (the reference counts it game by game; the tests compare).
        length = self.max_length
        t["outcome_stats"][FINISHED] += (n_games, n_games * length, n_games * length * length, n_games)
        t["length_hist"][FINISHED, length] += n_games
        chunk = Chunk(first_game, win_units, np.full(n_games, FINISHED, np.int8),
                      np.full(n_games, length, np.int32), scores, None,
                      {"tokens": tokens, "beaten": beaten}, t)
        if self.card_strength is not None:
            self._play_denied(seed, chunk, t["card_trials"])
        return chunk

    def _play_denied(self, seed: int, chunk: Chunk, trials: np.ndarray) -> None:
        """Replay the chunk's games once per card with the plan's seat denied it; add the
        paired win units into trials int64[MAX_CARD + 1, P, len(card_trials.CardTrial)]."""
        first, n = chunk.first_game, len(chunk)
        bounds = self.card_strength.seat_bounds(self.rules.players)
        for seat in range(self.rules.players):
            lo, hi = max(first, bounds[seat]), min(first + n, bounds[seat + 1])
            if lo >= hi:
                continue
            played = chunk.win_units[lo - first:hi - first, seat]
            for card in self.card_strength.cards:
                denied = self.denied(card, seat).play(seed, lo, hi - lo).win_units[:, seat]
                card_trials.add_pairs(trials[card, seat], played, denied)

    # ---- the game's own tables -------------------------------------------------------------------
    def tables(self, totals: dict) -> dict[str, pl.DataFrame]:
        """The game's tables of a block (see tables.py); the core ones come from BaseEngine."""
        rules, labels = self.rules, self.labels()
        n = rules.players
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
        }, CARDS)

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
        }, VILLAINS)
        out = {"cards": card_table, "villains": villain_table}
        if self.card_strength is not None:
            cards = list(self.card_strength.cards)  # trials rows are card values
            out["card_strength"] = card_trials.frame(n, self.labels(), cards, self.card_strength.when,
                                                     totals["card_trials"][cards], pl.Int8)
        return out

    def game_columns(self, chunk: Chunk) -> dict:
        """The game's --keep-games columns of a chunk (tables.GAME_COLUMNS), flat [n * P]."""
        tokens, n = chunk.columns["tokens"], self.rules.players
        return {"tokens_y": tokens[:, :, 0].ravel(), "tokens_r": tokens[:, :, 1].ravel(),
                "tokens_b": tokens[:, :, 2].ravel(),
                "villains_beaten": np.repeat(chunk.columns["beaten"], n)}
