"""Issue 31: spotlight's resolution is an explicit, switchable READING. Under
``resolution: moves`` (the ruleset spotlight-moves) an action is a move of the YAML table:
2d6 + a stat, 10+ a full success, 7-9 a success at a cost the Storyteller names, 6- a miss;
each weapon a Harm value and a range tag. Against the engine, with exact 2d6 faces.
"""

from __future__ import annotations

import shutil

import pytest

from wodcombat.combat.spotlight import moves as mv
from wodcombat.combat.core import intents as I
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_library, load_ruleset
from tests.engine.test_spotlight_engine import RULES, Run, sheet

ALICE, BOB, RAT, STAFF = "#1", "#2", "#3", "#9"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "spotlight-moves")


@pytest.fixture()
def sheets(rs):
    """Alice: vampire BP 2 (9 HP), Str 3 Dex 2 Wits 1, carries a knife. Rat: a mortal
    (6 HP), Str 1, wears a Kevlar vest (armor 2... the core's rating)."""
    from dataclasses import replace

    alice = sheet(rs, splat="vampire", bp=2, strength=3, dexterity=2, wits=1)
    rat = sheet(rs, strength=1, dexterity=1)
    return {ALICE: replace(alice, weapons=("Knife",)), RAT: rat}


def fight(rs, sheets, band="Hand") -> Run:
    """Alice (init [6 6] + BP 2 = 14) against Rat; everyone at ``band``; round 1 begun."""
    r = Run(rs, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=STAFF, actor=RAT, name="Rat", is_npc=True, controller=STAFF))
    r(I.SetRange(by=STAFF, actor="*", band=band))
    r(I.RollInitiative(by=ALICE), 6, 6)
    r(I.Advance(by=STAFF))
    return r


def act(**action):
    return I.Act(by=ALICE, actor=ALICE, action=action)


# ---------------------------------------------------------------- the reading in the YAML


def test_the_reading_is_in_the_yaml_v5_by_default(rs):
    """spotlight keeps V5 (its default, stated in its turns.yaml); spotlight-moves reads
    moves; the schema fills the default when a ruleset leaves it out."""
    assert mv.resolution(load_ruleset(RULES, "spotlight")) == "v5"
    assert mv.resolution(rs) == "moves"
    assert mv.names(load_ruleset(RULES, "spotlight")) == ()
    assert {"attack", "shoot", "bite", "escape", "read"} <= set(mv.names(rs))
    assert rs.section("spotlight_moves")["example"] is True
    assert mv.resolution(load_ruleset(RULES, "numetal")) is None


# ---------------------------------------------------------------- 10+, 7-9, 6-


@pytest.mark.rule("SPOT-07", "SPOT-10", "SPOT-11")
def test_spot07_full_success_10_plus_marks_the_weapons_harm(rs, sheets):
    """attack with the carried knife: 2d6 [4 3] + Strength 3 = 10, a full success; the
    knife's Harm value 2, Superficial, on Rat (6 HP -> 4)."""
    r = fight(rs, sheets)
    r(act(kind="attack", target=RAT), 4, 3)
    roll = r.last("roll")
    assert (roll["dice"], roll["faces"], roll["stat"], roll["total"], roll["result"]) == (
        "moves", [4, 3], ["Strength", 3], 10, "full")
    assert roll["text"].startswith("The blow lands")
    harm = r.last("harm")
    assert (harm["amount"], harm["kind"], harm["hp_after"]) == (2, "superficial", 4)
    assert r.last("act")["action"]["weapon"] == "knife"
    assert r.state.get(ALICE).cost_owed is None


@pytest.mark.rule("SPOT-07", "SPOT-11")
def test_spot07_partial_7_to_9_marks_harm_and_owes_a_cost_the_organizer_names(rs, sheets):
    """[2 2] + 3 = 7: a success at a cost. The Harm is marked; Alice owes a cost; the
    organizer names it by number (one of the move's costs) and it is cleared."""
    r = fight(rs, sheets)
    r(act(kind="attack", target=RAT), 2, 2)
    roll = r.last("roll")
    assert (roll["total"], roll["result"]) == (7, "partial")
    assert roll["costs"][0] == "you take 1 Superficial Harm in return"
    assert r.last("harm")["hp_after"] == 4
    assert r.state.get(ALICE).cost_owed == "attack"
    assert r.state.get(ALICE).to_dict()["cost_owed"] == "attack"
    r.refused(I.NameCost(by=STAFF, actor=ALICE, text="9"), InputError, "lists 3 cost")
    r(I.NameCost(by=STAFF, actor=ALICE, text="2"))
    cost = r.last("cost")
    assert (cost["actor"], cost["move"], cost["text"]) == (
        ALICE, "attack", "you lose your footing (prone)")
    assert r.state.get(ALICE).cost_owed is None
    r.refused(I.NameCost(by=STAFF, actor=ALICE, text="anything"), IllegalAction,
              "owes no cost")


@pytest.mark.rule("SPOT-07")
def test_spot07_miss_6_or_less_marks_nothing(rs, sheets):
    """[1 2] + 3 = 6: a miss, no Harm, no cost."""
    r = fight(rs, sheets)
    r(act(kind="attack", target=RAT), 1, 2)
    assert (r.last("roll")["total"], r.last("roll")["result"]) == (6, "miss")
    assert not r.of("harm")
    assert r.state.get(RAT).hp == 6 and r.state.get(ALICE).cost_owed is None


@pytest.mark.rule("SPOT-07")
def test_spot07_a_move_without_harm_or_target_rolls_its_own_stat(rs, sheets):
    """read rolls Wits (1): [5 4] + 1 = 10, a full success; nobody is harmed."""
    r = fight(rs, sheets)
    r(act(kind="read"), 5, 4)
    roll = r.last("roll")
    assert (roll["move"], roll["stat"], roll["result"]) == ("read", ["Wits", 1], "full")
    assert not r.of("harm")


@pytest.mark.rule("SPOT-11")
def test_spot11_armor_stops_superficial_and_a_bite_is_aggravated(rs, sheets):
    """Rat in a Kevlar vest: the knife's 2 Superficial is stopped point for point; Alice's
    bite (Intimate) is 2 Aggravated, which bypasses armor (SPOT-11)."""
    from dataclasses import replace

    sheets = {**sheets, RAT: replace(sheets[RAT], armor="Kevlar vest")}
    r = fight(rs, sheets)
    r(act(kind="attack", target=RAT), 6, 6)
    assert r.last("harm")["armor"] == 2 and r.last("harm")["marked"] == 0
    r = fight(rs, sheets, band="Intimate")
    r(act(kind="bite", target=RAT), 6, 6)
    harm = r.last("harm")
    assert (harm["kind"], harm["armor"], harm["marked"]) == ("aggravated", 0, 2)


# ---------------------------------------------------------------- range tags (SPOT-10)


@pytest.mark.rule("SPOT-10")
def test_spot10_a_moves_weapon_is_held_to_its_range_tag(rs, sheets):
    """The knife reaches Hand: at Close the attack is refused, no die rolled, nothing
    changed; the bite needs Intimate; shoot refuses a knife; a gun reaches Close."""
    r = fight(rs, sheets, band="Close")
    r.refused(act(kind="attack", target=RAT), IllegalAction, "knife reaches Intimate to Hand")
    r.refused(act(kind="bite", target=RAT), IllegalAction, "bite reaches Intimate")
    r.refused(act(kind="shoot", target=RAT, weapon="knife"), IllegalAction,
              "shoot takes .*not knife")
    r(act(kind="shoot", target=RAT, weapon="pistol"), 3, 3)  # [3 3] + Dex 2 = 8
    assert r.last("roll")["result"] == "partial"
    assert r.last("harm")["amount"] == 2


@pytest.mark.rule("SPOT-07")
def test_spot07_a_move_that_names_someone_needs_a_target(rs, sheets):
    r = fight(rs, sheets)
    r.refused(act(kind="attack", text="Gooon"), InputError, "'Gooon' is nobody")
    r.refused(act(kind="escape", target=RAT), InputError, "names nobody")


def test_the_v5_reading_ignores_the_moves_table(sheets):
    """Under spotlight (v5) "read" is an action in words, as before: no roll."""
    rs5 = load_ruleset(RULES, "spotlight")
    r = fight(rs5, sheets)
    r(act(kind="read"))
    assert not r.of("roll")


# ---------------------------------------------------------------- the schema


def _house(tmp_path, resolution_line: str, moves: str | None = None):
    root = tmp_path / "rules"
    shutil.copytree(RULES, root)
    house = root / "house"
    house.mkdir()
    (house / "ruleset.yaml").write_text("ruleset:\n  extends: spotlight\n")
    (house / "turns.yaml").write_text(f"spotlight:\n  {resolution_line}\n")
    if moves is not None:
        (house / "moves.yaml").write_text(moves)
    return load_library(root)


def test_a_bad_resolution_is_refused_with_file_line_and_the_choices(tmp_path):
    lib = _house(tmp_path, "resolution: dice")
    (issue,) = lib.refused["house"]
    assert issue.file.endswith("house/turns.yaml") and issue.line == 2
    assert issue.path == "spotlight.resolution"
    assert "one of v5, moves" in issue.message and "'dice'" in issue.message


def test_moves_without_a_table_is_refused(tmp_path):
    lib = _house(tmp_path, "resolution: moves")
    (issue,) = lib.refused["house"]
    assert issue.path == "spotlight.resolution" and "spotlight_moves" in issue.message


BAD_MOVES = """spotlight_moves:
  moves:
    lunge:
      stat: Strenght
      target: true
      harm: true
      full: "hit"
      miss: "no"
  harm:
    unarmed: {harm: 1}
"""


def test_a_move_needs_stat_and_all_three_results_and_weapons_their_harm(tmp_path):
    """Every move: a stat of the sheet, and what 10+ / 7-9 / 6- do; every weapon tag a
    Harm value. Each error names the file and key; the defaults (2d6, 10, 7) come from the
    schema."""
    lib = _house(tmp_path, "resolution: moves", BAD_MOVES)
    issues = lib.refused["house"]
    text = "\n".join(str(i) for i in issues)
    assert "spotlight_moves.moves.lunge.partial" in text and "missing" in text
    assert all(i.file.endswith("house/moves.yaml") for i in issues), text
    fixed = BAD_MOVES.replace('      miss: "no"', '      partial: "hit, cost"\n'
                              '      miss: "no"')
    lib = _house(tmp_path / "b", "resolution: moves", fixed)
    text = "\n".join(str(i) for i in lib.refused["house"])
    assert "'Strenght' is not a trait or pool" in text
    assert "weapon tag 'knife' has no Harm value" in text
    good = fixed.replace("Strenght", "Strength").replace(
        "    unarmed: {harm: 1}", "\n".join(
            f"    {t}: {{harm: 1}}" for t in (
                "unarmed", "fists", "claws", "knife", "stake", "sword", "club", "axe",
                "spear", "thrown", "pistol", "shotgun", "smg", "rifle", "sniper rifle",
                "bow", "crossbow")))
    lib = _house(tmp_path / "c", "resolution: moves", good)
    assert "house" in lib.rulesets, lib.refused.get("house")
    sec = lib.rulesets["house"].section("spotlight_moves")
    assert (sec["dice"], sec["sides"], sec["full_at"], sec["partial_at"]) == (2, 6, 10, 7)
    assert sec["moves"]["lunge"]["harm"] is True
    assert sec["harm"]["knife"]["kind"] == "superficial"
