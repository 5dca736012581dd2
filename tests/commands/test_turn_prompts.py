"""Who is told what, and when, as a d10 turn moves on (issue 28 item 3), through the real
command handler with exact dice. Rule IDs: ../shared/rules-catalog.md.

Set-up as ``EffectsTest.fight_in``: Char (staff, organizer) initiative 11, Char2 7, the NPC
Thug 5; or (``two``) Char and Char2 alone.
"""

import time

import pytest

from tests.commands.test_combat_effects import EffectsTest
from tests.fixed_dice import FixedDice
from tests.helpers import capture_msgs
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combat_service


class PromptTest(EffectsTest):
    def told(self, line, caller=None, dice=()):
        """What Char (the organizer) and Char2 each read while ``line`` runs."""
        with capture_msgs(self.char1, self.char2) as seen, self.dice(*dice):
            self.cmd(line, caller or self.char1)
        return "\n".join(seen[self.char1]), "\n".join(seen[self.char2])

    def two(self, pace):
        """Char (11) and Char2 (7), no NPC, into turn 1's declare phase."""
        self.cmd(f"+combat/start={pace}")
        self.player("+combat/join")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        self.cmd("+combat/next")


class TestFirstToDeclareIsTold(PromptTest):
    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_ahead_the_last_to_declare_is_told_again_first_in_turn_2(self):
        """TURN-01 in a fight paced ahead: Char2 (7) declares last in turn 1 (Char's was
        entered ahead), the turn resolves by itself (TURN-03), and Char2 is the first to
        declare in turn 2: he is told so, as he was in turn 1."""
        self.two("ahead")
        self.cmd("+combat/declare attack Char2")
        org, bob = self.told("+combat/declare other waits", self.char2, dice=(2,) * 5)
        self.assertIn("Turn 2: declare phase", bob)
        self.assertIn("Your turn to declare: +combat/declare <action>",
                      bob.split("Turn 2: declare phase")[-1])
        self.assertIn("Waiting for (declare): Char2", org.split("Turn 2: declare phase")[-1])

    @pytest.mark.rule("TURN-01")
    def test_slots_the_first_to_declare_in_turn_2_is_told(self):
        """TURN-01 slot by slot: Char2 acts last in turn 1 and declares first in turn 2."""
        self.two("slots")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        org, bob = self.told("+combat/act", self.char2)
        self.assertIn("Your turn to declare", bob.split("Turn 2: declare phase")[-1])


class TestNoStaleWait(PromptTest):
    @pytest.mark.rule("TURN-04", "TURN-01")
    def test_a_wait_the_turn_moved_past_is_not_told_after_the_new_turn(self):
        """TURN-04: Char2 and Thug idle through their slots (the clock delays them), then
        through the end of turn 1 (it passes them). In that one tick the turn waited for
        Thug's act after Char2's pass, then moved on to turn 2: the organizer reads "Turn 2:
        declare phase" and Thug's turn to declare, not "Waiting for (act): Thug" after it."""
        self.fight_in(" =slots")
        self.cmd("+combat/timeout 60")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        start = time.time()
        for after in (61, 200):  # Char2's slot, then Thug's: each is delayed
            combat_service.expire_due(combat_in(self.room1), now=start + after,
                                      rng=FixedDice())
        self.assertEqual([c.name for c in self.state().combatants if c.delayed],
                         ["Char2", "Thug"])
        with capture_msgs(self.char1) as seen:
            combat_service.expire_due(combat_in(self.room1), now=start + 400, rng=FixedDice())
        org = "\n".join(seen[self.char1])
        self.assertIn("Turn 2: declare phase", org)
        self.assertIn("Thug's turn to declare: +combat/declare Thug=<action>", org)
        self.assertNotIn("(act)", org.split("Turn 2: declare phase")[-1])
        self.assertNotIn("Waiting for (act)", org)


class TestOrganizerIsToldOnce(PromptTest):
    @pytest.mark.rule("TURN-03")
    def test_own_turn_and_npc_turn_are_not_repeated_as_a_wait(self):
        """TURN-03 slot by slot: the organizer (Char, 11) is told "Your turn to act" and not
        then "Waiting for (act): Char"; Thug's turn is told to him by name, not again as
        a wait; Char2's turn (another player's) is still a wait for him."""
        self.fight_in(" =slots")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        org, _ = self.told("+combat/declare other waits")
        self.assertIn("Your turn to act: +combat/act", org)
        self.assertNotIn("Waiting for (act)", org)
        org, bob = self.told("+combat/act")
        self.assertIn("Waiting for (act): Char2", org)
        self.assertIn("Your turn to act", bob)
        org, _ = self.told("+combat/act", self.char2)
        self.assertIn("Thug's turn to act: +combat/act Thug", org)
        self.assertNotIn("Waiting for (act)", org)

    @pytest.mark.rule("INIT-01", "INIT-02")
    def test_initiative_wait_names_the_others(self):
        """INIT-01/02: at the start the organizer is told his own roll, and the wait names
        only the others the turn waits for; once he is still pending from an earlier
        command, the wait names him "you", not by his own name."""
        out = self.cmd("+combat/start=slots").text
        self.assertIn("Your turn to roll initiative: +combat/init", out)
        self.assertNotIn("Waiting for (initiative)", out)
        org, bob = self.told("+combat/join", self.char2)
        self.assertIn("Your turn to roll initiative", bob)
        self.assertIn("Waiting for (initiative): you, Char2", org)
        self.assertNotIn("Char, Char2", org)


class TestLogLabels(PromptTest):
    @pytest.mark.rule("TURN-03")
    def test_a_new_turn_is_logged_at_the_end_of_the_turn_before(self):
        """+combat/log: "Everyone has acted in turn 1. Turn 2 begins." is turn 1's end, not
        a moment of turn 2's extra phase."""
        self.two("ahead")
        self.cmd("+combat/declare attack Char2")
        with self.dice(2, 2, 2, 2, 2):
            self.player("+combat/declare other waits")
        log = self.cmd("+combat/log 30").text
        line = next(ln for ln in log.splitlines() if "Everyone has acted in turn 1" in ln)
        self.assertRegex(line, r"^\s*\d+ t1 end\s+Everyone has acted in turn 1\. Turn 2 "
                               r"begins\.$")
        self.assertNotIn("t2 extra", log)
        self.assertRegex(log, r"t2 declare Turn 2: declare phase")


class TestDeclareTooEarly(PromptTest):
    @pytest.mark.rule("TURN-02")
    def test_declaring_in_the_initiative_phase_says_what_moves_the_fight_on(self):
        """TURN-02: a player who declares while initiative is still being rolled is told
        the phase and what moves it on, and nothing changes."""
        self.cmd("+combat/start")
        self.player("+combat/join")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        before = combat_in(self.room1).get_state().to_dict()
        out = self.player("+combat/declare attack Char").text
        self.assertIn("it is now the initiative phase of turn 1", out)
        self.assertIn("+combat/next", out)
        self.assertEqual(combat_in(self.room1).get_state().to_dict(), before)
