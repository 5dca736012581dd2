"""move (MAN-03): up to a run a turn, less with wounds (HLT-07); toward or away from someone,
the range to them changes by the yards run (RNG-05). Held in a grapple, one escapes first
(CLOSE-03/05)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ...core.maneuvers import movement_yards
from ..fight import Fight
from .base import escaping, wounded_move
from .plain import emit_action


@dataclass(frozen=True, slots=True)
class Move:
    kinds: tuple[str, ...] = ("move",)
    reads: tuple[str, ...] = ("run yards (Dexterity, the movement table)", "wounds",
                              "the grapple", "the range to the one moved toward or from")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        most = movement_yards(f.rules, f.sheet(key), "run")
        if a["yards"] > most:
            raise IllegalAction(f"{f.name(key)} runs at most {most} yards a turn.")
        wounded_move(f, key, a["yards"], "run")
        grip = f.gear(key).grapple
        if grip and not escaping(declared, a):
            raise IllegalAction(f"Locked in a {grip.kind}, {f.name(key)} cannot move "
                                f"away: escape first (declare escape; move ...).")

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        other = a.get("target")
        if not other:
            emit_action(f, key, a)
            return
        if f.state.get(other) is None:  # left the fight: a plain move
            f.emit("action", actor=key, kind="move", yards=a["yards"])
            return
        sign = -1 if a.get("direction", "toward") == "toward" else 1
        yards = max(0, f.yards(key, other) + sign * a["yards"])
        f.set_yards(key, other, yards)
        f.emit("action", actor=key, kind="move", yards=a["yards"], target=other,
               direction=a.get("direction", "toward"), range=yards)
