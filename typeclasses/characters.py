"""Characters and NPCs: a World of Darkness sheet behind one handler over one Attribute.

The whole sheet is one Attribute (category ``wod``), read once and written once per change,
so a command that changes a sheet costs one UPDATE, never one per trait (design card).

Issue 13: the Attribute holds the sheet's JSON as a string, which Evennia stores without
turning it into its pickled containers (a dict value is rebuilt as a ``_SaverDict`` tree on
every read). Each object keeps its parsed ``Sheet`` keyed on the stored value itself: any
write (``save`` here, staff ``set``, ``attributes.add``, a rollback putting the row back)
gives the Attribute a new value object, so a changed sheet is never served from the cache.
A sheet stored as a dict (before issue 13) still loads and becomes a string on its next save.
"""

import itertools
import json

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from evennia.objects.objects import DefaultCharacter
from evennia.typeclasses.attributes import Attribute
from evennia.utils.utils import lazy_property

from combat.sheet import Sheet
from world import jsontext, oob, overrides, plain_writes, rulebook

from .objects import ObjectParent
from .room_contents import contents_changed

SHEET_ATTR = ("sheet", "wod")

#: bumped whenever any sheet Attribute is written or deleted (the Attribute's own save and
#: delete signals, and ``combat_guard.restore_after_rollback``): what is drawn from many
#: sheets at once (the ``+combat`` table) is cached under it.
_epoch = itertools.count(1)
_current = next(_epoch)


def sheets_epoch() -> int:
    return _current


def sheets_changed() -> None:
    global _current
    _current = next(_epoch)


def _on_attribute_write(sender, instance, **kwargs):
    if instance.db_key == SHEET_ATTR[0] and instance.db_category == SHEET_ATTR[1]:
        sheets_changed()


post_save.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_sheet_saved")
post_delete.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_sheet_deleted")


def _parse(attr) -> Sheet:
    raw = attr.db_value
    if isinstance(raw, str):
        return Sheet.from_dict(json.loads(raw))
    return Sheet.from_dict(attr.value)  # stored as a dict before issue 13


class SheetHandler:
    """``char.sheet.get()`` returns the frozen Sheet; ``char.sheet.save(new)`` stores it."""

    def __init__(self, obj):
        self.obj = obj
        self._raw = None  # the stored value the cached sheet was parsed from
        self._sheet: Sheet | None = None

    def _attr(self):
        return self.obj.attributes.get(SHEET_ATTR[0], category=SHEET_ATTR[1], return_obj=True)

    def get(self) -> Sheet:
        attr = self._attr()
        if attr is None:
            return Sheet().with_pools_for(rulebook.get().traits)
        raw = attr.db_value
        if raw is not self._raw or self._sheet is None:
            self._sheet, self._raw = _parse(attr), raw
        return self._sheet

    def read(self) -> tuple[Sheet, str | None]:
        """(the sheet, the JSON text it was parsed from): the text is what the combat log
        splices in as the sheet read (no encoding again; ``None`` for a sheet stored as a
        dict before issue 13, or no sheet stored)."""
        sheet = self.get()
        raw = self._raw
        return sheet, (raw if isinstance(raw, str) and self._sheet is sheet else None)

    def stored_text(self) -> str | None:
        """The stored sheet's JSON text (what ``save`` wrote), or None."""
        attr = self._attr()
        raw = attr.db_value if attr is not None else None
        return raw if isinstance(raw, str) else None

    def save(self, sheet: Sheet) -> None:
        key, category = SHEET_ATTR
        text = jsontext.dumps(sheet.to_dict())  # json.dumps, its encoder built once
        attr = self._attr()
        if attr is None:
            self.obj.attributes.add(key, text, category=category)
        else:
            # One UPDATE (AttributeHandler.add() saves the row twice, value then strvalue),
            # as a plain statement: world/plain_writes.py says why.
            plain_writes.update_text(attr, text)
            sheets_changed()
        # The next get() parses the stored text: a sheet reads back as from_dict made it.
        # Issue 12: the owner's client hears the new vitals once the change is committed (a
        # fight's sheets are saved inside its transaction; a rollback sends nothing).
        if self.obj.sessions.count():
            transaction.on_commit(lambda: oob.send_vitals(self.obj, sheet))

    @property
    def exists(self) -> bool:
        return self.obj.attributes.has(SHEET_ATTR[0], category=SHEET_ATTR[1])


class Character(ObjectParent, DefaultCharacter):
    """A player character with a World of Darkness sheet."""

    is_npc = False

    @lazy_property
    def sheet(self) -> SheetHandler:
        return SheetHandler(self)

    def at_post_puppet(self, **kwargs):
        """Issue 12: a client that connects gets its gauges and the fight's state at once."""
        super().at_post_puppet(**kwargs)
        contents_changed(self.location)  # an NPC staff puppet reads the room's fight
        oob.send_vitals(self)
        from .combat import combat_in

        script = combat_in(self.location)
        if script is not None:
            oob.send_combat(self, script.engine(), script.get_state())

    def at_object_delete(self):
        """Issue 5: a character deleted mid-fight leaves it cleanly and the room is told
        (typeclasses/combat_guard.py). Disconnecting is not leaving: the idle rules apply."""
        from .combat_guard import remove_deleted

        remove_deleted(self)
        return super().at_object_delete()


class CallLockShortcut:
    """An NPC whose call lock is left as it is answers the command handler's question at
    once. It replaces Evennia's ``access`` for that one question: only with
    ``COMBAT_NPC_CALL_LOCK`` on (off, the lock handler evaluates it, as for any object)."""

    def access(self, accessing_obj, access_type="read", default=False,
               no_superuser_bypass=False, **kwargs):
        """A call lock left as it is answers no at once (``call_lock_is_false``); one staff
        changed is evaluated as usual. (A room of this game does not even ask: its
        ``contents_get`` leaves such NPCs out of the command handler's view.)"""
        if access_type == "call" and no_superuser_bypass and self.call_lock_is_false():
            return False  # what evaluating it gives (no one bypasses it)
        return super().access(accessing_obj, access_type=access_type, default=default,
                              no_superuser_bypass=no_superuser_bypass, **kwargs)


# Read once, as the class is made.
_SHORTCUT = (CallLockShortcut,) if overrides.enabled(overrides.NPC_CALL_LOCK) else ()


class NPC(*_SHORTCUT, Character):
    """A staff-run character: same sheet, no account; staff may edit and roll for it."""

    is_npc = True

    def call_lock_is_false(self) -> bool:
        """Whether the call lock is ``call:false()`` (DefaultCharacter's): the command handler
        asks every object in a room for it on every command (may its commands join the
        typist's?), and for an NPC the answer is no without evaluating it. The answer is
        kept with the lock string it was read from (a lock change stores a new one): asking
        the lock handler costs more than the rest. Issue 13."""
        # The field's value is read from the instance as Django's descriptor does (one call
        # fewer per NPC per command); not loaded, the lock is asked.
        stored = self.__dict__.get("db_lock_storage")
        if stored is None:
            return self.locks.get("call") == "call:false()"
        known = self.__dict__.get("_wod_call_false")
        if known is None or known[0] is not stored:
            known = self._wod_call_false = (stored, self.locks.get("call") == "call:false()")
        return known[1]

    def save(self, *args, **kwargs):
        """A lock change (``locks.add`` stores the lock string) may make this NPC carry
        commands for the room again: its room draws them anew."""
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if fields is None or "db_lock_storage" in fields:
            contents_changed(self.location)
