"""A Room's contents answered faster for a crowd of NPCs: an override of Evennia's contents
cache, opt-in (``WODCOMBAT_FAST_ROOM_CONTENTS``). A host that wants it mixes ``FastContents``
into its own Room, first among the bases, when ``room_bases()`` says so."""

from evennia.utils.utils import lazy_property

from wodcombat.world import overrides

from .room_contents import RoomContents


def room_bases() -> tuple:
    """``(FastContents,)`` with the setting on, else ``()``: read once, as the host's Room
    class is made (``class Room(*room_bases(), DefaultRoom)``)."""
    return (FastContents,) if overrides.enabled(overrides.FAST_ROOM_CONTENTS) else ()


class FastContents:
    """A room whose contents cache counts its changes (``RoomContents``) and whose answer to
    the command handler leaves out the NPCs that carry no commands. It replaces Evennia's
    ``contents_cache`` and ``contents_get``: only with ``WODCOMBAT_FAST_ROOM_CONTENTS`` on."""

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
