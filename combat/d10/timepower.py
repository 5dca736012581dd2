"""MAN-09: extra actions from time powers other than Celerity and Rage (seed 000 "Multiple
actions: specific supernatural powers"): Distort Time (1 per 2 successes, next turn),
Quicksilver, Dream Time, Faith (this turn, each extra action one step lower in initiative)
and Tempus Fugit. The numbers are ``time_powers`` in the ruleset's maneuvers.yaml
(``maneuvers.time_power_actions``); the power's own roll is made as the power says, and the
player declares its successes: ``time <power> <successes>``.

The actions granted are the ``time`` source of extra actions (turns.yaml ``extra_sources``):
outside the split penalty and last in the turn (MAN-06), declared as ``extra <action>``.
"""

from __future__ import annotations


from ..core.errors import IllegalAction
from ..core.maneuvers import time_power_actions
from .fight import Fight

SOURCE = "time"


def activate(f: Fight, key: str, power: str, amount: int) -> None:
    grant = time_power_actions(f.rules, power, amount)
    c = f.state.find(key)
    if grant.actions < 1:
        raise IllegalAction(f"{amount} with {grant.power} gives no extra action.")
    if grant.when == "next_turn":
        extra = dict(c.next_extra)
        extra[SOURCE] = extra.get(SOURCE, 0) + grant.actions
        f.put(key, next_extra=tuple(sorted(extra.items())))
        turn = f.state.turn + 1
    else:  # this turn (Faith), or each turn of the scene (Tempus Fugit: declared again)
        if c.declared:
            raise IllegalAction(f"{grant.power}'s actions are declared with it: use it "
                                f"before declaring (TURN-02).")
        extra = c.extras
        extra[SOURCE] = extra.get(SOURCE, 0) + grant.actions
        f.put(key, extra_actions=tuple(sorted(extra.items())))
        turn = f.state.turn
    f.emit("time_power", actor=key, power=grant.power, actions=grant.actions, turn=turn,
           when=grant.when, steps=list(grant.initiative_steps), note=grant.note)
