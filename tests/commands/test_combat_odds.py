"""+combat/odds (issue 13): staff preview a matchup on the loaded rules through the
simulator; players are refused; unknown sides say what to type. Fights are seeded
(``OddsSwitches.odds_seed``) so the numbers are the same every run."""

from unittest import mock

from wodcombat.commands.combat_odds import OddsSwitches
from tests.commands.test_combat import CombatTest
from wodcombat.typeclasses.combat import combat_in


class OddsTest(CombatTest):
    def odds(self, line, caller=None):
        with mock.patch.object(OddsSwitches, "odds_seed", 5):
            return self.cmd(line, caller=caller)


class TestOdds(OddsTest):
    def test_staff_see_a_compact_summary(self):
        out = self.odds("+combat/odds thug=gunman/10").text
        self.assertIn("Odds (simulated)", out)
        self.assertIn("thug vs gunman: 10 fights, ruleset numetal", out)
        self.assertIn("Outcome (95% interval):", out)
        self.assertIn("Turns until one side falls", out)
        self.assertIn("damage: 0:", out)
        self.assertIn("Seed 5.", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)
        self.assertIsNone(combat_in(self.room1))  # nothing started, nothing written

    def test_the_same_seed_gives_the_same_odds(self):
        def numbers(text):
            return [line for line in text.splitlines() if "%" in line]

        first = numbers(self.odds("+combat/odds thug=gunman/8").text)
        self.assertEqual(first, numbers(self.odds("+combat/odds thug=gunman/8").text))

    def test_a_matchup_said_with_vs(self):
        out = self.odds("+combat/odds thug vs gunman/6").text
        self.assertIn("thug vs gunman: 6 fights, ruleset numetal", out)
        self.assertIn("Usage: +combat/odds", self.odds("+combat/odds thug vs ").text)

    def test_a_character_and_a_named_ruleset(self):
        out = self.odds("+combat/odds Char2=thug/5/spotlight").text
        self.assertIn("Char2 vs thug: 5 fights, ruleset spotlight", out)
        out = self.odds("+combat/odds Char=Char2/4/revised").text
        self.assertIn("Char vs Char2: 4 fights, ruleset revised", out)

    def test_clear_errors(self):
        self.assertIn("'thugg' is not an NPC template or a character. Did you mean thug?",
                      self.odds("+combat/odds thugg=gunman/5").text)
        self.assertIn("Usage: +combat/odds", self.odds("+combat/odds thug").text)
        self.assertIn("From 1 to 2,000 fights", self.odds("+combat/odds thug=gunman/99999").text)
        self.assertIn("There is no ruleset 'nosuch'",
                      self.odds("+combat/odds thug=gunman/5/nosuch").text)

    def test_players_are_refused(self):
        out = self.odds("+combat/odds thug=gunman/5", caller=self.char2).text
        self.assertIn("Only staff preview the odds", out)
        self.assertNotIn("Outcome", out)

    def test_help_lists_the_switch(self):
        from wodcombat.commands.combat import CmdCombat

        self.assertIn("odds", CmdCombat.wod_switches)
        self.assertIn("+combat/odds thug=gunman", CmdCombat.__doc__)
        self.assertIn("odds      - staff: simulate", CmdCombat.__doc__)
