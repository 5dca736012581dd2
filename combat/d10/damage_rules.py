"""What every hit reads of the ``damage:``, ``soak:`` and ``health:`` sections, read once when
the ruleset is first asked and kept on it (``Ruleset.derived``), frozen: a hit reads
attributes instead of walking the sections' mappings again (issue 32, engine speed).

The values are the sections' own (their schema states the defaults,
combat/d10/damage_tables.py); nothing here adds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ..core.health import Level
from .damage_tables import levels_of, require_section


@dataclass(frozen=True, slots=True)
class DamageRules:
    damage_can_botch: bool  # DMG-01
    soak_can_botch: bool  # DMG-04
    halve_after_soak: Mapping[str, tuple[str, ...]]  # DMG-15: family -> halved types
    armor_damaged_at: int | None  # DMG-12: pre-soak damage >= this x rating (None: never)
    health_pool: Mapping[str, str]  # DMG-14: splat or family -> the pool that is health
    levels: tuple[Level, ...]  # HLT-01: the track's levels
    daze_trait: str  # COMP-02: the trait the successes after soak are held against
    daze_at_least: bool  # COMP-02: "equal to or over" (everyman) rather than "over"
    # COMP-02: the margin over the trait for each splat the ruleset names (the rest ask
    # ``daze_margin``)
    daze_margins: Mapping[str, int]
    dazed_table: Mapping  # the ``dazed:`` table, for a splat not named
    daze_families: tuple[str, ...] | None  # None: the splat's "supernatural" flag decides


def damage_rules(ruleset) -> DamageRules:
    """The ruleset's ``DamageRules``, built on its first ask."""
    return ruleset.derived(_build)


def _build(ruleset) -> DamageRules:
    dsec = require_section(ruleset, "damage")
    armor = require_section(ruleset, "soak")["armor"]
    dazed = dsec["dazed"]
    families = dazed.get("supernatural_families")  # optional: null means by splat flag
    families = None if families is None else tuple(families)
    return DamageRules(
        damage_can_botch=dsec["damage_can_botch"], soak_can_botch=dsec["soak_can_botch"],
        halve_after_soak=MappingProxyType({k: tuple(v) for k, v in
                                           dsec["halve_after_soak"].items()}),
        armor_damaged_at=armor["damaged_at_multiple"],
        health_pool=MappingProxyType(dict(dsec.get("health_pool") or {})),
        levels=ruleset.derived(levels_of),
        daze_trait=dazed["trait"], daze_at_least=dazed["compare"] == "at_least",
        daze_margins=MappingProxyType({s: _margin(ruleset, dazed, families, s)
                                       for s in ruleset.traits.splats}),
        dazed_table=MappingProxyType(dict(dazed)), daze_families=families)


def _margin(ruleset, dazed: Mapping, families: tuple[str, ...] | None, splat: str) -> int:
    """COMP-02: Stamina for mortals (and ghouls, "mortal+"), Stamina + 2 for
    supernaturals: the margin of ``splat`` (``dazed``: the section's ``dazed:`` table)."""
    if families is None:
        spec = ruleset.traits.splats.get(splat) or {}
        supernatural = spec.get("supernatural") == "yes"
    else:
        supernatural = ruleset.traits.family(splat) in families
    return dazed["supernatural_margin"] if supernatural else dazed["mortal_margin"]


def daze_margin(ruleset, splat: str, rules: DamageRules | None = None) -> int:
    """COMP-02: the margin over the daze trait for a sheet of ``splat`` (``rules``: the
    ruleset's ``DamageRules`` when the caller has them)."""
    if rules is None:
        rules = damage_rules(ruleset)
    margin = rules.daze_margins.get(splat)
    if margin is None:
        return _margin(ruleset, rules.dazed_table, rules.daze_families, splat)
    return margin
