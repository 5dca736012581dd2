"""Characters and NPCs: a World of Darkness sheet behind one handler over one Attribute.

The whole sheet is one Attribute (category ``wod``), read once and written once per change,
so a command that changes a sheet costs one UPDATE, never one per trait (design card).
"""

from django.db import transaction
from evennia.objects.objects import DefaultCharacter
from evennia.utils.utils import lazy_property

from combat.sheet import Sheet
from world import oob, rulebook

from .objects import ObjectParent

SHEET_ATTR = ("sheet", "wod")


class SheetHandler:
    """``char.sheet.get()`` returns the frozen Sheet; ``char.sheet.save(new)`` stores it."""

    def __init__(self, obj):
        self.obj = obj

    def get(self) -> Sheet:
        data = self.obj.attributes.get(SHEET_ATTR[0], category=SHEET_ATTR[1])
        if data is None:
            return Sheet().with_pools_for(rulebook.get().traits)
        return Sheet.from_dict(data)

    def save(self, sheet: Sheet) -> None:
        key, category = SHEET_ATTR
        attr = self.obj.attributes.get(key, category=category, return_obj=True)
        if attr is None:
            self.obj.attributes.add(key, sheet.to_dict(), category=category)
        else:
            # One UPDATE: AttributeHandler.add() saves the row twice (value, then strvalue).
            attr.value = sheet.to_dict()
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


class NPC(Character):
    """A staff-run character: same sheet, no account; staff may edit and roll for it."""

    is_npc = True
