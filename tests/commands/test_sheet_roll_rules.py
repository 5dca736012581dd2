"""+sheet, +roll and +rules through Evennia's real command handler."""

from unittest import mock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.commands.base import WodCommand
from tests.fixed_dice import FixedDice
from tests.helpers import capture_msgs, run_command


class WodCommandTest(EvenniaCommandTest):
    """char1 is staff (Developer) in Evennia's fixtures; ``player`` is char2, no permissions."""

    def cmd(self, line, caller=None):
        caller = caller or self.char1
        return run_command(caller, line, session=self.session if caller == self.char1 else None)

    def player(self, line):
        return self.cmd(line, caller=self.char2)

    def dice(self, *faces):
        return mock.patch.object(WodCommand, "rng", FixedDice(*faces))


class TestSheet(WodCommandTest):
    def test_set_and_show(self):
        self.assertIn("Your Dexterity set to 3", self.cmd("+sheet/set dex=3").text)
        self.cmd("+sheet/set splat=vampire")
        text = self.cmd("+sheet").text
        for word in (
            "Sheet: Char",
            "Physical",
            "Dexterity",
            "Talents",
            "Willpower 5/5",
            "Blood 10/10",
            "Generation: 13",
            "Healthy",
        ):
            self.assertIn(word, text)

    def test_bad_input_changes_nothing(self):
        before = self.char2.sheet.get().to_dict()
        cases = {
            "+sheet/set strength=banana": "whole number",
            "+sheet/set strength=99": "goes from 0 to 10",
            "+sheet/set dexterty=3": "Did you mean Dexterity",
            "+sheet/set strength": "Usage",
            "+sheet/set Char/strength=3": "only edit your own",
            "+sheet/bogus": "unknown switch",
            "+sheet/approve Char": "Only staff",
            "+sheet/approve/set Char": "one switch at a time",
        }
        for line, words in cases.items():
            self.assertIn(words, self.player(line).text, line)
        self.assertEqual(self.char2.sheet.get().to_dict(), before)
        self.assertFalse(self.char1.sheet.exists)

    def test_staff_edit_and_approval_lock(self):
        self.assertIn("Char2's Strength set to 4", self.cmd("+sheet/set Char2/strength=4").text)
        self.cmd("+sheet/approve Char2")
        self.assertTrue(self.char2.sheet.get().approved)
        run = run_command(self.char2, "+sheet/set strength=5")
        self.assertIn("approved and locked", run.text)
        self.assertEqual(self.char2.sheet.get().traits["Strength"], 4)

    def test_specialty(self):
        self.assertIn("Brawl specialty set to 'Kicks'", self.cmd("+sheet/spec brawl=Kicks").text)
        self.assertIn("Specialties: Brawl (Kicks)", self.cmd("+sheet").text)

    def test_one_write_per_change(self):
        self.cmd("+sheet/set dex=2")
        run = self.cmd("+sheet/set dex=3")
        writes = [
            q for q in run.queries if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))
        ]
        self.assertLessEqual(len(writes), 1, run.sql)


class TestRoll(WodCommandTest):
    def setUp(self):
        super().setUp()
        self.cmd("+sheet/set dex=3")
        self.cmd("+sheet/set brawl=2")

    @pytest.mark.rule("DICE-02")
    def test_roll_shown_to_room_with_faces(self):
        with self.dice(10, 8, 5, 1, 7), capture_msgs(self.char2) as seen:
            self.cmd("+roll dex+brawl vs 7")
        text = seen[self.char2][-1]
        self.assertIn("Char rolls Dexterity 3 + Brawl 2 = 5 dice vs 7", text)
        self.assertIn("[10 8 5 1 7] => 2 successes", text)

    @pytest.mark.rule("DICE-03")
    def test_specialty_switch(self):
        with self.dice(10, 3, 3, 3, 3):
            text = self.cmd("+roll/spec/private dex+brawl").text
        self.assertIn("2 successes", text)
        self.assertIn("specialty", text)

    @pytest.mark.rule("DICE-04")
    def test_willpower_spend_deducts_a_point(self):
        with self.dice(1, 2, 3, 4, 5):
            text = self.cmd("+roll/wp/private dex+brawl").text
        self.assertIn("1 success", text)
        self.assertEqual(self.char1.sheet.get().pools["Willpower"].current, 4)

    @pytest.mark.rule("DICE-02")
    def test_botch(self):
        with self.dice(1, 2, 3, 4, 5):
            self.assertIn("BOTCH", self.cmd("+roll/private dex+brawl").text)

    @pytest.mark.rule("HLT-06")
    def test_wound_penalty_listed(self):
        sheet = self.char1.sheet.get()
        from wodcombat.world import rulebook

        hurt = sheet.with_health(
            sheet.track(rulebook.get().section("health")).apply("lethal", 2).track
        )
        self.char1.sheet.save(hurt)
        with self.dice(6, 6, 6, 6):
            text = self.cmd("+roll/private dex+brawl").text
        self.assertIn("wounds (Hurt) -1 dice = 4 dice", text)
        with self.dice(6, 6, 6, 6, 6):
            self.assertIn("= 5 dice", self.cmd("+roll/private/reflex dex+brawl").text)

    def test_bad_rolls_change_nothing_and_explain(self):
        before = self.char1.sheet.get().to_dict()
        cases = {
            "+roll dex+": "missing after a sign",
            "+roll 9999": "more than this game allows",
            "+roll banana vs 6": "not a trait",
            "+roll 5 vs 14": "Difficulty goes from 2 to 10",
            "+roll": "Roll what?",
            "+roll/bogus dex": "unknown switch",
        }
        with self.dice():
            for line, words in cases.items():
                self.assertIn(words, self.cmd(line).text, line)
        self.assertEqual(self.char1.sheet.get().to_dict(), before)


class TestRules(WodCommandTest):
    def test_rules_shows_default(self):
        text = self.cmd("+rules").text
        self.assertIn("Default ruleset: numetal", text)
        self.assertIn("base difficulty 6", text)

    def test_check_and_reload_need_admin(self):
        self.assertIn("Only admins", self.player("+rules/check").text)
        self.assertIn("Only admins", self.player("+rules/reload").text)

    def test_admin_check_and_reload(self):
        self.assertIn("All rules files are valid", self.cmd("+rules/check").text)
        self.assertIn("Reloaded", self.cmd("+rules/reload").text)

    def test_list(self):
        self.assertIn("numetal", self.player("+rules/list").text)

    def test_switch_prefix(self):
        self.assertIn("Rulesets", self.player("+rules/li").text)
