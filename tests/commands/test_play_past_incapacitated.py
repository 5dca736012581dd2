"""Past Incapacitated under each d10 ruleset, played through +combat with exact dice (issue
31, findings 1 and 2; HLT-05, HEAL-04).

Seeds 000 and 001: "Incapacitated and take more aggravated -> die (... shifters may still
be able to Rage-heal ...)": DYING, and `+combat/declare <name>=heal rage` saves or kills.
Seeds 002 and 003 say nothing and their rules have no Rage-healing: the shifter dies.
Fight set-up: ``CloseTest.start(ruleset)`` (Char organizer, Char2, the NPC Thug).
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_play_close import CloseTest
from tests.commands.test_play_healing import health, npc

WOLF = "splat=shifter,race=Garou,breed=homid,form=Crinos,stamina=3,rage=3,dex=2,wits=2"


class PastIncapacitatedTest(CloseTest):
    def incapacitated_wolf(self, ruleset):
        self.start(ruleset)
        wolf = npc(self, "Wolf", WOLF)
        # 7 lethal; soak Stamina 3 vs 6: [1 1 1] = 0.
        with self.dice(1, 1, 1):
            self.assertIn("Wolf is INCAPACITATED", self.cmd("+combat/damage Wolf=7 lethal").text)
        return wolf

    def claw(self):
        # 1 aggravated; soak Stamina 3 vs 6 (Crinos soaks aggravated): [1 1 1] = 0.
        with self.dice(1, 1, 1):
            return self.cmd("+combat/damage Wolf=1 aggravated claw").text


class TestNoRageHealingDies(PastIncapacitatedTest):
    def dies(self, ruleset):
        self.incapacitated_wolf(ruleset)
        text = self.claw()
        self.assertIn("Wolf is DEAD", text)
        self.assertNotIn("DYING", text)
        self.assertEqual(self.who("Wolf").outcome, "dead")
        self.assertIn("is dead", self.cmd("+combat/declare Wolf=heal rage").text)

    @pytest.mark.rule("HLT-05", "HEAL-04")
    def test_HLT_05_everyman_shifter_dies_of_aggravated_past_incapacitated(self):
        """HLT-05 everyman (issue 31, finding 1): no Rage-healing, so no DYING left open."""
        self.dies("everyman")

    @pytest.mark.rule("HLT-05", "HEAL-04")
    def test_HLT_05_v20_shifter_dies_of_aggravated_past_incapacitated(self):
        """HLT-05 v20 (issue 31, finding 1): as everyman."""
        self.dies("v20")


class TestRevisedRageHeals(PastIncapacitatedTest):
    @pytest.mark.rule("HLT-05", "HEAL-04")
    def test_HLT_05_revised_shifter_is_dying_and_rage_heals(self):
        """HLT-05 revised (issue 31, finding 2): "werewolves and most other shifters may
        still be able to Rage-heal": DYING, then Rage 3 vs 8 [8 9 2] = 2 successes counts
        two levels back from Incapacitated (Crippled) and berserk frenzy."""
        wolf = self.incapacitated_wolf("revised")
        self.assertIn("Wolf is DYING: heal with Rage now (+combat/declare heal rage)",
                      self.claw())
        with self.dice(8, 9, 2):
            text = self.cmd("+combat/declare Wolf=heal rage").text
        self.assertIn("Wolf rage healing: Rage 3 = 3 vs 8: [8 9 2] => 2 successes", text)
        self.assertIn("berserk frenzy from next turn", text)
        self.assertEqual(self.who("Wolf").outcome, "")
        self.assertEqual(sum(health(wolf).values()), 5)

    @pytest.mark.rule("HLT-05", "HEAL-04")
    def test_HLT_05_revised_failed_rage_heal_kills(self):
        self.incapacitated_wolf("revised")
        self.claw()
        with self.dice(2, 3, 4):
            text = self.cmd("+combat/declare Wolf=heal rage").text
        self.assertIn("Wolf is DEAD", text)


class TestRevisedCorpus(PastIncapacitatedTest):
    @pytest.mark.rule("DMG-14")
    def test_DMG_14_revised_wraith_loses_corpus_not_health(self):
        """DMG-14 revised (issue 31, finding 3): "Unsoaked damage decreases target's health
        (Corpus for Wraiths/Risen)": a punch comes off Corpus, the track stays clear."""
        self.char2.sheet.save(make_sheet(splat="wraith", strength=2, dexterity=2, wits=2,
                                         stamina=2))
        self.start("revised")
        self.declare_all(char="attack Char2")
        # Dex 3 + Brawl 2 vs 6: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4 bashing [8 8 8 2] = 3;
        # soak Stamina 2 [2 2] = 0: Corpus 10 -> 7.
        with self.dice(8, 8, 2, 2, 2, 8, 8, 8, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char2 takes 3 bashing (3 rolled, 0 soaked): Corpus 10 -> Corpus 7",
                      text)
        self.assertEqual(self.char2.sheet.get().pools["Corpus"].current, 7)
        self.assertFalse(any(health(self.char2).values()))
        # 7 more by hand: Corpus 0 is Incapacitated; one more kills ("others die").
        text = self.cmd("+combat/damage Char2=7 lethal").text
        self.assertIn("Corpus 7 -> Corpus 0", text)
        self.assertIn("Char2 is INCAPACITATED", text)
        self.assertIn("Char2 is DEAD", self.cmd("+combat/damage Char2=1 lethal").text)

    @pytest.mark.rule("DMG-14")
    def test_DMG_14_numetal_wraith_takes_damage_on_the_track(self):
        self.char2.sheet.save(make_sheet(splat="wraith", strength=2, dexterity=2, wits=2,
                                         stamina=2))
        self.start("numetal")
        text = self.cmd("+combat/damage Char2=3 lethal").text
        self.assertIn("Char2 takes 3 lethal (by Char): Healthy -> Injured", text)
        self.assertEqual(self.char2.sheet.get().pools["Corpus"].current, 10)


class TestRevisedArmSweep(PastIncapacitatedTest):
    @pytest.mark.rule("CLOSE-11")
    def test_CLOSE_11_revised_crinos_sweeps_with_an_arm(self):
        """CLOSE-11 revised (issue 31, finding 8): "Garou in Crinos can sweep smaller target
        with arm". Char is a Garou in Crinos (Str 3, Dex 3, Brawl 2)."""
        self.char1.sheet.save(make_sheet(splat="shifter", race="Garou", form="Crinos",
                                         strength=3, dexterity=3, wits=3, brawl=2,
                                         stamina=2))
        self.start("revised")
        self.declare_all(char="attack Thug as arm sweep")
        # Dex 3 + Brawl 2 vs 7: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4 [8 2 2 2] = 1; Thug
        # soaks Stamina 2 [2 2] = 0; knockdown: Dex 2 (no Athletics) vs 8 [2 2]: down.
        with self.dice(8, 8, 2, 2, 2, 8, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        atk = self.roll("attack")
        self.assertEqual((atk["pool"], atk["difficulty"]), (5, 7))
        self.assertIn("Thug takes 1 bashing", text)
        self.assertIn("knocked down", text.lower())

    @pytest.mark.rule("CLOSE-11")
    def test_CLOSE_11_arm_sweep_refused_outside_crinos_and_in_other_rulesets(self):
        self.start("revised")
        text = self.cmd("+combat/declare Thug=attack Char as arm sweep").text
        self.assertIn("Only a Garou in Crinos form can arm sweep. Try sweep instead.", text)
        self.cmd("+combat/end")
        self.start("v20")
        text = self.cmd("+combat/declare Thug=attack Char as arm sweep").text
        self.assertIn("not a maneuver here", text)


class TestRulesShowTheReadings(PastIncapacitatedTest):
    @pytest.mark.rule("HLT-05", "DMG-14", "CLOSE-11", "RNG-03")
    def test_rules_statement_shows_each_reading_where_players_meet_it(self):
        """+rules <ruleset> prints the catalog entry's reading under the rule (issue 31)."""
        cases = [("v20=HLT-05", "with no Rage-healing in these rules"),
                 ("revised=HLT-05", "dying and may Rage-heal at once"),
                 ("revised=DMG-14", "comes off Corpus instead of the health track"),
                 ("revised=CLOSE-11", "as arm sweep"),
                 ("revised=RNG-03", "relic bullet")]
        for args, words in cases:
            raw = self.cmd(f"+rules {args}").text
            text = " ".join(raw.split())
            self.assertIn("This game's reading:", text, args)
            self.assertIn(words, text, args)
            self.assertTrue(all(len(line) <= 80 for line in raw.splitlines()), args)

    @pytest.mark.rule("DMG-06", "DMG-07", "DEF-04")
    def test_rules_statement_sources_after_the_catalog_fixes(self):
        """Issue 31, finding 7: v20's dice are carried from the core with their page (seed 003
        states none); revised lists no DMG-06/DMG-07; the idle timeout is this game's own."""
        text = " ".join(self.cmd("+rules v20=DICE-02").text.split())
        self.assertIn("DICE-02 carried from the core: V20 p. 248-250", text)
        text = self.cmd("+rules revised=DMG-0").text
        self.assertIn("Switched off from core: DMG-06, DMG-07", text)
        self.assertNotIn(" DMG-06   ", text)
        self.assertNotIn(" DMG-07   ", text)
        text = " ".join(self.cmd("+rules v20=GAME").text.split())
        self.assertIn("GAME-01 this game's own: idle players", text)
        self.assertIn("1 rule; 0 from v20's own document, 0 carried by the core, 1 this "
                      "game's own.", text)
