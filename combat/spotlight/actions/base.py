"""What every spotlight action stands on: the ``Action`` shape, and the small readings the
actions share (whose turn an intent is for, a sheet read only when needed, Harm and Hunger
written back to the sheets, worn armor)."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Mapping

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.events import events_of
from ...core.outcome import Outcome
from .. import dice as v5dice
from ..flow import Step
from ..state import Fighter, SpotlightState

UNARMED = "unarmed"  # the range tag of an attack named without a weapon
TEXT_MAX = 300  # an act described in words: kept short in the log


class Action:
    """One kind of intent. ``check`` refuses, before anything is rolled or changed, what
    the engine knows is wrong (an ``IllegalAction`` or ``InputError`` saying what to type
    instead); ``resolve`` plays it and returns the ``Outcome`` (the operations it calls
    refuse the rest). ``reads``: what it reads besides the state."""

    intent: ClassVar[type[intents.Intent]]
    reads: ClassVar[str] = "the fight's state"

    def check(self, st: SpotlightState, intent, sheets: Mapping[str, Any], rules) -> None:
        return None

    def resolve(self, st: SpotlightState, intent, sheets: Mapping[str, Any], rules,
                rng: random.Random) -> Outcome:
        raise NotImplementedError

    def __call__(self, st: SpotlightState, intent, sheets: Mapping[str, Any], rules,
                 rng: random.Random) -> Outcome:
        self.check(st, intent, sheets, rules)
        return self.resolve(st, intent, sheets, rules, rng)


def out(state: SpotlightState, events) -> Outcome:
    return Outcome(state, {}, events_of(events))


def step_out(step: Step) -> Outcome:
    return out(step.state, step.events)


def live(state: SpotlightState) -> None:
    if state.stage == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def own(state: SpotlightState, intent: intents.Intent) -> Fighter:
    """The fighter an intent is for: ``actor``, else the one who typed it."""
    key = intent.actor or intent.by
    c = state.get(key)
    if c is None and key == intent.by:
        raise IllegalAction("You are not in this fight: +combat/join first.")
    return c or state.find(key)


def named(state: SpotlightState, intent: intents.Intent, usage: str) -> Fighter:
    """The fighter an intent names (a target: kick, damage, stake ...)."""
    if not intent.actor:
        raise InputError(f"Name whom: {usage}.")
    return state.find(intent.actor)


def sheet(sheets: Mapping[str, Any], key: str, name: str):
    """One sheet, read only when needed (``sheets`` may load lazily)."""
    try:
        return sheets[key]
    except KeyError:
        raise IllegalAction(f"{name} has no sheet here.") from None


def sheet_or_none(sheets: Mapping[str, Any], key: str):
    try:
        return sheets[key]
    except KeyError:
        return None


def armor(sheet, rules) -> int:
    """SPOT-11: the rating of the armor the target wears (the ruleset's armor table)."""
    if sheet is None or not sheet.armor:
        return 0
    from ...core.maneuvers import tables

    try:
        return tables(rules).armor(sheet.armor).rating
    except InputError:
        return 0  # worn under another ruleset's table: it stops nothing here


def with_hunger(result: Outcome, events, sheets, rules) -> Outcome:
    """Write the Hunger that feeding or a Hunger Check changed back to the sheets."""
    changes = dict(result.sheet_changes)
    pool = v5dice.v5_rules(rules).hunger_pool if v5dice.uses_v5(rules) else "Hunger"
    for ev in events:
        key = ev.get("target") or ev.get("actor")
        if "hunger_after" not in ev or ev["hunger_after"] == ev.get("hunger_before"):
            continue
        s = changes.get(key) or sheet_or_none(sheets, key)
        if s is not None:
            changes[key] = s.with_pool_current(pool, ev["hunger_after"])
    return Outcome(result.state, changes, result.events)


def harm_to_sheets(before: SpotlightState, result: Outcome, sheets) -> Outcome:
    """Issue 10: Harm persists on the character like d10 health: whoever's marks changed
    gets their sheet back with the new marks (someone without a sheet keeps them in the
    fight only)."""
    changes, changed = dict(result.sheet_changes), False
    for c in result.state.combatants:
        old = before.get(c.key)
        if old is None or (old.superficial, old.aggravated) == (c.superficial, c.aggravated):
            continue
        s = changes.get(c.key) or sheet_or_none(sheets, c.key)
        if s is not None:
            changes[c.key], changed = s.with_harm(c.superficial, c.aggravated), True
    return Outcome(result.state, changes, result.events) if changed else result
