"""Conditions with durations played through +combat (issue 31), both engines, exact dice:
``+combat/mod Thug=blinded 2`` lasts this turn and the next (rounds under spotlight), shows
the turns left in +combat and on the fight page's JSON, ends with a line to the room, and
undo and replay reproduce it; without a number it lasts until removed. A bad number is
refused with what to type and changes nothing. COMP-01: attacks on a blinded target get
+2 dice while it lasts, and not after. The counting is the READING in rules/README.md.
"""

import json

import pytest
from django.test import Client
from django.test.utils import override_settings

from tests.commands.test_combat_effects import EffectsTest
from tests.commands.test_combat_spotlight import SpotTest
from tests.commands.test_combat_undo import UndoChecks
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import fight_view


class Snapshot:
    def snapshot_state(self):
        return json.dumps(combat_in(self.room1).get_state().to_dict(), sort_keys=True)

    def refused(self, line, *wanted):
        before = self.snapshot_state()
        text = self.cmd(line).text
        for w in wanted:
            self.assertIn(w, text)
        self.assertEqual(self.snapshot_state(), before, f"{line} changed the fight")

    def shown(self):
        """+combat, its wrapped lines joined (a long row wraps at 78 columns)."""
        return " ".join(self.cmd("+combat").text.split())

    def page_row(self, name):
        snap = fight_view.snapshot(combat_in(self.room1))
        return next(r for r in snap["rows"] if r["name"] == name)


@override_settings(WEBCLIENT_ENABLED=True, WEBSERVER_ENABLED=True)
class TestD10ConditionClock(Snapshot, UndoChecks, EffectsTest):
    def declare_all(self, char="other waits"):
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd(f"+combat/declare {char}")

    def act_all(self, *faces):
        """Char (11), Char2 (7), Thug (5) act; the last act's text (the turn's end)."""
        with self.dice(*faces):
            self.cmd("+combat/act")
        self.player("+combat/act")
        return self.cmd("+combat/act Thug").text

    @pytest.mark.rule("COMP-01", "PWR-05")
    def test_comp_01_blinded_2_counts_down_shows_and_ends_with_a_line(self):
        self.setup_fight()
        self.assertIn("Thug is blinded (turns 1 to 2).",
                      self.cmd("+combat/mod Thug=blinded 2").text)
        self.assertIn("(blinded: 2 turns left)", self.shown())
        self.assertEqual(self.page_row("Thug")["conditions"], ["blinded: 2 turns left"])
        self.assertEqual(self.page_row("Thug")["timers"], {"blinded": 2})
        staff = Client()
        staff.force_login(self.account)
        row = next(r for r in staff.get(f"/combat/{self.state().id}.json").json()["rows"]
                   if r["name"] == "Thug")
        self.assertEqual(row["conditions"], ["blinded: 2 turns left"])
        # Turn 1: Dex 3 + Brawl 2 and +2 dice on a blinded target: 7 dice, all 2s: a miss.
        self.declare_all("attack Thug")
        with self.dice(2, 2, 2, 2, 2, 2, 2):
            self.assertIn("target blinded +2 dice = 7 vs 6", self.cmd("+combat/act").text)
        self.player("+combat/act")
        end = self.cmd("+combat/act Thug").text
        self.assertEqual(self.state().turn, 2)
        self.assertNotIn("no longer blinded", end)
        self.assertIn("(blinded: last turn)", self.shown())
        # Turn 2, its last: when turn 3 begins the room is told.
        self.declare_all()
        end = self.act_all()
        self.assertEqual(self.state().turn, 3)
        self.assertIn("Thug is no longer blinded.", end)
        self.assertLess(end.index("Turn 3 begins."), end.index("Thug is no longer blinded."))
        self.assertNotIn("blinded", self.shown())
        self.assertEqual(self.page_row("Thug")["conditions"], [])
        # Turn 3: the attack has no bonus now.
        self.declare_all("attack Thug")
        with self.dice(2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("= 5 vs 6", text)
        self.assertNotIn("blinded", text)
        self.assert_replays()

    @pytest.mark.rule("COMP-01")
    def test_comp_01_undo_brings_an_expired_condition_back_and_replay_matches(self):
        self.setup_fight()
        self.cmd("+combat/mod Thug=blinded 1")
        self.declare_all()
        with self.dice():
            self.cmd("+combat/act")
        self.player("+combat/act")
        text = self.assert_undone("+combat/act Thug")  # the act that ended turn 1
        self.assertIn("undoes the last resolution", text)
        self.assertEqual(self.state().turn, 1)
        self.assertEqual([(k.name, k.until_turn) for k in self.who("Thug").conditions],
                         [("blinded", 1)])
        self.assertIn("Thug is no longer blinded.", self.cmd("+combat/act Thug").text)
        self.assertEqual(self.who("Thug").conditions, ())
        self.assert_replays()

    @pytest.mark.rule("COMP-01")
    def test_comp_01_without_a_number_it_lasts_until_removed(self):
        self.setup_fight()
        self.assertIn("Thug is blinded (from turn 1 on).",
                      self.cmd("+combat/mod Thug=blinded").text)
        for _ in range(2):
            self.declare_all()
            self.assertNotIn("no longer", self.act_all())
        self.assertIn("(blinded)", self.shown())
        self.assertIn("Thug is no longer blinded.", self.cmd("+combat/mod Thug=!blinded").text)

    def test_a_bad_number_is_refused_with_what_to_type(self):
        self.setup_fight()
        self.refused("+combat/mod Thug=blinded x", "'x' is not a number of turns",
                     "+combat/mod <name>=blinded 3")
        self.refused("+combat/mod Thug=blinded 0", "A condition lasts 1 to 20 turns, not 0",
                     "+combat/mod Bob=blinded 3")
        self.refused("+combat/mod Thug=blinded 999", "1 to 20 turns, not 999")
        self.refused("+combat/mod Thug=blinded 2.5", "a whole number of turns, not 2.5")
        self.refused("+combat/mod Thug=!blinded 2", "without a number")
        self.assertEqual(self.who("Thug").conditions, ())


class TestSpotlightConditionClock(Snapshot, UndoChecks, SpotTest):
    def next_round(self):
        """Char, then the Storyteller passes, Char2, then the round ends."""
        self.cmd("+combat/done")
        self.cmd("+combat/next")
        self.player("+combat/done")
        return self.cmd("+combat/next").text

    def test_blinded_2_counts_rounds_shows_and_ends_with_a_line(self):
        self.setup_fight()
        self.assertIn("Char2 is blinded (rounds 1 to 2).",
                      self.cmd("+combat/mod Char2=blinded 2").text)
        self.cmd("+combat/next")  # round 1
        self.assertEqual(self.state().round, 1)
        self.assertIn("Conditions: Char2 blinded: 2 rounds left", self.shown())
        self.assertEqual(self.page_row("Char2")["conditions"], ["blinded: 2 rounds left"])
        self.assertNotIn("no longer", self.next_round())
        self.assertEqual(self.state().round, 2)
        self.assertIn("Char2 blinded: last round", self.shown())
        end = self.next_round()
        self.assertEqual(self.state().round, 3)
        self.assertIn("Char2 is no longer blinded.", end)
        self.assertNotIn("Conditions:", self.shown())
        self.assertEqual(self.page_row("Char2")["conditions"], [])
        self.assert_replays()

    def test_undo_brings_it_back_and_until_removed_stays(self):
        self.setup_fight()
        self.cmd("+combat/mod Char2=blinded 1")
        self.assertIn("Char is prone (until removed).", self.cmd("+combat/mod Char=prone").text)
        self.cmd("+combat/next")
        self.cmd("+combat/done")
        self.cmd("+combat/next")
        self.player("+combat/done")
        self.assert_undone("+combat/next")  # the one that ends round 1
        self.assertEqual([k.name for k in self.fighter("Char2").conditions], ["blinded"])
        self.assertIn("Char2 is no longer blinded.", self.cmd("+combat/next").text)
        self.assertEqual([k.name for k in self.fighter("Char").conditions], ["prone"])
        self.assertIn("Char is no longer prone.", self.cmd("+combat/mod Char=!prone").text)
        self.assert_replays()

    def test_a_bad_condition_or_number_is_refused_with_what_to_type(self):
        self.setup_fight()
        self.refused("+combat/mod Char2=blinded x", "'x' is not a number of turns")
        self.refused("+combat/mod Char2=blinded 0", "1 to 20 rounds, not 0")
        self.refused("+combat/mod Char2=blinded 999", "1 to 20 rounds, not 999")
        self.refused("+combat/mod Char2=sleepy 2", "not a condition here. Conditions: blinded")
        self.refused("+combat/mod Char2=!blinded", "Char2 is not blinded")
        self.assertIn("Only the organizer", self.player("+combat/mod Char=blinded 2").text)
        self.assertEqual(self.fighter("Char").conditions, ())
