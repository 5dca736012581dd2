"""The `revised` ruleset (seed 001_64ad5dbf331f4a42.txt) under the real rules/ folder.

Every catalog ID whose "where / variants" column names revised (or says all d10) is
exercised here: the IDs where the revised page says what numetal says run the shared checks
of d10_checks.py under revised; where it differs a test below gives the same situation to
both rulesets and asserts the different numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from combat import damage as D
from combat import field_healing as FH
from combat import healing as H
from combat import scheduler as S
from combat.attack import (
    Context,
    WeaponState,
    build_attack_pool,
    crossbow_reload_actions,
    ready_weapon,
    resolve_attack,
)
from combat.errors import IllegalAction
from combat.ruleset import load_library, load_ruleset
from tests.engine import d10_checks as C
from tests.engine.d10_checks import A, B, DODGE, atk, declare_all, events, full, hit, started

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "revised")


@pytest.fixture(scope="module")
def nu():
    return load_ruleset(RULES, "numetal")


# IDs the revised page words as numetal does (checked under revised by d10_checks).
SAME = [
    "DICE-01", "DICE-02", "DICE-03", "DICE-04", "DICE-05", "DICE-07", "DICE-09", "DICE-10",
    "INIT-01", "INIT-06",
    "TURN-01", "TURN-02", "TURN-03", "TURN-04", "TURN-06", "TURN-07", "TURN-09",
    "ATK-01", "ATK-02", "ATK-03", "ATK-04", "ATK-05", "ATK-06", "ATK-09",
    "DMG-01", "DMG-02", "DMG-03", "DMG-04", "DMG-11", "DMG-16", "DMG-17", "DMG-18",
    "HLT-01", "HLT-02", "HLT-03", "HLT-05", "HLT-06", "HLT-07", "HLT-08", "HLT-09",
    "HEAL-06",
    "MAN-01", "MAN-02", "MAN-03", "MAN-04", "MAN-05", "MAN-06", "MAN-07", "MAN-08", "MAN-09",
    "MAN-10", "MAN-11", "MAN-12",
    "DEF-01", "DEF-02", "DEF-03", "DEF-04", "DEF-05",
    "CLOSE-01", "CLOSE-02", "CLOSE-03", "CLOSE-04", "CLOSE-05", "CLOSE-06", "CLOSE-07",
    "CLOSE-08", "CLOSE-09", "CLOSE-10", "CLOSE-11", "CLOSE-12", "CLOSE-13",
    "RNG-01", "RNG-02", "RNG-03", "RNG-04", "RNG-05", "RNG-06", "RNG-07", "RNG-08", "RNG-09",
    "COMP-01", "COMP-02", "COMP-03", "COMP-04", "COMP-05",
    "PWR-03", "PWR-05", "PWR-06",
]


@pytest.mark.parametrize("rule_id", C.params(SAME))
def test_revised_same_as_numetal(rs, rule_id):
    """The shared check of ``rule_id`` holds under revised."""
    C.CHECKS[rule_id](rs)


def test_library_loads_all_four_d10_rulesets_without_issues():
    lib = load_library(RULES)
    assert lib.issues == ()
    for name in ("numetal", "revised", "everyman", "v20"):
        assert lib.get(name).name == name
    assert lib.get("revised").parent == "numetal"


# ---------------------------------------------------------------- TURN-08


@pytest.mark.rule("TURN-08")
def test_TURN_08_revised_abort_to_any_action_free_if_pointless_plus_one(rs, nu):
    """TURN-08 revised: any new action; free when the declared one is pointless; +1
    difficulty unless defensive. numetal: defenses only, and no free abort."""
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [C.STRIKE], "b": [{"kind": "strike", "target": "x"}]})
    step = S.abort(st, "b", {"kind": "kick", "target": "a"}, rs, pointless=True)
    (ev,) = events(step, "abort")
    assert ev["free"] and ev["roll"] is None and ev["spend"] is None and not ev["performed"]
    assert ev["modifiers"] == [{"reason": "changed action", "difficulty": 1}]
    # a defensive abort takes no +1 and is performed at once
    (ev,) = events(S.abort(st, "b", DODGE, rs, willpower=3, faces=[6, 2, 3]), "abort")
    assert ev["success"] and ev["performed"] and ev["roll"]["difficulty"] == 6
    assert ev["modifiers"] == []
    nst = started(nu, [("a", 8, 7), ("b", 3, 2)])
    nst = declare_all(nst, nu, {"a": [C.STRIKE], "b": [{"kind": "strike", "target": "x"}]})
    with pytest.raises(IllegalAction, match="block, dodge, parry"):
        S.abort(nst, "b", {"kind": "kick", "target": "a"}, nu, pointless=True)


@pytest.mark.rule("TURN-08")
def test_TURN_08_revised_failed_roll_stands(rs, nu):
    """TURN-08: revised asks for a roll OR a point; after a failed roll the action stands
    (numetal's C20 rule lets a point be spent after the failure)."""
    for ruleset, can_spend in ((rs, False), (nu, True)):
        st = started(ruleset, [("a", 8, 7), ("b", 3, 2)])
        st = declare_all(st, ruleset, {"a": [C.STRIKE], "b": [{"kind": "strike", "target": "a"}]})
        st = S.abort(st, "b", DODGE, ruleset, willpower=3, faces=[5, 2, 3]).state
        if can_spend:
            assert S.abort(st, "b", DODGE, ruleset, spend_willpower=True).state.get("b").used
        else:
            with pytest.raises(IllegalAction, match="declared action stands"):
                S.abort(st, "b", DODGE, ruleset, spend_willpower=True)


# ---------------------------------------------------------------- ATK-07, ATK-08


@pytest.mark.rule("ATK-07")
def test_ATK_07_revised_bow_archery_first_athletics_plus_one_archery_4_skips_nocking(rs, nu):
    """ATK-07 revised: Dex + Archery (numetal: Archery is the -1 substitute); Athletics at +1
    (numetal: the stated ability at 6); Archery 4+ needs no nocking (numetal: a specialty)."""
    nocked = Context(range_yards=20, weapon_state=WeaponState("Short bow", nocked=True))
    p = build_attack_pool(rs, A(Archery=3), B(), atk(weapon="Short bow"), nocked)
    assert ("Archery", 3) in p.terms and p.difficulty == 6
    assert build_attack_pool(nu, A(Archery=3), B(), atk(weapon="Short bow"),
                             nocked).difficulty == 5
    p = build_attack_pool(rs, A(Archery=0, Athletics=2), B(), atk(weapon="Short bow"), nocked)
    assert ("Athletics", 2) in p.terms and p.difficulty == 7
    assert build_attack_pool(nu, A(Archery=0, Athletics=2), B(), atk(weapon="Short bow"),
                             nocked).difficulty == 6
    loose = Context(range_yards=20)
    assert build_attack_pool(rs, A(Archery=4), B(), atk(weapon="Short bow"), loose).dice == 7
    with pytest.raises(IllegalAction, match="Nock an arrow"):
        build_attack_pool(nu, A(Archery=4), B(), atk(weapon="Short bow"), loose)
    with pytest.raises(IllegalAction, match="Nock an arrow"):
        build_attack_pool(rs, A(Archery=3, specialties={"Archery": "bows"}), B(),
                          atk(weapon="Short bow"), loose)
    # botch snaps the string; repair: Wits + Archery, or Wits + Crafts at +1
    r = resolve_attack(rs, A(Archery=3), B(), atk(weapon="Short bow"), nocked,
                       faces=(1, 2, 3, 4, 2, 3))
    assert r.botch and r.weapon_after.string_ok is False
    fix = ready_weapon(rs, A(Archery=0, Crafts=3), "Short bow", r.weapon_after, "repair",
                       spare_string=True, ability="Crafts", faces=(7, 2, 2, 2, 2))
    assert fix.pool.difficulty == 7 and fix.roll.successes == 1
    fix = ready_weapon(nu, A(Archery=0, Crafts=3), "Short bow", r.weapon_after, "repair",
                       spare_string=True, ability="Crafts", faces=(6, 2, 2, 2, 2))
    assert fix.pool.difficulty == 6


@pytest.mark.rule("ATK-08")
def test_ATK_08_revised_crossbow_archery_or_firearms_and_archery_4_reloads_in_one(rs, nu):
    """ATK-08 revised: Dex + Archery or Firearms at +1, no Athletics; two reload actions,
    one with Archery 4+ (numetal: with a crossbow specialty)."""
    ctx = Context(range_yards=10)
    p = build_attack_pool(rs, A(Archery=2, Firearms=0), B(), atk(weapon="Crossbow"), ctx)
    assert ("Archery", 2) in p.terms and p.difficulty == 6
    p = build_attack_pool(rs, A(Archery=0, Athletics=3, Firearms=0), B(), atk(weapon="Crossbow"),
                          ctx)
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 7
    p = build_attack_pool(nu, A(Archery=0, Athletics=3, Firearms=0), B(), atk(weapon="Crossbow"),
                          ctx)
    assert ("Athletics", 3) in p.terms
    p = build_attack_pool(rs, A(Archery=0), B(), atk(weapon="Crossbow"), ctx)
    assert ("Firearms", 3) in p.terms and p.difficulty == 7
    assert crossbow_reload_actions(rs, A(Archery=4)) == 1
    assert crossbow_reload_actions(nu, A(Archery=4)) == 2
    assert crossbow_reload_actions(rs, A(Archery=2)) == 2
    assert crossbow_reload_actions(rs, A(Archery=2, specialties={"Archery": "crossbow"})) == 2
    assert crossbow_reload_actions(nu, A(Archery=2, specialties={"Archery": "crossbow"})) == 1


# ---------------------------------------------------------------- DMG


@pytest.mark.rule("DMG-05")
def test_DMG_05_revised_soak_table(rs, nu):
    """DMG-05 revised: ghoul Stamina + Fortitude against lethal with or without Vitae;
    demon Stamina / Stamina (apocalyptic) / none; everyone else is "Other" (Stamina against
    bashing only; a chimerical wound on a changeling soaks nothing)."""
    dry = full(rs, "ghoul", Stamina=3, Fortitude=1, pools={"Blood": 0})
    assert D.soak_pool(rs, dry, "lethal").dice == 4
    assert D.soak_pool(nu, dry, "lethal").dice == 1  # numetal DMG-06: Stamina needs Vitae
    demon = full(rs, "demon", Stamina=3)
    assert D.soak_pool(rs, demon, "bashing").dice == 3
    assert D.soak_pool(rs, demon, "aggravated") is None
    fae = full(rs, "changeling", Stamina=3)
    assert D.soak_pool(rs, fae, "lethal", chimerical=True) is None
    assert D.soak_pool(nu, fae, "lethal", chimerical=True).dice == 3
    vamp = full(rs, "vampire", Stamina=2, Fortitude=2)
    assert [D.soak_pool(rs, vamp, t).dice for t in ("bashing", "lethal", "aggravated")] == [
        4, 4, 2]
    wolf = full(rs, "shifter", race="Garou", form="Crinos", Stamina=3)
    assert D.soak_pool(rs, wolf, "lethal").dice == 3
    assert D.soak_pool(rs, full(rs, "wraith", Stamina=2), "lethal") is None


@pytest.mark.rule("DMG-08")
def test_DMG_08_demon_soaks_lethal_only_in_apocalyptic_form(rs, nu):
    """DMG-08: a demon soaks lethal with Stamina only in apocalyptic form."""
    demon = full(rs, "demon", Stamina=3)
    assert D.soak_pool(rs, demon, "lethal") is None
    assert D.soak_pool(rs, demon, "lethal", flags=("apocalyptic_form",)).dice == 3
    assert D.soak_pool(nu, demon, "lethal", flags=("apocalyptic_form",)) is None
    res = hit(rs, demon, 3, "lethal", faces=[8, 8, 2], soak=[9, 9, 2],
              flags=("apocalyptic_form",))
    assert res.soaked == 2 and res.applied == 0


@pytest.mark.rule("DMG-12")
def test_DMG_12_armor_damaged_by_twice_its_rating_if_it_applied(rs, nu):
    """DMG-12: pre-soak damage >= 2 x rating damages the armor, only when it applied."""
    mortal = full(rs, Stamina=1)
    assert hit(rs, mortal, 4, "lethal", armor_rating=2, soak=[2, 2]).armor_damaged
    assert not hit(nu, mortal, 4, "lethal", armor_rating=2, soak=[2, 2]).armor_damaged
    assert not hit(rs, mortal, 3, "lethal", armor_rating=2, soak=[2, 2]).armor_damaged
    assert not hit(rs, mortal, 4, "lethal", armor_rating=2, armor_applies=False).armor_damaged
    assert not hit(rs, mortal, 4, "lethal", armor_rating=2, unarmored_part=True).armor_damaged


@pytest.mark.rule("DMG-13")
def test_DMG_13_unsoakable_ignored_against_enemies_hit_by_success(rs, nu):
    """DMG-13: "unsoakable" is ignored for an enemy hit by your successful action, applies as
    written to you or allies from failures; a soak-anything power wins."""
    assert D.unsoakable_applies(rs, enemy_hit_by_success=True) is False
    assert D.unsoakable_applies(rs, enemy_hit_by_success=False) is True
    assert D.unsoakable_applies(rs, enemy_hit_by_success=False, victim_soaks_anything=True) \
        is False
    assert D.unsoakable_applies(nu, enemy_hit_by_success=True) is True
    vamp = full(rs, "vampire", Stamina=2, Fortitude=1)
    enemy = hit(rs, vamp, 2, "lethal", soak=[9, 9, 2],
                unsoakable=D.unsoakable_applies(rs, enemy_hit_by_success=True))
    assert enemy.soaked == 2 and enemy.applied == 0
    ally = hit(rs, vamp, 2, "lethal",
               unsoakable=D.unsoakable_applies(rs, enemy_hit_by_success=False))
    assert ally.soak is None and ally.applied == 2


@pytest.mark.rule("DMG-14")
def test_DMG_14_unsoaked_damage_lowers_health_and_a_wraiths_corpus(rs, nu):
    """DMG-14: unsoaked damage reduces health; for wraiths and Risen, Corpus too."""
    risen = full(rs, "risen", Stamina=2)
    res = hit(rs, risen, 3, "lethal")
    assert res.applied == 3 and res.sheet.health["lethal"] == 3
    assert res.sheet.pools["Corpus"].current == risen.pools["Corpus"].current - 3
    assert any("Corpus -3" in n for n in res.notes)
    assert hit(nu, risen, 3, "lethal").sheet.pools["Corpus"] == risen.pools["Corpus"]
    mortal = full(rs, Stamina=2)
    assert hit(rs, mortal, 2, "bashing", soak=[2, 2]).sheet.health["bashing"] == 2


# ---------------------------------------------------------------- HLT-04, HLT-06


@pytest.mark.rule("HLT-04")
def test_HLT_04_revised_shifter_reverts_on_lethal_or_bashing_then_dies(rs, nu):
    """HLT-04 revised: incapacitated shifter + lethal: breed form, dies on any more damage;
    more bashing converts to lethal first, so the same (numetal too: Rage or revert);
    vampires torpor, others die."""
    wolf = full(rs, "shifter", race="Garou", breed="homid", form="Crinos", Stamina=3,
                health={"lethal": 7})
    res = hit(rs, wolf, 1, "lethal", source="claw", soak=[2, 2, 2], condition="incapacitated")
    assert res.outcome == "reverted" and res.sheet.form == "Homid"
    again = hit(rs, res.sheet, 1, "bashing", soak=[2, 2, 2], condition="reverted")
    assert again.outcome == "dead"
    bashed = full(rs, "shifter", race="Garou", form="Crinos", Stamina=3, health={"bashing": 7})
    assert hit(rs, bashed, 1, "bashing", soak=[2, 2, 2],
               condition="incapacitated").outcome == "reverted"
    assert hit(nu, bashed, 1, "bashing", soak=[2, 2, 2],
               condition="incapacitated").outcome == "reverted"
    vamp = full(rs, "vampire", Stamina=1, health={"lethal": 7})
    assert hit(rs, vamp, 1, "lethal", source="claw", soak=[2]).outcome == "torpor"
    assert hit(rs, full(rs, health={"lethal": 7}), 1, "lethal").outcome == "dead"


@pytest.mark.rule("HLT-06")
def test_HLT_06_risen_count_only_aggravated(rs, nu):
    """HLT-06 (The Risen p. 50): Risen subtract dice only for aggravated damage."""
    risen = full(rs, "risen", health={"lethal": 4, "aggravated": 1})
    assert D.wound_modifier(risen, rs, "action") is None  # one agg: Bruised, no penalty
    assert D.wound_modifier(risen, nu, "action").dice == -2
    risen2 = full(rs, "risen", health={"aggravated": 2})
    assert D.wound_modifier(risen2, rs, "action").dice == -1
    assert D.wound_modifier(full(rs, health={"lethal": 4}), rs, "action").dice == -2


@pytest.mark.rule("HLT-09")
def test_HLT_09_revised_footnotes(rs, nu):
    """HLT-09: same healing times, revised's own medical-care footnotes."""
    times = [(x["heal_bashing"], x["heal_lethal"]) for x in rs.section("health")["levels"]]
    assert times == [(x["heal_bashing"], x["heal_lethal"])
                     for x in nu.section("health")["levels"]]
    # issue 9 defect 11: bashing has its own footnote (revised: Mauled and worse)
    wounded, mauled = (H.natural_heal_time(full(rs, health={"bashing": n}), rs, "bashing")
                       for n in (4, 5))
    assert wounded.needs is None and "further effects" in mauled.needs
    assert "worsens" in H.natural_heal_time(full(rs, health={"lethal": 3}), rs, "lethal").needs
    assert "continuous" in H.natural_heal_time(full(rs, health={"lethal": 6}), rs,
                                               "lethal").needs
    assert "Medicine 2+" in H.natural_heal_time(full(nu, health={"bashing": 4}), nu,
                                                "bashing").needs
    assert "continuous medical care" in rs.section("health")["notes"]
    assert rs.section("health")["notes"] != nu.section("health")["notes"]


# ---------------------------------------------------------------- HEAL-08


@pytest.mark.rule("HEAL-08")
def test_HEAL_08_demon_heals_one_type_a_turn_per_faith(rs, nu):
    """HEAL-08: a full turn of concentration per Faith; one type at a time; damaged during
    the turn: fails, Faith kept. numetal has no such rule."""
    demon = full(rs, "demon", pools={"Faith": 4}, health={"lethal": 2, "bashing": 2})
    res = FH.demon_heal(rs, demon, faith=2, kind="lethal")
    assert res.healed == {"lethal": 2} and res.cost == {"Faith": 2} and res.time == "2 turns"
    assert res.sheet.pools["Faith"].current == 2 and res.health_after.lethal == 0
    assert res.health_after.bashing == 2
    with pytest.raises(IllegalAction, match="one type of damage at a time"):
        FH.demon_heal(rs, demon, faith=2, kind=["lethal", "bashing"])
    hurt = FH.demon_heal(rs, demon, faith=2, kind="bashing", damaged=True)
    assert hurt.healed == {} and hurt.cost == {} and hurt.sheet.pools["Faith"].current == 4
    with pytest.raises(IllegalAction, match="Not enough Faith"):
        FH.demon_heal(rs, demon, faith=5, kind="lethal")
    with pytest.raises(IllegalAction, match="Only demons"):
        FH.demon_heal(rs, full(rs, health={"lethal": 1}), faith=1, kind="lethal")
    with pytest.raises(IllegalAction, match="no Faith healing"):
        FH.demon_heal(nu, demon, faith=1, kind="lethal")
