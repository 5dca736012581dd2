"""TURN-02: a declared attack is checked when declared (combat/d10/foresee.py) without
counting the foes that engage each side (CLOSE-08), a count only the pool's difficulty
reads. These tests hold the check to the whole pool: with two foes on the attacker, what
the check refuses (and its words) is what the counted pool refuses, and what it lets
through the counted pool builds.
"""

from __future__ import annotations

import random

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.d10 import close, foresee
from wodcombat.combat.d10.attack_resolve import build_attack_pool
from wodcombat.combat.d10.attack_values import Attack
from wodcombat.combat.d10.fight import Fight
from tests.fixed_dice import FixedDice

from .conftest import sheet

ANN, DEE, EVE, STAFF = "#1", "#2", "#3", "#9"


class Outnumbered:
    """Ann (initiative 14, a knife) declares last;
    Dee and Eve have each declared a strike on her: two foes engage her (CLOSE-08)."""

    def __init__(self, rs):
        self.rs = rs
        self.engine = engine_for(rs)
        mortal = dict(splat="mortal", dexterity=2, wits=2, strength=2, stamina=2, brawl=2)
        self.sheets = {
            ANN: sheet(rs, ("Knife",), splat="mortal", dexterity=3, wits=3, strength=3,
                       stamina=2, brawl=2, melee=2),
            DEE: sheet(rs, (), **mortal),
            EVE: sheet(rs, (), **mortal),
        }
        self.state = self.engine.new_combat("c1", rs, {}).state
        for key, name in ((ANN, "Ann"), (DEE, "Dee"), (EVE, "Eve")):
            self(I.Join(by=key, actor=key, name=name))
        self(I.RollInitiative(by=ANN, actor=ANN), 8)
        self(I.RollInitiative(by=DEE, actor=DEE), 2)
        self(I.RollInitiative(by=EVE, actor=EVE), 2)
        self(I.Advance(by=STAFF))
        for key in (EVE, DEE):
            self(I.Declare(by=key, actor=key,
                           actions=({"kind": "attack", "target": ANN, "maneuver": "strike"},)))

    def __call__(self, intent, *faces):
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, FixedDice(*faces))
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return out

    def fight(self) -> Fight:
        return Fight(self.state, self.sheets, self.rs, random.Random(0), ANN)


def counted_pool(f: Fight, a: dict):
    """The declared attack's pool as the attack layer builds it, every foe counted."""
    weapon = foresee._weapon(f, ANN, a)
    gear = f.gear(ANN)
    ctx = close.context(f, ANN, a["target"], weapon, range_yards=0,
                        weapon_state=gear.weapon(weapon))
    assert ctx.attacker.opponents == 2  # the count the check leaves out is there
    intent = Attack(ANN, a["target"], maneuver=a.get("maneuver") or "attack", weapon=weapon,
                    location=a.get("location"), position=a.get("position") or "front",
                    ability=a.get("ability"), specialty=bool(a.get("specialty")))
    return build_attack_pool(f.rules, f.sheet(ANN), f.sheet(a["target"]), intent, ctx,
                             memo=f.memo)


REFUSED = [
    {"kind": "attack", "target": DEE, "specialty": True},  # DICE-03: none on the sheet
    {"kind": "attack", "target": DEE, "maneuver": "claw"},  # CLOSE-02: a mortal
    {"kind": "attack", "target": DEE, "maneuver": "disarm", "weapon": "Knife"},  # CLOSE-04
]
ALLOWED = [
    {"kind": "attack", "target": DEE},
    {"kind": "attack", "target": DEE, "maneuver": "kick"},
    {"kind": "attack", "target": EVE, "weapon": "Knife"},
]


@pytest.mark.rule("TURN-02", "CLOSE-08")
@pytest.mark.parametrize("a", REFUSED, ids=lambda a: a.get("maneuver") or "specialty")
def test_turn_02_an_outnumbered_declaration_is_refused_as_the_counted_pool_refuses(
        numetal, a):
    o = Outnumbered(numetal)
    with pytest.raises(IllegalAction) as pool_said:
        counted_pool(o.fight(), a)
    with pytest.raises(IllegalAction) as check_said:
        foresee.probe(o.fight(), ANN, a)
    assert str(check_said.value) == f"Ann cannot declare that attack: {pool_said.value}"


@pytest.mark.rule("TURN-02", "CLOSE-08")
@pytest.mark.parametrize("a", ALLOWED, ids=lambda a: a.get("maneuver") or
                         a.get("weapon") or "strike")
def test_turn_02_an_outnumbered_declaration_the_counted_pool_builds_is_declared(numetal, a):
    o = Outnumbered(numetal)
    pool = counted_pool(o.fight(), a)
    assert any(m.reason == "2 opponents" for m in pool.modifiers)  # CLOSE-08 counted there
    foresee.probe(o.fight(), ANN, a)  # not refused
    o(I.Declare(by=ANN, actor=ANN, actions=(a,)))
    assert o.state.get(ANN).declared
