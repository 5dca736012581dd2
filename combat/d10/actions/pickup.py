"""ready: pick up a weapon knocked away (CLOSE-04 disarm); an action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ..fight import Fight
from .plain import emit_action


@dataclass(frozen=True, slots=True)
class PickUp:
    kinds: tuple[str, ...] = ("ready",)
    reads: tuple[str, ...] = ("the weapons knocked away",)

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        if not f.gear(key).is_dropped(a["weapon"]):
            raise IllegalAction(f"{a['weapon']} was not knocked away; nothing to pick up.")

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        f.set_gear(key, f.gear(key).pick_up(a["weapon"]))
        emit_action(f, key, a)
