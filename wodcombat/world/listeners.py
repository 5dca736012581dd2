"""Who in a room may read what a fight tells it, kept between commands (issue 13).

Every fight command tells the room and sends each combatant with a client the fight's state
(GMCP). Asking every object in the room each time (is it an NPC? has an account ever run
it?) was a cost that grew with a crowd: 100 NPCs, 100 questions a command. The answer
changes only when the room's contents change or someone there is puppeted, which the game's
rooms count (wodcombat/typeclasses/room_contents.py ``version``), so it is kept on the room (a plain
attribute of the cached instance, as the fight's own caches) until then.
"""

from __future__ import annotations


def _view(room, drawn: dict | None = None) -> tuple:
    """(the contents' version it was drawn at, the listeners, the contents' ``#dbref``).
    ``drawn``: a dict the caller keeps for one command: a room of another kind (a stock
    Evennia room: no version to key on) is drawn once in it, not once per question (issue
    32: the room's text and GMCP both ask; 100 NPCs drawn twice a command)."""
    version = getattr(room.contents_cache, "version", None)  # None: a room of another kind
    kept = getattr(room, "_wod_listeners", None)
    if kept is not None and version is not None and kept[0] == version:
        return kept
    if version is None and drawn is not None and room.id in drawn:
        return drawn[room.id]
    contents = room.contents
    found = tuple(o for o in contents if not getattr(o, "is_npc", False)
                  or getattr(o, "db_account_id", None) is not None)
    kept = room._wod_listeners = (version, found, frozenset(f"#{o.id}" for o in contents))
    if version is None and drawn is not None:
        drawn[room.id] = kept
    return kept


def listeners(room, drawn: dict | None = None) -> tuple:
    """The objects in ``room`` that may have a reader: a player's character, an NPC staff
    have puppeted; not the NPCs of a crowd nobody ever ran. ``drawn``: see ``_view``."""
    return _view(room, drawn)[1]


def listeners_and_keys(room, drawn: dict | None = None) -> tuple[tuple, frozenset]:
    """``listeners(room)`` and the ``#dbref`` of everything in ``room``."""
    view = _view(room, drawn)
    return view[1], view[2]

