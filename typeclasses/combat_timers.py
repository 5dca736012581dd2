"""The combat Script's clock: deadlines for idle players that survive a reload (issue 5).

Why a ticking Script and not one ``utils.delay`` per deadline: the deadline itself is a
wall-clock time inside the combat state (one Attribute, written with the rest of the
command), so nothing about it lives only in memory. The Script ticks every ``TICK`` seconds
(``at_repeat``) and compares that number with the clock; Evennia restarts ticking Scripts
after ``evennia reload`` and a full restart (``at_server_start`` re-arms one created before
the clock existed), so a deadline that passed while the server was down is applied at the
first tick after it comes back. A tick with nothing due costs no query (the state is cached
in ``ndb``). The rule itself (what "idle" means, the defaults) is pure: ``combat/idle.py``.
"""

from __future__ import annotations

import time

from django.conf import settings
from evennia.utils import logger

from combat import idle

#: seconds between deadline checks (the timeout is honoured to within this)
TICK = int(getattr(settings, "COMBAT_TIMER_TICK", 2) or 2)


def effective_timeout(state) -> int:
    if state.options.timeout is not None:
        return int(state.options.timeout)
    return int(getattr(settings, "COMBAT_DEFAULT_TIMEOUT", 0) or 0)


def stamp(state, now: float | None = None):
    """The state with the current prompt's deadline set (or cleared): called on every
    commit, so the deadline is saved in the same write as the turn it belongs to."""
    return idle.stamp(state, effective_timeout(state), time.time() if now is None else now)


def check(script, now: float | None = None) -> bool:
    """Apply the idle defaults if ``script``'s deadline has passed (``now``: the clock, for
    tests). True if the combat changed."""
    st = script.get_state()
    now = time.time() if now is None else now
    if not idle.due(st, now):
        return False
    from commands.combat_idle import SystemRunner

    return SystemRunner(script).expire(now)


def organizer_notes(script, records) -> None:
    """Tell the organizer when everyone has declared (the act phase begins) or acted (the
    turn is over), whoever typed the last command or whether the clock did."""
    notes = []
    for rec in records:
        if rec.get("event") == "phase" and rec.get("phase") == "act" and \
                rec.get("mode") != "simple":
            notes.append(f"Everyone has declared (turn {rec.get('turn')}); actions begin.")
        elif rec.get("event") == "turn":
            notes.append(f"Everyone has acted in turn {int(rec.get('turn', 1)) - 1}.")
    if not notes or not script.organizer:
        return
    from evennia.objects.models import ObjectDB

    try:
        pk = int(script.organizer.lstrip("#"))
    except ValueError:
        return
    org = ObjectDB.get_cached_instance(pk) or ObjectDB.objects.filter(id=pk).first()
    if org is not None:
        org.msg("|w[Combat]|n " + " ".join(notes))


class TimerMixin:
    """Mixed into ``CombatScript``: the ticking and the hooks Evennia calls."""

    def ensure_ticking(self) -> None:
        if not self.interval or self.interval <= 0:
            self.start(interval=TICK, start_delay=True)

    def at_server_start(self):
        try:
            self.ensure_ticking()
        except Exception:
            logger.log_trace("combat: could not start the combat clock")

    def at_repeat(self, **kwargs):
        try:
            if self.attributes.has("state"):
                check(self)
        except Exception:  # the clock must keep ticking whatever one combat does
            logger.log_trace(f"combat: idle timeout check failed for {self.key} #{self.id}")
