"""What every d10 action kind is (issue 32), and what several of them ask of a declaration.

An action is a value with no state of its own: the ``kinds`` it answers, what of the fight
it ``reads``, ``check`` (at declaration: refuse with what to type instead, before anything is
spent) and ``resolve`` (in its slot: the action performed, as events on the ``Fight``).
"""

from __future__ import annotations

from typing import Protocol, Sequence

from ...core.errors import IllegalAction
from ..fight import Fight
from .. import wound_movement


class Action(Protocol):
    kinds: tuple[str, ...]
    reads: tuple[str, ...]

    def check(self, f: Fight, key: str, action: dict, declared: Sequence[dict]) -> None:
        """Refuse ``action`` (one of ``declared``, the whole declaration) or change nothing
        but the action's own defaults (the weapon to aim ...)."""

    def resolve(self, f: Fight, key: str, action: dict, mods) -> None:
        """Perform ``action`` in its slot (``mods``: the turn's modifiers on it)."""


def earlier(declared: Sequence[dict], action: dict) -> Sequence[dict]:
    """What the same declaration asked before ``action`` (an escape, a clinch ...)."""
    for i, a in enumerate(declared):
        if a is action:
            return declared[:i]
    return ()


def escaping(declared: Sequence[dict], action: dict) -> bool:
    """CLOSE-03/05: an escape declared before ``action`` frees it from the grapple."""
    return any(e.get("kind") == "escape" for e in earlier(declared, action))


def wounded_move(f: Fight, key: str, yards: int, mode: str) -> None:
    """HLT-07: wounds limit how far one moves (Injured half speed, Wounded walk, Mauled 3
    yards, Crippled 1, Incapacitated none); the pace was checked first (MAN-03/04)."""
    try:
        wound_movement.movement_limit(f.sheet(key), f.rules, yards, mode)
    except IllegalAction as why:
        raise IllegalAction(f"{f.name(key)}: {why}") from None
