"""Hostile rules files through +rules/check and +rules/reload (issue 30): the admin reads
the file and line to fix, nothing changes, the running rules stay, and no command answers
"Something went wrong" even when the loader itself fails.

Works on a temporary copy of ``rules/`` as test_rules_reload does. No catalog rule ID:
these are the loader's guarantees, not a game rule.
"""

from __future__ import annotations

from unittest import mock

from wodcombat.combat.rules import yaml_file as loader
from tests.commands.test_rules_reload import RulesCopyTest
from tests.engine.test_rules_hostile import bomb
from wodcombat.world import rulebook


class TestHostileFiles(RulesCopyTest):
    def append(self, relpath: str, data: bytes) -> int:
        """Append ``data`` to a shipped file; the line number it starts on."""
        path = self.root / relpath
        old = path.read_bytes()
        path.write_bytes(old + data)
        return old.count(b"\n") + 1

    def assert_hostile_refused(self, *expected: str):
        dice = rulebook.get().dice
        check = self.admin("+rules/check").text
        self.assertIn("nothing was changed", check)
        run = self.assert_refused(*expected)  # both commands; the library object stays
        self.assertIs(rulebook.get().dice, dice)
        for text in (check, run.text):
            self.assertNotIn("Something went wrong", text)
            self.assertNotIn("Traceback", text)
        return run

    def test_alias_bomb_appended_is_refused_by_file_and_line(self):
        first = self.append("core/dice.yaml", bomb(9).encode())
        self.assert_hostile_refused(
            f"rules/core/dice.yaml:{first + 1}: *a0 repeats a list or mapping")

    def test_nul_byte_is_refused_by_file_and_line(self):
        path = self.root / "core" / "dice.yaml"
        text = path.read_bytes()
        at = text.index(b"  sides: 10")
        line = text.count(b"\n", 0, at) + 1
        path.write_bytes(text[:at] + b"\x00" + text[at:])
        self.assert_hostile_refused(f"rules/core/dice.yaml:{line}: a NUL byte at line {line}, "
                                    f"column 1 (byte offset {at})")

    def test_a_bug_in_the_loader_is_an_issue_and_logged(self):
        real = loader._parse

        def parse(text):
            if "base_difficulty" in text:
                raise RuntimeError("boom")
            return real(text)

        with (
            mock.patch.object(loader, "_parse", parse),
            mock.patch("evennia.utils.logger.log_trace") as log_trace,
        ):
            self.assert_hostile_refused("could not read dice.yaml: RuntimeError: boom")
        logged = [c.args[0] for c in log_trace.call_args_list]
        self.assertIn("rules: reading rules/core/dice.yaml failed", logged)

    def test_a_bug_outside_the_files_is_an_issue_and_logged(self):
        with (
            mock.patch.object(rulebook, "load_library", side_effect=KeyError("x")),
            mock.patch("evennia.utils.logger.log_trace") as log_trace,
        ):
            self.assert_hostile_refused("could not read the rules: KeyError: 'x'")
        self.assertTrue(log_trace.called)
