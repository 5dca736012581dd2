"""The actions that need no rule of their own when acted: other <text>, rise (the knockdown's
lost action: COMP-04), and any kind the scheduler accepts that no other action answers. A
defense is ``defend.py``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..fight import Fight

SHOWN = ("text", "yards", "weapon")  # what of the action its event carries


@dataclass(frozen=True, slots=True)
class Plain:
    kinds: tuple[str, ...] = ("other", "rise")
    reads: tuple[str, ...] = ()

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        return None

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        emit_action(f, key, a)


def emit_action(f: Fight, key: str, a: dict) -> None:
    f.emit("action", actor=key, kind=a["kind"], **{k: a[k] for k in SHOWN if k in a})
