"""The spotlight engine's attack roll: a house default, because seed 004 gives none.

Seed 004 ("Combat") says what a turn holds (SPOT-07), how far a weapon reaches (SPOT-10) and
how Harm is marked (SPOT-11..14), but not which dice an attack rolls or how much Harm it
deals (those are its "Basic Moves", outside the seed). So that a scene plays end to end,
this ruleset's YAML (``spotlight_attack:``) states the smallest roll that fits the other
rules, and an admin can change every number:

* the pool is the sum of the attacker's traits listed for the weapon's range tag (or the
  ``default`` row), rolled as d10s at ``difficulty`` with the ruleset's dice rules;
* Harm is the net successes plus the row's ``bonus`` (nothing on a miss), of the row's
  ``kind`` (Superficial, unless the row says Aggravated: a bite, claws);
* armor is not subtracted here (the sheet's armor table is the d10 engine's); staff can
  mark Harm by hand with ``+combat/damage``.

Pure: no Evennia import; the dice come from an injected ``random.Random`` or exact faces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Mapping

from . import dice
from .errors import InputError
from .schema import Int, ListOf, MapOf, Str, Struct

ROW = Struct(
    optional={
        "pool": ListOf(Str(), min_len=1),
        "bonus": Int(0, 20),
        "kind": Str(choices=("superficial", "aggravated")),
        "source": Str(),
    }
)

ATTACK_SCHEMA = Struct(
    required={
        "difficulty": Int(2, 10),
        "default": Struct(
            required={"pool": ListOf(Str(), min_len=1)},
            optional={
                "bonus": Int(0, 20),
                "kind": Str(choices=("superficial", "aggravated")),
                "source": Str(),
            },
        ),
    },
    optional={"tags": MapOf(ROW), "source": Str()},
)

SECTIONS = {"spotlight_attack": ATTACK_SCHEMA}


def check(ruleset) -> list[tuple[str, str]]:
    """Every trait an attack pool names must be a trait of the ruleset."""
    sec = ruleset.section("spotlight_attack")
    if not sec:
        return []
    known = ruleset.traits.traits
    out = []
    rows = [("spotlight_attack.default", sec["default"])]
    rows += [(f"spotlight_attack.tags.{k}", v) for k, v in (sec.get("tags") or {}).items()]
    for path, row in rows:
        for name in row.get("pool") or ():
            if name not in known:
                out.append((f"{path}.pool", f"'{name}' is not a trait of this ruleset"))
    return out


@dataclass(frozen=True, slots=True)
class AttackRow:
    tag: str | None
    pool: tuple[str, ...]
    bonus: int
    kind: str


def attack_row(ruleset, tag: str | None) -> AttackRow:
    """The row for a range tag (a weapon, bite ...), or the default row."""
    sec = ruleset.section("spotlight_attack")
    if not sec:
        raise InputError(
            f"Ruleset '{ruleset.name}' has no spotlight_attack: table; mark Harm by hand "
            f"with +combat/damage <name>=<n> superficial|aggravated."
        )
    base = sec["default"]
    row = (sec.get("tags") or {}).get(str(tag).lower()) if tag else None
    row = row or {}
    return AttackRow(
        tag,
        tuple(row.get("pool") or base["pool"]),
        int(row.get("bonus", base.get("bonus", 0))),
        str(row.get("kind", base.get("kind", "superficial"))),
    )


def resolve(
    ruleset,
    tag: str | None,
    ratings: Mapping[str, int],
    rng: random.Random | None = None,
    *,
    faces: Iterable[int] | None = None,
) -> dict:
    """Roll one attack: the log's ``roll`` fields plus ``harm`` and ``kind``.
    ``ratings``: trait -> dots on the attacker's sheet for the row's pool."""
    row = attack_row(ruleset, tag)
    sec = ruleset.section("spotlight_attack")
    terms = [[name, int(ratings.get(name, 0))] for name in row.pool]
    pool = sum(v for _, v in terms)
    rules = ruleset.dice
    if faces is None:
        if rng is None:
            raise InputError("No dice to roll with (rng missing).")
        dice.check_pool(pool, rules)
        faces = dice.roll_faces(pool, rng, rules.sides)
    roll = dice.count(tuple(faces), sec["difficulty"], rules)
    harm = roll.successes + row.bonus if roll.successes > 0 else 0
    return {
        "traits": terms,
        "pool": roll.pool,
        "difficulty": roll.difficulty,
        "faces": list(roll.faces),
        "specialty": False,
        "willpower": False,
        "successes": roll.successes,
        "botch": roll.botch,
        "bonus": row.bonus,
        "harm": harm,
        "kind": row.kind,
        "tag": tag,
    }
