"""+combat/public is told to the room (issue 28): who may watch a fight on the website
concerns everyone in it, not only the organizer who typed it."""

from tests.commands.test_combat import CombatTest
from tests.helpers import capture_msgs
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world.fight_view import PUBLIC_ATTR


class TestPublicIsToldToTheRoom(CombatTest):
    def test_the_room_hears_public_on_and_off(self):
        self.setup_fight()
        with capture_msgs(self.char2) as seen:
            mine = self.cmd("+combat/public on").text
        self.assertIn("Anyone may watch this fight on the website now.", mine)
        self.assertIn("Char lets anyone watch this fight on the website now.",
                      "\n".join(seen[self.char2]))
        self.assertTrue(combat_in(self.room1).attributes.get(PUBLIC_ATTR))
        with capture_msgs(self.char2) as seen:
            self.cmd("+combat/public off")
        told = " ".join("\n".join(seen[self.char2]).split())
        self.assertIn("Char lets only those in this fight, and staff, watch it on the "
                      "website now.", told)
        self.assertFalse(combat_in(self.room1).attributes.get(PUBLIC_ATTR))

    def test_a_refusal_tells_nobody(self):
        self.setup_fight()
        with capture_msgs(self.char1) as seen:
            self.assertIn("Only the organizer", self.player("+combat/public on").text)
        self.assertEqual(seen[self.char1], [])
        with capture_msgs(self.char2) as seen:
            self.assertIn("Usage: +combat/public on", self.cmd("+combat/public maybe").text)
        self.assertEqual(seen[self.char2], [])
