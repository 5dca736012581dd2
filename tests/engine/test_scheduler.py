"""The combat state and turn scheduler: INIT-01..06, TURN-01..11, MAN-05..08, DEF-04, and
the COMP-02/COMP-04 hooks, with exact dice faces."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.core.errors import IllegalAction, InputError, RulesError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.d10.state import CombatState
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """Child rulesets of numetal that flip the turn switches the catalog's variants name."""
    root = tmp_path_factory.mktemp("rules")
    shutil.copytree(RULES / "numetal", root / "numetal")
    shutil.copytree(RULES / "core", root / "core")
    children = {
        "revised": """
turns:
  abort: {to_kinds: null, free_if_pointless: true, non_defensive_difficulty: 1}
""",
        "everyman": """
initiative:
  apply_wound_penalty: true
  apply_race_modifiers: true
turns:
  split_actions_in_main_phase: true
  powers_in_split: false
  abort: {difficulty: 8}
  change: {enabled: true}
""",
        "rerolling": """
initiative:
  reroll_each_turn: true
  apply_race_modifiers: false
turns:
  default_mode: simple
""",
        "broken": """
turns:
  abort: {difficulty: six}
""",
    }
    for name, text in children.items():
        (root / name).mkdir()
        (root / name / "ruleset.yaml").write_text(
            f"ruleset: {{extends: numetal, description: test {name}}}\n")
        (root / name / "turns.yaml").write_text(text)
    return root


def load_variant(variants, name):
    return load_ruleset(variants, name)


def roundtrip(state: CombatState) -> CombatState:
    """What one Attribute holds across a reload: JSON text, read back."""
    back = CombatState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert back == state
    return back


def events(step, kind):
    return [e for e in step.events if e["event"] == kind]


def started(rs, spec, *, mode=None, reroll=None, flags=()):
    """A combat past turn 1's initiative: spec is [(key, rating, face), ...]."""
    st = S.new_combat("c1", rs, mode=mode, reroll_initiative=reroll, flags=flags)
    for key, rating, face in spec:
        st = S.join(st, key, key.title(), rs, is_npc=key.startswith("npc")).state
        st = S.roll_initiative(st, key, rs, rating=rating, faces=[face]).state
    return S.advance(st, rs).state


def declare_all(st, rs, plan):
    """Declare in the order the scheduler asks (low to high), from plan {key: [actions]}."""
    while st.phase == "declare":
        key = S.pending(st)[0]
        st = S.declare(st, key, plan.get(key, []), rs).state
    return st


A = {"kind": "strike", "target": "b"}
DODGE = {"kind": "dodge"}


# ---------------------------------------------------------------- initiative


@pytest.mark.rule("INIT-01")
def test_initiative_is_rating_plus_one_d10_with_exact_faces(rs):
    st = S.new_combat("c1", rs)
    st = S.join(st, "a", "Alice", rs).state
    step = S.roll_initiative(st, "a", rs, FixedDice(4), rating=7)
    (ev,) = events(step, "initiative")
    assert ev.to_dict() == {"event": "initiative", "actor": "a", "rating": 7, "faces": [4],
                  "modifiers": [], "total": 11, "not_applied": []}
    c = step.state.get("a")
    assert (c.init_faces, c.init_total) == ((4,), 11)


@pytest.mark.rule("INIT-01")
def test_initiative_rating_is_dexterity_plus_wits_from_the_sheet(rs):
    from wodcombat.combat.core.sheet import Sheet

    sheet = Sheet(traits={"Dexterity": 3, "Wits": 4, "Strength": 5})
    assert S.initiative_rating(sheet, rs) == 7


@pytest.mark.rule("INIT-02")
def test_npc_rating_is_typed_kept_and_required(rs):
    st = S.new_combat("c1", rs, reroll_initiative=True)
    st = S.join(st, "npc1", "Thug", rs, is_npc=True).state
    with pytest.raises(InputError, match="Dexterity \\+ Wits"):
        S.roll_initiative(st, "npc1", rs, FixedDice(5))
    st = S.roll_initiative(st, "npc1", rs, FixedDice(5), rating=4).state
    assert st.get("npc1").init_total == 9
    with pytest.raises(IllegalAction, match="already rolled"):
        S.roll_initiative(st, "npc1", rs, FixedDice(5), rating=4)
    # INIT-04 re-roll next turn: the stored rating serves, no need to retype it
    st = S.advance(st, rs).state
    st = S.declare(st, "npc1", [A], rs).state
    st = S.act(st, "npc1", rs).state
    assert (st.turn, st.phase) == (2, "initiative")
    st = S.roll_initiative(st, "npc1", rs, FixedDice(1)).state
    assert st.get("npc1").init_total == 5


@pytest.mark.rule("INIT-03")
def test_wound_penalty_not_applied_by_numetal_but_reported(rs, variants):
    st = S.join(S.new_combat("c1", rs), "a", "A", rs).state
    (ev,) = events(S.roll_initiative(st, "a", rs, rating=6, faces=[5], wound_penalty=-2),
                   "initiative")
    assert ev["total"] == 11
    assert ev["not_applied"] == [{"reason": "wounds", "value": -2}]
    everyman = load_variant(variants, "everyman")
    st = S.join(S.new_combat("c1", everyman), "a", "A", everyman).state
    (ev,) = events(S.roll_initiative(st, "a", everyman, rating=6, faces=[5], wound_penalty=2),
                   "initiative")
    assert ev["total"] == 9 and ev["modifiers"] == [{"reason": "wounds", "value": -2}]


@pytest.mark.rule("INIT-03")
def test_manual_modifiers_are_applied_as_typed(rs):
    st = S.join(S.new_combat("c1", rs), "a", "A", rs).state
    st = S.roll_initiative(st, "a", rs, rating=6, faces=[5], manual=[("wounds", -1)]).state
    assert st.get("a").init_total == 10


@pytest.mark.rule("INIT-05")
def test_gurahl_minus_two_in_winter_only(rs, variants):
    def total(flags, race, ruleset=rs):
        st = S.new_combat("c1", ruleset, flags=flags)
        st = S.join(st, "a", "A", ruleset).state
        step = S.roll_initiative(st, "a", ruleset, rating=6, faces=[5], race=race)
        return step.state.get("a").init_total, events(step, "initiative")[0]

    on = load_variant(variants, "everyman")  # apply_race_modifiers: true
    assert total(["winter"], "Gurahl", on)[0] == 9
    assert total(["Winter"], "gurahl", on)[1]["modifiers"] == [
        {"reason": "Gurahl in winter", "value": -2}]
    assert total([], "Gurahl", on)[0] == 11
    assert total(["winter"], "Garou", on)[0] == 11
    # numetal (defect 18): "+combat/init doesn't apply this or any other modifier
    # automatically": reported, not applied.
    value, ev = total(["winter"], "Gurahl")
    assert value == 11 and ev["not_applied"] == [{"reason": "Gurahl in winter", "value": -2}]


@pytest.mark.rule("INIT-05")
def test_flags_can_be_set_on_a_running_combat(rs):
    st = S.new_combat("c1", rs)
    st = S.set_options(st, rs, flags=["winter"]).state
    assert st.options.flags == ("winter",)


@pytest.mark.rule("INIT-06")
def test_ties_higher_rating_first_equal_ratings_simultaneous(rs):
    st = started(rs, [("b", 5, 7), ("a", 7, 5), ("c", 7, 5), ("d", 3, 2)])
    # totals: a 12 (rating 7), c 12 (7), b 12 (5), d 5
    assert [(s.initiative, s.rating, s.keys) for s in st.order] == [
        (5, 3, ("d",)), (12, 5, ("b",)), (12, 7, ("a", "c"))]
    st = declare_all(st, rs, {"a": [A], "b": [A], "c": [A], "d": [A]})
    assert st.phase == "act"
    assert sorted(S.pending(st)) == ["a", "c"]
    step = S.act(st, "c", rs)
    assert events(step, "act")[0]["simultaneous"] == ["a"]
    st = S.act(step.state, "a", rs).state
    assert S.pending(st) == ["b"]


# ---------------------------------------------------------------- the classic turn


@pytest.mark.rule("TURN-01", "TURN-02", "TURN-03", "TURN-06", "TURN-07", "MAN-05")
def test_full_turn_of_three_declare_act_extra_with_roundtrips(rs):
    st = started(rs, [("a", 8, 7), ("b", 6, 4), ("c", 3, 2)])  # 15, 10, 5
    st = roundtrip(st)
    assert (st.turn, st.phase, S.pending(st)) == (1, "declare", ["c"])
    with pytest.raises(IllegalAction, match="TURN-01"):
        S.declare(st, "a", [A], rs)
    with pytest.raises(IllegalAction, match="until everyone has declared"):
        S.act(st, "c", rs)
    st = S.declare(st, "c", [{"kind": "strike", "target": "b"}], rs).state
    step = S.declare(st, "b", [DODGE], rs)
    assert events(step, "prompt")[0].to_dict() == {"event": "prompt", "turn": 1, "phase": "declare",
                                          "what": "declare", "who": ["a"]}
    step = S.declare(step.state, "a", [A, {"kind": "kick", "target": "c"}], rs)
    (dec,) = events(step, "declare")
    assert dec["penalties"] == [[{"reason": "multiple actions (2)", "dice": -2}],
                                [{"reason": "multiple actions (2)", "dice": -3}]]
    st = step.state
    phase = events(step, "phase")[0]
    assert (phase["phase"], [s["keys"] for s in phase["order"]]) == (
        "act", [["a"], ["b"], ["c"]])
    st = roundtrip(st)
    # TURN-03: high to low; b declared only a dodge, so the turn never waits for b
    assert S.pending(st) == ["a"]
    with pytest.raises(IllegalAction, match="TURN-03"):
        S.act(st, "c", rs)
    with pytest.raises(IllegalAction, match="already declared"):
        S.declare(st, "c", [A], rs)  # TURN-02: extras can't be added once acting starts
    step = S.act(st, "a", rs)
    (ev,) = events(step, "act")
    assert (ev["index"], ev["phase"], ev["action"]["kind"], ev["modifiers"]) == (
        0, "main", "strike", [{"reason": "multiple actions (2)", "dice": -2}])
    st = step.state
    assert S.pending(st) == ["c"]
    with pytest.raises(IllegalAction, match="extra phase"):
        S.act(st, "a", rs)
    step = S.defend(st, "b", rs, against="c")  # c's strike at b: b's dodge resolves with it
    assert events(step, "defend")[0]["modifiers"] == []
    step = S.act(step.state, "c", rs)
    st = step.state
    assert st.phase == "extra" and S.pending(st) == ["a"]
    st = roundtrip(st)
    step = S.act(st, "a", rs)
    (ev,) = events(step, "act")
    assert (ev["index"], ev["phase"], ev["action"]["kind"], ev["modifiers"][0]["dice"]) == (
        1, "extra", "kick", -3)
    st = step.state
    assert (st.turn, st.phase, S.pending(st)) == (2, "declare", ["c"])
    assert [e["event"] for e in step.events] == ["act", "turn", "phase", "prompt"]
    assert st.get("a").actions == () and st.get("a").init_total == 15  # INIT-04 off: kept
    roundtrip(st)


@pytest.mark.rule("TURN-02")
def test_willpower_and_powers_must_be_declared(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [{"kind": "strike", "target": "b", "willpower": True}],
                              "b": [{"kind": "strike", "target": "a"}]})
    st = S.act(st, "a", rs, willpower=True).state
    with pytest.raises(IllegalAction, match="TURN-02"):
        S.act(st, "b", rs, willpower=True)
    with pytest.raises(IllegalAction, match="TURN-02"):
        S.act(st, "b", rs, power="Potence")


# ---------------------------------------------------------------- delay


@pytest.mark.rule("TURN-04")
def test_delay_then_interrupt_a_slower_character(rs):
    st = started(rs, [("a", 8, 7), ("b", 6, 4), ("c", 3, 2)])
    st = declare_all(st, rs, {k: [A] for k in "abc"})
    step = S.delay(st, "a", rs)
    assert events(step, "delay") and S.pending(step.state) == ["b"]
    st = S.act(step.state, "b", rs).state
    assert S.pending(st) == ["c"]
    step = S.act(st, "a", rs)  # a acts before c: at any later moment of the turn
    assert events(step, "act")[0]["interrupt"] is True
    st = step.state
    assert S.pending(st) == ["c"] and not st.get("a").delayed
    st = S.act(st, "c", rs).state
    assert st.turn == 2


@pytest.mark.rule("TURN-04", "INIT-06")
def test_delayed_to_the_end_act_higher_rating_first(rs):
    st = started(rs, [("a", 4, 9), ("b", 8, 3), ("c", 2, 3)])  # a 13 (r4), b 11 (r8), c 5
    st = declare_all(st, rs, {k: [A] for k in "abc"})
    st = S.delay(st, "a", rs).state
    st = S.delay(st, "b", rs).state
    st = S.act(st, "c", rs).state
    # both delayed "until the same moment": the higher rating (b) goes first
    assert (st.phase, S.pending(st)) == ("act", ["b"])
    with pytest.raises(IllegalAction):
        S.delay(st, "b", rs)
    st = S.act(st, "b", rs).state
    assert S.pending(st) == ["a"]
    st = S.act(st, "a", rs).state
    assert st.turn == 2
    roundtrip(st)


# ---------------------------------------------------------------- abort


@pytest.mark.rule("TURN-08")
def test_abort_with_a_successful_willpower_roll_defends_now(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [A], "b": [{"kind": "strike", "target": "a"}]})
    step = S.abort(st, "b", DODGE, rs, willpower=3, faces=[6, 2, 3])
    (ev,) = events(step, "abort")
    assert ev["success"] and ev["performed"] and ev["spend"] is None
    assert ev["roll"]["faces"] == [6, 2, 3] and ev["roll"]["difficulty"] == 6
    assert ev["from"]["kind"] == "strike"
    b = step.state.get("b")
    assert b.actions[0]["kind"] == "dodge" and b.used == (0,) and b.aborted_to == DODGE
    st = S.act(step.state, "a", rs).state
    assert st.turn == 2  # b's only action was the dodge: the turn does not wait for b


@pytest.mark.rule("TURN-08")
def test_abort_failed_roll_keeps_the_declared_action_unless_wp_spent(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [A], "b": [{"kind": "strike", "target": "a"}]})
    step = S.abort(st, "b", DODGE, rs, willpower=3, faces=[5, 2, 3])
    (ev,) = events(step, "abort")
    assert not ev["success"] and not ev["performed"]
    st = roundtrip(step.state)
    assert st.get("b").actions[0]["kind"] == "strike" and st.get("b").abort_failed
    with pytest.raises(IllegalAction, match="Willpower point"):
        S.abort(st, "b", DODGE, rs, willpower=3, faces=[9, 9, 9])  # no second roll
    step = S.abort(st, "b", DODGE, rs, spend_willpower=True)
    (ev,) = events(step, "abort")
    assert ev["success"] and ev["roll"] is None
    assert ev["spend"] == {"pool": "Willpower", "amount": 1}
    assert step.state.get("b").used == (0,)


@pytest.mark.rule("TURN-08")
def test_abort_only_before_acting_and_only_to_a_defense_in_numetal(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [A], "b": [A]})
    with pytest.raises(IllegalAction, match="block, dodge, parry"):
        S.abort(st, "b", {"kind": "kick"}, rs, spend_willpower=True)
    st = S.act(st, "a", rs).state
    with pytest.raises(IllegalAction, match="already acted"):
        S.abort(st, "a", DODGE, rs, spend_willpower=True)


@pytest.mark.rule("TURN-08")
def test_abort_revised_any_action_free_if_pointless_plus_one_unless_defensive(variants):
    rev = load_variant(variants, "revised")
    st = started(rev, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rev, {"a": [A], "b": [{"kind": "strike", "target": "x"}]})
    step = S.abort(st, "b", {"kind": "kick", "target": "a"}, rev, pointless=True)
    (ev,) = events(step, "abort")
    assert ev["free"] and ev["spend"] is None and ev["roll"] is None
    assert not ev["performed"]  # not a defense: performed in b's place in the order
    assert ev["modifiers"] == [{"reason": "changed action", "difficulty": 1}]
    st = S.act(step.state, "a", rev).state
    (ev,) = events(S.act(st, "b", rev), "act")
    assert ev["action"]["kind"] == "kick" and ev["modifiers"][0]["difficulty"] == 1


@pytest.mark.rule("TURN-08")
def test_abort_everyman_difficulty_eight(variants):
    ev_rs = load_variant(variants, "everyman")
    st = started(ev_rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, ev_rs, {"a": [A], "b": [A]})
    (ev,) = events(S.abort(st, "b", DODGE, ev_rs, willpower=2, faces=[7, 7]), "abort")
    assert ev["roll"]["difficulty"] == 8 and not ev["success"]


@pytest.mark.rule("TURN-08")
def test_abort_rolls_with_the_rng(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [A], "b": [A]})
    (ev,) = events(S.abort(st, "b", DODGE, rs, FixedDice(10, 1), willpower=2), "abort")
    assert ev["roll"]["faces"] == [10, 1] and not ev["success"]  # the 1 cancels the 10


# ---------------------------------------------------------------- defenses


@pytest.mark.rule("TURN-09")
def test_slower_character_declares_defense_against_anticipated_attack(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2), ("c", 5, 5)])  # a 15, c 10, b 5
    st = S.declare(st, "b", [{"kind": "block", "against": "a"}], rs).state
    st = declare_all(st, rs, {"a": [{"kind": "strike", "target": "b"}],
                              "c": [{"kind": "strike", "target": "b"}]})
    assert S.anticipated_defense(st, "b", "a") == (0, {"kind": "block", "against": "a"})
    assert S.anticipated_defense(st, "b", "c") is None
    with pytest.raises(IllegalAction, match="TURN-09"):
        S.defend(st, "b", rs, against="c")
    step = S.defend(st, "b", rs, against="a")
    assert events(step, "defend")[0]["anticipated"] is True
    fresh = started(rs, [("a", 8, 7), ("b", 3, 2)])
    with pytest.raises(IllegalAction, match="TURN-09"):  # only a defense answers an attack
        S.declare(fresh, "b", [{"kind": "strike", "against": "a"}], rs)


@pytest.mark.rule("TURN-07")
def test_a_defense_declared_second_happens_in_the_extra_phase(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"b": [A, DODGE], "a": [A]})
    with pytest.raises(IllegalAction, match="extra phase"):
        S.defend(st, "b", rs, against="a")


@pytest.mark.rule("DEF-04")
def test_desperate_defense_minus_one_per_later_defense(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    with pytest.raises(IllegalAction, match="DEF-04"):
        S.declare(st, "b", [A], rs, desperate=True)
    st = S.declare(st, "b", [DODGE], rs, desperate=True).state
    st = S.declare(st, "a", [A], rs).state
    dice = []
    for kind in ("dodge", "block", "parry"):
        step = S.defend(st, "b", rs, against="a", kind=kind)
        (ev,) = events(step, "defend")
        dice.append(sum(m.get("dice", 0) for m in ev["modifiers"]))
        st = step.state
    assert dice == [0, -1, -2]
    assert S.pending(st) == ["a"]  # a desperate defender never holds the turn up


# ---------------------------------------------------------------- simple mode, re-roll


@pytest.mark.rule("TURN-05")
def test_simple_mode_declare_and_act_high_to_low(rs):
    st = started(rs, [("a", 8, 7), ("npc1", 6, 4), ("c", 3, 2)], mode="simple")
    assert st.phase == "act"
    assert S.prompts(st) == [("a", "declare")]
    with pytest.raises(IllegalAction, match="declare first"):
        S.act(st, "a", rs)
    # the runner telegraphs the NPC at turn start
    st = S.declare(st, "npc1", [{"kind": "strike", "target": "c"}], rs, early=True).state
    with pytest.raises(IllegalAction, match="TURN-05"):
        S.declare(st, "c", [A], rs, early=True)  # only NPCs
    st = S.declare(st, "a", [A], rs).state
    assert S.prompts(st) == [("a", "act")]
    st = S.act(st, "a", rs).state
    assert S.prompts(st) == [("npc1", "act")]
    st = S.act(roundtrip(st), "npc1", rs).state
    assert S.prompts(st) == [("c", "declare")]
    st = S.declare(st, "c", [A], rs).state
    st = S.act(st, "c", rs).state
    assert (st.turn, st.phase) == (2, "act")


@pytest.mark.rule("TURN-05")
def test_mode_is_fixed_once_combat_starts_and_early_npc_refused_in_classic(rs):
    st = S.new_combat("c1", rs)
    st = S.set_options(st, rs, mode="simple").state
    assert st.options.mode == "simple"
    st = started(rs, [("a", 8, 7), ("npc1", 3, 2)])
    with pytest.raises(IllegalAction, match="TURN-05"):
        S.set_options(st, rs, mode="simple")
    with pytest.raises(IllegalAction, match="TURN-05"):
        S.declare(st, "npc1", [A], rs, early=True)


@pytest.mark.rule("INIT-04")
def test_reroll_option_rerolls_each_turn(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)], reroll=True)
    st = declare_all(st, rs, {"a": [A], "b": [A]})
    st = S.act(st, "a", rs).state
    step = S.act(st, "b", rs)
    st = step.state
    assert (st.turn, st.phase, sorted(S.pending(st))) == (2, "initiative", ["a", "b"])
    assert st.get("a").init_total is None and st.get("a").rating == 8
    st = S.roll_initiative(st, "a", rs, faces=[1]).state  # a 9
    step = S.roll_initiative(st, "b", rs, faces=[10])  # b 13: now b is faster
    st = step.state
    assert st.phase == "declare" and [s.keys for s in st.order] == [("a",), ("b",)]
    roundtrip(st)


@pytest.mark.rule("INIT-04", "TURN-05")
def test_ruleset_defaults_for_mode_and_reroll(variants):
    rr = load_variant(variants, "rerolling")
    st = S.new_combat("c1", rr)
    assert st.options.mode == "simple" and st.options.reroll_initiative


# ---------------------------------------------------------------- conditions


@pytest.mark.rule("COMP-02", "TURN-06")
def test_dazed_loses_next_turns_actions(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [A], "b": [A]})
    st = S.add_condition(st, "b", "dazed", rs).state  # a's strike dazed b
    assert not st.get("b").lost and S.pending(st) == ["a"]
    st = S.act(st, "a", rs).state
    st = S.act(st, "b", rs).state  # this turn b still acts
    assert st.turn == 2 and st.get("b").lost
    assert S.pending(st) == ["a"]  # b is not asked to declare
    with pytest.raises(IllegalAction, match="dazed"):
        S.declare(st, "b", [A], rs)
    st = S.declare(st, "a", [A], rs).state
    with pytest.raises(IllegalAction, match="dazed"):
        S.defend(st, "b", rs, against="a")
    st = S.act(roundtrip(st), "a", rs).state
    assert st.turn == 3 and not st.get("b").lost and st.get("b").conditions == ()
    assert S.pending(st) == ["b"]


@pytest.mark.rule("COMP-04", "INIT-06")
def test_knocked_down_minus_two_initiative_next_turn(rs):
    st = started(rs, [("a", 5, 5), ("b", 4, 5)])  # a 10, b 9
    st = declare_all(st, rs, {"a": [A], "b": [A]})
    st = S.add_condition(st, "a", "knocked_down", rs).state
    assert [s.keys for s in st.order] == [("a",), ("b",)]  # not this turn
    st = S.act(st, "a", rs).state
    step = S.act(st, "b", rs)
    phase = events(step, "phase")[-1]
    assert (phase["turn"], phase["phase"]) == (2, "declare")
    assert phase["order"] == [{"initiative": 8, "rating": 5, "keys": ["a"]},
                              {"initiative": 9, "rating": 4, "keys": ["b"]}]
    assert S.effective_initiative(step.state.get("a"), 2, rs) == 8


@pytest.mark.rule("COMP-04")
def test_prone_until_an_action_spent_rising(rs):
    st = started(rs, [("a", 5, 5), ("b", 4, 5)])
    st = S.add_condition(st, "b", "prone", rs).state
    st = declare_all(st, rs, {"a": [A], "b": [{"kind": "rise"}, A]})
    st = S.act(st, "a", rs).state
    assert S.active_conditions(st.get("b"), st.turn) == ("prone",)
    step = S.act(st, "b", rs)
    assert events(step, "act")[0]["removed"] == ["prone"]
    assert step.state.get("b").conditions == ()


# ---------------------------------------------------------------- extra actions


@pytest.mark.rule("MAN-05", "MAN-06", "MAN-07")
def test_celerity_worked_example_minus_two_minus_three_then_three_clean(rs):
    st = started(rs, [("v", 8, 7), ("b", 3, 2)])
    step = S.activate_celerity(st, "v", 3, rs)
    (ev,) = events(step, "extra_actions")
    assert ev["turn"] == 2 and ev["spend"] == {"pool": "Blood", "amount": 1}
    st = step.state
    with pytest.raises(IllegalAction, match="once a turn"):
        S.activate_celerity(st, "v", 3, rs)
    cel = {"kind": "strike", "target": "b", "extra": "celerity"}
    with pytest.raises(IllegalAction, match="MAN-07"):  # not before next turn
        S.declare(S.declare(st, "b", [A], rs).state, "v", [A, cel], rs)
    st = declare_all(st, rs, {"v": [A], "b": [A]})
    st = S.act(S.act(st, "v", rs).state, "b", rs).state
    assert st.turn == 2 and st.get("v").extras == {"celerity": 3}
    st = roundtrip(st)
    st = S.declare(st, "b", [A], rs).state
    with pytest.raises(IllegalAction, match="physical"):
        S.declare(st, "v", [A, dict(cel, mental=True)], rs)
    # declared with an extra first: extras still run last (MAN-06)
    st = S.declare(st, "v", [cel, A, {"kind": "kick"}, cel, cel], rs).state
    v = st.get("v")
    assert [a.get("extra") for a in v.actions] == [None, None, "celerity", "celerity",
                                                   "celerity"]
    dice = [sum(m.dice for m in mods) for mods in S.action_penalties(v, rs)]
    assert dice == [-2, -3, 0, 0, 0]
    st = S.act(st, "v", rs).state  # main phase: the first action only (TURN-07)
    st = S.act(st, "b", rs).state
    assert st.phase == "extra"
    for _ in range(4):
        st = S.act(st, "v", rs).state
    assert st.turn == 3 and st.get("v").extras == {}


@pytest.mark.rule("MAN-08")
def test_rage_cap_is_half_rage_and_excludes_splitting(rs):
    st = started(rs, [("w", 8, 7), ("b", 3, 2)])
    with pytest.raises(IllegalAction, match="at most 2"):
        S.spend_rage(st, "w", 3, rs, rage=5, dex=3, wits=3)
    step = S.spend_rage(st, "w", 2, rs, rage=5, dex=3, wits=3)
    (ev,) = events(step, "extra_actions")
    assert ev["spend"] == {"pool": "Rage", "amount": 2} and ev["cap"] == 2
    st = S.declare(step.state, "b", [A], rs).state
    with pytest.raises(IllegalAction, match="at most 2"):
        S.spend_rage(st, "w", 1, rs, rage=5, dex=3, wits=3)
    rage = {"kind": "strike", "target": "b", "extra": "rage"}
    with pytest.raises(IllegalAction, match="MAN-08"):
        S.declare(st, "w", [A, {"kind": "kick"}, rage], rs)
    st = S.declare(st, "w", [A, rage, rage], rs).state
    w = st.get("w")
    assert [sum(m.dice for m in mods) for mods in S.action_penalties(w, rs)] == [0, 0, 0]
    assert all(sum(m.difficulty for m in mods) == 0 for mods in S.action_penalties(w, rs))
    with pytest.raises(IllegalAction, match="declared already"):
        S.spend_rage(st, "w", 1, rs, rage=9, dex=3, wits=3)


@pytest.mark.rule("MAN-08")
def test_rage_more_actions_than_dex_or_wits_is_plus_three_difficulty(rs):
    st = started(rs, [("w", 8, 7), ("b", 3, 2)])
    st = S.spend_rage(st, "w", 3, rs, rage=6, dex=4, wits=2).state
    rage = {"kind": "strike", "target": "b", "extra": "rage"}
    st = declare_all(st, rs, {"w": [A, rage, rage], "b": [A]})  # 3 actions > Wits 2
    assert [sum(m.difficulty for m in mods) for mods in
            S.action_penalties(st.get("w"), rs)] == [3, 3, 3]
    (ev,) = events(S.act(st, "w", rs), "act")
    assert ev["modifiers"][-1]["difficulty"] == 3
    # in frenzy only Dexterity limits: 3 actions <= Dex 4, no penalty
    st = started(rs, [("w", 8, 7), ("b", 3, 2)])
    st = S.spend_rage(st, "w", 2, rs, rage=6, dex=4, wits=2, frenzy=True).state
    st = declare_all(st, rs, {"w": [A, rage, rage], "b": [A]})
    assert S.action_penalties(st.get("w"), rs) == ((), (), ())


# ---------------------------------------------------------------- everyman switches


@pytest.mark.rule("TURN-11")
def test_everyman_splits_in_the_everyman_turn_extras_after_everyone(variants):
    ev_rs = load_variant(variants, "everyman")
    st = started(ev_rs, [("v", 8, 7), ("b", 3, 2)])
    st = S.activate_celerity(st, "v", 1, ev_rs).state
    st = declare_all(st, ev_rs, {"v": [A], "b": [A]})
    st = S.act(S.act(st, "v", ev_rs).state, "b", ev_rs).state
    cel = {"kind": "strike", "target": "b", "extra": "celerity"}
    st = declare_all(st, ev_rs, {"v": [A, {"kind": "kick"}, cel], "b": [A]})
    st = S.act(st, "v", ev_rs).state
    assert S.pending(st) == ["v"]  # the split kick is in the main phase too
    st = S.act(st, "v", ev_rs).state
    assert S.pending(st) == ["b"] and st.phase == "act"
    st = S.act(st, "b", ev_rs).state
    assert st.phase == "extra" and S.pending(st) == ["v"]
    with pytest.raises(IllegalAction, match="TURN-11"):
        S.declare(started(ev_rs, [("v", 8, 7)]), "v",
                  [{"kind": "strike", "power": "Potence"}, {"kind": "kick"}], ev_rs)


@pytest.mark.rule("TURN-10")
def test_everyman_change_impossible_action_to_related_one(rs, variants):
    ev_rs = load_variant(variants, "everyman")
    st = started(ev_rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, ev_rs, {"a": [A], "b": [{"kind": "claw", "target": "a"}]})
    shot = S.change_action(st, "b", {"kind": "shoot", "target": "a"}, ev_rs,
                           spend_willpower=True)  # TURN-10: any action once impossible
    assert shot.state.get("b").actions[0]["kind"] == "shoot"
    step = S.change_action(st, "b", {"kind": "move", "target": "a"}, ev_rs,
                           willpower=2, faces=[8, 3])
    (ev,) = events(step, "change")
    assert ev["success"] and ev["roll"]["difficulty"] == 8 and not ev["performed"]
    assert step.state.get("b").actions[0]["kind"] == "move"
    st2 = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st2 = declare_all(st2, rs, {"a": [A], "b": [A]})
    with pytest.raises(IllegalAction, match="TURN-08"):
        S.change_action(st2, "b", DODGE, rs, spend_willpower=True)


# ---------------------------------------------------------------- organizer, joining


def test_joining_twice_is_refused_and_late_joiners_wait_for_next_turn(rs):
    st = started(rs, [("a", 8, 7)])
    with pytest.raises(IllegalAction, match="already in this combat"):
        S.join(st, "a", "A", rs)
    step = S.join(st, "z", "Zed", rs)
    assert events(step, "join")[0]["from_turn"] == 2
    st = S.roll_initiative(step.state, "z", rs, rating=9, faces=[9]).state
    assert S.pending(st) == ["a"]  # z is not in turn 1's order
    with pytest.raises(IllegalAction, match="turn 2"):
        S.declare(st, "z", [A], rs)
    st = S.act(S.declare(st, "a", [A], rs).state, "a", rs).state
    assert st.turn == 2 and S.pending(st) == ["a"] and st.order[-1].keys == ("z",)


def test_turn_one_waits_for_the_organizer_and_skip_moves_on(rs):
    st = S.new_combat("c1", rs)
    with pytest.raises(IllegalAction, match="Nobody has rolled"):
        S.advance(st, rs)
    st = S.join(st, "a", "A", rs).state
    st = S.join(st, "b", "B", rs).state
    step = S.roll_initiative(st, "a", rs, rating=5, faces=[5])
    assert events(step, "prompt")[0]["who"] == ["b"]
    st = step.state
    with pytest.raises(IllegalAction, match="Still waiting for: B \\(initiative\\)"):
        S.advance(st, rs)
    st = S.skip(st, "b", rs).state  # b sits turn 1 out
    assert S.pending(st) == [] and st.phase == "initiative"
    step = S.advance(st, rs)
    assert step.state.phase == "declare" and S.pending(step.state) == ["a"]
    st = S.skip(step.state, "a", rs).state  # declares nothing
    assert st.turn == 2 and st.phase == "initiative" and S.pending(st) == ["b"]
    with pytest.raises(IllegalAction, match="not waiting for A"):
        S.skip(st, "a", rs)


def test_skip_forfeits_the_action_and_remove_takes_a_combatant_out(rs):
    st = started(rs, [("a", 8, 7), ("b", 5, 5), ("c", 3, 2)])
    st = declare_all(st, rs, {k: [A] for k in "abc"})
    step = S.skip(st, "a", rs)
    assert events(step, "skip")[0]["forfeited"] == [0]
    st = S.remove(step.state, "b", rs).state
    assert S.pending(st) == ["c"] and st.get("b") is None
    st = S.end(st, rs).state
    assert st.phase == "ended" and S.pending(st) == []
    with pytest.raises(IllegalAction, match="ended"):
        S.act(st, "c", rs)


def test_seq_increases_and_deadline_resets_on_a_new_prompt(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = CombatState.from_dict({**st.to_dict(), "deadline": 1234.5})
    step = S.declare(st, "b", [A], rs)
    assert step.state.seq == st.seq + 1 and step.state.deadline is None


def test_hundred_combatants_one_turn(rs):
    """Cost per combatant stays flat: one pass per operation (timing lives in bench/)."""
    st = S.new_combat("big", rs)
    for i in range(100):
        st = S.join(st, f"n{i}", f"N{i}", rs, is_npc=True).state
    st = S.roll_initiatives(st, [S.InitRequest(f"n{i}", i % 9, faces=(i % 10 + 1,))
                                 for i in range(100)], rs).state
    st = S.advance(st, rs).state
    steps = 0
    while st.turn == 1:
        key = S.pending(st)[0]
        st = (S.declare(st, key, [A], rs) if st.phase == "declare" else S.act(st, key, rs)).state
        steps += 1
    assert steps == 200
    roundtrip(st)


def test_bad_turn_tables_are_refused_with_their_path(variants):
    with pytest.raises(RulesError, match="turns.abort.difficulty"):
        load_variant(variants, "broken")


@pytest.mark.rule("MAN-05", "DEF-04")
def test_man_05_a_split_reads_its_penalties_from_the_rules_table(rs):
    """MAN-05: three plain declared actions: -3, -4, -5 dice; the modifiers are the ones
    made once with the ruleset's turn rules (a split is asked for them at the check, the
    act and each defense), the same whichever combatant asks. DEF-04 still counts its own."""
    st = started(rs, [("v", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [A], rs).state
    st = S.declare(st, "v", [A, {"kind": "kick"}, {"kind": "dodge"}], rs).state
    v = st.get("v")
    table = S.action_penalties(v, rs)
    assert [[(m.reason, m.dice) for m in mods] for mods in table] == [
        [("multiple actions (3)", -3)], [("multiple actions (3)", -4)],
        [("multiple actions (3)", -5)]]
    assert S.action_penalties(roundtrip(st).get("v"), rs) is table
    assert S.turn_rules(rs).ma_rows[3] is table
    desperate = S.action_penalties(roundtrip(st).get("v").__replace__(desperate=True), rs)
    assert [sum(m.dice for m in mods) for mods in desperate] == [0, -1, -2]
