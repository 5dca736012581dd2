"""The attack tables as data (combat/core/maneuvers.py): schemas, lookups, movement, time powers,
strafe splitting and the Fera notes. Rule IDs: ../shared/rules-catalog.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from wodcombat.combat.core.errors import IllegalAction, InputError, RulesError
from wodcombat.combat.core.maneuvers import (
    Damage,
    fera_trait_difficulty,
    form_allowed,
    jagged_skin,
    movement_yards,
    strafe_shares,
    tables,
    time_power_actions,
)
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Sheet

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


def child(tmp_path, text: str):
    root = tmp_path / "rules"
    root.mkdir()
    (root / "numetal").symlink_to(RULES / "numetal", target_is_directory=True)
    (root / "core").symlink_to(RULES / "core", target_is_directory=True)
    (root / "child").mkdir()
    (root / "child" / "ruleset.yaml").write_text("ruleset:\n  extends: numetal\n")
    (root / "child" / "changes.yaml").write_text(text)
    return load_ruleset(root, "child")


def shifter(race, form, **traits):
    return Sheet(splat="shifter", race=race, form=form, traits=traits)


def test_tables_load_and_cross_check_clean(rs):
    """The shipped tables validate and every name one table uses exists in another."""
    t = tables(rs)
    assert t.problems() == []
    assert tables(rs) is t  # cached per ruleset
    assert {"strike", "kick", "bite", "claw", "clinch", "hold", "disarm", "jab_pistol", "sweep",
            "tackle", "weapon_strike", "shoot", "throw", "burst", "autofire", "strafe"} <= set(
        t.maneuvers)
    for section in ("attacks", "defenses", "maneuvers", "ranged", "targeting", "complications",
                    "movement", "time_powers", "fera_notes", "weapons", "armor"):
        assert rs.section(section), section


def test_weapon_and_armor_rows_V20_values(rs):
    """ATK-05 / RNG-02 / DMG-11: the starter table carries the V20 chart values and names
    its source as editable data."""
    t = tables(rs)
    w = t.weapon("pistol, heavy")
    assert (w.damage, w.type, w.kind, w.range, w.rate, w.clip, w.conceal) == (
        Damage("fixed", 5), "lethal", "firearm", 30, 3, 7, "J")
    smg = t.weapon("SMG, small")
    assert smg.autofire and smg.burst and smg.cls == "smg"
    assert t.weapon("Sword").damage == Damage("str", 2) and t.weapon("Spear").length == 3
    assert t.weapon("Throwing knife").throwing and not t.weapon("Knife").throwing
    assert "V20" in rs.section("weapons")["source"] and rs.section("weapons")["editable"]
    vest = t.armor("kevlar vest")
    assert (vest.rating, vest.penalty, vest.covers) == (3, 1, ("torso",))
    assert vest.stops("firearm") and vest.stops("bite") and not vest.stops("fire")
    assert t.armor("Riot shield").shield


def test_bad_table_is_refused_with_its_path(tmp_path):
    """A typo in the maneuver table refuses the ruleset, naming the key path."""
    with pytest.raises(RulesError) as err:
        child(tmp_path, "maneuvers:\n  list:\n    kick: {damage: \"Str+one\"}\n")
    assert "maneuvers.list.kick.damage" in str(err.value)


def test_damage_expressions():
    """Damage strings of the tables: Str+N, Str-N, weapon+N, a number, none."""
    assert Damage.parse("Str+1") == Damage("str", 1)
    assert Damage.parse("Str-1") == Damage("str", -1)
    assert Damage.parse("weapon+2") == Damage("weapon", 2)
    assert Damage.parse(8) == Damage("fixed", 8)
    assert Damage.parse("none") == Damage("none", 0)
    with pytest.raises(InputError):
        Damage.parse("Dex+1")


@pytest.mark.rule("MAN-03")
def test_MAN_03_movement_by_pace_and_form(rs):
    """MAN-03: walk 7, jog 12 + Dex, run 20 + 3 x Dex; Crinos +2 on all fours, Hispo x1.5,
    Lupus x2."""
    human = Sheet(traits={"Dexterity": 3})
    assert [movement_yards(rs, human, p) for p in ("walk", "jog", "run")] == [7, 15, 29]
    crinos = shifter("Garou", "Crinos", Dexterity=3)
    assert movement_yards(rs, crinos, "run") == 29
    assert movement_yards(rs, crinos, "run", all_fours=True) == 31
    assert movement_yards(rs, shifter("Garou", "Hispo", Dexterity=3), "run") == 43
    assert movement_yards(rs, shifter("Garou", "Lupus", Dexterity=3), "jog") == 30
    with pytest.raises(InputError):
        movement_yards(rs, human, "sprint")


@pytest.mark.rule("MAN-09")
def test_MAN_09_other_time_powers(rs):
    """MAN-09: Distort Time 1 per 2 successes next turn; Quicksilver 1 per success; Dream Time
    one, capped; Faith this turn with -1, -2 initiative; Tempus Fugit each turn, once a scene."""
    g = time_power_actions(rs, "distort time", 5)
    assert (g.actions, g.when) == (2, "next_turn")
    assert time_power_actions(rs, "Quicksilver", 3).actions == 3
    assert time_power_actions(rs, "Dream Time", 9).actions == 1
    f = time_power_actions(rs, "Faith", 2)
    assert (f.actions, f.when, f.initiative_steps) == (2, "this_turn", (-1, -2))
    t = time_power_actions(rs, "Tempus Fugit", 3)
    assert t.when == "each_turn_rest_of_scene" and t.once_per_scene
    with pytest.raises(InputError):
        time_power_actions(rs, "Celerity", 3)


@pytest.mark.rule("RNG-07")
def test_RNG_07_strafe_shares():
    """RNG-07: even split, leftovers one each where the attacker says; one target: half."""
    assert strafe_shares(7, ("a", "b", "c"), ("c",)) == {"a": 2, "b": 2, "c": 3}
    assert strafe_shares(8, ("a", "b", "c"), ("c", "b")) == {"a": 2, "b": 3, "c": 3}
    assert strafe_shares(7, ("a", "b", "c")) == {"a": 3, "b": 2, "c": 2}
    assert strafe_shares(7, ("a",)) == {"a": 3}


@pytest.mark.rule("CLOSE-10")
def test_CLOSE_10_form_limits_from_yaml(rs):
    """CLOSE-10: strike, kick and disarm name the 'upright' form limit: Garou in Homid,
    Glabro, Crinos only; other races are not limited by it."""
    t = tables(rs)
    for name in ("strike", "kick", "disarm"):
        assert t.maneuver(name).forms == "upright"
        form_allowed(rs, t.maneuver(name), shifter("Garou", "Glabro"))
        with pytest.raises(IllegalAction):
            form_allowed(rs, t.maneuver(name), shifter("Garou", "Hispo"))
    form_allowed(rs, t.maneuver("kick"), shifter("Bastet", "Chatro"))


@pytest.mark.rule("PWR-06")
def test_PWR_06_fera_notes_tables(rs):
    """PWR-06: Corax Athletics -1 in Crinos/Corvid only; Gurahl senses outside Homid; Rokea
    jagged skin in Chasmus/Gladius."""
    assert fera_trait_difficulty(rs, shifter("Corax", "Crinos"), {"Athletics"}) == [
        ("Corax in Crinos (Athletics)", -1)]
    assert fera_trait_difficulty(rs, shifter("Corax", "Homid"), {"Athletics"}) == []
    assert fera_trait_difficulty(rs, shifter("Corax", "Crinos"), {"Brawl"}) == []
    bear = shifter("Gurahl", "Arthren")
    assert [d for _, d in fera_trait_difficulty(rs, bear, {"Perception"}, "smell")] == [-2]
    assert [d for _, d in fera_trait_difficulty(rs, bear, {"Perception"}, "sight")] == [2]
    assert fera_trait_difficulty(rs, shifter("Gurahl", "Homid"), {"Perception"}, "smell") == []
    assert jagged_skin(rs, shifter("Rokea", "Gladius")) == (2, "lethal")
    assert jagged_skin(rs, shifter("Rokea", "Squamus")) is None


@pytest.mark.rule("CLOSE-01")
def test_CLOSE_01_bite_table_matches_the_seed(rs):
    """CLOSE-01: the seed's bite table: extra-damage forms and claw-only / bite-only races."""
    nat = rs.section("maneuvers")["natural_weapons"]
    extra = sorted(f"{race}/{form}" for race, forms in nat.items()
                   for form, row in forms.items() if row.get("bite") == "extra")
    assert extra == ["Ajaba/Crocas", "Bastet/Chatro", "Garou/Hispo", "Gurahl/Bjornen",
                     "Kitsune/Koto", "Nuwisha/Sendeh", "Redcap/*", "Rokea/Chasmus"]
    assert nat["Corax"]["Crinos"] == {"bite": "none", "claw": True}
    assert nat["Kitsune"]["Juko"]["claw"] is False  # not stated: the schema's default
    assert nat["Ananasi"]["Pithus"]["claw"] is True
