"""Staff tools (issue 11): groups of NPCs in one line, the organizer role handed over, a
list of every fight, NPCs made for a fight removed with it, and the end-of-fight summary.
Set-up numbers: tests/commands/test_combat.py (Char 11, Char2 7, Thug 5)."""

import pytest

from tests.commands.test_combat_effects import EffectsTest
from wodcombat.typeclasses.combat import combat_in


class TestNpcGroups(EffectsTest):
    @pytest.mark.rule("INIT-02", "TURN-01")
    def test_a_group_is_made_rolled_declared_and_acted_in_one_line_each(self):
        self.cmd("+combat/start=slots")  # slot by slot: the Rats act when typed
        out = self.cmd("+combat/npc 3 Rat=str=1,dex=3,brawl=1").text
        for name in ("Rat1", "Rat2", "Rat3"):
            self.assertIn(f"{name} joins the fight", out)
        with self.dice(1, 2, 3):
            out = self.cmd("+combat/init Rat1,Rat2,Rat3=4").text
        self.assertEqual(sorted(c.init_total for c in self.state().combatants
                                if c.name.startswith("Rat")), [5, 6, 7])
        with self.dice(5):
            self.cmd("+combat/init")
        self.cmd("+combat/next")
        self.cmd("+combat/declare Rat1,Rat2,Rat3=other squeak")
        self.assertTrue(all(c.declared for c in self.state().combatants if c.is_npc))
        self.cmd("+combat/declare pass")
        out = self.cmd("+combat/act Rat3,Rat2,Rat1").text
        for name in ("Rat1", "Rat2", "Rat3"):
            self.assertIn(f"{name} acts: squeak", out)

    def test_group_errors_change_nothing(self):
        self.cmd("+combat/start")
        before = self.state().to_dict()
        for line, want in (("+combat/npc Rat,,Rat=thug", "Name each NPC once"),
                           ("+combat/npc 99 Rat=thug", "from 1 to 20"),
                           ("+combat/npc Rat,Rat=thug", "Name each NPC once")):
            self.assertIn(want, self.cmd(line).text)
        self.assertEqual(self.state().to_dict(), before)
        self.assertIn("Only the organizer or staff",
                      self.player("+combat/npc Rat1,Rat2=thug").text)


class TestOrganizer(EffectsTest):
    def test_hand_over_and_leaving_passes_the_role_on(self):
        self.setup_fight()
        self.assertIn("Char2 now organizes the fight",
                      self.cmd("+combat/organizer Char2").text)
        self.assertEqual(combat_in(self.room1).organizer, self.key("Char2"))
        self.assertIn("Thug passes (declare)", self.player("+combat/next Thug").text)
        self.assertIn("is an NPC", self.player("+combat/organizer Thug").text)
        self.assertIn("Char now organizes the fight", self.player("+combat/leave").text)

    def test_a_player_cannot_take_the_role(self):
        self.setup_fight()
        self.assertIn("Only the organizer or staff", self.player("+combat/organizer Char2").text)


class TestFightsAndEnd(EffectsTest):
    def test_staff_list_every_fight_players_may_not(self):
        self.setup_fight()
        out = self.cmd("+combat/fights").text
        self.assertIn("numetal", out)
        self.assertIn("waiting for: Thug", out)
        self.assertIn("Only staff", self.player("+combat/fights").text)

    def test_end_summary_and_npcs_made_for_the_fight_go(self):
        self.setup_fight()
        self.cmd("+combat/damage Thug=7 lethal")
        self.cmd("+combat/damage Char2=2 bashing")
        out = self.cmd("+combat/end").text
        self.assertIn("Fight summary (1 turn): hurt (levels taken): Thug 7, Char2 2.", out)
        self.assertIn("Down: Thug (incapacitated).", out)
        self.assertIn("The fight is over.", out)
        self.assertFalse([o for o in self.room1.contents if o.key == "Thug"])

    def test_end_keep_and_kick_keep(self):
        self.setup_fight()
        self.cmd("+combat/kick Thug=keep")
        self.assertTrue([o for o in self.room1.contents if o.key == "Thug"])
        self.cmd("+combat/npc Goon=thug")
        out = self.cmd("+combat/kick Goon").text
        self.assertIn("Goon was made for this fight and is gone", out)
        self.assertFalse([o for o in self.room1.contents if o.key == "Goon"])
        self.cmd("+combat/npc Rat=thug")
        self.cmd("+combat/end keep")
        self.assertTrue([o for o in self.room1.contents if o.key == "Rat"])
        self.assertIn("no fight", self.cmd("+combat").text.lower())


class TestSpotlightEnd(EffectsTest):
    def test_spotlight_summary_names_harm_and_only_real_falls(self):
        self.cmd("+combat/start spotlight")
        self.cmd("+combat/npc Goon=thug")
        self.cmd("+combat/damage Goon=2 superficial")
        out = self.cmd("+combat/end").text
        self.assertIn("hurt (levels taken): Goon 2.", out)
        self.assertNotIn("Down:", out)
