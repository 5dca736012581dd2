"""One combat as a persistent Evennia Script attached to its room.

Why a Script: it lives in the database, so the combat survives ``evennia reload`` and a
restart; attached to the room, ``+combat`` finds it with the room's script handler.

Storage: the whole ``combat.state.CombatState`` is ONE Attribute (``state``: its ``to_dict``
as JSON text, so Evennia's pickled containers never leak into the engine), plus the ruleset
name it started with and the organizer's dbref, written once. A command computes every new
value first (state and sheets) and then ``commit``s them inside one transaction: all or
nothing.
"""

from __future__ import annotations

import json
import time
import uuid

from django.db import transaction
from evennia.scripts.scripts import DefaultScript

from combat.state import CombatState
from world import combatlog, rulebook

COMBAT_KEY = "wod_combat"


class CombatScript(DefaultScript):
    """A running World of Darkness combat (see module doc)."""

    def at_script_creation(self):
        self.key = COMBAT_KEY
        self.desc = "A World of Darkness combat in this room."
        self.persistent = True

    # ------------------------------------------------------------ reading

    @property
    def combat_id(self) -> str:
        return self.get_state().id

    @staticmethod
    def new_id(room) -> str:
        """Unique over the game's life (database ids can come back after a rollback)."""
        return f"{room.id}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"

    @property
    def ruleset_name(self) -> str:
        return self.attributes.get("ruleset") or rulebook.default_name()

    @property
    def organizer(self) -> str | None:
        return self.attributes.get("organizer")

    def ruleset(self):
        return rulebook.get(self.ruleset_name)

    def get_state(self) -> CombatState:
        cached = self.ndb.state
        if cached is not None:
            return cached
        state = CombatState.from_dict(json.loads(self.attributes.get("state")))
        self.ndb.state = state
        return state

    # ------------------------------------------------------------ writing

    def setup(self, state: CombatState, ruleset_name: str, organizer: str) -> None:
        self.attributes.add("ruleset", ruleset_name)
        self.attributes.add("organizer", organizer)
        self.attributes.add("state", json.dumps(state.to_dict()))
        self.ndb.state = state

    def commit(self, state: CombatState, sheets=(), events=(), before=None) -> list[dict]:
        """Save the new state and every changed sheet ((character, Sheet) pairs) in one
        transaction, then append the events to the log. ``before``: the state the command
        started from (the log's turn and phase). Returns the log records."""
        before = before or state
        text = json.dumps(state.to_dict())
        with transaction.atomic():
            attr = self.attributes.get("state", return_obj=True)
            if attr is None:
                self.attributes.add("state", text)
            else:
                attr.value = text  # one UPDATE (AttributeHandler.add writes twice)
            for char, sheet in sheets:
                char.sheet.save(sheet)
        self.ndb.state = state
        return combatlog.write(state.id, self.ruleset_name, before.turn, before.phase, events)

    def forget_cache(self) -> None:
        """Drop in-memory copies (what a reload does)."""
        if self.ndb.state is not None:
            combatlog.forget(self.ndb.state.id)
        self.ndb.state = None


def combat_in(room) -> CombatScript | None:
    """The combat running in ``room``, if any."""
    if room is None:
        return None
    for script in room.scripts.get(COMBAT_KEY):
        if isinstance(script, CombatScript):
            return script
    return None
