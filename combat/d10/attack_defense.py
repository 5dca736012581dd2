"""The defense against one attack: which defenses the attack allows (DEF-01..03, DEF-05 magic,
CLOSE-03/05 grapples), DMG-16 blocking lethal damage, DEF-02 dodging gunfire and RNG-07
strafes, the parrying weapon, and the defense pool's modifiers (CLOSE-08, COMP-01).
"""

from __future__ import annotations

from typing import Callable

from ..core.errors import IllegalAction, InputError
from ..core.maneuvers import fera_trait_difficulty, tables
from ..core.pools import Modifier, PoolSpec
from .attack_mods import (
    _blind_penalty,
    _carried,
    _outnumbered,
    _rating,
    _roll_terms,
    _wounds,
    armor_penalty,
)
from .attack_plan import _Plan
from .attack_values import Attack, Context, Defense, Side


def _check_block(ruleset, defender, defense: Defense, plan: _Plan, side: Side,
                 can_soak: Callable[[str], bool] | None) -> None:
    """DMG-16: a block against lethal or aggravated damage needs what the ruleset names: the
    soak (``can_soak``), or Fortitude, armor or a weapon (everyman #13)."""
    rule = tables(ruleset).defenses["block_lethal_requires"]
    ok = rule == "nothing"
    if rule in ("soak_fortitude_armor_or_weapon", "fortitude_armor_or_weapon"):
        ok = (_rating(ruleset, defender, "Fortitude") > 0 or bool(defender.armor)
              or bool(defense.weapon or side.weapon))
        if not ok and rule == "fortitude_armor_or_weapon":  # everyman #13, strictly
            raise IllegalAction(f"You can't block {plan.damage_type} damage without "
                                f"Fortitude, armor or a weapon. Dodge instead.")
    if not ok:
        if can_soak is None:
            raise InputError("Blocking a lethal or aggravated attack needs the defender's "
                             "can_soak answer (from combat/d10/damage.py).")
        ok = bool(can_soak(plan.damage_type))
    if not ok:
        raise IllegalAction(f"You can't block {plan.damage_type} damage you cannot soak. "
                            f"Dodge, or parry with a weapon.")


def _dodge(ruleset, defender, defense: Defense, plan: _Plan,
           ctx: Context) -> tuple[bool, list[Modifier]]:
    """DEF-02: (whether the dodge can botch, its modifiers): against gunfire into cover or
    prone, in close combat with room to move; RNG-07 a strafe's difficulty."""
    d = tables(ruleset).defenses
    can_botch = True
    mods: list[Modifier] = []
    if plan.kind in d["dodge_ranged_kinds"]:
        if d["dodge_vs_firearms_requires_cover_or_prone"] and not (
                defense.prone or defense.to_cover):
            raise IllegalAction("Dodging gunfire means diving into cover at least a yard "
                                "away or dropping prone: declare dodge cover or dodge prone.")
    elif plan.range == "close" and not ctx.room_to_dodge:
        raise IllegalAction("There is no room to bob and weave here; block or parry.")
    if defender.race and defender.race in d["dodge_cannot_botch_races"]:
        can_botch = False
    if plan.maneuver.dodge_difficulty:  # RNG-07
        mods.append(Modifier(f"dodging a {plan.maneuver.name}",
                             difficulty=plan.maneuver.dodge_difficulty))
    return can_botch, mods


def _defense_plan(ruleset, defender, attacker, defense: Defense, plan: _Plan, ctx: Context,
                  can_soak: Callable[[str], bool] | None) -> tuple[PoolSpec, bool, bool]:
    """(pool, specialty, can_botch) of a defense against the planned attack."""
    t = tables(ruleset)
    d = t.defenses
    side = ctx.target
    kind = defense.kind
    row = d["kinds"].get(kind)
    if row is None:
        raise InputError(f"'{kind}' is not a defense. Use one of: {', '.join(d['kinds'])}.")
    if side.conditions & {"immobilized_fully", "staked"}:
        raise IllegalAction("You are fully immobilized and cannot defend.")
    if ctx.grapple:
        grapples = t.man["grapples"]
        allowed = grapples[ctx.grapple]["defenses"] if ctx.grapple in grapples else ()
        if kind not in allowed:
            raise IllegalAction(f"Locked in a {ctx.grapple}, you cannot {kind}; try to escape.")
    elif "grappled" in side.conditions:
        raise IllegalAction(f"Locked in a grapple, you cannot {kind}; try to escape.")
    if plan.auto_hit:
        raise IllegalAction(f"This attack cannot be defended ({plan.auto_hit}).")
    label = kind
    if plan.range == "ranged" and row.get("range") == "close":
        what = {"firearm": "a gunshot", "bow": "an arrow", "crossbow": "a bolt",
                "thrown": "a thrown weapon"}.get(plan.kind, "a ranged attack")
        raise IllegalAction(f"You can't {kind} {what}: {kind} works only in close combat. "
                            f"Dodge instead (against gunfire: into cover or dropping prone).")
    mods: list[Modifier] = []
    if kind == "block" and plan.damage_type in ("lethal", "aggravated"):  # DMG-16
        _check_block(ruleset, defender, defense, plan, side, can_soak)
    can_botch = True
    if kind == "dodge":  # DEF-02
        can_botch, mods = _dodge(ruleset, defender, defense, plan, ctx)
    if kind == "parry":  # DEF-03
        item = defense.weapon or side.weapon
        if not item:
            raise IllegalAction("Parrying needs a weapon or a shield in hand; block (close "
                                "combat) or dodge instead.")
        _parry_item(ruleset, defender, item)
    terms, sub, spec = _roll_terms(ruleset, defender, row, row["attribute"], defense.ability,
                                   label.capitalize(), defense.specialty)
    mods = sub + mods
    mods.append(armor_penalty(ruleset, defender, kind))
    mods.append(_wounds(ruleset, defender, False))
    outnumbered = _outnumbered(t.man, side.opponents, "defense")
    if outnumbered:
        mods.append(outnumbered)
    if "blinded" in side.conditions:  # COMP-01
        pen, why = _blind_penalty(ruleset, side, t.comp["blinded"]["defense_difficulty"],
                                  plan.range == "close")
        mods.append(Modifier(why, difficulty=pen))
    used = {name for name, _ in terms}
    for why, dd in fera_trait_difficulty(ruleset, defender, used):
        mods.append(Modifier(why, difficulty=dd))
    mods += list(defense.extra)
    pool = PoolSpec(terms, (), ruleset.dice.base_difficulty).plus(*[x for x in mods if x])
    return pool, spec, can_botch


def _parry_item(ruleset, defender, item: str):
    t = tables(ruleset)
    d = t.defenses
    w = t.known_weapon(item)
    if w is not None:
        if w.kind not in d["parry_weapon_kinds"]:
            raise IllegalAction(f"You cannot parry with a {w.name}; use a melee weapon or a "
                                f"shield, or dodge.")
        if not _carried(defender, w.name):
            raise IllegalAction(f"You carry no {w.name} to parry with.")
        return w
    a = t.armor(item)
    if not a.shield:
        raise IllegalAction(f"{a.name} is not a shield; parry with a weapon or a shield.")
    if not _carried(defender, a.name, armor_ok=True):
        raise IllegalAction(f"You carry no {a.name}.")
    return a


def _check_magic_defense(ruleset, attack: Attack, defense: Defense) -> None:
    """DEF-05: combat magic is defended like an attack, except lock-on powers (unless
    negated) and area effects (escape the area instead)."""
    mg = attack.magic
    if mg is None:
        return
    d = tables(ruleset).defenses
    if mg.lock_on and not d["magic_lock_on_defendable"] and not defense.countermagic:
        raise IllegalAction(f"{mg.name} locks onto you: it cannot be dodged, blocked or parried "
                            f"unless something of yours negates it.")
    if mg.area and not d["magic_area_defendable"]:
        raise IllegalAction(f"{mg.name} fills an area: the only defense is to get out of it "
                            f"(move as your action).")
