"""V5's Rouse Check for the spotlight ruleset (issue 31): a vampire who uses a Discipline
Power rouses the blood.

Seed 004 ("On Your Turn", SPOT-07): the turn's one action is "Any Basic Move or Discipline
Power"; it names no cost. V5 core (Disciplines, the Rouse Check): using a power costs a
Rouse Check: ``dice`` die, none at ``success_at`` or more raises the vampire's Hunger by
``hunger_on_failure``; at the top of the Hunger range (``spotlight_harm.max_slake``) the
blood cannot be roused and the power is refused. A power is a trait of the ``kind`` named
(``traits.categories``) in which the user has a dot. Only vampires rouse (the YAML's
``spotlight_harm.vampire_families``); anyone else uses a power with no check. Every number
is ``spotlight_harm.rouse``.

Pure: no Evennia import; the die comes from an injected ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core import dice
from ..core.errors import IllegalAction, InputError
from ..rules.schema import Int, Str, Struct

SCHEMA = Struct(
    required={"dice": Int(1, 10), "success_at": Int(1, 100), "hunger_on_failure": Int(0, 10),
              "power_kind": Str()},
    optional={"source": Str()},
)


@dataclass(frozen=True, slots=True)
class RouseRules:
    dice: int
    success_at: int
    hunger_on_failure: int
    power_kind: str  # the trait kind a Discipline Power is (core/traits.yaml: power)
    max_hunger: int

    @classmethod
    def from_ruleset(cls, ruleset) -> "RouseRules | None":
        harm = ruleset.section("spotlight_harm") or {}
        row = harm.get("rouse")
        if not row:
            return None
        return cls(int(row["dice"]), int(row["success_at"]), int(row["hunger_on_failure"]),
                   str(row["power_kind"]), int(harm["max_slake"]))


def rouse_rules(ruleset) -> RouseRules | None:
    return ruleset.derived(RouseRules.from_ruleset)


def power_name(ruleset, typed: str) -> str:
    """The Discipline Power typed (a unique prefix will do), or a refusal naming them."""
    rules = rouse_rules(ruleset)
    cat = ruleset.traits
    powers = sorted(n for n, d in cat.traits.items() if rules and d.kind == rules.power_kind)
    usage = (f"Name a power: +combat/act power <power> [on <target>]. Powers: "
             f"{', '.join(powers)}.")
    if not typed.strip():
        raise InputError(usage)
    try:
        name = cat.resolve(typed)
    except InputError:
        raise InputError(f"'{typed}' is not a power here. {usage}") from None
    if name not in powers:
        raise InputError(f"'{typed}' is not a power here. {usage}")
    return name


def check(hunger: int, rng: random.Random, rules: RouseRules, sides: int) -> dict:
    """One Rouse Check at ``hunger``: the faces, passed or not, the Hunger after it."""
    if hunger >= rules.max_hunger:
        raise IllegalAction(f"At Hunger {hunger} the blood cannot be roused for a power "
                            f"(V5): feed first (+combat/feed <name>=<hunger slaked>).")
    faces = dice.roll_faces(rules.dice, rng, sides)
    passed = any(f >= rules.success_at for f in faces)
    after = hunger if passed else min(rules.max_hunger, hunger + rules.hunger_on_failure)
    return {"faces": list(faces), "passed": passed, "hunger_before": hunger,
            "hunger_after": after}
