"""NPC templates' default behaviour, accepted with one command (issue 11, staff tools):
``+combat/declare/auto`` declares every NPC not yet declared with its template's default
(wodcombat/world/prototypes.py ``default``; ``{pc}``: the nearest player character standing), played
through +combat with exact dice. The defaults go through the same declaration rules as a
typed one: TURN-01 low to high, TURN-03 high to low.

Char (staff, organizer) rating 6, Char2 rating 4; Rat1 and Rat2 are street thugs (Dex 2,
Melee 2, a knife). Rule IDs: ../shared/rules-catalog.md.
"""

import pytest

from tests.commands.test_combat_effects import EffectsTest


class DefaultsTest(EffectsTest):
    def setup_rats(self, options="", rat_dice=(1, 2)):
        """Rat1 4 + [1] = 5 and Rat2 4 + [rat_dice[1]]; Char 6 + [5] = 11, Char2 4 + [3] =
        7. Rat2 stands 10 yards from Char, so Char2 is the nearest PC to it; Rat1 is as
        near to both and takes the one who joined first, Char."""
        self.cmd(f"+combat/start {options}".rstrip())
        self.player("+combat/join")
        self.assertIn("Rat2 joins", self.cmd("+combat/npc 2 Rat=thug").text)
        self.cmd("+combat/range Rat2/Char=10")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        with self.dice(*rat_dice):
            self.cmd("+combat/init Rat1,Rat2=4")
        self.cmd("+combat/next")

    def declared(self):
        return [(e["actor"], e["actions"]) for e in self.log() if e["event"] == "declare"]

    def knife(self, target):
        return [{"kind": "attack", "target": self.key(target), "weapon": "Knife"}]


class TestDeclareAuto(DefaultsTest):
    def engine_pending(self):
        from wodcombat.typeclasses.combat import combat_in

        return list(combat_in(self.room1).engine().pending(self.state()))

    def test_templates_list_their_default(self):
        out = self.cmd("+combat/templates").text
        self.assertIn("default: attack <nearest PC> with knife", out)
        self.assertIn("+combat/declare/auto", out)

    @pytest.mark.rule("TURN-01", "TURN-03", "ATK-01")
    def test_auto_ahead_declares_every_npc_default(self):
        """Paced ahead: one line declares both Rats (each revealed in its slot, TURN-01);
        the players declare and nobody types +combat/act: high to low (TURN-03), Rat2
        attacks Char2 and Rat1 attacks Char with their knives, Dex 2 + Melee 2."""
        self.setup_rats("=ahead")
        out = self.cmd("+combat/declare/auto").text
        self.assertIn("Rat1 declares: attack Char with Knife", out)
        self.assertNotIn("Not declared", out)
        self.assertEqual(self.declared(), [(self.key("Rat1"), self.knife("Char")),
                                           (self.key("Rat2"), self.knife("Char2"))])
        self.assertIn("Every NPC standing here has declared already.",
                      self.cmd("+combat/declare/auto").text)
        self.player("+combat/declare other waits")
        with self.dice(2, 2, 2, 2, 2, 2, 2, 2):  # Rat2 [2 2 2 2], Rat1 [2 2 2 2]: misses
            self.cmd("+combat/declare other watches")
        acted = [e["actor"] for e in self.log() if e["event"] == "act"]
        self.assertEqual(acted, [self.key(n) for n in ("Char", "Char2", "Rat2", "Rat1")])
        attacks = [(e["actor"], e["target"], e["weapon"]) for e in self.log()
                   if e["event"] == "attack"]
        self.assertEqual(attacks, [(self.key("Rat2"), self.key("Char2"), "Knife"),
                                   (self.key("Rat1"), self.key("Char"), "Knife")])
        self.assertEqual((self.state().turn, self.state().phase), (2, "declare"))

    @pytest.mark.rule("TURN-01")
    def test_auto_slot_by_slot_holds_an_npc_until_its_slot(self):
        """Slot by slot (the default pacing): Rat1 (5) declares at once; Rat2 (4 + [4] = 8)
        comes after Char2 (7): its default is kept hidden and revealed when Char2 has
        declared, in its own slot (TURN-01: low to high), with nobody typing again."""
        self.setup_rats(rat_dice=(1, 4))
        out = self.cmd("+combat/declare/auto").text
        self.assertIn("Rat1 declares: attack Char with Knife", out)
        self.assertIn("Rat2 has declared ahead (revealed in their slot).", out)
        self.assertEqual(out.count("Rat2 has declared ahead"), 1)  # the room's line only
        self.assertNotIn("Not declared", out)
        self.assertEqual(self.declared(), [(self.key("Rat1"), self.knife("Char"))])
        status = self.cmd("+combat").text
        self.assertIn("[NPC] [ahead]", status)
        rows = [line for line in status.splitlines() if "Healthy" in line]
        self.assertEqual(len(rows), 4)
        self.assertEqual({line.index("Healthy") for line in rows}, {rows[0].index("Healthy")})
        self.assertIn("Every NPC standing here has declared already.",
                      self.cmd("+combat/declare/auto").text)
        out = self.player("+combat/declare other waits").text
        self.assertLess(out.index("Char2 declares"), out.index("Rat2 declares: attack Char2"))
        self.assertEqual(self.declared(), [(self.key("Rat1"), self.knife("Char")),
                                           (self.key("Char2"), [{"kind": "other",
                                                                 "text": "waits"}]),
                                           (self.key("Rat2"), self.knife("Char2"))])
        self.assertEqual(self.engine_pending(), [self.key("Char")])

    @pytest.mark.rule("TURN-01")
    def test_a_typed_npc_declaration_before_its_slot_is_held(self):
        """The runner types Rat2's declaration (8) while Rat1 (5) is up: kept hidden, and
        revealed after Char2 (7) declares; slot by slot, a player's before the slot is
        still refused."""
        self.setup_rats("=slots", rat_dice=(1, 4))
        out = self.cmd("+combat/declare Rat2=attack Char with knife").text
        self.assertIn("Rat2 has declared ahead (revealed in their slot).", out)
        self.assertIn("Not your turn to declare", self.player("+combat/declare dodge").text)
        self.cmd("+combat/declare Rat1=dodge")
        out = self.player("+combat/declare other waits").text
        self.assertIn("Rat2 declares: attack Char with Knife", out)
        self.assertEqual([a for a, _ in self.declared()],
                         [self.key(n) for n in ("Rat1", "Char2", "Rat2")])

    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_auto_held_slot_by_slot_acts_only_when_typed(self):
        """Holding is for declarations only: in a fight paced slot by slot the act phase
        still waits for +combat/act (TURN-03), from the highest initiative down."""
        self.setup_rats("=slots", rat_dice=(1, 4))
        self.cmd("+combat/declare/auto")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other watches")
        self.assertEqual(self.state().phase, "act")
        self.assertEqual(self.engine_pending(), [self.key("Char")])
        self.assertEqual([e for e in self.log() if e["event"] == "act"], [])

    @pytest.mark.rule("HLT-02")
    def test_auto_with_nobody_to_attack_says_so(self):
        """Every PC down (HLT-02: incapacitated): the default has nobody to attack, and the
        status names the health level once."""
        self.setup_rats()
        self.cmd("+combat/damage Char=10 lethal")
        self.cmd("+combat/damage Char2=10 lethal")
        out = " ".join(self.cmd("+combat/declare/auto").text.split())
        self.assertIn("Rat1: no player character is standing to attack (declare for it)", out)
        self.assertNotIn("has no default", out)
        status = self.cmd("+combat").text
        self.assertIn("Incapacitated", status)
        self.assertNotIn("Incapacitated (incapacitated)", status)

    def test_auto_refusals_change_nothing(self):
        """Only the organizer or staff; /auto goes with /declare alone; an NPC made from a
        trait list has no default and is named; a PC left out of the list is refused."""
        self.setup_rats("=ahead")
        self.cmd("+combat/npc Bat=str=1,dex=3,brawl=1")
        before = self.state()
        self.assertIn("Only the organizer or staff", self.player("+combat/declare/auto").text)
        self.assertIn("/auto does not go with /start", self.cmd("+combat/start/auto").text)
        self.assertIn("/auto does not go with /attack", self.cmd("+combat/attack/auto Rat1").text)
        self.assertIn("+combat/declare/auto Rat1,Rat2 only theirs",
                      self.cmd("+combat/declare/auto/wp").text)
        self.assertIn("Every NPC standing here has declared already.",
                      self.cmd("+combat/declare/auto Char2").text)
        self.assertEqual(self.state(), before)
        out = " ".join(self.cmd("+combat/declare/auto Rat1,Bat").text.split())
        self.assertIn("Not declared: Bat has no default (declare for it).", out)
        self.assertEqual([a for a, _ in self.declared()], [self.key("Rat1")])
