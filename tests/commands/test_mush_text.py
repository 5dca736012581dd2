"""Text for a MUSH client (issue 11): what a player reads fits 78 columns and wraps on
words, names no rule IDs or source documents, speaks to the reader as "you", arrives in the
order things happened under one prefix; the syntax traps answer with what to type.

Widths are measured on what reaches the session (after ``world/text_width.fit``, which
every ``msg`` passes through), colour codes stripped. Rule IDs: ../shared/rules-catalog.md.
"""

import re

import evennia
import pytest
from evennia.utils import ansi

from commands.default_cmdsets import AccountCmdSet, CharacterCmdSet
from tests.commands.test_combat import CombatTest, make_sheet
from tests.commands.test_combat_effects import EffectsTest
from tests.helpers import capture_msgs
from wodcombat.world.combat_text import second_person
from wodcombat.world.text_width import fit, visible_len, wrap

RULE_ID = re.compile(r"\b[A-Z]{3,5}-\d{2}\b")
SEED = re.compile(r"\bseed \d{3}")


def sent_text() -> str:
    """Everything sent to any session since the last reset, as the client shows it."""
    out = []
    for call in evennia.SESSION_HANDLER.data_out.call_args_list:
        text = call.kwargs.get("text")
        if isinstance(text, (tuple, list)):
            text = text[0] if text else None
        if text is not None:
            out.append(ansi.parse_ansi(str(text), strip_ansi=True))
    return "\n".join(out)


class SessionTextTest(EffectsTest):
    def shown(self, line: str, caller=None) -> str:
        """What ``caller``'s client shows for ``line`` (only char1 has a session)."""
        evennia.SESSION_HANDLER.data_out.reset_mock()
        (caller or self.char1).execute_cmd(line, session=self.session)
        return sent_text()

    def assert_fits(self, text: str, what: str) -> None:
        wide = [line for line in text.splitlines() if len(line) > 78]
        self.assertEqual(wide, [], f"{what}: lines wider than 78 columns")

    def assert_no_rule_names(self, text: str, what: str) -> None:
        self.assertEqual(RULE_ID.findall(text) + SEED.findall(text), [], what)


class TestWidth(SessionTextTest):
    def test_every_help_entry_fits_and_player_help_names_no_rules(self):
        """Every command's help (character and account command sets), every file help
        entry, and the help index: at most 78 columns. Help a plain player can read names
        no rule IDs or seed documents."""
        from evennia.help.filehelp import FILE_HELP_ENTRIES

        cmds = []
        for cmdset_class in (CharacterCmdSet, AccountCmdSet):
            cmdset = cmdset_class()
            cmdset.at_cmdset_creation()
            cmds += [c for c in cmdset.commands if getattr(c, "auto_help", True)]
        keys = {c.key: c for c in cmds}
        entries = [e.key for e in FILE_HELP_ENTRIES.all()]
        self.assertIn("+combat", keys)
        for key in ["", *keys, *entries]:
            text = self.shown(f"help {key}".strip())
            self.assertTrue(text.strip(), key)
            self.assert_fits(text, f"help {key}")
            cmd = keys.get(key)
            if cmd is not None and cmd.access(self.char2, "cmd"):
                self.assert_no_rule_names(text, f"help {key}")

    def test_main_outputs_fit(self):
        """+combat, +combat/log, +sheet, +rules (and /list, /weapons, /armor), +roll and the
        error replies of issue 11, through the session."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2,
                                         stamina=2, melee=2))
        self.to_act(char_action="attack Thug as sweep; attack Thug; dodge")
        with self.dice(*[8] * 60):
            self.cmd("+combat/act")
        seen = []
        for line in ("+combat", "+combat/log 50", "+sheet", "+rules", "+rules/list",
                     "+rules/weapons", "+rules/armor", "+roll dex+brawl vs 7",
                     "+combat/atack", "+combat/declare attack", "+combat/mod Thug=sleepy",
                     "+sheet/set splat=werewolff", "+combat/templates", "+combat/fights"):
            text = self.shown(line)
            self.assertTrue(text.strip(), line)
            self.assert_fits(text, line)
            self.assert_no_rule_names(text, line)
            seen.append(text)
        # +rules/list wraps a description under itself instead of cutting it mid-word.
        listing = seen[4]
        self.assertIn("NuMetal house rules over the 20th-anniversary\n", listing)
        self.assertIn("books (V20/W20/M20/C20); the default", listing)
        self.assertRegex(listing, r"\n {33}\S")

    def test_status_rows_wrap_under_the_name(self):
        self.to_act(char_action="attack Thug as sweep; attack Thug; attack Thug as kick")
        text = self.shown("+combat")
        self.assert_fits(text, "+combat")
        self.assertRegex(text, r"\n {6}\S")  # the declaration goes on under the name


class TestWrap(CombatTest):
    def test_wrap_breaks_on_words_and_keeps_short_lines(self):
        line = "  Thug attack: Dexterity 2 + Brawl 2, wounds (Mauled) -2 dice, 2 opponents " \
               "+1 diff = 2 vs 7: [8 8] => 2 successes"
        out = wrap(line)
        self.assertEqual(out[0], "  Thug attack: Dexterity 2 + Brawl 2, wounds (Mauled) -2 "
                                 "dice, 2 opponents +1")
        self.assertTrue(out[1].startswith("    diff = 2"))
        self.assertEqual(" ".join(p.strip() for p in out), line.strip())
        aligned = " 11  Char                    Healthy"
        self.assertEqual(fit(aligned), aligned)  # columns keep their spaces

    def test_python_console_output_keeps_its_lines(self):
        from wodcombat.world.text_width import fit_message

        long = "FAULTCHECK " + "x " * 60
        self.assertEqual(fit_message((long, {"type": "py_output"})), (long, {"type":
                                                                            "py_output"}))
        self.assertNotEqual(fit_message((long, {"type": "say"}))[0], long)

    def test_colour_codes_take_no_room(self):
        line = " ".join(["|wword|n"] * 15)  # 74 visible columns, 134 characters
        self.assertEqual(visible_len(line), 74)
        self.assertEqual(wrap(line), [line])
        self.assertEqual(visible_len("a||b |lchelp x|lthelp x|le"), 10)


class TestNoRuleNames(EffectsTest):
    @pytest.mark.rule("PWR-01")
    def test_a_refusal_names_no_rule_or_seed(self):
        """A spending cap's refusal used to end "(PWR-01, seed 000)"."""
        self.char1.sheet.save(make_sheet(dexterity=3, wits=3, brawl=2, stamina=2)
                              .set(self.rs_traits(), "splat", "vampire")[0])
        self.setup_fight()
        self.cmd("+combat/declare Thug=other waits")
        self.player("+combat/declare other waits")
        text = self.cmd("+combat/declare spend blood 9; attack Thug").text
        self.assertIn("a turn", text)
        self.assertEqual(RULE_ID.findall(text) + SEED.findall(text), [], text)

    def rs_traits(self):
        from wodcombat.world import rulebook

        return rulebook.get().traits


class TestSecondPersonAndOrder(EffectsTest):
    @pytest.mark.rule("TURN-04")
    def test_refusal_speaks_to_the_player(self):
        self.setup_fight()
        text = self.player("+combat/delay").text
        self.assertIn("You can delay only when it is your turn to act", text)
        self.assertNotIn("Char2", text)
        self.assertIn("Not your turn to declare", self.player("+combat/dodge").text)

    @pytest.mark.rule("CLOSE-10")
    def test_maneuver_names_are_words(self):
        """"Mara attacks Rat1 (weapon_strike, Knife)" showed the rules table's key."""
        self.cmd("+sheet/equip knife")
        self.setup_fight()
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/declare other waits")
        self.assertIn("attack Thug with Knife as weapon strike",
                      self.cmd("+combat/declare attack Thug with knife as weapon strike").text)
        text = self.cmd("+combat/act").text
        self.assertIn("attacks Thug (weapon strike, Knife)", text)
        self.assertNotIn("_", text)

    @pytest.mark.rule("COMP-02")
    def test_a_second_verb_agrees_with_you(self):
        """"You are dazed and loses all actions" was said to a dazed player."""
        self.setup_fight()
        said = self.cmd("+combat/mod Char2=dazed").text  # COMP-02: loses turn 2's actions
        self.assertIn("Char2 is dazed (turn", said)
        self.assertNotIn("..", said)
        self.cmd("+combat/declare Thug=dodge")
        self.player("+combat/declare dodge")
        self.cmd("+combat/declare dodge")  # turn 1 ends: nobody attacked
        self.cmd("+combat/declare Thug=dodge")
        text = self.player("+combat/declare attack Thug").text
        self.assertIn("You are dazed and lose all actions this turn", text)
        self.assertNotIn("loses", text)
        self.assertEqual(second_person("Bob is dazed and incapacitated and loses all actions "
                                       "this turn.", "Bob"),
                         "You are dazed and incapacitated and lose all actions this turn.")

    @pytest.mark.rule("TURN-01", "TURN-03")
    def test_everyone_declared_and_acted_come_after_the_last_one(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        with capture_msgs(self.char1) as seen:
            self.cmd("+combat/declare attack Thug")
        heard = "\n".join(seen[self.char1])
        declared = heard.index("Char declares: attack Thug")
        everyone = heard.index("Everyone has declared")
        self.assertLess(declared, everyone)
        self.assertLess(everyone, heard.index("Your turn to act"))
        self.assertIn("[Combat] Turn 1: act phase.", heard)  # the phase line's own prefix
        with self.dice(8, 8, 2, 2, 2, 2, 2, 2, 2, *[2] * 20):  # Char 11, Char2 7, Thug 5
            self.cmd("+combat/act")
            self.player("+combat/act")
            with capture_msgs(self.char1) as seen:
                self.cmd("+combat/act Thug")
        heard = "\n".join(seen[self.char1])
        self.assertLess(heard.index("Thug acts: growls"),
                        heard.index("Everyone has acted in turn 1"))
        for line in heard.splitlines():
            if line.strip() and not line.startswith(" "):
                self.assertTrue(line.startswith("[Combat] "), line)


class TestSyntaxTraps(EffectsTest):
    @pytest.mark.rule("TURN-05")
    def test_start_equals_simple_is_the_default_ruleset_in_simple_mode(self):
        self.assertIn("starts a fight (numetal, simple", self.cmd("+combat/start=simple").text)
        self.assertEqual(self.state().options.mode, "simple")

    @pytest.mark.rule("TURN-05")
    def test_start_simple_without_equals(self):
        self.assertIn("starts a fight (numetal, simple", self.cmd("+combat/start simple").text)

    def test_declare_attack_without_target_says_whom(self):
        self.setup_fight()
        text = self.cmd("+combat/declare Thug=attack").text
        self.assertIn("Attack whom?", text)
        self.assertNotIn("Usage:", text)
        self.assertIn("Attack whom?", self.cmd("+combat/attack").text)

    def test_unknown_switch_suggests_the_closest(self):
        text = self.cmd("+combat/atack Thug").text
        self.assertIn("Did you mean /attack", text)
        self.assertIn("Did you mean /templates?", self.cmd("+combat/tempaltes").text)
        self.assertIn("Did you mean /weapons?", self.cmd("+rules/weapns").text)

    @pytest.mark.rule("COMP-04")
    def test_mod_refuses_unknown_conditions_with_the_list(self):
        self.setup_fight()
        for bad in ("sleepy", 'prone";;;'):
            text = self.cmd(f"+combat/mod Thug={bad}").text
            self.assertIn("is not a condition here", text)
            self.assertIn("prone", text)
            self.assertEqual(self.who("Thug").conditions, ())
        self.assertIn("Thug is knocked_down", self.cmd("+combat/mod Thug=knocked down").text)
        self.assertIn("Thug is heightened senses",
                      self.cmd("+combat/mod Thug=Heightened Senses").text)

    def test_splat_aliases(self):
        for typed, splat, race in (("werewolf", "shifter", "Garou"), ("garou", "shifter",
                                   "Garou"), ("kindred", "vampire", ""),
                                   ("fae", "changeling", ""), ("werespider", "ananasi",
                                                               "Ananasi")):
            self.assertIn(f"splat set to {splat}", self.cmd(f"+sheet/set splat={typed}").text)
            sheet = self.char1.sheet.get()
            self.assertEqual((sheet.splat, sheet.race), (splat, race), typed)
        self.assertIn("Did you mean werewolf?", self.cmd("+sheet/set splat=werewolff").text)

    @pytest.mark.rule("MAN-05")
    def test_split_leaving_no_dice_warns(self):
        """Char2: Dex 2 + Dodge 1 = 3; four actions: the dodge gets -4 (MAN-05)."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        text = self.player("+combat/declare dodge; attack Thug; attack Thug; attack Thug").text
        self.assertIn("the split leaves Char2's dodge with no dice (3 dice, -4 for the split)",
                      text)
        self.assertIn("the split leaves Char2's attack with no dice", text)

    @pytest.mark.rule("MAN-05")
    def test_split_with_dice_left_says_nothing(self):
        """Char: attack Dex 3 + Brawl 2 = 5 at -2, dodge Dex 3 + Dodge 2 = 5 at -3."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2,
                                         stamina=2, dodge=2))
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        self.player("+combat/declare other waits")
        self.assertNotIn("Warning", self.cmd("+combat/declare attack Thug; dodge").text)

    @pytest.mark.rule("DEF-02", "TURN-08")
    def test_a_defense_that_takes_the_action_says_so(self):
        self.setup_fight()
        self.cmd("+combat/declare Thug=other growls")
        text = self.player("+combat/declare dodge").text
        self.assertIn("Char2 declares: dodge (this takes the turn's action: no attack)", text)
        self.cmd("+combat/declare attack Thug")
        text = self.cmd("+combat/abort dodge/wp").text
        self.assertIn("it takes the place of the declared attack Thug", text)


class TestLimbo(CombatTest):
    def test_limbo_text_is_the_games_own(self):
        from evennia.objects.models import ObjectDB

        from server.conf.at_initial_setup import LIMBO_DESC, at_initial_setup

        for word in ("help", "+sheet", "+combat", "+roll", "+rules"):
            self.assertIn(word, LIMBO_DESC)
        self.assertLessEqual(max(visible_len(x) for x in LIMBO_DESC.splitlines()), 78)
        limbo = ObjectDB.objects.filter(id=2).first()
        if limbo is None:
            pytest.skip("no #2 in this test database")
        at_initial_setup()
        limbo = ObjectDB.objects.get(id=2)
        self.assertEqual(limbo.db.desc, LIMBO_DESC)
        self.assertNotIn("Evennia", limbo.db.desc)

    def test_a_character_nobody_played_yet_is_not_listed_in_limbo(self):
        """Issue 28: Limbo listed "Characters: admin" before the admin ever logged in.
        The first start stows the superuser's character as Evennia stows one whose player
        left; its player's first login brings it back (Char2 stands in for #1 here: in the
        test database #1 is a room, which the hook leaves alone)."""
        from server.conf.at_initial_setup import at_initial_setup, stow_unplayed

        self.assertIn("Char2", self.room1.return_appearance(self.char1))
        self.assertTrue(stow_unplayed(self.char2))
        self.assertIsNone(self.char2.location)
        self.assertNotIn("Char2", self.room1.return_appearance(self.char1))
        self.char2.at_pre_puppet(self.char2.account)  # its player logs in
        self.assertEqual(self.char2.location, self.room1)
        self.assertFalse(stow_unplayed(self.char1))  # played now (it has a session): kept
        self.assertEqual(self.char1.location, self.room1)
        at_initial_setup()
        self.assertIsNone(self.room1.location)  # #1 is no character here: untouched
