"""Issue 10, played as players would: the spotlight ruleset plays like V5 through the real
command handler with exact dice (FixedDice).

char1 (staff) organizes and runs the opponents; char2 is a player whose vampire is built with
+sheet/set in the room of a spotlight fight (the ruleset in force there).
"""

from unittest import mock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.combat.core.sheet import Sheet
from wodcombat.commands.base import WodCommand
from tests.fixed_dice import FixedDice
from tests.helpers import run_command
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog


class V5Play(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        self.char1.sheet.save(Sheet())
        self.char2.sheet.save(Sheet())

    def tearDown(self):
        script = combat_in(self.room1)
        if script:
            combatlog.forget(script.combat_id)
        super().tearDown()

    def cmd(self, line):
        return run_command(self.char1, line, session=self.session).text

    def player(self, line):
        return run_command(self.char2, line).text

    def dice(self, *faces):
        return mock.patch.object(WodCommand, "rng", FixedDice(*faces))

    def fighter(self, name):
        return next(c for c in combat_in(self.room1).get_state().combatants if c.name == name)

    def build_alice(self):
        """char2's vampire, set in the spotlight room: Blood Potency by staff (and bp=, the
        same trait there), Hunger by the player."""
        self.player("+sheet/set splat=vampire")
        out = self.cmd("+sheet/set Char2/blood potency=2")
        self.assertIn("Char2's Blood Potency set to 2", out)
        self.assertIn("Blood Potency set to 3", self.player("+sheet/set bp=3"))  # SPOT-13
        self.assertIn("Hunger set to 2", self.player("+sheet/set hunger=2"))
        for line in ("wits=1", "dexterity=3", "firearms=2", "strength=2", "brawl=2"):
            self.player(f"+sheet/set {line}")
        self.assertIn("Pistol, light", self.player("+sheet/equip pistol, light"))


class TestAFullSpotlightFight(V5Play):
    @pytest.mark.rule("SPOT-01", "SPOT-04", "SPOT-06", "SPOT-10", "SPOT-11", "SPOT-13",
                      "SPOT-14")
    def test_full_fight_v5_dice_hunger_armor_harm_kept_and_healed(self):
        out = self.cmd("+combat/start spotlight")
        self.assertIn("runs the fight and is not in the order", out)  # issue 10
        self.assertEqual(combat_in(self.room1).get_state().combatants, ())
        self.build_alice()
        self.assertIn("Char2 joins the fight (PC, 12/12 HP)", self.player("+combat/join"))
        self.cmd("+combat/npc Rat=strength=2,dexterity=2,athletics=1")
        self.cmd("+sheet/armor Rat/kevlar vest")
        # a vampire opponent: bp= is Blood Potency here too (9 HP)
        self.assertIn("Vamp joins the fight (opponent, 9/9 HP)", self.cmd(
            "+combat/npc Vamp=splat=vampire,bp=2,strength=3,brawl=2"))
        self.cmd("+combat/range Vamp/Char2=Intimate")
        # SPOT-01: 2d6 + the higher of Wits 1 / Blood Potency 3 from the sheet
        with self.dice(2, 3):
            self.assertIn("[2 3] + Blood Potency 3 = 8", self.player("+combat/init"))
        self.cmd("+combat/next")
        # A shot with the carried light pistol: Dex 3 + Firearms 2, Hunger 2 -> Hunger
        # dice [10 3], others [10 7 2]: 3 + a pair of 10s = 5, messy. Rat: Dex 2 +
        # Athletics 1 [6 6 6] = 3. Margin 2 + 2 = 4; a bullet is Aggravated to a mortal
        # (V5, issue 31), so the Kevlar vest stops none of it.
        with self.dice(10, 3, 10, 7, 2, 6, 6, 6):
            out = self.player("+combat/act attack Rat")
        self.assertIn("Char2 attacks Rat with Pistol, light (at Close)", out)
        self.assertIn("[10 7 2] Hunger [10 3] => 5 successes, messy critical", out)
        self.assertIn("Rat defends: Dexterity 2 + Athletics 1 = 3 dice: [6 6 6] => 3 "
                      "successes", out)
        self.assertIn("Margin 2 + weapon 2 = 4 harm", out)
        self.assertIn("Rat takes 4 aggravated harm: HP 6 -> 2/6", out)
        out = self.player("+combat/done")
        self.assertNotIn("No opponent acts there", out)
        self.assertEqual(combat_in(self.room1).get_state().stage, "closing")  # SPOT-06
        # The vampire opponent bites: Str 3 + Brawl 2, Hunger 1: [2 | 6 6 6 2] = 3; Char2
        # fights back (issue 31, V5 close combat: Str 2 + Brawl 2 beats her dodge's 3
        # dice), Hunger 2: [1 3 | 4 2] = 0, a bestial failure. 3 + 2 Aggravated.
        self.cmd("+combat/next Vamp")
        self.cmd("+combat/mod Char2=grappled")  # V5: a bite needs the target held
        with self.dice(2, 6, 6, 6, 2, 1, 3, 4, 2):
            out = self.cmd("+combat/act Vamp=bite Char2")
        self.assertIn("Char2 fights back: Strength 2 + Brawl 2 = 4 dice: [4 2] Hunger [1 3] "
                      "=> 0 successes, bestial failure", out)
        self.assertIn("Char2 takes 5 aggravated harm: HP 12 -> 7/12", out)
        self.cmd("+combat/done Vamp")
        # Rat shoots back: Dex 2 + Firearms 0 [6 6] = 2 vs [2 2 2] = 0: 2 + 2 = 4
        # Superficial, halved on a vampire: 2.
        self.cmd("+combat/next Rat")
        with self.dice(6, 6, 2, 2, 2):
            out = self.cmd("+combat/act Rat=attack Char2 with pistol")
        self.assertIn("Char2 takes 2 superficial harm (4, halved -2): HP 7 -> 5/12", out)
        out = self.cmd("+combat/done Rat")
        self.assertIn("Round 2 begins", out)  # no opponent turn left (SPOT-06)
        sheet = self.char2.sheet.get()
        self.assertEqual(dict(sheet.harm), {"superficial": 2, "aggravated": 5})
        # Feeding mid-fight: slakes 1 Hunger, heals 1 Aggravated first; Hunger 2 -> 1.
        out = self.player("+combat/feed Char2=1")
        self.assertIn("Char2 feeds (slakes 1 Hunger, now 1): heals 1 aggravated", out)
        self.assertEqual(self.char2.sheet.get().pools["Hunger"].current, 1)
        # End of the scene: one Hunger Check mends 2 at Blood Potency 3 (V5, issue 31): [3]
        # fails (Hunger 1 -> 2) and heals the 2 Superficial.
        with self.dice(3):
            out = self.cmd("+combat/end")
        self.assertIn("Char2 makes 1 Hunger Check [3] (Hunger 1 -> 2), mending 2 a check: "
                      "heals 2 superficial harm.", out)
        sheet = self.char2.sheet.get()
        self.assertEqual((dict(sheet.harm), sheet.pools["Hunger"].current),
                         ({"aggravated": 4}, 2))
        self.assertIn("Harm (spotlight): 4 aggravated", self.player("+sheet"))
        # The next fight: the Harm is still there.
        self.cmd("+combat/start spotlight")
        self.assertIn("Char2 joins the fight (PC, 8/12 HP)", self.player("+combat/join"))


class TestV5Departures(V5Play):
    """Issue 31, finding 6: blades, guns and bows are Aggravated to mortals, only fangs
    give the bite +2, bows roll Dexterity + Firearms (READINGs in spotlight/attack.yaml)."""

    @pytest.mark.rule("SPOT-10", "SPOT-11")
    def test_spot11_bow_rolls_firearms_aggravated_to_a_mortal_fangless_bite_superficial(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2,dexterity=2,athletics=1,brawl=2")
        self.cmd("+sheet/armor Rat/kevlar vest")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        # Dex 3 + Firearms 2, Hunger 2: [6 2 2] Hunger [6 6] = 3 against Rat's [2 2 2] = 0:
        # margin 3 + the short bow's 2 = 5 Aggravated (Rat is a mortal): no vest stops it.
        with self.dice(6, 6, 6, 2, 2, 2, 2, 2):
            out = self.player("+combat/act attack Rat with short bow")
        self.assertIn("Char2 attack: Dexterity 3 + Firearms 2 = 5 dice", out)
        self.assertIn("Margin 3 + weapon 2 = 5 harm.", out)
        self.assertIn("Rat takes 5 aggravated harm: HP 6 -> 1/6", out)
        self.player("+combat/done")
        # Rat (no fangs) bites Char2: Str 2 + Brawl 2 [6 6 6 2] = 3 against Char2 fighting
        # back (Str 2 + Brawl 2 beats her dodge's 3 dice), Hunger 2 [2 2] Hunger [2 2] = 0:
        # margin 3 + 0 = 3 Superficial, halved to 2.
        self.cmd("+combat/range Rat/Char2=Intimate")
        self.cmd("+combat/next Rat")
        self.cmd("+combat/mod Char2=grappled")  # V5: a bite needs the target held
        with self.dice(6, 6, 6, 2, 2, 2, 2, 2):
            out = self.cmd("+combat/act Rat=bite Char2")
        self.assertIn("Margin 3 + weapon 0 = 3 harm.", out)
        self.assertIn("Char2 takes 2 superficial harm (3, halved -1): HP 12 -> 10/12", out)


class TestRollAndSheetUnderSpotlight(V5Play):
    @pytest.mark.rule("SPOT-11")
    def test_roll_uses_v5_dice_and_hunger_dice_in_a_spotlight_room(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        # Dex 3 + Brawl 2, Hunger 2: [1 10 | 10 2 5] = 2 + a pair = 4, messy critical.
        with self.dice(1, 10, 10, 2, 5):
            out = self.player("+roll dex+brawl")
        self.assertIn("5 dice, 1 needed: [10 2 5] Hunger [1 10] => 4 successes, messy "
                      "critical", out)
        with self.dice(1, 3):
            out = self.player("+roll 2 vs 2")
        self.assertIn("Hunger [1 3] => 0 successes, bestial failure", out)
        with self.dice(1, 1, 1, 6):
            out = self.player("+roll 4")  # ones cancel nothing, no botch (Hunger 1 2 here)
        self.assertIn("=> 1 success, win", out)
        self.assertIn("successes needed", self.player("+roll 2 vs 0"))

    @pytest.mark.rule("SPOT-13", "SPOT-11")
    def test_sheet_in_a_spotlight_room_shows_hp_not_the_d10_track(self):
        """Under the spotlight rules +sheet shows the HP track the fight uses (Blood Potency
        3: 12 HP), Aggravated marked X and Superficial /, instead of the seven d10 boxes
        that say Healthy whatever the Harm."""
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.assertIn(" " + "[ ]" * 12 + "  HP 12/12\n", self.player("+sheet"))
        self.player("+combat/join")
        self.cmd("+combat/damage Char2=1 aggravated")
        self.cmd("+combat/damage Char2=3 superficial")  # by hand: exactly that many
        out = self.player("+sheet")
        self.assertIn(" [X][/][/][/]" + "[ ]" * 8 + "  HP 8/12 (1 aggravated, 3 superficial)",
                      out)
        self.assertNotIn("Healthy", out)
        self.assertNotIn("Harm (spotlight)", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)

    def test_bp_means_blood_outside_spotlight_and_help_says_so(self):
        """Without a spotlight fight in the room the default ruleset's bp= is the Blood
        pool; the help names both meanings."""
        self.player("+sheet/set splat=vampire")
        self.assertIn("Blood set to", self.player("+sheet/set bp=5"))
        from wodcombat.commands.sheet import CmdSheet

        self.assertIn("bp= means Blood Potency", " ".join(CmdSheet.__doc__.split()))


class TestTheRoundAndHelp(V5Play):
    @pytest.mark.rule("SPOT-06", "SPOT-12", "SPOT-07")
    def test_next_after_last_pc_staked_shown_incapacitated_npc_move_in_help(self):
        self.cmd("+combat/start spotlight")
        self.player("+sheet/set splat=vampire")
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2")
        with self.dice(3, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        self.player("+combat/done")
        out = self.cmd("+combat/next")
        self.assertNotIn("No opponent acts there", out)
        self.assertIn("Round 2 begins", out)
        self.cmd("+combat/stake Char2")
        self.assertIn("incapacitated, staked", self.cmd("+combat"))
        self.assertNotIn("active, staked", self.cmd("+combat"))
        from wodcombat.commands.combat import CmdCombat

        self.assertIn("/move <npc>=<target>=closer", CmdCombat.__doc__)


class TestWillpowerReroll(V5Play):
    """Issue 31, finding 6: a Willpower point rerolls up to three of the attack's dice that
    are not Hunger dice, after the roll (READING in spotlight/dice.yaml)."""

    @pytest.mark.rule("SPOT-11")
    def test_spot11_willpower_reroll_after_a_miss_shows_old_and_new_faces(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2,dexterity=2,athletics=1")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        # Hunger [2 3], others [2 6 2] = 1 against Rat's [6 2 2] = 1: a tie, a miss.
        with self.dice(2, 3, 2, 6, 2, 6, 2, 2):
            out = self.player("+combat/act attack Rat")
        self.assertIn("[2 6 2] Hunger [2 3] => 1 success", out)
        self.assertIn("Rat is not harmed", out)
        willpower = self.char2.sheet.get().pools["Willpower"].current
        self.assertIn("+combat/reroll <die>", self.player("+combat/reroll x"))
        self.assertIn("not Hunger dice", self.player("+combat/reroll 4"))
        self.assertIn("no roll of yours", self.cmd("+combat/reroll Rat=1"))
        # dice 1 and 3 of [2 6 2]: 2 -> 8, 2 -> 9: [8 6 9] = 3, margin 2 + pistol 2 = 4,
        # Aggravated to a mortal.
        with self.dice(8, 9):
            out = self.player("+combat/reroll 1,3")
        self.assertIn(f"Char2 spends 1 Willpower ({willpower - 1} left), rerolls 1, 3: "
                      f"[2 2] -> [8 9].", out)
        self.assertIn("[8 6 9] Hunger [2 3] => 3 successes", out)
        self.assertIn("Rat defends: Dexterity 2 + Athletics 1 = 3 dice: [6 2 2]", out)
        self.assertIn("Margin 2 + weapon 2 = 4 harm.", out)
        self.assertIn("Rat takes 4 aggravated harm: HP 6 -> 2/6", out)
        self.assertNotIn("attacks Rat", out)  # the act was told with the first roll
        self.assertLessEqual(len(out.splitlines()[0]), 78)
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, willpower - 1)
        self.assertIn("no roll of yours", self.player("+combat/reroll 2"))  # once a roll


class TestImpairment(V5Play):
    """Issue 31, finding 6: V5 Impairment (READING in spotlight/dice.yaml)."""

    @pytest.mark.rule("SPOT-11")
    def test_spot11_no_willpower_left_costs_social_and_mental_pools_two_dice(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+sheet/set hunger=0")
        self.player("+sheet/set manipulation=4")
        with self.dice(7, 3, 8, 6):
            out = self.player("+roll manipulation+subterfuge")
        self.assertIn("= 4 dice", out)  # Willpower left: no Impairment
        self.player("+sheet/set willpower=0")
        with self.dice(7, 3):
            out = self.player("+roll manipulation+subterfuge")
        self.assertIn("Manipulation 4 + Subterfuge 0, Impaired (Willpower) -2 dice = 2 dice",
                      out)
        self.assertIn("[7 3] => 1 success", out)
        with self.dice(7, 3, 8, 6, 6):
            out = self.player("+roll dex+brawl")  # Physical: Willpower does not weigh
        self.assertIn("= 5 dice", out)

    @pytest.mark.rule("SPOT-11", "SPOT-13")
    def test_spot13_a_target_at_zero_hp_defends_impaired(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2,dexterity=3,athletics=1")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        self.cmd("+combat/damage Rat=6 superficial")  # 0 HP: the Harm track full
        # Rat: Dexterity 3 + Athletics 1 - 2 = 2 dice [6 2]
        with self.dice(2, 3, 6, 6, 2, 6, 2):
            out = self.player("+combat/act attack Rat")
        self.assertIn("Rat defends: Dexterity 3 + Athletics 1 + Impaired (Health) -2 = 2 "
                      "dice: [6 2] => 1 success", out)


class TestRouseCheck(V5Play):
    """Issue 31, finding 6: a Discipline Power costs a vampire a Rouse Check (READING in
    spotlight/harm.yaml)."""

    @pytest.mark.rule("SPOT-07")
    def test_spot07_act_power_rolls_a_rouse_check_and_raises_hunger(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+sheet/set celerity=2")
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        self.assertIn("no dots in Dominate", self.player("+combat/act power dominate"))
        self.assertIn("Name a power", self.player("+combat/act power"))
        with self.dice(4):
            out = self.player("+combat/act power celerity")
        self.assertIn("Char2 uses Celerity.", out)
        self.assertIn("Char2 rouses the blood [4]: failed: Hunger 2 -> 3.", out)
        self.assertEqual(self.char2.sheet.get().pools["Hunger"].current, 3)
        # 'power' inside what is done is just a word
        self.player("+combat/done")
        self.cmd("+combat/next Rat")
        self.assertIn("Rat acts: draws on the power of the night.",
                      self.cmd("+combat/act draws on the power of the night"))


class TestCloseCombat(V5Play):
    """Issue 31, finding 6: Brawl/Melee as a close-combat defense, and fighting back (READING
    in spotlight/attack.yaml)."""

    @pytest.mark.rule("SPOT-10", "SPOT-11")
    def test_spot11_a_defender_with_a_knife_fights_back_and_cuts_the_attacker(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=2,dexterity=2,athletics=1,melee=3")
        self.cmd("+sheet/equip Rat/knife")
        self.cmd("+combat/range Rat/Char2=Hand")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        # Char2 punches: Str 2 + Brawl 2, Hunger [2 2] others [6 2] = 1. Rat fights back
        # with his knife, Dex 2 + Melee 3 (5 against a dodge of 3): [6 6 6 2 2] = 3. He
        # wins by 2 + knife 2 = 4 Superficial (Char2 is a vampire), halved: 2.
        with self.dice(2, 2, 6, 2, 6, 6, 6, 2, 2):
            out = self.player("+combat/act attack Rat with unarmed")
        self.assertIn("Rat fights back: Dexterity 2 + Melee 3 = 5 dice: [6 6 6 2 2] => 3 "
                      "successes", out)
        self.assertIn("Rat wins by 2 + weapon 2 = 4 harm to Char2.", out)
        self.assertIn("Rat is not harmed", out)
        self.assertIn("Char2 takes 2 superficial harm (4, halved -2): HP 12 -> 10/12", out)
        self.assertEqual(dict(self.char2.sheet.get().harm), {"superficial": 2})


class TestGrappleBeforeBite(V5Play):
    """Issue 31, finding 6: a bite needs the target held (READING in spotlight/attack.yaml)."""

    @pytest.mark.rule("SPOT-07", "SPOT-10")
    def test_spot10_bite_refused_unheld_grapple_holds_then_bite(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()
        self.player("+combat/join")
        self.cmd("+combat/npc Rat=strength=1,dexterity=2,athletics=1")
        self.cmd("+combat/range Rat/Char2=Intimate")
        with self.dice(2, 3):
            self.player("+combat/init")
        self.cmd("+combat/next")
        self.assertIn("A bite needs Rat held: grapple first (+combat/act grapple Rat)",
                      " ".join(self.player("+combat/act bite Rat").split()))
        # Str 2 + Brawl 2, Hunger [2 2] others [6 6] = 2 against Rat's dodge [2 2 2] = 0
        with self.dice(2, 2, 6, 6, 2, 2, 2):
            out = self.player("+combat/act grapple Rat")
        self.assertIn("Char2 grapples Rat (at Intimate).", out)
        self.assertIn("Margin 2: Rat is held.", out)
        self.assertIn("Rat is grappled (rounds 1 to 2).", out)
        self.assertNotIn("harm", out)
        self.player("+combat/done")
        self.cmd("+combat/next")
        self.assertEqual(combat_in(self.room1).get_state().round, 2)
        with self.dice(2, 2, 6, 6, 2, 2, 2):
            out = self.player("+combat/act bite Rat")
        self.assertIn("Rat takes 4 aggravated harm", out)



class TestMending(V5Play):
    """Issue 31, finding 6: the end-of-scene Hunger Check mends by Blood Potency, one Rouse
    Check at a time (READING in spotlight/harm.yaml)."""

    @pytest.mark.rule("SPOT-11", "SPOT-13")
    def test_spot13_three_checks_mend_five_and_hunger_rises_on_each_failure(self):
        self.cmd("+combat/start spotlight")
        self.build_alice()  # Blood Potency 3: 2 a check; Hunger 2
        self.player("+combat/join")
        self.cmd("+combat/damage Char2=5 superficial")
        with self.dice(4, 7, 2):
            out = self.cmd("+combat/end")
        self.assertIn("Char2 makes 3 Hunger Checks [4 7 2] (Hunger 2 -> 4), mending 2 a "
                      "check: heals 5 superficial harm.", out)
        sheet = self.char2.sheet.get()
        self.assertEqual((dict(sheet.harm), sheet.pools["Hunger"].current), ({}, 4))
