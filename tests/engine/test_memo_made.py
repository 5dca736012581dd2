"""The memo hands an equal Side, Context or Attack out again (combat/core/memo.py ``made``):
the same object for the same facts, a new one, carrying the new fact, when one differs.
The attack layer's answers never depend on which of two equal values it got; the plan
lookups find a value handed out again by identity (combat/d10/attack_memo.py ``_token``).
"""

from __future__ import annotations

import pytest

from wodcombat.combat.core.memo import SIZE, Memo
from wodcombat.combat.d10 import close, strike

from .test_foresee import ANN, DEE, Outnumbered


def _context(f, **facts):
    return close.context(f, ANN, DEE, "Knife", **{"range_yards": 0, **facts})


@pytest.mark.rule("CLOSE-08")
def test_close_08_an_equal_context_is_the_same_object_and_equals_a_fresh_build(numetal):
    o = Outnumbered(numetal)
    f = o.fight()
    first = _context(f)
    assert _context(f) is first
    assert first.attacker is _context(f).attacker  # its Sides too
    fresh = _context(o.fight())  # another memo builds its own, equal in every field
    assert fresh is not first and fresh == first
    assert first.attacker.opponents == 2  # CLOSE-08: Dee and Eve engage Ann


@pytest.mark.rule("CLOSE-08")
def test_close_08_a_context_with_another_fact_is_another_object_with_that_fact(numetal):
    f = Outnumbered(numetal).fight()
    counted = _context(f)
    one_foe = _context(f, foes={ANN: 1, DEE: 1})  # the declaration check's count
    farther = _context(f, range_yards=3)
    assert one_foe is not counted and one_foe.attacker.opponents == 1
    assert counted.attacker.opponents == 2
    assert farther is not counted and farther.range_yards == 3
    assert farther.attacker is counted.attacker  # the Sides did not change


def test_an_attack_is_handed_out_again_for_the_same_declared_action(numetal):
    f = Outnumbered(numetal).fight()
    action = {"kind": "attack", "target": DEE, "maneuver": "strike"}
    a = strike._attack(f, ANN, DEE, action, None, 0, None)
    assert strike._attack(f, ANN, DEE, dict(action), None, 0, None) is a
    kick = strike._attack(f, ANN, DEE, {**action, "maneuver": "kick"}, None, 0, None)
    assert kick is not a and kick.maneuver == "kick" and a.maneuver == "strike"


def test_the_memo_keeps_a_bounded_number_of_made_values():
    memo = Memo()
    for n in range(3000):
        memo.keep(("value", n), n)
    assert len(memo.made) <= SIZE
