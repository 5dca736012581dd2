"""Issue 8: "The fight never stalls on a defense: a test declares each refused defense (dodge
vs gun, block vs blade by a mortal, parry with no melee weapon, parry with a pistol) and the
attack resolves."

Through the d10 engine's ``apply`` under numetal, with exact dice: the defender declares the
defense, the attacker declares the attack, the attacker acts. A defense that cannot work
against this attack is ineffective (seed 000: "it may turn out to be ineffective, e.g. trying
to block a gunshot"): a ``defense_ineffective`` event says why, nothing is rolled for it, and
the attack is rolled and resolved as if no defense had been declared; the attacker's action
is used and the turn goes on. Controls: a dodge against a punch, and a dodge into cover or
dropping prone against a gunshot (DEF-02), do roll the defense.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pathlib

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.events import Event
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from tests.fixed_dice import FixedDice

from .conftest import sheet

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
ANN, DEE, STAFF = "#1", "#2", "#9"  # Ann attacks, Dee defends
PISTOL, KNIFE = "Pistol, heavy", "Knife"  # rows of rules/numetal/weapons.yaml


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


class Fight:
    """Ann (initiative 8 + Dex 3 + Wits 3 = 14) and Dee (2 + 2 + 2 = 6), both mortals, in
    turn 1's declare phase (classic mode: Dee, the slower, declares first)."""

    def __init__(self, rs, ann_weapons=(), dee_weapons=()):
        self.rs = rs
        self.engine = engine_for(rs)
        assert self.engine.name == "d10"
        self.sheets = {
            ANN: sheet(rs, ann_weapons, splat="mortal", dexterity=3, wits=3, strength=2,
                       stamina=2, brawl=2, melee=2, firearms=3),
            DEE: sheet(rs, dee_weapons, splat="mortal", dexterity=2, wits=2, strength=2,
                       stamina=2, brawl=2, melee=2, dodge=2),
        }
        self.state = self.engine.new_combat("c1", rs, {}).state
        self(I.Join(by=ANN, actor=ANN, name="Ann"))
        self(I.Join(by=DEE, actor=DEE, name="Dee"))
        self(I.RollInitiative(by=ANN, actor=ANN), 8)
        self(I.RollInitiative(by=DEE, actor=DEE), 2)
        self(I.Advance(by=STAFF))
        assert self.engine.prompts(self.state) == [(DEE, "declare")]

    def __call__(self, intent, *faces):
        before = copy.deepcopy(self.state.to_dict())
        dice = FixedDice(*faces)
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, dice)
        assert dice.faces == [], f"faces left unused: {dice.faces}"
        assert self.state.to_dict() == before  # apply is pure
        for e in out.events:
            assert isinstance(e, Event)
            json.dumps(e.to_dict())
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return out

    def declare(self, defense: dict, weapon: str | None):
        self(I.Declare(by=DEE, actor=DEE, actions=(defense,)))
        attack = {"kind": "attack", "target": DEE}
        if weapon:
            attack["weapon"] = weapon
        self(I.Declare(by=ANN, actor=ANN, actions=(attack,)))
        assert self.engine.prompts(self.state) == [(ANN, "act")]

    def act(self, *faces):
        return self(I.Act(by=ANN, actor=ANN), *faces)


def drop(fight: Fight, weapon: str) -> None:
    """Dee's ``weapon`` knocked away between declaring and being attacked (CLOSE-04)."""
    c = fight.state.get(DEE)
    fight.state = fight.state.with_combatants(
        {DEE: dataclasses.replace(c, gear=c.gear.drop(weapon))})


def of(out, kind, **match):
    return [e for e in out.events if e.kind == kind
            and all(e.get(k) == v for k, v in match.items())]


def assert_resolved_without_defense(fight: Fight, out, kind: str, attack_faces):
    """The refused defense rolled nothing, said why, and the attack went on to the end."""
    (ineffective,) = of(out, "defense_ineffective")
    assert ineffective["actor"] == DEE and ineffective["kind"] == kind
    assert ineffective["against"] == ANN
    assert isinstance(ineffective["reason"], str) and ineffective["reason"].strip()
    assert of(out, "roll", purpose="defense") == []
    (roll,) = of(out, "roll", purpose="attack")
    assert roll["actor"] == ANN and roll["faces"] == list(attack_faces)
    assert of(out, "hit", actor=ANN, target=DEE) or of(out, "miss", actor=ANN, target=DEE)
    # the attacker's action is used: the turn moved on without waiting for anyone's defense
    assert of(out, "act", actor=ANN)
    assert (ANN, "act") not in fight.engine.prompts(fight.state)
    before = fight.state.to_dict()
    with pytest.raises((IllegalAction, InputError)):
        fight.engine.apply(fight.state, I.Act(by=ANN, actor=ANN), fight.sheets, fight.rs,
                           FixedDice())
    assert fight.state.to_dict() == before
    return ineffective


# ---------------------------------------------------------------- the refused defenses


@pytest.mark.rule("DEF-02")
def test_dodge_against_a_gunshot_is_ineffective_and_the_shot_resolves(rs):
    f = Fight(rs, ann_weapons=(PISTOL,))
    f.declare({"kind": "dodge"}, PISTOL)
    # Dex 3 + Firearms 3 at point-blank: two successes; damage 5 + 1 extra success, two
    # lethal levels a mortal cannot soak
    attack, damage = (9, 9, 2, 2, 2, 2), (9, 9, 2, 2, 2, 2)
    out = f.act(*attack, *damage)
    why = assert_resolved_without_defense(f, out, "dodge", attack)
    assert "cover" in why["reason"] and "prone" in why["reason"]
    (hit,) = of(out, "hit", target=DEE)
    assert hit["net"] == 2  # nothing subtracted: no defense was rolled
    (dmg,) = of(out, "damage", target=DEE)
    assert (dmg["type"], dmg["applied"]) == ("lethal", 2)


@pytest.mark.rule("DEF-01", "DMG-16")
def test_block_against_a_blade_by_a_mortal_is_ineffective_and_the_cut_resolves(rs):
    f = Fight(rs, ann_weapons=(KNIFE,))
    f.declare({"kind": "block"}, KNIFE)
    # Dex 3 + Melee 2: two successes; damage Str 2 + Knife 1 + 1 extra: one lethal level
    attack, damage = (9, 9, 2, 2, 2), (9, 2, 2, 2)
    out = f.act(*attack, *damage)
    why = assert_resolved_without_defense(f, out, "block", attack)
    assert "lethal" in why["reason"] and "soak" in why["reason"]
    (dmg,) = of(out, "damage", target=DEE)
    assert (dmg["type"], dmg["applied"]) == ("lethal", 1)


@pytest.mark.rule("DEF-03")
def test_parry_with_no_melee_weapon_is_ineffective_and_the_cut_resolves(rs):
    # Issue 9 #23: a parry with nothing to parry with is refused when declared ...
    f = Fight(rs, ann_weapons=(KNIFE,))  # Dee carries nothing
    with pytest.raises(IllegalAction, match="no weapon or shield to parry with"):
        f(I.Declare(by=DEE, actor=DEE, actions=({"kind": "parry"},)))
    # ... and one whose knife is knocked away after declaring is ineffective when attacked.
    f = Fight(rs, ann_weapons=(KNIFE,), dee_weapons=(KNIFE,))
    f.declare({"kind": "parry"}, KNIFE)
    drop(f, KNIFE)
    attack, damage = (9, 9, 2, 2, 2), (2, 2, 2, 2)
    out = f.act(*attack, *damage)
    why = assert_resolved_without_defense(f, out, "parry", attack)
    assert "weapon" in why["reason"]
    (dmg,) = of(out, "damage", target=DEE)
    assert dmg["applied"] == 0  # hit, no damage success: still resolved to the end


@pytest.mark.rule("DEF-03")
def test_parry_with_a_pistol_is_ineffective_and_the_cut_resolves(rs):
    # The pistol alone is refused when declaring (issue 9 #23); the knife declared with is
    # knocked away, so the parry falls to the pistol in hand: ineffective.
    f = Fight(rs, ann_weapons=(KNIFE,), dee_weapons=(PISTOL,))
    with pytest.raises(IllegalAction, match="no weapon or shield to parry with"):
        f(I.Declare(by=DEE, actor=DEE, actions=({"kind": "parry"},)))
    f = Fight(rs, ann_weapons=(KNIFE,), dee_weapons=(PISTOL, KNIFE))
    f.declare({"kind": "parry"}, KNIFE)
    drop(f, KNIFE)
    attack = (9, 2, 2, 2, 1)  # one 9 cancelled by the 1: no success, a miss (not a botch)
    out = f.act(*attack)
    why = assert_resolved_without_defense(f, out, "parry", attack)
    assert PISTOL in why["reason"]
    (miss,) = of(out, "miss", target=DEE)
    assert miss["botch"] is False and of(out, "damage") == []


@pytest.mark.rule("DEF-01")
def test_block_against_a_gunshot_is_ineffective_and_the_shot_resolves(rs):
    """Seed 000's own example: "trying to block a gunshot"."""
    f = Fight(rs, ann_weapons=(PISTOL,))
    f.declare({"kind": "block"}, PISTOL)
    attack, damage = (9, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2)
    out = f.act(*attack, *damage)
    why = assert_resolved_without_defense(f, out, "block", attack)
    assert "close combat" in why["reason"]


# ---------------------------------------------------------------- controls: the defense rolls


@pytest.mark.rule("DEF-02")
def test_dodge_against_a_punch_rolls_the_defense(rs):
    f = Fight(rs)
    f.declare({"kind": "dodge"}, None)
    # punch Dex 3 + Brawl 2: two successes; dodge Dex 2 + Dodge 2: one; net 1: damage Str 2
    # bashing (one level), soak Stamina 2 (none)
    attack, defense, damage, soak = (9, 9, 2, 2, 2), (8, 2, 2, 2), (9, 2), (2, 2)
    out = f.act(*attack, *defense, *damage, *soak)
    assert of(out, "defense_ineffective") == []
    (d,) = of(out, "roll", purpose="defense")
    assert (d["actor"], d["label"], d["faces"], d["successes"]) == (DEE, "dodge", [8, 2, 2, 2], 1)
    assert [t[0] for t in d["traits"]] == ["Dexterity", "Dodge"]
    (hit,) = of(out, "hit", target=DEE)
    assert hit["net"] == 1
    (dmg,) = of(out, "damage", target=DEE)
    assert (dmg["type"], dmg["applied"]) == ("bashing", 1)


@pytest.mark.rule("DEF-02")
@pytest.mark.parametrize("how", ["prone", "cover"])
def test_dodge_prone_or_into_cover_against_a_gunshot_rolls_the_defense(rs, how):
    f = Fight(rs, ann_weapons=(PISTOL,))
    f.declare({"kind": "dodge", "how": how}, PISTOL)
    attack, defense = (9, 9, 2, 2, 2, 2), (9, 9, 2, 2)  # two against two: dodged
    out = f.act(*attack, *defense)
    assert of(out, "defense_ineffective") == []
    (d,) = of(out, "roll", purpose="defense")
    assert (d["actor"], d["label"], d["successes"]) == (DEE, "dodge", 2)
    (roll,) = of(out, "roll", purpose="attack")
    assert roll["faces"] == list(attack)
    assert of(out, "miss", target=DEE) and of(out, "hit") == []
    assert (ANN, "act") not in f.engine.prompts(f.state)


# attack (Dex 3 + Melee 2): two successes; the block (Dex 2 + Brawl 2): one; damage
# (Str 2 + Knife 1, no extra success): none
FACES_FOR_ARMORED_BLOCK = (9, 9, 2, 2, 2) + (2, 2, 2, 9) + (2, 2, 2)


@pytest.mark.rule("DEF-01", "DMG-16")
def test_a_mortal_in_armor_blocks_a_blade(rs):
    """Issue 9, defect 10: armor soaks lethal, so a mortal wearing a vest may block a knife:
    the block is rolled (Dex 2 + Brawl 2)."""
    f = Fight(rs, ann_weapons=(KNIFE,))
    f.sheets[DEE] = dataclasses.replace(f.sheets[DEE], armor="Kevlar vest")
    f.declare({"kind": "block"}, KNIFE)
    out = f.act(*FACES_FOR_ARMORED_BLOCK)
    assert of(out, "defense_ineffective") == []
    (block,) = of(out, "roll", purpose="defense")
    assert (block["label"], block["faces"], block["successes"]) == ("block", [2, 2, 2, 9], 1)


@pytest.mark.rule("TURN-07")
def test_a_dodge_split_second_waits_for_the_extra_phase_and_says_so(rs):
    """Dee splits "attack Ann; dodge": Ann's main-phase punch meets no dodge yet (the dodge
    is the second action, TURN-07): a ``defense_waits`` event says why, nothing is rolled for
    it, and the dodge is still Dee's to use later."""
    f = Fight(rs)
    f(I.Declare(by=DEE, actor=DEE, actions=({"kind": "attack", "target": ANN},
                                            {"kind": "dodge"})))
    f(I.Declare(by=ANN, actor=ANN, actions=({"kind": "attack", "target": DEE},)))
    attack = (2, 2, 2, 2, 2)  # Dex 3 + Brawl 2: a miss
    out = f.act(*attack)
    (waits,) = of(out, "defense_waits")
    assert (waits["actor"], waits["against"]) == (DEE, ANN)
    assert "action #2" in waits["reason"] and "extra phase" in waits["reason"]
    assert of(out, "defense_ineffective") == [] and of(out, "roll", purpose="defense") == []
    c = f.state.get(DEE)
    assert 1 in c.reactive and 1 not in c.used  # not spent
