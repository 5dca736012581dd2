"""Acting (TURN-03/04/06/07/08): the declared action performed in its slot by its kind's class
(``actions/``), the turn moved on after it, and aborts."""

from __future__ import annotations

from . import scheduler as sch
from ..core.values import replace
from . import change, close
from .actions import action_for
from .fight import Fight


def act(f: Fight, key: str, willpower: bool = False) -> None:
    # Checked on the current state first; the action's own changes (the defense spent, a
    # knockdown) belong to this moment of the turn, before ``act`` moves the turn on.
    # ``willpower``: +combat/act/wp, honoured only if declared (TURN-02).
    index, action, mods = sch.next_action(f.state, key, f.rules, willpower=willpower)
    change.offer(f, key, action, index)
    action_for(action["kind"]).resolve(f, key, action, mods)
    finish(f, key)


def finish(f: Fight, key: str) -> None:
    """Mark the action done. An attacker put out of action by their own attack (a parry
    counter, jagged skin) still used it; the turn then goes on without them."""
    cur = f.state.get(key)
    if cur is None:
        return
    if not cur.lost:
        f.run(sch.act(f.state, key, f.rules))
        return
    step = sch.act(f.state.with_combatants({key: replace(cur, lost=False)}), key, f.rules)
    st = step.state
    if st.turn == f.state.turn:
        st = st.with_combatants({key: replace(st.get(key), lost=True)})
    f.state = st
    f.events.extend(step.events)


def abort(f: Fight, key: str, to: str, spend: bool) -> None:
    """TURN-08: a Willpower roll (or a point) to switch to a defense before acting."""
    if to == "parry":  # DEF-03: refused before any Willpower is rolled or spent
        close.check_parry(f, key)
    rating = f.willpower_for_reflex(key, spend)
    step = sch.abort(f.state, key, {"kind": to}, f.rules, f.rng, willpower=rating,
                     spend_willpower=spend)
    f.tell_willpower_roll(key, step, "abort", rating)
    f.run(step)
