"""Past Incapacitated under each d10 ruleset, played through +combat with exact dice (issue
31, findings 1 and 2; HLT-05, HEAL-04).

Seeds 000 and 001: "Incapacitated and take more aggravated -> die (... shifters may still
be able to Rage-heal ...)": DYING, and `+combat/declare <name>=heal rage` saves or kills.
Seeds 002 and 003 say nothing and their rules have no Rage-healing: the shifter dies.
Fight set-up: ``CloseTest.start(ruleset)`` (Char organizer, Char2, the NPC Thug).
"""

import pytest

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
