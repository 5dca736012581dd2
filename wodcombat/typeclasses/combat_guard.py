"""Keeping combats sound (issue 5): one combat per character, and characters deleted in the
middle of a fight. (A failed command's writes are undone in ``rollback.py``.)

* ``combat_of``: the combat a character takes part in, anywhere in the game (a character is
  in at most one combat).
* ``remove_deleted``: ``Character.at_object_delete`` takes the character out of its combat
  and tells the room. A character who only disconnects stays in; the idle rules
  (``combat/d10/idle.py``) deal with them.
"""

from __future__ import annotations

from evennia.utils import logger


def combat_scripts():
    """Every running combat Script in the game."""
    from evennia.scripts.models import ScriptDB

    from wodcombat.world.combat_service import COMBAT_KEY

    return [s for s in ScriptDB.objects.filter(db_key=COMBAT_KEY) if hasattr(s, "engine")]


def combat_of(key: str, scripts=None):
    """The combat Script ``key`` (``#dbref``) takes part in, or None."""
    for script in combat_scripts() if scripts is None else scripts:
        try:
            st = script.get_state()
        except Exception:  # a broken combat must not lock everyone out of joining
            continue
        if st.phase != "ended" and st.get(key) is not None:
            return script
    return None


def where(script) -> str:
    room = script.obj
    return f"{room.key} (#{room.id})" if room is not None else "another room"


def refuse_second_combat(key: str, name: str, here=None) -> None:
    """Raise IllegalAction when ``key`` already fights somewhere other than ``here``."""
    from wodcombat.combat.core.errors import IllegalAction

    other = combat_of(key)
    if other is not None and (here is None or other.id != here.id):
        raise IllegalAction(
            f"{name} is already in a fight in {where(other)}: a character is in one fight at "
            f"a time. Leave it first there (+combat/leave) or ask its organizer to kick you.")


def remove_deleted(obj) -> None:
    """Take ``obj`` (being deleted) out of its combat; the room is told (and whoever the turn
    now waits for). Never raises: a failure here must not stop the deletion."""
    try:
        key = f"#{obj.id}"
        from .combat import combat_in

        script = combat_in(obj.location)
        if script is None or script.get_state().get(key) is None:
            script = combat_of(key)
        if script is None:
            return
        from wodcombat.world import combat_service

        combat_service.remove_deleted(script, obj)
    except Exception:
        logger.log_trace(f"combat: could not take deleted {obj!r} out of its fight")
