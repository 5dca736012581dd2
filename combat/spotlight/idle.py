"""The idle clock of a spotlight fight (issue 5), shaped like ``combat/d10/idle.py`` so the
service treats both engines alike.

READING: the fight has no deadline before round 1 (the Storyteller's ``advance`` starts it
and never waits for a PC who has not rolled, SPOT-01/04); a holder of the spotlight who is
idle ends the turn as ``done`` would; the Storyteller idle on a pick passes it as
``advance`` would (SPOT-04/06); a deleted character the fight waits for is removed
(``actions/clock.py``).
"""

from __future__ import annotations

from ..core.values import replace
from .flow import prompts
from .state import SpotlightState


def waited(state: SpotlightState) -> list[tuple[str, str]]:
    """The prompts the idle clock defaults: everyone the fight waits for once round 1 is
    under way. Before it (SPOT-01) the Storyteller starts the round whenever they like, PCs
    who have not rolled or not: nobody stalls the fight, so nobody gets a deadline."""
    if state.stage in ("initiative", "ended"):
        return []
    return prompts(state)


def stamp(state: SpotlightState, timeout: int | None, now: float) -> SpotlightState:
    """``combat/idle.stamp`` for this engine: give a new prompt its deadline (the engine
    clears it whenever the turn moves on), or clear it when nobody is waited for or the
    timeout is off (None or 0)."""
    if not timeout or timeout <= 0 or not waited(state):
        return state if state.deadline is None else replace(state, deadline=None)
    if state.deadline is None:
        return replace(state, deadline=float(now) + int(timeout))
    return state


def due(state: SpotlightState, now: float) -> bool:
    return state.stage != "ended" and state.deadline is not None and now >= state.deadline


def remaining(state: SpotlightState, now: float) -> float | None:
    """Seconds left before the timeout (0 when due), or None without a deadline."""
    if state.deadline is None:
        return None
    return max(0.0, state.deadline - now)
