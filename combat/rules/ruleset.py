"""Load rulesets from ``rules/``: YAML files, ``extends:`` inheritance, full validation.

Layout: one folder per ruleset under the rules root. Every ``*.yaml`` file in the folder is
a mapping of top-level sections (``dice:``, ``traits:``, ...); a folder's files are merged,
and a section may stand in only one file of a folder. ``ruleset:`` holds the metadata::

    ruleset:
      extends: numetal          # or null for a root ruleset
      description: "..."
      source: "seed 001_64ad5dbf331f4a42.txt"

A child is its parent deep-merged with its own files (mappings merge key by key, anything
else is replaced), so a ruleset file states only how it differs.

Loading never half-loads: each ruleset is either fully valid or refused with every problem
named by file, key path and line. One broken ruleset does not take the others down.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..core.errors import RuleIssue, RulesError
from .schema import Bool, ListOf, Optional, Str, Struct
from .yaml_file import read

META = Struct(
    optional={
        "extends": Optional(Str()),
        "description": Str(),
        "source": Str(),
        "engine": Str(choices=("d10", "spotlight")),
        # A base holds tables for others to extend; no fight or sheet uses it directly.
        "base": Bool(),
        # Inherited tables, table entries ("time_powers.powers.Quicksilver") or catalog rules
        # ("INIT-05") this ruleset does not have: removed after the merge, before validation.
        "switch_off": ListOf(Str()),
    }
)


#: Tables every ruleset must have, its own or inherited through ``extends:``: the sheet, the
#: dice and the health track are read by +sheet and +roll whatever the combat engine.
REQUIRED_SECTIONS = ("dice", "traits", "pools", "splats", "health")

def _sections():
    # Imported late: section modules import this one's helpers indirectly.
    from .sections import SECTIONS

    return SECTIONS


@dataclass(frozen=True, eq=False)
class Ruleset:
    """One validated ruleset. ``data`` is the merged, checked tables; treat it as read-only."""

    name: str
    parent: str | None
    description: str
    files: tuple[str, ...]
    data: dict[str, Any] = field(repr=False)
    #: key path tuple -> (file, line) of the value in force: where each rule comes from.
    origin: dict = field(default_factory=dict, repr=False)
    #: what ``derived`` built, by builder: a cache (a ruleset never changes after loading)
    _derived: dict = field(default_factory=dict, init=False, repr=False)

    @property
    def is_base(self) -> bool:
        """A base only holds tables for others to extend (``rules/core``)."""
        return bool((self.data.get("ruleset") or {}).get("base"))

    def section(self, name: str) -> Any:
        return self.data.get(name)

    def derived(self, build):
        """``build(self)``, computed once: a ruleset never changes after loading, so every
        table an engine module derives from it (turn rules, maneuver tables, ...) is cached
        here rather than in a cache of each module's own."""
        try:
            return self._derived[build]  # one lookup: asked a hundred times a fight
        except KeyError:
            value = self._derived[build] = build(self)
            return value

    @cached_property
    def dice(self):
        from ..core.dice import DiceRules

        return DiceRules.from_section(self.data.get("dice") or {})

    @cached_property
    def traits(self):
        from ..core.traits import TraitCatalog

        return TraitCatalog.from_ruleset(self)


@dataclass(frozen=True)
class Library:
    """Every ruleset that loaded, and the problems of every one that did not."""

    root: str
    rulesets: dict[str, Ruleset]
    refused: dict[str, tuple[RuleIssue, ...]]
    #: a refused ruleset -> the parent whose errors refused it
    broken_parent: dict[str, str] = field(default_factory=dict)

    def causes(self, name: str) -> tuple[RuleIssue, ...]:
        """The errors to fix for ``name``: its own, or those of the broken ancestor."""
        seen = set()
        while name in self.broken_parent and name not in seen:
            seen.add(name)
            name = self.broken_parent[name]
        return self.refused.get(name, ())

    @property
    def issues(self) -> tuple[RuleIssue, ...]:
        # The errors to fix, once each: a ruleset refused only because its parent is broken
        # adds none of its own (``broken_parent`` names those).
        return tuple(dict.fromkeys(
            i for name, issues in self.refused.items() if name not in self.broken_parent
            for i in issues))

    @property
    def playable(self) -> list[str]:
        """The rulesets a fight or a sheet may use: every valid one but the bases."""
        return sorted(n for n, r in self.rulesets.items() if not r.is_base)

    def get(self, name: str, bases: bool = False) -> Ruleset:
        """The named ruleset; a base (rules/core) only when ``bases`` (to read its tables)."""
        from ..core.errors import InputError

        key = name.strip().lower()
        if key in self.rulesets and (bases or not self.rulesets[key].is_base):
            return self.rulesets[key]
        if key in self.rulesets:
            raise InputError(
                f"'{key}' is the shared base the rulesets extend, not played on its own. "
                f"Pick one of: {', '.join(self.playable)}."
            )
        if key in self.refused:
            raise InputError(
                f"Ruleset '{key}' is installed but has errors; an admin can see them "
                f"with +rules/check."
            )
        names = ", ".join(self.playable) or "none"
        raise InputError(f"There is no ruleset '{name}'. Known rulesets: {names}.")


# ---------------------------------------------------------------- merging and validating


def _merge(base: Any, over: Any, origin: dict, over_origin: dict, path: tuple) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merge(base.get(k), v, origin, over_origin, path + (k,))
        return out
    # Replaced wholesale: every key path under it now comes from the overriding file.
    for p in [p for p in origin if p[: len(path)] == path]:
        del origin[p]
    origin.update({p: o for p, o in over_origin.items() if p[: len(path)] == path})
    return copy.deepcopy(over)


@dataclass
class _Folder:
    name: str
    data: dict
    origin: dict  # key path tuple -> (file label, line)
    files: list[str]
    issues: list[RuleIssue]


def _read_folder(folder: Path, root: Path, on_bug=None) -> _Folder:
    name = folder.name.lower()
    data: dict = {}
    origin: dict = {}
    files: list[str] = []
    issues: list[RuleIssue] = []
    owner: dict[str, str] = {}
    for path in sorted(folder.glob("*.y*ml")):
        label = str(path.relative_to(root.parent)) if root.parent in path.parents else str(path)
        try:
            doc, problems = read(path, label)
        except Exception as err:  # a bug in reading: one issue, the rules in force stay
            if on_bug is not None:
                on_bug(f"rules: reading {label} failed")
            doc, problems = None, [RuleIssue(label, "", f"could not read {path.name}: "
                                             f"{type(err).__name__}: {err}")]
        issues += problems
        files.append(label)
        if doc is None:
            continue
        for key, value in doc.value.items():
            if key in owner:
                issues.append(
                    RuleIssue(
                        label,
                        str(key),
                        f"section already defined in {owner[key]}",
                        doc.lines.get((key,)),
                    )
                )
                continue
            owner[key] = label
            data[key] = value
        origin.update({p: (label, line) for p, line in doc.lines.items() if p})
    return _Folder(name, data, origin, files, issues)


def _issue(origin: dict, path: str, message: str, default_file: str) -> RuleIssue:
    # Find the deepest key path the YAML can place; "a.b[2].c" -> ("a", "b", 2, "c").
    parts: list = []
    for chunk in path.replace("[", ".[").split("."):
        if not chunk:
            continue
        index = chunk[1:-1]
        parts.append(int(index) if chunk.startswith("[") and index.isdigit() else chunk)
    for n in range(len(parts), 0, -1):
        hit = origin.get(tuple(parts[:n]))
        if hit:
            return RuleIssue(hit[0], path, message, hit[1])
    return RuleIssue(default_file, path, message)


_RULE_ID = re.compile(r"[A-Z]{3,5}-\d{2}")


def _switch_off(data: dict, origin: dict, entries: list, where: tuple) -> list[RuleIssue]:
    """Remove what ``ruleset.switch_off`` names from the tables a ruleset inherits.

    A rule ID drops that rule from the ``catalog:`` statement together with the table keys
    its ``off:`` list names; anything else is a dotted key path into the tables.
    """
    issues = []
    paths: list[str] = []
    catalog = data.get("catalog") if isinstance(data.get("catalog"), dict) else {}
    for entry in entries if isinstance(entries, list) else []:
        entry = str(entry)
        if _RULE_ID.fullmatch(entry):
            rule = catalog.pop(entry, None)
            if rule is None:
                issues.append(RuleIssue(where[0], "ruleset.switch_off",
                                        f"no rule {entry} to switch off: the catalog this "
                                        f"ruleset inherits does not have it", where[1]))
                continue
            paths += [str(p) for p in (rule.get("off") or [])] if isinstance(rule, dict) else []
        else:
            paths.append(entry)
    for dotted in paths:
        keys = tuple(dotted.split("."))
        node = data
        for key in keys[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, dict) or keys[-1] not in node:
            issues.append(RuleIssue(where[0], "ruleset.switch_off",
                                    f"nothing named '{dotted}' to switch off", where[1]))
            continue
        del node[keys[-1]]
        for p in [p for p in origin if p[: len(keys)] == keys]:
            del origin[p]
    return issues


def load_library(root: str | Path, on_bug=None) -> Library:
    """Read every ruleset folder under ``root``; never raises for bad data.

    A file that makes the reader itself fail becomes one issue; ``on_bug(message)`` is then
    called inside the ``except``, so the game side can log the traceback for staff.

    A parent is validated before its children, so a broken parent is reported once, in its
    own files, and each child only says that its parent has errors.
    """
    root = Path(root)
    folders = {}
    if root.is_dir():
        for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if any(sub.glob("*.y*ml")):
                folders[sub.name.lower()] = _read_folder(sub, root, on_bug)
    work = _Build(root, folders)
    for name in folders:
        work.build(name, ())
    return Library(str(root), dict(sorted(work.rulesets.items())), work.refused,
                   work.broken_parent)


class _Build:
    """One ``load_library`` call's work: each folder built into a ``Ruleset``, its parent
    first; what is refused is kept with its issues, and a child refused for its parent's
    errors names that parent (``broken_parent``)."""

    def __init__(self, root: Path, folders: dict[str, _Folder]):
        self.root = root
        self.folders = folders
        self.rulesets: dict[str, Ruleset] = {}
        self.refused: dict[str, tuple[RuleIssue, ...]] = {}
        self.broken_parent: dict[str, str] = {}
        self.built: dict[str, tuple[dict, dict]] = {}  # valid rulesets: merged data, key origins

    def build(self, name: str, chain: tuple[str, ...]) -> tuple[dict, dict] | None:
        """(merged data, key origins) of the valid ruleset ``name``, or None once refused;
        ``chain``: the children waiting on it (an ``extends`` loop is refused)."""
        if name in self.built or name in self.refused:
            return self.built.get(name)
        folder = self.folders[name]
        meta = folder.data.get("ruleset") or {}
        meta = meta if isinstance(meta, dict) else {}
        parent = meta.get("extends")
        parent = None if parent is None else str(parent).lower()
        main = folder.files[0] if folder.files else name
        if folder.issues:
            self.refused[name] = tuple(folder.issues)
            return None
        off_where = folder.origin.get(("ruleset", "switch_off"), (main, None))
        found: list[RuleIssue] = []
        if parent is None:
            data, origin = copy.deepcopy(folder.data), dict(folder.origin)
            if meta.get("switch_off"):
                found.append(RuleIssue(off_where[0], "ruleset.switch_off",
                                       "a ruleset that extends nothing has nothing to switch "
                                       "off", off_where[1]))
        else:
            inherited = self._inherit(name, chain, parent, folder, meta, main, off_where)
            if inherited is None:
                return None
            data, origin, found = inherited
        return self._validated(name, folder, data, origin, found, parent, main)

    def _inherit(self, name: str, chain: tuple[str, ...], parent: str, folder: _Folder,
                 meta: dict, main: str, off_where: tuple):
        """(data, origins, issues) of ``name`` over its built ``parent``, or None when the
        parent makes it refused: a loop of ``extends``, a parent missing or with errors."""
        where = folder.origin.get(("ruleset", "extends"), (main, None))
        if parent in chain + (name,):
            self._refuse_loop((chain + (name,))[(chain + (name,)).index(parent):])
            return None
        if parent not in self.folders:
            known = ", ".join(sorted(self.folders)) or "none"
            self.refused[name] = (RuleIssue(
                where[0], "ruleset.extends",
                f"the parent ruleset '{parent}' is missing: no folder {self.root.name}/{parent}/ "
                f"with .yaml files (known: {known})", where[1]),)
            return None
        base = self.build(parent, chain + (name,))
        if base is None and name in self.refused:  # in a cycle: already told
            return None
        if base is None:
            self.broken_parent[name] = parent
            self.refused[name] = (RuleIssue(
                where[0], "ruleset.extends",
                f"the parent ruleset '{parent}' has errors (listed under {parent}); "
                f"fix them first", where[1]),)
            return None
        origin = dict(base[1])
        inherited = copy.deepcopy(base[0])
        # What the child switches off goes before its own files merge, so a child may
        # drop an inherited table and state its own in its place.
        found = _switch_off(inherited, origin, meta.get("switch_off") or [], off_where)
        data = _merge(inherited, folder.data, origin, folder.origin, ())
        # A parent's switch-offs are already applied; the child lists only its own.
        if isinstance(data.get("ruleset"), dict):
            data["ruleset"]["switch_off"] = meta.get("switch_off") or []
            data["ruleset"]["base"] = bool(meta.get("base"))  # a base's child is playable
        return data, origin, found

    def _refuse_loop(self, loop: tuple[str, ...]) -> None:
        for member in loop:  # every ruleset in the loop is told, in its own file
            f = self.folders[member]
            at = f.origin.get(("ruleset", "extends"), (f.files[0], None))
            turn = loop[loop.index(member):] + loop[: loop.index(member)] + (member,)
            self.refused[member] = (RuleIssue(at[0], "ruleset.extends",
                                              f"extends forms a cycle: {' -> '.join(turn)}",
                                              at[1]),)

    def _validated(self, name: str, folder: _Folder, data: dict, origin: dict,
                   found: list[RuleIssue], parent: str | None, main: str):
        """Check the merged ``data`` (the schema, the required tables, the cross-table
        checks) and keep the ruleset, or refuse it with every issue found."""
        problems: list[tuple[str, str]] = []
        schema = Struct(optional={"ruleset": META, **_sections()})
        clean = schema.check(data, "", problems)
        found = found + [_issue(origin, p, m, main) for p, m in problems]
        # A missing table would otherwise surface as a confusing cross-table error (or a
        # crash at first use); name it, and where it should go.
        here = str(Path(main).parent) + "/" if folder.files else name
        found += [
            RuleIssue(here, sec, f"the '{sec}:' table is missing: no file here defines it "
                      f"(e.g. {sec}.yaml)"
                      + (" and the ruleset it extends has none" if parent else ""))
            for sec in REQUIRED_SECTIONS
            if sec not in data
        ]
        if found:
            self.refused[name] = tuple(found)
            return None
        clean_meta = clean.get("ruleset") or {}
        ruleset = Ruleset(
            name=name,
            parent=(clean_meta.get("extends") or None) and str(clean_meta["extends"]).lower(),
            description=clean_meta.get("description", ""),
            files=tuple(folder.files),
            data=clean,
            origin=origin,
        )
        try:
            from .sections import cross_check

            extra = cross_check(ruleset)
        except RulesError as err:
            extra = list(err.issues)
        if extra:
            self.refused[name] = tuple(
                _issue(origin, i.path, i.message, main) if not i.file else i for i in extra
            )
            return None
        self.rulesets[name] = ruleset
        self.built[name] = (data, origin)
        return self.built[name]


def load_ruleset(root: str | Path, name: str) -> Ruleset:
    """The named ruleset, or ``RulesError`` listing every problem that refused it."""
    library = load_library(root)
    if name in library.rulesets:
        return library.rulesets[name]
    if name in library.refused:
        raise RulesError(library.refused[name])
    raise RulesError([RuleIssue(str(root), "", f"no ruleset folder named '{name}'")])
