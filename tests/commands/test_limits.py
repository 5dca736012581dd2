"""Issue 30: no player can stall the server. NPCs per command (both forms of +combat/npc)
and per fight, combatants per fight, previews queued at once, characters of one reply:
each a setting, each refusal naming the limit and changing nothing. Through the real
command handler (char1 staff and organizer, char2 a plain player)."""

import threading
from unittest import mock

from django.conf import settings

from wodcombat.combat.core.errors import IllegalAction
from wodcombat.commands import combat_odds
from wodcombat.commands.combat_odds import OddsSwitches
from tests.commands.test_combat import CombatTest, make_sheet
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combat_service
from wodcombat.world.preview_queue import Busy, PreviewQueue


class LimitsTest(CombatTest):
    def snapshot(self):
        """What a refused command must leave as it was: the fight and the room."""
        return (combat_in(self.room1).get_state().to_dict(),
                sorted(o.id for o in self.room1.contents))

    def npc_names(self):
        return [c.name for c in self.state().combatants if c.is_npc]


class TestNpcsPerCommand(LimitsTest):
    def test_the_defaults_are_the_settings_of_the_game(self):
        self.assertEqual((settings.WODCOMBAT_MAX_NPCS_PER_COMMAND,
                          settings.WODCOMBAT_MAX_NPCS_PER_FIGHT,
                          settings.WODCOMBAT_MAX_COMBATANTS, settings.WODCOMBAT_ODDS_QUEUE,
                          settings.WODCOMBAT_MAX_OUTPUT), (20, 100, 120, 20, 16000))

    def test_a_comma_list_over_the_cap_makes_nothing(self):
        self.cmd("+combat/start")
        before = self.snapshot()
        names = ",".join(f"R{i}" for i in range(21))
        out = self.cmd(f"+combat/npc {names}=thug").text
        self.assertIn("At most 20 NPCs are made at once (21 named)", out)
        self.assertIn("another +combat/npc", out)
        self.assertEqual(self.snapshot(), before)
        self.assertIn("from 1 to 20", self.cmd("+combat/npc 21 Rat=thug").text)
        self.assertEqual(self.snapshot(), before)

    def test_the_cap_is_the_setting_for_both_forms(self):
        self.cmd("+combat/start")
        with self.settings(WODCOMBAT_MAX_NPCS_PER_COMMAND=2):
            before = self.snapshot()
            self.assertIn("At most 2 NPCs are made at once (3 named)",
                          self.cmd("+combat/npc A,B,C=thug").text)
            self.assertIn("Make from 1 to 2 NPCs at once", self.cmd("+combat/npc 3 R=thug").text)
            self.assertEqual(self.snapshot(), before)
            self.assertIn("B joins", self.cmd("+combat/npc A,B=thug").text)
        self.assertEqual(self.npc_names(), ["A", "B"])


class TestPerFight(LimitsTest):
    def test_npcs_per_fight_across_several_commands(self):
        self.cmd("+combat/start")
        with self.settings(WODCOMBAT_MAX_NPCS_PER_FIGHT=5):
            self.cmd("+combat/npc 3 Rat=thug")
            before = self.snapshot()
            out = self.cmd("+combat/npc Bat1,Bat2,Bat3=thug").text
            self.assertIn("A fight holds at most 5 NPCs and this one has 3 (2 more can join)",
                          out)
            self.assertEqual(self.snapshot(), before)
            self.cmd("+combat/npc 2 Bat=thug")
            before = self.snapshot()
            self.assertIn("at most 5 NPCs and this one has 5 (0 more",
                          self.cmd("+combat/npc Cat=thug").text)
            self.assertEqual(self.snapshot(), before)
        self.assertEqual(self.npc_names(), ["Rat1", "Rat2", "Rat3", "Bat1", "Bat2"])

    def test_combatants_per_fight_hold_for_join_and_npcs(self):
        self.cmd("+combat/start")
        with self.settings(WODCOMBAT_MAX_COMBATANTS=3):
            self.cmd("+combat/npc 2 Rat=thug")  # the organizer and two NPCs: full
            before = self.snapshot()
            out = self.player("+combat/join").text
            self.assertIn("A fight holds at most 3 combatants and this one has 3", out)
            self.assertIn("at most 3 combatants", self.cmd("+combat/npc Cat=thug").text)
            self.assertEqual(self.snapshot(), before)
            self.assertIn("already in", self.cmd("+combat/join").text)  # not "full"
            self.cmd("+combat/kick Rat2")
            self.assertIn("Char2 joins", self.player("+combat/join").text)
        self.assertEqual(len(self.state().combatants), 3)

    def test_the_service_refuses_whoever_calls_it(self):
        """The web page or a script adding NPCs meets the same caps as the command."""
        self.cmd("+combat/start")
        script = combat_in(self.room1)
        sheet = make_sheet(dexterity=2, wits=2)
        with self.settings(WODCOMBAT_MAX_NPCS_PER_FIGHT=1):
            combat_service.add_npc(script, "Rat", sheet, self.key_of(self.char1),
                                   self.rng())
            before = self.snapshot()
            with self.assertRaisesRegex(IllegalAction, "at most 1 NPCs"):
                combat_service.add_npc(script, "Bat", sheet, self.key_of(self.char1),
                                       self.rng())
            with self.assertRaisesRegex(IllegalAction, "at most 1 NPCs"):
                combat_service.add_npcs(script, ["Cat", "Dog"], sheet,
                                        self.key_of(self.char1), self.rng())
            self.assertEqual(self.snapshot(), before)

    def key_of(self, obj):
        return f"#{obj.id}"

    def rng(self):
        import random

        return random.Random(1)


def blocked_queue(limit: int):
    """A queue whose first ``limit`` jobs wait for ``gate``; what they return, in order."""
    q = PreviewQueue(lambda: limit, what="previews")
    gate, finished, all_done = threading.Event(), [], threading.Event()

    def job(i):
        def work():
            gate.wait(10)
            return i
        return work

    def done(i):
        finished.append(i)
        if len(finished) == limit:
            all_done.set()

    for i in range(limit):
        q.submit(job(i), done, lambda err: None)
    return q, gate, finished, all_done


class TestPreviewQueue:
    def test_full_queue_is_busy_then_serves_in_order(self):
        q, gate, finished, all_done = blocked_queue(20)
        assert q.pending() == 20
        try:
            q.submit(lambda: 99, finished.append, lambda err: None)
        except Busy as err:
            assert "busy: 20 previews are running or waiting (at most 20)" in str(err)
        else:
            raise AssertionError("the 21st job was queued")
        gate.set()
        assert all_done.wait(10)
        assert finished == list(range(20))
        assert q.pending() == 0

    def test_a_failed_job_frees_its_slot(self):
        q = PreviewQueue(lambda: 1, what="previews")
        failed, told = threading.Event(), []

        def boom():
            raise ValueError("no")

        q.submit(boom, told.append, lambda err: (told.append(err), failed.set()))
        assert failed.wait(10)
        assert isinstance(told[0], ValueError)
        assert q.pending() == 0
        answered = threading.Event()
        q.submit(lambda: 7, lambda v: (told.append(v), answered.set()), lambda err: None)
        assert answered.wait(10)
        assert told[-1] == 7

    def test_run_here_holds_a_slot_and_is_refused_when_full(self):
        q = PreviewQueue(lambda: 1, what="previews")
        assert q.run_here(lambda: q.pending()) == 1
        assert q.pending() == 0
        q, gate, _, all_done = blocked_queue(1)
        try:
            q.run_here(lambda: 1)
        except Busy:
            pass
        else:
            raise AssertionError("ran past a full queue")
        finally:
            gate.set()
        assert all_done.wait(10)


class TestBusyPreview(CombatTest):
    def test_the_21st_preview_is_answered_busy(self):
        q, gate, finished, all_done = blocked_queue(settings.WODCOMBAT_ODDS_QUEUE)
        with mock.patch.object(combat_odds, "PREVIEWS", q), \
                mock.patch.object(OddsSwitches, "odds_seed", 5):
            try:
                out = self.cmd("+combat/odds thug=gunman/5").text
            finally:
                gate.set()
            self.assertIn("Previews are busy: 20 previews are running or waiting (at most "
                          "20); try again once one has answered.", " ".join(out.split()))
            self.assertNotIn("Odds (simulated)", out)
            self.assertTrue(all_done.wait(10))
            self.assertIn("Odds (simulated)", self.cmd("+combat/odds thug=gunman/5").text)


class TestOutputCap(CombatTest):
    def test_a_reply_over_the_cap_is_cut_at_a_line_with_a_note(self):
        whole = self.cmd("+combat/templates").text
        self.assertNotIn("left out", whole)
        self.assertGreater(len(whole), 600)
        with self.settings(WODCOMBAT_MAX_OUTPUT=400):
            cut = self.cmd("+combat/templates").text
        kept, note = cut.split("... ", 1)
        self.assertLessEqual(len(kept), 400)
        self.assertTrue(whole.startswith(kept))  # whole lines, the first ones
        left = len(whole.splitlines()) - len(kept.rstrip("\n").splitlines())
        self.assertIn(f"{left} more lines left out (a reply stops at 400 characters); "
                      f"help +combat shows narrower forms.", " ".join(note.split()))
        self.assertTrue(all(len(line) <= 78 for line in cut.splitlines()), cut)

    def test_the_status_of_a_fight_says_where_the_rest_is(self):
        self.setup_fight()
        script = combat_in(self.room1)
        with self.settings(WODCOMBAT_MAX_OUTPUT=200):
            out = self.cmd("+combat").text
        self.assertIn(f"the fight's web page, /combat/{script.combat_id}/, shows everyone",
                      " ".join(out.split()))
        with self.settings(WODCOMBAT_MAX_OUTPUT=200):
            out = self.cmd("+combat/log 50").text
        self.assertIn("+combat/log <fewer entries> shows the latest", " ".join(out.split()))
