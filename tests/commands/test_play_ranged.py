"""Ranged attacks and the attack rules played through +combat with exact dice (seed 000
"Ranged combat" / "Ranged maneuvers", seed 001 for revised, seed 002 for everyman).

Set-up (``RangedTest.fight``): Char (staff, organizer) initiative 11 and the NPC Thug 5
(Str 3, Dex 2, Brawl 2, Stamina 2), slot by slot; Thug declares first, Char acts
first. Char's sheet is
set per test (Dexterity 3 unless said).
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest, thug

SHOOTER = dict(strength=3, dexterity=3, wits=3, perception=2, firearms=2, stamina=2)


class RangedTest(EffectsTest):
    def fight(self, ruleset: str = "", weapons=(), yards: int = 10, armor="", goon=False,
              **sheet):
        self.char1.sheet.save(make_sheet(**(sheet or SHOOTER)))
        if armor:
            self.assertIn("now wear", self.cmd(f"+sheet/armor {armor}").text)
        for w in weapons:
            self.assertIn("now carr", self.cmd(f"+sheet/equip {w}").text)
        # slot by slot (the default is ahead): Char acts with +combat/act in his slot
        self.assertIn("starts a fight", self.cmd(f"+combat/start {ruleset}=slots").text)
        self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
        self.cmd(f"+combat/range Char/Thug={yards}")  # not point-blank unless asked
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(1):
            self.cmd("+combat/init Thug=4")
        if goon:  # a second NPC beside Thug, initiative 3 + [1] = 4
            self.cmd("+combat/npc Goon=str=2,dex=2,wits=2,stamina=2")
            self.cmd(f"+combat/range Char/Goon={yards}")
            with self.dice(1):
                self.cmd("+combat/init Goon=3")
        self.cmd("+combat/next")
        self.assertEqual(self.state().phase, "declare")

    def turn(self, char: str, thug_action: str = "other growls"):
        """Thug declares, then Char; returns Char's reply."""
        self.cmd(f"+combat/declare Thug={thug_action}")
        return self.cmd(f"+combat/declare {char}").text

    def finish_turn(self):
        self.cmd("+combat/act Thug")


class TestRateOfFire(RangedTest):
    """Defect 4: four shots a turn from a rate-2 revolver were accepted."""

    def rate_of_fire(self, ruleset):
        self.fight(ruleset, ["revolver, heavy"])
        shot = "attack Thug with revolver, heavy"
        text = self.turn("; ".join([shot] * 3))
        self.assertIn("fires at most 2 shot(s) a turn", text)
        self.assertFalse(self.who("Char").declared)
        self.cmd(f"+combat/declare {shot}; {shot}")
        self.assertTrue(self.who("Char").declared)
        # Dex 3 + Firearms 2 - 2 (two actions) = 3 dice vs 6: [2 2 2] = miss.
        with self.dice(2, 2, 2):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["difficulty"]), (3, 6))
        self.assertIn({"reason": "multiple actions (2)", "dice": -2}, roll["modifiers"])

    @pytest.mark.rule("RNG-04")
    def test_numetal_no_more_shots_than_the_rate_of_fire(self):
        self.rate_of_fire("")

    @pytest.mark.rule("RNG-04")
    def test_revised_no_more_shots_than_the_rate_of_fire(self):
        self.rate_of_fire("revised")


class TestBurst(RangedTest):
    """Defect 5: a burst was refused for rate-3+ weapons without a separate `burst` flag."""

    def burst(self, ruleset):
        self.fight(ruleset, ["pistol, light", "revolver, heavy"])
        text = self.turn("attack Thug with revolver, heavy as burst")
        self.assertIn("needs a rate of fire of 3+; the Revolver, heavy's is 2", text)
        self.cmd("+combat/declare attack Thug with pistol, light as burst")
        # Dex 3 + Firearms 2 + 2 (burst) = 7 dice vs 6 + 1 = 7: [2 x7] = miss; 3 rounds.
        with self.dice(*[2] * 7):
            text = self.cmd("+combat/act").text
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["difficulty"]), (7, 7))
        self.assertIn({"reason": "burst", "dice": 2, "difficulty": 1}, roll["modifiers"])
        self.assertIn("Pistol, light: 14 round(s) left", text)

    @pytest.mark.rule("RNG-08")
    def test_numetal_burst_from_any_rate_three_weapon(self):
        self.burst("")

    @pytest.mark.rule("RNG-08")
    def test_revised_burst_from_any_rate_three_weapon(self):
        self.burst("revised")


class TestAiming(RangedTest):
    def aim_then_shoot(self, ruleset, weapon="rifle", turns=1):
        self.fight(ruleset, [weapon])
        for _ in range(turns):
            self.assertIn("aims the", self.turn(f"aim Thug with {weapon}") +
                          self.cmd("+combat/act").text)
            self.finish_turn()
        self.turn(f"attack Thug with {weapon}")
        with self.dice(*[2] * 12):
            self.cmd("+combat/act")
        return self.rolls("attack")[-1]

    @pytest.mark.rule("RNG-01")
    def test_aiming_and_shooting_in_one_turn_is_refused(self):
        """Defect 13: 'aim Thug; attack Thug' in one turn counted the aim."""
        self.fight("", ["rifle"])
        text = self.turn("aim Thug with rifle; attack Thug with rifle")
        self.assertIn("Aiming is a whole turn of doing nothing but aiming", text)
        self.assertFalse(self.who("Char").declared)

    @pytest.mark.rule("RNG-01")
    def test_numetal_a_turn_of_aiming_adds_a_die(self):
        roll = self.aim_then_shoot("")
        # Dex 3 + Firearms 2 + 1 (aimed one turn) = 6 dice vs 6.
        self.assertEqual((roll["pool"], roll["difficulty"]), (6, 6))
        self.assertIn({"reason": "aimed 1 turn(s)", "dice": 1}, roll["modifiers"])
        self.assertIsNone(self.who("Char").gear.aim)  # spent on the shot

    @pytest.mark.rule("RNG-01")
    def test_numetal_aim_is_capped_by_perception_and_a_scope_adds_two(self):
        roll = self.aim_then_shoot("", "hunting rifle, scoped", turns=3)
        # 3 turns, Perception 2: +2; the scope +2 once: 5 + 4 = 9 dice.
        self.assertEqual(roll["pool"], 9)
        self.assertIn({"reason": "aimed 3 turn(s) with a scope", "dice": 4},
                      roll["modifiers"])

    @pytest.mark.rule("RNG-01")
    def test_revised_a_turn_of_aiming_adds_a_die(self):
        roll = self.aim_then_shoot("revised")
        self.assertEqual(roll["pool"], 6)

    @pytest.mark.rule("RNG-01")
    def test_everyman_scope_adds_two_on_the_first_turn(self):
        roll = self.aim_then_shoot("everyman", "hunting rifle, scoped")
        self.assertEqual(roll["pool"], 8)  # 5 + 1 turn + 2 scope

    @pytest.mark.rule("RNG-01")
    def test_aiming_needs_firearms_and_not_a_shotgun(self):
        self.fight("", ["shotgun", "rifle"], dexterity=3, wits=3, perception=2)
        self.assertIn("A shotgun cannot be aimed", self.turn("aim Thug with shotgun"))
        self.assertIn("needs Firearms 1+", self.cmd("+combat/declare aim Thug with rifle").text)
        self.assertFalse(self.who("Char").declared)


BOTH = ("", "revised")


class TestAttackRolls(RangedTest):
    """ATK-02/03/04/06/09: which traits an attack rolls and what makes it harder, in numetal
    and revised (the same seed text)."""

    def one_attack(self, ruleset, action, weapons=(), yards=1, faces=12, armor="", **sheet):
        self.fight(ruleset, weapons, yards=yards, armor=armor, **sheet)
        self.turn(action)
        with self.dice(*[2] * faces):
            text = self.cmd("+combat/act").text
        rolls = self.rolls("attack")
        return (rolls[-1] if rolls else None), text

    @pytest.mark.rule("ATK-02")
    def test_no_brawl_rolls_dexterity_at_normal_difficulty(self):
        for rs in BOTH:
            roll, _ = self.one_attack(rs, "attack Thug", dexterity=3, wits=3, strength=3)
            self.assertEqual(roll["traits"], [["Dexterity", 3]], rs)
            self.assertEqual((roll["pool"], roll["difficulty"]), (3, 6), rs)
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-02")
    def test_no_melee_rolls_dexterity_at_plus_one(self):
        for rs in BOTH:
            roll, _ = self.one_attack(rs, "attack Thug with knife", ["knife"], dexterity=3,
                                      wits=3, strength=3)
            self.assertEqual(roll["traits"], [["Dexterity", 3]], rs)
            self.assertEqual((roll["pool"], roll["difficulty"]), (3, 7), rs)
            self.assertIn({"reason": "no Melee: Dexterity alone", "difficulty": 1},
                          roll["modifiers"])
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-03")
    def test_armor_adds_its_difficulty_to_attacks(self):
        for rs in BOTH:
            roll, _ = self.one_attack(rs, "attack Thug", armor="flak jacket", dexterity=3,
                                      wits=3, brawl=2, strength=3)
            self.assertEqual((roll["pool"], roll["difficulty"]), (5, 8), rs)
            self.assertIn({"reason": "armor (Flak jacket)", "difficulty": 2}, roll["modifiers"])
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-03", "ATK-09")
    def test_missing_firearms_is_plus_one_and_stacks_with_armor(self):
        for rs in BOTH:
            roll, _ = self.one_attack(rs, "attack Thug with pistol, heavy", ["pistol, heavy"],
                                      yards=10, armor="kevlar vest", dexterity=3, wits=3,
                                      strength=3)
            self.assertEqual(roll["traits"], [["Dexterity", 3]], rs)
            self.assertEqual((roll["pool"], roll["difficulty"]), (3, 8), rs)
            self.assertIn({"reason": "no Firearms: Dexterity alone", "difficulty": 1},
                          roll["modifiers"])
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-04")
    def test_melee_with_a_throwing_weapon_and_throwing_a_melee_weapon(self):
        for rs in BOTH:
            roll, _ = self.one_attack(rs, "attack Thug with throwing knife as weapon_strike",
                                      ["throwing knife", "knife"], dexterity=3, wits=3,
                                      strength=3, melee=2, athletics=2)
            self.assertEqual((roll["pool"], roll["difficulty"]), (5, 7), rs)
            self.assertIn({"reason": "melee with a weapon made for throwing", "difficulty": 1},
                          roll["modifiers"])
            self.cmd("+combat/end")
            roll, _ = self.one_attack(rs, "attack Thug with knife as throw", ["knife"],
                                      yards=5, dexterity=3, wits=3, strength=3, athletics=2)
            self.assertEqual((roll["pool"], roll["difficulty"]), (5, 7), rs)
            self.assertIn({"reason": "throwing a weapon made for melee", "difficulty": 1},
                          roll["modifiers"])
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-06")
    def test_thrown_athletics_or_throwing_at_minus_one(self):
        for rs in BOTH:
            roll, text = self.one_attack(rs, "attack Thug with throwing knife",
                                         ["throwing knife"], yards=5, dexterity=3, wits=3,
                                         strength=3, throwing=2)
            self.assertEqual(roll["traits"], [["Dexterity", 3], ["Throwing", 2]], rs)
            self.assertEqual((roll["pool"], roll["difficulty"]), (5, 5), rs)
            self.assertIn("knife", self.who("Char").gear.to_dict()["dropped"][0].lower())
            self.cmd("+combat/end")

    @pytest.mark.rule("ATK-06")
    def test_thrown_range_is_five_yards_per_strength_less_for_heavy_things(self):
        for rs in BOTH:
            # Strength 3: 15 yards for a knife; 16 is out of reach: a miss with no roll.
            roll, text = self.one_attack(rs, "attack Thug with throwing knife",
                                         ["throwing knife"], yards=16, dexterity=3, wits=3,
                                         strength=3, athletics=2)
            self.assertIsNone(roll, rs)
            self.assertIn("maximum of 15", text)
            self.cmd("+combat/end")
            # An axe (5 lb: 2 lb over 3) loses 5 yards: 10 yards at most.
            roll, text = self.one_attack(rs, "attack Thug with axe as throw", ["axe"],
                                         yards=11, dexterity=3, wits=3, strength=3,
                                         athletics=2)
            self.assertIsNone(roll, rs)
            self.assertIn("maximum of 10", text)
            self.cmd("+combat/end")


ARCHER = dict(strength=3, dexterity=3, wits=3, perception=2, athletics=2, stamina=2)


class TestBows(RangedTest):
    @pytest.mark.rule("ATK-07")
    def test_numetal_bow_needs_a_nock_each_shot(self):
        self.fight("", ["short bow"], **ARCHER)
        text = self.turn("attack Thug with short bow")
        self.assertIn("Nock an arrow before each shot of the Short bow", text)
        self.cmd("+combat/declare nock")
        self.assertIn("Char nocks the Short bow", self.cmd("+combat/act").text)
        self.finish_turn()
        self.turn("attack Thug with short bow")
        # Dex 3 + Athletics 2 vs 6: [8 8 2 2 2] = 2; damage 4 + 1 [2 2 2 2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Athletics", 2]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (5, 6))
        self.assertFalse(self.who("Char").gear.weapon("Short bow").nocked)

    @pytest.mark.rule("ATK-07")
    def test_numetal_archery_at_minus_one_and_a_specialty_skips_nocking(self):
        self.fight("", ["short bow"], strength=3, dexterity=3, wits=3, archery=2)
        self.cmd("+sheet/spec archery=Short bow")
        self.turn("attack Thug with short bow")
        with self.dice(*[2] * 5):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Archery", 2]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (5, 5))
        self.assertIn({"reason": "Archery for Athletics", "difficulty": -1}, roll["modifiers"])

    @pytest.mark.rule("ATK-07")
    def test_numetal_botch_snaps_the_string_and_repair_takes_a_spare(self):
        self.fight("", ["short bow"], strength=3, dexterity=3, wits=3, archery=2)
        self.cmd("+sheet/spec archery=Short bow")
        self.turn("attack Thug with short bow")
        with self.dice(1, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        # issue 28: the botch names what it costs
        self.assertIn("BOTCH: the attack fails, and worse:\n  The botch snaps Char's bowstring: "
                      "no shot until it is mended", text)
        self.finish_turn()
        self.assertIn("string is snapped: repair it first",
                      self.turn("attack Thug with short bow"))
        self.cmd("+combat/declare repair")
        # Wits 3 + Archery 2 vs 6: [8 2 2 2 2] = 1: mended, the one spare string used.
        with self.dice(8, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char repair: Wits 3 + Archery 2 = 5 vs 6", text)
        self.assertIn("the string is mended; 0 spare string(s) left", text)
        st = self.who("Char").gear.weapon("Short bow")
        self.assertEqual((st.string_ok, st.strings_used), (True, 1))
        self.finish_turn()
        self.assertIn("nothing to repair", self.turn("repair"))

    @pytest.mark.rule("ATK-07")
    def test_revised_archery_and_archery_four_skips_nocking(self):
        self.fight("revised", ["short bow"], strength=3, dexterity=3, wits=3, archery=3,
                   athletics=4)
        self.assertIn("Nock an arrow", self.turn("attack Thug with short bow"))
        self.cmd("+combat/end")
        self.fight("revised", ["short bow"], strength=3, dexterity=3, wits=3, archery=4)
        self.turn("attack Thug with short bow")  # Archery 4: no nocking
        with self.dice(*[2] * 7):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Archery", 4]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (7, 6))

    @pytest.mark.rule("ATK-07")
    def test_revised_athletics_for_a_bow_is_plus_one(self):
        self.fight("revised", ["short bow"], strength=3, dexterity=3, wits=3, athletics=2)
        self.turn("nock")
        self.cmd("+combat/act")
        self.finish_turn()
        self.turn("attack Thug with short bow")
        with self.dice(*[2] * 5):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Athletics", 2]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (5, 7))


class TestPreparedArrows(RangedTest):
    def prepared(self, ruleset):
        self.fight(ruleset, ["short bow"], **ARCHER)
        self.assertIn("prepare <n> arrows", self.turn("prepare many arrows"))
        self.cmd("+combat/declare prepare 2 arrows")
        self.assertIn("2 arrow(s) ready", self.cmd("+combat/act").text)
        self.finish_turn()
        shot = "attack Thug with short bow"
        self.assertIn("Nock an arrow", self.turn(f"{shot}; {shot}; {shot}"))
        self.cmd(f"+combat/declare {shot}; {shot}")  # two shots from a rate-1 bow
        # Dex 3 + Athletics 2 - 2 (two actions) = 3 dice: [2 2 2].
        with self.dice(2, 2, 2):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["pool"], 3)
        self.assertEqual(self.who("Char").gear.weapon("Short bow").prepared_arrows, 1)

    @pytest.mark.rule("RNG-06")
    def test_numetal_prepared_arrows_split_without_nocking(self):
        self.prepared("")

    @pytest.mark.rule("RNG-06")
    def test_revised_prepared_arrows_split_without_nocking(self):
        self.prepared("revised")


class TestCrossbows(RangedTest):
    @pytest.mark.rule("ATK-08")
    def test_numetal_crossbow_rolls_and_two_reload_actions(self):
        self.fight("", ["crossbow"], strength=3, dexterity=3, wits=3, firearms=2)
        self.turn("attack Thug with crossbow")  # carried in loaded
        with self.dice(*[2] * 5):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Firearms", 2]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (5, 7))  # Firearms at +1
        self.finish_turn()
        self.assertIn("not loaded: reloading takes 2 action(s)",
                      self.turn("attack Thug with crossbow"))
        self.cmd("+combat/declare reload")
        self.assertIn("1 of 2 reload actions done", self.cmd("+combat/act").text)
        self.finish_turn()
        self.turn("reload")
        self.assertIn("loaded", self.cmd("+combat/act").text)
        self.assertEqual(self.who("Char").gear.weapon("Crossbow").ammo, 1)

    @pytest.mark.rule("ATK-08")
    def test_numetal_crossbow_specialty_reloads_in_one(self):
        self.fight("", ["crossbow"], strength=3, dexterity=3, wits=3, archery=2)
        self.cmd("+sheet/spec archery=crossbow")
        self.turn("attack Thug with crossbow")
        with self.dice(*[2] * 5):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["difficulty"]), (5, 5))  # Archery at -1
        self.finish_turn()
        self.turn("reload; attack Thug with crossbow")  # one reload, then the shot
        self.assertTrue(self.who("Char").declared)

    @pytest.mark.rule("ATK-08")
    def test_revised_crossbow_archery_four_reloads_in_one(self):
        self.fight("revised", ["crossbow"], strength=3, dexterity=3, wits=3, archery=3)
        self.turn("attack Thug with crossbow")
        with self.dice(*[2] * 6):
            self.cmd("+combat/act")
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["traits"], [["Dexterity", 3], ["Archery", 3]])
        self.assertEqual((roll["pool"], roll["difficulty"]), (6, 6))
        self.finish_turn()
        self.assertIn("reloading takes 2 action(s)",
                      self.turn("reload; attack Thug with crossbow"))
        self.cmd("+combat/end")
        self.fight("revised", ["crossbow"], strength=3, dexterity=3, wits=3, archery=4)
        self.turn("attack Thug with crossbow")
        with self.dice(*[2] * 7):
            self.cmd("+combat/act")
        self.finish_turn()
        self.turn("reload; attack Thug with crossbow")
        self.assertTrue(self.who("Char").declared)


class TestTwoWeapons(RangedTest):
    TWO = "attack Thug with pistol, heavy; attack Thug with pistol, light off hand"

    def two_guns(self, ruleset, **extra):
        self.fight(ruleset, ["pistol, heavy", "pistol, light"], **{**SHOOTER, **extra})
        self.turn(self.TWO)
        acts = self.who("Char").actions
        self.assertTrue(acts[1]["off_hand"])
        with self.dice(*[2] * 6):
            self.texts = [self.cmd("+combat/act").text]
        self.finish_turn()
        with self.dice(*[2] * 6):
            self.texts.append(self.cmd("+combat/act").text)
        main, off = self.rolls("attack")[-2:]
        return main, off

    @pytest.mark.rule("RNG-09")
    def test_numetal_off_hand_is_plus_one(self):
        main, off = self.two_guns("")
        # Dex 3 + Firearms 2: -2 and -3 dice for two actions; the off hand +1 difficulty.
        self.assertEqual((main["pool"], main["difficulty"]), (3, 6))
        self.assertEqual((off["pool"], off["difficulty"]), (2, 7))
        self.assertIn({"reason": "off hand", "difficulty": 1}, off["modifiers"])

    @pytest.mark.rule("RNG-09")
    def test_revised_ambidextrous_one_waives_the_off_hand(self):
        main, off = self.two_guns("revised", ambidextrous=1)
        self.assertEqual((off["pool"], off["difficulty"]), (2, 6))

    @pytest.mark.rule("RNG-09")
    def test_numetal_ambidextrous_two_and_nothing_else_no_multiple_action_penalty(self):
        main, off = self.two_guns("", ambidextrous=2)
        self.assertEqual((main["pool"], off["pool"]), (5, 5))
        self.assertEqual(off["difficulty"], 6)
        self.assertEqual(len([r for r in self.log() if r["event"] == "two_weapons"]), 2)
        self.assertIn("ambidextrous: no multiple-action penalty", self.texts[0])

    @pytest.mark.rule("RNG-09")
    def test_two_handed_weapons_cannot_be_the_off_hand(self):
        self.fight("", ["rifle", "pistol, light"])
        text = self.turn("attack Thug with pistol, light; attack Thug with rifle off hand")
        self.assertIn("needs both hands", text)
        text = self.cmd("+combat/declare attack Thug with rifle; "
                        "attack Thug with pistol, light off hand").text
        self.assertIn("hands are on the Rifle", text)
        self.assertFalse(self.who("Char").declared)

    @pytest.mark.rule("RNG-09")
    def test_everyman_off_hand_always_adds_to_the_split(self):
        main, off = self.two_guns("everyman", ambidextrous=2)
        self.assertEqual(off["difficulty"], 7)
        self.assertLess(off["pool"], 5)


class TestStrafing(RangedTest):
    def two_targets(self, ruleset="", goon="other snarls"):
        """Thug and Goon (initiative 4) stand together 10 yards from Char."""
        self.fight(ruleset, ["smg, small"], goon=True)
        self.cmd(f"+combat/declare Goon={goon}")

    def strafe(self, ruleset):
        self.two_targets(ruleset, goon="dodge prone")
        self.turn("attack Thug and Goon with smg, small as strafe")
        # Dex 3 + Firearms 2 + 10 = 15 dice vs 8: five 9s = 5 successes: Thug 3 (the
        # leftover goes to the first named), Goon 2. Goon's dodge (prone) Dex 2 vs 6 + 1:
        # [2 2] = 0. Thug: damage 4 + 2 = 6 dice [8 8 2 2 2 2] = 2 lethal; Goon: 4 + 1 = 5
        # dice [8 2 2 2 2] = 1 lethal (mortals soak no lethal).
        with self.dice(*[9] * 5, *[2] * 10, 2, 2, 8, 8, 2, 2, 2, 2, 8, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        roll = self.rolls("attack")[-1]
        self.assertEqual((roll["pool"], roll["difficulty"]), (15, 8))
        self.assertIn("Char strafes Thug, Goon (strafe, SMG, small):", text)
        self.assertIn("Thug's share: 3 successes.", text)
        self.assertIn("Goon's share: 2 successes.", text)
        dodge = self.rolls("defense")[-1]
        self.assertEqual((dodge["pool"], dodge["difficulty"]), (2, 7))
        self.assertIn({"reason": "dodging a strafe", "difficulty": 1}, dodge["modifiers"])
        self.assertEqual(thug(self).sheet.get().health["lethal"], 2)
        goon = next(o for o in self.room1.contents if o.key == "Goon")
        self.assertEqual(goon.sheet.get().health["lethal"], 1)
        self.assertEqual(self.who("Char").gear.weapon("SMG, small").ammo, 0)  # clip emptied

    @pytest.mark.rule("RNG-07")
    def test_numetal_strafe_splits_successes_among_targets(self):
        self.strafe("")

    @pytest.mark.rule("RNG-07")
    def test_revised_strafe_splits_successes_among_targets(self):
        self.strafe("revised")

    @pytest.mark.rule("RNG-07")
    def test_one_target_takes_half(self):
        self.fight("", ["smg, small"])
        self.turn("attack Thug with smg, small as strafe")
        with self.dice(*[9] * 4, *[2] * 11, *[2] * 5):
            text = self.cmd("+combat/act").text
        self.assertIn("Hit with 2 net successes", text)

    @pytest.mark.rule("RNG-07")
    def test_targets_more_than_three_yards_apart_are_refused(self):
        self.two_targets()
        self.cmd("+combat/range Thug/Goon=5")
        text = self.turn("attack Thug and Goon with smg, small as strafe")
        self.assertIn("within 3 yards of each other; these are 5 apart", text)
        self.assertIn("Only a strafe attacks several targets",
                      self.cmd("+combat/declare attack Thug and Goon with smg, small").text)
        self.assertFalse(self.who("Char").declared)

    @pytest.mark.rule("RNG-07")
    def test_everyman_one_target_takes_all(self):
        self.fight("everyman", ["smg, small"])
        self.turn("attack Thug with smg, small as strafe")
        with self.dice(*[9] * 4, *[2] * 11, *[2] * 7):
            text = self.cmd("+combat/act").text
        self.assertIn("Hit with 4 net successes", text)


class TestHelp(RangedTest):
    def test_help_lists_the_ranged_actions_and_its_examples_parse(self):
        from wodcombat.commands.combat import CmdCombat
        from wodcombat.commands.combat_declare import DeclarationParser
        from wodcombat.world import rulebook

        text = CmdCombat().get_help(self.char1, None)
        for words in ("prepare <n> arrows", "repair [<bow>]", "nock [<bow>]", "off hand",
                      "as strafe", "rate of fire", "declared alone"):
            self.assertIn(words, text)
        parser = DeclarationParser(rulebook.get(), lambda name: name.strip())
        examples = [line.split("+combat/declare ", 1)[1] for line in text.splitlines()
                    if line.strip().startswith("+combat/declare ") and "=" not in line
                    and "<" not in line]  # Usage lines (<action>) are forms, not examples
        self.assertGreater(len(examples), 8)
        for ex in examples:
            parser.parse(ex)  # raises on a bad example


class TestAmmunition(RangedTest):
    @pytest.mark.rule("CLOSE-06", "RNG-06")
    def test_reload_with_rubber_rounds_deals_bashing(self):
        self.fight("", ["pistol, heavy"])
        self.assertIn("'blessed' is not a kind of ammunition here",
                      self.turn("reload with blessed"))
        self.cmd("+combat/declare reload with rubber")
        self.assertIn("7 round(s) ready (rubber rounds)", self.cmd("+combat/act").text)
        self.finish_turn()
        self.turn("attack Thug with pistol, heavy")
        # Dex 3 + Firearms 2 vs 6 [8 8 2 2 2] = 2; damage 5 + 1 = 6 dice [8 2 2 2 2 2] = 1
        # bashing (rubber); Thug soaks bashing: Stamina 2 [2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 8, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 1 bashing", text)
        self.assertEqual(thug(self).sheet.get().health["bashing"], 1)

    @pytest.mark.rule("CLOSE-06")
    def test_a_gun_takes_only_the_rounds_its_row_lists(self):
        self.fight("", ["crossbow"], strength=3, dexterity=3, wits=3, archery=2)
        self.assertIn("takes no special rounds, not silver", self.turn("reload with silver"))
        self.assertFalse(self.who("Char").declared)
