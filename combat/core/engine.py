"""The engine interface (a ``Protocol``) and the choice between the two engines.

The ruleset's ``engine:`` key picks the engine (``d10`` unless it says ``spotlight``); the
game side calls ``engine_for(rules)`` and never asks which one it got.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Protocol

from .intents import Intent
from .outcome import Outcome


class Engine(Protocol):
    name: str

    def new_combat(self, combat_id: str, rules, options: Mapping[str, Any]) -> Outcome:
        """A fresh state for ``+combat/start`` (its ``start`` event names the options)."""

    def apply(self, state, intent: Intent, sheets: Mapping[str, Any], rules,
              rng: random.Random, *, memo: Any = None) -> Outcome:
        """Pure: the new state, the sheets changed (by key) and the events. An illegal intent
        raises ``IllegalAction``/``InputError`` and changes nothing. ``memo`` (a
        ``combat.core.memo.Memo``, kept by the caller as long as it likes: one simulation run)
        spares building equal plans again; without one, each call makes its own."""

    def load(self, data: Mapping) -> Any:
        """The state from its stored ``to_dict``."""

    def prompts(self, state) -> list[tuple[str, str]]:
        """(key, what) the fight waits for now."""

    def pending(self, state) -> list[str]:
        """The keys the fight waits for now."""


def engine_name(rules) -> str:
    return str(rules.raw.get("engine") or "d10") if hasattr(rules, "raw") else "d10"


def engine_for(rules) -> Engine:
    from ..spotlight import schema as spotlight

    if spotlight.engine_of(rules) == "spotlight":
        from ..spotlight.engine import ENGINE
    else:
        from ..d10.engine import ENGINE
    return ENGINE


def engine_of_state(data: Mapping) -> Engine:
    """The engine a stored state belongs to (its ``engine`` field; d10 states have none)."""
    if data.get("engine") == "spotlight":
        from ..spotlight.engine import ENGINE
    else:
        from ..d10.engine import ENGINE
    return ENGINE
