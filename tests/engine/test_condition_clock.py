"""A condition's clock (issue 31), through both engines' ``apply``: ``+combat/mod
Bob=blinded 3`` lasts three turns (rounds under spotlight) counting the one it is put on,
counts down in the engine state, round-trips through to_dict/from_dict, and ends with an
event the room reads; without a number it lasts until removed. A bad number is refused and
changes nothing. COMP-01 (blinded) is the condition the d10 tests time; PWR-05 counts a
one-turn effect the same way (the READING in rules/README.md)."""

from __future__ import annotations

import pytest

from tests.engine.test_close_flow import ANN, DEE, OTHER, STAFF, Fight
from tests.engine.test_spotlight_engine import ALICE, BOB, ELDER, RULES, scene, sheet, started
from tests.fixed_dice import FixedDice
from wodcombat.combat.core.conditions import Condition
from wodcombat.combat.core import intents as I
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.spotlight.engine import ENGINE as SPOT
from wodcombat.combat.spotlight.state import SpotlightState
from wodcombat.combat.d10.state import CombatState


def blind(f, turns=None, name="blinded", who=DEE):
    return f(I.SetCondition(by=STAFF, actor=who, condition=name, turns=turns))


def pass_turn(f):
    """Both declare something that rolls nothing; Ann acts, then Dee: the next turn."""
    f.declare(DEE, OTHER)
    f.declare(ANN, OTHER)
    return f.act(ANN) + f.act(DEE)


def cond(state, key, name="blinded"):
    return next((k for k in state.get(key).conditions if k.name == name), None)


# ---------------------------------------------------------------- d10


@pytest.mark.rule("COMP-01", "PWR-05")
def test_d10_blinded_3_lasts_turns_1_to_3_and_ends_with_an_event():
    f = Fight()
    ev = blind(f, 3)
    assert [e for e in ev if e["event"] == "condition"][0]["until"] == 3
    assert cond(f.state, DEE) == Condition("blinded", 1, 3, True)
    view = f.engine.view(f.state, f.sheets, f.rs)
    dee = next(r for r in view["rows"] if r["key"] == DEE)
    assert dee["conditions"] == ["blinded"] and dee["timers"] == {"blinded": 3}
    assert not [e for e in pass_turn(f) if e["event"] == "condition"]  # turn 2 begins
    dee = next(r for r in f.engine.view(f.state, f.sheets, f.rs)["rows"] if r["key"] == DEE)
    assert (f.state.turn, dee["timers"]) == (2, {"blinded": 2})
    pass_turn(f)
    assert cond(f.state, DEE).left(3) == 1  # the last turn
    ev = pass_turn(f)  # turn 4 begins: over
    ended = [e for e in ev if e["event"] == "condition"]
    assert ended == [{"event": "condition", "actor": DEE, "condition": "blinded",
                      "removed": ["blinded"], "expired": True}]
    assert [e["event"] for e in ev].index("turn") < [e["event"] for e in ev].index("condition")
    assert cond(f.state, DEE) is None and f.state.turn == 4


@pytest.mark.rule("COMP-01")
def test_d10_without_a_number_it_lasts_until_removed_and_nothing_is_announced():
    f = Fight()
    blind(f)
    assert cond(f.state, DEE) == Condition("blinded", 1, None, False)
    for _ in range(3):
        assert not [e for e in pass_turn(f) if e["event"] == "condition"]
    assert cond(f.state, DEE) is not None
    f(I.SetCondition(by=STAFF, actor=DEE, condition="blinded", remove=True))
    assert cond(f.state, DEE) is None


@pytest.mark.rule("COMP-01")
def test_d10_the_count_round_trips_and_an_old_state_loads_as_until_removed():
    f = Fight()
    blind(f, 2)
    d = f.state.to_dict()
    again = CombatState.from_dict(d)
    assert cond(again, DEE) == Condition("blinded", 1, 2, True)
    assert again.to_dict() == d
    old = {**d, "combatants": [
        {**c, "conditions": [{"name": "blinded", "from": 1}]} if c["key"] == DEE else c
        for c in d["combatants"]]}
    assert cond(CombatState.from_dict(old), DEE) == Condition("blinded", 1, None, False)
    # a condition put on without announce stores as before (older logs, the digest)
    assert Condition("prone", 1, None).to_dict() == {"name": "prone", "from": 1, "until": None}


@pytest.mark.parametrize("turns, match", [(0, "1 to 20 turns"), (999, "1 to 20 turns"),
                                          (-1, "1 to 20 turns")])
def test_d10_a_bad_number_is_refused_and_changes_nothing(turns, match):
    f = Fight()
    before = f.state.to_dict()
    with pytest.raises(InputError, match=match) as err:
        f.engine.apply(f.state, I.SetCondition(by=STAFF, actor=DEE, condition="blinded",
                                               turns=turns), f.sheets, f.rs, FixedDice())
    assert "+combat/mod Bob=blinded 3" in str(err.value)
    assert f.state.to_dict() == before


def test_d10_a_word_where_the_number_goes_is_told_what_to_type():
    f = Fight()
    with pytest.raises(InputError, match="'x' is not a number of turns. Type "
                                         r"\+combat/mod <name>=blinded 3"):
        f.engine.apply(f.state, I.SetCondition(by=STAFF, actor=DEE, condition="blinded x"),
                       f.sheets, f.rs, FixedDice())
    with pytest.raises(InputError, match="without a number"):
        f.engine.apply(f.state, I.SetCondition(by=STAFF, actor=DEE, condition="blinded",
                                               remove=True, turns=2),
                       f.sheets, f.rs, FixedDice())


@pytest.mark.rule("COMP-02")
def test_d10_a_rule_timed_condition_by_hand_is_announced_one_from_damage_is_not():
    """dazed: the YAML's one turn from the next (COMP-02); put on by hand, its end is
    told; a number given by hand replaces the YAML's length."""
    f = Fight()
    blind(f, name="dazed")
    assert cond(f.state, DEE, "dazed") == Condition("dazed", 2, 2, True)
    blind(f, 2, name="dazed", who=ANN)
    assert cond(f.state, ANN, "dazed") == Condition("dazed", 2, 3, True)


# ---------------------------------------------------------------- spotlight


@pytest.fixture(scope="module")
def spot_rs():
    return load_ruleset(RULES, "spotlight")


@pytest.fixture(scope="module")
def spot_sheets(spot_rs):
    """As tests/engine/test_spotlight_engine.py's: Alice BP 3, Bob BP 1, the Elder BP 4."""
    return {ALICE: sheet(spot_rs, splat="vampire", bp=3, wits=2, dexterity=3, melee=2),
            BOB: sheet(spot_rs, splat="vampire", bp=1, wits=3, dexterity=2, firearms=2),
            ELDER: sheet(spot_rs, splat="vampire", bp=4, strength=3, brawl=3)}


def next_round(r):
    """Alice and Bob end their turns; the Storyteller passes the picks and ends the round."""
    r(I.Done(by=ALICE))
    r(I.Advance(by=STAFF))
    r(I.Done(by=BOB))
    r(I.Advance(by=STAFF))


def test_spotlight_blinded_3_counts_rounds_and_ends_with_a_line(spot_rs, spot_sheets):
    r = started(spot_rs, spot_sheets)
    r(I.SetCondition(by=STAFF, actor=BOB, condition="Blinded", turns=3))
    assert cond(r.state, BOB) == Condition("blinded", 1, 3, True)
    added = r.last("condition")
    assert (added["added"], added["from"], added["until"]) == (["blinded"], 1, 3)
    row = next(x for x in SPOT.view(r.state, r.sheets, spot_rs)["rows"] if x["key"] == BOB)
    assert (row["conditions"], row["timers"]) == (["blinded"], {"blinded": 3})
    next_round(r)
    next_round(r)
    assert r.state.round == 3 and cond(r.state, BOB).left(3) == 1
    n, start = len(r.of("condition")), len(r.events)
    next_round(r)
    assert r.state.round == 4 and cond(r.state, BOB) is None
    ended = r.of("condition")[n:]
    assert [e.fields for e in ended] == [{"actor": BOB, "condition": "blinded",
                                          "removed": ["blinded"], "expired": True,
                                          "round": 4}]
    kinds = [e.kind for e in r.events[start:]]
    assert kinds.index("round") < kinds.index("condition")  # said as round 4 begins


def test_spotlight_set_before_round_1_counts_from_round_1(spot_rs, spot_sheets):
    r = scene(spot_rs, spot_sheets)
    r(I.SetCondition(by=STAFF, actor=ALICE, condition="prone", turns=1))
    assert cond(r.state, ALICE, "prone") == Condition("prone", 1, 1, True)
    r(I.Advance(by=STAFF))  # round 1: still prone
    assert cond(r.state, ALICE, "prone") is not None
    next_round(r)
    assert cond(r.state, ALICE, "prone") is None


def test_spotlight_until_removed_round_trips_and_old_states_load(spot_rs, spot_sheets):
    r = started(spot_rs, spot_sheets)
    r(I.SetCondition(by=STAFF, actor=ALICE, condition="grappled"))
    r(I.SetCondition(by=STAFF, actor=BOB, condition="blinded", turns=2))
    d = r.state.to_dict()
    again = SpotlightState.from_dict(d)
    assert again.to_dict() == d and cond(again, BOB) == Condition("blinded", 1, 2, True)
    assert cond(again, ALICE, "grappled") == Condition("grappled", 1, None, False)
    bare = {**d, "combatants": [{k: v for k, v in c.items() if k != "conditions"}
                                for c in d["combatants"]]}
    assert all(not c.conditions for c in SpotlightState.from_dict(bare).combatants)
    for _ in range(3):
        next_round(r)
    assert cond(r.state, ALICE, "grappled") is not None
    r(I.SetCondition(by=STAFF, actor=ALICE, condition="grappled", remove=True))
    assert r.last("condition")["removed"] == ["grappled"] and not r.state.get(ALICE).conditions


@pytest.mark.parametrize("name, turns, err, match", [
    ("blinded", 0, InputError, "1 to 20 rounds"),
    ("blinded", 999, InputError, "1 to 20 rounds"),
    ("blinded x", None, InputError, "'x' is not a number of turns"),
    ("sleepy", None, InputError, "not a condition here. Conditions: blinded"),
])
def test_spotlight_a_bad_condition_or_number_is_refused(spot_rs, spot_sheets, name, turns,
                                                        err, match):
    r = started(spot_rs, spot_sheets)
    r.refused(I.SetCondition(by=STAFF, actor=BOB, condition=name, turns=turns), err, match)
    r.refused(I.SetCondition(by=STAFF, actor=BOB, condition="blinded", remove=True),
              IllegalAction, "Bob is not blinded")
