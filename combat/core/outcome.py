"""The result of one ``apply``: the new state, the sheets it changed, and the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .values import fast_init
from .events import Event


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Outcome:
    state: Any
    sheet_changes: Mapping[str, Any] = field(default_factory=dict)  # key -> new Sheet
    events: tuple[Event, ...] = ()
