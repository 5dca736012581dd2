"""Broken rules files (issue 5, "Rules files"): +rules/reload refuses and names every error
by file, line and key path; the running rules stay; the server start says what is wrong.

Each test works on a temporary copy of ``rules/`` (``override_settings(WODCOMBAT_RULES_DIR)``),
breaks it the way an admin might, and resets ``wodcombat.world.rulebook._library`` around itself.
No catalog rule ID: these are the loader's guarantees, not a game rule.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.combat.rules.ruleset import load_library
from tests.helpers import run_command
from wodcombat.world import rulebook


class RulesCopyTest(EvenniaCommandTest):
    """char1 is a Developer (admin); char2 a plain player."""

    def setUp(self):
        super().setUp()
        self.tmp = Path(tempfile.mkdtemp(prefix="wod-rules-"))
        self.root = self.tmp / "rules"  # issues then read "rules/core/dice.yaml:12 ..."
        shutil.copytree(settings.WODCOMBAT_RULES_DIR, self.root)
        self.addCleanup(shutil.rmtree, self.tmp, True)
        override = override_settings(WODCOMBAT_RULES_DIR=str(self.root))
        override.enable()
        self.addCleanup(override.disable)
        saved = rulebook._library
        self.addCleanup(setattr, rulebook, "_library", saved)
        rulebook._library = None
        self.running = rulebook.library()  # the rules "in force" before the admin's edit
        self.assertIn("numetal", self.running.rulesets, "the copied rules must start valid")

    def admin(self, line):
        return run_command(self.char1, line, session=self.session)

    def edit(self, relpath: str, old: str, new: str):
        path = self.root / relpath
        text = path.read_text(encoding="utf-8")
        self.assertIn(old, text, f"{relpath} no longer holds {old!r}; update this test")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def assert_refused(self, *expected: str):
        """+rules/reload refuses, lists every expected text, and the old rules stay."""
        for line in ("+rules/check", "+rules/reload"):
            run = self.admin(line)
            for words in expected:
                self.assertIn(words, run.text, f"{line}:\n{run.text}")
        self.assertIn("Not reloaded", run.text)
        self.assertIn("the running rules stay", run.text)
        self.assertIs(rulebook._library, self.running)
        self.assertEqual(rulebook.get().dice.base_difficulty, 6)
        # and play goes on with the old rules
        self.assertIn("Strength set to 3", self.admin("+sheet/set str=3").text)
        return run


class TestReloadRefusesBrokenFiles(RulesCopyTest):
    def test_yaml_syntax_error(self):
        self.edit("core/dice.yaml", "  sides: 10", "  sides: [10")
        run = self.assert_refused("rules/core/dice.yaml:", "YAML syntax error")
        self.assertRegex(run.text, r"rules/core/dice\.yaml:\d+")

    def test_wrong_type(self):
        self.edit("core/dice.yaml", "base_difficulty: 6", 'base_difficulty: "six"')
        self.assert_refused("rules/core/dice.yaml:", "[dice.base_difficulty]")

    def test_unknown_key(self):
        self.edit("core/dice.yaml", "  sides: 10", "  sides: 10\n  exploding_tens: yes")
        self.assert_refused("rules/core/dice.yaml:", "[dice.exploding_tens]")

    def test_missing_table(self):
        (self.root / "core" / "health.yaml").unlink()
        run = self.assert_refused("rules/core/ [health]", "the 'health:' table is missing")
        # named once, in the core; numetal says only that its parent is broken
        self.assertEqual(run.text.count("the 'health:' table is missing"), 1, run.text)
        self.assertIn("Refused because the ruleset they extend has errors: everyman (extends core)",
                      run.text)

    def test_cycle_in_extends(self):
        for name, parent in (("loopa", "loopb"), ("loopb", "loopa")):
            (self.root / name).mkdir()
            (self.root / name / "ruleset.yaml").write_text(
                f"ruleset:\n  extends: {parent}\n  description: loop\n", encoding="utf-8"
            )
        self.assert_refused(
            "rules/loopa/ruleset.yaml:2 [ruleset.extends]",
            "extends forms a cycle: loopa -> loopb -> loopa",
            "rules/loopb/ruleset.yaml:2 [ruleset.extends]",
        )

    def test_every_error_is_listed_not_only_the_first(self):
        self.edit("core/dice.yaml", "base_difficulty: 6", 'base_difficulty: "six"')
        self.edit("core/dice.yaml", "  sides: 10", "  sides: 10\n  exploding_tens: yes")
        (self.root / "spotlight" / "zz_broken.yaml").write_text("spotlight: [oops",
                                                                encoding="utf-8")
        run = self.assert_refused(
            "[dice.base_difficulty]", "[dice.exploding_tens]", "rules/spotlight/zz_broken.yaml",
            "Refused because the ruleset they extend has errors: everyman (extends core)"
        )
        # each error once: the rulesets extending core only say their parent is broken
        self.assertEqual(run.text.count("[dice.base_difficulty]"), 1, run.text)
        check = self.admin("+rules/check").text
        self.assertIn(" 3 error(s); nothing was changed.", check)

    def test_broken_child_ruleset_also_blocks_the_reload(self):
        """Reload is all-or-nothing: one bad ruleset keeps every running one."""
        self.edit("v20/ruleset.yaml", "extends: core", "extends: nosuch")
        self.assert_refused(
            "rules/v20/ruleset.yaml", "the parent ruleset 'nosuch' is missing", "[ruleset.extends]"
        )

    def test_missing_default_folder_says_so(self):
        shutil.rmtree(self.root / "numetal")
        run = self.assert_refused("The default ruleset 'numetal' has no folder")
        self.assertNotIn("All rules files are valid", self.admin("+rules/check").text)
        self.assertIn("Not reloaded", run.text)

    def test_player_may_not_reload(self):
        self.edit("core/dice.yaml", "base_difficulty: 6", "base_difficulty: 7")
        self.assertIn("Only admins", run_command(self.char2, "+rules/reload").text)
        self.assertIs(rulebook._library, self.running)

    def test_fixed_files_reload(self):
        self.edit("core/dice.yaml", "base_difficulty: 6", "base_difficulty: 7")
        run = self.admin("+rules/reload")
        self.assertIn("Reloaded", run.text)
        self.assertEqual(rulebook.get().dice.base_difficulty, 7)


class TestStartupReport(RulesCopyTest):
    """What the server log says at start (wodcombat/startstop.at_server_start)."""

    def test_valid_rules_report_nothing(self):
        for sub in self.root.iterdir():  # only the default: others may be mid-edit elsewhere
            if sub.is_dir() and sub.name not in ("numetal", "core"):
                shutil.rmtree(sub)
        self.assertEqual(rulebook.startup_report(load_library(self.root), "numetal"), [])

    def test_broken_default_is_said_loudly_with_file_and_key(self):
        self.edit("core/dice.yaml", "base_difficulty: 6", 'base_difficulty: "six"')
        lines = rulebook.startup_report(load_library(self.root), "numetal")
        text = "\n".join(lines)
        self.assertIn("THE DEFAULT RULESET 'numetal' IS BROKEN", text)
        self.assertEqual(text.count("[dice.base_difficulty]"), 1)  # not again per child
        self.assertIn(
            "ruleset 'v20' refused: it extends 'core', which has errors (listed above); "
            "the other rulesets are in use.",
            text,
        )
        self.assertIn("fix the", text)
        self.assertIn("rules/core/dice.yaml", lines[2])  # which file, before the list
        self.assertRegex(text, r"rules:   rules/core/dice\.yaml:\d+ \[dice\.base_difficulty\]")
        self.assertNotIn("Traceback", text)

    def test_broken_other_ruleset_is_not_the_default_alarm(self):
        (self.root / "v20" / "zz_broken.yaml").write_text("movement: [oops", encoding="utf-8")
        text = "\n".join(rulebook.startup_report(load_library(self.root), "numetal"))
        self.assertNotIn("DEFAULT", text)
        self.assertIn("ruleset 'v20' refused with 1 error(s); the other rulesets are in use", text)
        self.assertIn("rules/v20/zz_broken.yaml:1: YAML syntax error", text)

    def test_missing_default_names_the_setting(self):
        text = "\n".join(rulebook.startup_report(load_library(self.root), "nosuch"))
        self.assertIn("THE DEFAULT RULESET 'nosuch' DOES NOT EXIST", text)
        self.assertIn("WODCOMBAT_DEFAULT_RULESET", text)

    def test_server_start_logs_every_issue(self):
        from wodcombat import startstop as at_server_startstop

        self.edit("core/dice.yaml", "  sides: 10", "  sides: [10")
        with (
            mock.patch("evennia.utils.logger.log_err") as log_err,
            mock.patch("evennia.utils.logger.log_trace") as log_trace,
        ):
            at_server_startstop.at_server_start()
        logged = "\n".join(c.args[0] for c in log_err.call_args_list)
        self.assertIn("THE DEFAULT RULESET 'numetal' IS BROKEN", logged)
        self.assertRegex(logged, r"rules/core/dice\.yaml:\d+: YAML syntax error")
        self.assertFalse(log_trace.called)
        # the server still runs; players get a plain refusal, not a traceback
        run = run_command(self.char2, "+roll 3")
        self.assertIn("has errors", run.text)
        self.assertNotIn("Something went wrong", run.text)


class TestRulesFolderSetting(RulesCopyTest):
    def test_a_rules_folder_that_is_not_there_is_named_not_raised(self):
        """Issue 27: a host's WODCOMBAT_RULES_DIR naming no folder made the server's start
        hook and +rules/check raise; it is a refusal naming the setting, as a broken file
        is, and the running rules stay."""
        from wodcombat import startstop

        missing = str(self.tmp / "no-such-rules")
        with override_settings(WODCOMBAT_RULES_DIR=missing), \
                mock.patch("evennia.utils.logger.log_err") as log_err, \
                mock.patch("evennia.utils.logger.log_trace") as log_trace:
            startstop.at_server_start()
            logged = "\n".join(c.args[0] for c in log_err.call_args_list)
            self.assertIn(f"settings.WODCOMBAT_RULES_DIR = '{missing}' is not a folder", logged)
            self.assertFalse(log_trace.called)
            rulebook._library = self.running
            text = self.admin("+rules/check").text
            self.assertIn("WODCOMBAT_RULES_DIR", text)
            self.assertNotIn("Traceback", text)
            self.assertIn("Not reloaded", self.admin("+rules/reload").text)
            self.assertIs(rulebook._library, self.running)
