"""One combat as a persistent Evennia Script attached to its room.

Why a Script: it lives in the database, so the combat survives ``evennia reload`` and a
restart; attached to the room, ``+combat`` finds it with the room's script handler.

Storage: the whole engine state is one JSON text (its ``to_dict``, so Evennia's pickled
containers never leak into the engine). The fight's log (``wodcombat.models.CombatRecord``, one
row per command) keeps the state after each command; the newest row's is the fight's state
(issue 13: one INSERT a command, no UPDATE). The ``state`` Attribute keeps the state it
started with (and its id), with the ruleset name, the rules' digest and the organizer's
dbref, written once. ``wodcombat/world/combat_service.py`` computes every new value first (state and
sheets) and then ``commit``s them here inside one transaction: all or nothing.
"""

from __future__ import annotations

import json
from contextlib import nullcontext

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from evennia.scripts.scripts import DefaultScript
from evennia.typeclasses.attributes import Attribute

from wodcombat.combat.core.engine import engine_of_state
from wodcombat.world import combatlog, rulebook, sheet_log
from wodcombat.world.combat_service import COMBAT_KEY
from wodcombat.world.fight_relay import WATCHERS
from wodcombat.world.state_text import StateText

from . import combat_timers, rollback

#: a log row keeps the whole state at least this often (the others keep what changed), so
#: reading a fight's state back after a reload or an undo reads at most this many rows
FULL_STATE_EVERY = 50

__all__ = ["COMBAT_KEY", "CombatScript", "combat_in"]


class CombatScript(combat_timers.TimerMixin, DefaultScript):
    """A running World of Darkness combat (see module doc). It ticks every few seconds to
    apply the idle timeout (``wodcombat/typeclasses/combat_timers.py``)."""

    def at_script_creation(self):
        self.key = COMBAT_KEY
        self.desc = "A World of Darkness combat in this room."
        self.persistent = True
        self.interval = combat_timers.TICK
        self.start_delay = True

    # ------------------------------------------------------------ reading
    #
    # Issue 13: every fight command reads the organizer, the ruleset and its digest, and
    # the state's Attribute object a dozen times in all: ~5 us each through the Attribute
    # handler, ~2.5 us each for an ``ndb`` value. They are kept in plain attributes of this
    # (idmapper-cached) instance instead; a reload makes a new instance, so nothing outlives
    # what ndb would. The write-once Attributes are kept per ``_generation``: any save or
    # delete of one of those keys anywhere (our setters, staff, a test) and a rollback
    # (``commit``'s, with rollback.restore_after_rollback) start every fight's memo afresh.

    def _memo(self) -> dict:
        kept = getattr(self, "_wod_memo", None)
        if kept is None or kept[0] != _generation[0]:
            kept = self._wod_memo = (_generation[0], {})
        return kept[1]

    def _attribute(self, key: str):
        memo = self._memo()
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = self.attributes.get(key)
            return value

    @property
    def combat_id(self) -> str:
        return self.get_state().id

    @property
    def ruleset_name(self) -> str:
        return self._attribute("ruleset") or rulebook.default_name()

    @property
    def organizer(self) -> str | None:
        return self._attribute("organizer")

    @property
    def watchers(self) -> list[str]:
        """The keys of staff following this fight from elsewhere (+combat/watch): asked by
        every command that tells the room (wodcombat/world/fight_relay.py)."""
        return self._attribute(WATCHERS) or []

    @property
    def is_mock(self) -> bool:
        """A rehearsal: every sheet the fight changes is put back when it ends."""
        return bool(self._attribute("mock"))

    def ruleset(self):
        # The rules this combat started with, even after +rules/reload or a restart
        # (world/rulebook.pinned: a digest, and a snapshot read only when needed).
        return rulebook.pinned(self.ruleset_name, self._attribute("rules_digest"),
                               lambda: self.attributes.get("rules_snapshot"))

    def engine(self):
        """The engine this fight's state belongs to (``wodcombat.combat.core.engine``)."""
        cached = getattr(self, "_wod_engine", None)
        if cached is None:
            cached = self._wod_engine = engine_of_state(json.loads(self.stored_text()))
        return cached

    def get_state(self):
        cached = getattr(self, "_wod_state", None)
        if cached is not None:
            return cached
        data = json.loads(self.stored_text())
        state = self._wod_state = engine_of_state(data).load(data)
        return state

    def _state_attribute(self):
        memo = self._memo()
        attr = memo.get("state")
        if attr is None or attr.pk is None:
            attr = memo["state"] = self.attributes.get("state", return_obj=True)
        return attr

    def stored_text(self) -> str | None:
        """The stored state's JSON: the text of ``get_state()`` (both change together)."""
        text = getattr(self, "_wod_stored", None)
        if text is None:
            text = self._wod_stored = self._read_stored()
        return text

    def _read_stored(self) -> str | None:
        """The newest log row's state; before the first, the ``state`` Attribute's."""
        first = self.started_text()
        if first is None:
            return None
        return combatlog.state_before(json.loads(first)["id"]) or first

    def started_text(self) -> str | None:
        """The ``state`` Attribute: the state the fight started with (for a fight logged
        before issue 13, its state up to its first command since): the state before the
        first log row that keeps one."""
        attr = self._state_attribute()
        return attr.value if attr is not None else None

    def dump(self, state) -> str:
        """``json.dumps(state.to_dict())``, re-encoding only the combatants that changed
        since the last call (issue 13: a commit costs the same in a fight of 10 or 100)."""
        writer = getattr(self, "wod_state_text", None)
        if writer is None:
            writer = self.wod_state_text = StateText()
        return writer.text(state)

    # ------------------------------------------------------------ writing

    def setup(self, state, ruleset_name: str, organizer: str) -> None:
        self.attributes.add("ruleset", ruleset_name)
        digest, text = rulebook.snapshot(rulebook.get(ruleset_name))  # pin the rules
        self.attributes.add("rules_digest", digest)
        self.attributes.add("rules_snapshot", text)
        self.attributes.add("organizer", organizer)
        text = self.dump(state)
        self.attributes.add("state", text)  # the state it starts with (and its id)
        self._wod_state, self._wod_stored = state, text

    def set_organizer(self, key: str) -> None:
        self.attributes.add("organizer", key)

    def set_mock(self) -> None:
        self.attributes.add("mock", True)

    def commit(self, state, sheets=(), events=(), before=None, stored: str | None = None,
               undo=None, tell: bool = True) -> list[str]:
        """Save every changed sheet ((character, Sheet) pairs) and the log's row for these
        events, which keeps the new state, in one transaction. ``before``: the state the
        command started from (the log's turn and phase); ``stored``: the state's JSON if the
        caller has it already; ``undo``: what restoring the fight to before needs beyond
        the row before this one (the sheets); ``tell``: the sheets' owners hear their vitals
        at the commit (False: the caller tells them). Returns the records' JSON texts."""
        events = list(events)
        if not events:  # no row, no state: every command logs at least its intent
            raise ValueError("a fight's commit logs at least one record")
        before = before or state
        text = stored if stored is not None else self.dump(state)
        sheets = list(sheets)
        first = self._state_attribute() is None  # set up without one: its first state
        # A command that changes no sheet writes one statement, the log row with the state:
        # atomic on its own, so no BEGIN ... COMMIT around it (issue 13: Django's
        # transaction costs a declaration more than its INSERT). Inside a caller's
        # transaction (a fight's start, a new NPC) it is part of that one.
        whole = transaction.atomic() if sheets or first else nullcontext()
        row_state = self._row_state(state, text)
        try:
            with whole:
                if first:
                    self.attributes.add("state", text)
                for char, sheet in sheets:
                    char.sheet.save(sheet, tell=tell)
                # Issue 13: the state goes in the log's row (one INSERT) instead of an
                # UPDATE of the Attribute: one statement and one copy of the state fewer.
                records = combatlog.write(state.id, self.ruleset_name,
                                          *combatlog.clock(before), events, undo=undo,
                                          state=row_state)
        except BaseException:
            # The rows are rolled back; put the cached copies back too.
            self._wod_state = self._wod_stored = None
            self.wod_state_text = None  # its deltas were of a state no row keeps
            combatlog.forget(state.id)
            sheet_log.forget(self)
            memo_changed()  # a rollback is no save either: every fight's memo is old
            rollback.restore_after_rollback([self, *(char for char, _ in sheets)])
            raise
        self._wod_state, self._wod_stored = state, text
        writer = getattr(self, "wod_state_text", None)
        if writer is not None:
            writer.committed()
        return records

    def _row_state(self, state, text: str) -> str:
        """What the log row keeps of ``state``: the change from the row before's state
        (issue 13: a commit writes what the command changed, not the whole fight: the state
        of a crowd of 100 is ~20 kB), or the whole ``text`` every ``FULL_STATE_EVERY`` rows,
        when the writer has no base (after a reload, a rollback) or when someone joined or
        left. ``combatlog.state_before`` reads the rows back onto the last whole one."""
        writer = getattr(self, "wod_state_text", None)
        since = getattr(self, "_wod_since_full", None)
        delta = None
        if writer is not None and since is not None and since + 1 < FULL_STATE_EVERY:
            delta = writer.delta(getattr(self, "_wod_state", None), state)
        self._wod_since_full = 0 if delta is None else since + 1
        return text if delta is None else delta

    def forget_cache(self) -> None:
        """Drop in-memory copies (what a reload does)."""
        state = getattr(self, "_wod_state", None)
        if state is not None:
            combatlog.forget(state.id)
        self._wod_state = self._wod_stored = self._wod_memo = None
        self.wod_state_text = self._wod_since_full = None
        sheet_log.forget(self)


def combat_in(room) -> CombatScript | None:
    """The combat running in ``room``, if any."""
    if room is None:
        return None
    # Remembered on the room between commands (a plain attribute of the cached instance,
    # as the fight's own caches): the lookup is a query, and every +combat command needs
    # it. A deleted script has no pk any more, so it is never returned.
    cached = getattr(room, "_wod_combat", None)
    if cached is not None and cached.pk is not None and cached.db_obj_id == room.id:
        return cached
    for script in room.scripts.get(COMBAT_KEY):
        if isinstance(script, CombatScript):
            room._wod_combat = script
            return script
    return None


#: bumped when a memo'd Attribute of any fight is saved or deleted (see CombatScript._memo)
_generation = [0]
_MEMO_KEYS = frozenset({"ruleset", "rules_digest", "organizer", "mock", "state", WATCHERS})


def memo_changed() -> None:
    _generation[0] += 1


def _on_attribute_write(sender, instance, **kwargs):
    if instance.db_key in _MEMO_KEYS:
        memo_changed()


post_save.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_combat_memo_saved")
post_delete.connect(_on_attribute_write, sender=Attribute,
                    dispatch_uid="wod_combat_memo_deleted")
