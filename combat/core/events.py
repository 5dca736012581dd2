"""What happened in a fight, as data: the log stores these, the renderer turns them into text.

An event is a kind (``roll``, ``damage``, ``join`` ...) and its fields, all JSON-safe. The
same value is logged, replayed and rendered, so rendering a logged fight reproduces the text
players saw (issue 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .values import fast_init


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
        return self.fields.get(key, default)

    def __getitem__(self, key: str) -> Any:
        if key == "event":
            return self.kind
        return self.fields[key]

    def to_dict(self) -> dict:
        return {"event": self.kind, **self.fields}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Event":
        fields = dict(d)  # a copy in C, then the kind taken out: ~12 events per command
        return cls(str(fields.pop("event", "note")), fields)


def events_of(dicts) -> tuple[Event, ...]:
    """The engines' internal steps speak plain dicts; the interface speaks ``Event``."""
    return tuple([d if type(d) is Event else Event.from_dict(d) for d in dicts])
