"""What a player typed that only the d10 engine takes, and what to type here instead."""

from __future__ import annotations

from types import MappingProxyType

from ..core import intents

# Keyed by intent kind; ``DECLARED`` refines ``declare`` by what was declared (the d10
# shorthands /attack, /dodge, /celerity ... are declarations).
D10_ONLY = MappingProxyType({
    "declare": "there is no declaration: on your turn use +combat/act, /move, /free, /done",
    "pass": "end your turn with +combat/done",
    "delay": "the spotlight moves in initiative order; end your turn with +combat/done",
    "abort": "there is nothing declared to abort; act on your turn with +combat/act",
    "cover": "there is no cover here: what counts is the range (+combat/move, SPOT-10)",
    "heal": "blood revives a vampire in torpor: +combat/feed <name>=<hunger slaked>",
})
DECLARED = MappingProxyType({
    "attack": "attack on your turn: +combat/act attack <target> [with <weapon>]",
    "dodge": "there are no declared defenses here; act on your turn with +combat/act",
    "block": "there are no declared defenses here; act on your turn with +combat/act",
    "parry": "there are no declared defenses here; act on your turn with +combat/act",
    "defend": "there are no declared defenses here; act on your turn with +combat/act",
    "celerity": "a turn is one move, one action, one free action (SPOT-07)",
    "rage": "a turn is one move, one action, one free action (SPOT-07)",
    "spend": "a turn is one move, one action, one free action (SPOT-07)",
})
SWITCH = MappingProxyType({"cover": "mod"})  # the switch a player types for these kinds


def _declared_word(intent: intents.Intent) -> str:
    """The d10 shorthand a declaration came from (``attack``, ``dodge``, ``celerity`` ...)."""
    words = [str(a.get("activate", "")) for a in getattr(intent, "activations", ())]
    for a in getattr(intent, "actions", ()):
        words.append("defend" if a.get("desperate") else str(a.get("kind", "")))
    words = ["spend" if w == "effect" else w for w in words]
    return next((w for w in words if w in DECLARED), "declare")


def d10_only(intent: intents.Intent) -> str:
    """The refusal of an intent this engine does not take, with what to type instead."""
    if intent.kind == "declare":
        word = _declared_word(intent)
        hint = DECLARED.get(word, D10_ONLY["declare"])
    else:
        word = SWITCH.get(intent.kind, intent.kind)
        hint = D10_ONLY.get(intent.kind, "see +combat for what this fight takes")
    return (f"+combat/{word} is for d10 combats; this fight runs the spotlight engine: "
            f"{hint}. See +combat for the state.")
