"""Plain-Python reference implementation of the rules and strategies: slow, obvious, the oracle.

It reads the rules straight from a validated ``Rules`` object and draws from ``PyStream``
(the same streams as the kernel). Tests play the same games here and in ``kernel.py`` and
require identical results game by game. Nothing here is shared with the kernel on purpose.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from balance.core.rng import PyStream
from balance.core.strategy import Strategy

from .outcomes import WIN_UNIT
from .rules import Rules

# Games per strategy and player count in every game's kernel = reference check
# (tests/test_toys.py; 30 where a reference names none): this plain Python is slow
# (greedy samples many plays per decision).
CHECK_GAMES = 8

Y, R, B = 0, 1, 2


def score(tokens: list[int], set_bonus: int) -> int:
    return sum(tokens) + set_bonus * min(tokens)


def centre_pick(tokens: list[int], centre: list[int], set_bonus: int) -> int:
    """Rulebook auto-choice: highest score after taking; then fewest held; then Y, R, B."""
    options = [c for c in (Y, R, B) if centre[c] > 0]

    def after(c):
        t = list(tokens)
        t[c] += 1
        return score(t, set_bonus)

    return min(options, key=lambda c: (-after(c), tokens[c], c))


def tokens_lost(tokens: list[int], rules: Rules) -> list[int]:
    """What a lowest player of a defeat loses: [Y, R, B]."""
    if rules.loss_rule == "none":
        return [0, 0, 0]
    if rules.loss_rule == "all":
        return list(tokens)
    most = max(tokens)
    if most == 0:
        return [0, 0, 0]
    amount = most if rules.loss_rule == "majority" else 1
    best_colour, best_score = None, None
    for c in (Y, R, B):
        if tokens[c] == most:
            t = list(tokens)
            t[c] -= amount
            s = score(t, rules.set_bonus)
            if best_score is None or s > best_score:
                best_colour, best_score = c, s
    lost = [0, 0, 0]
    lost[best_colour] = amount
    return lost


@dataclass
class Fight:
    """One villain: what was played and what happened, per seat."""

    villain: str
    cards: list[int]
    beaten: bool
    counted: list[bool]
    gained: list[int]
    lost: list[int]
    lowest: list[bool]
    centre_before: int


@dataclass
class Game:
    """A whole game as the reference played it."""

    fights: list[Fight] = field(default_factory=list)
    tokens: list[list[int]] = field(default_factory=list)
    reserve: list[int] = field(default_factory=list)
    centre: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    win_units: list[int] = field(default_factory=list)


class Table:
    """The public state of a game in progress."""

    def __init__(self, rules: Rules):
        self.rules = rules
        n = rules.players
        self.tokens = [list(rules.start_tokens) for _ in range(n)]
        for seat, extra in enumerate(rules.extra_tokens):
            self.tokens[seat] = [t + e for t, e in zip(self.tokens[seat], extra)]
        self.reserve = [rules.tokens_per_colour - sum(t[c] for t in self.tokens) for c in (Y, R, B)]
        self.centre = [0, 0, 0]
        self.hands = [sorted(rules.hand) for _ in range(n)]

    def fight(self, villain: int, cards: list[int], first: int) -> Fight:
        """Resolve a villain after every seat revealed ``cards[seat]``."""
        rules, deck, n = self.rules, self.rules.deck, self.rules.players
        clockwise = [(first + k) % n for k in range(n)]
        counted = [not (rules.ties_cancel and cards.count(cards[p]) > 1) for p in range(n)]
        total = sum(c for c, ok in zip(cards, counted) if ok)
        gained, lost, lowest = [0] * n, [0] * n, [False] * n
        centre_before = sum(self.centre)
        beaten = total >= deck.strength[villain]
        if beaten:
            ranked = [p for p in clockwise if counted[p]]  # stable sort keeps clockwise for equal cards
            ranked.sort(key=lambda p: cards[p] if rules.reward_order == "lowest_first" else -cards[p])
            for place, p in zip(deck.rewards[villain], ranked):
                for c in (Y, R, B):
                    got = min(place[c], self.reserve[c])
                    self.tokens[p][c] += got
                    self.reserve[c] -= got
                    gained[p] += got
            turn = 0
            while sum(self.centre) > 0:
                p = ranked[turn % len(ranked)]
                c = centre_pick(self.tokens[p], self.centre, rules.set_bonus)
                self.tokens[p][c] += 1
                self.centre[c] -= 1
                gained[p] += 1
                turn += 1
        else:
            low = min(cards)
            for p in clockwise:
                if cards[p] == low:
                    lowest[p] = True
                    loss = tokens_lost(self.tokens[p], rules)
                    for c in (Y, R, B):
                        self.tokens[p][c] -= loss[c]
                        lost[p] += loss[c]
                        if rules.lost_tokens_to == "centre":
                            self.centre[c] += loss[c]
                        else:
                            self.reserve[c] += loss[c]
        return Fight(deck.ids[villain], list(cards), beaten, counted, gained, lost, lowest, centre_before)


def play_game(rules: Rules, strategies: list[Strategy], seed: int, game: int,
              restrict=None) -> Game:
    """Play game number ``game`` of a run with ``seed`` (same streams as the kernel).

    restrict: per seat ``(banned card values, when)`` with when "never", "always" or
    "before_last" (not while villains of the battle remain after this one); a restricted
    seat chooses from its hand without the banned cards (unless nothing else is left).
    """
    n = rules.players
    restrict = restrict or [((), "never")] * n
    chance = PyStream(seed, game, 0)
    seat_streams = [PyStream(seed, game, 1 + p) for p in range(n)]
    table = Table(rules)
    record = Game()
    for battle in range(rules.battles):
        first = battle % n
        table.hands = [sorted(rules.hand) for _ in range(n)]
        deck = rules.deck.in_battle(battle + 1)
        for i in range(rules.villains_per_battle):  # partial Fisher-Yates: the fought cards
            j = i + chance.below(rules.deck_per_battle - i)
            deck[i], deck[j] = deck[j], deck[i]
        for t in range(rules.villains_per_battle):
            villain = deck[t]
            remaining_after = rules.villains_per_battle - 1 - t
            cards = []
            for p in range(n):
                full = table.hands[p]
                banned, when = restrict[p]
                if when == "always" or (when == "before_last" and remaining_after > 0):
                    allowed = [c for c in full if c not in banned]
                    if allowed:
                        table.hands[p] = allowed  # the seat's own view while it chooses
                i = choose_card(strategies[p], p, table, villain, remaining_after, seat_streams[p])
                cards.append(table.hands[p][i])
                table.hands[p] = full
            record.fights.append(table.fight(villain, cards, first))
            for p in range(n):
                table.hands[p].remove(cards[p])
    record.tokens = table.tokens
    record.reserve = table.reserve
    record.centre = table.centre
    record.scores = [score(t, rules.set_bonus) for t in table.tokens]
    best = max(record.scores)
    winners = record.scores.count(best)
    record.win_units = [WIN_UNIT // winners if s == best else 0 for s in record.scores]
    return record


# ---- strategies ---------------------------------------------------------------------------

def choose_card(strategy: Strategy, seat: int, table: Table, villain: int, remaining_after: int,
                stream: PyStream) -> int:
    """Index in the seat's ascending hand of the card it plays."""
    hand = table.hands[seat]
    name, prm = strategy.name, strategy.values
    if name == "random":
        return stream.below(len(hand))
    if name == "lowest":
        return 0
    if name == "highest":
        return len(hand) - 1
    if name == "threshold":
        return _threshold(prm, seat, table, villain, remaining_after)
    if name == "greedy":
        return _greedy(prm, seat, table, villain, remaining_after, stream)
    raise ValueError(name)


def _threshold(prm, seat, table, villain, remaining_after):
    margin, keep_high = prm
    expected = 0.0
    for q, h in enumerate(table.hands):
        if q != seat:
            expected += sum(h) / len(h)
    need = table.rules.deck.strength[villain] + margin - expected
    hand = table.hands[seat]
    eligible = len(hand) if remaining_after == 0 else max(1, len(hand) - int(keep_high))
    for i in range(eligible):
        if hand[i] >= need:
            return i
    return 0


def _greedy(prm, seat, table, villain, remaining_after, stream):
    samples, w_reward, w_risk, w_future = prm
    samples = int(samples)
    rules = table.rules
    bonus = rules.set_bonus
    mine = table.tokens[seat]
    now = score(mine, bonus)
    places = rules.deck.rewards[villain]

    # Score gain of each reward place, earlier places taking from the reserve first.
    reserve = list(table.reserve)
    place_gain = []
    for place in places:
        got = [min(place[c], reserve[c]) for c in (Y, R, B)]
        reserve = [reserve[c] - got[c] for c in (Y, R, B)]
        place_gain.append(score([mine[c] + got[c] for c in (Y, R, B)], bonus) - now)

    # Score gain of taking k tokens from the centre one by one with the auto-choice.
    own, pool = list(mine), list(table.centre)
    centre_gain = [0]
    for _ in range(sum(table.centre)):
        c = centre_pick(own, pool, bonus)
        own[c] += 1
        pool[c] -= 1
        centre_gain.append(score(own, bonus) - now)
    in_centre = sum(table.centre)

    lost = tokens_lost(mine, rules)
    loss_value = now - score([mine[c] - lost[c] for c in (Y, R, B)], bonus)

    hand = table.hands[seat]
    gain_sum = [0] * len(hand)
    risk_sum = [0] * len(hand)
    strength = rules.deck.strength[villain]
    for _ in range(samples):
        opp = [table.hands[q][stream.below(len(table.hands[q]))] for q in range(rules.players) if q != seat]
        for i, card in enumerate(hand):
            everyone = opp + [card]
            if rules.ties_cancel:
                counted_cards = [c for c in everyone if everyone.count(c) == 1]
            else:
                counted_cards = everyone
            total = sum(counted_cards)
            mine_counts = card in counted_cards
            if total >= strength:
                if mine_counts:
                    others = [c for c in counted_cards if c != card] if rules.ties_cancel else opp
                    if rules.reward_order == "lowest_first":
                        ahead = sum(1 for c in others if c < card)
                    else:
                        ahead = sum(1 for c in others if c > card)
                    gain = place_gain[ahead] if ahead < len(places) else 0
                    if in_centre > 0:
                        m = len(counted_cards)
                        gain += centre_gain[in_centre // m + (1 if ahead < in_centre % m else 0)]
                    gain_sum[i] += gain
            elif card <= min(opp):
                risk_sum[i] += loss_value

    vpb = rules.villains_per_battle
    utilities = [
        w_reward * gain_sum[i] / samples
        - w_risk * risk_sum[i] / samples
        - w_future * (hand[i] - hand[0]) * remaining_after / vpb
        for i in range(len(hand))
    ]
    return utilities.index(max(utilities))  # first maximum: the lowest of equally good cards


# ---- counters -----------------------------------------------------------------------------

def tally(rules: Rules, games: list[Game]) -> dict:
    """The engine's counters, counted plainly from game records (the same array layouts: the
    core ones of balance.core.counters, one side, and the game's own)."""
    import numpy as np

    from balance.core.counters import OutcomeStat, PairStat

    from .outcomes import CardStat, SeatStat, VillainStat
    from .rules import MAX_CARD

    n = rules.players
    seat = np.zeros((n, len(SeatStat)), np.int64)
    pairs = np.zeros((n, n, len(PairStat)), np.int64)
    hist = np.zeros((n, rules.max_score + 1), np.int64)
    fights = rules.battles * rules.villains_per_battle
    game_scores = np.zeros(3, np.int64)
    outcome_stats = np.zeros((2, len(OutcomeStat)), np.int64)  # finished, capped (never)
    length_hist = np.zeros((2, fights + 1), np.int64)
    cards = np.zeros((n, MAX_CARD + 1, len(CardStat)), np.int64)
    villains = np.zeros((len(rules.deck.ids), len(VillainStat)), np.int64)
    index = {v: i for i, v in enumerate(rules.deck.ids)}
    for g in games:
        winners = sum(1 for u in g.win_units if u > 0)
        for p in range(n):
            seat[p, SeatStat.GAMES] += 1
            seat[p, SeatStat.WIN_UNITS] += g.win_units[p]
            seat[p, SeatStat.WIN_UNITS_SQ] += g.win_units[p] ** 2
            for q in range(n):
                if q != p:
                    pairs[p, q, PairStat.GAMES] += 1
                    pairs[p, q, PairStat.AHEAD] += g.scores[p] > g.scores[q]
                    pairs[p, q, PairStat.CROSS] += g.win_units[p] * g.win_units[q]
            if g.win_units[p] > 0:
                seat[p, SeatStat.WINS_OUTRIGHT if winners == 1 else SeatStat.WINS_SHARED] += 1
            seat[p, SeatStat.SCORE_SUM] += g.scores[p]
            seat[p, SeatStat.SCORE_SQ_SUM] += g.scores[p] ** 2
            hist[p, g.scores[p]] += 1
            played, rewarded = set(), set()
            for f in g.fights:
                row = cards[p, f.cards[p]]
                row[CardStat.PLAYED] += 1
                row[CardStat.CANCELLED] += not f.counted[p]
                played.add(f.cards[p])
                if f.gained[p]:
                    row[CardStat.REWARDED] += 1
                    row[CardStat.TOKENS_GAINED] += f.gained[p]
                    rewarded.add(f.cards[p])
                if f.lowest[p]:
                    row[CardStat.LOWEST_ON_DEFEAT] += 1
                    row[CardStat.TOKENS_LOST] += f.lost[p]
            for v in played:
                cards[p, v, CardStat.GAMES_PLAYED] += 1
                cards[p, v, CardStat.WIN_UNITS_PLAYED] += g.win_units[p]
            for v in rewarded:
                cards[p, v, CardStat.GAMES_REWARDED] += 1
                cards[p, v, CardStat.WIN_UNITS_REWARDED] += g.win_units[p]
        total = sum(g.scores)
        game_scores += (1, total, total * total)
        outcome_stats[0] += (1, len(g.fights), len(g.fights) ** 2, winners > 0)
        length_hist[0, len(g.fights)] += 1
        for f in g.fights:
            row = villains[index[f.villain]]
            row[VillainStat.FOUGHT] += 1
            row[VillainStat.TOKENS_LOST] += sum(f.lost)
            if f.beaten:
                row[VillainStat.BEATEN] += 1
                row[VillainStat.CENTRE_TOKENS] += f.centre_before
                row[VillainStat.REWARD_TOKENS] += sum(f.gained) - f.centre_before
    return {"seat_stats": seat[:, None], "score_hist": hist[:, None], "card_stats": cards,
            "villain_stats": villains, "pair_stats": pairs[:, None, :, None], "game_scores": game_scores,
            "outcome_stats": outcome_stats, "length_hist": length_hist}


def chance_draws(record, players: int) -> list[list]:
    """The villains in the order they are fought, for every seat, in a game ``record`` (what
    play_game returns): what no seat's strategy may move (the game contract's common random
    numbers)."""
    return [[f.villain for f in record.fights]] * players
