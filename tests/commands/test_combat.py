"""+combat through Evennia's real command handler, with exact dice (FixedDice).

char1 is staff (Developer) and organizes; char2 is a plain player; "Thug" is an NPC the
organizer creates. Rule IDs: ../shared/rules-catalog.md.
"""

import json
from dataclasses import replace
from unittest import mock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.combat.core.sheet import Sheet
from wodcombat.commands.base import WodCommand
from tests.fixed_dice import FixedDice
from tests.helpers import capture_msgs, run_command
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, rulebook


def make_sheet(**traits):
    cat = rulebook.get().traits
    sheet = Sheet().with_pools_for(cat)
    for name, value in traits.items():
        sheet, _ = sheet.set(cat, name, str(value))
    return sheet


class CombatTest(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        # char1: Dex 3 + Wits 3 = rating 6; Str 3, Brawl 2, Stamina 2.
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2))
        # char2: Dex 2 + Wits 2 = rating 4; Dodge 1, Stamina 2.
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, dodge=1, stamina=2))

    def tearDown(self):
        script = combat_in(self.room1)
        if script:
            combatlog.forget(script.combat_id)
        super().tearDown()

    def cmd(self, line, caller=None):
        caller = caller or self.char1
        return run_command(caller, line, session=self.session if caller == self.char1 else None)

    def player(self, line):
        return self.cmd(line, caller=self.char2)

    def dice(self, *faces):
        return mock.patch.object(WodCommand, "rng", FixedDice(*faces))

    def state(self):
        return combat_in(self.room1).get_state()

    def setup_fight(self):
        """Start, join, an NPC, initiative for all three, into the declaration phase. Paced
        slot by slot (=slots; the game's default is ahead): these tests type each
        declaration and action in its slot, as TURN-01 and TURN-03 order them.

        INIT-01: Char 6 + [5] = 11, Char2 4 + [3] = 7; INIT-02: Thug 4 + [1] = 5."""
        self.assertIn("starts a fight", self.cmd("+combat/start=slots").text)
        self.player("+combat/join")
        self.assertIn("Thug joins", self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,"
                                             "stamina=2").text)
        with self.dice(5):
            self.assertIn("rating 6 + [5] = 11", self.cmd("+combat/init").text)
        with self.dice(3):
            self.player("+combat/init")
        with self.dice(1):
            self.cmd("+combat/init Thug=4")
        st = self.state()
        self.assertEqual({c.name: c.init_total for c in st.combatants},
                         {"Char": 11, "Char2": 7, "Thug": 5})
        self.cmd("+combat/next")
        self.assertEqual(self.state().phase, "declare")


class TestFullFight(CombatTest):
    @pytest.mark.rule("INIT-01", "INIT-02", "TURN-01", "TURN-03", "ATK-01", "DMG-01", "DMG-02",
                      "DMG-03", "DEF-02")
    def test_small_fight_end_to_end(self):
        self.setup_fight()
        # TURN-01: declarations go low to high: Thug (5) first, so Char2 (7) must wait.
        self.assertIn("Not your turn to declare", self.player("+combat/dodge").text)
        with capture_msgs(self.char2) as seen:
            self.cmd("+combat/declare Thug=attack Char2")
        self.assertIn("Your turn to declare", "\n".join(seen[self.char2]))
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        self.assertEqual(self.state().phase, "act")
        # TURN-03: acting goes high to low: Thug may not act before Char (11).
        self.assertIn("Not Thug's turn", self.cmd("+combat/act Thug").text)

        # ATK-01: Dex 3 + Brawl 2 = 5 dice vs 6: [8 7 6 2 1] = 3 hits - one 1 = 2 successes.
        # DMG-02: Strength 3 + 1 extra success = 4 dice: [9 6 3 2] = 2; soak Stamina 2: [7 3]
        # = 1; 1 bashing applied: Thug is Bruised.
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            run = self.cmd("+combat/act")
        text = run.text
        self.assertIn("[8 7 6 2 1] => 2 successes", text)
        self.assertIn("Strength 3, extra successes +1 dice = 4 vs 6: [9 6 3 2] => 2", text)
        self.assertIn("Thug soak: Stamina 2 = 2 vs 6: [7 3] => 1 success", text)
        self.assertIn("Thug takes 1 bashing (2 rolled, 1 soaked): Healthy -> Bruised", text)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        self.assertEqual(thug.sheet.get().health["bashing"], 1)

        # Char2 declared only a dodge (reactive), so Thug is next. DMG-03 / DEF-02: Thug's
        # Dex 2 + Brawl 2 [6 6 2 2] = 2; Char2's dodge Dex 2 + Dodge 1 [8 4 3] = 1 cancels
        # one: 1 net success; damage Strength 3 [9 2 2] = 1; soak [2 2] = 0.
        with self.dice(6, 6, 2, 2, 8, 4, 3, 9, 2, 2, 2, 2):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("Char2 dodge: Dexterity 2 + Dodge 1 = 3 vs 6: [8 4 3] => 1 success", text)
        self.assertIn("Hit with 1 net success", text)
        self.assertIn("Char2 takes 1 bashing", text)
        self.assertEqual(self.char2.sheet.get().health["bashing"], 1)

        # The log: every event with increasing seq, the rolls and the damage.
        recs = combatlog.read(combat_in(self.room1).combat_id)
        seqs = [r["seq"] for r in recs]
        self.assertEqual(seqs, sorted(seqs))
        self.assertEqual(len(set(seqs)), len(seqs))
        kinds = [r["event"] for r in recs]
        for kind in ("start", "join", "initiative", "declare", "act", "roll", "damage"):
            self.assertIn(kind, kinds)
        init = next(r for r in recs if r["event"] == "initiative" and r["total"] == 11)
        self.assertEqual((init["rating"], init["faces"]), (6, [5]))
        atk = next(r for r in recs if r["event"] == "roll" and r["purpose"] == "attack")
        self.assertEqual(atk["faces"], [8, 7, 6, 2, 1])
        self.assertEqual((atk["pool"], atk["difficulty"], atk["successes"]), (5, 6, 2))
        self.assertEqual(atk["traits"], [["Dexterity", 3], ["Brawl", 2]])
        dmg = next(r for r in recs if r["event"] == "damage")
        self.assertEqual((dmg["rolled"], dmg["soaked"], dmg["applied"]), (2, 1, 1))
        self.assertEqual((dmg["health_before"], dmg["health_after"]), ("Healthy", "Bruised"))
        for r in recs:
            for field in ("ts", "combat", "ruleset", "turn", "phase"):
                self.assertIn(field, r)

        # The turn rolls on: nobody has actions left, so turn 2 starts.
        self.assertIn("+combat/start [<ruleset>][=simple|reroll|slots]",
                      self.cmd("help +combat/start").text)
        self.assertIn("damage", self.cmd("+combat/log 30").text)
        status = self.cmd("+combat").text
        for words in ("turn 2", "Thug", "Bruised", "Char2", "11"):
            self.assertIn(words, status)
        self.cmd("+combat/end")
        self.assertIsNone(combat_in(self.room1))


class TestRefusals(CombatTest):
    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_refusals_change_nothing(self):
        self.setup_fight()
        script = combat_in(self.room1)
        before = stored_state(script)
        cases = {
            "+combat/declare attack Nobody": "not in this fight",  # not a combatant
            "+combat/declare Thug=attack Char": "only the organizer or staff run",
            "+combat/declare Char=attack Thug": "only act for your own character",
            "+combat/act Thug": "only the organizer or staff run",
            "+combat/next": "Only the organizer or staff",
            "+combat/end": "Only the organizer or staff",
            "+combat/npc Rat=str=1": "Only the organizer or staff",
            "+combat/damage Char=2 lethal": "Only the organizer or staff",
            "+combat/kick Char": "Only the organizer or staff",
            "+combat/dodge": "Not your turn to declare",  # TURN-01
            "+combat/act": "Nobody acts until everyone has declared",  # TURN-03
            "+combat/declare": "Usage",
            "+combat/declare fly away": "not an action",
            "+combat/bogus": "unknown switch",
            "+combat/init Thug=banana": "only the organizer or staff run",
        }
        for line, words in cases.items():
            self.assertIn(words.lower(), self.player(line).text.lower(), line)
        self.assertEqual(stored_state(script), before)
        # staff: malformed input gets the usage and changes nothing
        for line in ("+combat/init Thug=banana", "+combat/damage Char2=two lethal",
                     "+combat/npc Rat", "+combat/log many", "+combat/start"):
            text = self.cmd(line).text
            self.assertTrue("Usage" in text or "already running" in text, (line, text))
        self.assertEqual(stored_state(script), before)

    def test_malformed_input_never_breaks(self):
        self.setup_fight()
        script = combat_in(self.room1)
        before = stored_state(script)
        for line in ("+combat/declare attack", "+combat/declare attack Thug with banana",
                     "+combat/declare attack Thug as flying_kick", "+combat/declare Thug=",
                     "+combat/declare Thug=dodge against", "+combat/declare ;",
                     "+combat/declare Thug=pass; dodge", "+combat/init Thug=99",
                     "+combat/npc Rat=str=99", "+combat/npc =str=3", "+combat/npc Rat=str",
                     "+combat/mod Char2=", "+combat/mod Char2=!dazed", "+combat/heal Char2=1 fire",
                     "+combat/damage Nobody=1 lethal", "+combat/kick Nobody", "+combat/act",
                     "+combat/delay", "+combat/abort", "+combat/attack", "+combat/attack Thug=",
                     "+combat/log 0", "+combat/dodge now", "+combat extra", "+combat/next Nobody"):
            text = self.cmd(line).text
            self.assertNotIn("went wrong", text, line)
            self.assertNotIn("Traceback", text, line)
            self.assertTrue(text.strip(), line)
        self.assertEqual(stored_state(script), before)
        self.assertFalse([o for o in self.room1.contents if o.key == "Rat"])

    def test_start_bad_ruleset_or_option(self):
        self.assertIn("Usage", self.cmd("+combat/start numetal=fast").text)
        self.assertNotIn("went wrong", self.cmd("+combat/start nosuchrules").text)
        self.assertIsNone(combat_in(self.room1))

    def test_no_fight_here(self):
        self.assertIn("no fight in this room", self.player("+combat/join").text)
        self.assertIn("no fight in this room", self.player("+combat").text)


class TestStaffTools(CombatTest):
    @pytest.mark.rule("COMP-02", "HLT-02")
    def test_mod_damage_heal_kick(self):
        self.setup_fight()
        self.assertIn("Char2 takes 2 lethal", self.cmd("+combat/damage Char2=2 lethal").text)
        self.assertEqual(self.char2.sheet.get().health["lethal"], 2)
        self.assertIn("Char2 heals 1 lethal", self.cmd("+combat/heal Char2=1 lethal").text)
        self.assertEqual(self.char2.sheet.get().health["lethal"], 1)
        self.cmd("+combat/mod Char2=dazed")
        self.assertEqual([c.name for c in self.state().get(f"#{self.char2.id}").conditions],
                         ["dazed"])
        self.cmd("+combat/mod Char2=!dazed")
        self.assertEqual(self.state().get(f"#{self.char2.id}").conditions, ())
        self.cmd("+combat/kick Char2")
        self.assertIsNone(self.state().get(f"#{self.char2.id}"))
        recs = combatlog.read(combat_in(self.room1).combat_id)
        kinds = [r["event"] for r in recs]
        self.assertIn("heal", kinds)
        cond = [r for r in recs if r["event"] == "condition" and r.get("added")]
        self.assertEqual(cond[-1]["added"], ["dazed"])


class TestReload(CombatTest):
    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_state_survives_reload(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        script = combat_in(self.room1)
        before = script.get_state()
        # what a reload does: memory is gone, the Script is read back from the database
        script.forget_cache()
        from evennia.scripts.models import ScriptDB

        fresh = ScriptDB.objects.get(id=script.id)
        from wodcombat.combat.d10.state import CombatState

        self.assertEqual(CombatState.from_dict(json.loads(fresh.stored_text())),
                         before)
        self.assertEqual(fresh.get_state(), before)
        last = combatlog.read(script.combat_id)[-1]["seq"]
        self.player("+combat/dodge")
        self.assertEqual(self.state().get(f"#{self.char2.id}").actions, ({"kind": "dodge"},))
        self.assertGreater(combatlog.read(script.combat_id)[-1]["seq"], last)


def stored_state(script) -> str:
    """The fight's state as the database keeps it (its newest log row's), not a cache."""
    return combatlog.state_before(script.combat_id) or script.started_text()


def _sql(run, *verbs):
    return [q for q in run.queries if q["sql"].lstrip().upper().startswith(verbs)]


def writes(run):
    return _sql(run, "UPDATE", "INSERT", "DELETE")


def selects(run):
    return _sql(run, "SELECT")


class TestQueryCount(CombatTest):
    """Issue 13: counts (never times) that keep a combat command as cheap as ``look``."""

    def test_act_and_declare_query_counts(self):
        self.setup_fight()
        look = self.cmd("look")
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        declare = self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            act = self.cmd("+combat/act")
        self.assertIn("Thug takes 1 bashing", act.text)
        self.assertEqual(look.query_count, 0, look.sql)
        # Nothing is read from the database in steady state: the script, the state, the
        # sheets and the log's last seq are in memory.
        self.assertEqual(selects(declare), [], declare.sql)
        self.assertEqual(selects(act), [], act.sql)
        # Issue 14: the log's row is written with them (one INSERT per command); issue 13:
        # it keeps the new state too (no UPDATE of the Script's Attribute).
        self.assertEqual(len(writes(declare)), 1, declare.sql)  # the log row with the state
        self.assertEqual(len(writes(act)), 2, act.sql)  # Thug's sheet, the log row
        # One statement is atomic on its own: a declaration opens no transaction (here, in
        # the test's, no savepoint); the act's two writes are one.
        self.assertEqual(declare.query_count, 1, declare.sql)
        self.assertEqual(act.query_count, 4, act.sql)  # SAVEPOINT, UPDATE, INSERT, RELEASE
        # Issue 32: the sheet is a row of the plugin's own table, one plain UPDATE (not
        # Evennia's Attribute save), whatever the overrides
        self.assertIn("wodcombat_combatsheet", writes(act)[0]["sql"], act.sql)

    def test_commit_encodes_only_who_changed(self):
        """The stored state is json.dumps(state.to_dict()) byte for byte, and a commit
        encodes again only the combatants the command changed; each log row keeps the
        state its command left, so the row before holds the state a command started from
        and the undo record only the sheets."""
        self.setup_fight()
        script = combat_in(self.room1)
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        start = stored_state(script)
        self.cmd("+combat/declare attack Thug")
        self.assertEqual(script.wod_state_text.encoded, 1)  # Char declared
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            self.cmd("+combat/act")
        self.assertLessEqual(script.wod_state_text.encoded, 2)
        stored = stored_state(script)
        self.assertEqual(stored, json.dumps(script.get_state().to_dict()))
        rows = list(combatlog.rows(script.combat_id))
        # the row before keeps the state a command started from (read back onto the last
        # whole one: most rows keep only what their command changed)
        self.assertEqual(combatlog.state_before(script.combat_id, rows[-2].first_seq), start)
        self.assertTrue(rows[-2].state.startswith('{"delta": {'), rows[-2].state)
        self.assertEqual(list(json.loads(rows[-2].state)["delta"]), ["0"])  # Char, in place 0
        self.assertLess(len(rows[-1].state), len(stored))
        self.assertEqual(json.loads(rows[-2].undo), {"sheets": {}})  # it changed no sheet
        thug = next(c.key for c in script.get_state().combatants if c.name == "Thug")
        self.assertEqual(list(json.loads(rows[-1].undo)["sheets"]), [thug])  # as it was

    def test_rows_keep_changes_read_back_onto_whole_states(self):
        """Issue 13: a row keeps the whole state after a reload, when someone joins or
        leaves and every FULL_STATE_EVERY rows; the others what changed. The state read back
        is the one the fight had, byte for byte, and undo still walks back."""
        from wodcombat.typeclasses import combat as combat_tc

        self.setup_fight()
        script = combat_in(self.room1)
        texts = []
        with mock.patch.object(combat_tc, "FULL_STATE_EVERY", 3):
            for line in ("+combat/declare Thug=attack Char2", "+combat/dodge"):
                (self.player if line == "+combat/dodge" else self.cmd)(line)
                texts.append(script.stored_text())
            script.forget_cache()  # what a reload does: the next row is whole
            self.cmd("+combat/declare attack Thug")
            texts.append(script.stored_text())
            with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
                self.cmd("+combat/act")
            texts.append(script.stored_text())
        rows = list(combatlog.rows(script.combat_id))[-4:]
        kinds = ["delta" if r.state.startswith('{"delta"') else "whole" for r in rows]
        self.assertEqual(kinds[2:], ["whole", "delta"])
        for row, text in zip(rows, texts):
            self.assertEqual(combatlog.state_before(script.combat_id, row.last_seq + 1), text)
        self.assertEqual(stored_state(script), json.dumps(script.get_state().to_dict()))
        self.cmd("+combat/undo")
        self.assertEqual(json.loads(stored_state(script))["combatants"],
                         json.loads(texts[2])["combatants"])

    def test_status_reads_nothing(self):
        self.setup_fight()
        self.cmd("+combat")
        status = self.cmd("+combat")
        self.assertIn("Thug", status.text)
        self.assertEqual(status.query_count, 0, status.sql)
        self.cmd("+combat/declare Thug=attack Char2")  # a new state: drawn again, no SQL
        again = self.cmd("+combat")
        self.assertIn("attack Char2", again.text)
        self.assertEqual(again.query_count, 0, again.sql)

    def test_status_shows_a_sheet_changed_outside_the_fight(self):
        """The table is kept per state, but a sheet written outside the fight (staff
        ``+sheet/set``, a script through ``char.sheet.save``) is never shown as it was."""
        self.setup_fight()
        self.assertNotIn("Injured", self.cmd("+combat").text)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        hurt = {"bashing": 0, "lethal": 3, "aggravated": 0}
        thug.sheet.save(replace(thug.sheet.get(), health=hurt))
        row = next(ln for ln in self.cmd("+combat").text.splitlines()
                   if "Thug" in ln and "[NPC]" in ln)
        self.assertIn("Injured", row)  # HLT-01: three levels of the track

    def test_sheet_read_once_and_stored_as_text(self):
        """Issue 32: a sheet is one row of the plugin's own table, its JSON text, read from
        the database once and parsed once per write (not per read); no Attribute is
        written for it, and any write through the sheet is seen."""
        from wodcombat.combat.core import sheet as sheet_mod
        from wodcombat.models import CombatSheet

        self.char2.sheet.save(make_sheet(strength=4))
        text = CombatSheet.objects.get(obj_id=self.char2.id).text
        self.assertEqual(json.loads(text)["traits"]["Strength"], 4)
        self.assertFalse(self.char2.attributes.has("sheet", category="wod"))
        with mock.patch.object(sheet_mod.Sheet, "from_dict",
                               wraps=sheet_mod.Sheet.from_dict) as parsed:
            first = self.char2.sheet.get()
            self.assertIs(self.char2.sheet.get(), first)
            self.assertEqual(parsed.call_count, 1)
        self.assertEqual(first.traits["Strength"], 4)
        self.char2.sheet.save(make_sheet(strength=2))
        self.assertEqual(self.char2.sheet.get().traits["Strength"], 2)

    def test_npc_call_lock_answered_as_evaluating_it_would(self):
        from evennia import create_object

        npc = create_object("typeclasses.characters.NPC", key="Extra", location=self.room1)
        self.assertEqual(npc.locks.get("call"), "")  # DefaultCharacter's dropped (issue 32)
        self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
        from evennia.locks.lockhandler import LockHandler

        with mock.patch.object(LockHandler, "get", autospec=True,
                               side_effect=LockHandler.get) as asked:
            self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
        self.assertEqual(asked.call_count, 0)  # the answer kept with its lock string
        npc.locks.add("call:all()")  # staff changed it: evaluated as usual
        self.assertTrue(npc.access(self.char1, "call", no_superuser_bypass=True))
        npc.locks.add("call:false()")  # and back, as an NPC made before issue 32 has it
        self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
        with mock.patch.object(LockHandler, "get", autospec=True,
                               side_effect=LockHandler.get) as asked:
            self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
        self.assertEqual(asked.call_count, 0)
        self.assertIn("Extra", self.cmd("examine Extra").text)  # staff still reach it

    def test_the_command_handler_is_not_shown_npcs_that_carry_no_commands(self):
        """Issue 13: the room answers the command handler's question (everything but the
        typist) without the NPCs whose call lock refuses it anyway, so none is asked; look,
        searches and contents still see them, and one whose call lock staff open (or that
        walks in or out) is in the answer at once."""
        from evennia import create_object

        npc = create_object("typeclasses.characters.NPC", key="Extra", location=self.room1)
        handler_view = self.room1.contents_get(exclude=self.char1)
        self.assertNotIn(npc, handler_view)
        self.assertIn(self.char2, handler_view)
        self.assertNotIn(self.char1, handler_view)
        self.assertIn(npc, self.room1.contents)
        self.assertIn("Extra", self.cmd("look").text)
        self.assertIn("Extra", self.cmd("examine Extra").text)
        with mock.patch.object(type(npc), "access", autospec=True,
                               side_effect=type(npc).access) as asked:
            self.cmd("look")
        self.assertEqual([c for c in asked.call_args_list if c.args[2:3] == ("call",)
                          or c.kwargs.get("access_type") == "call"], [])
        npc.locks.add("call:all()")  # staff let its commands join the room's
        self.assertIn(npc, self.room1.contents_get(exclude=self.char1))
        npc.locks.add("call:false()")
        self.assertNotIn(npc, self.room1.contents_get(exclude=self.char1))
        npc.location = self.room2
        self.assertNotIn(npc, self.room1.contents)
        self.char2.location = self.room2
        self.assertNotIn(self.char2, self.room1.contents_get(exclude=self.char1))

    def test_a_crowd_of_npcs_costs_nothing_here(self):
        """100 NPCs in the room: ``look``, ``+combat`` and an act cost the queries they cost
        with one, the command handler checks no NPC's lock, and the room's text is sent to
        no NPC without a session."""
        from evennia import create_object

        self.setup_fight()
        for i in range(100):
            create_object("typeclasses.characters.NPC", key=f"Extra{i:03d}", location=self.room1)
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        self.cmd("look")
        from evennia.locks.lockhandler import LockHandler

        from typeclasses.objects import ObjectParent

        told, real_msg = [], ObjectParent.msg

        def spy(obj, *args, **kwargs):
            told.append(obj.key)
            return real_msg(obj, *args, **kwargs)

        with mock.patch.object(LockHandler, "check", autospec=True,
                               side_effect=LockHandler.check) as checks, \
                mock.patch.object(ObjectParent, "msg", spy):
            look = self.cmd("look")
            status = self.cmd("+combat")
            with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
                act = self.cmd("+combat/act")
        self.assertIn("Thug takes 1 bashing", act.text)
        self.assertEqual(look.query_count, 0, look.sql)
        self.assertEqual(status.query_count, 0, status.sql)
        self.assertEqual(selects(act), [], act.sql)
        self.assertEqual(len(writes(act)), 2, act.sql)  # the hurt sheet, the log row
        calls = [c for c in checks.call_args_list  # the command handler's merge asks "call"
                 if (c.kwargs.get("access_type") or (c.args[2:3] or [""])[0]) == "call"]
        self.assertTrue(calls)  # the players and the room are still asked
        self.assertEqual([c for c in calls if getattr(c.args[0].obj, "is_npc", False)], [])
        self.assertIn("Char2", told)
        self.assertEqual([k for k in told if k.startswith("Extra")], [])


    def test_an_npc_staff_puppet_reads_the_room_and_one_nobody_puppets_does_not(self):
        """The room's text goes to an NPC only when someone reads it: staff puppeting it
        (an account and a session); an account with no session left reads nothing."""
        from typeclasses.objects import ObjectParent

        self.setup_fight()
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        told, real_msg = [], ObjectParent.msg

        def spy(obj, *args, **kwargs):
            told.append(obj.key)
            return real_msg(obj, *args, **kwargs)

        with mock.patch.object(ObjectParent, "msg", spy):
            self.cmd("+combat/declare Thug=attack Char2")
            self.assertNotIn("Thug", told)  # nobody puppets it
            thug.db_account = self.account2  # puppeted (Evennia sets the account) ...
            thug.at_post_puppet()  # ... and the room's listeners are drawn again
            told.clear()  # (what puppeting itself tells it)
            with mock.patch.object(thug.sessions, "count", return_value=0):
                self.player("+combat/dodge")
            self.assertNotIn("Thug", told)  # ... but its session is gone
            with mock.patch.object(thug.sessions, "count", return_value=1):
                self.cmd("+combat/declare attack Thug")
            self.assertIn("Thug", told)  # staff at the keyboard read it


class TestAbortAndDelay(CombatTest):
    @pytest.mark.rule("TURN-08", "DEF-02", "DMG-03")
    def test_abort_to_dodge_answers_the_next_attack(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/declare attack Thug")
        self.cmd("+combat/declare attack Thug")
        with self.dice(2, 2, 2, 2, 2):  # Char misses: 0 successes, no 1s
            self.assertIn("Miss", self.cmd("+combat/act").text)
        # TURN-08: Willpower 5 reflex roll vs 6: [7 2 2 2 2] = 1 success: Char2 now dodges.
        with self.dice(7, 2, 2, 2, 2):
            text = self.player("+combat/abort dodge").text
        self.assertIn("aborts to dodge: succeeds", text)
        self.assertIn("[7 2 2 2 2]", text)
        # DMG-03: Thug [6 6 2 2] = 2; Char2's dodge [8 8 3] = 2 cancels both: a miss.
        with self.dice(6, 6, 2, 2, 8, 8, 3):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("Char2 dodge: Dexterity 2 + Dodge 1 = 3 vs 6: [8 8 3] => 2", text)
        self.assertIn("Miss", text)
        recs = combatlog.read(combat_in(self.room1).combat_id)
        self.assertIn("abort", [r.get("purpose") for r in recs if r["event"] == "roll"])

    def test_abort_bad_input_and_wp_spend(self):
        self.setup_fight()
        self.assertIn("Usage", self.player("+combat/abort fly").text)
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/declare attack Thug")
        self.cmd("+combat/declare attack Thug")
        with self.dice(2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        # DEF-03 (issue 9 #23): unarmed, a parry is refused before the point is spent.
        self.assertIn("no weapon or shield to parry with",
                      self.player("+combat/abort parry/wp").text)
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, 5)
        self.player("+combat/abort dodge/wp")
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, 4)

    @pytest.mark.rule("TURN-04")
    def test_delay_then_act_later(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other runs")
        self.cmd("+combat/declare other waits")
        self.assertIn("Char delays", self.cmd("+combat/delay").text)
        self.assertIn("Char2 acts: runs", self.player("+combat/act").text)
        self.assertIn("Char acts: waits", self.cmd("+combat/act").text)
        self.assertIn("Thug acts: growls", self.cmd("+combat/act Thug").text)


class TestSimpleMode(CombatTest):
    @pytest.mark.rule("TURN-05", "INIT-04")
    def test_simple_mode_declare_and_act_high_to_low(self):
        # slot by slot: in turn each declares and acts, and no one before
        self.assertIn("simple mode",
                      self.cmd("+combat/start numetal=simple,reroll,slots").text)
        self.assertTrue(self.state().options.reroll_initiative)
        self.player("+combat/join")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        # TURN-05: the highest (Char, 11) declares and acts first; Char2 waits.
        self.assertIn("Not your turn", self.player("+combat/declare other waits").text)
        self.cmd("+combat/declare other shouts")
        self.assertIn("Char acts: shouts", self.cmd("+combat/act").text)
        self.player("+combat/declare other runs")
        self.assertIn("Char2 acts: runs", self.player("+combat/act").text)


def test_names_typed_are_found_as_a_scan_finds_them_and_the_table_is_kept():
    """Issue 13: ``+combat/act Bob`` finds Bob in a table of names kept while the same
    combatants stand in the same places; the first of two alike, any case; a join draws it
    again."""
    from wodcombat.combat.d10.state import Combatant, CombatState
    from wodcombat.combat.core.values import replace
    from wodcombat.commands import combat as cmd

    state = CombatState(id="1-t", ruleset="numetal", combatants=(
        Combatant(key="#1", name="Bob"), Combatant(key="#2", name="bob"),
        Combatant(key="#3", name="Ann")))
    names = cmd._keys_by_name(state)
    assert names == {"bob": "#1", "ann": "#3"}
    moved = state.with_combatants({"#3": replace(state.get("#3"), declared=True)})
    assert cmd._keys_by_name(moved) is names  # the same places: the same table
    joined = replace(moved, combatants=(*moved.combatants, Combatant(key="#4", name="Cy")))
    assert cmd._keys_by_name(joined)["cy"] == "#4"
