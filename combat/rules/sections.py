"""The top-level sections a ruleset may hold, and the checks that span sections.

A new table means: a schema beside the code that reads it, one line here.
"""

from __future__ import annotations

from . import catalog
from ..core import dice, health, traits
from ..core.errors import RuleIssue
from ..d10 import scheduler as _scheduler  # noqa: E402 (initiative and turn tables)
from ..d10 import damage_tables as _damage, healing_tables as _healing  # noqa: E402 (damage/heal tables)
from ..core import maneuvers as _maneuvers  # noqa: E402 (attack, maneuver, weapon, armor tables)
from ..core import maneuver_schemas as _mschemas  # noqa: E402 (their schemas)
from ..spotlight import schema as _spotlight  # noqa: E402 (the spotlight engine's tables, SPOT-xx)
from ..d10 import powers as _powers  # noqa: E402 (power limits)
from ..d10 import wound_movement as _wound_movement  # noqa: E402 (HLT-07)
from ..d10 import field_healing as _field_healing, kiss_rules as _kiss  # noqa: E402 (HEAL-08/09, CLOSE-14)
from ..spotlight import attack as _spot_attack  # noqa: E402 (spotlight attack roll, issue 4)
from ..spotlight import dice as _v5dice  # noqa: E402 (V5 dice of spotlight, issue 10)
from ..core import conditions as _conditions  # noqa: E402 (a condition's clock, issue 31)
from ..spotlight import impairment as _impairment  # noqa: E402 (V5 Impairment, issue 31)
from ..spotlight import moves as _spot_moves  # noqa: E402 (spotlight's moves reading, issue 31)

SECTIONS = {
    "catalog": catalog.SCHEMA,
    "dice": dice.SCHEMA,
    "traits": traits.TRAITS_SCHEMA,
    "pools": traits.POOLS_SCHEMA,
    "splats": traits.SPLATS_SCHEMA,
    "health": health.SCHEMA,
    "damage": _damage.DAMAGE_SCHEMA,
    "soak": _damage.SOAK_SCHEMA,
    "shifters": _damage.SHIFTERS_SCHEMA,
    "healing": _healing.HEALING_SCHEMA,
    "generations": _healing.GENERATIONS_SCHEMA,
    "initiative": _scheduler.INITIATIVE_SCHEMA,
    "turns": _scheduler.TURNS_SCHEMA,
    "attacks": _mschemas.ATTACKS_SCHEMA,
    "defenses": _mschemas.DEFENSES_SCHEMA,
    "maneuvers": _mschemas.MANEUVERS_SCHEMA,
    "ranged": _mschemas.RANGED_SCHEMA,
    "targeting": _mschemas.TARGETING_SCHEMA,
    "complications": _mschemas.COMPLICATIONS_SCHEMA,
    "movement": _mschemas.MOVEMENT_SCHEMA,
    "time_powers": _mschemas.TIME_POWERS_SCHEMA,
    "fera_notes": _mschemas.FERA_SCHEMA,
    "weapons": _mschemas.WEAPONS_SCHEMA,
    "armor": _mschemas.ARMOR_SCHEMA,
    **_spotlight.SECTIONS,  # spotlight, spotlight_ranges, spotlight_harm
    **_spot_attack.SECTIONS,  # spotlight_attack (V5 contested attack, issue 10)
    **_v5dice.SECTIONS,  # v5_dice (spotlight: the V5 dice seed 004 is built on)
    **_spot_moves.SECTIONS,  # spotlight_moves (spotlight's moves reading, issue 31)
    "powers": _powers.POWERS_SCHEMA,
    "wound_movement": _wound_movement.WOUND_MOVEMENT_SCHEMA,
    "field_healing": _field_healing.FIELD_HEALING_SCHEMA,
    "kiss": _kiss.KISS_SCHEMA,
    **_conditions.SECTIONS,  # condition_clock (both engines)
    **_impairment.SECTIONS,  # v5_impairment (spotlight: V5 Impairment)
}


def cross_check(ruleset) -> list[RuleIssue]:
    """Problems no single section shows: names one table uses that another must define."""
    problems = list(ruleset.traits.problems())
    problems += _damage.check(ruleset) + _healing.check(ruleset)
    problems += _maneuvers.tables(ruleset).problems()
    problems += _spotlight.check(ruleset)
    problems += _spot_attack.check(ruleset)
    problems += _spot_moves.check(ruleset)
    problems += _powers.check(ruleset)
    problems += _wound_movement.check_wound_movement(ruleset)
    problems += catalog.check(ruleset)
    d = ruleset.dice
    if d.min_difficulty > d.max_difficulty:
        problems.append(("dice.min_difficulty", "is above max_difficulty"))
    if not d.min_difficulty <= d.base_difficulty <= d.max_difficulty:
        problems.append(("dice.base_difficulty", "is outside min_difficulty..max_difficulty"))
    return [RuleIssue("", path, msg) for path, msg in problems]
