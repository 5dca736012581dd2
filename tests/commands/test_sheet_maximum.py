"""+sheet/set stops at the ruleset's maximum (issue 28: "+sheet/set dex=9" on a
13th-generation vampire was accepted). The maximum is data, rules/core/traits.yaml
``traits.maximum``, a READING (no seed states one; rules/README.md): by generation on the
generation chart for a vampire, else 5. Staff may go past it with +sheet/set/force."""

from types import SimpleNamespace

from tests.commands.test_combat import CombatTest
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.trait_maximum import trait_maximum
from wodcombat.world import rulebook


class TestSheetMaximum(CombatTest):
    def sheet(self, who=None):
        return (who or self.char2).sheet.get()

    def test_a_13th_generation_vampire_is_refused_dexterity_9(self):
        self.player("+sheet/set splat=vampire")
        before = self.sheet()
        text = self.player("+sheet/set dex=9").text
        words = " ".join(text.split())
        self.assertIn("Dexterity 9 would be above the maximum of 5 for a 13th-generation "
                      "vampire (as this game reads the rules: by generation where there is "
                      "one, else 5). Type +sheet/set dexterity=5 instead; staff may go past "
                      "it with +sheet/set/force dex=9.", words)
        self.assertFalse([ln for ln in text.splitlines() if len(ln) > 78], text)
        self.assertEqual(self.sheet(), before)  # nothing changed
        self.assertIn("Your Dexterity set to 5.", self.player("+sheet/set dex=5").text)

    def test_a_mortal_stops_at_5(self):
        text = " ".join(self.player("+sheet/set brawl=6").text.split())
        self.assertIn("Brawl 6 would be above the maximum of 5 for a mortal", text)
        self.assertIsNone(self.sheet().traits.get("Brawl"))  # unset, as before

    def test_an_elder_goes_higher_and_a_lower_generation_is_checked(self):
        self.player("+sheet/set splat=vampire")
        self.player("+sheet/set generation=6")
        self.assertIn("Your Potence set to 7.", self.player("+sheet/set potence=7").text)
        text = " ".join(self.player("+sheet/set potence=8").text.split())
        self.assertIn("maximum of 7 for a 6th-generation vampire", text)
        # A generation that lowers the maximum under a rating already there is refused too.
        text = " ".join(self.player("+sheet/set generation=13").text.split())
        self.assertIn("Potence 7 would be above the maximum of 5 for a 13th-generation "
                      "vampire", text)
        self.assertIn("Type +sheet/set potence=5 instead", text)
        self.assertEqual(self.sheet().generation, 6)

    def test_a_mages_arete_runs_to_10_and_the_rest_to_5(self):
        self.player("+sheet/set splat=mage")
        self.assertIn("Your Arete set to 7.", self.player("+sheet/set arete=7").text)
        self.assertIn("Your Arete set to 10.", self.player("+sheet/set arete=10").text)
        text = " ".join(self.player("+sheet/set dex=6").text.split())
        self.assertIn("Dexterity 6 would be above the maximum of 5 for a mage", text)

    def test_merits_are_not_ratings(self):
        self.assertIn("Your Ambidextrous set to 6.", self.player("+sheet/set ambidextrous=6").text)

    def test_staff_force_past_it_and_the_reply_says_so(self):
        text = " ".join(self.cmd("+sheet/set/force Char2/str=8").text.split())
        self.assertIn("Char2's Strength set to 8 (Strength 8 forced past the maximum of 5 "
                      "for a mortal).", text)
        self.assertEqual(self.sheet().traits["Strength"], 8)
        # the forced rating does not block an unrelated edit
        self.assertIn("Your Dexterity set to 3.", self.player("+sheet/set dex=3").text)
        self.assertIn("Only staff", self.player("+sheet/set/force str=9").text)
        self.assertEqual(self.sheet().traits["Strength"], 8)
        self.assertIn("Usage", self.cmd("+sheet/set/force").text)
        self.assertIn("/force goes with /set", self.cmd("+sheet/equip/force knife").text)


def test_the_maximum_is_the_rules_data():
    """The numbers come from the rules: another rating, or none without the key."""
    rules = rulebook.get()
    data = {**rules.section("traits"), "maximum": {**rules.section("traits")["maximum"],
                                                   "rating": 3}}
    other = SimpleNamespace(section=lambda n: data if n == "traits" else rules.section(n),
                            traits=rules.traits)
    sheet = Sheet().with_pools_for(rules.traits)
    assert trait_maximum(sheet, other, "Dexterity") == (3, "a mortal")
    data.pop("maximum")
    assert trait_maximum(sheet, other, "Dexterity") is None
