"""The idle clock's intents (issue 5): the fight's timeout, and the deadline passing."""

from __future__ import annotations

from ...core import intents
from ...core.errors import InputError
from ...core.outcome import Outcome
from ...core.values import replace
from .. import flow, passing, roster, turn
from ..idle import due, waited
from ..state import SpotlightState
from .base import Action, live, out

PASS, REMOVED = "pass", "removed"  # the idle defaults, as combat/d10/idle.py names them


class SetTimeout(Action):
    """The fight's idle timeout (0: off); the current wait restarts on it."""

    intent = intents.SetTimeout

    def check(self, st, intent: intents.SetTimeout, sheets, rules) -> None:
        live(st)
        secs = intent.seconds
        if isinstance(secs, bool) or not isinstance(secs, int) or secs < 0:
            raise InputError(f"A timeout is a whole number of seconds (0: off), not {secs!r}.")

    def resolve(self, st, intent: intents.SetTimeout, sheets, rules, rng) -> Outcome:
        secs = intent.seconds
        new = replace(st, options=replace(st.options, timeout=secs), deadline=None,
                      seq=st.seq + 1)
        return out(new, [{"event": "timeout_set", "seconds": secs, "by": intent.by}])


def _timeout(st: SpotlightState, key: str | None, what: str, did: str, **extra) -> dict:
    return {"event": "timeout", "actor": key, "what": what, "default": did,
            "deadline": st.deadline, **extra}


class Expire(Action):
    """The deadline passed: the idle default for everyone the fight waited for. ``gone``
    (deleted characters) leave first, since that may end the turn; then a holder of the
    spotlight ends the turn (``done``), and a Storyteller's pick is passed once
    (``advance``: SPOT-04, or the round's end, SPOT-06). Only the prompts of the deadline
    are defaulted; the caller stamps the next one's. Not due: nothing changes."""

    intent = intents.Expire

    def resolve(self, st, intent: intents.Expire, sheets, rules, rng) -> Outcome:
        if not due(st, intent.now):
            return Outcome(st)
        prompted = waited(st)
        cur, events = self.remove_gone(st, prompted, intent.gone, rules)
        for key, what in prompted:
            if key in intent.gone or dict(flow.prompts(cur)).get(key) != what:
                continue  # gone, or an earlier default already moved the fight past them
            if what == "act":
                step, ev = turn.done(cur, key, rules), _timeout(st, key, what, PASS)
            else:  # a pick: the Storyteller's, so it names every opponent that could act
                picks = [k for k, w in flow.prompts(cur) if w == what]
                step, ev = passing.advance(cur, rules), _timeout(st, None, what, PASS, who=picks)
            events += [ev, *step.events]
            cur = step.state
        return out(replace(cur, deadline=None), events)

    def remove_gone(self, st, prompted, gone, rules) -> tuple[SpotlightState, list]:
        """Deleted characters the fight waited for leave (a leave told as ``deleted``)."""
        cur, events = st, []
        for key, what in prompted:
            if key in gone and cur.get(key) is not None:
                step = roster.remove(cur, key, rules)
                events += [_timeout(st, key, what, REMOVED)]
                events += [{**e, "why": "deleted"} if e.get("event") == "leave" else e
                           for e in step.events]
                cur = step.state
        return cur, events
