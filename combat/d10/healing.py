"""Healing: blood, regeneration, Rage, magic and the Dreaming (HEAL-01..HEAL-07, HEAL-10).

Tables are YAML (``healing:`` and ``generations:`` sections, ``rules/numetal/healing.yaml``);
the natural healing times per level stay in ``health:`` (HLT-09). Every function takes a
sheet (and the ruleset; dice functions take exact ``faces`` or an ``rng``) and returns a
frozen ``HealResult``: the new sheet, the track before and after, what was healed, what it
cost, how long it takes, the roll if any, and flags for what happens next. A heal the rules
refuse raises ``IllegalAction`` saying why; a malformed request raises ``InputError``.

API
---
``generation(ruleset, n) -> Generation``; ``blood_per_turn(sheet, ruleset) -> int | None``
    the V20 generation chart (trait max, blood pool, blood per turn; HEAL-01, PWR-01).
``healer(sheet, ruleset) -> str | None``: which Power Healing row a sheet uses (HEAL-10).
``power_healing(ruleset) -> Mapping``: the Power Healing table itself (HEAL-10).
``heal_with_blood(sheet, ruleset, *, bashing=0, lethal=0, spent_this_turn=0)``
    HEAL-01 / HEAL-02 / HEAL-05: 1 blood a level, within blood per turn.
``heal_aggravated_with_blood(sheet, ruleset, *, levels=1, rested=False)``
    HEAL-01: 5 blood after a day's rest, +5 blood +1 WP per extra level; HEAL-05 Ananasi.
``natural_heal_time(sheet, ruleset, kind) -> HealTime``: HLT-09, refused for vampires.
``regenerate_limb(sheet, ruleset, *, part, age_years=0, faces=None, rng=None)``: HEAL-02.
``regenerate(sheet, ruleset, *, kind=None, stressed=False, blocked_until_rest=False,
flags=(), faces=None, rng=None)``: HEAL-03 / HEAL-05 shifter regeneration.
``rage_heal(sheet, ruleset, *, condition, used_this_scene=False, faces=None, rng=None)``
    HEAL-04: the result's ``condition`` is the new condition (see wodcombat.combat.d10.damage).
``mage_heal(caster, ruleset, *, kind, levels, target=None)``: HEAL-06.
``changeling_heal_time(sheet, ruleset, kind, *, chimerical, place="mundane") -> HealTime``
    HEAL-07; ``place`` is mundane, freehold or dreaming.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from ..core import dice as dicemod
from .damage import HealthState, faces_for
from .damage_tables import DEAD, DYING, OK, family_of, require_section, track_of
from .soak import in_weak_breed_form
from .wound_penalty import pay_costs
from ..core.errors import IllegalAction, InputError
from ..core.health import DAMAGE_TYPES, HealthTrack, damage_type as parse_damage_type
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.sheet import Sheet

# ---------------------------------------------------------------- schemas

GENERATIONS_SCHEMA = Struct(
    required={
        "table": MapOf(
            Struct(
                required={
                    "trait_max": Int(1, 100),
                    "blood_max": Optional(Int(0, 1000)),
                    "blood_per_turn": Optional(Int(0, 100)),
                },
            ),
            key=Int(1, 20),
        )
    },
    optional={"source": Str()},
)

_COST = Struct(
    required={"cost": Int(0, 100), "time": Str()},
    optional={"needs_rest": Bool(), "extra_level": MapOf(Int(0, 100))},
)

HEALING_SCHEMA = Struct(
    optional={
        "source": Str(),
        "heals_by_time": MapOf(Bool()),
        "healers": MapOf(
            Struct(
                required={
                    "pool": Optional(Str()),
                    "levels_per_turn": Optional(Int(0, 100)),
                    "bashing": _COST,
                    "lethal": _COST,
                    "aggravated": _COST,
                },
                optional={"label": Str(), "ref": Str(), "not_in_forms": ListOf(Str())},
            )
        ),
        "healer_by_family": MapOf(Optional(Str())),
        "healer_by_race": MapOf(Optional(Str())),
        "regeneration": Struct(
            optional={
                "heals": ListOf(Str(choices=DAMAGE_TYPES)),
                "stress_roll": Struct(required={"trait": Str(), "difficulty": Int(1, 100)}),
                # HEAL-03: a homid/lupus in breed form heals one level per ``critical_time``
                # from ``critical_from`` on, otherwise like a mortal (HLT-09).
                "breed_form": Struct(required={"critical_from": Str(), "critical_time": Str()}),
                "breed_form_exceptions": ListOf(
                    Struct(
                        required={"race": Str(), "flag": Str()},
                        optional={"breeds": ListOf(Str())},  # absent: every breed
                    )
                ),
            },
            # HEAL-03 (W20 p. 256): bashing and lethal, Stamina at 8 under stress
            defaults={"heals": ("lethal", "bashing"), "breed_form_exceptions": (),
                      "stress_roll": {"trait": "Stamina", "difficulty": 8}},
        ),
        "rage_heal": Struct(
            optional={
                "pool": Str(),
                "difficulty": Int(1, 100),
                "from_conditions": ListOf(Str()),
                "removes": ListOf(Str(choices=DAMAGE_TYPES)),
            },
            # HEAL-04 (W20 p. 356): Rage at 8; every damage type, lightest first
            defaults={"pool": "Rage", "difficulty": 8, "from_conditions": (),
                      "removes": DAMAGE_TYPES},
        ),
        "limb_regeneration": Struct(
            optional={
                "willpower": Int(0, 10),
                "trait": Str(),
                "difficulty": Int(1, 100),
                "difficulty_per_century": Int(-10, 10),
                "parts": MapOf(Int(0, 50)),
            },
            # HEAL-02 (V20 p. 501): a Willpower point, Stamina at 8, -1 a century of age
            defaults={"willpower": 1, "trait": "Stamina", "difficulty": 8,
                      "difficulty_per_century": -1, "parts": {}},
        ),
        "mage": Struct(
            optional={
                "life_to_heal_others": Optional(Int(0, 10)),
                "life_to_heal_self": Optional(Int(0, 10)),
                "aggravated_cost": MapOf(Int(0, 100)),
                "aggravated_vulgar": Bool(),
            },
            # HEAL-07: no Life minimum unless a ruleset states one; aggravated is vulgar
            defaults={"life_to_heal_others": None, "life_to_heal_self": None,
                      "aggravated_cost": {}, "aggravated_vulgar": True},
        ),
        "changeling": Struct(
            optional={
                "chimerical": ListOf(
                    Struct(required={"level": Str(), "bashing": Str(), "lethal": Str()})
                ),
                "freehold_divisor": Int(1, 10),
                "dreaming_per_level": Str(),
                "aggravated_minimum": Str(),
                "aggravated_dreaming_per_level": Str(),
                "chimerical_incapacitated_needs": Str(),
                "physical_medical_from": Str(),
            },
            # HEAL-06 (C20): half time in a freehold; the Dreaming's own clock
            defaults={"chimerical": (), "freehold_divisor": 2,
                      "dreaming_per_level": "15 minutes", "aggravated_minimum": "1 day",
                      "aggravated_dreaming_per_level": "12 hours",
                      "chimerical_incapacitated_needs": "freehold"},
        ),
    },
    # A family not named heals with time (HLT-09); a ruleset without mage healing has the
    # book's (V20 p. 285 / M20) vulgar aggravated healing and no Life minimum.
    defaults={"heals_by_time": {}, "healers": {}, "healer_by_family": {}, "healer_by_race": {},
              "mage": {}},
)

# ---------------------------------------------------------------- time

_UNITS = {"minute": 1, "hour": 60, "day": 1440, "week": 10080, "month": 43200}
PLACES = ("mundane", "freehold", "dreaming")


def parse_time(text: str) -> tuple[int, str]:
    """'3 hours' -> (3, 'hour'); units minute, hour, day, week, month (30 days) or turn."""
    parts = str(text).strip().lower().split()
    if len(parts) != 2 or not parts[0].isdigit():
        raise InputError(f"'{text}' is not a time like '3 hours'.")
    unit = parts[1].rstrip("s")
    if unit not in _UNITS and unit != "turn":
        raise InputError(
            f"'{text}': the unit must be minutes, hours, days, weeks, months or turns."
        )
    return int(parts[0]), unit


def minutes(text: str) -> int:
    n, unit = parse_time(text)
    if unit == "turn":
        raise InputError(f"'{text}' is counted in turns, not clock time.")
    return n * _UNITS[unit]


def show_minutes(total: int) -> str:
    """The largest whole unit: 720 -> '12 hours', 1440 -> '1 day', 45 -> '45 minutes'."""
    for unit in ("month", "week", "day", "hour", "minute"):
        size = _UNITS[unit]
        if total >= size and total % size == 0:
            n = total // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{total} minutes"


def _scale(text: str, n: int) -> str:
    amount, unit = parse_time(text)
    total = amount * n
    return f"{total} {unit}{'s' if total != 1 else ''}"


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Generation:
    generation: int
    trait_max: int
    blood_max: int | None  # None: no limit on record (V20 "???")
    blood_per_turn: int | None


@dataclass(frozen=True, slots=True)
class HealTime:
    text: str
    minutes: int
    needs: str | None = None  # what must happen first ("medical attention", "freehold")
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HealResult:
    rule: str  # the rule ID applied
    sheet: Sheet = field(repr=False)  # the healed sheet (with its own costs paid)
    health_before: HealthState
    health_after: HealthState
    healed: Mapping[str, int]  # damage type -> levels healed
    cost: Mapping[str, int]  # pool -> points spent
    time: str  # how long it takes ("1 turn", "1 day", "5 turns")
    roll: dicemod.Roll | None = None
    condition: str | None = None  # the new condition, when the heal changes it (HEAL-04)
    flags: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()
    payer: Sheet | None = field(default=None, repr=False)  # another who paid (HEAL-06)

    def as_dict(self) -> dict:
        return {
            "rule": self.rule,
            "healed": dict(self.healed),
            "cost": dict(self.cost),
            "time": self.time,
            "roll": self.roll.as_dict() if self.roll else None,
            "condition": self.condition,
            "flags": sorted(self.flags),
            "notes": list(self.notes),
            "health_before": self.health_before.boxes,
            "health_after": self.health_after.boxes,
        }


def _track(sheet: Sheet, ruleset) -> HealthTrack:
    return track_of(sheet, ruleset)


def _result(rule, before_sheet, sheet, healed, cost, time, ruleset, **kw) -> HealResult:
    return HealResult(
        rule,
        sheet,
        HealthState.of(_track(before_sheet, ruleset)),
        HealthState.of(_track(sheet, ruleset)),
        MappingProxyType({k: v for k, v in healed.items() if v}),
        MappingProxyType({k: v for k, v in cost.items() if v}),
        time,
        **kw,
    )


def _heal(sheet: Sheet, ruleset, healed: Mapping[str, int]) -> Sheet:
    track = _track(sheet, ruleset)
    for kind, n in healed.items():
        track = track.heal(kind, n)
    return sheet.with_health(track)


# ---------------------------------------------------------------- generation, healers


def generation(ruleset, n: int) -> Generation:
    """The V20 generation chart row (V20 p. 121)."""
    table = require_section(ruleset, "generations")["table"]
    row = table.get(int(n))
    if row is None:
        raise InputError(f"Generation {n} is not on the chart ({min(table)}-{max(table)}).")
    return Generation(int(n), row["trait_max"], row["blood_max"], row["blood_per_turn"])


def blood_per_turn(sheet: Sheet, ruleset) -> int | None:
    """HEAL-01 / PWR-01: blood a vampire (or ghoul, "same rules") may spend in one turn."""
    return generation(ruleset, sheet.generation).blood_per_turn


def healer(sheet: Sheet, ruleset) -> str | None:
    """The Power Healing row this sheet heals by (HEAL-10), or None (no such healing)."""
    sec = require_section(ruleset, "healing")
    fam = family_of(sheet, ruleset)
    by_race = sec.get("healer_by_race") or {}
    if fam == "shifter" and sheet.race in by_race:
        return by_race[sheet.race]  # HEAL-05: Ananasi bleed, Kitsune do not regenerate
    return (sec.get("healer_by_family") or {}).get(fam)


def power_healing(ruleset) -> Mapping[str, Mapping]:
    """HEAL-10: the Power Healing table (cost and time per level and type)."""
    return MappingProxyType(dict(require_section(ruleset, "healing").get("healers") or {}))


def _stated(ruleset, key: str, what: str) -> Mapping:
    """The ``healing.<key>`` table, or a refusal naming the rule when this ruleset's seed
    has none (revised, everyman, v20: HEAL-02..04 and HEAL-07 are seed 000's)."""
    sec = require_section(ruleset, "healing").get(key)
    if not sec:
        raise IllegalAction(f"There is no {what} in this ruleset: wounds heal with time "
                            f"(+combat/recover).")
    return sec


def _row(sheet: Sheet, ruleset, want_pool: bool) -> tuple[str, dict]:
    name = healer(sheet, ruleset)
    rows = require_section(ruleset, "healing").get("healers") or {}
    who = sheet.race or sheet.splat
    if name is None or name not in rows:
        raise IllegalAction(f"A {who} has no supernatural healing; wounds heal with time.")
    row = rows[name]
    if want_pool and not row["pool"]:
        raise IllegalAction(f"A {who} does not heal with blood; it regenerates.")
    if sheet.form and sheet.form in (row.get("not_in_forms") or ()):
        raise IllegalAction(
            f"A {who} cannot heal this way in {sheet.form} form."
        )
    return name, row


# ---------------------------------------------------------------- HEAL-01, -02, -05 blood


def heal_with_blood(
    sheet: Sheet, ruleset, *, bashing: int = 0, lethal: int = 0, spent_this_turn: int = 0
) -> HealResult:
    """HEAL-01: one blood heals one level of bashing or lethal damage in a turn, and blood
    spent in a turn (on anything) is capped by generation (V20 p. 121, 268). HEAL-02
    ghouls and HEAL-05 Ananasi (not in Crawlerling, one level a turn) use the same rule."""
    if bashing < 0 or lethal < 0 or bashing + lethal == 0:
        raise InputError("Heal how many levels? e.g. bashing=1 or lethal=2.")
    name, row = _row(sheet, ruleset, want_pool=True)
    track = _track(sheet, ruleset)
    for kind, n in (("bashing", bashing), ("lethal", lethal)):
        if n > getattr(track, kind):
            raise IllegalAction(f"There are only {getattr(track, kind)} {kind} levels to heal.")
    cost = bashing * row["bashing"]["cost"] + lethal * row["lethal"]["cost"]
    cap = row["levels_per_turn"]
    why = f"a {name} heals at most {cap} level(s) a turn"
    if cap is None:
        cap = blood_per_turn(sheet, ruleset)
        why = f"generation {sheet.generation} spends at most {cap} blood a turn"
    if cap is not None and spent_this_turn + cost > cap:
        raise IllegalAction(
            f"Too much in one turn: {why}; {spent_this_turn} already spent, this takes {cost}."
        )
    paid = pay_costs(sheet, {row["pool"]: cost}, "heal")
    healed = {"bashing": bashing, "lethal": lethal}
    return _result(
        "HEAL-01" if name != "ananasi" else "HEAL-05",
        sheet,
        _heal(paid, ruleset, healed),
        healed,
        {row["pool"]: cost},
        row["lethal"]["time"],
        ruleset,
    )


def heal_aggravated_with_blood(
    sheet: Sheet, ruleset, *, levels: int = 1, rested: bool = False
) -> HealResult:
    """HEAL-01 (V20 p. 285): a level of aggravated damage takes a full day's rest and five
    blood; at the end of that day each further level takes five more blood and a Willpower.
    HEAL-05 (CB20 p. 60): an Ananasi spends five blood over five turns per level."""
    if levels < 1:
        raise InputError("Heal how many aggravated levels? e.g. levels=1.")
    name, row = _row(sheet, ruleset, want_pool=True)
    agg = row["aggravated"]
    have = _track(sheet, ruleset).aggravated
    if levels > have:
        raise IllegalAction(f"There are only {have} aggravated levels to heal.")
    if agg.get("needs_rest") and not rested:
        raise IllegalAction(
            "Aggravated wounds heal with blood only after a full day's rest."
        )
    cost = {row["pool"]: agg["cost"]}
    extra = agg.get("extra_level") or {row["pool"]: agg["cost"]}
    for pool, n in extra.items():
        cost[pool] = cost.get(pool, 0) + n * (levels - 1)
    paid = pay_costs(sheet, cost, "heal aggravated wounds")
    time = agg["time"] if agg.get("needs_rest") else _scale(agg["time"], levels)
    healed = {"aggravated": levels}
    return _result(
        "HEAL-01" if name != "ananasi" else "HEAL-05",
        sheet,
        _heal(paid, ruleset, healed),
        healed,
        cost,
        time,
        ruleset,
    )


def natural_heal_time(sheet: Sheet, ruleset, kind: str) -> HealTime:
    """HLT-09: time to heal the worst level of ``kind`` naturally (health: table), with the
    table's footnote for that level and type (``care_bashing`` / ``care_lethal``: what care it
    needs). HEAL-01: vampires do not heal with time; HEAL-02: ghouls do. HEAL-03: a homid or
    lupus shifter in breed form heals one level a day in critical condition, otherwise like
    a mortal (W20 p. 256)."""
    kind = parse_damage_type(kind)
    fam = family_of(sheet, ruleset)
    if not require_section(ruleset, "healing")["heals_by_time"].get(fam, True):  # unnamed: heals
        raise IllegalAction(
            f"A {fam} does not heal with the passing of time; it heals with blood."
        )
    track = _track(sheet, ruleset)
    if not getattr(track, kind):
        raise IllegalAction(f"There is no {kind} damage to heal.")
    levels = require_section(ruleset, "health")["levels"]
    lv = levels[track.damage - 1]
    text = lv.get("heal_bashing" if kind == "bashing" else "heal_lethal")
    if not text:
        raise IllegalAction(f"The health table gives no healing time for {lv['name']}.")
    care = lv.get("care_bashing" if kind == "bashing" else "care_lethal")
    notes: tuple[str, ...] = ()
    breed = (require_section(ruleset, "healing").get("regeneration") or {}).get("breed_form")
    if fam == "shifter" and breed and in_weak_breed_form(sheet, ruleset):
        names = [x["name"] for x in levels]
        if breed["critical_from"] in names and track.damage - 1 >= names.index(
                breed["critical_from"]):
            text = breed["critical_time"]
            notes = ("in breed form, critical condition: one level a day",)
        else:
            notes = ("in breed form: heals like a mortal",)
    return HealTime(text, minutes(text), care, notes)


def regenerate_limb(
    sheet: Sheet,
    ruleset,
    *,
    part: str,
    age_years: int = 0,
    faces: Iterable[int] | None = None,
    rng: random.Random | None = None,
) -> HealResult:
    """HEAL-02 (V20 p. 501): a ghoul spends a Willpower and 1-3 blood by the part, then rolls
    Stamina at 8, one less per century of age. Failure or botch: the limb never regrows."""
    if family_of(sheet, ruleset) != "ghoul":
        raise IllegalAction("Only ghouls regrow limbs this way.")
    sec = _stated(ruleset, "limb_regeneration", "limb regrowth")
    parts = sec["parts"]
    key = part.strip().lower()
    if key not in parts:
        raise InputError(f"'{part}' is not a part here: use one of {', '.join(parts)}.")
    cost = {"Willpower": sec["willpower"], "Blood": parts[key]}
    paid = pay_costs(sheet, cost, f"regrow a {key}")
    rules = ruleset.dice
    difficulty = sec["difficulty"] + sec["difficulty_per_century"] * (
        max(0, age_years) // 100
    )
    pool = sheet.rating(ruleset.traits, sec["trait"])
    roll = dicemod.count(
        faces_for(faces, pool, rng, rules.sides, "regeneration"), difficulty, rules
    )
    flags = frozenset({"regrown"}) if roll.successes else frozenset({"never_regrows"})
    return _result("HEAL-02", sheet, paid, {}, cost, "1 turn", ruleset, roll=roll, flags=flags)


# ---------------------------------------------------------------- HEAL-03, -04 shifters


def regenerate(
    sheet: Sheet,
    ruleset,
    *,
    kind: str | None = None,
    stressed: bool = False,
    blocked_until_rest: bool = False,
    flags: Iterable[str] = (),
    faces: Iterable[int] | None = None,
    rng: random.Random | None = None,
) -> HealResult:
    """HEAL-03 (W20 p. 256): a shifter regenerates one bashing or lethal level a turn, outside
    its breed form (homid/lupus) and in every form for metis. In combat or other stress it
    first rolls Stamina at 8 (reflex): failure heals nothing this turn, a botch nothing until
    it rests (flag ``no_regeneration_until_rest``; pass ``blocked_until_rest`` after that).
    HEAL-05: Kitsune do not regenerate; Ananasi heal with blood; sea-born Rokea in salt water
    (flag ``salt_water``) regenerate even in breed form."""
    sec, row = _regeneration(sheet, ruleset)
    if in_weak_breed_form(sheet, ruleset):
        _check_breed_form(sheet, sec, frozenset(flags))
    if blocked_until_rest:
        raise IllegalAction(
            "A botched regeneration roll stops healing until you rest."
        )
    track = _track(sheet, ruleset)
    kind = _regenerated_kind(track, tuple(sec["heals"]), row, kind)
    roll = None
    out_flags: set[str] = set()
    n = min(row["levels_per_turn"] or 1, getattr(track, kind))
    if stressed:
        roll = _stress_roll(sheet, ruleset, sec, faces, rng)
        if roll.failed:
            n = 0
            if roll.botch:
                out_flags.add("no_regeneration_until_rest")
    healed = {kind: n}
    return _result(
        "HEAL-03",
        sheet,
        _heal(sheet, ruleset, healed),
        healed,
        {},
        row[kind]["time"],
        ruleset,
        roll=roll,
        flags=frozenset(out_flags),
    )


def _regeneration(sheet: Sheet, ruleset) -> tuple[Mapping, Mapping]:
    """(the rules' regeneration section, the sheet's healer row), or IllegalAction when this
    sheet does not regenerate (HEAL-03; HEAL-05 Kitsune none, Ananasi blood)."""
    if family_of(sheet, ruleset) != "shifter":
        raise IllegalAction("Only shifters regenerate.")
    sec = _stated(ruleset, "regeneration", "shifter regeneration")
    name = healer(sheet, ruleset)
    if name is None:
        raise IllegalAction(f"{sheet.race or 'This shifter'} does not regenerate.")
    row = (require_section(ruleset, "healing").get("healers") or {}).get(name)
    if row is None or row["pool"]:
        raise IllegalAction(
            f"{sheet.race or 'This shifter'} heals with blood, not "
            f"regeneration."
        )
    return sec, row


def _check_breed_form(sheet: Sheet, sec: Mapping, given: frozenset[str]) -> None:
    """HEAL-03: a homid or lupus in breed form does not regenerate, unless one of the
    section's exceptions holds (HEAL-05: sea-born Rokea in salt water)."""
    breed = sheet.breed or "homid"
    saved = any(
        e["race"] == sheet.race and breed in e.get("breeds", (breed,)) and e["flag"] in given
        for e in sec["breed_form_exceptions"]
    )
    if not saved:
        raise IllegalAction(
            "In breed form a homid or lupus heals like a mortal (one level "
            "a day in critical condition)."
        )


def _regenerated_kind(track: HealthTrack, heals: tuple[str, ...], row: Mapping,
                      kind: str | None) -> str:
    """The damage type a turn's regeneration heals: the one asked for, else the first of
    ``heals`` the track holds."""
    if kind is None:
        kind = next((k for k in heals if getattr(track, k)), None)
        if kind is None:
            raise IllegalAction("There is no " + " or ".join(heals) + " damage to regenerate.")
        return kind
    kind = parse_damage_type(kind)
    if kind not in heals:
        raise IllegalAction(
            f"Regeneration does not heal {kind} damage in a turn "
            f"({row[kind]['time']} a level)."
        )
    if not getattr(track, kind):
        raise IllegalAction(f"There is no {kind} damage to heal.")
    return kind


def _stress_roll(sheet: Sheet, ruleset, sec: Mapping, faces, rng):
    """HEAL-03: in combat or other stress, the reflex roll (Stamina at 8) before healing."""
    stress = sec["stress_roll"]
    rules = ruleset.dice
    pool = sheet.rating(ruleset.traits, stress["trait"])
    return dicemod.count(
        faces_for(faces, pool, rng, rules.sides, "regeneration"), stress["difficulty"], rules
    )


def rage_heal(
    sheet: Sheet,
    ruleset,
    *,
    condition: str,
    used_this_scene: bool = False,
    faces: Iterable[int] | None = None,
    rng: random.Random | None = None,
) -> HealResult:
    """HEAL-04 (W20 p. 356): once a scene, a shifter past Incapacitated rolls Rage at 8. Each
    success is a level counted back from Incapacitated (3 successes: Wounded, whatever the
    damage was); it can avoid death this way and starts next turn in berserk frenzy."""
    sec = _stated(ruleset, "rage_heal", "Rage-healing")
    pool_name = sec["pool"]
    allowed = sec["from_conditions"]
    if condition not in allowed:
        raise IllegalAction(
            "Rage-healing is only for a shifter past Incapacitated "
            f"({', '.join(allowed)}); now: {condition}."
        )
    if used_this_scene:
        raise IllegalAction("Rage-healing works once per scene.")
    rage = sheet.pools.get(pool_name)
    if rage is None or rage.current <= 0:
        raise IllegalAction(f"Rage-healing needs {pool_name} to roll; there is none.")
    rules = ruleset.dice
    roll = dicemod.count(
        faces_for(faces, rage.current, rng, rules.sides, pool_name), sec["difficulty"], rules
    )
    track = _track(sheet, ruleset)
    target = max(0, track.capacity - roll.successes)
    to_remove = max(0, track.damage - target) if roll.successes else 0
    healed: dict[str, int] = {}
    for kind in sec["removes"]:  # lightest marks first
        n = min(to_remove, getattr(track, kind))
        if n:
            healed[kind] = n
            to_remove -= n
    new_sheet = _heal(sheet, ruleset, healed)
    if roll.successes:
        new_condition = OK if not _track(new_sheet, ruleset).incapacitated else condition
        flags = frozenset({"berserk_frenzy"})
    else:
        new_condition = DEAD if condition == DYING else condition
        flags = frozenset()
    return _result(
        "HEAL-04",
        sheet,
        new_sheet,
        healed,
        {},
        "reflex",
        ruleset,
        roll=roll,
        condition=new_condition,
        flags=flags,
    )


# ---------------------------------------------------------------- HEAL-06 mages


def mage_heal(
    caster: Sheet, ruleset, *, kind: str, levels: int, target: Sheet | None = None
) -> HealResult:
    """HEAL-06 (M20 p. 407, 246): healing another takes Life 3; healing aggravated damage is
    vulgar and costs a Quintessence a level. The Arete roll that decides ``levels`` is the
    caller's (it is an ordinary magic roll)."""
    kind = parse_damage_type(kind)
    if levels < 1:
        raise InputError("Heal how many levels? e.g. levels=1.")
    sec = require_section(ruleset, "healing")["mage"]
    if family_of(caster, ruleset) != "mage":
        raise IllegalAction("Only a mage heals with the Life sphere.")
    other = target is not None
    need = sec.get("life_to_heal_others" if other else "life_to_heal_self")
    life = caster.rating(ruleset.traits, "Life")
    if need is not None and life < need:
        who = "another" if other else "yourself"
        raise IllegalAction(f"Healing {who} takes Life {need}; you have Life {life}.")
    patient = target if other else caster
    have = getattr(_track(patient, ruleset), kind)
    if levels > have:
        raise IllegalAction(f"There are only {have} {kind} levels to heal.")
    cost: dict[str, int] = {}
    flags: set[str] = set()
    if kind == "aggravated":
        cost = {p: n * levels for p, n in sec["aggravated_cost"].items()}
        if sec["aggravated_vulgar"]:
            flags.add("vulgar")
    payer = pay_costs(caster, cost, "heal aggravated wounds") if cost else caster
    healed = {kind: levels}
    if other:
        return _result(
            "HEAL-06",
            patient,
            _heal(patient, ruleset, healed),
            healed,
            cost,
            "1 turn",
            ruleset,
            flags=frozenset(flags),
            payer=payer,
        )
    return _result(
        "HEAL-06",
        patient,
        _heal(payer, ruleset, healed),
        healed,
        cost,
        "1 turn",
        ruleset,
        flags=frozenset(flags),
    )


# ---------------------------------------------------------------- HEAL-07 changelings


def changeling_heal_time(
    sheet: Sheet, ruleset, kind: str, *, chimerical: bool, place: str = "mundane"
) -> HealTime:
    """HEAL-07 (C20 p. 290-291): the time to heal the worst level of ``kind``.

    Chimerical wounds use the chimerical table, halved in a freehold or glade, one level per
    15 minutes in the Dreaming; Incapacitated outside the Dreaming must reach a freehold.
    Physical wounds heal at the natural rate, or at the chimerical table's rate in a
    freehold; Mauled or worse needs medical attention outside one. Aggravated wounds heal at
    the natural rate, only halved in a freehold (at least a day a level), 12 hours a level in
    the Dreaming.
    """
    kind = parse_damage_type(kind)
    if place not in PLACES:
        raise InputError(f"'{place}' is not a place: use one of {', '.join(PLACES)}.")
    if family_of(sheet, ruleset) != "changeling":
        raise IllegalAction("Only changelings use the chimerical healing table.")
    sec = _stated(ruleset, "changeling", "chimerical healing table")
    track = _track(sheet, ruleset)
    if not getattr(track, kind):
        raise IllegalAction(f"There is no {kind} damage to heal.")
    index = track.damage - 1
    levels = require_section(ruleset, "health")["levels"]
    level = levels[index]
    table = sec["chimerical"]
    row = table[index] if index < len(table) else table[-1]
    divisor = sec["freehold_divisor"]
    needs = None
    notes: list[str] = []
    if kind == "aggravated":
        if place == "dreaming":
            text = sec["aggravated_dreaming_per_level"]
            return HealTime(text, minutes(text))
        total = minutes(level["heal_lethal"])
        if place == "freehold":
            total //= divisor
            notes.append("halved in a freehold or glade")
        total = max(total, minutes(sec["aggravated_minimum"]))
        return HealTime(show_minutes(total), total, None, tuple(notes))
    if chimerical:
        if place == "dreaming":
            text = sec["dreaming_per_level"]
            return HealTime(text, minutes(text), None, ("in the Dreaming",))
        total = minutes(row[kind])
        if place == "freehold":
            total //= divisor
            notes.append("halved in a freehold or glade")
        elif level["name"] == levels[-1]["name"]:
            needs = sec["chimerical_incapacitated_needs"]
        return HealTime(show_minutes(total), total, needs, tuple(notes))
    if place == "freehold":
        text = row[kind]
        return HealTime(
            text,
            minutes(text),
            None,
            ("physical wounds heal at the chimerical rate in a freehold or glade",),
        )
    text = level["heal_bashing" if kind == "bashing" else "heal_lethal"]
    worst = sec.get("physical_medical_from")
    names = [lv["name"] for lv in levels]
    if worst in names and index >= names.index(worst):
        needs = "medical attention"
    return HealTime(text, minutes(text), needs)


# ---------------------------------------------------------------- load-time checks


def check(ruleset) -> list[tuple[str, str]]:
    """Names the healing tables use that other sections must define."""
    out: list[tuple[str, str]] = []
    sec = ruleset.section("healing")
    if not sec:
        return out
    rows = sec.get("healers") or {}
    for where in ("healer_by_family", "healer_by_race"):
        for key, name in (sec.get(where) or {}).items():
            if name is not None and name not in rows:
                out.append((f"healing.{where}.{key}", f"'{name}' is not in healing.healers"))
    pools = ruleset.traits.pools
    for name, row in rows.items():
        if row["pool"] and row["pool"] not in pools:
            out.append((f"healing.healers.{name}.pool", f"'{row['pool']}' is not a pool"))
        for kind in DAMAGE_TYPES:
            try:
                parse_time(row[kind]["time"])
            except InputError as err:
                out.append((f"healing.healers.{name}.{kind}.time", str(err)))
    health = ruleset.section("health") or {"levels": ()}
    table = (sec.get("changeling") or {}).get("chimerical") or ()
    if table and len(table) != len(health["levels"]):
        out.append(("healing.changeling.chimerical", "needs one row per health level"))
    for i, row in enumerate(table):
        for kind in ("bashing", "lethal"):
            try:
                minutes(row[kind])
            except InputError as err:
                out.append((f"healing.changeling.chimerical[{i}].{kind}", str(err)))
    return out


__all__ = [
    "GENERATIONS_SCHEMA",
    "HEALING_SCHEMA",
    "Generation",
    "HealResult",
    "HealTime",
    "blood_per_turn",
    "changeling_heal_time",
    "generation",
    "heal_aggravated_with_blood",
    "heal_with_blood",
    "healer",
    "mage_heal",
    "natural_heal_time",
    "power_healing",
    "rage_heal",
    "regenerate",
    "regenerate_limb",
]
