"""Who in a room may read what a fight tells it, kept between commands (issue 13).

Every fight command tells the room and sends each combatant with a client the fight's state
(GMCP). Asking every object in the room each time (is it an NPC? has an account ever run
it?) was a cost that grew with a crowd: 100 NPCs, 100 questions a command. The answer
changes only when the room's contents change or someone is puppeted, so it is kept on the
room (a plain attribute of the cached instance, as the fight's own caches) with the objects
it was drawn from, and dropped by ``forget`` when a character is puppeted.
"""

from __future__ import annotations

from operator import is_


def _view(room) -> tuple:
    """(the contents, the listeners, the contents' ``#dbref`` keys)."""
    contents = room.contents
    kept = getattr(room, "_wod_listeners", None)
    if kept is not None and len(kept[0]) == len(contents) and all(map(is_, kept[0], contents)):
        return kept  # the same objects (compared in C, not one by one in Python)
    found = tuple(o for o in contents if not getattr(o, "is_npc", False)
                  or getattr(o, "db_account_id", None) is not None)
    kept = room._wod_listeners = (tuple(contents), found,
                                  frozenset(f"#{o.id}" for o in contents))
    return kept


def listeners(room) -> tuple:
    """The objects in ``room`` that may have a reader: a player's character, an NPC staff
    have puppeted; not the NPCs of a crowd nobody ever ran."""
    return _view(room)[1]


def keys_in(room) -> frozenset:
    """The ``#dbref`` of everything in ``room``."""
    return _view(room)[2]


def forget(room) -> None:
    """Someone in ``room`` was just puppeted: an NPC may have become a listener."""
    if room is not None:
        room._wod_listeners = None
