"""One combat as a persistent Evennia Script attached to its room.

Why a Script: it lives in the database, so the combat survives ``evennia reload`` and a
restart; attached to the room, ``+combat`` finds it with the room's script handler.

Storage: the whole engine state is ONE Attribute (``state``: its ``to_dict`` as JSON text,
so Evennia's pickled containers never leak into the engine), plus the ruleset name it
started with and the organizer's dbref, written once. ``world/combat_service.py`` computes
every new value first (state and sheets) and then ``commit``s them here inside one
transaction: all or nothing.
"""

from __future__ import annotations

import json

from django.db import transaction
from evennia.scripts.scripts import DefaultScript

from combat.core.engine import engine_of_state
from world import combatlog, plain_writes, rulebook, sheet_log
from world.combat_service import COMBAT_KEY
from world.state_text import StateText

from . import combat_guard, combat_timers

__all__ = ["COMBAT_KEY", "CombatScript", "combat_in"]


class CombatScript(combat_timers.TimerMixin, DefaultScript):
    """A running World of Darkness combat (see module doc). It ticks every few seconds to
    apply the idle timeout (``typeclasses/combat_timers.py``)."""

    def at_script_creation(self):
        self.key = COMBAT_KEY
        self.desc = "A World of Darkness combat in this room."
        self.persistent = True
        self.interval = combat_timers.TICK
        self.start_delay = True

    # ------------------------------------------------------------ reading

    @property
    def combat_id(self) -> str:
        return self.get_state().id

    @property
    def ruleset_name(self) -> str:
        return self.attributes.get("ruleset") or rulebook.default_name()

    @property
    def organizer(self) -> str | None:
        return self.attributes.get("organizer")

    def ruleset(self):
        # The rules this combat started with, even after +rules/reload or a restart
        # (world/rulebook.pinned: a digest, and a snapshot read only when needed).
        return rulebook.pinned(self.ruleset_name, self.attributes.get("rules_digest"),
                               lambda: self.attributes.get("rules_snapshot"))

    def engine(self):
        """The engine this fight's state belongs to (``combat.core.engine``)."""
        cached = self.ndb.engine
        if cached is None:
            cached = self.ndb.engine = engine_of_state(json.loads(self.attributes.get("state")))
        return cached

    def get_state(self):
        cached = self.ndb.state
        if cached is not None:
            return cached
        data = json.loads(self.attributes.get("state"))
        state = self.ndb.state = engine_of_state(data).load(data)
        return state

    def stored_text(self) -> str:
        """The stored state's JSON: the text of ``get_state()`` (both change together)."""
        return self.attributes.get("state")

    def dump(self, state) -> str:
        """``json.dumps(state.to_dict())``, re-encoding only the combatants that changed
        since the last call (issue 13: a commit costs the same in a fight of 10 or 100)."""
        writer = self.ndb.state_text
        if writer is None:
            writer = self.ndb.state_text = StateText()
        return writer.text(state)

    # ------------------------------------------------------------ writing

    def setup(self, state, ruleset_name: str, organizer: str) -> None:
        self.attributes.add("ruleset", ruleset_name)
        digest, text = rulebook.snapshot(rulebook.get(ruleset_name))  # pin the rules
        self.attributes.add("rules_digest", digest)
        self.attributes.add("rules_snapshot", text)
        self.attributes.add("organizer", organizer)
        self.attributes.add("state", self.dump(state))
        self.ndb.state = state

    def set_organizer(self, key: str) -> None:
        self.attributes.add("organizer", key)

    def commit(self, state, sheets=(), events=(), before=None, stored: str | None = None,
               undo=None) -> list[dict]:
        """Save the new state, every changed sheet ((character, Sheet) pairs) and the log's
        row for these events in one transaction. ``before``: the state the command started
        from (the log's turn and phase); ``stored``: the state's JSON if the caller has it
        already; ``undo``: what restoring the fight to before needs. Returns the records."""
        before = before or state
        text = stored if stored is not None else self.dump(state)
        sheets = list(sheets)
        try:
            with transaction.atomic():
                attr = self.attributes.get("state", return_obj=True)
                if attr is None:
                    self.attributes.add("state", text)
                else:
                    plain_writes.update_text(attr, text)  # one UPDATE, no save machinery
                for char, sheet in sheets:
                    char.sheet.save(sheet)
                records = combatlog.write(state.id, self.ruleset_name,
                                          *combatlog.clock(before), events, undo=undo)
        except BaseException:
            # The rows are rolled back; put the cached copies back too.
            self.ndb.state = None
            combatlog.forget(state.id)
            sheet_log.forget(self)
            combat_guard.restore_after_rollback([self, *(char for char, _ in sheets)])
            raise
        self.ndb.state = state
        return records

    def forget_cache(self) -> None:
        """Drop in-memory copies (what a reload does)."""
        if self.ndb.state is not None:
            combatlog.forget(self.ndb.state.id)
        self.ndb.state = None
        sheet_log.forget(self)


def combat_in(room) -> CombatScript | None:
    """The combat running in ``room``, if any."""
    if room is None:
        return None
    # Remembered on the room between commands: the lookup is a query, and every +combat
    # command needs it. A deleted script has no pk any more, so it is never returned.
    cached = room.ndb.wod_combat
    if cached is not None and cached.pk is not None and cached.db_obj_id == room.id:
        return cached
    for script in room.scripts.get(COMBAT_KEY):
        if isinstance(script, CombatScript):
            room.ndb.wod_combat = script
            return script
    return None
