"""Keeping combats sound (issue 5): all-or-nothing writes, one combat per character, and
characters deleted in the middle of a fight.

* ``restore_after_rollback``: ``transaction.atomic()`` undoes the rows of a failed command,
  but Evennia keeps Attribute objects in memory (the idmapper cache and each object's
  attribute cache), and ``attr.value = x`` has already put the new value on the cached
  object. Without this, the next read would see the half-written command as if it had been
  kept until the next reload.
* ``discard_unborn``: a fight whose start failed (the organizer may not fight, say) has had
  its Script row rolled back, but not the Python object ``create_script`` made: its timer
  ticks and the idmapper holds it, for the life of the server (issue 14).
* ``combat_of``: the combat a character takes part in, anywhere in the game (a character is
  in at most one combat).
* ``remove_deleted``: ``Character.at_object_delete`` takes the character out of its combat
  and tells the room. A character who only disconnects stays in; the idle rules
  (``combat/idle.py``) deal with them.
"""

from __future__ import annotations

from evennia.utils import logger



def restore_after_rollback(objs) -> None:
    """Put every cached Attribute of ``objs`` back to what the database holds."""
    from evennia.typeclasses.attributes import Attribute

    from .sheets import sheets_changed
    from .combat import memo_changed

    sheets_changed()  # a value put back here is no save: what was drawn from sheets is old
    memo_changed()  # nor what a fight keeps of its Attributes
    for obj in objs:
        if obj is None:
            continue
        try:
            handler = obj.attributes
            cache = getattr(handler.backend, "_cache", {}) or {}
            # the handler's cache, and the rows (the idmapper hands back the same cached
            # instances, still holding the rolled-back values)
            attrs = {id(a): a for a in [*cache.values(), *obj.db_attributes.all()] if a}
            for attr in attrs.values():
                if getattr(attr, "pk", None) is None:
                    continue
                # Not refresh_from_db(): through the idmapper it copies the cached instance
                # onto itself. values_list reads the row without making an instance.
                rows = list(Attribute.objects.filter(pk=attr.pk).values_list("db_value",
                                                                             flat=True))
                if rows:
                    attr.db_value = rows[0]
                else:  # created by the failed command: forget it
                    Attribute.flush_cached_instance(attr, force=True)
            handler.reset_cache()
        except Exception:  # never hide the original error behind a cleanup error
            logger.log_trace(f"combat: could not reset the attribute cache of {obj!r}")


def discard_unborn(script) -> None:
    """Forget ``script``, created inside a transaction that was then rolled back.

    ``create_script`` starts the Script's timer and the idmapper caches the instance before
    the row is committed; the rollback takes the row away and leaves both. Left alone, the
    reactor's LoopingCall keeps the instance (and its fight state) alive and calls its
    ``at_repeat`` every ``TICK`` seconds forever: bench/soak.py found 21 of them after 10
    minutes, one per refused ``+combat/start``. Not ``script.stop()``: that saves the row
    and writes Attributes, which would bring a row back for a fight that never began."""
    try:
        task = script.ndb._task
        if task is not None and task.running:
            task.stop()
        script.ndb._task = None
        room = script.obj
        if room is not None and getattr(room, "_wod_combat", None) is script:
            room._wod_combat = None
        if type(script).get_cached_instance(script.pk) is script:
            script.flush_from_cache(force=True)
    except Exception:  # never hide the original error behind a cleanup error
        logger.log_trace(f"combat: could not discard the unstarted {script!r}")


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
    from wodcombat.combat.errors import IllegalAction

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
