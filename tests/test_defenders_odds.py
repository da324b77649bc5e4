"""Defenders of the Realm combat odds (balance.games.defenders.odds): hand-computed examples,
exact brute-force enumeration of every face for small combats, a seeded Monte Carlo check with
an independent simulator, input validation and the attack table."""
import itertools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from balance.core.errors import BalanceError
from balance.games.defenders import odds
from balance.games.defenders.odds import GENERALS, attack_table, hit_probability, kill_probability, \
    net_hits_distribution

BALAZARG, GORGUTT, VARKOLAK, SAPPHIRE = (GENERALS[n] for n in ("Balazarg", "Gorgutt", "Varkolak", "Sapphire"))


# --- 1. the spec's worked examples -----------------------------------------------------------------------------

def test_the_generals_are_the_spec_s():
    assert [(g.name, g.life, g.to_hit, g.skill) for g in GENERALS.values()] == [
        ("Balazarg", 6, 4, "curse"), ("Gorgutt", 6, 3, "parry"), ("Varkolak", 5, 4, "no_rerolls"),
        ("Sapphire", 4, 5, "regeneration")]


@pytest.mark.parametrize("to_hit, modifier, expected", [
    (3, 0, 2 / 3), (4, 0, 1 / 2), (5, 0, 1 / 3), (4, 1, 2 / 3),
    (2, 0, 5 / 6), (1, 5, 5 / 6),  # a natural 1 always misses
    (6, 0, 1 / 6), (5, 2, 2 / 3), (5, 3, 5 / 6), (6, 5, 5 / 6),
])
def test_hit_probability_per_roll(to_hit, modifier, expected):
    assert hit_probability(to_hit, modifier) == pytest.approx(expected, abs=1e-15)


# --- 2. small cases by hand ------------------------------------------------------------------------------------

def test_one_die_against_sapphire_at_one_life():
    assert kill_probability(SAPPHIRE, [((1,), 0, 0)], life=1) == pytest.approx(1 / 3, abs=1e-15)
    assert kill_probability(SAPPHIRE, [((1,), 0, 1)], life=1) == pytest.approx(1 - (2 / 3) ** 2, abs=1e-15)
    assert kill_probability(SAPPHIRE, [((1,), 0, 3)], life=1) == pytest.approx(1 - (2 / 3) ** 4, abs=1e-15)


def test_two_dice_against_gorgutt_at_one_life_enumerating_the_36_outcomes():
    kills = 0
    for faces in itertools.product(range(1, 7), repeat=2):
        hits = sum(f != 1 and f >= 3 for f in faces)
        ones = sum(f == 1 for f in faces)
        kills += hits - ones >= 1  # each 1 parries one hit
    assert kills == 24  # 16 double hits + 8 hit-and-miss-with-a-2
    assert kill_probability(GORGUTT, [((2,), 0, 0)], life=1) == pytest.approx(kills / 36, abs=1e-15)
    assert kill_probability(GORGUTT, [((1, 1), 0, 0)], life=1) == pytest.approx(kills / 36, abs=1e-15)


def test_one_two_die_card_against_balazarg_at_one_life():
    # the card survives the curse (5/6), then at least one of its 2 dice hits (3/4)
    assert kill_probability(BALAZARG, [((2,), 0, 0)], life=1) == pytest.approx(5 / 6 * 3 / 4, abs=1e-15)


def test_varkolak_ignores_rerolls_and_the_distribution_has_one_entry_per_die():
    parts = [((1, 2), 1, 3), ((2,), 0, 2)]
    dist = net_hits_distribution(VARKOLAK, parts)
    assert dist.shape == (6,) and dist.sum() == pytest.approx(1, abs=1e-14)
    np.testing.assert_allclose(dist, net_hits_distribution(VARKOLAK, [((1, 2), 1, 0), ((2,), 0, 0)]), atol=1e-15)


# --- 3. exact brute force over every face ----------------------------------------------------------------------

def brute_force(general, participants):
    """Exact net-hit distribution (Fractions, all participants rolling) and the kill chance per life, by
    enumerating every curse die and every face of every roll a die may make (unused faces just repeat)."""
    passes = [0 if general.skill == "no_rerolls" else p for _, _, p in participants]
    curse_slots = sum(len(cards) for cards, _, _ in participants) if general.skill == "curse" else 0
    die_slots = sum(sum(cards) * (p + 1) for (cards, _, _), p in zip(participants, passes))
    total = sum(sum(cards) for cards, _, _ in participants)
    counts = [0] * (total + 1)
    kills = [0] * (general.life + 1)
    for faces in itertools.product(range(1, 7), repeat=curse_slots + die_slots):
        curse, rolls = iter(faces[:curse_slots]), iter(faces[curse_slots:])
        net_total, pool, slain_at = 0, 0, []
        for (cards, modifier, _), p in zip(participants, passes):
            hits = ones = 0
            for dice in cards:
                lost = general.skill == "curse" and next(curse) == 1
                for _ in range(dice):
                    seq = [next(rolls) for _ in range(p + 1)]
                    face = seq[0]
                    for again in seq[1:]:  # a reroll pass rerolls a die that misses
                        if face != 1 and face + modifier >= general.to_hit:
                            break
                        face = again
                    if not lost:
                        hits += face != 1 and face + modifier >= general.to_hit
                        ones += face == 1
            if general.skill == "parry":
                pool += ones
                net = max(0, hits - pool)
                pool -= min(pool, hits)
            else:
                net = hits
            net_total += net
            slain_at.append(net_total)
        counts[net_total] += 1
        for life in range(1, general.life + 1):
            kills[life] += any(n >= life for n in slain_at)  # the slay-stop: slain once cumulative net >= life
    n = 6 ** (curse_slots + die_slots)
    return [Fraction(c, n) for c in counts], {life: Fraction(kills[life], n) for life in range(1, general.life + 1)}


BRUTE_CASES = {
    "curse-one-card": (BALAZARG, [((1, 2), 1, 0)]),
    "curse-two-heroes-reroll": (BALAZARG, [((1,), 0, 1), ((1,), 2, 0)]),
    "parry-rerolls": (GORGUTT, [((2,), 0, 1)]),
    "parry-two-heroes": (GORGUTT, [((1,), 0, 1), ((1, 1), 0, 0)]),
    "parry-order-a": (GORGUTT, [((2,), 0, 0), ((1,), 1, 1)]),
    "parry-order-b": (GORGUTT, [((1,), 1, 1), ((2,), 0, 0)]),
    "no-rerolls": (VARKOLAK, [((1, 2), 0, 3)]),
    "no-rerolls-two-heroes": (VARKOLAK, [((1,), 1, 2), ((2,), 0, 1)]),
    "regeneration-rerolls": (SAPPHIRE, [((1,), 1, 1), ((1,), 0, 2)]),
}


@pytest.mark.parametrize("case", BRUTE_CASES)
def test_the_module_equals_brute_force_enumeration(case):
    general, parts = BRUTE_CASES[case]
    dist, kills = brute_force(general, parts)
    np.testing.assert_allclose(net_hits_distribution(general, parts), [float(p) for p in dist], rtol=0, atol=1e-12)
    for life, p in kills.items():
        assert kill_probability(general, parts, life=life) == pytest.approx(float(p), abs=1e-12)


def test_parry_order_matters_and_brute_force_agrees_in_both_orders():
    a, b = ((1,), 0, 0), ((1,), 2, 0)  # b always hits Gorgutt unless a 1; a's 1 can parry b's hit, not the reverse
    forward, backward = kill_probability(GORGUTT, [a, b], life=1), kill_probability(GORGUTT, [b, a], life=1)
    assert forward == pytest.approx(2 / 3 + 1 / 6 * 5 / 6, abs=1e-15)  # a hits, or a misses with a 2 and b hits
    assert backward == pytest.approx(5 / 6, abs=1e-15)  # b hits; a's later 1 cannot cancel it
    assert forward == pytest.approx(float(brute_force(GORGUTT, [a, b])[1][1]), abs=1e-12)
    assert backward == pytest.approx(float(brute_force(GORGUTT, [b, a])[1][1]), abs=1e-12)
    order_a, order_b = (kill_probability(GORGUTT, BRUTE_CASES[k][1], life=2)
                        for k in ("parry-order-a", "parry-order-b"))
    assert abs(order_a - order_b) > 1e-3
    # without parry the order is irrelevant
    assert kill_probability(SAPPHIRE, [a, b], life=1) == pytest.approx(kill_probability(SAPPHIRE, [b, a], life=1))


# --- 4. Monte Carlo with an independent simulator --------------------------------------------------------------

def simulate_kills(general, participants, life, n, rng):
    """Fraction of n simulated combats that slay the general, rolling faces straight from the rules."""
    cursed = general.skill == "curse"
    # the curse dice come before any attack die: one per committed card, the card lost on a 1
    kept = [rng.integers(1, 7, (n, len(cards))) != 1 if cursed else np.ones((n, len(cards)), bool)
            for cards, _, _ in participants]
    health = np.full(n, life)
    pool = np.zeros(n, np.int64)
    for (cards, modifier, passes), card_kept in zip(participants, kept):
        if general.skill == "no_rerolls":
            passes = 0
        die_card = np.repeat(np.arange(len(cards)), cards)
        faces = rng.integers(1, 7, (n, len(die_card)))
        for _ in range(passes):
            missed = (faces == 1) | (faces + modifier < general.to_hit)
            faces = np.where(missed, rng.integers(1, 7, faces.shape), faces)
        alive_dice = card_kept[:, die_card]
        hits = (alive_dice & (faces != 1) & (faces + modifier >= general.to_hit)).sum(axis=1)
        if general.skill == "parry":
            pool += (alive_dice & (faces == 1)).sum(axis=1)
            cancelled = np.minimum(pool, hits)
            hits, pool = hits - cancelled, pool - cancelled
        health = np.where(health > 0, health - hits, health)  # a slain general takes no more hits
    return float((health <= 0).mean())


MONTE_CARLO_CASES = {
    "curse-two-heroes": (BALAZARG, [((1, 2, 2), 1, 1), ((2, 1), 0, 0)], 6),
    "parry-three-heroes": (GORGUTT, [((2, 2), 0, 0), ((1, 1, 2), 1, 1), ((2,), 2, 2)], 6),
    "parry-four-heroes": (GORGUTT, [((1, 1), 0, 0), ((2,), 1, 0), ((1,), 0, 3), ((2, 1), 0, 1)], 4),
    "no-rerolls": (VARKOLAK, [((2, 2, 1), 1, 3), ((1, 1), 0, 2)], 5),
    "regeneration-rerolls": (SAPPHIRE, [((2, 2), 0, 2)], 4),
    "regeneration-hurt": (SAPPHIRE, [((1, 2), 1, 1), ((1,), 0, 0)], 2),
}


@pytest.mark.parametrize("case", MONTE_CARLO_CASES)
def test_kill_probability_agrees_with_a_seeded_simulation(case):
    general, parts, life = MONTE_CARLO_CASES[case]
    n = 200_000
    exact = kill_probability(general, parts, life=life)
    assert 0.02 < exact < 0.98  # a rate the simulation can actually test
    simulated = simulate_kills(general, parts, life, n, np.random.default_rng(20261204))
    # 4.5 standard errors: a correct module fails a check with probability ~7e-6 (two-sided normal tail)
    assert abs(simulated - exact) <= 4.5 * np.sqrt(exact * (1 - exact) / n)


# --- 5. validation ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, named", [
    (lambda: kill_probability(GORGUTT, [((3,), 0, 0)]), "card dice=3"),
    (lambda: kill_probability(GORGUTT, [((1, 0), 0, 0)]), "card dice=0"),
    (lambda: kill_probability(GORGUTT, [((), 0, 0)]), "card_dice=()"),
    (lambda: kill_probability(GORGUTT, [((1,), 6, 0)]), "modifier=6"),
    (lambda: kill_probability(GORGUTT, [((1,), -1, 0)]), "modifier=-1"),
    (lambda: kill_probability(GORGUTT, [((1,), True, 0)]), "modifier=True"),
    (lambda: kill_probability(GORGUTT, [((1,), 0, 4)]), "reroll_passes=4"),
    (lambda: kill_probability(GORGUTT, [((1,), 0)]), "((1,), 0)"),
    (lambda: kill_probability(GORGUTT, []), "participants: 0"),
    (lambda: kill_probability(GORGUTT, [((1,), 0, 0)] * 5), "participants: 5"),
    (lambda: kill_probability(GORGUTT, [((1,), 0, 0)], life=0), "life=0"),
    (lambda: kill_probability(BALAZARG, [((1,), 0, 0)], life=7), "life=7"),
    (lambda: kill_probability(SAPPHIRE, [((1,), 0, 0)], life=5), "life=5"),
    (lambda: net_hits_distribution(SAPPHIRE, [((1,), 0, 0)], life=5), "life=5"),
    (lambda: kill_probability("Lord Blackthorne", [((1,), 0, 0)]), "'Lord Blackthorne'"),
    (lambda: hit_probability(4, 6), "modifier=6"),
    (lambda: hit_probability(0), "to_hit=0"),
    (lambda: attack_table(SAPPHIRE, max_dice=0), "max_dice=0"),
    (lambda: attack_table(SAPPHIRE, reroll_passes=4), "reroll_passes=4"),
    (lambda: attack_table(SAPPHIRE, modifier=9), "modifier=9"),
])
def test_bad_input_is_a_one_line_balance_error_naming_the_value(call, named):
    with pytest.raises(BalanceError) as err:
        call()
    assert named in str(err.value) and "allowed" in str(err.value) and "\n" not in str(err.value)


def test_a_general_may_be_given_by_name():
    parts = [((1, 2), 1, 1)]
    assert kill_probability("Gorgutt", parts, life=2) == kill_probability(GORGUTT, parts, life=2)


# --- 6. the attack table ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GENERALS)
@pytest.mark.parametrize("reroll_passes", [0, 2])
def test_attack_table_is_monotone_and_zero_below_the_general_s_life(name, reroll_passes):
    general = GENERALS[name]
    table = attack_table(general, max_dice=12, reroll_passes=reroll_passes)
    columns = ["general", "dice", "kill_probability", "expected_net_hits"]
    assert table.columns == columns + (["cards_2dice_kill_probability"] if general.skill == "curse" else [])
    assert table["dice"].to_list() == list(range(1, 13)) and table["dice"].dtype == pl.Int64
    assert (table["general"] == name).all()
    kill = table["kill_probability"].to_numpy()
    assert (np.diff(kill) >= -1e-15).all()
    assert (kill[:general.life - 1] == 0).all() and kill[general.life - 1] > 0  # one die is at most one hit
    if general.skill in ("no_rerolls", "regeneration"):  # no curse, no parry: mean hits = dice * P(final hit)
        passes = 0 if general.skill == "no_rerolls" else reroll_passes
        p_hit = 1 - (1 - hit_probability(general.to_hit)) ** (passes + 1)
        np.testing.assert_allclose(table["expected_net_hits"], np.arange(1, 13) * p_hit, atol=1e-12)


def test_sapphire_at_full_life_with_three_dice_and_no_rerolls_cannot_die():
    assert attack_table(SAPPHIRE, max_dice=3)["kill_probability"].to_list() == [0.0, 0.0, 0.0]
    assert kill_probability(SAPPHIRE, [((1, 2), 0, 0)]) == 0.0


def test_attack_table_against_the_curse_has_the_two_die_card_column():
    table = attack_table(BALAZARG, max_dice=8, modifier=1)
    two = table["cards_2dice_kill_probability"].to_list()
    assert two[0::2] == [None] * 4  # odd dice counts
    for dice in (2, 4, 6, 8):
        assert two[dice - 1] == pytest.approx(kill_probability(BALAZARG, [((2,) * (dice // 2), 1, 0)]), abs=1e-15)
    # one die per card: each die survives the curse alone, so the mean is dice * 5/6 * P(hit)
    np.testing.assert_allclose(table["expected_net_hits"], np.arange(1, 9) * 5 / 6 * hit_probability(4, 1), atol=1e-12)
    assert two[5] > table["kill_probability"][5]  # 6 of 6 hits: 3 cards must survive rather than 6


def test_the_module_is_exact_not_simulated():
    source = open(odds.__file__).read()
    assert "random" not in source and "default_rng" not in source
