"""Found by playing the game over telnet (2026-12-02, branch play): each test replays what a
player typed and checks the reply. Rule IDs: ../shared/rules-catalog.md."""

import pytest

from tests.commands.test_combat import CombatTest
from tests.commands import test_combat_defenses as defenses
from tests.commands import test_combat_odds as odds
from tests.commands import test_combat_spotlight as spotlight
from tests.commands.test_combat_effects import EffectsTest


class TestDeclarationEcho(CombatTest):
    @pytest.mark.rule("TURN-02")
    def test_declaration_shows_location_position_and_willpower(self):
        """'+combat/declare attack Thug at head from flank wp' was echoed as 'attack Thug':
        the room (and the player) did not hear the targeting, the flank or the Willpower
        point, which TURN-02 says is declared."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge wp")
        text = self.cmd("+combat/declare attack Thug at head from flank wp").text
        self.assertIn("Char declares: attack Thug at head from flank (Willpower).", text)
        status = self.cmd("+combat").text
        self.assertIn("dodge (Willpower)", status)
        self.assertIn("from flank (Willpower)", status)  # wrapped under the name


class TestDefenseRefusalNarrated(EffectsTest):
    arm = defenses.TestRefusedDefenses.arm
    attack_into = defenses.TestRefusedDefenses.attack_into

    @pytest.mark.rule("DEF-01", "DMG-16")
    def test_a_useless_block_is_told_about_the_defender(self):
        """The room heard "Thug2's block does not work against this attack: You can't block
        lethal damage you cannot soak." - 'You' addressed everyone watching."""
        self.arm(char_weapon="knife")
        text = self.attack_into("block", "knife")
        self.assertIn("Thug's block does not work against this attack: Thug can't block "
                      "lethal damage they", text)
        self.assertNotIn("You can't", text)


class TestSplitWithADefenseFirst(EffectsTest):
    @pytest.mark.rule("TURN-06", "TURN-07")
    def test_act_with_the_dodge_first_says_it_waits(self):
        """'+combat/declare dodge cover; attack Gun' then '+combat/act' answered "You have
        taken the main-phase action; the other actions come in the extra phase (/07)." -
        nothing had been taken, and a rule ID's tail was shown."""
        self.to_act(char_action="dodge; attack Thug")
        text = self.cmd("+combat/act").text
        self.assertIn("Your dodge resolves when you are attacked; the other actions come in "
                      "the extra phase.", text)
        self.assertNotIn("/07", text)


class TestDeathToldOnce(EffectsTest):
    @pytest.mark.rule("HLT-03")
    def test_a_death_is_not_also_incapacitated(self):
        """A mortal killed by a gunshot: the room heard "admin is DEAD." then "admin is
        incapacitated (turns 1..on)."; +combat showed "Incapacitated (incapacitated) (DEAD)
        ... (incapacitated)"."""
        self.setup_fight()
        text = self.cmd("+combat/damage Thug=9 lethal").text
        self.assertIn("Thug is DEAD.", text)
        self.assertNotIn("Thug is incapacitated", text)
        row = next(line for line in self.cmd("+combat").text.splitlines() if "Thug" in line)
        self.assertIn("Incapacitated (DEAD)", row)
        self.assertEqual(row.count("ncapacitated"), 1, row)

    def test_a_condition_says_from_which_turn(self):
        self.setup_fight()
        self.assertIn("Thug is prone (from turn 1 on).", self.cmd("+combat/mod Thug=prone").text)

    def test_incapacitated_said_once_in_the_status(self):
        """'+combat' after '+combat/damage Thug=7 lethal' (a mortal) read
        'Incapacitated (incapacitated)'."""
        self.setup_fight()
        self.assertIn("Thug is INCAPACITATED", self.cmd("+combat/damage Thug=7 lethal").text)
        row = next(line for line in self.cmd("+combat").text.splitlines() if "Thug" in line)
        self.assertEqual(row.count("ncapacitated"), 1, row)


class TestQuotedNameKept(CombatTest):
    def test_own_name_quoted_back_is_not_you(self):
        """Staff who left their fight typed '+combat/organizer admin' and read "'you' is not
        in this fight": the name they typed, quoted back, was turned into 'you'."""
        self.setup_fight()
        self.cmd("+combat/kick Char2")  # else "Char" finds Char2 by its first letters
        self.cmd("+combat/leave")
        text = self.cmd("+combat/organizer Char").text
        self.assertIn("'Char' is not in this fight", text)
        self.assertNotIn("'you'", text)


class TestStaffOutsideTheFightNamed(CombatTest):
    def test_damage_and_undo_by_staff_who_left(self):
        """Staff left the fight (to run it from outside) and typed '+combat/damage Vamp=6
        lethal': the room read "Vamp takes 6 lethal (by #1)", and "#1 undoes the last
        resolution" after '+combat/undo'."""
        self.setup_fight()
        self.cmd("+combat/leave")
        text = self.cmd("+combat/damage Thug=2 lethal").text
        self.assertIn("Thug takes 2 lethal (by Char)", text)
        self.assertIn("Char undoes the last resolution", self.cmd("+combat/undo").text)


class TestLogStart(CombatTest):
    def test_log_names_the_ruleset_started(self):
        """'+combat/log 30' began "admin starts a fight (None, classic mode)"."""
        self.cmd("+combat/start everyman")
        text = self.cmd("+combat/log 5").text
        self.assertIn("Char starts a fight (everyman, classic mode", text)
        self.assertNotIn("None", text)


class TestDesperateDefenseDeclared(EffectsTest):
    @pytest.mark.rule("DEF-04")
    def test_defend_dodge_is_told_as_a_desperate_defense(self):
        """'+combat/defend dodge' was told to the room as "Bob declares: dodge.", the same
        as a single dodge; the attackers could not tell it covers every attack."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        text = self.player("+combat/defend dodge").text
        self.assertIn("Char2 declares a desperate defense: dodge against every attack this "
                      "turn, nothing else.", text)


class TestClinchRefusalInWords(EffectsTest):
    @pytest.mark.rule("CLOSE-03")
    def test_a_clinched_attacker_is_told_the_maneuvers_in_words(self):
        """Rat1, clinched, acting its declared knife attack read "In a clinch you may only:
        clinch_strike, bite, ..." - the rules table's key, not what a player types."""
        self.to_act(thug_action="attack Char", char_action="attack Thug as clinch")
        with self.dice(*[8] * 20):
            self.assertIn("locked in a clinch", self.cmd("+combat/act").text)
        self.player("+combat/act")  # Char2's "other waits"
        text = self.cmd("+combat/act Thug").text
        # numetal: the action is lost, and the room is told about Thug, not "you".
        self.assertIn("Thug cannot attack Char now: In a clinch Thug may only: clinch strike, "
                      "bite, try to escape, or act without moving their limbs.", text)
        self.assertNotIn("clinch_strike", text)


class TestHelpInWords(CombatTest):
    def test_help_names_maneuvers_as_typed(self):
        """'help +combat' listed "clinch_strike" and "weapon_strike" among the maneuvers."""
        from wodcombat.commands.combat import CmdCombat

        text = CmdCombat.__doc__  # what help +combat pages through
        self.assertIn("clinch strike, hold", text)
        self.assertNotIn("_strike", text)


class TestSpotlightWeaponWithAComma(spotlight.SpotTest):
    @pytest.mark.rule("SPOT-10")
    def test_act_with_a_weapon_named_with_a_comma(self):
        """'+combat/act attack Goon2 with pistol, heavy' answered "'attack Goon2 with
        pistol' is not in this fight": the comma was read as a list of NPCs to act."""
        self.setup_fight()
        self.cmd("+sheet/equip pistol, heavy")
        self.cmd("+combat/next")
        with self.dice(*[8] * 12):
            out = self.cmd("+combat/act attack Thug with pistol, heavy").text
        self.assertNotIn("is not in this fight", out)
        self.assertIn("Char attacks Thug with", out)


class TestOddsNameTheSides(odds.OddsTest):
    def test_the_closing_line_names_the_sides(self):
        """'+combat/odds W=thug/200' ended "A joins as a player, B as an NPC": A and B are
        named nowhere else in the summary."""
        out = self.odds("+combat/odds thug=gunman/4").text
        self.assertIn("thug joins as a player, gunman as an NPC; past 20 turns: a draw.", out)
        self.assertNotIn("A joins", out)


class TestDamageUsage(CombatTest):
    def test_negative_levels_get_the_switchs_usage(self):
        """'+combat/damage Bob=-3 lethal' answered with the whole +combat usage (start, join,
        init, declare, act, next, odds) before the example."""
        self.setup_fight()
        text = self.cmd("+combat/damage Char2=-3 lethal").text
        self.assertIn("Usage: +combat/damage <name>=<levels> <type> [<source>], levels 1 to "
                      "30", text)
        self.assertNotIn("+combat/join", text)

    def test_heal_with_bad_levels_gets_its_own_usage(self):
        self.setup_fight()
        before = self.state()
        text = self.cmd("+combat/heal Char2=-2 lethal").text
        self.assertIn("Usage: +combat/heal <name>=<levels> <type>", text)
        self.assertIn("+combat/heal Bob=revive", text)
        self.assertNotIn("+combat/join", text)
        self.assertEqual(self.state(), before)


class TestWeaponChoices(CombatTest):
    def test_weapons_named_with_commas_are_told_apart(self):
        """'+sheet/equip pistol' answered "It could be: Pistol, light, Pistol, heavy." - four
        names or two?"""
        text = self.player("+sheet/equip pistol").text
        self.assertIn("It could be: Pistol, light or Pistol, heavy", text)
