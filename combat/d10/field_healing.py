"""Healing rules of the older rulesets that numetal does not have.

HEAL-08 (revised, seed 001 "Supernatural healing: Demons"): a demon heals by spending Faith,
one full turn of concentration per point; one damage type at a time, never both; damaged
during the turn, the healing fails but the Faith is not spent.
HEAL-09 (everyman, seed 002 "In combat healing"): vampires and ghouls roll Survival +
Stamina at difficulty 8 and spend a blood point whatever the result; success heals a level
of lethal or bashing, a botch adds a level of damage. Werewolves roll Stamina alone at 8.

Both read the ``field_healing:`` section (schema below, registered in ``combat/rules/sections.py``);
a ruleset without the row refuses with a clear message.

API
---
``demon_heal(ruleset, sheet, *, faith, kind, damaged=False) -> HealResult``
``combat_heal_pool(ruleset, sheet, *, ignore_wounds=False) -> PoolSpec``
``combat_heal(ruleset, sheet, *, kind=None, faces=None, rng=None, ignore_wounds=False)
-> HealResult``
"""

from __future__ import annotations

import random

from ..core import dice as dicemod
from .damage import faces_for
from .damage_tables import family_of, track_of
from .wound_penalty import pay_costs, wound_modifier
from ..core.errors import IllegalAction, InputError
from .healing import HealResult, _heal, _result
from ..core.health import DAMAGE_TYPES, damage_type as parse_damage_type
from ..core.pools import PoolSpec
from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct

_TYPES = Str(choices=DAMAGE_TYPES)

FIELD_HEALING_SCHEMA = Struct(
    optional={
        "source": Str(),
        "demon": Struct(
            required={"pool": Str()},
            optional={
                "families": ListOf(Str()),
                "turns_per_point": Int(1, 100),
                "levels_per_point": Int(0, 10),
                "heals": ListOf(_TYPES),
                "one_type_at_a_time": Bool(),
                "damage_interrupts": Bool(),
                "keep_pool_when_interrupted": Bool(),
                "note": Str(),
            },
            # HEAL-08 (seed 001): demons; a turn and a level a point; one type at a time;
            # a hurt demon's healing fails but keeps its Faith
            defaults={"families": ("demon",), "turns_per_point": 1, "levels_per_point": 1,
                      "heals": ("bashing", "lethal"), "one_type_at_a_time": True,
                      "damage_interrupts": True, "keep_pool_when_interrupted": True},
        ),
        "in_combat": MapOf(
            Struct(
                required={"traits": ListOf(Str(), min_len=1), "difficulty": Int(1, 10)},
                optional={
                    "cost": MapOf(Int(0, 10)),
                    "levels": Int(0, 10),
                    "heals": ListOf(_TYPES),
                    "botch_damage": Int(0, 10),
                    "reflex": Bool(),
                    "note": Str(),
                },
                # HEAL-09 (seed 002): a level a success-roll, nothing on a botch
                defaults={"cost": {}, "levels": 1, "heals": ("lethal", "bashing"),
                          "botch_damage": 0, "reflex": False},
            )
        ),
    }
)


def _section(ruleset, key: str, what: str) -> dict:
    row = (ruleset.section("field_healing") or {}).get(key)
    if not row:
        raise IllegalAction(f"This game's rules have no {what}.")
    return row


def demon_heal(ruleset, sheet, *, faith: int, kind: str, damaged: bool = False) -> HealResult:
    """HEAL-08: ``faith`` points, as many turns of concentration, healing one ``kind``;
    ``damaged``: the demon was hurt during the concentration (fails, Faith kept)."""
    sec = _section(ruleset, "demon", "Faith healing")
    if family_of(sheet, ruleset) not in sec["families"]:
        raise IllegalAction("Only demons heal by spending Faith.")
    if isinstance(faith, bool) or not isinstance(faith, int) or faith < 1:
        raise InputError("Spend a whole number of Faith points, e.g. 2.")
    if isinstance(kind, (list, tuple)):
        if sec["one_type_at_a_time"] and len(set(kind)) > 1:
            raise IllegalAction("Faith heals one type of damage at a time, not both.")
        kind = kind[0]
    kind = parse_damage_type(kind)
    heals = sec["heals"]
    if kind not in heals:
        raise IllegalAction(f"Faith heals {' or '.join(heals)} damage here, not {kind}.")
    have = getattr(track_of(sheet, ruleset), kind)
    if not have:
        raise IllegalAction(f"There is no {kind} damage to heal.")
    pool = sec["pool"]
    turns = faith * sec["turns_per_point"]
    time = f"{turns} turn" + ("s" if turns != 1 else "")
    if damaged and sec["damage_interrupts"]:
        keep = sec["keep_pool_when_interrupted"]
        paid = sheet if keep else pay_costs(sheet, {pool: faith}, "heal")
        return _result("HEAL-08", sheet, paid, {}, {} if keep else {pool: faith}, time, ruleset,
                       notes=("damaged while concentrating: the healing fails"
                              + (f", no {pool} spent" if keep else ""),))
    paid = pay_costs(sheet, {pool: faith}, "heal")
    n = min(have, faith * sec["levels_per_point"])
    healed = {kind: n}
    return _result("HEAL-08", sheet, _heal(paid, ruleset, healed), healed, {pool: faith}, time,
                   ruleset)


def _in_combat_row(ruleset, sheet) -> dict:
    rows = _section(ruleset, "in_combat", "in-combat healing roll")
    row = rows.get(family_of(sheet, ruleset))
    if row is None:
        names = ", ".join(rows)
        raise IllegalAction(f"Only these heal in combat with a roll: {names}.")
    return row


def combat_heal_pool(ruleset, sheet, *, ignore_wounds: bool = False) -> PoolSpec:
    """HEAL-09: the roll's traits and its wound penalty. The roll is an action (the
    vampires' and ghouls') or a reflex (the werewolves' "done automatically"), and
    ``damage.wounds.applies_to`` says which kinds lose dice to wounds (everyman #11: "Dice
    penalties apply to all actions EXCEPT Soaking"); HLT-08's Willpower drops it."""
    row = _in_combat_row(ruleset, sheet)
    spec = PoolSpec(tuple((t, sheet.rating(ruleset.traits, t)) for t in row["traits"]), (),
                    row["difficulty"])
    kind = "reflex" if row["reflex"] else "action"
    wounds = wound_modifier(sheet, ruleset, kind, ignore_wounds)
    return spec.plus(wounds) if wounds else spec


def combat_heal(ruleset, sheet, *, kind: str | None = None, faces=None,
                rng: random.Random | None = None, ignore_wounds: bool = False) -> HealResult:
    """HEAL-09: one in-combat healing roll (the row for the sheet's family), rolled with
    ``combat_heal_pool``."""
    row = _in_combat_row(ruleset, sheet)
    heals = tuple(row["heals"])
    track = track_of(sheet, ruleset)
    if kind is None:
        kind = next((k for k in heals if getattr(track, k)), None)
        if kind is None:
            raise IllegalAction("There is no " + " or ".join(heals) + " damage to heal.")
    kind = parse_damage_type(kind)
    if kind not in heals:
        raise IllegalAction(f"The roll heals {' or '.join(heals)} damage, not {kind}.")
    if not getattr(track, kind):
        raise IllegalAction(f"There is no {kind} damage to heal.")
    cost = dict(row["cost"])
    paid = pay_costs(sheet, cost, "heal") if cost else sheet  # spent whatever the roll
    rules = ruleset.dice
    spec = combat_heal_pool(ruleset, sheet, ignore_wounds=ignore_wounds)
    roll = dicemod.count(faces_for(faces, spec.dice, rng, rules.sides, "healing"),
                         spec.difficulty, rules)
    notes = []
    # everyman: the werewolves' roll "can be done automatically": a reflex, not an action
    flags = frozenset({"reflex"}) if row["reflex"] else frozenset()
    if roll.botch and row["botch_damage"]:
        # "a botch means that an additional level of damage is taken": of the kind healed
        extra = row["botch_damage"]
        hurt = track.apply(kind, extra).track
        notes.append(f"botch: {extra} more {kind}")
        return _result("HEAL-09", sheet, paid.with_health(hurt), {}, cost, "1 turn", ruleset,
                       roll=roll, flags=flags, notes=tuple(notes))
    n = min(row["levels"], getattr(track, kind)) if roll.successes else 0
    healed = {kind: n}
    return _result("HEAL-09", sheet, _heal(paid, ruleset, healed), healed, cost, "1 turn",
                   ruleset, roll=roll, flags=flags, notes=tuple(notes))
