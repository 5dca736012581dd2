"""+combat effects, outcomes, extra actions, gear and templates through the real command
handler with exact dice. Rule IDs: ../shared/rules-catalog.md.

Fight set-up (``CombatTest.setup_fight``): Char (staff, organizer) initiative 11, Char2 7,
the NPC Thug 5 (Str 3, Dex 2, Brawl 2, Stamina 2); the declaration phase is open, Thug
declares first.
"""

import pytest

from wodcombat.combat.core.sheet import Sheet
from tests.commands.test_combat import CombatTest, make_sheet
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog


def thug(test):
    return next(o for o in test.room1.contents if o.key == "Thug")


class EffectsTest(CombatTest):
    def key(self, name):
        return next(c.key for c in self.state().combatants if c.name == name)

    def who(self, name):
        return self.state().get(self.key(name))

    def log(self):
        return combatlog.read(combat_in(self.room1).combat_id)

    def events(self, kind):
        return [r for r in self.log() if r["event"] == kind]

    def fight_in(self, start: str = " =slots") -> str:
        """``setup_fight`` from ``+combat/start<start>`` into the declare phase: Char at 11,
        Char2 at 7, the NPC Thug at 5; slot by slot unless ``start`` says otherwise (the
        game's default pace is ahead). Returns what /start replied."""
        out = self.cmd(f"+combat/start{start}").text
        self.player("+combat/join")
        self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,stamina=2")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        with self.dice(1):
            self.cmd("+combat/init Thug=4")
        self.cmd("+combat/next")
        self.assertEqual(self.state().phase, "declare")
        return out

    def rolls(self, purpose):
        return [r for r in self.log() if r["event"] == "roll" and r["purpose"] == purpose]

    def to_act(self, thug_action="other growls", char2_action="other waits", char_action=""):
        """Declare for all three so Char (11) acts first."""
        self.setup_fight()
        self.cmd(f"+combat/declare Thug={thug_action}")
        self.player(f"+combat/declare {char2_action}")
        if char_action:
            self.cmd(f"+combat/declare {char_action}")
        self.assertEqual(self.state().phase, "act")


class TestKnockdown(EffectsTest):
    @pytest.mark.rule("CLOSE-11", "COMP-04")
    def test_sweep_failed_knockdown_leaves_target_prone(self):
        self.to_act(char_action="attack Thug as sweep")
        # Sweep: Dex 3 + Brawl 2 vs 7: [8 8 2 2 2] = 2; damage Str 3 + 1 = 4: [2 2 2 2] = 0
        # (no soak roll); knockdown Dex 2 vs 8 (6 + 2): [3 3] = 0: on the ground.
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 3, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug knockdown: Dexterity 2", text)
        self.assertIn("= 2 vs 8: [3 3] => 0 successes", text)
        self.assertIn("stays on the ground", text)
        self.assertIn("prone", [k.name for k in self.who("Thug").conditions])
        kd = [r for r in self.log() if r["event"] == "roll" and r["purpose"] == "knockdown"]
        self.assertEqual((kd[0]["faces"], kd[0]["difficulty"], kd[0]["successes"]),
                         ([3, 3], 8, 0))
        # COMP-04: attacks on someone on the ground get +2 dice; rising takes the action.
        self.assertIn("Not Thug's turn", self.cmd("+combat/act Thug").text)

    @pytest.mark.rule("COMP-04", "CLOSE-11")
    def test_knockdown_success_against_a_sweep_keeps_the_feet(self):
        # Issue 9 #8, READING (numetal maneuvers.yaml knockdown.maneuver_success): "knocked
        # down unless they succeed": a success is no knockdown and no -2 initiative.
        self.to_act(char_action="attack Thug as sweep")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 9, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug keeps their feet.", text)
        self.assertNotIn("initiative next turn", text)
        self.assertEqual([k.name for k in self.who("Thug").conditions], [])

    @pytest.mark.rule("COMP-04")
    def test_botched_knockdown_adds_unsoakable_bashing(self):
        self.to_act(char_action="attack Thug as sweep")
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, 1, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 1 bashing (botched knockdown roll", text)
        self.assertEqual(thug(self).sheet.get().health["bashing"], 1)


class TestOutcomes(EffectsTest):
    @pytest.mark.rule("HLT-02", "HLT-03", "HLT-04")
    def test_kill_keeps_the_outcome_and_leaves_the_order(self):
        self.to_act(char2_action="other waits", char_action="attack Thug")
        self.assertIn("Incapacitated", self.cmd("+combat/damage Thug=7 lethal").text)
        self.assertEqual(self.who("Thug").outcome, "incapacitated")
        # Strike: [8 8 2 2 2] = 2; damage 4 dice [9 2 2 2] = 1 bashing on an incapacitated
        # mortal: HLT-03 makes it lethal, HLT-04 kills (no soak: a mortal can't soak lethal).
        with self.dice(8, 8, 2, 2, 2, 9, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug is DEAD", text)
        dead = self.who("Thug")
        self.assertEqual(dead.outcome, "dead")
        self.assertTrue(dead.lost)
        # out of the order: Char2 acts, then the turn ends without waiting for Thug
        self.player("+combat/act")
        self.assertEqual(self.state().turn, 2)
        self.assertIn("DEAD", self.cmd("+combat").text)
        self.assertIn("dead already", self.player("+combat/init").text + self.cmd(
            "+combat/declare attack Thug").text)
        outs = [r for r in self.log() if r["event"] == "outcome"]
        self.assertEqual([o["outcome"] for o in outs], ["incapacitated", "dead"])


class TestGrappleAndDisarm(EffectsTest):
    @pytest.mark.rule("CLOSE-03")
    def test_clinch_locks_both_and_escape_frees(self):
        self.to_act(char_action="attack Thug as clinch")
        # Clinch: Str 3 + Brawl 2 vs 6 [8 2 2 2 2] = 1; damage Str 3 [2 2 2] = 0.
        with self.dice(8, 2, 2, 2, 2, 2, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("locked in a clinch", text)
        for name in ("Char", "Thug"):
            self.assertIn("grappled", [k.name for k in self.who(name).conditions])
        self.assertEqual(self.who("Thug").gear.to_dict()["grapple"], {"with": self.key("Char"),
                                                              "kind": "clinch"})
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.assertEqual(self.state().turn, 2)
        # Next turn Thug escapes: Str 3 + Brawl 2 [9 9 2 2 2] = 2 vs Char's [8 2 2 2 2] = 1.
        self.cmd("+combat/declare Thug=escape")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as clinch_strike")
        # Char's clinch strike needs no roll (DICE-08): damage Str 3 [2 2 2], no soak.
        with self.dice(2, 2, 2):
            self.assertIn("clinch strike", self.cmd("+combat/act").text)
        self.player("+combat/act")
        with self.dice(9, 9, 2, 2, 2, 8, 2, 2, 2, 2):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("breaks free", text)
        self.assertNotIn("grappled", [k.name for k in self.who("Char").conditions])

    @pytest.mark.rule("CLOSE-04")
    def test_disarm_knocks_the_weapon_away(self):
        self.setup_fight()
        self.cmd("+sheet/equip Thug/knife")
        self.cmd("+combat/declare Thug=attack Char2 with knife")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare attack Thug as disarm")
        # Unarmed disarm: Dex 3 + Brawl 2 - 1 die vs 8: [9 9 9 9] = 4; damage Str 3 + 3 =
        # 6 dice [9 9 9 9 2 2] = 4 > Thug's Strength 3: the knife flies; no damage dealt.
        with self.dice(9, 9, 9, 9, 9, 9, 9, 9, 2, 2):
            text = self.cmd("+combat/act").text
        self.assertIn("Knife flies away", text)
        self.assertEqual(list(self.who("Thug").gear.dropped), ["Knife"])
        self.assertEqual(thug(self).sheet.get().health["bashing"], 0)
        self.player("+combat/act")
        self.assertIn("knocked away", self.cmd("+combat/act Thug").text)


class TestParryCounter(EffectsTest):
    @pytest.mark.rule("DMG-17", "DEF-03")
    def test_parry_with_knife_hurts_unarmed_attacker(self):
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, melee=2, stamina=2))
        self.char2.sheet.save(Sheet.from_dict({**self.char2.sheet.get().to_dict(),
                                               "weapons": ["Knife"]}))
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/parry")
        self.cmd("+combat/declare other watches")
        self.cmd("+combat/act")
        # Thug: Dex 2 + Brawl 2 [6 2 2 2] = 1; Char2 parry Dex 2 + Melee 2 [8 8 8 2] = 3
        # beats it by 2: knife Str 2 + 1 + 2 = 5 dice [7 7 2 2 2] = 2 lethal on Thug.
        with self.dice(6, 2, 2, 2, 8, 8, 8, 2, 7, 7, 2, 2, 2):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("parry turns on Thug", text)
        self.assertIn("Thug takes 2 lethal", text)
        self.assertEqual(thug(self).sheet.get().health["lethal"], 2)


class TestExtraActionsAndSpending(EffectsTest):
    @pytest.mark.rule("MAN-07", "MAN-06")
    def test_celerity_spends_blood_for_next_turn(self):
        self.char2.sheet.save(make_sheet(splat="vampire", dexterity=2, wits=2, celerity=2,
                                         blood="10/10"))
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        text = self.player("+combat/declare celerity; other runs").text
        self.assertIn("activates Celerity 2", text)
        self.assertEqual(self.char2.sheet.get().pools["Blood"].current, 9)
        c2 = self.who("Char2")
        self.assertEqual(dict(c2.next_extra), {"celerity": 2})
        # without Celerity: refused, nothing spent
        self.assertIn("no Celerity", self.cmd("+combat/declare celerity").text)

    @pytest.mark.rule("MAN-08")
    def test_rage_extra_actions_and_cap(self):
        self.char2.sheet.save(make_sheet(splat="shifter", race="Garou", dexterity=2, wits=2,
                                         rage="4/4"))
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("at most 2 Rage", self.player("+combat/declare rage 3; dodge").text)
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 4)
        self.player("+combat/declare rage 2; attack Thug; extra attack Thug; extra attack Thug")
        self.assertEqual(self.char2.sheet.get().pools["Rage"].current, 2)
        c2 = self.who("Char2")
        self.assertEqual([a.get("extra") for a in c2.actions], [None, "rage", "rage"])

    @pytest.mark.rule("DEF-04")
    def test_desperate_defense_declared(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/defend")
        c2 = self.who("Char2")
        self.assertTrue(c2.desperate)
        self.cmd("+combat/declare other watches")
        self.cmd("+combat/act")
        # Thug attacks: Char2's desperate dodge answers (Dex 2 + Dodge 1, no penalty first).
        with self.dice(6, 2, 2, 2, 8, 8, 2):
            text = self.cmd("+combat/act Thug").text
        self.assertIn("Char2 dodge: Dexterity 2 + Dodge 1 = 3 vs 6: [8 8 2] => 2", text)
        self.assertIn("Miss", text)
        dfn = [r for r in self.log() if r["event"] == "defend"]
        self.assertTrue(dfn[-1]["desperate"])

    @pytest.mark.rule("PWR-01")
    def test_spend_pool_is_deducted_and_logged(self):
        self.char2.sheet.save(make_sheet(splat="vampire", dexterity=2, wits=2, blood="5/10"))
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.assertIn("spends 1 Blood", self.player("+combat/spend blood 1").text)
        self.assertEqual(self.char2.sheet.get().pools["Blood"].current, 4)
        # PWR-01: a 13th-generation vampire spends one blood point a turn.
        self.assertIn("at most 1 Blood a turn", self.player("+combat/spend blood 1").text)
        self.assertEqual(self.char2.sheet.get().pools["Blood"].current, 4)
        self.assertEqual(dict(self.who("Char2").spending.value.spent), {"Blood": 1})
        spend = [r for r in self.log() if r["event"] == "spend"]
        self.assertEqual((spend[0]["pool"], spend[0]["amount"], spend[0]["left"]),
                         ("Blood", 1, 4))


class TestGearAndTemplates(EffectsTest):
    @pytest.mark.rule("ATK-05", "RNG-06")
    def test_gun_ammo_is_kept_between_turns_and_reload(self):
        self.char1.sheet.save(make_sheet(dexterity=3, wits=3, firearms=2))
        self.assertIn("Did you mean", self.cmd("+sheet/equip pistl, heavy").text)
        self.assertIn("now carry: Pistol, heavy", self.cmd("+sheet/equip pistol, heavy").text)
        self.to_act(char_action="attack Thug with pistol, heavy")
        self.assertIn("Pistol, heavy", self.cmd("+combat").text)
        # Dex 3 + Firearms 2 vs 6 [2 2 2 2 2]: a miss, but the round is spent.
        with self.dice(2, 2, 2, 2, 2):
            self.assertIn("6 round(s) left", self.cmd("+combat/act").text)
        self.assertEqual(self.who("Char").gear.weapon("Pistol, heavy").ammo, 6)
        self.player("+combat/act")
        self.cmd("+combat/act Thug")
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.cmd("+combat/declare reload")
        self.assertIn("7 round(s) ready", self.cmd("+combat/act").text)

    def test_templates_list_and_npc_from_template(self):
        self.cmd("+combat/start")
        self.assertIn("garou", self.cmd("+combat/templates").text)
        self.assertIn("Did you mean thug", self.cmd("+combat/npc Bob=thugg").text)
        self.assertIn("Wolf joins", self.cmd("+combat/npc Wolf=garou in crinos").text)
        wolf = next(o for o in self.room1.contents if o.key == "Wolf")
        sheet = wolf.sheet.get()
        self.assertEqual((sheet.race, sheet.form, sheet.pools["Rage"].current),
                         ("Garou", "Crinos", 5))
        self.cmd("+combat/npc Thug=thug")
        self.assertEqual(next(o for o in self.room1.contents if o.key == "Thug")
                         .sheet.get().weapons, ("Knife",))

    def test_sheet_gear_switches(self):
        self.assertIn("now carry: Knife", self.player("+sheet/equip knife").text)
        self.assertIn("already carry", self.player("+sheet/equip knife").text)
        self.assertIn("now wear: Kevlar vest", self.player("+sheet/armor kevlar").text)
        self.assertIn("only change your own", self.player("+sheet/equip Char/knife").text)
        self.assertIn("no weapons", self.player("+sheet/unequip knife").text)
        self.assertIn("no armor", self.player("+sheet/armor none").text)
        self.assertEqual((self.char2.sheet.get().weapons, self.char2.sheet.get().armor),
                         ((), ""))


class TestTemplatesValid(EffectsTest):
    def test_every_template_uses_known_traits_weapons_and_armor(self):
        from wodcombat.combat.core.maneuvers import tables
        from wodcombat.world import rulebook
        from wodcombat.world.prototypes import NPC_TEMPLATES

        rs = rulebook.get()
        t = tables(rs)
        for name, row in NPC_TEMPLATES.items():
            sheet = Sheet.from_dict(row["sheet"])
            for trait in sheet.traits:
                self.assertIn(trait, rs.traits.traits, name)
            for w in sheet.weapons:
                self.assertEqual(t.weapon(w).name, w)
            if sheet.armor:
                self.assertEqual(t.armor(sheet.armor).name, sheet.armor)


class TestQueryCounts(EffectsTest):
    @staticmethod
    def real(run):
        return [q["sql"] for q in run.queries if "SAVEPOINT" not in q["sql"].upper()]

    def test_act_at_most_4_declare_fewer(self):
        self.setup_fight()
        self.cmd("look")
        look = self.cmd("look")
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat")  # warm the caches (sheets, objects)
        declare = self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            act = self.cmd("+combat/act")
        self.assertIn("Thug takes 1 bashing", act.text)
        # Design card: at most 3 writes for an act that hurts one character, the log's row
        # included, and no reads. Measured: look 0, declare 2 (the state, the log row), act
        # 3 (the state, the hurt sheet, the log row).
        self.assertEqual(len(self.real(look)), 0)
        self.assertLessEqual(len(self.real(act)), 3, "\n".join(self.real(act)))
        self.assertLessEqual(len(self.real(declare)), 2, "\n".join(self.real(declare)))
        self.assertLess(len(self.real(declare)), len(self.real(act)),
                        "\n".join(self.real(declare)))
