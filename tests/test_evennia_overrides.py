"""Every override of an Evennia internal (issue 27): opt-in, pinned, and optional.

* Pinned: one test per override asserts the Evennia version it was written against (6.1)
  and the shape of the internal it relies on, so an Evennia upgrade fails the named test
  instead of corrupting data or quietly slowing down.
* Opt-in: each setting absent is off (wodcombat/world/overrides.py); this game turns each on, and
  ``WOD_OVERRIDES=off`` turns each off (a server started that way builds stock classes).
* Optional: a fight played with every override off (a stock Evennia room, Evennia's lock
  check, the ORM's writes) leaves the same state, log rows and sheets as on the fast path.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.test import override_settings
from evennia.utils.test_resources import EvenniaTest

from tests.commands.test_combat import CombatTest, make_sheet
from tests.helpers import capture_msgs
from typeclasses.characters import NPC, Character
from wodcombat.models import CombatSheet
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, listeners, overrides, plain_writes

WRITTEN_AGAINST = "6.1"
ROOT = Path(__file__).resolve().parents[1]


def _evennia_is_the_version_written_against():
    import evennia

    assert importlib.metadata.version("evennia").startswith(WRITTEN_AGAINST + ".")
    assert evennia.__version__.startswith(WRITTEN_AGAINST + ".")


def _source(obj) -> str:
    return inspect.getsource(obj)


class TestPinnedToEvennia(EvenniaTest):
    """What each override relies on, as Evennia 6.1 has it."""

    def test_fast_room_contents(self):
        """wodcombat/typeclasses/rooms.py FastContents, room_contents.py RoomContents."""
        from evennia.commands import cmdhandler
        from evennia.objects.models import ContentsHandler, ObjectDB
        from evennia.objects.objects import DefaultObject

        _evennia_is_the_version_written_against()
        for name in ("init", "add", "remove", "clear", "get", "load"):
            self.assertTrue(callable(getattr(ContentsHandler, name, None)), name)
        handler = ContentsHandler(self.room1)
        self.assertIs(handler._idcache, type(self.room1).__instance_cache__)
        self.assertIn("contents_cache", vars(ObjectDB))  # the lazy property replaced
        moves = _source(ObjectDB)  # a move tells the caches RoomContents counts with
        self.assertIn("old_location.contents_cache.remove(self)", moves)
        self.assertIn("self.db_location.contents_cache.add(self)", moves)
        self.assertIn("self.contents_cache.get(exclude=exclude, content_type=content_type)",
                      _source(DefaultObject.contents_get))
        params = list(inspect.signature(DefaultObject.contents_get).parameters)
        self.assertEqual(params, ["self", "exclude", "content_type"])
        # the one question the override answers differently: everything but the typist
        self.assertIn("location.contents_get(exclude=obj)", _source(cmdhandler))

    def test_npc_call_lock(self):
        """wodcombat/typeclasses/characters.py CallLockShortcut: the handler asks "call" with no
        superuser bypass, and a character's default call lock is call:false()."""
        from evennia.commands import cmdhandler
        from evennia.objects.objects import DefaultCharacter, DefaultObject

        _evennia_is_the_version_written_against()
        self.assertIn('access(caller, access_type="call", no_superuser_bypass=True)',
                      _source(cmdhandler))
        params = list(inspect.signature(DefaultObject.access).parameters)
        self.assertEqual(params[:5], ["self", "accessing_obj", "access_type", "default",
                                      "no_superuser_bypass"])
        self.assertIn("call:false()", _source(DefaultCharacter.basetype_setup))
        self.assertEqual(self.char1.locks.get("call"), "call:false()")

    def test_plain_writes(self):
        """wodcombat/world/plain_writes.py: the Attribute table, its pickled db_value column, a
        string stored as itself, and the monitor handler's hook Evennia's save calls."""
        from evennia.scripts.monitorhandler import MONITOR_HANDLER
        from evennia.typeclasses.attributes import Attribute
        from evennia.utils.dbserialize import to_pickle
        from evennia.utils.picklefield import PickledObjectField

        _evennia_is_the_version_written_against()
        self.assertEqual(Attribute._meta.db_table, "typeclasses_attribute")
        self.assertIsInstance(Attribute._meta.get_field("db_value"), PickledObjectField)
        self.assertEqual(Attribute._meta.get_field("db_value").column, "db_value")
        self.assertEqual(to_pickle("{}"), "{}")
        self.assertEqual(list(inspect.signature(MONITOR_HANDLER.at_update).parameters),
                         ["obj", "fieldname"])

    def test_batch_amp(self):
        """wodcombat/server/amp_batch.py: Evennia's message command, long-value argument, pickling,
        the client methods it overrides, the portal's delivery, and the factory that builds
        its module's class by name (server/conf/server_services_plugins.py)."""
        import evennia
        from evennia.server import amp_client
        from evennia.server.portal import amp, portalsessionhandler

        _evennia_is_the_version_written_against()
        self.assertEqual(amp.MsgServer2Portal.commandName, b"MsgServer2Portal")
        for name in ("toBox", "toString", "fromString", "toStringProto"):
            self.assertTrue(hasattr(amp.Compressed, name), name)
        self.assertTrue(callable(amp.dumps) and amp.AMP_MAXLEN > 1024)
        client = amp_client.AMPServerClientProtocol
        for name in ("send_MsgServer2Portal", "callRemote", "connectionMade", "connectionLost",
                     "data_in"):
            self.assertTrue(callable(getattr(client, name, None)), name)
        self.assertTrue(callable(portalsessionhandler.PortalSessionHandler.data_out))
        self.assertTrue(hasattr(evennia, "PORTAL_SESSION_HANDLER"))
        self.assertIn("AMPServerClientProtocol()",
                      _source(amp_client.AMPClientFactory.buildProtocol))

    def test_tcp_nodelay(self):
        """wodcombat/server/nodelay.py: the protocol classes it subclasses and their settings."""
        from evennia import settings_default
        from evennia.server.amp_client import AMPServerClientProtocol
        from evennia.server.portal.amp_server import AMPServerProtocol
        from evennia.server.portal.telnet import TelnetProtocol
        from evennia.server.portal.webclient import WebSocketClient

        _evennia_is_the_version_written_against()
        for cls in (TelnetProtocol, WebSocketClient, AMPServerProtocol, AMPServerClientProtocol):
            self.assertTrue(callable(getattr(cls, "connectionMade", None)), cls)
        for name in ("TELNET_PROTOCOL_CLASS", "WEBSOCKET_PROTOCOL_CLASS",
                     "AMP_SERVER_PROTOCOL_CLASS", "AMP_CLIENT_PROTOCOL_CLASS"):
            self.assertTrue(getattr(settings_default, name).startswith("evennia."), name)


    def test_flood_guard(self):
        """wodcombat/server/flood_guard.py: Evennia's telnet protocol hands each line to
        ``data_in(**kwargs)`` and the portal's session handler rates it there (the guard
        paces before it); the guard pauses the Twisted transport, which must produce."""
        from evennia.server.portal import portalsessionhandler
        from evennia.server.portal.telnet import TelnetProtocol

        _evennia_is_the_version_written_against()
        self.assertIn("data_in", TelnetProtocol.__dict__)
        self.assertIn("self.data_in(", _source(TelnetProtocol))
        self.assertIn("MAX_COMMAND_RATE", _source(portalsessionhandler))

    def test_rollback_repair(self):
        """wodcombat/typeclasses/rollback.py (no setting: it keeps either path correct after a
        rollback): the attribute cache it resets, the idmapper it flushes, the Script's
        timer it stops."""
        from evennia.scripts import scripts
        from evennia.scripts.scripts import DefaultScript
        from evennia.typeclasses.attributes import Attribute

        _evennia_is_the_version_written_against()
        backend = self.char1.attributes.backend
        self.assertIsInstance(backend._cache, dict)
        self.assertTrue(callable(self.char1.attributes.reset_cache))
        self.assertTrue(callable(Attribute.flush_cached_instance))
        self.assertTrue(callable(DefaultScript.flush_from_cache))
        self.assertIn("self.ndb._task", _source(scripts.ScriptBase))


def test_each_setting_absent_is_off():
    with override_settings():
        for name in overrides.ALL:
            delattr(settings, name)
        assert [overrides.enabled(name) for name in overrides.ALL] == [False] * len(overrides.ALL)


def test_this_game_turns_each_on():
    assert [getattr(settings, name) for name in overrides.ALL] == [True] * len(overrides.ALL)
    assert settings.AMP_CLIENT_PROTOCOL_CLASS == "wodcombat.server.amp_batch.BatchingAMPClient"
    assert settings.TELNET_PROTOCOL_CLASS == "wodcombat.server.flood_guard.FloodGuardTelnet"


_PROBE = """
import django; django.setup()
from django.conf import settings
from evennia.objects.objects import DefaultCharacter, DefaultRoom
from typeclasses.characters import NPC
from typeclasses.rooms import Room
from wodcombat.world import overrides, plain_writes
print([getattr(settings, n) for n in overrides.ALL])
print(Room.contents_get is DefaultRoom.contents_get,
      "FastContents" not in [c.__name__ for c in Room.__mro__])
print(NPC.access is DefaultCharacter.access)
print(plain_writes.update_text is plain_writes.orm_update_text,
      "orm_insert_record" not in vars(plain_writes))
print(settings.AMP_CLIENT_PROTOCOL_CLASS, settings.AMP_SERVER_PROTOCOL_CLASS,
      settings.TELNET_PROTOCOL_CLASS, settings.WEBSOCKET_PROTOCOL_CLASS)
"""


def test_wod_overrides_off_builds_stock_classes():
    """A server started with WOD_OVERRIDES=off (bench/) runs Evennia's own classes."""
    env = {**os.environ, "WOD_OVERRIDES": "off",
           "DJANGO_SETTINGS_MODULE": "server.conf.test_settings"}
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[:4] == [str([False] * 6), "True True", "True",
                       "True True"], out
    assert out[4].split() == [
        "evennia.server.amp_client.AMPServerClientProtocol",
        "evennia.server.portal.amp_server.AMPServerProtocol",
        "evennia.server.portal.telnet.TelnetProtocol",
        "evennia.server.portal.webclient.WebSocketClient"], out


@contextmanager
def overrides_off():
    """What a server with the settings off has, in this process: the ORM's writes and
    Evennia's lock check (the room is a stock one, made by the test)."""
    with mock.patch.object(plain_writes, "update_text",
                           wraps=plain_writes.orm_update_text) as updates, \
            mock.patch.object(plain_writes, "insert_record",
                              wraps=plain_writes.insert_record) as inserts, \
            mock.patch.object(NPC, "access", Character.access):
        yield updates, inserts


_CLOCK = frozenset({"ts", "now", "deadline", "digest"})  # the wall clock, and a hash of it


def _timeless(value):
    """``value`` without what the wall clock put in it (the two plays run apart in time)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in _CLOCK}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


class TestWithEveryOverrideOff(CombatTest):
    def stock_room(self):
        from evennia import create_object
        from evennia.objects.objects import DefaultRoom

        room = create_object("evennia.objects.objects.DefaultRoom", key="Stock")
        self.assertIs(type(room).contents_get, DefaultRoom.contents_get)
        self.assertIsNone(getattr(room.contents_cache, "version", None))
        return room

    def play(self, room):
        """One turn of a fight in ``room``: what it leaves, with the ids of what differs
        between two plays (the fight, the NPC made for it, the room) written as names."""
        self.char1.location = self.char2.location = room
        self.room1 = room  # where CombatTest's helpers look for the fight
        with capture_msgs(self.char2) as seen:
            self.setup_fight()
            self.cmd("+combat/declare Thug=attack Char2")
            self.player("+combat/dodge")
            self.cmd("+combat/declare attack Thug")
            with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
                self.assertIn("Thug takes 1 bashing", self.cmd("+combat/act").text)
            with self.dice(6, 6, 2, 2, 8, 4, 3, 9, 2, 2, 2, 2):
                self.cmd("+combat/act Thug")
        script = combat_in(room)
        thug = next(o for o in room.contents if o.key == "Thug")
        names = {script.combat_id: "FIGHT", f"#{thug.id}": "#THUG", f"#{room.id}": "#ROOM"}
        log = [{k: v for k, v in r.items() if k != "combat"}
               for r in combatlog.read(script.combat_id)]
        left = {"state": script.get_state().to_dict(), "log": log,
                "stored": json.loads(combatlog.state_before(script.combat_id)),
                "sheets": [list(CombatSheet.objects.filter(obj_id=o.id).values_list(
                    "text", flat=True)) for o in (self.char1, self.char2, thug)],
                "rows": list(combatlog.rows(script.combat_id).values_list(
                    "first_seq", "last_seq", "turn")),
                "seen": seen[self.char2]}
        text = json.dumps(_timeless(left), sort_keys=True)
        return re.sub("|".join(map(re.escape, names)), lambda m: names[m.group(0)], text)

    def test_a_fight_leaves_the_same_state_log_and_sheets(self):
        fast = self.play(self.room1)
        self.cmd("+combat/end")
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2))
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, dodge=1, stamina=2))
        with overrides_off() as (updates, inserts):
            slow = self.play(self.stock_room())
        # issue 32: the sheets and the log's rows are the plugin's own tables, written as plain
        # statements either way; no Attribute write of Evennia's is left for the ORM
        self.assertEqual((updates.call_count, inserts.call_count), (0, 12))
        self.assertIn("Thug takes 1 bashing", fast)
        self.maxDiff = None
        self.assertEqual(json.loads(slow), json.loads(fast))

    def test_statements_with_every_override_off(self):
        """Issue 32: with every override off a declaration is still one statement (the log's
        row, the plugin's own table, is a plain INSERT either way) and an act that hurts
        writes the sheet's row (the plugin's own table too) as one plain UPDATE beside it, in
        one transaction (the test's own transaction makes the command's a savepoint)."""
        room = self.stock_room()
        self.char1.location = self.char2.location = room
        self.room1 = room
        with overrides_off():
            self.setup_fight()
            self.cmd("+combat/declare Thug=attack Char2")
            self.player("+combat/dodge")
            declare = self.cmd("+combat/declare attack Thug")
            with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
                act = self.cmd("+combat/act")
        self.assertIn("Thug takes 1 bashing", act.text)

        def verbs(run):
            return [q["sql"].split()[0].upper() for q in run.queries]

        self.assertEqual(verbs(declare), ["INSERT"], declare.sql)
        self.assertEqual(verbs(act), ["SAVEPOINT", "UPDATE", "INSERT", "RELEASE"], act.sql)
        self.assertIn("wodcombat_combatsheet", act.queries[1]["sql"], act.sql)

    def test_listeners_of_a_stock_room_are_drawn_each_call(self):
        from evennia import create_object

        room = self.stock_room()
        self.char2.location = room
        self.assertEqual(listeners.listeners(room), (self.char2,))
        npc = create_object("typeclasses.characters.NPC", key="Extra", location=room)
        self.assertEqual(listeners.listeners(room), (self.char2,))  # nobody runs it
        self.char1.location = room  # no contents version to key on: seen at once
        self.assertEqual(set(listeners.listeners(room)), {self.char1, self.char2})
        npc.db_account = self.account2
        self.assertIn(npc, listeners.listeners(room))
        self.assertIn(f"#{npc.id}", listeners.listeners_and_keys(room)[1])

    def test_a_stock_rooms_listeners_are_drawn_once_a_command(self):
        """Issue 32: within one command (the dict it keeps) a stock room is drawn once for
        the room's text and GMCP both; the next command draws it afresh."""
        room = self.stock_room()
        self.char2.location = room
        drawn: dict = {}
        with mock.patch.object(type(room), "contents", new_callable=mock.PropertyMock,
                               side_effect=lambda: [self.char2]) as asked:
            self.assertEqual(listeners.listeners(room, drawn), (self.char2,))
            self.assertEqual(listeners.listeners_and_keys(room, drawn)[0], (self.char2,))
            self.assertEqual(asked.call_count, 1)
            listeners.listeners(room, {})  # another command
            self.assertEqual(asked.call_count, 2)

    def test_the_npc_call_lock_is_evennias_check_and_answers_the_same(self):
        from evennia import create_object
        from evennia.locks.lockhandler import LockHandler

        npc = create_object("typeclasses.characters.NPC", key="Extra", location=self.room1)
        with overrides_off(), mock.patch.object(LockHandler, "check", autospec=True,
                                                side_effect=LockHandler.check) as asked:
            self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
            self.assertEqual(asked.call_count, 1)  # evaluated, as for any object
            npc.locks.add("call:all()")
            self.assertTrue(npc.access(self.char1, "call", no_superuser_bypass=True))

    def test_an_npc_carries_no_call_lock_and_answers_the_handler_no_all_the_same(self):
        """Issue 32: an NPC drops DefaultCharacter's ``call:false()``; Evennia's check (every
        override off) then answers the command handler's question with its default, no,
        without a lock to evaluate; a call lock staff add is evaluated as ever."""
        from evennia import create_object
        from evennia.commands import cmdhandler

        # the one way Evennia asks it: no superuser bypass, the default (no) left as it is
        self.assertIn('access(caller, access_type="call", no_superuser_bypass=True)',
                      _source(cmdhandler))
        npc = create_object("typeclasses.characters.NPC", key="Extra", location=self.room1)
        self.assertEqual(npc.locks.get("call"), "")
        self.assertEqual(self.char1.locks.get("call"), "call:false()")  # players keep theirs
        with overrides_off():
            for asker in (self.char1, self.char2):
                self.assertFalse(npc.access(asker, "call", no_superuser_bypass=True))
            npc.locks.add("call:all()")
            self.assertTrue(npc.access(self.char1, "call", no_superuser_bypass=True))
        self.assertTrue(npc.access(self.char1, "call", no_superuser_bypass=True))
        npc.locks.remove("call")  # the shortcut (on) answers no again, as the check does
        self.assertFalse(npc.access(self.char1, "call", no_superuser_bypass=True))
        self.assertNotIn(npc, self.room1.contents_get(exclude=self.char1))

    def test_the_orm_writes_store_what_the_plain_ones_do(self):
        from evennia.typeclasses.attributes import Attribute

        from wodcombat.typeclasses.sheets import AttributeSheet

        kept = AttributeSheet(self.char2)  # a host's Attribute storage (issue 32)
        kept.save(make_sheet(strength=2))
        attr = kept._attr()
        stored = []
        for write in (plain_writes.sql_update_text, plain_writes.orm_update_text):
            write(attr, f'{{"by": "{write.__name__}"}}')
            stored.append(Attribute.objects.filter(pk=attr.pk).values_list("db_value",
                                                                           flat=True)[0])
            self.assertEqual(attr.db_value, stored[-1])
        self.assertEqual(stored, ['{"by": "sql_update_text"}', '{"by": "orm_update_text"}'])
        # The log's row, one plain INSERT, is what the ORM's create would store.
        from wodcombat.models import CombatRecord

        plain_writes.insert_record("pinned", 1, 2, 3, "[]", "", "state 0")
        CombatRecord.objects.create(combat="pinned", first_seq=3, last_seq=4, turn=3,
                                    records="[]", undo="", state="state 1")
        rows = combatlog.rows("pinned").values_list("first_seq", "last_seq", "turn", "records",
                                                    "undo", "state")
        self.assertEqual(list(rows), [(1, 2, 3, "[]", "", "state 0"),
                                      (3, 4, 3, "[]", "", "state 1")])
