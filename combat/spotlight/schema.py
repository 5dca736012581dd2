"""The YAML the spotlight engine reads (seed 004; SPOT-01..14): its three sections' schemas
and the checks across them. The numbers live in the YAML and these schemas; ``tables.py``
reads them once per ruleset.
"""

from __future__ import annotations

from types import MappingProxyType

from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct
from .rouse import SCHEMA as _ROUSE_SCHEMA
from .state import ENGINE

RESOLUTIONS = ("v5", "moves")  # spotlight.resolution; the first is the schema's default

# What a table left out holds is its schema's ``defaults`` (the numbers live there and in
# the YAML, never in Python); a section left out holds its sub-table's defaults.
TURN = Struct(  # SPOT-07: one move, one action, one free action; over once all are used
    optional={
        "moves": Int(0, 5),
        "actions": Int(0, 5),
        "free_actions": Int(0, 5),
        "end_when_all_used": Bool(),
        "source": Str(),
    },
    defaults={"moves": 1, "actions": 1, "free_actions": 1, "end_when_all_used": True},
)
ROUNDS = Struct(  # SPOT-04..06: an opponent acts once unless given more; rounds go on
    optional={
        "opponent_actions": Int(1, 10),
        "auto_new_round": Bool(),
        "source": Str(),
    },
    defaults={"opponent_actions": 1, "auto_new_round": True},
)
OVERFLOW = Struct(  # SPOT-11/13: Superficial past a full track is lost; Aggravated
    optional={          # replaces Superficial marks
        "superficial": Str(choices=("lost", "aggravated")),
        "aggravated": Str(choices=("lost", "replace_superficial")),
    },
    defaults={"superficial": "lost", "aggravated": "replace_superficial"},
)


SPOTLIGHT_SCHEMA = Struct(
    required={
        "initiative": Struct(  # SPOT-01
            required={
                "dice": Int(0, 10),
                "sides": Int(2, 100),
                "traits": ListOf(Str(), min_len=1),
            },
            optional={"source": Str()},
        ),
    },
    optional={
        "turn": TURN,
        "rounds": ROUNDS,
        "conditions": Struct(  # issue 31: what +combat/mod may put on someone
            required={"names": ListOf(Str(), min_len=1)},
            optional={"source": Str()},
        ),
        # issue 31: how an action is resolved, a READING (seed 004 names no dice): V5
        # pools (spotlight_attack, v5_dice) or the seed's moves (spotlight_moves)
        "resolution": Str(choices=RESOLUTIONS),
        "source": Str(),
    },
    defaults={"resolution": RESOLUTIONS[0], "turn": TURN.defaults, "rounds": ROUNDS.defaults},
)


RANGES_SCHEMA = Struct(  # SPOT-10
    required={
        "bands": ListOf(Str(), min_len=2),
        "default": Str(),
        "tags": MapOf(
            Struct(
                required={"max": Str()},
                optional={
                    "min": Str(),
                    "kind": Str(choices=("weapon", "power", "action")),
                    "source": Str(),
                },
                defaults={"kind": "weapon"},  # a tag is a weapon's unless it says otherwise
            )
        ),
    },
    optional={"source": Str()},
)


HARM_SCHEMA = Struct(  # SPOT-11..14
    required={
        "blood_potency": MapOf(
            Struct(required={"hp": Int(1, 100), "final_death": Int(1, 100)}), key=Int(0, 20)
        ),
    },
    optional={
        "default_hp": Int(1, 100),
        "kinds": ListOf(Str(), min_len=1),
        "armor_applies_to": ListOf(Str(choices=("superficial", "aggravated"))),
        "overflow": OVERFLOW,
        "revive_after_rounds": Int(0, 10),
        "max_slake": Int(1, 20),
        "feed_heals": ListOf(Str(choices=("superficial", "aggravated")), min_len=1),
        "scene_end": Struct(
            required={"dice": Int(0, 10), "success_at": Int(1, 100)},
            optional={"hunger_on_failure": Int(0, 10), "source": Str(),
                      # V5: Superficial Harm mended per Rouse Check, by Blood Potency
                      "mend_by_blood_potency": MapOf(Int(1, 20), key=Int(0, 20))},
            defaults={"hunger_on_failure": 1},  # V5's Rouse Check: Hunger +1 on a failure
        ),
        "vampire_families": ListOf(Str(), min_len=1),
        "rouse": _ROUSE_SCHEMA,  # issue 31: a Discipline Power's Rouse Check (V5)
        "source": Str(),
    },
    # SPOT-11: Aggravated bypasses armor; SPOT-14: back after one round; V5: Hunger 0-5;
    # a non-vampire's track when no HP is given (the seed has no mortal table).
    defaults={"default_hp": 6, "armor_applies_to": ["superficial"], "overflow": OVERFLOW.defaults,
              "revive_after_rounds": 1, "max_slake": 5, "vampire_families": ["vampire"],
              "feed_heals": ["aggravated", "superficial"]},
)


SECTIONS = MappingProxyType({
    "spotlight": SPOTLIGHT_SCHEMA,
    "spotlight_ranges": RANGES_SCHEMA,
    "spotlight_harm": HARM_SCHEMA,
})


def engine_of(ruleset) -> str:
    """Which engine a ruleset runs: ``ruleset.engine`` in its YAML (inherited), d10 if unset."""
    meta = ruleset.section("ruleset") or {}
    return meta.get("engine") or "d10"


def problems(spot, rng, harm) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if rng:
        bands = [b.lower() for b in rng.get("bands") or ()]
        if len(set(bands)) != len(bands):
            out.append(("spotlight_ranges.bands", "a band is named twice"))
        if rng.get("default") and rng["default"].lower() not in bands:
            out.append(("spotlight_ranges.default", f"'{rng['default']}' is not in bands"))
        for name, t in (rng.get("tags") or {}).items():
            ends = []
            for end in ("min", "max"):
                if t.get(end) is None:
                    continue
                if t[end].lower() not in bands:
                    out.append(
                        (f"spotlight_ranges.tags.{name}.{end}", f"'{t[end]}' is not in bands")
                    )
                else:
                    ends.append(bands.index(t[end].lower()))
            if len(ends) == 2 and ends[0] > ends[1]:
                out.append((f"spotlight_ranges.tags.{name}", "min is farther than max"))
    if harm:
        for bp, row in (harm.get("blood_potency") or {}).items():
            if row.get("final_death") and row.get("hp") and row["final_death"] > row["hp"]:
                out.append(
                    (f"spotlight_harm.blood_potency.{bp}.final_death", "is above the row's hp")
                )
    return out


def check(ruleset) -> list[tuple[str, str]]:
    """Cross-section problems for ``sections.cross_check``: band names the tags use, and the
    initiative traits, which must be traits or pools of the ruleset."""
    spot = ruleset.section("spotlight")
    out = problems(spot, ruleset.section("spotlight_ranges"), ruleset.section("spotlight_harm"))
    if spot:
        cat = ruleset.traits
        for i, name in enumerate(spot["initiative"]["traits"]):
            if name not in cat.traits and name not in cat.pools:
                out.append(
                    (f"spotlight.initiative.traits[{i}]", f"'{name}' is not a trait or pool")
                )
    if engine_of(ruleset) == ENGINE:
        for sec in SECTIONS:
            if not ruleset.section(sec):
                out.append((sec, "missing: the spotlight engine needs this section"))
    return out
