"""Healing with time: HLT-09 the natural healing time of the worst level (HEAL-01 vampires do
not heal with time, HEAL-02 ghouls do, HEAL-03 a homid or lupus in breed form heals one
level a day in critical condition), HEAL-07 changelings' chimerical healing (freehold,
Dreaming).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .damage_tables import family_of, require_section
from .soak import in_weak_breed_form
from ..core.errors import IllegalAction, InputError
from ..core.health import damage_type as parse_damage_type
from ..core.sheet import Sheet

from .healing_tables import _stated, _track, minutes, show_minutes


PLACES = ("mundane", "freehold", "dreaming")


@dataclass(frozen=True, slots=True)
class HealTime:
    text: str
    minutes: int
    needs: str | None = None  # what must happen first ("medical attention", "freehold")
    notes: tuple[str, ...] = ()


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
    if kind == "aggravated":
        return _aggravated_time(sec, level, place)
    if chimerical:
        return _chimerical_time(sec, row[kind], place, level["name"] == levels[-1]["name"])
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
    needs = "medical attention" if worst in names and index >= names.index(worst) else None
    return HealTime(text, minutes(text), needs)


def _aggravated_time(sec: Mapping, level: Mapping, place: str) -> HealTime:
    """HEAL-07: aggravated wounds heal at the natural rate, halved in a freehold (at least
    ``aggravated_minimum`` a level), ``aggravated_dreaming_per_level`` in the Dreaming."""
    if place == "dreaming":
        text = sec["aggravated_dreaming_per_level"]
        return HealTime(text, minutes(text))
    total = minutes(level["heal_lethal"])
    notes = []
    if place == "freehold":
        total //= sec["freehold_divisor"]
        notes.append("halved in a freehold or glade")
    total = max(total, minutes(sec["aggravated_minimum"]))
    return HealTime(show_minutes(total), total, None, tuple(notes))


def _chimerical_time(sec: Mapping, text: str, place: str, incapacitated: bool) -> HealTime:
    """HEAL-07: chimerical wounds by the chimerical table's ``text``, halved in a freehold,
    ``dreaming_per_level`` in the Dreaming; Incapacitated elsewhere needs a freehold."""
    if place == "dreaming":
        text = sec["dreaming_per_level"]
        return HealTime(text, minutes(text), None, ("in the Dreaming",))
    total = minutes(text)
    needs, notes = None, []
    if place == "freehold":
        total //= sec["freehold_divisor"]
        notes.append("halved in a freehold or glade")
    elif incapacitated:
        needs = sec["chimerical_incapacitated_needs"]
    return HealTime(show_minutes(total), total, needs, tuple(notes))
