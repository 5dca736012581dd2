"""The round (SPOT-01..10): initiative, the Storyteller moving the spotlight on, tied PCs
settling their order, ambushes, environment events, ranges and conditions."""

from __future__ import annotations

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from .. import conditions, initiative, passing, ranges
from .base import Action, live, named, own, sheet, step_out


class RollInitiative(Action):
    """SPOT-01: only PCs roll, the YAML's dice + the highest of their initiative traits."""

    intent = intents.RollInitiative
    reads = "the PC's sheet (its initiative traits)"

    def check(self, st, intent: intents.RollInitiative, sheets, rules) -> None:
        live(st)
        if intent.rating is not None:
            raise IllegalAction("Opponents don't roll initiative (SPOT-01); roll your own "
                                "with +combat/init.")
        if intent.adjust:
            raise IllegalAction("Initiative here takes no modifier by hand: +combat/init.")

    def resolve(self, st, intent: intents.RollInitiative, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        ratings = (initiative.initiative_ratings(sheet(sheets, c.key, c.name), rules)
                   if c.is_pc else {})
        return step_out(initiative.roll_initiative(st, c.key, rules, rng, ratings=ratings))


class Advance(Action):
    """SPOT-04..06: the Storyteller gives an opponent the spotlight, or moves on."""

    intent = intents.Advance

    def resolve(self, st, intent: intents.Advance, sheets, rules, rng) -> Outcome:
        if intent.actor:
            return step_out(passing.next_opponent(st, intent.actor, rules))
        return step_out(passing.advance(st, rules))


class Swap(Action):
    """SPOT-03: tied PCs settle it: ``actor`` goes before ``other``."""

    intent = intents.Swap

    def resolve(self, st, intent: intents.Swap, sheets, rules, rng) -> Outcome:
        a = named(st, intent, "+combat/swap <goes first>=<goes second>")
        return step_out(initiative.swap(st, a.key, intent.other, rules))


class Ambush(Action):
    """SPOT-08: one side got the drop."""

    intent = intents.Ambush

    def resolve(self, st, intent: intents.Ambush, sheets, rules, rng) -> Outcome:
        return step_out(passing.ambush(st, intent.side, rules))


class Narrate(Action):
    """SPOT-09: an environment event between turns."""

    intent = intents.Narrate

    def resolve(self, st, intent: intents.Narrate, sheets, rules, rng) -> Outcome:
        return step_out(passing.event(st, intent.text, rules))


class SetCondition(Action):
    """Issue 31: a condition put on for some rounds, or until removed, or taken off."""

    intent = intents.SetCondition

    def check(self, st, intent: intents.SetCondition, sheets, rules) -> None:
        named(st, intent, "+combat/mod <name>=<condition> [<rounds>]")
        if intent.remove and intent.turns is not None:
            raise InputError(f"Take a condition off without a number: +combat/mod "
                             f"<name>=!{intent.condition.strip()}.")

    def resolve(self, st, intent: intents.SetCondition, sheets, rules, rng) -> Outcome:
        c = st.find(intent.actor)
        if intent.remove:
            return step_out(conditions.take_off(st, c.key, intent.condition, rules))
        return step_out(conditions.put_on(st, c.key, intent.condition, intent.turns, rules))


class SetRange(Action):
    """SPOT-10: the Storyteller places two combatants at a band, or everyone (actor "*")."""

    intent = intents.SetRange

    def resolve(self, st, intent: intents.SetRange, sheets, rules, rng) -> Outcome:
        if intent.actor == "*":
            return step_out(ranges.set_every_range(st, intent.band, rules))
        a = named(st, intent, "+combat/range <a>/<b>=<range>")
        return step_out(ranges.set_range(st, a.key, intent.other, intent.band, rules))
