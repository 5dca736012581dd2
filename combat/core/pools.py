"""Dice pools with their reasons: every modifier says why, so the room and the log can show
the arithmetic (design: "each modifier with its reason")."""

from __future__ import annotations

from dataclasses import dataclass

from .values import fast_init


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Modifier:
    reason: str
    dice: int = 0
    difficulty: int = 0

    def as_dict(self) -> dict:
        out: dict = {"reason": self.reason}
        if self.dice:
            out["dice"] = self.dice
        if self.difficulty:
            out["difficulty"] = self.difficulty
        return out

    def __str__(self) -> str:
        parts = []
        if self.dice:
            parts.append(f"{self.dice:+d} dice")
        if self.difficulty:
            parts.append(f"{self.difficulty:+d} diff")
        return f"{self.reason} {' '.join(parts)}".strip()


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class PoolSpec:
    """Traits and numbers that make a pool, the modifiers on it, and the difficulty asked."""

    terms: tuple[tuple[str, int], ...]  # ("Dexterity", 3), ("bonus", 2), ("Melee", -1) ...
    modifiers: tuple[Modifier, ...]
    base_difficulty: int

    # Plain loops, not generator sums: these are read several times per attack (bench/).
    @property
    def base(self) -> int:
        n = 0
        for _, v in self.terms:
            n += v
        return n

    @property
    def dice(self) -> int:
        n = 0
        for _, v in self.terms:
            n += v
        for m in self.modifiers:
            n += m.dice
        return n if n > 0 else 0

    @property
    def difficulty(self) -> int:
        """Before the ruleset's bounds are applied (DICE-05 clamps at roll time)."""
        n = self.base_difficulty
        for m in self.modifiers:
            n += m.difficulty
        return n

    def plus(self, *mods: Modifier) -> "PoolSpec":
        return PoolSpec(
            self.terms,
            self.modifiers + tuple(m for m in mods if m.dice or m.difficulty),
            self.base_difficulty,
        )

    def describe_terms(self) -> str:
        out = []
        for i, (name, value) in enumerate(self.terms):
            sign = "-" if value < 0 else "+"
            text = f"{name} {abs(value)}" if not name.isdigit() else str(abs(value))
            out.append(("" if i == 0 and sign == "+" else f" {sign} ") + text)
        return "".join(out) or "0"
