"""dodge, block, parry (DEF-01..03): declared like any action, rolled when an attack meets
them (``strike.py``); acting one in its slot only marks it done. A parry needs a weapon or a
shield (DEF-03); a grapple allows only the defenses its row names (CLOSE-03/05)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ...core.maneuvers import tables
from .. import close
from ..fight import Fight
from .base import escaping
from .plain import emit_action


@dataclass(frozen=True, slots=True)
class Defend:
    kinds: tuple[str, ...] = ("dodge", "block", "parry")
    reads: tuple[str, ...] = ("weapons and shield carried (a parry)",
                              "the grapple and its table (man.grapples)")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        kind = a["kind"]
        if kind == "parry":
            close.check_parry(f, key)
        grip = f.gear(key).grapple
        if not grip or escaping(declared, a):
            return
        ok = (tables(f.rules).man.get("grapples") or {}).get(grip.kind, {}).get("defenses", ())
        if kind not in ok:
            raise IllegalAction(f"Locked in a {grip.kind}, {f.name(key)} cannot "
                                f"{kind}: escape first (declare escape; {kind}).")

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        emit_action(f, key, a)
