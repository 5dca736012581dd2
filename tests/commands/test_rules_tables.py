"""+rules/weapons and +rules/armor: what a player can equip, with the numbers they need,
within 78 columns (issue 11)."""

from evennia.utils.test_resources import EvenniaCommandTest

from tests.helpers import run_command


class TestRulesTables(EvenniaCommandTest):
    def test_weapons_table_lists_every_weapon_with_its_numbers(self):
        out = run_command(self.char1, "+rules/weapons").text
        self.assertIn("Pistol, heavy", out)
        row = next(line for line in out.splitlines() if line.strip().startswith("Knife"))
        self.assertEqual(row.split()[:4], ["Knife", "Str+1", "lethal", "melee"])
        self.assertIn("+sheet/equip", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_armor_table_and_another_ruleset(self):
        out = run_command(self.char1, "+rules/armor revised").text
        self.assertIn("Armor: revised", out)
        self.assertIn("+sheet/armor", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_unknown_ruleset_says_which_exist(self):
        out = run_command(self.char1, "+rules/weapons nosuch").text
        self.assertIn("numetal", out)
        self.assertNotIn("went wrong", out)
