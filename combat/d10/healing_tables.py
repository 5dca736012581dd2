"""The healing and generations tables (``rules/*/healing.yaml``): their schemas and load
checks, the V20 generation chart (HEAL-01, PWR-01 blood a turn), which Power Healing row
a sheet heals by (HEAL-10, HEAL-05 by race) and the reads the healing modules share.
Also the time texts the tables write ("3 days", "12 hours") and their arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .damage_tables import family_of, require_section, track_of
from ..core.errors import IllegalAction, InputError
from ..core.health import DAMAGE_TYPES, HealthTrack
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.sheet import Sheet



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


# HEAL-06: a mage's Life healing. The table's presence is what turns the heal on
# (mending.check_table), so a ruleset without it has none; its keys default to no Life
# minimum and vulgar aggravated healing.
MAGE_SCHEMA = Struct(
    optional={
        "life_to_heal_others": Optional(Int(0, 10)),
        "life_to_heal_self": Optional(Int(0, 10)),
        "aggravated_cost": MapOf(Int(0, 100)),
        "aggravated_vulgar": Bool(),
    },
    defaults={"life_to_heal_others": None, "life_to_heal_self": None,
              "aggravated_cost": {}, "aggravated_vulgar": True},
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
        "mage": MAGE_SCHEMA,
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
    # A family not named heals with time (HLT-09); no healer tables: no supernatural healing.
    defaults={"heals_by_time": {}, "healers": {}, "healer_by_family": {}, "healer_by_race": {}},
)


_UNITS = {"minute": 1, "hour": 60, "day": 1440, "week": 10080, "month": 43200}


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


@dataclass(frozen=True, slots=True)
class Generation:
    generation: int
    trait_max: int
    blood_max: int | None  # None: no limit on record (V20 "???")
    blood_per_turn: int | None


def _track(sheet: Sheet, ruleset) -> HealthTrack:
    return track_of(sheet, ruleset)


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
