"""Checks of rules that several d10 rulesets share with numetal, run under each ruleset.

``CHECKS[rule_id](rs)`` asserts the numbers the seeds agree on (numetal's), with exact dice
faces, under the ruleset ``rs``. The per-ruleset test files (test_ruleset_revised.py,
_everyman.py, _v20.py) run the IDs where their seed says the same as numetal, each as a test
marked with its ID; where a seed differs they have their own test that compares with numetal.
A child ruleset that broke an inherited value fails here.
"""

from __future__ import annotations

import pytest

from wodcombat.combat.d10 import damage as D

from wodcombat.combat.d10 import dazed as DZ

from wodcombat.combat.d10 import soak as SK

from wodcombat.combat.d10 import wound_penalty as WP
from wodcombat.combat.core import dice as dicemod
from wodcombat.combat.d10 import healing as H
from wodcombat.combat.d10 import heal_time as HTM
from wodcombat.combat.d10 import healing_tables as HT
from wodcombat.combat.core import maneuvers as M
from wodcombat.combat.d10 import powers as P
from wodcombat.combat.d10 import wound_movement as WM
from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.attack_resolve import (
    build_attack_pool,
    build_defense_pool,
    disarm_succeeds,
    resolve_attack,
    resolve_strafe,
    stake_holds,
)
from wodcombat.combat.d10.attack_values import Attack, Context, Defense, Magic, Side, WeaponState
from wodcombat.combat.d10.reflex_rolls import (
    blind_fighting,
    knockdown_check,
    resolve_ambush,
    resolve_escape,
)
from wodcombat.combat.d10.weapon_ready import (
    crossbow_reload_actions,
    ready_weapon,
    two_weapons_no_multi_penalty,
)
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.core.pools import Modifier, PoolSpec
from wodcombat.combat.core.sheet import Pool, Sheet

# ---------------------------------------------------------------- sheets and helpers


def mk(splat="mortal", *, race="", form="", weapons=(), armor="", specialties=None,
       pools=None, health=None, **traits) -> Sheet:
    """A sheet; trait keywords use _ for spaces (Blind_Fighting=2)."""
    pools = {k: Pool(v, max(v, 10)) for k, v in (pools or {}).items()}
    return Sheet(splat=splat, race=race, form=form, weapons=tuple(weapons), armor=armor,
                 specialties=dict(specialties or {}), pools=pools, health=dict(health or {}),
                 traits={k.replace("_", " "): v for k, v in traits.items()})


def F(successes: int, size: int, hit: int = 9, miss: int = 2) -> tuple[int, ...]:
    return (hit,) * successes + (miss,) * (size - successes)


A_TRAITS = dict(Dexterity=3, Strength=3, Stamina=2, Perception=2, Wits=2, Brawl=2, Melee=2,
                Firearms=3, Athletics=2)
B_TRAITS = dict(Dexterity=2, Strength=2, Stamina=2, Brawl=1, Dodge=2, Melee=1)
GUNS = ("Pistol, heavy", "Shotgun", "SMG, small", "Assault rifle", "Revolver, heavy", "Rifle",
        "Hunting rifle, scoped", "Sword", "Knife", "Throwing knife", "Stake", "Axe", "Spear",
        "Short bow", "Crossbow", "Pistol, light")


def A(**kw):
    return mk(**{**A_TRAITS, "weapons": GUNS, **kw})


def B(**kw):
    return mk(**{**B_TRAITS, **kw})


def atk(maneuver="attack", **kw) -> Attack:
    return Attack("a", "b", maneuver, **kw)


def has_mod(pool: PoolSpec, reason: str) -> bool:
    return any(m.reason.startswith(reason) for m in pool.modifiers)


def mod(pool: PoolSpec, reason: str) -> Modifier:
    found = [m for m in pool.modifiers if m.reason.startswith(reason)]
    assert found, f"no modifier '{reason}' in {pool.modifiers}"
    return found[0]


def full(rs, splat="mortal", **kw) -> Sheet:
    """A sheet with its splat's pools (damage and healing need them); a pool given as
    (current, permanent) keeps both, a number n is (n, at least 10)."""
    ident = ("pools", "health", "race", "form", "breed")
    traits = {k: v for k, v in kw.items() if k not in ident}
    s = Sheet(splat=splat, race=kw.get("race", ""), form=kw.get("form", ""),
              breed=kw.get("breed", ""), traits=traits,
              health=dict(kw.get("health") or {})).with_pools_for(rs.traits)
    if kw.get("pools"):
        merged = dict(s.pools)
        merged.update({k: Pool(*v) if isinstance(v, tuple) else Pool(v, max(v, 10))
                       for k, v in kw["pools"].items()})
        s = Sheet(**{**{f: getattr(s, f) for f in s.__dataclass_fields__}, "pools": merged})
    return s


def hit(rs, target, dice, dtype, source="melee", faces=None, soak=None, **kw):
    faces = faces if faces is not None else [10] * dice
    return D.resolve_damage(rs, target, dice=dice, damage_type=dtype, source=source,
                            faces_damage=faces, faces_soak=soak, **kw)


# scheduler helpers
STRIKE = {"kind": "strike", "target": "b"}
DODGE = {"kind": "dodge"}


def events(step, kind):
    return [e for e in step.events if e["event"] == kind]


def started(rs, spec):
    """A combat past turn 1's initiative: spec is [(key, rating, face), ...]."""
    st = S.new_combat("c1", rs)
    for key, rating, face in spec:
        st = S.join(st, key, key.title(), rs).state
        st = S.roll_initiative(st, key, rs, rating=rating, faces=[face]).state
    return S.advance(st, rs).state


def declare_all(st, rs, plan):
    while st.phase == "declare":
        key = S.pending(st)[0]
        st = S.declare(st, key, plan.get(key, []), rs).state
    return st


# ================================================================ DICE


def c_DICE_01(rs):
    assert rs.dice.base_difficulty == 6
    assert build_attack_pool(rs, A(), B(), atk()).difficulty == 6


def c_DICE_02(rs):
    r = dicemod.count([6, 7, 5, 1], 6, rs.dice)
    assert (r.hits, r.ones, r.successes, r.botch) == (2, 1, 1, False)
    assert dicemod.count([1, 5, 3], 6, rs.dice).botch
    assert not dicemod.count([8, 1, 1], 6, rs.dice).botch


def c_DICE_03(rs):
    assert dicemod.count([10, 7], 6, rs.dice, specialty=True).successes == 3
    sp = A(specialties={"Brawl": "kicks"})
    r = resolve_attack(rs, sp, B(), atk("kick", specialty=True), faces=(10, 2, 2, 2, 2))
    assert r.successes == 2


def c_DICE_04(rs):
    r = dicemod.count([1, 1, 3], 6, rs.dice, willpower=True)
    assert r.successes == 1 and not r.botch
    r = resolve_attack(rs, A(), B(), atk(willpower=True), faces=(2, 2, 2, 2, 2))
    assert r.successes == 1 and ("Willpower", 1) in r.costs


def c_DICE_05(rs):
    assert (rs.dice.min_difficulty, rs.dice.max_difficulty) == (2, 10)
    assert dicemod.count([9], 12, rs.dice).difficulty == 10
    assert dicemod.count([2], 1, rs.dice).difficulty == 2


def c_DICE_07(rs):
    p = build_attack_pool(rs, A(Brawl=0), B(), atk())
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 6


def c_DICE_09(rs):
    hurt = A(health={"lethal": 4})  # Wounded, -2
    assert build_attack_pool(rs, hurt, B(), atk()).dice == 3
    kd = knockdown_check(rs, hurt, faces=(2, 2, 2, 2, 2))
    assert kd.reflex.pool.dice == 5 and kd.reflex.counts_as_action is False


def c_DICE_10(rs):
    crippled = full(rs, Stamina=3, health={"bashing": 6})
    penalties = (Modifier("multiple actions", dice=-3), Modifier("Fortitude power", dice=1))
    pool = SK.soak_pool(rs, crippled, "bashing", modifiers=penalties)
    assert pool.dice == 4 and pool.dropped == (penalties[0],)


# ================================================================ INIT, TURN


def c_INIT_01(rs):
    assert S.initiative_rating(Sheet(traits={"Dexterity": 3, "Wits": 4}), rs) == 7
    st = S.join(S.new_combat("c1", rs), "a", "Alice", rs).state
    (ev,) = events(S.roll_initiative(st, "a", rs, rating=7, faces=[4]), "initiative")
    assert ev["total"] == 11 and ev["faces"] == [4]


def c_INIT_06(rs):
    st = started(rs, [("b", 5, 7), ("a", 7, 5), ("c", 7, 5), ("d", 3, 2)])
    assert [(s.initiative, s.rating, s.keys) for s in st.order] == [
        (5, 3, ("d",)), (12, 5, ("b",)), (12, 7, ("a", "c"))]


def c_TURN_01(rs):
    st = started(rs, [("a", 8, 7), ("b", 6, 4), ("c", 3, 2)])
    assert S.pending(st) == ["c"]
    with pytest.raises(IllegalAction, match="TURN-01"):
        S.declare(st, "a", [STRIKE], rs)
    st = S.declare(st, "c", [STRIKE], rs).state
    assert S.pending(st) == ["b"]


def c_TURN_02(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [{"kind": "strike", "target": "b", "willpower": True}],
                              "b": [{"kind": "strike", "target": "a"}]})
    st = S.act(st, "a", rs, willpower=True).state
    with pytest.raises(IllegalAction, match="TURN-02"):
        S.act(st, "b", rs, willpower=True)


def c_TURN_03(rs):
    st = started(rs, [("a", 8, 7), ("b", 6, 4), ("c", 3, 2)])
    st = declare_all(st, rs, {k: [STRIKE] for k in "abc"})
    assert S.pending(st) == ["a"]
    with pytest.raises(IllegalAction, match="TURN-03"):
        S.act(st, "c", rs)


def c_TURN_04(rs):
    st = started(rs, [("a", 8, 7), ("b", 6, 4), ("c", 3, 2)])
    st = declare_all(st, rs, {k: [STRIKE] for k in "abc"})
    st = S.act(S.delay(st, "a", rs).state, "b", rs).state
    step = S.act(st, "a", rs)
    assert events(step, "act")[0]["interrupt"] is True and S.pending(step.state) == ["c"]


def c_TURN_06(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [STRIKE, {"kind": "kick", "target": "b"}],
                              "b": [{"kind": "strike", "target": "a"}]})
    st = S.act(st, "a", rs).state
    assert S.pending(st) == ["b"]  # a's second action waits for the extra phase
    st = S.act(st, "b", rs).state
    assert st.phase == "extra" and S.pending(st) == ["a"]


def c_TURN_07(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"b": [STRIKE, DODGE], "a": [STRIKE]})
    with pytest.raises(IllegalAction, match="extra phase"):
        S.defend(st, "b", rs, against="a")


def c_TURN_09(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [{"kind": "block", "against": "a"}], rs).state
    st = S.declare(st, "a", [STRIKE], rs).state
    step = S.defend(st, "b", rs, against="a")
    assert events(step, "defend")[0]["anticipated"] is True


# ================================================================ ATK


def c_ATK_01(rs):
    p = build_attack_pool(rs, A(), B(), atk())
    assert p.terms == (("Dexterity", 3), ("Brawl", 2)) and p.difficulty == 6
    p = build_attack_pool(rs, A(), B(), atk(weapon="Sword"))
    assert p.terms == (("Dexterity", 3), ("Melee", 2)) and p.difficulty == 6


def c_ATK_02(rs):
    assert build_attack_pool(rs, A(Brawl=0), B(), atk()).difficulty == 6
    p = build_attack_pool(rs, A(Melee=0), B(), atk(weapon="Sword"))
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 7


def c_ATK_03(rs):
    p = build_attack_pool(rs, A(armor="Flak jacket"), B(), atk())
    assert p.difficulty == 8 and mod(p, "armor").difficulty == 2


def c_ATK_04(rs):
    p = build_attack_pool(rs, A(), B(), atk("weapon_strike", weapon="Throwing knife"))
    assert p.difficulty == 7
    p = build_attack_pool(rs, A(), B(), atk("throw", weapon="Knife"), Context(range_yards=5))
    assert p.difficulty == 7


def c_ATK_05(rs):
    p = build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"), Context(range_yards=10))
    assert p.terms == (("Dexterity", 3), ("Firearms", 3)) and p.difficulty == 6


def c_ATK_06(rs):
    ctx = Context(range_yards=5)
    p = build_attack_pool(rs, A(Athletics=2, Throwing=2), B(),
                          atk("throw", weapon="Throwing knife"), ctx)
    assert ("Throwing", 2) in p.terms and p.difficulty == 5
    r = resolve_attack(rs, A(Strength=2), B(), atk("throw", weapon="Knife"),
                       Context(range_yards=11), faces=())
    assert not r.hit and "automatic miss" in r.auto  # 5 x Strength 2 = 10 yards


def c_ATK_09(rs):
    p = build_attack_pool(rs, A(Firearms=0), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=40))
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 9


# ================================================================ DMG


def c_DMG_01(rs):
    res = hit(rs, full(rs, Stamina=2), 3, "lethal", faces=[1, 1, 3])
    assert res.damage_roll.botch is False and res.applied == 0


def c_DMG_02(rs):
    assert D.damage_pool(3, 4, rs) == 6
    r = resolve_attack(rs, A(), B(), atk(), faces=F(3, 5))
    assert r.damage_dice == 3 + 2


def c_DMG_03(rs):
    r = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "block"),
                       faces=F(3, 5), defense_faces=F(1, 3))
    assert r.net == 2 and r.hit
    r = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "block"),
                       faces=F(2, 5), defense_faces=F(2, 3))
    assert not r.hit


def c_DMG_04(rs):
    wounded = full(rs, Stamina=3, health={"bashing": 5})
    res = hit(rs, wounded, 1, "bashing", faces=[8], soak=[1, 1, 1])
    assert res.soak.dice == 3 and res.soak_roll.botch is False and res.applied == 1


def c_DMG_11(rs):
    mortal = full(rs, Stamina=3)
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2).dice == 5
    assert SK.soak_pool(rs, mortal, "lethal", armor_rating=2).dice == 2
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2, unarmored_part=True).dice == 3
    assert SK.soak_pool(rs, mortal, "bashing", armor_rating=2, armor_applies=False).dice == 3


def c_DMG_16(rs):
    knife = atk(weapon="Knife")
    with pytest.raises(IllegalAction, match="cannot soak"):
        build_defense_pool(rs, B(armor="Kevlar vest"), A(), Defense("b", "block"), knife,
                           can_soak=lambda t: t == "bashing")
    assert build_defense_pool(rs, B(), A(), Defense("b", "block"), knife,
                              can_soak=lambda t: True).dice == 3


def c_DMG_17(rs):
    parrier = B(weapons=("Sword",), Melee=3)
    r = resolve_attack(rs, A(), parrier, atk(), defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter.dice == 6 and r.defense.counter_type == "lethal"
    r = resolve_attack(rs, A(), parrier, atk(weapon="Knife"),
                       defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter is None


def c_DMG_18(rs):
    assert hit(rs, full(rs), 1, "agg", soak=None).damage_type == "aggravated"
    with pytest.raises(Exception):
        hit(rs, full(rs), 1, "psychic")


# ================================================================ HLT


def c_HLT_01(rs):
    levels = rs.section("health")["levels"]
    assert [(lv["name"], lv["penalty"]) for lv in levels] == [
        ("Bruised", 0), ("Hurt", -1), ("Injured", -1), ("Wounded", -2), ("Mauled", -2),
        ("Crippled", -5), ("Incapacitated", None)]
    assert WP.wound_modifier(full(rs, health={"lethal": 6}), rs, "action").dice == -5


def c_HLT_02(rs):
    res = hit(rs, full(rs), 7, "lethal")
    assert res.health_after.level == "Incapacitated" and res.condition == "incapacitated"


def c_HLT_03(rs):
    res = hit(rs, full(rs, health={"bashing": 7}), 1, "bashing", soak=[2],
              condition="incapacitated")
    assert res.health_after.lethal == 1 and res.outcome == "dead"


def c_HLT_05(rs):
    vamp = full(rs, "vampire", Stamina=1, health={"lethal": 7})
    assert hit(rs, vamp, 1, "lethal", source="fire", condition="torpor").outcome == "dead"


def c_HLT_06(rs):
    wounded = full(rs, health={"lethal": 4})
    assert WP.wound_modifier(wounded, rs, "action").dice == -2
    for kind in ("reflex", "soak", "damage", "arete"):
        assert WP.wound_modifier(wounded, rs, kind) is None
    with pytest.raises(IllegalAction, match="Incapacitated"):
        WP.wound_modifier(full(rs, "mage", health={"lethal": 7}), rs, "arete")


def c_HLT_07(rs):
    hurt = full(rs, Dexterity=3, health={"lethal": 4})  # Wounded: walk
    m = WM.movement_limit(hurt, rs, 7, "walk")
    assert m.yards == 7 and m.wound_move == "walk"
    with pytest.raises(IllegalAction):
        WM.movement_limit(hurt, rs, 15, "jog")


def c_HLT_08(rs):
    wounded = full(rs, health={"lethal": 6})
    assert WP.wound_modifier(wounded, rs, "action", ignore_wounds=True) is None
    paid = WP.spend_to_ignore_wounds(wounded, rs)
    assert paid.pools["Willpower"].current == wounded.pools["Willpower"].current - 1
    with pytest.raises(IllegalAction, match="Incapacitated"):
        WP.spend_to_ignore_wounds(full(rs, health={"lethal": 7}), rs)


def c_HLT_09(rs):
    lv = rs.section("health")["levels"]
    assert [(x["heal_bashing"], x["heal_lethal"]) for x in lv] == [
        ("1 hour", "1 day"), ("1 hour", "3 days"), ("1 hour", "1 week"), ("1 hour", "1 month"),
        ("3 hours", "2 months"), ("6 hours", "3 months"), ("12 hours", "5 months")]
    t = HTM.natural_heal_time(full(rs, health={"lethal": 2}), rs, "lethal")
    assert t.minutes == HT.minutes("3 days")


# ================================================================ HEAL


def c_HEAL_06(rs):
    patient = full(rs, health={"lethal": 2, "aggravated": 2})
    with pytest.raises(IllegalAction, match="Life 3"):
        H.mage_heal(full(rs, "mage", Life=2, pools={"Quintessence": 5}), rs, kind="lethal",
                    levels=1, target=patient)
    adept = full(rs, "mage", Life=3, pools={"Quintessence": 5})
    agg = H.mage_heal(adept, rs, kind="aggravated", levels=2, target=patient)
    assert agg.cost == {"Quintessence": 2} and "vulgar" in agg.flags


# ================================================================ MAN


def c_MAN_01(rs):
    sneak, watch = A(Stealth=2), B(Perception=2, Alertness=1)
    out = resolve_ambush(rs, sneak, watch, attacker_faces=F(3, 5), target_faces=F(1, 3))
    assert out.outcome == "free_attack" and out.bonus_dice == 2
    assert resolve_ambush(rs, sneak, watch, attacker_faces=F(1, 5),
                          target_faces=F(1, 3)).outcome == "attacker_first"
    assert resolve_ambush(rs, sneak, watch, attacker_faces=F(0, 5),
                          target_faces=F(1, 3)).outcome == "spotted"
    with pytest.raises(IllegalAction, match="already in combat"):
        resolve_ambush(rs, sneak, watch, target_side=Side(in_combat=True),
                       attacker_faces=F(3, 5), target_faces=F(1, 3))


def c_MAN_02(rs):
    assert build_attack_pool(rs, A(), B(), atk(position="flank")).dice == 6
    assert build_attack_pool(rs, A(), B(), atk(position="rear")).dice == 7


def c_MAN_03(rs):
    human = Sheet(traits={"Dexterity": 3})
    assert [M.movement_yards(rs, human, p) for p in ("walk", "jog", "run")] == [7, 15, 29]
    wolf = Sheet(splat="shifter", race="Garou", form="Lupus", traits={"Dexterity": 3})
    assert M.movement_yards(rs, wolf, "jog") == 30


def c_MAN_04(rs):
    p = build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=3)))
    assert p.dice == 2
    with pytest.raises(IllegalAction, match="at most 14 yards"):
        build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=15)))


def c_MAN_05(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [STRIKE, {"kind": "kick"}, DODGE], "b": [STRIKE]})
    dice = [sum(m.dice for m in mods) for mods in S.action_penalties(st.get("a"), rs)]
    assert dice == [-3, -4, -5]


def c_MAN_06(rs):
    st = started(rs, [("v", 8, 7), ("b", 3, 2)])
    st = S.activate_celerity(st, "v", 3, rs).state
    st = declare_all(st, rs, {"v": [STRIKE], "b": [STRIKE]})
    st = S.act(S.act(st, "v", rs).state, "b", rs).state
    cel = {"kind": "strike", "target": "b", "extra": "celerity"}
    st = S.declare(st, "b", [STRIKE], rs).state
    st = S.declare(st, "v", [cel, STRIKE, {"kind": "kick"}, cel, cel], rs).state
    v = st.get("v")
    assert [a.get("extra") for a in v.actions] == [None, None, "celerity", "celerity",
                                                   "celerity"]
    assert [sum(m.dice for m in mods) for mods in S.action_penalties(v, rs)] == [
        -2, -3, 0, 0, 0]


def c_MAN_07(rs):
    st = started(rs, [("v", 8, 7), ("b", 3, 2)])
    step = S.activate_celerity(st, "v", 3, rs)
    (ev,) = events(step, "extra_actions")
    assert ev["turn"] == 2 and ev["spend"] == {"pool": "Blood", "amount": 1}
    with pytest.raises(IllegalAction, match="once a turn"):
        S.activate_celerity(step.state, "v", 3, rs)


def c_MAN_08(rs):
    st = started(rs, [("w", 8, 7), ("b", 3, 2)])
    with pytest.raises(IllegalAction, match="at most 2"):
        S.spend_rage(st, "w", 3, rs, rage=5, dex=3, wits=3)
    st = S.spend_rage(started(rs, [("w", 8, 7), ("b", 3, 2)]), "w", 3, rs, rage=6, dex=4,
                      wits=2).state
    rage = {"kind": "strike", "target": "b", "extra": "rage"}
    st = declare_all(st, rs, {"w": [STRIKE, rage, rage], "b": [STRIKE]})
    assert [sum(m.difficulty for m in mods) for mods in
            S.action_penalties(st.get("w"), rs)] == [3, 3, 3]


def c_MAN_09(rs):
    g = M.time_power_actions(rs, "distort time", 5)
    assert (g.actions, g.when) == (2, "next_turn")
    f = M.time_power_actions(rs, "Faith", 2)
    assert (f.actions, f.when, f.initiative_steps) == (2, "this_turn", (-1, -2))


def c_MAN_10(rs):
    assert build_attack_pool(rs, A(), B(), atk(location="arm")).difficulty == 7
    r = resolve_attack(rs, A(), B(), atk(location="head"), faces=F(1, 5, hit=8))
    assert r.pool.difficulty == 8 and r.hit and r.damage_dice == 4
    r = resolve_attack(rs, A(), B(), atk(location="eye"), faces=F(1, 5))
    assert r.pool.difficulty == 9 and r.damage_dice == 5


def c_MAN_11(rs):
    vamp = B(splat="vampire")
    r = resolve_attack(rs, A(), vamp, atk(weapon="Stake", location="heart"), faces=F(1, 5))
    assert r.pool.difficulty == 9
    assert not stake_holds(r, 2) and stake_holds(r, 3)


def c_MAN_12(rs):
    blind = Side(conditions=frozenset({"blinded"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=blind)).difficulty == 8
    gun = atk(weapon="Pistol, heavy")
    assert build_attack_pool(rs, A(), B(), gun, Context(attacker=blind, range_yards=5)
                             ).difficulty == 12  # +6, clamped to 10 when rolled
    res, points = blind_fighting(rs, A(Blind_Fighting=2), faces=(9, 9, 9, 2))
    assert points == 2 and res.counts_as_action is False


# ================================================================ DEF


def c_DEF_01(rs):
    d = build_defense_pool(rs, B(), A(), Defense("b", "block"), atk())
    assert d.terms == (("Dexterity", 2), ("Brawl", 1))
    with pytest.raises(IllegalAction, match="can't block a gunshot"):
        build_defense_pool(rs, B(), A(), Defense("b", "block"), atk(weapon="Pistol, heavy"),
                           Context(range_yards=5))


def c_DEF_02(rs):
    gun, ctx = atk(weapon="Pistol, heavy"), Context(range_yards=5)
    with pytest.raises(IllegalAction, match="cover"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), gun, ctx)
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge", prone=True), gun, ctx)
    assert d.terms == (("Dexterity", 2), ("Dodge", 2))
    fox = B(splat="shifter", race="Kitsune", form="Hito")
    r = resolve_attack(rs, A(), fox, atk(), defense=Defense("b", "dodge"), faces=F(1, 5),
                       defense_faces=(1, 1, 2, 2))
    assert not r.defense.roll.botch


def c_DEF_03(rs):
    with pytest.raises(IllegalAction, match="weapon or a shield"):
        build_defense_pool(rs, B(), A(), Defense("b", "parry"), atk())
    d = build_defense_pool(rs, B(weapons=("Sword",)), A(), Defense("b", "parry", weapon="Sword"),
                           atk())
    assert d.terms == (("Dexterity", 2), ("Melee", 1))


def c_DEF_04(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [DODGE], rs, desperate=True).state
    st = S.declare(st, "a", [STRIKE], rs).state
    dice = []
    for kind in ("dodge", "block", "parry"):
        step = S.defend(st, "b", rs, against="a", kind=kind)
        dice.append(sum(m.get("dice", 0) for m in events(step, "defend")[0]["modifiers"]))
        st = step.state
    assert dice == [0, -1, -2]


def c_DEF_05(rs):
    bolt = Magic("Forces bolt", PoolSpec((("Arete", 3),), (), 6), 4, "lethal", "power")
    r = resolve_attack(rs, A(), B(), atk(magic=bolt), Context(range_yards=10),
                       defense=Defense("b", "dodge"), faces=F(2, 3), defense_faces=F(1, 4))
    assert r.hit and r.net == 1
    area = Magic("Fireball", PoolSpec((("Arete", 3),), (), 6), 4, area=True)
    with pytest.raises(IllegalAction, match="get out of it"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(magic=area))


# ================================================================ CLOSE


def c_CLOSE_01(rs):
    vamp = A(splat="vampire")
    with pytest.raises(IllegalAction, match="clinch or hold"):
        build_attack_pool(rs, vamp, B(), atk("bite"))
    r = resolve_attack(rs, vamp, B(), atk("bite"), Context(grapple="clinch"), faces=F(1, 6))
    assert r.pool.dice == 6 and r.damage_type == "aggravated"
    assert r.damage.terms == (("Strength", 3), ("bite", 1))
    r = resolve_attack(rs, vamp, B(), atk("bite", drain=True), Context(grapple="clinch"),
                       faces=F(1, 6))
    assert [(e.kind, e.value) for e in r.effects] == [("drain_blood", 3)]
    hispo = A(splat="shifter", race="Garou", form="Hispo")
    r = resolve_attack(rs, hispo, B(), atk("bite"), faces=F(1, 6))
    assert r.damage.terms == (("Strength", 3), ("bite", 2)) and r.damage_type == "aggravated"


def c_CLOSE_02(rs):
    r = resolve_attack(rs, A(splat="vampire", Protean=2), B(), atk("claw"), faces=F(1, 5))
    assert r.damage_type == "aggravated" and r.damage.dice == 4
    r = resolve_attack(rs, A(splat="vampire", Vicissitude=3), B(), atk("claw"), faces=F(1, 5))
    assert r.damage_type == "lethal"


def c_CLOSE_03(rs):
    r = resolve_attack(rs, A(Dexterity=1), B(), atk("clinch"), faces=F(1, 5))
    assert r.pool.terms == (("Strength", 3), ("Brawl", 2))
    assert r.damage.terms == (("Strength", 3),)
    with pytest.raises(IllegalAction, match="In a clinch you may only"):
        build_attack_pool(rs, A(), B(), atk("kick"), Context(grapple="clinch"))
    with pytest.raises(IllegalAction, match="cannot dodge"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk("clinch_strike"),
                           Context(grapple="clinch"))
    esc = resolve_escape(rs, B(), A(), escaper_faces=F(2, 3), holder_faces=F(1, 5))
    assert esc.escaped


def c_CLOSE_04(rs):
    armed_foe = Context(target=Side(weapon="Knife"))
    p = build_attack_pool(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe)
    assert p.difficulty == 7
    r = resolve_attack(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(3, 5))
    assert not r.deals_damage
    assert not disarm_succeeds(r, 2) and disarm_succeeds(r, 3)  # damage over Strength 2


def c_CLOSE_05(rs):
    r = resolve_attack(rs, A(), B(), atk("hold"), faces=F(2, 5))
    assert r.hit and r.damage_dice == 0
    assert [(e.kind, e.detail) for e in r.effects] == [("grapple", "hold")]


def c_CLOSE_06(rs):
    r = resolve_attack(rs, A(), B(), atk("jab_pistol", weapon="Pistol, heavy", ammo="rubber"),
                       faces=F(1, 5))
    assert r.damage.dice == 7 and r.damage_type == "lethal"


def c_CLOSE_07(rs):
    assert not resolve_attack(rs, A(), B(), atk("kick"), faces=(6, 2, 2, 2, 2)).hit
    r = resolve_attack(rs, A(), B(), atk("kick"), faces=(8, 2, 2, 2, 2))
    assert r.pool.difficulty == 7 and r.damage.dice == 4


def c_CLOSE_08(rs):
    ctx = Context(attacker=Side(opponents=3), target=Side(opponents=8))
    assert build_attack_pool(rs, A(), B(), atk(), ctx).difficulty == 8
    assert build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(), ctx).difficulty == 10


def c_CLOSE_09(rs):
    p = build_attack_pool(rs, A(), B(), atk(weapon="Sword"), Context(riposte=True))
    assert p.dice == 6 and mod(p, "riposte").dice == 1


def c_CLOSE_10(rs):
    wolf = A(splat="shifter", race="Garou", form="Lupus")
    with pytest.raises(IllegalAction, match="only in Homid/Glabro/Crinos"):
        build_attack_pool(rs, wolf, B(), atk("strike"))
    r = resolve_attack(rs, A(), B(), atk("weapon_strike", weapon="Sword"), faces=F(1, 5))
    assert r.damage.terms == (("Strength", 3), ("Sword", 2))


def c_CLOSE_11(rs):
    r = resolve_attack(rs, A(), B(), atk("sweep"), faces=F(1, 5))
    assert r.pool.difficulty == 7 and r.damage.terms == (("Strength", 3),)
    (kd,) = [e for e in r.effects if e.kind == "knockdown_check"]
    assert kd.who == "target" and kd.difficulty == 2 and kd.absolute is None
    res = knockdown_check(rs, B(Athletics=1), difficulty=kd.difficulty, faces=(7, 2, 2))
    assert not res.standing  # a 7 fails at difficulty 8


def c_CLOSE_12(rs):
    r = resolve_attack(rs, A(), B(), atk("tackle"), faces=F(1, 5))
    assert r.pool.difficulty == 7 and r.damage.dice == 4
    kinds = [(e.kind, e.who) for e in r.effects]
    assert ("knockdown_check", "attacker") in kinds and ("knockdown_check", "target") in kinds


def c_CLOSE_13(rs):
    p = build_attack_pool(rs, A(), B(), atk(weapon="Knife"),
                          Context(target=Side(weapon="Spear")))
    assert mod(p, "their Spear is longer").dice == -1


# ================================================================ RNG


def c_RNG_01(rs):
    ctx = Context(range_yards=10)
    p = build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy", aim_turns=3), ctx)
    assert mod(p, "aimed").dice == 2  # Perception 2 caps it
    p = build_attack_pool(rs, A(), B(), atk(weapon="Hunting rifle, scoped", aim_turns=1), ctx)
    assert mod(p, "aimed").dice == 3  # 1 turn + 2 for the scope
    with pytest.raises(IllegalAction, match="Firearms 1"):
        build_attack_pool(rs, A(Firearms=0), B(), atk(weapon="Pistol, heavy", aim_turns=1), ctx)


def c_RNG_02(rs):
    r = resolve_attack(rs, A(), B(), atk("autofire", weapon="SMG, small"),
                       Context(range_yards=10), faces=F(4, 16))
    assert r.pool.dice == 16 and r.pool.difficulty == 8 and r.weapon_after.ammo == 0


def c_RNG_03(rs):
    gun = atk(weapon="Pistol, heavy")
    for cover, diff in (("light", 7), ("good", 8), ("superior", 9)):
        ctx = Context(range_yards=10, target=Side(cover=cover))
        assert build_attack_pool(rs, A(), B(), gun, ctx).difficulty == diff
    ctx = Context(range_yards=10, attacker=Side(cover="good"))
    assert build_attack_pool(rs, A(), B(), gun, ctx).difficulty == 7


def c_RNG_04(rs):
    with pytest.raises(IllegalAction, match="at most 3 shot"):
        build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=10, shots_this_turn=4))


def c_RNG_05(rs):
    gun = atk(weapon="Pistol, heavy")  # range 30
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=2)).difficulty == 4
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=30)).difficulty == 6
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=31)).difficulty == 8
    r = resolve_attack(rs, A(), B(), gun, Context(range_yards=61), faces=F(6, 6))
    assert not r.hit and "automatic miss" in r.auto


def c_RNG_06(rs):
    empty = WeaponState("Pistol, heavy", ammo=0)
    rel = ready_weapon(rs, A(), "Pistol, heavy", empty, "reload")
    assert rel.state.ammo == 7 and rel.actions_used == 1
    prep = ready_weapon(rs, A(Archery=2), "Short bow", None, "prepare", arrows=2)
    r = resolve_attack(rs, A(Archery=2), B(), atk(weapon="Short bow"),
                       Context(range_yards=10, weapon_state=prep.state), faces=F(1, 5))
    assert r.weapon_after.prepared_arrows == 1


def c_RNG_07(rs):
    targets = {"b": B(), "c": B(), "d": B()}
    ctx = Context(range_yards=10, spread_yards=3)
    out = resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16), leftover_to=("d",))
    assert out.shares == {"b": 2, "c": 2, "d": 3}
    one = resolve_attack(rs, A(), B(), atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16))
    assert one.successes == 3  # one target: halved
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge", prone=True),
                           atk("strafe", weapon="Assault rifle"), ctx)
    assert d.difficulty == 7


def c_RNG_08(rs):
    r = resolve_attack(rs, A(), B(), atk("burst", weapon="SMG, small"), Context(range_yards=10),
                       faces=F(1, 8))
    assert r.pool.dice == 8 and r.pool.difficulty == 7
    assert r.weapon_before.ammo - r.weapon_after.ammo == 3


def c_RNG_09(rs):
    p = build_attack_pool(rs, A(), B(), atk(weapon="Knife", off_hand=True),
                          Context(attacker=Side(weapon="Sword")))
    assert p.difficulty == 7
    assert build_attack_pool(rs, A(Ambidextrous=1), B(),
                             atk(weapon="Knife", off_hand=True)).difficulty == 6
    assert two_weapons_no_multi_penalty(rs, A(Ambidextrous=2), 0)


# ================================================================ COMP


def c_COMP_01(rs):
    blind = Side(conditions=frozenset({"blinded"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=blind)).difficulty == 8
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                             Context(attacker=blind, range_yards=5)).difficulty == 12
    on_blind = Context(target=Side(conditions=frozenset({"blinded"})))
    assert build_attack_pool(rs, A(), B(), atk(), on_blind).dice == 7
    beast = Side(conditions=frozenset({"blinded"}), active_powers=frozenset({"Eyes of the Beast"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=beast)).difficulty == 6


def c_COMP_02(rs):
    mortal = full(rs, Stamina=2)
    assert hit(rs, mortal, 4, "bashing", soak=[9, 2]).dazed is True  # 3 > 2
    assert hit(rs, mortal, 4, "bashing", soak=[9, 9]).dazed is False  # 2 = 2: not over
    vamp = full(rs, "vampire", Stamina=2)
    assert DZ.daze_threshold(rs, vamp) == 4


def c_COMP_03(rs):
    held = Context(target=Side(conditions=frozenset({"immobilized"})))
    assert build_attack_pool(rs, A(), B(), atk(), held).dice == 7
    tied = Context(target=Side(conditions=frozenset({"immobilized_fully"})))
    r = resolve_attack(rs, A(), B(), atk(), tied, faces=(1, 2, 2, 2, 2))
    assert r.hit and r.successes == 1 and r.roll is not None


def c_COMP_04(rs):
    s = B(Athletics=1)
    up = knockdown_check(rs, s, faces=(6, 2, 2))
    assert up.standing and up.initiative_next_turn == -2
    assert knockdown_check(rs, s, faces=(5, 2, 2)).stand_needs_action
    hurt = knockdown_check(rs, s, faces=(1, 2, 2))
    assert hurt.damage == 1 and hurt.damage_type == "bashing" and not hurt.soakable
    prone = Side(conditions=frozenset({"prone"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=prone)).dice == 3
    assert build_attack_pool(rs, A(), B(), atk(), Context(target=prone)).dice == 7


def c_COMP_05(rs):
    ctx = Context(range_yards=10, attacker=Side(speed="run"), target=Side(speed="jog"))
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"), ctx).difficulty == 8


# ================================================================ PWR


def c_PWR_03(rs):
    mage = full(rs, "mage", Arete=3)
    t = P.check_effect(rs, mage, P.TurnSpending(), "arete")
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn"):
        P.check_effect(rs, mage, t, "arete")
    t = P.check_effect(rs, mage, t, "talisman", item="Ring of Fire")
    assert dict(t.effects)["item:ring of fire"] == 1


def c_PWR_05(rs):
    shield = P.effect_for(rs, "Shield", 4)
    cel = P.effect_for(rs, "celerity", 4)
    assert P.active([shield, cel], 4) == (shield,) and P.active([shield, cel], 5) == (cel,)
    assert P.expire([shield, cel], 4) == (cel,)


def c_PWR_06(rs):
    crow = A(splat="shifter", race="Corax", form="Corvid")
    p = build_attack_pool(rs, crow, B(), atk("throw", weapon="Throwing knife"),
                          Context(range_yards=5))
    assert p.difficulty == 5
    shark = B(splat="shifter", race="Rokea", form="Chasmus")
    r = resolve_attack(rs, A(), shark, atk(), faces=F(1, 5))
    assert [(e.kind, e.value, e.detail) for e in r.effects] == [("attacker_damage", 2, "lethal")]


CHECKS = {name[2:].replace("_", "-"): fn for name, fn in dict(globals()).items()
          if name.startswith("c_") and callable(fn)}


def params(ids):
    """pytest params, one per rule ID, each marked with its ID."""
    missing = [i for i in ids if i not in CHECKS]
    assert not missing, f"no shared check for {missing}"
    return [pytest.param(i, marks=pytest.mark.rule(i), id=i) for i in ids]


# unused imports kept for readers adapting a check: crossbow_reload_actions
_ = crossbow_reload_actions
