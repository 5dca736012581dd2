"""The Evennia internals this game replaces, each opt-in behind one setting (issue 27).

A host game that adds the combat system keeps Evennia's own classes and writes: a setting
left out is off. This game's server/conf/settings.py turns each on ("Combat system" block;
``WOD_OVERRIDES=off`` turns them all off again, for bench/). Each is read once, where it is
used (a class's creation, a module's import), never per command. Each relies on Evennia's
internals as 6.1 has them: tests/test_evennia_overrides.py pins each to that version and
shape, so an upgrade fails one named test instead of corrupting data.
"""

from __future__ import annotations

from django.conf import settings

#: Rooms count their contents' changes and answer the command handler without the NPCs
#: that carry no commands (wodcombat/typeclasses/rooms.py and room_contents.py).
FAST_ROOM_CONTENTS = "WODCOMBAT_FAST_ROOM_CONTENTS"
#: An NPC's call lock left as it was made (none; ``call:false()`` before issue 32) answers
#: no without the lock handler
#: (wodcombat/typeclasses/characters.py ``CallLockShortcut``).
NPC_CALL_LOCK = "WODCOMBAT_NPC_CALL_LOCK"
#: The sheet's Attribute written as plain SQL, for a host that names ``AttributeSheet``
#: (wodcombat/world/plain_writes.py; the log's row and the default ``TableSheet``'s row,
#: the plugin's own tables, always are).
PLAIN_WRITES = "WODCOMBAT_PLAIN_WRITES"
#: The Server's messages to the Portal batched (wodcombat/server/amp_batch.py).
BATCH_AMP = "WODCOMBAT_BATCH_AMP"
#: TCP_NODELAY on the portal's sockets and the AMP link (wodcombat/server/nodelay.py).
TCP_NODELAY = "WODCOMBAT_TCP_NODELAY"

#: The portal's telnet class paces each client's lines (wodcombat/server/flood_guard.py).
FLOOD_GUARD = "WODCOMBAT_FLOOD_GUARD"

ALL = (FAST_ROOM_CONTENTS, NPC_CALL_LOCK, PLAIN_WRITES, BATCH_AMP, TCP_NODELAY, FLOOD_GUARD)


def enabled(name: str) -> bool:
    """Whether the override ``name`` (one of ``ALL``) is on; absent from the settings: off,
    what a stock Evennia game expects."""
    if name not in ALL:
        raise KeyError(f"no such override setting: {name}")
    return bool(getattr(settings, name, False))
