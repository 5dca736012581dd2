"""The spotlight ruleset's second reading of an action: the seed's own moves (issue 31).

Seed 004 names no dice for an action; its words ("Roll +Wits or +Blood", "Any Basic Move or
Discipline Power ... narrate your character's actual actions to trigger your Moves!", HP,
Harm) read like a 2d6-plus-stat moves game. ``spotlight.resolution: moves`` plays that
reading (``v5``, the default, keeps the V5 contest of ``combat/spotlight/attack.py``):

* a move is a row of the admin's ``spotlight_moves.moves`` table: the stat it rolls and what
  10+ (``full``), 7-9 (``partial``) and 6- (``miss``) do;
* the roll is ``dice`` d``sides`` + the stat's rating (2d6 + stat), no defence roll;
* a move that ``harm``s a ``target`` marks the weapon's Harm value (``harm``, keyed by the
  weapon's range tag, as spotlight_ranges tags it) on 10+ and on 7-9; 6- marks nothing;
* 7-9 is a success at a cost the Storyteller names (READING: the success stands at once, the
  mover owes a cost the organizer names with ``+combat/cost``; the table's ``costs`` are
  the choices offered, the organizer may name another).

Pure: no Evennia import; the dice come from an injected ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MappingProxyType

from ..core.dice import roll_faces
from ..core.errors import InputError
from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct

RESULTS = ("full", "partial", "miss")  # 10+, 7-9, 6-
KIND = Str(choices=("superficial", "aggravated"))

MOVE = Struct(
    required={"stat": Str(), "full": Str(), "partial": Str(), "miss": Str()},
    optional={
        "target": Bool(),          # the move names someone (+combat/act <move> <target>)
        "harm": Bool(),            # on 10+ and 7-9 it marks the weapon's Harm on the target
        "tag": Str(),              # a fixed range tag (bite), else the weapon's
        "tags": ListOf(Str(), min_len=1),  # the weapons' range tags the move may use
        "costs": ListOf(Str(), min_len=1),  # 7-9: the choices the Storyteller is offered
        "source": Str(),
    },
    defaults={"target": False, "harm": False},
)

MOVES_SCHEMA = Struct(
    required={
        "moves": MapOf(MOVE),
        "harm": MapOf(Struct(required={"harm": Int(0, 20)}, optional={"kind": KIND},
                             defaults={"kind": "superficial"})),
    },
    optional={
        "example": Bool(),       # the shipped table, marked as an example (+rules says so)
        "dice": Int(1, 10),
        "sides": Int(2, 100),
        "full_at": Int(1, 200),
        "partial_at": Int(1, 200),
        "source": Str(),
    },
    defaults={"example": False, "dice": 2, "sides": 6, "full_at": 10, "partial_at": 7},
)

SECTIONS = MappingProxyType({"spotlight_moves": MOVES_SCHEMA})


def resolution(ruleset) -> str | None:
    """``v5`` or ``moves``: the reading of an action in force (spotlight.resolution, its
    default in the schema); None for a ruleset without the spotlight engine's tables."""
    return (ruleset.section("spotlight") or {}).get("resolution")


def in_force(ruleset) -> bool:
    return resolution(ruleset) == "moves"


def names(ruleset) -> tuple[str, ...]:
    """The moves a player may type under the moves reading (none under v5)."""
    if not in_force(ruleset):
        return ()
    return tuple((ruleset.section("spotlight_moves") or {}).get("moves") or ())


def check(ruleset) -> list[tuple[str, str]]:
    """``resolution: moves`` needs the table; a move's stat is a trait or pool, its tags are
    range tags, every weapon tag (and a move's own tag) has a Harm value, 10+ is above 7-9."""
    if not ruleset.section("spotlight"):
        return []
    sec = ruleset.section("spotlight_moves")
    if not sec:
        if in_force(ruleset):
            return [("spotlight.resolution", "moves needs a spotlight_moves: table (the "
                     "moves, their stats, 10+/7-9/6-; rules/spotlight-moves/moves.yaml is "
                     "an example)")]
        return []
    out: list[tuple[str, str]] = []
    if sec["partial_at"] >= sec["full_at"]:
        out.append(("spotlight_moves.partial_at", "must be below full_at"))
    cat = ruleset.traits
    ranges = (ruleset.section("spotlight_ranges") or {}).get("tags") or {}
    tags = {str(t).lower(): t for t in ranges}
    harm = {str(t).lower() for t in sec["harm"]}
    for name, m in sec["moves"].items():
        path = f"spotlight_moves.moves.{name}"
        if m["stat"] not in cat.traits and m["stat"] not in cat.pools:
            out.append((f"{path}.stat", f"'{m['stat']}' is not a trait or pool"))
        for t in ([m["tag"]] if m.get("tag") else []) + list(m.get("tags") or ()):
            if str(t).lower() not in tags:
                out.append((path, f"'{t}' is not a tag of spotlight_ranges"))
            elif m["harm"] and str(t).lower() not in harm:
                out.append((path, f"'{t}' has no Harm value in spotlight_moves.harm"))
        if m["harm"] and not m["target"]:
            out.append((f"{path}.harm", "a move that deals Harm needs target: true"))
    for t, row in ranges.items():
        if row["kind"] == "weapon" and str(t).lower() not in harm:
            out.append(("spotlight_moves.harm", f"weapon tag '{t}' has no Harm value"))
    return out


@dataclass(frozen=True, slots=True)
class Move:
    name: str
    stat: str
    target: bool
    harm: bool
    tag: str | None
    tags: tuple[str, ...] | None
    texts: dict
    costs: tuple[str, ...]


def move(ruleset, name: str) -> Move:
    sec = ruleset.section("spotlight_moves")
    m = sec["moves"].get(name)
    if m is None:
        raise InputError(f"There is no move '{name}' here. Moves: "
                         f"{', '.join(sec['moves'])}.")
    return Move(name, m["stat"], m["target"], m["harm"],
                str(m["tag"]).lower() if m.get("tag") else None,
                tuple(str(t).lower() for t in m["tags"]) if m.get("tags") else None,
                {r: m[r] for r in RESULTS}, tuple(m.get("costs") or ()))


def move_taking(ruleset, tag: str) -> str | None:
    """The first move that deals Harm with a weapon of this range tag (None: no move)."""
    for name in names(ruleset):
        m = move(ruleset, name)
        if m.harm and not m.tag and (m.tags is None or str(tag).lower() in m.tags):
            return name
    return None


def harm_of(ruleset, tag: str) -> tuple[int, str]:
    """(Harm value, kind) of a weapon by its range tag."""
    rows = {str(k).lower(): v for k, v in ruleset.section("spotlight_moves")["harm"].items()}
    row = rows.get(str(tag).lower())
    if row is None:
        raise InputError(f"'{tag}' has no Harm value here (spotlight_moves.harm).")
    return int(row["harm"]), str(row["kind"])


def band(ruleset, total: int) -> str:
    """10+ full, 7-9 partial, 6- miss (the YAML's ``full_at`` and ``partial_at``)."""
    sec = ruleset.section("spotlight_moves")
    if total >= sec["full_at"]:
        return "full"
    return "partial" if total >= sec["partial_at"] else "miss"


def roll(ruleset, m: Move, rating: int, rng: random.Random) -> dict:
    """One move: the dice + the stat, and what it came to (the log's ``roll`` fields)."""
    sec = ruleset.section("spotlight_moves")
    faces = roll_faces(sec["dice"], rng, sec["sides"])
    total = sum(faces) + int(rating)
    result = band(ruleset, total)
    out = {"dice": "moves", "move": m.name, "faces": list(faces), "sides": sec["sides"],
           "stat": [m.stat, int(rating)], "total": total, "result": result,
           "text": m.texts[result]}
    if result == "partial" and m.costs:
        out["costs"] = list(m.costs)
    return out
