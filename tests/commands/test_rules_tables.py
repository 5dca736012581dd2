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


class TestRulesStatement(EvenniaCommandTest):
    """+rules <ruleset>: the catalog statement an admin reads (issue 10): which rules are on,
    their values and the file and line they come from."""

    def test_everyman_shows_its_own_and_the_carried_rules_with_files(self):
        out = run_command(self.char1, "+rules everyman=DMG-15").text
        self.assertIn("Rules: everyman", out)
        self.assertIn("Extends core.", out)
        self.assertIn("carried from the core: V20 p. 284-285", out)
        self.assertIn("damage.conversions", out)
        self.assertIn("core/damage.yaml:", out)
        self.assertIn("1 rule; 0 from everyman's own document, 1 carried by the core.", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_file_names_are_whole_and_long_values_cut_with_dots(self):
        """An admin opens the file a value comes from: its name is never cut (it was cut
        on the left: "ore/maneuvers.yaml"); a value too long for the line ends "..."."""
        out = run_command(self.char1, "+rules v20=CLOSE").text
        self.assertIn(" core/maneuvers.yaml:", out)
        self.assertNotIn(" ore/maneuvers.yaml", out)
        self.assertIn("maneuvers.natural_weapons = {Ajaba: ", out)
        self.assertIn("...", out)
        self.assertIn("13 rules;", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_numetal_house_rule_comes_from_numetal(self):
        """INIT-05 (Gurahl winter) is numetal's seed and numetal's file; not in v20."""
        out = run_command(self.char1, "+rules numetal=INIT-05").text
        self.assertIn("seed 000", out)
        self.assertIn("numetal/turns.yaml:", out)
        self.assertIn("has no rule starting 'INIT-05'",
                      run_command(self.char1, "+rules v20=INIT-05").text)

    def test_whole_statement_fits_the_screen_and_names_the_switch_offs(self):
        out = run_command(self.char1, "+rules spotlight").text
        self.assertIn("Switched off from core: catalog, initiative", out)
        self.assertIn("SPOT-13", out)
        self.assertNotIn("DICE-01", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_core_is_a_base_not_started(self):
        self.assertIn("Rules: core", run_command(self.char1, "+rules core=DICE").text)
        out = run_command(self.char1, "+combat/start core").text
        self.assertIn("shared base", out)
        self.assertIn("numetal", out)
