"""What a hit's soak knows about the target beyond its sheet, and harm staff deal from a
named source (fire, sunlight, silver, an "unsoakable" power) rather than as fixed levels.

- DMG-08 a demon soaks lethal only in apocalyptic form: the combatant's ``apocalyptic_form``
  condition (``+combat/mod Bob=apocalyptic_form``).
- DMG-07 a changeling soaks lethal only when the damage is chimerical: READING: damage is
  chimerical when it comes from an attacker marked ``chimerical`` (a chimera, a chimerical
  weapon) or when staff say so (``+combat/damage Bob=2 lethal chimerical``).
- DMG-12 (revised) armor damaged by pre-soak damage of twice its rating, when it applied:
  announced, and the armor adds no soak (the ``armor_damaged`` condition) until it is
  repaired or replaced (staff: ``+combat/mod Bob=!armor_damaged``).
- DMG-13 "unsoakable": as written on you or an ally from a failed action; an enemy hit by
  a successful action soaks as usual where the ruleset says so (revised).
- DMG-15 fire and sunlight are aggravated for vampires (the damage table's conversions);
  the staff source words reach them.
"""

from __future__ import annotations

from . import damage as dmg

from .damage_tables import DEAD, require_section

from .soak import source_tags, unsoakable_applies
from ..core.errors import IllegalAction, InputError
from ..core.events import Later
from ..core.maneuvers import tables
from .fight import Fight, roll_event

ARMOR_DAMAGED = "armor_damaged"
TARGET_FLAGS = ("apocalyptic_form", "chimerical")  # conditions the soak table reads


def target_flags(f: Fight, key: str, attacker: str | None = None) -> tuple[str, ...]:
    c = f.state.get(key)
    a = f.state.get(attacker) if attacker else None
    if (c is None or not c.conditions) and (a is None or not a.conditions):
        return ()  # neither side has a condition: most hits
    mine = {k.name for k in c.conditions if k.active(f.state.turn)} if c else set()
    out = {x for x in TARGET_FLAGS if x in mine and x != "chimerical"}
    if a is not None and any(k.name == "chimerical" and k.active(f.state.turn)
                             for k in a.conditions):
        out.add("chimerical")  # DMG-07: the attacker's harm is chimerical
    return tuple(sorted(out))


def armor_worn(f: Fight, key: str) -> bool:
    """False once the armor was damaged this fight (DMG-12)."""
    c = f.state.get(key)
    return not (c and any(k.name == ARMOR_DAMAGED for k in c.conditions))


def after(f: Fight, key: str, dr) -> None:
    """DMG-12: announce damaged armor and stop it soaking."""
    if dr.armor_damaged and armor_worn(f, key):
        f.condition(key, ARMOR_DAMAGED)
        f.emit("armor_damaged", actor=key, armor=f.sheet(key).armor)


def sourced(f: Fight, key: str, levels: int, kind: str, words: tuple[str, ...]) -> None:
    """Staff damage from a named source: ``levels`` damage successes the target soaks by the
    rules for that source (its armor, its race, the source's conversions)."""
    rs = f.rules
    words = tuple(w.strip().lower() for w in words if w.strip())
    unsoakable = "unsoakable" in words
    enemy = "enemy" in words
    chimerical = "chimerical" in words
    head = "head" in words
    rest = [w for w in words if w not in ("unsoakable", "enemy", "chimerical", "head")]
    if enemy and not unsoakable:
        raise InputError("'enemy' goes with unsoakable: =3 lethal unsoakable enemy.")
    known = require_section(rs, "damage").get("sources") or ()
    try:
        tags = source_tags(rs, rest[0] if rest else "other", tuple(rest[1:]))
    except InputError:
        raise InputError(f"'{' '.join(rest)}' is not a damage source. Sources: "
                         f"{', '.join(known)}; also unsoakable [enemy], chimerical, head."
                         ) from None
    source, materials = tags[0], tags[1:]
    sheet = f.sheet(key)
    condition = f.outcome_of(key, sheet)
    if condition == DEAD:
        raise IllegalAction(f"{f.name(key)} is dead already.")
    if unsoakable:  # DMG-13
        unsoakable = unsoakable_applies(rs, enemy_hit_by_success=enemy)
    rating, stops = 0, False
    if sheet.armor and armor_worn(f, key):
        armor = tables(rs).armor(sheet.armor)
        rating, stops = armor.rating, armor.stops(source)
    flags = set(target_flags(f, key))
    if chimerical:
        flags.add("chimerical")
    dr = dmg.resolve_damage(rs, sheet, dice=levels, damage_type=kind, source=source,
                            materials=materials, faces_damage=(rs.dice.sides,) * levels,
                            damage_difficulty=rs.dice.base_difficulty, rng=f.rng,
                            armor_rating=rating, armor_applies=stops, head_shot=head,
                            unsoakable=unsoakable, flags=tuple(sorted(flags)),
                            condition=condition)
    if dr.soak_roll is not None and dr.soak.dice > 0:
        f.events.append(roll_event(key, "soak", dr.soak.spec, dr.soak_roll))
    f.emit("damage", target=key, source=" ".join((source, *materials)), type=dr.damage_type,
           rolled=dr.levels_rolled, soaked=dr.soaked, applied=dr.applied,
           health_before=dr.health_before.level, health_after=dr.health_after.level,
           outcome=dr.outcome, by=f.by, notes=list(dr.notes), detail=Later(dr.as_dict))
    f.put_sheet(key, dr.sheet)
    f.set_outcome(key, dr.outcome)
    after(f, key, dr)
