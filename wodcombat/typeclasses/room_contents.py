"""What is in a room, as Evennia caches it, plus what is drawn from it between changes
(issue 13: "NPCs that add no per-command cost to the room they stand in").

Evennia's command handler asks the room for everything in it but the typist on every
command typed there, then asks each object whether its commands join the typist's (its
``call`` lock). An NPC's never do (it has none, or an older one ``call:false()``), yet a crowd
of 100 NPCs was 100 questions on every command, ``look`` and ``+combat`` included. The
room's cache counts its changes (``version``), and the objects that may carry commands are
drawn from it once per change.
"""

from __future__ import annotations

from evennia.objects.models import ContentsHandler
from evennia.utils.utils import make_iter


def contents_changed(room) -> None:
    """Tell ``room`` (one of this game's) that what is drawn from its contents may differ
    though they are the same objects: an NPC's call lock changed, or someone there was
    puppeted (an NPC staff run becomes a reader, wodcombat/world/listeners.py)."""
    changed = getattr(getattr(room, "contents_cache", None), "changed", None)
    if changed is not None:
        changed()


def carries_no_commands(obj) -> bool:
    """An NPC with no call lock, or ``call:false()`` (made before issue 32): the answer the
    command handler would get from it is no (typeclasses/characters.py ``NPC.access``)."""
    return bool(getattr(obj, "is_npc", False)) and obj.call_lock_is_false()


class RoomContents(ContentsHandler):
    """Evennia's contents cache of a room (``contents_cache``), counting its changes."""

    version = 0  # bumped by every change of what is in the room (and by ``changed``)

    def init(self):
        super().init()
        self.changed()

    def add(self, obj):
        super().add(obj)
        self.changed()

    def remove(self, obj):
        super().remove(obj)
        self.changed()

    def clear(self):
        super().clear()
        self.changed()

    def changed(self) -> None:
        """Something drawn from the contents may differ now (``contents_changed``)."""
        self.version += 1
        self._carriers = None

    _carriers: tuple | None = None  # (ids of the objects that may carry commands,)

    def carriers(self, exclude=None) -> list:
        """What ``get(exclude=exclude)`` gives, less the NPCs that carry no commands."""
        if self._carriers is None:
            everyone = self.get()
            self._carriers = tuple(o.pk for o in everyone if not carries_no_commands(o))
        gone = {o.pk for o in make_iter(exclude)} if exclude else ()
        try:
            return [self._idcache[pk] for pk in self._carriers if pk not in gone]
        except KeyError:  # an object left the server's cache: read again, as ``get`` does
            self.init()
            return [o for o in self.get(exclude=exclude) if not carries_no_commands(o)]
