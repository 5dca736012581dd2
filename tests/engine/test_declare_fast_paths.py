"""The declaration's shortcuts (issue 13) decide what the long way decided: a flat action
copied in one step is the same copy, and what the shortcut skips (the extra-action checks,
the slot of a late declaration) is still checked when it matters (TURN-01/02, MAN-06..08,
DEF-04)."""

from __future__ import annotations

import pathlib

import pytest

from wodcombat.combat.d10 import scheduler as S
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.d10.state import plain

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "numetal")


def started(rs, spec):
    """A combat in turn 1's declaration phase: spec is [(key, rating, face), ...]."""
    st = S.new_combat("c1", rs)
    for key, rating, face in spec:
        st = S.join(st, key, key.title(), rs).state
        st = S.roll_initiative(st, key, rs, rating=rating, faces=[face]).state
    return S.advance(st, rs).state


# ---------------------------------------------------------------- plain


def test_plain_copies_a_flat_action_as_a_new_dict_in_the_same_order():
    action = {"kind": "attack", "target": "#2", "weapon": "Knife", "willpower": True}
    copy = plain(action)
    assert copy == action and copy is not action
    assert list(copy) == list(action)
    copy["kind"] = "dodge"
    assert action["kind"] == "attack"


def test_plain_copies_nested_values_deeply():
    action = {"kind": "attack", "targets": ["#2", "#3"], "magic": {"roll": ["Wits", 2]}}
    copy = plain(action)
    assert copy == action
    action["targets"].append("#4")
    action["magic"]["roll"].append("Occult")
    assert copy["targets"] == ["#2", "#3"] and copy["magic"]["roll"] == ["Wits", 2]


def test_plain_refuses_what_json_cannot_keep_and_names_where():
    with pytest.raises(InputError, match=r"action 1: keys must be text, got 3"):
        plain({"kind": "attack", 3: "x"}, "action 1")
    with pytest.raises(InputError, match=r"action 2\.weapon: object cannot be stored"):
        plain({"kind": "attack", "weapon": object()}, "action 2")
    with pytest.raises(InputError, match=r"action\.targets\[1\]: set cannot be stored"):
        plain({"kind": "attack", "targets": ["#2", {"#3"}]})


# ---------------------------------------------------------------- the scheduler's checks

A = {"kind": "strike", "target": "b"}


def test_a_blank_extra_source_is_a_normal_action(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [A], rs).state
    st = S.declare(st, "a", [{"kind": "strike", "target": "b", "extra": " "}], rs).state
    a = st.get("a")
    assert a.main == 1 and a.actions[0]["extra"] == ""


def test_extra_actions_are_checked_only_when_declared_and_then_by_source(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [A], rs).state
    with pytest.raises(InputError, match="'haste' is not a source of extra actions"):
        S.declare(st, "a", [A, dict(A, extra="haste")], rs)
    with pytest.raises(IllegalAction, match="has 0 celerity action"):
        S.declare(st, "a", [A, dict(A, extra="Celerity ")], rs)


def test_desperate_defense_names_the_first_non_defense_as_declared(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])
    st = S.declare(st, "b", [A], rs).state
    with pytest.raises(IllegalAction, match="not kick"):
        S.declare(st, "a", [{"kind": "dodge"}, {"kind": "kick"}, A], rs, desperate=True)
    st = S.declare(st, "a", [{"kind": "dodge"}, {"kind": "block"}], rs, desperate=True).state
    assert st.get("a").reactive == (0, 1) and st.get("a").main == 0


def test_out_of_turn_declarations_are_refused_naming_who_the_turn_waits_for(rs):
    st = started(rs, [("a", 8, 7), ("b", 3, 2)])  # TURN-01: low to high, b first
    with pytest.raises(IllegalAction, match="Not A's turn to declare: waiting for B"):
        S.declare(st, "a", [A], rs)


# ---------------------------------------------------------------- CLOSE-08's table


def test_close_08_attack_table_mended_after_a_declaration_equals_a_whole_build():
    """CLOSE-08 counts the foes who declared a close attack on someone: a declaration mends
    the table at the place that changed (a crowd of 100 no longer rebuilds it each time),
    and the mended table is the one a whole build gives, order included."""
    import random
    from types import SimpleNamespace

    from wodcombat.combat.d10 import close
    from wodcombat.combat.core.memo import Memo

    rng = random.Random(5)
    keys = [f"#{i}" for i in range(12)]

    def actions():
        pick = rng.random()
        if pick < 0.3:
            return ()
        if pick < 0.5:
            return ({"kind": "dodge"},)
        return tuple({"kind": rng.choice(["attack", "attack", "grapple"]),
                      "target": rng.choice(keys), "n": n} for n in range(rng.randint(1, 3)))

    crowd = [SimpleNamespace(actions=actions()) for _ in keys]
    memo = Memo()  # goes on mending its table
    for step in range(300):
        for _ in range(rng.choice([1, 1, 1, 2, 5])):  # mostly one declaration, at times more
            crowd[rng.randrange(len(crowd))] = SimpleNamespace(actions=actions())
        got = close._attacks_on(tuple(crowd), memo)
        whole = close._attacks_on(tuple(crowd), Memo())  # a whole build
        assert dict(got) == dict(whole), step
