"""V5 Willpower reroll (dice.yaml): the attack just rolled, played again with new dice."""

from __future__ import annotations

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.events import events_of
from ...core.outcome import Outcome
from ...core.values import replace
from .. import attack as spa
from .. import dice as v5dice
from .. import turn
from ..state import SpotlightState
from .attack import contest
from .base import Action, live, own, sheet


class Reroll(Action):
    """One Willpower point, up to three of the attack's dice that are not Hunger dice
    rolled again, the attack played again from just before it with the new dice (the
    defender's dice kept); once a roll."""

    intent = intents.Reroll
    reads = "the roller's sheet (Willpower, the attack's pool), the target's"

    def check(self, st, intent: intents.Reroll, sheets, rules) -> None:
        live(st)
        c = own(st, intent)
        last = st.last_roll
        if not last or last["actor"] != c.key:
            raise IllegalAction("There is no roll of yours to reroll: a Willpower reroll "
                                "comes right after your attack, before anything else "
                                "happens.")
        v5 = v5dice.v5_rules(rules)
        if v5.reroll is None:
            raise IllegalAction("This ruleset has no Willpower reroll.")
        old = v5dice.count(last["faces"], last["hunger"], v5)
        picks(intent.dice, len(old.normal_faces), v5.reroll[2])

    def resolve(self, st, intent: intents.Reroll, sheets, rules, rng) -> Outcome:
        c = own(st, intent)
        last = st.last_roll
        v5 = v5dice.v5_rules(rules)
        pool, cost, most = v5.reroll
        old = v5dice.count(last["faces"], last["hunger"], v5)
        chosen = picks(intent.dice, len(old.normal_faces), most)
        s = sheet(sheets, c.key, c.name)
        spent = s.spend(pool, cost)
        new = v5dice.reroll(old, chosen, rng, v5)
        before = SpotlightState.from_dict(last["before"])
        action, w = dict(last["action"]), last["weapon"]
        w = None if w is None else spa.Weapon(w[0], w[1], w[2])
        step = turn.act(before, c.key, rules, action)
        defense = v5dice.count(last["defense"][0], last["defense"][1], v5)
        result = contest(step, c, action, w, s, sheets, rules, rng, kept=(new, defense),
                         replay=True)
        ev = {"event": "reroll", "actor": c.key, "positions": list(chosen),
              "old": [old.normal_faces[p - 1] for p in chosen],
              "new": [new.normal_faces[p - 1] for p in chosen],
              "pool": pool, "spent": cost, "left": spent.pools[pool].current}
        state = replace(result.state, last_roll=None, seq=st.seq + 1, deadline=st.deadline)
        return Outcome(state, {**result.sheet_changes, c.key: spent},
                       events_of([ev, *result.events]))


def picks(dice, normal: int, most: int) -> tuple[int, ...]:
    """The positions typed (1-based among the dice that are not Hunger dice), checked."""
    usage = (f"+combat/reroll <die>[,<die>...]: up to {most} of your {normal} dice that are "
             f"not Hunger dice, counted from the left as shown, e.g. +combat/reroll 1,3.")
    chosen = tuple(dice or ())
    if not chosen or len(chosen) > most or len(set(chosen)) != len(chosen):
        raise InputError(usage)
    if any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= normal
           for p in chosen):
        raise InputError(usage)
    return chosen
