"""A ruleset that leaves a rule's number out plays by the schema's documented default (issue
32: the number lives in the schema or the core YAML, never in a Python ``.get(key, 3)``).

Each test switches keys off in a child of the core (``ruleset.switch_off``, as a house ruleset
would) and reads the loaded table: the key is there again with the schema's value, and the
engine plays the rule with it. COMP-04, CLOSE-08, RNG-02, DMG-16, MAN-04, CLOSE-14, HEAL-08.
"""

from __future__ import annotations

import pytest

from wodcombat.combat.core.maneuver_schemas import (
    COMPLICATIONS_SCHEMA,
    MANEUVERS_SCHEMA,
    RANGED_SCHEMA,
)
from wodcombat.combat.core.maneuvers import tables
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.d10.reflex_rolls import knockdown_check
from wodcombat.combat.d10.kiss_rules import KISS_SCHEMA
from wodcombat.combat.core.errors import RulesError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.rules.schema import Struct

from .conftest import RULES

OFF = ["complications.knockdown", "maneuvers.multiple_opponents", "ranged.range_bands",
       "defenses.block_lethal_requires", "movement.while_acting"]


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    """v20 with the keys of ``OFF`` switched off: what a ruleset without them loads as."""
    root = tmp_path_factory.mktemp("rules")
    (root / "core").symlink_to(RULES / "core", target_is_directory=True)
    (root / "house").mkdir()
    (root / "house" / "ruleset.yaml").write_text(
        "ruleset:\n  extends: core\n  engine: d10\n  description: house\n"
        f"  switch_off: [{', '.join(OFF)}]\n")
    return load_ruleset(root, "house")


def _default(schema: Struct, key: str) -> dict:
    return schema.complete({})[key] if key in schema.defaults else schema.defaults[key]


@pytest.mark.rule("COMP-04")
def test_COMP_04_knockdown_without_its_table_takes_the_schema_defaults(house):
    """COMP-04: no ``complications.knockdown`` in the YAML: Dexterity + Athletics, -2
    initiative on a success, one unsoakable bashing on a botch (the schema's values)."""
    assert ("complications", "knockdown") not in house.origin  # really left out
    kd = house.section("complications")["knockdown"]
    assert kd == _default(COMPLICATIONS_SCHEMA, "knockdown")
    assert (kd["attribute"], kd["ability"], kd["success_initiative"], kd["botch_damage"],
            kd["botch_type"], kd["botch_soakable"]) == ("Dexterity", "Athletics", -2, 1,
                                                        "bashing", False)
    sheet = Sheet(splat="mortal", traits={"Dexterity": 2, "Athletics": 1})
    botch = knockdown_check(house, sheet, faces=(1, 2, 2))
    assert (botch.damage, botch.damage_type, botch.soakable) == (1, "bashing", False)
    up = knockdown_check(house, sheet, faces=(8, 2, 2))
    assert up.standing and up.initiative_next_turn == -2


@pytest.mark.rule("CLOSE-08")
@pytest.mark.rule("RNG-02")
@pytest.mark.rule("DMG-16")
@pytest.mark.rule("MAN-04")
def test_CLOSE_08_RNG_02_DMG_16_MAN_04_left_out_keys_read_as_documented(house):
    """CLOSE-08 +1 an extra attacker up to 4, RNG-02 point-blank within 2 yards at -2,
    DMG-16 a block against lethal needs the soak, MAN-04 half the run at -1 die a yard."""
    t = tables(house)
    assert t.man["multiple_opponents"] == {"per_extra": 1, "max": 4,
                                           "applies_to": ("attack", "defense")}
    assert t.man["multiple_opponents"] == _default(MANEUVERS_SCHEMA, "multiple_opponents")
    assert t.ranged["range_bands"] == {"point_blank_yards": 2, "point_blank_difficulty": -2,
                                       "beyond_normal_difficulty": 2, "miss_beyond_multiple": 2}
    assert t.ranged["range_bands"] == _default(RANGED_SCHEMA, "range_bands")
    assert t.defenses["block_lethal_requires"] == "soak"
    assert t.movement["while_acting"] == {"max_percent_of_run": 50, "dice_per_yard": -1}


@pytest.mark.rule("CLOSE-14")
def test_CLOSE_14_a_ruleset_without_the_kiss_reads_it_off(house):
    """CLOSE-14: no ``kiss:`` table: the Kiss is off, three blood a turn where it is on."""
    assert house.section("kiss") is None
    assert KISS_SCHEMA.fill({}) == {"enabled": False, "blood_per_turn": 3, "resist": {},
                                    "helpless": ()}


@pytest.mark.rule("HEAL-08")
def test_HEAL_08_a_partial_table_keeps_what_it_states_and_defaults_the_rest():
    """HEAL-08: a ``field_healing.demon`` table naming only its pool gets the seed's reading
    for the rest; a stated key is kept, never overwritten by the default."""
    from wodcombat.combat.d10.field_healing import FIELD_HEALING_SCHEMA

    problems: list = []
    sec = FIELD_HEALING_SCHEMA.check({"demon": {"pool": "Faith", "turns_per_point": 3}}, "",
                                     problems)
    assert problems == []
    assert sec["demon"] == {"pool": "Faith", "turns_per_point": 3, "families": ("demon",),
                            "levels_per_point": 1, "heals": ("bashing", "lethal"),
                            "one_type_at_a_time": True, "damage_interrupts": True,
                            "keep_pool_when_interrupted": True}


@pytest.mark.rule("HLT-07")
def test_HLT_07_wound_movement_without_enabled_is_checked_as_it_is_played(tmp_path):
    """HLT-07: a ``wound_movement`` table that leaves ``enabled`` out is in force (the engine
    limits movement by it), so the load check holds the health levels' ``move`` words to it
    too: an unknown word is refused at load, not silently read as no limit."""
    (tmp_path / "core").symlink_to(RULES / "core", target_is_directory=True)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "ruleset.yaml").write_text(
        "ruleset:\n  extends: core\n  engine: d10\n  description: house\n"
        "  switch_off: [wound_movement.enabled]\n")
    health = (RULES / "core" / "health.yaml").read_text()
    assert 'move: "walk"' in health
    (tmp_path / "house" / "health.yaml").write_text(health.replace('move: "walk"',
                                                                   'move: "limp"'))
    with pytest.raises(RulesError) as err:
        load_ruleset(tmp_path, "house")
    assert "'limp' is not in wound_movement" in str(err.value)


@pytest.mark.parametrize("name", ["numetal", "revised", "everyman", "v20", "spotlight"])
def test_a_checked_table_reads_back_through_its_schema(name):
    """A combat keeps the rules it started with as the YAML of its checked tables, read back
    through the same schemas (wodcombat/world/rulebook.py, issue 4). The defaults a table
    took ("" and null where the YAML must write text) read back as they are: the same data,
    no problem."""
    import yaml

    from wodcombat.combat.rules.ruleset import META
    from wodcombat.combat.rules.sections import SECTIONS

    rs = load_ruleset(RULES, name)
    text = yaml.dump(rs.data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))
    problems: list = []
    again = Struct(optional={"ruleset": META, **SECTIONS}).check(yaml.safe_load(text), "",
                                                                 problems)
    assert problems == []
    assert again == rs.data


@pytest.mark.rule("INIT-05")
@pytest.mark.rule("MAN-05")
@pytest.mark.rule("TURN-08")
@pytest.mark.rule("TURN-10")
def test_INIT_05_MAN_05_TURN_08_TURN_10_the_turn_reads_left_out_keys_from_its_schema(tmp_path):
    """INIT-05 race modifiers on, MAN-05 at most 10 actions declared, TURN-08 a failed abort
    may be bought back at no extra difficulty, TURN-10 no change of action (difficulty 6 where
    a ruleset turns it on): a ruleset that leaves these keys out plays by the turn schema's
    values, which the turn rules read as they are (no Python fallback beside them)."""
    from wodcombat.combat.d10.turn.rules import TurnRules

    (tmp_path / "core").symlink_to(RULES / "core", target_is_directory=True)
    (tmp_path / "house").mkdir()
    off = ["initiative.apply_race_modifiers", "initiative.reroll_each_turn",
           "turns.multiple_actions.max_declared", "turns.abort.spend_after_failure",
           "turns.abort.non_defensive_difficulty", "turns.change", "turns.desperate_defense",
           "turns.powers_in_split"]
    (tmp_path / "house" / "ruleset.yaml").write_text(
        "ruleset:\n  extends: core\n  engine: d10\n  description: house\n"
        f"  switch_off: [{', '.join(off)}]\n")
    house = load_ruleset(tmp_path, "house")
    assert ("turns", "change") not in house.origin  # really left out
    tr = TurnRules.from_ruleset(house)
    assert (tr.apply_race_modifiers, tr.reroll_default, tr.ma_max, tr.desperate_step,
            tr.powers_in_split) == (True, False, 10, 1, True)
    assert (tr.abort["spend_after_failure"], tr.abort["non_defensive_difficulty"]) == (True, 0)
    assert tr.change == {"enabled": False, "difficulty": 6, "spend_after_failure": True}


def test_a_trait_category_or_pool_without_a_range_reads_the_schemas(tmp_path):
    """The sheet's tables: a trait category without ``range`` rates 0-5, a pool without one
    0-10 with a permanent rating; the catalog reads the schema's values, not a Python
    fallback beside them."""
    from wodcombat.combat.core.traits import TraitCatalog

    (tmp_path / "core").symlink_to(RULES / "core", target_is_directory=True)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "ruleset.yaml").write_text(
        "ruleset:\n  extends: core\n  engine: d10\n  description: house\n"
        "  switch_off: [traits.categories.merits.range, pools.Willpower.range]\n")
    house = load_ruleset(tmp_path, "house")
    cat = TraitCatalog.from_ruleset(house)
    merit = cat.traits[house.section("traits")["categories"]["merits"]["names"][0]]
    assert (merit.lo, merit.hi) == (0, 5)
    will = cat.pools["Willpower"]
    assert (will.lo, will.hi, will.has_permanent) == (0, 10, True)
