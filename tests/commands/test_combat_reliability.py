"""Issue 5, the combat layer: idle timeouts, all-or-nothing commands, one combat per
character, deleted characters, who may do what, and many combats at once.

Through Evennia's real command handler with exact dice. Rule IDs from
../shared/rules-catalog.md: TURN-01/03 (who the turn waits for), DEF-04 (the full defense the
game declares for an idle player), INIT-01/02, ATK-01, DMG-01.
"""

from __future__ import annotations

import json
import random
import time
from unittest import mock

import pytest
from evennia import create_object
from evennia.utils.idmapper.models import flush_cache

from wodcombat.combat.d10 import scheduler as sch
from wodcombat.combat.core.sheet import Sheet
from wodcombat.typeclasses import combat_timers
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog

from tests.commands.test_combat import CombatTest, make_sheet
from tests.helpers import capture_msgs, run_command


class LoopDice(random.Random):
    """Exact, repeating faces for long fights (FixedDice would need hundreds queued)."""

    FACES = (7, 3, 8, 2, 6, 10, 1, 5, 9, 4)

    def __init__(self):
        super().__init__(0)
        self.i = 0

    def randint(self, a, b):
        face = self.FACES[self.i % len(self.FACES)]
        self.i += 1
        return face


def snapshot(script, *chars):
    """What must not change on a refused or failed command: the stored state and sheets,
    read from the database (not the caches)."""
    from evennia.typeclasses.attributes import Attribute

    def row(attr):  # values_list: the row itself, not the idmapper's cached instance
        if attr is None:
            return {}
        return Attribute.objects.filter(pk=attr.pk).values_list("db_value", flat=True)[0]

    started = row(script.attributes.get("state", return_obj=True))
    # issue 13: the newest log row keeps the state (the Attribute the one it started with)
    state = combatlog.state_before(json.loads(started)["id"]) or started
    def sheet(value):  # issue 13: stored as JSON text (a dict before)
        return json.loads(value) if isinstance(value, str) else dict(value)

    def sheet_row(char):  # issue 32: the sheet's row, read from the database, not a cache
        from wodcombat.models import CombatSheet

        texts = CombatSheet.objects.filter(obj_id=char.id).values_list("text", flat=True)
        return texts[0] if texts else "{}"

    sheets = {c.key: sheet(sheet_row(c)) for c in chars}
    return json.loads(state), sheets


# ======================================================================== idle timeout


class TestIdleTimeout(CombatTest):
    @pytest.mark.rule("DEF-04", "TURN-01")
    def test_timeout_applies_default_tells_room_and_survives_reload(self):
        self.setup_fight()  # declaration phase: Thug (5) declares first
        self.assertIn("Only the organizer or staff can set the idle timeout",
                      self.player("+combat/timeout 5").text)
        t0 = time.time()
        self.assertIn("idle timeout to 1m 00s", self.cmd("+combat/timeout 60").text)
        st = self.state()
        self.assertEqual(st.options.timeout, 60)
        self.assertTrue(t0 + 60 <= st.deadline <= time.time() + 60)
        deadline = st.deadline
        self.assertIn("1m 00s (set for this fight)", self.player("+combat/timeout").text)

        # Who the turn waits for: the list, under both names.
        text = self.player("+combat/slackers").text
        self.assertRegex(text, r"Thug\s+\[NPC\]\s+declare\s+waiting \d+s")
        self.assertIn("the default applies in", text)
        self.assertIn("Thug", self.player("+combat/pending").text)

        # A "reload": in-memory caches gone, the Script object reloaded from the database.
        script = combat_in(self.room1)
        script.forget_cache()
        flush_cache()
        script = combat_in(self.room1)
        self.assertEqual(script.get_state().deadline, deadline)
        self.assertFalse(combat_timers.check(script, now=deadline - 0.5))  # not yet
        self.assertFalse(self.state().get(self.npc_key()).declared)

        with capture_msgs(self.char2) as seen:
            self.assertTrue(combat_timers.check(script, now=deadline))
        heard = "\n".join(seen[self.char2])
        self.assertIn("Time is up for Thug (declare): the game declares a full defense", heard)
        self.assertIn("Your turn to declare", heard)  # the turn moved on, to Char2
        thug = self.state().get(self.npc_key())
        self.assertTrue(thug.declared and thug.desperate)
        self.assertEqual(thug.actions, ({"kind": "dodge"},))
        # The next prompt has its own deadline, from the clock of that commit.
        self.assertGreater(self.state().deadline, deadline - 1)
        rec = [r for r in combatlog.read(self.state().id) if r["event"] == "timeout"]
        self.assertEqual(rec[0]["actor"], self.npc_key())
        self.assertEqual(rec[0]["default"], "full_defense")

        # Off: no deadline, nothing expires.
        self.cmd("+combat/timeout 0")
        self.assertIsNone(self.state().deadline)
        self.assertFalse(combat_timers.check(combat_in(self.room1), now=time.time() + 10**6))
        self.assertIn("No idle timeout", self.player("+combat/slackers").text)

    def npc_key(self):
        return next(c.key for c in self.state().combatants if c.name == "Thug")

    @pytest.mark.rule("TURN-01")
    def test_undo_of_a_timeout_gives_a_fresh_clock(self):
        """Issue 28: the undo put back the state with its passed deadline, so the clock
        fired again at once ("Time is up for bob (declare)") however often one undid it."""
        self.setup_fight()  # declaration phase: Thug (5) declares first
        self.cmd("+combat/timeout 60")
        script = combat_in(self.room1)
        deadline = self.state().deadline
        self.assertTrue(combat_timers.check(script, now=deadline))  # Thug timed out
        self.assertTrue(self.state().get(self.npc_key()).declared)
        later = deadline + 5  # staff undo it once the clock has run out
        with mock.patch("wodcombat.world.combat_service.time.time", return_value=later):
            self.assertIn("undoes the last resolution", self.cmd("+combat/undo").text)
        st = self.state()
        self.assertFalse(st.get(self.npc_key()).declared)  # Thug owes his declaration again
        self.assertEqual(st.deadline, later + 60)  # and has a minute from the undo
        self.assertFalse(combat_timers.check(script, now=later))  # not at once, again
        self.assertFalse(self.state().get(self.npc_key()).declared)
        # bin/replay reproduces the undo's fresh clock from the log
        from wodcombat.world import combat_replay, rulebook

        report = combat_replay.replay(combatlog.read(st.id), rulebook.get)
        self.assertTrue(report.ok, report)

    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_organizer_told_when_everyone_declared_and_acted(self):
        """Issue 11: in the room's text, after the last declaration and the last action."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/dodge")
        with capture_msgs(self.char1) as seen:
            self.cmd("+combat/declare pass")
        heard = "\n".join(seen[self.char1])
        self.assertLess(heard.index("Char passes"), heard.index("Everyone has declared"))
        self.assertLess(heard.index("Everyone has declared"),
                        heard.index("Everyone has acted in turn 1"))

    def test_bad_timeouts_change_nothing(self):
        self.setup_fight()
        before = snapshot(combat_in(self.room1), self.char1)
        # "9" * 5000: past Python's 4,300-digit int() limit (the fuzz test found it raising)
        for bad in ("soon", "-5", "5x", "99999999", "9" * 5000, "9" * 5000 + "m"):
            text = self.cmd(f"+combat/timeout {bad}").text
            self.assertTrue("not a time" in text or "At most" in text
                            or "runs past 15 digits" in text, (bad, text))
        self.assertEqual(snapshot(combat_in(self.room1), self.char1), before)
        self.assertIn("nothing after it", self.player("+combat/slackers now").text)

    def test_disconnected_player_stays_in_and_idles_out(self):
        """Disconnecting is not leaving: Char2 stays in the fight and the timeout passes
        for them."""
        self.setup_fight()
        self.cmd("+combat/timeout 30")
        self.cmd("+combat/declare Thug=attack Char2")
        self.char2.at_post_unpuppet(self.account2)
        script = combat_in(self.room1)
        st = script.get_state()
        self.assertIsNotNone(st.get(f"#{self.char2.id}"))
        self.assertEqual(sch.pending(st), [f"#{self.char2.id}"])
        combat_timers.check(script, now=st.deadline + 1)
        c2 = self.state().get(f"#{self.char2.id}")
        self.assertTrue(c2.declared and c2.desperate)  # attacked: a full defense

    def test_clock_restarts_on_server_start(self):
        """A combat created before the clock existed (interval 0) ticks after a restart."""
        self.cmd("+combat/start")
        script = combat_in(self.room1)
        self.assertEqual(script.interval, combat_timers.TICK)
        script.stop()
        script.db_interval = 0
        script.save()
        script.at_server_start()
        self.assertEqual(script.interval, combat_timers.TICK)
        self.assertTrue(script.is_active)

    def test_clock_restarts_after_a_crash_and_applies_a_passed_deadline_at_once(self):
        """Issue 14: after kill -9 the database says active but no timer runs (Evennia
        resumes only what a clean shutdown paused). On start the clock ticks again, and a
        deadline that passed while the server was down is applied once, at once."""
        self.setup_fight()
        self.cmd("+combat/timeout 30")
        script = combat_in(self.room1)
        deadline = script.get_state().deadline
        script.ndb._task.stop()  # what a crash leaves: active in the database, no timer
        script.ndb._task = None
        self.assertTrue(script.is_active)
        with mock.patch("time.time", return_value=deadline + 600):
            script.at_server_start()
        self.assertTrue(script.ndb._task.running)
        timeouts = [r for r in combatlog.read(script.combat_id) if r["event"] == "timeout"]
        self.assertEqual(len(timeouts), 1)
        script.at_server_start()  # a second start applies nothing more
        self.assertEqual(len([r for r in combatlog.read(script.combat_id)
                              if r["event"] == "timeout"]), 1)


# ======================================================================== all or nothing


class TestAllOrNothing(CombatTest):
    def _fight_to_attack(self):
        """Char attacks Thug (no defense declared): hit, damage on Thug's sheet."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=pass")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug")
        self.assertEqual(self.state().phase, "act")
        return next(o for o in self.room1.contents if o.key == "Thug")

    def test_failure_after_first_write_keeps_nothing(self):
        thug = self._fight_to_attack()
        script = combat_in(self.room1)
        before = snapshot(script, self.char1, self.char2, thug)
        cached_before = script.get_state().to_dict()
        log_before = len(combatlog.read(script.combat_id))
        adapter = type(thug.sheet)  # the default's (issue 32: TableSheet)
        real_save = adapter.save

        def failing_save(handler, sheet):
            real_save(handler, sheet)  # the write happens ...
            raise RuntimeError("disk on fire")  # ... and then the command fails

        with self.dice(*([8] * 40)), mock.patch.object(adapter, "save", failing_save):
            text = self.cmd("+combat/act").text
        self.assertIn("nothing was changed", text)
        # The database, the caches the next command reads, and the log: all as before.
        self.assertEqual(snapshot(script, self.char1, self.char2, thug), before)
        self.assertEqual(combat_in(self.room1).get_state().to_dict(), cached_before)
        self.assertEqual(thug.sheet.get(), Sheet.from_dict(before[1]["Thug"]))
        self.assertEqual(len(combatlog.read(script.combat_id)), log_before)
        # ... and the same action then works.
        with self.dice(*([8] * 40)):
            self.assertIn("Hit with", self.cmd("+combat/act").text)
        self.assertNotEqual(thug.sheet.get(), Sheet.from_dict(before[1]["Thug"]))


# ======================================================================== one combat each


class TestOneCombat(CombatTest):
    def test_second_combat_refused_with_where(self):
        self.cmd("+combat/start")
        self.player("+combat/join")
        self.char2.move_to(self.room2, quiet=True)
        text = self.player("+combat/start").text
        self.assertIn(f"already in a fight in Room (#{self.room1.id})", text)
        self.assertIsNone(combat_in(self.room2))
        # someone else's fight over there: joining is refused the same way
        other = create_object("typeclasses.characters.Character", key="Olga",
                              location=self.room2)
        run_command(other, "+combat/start")
        self.assertIn("already in a fight", self.player("+combat/join").text)
        self.assertIsNone(combat_in(self.room2).get_state().get(f"#{self.char2.id}"))
        # after leaving the first, the second is open
        self.char2.move_to(self.room1, quiet=True)
        self.player("+combat/leave")
        self.char2.move_to(self.room2, quiet=True)
        self.assertIn("Char2 joins", self.player("+combat/join").text)

    @pytest.mark.rule("HLT-05")
    def test_refused_start_leaves_no_script_behind(self):
        """Issue 14: a dead organizer's +combat/start is refused inside the transaction that
        made the fight's Script (HLT-05: the dead cannot join); the Script goes with its
        row: no timer of it ticks, the idmapper does not keep it (the soak found one per
        refusal, ticking for the life of the server)."""
        import gc

        from wodcombat.typeclasses.combat import CombatScript

        def ticking():
            return [o for o in gc.get_objects() if isinstance(o, CombatScript)
                    and o.ndb._task is not None and o.ndb._task.running]

        self.cmd("+combat/start")
        self.player("+combat/join")
        self.cmd("+combat/damage Char2=10 lethal")
        self.cmd("+combat/end")
        self.char2.move_to(self.room2, quiet=True)
        before = ticking()
        out = self.player("+combat/start").text
        self.assertIn("You are dead and cannot join a fight", out)
        self.assertIsNone(combat_in(self.room2))
        self.assertEqual(ticking(), before)
        cached = CombatScript.get_all_cached_instances()
        self.assertEqual([s.pk for s in cached if s.db_obj_id == self.room2.id], [])

    def test_second_combat_refused_under_spotlight_too(self):
        """The one-fight rule holds whichever engine either fight runs (issue 5)."""
        self.cmd("+combat/start")
        self.player("+combat/join")
        self.char2.move_to(self.room2, quiet=True)
        self.assertIn("already in a fight", self.player("+combat/start spotlight").text)
        self.assertIsNone(combat_in(self.room2))
        other = create_object("typeclasses.characters.Character", key="Olga",
                              location=self.room2)
        run_command(other, "+combat/start spotlight")
        self.assertIn("already in a fight", self.player("+combat/join").text)
        self.assertIsNone(combat_in(self.room2).get_state().get(f"#{self.char2.id}"))

    def test_deleted_combatant_removed_and_room_told(self):
        self.setup_fight()
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        key = f"#{thug.id}"
        self.assertEqual(sch.pending(self.state()), [key])
        with capture_msgs(self.char2) as seen:
            thug.delete()
        heard = "\n".join(seen[self.char2])
        self.assertIn("Thug is gone (the character was deleted)", heard)
        self.assertIn("Your turn to declare", heard)  # the turn moved on to Char2
        st = self.state()
        self.assertIsNone(st.get(key))
        self.assertEqual([e["event"] for e in combatlog.read(st.id)[-3:]][:2],
                         ["deleted", "leave"])
        self.assertIn("Char2 (declare)", self.cmd("+combat").text)

    def test_deleted_pending_combatant_removed_by_the_clock(self):
        """Deleted behind the game's back (no hook ran): the timeout removes them."""
        self.setup_fight()
        self.cmd("+combat/timeout 10")
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        key = f"#{thug.id}"
        with mock.patch.object(type(thug), "at_object_delete", lambda self: True):
            thug.delete()
        script = combat_in(self.room1)
        combat_timers.check(script, now=script.get_state().deadline)
        self.assertIsNone(self.state().get(key))


# ======================================================================== permissions

STAFF_SWITCHES = [
    "+combat/next",
    "+combat/next Thug",
    "+combat/mod Thug=prone",
    "+combat/mod Char2=dazed",
    "+combat/kick Thug",
    "+combat/kick Char",
    "+combat/damage Thug=2 lethal",
    "+combat/damage Char=3 aggravated",
    "+combat/heal Char=1 bashing",
    "+combat/end",
    "+combat/npc Rat=str=1,dex=3,brawl=1",
    "+combat/npc Rat=thug",
    "+combat/init Thug=5",
    "+combat/declare Thug=attack Char2",
    "+combat/declare Thug=dodge",
    "+combat/dodge Thug=",
    "+combat/act Thug",
    "+combat/pass Thug",
    "+combat/delay Thug",
    "+combat/timeout 5",
    "+combat/timeout 0",
]


class TestPermissions(CombatTest):
    def test_staff_switches_refused_to_player_and_other_organizer(self):
        self.setup_fight()  # char1 (staff) organizes in Room; Thug is pending
        # Olga organizes her own fight in Room2, then walks into Room.
        olga = create_object("typeclasses.characters.Character", key="Olga",
                             location=self.room2)
        run_command(olga, "+combat/start")
        self.assertEqual(combat_in(self.room2).organizer, f"#{olga.id}")
        olga.move_to(self.room1, quiet=True)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        script = combat_in(self.room1)
        other = combat_in(self.room2)
        objects = len(self.room1.contents)
        before = snapshot(script, self.char1, self.char2, thug)
        other_before = snapshot(other, olga)
        for who in (self.char2, olga):
            for line in STAFF_SWITCHES:
                with self.subTest(who=who.key, line=line):
                    text = run_command(who, line).text
                    self.assertRegex(text, r"organizer or staff|only act for your own",
                                     f"{who.key}: {line} -> {text}")
                    self.assertEqual(snapshot(script, self.char1, self.char2, thug), before)
                    self.assertEqual(snapshot(other, olga), other_before)
                    self.assertEqual(len(self.room1.contents), objects)
        # a plain player may not act for another player either
        text = self.player("+combat/declare Char=pass").text
        self.assertIn("only act for your own character", text)
        self.assertEqual(snapshot(script, self.char1, self.char2, thug), before)
        # and the real organizer still can
        self.assertIn("Thug declares", self.cmd("+combat/declare Thug=dodge").text)


# ======================================================================== many at once


def drive(script, pcs, runner, targets, turns, dice):
    """Run ``script``'s combat through the command layer for ``turns`` turns; a generator
    that yields after every command so several fights can be interleaved.

    PCs attack ``targets[(turn, i)]``; NPCs (run by ``runner``) dodge."""
    by_key = {f"#{p.id}": p for p in pcs}
    safety = 0
    while True:
        st = script.get_state()
        if st.turn > turns or st.phase == "ended":
            return
        safety += 1
        assert safety < 2000, "the fight does not move on"
        waiting = sch.prompts(st)
        if not waiting:
            line, who = "+combat/next", runner
        else:
            key, what = waiting[0]
            c = st.get(key)
            pc = by_key.get(key)
            if what == "initiative":
                line, who = ("+combat/init", pc) if pc else (f"+combat/init {c.name}=4", runner)
            elif what == "declare":
                if pc:
                    i = list(by_key).index(key)
                    line, who = f"+combat/declare attack {targets[(st.turn, i)]}", pc
                else:
                    line, who = f"+combat/declare {c.name}=dodge", runner
            else:
                line, who = ("+combat/act", pc) if pc else (f"+combat/act {c.name}", runner)
        with mock.patch("wodcombat.commands.base.WodCommand.rng", dice):
            run = run_command(who, line)
        assert "Traceback" not in run.text and "went wrong" not in run.text, (line, run.text)
        yield line


def check_log(combat_id: str, keys: set[str]) -> list[dict]:
    """seq strictly increasing from 1, every record of this combat, no foreign actor."""
    recs = combatlog.read(combat_id)
    assert recs, combat_id
    assert [r["seq"] for r in recs] == list(range(1, len(recs) + 1))
    assert {r["combat"] for r in recs} == {combat_id}
    for r in recs:
        for field in ("actor", "target"):
            if field in r:
                assert r[field] in keys, (combat_id, r)
        for k in r.get("who") or ():
            assert k in keys, (combat_id, r)
    return recs


class TestManyAtOnce(CombatTest):
    def make_pc(self, name, room, **traits):
        pc = create_object("typeclasses.characters.Character", key=name, location=room)
        pc.sheet.save(make_sheet(strength=3, dexterity=3, wits=2, brawl=2, stamina=2,
                                 **traits))
        return pc

    @pytest.mark.rule("INIT-01", "INIT-02", "TURN-01", "TURN-03", "ATK-01", "DMG-01")
    def test_interleaved_combats_in_several_rooms(self):
        fights = []
        for r in range(3):
            room = create_object("typeclasses.rooms.Room", key=f"Arena{r}")
            org = self.make_pc(f"Boss{r}", room)
            pcs = [self.make_pc(f"Hero{r}x{i}", room) for i in range(2)]
            run_command(org, "+combat/start")
            for pc in pcs:
                run_command(pc, "+combat/join")
            for n in range(3):
                run_command(org, f"+combat/npc Mook{r}x{n}=thug")
            script = combat_in(room)
            targets = {(t, i): f"Mook{r}x{(t + i) % 3}" for t in (1, 2) for i in range(3)}
            # the organizer fights too (a PC like the others)
            fights.append((room, script, [org, *pcs], org, targets))
        with capture_msgs(*[p for f in fights for p in f[2]]) as heard:
            gens = [drive(s, pcs, org, tg, 2, LoopDice()) for _, s, pcs, org, tg in fights]
            while gens:  # one command of each fight in turn
                for g in list(gens):
                    try:
                        next(g)
                    except StopIteration:
                        gens.remove(g)
        for r, (room, script, pcs, org, _) in enumerate(fights):
            st = script.get_state()
            self.assertEqual(st.turn, 3)
            keys = {c.key for c in st.combatants}
            recs = check_log(st.id, keys)
            acts = [x for x in recs if x["event"] == "act"]
            self.assertEqual(len(acts), 2 * 3)  # 3 PCs (organizer included), 2 turns
            # no cross-talk: nobody hears another room's names
            for pc in pcs:
                text = "\n".join(heard[pc])
                for other in range(3):
                    if other != r:
                        self.assertNotIn(f"Mook{other}x", text)
                        self.assertNotIn(f"Hero{other}x", text)

    @pytest.mark.rule("INIT-01", "INIT-02", "TURN-01", "TURN-03", "ATK-01", "DMG-01")
    def test_large_battle_staffer_40_npcs_against_8_pcs(self):
        self.cmd("+combat/start")
        pcs = [self.make_pc(f"Pc{i}", self.room1) for i in range(8)]
        for pc in pcs:
            run_command(pc, "+combat/join")
        for n in range(40):
            self.cmd(f"+combat/npc N{n:02d}=thug")
        self.cmd("+combat/leave")  # the staffer only runs the NPCs
        script = combat_in(self.room1)
        self.assertEqual(len(script.get_state().combatants), 48)
        targets = {(t, i): f"N{(t - 1) * 8 + i:02d}" for t in (1, 2) for i in range(8)}
        for _ in drive(script, pcs, self.char1, targets, 2, LoopDice()):
            pass
        st = script.get_state()
        self.assertEqual(st.turn, 3)
        recs = check_log(st.id, {c.key for c in st.combatants} | {f"#{self.char1.id}"})
        acts = [r for r in recs if r["event"] == "act"]
        self.assertEqual(len(acts), 16)
        # every attack was resolved against its declared NPC target, with its dice logged
        attacks = [r for r in recs if r["event"] == "roll" and r["purpose"] == "attack"]
        self.assertEqual(len(attacks), 16)
        self.assertTrue(all(r["faces"] for r in attacks))
        # exact dice: LoopDice faces in order, so the first attack's faces are known
        self.assertEqual(attacks[0]["pool"], len(attacks[0]["faces"]))
        for r in attacks:
            self.assertTrue(set(r["faces"]) <= set(LoopDice.FACES))


# ======================================================================== the log's rows


class TestLogRows(CombatTest):
    """Issue 14: the log is database rows written with the state; the JSONL file is an
    export of them, appended to at the fight's clock tick (issue 13), rebuilt from the rows
    when missing or behind."""

    def exported(self, path):
        with open(path) as fh:
            return [json.loads(line) for line in fh]

    def test_rows_hold_every_record_and_the_export_follows_at_the_tick(self):
        import os

        with self.captureOnCommitCallbacks(execute=True):
            self.setup_fight()
        script = combat_in(self.room1)
        path = combatlog.path_for(script.combat_id)
        self.assertFalse(os.path.exists(path))  # committed, waiting for the tick
        script.at_repeat()  # the clock's tick
        exported = self.exported(path)
        self.assertEqual(exported, combatlog.read(script.combat_id))
        self.assertEqual([r["seq"] for r in exported], list(range(1, len(exported) + 1)))
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/declare Thug=dodge")
        self.assertEqual(len(self.exported(path)), len(exported))  # until the next tick
        script.at_repeat()
        self.assertEqual(self.exported(path), combatlog.read(script.combat_id))
        os.remove(path)  # lost export: the next flush rebuilds it whole
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/declare Char2=dodge", caller=self.char2)
        script.at_repeat()
        self.assertEqual(self.exported(path), combatlog.read(script.combat_id))

    def test_an_export_behind_the_rows_is_rebuilt(self):
        """A crash between a commit and the tick loses what waited: the rows have it."""
        with self.captureOnCommitCallbacks(execute=True):
            self.setup_fight()
        script = combat_in(self.room1)
        cid = script.combat_id
        script.at_repeat()
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/declare Thug=dodge")
        combatlog._pending.clear()  # what a crash does to what waited for the tick
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/declare Char2=dodge", caller=self.char2)
        script.at_repeat()
        self.assertEqual(self.exported(combatlog.path_for(cid)), combatlog.read(cid))

    def test_the_server_stopping_exports_what_waits(self):
        from wodcombat import startstop as at_server_startstop

        with self.captureOnCommitCallbacks(execute=True):
            self.setup_fight()
        cid = combat_in(self.room1).combat_id
        at_server_startstop.at_server_stop()
        self.assertEqual(self.exported(combatlog.path_for(cid)), combatlog.read(cid))

    def test_an_ended_fight_leaves_nothing_of_its_log_in_memory(self):
        """Issue 14: the seq and export bookkeeping of a fight goes when it ends, after the
        end's records are exported (a long game would keep both for every fight)."""
        with self.captureOnCommitCallbacks(execute=True):
            self.setup_fight()
        cid = combat_in(self.room1).combat_id
        self.assertIn(cid, combatlog._pending)
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/end")
        self.assertNotIn(cid, combatlog._last_seq)
        self.assertNotIn(cid, combatlog._exported)
        self.assertNotIn(cid, combatlog._pending)
        records = combatlog.read(cid)
        self.assertEqual(records[-1]["event"], "end")
        # the end's records were exported first
        self.assertEqual(self.exported(combatlog.path_for(cid)), records)

    def test_an_export_replaced_by_hand_is_read_before_it_is_appended_to(self):
        """A file put in its place (same name, same size) is checked, not trusted."""
        import os
        import shutil

        with self.captureOnCommitCallbacks(execute=True):
            self.setup_fight()
        script = combat_in(self.room1)
        script.at_repeat()
        path = combatlog.path_for(script.combat_id)
        shutil.copy(path, path + ".copy")
        os.replace(path + ".copy", path)
        with self.captureOnCommitCallbacks(execute=True):
            self.cmd("+combat/declare Thug=dodge")
        script.at_repeat()
        self.assertEqual(self.exported(path), combatlog.read(script.combat_id))

    def test_a_log_row_that_cannot_be_written_keeps_nothing(self):
        from wodcombat.world import plain_writes

        self.setup_fight()
        script = combat_in(self.room1)
        before = script.get_state().to_dict()
        rows = combatlog.rows(script.combat_id).count()
        with mock.patch.object(plain_writes, "insert_record", side_effect=RuntimeError):
            out = self.cmd("+combat/declare Thug=dodge").text
        self.assertIn("nothing was changed", out)
        self.assertEqual(combat_in(self.room1).get_state().to_dict(), before)
        self.assertEqual(combatlog.rows(script.combat_id).count(), rows)
        self.cmd("+combat/declare Thug=dodge")  # and the next command logs on from there
        seqs = [r["seq"] for r in combatlog.read(script.combat_id)]
        self.assertEqual(seqs, list(range(1, len(seqs) + 1)))
