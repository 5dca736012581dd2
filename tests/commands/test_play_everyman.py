"""The everyman ruleset (seed 002_2d42e5e1bfda5bd5.txt) played through +combat with exact
dice: the issue 10 points where it must play its own list on top of the core, not numetal's
house rules. Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CloseTest.start("everyman")``): Char (staff, organizer; Str 3, Dex 3, Wits 3,
Brawl 2, Stamina 2) initiative 11, Char2 (Str 2, Dex 2, Wits 2, Dodge 1, Stamina 2) 7, the
NPC Thug (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2) 5. Thug declares first, Char acts first.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest


class EverymanTest(CloseTest):
    def daze_thug(self):
        """Char hits Thug for 3 levels after soak: at least Thug's Stamina 2, dazed."""
        self.start("everyman")
        self.declare_all(char="attack Thug")
        # Dex 3 + Brawl 2 vs 6: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4: [8 8 8 2] = 3;
        # soak Stamina 2: [2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 8, 8, 8, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug is dazed", text)


class TestDazing(EverymanTest):
    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_mortal_shakes_off_a_daze_with_willpower(self):
        """COMP-02: "willpower (for mortals) can be spent to ignore this": a point, at once,
        not an action; the dazed mortal then declares as usual."""
        self.daze_thug()
        self.assertIn("dazed", [k.name for k in self.who("Thug").conditions])
        text = self.cmd("+combat/declare Thug=shake willpower").text
        self.assertIn("Thug spends 1 Willpower (shake off the daze); 4 left.", text)
        self.assertIn("Thug is no longer dazed.", text)
        self.assertNotIn("dazed", [k.name for k in self.who("Thug").conditions])
        self.assertIn("Thug is not dazed.", self.cmd("+combat/declare Thug=shake willpower").text)
        self.assertIn("e.g. shake blood", self.cmd("+combat/declare Thug=shake").text)

    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_vampire_spends_blood_never_willpower(self):
        """COMP-02: a blood point for a vampire; Willpower is "for mortals" only."""
        self.char2.sheet.save(make_sheet(splat="vampire", generation=13, blood=5, strength=2,
                                         dexterity=2, wits=2, stamina=2, willpower=5))
        self.start("everyman")
        self.cmd("+combat/mod Char2=dazed")
        text = self.player("+combat/declare shake willpower").text
        self.assertIn("A vampire shakes off a daze with a point of Blood, e.g. shake blood.",
                      text)
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, 5)
        self.assertIn("dazed", [k.name for k in self.who("Char2").conditions])
        text = self.player("+combat/declare shake blood").text
        self.assertIn("Char2 spends 1 Blood (shake off the daze); 4 left.", text)
        self.assertNotIn("dazed", [k.name for k in self.who("Char2").conditions])

    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_shifter_spends_rage_and_numetal_has_no_way_out(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         strength=2, dexterity=2, wits=2, stamina=2,
                                         rage="4/4"))
        self.start("everyman")
        self.cmd("+combat/mod Char2=dazed")
        self.assertIn("A shifter shakes off a daze with a point of Rage",
                      self.player("+combat/declare shake willpower").text)
        self.assertIn("1 Rage (shake off the daze); 3 left.",
                      self.player("+combat/declare shake rage").text)
        self.cmd("+combat/end")
        self.start("numetal")
        self.cmd("+combat/mod Char2=dazed")
        self.assertIn("no way to shake off a daze",
                      self.player("+combat/declare shake rage").text)
        self.assertIn("dazed", [k.name for k in self.who("Char2").conditions])
