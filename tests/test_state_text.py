"""Issue 13: a fight's stored text is ``json.dumps(state.to_dict())`` byte for byte, and a
commit encodes again only the combatants that are new objects (wodcombat/world/state_text.py)."""

import json

from wodcombat.combat.d10.state import Combatant, CombatState
from wodcombat.combat.core.values import replace
from wodcombat.world.state_text import StateText


def fighter(key: str, **kw) -> Combatant:
    return Combatant(key=key, name=key.lstrip("#").upper(), **kw)


def state_of(*combatants: Combatant) -> CombatState:
    return CombatState(id="1-test", ruleset="numetal", combatants=tuple(combatants))


def test_the_text_is_json_dumps_of_to_dict_and_only_new_objects_are_encoded():
    w = StateText()
    a, b, c = fighter("#1"), fighter("#2"), fighter("#3")
    s = state_of(a, b, c)
    assert w.text(s) == json.dumps(s.to_dict())
    assert w.encoded == 3
    hurt = replace(b, declared=True)
    s = state_of(a, hurt, c)  # one changed in place
    assert w.text(s) == json.dumps(s.to_dict())
    assert w.encoded == 1
    assert w.text(replace(s, turn=2)) == json.dumps(replace(s, turn=2).to_dict())
    assert w.encoded == 0  # only the head changed


def test_joins_leaves_and_reorders_keep_the_others_texts():
    w = StateText()
    a, b, c, d = (fighter(f"#{i}") for i in range(1, 5))
    w.text(state_of(a, b, c))
    s = state_of(c, a, d, b)  # one joined, the rest moved
    assert w.text(s) == json.dumps(s.to_dict())
    assert w.encoded == 1
    s = state_of(b, a)  # two left, two swapped places
    assert w.text(s) == json.dumps(s.to_dict())
    assert w.encoded == 0
    s = state_of(a, b)  # same length, places swapped back: re-encoded, still right
    assert w.text(s) == json.dumps(s.to_dict())
    assert w.encoded == 2


def test_a_delta_read_back_onto_the_state_before_gives_the_text():
    from wodcombat.world.state_text import apply_delta, is_delta

    from wodcombat.combat.d10.state import Slot

    w = StateText()
    a, b, c = fighter("#1"), fighter("#2"), fighter("#3")
    s1 = replace(state_of(a, b, c), order=(Slot(7, 3, ("#1", "#3")), Slot(5, 2, ("#2",))))
    t1 = w.text(s1)
    w.committed()
    s2 = replace(s1, combatants=(a, replace(b, declared=True), c), turn=3, seq=4)
    t2 = w.text(s2)
    d = w.delta(s1, s2)
    assert d is not None and is_delta(d) and not is_delta(t2)
    assert list(json.loads(d)["delta"]) == ["1"]  # only the changed one, by place
    # the head's items that changed; not the phase's slots (one key per combatant)
    assert "turn" in json.loads(d) and "seq" in json.loads(d) and "order" not in json.loads(d)
    assert json.dumps(apply_delta(json.loads(t1), d)) == t2
    w.committed()
    s2b = replace(s2, order=(Slot(5, 2, ("#2",)),), cursor=0)  # a new phase: new slots
    d = w.delta(s2, s2b) if w.text(s2b) else None
    assert json.loads(d)["order"] == [{"initiative": 5, "rating": 2, "keys": ["#2"]}]
    assert "turn" not in json.loads(d) and json.loads(d)["delta"] == {}
    assert json.dumps(apply_delta(json.loads(t2), d)) == json.dumps(s2b.to_dict())
    w.committed()
    s2 = s2b
    s3 = state_of(a, replace(b, declared=True))  # someone left: only the whole text will do
    w.text(s3)
    assert w.delta(s2, s3) is None
    assert w.delta(s1, s3) is None  # not a change of the state before it either
