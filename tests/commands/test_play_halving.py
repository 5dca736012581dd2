"""DMG-15's halving shown in the room line (issue 31, finding 4): "every step that changes a
number is shown", as spotlight shows "5, halved -2". Played through +combat with exact dice
under every d10 ruleset (the core carries V20 p. 284-285 into each).

Fight set-up (``CloseTest.start(ruleset)``): Char (Str 3, Dex 3, Brawl 2) acts first; Char2
is a vampire here (Stamina 1, no Fortitude).
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest

VAMPIRE = dict(splat="vampire", strength=2, dexterity=2, wits=2, stamina=1, blood="5/10")


class TestHalvingIsShown(CloseTest):
    def punch(self, ruleset):
        self.char2.sheet.save(make_sheet(**VAMPIRE))
        self.start(ruleset)
        self.declare_all(char="attack Char2")
        # Dex 3 + Brawl 2 vs 6: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4 bashing [8 8 8 2] = 3;
        # soak Stamina 1 [8] = 1; 2 left, halved (round down) to 1.
        with self.dice(8, 8, 2, 2, 2, 8, 8, 8, 2, 8):
            return self.cmd("+combat/act").text

    @pytest.mark.rule("DMG-15")
    def test_DMG_15_room_line_shows_the_halving_in_every_d10_ruleset(self):
        for ruleset in ("numetal", "revised", "everyman", "v20"):
            with self.subTest(ruleset=ruleset):
                text = self.punch(ruleset)
                self.assertIn("Char2 takes 1 bashing (3 rolled, 1 soaked, halved -1)", text)
                self.assertEqual(self.char2.sheet.get().health.get("bashing"), 1)
                self.cmd("+combat/end")
                self.char2.sheet.save(make_sheet(**VAMPIRE))

    @pytest.mark.rule("DMG-15")
    def test_DMG_15_staff_damage_from_a_source_shows_the_halving(self):
        self.char2.sheet.save(make_sheet(**VAMPIRE))
        self.start("v20")
        # 4 levels from a gun: bashing; soak Stamina 1 [2] = 0; 4 halved to 2.
        with self.dice(2):
            text = self.cmd("+combat/damage Char2=4 lethal firearm").text
        self.assertIn("(4 levels, 0 soaked, halved -2)", text)

    @pytest.mark.rule("DMG-15")
    def test_DMG_15_no_halving_no_halving_shown(self):
        self.start("numetal")
        self.declare_all(char="attack Char2")
        with self.dice(8, 8, 2, 2, 2, 8, 8, 8, 2, 8, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char2 takes 2 bashing (3 rolled, 1 soaked)", text)
        self.assertNotIn("halved", text)
