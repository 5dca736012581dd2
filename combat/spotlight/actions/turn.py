"""A turn (SPOT-07): one move, one action, one free action; ``done`` ends it. The action
(``+combat/act``) goes to the class of its kind: ``KINDS`` below, or a move of the moves
reading, or an action in words."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from .. import moves as mv
from .. import turn
from .attack import Attack, Bite, Grapple
from .base import TEXT_MAX, Action, live, own, step_out
from .moves import MoveAct, typed
from .power import Power


class Move(Action):
    """SPOT-07/10: one range step toward or away from someone."""

    intent = intents.Move

    def resolve(self, st, intent: intents.Move, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        return step_out(turn.move(st, c.key, intent.other, intent.direction, rules))


class Free(Action):
    """SPOT-07: the turn's free action."""

    intent = intents.Free

    def resolve(self, st, intent: intents.Free, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        return step_out(turn.free(st, c.key, rules, intent.text))


class Done(Action):
    """SPOT-07: the turn ends (what is unused is let go)."""

    intent = intents.Done

    def resolve(self, st, intent: intents.Done, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        return step_out(turn.done(st, c.key, rules))


class Plain:
    """An action the Storyteller narrates: a kind of its own (``search``), or in words
    (``other``); a tagged kind is checked against the target's range (SPOT-10)."""

    reads = "nothing but the fight's state"

    def check(self, st, c, action: dict, sheets, rules) -> None:
        return None

    def resolve(self, st, c, action: dict, sheets, rules, rng) -> Outcome:
        return step_out(turn.act(st, c.key, rules, action))


ATTACKS = ("attack", "bite", "grapple")  # the acts that roll (combat/spotlight/attack.py)
POWER = "power"  # a Discipline Power: a vampire's Rouse Check (SPOT-07, issue 31)
KINDS: Mapping[str, object] = MappingProxyType({
    "attack": Attack(), "bite": Bite(), "grapple": Grapple(), POWER: Power()})
PLAIN, MOVE = Plain(), MoveAct()


def typed_act(raw: Mapping | None, key: str) -> dict:
    """The act as ``turn.act`` takes it: an attack or bite names a target (not oneself); an
    attack may name a weapon (else the one carried), a bite none (SPOT-10: the bite is its
    own range tag); anything else is an action in words."""
    a = dict(raw or {})
    kind = str(a.get("kind") or "action").strip().lower()
    if kind in ATTACKS:
        target = str(a.get("target") or "").strip()
        if not target:
            raise InputError("Attack whom? +combat/act attack <target> [with <weapon>].")
        if target == key:
            raise IllegalAction("You cannot attack yourself.")
        weapon = str(a.get("weapon") or "").strip().lower()
        if kind != "attack":
            if weapon:
                raise InputError(f"A {kind} needs no weapon: +combat/act {kind} <target>.")
            return {"kind": kind, "target": target}
        out = {"kind": kind, "target": target}
        return {**out, "weapon": weapon} if weapon else out
    if kind == POWER:
        out = {"kind": kind, "power": str(a.get("power") or "").strip()}
        target = str(a.get("target") or "").strip()
        if target == key:
            raise IllegalAction("Use the power on someone else, or on no one.")
        return {**out, "target": target} if target else out
    if kind == "other":
        text = str(a.get("text") or "").strip()[:TEXT_MAX]
        if not text:
            raise InputError("Say what you do: +combat/act <what>.")
        return {"kind": kind, "text": text}
    return {**a, "kind": kind}


class Act(Action):
    """SPOT-07: the turn's one action, played by the class of its kind; an attack is
    rolled and its Harm marked at once."""

    intent = intents.Act
    reads = "what the kind of act reads (KINDS)"

    def check(self, st, intent: intents.Act, sheets, rules) -> None:
        live(st)
        if intent.willpower:
            raise IllegalAction("A spotlight action takes no Willpower point: +combat/act "
                                "<what>.")
        c = own(st, intent)
        kind, action = self.kind(c, intent, rules)
        kind.check(st, c, action, sheets, rules)

    def resolve(self, st, intent: intents.Act, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        kind, action = self.kind(c, intent, rules)
        return kind.resolve(st, c, action, sheets, rules, rng)

    def kind(self, c, intent: intents.Act, rules) -> tuple:
        """The class that plays the act, and the act as it takes it."""
        word = str((intent.action or {}).get("kind") or "").strip().lower()
        if word in mv.names(rules):  # issue 31: the moves reading
            return MOVE, typed(intent.action, word)
        action = typed_act(intent.action, c.key)
        return KINDS.get(action["kind"], PLAIN), action
