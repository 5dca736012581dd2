"""Close combat, complications, general maneuvers and magic defense played through +combat
with exact dice (issue 9). Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CombatTest.setup_fight``, or ``start(ruleset)`` for another ruleset): Char
(staff, organizer; Str 3, Dex 3, Wits 3, Brawl 2, Stamina 2) initiative 11, Char2 (Str 2,
Dex 2, Wits 2, Dodge 1, Stamina 2) 7, the NPC Thug (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2)
5. Thug declares first, then Char2, then Char; Char acts first, then Char2, then Thug.
"""

import pytest

from wodcombat.commands.combat import CmdCombat
from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest, thug


class CloseTest(EffectsTest):
    def start(self, ruleset="numetal"):
        """``setup_fight`` in ``ruleset``, slot by slot."""
        word = "" if ruleset == "numetal" else f" {ruleset}"
        self.assertIn("starts a fight", self.fight_in(f"{word}=slots"))
        self.assertEqual(self.state().ruleset, ruleset)

    def declare_all(self, thug="other growls", char2="other waits", char="other waits"):
        self.cmd(f"+combat/declare Thug={thug}")
        self.player(f"+combat/declare {char2}")
        self.cmd(f"+combat/declare {char}")
        self.assertEqual(self.state().phase, "act")

    def roll(self, purpose, i=0):
        return self.rolls(purpose)[i]

    def mods(self, purpose, i=0):
        return {m["reason"]: m for m in self.roll(purpose, i)["modifiers"]}


# ------------------------------------------------------------------ CLOSE-07, CLOSE-10


class TestStrikeAndKick(CloseTest):
    def kick(self, ruleset):
        self.start(ruleset)
        self.declare_all(char="attack Thug as kick")
        # Kick: Dex 3 + Brawl 2 = 5 vs 7 (+1): [8 8 2 2 2] = 2; damage Str 3 + 1 + 1 extra
        # success = 5 dice [2 2 2 2 2] = 0.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("kick +1 diff = 5 vs 7: [8 8 2 2 2] => 2 successes", text)
        dmg = self.roll("damage")
        self.assertEqual((dmg["pool"], dmg["traits"]), (5, [["Strength", 3], ["kick", 1]]))

    @pytest.mark.rule("CLOSE-07")
    def test_kick_numetal(self):
        self.kick("numetal")

    @pytest.mark.rule("CLOSE-07")
    def test_kick_revised(self):
        self.kick("revised")

    @pytest.mark.rule("CLOSE-07")
    def test_kick_everyman(self):
        self.kick("everyman")

    @pytest.mark.rule("CLOSE-07")
    def test_kick_v20(self):
        self.kick("v20")

    def strike_and_lupus(self, ruleset):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Lupus",
                                         strength=2, dexterity=2, wits=2, rage="4/4"))
        self.start(ruleset)
        self.cmd("+combat/declare Thug=other growls")
        # CLOSE-10: a Garou strikes and kicks only in Homid/Glabro/Crinos; refused when
        # declared, and the Rage declared with it is not spent (issue 9 #22).
        for line in ("attack Thug", "rage 1; attack Thug as kick"):
            text = self.player(f"+combat/declare {line}").text
            self.assertIn("only in Homid/Glabro/Crinos form, not in Lupus", text)
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 4)
        self.assertFalse(self.who("Char2").declared)
        self.player("+combat/declare attack Thug as bite")  # a Lupus bites
        self.cmd("+combat/declare attack Thug")
        # CLOSE-10 strike: Dex 3 + Brawl 2 vs 6 [8 2 2 2 2] = 1; damage Str 3 [2 2 2].
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.assertIn("Char attacks Thug (strike)", self.cmd("+combat/act").text)
        self.assertEqual((self.roll("attack")["pool"], self.roll("attack")["difficulty"]),
                         (5, 6))

    @pytest.mark.rule("CLOSE-10")
    def test_strike_and_garou_forms_numetal(self):
        self.strike_and_lupus("numetal")

    @pytest.mark.rule("CLOSE-10")
    def test_strike_and_garou_forms_revised(self):
        self.strike_and_lupus("revised")


# ------------------------------------------------------------------ CLOSE-05, COMP-03


class TestHold(CloseTest):
    def hold(self, ruleset):
        self.start(ruleset)
        self.declare_all(char2="attack Thug", char="attack Thug as hold")
        # Hold: Str 3 + Brawl 2 vs 6 [8 2 2 2 2] = 1: Thug is held; no damage roll.
        with self.dice(8, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("locked in a hold", text)
        self.assertEqual(self.rolls("damage"), [])
        self.assertEqual(self.who("Thug").gear.to_dict()["grapple"],
                         {"with": self.key("Char"), "kind": "hold", "held": True})
        # COMP-03 (issue 9 #16): Thug, held, is partly immobilized: Char2's attack gets +2
        # dice: Dex 2 (no Brawl) + 2 = 4 vs 6 [8 2 2 2] = 1; damage Str 2 [2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2):
            self.player("+combat/act")
        atk = self.roll("attack", 1)
        self.assertEqual(atk["pool"], 4)
        self.assertEqual(self.mods("attack", 1)["target immobilized"]["dice"], 2)
        self.cmd("+combat/act Thug")
        self.assertEqual(self.state().turn, 2)
        # Issue 9 #22: what the hold forbids is refused when declared, with what to do.
        for line in ("attack Char2", "dodge", "move 5"):
            self.assertIn("Locked in a hold", self.cmd(f"+combat/declare Thug={line}").text)
        self.assertFalse(self.who("Thug").declared)
        # CLOSE-05: the escape is a resisted Strength + Brawl: [9 9 2 2 2] = 2 vs [8 2 2 2 2].
        self.cmd("+combat/declare Thug=escape")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other holds on")
        self.cmd("+combat/act")
        self.player("+combat/act")
        with self.dice(9, 9, 2, 2, 2, 8, 2, 2, 2, 2):
            self.assertIn("breaks free", self.cmd("+combat/act Thug").text)
        self.assertIsNone(self.who("Thug").gear.grapple)

    @pytest.mark.rule("CLOSE-05", "COMP-03")
    def test_hold_numetal(self):
        self.hold("numetal")

    @pytest.mark.rule("CLOSE-05", "COMP-03")
    def test_hold_revised(self):
        self.hold("revised")


# ------------------------------------------------------------------ CLOSE-13


class TestWeaponLength(CloseTest):
    def length(self, ruleset):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, melee=2,
                                         stamina=2))
        self.cmd("+sheet/equip knife")
        self.start(ruleset)
        self.cmd("+sheet/equip Thug/spear")
        self.declare_all(char="attack Thug with knife")
        # Knife (length 0) against a Spear (3): Dex 3 + Melee 2 - 1 = 4 vs 6 [2 2 2 2].
        with self.dice(2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("their Spear is longer -1 dice = 4 vs 6", text)

    @pytest.mark.rule("CLOSE-13")
    def test_weapon_length_numetal(self):
        self.length("numetal")

    @pytest.mark.rule("CLOSE-13")
    def test_weapon_length_revised(self):
        self.length("revised")


# ------------------------------------------------------------------ CLOSE-08


class TestMultipleOpponents(CloseTest):
    def ganged(self, ruleset):
        self.start(ruleset)
        self.declare_all(thug="attack Char; block", char2="attack Thug", char="attack Thug")
        # Char: [2 2 2 2 2] misses; Char2: Dex 2 [2 2] misses.
        with self.dice(2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
            self.player("+combat/act")
        with self.dice(2, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act Thug")
        return self.rolls("attack")[-1]

    @pytest.mark.rule("CLOSE-08")
    def test_two_attackers_numetal(self):
        atk = self.ganged("numetal")
        # Thug, engaged by two, attacks at +1 (and -2/-3 dice for its two actions).
        self.assertEqual(atk["actor"], self.key("Thug"))
        self.assertIn("2 opponents", {m["reason"] for m in atk["modifiers"]})
        self.assertEqual(atk["difficulty"], 7)

    @pytest.mark.rule("CLOSE-08")
    def test_two_attackers_revised(self):
        atk = self.ganged("revised")
        self.assertEqual(atk["difficulty"], 7)

    @pytest.mark.rule("CLOSE-08")
    def test_everyman_defense_only(self):
        self.start("everyman")
        self.declare_all(thug="attack Char; block", char2="attack Thug", char="attack Thug")
        # Char attacks: [8 8 2 2 2] = 2; Thug's block (everyman: defense only) is at +1.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        blk = self.roll("defense")
        self.assertIn("2 opponents", {m["reason"] for m in blk["modifiers"]})
        self.assertNotIn("2 opponents", {m["reason"] for m in self.roll("attack")["modifiers"]})


# ------------------------------------------------------------------ CLOSE-09


class TestRiposte(CloseTest):
    def riposte(self, ruleset):
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, melee=2, stamina=2))
        self.player("+sheet/equip knife")
        self.start(ruleset)
        self.declare_all(thug="attack Char2", char2="parry")
        self.cmd("+combat/act")
        # Thug: Dex 2 + Brawl 2 [6 2 2 2] = 1; Char2 parries Dex 2 + Melee 2 [8 8 8 2] = 3;
        # the knife turns on Thug (DMG-17): 5 dice [2 2 2 2 2].
        with self.dice(6, 2, 2, 2, 8, 8, 8, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("Char2 parried with the Knife: +1 die on the next attack on Thug", text)
        self.assertEqual(self.state().turn, 2)
        self.declare_all(char2="attack Thug with knife")
        self.cmd("+combat/act")
        # The riposte: Dex 2 + Melee 2 + 1 = 5 vs 6 [2 2 2 2 2].
        with self.dice(2, 2, 2, 2, 2):
            text = self.player("+combat/act").text
        self.assertIn("riposte +1 dice = 5 vs 6", text)
        self.assertIsNone(self.who("Char2").gear.close.riposte)  # spent

    @pytest.mark.rule("CLOSE-09")
    def test_riposte_numetal(self):
        self.riposte("numetal")

    @pytest.mark.rule("CLOSE-09")
    def test_riposte_revised(self):
        self.riposte("revised")


# ------------------------------------------------------------------ CLOSE-12, COMP-04


class TestTackle(CloseTest):
    def tackle(self, ruleset):
        self.start(ruleset)
        self.declare_all(char="attack Thug as tackle")
        # Tackle: Str 3 + Brawl 2 = 5 vs 7 [8 8 2 2 2] = 2; damage Str 3 + 1 + 1 = 5
        # [2 2 2 2 2] = 0. Knockdowns (Dex + Athletics at +1): Char Dex 3 [9 2 2] = 1 keeps
        # the feet (issue 9 #8); Thug Dex 2 [2 2] = 0 goes down.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 9, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("strength 3 + brawl 2, tackle +1 diff = 5 vs 7", text.lower())
        self.assertIn("Char keeps their feet.", text)
        self.assertIn("Thug is knocked down and stays on the ground", text)
        self.assertEqual([r["difficulty"] for r in self.rolls("knockdown")], [7, 7])
        self.assertIn("+1 difficulty on all actions next turn", text)
        self.assertNotIn("knocked_down", [k.name for k in self.who("Char").conditions])
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        # Issue 9 #14: next turn the off balance counts on all Thug's actions: its dodge
        # too. Char2: Dex 2 + 2 (Thug on the ground) = 4 [8 2 2 2] = 1; Thug's dodge Dex 2
        # vs 7 [2 2].
        self.declare_all(thug="dodge", char2="attack Thug")
        self.cmd("+combat/act")
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.player("+combat/act")
        dodge = self.roll("defense")
        self.assertEqual(dodge["difficulty"], 7)
        self.assertIn("tackled last turn", {m["reason"] for m in dodge["modifiers"]})

    @pytest.mark.rule("CLOSE-12", "COMP-04")
    def test_tackle_numetal(self):
        self.tackle("numetal")

    @pytest.mark.rule("CLOSE-12", "COMP-04")
    def test_tackle_revised(self):
        self.tackle("revised")

    @pytest.mark.rule("CLOSE-12")
    def test_botched_tackle_hurts_instead_when_chosen(self):
        # Issue 9 #15: "knocked down or takes damage = target's Stamina": declared choice.
        self.start()
        self.declare_all(char="attack Thug as tackle on botch hurt")
        # [1 2 2 2 2] botches; damage Thug's Stamina 2 bashing [8 8] = 2; soak [2 2] = 0.
        with self.dice(1, 2, 2, 2, 2, 8, 8, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char botches the tackle and takes the impact", text)
        self.assertIn("Char takes 2 bashing", text)
        self.assertEqual(self.char1.sheet.get().health["bashing"], 2)
        self.assertNotIn("prone", [k.name for k in self.who("Char").conditions])

    @pytest.mark.rule("CLOSE-12")
    def test_botched_tackle_knocks_down_by_default(self):
        self.start("revised")
        self.declare_all(char="attack Thug as tackle")
        with self.dice(1, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("BOTCH: the attack fails, and worse:", text)
        self.assertIn("goes down in the botched tackle", text)
        self.assertIn("prone", [k.name for k in self.who("Char").conditions])

    @pytest.mark.rule("DICE-02")
    def test_a_botched_punch_says_it_costs_nothing_more(self):
        # issue 28: a botch names its consequence; for a plain attack the seeds give none
        self.start("revised")
        self.declare_all(char="attack Thug")
        with self.dice(1, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("BOTCH: the attack fails; by these rules nothing worse (the Storyteller "
                      "may narrate it).", text)
        self.assertNotIn("and worse", text)
        self.assertIn("on botch hurt", CmdCombat.__doc__)


# ------------------------------------------------------------------ CLOSE-01, CLOSE-02


class TestNaturalWeapons(CloseTest):
    @pytest.mark.rule("CLOSE-02")
    def test_claws_need_the_power_numetal(self):
        self.char2.sheet.save(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2,
                                         stamina=2, blood="5/10"))
        self.start()
        self.cmd("+combat/declare Thug=other growls")
        # Issue 9 #22: refused when declared, not when acted.
        self.assertIn("Only vampires with Feral Claws",
                      self.player("+combat/declare attack Thug as claw").text)
        self.assertFalse(self.who("Char2").declared)
        self.cmd("+combat/end")
        self.char2.sheet.save(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2,
                                         stamina=2, blood="5/10", protean=2))
        self.start()
        self.declare_all(char2="attack Thug as claw")
        self.cmd("+combat/act")
        # Claw: Dex 2 (no Brawl) vs 6 [8 2] = 1; Str 2 + 1 = 3 aggravated [8 8 2] = 2; a
        # mortal cannot soak aggravated.
        with self.dice(8, 2, 8, 8, 2):
            text = self.player("+combat/act").text
        self.assertIn("Thug takes 2 aggravated", text)
        hurt = [r for r in self.log() if r["event"] == "damage"]
        self.assertEqual((hurt[-1]["type"], hurt[-1]["applied"]), ("aggravated", 2))

    @pytest.mark.rule("CLOSE-02")
    def test_garou_claws_in_crinos_revised(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Homid",
                                         strength=2, dexterity=2, wits=2, rage="3/3"))
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("claw", self.player("+combat/declare rage 1; attack Thug as claw").text)
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 3)  # nothing spent
        self.cmd("+sheet/set Char2/form=Crinos")
        self.player("+combat/declare attack Thug as claw")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        with self.dice(8, 2, 8, 8, 2):
            self.assertIn("Thug takes 2 aggravated", self.player("+combat/act").text)

    @pytest.mark.rule("CLOSE-01")
    def test_vampire_bites_and_drains_in_a_clinch_numetal(self):
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.start()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("bites only in a clinch or hold",
                      self.cmd("+combat/declare attack Thug as bite").text)
        self.cmd("+combat/declare attack Thug as clinch")
        # Clinch: Str 3 + Brawl 2 [8 2 2 2 2] = 1; damage Str 3 [2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.declare_all(char="attack Thug as bite draining")
        # Bite: Dex 3 + Brawl 2 + 1 = 6 vs 6 [8 2 2 2 2 2] = 1: drains 3 blood, no damage.
        with self.dice(8, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("bite +1 dice = 6 vs 6", text)
        self.assertIn("Char drains 3 blood from Thug", text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 8)
        self.assertEqual(self.rolls("damage"), [self.roll("damage")])  # the clinch's only

    @pytest.mark.rule("CLOSE-01")
    def test_vampire_bites_the_turn_after_a_tackle_revised(self):
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.start("revised")
        self.declare_all(char="attack Thug as tackle")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 9, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.declare_all(thug="rise", char="attack Thug as bite")
        # Bite Dex 3 + Brawl 2 + 1 + 2 (Thug on the ground) = 8 vs 6; Str 3 + 1 agg.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2, 8, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 1 aggravated", text)

    @pytest.mark.rule("CLOSE-01")
    def test_redcap_bites_for_glamour_and_tries_to_sever(self):
        self.char2.sheet.save(make_sheet(splat="changeling", race="Redcap", strength=2,
                                         dexterity=2, wits=2, stamina=2, glamour="3/3"))
        self.start()
        self.declare_all(char2="attack Thug as bite severing at arm")
        self.cmd("+combat/act")
        # Dex 2 (no Brawl) + 1 at 6 + 3 (severing; no targeting penalty) = 9: [9 9 2] = 2,
        # short of 5: no limb; damage Str 2 + 2 + 1 extra success = 5 aggravated [2 x5].
        with self.dice(9, 9, 2, 2, 2, 2, 2, 2):
            self.player("+combat/act")
        atk = self.roll("attack")
        self.assertEqual((atk["pool"], atk["difficulty"]), (3, 9))
        self.assertEqual(self.char2.sheet.get().pools["Glamour"].current, 2)
        self.assertEqual(self.roll("damage")["traits"], [["Strength", 2], ["bite", 2]])

    @pytest.mark.rule("CLOSE-01")
    def test_everyman_bite_only_after_a_clinch(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", form="Crinos",
                                         strength=2, dexterity=2, wits=2, rage="3/3"))
        self.start("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("only after a successful clinch or hold",
                      self.player("+combat/declare attack Thug as bite").text)
        self.player("+combat/declare attack Thug as clinch; attack Thug as bite")
        self.assertTrue(self.who("Char2").declared)


# ------------------------------------------------------------------ CLOSE-06


class TestJabPistol(CloseTest):
    def jab(self, ruleset):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, melee=2,
                                         firearms=2, stamina=2))
        self.cmd("+sheet/equip pistol, heavy")
        self.start(ruleset)
        self.declare_all(char="attack Thug with pistol, heavy as jab pistol using rubber")
        # Dex 3 + Melee 2 vs 6 [8 2 2 2 2] = 1; the pistol's 5 + 2 dice, and the rubber
        # bullet is lethal when jabbed: [8 8 2 2 2 2 2] = 2 lethal, unsoaked by a mortal.
        with self.dice(8, 2, 2, 2, 2, 8, 8, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Dexterity 3 + Melee 2 = 5 vs 6", text)
        dmg = self.roll("damage")
        self.assertEqual(dmg["pool"], 7)
        self.assertEqual(dmg["label"], "damage (lethal)")
        self.assertEqual(thug(self).sheet.get().health["lethal"], 2)
        self.assertIn("using <ammo>", CmdCombat.__doc__)

    @pytest.mark.rule("CLOSE-06")
    def test_jab_rubber_numetal(self):
        self.jab("numetal")

    @pytest.mark.rule("CLOSE-06")
    def test_jab_rubber_revised(self):
        self.jab("revised")

    @pytest.mark.rule("CLOSE-06")
    def test_unknown_ammunition_refused(self):
        self.start()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("Load as: using <ammunition>",
                      self.cmd("+combat/declare attack Thug using glass").text)


# ------------------------------------------------------------------ COMP-02, COMP-05, MAN-02


class TestComplications(CloseTest):
    def dazed(self, ruleset):
        self.start(ruleset)
        self.cmd("+combat/mod Thug=dazed")
        self.declare_all()
        self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.assertEqual(self.state().turn, 2)
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        with self.dice(2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        # Issue 9 #3: attacking a dazed target, -2 difficulty.
        self.assertIn("target dazed -2 diff = 5 vs 4", text)

    @pytest.mark.rule("COMP-02")
    def test_attacking_a_dazed_target_numetal(self):
        self.dazed("numetal")

    @pytest.mark.rule("COMP-02")
    def test_attacking_a_dazed_target_v20(self):
        self.dazed("v20")

    @pytest.mark.rule("COMP-02")
    def test_attacking_a_dazed_target_revised(self):
        self.dazed("revised")

    @pytest.mark.rule("COMP-02")
    def test_attacking_a_dazed_target_everyman(self):
        self.dazed("everyman")

    def moving_target(self, ruleset):
        self.start(ruleset)
        self.declare_all(thug="move 10", char="attack Thug")
        with self.dice(2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        # Thug jogs (10 yards: more than a walk of 7): +1 difficulty to hit it.
        self.assertIn("target moving (jog) +1 diff = 5 vs 7", text)

    @pytest.mark.rule("COMP-05")
    def test_moving_target_numetal(self):
        self.moving_target("numetal")

    @pytest.mark.rule("COMP-05")
    def test_moving_target_revised(self):
        self.moving_target("revised")

    @pytest.mark.rule("COMP-05")
    def test_moving_attacker_numetal(self):
        self.start()
        self.declare_all(char2="attack Thug moving 8")
        self.cmd("+combat/act")
        with self.dice(*[2] * 20):
            self.player("+combat/act")
        self.assertIn("attacker moving (jog)", {m["reason"] for m in
                                                self.roll("attack")["modifiers"]})

    def flank(self, ruleset, position, dice):
        self.start(ruleset)
        self.declare_all(char=f"attack Thug from {position}")
        with self.dice(*[2] * (5 + dice)):
            self.cmd("+combat/act")
        return self.roll("attack")

    @pytest.mark.rule("MAN-02")
    def test_rear_attack_numetal(self):
        atk = self.flank("numetal", "rear", 2)
        self.assertEqual(atk["pool"], 7)

    @pytest.mark.rule("MAN-02")
    def test_flank_attack_revised(self):
        self.assertEqual(self.flank("revised", "flank", 1)["pool"], 6)

    @pytest.mark.rule("MAN-02")
    def test_flank_attack_v20(self):
        self.assertEqual(self.flank("v20", "flank", 1)["pool"], 6)

    @pytest.mark.rule("MAN-02")
    def test_everyman_target_that_sees_behind(self):
        self.start("everyman")
        self.cmd("+combat/mod Thug=sees behind")
        self.declare_all(char="attack Thug from rear")
        with self.dice(2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.roll("attack")["pool"], 5)


# ------------------------------------------------------------------ COMP-01, MAN-12


class TestBlinded(CloseTest):
    def blind(self, ruleset):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2,
                                         perception=2, blind_fighting=1))
        self.start(ruleset)
        self.cmd("+combat/mod Char=blinded")
        self.cmd("+combat/mod Thug=blinded")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare attack Thug")
        # Blind Fighting, a reflex: Perception 2 + Blind Fighting 1 vs 6 [8 2 2] = 1 point
        # off Char's own penalty: +2 -> +1.
        with self.dice(8, 2, 2):
            text = self.cmd("+combat/declare blindfight penalty; attack Thug").text
        self.assertIn("Char fights blind: 1 off own penalty this turn.", text)
        with self.dice(2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("blinded, Blind Fighting -1 +1 diff", text)
        self.assertIn("target blinded +2 dice = 7 vs 7", text)
        # Char2 attacks the blinded Thug: +2 dice.
        with self.dice(2, 2, 2, 2):
            self.player("+combat/act")
        self.assertEqual(self.roll("attack", 1)["pool"], 4)

    @pytest.mark.rule("COMP-01", "MAN-12")
    def test_blinded_numetal(self):
        self.blind("numetal")

    @pytest.mark.rule("COMP-01", "MAN-12")
    def test_blinded_revised(self):
        self.blind("revised")

    @pytest.mark.rule("COMP-01", "MAN-12")
    def test_blinded_everyman(self):
        self.blind("everyman")

    @pytest.mark.rule("COMP-01", "MAN-12")
    def test_blinded_v20_heightened_senses_and_no_shots(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2,
                                         firearms=2))
        self.cmd("+sheet/equip pistol, heavy")
        self.start("v20")
        self.cmd("+combat/mod Char=blinded")
        self.cmd("+combat/mod Char=heightened senses")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare attack Thug")
        text = self.cmd("+combat/declare attack Thug with pistol, heavy").text
        self.assertIn("cannot make a ranged attack", text)  # refused when declared
        self.cmd("+combat/declare pass")
        self.assertEqual(self.rolls("attack"), [])
        self.cmd("+combat/mod Char2=blinded")
        self.cmd("+combat/mod Char2=eyes of the beast")
        with self.dice(2, 2):
            self.player("+combat/act")
        self.assertEqual(self.roll("attack")["difficulty"], 6)  # no penalty at all


# ------------------------------------------------------------------ MAN-11


class TestStaked(CloseTest):
    def staked(self, ruleset):
        self.char2.sheet.save(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2,
                                         stamina=2, blood="5/10", celerity=1))
        self.start(ruleset)
        self.cmd("+combat/mod Char2=staked")
        self.cmd("+combat/declare Thug=other growls")
        # Issue 9 #7: "can't move or spend blood".
        for line in ("spend blood 1", "celerity", "move 5", "attack Thug"):
            text = self.player(f"+combat/declare {line}").text
            self.assertIn("staked", text)
        self.assertEqual(self.char2.sheet.get().pools["Blood"].current, 5)
        self.assertFalse(self.who("Char2").declared)
        self.player("+combat/declare other uses Auspex")
        self.assertTrue(self.who("Char2").declared)

    @pytest.mark.rule("MAN-11")
    def test_staked_numetal(self):
        self.staked("numetal")

    @pytest.mark.rule("MAN-11")
    def test_staked_revised(self):
        self.staked("revised")

    @pytest.mark.rule("MAN-11")
    def test_staked_v20(self):
        self.staked("v20")


# ------------------------------------------------------------------ MAN-09


class TestTimePowers(CloseTest):
    @pytest.mark.rule("MAN-09")
    def test_distort_time_gives_actions_next_turn_numetal(self):
        self.start()
        self.cmd("+combat/declare Thug=other growls")
        # Distort Time: 1 extra action per 2 successes, next turn: 5 successes -> 2.
        text = self.player("+combat/declare time distort time 5; other waits").text
        self.assertIn("Char2 uses Distort Time: 2 extra action(s) next turn", text)
        self.assertIn("You have no extra actions",
                      self.cmd("+combat/declare attack Thug; extra attack Thug").text)
        self.cmd("+combat/declare other waits")
        for who in ("+combat/act", "+combat/act Thug"):
            self.cmd(who)
            if who == "+combat/act":
                self.player("+combat/act")
        self.assertEqual(self.state().turn, 2)
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("You have 2 time action(s) this turn, not 3",
                      self.player("+combat/declare attack Thug; extra attack Thug; "
                                  "extra attack Thug; extra attack Thug").text)
        self.player("+combat/declare attack Thug; extra attack Thug; extra attack Thug")
        self.assertEqual([a.get("extra") for a in self.who("Char2").actions],
                         [None, "time", "time"])

    @pytest.mark.rule("MAN-09")
    def test_revised_faith_this_turn_and_no_quicksilver(self):
        self.start("revised")
        self.cmd("+combat/declare Thug=other growls")
        # MAN-09 (issue 10): Quicksilver is numetal's; the revised page names Distort Time
        # and Faith only, the core's two time powers.
        self.assertIn("'quicksilver' is not a time power here. Powers: Distort Time, Faith.",
                      self.player("+combat/declare time quicksilver 2; other waits").text)
        text = self.player("+combat/declare time faith 2; attack Thug; extra attack Thug; "
                           "extra attack Thug").text
        self.assertIn("Faith: 2 extra action(s) this turn (initiative -1, -2)", text)
        self.assertEqual([a.get("extra") for a in self.who("Char2").actions],
                         [None, "time", "time"])


# ------------------------------------------------------------------ DEF-05


class TestMagicDefense(CloseTest):
    def magic(self, ruleset):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2,
                                         arete=3))
        self.start(ruleset)
        self.declare_all(char2="dodge", char="magic Char2 roll arete damage 3 aggravated")
        # Arete 3 vs 6 [8 8 2] = 2; Char2 dodges like any attack: Dex 2 + Dodge 1 [8 2 2]
        # = 1; 1 net: damage 3 aggravated [8 2 2] = 1, which a mortal cannot soak.
        with self.dice(8, 8, 2, 8, 2, 2, 8, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char attack: Arete 3 = 3 vs 6", text)
        self.assertIn("Char2 dodge: Dexterity 2 + Dodge 1", text)
        self.assertIn("Char2 takes 1 aggravated", text)

    @pytest.mark.rule("DEF-05")
    def test_dodging_combat_magic_numetal(self):
        self.magic("numetal")

    @pytest.mark.rule("DEF-05")
    def test_dodging_combat_magic_revised(self):
        self.magic("revised")

    @pytest.mark.rule("DEF-05")
    def test_lock_on_and_area_cannot_be_dodged(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, stamina=2,
                                         arete=3))
        self.start()
        self.declare_all(char2="dodge", char="magic Char2 roll 3 damage 2 lockon")
        with self.dice(8, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("locks onto you", text)
        self.assertEqual(self.rolls("defense"), [])
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        # Countermagic up: the lock-on power is dodged like an attack.
        self.cmd("+combat/mod Char2=countermagic")
        self.declare_all(char2="dodge", char="magic Char2 roll 3 damage 2 lockon")
        with self.dice(2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(len(self.rolls("defense")), 1)
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.declare_all(char2="dodge", char="magic Char2 roll 3 damage 2 area")
        with self.dice(2, 2, 2):
            self.assertIn("fills an area", self.cmd("+combat/act").text)
        self.assertIn("Use a damaging power as", self.cmd("+combat/declare magic Thug").text)


# ------------------------------------------------------------------ CLOSE-14


class TestKiss(CloseTest):
    def kiss(self, victim):
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.char2.sheet.save(victim)
        self.start("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("under no Kiss", self.player("+combat/declare resist").text)
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Char2 as clinch")
        # Clinch: Str 3 + Brawl 2 [8 2 2 2 2] = 1; damage Str 3 [2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.declare_all(char="attack Char2 as bite draining")
        # Bite: Dex 3 + Brawl 2 + 1 = 6 vs 6 [8 2 2 2 2 2] = 1: the Kiss, 3 blood.
        with self.dice(8, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Char drinks 3 blood from Char2 in the Kiss", text)
        self.assertEqual(self.char1.sheet.get().pools["Blood"].current, 8)
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.cmd("+combat/declare Thug=other growls")
        return text

    @pytest.mark.rule("CLOSE-14")
    def test_a_vampire_victim_resists_with_self_control(self):
        self.kiss(make_sheet(splat="vampire", strength=2, dexterity=2, wits=2, stamina=2,
                             blood="6/10", **{"self-control": 2}))
        self.assertEqual(self.char2.sheet.get().pools["Blood"].current, 3)
        self.player("+combat/declare resist")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        # Self-Control 2 at difficulty 8: [9 2] = 1: free, and the clinch is broken.
        with self.dice(9, 2):
            text = self.player("+combat/act").text
        self.assertIn("Char2 tears free of the Kiss.", text)
        res = self.roll("resist the Kiss")
        self.assertEqual((res["difficulty"], res["faces"]), (8, [9, 2]))
        self.assertIsNone(self.who("Char2").gear.grapple)

    @pytest.mark.rule("CLOSE-14")
    def test_a_mortal_is_helpless_without_willpower_9(self):
        text = self.kiss(make_sheet(strength=2, dexterity=2, wits=2, stamina=2,
                                    willpower="5/5"))
        self.assertIn("they are helpless", text)
        self.assertIn("helpless under the Kiss",
                      self.player("+combat/declare other struggles").text)
        self.assertIn("Willpower 9+", self.player("+combat/declare resist").text)
        self.player("+combat/declare pass")


    @pytest.mark.rule("CLOSE-14")
    def test_close_14_resist_is_refused_when_declared_where_the_rules_have_no_kiss(self):
        """Where the rules have no Kiss (numetal), resist is refused when declared, saying
        what to do instead, and the turn goes on (it was accepted, then its act refused every
        time: the turn stalled on it)."""
        self.start("numetal")
        self.cmd("+combat/declare Thug=other growls")
        text = self.player("+combat/declare resist").text
        self.assertIn("no Kiss to resist", text)
        self.assertIn("escape", text)
        self.assertNotIn("CLOSE", text)
        self.assertEqual(self.who("Char2").actions, ())
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        self.assertIn("waits", self.player("+combat/act").text)


# ------------------------------------------------------------------ MAN-01


class TestAmbush(CloseTest):
    def sheet(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2,
                                         stealth=2))

    def won(self, ruleset):
        self.sheet()
        self.start(ruleset)
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/declare other waits")
        # Dex 3 + Stealth 2 [8 8 8 2 2] = 3 against Thug's Perception 1 [2] = 0: a free
        # attack with 3 more dice and no defense: strike 5 + 3 = 8 vs 6
        # [8 2 2 2 2 2 2 2] = 1; damage Str 3 [2 2 2].
        with self.dice(8, 8, 8, 2, 2, 2, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/declare ambush Thug").text
        self.assertIn("Char springs an ambush on Thug: a free attack, +3 dice", text)
        self.assertIn("ambush +3 dice = 8 vs 6", text)
        self.assertEqual(self.rolls("defense"), [])
        self.assertEqual(self.roll("ambush")["traits"], [["Dexterity", 3], ["Stealth", 2]])
        # The ambusher still declares the turn; a second ambush is refused.
        self.assertIn("already", self.cmd("+combat/declare ambush Thug").text)
        self.cmd("+combat/declare other waits")
        self.assertEqual(self.state().phase, "act")

    @pytest.mark.rule("MAN-01")
    def test_ambush_won_numetal(self):
        self.won("numetal")

    @pytest.mark.rule("MAN-01")
    def test_ambush_won_v20(self):
        self.won("v20")

    @pytest.mark.rule("MAN-01")
    def test_ambush_tied_revised_target_defends_and_it_is_the_action(self):
        self.sheet()
        self.start("revised")
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/declare other waits")
        # [8 2 2 2 2] = 1 against [8] = 1: Char strikes first, Thug dodges as declared:
        # strike [8 8 2 2 2] = 2; dodge Dex 2 [2 2] = 0; damage 4 [2 2 2 2].
        with self.dice(8, 2, 2, 2, 2, 8, 8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/declare ambush Thug").text
        self.assertIn("Char strikes first, Thug may defend", text)
        self.assertEqual(len(self.rolls("defense")), 1)
        self.assertEqual(self.state().phase, "act")  # the attack was Char's declaration

    @pytest.mark.rule("MAN-01")
    def test_ambush_lost_and_not_once_the_fight_is_on(self):
        self.sheet()
        self.start()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        with self.dice(2, 2, 2, 2, 2, 8):
            self.assertIn("Thug spots Char: no ambush.",
                          self.cmd("+combat/declare ambush Thug").text)
        self.assertEqual(self.rolls("attack"), [])
        self.cmd("+combat/declare other waits")
        self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("already in the fight", self.player("+combat/declare ambush Thug").text)
        self.assertIn("is the whole declaration",
                      self.player("+combat/declare ambush Thug; dodge").text)


class TestImpossibleLater(CloseTest):
    @pytest.mark.rule("CLOSE-01", "CLOSE-03")
    def test_bite_after_a_failed_clinch_is_lost_not_stalled(self):
        # Issue 9 #22: accepted when declared (the clinch comes first), impossible when the
        # clinch fails: the bite is lost, and the turn goes on.
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.start()
        self.declare_all(char="attack Thug as clinch; attack Thug as bite")
        with self.dice(2, 2, 2):  # the clinch, 5 - 2 dice for a split: [2 2 2] misses
            self.cmd("+combat/act")
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        text = self.cmd("+combat/act").text
        self.assertIn("bites only in a clinch or hold", text)
        self.assertEqual(self.state().turn, 2)
