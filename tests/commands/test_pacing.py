"""Pacing (issue 11) played through +combat with exact dice: declarations and actions entered
ahead of the slot are revealed and resolved in it (TURN-01 low to high, TURN-03 high to low);
a declared action with nothing left to choose resolves by itself.

Set-up as ``CombatTest.setup_fight`` with ``=ahead``: Char (staff, organizer) initiative 11,
Char2 7, the NPC Thug 5. Rule IDs: ../shared/rules-catalog.md.
"""

from unittest import mock

import pytest
from django.test import override_settings

from tests.commands.test_combat_effects import EffectsTest
from tests.helpers import capture_msgs
from wodcombat import conf


class AheadTest(EffectsTest):
    def setup_ahead(self, options="ahead"):
        self.assertIn("choices entered ahead", self.fight_in(f" ={options}"))


class TestDeclareAhead(AheadTest):
    @pytest.mark.rule("TURN-01")
    def test_declaration_ahead_is_hidden_then_revealed_in_order(self):
        """TURN-01: Char (11) declares before Thug (5) and Char2 (7); it stays hidden and is
        revealed after theirs, low to high."""
        self.setup_ahead()
        with capture_msgs(self.char1, self.char2) as seen:
            self.cmd("+combat/declare attack Thug")
        me = "\n".join(seen[self.char1])
        self.assertIn("You have declared ahead; it will be revealed in your slot.", me)
        self.assertIn("Char has declared ahead", "\n".join(seen[self.char2]))
        self.assertNotIn("attack Thug", "\n".join(seen[self.char2]))
        self.assertFalse(self.who("Char").declared)
        self.assertNotIn("attack Thug", self.player("+combat").text)
        self.assertIn("[ahead]", self.player("+combat").text)
        self.player("+combat/declare other waits")  # ahead too: Thug is still first
        self.assertEqual([e["actor"] for e in self.events("declare")], [])
        # Thug's declaration reveals Char2's, then Char's; nothing is left to choose, so the
        # actions resolve high to low (TURN-03): Char's attack [2 2 2 2 2] misses.
        with self.dice(2, 2, 2, 2, 2):
            self.cmd("+combat/declare Thug=other growls")
        order = [e["actor"] for e in self.events("declare")]
        self.assertEqual(order, [self.key("Thug"), self.key("Char2"), self.key("Char")])
        acted = [e["actor"] for e in self.events("act")]
        self.assertEqual(acted, [self.key("Char"), self.key("Char2"), self.key("Thug")])
        self.assertEqual((self.state().turn, self.state().phase), (2, "declare"))


class TestWholeFightNobodyActs(AheadTest):
    @pytest.mark.rule("TURN-01", "TURN-03", "ATK-01", "DMG-01", "DEF-02", "HLT-02")
    def test_whole_fight_without_act(self):
        """Two turns and the end, nobody types +combat/act: declarations are entered ahead,
        revealed low to high and resolved high to low; the summary names who went down."""
        self.setup_ahead()
        self.cmd("+combat/declare attack Thug")
        self.player("+combat/dodge")
        # Char: [8 7 6 2 1] = 2, damage 4 [9 6 3 2] = 2, Thug soaks [7 3] = 1: 1 bashing.
        # Thug: [6 6 2 2] = 2, Char2 dodges [8 4 3] = 1: 1 net; damage [9 2 2] = 1, soak
        # [2 2] = 0: 1 bashing on Char2.
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3, 6, 6, 2, 2, 8, 4, 3, 9, 2, 2, 2, 2):
            out = self.cmd("+combat/declare Thug=attack Char2").text
        self.assertLess(out.index("Char attacks Thug"), out.index("Thug attacks Char2"))
        self.assertIn("Char2 takes 1 bashing", out)
        self.assertEqual((self.state().turn, self.state().phase), (2, "declare"))
        # Turn 2: Char [10 10 10 10 10] = 5; damage 3 + 4 = 7 [10 x7]; soak [2 2]: Thug down.
        self.cmd("+combat/declare attack Thug")
        self.player("+combat/declare other waits")
        with self.dice(10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 2, 2):
            out = self.cmd("+combat/declare Thug=attack Char2").text
        self.assertIn("Thug takes 7 bashing (7 rolled, 0 soaked): Bruised -> Incapacitated", out)
        self.assertIn("Thug is DEAD", out)
        self.assertEqual(out.count("Waiting for (declare): Char2"), 1)
        self.assertIn("Char2 acts: waits", out)
        self.assertEqual(self.state().turn, 3)
        kinds = [r["intent"]["intent"] for r in self.log() if r["event"] == "intent"]
        self.assertNotIn("act", kinds)
        out = self.cmd("+combat/end").text
        self.assertIn("Fight summary (3 turns)", out)
        self.assertIn("Down: Thug (dead)", out)
        self.assertIn("Dealt (levels): Char 8", out)


class TestActAndDelayAhead(AheadTest):
    @pytest.mark.rule("TURN-03", "TURN-04")
    def test_delay_ahead_then_act_at_the_end(self):
        """TURN-04 entered ahead: Char (11) delays when the slot comes, the others resolve by
        themselves (TURN-03), and Char acts last with +combat/act."""
        self.setup_ahead()
        self.cmd("+combat/declare attack Thug")
        with capture_msgs(self.char1) as seen:
            self.cmd("+combat/delay")
        self.assertIn("You will delay when your slot comes", "\n".join(seen[self.char1]))
        self.player("+combat/declare other waits")
        self.assertIn("Your action is queued; it resolves in your slot.",
                      self.player("+combat/act").text)
        with capture_msgs(self.char1) as seen:
            self.cmd("+combat/declare Thug=other growls")
        self.assertIn("Your turn to act", "\n".join(seen[self.char1]))
        self.assertEqual([e["actor"] for e in self.events("act")],
                         [self.key("Char2"), self.key("Thug")])
        self.assertTrue(self.who("Char").delayed)
        with self.dice(2, 2, 2, 2, 2):  # Dex 3 + Brawl 2: [2 2 2 2 2] misses
            self.assertIn("Miss.", self.cmd("+combat/act").text)
        self.assertEqual((self.state().turn, self.state().phase), (2, "declare"))

    @pytest.mark.rule("TURN-01", "TURN-02")
    def test_refused_ahead_changes_nothing_and_pass_ahead(self):
        """A declaration entered ahead is checked at once: a weapon not carried is refused
        and nothing is kept; a pass entered ahead is revealed in its slot."""
        self.setup_ahead()
        before = self.state()
        self.assertIn("carry no", self.player("+combat/declare attack Thug with knife").text)
        self.assertEqual(self.state(), before)
        self.assertIn("declared ahead", self.player("+combat/pass").text)
        self.cmd("+combat/declare Thug=other growls")
        self.assertEqual([e["actor"] for e in self.events("skip")], [self.key("Char2")])
        self.assertEqual(self.state().phase, "declare")  # Char's slot: nothing kept ahead

    @pytest.mark.rule("INIT-02", "TURN-01")
    def test_npc_group_init_and_declared_ahead_at_once(self):
        """Staff run a group: +combat/init Rat1,Rat2,Rat3=4 and one declaration for all,
        kept ahead and revealed each in its own slot."""
        self.assertIn("choices entered ahead", self.cmd("+combat/start =ahead").text)
        self.cmd("+combat/npc 3 Rat=thug")
        with self.dice(5, 1, 9, 2):
            self.cmd("+combat/init")
            out = self.cmd("+combat/init Rat1,Rat2,Rat3=4").text
        self.assertIn("Rat3 rolls initiative: rating 4 + [2] = 6", out)
        self.cmd("+combat/next")  # declaring: Rat1 5, Rat3 6, Char 11, Rat2 13
        out = self.cmd("+combat/declare Rat1,Rat2,Rat3=other squeak").text
        self.assertIn("Rat1 declares: other: squeak", out)
        self.assertIn("Rat2 has declared ahead", out)
        self.assertEqual([e["actor"] for e in self.events("declare")],
                         [self.key("Rat1"), self.key("Rat3")])
        self.assertTrue(self.who("Rat2").ahead_declare)


class TestDefaultPace(AheadTest):
    """Issue 28: a fight is paced ahead unless /start or +combat/pace says slots; the game's
    default is the admin setting WODCOMBAT_DEFAULT_PACE."""

    @pytest.mark.rule("TURN-01")
    def test_a_plain_start_is_paced_ahead(self):
        """TURN-01 by default: Char (11) declares before Thug (5) and Char2 (7): kept for
        his slot, not refused as "Not your turn"."""
        self.assertIn("choices entered ahead", self.fight_in(""))
        self.assertTrue(self.state().options.ahead)
        out = self.cmd("+combat/declare attack Thug").text
        self.assertIn("You have declared ahead; it will be revealed in your slot.", out)
        self.assertTrue(self.who("Char").ahead_declare)

    @pytest.mark.rule("TURN-01")
    def test_slots_at_start_and_by_pace(self):
        """TURN-01 slot by slot: =slots at /start; +combat/pace slots (or slot) and ahead
        switch a running fight."""
        self.assertNotIn("choices entered ahead", self.fight_in(" =slots"))
        self.assertFalse(self.state().options.ahead)
        self.assertIn("Not your turn to declare", self.cmd("+combat/declare attack Thug").text)
        self.assertIn("paces the fight ahead", self.cmd("+combat/pace ahead").text)
        self.assertTrue(self.state().options.ahead)
        self.assertIn("slot by slot", self.cmd("+combat/pace slots").text)
        self.assertFalse(self.state().options.ahead)
        self.cmd("+combat/pace ahead")
        self.cmd("+combat/pace slot")  # the word before issue 28, kept
        self.assertFalse(self.state().options.ahead)
        before = self.state()
        self.assertIn("+combat/pace slots (each in your slot)",
                      self.cmd("+combat/pace fast").text)
        self.assertIn("Only the organizer or staff", self.player("+combat/pace ahead").text)
        self.assertEqual(self.state(), before)

    def test_start_options_and_a_clash(self):
        """=reroll,slots combine; ahead and slots together are refused with /start's form."""
        out = self.cmd("+combat/start=ahead,slots").text
        self.assertIn("Usage: +combat/start [<ruleset>][=simple|reroll|slots]", out)
        self.assertIsNone(combat_in_room(self))
        self.cmd("+combat/start revised=slot")
        self.assertEqual(self.state().ruleset, "revised")
        self.assertFalse(self.state().options.ahead)

    @override_settings(WODCOMBAT_DEFAULT_PACE="slots")
    def test_the_setting_names_the_default(self):
        self.assertNotIn("choices entered ahead", self.fight_in(""))
        self.assertFalse(self.state().options.ahead)
        self.cmd("+combat/end")
        self.assertIn("choices entered ahead", self.cmd("+combat/start=ahead").text)

    def test_spotlight_takes_no_pace(self):
        """The spotlight goes from one to the next: the d10 default does not reach it, and
        =ahead is refused as the d10 options are."""
        self.assertIn("spotlight engine", self.cmd("+combat/start spotlight").text)
        self.cmd("+combat/end")
        out = self.cmd("+combat/start spotlight=ahead").text
        self.assertIn("A spotlight fight has no modes (=simple, =reroll, =ahead", out)

    def test_a_wrong_setting_is_named(self):
        from wodcombat import startstop

        with override_settings(WODCOMBAT_DEFAULT_PACE="fast"):
            with self.assertRaises(conf.SettingError) as err:
                conf.default_pace()
            self.assertIn("settings.WODCOMBAT_DEFAULT_PACE = 'fast': write 'ahead'",
                          str(err.exception))
            with mock.patch("evennia.utils.logger.log_trace") as trace:
                self.assertIn("nothing was changed", self.cmd("+combat/start").text)
            self.assertTrue(trace.called)
            with mock.patch("evennia.utils.logger.log_err") as log_err:
                startstop.check_settings()
        logged = "\n".join(c.args[0] for c in log_err.call_args_list)
        self.assertIn("settings.WODCOMBAT_DEFAULT_PACE = 'fast'", logged)
        self.assertIsNone(combat_in_room(self))


class TestLateAndIdle(EffectsTest):
    @pytest.mark.rule("INIT-01")
    def test_late_init_says_it_counts_from_next_turn(self):
        self.cmd("+combat/start")
        with self.dice(5):
            self.cmd("+combat/init")
        self.cmd("+combat/next")
        self.player("+combat/join")
        with self.dice(3):
            out = self.player("+combat/init").text
        self.assertIn("rating 4 + [3] = 7 (too late for this turn: it counts from turn 2)",
                      out)

    @pytest.mark.rule("INIT-01")
    def test_idle_initiative_is_rolled_not_passed(self):
        """Issue 11: the idle default for a missing initiative is a roll from the sheet."""
        import time

        from wodcombat.world import combat_service
        from tests.fixed_dice import FixedDice

        self.cmd("+combat/start")
        self.player("+combat/join")
        self.cmd("+combat/timeout 60")
        with self.dice(5):
            self.cmd("+combat/init")
        script = combat_in_room(self)
        done = combat_service.expire_due(script, now=time.time() + 61, rng=FixedDice(3))
        self.assertIn("Time is up for Char2 (initiative): the game rolls their initiative",
                      done.text)
        self.assertEqual(self.who("Char2").init_total, 7)
        self.assertEqual(self.who("Char2").joined_turn, 1)


class TestMockFight(EffectsTest):
    @pytest.mark.rule("DMG-01")
    def test_mock_fight_puts_every_sheet_back(self):
        before = self.char2.sheet.get()
        out = self.cmd("+combat/start/mock").text
        self.assertIn("A MOCK fight", out)
        self.player("+combat/join")
        self.cmd("+combat/damage Char2=3 lethal")
        self.assertEqual(self.char2.sheet.get().health["lethal"], 3)
        out = self.cmd("+combat/end").text
        self.assertIn("A mock fight: every sheet is as it was before it.", out)
        self.assertEqual(self.char2.sheet.get(), before)
        self.assertIn("does not go with", self.cmd("+combat/declare/mock dodge").text)
        self.assertIn("does not go with", self.cmd("+combat/start/wp").text)


def combat_in_room(test):
    from wodcombat.typeclasses.combat import combat_in

    return combat_in(test.room1)
