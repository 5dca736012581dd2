"""Each ruleset's catalog statement against the rules catalog's "where" column (issues 10, 31).

The catalog (a copy in tests/data, checked against ../shared when that is present) names,
for every rule, the seeds that state it: by name ("numetal, revised") or as "all d10" (the
rulesets share it; a seed states it only if its text does). A ruleset has every rule of its
seed and of "all d10"; a rule it marks ``seed:`` is one its seed states (named in the
"where" column, or quoted from the seed's text in ``STATED`` below); any other rule it has
is a book rule the shared core carries, with the page of the book it names, or this game's
own (``game:``). So no house rule of numetal's reaches another ruleset, and no ruleset
claims for its seed what the seed does not say.
"""

import pathlib
import re

import pytest

from wodcombat.combat.rules.catalog import _lookup, check, statement
from wodcombat.combat.rules.ruleset import load_library

from .conftest import RULES

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "rules-catalog.md"
SHARED = pathlib.Path(__file__).resolve().parents[3] / "shared" / "rules-catalog.md"
SEED_DIR = SHARED.parent / "seeds"
D10 = ("numetal", "revised", "everyman", "v20")
SEEDS = {"numetal": "000", "revised": "001", "everyman": "002", "v20": "003", "spotlight": "004",
         "spotlight-moves": "004"}  # issue 31: spotlight with the moves reading
BOOKS = r"V20|W20|M20|C20|CB20|DtF|KoTE|VtM|WtA|MtA"


def where_columns(path: pathlib.Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(rule ID -> rulesets that have it, rule ID -> rulesets whose seed the "where" column
    names): "all d10" gives every d10 ruleset the rule without naming a seed."""
    have, named = {}, {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*([A-Z]{3,5}-\d{2})\s*\|(.*)\|\s*$", line)
        if not m:
            continue
        rid, cells = m.group(1), [c.strip() for c in m.group(2).split("|")]
        if rid.startswith("SPOT-"):
            have[rid] = named[rid] = {"spotlight", "spotlight-moves"}
            continue
        where = cells[1].lower() if len(cells) > 1 else ""
        named[rid] = {r for r in D10 if re.search(rf"\b{r}\b", where)}
        generic = "all d10" in where or "every ruleset" in where
        have[rid] = set(D10) if generic else set(named[rid])
    return have, named


WHERE, NAMED = where_columns(DATA)
LIB = load_library(RULES)

# Rules the "where" column gives every d10 ruleset ("all d10") that a seed does state, each
# with the seed's own words (checked against the seed's text when ../shared is present).
STATED = {
    "numetal": {
        "ATK-01": "Without a weapon: Dexterity + Brawl",
        "ATK-05": "With a gun: Dexterity + Firearms",
        "CLOSE-03": "Clinch / Grapple",
        "CLOSE-07": "Kick\n\n• Dexterity + Brawl, +1 difficulty",
        "CLOSE-11": "Sweep\n\n• Dexterity + Brawl (leg) or Melee (weapon)",
        "COMP-01": "Attacking a blinded target: +2 dice",
        "COMP-02": "Dazed / Stunned",
        "COMP-03": "Attacking a partly immobilized target: +2 dice",
        "COMP-04": "Knockdown\n\n• Dexterity + Athletics (reflex)",
        "DEF-01": "Block\n\n• Dexterity + Brawl",
        "DEF-03": "Parry\n\n• Dexterity + Melee",
        "DICE-01": "Typical base difficulty for all rolls is 6.",
        "DICE-07": "If you don't have Brawl, roll Dexterity at normal difficulty",
        "DMG-01": "Attacker rolls damage",
        "DMG-02": "add 1 damage die for each one beyond the first",
        "DMG-03": "Each of the target's successes cancels one of the attacker's successes",
        "DMG-04": "Target rolls soak",
        "DMG-18": "Race\tBashing\tLethal\tAggravated",
        "HLT-01": "1\tBruised\tnone",
        "HLT-02": "Health 0 -> incapacitated",
        "MAN-02": "Flank attacks / Rear attacks",
        "MAN-04": "Movement while performing another action",
        "MAN-05": "If you declare N actions, then subtract N dice from the first",
        "MAN-10": "Medium (arm, leg, briefcase): +1 difficulty",
        "MAN-12": "Blind fighting / Blind firing",
        "RNG-05": "Within 2 yards (point-blank): -2 difficulty",
    },
    "revised": {
        "ATK-01": "Without a weapon: Dexterity + Brawl",
        "ATK-05": "With a gun: Dexterity + Firearms",
        "CLOSE-03": "Clinch / Grapple",
        "CLOSE-07": "Kick\n\n• Dexterity + Brawl, +1 difficulty",
        "CLOSE-11": "Sweep\n\n• Dexterity + Brawl (leg) or Melee (weapon)",
        "COMP-01": "Attacking a blinded target: +2 dice",
        "COMP-02": "Dazed / Stunned",
        "COMP-03": "Attacking a partly immobilized target: +2 dice",
        "COMP-04": "Knockdown\n\n• Dexterity + Athletics (reflex)",
        "DEF-01": "Block\n\n• Dexterity + Brawl",
        "DEF-03": "Parry\n\n• Dexterity + Melee",
        "DICE-07": "If you don't have Brawl, roll Dexterity at normal difficulty",
        "DMG-01": "Attacker rolls damage",
        "DMG-02": "add 1 damage die for each one beyond the first",
        "DMG-03": "Each of the target's successes cancels one of the attacker's successes",
        "DMG-04": "Target rolls soak\n\n• Reflex\n• A botch just counts as a failure",
        "DMG-18": "Race\tBashing\tLethal\tAggravated",
        "HLT-01": "1\tBruised\tnone",
        "HLT-02": "Health 0 -> incapacitated",
        "MAN-02": "Flank attacks / Rear attacks",
        "MAN-04": "Movement while performing another action",
        "MAN-05": "If you declare N actions, then subtract N dice from the first",
        "MAN-10": "Medium (arm, leg, briefcase): +1 difficulty",
        "MAN-12": "Blind fighting / Blind firing",
        "RNG-05": "Within 2 yards (point-blank): -2 difficulty",
    },
    "everyman": {
        "CLOSE-03": "Clinch - This is a grab or pin like move.",
        "CLOSE-07": "Kick - This is a heavier attack",
        "CLOSE-11": "Sweep - This attack is when a person",
        "COMP-01": "Attacking Blind - If a character attacks blindly",
        "COMP-02": "Dazing - If a character, after soaking",
        "COMP-03": "if successful the target is immobilized",
        "DEF-01": "Abort actions are Dodge, Block and Parry",
        "DEF-03": "If you parry an attack with a weapon",
        "DICE-01": "within the listed range of the weapon the difficulty is 6",
        "DMG-01": "add a die for the damage roll",
        "DMG-02": "All successes on an attack roll past the first success add a die",
        "DMG-03": "any successes on a defensive action removes successes from the attack",
        "DMG-18": "The three types of damage is Bashing, Lethal and Aggravated",
        "MAN-04": "Characters can move a full half of theirr movement rate",
        "MAN-05": "She first must subtract 3 dice (for 3 actions)",
        "MAN-10": "Targeting - A character can target a particular",
        "MAN-12": "Attacking Blind - If a character attacks blindly",
        "RNG-05": "considered point blank and the difficulty is 4",
    },
    "v20": {
        "COMP-01": "Blinded: Add two dice to attack rolls made against a blinded target.",
        "COMP-02": "Dazed: If, in a single attack, the attacker rolls",
        "COMP-03": "Immobilization: Add two dice to attack rolls",
        "COMP-04": "Knockdown: Quite simply, the victim falls down.",
        "DICE-01": "Maneuvers are typically performed versus difficulty 6.",
        "DICE-07": "default to its base Attribute",
        "MAN-02": "Flank and Rear Attacks: Characters attacking targets from the flank",
        "MAN-04": "A character may move half of her running distance",
        "MAN-05": "Multiple Actions: If you declare multiple actions",
        "MAN-10": "Targeting: Aiming for a specific location incurs an added difficulty",
        "MAN-12": "Blind Fighting/Fire: Staging attacks while blind",
    },
}

# Carries whose book page we do not have: the citation names the book and the section; the
# page needs the book itself (issue 31, finding 7, left open).
UNPAGED = {"DEF-05", "MAN-03", "MAN-09", "PWR-06"}


def test_the_catalog_copy_is_the_shared_catalog():
    if not SHARED.exists():
        pytest.skip("../shared is not beside this checkout")
    assert DATA.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8"), (
        "tests/data/rules-catalog.md is out of date: copy ../shared/rules-catalog.md over it")


def test_every_catalog_rule_is_read():
    assert len(WHERE) == 138
    assert all(WHERE.values()), [r for r, w in WHERE.items() if not w]


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_ruleset_statement_matches_the_catalog(name):
    """Every rule the ruleset's seed is named for is on and marked with that seed; every rule
    "all d10" gives it is on; every other rule it has is a book rule carried by the core with
    its citation, or this game's own."""
    ruleset = LIB.rulesets[name]
    lines = {line.id: line for line in statement(ruleset)}
    expected = {rid for rid, names in WHERE.items() if name in names}
    missing = sorted(expected - set(lines))
    assert not missing, f"{name} lacks rules its seed states: {missing}"
    named = {rid for rid, names in NAMED.items() if name in names}
    unmarked = sorted(r for r in named if SEEDS[name] not in (lines[r].seed or ""))
    assert not unmarked, f"{name}: rules its seed states without seed: {SEEDS[name]}: {unmarked}"
    extra = {rid: line for rid, line in lines.items() if rid not in expected}
    leaks = sorted(rid for rid, line in extra.items()
                   if not line.game and (not line.carried or not line.book))
    assert not leaks, f"{name} has rules its seed does not state and no book carries: {leaks}"
    core = {line.id for line in statement(LIB.rulesets["core"])}
    assert set(extra) <= core, sorted(set(extra) - core)


@pytest.mark.parametrize("name", D10)
def test_a_rule_marked_as_the_seeds_own_is_stated_by_that_seed(name):
    """Issue 31, finding 7: seed: is claimed only where the "where" column names the seed, or
    the seed's own words are quoted in STATED (v20 marked twenty "all d10" rules as seed
    003's, which states none of them)."""
    marked = {line.id for line in statement(LIB.rulesets[name]) if line.seed}
    named = {rid for rid, names in NAMED.items() if name in names}
    unstated = sorted(marked - named - set(STATED[name]))
    assert not unstated, f"{name} marks as seed {SEEDS[name]}'s rules it does not state: " \
                         f"{unstated} (carry them from the core, or quote the seed in STATED)"
    assert not set(STATED[name]) - marked, sorted(set(STATED[name]) - marked)


@pytest.mark.parametrize("name", D10)
def test_the_seed_words_quoted_are_in_the_seed(name):
    if not SEED_DIR.exists():
        pytest.skip("../shared/seeds is not beside this checkout")
    (path,) = SEED_DIR.glob(f"{SEEDS[name]}_*.txt")
    text = path.read_text(encoding="utf-8")
    absent = {rid: words for rid, words in STATED[name].items() if words not in text}
    assert not absent, f"not in seed {SEEDS[name]}: {absent}"


@pytest.mark.parametrize("name", sorted(SEEDS) + ["core"])
def test_every_carry_cites_a_page_of_the_book_it_names(name):
    """Issue 31, finding 7: a carried rule names its book with a page ("V20 p. 284-285"),
    each book it names (DMG-09: W20 and CB20 both)."""
    bad = []
    for line in statement(LIB.get(name, bases=True)):
        if not line.carried or line.id in UNPAGED:
            continue
        books = re.findall(rf"\b({BOOKS})\b(?! p\. \d)", line.book or "")
        if not line.book or not re.search(rf"\b({BOOKS}) p\. \d", line.book) or books:
            bad.append((line.id, line.book))
    assert not bad, f"{name}: carries without a page of the book they name: {bad}"


def test_the_carries_left_without_a_page_are_still_unpaged():
    """When a page is found for one, it leaves UNPAGED (the list only shrinks)."""
    core = {line.id: line.book for line in statement(LIB.get("core", bases=True))}
    paged = sorted(rid for rid in UNPAGED
                   if not re.findall(rf"\b({BOOKS})\b(?! p\. \d)", core[rid]))
    assert not paged, f"these carries cite pages now: drop them from UNPAGED: {paged}"


@pytest.mark.parametrize("name", D10)
def test_no_ruleset_lists_a_rule_its_own_files_switch_off(name):
    """Issue 31, finding 7 (revised listed DMG-06 and DMG-07 though its soak table drops
    them): a rule carried unchanged from the core keeps the core's values; where the
    ruleset's own files change a carried rule's key, a rule its seed states must list that
    key (or one beneath it), else the change switches the carried rule off and the ruleset
    must say so (ruleset.switch_off)."""
    ruleset, core = LIB.rulesets[name], LIB.get("core", bases=True)
    cat = ruleset.section("catalog") or {}
    stated = [k for line in statement(ruleset) if line.seed
              for k in cat[line.id].get("keys") or ()]
    wrong = []
    for line in statement(ruleset):
        if not line.carried:
            continue
        for key in cat[line.id].get("keys") or ():
            if _lookup(ruleset.data, key) == _lookup(core.data, key):
                continue
            if not any(k == key or k.startswith(key + ".") for k in stated):
                wrong.append((line.id, key))
    assert not wrong, f"{name} carries rules its own files change: {wrong}"


@pytest.mark.parametrize("name", sorted(SEEDS) + ["core"])
def test_every_catalog_entry_key_exists_in_its_tables(name):
    assert check(LIB.get(name, bases=True)) == []


def test_everyman_range_keys_are_the_range_bands():
    """Issue 31, finding 7: everyman's RNG-05 pointed at ranged.two_weapons (RNG-09's)."""
    (line,) = [x for x in statement(LIB.rulesets["everyman"]) if x.id == "RNG-05"]
    assert [path for path, _, _ in line.values] == ["ranged.range_bands"]


def test_the_idle_timeout_is_listed_as_this_games_own():
    """Issue 31, finding 7: the idle timeout is in no seed; it reaches every d10 ruleset as
    this game's own rule (GAME-01), not under DEF-04."""
    for name in D10:
        lines = {x.id: x for x in statement(LIB.rulesets[name])}
        assert lines["GAME-01"].game and not lines["GAME-01"].carried
        assert all(not p.startswith("turns.idle") for p, _, _ in lines["DEF-04"].values)
    assert "GAME-01" not in {x.id for x in statement(LIB.rulesets["spotlight"])}


def test_no_house_rule_reaches_another_ruleset():
    """The rules only numetal's seed states and the core does not carry stay numetal's."""
    core = {line.id for line in statement(LIB.rulesets["core"])}
    house = {rid for rid, names in WHERE.items() if names == {"numetal"}} - core
    assert {"INIT-04", "INIT-05", "TURN-05", "DICE-06", "PWR-02", "PWR-04"} <= house
    for name in ("revised", "everyman", "v20", "spotlight", "spotlight-moves"):
        have = {line.id for line in statement(LIB.rulesets[name])}
        assert not have & house, (name, sorted(have & house))


def test_core_carries_cite_a_book():
    for line in statement(LIB.rulesets["core"]):
        assert line.game or (line.book and re.search(rf"\b({BOOKS})\b", line.book)), line


def test_statement_values_point_at_the_files_they_come_from():
    """DMG-15's values in everyman come from the core's damage.yaml (a carried book rule)."""
    lines = {line.id: line for line in statement(LIB.rulesets["everyman"])}
    dmg15 = lines["DMG-15"]
    assert dmg15.carried and "284" in dmg15.book
    assert any(where.startswith("rules/core/damage.yaml:") for _, _, where in dmg15.values)
