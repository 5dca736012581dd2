"""Pacing through the d10 engine's ``apply`` (issue 11), exact dice, no Evennia: choices
entered ahead of the slot are kept hidden, revealed low to high (TURN-01) and resolved high to
low (TURN-03); death is kept on the sheet (HLT-05). Rule IDs: ../shared/rules-catalog.md.
"""

from __future__ import annotations

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.d10.engine import ENGINE
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.core.sheet import Sheet
from tests.fixed_dice import FixedDice

ANN, BOB = "#1", "#2"


def sheet(rs, **traits):
    s = Sheet().with_pools_for(rs.traits)
    for k, v in traits.items():
        s, _ = s.set(rs.traits, k, str(v))
    return s


class Play:
    def __init__(self, rs, ahead=True):
        self.rs = rs
        self.sheets = {ANN: sheet(rs, dexterity=3, wits=3, strength=3, brawl=2, stamina=2),
                       BOB: sheet(rs, dexterity=2, wits=2, strength=2, stamina=2)}
        self.state = ENGINE.new_combat("p1", rs, {"ahead": ahead}).state
        self.events = []

    def __call__(self, intent, *faces):
        out = ENGINE.apply(self.state, intent, self.sheets, self.rs, FixedDice(*faces))
        self.state = out.state
        self.sheets = {**self.sheets, **out.sheet_changes}
        self.events = [e.to_dict() for e in out.events]
        return self.events


def started(rs, ahead=True):
    """Ann 6 + [5] = 11, Bob 4 + [1] = 5; declaring: Bob first (TURN-01)."""
    p = Play(rs, ahead)
    p(I.Join(actor=ANN, name="Ann"))
    p(I.Join(actor=BOB, name="Bob"))
    p(I.RollInitiative(actor=ANN), 5)
    p(I.RollInitiative(actor=BOB), 1)
    p(I.Advance())
    assert p.state.phase == "declare" and ENGINE.pending(p.state) == [BOB]
    return p


@pytest.mark.rule("TURN-01", "TURN-03")
def test_declared_ahead_revealed_in_order_and_resolved_by_itself(numetal):
    p = started(numetal)
    evs = p(I.Declare(actor=ANN, actions=({"kind": "attack", "target": BOB},)))
    assert [e["event"] for e in evs] == ["ahead"]  # hidden: no actions in the event
    assert p.state.get(ANN).ahead_declare and not p.state.get(ANN).declared
    # Bob declares in his slot; Ann's is revealed after it, then the act phase resolves
    # Ann's attack by itself (11 first): [2 2 2 2 2] misses; Bob's dodge waits for nothing.
    evs = p(I.Declare(actor=BOB, actions=({"kind": "dodge"},)), 2, 2, 2, 2, 2, 3, 3, 3)
    kinds = [(e["event"], e.get("actor")) for e in evs if e["event"] in ("declare", "act")]
    assert kinds == [("declare", BOB), ("declare", ANN), ("act", ANN)]
    assert p.state.turn == 2 and p.state.phase == "declare"
    assert [e for e in evs if e["event"] == "prompt"] == [
        {"event": "prompt", "turn": 2, "phase": "declare", "what": "declare", "who": [BOB]}]


@pytest.mark.rule("TURN-01")
def test_slot_by_slot_fight_still_refuses_early_declarations(numetal):
    p = started(numetal, ahead=False)
    with pytest.raises(IllegalAction, match="Not Ann's turn to declare"):
        p(I.Declare(actor=ANN, actions=({"kind": "attack", "target": BOB},)))


@pytest.mark.rule("TURN-01", "TURN-03")
def test_slot_by_slot_holds_an_npc_declaration_for_its_slot(numetal):
    """+combat/declare/auto: a runner's declaration for an NPC before its slot is kept
    hidden and revealed when the slot comes, even slot by slot; a player's is refused
    as before, and the act phase still waits for +combat/act."""
    pcs = started(numetal, ahead=False)
    with pytest.raises(IllegalAction, match="Not Ann's turn to declare"):  # a PC's is not
        pcs(I.Declare(actor=ANN, actions=({"kind": "dodge"},)))
    p = Play(numetal, ahead=False)
    p(I.Join(actor=ANN, name="Ann", is_npc=True))
    p(I.Join(actor=BOB, name="Bob"))
    p(I.RollInitiative(actor=ANN, rating=6), 5)
    p(I.RollInitiative(actor=BOB), 1)
    p(I.Advance())
    evs = p(I.Declare(actor=ANN, actions=({"kind": "attack", "target": BOB},)))
    assert [e["event"] for e in evs] == ["ahead"]
    assert p.state.get(ANN).ahead_declare and ENGINE.pending(p.state) == [BOB]
    evs = p(I.Declare(actor=BOB, actions=({"kind": "dodge"},)))
    assert [(e["event"], e.get("actor")) for e in evs if e["event"] == "declare"] == [
        ("declare", BOB), ("declare", ANN)]
    assert p.state.phase == "act" and ENGINE.pending(p.state) == [ANN]  # nothing resolved
    assert not [e for e in evs if e["event"] == "act"]


@pytest.mark.rule("TURN-01")
def test_declaration_that_rolls_at_once_is_not_kept(numetal):
    p = started(numetal)
    before = p.state
    with pytest.raises(IllegalAction, match="not kept for later"):
        p(I.Declare(actor=ANN, actions=(), activations=(
            {"activate": "ambush", "target": BOB},)))
    assert p.state == before


@pytest.mark.rule("HLT-05")
def test_death_is_kept_on_the_sheet_and_refuses_joining(numetal):
    p = started(numetal)
    p(I.StaffDamage(actor=BOB, levels=10, damage_type="lethal"))
    assert p.sheets[BOB].fate == "dead"
    with pytest.raises(IllegalAction, match="dead: healing does not bring"):
        p(I.StaffHeal(actor=BOB, levels=2, damage_type="lethal"))
    q = Play(numetal)
    q.sheets = {**q.sheets, BOB: p.sheets[BOB]}
    with pytest.raises(IllegalAction, match="Bob is dead and cannot join"):
        q(I.Join(actor=BOB, name="Bob"))
    p(I.StaffHeal(actor=BOB, revive=True))
    assert p.sheets[BOB].fate == "" and p.state.get(BOB).outcome == ""


@pytest.mark.rule("TURN-01")
def test_the_pace_a_new_fight_takes(numetal):
    """Issue 28: /start's pace (ahead True or False) wins; when it names none (None) the
    game's default_pace does; with neither, slot by slot, as fights were before pacing."""
    def ahead(**options):
        return ENGINE.new_combat("p9", numetal, options).state.options.ahead

    assert ahead() is False
    assert ahead(ahead=None, default_pace="ahead") is True
    assert ahead(ahead=None, default_pace="slots") is False
    assert ahead(ahead=False, default_pace="ahead") is False
    assert ahead(ahead=True, default_pace="slots") is True
    out = ENGINE.new_combat("p9", numetal, {"ahead": None, "default_pace": "ahead"})
    assert out.events[0]["how"] == "classic mode, choices entered ahead"
