"""The `everyman` ruleset (seed 002_2d42e5e1bfda5bd5.txt) under the real rules/ folder.

Every catalog ID whose "where / variants" column names everyman (or says all d10) is
exercised here: shared checks (d10_checks.py) where the list says what numetal says, and a
test comparing with numetal where it differs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wodcombat.combat.d10 import dazed as DZ
from wodcombat.combat.d10 import field_healing as FH
from wodcombat.combat.d10 import kiss_rules as K
from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.attack_resolve import (
    build_attack_pool,
    build_defense_pool,
    disarm_succeeds,
    resolve_attack,
    resolve_strafe,
)
from wodcombat.combat.d10.attack_values import Context, Defense, Side
from wodcombat.combat.d10.reflex_rolls import knockdown_check
from wodcombat.combat.d10.weapon_ready import two_weapons_no_multi_penalty
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from tests.engine import d10_checks as C
from tests.engine.d10_checks import (
    A, B, DODGE, STRIKE, F, atk, declare_all, events, full, hit, started,
)

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "everyman")


@pytest.fixture(scope="module")
def nu():
    return load_ruleset(RULES, "numetal")


SAME = [
    "DICE-01", "DICE-02", "DICE-03", "DICE-04", "DICE-05", "DICE-07", "DICE-10",
    "INIT-01", "TURN-01",
    "ATK-01", "ATK-05",
    "DMG-01", "DMG-02", "DMG-03", "DMG-04", "DMG-18",
    "HLT-01", "HLT-02",
    "MAN-02", "MAN-05", "MAN-10", "MAN-12",
    "DEF-01", "DEF-03", "DEF-04",
    "CLOSE-03", "CLOSE-07",
    "RNG-01", "RNG-02", "RNG-03", "RNG-05", "RNG-08",
    "COMP-01", "COMP-03", "COMP-04",
]


@pytest.mark.parametrize("rule_id", C.params(SAME))
def test_everyman_same_as_numetal(rs, rule_id):
    """The shared check of ``rule_id`` holds under everyman."""
    C.CHECKS[rule_id](rs)


def test_everyman_extends_the_core(rs):
    """Issue 10: everyman extends the core (V20 baseline), not numetal's house rules."""
    assert rs.parent == "core"


# ---------------------------------------------------------------- TURN


@pytest.mark.rule("TURN-08")
def test_TURN_08_everyman_abort_roll_at_eight_or_a_point(rs, nu):
    """TURN-08 (#4): abort to dodge/block/parry with a WP point or a WP roll at 8; a 7 that
    succeeds in numetal fails here; a failed roll stands (no point after it)."""
    def fresh(ruleset):
        st = started(ruleset, [("a", 8, 7), ("b", 3, 2)])
        return declare_all(st, ruleset, {"a": [STRIKE], "b": [{"kind": "strike",
                                                               "target": "a"}]})

    (ev,) = events(S.abort(fresh(rs), "b", DODGE, rs, willpower=2, faces=[7, 7]), "abort")
    assert ev["roll"]["difficulty"] == 8 and not ev["success"]
    (ev,) = events(S.abort(fresh(nu), "b", DODGE, nu, willpower=2, faces=[7, 7]), "abort")
    assert ev["success"]
    (ev,) = events(S.abort(fresh(rs), "b", DODGE, rs, willpower=2, faces=[8, 2]), "abort")
    assert ev["success"] and ev["performed"]
    st = S.abort(fresh(rs), "b", DODGE, rs, willpower=2, faces=[7, 7]).state
    with pytest.raises(IllegalAction, match="declared action stands"):
        S.abort(st, "b", DODGE, rs, spend_willpower=True)
    (ev,) = events(S.abort(fresh(rs), "b", DODGE, rs, spend_willpower=True), "abort")
    assert ev["spend"] == {"pool": "Willpower", "amount": 1}
    with pytest.raises(IllegalAction, match="block, dodge, parry"):
        S.abort(fresh(rs), "b", {"kind": "kick"}, rs, spend_willpower=True)


@pytest.mark.rule("TURN-10")
def test_TURN_10_change_an_impossible_action_to_a_related_one(rs, nu):
    """TURN-10 (#16): WP point or roll at 8; numetal: no change. READING (everyman/turns.yaml
    change): once the declared action is impossible any action may follow ("give chase or
    do something else"); combat/d10/change.py refuses to change a still-possible one."""
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = declare_all(st, rs, {"a": [STRIKE], "b": [{"kind": "claw", "target": "a"}]})
    shot = S.change_action(st, "b", {"kind": "shoot", "target": "a"}, rs, spend_willpower=True)
    assert shot.state.get("b").actions[0]["kind"] == "shoot"
    (ev,) = events(S.change_action(st, "b", {"kind": "move", "target": "a"}, rs,
                                   willpower=2, faces=[7, 3]), "change")
    assert not ev["success"] and ev["roll"]["difficulty"] == 8
    step = S.change_action(st, "b", {"kind": "move", "target": "a"}, rs,
                           willpower=2, faces=[8, 3])
    assert step.state.get("b").actions[0]["kind"] == "move"
    nst = started(nu, [("a", 8, 7), ("b", 3, 2)])
    nst = declare_all(nst, nu, {"a": [STRIKE], "b": [STRIKE]})
    with pytest.raises(IllegalAction, match="TURN-08"):
        S.change_action(nst, "b", DODGE, nu, spend_willpower=True)


@pytest.mark.rule("TURN-11", "TURN-06")
def test_TURN_11_split_actions_in_the_everyman_turn_extras_after_everyone(rs, nu):
    """TURN-11 (#5, #6, #8): a split happens in the everyman turn (numetal: the second action
    waits for the extra phase); Celerity comes after everyone; no power in a split."""
    def turn(ruleset):
        st = started(ruleset, [("v", 8, 7), ("b", 3, 2)])
        st = S.activate_celerity(st, "v", 1, ruleset).state
        st = declare_all(st, ruleset, {"v": [STRIKE], "b": [STRIKE]})
        st = S.act(S.act(st, "v", ruleset).state, "b", ruleset).state
        cel = {"kind": "strike", "target": "b", "extra": "celerity"}
        st = declare_all(st, ruleset, {"v": [STRIKE, {"kind": "kick"}, cel], "b": [STRIKE]})
        return S.act(st, "v", ruleset).state

    st = turn(rs)
    assert S.pending(st) == ["v"]  # the split kick, still in the everyman turn
    st = S.act(st, "v", rs).state
    assert S.pending(st) == ["b"] and st.phase == "act"
    st = S.act(st, "b", rs).state
    assert st.phase == "extra" and S.pending(st) == ["v"]  # Celerity after everyone
    assert S.pending(turn(nu)) == ["b"]
    with pytest.raises(IllegalAction, match="TURN-11"):
        S.declare(started(rs, [("v", 8, 7)]), "v",
                  [{"kind": "strike", "power": "Potence"}, {"kind": "kick"}], rs)
    S.declare(started(nu, [("v", 8, 7)]), "v",
              [{"kind": "strike", "power": "Potence"}, {"kind": "kick"}], nu)


# ---------------------------------------------------------------- DMG-16, DMG-17, COMP-02


@pytest.mark.rule("DMG-16")
def test_DMG_16_block_lethal_with_fortitude_armor_or_weapon(rs, nu):
    """DMG-16 (#13): no blocking lethal/aggravated without Fortitude, armor or a weapon —
    whether the blocker could soak it does not matter (numetal asks exactly that)."""
    knife = atk(weapon="Knife")
    cannot = lambda t: t == "bashing"  # noqa: E731
    vest = build_defense_pool(rs, B(armor="Kevlar vest"), A(), Defense("b", "block"), knife,
                              can_soak=cannot)
    assert vest.dice == 2  # Dex 2 + Brawl 1, the vest's penalty as a die (ATK-03, V20 p. 296)
    assert C.mod(vest, "armor").dice == -1
    with pytest.raises(IllegalAction):
        build_defense_pool(nu, B(armor="Kevlar vest"), A(), Defense("b", "block"), knife,
                           can_soak=cannot)
    armed = Context(target=Side(weapon="Sword"))
    assert build_defense_pool(rs, B(weapons=("Sword",)), A(), Defense("b", "block"), knife,
                              armed, can_soak=cannot).dice == 3
    assert build_defense_pool(rs, B(splat="vampire", Fortitude=1), A(), Defense("b", "block"),
                              knife, can_soak=cannot).dice == 3
    # a werewolf soaks lethal, but has no Fortitude, armor or weapon: no block
    wolf = B(splat="shifter", race="Garou", form="Crinos")
    with pytest.raises(IllegalAction, match="without Fortitude, armor or a weapon"):
        build_defense_pool(rs, wolf, A(), Defense("b", "block"), knife, can_soak=lambda t: True)
    assert build_defense_pool(nu, wolf, A(), Defense("b", "block"), knife,
                              can_soak=lambda t: True).dice == 3


@pytest.mark.rule("DMG-17")
def test_DMG_17_any_weapon_parry_rolls_weapon_plus_extra_successes(rs, nu):
    """DMG-17 (#12): a parry with more successes than any attack rolls the weapon base + the
    extra successes (numetal: only against an unarmed attack)."""
    parrier = B(weapons=("Sword",), Melee=3)
    r = resolve_attack(rs, A(), parrier, atk(weapon="Knife"),
                       defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter.dice == 6  # Str 2 + Sword 2 + 2 extra successes
    r = resolve_attack(nu, A(), parrier, atk(weapon="Knife"),
                       defense=Defense("b", "parry", weapon="Sword"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter is None
    club = B(weapons=("Club",), Melee=3)
    r = resolve_attack(rs, A(), club, atk(), defense=Defense("b", "parry", weapon="Club"),
                       faces=F(1, 5), defense_faces=F(3, 5))
    assert r.defense.counter.dice == 6 and r.defense.counter_type == "bashing"


@pytest.mark.rule("COMP-02")
def test_COMP_02_dazed_at_equal_or_over_stamina_and_shaken_off(rs, nu):
    """COMP-02: dazed at damage after soak EQUAL to or over Stamina (+2 for vampires); a
    blood, Rage or Willpower point ignores it (numetal: over, and no way out)."""
    mortal = full(rs, Stamina=2)
    assert hit(rs, mortal, 4, "bashing", soak=[9, 9]).dazed is True  # 2 = 2
    assert hit(nu, mortal, 4, "bashing", soak=[9, 9]).dazed is False
    assert hit(rs, mortal, 4, "bashing", soak=[9, 2]).dazed is True
    vamp = full(rs, "vampire", Stamina=2, Fortitude=0)
    assert DZ.daze_threshold(rs, vamp) == 4
    assert DZ.is_dazed(rs, vamp, 4) and not DZ.is_dazed(nu, vamp, 4)
    wolf = full(rs, "shifter", race="Garou", Stamina=3)
    assert DZ.daze_threshold(rs, wolf) == 3 and DZ.daze_threshold(nu, wolf) == 5
    paid = DZ.shake_off_daze(vamp, rs, "Blood")
    assert paid.pools["Blood"].current == vamp.pools["Blood"].current - 1
    assert DZ.shake_off_daze(mortal, rs, "Willpower").pools["Willpower"].current == \
        mortal.pools["Willpower"].current - 1
    with pytest.raises(IllegalAction, match="no way to shake off"):
        DZ.shake_off_daze(mortal, nu, "Willpower")


@pytest.mark.rule("COMP-02")
def test_COMP_02_each_family_shakes_a_daze_only_with_its_own_pool(rs):
    """COMP-02: "A blood point, rage point or willpower (for mortals)": Blood for vampires,
    Rage for shifters, Willpower only for mortals (and ghouls, mortals fed vitae); a
    vampire cannot shake it with Willpower, a mage has nothing to spend."""
    vamp = full(rs, "vampire", Stamina=2)
    with pytest.raises(IllegalAction, match="A vampire shakes off a daze with a point of "
                                            "Blood"):
        DZ.shake_off_daze(vamp, rs, "Willpower")
    wolf = full(rs, "shifter", race="Garou", pools={"Rage": 3})
    assert DZ.daze_pool(wolf, rs, "rage") == "Rage"
    with pytest.raises(IllegalAction, match="point of Rage"):
        DZ.daze_pool(wolf, rs, "Willpower")
    assert DZ.daze_pool(full(rs, "ghoul"), rs, "Willpower") == "Willpower"
    with pytest.raises(IllegalAction, match="point of Willpower"):
        DZ.daze_pool(full(rs), rs, "Blood")
    with pytest.raises(IllegalAction, match="Nothing lets a mage shake off a daze"):
        DZ.daze_pool(full(rs, "mage"), rs, "Willpower")


# ---------------------------------------------------------------- MAN


@pytest.mark.rule("MAN-02")
def test_MAN_02_rear_bonus_lost_if_the_target_sees_behind(rs, nu):
    eyes = Context(target=Side(sees_behind=True))
    assert build_attack_pool(rs, A(), B(), atk(position="rear"), eyes).dice == 5
    assert build_attack_pool(nu, A(), B(), atk(position="rear"), eyes).dice == 7
    assert build_attack_pool(rs, A(), B(), atk(position="rear")).dice == 7


@pytest.mark.rule("MAN-04")
def test_MAN_04_half_movement_without_penalty(rs, nu):
    """MAN-04 (#17 Movement): half the movement rate and still attack, no dice lost."""
    moved = Context(attacker=Side(moved_yards=3))
    assert build_attack_pool(rs, A(), B(), atk(), moved).dice == 5
    assert build_attack_pool(nu, A(), B(), atk(), moved).dice == 2
    with pytest.raises(IllegalAction, match="at most 14 yards"):
        build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=15)))


# ---------------------------------------------------------------- CLOSE


@pytest.mark.rule("CLOSE-01")
def test_CLOSE_01_bite_only_after_a_clinch_aggravated_from_vampires_and_werewolves(rs, nu):
    """CLOSE-01: every bite needs a clinch or grab first (numetal: a Garou in Crinos bites
    freely); vampire and werewolf bites are aggravated, others lethal."""
    crinos = A(splat="shifter", race="Garou", form="Crinos")
    with pytest.raises(IllegalAction, match="clinch or hold"):
        build_attack_pool(rs, crinos, B(), atk("bite"))
    assert resolve_attack(nu, crinos, B(), atk("bite"), faces=F(1, 6)).hit
    held = Context(grapple="clinch")
    r = resolve_attack(rs, crinos, B(), atk("bite"), held, faces=F(1, 6))
    assert r.damage_type == "aggravated" and r.damage.terms == (("Strength", 3), ("bite", 1))
    r = resolve_attack(rs, A(splat="vampire"), B(), atk("bite"), held, faces=F(1, 6))
    assert r.damage_type == "aggravated" and r.pool.dice == 6
    with pytest.raises(IllegalAction, match="clinch or hold"):
        build_attack_pool(rs, A(splat="vampire"), B(), atk("bite"),
                          Context(tackled_last_turn=True))
    # numetal's Redcap bite (Glamour for Str+2 aggravated, CLOSE-01) is its house rule: a
    # Redcap in everyman has no bite (issue 10).
    redcap = A(splat="changeling", race="Redcap", pools={"Glamour": 2})
    with pytest.raises(IllegalAction, match="cannot bite"):
        resolve_attack(rs, redcap, B(), atk("bite"), held, faces=F(1, 6))
    assert resolve_attack(nu, redcap, B(), atk("bite"), held, faces=F(1, 6)).damage_type == \
        "aggravated"


@pytest.mark.rule("CLOSE-03")
def test_CLOSE_03_clinch_both_locked_no_defenses_bite_allowed(rs):
    """CLOSE-03: in a clinch only damage, bite or escape; neither may dodge, parry or block."""
    vamp = A(splat="vampire")
    assert resolve_attack(rs, vamp, B(), atk("bite"), Context(grapple="clinch"),
                          faces=F(1, 6)).hit
    for kind in ("dodge", "block"):
        with pytest.raises(IllegalAction):
            build_defense_pool(rs, B(), A(), Defense("b", kind), atk("clinch_strike"),
                               Context(grapple="clinch"))
    with pytest.raises(IllegalAction, match="In a clinch you may only"):
        build_attack_pool(rs, A(), B(), atk("kick"), Context(grapple="clinch"))


@pytest.mark.rule("CLOSE-04")
def test_CLOSE_04_disarm_by_successes_over_strength(rs, nu):
    """CLOSE-04: Dex + Melee; more attack successes than the target's Strength take the
    weapon (numetal: the damage roll over Strength)."""
    armed_foe = Context(target=Side(weapon="Knife"))
    r = resolve_attack(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(3, 5))
    assert r.pool.terms == (("Dexterity", 3), ("Melee", 2)) and not r.deals_damage
    assert disarm_succeeds(r, 0)  # 3 successes > Strength 2, whatever the damage
    r2 = resolve_attack(rs, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(2, 5))
    assert not disarm_succeeds(r2, 9)  # 2 successes are not more than Strength 2
    rn = resolve_attack(nu, A(), B(), atk("disarm", weapon="Sword"), armed_foe, faces=F(3, 5))
    assert not disarm_succeeds(rn, 0)


@pytest.mark.rule("CLOSE-08")
def test_CLOSE_08_multiple_opponents_defense_only(rs, nu):
    ctx = Context(attacker=Side(opponents=3), target=Side(opponents=8))
    assert build_attack_pool(rs, A(), B(), atk(), ctx).difficulty == 6
    assert build_attack_pool(nu, A(), B(), atk(), ctx).difficulty == 8
    assert build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(), ctx).difficulty == 10


@pytest.mark.rule("CLOSE-08")
def test_CLOSE_08_each_person_counts_two_attackers_are_plus_two(rs, nu):
    """CLOSE-08: "+1 difficulty for each person up to a max of +4": every attacker of the
    tandem counts (READING, maneuvers.multiple_opponents.counts: every); numetal counts
    each beyond the first. One attacker alone is no tandem."""
    def dodge(ruleset, n):
        ctx = Context(target=Side(opponents=n))
        return build_defense_pool(ruleset, B(), A(), Defense("b", "dodge"), atk(), ctx)
    assert dodge(rs, 1).difficulty == 6
    assert C.mod(dodge(rs, 2), "2 opponents").difficulty == 2
    assert dodge(rs, 3).difficulty == 9 and dodge(rs, 5).difficulty == 10
    assert C.mod(dodge(nu, 2), "2 opponents").difficulty == 1


@pytest.mark.rule("CLOSE-11")
def test_CLOSE_11_sweep_knockdown_at_difficulty_eight(rs, nu):
    """CLOSE-11: the swept target rolls Dex + Athletics at 8 (numetal: +2, also 8 from 6;
    but 8 here stays 8 whatever the base, and the effect says so)."""
    r = resolve_attack(rs, A(), B(), atk("sweep"), faces=F(1, 5))
    assert r.pool.difficulty == 7 and r.damage.terms == (("Strength", 3),)
    (kd,) = [e for e in r.effects if e.kind == "knockdown_check"]
    assert kd.absolute == 8
    rn = resolve_attack(nu, A(), B(), atk("sweep"), faces=F(1, 5))
    (kdn,) = [e for e in rn.effects if e.kind == "knockdown_check"]
    assert kdn.absolute is None and kdn.difficulty == 2
    res = knockdown_check(rs, B(Athletics=1), absolute=kd.absolute, faces=(8, 2, 2))
    assert res.standing and res.roll.difficulty == 8
    assert not knockdown_check(rs, B(Athletics=1), absolute=kd.absolute,
                               faces=(7, 2, 2)).standing


@pytest.mark.rule("CLOSE-14")
def test_CLOSE_14_the_kiss_drains_three_a_turn(rs, nu):
    """CLOSE-14: a vampire drains up to 3 blood a turn; a mortal victim is helpless."""
    vamp = full(rs, "vampire", pools={"Blood": 4})
    victim = full(rs, "ghoul", pools={"Blood": 5})
    res = K.drain(rs, vamp, victim)
    assert res.drained == 3 and res.victim.pools["Blood"].current == 2
    assert res.vampire.pools["Blood"].current == 7 and not res.helpless  # a ghoul acts
    with pytest.raises(IllegalAction, match="at most 3"):
        K.drain(rs, vamp, victim, 4)
    other = full(rs, "vampire", pools={"Blood": 1})
    res = K.drain(rs, vamp, other)
    assert res.drained == 1 and not res.helpless
    assert K.drain(rs, vamp, full(rs)).helpless
    with pytest.raises(IllegalAction, match="Only a vampire"):
        K.drain(rs, full(rs), victim)
    with pytest.raises(IllegalAction, match="no Kiss") as why:
        K.drain(nu, vamp, victim)
    assert "CLOSE-" not in str(why.value)  # player text names no rule ID
    with pytest.raises(InputError):
        K.drain(rs, vamp, victim, -1)


@pytest.mark.rule("CLOSE-14")
def test_CLOSE_14_resisting_self_control_at_8_mortals_only_with_willpower_9(rs):
    """CLOSE-14: a vampire resists with Self-Control at 8; a mortal only with Willpower 9+,
    rolling every turn."""
    vamp = full(rs, "vampire", **{"Self-Control": 3})
    assert K.resist(rs, vamp, faces=[8, 2, 2]).resisted
    assert not K.resist(rs, vamp, faces=[7, 7, 7]).resisted
    weak = full(rs, pools={"Willpower": (9, 8)})  # the permanent rating counts
    with pytest.raises(IllegalAction, match="Willpower 9"):
        K.resist(rs, weak)
    strong = full(rs, pools={"Willpower": (2, 9)})
    out = K.resist(rs, strong, faces=[8] + [2] * 8)
    assert out.resisted and out.roll.pool == 9 and out.roll.difficulty == 8


# ---------------------------------------------------------------- RNG


@pytest.mark.rule("RNG-01")
def test_RNG_01_scope_adds_two_once(rs):
    """RNG-01: a scope adds +2 to the first turn of aiming: once, not per turn."""
    ctx = Context(range_yards=10)
    one = build_attack_pool(rs, A(Perception=4), B(),
                            atk(weapon="Hunting rifle, scoped", aim_turns=1), ctx)
    three = build_attack_pool(rs, A(Perception=4), B(),
                              atk(weapon="Hunting rifle, scoped", aim_turns=3), ctx)
    assert C.mod(one, "aimed").dice == 3 and C.mod(three, "aimed").dice == 5


@pytest.mark.rule("RNG-07")
def test_RNG_07_strafe_ten_foot_area_equal_split_no_halving(rs, nu):
    """RNG-07: targets within 10 feet (3 yards), successes split as equally as possible, the
    clip emptied; a single target keeps all its successes (numetal: halved)."""
    targets = {"b": B(), "c": B(), "d": B()}
    ctx = Context(range_yards=10, spread_yards=3)
    out = resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16), leftover_to=("d",))
    assert sorted(out.shares.values()) == [2, 2, 3] and sum(out.shares.values()) == 7
    assert all(r.weapon_after.ammo == 0 for r in out.results)
    with pytest.raises(IllegalAction, match="within 3 yards"):
        resolve_strafe(rs, A(), targets, atk("strafe", weapon="Assault rifle"),
                       Context(range_yards=10, spread_yards=4), faces=F(7, 16))
    one = resolve_attack(rs, A(), B(), atk("strafe", weapon="Assault rifle"), ctx,
                         faces=F(7, 16))
    assert one.successes == 7
    assert resolve_attack(nu, A(), B(), atk("strafe", weapon="Assault rifle"), ctx,
                          faces=F(7, 16)).successes == 3


@pytest.mark.rule("RNG-09")
def test_RNG_09_off_hand_added_to_the_multiple_action_penalty(rs, nu):
    """RNG-09: the off-hand modifier is always added on top of the multiple-action penalty
    (no Ambidextrous waiver in everyman's list)."""
    p = build_attack_pool(rs, A(Ambidextrous=2), B(), atk(weapon="Knife", off_hand=True))
    assert p.difficulty == 7
    assert build_attack_pool(nu, A(Ambidextrous=2), B(),
                             atk(weapon="Knife", off_hand=True)).difficulty == 6
    assert not two_weapons_no_multi_penalty(rs, A(Ambidextrous=2), 0)
    assert two_weapons_no_multi_penalty(nu, A(Ambidextrous=2), 0)


# ---------------------------------------------------------------- HEAL-09


@pytest.mark.rule("HEAL-09")
def test_HEAL_09_vampire_survival_stamina_at_8_spending_blood(rs, nu):
    """HEAL-09: Survival + Stamina at 8; a blood point spent whatever the result; success
    heals a level of lethal or bashing; a botch adds a level."""
    vamp = full(rs, "vampire", Survival=1, Stamina=2, pools={"Blood": 5},
                health={"lethal": 1, "bashing": 0})
    ok = FH.combat_heal(rs, vamp, faces=[8, 2, 2])
    assert ok.healed == {"lethal": 1} and ok.cost == {"Blood": 1}
    assert ok.roll.difficulty == 8 and ok.sheet.pools["Blood"].current == 4
    assert "reflex" not in ok.flags
    miss = FH.combat_heal(rs, vamp, faces=[7, 7, 7])
    assert miss.healed == {} and miss.sheet.pools["Blood"].current == 4
    bruised = full(rs, "vampire", Survival=1, Stamina=2, pools={"Blood": 5},
                   health={"bashing": 1})
    botch = FH.combat_heal(rs, bruised, kind="bashing", faces=[1, 2, 2])
    assert botch.health_after.bashing == 2 and botch.sheet.pools["Blood"].current == 4
    ghoul = full(rs, "ghoul", Survival=0, Stamina=2, pools={"Blood": 1}, health={"lethal": 1})
    assert FH.combat_heal(rs, ghoul, faces=[9, 2]).healed == {"lethal": 1}
    dry = full(rs, "vampire", Survival=1, Stamina=2, pools={"Blood": 0}, health={"lethal": 1})
    with pytest.raises(IllegalAction, match="Not enough Blood"):
        FH.combat_heal(rs, dry, faces=[9, 9, 9])
    with pytest.raises(IllegalAction, match="aggravated"):
        FH.combat_heal(rs, full(rs, "vampire", Stamina=2, health={"aggravated": 1}),
                       kind="aggravated", faces=[9, 9])
    with pytest.raises(IllegalAction, match="no in-combat healing roll"):
        FH.combat_heal(nu, vamp, faces=[8, 2, 2])


@pytest.mark.rule("HEAL-09")
def test_HEAL_09_werewolf_stamina_alone_at_8_free(rs):
    wolf = full(rs, "shifter", race="Garou", form="Crinos", Stamina=3, Survival=4,
                health={"lethal": 1})
    res = FH.combat_heal(rs, wolf, faces=[8, 2, 2])  # Stamina only: 3 dice
    assert res.healed == {"lethal": 1} and res.cost == {} and res.roll.pool == 3
    assert "reflex" in res.flags
    assert FH.combat_heal(rs, wolf, faces=[1, 2, 2]).health_after.lethal == 1  # no extra
    with pytest.raises(IllegalAction, match="Only these heal"):
        FH.combat_heal(rs, full(rs, health={"lethal": 1}), faces=[9])


# ---------------------------------------------------------------- issue 10: no numetal leaks


@pytest.mark.rule("HEAL-09", "HLT-06", "HLT-08")
def test_HEAL_09_the_vampires_roll_takes_the_wound_penalty(rs):
    """#11 "Dice penalties apply to all actions EXCEPT Soaking": the vampires' roll is their
    action and loses dice to wounds (a Willpower spent on wounds drops it, HLT-08); the
    werewolves' automatic roll is a reflex and does not."""
    vamp = full(rs, "vampire", Survival=1, Stamina=2, pools={"Blood": 5},
                health={"lethal": 3})  # Injured: -1
    pool = FH.combat_heal_pool(rs, vamp)
    assert pool.dice == 2 and C.mod(pool, "wounds").dice == -1
    res = FH.combat_heal(rs, vamp, faces=[8, 2])
    assert res.roll.pool == 2 and res.healed == {"lethal": 1}
    assert FH.combat_heal_pool(rs, vamp, ignore_wounds=True).dice == 3
    wolf = full(rs, "shifter", race="Garou", form="Homid", Stamina=3, health={"lethal": 3})
    assert FH.combat_heal_pool(rs, wolf).dice == 3


@pytest.mark.rule("MAN-08", "TURN-11")
def test_MAN_08_a_shifter_spends_rage_and_splits(rs, nu):
    """MAN-08: the list lets Rage actions go last after the everyman actions (#5) and
    splits in the everyman turn (#6): numetal's "Rage OR split" does not apply."""
    def declared(ruleset):
        st = started(ruleset, [("v", 8, 7), ("b", 3, 2)])
        st = S.spend_rage(st, "v", 1, ruleset, rage=4, dex=3, wits=3).state
        st = S.declare(st, "b", [{"kind": "strike", "target": "v"}], ruleset).state
        return S.declare(st, "v", [STRIKE, {"kind": "kick", "target": "b"},
                                   {"kind": "strike", "target": "b", "extra": "rage"}],
                         ruleset)
    assert [a.get("extra") for a in declared(rs).state.get("v").actions] == [None, None,
                                                                             "rage"]
    with pytest.raises(IllegalAction, match="MAN-08"):
        declared(nu)


@pytest.mark.rule("RNG-01")
def test_RNG_01_no_shotgun_ban_and_no_target_speed_limit(rs, nu):
    """RNG-01: the list's aiming: Firearms 1, up to Perception, a scope +2 on the first
    turn; no shotgun/SMG ban and no limit on the target's speed (numetal's)."""
    running = Context(range_yards=10, target=Side(speed="run"))
    for gun in ("Shotgun", "SMG, small", "Rifle"):
        pool = build_attack_pool(rs, A(), B(), atk(weapon=gun, aim_turns=1), running)
        assert C.mod(pool, "aimed").dice == 1
    with pytest.raises(IllegalAction, match="cannot be aimed"):
        build_attack_pool(nu, A(), B(), atk(weapon="Shotgun", aim_turns=1),
                          Context(range_yards=10))
    with pytest.raises(IllegalAction, match="faster than a walk"):
        build_attack_pool(nu, A(), B(), atk(weapon="Rifle", aim_turns=1), running)


@pytest.mark.rule("RNG-07")
def test_RNG_07_no_extra_difficulty_to_dodge_a_strafe(rs, nu):
    ctx = Context(range_yards=10)
    strafe = atk("strafe", weapon="Assault rifle")
    assert build_defense_pool(rs, B(), A(), Defense("b", "dodge", to_cover=True), strafe,
                              ctx).difficulty == 6
    assert build_defense_pool(nu, B(), A(), Defense("b", "dodge", to_cover=True), strafe,
                              ctx).difficulty == 7


@pytest.mark.rule("ATK-07", "ATK-08")
def test_ATK_07_08_no_specialty_waivers_for_nocking_or_reloading(rs, nu):
    """ATK-07/08: numetal's Archery-specialty nocking waiver and crossbow-specialty one-action
    reload are house rules: every shot nocks, a crossbow reloads in two actions."""
    from wodcombat.combat.d10.weapon_ready import crossbow_reload_actions
    archer = A(Archery=3, specialties={"Archery": "Short bow"})
    with pytest.raises(IllegalAction, match="Nock an arrow"):
        resolve_attack(rs, archer, B(), atk(weapon="Short bow"), Context(range_yards=10),
                       faces=F(1, 5))
    xbow = A(Archery=3, specialties={"Archery": "Crossbow"})
    assert crossbow_reload_actions(rs, xbow) == 2
    assert crossbow_reload_actions(nu, xbow) == 1


@pytest.mark.rule("HEAL-01", "HEAL-03", "HEAL-10")
def test_HEAL_no_supernatural_healing_but_the_lists_roll(rs):
    """HEAL-01..05/07/10 are numetal's: everyman's healing: is the core's empty table, and
    only field_healing (HEAL-09) heals in a fight."""
    assert not (rs.section("healing") or {}).get("healers")
    assert not (rs.section("healing") or {}).get("regeneration")
    assert set(rs.section("field_healing")["in_combat"]) == {"vampire", "ghoul", "shifter"}


@pytest.mark.rule("DMG-15")
def test_DMG_15_a_book_rule_the_core_carries(rs):
    """DMG-15 (V20 p. 284-285, carried by the core; the list is silent): a bullet does
    bashing to a vampire, halved after the soak; a head shot stays lethal."""
    vamp = full(rs, "vampire", Stamina=2, Fortitude=0)
    r = hit(rs, vamp, 4, "lethal", source="firearm", soak=[2, 2])
    assert r.damage_type == "bashing" and r.applied == 2
    carried = rs.section("catalog")["DMG-15"]
    assert "V20 p. 284-285" in carried["book"] and "seed" not in carried


@pytest.mark.rule("TURN-05", "INIT-04", "INIT-05", "INIT-03")
def test_TURN_05_INIT_04_05_the_book_turn(rs):
    """The classic turn only (TURN-05 simple and INIT-04 reroll are numetal's), no Gurahl
    winter (INIT-05), the wound penalty applied to initiative (INIT-03, V20 p. 271)."""
    for opts in ({"mode": "simple"}, {"reroll_initiative": True}):
        with pytest.raises(IllegalAction, match="not in the everyman rules"):
            S.new_combat("c1", rs, **opts)
    st = S.join(S.new_combat("c1", rs, flags=["winter"]), "a", "A", rs).state
    step = S.roll_initiative(st, "a", rs, rating=6, faces=[5], race="Gurahl", wound_penalty=1)
    assert step.state.get("a").init_total == 10


@pytest.mark.rule("DEF-02", "ATK-03")
def test_dodge_is_dexterity_athletics_and_armor_costs_dice(rs, nu):
    """V20: dodge = Dexterity + Athletics; armor's penalty comes off Dexterity rolls as dice
    (numetal: Dexterity + Dodge, armor as difficulty)."""
    d = build_defense_pool(rs, B(Athletics=3), A(), Defense("b", "dodge"), atk())
    assert d.terms == (("Dexterity", 2), ("Athletics", 3))
    assert build_defense_pool(nu, B(Athletics=3), A(), Defense("b", "dodge"),
                              atk()).terms == (("Dexterity", 2), ("Dodge", 2))
    p = build_attack_pool(rs, A(armor="Flak jacket"), B(), atk())
    assert C.mod(p, "armor").dice == -2 and p.difficulty == 6


@pytest.mark.rule("CLOSE-14")
def test_CLOSE_14_only_mortals_are_helpless(rs):
    """CLOSE-14: "On mortals it renders them helpless": shifters, mages and ghouls act."""
    vamp = full(rs, "vampire", pools={"Blood": 4})
    for splat, helpless in (("mortal", True), ("ghoul", False), ("mage", False),
                            ("vampire", False)):
        assert K.is_helpless(rs, full(rs, splat)) is helpless, splat
        assert K.drain(rs, vamp, full(rs, splat)).helpless is helpless, splat
    assert not K.is_helpless(rs, full(rs, "shifter", race="Garou"))


@pytest.mark.rule("RNG-01")
def test_RNG_01_aiming_any_projectile_needs_firearms_one(rs, nu):
    """RNG-01: "aiming a weapon (projectile) ... must have a Firearms skill of at least 1":
    a crossbow or bow too (READING; the core takes Archery 2 instead)."""
    ctx = Context(range_yards=10)
    archer = A(Firearms=0, Archery=3)
    with pytest.raises(IllegalAction, match="needs Firearms 1"):
        build_attack_pool(rs, archer, B(), atk(weapon="Crossbow", aim_turns=1), ctx)
    assert C.mod(build_attack_pool(nu, archer, B(), atk(weapon="Crossbow", aim_turns=1),
                                   ctx), "aimed").dice == 1
    gunner = A(Firearms=1, Archery=0)
    assert C.mod(build_attack_pool(rs, gunner, B(), atk(weapon="Crossbow", aim_turns=1),
                                   ctx), "aimed").dice == 1
