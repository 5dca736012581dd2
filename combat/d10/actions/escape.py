"""escape (CLOSE-03 / CLOSE-05): resisted Strength + Brawl against the holder; a holder who
cannot act (HLT-02) cannot hold on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .. import close
from .. import damage as dmg
from ..reflex_rolls import resolve_escape
from ..fight import OUT_OF_ACTION, Fight, roll_event


@dataclass(frozen=True, slots=True)
class Escape:
    kinds: tuple[str, ...] = ("escape",)
    reads: tuple[str, ...] = ("the grapple", "both sides' Strength and Brawl",
                              "the holder's health", "a tackle's off-balance (CLOSE-12)")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        return None  # no grapple is no refusal: the escape finds no one holding on

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        grip = f.gear(key).grapple
        if not grip or f.state.get(grip.other) is None:
            f.emit("escape", actor=key, holder=None, escaped=False)
            f.release(key, None)
            return
        other = grip.other
        if (f.state.get(other).outcome in OUT_OF_ACTION
                or dmg.is_incapacitated(f.sheet(other), f.rules)):
            # HLT-02: an incapacitated holder cannot act, so cannot hold on (issue 9, 26).
            f.release(key, other)
            f.emit("escape", actor=key, holder=other, escaped=True, limp=True)
            return
        res = resolve_escape(f.rules, f.sheet(key), f.sheet(other), rng=f.rng,
                             extra=close.defense_extra(f, key))  # CLOSE-12 off balance
        f.events.append(roll_event(key, "escape", res.escaper_pool, res.escaper_roll))
        f.events.append(roll_event(other, "hold on", res.holder_pool, res.holder_roll))
        if res.escaped:
            f.release(key, other)
        f.emit("escape", actor=key, holder=other, escaped=res.escaped)
