"""Dice, initiative and turns played through +combat with exact dice (DICE, INIT, TURN, PWR).

Fight set-up (``CombatTest.setup_fight``): Char (staff, organizer) initiative 11 (Dex 3, Wits
3, Str 3, Brawl 2, Stamina 2), Char2 7 (Dex 2, Wits 2, Str 2, Dodge 1, Stamina 2), the NPC
Thug 5 (Str 3, Dex 2, Wits 2, Brawl 2, Stamina 2); the declaration phase is open, Thug
declares first. Rule IDs: ../shared/rules-catalog.md.
"""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest


class PlayTest(EffectsTest):
    def setup_in(self, ruleset: str):
        """``setup_fight`` in another ruleset: the same three at 11, 7 and 5, slot by
        slot."""
        self.assertIn("starts a fight", self.fight_in(f" {ruleset}=slots"))


class TestGearReplies(EffectsTest):
    @pytest.mark.rule("ATK-05")
    def test_gear_replies_agree_with_who_carries(self):
        """Defect 28: 'Thug now carries', not 'Thug now carry'; 'You' keeps 'carry'."""
        self.cmd("+combat/start")
        self.cmd("+combat/npc Rat2=str=1")
        self.assertIn("Rat2 now carries: Knife.", self.cmd("+sheet/equip Rat2/knife").text)
        self.assertIn("Rat2 already carries the Knife.", self.cmd("+sheet/equip Rat2/knife").text)
        self.assertIn("Rat2 now wears: Kevlar vest.", self.cmd("+sheet/armor Rat2/kevlar").text)
        self.assertIn("Rat2 carries no sword", self.cmd("+sheet/unequip Rat2/sword").text)
        self.assertIn("You now carry: Knife.", self.player("+sheet/equip knife").text)
        self.assertIn("You already carry the Knife.", self.player("+sheet/equip knife").text)


class TestWillpowerAndSpecialty(PlayTest):
    @pytest.mark.rule("DICE-03", "DICE-04", "TURN-02")
    def test_attack_with_specialty_and_willpower(self):
        """Defect 24: `attack Thug spec wp` counts a 10 twice and adds one success that 1s
        cannot cancel; the Willpower point is taken with the roll. All d10 rulesets."""
        self.cmd("+sheet/spec brawl=Punches")
        for ruleset in ("numetal", "revised", "everyman", "v20"):
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.cmd("+combat/declare attack Thug spec wp")
            wp = self.char1.sheet.get().pools["Willpower"].current
            # Dex 3 + Brawl 2 vs 6: [10 1 2 2 2]: 1 hit (2 with the specialty) - one 1 =
            # 1, + 1 Willpower = 2; damage Str 3 + 1 = 4 [2 2 2 2] = 0.
            with self.dice(10, 1, 2, 2, 2, 2, 2, 2, 2):
                self.cmd("+combat/act")
            atk = self.rolls("attack")[-1]
            self.assertEqual((atk["faces"], atk["specialty"], atk["willpower"],
                              atk["successes"]), ([10, 1, 2, 2, 2], True, True, 2), ruleset)
            self.assertEqual(self.char1.sheet.get().pools["Willpower"].current, wp - 1)
            self.cmd("+combat/end")

    @pytest.mark.rule("DICE-04", "TURN-02")
    def test_spend_willpower_then_attack_goes_to_the_roll(self):
        """Defect 24: `spend willpower 1; attack Thug` gives the roll its success."""
        for ruleset in ("numetal", "revised"):
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.cmd("+combat/declare spend willpower 1; attack Thug")
            wp = self.char1.sheet.get().pools["Willpower"].current
            with self.dice(2, 2, 2, 2, 2, 2, 2, 2):
                self.cmd("+combat/act")
            atk = self.rolls("attack")[-1]
            self.assertEqual((atk["willpower"], atk["successes"]), (True, 1), ruleset)
            self.assertEqual(self.char1.sheet.get().pools["Willpower"].current, wp - 1)
            self.cmd("+combat/end")

    @pytest.mark.rule("DICE-04", "TURN-02")
    def test_declare_wp_switch_and_act_wp(self):
        """Defect 24: /declare/wp marks the roll; /act/wp is honoured only if declared."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/declare/wp dodge")
        self.assertTrue(self.who("Char2").actions[0]["willpower"])
        self.cmd("+combat/declare attack Thug")
        self.assertIn("must be declared with the action", self.cmd("+combat/act/wp").text)
        with self.dice(2, 2, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.rolls("attack")[0]["successes"], 0)
        # Thug attacks Char2, whose dodge has the declared Willpower: [2 2 2] + 1 = 1.
        # Thug: Dex 2 + Brawl 2 [8 2 2 2] = 1, cancelled by the dodge: a miss.
        wp = self.char2.sheet.get().pools["Willpower"].current
        with self.dice(8, 2, 2, 2, 2, 2, 2):
            self.cmd("+combat/act Thug")
        dodge = self.rolls("defense")[0]
        self.assertEqual((dodge["willpower"], dodge["successes"]), (True, 1))
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, wp - 1)

    @pytest.mark.rule("TURN-02", "DICE-03")
    def test_refused_at_declaration_changes_nothing(self):
        """Defect 22: a specialty the sheet lacks, claws without the form, more Willpower
        than the sheet holds: refused when declared (nothing spent), never when acting."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        before = self.char1.sheet.get()
        for line, words in (("attack Thug spec", "no specialty in"),
                            ("rage 1; attack Thug as claw", "can claw"),
                            ("attack Thug as claw", "can claw"),
                            ("dodge spec", "no specialty in")):
            text = self.cmd(f"+combat/declare {line}").text
            self.assertIn(words, text, line)
            self.assertFalse(self.who("Char").declared, line)
        self.assertEqual(self.char1.sheet.get(), before)
        self.assertIn("goes with", self.cmd("+combat/next/wp").text)


class TestAbort(PlayTest):
    def _abort_after_miss(self, ruleset):
        self.setup_in(ruleset)
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/declare attack Thug")
        self.cmd("+combat/declare attack Thug")
        with self.dice(2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        # Willpower 5 reflex roll vs 6: [2 2 2 2 2] fails.
        with self.dice(2, 2, 2, 2, 2):
            return self.player("+combat/abort dodge").text

    @pytest.mark.rule("TURN-08", "DICE-09")
    def test_v20_failed_abort_says_the_action_stands(self):
        """Defect 21: v20 (and revised) never offer a point after a failed roll, and
        refuse it; the roll is a reflex: Willpower alone."""
        for ruleset in ("v20", "revised"):
            text = self._abort_after_miss(ruleset)
            self.assertIn("aborts to dodge: fails; the declared action stands", text)
            self.assertNotIn("Willpower point", text)
            wp = self.char2.sheet.get().pools["Willpower"].current
            self.assertIn("the declared action stands",
                          self.player("+combat/abort dodge/wp").text)
            self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, wp)
            roll = self.rolls("abort")[-1]
            self.assertEqual((roll["pool"], roll["modifiers"]), (5, []), ruleset)
            self.cmd("+combat/end")

    @pytest.mark.rule("TURN-08", "DICE-09")
    def test_numetal_failed_abort_then_point(self):
        """numetal (C20): after a failed roll a Willpower point still aborts. Defect 27:
        the abort's roll is logged before the abort and whatever follows."""
        text = self._abort_after_miss("numetal")
        self.assertIn("unless a Willpower point is spent: +combat/abort dodge/wp", text)
        wp = self.char2.sheet.get().pools["Willpower"].current
        self.assertIn("aborts to dodge: succeeds", self.player("+combat/abort dodge/wp").text)
        self.assertEqual(self.char2.sheet.get().pools["Willpower"].current, wp - 1)
        kinds = [(r["event"], r.get("purpose")) for r in self.log()
                 if r["event"] in ("roll", "abort", "phase", "act")]
        first = kinds.index(("roll", "abort"))
        self.assertEqual(kinds[first + 1][0], "abort")
        roll = self.rolls("abort")[0]
        # DICE-09: a reflex: Willpower alone, no wound or split penalty.
        self.assertEqual((roll["pool"], roll["difficulty"], roll["modifiers"]), (5, 6, []))


class TestInitiative(PlayTest):
    def _start(self):
        self.cmd("+combat/start")
        self.player("+combat/join")

    @pytest.mark.rule("INIT-05")
    def test_winter_is_a_staff_flag_and_never_applied_by_the_roll(self):
        """Defect 18: staff set winter with /flag; the Gurahl's -2 is listed, not applied;
        the player applies it by hand with /init -2."""
        self.char2.sheet.save(make_sheet(splat="shifter", race="Gurahl", dexterity=2, wits=2))
        self._start()
        self.assertIn("not a combat flag", self.cmd("+combat/flag summer").text)
        self.assertIn("Only the organizer or staff", self.player("+combat/flag winter").text)
        self.assertIn("now marked winter", self.cmd("+combat/flag winter").text)
        self.assertEqual(self.state().options.flags, ("winter",))
        with self.dice(3):
            text = self.player("+combat/init").text
        self.assertIn("rating 4 + [3] = 7\n  (not applied: -2 Gurahl in winter)", text)
        self.assertEqual(self.who("Char2").init_total, 7)
        self.assertIn("no longer marked winter", self.cmd("+combat/flag !winter").text)

    @pytest.mark.rule("INIT-03", "INIT-05")
    def test_wound_penalty_reported_and_applied_by_hand(self):
        """numetal: a wounded character's initiative lists the penalty; /init -1 applies it."""
        self.cmd("+combat/start")
        self.player("+combat/join")
        self.cmd("+combat/damage Char2=2 lethal")  # Hurt: -1
        with self.dice(3):
            text = self.player("+combat/init -1").text
        self.assertIn("rating 4 + [3] -1 by hand = 6\n  (not applied: -1 wounds)", text)
        self.assertEqual(self.who("Char2").init_total, 6)

    @pytest.mark.rule("INIT-06")
    def test_equal_initiative_higher_rating_first_then_simultaneous(self):
        """Equal totals: the higher rating acts first; equal ratings too: one slot."""
        for ruleset in ("numetal", "revised"):
            self.cmd(f"+combat/start {ruleset}")
            self.player("+combat/join")
            self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
            self.cmd("+combat/npc Rat=str=1,dex=2,wits=2")
            with self.dice(5):
                self.cmd("+combat/init")  # 6 + 5 = 11
            with self.dice(7):
                self.player("+combat/init")  # 4 + 7 = 11
            with self.dice(3):
                self.cmd("+combat/init Thug=4")  # 7
            with self.dice(3):
                self.cmd("+combat/init Rat=4")  # 7
            self.cmd("+combat/next")
            slots = [tuple(sorted(self.state().find(k).name for k in s.keys))
                     for s in self.state().order]
            # the declaration order (low to high): Char (rating 6) after Char2 (rating 4)
            self.assertEqual(slots, [("Rat", "Thug"), ("Char2",), ("Char",)], ruleset)
            self.cmd("+combat/end")


class TestAbilities(PlayTest):
    @pytest.mark.rule("DICE-06")
    def test_related_ability_substitutes_at_minus_one(self):
        """numetal: a throw states Athletics; Throwing (its secondary) stands in at -1
        difficulty, named with `using`; v20 has no such substitution."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, athletics=1,
                                         throwing=1, stamina=2))
        self.cmd("+sheet/equip knife")
        self.to_act(char_action="attack Thug with knife as throw using throwing")
        with self.dice(2, 2, 2, 2):
            self.cmd("+combat/act")
        atk = self.rolls("attack")[0]
        self.assertEqual(atk["traits"], [["Dexterity", 3], ["Throwing", 1]])
        self.assertIn(("Throwing for Athletics", -1),
                      [(m["reason"], m.get("difficulty")) for m in atk["modifiers"]])
        self.cmd("+combat/end")
        self.setup_in("v20")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("rolls Dexterity + Athletics, not Throwing",
                      self.cmd("+combat/declare attack Thug with knife as throw using "
                               "throwing").text)

    @pytest.mark.rule("DICE-07")
    def test_no_ability_rolls_the_bare_attribute(self):
        """All d10 rulesets: no Melee: Dexterity alone at +1 (a knife); no Brawl: Dexterity
        alone at the normal difficulty (a punch)."""
        for ruleset in ("numetal", "revised", "everyman", "v20"):
            self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, stamina=2))
            self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, stamina=2))
            self.cmd("+sheet/equip knife")
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare attack Thug")
            self.cmd("+combat/declare attack Thug with knife")
            with self.dice(*[2] * 12):
                self.cmd("+combat/act")
                self.player("+combat/act")
            knife, punch = self.rolls("attack")[-2:]
            self.assertEqual((knife["traits"], knife["difficulty"]), ([["Dexterity", 3]], 7),
                             ruleset)
            self.assertEqual((punch["traits"], punch["difficulty"]), ([["Dexterity", 2]], 6),
                             ruleset)
            self.cmd("+combat/end")
            self.cmd("+sheet/unequip knife")


class TestTurnPhases(PlayTest):
    @pytest.mark.rule("TURN-06", "TURN-07")
    def test_split_second_action_waits_for_the_extra_phase(self):
        """numetal, revised: one action each in the main phase; Char's second attack comes
        after everyone's first, in the extra phase."""
        for ruleset in ("numetal", "revised"):
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.cmd("+combat/declare attack Thug; attack Thug")
            with self.dice(2, 2, 2):  # 5 dice - 2 (split): a miss
                self.cmd("+combat/act")
            self.assertEqual((self.state().phase, self.engine_pending()),
                             ("act", [self.key("Char2")]), ruleset)
            self.assertIn("come in the extra phase", self.cmd("+combat/act").text)
            self.player("+combat/act")
            self.cmd("+combat/act Thug")
            self.assertEqual((self.state().phase, self.engine_pending()),
                             ("extra", [self.key("Char")]), ruleset)
            with self.dice(2, 2):  # 5 dice - 3: the second action of the split
                self.cmd("+combat/act")
            self.assertEqual([r["pool"] for r in self.rolls("attack")][-2:], [3, 2])
            self.assertEqual(self.state().turn, 2, ruleset)
            self.cmd("+combat/end")

    def engine_pending(self):
        from wodcombat.combat.d10 import scheduler
        return scheduler.pending(self.state())

    @pytest.mark.rule("TURN-09")
    def test_slower_character_declares_defense_against_anticipated_attack(self):
        """numetal, revised: Thug (slowest, declaring first) dodges Char's expected attack;
        the dodge answers Char's attack only, not Char2's."""
        for ruleset in ("numetal", "revised"):
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=dodge against Char")
            self.player("+combat/declare attack Thug")
            self.cmd("+combat/declare attack Thug")
            # Char: [8 2 2 2 2] = 1; Thug's dodge, Dexterity 2 alone: [9 2] = 1: a miss.
            with self.dice(8, 2, 2, 2, 2, 9, 2):
                self.cmd("+combat/act")
            dodge = self.rolls("defense")[-1]
            self.assertEqual((dodge["actor"], dodge["successes"]), (self.key("Thug"), 1))
            n = len(self.rolls("defense"))
            # Char2: Dex 2, no Brawl: [2 2] = 0: no dodge was declared against Char2.
            with self.dice(2, 2):
                self.player("+combat/act")
            self.assertEqual(len(self.rolls("defense")), n, ruleset)
            self.cmd("+combat/end")

    @pytest.mark.rule("TURN-09")
    def test_a_defense_kept_for_another_attacker_is_told(self):
        """numetal: Thug's dodge answers Char2's attack; Char, acting first, meets no dodge
        and the room reads why."""
        self.setup_in("numetal")
        self.cmd("+combat/declare Thug=dodge against Char2")
        self.player("+combat/declare attack Thug")
        self.cmd("+combat/declare attack Thug")
        n = len(self.rolls("defense"))
        with self.dice(2, 2, 2, 2, 2):  # Char: a miss
            out = self.cmd("+combat/act").text
        self.assertEqual(len(self.rolls("defense")), n)
        self.assertIn("Thug does not defend: Thug's dodge answers Char2's attack, not this "
                      "one.", out.replace("\n  ", " "))
        with self.dice(2, 2, 9, 2):  # Char2: a miss; the dodge is rolled against it
            self.player("+combat/act")
        self.assertEqual(self.rolls("defense")[-1]["actor"], self.key("Thug"))
        self.cmd("+combat/end")

    @pytest.mark.rule("TURN-07")
    def test_a_defense_split_second_is_told_too_late_for_a_main_phase_attack(self):
        """numetal, revised: Thug (declaring first) splits "attack Char; dodge"; Char's attack
        in the main phase finds the dodge not yet due: the room reads why there is no
        defense roll, and the dodge still answers in the extra phase."""
        for ruleset in ("numetal", "revised"):
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=attack Char; dodge")
            self.player("+combat/declare other waits")
            self.cmd("+combat/declare attack Thug")
            n = len(self.rolls("defense"))
            with self.dice(2, 2, 2, 2, 2):  # Char: 5 dice, a miss
                out = self.cmd("+combat/act").text
            self.assertEqual(len(self.rolls("defense")), n, ruleset)  # no dodge rolled
            self.assertIn("Thug does not defend: Thug's dodge is action #2: it comes in the "
                          "extra phase, after this attack.", out.replace("\n  ", " "), ruleset)
            self.assertNotIn("TURN-07", out)  # player text names no rules
            self.cmd("+combat/end")

    @pytest.mark.rule("TURN-11")
    def test_everyman_split_all_in_the_everyman_turn(self):
        """everyman #6: a split's second action is in the main turn too (no extra phase)."""
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug; attack Thug")
        with self.dice(2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.engine_pending(), [self.key("Char")])  # its second, at once
        with self.dice(2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.engine_pending(), [self.key("Char2")])
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.assertEqual(self.state().turn, 2)

    @pytest.mark.rule("TURN-11", "PWR-05")
    def test_celerity_acts_next_turn_after_everyone(self):
        """Celerity bought this turn gives its extra action next turn (PWR-05: the power
        sets up a later action), resolved after everyone's normal action (TURN-11 in
        everyman; numetal and revised alike); it is gone the turn after."""
        for ruleset in ("numetal", "revised", "everyman"):
            self.char1.sheet.save(sheet_with(splat="vampire", strength=3, dexterity=3,
                                             wits=3, brawl=2, stamina=2, celerity=1))
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.assertIn("extra", self.cmd("+combat/declare extra attack Thug").text)
            self.cmd("+combat/declare celerity; other waits")
            for who in ("", "Char2", "Thug"):
                self.act(who)
            self.assertEqual(self.state().turn, 2)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.cmd("+combat/declare other waits; extra attack Thug")
            self.act("")
            self.act("Char2")
            self.act("Thug")
            self.assertEqual((self.state().phase, self.engine_pending()),
                             ("extra", [self.key("Char")]), ruleset)
            with self.dice(2, 2, 2, 2, 2):
                self.cmd("+combat/act")
            self.assertEqual(self.state().turn, 3)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.assertIn("no extra actions",
                          self.cmd("+combat/declare extra attack Thug").text, ruleset)
            self.cmd("+combat/end")

    def act(self, who):
        if who == "Char2":
            self.player("+combat/act")
        else:
            self.cmd(f"+combat/act {who}".strip())


def sheet_with(splat, **traits):
    from tests.commands.test_play_damage import sheet_of
    return sheet_of(splat=splat, **traits)


class TestPowerLimits(PlayTest):
    @pytest.mark.rule("PWR-03")
    def test_one_arete_effect_a_turn_talismans_their_own(self):
        for ruleset in ("numetal", "revised"):
            self.char1.sheet.save(sheet_with(splat="mage", dexterity=3, wits=3, arete=3))
            self.setup_in(ruleset)
            self.cmd("+combat/declare Thug=other growls")
            self.player("+combat/declare other waits")
            self.assertIn("only 1 Arete effect a turn",
                          self.cmd("+combat/declare effect arete; effect artifact; other "
                                   "casts").text)
            self.assertFalse(self.who("Char").declared)
            text = self.cmd("+combat/declare effect arete; effect talisman Ring; other "
                            "casts").text
            self.assertIn("uses a talisman effect (Ring)", text)
            self.assertTrue(self.who("Char").declared)
            self.cmd("+combat/end")

    @pytest.mark.rule("PWR-04")
    def test_one_lore_evocation_and_yin_yang_chi(self):
        self.char1.sheet.save(sheet_with(splat="demon", dexterity=3, wits=3))
        self.setup_in("numetal")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("only 1 Lore evocation a turn",
                      self.cmd("+combat/declare effect lore; effect lore; other "
                               "evokes").text)
        self.assertIn("uses a lore effect", self.cmd("+combat/declare effect lore; other "
                                                     "evokes").text)
        self.cmd("+combat/end")
        self.char1.sheet.save(sheet_with(splat="kuei-jin", dexterity=3, wits=3, stamina=3))
        self.setup_in("numetal")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertIn("can't spend Yin Chi and Yang Chi",
                      self.cmd("+combat/declare spend yin 1; spend yang 1; other "
                               "chi").text)
        self.cmd("+sheet/set equilibrium=1")
        self.assertIn("Yang Chi", self.cmd("+combat/declare spend yin 1; spend yang 1; "
                                           "other chi").text)


class TestChange(PlayTest):
    @pytest.mark.rule("TURN-10")
    def test_everyman_change_an_impossible_attack(self):
        """everyman #16: the target moved out of reach: a Willpower roll at 8 changes the
        claw-turned-impossible into a chase; a possible attack may not change."""
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.assertIn("can still be made", self.cmd("+combat/change move 5 toward Thug").text)
        self.cmd("+combat/range Char/Thug=10")  # Thug is out of reach now
        # acting it now offers the change instead of losing the action unasked
        self.assertIn("+combat/change <action>", self.cmd("+combat/act").text)
        self.assertFalse(self.rolls("attack"))
        # Willpower 5 vs 8: [8 2 2 2 2] = 1.
        with self.dice(8, 2, 2, 2, 2):
            text = self.cmd("+combat/change move 10 toward Thug").text
        self.assertIn("declared attack is impossible now:", text)
        self.assertIn("changes to move: succeeds", text)
        roll = self.rolls("change")[0]
        self.assertEqual((roll["pool"], roll["difficulty"], roll["successes"]), (5, 8, 1))
        self.cmd("+combat/act")
        self.assertEqual(self.state().range_between(self.key("Char"), self.key("Thug"), 1), 0)

    @pytest.mark.rule("TURN-10")
    def test_change_with_a_point_and_not_in_numetal(self):
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.cmd("+combat/range Char/Thug=10")
        wp = self.char1.sheet.get().pools["Willpower"].current
        self.assertIn("succeeds", self.cmd("+combat/change/wp other shouts").text)
        self.assertEqual(self.char1.sheet.get().pools["Willpower"].current, wp - 1)
        self.cmd("+combat/end")
        self.setup_in("numetal")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.cmd("+combat/range Char/Thug=10")
        self.assertIn("no changing of declared actions",
                      self.cmd("+combat/change/wp other shouts").text)

    @pytest.mark.rule("TURN-10", "MAN-03", "RNG-01")
    def test_turn_10_the_new_action_is_checked_as_if_declared(self):
        """A change is refused, before any Willpower, when its new action could not be
        declared: a run past the character's pace, an aim with no gun (it was accepted:
        the run went 500 yards, the aim failed with 'Something went wrong' when acted)."""
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.cmd("+combat/range Char/Thug=10")
        wp = self.char1.sheet.get().pools["Willpower"].current
        self.assertIn("runs at most", self.cmd("+combat/change/wp move 500 toward Thug").text)
        self.assertIn("carry no firearm/crossbow/bow weapon",
                      self.cmd("+combat/change/wp aim Thug").text)
        self.assertEqual(self.char1.sheet.get().pools["Willpower"].current, wp)
        self.assertFalse(self.rolls("change"))
        self.assertEqual(self.who("Char").actions[0]["kind"], "attack")

    @pytest.mark.rule("TURN-10", "HEAL-01")
    def test_turn_10_a_reflexive_heal_cannot_take_an_actions_place(self):
        """Blood healing is reflexive, not an action: a change to it is refused before any
        Willpower (it was accepted, then refused at every act as a Faith heal)."""
        self.char1.sheet.save(make_sheet(splat="vampire", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, blood="5/10"))
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.cmd("+combat/range Char/Thug=10")
        self.assertIn("reflexive, not an action",
                      self.cmd("+combat/change/wp heal blood 1").text)
        self.assertFalse(self.rolls("change"))
        self.assertEqual(self.who("Char").actions[0]["kind"], "attack")

    @pytest.mark.rule("TURN-10")
    def test_failed_change_roll_then_the_action_is_lost_not_stalled(self):
        self.setup_in("everyman")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug")
        self.cmd("+combat/range Char/Thug=10")
        with self.dice(2, 2, 2, 2, 2):
            self.assertIn("changes to move: fails; the declared action stands",
                          self.cmd("+combat/change move 10 toward Thug").text)
        self.assertIn("the declared action stands", self.cmd("+combat/change/wp other shouts").text)
        self.assertIn("cannot attack Thug now", self.cmd("+combat/act").text)
        self.assertIn(self.key("Char2"), TestTurnPhases.engine_pending(self))

class TestDelay(PlayTest):
    def _delay_into_extra(self, ruleset):
        self.setup_in(ruleset)
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other runs; other shouts")
        self.cmd("+combat/declare attack Thug")
        self.assertIn("Char delays", self.cmd("+combat/delay").text)
        self.player("+combat/act")
        self.cmd("+combat/act Thug")

    @pytest.mark.rule("TURN-04", "TURN-06")
    def test_delayed_action_may_come_in_the_extra_phase(self):
        """Defect 19: the held action is not forced at the end of the main phase; the
        extra phase goes on and the delayed character acts at any point of it."""
        for ruleset in ("numetal", "revised"):
            self._delay_into_extra(ruleset)
            self.assertEqual((self.state().phase, TestTurnPhases.engine_pending(self)),
                             ("extra", [self.key("Char2")]), ruleset)
            with self.dice(2, 2, 2, 2, 2):  # Char acts before Char2's second action
                self.assertIn("attacks Thug", self.cmd("+combat/act").text)
            self.assertEqual(self.state().phase, "extra")
            self.player("+combat/act")
            self.assertEqual(self.state().turn, 2, ruleset)
            self.cmd("+combat/end")

    @pytest.mark.rule("TURN-04")
    def test_delayed_to_the_end_of_the_turn_is_waited_for_last(self):
        self._delay_into_extra("numetal")
        self.player("+combat/act")
        self.assertEqual((self.state().phase, TestTurnPhases.engine_pending(self)),
                         ("extra", [self.key("Char")]))
        with self.dice(2, 2, 2, 2, 2):
            self.cmd("+combat/act")
        self.assertEqual(self.state().turn, 2)


class TestDeclaredEarly(PlayTest):
    @pytest.mark.rule("TURN-02", "MAN-08")
    def test_claws_without_the_form_refused_before_rage_is_spent(self):
        """Defect 22: a Garou in Homid declaring `rage 1; attack Thug as claw` is refused
        when declaring, and keeps the Rage; in Crinos the same declaration stands."""
        self.char1.sheet.save(sheet_with(splat="shifter", race="Garou", breed="homid",
                                         form="Homid", strength=3, dexterity=3, wits=3,
                                         brawl=2, stamina=2, rage=3))
        self.setup_in("numetal")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        rage = self.char1.sheet.get().pools["Rage"].current
        text = self.cmd("+combat/declare rage 1; attack Thug as claw").text
        self.assertIn("can claw", text)
        self.assertEqual(self.char1.sheet.get().pools["Rage"].current, rage)
        self.assertFalse(self.who("Char").declared)
        self.cmd("+sheet/set form=Crinos")
        self.cmd("+combat/declare rage 1; attack Thug as claw")
        self.assertTrue(self.who("Char").declared)
        self.assertEqual(self.char1.sheet.get().pools["Rage"].current, rage - 1)


class TestNotInSpotlight(PlayTest):
    @pytest.mark.rule("TURN-02")
    def test_d10_options_are_refused_clearly_in_spotlight(self):
        self.cmd("+combat/start spotlight")
        self.cmd("+combat/join")  # the organizer fights only by /join (issue 10)
        self.player("+combat/join")
        for line, words in (("+combat/act/wp", "no Willpower point"),
                            ("+combat/init -2", "no modifier by hand"),
                            ("+combat/damage Char2=1 superficial fire", "names no source"),
                            ("+combat/flag winter", "for d10 combats"),
                            ("+combat/change other shouts", "")):
            text = self.cmd(line).text
            self.assertIn(words, text, line)
            self.assertNotIn("went wrong", text, line)
