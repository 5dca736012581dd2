"""The attack half of the chain on the numetal ruleset (and a few variant switches), with
exact dice faces. Rule IDs: ../shared/rules-catalog.md. Faces are picked so a wrong rule
changes the count: e.g. a 7 succeeds at difficulty 7 but not at 8."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wodcombat.combat.d10.attack_mods import substitution_difficulty, thrown_max_range
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
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.core.pools import Modifier, PoolSpec
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Pool, Sheet

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """variant(yaml) -> a ruleset extending numetal with only ``yaml`` changed."""
    made = {}

    def build(text: str):
        if text in made:
            return made[text]
        root = tmp_path_factory.mktemp("rules")
        (root / "numetal").symlink_to(RULES / "numetal", target_is_directory=True)
        (root / "core").symlink_to(RULES / "core", target_is_directory=True)
        (root / "child").mkdir()
        (root / "child" / "ruleset.yaml").write_text("ruleset:\n  extends: numetal\n")
        (root / "child" / "changes.yaml").write_text(text)
        made[text] = load_ruleset(root, "child")
        return made[text]

    return build


def mk(splat="mortal", *, race="", form="", weapons=(), armor="", specialties=None,
       pools=None, health=None, **traits) -> Sheet:
    """A sheet; trait keywords use _ for spaces (Blind_Fighting=2)."""
    pools = {k: Pool(v, max(v, 10)) for k, v in (pools or {}).items()}
    return Sheet(splat=splat, race=race, form=form, weapons=tuple(weapons), armor=armor,
                 specialties=dict(specialties or {}), pools=pools, health=dict(health or {}),
                 traits={k.replace("_", " "): v for k, v in traits.items()})


def F(successes: int, size: int, hit: int = 9, miss: int = 2) -> tuple[int, ...]:
    return (hit,) * successes + (miss,) * (size - successes)


# The usual fighters: A attacks, B defends.
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


def mod(pool: PoolSpec, reason: str) -> Modifier:
    found = [m for m in pool.modifiers if m.reason.startswith(reason)]
    assert found, f"no modifier '{reason}' in {pool.modifiers}"
    return found[0]


def has_mod(pool: PoolSpec, reason: str) -> bool:
    return any(m.reason.startswith(reason) for m in pool.modifiers)


# ====================================================================== ATK


def test_ATK_01_close_combat_pools(rs):
    """ATK-01: unarmed Dex + Brawl, with a weapon Dex + Melee."""
    p = build_attack_pool(rs, A(), B(), atk())
    assert p.terms == (("Dexterity", 3), ("Brawl", 2)) and p.difficulty == 6
    p = build_attack_pool(rs, A(), B(), atk(weapon="Sword"))
    assert p.terms == (("Dexterity", 3), ("Melee", 2)) and p.difficulty == 6


def test_ATK_02_DICE_07_missing_brawl_and_melee(rs):
    """ATK-02 / DICE-07: no Brawl: bare Dexterity at 6; no Melee: bare Dexterity at 7."""
    p = build_attack_pool(rs, A(Brawl=0), B(), atk())
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 6
    p = build_attack_pool(rs, A(Melee=0), B(), atk(weapon="Sword"))
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 7
    assert mod(p, "no Melee").difficulty == 1


def test_ATK_03_armor_adds_difficulty_and_v20_dice_switch(rs, variant):
    """ATK-03: armor's penalty is difficulty in numetal; the penalty_as switch makes it dice."""
    p = build_attack_pool(rs, A(armor="Flak jacket"), B(), atk())
    assert p.difficulty == 8 and mod(p, "armor").difficulty == 2
    v20 = variant("armor:\n  penalty_as: dice\n  penalty_applies_to: [attack, dodge]\n")
    p = build_attack_pool(v20, A(armor="Flak jacket"), B(), atk())
    assert p.difficulty == 6 and p.dice == 3
    d = build_defense_pool(v20, B(armor="Kevlar vest"), A(), Defense("b", "dodge"), atk())
    assert d.dice == 3  # Dex 2 + Dodge 2 - 1


def test_ATK_04_throwing_weapon_in_melee_and_melee_weapon_thrown(rs):
    """ATK-04: +1 difficulty for melee with a throwing weapon, and for throwing a melee one."""
    p = build_attack_pool(rs, A(), B(), atk("weapon_strike", weapon="Throwing knife"))
    assert p.difficulty == 7 and has_mod(p, "melee with a weapon made for throwing")
    ctx = Context(range_yards=5)
    p = build_attack_pool(rs, A(), B(), atk("throw", weapon="Knife"), ctx)
    assert p.difficulty == 7 and has_mod(p, "throwing a weapon made for melee")
    p = build_attack_pool(rs, A(), B(), atk("throw", weapon="Throwing knife"), ctx)
    assert p.difficulty == 6


def test_ATK_05_gun_pool(rs):
    """ATK-05: a gun rolls Dexterity + Firearms."""
    p = build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"), Context(range_yards=10))
    assert p.terms == (("Dexterity", 3), ("Firearms", 3)) and p.difficulty == 6


def test_ATK_06_DICE_06_throwing_substitutes_at_minus_one(rs):
    """ATK-06 / DICE-06: Dex + Athletics, or Throwing at -1 (derived from secondary_of)."""
    ctx = Context(range_yards=5)
    p = build_attack_pool(rs, A(Athletics=2, Throwing=2), B(),
                          atk("throw", weapon="Throwing knife"), ctx)
    assert ("Throwing", 2) in p.terms and p.difficulty == 5
    p = build_attack_pool(rs, A(Athletics=2, Throwing=2), B(),
                          atk("throw", weapon="Throwing knife", ability="athletics"), ctx)
    assert ("Athletics", 2) in p.terms and p.difficulty == 6


def test_ATK_06_thrown_range_weight_and_lift(rs, variant):
    """ATK-06: 5 x Strength yards up to 3 lb, -5 yards per 2 lb more; can't lift, can't throw;
    beyond the maximum is an automatic miss."""
    w = rs.section("weapons")
    assert w["items"]["Axe"]["weight_lb"] == 5
    from wodcombat.combat.core.maneuvers import tables
    t = tables(rs)
    assert thrown_max_range(rs, A(Strength=3), t.weapon("Knife")) == 15
    assert thrown_max_range(rs, A(Strength=3), t.weapon("Axe")) == 10  # 5 lb: one 2-lb step
    heavy = variant("weapons:\n  items:\n    Boulder: {damage: \"Str+3\", type: bashing, "
                    "kind: thrown, throwing: true, weight_lb: 300}\n")
    with pytest.raises(IllegalAction, match="cannot lift"):
        build_attack_pool(heavy, A(Strength=2, weapons=("Boulder",)), B(),
                          atk("throw", weapon="Boulder"), Context(range_yards=3))
    r = resolve_attack(rs, A(Strength=2), B(), atk("throw", weapon="Knife"),
                       Context(range_yards=11), faces=())
    assert not r.hit and r.roll is None and "automatic miss" in r.auto
    assert any(e.kind == "weapon_thrown" for e in r.effects)


def test_ATK_07_bow_nocking_specialty_and_string_snap(rs):
    """ATK-07: Dex + Athletics or Archery at -1; nocking takes an action (no roll, DICE-08)
    unless an Archery specialty; a botch snaps the string; repair needs a spare and a roll."""
    archer = A(Archery=3, Athletics=1)
    ctx = Context(range_yards=20)
    with pytest.raises(IllegalAction, match="Nock an arrow"):
        build_attack_pool(rs, archer, B(), atk(weapon="Short bow"), ctx)
    nock = ready_weapon(rs, archer, "Short bow", None, "nock")
    assert nock.success and nock.roll is None and nock.state.nocked and nock.actions_used == 1
    p = build_attack_pool(rs, archer, B(), atk(weapon="Short bow"),
                          Context(range_yards=20, weapon_state=nock.state))
    assert ("Archery", 3) in p.terms and p.difficulty == 5
    r = resolve_attack(rs, archer, B(), atk(weapon="Short bow"),
                       Context(range_yards=20, weapon_state=nock.state), faces=(1, 2, 3, 4, 2, 3))
    assert r.botch and not r.hit
    assert r.weapon_after.string_ok is False and r.weapon_after.nocked is False
    assert any(e.kind == "string_snapped" for e in r.effects)
    snapped = r.weapon_after
    with pytest.raises(IllegalAction, match="string is snapped"):
        build_attack_pool(rs, archer, B(), atk(weapon="Short bow"),
                          Context(range_yards=20, weapon_state=replace_nocked(snapped)))
    with pytest.raises(IllegalAction, match="spare bowstring"):
        ready_weapon(rs, archer, "Short bow", snapped, "repair")
    fixed = ready_weapon(rs, archer, "Short bow", snapped, "repair", spare_string=True,
                         faces=(7, 2, 2, 2, 2))  # Wits 2 + Archery 3
    assert fixed.roll.successes == 1 and fixed.state.string_ok
    # house rule: an Archery specialty needs no nocking, and the state does not change
    spec = A(Archery=3, specialties={"Archery": "short bow"})
    r = resolve_attack(rs, spec, B(), atk(weapon="Short bow"), ctx, faces=F(0, 6))
    assert r.weapon_after == r.weapon_before


def replace_nocked(state):
    from dataclasses import replace
    return replace(state, nocked=True)


def test_ATK_07_revised_bow_switches(variant):
    """ATK-07 variant revised: Dex + Archery or Athletics at +1 (DICE-06 primary for a
    secondary); Archery 4+ skips nocking."""
    rev = variant(
        "attacks:\n  kinds:\n    bow: {range: ranged, attribute: Dexterity, ability: Archery,\n"
        "          alternatives: [{ability: Athletics}], missing_difficulty: 1}\n"
        "  bow:\n    nock_waived_by: {trait: Archery, at_least: 4}\n")
    p = build_attack_pool(rev, A(Archery=0, Athletics=2), B(), atk(weapon="Short bow"),
                          Context(range_yards=20,
                                  weapon_state=WeaponState("Short bow", nocked=True)))
    assert ("Athletics", 2) in p.terms and p.difficulty == 7
    p = build_attack_pool(rev, A(Archery=4), B(), atk(weapon="Short bow"), Context(range_yards=20))
    assert ("Archery", 4) in p.terms and p.difficulty == 6


def test_ATK_08_crossbow_reload_and_firearms_substitution(rs):
    """ATK-08: Athletics, Archery -1 or Firearms +1; two reload actions, one with a crossbow
    specialty."""
    ctx = Context(range_yards=10)
    p = build_attack_pool(rs, A(Athletics=0), B(), atk(weapon="Crossbow"), ctx)
    assert ("Firearms", 3) in p.terms and p.difficulty == 7
    r = resolve_attack(rs, A(), B(), atk(weapon="Crossbow"), ctx, faces=F(1, 6))
    assert r.weapon_before.ammo == 1 and r.weapon_after.ammo == 0
    with pytest.raises(IllegalAction, match="reloading takes 2"):
        build_attack_pool(rs, A(), B(), atk(weapon="Crossbow"),
                          Context(range_yards=10, weapon_state=r.weapon_after))
    first = ready_weapon(rs, A(), "Crossbow", r.weapon_after, "reload")
    assert first.success and first.roll is None and first.state.ammo == 0
    second = ready_weapon(rs, A(), "Crossbow", first.state, "reload")
    assert second.state.ammo == 1 and second.state.reload_progress == 0
    fast = A(specialties={"Archery": "crossbow"})
    assert crossbow_reload_actions(rs, fast) == 1
    one = ready_weapon(rs, fast, "Crossbow", r.weapon_after, "reload")
    assert one.state.ammo == 1


def test_ATK_09_missing_ranged_skill(rs):
    """ATK-09: no Firearms: Dexterity alone at +1 difficulty, stacked with other modifiers."""
    p = build_attack_pool(rs, A(Firearms=0), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=40))
    assert p.terms == (("Dexterity", 3),)
    assert p.difficulty == 9  # +1 missing skill, +2 beyond normal range (30 yd)


def test_DICE_06_unrelated_abilities_cannot_substitute(rs):
    """DICE-06: only related abilities stand in (secondary -1, primary +1)."""
    assert substitution_difficulty(rs, "Athletics", "Archery") == -1
    assert substitution_difficulty(rs, "Archery", "Athletics") == 1
    with pytest.raises(IllegalAction):
        substitution_difficulty(rs, "Brawl", "Archery")
    with pytest.raises(IllegalAction, match="not Firearms"):
        build_attack_pool(rs, A(), B(), atk(ability="Firearms"))


def test_DICE_08_clinch_damage_needs_no_roll(rs):
    """DICE-08 / CLOSE-03: in a clinch, damage = Strength without a roll."""
    ctx = Context(grapple="clinch")
    r = resolve_attack(rs, A(), B(), atk("clinch_strike"), ctx)
    assert r.hit and r.roll is None and "no roll" in r.auto
    assert r.damage.terms == (("Strength", 3),) and r.damage_dice == 3
    assert build_attack_pool(rs, A(), B(), atk("clinch_strike"), ctx).dice == 0


def test_DICE_09_reflex_rolls_ignore_wounds(rs):
    """DICE-09 / HLT-06: a knockdown roll is a reflex (no wound penalty); the attack is not."""
    hurt = A(health={"lethal": 4})  # Wounded, -2
    p = build_attack_pool(rs, hurt, B(), atk())
    assert p.dice == 3 and mod(p, "wounds").dice == -2
    kd = knockdown_check(rs, hurt, faces=(2, 2, 2, 2, 2))  # Dex 3 + Athletics 2, no penalty
    assert kd.reflex.pool.dice == 5 and kd.reflex.counts_as_action is False
    with pytest.raises(IllegalAction, match="Incapacitated"):
        build_attack_pool(rs, A(health={"lethal": 7}), B(), atk())


def test_DICE_03_DICE_04_specialty_and_willpower(rs):
    """DICE-03 / DICE-04: a claimed specialty doubles 10s; Willpower adds a success and a cost."""
    sp = A(specialties={"Brawl": "kicks"})
    r = resolve_attack(rs, sp, B(), atk("kick", specialty=True, willpower=True),
                       faces=(10, 2, 2, 2, 2))
    assert r.successes == 3 and ("Willpower", 1) in r.costs
    with pytest.raises(IllegalAction, match="no specialty"):
        build_attack_pool(rs, A(), B(), atk(specialty=True))


# ====================================================================== DEF, DMG-03/16/17


def test_DEF_01_block_close_only(rs):
    """DEF-01: block is Dex + Brawl, close combat only: no blocking a gunshot."""
    d = build_defense_pool(rs, B(), A(), Defense("b", "block"), atk())
    assert d.terms == (("Dexterity", 2), ("Brawl", 1))
    with pytest.raises(IllegalAction, match="can't block a gunshot"):
        build_defense_pool(rs, B(), A(), Defense("b", "block"), atk(weapon="Pistol, heavy"),
                           Context(range_yards=5))


def test_DEF_02_dodge_gunfire_needs_cover_or_prone_and_kitsune(rs):
    """DEF-02: Dex + Dodge; against gunfire only into cover or dropping prone; room needed in
    close combat; a Kitsune's dodge cannot botch."""
    gun = atk(weapon="Pistol, heavy")
    ctx = Context(range_yards=5)
    with pytest.raises(IllegalAction, match="cover"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), gun, ctx)
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge", prone=True), gun, ctx)
    assert d.terms == (("Dexterity", 2), ("Dodge", 2))
    with pytest.raises(IllegalAction, match="room"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(),
                           Context(room_to_dodge=False))
    ones = (1, 1, 2, 2)
    r = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "dodge"),
                       faces=F(1, 5), defense_faces=ones)
    assert r.defense.roll.botch
    fox = B(splat="shifter", race="Kitsune", form="Hito")
    r = resolve_attack(rs, A(), fox, atk(), defense=Defense("b", "dodge"),
                       faces=F(1, 5), defense_faces=ones)
    assert not r.defense.roll.botch and r.defense.roll.successes == 0


def test_DEF_03_parry_needs_weapon_or_shield(rs):
    """DEF-03: Dex + Melee, close only, needs a weapon or a shield."""
    with pytest.raises(IllegalAction, match="weapon or a shield"):
        build_defense_pool(rs, B(), A(), Defense("b", "parry"), atk())
    d = build_defense_pool(rs, B(weapons=("Sword",)), A(), Defense("b", "parry", weapon="Sword"),
                           atk())
    assert d.terms == (("Dexterity", 2), ("Melee", 1))
    shield = B(armor="Riot shield")
    d = build_defense_pool(rs, shield, A(), Defense("b", "parry", weapon="Riot shield"), atk())
    assert d.difficulty == 6  # the shield's penalty is on attacks only in numetal
    with pytest.raises(IllegalAction, match="close combat"):
        build_defense_pool(rs, B(weapons=("Sword",)), A(), Defense("b", "parry", weapon="Sword"),
                           atk(weapon="Short bow"),
                           Context(range_yards=10, weapon_state=WeaponState("Short bow",
                                                                            nocked=True)))


def test_DMG_03_defense_cancels_attack_successes(rs):
    """DMG-03: each defense success cancels one; equal or more and the attack fails."""
    r = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "block"),
                       faces=F(3, 5), defense_faces=F(1, 3))
    assert r.successes == 3 and r.net == 2 and r.hit
    assert r.damage.terms == (("Strength", 3),) and r.damage_dice == 4  # DMG-02: +1
    r = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "block"),
                       faces=F(2, 5), defense_faces=F(2, 3))
    assert not r.hit and r.net == 0 and r.damage is None and r.damage_dice == 0


def test_DMG_16_block_lethal_only_if_soakable_and_everyman(rs, variant):
    """DMG-16: no blocking lethal/aggravated you cannot soak (numetal asks can_soak); everyman:
    Fortitude, armor or a weapon is enough."""
    knife = atk(weapon="Knife")
    with pytest.raises(IllegalAction, match="cannot soak"):
        build_defense_pool(rs, B(), A(), Defense("b", "block"), knife,
                           can_soak=lambda t: t == "bashing")
    d = build_defense_pool(rs, B(), A(), Defense("b", "block"), knife, can_soak=lambda t: True)
    assert d.dice == 3
    ev = variant("defenses:\n  block_lethal_requires: soak_fortitude_armor_or_weapon\n")
    assert build_defense_pool(ev, B(armor="Kevlar vest"), A(), Defense("b", "block"), knife,
                              can_soak=lambda t: False).dice == 3
    with pytest.raises(IllegalAction):
        build_defense_pool(ev, B(), A(), Defense("b", "block"), knife, can_soak=lambda t: False)


def test_DMG_17_parry_beating_an_unarmed_attack_hurts_the_attacker(rs, variant):
    """DMG-17: a sword parry with more successes than a punch: Str + 2 + the extra successes
    against the attacker; not against an armed attack (numetal), but yes in everyman."""
    parrier = B(weapons=("Sword",), Melee=3)
    r = resolve_attack(rs, A(), parrier, atk(), defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert not r.hit
    assert r.defense.counter.terms == (("Strength", 2), ("Sword", 2))
    assert r.defense.counter.dice == 6 and r.defense.counter_type == "lethal"
    r = resolve_attack(rs, A(), parrier, atk(weapon="Knife"),
                       defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter is None
    ev = variant("defenses:\n  parry_counter: {against: any, "
                 "weapon_types: [bashing, lethal, aggravated]}\n")
    r = resolve_attack(ev, A(), parrier, atk(weapon="Knife"),
                       defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter.dice == 6


def test_DEF_05_combat_magic(rs):
    """DEF-05: combat magic is dodged like an attack, except lock-on (unless negated) and
    area effects (escape instead)."""
    bolt = Magic("Forces bolt", PoolSpec((("Arete", 3),), (), 6), 4, "lethal", "power")
    r = resolve_attack(rs, A(), B(), atk(magic=bolt), Context(range_yards=10),
                       defense=Defense("b", "dodge"), faces=F(2, 3), defense_faces=F(1, 4))
    assert r.hit and r.net == 1 and r.damage_dice == 4 and r.damage_source == "power"
    lock = Magic("Forces + Life", PoolSpec((("Arete", 3),), (), 6), 4, lock_on=True)
    with pytest.raises(IllegalAction, match="locks onto"):
        resolve_attack(rs, A(), B(), atk(magic=lock), defense=Defense("b", "dodge"),
                       faces=F(2, 3), defense_faces=F(1, 4))
    r = resolve_attack(rs, A(), B(), atk(magic=lock),
                       defense=Defense("b", "dodge", countermagic=True),
                       faces=F(2, 3), defense_faces=F(1, 4))
    assert r.net == 1
    area = Magic("Fireball", PoolSpec((("Arete", 3),), (), 6), 4, area=True)
    with pytest.raises(IllegalAction, match="get out of it"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(magic=area))


# ====================================================================== MAN


def test_MAN_01_ambush_outcomes(rs):
    """MAN-01: Dex + Stealth vs Per + Alertness: win = free attack with the margin as dice;
    tie = attacker first; lose = spotted; no ambushing someone already in combat."""
    sneak = A(Stealth=2)  # 5 dice
    watch = B(Perception=2, Alertness=1)  # 3 dice
    out = resolve_ambush(rs, sneak, watch, attacker_faces=F(3, 5), target_faces=F(1, 3))
    assert out.outcome == "free_attack" and out.bonus_dice == 2
    p = build_attack_pool(rs, A(), B(), atk(), Context(ambush_bonus=out.bonus_dice))
    assert mod(p, "ambush").dice == 2 and p.dice == 7
    assert resolve_ambush(rs, sneak, watch, attacker_faces=F(1, 5),
                          target_faces=F(1, 3)).outcome == "attacker_first"
    assert resolve_ambush(rs, sneak, watch, attacker_faces=F(0, 5),
                          target_faces=F(1, 3)).outcome == "spotted"
    with pytest.raises(IllegalAction, match="already in combat"):
        resolve_ambush(rs, sneak, watch, target_side=Side(in_combat=True),
                       attacker_faces=F(3, 5), target_faces=F(1, 3))


def test_MAN_02_flank_and_rear_and_everyman(rs, variant):
    """MAN-02: flank +1 die, rear +2; everyman: lost if the target sees behind."""
    assert build_attack_pool(rs, A(), B(), atk(position="flank")).dice == 6
    assert build_attack_pool(rs, A(), B(), atk(position="rear")).dice == 7
    ev = variant("maneuvers:\n  flank: {lost_if_target_sees_behind: true}\n")
    eyes = Context(target=Side(sees_behind=True))
    assert build_attack_pool(ev, A(), B(), atk(position="rear"), eyes).dice == 5
    assert build_attack_pool(rs, A(), B(), atk(position="rear"), eyes).dice == 7


def test_MAN_04_moving_while_acting(rs, variant):
    """MAN-04: up to half the running distance, -1 die per yard (v20/everyman: no penalty)."""
    p = build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=3)))
    assert p.dice == 2 and mod(p, "moved 3 yd").dice == -3
    with pytest.raises(IllegalAction, match="at most 14 yards"):  # run 29 -> 14
        build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=15)))
    v20 = variant("movement:\n  while_acting: {dice_per_yard: 0}\n")
    assert build_attack_pool(v20, A(), B(), atk(), Context(attacker=Side(moved_yards=3))).dice == 5


def test_MAN_10_targeting_sizes_and_damage(rs):
    """MAN-10: medium +1 diff; small +2 diff +1 damage; precise +3 diff +2 damage."""
    p = build_attack_pool(rs, A(), B(), atk(location="arm"))
    assert p.difficulty == 7
    r = resolve_attack(rs, A(), B(), atk(location="head"), faces=F(1, 5, hit=8))
    assert r.pool.difficulty == 8 and r.hit and r.damage_dice == 4 and r.head_shot
    r = resolve_attack(rs, A(), B(), atk(location="eye"), faces=F(1, 5))
    assert r.pool.difficulty == 9 and r.damage_dice == 5


def test_MAN_10_DMG_11_armor_and_targeted_parts(rs):
    """MAN-10 / DMG-11: a vest covers the torso; an arm shot or an eye shot bypasses it."""
    vest = B(armor="Kevlar vest")
    r = resolve_attack(rs, A(), vest, atk(weapon="Sword"), faces=F(1, 5))
    assert r.armor_applies and r.armor_rating == 3 and not r.unarmored_part
    r = resolve_attack(rs, A(), vest, atk(weapon="Sword", location="arm"), faces=F(1, 5))
    assert not r.armor_applies and r.unarmored_part
    riot = B(armor="Full riot gear")
    r = resolve_attack(rs, A(), riot, atk(weapon="Sword", location="head"), faces=F(1, 5))
    assert r.armor_applies
    r = resolve_attack(rs, A(), riot, atk(weapon="Sword", location="eye"), faces=F(1, 5))
    assert not r.armor_applies
    kw = r.soak_kwargs()
    assert kw["armor_rating"] == 5 and kw["unarmored_part"] and kw["source"] == "melee"


def test_MAN_11_stake_through_the_heart(rs):
    """MAN-11: a stake at a vampire's heart paralyses it with 3+ levels after soak."""
    vamp = B(splat="vampire")
    r = resolve_attack(rs, A(), vamp, atk(weapon="Stake", location="heart"), faces=F(1, 5))
    assert r.pool.difficulty == 9
    assert [e.value for e in r.effects if e.kind == "staked_if_damage"] == [3]
    assert not stake_holds(r, 2) and stake_holds(r, 3)
    r = resolve_attack(rs, A(), B(), atk(weapon="Stake", location="heart"), faces=F(1, 5))
    assert not stake_holds(r, 5)  # a mortal is just stabbed


def test_MAN_12_COMP_01_blind_attacker_and_blinded_target(rs, variant):
    """COMP-01 / MAN-12: blind close +2 diff, ranged +6; Heightened Senses halves, Eyes of the
    Beast removes, Blind Fighting points reduce (close only); attacks on the blind +2 dice."""
    blind = Side(conditions=frozenset({"blinded"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=blind)).difficulty == 8
    gun = atk(weapon="Pistol, heavy")
    assert build_attack_pool(rs, A(), B(), gun, Context(attacker=blind, range_yards=5)
                             ).difficulty == 12  # clamped to 10 when rolled (DICE-05)
    senses = Side(conditions=frozenset({"blinded"}), active_powers=frozenset({"Heightened Senses"}))
    assert build_attack_pool(rs, A(), B(), gun, Context(attacker=senses, range_yards=5)
                             ).difficulty == 9
    beast = Side(conditions=frozenset({"blinded"}), active_powers=frozenset({"Eyes of the Beast"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=beast)).difficulty == 6
    fighter = A(Blind_Fighting=2)
    res, points = blind_fighting(rs, fighter, faces=(9, 9, 9, 2))  # Per 2 + BF 2
    assert res.roll.successes == 3 and points == 2 and res.counts_as_action is False
    trained = Side(conditions=frozenset({"blinded"}), blind_fight_penalty=1)
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=trained)).difficulty == 7
    on_blind = Context(target=Side(conditions=frozenset({"blinded"})))
    assert build_attack_pool(rs, A(), B(), atk(), on_blind).dice == 7
    v20 = variant("complications:\n  blinded: {ranged_difficulty: null}\n")
    with pytest.raises(IllegalAction, match="ranged attack"):
        build_attack_pool(v20, A(), B(), gun, Context(attacker=blind, range_yards=5))


# ====================================================================== CLOSE


def test_CLOSE_01_vampire_bite_needs_a_grapple_and_may_drain(rs):
    """CLOSE-01: a vampire bites in a clinch/hold or after a tackle: Dex + Brawl + 1 die,
    Str + 1 aggravated; or drains up to 3 blood instead."""
    vamp = A(splat="vampire")
    with pytest.raises(IllegalAction, match="clinch or hold"):
        build_attack_pool(rs, vamp, B(), atk("bite"))
    ctx = Context(grapple="clinch")
    p = build_attack_pool(rs, vamp, B(), atk("bite"), ctx)
    assert p.dice == 6 and p.difficulty == 6
    r = resolve_attack(rs, vamp, B(), atk("bite"), ctx, faces=F(1, 6))
    assert r.damage.terms == (("Strength", 3), ("bite", 1)) and r.damage_type == "aggravated"
    assert r.damage_source == "bite"
    r = resolve_attack(rs, vamp, B(), atk("bite"), Context(tackled_last_turn=True), faces=F(1, 6))
    assert r.hit
    r = resolve_attack(rs, vamp, B(), atk("bite", drain=True), ctx, faces=F(1, 6))
    assert r.damage_dice == 0 and [(e.kind, e.value) for e in r.effects] == [("drain_blood", 3)]
    with pytest.raises(IllegalAction, match="Only a vampire"):
        build_attack_pool(rs, A(splat="shifter", race="Garou", form="Crinos"), B(),
                          atk("bite", drain=True))


def test_CLOSE_01_shifter_redcap_and_gila_bites(rs):
    """CLOSE-01: shifter forms per the seed's table (extra damage in Hispo), Redcaps pay a
    Glamour for Str + 2, a Gila monster Mokole in Suchid bites for Str - 1."""
    crinos = A(splat="shifter", race="Garou", form="Crinos")
    r = resolve_attack(rs, crinos, B(), atk("bite"), faces=F(1, 6))
    assert r.damage.terms == (("Strength", 3), ("bite", 1))
    hispo = A(splat="shifter", race="Garou", form="Hispo")
    r = resolve_attack(rs, hispo, B(), atk("bite"), faces=F(1, 6))
    assert r.damage.terms == (("Strength", 3), ("bite", 2))
    with pytest.raises(IllegalAction, match="Crinos, Hispo, Lupus"):
        build_attack_pool(rs, A(splat="shifter", race="Garou", form="Homid"), B(), atk("bite"))
    with pytest.raises(IllegalAction):
        build_attack_pool(rs, A(splat="shifter", race="Corax", form="Crinos"), B(), atk("bite"))
    redcap = A(splat="changeling", race="Redcap", pools={"Glamour": 2})
    r = resolve_attack(rs, redcap, B(), atk("bite"), faces=F(1, 6))
    assert r.costs == (("Glamour", 1),) and r.damage.terms[-1] == ("bite", 2)
    with pytest.raises(IllegalAction, match="Glamour"):
        build_attack_pool(rs, A(splat="changeling", race="Redcap", pools={"Glamour": 0}), B(),
                          atk("bite"))
    gila = A(splat="shifter", race="Mokole", form="Suchid")
    r = resolve_attack(rs, gila, B(), atk("bite"), Context(attacker=Side(varna="Gila Monster")),
                       faces=F(1, 6))
    assert r.damage.terms == (("Strength", 3), ("bite", -1)) and r.damage.dice == 2


def test_CLOSE_01_redcap_severing(rs):
    """CLOSE-01: severing is +3 difficulty, needs 5 successes (3 if grappled) for +3 damage;
    no targeting modifiers."""
    redcap = A(splat="changeling", race="Redcap", pools={"Glamour": 2})
    sever = atk("bite", sever=True, location="arm")
    p = build_attack_pool(rs, redcap, B(), sever)
    assert p.difficulty == 9 and not has_mod(p, "targeting")
    r = resolve_attack(rs, redcap, B(), sever, faces=F(5, 6))
    assert any(e.kind == "severed" for e in r.effects)
    assert r.damage.dice == 3 + 2 + 4 + 3  # Str 3 + 2, 4 extra successes, +3 severed
    r = resolve_attack(rs, redcap, B(), sever, faces=F(4, 6))
    assert not any(e.kind == "severed" for e in r.effects)
    r = resolve_attack(rs, redcap, B(), sever, Context(grapple="hold"), faces=F(3, 6))
    assert any(e.kind == "severed" for e in r.effects)
    with pytest.raises(IllegalAction, match="Redcap"):
        build_attack_pool(rs, A(splat="shifter", race="Garou", form="Crinos"), B(),
                          atk("bite", sever=True))


def test_CLOSE_02_claws(rs):
    """CLOSE-02: Feral Claws (Protean 2) aggravated, bone spurs (Vicissitude 3) lethal, shifter
    claws aggravated; Dex + Brawl, Str + 1."""
    r = resolve_attack(rs, A(splat="vampire", Protean=2), B(), atk("claw"), faces=F(1, 5))
    assert r.damage_type == "aggravated" and r.damage.dice == 4 and r.damage_source == "claw"
    r = resolve_attack(rs, A(splat="vampire", Vicissitude=3), B(), atk("claw"), faces=F(1, 5))
    assert r.damage_type == "lethal"
    r = resolve_attack(rs, A(splat="shifter", race="Corax", form="Crinos"), B(), atk("claw"),
                       faces=F(1, 5))
    assert r.damage_type == "aggravated"
    with pytest.raises(IllegalAction, match="Feral Claws"):
        build_attack_pool(rs, A(), B(), atk("claw"))
    with pytest.raises(IllegalAction):
        build_attack_pool(rs, A(splat="vampire", Protean=1), B(), atk("claw"))


def test_CLOSE_03_clinch_and_escape(rs):
    """CLOSE-03: clinch Str + Brawl for Str damage and locks both; inside a clinch only the
    clinch actions; no defenses; escape is resisted Str + Brawl."""
    r = resolve_attack(rs, A(Dexterity=1), B(), atk("clinch"), faces=F(1, 5))
    assert r.pool.terms == (("Strength", 3), ("Brawl", 2))
    assert r.damage.terms == (("Strength", 3),)
    assert [(e.kind, e.detail) for e in r.effects] == [("grapple", "clinch")]
    with pytest.raises(IllegalAction, match="In a clinch you may only"):
        build_attack_pool(rs, A(), B(), atk("kick"), Context(grapple="clinch"))
    with pytest.raises(IllegalAction, match="cannot dodge"):
        build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk("clinch_strike"),
                           Context(grapple="clinch"))
    with pytest.raises(IllegalAction, match="escape first"):
        build_attack_pool(rs, A(), B(), atk(),
                          Context(attacker=Side(conditions=frozenset({"grappled"}))))
    esc = resolve_escape(rs, B(), A(), escaper_faces=F(2, 3), holder_faces=F(1, 5))
    assert esc.escaped and esc.escaper_pool.dice == 3 and esc.holder_pool.dice == 5
    assert not resolve_escape(rs, B(), A(), escaper_faces=F(1, 3), holder_faces=F(1, 5)).escaped


def test_CLOSE_04_disarm(rs, variant):
    """CLOSE-04: with a weapon Dex + Melee +1 diff; unarmed Dex + Brawl - 1 +2 diff; pre-soak
    damage over the target's Strength takes the weapon; the target takes no damage."""
    armed_foe = Context(target=Side(weapon="Knife"))
    p = build_attack_pool(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe)
    assert p.terms == (("Dexterity", 3), ("Melee", 2)) and p.difficulty == 7
    p = build_attack_pool(rs, A(), B(), atk("disarm"), armed_foe)
    assert p.terms == (("Dexterity", 3), ("Brawl", 2)) and p.dice == 4 and p.difficulty == 8
    r = resolve_attack(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(1, 5))
    assert r.hit and not r.deals_damage and r.damage_dice == 0 and r.damage.dice == 5
    assert not disarm_succeeds(r, 2) and disarm_succeeds(r, 3)  # B's Strength is 2
    with pytest.raises(IllegalAction, match="holds no weapon"):
        build_attack_pool(rs, A(), B(), atk("disarm"))
    with pytest.raises(IllegalAction, match="Homid/Glabro/Crinos"):
        build_attack_pool(rs, A(splat="shifter", race="Garou", form="Hispo"), B(), atk("disarm"),
                          armed_foe)
    ev = variant("maneuvers:\n  list:\n    disarm:\n      effects: [{effect: disarm, detail: "
                 "attack_successes}]\n")
    r = resolve_attack(ev, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(3, 5))
    assert disarm_succeeds(r, 0)


def test_CLOSE_05_hold(rs):
    """CLOSE-05: hold is Str + Brawl and does no damage."""
    r = resolve_attack(rs, A(), B(), atk("hold"), faces=F(2, 5))
    assert r.hit and r.damage is None and r.damage_dice == 0
    assert [(e.kind, e.detail) for e in r.effects] == [("grapple", "hold")]


def test_CLOSE_06_jab_pistol(rs):
    """CLOSE-06: Dex + Melee with a pistol, +2 damage; rubber bullets do lethal; needs a pistol."""
    r = resolve_attack(rs, A(), B(), atk("jab_pistol", weapon="Pistol, heavy"), faces=F(1, 5))
    assert r.pool.terms == (("Dexterity", 3), ("Melee", 2))
    assert r.damage.dice == 7 and r.damage_type == "lethal"
    assert r.weapon_after.ammo == r.weapon_before.ammo - 1
    r = resolve_attack(rs, A(), B(), atk("jab_pistol", weapon="Pistol, heavy", ammo="rubber"),
                       faces=F(1, 5))
    assert r.damage_type == "lethal"
    r = resolve_attack(rs, A(), B(), atk(weapon="Pistol, heavy", ammo="rubber"), faces=F(1, 6))
    assert r.damage_type == "bashing"  # an ordinary rubber-bullet shot
    with pytest.raises(IllegalAction, match="pistol or revolver"):
        build_attack_pool(rs, A(), B(), atk("jab_pistol", weapon="Rifle"))


def test_CLOSE_07_kick(rs):
    """CLOSE-07: Dex + Brawl +1 difficulty, Str + 1 damage: a 6 hits a punch, not a kick."""
    faces = (6, 2, 2, 2, 2)
    assert resolve_attack(rs, A(), B(), atk(), faces=faces).hit
    r = resolve_attack(rs, A(), B(), atk("kick"), faces=faces)
    assert not r.hit and r.pool.difficulty == 7
    r = resolve_attack(rs, A(), B(), atk("kick"), faces=(8, 2, 2, 2, 2))
    assert r.damage.dice == 4 and r.damage_source == "kick"


def test_CLOSE_08_multiple_opponents(rs, variant):
    """CLOSE-08: +1 diff per extra attacker on attack and defense, at most +4; everyman: defense
    only."""
    ctx = Context(attacker=Side(opponents=3), target=Side(opponents=8))
    assert build_attack_pool(rs, A(), B(), atk(), ctx).difficulty == 8
    assert build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(), ctx).difficulty == 10
    ev = variant("maneuvers:\n  multiple_opponents: {applies_to: [defense]}\n")
    assert build_attack_pool(ev, A(), B(), atk(), ctx).difficulty == 6


def test_CLOSE_09_riposte(rs):
    """CLOSE-09: after a successful weapon parry, the next attack with it +1 die."""
    p = build_attack_pool(rs, A(), B(), atk(weapon="Sword"), Context(riposte=True))
    assert p.dice == 6 and mod(p, "riposte").dice == 1
    with pytest.raises(IllegalAction, match="riposte"):
        build_attack_pool(rs, A(), B(), atk(), Context(riposte=True))


def test_CLOSE_10_strike_and_garou_forms(rs):
    """CLOSE-10: strike / weapon strike are normal attacks; Garou strike and kick only in
    Homid, Glabro or Crinos."""
    r = resolve_attack(rs, A(), B(), atk("strike"), faces=F(1, 5))
    assert r.damage.terms == (("Strength", 3),) and r.damage_type == "bashing"
    r = resolve_attack(rs, A(), B(), atk("weapon_strike", weapon="Sword"), faces=F(1, 5))
    assert r.damage.terms == (("Strength", 3), ("Sword", 2)) and r.damage_type == "lethal"
    wolf = A(splat="shifter", race="Garou", form="Lupus")
    for m in ("strike", "kick"):
        with pytest.raises(IllegalAction, match="only in Homid/Glabro/Crinos"):
            build_attack_pool(rs, wolf, B(), atk(m))
    assert build_attack_pool(rs, A(splat="shifter", race="Garou", form="Glabro"), B(),
                             atk("kick")).dice == 5


def test_CLOSE_11_sweep_and_knockdown(rs, variant):
    """CLOSE-11: leg sweep Dex + Brawl +1, Str damage; a weapon sweep Melee and weapon damage;
    the target checks knockdown at +2 (everyman: difficulty 8)."""
    r = resolve_attack(rs, A(), B(), atk("sweep"), faces=F(1, 5))
    assert r.pool.difficulty == 7 and r.damage.terms == (("Strength", 3),)
    kd = [e for e in r.effects if e.kind == "knockdown_check"]
    assert [(e.who, e.difficulty) for e in kd] == [("target", 2)]
    r = resolve_attack(rs, A(), B(), atk("sweep", weapon="Staff" if False else "Sword"),
                       faces=F(1, 5))
    assert r.pool.terms[1] == ("Melee", 2) and r.damage.terms[1] == ("Sword", 2)
    check = knockdown_check(rs, B(Athletics=1), difficulty=kd[0].difficulty, faces=(7, 7, 2))
    assert check.roll.difficulty == 8 and not check.standing
    ev = variant("maneuvers:\n  list:\n    sweep:\n      effects: [{effect: knockdown_check, "
                 "who: target, absolute: 8}]\n")
    e = [e for e in resolve_attack(ev, A(), B(), atk("sweep"), faces=F(1, 5)).effects][0]
    assert e.absolute == 8


def test_CLOSE_12_tackle(rs):
    """CLOSE-12: Str + Brawl +1 diff, Str + 1; both check knockdown at +1; the target +1 diff
    next turn; a botch knocks the attacker down or costs the target's Stamina in damage."""
    r = resolve_attack(rs, A(Dexterity=1), B(), atk("tackle"), faces=F(1, 5))
    assert r.pool.terms[0] == ("Strength", 3) and r.pool.difficulty == 7
    assert r.damage.dice == 4 and r.damage_source == "tackle"
    kinds = sorted((e.kind, e.who, e.difficulty, e.value) for e in r.effects)
    assert kinds == [("knockdown_check", "attacker", 1, 0), ("knockdown_check", "target", 1, 0),
                     ("next_turn_difficulty", "target", 0, 1)]
    r = resolve_attack(rs, A(), B(Stamina=3), atk("tackle"), faces=(1, 2, 2, 2, 2))
    assert r.botch and [(e.kind, e.value) for e in r.effects] == [("knocked_down_or_damage", 3)]


def test_CLOSE_13_weapon_length(rs):
    """CLOSE-13: the target's longer weapon: -1 die."""
    spear = Context(target=Side(weapon="Spear"))
    assert build_attack_pool(rs, A(), B(), atk(weapon="Knife"), spear).dice == 4
    assert build_attack_pool(rs, A(), B(), atk(weapon="Spear"), spear).dice == 5
    assert build_attack_pool(rs, A(), B(), atk(), Context(target=Side(weapon="Knife"))).dice == 5
    assert build_attack_pool(rs, A(), B(), atk(), Context(target=Side(weapon="Sword"))).dice == 4


# ====================================================================== RNG


def test_RNG_01_aiming(rs):
    """RNG-01: +1 die a turn up to Perception, +2 for a scope; Firearms 1+; no shotguns or
    SMGs; the target no faster than a walk."""
    ctx = Context(range_yards=10)
    p = build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy", aim_turns=3), ctx)
    assert mod(p, "aimed").dice == 2  # Perception 2 caps it
    p = build_attack_pool(rs, A(), B(), atk(weapon="Hunting rifle, scoped", aim_turns=1), ctx)
    assert mod(p, "aimed").dice == 3
    with pytest.raises(IllegalAction, match="shotgun cannot be aimed"):
        build_attack_pool(rs, A(), B(), atk(weapon="Shotgun", aim_turns=1), ctx)
    with pytest.raises(IllegalAction, match="smg cannot be aimed"):
        build_attack_pool(rs, A(), B(), atk(weapon="SMG, small", aim_turns=1), ctx)
    with pytest.raises(IllegalAction, match="Firearms 1"):
        build_attack_pool(rs, A(Firearms=0), B(), atk(weapon="Pistol, heavy", aim_turns=1), ctx)
    with pytest.raises(IllegalAction, match="faster than a walk"):
        build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy", aim_turns=1),
                          Context(range_yards=10, target=Side(speed="jog")))
    with pytest.raises(IllegalAction, match="Archery 2"):
        build_attack_pool(rs, A(Archery=1), B(), atk(weapon="Short bow", aim_turns=1),
                          Context(range_yards=10, weapon_state=WeaponState("Short bow",
                                                                           nocked=True)))


def test_RNG_02_autofire(rs):
    """RNG-02: SMG or assault rifle, clip at least half full: +10 dice, +2 diff, clip emptied,
    no called shots."""
    ctx = Context(range_yards=10)
    r = resolve_attack(rs, A(), B(), atk("autofire", weapon="SMG, small"), ctx, faces=F(4, 16))
    assert r.pool.dice == 16 and r.pool.difficulty == 8
    assert r.weapon_before.ammo == 30 and r.weapon_after.ammo == 0
    assert r.damage.terms == (("SMG, small", 4),) and r.damage.dice == 7  # 4 + 3 extra
    half = Context(range_yards=10, weapon_state=WeaponState("SMG, small", ammo=14))
    with pytest.raises(IllegalAction, match="at least 50% full"):
        build_attack_pool(rs, A(), B(), atk("autofire", weapon="SMG, small"), half)
    ok = Context(range_yards=10, weapon_state=WeaponState("SMG, small", ammo=15))
    assert build_attack_pool(rs, A(), B(), atk("autofire", weapon="SMG, small"), ok).dice == 16
    with pytest.raises(IllegalAction, match="cannot aim at a body part"):
        build_attack_pool(rs, A(), B(), atk("autofire", weapon="SMG, small", location="head"), ctx)
    with pytest.raises(IllegalAction):
        build_attack_pool(rs, A(), B(), atk("autofire", weapon="Pistol, heavy"), ctx)


def test_RNG_03_cover(rs):
    """RNG-03: light +1 / good +2 / superior +3 to be hit; firing from good cover +1, superior
    +2; aiming at the exposed head bypasses superior cover."""
    gun = atk(weapon="Pistol, heavy")
    for cover, diff in (("light", 7), ("good", 8), ("superior", 9)):
        ctx = Context(range_yards=10, target=Side(cover=cover))
        assert build_attack_pool(rs, A(), B(), gun, ctx).difficulty == diff
    ctx = Context(range_yards=10, attacker=Side(cover="good"))
    assert build_attack_pool(rs, A(), B(), gun, ctx).difficulty == 7
    ctx = Context(range_yards=10, target=Side(cover="superior"))
    p = build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy", location="head"), ctx)
    assert p.difficulty == 8 and not has_mod(p, "target in")


def test_RNG_04_rate_of_fire(rs):
    """RNG-04: no more shots a turn than the weapon's rate."""
    with pytest.raises(IllegalAction, match="at most 3 shot"):
        build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=10, shots_this_turn=4))
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                             Context(range_yards=10, shots_this_turn=3)).dice == 6


def test_RNG_05_range_bands(rs):
    """RNG-05: within 2 yards -2; beyond normal +2; beyond twice normal an automatic miss."""
    gun = atk(weapon="Pistol, heavy")  # range 30
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=2)).difficulty == 4
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=30)).difficulty == 6
    assert build_attack_pool(rs, A(), B(), gun, Context(range_yards=31)).difficulty == 8
    r = resolve_attack(rs, A(), B(), gun, Context(range_yards=61), faces=F(6, 6))
    assert not r.hit and r.roll is None and "automatic miss" in r.auto


def test_RNG_06_reloading_and_prepared_arrows(rs):
    """RNG-06: reloading is an action without a roll (DICE-08); prepared arrows let an archer
    shoot without nocking."""
    empty = WeaponState("Pistol, heavy", ammo=0)
    with pytest.raises(IllegalAction, match="Reload"):
        build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=5, weapon_state=empty))
    rel = ready_weapon(rs, A(), "Pistol, heavy", empty, "reload")
    assert rel.success and rel.roll is None and rel.state.ammo == 7 and rel.actions_used == 1
    prep = ready_weapon(rs, A(Archery=2), "Short bow", None, "prepare", arrows=2)
    ctx = Context(range_yards=10, weapon_state=prep.state)
    r = resolve_attack(rs, A(Archery=2), B(), atk(weapon="Short bow"), ctx, faces=F(1, 5))
    assert r.weapon_after.prepared_arrows == 1 and not r.weapon_after.nocked


def test_RNG_07_strafing_splits_successes(rs):
    """RNG-07: successes split evenly, leftovers where the attacker says; one target alone
    gets half; targets within 3 yards; dodging it +1 difficulty."""
    targets = {"b": B(), "c": B(), "d": B()}
    ctx = Context(range_yards=10, spread_yards=3)
    out = resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16), leftover_to=("d",))
    assert out.roll.successes == 7 and out.shares == {"b": 3, "c": 2, "d": 2} or \
        out.shares == {"b": 2, "c": 2, "d": 3}
    assert out.shares["d"] == 3 and sum(out.shares.values()) == 7
    assert all(r.weapon_after.ammo == 0 for r in out.results)
    one = resolve_attack(rs, A(), B(), atk("strafe", weapon="Assault rifle"), ctx, faces=F(7, 16))
    assert one.successes == 3 and one.net == 3
    with pytest.raises(IllegalAction, match="within 3 yards"):
        resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"),
                       Context(range_yards=10, spread_yards=5), faces=F(7, 16))
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge", prone=True),
                           atk("strafe", weapon="Assault rifle"), ctx)
    assert d.difficulty == 7
    out = resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16), defenses={"c": (Defense("c", "dodge", prone=True),
                                                         F(2, 4))})
    by = {r.target: r for r in out.results}
    assert by["c"].net == 0 and not by["c"].hit and by["b"].hit


def test_RNG_08_three_round_burst(rs):
    """RNG-08: rate 3+ (nothing else): +2 dice, +1 diff, three rounds."""
    r = resolve_attack(rs, A(), B(), atk("burst", weapon="SMG, small"), Context(range_yards=10),
                       faces=F(1, 8))
    assert r.pool.dice == 8 and r.pool.difficulty == 7
    assert r.weapon_before.ammo - r.weapon_after.ammo == 3
    # Defect 5: a rate-3 pistol with no `burst` flag on its row fires a burst too.
    p = build_attack_pool(rs, A(), B(), atk("burst", weapon="Pistol, heavy"),
                          Context(range_yards=10))
    assert p.dice == 8 and p.difficulty == 7
    with pytest.raises(IllegalAction, match="rate of fire of 3"):
        build_attack_pool(rs, A(), B(), atk("burst", weapon="Revolver, heavy"),
                          Context(range_yards=10))


def test_RNG_09_two_weapons(rs):
    """RNG-09: the off hand +1 difficulty unless Ambidextrous; no two-handed weapon in the off
    hand; Ambidextrous 2 alone waives the multiple-action penalty."""
    p = build_attack_pool(rs, A(), B(), atk(weapon="Knife", off_hand=True),
                          Context(attacker=Side(weapon="Sword")))
    assert p.difficulty == 7
    p = build_attack_pool(rs, A(Ambidextrous=1), B(), atk(weapon="Knife", off_hand=True))
    assert p.difficulty == 6
    with pytest.raises(IllegalAction, match="both hands"):
        build_attack_pool(rs, A(), B(), atk(weapon="Spear", off_hand=True))
    with pytest.raises(IllegalAction, match="Both your hands"):
        build_attack_pool(rs, A(), B(), atk(weapon="Knife", off_hand=True),
                          Context(attacker=Side(weapon="Axe")))
    assert two_weapons_no_multi_penalty(rs, A(Ambidextrous=2), 0)
    assert not two_weapons_no_multi_penalty(rs, A(Ambidextrous=2), 1)
    assert not two_weapons_no_multi_penalty(rs, A(Ambidextrous=1), 0)


# ====================================================================== COMP, PWR-06


def test_COMP_03_immobilized(rs, variant):
    """COMP-03: partly immobilized +2 dice; fully: at least one success (v20: automatic hit)."""
    held = Context(target=Side(conditions=frozenset({"immobilized"})))
    assert build_attack_pool(rs, A(), B(), atk(), held).dice == 7
    tied = Context(target=Side(conditions=frozenset({"immobilized_fully"})))
    r = resolve_attack(rs, A(), B(), atk(), tied, faces=(1, 2, 2, 2, 2))
    assert r.hit and r.successes == 1 and not r.botch
    v20 = variant("complications:\n  immobilized: {full: auto_hit}\n")
    r = resolve_attack(v20, A(), B(), atk(), tied)
    assert r.hit and r.roll is None and "automatic hit" in r.auto
    with pytest.raises(IllegalAction, match="fully immobilized and cannot defend"):
        resolve_attack(v20, A(), B(), atk(), tied, defense=Defense("b", "dodge"))


def test_COMP_04_knockdown_roll_and_prone(rs, variant):
    """COMP-04: success: up at once, -2 initiative; failure: rising takes an action; botch: 1
    unsoakable bashing (v20 switch: soakable); prone: own close attacks -2, attacks on you +2."""
    s = B(Athletics=1)  # Dex 2 + Athletics 1
    up = knockdown_check(rs, s, faces=(6, 2, 2))
    assert up.standing and up.initiative_next_turn == -2 and not up.stand_needs_action
    down = knockdown_check(rs, s, faces=(5, 2, 2))
    assert not down.standing and down.stand_needs_action and down.damage == 0
    hurt = knockdown_check(rs, s, faces=(1, 2, 2))
    assert hurt.damage == 1 and hurt.damage_type == "bashing" and not hurt.soakable
    v20 = variant("complications:\n  knockdown: {botch_soakable: true}\n")
    assert knockdown_check(v20, s, faces=(1, 2, 2)).soakable
    prone = Side(conditions=frozenset({"prone"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=prone)).dice == 3
    assert build_attack_pool(rs, A(), B(), atk(), Context(target=prone)).dice == 7
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"),
                             Context(attacker=prone, range_yards=10)).dice == 6


def test_COMP_05_movement_faster_than_walk(rs):
    """COMP-05: attacker or target faster than a walk: +1 difficulty each."""
    ctx = Context(range_yards=10, attacker=Side(speed="run"), target=Side(speed="jog"))
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"), ctx).difficulty == 8
    ctx = Context(range_yards=10, attacker=Side(speed="walk"), target=Side(speed="walk"))
    assert build_attack_pool(rs, A(), B(), atk(weapon="Pistol, heavy"), ctx).difficulty == 6


def test_PWR_06_corax_athletics_rokea_skin_gurahl_nose(rs):
    """PWR-06: Corax in Crinos/Corvid -1 diff on Athletics; Rokea in Chasmus/Gladius hurt a
    barehanded attacker (2 lethal); Gurahl outside Homid smell -2 / sight +2 Perception."""
    crow = A(splat="shifter", race="Corax", form="Corvid")
    p = build_attack_pool(rs, crow, B(), atk("throw", weapon="Throwing knife"),
                          Context(range_yards=5))
    assert p.difficulty == 5
    kd = knockdown_check(rs, crow, faces=(5, 2, 2, 2, 2))
    assert kd.roll.difficulty == 5 and kd.standing
    shark = B(splat="shifter", race="Rokea", form="Chasmus")
    r = resolve_attack(rs, A(), shark, atk(), faces=F(1, 5))
    assert [(e.kind, e.who, e.value, e.detail) for e in r.effects] == [
        ("attacker_damage", "attacker", 2, "lethal")]
    r = resolve_attack(rs, A(), shark, atk(weapon="Sword"), faces=F(1, 5))
    assert not any(e.kind == "attacker_damage" for e in r.effects)
    r = resolve_attack(rs, A(), B(splat="shifter", race="Rokea", form="Homid"), atk(),
                       faces=F(1, 5))
    assert not r.effects
    bear = B(splat="shifter", race="Gurahl", form="Ursus", Perception=2, Alertness=1)
    out = resolve_ambush(rs, A(Stealth=2), bear, sense="smell", attacker_faces=F(1, 5),
                         target_faces=(4, 2, 2))
    assert out.target_roll.difficulty == 4 and out.outcome == "attacker_first"
    out = resolve_ambush(rs, A(Stealth=2), bear, sense="sight", attacker_faces=F(1, 5),
                         target_faces=(7, 2, 2))
    assert out.target_roll.difficulty == 8 and out.outcome == "free_attack"


# ====================================================================== inputs and refusals


def test_refusals_and_bad_input(rs):
    """Refusals say why; unknown names are input errors with a suggestion."""
    with pytest.raises(IllegalAction, match="You carry no Sword"):
        build_attack_pool(rs, A(weapons=("Knife",)), B(), atk(weapon="Sword"))
    with pytest.raises(InputError, match="Did you mean"):
        build_attack_pool(rs, A(), B(), atk(weapon="Swrod"))
    with pytest.raises(InputError, match="not a maneuver"):
        build_attack_pool(rs, A(), B(), atk("headbutt"))
    with pytest.raises(IllegalAction, match="without a weapon"):
        build_attack_pool(rs, A(), B(), atk("kick", weapon="Sword"))
    with pytest.raises(IllegalAction, match="yards away"):
        build_attack_pool(rs, A(), B(), atk(), Context(range_yards=5))
    with pytest.raises(InputError, match="needs 5 dice"):
        resolve_attack(rs, A(), B(), atk(), faces=(9, 9))
    with pytest.raises(InputError, match="Unknown condition"):
        build_attack_pool(rs, A(), B(), atk(), Context(target=Side(conditions=frozenset({"x"}))))


def test_rng_rolls_are_reproducible(rs):
    """Randomness is injected: the same seed gives the same result."""
    a = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "dodge"), rng=random.Random(7))
    b = resolve_attack(rs, A(), B(), atk(), defense=Defense("b", "dodge"), rng=random.Random(7))
    assert a.roll.faces == b.roll.faces and a.defense.roll.faces == b.defense.roll.faces
    assert len(a.roll.faces) == 5 and len(a.defense.roll.faces) == 4


def test_extra_modifiers_from_the_scheduler(rs):
    """MAN-05 penalties arrive as Context.extra / Defense.extra, each with its reason."""
    p = build_attack_pool(rs, A(), B(), atk(), Context(extra=(Modifier("2 actions", dice=-2),)))
    assert p.dice == 3 and mod(p, "2 actions").dice == -2
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge",
                                                 extra=(Modifier("desperate #2", dice=-1),)),
                           atk())
    assert d.dice == 3
