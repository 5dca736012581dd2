"""The d10 pool: DICE-01..DICE-05 with exact faces."""

import random

import pytest

from wodcombat.combat.core.dice import DiceRules, count, roll, roll_faces
from wodcombat.combat.core.errors import InputError


@pytest.mark.rule("DICE-01")
def test_base_difficulty_is_six_in_numetal(numetal):
    assert numetal.dice.base_difficulty == 6


@pytest.mark.rule("DICE-02")
def test_dice_at_or_above_difficulty_succeed_and_ones_cancel():
    r = count([6, 7, 5, 1], 6)
    assert (r.hits, r.ones, r.successes, r.botch) == (2, 1, 1, False)


@pytest.mark.rule("DICE-02")
def test_no_successes_and_a_one_is_a_botch():
    assert count([1, 5, 3], 6).botch


@pytest.mark.rule("DICE-02")
def test_successes_cancelled_by_ones_fail_without_botching():
    r = count([8, 1, 1], 6)
    assert r.successes == 0 and not r.botch


@pytest.mark.rule("DICE-02")
def test_ones_cancel_switch_off():
    r = count([8, 1], 6, DiceRules(ones_cancel=False))
    assert r.successes == 1


@pytest.mark.rule("DICE-03")
def test_specialty_counts_a_ten_twice():
    assert count([10, 7], 6, specialty=True).successes == 3
    assert count([10, 7], 6, specialty=False).successes == 2


@pytest.mark.rule("DICE-03")
def test_specialty_switch_off_in_rules():
    assert count([10], 6, DiceRules(specialty_doubles_tens=False), specialty=True).successes == 1


@pytest.mark.rule("DICE-04")
def test_willpower_success_cannot_be_cancelled_and_prevents_botch():
    r = count([1, 1, 3], 6, willpower=True)
    assert r.successes == 1 and not r.botch
    assert count([8, 1, 1], 6, willpower=True).successes == 1


@pytest.mark.rule("DICE-05")
def test_difficulty_clamped_to_bounds():
    assert count([9], 12).difficulty == 10
    assert count([2], 1).difficulty == 2
    assert count([2], 1).successes == 1


@pytest.mark.rule("DICE-05")
def test_bounds_read_from_rules():
    rules = DiceRules(min_difficulty=3, max_difficulty=9)
    assert count([9], 11, rules).difficulty == 9


@pytest.mark.rule("DMG-04")
def test_roll_that_cannot_botch_only_fails():
    r = count([1, 1], 6, can_botch=False)
    assert not r.botch and r.successes == 0


def test_roll_uses_injected_rng_and_rejects_absurd_pools():
    rng = random.Random(4)
    faces = roll_faces(5, random.Random(4))
    assert roll(5, 6, rng).faces == faces
    with pytest.raises(InputError):
        roll(9999, 6, random.Random(1))


def test_zero_pool_rolls_nothing():
    r = roll(0, 6, random.Random(1))
    assert r.faces == () and r.successes == 0 and not r.botch


@pytest.mark.rule("DICE-02")
@pytest.mark.rule("DICE-03")
@pytest.mark.rule("DICE-04")
def test_roll_count_draws_and_counts_as_roll_faces_then_count():
    """DICE-02..04: ``roll_count`` (one call: draw and count) deals the very faces
    ``roll_faces`` would from the same generator, in order, and counts them as ``count``."""
    from wodcombat.combat.core.dice import roll_count

    for seed in range(40):
        for pool in (0, 1, 3, 7):
            for kw in ({}, {"specialty": True}, {"willpower": True}, {"can_botch": False}):
                want = count(roll_faces(pool, random.Random(seed)), 6, **kw)
                rng = random.Random(seed)
                got = roll_count(pool, 6, rng, **kw)
                assert got == want
                assert rng.random() == (r := random.Random(seed), roll_faces(pool, r))[0].random()


def test_roll_count_asks_randint_of_a_generator_with_its_own():
    """Exact-face dice (tests' FixedDice, the replay's dice) deal through ``randint``."""
    from tests.fixed_dice import FixedDice
    from wodcombat.combat.core.dice import roll_count
    from wodcombat.combat.core.dice_log import RecordingDice

    r = roll_count(4, 7, FixedDice(10, 7, 1, 3), specialty=True)
    assert (r.faces, r.hits, r.ones, r.successes) == ((10, 7, 1, 3), 3, 1, 2)
    rec = RecordingDice(random.Random(5))
    r = roll_count(6, 6, rec)
    assert r.faces == tuple(rec.faces) == roll_faces(6, random.Random(5))
