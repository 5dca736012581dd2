"""Two rules whose played tests only named them: automatic fire (RNG-02) and Rage with
Gnosis in one turn (PWR-02), played through +combat with exact dice. Set-up numbers:
tests/commands/test_combat_effects.py (Char 11 acts first; Thug declares first)."""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest


class TestAutofire(EffectsTest):
    @pytest.mark.rule("RNG-02")
    def test_full_auto_adds_ten_dice_at_plus_two_and_empties_the_clip(self):
        self.char1.sheet.save(make_sheet(strength=2, dexterity=3, wits=3, firearms=2,
                                         stamina=2))
        self.cmd("+sheet/equip smg, small")
        self.setup_fight()
        self.cmd("+combat/range Char/Thug=10")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug with smg, small as autofire")
        with self.dice(*[2] * 15, *[2] * 30):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[0]
        self.assertEqual(roll["pool"], 15)  # Dex 3 + Firearms 2 + 10
        self.assertEqual(roll["difficulty"], 8)  # 6 + 2
        self.assertEqual(self.who("Char").gear.weapon("SMG, small").ammo, 0)

    @pytest.mark.rule("RNG-02")
    def test_full_auto_needs_half_a_clip(self):
        self.char1.sheet.save(make_sheet(dexterity=3, wits=3, firearms=2))
        self.cmd("+sheet/equip smg, small")
        self.setup_fight()
        self.cmd("+combat/range Char/Thug=10")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug with smg, small as autofire")
        with self.dice(*[2] * 15, *[2] * 30):
            self.cmd("+combat/act")  # the clip is empty now
        self.cmd("+combat/next")  # turn 2
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare pass")
        out = self.cmd("+combat/declare attack Thug with smg, small as autofire").text
        self.assertRegex(out.lower(), r"clip|rounds|reload")
        self.assertEqual(len(self.rolls("attack")), 1)


class TestRageAndGnosis(EffectsTest):
    @pytest.mark.rule("PWR-02")
    def test_a_shifter_cannot_spend_rage_and_gnosis_in_one_turn(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         dexterity=2, wits=2, stamina=2, rage="4/4",
                                         gnosis="4/4"))
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        out = self.player("+combat/declare spend rage 1; spend gnosis 1; other howls").text
        self.assertIn("Gnosis", out)
        sheet = self.char2.sheet.get()
        self.assertEqual((sheet.pools["Rage"].current, sheet.pools["Gnosis"].current), (4, 4))
        self.assertFalse(self.who("Char2").declared)
        self.player("+combat/declare spend gnosis 1; other howls")
        self.assertEqual(self.char2.sheet.get().pools["Gnosis"].current, 3)
