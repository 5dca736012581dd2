"""Issue 31, played as players would: a spotlight fight under the moves reading
(+combat/start spotlight-moves) through the real command handler with exact 2d6 faces; the
reading in force said by +combat, +rules and the help.

char1 (staff) organizes and runs the opponents; char2 is a player.
"""


import pytest

from wodcombat.typeclasses.combat import combat_in
from tests.commands.test_spotlight_v5 import V5Play
from wodcombat.world import fight_view


class MovesPlay(V5Play):
    """The same players and helpers as the V5 tests; a fight under the moves reading."""

    def start(self):
        """Char2 (Str 3, Dex 2, Wits 2, a knife) and Rat (Str 1, Dex 1), all at Hand;
        round 1 begun with Char2 in the spotlight."""
        out = self.cmd("+combat/start spotlight-moves")
        self.assertIn("spotlight-moves", out)
        for line in ("strength=3", "dexterity=2", "wits=2"):
            self.player(f"+sheet/set {line}")
        self.player("+sheet/equip knife")
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=1,dexterity=1")
        self.cmd("+combat/range all=Hand")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")


class TestAFightUnderMoves(MovesPlay):
    @pytest.mark.rule("SPOT-07", "SPOT-10", "SPOT-11")
    def test_spot07_moves_full_partial_cost_and_miss_through_the_commands(self):
        self.start()
        status = self.cmd("+combat")
        self.assertIn("Actions: moves (an example table): 2d6 + a stat", status)
        # 10+: [4 3] + Strength 3 = 10; the carried knife's Harm 2 on Rat.
        with self.dice(4, 3):
            out = self.player("+combat/act attack Rat")
        self.assertIn("Char2 attacks Rat with knife (at Hand).", out)
        self.assertIn("Char2 rolls attack: 2d6 [4 3] + Strength 3 = 10 => full success.\n"
                      "  The blow lands: the weapon's Harm.", out)
        self.assertIn("Rat takes 2 superficial harm: HP 6 -> 4/6.", out)
        self.player("+combat/done")
        # 7-9: Rat's unarmed attack [3 3] + Strength 1 = 7: Harm 1 and a cost owed.
        self.cmd("+combat/next Rat")
        with self.dice(3, 3):
            out = self.cmd("+combat/act Rat=attack Char2")
        self.assertIn("Rat rolls attack: 2d6 [3 3] + Strength 1 = 7 => success at a cost.",
                      out)
        self.assertIn("The cost is the Storyteller's to name: +combat/cost Rat=<cost>, or "
                      "one", out)
        self.assertIn("1) you take 1 Superficial Harm in return", out)
        self.assertIn("Char2 takes 1 superficial harm: HP 6 -> 5/6.", out)
        self.assertIn("Cost owed: Rat (attack); the organizer names it", self.cmd("+combat"))
        snap = fight_view.snapshot(combat_in(self.room1))  # the web page says the same
        self.assertEqual(snap["owed"], [{"name": "Rat", "move": "attack"}])
        self.assertTrue(snap["reading"].startswith("moves (an example table): 2d6 + a stat"))
        self.assertIn("organizer", self.player("+combat/cost Rat=1").lower())
        self.assertEqual(self.fighter("Rat").cost_owed, "attack")
        self.assertIn("+combat/cost <name>=<cost>", self.cmd("+combat/cost Rat"))
        out = self.cmd("+combat/cost Rat=1")
        self.assertIn("The cost of Rat's attack: you take 1 Superficial Harm in return.",
                      out)
        self.assertIsNone(self.fighter("Rat").cost_owed)
        self.assertEqual(fight_view.snapshot(combat_in(self.room1))["owed"], [])
        self.assertIn("owes no cost", self.cmd("+combat/cost Rat=1"))
        out = self.cmd("+combat/done Rat")
        self.assertIn("Round 2 begins", out)
        # 6-: [1 1] + Wits 2 = 4, a miss; a move in words after its name.
        with self.dice(1, 1):
            out = self.player("+combat/act read the room")
        self.assertIn("Char2 makes a move, read: the room.", out)
        self.assertIn("= 4 => miss.\n  You misread it", out)
        # SPOT-07: one action a turn, under moves too.
        self.assertIn("taken this turn's action", self.player("+combat/act attack Rat"))

    @pytest.mark.rule("SPOT-10")
    def test_spot10_a_moves_weapon_keeps_its_range_tag(self):
        self.start()
        self.cmd("+combat/range Char2/Rat=Close")
        out = self.player("+combat/act attack Rat")
        self.assertIn("knife reaches Intimate to Hand", out)
        out = self.player("+combat/act shoot Rat with knife")
        self.assertIn("shoot takes thrown, pistol", out)
        self.assertIn("names whom ('Gooon' is nobody", self.player("+combat/act attack Gooon"))
        self.assertEqual(self.fighter("Char2").actions, 0)  # nothing used by a refusal


class TestTheReadingIsSaid(MovesPlay):
    def test_rules_and_help_say_which_reading_is_in_force(self):
        out = self.cmd("+rules spotlight-moves=SPOT")
        self.assertIn("Actions resolve as moves (an example table)", out)
        self.assertIn("spotlight-moves/turns.yaml", out)
        out = self.cmd("+rules spotlight=SPOT")
        self.assertIn("Actions resolve as V5 pools", out)
        self.assertIn("A reading", out)
        self.assertNotIn("Actions resolve", self.cmd("+rules numetal=DMG"))
        helped = self.cmd("help +combat/spotlight")
        self.assertIn("this game's reading", helped)
        self.assertIn("spotlight-moves", helped)
        self.assertIn("/cost <name>=<cost>", helped)

    def test_v5_status_says_v5_and_d10_refuses_a_cost(self):
        self.cmd("+combat/start spotlight")
        self.assertIn("Actions: V5 pools", self.cmd("+combat"))
        self.player("+combat/join")
        self.assertIn("owes no cost", self.cmd("+combat/cost Char2=1"))
        self.cmd("+combat/end")
        self.cmd("+combat/start numetal")
        self.player("+combat/join")
        self.assertIn("owes no cost; narrate", self.cmd("+combat/cost Char2=1"))


class TestTheNameWorksEverywhere(MovesPlay):
    """A new ruleset name works wherever a ruleset name does (issue 31)."""

    def test_odds_list_sheet_and_roll_take_spotlight_moves(self):
        out = self.cmd("+combat/odds thug=gunman/50/spotlight-moves")
        self.assertIn("50 fights, ruleset spotlight-moves", out)
        self.assertRegex(out, r"gunman: [1-9]\d* attacks")  # its moves on the thug count
        self.assertIn("spotlight-moves", self.cmd("+rules/list"))
        self.cmd("+combat/start spotlight-moves")
        # the sheet of a spotlight-moves room: bp= is Blood Potency, as under spotlight
        self.player("+sheet/set splat=vampire")
        self.assertIn("Blood Potency set to 2", self.player("+sheet/set bp=2"))
        with self.dice(6, 2):  # +roll stays V5 pools under both readings
            self.assertIn("1 success", self.player("+roll 2"))


class TestTheReaderHearsTheReading(MovesPlay):
    """+combat/screenreader (issue 29) says the reading in force and a cost owed."""

    def tearDown(self):
        from wodcombat.world import reader_mode

        for account in (self.account, self.account2):  # never leave the flag on shared
            account.attributes.remove(reader_mode.ATTR)  # test accounts
        super().tearDown()

    @pytest.mark.rule("SPOT-07")
    def test_spot07_reader_status_says_moves_and_the_cost_owed(self):
        self.start()
        with self.dice(2, 2):
            self.player("+combat/act attack Rat")
        self.cmd("+combat/screenreader on")
        said = self.cmd("+combat")
        self.assertIn("Actions: moves (an example table): 2d6 + a stat;", said)
        self.assertIn("Cost owed: Char2 (attack); the organizer names it with +combat/cost "
                      "Char2=<cost>.", said)
