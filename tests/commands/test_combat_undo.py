"""+combat/undo (issue 14): the organizer reverts the last resolution exactly (state, sheets,
points spent), the log keeps both the resolution and its undo, and undoing again walks back
within the turn. Both engines. Set-up numbers: tests/commands/test_combat_effects.py and
tests/commands/test_combat_spotlight.py."""

import json

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest
from tests.commands.test_combat_spotlight import SpotTest
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combat_replay, combatlog, rulebook


class UndoChecks:
    chars = ()

    def snapshot(self):
        script = combat_in(self.room1)
        objs = [o for o in self.room1.contents if hasattr(o, "sheet")]
        return (json.dumps(script.get_state().to_dict(), sort_keys=True),
                {o.key: o.sheet.get().to_dict() for o in objs})

    def assert_undone(self, line, caller=None):
        before = self.snapshot()
        out = self.cmd(line, caller=caller).text
        self.assertNotIn("went wrong", out)
        self.assertNotEqual(self.snapshot(), before, f"{line} changed nothing to undo")
        text = self.cmd("+combat/undo").text
        self.assertIn("undoes the last resolution", text)
        self.assertEqual(self.snapshot(), before)
        records = combatlog.read(combat_in(self.room1).combat_id)
        undo = records[-1] if records[-1]["event"] == "undo" else next(
            r for r in reversed(records) if r["event"] == "undo")
        asked = next(r for r in records if r["seq"] == undo["undone"])
        self.assertEqual(asked["event"], "intent")  # the resolution stays in the log
        return text

    def assert_replays(self):
        records = combatlog.read(combat_in(self.room1).combat_id)
        report = combat_replay.replay(records, rulebook.get)
        self.assertTrue(report.ok, str(report.difference))


class TestUndoD10(UndoChecks, EffectsTest):
    def test_attack_with_damage_soak_and_outcome(self):
        self.to_act(thug_action="other growls", char2_action="pass",
                    char_action="attack Thug")
        self.cmd("+combat/damage Thug=5 bashing")  # one more level incapacitates
        with self.dice(8, 8, 8, 2, 2, *[9] * 10):
            text = self.assert_undone("+combat/act")
        self.assertIn("Char attacks Thug", text)
        self.assertEqual(self.who("Thug").outcome, "")
        self.assert_replays()

    def test_spend(self):
        self.char2.sheet.save(make_sheet(splat="vampire", generation=10, strength=2,
                                         dexterity=2, wits=2, stamina=2))
        self.setup_fight()
        self.cmd("+combat/declare Thug=pass")
        self.assert_undone("+combat/declare spend blood 1; dodge", caller=self.char2)
        self.assertFalse(self.who("Char2").declared)

    def test_staff_damage_and_heal(self):
        self.setup_fight()
        self.assert_undone("+combat/damage Char2=3 lethal")
        self.cmd("+combat/damage Char2=3 lethal")
        self.assert_undone("+combat/heal Char2=2 lethal")
        self.assert_replays()

    def test_condition(self):
        self.setup_fight()
        self.assert_undone("+combat/mod Thug=prone")

    def test_undo_walks_back_within_the_turn_and_no_further(self):
        self.setup_fight()
        start = self.snapshot()
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/declare dodge")
        self.cmd("+combat/undo")
        self.cmd("+combat/undo")
        self.assertEqual(self.snapshot(), start)
        # next back: the organizer's /next, then the initiative rolls and the joins, all in
        # turn 1; the fight's start is not undone (+combat/end ends a fight)
        self.cmd("+combat/undo")
        self.assertEqual(self.state().phase, "initiative")
        for _ in range(10):
            out = self.cmd("+combat/undo").text
            if "Nothing to undo" in out:
                break
        self.assertIn("Nothing to undo in this turn", out)
        self.assertEqual([c.name for c in self.state().combatants], ["Char"])
        self.assert_replays()

    def test_only_the_organizer_or_staff_undo(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=dodge")
        before = self.snapshot()
        self.assertIn("Only the organizer or staff", self.player("+combat/undo").text)
        self.assertIn("nothing after it", self.cmd("+combat/undo now").text)
        self.assertEqual(self.snapshot(), before)


class TestStateInTheRows(UndoChecks, EffectsTest):
    """Issue 13: each log row keeps the state its command left (the newest row's is the
    fight's); an undo takes the state from the row before. A fight logged before that (the
    state in the Script's Attribute, each row's undo holding the state before) goes on."""

    def as_written_before(self, script):
        """The fight's rows and Attribute as the code before issue 13's change left them."""
        from wodcombat.models import CombatRecord

        rows = list(CombatRecord.objects.filter(combat=script.combat_id).order_by("first_seq"))
        # each row's state whole (most rows keep only their change), read before any is wiped
        whole = [combatlog.state_before(script.combat_id, row.last_seq + 1) for row in rows]
        previous = script.started_text()
        for row, after in zip(rows, whole):
            undo = json.loads(row.undo) if row.undo else None
            if undo is not None:
                undo = {"state": json.loads(previous), **undo}
            CombatRecord.objects.filter(pk=row.pk).update(
                state="", undo=json.dumps(undo) if undo is not None else "")
            previous = after
        script.attributes.add("state", previous)  # the newest state, kept there
        script.forget_cache()

    def test_the_newest_row_keeps_the_state_and_the_attribute_the_first(self):
        self.setup_fight()
        script = combat_in(self.room1)
        self.cmd("+combat/declare Thug=dodge")
        self.assertEqual(combatlog.state_before(script.combat_id),
                         json.dumps(script.get_state().to_dict()))
        self.assertEqual(json.loads(script.started_text())["combatants"], [])  # as it began
        before = self.snapshot()
        script.forget_cache()  # what a reload does: read back from the newest row
        self.assertEqual(self.snapshot(), before)

    def test_a_fight_logged_before_goes_on_and_undoes(self):
        self.setup_fight()
        script = combat_in(self.room1)
        self.cmd("+combat/declare Thug=dodge")
        old_start = self.snapshot()
        self.player("+combat/declare other waits")
        old_end = self.snapshot()
        self.as_written_before(script)
        self.assertEqual(self.snapshot(), old_end)  # read from the Attribute
        self.cmd("+combat/declare other waits")  # the first row with a state
        self.assertEqual(self.state().phase, "act")
        self.cmd("+combat/undo")  # the row before keeps no state: the Attribute has it
        self.assertEqual(self.snapshot(), old_end)
        self.cmd("+combat/undo")  # a row of the old form: its undo holds the state
        self.assertEqual(self.snapshot(), old_start)
        script.forget_cache()  # the newest row (the undo's) keeps the state
        self.assertEqual(self.snapshot(), old_start)
        self.assert_replays()


class TestUndoSpotlight(UndoChecks, SpotTest):
    def test_attack_with_harm(self):
        self.setup_fight()
        self.cmd("+combat/next")
        self.cmd("+combat/move Thug=closer")
        # Thug fights back with his knife: four dice (V5 close combat, issue 31)
        with self.dice(8, 6, 3, 1, 10, 2, 2, 2, 2):
            self.assert_undone("+combat/act attack Thug")
        self.assert_replays()

    def test_staff_harm_and_stake(self):
        self.setup_fight()
        self.assert_undone("+combat/damage Thug=2 aggravated")
        self.assert_undone("+combat/stake Char2")


class TestUndoneInTheLog(UndoChecks, EffectsTest):
    def test_log_marks_what_was_undone(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=dodge")
        self.cmd("+combat/undo")
        log = self.cmd("+combat/log 5").text
        self.assertIn("[undone] Thug declares: dodge", log)
        self.assertIn("Char undoes the last resolution: Thug declares: dodge", log)
        self.assertIn("The fight and its sheets", log)
