"""The `v20` ruleset (seed 003_7a5b1578b9e188f1.txt: V20's general maneuvers and
complications, no house rules) under the real rules/ folder.

v20 extends the core (rules/core/): every catalog ID whose "where / variants" column names
v20 (or says all d10) is exercised: shared checks (d10_checks.py) where V20 says what numetal
says, and a test comparing with numetal where it differs; plus numetal's house rules being
off (issue 10: armor as dice, no Athletics penalty on throws, no Gurahl winter, no PWR-02..04,
Dodge = Dexterity + Athletics, no simple turn or initiative re-roll).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.d10.attack_mods import substitution_difficulty
from wodcombat.combat.d10.attack_resolve import build_attack_pool, resolve_attack
from wodcombat.combat.d10.attack_values import Context, Defense, Side, WeaponState
from wodcombat.combat.d10.reflex_rolls import knockdown_check
from wodcombat.combat.d10.weapon_ready import crossbow_reload_actions
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.rules.ruleset import load_ruleset
from tests.engine import d10_checks as C
from tests.engine.d10_checks import A, B, DODGE, STRIKE, F, atk, declare_all, events, started

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "v20")


@pytest.fixture(scope="module")
def nu():
    return load_ruleset(RULES, "numetal")


SAME = [
    "DICE-01", "DICE-02", "DICE-03", "DICE-04", "DICE-05", "DICE-07", "DICE-09",
    "INIT-01",
    "ATK-01", "ATK-05",
    "DMG-01", "DMG-02", "DMG-03", "DMG-04", "DMG-18",
    "HLT-01", "HLT-02",
    "MAN-01", "MAN-02", "MAN-05", "MAN-10", "MAN-11",
    "DEF-01", "DEF-03",
    "CLOSE-03", "CLOSE-07", "CLOSE-11",
    "RNG-05",
    "COMP-02",
]


@pytest.mark.parametrize("rule_id", C.params(SAME))
def test_v20_same_as_numetal(rs, rule_id):
    """The shared check of ``rule_id`` holds under v20."""
    C.CHECKS[rule_id](rs)


def test_v20_extends_the_core(rs):
    """Issue 10: v20 extends the core, so no numetal house rule reaches it by inheritance."""
    assert rs.parent == "core"


@pytest.mark.rule("TURN-08", "DICE-09")
def test_TURN_08_abort_at_six_to_a_defense_roll_or_point(rs, nu):
    """TURN-08: a reflex WP roll at 6 (a 6 succeeds, a 5 fails) or a WP point, to block,
    dodge or parry only; a failed roll stands (numetal lets a point follow it)."""
    def fresh(ruleset):
        st = started(ruleset, [("a", 8, 7), ("b", 3, 2)])
        return declare_all(st, ruleset, {"a": [STRIKE], "b": [{"kind": "strike",
                                                               "target": "a"}]})

    (ev,) = events(S.abort(fresh(rs), "b", DODGE, rs, willpower=2, faces=[6, 2]), "abort")
    assert ev["success"] and ev["roll"]["difficulty"] == 6 and ev["performed"]
    st = S.abort(fresh(rs), "b", DODGE, rs, willpower=2, faces=[5, 2]).state
    with pytest.raises(IllegalAction, match="declared action stands"):
        S.abort(st, "b", DODGE, rs, spend_willpower=True)
    nst = S.abort(fresh(nu), "b", DODGE, nu, willpower=2, faces=[5, 2]).state
    assert S.abort(nst, "b", DODGE, nu, spend_willpower=True).state.get("b").used == (0,)
    with pytest.raises(IllegalAction, match="block, dodge, parry"):
        S.abort(fresh(rs), "b", {"kind": "kick"}, rs, spend_willpower=True)


@pytest.mark.rule("MAN-04")
def test_MAN_04_half_the_run_with_no_penalty(rs, nu):
    moved = Context(attacker=Side(moved_yards=3))
    assert build_attack_pool(rs, A(), B(), atk(), moved).dice == 5
    assert build_attack_pool(nu, A(), B(), atk(), moved).dice == 2
    with pytest.raises(IllegalAction, match="at most 14 yards"):
        build_attack_pool(rs, A(), B(), atk(), Context(attacker=Side(moved_yards=15)))


@pytest.mark.rule("MAN-12", "COMP-01")
def test_COMP_01_MAN_12_blind_all_actions_plus_two_no_ranged(rs, nu):
    """COMP-01 / MAN-12: blind: +2 difficulty on all actions, ranged attacks impossible
    (numetal: +6 ranged); attacks on a blinded target +2 dice; Eyes of the Beast removes."""
    blind = Side(conditions=frozenset({"blinded"}))
    gun = atk(weapon="Pistol, heavy")
    with pytest.raises(IllegalAction, match="ranged attack"):
        build_attack_pool(rs, A(), B(), gun, Context(attacker=blind, range_yards=5))
    assert build_attack_pool(nu, A(), B(), gun, Context(attacker=blind, range_yards=5)
                             ).difficulty == 12
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=blind)).difficulty == 8
    from wodcombat.combat.d10.attack_resolve import build_defense_pool
    d = build_defense_pool(rs, B(), A(), Defense("b", "dodge"), atk(),
                           Context(target=blind))
    assert d.difficulty == 8
    on_blind = Context(target=Side(conditions=frozenset({"blinded"})))
    assert build_attack_pool(rs, A(), B(), atk(), on_blind).dice == 7
    beast = Side(conditions=frozenset({"blinded"}), active_powers=frozenset({"Eyes of the Beast"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=beast)).difficulty == 6


@pytest.mark.rule("COMP-03")
def test_COMP_03_fully_immobilized_is_hit_automatically(rs, nu):
    """COMP-03: partly immobilized +2 dice; fully: an automatic hit, no roll, no defense
    (numetal: a roll with at least one success)."""
    held = Context(target=Side(conditions=frozenset({"immobilized"})))
    assert build_attack_pool(rs, A(), B(), atk(), held).dice == 7
    tied = Context(target=Side(conditions=frozenset({"immobilized_fully"})))
    r = resolve_attack(rs, A(), B(), atk(), tied)
    assert r.hit and r.roll is None and "automatic hit" in r.auto
    with pytest.raises(IllegalAction, match="cannot defend"):
        resolve_attack(rs, A(), B(), atk(), tied, defense=Defense("b", "dodge"))
    rn = resolve_attack(nu, A(), B(), atk(), tied, faces=(1, 2, 2, 2, 2))
    assert rn.roll is not None and rn.successes == 1


@pytest.mark.rule("COMP-04")
def test_COMP_04_knockdown_botch_is_a_level_of_normal_damage(rs, nu):
    """COMP-04: success up at once (-2 initiative next turn); failure: rising takes an
    action; botch: an automatic level of normal (bashing) damage, not soaked (issue 9,
    defect 26; as numetal); down: own close attacks -2 dice, attacks on you +2."""
    s = B(Athletics=1)
    up = knockdown_check(rs, s, faces=(6, 2, 2))
    assert up.standing and up.initiative_next_turn == -2
    assert knockdown_check(rs, s, faces=(5, 2, 2)).stand_needs_action
    hurt = knockdown_check(rs, s, faces=(1, 2, 2))
    assert hurt.damage == 1 and hurt.damage_type == "bashing" and not hurt.soakable
    assert not knockdown_check(nu, s, faces=(1, 2, 2)).soakable
    prone = Side(conditions=frozenset({"prone"}))
    assert build_attack_pool(rs, A(), B(), atk(), Context(attacker=prone)).dice == 3
    assert build_attack_pool(rs, A(), B(), atk(), Context(target=prone)).dice == 7


@pytest.mark.rule("MAN-11")
def test_MAN_11_stake_heart_difficulty_nine_three_levels(rs):
    """MAN-11 (V20 p. 278): target the heart at difficulty 9; three levels after soak
    paralyse; the victim stays conscious."""
    r = resolve_attack(rs, A(), B(splat="vampire"), atk(weapon="Stake", location="heart"),
                       faces=F(1, 5, hit=9))
    assert r.pool.difficulty == 9 and r.hit
    r8 = resolve_attack(rs, A(), B(splat="vampire"), atk(weapon="Stake", location="heart"),
                        faces=F(1, 5, hit=8))
    assert not r8.hit
    (e,) = [e for e in r.effects if e.kind == "staked_if_damage"]
    assert e.value == 3 and "conscious" in e.detail


# ---------------------------------------------------------------- numetal house rules off


@pytest.mark.rule("DICE-06")
def test_no_secondary_ability_substitution(rs, nu):
    """DICE-06 is numetal's: v20 offers only stated abilities (Throwing does not stand in
    for Athletics at -1)."""
    ctx = Context(range_yards=5)
    thrower = A(Athletics=1, Throwing=3)
    p = build_attack_pool(rs, thrower, B(), C.atk("throw", weapon="Throwing knife"), ctx)
    assert ("Athletics", 1) in p.terms and p.difficulty == 6
    p = build_attack_pool(nu, thrower, B(), C.atk("throw", weapon="Throwing knife"), ctx)
    assert ("Throwing", 3) in p.terms and p.difficulty == 5
    with pytest.raises(IllegalAction, match="no ability substitution"):
        substitution_difficulty(rs, "Athletics", "Throwing")
    # an explicitly stated substitution stays: a crossbow with Firearms at +1
    p = build_attack_pool(rs, A(Athletics=0), B(), atk(weapon="Crossbow"), Context(range_yards=10))
    assert ("Firearms", 3) in p.terms and p.difficulty == 7


@pytest.mark.rule("ATK-07", "ATK-08")
def test_no_specialty_shortcuts_for_bows_and_crossbows(rs, nu):
    """numetal's house rules off: an Archery specialty does not skip nocking, and a crossbow
    specialty does not halve the reload."""
    spec = A(Archery=3, specialties={"Archery": "crossbow and short bow"})
    loose = Context(range_yards=20, weapon_state=WeaponState("Short bow"))
    with pytest.raises(IllegalAction, match="Nock an arrow"):
        build_attack_pool(rs, spec, B(), atk(weapon="Short bow"), loose)
    assert build_attack_pool(nu, spec, B(), atk(weapon="Short bow"), loose).dice
    assert crossbow_reload_actions(rs, spec) == 2
    assert crossbow_reload_actions(nu, spec) == 1


@pytest.mark.rule("PWR-01")
def test_no_banking_blood_over_several_turns(rs, nu):
    """numetal's PWR-01 house rule (bank blood toward a power over turns) is off; the V20
    generation limit stays."""
    from wodcombat.combat.d10 import powers as P

    neo = C.full(rs, "vampire")  # 13th generation: 1 blood a turn
    t = P.check_spend(rs, neo, P.TurnSpending(), "Blood", 1, purpose="Blood Rage")
    assert dict(t.carried) == {}
    assert dict(P.check_spend(nu, neo, P.TurnSpending(), "Blood", 1,
                              purpose="Blood Rage").carried) == {"Blood Rage": 1}
    with pytest.raises(IllegalAction, match="at most 1 Blood a turn"):
        P.check_spend(rs, neo, P.TurnSpending(), "Blood", 2)


# ---------------------------------------------------------------- issue 10: no house rules


@pytest.mark.rule("ATK-03")
def test_ATK_03_armor_takes_dice_off_attacks_and_dodges(rs, nu):
    """ATK-03 (V20 p. 296): armor's penalty comes off Dexterity-based dice pools, attacks and
    defenses alike; the difficulty stays 6 (numetal: +1 difficulty, dodge untouched)."""
    vest = A(armor="Kevlar vest")
    p = build_attack_pool(rs, vest, B(), atk())
    assert (p.dice, p.difficulty) == (4, 6)  # Dex 3 + Brawl 2 - 1
    assert C.mod(p, "armor").dice == -1 and C.mod(p, "armor").difficulty == 0
    n = build_attack_pool(nu, vest, B(), atk())
    assert (n.dice, n.difficulty) == (5, 7)
    from wodcombat.combat.d10.attack_resolve import build_defense_pool
    d = build_defense_pool(rs, B(armor="Kevlar vest", Athletics=2), A(), Defense("b", "dodge"),
                           atk())
    assert (d.dice, d.difficulty) == (3, 6)  # Dex 2 + Athletics 2 - 1
    r = resolve_attack(rs, vest, B(), atk(), faces=(8, 8, 2, 2))  # four dice rolled
    assert r.hit and r.successes == 2


@pytest.mark.rule("ATK-09", "DICE-07", "ATK-06")
def test_ATK_09_no_athletics_penalty_on_thrown_weapons(rs, nu):
    """Athletics is a Talent in V20: a thrower without it rolls Dexterity alone at the
    normal difficulty (numetal, ATK-09: +1)."""
    ctx = Context(range_yards=5)
    throw = C.atk("throw", weapon="Throwing knife")
    p = build_attack_pool(rs, A(Athletics=0), B(), throw, ctx)
    assert p.terms == (("Dexterity", 3),) and p.difficulty == 6
    assert build_attack_pool(nu, A(Athletics=0), B(), throw, ctx).difficulty == 7
    # a gun without Firearms (a Skill) still costs +1 (the core's book value)
    g = build_attack_pool(rs, A(Firearms=0), B(), atk(weapon="Pistol, heavy"),
                          Context(range_yards=10))
    assert g.terms == (("Dexterity", 3),) and g.difficulty == 7


@pytest.mark.rule("INIT-05", "INIT-03")
def test_INIT_05_no_gurahl_winter(rs):
    """INIT-05 is numetal's: v20 knows no winter flag and a Gurahl rolls Dexterity + Wits +
    1d10 with no race modifier, applied or listed; wounds are applied (INIT-03, V20 p. 271)."""
    assert S.turn_rules(rs).race_mods == ()
    st = S.join(S.new_combat("c1", rs), "a", "A", rs).state
    step = S.roll_initiative(st, "a", rs, rating=6, faces=[5], race="Gurahl")
    (ev,) = events(step, "initiative")
    assert step.state.get("a").init_total == 11
    assert not ev.get("modifiers") and not ev.get("not_applied")
    (ev,) = events(S.roll_initiative(st, "a", rs, rating=6, faces=[5], race="Gurahl",
                                     wound_penalty=-1), "initiative")
    assert ev["total"] == 10 and ev["modifiers"] == [{"reason": "wounds", "value": -1}]


@pytest.mark.rule("TURN-05", "INIT-04")
def test_TURN_05_INIT_04_no_simple_turn_or_reroll(rs, nu):
    """TURN-05's simple turn and INIT-04's re-roll are numetal's options: v20 refuses them
    by name and says what to type."""
    with pytest.raises(IllegalAction, match=r"simple turn .* is not in the v20 rules.*"
                                            r"\+combat/start v20"):
        S.new_combat("c1", rs, mode="simple")
    with pytest.raises(IllegalAction, match=r"every turn \(reroll\) is not in the v20 rules"):
        S.new_combat("c1", rs, reroll_initiative=True)
    assert S.new_combat("c1", rs).options.mode == "classic"
    assert S.new_combat("c1", nu, mode="simple", reroll_initiative=True).options.mode == "simple"


@pytest.mark.rule("DEF-02")
def test_DEF_02_dodge_is_dexterity_plus_athletics(rs, nu):
    """V20 has no Dodge ability: a dodge rolls Dexterity + Athletics (a Talent: Dexterity
    alone without it, no penalty); a Dodge rating counts for nothing and v20's sheet has no
    Dodge trait (numetal, DEF-02: Dexterity + Dodge)."""
    from wodcombat.combat.d10.attack_resolve import build_defense_pool
    sheet = B(Dodge=3, Athletics=1)
    d = build_defense_pool(rs, sheet, A(), Defense("b", "dodge"), atk())
    assert d.terms == (("Dexterity", 2), ("Athletics", 1)) and d.difficulty == 6
    n = build_defense_pool(nu, sheet, A(), Defense("b", "dodge"), atk())
    assert n.terms == (("Dexterity", 2), ("Dodge", 3))
    bare = build_defense_pool(rs, B(Dodge=3), A(), Defense("b", "dodge"), atk())
    assert bare.terms == (("Dexterity", 2),) and bare.difficulty == 6
    assert "Dodge" not in rs.traits.traits and "Dodge" in nu.traits.traits
    from wodcombat.combat.core.errors import InputError
    with pytest.raises(InputError, match="not a trait here"):
        rs.traits.resolve("Dodge")


@pytest.mark.rule("PWR-02", "PWR-03", "PWR-04")
def test_PWR_02_to_04_no_race_limits_on_powers(rs, nu):
    """PWR-02..04 are numetal's (PWR-03 also revised's): a v20 shifter spends Rage and
    Gnosis in one turn, a Kuei-jin Yin and Yang chi and more Demon Chi than Stamina, and no
    Arete or Lore effect is counted (there is nothing to declare as an effect)."""
    from wodcombat.combat.d10 import powers as P
    from wodcombat.combat.core.errors import InputError

    wolf = C.full(rs, "shifter", race="Garou", form="Homid")
    t = P.check_spend(rs, wolf, P.TurnSpending(), "Rage", 1)
    t = P.check_spend(rs, wolf, t, "Gnosis", 1)
    assert dict(t.spent) == {"Rage": 1, "Gnosis": 1}
    nwolf = C.full(nu, "shifter", race="Garou", form="Homid")
    with pytest.raises(IllegalAction, match="Rage and Gnosis"):
        P.check_spend(nu, nwolf, P.check_spend(nu, nwolf, P.TurnSpending(), "Rage", 1),
                      "Gnosis", 1)
    chi = C.full(rs, "kuei-jin", Stamina=2)
    t = P.check_spend(rs, chi, P.TurnSpending(), "Yin Chi", 1)
    t = P.check_spend(rs, chi, t, "Yang Chi", 1)
    t = P.check_spend(rs, chi, t, "Demon Chi", 3)
    assert dict(t.spent) == {"Yin Chi": 1, "Yang Chi": 1, "Demon Chi": 3}
    mage = C.full(rs, "mage")
    for kind in ("arete", "lore"):
        with pytest.raises(InputError, match="no limit on power effects.*other <text>"):
            P.check_effect(rs, mage, P.TurnSpending(), kind)
    t = P.check_effect(nu, C.full(nu, "mage"), P.TurnSpending(), "arete")
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn"):
        P.check_effect(nu, C.full(nu, "mage"), t, "arete")


@pytest.mark.rule("PWR-01")
def test_PWR_01_blood_per_turn_by_generation_stays(rs):
    """PWR-01 (V20 p. 121): the generation limits blood a turn; an 8th-generation vampire
    spends 3, not 4."""
    from wodcombat.combat.d10 import powers as P

    from dataclasses import replace

    elder = replace(C.full(rs, "vampire"), generation=8)
    t = P.check_spend(rs, elder, P.TurnSpending(), "Blood", 3)
    with pytest.raises(IllegalAction, match="at most 3 Blood a turn"):
        P.check_spend(rs, elder, t, "Blood", 1)
