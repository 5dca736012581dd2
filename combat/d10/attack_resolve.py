"""Rolling an attack and its defense and reading the outcome: ``build_attack_pool`` answers
"what would I roll"; ``resolve_attack`` rolls (exact faces or an injected ``random.Random``)
and returns a frozen ``AttackResult`` holding every input; ``resolve_strafe`` spreads a
burst over several targets (RNG-07). DMG-02 extra successes, DMG-17 a parry's counter,
ATK-07 a botch snapping a bowstring, CLOSE-01 severing, CLOSE-04 disarms, MAN-11 stakes.
Not here: multiple-action and desperate-defense penalties (the scheduler hands them in as
``Context.extra`` / ``Defense.extra``), the damage roll, soak and health (damage.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping

from ..core.dice import Roll
from ..core.errors import IllegalAction
from ..core.maneuvers import Damage, Weapon, jagged_skin, strafe_shares, tables
from ..core.memo import Memo
from ..core.pools import Modifier, PoolSpec
from ..core.values import replace
from .attack_defense import _parry_item
from .attack_memo import _defense, _plan
from .attack_mods import _rating, _roll
from .attack_plan import _damage_pool, _Plan
from .attack_values import Attack, AttackResult, Context, Defense, DefenseResult, Effect, Side


def build_attack_pool(ruleset, attacker, target, intent: Attack,
                      context: Context | None = None, *, memo: Memo | None = None) -> PoolSpec:
    """The attack's pool with every modifier and its reason; ``IllegalAction`` if the attack
    cannot be made. An attack that needs no roll (DICE-08) has an empty pool."""
    plan = _plan(ruleset, attacker, target, intent, context or Context(), memo)
    return plan.pool if plan.pool is not None else PoolSpec((), (), ruleset.dice.base_difficulty)


def build_defense_pool(ruleset, defender, attacker, defense: Defense, attack: Attack,
                       context: Context | None = None, *,
                       can_soak: Callable[[str], bool] | None = None,
                       memo: Memo | None = None) -> PoolSpec:
    """The defense's pool against ``attack`` (``context`` is the attack's, so
    ``context.target`` describes the defender)."""
    ctx = context or Context()
    plan = _plan(ruleset, attacker, defender, attack, ctx, memo)
    return _defense(ruleset, defender, attacker, defense, plan, ctx, can_soak, attack, memo)[0]


def _resolve_defense(ruleset, defender, attacker, defense, plan, ctx, faces, rng, can_soak,
                     attack_successes: int, intent: Attack, memo: Memo | None) -> DefenseResult:
    pool, spec, can_botch = _defense(ruleset, defender, attacker, defense, plan, ctx, can_soak,
                                     intent, memo)
    rules = ruleset.dice
    roll = _roll(faces, rng, pool.dice, pool.difficulty, rules, specialty=spec,
                 willpower=defense.willpower, can_botch=can_botch)
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
    roll = _roll(faces, rng, plan.pool.dice, plan.pool.difficulty, rules,
                 specialty=plan.specialty, willpower=intent.willpower, can_botch=plan.can_botch)
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
        damage = _on_hit(ruleset, plan, target, intent, ctx, net, effects)
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


def _on_hit(ruleset, plan: _Plan, target, intent: Attack, ctx: Context, net: int,
            effects: list[Effect]) -> PoolSpec | None:
    """What a hit by ``net`` successes does: the plan's effects, CLOSE-04 a disarm by
    successes, DMG-02 the extra damage dice, CLOSE-01 a Redcap's severing, PWR-06 jagged
    skin (added to ``effects``); returns the damage pool."""
    effects += [e for e in plan.effects if e.kind != "weapon_thrown"]
    if plan.disarm == "attack_successes":  # CLOSE-04 everyman variant
        if net > _rating(ruleset, target, "Strength"):
            effects.append(Effect("disarmed", "target", detail=ctx.target.weapon or ""))
    damage = None
    if plan.damage is not None:
        damage = plan.damage
        if net > 1:  # DMG-02: each success beyond the first adds a die
            per = ruleset.section("damage")["dice_per_extra_success"]
            damage = damage.plus(Modifier("extra successes", dice=(net - 1) * per))
    if plan.sever:  # CLOSE-01 Redcap severing
        sv = tables(ruleset).man["bite"]["sever"]  # a plan severs only where the ruleset has it
        need = sv["successes_if_grappled"] if ctx.grapple else sv["successes"]
        if net >= need:
            effects.append(Effect("severed", "target", detail=intent.location or "limb"))
            if damage is not None:
                damage = damage.plus(Modifier("limb severed", dice=sv["damage"]))
    skin = jagged_skin(ruleset, target) if plan.barehanded else None
    if skin:  # PWR-06 Rokea jagged skin
        effects.append(Effect("attacker_damage", "attacker", value=skin[0], detail=skin[1]))
    return damage


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
