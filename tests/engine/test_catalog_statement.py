"""Each ruleset's catalog statement against the rules catalog's "where" column (issue 10).

The catalog (a copy in tests/data, checked against ../shared when that is present) names,
for every rule, the seeds that state it. A ruleset must have every rule its own seed
states, marked with that seed; any other rule it has must be a book rule the shared core
carries, with its citation. So no house rule of numetal's reaches another ruleset.
"""

import pathlib
import re

import pytest

from wodcombat.combat.catalog import statement
from wodcombat.combat.ruleset import load_library

from .conftest import RULES

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "rules-catalog.md"
SHARED = pathlib.Path(__file__).resolve().parents[3] / "shared" / "rules-catalog.md"
D10 = ("numetal", "revised", "everyman", "v20")
SEEDS = {"numetal": "000", "revised": "001", "everyman": "002", "v20": "003", "spotlight": "004",
         "spotlight-moves": "004"}  # issue 31: spotlight with the moves reading


def where_column(path: pathlib.Path) -> dict[str, set[str]]:
    """Rule ID -> the rulesets whose seeds state it, read from the "where" column."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*([A-Z]{3,5}-\d{2})\s*\|(.*)\|\s*$", line)
        if not m:
            continue
        rid, cells = m.group(1), [c.strip() for c in m.group(2).split("|")]
        if rid.startswith("SPOT-"):
            out[rid] = {"spotlight", "spotlight-moves"}
            continue
        where = cells[1].lower() if len(cells) > 1 else ""
        names = set(D10) if ("all d10" in where or "every ruleset" in where) else set()
        names |= {r for r in D10 if re.search(rf"\b{r}\b", where)}
        out[rid] = names
    return out


WHERE = where_column(DATA)
LIB = load_library(RULES)


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
    """Every rule the ruleset's seed states is on and marked with that seed; every other rule
    it has is a book rule carried by the core with its citation."""
    ruleset = LIB.rulesets[name]
    lines = {line.id: line for line in statement(ruleset)}
    expected = {rid for rid, names in WHERE.items() if name in names}
    missing = sorted(expected - set(lines))
    assert not missing, f"{name} lacks rules its seed states: {missing}"
    unmarked = sorted(r for r in expected if SEEDS[name] not in (lines[r].seed or ""))
    assert not unmarked, f"{name}: rules its seed states without seed: {SEEDS[name]}: {unmarked}"
    extra = {rid: line for rid, line in lines.items() if rid not in expected}
    leaks = sorted(rid for rid, line in extra.items() if not line.carried or not line.book)
    assert not leaks, f"{name} has rules its seed does not state and no book carries: {leaks}"
    core = {line.id for line in statement(LIB.rulesets["core"])}
    assert set(extra) <= core, sorted(set(extra) - core)


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
        assert line.book and re.search(r"\b(V20|W20|M20|C20|CB20|DtF|KoTE)\b", line.book), line


def test_statement_values_point_at_the_files_they_come_from():
    """DMG-15's values in everyman come from the core's damage.yaml (a carried book rule)."""
    lines = {line.id: line for line in statement(LIB.rulesets["everyman"])}
    dmg15 = lines["DMG-15"]
    assert dmg15.carried and "284" in dmg15.book
    assert any(where.startswith("rules/core/damage.yaml:") for _, _, where in dmg15.values)
