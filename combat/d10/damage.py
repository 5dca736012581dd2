"""The damage half of an attack: damage roll, soak, health track, and what lies past it.

Rule IDs are those of ``../shared/rules-catalog.md``; every table and switch is YAML
(``damage:``, ``soak:``, ``shifters:`` sections, see ``rules/numetal/damage.yaml``,
``soak.yaml``, ``shifters.yaml``). Nothing here knows a ruleset's name.

API
---
``damage_pool(base, attack_successes, ruleset=None) -> int``
    DMG-02: the damage dice once the attack's successes beyond the first are added.
``net_attack_successes(attack, defense) -> int``
    DMG-03: attack successes left after the defense cancels some; 0 means a miss.
``soak_pool(ruleset, sheet, damage_type, *, source="other", materials=(), head_shot=False,
armor_rating=0, armor_applies=True, unarmored_part=False, unsoakable=False, chimerical=False,
flags=(), modifiers=()) -> SoakPool | None``
    DMG-04..DMG-11, DMG-15, DICE-10: the soak pool with its terms and the reason for every
    term left out; ``None`` when nothing soaks this damage. ``can_soak(...)`` (same
    arguments) is True when that pool has dice (DMG-16's "unless you can soak it").
``resolve_damage(ruleset, target, *, dice, damage_type, source="other", ...) -> DamageResult``
    The whole chain for one hit. Keyword inputs:

    - ``dice``: the damage pool (build it with ``damage_pool``); ``damage_type``:
      bashing / lethal / aggravated (abbreviations accepted); ``source``: what did it
      (``damage.sources`` in YAML: brawl, melee, firearm, bite, claw, fire, sunlight,
      silver, gold, ...); ``materials``: extra sources touching the target (a silver bullet
      is ``source="firearm", materials=("silver",)``).
    - ``faces_damage`` / ``faces_soak``: exact faces (tests, staff recomputation); otherwise
      ``rng`` (a ``random.Random``) rolls them through ``combat.core.dice``. ``faces_soak`` must
      have exactly the soak pool's size; it is not rolled when no damage succeeded.
    - ``damage_difficulty``: default the ruleset's base difficulty.
    - ``armor_rating``, ``armor_applies`` (the armor table's say for this kind of damage),
      ``unarmored_part`` (an unarmored part was targeted), ``head_shot`` (DMG-15),
      ``unsoakable`` (the caller decided the damage cannot be soaked at all, DMG-13),
      ``chimerical`` and ``flags`` (situational conditions the soak table names: e.g.
      ``apocalyptic_form``), ``soak_modifiers`` (bonuses; penalties are dropped, DICE-10).
    - ``condition``: the target's standing condition before the hit (one of CONDITIONS;
      the caller keeps it in the combat state, since "dies on any further damage" is not a
      health mark), ``stay_active_with_rage``: a shifter's choice when lethal damage
      overflows (HLT-04).

    ``DamageResult`` holds the request, both Rolls, the soak pool, every count (rolled,
    soaked, penetrating, applied), the health before and after, the outcome and new
    condition, the dazed flag (COMP-02 counts the successes after soak, before DMG-15
    halving), what was spent and the new Sheet: enough for a staffer to
    recompute the hit from the combat log (``as_dict()``).
``wound_modifier(sheet, ruleset, kind_of_roll, ignore_wounds=False) -> Modifier | None``
    HLT-06 / HLT-08: the wound penalty a roll of that kind takes. Raises IllegalAction when
    an incapacitated character tries to act.
``spend_to_ignore_wounds(sheet, ruleset) -> Sheet`` HLT-08: pay the Willpower.
``daze_threshold(ruleset, sheet) -> int``, ``is_dazed(ruleset, sheet, successes, limit=None)``,
``daze_pools(sheet, ruleset) -> list``, ``daze_pool(sheet, ruleset, pool) -> str``,
``shake_off_daze(sheet, ruleset, pool) -> Sheet``:
COMP-02.
``breed_form(sheet, ruleset) -> str``, ``in_weak_breed_form(sheet, ruleset) -> bool``,
``shifter_soak(ruleset, sheet, damage_type, tags) -> ShifterSoak``: DMG-09, DMG-10.
``track_of(sheet, ruleset) -> HealthTrack``: the sheet's track, levels cached per ruleset.
``check(ruleset) -> list[(path, message)]``: names these tables use that others must define
(for ``sections.cross_check``; not wired in yet).

Conditions (``CONDITIONS``): ok, incapacitated, unconscious, torpor, rage_active, reverted,
dying, dead. rage_active / reverted / dying die on any further damage (HLT-04); dying is
"dead unless it Rage-heals now" (``wodcombat.combat.d10.healing.rage_heal``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from ..core import dice as dicemod
from ..core.errors import IllegalAction, InputError, RuleIssue, RulesError
from ..core.health import DAMAGE_TYPES, Applied, HealthTrack, damage_type as parse_damage_type
from ..core.pools import Modifier, PoolSpec
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.sheet import Pool, Sheet
from ..core.values import fast_init, replace

# ---------------------------------------------------------------- conditions

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

# ---------------------------------------------------------------- schemas

_TYPES = Str(choices=DAMAGE_TYPES)

# COMP-02: Stamina over (mortals) or +2 over (supernaturals) the successes after soak.
DAZED_DEFAULTS = {"trait": "Stamina", "compare": "over", "mortal_margin": 0,
                  "supernatural_margin": 2}
# HLT-06: wounds cost dice on action pools only (seed 000, Wound penalties).
WOUNDS_DEFAULTS = {"applies_to": ("action",), "exempt_unless_incapacitated": ()}

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


def _levels(ruleset) -> tuple:
    return HealthTrack.from_section(require_section(ruleset, "health")).levels


def track_of(sheet: Sheet, ruleset) -> HealthTrack:
    """``sheet.track(health section)`` with the levels built once per ruleset (kept on it):
    building them dominated the cost of a hit (design: 50,000 attacks a second)."""
    levels = ruleset.derived(_levels)
    h = sheet.health
    track = HealthTrack(levels, h.get("bashing", 0), h.get("lethal", 0), h.get("aggravated", 0))
    if track.damage > track.capacity or min(track.bashing, track.lethal, track.aggravated) < 0:
        return HealthTrack.from_section(require_section(ruleset, "health"), dict(h))
    return track


# ---------------------------------------------------------------- DMG-02, DMG-03


def damage_pool(base: int, attack_successes: int, ruleset=None) -> int:
    """DMG-02: each attack success beyond the first adds a damage die (seed 000, Damage)."""
    per = 1
    if ruleset is not None:
        per = require_section(ruleset, "damage")["dice_per_extra_success"]
    return max(0, base) + max(0, attack_successes - 1) * per


def net_attack_successes(attack: int, defense: int) -> int:
    """DMG-03: each defense success cancels one attack success; equal or more defense
    successes and the attack fails (0). Every d10 seed agrees, so there is no switch."""
    return max(0, max(0, attack) - max(0, defense))


# ---------------------------------------------------------------- values


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class HealthState:
    """The track as the log shows it: level name, penalty, marks and the boxes."""

    level: str
    penalty: int | None
    bashing: int
    lethal: int
    aggravated: int
    boxes: str

    @classmethod
    def of(cls, track: HealthTrack) -> "HealthState":
        b, le, ag = track.bashing, track.lethal, track.aggravated
        lv = track.levels[b + le + ag - 1] if b + le + ag else None
        # the boxes as HealthTrack.boxes draws them, worst first, in one string
        free = len(track.levels) - b - le - ag
        return cls(lv.name if lv else "Healthy", lv.penalty if lv else 0, b, le, ag,
                   "*" * ag + "X" * le + "/" * b + " " * (free if free > 0 else 0))

    def as_dict(self) -> dict:
        return {"level": self.level, "penalty": self.penalty, "bashing": self.bashing,
                "lethal": self.lethal, "aggravated": self.aggravated, "boxes": self.boxes}


@dataclass(frozen=True, slots=True)
class SoakPool:
    """A soak pool with its reasons: terms (trait, dots) and armor, bonuses kept, penalties
    dropped (DICE-10), and a note for every term the rules left out."""

    family: str
    damage_type: str  # the type soaked, after conversions
    spec: PoolSpec
    dropped: tuple[Modifier, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def dice(self) -> int:
        return self.spec.dice

    @property
    def difficulty(self) -> int:
        return self.spec.difficulty

    def as_dict(self) -> dict:
        return {
            "family": self.family,
            "damage_type": self.damage_type,
            "terms": [list(t) for t in self.spec.terms],
            "modifiers": [m.as_dict() for m in self.spec.modifiers],
            "dropped": [m.as_dict() for m in self.dropped],
            "dice": self.dice,
            "difficulty": self.difficulty,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class ShifterSoak:
    """DMG-09 / DMG-10 for one hit on a shifter: the type it takes and whether Stamina soaks."""

    damage_type: str
    stamina: bool
    difficulty: int | None  # None: the usual soak difficulty
    metal: str | None  # the metal it is vulnerable to that touched it
    in_breed_form: bool
    notes: tuple[str, ...] = ()


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DamageRequest:
    """Every input of one hit, as given (the log keeps it for recomputation)."""

    dice: int
    damage_type: str
    source: str
    materials: tuple[str, ...] = ()
    faces_damage: tuple[int, ...] | None = None
    faces_soak: tuple[int, ...] | None = None
    damage_difficulty: int | None = None
    armor_rating: int = 0
    armor_applies: bool = True
    unarmored_part: bool = False
    head_shot: bool = False
    unsoakable: bool = False
    chimerical: bool = False
    flags: tuple[str, ...] = ()
    soak_modifiers: tuple[Modifier, ...] = ()
    condition: str = OK
    stay_active_with_rage: bool = False


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DamageResult:
    ruleset: str
    request: DamageRequest
    family: str
    damage_type: str  # after conversions (DMG-09, DMG-10, DMG-15)
    conversions: tuple[str, ...]
    damage_roll: dicemod.Roll
    soak: SoakPool | None
    soak_roll: dicemod.Roll | None
    levels_rolled: int  # damage successes
    soaked: int
    penetrating: int  # levels_rolled - soaked: what COMP-02 compares
    applied: int  # levels put on the track (DMG-14), after DMG-15 halving
    halved: bool
    marked: int  # boxes newly filled
    overflow: int  # levels past Incapacitated (HLT-03..HLT-05)
    track_before: HealthTrack = field(repr=False)
    track_after: HealthTrack = field(repr=False)
    # the two tracks as the log shows them (each read twice: the event and its detail)
    health_before: HealthState = field(repr=False)
    health_after: HealthState = field(repr=False)
    condition_before: str
    condition: str
    outcome: str  # "none" or the new condition this hit caused
    dazed: bool
    daze_threshold: int
    armor_applied: bool
    armor_damaged: bool  # DMG-12
    spent: Mapping[str, int]
    sheet: Sheet = field(repr=False)
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        # Not ``dataclasses.asdict``: it deep-copies recursively and was a tenth of a hit's
        # cost. The request's values are plain or tuples of plain values (the modifiers
        # aside), kept as JSON keeps them (lists), so a logged event reads back equal.
        r = self.request
        fd, fs = r.faces_damage, r.faces_soak
        req = {"dice": r.dice, "damage_type": r.damage_type, "source": r.source,
               "materials": list(r.materials),
               "faces_damage": None if fd is None else list(fd),
               "faces_soak": None if fs is None else list(fs),
               "damage_difficulty": r.damage_difficulty, "armor_rating": r.armor_rating,
               "armor_applies": r.armor_applies, "unarmored_part": r.unarmored_part,
               "head_shot": r.head_shot, "unsoakable": r.unsoakable, "chimerical": r.chimerical,
               "flags": list(r.flags),
               "soak_modifiers": [m.as_dict() for m in r.soak_modifiers],
               "condition": r.condition, "stay_active_with_rage": r.stay_active_with_rage}
        return {
            "ruleset": self.ruleset,
            "request": req,
            "family": self.family,
            "damage_type": self.damage_type,
            "conversions": list(self.conversions),
            "damage_roll": self.damage_roll.as_dict(),
            "soak": self.soak.as_dict() if self.soak else None,
            "soak_roll": self.soak_roll.as_dict() if self.soak_roll else None,
            "levels_rolled": self.levels_rolled,
            "soaked": self.soaked,
            "penetrating": self.penetrating,
            "applied": self.applied,
            "halved": self.halved,
            "marked": self.marked,
            "overflow": self.overflow,
            "health_before": self.health_before.as_dict(),
            "health_after": self.health_after.as_dict(),
            "condition_before": self.condition_before,
            "condition": self.condition,
            "outcome": self.outcome,
            "dazed": self.dazed,
            "daze_threshold": self.daze_threshold,
            "armor_applied": self.armor_applied,
            "armor_damaged": self.armor_damaged,
            "spent": dict(self.spent),
            "notes": list(self.notes),
        }


# ---------------------------------------------------------------- helpers


def family_of(sheet: Sheet, ruleset) -> str:
    return ruleset.traits.family(sheet.splat)


def _soak_family(ruleset, family: str) -> str:
    sec = require_section(ruleset, "soak")
    return family if family in sec["families"] else sec["default_family"]


def _answers(memo, ruleset) -> dict | None:
    """The answers a ``Memo`` (combat/core/memo.py) keeps for ``ruleset``: rule-table answers on
    plain values (a source name, a sheet's splat/race/breed/form) and soak pools, which
    every hit asks again (bench/engine.py). None without a memo: compute each time."""
    return None if memo is None else memo.for_ruleset(ruleset)


def source_tags(ruleset, source: str, materials: Iterable[str] = (), *,
                memo=None) -> tuple[str, ...]:
    """Canonical source names, the weapon kind first; unknown names are an InputError."""
    materials = tuple(materials)
    memo = _answers(memo, ruleset)
    if memo is None:
        return _source_tags(ruleset, source, materials)
    key = ("tags", source, materials)
    try:
        return memo[key]
    except (KeyError, TypeError):
        pass
    tags = _source_tags(ruleset, source, materials)
    try:
        memo[key] = tags
    except TypeError:  # an unhashable name: just computed
        pass
    return tags


def _source_tags(ruleset, source, materials: tuple) -> tuple[str, ...]:
    sec = require_section(ruleset, "damage")
    known = sec.get("sources") or ()
    aliases = sec.get("source_aliases") or {}
    out = []
    for name in (source, *materials):
        key = " ".join(str(name).lower().split())
        key = aliases.get(key, key)
        if known and key not in known:
            raise InputError(
                f"'{name}' is not a damage source here. Use one of: {', '.join(known)}."
            )
        if key not in out:
            out.append(key)
    return tuple(out)


def _shifters(ruleset) -> dict:
    return require_section(ruleset, "shifters")


def _breed(sheet: Sheet, sec: dict) -> str:
    return (sheet.breed or sec["default_breed"]).lower()


def breed_form(sheet: Sheet, ruleset) -> str:
    """The form a shifter reverts to (HLT-04): from splats' forms and shifters.breed_form.
    Empty when the race has no forms on record."""
    sec = _shifters(ruleset)
    spec = ruleset.traits.splats.get(sheet.splat) or {}
    forms = (spec.get("forms") or {}).get(sheet.race) or ()
    if not forms:
        return ""
    how = sec["breed_form"].get(_breed(sheet, sec), "first")  # a breed not named: first
    if how == "last":
        return forms[-1]
    if how == "metis":
        return sec["metis_form"].get(sheet.race, forms[len(forms) // 2])  # none: the middle
    return forms[0]


def in_weak_breed_form(sheet: Sheet, ruleset) -> bool:
    """DMG-09 / HEAL-03: a homid or lupus (or equivalent) in its breed form. A sheet with no
    form recorded is taken to be in its breed form. Metis have no weak breed form."""
    sec = _shifters(ruleset)
    if _breed(sheet, sec) not in (sec.get("weak_breeds") or ()):
        return False
    home = breed_form(sheet, ruleset)
    return not sheet.form or not home or sheet.form.lower() == home.lower()


def shifter_soak(ruleset, sheet: Sheet, damage_type: str, tags: Iterable[str]) -> ShifterSoak:
    """DMG-09, DMG-10 (seed 000, "When does a Shifter's Stamina apply to soak?", W20 p. 255)."""
    sec = _shifters(ruleset)
    weak = in_weak_breed_form(sheet, ruleset)
    where = "breed_form" if weak else "other_forms"
    vuln = (sec.get("vulnerability") or {}).get(sheet.race)
    notes = []
    if vuln is None:
        vuln = sec.get("default_vulnerability") or _VULN.fill({"metals": {}})
        if sheet.race:
            notes.append(f"{sheet.race} not in the vulnerability table: default used")
    metal = next((t for t in tags if t in vuln["metals"]), None)
    form_txt = "breed form" if weak else "not breed form"
    if metal:
        case = sec["metal_rules"][vuln["metals"][metal]][where]
        new_type = case["damage_type"] or damage_type
        if not vuln["confirmed"]:
            notes.append(
                f"{sheet.race} {metal} vulnerability is a documented default "
                f"({vuln['note']})"
            )
        stamina = case["stamina"]
        notes.append(
            f"{metal} on {sheet.race or 'shifter'} ({form_txt}): {new_type}, "
            f"Stamina {'soaks' if stamina else 'does not soak'} (DMG-09)"
        )
        return ShifterSoak(
            new_type, stamina, case.get("soak_difficulty"), metal, weak, tuple(notes)
        )
    stamina = damage_type in sec["stamina"][where]
    if not stamina:
        notes.append(f"{form_txt}: Stamina does not soak {damage_type} (DMG-09)")
    return ShifterSoak(damage_type, stamina, None, None, weak, tuple(notes))


@dataclass(frozen=True, slots=True)
class _Plan:
    family: str  # the splat's family
    soak_family: str  # the soak table row used (DMG-05: unknown = mortal)
    damage_type: str
    conversions: tuple[str, ...]
    shifter: ShifterSoak | None


def _plan(ruleset, sheet: Sheet, damage_type: str, tags: tuple[str, ...], head_shot: bool,
          memo) -> _Plan:
    """Kept in the memo on the sheet's splat, race, breed and form: ``_make_plan`` must
    read nothing else from the sheet (ratings and pools belong in ``_soak``)."""
    memo = _answers(memo, ruleset)
    if memo is None:
        return _make_plan(ruleset, sheet, damage_type, tags, head_shot)
    key = ("plan", sheet.splat, sheet.race, sheet.breed, sheet.form, damage_type, tuple(tags),
           bool(head_shot))
    plan = memo.get(key)
    if plan is None:
        plan = memo[key] = _make_plan(ruleset, sheet, damage_type, tags, head_shot)
    return plan


def _make_plan(ruleset, sheet: Sheet, damage_type: str, tags: tuple[str, ...],
               head_shot: bool) -> _Plan:
    dsec = require_section(ruleset, "damage")
    family = family_of(sheet, ruleset)
    dtype = damage_type
    notes = []
    # DMG-15: a family may take some sources as another type (vampire: firearms bashing).
    for rule in dsec["conversions"].get(family, ()):  # a family not named converts nothing
        if rule["source"] not in tags:
            continue
        if rule.get("unless") == "head_shot" and head_shot:
            notes.append(f"{rule['source']} aimed at the head: stays {dtype} (DMG-15)")
            continue
        if rule["to"] != dtype:
            notes.append(f"{family}: {rule['source']} is {rule['to']}, not {dtype} (DMG-15)")
            dtype = rule["to"]
    shifter = None
    if family == "shifter" and ruleset.section("shifters") is not None:
        shifter = shifter_soak(ruleset, sheet, dtype, tags)
        if shifter.damage_type != dtype:
            notes.append(f"{shifter.metal}: {dtype} becomes {shifter.damage_type} (DMG-09)")
            dtype = shifter.damage_type
    return _Plan(family, _soak_family(ruleset, family), dtype, tuple(notes), shifter)


def _holds(condition: str, sheet: Sheet, plan: _Plan, flags: frozenset[str]) -> bool:
    if condition == "has_vitae":  # DMG-06: "unless out of Vitae"
        blood = sheet.pools.get("Blood")
        return bool(blood and blood.current > 0)
    if condition == "shifter_stamina":  # DMG-09
        return plan.shifter.stamina if plan.shifter else True
    if condition == "always":  # a child ruleset lifting a parent's term_if (merge keeps keys)
        return True
    return condition in flags


def _soak(
    ruleset,
    sheet: Sheet,
    plan: _Plan,
    *,
    armor_rating: int,
    armor_applies: bool,
    unarmored_part: bool,
    unsoakable: bool,
    flags: frozenset[str],
    modifiers: Iterable[Modifier],
) -> tuple[SoakPool | None, bool]:
    """The soak pool (or None) and whether armor went into it."""
    if unsoakable:
        return None, False
    sec = require_section(ruleset, "soak")
    dsec = require_section(ruleset, "damage")
    catalog = ruleset.traits
    cell = sec["families"][plan.soak_family][plan.damage_type]
    notes: list[str] = list(plan.shifter.notes if plan.shifter else ())
    if plan.soak_family != plan.family:
        notes.append(f"{plan.family} not in the soak table: soaks as {plan.soak_family} (DMG-05)")
    terms: list[tuple[str, int]] = []
    race_can = cell is not None
    if cell is not None and cell.get("only_if") and not _holds(cell["only_if"], sheet, plan, flags):
        notes.append(
            f"{plan.soak_family} soaks {plan.damage_type} only when {cell['only_if']} (DMG-05)"
        )
        race_can = False
    if race_can:
        for trait in cell["terms"]:
            cond = (cell.get("term_if") or {}).get(trait)
            if cond and not _holds(cond, sheet, plan, flags):
                if cond == "has_vitae":
                    notes.append(f"{trait} left out: out of Vitae (DMG-06)")
                elif cond != "shifter_stamina":  # the shifter note already says why
                    notes.append(f"{trait} left out: not {cond}")
                continue
            terms.append((trait, sheet.rating(catalog, trait)))
    elif cell is None:
        notes.append(f"{plan.soak_family} cannot soak {plan.damage_type} (DMG-05)")
    # DMG-11: armor adds to soak, unless it does not cover this damage or this body part.
    armor = sec["armor"]
    armor_in = False
    if armor_rating > 0:
        if not armor_applies:
            notes.append("armor does not stop this kind of damage (DMG-11)")
        elif unarmored_part:
            notes.append("an unarmored part was targeted: no armor (DMG-11)")
        elif plan.damage_type not in armor["adds_to"]:
            notes.append(f"armor does not soak {plan.damage_type} here (DMG-11)")
        elif not race_can and not armor["even_when_race_cannot_soak"]:
            notes.append("armor only adds to a soak the race already has (DMG-11)")
        else:
            terms.append(("armor", armor_rating))
            armor_in = True
    if not race_can and not armor_in:
        return None, False
    kept, dropped = [], []
    for m in modifiers:
        # DICE-10: dice penalties (wounds, multiple actions) never reduce soak pools.
        if m.dice < 0 and not dsec["penalties_reduce_soak"]:
            dropped.append(m)
            if m.difficulty:
                kept.append(Modifier(m.reason, 0, m.difficulty))
        else:
            kept.append(m)
    difficulty = sec.get("difficulty") or ruleset.dice.base_difficulty
    if plan.shifter and plan.shifter.difficulty:
        difficulty = plan.shifter.difficulty  # DMG-10: Kitsune soak silver at 8
        notes.append(f"soak difficulty {difficulty} against {plan.shifter.metal} (DMG-10)")
    spec = PoolSpec(tuple(terms), (), difficulty).plus(*kept)
    return SoakPool(plan.family, plan.damage_type, spec, tuple(dropped), tuple(notes)), armor_in


def _soak_memo(ruleset, sheet: Sheet, plan: _Plan, armor_rating: int, armor_applies: bool,
               unarmored_part: bool, unsoakable: bool, flags: frozenset[str],
               modifiers: tuple, memo) -> tuple[SoakPool | None, bool]:
    """``_soak`` through the memo: the pool is a pure function of the plan, the sheet's
    value but its health marks (``Sheet.soak_value``) and these inputs, and every hit (and
    every DMG-16 block) asks it. The entry holds the plan, so its id is not reused while
    the entry lives."""
    answers = _answers(memo, ruleset)
    try:
        key = ("soak", id(plan), memo.sheet_number(sheet, soak=True), armor_rating,
               armor_applies, unarmored_part, unsoakable, flags, modifiers)
        hit = answers.get(key)
    except (TypeError, AttributeError):  # no memo, an unhashable modifier, not a Sheet

        hit = key = None
    if hit is not None and hit[0] is plan:
        return hit[1]
    value = _soak(ruleset, sheet, plan, armor_rating=armor_rating, armor_applies=armor_applies,
                  unarmored_part=unarmored_part, unsoakable=unsoakable, flags=flags,
                  modifiers=modifiers)
    if key is not None:
        answers[key] = (plan, value)
    return value


def soak_pool(
    ruleset,
    sheet: Sheet,
    damage_type: str,
    *,
    source: str = "other",
    materials: Iterable[str] = (),
    head_shot: bool = False,
    armor_rating: int = 0,
    armor_applies: bool = True,
    unarmored_part: bool = False,
    unsoakable: bool = False,
    chimerical: bool = False,
    flags: Iterable[str] = (),
    modifiers: Iterable[Modifier] = (),
    memo=None,
) -> SoakPool | None:
    """DMG-04..DMG-11, DMG-15, DICE-10: the pool the target rolls, or None if nothing soaks.
    ``memo`` (combat/core/memo.py) spares building the same pools again."""
    dtype = parse_damage_type(damage_type)
    tags = source_tags(ruleset, source, materials, memo=memo)
    plan = _plan(ruleset, sheet, dtype, tags, head_shot, memo)
    flagset = frozenset(flags) | ({"chimerical"} if chimerical else frozenset())
    pool, _ = _soak_memo(ruleset, sheet, plan, max(0, armor_rating), armor_applies,
                         unarmored_part, unsoakable, flagset, tuple(modifiers), memo)
    return pool


def can_soak(ruleset, sheet: Sheet, damage_type: str, **kwargs) -> bool:
    """True when the target has soak dice against this damage (DMG-16 asks this)."""
    pool = soak_pool(ruleset, sheet, damage_type, **kwargs)
    return pool is not None and pool.dice > 0


def unsoakable_applies(ruleset, *, enemy_hit_by_success: bool,
                       victim_soaks_anything: bool = False) -> bool:
    """DMG-13: whether damage a power calls "unsoakable" really skips the soak roll.

    revised: against an enemy hit by your successful action the word is ignored (the enemy
    soaks by damage type as usual); against you or an ally, from a failed or mixed-blessing
    action, it applies as written; someone explicitly able to soak any damage still soaks.
    Default (``as_written``): the word always applies. Pass the result as ``unsoakable``."""
    sec = require_section(ruleset, "damage")["unsoakable"]
    if victim_soaks_anything and sec["soak_anything_wins"]:
        return False
    if enemy_hit_by_success and sec["enemy_hit_by_success"] == "ignore":
        return False
    return True


# ---------------------------------------------------------------- COMP-02 dazed


def daze_threshold(ruleset, sheet: Sheet) -> int:
    """COMP-02: Stamina for mortals (and ghouls, "mortal+"), Stamina + 2 for supernaturals."""
    sec = require_section(ruleset, "damage")["dazed"]
    stamina = sheet.rating(ruleset.traits, sec["trait"])
    families = sec.get("supernatural_families")
    if families is None:
        spec = ruleset.traits.splats.get(sheet.splat) or {}
        supernatural = spec.get("supernatural") == "yes"
    else:
        supernatural = family_of(sheet, ruleset) in families
    margin = sec["supernatural_margin"] if supernatural else sec["mortal_margin"]
    return stamina + margin


def is_dazed(ruleset, sheet: Sheet, successes_after_soak: int, limit: int | None = None) -> bool:
    """COMP-02: numetal "exceed" (over); everyman "equal to or over" (at_least). ``limit``:
    the target's ``daze_threshold`` when the caller already has it."""
    if successes_after_soak <= 0:
        return False
    sec = require_section(ruleset, "damage")["dazed"]
    if limit is None:
        limit = daze_threshold(ruleset, sheet)
    if sec["compare"] == "at_least":
        return successes_after_soak >= limit
    return successes_after_soak > limit


def daze_pools(sheet: Sheet, ruleset) -> list[str]:
    """COMP-02 (everyman): the pools ``damage.dazed.spend_to_ignore`` lets this sheet's
    family spend a point of to ignore a daze (none: it stays dazed)."""
    allowed = (require_section(ruleset, "damage").get("dazed") or {}).get("spend_to_ignore") or {}
    family = family_of(sheet, ruleset)
    return [p for p, families in allowed.items() if family in families]


def daze_pool(sheet: Sheet, ruleset, pool: str) -> str:
    """COMP-02 (everyman): "A blood point, rage point or willpower (for mortals) can be spent
    to ignore this": the canonical name of ``pool`` when ``daze_pools`` has it, else
    IllegalAction saying what may be spent."""
    if not (require_section(ruleset, "damage").get("dazed") or {}).get("spend_to_ignore"):
        raise IllegalAction(
            "This game's rules give no way to shake off a daze; the "
            "next turn's actions are lost."
        )
    family = family_of(sheet, ruleset)
    mine = daze_pools(sheet, ruleset)
    if not mine:
        raise IllegalAction(f"Nothing lets a {family} shake off a daze in this game; the "
                            f"next turn's actions are lost.")
    canon = ruleset.traits.resolve(pool)
    if canon not in mine:
        raise IllegalAction(f"A {family} shakes off a daze with a point of {' or '.join(mine)}"
                            f", e.g. shake {mine[0].lower()}.")
    return canon


def shake_off_daze(sheet: Sheet, ruleset, pool: str) -> Sheet:
    """COMP-02 (everyman): pay the point of ``pool`` that ignores the daze (``daze_pool``)."""
    return pay_costs(sheet, {daze_pool(sheet, ruleset, pool): 1}, "shake off the daze")


# ---------------------------------------------------------------- HLT-06, HLT-08


def _wound_track(sheet: Sheet, ruleset) -> HealthTrack:
    track = track_of(sheet, ruleset)
    only = (require_section(ruleset, "damage").get("wounds") or {}).get("count_only") or {}
    kinds = only.get(sheet.splat, only.get(family_of(sheet, ruleset)))
    if kinds is None:
        return track
    # revised (The Risen p. 50): some splats count only some marks for penalties.
    return replace(track, **{t: (getattr(track, t) if t in kinds else 0) for t in DAMAGE_TYPES})


def wound_modifier(
    sheet: Sheet, ruleset, kind_of_roll: str, ignore_wounds: bool = False
) -> Modifier | None:
    """HLT-06: the wound penalty for a roll of ``kind_of_roll`` (one of ROLL_KINDS), or None.

    Wounds cost dice on action pools only: never reflexes, soak or damage (seed 000, Wound
    penalties), and Arete only once the mage is incapacitated (M20). HLT-08: ``ignore_wounds``
    (a Willpower spent this turn, see ``spend_to_ignore_wounds``) drops the penalty.
    An incapacitated character cannot act: asking for an action's modifier raises
    IllegalAction, since there is no number of dice that makes it legal.
    """
    if kind_of_roll not in ROLL_KINDS:
        raise InputError(
            f"'{kind_of_roll}' is not a kind of roll: use one of {', '.join(ROLL_KINDS)}."
        )
    return _wound_modifier(sheet, ruleset, kind_of_roll, ignore_wounds)


def _wound_modifier(sheet: Sheet, ruleset, kind_of_roll: str, ignore_wounds: bool):
    sec = require_section(ruleset, "damage")["wounds"]
    applies = kind_of_roll in sec["applies_to"]
    exempt = kind_of_roll in sec["exempt_unless_incapacitated"]
    if not applies and not exempt:
        return None
    track = _wound_track(sheet, ruleset)
    if track.incapacitated:
        raise IllegalAction(
            f"Incapacitated: no {kind_of_roll} roll is possible"
            + (
                "; Willpower cannot ignore wounds past Incapacitated (HLT-08)."
                if ignore_wounds
                else "."
            )
        )
    if exempt and not applies:
        return None
    if ignore_wounds or not track.penalty:
        return None
    return Modifier(f"wounds ({track.level_name})", dice=track.penalty)


def spend_to_ignore_wounds(sheet: Sheet, ruleset) -> Sheet:
    """HLT-08: spend a Willpower to ignore wound penalties for one turn (not incapacitated)."""
    sec = require_section(ruleset, "damage").get("wounds") or {}
    if _wound_track(sheet, ruleset).incapacitated and not sec.get("ignore_when_incapacitated"):
        raise IllegalAction("Willpower cannot ignore wounds once you are Incapacitated (HLT-08).")
    return pay_costs(sheet, sec.get("ignore_cost") or {"Willpower": 1}, "ignore wound penalties")


def pay_costs(sheet: Sheet, cost: Mapping[str, int], why: str) -> Sheet:
    """Spend every pool in ``cost`` or refuse with what is missing (nothing half-spent)."""
    pools = dict(sheet.pools)
    for name, n in cost.items():
        if not n:
            continue
        p = pools.get(name)
        if p is None:
            # A sheet whose splat was set under other rules (a spotlight vampire has Blood
            # Potency and Hunger, no Blood) is told how to give it the pool.
            raise IllegalAction(f"A {sheet.splat} has no {name} to {why}: this sheet has no "
                                f"{name} pool (+sheet/set {name.lower()}=<n> gives it one).")
        if p.current < n:
            raise IllegalAction(f"Not enough {name} to {why}: it takes {n}, you have {p.current}.")
        pools[name] = Pool(p.current - n, p.permanent)
    return replace(sheet, pools=MappingProxyType(pools))


# ---------------------------------------------------------------- the whole hit


def faces_for(given, pool: int, rng, sides: int, what: str) -> tuple[int, ...]:
    if given is None:
        if pool <= 0:
            return ()
        if rng is None:
            raise InputError(f"Give {what} faces or an rng to roll them.")
        return dicemod.roll_faces(pool, rng, sides)
    faces = tuple(int(f) for f in given)
    if len(faces) != pool:
        raise InputError(f"The {what} pool is {pool} dice but {len(faces)} faces were given.")
    if any(not 1 <= f <= sides for f in faces):
        raise InputError(f"{what.title()} faces must be from 1 to {sides}: {list(faces)}.")
    return faces


def resolve_damage(
    ruleset,
    target: Sheet,
    *,
    dice: int,
    damage_type: str,
    source: str = "other",
    materials: Iterable[str] = (),
    faces_damage: Iterable[int] | None = None,
    faces_soak: Iterable[int] | None = None,
    rng: random.Random | None = None,
    damage_difficulty: int | None = None,
    armor_rating: int = 0,
    armor_applies: bool = True,
    unarmored_part: bool = False,
    head_shot: bool = False,
    unsoakable: bool = False,
    chimerical: bool = False,
    flags: Iterable[str] = (),
    soak_modifiers: Iterable[Modifier] = (),
    condition: str = OK,
    stay_active_with_rage: bool = False,
    memo=None,
) -> DamageResult:
    """DMG-01..DMG-15, DMG-18, HLT-02..HLT-05, COMP-02, DICE-10 for one hit (see module doc).
    ``memo`` (combat/core/memo.py) spares building the same soak pools again."""
    request = DamageRequest(
        int(dice),
        damage_type,
        source,
        tuple(materials),
        None if faces_damage is None else tuple(faces_damage),
        None if faces_soak is None else tuple(faces_soak),
        damage_difficulty,
        int(armor_rating),
        bool(armor_applies),
        bool(unarmored_part),
        bool(head_shot),
        bool(unsoakable),
        bool(chimerical),
        tuple(flags),
        tuple(soak_modifiers),
        condition,
        bool(stay_active_with_rage),
    )
    return _resolve(ruleset, target, request, rng, memo)


def _resolve(ruleset, target: Sheet, request: DamageRequest, rng, memo=None) -> DamageResult:
    """``resolve_damage`` of a request built: the rolls, the track and the outcome."""
    condition = request.condition
    if condition not in CONDITIONS:
        raise InputError(f"'{condition}' is not a condition: use one of {', '.join(CONDITIONS)}.")
    if condition == DEAD:
        raise IllegalAction("The target is already dead.")
    dsec = require_section(ruleset, "damage")
    rules = ruleset.dice
    dtype = parse_damage_type(request.damage_type)  # DMG-18
    tags = source_tags(ruleset, request.source, request.materials, memo=memo)
    plan = _plan(ruleset, target, dtype, tags, request.head_shot, memo)
    flagset = frozenset(request.flags) | ({"chimerical"} if request.chimerical else frozenset())

    # DMG-01: the damage roll; a botch is only a failure.
    pool = max(0, request.dice)
    dicemod.check_pool(pool, rules)
    difficulty = (rules.base_difficulty if request.damage_difficulty is None
                  else request.damage_difficulty)
    dfaces = faces_for(request.faces_damage, pool, rng, rules.sides, "damage")
    droll = dicemod.count(dfaces, difficulty, rules, can_botch=dsec["damage_can_botch"])
    rolled = droll.successes

    # DMG-04..DMG-11: the soak roll, a reflex that cannot botch; no wound penalty (DICE-10).
    soak, armor_in = _soak_memo(ruleset, target, plan, max(0, request.armor_rating),
                                request.armor_applies, request.unarmored_part,
                                request.unsoakable, flagset, request.soak_modifiers, memo)
    sroll = None
    if soak is not None and rolled > 0:
        sfaces = faces_for(request.faces_soak, soak.dice, rng, rules.sides, "soak")
        sroll = dicemod.count(
            sfaces, soak.difficulty, rules, can_botch=dsec["soak_can_botch"]
        )
    soaked = min(rolled, sroll.successes if sroll else 0)
    penetrating = rolled - soaked

    # DMG-15: bashing applied to a vampire is halved (round down) after the soak roll.
    halved = plan.damage_type in dsec["halve_after_soak"].get(plan.family, ())
    applied = penetrating // 2 if halved else penetrating

    # DMG-14, HLT-02, HLT-03: the track, or a wraith's Corpus instead (revised).
    before = track_of(target, ruleset)
    pool_name = health_pool_of(ruleset, target)
    if pool_name:
        result, sheet, state_before, state_after = _corpus_hit(target, pool_name, plan,
                                                               applied, before)
    else:
        result = before.apply(plan.damage_type, applied)
        sheet = target.with_health(result.track)
        state_before, state_after = HealthState.of(before), HealthState.of(result.track)
    down = is_incapacitated(sheet, ruleset) if pool_name else result.track.incapacitated
    # HLT-02..HLT-05: the outcome.
    new, sheet, notes, spent = _condition_after(ruleset, dsec, plan, request, result, sheet,
                                                applied, down)
    if pool_name and result.marked:
        notes.append(f"{pool_name} -{result.marked}")

    daze_limit = daze_threshold(ruleset, target)  # COMP-02, on the successes after soak

    # DMG-12 (revised): armor damaged by pre-soak damage of at least twice its rating.
    multiple = require_section(ruleset, "soak")["armor"]["damaged_at_multiple"]
    armor_damaged = bool(multiple and armor_in and rolled >= multiple * request.armor_rating)

    return DamageResult(
        ruleset=ruleset.name, request=request, family=plan.family,
        damage_type=plan.damage_type, conversions=plan.conversions,
        damage_roll=droll, soak=soak, soak_roll=sroll,
        levels_rolled=rolled, soaked=soaked, penetrating=penetrating, applied=applied,
        halved=halved and penetrating > 0, marked=result.marked, overflow=result.overflow,
        track_before=before, track_after=result.track,
        health_before=state_before, health_after=state_after,
        condition_before=condition, condition=new,
        outcome=new if new != condition else "none",
        dazed=is_dazed(ruleset, target, penetrating, daze_limit), daze_threshold=daze_limit,
        armor_applied=armor_in, armor_damaged=armor_damaged,
        spent=MappingProxyType(spent), sheet=sheet, notes=tuple(notes),
    )


def _condition_after(ruleset, dsec: Mapping, plan, request: DamageRequest, result, sheet: Sheet,
                     applied: int, down: bool) -> tuple[str, Sheet, list[str], dict[str, int]]:
    """(the target's condition after the hit, its sheet, notes, what it spent): HLT-02
    Incapacitated at health 0; past it (HLT-03..05) the family's row decides (death, torpor,
    unconsciousness, a shifter's Rage to stay active or its reverting), and any further
    damage kills the doomed."""
    condition = request.condition
    notes: list[str] = []
    spent: dict[str, int] = {}
    new = condition
    if condition in DOOMED and applied > 0:
        new = DEAD
        notes.append(f"already {condition}: any further damage kills (HLT-04)")
    elif result.overflow:
        # HLT-03: bashing past Incapacitated is lethal on the track, so it takes the lethal
        # row (issue 9, defect 9: a shifter bashed on and on must not stay unconscious).
        over = "lethal" if result.converted else plan.damage_type
        table = dsec.get("past_incapacitated") or {}
        row = {**(table.get("default") or {}), **(table.get(plan.family) or {})}
        rule = row.get(over) or row.get("lethal") or "dead"
        rage = sheet.pools.get("Rage")
        if rule == "dying":
            candidate = DYING if rage and rage.current > 0 else DEAD
        elif rule == "rage_or_revert":
            cost = dsec["rage_to_stay_active"]
            if request.stay_active_with_rage and rage and rage.current >= cost:
                sheet = pay_costs(sheet, {"Rage": cost}, "stay active")
                spent["Rage"] = cost
                candidate = RAGE_ACTIVE
            else:
                if request.stay_active_with_rage:
                    notes.append("not enough Rage to stay active: reverts (HLT-04)")
                candidate = REVERTED
        else:
            candidate = {
                "dead": DEAD,
                "torpor": TORPOR,
                "unconscious": UNCONSCIOUS,
                "reverted": REVERTED,
            }[rule]
        if candidate == REVERTED:
            home = breed_form(sheet, ruleset)
            if home and home != sheet.form:
                notes.append(f"reverts to {home} (HLT-04)")
                sheet = replace(sheet, form=home)
        new = candidate if SEVERITY[candidate] > SEVERITY[condition] else condition
    elif down and SEVERITY[condition] < SEVERITY[INCAPACITATED]:
        new = INCAPACITATED  # HLT-02: health 0
        table = dsec.get("past_incapacitated") or {}
        row = {**(table.get("default") or {}), **(table.get(plan.family) or {})}
        if plan.damage_type == "bashing" and row.get("bashing") == "unconscious":
            # HLT-04 READING: a shifter brought to Incapacitated by bashing falls
            # unconscious and keeps its form.
            new = UNCONSCIOUS
    return new, sheet, notes, spent


def health_pool_of(ruleset, sheet: Sheet) -> str | None:
    """DMG-14 (revised): the pool that is this sheet's health instead of the track ("Corpus
    for Wraiths/Risen"), when the ruleset names one for its splat or family and the sheet
    has it; else None (the seven-level track)."""
    hp = (ruleset.section("damage") or {}).get("health_pool") or {}
    if not hp:
        return None
    name = hp.get(sheet.splat) or hp.get(family_of(sheet, ruleset))
    return name if name and sheet.pools.get(name) is not None else None


def is_incapacitated(sheet: Sheet, ruleset) -> bool:
    """HLT-02: health 0, on the track or (DMG-14, revised) in the health pool."""
    name = health_pool_of(ruleset, sheet)
    if name:
        return sheet.pools[name].current <= 0
    return track_of(sheet, ruleset).incapacitated


def _pool_state(name: str, pool: Pool) -> HealthState:
    """A health pool as the log shows it: "Corpus 3" (no wound penalty: the track is
    unmarked)."""
    lost = max(0, pool.permanent - pool.current)
    return HealthState(f"{name} {pool.current}", 0, 0, 0, 0,
                       "X" * lost + " " * max(0, pool.current))


def _corpus_hit(target: Sheet, name: str, plan, applied: int, track: HealthTrack):
    """DMG-14 (revised): "Unsoaked damage decreases target's health (Corpus for
    Wraiths/Risen)": the levels come off the pool instead of the track; past 0 they go
    over as past a full track (HLT-03: bashing becomes lethal)."""
    p = target.pools[name]
    lost = min(applied, max(0, p.current))
    over = applied - lost
    kind = plan.damage_type
    converted = over if kind == "bashing" else 0
    result = Applied(track, lost, converted, over if kind != "aggravated" else 0,
                     over if kind == "aggravated" else 0)
    after = Pool(p.current - lost, p.permanent)
    sheet = replace(target, pools=MappingProxyType({**target.pools, name: after}))
    return result, sheet, _pool_state(name, p), _pool_state(name, after)


# ---------------------------------------------------------------- load-time checks


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
                for trait in (cell or {}).get("terms", ()):
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
