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
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from .errors import RuleIssue, RulesError
from .schema import Str, Struct, Optional

META = Struct(
    optional={
        "extends": Optional(Str()),
        "description": Str(),
        "source": Str(),
        "engine": Str(choices=("d10", "spotlight")),
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

    def section(self, name: str) -> Any:
        return self.data.get(name)

    def derived(self, build):
        """``build(self)``, computed once: a ruleset never changes after loading, so every
        table an engine module derives from it (turn rules, maneuver tables, ...) is cached
        here rather than in a cache of each module's own."""
        memo = self.__dict__.setdefault("_derived", {})
        if build not in memo:
            memo[build] = build(self)
        return memo[build]

    @cached_property
    def dice(self):
        from .dice import DiceRules

        return DiceRules.from_section(self.data.get("dice") or {})

    @cached_property
    def traits(self):
        from .traits import TraitCatalog

        return TraitCatalog.from_ruleset(self)


@dataclass(frozen=True)
class Library:
    """Every ruleset that loaded, and the problems of every one that did not."""

    root: str
    rulesets: dict[str, Ruleset]
    refused: dict[str, tuple[RuleIssue, ...]]

    @property
    def issues(self) -> tuple[RuleIssue, ...]:
        # Once each: a broken parent's errors come back in every ruleset extending it.
        return tuple(dict.fromkeys(i for issues in self.refused.values() for i in issues))

    def get(self, name: str) -> Ruleset:
        from .errors import InputError

        key = name.strip().lower()
        if key in self.rulesets:
            return self.rulesets[key]
        if key in self.refused:
            raise InputError(
                f"Ruleset '{key}' is installed but has errors; an admin can see them "
                f"with +rules/check."
            )
        names = ", ".join(sorted(self.rulesets)) or "none"
        raise InputError(f"There is no ruleset '{name}'. Known rulesets: {names}.")


# ---------------------------------------------------------------- reading YAML with lines


class _Doc:
    """A parsed YAML file: the plain value and the line of every key path in it."""

    def __init__(self, file: str, value: Any, lines: dict[tuple, int]):
        self.file, self.value, self.lines = file, value, lines


def _plain(node, loader, path: tuple, lines: dict[tuple, int]) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for knode, vnode in node.value:
            key = loader.construct_object(knode, deep=True)
            sub = path + (key,)
            lines[sub] = knode.start_mark.line + 1
            out[key] = _plain(vnode, loader, sub, lines)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(n, loader, path + (i,), lines) for i, n in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def _read(path: Path, label: str) -> tuple[_Doc | None, list[RuleIssue]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return None, [RuleIssue(label, "", f"cannot read the file: {err}")]
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        lines: dict[tuple, int] = {}
        value = {} if node is None else _plain(node, loader, (), lines)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(err, "problem", None) or str(err)
        return None, [RuleIssue(label, "", f"YAML syntax error: {problem}", line)]
    finally:
        loader.dispose()
    if not isinstance(value, dict):
        return None, [RuleIssue(label, "", "the file must be a mapping of sections (key: value)")]
    return _Doc(label, value, lines), []


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


def _read_folder(folder: Path, root: Path) -> _Folder:
    name = folder.name.lower()
    data: dict = {}
    origin: dict = {}
    files: list[str] = []
    issues: list[RuleIssue] = []
    owner: dict[str, str] = {}
    for path in sorted(folder.glob("*.y*ml")):
        label = str(path.relative_to(root.parent)) if root.parent in path.parents else str(path)
        doc, problems = _read(path, label)
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


def load_library(root: str | Path) -> Library:
    """Read every ruleset folder under ``root``; never raises for bad data."""
    root = Path(root)
    folders = {}
    if root.is_dir():
        for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if any(sub.glob("*.y*ml")):
                folders[sub.name.lower()] = _read_folder(sub, root)
    rulesets: dict[str, Ruleset] = {}
    refused: dict[str, tuple[RuleIssue, ...]] = {}
    merged: dict[str, tuple[dict, dict]] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> tuple[dict, dict] | None:
        if name in merged:
            return merged[name]
        folder = folders[name]
        meta = folder.data.get("ruleset") or {}
        parent = meta.get("extends") if isinstance(meta, dict) else None
        main = folder.files[0] if folder.files else name
        if folder.issues:
            refused[name] = tuple(folder.issues)
            return None
        if parent is None:
            result = (copy.deepcopy(folder.data), dict(folder.origin))
        else:
            parent = str(parent).lower()
            where = folder.origin.get(("ruleset", "extends"), (main, None))
            if parent in chain + (name,):
                cycle = " -> ".join(chain + (name, parent))
                refused[name] = (
                    RuleIssue(
                        where[0], "ruleset.extends", f"extends forms a cycle: {cycle}", where[1]
                    ),
                )
                return None
            if parent not in folders:
                known = ", ".join(sorted(folders)) or "none"
                refused[name] = (
                    RuleIssue(
                        where[0],
                        "ruleset.extends",
                        f"unknown parent ruleset '{parent}' (known: {known})",
                        where[1],
                    ),
                )
                return None
            base = resolve(parent, chain + (name,))
            if base is None:
                if name not in refused:
                    refused[name] = (
                        RuleIssue(
                            where[0],
                            "ruleset.extends",
                            f"parent ruleset '{parent}' has errors",
                            where[1],
                        ),
                    )
                return None
            origin = dict(base[1])
            data = _merge(base[0], folder.data, origin, folder.origin, ())
            result = (data, origin)
        merged[name] = result
        return result

    for name, folder in folders.items():
        result = resolve(name, ())
        if result is None:
            continue
        data, origin = result
        problems: list[tuple[str, str]] = []
        sections = _sections()
        schema = Struct(optional={"ruleset": META, **sections})
        clean = schema.check(data, "", problems)
        main = folder.files[0] if folder.files else name
        found = [_issue(origin, p, m, main) for p, m in problems]
        # A missing table would otherwise surface as a confusing cross-table error (or a
        # crash at first use); name it, and where it should go.
        where = str(Path(main).parent) + "/" if folder.files else name
        found += [
            RuleIssue(
                where,
                sec,
                f"the '{sec}:' table is missing; add it in a file here "
                f"(e.g. {sec}.yaml) or extend a ruleset that has it",
            )
            for sec in REQUIRED_SECTIONS
            if sec not in data
        ]
        if found:
            refused[name] = tuple(found)
            continue
        meta = clean.get("ruleset") or {}
        ruleset = Ruleset(
            name=name,
            parent=(meta.get("extends") or None) and str(meta["extends"]).lower(),
            description=meta.get("description", ""),
            files=tuple(folder.files),
            data=clean,
        )
        try:
            from .sections import cross_check

            extra = cross_check(ruleset)
        except RulesError as err:
            extra = list(err.issues)
        if extra:
            refused[name] = tuple(
                _issue(origin, i.path, i.message, main) if not i.file else i for i in extra
            )
            continue
        rulesets[name] = ruleset
    return Library(str(root), rulesets, refused)


def load_ruleset(root: str | Path, name: str) -> Ruleset:
    """The named ruleset, or ``RulesError`` listing every problem that refused it."""
    library = load_library(root)
    if name in library.rulesets:
        return library.rulesets[name]
    if name in library.refused:
        raise RulesError(library.refused[name])
    raise RulesError([RuleIssue(str(root), "", f"no ruleset folder named '{name}'")])
