"""V5 Impairment for the spotlight ruleset (issue 31): a full Health or Willpower track costs
dice.

V5 core (Health, Willpower: Impairment): a character whose Health track is full is Impaired
and rolls ``penalty`` fewer dice on Physical pools; one whose Willpower track is full rolls
that many fewer on Social and Mental pools. Here the Health track is the seed's Harm track
(full: 0 HP, SPOT-13) and Willpower is the sheet's pool (full: none left). A pool is
Physical, Social or Mental by the category of the traits in it (``traits.categories``).
Every number and name is the ``v5_impairment:`` section; a ruleset without it has none.

Pure: no Evennia import.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable

from ..rules.schema import Int, ListOf, Str, Struct
from .roster import sheet_health

SCHEMA = Struct(
    required={
        "penalty": Int(1, 10),
        "health": Struct(required={"pools_with": ListOf(Str(), min_len=1), "label": Str()}),
        "willpower": Struct(required={"pool": Str(), "pools_with": ListOf(Str(), min_len=1),
                                      "label": Str()}),
    },
    optional={"source": Str()},
)

SECTIONS = MappingProxyType({"v5_impairment": SCHEMA})


@dataclass(frozen=True, slots=True)
class Track:
    label: str  # what the player reads: "Impaired (Health)"
    categories: frozenset[str]  # the trait categories of the pools it weighs on


@dataclass(frozen=True, slots=True)
class Impairment:
    penalty: int
    health: Track
    willpower: Track
    willpower_pool: str

    @classmethod
    def from_ruleset(cls, ruleset) -> "Impairment | None":
        sec = ruleset.section("v5_impairment")
        if not sec:
            return None
        h, w = sec["health"], sec["willpower"]
        return cls(int(sec["penalty"]),
                   Track(str(h["label"]), frozenset(str(c) for c in h["pools_with"])),
                   Track(str(w["label"]), frozenset(str(c) for c in w["pools_with"])),
                   str(w["pool"]))


def rules(ruleset) -> Impairment | None:
    return ruleset.derived(Impairment.from_ruleset)


def willpower_left(sheet, ruleset) -> int | None:
    """The sheet's Willpower left (None: no such pool, so never Impaired by it)."""
    imp = rules(ruleset)
    p = sheet.pools.get(imp.willpower_pool) if imp is not None and sheet is not None else None
    return None if p is None else p.current


def terms(ruleset, traits: Iterable[str], *, health_full: bool,
          willpower_left: int | None) -> list[list]:
    """The penalty terms (``[label, -penalty]``) for a pool of these traits: Health full and
    the pool has a trait of its categories, Willpower at 0 and likewise. None when the
    ruleset has no ``v5_impairment:`` section."""
    imp = rules(ruleset)
    if imp is None:
        return []
    cats = set()
    for name in traits:
        d = ruleset.traits.traits.get(name)
        if d is not None:
            cats.add(d.category)
    out = []
    if health_full and cats & imp.health.categories:
        out.append([imp.health.label, -imp.penalty])
    if willpower_left is not None and willpower_left <= 0 and cats & imp.willpower.categories:
        out.append([imp.willpower.label, -imp.penalty])
    return out


def sheet_terms(ruleset, sheet, traits: Iterable[str]) -> list[list]:
    """``terms`` for a character out of a fight (``+roll``): the Harm track from the sheet
    as a fight would bring it in (SPOT-13), Willpower from its pool."""
    if rules(ruleset) is None or sheet is None:
        return []
    hp_max, superficial, aggravated = sheet_health(sheet, ruleset)
    return terms(ruleset, traits, health_full=hp_max - superficial - aggravated <= 0,
                 willpower_left=willpower_left(sheet, ruleset))
