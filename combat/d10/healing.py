"""Supernatural healing that changes a sheet: HEAL-01/02/05 healing with blood (and
aggravated damage), HEAL-02 a ghoul's limb regrowth, HEAL-06 a mage's Life healing.
Shifters' healing is shifter_healing.py, healing with time heal_time.py, the tables
healing_tables.py, the field heals (HEAL-08/09) field_healing.py.

Every function takes a sheet (and the ruleset; dice functions take exact ``faces`` or an
``rng``) and returns a frozen ``HealResult``: the new sheet, the track before and after,
what was healed, what it cost, how long it takes, the roll if any, and flags for what
happens next. A heal the rules refuse raises ``IllegalAction`` saying why; a malformed
request raises ``InputError``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from ..core import dice as dicemod
from .damage import HealthState, faces_for
from .damage_tables import family_of, require_section
from .wound_penalty import pay_costs
from ..core.errors import IllegalAction, InputError
from ..core.health import damage_type as parse_damage_type
from ..core.sheet import Sheet

from .healing_tables import MAGE_SCHEMA, _row, _scale, _stated, _track, blood_per_turn


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


def mage_heal(
    caster: Sheet, ruleset, *, kind: str, levels: int, target: Sheet | None = None
) -> HealResult:
    """HEAL-06 (M20 p. 407, 246): healing another takes Life 3; healing aggravated damage is
    vulgar and costs a Quintessence a level. The Arete roll that decides ``levels`` is the
    caller's (it is an ordinary magic roll)."""
    kind = parse_damage_type(kind)
    if levels < 1:
        raise InputError("Heal how many levels? e.g. levels=1.")
    # no mage table: mending refuses the heal first; called directly, the schema's defaults
    sec = require_section(ruleset, "healing").get("mage") or MAGE_SCHEMA.complete({})
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
