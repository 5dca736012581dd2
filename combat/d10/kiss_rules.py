"""CLOSE-14, the Kiss (everyman, seed 002 "Bite"): a vampire latched on by a bite drains up
to three blood points a turn; a mortal victim is helpless under it. To resist, a vampire
rolls Self-Control at difficulty 8; a mortal may try only with Willpower 9 or better, and
must roll again every turn.

The ``kiss:`` section (schema below, registered in ``combat/rules/sections.py``) says whether the
ruleset has the Kiss and its numbers; a ruleset without the section has no Kiss.

API
---
``drain(ruleset, vampire, victim, amount=None) -> KissResult``: one turn of feeding.
``resist(ruleset, victim, *, faces=None, rng=None) -> KissResist``: the victim's roll this
turn; IllegalAction when the victim may not even try (a mortal below Willpower 9).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import MappingProxyType

from ..core import dice as dicemod
from .damage import faces_for
from .damage_tables import family_of
from ..core.errors import IllegalAction, InputError
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.sheet import Pool, Sheet
from ..core.values import replace

_RESIST = Struct(
    required={"trait": Str(), "difficulty": Int(1, 10)},
    optional={"min_rating": Optional(Int(0, 10)), "note": Str()},
)

KISS_SCHEMA = Struct(
    optional={
        "source": Str(),
        "enabled": Bool(),
        "blood_per_turn": Int(0, 20),
        # family -> how it resists; "default" covers every family not listed
        "resist": MapOf(_RESIST),
        # "On mortals it renders them helpless": the families the Kiss leaves helpless
        "helpless": ListOf(Str()),
    },
    # CLOSE-14 (seed 002): off unless a ruleset has it; 3 blood points a turn
    defaults={"enabled": False, "blood_per_turn": 3, "resist": {}, "helpless": ()},
)


@dataclass(frozen=True, slots=True)
class KissResult:
    drained: int  # blood points taken this turn
    vampire: Sheet = field(repr=False)  # with the blood gained (up to its pool's maximum)
    victim: Sheet = field(repr=False)  # with the blood lost (when it keeps a Blood pool)
    helpless: bool  # the victim can do nothing but try to resist
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"rule": "CLOSE-14", "drained": self.drained, "helpless": self.helpless,
                "notes": list(self.notes)}


@dataclass(frozen=True, slots=True)
class KissResist:
    roll: dicemod.Roll
    trait: str
    resisted: bool  # the victim breaks the Kiss this turn

    def as_dict(self) -> dict:
        return {"rule": "CLOSE-14", "trait": self.trait, "roll": self.roll.as_dict(),
                "resisted": self.resisted}


def _section(ruleset) -> dict:
    sec = ruleset.section("kiss") or KISS_SCHEMA.fill({})
    if not sec["enabled"]:
        # CLOSE-01: without the Kiss, a bite drains blood as part of the bite itself
        raise IllegalAction("This game's rules have no Kiss; a vampire's bite drains blood "
                            "as part of the bite.")
    return sec


def _row(sec: dict, table: str, family: str):
    rows = sec.get(table) or {}
    return rows.get(family, rows.get("default"))


def drain(ruleset, vampire: Sheet, victim: Sheet, amount: int | None = None) -> KissResult:
    """One turn of the Kiss: up to ``blood_per_turn`` points (3) move from victim to vampire."""
    sec = _section(ruleset)
    if family_of(vampire, ruleset) != "vampire":
        raise IllegalAction("Only a vampire gives the Kiss.")
    most = sec["blood_per_turn"]
    if amount is None:
        amount = most
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise InputError("Drain a whole number of blood points, e.g. 3.")
    if amount > most:
        raise IllegalAction(f"The Kiss drains at most {most} blood points a turn.")
    notes = []
    blood = victim.pool("Blood")
    if blood is not None:
        amount = min(amount, blood.current)
        victim = replace(victim, pools=MappingProxyType(
            {**victim.pools, "Blood": Pool(blood.current - amount, blood.permanent)}))
    else:
        notes.append("the victim's blood is not on its sheet: the Storyteller tracks it")
    mine = vampire.pool("Blood")
    if mine is not None:
        cap = max(mine.permanent, mine.current)
        gained = min(amount, max(0, cap - mine.current))
        vampire = replace(vampire, pools=MappingProxyType(
            {**vampire.pools, "Blood": Pool(mine.current + gained, mine.permanent)}))
        if gained < amount:
            notes.append(f"only {gained} fit in the vampire's pool")
    return KissResult(amount, vampire, victim, is_helpless(ruleset, victim), tuple(notes))


def is_helpless(ruleset, victim: Sheet) -> bool:
    """"On mortals it renders them helpless": the families ``kiss.helpless`` lists."""
    return family_of(victim, ruleset) in (_section(ruleset).get("helpless") or ())


def check_can_resist(ruleset, victim: Sheet) -> tuple[dict, str, int]:
    """(row, trait, rating) of the victim's resistance; IllegalAction when they may not."""
    sec = _section(ruleset)
    row = _row(sec, "resist", family_of(victim, ruleset))
    if row is None:
        raise IllegalAction("Nothing in this game's rules lets this victim resist the Kiss.")
    trait = row["trait"]
    rating = victim.rating(ruleset.traits, trait)
    pool = victim.pool(trait)
    if pool is not None:  # "Willpower of 9 or better": the permanent rating
        rating = pool.permanent
    need = row.get("min_rating")
    if need is not None and rating < need:
        raise IllegalAction(f"Only a victim with {trait} {need}+ may try to resist the Kiss; "
                            f"this one has {rating}.")
    return row, trait, rating


def resist(ruleset, victim: Sheet, *, faces=None,
           rng: random.Random | None = None) -> KissResist:
    """The victim's roll against the Kiss this turn (every turn, seed 002)."""
    row, trait, rating = check_can_resist(ruleset, victim)
    rules = ruleset.dice
    roll = dicemod.count(faces_for(faces, rating, rng, rules.sides, "resistance"),
                         row["difficulty"], rules)
    return KissResist(roll, trait, roll.successes > 0)
