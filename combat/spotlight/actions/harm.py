"""Harm by hand, stakes and blood (SPOT-11..14)."""

from __future__ import annotations

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from .. import dice as v5dice
from .. import harm
from ..refusals import d10_only
from .base import Action, named, sheet_or_none, step_out, with_hunger


class StaffDamage(Action):
    """SPOT-11: staff mark Harm by hand (superficial or aggravated)."""

    intent = intents.StaffDamage

    def check(self, st, intent: intents.StaffDamage, sheets, rules) -> None:
        named(st, intent, "+combat/damage <name>=<n> superficial|aggravated")
        if intent.sources:
            raise InputError("Harm here names no source: +combat/damage <name>=<n> "
                             "superficial|aggravated.")

    def resolve(self, st, intent: intents.StaffDamage, sheets, rules, rng) -> Outcome:
        return step_out(harm.harm(st, st.find(intent.actor).key, intent.levels,
                                  intent.damage_type, rules, source=f"staff {intent.by}"))


class StaffHeal(Action):
    """Seed 004 heals nothing mid-combat; only blood revives a vampire in torpor (SPOT-14)."""

    intent = intents.StaffHeal

    def check(self, st, intent, sheets, rules) -> None:
        raise IllegalAction(d10_only(intent))


class Stake(Action):
    """SPOT-12: staked at once; ``remove`` pulls the stake."""

    intent = intents.Stake

    def resolve(self, st, intent: intents.Stake, sheets, rules, rng) -> Outcome:
        c = named(st, intent, "+combat/stake <name>")
        return step_out((harm.unstake if intent.remove else harm.stake)(st, c.key, rules))


class Feed(Action):
    """SPOT-14: blood slaking ``slaked`` Hunger revives a vampire in torpor; one still up
    heals its Harm and its Hunger drops (read from its sheet, written back)."""

    intent = intents.Feed
    reads = "the vampire's Hunger, from its sheet, when it is up"

    def resolve(self, st, intent: intents.Feed, sheets, rules, rng) -> Outcome:
        c = named(st, intent, "+combat/feed <name>=<hunger slaked>")
        hunger = None
        if c.status == "active":
            s = sheet_or_none(sheets, c.key)
            hunger = v5dice.hunger_of(s, rules) if s is not None and v5dice.uses_v5(rules) else 0
        step = harm.feed(st, c.key, intent.slaked, rules, hunger=hunger)
        return with_hunger(step_out(step), [e for e in step.events if e.get("event") == "feed"],
                           sheets, rules)
