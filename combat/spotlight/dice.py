"""V5 dice for the spotlight ruleset (issue 10): the dice seed 004 is built on.

Seed 004 ("Combat") names no dice for actions; it is a Vampire: the Masquerade 5th edition
hack, so a roll is a V5 pool (V5 core, "Dice and Tests"): every die at ``success_at`` or
above is one success; ones cancel nothing and nothing botches; each PAIR of 10s is a
critical worth 4 successes (two dice + ``critical_pair_bonus``), so two 10s = 4, three = 5,
four = 8. A vampire rolls as many of the pool's dice as its Hunger as Hunger dice: a
critical with a 10 on a Hunger die is a messy critical, a failure with a 1 on a Hunger die
is a bestial failure. Every number is the ``v5_dice:`` section of the ruleset.

Rolling and counting are separate (exact faces in tests); pure, no Evennia import.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MappingProxyType

from ..core.dice import roll_faces
from ..core.errors import InputError
from ..rules.schema import Int, Str, Struct

SCHEMA = Struct(
    required={"success_at": Int(2, 100)},
    optional={
        "sides": Int(2, 100),
        "critical_pair_bonus": Int(0, 10),
        "default_difficulty": Int(0, 50),
        "max_difficulty": Int(1, 50),
        "max_pool": Int(1, 1000),
        "hunger_pool": Str(),
        "willpower_reroll": Struct(required={"pool": Str(), "cost": Int(1, 10),
                                             "max_dice": Int(1, 10)}),
        "source": Str(),
    },
    # V5 core, "Dice and Tests": d10s, a pair of 10s worth 4 (two dice + 2); difficulty 1
    # unless the Storyteller names one (at most 10); the Hunger pool by its sheet name.
    defaults={"sides": 10, "critical_pair_bonus": 2, "default_difficulty": 1,
              "max_difficulty": 10, "max_pool": 30, "hunger_pool": "Hunger"},
)

SECTIONS = MappingProxyType({"v5_dice": SCHEMA})


@dataclass(frozen=True, slots=True)
class V5Rules:
    sides: int
    success_at: int
    critical_pair_bonus: int
    default_difficulty: int
    max_difficulty: int
    max_pool: int
    hunger_pool: str
    # V5 Willpower reroll: (pool, cost, most dice); None: this ruleset has none
    reroll: tuple[str, int, int] | None = None

    @classmethod
    def from_ruleset(cls, ruleset) -> "V5Rules":
        sec = ruleset.section("v5_dice")
        return cls(
            sides=sec["sides"],
            success_at=sec["success_at"],
            critical_pair_bonus=sec["critical_pair_bonus"],
            default_difficulty=sec["default_difficulty"],
            max_difficulty=sec["max_difficulty"],
            max_pool=sec["max_pool"],
            hunger_pool=sec["hunger_pool"],
            reroll=_reroll_rule(sec.get("willpower_reroll")),
        )


def _reroll_rule(row) -> tuple[str, int, int] | None:
    return (str(row["pool"]), int(row["cost"]), int(row["max_dice"])) if row else None


def uses_v5(ruleset) -> bool:
    """A ruleset rolls V5 dice when it has a ``v5_dice:`` section (spotlight)."""
    return bool(ruleset.section("v5_dice"))


def v5_rules(ruleset) -> V5Rules:
    return ruleset.derived(V5Rules.from_ruleset)


@dataclass(frozen=True, slots=True)
class V5Roll:
    """One counted V5 roll: the faces, how many of the first ones are Hunger dice, and the
    successes (criticals included)."""

    faces: tuple[int, ...]
    hunger: int  # the first ``hunger`` faces are Hunger dice
    successes: int
    criticals: int  # pairs of 10s
    sides: int = 10

    @property
    def pool(self) -> int:
        return len(self.faces)

    @property
    def hunger_faces(self) -> tuple[int, ...]:
        return self.faces[: self.hunger]

    @property
    def normal_faces(self) -> tuple[int, ...]:
        return self.faces[self.hunger :]

    @property
    def critical(self) -> bool:
        return self.criticals > 0

    @property
    def messy(self) -> bool:
        """A critical with a 10 on a Hunger die (V5 messy critical)."""
        return self.critical and self.sides in self.hunger_faces

    @property
    def hunger_one(self) -> bool:
        """A 1 on a Hunger die: a failure with it is a bestial failure."""
        return 1 in self.hunger_faces

    def result(self, won: bool) -> str:
        """What the roll came to: messy / critical / success, bestial / failure."""
        if won:
            if self.messy:
                return "messy critical"
            return "critical" if self.critical else "success"
        return "bestial failure" if self.hunger_one else "failure"

    def as_dict(self) -> dict:
        return {
            "faces": list(self.faces),
            "hunger": self.hunger,
            "hunger_faces": list(self.hunger_faces),
            "successes": self.successes,
            "criticals": self.criticals,
            "messy": self.messy,
        }


def count(faces, hunger: int, rules: V5Rules) -> V5Roll:
    faces = tuple(int(f) for f in faces)
    hits = sum(1 for f in faces if f >= rules.success_at)
    pairs = sum(1 for f in faces if f == rules.sides) // 2
    hunger = max(0, min(int(hunger), len(faces)))
    return V5Roll(faces, hunger, hits + pairs * rules.critical_pair_bonus, pairs, rules.sides)


def reroll(old: V5Roll, picks, rng: random.Random, rules: V5Rules) -> V5Roll:
    """V5 Willpower reroll: ``picks`` are 1-based positions among the dice that are not
    Hunger dice (as shown: Hunger dice apart); those are rolled again, the rest kept."""
    faces = list(old.faces)
    for pos, face in zip(picks, roll_faces(len(picks), rng, rules.sides)):
        faces[old.hunger + pos - 1] = face
    return count(faces, old.hunger, rules)


def roll(pool: int, hunger: int, rng: random.Random, rules: V5Rules) -> V5Roll:
    """Roll ``pool`` dice (none for a pool of 0 or less); ``hunger`` of them are Hunger dice."""
    if pool > rules.max_pool:
        raise InputError(f"A pool of {pool} dice is more than this game allows "
                         f"({rules.max_pool}).")
    return count(roll_faces(max(0, pool), rng, rules.sides), hunger, rules)


def hunger_of(sheet, ruleset) -> int:
    """A sheet's Hunger (0 for anyone whose splat has no Hunger pool)."""
    name = v5_rules(ruleset).hunger_pool
    p = sheet.pools.get(name) if sheet is not None else None
    return p.current if p is not None else 0
