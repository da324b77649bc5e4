"""Strategies for Avengers: Infinity War — the card game: declarations and njit choosers.

A strategy decides which card a seat plays against the revealed villain. Every hand is public
(played cards stay face up until the battle ends), so strategies may read every remaining hand.
The centre pick and the colour lost on a tie always use the rulebook's auto-choices
(``tokens.centre_pick`` / ``tokens.loss_colour``).

``choose_card`` returns the *index* of the chosen card in the seat's ascending remaining hand.
Randomness comes only from the seat's own stream (slot ``1 + seat``), so changing one seat's
strategy never changes another seat's draws. ``reference.py`` restates every strategy in plain
Python; tests check both pick the same cards.
"""
from enum import IntEnum

from balance._jit import jit, jit_inline
from balance.rng import below
from balance.strategy import Param, StrategyInfo

from .rules import MAX_CARD, MAX_PLACES, MAX_PLAYERS, Cfg, RewardOrder
from .tokens import centre_pick, score, score3, tokens_lost


class StrategyId(IntEnum):
    RANDOM = 0
    LOWEST = 1
    HIGHEST = 2
    THRESHOLD = 3
    GREEDY = 4


MAX_PARAMS = 4

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo("random", StrategyId.RANDOM, "plays a card chosen uniformly from its hand"),
        StrategyInfo("lowest", StrategyId.LOWEST, "always plays its lowest card"),
        StrategyInfo("highest", StrategyId.HIGHEST, "always plays its highest card"),
        StrategyInfo(
            "threshold",
            StrategyId.THRESHOLD,
            "estimates the others' contribution as the mean of each remaining hand and plays "
            "the cheapest card that reaches the villain's strength plus a margin; holds back "
            "its highest cards while more villains remain in the battle; if no card reaches, "
            "plays its lowest",
            (
                Param("margin", 1.0, 0.0, 20.0, "safety margin added to the villain's strength"),
                Param(
                    "keep_high", 1.0, 0.0, float(MAX_CARD),
                    "number of highest cards held back unless this is the battle's last villain",
                    integer=True,
                ),
            ),
        ),
        StrategyInfo(
            "greedy",
            StrategyId.GREEDY,
            "samples the opponents' plays uniformly from their remaining hands and scores each "
            "card by w_reward x expected score gain from rewards and centre tokens (score-aware: "
            "completing a Y-R-B set counts) - w_risk x expected score lost as the lowest card of "
            "a defeat - w_future x the card's value kept for the rest of the battle",
            (
                Param("samples", 8.0, 1.0, 64.0, "opponent plays sampled per decision", integer=True),
                Param("w_reward", 1.0, 0.0, 10.0, "weight of the expected score gained"),
                Param("w_risk", 1.0, 0.0, 10.0, "weight of the expected score lost on a defeat"),
                Param(
                    "w_future", 0.5, 0.0, 10.0,
                    "cost per pip above the hand's lowest card, times the share of the battle's "
                    "villains still to come",
                ),
            ),
        ),
    )
}

# Layout of the int64 scratch array the greedy chooser works in (allocated once per chunk).
OFF_PLACE = 0  # score gain of each reward place            [MAX_PLACES]
OFF_LOST = OFF_PLACE + MAX_PLACES  # tokens a defeat would take    [3]
OFF_T = OFF_LOST + 3  # working copy of own tokens                  [3]
OFF_C = OFF_T + 3  # working copy of the centre                     [3]
OFF_OPP = OFF_C + 3  # sampled opponent cards                       [MAX_PLAYERS]
OFF_CUT = OFF_OPP + MAX_PLAYERS  # 1 if that sample cancels another  [MAX_PLAYERS]
OFF_GAIN = OFF_CUT + MAX_PLAYERS  # summed reward gain per card     [MAX_CARD]
OFF_RISK = OFF_GAIN + MAX_CARD  # summed defeat loss per card        [MAX_CARD]
OFF_CENTRE = OFF_RISK + MAX_CARD  # gain of taking k centre tokens   [3 * tokens_per_colour + 1]


def scratch_size(tokens_per_colour: int) -> int:
    return OFF_CENTRE + 3 * tokens_per_colour + 1


@jit_inline
def choose_card(sid, prm, seat, hands, hand_n, tokens, reserve, centre, villain, strength,
                rewards, n_places, cfg, remaining_after, states, scratch):
    """Index into ``hands[seat, :hand_n[seat]]`` of the card seat plays.

    hands int64[P, H] (ascending, first hand_n[p] valid); tokens int64[P, 3];
    reserve, centre int64[3]; states uint64[1 + P];
    remaining_after: villains of this battle still to come after this one;
    prm float64[P, MAX_PARAMS] every seat's parameters (row ``seat`` is this one's).
    """
    if sid == StrategyId.RANDOM:
        return below(states, 1 + seat, hand_n[seat])
    if sid == StrategyId.LOWEST:
        return 0
    if sid == StrategyId.HIGHEST:
        return hand_n[seat] - 1
    if sid == StrategyId.THRESHOLD:
        return _threshold(prm, seat, hands, hand_n, strength[villain], cfg, remaining_after)
    return _greedy(prm, seat, hands, hand_n, tokens, reserve, centre, villain, strength,
                   rewards, n_places, cfg, remaining_after, states, scratch)


@jit_inline
def _threshold(prm, seat, hands, hand_n, strength, cfg, remaining_after):
    expected = 0.0
    for q in range(cfg[Cfg.PLAYERS]):
        if q != seat:
            total = 0
            for i in range(hand_n[q]):
                total += hands[q, i]
            expected += total / hand_n[q]
    need = strength + prm[seat, 0] - expected
    n = hand_n[seat]
    eligible = n
    if remaining_after > 0:
        eligible = max(1, n - int(prm[seat, 1]))
    for i in range(eligible):
        if hands[seat, i] >= need:
            return i
    return 0


@jit_inline
def _greedy(prm, seat, hands, hand_n, tokens, reserve, centre, villain, strength, rewards,
            n_places, cfg, remaining_after, states, scratch):
    players = cfg[Cfg.PLAYERS]
    bonus = cfg[Cfg.SET_BONUS]
    ties_cancel = cfg[Cfg.TIES_CANCEL] == 1
    lowest_first = cfg[Cfg.REWARD_ORDER] == RewardOrder.LOWEST_FIRST
    samples = int(prm[seat, 0])
    t = tokens[seat]
    now = score(t, bonus)
    s_needed = strength[villain]
    places = n_places[villain]

    # Gain of each place, taking the tokens the places before it took from the reserve first.
    ry, rr, rb = reserve[0], reserve[1], reserve[2]
    for k in range(places):
        gy = min(rewards[villain, k, 0], ry)
        gr = min(rewards[villain, k, 1], rr)
        gb = min(rewards[villain, k, 2], rb)
        scratch[OFF_PLACE + k] = score3(t[0] + gy, t[1] + gr, t[2] + gb, bonus) - now
        ry -= gy
        rr -= gr
        rb -= gb

    # Gain of taking k centre tokens by the auto-choice (ignoring the others' picks between).
    in_centre = centre[0] + centre[1] + centre[2]
    own = scratch[OFF_T:OFF_T + 3]
    pool = scratch[OFF_C:OFF_C + 3]
    for c in range(3):
        own[c] = t[c]
        pool[c] = centre[c]
    scratch[OFF_CENTRE] = 0
    for k in range(1, in_centre + 1):
        c = centre_pick(own, pool, bonus)
        own[c] += 1
        pool[c] -= 1
        scratch[OFF_CENTRE + k] = score(own, bonus) - now

    lost = scratch[OFF_LOST:OFF_LOST + 3]
    tokens_lost(t, cfg[Cfg.LOSS_RULE], bonus, lost)
    loss_value = now - score3(t[0] - lost[0], t[1] - lost[1], t[2] - lost[2], bonus)

    n = hand_n[seat]
    for i in range(n):
        scratch[OFF_GAIN + i] = 0
        scratch[OFF_RISK + i] = 0
    m = players - 1
    for _ in range(samples):
        j = 0
        for q in range(players):
            if q != seat:
                scratch[OFF_OPP + j] = hands[q, below(states, 1 + seat, hand_n[q])]
                j += 1
        opp_min = 1 << 30
        for j in range(m):
            o = scratch[OFF_OPP + j]
            cut = 0
            if ties_cancel:
                for k in range(m):
                    if k != j and scratch[OFF_OPP + k] == o:
                        cut = 1
            scratch[OFF_CUT + j] = cut
            opp_min = min(opp_min, o)
        for i in range(n):
            card = hands[seat, i]
            total = 0
            counted = 0
            ahead = 0
            mine_cut = False
            for j in range(m):
                o = scratch[OFF_OPP + j]
                if ties_cancel and o == card:
                    mine_cut = True
                elif scratch[OFF_CUT + j] == 0:
                    total += o
                    counted += 1
                    if (o < card) if lowest_first else (o > card):
                        ahead += 1
            if not mine_cut:
                total += card
                counted += 1
            if total >= s_needed:
                if not mine_cut:
                    gain = scratch[OFF_PLACE + ahead] if ahead < places else 0
                    if in_centre > 0:
                        share = in_centre // counted + (1 if ahead < in_centre % counted else 0)
                        gain += scratch[OFF_CENTRE + share]
                    scratch[OFF_GAIN + i] += gain
            elif card <= opp_min:
                scratch[OFF_RISK + i] += loss_value

    vpb = cfg[Cfg.VILLAINS_PER_BATTLE]
    best = 0
    best_utility = 0.0
    for i in range(n):
        utility = (prm[seat, 1] * scratch[OFF_GAIN + i] / samples
                   - prm[seat, 2] * scratch[OFF_RISK + i] / samples
                   - prm[seat, 3] * (hands[seat, i] - hands[seat, 0]) * remaining_after / vpb)
        if i == 0 or utility > best_utility:
            best = i
            best_utility = utility
    return best
