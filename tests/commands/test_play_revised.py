"""The revised ruleset (seed 001) played through +combat with exact dice: the points of
issue 10 where revised used to inherit numetal's house rules, each named by its rule ID.

Fight set-up (``CloseTest.start("revised")``): Char (staff, organizer; Str 3, Dex 3, Wits 3,
Brawl 2, Stamina 2) initiative 11, Char2 (Str 2, Dex 2, Wits 2, Dodge 1, Stamina 2) 7, the
NPC Thug (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2) 5. Thug declares first, then Char2,
then Char; Char acts first, then Char2, then Thug.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest
from tests.commands.test_play_healing import health, npc


class RevisedTest(CloseTest):
    def log_of(self, kind):
        return [r for r in self.log() if r["event"] == kind]


class TestRageAndSplit(RevisedTest):
    @pytest.mark.rule("MAN-08")
    def test_revised_shifter_spends_rage_and_splits(self):
        """MAN-08: no "Rage OR split" on the revised page: Rage for one extra action and a
        pool split in two, in one turn (numetal refuses the same declaration)."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Crinos",
                                         strength=2, dexterity=2, wits=2, brawl=2, rage="4/4"))
        line = "rage 1; attack Thug; attack Thug; extra attack Thug"
        self.start("numetal")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("Rage or split", self.player(f"+combat/declare {line}").text)
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 4)
        self.cmd("+combat/end")
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        self.player(f"+combat/declare {line}")
        self.assertEqual([a.get("extra") for a in self.who("Char2").actions],
                         [None, None, "rage"])
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 3)
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        # First of two split actions: Dex 2 + Brawl 2 - 2 = 2 dice; three actions are more
        # than Dexterity 2 / Wits 2: +3 difficulty, 9. [2 2]: a miss.
        with self.dice(2, 2):
            self.player("+combat/act")
        atk = self.roll("attack")
        self.assertEqual((atk["pool"], atk["difficulty"]), (2, 9))


class TestTimePowers(RevisedTest):
    @pytest.mark.rule("MAN-09")
    def test_revised_refuses_quicksilver_dream_time_tempus_fugit(self):
        """MAN-09: the revised page names only Distort Time and Faith."""
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        for power in ("quicksilver", "dream time", "tempus fugit"):
            text = self.player(f"+combat/declare time {power} 2; other waits").text
            self.assertIn(f"'{power}' is not a time power here.", text)
            self.assertIn("Powers: Distort Time, Faith.", text)
            self.assertFalse(self.who("Char2").declared)
        text = self.player("+combat/declare time distort time 4; other waits").text
        self.assertIn("Char2 uses Distort Time: 2 extra action(s) next turn", text)


class TestRedcapBite(RevisedTest):
    @pytest.mark.rule("CLOSE-01")
    def test_revised_redcap_bites_for_str_plus_2_without_glamour_and_cannot_sever(self):
        """CLOSE-01: "Strength + 2 for Redcaps": no Glamour spent (none left here) and no
        severing (numetal's Bite table)."""
        self.char2.sheet.save(make_sheet(splat="changeling", race="Redcap", strength=2,
                                         dexterity=2, wits=2, stamina=2, glamour="0/3"))
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("Severing a limb with a bite is not a rule here",
                      self.player("+combat/declare attack Thug as bite severing at arm").text)
        self.player("+combat/declare attack Thug as bite")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        # Dex 2 (no Brawl) + 1 vs 6: [9 9 2] = 2; damage Str 2 + 2 + 1 extra success = 5
        # aggravated: [8 8 2 2 2] = 2; a mortal does not soak aggravated.
        with self.dice(9, 9, 2, 8, 8, 2, 2, 2):
            text = self.player("+combat/act").text
        self.assertIn("Thug takes 2 aggravated", text)
        atk, dmg = self.roll("attack"), self.roll("damage")
        self.assertEqual((atk["pool"], atk["difficulty"]), (3, 6))
        self.assertEqual(dmg["traits"], [["Strength", 2], ["bite", 2]])
        self.assertEqual(self.char2.sheet.get().pools["Glamour"].current, 0)
        self.assertEqual(self.log_of("spend"), [])


class TestVampireDamage(RevisedTest):
    @pytest.mark.rule("DMG-15")
    def test_revised_vampire_takes_a_bullet_as_bashing_halved(self):
        """DMG-15 (a V20 p. 284-285 rule the core carries; READING in revised/damage.yaml):
        a gunshot on a vampire is bashing, halved after soak."""
        self.char2.sheet.save(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2,
                                         stamina=1, blood="5/10"))
        self.start("revised")
        # 4 damage successes from a gun: bashing; soak Stamina 1 [2] = 0; 4 halved = 2.
        with self.dice(2):
            text = self.cmd("+combat/damage Char2=4 lethal firearm").text
        self.assertIn("Char2 takes 2 bashing", text)
        self.assertEqual(health(self.char2).get("bashing"), 2)
        self.assertEqual(health(self.char2).get("lethal", 0), 0)


class TestNoNumetalHealing(RevisedTest):
    @pytest.mark.rule("HEAL-01", "HEAL-03", "HEAL-04", "HEAL-10")
    def test_revised_has_no_blood_regeneration_or_rage_healing(self):
        """HEAL-01..05, 07, 10 are numetal's: a revised vampire heals by time like anyone, a
        shifter neither regenerates nor Rage-heals while merely Incapacitated (the page's
        Rage-healing is for the dying only, HLT-05: tests/commands/
        test_play_past_incapacitated.py)."""
        self.char1.sheet.save(make_sheet(splat="vampire", generation=13, blood="10/10",
                                         strength=3, dexterity=3, wits=3, brawl=2, stamina=2))
        self.start("revised")
        self.cmd("+combat/damage Char=2 lethal")
        self.assertIn("This game's rules have no blood healing; wounds heal with time",
                      self.cmd("+combat/declare heal blood 1").text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 10)
        self.assertIn("Char heals 1 lethal over 3 days",
                      self.cmd("+combat/recover Char=lethal").text)
        npc(self, "Wolf", "splat=shifter,race=Garou,breed=homid,form=Crinos,stamina=3,rage=3,"
                          "dex=2,wits=2")
        self.cmd("+combat/damage Wolf=2 lethal")
        self.assertIn("no regeneration",
                      self.cmd("+combat/declare Wolf=regenerate").text)
        self.assertIn("Wolf is INCAPACITATED", self.cmd("+combat/damage Wolf=5 aggravated").text)
        self.assertIn("Rage-healing is only for a shifter past Incapacitated (dying)",
                      self.cmd("+combat/declare Wolf=heal rage").text)


class TestPowerLimits(RevisedTest):
    @pytest.mark.rule("PWR-02", "PWR-04")
    def test_revised_shifter_spends_rage_and_gnosis_in_one_turn(self):
        """PWR-02 is numetal's: the revised page's limits list only mages."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         dexterity=2, wits=2, stamina=2, rage="4/4",
                                         gnosis="4/4"))
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare spend rage 1; spend gnosis 1; other howls")
        self.assertTrue(self.who("Char2").declared)
        pools = self.char2.sheet.get().pools
        self.assertEqual((pools["Rage"].current, pools["Gnosis"].current), (3, 3))

    @pytest.mark.rule("PWR-03")
    def test_revised_mage_one_arete_effect_a_turn(self):
        """PWR-03 (MtA 155): one Arete effect a turn; an Artifact uses your Arete."""
        self.char1.sheet.save(make_sheet(splat="mage", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, arete=3))
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("only 1 Arete effect a turn",
                      self.cmd("+combat/declare effect arete; effect artifact; other casts").text)
        self.assertFalse(self.who("Char").declared)


class TestTurnOptions(RevisedTest):
    @pytest.mark.rule("TURN-05", "INIT-04")
    def test_revised_refuses_the_simple_turn_and_initiative_every_turn(self):
        for opt, words in (("simple", "simple turn"), ("reroll", "initiative every turn")):
            text = self.cmd(f"+combat/start revised={opt}").text
            self.assertIn(words, text)
            self.assertIn("is not in the revised rules", text)
            self.assertNotIn("starts a fight", text)

    @pytest.mark.rule("INIT-05")
    def test_revised_gurahl_has_no_winter_modifier(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Gurahl", dexterity=2, wits=2))
        self.cmd("+combat/start revised")
        self.player("+combat/join")
        self.cmd("+combat/flag winter")
        with self.dice(3):
            text = self.player("+combat/init").text
        self.assertIn("rating 4 + [3] = 7", text)
        self.assertNotIn("Gurahl", text)
        self.assertEqual(self.who("Char2").init_total, 7)


class TestMedicalCare(RevisedTest):
    @pytest.mark.rule("HLT-09")
    def test_revised_recover_shows_the_footnote_of_the_level_and_type(self):
        """HLT-09: footnote (1) on bashing Mauled and worse, (2) on lethal/agg Injured to
        Mauled, (3) on lethal/agg Crippled and Incapacitated; none on bashing Wounded."""
        self.start("revised")
        cases = [
            ("4 bashing", "over 1 hour", None),
            ("5 bashing", "over 3 hours", "It needs medical care to avoid further effects "
             "(e.g. extreme pain, broken bones, concussion, impaired senses)."),
            ("3 lethal", "over 1 week", "It needs medical care to avoid worsening (1 level "
             "per day), then healing continues on its own."),
            ("6 aggravated", "over 3 months", "It needs continuous medical care to heal at "
             "all."),
        ]
        for hurt, over, needs in cases:
            n, kind = hurt.split()
            self.cmd(f"+combat/damage Char2={hurt}")
            text = self.cmd(f"+combat/recover Char2={kind}").text
            self.assertIn(over, text, hurt)
            if needs:
                self.assertIn(needs, " ".join(text.split()), hurt)
            else:
                self.assertNotIn("It needs", text, hurt)
            self.cmd(f"+combat/heal Char2={int(n) - 1} {kind}")
            self.assertEqual(sum(health(self.char2).values()), 0, hurt)
        need = self.log_of("mend")[-1]["needs"]
        self.assertEqual(need, "continuous medical care to heal at all")
