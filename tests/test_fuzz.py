"""Property-based fuzz tests (hypothesis) for avengers-cards: random valid rule variants and
strategy specs through validation, the numba kernel, the scripted replay and the plain-Python
reference; random invalid values through validation.

Every test is derandomized (``derandomize=True``, no example database), so the suite draws
the same examples on every run. Hypothesis still caches constants it reads from the source
under ``.hypothesis/`` (git-ignored by its own .gitignore); that does not change the examples.

The tests at the end are regressions for validation gaps this file found (non-finite integer
parameters, boolean card values, and errors naming a key the user did not change).
"""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.core.errors import BalanceError
from balance.games.avengers_cards import kernel, reference
from balance.games.avengers_cards.engine import Engine
from balance.games.avengers_cards.outcomes import WIN_UNIT, CardStat, SeatStat, VillainStat
from balance.games.avengers_cards.rules import (
    MAX_CARD,
    MAX_PLAYERS,
    MAX_TOKENS_PER_COLOUR,
    Cfg,
    LossRule,
    LostTokensTo,
    RewardOrder,
    Rules,
)
from balance.games.avengers_cards.strategies import MAX_PARAMS, STRATEGIES
from balance.core.strategy import parse_strategy


def fuzz(max_examples):
    """Deterministic settings: the same examples every run, no database, no deadline (the
    first example of a test may include numba's compile or cache load)."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


LOSS_RULES = ["majority", "none", "all", "one"]
LOST_TO = ["centre", "reserve"]
REWARD_ORDERS = ["lowest_first", "highest_first"]
DEFAULT_DECK_PER_BATTLE = 5  # the vendored villain deck has 5 villains in each of battles 1..3
DEFAULT_BATTLES = 3


# ---- generators ------------------------------------------------------------------------------

@st.composite
def rule_overrides(draw, players=st.sampled_from([4, 3, 5, 2])):
    """A valid ``{key: value}`` for ``Rules.from_overrides`` (values as TOML would give them),
    built within every bound and cross-field constraint: hand >= villains_per_battle, the
    dealt tokens (start x players + extra) within tokens_per_colour per colour."""
    n = draw(players)
    # sampled_from over short ranges, the rulebook's value first: hypothesis draws the first
    # (simplest) choice often, and a rulebook game is a more telling simple case than a minimum.
    vpb = draw(st.sampled_from([4, 1, 2, 3, 5]))
    battles = draw(st.sampled_from([3, 1, 2]))
    ov = {"players": n, "battles": battles, "villains_per_battle": vpb}
    if n == 2 or draw(st.booleans()):  # 2 players have no rulebook hand; any order is allowed
        ov["hand"] = draw(st.lists(st.integers(1, MAX_CARD), min_size=vpb, max_size=MAX_CARD, unique=True))
    if draw(st.booleans()):
        ov["deck_per_battle"] = DEFAULT_DECK_PER_BATTLE
    per_colour = draw(st.one_of(st.sampled_from([15, *range(15), *range(16, 21)]),
                                st.integers(0, MAX_TOKENS_PER_COLOUR)))
    cap = per_colour // n
    # the rulebook's 1, all that a colour allows (a near-empty reserve), or anything between
    start = [draw(st.one_of(st.just(min(1, cap)), st.just(cap), st.integers(0, cap))) for _ in range(3)]
    ov["tokens_per_colour"] = per_colour
    ov["start_tokens"] = start
    left = [per_colour - n * s for s in start]
    extra = []
    for _ in range(draw(st.integers(0, n))):
        entry = [draw(st.integers(0, left[c])) for c in range(3)]
        left = [left[c] - entry[c] for c in range(3)]
        extra.append(entry)
    ov["extra_tokens"] = extra
    ov["set_bonus"] = draw(st.one_of(st.sampled_from([3, 0, 1, 2, 4, 5]), st.integers(0, 100)))
    ov["ties_cancel"] = draw(st.sampled_from([True, False, "true", "False"]))
    ov["loss_rule"] = draw(st.sampled_from(LOSS_RULES + ["ONE"]))
    ov["lost_tokens_to"] = draw(st.sampled_from(LOST_TO + ["center"]))
    ov["reward_order"] = draw(st.sampled_from(REWARD_ORDERS))
    return ov


def rules_strategy(**kwargs):
    return rule_overrides(**kwargs).map(Rules.from_overrides)


# The catalogue, strategies with the most parameters first (the ones hypothesis draws most).
BY_PARAMS = sorted(STRATEGIES.values(), key=lambda info: -len(info.params))


def _param_text(p, value):
    return str(int(value)) if p.integer else repr(float(value))


@st.composite
def strategy_specs(draw):
    """``(spec, expected values)``: a strategy name with some of its parameters set (in any
    order) to values drawn within each Param's bounds, integers where Param.integer."""
    info = draw(st.sampled_from(BY_PARAMS))
    values = {p.name: p.default for p in info.params}
    items = []
    for p in info.params:
        if draw(st.booleans()):
            if p.integer:
                v = draw(st.integers(int(p.low), int(p.high)))
                text = draw(st.sampled_from([str(v), f"{v}.0"]))
            else:
                v = draw(st.floats(p.low, p.high, allow_nan=False, allow_infinity=False))
                text = repr(v)
            values[p.name] = float(v)
            items.append(f" {p.name} = {text}" if draw(st.booleans()) else f"{p.name}={text}")
    items = draw(st.permutations(items))
    spec = info.name + (":" + ",".join(items) if items else "")
    return spec, tuple(values[p.name] for p in info.params)


def seats_for(players):
    return st.lists(strategy_specs(), min_size=players, max_size=players).map(
        lambda specs: [parse_strategy(s, STRATEGIES) for s, _ in specs])


@st.composite
def game_setups(draw, games=(30, 1, 2, 5, 12)):
    """``(rules, strategies per seat, seed, first_game, n_games)``; ``games``: the choices of
    n_games, the one hypothesis draws most often first."""
    rules = draw(rules_strategy())
    seats = draw(seats_for(rules.players))
    seed = draw(st.integers(0, 2**64 - 1))
    first = draw(st.integers(0, 2**48))
    n_games = draw(st.sampled_from(games))
    return rules, seats, seed, first, n_games


@st.composite
def scripted_games(draw):
    """``(rules, villain_order int64[battles, vpb], plays int64[battles, vpb, P])``: each battle
    fights vpb distinct villains of its deck, each seat plays vpb distinct cards of its hand."""
    rules = draw(rules_strategy())
    decks = rules.to_kernel()[5]
    vpb, n = rules.villains_per_battle, rules.players
    hand = sorted(rules.hand)
    order = [draw(st.permutations(decks[b].tolist()))[:vpb] for b in range(rules.battles)]
    plays = [[draw(st.permutations(hand))[:vpb] for _ in range(n)] for _ in range(rules.battles)]
    plays = np.ascontiguousarray(np.array(plays, np.int64).transpose(0, 2, 1))  # [battle, villain, seat]
    return rules, np.array(order, np.int64), plays


def replay(rules, order, plays):
    cfg, hand, strength, rewards, n_places, decks, start = rules.to_kernel()
    f, n = order.size, rules.players
    tokens, reserve = np.zeros((f, n, 3), np.int64), np.zeros((f, 3), np.int64)
    centre, beaten = np.zeros((f, 3), np.int64), np.zeros(f, np.int64)
    kernel.replay_game(cfg, strength, rewards, n_places, start, order, plays, tokens, reserve, centre, beaten)
    return tokens, reserve, centre, beaten.astype(bool)


# ---- valid input is accepted as given ----------------------------------------------------------

@fuzz(150)
@given(rule_overrides())
def test_valid_variants_are_accepted_and_kept(ov):
    """Every generated in-bounds variant validates, keeps its values (hand as given, spellings
    normalised) and turns into kernel arrays that agree with it."""
    rules = Rules.from_overrides(ov)
    n = ov["players"]
    assert rules.players == n and rules.battles == ov["battles"]
    assert rules.villains_per_battle == ov["villains_per_battle"]
    if "hand" in ov:
        assert rules.hand == tuple(ov["hand"])
    assert rules.start_tokens == tuple(ov["start_tokens"])
    seated = [tuple(e) for e in ov["extra_tokens"]]
    while seated and not any(seated[-1]):  # a trailing [0, 0, 0] gives no seat anything: dropped
        seated.pop()
    assert rules.extra_tokens == tuple(seated)
    assert rules.ties_cancel is (str(ov["ties_cancel"]).lower() == "true")
    assert rules.loss_rule == ov["loss_rule"].lower()
    assert rules.lost_tokens_to == ov["lost_tokens_to"].replace("center", "centre")
    cfg, hand, strength, rewards, n_places, decks, start = rules.to_kernel()
    assert cfg[Cfg.PLAYERS] == n and cfg[Cfg.HAND_SIZE] == len(rules.hand) == len(hand)
    assert hand.tolist() == sorted(rules.hand)
    assert cfg[Cfg.LOSS_RULE] == LossRule[rules.loss_rule.upper()]
    assert cfg[Cfg.LOST_TOKENS_TO] == LostTokensTo[rules.lost_tokens_to.upper()]
    assert cfg[Cfg.REWARD_ORDER] == RewardOrder[rules.reward_order.upper()]
    assert cfg[Cfg.TIES_CANCEL] == int(rules.ties_cancel)
    assert decks.shape == (rules.battles, rules.deck_per_battle)
    assert [rules.deck.battle[v] for v in decks.ravel()] == [b + 1 for b in range(rules.battles) for _ in range(5)]
    assert start.shape == (n, 3) and start.min() >= 0
    assert (start.sum(0) <= rules.tokens_per_colour).all()
    assert start.sum() == n * sum(ov["start_tokens"]) + sum(map(sum, ov["extra_tokens"]))
    # The validated object round-trips through its own dict.
    again = Rules.from_overrides(rules.to_dict())
    assert again == rules


@fuzz(150)
@given(strategy_specs())
def test_in_bound_strategy_specs_parse_to_their_values(spec_values):
    """Any spec with parameters within each Param's bounds parses, with exactly the drawn
    values (defaults for the rest) in the kernel's parameter order; the label re-parses to it."""
    spec, values = spec_values
    s = parse_strategy(spec, STRATEGIES)
    assert s.values == values
    assert s.param_row(MAX_PARAMS)[: len(values)].tolist() == list(values)
    assert parse_strategy(s.label, STRATEGIES) == s


# ---- the kernel: invariants of every simulated game ------------------------------------------

def check_chunk(rules, chunk, n_games):
    n, vpb, per_colour = rules.players, rules.villains_per_battle, rules.tokens_per_colour
    fights = rules.battles * vpb
    scores = chunk.scores.astype(np.int64)
    tokens = chunk.columns["tokens"].astype(np.int64)
    units = chunk.win_units.astype(np.int64)
    beaten = chunk.columns["beaten"].astype(np.int64)
    assert scores.shape == (n_games, n) and tokens.shape == (n_games, n, 3) and beaten.shape == (n_games,)

    # Per game.
    assert tokens.min() >= 0
    assert (tokens.sum(axis=1) <= per_colour).all()  # no colour has more tokens than exist
    assert (tokens.sum(axis=(1, 2)) <= 3 * per_colour).all()
    assert (scores == tokens.sum(2) + rules.set_bonus * tokens.min(2)).all()
    assert scores.min() >= 0 and scores.max() <= rules.max_score
    best = scores.max(axis=1, keepdims=True)
    top = scores == best
    winners = top.sum(axis=1)
    assert (units.sum(axis=1) == WIN_UNIT).all()
    assert (units == np.where(top, WIN_UNIT // winners[:, None], 0)).all()
    assert beaten.min() >= 0 and beaten.max() <= fights

    # Totals against the per-game rows.
    t = chunk.totals
    ss = t["seat_stats"][:, 0]  # one side: the game has none
    assert t["seat_stats"].shape == (n, 1, len(SeatStat))
    assert (ss[:, SeatStat.GAMES] == n_games).all()
    assert (ss[:, SeatStat.WIN_UNITS] == units.sum(0)).all()
    assert (ss[:, SeatStat.WIN_UNITS_SQ] == (units**2).sum(0)).all()
    assert (ss[:, SeatStat.WINS_OUTRIGHT] == (top & (winners == 1)[:, None]).sum(0)).all()
    assert (ss[:, SeatStat.WINS_SHARED] == (top & (winners > 1)[:, None]).sum(0)).all()
    assert (ss[:, SeatStat.SCORE_SUM] == scores.sum(0)).all()
    assert (ss[:, SeatStat.SCORE_SQ_SUM] == (scores**2).sum(0)).all()
    hist = t["score_hist"][:, 0]
    assert hist.shape == (n, rules.max_score + 1)
    for p in range(n):
        assert (hist[p] == np.bincount(scores[:, p], minlength=rules.max_score + 1)).all()
    ahead = (scores[:, :, None] > scores[:, None, :]).sum(0)
    assert (t["pair_stats"][:, 0, :, 0, 1] == ahead).all()
    assert (t["pair_stats"][:, 0, :, 0, 0] == n_games * (1 - np.eye(n, dtype=np.int64))).all()

    cards = t["card_stats"]
    played = cards[..., CardStat.PLAYED]
    assert (played.sum(axis=1) == n_games * fights).all()
    off_hand = [v for v in range(MAX_CARD + 1) if v not in rules.hand]
    assert cards[:, off_hand, :].sum() == 0
    assert played.max() <= n_games * rules.battles  # each card at most once per battle
    if vpb == len(rules.hand):  # every card is played in every battle
        assert (played[:, list(rules.hand)] == n_games * rules.battles).all()
    for stat in (CardStat.CANCELLED, CardStat.REWARDED, CardStat.LOWEST_ON_DEFEAT, CardStat.GAMES_PLAYED):
        assert (cards[..., stat] <= played).all(), stat.name
    assert ((cards[..., CardStat.GAMES_PLAYED] > 0) == (played > 0)).all()
    assert (cards[..., CardStat.GAMES_PLAYED] <= n_games).all()
    assert (cards[..., CardStat.GAMES_REWARDED] <= cards[..., CardStat.GAMES_PLAYED]).all()
    assert ((cards[..., CardStat.GAMES_REWARDED] > 0) == (cards[..., CardStat.REWARDED] > 0)).all()
    assert (cards[..., CardStat.TOKENS_GAINED] >= cards[..., CardStat.REWARDED]).all()
    assert ((cards[..., CardStat.TOKENS_GAINED] > 0) == (cards[..., CardStat.REWARDED] > 0)).all()
    assert cards[..., CardStat.TOKENS_LOST].min() >= 0
    assert (cards[..., CardStat.WIN_UNITS_REWARDED] <= cards[..., CardStat.WIN_UNITS_PLAYED]).all()
    assert (cards[..., CardStat.WIN_UNITS_PLAYED] <= ss[:, SeatStat.WIN_UNITS][:, None]).all()
    if not rules.ties_cancel:
        assert cards[..., CardStat.CANCELLED].sum() == 0
    if rules.loss_rule == "none":
        assert cards[..., CardStat.TOKENS_LOST].sum() == 0
    # Token flow per seat: final holdings = start + gained - lost, summed over the games.
    gained = cards[..., CardStat.TOKENS_GAINED].sum(1)
    lost = cards[..., CardStat.TOKENS_LOST].sum(1)
    assert (tokens.sum(axis=(0, 2)) == n_games * rules.start_array().sum(1) + gained - lost).all()

    vs = t["villain_stats"]
    deck = rules.deck
    for b in range(1, len(set(deck.battle)) + 1):
        rows = deck.in_battle(b)
        fought = vs[rows, VillainStat.FOUGHT]
        if b > rules.battles:
            assert vs[rows].sum() == 0
        else:
            assert fought.sum() == n_games * vpb
            assert fought.max() <= n_games  # a villain is fought at most once per game
            if vpb == rules.deck_per_battle:
                assert (fought == n_games).all()
    assert (vs[:, VillainStat.BEATEN] <= vs[:, VillainStat.FOUGHT]).all()
    assert vs[:, VillainStat.BEATEN].sum() == beaten.sum()
    assert vs[:, VillainStat.TOKENS_LOST].sum() == lost.sum()
    assert vs[:, VillainStat.REWARD_TOKENS].sum() + vs[:, VillainStat.CENTRE_TOKENS].sum() == gained.sum()
    assert vs.min() >= 0
    if rules.lost_tokens_to == "reserve":  # the centre never fills
        assert vs[:, VillainStat.CENTRE_TOKENS].sum() == 0


@fuzz(100)
@given(game_setups())
def test_simulated_games_keep_every_invariant(setup):
    """Random variants x random strategy specs x random seeds: the kernel does not crash and
    every game keeps the invariants (scores in [0, max_score] and equal to the tokens' score,
    tokens >= 0 and <= tokens_per_colour per colour, win units summing to 60 over the top
    scorers, beaten <= battles x villains_per_battle), and every total agrees with the per-game
    rows (seat stats, score histogram, pair stats, cards played, token flow, villains fought)."""
    rules, seats, seed, first, n_games = setup
    chunk = Engine(rules, seats).play(seed, first, n_games)
    check_chunk(rules, chunk, n_games)


@fuzz(40)
@given(game_setups(games=(12, 1, 2, 5)), st.data())
def test_any_split_into_chunks_gives_the_same_games(setup, data):
    """A run split at any game into two chunks plays the same games (rows equal) and its
    totals add up to the single chunk's."""
    rules, seats, seed, first, n_games = setup
    engine = Engine(rules, seats)
    whole = engine.play(seed, first, n_games)
    k = data.draw(st.integers(0, n_games), label="split")
    head, tail = engine.play(seed, first, k), engine.play(seed, first + k, n_games - k)
    for name in ("scores", "win_units", "outcome", "length"):
        joined = np.concatenate([getattr(head, name), getattr(tail, name)])
        assert (joined == getattr(whole, name)).all(), name
    for name in ("tokens", "beaten"):
        joined = np.concatenate([head.columns[name], tail.columns[name]])
        assert (joined == whole.columns[name]).all(), name
    for name, array in whole.totals.items():
        assert (head.totals[name] + tail.totals[name] == array).all(), name


# ---- scripted replays: token conservation fight by fight ------------------------------------

@fuzz(100)
@given(scripted_games())
def test_tokens_conserved_after_every_fight(game):
    """Random legal plays replayed by kernel.replay_game: after every fight, held + reserve +
    centre == tokens_per_colour per colour and nothing is negative; a victory takes no token
    from anyone and empties the centre; a defeat gives nobody a token and takes only from
    the seats that showed the lowest card; beaten iff the counted cards reach the strength."""
    rules, order, plays = game
    tokens, reserve, centre, beaten = replay(rules, order, plays)
    per_colour = rules.tokens_per_colour
    assert (tokens.sum(axis=1) + reserve + centre == per_colour).all()
    assert tokens.min() >= 0 and reserve.min() >= 0 and centre.min() >= 0
    if rules.lost_tokens_to == "reserve":
        assert centre.sum() == 0
    strength = rules.deck.strength
    before_t = rules.start_array()
    before_r = per_colour - before_t.sum(0)
    before_c = np.zeros(3, np.int64)
    f = 0
    for b in range(order.shape[0]):
        for v in range(order.shape[1]):
            cards = plays[b, v].tolist()
            counted = [c for c in cards if not (rules.ties_cancel and cards.count(c) > 1)]
            assert beaten[f] == (sum(counted) >= strength[order[b, v]])
            delta = tokens[f] - before_t
            if beaten[f]:
                assert delta.min() >= 0 and centre[f].sum() == 0
                assert (reserve[f] <= before_r).all()
                for p, c in enumerate(cards):
                    if c not in counted:  # a cancelled card earns nothing
                        assert delta[p].sum() == 0
            else:
                assert delta.max() <= 0
                assert (reserve[f] >= before_r).all() and (centre[f] >= before_c).all()
                for p, c in enumerate(cards):
                    if c != min(cards) or rules.loss_rule == "none":
                        assert delta[p].sum() == 0
            before_t, before_r, before_c = tokens[f], reserve[f], centre[f]
            f += 1


@fuzz(80)
@given(scripted_games())
def test_replay_equals_reference_fight_by_fight(game):
    """The same random legal plays resolved by the reference's Table.fight: identical tokens,
    reserve, centre and outcome after every fight."""
    rules, order, plays = game
    tokens, reserve, centre, beaten = replay(rules, order, plays)
    table = reference.Table(rules)
    f = 0
    for b in range(order.shape[0]):
        for v in range(order.shape[1]):
            fight = table.fight(int(order[b, v]), plays[b, v].tolist(), b % rules.players)
            assert fight.beaten == beaten[f], f
            assert table.tokens == tokens[f].tolist(), f
            assert table.reserve == reserve[f].tolist() and table.centre == centre[f].tolist(), f
            f += 1


# ---- kernel == reference ------------------------------------------------------------------------

@fuzz(100)
@given(game_setups(games=(3,)))
def test_kernel_equals_reference(setup):
    """Random variant, strategy specs and seed: the kernel and the plain-Python reference play
    identical games (final tokens, scores, win units, villains beaten), the reference's tokens
    are conserved at the end, and the reference's tally equals the kernel's totals exactly."""
    rules, seats, seed, first, n_games = setup
    chunk = Engine(rules, seats).play(seed, first, n_games)
    games = [reference.play_game(rules, seats, seed, first + g) for g in range(n_games)]
    for g, ref in enumerate(games):
        held = np.array(ref.tokens).sum(0)
        assert (held + ref.reserve + ref.centre == rules.tokens_per_colour).all()
        assert chunk.columns["tokens"][g].tolist() == ref.tokens, g
        assert chunk.scores[g].tolist() == ref.scores, g
        assert chunk.win_units[g].tolist() == ref.win_units, g
        assert chunk.columns["beaten"][g] == sum(f.beaten for f in ref.fights), g
    for name, array in reference.tally(rules, games).items():
        assert chunk.totals[name].shape == array.shape, name
        assert (chunk.totals[name] == array).all(), name


# ---- out-of-bound values are rejected at the edge -----------------------------------------------

WRONG_INTS = ["4", 4.0, True, None, [4]]


def _hand_of(ov):
    return list(ov.get("hand") or Rules(players=ov["players"]).resolved_hand_or_none())


def _dealt(ov):
    n = ov["players"]
    dealt = [n * s for s in ov["start_tokens"]]
    for e in ov["extra_tokens"]:
        dealt = [d + x for d, x in zip(dealt, e)]
    return dealt


@st.composite
def bad_rule_overrides(draw):
    """``(overrides, key)``: a valid variant with one value set just outside its bounds (given
    the other values) or to a wrong type; ``key`` names the value changed."""
    ov = draw(rule_overrides())
    n, per_colour, vpb = ov["players"], ov["tokens_per_colour"], ov["villains_per_battle"]
    hand = _hand_of(ov)
    key = draw(st.sampled_from([
        "players", "hand", "battles", "villains_per_battle", "deck_per_battle", "tokens_per_colour",
        "start_tokens", "extra_tokens", "set_bonus", "ties_cancel", "loss_rule", "lost_tokens_to",
        "reward_order", "villains",
    ]))
    if key == "players":
        options = [1, MAX_PLAYERS + 1, 0, -1] + WRONG_INTS
        if "hand" not in ov:
            options.append(2)  # no rulebook hand for 2 players
        value = draw(st.sampled_from(options))
    elif key == "hand":
        kind = draw(st.sampled_from(["low", "high", "repeat", "short", "element type", "type"]))
        i = draw(st.integers(0, len(hand) - 1))
        value = list(hand)
        if kind == "low":
            value[i] = 0
        elif kind == "high":
            value[i] = MAX_CARD + 1
        elif kind == "repeat":
            value.append(value[i])
        elif kind == "short":  # fewer cards than villains per battle (or none at all)
            value = value[: vpb - 1]
        elif kind == "element type":
            value[i] = draw(st.sampled_from([float(value[i]), str(value[i]), None, [value[i]]]))
        else:
            value = draw(st.sampled_from(["1,2,3", 2.5, None, {"a": 1}]))
    elif key == "battles":
        value = draw(st.sampled_from([0, -1, 21] + WRONG_INTS))
    elif key == "villains_per_battle":
        options = [0, DEFAULT_DECK_PER_BATTLE + 1] + WRONG_INTS
        if len(hand) < DEFAULT_DECK_PER_BATTLE:
            options.append(len(hand) + 1)
        value = draw(st.sampled_from(options))
    elif key == "deck_per_battle":
        # 4: a deck smaller than the vendored one (with villains_per_battle <= 4, else the
        # message rightly names villains_per_battle, whose bound it now is).
        options = [0, 51, DEFAULT_DECK_PER_BATTLE + 1] + WRONG_INTS
        if vpb < DEFAULT_DECK_PER_BATTLE:
            options.append(DEFAULT_DECK_PER_BATTLE - 1)
        value = draw(st.sampled_from(options))
    elif key == "tokens_per_colour":
        options = [-1, MAX_TOKENS_PER_COLOUR + 1, "15", 15.0, True]
        low = max(_dealt(ov))  # the least tokens_per_colour that can deal the start tokens
        single = max([*ov["start_tokens"], *(x for e in ov["extra_tokens"] for x in e)])
        if low >= 1 and single <= low - 1:  # see test_tokens_per_colour_below_one_seat_s_share_is_named
            options.append(low - 1)
        value = draw(st.sampled_from(options))
    elif key == "start_tokens":
        kind = draw(st.sampled_from(["negative", "over", "length", "element type", "type"]))
        c = draw(st.integers(0, 2))
        value = list(ov["start_tokens"])
        if kind == "negative":
            value[c] = -1
        elif kind == "over":  # one more than the colour's budget deals
            value[c] += (per_colour - _dealt(ov)[c]) // n + 1
        elif kind == "length":
            value = draw(st.sampled_from([value[:2], value + [0], []]))
        elif kind == "element type":
            value[c] = draw(st.sampled_from([float(value[c]), str(value[c]), True, None]))
        else:
            value = draw(st.sampled_from(["abc", 1.5, None]))
    elif key == "extra_tokens":
        kind = draw(st.sampled_from(["negative", "over", "entries", "length", "element type", "type"]))
        c = draw(st.integers(0, 2))
        value = [list(e) for e in ov["extra_tokens"]] or [[0, 0, 0]]
        seat = draw(st.integers(0, len(value) - 1))
        if kind == "negative":
            value[seat][c] = -1
        elif kind == "over":
            value[seat][c] += per_colour - _dealt(ov)[c] + 1
        elif kind == "entries":  # one per seat of the largest table; those past the count are unused
            value = [[0, 0, 0]] * (MAX_PLAYERS + 1)
        elif kind == "length":
            value[seat] = draw(st.sampled_from([value[seat][:2], value[seat] + [0]]))
        elif kind == "element type":
            value[seat][c] = draw(st.sampled_from([float(value[seat][c]), "1", True, None]))
        else:
            value = draw(st.sampled_from([1, "abc", [1, 2, 3], None]))
    elif key == "set_bonus":
        value = draw(st.sampled_from([-1, 101] + WRONG_INTS))
    elif key == "ties_cancel":
        value = draw(st.sampled_from([1, 0, "yes", "", None, 1.0]))
    elif key in ("loss_rule", "lost_tokens_to", "reward_order"):
        allowed = {"loss_rule": LOSS_RULES, "lost_tokens_to": LOST_TO, "reward_order": REWARD_ORDERS}[key]
        word = st.text("abcdefghijklmnopqrstuvwxyz_", max_size=14).filter(
            lambda w: w.lower().replace("center", "centre") not in allowed)
        value = draw(st.one_of(word, st.sampled_from([1, None, True, ["majority"]])))
    else:
        value = draw(st.sampled_from([1, None, "no-such-deck.json", ""]))
    return {**ov, key: value}, key


@fuzz(400)
@given(bad_rule_overrides())
def test_out_of_bound_rules_are_rejected_by_name(case):
    """A valid variant with one value just outside its bounds (or of the wrong type) raises
    BalanceError (no other exception) whose message names the key."""
    ov, key = case
    with pytest.raises(BalanceError) as e:
        Rules.from_overrides(ov)
    assert key in str(e.value), (key, ov[key], str(e.value))


def test_unknown_rules_key_is_named():
    """An unknown key raises BalanceError naming it (and listing the known ones)."""
    with pytest.raises(BalanceError, match="'hands'.*villains_per_battle"):
        Rules.from_overrides({"hands": [1, 2, 3, 4]})


PARAMS = [(info, p) for info in STRATEGIES.values() for p in info.params]


@st.composite
def bad_strategy_specs(draw):
    """``(spec, param name)``: a strategy spec, with other parameters valid, where one
    parameter is just outside its bounds, not an integer where it must be, not a number, not
    finite (float params), or not a parameter of the strategy at all."""
    info = draw(st.sampled_from(list(STRATEGIES.values())))
    p = draw(st.sampled_from([*info.params, None]))  # None: a name the strategy does not have
    others = []
    for q in info.params:
        if q is not p and draw(st.booleans()):
            v = draw(st.integers(int(q.low), int(q.high)) if q.integer else st.floats(q.low, q.high))
            others.append(f"{q.name}={_param_text(q, v)}")
    if p is None:
        mine = {q.name for q in info.params}
        name = draw(st.sampled_from([q.name for _, q in PARAMS if q.name not in mine] + ["seed", "x"]))
        text = "1"
    else:
        name = p.name
        step = draw(st.sampled_from(["ulp", 1e-9, 0.5, 1.0, 1e9]))
        below = math.nextafter(p.low, -math.inf) if step == "ulp" else p.low - step
        above = math.nextafter(p.high, math.inf) if step == "ulp" else p.high + step
        options = [repr(below), repr(above), "abc", "", " ", "0x10", "1e"]
        if p.integer:
            options += [repr(int(p.low) - 1), repr(int(p.high) + 1)]
            if p.high - p.low >= 1:
                options.append(repr(draw(st.integers(int(p.low), int(p.high) - 1)) + 0.5))
        else:  # integer params: see test_integer_params_reject_nan_and_infinity
            options += ["nan", "inf", "-inf"]
        text = draw(st.sampled_from(options))
    items = draw(st.permutations(others + [f"{name}={text}"]))
    return f"{info.name}:{','.join(items)}", name


@fuzz(300)
@given(bad_strategy_specs())
def test_out_of_bound_strategy_params_are_rejected_by_name(case):
    """A parameter just outside its Param bounds (by one ulp up to 1e9), non-integer where
    Param.integer, not a number, or unknown to the strategy raises BalanceError (no other
    exception) whose message names the parameter."""
    spec, name = case
    with pytest.raises(BalanceError) as e:
        parse_strategy(spec, STRATEGIES)
    assert name in str(e.value), (spec, str(e.value))


# ---- validation gaps found by this file, fixed; kept as regression tests ----

@pytest.mark.parametrize("text", ["nan", "inf", "-inf"])
@pytest.mark.parametrize("spec", ["greedy:samples", "threshold:keep_high"])
def test_integer_params_reject_nan_and_infinity(spec, text):
    """A non-finite value of an integer parameter raises BalanceError naming it."""
    with pytest.raises(BalanceError, match=spec.split(":")[1]):
        parse_strategy(f"{spec}={text}", STRATEGIES)


def test_hand_rejects_booleans():
    """A boolean card value raises BalanceError naming hand, as booleans do for every other
    integer key."""
    with pytest.raises(BalanceError, match="hand"):
        Rules.from_overrides({"hand": [True, 2, 3, 4, 5, 6]})


def test_battles_beyond_the_deck_is_named():
    """battles=4 with the 3-battle default deck raises BalanceError naming battles."""
    with pytest.raises(BalanceError, match="battles"):
        Rules.from_overrides({"battles": 4})


def test_tokens_per_colour_below_one_seat_s_share_is_named():
    """tokens_per_colour=0 with the default start tokens raises BalanceError naming
    tokens_per_colour, the only key the user changed."""
    with pytest.raises(BalanceError, match="tokens_per_colour"):
        Rules.from_overrides({"tokens_per_colour": 0})
