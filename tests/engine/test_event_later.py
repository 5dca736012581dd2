"""A damage event's ``detail`` (every input of the hit, DMG-01..15) is made only when read
or logged (issue 32): the event reads, compares, encodes and logs exactly as before."""

from __future__ import annotations

import json

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.events import Event, Later
from wodcombat.world import jsontext
from tests.engine.test_close_flow import ANN, DEE, OTHER, Fight, atk
from tests.fixed_dice import FixedDice


def _hit_events():
    f = Fight()
    f.declare(DEE, OTHER)
    f.declare(ANN, atk())
    # punch Dex 3 + Brawl 2 [8 2 2 2 2]: 1 success; damage Str 3 [8 8 8]; soak Stamina 2 [2 2]
    dice = FixedDice(8, 2, 2, 2, 2, 8, 8, 8, 2, 2)
    out = f.engine.apply(f.state, I.Act(by=ANN, actor=ANN), f.sheets, f.rs, dice)
    assert dice.faces == []
    return out.events


@pytest.mark.rule("DMG-01")
def test_dmg_01_damage_detail_is_made_when_read_and_reads_as_before():
    ev = next(e for e in _hit_events() if e.kind == "damage")
    assert type(ev.fields["detail"]) is Later  # not built by the engine
    detail = ev["detail"]
    assert detail == ev.get("detail") == ev.to_dict()["detail"]
    assert detail["request"]["dice"] == 3 and detail["applied"] == ev["applied"] == 3
    assert detail["damage_roll"]["faces"] == [8, 8, 8]
    logged = json.loads(json.dumps(ev.to_dict()))
    assert Event.from_dict(logged) == ev and ev == Event.from_dict(logged)
    assert type(ev.to_dict()["detail"]) is dict


def test_a_later_field_is_logged_as_its_value():
    """The combat log encodes an event's fields as they are (wodcombat/world/combatlog.py):
    a ``Later`` one is encoded as the value it makes, not as text."""
    ev = next(e for e in _hit_events() if e.kind == "damage")
    plain = {k: v for k, v in ev.to_dict().items() if k != "event"}
    assert jsontext.dumps_or_str(ev.fields) == jsontext.dumps_or_str(plain) == json.dumps(plain)
    assert jsontext.dumps(ev.fields) == json.dumps(plain)


def test_later_makes_its_value_each_time_it_is_read():
    made = []
    later = Later(lambda: made.append(1) or {"a": [1]})
    ev = Event("x", {"detail": later, "n": 1})
    assert made == []
    assert ev["detail"] == {"a": [1]} and ev.get("detail") == {"a": [1]}
    assert ev.to_dict() == {"event": "x", "detail": {"a": [1]}, "n": 1}
    assert ev.get("n") == 1 and ev.get("missing", 5) == 5
    ev["detail"]["a"].append(2)  # a reader's copy: the event is unchanged
    assert ev["detail"] == {"a": [1]}
