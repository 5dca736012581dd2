"""A condition on a combatant and its clock, shared by both engines (issue 31).

``+combat/mod Bob=blinded 3`` puts a condition on for three turns; without a number it lasts
until removed. The number is kept in the engine state as the last turn the condition is
active (``until_turn``), so it survives a reload and round-trips through ``to_dict`` /
``from_dict``; a stored condition without it loads as "until removed".

READING (no seed says how a condition's turns are counted; rules/README.md, +combat help):
the turn it is put on counts as the first, and it ends at the end of the last: "blinded 3"
set in turn 2 is active in turns 2, 3 and 4 and ends when turn 5 begins. PWR-05 ("one-turn
effects end at the end of that turn") counts the same way. A d10 fight counts its turns; a
spotlight fight its rounds (a character's own turn there is one of several in a round, and
an opponent may have more than one). Set before the first round, the count starts with it.

The YAML's ``condition_clock.max_turns`` bounds the number the organizer types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from .errors import InputError
from ..rules.schema import Int, Str, Struct

CLOCK_SCHEMA = Struct(required={"max_turns": Int(1, 1000)}, optional={"source": Str()})
SECTIONS = {"condition_clock": CLOCK_SCHEMA}


@dataclass(frozen=True, slots=True)
class Condition:
    """A named condition active from ``from_turn`` to ``until_turn`` inclusive (None: until
    removed). In a d10 fight its effects on the turn come from the ruleset's
    ``turns.conditions`` table, so changing the YAML changes running combats too.
    ``announce``: put on by the organizer with an end, so the room is told when it ends."""

    name: str
    from_turn: int
    until_turn: int | None = None
    announce: bool = False

    def active(self, turn: int) -> bool:
        return self.from_turn <= turn and (self.until_turn is None or turn <= self.until_turn)

    def expired(self, turn: int) -> bool:
        return self.until_turn is not None and self.until_turn < turn

    def left(self, turn: int) -> int | None:
        """Turns left counting ``turn`` itself (1: this is the last), None: until removed."""
        if self.until_turn is None:
            return None
        return self.until_turn - max(turn, self.from_turn) + 1

    def to_dict(self) -> dict:
        d = {"name": self.name, "from": self.from_turn, "until": self.until_turn}
        if self.announce:  # absent when unset: fights stored before issue 31 read the same
            d["announce"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping) -> "Condition":
        until = d.get("until")
        return cls(str(d["name"]), int(d.get("from", 0)), None if until is None else int(until),
                   bool(d.get("announce", False)))


def max_turns(ruleset) -> int:
    """The longest duration the organizer may type (``condition_clock.max_turns``)."""
    clock = ruleset.section("condition_clock")
    if not clock:
        raise InputError(f"Ruleset '{ruleset.name}' has no 'condition_clock:' section; "
                         f"conditions with a number of turns need it.")
    return clock["max_turns"]


def check_turns(turns: int | None, ruleset, unit: str = "turn") -> None:
    """Refuse a duration outside 1..max_turns, saying what to type instead."""
    if turns is None:
        return
    top = max_turns(ruleset)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= top:
        raise InputError(
            f"A condition lasts 1 to {top} {unit}s, not {turns!r}: e.g. +combat/mod "
            f"Bob=blinded 3 for three {unit}s, or leave the number off for a condition "
            f"that lasts until removed (+combat/mod Bob=!blinded).")


def known_name(name: str, known: Iterable[str]) -> str:
    """``name`` as the rules spell it (knocked down = knocked_down), or InputError listing
    the conditions there are; "blinded x" is told that x is no number of turns."""
    known = tuple(known)
    word = " ".join(name.strip().lower().split())
    for spelling in (word, word.replace(" ", "_"), word.replace("_", " ")):
        if spelling in known:
            return spelling
    head, _, tail = word.rpartition(" ")
    if head and any(s in known for s in (head, head.replace(" ", "_"))):
        raise InputError(f"'{tail}' is not a number of turns. Type +combat/mod <name>="
                         f"{head} 3 for three turns, or {head} alone until removed.")
    raise InputError(f"'{name.strip()}' is not a condition here. Conditions: "
                     f"{', '.join(known)}.")


def split_expired(conds: Iterable[Condition], turn: int
                  ) -> tuple[tuple[Condition, ...], tuple[Condition, ...]]:
    """(kept, ended) as ``turn`` begins."""
    kept, ended = [], []
    for k in conds:
        (ended if k.expired(turn) else kept).append(k)
    return tuple(kept), tuple(ended)


def ended_event(actor: str, cond: Condition) -> dict:
    """The event of a condition the clock ended that the room is told of."""
    return {"actor": actor, "condition": cond.name, "removed": [cond.name], "expired": True}
