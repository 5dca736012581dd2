"""Conditions on a combatant (COMP-02 dazed, COMP-04 knocked down, ...)."""

from __future__ import annotations

from ...core.errors import IllegalAction, InputError
from ...core.events import Event
from ...core.values import replace
from ..state import CombatState, Condition
from .phases import check_live, finish, loses_actions, put_combatant
from .rules import Step, turn_rules

# ---------------------------------------------------------------- conditions


def add_condition(
    state: CombatState, key: str, name: str, ruleset, *, turns: int | None = None,
    announce: bool = False,
) -> Step:
    """Put a condition on ``key`` (COMP-02 dazed, COMP-04 knocked_down / prone, ...).

    Its timing and effects come from ``turns.conditions``; names the table doesn't know are
    kept for other layers (e.g. ``blinded``) and last ``turns`` turns from now (None: until
    removed; combat/core/conditions.py says how they are counted). A condition of the same name
    is replaced. ``announce``: the room is told when its turns run out (put on by hand).
    """
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    name = name.strip().lower()
    if not name:
        raise InputError("Name the condition (dazed, knocked_down, prone, ...).")
    spec = rules.conditions.get(name) or {}
    start = state.turn + (1 if spec.get("starts", "now") == "next_turn" else 0)
    length = spec.get("turns") if turns is None else turns
    if length is not None and (not isinstance(length, int) or length < 1):
        raise InputError(f"A condition lasts at least one turn, not {length!r}.")
    until = None if length is None else start + length - 1
    conds = tuple(k for k in c.conditions if k.name != name) + (
        Condition(name, start, until, announce and until is not None),)
    lost = loses_actions(conds, state.turn, rules)
    c2 = replace(c, conditions=conds, lost=lost, delayed=c.delayed and not lost)
    effects = {k: v for k, v in spec.items() if k in ("lose_actions", "initiative", "removed_by")}
    ev = Event("condition", {
        "actor": key,
        "condition": name,
        "added": [name],  # the combat log's condition shape: added / removed
        "from": start,
        "until": until,
        "effects": effects,
    })
    return finish(state, put_combatant(state, c2), rules, [ev])


def remove_condition(state: CombatState, key: str, name: str, ruleset) -> Step:
    """End a condition early (everyman: blood/Rage/WP spent to ignore dazing; getting up)."""
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    name = name.strip().lower()
    if not any(k.name == name for k in c.conditions):
        have = ", ".join(k.name for k in c.conditions) or "none"
        raise IllegalAction(f"{c.name} is not {name} (conditions: {have}).")
    conds = tuple(k for k in c.conditions if k.name != name)
    c2 = replace(c, conditions=conds, lost=loses_actions(conds, state.turn, rules))
    ev = Event("condition", {"actor": key, "condition": name, "removed": [name]})
    return finish(state, put_combatant(state, c2), rules, [ev])
