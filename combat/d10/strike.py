"""An attack from the declared action to every consequence, as events; a strafe (RNG-07) is
one roll split among several such targets.

The defense declared (DEF-01..04, TURN-09 anticipated first, TURN-08 aborted to), the roll,
damage and soak (DMG-01..17), health outcomes (HLT-02..05) and what the hit does beyond
damage: knockdowns (COMP-04, CLOSE-11/12), grapples (CLOSE-03/05), disarms (CLOSE-04),
stakes (MAN-11), jagged skin (PWR-06), a thrown weapon leaving the hand.

A declared defense that cannot work against this attack (a dodge against a gunshot without
cover, a block against a blade the defender cannot soak, a parry with nothing to parry with)
is ineffective, as seed 000 says ("your defense resolves at the same time, though it may turn
out to be ineffective, e.g. trying to block a gunshot"): it rolls nothing and the attack
goes on. It never stops the attacker.
"""

from __future__ import annotations

from . import damage as dmg

from .damage_tables import DEAD

from .wound_penalty import pay_costs

from . import soak as soak_rules
from ..core import dice
from . import scheduler as sch
from .attack_resolve import (
    build_attack_pool,
    build_defense_pool,
    disarm_succeeds,
    resolve_attack,
    resolve_strafe,
    stake_holds,
)
from .attack_values import Attack, Context, Defense
from .reflex_rolls import knockdown_check
from ..core.errors import IllegalAction
from ..core.events import Later
from ..core.pools import Modifier, PoolSpec
from ..core.values import replace
from . import close, harm, mending, ranged, rolls
from .fight import OUT_OF_ACTION, Fight, roll_event
from .gear import Penalty

DEFENSES = ("dodge", "block", "parry")


def attack(f: Fight, key: str, action: dict, mods, defense_now: str | None = None) -> None:
    """``mods``: the action's multiple-action penalties (MAN-05..08) from the scheduler;
    ``defense_now``: a defense the target makes at once (MAN-01, a tied ambush)."""
    rs = f.rules
    tkey = action.get("target")
    t = f.state.get(tkey)
    if t is None:
        f.emit("attack_lost", actor=key, target=tkey, reason="gone")
        return
    if t.outcome == DEAD:
        f.emit("attack_lost", actor=key, target=tkey, reason="dead")
        return
    weapon = action.get("weapon")
    if not weapon and not action.get("maneuver") and not action.get("magic"):
        # "attack Goon" with a knife in hand is a knife attack; "as strike" punches.
        weapon = f.in_hand(key)
    a_sheet, t_sheet = f.sheet(key), f.sheet(tkey)
    me = f.state.get(key)
    if me.gear.is_dropped(weapon):
        f.emit("attack_lost", actor=key, target=tkey, reason="dropped", weapon=weapon)
        return
    aim = me.gear.aim
    intent, ctx = _intent(f, key, tkey, action, mods, weapon, me)
    try:  # the attack as things stand now (range, grapple ...): impossible loses the action
        build_attack_pool(rs, a_sheet, t_sheet, intent, ctx, memo=f.memo)
    except IllegalAction as why:
        f.emit("attack_lost", actor=key, target=tkey, reason="impossible", why=str(why))
        return

    def can_soak(kind):  # DMG-16: worn armor soaks lethal too, so it lets a mortal block
        return soak_rules.can_soak_worn(rs, t_sheet, kind, f.armor_rating(tkey), f.memo)

    defense, useless = _defense_made(f, key, tkey, intent, ctx, can_soak, defense_now)
    res = resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, rng=f.rng,
                         can_soak=can_soak, memo=f.memo)
    _rolled(f, key, tkey, res, useless, aim)
    close.after_attack(f, key, tkey, action, res)
    if not res.hit:
        f.emit("miss", actor=key, target=tkey, botch=res.botch)
        effects(f, key, tkey, res, None, action)
        return
    # COMP-03: a fully immobilized (or staked) target is hit with at least one success.
    immobile = res.roll is not None and res.roll.successes < res.successes
    f.emit("hit", actor=key, target=tkey, net=res.net, immobile=immobile)
    dr = deal_hit(f, key, tkey, res)
    if dr is not None and dr.dazed and "dazed" in sch.turn_rules(rs).conditions and \
            f.state.get(tkey).outcome not in OUT_OF_ACTION:  # COMP-02
        f.condition(tkey, "dazed")
        f.emit("dazed", actor=tkey)
    effects(f, key, tkey, res, dr, action)


def _intent(f: Fight, key: str, tkey: str, action: dict, mods, weapon: str | None,
            me) -> tuple[Attack, Context]:
    """The attack layer's ``Attack`` and ``Context`` for ``key``'s declared ``action`` on
    ``tkey`` (``me``: the attacker's combatant), as the fight stands; moving while attacking
    closes the range first (MAN-04)."""
    a_gear = me.gear
    aim_turns = ranged.aim_turns(f, key, tkey, weapon)  # RNG-01
    extra, main = ranged.hands(f, key, action, list(mods))  # RNG-09
    pen = a_gear.penalty
    if pen and pen.turn == f.state.turn:  # CLOSE-12: tackled last turn
        extra.append(Modifier(pen.reason, difficulty=pen.difficulty))
    weapon_state = a_gear.weapon(weapon)
    intent = _attack(f, key, tkey, action, weapon, aim_turns, weapon_state)
    grip = a_gear.grapple
    moving = action.get("moving", 0)
    if moving:  # MAN-04: the yards moved while attacking close on the target
        f.set_yards(key, tkey, max(0, f.yards(key, tkey) - moving))
    turn = f.state.turn
    ctx = close.context(f, key, tkey, weapon, hand=main, moved=moving, extra=tuple(extra),
                        range_yards=f.yards(key, tkey),
                        grapple=grip.kind if grip and grip.other == tkey else "",
                        weapon_state=weapon_state,
                        ignore_wounds=bool(me.conditions) and any(  # HLT-08
                            k.name == "ignoring_wounds" and k.active(turn)
                            for k in me.conditions))
    return intent, ctx


def _attack(f: Fight, key: str, tkey: str, action: dict, weapon: str | None, aim_turns: int,
            weapon_state) -> Attack:
    """The declared ``action`` as the attack layer's ``Attack``; an equal one asked before
    is handed out again (the memo's ``made``), so the plan lookups find it by identity."""
    get = action.get
    maneuver, location, position = get("maneuver") or "attack", get("location"), \
        get("position") or "front"
    off_hand, ability, specialty = bool(get("off_hand")), get("ability"), bool(get("specialty"))
    willpower = bool(get("willpower")) and rolls.has_willpower(f, key)
    magic = close.magic_of(f, key, action)
    drain, sever = bool(get("drain")), bool(get("sever"))  # CLOSE-01
    ammo = get("ammo") or (  # CLOSE-06: the ammunition named, or loaded
        weapon_state.load if weapon_state is not None else "standard")
    # the key: every argument of the Attack built below (one left out hands out a stale one)
    fields = (Attack, key, tkey, maneuver, weapon, location, position, aim_turns, off_hand,
              ability, specialty, willpower, magic, drain, sever, ammo)
    try:
        made = f.memo.made.get(fields)
    except TypeError:  # a field that is no name: made afresh (the attack layer refuses it)
        made, fields = None, None
    if made is not None:
        return made
    intent = Attack(key, tkey, maneuver=maneuver, weapon=weapon, location=location,
                    position=position, aim_turns=aim_turns, off_hand=off_hand,
                    ability=ability, specialty=specialty, willpower=willpower, magic=magic,
                    drain=drain, sever=sever, ammo=ammo)
    return intent if fields is None else f.memo.keep(fields, intent)


def _defense_made(f: Fight, key: str, tkey: str, intent: Attack, ctx: Context, can_soak,
                  defense_now: str | None):
    """(the defense ``tkey`` makes against this attack or None, the event saying why a
    declared one does not count or None): ``defense_now`` at once (MAN-01, a tied ambush),
    else the declared one; none against a won ambush's free attack (MAN-01)."""
    if defense_now:
        defense, useless = _usable(f, key, tkey, Defense(
            tkey, defense_now, weapon=close.parry_item(f, tkey) or f.in_hand(tkey),
            countermagic=close.countermagic(f, tkey)), intent, ctx, can_soak)
    else:
        defense, useless = _defense(f, key, tkey, intent, ctx, can_soak)
    if defense is not None and close.ambush_defenseless(f, key, tkey):
        useless = {"event": "defense_ineffective", "actor": tkey, "kind": defense.kind,
                   "against": key, "reason": "Ambushed: no time to defend."}
        defense = None
    return defense, useless


def _rolled(f: Fight, key: str, tkey: str, res, useless: dict | None, aim) -> None:
    """What the attack and defense rolls spent and showed, told in the order they were
    made: the aim and ammunition (RNG-01), the rolls, the defender's Willpower (DICE-04),
    a parry's counter damage (DMG-17), the attack's costs."""
    if aim or res.weapon_after is not None:
        g = replace(f.gear(key), aim=None)  # RNG-01: the aim is spent on this shot
        if res.weapon_after is not None:
            g = g.with_weapon(res.weapon_after)
        f.set_gear(key, g)
    f.emit("attack", actor=key, target=tkey, maneuver=res.maneuver, weapon=res.weapon,
           location=res.location, auto=res.auto)
    if res.roll is not None:
        f.events.append(roll_event(key, "attack", res.pool, res.roll))
    if useless is not None:  # told where the defense would have been rolled
        f.events.append(useless)
    if res.weapon_after is not None and res.weapon_after.ammo is not None:
        f.emit("ammo", actor=key, weapon=res.weapon_after.weapon, left=res.weapon_after.ammo)
    if res.defense is not None:
        d = res.defense
        f.events.append(roll_event(tkey, "defense", d.pool, d.roll, label=d.defense.kind))
        if d.defense.willpower:  # DICE-04: the declared point, taken with its roll
            f.put_sheet(tkey, pay_costs(f.sheet(tkey), {"Willpower": 1}, "defend"))
        if d.counter is not None:  # DMG-17: the parry hurts the attacker
            f.emit("counter", actor=tkey, target=key)
            deal(f, tkey, key, d.counter, d.counter_type, "melee", "parry damage")
    if res.costs:
        f.put_sheet(key, pay_costs(f.sheet(key), dict(res.costs), "attack"))


def strafe(f: Fight, key: str, action: dict, mods) -> None:
    """RNG-07: one roll, the successes split evenly among the targets (leftovers in the
    order named); each target's own defense cancels only its share. The range bands are
    read for the farthest target."""
    rs = f.rules
    keys = [k for k in action["targets"] if f.state.get(k) is not None
            and f.state.get(k).outcome != DEAD]
    weapon = action.get("weapon") or f.in_hand(key)
    if not keys:
        f.emit("attack_lost", actor=key, target=action["target"], reason="gone")
        return
    if f.gear(key).is_dropped(weapon):
        f.emit("attack_lost", actor=key, target=keys[0], reason="dropped", weapon=weapon)
        return
    a_sheet = f.sheet(key)
    extra = tuple(mods)
    intent = Attack(key, keys[0], maneuver=action["maneuver"], weapon=weapon,
                    ammo=ranged.loaded(f, key, weapon),
                    specialty=bool(action.get("specialty")),
                    willpower=bool(action.get("willpower")))
    ctx = Context(attacker=f.side(key, weapon), target=f.side(keys[0]),
                  range_yards=max(f.yards(key, k) for k in keys),
                  spread_yards=ranged.spread_yards(f, keys),
                  weapon_state=f.weapon_state(key, weapon), extra=extra)
    sheets = {k: f.sheet(k) for k in keys}
    sides = {k: f.side(k) for k in keys}
    soaks = {k: (lambda kind, s=sheets[k], a=f.armor_rating(k): soak_rules.can_soak(
        rs, s, kind, armor_rating=a, memo=f.memo)) for k in keys}  # DMG-16: armor counts
    defenses = {}
    for k in keys:
        d, useless = _defense(f, key, k, replace(intent, target=k),
                              replace(ctx, target=sides[k]), soaks[k])
        if useless is not None:  # DEF-02: no use against a burst of gunfire, and said so
            f.events.append(useless)
        if d is not None:
            defenses[k] = (d, None)
    try:
        res = resolve_strafe(rs, a_sheet, sheets, intent, ctx, defenses=defenses, sides=sides,
                             leftover_to=tuple(keys), rng=f.rng, can_soak=soaks,
                             memo=f.memo)
    except IllegalAction as why:
        f.emit("attack_lost", actor=key, target=keys[0], reason="impossible", why=str(why))
        return
    first = res.results[0]
    if first.weapon_after is not None:
        f.set_gear(key, replace(f.gear(key), aim=None).with_weapon(first.weapon_after))
    f.emit("strafe", actor=key, targets=list(keys), weapon=weapon)
    f.events.append(roll_event(key, "attack", res.pool, res.roll))
    if first.weapon_after is not None and first.weapon_after.ammo is not None:
        f.emit("ammo", actor=key, weapon=weapon, left=first.weapon_after.ammo)
    for r in res.results:
        tkey = r.target
        f.emit("share", actor=key, target=tkey, successes=r.successes)
        if r.defense is not None:
            d = r.defense
            f.events.append(roll_event(tkey, "defense", d.pool, d.roll, label=d.defense.kind))
        if not r.hit:
            f.emit("miss", actor=key, target=tkey, botch=r.botch)
            continue
        f.emit("hit", actor=key, target=tkey, net=r.net, immobile=False)
        effects(f, key, tkey, r, deal_hit(f, key, tkey, r))


def _defense(f: Fight, key: str, tkey: str, intent: Attack, ctx: Context, can_soak):
    """(the target's declared defense against this attack or None, the event saying why a
    declared one cannot work or None); spends it (DEF-01..04, TURN-09 anticipated first,
    TURN-08 an abort to a defense)."""
    t = f.state.get(tkey)
    defense = None
    try:
        kind = t.actions[0]["kind"] if t.desperate and t.actions else None
        step = sch.defend(f.state, tkey, f.rules, against=key, kind=kind)
        f.run(step)
        dev = step.events[0]  # the ``defend`` event (any prompts come after it)
        a = dev["action"]
        defense = Defense(tkey, a["kind"], weapon=_defended_with(f, tkey, a["kind"]),
                          prone=a.get("how") == "prone", to_cover=a.get("how") == "cover",
                          countermagic=close.countermagic(f, tkey),
                          specialty=bool(a.get("specialty")),  # DICE-03/04
                          willpower=bool(a.get("willpower")) and rolls.has_willpower(f, tkey),
                          extra=_modifiers(dev.get("modifiers"))
                          + close.defense_extra(f, tkey))
    except IllegalAction:
        to = t.aborted_to
        if to and to.get("kind") in DEFENSES and not to.get("resolved"):  # TURN-08
            defense = Defense(tkey, to["kind"], weapon=_defended_with(f, tkey, to["kind"]),
                              extra=close.defense_extra(f, tkey))
            f.put(tkey, aborted_to={**to, "resolved": True})
        else:
            why = _why_undefended(f, key, t)
            if why:
                return None, {"event": "defense_waits", "actor": tkey, "against": key,
                              "reason": why}
    if defense is None:
        return None, None
    return _usable(f, key, tkey, defense, intent, ctx, can_soak)


def _modifiers(dicts) -> tuple[Modifier, ...]:
    """The scheduler's modifiers of a defense (MAN-05..08, DEF-04), as values."""
    return tuple([Modifier(**m) for m in dicts]) if dicts else ()


def _why_undefended(f: Fight, key: str, t) -> str | None:
    """Why a target who declared a defense still unspent does not defend against ``key``'s
    attack, when that is the declaration's timing, not a lack of one: the room is told
    instead of reading no defense roll and guessing."""
    if t.lost:
        return None
    why, i = sch.defense_not_due(f.state, t, key)
    if why == "later":  # TURN-07: the k-th action of a split comes in the extra phase
        return (f"{t.name}'s {t.actions[i]['kind']} is action #{i + 1}: it comes in the extra "
                f"phase, after this attack (TURN-07).")
    if why == "reserved":  # TURN-09: a defense declared against another's anticipated attack
        return (f"{t.name}'s {t.actions[i]['kind']} answers {f.name(t.actions[i]['against'])}'s "
                f"attack, not this one (TURN-09).")
    return None


def _defended_with(f: Fight, tkey: str, kind: str) -> str | None:
    """DEF-03: a parry uses the weapon or shield that can parry, not just the first carried;
    a block counts either as "a weapon" (everyman #13). A dodge uses neither, so nothing is
    looked for (the commonest defense; the search tries every item carried)."""
    if kind == "dodge":
        return None
    return close.parry_item(f, tkey) or f.in_hand(tkey)


def _usable(f: Fight, key: str, tkey: str, defense: Defense, intent: Attack, ctx: Context,
            can_soak):
    """(the defense, None), or (None, the event saying why) when it cannot work against
    this attack."""
    try:
        build_defense_pool(f.rules, f.sheet(tkey), f.sheet(key), defense, intent, ctx,
                           can_soak=can_soak, memo=f.memo)
    except IllegalAction as why:
        return None, {"event": "defense_ineffective", "actor": tkey, "kind": defense.kind,
                      "against": key, "reason": str(why)}
    return defense, None


def deal_hit(f: Fight, key: str, tkey: str, res):
    """The damage of a hit (``res``: an AttackResult), or None when it deals none."""
    if not res.deals_damage:
        return None
    return deal(f, key, tkey, res.damage, res.damage_type, res.damage_source, "damage",
                materials=res.materials, armor_rating=res.armor_rating,
                armor_applies=res.armor_stops_source, unarmored_part=res.unarmored_part,
                head_shot=res.head_shot)


def deal(f: Fight, attacker_key: str, key: str, dice_pool, kind: str, source: str,
         label: str, *, materials: tuple[str, ...] = (), armor_rating: int = 0,
         armor_applies: bool = True, unarmored_part: bool = False, head_shot: bool = False):
    """Roll ``dice_pool`` damage against ``key`` through damage.py and mark it."""
    t_sheet = f.sheet(key)
    request = dmg.DamageRequest(
        dice=dice_pool.dice, damage_type=kind, source=source, materials=tuple(materials),
        faces_damage=None, faces_soak=None, damage_difficulty=None,
        armor_rating=int(armor_rating) if harm.armor_worn(f, key) else 0,  # DMG-12: damaged
        armor_applies=bool(armor_applies), unarmored_part=bool(unarmored_part),
        head_shot=bool(head_shot), unsoakable=False, chimerical=False,
        flags=harm.target_flags(f, key, attacker_key), soak_modifiers=(),  # DMG-07, DMG-08
        condition=f.outcome_of(key, t_sheet), stay_active_with_rage=mending.staying(f, key))
    dr = dmg.resolve_request(f.rules, t_sheet, request, f.rng, f.memo)
    f.events.append(roll_event(attacker_key, "damage", dice_pool, dr.damage_roll,
                               label=f"{label} ({dr.damage_type})"))
    if dr.soak_roll is not None:
        f.events.append(roll_event(key, "soak", dr.soak.spec, dr.soak_roll))
    before, after = dr.health_before, dr.health_after
    f.emit("damage", actor=attacker_key, target=key, source=source, type=dr.damage_type,
           rolled=dr.levels_rolled, soaked=dr.soaked, applied=dr.applied,
           health_before=before.level, health_after=after.level, outcome=dr.outcome,
           dazed=dr.dazed, detail=Later(dr.as_dict))  # made when read or logged
    f.put_sheet(key, dr.sheet)
    f.set_outcome(key, dr.outcome)
    harm.after(f, key, dr)
    return dr


def apply_levels(f: Fight, key: str, levels: int, kind: str, source: str, *,
                 soakable: bool, why: str) -> None:
    """Fixed levels of damage (a knockdown botch, Rokea jagged skin): no damage roll, soaked
    with a reflex roll when soakable, then marked through damage.py like any hit, so a
    vampire's bashing is halved after the soak (DMG-15) and the outcomes past Incapacitated
    apply (HLT-03..05; issue 9, defect 17)."""
    rs = f.rules
    sheet = f.sheet(key)
    condition = f.outcome_of(key, sheet)
    if condition == DEAD:
        return
    dr = dmg.resolve_damage(rs, sheet, dice=levels, damage_type=kind, source=source,
                            faces_damage=(rs.dice.sides,) * levels,
                            damage_difficulty=rs.dice.base_difficulty,
                            unsoakable=not soakable, rng=f.rng, condition=condition,
                            stay_active_with_rage=mending.staying(f, key))
    if dr.soak_roll is not None:
        f.events.append(roll_event(key, "soak", dr.soak.spec, dr.soak_roll))
    f.put_sheet(key, dr.sheet)
    f.emit("damage", target=key, source=source, type=dr.damage_type, rolled=levels,
           soaked=dr.soaked, applied=dr.applied, health_before=dr.health_before.level,
           health_after=dr.health_after.level, outcome=dr.outcome, why=why,
           notes=list(dr.notes))
    f.set_outcome(key, dr.outcome)


def effects(f: Fight, key: str, tkey: str, res, dr, action: dict | None = None) -> None:
    """What the hit (or botch) does beyond damage."""
    turn = f.state.turn
    for e in res.effects:
        who = tkey if e.who == "target" else key
        if f.state.get(who) is None:
            continue
        if e.kind == "knockdown_check":
            if f.state.get(who).outcome not in OUT_OF_ACTION:
                knockdown(f, who, e.difficulty, e.absolute)
        elif e.kind == "grapple":
            f.grapple(key, tkey, e.detail or "clinch")
        elif e.kind == "next_turn_difficulty":  # CLOSE-12: off balance next turn
            f.set_gear(who, replace(f.gear(who), penalty=Penalty(turn + 1, e.value,
                                                                 "tackled last turn")))
            f.emit("off_balance", actor=who, difficulty=e.value)
        elif e.kind in ("disarm_if_damage_over", "disarmed"):
            disarm(f, key, tkey, res, e)
        elif e.kind == "staked_if_damage" and dr is not None:  # MAN-11
            if stake_holds(res, dr.applied):
                f.condition(tkey, "staked")
                f.emit("staked", actor=tkey, detail=e.detail)
        elif e.kind == "attacker_damage":  # PWR-06 Rokea jagged skin
            apply_levels(f, key, e.value, e.detail or "lethal", "other", soakable=True,
                         why=f"{f.name(tkey)}'s jagged skin")
        elif e.kind == "knocked_down_or_damage":  # CLOSE-12 botched tackle
            tackle_botch(f, who, tkey, action or {}, e.value)
        elif e.kind == "drain_blood":  # CLOSE-01: a vampire's bite drains instead
            close.drain(f, key, tkey, e.value)
        elif e.kind == "weapon_thrown":
            f.set_gear(key, f.gear(key).drop(e.detail))
        elif e.kind == "string_snapped":
            f.emit("string_snapped", actor=key)
        else:
            f.emit("effect_note", actor=who, what=e.kind, detail=e.detail)


def knockdown(f: Fight, key: str, difficulty: int, absolute: int | None) -> None:
    """COMP-04: Dexterity + Athletics reflex. Up at once with -2 initiative next turn;
    failure: on the ground (rise takes an action); botch: also 1 unsoakable bashing."""
    kd = knockdown_check(f.rules, f.sheet(key), difficulty=difficulty, absolute=absolute,
                         rng=f.rng)
    f.events.append(roll_event(key, "knockdown", kd.reflex.pool, kd.roll))
    if kd.standing and close.knockdown_stands(f):  # CLOSE-11/12: keeps their feet
        f.emit("knockdown", actor=key, standing=True, kept_feet=True)
        return
    if kd.standing:
        f.condition(key, "knocked_down")
        f.emit("knockdown", actor=key, standing=True, initiative=kd.initiative_next_turn)
        return
    f.condition(key, "prone")
    f.emit("knockdown", actor=key, standing=False)
    if kd.damage:
        apply_levels(f, key, kd.damage, kd.damage_type, "fall", soakable=kd.soakable,
                     why="botched knockdown roll")


def tackle_botch(f: Fight, who: str, tkey: str, action: dict, stamina: int) -> None:
    """CLOSE-12: "On botch, attacker is knocked down or takes damage = target's Stamina";
    the attacker chose when declaring (``on botch hurt``; knocked down otherwise)."""
    if action.get("on_botch") == "hurt":
        f.emit("tackle_botched", actor=who, choice="hurt", dice=stamina)
        pool = PoolSpec((("target's Stamina", stamina),), (), f.rules.dice.base_difficulty)
        deal(f, who, who, pool, "bashing", "tackle", "botched tackle")
        return
    f.condition(who, "prone")
    f.emit("tackle_botched", actor=who, choice="down")


def disarm(f: Fight, key: str, tkey: str, res, e) -> None:
    """CLOSE-04: roll the damage pool only to compare it with the target's Strength."""
    weapon = e.detail or f.in_hand(tkey)
    if e.kind == "disarmed":
        ok = True
    else:
        if res.damage is None:
            return
        roll = dice.roll(res.damage.dice, res.damage.difficulty, f.rng, f.rules.dice,
                         can_botch=False)
        f.events.append(roll_event(key, "disarm", res.damage, roll,
                                   label=f"disarm (over Strength {e.value})"))
        ok = disarm_succeeds(res, roll.successes)
    ok = bool(ok and weapon)
    if ok:
        f.set_gear(tkey, f.gear(tkey).drop(weapon))
    f.emit("disarm", actor=key, target=tkey, weapon=weapon, ok=ok)
