"""The modifiers the turn puts on declared actions (MAN-05..08, DEF-04, TURN-08)."""

from __future__ import annotations

from ...core.errors import InputError
from ...core.pools import Modifier
from ..state import Combatant
from .rules import multiple_action_rows, turn_rules


def action_penalties(combatant: Combatant, ruleset) -> tuple[tuple[Modifier, ...], ...]:
    """The modifiers the turn puts on each declared action, by index.

    MAN-05: N declared actions: -N dice on the first, -(N+1) on the second, ...; DEF-04:
    desperate defense: -1 on the second, -2 on the third instead; MAN-06: supernatural extra
    actions carry none (Celerity 3 + 2 actions: -2, -3, 0, 0, 0); MAN-08: Rage spent and
    more actions than the lowest of Dex/Wits: +3 difficulty on all; TURN-08 revised: a
    changed action that is not defensive is +1 difficulty.
    """
    acts = combatant.actions
    changed = combatant.aborted_to is not None and combatant.abort_difficulty
    if len(acts) == 1 and not changed and (combatant.action_cap is None
                                           or combatant.action_cap >= 1):
        return ((),)  # one action, not changed, within the cap: nothing (asked thrice an act)
    rules = turn_rules(ruleset)
    normal = sum(1 for a in acts if not a.get("extra"))
    rows = rules.ma_rows
    if (normal == len(acts) < len(rows) and not changed and not combatant.desperate
            and combatant.action_cap is None):
        return rows[normal]  # plain actions (a split): MAN-05 alone, built with the rules
    over = None
    rage = rules.extra_sources.get("rage")
    if rage and combatant.action_cap is not None and len(acts) > combatant.action_cap:
        diff = rage["over_limit_difficulty"]
        if diff:
            over = Modifier(
                f"{len(acts)} actions, more than Dexterity/Wits ({combatant.action_cap})",
                difficulty=diff,
            )
    out, pos = [], 0
    for i, a in enumerate(acts):
        mods: list[Modifier] = []
        if combatant.desperate:
            if i and rules.desperate_step:
                mods.append(Modifier("desperate defense", dice=-i * rules.desperate_step))
        elif not a.get("extra"):
            mods += (rows[normal] if normal < len(rows) else multiple_action_rows(
                rules.ma_first, rules.ma_step, normal)[normal])[pos]
            pos += 1
        if i == 0 and combatant.aborted_to is not None and combatant.abort_difficulty:
            mods.append(Modifier("changed action", difficulty=combatant.abort_difficulty))
        if over:
            mods.append(over)
        out.append(tuple(mods))
    return tuple(out)


def penalty_for(combatant: Combatant, index: int, ruleset) -> tuple[Modifier, ...]:
    """The modifiers of the ``index``-th declared action (0-based)."""
    table = action_penalties(combatant, ruleset)
    if not 0 <= index < len(table):
        raise InputError(
            f"{combatant.name} declared {len(table)} action(s); there is no "
            f"action #{index + 1}."
        )
    return table[index]
