"""The d10 engine's turn flow, rolls and harm with exact dice, through ``apply`` (the
modules combat/d10/rolls.py, foresee.py, change.py, flags.py, harm.py and the scheduler's
TURN-04 delay into the extra phase). Rule IDs: ../shared/rules-catalog.md."""

from __future__ import annotations

import pytest

from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.core import intents as I
from wodcombat.combat.core.errors import IllegalAction, InputError
from tests.engine.test_engine_contract import (
    ALICE,
    BOB,
    GOON,
    STAFF,
    Run,
    make_sheet,
    make_sheets,
    ruleset,
)
from tests.engine.test_scheduler import declare_all
from tests.engine.test_scheduler import started as sched_started

NUMETAL = ruleset("numetal")


def to_declare(rs=NUMETAL, sheets=None) -> Run:
    run = Run(rs, sheets)
    run(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    run(I.Join(by=BOB, actor=BOB, name="Bob"))
    run(I.Join(by=STAFF, actor=GOON, name="Goon", is_npc=True, controller=STAFF))
    run(I.RollInitiative(by=ALICE, actor=ALICE), 9)
    run(I.RollInitiative(by=BOB, actor=BOB), 5)
    run(I.RollInitiative(by=STAFF, actor=GOON, rating=4), 3)
    run(I.Advance(by=STAFF))
    run(I.Declare(by=STAFF, actor=GOON, actions=({"kind": "other", "text": "x"},)))
    run(I.Declare(by=BOB, actor=BOB, actions=({"kind": "other", "text": "x"},)))
    return run


def of(run, kind, purpose=None):
    return [e for e in run.events if e.kind == kind
            and (purpose is None or e.get("purpose") == purpose)]


@pytest.mark.rule("DICE-04", "TURN-02")
def test_spend_willpower_with_an_attack_goes_to_its_roll():
    run = to_declare()
    run(I.Declare(by=ALICE, actor=ALICE,
                  actions=({"kind": "attack", "target": GOON},),
                  activations=({"activate": "spend", "pool": "wp", "amount": 1},)))
    assert run.state.get(ALICE).actions[0]["willpower"] is True
    assert not of(run, "spend")  # not taken as a power's spend
    run(I.Act(by=ALICE, actor=ALICE), 2, 2, 2, 2, 2, 2, 2)  # 5 attack dice, 2 damage
    (atk,) = of(run, "roll", "attack")
    assert (atk["willpower"], atk["successes"]) == (True, 1)
    assert run.sheets[ALICE].pools["Willpower"].current == 4


@pytest.mark.rule("DICE-04", "TURN-02")
def test_willpower_is_checked_when_declared():
    run = to_declare()
    err = run.refused(I.Declare(by=ALICE, actor=ALICE, actions=(
        {"kind": "attack", "target": GOON, "willpower": True},
        {"kind": "dodge", "willpower": True}, {"kind": "block", "willpower": True},
        {"kind": "parry", "willpower": True}, {"kind": "dodge", "willpower": True},
        {"kind": "dodge", "willpower": True})))
    assert "need 6" in str(err)
    err = run.refused(I.Act(by=ALICE, actor=ALICE, willpower=True))
    assert "declared" in str(err) or "Nobody acts" in str(err)


@pytest.mark.rule("TURN-02", "DICE-03")
def test_declared_attack_checked_at_declaration():
    run = to_declare()
    assert "no specialty" in str(run.refused(I.Declare(by=ALICE, actor=ALICE, actions=(
        {"kind": "attack", "target": GOON, "specialty": True},))))
    assert "can claw" in str(run.refused(I.Declare(
        by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON,
                                          "maneuver": "Claw"},))))
    # claws the sheet can never have are refused even after a move ...
    assert "can claw" in str(run.refused(I.Declare(by=ALICE, actor=ALICE, actions=(
        {"kind": "move", "yards": 3}, {"kind": "attack", "target": GOON, "maneuver": "Claw"}))))
    # ... while an attack after a move is judged when acted (where everyone then stands)
    run(I.Declare(by=ALICE, actor=ALICE, actions=(
        {"kind": "move", "yards": 3}, {"kind": "attack", "target": GOON})))


@pytest.mark.rule("TURN-04", "TURN-06")
def test_delayed_main_action_carries_into_the_extra_phase():
    rs = NUMETAL
    st = sched_started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [{"kind": "strike", "target": "b"}],
                              "b": [{"kind": "strike", "target": "a"}, {"kind": "kick"}]})
    st = S.delay(st, "a", rs).state
    st = S.act(st, "b", rs).state
    assert st.phase == "extra" and S.pending(st) == ["b"]
    step = S.act(st, "a", rs)  # the held main action, at a moment of the extra phase
    (ev,) = [e for e in step.events if e["event"] == "act"]
    assert ev["interrupt"] and ev["index"] == 0
    st = S.act(step.state, "b", rs).state
    assert st.turn == 2


@pytest.mark.rule("TURN-10")
def test_change_only_an_impossible_action_everyman():
    run = to_declare(ruleset("everyman"))
    run(I.Declare(by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON},)))
    assert "can still be made" in str(run.refused(
        I.Change(by=ALICE, actor=ALICE, to={"kind": "move", "yards": 3})))
    run(I.SetRange(by=STAFF, actor=ALICE, other=GOON, band="12"))
    run(I.Change(by=ALICE, actor=ALICE, to={"kind": "move", "yards": 12, "target": GOON,
                                             "direction": "toward"}), 9, 2, 2, 2, 2)
    (roll,) = of(run, "roll", "change")
    assert (roll["difficulty"], roll["successes"], roll["pool"]) == (8, 1, 5)
    assert run.state.get(ALICE).actions[0]["kind"] == "move"


@pytest.mark.rule("TURN-10", "MAN-03", "RNG-01", "HEAL-08")
@pytest.mark.parametrize("to, match", [
    ({"kind": "move", "yards": 500}, "runs at most"),
    ({"kind": "aim", "target": GOON}, "carries no firearm/crossbow/bow weapon"),
    ({"kind": "reload"}, "carries no firearm/crossbow weapon"),
    ({"kind": "heal", "how": "faith"}, "rules have no Faith healing"),
])
def test_turn_10_the_action_changed_to_is_checked_as_if_declared(to, match):
    """TURN-10: the new action is checked like a declared one, before any Willpower is
    rolled: a change could run 500 yards, or leave an aim or a reload without a weapon (a
    traceback when acted) or a Faith heal no one could make (refused at every act)."""
    run = to_declare(ruleset("everyman"))
    run(I.Declare(by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON},)))
    run(I.SetRange(by=STAFF, actor=ALICE, other=GOON, band="30"))
    wp = run.sheets[ALICE].pools["Willpower"].current
    with pytest.raises(IllegalAction, match=match):
        run.engine.apply(run.state, I.Change(by=ALICE, actor=ALICE, to=to,
                                             spend_willpower=True), run.sheets, run.rs, None)
    assert run.state.get(ALICE).actions[0]["kind"] == "attack"
    assert run.sheets[ALICE].pools["Willpower"].current == wp


@pytest.mark.rule("TURN-10", "HEAL-01", "HLT-08")
@pytest.mark.parametrize("to", [{"kind": "heal", "how": "blood", "levels": 1},
                                {"kind": "heal", "how": "wounds"}])
def test_turn_10_a_reflexive_heal_cannot_take_an_actions_place(to):
    """TURN-10 with a reflexive heal (HEAL-01 blood, HLT-08 ignore wounds): not an action, so
    not what a change puts in the action's place; refused before any Willpower. It was
    accepted, then acted as a demon's Faith heal (refused at every act: a stalled turn)."""
    sheets = make_sheets(ruleset("everyman"))
    sheets[ALICE] = make_sheet(ruleset("everyman"), splat="vampire", blood="5/10", dexterity=3,
                               wits=2, strength=2, stamina=2, brawl=2)
    run = to_declare(ruleset("everyman"), sheets)
    run(I.Declare(by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON},)))
    run(I.SetRange(by=STAFF, actor=ALICE, other=GOON, band="30"))
    with pytest.raises(IllegalAction, match="reflexive, not an action.*declare it"):
        run.engine.apply(run.state, I.Change(by=ALICE, actor=ALICE, to=to,
                                             spend_willpower=True), run.sheets, run.rs, None)
    assert run.state.get(ALICE).actions[0]["kind"] == "attack"


@pytest.mark.rule("INIT-05")
def test_flag_known_to_the_ruleset_only():
    run = to_declare()
    run(I.SetFlag(by=STAFF, flag="Winter"))
    assert run.state.options.flags == ("winter",)
    with pytest.raises(InputError):
        run.engine.apply(run.state, I.SetFlag(by=STAFF, flag="summer"), run.sheets, run.rs,
                         None)


@pytest.mark.rule("DMG-12", "DMG-13", "DMG-15")
def test_sourced_staff_damage_soaks_and_wears_armor():
    rs = ruleset("revised")
    sheets = make_sheets(rs)
    from dataclasses import replace
    sheets[BOB] = replace(sheets[BOB], armor="Kevlar vest")
    run = Run(rs, sheets)
    run(I.Join(by=BOB, actor=BOB, name="Bob"))
    run(I.StaffDamage(by=STAFF, actor=BOB, levels=6, damage_type="lethal",
                      sources=("firearm",)), 8, 8, 2)
    (soak,) = of(run, "roll", "soak")
    assert soak["traits"] == [["armor", 3]] and soak["successes"] == 2
    assert of(run, "armor_damaged")
    assert run.sheets[BOB].health["lethal"] == 4
    run(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type="bashing",
                      sources=("power", "unsoakable", "enemy")), 8, 2)
    assert of(run, "roll", "soak")[-1]["traits"] == [["Stamina", 2]]
    with pytest.raises(InputError):
        run.engine.apply(run.state, I.StaffDamage(by=STAFF, actor=BOB, levels=1,
                                                  damage_type="lethal", sources=("napalm",)),
                         run.sheets, rs, None)
    vamp = make_sheet(rs, splat="vampire", stamina=3, fortitude=1)
    run2 = Run(NUMETAL, {BOB: vamp})
    run2(I.Join(by=BOB, actor=BOB, name="Bob"))
    run2(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type="lethal",
                       sources=("sunlight",)), 2)
    assert run2.sheets[BOB].health["aggravated"] == 1


@pytest.mark.rule("DMG-10")
def test_kitsune_breed_form_soaks_silver_with_stamina_at_8():
    from wodcombat.combat.d10 import soak as SK
    fox = make_sheet(NUMETAL, splat="shifter", race="Kitsune", breed="homid", form="Hito",
                     stamina=3)
    pool = SK.soak_pool(NUMETAL, fox, "aggravated", materials=("silver",))
    assert (pool.damage_type, pool.dice, pool.difficulty) == ("lethal", 3, 8)


def test_refusals_change_nothing():
    run = to_declare()
    with pytest.raises(IllegalAction):
        run.engine.apply(run.state, I.Change(by=ALICE, actor=ALICE, to={"kind": "dodge"}),
                         run.sheets, run.rs, None)


@pytest.mark.rule("HLT-02")
@pytest.mark.parametrize("name", ["numetal", "revised", "everyman", "v20"])
def test_one_who_joins_already_incapacitated_is_out_of_action_from_the_start(name):
    """Hurt to Incapacitated before the fight (7 lethal on a mortal's 7 levels): the join
    puts them out of action, so the turn never waits for an initiative or a declaration
    they cannot make; the others' fight goes on."""
    from dataclasses import replace

    from tests.engine.test_engine_contract import make_sheets

    rs = ruleset(name)
    sheets = make_sheets(rs)
    sheets[BOB] = replace(sheets[BOB], health={"lethal": 7})
    run = Run(rs, sheets)
    run(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    run(I.Join(by=BOB, actor=BOB, name="Bob"))
    bob = run.state.get(BOB)
    assert bob.outcome == "incapacitated"
    assert "incapacitated" in [k.name for k in bob.conditions]
    (out,) = [e for e in run.events if e.kind == "outcome"]
    assert (out["actor"], out["outcome"], out["before"]) == (BOB, "incapacitated", "ok")
    assert S.prompts(run.state) == [(ALICE, "initiative")]
    run(I.RollInitiative(by=ALICE, actor=ALICE), 9)
    run(I.Advance(by=ALICE))  # Alice opens the fight: Bob is not waited for
    assert S.prompts(run.state) == [(ALICE, "declare")]


@pytest.mark.rule("HLT-02")
def test_a_bruised_join_is_in_action():
    """Hurt but not incapacitated (6 of 7 levels): in the fight as anyone."""
    from dataclasses import replace

    from tests.engine.test_engine_contract import make_sheets

    sheets = make_sheets(NUMETAL)
    sheets[BOB] = replace(sheets[BOB], health={"lethal": 6})
    run = Run(NUMETAL, sheets)
    run(I.Join(by=BOB, actor=BOB, name="Bob"))
    assert run.state.get(BOB).outcome == ""
    assert S.prompts(run.state) == [(BOB, "initiative")]
