"""Life and death outlast the fight (issue 11), played through the commands: a death is kept
on the sheet (HLT-05), healing does not undo it, the dead cannot roll or join; staff heal and
undo a death outside a fight with logged commands. Rule IDs: ../shared/rules-catalog.md.
"""

import pytest

from tests.commands.test_combat import CombatTest
from wodcombat.typeclasses.combat import combat_in


class TestDeathOnTheSheet(CombatTest):
    def kill_char2(self):
        self.cmd("+combat/start")
        self.player("+combat/join")
        out = self.cmd("+combat/damage Char2=10 lethal").text
        self.assertIn("Char2 is DEAD", out)
        self.assertEqual(self.char2.sheet.get().fate, "dead")

    @pytest.mark.rule("HLT-05", "HLT-02")
    def test_dead_stays_dead_after_the_fight(self):
        """HLT-05: +combat/heal after death is refused (never 'Healthy (DEAD)'); the death is
        on the sheet: no +roll, no joining the next fight, +sheet says so."""
        self.kill_char2()
        out = self.cmd("+combat/heal Char2=7 lethal").text
        self.assertIn("Char2 is dead: healing does not bring the dead back", out)
        self.assertIn("+combat/heal Char2=revive", out)
        self.assertNotIn("Healthy (DEAD)", self.cmd("+combat").text)
        self.cmd("+combat/end")
        self.assertIn("You are dead and cannot roll", self.player("+roll dex+brawl").text)
        self.assertIn("DEAD", self.player("+sheet").text)
        self.cmd("+combat/start")
        out = self.player("+combat/join").text
        self.assertIn("You are dead and cannot join a fight", out)
        self.assertIn("+sheet/revive Char2", out)  # the command keeps the name
        self.assertIsNone(combat_in(self.room1).get_state().get(f"#{self.char2.id}"))

    @pytest.mark.rule("HLT-05", "HLT-09")
    def test_staff_revive_and_heal_outside_a_fight(self):
        """Staff undo a death and heal by hand with no throwaway fight; players may not."""
        self.kill_char2()
        self.assertIn("is in a fight", self.cmd("+sheet/revive Char2").text)
        self.cmd("+combat/end")
        self.assertIn("Only staff", self.player("+sheet/revive Char2").text)
        self.assertIn("Only staff", self.player("+sheet/heal Char2=1 lethal").text)
        self.assertIn("Undo the death first", self.cmd("+sheet/heal Char2=2 lethal").text)
        out = self.cmd("+sheet/revive Char2").text
        self.assertIn("Char2's death is undone", out)
        self.assertEqual(self.char2.sheet.get().fate, "")
        out = self.cmd("+sheet/heal Char2=7 lethal").text
        self.assertIn("Char2 heals 7 lethal", out)
        self.assertIn("-> Healthy", out)
        self.assertEqual(self.char2.sheet.get().health["lethal"], 0)
        self.assertIn("Usage: +sheet/heal", self.cmd("+sheet/heal Char2=lots").text)
        self.assertNotIn("cannot roll", self.player("+roll dex").text)
        self.cmd("+combat/start")
        self.assertIn("Char2 joins", self.player("+combat/join").text)

    @pytest.mark.rule("HLT-05")
    def test_revive_in_the_fight(self):
        """+combat/heal <name>=revive (staff): the outcome leaves the fight and the sheet;
        then healing works."""
        self.kill_char2()
        self.assertIn("Only the organizer or staff", self.player("+combat/heal Char2=revive").text)
        out = self.cmd("+combat/heal Char2=revive").text
        self.assertIn("undoes Char2's death", out)
        self.assertEqual(self.char2.sheet.get().fate, "")
        self.assertEqual(combat_in(self.room1).get_state().get(f"#{self.char2.id}").outcome, "")
        self.assertIn("Char2 heals", self.cmd("+combat/heal Char2=7 lethal").text)
        self.assertIn("neither dead nor in torpor", self.cmd("+combat/heal Char2=revive").text)


class TestHealingSpotlightHarm(CombatTest):
    @pytest.mark.rule("SPOT-13", "HLT-09")
    def test_staff_heal_harm_outside_a_fight(self):
        """Spotlight Harm stays on the sheet after a fight (SPOT-13); staff heal it by hand
        as they heal the d10 track, or a character left at 0 HP could never fight again."""
        self.char2.sheet.save(self.char2.sheet.get().with_harm(2, 6))
        self.assertIn("Only staff", self.player("+sheet/heal Char2=1 superficial").text)
        out = self.cmd("+sheet/heal Char2=4 aggravated harm").text
        self.assertIn("Char2 heals 4 aggravated Harm: 6 -> 2.", out)
        out = self.cmd("+sheet/heal Char2=5 superficial").text
        self.assertIn("Char2 heals 2 superficial Harm: 2 -> 0.", out)
        self.assertEqual(dict(self.char2.sheet.get().harm), {"aggravated": 2})
        self.assertIn("Harm is superficial or aggravated, not 'lethal'",
                      self.cmd("+sheet/heal Char2=1 lethal harm").text)
        self.assertIn("Usage: +sheet/heal", self.cmd("+sheet/heal Char2=1 aggravated x y").text)
        self.assertEqual(dict(self.char2.sheet.get().harm), {"aggravated": 2})
        # the d10 track is untouched by a Harm heal, and "aggravated" alone still means it
        self.assertIn("Char2 heals 0 aggravated", self.cmd("+sheet/heal Char2=1 aggravated").text)
        self.assertEqual(dict(self.char2.sheet.get().harm), {"aggravated": 2})
