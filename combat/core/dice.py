"""The Storyteller d10 pool: roll faces, then count them (DICE-01..DICE-05, DMG-01, DMG-04).

Rolling and counting are separate so tests give exact faces and the log can show every die.
Every switch comes from the ruleset's ``dice:`` section; nothing here knows a ruleset name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import InputError
from ..rules.schema import Bool, Int, Str, Struct
from .values import fast_init


SCHEMA = Struct(
    optional={
        "sides": Int(2, 100),
        "base_difficulty": Int(1, 100),
        "min_difficulty": Int(1, 100),
        "max_difficulty": Int(1, 100),
        "ones_cancel": Bool(),
        "specialty_doubles_tens": Bool(),
        "willpower_success": Bool(),
        "max_pool": Int(1, 1000),
        "source": Str(),
    }
)


@dataclass(frozen=True, slots=True)
class DiceRules:
    """The dice switches of one ruleset; defaults are the standard Storyteller rules."""

    sides: int = 10
    base_difficulty: int = 6  # DICE-01: typical base difficulty for all rolls is 6
    min_difficulty: int = 2  # DICE-05: difficulty bounds
    max_difficulty: int = 10
    ones_cancel: bool = True  # DICE-02: each 1 cancels a success
    specialty_doubles_tens: bool = True  # DICE-03: a specialty makes a 10 two successes
    willpower_success: bool = True  # DICE-04: one automatic success 1s cannot cancel
    max_pool: int = 30  # a sanity bound so "+roll 9999" is refused, not rolled

    @classmethod
    def from_section(cls, section: dict) -> "DiceRules":
        return cls(**{k: v for k, v in section.items() if k in cls.__slots__})

    def clamp(self, difficulty: int) -> int:
        """DICE-05: difficulties past the bounds are rolled at the bound."""
        return max(self.min_difficulty, min(self.max_difficulty, difficulty))


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Roll:
    """One counted roll with every input, so a staffer can recompute it by hand."""

    faces: tuple[int, ...]
    difficulty: int
    specialty: bool
    willpower: bool
    can_botch: bool
    hits: int  # dice at or above difficulty, 10s doubled by a specialty
    ones: int
    successes: int  # net, never below zero, Willpower's success included
    botch: bool

    @property
    def pool(self) -> int:
        return len(self.faces)

    @property
    def failed(self) -> bool:
        return self.successes == 0

    def as_dict(self) -> dict:
        return {
            "pool": self.pool,
            "faces": list(self.faces),
            "difficulty": self.difficulty,
            "specialty": self.specialty,
            "willpower": self.willpower,
            "successes": self.successes,
            "botch": self.botch,
        }


_RANDINT = random.Random.randint


def roll_faces(count: int, rng: random.Random, sides: int = 10) -> tuple[int, ...]:
    """``count`` dice; the only place the engine touches randomness.

    A face is ``int(rng.random() * sides) + 1``: uniform like ``randint`` and about five
    times cheaper (design card: 50,000 attacks a second; see bench/engine.py). A generator
    whose ``randint`` is its own (``tests/fixed_dice.py`` FixedDice deals queued faces that
    way) is asked through ``randint``, so exact-face tests keep their faces.
    """
    if count <= 0:
        return ()
    # the stock generator (the game's, the simulator's) known by its type, without looking
    # its ``randint`` up: each attack rolls three or four pools
    if type(rng) is not random.Random and getattr(rng.randint, "__func__", None) is not _RANDINT:
        return tuple([rng.randint(1, sides) for _ in range(count)])
    r = rng.random
    return tuple([int(r() * sides) + 1 for _ in range(count)])


def count(
    faces: tuple[int, ...] | list[int],
    difficulty: int,
    rules: DiceRules = DiceRules(),
    *,
    specialty: bool = False,
    willpower: bool = False,
    can_botch: bool = True,
) -> Roll:
    """Count successes on known faces.

    DICE-02: a die at or above difficulty succeeds; each 1 cancels one success; no successes
    rolled and at least one 1 is a botch (a cancelled success is a plain failure).
    DICE-03: with a specialty, a 10 counts twice. DICE-04: Willpower adds one success after
    cancelling, so it also prevents a botch. ``can_botch=False`` is for rolls that the rules
    say cannot botch (DMG-01 damage, DMG-04 soak): a botch there is just a failure.
    """
    return _tally(tuple(faces), difficulty, rules, specialty, willpower, can_botch)


def _tally(faces: tuple[int, ...], difficulty: int, rules: DiceRules, specialty: bool,
           willpower: bool, can_botch: bool) -> Roll:
    """``count``'s rules (DICE-02..05), the arguments positional: the one place they live."""
    lo, hi = rules.min_difficulty, rules.max_difficulty  # DICE-05, as rules.clamp
    difficulty = hi if difficulty > hi else difficulty
    difficulty = lo if difficulty < lo else difficulty
    # One plain loop instead of two generator sums: this runs four times per attack.
    ten = rules.sides if specialty and rules.specialty_doubles_tens else 0
    hits = ones = 0
    for f in faces:
        if f >= difficulty:
            hits += 2 if f == ten else 1
        if f == 1:
            ones += 1
    if not rules.ones_cancel:
        ones = 0
    net = max(0, hits - ones)
    bonus = 1 if willpower and rules.willpower_success else 0
    botch = can_botch and hits == 0 and ones > 0 and bonus == 0
    return Roll(
        faces, difficulty, specialty, bool(bonus), can_botch, hits, ones, net + bonus, botch
    )


def check_pool(pool: int, rules: DiceRules = DiceRules()) -> None:
    if pool > rules.max_pool:
        raise InputError(
            f"A pool of {pool} dice is more than this game allows ({rules.max_pool}). "
            f"Check the expression: +roll dex+brawl vs 6"
        )


def roll(
    pool: int,
    difficulty: int,
    rng: random.Random,
    rules: DiceRules = DiceRules(),
    *,
    specialty: bool = False,
    willpower: bool = False,
    can_botch: bool = True,
) -> Roll:
    """Roll ``pool`` dice and count them. A pool of zero or less rolls no dice (no successes)."""
    check_pool(pool, rules)
    return roll_count(pool, difficulty, rng, rules, specialty=specialty, willpower=willpower,
                      can_botch=can_botch)


def roll_count(
    pool: int,
    difficulty: int,
    rng: random.Random,
    rules: DiceRules = DiceRules(),
    *,
    specialty: bool = False,
    willpower: bool = False,
    can_botch: bool = True,
) -> Roll:
    """``count(roll_faces(pool, rng, rules.sides), difficulty, rules, ...)`` in one call, the
    pool not checked against ``max_pool`` (the engine's own pools, built by the rules): the
    same faces drawn in the same order (a ``RecordingDice`` logs the same), counted by the
    same rules. An attack rolls three or four pools: one call each instead of four."""
    return _tally(roll_faces(pool, rng, rules.sides), difficulty, rules, specialty, willpower,
                  can_botch)
