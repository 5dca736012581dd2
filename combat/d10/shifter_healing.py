"""Shifters' healing: HEAL-03 regeneration (one bashing or lethal level a turn outside the
breed form; a Stamina reflex roll under stress), HEAL-05 the exceptions (Kitsune, Ananasi,
sea-born Rokea in salt water) and HEAL-04 Rage-healing past Incapacitated.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping

from ..core import dice as dicemod
from .damage import faces_for
from .damage_tables import DEAD, DYING, OK, family_of, require_section
from .soak import in_weak_breed_form
from ..core.errors import IllegalAction
from ..core.health import HealthTrack, damage_type as parse_damage_type
from ..core.sheet import Sheet

from .healing import HealResult, _heal, _result
from .healing_tables import _stated, _track, healer


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
        _check_breed_form(sheet, sec, frozenset(flags),
                          require_section(ruleset, "shifters")["default_breed"])
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


def _check_breed_form(sheet: Sheet, sec: Mapping, given: frozenset[str],
                      default_breed: str) -> None:
    """HEAL-03: a homid or lupus in breed form does not regenerate, unless one of the
    section's exceptions holds (HEAL-05: sea-born Rokea in salt water)."""
    breed = sheet.breed or default_breed  # no breed on the sheet: shifters.default_breed
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
