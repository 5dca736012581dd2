"""Ranged attacks and the attack rules played through +combat with exact dice (seed 000
"Ranged combat" / "Ranged maneuvers", seed 001 for revised, seed 002 for everyman).

Set-up (``RangedTest.fight``): Char (staff, organizer) initiative 11 and the NPC Thug 5
(Str 3, Dex 2, Brawl 2, Stamina 2); Thug declares first, Char acts first. Char's sheet is
set per test (Dexterity 3 unless said).
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest

SHOOTER = dict(strength=3, dexterity=3, wits=3, perception=2, firearms=2, stamina=2)


class RangedTest(EffectsTest):
    def fight(self, ruleset: str = "", weapons=(), yards: int = 10, **sheet):
        self.char1.sheet.save(make_sheet(**(sheet or SHOOTER)))
        for w in weapons:
            self.assertIn("now carr", self.cmd(f"+sheet/equip {w}").text)
        self.assertIn("starts a fight", self.cmd(f"+combat/start {ruleset}".strip()).text)
        self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
        self.cmd(f"+combat/range Char/Thug={yards}")  # not point-blank unless asked
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(1):
            self.cmd("+combat/init Thug=4")
        self.cmd("+combat/next")
        self.assertEqual(self.state().phase, "declare")

    def turn(self, char: str, thug_action: str = "other growls"):
        """Thug declares, then Char; returns Char's reply."""
        self.cmd(f"+combat/declare Thug={thug_action}")
        return self.cmd(f"+combat/declare {char}").text

    def finish_turn(self):
        self.cmd("+combat/act Thug")


class TestRateOfFire(RangedTest):
    """Defect 4: four shots a turn from a rate-2 revolver were accepted."""

    def rate_of_fire(self, ruleset):
        self.fight(ruleset, ["revolver, heavy"])
        shot = "attack Thug with revolver, heavy"
        text = self.turn("; ".join([shot] * 3))
        self.assertIn("fires at most 2 shot(s) a turn", text)
        self.assertFalse(self.who("Char").declared)
        self.cmd(f"+combat/declare {shot}; {shot}")
        self.assertTrue(self.who("Char").declared)
        # Dex 3 + Firearms 2 - 2 (two actions) = 3 dice vs 6: [2 2 2] = miss.
        with self.dice(2, 2, 2):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["difficulty"]), (3, 6))
        self.assertIn({"reason": "multiple actions (2)", "dice": -2}, roll["modifiers"])

    @pytest.mark.rule("RNG-04")
    def test_numetal_no_more_shots_than_the_rate_of_fire(self):
        self.rate_of_fire("")

    @pytest.mark.rule("RNG-04")
    def test_revised_no_more_shots_than_the_rate_of_fire(self):
        self.rate_of_fire("revised")
