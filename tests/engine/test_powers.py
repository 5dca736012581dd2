"""Power limits in combat (PWR-01..PWR-05) and wound movement (HLT-07) on numetal.

Every limit is tested both ways: allowed (exact new tally) and refused (the message names the
limit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wodcombat.combat.d10 import powers as P

from wodcombat.combat.d10 import wound_movement as WM
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Pool, Sheet

RULES = Path(__file__).resolve().parents[2] / "rules"
T0 = P.TurnSpending()


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


@pytest.fixture
def variant(tmp_path_factory):
    """variant(yaml) -> a ruleset extending numetal with only ``yaml`` changed."""

    def build(text: str):
        root = tmp_path_factory.mktemp("rules")
        (root / "numetal").symlink_to(RULES / "numetal", target_is_directory=True)
        (root / "core").symlink_to(RULES / "core", target_is_directory=True)
        (root / "child").mkdir()
        (root / "child" / "ruleset.yaml").write_text("ruleset:\n  extends: numetal\n")
        (root / "child" / "changes.yaml").write_text(text)
        return load_ruleset(root, "child")

    return build


def mk(rs, splat="mortal", *, pools=None, health=None, generation=13, **traits) -> Sheet:
    sheet = Sheet(
        splat=splat,
        generation=generation,
        traits={k.replace("_", " "): v for k, v in traits.items()},
        health=dict(health or {}),
    ).with_pools_for(rs.traits)
    if pools:
        merged = dict(sheet.pools)
        for k, v in pools.items():
            merged[k] = Pool(*v) if isinstance(v, tuple) else Pool(v, v)
        sheet = Sheet.from_dict({**sheet.to_dict(), "pools": {
            k: {"current": p.current, "permanent": p.permanent} for k, p in merged.items()}})
    return sheet


def spent(t: P.TurnSpending) -> dict:
    return dict(t.spent)


def test_tables_cross_check_clean(rs):
    assert P.check(rs) == []


# ---------------------------------------------------------------- the tally


@pytest.mark.rule("PWR-01")
def test_turn_spending_round_trip_and_new_turn(rs):
    """PWR-01: spent/effects reset at a new turn; blood banked toward a power carries."""
    t = P.TurnSpending({"Blood": 2}, {"arete": 1}, {"Vicissitude 5": 4})
    assert P.TurnSpending.from_dict(t.to_dict()) == t
    assert t.to_dict() == {"spent": {"Blood": 2}, "effects": {"arete": 1},
                           "carried": {"Vicissitude 5": 4}}
    n = P.new_turn(t)
    assert n.to_dict() == {"spent": {}, "effects": {}, "carried": {"Vicissitude 5": 4}}
    assert P.TurnSpending.from_dict(None) == T0 == P.TurnSpending.from_dict({})
    with pytest.raises(InputError, match="whole number"):
        P.TurnSpending.from_dict({"spent": {"Blood": -1}})
    with pytest.raises(InputError, match="unknown keys: bogus"):
        P.TurnSpending.from_dict({"bogus": {}})


def test_bad_spend_input(rs):
    vamp = mk(rs, "vampire")
    with pytest.raises(InputError, match="1 or more"):
        P.check_spend(rs, vamp, T0, "Blood", 0)
    with pytest.raises(InputError, match="not a pool"):
        P.check_spend(rs, vamp, T0, "Dexterity", 1)
    with pytest.raises(InputError, match="has no Rage"):
        P.check_spend(rs, vamp, T0, "Rage", 1)
    with pytest.raises(InputError, match="not a trait"):
        P.check_spend(rs, vamp, T0, "Bloood pointz", 1)


# ---------------------------------------------------------------- PWR-01 vampires


@pytest.mark.rule("PWR-01")
def test_PWR_01_blood_per_turn_by_generation(rs):
    """PWR-01: generation 8 spends 3 blood a turn (V20 p. 121), in any number of spends."""
    vamp = mk(rs, "vampire", generation=8)
    t = P.check_spend(rs, vamp, T0, "bp", 2)  # alias resolves to Blood
    assert spent(t) == {"Blood": 2}
    t = P.check_spend(rs, vamp, t, "Blood", 1)
    assert spent(t) == {"Blood": 3}
    with pytest.raises(IllegalAction, match="generation 8 spends at most 3 Blood a turn") as e:
        P.check_spend(rs, vamp, t, "Blood", 1)
    assert "PWR-01" in str(e.value) and "3 already spent" in str(e.value)
    with pytest.raises(IllegalAction, match="You may spend 1 more this turn"):
        P.check_spend(rs, vamp, P.check_spend(rs, vamp, T0, "Blood", 2), "Blood", 2)
    # Next turn the cap is fresh.
    assert spent(P.check_spend(rs, vamp, P.new_turn(t), "Blood", 3)) == {"Blood": 3}
    # Generation 13: one a turn; Willpower is not capped by generation.
    neo = mk(rs, "vampire")
    with pytest.raises(IllegalAction, match="at most 1 Blood a turn"):
        P.check_spend(rs, neo, T0, "Blood", 2)
    t = P.check_spend(rs, neo, P.check_spend(rs, neo, T0, "Blood", 1), "Willpower", 1)
    assert spent(t) == {"Blood": 1, "Willpower": 1}


@pytest.mark.rule("PWR-01")
def test_PWR_01_generation_without_cap_and_ghouls(rs):
    """PWR-01: the 3rd generation has no recorded cap; ghouls use the same chart (HEAL-02)."""
    assert spent(P.check_spend(rs, mk(rs, "vampire", generation=3), T0, "Blood", 20)) == {
        "Blood": 20}
    ghoul = mk(rs, "ghoul")
    with pytest.raises(IllegalAction, match="at most 1 Blood a turn"):
        P.check_spend(rs, ghoul, T0, "Blood", 2)


@pytest.mark.rule("PWR-01")
def test_PWR_01_house_rule_bank_blood_over_turns(rs):
    """PWR-01 house rule: a power needing more blood than the generation allows per turn is
    paid over several turns (still within the cap each turn), then used on the last."""
    neo = mk(rs, "vampire")  # 1 blood a turn
    t = P.check_spend(rs, neo, T0, "Blood", 1, purpose="Blood Rage")
    assert t.to_dict() == {"spent": {"Blood": 1}, "effects": {}, "carried": {"Blood Rage": 1}}
    with pytest.raises(IllegalAction, match="at most 1 Blood a turn"):  # cap still per turn
        P.check_spend(rs, neo, t, "Blood", 1, purpose="Blood Rage")
    t = P.check_spend(rs, neo, P.new_turn(t), "Blood", 1, purpose="blood rage")
    t = P.check_spend(rs, neo, P.new_turn(t), "Blood", 1, purpose="Blood Rage")
    assert dict(t.carried) == {"Blood Rage": 3} and spent(t) == {"Blood": 1}
    # One power at a time.
    with pytest.raises(IllegalAction, match="already banking Blood toward Blood Rage \\(3"):
        P.check_spend(rs, neo, P.new_turn(t), "Blood", 1, purpose="Other Power")
    # Act on the last turn: the bank is used up.
    t2, banked = P.use_carried(t, "Blood Rage")
    assert banked == 3 and dict(t2.carried) == {} and spent(t2) == {"Blood": 1}
    assert P.use_carried(t2, "Blood Rage") == (t2, 0)
    # Without a purpose nothing is banked; the refusal explains the house rule.
    assert dict(P.check_spend(rs, neo, T0, "Blood", 1).carried) == {}
    with pytest.raises(IllegalAction, match="spend toward it over several turns"):
        P.check_spend(rs, neo, T0, "Blood", 2)


@pytest.mark.rule("PWR-01")
def test_PWR_01_house_rule_switches(rs, variant):
    """PWR-01: a power that forbids banking, or a ruleset without the house rule, banks none."""
    no = variant("powers:\n  carry_over: {not_for: [Blood Rage]}\n")
    neo = mk(no, "vampire")
    assert dict(P.check_spend(no, neo, T0, "Blood", 1, purpose="Blood Rage").carried) == {}
    assert dict(P.check_spend(no, neo, T0, "Blood", 1, purpose="Other").carried) == {"Other": 1}
    off = variant("powers:\n  carry_over: {enabled: false}\n")
    neo = mk(off, "vampire")
    assert dict(P.check_spend(off, neo, T0, "Blood", 1, purpose="Other").carried) == {}
    with pytest.raises(IllegalAction) as e:
        P.check_spend(off, neo, T0, "Blood", 2)
    assert "house rule" not in str(e.value)


# ---------------------------------------------------------------- PWR-02 shifters


@pytest.mark.rule("PWR-02")
def test_PWR_02_rage_and_gnosis_not_in_one_turn(rs):
    """PWR-02: a shifter can't spend Rage and Gnosis in one turn (WtA p. 126)."""
    garou = mk(rs, "shifter", pools={"Rage": 5, "Gnosis": 5})
    t = P.check_spend(rs, garou, T0, "Rage", 2)
    assert spent(P.check_spend(rs, garou, t, "Rage", 1)) == {"Rage": 3}  # more Rage is fine
    with pytest.raises(IllegalAction, match="can't spend Rage and Gnosis in the same turn") as e:
        P.check_spend(rs, garou, t, "Gnosis", 1)
    msg = str(e.value)
    assert "PWR-02" in msg and "2 Rage already spent" in msg and "Chaos Mechanics" in msg
    assert "both for one action that needs both" in msg
    # Next turn: Gnosis is allowed.
    assert spent(P.check_spend(rs, garou, P.new_turn(t), "Gnosis", 1)) == {"Gnosis": 1}
    # One action needing both.
    assert spent(P.check_spend(rs, garou, t, "Gnosis", 1, one_action=True)) == {
        "Rage": 2, "Gnosis": 1}
    # Chaos Mechanics (a Gift the caller names).
    assert spent(P.check_spend(rs, garou, t, "Gnosis", 1, has=["chaos mechanics"])) == {
        "Rage": 2, "Gnosis": 1}


@pytest.mark.rule("PWR-02")
def test_PWR_02_berserker_possessed_likewise(rs, variant):
    """PWR-02: a possessed with Berserker is bound like a werewolf (Possessed p. 109)."""
    vr = variant(
        "pools:\n  Rage: {range: [0, 10], default: 1}\n"
        "splats:\n  possessed: {label: Possessed, family: possessed, supernatural: 'yes',\n"
        "              pools: [Willpower, Rage, Gnosis]}\n"
    )
    fomor = mk(vr, "possessed")
    t = P.check_spend(vr, fomor, T0, "Gnosis", 1)
    # Without the Berserker power the shifter rule does not apply ...
    assert spent(P.check_spend(vr, fomor, t, "Rage", 1)) == {"Gnosis": 1, "Rage": 1}
    # ... with it, it does.
    with pytest.raises(IllegalAction, match="Rage and Gnosis in the same turn"):
        P.check_spend(vr, fomor, t, "Rage", 1, has=("Berserker",))


# ---------------------------------------------------------------- PWR-03 mages


@pytest.mark.rule("PWR-03")
def test_PWR_03_one_arete_effect_a_turn(rs):
    """PWR-03: one Arete effect a turn (MtA p. 155); an Artifact/Invention uses your Arete."""
    mage = mk(rs, "mage", Arete=3)
    t = P.check_effect(rs, mage, T0, "arete")
    assert dict(t.effects) == {"arete": 1}
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn \\(PWR-03"):
        P.check_effect(rs, mage, t, "arete")
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn"):
        P.check_effect(rs, mage, t, "Artifact")
    t2 = P.check_effect(rs, mage, T0, "invention")
    with pytest.raises(IllegalAction, match="only 1 Arete effect a turn"):
        P.check_effect(rs, mage, t2, "arete")
    assert dict(P.check_effect(rs, mage, P.new_turn(t), "arete").effects) == {"arete": 1}


@pytest.mark.rule("PWR-03")
def test_PWR_03_talisman_and_device_use_their_own_arete(rs):
    """PWR-03: a Talisman/Device casts with its own Arete: it and you each get one a turn."""
    mage = mk(rs, "mage", Arete=3)
    t = P.check_effect(rs, mage, T0, "arete")
    t = P.check_effect(rs, mage, t, "talisman", item="Ring of Fire")
    t = P.check_effect(rs, mage, t, "device", item="Ray Gun")
    assert dict(t.effects) == {"arete": 1, "item:ring of fire": 1, "item:ray gun": 1}
    refusal = "ring of fire: only 1 effect from each Talisman/Device a turn \\(PWR-03"
    with pytest.raises(IllegalAction, match=refusal):
        P.check_effect(rs, mage, t, "talisman", item="ring of fire")
    with pytest.raises(InputError, match="Use one of: arete, artifact"):
        P.check_effect(rs, mage, t, "sorcery")


# ---------------------------------------------------------------- PWR-04 demons, Kuei-jin


@pytest.mark.rule("PWR-04")
def test_PWR_04_one_lore_evocation_a_turn_and_faith_in_effect(rs):
    """PWR-04: one Lore evocation a turn; at most permanent Faith in effect (DtF p. 171)."""
    demon = mk(rs, "demon", pools={"Faith": (2, 3)})  # current 2, permanent 3
    t = P.check_effect(rs, demon, T0, "lore", in_effect=2)
    assert dict(t.effects) == {"lore": 1}
    with pytest.raises(IllegalAction, match="only 1 Lore evocation a turn \\(PWR-04"):
        P.check_effect(rs, demon, t, "lore")
    with pytest.raises(IllegalAction, match="At most 3 Lore evocations in effect at once "
                                            "\\(permanent Faith 3"):
        P.check_effect(rs, demon, T0, "lore", in_effect=3)


@pytest.mark.rule("PWR-04")
def test_PWR_04_yin_and_yang_unless_equilibrium(rs):
    """PWR-04: Kuei-jin can't spend Yin and Yang chi in one turn unless Equilibrium 1+
    (KoTE p. 102); one action needing both does not waive it."""
    kj = mk(rs, "kuei-jin", Stamina=3, pools={"Yin Chi": 5, "Yang Chi": 5})
    t = P.check_spend(rs, kj, T0, "yin", 2)
    with pytest.raises(IllegalAction, match="can't spend Yin Chi and Yang Chi") as e:
        P.check_spend(rs, kj, t, "Yang Chi", 1, one_action=True)
    assert "PWR-04" in str(e.value) and "Equilibrium" in str(e.value)
    sage = mk(rs, "kuei-jin", Stamina=3, Equilibrium=1, pools={"Yin Chi": 5, "Yang Chi": 5})
    assert spent(P.check_spend(rs, sage, t, "Yang Chi", 1)) == {"Yin Chi": 2, "Yang Chi": 1}


@pytest.mark.rule("PWR-04")
def test_PWR_04_demon_chi_capped_by_stamina(rs):
    """PWR-04: Demon Chi a turn is capped by Stamina, not Dharma (KoTE p. 91)."""
    kj = mk(rs, "kuei-jin", Stamina=2, pools={"Demon Chi": 5})
    t = P.check_spend(rs, kj, T0, "Demon Chi", 2)
    assert spent(t) == {"Demon Chi": 2}
    with pytest.raises(IllegalAction, match="Demon Chi a turn is capped by Stamina 2 \\(PWR-04"):
        P.check_spend(rs, kj, t, "Demon Chi", 1)


# ---------------------------------------------------------------- PWR-05 durations


@pytest.mark.rule("PWR-05")
def test_PWR_05_one_turn_effects_end_with_their_turn(rs):
    """PWR-05: a one-turn effect acts only in its turn and is gone at its end; Celerity
    acts in the next turn."""
    shield = P.effect_for(rs, "Shield", 4)
    cel = P.effect_for(rs, "celerity", 4)
    assert shield == P.Effect("Shield", 4, 1, False)
    assert cel == P.Effect("celerity", 4, 1, True)
    assert P.active([shield, cel], 4) == (shield,)
    assert P.active([shield, cel], 5) == (cel,)
    assert P.active([shield, cel], 6) == ()
    assert P.expire([shield, cel], 4) == (cel,)  # end of turn 4: Shield ends
    assert P.expire([shield, cel], 5) == ()
    long = P.effect_for(rs, "Armor", 4, lasts=3, kind="lore")
    scene = P.effect_for(rs, "Wall", 4, lasts=None, kind="lore")
    assert [P.count_active([long, scene], n, "lore") for n in (3, 4, 6, 7, 99)] == [0, 2, 2, 1, 1]
    assert P.expire([long, scene], 6) == (scene,)
    assert P.Effect.from_dict(cel.to_dict()) == cel
    with pytest.raises(InputError, match="Not an effect record"):
        P.Effect.from_dict({"name": "x"})


# ---------------------------------------------------------------- HLT-07 movement


def hurt(rs, n, **kw):
    return mk(rs, health={"lethal": n}, Dexterity=3, **kw)


@pytest.mark.rule("HLT-07")
def test_HLT_07_healthy_only_the_pace_limits(rs):
    """HLT-07 / MAN-03: unhurt, Dex 3 runs 29 yards; farther is refused naming the pace."""
    m = WM.movement_limit(hurt(rs, 0), rs, 29, "run")
    assert (m.yards, m.pace_yards, m.level, m.wound_move, m.dice) == (29, 29, "Healthy", "full", 0)
    with pytest.raises(IllegalAction, match="at most 29 yards at a run"):
        WM.movement_limit(hurt(rs, 0), rs, 30, "run")
    assert WM.movement_limit(hurt(rs, 2), rs, 15, "jog").yards == 15  # Hurt: full speed


@pytest.mark.rule("HLT-07")
def test_HLT_07_injured_half_speed(rs):
    m = WM.movement_limit(hurt(rs, 3), rs, 14, "run")
    assert (m.yards, m.level, m.wound_move) == (14, "Injured", "half speed")
    with pytest.raises(IllegalAction, match="Injured: half speed, at most 14 yards") as e:
        WM.movement_limit(hurt(rs, 3), rs, 15, "run")
    assert "HLT-07" not in str(e.value)  # no rule IDs in player text
    assert WM.movement_limit(hurt(rs, 3), rs, 3, "walk").yards == 3  # walk 7 -> 3


@pytest.mark.rule("HLT-07")
def test_HLT_07_wounded_walk_only(rs):
    assert WM.movement_limit(hurt(rs, 4), rs, 7, "run").yards == 7
    with pytest.raises(IllegalAction, match="Wounded: you can only walk, at most 7 yards"):
        WM.movement_limit(hurt(rs, 4), rs, 8, "run")


@pytest.mark.rule("HLT-07")
def test_HLT_07_mauled_crippled_incapacitated(rs):
    assert WM.movement_limit(hurt(rs, 5), rs, 3, "run").yards == 3
    with pytest.raises(IllegalAction, match="Mauled: hobble, at most 3 yards a turn"):
        WM.movement_limit(hurt(rs, 5), rs, 4, "run")
    assert WM.movement_limit(hurt(rs, 6), rs, 1, "walk").yards == 1
    with pytest.raises(IllegalAction, match="Crippled: crawl, at most 1 yards a turn"):
        WM.movement_limit(hurt(rs, 6), rs, 2, "walk")
    assert WM.movement_limit(hurt(rs, 7), rs, 0, "walk").yards == 0
    with pytest.raises(IllegalAction, match="You cannot move \\(Incapacitated"):
        WM.movement_limit(hurt(rs, 7), rs, 1, "walk")


@pytest.mark.rule("HLT-07", "MAN-04")
def test_HLT_07_moving_while_acting_and_forms(rs):
    """HLT-07 with MAN-04: while acting, half the run (14) and -1 die a yard, then wounds;
    a Lupus (x2) at Injured runs 29."""
    m = WM.movement_limit(hurt(rs, 0), rs, 14, "acting")
    assert (m.yards, m.dice) == (14, -14)
    with pytest.raises(IllegalAction, match="at most 14 yards while acting"):
        WM.movement_limit(hurt(rs, 0), rs, 15, "acting")
    m = WM.movement_limit(hurt(rs, 5), rs, 3, "acting")
    assert (m.yards, m.dice) == (3, -3)
    with pytest.raises(IllegalAction, match="Mauled: hobble, at most 3 yards"):
        WM.movement_limit(hurt(rs, 5), rs, 4, "acting")
    wolf = Sheet.from_dict({**hurt(rs, 3).to_dict(), "splat": "shifter", "race": "Garou",
                            "form": "Lupus"})
    assert WM.movement_limit(wolf, rs, 29, "run").yards == 29
    with pytest.raises(IllegalAction, match="at most 29 yards"):
        WM.movement_limit(wolf, rs, 30, "run")


@pytest.mark.rule("HLT-07")
def test_HLT_07_switch_off_and_bad_input(rs, variant):
    off = variant("wound_movement:\n  enabled: false\n")
    assert WM.movement_limit(hurt(off, 5), off, 29, "run").yards == 29
    with pytest.raises(InputError, match="Use one of: walk, jog, run, acting"):
        WM.movement_limit(hurt(rs, 0), rs, 3, "sprint")
    with pytest.raises(InputError, match="yards"):
        WM.movement_limit(hurt(rs, 0), rs, -1, "walk")


@pytest.mark.rule("PWR-01", "PWR-02", "PWR-03")
def test_rules_switched_off_by_id(variant):
    """A ruleset without PWR-01/PWR-02 (catalog: numetal only) lists them under powers.disabled."""
    vr = variant("powers:\n  disabled: [PWR-01, PWR-02]\n")
    assert spent(P.check_spend(vr, mk(vr, "vampire"), T0, "Blood", 5)) == {"Blood": 5}
    garou = mk(vr, "shifter")
    t = P.check_spend(vr, garou, P.check_spend(vr, garou, T0, "Rage", 1), "Gnosis", 1)
    assert spent(t) == {"Rage": 1, "Gnosis": 1}
    mage = mk(vr, "mage")
    with pytest.raises(IllegalAction, match="only 1 Arete effect"):  # PWR-03 still on
        P.check_effect(vr, mage, P.check_effect(vr, mage, T0, "arete"), "arete")


@pytest.mark.rule("PWR-01")
@pytest.mark.parametrize("name", ["revised", "everyman"])
def test_banking_blood_is_numetals_house_rule_only(name):
    """PWR-01: the "spend over several turns" house rule is seed 000's; revised and
    everyman keep the book limit of blood per turn by generation but bank nothing."""
    rs = load_ruleset(Path(__file__).resolve().parents[2] / "rules", name)
    neo = Sheet().with_pools_for(rs.traits).set(rs.traits, "splat", "vampire")[0]
    assert dict(P.check_spend(rs, neo, P.TurnSpending(), "Blood", 1,
                              purpose="Blood Rage").carried) == {}
    with pytest.raises(IllegalAction, match="at most 1 Blood a turn"):
        P.check_spend(rs, neo, P.TurnSpending(), "Blood", 2)
