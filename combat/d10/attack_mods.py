"""The traits and modifiers of an attack pool: DICE-06/07 substitutions and a missing ability,
ATK-03 armor, ATK-04/06 throwing, MAN-02/04 position and movement, CLOSE-08/09/13 close
combat, RNG-01..03/09 range, cover, aim and the off hand, COMP-01/03/04/05 complications.
Every number comes from the ruleset's tables (combat/core/maneuvers.py); every modifier
carries its reason so the room and the log can show the arithmetic.
"""

from __future__ import annotations

from ..core.dice import Roll, count, roll_count, roll_faces
from ..core.errors import IllegalAction, InputError
from ..core.maneuver_schemas import COVER
from ..core.maneuvers import (
    Location,
    Maneuver,
    Weapon,
    fera_trait_difficulty,
    movement_yards,
    tables,
)
from ..core.pools import Modifier
from .attack_values import CONDITIONS, SPEEDS, Attack, Context, Side
from .wound_penalty import wound_modifier


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


def _roll(faces, rng, n: int, difficulty: int, rules, *, specialty: bool = False,
          willpower: bool = False, can_botch: bool = True) -> Roll:
    """``n`` dice counted at ``difficulty``: the ``faces`` given (checked as ``_need`` does),
    else drawn from ``rng`` and counted in one call (``dice.roll_count``)."""
    if faces is None and rng is not None:
        return roll_count(n, difficulty, rng, rules, specialty=specialty, willpower=willpower,
                          can_botch=can_botch)
    return count(_need(faces, rng, n, rules.sides), difficulty, rules, specialty=specialty,
                 willpower=willpower, can_botch=can_botch)


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
