"""Reading one rules file: safe YAML with the line of every key, and the limits on a file.

A rules file is refused, never half-read, when it is too big, nests too deep, repeats a list
or mapping through an alias ("billion laughs"), holds a control character, is not UTF-8, or
sets one key twice (PyYAML keeps the last one silently). The refusal names the line.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import RuleIssue

#: The biggest rules file is ~22 KB (core/maneuvers.yaml). The pure-Python YAML reader
#: holds the server's one thread several seconds per 256 KiB of dense YAML (measured 5-15 s),
#: so a file may be ten times the biggest one and no bigger: a reload must not stall play.
MAX_FILE_BYTES = 256 * 1024

#: Tables nest 7 deep at most (revised/soak.yaml). Thousands of "[" would exhaust the
#: reader's recursion and, before that, cost it time quadratic in the depth.
MAX_DEPTH = 32


class Doc:
    """A parsed YAML file: the plain value and the line of every key path in it."""

    def __init__(self, file: str, value: Any, lines: dict[tuple, int]):
        self.file, self.value, self.lines = file, value, lines


class _DuplicateKey(Exception):
    def __init__(self, path: tuple, line: int, first: int):
        self.path, self.line, self.first = path, line, first


class _Refused(Exception):
    """A file this loader will not read, and the line to fix."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line, self.message = line, message


def _plain(node, loader, path: tuple, lines: dict[tuple, int]) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for knode, vnode in node.value:
            key = _scalar(knode, loader)
            sub = path + (key,)
            if key in out:
                # PyYAML keeps the last value silently; a rules file must not mean one thing
                # on line 10 and another on line 90.
                raise _DuplicateKey(sub, knode.start_mark.line + 1, lines[sub])
            lines[sub] = knode.start_mark.line + 1
            out[key] = _plain(vnode, loader, sub, lines)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(n, loader, path + (i,), lines) for i, n in enumerate(node.value)]
    return _scalar(node, loader)


def _scalar(node, loader) -> Any:
    if not isinstance(node, yaml.ScalarNode):  # "? [a, b]: 1": a key must be one value
        raise _Refused(node.start_mark.line + 1, "a key must be a single word or number, "
                       "not a list or mapping")
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, OverflowError) as err:  # a date like 2024-13-45, a 5000-digit number
        reason = str(err).split(";")[0]
        raise _Refused(node.start_mark.line + 1, f"cannot read the value {node.value[:20]!r}: "
                       f"{reason}; write it in quotes or fix it") from None


def _too_deep(line: int) -> _Refused:
    return _Refused(line, f"lists and mappings nest over {MAX_DEPTH} deep here; close the "
                    f"brackets or indent less")


class _Loader(yaml.SafeLoader):
    """SafeLoader that lets an alias repeat one value only, and only so much text in all.

    Anchors are used (the health tracks repeat long care texts), so they are capped, not
    refused: an alias of a list or mapping is what makes a "billion laughs" file, whose
    nested repeats are tiny on disk and exponential once walked.
    """

    def __init__(self, text: str):
        super().__init__(text)
        self.repeated = 0  # characters the aliases add, as if written out
        self.depth = 0

    def compose_node(self, parent, index):
        if self.depth >= MAX_DEPTH:
            raise _too_deep(self.peek_event().start_mark.line + 1)
        self._check_alias()
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def fetch_flow_collection_start(self, TokenClass):
        # The scanner looks ahead over every "[" of a line before composing any of them.
        if self.flow_level >= MAX_DEPTH:
            raise _too_deep(self.line + 1)
        super().fetch_flow_collection_start(TokenClass)

    def _check_alias(self) -> None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            line = event.start_mark.line + 1
            if node is not None and not isinstance(node, yaml.ScalarNode):
                # Refused here, at the first such alias: nothing has been expanded yet.
                raise _Refused(line, f"*{event.anchor} repeats a list or mapping; an alias "
                               f"may repeat a single value only: write the entries out")
            self.repeated += len(node.value) if node is not None else 0
            if self.repeated > MAX_FILE_BYTES:
                raise _Refused(line, f"the aliases repeat over {MAX_FILE_BYTES} characters "
                               f"of text in all; write fewer *aliases")


def _control_char(err: yaml.reader.ReaderError, text: str) -> _Refused:
    pos = err.position
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    offset = len(text[:pos].encode("utf-8"))
    what = "a NUL byte" if err.character == 0 else f"the character U+{err.character:04X}"
    return _Refused(line, f"{what} at line {line}, column {column} (byte offset {offset}): "
                    f"YAML allows no control characters; delete it")


def _text(path: Path) -> str:
    """The file as text, refused before reading when too big, and refused if not UTF-8."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise _Refused(None, "not a regular file; rules files must be plain .yaml files")
    if info.st_size > MAX_FILE_BYTES:
        raise _Refused(None, f"the file is {info.st_size} bytes, over the limit of "
                       f"{MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES // 1024} KiB) for a rules "
                       f"file; split it or remove what is not rules")
    with path.open("rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)  # it may have grown since the stat
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(None, f"the file is over the limit of {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise _Refused(line, f"not UTF-8 text: byte {data[err.start]:#04x} at byte offset "
                       f"{err.start} (line {line}, column {column}); save the file as "
                       f"UTF-8") from None


def _parse(text: str) -> tuple[Any, dict[tuple, int]]:
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as err:  # the reader checks every character up front
        raise _control_char(err, text) from None
    try:
        node = loader.get_single_node()
        lines: dict[tuple, int] = {}
        return ({} if node is None else _plain(node, loader, (), lines)), lines
    finally:
        loader.dispose()


def read(path: Path, label: str) -> tuple[Doc | None, list[RuleIssue]]:
    try:
        value, lines = _parse(_text(path))
    except OSError as err:
        return None, [RuleIssue(label, "", f"cannot read the file: {err}")]
    except _Refused as err:
        return None, [RuleIssue(label, "", err.message, err.line)]
    except _DuplicateKey as dup:
        key = ".".join(str(k) for k in dup.path)
        return None, [
            RuleIssue(
                label, key, f"duplicate key: '{dup.path[-1]}' is already set on line "
                f"{dup.first}; keep one of them", dup.line,
            )
        ]
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(err, "problem", None) or str(err)
        return None, [RuleIssue(label, "", f"YAML syntax error: {problem}", line)]
    if not isinstance(value, dict):
        return None, [RuleIssue(label, "", "the file must be a mapping of sections (key: value)")]
    return Doc(label, value, lines), []
