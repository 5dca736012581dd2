"""Issue 29: +combat/screenreader on|off, per account: +combat, +sheet and the turn lines
one fact a line, no box art, leader dots, aligned columns or track boxes; the same facts.

The setting lives on the Account, which Evennia's idmapper keeps in memory across tests:
every test here clears it in tearDown, whatever happened (a flag left on a shared test
account once leaked into later tests).
"""

import re

import pytest

from tests.commands.test_combat import CombatTest
from tests.commands.test_combat_spotlight import SpotTest
from tests.helpers import capture_msgs
from wodcombat.world import reader_mode

#: what a screen reader reads out as noise: rules of = - _ ~ *, leader dots, line-drawing
#: characters, health boxes, and columns (a run of spaces inside a line, or indentation)
DRAWN = re.compile(r"[=\-_~*]{3,}|\.{3,}|[\u2500-\u257f]|\[[ /X*]\]|\S {3,}\S|^\s")


def drawn(text: str) -> list[str]:
    return [line for line in text.split("\n") if DRAWN.search(line)]


class ReaderCleanup:
    def tearDown(self):
        for account in (self.account, self.account2):
            account.attributes.remove(reader_mode.ATTR)
        super().tearDown()


class ScreenReaderTest(ReaderCleanup, CombatTest):
    def test_the_setting_is_the_accounts_and_off_by_default(self):
        self.assertIn("is off", self.cmd("+combat/screenreader").text)
        self.assertIn("is on", self.cmd("+combat/screenreader on").text)
        self.assertIs(self.account.attributes.get(reader_mode.ATTR), True)
        self.assertFalse(self.account2.attributes.get(reader_mode.ATTR))
        self.assertIn("Usage: +combat/screenreader on|off",
                      self.cmd("+combat/screenreader loud").text)
        self.assertIs(self.account.attributes.get(reader_mode.ATTR), True)  # unchanged
        self.assertIn("is off", self.cmd("+combat/screenreader off").text)
        self.assertIsNone(self.account.attributes.get(reader_mode.ATTR))

    def test_the_setting_is_read_once_per_change_and_any_change_is_seen(self):
        """Issue 32: a fight's command asks each reader's setting; the Attribute is read
        once per change of it, and a change made any way (staff's own Attribute write, not
        the switch) is seen at once."""
        from unittest import mock

        self.assertFalse(reader_mode.is_on(self.char1))
        handler = type(self.account.attributes)
        with mock.patch.object(handler, "get", autospec=True,
                               side_effect=handler.get) as asked:
            for _ in range(3):
                self.assertFalse(reader_mode.is_on(self.char1))
            self.assertEqual(asked.call_count, 0)
        self.account.attributes.add(reader_mode.ATTR, True)  # as staff would, by hand
        self.assertTrue(reader_mode.is_on(self.char1))
        self.assertFalse(reader_mode.is_on(self.char2))  # another account: its own
        self.char1.db_account = self.account2  # played by another account: theirs
        try:
            self.assertFalse(reader_mode.is_on(self.char1))
        finally:
            self.char1.db_account = self.account
        self.assertTrue(reader_mode.is_on(self.char1))
        self.account.attributes.remove(reader_mode.ATTR)
        self.assertFalse(reader_mode.is_on(self.char1))

    @pytest.mark.rule("INIT-01", "HLT-01")
    def test_combat_status_one_fact_a_line(self):
        """INIT-01 totals and the HLT-01 level, said: the same facts as the table."""
        self.setup_fight()
        table = self.cmd("+combat").text
        self.assertTrue(drawn(table))  # the drawn screen is what the check catches
        self.cmd("+combat/screenreader on")
        said = self.cmd("+combat").text
        self.assertEqual(drawn(said), [])
        self.assertEqual(said.split("\n"), [
            "Combat: numetal, turn 1, declare phase.",
            "Organizer: Char. Mode classic.",
            "Now: Thug (declare).",
            "3 in the fight, highest initiative first:",
            "Char: initiative 11; health Healthy; unarmed; declared nothing.",
            "Char2: initiative 7; health Healthy; unarmed; declared nothing.",
            "Thug (NPC): initiative 5; health Healthy; unarmed; declared nothing."])
        self.assertIn(" Mode: classic   Organizer: Char", self.player("+combat").text)

    @pytest.mark.rule("HLT-01")
    def test_sheet_one_fact_a_line(self):
        self.cmd("+combat/screenreader on")
        said = self.cmd("+sheet").text
        self.assertEqual(drawn(said), [])
        lines = said.split("\n")
        self.assertEqual(lines[:2], ["Sheet: Char.", "Splat: Mortal. not approved yet."])
        self.assertIn("Physical: Strength 3; Dexterity 3; Stamina 2.", lines)
        self.assertIn("Talents: Brawl 2; the rest 0.", lines)
        self.assertIn("Skills: all 0.", lines)
        self.assertIn("Pools: Willpower 5 of 5.", lines)
        self.assertIn("Health: Healthy; no damage, 7 levels.", lines)
        self.assertIn("[ ][ ][ ][ ][ ][ ][ ]  Healthy", self.player("+sheet").text)

    @pytest.mark.rule("ATK-01", "DMG-02", "HLT-01")
    def test_turn_lines_one_fact_a_line(self):
        """The roll of test_small_fight_end_to_end, read by a screen reader: its dice and
        the track change in words, nothing indented, the prefix a word."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/screenreader on")
        self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3), \
                capture_msgs(self.char1, self.char2) as seen:
            self.cmd("+combat/act")
        said = "\n".join(seen[self.char1])
        self.assertEqual(drawn(said), [])
        self.assertIn("Char attack: Dexterity 3 + Brawl 2 = 5 vs 6: [8 7 6 2 1], result: "
                      "2 successes", said)
        self.assertIn("Thug takes 1 bashing (2 rolled, 1 soaked): Healthy to Bruised", said)
        self.assertNotIn("[Combat]", said)
        heard = "\n".join(seen[self.char2])  # char2's account did not ask: as before
        self.assertIn("  Thug takes 1 bashing (2 rolled, 1 soaked): Healthy -> Bruised", heard)


class SpotlightScreenReaderTest(ReaderCleanup, SpotTest):
    @pytest.mark.rule("SPOT-01", "SPOT-13")
    def test_spotlight_status_one_fact_a_line(self):
        """SPOT-01 initiative and SPOT-13 HP, said."""
        self.setup_fight()
        self.cmd("+combat/screenreader on")
        said = self.cmd("+combat").text
        self.assertEqual(drawn(said), [])
        self.assertIn("Char (PC): initiative 12; HP 6 of 6; 0 superficial, 0 aggravated;", said)
        self.assertIn("Order, highest first:", said)
        sheet = self.cmd("+sheet").text
        self.assertEqual(drawn(sheet), [])
        self.assertIn("Health: HP 6 of 6; 0 superficial, 0 aggravated.", sheet)
