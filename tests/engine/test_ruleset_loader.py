"""Rules loading: validation, every error named by file/key/line, extends, no half-loads."""

import pathlib
import shutil

import pytest

from wodcombat.combat.core.errors import RulesError
from wodcombat.combat.rules.ruleset import load_library, load_ruleset

from .conftest import RULES


@pytest.fixture
def rules_copy(tmp_path):
    dst = tmp_path / "rules"
    shutil.copytree(RULES / "numetal", dst / "numetal")
    shutil.copytree(RULES / "core", dst / "core")
    return dst


def write(path: pathlib.Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_shipped_rules_all_load():
    lib = load_library(RULES)
    assert not lib.refused, lib.issues
    assert "numetal" in lib.rulesets


def test_syntax_error_names_file_and_line(rules_copy):
    write(rules_copy / "numetal" / "dice.yaml", "dice:\n  sides: 10\n  base_difficulty: [6\n")
    lib = load_library(rules_copy)
    assert "numetal" not in lib.rulesets
    (issue,) = lib.refused["numetal"]
    assert issue.file.endswith("numetal/dice.yaml") and issue.line
    assert "syntax" in issue.message


def test_wrong_types_are_all_reported_with_key_paths(rules_copy):
    write(
        rules_copy / "numetal" / "dice.yaml",
        "dice:\n  base_difficulty: six\n  ones_cancel: maybe\n  bogus: 1\n",
    )
    with pytest.raises(RulesError) as err:
        load_ruleset(rules_copy, "numetal")
    paths = {i.path: i for i in err.value.issues}
    assert {"dice.base_difficulty", "dice.ones_cancel", "dice.bogus"} <= set(paths)
    assert paths["dice.base_difficulty"].line == 2
    assert "whole number" in paths["dice.base_difficulty"].message
    assert "unknown key" in paths["dice.bogus"].message


def test_child_states_only_differences(rules_copy):
    write(
        rules_copy / "house" / "ruleset.yaml",
        "ruleset:\n  extends: numetal\ndice:\n  base_difficulty: 7\n",
    )
    lib = load_library(rules_copy)
    house = lib.rulesets["house"]
    assert house.parent == "numetal"
    assert house.dice.base_difficulty == 7
    assert house.dice.max_difficulty == 10  # inherited
    assert house.traits.resolve("dex") == "Dexterity"


def test_unknown_parent_and_cycles_are_refused_others_keep_working(rules_copy):
    write(rules_copy / "a" / "ruleset.yaml", "ruleset:\n  extends: b\n")
    write(rules_copy / "b" / "ruleset.yaml", "ruleset:\n  extends: a\n")
    write(rules_copy / "c" / "ruleset.yaml", "ruleset:\n  extends: nowhere\n")
    lib = load_library(rules_copy)
    assert "numetal" in lib.rulesets
    assert "cycle" in str(lib.refused["a"][0]) or "cycle" in str(lib.refused["b"][0])
    assert "the parent ruleset 'nowhere' is missing" in lib.refused["c"][0].message


def test_child_error_points_at_child_file(rules_copy):
    write(
        rules_copy / "house" / "ruleset.yaml",
        "ruleset:\n  extends: numetal\ndice:\n  max_difficulty: eleventy\n",
    )
    lib = load_library(rules_copy)
    (issue,) = lib.refused["house"]
    assert issue.file.endswith("house/ruleset.yaml") and issue.line == 4


def test_cross_table_reference_checked(rules_copy):
    text = (rules_copy / "core" / "splats.yaml").read_text()
    write(
        rules_copy / "core" / "splats.yaml",
        text.replace("pools: [Willpower, Blood]", "pools: [Willpower, Bloood]", 1),
    )
    lib = load_library(rules_copy)
    assert any("Bloood" in i.message for i in lib.refused["core"])


def test_section_defined_twice_in_one_folder(rules_copy):
    write(rules_copy / "core" / "zz_extra.yaml", "dice:\n  sides: 10\n")
    lib = load_library(rules_copy)
    assert any("already defined" in i.message for i in lib.refused["core"])


def test_yaml_boolean_key_is_reported_not_crashing(rules_copy):
    """`off:` as a key is a boolean in YAML 1.1; the loader must name it, not crash."""
    write(rules_copy / "house" / "ruleset.yaml",
          "ruleset:\n  extends: numetal\ntraits:\n  aliases:\n    off: Dexterity\n")
    lib = load_library(rules_copy)
    (issue,) = lib.refused["house"]
    assert "quotes" in issue.message and issue.path == "traits.aliases.False"


# ---------------------------------------------------------------- issue 10: the shared core


def test_duplicate_key_is_refused_with_both_lines(rules_copy):
    """PyYAML would keep the last value silently; the loader names the key and both lines."""
    write(rules_copy / "house" / "ruleset.yaml",
          "ruleset:\n  extends: numetal\ndice:\n  base_difficulty: 7\n  max_difficulty: 9\n"
          "  base_difficulty: 5\n")
    (issue,) = load_library(rules_copy).refused["house"]
    assert issue.file.endswith("house/ruleset.yaml") and issue.line == 6
    assert issue.path == "dice.base_difficulty"
    assert "duplicate key" in issue.message and "line 4" in issue.message


def test_broken_parent_is_reported_once_children_name_it(rules_copy):
    """A table missing from the core is named in the core; numetal only says its parent has
    errors, instead of repeating the core's problem as its own."""
    (rules_copy / "core" / "traits.yaml").unlink()
    lib = load_library(rules_copy)
    assert any("'traits:' table is missing" in i.message for i in lib.refused["core"])
    (child,) = lib.refused["numetal"]
    assert child.file.endswith("numetal/ruleset.yaml") and child.path == "ruleset.extends"
    assert "parent ruleset 'core' has errors" in child.message


def test_switch_off_an_inherited_table_entry_and_a_rule(rules_copy):
    """A child removes what it inherits by key path or by rule ID; its own files then add."""
    write(rules_copy / "house" / "ruleset.yaml",
          "ruleset:\n  extends: numetal\n  switch_off: [time_powers.powers.Quicksilver, "
          "INIT-05]\n")
    house = load_library(rules_copy).rulesets["house"]
    assert "Quicksilver" not in house.data["time_powers"]["powers"]
    assert "Distort Time" in house.data["time_powers"]["powers"]
    assert "INIT-05" not in house.data["catalog"] and "INIT-01" in house.data["catalog"]


def test_switch_off_something_not_inherited_is_an_error(rules_copy):
    write(rules_copy / "house" / "ruleset.yaml",
          "ruleset:\n  extends: numetal\n  switch_off: [time_powers.powers.Nope, SPOT-01]\n")
    issues = load_library(rules_copy).refused["house"]
    text = " ".join(i.message for i in issues)
    assert "nothing named 'time_powers.powers.Nope' to switch off" in text
    assert "no rule SPOT-01 to switch off" in text


def test_a_base_is_not_played(rules_copy):
    from wodcombat.combat.core.errors import InputError

    lib = load_library(rules_copy)
    assert lib.rulesets["core"].is_base and not lib.rulesets["numetal"].is_base
    assert lib.playable == ["numetal"]
    with pytest.raises(InputError, match="shared base"):
        lib.get("core")
    assert lib.get("core", bases=True).name == "core"
