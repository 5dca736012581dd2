"""The state's copies the scheduler makes at every step (issue 32: fewer, cheaper copies):
the same values as the general paths they stand in for, the key index handed on only while
it still holds."""

from __future__ import annotations

import pathlib
from dataclasses import replace

import pytest

from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.state import CombatState
from wodcombat.combat.rules.ruleset import load_ruleset

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


def _three(rs) -> CombatState:
    st = S.new_combat("c1", rs)
    for key in ("#1", "#2", "#3"):
        st = S.join(st, key, f"N{key[1:]}", rs).state
    return st


def test_with_combatant_is_with_combatants_of_one(rs):
    st = _three(rs)
    c = replace(st.get("#2"), rating=7)
    one = st.with_combatant(c)
    assert one == st.with_combatants({"#2": c})
    assert one.get("#2").rating == 7 and one.get("#1") is st.get("#1")
    assert one.index() == {"#1": 0, "#2": 1, "#3": 2}


def test_with_combatant_of_someone_not_in_the_fight_changes_nothing(rs):
    st = _three(rs)
    stranger = replace(st.get("#1"), key="#9")
    assert st.with_combatant(stranger) is st


def test_with_combatant_on_a_stored_state_with_a_key_twice_replaces_both(rs):
    st = _three(rs)
    twice = replace(st, combatants=st.combatants + (st.get("#1"),), _index=None)
    c = replace(st.get("#1"), rating=4)
    out = twice.with_combatant(c)
    assert [x.rating for x in out.combatants if x.key == "#1"] == [4, 4]


@pytest.mark.rule("TURN-01")
def test_turn_01_a_new_turn_hands_on_an_index_that_still_finds_everyone(rs):
    """TURN-01: a new turn copies every combatant; the key index kept on the state must
    point at the new ones, not at the last turn's."""
    st = _three(rs)
    for key in ("#1", "#2", "#3"):
        st = S.roll_initiative(st, key, rs, rating=3 + int(key[1:]), faces=(5,)).state
    st = S.advance(st, rs).state
    for key in ("#3", "#2", "#1"):  # declaring: low to high (INIT-06 ties: join order)
        waiting = S.prompts(st)
        assert waiting and waiting[0][1] == "declare", waiting
        st = S.declare(st, waiting[0][0], [{"kind": "dodge"}], rs).state
    assert st.turn == 2 and st.phase == "declare"
    for c in st.combatants:
        assert st.get(c.key) is c and not c.declared


def _declared(rs) -> CombatState:
    """Turn 1's act phase: N1 (initiative 9) and N2 (10) dodge, N3 (11) does something."""
    st = _three(rs)
    for key in ("#1", "#2", "#3"):
        st = S.roll_initiative(st, key, rs, rating=3 + int(key[1:]), faces=(5,)).state
    st = S.advance(st, rs).state
    for key in ("#1", "#2"):  # declaring: low to high
        st = S.declare(st, key, [{"kind": "dodge"}], rs).state
    return S.declare(st, "#3", [{"kind": "other"}], rs).state


@pytest.mark.rule("TURN-01", "TURN-03", "DEF-01")
def test_turn_01_an_act_that_ends_the_turn_settles_on_one_draft(rs):
    """TURN-01/03: the last act of a turn moves through the extra phase into the next turn's
    declarations on one draft, frozen once: the state the step-by-step copies made (a new
    turn's combatants, the declare phase's slots low to high, seq one on), its key index
    handed on to the new combatants, its prompts kept. DEF-01: a declared dodge spent on an
    attack moves only seq."""
    st = _declared(rs)
    assert st.phase == "act" and S.prompts(st) == [("#3", "act")]
    spent = S.defend(st, "#1", rs, against="#3")
    assert spent.state.seq == st.seq + 1 and spent.state.cursor == st.cursor
    assert spent.state.get("#1").used == (0,) and spent.state.get("#3") is st.get("#3")
    assert S.prompts(spent.state) == [("#3", "act")]
    step = S.act(spent.state, "#3", rs)
    out = step.state
    assert (out.turn, out.phase, out.cursor, out.seq) == (2, "declare", 0, st.seq + 2)
    assert [s.keys for s in out.order] == [("#1",), ("#2",), ("#3",)]
    assert [e["event"] for e in step.events] == ["act", "phase", "turn", "phase", "prompt"]
    for c in out.combatants:
        assert out.get(c.key) is c and not c.declared and c.used == ()
    assert out._index[0] is out.combatants
    assert out == CombatState.from_dict(out.to_dict())
    assert S.prompts(out) == [("#1", "declare")]
