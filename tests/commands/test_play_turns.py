"""Dice, initiative and turns played through +combat with exact dice (DICE, INIT, TURN, PWR).

Fight set-up (``CombatTest.setup_fight``): Char (staff, organizer) initiative 11 (Dex 3, Wits
3, Str 3, Brawl 2, Stamina 2), Char2 7 (Dex 2, Wits 2, Str 2, Dodge 1, Stamina 2), the NPC
Thug 5 (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2); the declaration phase is open, Thug
declares first. Rule IDs: ../shared/rules-catalog.md.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest


class TestGearReplies(EffectsTest):
    @pytest.mark.rule("ATK-05")
    def test_gear_replies_agree_with_who_carries(self):
        """Defect 28: 'Thug now carries', not 'Thug now carry'; 'You' keeps 'carry'."""
        self.cmd("+combat/start")
        self.cmd("+combat/npc Rat2=str=1")
        self.assertIn("Rat2 now carries: Knife.", self.cmd("+sheet/equip Rat2/knife").text)
        self.assertIn("Rat2 already carries the Knife.", self.cmd("+sheet/equip Rat2/knife").text)
        self.assertIn("Rat2 now wears: Kevlar vest.", self.cmd("+sheet/armor Rat2/kevlar").text)
        self.assertIn("Rat2 carries no sword", self.cmd("+sheet/unequip Rat2/sword").text)
        self.assertIn("You now carry: Knife.", self.player("+sheet/equip knife").text)
        self.assertIn("You already carry the Knife.", self.player("+sheet/equip knife").text)
