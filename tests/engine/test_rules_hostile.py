"""Hostile rules files (issue 30): each is refused by file and line, cheaply, never raised.

An alias bomb, a NUL byte, bad UTF-8, an oversize file, deep nesting, a FIFO: the loader
turns each into one RuleIssue without building what the file describes. Time is checked
only as a generous sanity bound; memory is the assertion (tracemalloc's peak).
No catalog rule ID: these are the loader's guarantees, not a game rule.
"""

import os
import pathlib
import shutil
import time
import tracemalloc

import pytest

from wodcombat.combat.rules import yaml_file as loader
from wodcombat.combat.rules.ruleset import load_library
from wodcombat.combat.rules.yaml_file import MAX_DEPTH, MAX_FILE_BYTES

from .conftest import RULES

PEAK_LIMIT = 4 * 1024 * 1024  # a few MB: the bomb written out would be gigabytes


def bomb(levels: int = 9) -> str:
    """The billion-laughs file: each level lists the one before nine times."""
    lines = ["lol0: &a0 [" + ", ".join(['"lol"'] * 9) + "]"]
    lines += [f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]"
              for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def house(tmp_path):
    """A rules root with one ruleset folder, ``house/``, for one hostile file."""
    (tmp_path / "rules" / "house").mkdir(parents=True)
    return tmp_path / "rules"


def load_one(root: pathlib.Path, data: bytes, name: str = "zz.yaml"):
    """(the one issue of house/, tracemalloc peak, seconds) after writing ``data``."""
    (root / "house" / name).write_bytes(data)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        lib = load_library(root)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    seconds = time.perf_counter() - start
    (issue,) = lib.refused["house"]
    assert issue.file == f"rules/house/{name}", issue
    return issue, peak, seconds


def test_alias_bomb_is_refused_at_the_first_alias_of_a_list(house):
    issue, peak, seconds = load_one(house, bomb(9).encode())
    assert issue.line == 2  # the first alias: nothing expanded before it
    assert "*a0 repeats a list or mapping" in issue.message
    assert "write the entries out" in issue.message
    assert peak < PEAK_LIMIT, peak
    assert seconds < 5, seconds  # sanity bound only; it took minutes and 14 GB before


def test_nul_byte_is_refused_by_line_and_offset(house):
    issue, peak, _ = load_one(house, b"dice:\n  sides: 10\x00\n")
    assert issue.line == 2
    assert "a NUL byte at line 2, column 12 (byte offset 17)" in issue.message
    assert issue.message.endswith("YAML allows no control characters; delete it")
    assert peak < PEAK_LIMIT, peak


def test_other_control_byte_is_refused_by_line(house):
    issue, _, _ = load_one(house, "dice:\n  name: é\x07\n".encode())
    assert issue.line == 2
    assert "the character U+0007 at line 2, column 10 (byte offset 16)" in issue.message


def test_invalid_utf8_is_refused_with_the_byte_offset(house):
    issue, _, _ = load_one(house, b"dice:\n  sides: \xff10\n")
    assert issue.line == 2
    assert "not UTF-8 text: byte 0xff at byte offset 15 (line 2, column 10)" in issue.message
    assert "save the file as UTF-8" in issue.message


def test_oversize_file_is_refused_from_its_size_without_reading_it(house, monkeypatch):
    (house / "house" / "zz.yaml").write_bytes(b"#" * (MAX_FILE_BYTES + 1))

    def no_open(*args, **kwargs):
        raise AssertionError("an oversize file must not be opened")

    monkeypatch.setattr(pathlib.Path, "open", no_open)
    (issue,) = load_library(house).refused["house"]
    assert issue.line is None
    assert f"the file is {MAX_FILE_BYTES + 1} bytes, over the limit of {MAX_FILE_BYTES} " \
           f"bytes (256 KiB)" in issue.message


def test_a_file_at_the_limit_is_read(house):
    data = b"dice:\n  sides: 10\n"
    (house / "house" / "zz.yaml").write_bytes(data + b"#" * (MAX_FILE_BYTES - len(data)))
    issues = load_library(house).refused["house"]
    assert issues and not any("limit" in i.message for i in issues)
    assert any("the 'health:' table is missing" in i.message for i in issues)  # it was read


def test_fifo_is_refused_not_waited_on(house):
    os.mkfifo(house / "house" / "zz.yaml")  # reading it would block the server for good
    (issue,) = load_library(house).refused["house"]
    assert "not a regular file" in issue.message


@pytest.mark.parametrize("text, line", [
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", 1),
    ("x: " + "{a: " * 5000 + "}" * 5000 + "\n", 1),
    ("".join(" " * i + "k:\n" for i in range(MAX_DEPTH + 10)), MAX_DEPTH),
])
def test_deep_nesting_is_refused_by_line(house, text, line):
    issue, peak, _ = load_one(house, text.encode())
    assert issue.line == line
    assert f"nest over {MAX_DEPTH} deep" in issue.message
    assert peak < PEAK_LIMIT, peak


def test_aliases_repeat_at_most_the_size_limit_of_text(house):
    text = "a: &a '" + "x" * 100_000 + "'\nb: [" + "*a, " * 10 + "]\n"
    issue, _, _ = load_one(house, text.encode())
    assert issue.line == 2
    assert f"the aliases repeat over {MAX_FILE_BYTES} characters" in issue.message


def test_value_python_cannot_build_names_its_line(house):
    issue, _, _ = load_one(house, b"dice:\n  since: 2024-13-45\n")
    assert issue.line == 2
    assert "cannot read the value '2024-13-45': month must be in 1..12" in issue.message


def test_list_as_key_names_its_line(house):
    issue, _, _ = load_one(house, b"dice:\n  ? [1, 2]\n  : 3\n")
    assert issue.line == 2
    assert "a key must be a single word or number" in issue.message


def test_shipped_aliases_of_one_value_still_load():
    health = load_library(RULES).rulesets["core"].section("health")
    levels = health["levels"]
    care = levels[2]["care_lethal"]  # &care in core/health.yaml, *care below it
    assert care.startswith("medical care")
    assert [lv["care_lethal"] for lv in levels[3:7]] == [care] * 4
    assert levels[3]["care_bashing"] == care


def test_a_bug_in_reading_is_one_issue_and_reported(tmp_path, monkeypatch):
    root = tmp_path / "rules"
    shutil.copytree(RULES / "core", root / "core")
    shutil.copytree(RULES / "numetal", root / "numetal")
    (root / "house").mkdir()
    (root / "house" / "zz.yaml").write_text("dice: {}\n", encoding="utf-8")
    real = loader._parse

    def parse(text):
        if text == "dice: {}\n":
            raise RuntimeError("boom")
        return real(text)

    monkeypatch.setattr(loader, "_parse", parse)
    bugs = []
    lib = load_library(root, on_bug=bugs.append)
    (issue,) = lib.refused["house"]
    assert (issue.file, issue.message) == ("rules/house/zz.yaml",
                                           "could not read zz.yaml: RuntimeError: boom")
    assert bugs == ["rules: reading rules/house/zz.yaml failed"]
    assert "numetal" in lib.rulesets  # the others still load
