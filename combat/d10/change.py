"""TURN-10 (everyman #16): "If the character's declared action is impossible he may be able
to change actions ... spend a WP or make a WP roll at dif 8." The example: a claw at someone
who moved out of reach may become a chase "or something else"; a claw that could still be
made may not become a shot. So the engine checks that the declared action is impossible now;
then any new action may take its place (READING, rules/README.md).
"""

from __future__ import annotations

from . import scheduler as sch
from ..core.errors import IllegalAction
from . import declare, foresee
from .fight import Fight


def offer(f: Fight, key: str, action: dict, index: int) -> None:
    """At the moment of acting, an impossible main action where the ruleset lets it change:
    the player chooses (change it, or pass and lose it) instead of losing it unasked. After
    a failed change roll the action is simply lost when acted (never a stall)."""
    c = f.state.get(key)
    if (not sch.turn_rules(f.rules).change.get("enabled") or c is None or c.used
            or c.abort_failed or index != 0):
        return
    why = foresee.impossible(f, key, action)
    if why:
        raise IllegalAction(f"{f.name(key)}'s declared {action['kind']} is impossible now: "
                            f"{why} Change it: +combat/change <action> (a Willpower roll; "
                            f"/change/wp spends a point), or +combat/pass to lose it.")


def change(f: Fight, key: str, to: dict, spend: bool) -> None:
    c = f.state.find(key)
    name = f.name(key)
    if not sch.turn_rules(f.rules).change.get("enabled"):
        raise IllegalAction("This game has no changing of declared actions; before acting you "
                            "may abort to a defense: +combat/abort dodge")
    if not c.actions or c.used:
        raise IllegalAction(f"{name} has no declared action left to change.")
    declared = c.actions[0]
    why = foresee.impossible(f, key, declared)
    if why is None:
        raise IllegalAction(f"{name}'s declared {declared['kind']} can still be made; only an "
                            f"impossible action may be changed.")
    to = dict(to)
    if isinstance(to.get("kind"), str):  # the scheduler refuses a malformed one by name
        to["kind"] = to["kind"].strip().lower()
        declare.check_actions(f, key, [to])  # as if declared alone, before any Willpower
    rating = f.willpower_for_reflex(key, spend)
    step = sch.change_action(f.state, key, to, f.rules, f.rng, willpower=rating,
                             spend_willpower=spend)
    f.tell_willpower_roll(key, step, "change", rating)
    f.emit("impossible", actor=key, kind=declared["kind"], why=why)
    f.run(step)
