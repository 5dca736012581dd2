"""
Room

Rooms are simple containers that has no location of their own.

"""

from evennia.objects.objects import DefaultRoom
from evennia.utils.utils import lazy_property

from world import overrides

from .objects import ObjectParent
from .room_contents import RoomContents


class FastContents:
    """A room whose contents cache counts its changes (``RoomContents``) and whose answer to
    the command handler leaves out the NPCs that carry no commands. It replaces Evennia's
    ``contents_cache`` and ``contents_get``: only with ``COMBAT_FAST_ROOM_CONTENTS`` on."""

    @lazy_property
    def contents_cache(self):
        return RoomContents(self)

    def contents_get(self, exclude=None, content_type=None):
        """Evennia's, but for the one question of its command handler: everything here but
        the typist (``exclude`` without a type, asked on every command typed here to merge
        the commands objects carry: evennia/commands/cmdhandler.py ``_get_local_obj_cmdsets``).
        Its answer leaves out the NPCs whose call lock refuses that anyway, so a crowd of them
        costs a command nothing (issue 13). ``look``, searches and ``contents`` see everyone.
        Nothing else in Evennia's core or this game asks that way; a contrib that did (the
        tutorial world's mob messaging a room) would not reach those NPCs."""
        if exclude is not None and content_type is None:
            return self.contents_cache.carriers(exclude)
        return super().contents_get(exclude=exclude, content_type=content_type)


# Read once, as the class is made: off, a Room is Evennia's with the game's ObjectParent.
_FAST = (FastContents,) if overrides.enabled(overrides.FAST_ROOM_CONTENTS) else ()


class Room(*_FAST, ObjectParent, DefaultRoom):
    """
    Rooms are like any Object, except their location is None
    (which is default). They also use basetype_setup() to
    add locks so they cannot be puppeted or picked up.
    (to change that, use at_object_creation instead)

    See mygame/typeclasses/objects.py for a list of
    properties and methods available on all Objects.
    """
