"""What happened in a fight, as data: the log stores these, the renderer turns them into text.

An event is a kind (``roll``, ``damage``, ``join`` ...) and its fields, all JSON-safe. The
same value is logged, replayed and rendered, so rendering a logged fight reproduces the text
players saw (issue 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .values import fast_init


class Later:
    """A field's value made only when it is read (``Event.get``, ``[]``, ``to_dict``) or
    logged (wodcombat/world/jsontext.py): ``make()``, called afresh each time, so every
    reader gets its own copy and the event stays a value. For a large field most callers
    never read: a damage event's ``detail`` (every input of the hit) costs a fifth of a hit
    to build, and the balance simulator reads none of it (issue 32)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        object.__setattr__(self, "make", make)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Later field is a value: it does not change")

    def __eq__(self, other: object) -> bool:
        return self.make() == (other.make() if type(other) is Later else other)

    __hash__ = None  # type: ignore[assignment]  # compares as its value, a dict

    def __repr__(self) -> str:
        return repr(self.make())


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    # An event reads like its logged dict (``to_dict``): ``e["event"]`` is its kind, so the
    # rules' steps can look through a mix of these and the scheduler's plain dicts.
    def get(self, key: str, default: Any = None) -> Any:
        if key == "event":
            return self.kind
        value = self.fields.get(key, default)
        return value.make() if type(value) is Later else value

    def __getitem__(self, key: str) -> Any:
        if key == "event":
            return self.kind
        value = self.fields[key]
        return value.make() if type(value) is Later else value

    def to_dict(self) -> dict:
        out = {"event": self.kind, **self.fields}
        for k, v in out.items():
            if type(v) is Later:
                out[k] = v.make()  # a value replaced, no key added: safe while iterating
        return out

    @classmethod
    def from_dict(cls, d: Mapping) -> "Event":
        fields = dict(d)  # a copy in C, then the kind taken out: ~12 events per command
        return cls(str(fields.pop("event", "note")), fields)


def events_of(dicts) -> tuple[Event, ...]:
    """The engines' internal steps speak plain dicts; the interface speaks ``Event``."""
    return tuple([d if type(d) is Event else Event.from_dict(d) for d in dicts])
