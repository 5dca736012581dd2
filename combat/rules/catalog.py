"""The ``catalog:`` table: which rules of the rules catalog a ruleset has, and from where.

Each entry is keyed by a catalog rule ID (``DICE-01``) and says where the rule comes from:
``seed`` for a rule the ruleset's own source document states, ``book`` for a book rule the
shared core carries into a ruleset whose seed is silent (with its page), ``game`` for this
game's own rule that no seed or book states (the idle timeout). ``keys`` are the
table values that carry the rule (shown by ``+rules <ruleset>``); ``off`` are the keys
removed when a child switches the rule off by its ID (``ruleset.switch_off``).

Entries inherit like any table: a child's entry merges over its parent's, so a ruleset whose
seed restates a core rule adds ``seed:`` to it. The statement is checked against the
catalog's "where" column by ``tests/engine/test_catalog_statement.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .schema import ListOf, MapOf, Str, Struct

RULE_ID = re.compile(r"[A-Z]{3,5}-\d{2}")

SCHEMA = MapOf(
    Struct(
        optional={
            "seed": Str(),  # the ruleset's own source states it ("000", "002 #11")
            "book": Str(),  # a book rule carried by the core, with its citation
            "game": Str(),  # this game's own rule, in no seed or book: what it is
            "keys": ListOf(Str()),
            "off": ListOf(Str()),
            "note": Str(),
        }
    )
)


@dataclass(frozen=True)
class RuleLine:
    """One rule in force in a ruleset: its source and the values that carry it."""

    id: str
    seed: str | None
    book: str | None
    values: tuple[tuple[str, Any, str], ...]  # (key path, value, "file:line")
    note: str = ""
    game: str | None = None

    @property
    def carried(self) -> bool:
        """A book rule the core brings where this ruleset's own seed is silent."""
        return self.seed is None and self.game is None


def _lookup(data: dict, dotted: str) -> tuple[bool, Any]:
    node: Any = data
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = node[key]
    return True, node


def statement(ruleset) -> tuple[RuleLine, ...]:
    """Every catalog rule the ruleset has, in catalog-ID order."""
    lines = []
    for rid, entry in sorted((ruleset.section("catalog") or {}).items()):
        values = []
        for dotted in entry.get("keys") or ():
            found, value = _lookup(ruleset.data, dotted)
            if found:
                where = ruleset.origin.get(tuple(dotted.split(".")))
                values.append((dotted, value, f"{where[0]}:{where[1]}" if where else ""))
        lines.append(RuleLine(rid, entry.get("seed"), entry.get("book"), tuple(values),
                              entry.get("note", ""), entry.get("game")))
    return tuple(lines)


def check(ruleset) -> list[tuple[str, str]]:
    """Entries that name no source, a bad ID, or a key the tables do not have."""
    problems = []
    for rid, entry in (ruleset.section("catalog") or {}).items():
        path = f"catalog.{rid}"
        if not RULE_ID.fullmatch(str(rid)):
            problems.append((path, "is not a rule ID such as DICE-01"))
        if not entry.get("seed") and not entry.get("book") and not entry.get("game"):
            problems.append((path, "names no source: give seed: (the ruleset's own document), "
                                   "book: (the page the core carries it from) or game: "
                                   "(this game's own rule)"))
        for dotted in entry.get("keys") or ():
            if not _lookup(ruleset.data, dotted)[0]:
                problems.append((path + ".keys", f"no table value '{dotted}' in this ruleset"))
    return problems
