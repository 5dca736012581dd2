"""The damage half of an attack on the numetal ruleset, with exact dice faces.

Rule IDs: ../shared/rules-catalog.md. Faces are chosen so each assertion fails if the rule
is wrong (e.g. a soak at difficulty 6 instead of 8 would count the 6s and 7s).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from wodcombat.combat.d10 import damage as D

from wodcombat.combat.d10 import damage_tables as DT

from wodcombat.combat.d10 import dazed as DZ

from wodcombat.combat.d10 import soak as SK

from wodcombat.combat.d10 import wound_penalty as WP
from wodcombat.combat.core.errors import IllegalAction, InputError, RulesError
from wodcombat.combat.core.pools import Modifier
from wodcombat.combat.rules.ruleset import Ruleset, load_ruleset
from wodcombat.combat.core.sheet import Pool, Sheet

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


def mk(rs, splat="mortal", *, traits=None, pools=None, health=None, **ident) -> Sheet:
    """A sheet with its splat's pools; ``pools`` overrides as {name: current}."""
    sheet = Sheet(splat=splat, traits=dict(traits or {}), health=dict(health or {}), **ident)
    sheet = sheet.with_pools_for(rs.traits)
    if pools:
        merged = dict(sheet.pools)
        merged.update({k: Pool(v, max(v, 10)) for k, v in pools.items()})
        sheet = Sheet(**{**_fields(sheet), "pools": merged})
    return sheet


def _fields(sheet):
    return {k: getattr(sheet, k) for k in sheet.__dataclass_fields__}


def variant(rs, section: str, **changes) -> Ruleset:
    """A copy of ``rs`` with keys of one section replaced (how a child ruleset differs)."""
    data = copy.deepcopy(rs.data)
    data[section] = {**data[section], **changes}
    return Ruleset(rs.name + "-variant", rs.name, "", rs.files, data)


def hit(rs, target, dice, dtype, source="melee", faces=None, soak=None, **kw):
    faces = faces if faces is not None else [10] * dice
    return D.resolve_damage(
        rs,
        target,
        dice=dice,
        damage_type=dtype,
        source=source,
        faces_damage=faces,
        faces_soak=soak,
        **kw,
    )


# ---------------------------------------------------------------- loading


def test_tables_load_and_cross_check_clean(rs):
    assert rs.section("damage")["penalties_reduce_soak"] is False
    assert DT.check(rs) == []


def test_check_names_a_metal_rule_that_does_not_exist(rs):
    bad = copy.deepcopy(rs.data["shifters"])
    bad["vulnerability"]["Garou"] = {"metals": {"silver": "nonesuch"}}
    problems = DT.check(variant(rs, "shifters", **bad))
    assert any("nonesuch" in msg for _, msg in problems)


def test_missing_section_is_a_rules_error(rs):
    data = {k: v for k, v in rs.data.items() if k != "soak"}
    bare = Ruleset("bare", None, "", (), data)
    with pytest.raises(RulesError, match="no soak"):
        hit(bare, mk(rs), 1, "bashing")


# ---------------------------------------------------------------- DMG-01..DMG-04


@pytest.mark.rule("DMG-01")
def test_damage_botch_is_only_a_failure(rs):
    res = hit(rs, mk(rs, traits={"Stamina": 2}), 3, "lethal", faces=[1, 1, 3])
    assert res.damage_roll.botch is False
    assert res.levels_rolled == 0 and res.applied == 0
    assert res.soak_roll is None  # nothing to soak: no soak dice rolled
    assert res.outcome == "none"


def test_logged_detail_holds_every_input_of_the_hit(rs):
    """The damage event's detail keeps the whole request (for recomputing a hit from the
    log), each value as JSON keeps it: a field added to DamageRequest must reach it."""
    from dataclasses import fields

    res = hit(rs, mk(rs, traits={"Stamina": 2}), 2, "lethal", faces=[7, 8], soak=[3, 9],
              materials=("silver",), flags=("chimerical",),
              soak_modifiers=(Modifier("cover", dice=1),))
    req = res.as_dict()["request"]
    assert list(req) == [f.name for f in fields(D.DamageRequest)]
    assert req["faces_damage"] == [7, 8] and req["materials"] == ["silver"]
    assert req["flags"] == ["chimerical"] and req["soak_modifiers"] == [
        {"reason": "cover", "dice": 1}]


@pytest.mark.rule("DMG-01")
def test_damage_roll_at_base_difficulty_unless_told(rs):
    res = hit(rs, mk(rs), 4, "lethal", faces=[5, 6, 7, 1])
    assert res.damage_roll.difficulty == 6 and res.levels_rolled == 1
    harder = hit(rs, mk(rs), 4, "lethal", faces=[5, 6, 7, 1], damage_difficulty=7)
    assert harder.levels_rolled == 0


@pytest.mark.rule("DMG-02")
def test_extra_attack_successes_add_damage_dice(rs):
    assert D.damage_pool(3, 1) == 3
    assert D.damage_pool(3, 4) == 6
    assert D.damage_pool(3, 0) == 3
    assert D.damage_pool(3, 4, rs) == 6
    assert D.damage_pool(3, 4, variant(rs, "damage", dice_per_extra_success=0)) == 3


@pytest.mark.rule("DMG-03")
def test_defense_successes_cancel_and_ties_miss():
    assert D.net_attack_successes(8, 5) == 3
    assert D.net_attack_successes(5, 5) == 0
    assert D.net_attack_successes(3, 4) == 0
    assert D.net_attack_successes(3, 0) == 3
    # everyman #10's example: 8 hits, 5 blocked -> 3 left, 2 extra damage dice
    assert D.damage_pool(4, D.net_attack_successes(8, 5)) == 6


@pytest.mark.rule("DMG-04")
def test_soak_is_a_reflex_that_cannot_botch(rs):
    wounded = mk(rs, traits={"Stamina": 3}, health={"bashing": 5})  # Mauled, -2
    res = hit(rs, wounded, 1, "bashing", faces=[8], soak=[1, 1, 1])
    assert res.soak.dice == 3  # no wound penalty on a reflex
    assert res.soak_roll.botch is False and res.soaked == 0
    assert res.applied == 1


# ---------------------------------------------------------------- DMG-05..DMG-07


def _terms(pool):
    return [name for name, _ in pool.spec.terms]


@pytest.mark.rule("DMG-05")
def test_vampire_soaks_everything_agg_with_fortitude_only(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 3, "Fortitude": 2})
    assert _terms(SK.soak_pool(rs, vamp, "bashing")) == ["Stamina", "Fortitude"]
    assert SK.soak_pool(rs, vamp, "lethal").dice == 5
    agg = SK.soak_pool(rs, vamp, "aggravated")
    assert _terms(agg) == ["Fortitude"] and agg.dice == 2


@pytest.mark.rule("DMG-05")
@pytest.mark.parametrize("splat", ["mortal", "mage"])
def test_mortals_and_mages_soak_only_bashing(rs, splat):
    who = mk(rs, splat, traits={"Stamina": 4})
    assert SK.soak_pool(rs, who, "bashing").dice == 4
    assert SK.soak_pool(rs, who, "lethal") is None
    assert SK.soak_pool(rs, who, "aggravated") is None
    res = hit(rs, who, 2, "lethal")
    assert res.soak is None and res.applied == 2


@pytest.mark.rule("DMG-05")
def test_unknown_family_soaks_as_mortal(rs):
    demon = mk(rs, "demon", traits={"Stamina": 3})
    assert SK.soak_pool(rs, demon, "lethal") is None
    pool = SK.soak_pool(rs, demon, "bashing")
    assert pool.dice == 3 and any("soaks as mortal" in n for n in pool.notes)


@pytest.mark.rule("DMG-06")
def test_ghoul_lethal_stamina_only_while_it_has_vitae(rs):
    traits = {"Stamina": 3, "Fortitude": 1}
    fed = mk(rs, "ghoul", traits=traits, pools={"Blood": 2})
    dry = mk(rs, "ghoul", traits=traits, pools={"Blood": 0})
    assert SK.soak_pool(rs, fed, "lethal").dice == 4
    empty = SK.soak_pool(rs, dry, "lethal")
    assert _terms(empty) == ["Fortitude"] and empty.dice == 1
    assert any("out of Vitae" in n for n in empty.notes)
    assert SK.soak_pool(rs, dry, "bashing").dice == 4  # bashing keeps Stamina
    assert _terms(SK.soak_pool(rs, fed, "aggravated")) == ["Fortitude"]


@pytest.mark.rule("DMG-07")
def test_changeling_soaks_lethal_only_when_chimerical_and_never_agg(rs):
    fae = mk(rs, "changeling", traits={"Stamina": 3})
    assert SK.soak_pool(rs, fae, "lethal") is None
    assert SK.soak_pool(rs, fae, "lethal", chimerical=True).dice == 3
    assert SK.soak_pool(rs, fae, "aggravated", chimerical=True) is None
    res = hit(rs, fae, 2, "lethal", chimerical=True, soak=[9, 2, 3])
    assert res.soaked == 1 and res.applied == 1


# ---------------------------------------------------------------- DMG-09, DMG-10 shifters


def garou(rs, breed="homid", form="Homid", **kw):
    return mk(rs, "shifter", race="Garou", breed=breed, form=form, traits={"Stamina": 4}, **kw)


@pytest.mark.rule("DMG-09")
def test_shifter_breed_form_does_not_soak_lethal_other_forms_do(rs):
    assert SK.soak_pool(rs, garou(rs, form="Homid"), "lethal").dice == 0
    assert SK.soak_pool(rs, garou(rs, form="Crinos"), "lethal").dice == 4
    assert SK.soak_pool(rs, garou(rs, form="Homid"), "bashing").dice == 4
    assert SK.soak_pool(rs, garou(rs, breed="lupus", form="Lupus"), "aggravated").dice == 0
    assert SK.soak_pool(rs, garou(rs, breed="lupus", form="Homid"), "aggravated").dice == 4
    # no form recorded: taken to be in breed form
    assert SK.soak_pool(rs, garou(rs, form=""), "lethal").dice == 0


@pytest.mark.rule("DMG-09")
def test_metis_soak_in_every_form(rs):
    assert SK.soak_pool(rs, garou(rs, breed="metis", form="Crinos"), "lethal").dice == 4
    assert SK.soak_pool(rs, garou(rs, breed="metis", form="Homid"), "aggravated").dice == 4


@pytest.mark.rule("DMG-09")
def test_silver_on_garou_outside_breed_form_is_agg_without_stamina(rs):
    crinos = garou(rs, form="Crinos")
    res = hit(rs, crinos, 3, "lethal", source="melee", materials=("silver",))
    assert res.damage_type == "aggravated"
    assert res.soak.dice == 0 and res.applied == 3
    assert res.health_after.aggravated == 3
    # armor still adds against it (DMG-11 "regardless of severity")
    armored = hit(rs, crinos, 3, "lethal", materials=("silver",), armor_rating=2, soak=[8, 8])
    assert armored.soak.dice == 2 and armored.applied == 1


@pytest.mark.rule("DMG-09")
def test_silver_on_homid_in_breed_form_follows_normal_rules_with_stamina(rs):
    homid = garou(rs, form="Homid")
    res = hit(rs, homid, 2, "lethal", materials=("silver",), soak=[6, 2, 2, 2])
    assert res.damage_type == "lethal"  # not aggravated
    assert res.soak.dice == 4 and res.soaked == 1 and res.applied == 1


@pytest.mark.rule("DMG-09")
def test_metis_in_crinos_cannot_soak_silver(rs):
    metis = garou(rs, breed="metis", form="Crinos")
    res = hit(rs, metis, 2, "bashing", source="silver")
    assert res.damage_type == "aggravated" and res.soak.dice == 0


@pytest.mark.rule("DMG-09")
def test_vulnerability_table_gold_silver_none(rs):
    corax = mk(rs, "shifter", race="Corax", breed="homid", form="Crinos", traits={"Stamina": 3})
    assert hit(rs, corax, 1, "lethal", materials=("gold",)).damage_type == "aggravated"
    assert (
        hit(rs, corax, 1, "lethal", materials=("silver",), soak=[2, 2, 2]).damage_type == "lethal"
    )
    mokole = mk(rs, "shifter", race="Mokole", breed="homid", form="Archid", traits={"Stamina": 3})
    for metal in ("silver", "gold"):
        assert hit(rs, mokole, 1, "lethal", materials=(metal,)).damage_type == "aggravated"
    for race in ("Ananasi", "Nuwisha"):
        fera = mk(rs, "shifter", race=race, breed="metis", traits={"Stamina": 2})
        res = hit(rs, fera, 1, "lethal", materials=("silver",), soak=[2, 2])
        assert res.damage_type == "lethal"


@pytest.mark.rule("DMG-09")
def test_seed_question_marks_are_documented_defaults(rs):
    vuln = rs.section("shifters")["vulnerability"]
    for race in ("Ajaba", "Bastet", "Gurahl", "Ratkin", "Rokea"):
        assert vuln[race]["confirmed"] is False and vuln[race]["note"]
    ratkin = mk(rs, "shifter", race="Ratkin", breed="homid", form="Crinos", traits={"Stamina": 2})
    pool = SK.soak_pool(rs, ratkin, "lethal", materials=("silver",))
    assert pool.damage_type == "aggravated"
    assert any("documented default" in n for n in pool.notes)


@pytest.mark.rule("DMG-10")
def test_kitsune_silver_is_lethal_soaked_at_8(rs):
    koto = mk(rs, "shifter", race="Kitsune", breed="homid", form="Koto", traits={"Stamina": 3})
    res = hit(rs, koto, 3, "aggravated", source="silver", soak=[7, 7, 8])
    assert res.damage_type == "lethal"
    assert res.soak.difficulty == 8 and res.soak.dice == 3
    assert res.soaked == 1  # the 7s would soak at 6
    assert res.health_after.lethal == 2 and res.health_after.aggravated == 0


# ---------------------------------------------------------------- DMG-11 armor


@pytest.mark.rule("DMG-11")
def test_armor_adds_to_soak_for_every_severity(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 2, "Fortitude": 1})
    for dtype, dice in (("bashing", 5), ("lethal", 5), ("aggravated", 3)):
        pool = SK.soak_pool(rs, vamp, dtype, armor_rating=2)
        assert pool.dice == dice and ("armor", 2) in pool.spec.terms


@pytest.mark.rule("DMG-11")
def test_armor_lets_a_mortal_soak_lethal(rs):
    res = hit(
        rs,
        mk(rs, traits={"Stamina": 3}),
        2,
        "lethal",
        source="firearm",
        armor_rating=3,
        soak=[6, 9, 1],
    )
    assert res.soak.spec.terms == (("armor", 3),)
    assert res.soaked == 1 and res.applied == 1 and res.armor_applied


@pytest.mark.rule("DMG-11")
def test_armor_skipped_when_it_does_not_apply_or_part_is_unarmored(rs):
    mortal = mk(rs, traits={"Stamina": 3})
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2, armor_applies=False).dice == 3
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2, unarmored_part=True).dice == 3
    assert SK.soak_pool(rs, mortal, "lethal", armor_rating=2, unarmored_part=True) is None
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2).dice == 5


@pytest.mark.rule("DMG-12")
def test_armor_damage_switch_off_in_numetal_on_when_set(rs):
    mortal = mk(rs, traits={"Stamina": 1})
    res = hit(rs, mortal, 4, "lethal", armor_rating=2, soak=[2, 2])
    assert res.armor_damaged is False
    revised = variant(rs, "soak", armor={**rs.section("soak")["armor"], "damaged_at_multiple": 2})
    assert hit(revised, mortal, 4, "lethal", armor_rating=2, soak=[2, 2]).armor_damaged
    assert not hit(revised, mortal, 4, "lethal", armor_rating=2, armor_applies=False).armor_damaged


@pytest.mark.rule("DMG-13")
def test_unsoakable_skips_soak_entirely(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 5, "Fortitude": 5})
    res = hit(rs, vamp, 2, "lethal", unsoakable=True, armor_rating=3)
    assert res.soak is None and res.applied == 2


# ---------------------------------------------------------------- DMG-14, DMG-15, DMG-18


@pytest.mark.rule("DMG-14")
def test_unsoaked_damage_reduces_health(rs):
    target = mk(rs, traits={"Stamina": 2}, health={"bashing": 1})
    res = hit(rs, target, 4, "bashing", faces=[6, 7, 8, 2], soak=[10, 3])
    assert (res.levels_rolled, res.soaked, res.applied) == (3, 1, 2)
    assert res.health_before.level == "Bruised"
    assert res.health_after.level == "Injured" and res.health_after.bashing == 3
    assert res.sheet.health["bashing"] == 3
    assert target.health["bashing"] == 1  # the input sheet is unchanged


@pytest.mark.rule("DMG-15")
def test_vampire_takes_firearms_as_bashing_halved_after_soak(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 1, "Fortitude": 0})
    res = hit(rs, vamp, 5, "lethal", source="firearm", soak=[2])
    assert res.damage_type == "bashing"
    assert res.penetrating == 5 and res.applied == 2 and res.halved
    assert res.health_after.bashing == 2 and res.health_after.lethal == 0


@pytest.mark.rule("DMG-15")
def test_vampire_head_shot_stays_lethal_and_is_not_halved(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 1, "Fortitude": 0})
    res = hit(rs, vamp, 5, "lethal", source="guns", head_shot=True, soak=[2])
    assert res.damage_type == "lethal" and res.applied == 5 and not res.halved


@pytest.mark.rule("DMG-15")
@pytest.mark.parametrize("source", ["fire", "sunlight", "sun"])
def test_fire_and_sunlight_are_aggravated_for_vampires(rs, source):
    vamp = mk(rs, "vampire", traits={"Stamina": 4, "Fortitude": 1})
    res = hit(rs, vamp, 2, "lethal", source=source, soak=[8])
    assert res.damage_type == "aggravated" and res.soak.dice == 1
    assert res.applied == 1 and res.health_after.aggravated == 1
    # the same fire on a mortal stays what the caller said
    assert hit(rs, mk(rs), 2, "lethal", source=source).damage_type == "lethal"


@pytest.mark.rule("DMG-15")
def test_punches_on_vampires_are_halved_too(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 1})
    res = hit(rs, vamp, 3, "bashing", source="brawl", soak=[3])
    assert res.applied == 1


@pytest.mark.rule("DMG-18")
def test_damage_types_and_sources_are_checked(rs):
    assert hit(rs, mk(rs), 1, "agg").damage_type == "aggravated"
    assert hit(rs, mk(rs), 1, "B", soak=[2]).damage_type == "bashing"
    with pytest.raises(InputError, match="not a damage type"):
        hit(rs, mk(rs), 1, "fiery")
    with pytest.raises(InputError, match="not a damage source"):
        hit(rs, mk(rs), 1, "lethal", source="lazer")


def test_faces_must_match_the_pool(rs):
    with pytest.raises(InputError, match="2 dice but 3 faces"):
        hit(rs, mk(rs), 2, "lethal", faces=[1, 2, 3])
    with pytest.raises(InputError, match="soak pool is 2 dice"):
        hit(rs, mk(rs, traits={"Stamina": 2}), 1, "bashing", faces=[9], soak=[9])
    with pytest.raises(InputError, match="from 1 to 10"):
        hit(rs, mk(rs), 1, "lethal", faces=[11])


def test_rng_rolls_when_no_faces_are_given(rs):
    target = mk(rs, "vampire", traits={"Stamina": 3, "Fortitude": 2})
    a = D.resolve_damage(
        rs, target, dice=6, damage_type="lethal", source="claw", rng=random.Random(7)
    )
    b = D.resolve_damage(
        rs, target, dice=6, damage_type="lethal", source="claw", rng=random.Random(7)
    )
    assert a.as_dict() == b.as_dict() and len(a.damage_roll.faces) == 6
    # the log alone recomputes the hit
    again = D.resolve_damage(
        rs,
        target,
        dice=6,
        damage_type="lethal",
        source="claw",
        faces_damage=a.damage_roll.faces,
        faces_soak=a.soak_roll.faces if a.soak_roll else None,
    )
    assert again.health_after == a.health_after


# ---------------------------------------------------------------- DICE-10


@pytest.mark.rule("DICE-10")
def test_dice_penalties_never_reduce_soak(rs):
    crippled = mk(rs, traits={"Stamina": 3}, health={"bashing": 6})
    penalties = (Modifier("multiple actions", dice=-3), Modifier("Fortitude power", dice=1))
    pool = SK.soak_pool(rs, crippled, "bashing", modifiers=penalties)
    assert pool.dice == 4  # 3 Stamina + 1 bonus; the -3 and the -5 wound penalty dropped
    assert pool.dropped == (penalties[0],)
    allowed = variant(rs, "damage", penalties_reduce_soak=True)
    assert SK.soak_pool(allowed, crippled, "bashing", modifiers=penalties).dice == 1


# ---------------------------------------------------------------- HLT-02..HLT-05


@pytest.mark.rule("HLT-02")
def test_filling_the_track_is_incapacitated(rs):
    res = hit(rs, mk(rs), 7, "lethal")
    assert res.health_after.level == "Incapacitated"
    assert res.outcome == "incapacitated" and res.condition == "incapacitated"
    assert res.overflow == 0


@pytest.mark.rule("HLT-03", "HLT-04")
def test_bashing_past_incapacitated_becomes_lethal_and_kills_a_mortal(rs):
    full = mk(rs, health={"bashing": 7})
    res = hit(rs, full, 1, "bashing", soak=[2], condition="incapacitated")
    assert res.health_after.lethal == 1 and res.health_after.bashing == 6
    assert res.outcome == "dead"


@pytest.mark.rule("HLT-04")
def test_vampire_torpor_on_lethal_past_incapacitated(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 1}, health={"lethal": 7})
    res = hit(rs, vamp, 1, "lethal", source="claw", soak=[2])
    assert res.outcome == "torpor"
    again = hit(rs, res.sheet, 1, "lethal", source="claw", soak=[2], condition="torpor")
    assert again.condition == "torpor" and again.outcome == "none"


@pytest.mark.rule("HLT-04", "HLT-05")
def test_vampire_final_death_on_aggravated_past_incapacitated(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 1}, health={"lethal": 7})
    res = hit(rs, vamp, 1, "lethal", source="fire", condition="torpor")
    assert res.outcome == "dead"


@pytest.mark.rule("HLT-04")
def test_shifter_bashing_past_incapacitated_unconscious_keeping_form(rs):
    """HLT-04 READING (issue 9, defect 9): bashing that brings a shifter to Incapacitated
    knocks it unconscious, form kept; bashing past that is lethal (HLT-03): Rage or revert,
    then any more damage kills."""
    crinos = garou(rs, form="Crinos", health={"bashing": 6})
    res = hit(rs, crinos, 1, "bashing", soak=[1, 1, 1, 1])
    assert res.outcome == "unconscious" and res.sheet.form == "Crinos"
    more = hit(rs, res.sheet, 1, "bashing", soak=[1, 1, 1, 1], condition="unconscious")
    assert more.outcome == "reverted" and more.sheet.form == "Homid"
    dead = hit(rs, more.sheet, 1, "bashing", soak=[1, 1, 1, 1], condition="reverted")
    assert dead.outcome == "dead"


@pytest.mark.rule("HLT-04")
def test_shifter_lethal_past_incapacitated_reverts_then_dies_on_any_damage(rs):
    crinos = garou(rs, form="Crinos", health={"lethal": 7})
    res = hit(rs, crinos, 1, "lethal", soak=[1, 1, 1, 1], condition="incapacitated")
    assert res.outcome == "reverted" and res.sheet.form == "Homid"
    lupus = garou(rs, breed="lupus", form="Crinos", health={"lethal": 7})
    assert hit(rs, lupus, 1, "lethal", soak=[1, 1, 1, 1]).sheet.form == "Lupus"
    metis = garou(rs, breed="metis", form="Homid", health={"lethal": 7})
    assert hit(rs, metis, 1, "lethal", soak=[1, 1, 1, 1]).sheet.form == "Crinos"
    # reverted to Homid (breed form): Stamina no longer soaks lethal, and any damage kills
    dead = hit(rs, res.sheet, 1, "bashing", soak=[1, 1, 1, 1], condition=res.condition)
    assert dead.outcome == "dead"


@pytest.mark.rule("HLT-04")
def test_shifter_may_spend_rage_to_stay_active(rs):
    crinos = garou(rs, form="Crinos", health={"lethal": 7}, pools={"Rage": 3})
    res = hit(rs, crinos, 1, "lethal", soak=[1, 1, 1, 1], stay_active_with_rage=True)
    assert res.outcome == "rage_active" and res.sheet.form == "Crinos"
    assert res.spent == {"Rage": 1} and res.sheet.pools["Rage"].current == 2
    soaked = hit(rs, res.sheet, 1, "lethal", soak=[9, 2, 2, 2], condition="rage_active")
    assert soaked.applied == 0 and soaked.condition == "rage_active"  # no damage taken
    dead = hit(rs, res.sheet, 1, "lethal", soak=[1, 1, 1, 1], condition="rage_active")
    assert dead.outcome == "dead"
    broke = garou(rs, form="Crinos", health={"lethal": 7}, pools={"Rage": 0})
    res = hit(rs, broke, 1, "lethal", soak=[1, 1, 1, 1], stay_active_with_rage=True)
    assert res.outcome == "reverted"


@pytest.mark.rule("HLT-05")
def test_aggravated_past_incapacitated_shifter_dying_others_dead(rs):
    crinos = garou(rs, form="Crinos", health={"lethal": 7}, pools={"Rage": 2})
    assert hit(rs, crinos, 1, "aggravated", soak=[1, 1, 1, 1]).outcome == "dying"
    no_rage = garou(rs, form="Crinos", health={"lethal": 7}, pools={"Rage": 0})
    assert hit(rs, no_rage, 1, "aggravated", soak=[1, 1, 1, 1]).outcome == "dead"
    mage = mk(rs, "mage", health={"lethal": 7})
    assert hit(rs, mage, 1, "aggravated").outcome == "dead"


@pytest.mark.rule("HLT-04")
def test_revised_style_outcome_switch(rs):
    table = copy.deepcopy(rs.section("damage")["past_incapacitated"])
    table["shifter"] = {"bashing": None, "lethal": "reverted", "aggravated": "dead"}
    revised = variant(rs, "damage", past_incapacitated=table)
    crinos = garou(rs, form="Crinos", health={"lethal": 7}, pools={"Rage": 3})
    res = hit(revised, crinos, 1, "bashing", soak=[1, 1, 1, 1], stay_active_with_rage=True)
    assert res.outcome == "reverted" and res.spent == {}


def test_dead_targets_refuse_damage_and_conditions_are_checked(rs):
    with pytest.raises(IllegalAction, match="already dead"):
        hit(rs, mk(rs), 1, "lethal", condition="dead")
    with pytest.raises(InputError, match="not a condition"):
        hit(rs, mk(rs), 1, "lethal", condition="sleepy")


# ---------------------------------------------------------------- HLT-06, HLT-08


@pytest.mark.rule("HLT-06")
def test_wound_penalty_only_on_action_pools(rs):
    wounded = mk(rs, health={"lethal": 4})  # Wounded, -2
    mod = WP.wound_modifier(wounded, rs, "action")
    assert mod.dice == -2 and "Wounded" in mod.reason
    for kind in ("reflex", "soak", "damage", "arete"):
        assert WP.wound_modifier(wounded, rs, kind) is None
    assert WP.wound_modifier(mk(rs, health={"bashing": 1}), rs, "action") is None  # Bruised 0
    with pytest.raises(InputError):
        WP.wound_modifier(wounded, rs, "dance")


@pytest.mark.rule("HLT-06")
def test_incapacitated_cannot_act_or_cast(rs):
    down = mk(rs, "mage", health={"lethal": 7})
    with pytest.raises(IllegalAction, match="Incapacitated"):
        WP.wound_modifier(down, rs, "action")
    with pytest.raises(IllegalAction, match="Incapacitated"):
        WP.wound_modifier(down, rs, "arete")
    assert WP.wound_modifier(down, rs, "soak") is None


@pytest.mark.rule("HLT-06")
def test_count_only_switch_for_risen(rs):
    revised = variant(
        rs,
        "damage",
        wounds={**rs.section("damage")["wounds"], "count_only": {"risen": ["aggravated"]}},
    )
    risen = mk(rs, "risen", health={"lethal": 4, "aggravated": 1})
    assert WP.wound_modifier(risen, revised, "action") is None  # one agg: Bruised, no penalty
    assert WP.wound_modifier(risen, rs, "action").dice == -2


@pytest.mark.rule("HLT-08")
def test_willpower_ignores_wounds_unless_incapacitated(rs):
    wounded = mk(rs, health={"lethal": 6})
    assert WP.wound_modifier(wounded, rs, "action", ignore_wounds=True) is None
    paid = WP.spend_to_ignore_wounds(wounded, rs)
    assert paid.pools["Willpower"].current == wounded.pools["Willpower"].current - 1
    down = mk(rs, health={"lethal": 7})
    with pytest.raises(IllegalAction, match="Willpower"):
        WP.wound_modifier(down, rs, "action", ignore_wounds=True)
    with pytest.raises(IllegalAction, match="Incapacitated"):
        WP.spend_to_ignore_wounds(down, rs)
    broke = mk(rs, health={"lethal": 2}, pools={"Willpower": 0})
    with pytest.raises(IllegalAction, match="Not enough Willpower"):
        WP.spend_to_ignore_wounds(broke, rs)


# ---------------------------------------------------------------- COMP-02


@pytest.mark.rule("COMP-02")
def test_mortal_dazed_when_damage_after_soak_exceeds_stamina(rs):
    mortal = mk(rs, traits={"Stamina": 2})
    assert hit(rs, mortal, 4, "bashing", soak=[9, 2]).dazed is True  # 3 > 2
    assert hit(rs, mortal, 4, "bashing", soak=[9, 9]).dazed is False  # 2 = 2: not over
    assert DZ.daze_threshold(rs, mortal) == 2


@pytest.mark.rule("COMP-02")
def test_supernatural_daze_needs_stamina_plus_two_ghouls_count_as_mortal(rs):
    vamp = mk(rs, "vampire", traits={"Stamina": 2, "Fortitude": 0})
    assert DZ.daze_threshold(rs, vamp) == 4
    assert hit(rs, vamp, 4, "lethal", source="claw", soak=[2, 2]).dazed is False  # 4 = 4
    assert hit(rs, vamp, 5, "lethal", source="claw", soak=[2, 2]).dazed is True
    ghoul = mk(rs, "ghoul", traits={"Stamina": 2})
    assert DZ.daze_threshold(rs, ghoul) == 2


@pytest.mark.rule("COMP-02")
def test_everyman_daze_switches(rs):
    everyman = variant(
        rs,
        "damage",
        dazed={
            **rs.section("damage")["dazed"],
            "compare": "at_least",
            "supernatural_families": ["vampire"],
            "spend_to_ignore": {"Blood": ["vampire"], "Rage": ["shifter"],
                                "Willpower": ["mortal"]},
        },
    )
    mortal = mk(rs, traits={"Stamina": 2})
    assert DZ.is_dazed(everyman, mortal, 2) is True
    assert DZ.is_dazed(rs, mortal, 2) is False
    mage = mk(rs, "mage", traits={"Stamina": 2})
    assert DZ.daze_threshold(everyman, mage) == 2 and DZ.daze_threshold(rs, mage) == 4
    shaken = DZ.shake_off_daze(mortal, everyman, "Willpower")
    assert shaken.pools["Willpower"].current == mortal.pools["Willpower"].current - 1
    with pytest.raises(IllegalAction):
        DZ.shake_off_daze(mortal, rs, "Willpower")
    with pytest.raises(IllegalAction, match="Nothing lets a mage"):
        DZ.shake_off_daze(mage, everyman, "Willpower")


# ---------------------------------------------------------------- misc


def test_can_soak_answers_block_questions(rs):
    assert SK.can_soak(rs, mk(rs, "vampire", traits={"Fortitude": 1}), "aggravated")
    assert not SK.can_soak(rs, mk(rs, "vampire", traits={"Fortitude": 0}), "aggravated")
    assert not SK.can_soak(rs, mk(rs), "lethal")
    assert SK.can_soak(rs, mk(rs), "lethal", armor_rating=1)


@pytest.mark.rule("DMG-16")
def test_DMG_16_can_soak_worn_answers_as_can_soak_and_keeps_it_per_sheet(rs):
    """DMG-16 through the memo a block asks on every attack: the same answer as
    can_soak, for each sheet's own soak (not the last one asked) and without a memo."""
    from wodcombat.combat.core.memo import Memo

    memo = Memo()
    cases = [(mk(rs, "vampire", traits={"Fortitude": 1}), "aggravated", 0),
             (mk(rs, "vampire", traits={"Fortitude": 0}), "aggravated", 0),
             (mk(rs), "lethal", 0), (mk(rs), "lethal", 1), (mk(rs), "bashing", 0)]
    for _ in range(2):  # the second round reads the memo
        for sheet, kind, armor in cases:
            want = SK.can_soak(rs, sheet, kind, armor_rating=armor)
            assert SK.can_soak_worn(rs, sheet, kind, armor, memo) is want
            assert SK.can_soak_worn(rs, sheet, kind, armor, None) is want
    assert [SK.can_soak_worn(rs, s, k, a, memo) for s, k, a in cases] == \
        [True, False, False, True, True]


@pytest.mark.rule("HLT-01")
@pytest.mark.rule("HLT-02")
def test_HLT_01_02_tracks_read_from_the_ruleset_tables_equal_built_ones(rs):
    """HLT-01/02: track_of and the log's HealthState come from tables built once per
    ruleset; they equal the ones built from the section, marks past the track are clipped
    as before, and Incapacitated is every box marked."""
    from wodcombat.combat.core.health import HealthTrack

    sec = rs.section("health")
    for marks in ({}, {"bashing": 2}, {"lethal": 3, "aggravated": 4}, {"bashing": 9},
                  {"lethal": -1, "aggravated": 7}):
        sheet = mk(rs, health=marks)
        built = HealthTrack.from_section(sec, dict(marks))
        assert DT.track_of(sheet, rs) == built
        assert D.health_state(DT.track_of(sheet, rs), rs) == D.HealthState.of(built)
        assert D.is_incapacitated(sheet, rs) is built.incapacitated
    assert DT.track_of(mk(rs, health={"bashing": 9}), rs).bashing == 7


def test_result_is_frozen_and_logs_every_input(rs):
    res = hit(
        rs,
        mk(rs, traits={"Stamina": 2}),
        2,
        "bashing",
        soak=[6, 1],
        soak_modifiers=(Modifier("split", dice=-1),),
    )
    with pytest.raises(Exception):
        res.applied = 9
    log = res.as_dict()
    assert log["request"]["faces_damage"] == [10, 10]  # as JSON keeps it
    assert log["soak"]["dropped"] == [{"reason": "split", "dice": -1}]
    assert log["soak_roll"]["faces"] == [6, 1]


# ---------------------------------------------------------------- defaults in the schema


@pytest.mark.rule("DMG-01")
@pytest.mark.rule("DMG-02")
@pytest.mark.rule("DMG-04")
@pytest.mark.rule("DICE-10")
@pytest.mark.rule("COMP-02")
@pytest.mark.rule("HLT-06")
def test_dmg_01_02_04_a_damage_table_leaving_keys_out_plays_by_the_schema_defaults():
    """DMG-01/02/04, DICE-10, COMP-02, HLT-06: the numbers a ruleset may leave out live
    once, as the damage schema's defaults (the engine reads ``table[key]``, no Python
    fallback), and they are what rules/core/damage.yaml states, so the two never drift."""
    import yaml

    problems: list = []
    bare = DT.DAMAGE_SCHEMA.check({"dazed": {"compare": "at_least"}}, "damage", problems)
    assert problems == []
    assert bare["damage_can_botch"] is False and bare["soak_can_botch"] is False
    assert bare["dice_per_extra_success"] == 1 and bare["rage_to_stay_active"] == 1
    assert bare["penalties_reduce_soak"] is False
    assert bare["dazed"] == {"compare": "at_least", "trait": "Stamina", "mortal_margin": 0,
                             "supernatural_margin": 2}  # a key given is kept
    assert bare["wounds"] == {"applies_to": ("action",), "exempt_unless_incapacitated": (),
                              "ignore_cost": {"Willpower": 1},
                              "ignore_when_incapacitated": False}
    # The core states the same, but for the one ruling it makes on purpose: M20's Arete
    # ignores wounds until Incapacitated (a table without the key exempts nothing).
    core = yaml.safe_load((RULES / "core" / "damage.yaml").read_text())["damage"]
    assert core["wounds"]["exempt_unless_incapacitated"] == ["arete"]
    for key, default in DT.DAMAGE_SCHEMA.defaults.items():
        if isinstance(default, dict):
            for sub, value in default.items():
                if (key, sub) != ("wounds", "exempt_unless_incapacitated"):
                    stated = core[key][sub]
                    assert (tuple(stated) if isinstance(value, tuple) else stated) == value
        else:
            assert core[key] == default, key
