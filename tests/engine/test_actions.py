"""The d10 engine's actions as small classes per kind (issue 32): one table from a declared
kind to the action that checks it when declared and performs it in its slot."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from wodcombat.combat.d10 import acting, declare
from wodcombat.combat.d10.actions import ACTIONS, PLAIN, action_for
from tests.engine.test_close_flow import ANN, DEE, OTHER, Fight

# every kind the declaration parser hands the engine as an action (combat_declare.py)
PARSED = ("attack", "dodge", "block", "parry", "aim", "reload", "nock", "prepare", "repair",
          "move", "rise", "escape", "resist", "ready", "heal", "other")


def test_each_kind_is_answered_by_the_one_action_that_names_it():
    actions = {id(a): a for a in ACTIONS.values()}.values()
    assert sum(len(a.kinds) for a in actions) == len(ACTIONS)  # no kind claimed twice
    for kind, action in ACTIONS.items():
        assert kind in action.kinds
    assert set(PARSED) <= set(ACTIONS)


def test_actions_are_values_with_check_and_resolve():
    for action in set(ACTIONS.values()):
        assert dataclasses.is_dataclass(action) and not hasattr(action, "__dict__")
        with pytest.raises(dataclasses.FrozenInstanceError):
            action.kinds = ()
        assert isinstance(action.reads, tuple)
        assert list(inspect.signature(action.check).parameters) == \
            ["f", "key", "a", "declared"]
        assert list(inspect.signature(action.resolve).parameters) == ["f", "key", "a", "mods"]


def test_declaring_and_acting_dispatch_through_the_table_not_on_the_kind():
    for fn in (acting.act, declare.check_actions):
        src = inspect.getsource(fn)
        assert "action_for(" in src
        assert 'kind == "' not in src and "kind in (" not in src


def test_a_kind_no_action_names_is_a_plain_action_as_before():
    """A kind the scheduler accepts with no rule of its own is acted as a plain action: its
    event names it (what acting's last branch did)."""
    assert action_for("juggle") is PLAIN
    f = Fight()
    f.declare(DEE, OTHER)
    f.declare(ANN, {"kind": "juggle", "text": "three knives"})
    ev = f.act(ANN)
    assert [(e["kind"], e["text"]) for e in ev if e["event"] == "action"] == \
        [("juggle", "three knives")]
