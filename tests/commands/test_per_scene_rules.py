"""Per-scene rules (issue 4): +combat/start <ruleset> picks any of the five rulesets, the
server default comes from settings, and a running combat keeps the rules it started with
across +rules/reload (and a simulated ``evennia reload``) while new combats use the new
files. Through the real command handler with exact dice (FixedDice)."""

import os
import shutil
import tempfile
from unittest import mock

import pytest
from django.test import override_settings
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.commands.base import WodCommand
from tests.fixed_dice import FixedDice
from tests.helpers import run_command
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, rulebook

RULESETS = ("numetal", "revised", "everyman", "v20", "spotlight")


class RulesTest(EvenniaCommandTest):
    def tearDown(self):
        script = combat_in(self.room1)
        if script:
            combatlog.forget(script.combat_id)
        rulebook._library = None
        super().tearDown()

    def cmd(self, line):
        return run_command(self.char1, line, session=self.session)

    def dice(self, *faces):
        return mock.patch.object(WodCommand, "rng", FixedDice(*faces))


class TestStartAnyRuleset(RulesTest):
    def test_each_of_the_five_rulesets_starts_with_its_engine(self):
        for name in RULESETS:
            out = self.cmd(f"+combat/start {name}").text
            self.assertIn(f"starts a fight ({name}", out)
            script = combat_in(self.room1)
            self.assertEqual(script.ruleset_name, name)
            engine = getattr(script.get_state(), "engine", "d10")
            self.assertEqual(engine, "spotlight" if name == "spotlight" else "d10", name)
            self.assertIn(f"Combat: {name}", self.cmd("+combat").text)
            rec = combatlog.read(script.combat_id)[0]
            self.assertEqual((rec["event"], rec["ruleset"]), ("start", name))
            self.cmd("+combat/end")
            self.assertIsNone(combat_in(self.room1))

    def test_unknown_ruleset_is_refused_naming_the_known_ones(self):
        out = self.cmd("+combat/start nosuch").text
        self.assertIn("There is no ruleset 'nosuch'", out)
        self.assertIn("spotlight", out)
        self.assertIsNone(combat_in(self.room1))

    def test_server_default_comes_from_settings(self):
        with override_settings(WODCOMBAT_DEFAULT_RULESET="v20"):
            self.cmd("+combat/start")
            self.assertEqual(combat_in(self.room1).ruleset_name, "v20")
            self.cmd("+combat/end")
        with override_settings(WODCOMBAT_DEFAULT_RULESET="spotlight"):
            self.assertIn("spotlight engine", self.cmd("+combat/start").text)
            self.assertEqual(combat_in(self.room1).get_state().engine, "spotlight")

    def test_rules_list_shows_parents(self):
        out = self.cmd("+rules/list").text
        for name in RULESETS:
            self.assertIn(name, out)
        self.assertRegex(out, r"spotlight\s+extends core")
        self.assertRegex(out, r"numetal\s+extends core")
        self.assertRegex(out, r"core\s+root \(base\)")


class TestRunningCombatKeepsItsRules(RulesTest):
    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="h12-rules-")
        self.rules = os.path.join(self.tmp, "rules")
        shutil.copytree(rulebook.rules_dir(), self.rules)
        self.override = override_settings(WODCOMBAT_RULES_DIR=self.rules)
        self.override.enable()
        rulebook._library = None

    def tearDown(self):
        self.override.disable()
        shutil.rmtree(self.tmp, ignore_errors=True)
        super().tearDown()

    def set_init_dice(self, n):
        path = os.path.join(self.rules, "spotlight", "turns.yaml")
        text = open(path).read()
        assert "    dice: 2\n" in text or f"    dice: {n}\n" not in text
        with open(path, "w") as fh:
            fh.write(text.replace("    dice: 2\n", f"    dice: {n}\n"))

    @pytest.mark.rule("SPOT-01")
    def test_reload_changes_new_combats_only_and_survives_a_server_reload(self):
        self.cmd("+combat/start spotlight")
        script = combat_in(self.room1)
        # While the files are unchanged the combat uses the library's own object.
        self.assertIs(script.ruleset(), rulebook.get("spotlight"))
        self.set_init_dice(1)
        out = self.cmd("+rules/reload").text
        self.assertIn("Reloaded", out)
        self.assertEqual(rulebook.get("spotlight").section("spotlight")["initiative"]["dice"], 1)
        # The running combat still rolls 2d6 (SPOT-01 as it started).
        self.assertEqual(script.ruleset().section("spotlight")["initiative"]["dice"], 2)
        # A simulated `evennia reload`: every in-memory copy is gone; the snapshot is read.
        rulebook._retained.clear()
        rulebook._digests.clear()
        script.forget_cache()
        self.cmd("+combat/join")  # the organizer fights only by /join (issue 10)
        with self.dice(4, 5):
            out = self.cmd("+combat/init").text
        self.assertIn("[4 5]", out)
        rec = [r for r in combatlog.read(script.combat_id) if r["event"] == "initiative"][0]
        self.assertEqual(rec["faces"], [4, 5])
        self.cmd("+combat/end")
        # A new combat uses the reloaded file: one die.
        self.cmd("+combat/start spotlight")
        self.cmd("+combat/join")
        with self.dice(6):
            out = self.cmd("+combat/init").text
        self.assertIn("[6]", out)
        self.assertEqual(combat_in(self.room1).ruleset().section("spotlight")["initiative"]
                         ["dice"], 1)

    def test_a_d10_combat_keeps_its_rules_too(self):
        self.cmd("+combat/start numetal")
        script = combat_in(self.room1)
        before = script.ruleset().dice.base_difficulty
        path = os.path.join(self.rules, "core", "dice.yaml")
        text = open(path).read()
        self.assertIn(f"base_difficulty: {before}", text)
        with open(path, "w") as fh:
            fh.write(text.replace(f"base_difficulty: {before}", "base_difficulty: 7"))
        self.assertIn("Reloaded", self.cmd("+rules/reload").text)
        self.assertEqual(rulebook.get("numetal").dice.base_difficulty, 7)
        self.assertEqual(script.ruleset().dice.base_difficulty, before)
        rulebook._retained.clear()
        self.assertEqual(script.ruleset().dice.base_difficulty, before)  # from the snapshot

    def test_broken_reload_keeps_running_rules(self):
        self.cmd("+combat/start spotlight")
        path = os.path.join(self.rules, "spotlight", "turns.yaml")
        with open(path, "a") as fh:
            fh.write("\nnot_a_section: 1\n")
        out = self.cmd("+rules/reload").text
        self.assertIn("Not reloaded", out)
        self.assertIn("not_a_section", out)
        self.assertEqual(combat_in(self.room1).ruleset().name, "spotlight")
        self.assertIn("Combat: spotlight", self.cmd("+combat").text)
