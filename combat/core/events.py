"""What happened in a fight, as data: the log stores these, the renderer turns them into text.

An event is a kind (``roll``, ``damage``, ``join`` ...) and its fields, all JSON-safe. The
same value is logged, replayed and rendered, so rendering a logged fight reproduces the text
players saw (issue 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def to_dict(self) -> dict:
        return {"event": self.kind, **self.fields}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Event":
        return cls(str(d.get("event", "note")), {k: v for k, v in d.items() if k != "event"})


def events_of(dicts) -> tuple[Event, ...]:
    """The engines' internal steps speak plain dicts; the interface speaks ``Event``."""
    return tuple(d if isinstance(d, Event) else Event.from_dict(d) for d in dicts)
