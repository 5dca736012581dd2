"""The result of one ``apply``: the new state, the sheets it changed, and the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .events import Event


@dataclass(frozen=True, slots=True)
class Outcome:
    state: Any
    sheet_changes: Mapping[str, Any] = field(default_factory=dict)  # key -> new Sheet
    events: tuple[Event, ...] = ()
