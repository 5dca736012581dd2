"""Issue 10: the spotlight ruleset plays like V5 (seed 004 is built on V5), against the engine
with exact dice: V5 dice and the contested attack, Hunger dice, Harm kept on the sheet,
feeding and the end-of-scene Hunger Check, weapon range tags, armor, the organizer, the
round after the last PC, and the staked view. Every test runs under the spotlight ruleset.
"""

from __future__ import annotations

import pytest

from wodcombat.combat.spotlight import flow
from wodcombat.combat.spotlight.tables import spot_rules
from wodcombat.combat.spotlight import attack as spa
from wodcombat.combat.spotlight import dice as v5dice
from wodcombat.combat.core import intents as I
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.core.maneuvers import tables
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.spotlight.engine import ENGINE
from tests.engine.test_spotlight_engine import RULES, Run, sheet
from tests.fixed_dice import FixedDice
from wodcombat.combat.rules.ruleset import load_ruleset

ALICE, BOB, RAT, STAFF = "#1", "#2", "#3", "#9"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "spotlight")


@pytest.fixture()
def sheets(rs):
    """Alice: vampire BP 2 (9 HP), Hunger 2, Dex 3 Firearms 2 Str 2 Brawl 2, carries a light
    pistol. Bob: vampire BP 1 (6 HP), Hunger 1, Dex 2 Athletics 1, wears a Kevlar vest.
    Rat: a mortal, Dex 2 Athletics 1, Kevlar vest."""
    alice = sheet(rs, splat="vampire", bp=2, hunger=2, wits=1, dexterity=3, firearms=2,
                  strength=2, brawl=2)
    bob = sheet(rs, splat="vampire", bp=1, hunger=1, wits=1, dexterity=2, athletics=1)
    rat = sheet(rs, dexterity=2, athletics=1, strength=2, brawl=2)
    from dataclasses import replace
    return {ALICE: replace(alice, weapons=("Pistol, light",)),
            BOB: replace(bob, armor="Kevlar vest"), RAT: replace(rat, armor="Kevlar vest")}


def fight(rs, sheets) -> Run:
    """Alice (init 2d6 [6 6] + BP 2 = 14) and Bob (init [1 1] + 1 = 3); round 1 begun."""
    r = Run(rs, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=BOB, actor=BOB, name="Bob"))
    r(I.Join(by=STAFF, actor=RAT, name="Rat", is_npc=True, controller=STAFF))
    r(I.RollInitiative(by=ALICE), 6, 6)
    r(I.RollInitiative(by=BOB), 1, 1)
    r(I.Advance(by=STAFF))
    return r


# ---------------------------------------------------------------- V5 dice


@pytest.mark.rule("SPOT-11")
def test_spot11_v5_dice_pairs_of_tens_no_ones_no_botch(rs):
    """V5: two 10s = 4, three = 5, four = 8; a 1 cancels nothing; nothing botches."""
    rules = v5dice.v5_rules(rs)
    assert v5dice.count([10, 10], 0, rules).successes == 4
    assert v5dice.count([10, 10, 10], 0, rules).successes == 5
    assert v5dice.count([10, 10, 10, 10], 0, rules).successes == 8
    r = v5dice.count([1, 1, 6], 0, rules)
    assert (r.successes, r.critical, r.result(False)) == (1, False, "failure")
    assert v5dice.count([1, 1, 1], 0, rules).result(False) == "failure"  # no botch


@pytest.mark.rule("SPOT-11")
def test_spot11_hunger_dice_messy_critical_and_bestial_failure(rs):
    """A vampire's first Hunger-many dice are Hunger dice: a critical with a Hunger 10 is
    messy, a failure with a Hunger 1 is bestial; the same faces on other dice are not."""
    rules = v5dice.v5_rules(rs)
    r = v5dice.count([10, 3, 10, 7], 2, rules)
    assert (r.hunger_faces, r.normal_faces, r.successes) == ((10, 3), (10, 7), 5)
    assert r.result(True) == "messy critical"
    assert v5dice.count([3, 10, 10, 7], 1, rules).result(True) == "critical"
    assert v5dice.count([1, 3, 4], 1, rules).result(False) == "bestial failure"
    assert v5dice.count([3, 1, 4], 1, rules).result(False) == "failure"


# ---------------------------------------------------------------- the contested attack


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_contest_margin_plus_weapon_armor_then_halved_hunger_dice_apart(rs, sheets):
    """Alice shoots Bob with the pistol she carries (SPOT-10: Close). Attack Dex 3 +
    Firearms 2, Hunger 2: [10 4 | 10 6 2] = 3 + a pair of 10s = 5, messy (a Hunger 10).
    Bob defends Dex 2 + Athletics 1, Hunger 1: [1 | 7 3] = 1, bestial (a Hunger 1).
    Margin 4 + light pistol 2 = 6; Kevlar vest 3 stops 3 Superficial (SPOT-11); Bob is a
    vampire: 3 halved, rounded up = 2 (V5)."""
    r = fight(rs, sheets)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB}), 10, 4, 10, 6, 2,
            1, 7, 3)
    act, roll, harm = out.events[:3]
    assert act["action"] == {"kind": "attack", "target": BOB, "weapon": "pistol",
                             "weapon_name": "Pistol, light"}
    assert (roll["successes"], roll["hunger_faces"], roll["result"]) == (5, [10, 4],
                                                                         "messy critical")
    d = roll["defense"]
    assert (d["traits"], d["successes"], d["hunger_faces"], d["result"]) == (
        [["Dexterity", 2], ["Athletics", 1]], 1, [1], "bestial failure")
    assert (roll["margin"], roll["bonus"]) == (4, 2)
    assert (harm["amount"], harm["armor"], harm["halved"], harm["marked"]) == (6, 3, 1, 2)
    assert (harm["kind"], harm["hp_after"]) == ("superficial", 4)
    # the Harm is on Bob's sheet now (issue 10)
    assert out.sheet_changes[BOB].harm == {"superficial": 2}


@pytest.mark.rule("SPOT-11")
def test_spot11_a_tie_is_a_miss(rs, sheets):
    r = fight(rs, sheets)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB, "weapon": "pistol"}),
            6, 2, 2, 2, 2, 6, 2, 2)
    assert out.events[1]["margin"] == 0
    assert out.events[2].kind == "unharmed" and out.sheet_changes == {}


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_vampire_bite_aggravated_bypasses_armor_mortal_bite_superficial(rs, sheets):
    r = fight(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=BOB, band="Intimate"))
    # Str 2 + Brawl 2 [6 6 2 2] = 2 vs [2 2 2] = 0: margin 2 + bite 2 = 4 Aggravated; the
    # vest and the halving do not touch Aggravated Harm.
    r(I.SetCondition(by=STAFF, actor=BOB, condition="grappled"))  # V5: a bite needs a hold
    out = r(I.Act(by=ALICE, action={"kind": "bite", "target": BOB}), 6, 6, 2, 2, 2, 2, 2)
    harm = out.events[2]
    assert (harm["kind"], harm["armor"], harm["halved"], harm["marked"]) == (
        "aggravated", 0, 0, 4)
    # a mortal has no fangs: no +2 and Superficial (issue 31), against anyone
    mortal = spa.resolve(rs, "bite", {"Strength": 2, "Brawl": 2}, {}, FixedDice(6, 6, 6, 2),
                         attacker_vampire=False)
    assert (mortal["kind"], mortal["bonus"], mortal["harm"]) == ("superficial", 0, 3)


# ---------------------------------------------------------------- Harm on the sheet


@pytest.mark.rule("SPOT-11", "SPOT-13")
def test_spot13_harm_persists_into_the_next_fight(rs, sheets):
    """Harm goes to the sheet and comes back at the next fight's join; a vampire who met
    Final Death joins destroyed."""
    r = fight(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=2, damage_type="superficial"))
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=9, damage_type="aggravated"))
    assert r.sheets[BOB].harm == {"superficial": 2}
    assert r.sheets[ALICE].harm == {"aggravated": 9}
    again = Run(rs, r.sheets)
    again(I.Join(by=BOB, actor=BOB, name="Bob"))
    again(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    bob, alice = again.state.get(BOB), again.state.get(ALICE)
    assert (bob.hp, bob.hp_max, bob.superficial) == (4, 6, 2)
    assert (alice.hp, alice.status) == (0, "dead")
    # the sheet round-trips through its stored form
    assert Sheet.from_dict(r.sheets[BOB].to_dict()).harm == {"superficial": 2}


@pytest.mark.rule("SPOT-13")
def test_spot13_blood_potency_from_the_sheet_sets_hp_and_initiative(rs, sheets):
    r = fight(rs, sheets)
    alice = r.state.get(ALICE)
    assert (alice.hp_max, alice.final_death_at, alice.init_trait, alice.init_bonus) == (
        9, 5, "Blood Potency", 2)


# ---------------------------------------------------------------- healing


@pytest.mark.rule("SPOT-11", "SPOT-14")
def test_spot14_feeding_mid_fight_heals_and_lowers_hunger(rs, sheets):
    """Seed 004: Aggravated "can't be healed mid-combat ... unless you Feed": blood that
    slakes 2 Hunger heals 2 Harm, Aggravated first; Hunger 2 -> 0 on the sheet."""
    r = fight(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=1, damage_type="aggravated"))
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=3, damage_type="superficial"))
    r.refused(I.Feed(by=ALICE, actor=ALICE, slaked=3), match="Hunger is 2")
    out = r(I.Feed(by=ALICE, actor=ALICE, slaked=2))
    ev = r.last("feed")
    assert ev["healed"] == {"superficial": 1, "aggravated": 1}
    assert (ev["hp_before"], ev["hp_after"], ev["hunger_after"]) == (5, 7, 0)
    s = out.sheet_changes[ALICE]
    assert (s.pools["Hunger"].current, s.harm) == (0, {"superficial": 2})
    r.refused(I.Feed(by=STAFF, actor=RAT, slaked=1), match="not a vampire")


@pytest.mark.rule("SPOT-11")
def test_spot11_end_of_scene_hunger_check_heals_superficial(rs, sheets):
    """At the end of the fight each vampire up with Superficial Harm makes the Hunger Check
    (harm.yaml READING: one die, below 6 Hunger +1) and heals its Superficial Harm;
    Aggravated stays; a vampire at Hunger 5 cannot make it."""
    sheets[BOB] = sheets[BOB].with_pool_current("Hunger", 5)
    r = fight(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=2, damage_type="superficial"))
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=1, damage_type="aggravated"))
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type="superficial"))
    out = r(I.End(by=STAFF), 4)
    a, b = [e for e in out.events if e.kind == "hunger_check"]
    assert (a["faces"], a["passed"], a["healed"], a["hunger_after"]) == ([4], False, 2, 3)
    assert (b["cannot"], b["healed"]) == (True, 0)
    s = out.sheet_changes[ALICE]
    assert (s.harm, s.pools["Hunger"].current) == ({"aggravated": 1}, 3)
    assert BOB not in out.sheet_changes


# ---------------------------------------------------------------- weapons, the round


@pytest.mark.rule("SPOT-10")
def test_spot10_every_weapon_of_the_table_has_a_range_tag(rs):
    tags = spot_rules(rs).tags
    for name in tables(rs).weapons:
        w = spa.weapon(rs, name, tags)
        assert w.tag in tags, name
    assert spa.weapon(rs, "Pistol, light", tags).tag == "pistol"
    assert spa.weapon(rs, "SMG, small", tags).tag == "smg"
    assert spa.weapon(rs, "smg, l", tags).name == "SMG, large"  # a unique prefix
    assert spa.check(rs) == []


@pytest.mark.rule("SPOT-04", "SPOT-06", "SPOT-12")
def test_spot06_organizer_not_joined_last_pc_moves_on_staked_is_incapacitated(rs, sheets):
    r = Run(rs, sheets)
    out = r(I.Join(by=STAFF, actor=STAFF, name="Staff", opening=True))
    assert r.state.combatants == () and out.events[0].kind == "organizer"
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=BOB, actor=BOB, name="Bob"))
    r(I.Join(by=STAFF, actor=RAT, name="Rat", is_npc=True, controller=STAFF))
    r(I.RollInitiative(by=ALICE), 6, 6)
    r(I.Stake(by=STAFF, actor=BOB))
    r(I.Advance(by=STAFF))
    r(I.Done(by=ALICE))  # the last PC who can act: straight to the closing part
    assert (r.state.stage, flow.pending(r.state)) == ("closing", [RAT])
    r(I.Advance(by=STAFF))  # the Storyteller moves on: a new round, not a pick again
    assert (r.state.round, r.state.holder) == (2, (ALICE,))
    rows = {row["key"]: row for row in ENGINE.view(r.state, r.sheets, rs)["rows"]}
    assert rows[BOB]["status"] == "incapacitated, staked"
    with pytest.raises(IllegalAction):
        ENGINE.apply(r.state, I.Done(by=BOB), r.sheets, rs, FixedDice())


# ---------------------------------------------------------------- V5 departures (issue 31)


@pytest.mark.rule("SPOT-11")
@pytest.mark.parametrize("tag", ["knife", "stake", "sword", "axe", "spear", "thrown",
                                 "pistol", "shotgun", "smg", "rifle", "sniper rifle", "bow",
                                 "crossbow"])
def test_spot11_sharp_and_piercing_weapons_are_aggravated_to_mortals_only(rs, tag):
    """V5 (READING in attack.yaml): blades, bullets and arrows deal Aggravated Harm to a
    target who is not a vampire, Superficial to a vampire; [6 6 2] against nothing."""
    pool = {t: 1 for t in spa.attack_row(rs, tag).pool}
    mortal = spa.resolve(rs, tag, pool, {}, FixedDice(6, 6), target_vampire=False)
    vampire = spa.resolve(rs, tag, pool, {}, FixedDice(6, 6), target_vampire=True)
    assert (mortal["kind"], vampire["kind"]) == ("aggravated", "superficial")
    assert mortal["harm"] == vampire["harm"] == 2 + spa.attack_row(rs, tag).bonus


@pytest.mark.rule("SPOT-11")
@pytest.mark.parametrize("tag", ["club", "grapple", None])
def test_spot11_blunt_weapons_and_fists_stay_superficial_to_mortals(rs, tag):
    pool = {t: 1 for t in spa.attack_row(rs, tag).pool}
    out = spa.resolve(rs, tag, pool, {}, FixedDice(6, 6), target_vampire=False)
    assert out["kind"] == "superficial"


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_a_shot_at_a_mortal_is_aggravated_and_bypasses_the_vest(rs, sheets):
    """Alice shoots Rat (a mortal in a Kevlar vest): Dex 3 + Firearms 2, Hunger 2
    [6 2 | 6 6 2] = 3 against Dex 2 + Athletics 1 [2 2 2] = 0: margin 3 + 2 = 5 Aggravated;
    Aggravated Harm bypasses armor (SPOT-11), nothing is halved (Rat is no vampire)."""
    r = fight(rs, sheets)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": RAT}), 6, 2, 6, 6, 2,
            2, 2, 2)
    harm = out.events[2]
    assert (harm["kind"], harm["armor"], harm["halved"], harm["marked"]) == (
        "aggravated", 0, 0, 5)
    assert out.sheet_changes[RAT].harm == {"aggravated": 5}


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_only_fangs_give_the_bite_its_two(rs, sheets):
    """Rat (a mortal: no fangs) bites Bob: Str 2 + Brawl 2 [6 6 6 2] = 3 against Bob's
    Dex 2 + Athletics 1, Hunger 1 [2 | 2 2] = 0: margin 3 + 0 = 3 Superficial, all of it
    stopped by Bob's Kevlar vest; the same roll from Alice (fangs) is 3 + 2 = 5
    Aggravated, which no vest stops."""
    r = fight(rs, sheets)
    r(I.Done(by=ALICE))
    r(I.SetRange(by=STAFF, actor=RAT, other=BOB, band="Intimate"))
    r(I.Advance(by=STAFF, actor=RAT))
    r(I.SetCondition(by=STAFF, actor=BOB, condition="grappled"))  # V5: held first
    out = r(I.Act(by=STAFF, actor=RAT, action={"kind": "bite", "target": BOB}),
            6, 6, 6, 2, 2, 2, 2)
    roll, harm = out.events[1], out.events[2]
    assert (roll["margin"], roll["bonus"]) == (3, 0)
    assert (harm["kind"], harm["amount"], harm["armor"], harm["marked"]) == (
        "superficial", 3, 3, 0)
    fangs = spa.resolve(rs, "bite", {"Strength": 2, "Brawl": 2}, {}, FixedDice(6, 6, 6, 2),
                        attacker_vampire=True, target_vampire=False)
    assert (fangs["kind"], fangs["bonus"], fangs["harm"]) == ("aggravated", 2, 5)


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_bows_and_crossbows_roll_dexterity_and_firearms(rs, sheets):
    """V5 has no Archery skill (READING in attack.yaml): Alice looses a short bow at Rat
    with Dex 3 + Firearms 2 (Hunger 2) [6 2 | 6 2 2] = 2 against [2 2 2]: 2 + 2 = 4."""
    assert spa.attack_row(rs, "bow").pool == spa.attack_row(rs, "crossbow").pool == (
        "Dexterity", "Firearms")
    r = fight(rs, sheets)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": RAT,
                                    "weapon": "Short bow"}), 6, 2, 6, 2, 2, 2, 2, 2)
    roll, harm = out.events[1], out.events[2]
    assert roll["traits"] == [["Dexterity", 3], ["Firearms", 2]]
    assert (roll["tag"], harm["kind"], harm["marked"]) == ("bow", "aggravated", 4)


# ---------------------------------------------------------------- Willpower reroll (V5)


@pytest.mark.rule("SPOT-11")
def test_spot11_willpower_reroll_up_to_three_non_hunger_dice_plays_the_attack_again(
        rs, sheets):
    """SPOT-11, issue 31 (V5 Willpower reroll): Alice's shot, Hunger 2: Hunger [2 3],
    others [2 6 2] = 1 against Bob's [1 | 7 3] = 1: a tie, a miss. One Willpower (5 -> 4)
    rerolls her first and third dice that are not Hunger dice: 2 -> 8, 2 -> 9: 3 successes,
    margin 2 + pistol 2 = 4; Kevlar 3 stops 3, halved: 1 Superficial on Bob, on his sheet."""
    r = fight(rs, sheets)
    r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB}), 2, 3, 2, 6, 2, 1, 7, 3)
    assert r.last("unharmed")
    out = r(I.Reroll(by=ALICE, dice=(1, 3)), 8, 9)
    ev, roll, harm = out.events[:3]
    assert (ev.kind, ev["old"], ev["new"], ev["left"]) == ("reroll", [2, 2], [8, 9], 4)
    assert (roll["faces"], roll["hunger_faces"], roll["successes"]) == (
        [2, 3, 8, 6, 9], [2, 3], 3)
    assert roll["defense"]["faces"] == [1, 7, 3]  # the defender's dice are kept
    assert (roll["margin"], harm["amount"], harm["marked"]) == (2, 4, 1)
    assert [e.kind for e in out.events].count("act") == 0  # told once, with the first roll
    assert r.sheets[ALICE].pools["Willpower"].current == 4
    assert r.sheets[BOB].harm == {"superficial": 1}
    assert r.state.last_roll is None
    # once a roll: a second reroll is refused, nothing spent
    r.refused(I.Reroll(by=ALICE, dice=(2,)), match="no roll of yours")


@pytest.mark.rule("SPOT-11")
def test_spot11_willpower_reroll_refusals(rs, sheets):
    """Not a Hunger die (positions count only the others), at most three, not someone
    else's roll, not after anything else happened, not with no Willpower left."""
    r = fight(rs, sheets)
    r.refused(I.Reroll(by=ALICE, dice=(1,)), match="no roll of yours")
    r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB}), 2, 3, 2, 6, 2, 1, 7, 3)
    r.refused(I.Reroll(by=ALICE, dice=(4,)), InputError, match="not Hunger dice")
    r.refused(I.Reroll(by=ALICE, dice=(1, 2, 3, 1)), InputError, match="up to 3")
    r.refused(I.Reroll(by=ALICE, dice=()), InputError, match="up to 3")
    r.refused(I.Reroll(by=BOB, dice=(1,)), match="no roll of yours")
    drained = r.sheets[ALICE].with_pool_current("Willpower", 0)
    saved, r.sheets[ALICE] = r.sheets[ALICE], drained
    r.refused(I.Reroll(by=ALICE, dice=(1,)), InputError)
    r.sheets[ALICE] = saved
    # the roll stands once anything else happens (here: her free action)
    r(I.Free(by=ALICE, text="shouts"))
    assert r.state.last_roll is None
    r.refused(I.Reroll(by=ALICE, dice=(1,)), match="no roll of yours")


@pytest.mark.rule("SPOT-11")
def test_spot11_willpower_reroll_state_round_trips(rs, sheets):
    """The open roll is kept in the stored state (the fight is saved between commands)."""
    r = fight(rs, sheets)
    r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB}), 2, 3, 2, 6, 2, 1, 7, 3)
    stored = ENGINE.load(r.state.to_dict())
    assert stored.last_roll == r.state.last_roll
    r.state = stored
    out = r(I.Reroll(by=ALICE, dice=(1,)), 6)
    assert out.events[1]["successes"] == 2


# ---------------------------------------------------------------- Impairment (V5)


@pytest.mark.rule("SPOT-11", "SPOT-13")
def test_spot11_impairment_terms_physical_for_health_social_mental_for_willpower(rs):
    """V5 Impairment (spotlight/dice.yaml): a full Harm track costs 2 dice on Physical
    pools, no Willpower left 2 dice on Social and Mental pools; other pools keep theirs."""
    from wodcombat.combat.spotlight import impairment as imp

    body, mind = ("Strength", "Brawl"), ("Wits", "Awareness")
    assert imp.terms(rs, body, health_full=True, willpower_left=3) == [
        ["Impaired (Health)", -2]]
    assert imp.terms(rs, mind, health_full=True, willpower_left=3) == []
    assert imp.terms(rs, mind, health_full=False, willpower_left=0) == [
        ["Impaired (Willpower)", -2]]
    assert imp.terms(rs, ("Manipulation", "Subterfuge"), health_full=False,
                     willpower_left=0) == [["Impaired (Willpower)", -2]]
    assert imp.terms(rs, body, health_full=False, willpower_left=0) == []
    assert imp.terms(rs, body, health_full=False, willpower_left=None) == []
    # d10 rulesets have no v5_impairment: nothing
    assert imp.terms(load_ruleset(RULES, "core"), body, health_full=True,
                     willpower_left=0) == []


@pytest.mark.rule("SPOT-11", "SPOT-13")
def test_spot11_a_defender_at_zero_hp_rolls_impaired(rs, sheets):
    """Bob at 0 HP (6 Superficial by hand: torpor, SPOT-13) is shot: his Dexterity 2 +
    Athletics 1 loses 2 dice to Impairment: 1 die, his one Hunger die [7]."""
    r = fight(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=6, damage_type="superficial"))
    assert r.state.get(BOB).hp == 0
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": BOB}), 2, 3, 6, 6, 2, 7)
    d = out.events[1]["defense"]
    assert d["traits"] == [["Dexterity", 2], ["Athletics", 1], ["Impaired (Health)", -2]]
    assert (d["pool"], d["faces"], d["successes"]) == (1, [7], 1)
    assert out.events[1]["traits"] == [["Dexterity", 3], ["Firearms", 2]]  # Alice is fine


# ---------------------------------------------------------------- Rouse Check (V5)


def _with(s, rs, **traits):
    for name, value in traits.items():
        s, _ = s.set(rs.traits, name, str(value))
    return s


@pytest.mark.rule("SPOT-07")
def test_spot07_a_discipline_power_costs_a_vampire_a_rouse_check(rs, sheets):
    """SPOT-07 "Any Basic Move or Discipline Power" (issue 31, V5 Rouse Check): Alice
    (Hunger 2) uses Celerity: the die [3] fails, Hunger 3, on her sheet; the power is her
    turn's action. Next round [7] passes: Hunger stays 3."""
    r = fight(rs, {**sheets, ALICE: _with(sheets[ALICE], rs, celerity=2)})
    out = r(I.Act(by=ALICE, action={"kind": "power", "power": "cel"}), 3)
    act, ev = out.events[:2]
    assert act["action"] == {"kind": "power", "power": "Celerity"}
    assert (ev.kind, ev["faces"], ev["passed"], ev["hunger_before"], ev["hunger_after"]) == (
        "rouse", [3], False, 2, 3)
    assert r.sheets[ALICE].pools["Hunger"].current == 3
    assert r.state.get(ALICE).actions == 1
    r.refused(I.Act(by=ALICE, action={"kind": "power", "power": "Celerity"}),
              match="taken this turn's action")


@pytest.mark.rule("SPOT-07")
def test_spot07_rouse_refusals_and_a_mortal_uses_a_power_unchecked(rs, sheets):
    """No dots, not a power, Hunger 5: refused with nothing rolled. A vampire who passes
    keeps its Hunger."""
    alice = _with(sheets[ALICE], rs, celerity=1)
    r = fight(rs, {**sheets, ALICE: alice})
    r.refused(I.Act(by=ALICE, action={"kind": "power", "power": "Dominate"}),
              match="no dots in Dominate")
    r.refused(I.Act(by=ALICE, action={"kind": "power", "power": "Brawl"}), InputError,
              match="not a power here")
    r.refused(I.Act(by=ALICE, action={"kind": "power"}), InputError, match="Name a power")
    r.sheets[ALICE] = alice.with_pool_current("Hunger", 5)
    r.refused(I.Act(by=ALICE, action={"kind": "power", "power": "Celerity"}),
              match="At Hunger 5 the blood cannot be roused")
    r.sheets[ALICE] = alice
    out = r(I.Act(by=ALICE, action={"kind": "power", "power": "Celerity"}), 6)
    assert (out.events[1]["passed"], out.events[1]["hunger_after"]) == (True, 2)
    assert ALICE not in out.sheet_changes  # Hunger unchanged: the sheet is not rewritten
    # a mortal (Rat, no sheet Hunger) uses a power with no check
    mortal = _with(sheets[RAT], rs, auspex=1)
    m = Run(rs, {**sheets, RAT: mortal}, r.state)
    m(I.Done(by=ALICE))
    m(I.Advance(by=STAFF, actor=RAT))
    out = m(I.Act(by=STAFF, actor=RAT, action={"kind": "power", "power": "Auspex"}))
    assert [e.kind for e in out.events][:1] == ["act"]
    assert "rouse" not in [e.kind for e in out.events]


# ---------------------------------------------------------------- close combat (V5)


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_in_close_combat_the_defender_fights_back_and_wins_harm(rs, sheets):
    """Issue 31 (V5 close combat, attack.yaml READING): Alice punches Rat at Hand: Str 2 +
    Brawl 2, Hunger [2 2] others [6 2] = 1. Rat's Str 2 + Brawl 2 (4) beats his dodge (Dex 2
    + Athletics 1 = 3), so he fights back: [6 6 7 2] = 3. He wins by 2 + fists 0 = 2
    Superficial on Alice, halved on a vampire: 1, on her sheet."""
    r = fight(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=RAT, band="Hand"))
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": RAT, "weapon": "unarmed"}),
            2, 2, 6, 2, 6, 6, 7, 2)
    assert [e.kind for e in out.events][:4] == ["act", "roll", "unharmed", "harm"]
    d = out.events[1]["defense"]
    assert (d["traits"], d["successes"], d["fights_back"]) == (
        [["Strength", 2], ["Brawl", 2]], 3, True)
    assert d["counter"] == {"bonus": 0, "kind": "superficial", "tag": "unarmed", "harm": 2}
    back = out.events[3]
    assert (back["target"], back["amount"], back["halved"], back["marked"]) == (ALICE, 2, 1, 1)
    assert r.sheets[ALICE].harm == {"superficial": 1}


@pytest.mark.rule("SPOT-10", "SPOT-11")
def test_spot11_guns_and_a_smaller_fighting_pool_are_only_dodged(rs, sheets):
    """A shot (Close) is dodged whatever the defender's fists; a bite on Bob (Strength 1 +
    Brawl 0 = 1 against his dodge of 3) is dodged; a defender winning a dodge deals
    nothing."""
    r = fight(rs, sheets)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": RAT}), 2, 2, 2, 2, 2, 6, 2, 2)
    d = out.events[1]["defense"]
    assert d["traits"] == [["Dexterity", 2], ["Athletics", 1]] and "fights_back" not in d
    r2 = fight(rs, sheets)
    r2(I.SetRange(by=STAFF, actor=ALICE, other=BOB, band="Intimate"))
    r2(I.SetCondition(by=STAFF, actor=BOB, condition="grappled"))
    out = r2(I.Act(by=ALICE, action={"kind": "bite", "target": BOB}), 2, 2, 2, 2, 6, 6, 2)
    d = out.events[1]["defense"]
    assert d["traits"] == [["Dexterity", 2], ["Athletics", 1]] and "fights_back" not in d
    assert [e.kind for e in out.events][2] == "unharmed"
    assert "harm" not in [e.kind for e in out.events]


# ---------------------------------------------------------------- a grapple before a bite


@pytest.mark.rule("SPOT-07", "SPOT-10")
def test_spot10_a_bite_needs_the_target_held_a_grapple_won_holds_it(rs, sheets):
    """Issue 31 (V5 Bite, attack.yaml READING): Alice cannot bite Bob unheld; her grapple
    (Str 2 + Brawl 2, Hunger [2 2] others [6 6] = 2 against his dodge [2 2 2] = 0) deals no
    Harm and holds him for 2 rounds (this one and the next); next round she bites."""
    r = fight(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=BOB, band="Intimate"))
    r.refused(I.Act(by=ALICE, action={"kind": "bite", "target": BOB}),
              match="A bite needs Bob held: grapple first")
    out = r(I.Act(by=ALICE, action={"kind": "grapple", "target": BOB}), 2, 2, 6, 6, 2, 2, 2)
    kinds = [e.kind for e in out.events]
    assert kinds[:3] == ["act", "roll", "condition"] and "harm" not in kinds
    assert out.events[1]["purpose"] == "grapple"
    assert (out.events[2]["condition"], out.events[2]["from"], out.events[2]["until"]) == (
        "grappled", 1, 2)
    assert r.state.get(BOB).superficial == 0
    r(I.Done(by=ALICE))
    r(I.Advance(by=STAFF))  # no opponent: Bob's turn
    r(I.Done(by=BOB))
    r(I.Advance(by=STAFF))  # round 2
    assert r.state.round == 2
    out = r(I.Act(by=ALICE, action={"kind": "bite", "target": BOB}), 6, 6, 2, 2, 2, 2, 2)
    assert out.events[2]["kind"] == "aggravated"


@pytest.mark.rule("SPOT-07", "SPOT-10")
def test_spot10_a_lost_grapple_holds_nobody_and_a_downed_target_needs_no_hold(rs, sheets):
    r = fight(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=BOB, band="Intimate"))
    out = r(I.Act(by=ALICE, action={"kind": "grapple", "target": BOB}), 2, 2, 2, 2, 6, 2, 2)
    assert out.events[2].kind == "unharmed" and out.events[2]["held"] is False
    assert not r.state.get(BOB).conditions
    r2 = fight(rs, sheets)
    r2(I.SetRange(by=STAFF, actor=ALICE, other=BOB, band="Intimate"))
    r2(I.Stake(by=STAFF, actor=BOB))
    out = r2(I.Act(by=ALICE, action={"kind": "bite", "target": BOB}), 6, 6, 2, 2, 2, 2, 2)
    assert out.events[1].kind == "roll"  # staked: no hold needed


# ---------------------------------------------------------------- mending (V5)


@pytest.mark.rule("SPOT-11", "SPOT-13")
def test_spot11_the_hunger_check_mends_by_blood_potency_one_check_at_a_time(rs, sheets):
    """Issue 31 (V5 Blood Potency: Superficial mended per Rouse Check; harm.yaml READING):
    Alice, Blood Potency 2, mends 2 a check: 5 Superficial takes three checks [4 7 2]: the
    4 and the 2 fail, Hunger 2 -> 4; all 5 healed. Aggravated stays."""
    r = fight(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=5, damage_type="superficial"))
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=1, damage_type="aggravated"))
    out = r(I.End(by=STAFF), 4, 7, 2)
    (a,) = [e for e in out.events if e.kind == "hunger_check"]
    assert (a["faces"], a["mend"], a["healed"], a["left"], a["hunger_after"]) == (
        [4, 7, 2], 2, 5, 0, 4)
    s = out.sheet_changes[ALICE]
    assert (s.harm, s.pools["Hunger"].current) == ({"aggravated": 1}, 4)


@pytest.mark.rule("SPOT-11", "SPOT-13")
def test_spot11_mending_stops_at_the_top_of_the_hunger_range(rs, sheets):
    """At Hunger 4 one failed check [3] mends 2 and brings Hunger 5: no more checks; 3 of
    Alice's 5 Superficial stay on her sheet."""
    r = fight(rs, {**sheets, ALICE: sheets[ALICE].with_pool_current("Hunger", 4)})
    r(I.StaffDamage(by=STAFF, actor=ALICE, levels=5, damage_type="superficial"))
    out = r(I.End(by=STAFF), 3)
    (a,) = [e for e in out.events if e.kind == "hunger_check"]
    assert (a["faces"], a["healed"], a["left"], a["hunger_after"]) == ([3], 2, 3, 5)
    s = out.sheet_changes[ALICE]
    assert (s.harm, s.pools["Hunger"].current) == ({"superficial": 3}, 5)
