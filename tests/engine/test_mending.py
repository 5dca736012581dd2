"""Healing in a d10 fight through the engine's ``apply`` (combat/d10/mending.py), exact dice.

Declared heals that are reflexive (blood, regeneration, Rage, Willpower against wounds) are
done at once and are not actions; the demon's Faith and the vampire's in-combat roll are
the declared action; the organizer's ``Recover`` marks healing by the clock.
"""

from __future__ import annotations

import copy
import pathlib

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Sheet
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
ANN, BOB, STAFF = "#1", "#2", "#9"


def sheet(rs, health=None, **traits) -> Sheet:
    s = Sheet()
    for name, value in traits.items():
        s, _ = s.set(rs.traits, name.replace("_", " "), str(value))
    return Sheet.from_dict({**s.to_dict(), "health": dict(health or {})})


class Fight:
    """Ann (8 + 3 + 3 = 14) and Bob (2 + 2 + 2 = 6) in turn 1's declare phase."""

    def __init__(self, ruleset, ann: Sheet, bob: Sheet):
        self.rs = ruleset
        self.engine = engine_for(ruleset)
        self.sheets = {ANN: ann, BOB: bob}
        self.state = self.engine.new_combat("c1", ruleset, {}).state
        self(I.Join(by=ANN, actor=ANN, name="Ann"))
        self(I.Join(by=BOB, actor=BOB, name="Bob"))
        self(I.RollInitiative(by=ANN, actor=ANN, rating=None), 8)
        self(I.RollInitiative(by=BOB, actor=BOB, rating=None), 2)
        self(I.Advance(by=STAFF))

    def __call__(self, intent, *faces):
        before = copy.deepcopy(self.state.to_dict())
        dice = FixedDice(*faces)
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, dice)
        assert dice.faces == [], f"faces left unused: {dice.faces}"
        assert self.state.to_dict() == before
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return out

    def heal(self, who, *faces, **action):
        return self(I.Declare(by=who, actor=who, actions=({"kind": "heal", **action},)), *faces)

    def track(self, who):
        return self.sheets[who].track(self.rs.section("health"))


def of(out, kind):
    return [e for e in out.events if e.kind == kind]


@pytest.fixture(scope="module")
def nu():
    return load_ruleset(RULES, "numetal")


@pytest.fixture(scope="module")
def ev():
    return load_ruleset(RULES, "everyman")


@pytest.fixture(scope="module")
def rv():
    return load_ruleset(RULES, "revised")


def mortal(rs, **kw):
    return sheet(rs, splat="mortal", dexterity=2, wits=2, stamina=2, strength=2, brawl=2, **kw)


def vampire(rs, health, **kw):
    return sheet(rs, health, splat="vampire", generation=13, blood=5, dexterity=3, wits=3,
                 stamina=2, **kw)


def garou(rs, health, **kw):
    return sheet(rs, health, splat="shifter", race="Garou", breed="homid", form="Crinos",
                 rage=3, dexterity=3, wits=3, stamina=3, **kw)


@pytest.mark.rule("HEAL-01", "HEAL-10")
def test_blood_heals_a_level_a_point_within_blood_per_turn(nu):
    f = Fight(nu, vampire(nu, {"lethal": 2, "aggravated": 1}), mortal(nu))
    out = f.heal(ANN, how="blood", levels=1)
    (m,) = of(out, "mend")
    assert (m["healed"], m["cost"], m["time"]) == ({"lethal": 1}, {"Blood": 1}, "1 turn")
    assert f.track(ANN).lethal == 1 and f.sheets[ANN].pools["Blood"].current == 4
    # not an action: Ann has not declared; a 13th generation spends one blood a turn
    assert not f.state.get(ANN).declared
    with pytest.raises(IllegalAction, match="generation 13"):
        f.heal(ANN, how="blood", levels=1)
    with pytest.raises(IllegalAction, match="full day's rest"):
        f.heal(ANN, how="aggravated", levels=1)


@pytest.mark.rule("HEAL-03")
def test_regeneration_rolls_stamina_once_a_turn(nu):
    f = Fight(nu, garou(nu, {"lethal": 2}), mortal(nu))
    out = f.heal(ANN, 8, 2, 2, how="regenerate")
    (roll,) = [e for e in of(out, "roll") if e["purpose"] == "regeneration"]
    assert (roll["pool"], roll["difficulty"], roll["successes"]) == (3, 8, 1)
    assert f.track(ANN).lethal == 1
    with pytest.raises(IllegalAction, match="this turn already"):
        f.heal(ANN, 9, 9, 9, how="regenerate")


@pytest.mark.rule("HEAL-03")
def test_regeneration_botch_stops_it_until_rest(nu):
    f = Fight(nu, garou(nu, {"lethal": 2}), mortal(nu))
    out = f.heal(ANN, 1, 2, 2, how="regenerate")
    assert of(out, "mend")[0]["healed"] == {}
    assert "no_regeneration" in [k.name for k in f.state.get(ANN).conditions]


@pytest.mark.rule("HEAL-03")
def test_breed_form_heals_like_a_mortal_by_the_clock(nu):
    """Issue 9, defect 12: in breed form one level a day in critical condition."""
    homid = sheet(nu, {"lethal": 6}, splat="shifter", race="Garou", breed="homid",
                  form="Homid", rage=3, dexterity=3, wits=3, stamina=3)
    f = Fight(nu, homid, mortal(nu))
    with pytest.raises(IllegalAction, match="breed form"):
        f.heal(ANN, how="regenerate")
    out = f(I.Recover(by=STAFF, actor=ANN, damage_type="lethal"))
    (m,) = of(out, "mend")
    assert m["time"] == "1 day" and f.track(ANN).lethal == 5
    out = f(I.Recover(by=STAFF, actor=ANN, damage_type="lethal"))
    assert of(out, "mend")[0]["time"] == "2 months"  # Mauled: like a mortal


@pytest.mark.rule("HEAL-04", "HLT-04", "HLT-05")
def test_rage_heal_from_dying_counts_back_from_incapacitated(nu):
    f = Fight(nu, garou(nu, {}), mortal(nu))
    out = f(I.StaffDamage(by=STAFF, actor=ANN, levels=8, damage_type="aggravated"))
    assert f.state.get(ANN).outcome == "dying"
    out = f.heal(ANN, 8, 9, 8, how="rage")
    (roll,) = [e for e in of(out, "roll") if e["purpose"] == "rage healing"]
    assert (roll["pool"], roll["difficulty"], roll["successes"]) == (3, 8, 3)
    assert f.track(ANN).level_name == "Wounded" and f.state.get(ANN).outcome == ""
    names = [k.name for k in f.state.get(ANN).conditions]
    assert "berserk" in names and "incapacitated" not in names
    with pytest.raises(IllegalAction, match="once per scene|past Incapacitated"):
        f.heal(ANN, 9, 9, 9, how="rage")


@pytest.mark.rule("HLT-08")
def test_willpower_drops_the_wound_penalty_for_the_turn(nu):
    ann = sheet(nu, {"lethal": 4}, splat="mortal", dexterity=3, wits=3, brawl=2,
                willpower="3/3")
    f = Fight(nu, ann, mortal(nu))
    f(I.Declare(by=BOB, actor=BOB, actions=({"kind": "other", "text": "waits"},)))
    out = f(I.Declare(by=ANN, actor=ANN, actions=({"kind": "heal", "how": "wounds"},
                                                   {"kind": "attack", "target": BOB})))
    assert f.sheets[ANN].pools["Willpower"].current == 2
    out = f(I.Act(by=ANN, actor=ANN), 2, 2, 2, 2, 2)
    (roll,) = [e for e in of(out, "roll") if e["purpose"] == "attack"]
    assert roll["pool"] == 5 and not any("wounds" in m["reason"] for m in roll["modifiers"])


@pytest.mark.rule("HEAL-09")
def test_everyman_vampire_heal_roll_is_the_action(ev):
    """HEAL-09 (everyman): the vampires' roll is the declared action, with the wound penalty."""
    vamp = sheet(ev, {"lethal": 2}, splat="vampire", generation=13, blood=5, dexterity=3,
                 wits=3, stamina=2, survival=1)
    f = Fight(ev, vamp, mortal(ev))
    f(I.Declare(by=BOB, actor=BOB, actions=({"kind": "other", "text": "waits"},)))
    f.heal(ANN, how="roll")
    assert f.state.get(ANN).declared
    # Hurt (2 lethal): the action loses a die to wounds (#11, issue 10).
    out = f(I.Act(by=ANN, actor=ANN), 8, 2)
    (roll,) = [e for e in of(out, "roll") if e["purpose"] == "healing"]
    assert (roll["pool"], roll["difficulty"]) == (2, 8)
    assert roll["modifiers"] == [{"reason": "wounds (Hurt)", "dice": -1}]
    assert f.track(ANN).lethal == 1 and f.sheets[ANN].pools["Blood"].current == 4


@pytest.mark.rule("HEAL-08")
def test_demon_faith_interrupted_by_damage_keeps_the_faith(rv):
    demon = sheet(rv, {"lethal": 2}, splat="demon", faith=3, dexterity=1, wits=1, stamina=2)
    f = Fight(rv, mortal(rv), demon)
    f.heal(BOB, how="faith")
    f(I.Declare(by=ANN, actor=ANN, actions=({"kind": "other", "text": "waits"},)))
    f(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type="bashing"))
    f(I.Act(by=ANN, actor=ANN))
    out = f(I.Act(by=BOB, actor=BOB))
    (m,) = of(out, "mend")
    assert m["healed"] == {} and f.sheets[BOB].pools["Faith"].current == 3


@pytest.mark.rule("HLT-09")
def test_recover_reports_time_and_the_care_footnote(nu):
    f = Fight(nu, mortal(nu, health={"bashing": 4}), mortal(nu))
    out = f(I.Recover(by=STAFF, actor=ANN, damage_type="bashing"))
    (m,) = of(out, "mend")
    assert m["time"] == "1 hour" and "Medicine 2+" in m["needs"]
    assert f.track(ANN).bashing == 3


@pytest.mark.rule("DMG-15", "COMP-04")
def test_fixed_damage_is_halved_for_a_vampire(nu):
    """Issue 9, defect 17: fixed levels go through damage.py (halving, outcomes)."""
    from wodcombat.combat.d10.fight import Fight as Ctx
    from wodcombat.combat.d10.strike import apply_levels

    vamp = vampire(nu, {})
    ctx = Ctx(Fight(nu, vamp, mortal(nu)).state, {ANN: vamp}, nu, FixedDice(2, 2), STAFF)
    apply_levels(ctx, ANN, 2, "bashing", "other", soakable=True, why="jagged skin")
    (d,) = [e for e in ctx.events if e["event"] == "damage"]
    assert (d["rolled"], d["soaked"], d["applied"]) == (2, 0, 1)


@pytest.mark.rule("HLT-04")
def test_stay_active_on_rage_is_chosen_ahead(nu, rv):
    f = Fight(nu, garou(nu, {}), mortal(nu))
    out = f.heal(ANN, how="stay")
    assert of(out, "stay_active")[0]["on"] and not f.state.get(ANN).declared
    f(I.StaffDamage(by=STAFF, actor=ANN, levels=8, damage_type="lethal"))
    assert f.state.get(ANN).outcome == "rage_active"
    assert f.sheets[ANN].pools["Rage"].current == 2 and f.sheets[ANN].form == "Crinos"
    with pytest.raises(IllegalAction, match="reverts to breed form"):
        Fight(rv, garou(rv, {}), mortal(rv)).heal(ANN, how="stay")


def test_the_dead_do_not_heal(nu):
    f = Fight(nu, vampire(nu, {}), mortal(nu))
    f(I.StaffDamage(by=STAFF, actor=ANN, levels=9, damage_type="aggravated"))
    assert f.state.get(ANN).outcome == "dead"
    with pytest.raises(IllegalAction, match="dead"):
        f.heal(ANN, how="blood", levels=1)


@pytest.mark.rule("HEAL-01")
def test_aggravated_after_a_days_rest_costs_more_per_extra_level(nu):
    f = Fight(nu, vampire(nu, {"aggravated": 2}, willpower="3/3"), mortal(nu))
    f.sheets[ANN] = Sheet.from_dict({**f.sheets[ANN].to_dict(),
                                     "pools": {**f.sheets[ANN].to_dict()["pools"],
                                               "Blood": {"current": 10, "permanent": 10}}})
    out = f(I.Recover(by=STAFF, actor=ANN, damage_type="aggravated", rested=True, levels=2))
    (m,) = of(out, "mend")
    assert m["cost"] == {"Blood": 10, "Willpower": 1} and m["time"] == "1 day"
    assert f.track(ANN).aggravated == 0
