"""What the combat knows about a combatant's kit and footing between commands, typed.

Cover (RNG-03), a grapple partner (CLOSE-03/05), aiming (RNG-01), weapons knocked away
(CLOSE-04), an off-balance penalty (CLOSE-12), each ranged weapon's readiness (ATK-07/08,
RNG-06) and this turn's power spending (PWR-01..04). Stored inside ``Combatant`` as plain
JSON; ``from_dict`` reads the same shape ``to_dict`` writes (and the untyped dicts older
states stored, which had that shape too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .attack_values import WeaponState
from .powers import TurnSpending
from ..core.values import copyable, replace


@dataclass(frozen=True, slots=True)
class Grip:
    other: str  # the combatant locked with this one
    kind: str  # clinch (CLOSE-03) or hold (CLOSE-05)
    held: bool = False  # COMP-03: this one is held by the other (a hold), partly immobilized


@dataclass(frozen=True, slots=True)
class Aim:
    target: str
    weapon: str
    turns: int
    turn: int = 0  # RNG-01: the fight turn of the latest aim; only earlier turns count


@dataclass(frozen=True, slots=True)
class Penalty:
    """CLOSE-12: off balance after a tackle, for one named turn."""

    turn: int
    difficulty: int
    reason: str


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Close:
    """Close-combat facts that outlive one attack (combat/d10/close.py): CLOSE-09 a riposte
    earned by a weapon parry, CLOSE-01 a tackle that lets a vampire bite next turn, COMP-01
    Blind Fighting points rolled this turn, MAN-01 an ambush won against a target."""

    riposte: tuple[str, str, int] | None = None  # (foe, weapon, turn of the parry)
    tackled: tuple[str, int] | None = None  # (target, turn of the tackle)
    blind_fight: tuple[int, int, int] | None = None  # (turn, own penalty off, bonus off)
    ambush: tuple[str, str, int] | None = None  # (target, outcome, bonus dice)

    def to_dict(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v
                for k in ("riposte", "tackled", "blind_fight", "ambush")
                if (v := getattr(self, k)) is not None}

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "Close | None":
        if not d:
            return None
        return cls(**{k: tuple(v) for k, v in d.items()
                      if k in ("riposte", "tackled", "blind_fight", "ambush") and v})


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Gear:
    cover: str = "none"
    grapple: Grip | None = None
    aim: Aim | None = None
    dropped: tuple[str, ...] = ()
    penalty: Penalty | None = None
    weapons: tuple[WeaponState, ...] = ()
    close: Close | None = None

    def weapon(self, name: str | None) -> WeaponState | None:
        if not name or not self.weapons:
            return None
        return next((w for w in self.weapons if w.weapon == name), None)

    def with_weapon(self, ws: WeaponState) -> "Gear":
        rest = tuple(w for w in self.weapons if w.weapon != ws.weapon)
        return replace(self, weapons=tuple(sorted(rest + (ws,), key=lambda w: w.weapon)))

    def is_dropped(self, weapon: str | None) -> bool:
        if not self.dropped or not weapon:  # nothing knocked away: asked on every attack
            return False
        return weapon.lower() in {w.lower() for w in self.dropped}

    def drop(self, weapon: str) -> "Gear":
        return replace(self, dropped=tuple(sorted(set(self.dropped) | {weapon})))

    def pick_up(self, weapon: str) -> "Gear":
        return replace(self, dropped=tuple(w for w in self.dropped
                                           if w.lower() != weapon.lower()))

    def to_dict(self) -> dict:
        d: dict = {}
        if self.cover != "none":
            d["cover"] = self.cover
        if self.grapple:
            d["grapple"] = {"with": self.grapple.other, "kind": self.grapple.kind}
            if self.grapple.held:
                d["grapple"]["held"] = True
        if self.aim:
            d["aim"] = {"target": self.aim.target, "weapon": self.aim.weapon,
                        "turns": self.aim.turns, "turn": self.aim.turn}
        if self.dropped:
            d["dropped"] = list(self.dropped)
        if self.penalty:
            d["penalty"] = {"turn": self.penalty.turn, "difficulty": self.penalty.difficulty,
                            "reason": self.penalty.reason}
        if self.weapons:
            d["weapons"] = {w.weapon: w.as_dict() for w in self.weapons}
        if self.close is not None and self.close.to_dict():
            d["close"] = self.close.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "Gear":
        if not d:
            return EMPTY
        g, a, p = d.get("grapple"), d.get("aim"), d.get("penalty")
        return cls(
            cover=str(d.get("cover") or "none"),
            grapple=Grip(str(g["with"]), str(g.get("kind") or "clinch"), bool(g.get("held")))
            if g else None,
            aim=Aim(str(a["target"]), str(a.get("weapon") or ""), int(a.get("turns", 1)),
                    int(a.get("turn", 0)))
            if a else None,
            dropped=tuple(sorted(str(w) for w in d.get("dropped") or ())),
            penalty=Penalty(int(p["turn"]), int(p.get("difficulty", 0)),
                            str(p.get("reason") or "off balance")) if p else None,
            weapons=tuple(WeaponState(**w) for _, w in sorted((d.get("weapons") or {}).items())),
            close=Close.from_dict(d.get("close")),
        )


EMPTY = Gear()


@dataclass(frozen=True, slots=True)
class Spending:
    """PWR-01..04: this turn's tally; a new turn starts a fresh one (banked blood stays)."""

    turn: int
    value: TurnSpending

    def to_dict(self) -> dict:
        return {"turn": self.turn, "value": self.value.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "Spending | None":
        if not d:
            return None
        return cls(int(d.get("turn", 0)), TurnSpending.from_dict(d.get("value") or {}))
