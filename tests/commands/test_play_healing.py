"""Healing and health played through +combat with exact dice (HEAL-01..10, HLT-04, HLT-07..09).

Fight set-up (``CombatTest.setup_fight``): Char (staff, organizer) initiative 11, Char2 7,
the NPC Thug 5; the declaration phase is open, Thug declares first. Reflexive healing
(``+combat/declare heal ...``) is done at once whoever's turn it is to declare; the
organizer's ``+combat/recover`` marks healing by the clock.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest, thug


def npc(test, name, spec):
    test.assertIn(f"{name} joins", test.cmd(f"+combat/npc {name}={spec}").text)
    return next(o for o in test.room1.contents if o.key == name)


def health(obj):
    return dict(obj.sheet.get().health)


class HealingTest(EffectsTest):
    def fight(self, ruleset=""):
        if not ruleset:
            self.setup_fight()
            return
        # slot by slot (the default is ahead), as setup_fight: each acts in their slot
        self.assertIn("starts a fight", self.cmd(f"+combat/start {ruleset}=slots").text)
        self.player("+combat/join")

    def last(self, kind):
        return [r for r in self.log() if r["event"] == kind][-1]


# ---------------------------------------------------------------- blood (HEAL-01/02/05/10)


class TestBlood(HealingTest):
    @pytest.mark.rule("HEAL-01", "HEAL-10")
    def test_vampire_heals_with_blood_capped_by_generation(self):
        self.char1.sheet.save(make_sheet(splat="vampire", generation=13, blood=10, strength=3,
                                         dexterity=3, wits=3, brawl=2, stamina=2))
        self.setup_fight()
        self.cmd("+combat/damage Char=2 lethal")
        text = self.cmd("+combat/declare heal blood 1").text
        self.assertIn("Char heals 1 lethal (blood, 1 Blood, 1 turn): Hurt -> Bruised.", text)
        self.assertEqual(health(self.char1)["lethal"], 1)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 9)
        # HEAL-01: blood per turn by generation (13th: one); not an action: still to declare
        self.assertIn("at most 1 blood a turn", self.cmd("+combat/declare heal blood 1").text)
        self.assertFalse(self.who("Char").declared)
        # HEAL-01: no healing by time; aggravated takes a day's rest, then 5 blood
        self.assertIn("does not heal with the passing of time",
                      self.cmd("+combat/recover Char=lethal").text)
        self.cmd("+combat/damage Char=1 aggravated")
        self.assertIn("+combat/recover <name>=aggravated rested",
                      self.cmd("+combat/declare heal aggravated").text)
        text = self.cmd("+combat/recover Char=aggravated rested").text
        self.assertIn("Char heals 1 aggravated (blood, 5 Blood, 1 day)", text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 4)
        self.assertEqual(health(self.char1).get("aggravated", 0), 0)

    @pytest.mark.rule("HEAL-01")
    def test_vampire_made_under_spotlight_is_told_how_to_get_a_blood_pool(self):
        """A vampire whose splat was set in a spotlight room has Blood Potency and Hunger,
        no Blood pool: in a d10 fight the refusal says how to give the sheet one, and with
        it the blood heals."""
        self.cmd("+combat/start spotlight")
        self.cmd("+sheet/set splat=vampire")
        self.cmd("+combat/end")
        self.assertNotIn("Blood", self.char1.sheet.get().pools)
        self.setup_fight()
        self.cmd("+combat/damage Char=2 lethal")
        self.assertIn("A vampire has no Blood to heal: this sheet has no Blood pool "
                      "(+sheet/set blood=<n> gives it one).",
                      self.cmd("+combat/declare heal blood 1").text)
        self.assertEqual(health(self.char1)["lethal"], 2)
        self.assertIn("Your Blood set to 10/10.", self.cmd("+sheet/set blood=10").text)
        self.assertIn("Char heals 1 lethal (blood, 1 Blood",
                      self.cmd("+combat/declare heal blood 1").text)

    @pytest.mark.rule("HEAL-02")
    def test_ghoul_heals_with_blood_and_time_and_regrows_a_finger(self):
        self.setup_fight()
        gh = npc(self, "Renfield", "splat=ghoul,stamina=3,blood=5,willpower=3")
        self.cmd("+combat/damage Renfield=2 lethal")
        self.assertIn("Renfield heals 1 lethal (blood, 1 Blood",
                      self.cmd("+combat/declare Renfield=heal blood 1").text)
        text = self.cmd("+combat/recover Renfield=lethal").text
        self.assertIn("Renfield heals 1 lethal over 1 day", text)
        # Limb: a Willpower, 1 blood for a finger, Stamina 3 vs 8: [8 2 2] = 1: regrown.
        with self.dice(8, 2, 2):
            text = self.cmd("+combat/declare Renfield=heal limb finger").text
        self.assertIn("Renfield regrow a limb: Stamina 3 = 3 vs 8", text)
        self.assertIn("Renfield regrows the finger.", text)
        pools = gh.sheet.get().pools
        self.assertEqual((pools["Blood"].current, pools["Willpower"].current), (3, 2))
        # a 200-year-old ghoul rolls at 6; failure: never regrows
        with self.dice(5, 5, 5):
            text = self.cmd("+combat/declare Renfield=heal limb eye age 200").text
        self.assertIn("vs 6: [5 5 5]", text)
        self.assertIn("fails to regrow the eye: it never will", text)

    @pytest.mark.rule("HEAL-05", "HEAL-10")
    def test_ananasi_bleed_to_heal_not_in_crawlerling(self):
        self.setup_fight()
        spider = npc(self, "Anansi", "splat=ananasi,race=Ananasi,form=Homid,stamina=3,"
                                     "blood=10")
        self.cmd("+combat/damage Anansi=2 lethal")
        self.assertIn("heals with blood, not regeneration",
                      self.cmd("+combat/declare Anansi=regenerate").text)
        text = self.cmd("+combat/declare Anansi=heal blood 1").text
        self.assertIn("Anansi heals 1 lethal (blood, 1 Blood, 1 turn)", text)
        # one level a turn
        self.assertIn("at most 1 level(s) a turn",
                      self.cmd("+combat/declare Anansi=heal blood 1").text)
        # aggravated: five blood, over five turns, no rest needed
        self.cmd("+combat/damage Anansi=1 aggravated")
        text = self.cmd("+combat/declare Anansi=heal aggravated").text
        self.assertIn("Anansi heals 1 aggravated (blood, 5 Blood, 5 turns)", text)
        self.assertEqual(spider.sheet.get().pools["Blood"].current, 4)
        s = spider.sheet.get()
        from dataclasses import replace

        spider.sheet.save(replace(s, form="Crawlerling"))
        self.assertIn("Crawlerling", self.cmd("+combat/declare Anansi=heal blood 1").text)

    @pytest.mark.rule("HEAL-05")
    def test_kitsune_do_not_regenerate_rokea_in_salt_water_do(self):
        self.setup_fight()
        npc(self, "Fox", "splat=shifter,race=Kitsune,stamina=3")
        self.cmd("+combat/damage Fox=1 lethal")
        self.assertIn("does not regenerate", self.cmd("+combat/declare Fox=regenerate").text)
        shark = npc(self, "Shark", "splat=shifter,race=Rokea,breed=lupus,form=Squamus,"
                                   "stamina=3")
        self.cmd("+combat/damage Shark=1 lethal")
        self.assertIn("breed form", self.cmd("+combat/declare Shark=regenerate").text)
        self.cmd("+combat/mod Shark=salt_water")
        with self.dice(9, 2, 2):
            text = self.cmd("+combat/declare Shark=regenerate").text
        self.assertIn("Shark heals 1 lethal (regeneration, 1 turn)", text)
        self.assertEqual(health(shark).get("lethal", 0), 0)


# ---------------------------------------------------------------- shifters (HEAL-03/04)


class TestShifters(HealingTest):
    def wolf(self, form="Crinos"):
        return npc(self, "Wolf", f"splat=shifter,race=Garou,breed=homid,form={form},"
                                 f"stamina=3,rage=3,dex=2,wits=2")

    @pytest.mark.rule("HEAL-03", "HEAL-10")
    def test_regeneration_rolls_stamina_in_a_fight_once_a_turn(self):
        self.setup_fight()
        wolf = self.wolf()
        self.cmd("+combat/damage Wolf=2 lethal")
        with self.dice(8, 2, 2):
            text = self.cmd("+combat/declare Wolf=regenerate").text
        self.assertIn("Wolf regeneration: Stamina 3 = 3 vs 8: [8 2 2] => 1 success", text)
        self.assertIn("Wolf heals 1 lethal (regeneration, 1 turn): Hurt -> Bruised.", text)
        self.assertEqual(health(wolf)["lethal"], 1)
        self.assertIn("regenerated this turn already",
                      self.cmd("+combat/declare Wolf=regenerate").text)

    @pytest.mark.rule("HEAL-03")
    def test_botched_regeneration_stops_it_until_rest(self):
        self.setup_fight()
        wolf = self.wolf()
        self.cmd("+combat/damage Wolf=2 lethal")
        with self.dice(1, 2, 2):
            text = self.cmd("+combat/declare Wolf=regenerate").text
        self.assertIn("Wolf heals nothing (regeneration)", text)
        self.assertIn("no more regeneration until they rest", text)
        self.assertEqual(health(wolf)["lethal"], 2)
        self.assertIn("no_regeneration", [k.name for k in self.who("Wolf").conditions])

    @pytest.mark.rule("HEAL-03")
    def test_breed_form_heals_a_day_a_level_when_critical(self):
        """Issue 9, defect 12: breed form: 1 a day in critical condition, else as mortals."""
        self.setup_fight()
        wolf = self.wolf(form="Homid")
        self.cmd("+combat/damage Wolf=6 lethal")
        self.assertIn("breed form", self.cmd("+combat/declare Wolf=regenerate").text)
        text = self.cmd("+combat/recover Wolf=lethal").text
        self.assertIn("Wolf heals 1 lethal over 1 day", text)
        self.assertIn("critical condition: one level a day", text)
        text = self.cmd("+combat/recover Wolf=lethal").text
        self.assertIn("over 2 months", text)
        self.assertEqual(health(wolf)["lethal"], 4)

    @pytest.mark.rule("HEAL-04", "HLT-04", "HLT-05")
    def test_dying_names_the_command_and_rage_heals(self):
        """Issue 9, defect 25: the DYING line names the command, and it works."""
        self.setup_fight()
        wolf = self.wolf()
        text = self.cmd("+combat/damage Wolf=8 aggravated").text
        self.assertIn("Wolf is DYING: heal with Rage now (+combat/declare heal rage)", text)
        # Rage 3 vs 8: [8 9 8] = 3 successes: Wounded, counted back from Incapacitated.
        with self.dice(8, 9, 8):
            text = self.cmd("+combat/declare Wolf=heal rage").text
        self.assertIn("Wolf rage healing: Rage 3 = 3 vs 8: [8 9 8] => 3 successes", text)
        self.assertIn("-> Wounded", text)
        self.assertIn("berserk frenzy from next turn", text)
        self.assertEqual(self.who("Wolf").outcome, "")
        self.assertEqual(sum(health(wolf).values()), 4)
        self.assertIn("is DYING", self.cmd("+combat/damage Wolf=4 aggravated").text)
        self.assertIn("once per scene", self.cmd("+combat/declare Wolf=heal rage").text)

    @pytest.mark.rule("HLT-04")
    def test_shifter_bashed_past_incapacitated_reverts_then_dies(self):
        """Issue 9, defect 9: bashing past Incapacitated is lethal: revert, then death."""
        self.setup_fight()
        wolf = self.wolf()
        self.assertIn("Wolf is knocked UNCONSCIOUS", self.cmd("+combat/damage Wolf=7 bashing").text)
        self.assertEqual(wolf.sheet.get().form, "Crinos")
        text = self.cmd("+combat/damage Wolf=1 bashing").text
        self.assertIn("reverts to breed form", text)
        self.assertEqual(wolf.sheet.get().form, "Homid")
        self.assertIn("Wolf is DEAD", self.cmd("+combat/damage Wolf=1 bashing").text)


    @pytest.mark.rule("HLT-04")
    def test_shifter_declares_ahead_to_stay_up_on_rage(self):
        """numetal: past Incapacitated by lethal, "may spend Rage to remain active"."""
        self.setup_fight()
        wolf = self.wolf()
        text = self.cmd("+combat/declare Wolf=stay active").text
        self.assertIn("Wolf will spend 1 Rage to stay up if taken past Incapacitated.", text)
        self.assertFalse(self.who("Wolf").declared)  # not an action
        text = self.cmd("+combat/damage Wolf=8 lethal").text
        self.assertIn("Wolf stays up on Rage; any more damage kills", text)
        self.assertEqual(self.who("Wolf").outcome, "rage_active")
        self.assertEqual((wolf.sheet.get().form, wolf.sheet.get().pools["Rage"].current),
                         ("Crinos", 2))
        self.assertIn("Wolf is DEAD", self.cmd("+combat/damage Wolf=1 bashing").text)

    @pytest.mark.rule("HLT-04")
    def test_revised_shifter_cannot_stay_up_on_rage(self):
        self.fight("revised")
        self.wolf()
        self.assertIn("reverts to breed form", self.cmd("+combat/declare Wolf=stay active").text)
        self.assertIn("reverts to breed form", self.cmd("+combat/damage Wolf=8 lethal").text)


# ---------------------------------------------------------------- magic, fae, demons


class TestMagicAndOthers(HealingTest):
    def mage(self, life):
        self.char1.sheet.save(make_sheet(splat="mage", life=life, quintessence=3, strength=3,
                                         dexterity=3, wits=3, brawl=2, stamina=2))

    @pytest.mark.rule("HEAL-06")
    def test_mage_heals_another_with_life_3_aggravated_costs_quintessence(self):
        for ruleset in ("numetal", "revised"):
            with self.subTest(ruleset=ruleset):
                self.mage(life=2)
                self.fight(ruleset)
                npc(self, "Thug", "str=3,dex=2,stamina=2")
                self.cmd("+combat/damage Thug=2 aggravated")
                self.assertIn("takes Life 3", self.cmd(
                    "+combat/declare heal life 1 aggravated on Thug").text)
                self.mage(life=3)
                text = self.cmd("+combat/declare heal life 1 aggravated on Thug").text
                self.assertIn("Thug heals 1 aggravated (Life magic from Char, 1 Quintessence",
                              text)
                self.assertIn("(vulgar magic)", text)
                self.assertEqual(health(thug(self))["aggravated"], 1)
                self.assertEqual(self.char1.sheet.get().pools["Quintessence"].current, 2)
                # one Arete effect a turn (PWR-03): a second heal waits for the next turn
                self.assertIn("only 1 Arete effect a turn", self.cmd(
                    "+combat/declare heal life 1 aggravated on Thug").text)
                self.assertEqual(health(thug(self))["aggravated"], 1)
                self.cmd("+combat/end")  # the NPCs made for the fight go with it

    @pytest.mark.rule("HEAL-07")
    def test_changeling_healing_times_by_place(self):
        self.setup_fight()
        fae = npc(self, "Fae", "splat=changeling,stamina=2")
        self.cmd("+combat/damage Fae=3 bashing")
        # chimerical Injured bashing: 1 hour, halved in a freehold
        text = self.cmd("+combat/recover Fae=bashing chimerical freehold").text
        self.assertIn("Fae heals 1 bashing over 30 minutes", text)
        self.assertIn("halved in a freehold", text)
        self.assertIn("over 15 minutes", self.cmd("+combat/recover Fae=bashing chimerical "
                                                  "dreaming").text)
        self.cmd("+combat/damage Fae=5 lethal")
        text = self.cmd("+combat/recover Fae=lethal").text
        self.assertIn("It needs medical attention.", text)
        self.assertEqual(health(fae)["lethal"], 4)
        self.assertIn("for changelings", self.cmd("+combat/recover Thug=bashing freehold").text)
        # aggravated: the natural rate, only halved in a freehold, at least a day a level
        npc(self, "Pixie", "splat=changeling,stamina=2")
        self.cmd("+combat/damage Pixie=1 aggravated")
        self.assertIn("Pixie heals 1 aggravated over 1 day",
                      self.cmd("+combat/recover Pixie=aggravated freehold").text)

    @pytest.mark.rule("HEAL-08")
    def test_demon_concentrates_a_turn_per_faith(self):
        self.fight("revised")
        npc(self, "Imp", "splat=demon,faith=3,dex=1,wits=1,stamina=2")
        with self.dice(5, 3, 1):
            self.cmd("+combat/init")
            self.player("+combat/init")
            self.cmd("+combat/init Imp=2")
        self.cmd("+combat/next")
        self.cmd("+combat/damage Imp=2 lethal")
        imp = next(o for o in self.room1.contents if o.key == "Imp")
        self.cmd("+combat/declare Imp=heal faith")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        self.player("+combat/act")
        text = self.cmd("+combat/act Imp").text
        self.assertIn("Imp heals 1 lethal (Faith, 1 Faith, 1 turn)", text)
        self.assertEqual(imp.sheet.get().pools["Faith"].current, 2)
        # next turn: hurt before acting: the healing fails, the Faith is kept
        self.cmd("+combat/declare Imp=heal faith")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/damage Imp=1 bashing")
        self.cmd("+combat/act")
        self.player("+combat/act")
        text = self.cmd("+combat/act Imp").text
        self.assertIn("Imp heals nothing (Faith)", text)
        self.assertIn("damaged while concentrating", text)
        self.assertEqual(imp.sheet.get().pools["Faith"].current, 2)
        self.assertEqual(health(imp)["lethal"], 1)

    @pytest.mark.rule("HEAL-08", "HEAL-09")
    def test_numetal_has_neither_faith_healing_nor_the_healing_roll(self):
        self.setup_fight()
        npc(self, "Imp", "splat=demon,faith=3,stamina=2")
        self.assertIn("no Faith healing", self.cmd("+combat/declare Imp=heal faith").text)
        self.assertIn("no in-combat healing roll", self.cmd("+combat/declare heal roll").text)
        self.assertFalse(self.who("Imp").declared)

    @pytest.mark.rule("HEAL-09", "HLT-06")
    def test_everyman_in_combat_healing_roll(self):
        self.char1.sheet.save(make_sheet(splat="vampire", generation=13, blood=5, strength=3,
                                         dexterity=3, wits=3, brawl=2, stamina=2, survival=1))
        self.fight("everyman")
        npc(self, "Wolf", "splat=shifter,race=Garou,form=Crinos,stamina=3,rage=2")
        with self.dice(5, 3, 1):
            self.cmd("+combat/init")
            self.player("+combat/init")
            self.cmd("+combat/init Wolf=2")
        self.cmd("+combat/next")
        self.cmd("+combat/damage Char=2 lethal")
        self.cmd("+combat/damage Wolf=2 lethal")
        # werewolves: Stamina alone at 8, "done automatically": reflexive, no cost
        with self.dice(9, 2, 2):
            text = self.cmd("+combat/declare Wolf=heal roll").text
        self.assertIn("Wolf healing: Stamina 3 = 3 vs 8: [9 2 2] => 1 success", text)
        self.assertIn("Wolf heals 1 lethal (healing roll, 1 turn)", text)
        self.assertIn("healing roll this turn already",
                      self.cmd("+combat/declare Wolf=heal roll").text)
        self.cmd("+combat/declare Wolf=other howls")
        self.player("+combat/declare other waits")
        # vampires: Survival + Stamina at 8, the declared action; a blood point either way.
        # An action takes the wound penalty (#11, issue 10): Char is Hurt, -1 die.
        self.cmd("+combat/declare heal roll")
        with self.dice(8, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char healing: Survival 1 + Stamina 2, wounds (Hurt) -1 dice = 2 vs 8: "
                      "[8 2]", text)
        self.assertIn("Char heals 1 lethal (healing roll, 1 Blood, 1 turn)", text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 4)
        self.assertEqual(health(self.char1)["lethal"], 1)


# ---------------------------------------------------------------- health (HLT-07..09)


class TestHealth(HealingTest):
    @pytest.mark.rule("HLT-07")
    def test_wounds_limit_movement(self):
        """Issue 9, defect 6: a Crippled character crawls a yard a turn."""
        for ruleset in ("numetal", "revised"):
            with self.subTest(ruleset=ruleset):
                self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, stamina=2))
                self.fight(ruleset)
                self.cmd("+combat/damage Char=6 lethal")
                text = self.cmd("+combat/declare move 20").text
                self.assertIn("Crippled: crawl, at most 1 yards a turn", text)
                self.assertIn("Move 1 or less", text)
                self.cmd("+combat/heal Char=3 lethal")  # Injured: half speed
                self.assertIn("Injured: half speed", self.cmd("+combat/declare move 20").text)
                self.assertFalse(self.who("Char").declared)
                self.cmd("+combat/end")

    @pytest.mark.rule("HLT-08")
    def test_willpower_ignores_wound_penalties_for_the_turn(self):
        for ruleset in ("numetal", "revised"):
            with self.subTest(ruleset=ruleset):
                self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2,
                                                 stamina=2, willpower="3/3"))
                self.fight(ruleset)
                npc(self, "Thug", "str=3,dex=2,wits=2,brawl=2,stamina=2")
                with self.dice(5, 3, 1):
                    self.cmd("+combat/init")
                    self.player("+combat/init")
                    self.cmd("+combat/init Thug=4")
                self.cmd("+combat/next")
                self.cmd("+combat/damage Char=4 lethal")  # Wounded: -2
                self.cmd("+combat/declare Thug=other growls")
                self.player("+combat/declare other waits")
                text = self.cmd("+combat/declare ignore wounds; attack Thug").text
                self.assertIn("spends 1 Willpower (ignore wound penalties this turn)", text)
                with self.dice(2, 2, 2, 2, 2):
                    text = self.cmd("+combat/act").text
                self.assertIn("Char attack: Dexterity 3 + Brawl 2 = 5 vs 6", text)
                self.assertNotIn("wounds", text)
                self.cmd("+combat/damage Char=3 lethal")
                self.assertIn("Incapacitated", self.cmd("+combat/declare ignore wounds").text)
                self.cmd("+combat/end")  # the NPCs made for the fight go with it

    @pytest.mark.rule("HLT-09")
    def test_natural_healing_times_and_care_footnotes(self):
        """Issue 9, defect 11: the care footnote covers bashing too (each ruleset's own)."""
        self.fight("numetal")
        self.cmd("+combat/damage Char=4 bashing")
        text = self.cmd("+combat/recover Char=bashing").text
        self.assertIn("Char heals 1 bashing over 1 hour (marked by Char): Wounded -> Injured.",
                      text)
        self.assertIn("It needs medical care (Medicine 2+) or lasting impairment.", text)
        self.assertEqual(health(self.char1)["bashing"], 3)
        self.assertIn("Only the organizer", self.player("+combat/recover Char=bashing").text)
        self.cmd("+combat/end")
        self.fight("revised")
        self.cmd("+combat/damage Char=1 bashing")  # 4: Wounded bashing: no care in revised
        self.assertNotIn("needs", self.cmd("+combat/recover Char=bashing").text)
        self.cmd("+combat/damage Char=2 lethal")  # Mauled: lethal worsens without care
        text = self.cmd("+combat/recover Char=lethal").text
        self.assertIn("over 2 months", text)
        # HLT-09 (issue 10): revised's footnote (2) in the page's own words
        self.assertIn("It needs medical care to avoid worsening (1 level per day), then "
                      "healing continues on its own.", " ".join(text.split()))


# ---------------------------------------------------------------- fixed damage (defects 17, 26)


class TestFixedDamage(HealingTest):
    @pytest.mark.rule("COMP-04", "DMG-15")
    def test_botched_knockdown_on_a_vampire_is_halved_and_the_roll_says_why(self):
        """Issue 9, defects 17 and 26: the automatic level is bashing on a vampire, halved
        after the (absent) soak; the knockdown roll names its +2."""
        self.setup_fight()
        thug(self).sheet.save(make_sheet(splat="vampire", strength=3, dexterity=2, wits=2,
                                         brawl=2, stamina=2))
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as sweep")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 1, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug knockdown: Dexterity 2, knockdown maneuver +2 diff = 2 vs 8", text)
        self.assertIn("Thug takes 0 bashing (botched knockdown roll", text)
        self.assertEqual(health(thug(self)).get("bashing", 0), 0)
        kd = self.rolls("knockdown")[0]
        self.assertEqual(kd["modifiers"], [{"reason": "knockdown maneuver", "difficulty": 2}])

    @pytest.mark.rule("COMP-04")
    def test_v20_automatic_level_is_not_soaked(self):
        self.fight("v20")
        npc(self, "Thug", "str=3,dex=2,wits=2,brawl=2,stamina=2")
        with self.dice(5, 3, 1):
            self.cmd("+combat/init")
            self.player("+combat/init")
            self.cmd("+combat/init Thug=4")
        self.cmd("+combat/next")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as sweep")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 1, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 1 bashing (botched knockdown roll", text)
        self.assertEqual(self.rolls("soak"), [])

    @pytest.mark.rule("HLT-02", "CLOSE-03")
    def test_incapacitated_vampire_cannot_hold_on(self):
        """Issue 9, defect 26: Char clinches an incapacitated vampire; escaping from its
        grip rolls nothing for it (it cannot act), and works."""
        self.setup_fight()
        thug(self).sheet.save(make_sheet(splat="vampire", strength=3, dexterity=2, wits=2,
                                         brawl=2, stamina=2))
        self.cmd("+combat/damage Thug=7 lethal")
        self.assertEqual(self.who("Thug").outcome, "incapacitated")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as clinch")
        # Clinch: Str 3 + Brawl 2 vs 6 [8 2 2 2 2] = 1; damage Str 3 [2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.assertIn("locked in a clinch", self.cmd("+combat/act").text)
        self.player("+combat/act")
        self.assertEqual(self.state().turn, 2)
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare escape")
        text = self.cmd("+combat/act").text
        self.assertIn("slips out of Thug's limp grip", text)
        self.assertEqual(self.rolls("hold on"), [])
        self.assertIsNone(self.who("Char").gear.grapple)
        self.assertNotIn("grappled", [k.name for k in self.who("Char").conditions])
