"""Close combat through the d10 engine's ``apply`` with exact dice (issue 9): the facts the
fight feeds the attack layer (combat/d10/close.py), the Kiss (combat/d10/kiss.py), time
powers (combat/d10/timepower.py) and ambush (combat/d10/ambush.py).

Ann (initiative 8 + Dex 3 + Wits 3 = 14) and Dee (2 + 2 + 2 = 6), in turn 1's declare phase
(Dee declares first, Ann acts first). Every call checks purity and that every die given is
used.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pathlib

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Sheet
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
ANN, DEE, STAFF = "#1", "#2", "#9"


def sheet(rs, weapons=(), **traits) -> Sheet:
    s = Sheet()
    for name, value in traits.items():
        s, _ = s.set(rs.traits, name.replace("_", "-"), str(value))
    return dataclasses.replace(s, weapons=tuple(weapons))


class Fight:
    def __init__(self, ruleset="numetal", ann=None, dee=None):
        self.rs = rs = load_ruleset(RULES, ruleset)
        self.engine = engine_for(rs)
        self.sheets = {
            ANN: sheet(rs, **(ann or {}), dexterity=3, wits=3, strength=3, stamina=2,
                       brawl=2),
            DEE: sheet(rs, **(dee or {}), dexterity=2, wits=2, strength=2, stamina=2),
        }
        self.state = self.engine.new_combat("c1", rs, {}).state
        self(I.Join(by=ANN, actor=ANN, name="Ann"))
        self(I.Join(by=DEE, actor=DEE, name="Dee"))
        self(I.RollInitiative(by=ANN, actor=ANN), 8)
        self(I.RollInitiative(by=DEE, actor=DEE), 2)
        self(I.Advance(by=STAFF))

    def __call__(self, intent, *faces):
        before = copy.deepcopy(self.state.to_dict())
        dice = FixedDice(*faces)
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, dice)
        assert dice.faces == [], f"faces left unused: {dice.faces}"
        assert self.state.to_dict() == before
        for e in out.events:
            json.dumps(e.to_dict())
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return [e.to_dict() for e in out.events]

    def declare(self, who, *actions, activations=()):
        return self(I.Declare(by=who, actor=who, actions=tuple(actions),
                              activations=tuple(activations)))

    def act(self, who, *faces):
        return self(I.Act(by=who, actor=who), *faces)

    def turn(self, dee, ann, ann_faces=(), dee_faces=()):
        self.declare(DEE, *dee)
        self.declare(ANN, *ann)
        out = self.act(ANN, *ann_faces)
        if any(a["kind"] not in ("dodge", "block", "parry") for a in dee):
            out += self.act(DEE, *dee_faces)
        return out


OTHER = {"kind": "other", "text": "waits"}


def atk(target=DEE, **kw):
    return {"kind": "attack", "target": target, **kw}


def rolls(events, purpose):
    return [e for e in events if e["event"] == "roll" and e["purpose"] == purpose]


def reasons(roll):
    return {m["reason"]: m for m in roll["modifiers"]}


@pytest.mark.rule("CLOSE-11", "CLOSE-12", "COMP-04")
def test_tackle_keeps_feet_off_balance_everywhere_and_a_vampire_bite_after():
    f = Fight(ann={"splat": "vampire", "blood": "5/10"})
    ev = f.turn([OTHER], [atk(maneuver="tackle")],
                # tackle 5 [8 8 2 2 2]; damage 5 [2 x5]; knockdowns Ann [9 2 2], Dee [2 2]
                (8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 9, 2, 2, 2, 2))
    kd = [e for e in ev if e["event"] == "knockdown"]
    assert [(e["actor"], e.get("kept_feet", False)) for e in kd] == [(ANN, True), (DEE, False)]
    assert "knocked_down" not in [c.name for c in f.state.get(ANN).conditions]
    assert f.state.get(ANN).gear.close.tackled == (DEE, 1)
    # Turn 2: Dee is off balance on every action (escape, dodge ...); Ann's bite is legal.
    f.declare(DEE, {"kind": "dodge"})
    f.declare(ANN, atk(maneuver="bite"))
    # bite 5 + 1 + 2 (Dee on the ground) = 8 [8 2 x7]; Dee's dodge Dex 2 vs 7 [2 2];
    # damage Str 3 + 1 = 4 aggravated [2 2 2 2].
    ev = f.act(ANN, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    d = rolls(ev, "defense")[0]
    assert d["difficulty"] == 7 and "tackled last turn" in reasons(d)


@pytest.mark.rule("CLOSE-12")
def test_botched_tackle_hurts_the_attacker_when_chosen():
    f = Fight()
    ev = f.turn([OTHER], [atk(maneuver="tackle", on_botch="hurt")], (1, 2, 2, 2, 2, 8, 8, 2, 2),
                ())
    dmg = [e for e in ev if e["event"] == "damage"][0]
    assert (dmg["target"], dmg["type"], dmg["applied"]) == (ANN, "bashing", 2)
    assert rolls(ev, "damage")[0]["traits"] == [["target's Stamina", 2]]


@pytest.mark.rule("COMP-03", "CLOSE-05")
def test_held_target_is_partly_immobilized_and_two_foes_count():
    f = Fight()
    f.turn([OTHER], [atk(maneuver="hold")], (8, 2, 2, 2, 2))
    assert f.state.get(DEE).gear.grapple.held and not f.state.get(ANN).gear.grapple.held
    with pytest.raises(IllegalAction, match="Locked in a hold"):
        f.declare(DEE, {"kind": "dodge"})
    f.declare(DEE, {"kind": "escape"}, atk(ANN))
    f.declare(ANN, OTHER)


@pytest.mark.rule("COMP-02")
def test_dazed_target_is_easier_to_hit():
    f = Fight()
    f(I.SetCondition(by=STAFF, actor=DEE, condition="dazed"))
    f.turn([OTHER], [OTHER])
    f.declare(ANN, atk())
    ev = f.act(ANN, 2, 2, 2, 2, 2)
    r = rolls(ev, "attack")[0]
    assert r["difficulty"] == 4 and reasons(r)["target dazed"]["difficulty"] == -2


@pytest.mark.rule("CLOSE-09")
def test_riposte_after_a_successful_weapon_parry():
    f = Fight(dee={"melee": 2})
    f.sheets[DEE] = dataclasses.replace(f.sheets[DEE], weapons=("Knife",))
    f.declare(DEE, {"kind": "parry"})
    f.declare(ANN, atk())
    # Ann 5 [6 2 2 2 2] = 1; Dee's parry 4 [8 8 2 2] = 2; the knife turns on Ann (DMG-17)
    # for Str 2 + 1 + 1 = 4 dice [2 2 2 2].
    ev = f.act(ANN, 6, 2, 2, 2, 2, 8, 8, 2, 2, 2, 2, 2, 2)
    assert [e for e in ev if e["event"] == "riposte_ready"][0]["weapon"] == "Knife"
    f.declare(DEE, atk(ANN, weapon="Knife"))
    f.declare(ANN, OTHER)
    f.act(ANN)
    ev = f.act(DEE, 2, 2, 2, 2, 2)
    assert reasons(rolls(ev, "attack")[0])["riposte"]["dice"] == 1
    assert f.state.get(DEE).gear.close.riposte is None


@pytest.mark.rule("DEF-03")
def test_parry_refused_without_weapon_and_abort_spends_nothing():
    f = Fight(dee={"willpower": "5/5"})
    with pytest.raises(IllegalAction, match="no weapon or shield to parry with"):
        f.declare(DEE, {"kind": "parry"})
    f.declare(DEE, atk(ANN))
    f.declare(ANN, atk())
    with pytest.raises(IllegalAction, match="no weapon or shield"):
        f(I.Abort(by=DEE, actor=DEE, to="parry", spend_willpower=True))
    assert f.sheets[DEE].pools["Willpower"].current == 5


@pytest.mark.rule("MAN-11")
def test_staked_vampire_cannot_spend_blood_or_move():
    f = Fight(dee={"splat": "vampire", "blood": "5/10"})
    f(I.SetCondition(by=STAFF, actor=DEE, condition="staked"))
    with pytest.raises(IllegalAction, match="cannot spend blood"):
        f.declare(DEE, OTHER, activations=({"activate": "spend", "pool": "blood",
                                            "amount": 1},))
    with pytest.raises(IllegalAction, match="staked"):
        f.declare(DEE, {"kind": "move", "yards": 3})
    f.declare(DEE, {"kind": "other", "text": "Auspex"})


@pytest.mark.rule("MAN-09")
def test_time_power_grants_extra_actions_next_turn():
    f = Fight()
    ev = f.declare(DEE, OTHER, activations=({"activate": "time", "power": "distort time",
                                             "amount": 4},))
    tp = [e for e in ev if e["event"] == "time_power"][0]
    assert (tp["power"], tp["actions"], tp["turn"]) == ("Distort Time", 2, 2)
    assert dict(f.state.get(DEE).next_extra) == {"time": 2}


@pytest.mark.rule("MAN-01")
def test_ambush_won_is_a_free_attack_without_defense():
    f = Fight(ann={"stealth": 2})
    f.declare(DEE, {"kind": "dodge"})
    # Ann Dex 3 + Stealth 2 [8 8 2 2 2] = 2 vs Dee's Perception 1 [2]: +2 dice, no defense;
    # strike 7 [2 x7].
    ev = f(I.Declare(by=ANN, actor=ANN, activations=({"activate": "ambush", "target": DEE},)),
           8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    amb = [e for e in ev if e["event"] == "ambush"][0]
    assert (amb["outcome"], amb["bonus"]) == ("free_attack", 2)
    assert rolls(ev, "attack")[0]["pool"] == 7 and rolls(ev, "defense") == []


@pytest.mark.rule("CLOSE-14")
def test_kiss_drains_and_a_vampire_resists():
    f = Fight("everyman", ann={"splat": "vampire", "blood": "5/10"},
              dee={"splat": "vampire", "blood": "6/10", "self_control": 1})
    f.turn([OTHER], [atk(maneuver="clinch")], (8, 2, 2, 2, 2, 2, 2, 2))
    ev = f.turn([OTHER], [atk(maneuver="bite", drain=True)], (8, 2, 2, 2, 2, 2))
    kiss = [e for e in ev if e["event"] == "kiss"][0]
    assert (kiss["drained"], kiss["helpless"]) == (3, False)
    assert f.sheets[ANN].pools["Blood"].current == 8
    assert f.sheets[DEE].pools["Blood"].current == 3
    ev = f.turn([{"kind": "resist"}], [OTHER], (), (9,))
    assert [e for e in ev if e["event"] == "kiss_resisted"][0]["resisted"]
    assert f.state.get(DEE).gear.grapple is None


@pytest.mark.rule("CLOSE-14")
@pytest.mark.parametrize("ruleset", ["numetal", "v20", "revised"])
def test_close_14_resist_without_the_kiss_is_refused_when_declared(ruleset):
    """CLOSE-14 where the ruleset has no Kiss: nothing to resist, refused at declaration
    (before, accepted and then refused at every act: a stalled turn)."""
    f = Fight(ruleset)
    with pytest.raises(IllegalAction, match="no Kiss to resist.*escape"):
        f.declare(DEE, {"kind": "resist"})
    assert f.state.get(DEE).actions == ()


@pytest.mark.rule("DEF-05")
def test_magic_is_dodged_like_an_attack():
    f = Fight(dee={"dodge": 1})
    f.declare(DEE, {"kind": "dodge"})
    f.declare(ANN, atk(magic={"roll": ["3"], "damage": 2, "type": "lethal"}))
    ev = f.act(ANN, 8, 8, 2, 8, 2, 2, 2, 2)
    assert rolls(ev, "attack")[0]["traits"] == [["power", 3]]
    assert len(rolls(ev, "defense")) == 1
