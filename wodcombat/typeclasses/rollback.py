"""Evennia's in-memory copies put back after a rolled-back transaction (issue 5): the
database undoes the rows of a failed command, not the Python objects that held them.

* ``restore_after_rollback``: ``transaction.atomic()`` undoes the rows of a failed command,
  but Evennia keeps Attribute objects in memory (the idmapper cache and each object's
  attribute cache), and ``attr.value = x`` has already put the new value on the cached
  object. Without this, the next read would see the half-written command as if it had been
  kept until the next reload.
  The sheets kept by ``TableSheet`` (the plugin's own table) are read again too.
* ``discard_unborn``: a fight whose start failed (the organizer may not fight, say) has had
  its Script row rolled back, but not the Python object ``create_script`` made: its timer
  ticks and the idmapper holds it, for the life of the server (issue 14).
"""

from __future__ import annotations

from evennia.utils import logger


def restore_after_rollback(objs) -> None:
    """Put every cached Attribute of ``objs`` back to what the database holds."""
    from evennia.typeclasses.attributes import Attribute

    from .sheets import rows_changed, sheets_changed

    sheets_changed()  # a value put back here is no save: what was drawn from sheets is old
    rows_changed()  # the sheet rows as the database holds them (sheets.TableSheet)
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
