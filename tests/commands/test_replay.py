"""A fight played through +combat replays from its log (issue 8): the same intents with the
same dice and sheets give the same events, state and room text; a changed die is found."""

import json
from unittest import mock

import pytest

from tests.commands.test_combat import CombatTest
from tests.commands.test_combat_spotlight import SpotTest
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combat_replay, combatlog, rulebook


def rules(name):
    return rulebook.get(name)


class TestReplay(CombatTest):
    def play(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/declare dodge")
        self.cmd("+combat/declare attack Thug")
        with self.dice(*[8, 8, 8, 2, 2] + [9] * 12):
            self.assertIn("Char attacks Thug", self.cmd("+combat/act").text)
        with self.dice(*[7, 7, 2, 2, 3, 3] + [9] * 12):
            self.assertIn("Thug attacks Char2", self.cmd("+combat/act Thug").text)
        self.cmd("+combat/damage Char2=1 bashing")
        return combatlog.read(combat_in(self.room1).combat_id)

    def test_a_played_fight_replays_identically(self):
        records = self.play()
        report = combat_replay.replay(records, rules)
        self.assertTrue(report.ok, str(report.difference))
        self.assertEqual(report.commands, sum(r["event"] == "intent" for r in records))
        self.assertGreater(report.commands, 8)

    def test_a_changed_die_is_the_first_difference(self):
        records = self.play()
        asked = [r for r in records if r["event"] == "intent" and r["dice"]]
        attack = next(r for r in asked if r["intent"]["intent"] == "act")
        attack["dice"][0] = 2  # the attack's first die: a success becomes a failure
        report = combat_replay.replay(json.loads(json.dumps(records)), rules)
        self.assertFalse(report.ok)
        self.assertEqual(report.difference.what, "events")
        self.assertGreater(report.difference.seq, attack["seq"])

    def test_the_log_keeps_what_the_room_read(self):
        records = self.play()
        staff = next(r for r in records if r["event"] == "intent"
                     and r["intent"]["intent"] == "damage")
        self.assertIn("Char2 takes 1 bashing (by Char)", staff["text"])


class TestSpotlightReplay(SpotTest):
    def test_a_spotlight_fight_replays_identically(self):
        self.setup_fight()
        self.cmd("+combat/next")
        self.cmd("+combat/move Thug=closer")
        # V5: 3 against Thug's 0 (issue 10), Thug fighting back with his knife (issue 31)
        with self.dice(8, 6, 3, 1, 10, 2, 2, 2, 2):
            self.assertIn("3 superficial harm", self.cmd("+combat/act attack Thug").text)
        self.cmd("+combat/done")
        self.cmd("+combat/damage Thug=1 aggravated")
        records = combatlog.read(combat_in(self.room1).combat_id)
        report = combat_replay.replay(records, rules)
        self.assertTrue(report.ok, str(report.difference))
        self.assertGreater(report.commands, 6)


    @pytest.mark.rule("SPOT-11")
    def test_a_willpower_reroll_replays_identically(self):
        """Issue 31: the V5 Willpower reroll (SPOT-11) is logged and replays like any
        other command."""
        self.setup_fight()
        self.cmd("+combat/next")
        self.cmd("+combat/move Thug=closer")
        with self.dice(2, 2, 3, 1, 2, 2, 2, 2, 2):
            self.assertIn("Thug is not harmed", self.cmd("+combat/act attack Thug").text)
        with self.dice(8, 9):
            out = self.cmd("+combat/reroll 1,2").text
        self.assertIn("rerolls 1, 2: [2 2] -> [8 9]", out)
        records = combatlog.read(combat_in(self.room1).combat_id)
        report = combat_replay.replay(records, rules)
        self.assertTrue(report.ok, str(report.difference))


class TestReplayAcrossTheEnd(CombatTest):
    def test_a_fight_with_its_end_summary_replays(self):
        self.setup_fight()
        self.cmd("+combat/damage Char2=2 lethal")
        records_of = combatlog.read
        script = combat_in(self.room1)
        combat_id = script.combat_id
        self.cmd("+combat/end")
        report = combat_replay.replay(records_of(combat_id), rules)
        self.assertTrue(report.ok, str(report.difference))


class TestSheetsCarriedForward(TestReplay):
    """Issue 13: a sheet is logged when the log does not already say what it is (the first
    read, or after a change outside the fight's commands); replay carries it forward."""

    def intents(self, records):
        return [r for r in records if r["event"] == "intent"]

    def test_each_sheet_is_logged_once_while_only_the_fight_changes_it(self):
        records = self.play()
        logged = [k for r in self.intents(records) for k in r.get("sheets", {})]
        self.assertEqual(sorted(logged), sorted(set(logged)))  # each once: at its join
        self.assertEqual(len(logged), 3)
        self.assertTrue(all(r["sheets_carried"] for r in self.intents(records)))
        acts = [r for r in self.intents(records) if r["intent"]["intent"] == "act"]
        self.assertEqual([r["sheets"] for r in acts], [{}, {}])
        self.assertTrue(combat_replay.replay(records, rules).ok)

    def test_a_sheet_changed_outside_the_fight_is_logged_again(self):
        self.play()
        self.cmd("+sheet/set Char2/dexterity=4")  # staff, between two commands of the fight
        self.cmd("+combat/damage Char2=1 bashing")
        records = combatlog.read(combat_in(self.room1).combat_id)
        last = self.intents(records)[-1]
        self.assertEqual(list(last["sheets"]), [f"#{self.char2.id}"])
        self.assertEqual(last["sheets"][f"#{self.char2.id}"]["traits"]["Dexterity"], 4)
        report = combat_replay.replay(records, rules)
        self.assertTrue(report.ok, str(report.difference))

    def test_after_a_reload_the_next_command_logs_what_it_reads(self):
        self.play()
        combat_in(self.room1).forget_cache()  # what a reload does to memory
        self.cmd("+combat/damage Char2=1 bashing")
        records = combatlog.read(combat_in(self.room1).combat_id)
        self.assertEqual(list(self.intents(records)[-1]["sheets"]), [f"#{self.char2.id}"])
        self.assertTrue(combat_replay.replay(records, rules).ok)

    def test_a_sheet_the_replay_carries_wrongly_is_a_difference(self):
        records = self.play()
        first = self.intents(records)[1]  # Char2's join logged Char2's sheet
        sheet = first["sheets"][f"#{self.char2.id}"]
        sheet["traits"]["Dexterity"] = 1  # as if the log had it wrong
        report = combat_replay.replay(json.loads(json.dumps(records)), rules)
        self.assertFalse(report.ok)

    def test_a_log_written_before_sheets_were_carried_replays(self):
        """Records of the old form log every sheet read and no ``sheets_carried``."""
        with mock.patch("wodcombat.world.sheet_log.known", lambda script: {}):  # every read logged
            records = self.play()
        for r in self.intents(records):
            del r["sheets_carried"]
        self.assertIn(f"#{self.char2.id}", self.intents(records)[-2]["sheets"])
        report = combat_replay.replay(json.loads(json.dumps(records)), rules)
        self.assertTrue(report.ok, str(report.difference))


class TestRecordTexts(TestReplay):
    def test_an_event_is_logged_as_its_dict_would_be(self):
        """Issue 13: the engine's events are encoded from their fields; the text is the one
        json.dumps gives for the record built from the event's dict (replay's way)."""
        from wodcombat.combat.core.events import Event

        records = self.play()
        events = [Event.from_dict(combatlog.event_of(r).to_dict()) for r in records
                  if r["event"] not in ("intent", "start")]
        events.append(Event("turn", {"turn": 3}))  # fields named as the record's own
        events.append(Event("act", {"turn": "extra", "phase": "main", "x": (1, 2)}))
        events.append(Event("note", {}))
        args = ("cid-1", "numetal", 2, "declare")
        fast = combatlog.texts(*args, events, seq=7, now=1796250796.5184)
        slow = combatlog.texts(*args, [e.to_dict() for e in events], seq=7,
                               now=1796250796.5184)
        self.assertEqual(fast, slow)
        self.assertEqual([json.dumps(json.loads(t)) for t in fast], fast)
