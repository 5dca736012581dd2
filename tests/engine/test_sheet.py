"""Sheets: traits from YAML, suggestions, ranges, pools by splat, health track and penalty."""

import pytest

from wodcombat.combat.core.errors import InputError
from wodcombat.combat.core.health import HealthTrack
from wodcombat.combat.core.sheet import Sheet


def blank(numetal, splat="mortal"):
    sheet = Sheet().with_pools_for(numetal.traits)
    return sheet.set(numetal.traits, "splat", splat)[0]


def test_set_trait_by_alias_and_roundtrip(numetal):
    sheet, msg = blank(numetal).set(numetal.traits, "dex", "4")
    assert msg == "Dexterity set to 4"
    again = Sheet.from_dict(sheet.to_dict())
    assert again.rating(numetal.traits, "Dexterity") == 4


def test_unknown_trait_suggests(numetal):
    with pytest.raises(InputError, match="Did you mean Dexterity"):
        blank(numetal).set(numetal.traits, "dexterty", "3")


@pytest.mark.parametrize("value, words", [("banana", "whole number"), ("99", "0 to 10")])
def test_bad_values_refused_with_range(numetal, value, words):
    with pytest.raises(InputError, match=words):
        blank(numetal).set(numetal.traits, "strength", value)


def test_pools_follow_the_splat(numetal):
    vamp = blank(numetal, "vampire")
    assert set(vamp.pools) == {"Willpower", "Blood"}
    shifter = blank(numetal, "shifter")
    assert set(shifter.pools) == {"Willpower", "Rage", "Gnosis"}
    with pytest.raises(InputError, match="no Rage"):
        vamp.set(numetal.traits, "rage", "3")


def test_pool_current_and_permanent(numetal):
    sheet, _ = blank(numetal).set(numetal.traits, "willpower", "3/6")
    assert sheet.pools["Willpower"].current == 3 and sheet.pools["Willpower"].permanent == 6
    with pytest.raises(InputError, match="cannot be above"):
        sheet.set(numetal.traits, "willpower", "7/6")


def test_shifter_race_breed_form(numetal):
    sheet = blank(numetal, "shifter")
    sheet, _ = sheet.set(numetal.traits, "race", "garou")
    sheet, _ = sheet.set(numetal.traits, "breed", "lupus")
    sheet, _ = sheet.set(numetal.traits, "form", "crinos")
    assert (sheet.race, sheet.breed, sheet.form) == ("Garou", "lupus", "Crinos")
    with pytest.raises(InputError, match="Choose one of"):
        sheet.set(numetal.traits, "form", "Bjornen")


def test_spend_refuses_without_change(numetal):
    sheet = blank(numetal, "vampire")
    with pytest.raises(InputError, match="Not enough Blood"):
        sheet.spend("Blood", 99)
    assert sheet.spend("Blood", 2).pools["Blood"].current == sheet.pools["Blood"].current - 2


@pytest.mark.rule("HLT-01")
def test_seven_levels_and_penalties(numetal):
    track = HealthTrack.from_section(numetal.section("health"))
    names = [lv.name for lv in track.levels]
    assert names == ["Bruised", "Hurt", "Injured", "Wounded", "Mauled", "Crippled", "Incapacitated"]
    penalties = []
    for _ in range(6):
        track = track.apply("lethal", 1).track
        penalties.append(track.penalty)
    assert penalties == [0, -1, -1, -2, -2, -5]


@pytest.mark.rule("HLT-02")
def test_health_zero_is_incapacitated(numetal):
    track = HealthTrack.from_section(numetal.section("health")).apply("bashing", 7).track
    assert track.incapacitated and track.level_name == "Incapacitated"


@pytest.mark.rule("HLT-03")
def test_bashing_past_incapacitated_becomes_lethal(numetal):
    track = HealthTrack.from_section(numetal.section("health")).apply("bashing", 7).track
    applied = track.apply("bashing", 2)
    assert applied.converted == 2 and applied.overflow_lethal == 2
    assert applied.track.lethal == 2 and applied.track.bashing == 5


@pytest.mark.rule("DMG-18")
def test_marks_shown_worst_first(numetal):
    track = HealthTrack.from_section(
        numetal.section("health"), {"bashing": 1, "lethal": 1, "aggravated": 1}
    )
    assert track.boxes()[:3] == ["*", "X", "/"]


def test_soak_value_leaves_out_only_the_health_marks(numetal):
    """The soak pool memo (combat/d10/damage.py, combat/core/memo.py) is keyed on every field
    but the marks: a hit keeps the number, anything a soak may read (a pool, a trait) changes it."""
    from wodcombat.combat.d10.damage_tables import track_of
    from wodcombat.combat.core.memo import Memo

    memo = Memo()

    def soak(sheet):
        return memo.sheet_number(sheet, soak=True)

    s, _ = Sheet().with_pools_for(numetal.traits).set(numetal.traits, "stamina", "3")
    hurt = s.with_health(track_of(s, numetal).apply("lethal", 2).track)
    assert soak(hurt) == soak(s) and memo.sheet_number(hurt) != memo.sheet_number(s)
    assert hurt.soak_value() == s.soak_value() and hurt.value() != s.value()
    fresh = Sheet.from_dict(hurt.to_dict())  # read back from its Attribute
    assert soak(fresh) == soak(s) and memo.sheet_number(fresh) == memo.sheet_number(hurt)
    tougher, _ = s.set(numetal.traits, "stamina", "4")
    drained = s.spend("Willpower", 1)
    assert len({soak(s), soak(tougher), soak(drained)}) == 3
