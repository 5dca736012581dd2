"""The everyman ruleset (seed 002_2d42e5e1bfda5bd5.txt) played through +combat with exact
dice: the issue 10 points where it must play its own list on top of the core, not numetal's
house rules. Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CloseTest.start("everyman")``): Char (staff, organizer; Str 3, Dex 3, Wits 3,
Brawl 2, Stamina 2) initiative 11, Char2 (Str 2, Dex 2, Wits 2, Dodge 1, Stamina 2) 7, the
NPC Thug (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2) 5. Thug declares first, Char acts first.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest
from tests.commands.test_play_ranged import RangedTest


class EverymanTest(CloseTest):
    def daze_thug(self):
        """Char hits Thug for 3 levels after soak: at least Thug's Stamina 2, dazed."""
        self.start("everyman")
        self.declare_all(char="attack Thug")
        # Dex 3 + Brawl 2 vs 6: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4: [8 8 8 2] = 3;
        # soak Stamina 2: [2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 8, 8, 8, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug is dazed", text)


class TestDazing(EverymanTest):
    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_mortal_shakes_off_a_daze_with_willpower(self):
        """COMP-02: "willpower (for mortals) can be spent to ignore this": a point, at once,
        not an action; the dazed mortal then declares as usual."""
        self.daze_thug()
        self.assertIn("dazed", [k.name for k in self.who("Thug").conditions])
        text = self.cmd("+combat/declare Thug=shake willpower").text
        self.assertIn("Thug spends 1 Willpower (shake off the daze); 4 left.", text)
        self.assertIn("Thug is no longer dazed.", text)
        self.assertNotIn("dazed", [k.name for k in self.who("Thug").conditions])
        self.assertIn("Thug is not dazed.", self.cmd("+combat/declare Thug=shake willpower").text)
        self.assertIn("e.g. shake blood", self.cmd("+combat/declare Thug=shake").text)

    @pytest.mark.rule("COMP-02")
    def test_COMP_02_shaken_off_in_the_lost_turn_the_mortal_declares(self):
        """COMP-02: in the turn the daze costs, the refusal names the way out; a point of
        Willpower spent then lets the mortal declare that turn after all."""
        self.daze_thug()
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.assertEqual(self.state().turn, 2)
        text = self.cmd("+combat/declare Thug=other growls").text
        self.assertIn("Thug is dazed and loses all actions this turn. A point of Willpower "
                      "shakes it off: shake willpower.", text)
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare Thug=shake willpower")
        self.assertIn("Thug declares: attack Char",
                      self.cmd("+combat/declare Thug=attack Char").text)
        self.cmd("+combat/declare other waits")
        self.assertEqual(self.state().phase, "act")

    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_vampire_spends_blood_never_willpower(self):
        """COMP-02: a blood point for a vampire; Willpower is "for mortals" only."""
        self.char2.sheet.save(make_sheet(splat="vampire", generation=13, blood=5, strength=2,
                                         dexterity=2, wits=2, stamina=2, willpower=5))
        self.start("everyman")
        self.cmd("+combat/mod Char2=dazed")
        text = self.player("+combat/declare shake willpower").text
        self.assertIn("A vampire shakes off a daze with a point of Blood, e.g. shake blood.",
                      text)
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, 5)
        self.assertIn("dazed", [k.name for k in self.who("Char2").conditions])
        text = self.player("+combat/declare shake blood").text
        self.assertIn("Char2 spends 1 Blood (shake off the daze); 4 left.", text)
        self.assertNotIn("dazed", [k.name for k in self.who("Char2").conditions])

    @pytest.mark.rule("COMP-02")
    def test_COMP_02_a_shifter_spends_rage_and_numetal_has_no_way_out(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         strength=2, dexterity=2, wits=2, stamina=2,
                                         rage="4/4"))
        self.start("everyman")
        self.cmd("+combat/mod Char2=dazed")
        self.assertIn("A shifter shakes off a daze with a point of Rage",
                      self.player("+combat/declare shake willpower").text)
        self.assertIn("1 Rage (shake off the daze); 3 left.",
                      self.player("+combat/declare shake rage").text)
        self.cmd("+combat/end")
        self.start("numetal")
        self.cmd("+combat/mod Char2=dazed")
        self.assertIn("no way to shake off a daze",
                      self.player("+combat/declare shake rage").text)
        self.assertIn("dazed", [k.name for k in self.who("Char2").conditions])


# ------------------------------------------------------------------ CLOSE-08, CLOSE-14


class TestGangedAndKissed(EverymanTest):
    @pytest.mark.rule("CLOSE-08")
    def test_CLOSE_08_every_attacker_counts_two_attackers_are_plus_two(self):
        """CLOSE-08: "+1 difficulty for each person up to a max of +4", defense only: two
        attackers in tandem = +2 on the defense (numetal: +1, each beyond the first)."""
        self.start("everyman")
        self.declare_all(thug="attack Char; block", char2="attack Thug", char="attack Thug")
        # Char attacks: [8 8 2 2 2] = 2; Thug blocks: Dex 2 + Brawl 2 - 2 (two actions) = 2
        # dice at 6 + 2 = 8: [2 2]; damage 4 dice [2 2 2 2], soak [2 2].
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        blk = self.roll("defense")
        self.assertIn({"reason": "2 opponents", "difficulty": 2}, blk["modifiers"])
        self.assertEqual(blk["difficulty"], 8)
        self.assertNotIn("2 opponents", {m["reason"] for m in self.roll("attack")["modifiers"]})

    def kissed(self, victim):
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.char2.sheet.save(victim)
        self.start("everyman")
        self.declare_all(char="attack Char2 as clinch")
        # Clinch: Str 3 + Brawl 2 [8 2 2 2 2] = 1; damage Str 3 [2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.declare_all(char="attack Char2 as bite draining")
        # Bite: Dex 3 + Brawl 2 + 1 = 6 vs 6 [8 2 2 2 2 2] = 1: the Kiss, 3 blood.
        with self.dice(8, 2, 2, 2, 2, 2, *[2] * 6):
            text = self.cmd("+combat/act").text
        self.assertIn("Char drinks 3 blood from Char2 in the Kiss", text)
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.cmd("+combat/declare Thug=other growls")
        return text

    @pytest.mark.rule("CLOSE-14")
    def test_CLOSE_14_a_kissed_shifter_is_not_helpless(self):
        """CLOSE-14: "On mortals it renders them helpless": a werewolf under the Kiss still
        acts (here: tries to escape the clinch), and the Kiss text does not call it
        helpless; a mortal is."""
        text = self.kissed(make_sheet(splat="shifter", race="Garou", form="Homid",
                                      strength=2, dexterity=2, wits=2, stamina=2,
                                      rage="3/3", willpower="5/5"))
        self.assertNotIn("helpless", text)
        self.player("+combat/declare escape")
        self.assertTrue(self.who("Char2").declared)

    @pytest.mark.rule("CLOSE-14")
    def test_CLOSE_14_a_kissed_ghoul_or_mage_acts_a_mortal_is_helpless(self):
        text = self.kissed(make_sheet(splat="ghoul", strength=2, dexterity=2, wits=2,
                                      stamina=2, blood="3/3"))
        self.assertNotIn("helpless", text)
        self.player("+combat/declare other struggles")
        self.assertTrue(self.who("Char2").declared)
        self.cmd("+combat/end")
        text = self.kissed(make_sheet(splat="mage", strength=2, dexterity=2, wits=2,
                                      stamina=2))
        self.player("+combat/declare other struggles")
        self.assertTrue(self.who("Char2").declared)
        self.cmd("+combat/end")
        text = self.kissed(make_sheet(strength=2, dexterity=2, wits=2, stamina=2,
                                      willpower="5/5"))
        self.assertIn("helpless", text)
        self.assertIn("helpless under the Kiss",
                      self.player("+combat/declare other struggles").text)


# ------------------------------------------------------------------ MAN-08, INIT, TURN


class TestTurns(EverymanTest):
    @pytest.mark.rule("MAN-08", "TURN-11")
    def test_MAN_08_a_shifter_spends_rage_and_splits(self):
        """MAN-08 / TURN-11 (#5, #6): Rage actions go last, after the everyman actions, and
        a split is allowed with them (numetal's "Rage OR split" is not in the list)."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         strength=2, dexterity=2, wits=2, stamina=2,
                                         brawl=2, rage="4/4"))
        self.start("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare rage 1; attack Thug; attack Thug; extra attack Thug")
        c2 = self.who("Char2")
        self.assertTrue(c2.declared)
        self.assertEqual([a.get("extra") for a in c2.actions], [None, None, "rage"])
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 3)
        self.cmd("+combat/end")
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         strength=2, dexterity=2, wits=2, stamina=2,
                                         brawl=2, rage="4/4"))
        self.start("numetal")
        self.cmd("+combat/declare Thug=other growls")
        text = self.player("+combat/declare rage 1; attack Thug; attack Thug; "
                           "extra attack Thug").text
        self.assertIn("Rage", text)
        self.assertFalse(self.who("Char2").declared)

    @pytest.mark.rule("INIT-05", "INIT-03")
    def test_INIT_05_no_gurahl_winter_and_the_wound_penalty_applies(self):
        """INIT-05 is numetal's: no winter modifier in everyman; the roll applies the wound
        penalty itself (INIT-03, V20 p. 271)."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Gurahl", dexterity=2, wits=2))
        self.cmd("+combat/start everyman")
        self.player("+combat/join")
        self.cmd("+combat/flag winter")
        self.cmd("+combat/damage Char2=2 lethal")  # Hurt: -1
        with self.dice(3):
            text = self.player("+combat/init").text
        self.assertNotIn("Gurahl", text)
        self.assertEqual(self.who("Char2").init_total, 6)  # 4 + 3 - 1 (wounds)

    @pytest.mark.rule("TURN-05", "INIT-04")
    def test_TURN_05_INIT_04_simple_and_reroll_are_refused(self):
        for option in ("simple", "reroll"):
            text = self.cmd(f"+combat/start everyman={option}").text
            self.assertNotIn("starts a fight", text, option)
            self.assertIn("not in the everyman rules", text, option)
            self.assertIn("Type +combat/start everyman.", text)
            self.assertIsNone(self.fight_or_none())

    def fight_or_none(self):
        from wodcombat.typeclasses.combat import combat_in
        return combat_in(self.room1)


# ------------------------------------------------------------------ DEF-02, ATK-03


class TestBookPools(EverymanTest):
    @pytest.mark.rule("DEF-02")
    def test_dodge_is_dexterity_plus_athletics(self):
        """The list is silent: V20's dodge, Dexterity + Athletics (no Dodge ability)."""
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, stamina=2,
                                         athletics=3, dodge=1))
        self.start("everyman")
        self.declare_all(thug="attack Char2", char2="dodge")
        self.cmd("+combat/act")
        with self.dice(2, 2, 2, 2, 8, 2, 2, 2, 2):
            text = self.cmd("+combat/act Thug").text
        dodge = self.roll("defense")
        self.assertEqual(dodge["traits"], [["Dexterity", 2], ["Athletics", 3]], text)

    @pytest.mark.rule("ATK-03", "DMG-11")
    def test_armor_costs_dice_off_dexterity_rolls(self):
        """V20 p. 296: armor's penalty is dice off Dexterity rolls (numetal/revised ATK-03:
        difficulty)."""
        self.cmd("+sheet/armor flak jacket")
        self.start("everyman")
        self.declare_all(char="attack Thug")
        with self.dice(*[2] * 12):
            self.cmd("+combat/act")
        atk = self.roll("attack")
        self.assertIn({"reason": "armor (Flak jacket)", "dice": -2}, atk["modifiers"])
        self.assertEqual((atk["pool"], atk["difficulty"]), (3, 6))


# ------------------------------------------------------------------ RNG-01, RNG-07, ATK-07/08


class TestRanged(RangedTest):
    @pytest.mark.rule("RNG-01")
    def test_RNG_01_a_shotgun_aims_and_a_running_target_keeps_the_aim(self):
        """RNG-01: the list's aiming has no shotgun/SMG ban and no target-speed limit
        (numetal's); a turn of aim adds a die up to Perception."""
        self.fight("everyman", ["shotgun"])
        self.assertIn("aims the", self.turn("aim Thug with shotgun") +
                      self.cmd("+combat/act").text)
        self.finish_turn()
        self.turn("attack Thug with shotgun", thug_action="move 12")  # Thug jogs
        with self.dice(*[2] * 12):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertIn({"reason": "aimed 1 turn(s)", "dice": 1}, roll["modifiers"])

    @pytest.mark.rule("RNG-01")
    def test_RNG_01_aiming_a_crossbow_needs_firearms(self):
        """RNG-01: "The character must have a Firearms skill of at least 1" to aim a
        projectile: Archery alone does not do (READING)."""
        self.fight("everyman", ["crossbow"], strength=3, dexterity=3, wits=3, perception=2,
                   archery=3)
        self.assertIn("needs Firearms 1+", self.turn("aim Thug with crossbow"))
        self.assertFalse(self.who("Char").declared)

    @pytest.mark.rule("RNG-07")
    def test_RNG_07_no_extra_difficulty_to_dodge_a_strafe(self):
        """RNG-07: the list adds nothing to dodging a strafe (numetal: +1)."""
        self.fight("everyman", ["smg, small"], goon=True)
        self.cmd("+combat/declare Goon=dodge prone")
        self.turn("attack Thug and Goon with smg, small as strafe")
        with self.dice(*[9] * 5, *[2] * 10, 2, 2, 8, 8, 2, 2, 2, 2, 8, 2, 2, 2, 2):
            self.cmd("+combat/act")
        dodge = self.rolls("defense")[-1]
        self.assertEqual((dodge["pool"], dodge["difficulty"]), (2, 6))
        self.assertNotIn("dodging a strafe", {m["reason"] for m in dodge["modifiers"]})

    @pytest.mark.rule("ATK-07")
    def test_ATK_07_an_archery_specialty_still_nocks(self):
        """ATK-07: numetal's specialty waiver is a house rule: every shot needs a nock."""
        self.fight("everyman", ["short bow"], strength=3, dexterity=3, wits=3, archery=2,
                   athletics=2)
        self.cmd("+sheet/spec archery=Short bow")
        self.cmd("+sheet/spec athletics=Short bow")
        self.assertIn("Nock an arrow before each shot of the Short bow",
                      self.turn("attack Thug with short bow"))
        self.assertFalse(self.who("Char").declared)

    @pytest.mark.rule("ATK-08")
    def test_ATK_08_a_crossbow_specialty_still_reloads_in_two(self):
        """ATK-08: numetal's crossbow-specialty one-action reload is a house rule."""
        self.fight("everyman", ["crossbow"], strength=3, dexterity=3, wits=3, archery=2,
                   firearms=2)
        self.cmd("+sheet/spec archery=crossbow")
        self.cmd("+sheet/spec firearms=crossbow")
        self.turn("attack Thug with crossbow")
        with self.dice(*[2] * 6):
            self.cmd("+combat/act")
        self.finish_turn()
        self.assertIn("reloading takes 2 action(s)",
                      self.turn("reload; attack Thug with crossbow"))
        self.assertFalse(self.who("Char").declared)


# ------------------------------------------------------------------ HEAL, DMG-15


VAMPIRE = dict(splat="vampire", generation=13, blood=5, strength=3, dexterity=3, wits=3,
               brawl=2, stamina=2, survival=1)
WOLF = dict(splat="shifter", race="Garou", form="Homid", strength=2, dexterity=2, wits=2,
            stamina=3, rage="3/3")


class TestHealing(EverymanTest):
    @pytest.mark.rule("HEAL-01", "HEAL-02", "HEAL-03", "HEAL-04", "HEAL-05", "HEAL-07",
                      "HEAL-10")
    def test_HEAL_numetal_healing_is_refused_and_points_to_the_roll(self):
        """HEAL-01..05/07/10 are numetal's page: no blood healing, regeneration, Rage-healing,
        limbs or Life; the refusal says so and names the list's own roll (HEAL-09)."""
        self.char1.sheet.save(make_sheet(**VAMPIRE))
        self.char2.sheet.save(make_sheet(**WOLF))
        self.start("everyman")
        self.cmd("+combat/damage Char=2 lethal")
        self.cmd("+combat/damage Char2=2 lethal")
        for line, what in (("heal blood 1", "blood healing"), ("heal aggravated", "blood healing"),
                           ("heal limb finger", "regrowing limbs"),
                           ("heal life 1 lethal", "Life magic healing")):
            text = self.cmd(f"+combat/declare {line}").text
            self.assertIn(f"This game's rules have no {what}; wounds heal with time", text)
            self.assertIn("In a fight: heal roll.", text)
        for line, what in (("regenerate", "regeneration"), ("heal rage", "Rage-healing")):
            self.assertIn(f"no {what}", self.player(f"+combat/declare {line}").text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 5)
        self.assertEqual(self.char1.sheet.get().health["lethal"], 2)
        self.assertEqual(self.char2.sheet.get().health["lethal"], 2)

    @pytest.mark.rule("HEAL-09", "HLT-06")
    def test_HEAL_09_the_vampires_roll_takes_the_wound_penalty(self):
        """#11 "Dice penalties apply to all actions EXCEPT Soaking": the vampires' healing
        roll (their action) loses a die at Hurt; the werewolves' automatic roll is a
        reflex and does not."""
        self.char1.sheet.save(make_sheet(**VAMPIRE))
        self.char2.sheet.save(make_sheet(**WOLF))
        self.start("everyman")
        self.cmd("+combat/damage Char=2 lethal")    # Hurt: -1
        self.cmd("+combat/damage Char2=2 lethal")
        with self.dice(9, 2, 2):
            text = self.player("+combat/declare heal roll").text
        self.assertIn("Char2 healing: Stamina 3 = 3 vs 8: [9 2 2] => 1 success", text)
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare heal roll")
        with self.dice(8, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char healing: Survival 1 + Stamina 2, wounds (Hurt) -1 dice = 2 vs 8: "
                      "[8 2] => 1 success", text)
        self.assertIn("Char heals 1 lethal (healing roll, 1 Blood, 1 turn)", text)
        roll = self.roll("healing", 1)
        self.assertEqual((roll["pool"], roll["modifiers"]),
                         (2, [{"reason": "wounds (Hurt)", "dice": -1}]))

    @pytest.mark.rule("DMG-15")
    def test_DMG_15_a_bullet_is_bashing_for_a_vampire_and_halved(self):
        """DMG-15 (a book rule the core carries, V20 p. 284-285; the list is silent): a
        firearm does bashing to a vampire, halved after the soak."""
        self.char1.sheet.save(make_sheet(**VAMPIRE))
        self.start("everyman")
        with self.dice(2, 2):
            text = self.cmd("+combat/damage Char=3 lethal firearm").text
        self.assertIn("Char takes 1 bashing from firearm", text)
        self.assertEqual((self.char1.sheet.get().health["bashing"],
                          self.char1.sheet.get().health["lethal"]), (1, 0))
