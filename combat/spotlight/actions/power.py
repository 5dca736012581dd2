"""A Discipline Power (SPOT-07 "Any Basic Move or Discipline Power"; issue 31): a vampire's
Rouse Check (``combat/spotlight/rouse.py``)."""

from __future__ import annotations

from ...core.errors import IllegalAction
from ...core.outcome import Outcome
from .. import dice as v5dice
from .. import rouse, turn
from .base import out, sheet_or_none, step_out, with_hunger


class Power:
    """``+combat/act power <power> [on <target>]``: a power is a trait the user has a dot
    in; a vampire with a sheet makes V5's Rouse Check for it (harm.yaml ``rouse``), which
    may raise its Hunger (written back to the sheet), and is refused at the top of the
    Hunger range. Anyone else uses it with no check; so does everyone in a ruleset with no
    ``rouse`` row."""

    reads = "the user's sheet (its dots in the power, its Hunger)"

    def check(self, st, c, action: dict, sheets, rules) -> None:
        if rouse.rouse_rules(rules) is None:
            return
        name = rouse.power_name(rules, str(action.get("power") or ""))
        s = sheet_or_none(sheets, c.key)
        if s is not None and s.rating(rules.traits, name) < 1:
            raise IllegalAction(f"{c.name} has no dots in {name}: +sheet shows the powers.")

    def resolve(self, st, c, action: dict, sheets, rules, rng) -> Outcome:
        rr = rouse.rouse_rules(rules)
        if rr is None:
            return step_out(turn.act(st, c.key, rules, action))
        name = rouse.power_name(rules, str(action.get("power") or ""))
        action = {**action, "power": name}
        s = sheet_or_none(sheets, c.key)
        step = turn.act(st, c.key, rules, action)
        if not c.vampire or s is None:
            return step_out(step)
        check = rouse.check(v5dice.hunger_of(s, rules), rng, rr, v5dice.v5_rules(rules).sides)
        ev = {"event": "rouse", "actor": c.key, "power": name, **check}
        act_ev, *after = step.events
        return with_hunger(out(step.state, [act_ev, ev, *after]), [ev], sheets, rules)
