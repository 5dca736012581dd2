"""The attack half of the resolution chain: attack and defense pools, the attack and defense
rolls, and what the hit hands to damage (``combat/d10/damage.py``): damage dice, damage type,
damage source, whether armor applies, head shot, targeted location, and the effects to apply.

Rules: ATK-01..09, DICE-06..09, DEF-01..03, DEF-05, DMG-03, DMG-16, DMG-17, MAN-01..04,
MAN-10..12, CLOSE-01..13, RNG-01..09, COMP-01, COMP-03..05, PWR-06 (seed 000, NuMetal combat
page; V20 p. 271-278). Every number comes from the ruleset's tables (``combat/core/maneuvers.py``);
every modifier carries its reason so the room and the log can show the arithmetic.

Not here: multiple-action and desperate-defense penalties (the scheduler hands them in as
``Context.extra`` / ``Defense.extra``), the damage roll, soak and health (``combat/d10/damage.py``).

Shape: ``build_attack_pool`` answers "what would I roll"; ``resolve_attack`` rolls (exact faces
or an injected ``random.Random``) and returns a frozen ``AttackResult`` holding every input.
Refusals are ``IllegalAction`` saying why and what is allowed; bad names are ``InputError``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Callable, Mapping

from .damage import wound_modifier
from ..core.dice import Roll, count, roll_faces
from ..core.errors import IllegalAction, InputError
from ..core.memo import IDENTITY_SIZE, Memo
from ..core.memo import SIZE as MEMO_SIZE
from ..core.maneuvers import (
    COVER,
    PACES,
    ROLL,
    Damage,
    Location,
    Maneuver,
    Weapon,
    fera_trait_difficulty,
    form_allowed,
    jagged_skin,
    movement_yards,
    strafe_shares,
    tables,
)
from ..core.pools import Modifier, PoolSpec
from ..core.sheet import Sheet
from ..core.values import copyable, fast_init, replace

# Conditions the combat may report on a side; a closed set so a typo is caught.
CONDITIONS = frozenset({
    "blinded",  # COMP-01
    "prone",  # COMP-04: knocked down and not yet up
    "immobilized",  # COMP-03: held but struggling
    "immobilized_fully",  # COMP-03: tied up, paralysed
    "staked",  # MAN-11: counts as fully immobilized
    "grappled",  # locked in a clinch or hold (with anyone)
    "dazed",  # COMP-02 (damage.py decides it; attacks on the dazed are damage.py's -2 diff)
})
SPEEDS = PACES


# ================================================================ intents and facts


@dataclass(frozen=True, slots=True)
class Magic:
    """DEF-05: a damaging power whose pool the power's own code built; only its defense and
    DMG-03 run here."""

    name: str
    pool: PoolSpec
    damage_dice: int
    damage_type: str = "lethal"
    source: str = "power"  # a damage source damage.py knows (power, fire, electricity ...)
    ranged: bool = True
    lock_on: bool = False  # e.g. a Forces + Life effect with a success on Life
    area: bool = False  # area of effect: escape the area instead of defending


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Attack:
    """What the attacker declared."""

    attacker: str
    target: str
    maneuver: str = "attack"  # "attack": the weapon kind's default (attacks.default_maneuver)
    weapon: str | None = None
    location: str | None = None  # MAN-10: arm, head, heart ...
    position: str = "front"  # MAN-02: front, flank, rear
    aim_turns: int = 0  # RNG-01: turns spent aiming before this shot
    scope: bool = False  # RNG-01: scope or laser sight fitted
    off_hand: bool = False  # RNG-09
    ability: str | None = None  # pick one of the allowed abilities (else the best one)
    specialty: bool = False  # DICE-03: claim a specialty in the rolled trait
    willpower: bool = False  # DICE-04: spend a Willpower for one automatic success
    ammo: str = "standard"  # CLOSE-06 rubber bullets, silver ...
    drain: bool = False  # CLOSE-01: a vampire's bite drains blood instead of damage
    sever: bool = False  # CLOSE-01: a Redcap's bite tries to sever a limb
    magic: Magic | None = None  # DEF-05
    extra: tuple[Modifier, ...] = ()  # declared situational modifiers, each with its reason


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Side:
    """Plain facts the combat knows about one side of an attack."""

    conditions: frozenset[str] = frozenset()
    speed: str = "still"  # COMP-05, RNG-01: still, walk, jog, run
    moved_yards: int = 0  # MAN-04: yards moved while acting this turn
    cover: str = "none"  # RNG-03: none, light, good, superior
    weapon: str | None = None  # weapon in hand (target: CLOSE-13, disarm; attacker: main hand)
    active_powers: frozenset[str] = frozenset()  # COMP-01: Heightened Senses, Eyes of the Beast
    opponents: int = 1  # CLOSE-08: foes engaging this side in close combat this turn
    blind_fight_penalty: int = 0  # COMP-01: Blind Fighting points spent on own penalty
    blind_fight_bonus: int = 0  # COMP-01: points spent against the bonus to attack this side
    varna: str = ""  # CLOSE-01: e.g. "Gila Monster" for a Mokole
    sees_behind: bool = False  # MAN-02 everyman variant
    in_combat: bool = True  # MAN-01: someone in combat cannot be ambushed


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class WeaponState:
    """A ranged weapon's readiness, as plain values the combat saves between turns."""

    weapon: str
    ammo: int | None = None  # rounds in the clip / bolt on the crossbow; None: not tracked
    nocked: bool = False  # ATK-07: an arrow nocked and drawn
    string_ok: bool = True  # ATK-07: a botch snaps the bowstring
    reload_progress: int = 0  # ATK-08: crossbow reload actions spent so far
    prepared_arrows: int = 0  # RNG-06: arrows set ready (stuck in the ground ...)
    strings_used: int = 0  # ATK-07: spare bowstrings used for repairs in this fight
    load: str = "standard"  # CLOSE-06: the ammunition kind loaded (weapons.ammo)

    @classmethod
    def fresh(cls, weapon: Weapon) -> "WeaponState":
        """Ready as carried into a fight: guns and crossbows loaded, no arrow nocked."""
        if weapon.kind in ("firearm", "crossbow"):
            return cls(weapon.name, ammo=weapon.clip or 1)
        return cls(weapon.name)

    def as_dict(self) -> dict:
        return {"weapon": self.weapon, "ammo": self.ammo, "nocked": self.nocked,
                "string_ok": self.string_ok, "reload_progress": self.reload_progress,
                "prepared_arrows": self.prepared_arrows, "strings_used": self.strings_used,
                "load": self.load}


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Context:
    """What the scheduler and the combat know about this attack (attacker's point of view)."""

    attacker: Side = field(default_factory=Side)
    target: Side = field(default_factory=Side)
    range_yards: int = 1
    grapple: str = ""  # "clinch" or "hold" when attacker and target are locked together
    tackled_last_turn: bool = False  # CLOSE-01: the attacker tackled the target last turn
    riposte: bool = False  # CLOSE-09: attacker parried this target with this weapon
    ambush_bonus: int = 0  # MAN-01: dice from a won ambush roll
    shots_this_turn: int = 1  # RNG-04: shots declared with this weapon this turn
    spread_yards: int = 0  # RNG-07: widest gap between strafed targets
    weapon_state: WeaponState | None = None  # None: WeaponState.fresh
    ignore_wounds: bool = False  # HLT-08: a Willpower spent to ignore wound penalties
    room_to_dodge: bool = True  # DEF-02: room to bob and weave
    extra: tuple[Modifier, ...] = ()  # from the scheduler: multiple actions (MAN-05..08) ...


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Defense:
    """A declared defense against one attack (DEF-01..03)."""

    defender: str
    kind: str  # block, dodge, parry
    weapon: str | None = None  # parry: the weapon or shield
    prone: bool = False  # dodge a gunshot by dropping to the ground
    to_cover: bool = False  # dodge a gunshot by moving behind cover
    countermagic: bool = False  # DEF-05: something negating a lock-on power is up
    ability: str | None = None
    specialty: bool = False
    willpower: bool = False
    extra: tuple[Modifier, ...] = ()  # from the scheduler: DEF-04 desperate defense, ...


# ================================================================ results


@dataclass(frozen=True, slots=True)
class Effect:
    """Something the hit (or the botch) causes beyond damage, for the combat to apply.

    kinds: grapple (detail clinch/hold), knockdown_check (difficulty relative or absolute),
    next_turn_difficulty, disarm_if_damage_over (value: pre-soak damage successes to beat),
    disarmed, staked_if_damage (value: levels after soak), drain_blood (value: at most),
    severed, attacker_damage (value, detail: damage type; soakable as usual),
    knocked_down_or_damage (value: damage if chosen), string_snapped, weapon_thrown.
    """

    kind: str
    who: str = "target"
    value: int = 0
    difficulty: int = 0
    absolute: int | None = None
    detail: str = ""


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DefenseResult:
    defense: Defense
    pool: PoolSpec
    roll: Roll
    counter: PoolSpec | None = None  # DMG-17: damage dice against the attacker
    counter_type: str = ""


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class AttackResult:
    intent: Attack
    context: Context
    target: str
    maneuver: str
    attack_kind: str  # brawl, melee, thrown, firearm, bow, crossbow, magic
    range: str  # close or ranged
    weapon: str | None
    pool: PoolSpec | None  # None: no roll (DICE-08 automatic, or an automatic miss)
    roll: Roll | None
    defense: DefenseResult | None
    successes: int  # the attack's successes (RNG-07: this target's share)
    net: int  # DMG-03: after the defense's successes
    hit: bool
    botch: bool  # the attack botched (never when COMP-03 forces a success)
    auto: str  # why no roll was needed ("" when rolled)
    damage: PoolSpec | None  # the damage pool when hit (see deals_damage)
    deals_damage: bool  # False: roll it only to compare (CLOSE-04 disarm), never apply it
    damage_type: str
    damage_source: str  # damage.py's source word: brawl, kick, bite, melee, firearm, fire ...
    materials: tuple[str, ...]  # extra sources touching the target: silver ... (DMG-09)
    armor: str | None  # the target's armor, if any
    armor_rating: int
    armor_stops_source: bool  # DMG-11: the armor table's say for this damage source
    unarmored_part: bool  # DMG-11 / MAN-10: the targeted part is not covered (or bypasses)
    location: str | None
    part: str | None
    head_shot: bool  # DMG-15
    effects: tuple[Effect, ...]
    costs: tuple[tuple[str, int], ...]  # pools the attacker spends (Willpower, Glamour)
    weapon_before: WeaponState | None
    weapon_after: WeaponState | None

    @property
    def damage_dice(self) -> int:
        """Dice damage.py rolls; 0 when nothing is dealt (a miss, a hold, a drain)."""
        return self.damage.dice if self.damage is not None and self.deals_damage else 0

    @property
    def armor_applies(self) -> bool:
        """DMG-11: the target's armor adds to soak against this hit."""
        return bool(self.armor_rating and self.armor_stops_source and not self.unarmored_part)

    def soak_kwargs(self) -> dict:
        """The keyword arguments ``wodcombat.combat.d10.damage.resolve_damage`` takes for this
        hit (the damage dice already include DMG-02's extra successes)."""
        return {"dice": self.damage_dice, "damage_type": self.damage_type,
                "source": self.damage_source, "materials": self.materials,
                "armor_rating": self.armor_rating, "armor_applies": self.armor_stops_source,
                "unarmored_part": self.unarmored_part, "head_shot": self.head_shot}


# ================================================================ helpers


def _need(faces, rng, n: int, sides: int) -> tuple[int, ...]:
    if faces is not None:
        faces = tuple(faces)
        if len(faces) != n:
            raise InputError(f"This roll needs {n} dice, {len(faces)} faces were given.")
        if any(not 1 <= f <= sides for f in faces):
            raise InputError(f"Die faces go from 1 to {sides}.")
        return faces
    if rng is None:
        raise InputError("Give the die faces or a random generator to roll with.")
    return roll_faces(n, rng, sides)


def _rating(ruleset, sheet, name: str) -> int:
    return sheet.rating(ruleset.traits, name)


def substitution_difficulty(ruleset, stated: str, used: str) -> int:
    """DICE-06: a related secondary ability for a primary one at -1 difficulty, a primary for
    a secondary at +1 (the numbers in ``attacks.substitution``; relations in
    ``traits.secondary_of``). Unrelated abilities cannot stand in for each other."""
    if used == stated:
        return 0
    sub = tables(ruleset).attacks["substitution"]
    if not sub["derived"]:  # v20: no DICE-06 house rule
        raise IllegalAction(f"This ruleset has no ability substitution: roll {stated}.")
    secondary_of = ruleset.traits.secondary_of
    if stated in secondary_of.get(used, ()):
        return sub["secondary_for_primary"]
    if used in secondary_of.get(stated, ()):
        return sub["primary_for_secondary"]
    raise IllegalAction(f"{used} is not related to {stated}; it cannot be rolled in its place.")


def _roll_terms(ruleset, sheet, row: dict, attribute: str, wanted: str | None, what: str,
                specialty: bool) -> tuple[tuple, list[Modifier], bool]:
    """Pick the traits to roll from a kind's row: the stated ability, a stated alternative, or
    the bare attribute (DICE-07) at the row's missing-ability difficulty (ATK-02, ATK-09)."""
    catalog = ruleset.traits
    stated = row["ability"]
    options = [(stated, 0, "")]
    derived = tables(ruleset).attacks["substitution"]["derived"]
    for alt in row["alternatives"]:
        used = alt["ability"]
        if "difficulty" not in alt and not derived:
            continue  # v20: only substitutions a rule states explicitly (no DICE-06)
        if "difficulty" in alt:
            options.append((used, alt["difficulty"], f"{used} for {stated}"))
        else:
            options.append((used, substitution_difficulty(ruleset, stated, used),
                            f"{used} for {stated}"))
    if wanted:
        canon = catalog.resolve(wanted)
        match = [o for o in options if o[0] == canon]
        if not match:
            names = ", ".join(o[0] for o in options)
            raise IllegalAction(f"{what} rolls {attribute} + {names}, not {canon}.")
        options = match
    rated = [o for o in options if sheet.rating(catalog, o[0]) > 0]
    attr = sheet.rating(catalog, attribute)
    mods: list[Modifier] = []
    if rated:
        used, diff, why = min(rated, key=lambda o: (-sheet.rating(catalog, o[0]), o[1]))
        terms = ((attribute, attr), (used, sheet.rating(catalog, used)))
        if diff:
            mods.append(Modifier(why, difficulty=diff))
        traits = (attribute, used)
    else:
        # DICE-07: no rating in any allowed ability: the bare attribute.
        terms = ((attribute, attr),)
        missing = row["missing_difficulty"]
        names = " or ".join(o[0] for o in options)
        mods.append(Modifier(f"no {names}: {attribute} alone", difficulty=missing))
        traits = (attribute,)
    spec = False
    if specialty:
        if not any(sheet.has_specialty(t) for t in traits):
            raise IllegalAction(f"You have no specialty in {' or '.join(traits)} to apply here.")
        spec = True
    return terms, mods, spec


def _wounds(ruleset, sheet, ignore: bool) -> Modifier | None:
    """HLT-06 / HLT-08: the wound penalty on an action pool, from combat.d10.damage (one source of
    truth, variants included); an incapacitated character cannot act. Unhurt: no work."""
    if not sheet.health or not any(sheet.health.values()):
        return None
    return wound_modifier(sheet, ruleset, "action", ignore)


def _carried(sheet, name: str, armor_ok: bool = False) -> bool:
    names = [w.lower() for w in sheet.weapons]
    if armor_ok and sheet.armor:
        names.append(sheet.armor.lower())
    return name.lower() in names


def _check_side(side: Side) -> None:
    bad = set(side.conditions) - CONDITIONS
    if bad:
        raise InputError(f"Unknown condition(s): {', '.join(sorted(bad))}. "
                         f"Known: {', '.join(sorted(CONDITIONS))}.")
    if side.speed not in SPEEDS:
        raise InputError(f"'{side.speed}' is not a speed. Use one of: {', '.join(SPEEDS)}.")
    if side.cover not in COVER:
        raise InputError(f"'{side.cover}' is not a cover. Use one of: {', '.join(COVER)}.")


def _faster_than_walk(speed: str) -> bool:
    return SPEEDS.index(speed) > SPEEDS.index("walk")


def _blind_penalty(ruleset, side: Side, base: int, close: bool) -> tuple[int, str]:
    """COMP-01: Eyes of the Beast removes the penalty, Heightened Senses halves it; Blind
    Fighting points reduce it in close combat."""
    mit = (tables(ruleset).comp.get("blinded") or {}).get("mitigations") or {}
    penalty, why = base, "blinded"
    for power, effect in mit.items():
        if power in side.active_powers:
            cut = 0 if effect == "none" else base // 2
            if cut < penalty:
                penalty, why = cut, f"blinded ({power})"
    if close and side.blind_fight_penalty:
        penalty = max(0, penalty - side.blind_fight_penalty)
        why += f", Blind Fighting -{side.blind_fight_penalty}"
    return penalty, why


def armor_penalty(ruleset, sheet, roll_kind: str) -> Modifier | None:
    """ATK-03: armor or a shield makes attacks harder (numetal: difficulty; V20: dice)."""
    if not sheet.armor:
        return None
    t = tables(ruleset)
    if roll_kind not in t.armor_rules["penalty_applies_to"]:
        return None
    armor = t.armor(sheet.armor)
    if not armor.penalty:
        return None
    if t.armor_rules["penalty_as"] == "dice":
        return Modifier(f"armor ({armor.name})", dice=-armor.penalty)
    return Modifier(f"armor ({armor.name})", difficulty=armor.penalty)


def _waived(ruleset, sheet, waiver: dict | None) -> bool:
    """A house-rule waiver: a specialty in a trait, a specialty naming something, or a rating."""
    if not waiver:
        return False
    # null switches that way off (a child ruleset cannot delete a key its parent set).
    if waiver.get("specialty_of") and sheet.has_specialty(waiver["specialty_of"]):
        return True
    if waiver.get("specialty_named"):
        word = waiver["specialty_named"].lower()
        if any(word in str(text).lower() for text in sheet.specialties.values()):
            return True
    if "trait" in waiver and _rating(ruleset, sheet, waiver["trait"]) >= waiver["at_least"]:
        return True
    return False


def thrown_max_range(ruleset, sheet, weapon: Weapon) -> int:
    """ATK-06: 5 x Strength yards for up to 3 lb, -5 yards per 2 lb more (whole steps), at
    least 1 yard; an object the thrower cannot lift cannot be thrown."""
    th = tables(ruleset).attacks["throwing"]
    strength = _rating(ruleset, sheet, "Strength")
    lift = th["lift_lb_by_strength"]
    if lift:
        can_lift = lift[min(strength, len(lift) - 1)]
        if weapon.weight_lb > can_lift:
            raise IllegalAction(f"You cannot lift {weapon.name} ({weapon.weight_lb} lb; Strength "
                                f"{strength} lifts {can_lift} lb), so you cannot throw it.")
    yards = th["yards_per_strength"] * strength
    extra = max(0, weapon.weight_lb - th["full_range_up_to_lb"])
    yards -= (extra // th["step_lb"]) * th["yards_lost_per_step"]
    return max(th["min_yards"], yards)


# ================================================================ the attack plan


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
        for src in man["claw_sources"]:
            if src["family"] != family:
                continue
            if src.get("natural"):
                if row.get("claw"):
                    return maneuver.damage, src["type"], (), f"{sheet.race} {src['label']}"
                continue
            if _rating(ruleset, sheet, src["trait"]) >= src["at_least"]:
                return maneuver.damage, src["type"], (), src["label"]
        raise IllegalAction(
            "Only vampires with Feral Claws (Protean 2) or bone spurs (Vicissitude 3) and shifters "
            "in a clawed form can claw. Strike or kick instead.")
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
    elif row.get("bite", "none") != "none":  # no row: this race has no natural weapons
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


def _movement_mods(ruleset, attacker, intent: Attack, a_side: Side,
                   t_side: Side) -> list[Modifier]:
    """MAN-02 a flank or rear attack, MAN-04 moving while attacking (up to half a run),
    COMP-05 either side moving faster than a walk."""
    t = tables(ruleset)
    mods: list[Modifier] = []
    flank = t.man["flank"]
    if intent.position not in ("front", "flank", "rear"):
        raise InputError("Position is front, flank or rear.")
    if intent.position != "front":
        if flank.get("lost_if_target_sees_behind") and t_side.sees_behind:
            pass  # everyman: a target that sees behind loses nothing to a rear attack
        else:
            n = flank["flank_dice"] if intent.position == "flank" else flank["rear_dice"]
            mods.append(Modifier(f"{intent.position} attack", dice=n))  # MAN-02
    if a_side.moved_yards:  # MAN-04
        wa = t.movement["while_acting"]
        limit = movement_yards(ruleset, attacker, "run") * wa["max_percent_of_run"] // 100
        if a_side.moved_yards > limit:
            raise IllegalAction(f"While acting you can move at most {limit} yards (half your "
                                f"run); you moved {a_side.moved_yards}. Move as a separate action.")
        mods.append(Modifier(f"moved {a_side.moved_yards} yd",
                             dice=wa["dice_per_yard"] * a_side.moved_yards))
    mv = t.comp["movement"]
    if _faster_than_walk(a_side.speed):  # COMP-05
        mods.append(Modifier(f"attacker moving ({a_side.speed})",
                             difficulty=mv["attacker_faster_than_walk"]))
    if _faster_than_walk(t_side.speed):
        mods.append(Modifier(f"target moving ({t_side.speed})",
                             difficulty=mv["target_faster_than_walk"]))
    return mods


def _close_mods(t, ctx: Context, weapon: Weapon | None) -> list[Modifier]:
    """A close attack: within reach, CLOSE-08 outnumbered, CLOSE-09 a riposte, CLOSE-13 the
    longer weapon."""
    a_side, t_side = ctx.attacker, ctx.target
    mods: list[Modifier] = []
    reach = t.attacks["close_reach_yards"]
    if ctx.range_yards > reach:
        raise IllegalAction(f"The target is {ctx.range_yards} yards away; close combat needs "
                            f"{reach} yard(s). Move closer first.")
    outnumbered = _outnumbered(t.man, a_side.opponents, "attack")
    if outnumbered:
        mods.append(outnumbered)
    if ctx.riposte:  # CLOSE-09
        if not weapon or weapon.kind not in ("melee", "thrown"):
            raise IllegalAction("A riposte is an attack with the weapon that parried.")
        mods.append(Modifier("riposte", dice=t.man["riposte_dice"]))
    if t_side.weapon:  # CLOSE-13
        theirs = t.weapon(t_side.weapon)
        mine = weapon.length if weapon and weapon.kind in ("melee", "thrown") else 0
        if theirs.kind in ("melee", "thrown") and theirs.length > mine:
            mods.append(Modifier(f"their {theirs.name} is longer",
                                 dice=t.man["weapon_length_dice"]))
    return mods


def _ranged_mods(ruleset, attacker, ctx: Context, weapon: Weapon | None, kind: str,
                 location: Location | None) -> tuple[str, list[Modifier]]:
    """(why the shot misses on its own or "", its modifiers): RNG-05 range bands (beyond the
    maximum misses; a thrown weapon's range by Strength), RNG-03 cover on either side (MAN-10:
    an exposed part bypasses it)."""
    t = tables(ruleset)
    a_side, t_side = ctx.attacker, ctx.target
    auto_miss = ""
    mods: list[Modifier] = []
    if weapon:
        bands = t.ranged["range_bands"]
        if kind == "thrown":
            maximum = thrown_max_range(ruleset, attacker, weapon)
            half = t.attacks["throwing"]["normal_range"] == "half"
            normal = maximum // 2 if half else maximum
        else:
            normal = weapon.range
            maximum = normal * bands["miss_beyond_multiple"]
        if ctx.range_yards > maximum:
            auto_miss = (f"the target is {ctx.range_yards} yards away, beyond the "
                         f"{weapon.name}'s maximum of {maximum}")
        elif ctx.range_yards > normal:
            mods.append(Modifier(f"beyond normal range ({normal} yd)",
                                 difficulty=bands["beyond_normal_difficulty"]))
        elif ctx.range_yards <= bands["point_blank_yards"]:
            mods.append(Modifier("point-blank", difficulty=bands["point_blank_difficulty"]))
    covers = t.ranged["cover"]
    cov = covers.get(t_side.cover) or {}
    if cov.get("to_be_hit"):
        if location and location.part in cov["exposed"]:
            pass  # MAN-10: aiming at the exposed part bypasses the cover
        else:
            mods.append(Modifier(f"target in {t_side.cover} cover",
                                 difficulty=cov["to_be_hit"]))
    own = covers.get(a_side.cover) or {}
    if own.get("to_hit"):
        mods.append(Modifier(f"shooting from {a_side.cover} cover",
                             difficulty=own["to_hit"]))
    return auto_miss, mods


def _off_hand(ruleset, attacker, weapon: Weapon | None, a_side: Side) -> Modifier | None:
    """RNG-09: neither hand's weapon may need both hands; the off hand's difficulty, unless
    the ruleset's waiver holds (Ambidextrous)."""
    t = tables(ruleset)
    tw = t.ranged["two_weapons"]
    if weapon and weapon.two_handed:
        raise IllegalAction(f"The {weapon.name} needs both hands; it cannot be an off-hand "
                            f"weapon.")
    main = t.weapon(a_side.weapon) if a_side.weapon else None
    if main and main.two_handed:
        raise IllegalAction(f"Both your hands are on the {main.name}.")
    if _waived(ruleset, attacker, tw.get("off_hand_waived_by")):
        return None
    return Modifier("off hand", difficulty=tw["off_hand_difficulty"])


def _complications(ruleset, ctx: Context, close: bool,
                   auto_hit: str) -> tuple[list[Modifier], str, bool]:
    """(the modifiers, ``auto_hit`` or why the attack hits without a roll, whether it hits
    with at least one success) of COMP-01 / MAN-12 blindness on either side, COMP-03 an
    immobilized target, COMP-04 either side on the ground."""
    a_side, t_side = ctx.attacker, ctx.target
    mods: list[Modifier] = []
    comp = tables(ruleset).comp
    blind = comp["blinded"]
    if "blinded" in a_side.conditions:  # COMP-01 / MAN-12
        if not close and blind["ranged_difficulty"] is None:
            raise IllegalAction("Blind, you cannot make a ranged attack with any accuracy.")
        base = blind["close_difficulty"] if close else blind["ranged_difficulty"]
        pen, why = _blind_penalty(ruleset, a_side, base, close)
        mods.append(Modifier(why, difficulty=pen))
    if "blinded" in t_side.conditions:
        bonus = blind["attacks_on_blinded_dice"]
        if close:
            bonus = max(0, bonus - t_side.blind_fight_bonus)
        mods.append(Modifier("target blinded", dice=bonus))
    imm = comp["immobilized"]
    min_one = False
    if t_side.conditions & {"immobilized_fully", "staked"}:  # COMP-03
        if imm["full"] == "auto_hit":
            auto_hit = auto_hit or "the target is fully immobilized: automatic hit"
        else:
            min_one = True
    elif "immobilized" in t_side.conditions:
        mods.append(Modifier("target immobilized", dice=imm["partial_dice"]))
    kd = comp["knockdown"]
    if "prone" in a_side.conditions and close:  # COMP-04
        mods.append(Modifier("attacking from the ground", dice=kd["prone_close_attack_dice"]))
    if "prone" in t_side.conditions:
        mods.append(Modifier("target on the ground", dice=kd["attacks_on_prone_dice"]))
    return mods, auto_hit, min_one



def _throwing_mods(t, weapon: Weapon, kind: str) -> list[Modifier]:
    """ATK-04: a weapon used the other way than it is made for (thrown or in melee)."""
    mods: list[Modifier] = []
    th = t.attacks["throwing"]
    if kind == "melee" and weapon.throwing:
        mods.append(Modifier("melee with a weapon made for throwing",
                             difficulty=th["melee_with_throwing_weapon"]))
    if kind == "thrown" and not weapon.throwing:
        mods.append(Modifier("throwing a weapon made for melee",
                             difficulty=th["throwing_melee_weapon"]))
    return mods



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


def _range_mods(ruleset, attacker, intent: Attack, ctx: Context, weapon: Weapon | None,
                kind: str, rng_cls: str, location: Location | None) -> tuple[str, list[Modifier]]:
    """(why the attack misses on its own or "", the modifiers of its distance): close
    combat's, or a shot's range and cover; then RNG-01 aiming and RNG-09 the off hand."""
    auto_miss = ""
    mods: list[Modifier] = []
    if rng_cls == "close":
        mods += _close_mods(tables(ruleset), ctx, weapon)
    if rng_cls == "ranged":
        auto_miss, ranged = _ranged_mods(ruleset, attacker, ctx, weapon, kind, location)
        mods += ranged
    if intent.aim_turns or intent.scope:
        mods.append(_aim(ruleset, attacker, weapon, kind, intent, ctx.target))
    if intent.off_hand:  # RNG-09
        off = _off_hand(ruleset, attacker, weapon, ctx.attacker)
        if off is not None:
            mods.append(off)
    return auto_miss, mods


def _location(t, m: Maneuver, intent: Attack, label: str) -> Location:
    """MAN-10: the body part aimed at, when the maneuver can aim."""
    if not m.targeting:
        raise IllegalAction(f"A {label} cannot aim at a body part: it sprays the target.")
    return t.location(intent.location)


def _last_mods(ruleset, attacker, intent: Attack, ctx: Context, m: Maneuver,
               terms: tuple) -> list[Modifier]:
    """The modifiers that close the pool: MAN-01 an ambush's dice, PWR-06 the traits a fera
    rolls at a penalty, CLOSE-01 severing, then the intent's and the fight's own."""
    mods: list[Modifier] = []
    if ctx.ambush_bonus:  # MAN-01
        mods.append(Modifier("ambush", dice=ctx.ambush_bonus))
    if m.roll:  # PWR-06
        used = {name for name, _ in terms}
        for why, d in fera_trait_difficulty(ruleset, attacker, used):
            mods.append(Modifier(why, difficulty=d))
    if intent.sever:
        sv = tables(ruleset).man["bite"]["sever"]  # _natural refused a bite without it
        mods.append(Modifier("severing", difficulty=sv["difficulty"]))
    return mods + list(intent.extra) + list(ctx.extra)


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
    a_side, t_side = ctx.attacker, ctx.target
    if a_side.conditions & {"immobilized_fully", "staked"}:
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

    # -------------------------------------------------- the pool (ATK-01..09, DICE-06/07)
    auto_hit = "" if m.roll else f"{label}: no roll needed (DICE-08)"
    terms, specialty, mods = _roll_part(ruleset, attacker, krow, m, intent, label)
    if weapon:  # ATK-04
        mods += _throwing_mods(t, weapon, kind)
    mods.append(armor_penalty(ruleset, attacker, "attack"))  # ATK-03
    mods.append(wounds)

    mods += _movement_mods(ruleset, attacker, intent, a_side, t_side)  # MAN-02/04, COMP-05

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


def _outnumbered(man, opponents: int, roll: str) -> Modifier | None:
    """CLOSE-08: +difficulty per attacker on this side's ``roll`` (attack or defense) when two
    or more engage it in close combat, up to the max; ``counts`` says whether the first
    attacker counts too (everyman: "+1 difficulty for each person") or only the extras."""
    mo = man["multiple_opponents"]
    if opponents < 2 or roll not in mo["applies_to"]:
        return None
    counted = opponents if mo.get("counts") == "every" else opponents - 1
    n = min(counted * mo["per_extra"], mo["max"])
    return Modifier(f"{opponents} opponents", difficulty=n)


def _aim(ruleset, sheet, weapon, kind, intent: Attack, t_side: Side) -> Modifier:
    """RNG-01: +1 die a turn up to Perception, +2 once for a scope; the traits each weapon
    kind needs (``ranged.aiming.requires``), and numetal's bans (``forbidden_classes``, the
    target no faster than ``target_max_speed``) where a ruleset has them."""
    aim = tables(ruleset).ranged["aiming"]
    if weapon is None or kind not in aim["requires"]:
        raise IllegalAction("Only guns and bows can be aimed.")
    need = aim["requires"][kind]
    if need and not any(_rating(ruleset, sheet, tr) >= n for tr, n in need.items()):
        text = " or ".join(f"{tr} {n}+" for tr, n in need.items())
        raise IllegalAction(f"Aiming a {kind} needs {text}.")
    if weapon.cls in aim["forbidden_classes"]:
        raise IllegalAction(f"A {weapon.cls} cannot be aimed: fire it instead.")
    top = aim.get("target_max_speed")  # absent: any speed (RNG-01's limit is numetal's)
    if top and SPEEDS.index(t_side.speed) > SPEEDS.index(top):
        raise IllegalAction(f"The target is moving faster than a {top}: aiming is wasted.")
    if intent.aim_turns < 0:
        raise InputError("Aim turns cannot be negative.")
    cap = _rating(ruleset, sheet, aim["max_trait"])
    dice = min(intent.aim_turns * aim["dice_per_turn"], cap)
    why = f"aimed {intent.aim_turns} turn(s)"
    if (weapon.scope or intent.scope) and intent.aim_turns:
        dice += aim["scope_dice"]
        why += " with a scope"
    return Modifier(why, dice=dice)


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


# ================================================================ plans, through a memo

# Plans are pure functions of frozen inputs; a ``Memo`` (combat/core/memo.py) handed down from
# ``apply`` keeps them, so neither the three asks of one attack nor a simulation of one
# matchup (bench/engine.py) builds them again. Without a memo (a test, a tool) each ask
# builds its plan. The ruleset is matched by identity (its mappings are not hashable); each
# entry holds it (and any input keyed by id), so an id cannot be reused while the entry
# lives. Refusals are not kept.


def _ident(x, memo: Memo):
    """How a key names a plan input: a Sheet by its value, so a sheet read afresh from an
    Attribute on each command finds the plan an equal sheet left; anything else by identity
    (its entry holds it, so the id is not reused meanwhile)."""
    return memo.sheet_number(x) if type(x) is Sheet else id(x)


_ATTACK_FIELDS = attrgetter(*(f.name for f in fields(Attack)))
_CONTEXT_FIELDS = attrgetter(*(f.name for f in fields(Context)
                               if f.name not in ("attacker", "target")))
_SIDE_FIELDS = attrgetter(*(f.name for f in fields(Side)))
_DEFENSE_FIELDS = attrgetter(*(f.name for f in fields(Defense)))


def _token(intent: Attack, ctx: Context, memo: Memo) -> int:
    """A number naming the value of (intent, ctx), for the plan keys: hashing a Context (its
    sides, frozensets, ...) costs more than the plan lookup itself, and both plan lookups of
    an attack need it. Found by identity first (a combat reuses its objects), then by value
    (a command builds new equal ones); a number is never reused for another value.
    Raises TypeError for an unhashable input, as a key holding it would."""
    ids = (id(intent), id(ctx))
    hit = memo.tokens.get(ids)
    if hit is not None and hit[0] is intent and hit[1] is ctx:
        return hit[2]
    if type(intent) is Attack and type(ctx) is Context and type(ctx.attacker) is Side \
            and type(ctx.target) is Side:
        # the same value as (intent, ctx) compares, flat: hashed and compared in C without
        # the dataclasses' own __hash__/__eq__ (two thirds of the cost)
        value = (_ATTACK_FIELDS(intent), _CONTEXT_FIELDS(ctx), _SIDE_FIELDS(ctx.attacker),
                 _SIDE_FIELDS(ctx.target))
    else:
        value = (intent, ctx)
    tok = memo.token_of.get(value)
    if tok is None:
        if len(memo.token_of) >= MEMO_SIZE:
            memo.forget_plans()
        tok = memo.token_of[value] = memo.number()
    if len(memo.tokens) >= IDENTITY_SIZE:
        memo.tokens.clear()
    memo.tokens[ids] = (intent, ctx, tok)  # holds both, so neither id is reused meanwhile
    return tok


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


def _plan(ruleset, attacker, target, intent: Attack, ctx: Context, memo: Memo | None) -> _Plan:
    """``_prepare`` through the memo: the last answer by identity first (an attack asks
    three times with the very same values), then by value, under a key without the target
    (plans that read nothing of it), then with the target's facts."""
    if memo is None:
        return _prepare(ruleset, attacker, _TargetFacts(ruleset, target), intent, ctx)
    last = memo.last_plan
    if (last is not None and last[0] is intent and last[1] is ctx and last[2] is attacker
            and last[3] is target and last[4] is ruleset):
        return last[5]
    plan = _plan_by_value(ruleset, attacker, target, intent, ctx, memo)
    memo.last_plan = (intent, ctx, attacker, target, ruleset, plan)
    return plan


def _plan_by_value(ruleset, attacker, target, intent: Attack, ctx: Context,
                   memo: Memo) -> _Plan:
    facts = _TargetFacts(ruleset, target)
    try:
        base = ("attack", id(ruleset), _ident(attacker, memo), _token(intent, ctx, memo))
        hit = memo.plans.get(base)
    except TypeError:  # an unhashable input: just compute
        return _prepare(ruleset, attacker, facts, intent, ctx)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    full = (*base, facts.key())
    hit = memo.plans.get(full)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    value = _prepare(ruleset, attacker, facts, intent, ctx)
    memo.store(full if facts.used else base, (ruleset, value, attacker))
    return value


_ASKS_SOAK = object()  # a defense-plan entry: this defense turns on can_soak (see _defense)


def _defense(ruleset, defender, attacker, defense: Defense, plan: _Plan, ctx: Context,
             can_soak, intent: Attack, memo: Memo | None):
    """The defense plan: through the memo, the last answer by identity first (an attack
    asks twice, is the defense usable and its roll, with the very same values)."""
    if memo is None:
        _check_magic_defense(ruleset, intent, defense)
        return _defense_plan(ruleset, defender, attacker, defense, plan, ctx, can_soak)
    last = memo.last_defense
    if (last is not None and last[0] is defense and last[1] is plan and last[2] is ctx
            and last[3] is defender and last[4] is attacker and last[5] is ruleset
            and last[6] is can_soak and last[7] is intent):
        return last[8]
    value = _defense_by_value(ruleset, defender, attacker, defense, plan, ctx, can_soak,
                              intent, memo)
    memo.last_defense = (defense, plan, ctx, defender, attacker, ruleset, can_soak, intent,
                         value)
    return value


def _defense_by_value(ruleset, defender, attacker, defense: Defense, plan: _Plan,
                      ctx: Context, can_soak, intent: Attack, memo: Memo):
    # The defense plan reads the defender, not the attacker: the key leaves the attacker out,
    # and names the attack by the plan facts the defense reads.
    try:
        key = ("defense", id(ruleset), _ident(defender, memo),
               _DEFENSE_FIELDS(defense) if type(defense) is Defense else defense, plan.kind,
               plan.range,
               plan.damage_type, plan.auto_hit, plan.maneuver.name, plan.barehanded,
               _token(intent, ctx, memo))
        hit = memo.plans.get(key)
    except TypeError:  # an unhashable input: just compute
        hit, key = None, None
    if hit is not None and hit[0] is ruleset:
        if hit[1] is not _ASKS_SOAK:
            return hit[1]
        # DMG-16: a block against lethal or aggravated damage that turned on the defender's
        # ``can_soak`` answer. ``can_soak`` is a fresh lambda on every +combat/act, so the
        # key holds its answer (asked once, as the plan would), not the function.
        if can_soak is None:  # the plan refuses: it needs the answer
            return _defense_plan(ruleset, defender, attacker, defense, plan, ctx, None)
        answer = bool(can_soak(plan.damage_type))
        key = (*key, answer)
        hit = memo.plans.get(key)
        if hit is not None and hit[0] is ruleset:
            return hit[1]
        value = _defense_plan(ruleset, defender, attacker, defense, plan, ctx,
                              lambda _type: answer)
        memo.store(key, (ruleset, value, defender))
        return value
    _check_magic_defense(ruleset, intent, defense)
    asked: list[bool] = []
    soak = can_soak
    if can_soak is not None:
        def soak(damage_type):
            asked.append(bool(can_soak(damage_type)))
            return asked[-1]
    value = _defense_plan(ruleset, defender, attacker, defense, plan, ctx, soak)
    if key is not None:
        if asked:
            memo.store(key, (ruleset, _ASKS_SOAK, defender))
            key = (*key, asked[0])
        memo.store(key, (ruleset, value, defender))
    return value


# ================================================================ public API: attack


def build_attack_pool(ruleset, attacker, target, intent: Attack,
                      context: Context | None = None, *, memo: Memo | None = None) -> PoolSpec:
    """The attack's pool with every modifier and its reason; ``IllegalAction`` if the attack
    cannot be made. An attack that needs no roll (DICE-08) has an empty pool."""
    plan = _plan(ruleset, attacker, target, intent, context or Context(), memo)
    return plan.pool if plan.pool is not None else PoolSpec((), (), ruleset.dice.base_difficulty)


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


def build_defense_pool(ruleset, defender, attacker, defense: Defense, attack: Attack,
                       context: Context | None = None, *,
                       can_soak: Callable[[str], bool] | None = None,
                       memo: Memo | None = None) -> PoolSpec:
    """The defense's pool against ``attack`` (``context`` is the attack's, so
    ``context.target`` describes the defender)."""
    ctx = context or Context()
    plan = _plan(ruleset, attacker, defender, attack, ctx, memo)
    return _defense(ruleset, defender, attacker, defense, plan, ctx, can_soak, attack, memo)[0]


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


def _resolve_defense(ruleset, defender, attacker, defense, plan, ctx, faces, rng, can_soak,
                     attack_successes: int, intent: Attack, memo: Memo | None) -> DefenseResult:
    pool, spec, can_botch = _defense(ruleset, defender, attacker, defense, plan, ctx, can_soak,
                                     intent, memo)
    rules = ruleset.dice
    faces = _need(faces, rng, pool.dice, rules.sides)
    roll = count(faces, pool.difficulty, rules, specialty=spec, willpower=defense.willpower,
                 can_botch=can_botch)
    counter = None
    ctype = ""
    pc = tables(ruleset).defenses.get("parry_counter")
    if defense.kind == "parry" and pc and roll.successes > attack_successes:  # DMG-17
        item = _parry_item(ruleset, defender, defense.weapon or ctx.target.weapon)
        unarmed = plan.barehanded
        types = pc["weapon_types"]
        if isinstance(item, Weapon) and (pc["against"] == "any" or unarmed) \
                and item.type in types:
            extra = roll.successes - attack_successes
            counter = _damage_pool(ruleset, defender, Damage("weapon"), item, "parry")
            counter = counter.plus(Modifier(f"parry beat the attack by {extra}",
                                            dice=extra * pc["dice_per_extra_success"]))
            ctype = item.type
    return DefenseResult(defense, pool, roll, counter, ctype)


def resolve_attack(ruleset, attacker, target, intent: Attack, context: Context | None = None,
                   defense: Defense | None = None, *, faces=None, defense_faces=None,
                   rng: random.Random | None = None,
                   can_soak: Callable[[str], bool] | None = None,
                   memo: Memo | None = None) -> AttackResult:
    """Roll the attack (and the target's defense) and say what the hit hands to damage.

    ``faces`` / ``defense_faces`` give exact dice (tests, replays); otherwise ``rng`` rolls.
    ``can_soak(type)`` answers DMG-16 for a block against lethal or aggravated damage.
    ``memo`` (combat/core/memo.py) spares building the same plans again.
    """
    ctx = context or Context()
    plan = _plan(ruleset, attacker, target, intent, ctx, memo)
    if plan.maneuver.max_spread_yards:  # RNG-07 on one target: halved
        return _strafe(ruleset, attacker, {intent.target: target}, intent, ctx,
                       {intent.target: (defense, defense_faces)} if defense else {},
                       faces, rng, can_soak, (), plan, memo=memo)[1][0]
    roll, successes = _attack_roll(ruleset, plan, intent, faces, rng)
    return _outcome(ruleset, plan, attacker, target, intent, ctx, intent.target, roll, successes,
                    defense, defense_faces, rng, can_soak, memo)


def _attack_roll(ruleset, plan: _Plan, intent: Attack, faces, rng) -> tuple[Roll | None, int]:
    if plan.auto_miss or plan.auto_hit or plan.pool is None:
        return None, (1 if plan.auto_hit and not plan.auto_miss else 0)
    rules = ruleset.dice
    faces = _need(faces, rng, plan.pool.dice, rules.sides)
    roll = count(faces, plan.pool.difficulty, rules, specialty=plan.specialty,
                 willpower=intent.willpower, can_botch=plan.can_botch)
    successes = roll.successes
    if plan.min_one:  # COMP-03: a fully immobilized target is hit with at least one success
        successes = max(1, successes)
    return roll, successes


def _outcome(ruleset, plan: _Plan, attacker, target, intent: Attack, ctx: Context, key: str,
             roll: Roll | None, successes: int, defense: Defense | None, defense_faces, rng,
             can_soak, memo: Memo | None) -> AttackResult:
    t = tables(ruleset)
    dres = None
    if defense is not None and not plan.auto_miss:
        dres = _resolve_defense(ruleset, target, attacker, defense, plan, ctx, defense_faces, rng,
                                can_soak, successes, intent, memo)
    net = successes - (dres.roll.successes if dres else 0)  # DMG-03
    hit = net >= 1 and not plan.auto_miss
    botched = bool(roll and roll.botch and not plan.min_one)
    effects: list[Effect] = []
    after = plan.state_after
    if botched:
        for e in plan.maneuver.botch_effects:
            effects.append(Effect(e.effect, e.who, value=_rating(ruleset, target, "Stamina"),
                                  detail=e.detail))
        bow = t.attacks["bow"]
        if plan.kind == "bow" and bow["botch_snaps_string"] and after is not None:
            after = replace(after, string_ok=False)  # ATK-07
            effects.append(Effect("string_snapped", "attacker", detail=plan.weapon.name))
    # A thrown weapon leaves the hand whether it hits or not.
    effects += [e for e in plan.effects if e.kind == "weapon_thrown"]
    damage = None
    if hit:
        effects += [e for e in plan.effects if e.kind != "weapon_thrown"]
        if plan.disarm == "attack_successes":  # CLOSE-04 everyman variant
            if net > _rating(ruleset, target, "Strength"):
                effects.append(Effect("disarmed", "target", detail=ctx.target.weapon or ""))
        if plan.damage is not None:
            damage = plan.damage
            if net > 1:  # DMG-02: each success beyond the first adds a die
                per = ruleset.section("damage")["dice_per_extra_success"]
                damage = damage.plus(Modifier("extra successes", dice=(net - 1) * per))
        if plan.sever:  # CLOSE-01 Redcap severing
            sv = t.man["bite"]["sever"]  # a plan severs only where the ruleset has it
            need = sv["successes_if_grappled"] if ctx.grapple else sv["successes"]
            if net >= need:
                effects.append(Effect("severed", "target", detail=intent.location or "limb"))
                if damage is not None:
                    damage = damage.plus(Modifier("limb severed", dice=sv["damage"]))
        skin = jagged_skin(ruleset, target) if plan.barehanded else None
        if skin:  # PWR-06 Rokea jagged skin
            effects.append(Effect("attacker_damage", "attacker", value=skin[0], detail=skin[1]))
    armor_name = target.armor or None
    rating, stops, unarmored = 0, False, False
    part = plan.location.part if plan.location else None
    if armor_name:
        armor = t.armor(armor_name)
        rating, stops = armor.rating, armor.stops(plan.source)
        bypass = plan.location is not None and plan.location.bypasses_armor
        unarmored = bypass or not armor.covers_part(part)
    head_parts = t.targeting["head_parts"]
    return AttackResult(
        intent=intent, context=ctx, target=key, maneuver=plan.maneuver.name,
        attack_kind=plan.kind, range=plan.range,
        weapon=plan.weapon.name if plan.weapon else None, pool=plan.pool if roll else None,
        roll=roll, defense=dres, successes=successes, net=max(0, net), hit=hit, botch=botched,
        auto=plan.auto_miss and f"automatic miss: {plan.auto_miss}" or plan.auto_hit,
        damage=damage, deals_damage=bool(hit and damage is not None and plan.deals_damage),
        damage_type=plan.damage_type, damage_source=plan.source,
        materials=plan.materials, armor=armor_name, armor_rating=rating,
        armor_stops_source=stops, unarmored_part=unarmored,
        location=plan.location.name if plan.location else None, part=part,
        head_shot=bool(hit and part in head_parts), effects=tuple(effects), costs=plan.costs,
        weapon_before=plan.state_before, weapon_after=after,
    )


# ================================================================ RNG-07 strafing


@dataclass(frozen=True, slots=True)
class StrafeResult:
    pool: PoolSpec
    roll: Roll
    shares: Mapping[str, int]
    results: tuple[AttackResult, ...]


def resolve_strafe(ruleset, attacker, targets: Mapping[str, object], intent: Attack,
                   context: Context | None = None, *,
                   defenses: Mapping[str, tuple[Defense, object]] | None = None,
                   sides: Mapping[str, Side] | None = None, leftover_to: tuple[str, ...] = (),
                   faces=None, rng: random.Random | None = None,
                   can_soak: Mapping[str, Callable[[str], bool]] | None = None,
                   memo: Memo | None = None) -> StrafeResult:
    """RNG-07: one roll (pool built against the first target), successes split evenly among
    targets within 3 yards of each other; each target's defense cancels only its share.
    ``sides`` gives each target's facts (cover, conditions) for its defense."""
    ctx = context or Context()
    first = next(iter(targets))
    plan = _plan(ruleset, attacker, targets[first], replace(intent, target=first), ctx, memo)
    if not plan.maneuver.max_spread_yards:
        raise IllegalAction(f"A {plan.maneuver.name} is not a strafe.")
    sides = sides or {}
    roll, results = _strafe(ruleset, attacker, targets, intent, ctx, defenses or {}, faces,
                            rng, can_soak or {}, leftover_to, plan, sides, memo)
    shares = {r.target: r.successes for r in results}
    return StrafeResult(plan.pool, roll, shares, results)


def _strafe(ruleset, attacker, targets, intent, ctx, defenses, faces, rng, can_soak,
            leftover_to, plan, sides=None, memo: Memo | None = None):
    m = plan.maneuver
    if ctx.spread_yards > m.max_spread_yards:
        raise IllegalAction(f"Strafed targets must be within {m.max_spread_yards} yards of each "
                            f"other; these spread over {ctx.spread_yards}.")
    roll, total = _attack_roll(ruleset, plan, intent, faces, rng)
    keys = tuple(targets)
    shares = strafe_shares(total, keys, leftover_to, m.single_target)
    out = []
    for key in keys:
        side = (sides or {}).get(key)
        c = replace(ctx, target=side) if side is not None else ctx
        dfn, dfaces = defenses.get(key, (None, None))
        soak = can_soak.get(key) if isinstance(can_soak, Mapping) else can_soak
        out.append(_outcome(ruleset, plan, attacker, targets[key], replace(intent, target=key),
                            c, key, roll, shares[key], dfn, dfaces, rng, soak, memo))
    return roll, tuple(out)


# ================================================================ other rolls and actions


@dataclass(frozen=True, slots=True)
class ReadyResult:
    """A weapon-readying action (nock, reload, prepare arrows, repair a bowstring)."""

    action: str
    state: WeaponState
    success: bool
    roll: Roll | None  # None: an action without a roll, automatically successful (DICE-08)
    pool: PoolSpec | None
    actions_used: int
    note: str = ""


def crossbow_reload_actions(ruleset, sheet) -> int:
    """ATK-08: two actions to reload (one with a crossbow specialty; revised: Archery 4+)."""
    cb = tables(ruleset).attacks["crossbow"]
    if _waived(ruleset, sheet, cb.get("fast_reload_by")):
        return cb["fast_reload_actions"]
    return cb["reload_actions"]


def ready_weapon(ruleset, sheet, weapon: str, state: WeaponState | None, action: str, *,
                 arrows: int = 0, spare_string: bool = False, ability: str | None = None,
                 faces=None, rng: random.Random | None = None) -> ReadyResult:
    """RNG-06 reloading, ATK-07 nocking and string repair, ATK-08 crossbow reloading. Each is
    one action; those without a roll succeed automatically (DICE-08)."""
    t = tables(ruleset)
    w = t.weapon(weapon)
    st = state or WeaponState.fresh(w)
    if action == "nock":
        if w.kind != "bow":
            raise IllegalAction(f"Only a bow is nocked; the {w.name} is a {w.kind}.")
        if not st.string_ok:
            raise IllegalAction("The bowstring is snapped: repair it first.")
        return ReadyResult(action, replace(st, nocked=True), True, None, None, 1)
    if action == "prepare":
        if w.kind != "bow":
            raise IllegalAction("Only arrows can be set ready beforehand.")
        if arrows < 1:
            raise InputError("Say how many arrows to set ready, e.g. 5.")
        return ReadyResult(action, replace(st, prepared_arrows=st.prepared_arrows + arrows),
                           True, None, None, 1, "shots from prepared arrows need no nocking")
    if action == "reload":
        if w.kind == "firearm":
            return ReadyResult(action, replace(st, ammo=w.clip), True, None, None, 1)
        if w.kind == "crossbow":
            need = crossbow_reload_actions(ruleset, sheet)
            if st.ammo:
                raise IllegalAction(f"The {w.name} is already loaded.")
            done = st.reload_progress + 1
            if done >= need:
                return ReadyResult(action, replace(st, ammo=w.clip or 1, reload_progress=0),
                                   True, None, None, 1, "loaded")
            return ReadyResult(action, replace(st, reload_progress=done), True, None, None, 1,
                               f"{done} of {need} reload actions done")
        raise IllegalAction(f"The {w.name} is not reloaded; guns and crossbows are.")
    if action == "repair":
        bow = t.attacks["bow"]
        if w.kind != "bow" or st.string_ok:
            raise IllegalAction("Only a bow with a snapped string needs this repair.")
        if bow["repair_needs_spare_string"] and not spare_string:
            raise IllegalAction("Repairing the string needs a spare bowstring.")
        rows = bow.get("repair_rolls") or ()
        if not rows:
            return ReadyResult(action, replace(st, string_ok=True), True, None, None, 1)
        best = None
        for row in rows:
            if ability and ruleset.traits.resolve(ability) != row["ability"]:
                continue
            score = _rating(ruleset, sheet, row["ability"])
            if best is None or score > best[0]:
                best = (score, row)
        if best is None:
            raise IllegalAction("Repair rolls Wits + " + " or ".join(r["ability"] for r in rows))
        row = best[1]
        terms, mods, _ = _roll_terms(ruleset, sheet, {**row, "missing_difficulty": 1},
                                     row["attribute"], None, "Repair", False)
        mods.append(Modifier(f"{row['ability']} for the repair",
                             difficulty=row["difficulty"]))
        mods.append(_wounds(ruleset, sheet, False))
        pool = PoolSpec(terms, (), ruleset.dice.base_difficulty).plus(*[x for x in mods if x])
        roll = count(_need(faces, rng, pool.dice, ruleset.dice.sides), pool.difficulty,
                     ruleset.dice)
        ok = roll.successes > 0
        return ReadyResult(action, replace(st, string_ok=ok), ok, roll, pool, 1)
    raise InputError(f"'{action}' is not a weapon action. Use nock, prepare, reload or repair.")


@dataclass(frozen=True, slots=True)
class ReflexResult:
    """A reflex roll (DICE-09): not an action, no wound penalty, no multiple-action penalty."""

    what: str
    pool: PoolSpec
    roll: Roll
    counts_as_action: bool = False


@dataclass(frozen=True, slots=True)
class KnockdownResult:
    """COMP-04: success: up at once, -2 initiative next turn; failure: getting up takes an
    action; botch: also one unsoakable bashing (numetal)."""

    reflex: ReflexResult
    standing: bool
    initiative_next_turn: int
    stand_needs_action: bool
    damage: int
    damage_type: str
    soakable: bool

    @property
    def roll(self) -> Roll:
        return self.reflex.roll


def _reflex_pool(ruleset, sheet, attribute, ability, difficulty, extra_mods, sense=""):
    row = ROLL.fill({"attribute": attribute, "ability": ability})  # DICE-07 at the base
    terms, mods, _ = _roll_terms(ruleset, sheet, row, attribute, None, "This roll", False)
    used = {n for n, _ in terms}
    for why, d in fera_trait_difficulty(ruleset, sheet, used, sense):
        mods.append(Modifier(why, difficulty=d))
    mods += [m for m in extra_mods if m]
    return PoolSpec(terms, (), difficulty).plus(*[m for m in mods if m])


def knockdown_check(ruleset, sheet, *, difficulty: int = 0, absolute: int | None = None,
                    faces=None, rng: random.Random | None = None) -> KnockdownResult:
    """COMP-04 knockdown roll, Dexterity + Athletics, a reflex (DICE-09: no wound penalty).
    ``difficulty`` is the maneuver's change (sweep +2, tackle +1); ``absolute`` a fixed one."""
    kd = tables(ruleset).comp["knockdown"]
    # The change from the base difficulty is a named modifier, so the log says why a
    # knockdown is rolled at 7 or 8 (issue 9, defect 26).
    base = ruleset.dice.base_difficulty
    change = (absolute - base) if absolute is not None else difficulty
    why = Modifier("knockdown maneuver", difficulty=change) if change else None
    pool = _reflex_pool(ruleset, sheet, kd["attribute"], kd["ability"], base, [why])
    roll = count(_need(faces, rng, pool.dice, ruleset.dice.sides), pool.difficulty, ruleset.dice)
    reflex = ReflexResult("knockdown", pool, roll)
    if roll.successes:
        return KnockdownResult(reflex, True, kd["success_initiative"], False, 0, "", True)
    if roll.botch:
        return KnockdownResult(reflex, False, 0, True, kd["botch_damage"], kd["botch_type"],
                               kd["botch_soakable"])
    return KnockdownResult(reflex, False, 0, True, 0, "", True)


def blind_fighting(ruleset, sheet, *, faces=None, rng: random.Random | None = None
                   ) -> tuple[ReflexResult, int]:
    """COMP-01: Perception + Blind Fighting (a reflex, blindness penalty not applied); the
    first success is worth 1 point, each 2 more another (spent on the own penalty or on the
    bonus to attack you, close combat only)."""
    bf = tables(ruleset).comp["blinded"]["blind_fighting"]
    ability = bf["ability"]
    if _rating(ruleset, sheet, ability) < 1:
        raise IllegalAction(f"You have no {ability}.")
    pool = _reflex_pool(ruleset, sheet, bf["attribute"], ability,
                        ruleset.dice.base_difficulty, ())
    roll = count(_need(faces, rng, pool.dice, ruleset.dice.sides), pool.difficulty, ruleset.dice)
    s = roll.successes
    points = 0 if s < 1 else bf["first"] + (s - 1) // bf["per_extra"]
    return ReflexResult("blind fighting", pool, roll), points


@dataclass(frozen=True, slots=True)
class AmbushResult:
    """MAN-01: free_attack (with bonus dice), attacker_first (tie: target may only defend), or
    spotted (roll initiative normally)."""

    attacker_pool: PoolSpec
    attacker_roll: Roll
    target_pool: PoolSpec
    target_roll: Roll
    outcome: str
    bonus_dice: int


def resolve_ambush(ruleset, attacker, target, *, target_side: Side | None = None,
                   sense: str | None = None, attacker_faces=None, target_faces=None,
                   rng: random.Random | None = None, ignore_wounds: bool = False
                   ) -> AmbushResult:
    """MAN-01: resisted Dexterity + Stealth against Perception + Alertness; someone already in
    combat cannot be ambushed."""
    side = target_side or Side(in_combat=False)
    if side.in_combat:
        raise IllegalAction("The target is already in combat and cannot be ambushed.")
    amb = tables(ruleset).man["ambush"]
    arow, trow = amb["attacker"], amb["target"]
    base = ruleset.dice.base_difficulty
    apool = _reflex_pool(ruleset, attacker, arow["attribute"], arow["ability"], base,
                         [_wounds(ruleset, attacker, ignore_wounds)])
    tpool = _reflex_pool(ruleset, target, trow["attribute"], trow["ability"], base, (),
                         sense or trow["sense"])
    ar = count(_need(attacker_faces, rng, apool.dice, ruleset.dice.sides), apool.difficulty,
               ruleset.dice)
    tr = count(_need(target_faces, rng, tpool.dice, ruleset.dice.sides), tpool.difficulty,
               ruleset.dice)
    margin = ar.successes - tr.successes
    if margin > 0:
        bonus = margin if amb["bonus_dice"] == "margin" else margin - 1
        return AmbushResult(apool, ar, tpool, tr, "free_attack", bonus)
    return AmbushResult(apool, ar, tpool, tr, "attacker_first" if margin == 0 else "spotted", 0)


@dataclass(frozen=True, slots=True)
class EscapeResult:
    escaper_pool: PoolSpec
    escaper_roll: Roll
    holder_pool: PoolSpec
    holder_roll: Roll
    escaped: bool


def resolve_escape(ruleset, escaper, holder, *, escaper_faces=None, holder_faces=None,
                   rng: random.Random | None = None, extra=()) -> EscapeResult:
    """CLOSE-03 / CLOSE-05: resisted Strength + Brawl; the escaper needs more successes. The
    escape is the escaper's action (wounds count); holding on is the holder's reflex."""
    esc = tables(ruleset).man.get("escape") or {"attribute": "Strength", "ability": "Brawl"}
    base = ruleset.dice.base_difficulty
    epool = _reflex_pool(ruleset, escaper, esc["attribute"], esc["ability"], base,
                         [_wounds(ruleset, escaper, False), *extra])
    hpool = _reflex_pool(ruleset, holder, esc["attribute"], esc["ability"], base, ())
    er = count(_need(escaper_faces, rng, epool.dice, ruleset.dice.sides), epool.difficulty,
               ruleset.dice)
    hr = count(_need(holder_faces, rng, hpool.dice, ruleset.dice.sides), hpool.difficulty,
               ruleset.dice)
    return EscapeResult(epool, er, hpool, hr, er.successes > hr.successes)


def two_weapons_no_multi_penalty(ruleset, sheet, other_actions: int) -> bool:
    """RNG-09: Ambidextrous 2 and no other action that turn: the scheduler skips the
    multiple-action penalty for the two weapon attacks."""
    tw = tables(ruleset).ranged.get("two_weapons") or {}
    return other_actions == 0 and _waived(ruleset, sheet, tw.get("no_multiple_action_penalty_by"))


def stake_holds(result: AttackResult, levels_after_soak: int) -> bool:
    """MAN-11: the stake paralyses when the hit on the heart did enough damage after soak."""
    for e in result.effects:
        if e.kind == "staked_if_damage":
            return levels_after_soak >= e.value
    return False


def disarm_succeeds(result: AttackResult, damage_successes: int) -> bool:
    """CLOSE-04: the weapon flies when pre-soak damage successes exceed the target's Strength."""
    for e in result.effects:
        if e.kind == "disarm_if_damage_over":
            return damage_successes > e.value
        if e.kind == "disarmed":
            return True
    return False

