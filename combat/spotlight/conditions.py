"""Conditions in a spotlight fight (issue 31): ``+combat/mod Bob=blinded 3``.

Seed 004 names no conditions and gives them no effect, so here a condition is a reminder the
Storyteller plays out in the fiction: the engine keeps it, shows it and counts it down in
rounds (combat/core/conditions.py: the round it is put on counts as the first; set before round
1, the count starts with round 1), and the room is told when it ends. The names the
organizer may use are the YAML's ``spotlight.conditions.names``.
"""

from __future__ import annotations

from ..core.conditions import Condition, check_turns, known_name
from ..core.errors import IllegalAction, InputError
from .flow import Step, finish, live, put
from .tables import spot_rules
from .state import SpotlightState
from ..core.values import replace


def names(ruleset) -> tuple[str, ...]:
    """The conditions the organizer may put on someone in this ruleset."""
    table = (ruleset.section("spotlight") or {}).get("conditions")
    if not table:
        raise InputError(f"Ruleset '{ruleset.name}' names no conditions "
                         f"(spotlight.conditions.names in its YAML).")
    return tuple(str(n).strip().lower() for n in table["names"])


def put_on(state: SpotlightState, key: str, name: str, turns: int | None, ruleset) -> Step:
    """Put ``name`` on ``key`` for ``turns`` rounds (None: until removed); a condition of
    the same name is replaced."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(key)
    name = known_name(name, names(ruleset))
    check_turns(turns, ruleset, unit="round")
    start = max(state.round, 1)
    until = None if turns is None else start + turns - 1
    conds = tuple(k for k in c.conditions if k.name != name) + (
        Condition(name, start, until, until is not None),)
    ev = {"event": "condition", "actor": key, "condition": name, "added": [name],
          "from": start, "until": until, "round": state.round}
    return finish(state, put(state, replace(c, conditions=conds)), rules, [ev])


def take_off(state: SpotlightState, key: str, name: str, ruleset) -> Step:
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(key)
    word = " ".join(name.strip().lower().split())
    have = [k.name for k in c.conditions]
    hit = next((n for n in have if n in (word, word.replace(" ", "_"))), None)
    if hit is None:
        raise IllegalAction(f"{c.name} is not {word} (conditions: "
                            f"{', '.join(have) or 'none'}).")
    conds = tuple(k for k in c.conditions if k.name != hit)
    ev = {"event": "condition", "actor": key, "condition": hit, "removed": [hit],
          "round": state.round}
    return finish(state, put(state, replace(c, conditions=conds)), rules, [ev])
