"""+combat gaps closed through the real command handler with exact dice: cover (RNG-03),
moving while attacking (MAN-04), Rokea jagged skin (PWR-06), the stake (MAN-11), staff damage
past Incapacitated (HLT-02..05) and the spotlight help. Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CombatTest.setup_fight``): Char (staff, organizer) initiative 11, Char2 7,
the NPC Thug 5 (Str 3, Dex 2, Brawl 2, Stamina 2); Thug declares first, Char acts first.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest, thug


class TestCover(EffectsTest):
    def gunman(self):
        """Char with a heavy pistol: Dex 3 + Firearms 2 = 5 dice; at 1 yard point-blank
        (RNG-05: -2 difficulty), so a shot with no cover is vs 4."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2,
                                         stamina=2, firearms=2))
        self.cmd("+sheet/equip pistol, heavy")

    def shoot(self, faces=(2, 2, 2, 2, 2)):
        with self.dice(*faces):
            text = self.cmd("+combat/act").text
        return text, self.rolls("attack")[-1]

    @pytest.mark.rule("RNG-03")
    def test_cover_levels_add_to_be_hit(self):
        self.gunman()
        self.setup_fight()
        for level in ("light", "good", "superior"):
            with self.subTest(level=level):
                text = self.cmd(f"+combat/mod Thug=cover {level}").text
                self.assertIn(f"Thug is in {level} cover:", text)
                self.assertEqual(self.who("Thug").gear.cover, level)
        # Only the last one counts: superior, +3 to be hit.
        self.assertIn("(superior cover)", self.cmd("+combat").text)
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug with pistol, heavy")
        text, roll = self.shoot()
        self.assertIn("target in superior cover +3 diff", text)
        self.assertEqual(roll["difficulty"], 7)  # 6 - 2 point-blank + 3
        self.assertIn({"reason": "target in superior cover", "difficulty": 3},
                      roll["modifiers"])

    @pytest.mark.rule("RNG-03")
    def test_each_level_difficulty_and_none_clears(self):
        self.gunman()
        self.setup_fight()
        expected = {"none": 4, "light": 5, "good": 6, "superior": 7}
        for turn, (level, diff) in enumerate(expected.items(), start=1):
            with self.subTest(level=level):
                self.cmd(f"+combat/mod Thug=cover {level}")
                self.cmd("+combat/declare Thug=other growls")
                self.player("+combat/declare other waits")
                self.cmd("+combat/declare attack Thug with pistol, heavy")
                _, roll = self.shoot()
                self.assertEqual(roll["difficulty"], diff)
                self.player("+combat/act")
                self.cmd("+combat/act Thug")
                self.assertEqual(self.state().turn, turn + 1)
        self.assertIn("Thug is out of cover", self.cmd("+combat/mod Thug=cover none").text)
        self.assertEqual(self.who("Thug").gear.cover, "none")
        covers = [r for r in self.log() if r["event"] == "cover"]
        self.assertEqual([r["cover"] for r in covers], ["none", "light", "good", "superior",
                                                        "none"])
        self.assertEqual(covers[-1]["by"], self.key("Char"))

    @pytest.mark.rule("RNG-03")
    def test_shooting_out_of_good_and_superior_cover(self):
        """Declared by the shooter for themself: good cover +1, superior +2 to hit out."""
        self.gunman()
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        text = self.cmd("+combat/declare cover good; attack Thug with pistol, heavy").text
        self.assertIn("shots at them +2 difficulty, shooting out +1", text)
        text, roll = self.shoot()
        self.assertIn("shooting from good cover +1 diff", text)
        self.assertEqual(roll["difficulty"], 5)  # 6 - 2 point-blank + 1
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare concealment superior; attack Thug with pistol, heavy")
        text, roll = self.shoot()
        self.assertIn("shooting from superior cover +2 diff", text)
        self.assertEqual(roll["difficulty"], 6)  # 6 - 2 + 2

    @pytest.mark.rule("RNG-03")
    def test_bad_cover_changes_nothing(self):
        self.setup_fight()
        self.assertIn("Cover is one of: none, light, good, superior",
                      self.cmd("+combat/mod Thug=cover deep").text)
        self.assertIn("Cover is one of", self.player("+combat/declare cover").text)
        self.assertIn("Only the organizer", self.player("+combat/mod Thug=cover good").text)
        self.assertEqual(self.who("Thug").gear.to_dict(), {})
        self.assertEqual(self.who("Char2").gear.to_dict(), {})


class TestMovingWhileAttacking(EffectsTest):
    @pytest.mark.rule("MAN-04")
    def test_moving_costs_a_die_per_yard(self):
        self.to_act(char_action="attack Thug moving 3")
        self.assertIn("attack Thug moving 3 yd", self.cmd("+combat").text)
        # Strike: Dex 3 + Brawl 2 = 5, -3 dice for 3 yards = 2 dice vs 6: [8 8] = 2;
        # damage Str 3 + 1 = 4 dice [2 2 2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("moved 3 yd -3 dice = 2 vs 6: [8 8] => 2 successes", text)
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["faces"]), (2, [8, 8]))

    @pytest.mark.rule("MAN-04", "MAN-03")
    def test_beyond_half_the_run_is_refused_with_the_limit(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        # Run: 20 + 3 x Dex 3 = 29 yards; half (rounded down) is 14.
        text = self.cmd("+combat/declare attack Thug moving 15").text
        self.assertIn("at most 14 yards while attacking (half a run of 29)", text)
        self.assertIn("declare move 15", text)
        self.assertFalse(self.who("Char").declared)
        self.assertIn("attack <target> moving <yards>",
                      self.cmd("+combat/declare attack Thug moving far").text)
        self.cmd("+combat/declare attack Thug moving 14 yards as strike")
        act = self.who("Char").actions[0]
        self.assertEqual((act["moving"], act["maneuver"]), (14, "strike"))


ROKEA = dict(strength=3, dexterity=2, wits=2, brawl=2, stamina=2, splat="shifter",
             race="Rokea", form="Gladius")


class TestMovingEveryman(EffectsTest):
    @pytest.mark.rule("MAN-04")
    def test_everyman_moves_half_with_no_penalty(self):
        """everyman (and v20): half the run while acting, no dice lost (YAML switch).
        Slot by slot: the act phase waits for Char's +combat/act."""
        self.cmd("+combat/start everyman=slots")
        self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(1):
            self.cmd("+combat/init Thug=4")
        self.cmd("+combat/next")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("at most 14 yards", self.cmd("+combat/declare attack Thug moving 15")
                      .text)
        self.cmd("+combat/declare attack Thug moving 5")
        self.assertEqual(self.state().phase, "act")
        # Strike: Dex 3 + Brawl 2 vs 6 [8 8 2 2 2] = 2; damage 4 dice [2 2 2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["pool"], 5)  # Dex 3 + Brawl 2, nothing off for 5 yards


class TestJaggedSkinAndStake(EffectsTest):
    @pytest.mark.rule("PWR-06")
    def test_rokea_jagged_skin_hurts_barehanded_mortal(self):
        self.to_act(char_action="attack Thug")
        thug(self).sheet.save(make_sheet(**ROKEA))
        # Strike: Dex 3 + Brawl 2 vs 6 [8 8 2 2 2] = 2; damage Str 3 + 1 [2 2 2 2] = 0.
        # Jagged skin: 2 lethal on Char, a mortal: no soak against lethal, so no dice.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char takes 2 lethal (Thug's jagged skin; 2, 0 soaked): Healthy -> Hurt",
                      text)
        self.assertEqual(self.char1.sheet.get().health["lethal"], 2)
        dmg = [r for r in self.log() if r["event"] == "damage" and r["target"] ==
               self.key("Char")]
        self.assertEqual((dmg[0]["rolled"], dmg[0]["soaked"], dmg[0]["applied"]), (2, 0, 2))

    @pytest.mark.rule("PWR-06", "DMG-05")
    def test_jagged_skin_is_soaked_by_who_can_soak_lethal(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2,
                                         splat="vampire"))
        self.to_act(char_action="attack Thug")
        thug(self).sheet.save(make_sheet(**ROKEA))
        # As above, then Char (a vampire) soaks the 2 lethal: Stamina 2 vs 6 [8 2] = 1.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 8, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char soak: Stamina 2", text)
        self.assertIn("Char takes 1 lethal (Thug's jagged skin; 2, 1 soaked)", text)
        self.assertEqual(self.char1.sheet.get().health["lethal"], 1)

    @pytest.mark.rule("PWR-06")
    def test_jagged_skin_spares_an_armed_attacker(self):
        self.cmd("+sheet/equip knife")
        self.to_act(char_action="attack Thug with knife")
        thug(self).sheet.save(make_sheet(**ROKEA))
        # Knife: Dex 3 + Melee 0 vs 6 [8 8 2] = 2; damage Str 3 + 1 + 1 [2 2 2 2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertNotIn("jagged skin", text)
        self.assertEqual(self.char1.sheet.get().health["lethal"], 0)

    def staker(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, melee=2,
                                         stamina=2))
        self.cmd("+sheet/equip stake")
        self.to_act(char_action="attack Thug with stake at heart")
        thug(self).sheet.save(make_sheet(strength=3, dexterity=2, wits=2, brawl=2, stamina=2,
                                         splat="vampire"))

    @pytest.mark.rule("MAN-11", "MAN-10")
    def test_stake_through_the_heart_with_3_after_soak(self):
        self.staker()
        # Heart (precise): Dex 3 + Melee 2 vs 9 [9 9 9 9 2] = 4; damage Str 3 + 1, +2 heart,
        # +3 extra successes = 9 dice [9 9 9 9 2 2 2 2 2] = 4; soak Stamina 2 [8 2] = 1:
        # 3 levels after soak, enough.
        with self.dice(9, 9, 9, 9, 2, 9, 9, 9, 9, 2, 2, 2, 2, 2, 8, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("targeting heart (precise) +3 diff = 5 vs 9", text)
        self.assertIn("Thug takes 3 lethal (4 rolled, 1 soaked)", text)
        self.assertIn("Thug is STAKED", text)
        self.assertIn("staked", [k.name for k in self.who("Thug").conditions])
        self.assertIn("staked", self.cmd("+combat").text)

    @pytest.mark.rule("MAN-11")
    def test_stake_with_2_after_soak_does_not_hold(self):
        self.staker()
        # As above but soak [8 8] = 2: 2 levels after soak, not enough.
        with self.dice(9, 9, 9, 9, 2, 9, 9, 9, 9, 2, 2, 2, 2, 2, 8, 8):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 2 lethal (4 rolled, 2 soaked)", text)
        self.assertNotIn("STAKED", text)
        self.assertNotIn("staked", [k.name for k in self.who("Thug").conditions])


class TestStaffDamage(EffectsTest):
    def last_damage(self):
        return [r for r in self.log() if r["event"] == "damage"][-1]

    @pytest.mark.rule("HLT-02", "HLT-04")
    def test_mortal_past_incapacitated_dies(self):
        self.setup_fight()
        text = self.cmd("+combat/damage Thug=8 lethal").text
        self.assertIn("Thug is DEAD", text)
        self.assertEqual(self.who("Thug").outcome, "dead")
        ev = self.last_damage()
        self.assertEqual((ev["source"], ev["rolled"], ev["type"], ev["outcome"], ev["by"]),
                         ("staff", 8, "lethal", "dead", self.key("Char")))
        self.assertIn("dead already", self.cmd("+combat/damage Thug=1 lethal").text)

    @pytest.mark.rule("HLT-02", "HLT-04")
    def test_incapacitated_then_more_damage_kills_like_a_hit(self):
        self.setup_fight()
        self.assertIn("Thug is INCAPACITATED", self.cmd("+combat/damage Thug=7 lethal").text)
        self.assertEqual(self.who("Thug").outcome, "incapacitated")
        self.assertIn("Thug is DEAD", self.cmd("+combat/damage Thug=1 bashing").text)
        self.assertEqual(self.last_damage()["rolled"], 1)

    @pytest.mark.rule("HLT-05", "DMG-15")
    def test_vampire_falls_into_torpor_and_bashing_is_not_halved(self):
        self.setup_fight()
        thug(self).sheet.save(make_sheet(strength=3, dexterity=2, wits=2, brawl=2, stamina=2,
                                         splat="vampire"))
        # Staff levels are marked as given: 2 bashing is 2 levels, not halved to 1.
        self.cmd("+combat/damage Thug=2 bashing")
        self.assertEqual(thug(self).sheet.get().health["bashing"], 2)
        self.assertEqual((self.last_damage()["rolled"], self.last_damage()["applied"]), (2, 2))
        text = self.cmd("+combat/damage Thug=7 lethal").text
        self.assertIn("Thug falls into TORPOR", text)
        self.assertEqual(self.who("Thug").outcome, "torpor")
        ev = self.last_damage()
        self.assertEqual((ev["source"], ev["rolled"], ev["outcome"]), ("staff", 7, "torpor"))

    def test_bad_damage_changes_nothing(self):
        self.setup_fight()
        self.assertIn("not a damage type", self.cmd("+combat/damage Thug=2 plasma").text)
        self.assertIn("the type comes first", self.cmd("+combat/damage Thug=2 fire").text)
        self.assertIn("Only the organizer", self.player("+combat/damage Thug=2 lethal").text)
        self.assertEqual(thug(self).sheet.get().health["lethal"], 0)


class TestHelp(EffectsTest):
    def test_help_explains_the_spotlight_switches(self):
        """SPOT-01..14 are reached through +combat; help +combat names every switch."""
        from wodcombat.commands.combat import CmdCombat

        self.assertIn("Help for +combat", self.cmd("help +combat").text)  # paged: page 1
        text = CmdCombat().get_help(self.char1, None)  # what help +combat pages through
        self.assertIn("Under the spotlight ruleset", text)
        for switch in ("/swap", "/event", "/ambush", "/move", "/range", "/free", "/done",
                       "/stake", "/feed", "/next <opponent>"):
            self.assertIn(switch, text)
        self.assertIn("cover <level>", text)
        self.assertIn("moving <yards>", text)


class TestImmobilizedHit(EffectsTest):
    @pytest.mark.rule("COMP-03")
    def test_fully_immobilized_target_hit_with_one_success_and_told_why(self):
        """Every die misses, yet the attack hits with one success: the room is told why."""
        self.setup_fight()
        self.cmd("+combat/mod Thug=immobilized_fully")
        self.cmd("+combat/declare Thug=other struggles")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as strike")
        with self.dice(2, 2, 2, 2, 2, 2, 6, 6, 6, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("=> 0 successes", text)
        self.assertIn("Hit with 1 net success (the target cannot move: at least one success)",
                      text)


class TestJoinIncapacitated(EffectsTest):
    @pytest.mark.rule("HLT-02")
    def test_a_player_hurt_to_incapacitated_joins_out_of_action(self):
        """Char2 was beaten to Incapacitated before the fight: joining, the room reads that
        Char2 is incapacitated; the fight never waits for Char2's initiative or
        declaration, and Char2 is told why when trying."""
        from dataclasses import replace

        hurt = replace(self.char2.sheet.get(), health={"lethal": 7})
        self.char2.sheet.save(hurt)
        self.cmd("+combat/start")
        text = self.player("+combat/join").text
        self.assertIn("Char2 joins the fight", text)
        self.assertIn("Char2 is INCAPACITATED", text)
        self.assertNotIn("turn to roll initiative", text)
        self.assertEqual(self.who("Char2").outcome, "incapacitated")
        self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(1):
            text = self.cmd("+combat/init Thug=4").text
        self.assertIn("Nobody is pending", text)  # not Char2's initiative
        self.assertIn("Thug's turn to declare", self.cmd("+combat/next").text)
        self.assertEqual(self.state().phase, "declare")
        self.assertNotIn(self.key("Char2"), [k for k, _ in self.waiting()])
        refused = self.player("+combat/declare attack Thug").text
        self.assertIn("Incapacitated", refused)
        self.assertEqual(dict(self.char2.sheet.get().health),
                         {"bashing": 0, "lethal": 7, "aggravated": 0})  # nothing changed

    def waiting(self):
        from wodcombat.combat.d10 import scheduler

        return scheduler.prompts(self.state())
