"""Issue 29, staff oversight: the staff channel hears fights start and end (and, if the game
chooses, every roll), ``+combat/watch`` follows a fight from another room, a relay channel
carries a fight's lines for Evennia's Discord bridge, and the game's scene logger is handed
every line the room reads (wodcombat/world/fight_relay.py)."""

from contextlib import contextmanager
from unittest import mock

from django.test import override_settings
from evennia.comms.comms import DefaultChannel
from evennia.comms.models import ChannelDB
from evennia.utils.ansi import strip_ansi

from tests.commands.test_combat import CombatTest
from tests.helpers import capture_msgs
from wodcombat import conf
from wodcombat.typeclasses.combat import combat_in

SCENE = []


def scene_line(room, line, fight_id):
    SCENE.append((room.key, line, fight_id))


@contextmanager
def channel_lines():
    """(channel, text) of every channel message sent."""
    heard, original = [], DefaultChannel.msg

    def msg(self, message, *args, **kwargs):
        heard.append((self.key, message))
        return original(self, message, *args, **kwargs)

    with mock.patch.object(DefaultChannel, "msg", msg):
        yield heard


class RelayTest(CombatTest):
    def short_fight(self):
        """Start, one initiative roll of [5], end."""
        self.cmd("+combat/start")
        with self.dice(5):
            self.cmd("+combat/init")
        self.cmd("+combat/end")


class TestStaffChannel(RelayTest):
    def test_staff_hear_a_fight_start_and_end_and_no_roll_by_default(self):
        with channel_lines() as heard:
            self.short_fight()
        room = self.room1
        self.assertEqual([c for c, _ in heard], ["CombatStaff", "CombatStaff"], heard)
        self.assertEqual(heard[0][1], f"Char starts a fight in {room.key} (#{room.id}) "
                                      f"(numetal): +combat/watch #{room.id} follows it.")
        self.assertEqual(heard[1][1], f"The fight in {room.key} (#{room.id}) has ended.")
        channel = ChannelDB.objects.get_channel("CombatStaff")
        self.assertTrue(channel.access(self.account, "listen"))
        self.assertFalse(channel.access(self.account2, "listen"))  # a player is not staff
        self.assertIn(self.account, channel.subscriptions.all())

    @override_settings(WODCOMBAT_STAFF_ROLLS=True)
    def test_with_rolls_on_every_roll_goes_to_the_channel_with_its_dice(self):
        self.cmd("+combat/start")
        with channel_lines() as heard, self.dice(5):
            self.cmd("+combat/init")
        self.assertEqual(len(heard), 1, heard)
        self.assertIn(f"[Combat: {self.room1.key}] Char", heard[0][1])
        self.assertIn("[5]", heard[0][1])

    @override_settings(WODCOMBAT_STAFF_CHANNEL=None)
    def test_no_channel_when_the_setting_is_none(self):
        with channel_lines() as heard:
            self.cmd("+combat/start")
            self.cmd("+combat/end")
        self.assertEqual(heard, [])

    def test_a_wrong_setting_is_named(self):
        for name, value in (("WODCOMBAT_STAFF_CHANNEL", 5), ("WODCOMBAT_RELAY", "all"),
                            ("WODCOMBAT_STAFF_ROLLS", "yes"),
                            ("WODCOMBAT_SCENE_LOG", "no.such.function")):
            with override_settings(**{name: value}):
                read = {"WODCOMBAT_STAFF_CHANNEL": lambda: conf.channel_name(name),
                        "WODCOMBAT_RELAY": conf.relay_kind,
                        "WODCOMBAT_STAFF_ROLLS": conf.staff_rolls,
                        "WODCOMBAT_SCENE_LOG": conf.scene_log}[name]
                with self.assertRaises(conf.SettingError) as err:
                    read()
                self.assertIn(f"settings.{name}", str(err.exception))


class TestWatch(CombatTest):
    def test_staff_follow_a_fight_from_another_room_and_stop(self):
        self.cmd("+combat/start")
        self.player("+combat/join")
        self.char1.move_to(self.room2, quiet=True)
        reply = self.cmd(f"+combat/watch #{self.room1.id}").text
        self.assertIn(f"You watch the fight in {self.room1.key} (#{self.room1.id})", reply)
        with capture_msgs(self.char1) as seen, self.dice(3):
            self.player("+combat/init")
        told = "\n".join(seen[self.char1])
        self.assertIn(f"[Combat: {self.room1.key}] Char2 rolls initiative", told)
        self.assertIn(f"{self.room1.key} (#{self.room1.id})", self.cmd("+combat/watch").text)
        self.assertIn("You stop watching", self.cmd("+combat/watch off").text)
        with capture_msgs(self.char1) as seen:
            self.player("+combat/leave")
        self.assertEqual(seen[self.char1], [])

    def test_a_watcher_with_a_screen_reader_hears_one_fact_a_line(self):
        """Issue 29: +combat/screenreader reaches the lines a watcher reads from elsewhere."""
        self.cmd("+combat/start")
        self.player("+combat/join")
        self.char1.move_to(self.room2, quiet=True)
        self.cmd(f"+combat/watch #{self.room1.id}")
        self.cmd("+combat/screenreader on")
        try:
            with capture_msgs(self.char1) as seen, self.dice(3):
                self.player("+combat/init")
        finally:
            self.cmd("+combat/screenreader off")
        told = "\n".join(seen[self.char1])
        self.assertIn(f"Combat in {self.room1.key}: Char2 rolls initiative", told)
        self.assertNotIn("[Combat", told)

    def test_refusals_change_nothing(self):
        self.cmd("+combat/start")
        script = combat_in(self.room1)
        self.assertIn("Only staff watch fights", self.player(f"+combat/watch #{self.room1.id}")
                      .text)
        self.assertIn("That fight is here", self.cmd(f"+combat/watch #{self.room1.id}").text)
        self.assertIn("names no room with a fight", self.cmd("+combat/watch Nowhere").text)
        self.assertIn(f"#{self.room1.id}", self.cmd("+combat/watch Nowhere").text)
        self.assertIn("You watch no fight: nothing to stop", self.cmd("+combat/watch off").text)
        self.assertFalse(script.attributes.get("watchers"))


class TestRelayAndSceneLog(RelayTest):
    @override_settings(WODCOMBAT_RELAY_CHANNEL="Fights", WODCOMBAT_RELAY="turns")
    def test_turns_copies_every_line_to_the_relay_channel(self):
        with channel_lines() as heard:
            self.cmd("+combat/start")
            with self.dice(5):
                self.cmd("+combat/init")
        fights = [text for channel, text in heard if channel == "Fights"]
        self.assertEqual(len(fights), 2, heard)
        self.assertIn("starts a fight", fights[0])
        self.assertIn("[5]", fights[1])
        channel = ChannelDB.objects.get_channel("Fights")
        self.assertTrue(channel.access(self.account2, "listen"))  # Discord's bridge reads it
        self.assertFalse(channel.access(self.account2, "send"))

    @override_settings(WODCOMBAT_RELAY_CHANNEL="Fights", WODCOMBAT_RELAY="summary")
    def test_summary_copies_only_the_start_and_the_end(self):
        with channel_lines() as heard:
            self.short_fight()
        fights = [text for channel, text in heard if channel == "Fights"]
        self.assertEqual(len(fights), 2, heard)
        self.assertIn("starts a fight", fights[0])
        self.assertNotIn("[5]", "".join(fights))

    @override_settings(WODCOMBAT_SCENE_LOG="tests.commands.test_fight_relay.scene_line")
    def test_the_scene_logger_is_handed_every_room_line(self):
        SCENE.clear()
        with capture_msgs(self.char2) as seen:
            self.cmd("+combat/start")
            with self.dice(5):
                self.cmd("+combat/init")
        read = " ".join(" ".join(seen[self.char2]).split())  # as the client wrapped it
        fight_id = combat_in(self.room1).combat_id
        handed = [strip_ansi(line) for _, line, _ in SCENE]
        self.assertEqual(len(handed), 3)
        self.assertTrue(all(line.startswith("[Combat] ") for line in handed), handed)
        self.assertEqual(" ".join(" ".join(handed).split()), read)
        self.assertEqual({(room, fid) for room, _, fid in SCENE}, {(self.room1.key, fight_id)})

    @override_settings(WODCOMBAT_SCENE_LOG="tests.commands.test_fight_relay.broken")
    def test_a_failing_scene_logger_does_not_fail_the_fight(self):
        self.assertIn("starts a fight", self.cmd("+combat/start").text)
        self.assertIsNotNone(combat_in(self.room1))


def broken(room, line, fight_id):
    raise RuntimeError("the scene system is down")
