"""Supernatural healing on the numetal ruleset (HEAL-01..07, HEAL-10), with exact faces."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wodcombat.combat.d10 import healing as H

from wodcombat.combat.d10 import heal_time as HTM

from wodcombat.combat.d10 import healing_tables as HT

from wodcombat.combat.d10 import shifter_healing as SH
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Pool, Sheet

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


def mk(rs, splat="mortal", *, traits=None, pools=None, health=None, **ident) -> Sheet:
    sheet = Sheet(splat=splat, traits=dict(traits or {}), health=dict(health or {}), **ident)
    sheet = sheet.with_pools_for(rs.traits)
    if pools:
        merged = dict(sheet.pools)
        merged.update({k: Pool(v, max(v, 10)) for k, v in pools.items()})
        fields = {k: getattr(sheet, k) for k in sheet.__dataclass_fields__}
        sheet = Sheet(**{**fields, "pools": merged})
    return sheet


def test_tables_cross_check_clean(rs):
    assert HT.check(rs) == []


# ---------------------------------------------------------------- HEAL-01 vampires


@pytest.mark.rule("HEAL-01")
def test_generation_chart(rs):
    assert HT.generation(rs, 13) == HT.Generation(13, 5, 10, 1)
    assert HT.generation(rs, 8).blood_per_turn == 3
    assert HT.generation(rs, 7).blood_max == 20 and HT.generation(rs, 4).trait_max == 9
    assert HT.generation(rs, 3).blood_per_turn is None  # V20 "???": documented, no cap
    with pytest.raises(InputError):
        HT.generation(rs, 2)


@pytest.mark.rule("HEAL-01")
def test_one_blood_heals_one_level_within_blood_per_turn(rs):
    vamp = mk(rs, "vampire", generation=8, pools={"Blood": 10}, health={"lethal": 2, "bashing": 2})
    res = H.heal_with_blood(vamp, rs, lethal=2, bashing=1)
    assert res.cost == {"Blood": 3} and res.sheet.pools["Blood"].current == 7
    assert res.health_after.lethal == 0 and res.health_after.bashing == 1
    assert res.time == "1 turn" and res.rule == "HEAL-01"
    with pytest.raises(IllegalAction, match="at most 3 blood a turn"):
        H.heal_with_blood(vamp, rs, lethal=2, bashing=2)
    with pytest.raises(IllegalAction, match="1 already spent"):
        H.heal_with_blood(vamp, rs, lethal=2, bashing=1, spent_this_turn=1)


@pytest.mark.rule("HEAL-01")
def test_thirteenth_generation_heals_one_a_turn(rs):
    vamp = mk(rs, "vampire", generation=13, pools={"Blood": 10}, health={"lethal": 3})
    assert H.heal_with_blood(vamp, rs, lethal=1).health_after.lethal == 2
    with pytest.raises(IllegalAction, match="at most 1 blood"):
        H.heal_with_blood(vamp, rs, lethal=2)


@pytest.mark.rule("HEAL-01")
def test_blood_heal_refusals(rs):
    vamp = mk(rs, "vampire", generation=8, pools={"Blood": 1}, health={"lethal": 3})
    with pytest.raises(IllegalAction, match="Not enough Blood"):
        H.heal_with_blood(vamp, rs, lethal=2)
    with pytest.raises(IllegalAction, match="only 0 bashing"):
        H.heal_with_blood(vamp, rs, bashing=1)
    with pytest.raises(InputError):
        H.heal_with_blood(vamp, rs)
    with pytest.raises(IllegalAction, match="no supernatural healing"):
        H.heal_with_blood(mk(rs, health={"lethal": 1}), rs, lethal=1)


@pytest.mark.rule("HEAL-01")
def test_aggravated_costs_five_blood_a_days_rest_and_wp_per_extra_level(rs):
    vamp = mk(
        rs, "vampire", generation=8, pools={"Blood": 15, "Willpower": 5}, health={"aggravated": 3}
    )
    with pytest.raises(IllegalAction, match="full day's rest"):
        H.heal_aggravated_with_blood(vamp, rs, levels=1)
    one = H.heal_aggravated_with_blood(vamp, rs, levels=1, rested=True)
    assert one.cost == {"Blood": 5} and one.health_after.aggravated == 2 and one.time == "1 day"
    three = H.heal_aggravated_with_blood(vamp, rs, levels=3, rested=True)
    assert three.cost == {"Blood": 15, "Willpower": 2}
    assert three.sheet.pools["Willpower"].current == 3 and three.health_after.aggravated == 0


@pytest.mark.rule("HEAL-01", "HLT-09")
def test_vampires_do_not_heal_with_time_mortals_do(rs):
    with pytest.raises(IllegalAction, match="passing of time"):
        HTM.natural_heal_time(mk(rs, "vampire", health={"lethal": 1}), rs, "lethal")
    t = HTM.natural_heal_time(mk(rs, health={"lethal": 4}), rs, "lethal")
    assert t.text == "1 month" and "medical care" in t.needs
    assert HTM.natural_heal_time(mk(rs, health={"bashing": 1}), rs, "bashing").text == "1 hour"


# ---------------------------------------------------------------- HEAL-02 ghouls


@pytest.mark.rule("HEAL-02")
def test_ghouls_heal_with_blood_and_with_time(rs):
    ghoul = mk(rs, "ghoul", pools={"Blood": 3}, health={"lethal": 2})
    assert HTM.natural_heal_time(ghoul, rs, "lethal").text == "3 days"
    res = H.heal_with_blood(ghoul, rs, lethal=1)
    assert res.cost == {"Blood": 1} and res.health_after.lethal == 1


@pytest.mark.rule("HEAL-02")
def test_ghoul_limb_regeneration(rs):
    ghoul = mk(rs, "ghoul", traits={"Stamina": 2}, pools={"Blood": 5, "Willpower": 4})
    res = H.regenerate_limb(ghoul, rs, part="forearm", faces=[8, 3])
    assert res.cost == {"Willpower": 1, "Blood": 2} and "regrown" in res.flags
    assert res.roll.difficulty == 8
    fail = H.regenerate_limb(ghoul, rs, part="limb", faces=[7, 3])
    assert "never_regrows" in fail.flags and fail.sheet.pools["Blood"].current == 2
    elder = H.regenerate_limb(ghoul, rs, part="limb", age_years=250, faces=[7, 3])
    assert elder.roll.difficulty == 6 and "regrown" in elder.flags
    with pytest.raises(InputError, match="not a part"):
        H.regenerate_limb(ghoul, rs, part="tail", faces=[7, 3])
    with pytest.raises(IllegalAction, match="Only ghouls"):
        H.regenerate_limb(mk(rs, "vampire"), rs, part="eye", faces=[7])


# ---------------------------------------------------------------- HEAL-03 regeneration


def garou(rs, breed="homid", form="Crinos", **kw):
    return mk(rs, "shifter", race="Garou", breed=breed, form=form, traits={"Stamina": 3}, **kw)


@pytest.mark.rule("HEAL-03")
def test_regenerates_one_level_a_turn_outside_breed_form(rs):
    wolf = garou(rs, health={"lethal": 2, "bashing": 1})
    res = SH.regenerate(wolf, rs)
    assert res.healed == {"lethal": 1} and res.cost == {} and res.time == "1 turn"
    assert SH.regenerate(wolf, rs, kind="bashing").healed == {"bashing": 1}
    with pytest.raises(IllegalAction, match="aggravated"):
        SH.regenerate(garou(rs, health={"aggravated": 1}), rs, kind="agg")
    with pytest.raises(IllegalAction, match="breed form"):
        SH.regenerate(garou(rs, form="Homid", health={"lethal": 1}), rs)
    with pytest.raises(IllegalAction, match="breed form"):
        SH.regenerate(garou(rs, breed="lupus", form="Lupus", health={"lethal": 1}), rs)
    metis = garou(rs, breed="metis", form="Homid", health={"lethal": 1})
    assert SH.regenerate(metis, rs).healed == {"lethal": 1}


@pytest.mark.rule("HEAL-03")
def test_stress_roll_stamina_at_8(rs):
    wolf = garou(rs, health={"lethal": 2})
    ok = SH.regenerate(wolf, rs, stressed=True, faces=[8, 2, 2])
    assert ok.healed == {"lethal": 1} and ok.roll.difficulty == 8
    fail = SH.regenerate(wolf, rs, stressed=True, faces=[7, 7, 2])  # 7s would pass at 6
    assert fail.healed == {} and not fail.flags
    botch = SH.regenerate(wolf, rs, stressed=True, faces=[1, 2, 3])
    assert botch.healed == {} and "no_regeneration_until_rest" in botch.flags
    with pytest.raises(IllegalAction, match="until you rest"):
        SH.regenerate(wolf, rs, blocked_until_rest=True)


# ---------------------------------------------------------------- HEAL-04 Rage-heal


@pytest.mark.rule("HEAL-04")
def test_rage_heal_counts_back_from_incapacitated(rs):
    dying = garou(rs, health={"lethal": 4, "aggravated": 3}, pools={"Rage": 4})
    res = SH.rage_heal(dying, rs, condition="dying", faces=[8, 9, 10, 3])
    assert res.roll.successes == 3 and res.roll.difficulty == 8
    assert res.health_after.level == "Wounded"  # 3 successes: Wounded, whatever the damage
    assert res.health_after.aggravated == 3 and res.health_after.lethal == 1  # worst stay
    assert res.condition == "ok" and "berserk_frenzy" in res.flags
    assert res.cost == {}  # Rage is rolled, not spent


@pytest.mark.rule("HEAL-04")
def test_rage_heal_failure_and_limits(rs):
    dying = garou(rs, health={"aggravated": 7}, pools={"Rage": 2})
    miss = SH.rage_heal(dying, rs, condition="dying", faces=[7, 3])
    assert miss.condition == "dead" and miss.healed == {}
    reverted = SH.rage_heal(dying, rs, condition="reverted", faces=[7, 3])
    assert reverted.condition == "reverted"
    with pytest.raises(IllegalAction, match="once per scene"):
        SH.rage_heal(dying, rs, condition="dying", used_this_scene=True, faces=[8, 8])
    with pytest.raises(IllegalAction, match="past Incapacitated"):
        SH.rage_heal(dying, rs, condition="ok", faces=[8, 8])
    no_rage = garou(rs, health={"aggravated": 7}, pools={"Rage": 0})
    with pytest.raises(IllegalAction, match="needs Rage"):
        SH.rage_heal(no_rage, rs, condition="dying", faces=[])


# ---------------------------------------------------------------- HEAL-05 fera


@pytest.mark.rule("HEAL-05")
def test_ananasi_heal_with_blood_not_in_crawlerling(rs):
    ananasi = mk(
        rs,
        "shifter",
        race="Ananasi",
        breed="homid",
        form="Lilian",
        pools={"Blood": 10},
        health={"lethal": 2, "aggravated": 1},
    )
    res = H.heal_with_blood(ananasi, rs, lethal=1)
    assert res.cost == {"Blood": 1} and res.rule == "HEAL-05"
    with pytest.raises(IllegalAction, match="1 level"):
        H.heal_with_blood(ananasi, rs, lethal=2)
    agg = H.heal_aggravated_with_blood(ananasi, rs)
    assert agg.cost == {"Blood": 5} and agg.time == "5 turns"
    crawler = mk(
        rs,
        "shifter",
        race="Ananasi",
        breed="lupus",
        form="Crawlerling",
        pools={"Blood": 10},
        health={"lethal": 1},
    )
    with pytest.raises(IllegalAction, match="Crawlerling"):
        H.heal_with_blood(crawler, rs, lethal=1)
    with pytest.raises(IllegalAction, match="blood"):
        SH.regenerate(ananasi, rs)


@pytest.mark.rule("HEAL-05")
def test_kitsune_do_not_regenerate(rs):
    kitsune = mk(rs, "shifter", race="Kitsune", breed="homid", form="Koto", health={"lethal": 1})
    with pytest.raises(IllegalAction, match="does not regenerate"):
        SH.regenerate(kitsune, rs)
    assert HT.healer(kitsune, rs) is None


@pytest.mark.rule("HEAL-05")
def test_squamus_rokea_regenerate_in_salt_water_even_in_breed_form(rs):
    shark = mk(rs, "shifter", race="Rokea", breed="lupus", form="Squamus", health={"lethal": 1})
    with pytest.raises(IllegalAction, match="breed form"):
        SH.regenerate(shark, rs)
    assert SH.regenerate(shark, rs, flags=("salt_water",)).healed == {"lethal": 1}
    homid = mk(rs, "shifter", race="Rokea", breed="homid", form="Homid", health={"lethal": 1})
    with pytest.raises(IllegalAction, match="breed form"):
        SH.regenerate(homid, rs, flags=("salt_water",))


# ---------------------------------------------------------------- HEAL-06 mages


@pytest.mark.rule("HEAL-06")
def test_mage_needs_life_3_to_heal_others_and_quint_for_agg(rs):
    patient = mk(rs, health={"lethal": 2, "aggravated": 2})
    novice = mk(rs, "mage", traits={"Life": 2}, pools={"Quintessence": 5})
    with pytest.raises(IllegalAction, match="Life 3"):
        H.mage_heal(novice, rs, kind="lethal", levels=1, target=patient)
    adept = mk(rs, "mage", traits={"Life": 3}, pools={"Quintessence": 5})
    res = H.mage_heal(adept, rs, kind="lethal", levels=2, target=patient)
    assert res.cost == {} and res.health_after.lethal == 0 and "vulgar" not in res.flags
    agg = H.mage_heal(adept, rs, kind="aggravated", levels=2, target=patient)
    assert agg.cost == {"Quintessence": 2} and "vulgar" in agg.flags
    assert agg.payer.pools["Quintessence"].current == 3
    assert agg.sheet.health["aggravated"] == 0
    hurt_novice = mk(
        rs, "mage", traits={"Life": 2}, pools={"Quintessence": 1}, health={"aggravated": 1}
    )
    self_heal = H.mage_heal(hurt_novice, rs, kind="agg", levels=1)
    assert self_heal.sheet.pools["Quintessence"].current == 0
    assert self_heal.health_after.aggravated == 0 and self_heal.payer is None


# ---------------------------------------------------------------- HEAL-07 changelings


@pytest.mark.rule("HEAL-07")
def test_chimerical_table_freehold_and_dreaming(rs):
    bruised = mk(rs, "changeling", health={"bashing": 1})
    assert HTM.changeling_heal_time(bruised, rs, "bashing", chimerical=True).text == "30 minutes"
    assert (
        HTM.changeling_heal_time(bruised, rs, "bashing", chimerical=True, place="freehold").minutes
        == 15
    )
    wounded = mk(rs, "changeling", health={"lethal": 4})
    assert HTM.changeling_heal_time(wounded, rs, "lethal", chimerical=True).text == "6 hours"
    assert (
        HTM.changeling_heal_time(wounded, rs, "lethal", chimerical=True, place="dreaming").text
        == "15 minutes"
    )
    down = mk(rs, "changeling", health={"lethal": 7})
    assert HTM.changeling_heal_time(down, rs, "lethal", chimerical=True).needs == "freehold"
    assert (
        HTM.changeling_heal_time(down, rs, "lethal", chimerical=True, place="dreaming").needs
        is None
    )


@pytest.mark.rule("HEAL-07")
def test_physical_and_aggravated_wounds_for_changelings(rs):
    wounded = mk(rs, "changeling", health={"lethal": 4})
    assert HTM.changeling_heal_time(wounded, rs, "lethal", chimerical=False).text == "1 month"
    assert (
        HTM.changeling_heal_time(wounded, rs, "lethal", chimerical=False, place="freehold").text
        == "6 hours"
    )
    mauled = mk(rs, "changeling", health={"lethal": 5})
    assert (
        HTM.changeling_heal_time(mauled, rs, "lethal", chimerical=False).needs
        == "medical attention"
    )
    assert (
        HTM.changeling_heal_time(mauled, rs, "lethal", chimerical=False, place="freehold").needs
        is None
    )
    agg = mk(rs, "changeling", health={"aggravated": 1})  # Bruised: natural 1 day
    assert (
        HTM.changeling_heal_time(agg, rs, "agg", chimerical=True, place="freehold").text == "1 day"
    )  # halved, minimum a day
    agg3 = mk(rs, "changeling", health={"aggravated": 3})  # Injured: 1 week
    assert (
        HTM.changeling_heal_time(agg3, rs, "agg", chimerical=False, place="freehold").minutes
        == 10080 // 2
    )
    assert (
        HTM.changeling_heal_time(agg3, rs, "agg", chimerical=True, place="dreaming").text
        == "12 hours"
    )
    with pytest.raises(IllegalAction):
        HTM.changeling_heal_time(mk(rs, health={"lethal": 1}), rs, "lethal", chimerical=True)
    with pytest.raises(InputError):
        HTM.changeling_heal_time(wounded, rs, "lethal", chimerical=True, place="arcadia")


# ---------------------------------------------------------------- HEAL-10


@pytest.mark.rule("HEAL-10")
def test_power_healing_table_drives_the_costs(rs):
    table = HT.power_healing(rs)
    assert table["vampire"]["aggravated"]["cost"] == 5
    assert table["vampire"]["aggravated"]["time"] == "1 day"
    assert table["ananasi"]["aggravated"]["time"] == "5 turns"
    assert table["shifter"]["lethal"] == {"cost": 0, "time": "1 turn"}
    assert table["shifter"]["aggravated"]["time"] == "1 day"
    assert HT.healer(mk(rs, "ghoul"), rs) == "ghoul"
    assert HT.healer(mk(rs, "shifter", race="Garou"), rs) == "shifter"
    assert HT.healer(mk(rs, "shifter", race="Ananasi"), rs) == "ananasi"
    assert HT.healer(mk(rs), rs) is None


def test_rng_rolls_when_no_faces_given(rs):
    wolf = garou(rs, health={"lethal": 2})
    a = SH.regenerate(wolf, rs, stressed=True, rng=random.Random(3))
    b = SH.regenerate(wolf, rs, stressed=True, rng=random.Random(3))
    assert a.as_dict() == b.as_dict() and len(a.roll.faces) == 3


def test_times_parse_and_show():
    assert HT.minutes("3 hours") == 180 and HT.minutes("1 week") == 10080
    assert HT.show_minutes(720) == "12 hours" and HT.show_minutes(1440) == "1 day"
    with pytest.raises(InputError):
        HT.minutes("5 turns")
    with pytest.raises(InputError):
        HT.parse_time("soon")
