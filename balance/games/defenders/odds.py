"""Exact odds of one Defenders of the Realm combat against a general: no simulation, only
convolution of per-die pmfs (numpy) and binomial card survival under the curse (scipy).

A participant is ``(card_dice, modifier, reroll_passes)``: ``card_dice`` is a tuple with one entry
per committed hero card (1 or 2 dice each), ``modifier`` is added to every die's face, and each
reroll pass rerolls every die that currently misses (natural 1s included). A die hits when it is
not a natural 1 and ``face + modifier >= to_hit``.

Skills: ``curse`` loses each card on a 1 of its own d6 before the attack; ``parry`` lets every
final 1 cancel one hit of the same or a later participant; ``no_rerolls`` sets every reroll pass
count to 0; ``regeneration`` does not change one combat (it always starts at the life given).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy.stats import binom

from balance.core.errors import BalanceError, check_int, one_of

MAX_PARTICIPANTS = 4
MAX_MODIFIER = 5
MAX_REROLL_PASSES = 3
MAX_TABLE_DICE = 40


@dataclass(frozen=True)
class GeneralOdds:
    """What a combat needs to know about a general: its full life, to-hit number and skill."""
    name: str
    life: int
    to_hit: int
    skill: str  # curse, parry, no_rerolls or regeneration


GENERALS: dict[str, GeneralOdds] = {g.name: g for g in (
    GeneralOdds("Balazarg", 6, 4, "curse"),
    GeneralOdds("Gorgutt", 6, 3, "parry"),
    GeneralOdds("Varkolak", 5, 4, "no_rerolls"),
    GeneralOdds("Sapphire", 4, 5, "regeneration"),
)}


def hit_probability(to_hit: int, modifier: int = 0) -> float:
    """P(one roll of a d6 hits): faces 2..6 with ``face + modifier >= to_hit``; a natural 1 always misses."""
    check_int("to_hit", to_hit, 1, 6)
    check_int("modifier", modifier, 0, MAX_MODIFIER)
    return sum(1 for face in range(2, 7) if face + modifier >= to_hit) / 6


def _general(general) -> GeneralOdds:
    if isinstance(general, GeneralOdds):
        return general
    if general in GENERALS:
        return GENERALS[general]
    raise one_of("general", general, GENERALS)


def _participants(general: GeneralOdds, participants) -> list[tuple[tuple[int, ...], int, int]]:
    """The checked participants, with reroll passes set to 0 against ``no_rerolls``."""
    participants = list(participants)
    if not 1 <= len(participants) <= MAX_PARTICIPANTS:
        raise BalanceError(f"participants: {len(participants)} given; allowed: 1..{MAX_PARTICIPANTS}")
    checked = []
    for part in participants:
        if not isinstance(part, (tuple, list)) or len(part) != 3:
            raise BalanceError(f"participant {part!r} is not allowed; allowed: (card_dice, modifier, reroll_passes)")
        cards, modifier, passes = part
        if not isinstance(cards, (tuple, list)) or not cards:
            raise BalanceError(f"card_dice={cards!r} is not allowed; allowed: a non-empty tuple of 1s and 2s")
        cards = tuple(cards)
        for dice in cards:
            if isinstance(dice, bool) or dice not in (1, 2):
                raise BalanceError(f"card dice={dice!r} is not allowed; allowed: 1 or 2")
        check_int("modifier", modifier, 0, MAX_MODIFIER)
        check_int("reroll_passes", passes, 0, MAX_REROLL_PASSES)
        checked.append((cards, modifier, 0 if general.skill == "no_rerolls" else passes))
    return checked


def _life(general: GeneralOdds, life) -> int:
    if life is None:
        return general.life
    check_int("life", life, 1, general.life)
    return life


def _die_outcomes(to_hit: int, modifier: int, passes: int) -> tuple[float, float, float]:
    """(P(final hit), P(final face 1), P(final non-1 miss)) of one die after ``passes`` rerolls."""
    miss = 1.0 - hit_probability(to_hit, modifier)
    p_hit = 1.0 - miss ** (passes + 1)
    p_one = miss ** passes / 6  # every roll missed and the last one shows a 1
    return p_hit, p_one, max(0.0, 1.0 - p_hit - p_one)  # max: rounding when the only miss is a 1


def _dice_count_pmf(cards: tuple[int, ...], cursed: bool) -> np.ndarray:
    """float64[total dice + 1]: P(the participant rolls n dice), a binomial per card size under the curse."""
    ones, twos = cards.count(1), cards.count(2)
    if not cursed:
        pmf = np.zeros(ones + 2 * twos + 1)
        pmf[-1] = 1.0
        return pmf
    survive = 5 / 6  # a card is lost on a 1 of its curse die
    pmf_ones = binom.pmf(np.arange(ones + 1), ones, survive)
    pmf_twos = np.zeros(2 * twos + 1)
    pmf_twos[::2] = binom.pmf(np.arange(twos + 1), twos, survive)  # s surviving 2-die cards give 2s dice
    return np.convolve(pmf_ones, pmf_twos)


def _participant_pmf(general: GeneralOdds, cards, modifier: int, passes: int) -> np.ndarray:
    """float64[n+1, n+1] (n = the participant's dice with every card kept): P(hits == h, final ones == o).

    Sums, over the curse's dice counts, the n-fold convolution of one die's trinomial pmf.
    Without parry the ones do not matter, so they are folded into column 0.
    """
    p_hit, p_one, p_miss = _die_outcomes(general.to_hit, modifier, passes)
    counts = _dice_count_pmf(cards, general.skill == "curse")
    n = len(counts) - 1
    dice = np.zeros((n + 1, n + 1))
    dice[0, 0] = 1.0  # the (hits, ones) pmf of 0 dice
    joint = counts[0] * dice
    for k in range(1, n + 1):
        step = p_miss * dice
        step[1:, :] += p_hit * dice[:-1, :]
        step[:, 1:] += p_one * dice[:, :-1]
        dice = step
        joint += counts[k] * dice
    if general.skill != "parry":
        joint = np.column_stack([joint.sum(axis=1), np.zeros((n + 1, n))])
    return joint


def net_hits_distribution(general, participants, life=None) -> np.ndarray:
    """float64[total dice + 1]: P(net hits of the whole combat == k), every participant rolling.

    The slay-stop is ignored: net hits are never negative, so stopping once the general is slain
    changes no kill. ``life`` is only checked (the distribution does not depend on it).
    Parry is a pool of ones carried in participant order, so the state is (pool, net hits so far).
    """
    general = _general(general)
    participants = _participants(general, participants)
    _life(general, life)
    total = sum(sum(cards) for cards, _, _ in participants)
    state = np.zeros((total + 1, total + 1))  # [pool of uncancelled ones, net hits so far]
    state[0, 0] = 1.0
    for cards, modifier, passes in participants:
        joint = _participant_pmf(general, cards, modifier, passes)
        after = np.zeros_like(state)
        for hits, ones in zip(*np.nonzero(joint)):
            for pool in np.nonzero(state.any(axis=1))[0]:
                pool_now = pool + ones  # this participant's ones cancel its own hits too
                net = max(0, hits - pool_now)
                after[max(0, pool_now - hits), net:] += joint[hits, ones] * state[pool, :total + 1 - net]
        state = after
    return state.sum(axis=0)


def kill_probability(general, participants, life: int | None = None) -> float:
    """P(the general is slain in this combat): P(net hits >= life), life defaulting to its full life."""
    general = _general(general)
    life = _life(general, life)
    return float(net_hits_distribution(general, participants)[life:].sum())


def attack_table(general, max_dice: int = 12, modifier: int = 0, reroll_passes: int = 0) -> pl.DataFrame:
    """One hero attacking alone from full life with 1..max_dice dice: a row per dice count.

    Columns: general (str), dice (int64), kill_probability, expected_net_hits (float64; the mean
    net hits, overkill included). Against the curse, ``dice`` means that many 1-die cards (each
    die is lost alone), and cards_2dice_kill_probability gives the kill probability with dice/2
    two-die cards for even dice (null for odd dice): the same expected dice, lost in pairs, so
    more spread (it can help a kill that needs nearly every die). Other generals have no such
    column: the split of dice among cards matters only under the curse.
    """
    general = _general(general)
    check_int("max_dice", max_dice, 1, MAX_TABLE_DICE)
    rows = []
    for dice in range(1, max_dice + 1):
        dist = net_hits_distribution(general, [((1,) * dice, modifier, reroll_passes)])
        row = {"general": general.name, "dice": dice, "kill_probability": float(dist[general.life:].sum()),
               "expected_net_hits": float(dist @ np.arange(len(dist)))}
        if general.skill == "curse":
            row["cards_2dice_kill_probability"] = (
                kill_probability(general, [((2,) * (dice // 2), modifier, reroll_passes)]) if dice % 2 == 0 else None)
        rows.append(row)
    schema = {"general": pl.String, "dice": pl.Int64, "kill_probability": pl.Float64, "expected_net_hits": pl.Float64}
    if general.skill == "curse":
        schema["cards_2dice_kill_probability"] = pl.Float64
    return pl.DataFrame(rows, schema=schema)
