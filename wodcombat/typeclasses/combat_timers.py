"""The combat Script's clock: deadlines for idle players that survive a reload (issue 5).

Why a ticking Script and not one ``utils.delay`` per deadline: the deadline itself is a
wall-clock time inside the combat state (one Attribute, written with the rest of the
command), so nothing about it lives only in memory. The Script ticks every ``TICK`` seconds
(``at_repeat``) and compares that number with the clock; Evennia restarts ticking Scripts
after ``evennia reload`` and a full restart (``at_server_start`` re-arms one created before
the clock existed, and restarts one a crash left without a timer), so a deadline that
passed while the server was down is applied as soon as it comes back. A tick with nothing
due costs no query (the state is cached in ``ndb``). The rule itself (what "idle" means,
the defaults) is the engine's; the service (``wodcombat/world/combat_service.py``) stamps each new
wait's deadline when it commits.
"""

from __future__ import annotations

from wodcombat import conf
from evennia.utils import logger

from wodcombat.world import combat_service, combatlog

#: seconds between deadline checks (the timeout is honoured to within this)
TICK = conf.get("WODCOMBAT_TIMER_TICK")


def check(script, now: float | None = None) -> bool:
    """Apply the idle defaults if ``script``'s deadline has passed (``now``: the clock, for
    tests). True if the combat changed."""
    return combat_service.expire_due(script, now) is not None


class TimerMixin:
    """Mixed into ``CombatScript``: the ticking and the hooks Evennia calls."""

    def ensure_ticking(self) -> None:
        """Tick, whatever happened before: Evennia resumes only the timers a clean shutdown
        paused, so after a crash (kill -9, power loss) the database says the Script is
        active while no timer runs. A running timer is left alone."""
        task = self.ndb._task
        if self.interval != TICK or task is None or not task.running:
            self.start(interval=TICK, start_delay=True)

    def at_server_start(self):
        """Called by Evennia on every server start, clean or not: the clock ticks again,
        and a deadline that passed while the server was down is applied at once."""
        try:
            self.ensure_ticking()
            if self.attributes.has("state"):
                check(self)
        except Exception:
            logger.log_trace("combat: could not start the combat clock")

    def at_repeat(self, **kwargs):
        try:
            if self.attributes.has("state"):
                check(self)
                # what the fight committed since the last tick goes to its JSONL export
                combatlog.flush(self.combat_id)
        except Exception:  # the clock must keep ticking whatever one combat does
            logger.log_trace(f"combat: idle timeout check failed for {self.key} #{self.id}")
