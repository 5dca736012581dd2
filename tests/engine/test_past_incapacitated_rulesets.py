"""What damage past Incapacitated and a wraith's Corpus do under each d10 ruleset (issue 31,
findings 1-3), against the engine with exact dice.

Seed 000 (numetal) and seed 001 (revised) both say "Incapacitated and take more aggravated
-> die (... shifters may still be able to Rage-heal ...)": their shifter is left dying and
may Rage-heal. Seeds 002 (everyman) and 003 (v20) are silent; the core carries no
Rage-healing, so there the line's own rule stands: more aggravated kills.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from wodcombat.combat.d10 import damage as D

from wodcombat.combat.d10 import damage_tables as DT

from wodcombat.combat.d10 import wound_penalty as WP
from wodcombat.combat.d10 import shifter_healing as SH
from wodcombat.combat.rules.ruleset import Ruleset, load_library
from tests.engine.d10_checks import full, hit

RULES = Path(__file__).resolve().parents[2] / "rules"
LIB = load_library(RULES)


def rules(name):
    return LIB.get(name)


def crinos(rs, rage=3):
    return full(rs, "shifter", race="Garou", form="Crinos", Stamina=0, pools={"Rage": rage},
                health={"lethal": 7})


@pytest.mark.rule("HLT-05", "HEAL-04")
@pytest.mark.parametrize("name", ["everyman", "v20"])
def test_HLT_05_shifter_past_incapacitated_by_aggravated_dies_where_no_rage_heal(name):
    """HLT-05 (issue 31, finding 1): everyman and v20 have no Rage-healing (HEAL-04 is seed
    000's), so a shifter taking aggravated past Incapacitated dies; "dying" there would be
    a state nothing resolves."""
    rs = rules(name)
    res = hit(rs, crinos(rs), 1, "aggravated", source="claw", condition="incapacitated")
    assert res.outcome == DT.DEAD
    with pytest.raises(Exception, match="no Rage-healing"):
        SH.rage_heal(res.sheet, rs, condition=DT.DYING, faces=(9, 9, 9))


@pytest.mark.rule("HLT-05", "HEAL-04")
@pytest.mark.parametrize("name", ["numetal", "revised"])
def test_HLT_05_shifter_past_incapacitated_by_aggravated_is_dying_and_rage_heals(name):
    """HLT-05 (issue 31, finding 2): seed 001 "Incapacitated and take more aggravated -> die
    (werewolves and most other shifters may still be able to Rage-heal, see below for
    details)", as seed 000: dying, and Rage at 8 counts levels back from Incapacitated."""
    rs = rules(name)
    res = hit(rs, crinos(rs), 1, "aggravated", source="claw", condition="incapacitated")
    assert res.outcome == DT.DYING
    healed = SH.rage_heal(res.sheet, rs, condition=DT.DYING, faces=(9, 8, 2))
    assert healed.condition == DT.OK and "berserk_frenzy" in healed.flags
    assert DT.track_of(healed.sheet, rs).damage == 5  # 2 successes: two levels back
    missed = SH.rage_heal(res.sheet, rs, condition=DT.DYING, faces=(2, 3, 4))
    assert missed.condition == DT.DEAD
    broke = hit(rs, crinos(rs, rage=0), 1, "aggravated", source="claw",
                condition="incapacitated")
    assert broke.outcome == DT.DEAD


@pytest.mark.rule("HLT-05", "HEAL-04")
def test_HLT_05_revised_rage_heals_only_from_dying():
    """READING (revised/healing.yaml): the page names the Rage-healing only for the
    aggravated line, so a reverted shifter (lethal past Incapacitated) cannot."""
    rs = rules("revised")
    with pytest.raises(Exception, match="only for a shifter past Incapacitated"):
        SH.rage_heal(crinos(rs), rs, condition=DT.REVERTED, faces=(9, 9, 9))


@pytest.mark.rule("HLT-05", "HEAL-04")
def test_HLT_05_dying_without_rage_heal_is_refused_at_load():
    """A ruleset whose row says dying but has no Rage-healing from dying is a rules error
    naming the key and what to write instead."""
    rs = rules("v20")
    data = copy.deepcopy(rs.data)
    data["damage"]["past_incapacitated"]["shifter"]["aggravated"] = "dying"
    broken = Ruleset("v20-dying", "core", "", rs.files, data)
    assert ("damage.past_incapacitated.shifter.aggravated",
            "'dying' needs healing.rage_heal with dying in from_conditions (HEAL-04); "
            "without Rage-healing write dead") in DT.check(broken)
    for name in ("numetal", "revised", "everyman", "v20"):
        assert not [p for p in DT.check(rules(name)) if "dying" in p[1]], name


def wraith(rs, splat="wraith", corpus=10):
    return full(rs, splat, Stamina=2, pools={"Corpus": (corpus, 10)})


@pytest.mark.rule("DMG-14")
@pytest.mark.parametrize("splat", ["wraith", "risen"])
def test_DMG_14_revised_wraith_takes_damage_on_corpus_instead_of_the_track(splat):
    """DMG-14 (issue 31, finding 3): seed 001 "Unsoaked damage decreases target's health
    (Corpus for Wraiths/Risen)": Corpus 10 taking 7 lethal is Corpus 3 and still up, the
    seven-level track unmarked (it was Incapacitated with Corpus 3 left)."""
    rs = rules("revised")
    res = hit(rs, wraith(rs, splat), 7, "lethal")  # a wraith soaks no lethal ("Other")
    assert res.applied == 7 and res.sheet.pools["Corpus"].current == 3
    assert not any(res.sheet.health.values())
    assert res.outcome == "none" and res.condition == DT.OK
    assert (res.health_before.level, res.health_after.level) == ("Corpus 10", "Corpus 3")
    assert "Corpus -7" in res.notes
    assert WP.wound_modifier(res.sheet, rs, "action") is None  # the track carries no wound


@pytest.mark.rule("DMG-14", "HLT-02", "HLT-03", "HLT-05")
def test_DMG_14_revised_corpus_0_is_incapacitated_and_more_kills():
    """HLT-02 read on Corpus: 0 is Incapacitated; more damage goes past it as past a full
    track (a wraith is among "others": more lethal or aggravated kills; bashing becomes
    lethal first)."""
    rs = rules("revised")
    res = hit(rs, wraith(rs, corpus=3), 3, "lethal")
    assert res.condition == DT.INCAPACITATED and res.sheet.pools["Corpus"].current == 0
    assert D.is_incapacitated(res.sheet, rs)
    more = hit(rs, res.sheet, 1, "bashing", soak=[2, 2], condition=DT.INCAPACITATED)
    assert more.overflow == 1 and more.outcome == DT.DEAD


@pytest.mark.rule("DMG-14")
@pytest.mark.parametrize("name", ["numetal", "everyman", "v20"])
def test_DMG_14_other_rulesets_mark_a_wraiths_track(name):
    """DMG-14 is seed 001's wording; elsewhere a wraith's damage is on the track."""
    rs = rules(name)
    res = hit(rs, wraith(rs), 3, "lethal")
    assert res.sheet.health["lethal"] == 3 and res.sheet.pools["Corpus"].current == 10


@pytest.mark.rule("CLOSE-11")
def test_CLOSE_11_revised_garou_in_crinos_sweeps_with_an_arm():
    """CLOSE-11 revised (issue 31, finding 8): "Garou in Crinos can sweep smaller target with
    arm": the leg sweep's Dexterity + Brawl at +1, Strength damage, knockdown at +2; only a
    Garou in Crinos may (a Homid Garou is told to shift; anyone else to sweep)."""
    from wodcombat.combat.d10.attack_resolve import resolve_attack
    from wodcombat.combat.core.errors import IllegalAction
    from tests.engine.d10_checks import A, B, F, atk

    rs = rules("revised")
    wolf = A(splat="shifter", race="Garou", form="Crinos")
    r = resolve_attack(rs, wolf, B(), atk("arm_sweep"), faces=F(1, 5))
    assert r.pool.difficulty == 7 and r.pool.terms == (("Dexterity", 3), ("Brawl", 2))
    assert r.damage.terms == (("Strength", 3),)
    assert [(e.kind, e.who, e.difficulty) for e in r.effects] == [
        ("knockdown_check", "target", 2)]
    with pytest.raises(IllegalAction, match="A Garou can arm sweep only in Crinos form"):
        resolve_attack(rs, A(splat="shifter", race="Garou", form="Homid"), B(),
                       atk("arm_sweep"), faces=F(1, 5))
    with pytest.raises(IllegalAction, match="Only a Garou in Crinos form can arm sweep"):
        resolve_attack(rs, A(), B(), atk("arm_sweep"), faces=F(1, 5))
    for name in ("numetal", "everyman", "v20"):  # seed 001's wording only
        with pytest.raises(Exception, match="'arm_sweep' is not a maneuver here"):
            resolve_attack(rules(name), wolf, B(), atk("arm_sweep"), faces=F(1, 5))
