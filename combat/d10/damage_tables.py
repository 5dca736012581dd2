"""The damage, soak and shifters tables (``rules/*/damage.yaml``, ``soak.yaml``,
``shifters.yaml``): their schemas, the load-time checks across them, and the conditions a
hit can leave (HLT-04/05): ok, incapacitated, unconscious, torpor, rage_active, reverted,
dying, dead. rage_active / reverted / dying die on any further damage; dying is "dead
unless it Rage-heals now" (``healing.rage_heal``). Also the two reads every damage module
shares: ``require_section`` and a sheet's health track (``track_of``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ..core.errors import RuleIssue, RulesError
from ..core.health import DAMAGE_TYPES, HealthTrack
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.sheet import Sheet



OK = "ok"


INCAPACITATED = "incapacitated"


UNCONSCIOUS = "unconscious"  # shifter, bashing past Incapacitated: keeps its form


TORPOR = "torpor"


RAGE_ACTIVE = "rage_active"  # shifter spent Rage to stay active; dies on any more damage


REVERTED = "reverted"  # shifter back in breed form; dies on any more damage


DYING = "dying"  # dies unless it Rage-heals now (HEAL-04)


DEAD = "dead"


CONDITIONS = (OK, INCAPACITATED, UNCONSCIOUS, TORPOR, RAGE_ACTIVE, REVERTED, DYING, DEAD)


# Which condition is worse: a hit never makes the target better off.
SEVERITY = {
    OK: 0,
    INCAPACITATED: 1,
    UNCONSCIOUS: 2,
    TORPOR: 3,
    RAGE_ACTIVE: 4,
    REVERTED: 4,
    DYING: 5,
    DEAD: 6,
}


# HLT-04 (W20 p. 255): "... but die if they take any more damage of any type".
DOOMED = frozenset({RAGE_ACTIVE, REVERTED, DYING})


PAST_INCAPACITATED = frozenset({UNCONSCIOUS, TORPOR, RAGE_ACTIVE, REVERTED, DYING, DEAD})


OUTCOMES = ("dead", "torpor", "unconscious", "rage_or_revert", "reverted", "dying")


ROLL_KINDS = ("action", "reflex", "soak", "damage", "arete", "initiative")


COMPUTED_CONDITIONS = ("has_vitae", "shifter_stamina", "always")


_TYPES = Str(choices=DAMAGE_TYPES)


# COMP-02: Stamina over (mortals) or +2 over (supernaturals) the successes after soak.
DAZED_DEFAULTS = {"trait": "Stamina", "compare": "over", "mortal_margin": 0,
                  "supernatural_margin": 2}


# HLT-06: wounds cost dice on action pools only (seed 000, Wound penalties).
WOUNDS_DEFAULTS = {"applies_to": ("action",), "exempt_unless_incapacitated": (),
                   # HLT-08: a Willpower point ignores them for a turn, not once Incapacitated
                   "ignore_cost": {"Willpower": 1}, "ignore_when_incapacitated": False}


DAMAGE_SCHEMA = Struct(
    optional={
        "source": Str(),
        "damage_can_botch": Bool(),
        "dice_per_extra_success": Int(0, 10),
        "soak_can_botch": Bool(),
        "penalties_reduce_soak": Bool(),
        "sources": ListOf(Str(), min_len=1),
        "source_aliases": MapOf(Str()),
        "conversions": MapOf(
            ListOf(
                Struct(
                    required={"source": Str(), "to": _TYPES},
                    optional={"unless": Str(choices=("head_shot",))},
                )
            )
        ),
        "halve_after_soak": MapOf(ListOf(_TYPES)),
        "past_incapacitated": MapOf(
            Struct(optional={t: Optional(Str(choices=OUTCOMES)) for t in DAMAGE_TYPES})
        ),
        "rage_to_stay_active": Int(0, 10),
        # DMG-14 (revised): "unsoaked damage decreases target's health (Corpus for
        # Wraiths/Risen)": splat or family -> the pool that loses the levels too.
        "health_pool": MapOf(Str()),
        # DMG-13 (revised): how an "unsoakable" effect is read (see unsoakable_applies).
        "unsoakable": Struct(
            optional={
                "enemy_hit_by_success": Str(choices=("as_written", "ignore")),
                "soak_anything_wins": Bool(),
            },
            defaults={"enemy_hit_by_success": "as_written", "soak_anything_wins": False},
        ),
        "dazed": Struct(
            defaults=DAZED_DEFAULTS,
            optional={
                "trait": Str(),
                "compare": Str(choices=("over", "at_least")),
                "mortal_margin": Int(-10, 10),
                "supernatural_margin": Int(-10, 10),
                "supernatural_families": Optional(ListOf(Str())),
                # COMP-02: pool -> the families that may spend a point of it to ignore
                # the daze (everyman: Blood for vampires, Rage for shifters, Willpower
                # for mortals); empty: no way out.
                "spend_to_ignore": MapOf(ListOf(Str())),
                "attack_difficulty": Int(-10, 10),
            }
        ),
        "wounds": Struct(
            defaults=WOUNDS_DEFAULTS,
            optional={
                "applies_to": ListOf(Str(choices=ROLL_KINDS)),
                "exempt_unless_incapacitated": ListOf(Str(choices=ROLL_KINDS)),
                "count_only": MapOf(ListOf(_TYPES)),
                "ignore_cost": MapOf(Int(0, 10)),
                "ignore_when_incapacitated": Bool(),
            }
        ),
    },
    # What a ruleset that leaves these out plays by (rules/core/damage.yaml states them all)
    defaults={"damage_can_botch": False, "dice_per_extra_success": 1, "soak_can_botch": False,
              "penalties_reduce_soak": False, "rage_to_stay_active": 1,
              "dazed": DAZED_DEFAULTS, "wounds": WOUNDS_DEFAULTS, "unsoakable": {},
              "conversions": {}, "halve_after_soak": {}},
)


_CELL = Optional(
    Struct(
        required={"terms": ListOf(Str())},
        optional={"term_if": MapOf(Str()), "only_if": Str()},
    )
)


SOAK_SCHEMA = Struct(
    required={"families": MapOf(Struct(required={t: _CELL for t in DAMAGE_TYPES}))},
    optional={
        "source": Str(),
        "default_family": Str(),
        "difficulty": Optional(Int(1, 100)),
        "armor": Struct(
            optional={
                "adds_to": ListOf(_TYPES),
                "even_when_race_cannot_soak": Bool(),
                "damaged_at_multiple": Optional(Int(1, 10)),
            },
            # DMG-11: armor adds to every soak, even a race's that soaks nothing, never wears
            defaults={"adds_to": DAMAGE_TYPES, "even_when_race_cannot_soak": True,
                      "damaged_at_multiple": None},
        ),
    },
    defaults={"default_family": "mortal", "armor": {}},
)


_METAL_CASE = Struct(
    required={"damage_type": Optional(_TYPES), "stamina": Bool()},
    optional={"soak_difficulty": Optional(Int(1, 100))},
)


_VULN = Struct(
    required={"metals": MapOf(Str())},
    optional={"confirmed": Bool(), "note": Str(), "ref": Str()},
    defaults={"confirmed": True, "note": "seed: ?"},
)


SHIFTERS_SCHEMA = Struct(
    required={
        "metal_rules": MapOf(
            Struct(required={"breed_form": _METAL_CASE, "other_forms": _METAL_CASE})
        )
    },
    optional={
        "source": Str(),
        "default_breed": Str(),
        "weak_breeds": ListOf(Str()),
        "breed_form": MapOf(Str(choices=("first", "last", "metis"))),
        "metis_form": MapOf(Str()),
        "stamina": Struct(required={"breed_form": ListOf(_TYPES), "other_forms": ListOf(_TYPES)}),
        "default_vulnerability": _VULN,
        "vulnerability": MapOf(_VULN),
    },
    defaults={"default_breed": "homid", "breed_form": {}, "metis_form": {}},
)


def require_section(ruleset, name: str) -> dict:
    sec = ruleset.section(name)
    if sec is None:
        raise RulesError([RuleIssue("", name, f"ruleset '{ruleset.name}' has no {name}: section")])
    return sec


def levels_of(ruleset) -> tuple:
    """HLT-01: the ruleset's track levels, built once (``Ruleset.derived(levels_of)``)."""
    return HealthTrack.from_section(require_section(ruleset, "health")).levels


def tracks_of(ruleset) -> Mapping[tuple[int, int, int], HealthTrack]:
    """Every track the ruleset's levels can hold, by its (bashing, lethal, aggravated)
    marks, built once (``Ruleset.derived(tracks_of)``): a hit reads two or three of them."""
    levels = ruleset.derived(levels_of)
    n = len(levels)
    return MappingProxyType({(b, le, ag): HealthTrack(levels, b, le, ag)
                             for ag in range(n + 1) for le in range(n + 1 - ag)
                             for b in range(n + 1 - ag - le)})


def track_of(sheet: Sheet, ruleset) -> HealthTrack:
    """``sheet.track(health section)``, one of the tracks built once per ruleset (kept on
    it): building them dominated the cost of a hit (design: 50,000 attacks a second)."""
    h = sheet.health
    track = ruleset.derived(tracks_of).get(
        (h.get("bashing", 0), h.get("lethal", 0), h.get("aggravated", 0)))
    if track is None:  # marks past the track or below 0 (old saves): clipped
        return HealthTrack.from_section(require_section(ruleset, "health"), dict(h))
    return track


def family_of(sheet: Sheet, ruleset) -> str:
    return ruleset.traits.family(sheet.splat)


def _dying_needs_rage_heal(ruleset, dmg: Mapping) -> list[tuple[str, str]]:
    """HLT-05 / HEAL-04 (issue 31): "dying" is "dead unless it Rage-heals now"; a ruleset
    whose healing cannot Rage-heal from dying would leave the shifter dying for ever."""
    heal = (ruleset.section("healing") or {}).get("rage_heal") or {}
    if DYING in (heal.get("from_conditions") or ()):
        return []
    return [(f"damage.past_incapacitated.{fam}.{kind}",
             "'dying' needs healing.rage_heal with dying in from_conditions (HEAL-04); "
             "without Rage-healing write dead")
            for fam, row in (dmg.get("past_incapacitated") or {}).items()
            for kind, rule in (row or {}).items() if rule == DYING]


def check(ruleset) -> list[tuple[str, str]]:
    """Names these sections use that other sections must define (for sections.cross_check)."""
    out: list[tuple[str, str]] = []
    catalog = ruleset.traits
    soak = ruleset.section("soak")
    if soak:
        fams = soak["families"]
        if soak["default_family"] not in fams:
            out.append(("soak.default_family", "is not a family in soak.families"))
        for fam, row in fams.items():
            for t, cell in row.items():
                for trait in cell["terms"] if cell else ():  # null: the family cannot soak
                    if trait not in catalog.traits:
                        out.append((f"soak.families.{fam}.{t}", f"'{trait}' is not a trait"))
                for trait, cond in ((cell or {}).get("term_if") or {}).items():
                    if trait not in cell["terms"]:
                        out.append(
                            (
                                f"soak.families.{fam}.{t}.term_if",
                                f"'{trait}' is not one of its terms",
                            )
                        )
    dmg = ruleset.section("damage") or DAMAGE_SCHEMA.fill({})
    out += _dying_needs_rage_heal(ruleset, dmg)
    known = set(dmg.get("sources") or ())
    for alias, target in (dmg.get("source_aliases") or {}).items():
        if known and target not in known:
            out.append((f"damage.source_aliases.{alias}", f"'{target}' is not in sources"))
    for fam, rules in dmg["conversions"].items():
        for i, r in enumerate(rules):
            if known and r["source"] not in known:
                out.append((f"damage.conversions.{fam}[{i}]", f"'{r['source']}' is not in sources"))
    return out + _shifters_check(ruleset, known)


def _shifters_check(ruleset, known: set) -> list[tuple[str, str]]:
    """The shifters table's names: metal rules, damage sources, metis forms."""
    out: list[tuple[str, str]] = []
    catalog = ruleset.traits
    shifters = ruleset.section("shifters")
    if shifters:
        names = set(shifters["metal_rules"])
        vulns = dict(shifters.get("vulnerability") or {})
        if shifters.get("default_vulnerability"):
            vulns["(default)"] = shifters["default_vulnerability"]
        for race, v in vulns.items():
            for metal, rule in v["metals"].items():
                if rule not in names:
                    out.append(
                        (
                            f"shifters.vulnerability.{race}.metals.{metal}",
                            f"'{rule}' is not in metal_rules",
                        )
                    )
                if known and metal not in known:
                    out.append(
                        (
                            f"shifters.vulnerability.{race}.metals.{metal}",
                            f"'{metal}' is not in damage.sources",
                        )
                    )
        forms = {}
        for spec in catalog.splats.values():
            forms.update(spec.get("forms") or {})
        for race, form in (shifters.get("metis_form") or {}).items():
            if race in forms and form not in forms[race]:
                out.append((f"shifters.metis_form.{race}", f"'{form}' is not a {race} form"))
    return out
