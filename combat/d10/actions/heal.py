"""heal, as the declared action (HEAL-08 a demon's turn of concentration per Faith, HEAL-09
the in-combat healing roll where it is not a reflex). The reflexive heals are done when
declared and never reach the scheduler (``mending.split``, ``mending.reflex``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from .. import mending
from ..fight import Fight


@dataclass(frozen=True, slots=True)
class Heal:
    kinds: tuple[str, ...] = ("heal",)
    reads: tuple[str, ...] = ("the family on the sheet", "Faith", "the health track",
                              "the field_healing table")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        if mending.is_reflex(f, key, a):  # only a TURN-10 change brings one here
            raise IllegalAction("That heal is reflexive, not an action, so it cannot take "
                                "an action's place: declare it on its own (+combat/declare).")
        mending.check(f, key, a)

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        mending.act(f, key, a)
