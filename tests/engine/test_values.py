"""combat/core/values.py: ``replace`` and ``fast_init`` are ``dataclasses.replace`` and the
generated ``__init__``, only faster (bench/engine.py); these check they give the same values."""

import dataclasses

import pytest

from wodcombat.combat.d10.gear import Gear, Grip
from wodcombat.combat.core.pools import Modifier
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.d10.state import Combatant, CombatState, Condition
from wodcombat.combat.core.values import fast_init, replace


@pytest.mark.parametrize("changes", [
    {}, {"used": (0,)}, {"used": (1,), "conditions": (Condition("dazed", 2),)},
    {"conditions": (), "used": (2,), "name": "Bea"},  # another order of names
])
def test_replace_gives_what_dataclasses_replace_gives(changes):
    c = Combatant("#1", "Ann", init_total=9, actions=({"kind": "dodge"},), reactive=(0,))
    ours, theirs = replace(c, **changes), dataclasses.replace(c, **changes)
    assert ours == theirs and type(ours) is Combatant
    assert ours is not c and replace(c, **changes) == theirs  # the cached copier again
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours.used = (5,)  # still frozen


def test_replace_resets_a_field_left_out_of_init():
    st = CombatState("c1", "numetal", combatants=(Combatant("#1", "Ann"),))
    object.__setattr__(st, "_waiting", (("#1", "initiative"),))
    copy = replace(st, seq=4)
    assert copy.seq == 4 and copy._waiting is None and copy.combatants == st.combatants


def test_replace_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError):
        replace(Gear(), colour="red")
    with pytest.raises(TypeError):
        replace(Gear(), cover="good", colour="red")


def test_replace_of_other_shapes_falls_back():
    g = replace(Gear(), grapple=Grip("#2", "clinch"))
    assert g == Gear(grapple=Grip("#2", "clinch"))
    s = Sheet(splat="mortal")
    assert replace(s, splat="vampire") == dataclasses.replace(s, splat="vampire")


def test_fast_init_builds_the_same_value():
    @fast_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple = ()
        extra: list = dataclasses.field(default_factory=list)

    a, b = Point(1), Point(1, 3, ("t",))
    assert (a.x, a.y, a.tags, a.extra) == (1, 2, (), []) and b.y == 3
    assert Point(1).extra is not Point(1).extra  # a new list each time, as the factory says
    assert Modifier("why", dice=-1) == Modifier(reason="why", dice=-1, difficulty=0)
