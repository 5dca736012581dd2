"""The top-level sections a ruleset may hold, and the checks that span sections.

A new table means: a schema beside the code that reads it, one line here.
"""

from __future__ import annotations

from . import dice, health, traits
from .errors import RuleIssue

SECTIONS = {
    "dice": dice.SCHEMA,
    "traits": traits.TRAITS_SCHEMA,
    "pools": traits.POOLS_SCHEMA,
    "splats": traits.SPLATS_SCHEMA,
    "health": health.SCHEMA,
}


def cross_check(ruleset) -> list[RuleIssue]:
    """Problems no single section shows: names one table uses that another must define."""
    problems = list(ruleset.traits.problems())
    d = ruleset.dice
    if d.min_difficulty > d.max_difficulty:
        problems.append(("dice.min_difficulty", "is above max_difficulty"))
    if not d.min_difficulty <= d.base_difficulty <= d.max_difficulty:
        problems.append(("dice.base_difficulty", "is outside min_difficulty..max_difficulty"))
    return [RuleIssue("", path, msg) for path, msg in problems]
