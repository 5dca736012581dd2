"""resist (CLOSE-14): the victim of the Kiss rolls to break it (a mortal needs Willpower 9+
where the rules allow it at all; a vampire, Self-Control at 8). The Kiss: ``kiss.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from .. import kiss
from .. import kiss_rules
from ..fight import Fight


@dataclass(frozen=True, slots=True)
class Resist:
    kinds: tuple[str, ...] = ("resist",)
    reads: tuple[str, ...] = ("the Kiss on the actor", "Willpower or Self-Control",
                              "the kiss table")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        if not kiss.enabled(f):  # refused now: its act could never be made (a stalled turn)
            raise IllegalAction("This game's rules have no Kiss to resist; to break a grapple "
                                "declare escape, or declare another action.")
        if not kiss.kissed(f, key):
            raise IllegalAction(f"{f.name(key)} is under no Kiss to resist.")
        kiss_rules.check_can_resist(f.rules, f.sheet(key))

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        kiss.resist(f, key)
