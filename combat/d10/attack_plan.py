"""The plan of one attack (``_prepare``): the weapon and maneuver, the pool, the damage dice
and type, the location and the effects, all fixed before a die is rolled. CLOSE-01/02 bites
and claws, CLOSE-03/05 grapples, CLOSE-06 ammunition, RNG-04..08 rate and bursts, MAN-10/11
locations and stakes, DEF-05 magic. Refusals are ``IllegalAction`` saying why and what is
allowed; bad names are ``InputError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..core.errors import IllegalAction, InputError
from ..core.maneuvers import Damage, Location, Maneuver, Weapon, form_allowed, tables
from ..core.pools import Modifier, PoolSpec
from ..core.values import replace
from .attack_mods import (
    _carried,
    _check_side,
    _complications,
    _last_mods,
    _movement_mods,
    _range_mods,
    _rating,
    _roll_terms,
    _throwing_mods,
    _waived,
    _wounds,
    armor_penalty,
)
from .attack_values import Attack, Context, Effect, Side, WeaponState
from .weapon_ready import crossbow_reload_actions


@dataclass(frozen=True, slots=True)
class _Plan:
    maneuver: Maneuver
    weapon: Weapon | None
    kind: str
    range: str
    pool: PoolSpec | None
    specialty: bool
    can_botch: bool
    auto_hit: str
    auto_miss: str
    min_one: bool
    damage: PoolSpec | None  # before extra successes
    damage_type: str
    source: str
    materials: tuple[str, ...]
    location: Location | None
    effects: tuple[Effect, ...]
    costs: tuple[tuple[str, int], ...]
    state_before: WeaponState | None
    state_after: WeaponState | None
    deals_damage: bool
    disarm: str  # "", "damage" or "attack_successes"
    sever: bool
    drain: int
    barehanded: bool


def _natural(ruleset, sheet, ctx: Context, maneuver: Maneuver, intent: Attack):
    """CLOSE-01 bite / CLOSE-02 claw: who can, the damage, the type, and what it costs."""
    t = tables(ruleset)
    man = t.man
    family = ruleset.traits.family(sheet.splat)
    forms = man["natural_weapons"].get(sheet.race) or {}
    row = forms.get(sheet.form) or forms.get("*") or {}
    if maneuver.natural == "claw":
        return _claw(ruleset, sheet, maneuver, family, row)
    bite = man["bite"]
    costs: tuple = ()
    damage = maneuver.damage
    if bite.get("everyone_needs_grapple") and not ctx.grapple:
        # everyman: "A bite must be done after a successful clinch or grab maneuver."
        raise IllegalAction("A bite comes only after a successful clinch or hold: clinch "
                            "first (+combat/attack <target>=clinch).")
    if family == "vampire":
        locked = ctx.grapple in ("clinch", "hold") or ctx.tackled_last_turn
        if bite["vampire_needs_grapple"] and not locked:
            raise IllegalAction("A vampire bites only in a clinch or hold, or the turn after a "
                                "successful tackle. Clinch first (+combat/attack <target>=clinch).")
    elif sheet.race and sheet.race == bite.get("redcap_race"):
        # numetal's Bite table: the Redcap pays what redcap_cost says (no key: nothing).
        cost = bite.get("redcap_cost")
        if cost:
            pool = sheet.pool(cost["pool"])
            if pool is None or pool.current < cost["points"]:
                raise IllegalAction(f"A Redcap's bite needs {cost['points']} {cost['pool']} to "
                                    f"call on the Wyrd; you have none to spend.")
            costs = ((cost["pool"], cost["points"]),)
        damage = Damage.parse(bite["extra_damage"])
    elif row and row["bite"] != "none":  # no row: this race has no natural weapons here
        if row["bite"] == "extra":
            damage = Damage.parse(bite["extra_damage"])
    else:
        biters = [f"{f}" for f, r in forms.items() if r["bite"] != "none"]
        allowed = (f" A {sheet.race} bites in: {', '.join(biters)}." if biters else "")
        redcaps = ", and Redcaps spending Glamour" if bite.get("redcap_cost") else ""
        raise IllegalAction("You cannot bite now: vampires in a clinch/hold or after a tackle, "
                            f"shifters in a biting form{redcaps} can." + allowed)
    for varna, v in (bite.get("varna_damage") or {}).items():
        if (ctx.attacker.varna == varna and sheet.race == v["race"]
                and ("form" not in v or v["form"] == sheet.form)):
            damage = Damage.parse(v["damage"])
    if intent.drain and family != "vampire":
        raise IllegalAction("Only a vampire can drain blood with a bite.")
    if intent.sever and not bite.get("sever"):
        raise IllegalAction("Severing a limb with a bite is not a rule here: bite without "
                            "'severing'.")
    if intent.sever and not (sheet.race and sheet.race == bite.get("redcap_race")):
        raise IllegalAction("Only a Redcap can try to sever a limb with a bite.")
    dtype = maneuver.type
    agg = bite["aggravated_families"]
    if agg is not None and family not in agg:
        # everyman: "From werewolves and vampires this damage is aggravated": others not.
        dtype = bite["other_type"]
    return damage, dtype, costs, "bite"


def _claw(ruleset, sheet, maneuver: Maneuver, family: str, row: Mapping):
    """CLOSE-02: the first claw source of the family that the sheet has (a shifter's form
    with claws, or a power at its rating): its damage type and label."""
    for src in tables(ruleset).man["claw_sources"]:
        if src["family"] != family:
            continue
        if src["natural"]:
            if row.get("claw"):  # no row: a form without natural weapons
                return maneuver.damage, src["type"], (), f"{sheet.race} {src['label']}"
            continue
        if _rating(ruleset, sheet, src["trait"]) >= src["at_least"]:
            return maneuver.damage, src["type"], (), src["label"]
    raise IllegalAction(
        "Only vampires with Feral Claws (Protean 2) or bone spurs (Vicissitude 3) and shifters "
        "in a clawed form can claw. Strike or kick instead.")


def _damage_pool(ruleset, sheet, damage: Damage, weapon: Weapon | None, label: str) -> PoolSpec:
    base = ruleset.dice.base_difficulty
    strength = _rating(ruleset, sheet, "Strength")
    terms: list[tuple[str, int]] = []
    if damage.base == "str":
        terms.append(("Strength", strength))
        if damage.bonus:
            terms.append((label, damage.bonus))
    elif damage.base == "weapon":
        if weapon is None:
            raise IllegalAction(f"{label} needs a weapon.")
        wd = weapon.damage
        if wd.base == "str":
            terms.append(("Strength", strength))
            if wd.bonus:
                terms.append((weapon.name, wd.bonus))
        else:
            terms.append((weapon.name, wd.bonus))
        if damage.bonus:
            terms.append((label, damage.bonus))
    elif damage.base == "fixed":
        terms.append((label, damage.bonus))
    return PoolSpec(tuple(terms), (), base)


def _fire(ruleset, sheet, weapon: Weapon, m: Maneuver, ctx: Context):
    """ATK-07/08, RNG-02/04/06/08: is the weapon ready, and its state after this attack."""
    t = tables(ruleset)
    state = ctx.weapon_state or WeaponState.fresh(weapon)
    if state.weapon.lower() != weapon.name.lower():
        raise InputError(f"The weapon state given is for {state.weapon}, not {weapon.name}.")
    if weapon.kind in ("firearm", "bow", "crossbow") and ctx.shots_this_turn > max(1, weapon.rate):
        raise IllegalAction(f"{weapon.name} fires at most {weapon.rate} shot(s) a turn "
                            f"(RNG-04); you declared {ctx.shots_this_turn}.")
    if weapon.kind == "firearm":
        have = state.ammo or 0
        if m.empties_clip:
            need_pct = m.min_clip_percent
            if have * 100 < weapon.clip * need_pct:
                raise IllegalAction(
                    f"{m.name} needs the clip at least {need_pct}% full: {weapon.name} holds "
                    f"{have} of {weapon.clip}. Reload first (an action), or fire single shots.")
            return state, replace(state, ammo=0)
        rounds = m.rounds or 1
        if have < rounds:
            raise IllegalAction(f"{weapon.name} has {have} round(s) left; {m.name} needs "
                                f"{rounds}. Reload (takes an action).")
        return state, replace(state, ammo=have - rounds)
    if weapon.kind == "crossbow":
        if not state.ammo:
            acts = crossbow_reload_actions(ruleset, sheet)
            raise IllegalAction(f"The {weapon.name} is not loaded: reloading takes {acts} "
                                f"action(s) (+combat/reload).")
        return state, replace(state, ammo=state.ammo - 1)
    if weapon.kind == "bow":
        if not state.string_ok:
            raise IllegalAction(f"The {weapon.name}'s string is snapped. Repairing it takes a "
                                f"spare bowstring and an action (Wits + Archery or Wits + Crafts).")
        if state.nocked:
            return state, replace(state, nocked=False)
        if state.prepared_arrows:
            return state, replace(state, prepared_arrows=state.prepared_arrows - 1)
        if _waived(ruleset, sheet, (t.attacks.get("bow") or {}).get("nock_waived_by")):
            return state, state
        raise IllegalAction("Nock an arrow first: it takes an action (+combat/nock), unless "
                            "you prepared arrows beforehand.")
    return None, None


def _weapon_and_maneuver(t, attacker, intent: Attack) -> tuple[Weapon | None, Maneuver, str]:
    """(the weapon carried, the maneuver as made with it or without, the maneuver's name as
    told): the weapon must be carried and fit the maneuver (RNG-08 bursts, rates of fire)."""
    weapon = None
    if intent.weapon:
        weapon = t.weapon(intent.weapon)
        if not _carried(attacker, weapon.name):
            have = ", ".join(attacker.weapons) or "none"
            raise IllegalAction(f"You carry no {weapon.name}. Your weapons: {have}.")
    name = intent.maneuver
    if name == "attack":
        key = weapon.kind if weapon else "unarmed"
        name = t.attacks["default_maneuver"][key]
    m = t.maneuver(name)
    label = m.name.replace("_", " ")
    if m.weapon == "none" and weapon:
        raise IllegalAction(f"A {label} is made without a weapon; to use the {weapon.name} "
                            f"choose a weapon maneuver (attack, sweep, disarm ...).")
    if m.weapon == "required" and not weapon:
        raise IllegalAction(f"A {label} needs a weapon: +combat/attack <target>=<weapon>.")
    if weapon:
        if m.weapon_kinds and weapon.kind not in m.weapon_kinds:
            raise IllegalAction(f"A {label} needs a {'/'.join(m.weapon_kinds)} weapon; "
                                f"the {weapon.name} is {weapon.kind}.")
        if m.weapon_classes and weapon.cls not in m.weapon_classes:
            raise IllegalAction(f"A {label} needs a {' or '.join(m.weapon_classes)}; "
                                f"the {weapon.name} is not one.")
        if m.needs_flag and not getattr(weapon, m.needs_flag):
            raise IllegalAction(f"The {weapon.name} cannot fire a {label}.")
        if m.min_rate and weapon.burst is False:  # RNG-08: the row says it has no burst
            raise IllegalAction(f"The {weapon.name} has no burst setting.")
        if m.min_rate and weapon.rate < m.min_rate:
            raise IllegalAction(f"A {label} needs a rate of fire of {m.min_rate}+; the "
                                f"{weapon.name}'s is {weapon.rate}.")
    return weapon, m.for_weapon(weapon is not None), label


def _check_grapple(t, ctx: Context, m: Maneuver, label: str) -> None:
    """CLOSE-03 clinch / CLOSE-05 hold: what a grapple allows, and what needs one."""
    a_side = ctx.attacker
    grapples = t.man["grapples"]
    if ctx.grapple:
        allowed = grapples[ctx.grapple]["allowed"] if ctx.grapple in grapples else ()
        if m.name not in allowed:
            named = ", ".join(str(a).replace("_", " ") for a in allowed)  # as typed: words
            raise IllegalAction(f"In a {ctx.grapple} you may only: {named or '-'}, "
                                f"try to escape, or act without moving your limbs.")
    elif "grappled" in a_side.conditions:
        raise IllegalAction("You are locked in a grapple with someone else: escape first.")
    if m.needs_grapple and ctx.grapple not in m.needs_grapple:
        raise IllegalAction(f"A {label} needs you to be in a {' or '.join(m.needs_grapple)} "
                            f"with the target.")


def _damage_kind(ruleset, attacker, ctx: Context, m: Maneuver, intent: Attack,
                 weapon: Weapon | None, kind: str, label: str):
    """(the damage expression, its type, source and material, the costs a natural attack
    adds, the label): a bite or claw by who can (CLOSE-01/02), a weapon's ammunition
    (CLOSE-06)."""
    t = tables(ruleset)
    t_side = ctx.target
    costs: list[tuple[str, int]] = []
    damage_expr, dtype, material = m.damage, m.type, ""
    source = m.natural or m.source or ("brawl" if kind == "brawl" else kind)
    if (intent.drain or intent.sever) and m.natural != "bite":
        raise IllegalAction("Draining and severing are done with a bite.")
    if m.natural:
        damage_expr, dtype, extra_costs, label = _natural(ruleset, attacker, ctx, m, intent)
        costs += list(extra_costs)
    if weapon:
        source, material = weapon.source, weapon.material
        if dtype == "weapon":
            dtype = weapon.type
        ammo = t.ammo.get(intent.ammo) if intent.ammo else None
        if intent.ammo and intent.ammo != "standard":
            if ammo is None:
                raise InputError(f"'{intent.ammo}' is not a kind of ammunition here. "
                                 f"Known: {', '.join(t.ammo)}.")
            if weapon.kind != "firearm" or (weapon.ammo and intent.ammo not in weapon.ammo):
                raise IllegalAction(f"The {weapon.name} takes no {intent.ammo} rounds.")
            dtype = ammo.get("type", dtype)
            material = ammo.get("material", material)
            if m.rubber_becomes and intent.ammo == "rubber":
                dtype = m.rubber_becomes  # CLOSE-06: a jabbed rubber bullet is lethal
    elif dtype == "weapon":
        dtype = "bashing"
    if m.target_needs_weapon and not t_side.weapon:
        raise IllegalAction(f"The target holds no weapon to {label}.")
    return damage_expr, dtype, source, material, costs, label


def _maneuver_effects(ruleset, m: Maneuver, target: _TargetFacts, t_side: Side,
                      location: Location | None, weapon: Weapon | None,
                      intent: Attack) -> tuple[list[Effect], str, int]:
    """(what the hit does beyond damage, the disarm kind or "", the blood a bite drains):
    the maneuver's effects (CLOSE-04 disarm against Strength, CLOSE-12 a tackle's botch
    against Stamina), MAN-11 a stake through the heart, CLOSE-01 a drain."""
    effects: list[Effect] = []
    disarm = ""
    for e in m.effects:
        if e.effect == "disarm":
            disarm = e.detail or "damage"
            if disarm == "damage":
                effects.append(Effect("disarm_if_damage_over", "target",
                                      value=target.strength,
                                      detail=t_side.weapon or ""))
        elif e.effect == "next_turn_difficulty":
            effects.append(Effect(e.effect, e.who, value=e.value))
        elif e.effect == "knocked_down_or_damage":
            effects.append(Effect(e.effect, e.who, value=target.stamina))
        else:
            effects.append(Effect(e.effect, e.who, value=e.value, difficulty=e.difficulty,
                                  absolute=e.absolute, detail=e.detail))
    stake = tables(ruleset).targeting["stake"]
    if (location and weapon and location.name == stake.get("location")
            and weapon.name in stake["weapons"]
            and ruleset.traits.family(target.splat) in stake["families"]):
        effects.append(Effect("staked_if_damage", "target", value=stake["min_damage"],
                              detail=stake["effects"]))  # MAN-11
    drain = 0
    if intent.drain:
        drain = tables(ruleset).man["bite"]["vampire_drain_max"]
        effects.append(Effect("drain_blood", "target", value=drain))
    return effects, disarm, drain


def _roll_part(ruleset, attacker, krow: Mapping, m: Maneuver, intent: Attack,
               label: str) -> tuple[tuple, bool, list[Modifier]]:
    """(the traits rolled, whether a specialty counts, the first modifiers: a substituted
    trait's, the maneuver's own) of a maneuver's roll (ATK-01..02, DICE-06/07); no terms
    for a maneuver without one (DICE-08)."""
    attribute = m.attribute or krow["attribute"]
    terms: tuple = ()
    specialty = False
    mods: list[Modifier] = []
    if m.roll:
        terms, sub_mods, specialty = _roll_terms(ruleset, attacker, krow, attribute,
                                                 intent.ability, label.capitalize(),
                                                 intent.specialty)
        mods += sub_mods
    if m.dice or m.difficulty:
        mods.append(Modifier(label, dice=m.dice, difficulty=m.difficulty))
    return terms, specialty, mods


def _location(t, m: Maneuver, intent: Attack, label: str) -> Location:
    """MAN-10: the body part aimed at, when the maneuver can aim."""
    if not m.targeting:
        raise IllegalAction(f"A {label} cannot aim at a body part: it sprays the target.")
    return t.location(intent.location)


def _damage_dice(ruleset, attacker, damage_expr: Damage, weapon: Weapon | None, label: str,
                 location: Location | None, intent: Attack) -> PoolSpec | None:
    """The damage pool before extra successes, or None when the maneuver has none or the
    bite drains (CLOSE-01); MAN-10 a part's extra damage dice."""
    if damage_expr.base == "none" or intent.drain:
        return None
    damage = _damage_pool(ruleset, attacker, damage_expr, weapon, label)
    if location and location.damage and not intent.sever:
        damage = damage.plus(Modifier(f"targeting {location.name}", dice=location.damage))
    return damage


def _prepare(ruleset, attacker, target: _TargetFacts, intent: Attack, ctx: Context) -> _Plan:
    t = tables(ruleset)
    _check_side(ctx.attacker)
    _check_side(ctx.target)
    if ctx.attacker.conditions & {"immobilized_fully", "staked"}:
        raise IllegalAction("You are fully immobilized and cannot attack.")
    wounds = _wounds(ruleset, attacker, ctx.ignore_wounds)
    costs: list[tuple[str, int]] = [("Willpower", 1)] if intent.willpower else []

    if intent.magic is not None:
        return _magic_plan(ruleset, intent, ctx, costs)

    weapon, m, label = _weapon_and_maneuver(t, attacker, intent)
    kind = weapon.kind if m.kind == "weapon" else m.kind
    krow = t.attacks["kinds"].get(kind)
    if krow is None:
        raise IllegalAction(f"This ruleset has no rules for {kind} attacks.")
    rng_cls = "ranged" if krow.get("range") == "ranged" else "close"
    form_allowed(ruleset, m, attacker)  # CLOSE-10
    _check_grapple(t, ctx, m, label)  # CLOSE-03, CLOSE-05
    damage_expr, dtype, source, material, extra_costs, label = _damage_kind(
        ruleset, attacker, ctx, m, intent, weapon, kind, label)
    costs += extra_costs

    pool, specialty, location, auto_hit, auto_miss, min_one = _pool_part(
        ruleset, attacker, intent, ctx, m, weapon, kind, krow, rng_cls, label, wounds)

    # -------------------------------------------------- weapon state
    before = after = None
    effects: list[Effect] = []
    if weapon and (m.rounds or (weapon.kind in ("firearm", "bow", "crossbow")
                                and kind != "melee")):
        before, after = _fire(ruleset, attacker, weapon, m, ctx)
    if weapon and kind == "thrown":
        effects.append(Effect("weapon_thrown", "attacker", detail=weapon.name))

    # -------------------------------------------------- damage and effects
    # The damage pool exists whenever the maneuver names one, even when it is not applied
    # (CLOSE-04 disarm compares it with the target's Strength); deals says whether it hurts.
    deals = m.deals_damage and damage_expr.base != "none" and not intent.drain
    damage = _damage_dice(ruleset, attacker, damage_expr, weapon, label, location, intent)
    more, disarm, drain = _maneuver_effects(ruleset, m, target, ctx.target, location,
                                            weapon, intent)
    effects += more
    return _Plan(maneuver=m, weapon=weapon, kind=kind, range=rng_cls, pool=pool,
                 specialty=specialty, can_botch=True, auto_hit=auto_hit, auto_miss=auto_miss,
                 min_one=min_one, damage=damage, damage_type=dtype, source=source,
                 materials=(material,) if material else (), location=location,
                 effects=tuple(effects), costs=tuple(costs), state_before=before,
                 state_after=after, deals_damage=deals, disarm=disarm, sever=bool(intent.sever),
                 drain=drain, barehanded=weapon is None and kind == "brawl")


def _pool_part(ruleset, attacker, intent: Attack, ctx: Context, m: Maneuver,
               weapon: Weapon | None, kind: str, krow: Mapping, rng_cls: str, label: str,
               wounds: Modifier | None):
    """The pool (ATK-01..09, DICE-06/07) with every modifier, the targeted location, and
    what makes the roll needless (DICE-08, COMP-03) or hopeless (out of range):
    (pool or None, specialty, location, auto_hit, auto_miss, min_one)."""
    t = tables(ruleset)
    auto_hit = "" if m.roll else f"{label}: no roll needed (DICE-08)"
    terms, specialty, mods = _roll_part(ruleset, attacker, krow, m, intent, label)
    if weapon:  # ATK-04
        mods += _throwing_mods(t, weapon, kind)
    mods.append(armor_penalty(ruleset, attacker, "attack"))  # ATK-03
    mods.append(wounds)
    mods += _movement_mods(ruleset, attacker, intent, ctx.attacker,
                           ctx.target)  # MAN-02/04, COMP-05
    location = _location(t, m, intent, label) if intent.location else None
    if location is not None and not intent.sever:  # MAN-10
        mods.append(Modifier(f"targeting {location.name} ({location.size})",
                             difficulty=location.difficulty))
    auto_miss, range_mods = _range_mods(ruleset, attacker, intent, ctx, weapon, kind, rng_cls,
                                        location)
    mods += range_mods
    comp_mods, auto_hit, min_one = _complications(ruleset, ctx, rng_cls == "close", auto_hit)
    mods += comp_mods
    mods += _last_mods(ruleset, attacker, intent, ctx, m, terms)
    pool = None
    if m.roll:
        pool = PoolSpec(terms, (), ruleset.dice.base_difficulty).plus(*[x for x in mods if x])
    return pool, specialty, location, auto_hit, auto_miss, min_one


def _magic_plan(ruleset, intent: Attack, ctx: Context, costs) -> _Plan:
    mg = intent.magic
    pool = mg.pool.plus(*intent.extra, *ctx.extra)
    damage = PoolSpec(((mg.name, mg.damage_dice),), (), ruleset.dice.base_difficulty)
    fake = Maneuver(mg.name, "magic", Damage("fixed", mg.damage_dice), mg.damage_type)
    return _Plan(maneuver=fake, weapon=None, kind="magic",
                 range="ranged" if mg.ranged else "close", pool=pool, specialty=False,
                 can_botch=True, auto_hit="", auto_miss="", min_one=False, damage=damage,
                 damage_type=mg.damage_type, source=mg.source, materials=(), location=None,
                 effects=(), costs=tuple(costs), state_before=None, state_after=None,
                 deals_damage=True, disarm="", sever=False, drain=0, barehanded=False)


class _TargetFacts:
    """What an attack plan may read from the target's sheet (``_prepare`` gets only this).
    Each read is noted: a plan that read nothing of the target (most: only disarms, knock-
    downs and stakes look) is kept for any target, so with every hit making a new target
    sheet a crowd still finds its plans."""

    __slots__ = ("_ruleset", "_sheet", "used")

    def __init__(self, ruleset, sheet):
        self._ruleset, self._sheet, self.used = ruleset, sheet, False

    def key(self) -> tuple | None:
        if self._sheet is None:  # no target sheet given: a plan that reads it fails as before
            return None
        return (self._sheet.splat, _rating(self._ruleset, self._sheet, "Strength"),
                _rating(self._ruleset, self._sheet, "Stamina"))

    @property
    def splat(self) -> str:  # MAN-11 stakes
        self.used = True
        return self._sheet.splat

    @property
    def strength(self) -> int:  # CLOSE-04 disarm
        self.used = True
        return _rating(self._ruleset, self._sheet, "Strength")

    @property
    def stamina(self) -> int:  # knocked_down_or_damage
        self.used = True
        return _rating(self._ruleset, self._sheet, "Stamina")
