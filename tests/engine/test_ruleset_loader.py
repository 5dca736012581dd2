"""Rules loading: validation, every error named by file/key/line, extends, no half-loads."""

import pathlib
import shutil

import pytest

from combat.errors import RulesError
from combat.ruleset import load_library, load_ruleset

from .conftest import RULES


@pytest.fixture
def rules_copy(tmp_path):
    dst = tmp_path / "rules"
    shutil.copytree(RULES / "numetal", dst / "numetal")
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
    assert "unknown parent" in lib.refused["c"][0].message


def test_child_error_points_at_child_file(rules_copy):
    write(
        rules_copy / "house" / "ruleset.yaml",
        "ruleset:\n  extends: numetal\ndice:\n  max_difficulty: eleventy\n",
    )
    lib = load_library(rules_copy)
    (issue,) = lib.refused["house"]
    assert issue.file.endswith("house/ruleset.yaml") and issue.line == 4


def test_cross_table_reference_checked(rules_copy):
    text = (rules_copy / "numetal" / "splats.yaml").read_text()
    write(
        rules_copy / "numetal" / "splats.yaml",
        text.replace("pools: [Willpower, Blood]", "pools: [Willpower, Bloood]", 1),
    )
    lib = load_library(rules_copy)
    assert any("Bloood" in i.message for i in lib.refused["numetal"])


def test_section_defined_twice_in_one_folder(rules_copy):
    write(rules_copy / "numetal" / "zz_extra.yaml", "dice:\n  sides: 10\n")
    lib = load_library(rules_copy)
    assert any("already defined" in i.message for i in lib.refused["numetal"])


def test_yaml_boolean_key_is_reported_not_crashing(rules_copy):
    """`off:` as a key is a boolean in YAML 1.1; the loader must name it, not crash."""
    write(rules_copy / "house" / "ruleset.yaml",
          "ruleset:\n  extends: numetal\ntraits:\n  aliases:\n    off: Dexterity\n")
    lib = load_library(rules_copy)
    (issue,) = lib.refused["house"]
    assert "quotes" in issue.message and issue.path == "traits.aliases.False"
