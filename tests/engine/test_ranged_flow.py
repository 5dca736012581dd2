"""The ranged rules the d10 engine decides around a turn's attacks (combat/d10/ranged.py),
through ``apply`` under numetal with exact dice: aims count only from earlier turns (RNG-01),
shots never above the rate of fire (RNG-04), bursts from any rate-3 gun (RNG-08), prepared
arrows (RNG-06), bows and crossbows readied before the shot (ATK-07/08), strafing several
targets (RNG-07), two weapons (RNG-09). A refused declaration changes nothing.
"""

from __future__ import annotations

import copy

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.errors import IllegalAction
from tests.fixed_dice import FixedDice

from .conftest import sheet

ANN, DEE, EVE, STAFF = "#1", "#2", "#3", "#9"


class Fight:
    """Ann (initiative 14) shoots; Dee (6) and Eve (5) stand together 10 yards off."""

    def __init__(self, rs, weapons=(), **ann):
        self.rs = rs
        self.engine = engine_for(rs)
        traits = dict(splat="mortal", dexterity=3, wits=3, strength=3, stamina=2,
                      perception=2, firearms=2, athletics=2)
        traits.update(ann)
        self.sheets = {
            ANN: sheet(rs, weapons, **traits),
            DEE: sheet(rs, (), splat="mortal", dexterity=2, wits=2, strength=2, stamina=2),
            EVE: sheet(rs, (), splat="mortal", dexterity=2, wits=1, strength=2, stamina=2),
        }
        self.state = self.engine.new_combat("c1", rs, {}).state
        for key, name in ((ANN, "Ann"), (DEE, "Dee"), (EVE, "Eve")):
            self(I.Join(by=key, actor=key, name=name))
        self(I.RollInitiative(by=ANN, actor=ANN), 8)
        self(I.RollInitiative(by=DEE, actor=DEE), 2)
        self(I.RollInitiative(by=EVE, actor=EVE), 2)
        for other in (DEE, EVE):
            self(I.SetRange(by=STAFF, actor=ANN, other=other, band="10"))
        self(I.Advance(by=STAFF))

    def __call__(self, intent, *faces):
        before = copy.deepcopy(self.state.to_dict())
        dice = FixedDice(*faces)
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, dice)
        assert dice.faces == [], f"faces left unused: {dice.faces}"
        assert self.state.to_dict() == before  # apply is pure
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return out

    def others(self, eve=({"kind": "other", "text": "waits"},),
               dee=({"kind": "other", "text": "waits"},)):
        self(I.Declare(by=EVE, actor=EVE, actions=tuple(eve)))
        self(I.Declare(by=DEE, actor=DEE, actions=tuple(dee)))

    def ann(self, *actions):
        return self(I.Declare(by=ANN, actor=ANN, actions=tuple(actions)))

    def refused(self, *actions, match: str):
        before = self.state.to_dict()
        with pytest.raises(IllegalAction, match=match):
            self.ann(*actions)
        assert self.state.to_dict() == before

    def act(self, key=ANN, *faces):
        return self(I.Act(by=key, actor=key), *faces)

    def rest_of_turn(self):
        """Dee and Eve act their 'other'; the turn ends."""
        turn = self.state.turn
        for key in (DEE, EVE):
            self.act(key)
        assert self.state.turn == turn + 1


def shot(target=DEE, weapon="Rifle", **more):
    return {"kind": "attack", "target": target, "weapon": weapon, **more}


def of(out, kind, **match):
    return [e for e in out.events if e.kind == kind
            and all(e.get(k) == v for k, v in match.items())]


@pytest.mark.rule("RNG-01")
def test_an_aim_counts_only_from_an_earlier_turn(numetal):
    f = Fight(numetal, ["Rifle"])
    f.others()
    f.refused({"kind": "aim", "target": DEE}, shot(), match="whole turn")
    f.ann({"kind": "aim", "target": DEE})
    out = f.act()
    (aim,) = of(out, "aim")
    assert aim["turns"] == 1
    assert f.state.get(ANN).gear.aim.turn == 1
    f.rest_of_turn()
    f.others()
    f.ann(shot())
    out = f.act(ANN, *[2] * 6)
    (roll,) = of(out, "roll", purpose="attack")
    assert roll["pool"] == 6
    assert {"reason": "aimed 1 turn(s)", "dice": 1} in roll["modifiers"]
    assert f.state.get(ANN).gear.aim is None


@pytest.mark.rule("RNG-04")
def test_shots_above_the_rate_of_fire_are_refused_when_declared(numetal):
    f = Fight(numetal, ["Revolver, heavy", "Pistol, light"])
    f.others()
    heavy = shot(weapon="Revolver, heavy")
    f.refused(heavy, heavy, heavy, match="at most 2 shot")
    light = shot(weapon="Pistol, light")
    f.ann(heavy, heavy, light)  # the rate is per weapon
    assert len(f.state.get(ANN).actions) == 3


@pytest.mark.rule("RNG-08")
def test_a_burst_needs_only_rate_three(numetal):
    f = Fight(numetal, ["Pistol, heavy", "Rifle"])
    f.others()
    f.refused(shot(maneuver="burst"), match="rate of fire of 3")
    f.ann(shot(weapon="Pistol, heavy", maneuver="burst"))
    out = f.act(ANN, *[2] * 7)
    (roll,) = of(out, "roll", purpose="attack")
    assert (roll["pool"], roll["difficulty"]) == (7, 7)
    assert f.state.get(ANN).gear.weapon("Pistol, heavy").ammo == 4


@pytest.mark.rule("RNG-06", "ATK-07")
def test_prepared_arrows_free_the_bow_from_nocking_and_the_rate(numetal):
    f = Fight(numetal, ["Short bow"])
    f.others()
    f.refused(shot(weapon="Short bow"), match="Nock an arrow")
    f.refused({"kind": "reload", "weapon": "Short bow"}, match="not the Short bow")
    f.ann({"kind": "prepare", "arrows": 2})
    out = f.act()
    (ready,) = of(out, "weapon", action="prepare")
    assert ready["state"]["prepared_arrows"] == 2
    f.rest_of_turn()
    f.others()
    bow = shot(weapon="Short bow")
    f.refused(bow, bow, bow, match="Nock an arrow")
    f.ann({"kind": "nock"}, bow, bow, bow)  # the nocked arrow, then the two prepared


@pytest.mark.rule("ATK-07")
def test_a_snapped_string_takes_a_spare_and_an_action(numetal):
    f = Fight(numetal, ["Short bow"], archery=2)
    f.others()
    f.ann({"kind": "nock"})
    f.act()
    f.rest_of_turn()
    f.others()
    f.ann(shot(weapon="Short bow"))
    out = f.act(ANN, 1, 2, 2, 2, 2)  # Dex 3 + Archery 2: a botch
    assert of(out, "string_snapped")
    f.rest_of_turn()
    f.others()
    f.refused({"kind": "nock"}, match="repair it first")
    f.ann({"kind": "repair"})
    out = f.act(ANN, 2, 2, 2, 2, 2)  # Wits 3 + Archery 2: failed; the spare is gone
    (roll,) = of(out, "roll", purpose="repair")
    assert roll["pool"] == 5
    st = f.state.get(ANN).gear.weapon("Short bow")
    assert (st.string_ok, st.strings_used) == (False, 1)
    f.rest_of_turn()
    f.others()
    f.refused({"kind": "repair"}, match="none left")


@pytest.mark.rule("ATK-08")
def test_a_crossbow_shot_needs_its_reloads_declared_first(numetal):
    f = Fight(numetal, ["Crossbow"])
    f.others()
    f.refused({"kind": "reload"}, match="already loaded")
    f.ann(shot(weapon="Crossbow"))
    f.act(ANN, *[2] * 5)
    f.rest_of_turn()
    f.others()
    f.refused(shot(weapon="Crossbow"), match="reloading takes 2")
    f.refused({"kind": "reload"}, shot(weapon="Crossbow"), match="reloading takes 2")
    f.ann({"kind": "reload"}, {"kind": "reload"}, shot(weapon="Crossbow"))


@pytest.mark.rule("RNG-07")
def test_a_strafe_splits_one_roll_between_targets(numetal):
    f = Fight(numetal, ["SMG, small"])
    f.others(dee=({"kind": "dodge", "how": "prone"},))
    strafe = shot(weapon="SMG, small", maneuver="strafe", targets=[EVE, DEE], target=EVE)
    f.refused({**strafe, "maneuver": None}, match="Only a strafe")
    f.ann(strafe)
    # 15 dice vs 8: four successes: 2 each (even); Dee's dodge Dex 2 vs 7 [9 9] = 2 cancels
    # her share; Eve: damage 4 + 1 = 5 dice [9 2 2 2 2] = 1 lethal.
    out = f.act(ANN, *[9] * 4, *[2] * 11, 9, 9, 9, 2, 2, 2, 2)
    shares = {e["target"]: e["successes"] for e in of(out, "share")}
    assert shares == {EVE: 2, DEE: 2}
    assert of(out, "miss", target=DEE) and of(out, "hit", target=EVE)
    (dmg,) = of(out, "damage")
    assert (dmg["target"], dmg["applied"]) == (EVE, 1)
    assert f.state.get(ANN).gear.weapon("SMG, small").ammo == 0


@pytest.mark.rule("RNG-07")
def test_a_strafe_whose_targets_moved_apart_is_lost_not_stalled(numetal):
    f = Fight(numetal, ["SMG, small"])
    f.others()
    f.ann(shot(weapon="SMG, small", maneuver="strafe", targets=[DEE, EVE], target=DEE))
    f(I.SetRange(by=STAFF, actor=DEE, other=EVE, band="6"))
    out = f.act()
    (lost,) = of(out, "attack_lost")
    assert lost["reason"] == "impossible" and "within 3 yards" in lost["why"]
    assert (ANN, "act") not in f.engine.prompts(f.state)


@pytest.mark.rule("RNG-09")
def test_ambidextrous_two_drops_the_split_penalty_for_two_weapons_only(numetal):
    one = Fight(numetal, ["Pistol, light"], ambidextrous=2)
    one.others()
    one.refused(shot(weapon="Pistol, light", off_hand=True), match="main hand")
    f = Fight(numetal, ["Pistol, heavy", "Pistol, light"], ambidextrous=2)
    f.others()
    f.ann(shot(weapon="Pistol, heavy"), shot(weapon="Pistol, light", off_hand=True))
    out = f.act(ANN, *[2] * 5)
    (roll,) = of(out, "roll", purpose="attack")
    assert roll["pool"] == 5 and of(out, "two_weapons")
    g = Fight(numetal, ["Pistol, heavy", "Pistol, light"], ambidextrous=2)
    g.others()
    g.ann(shot(weapon="Pistol, heavy"), shot(weapon="Pistol, light", off_hand=True),
          {"kind": "dodge"})  # something else this turn: the penalty stays
    out = g.act(ANN, *[2] * 2)
    (roll,) = of(out, "roll", purpose="attack")
    assert roll["pool"] == 2  # 5 - 3 for three actions


@pytest.mark.rule("RNG-06", "RNG-02")
def test_rounds_left_are_counted_when_declaring(numetal):
    f = Fight(numetal, ["SMG, small"])
    f.others()
    smg = shot(weapon="SMG, small")
    f.ann(shot(weapon="SMG, small", maneuver="autofire"))
    f.act(ANN, *[2] * 15)
    assert f.state.get(ANN).gear.weapon("SMG, small").ammo == 0
    f.rest_of_turn()
    f.others()
    f.refused(smg, match="0 round\\(s\\) left")
    f.ann({"kind": "reload"}, smg)  # reloaded first: the shot is fine
