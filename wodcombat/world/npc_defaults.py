"""What an NPC does when staff accept its template's default (``+combat/declare/auto``,
issue 11: a fight of several NPCs must not cost staff one line per NPC per turn).

A staff convenience, not a rule: the template's ``default`` (prototypes.py) is text in
the words of ``+combat/declare``, with ``{pc}`` the nearest player character still standing,
so the engine checks and declares it exactly as if staff had typed it.
"""

from __future__ import annotations

from wodcombat.combat.core.maneuvers import tables

#: outcomes of a character still on their feet (the rest: incapacitated, torpor, dead ...)
STANDING = ("", "ok")


def template_default(template: str | None) -> str | None:
    from wodcombat.world.prototypes import NPC_TEMPLATES

    return (NPC_TEMPLATES.get(template or "") or {}).get("default")


def nearest_pc(state, key: str, rules) -> str | None:
    """The key of the nearest player character standing; on a tie the first who joined."""
    start = tables(rules).movement["starting_range_yards"]
    pcs = [c for c in state.combatants if not c.is_npc and c.outcome in STANDING]
    if not pcs:
        return None
    return min(pcs, key=lambda c: state.range_between(key, c.key, start)).key


def declaration(template: str | None, state, key: str, rules) -> str | None:
    """The NPC's default declaration, or None when it has none (made from a trait list, or
    no player character is left to attack)."""
    text = template_default(template)
    if not text:
        return None
    if "{pc}" in text:
        pc = nearest_pc(state, key, rules)
        if pc is None:
            return None
        text = text.replace("{pc}", pc)
    return text
