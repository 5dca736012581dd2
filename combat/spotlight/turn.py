"""A turn (SPOT-07): one movement of one range step (``move``), one action (``act``), one
free action (``free``); ``done`` ends it (it also ends when all three are used, or on the
Storyteller's ``advance``). READING: a move changes the range to one other combatant only.
"""

from __future__ import annotations

from typing import Mapping

from ..core.errors import IllegalAction, InputError
from ..core.values import plain, replace
from .flow import Step, finish, live, names_of, put
from .ranges import band_of, set_band
from .state import Fighter, SpotlightState
from .tables import SpotRules, parse_band, spot_rules


def _left(rules: SpotRules, c: Fighter) -> str:
    parts = []
    if c.moves < rules.moves:
        parts.append("a move (+combat/move)")
    if c.actions < rules.actions:
        parts.append("an action (+combat/act)")
    if c.frees < rules.frees:
        parts.append("a free action (+combat/free)")
    return ", ".join(parts) or "nothing: end the turn with +combat/done"


def _holder(state: SpotlightState, key: str, what: str) -> Fighter:
    c = state.find(key)
    if state.stage == "initiative":  # SPOT-01: the first round starts once the PCs rolled
        if c.is_pc and c.init_total is None:
            raise IllegalAction(f"The fight has not started: {c.name} rolls initiative first "
                                f"(+combat/init); then the Storyteller starts the round.")
        raise IllegalAction("The fight has not started: once the PCs have rolled initiative, "
                            "the Storyteller starts the round (+combat/next).")
    if key not in state.holder:
        who = names_of(state, state.holder) if state.holder else "nobody (the Storyteller picks)"
        raise IllegalAction(f"{c.name} can {what} only with the spotlight; it is with {who}.")
    if c.done:
        raise IllegalAction(f"{c.name}'s turn is over.")
    return c


def _after_use(c: Fighter, rules: SpotRules) -> Fighter:
    if rules.end_when_all_used and (
        c.moves >= rules.moves and c.actions >= rules.actions and c.frees >= rules.frees
    ):
        return replace(c, done=True)
    return c


def move(state: SpotlightState, key: str, other: str, direction: str, ruleset) -> Step:
    """SPOT-07/10: the turn's movement: one range step toward or away from ``other``
    (``direction``: closer/away, or the adjacent band's name)."""
    rules = spot_rules(ruleset)
    live(state)
    c = _holder(state, key, "move")
    o = state.find(other)
    if o.key == c.key:
        raise InputError("Move relative to someone else: +combat/move <name>=closer|away.")
    if c.moves >= rules.moves:
        raise IllegalAction(
            f"{c.name} has already moved this turn (one range step, SPOT-07). Left: "
            f"{_left(rules, c)}."
        )
    cur = band_of(state, rules, key, other)
    d = str(direction).strip().lower()
    if d in ("closer", "close in", "in", "toward", "towards", "+"):
        to = cur - 1
    elif d in ("away", "farther", "further", "out", "back", "-"):
        to = cur + 1
    else:
        to = parse_band(rules, direction)
    if not 0 <= to < len(rules.bands):
        edge = rules.bands[0] if to < 0 else rules.bands[-1]
        raise IllegalAction(f"{c.name} and {o.name} are already at {edge}.")
    if abs(to - cur) != 1:
        raise IllegalAction(
            f"A move is one range step (SPOT-07): {c.name} is at {rules.bands[cur]} from "
            f"{o.name}, so {rules.bands[to]} is out of reach this turn."
        )
    c2 = _after_use(replace(c, moves=c.moves + 1), rules)
    st = set_band(put(state, c2), key, other, to)
    ev = {
        "event": "move",
        "actor": key,
        "other": other,
        "from": rules.bands[cur],
        "to": rules.bands[to],
        "round": state.round,
    }
    return finish(state, st, rules, [ev])


def act(state: SpotlightState, key: str, ruleset, action: Mapping | None = None) -> Step:
    """SPOT-07: the turn's one action (a Basic Move or Discipline Power). ``action`` is a
    plain dict: ``kind`` (attack, bite, ...), optional ``target``, ``weapon`` or ``power``.
    SPOT-10: a tagged weapon, power or kind (bite) is checked against the target's range."""
    rules = spot_rules(ruleset)
    live(state)
    c = _holder(state, key, "act")
    if c.actions >= rules.actions:
        raise IllegalAction(
            f"{c.name} has taken this turn's action (one action, SPOT-07). Left: {_left(rules, c)}."
        )
    a = plain(dict(action or {"kind": "action"}))
    kind = str(a.get("kind") or "action").strip().lower()
    a["kind"] = kind
    band = None
    tag_name = None
    target = a.get("target")
    if target is not None:
        t = state.find(str(target))
        if t.key == key:
            raise InputError("Target someone else.")
        band = band_of(state, rules, key, t.key)
    for field in ("weapon", "power"):
        if a.get(field):
            name = str(a[field]).strip().lower()
            if name in rules.tags:
                tag_name = name
            elif field == "weapon":
                known = ", ".join(sorted(rules.tags)) or "none"
                raise InputError(f"'{a[field]}' has no range tag here. Tagged: {known}.")
    if tag_name is None and kind in rules.tags:
        tag_name = kind
    if tag_name is not None and target is not None:
        lo, hi = rules.tags[tag_name]
        if not lo <= band <= hi:
            reach = rules.bands[lo] if lo == hi else f"{rules.bands[lo]} to {rules.bands[hi]}"
            fix = "closer" if band > hi else "away"
            # an opponent is moved by the organizer, who names it first (issue 28)
            move = f"{t.name}={fix}" if c.is_pc else f"{c.name}={t.name}={fix}"
            raise IllegalAction(
                f"{t.name} is at {rules.bands[band]}; {tag_name} reaches {reach} (SPOT-10). "
                f"Move {fix} first (one step a turn: +combat/move {move})."
            )
    c2 = _after_use(replace(c, actions=c.actions + 1), rules)
    ev = {
        "event": "act",
        "actor": key,
        "action": a,
        "round": state.round,
        "range": None if band is None else rules.bands[band],
        "tag": tag_name,
    }
    return finish(state, put(state, c2), rules, [ev])


def free(state: SpotlightState, key: str, ruleset, text: str = "") -> Step:
    """SPOT-07: the turn's free action (something that takes no effort or time)."""
    rules = spot_rules(ruleset)
    live(state)
    c = _holder(state, key, "take a free action")
    if c.frees >= rules.frees:
        raise IllegalAction(
            f"{c.name} has taken this turn's free action (SPOT-07). Left: {_left(rules, c)}."
        )
    c2 = _after_use(replace(c, frees=c.frees + 1), rules)
    ev = {"event": "free", "actor": key, "text": str(text or "").strip(), "round": state.round}
    return finish(state, put(state, c2), rules, [ev])


def done(state: SpotlightState, key: str, ruleset) -> Step:
    """End one's own turn (the unused parts of it are let go)."""
    rules = spot_rules(ruleset)
    live(state)
    c = _holder(state, key, "end a turn")
    unused = {
        "moves": rules.moves - c.moves,
        "actions": rules.actions - c.actions,
        "free_actions": rules.frees - c.frees,
    }
    st = put(state, replace(c, done=True))
    ev = {"event": "done", "actor": key, "round": state.round, "unused": unused}
    return finish(state, st, rules, [ev])
