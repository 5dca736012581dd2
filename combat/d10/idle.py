"""Idle players: what the game does when the combat's timeout passes (issue 5).

A MUSH scene must not stall because one player walked away. Each prompt (someone's turn to
roll initiative, declare or act) gets a deadline: a wall-clock time stored in
``CombatState.deadline`` (so it survives ``evennia reload`` and a restart unchanged). When it
has passed, ``expire`` applies the ruleset's default for everyone the turn still waits for:

* initiative: they sit this turn out (``scheduler.skip``);
* declaring: ``turns.idle.declare`` in the ruleset: ``full_defense`` declares a desperate
  defense for the whole turn (DEF-04), rolled only if someone attacks them, or ``pass``
  declares nothing;
* acting: only the slot is passed (issue 11): they delay (TURN-04) and may still act later
  in the phase; if the turn waits for them again (the delayed at the end of the phase), the
  pending action is forfeited (``scheduler.skip``); declared defenses stay.

The d10 engine rolls a missing initiative from the sheet before this runs (issue 11: the
idle default for initiative is a roll, not a pass); what is left here sits the turn out.

Pure: the clock is a number the caller passes in (tests inject it; the Script passes
``time.time()``), nothing is stored or printed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import scheduler as sch
from ..core.errors import WodError
from .state import CombatState
from ..core.values import replace

PASS, FULL_DEFENSE, DELAY, ROLLED = "pass", "full_defense", "delay", "rolled"


@dataclass(frozen=True, slots=True)
class IdleRules:
    """The ruleset's ``turns.idle`` switch (absent: pass)."""

    declare: str = PASS
    defense: str = "dodge"

    @classmethod
    def of(cls, ruleset) -> "IdleRules":
        turns = ruleset.section("turns") or {}
        idle = turns.get("idle") or {}
        return cls(idle.get("declare", PASS), idle.get("defense", "dodge"))


def stamp(state: CombatState, timeout: int | None, now: float) -> CombatState:
    """Give a new prompt its deadline (the scheduler clears it whenever the turn moves on),
    or clear it when nobody is waited for or the timeout is off (None or 0)."""
    waiting = state.phase != "ended" and bool(sch.prompts(state))
    if not timeout or timeout <= 0 or not waiting:
        return state if state.deadline is None else replace(state, deadline=None)
    if state.deadline is None:
        return replace(state, deadline=float(now) + int(timeout))
    return state


def fresh_clock(state, now: float):
    """``state`` (of either engine: both keep the clock's ``deadline``) without a deadline
    that has passed by ``now``, so the next ``stamp`` starts one from now. An undo puts back
    the state from before the undone command: when that was the clock's own default, its
    deadline has run out, and the clock fired again at once (issue 28). A deadline still
    ahead is kept: undoing a player's command leaves the others' clock as it was."""
    if state.deadline is None or now < state.deadline:
        return state
    return replace(state, deadline=None)


def due(state: CombatState, now: float) -> bool:
    return state.phase != "ended" and state.deadline is not None and now >= state.deadline


def remaining(state: CombatState, now: float) -> float | None:
    """Seconds left before the timeout (0 when due), or None without a deadline."""
    if state.deadline is None:
        return None
    return max(0.0, state.deadline - now)


def expire(
    state: CombatState, ruleset, now: float, gone: frozenset[str] | set[str] = frozenset()
) -> sch.Step | None:
    """The defaults for everyone the turn waits for, if the deadline has passed; else None.

    ``gone``: combatants whose character no longer exists (deleted): they are removed instead.
    Each gets a ``timeout`` event (who, what was awaited, what the game did) before the
    scheduler's own events.
    """
    if not due(state, now):
        return None
    rules = IdleRules.of(ruleset)
    st, events = state, []
    for key, what in sch.prompts(state):
        if dict(sch.prompts(st)).get(key) != what:
            continue  # an earlier default already moved the turn past them
        c = st.get(key)
        if key in gone:
            step, did = sch.remove(st, key, ruleset), "removed"
        elif what == "act" and not c.delayed and st.cursor < len(st.order):
            step, did = sch.delay(st, key, ruleset), DELAY
        elif what == "declare" and rules.declare == FULL_DEFENSE:
            try:
                step = sch.declare(st, key, [{"kind": rules.defense}], ruleset, desperate=True)
                did = FULL_DEFENSE
            except WodError:  # cannot defend (a ruleset without DEF-04 ...): pass instead
                step, did = sch.skip(st, key, ruleset), PASS
        else:
            step, did = sch.skip(st, key, ruleset), PASS
        events.append({"event": "timeout", "actor": key, "what": what, "default": did,
                       "deadline": state.deadline})
        events.extend(step.events)
        st = step.state
    # The caller stamps the next prompt's deadline from now.
    return sch.Step(replace(st, deadline=None), tuple(events))
