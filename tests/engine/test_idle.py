"""combat/d10/idle.py: idle players under the combat timeout, with an injected clock (issue 5).

Rule IDs: DEF-04 (the full defense the game declares), TURN-01/TURN-03 (who the turn waits
for), INIT-01 (initiative phase). The clock is a plain number: no sleeps.
"""

from __future__ import annotations

import json

import pytest

from wodcombat.combat.d10 import idle
from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.state import CombatState
from tests.fixed_dice import FixedDice


class PassRules:
    """numetal with ``turns.idle.declare: pass`` (the other value of the switch)."""

    def __init__(self, rs):
        self._rs = rs
        self.name = rs.name

    def section(self, name):
        sec = self._rs.section(name)
        if name == "turns":
            sec = {**sec, "idle": {"declare": "pass"}}
        return sec

    def __getattr__(self, item):
        return getattr(self._rs, item)


def fight(rs):
    """Ann (init 9), Bob (init 5): declaration phase of turn 1, Bob declares first."""
    st = S.new_combat("c1", rs)
    st = S.join(st, "#1", "Ann", rs).state
    st = S.join(st, "#2", "Bob", rs).state
    st = S.roll_initiative(st, "#1", rs, FixedDice(4), rating=5).state
    st = S.roll_initiative(st, "#2", rs, FixedDice(1), rating=4).state
    st = S.advance(st, rs).state
    assert st.phase == "declare" and S.pending(st) == ["#2"]
    return st


@pytest.mark.rule("DEF-04", "TURN-01")
def test_deadline_stamped_and_due_only_when_passed(numetal):
    st = idle.stamp(fight(numetal), 60, now=1000.0)
    assert st.deadline == 1060.0
    # a second stamp (another command while the same prompt waits) keeps the deadline
    assert idle.stamp(st, 60, now=1050.0).deadline == 1060.0
    assert idle.expire(st, numetal, now=1059.9) is None
    assert idle.remaining(st, 1059.0) == pytest.approx(1.0)
    # 0 or None: no timeout, the deadline goes
    assert idle.stamp(st, 0, now=1000.0).deadline is None
    assert idle.stamp(st, None, now=1000.0).deadline is None


@pytest.mark.rule("DEF-04", "TURN-01")
def test_numetal_idle_declarer_gets_full_defense(numetal):
    st = idle.stamp(fight(numetal), 60, now=1000.0)
    step = idle.expire(st, numetal, now=1060.0)
    bob = step.state.get("#2")
    assert bob.declared and bob.desperate and bob.actions == ({"kind": "dodge"},)
    assert step.events[0] == {"event": "timeout", "actor": "#2", "what": "declare",
                              "default": "full_defense", "deadline": 1060.0}
    # the turn moved on to Ann, with no deadline until the caller stamps one
    assert S.pending(step.state) == ["#1"] and step.state.deadline is None
    assert idle.stamp(step.state, 60, now=1061.0).deadline == 1121.0


@pytest.mark.rule("TURN-01")
def test_pass_switch_declares_nothing(numetal):
    rs = PassRules(numetal)
    st = idle.stamp(fight(numetal), 30, now=0.0)
    step = idle.expire(st, rs, now=31.0)
    bob = step.state.get("#2")
    assert bob.declared and bob.actions == ()
    assert step.events[0]["default"] == "pass"


@pytest.mark.rule("TURN-03", "TURN-04", "DEF-04")
def test_idle_actor_passes_the_slot_then_forfeits_but_keeps_defense(numetal):
    """Issue 11: a late actor passes only their slot (they delay, TURN-04, and may act later
    this turn); waited for again at the end of the phase, the action is forfeited."""
    st = fight(numetal)
    st = S.declare(st, "#2", [{"kind": "dodge"}], numetal).state
    st = S.declare(st, "#1", [{"kind": "attack", "target": "#2"}], numetal).state
    assert st.phase == "act" and S.pending(st) == ["#1"]
    st = idle.stamp(st, 10, now=0.0)
    step = idle.expire(st, numetal, now=10.0)
    assert step.events[0]["what"] == "act" and step.events[0]["default"] == "delay"
    assert step.state.get("#1").delayed and step.state.turn == 1
    # Bob's dodge never holds the turn up: Ann, delayed, is waited for again
    assert S.pending(step.state) == ["#1"]
    st = idle.stamp(step.state, 10, now=10.0)
    step = idle.expire(st, numetal, now=20.0)
    assert step.events[0]["default"] == "pass"
    skip = next(e for e in step.events if e["event"] == "skip")
    assert skip == {"event": "skip", "actor": "#1", "what": "act", "forfeited": [0]}
    assert not any(e["event"] == "act" for e in step.events)
    assert step.state.turn == 2 and S.pending(step.state) == ["#2"]


@pytest.mark.rule("INIT-01")
def test_idle_in_initiative_sits_the_turn_out_and_gone_are_removed(numetal):
    st = S.new_combat("c2", numetal)
    for k, n in (("#1", "Ann"), ("#2", "Bob"), ("#3", "Cy")):
        st = S.join(st, k, n, numetal).state
    st = idle.stamp(st, 5, now=0.0)
    step = idle.expire(st, numetal, now=5.0, gone={"#3"})
    kinds = [(e["actor"], e["default"]) for e in step.events if e["event"] == "timeout"]
    assert kinds == [("#1", "pass"), ("#2", "pass"), ("#3", "removed")]
    assert step.state.get("#3") is None
    assert step.state.get("#1").joined_turn == 2


def test_deadline_survives_the_state_round_trip(numetal):
    """What a reload does: the state goes through its JSON form and the deadline with it."""
    st = idle.stamp(fight(numetal), 120, now=5000.0)
    back = CombatState.from_dict(json.loads(json.dumps(st.to_dict())))
    assert back.deadline == 5120.0
    assert idle.expire(back, numetal, now=5120.0).state.get("#2").declared
