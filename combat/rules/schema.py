"""A small schema language for the rules YAML: every problem is collected with its key path.

Why not a JSON-schema library: the rules tables need a handful of shapes, the messages must
be written for a MUSH admin ("expected a whole number from 2 to 10, got 'six'"), and the
engine must stay free of heavy dependencies. Each spec's ``check`` returns the cleaned value
and appends ``(path, message)`` pairs to ``problems``; it never raises on bad data.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

Problems = list[tuple[str, str]]


def _join(path: str, key: object) -> str:
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_default(value: Any, default: Any) -> bool:
    """A scalar default ("" or None a spec would refuse) given back as it is."""
    return not isinstance(default, (dict, list, tuple)) and type(value) is type(default) \
        and value == default


class Spec:
    doc = "a value"

    def check(self, value: Any, path: str, problems: Problems) -> Any:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    lo: int | None = None
    hi: int | None = None

    @property
    def doc(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"a whole number from {self.lo} to {self.hi}"
        if self.lo is not None:
            return f"a whole number of at least {self.lo}"
        return "a whole number"

    def check(self, value, path, problems):
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append((path, f"expected {self.doc}, got {_show(value)}"))
            return None
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            problems.append((path, f"expected {self.doc}, got {value}"))
            return None
        return value


@dataclass(frozen=True)
class Bool(Spec):
    doc = "true or false"

    def check(self, value, path, problems):
        if not isinstance(value, bool):
            problems.append((path, f"expected true or false, got {_show(value)}"))
            return None
        return value


@dataclass(frozen=True)
class Str(Spec):
    choices: tuple[str, ...] = ()

    @property
    def doc(self) -> str:
        return "one of " + ", ".join(self.choices) if self.choices else "text"

    def check(self, value, path, problems):
        if not isinstance(value, str) or not value.strip():
            hint = " (YAML reads yes/no/on/off as true/false: put it in quotes)"
            hint = hint if isinstance(value, bool) else ""
            problems.append((path, f"expected {self.doc}, got {_show(value)}{hint}"))
            return None
        if self.choices and value not in self.choices:
            problems.append((path, f"expected {self.doc}, got {_show(value)}"))
            return None
        return value


@dataclass(frozen=True)
class Optional(Spec):
    """``null`` allowed (a seed's "?" kept as an explicit, documented default)."""

    inner: Spec

    @property
    def doc(self) -> str:
        return f"{self.inner.doc} or null"

    def check(self, value, path, problems):
        return None if value is None else self.inner.check(value, path, problems)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    min_len: int = 0
    max_len: int | None = None

    @property
    def doc(self) -> str:
        return f"a list of {self.item.doc}"

    def check(self, value, path, problems):
        if not isinstance(value, list):
            problems.append((path, f"expected {self.doc}, got {_show(value)}"))
            return None
        if len(value) < self.min_len or (self.max_len is not None and len(value) > self.max_len):
            size = f"{self.min_len}" if self.max_len == self.min_len else f"at least {self.min_len}"
            problems.append((path, f"expected {size} items, got {len(value)}"))
            return None
        return tuple(self.item.check(v, _join(path, i), problems) for i, v in enumerate(value))


@dataclass(frozen=True)
class MapOf(Spec):
    """A mapping whose keys are names (text or numbers) and whose values share one shape."""

    value: Spec
    key: Spec = field(default_factory=Str)

    @property
    def doc(self) -> str:
        return f"a mapping of names to {self.value.doc}"

    def check(self, value, path, problems):
        if not isinstance(value, dict):
            problems.append((path, f"expected {self.doc}, got {_show(value)}"))
            return None
        out = {}
        for k, v in value.items():
            k2 = self.key.check(k, _join(path, k), problems)
            out[k2 if k2 is not None else k] = self.value.check(v, _join(path, k), problems)
        return out


@dataclass(frozen=True)
class Struct(Spec):
    """A mapping with known keys; an unknown key is an error (it is usually a typo).

    ``defaults``: optional keys a table may leave out, and the value the checked table then
    holds. The one place such a number lives (design: never a ``.get(key, 3)`` in Python):
    the engine reads ``table[key]``. Only for keys the engine reads this way."""

    required: dict[str, Spec] = field(default_factory=dict)
    optional: dict[str, Spec] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    doc = "a mapping"

    def check(self, value, path, problems):
        if not isinstance(value, dict):
            problems.append((path, f"expected a mapping, got {_show(value)}"))
            return None
        out = {}
        for key in self.required:
            if key not in value:
                problems.append((_join(path, key), "missing (required)"))
        known = {**self.required, **self.optional}
        for key, v in value.items():
            spec = known.get(key)
            if spec is None:
                hint = ", ".join(sorted(known)) or "none"
                problems.append((_join(path, key), f"unknown key (allowed: {hint})"))
                continue
            if key in self.defaults and _is_default(v, self.defaults[key]):
                # the schema's own value ("" or null where the YAML must write text): what a
                # table leaving the key out holds, so a checked table reads back as it was
                # (a combat's snapshot of its rules, wodcombat/world/rulebook.py)
                out[key] = copy.deepcopy(self.defaults[key])
                continue
            out[key] = spec.check(v, _join(path, key), problems)
        for key, default in self.defaults.items():
            if key not in value:
                out[key] = self._default(key, default, path, problems)
        return out

    def _default(self, key: str, default: Any, path: str, problems: Problems) -> Any:
        """The value a table that leaves ``key`` out holds. A sub-table's default goes through
        its own ``Struct``, so its keys take that Struct's defaults (one place per number)."""
        spec = {**self.required, **self.optional}.get(key)
        if isinstance(spec, Struct) and isinstance(default, dict):
            return spec.complete(default)
        return copy.deepcopy(default)  # each table its own (read-only all the same)

    def complete(self, default: dict) -> dict:
        """A default sub-table with the keys it leaves out taken from this Struct's defaults
        (not checked again: a default is the schema's own value, tuples and all)."""
        out = copy.deepcopy(default)
        for key, value in self.defaults.items():
            if key not in out:
                out[key] = self._default(key, value, "", [])
        return out

    def fill(self, value: dict) -> dict:
        """``value`` with this Struct's defaults: what a ruleset without the table plays by
        (a section a ruleset switches off or a root ruleset never states)."""
        problems: Problems = []
        out = self.check(value, "", problems)
        if problems:  # the schema's own defaults are wrong: a bug, not a ruleset's error
            raise ValueError(f"schema defaults do not check: {problems}")
        return out


@dataclass(frozen=True)
class Any_(Spec):
    """Free text tables such as notes; kept as they are."""

    doc = "anything"

    def check(self, value, path, problems):
        return value
