"""Who is in the fight: joining (SPOT-05, SPOT-13), leaving, and the end of the scene."""

from __future__ import annotations

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from .. import dice as v5dice
from .. import harm, roster
from .base import Action, live, out, sheet, sheet_or_none, step_out, with_hunger

REMOVE_WHY = ("leave", "kick", "deleted")


class Join(Action):
    """PCs from their sheet (vampire, Blood Potency: SPOT-13); opponents from theirs when
    they have one (a template), else plain HP (``hp``) and turns a round (SPOT-05)."""

    intent = intents.Join
    reads = "the joiner's sheet (an opponent's if it has one)"

    def check(self, st, intent: intents.Join, sheets, rules) -> None:
        live(st)
        if not intent.actor:
            raise InputError("Who joins? A combatant needs a key (a dbref).")
        name = (intent.name or intent.actor).strip()
        if intent.opening:
            return
        if intent.is_npc and any(c.name.lower() == name.lower() for c in st.combatants):
            raise IllegalAction(f"Someone called {name} is already in this fight.")

    def resolve(self, st, intent: intents.Join, sheets, rules, rng) -> Outcome:
        key, name = intent.actor, (intent.name or intent.actor).strip()
        if intent.opening:  # issue 10: the organizer runs the fight; a PC only by /join
            return out(st, [{"event": "organizer", "actor": key, "name": name}])
        if intent.is_npc:
            s = sheet_or_none(sheets, key)
            profile = roster.sheet_profile(s, rules) if s is not None else {}
            apr = intent.actions
        else:
            profile = roster.sheet_profile(sheet(sheets, key, name), rules)
            apr = 1 if intent.actions is None else intent.actions  # SPOT-04: once a round
        step = roster.join(st, key, name, rules, is_npc=intent.is_npc,
                           controller=intent.controller, hp=intent.hp,
                           actions_per_round=apr, **profile)
        return step_out(step)


class Remove(Action):
    """Leave, kick, or the game removing a deleted character (a no-op once gone)."""

    intent = intents.Remove

    def check(self, st, intent: intents.Remove, sheets, rules) -> None:
        if intent.why not in REMOVE_WHY:
            raise InputError(f"A removal is {', '.join(REMOVE_WHY)}, not '{intent.why}'.")
        if intent.why == "leave" and st.get(intent.actor or intent.by) is None:
            raise IllegalAction("You are not in this fight.")

    def resolve(self, st, intent: intents.Remove, sheets, rules, rng) -> Outcome:
        key = intent.actor or intent.by
        c = st.get(key)
        first: list[dict] = []
        if intent.why == "deleted":
            if c is None or st.stage == "ended":
                return Outcome(st)
            first = [{"event": "deleted", "actor": key, "name": c.name}]
        step = roster.remove(st, key, rules)
        events = [{**e, "why": intent.why} if e.get("event") == "leave" else e
                  for e in step.events]
        return out(step.state, first + events)


class End(Action):
    """The end of the scene: the vampires' Hunger Check heals their Superficial Harm (seed
    004, harm.yaml READING), then the fight ends; Harm and Hunger go back to the sheets."""

    intent = intents.End
    reads = "the Hunger on the sheets of the vampires with Superficial Harm"

    def check(self, st, intent, sheets, rules) -> None:
        live(st)

    def resolve(self, st, intent, sheets, rules, rng) -> Outcome:
        hungers = {}
        for c in st.combatants:
            if c.vampire and c.status == "active" and c.superficial:
                s = sheet_or_none(sheets, c.key)
                hungers[c.key] = v5dice.hunger_of(s, rules) if s is not None else 0
        sides = v5dice.v5_rules(rules).sides if v5dice.uses_v5(rules) else 10
        healed, checks = harm.scene_end(st, rules, rng, hungers, sides)
        step = roster.end(healed, rules)
        return with_hunger(out(step.state, [*checks, *step.events]), checks, sheets, rules)
