"""Issue 32: a reader whose one session asked for GMCP gets a fight command's room text and
its ``Char.Combat`` in ONE message to the portal (each message is its own AMP trip, ~0.09 ms
of the server's time without batching), the payload as it was sent on its own before (now
just before the text instead of just after); a session that did not ask gets the text
alone, and nothing is sent twice. Rules played: ATK-01 (the attack acted), TURN-03 (the act
phase moving on)."""

import evennia
import pytest

from tests.commands.test_combat import CombatTest
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import oob, rulebook


def sends(session) -> list[dict]:
    """The keyword sets of every message sent to ``session`` since the last reset."""
    return [dict(c.kwargs) for c in evennia.SESSION_HANDLER.data_out.call_args_list
            if c.args and c.args[0] is session]


class TestCombatWithTheText(CombatTest):
    def setUp(self):
        super().setUp()
        self.flags = dict(self.session.protocol_flags)
        self.session.protocol_flags["OOB"] = True  # a Mudlet-like client said DO GMCP
        self.session.ndb.wod_oob = None

    def tearDown(self):
        # the session is shared by every test: put its flags and sent payloads back
        self.session.protocol_flags.clear()
        self.session.protocol_flags.update(self.flags)
        self.session.ndb.wod_oob = None
        super().tearDown()

    def ready_to_act(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        self.assertEqual(self.state().phase, "act")

    @pytest.mark.rule("ATK-01", "TURN-03")
    def test_ATK_01_an_act_sends_text_and_char_combat_in_one_message(self):
        self.ready_to_act()
        evennia.SESSION_HANDLER.data_out.reset_mock()
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            self.cmd("+combat/act")
        script = combat_in(self.room1)
        expected = oob.combat_state(script.engine(), script.get_state(), f"#{self.char1.id}")
        mine = sends(self.session)
        with_text = [m for m in mine if "text" in m]
        self.assertEqual(len(with_text), 1, mine)  # the room's text, told once
        self.assertIn("Thug takes 1 bashing", str(with_text[0]["text"]))
        self.assertEqual(with_text[0][oob.COMBAT], ((), expected))
        # Evennia's msg puts the text last: the client reads Char.Combat just before the
        # text (as Char.Vitals, sent at the commit), where before it came just after
        self.assertEqual([k for k in with_text[0] if k != "options"], [oob.COMBAT, "text"])
        self.assertEqual([m for m in mine if oob.COMBAT in m], with_text)  # not sent again
        self.assertEqual(self.session.ndb.wod_oob[oob.COMBAT], expected)

    @pytest.mark.rule("TURN-03")
    def test_TURN_03_the_same_payload_is_not_sent_again_and_a_plain_client_gets_none(self):
        self.ready_to_act()
        script = combat_in(self.room1)
        now = oob.combat_state(script.engine(), script.get_state(), f"#{self.char1.id}")
        self.session.ndb.wod_oob = {oob.COMBAT: now}
        evennia.SESSION_HANDLER.data_out.reset_mock()
        self.cmd("+combat/act Thug")  # refused: not Thug's turn; nothing changed
        self.assertEqual([m for m in sends(self.session) if oob.COMBAT in m], [])
        self.session.protocol_flags["OOB"] = False  # a plain telnet client
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            self.cmd("+combat/act")
        mine = sends(self.session)
        self.assertTrue(any("Thug takes 1 bashing" in str(m.get("text")) for m in mine))
        self.assertEqual([m for m in mine if oob.COMBAT in m], [])

    @pytest.mark.rule("HLT-01", "HLT-06")
    def test_HLT_01_the_hurt_reader_gets_vitals_and_text_in_one_message(self):
        """The organizer's damage on Char (2 lethal: Hurt, -1) goes through the service as an
        attack's does; Char.Vitals went in a message of its own at the commit."""
        self.ready_to_act()
        evennia.SESSION_HANDLER.data_out.reset_mock()
        self.cmd("+combat/damage Char=2 lethal")
        sheet = self.char1.sheet.get()
        self.assertEqual(sheet.health["lethal"], 2)
        expected = oob.vitals(sheet, rulebook.get())
        self.assertEqual((expected["health_level"], expected["wound_penalty"]), ("Hurt", -1))
        mine = sends(self.session)
        self.assertEqual(len(mine), 1, mine)  # one trip to the portal
        # before the text, as at the commit; Char.Combat did not change: not sent again
        self.assertEqual([k for k in mine[0] if k != "options"], [oob.VITALS, "text"])
        self.assertEqual(mine[0][oob.VITALS], ((), expected))
        self.assertIn("2 lethal", str(mine[0]["text"]))
