"""A declared defense that cannot work against the attack never stalls the fight: the attack
resolves and the room is told why the defense did nothing (seed 000: "your defense resolves
at the same time (though it may turn out to be ineffective, e.g. trying to block a
gunshot)"). Char (11) attacks Thug (5), who declared a defense; Char2 passes.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest


class TestRefusedDefenses(EffectsTest):
    def arm(self, char_weapon=None):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, melee=2,
                                         stamina=2, firearms=2))
        if char_weapon:
            self.cmd(f"+sheet/equip {char_weapon}")

    def attack_into(self, defense: str, weapon: str, thug_weapon=None, faces=(8, 8, 8, 2, 2)):
        self.setup_fight()
        if thug_weapon:
            self.cmd(f"+sheet/equip Thug/{thug_weapon}")
        self.cmd(f"+combat/declare Thug={defense}")
        self.player("+combat/declare pass")
        self.cmd(f"+combat/declare attack Thug with {weapon}")
        with self.dice(*faces, *([9] * 12)):
            return self.cmd("+combat/act").text

    def assert_resolved(self, text: str, defense: str):
        self.assertIn(f"Thug's {defense} does not work against this attack", text)
        self.assertIn("Char attack:", text)
        self.assertNotIn("Thug " + defense + ":", text)  # no defense roll
        self.assertNotIn("went wrong", text)
        self.assertEqual(self.rolls("defense"), [])
        self.assertNotEqual(self.state().phase, "act")  # the turn moved on

    @pytest.mark.rule("DEF-02")
    def test_dodge_against_a_gunshot_without_cover_or_prone(self):
        self.arm(char_weapon="pistol, heavy")
        text = self.attack_into("dodge", "pistol, heavy")
        self.assert_resolved(text, "dodge")
        self.assertIn("into cover", text)

    @pytest.mark.rule("DEF-01", "DMG-16")
    def test_a_mortal_blocking_a_knife(self):
        self.arm(char_weapon="knife")
        self.assert_resolved(self.attack_into("block", "knife"), "block")

    @pytest.mark.rule("DEF-03")
    def test_parry_with_no_weapon_in_hand_is_refused_when_declared(self):
        # Issue 9 #23: refused at declaration with what to do instead; nothing stored.
        self.arm(char_weapon="knife")
        self.setup_fight()
        text = self.cmd("+combat/declare Thug=parry").text
        self.assertIn("Thug has no weapon or shield to parry with: block", text)
        self.assertFalse(self.who("Thug").declared)

    @pytest.mark.rule("DEF-03")
    def test_parry_with_only_a_pistol_is_refused_when_declared(self):
        self.arm(char_weapon="knife")
        self.setup_fight()
        self.cmd("+sheet/equip Thug/pistol, heavy")
        self.assertIn("no weapon or shield to parry with",
                      self.cmd("+combat/declare Thug=parry").text)
        self.assertFalse(self.who("Thug").declared)

    @pytest.mark.rule("DEF-02")
    def test_dodging_prone_against_a_gunshot_rolls(self):
        self.arm(char_weapon="pistol, heavy")
        self.to_act(thug_action="dodge prone", char2_action="pass",
                    char_action="attack Thug with pistol, heavy")
        with self.dice(8, 8, 8, 2, 2, 9, 9, *([2] * 12)):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug dodge:", text)
        self.assertEqual(len(self.rolls("defense")), 1)


class TestBlockingLethalInArmor(EffectsTest):
    @pytest.mark.rule("DMG-16", "DEF-01")
    def test_a_mortal_in_armor_blocks_a_knife(self):
        """Issue 9, defect 10: armor soaks lethal, so a mortal wearing it may block a blade."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, melee=2,
                                         stamina=2))
        self.cmd("+sheet/equip knife")
        self.setup_fight()
        self.cmd("+sheet/armor Thug/kevlar vest")
        self.cmd("+combat/declare Thug=block")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug with knife")
        with self.dice(8, 8, 8, 2, 2, *([2] * 14)):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug block:", text)
        self.assertNotIn("does not work against this attack", text)
        self.assertEqual(len(self.rolls("defense")), 1)
