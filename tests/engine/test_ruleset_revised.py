"""The `revised` ruleset (seed 001_64ad5dbf331f4a42.txt) under the real rules/ folder.

revised extends the core (the V20 baseline), not numetal: every rule below is either worded
by the revised page itself or a book rule the core carries where the page is silent. The
IDs whose numbers the page states exactly as the shared checks of d10_checks.py assert them
run those checks under revised; where the page differs from numetal or from the core's V20
values, a test below plays the situation and asserts the page's numbers (issue 10).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wodcombat.combat.d10 import soak as SK

from wodcombat.combat.d10 import wound_penalty as WP
from wodcombat.combat.d10 import field_healing as FH
from wodcombat.combat.d10 import healing as H
from wodcombat.combat.d10 import heal_time as HTM
from wodcombat.combat.d10 import healing_tables as HT
from wodcombat.combat.d10 import shifter_healing as SH
from wodcombat.combat.core import maneuvers as M
from wodcombat.combat.d10 import powers as P
from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.attack_resolve import (
    build_attack_pool,
    build_defense_pool,
    resolve_attack,
)
from wodcombat.combat.d10.attack_values import Context, Defense, Side, WeaponState
from wodcombat.combat.d10.weapon_ready import crossbow_reload_actions, ready_weapon
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_library, load_ruleset
from tests.engine import d10_checks as C
from tests.engine.d10_checks import A, B, DODGE, F, atk, declare_all, events, full, hit, started

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "revised")


@pytest.fixture(scope="module")
def nu():
    return load_ruleset(RULES, "numetal")


@pytest.fixture(scope="module")
def v20():
    return load_ruleset(RULES, "v20")


# IDs the catalog gives revised (seed 001, or "all d10" for the standard dice) whose numbers
# are those the shared checks assert (d10_checks.py). Some the core carries as the V20 book
# has them (e.g. DICE-01, CLOSE-13); the others are stated
# in rules/revised/ because the core's V20 value differs: ATK-03 (armor as difficulty),
# ATK-06 / ATK-09 (Throwing at -1, +1 without the skill), DEF-02 (Dexterity + Dodge),
# RNG-07 (dodging a strafe +1), and DEF-05, whose dodge is DEF-02's.
SEED_001_STATES = [
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


@pytest.mark.parametrize("rule_id", C.params(SEED_001_STATES))
def test_revised_seed_001_states_the_shared_numbers(rs, rule_id):
    """Revised plays ``rule_id`` with the numbers its shared check asserts (seed 001)."""
    C.CHECKS[rule_id](rs)


def test_library_loads_all_four_d10_rulesets_without_issues():
    lib = load_library(RULES)
    assert lib.issues == ()
    for name in ("numetal", "revised", "everyman", "v20"):
        assert lib.get(name).name == name
    assert lib.get("revised").parent == "core"  # issue 10: no numetal house rule inherited


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
    assert SK.soak_pool(rs, dry, "lethal").dice == 4
    assert SK.soak_pool(nu, dry, "lethal").dice == 1  # numetal DMG-06: Stamina needs Vitae
    demon = full(rs, "demon", Stamina=3)
    assert SK.soak_pool(rs, demon, "bashing").dice == 3
    assert SK.soak_pool(rs, demon, "aggravated") is None
    fae = full(rs, "changeling", Stamina=3)
    assert SK.soak_pool(rs, fae, "lethal", chimerical=True) is None
    assert SK.soak_pool(nu, fae, "lethal", chimerical=True).dice == 3
    vamp = full(rs, "vampire", Stamina=2, Fortitude=2)
    assert [SK.soak_pool(rs, vamp, t).dice for t in ("bashing", "lethal", "aggravated")] == [
        4, 4, 2]
    wolf = full(rs, "shifter", race="Garou", form="Crinos", Stamina=3)
    assert SK.soak_pool(rs, wolf, "lethal").dice == 3
    assert SK.soak_pool(rs, full(rs, "wraith", Stamina=2), "lethal") is None


@pytest.mark.rule("DMG-08")
def test_DMG_08_demon_soaks_lethal_only_in_apocalyptic_form(rs, nu):
    """DMG-08: a demon soaks lethal with Stamina only in apocalyptic form."""
    demon = full(rs, "demon", Stamina=3)
    assert SK.soak_pool(rs, demon, "lethal") is None
    assert SK.soak_pool(rs, demon, "lethal", flags=("apocalyptic_form",)).dice == 3
    assert SK.soak_pool(nu, demon, "lethal", flags=("apocalyptic_form",)) is None
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
    assert SK.unsoakable_applies(rs, enemy_hit_by_success=True) is False
    assert SK.unsoakable_applies(rs, enemy_hit_by_success=False) is True
    assert SK.unsoakable_applies(rs, enemy_hit_by_success=False, victim_soaks_anything=True) \
        is False
    assert SK.unsoakable_applies(nu, enemy_hit_by_success=True) is True
    vamp = full(rs, "vampire", Stamina=2, Fortitude=1)
    enemy = hit(rs, vamp, 2, "lethal", soak=[9, 9, 2],
                unsoakable=SK.unsoakable_applies(rs, enemy_hit_by_success=True))
    assert enemy.soaked == 2 and enemy.applied == 0
    ally = hit(rs, vamp, 2, "lethal",
               unsoakable=SK.unsoakable_applies(rs, enemy_hit_by_success=False))
    assert ally.soak is None and ally.applied == 2


@pytest.mark.rule("DMG-14")
def test_DMG_14_unsoaked_damage_lowers_health_and_a_wraiths_corpus(rs, nu):
    """DMG-14: unsoaked damage reduces health; for wraiths and Risen, Corpus instead
    (issue 31, finding 3: tests/engine/test_past_incapacitated_rulesets.py)."""
    risen = full(rs, "risen", Stamina=2)
    res = hit(rs, risen, 3, "lethal")
    assert res.applied == 3 and not any(res.sheet.health.values())
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
    # "Incapacitated and take more aggravated -> die (werewolves and most other shifters
    # may still be able to Rage-heal ...)": dying, as in numetal (issue 31, finding 2).
    crinos = full(rs, "shifter", race="Garou", form="Crinos", Stamina=0, pools={"Rage": 5},
                  health={"lethal": 7})
    assert hit(rs, crinos, 1, "aggravated", source="claw",
               condition="incapacitated").outcome == "dying"
    assert hit(nu, crinos, 1, "aggravated", source="claw",
               condition="incapacitated").outcome == "dying"


@pytest.mark.rule("HLT-06")
def test_HLT_06_risen_count_only_aggravated(rs, nu):
    """HLT-06 (The Risen p. 50): Risen subtract dice only for aggravated damage."""
    risen = full(rs, "risen", health={"lethal": 4, "aggravated": 1})
    assert WP.wound_modifier(risen, rs, "action") is None  # one agg: Bruised, no penalty
    assert WP.wound_modifier(risen, nu, "action").dice == -2
    risen2 = full(rs, "risen", health={"aggravated": 2})
    assert WP.wound_modifier(risen2, rs, "action").dice == -1
    assert WP.wound_modifier(full(rs, health={"lethal": 4}), rs, "action").dice == -2


@pytest.mark.rule("HLT-09")
def test_HLT_09_revised_footnotes_by_damage_type(rs, nu):
    """HLT-09: the core's healing times with the revised page's own footnotes, which differ
    by damage type: (1) on bashing Mauled..Incapacitated; (2) on lethal/agg Injured..Mauled;
    (3) on lethal/agg Crippled and Incapacitated. Aggravated shares the lethal column."""
    times = [(x["heal_bashing"], x["heal_lethal"]) for x in rs.section("health")["levels"]]
    assert times == [(x["heal_bashing"], x["heal_lethal"])
                     for x in nu.section("health")["levels"]]
    one = ("medical care to avoid further effects (e.g. extreme pain, broken bones, "
           "concussion, impaired senses)")
    two = "medical care to avoid worsening (1 level per day), then healing continues on its own"
    three = "continuous medical care to heal at all"

    def needs(kind, n):
        return HTM.natural_heal_time(full(rs, health={kind: n}), rs, kind).needs

    assert [needs("bashing", n) for n in range(1, 8)] == [None] * 4 + [one] * 3
    assert [needs("lethal", n) for n in range(1, 8)] == [None, None, two, two, two, three, three]
    assert [needs("aggravated", n) for n in range(1, 8)] == [
        None, None, two, two, two, three, three]
    # numetal's one footnote (Medicine 2+) is not revised's
    assert "Medicine 2+" in HTM.natural_heal_time(full(nu, health={"bashing": 4}), nu,
                                                "bashing").needs
    assert needs("bashing", 4) is None


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


# ---------------------------------------------------------------- what the page states over
# the core's V20 values (rules/revised/armor.yaml, maneuvers.yaml)


@pytest.mark.rule("ATK-03")
def test_ATK_03_revised_armor_is_attack_difficulty_not_dice(rs, v20):
    """ATK-03: "+(variable) difficulty for wearing armor / shield" on attacks, close and
    ranged; no penalty on a dodge. The core's V20 armor takes dice instead (v20)."""
    p = build_attack_pool(rs, A(armor="Flak jacket"), B(), atk())
    assert (p.dice, p.difficulty) == (5, 8)
    gun = build_attack_pool(rs, A(armor="Kevlar vest"), B(), atk(weapon="Pistol, heavy"),
                            Context(range_yards=10))
    assert gun.difficulty == 7 and C.mod(gun, "armor").difficulty == 1
    d = build_defense_pool(rs, B(armor="Flak jacket"), A(), Defense("b", "dodge"), atk())
    assert (d.dice, d.difficulty) == (4, 6)
    book = build_attack_pool(v20, A(armor="Flak jacket"), B(), atk())
    assert (book.dice, book.difficulty) == (3, 6)


@pytest.mark.rule("ATK-06", "ATK-09")
def test_ATK_06_ATK_09_revised_thrown_throwing_minus_one_missing_skill_plus_one(rs, v20):
    """ATK-06: Dexterity + Athletics, or Dexterity + Throwing at -1; ATK-09: without the
    skill, Dexterity at +1 (V20 rolls a missing Talent at no penalty, and has no Throwing)."""
    ctx = Context(range_yards=5)
    knife = atk("throw", weapon="Throwing knife")
    p = build_attack_pool(rs, A(Athletics=0, Throwing=2), B(), knife, ctx)
    assert ("Throwing", 2) in p.terms and p.difficulty == 5
    p = build_attack_pool(rs, A(Athletics=2, Throwing=0), B(), knife, ctx)
    assert ("Athletics", 2) in p.terms and p.difficulty == 6
    p = build_attack_pool(rs, A(Athletics=0), B(), knife, ctx)
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 7
    assert build_attack_pool(v20, A(Athletics=0), B(), knife, ctx).difficulty == 6


@pytest.mark.rule("DEF-02")
def test_DEF_02_revised_dodge_is_dexterity_plus_dodge(rs, v20):
    """DEF-02: "Dodge: Dexterity + Dodge" (V20: Dexterity + Athletics)."""
    me = B(Dodge=2, Athletics=4)
    assert build_defense_pool(rs, me, A(), Defense("b", "dodge"), atk()).terms == (
        ("Dexterity", 2), ("Dodge", 2))
    assert build_defense_pool(v20, me, A(), Defense("b", "dodge"), atk()).terms == (
        ("Dexterity", 2), ("Athletics", 4))


@pytest.mark.rule("RNG-01")
def test_RNG_01_revised_no_aiming_shotguns_or_smgs_nor_at_a_target_faster_than_walk(rs, v20):
    """RNG-01: "Can't be used with shotguns or SMGs"; "Target must be moving no faster than
    walk". Neither limit is the core's (v20 aims both)."""
    ctx = Context(range_yards=10)
    for gun in ("Shotgun", "SMG, small"):
        with pytest.raises(IllegalAction, match="cannot be aimed"):
            build_attack_pool(rs, A(), B(), atk(weapon=gun, aim_turns=1), ctx)
        assert C.mod(build_attack_pool(v20, A(), B(), atk(weapon=gun, aim_turns=1), ctx),
                     "aimed").dice == 1
    aimed = atk(weapon="Pistol, heavy", aim_turns=1)
    walking = Context(range_yards=10, target=Side(speed="walk"))
    assert C.mod(build_attack_pool(rs, A(), B(), aimed, walking), "aimed").dice == 1
    jogging = Context(range_yards=10, target=Side(speed="jog"))
    with pytest.raises(IllegalAction, match="faster than a walk"):
        build_attack_pool(rs, A(), B(), aimed, jogging)
    assert C.mod(build_attack_pool(v20, A(), B(), aimed, jogging), "aimed").dice == 1


@pytest.mark.rule("RNG-07")
def test_RNG_07_revised_dodging_a_strafe_is_plus_one(rs, v20):
    """RNG-07: "Dodging such an attack is +1 difficulty" (V20: no change)."""
    strafe, ctx = atk("strafe", weapon="Assault rifle"), Context(range_yards=10, spread_yards=3)
    dodge = Defense("b", "dodge", prone=True)
    assert build_defense_pool(rs, B(), A(), dodge, strafe, ctx).difficulty == 7
    assert build_defense_pool(v20, B(), A(), dodge, strafe, ctx).difficulty == 6


# ---------------------------------------------------------------- issue 10: no numetal leak


@pytest.mark.rule("MAN-08")
def test_MAN_08_revised_shifter_may_spend_rage_and_split(rs, nu):
    """MAN-08: the revised page has no "Rage OR split" sentence: a shifter who spent Rage
    may still split its pool (numetal refuses, W20 p. 266)."""
    plan = {"w": [STRIKE_B, STRIKE_B, RAGE_B], "b": [STRIKE_W]}
    st = S.spend_rage(started(rs, [("w", 8, 7), ("b", 3, 2)]), "w", 1, rs, rage=4, dex=4,
                      wits=4).state
    st = declare_all(st, rs, plan)
    assert [a.get("extra") for a in st.get("w").actions] == [None, None, "rage"]
    # the split penalty (2 actions: -2, -3) on the normal ones; the Rage action is outside it
    assert [sum(m.dice for m in mods) for mods in S.action_penalties(st.get("w"), rs)] == [
        -2, -3, 0]
    nst = S.spend_rage(started(nu, [("w", 8, 7), ("b", 3, 2)]), "w", 1, nu, rage=4, dex=4,
                       wits=4).state
    with pytest.raises(IllegalAction, match="Rage or split"):
        declare_all(nst, nu, plan)


STRIKE_B = {"kind": "strike", "target": "b"}
STRIKE_W = {"kind": "strike", "target": "w"}
RAGE_B = {"kind": "strike", "target": "b", "extra": "rage"}


@pytest.mark.rule("MAN-09")
@pytest.mark.parametrize("power", ["Quicksilver", "Dream Time", "Tempus Fugit"])
def test_MAN_09_revised_only_distort_time_and_faith(rs, nu, power):
    """MAN-09: the revised page names Distort Time and Faith only; numetal's Quicksilver,
    Dream Time and Tempus Fugit are refused with the powers that are."""
    with pytest.raises(InputError, match="Powers: Distort Time, Faith"):
        M.time_power_actions(rs, power, 4)
    assert M.time_power_actions(nu, power, 4).actions >= 1
    assert M.time_power_actions(rs, "Distort Time", 4).actions == 2
    assert M.time_power_actions(rs, "Faith", 2).initiative_steps == (-1, -2)


@pytest.mark.rule("CLOSE-01")
def test_CLOSE_01_revised_redcap_bites_str_plus_2_free_and_cannot_sever(rs, nu):
    """CLOSE-01: "Strength + 2 for Redcaps": in any form, with no Glamour to pay (even with
    none in the pool) and no severing (numetal's Bite table has both)."""
    redcap = A(splat="changeling", race="Redcap", pools={"Glamour": 0})
    r = resolve_attack(rs, redcap, B(), atk("bite"), faces=F(1, 6))
    assert r.pool.dice == 6  # Dex 3 + Brawl 2 + 1
    assert r.damage.terms == (("Strength", 3), ("bite", 2)) and r.damage_type == "aggravated"
    assert r.costs == ()
    with pytest.raises(IllegalAction, match="Severing a limb with a bite is not a rule here"):
        build_attack_pool(rs, redcap, B(), atk("bite", sever=True, location="arm"))
    with pytest.raises(IllegalAction, match="Glamour"):
        build_attack_pool(nu, redcap, B(), atk("bite"))
    rich = A(splat="changeling", race="Redcap", pools={"Glamour": 2})
    assert resolve_attack(nu, rich, B(), atk("bite"), faces=F(1, 6)).costs == (("Glamour", 1),)
    # another changeling has no bite
    with pytest.raises(IllegalAction, match="cannot bite now"):
        build_attack_pool(rs, A(splat="changeling", race="Sidhe"), B(), atk("bite"))


@pytest.mark.rule("DMG-15")
def test_DMG_15_revised_keeps_the_core_vampire_conversions(rs):
    """DMG-15 (READING, rules/revised/damage.yaml): the page is silent; the core's V20 p.
    284-285 rules stand: a gunshot is bashing unless a head shot, halved after soak; fire
    and sunlight aggravated."""
    assert "284-285" in rs.section("catalog")["DMG-15"]["book"]
    assert not rs.section("catalog")["DMG-15"].get("seed")  # a carried book rule
    vamp = full(rs, "vampire", Stamina=1, Fortitude=0)
    res = hit(rs, vamp, 5, "lethal", source="firearm", soak=[2])
    assert res.damage_type == "bashing" and res.applied == 2 and res.halved
    head = hit(rs, vamp, 5, "lethal", source="firearm", head_shot=True, soak=[2])
    assert head.damage_type == "lethal" and head.applied == 5
    assert hit(rs, vamp, 2, "lethal", source="fire", soak=[]).damage_type == "aggravated"


@pytest.mark.rule("HEAL-01", "HEAL-02", "HEAL-03", "HEAL-04", "HEAL-05", "HEAL-07",
                  "HEAL-10")
def test_HEAL_numetal_supernatural_healing_is_not_in_revised(rs, nu):
    """HEAL-01..05, 07, 10 are seed 000's: in revised nobody heals with blood, regenerates,
    Rage-heals, regrows a limb or uses the chimerical table; a vampire heals by time
    (HEAL-01's "no healing by time" is numetal's). Only HEAL-06 (mages) and HEAL-08 (demons)
    are the page's."""
    assert HT.power_healing(rs) == {}
    vamp = full(rs, "vampire", Stamina=2, health={"lethal": 2}, pools={"Blood": 5})
    with pytest.raises(IllegalAction, match="no supernatural healing"):
        H.heal_with_blood(vamp, rs, lethal=1)
    assert dict(H.heal_with_blood(vamp, nu, lethal=1).healed) == {"lethal": 1}
    with pytest.raises(IllegalAction, match="no supernatural healing"):
        H.heal_aggravated_with_blood(full(rs, "vampire", health={"aggravated": 1},
                                          pools={"Blood": 10}), rs, rested=True)
    assert HTM.natural_heal_time(vamp, rs, "lethal").text == "3 days"
    with pytest.raises(IllegalAction, match="heals with blood"):
        HTM.natural_heal_time(vamp, nu, "lethal")
    with pytest.raises(IllegalAction, match="no supernatural healing"):
        H.heal_with_blood(full(rs, "ghoul", health={"lethal": 1}, pools={"Blood": 5}), rs,
                          lethal=1)
    with pytest.raises(IllegalAction, match="no limb regrowth"):
        H.regenerate_limb(full(rs, "ghoul", Stamina=3, pools={"Blood": 5}), rs, part="finger",
                          faces=(9, 9, 9))
    wolf = full(rs, "shifter", race="Garou", form="Crinos", Stamina=3, health={"lethal": 2},
                pools={"Rage": 5})
    with pytest.raises(IllegalAction, match="no shifter regeneration"):
        SH.regenerate(wolf, rs)
    assert SH.regenerate(wolf, nu).healed == {"lethal": 1}
    # HLT-05: a dying shifter may Rage-heal (issue 31, finding 2)
    assert SH.rage_heal(wolf, rs, condition="dying", faces=(9, 9, 9, 9, 9)).condition == "ok"
    spider = full(rs, "ananasi", race="Ananasi", form="Lilian", health={"lethal": 2},
                  pools={"Blood": 5})
    with pytest.raises(IllegalAction, match="no supernatural healing"):
        H.heal_with_blood(spider, rs, lethal=1)
    fae = full(rs, "changeling", health={"lethal": 2})
    with pytest.raises(IllegalAction, match="no chimerical healing table"):
        HTM.changeling_heal_time(fae, rs, "lethal", chimerical=True)
    assert HTM.natural_heal_time(fae, rs, "lethal").text == "3 days"


@pytest.mark.rule("PWR-02", "PWR-04", "PWR-03")
def test_PWR_02_PWR_04_not_in_revised_only_the_mages_limit(rs, nu):
    """The page's "Limits by race" lists only mages (PWR-03): a revised shifter may spend
    Rage and Gnosis in one turn (PWR-02 numetal), a Kuei-jin Yin and Yang chi and any Demon
    Chi (PWR-04 numetal), and demons have no Lore limit; a mage is held to one Arete effect."""
    t0 = P.TurnSpending()
    wolf = full(rs, "shifter", race="Garou", pools={"Rage": 5, "Gnosis": 5})
    t = P.check_spend(rs, wolf, P.check_spend(rs, wolf, t0, "Rage", 2), "Gnosis", 1)
    assert dict(t.spent) == {"Rage": 2, "Gnosis": 1}
    with pytest.raises(IllegalAction, match="Rage and Gnosis"):
        P.check_spend(nu, wolf, P.check_spend(nu, wolf, t0, "Rage", 2), "Gnosis", 1)
    kj = full(rs, "kuei-jin", Stamina=2, pools={"Yin Chi": 5, "Yang Chi": 5, "Demon Chi": 5})
    t = P.check_spend(rs, kj, P.check_spend(rs, kj, t0, "Yin Chi", 1), "Yang Chi", 1)
    assert dict(t.spent) == {"Yin Chi": 1, "Yang Chi": 1}
    assert dict(P.check_spend(rs, kj, t0, "Demon Chi", 4).spent) == {"Demon Chi": 4}
    with pytest.raises(IllegalAction, match="capped by Stamina"):
        P.check_spend(nu, kj, t0, "Demon Chi", 4)
    with pytest.raises(InputError, match="not a kind of effect"):
        P.check_effect(rs, full(rs, "demon"), t0, "lore")
    mage = full(rs, "mage", Arete=3)
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn"):
        P.check_effect(rs, mage, P.check_effect(rs, mage, t0, "arete"), "artifact")


@pytest.mark.rule("INIT-05", "TURN-05", "INIT-04")
def test_INIT_05_TURN_05_INIT_04_numetal_turn_options_are_not_revised(rs, nu):
    """No Gurahl winter modifier (INIT-05), no simple turn (TURN-05) and no initiative every
    turn (INIT-04) in revised: its page has none of them; numetal offers all three."""
    st = S.join(S.new_combat("c1", rs, flags=["winter"]), "a", "A", rs).state
    step = S.roll_initiative(st, "a", rs, rating=6, faces=[5], race="Gurahl")
    (ev,) = events(step, "initiative")
    assert ev["total"] == 11 and ev["modifiers"] == [] and ev["not_applied"] == []
    with pytest.raises(IllegalAction, match="simple turn .* is not in the revised rules"):
        S.new_combat("c1", rs, mode="simple")
    with pytest.raises(IllegalAction, match="every turn \\(reroll\\) is not in the revised rules"):
        S.new_combat("c1", rs, reroll_initiative=True)
    with pytest.raises(IllegalAction, match="not in the revised rules"):
        S.set_options(S.new_combat("c1", rs), rs, mode="simple")
    assert S.new_combat("c1", nu, mode="simple", reroll_initiative=True).options.mode == "simple"
