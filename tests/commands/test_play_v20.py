"""The v20 ruleset (seed 003: V20 p. 273-278, no house rules) played through +combat with
exact dice: issue 10's points (numetal's house rules do not reach v20) and the rules seed
003 states. Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CloseTest.start("v20")``): Char (staff, organizer; Str 3, Dex 3, Wits 3,
Brawl 2, Stamina 2) initiative 11, Char2 (Str 2, Dex 2, Wits 2, Dodge 1, Stamina 2) 7, the
NPC Thug (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2) 5. Thug declares first, then Char2, then
Char; Char acts first, then Char2, then Thug.
"""

import pytest
from django.test import override_settings

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest
from wodcombat.typeclasses.combat import combat_in


def mods(roll):
    return {m["reason"]: m for m in roll["modifiers"]}


class TestArmorIsDice(CloseTest):
    @pytest.mark.rule("ATK-03")
    def test_ATK_03_kevlar_vest_takes_a_die_off_the_attack_and_the_dodge(self):
        """V20 p. 296: the vest's penalty 1 comes off Dexterity dice pools (the attack and
        the dodge), never onto the difficulty."""
        self.cmd("+sheet/armor kevlar vest")
        self.start("v20")
        self.cmd("+sheet/armor Thug/kevlar vest")
        self.declare_all(thug="dodge", char="attack Thug")
        # Char: Dex 3 + Brawl 2 - 1 (vest) = 4 vs 6 [8 8 8 2] = 3; Thug dodges Dex 2 - 1
        # (vest; no Athletics) = 1 vs 6 [9] = 1: 2 hit; damage Str 3 + 1 = 4 [2 2 2 2] = 0.
        with self.dice(8, 8, 8, 2, 9, 2, 2, 2, 2):
            self.cmd("+combat/act")
        attack, dodge = self.roll("attack"), self.roll("defense")
        self.assertEqual((attack["pool"], attack["difficulty"], attack["faces"]),
                         (4, 6, [8, 8, 8, 2]))
        self.assertEqual(mods(attack)["armor (Kevlar vest)"]["dice"], -1)
        self.assertEqual((dodge["pool"], dodge["difficulty"], dodge["faces"]), (1, 6, [9]))
        self.assertEqual(mods(dodge)["armor (Kevlar vest)"]["dice"], -1)


class TestThrownWithoutAthletics(CloseTest):
    @pytest.mark.rule("ATK-09", "DICE-07", "ATK-06")
    def test_ATK_09_a_throw_without_athletics_is_dexterity_at_six(self):
        """Athletics is a Talent in V20: no penalty for lacking it (numetal: +1)."""
        self.cmd("+sheet/equip throwing knife")
        self.start("v20")
        self.cmd("+combat/range Char/Thug=5")
        self.declare_all(char="attack Thug with throwing knife")
        # Dexterity 3 alone vs 6 [8 2 2] = 1; damage Str 3 + 1 = 4 lethal [2 2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        throw = self.roll("attack")
        self.assertEqual((throw["pool"], throw["difficulty"], throw["faces"]), (3, 6, [8, 2, 2]))


class TestNoGurahlWinter(CloseTest):
    @pytest.mark.rule("INIT-05", "INIT-01")
    def test_INIT_05_no_winter_flag_and_a_plain_gurahl_roll(self):
        """INIT-05 is numetal's: v20 has no winter flag; a Gurahl's initiative is Dexterity +
        Wits + 1d10 with nothing listed."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Gurahl", form="Homid",
                                         dexterity=2, wits=2, stamina=2))
        self.assertIn("starts a fight", self.cmd("+combat/start v20").text)
        text = self.cmd("+combat/flag winter").text
        self.assertIn("'winter' is not a combat flag here: v20 has no combat flags", text)
        self.assertNotIn("+combat/flag winter", text)
        self.assertEqual(self.state().options.flags, ())
        self.player("+combat/join")
        with self.dice(3):
            text = self.player("+combat/init").text
        self.assertNotIn("winter", text.lower())
        self.assertEqual(self.who("Char2").init_total, 7)  # 2 + 2 + [3]


class TestNoSimpleTurnOrReroll(CloseTest):
    @pytest.mark.rule("TURN-05", "INIT-04")
    def test_TURN_05_INIT_04_start_v20_simple_or_reroll_is_refused(self):
        for option in ("simple", "reroll", "simple,reroll"):
            text = self.cmd(f"+combat/start v20={option}").text
            self.assertIn("is not in the v20 rules", text)
            self.assertIn("+combat/start v20", text)
            self.assertNotIn("starts a fight", text)
            self.assertIsNone(combat_in(self.room1))
        self.assertIn("starts a fight", self.cmd("+combat/start v20").text)


class TestPowersUnlimited(CloseTest):
    @pytest.mark.rule("PWR-02")
    def test_PWR_02_a_v20_shifter_spends_rage_and_gnosis_in_one_turn(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         dexterity=2, wits=2, stamina=2, rage="4/4",
                                         gnosis="4/4"))
        self.start("v20")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare spend rage 1; spend gnosis 1; other howls")
        self.assertTrue(self.who("Char2").declared)
        sheet = self.char2.sheet.get()
        self.assertEqual((sheet.pools["Rage"].current, sheet.pools["Gnosis"].current), (3, 3))

    @pytest.mark.rule("PWR-03", "PWR-04")
    def test_PWR_03_04_no_arete_or_lore_count_and_chi_both_ways(self):
        """No Arete or Lore limit: there is no effect to count, and the reply says what to
        type instead; a Kuei-jin spends Yin and Yang chi in one turn."""
        self.char1.sheet.save(make_sheet(splat="kuei-jin", dexterity=3, wits=3, stamina=2))
        self.start("v20")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        text = self.cmd("+combat/declare effect arete; other casts").text
        self.assertIn("v20 sets no limit on power effects a turn", text)
        self.assertIn("other <text>", text)
        self.assertNotIn("only 1", text)
        self.assertFalse(self.who("Char").declared)
        self.cmd("+combat/declare spend yin 1; spend yang 1; other chi")
        self.assertTrue(self.who("Char").declared)


class TestDodgeIsAthletics(CloseTest):
    @pytest.mark.rule("DEF-02", "DMG-03")
    def test_DEF_02_dodge_rolls_dexterity_plus_athletics(self):
        """V20 has no Dodge ability: Char2's Dodge 3 is not rolled, Athletics 1 is."""
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, dodge=3,
                                         athletics=1, stamina=2))
        self.start("v20")
        self.declare_all(thug="attack Char2", char2="dodge")
        self.cmd("+combat/act")
        # Thug: Dex 2 + Brawl 2 = 4 vs 6 [6 2 2 2] = 1; Char2 dodges Dex 2 + Athletics 1 =
        # 3 vs 6 [8 2 2] = 1: the attack misses.
        with self.dice(6, 2, 2, 2, 8, 2, 2):
            text = self.cmd("+combat/act Thug").text
        dodge = self.roll("defense")
        self.assertEqual((dodge["pool"], dodge["difficulty"], dodge["faces"]), (3, 6, [8, 2, 2]))
        self.assertEqual(dodge["traits"], [["Dexterity", 2], ["Athletics", 1]])
        self.assertIn("Athletics 1", text)
        self.assertNotIn("Dodge 3", text)
        self.assertEqual(self.rolls("damage"), [])

    @pytest.mark.rule("DEF-02")
    def test_DEF_02_a_v20_sheet_has_no_dodge(self):
        with override_settings(WODCOMBAT_DEFAULT_RULESET="v20"):
            sheet = self.player("+sheet").text
            self.assertNotIn("Dodge", sheet)
            self.assertIn("Athletics", sheet)
            text = self.cmd("+sheet/set dodge=2").text
            self.assertIn("'dodge' is not a trait here", text)
            help_text = self.cmd("help +combat/declare").text  # where the defenses are
            self.assertIn("dodge, block, parry", help_text)
            self.assertNotIn("Dodge", help_text)


class TestSeed003Complications(CloseTest):
    @pytest.mark.rule("COMP-03")
    def test_COMP_03_a_fully_immobilized_target_is_hit_without_a_roll(self):
        """Seed 003: "Attacks hit automatically if the target is completely immobilized"."""
        self.start("v20")
        self.cmd("+combat/mod Thug=immobilized_fully")
        self.declare_all(char="attack Thug")
        # No attack roll; damage Str 3 [8 8 2] = 2; Thug soaks bashing Stamina 2 [2 2] = 0.
        with self.dice(8, 8, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertEqual(self.rolls("attack"), [])
        self.assertIn("automatic", text.lower())
        self.assertEqual(self.roll("damage")["pool"], 3)

    @pytest.mark.rule("MAN-04")
    def test_MAN_04_move_half_the_run_with_no_dice_lost(self):
        """Seed 003: "move half of her running distance and still take an action": up to
        (20 + 3 x Dex 3) / 2 = 14 yards, nothing off the pool."""
        self.start("v20")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("at most 14 yards",
                      self.cmd("+combat/declare attack Thug moving 15").text)
        self.cmd("+combat/declare attack Thug moving 5")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.roll("attack")["pool"], 5)  # Dex 3 + Brawl 2

    @pytest.mark.rule("MAN-05")
    def test_MAN_05_two_actions_lose_two_then_three_dice(self):
        """Seed 003: "subtract dice from the first dice pool equal to the total number of
        actions taken. Each subsequent action loses an additional die"."""
        self.start("v20")
        self.declare_all(char="attack Thug; attack Thug")
        # First: 5 - 2 = 3 [2 2 2]; second (extra phase, after Thug): 5 - 3 = 2 [2 2].
        with self.dice(2, 2, 2):
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        with self.dice(2, 2):
            self.cmd("+combat/act")
        self.assertEqual([r["pool"] for r in self.rolls("attack")], [3, 2])

    @pytest.mark.rule("MAN-11", "MAN-10")
    def test_MAN_11_stake_at_the_heart_is_difficulty_nine(self):
        """Seed 003: "target the heart (difficulty 9)"; three levels after soak paralyse."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, melee=2,
                                         stamina=2))
        self.cmd("+sheet/equip stake")
        self.char2.sheet.save(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2,
                                         stamina=2, blood="5/10"))
        self.start("v20")
        self.declare_all(char="attack Char2 with stake at heart")
        # Dex 3 + Melee 2 = 5 vs 9 (6 + 3) [9 9 2 2 2] = 2; damage Str 3 + 1 + 2 (heart)
        # + 1 (extra success) = 7 lethal [8 8 8 8 2 2 2] = 4; Char2 soaks Stamina 2 [2 2].
        with self.dice(9, 9, 2, 2, 2, 8, 8, 8, 8, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        attack = self.roll("attack")
        self.assertEqual((attack["pool"], attack["difficulty"]), (5, 9))
        self.assertEqual(self.roll("damage")["pool"], 7)
        self.assertIn("staked", [k.name for k in self.who("Char2").conditions])
