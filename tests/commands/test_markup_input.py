"""A player's text never becomes markup on anyone's screen (issue 30, points 1 and 5).

Each payload is one an attacker typed on a running server: a nested link that survives
Evennia's one-pass strip of link markup, the ``|lu`` url form, colours and ``|/`` line
breaks in an NPC's name, a 3,000-character name, the same link split over two specialties.
Through the real command handler, as a plain player who organizes her own fight.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wodcombat.combat.core.errors import InputError
from wodcombat.combat.core.player_text import NAME_MAX, checked_name, plain_text
from tests.commands.test_combat import CombatTest
from wodcombat.typeclasses.combat import combat_in

NESTED = ('P11|lcA|lt|lc|le\\"+alert(document.domain)]);function Evennia(){}//'
          '|ltCLICK11|le')
URL = "P12|lujavascript:alert(document.cookie)|ltCLICK12|le"
COLOURS = "P6|rRED|/NL |[b|555x"
LONG = "R" * 3000


class TestNamesThroughCommands(CombatTest):
    def fight(self):
        self.assertIn("starts a fight", self.player("+combat/start").text)
        return len(self.state().combatants), self.room1.contents

    def test_markup_in_a_name_is_removed_on_the_way_in(self):
        self.fight()
        for typed, kept in ((NESTED, "P11CLICK11"), (URL, "P12CLICK12"),
                            (COLOURS, "P6REDNL x")):
            run = self.player(f"+combat/npc {typed}=thug")
            self.assertIn(f"{kept} joins the fight", run.text)
        names = [c.name for c in self.state().combatants]
        self.assertEqual(names[-3:], ["P11CLICK11", "P12CLICK12", "P6REDNL x"])
        self.assertEqual([n for n in names if "|" in n], [])
        keys = {o.key for o in self.room1.contents}
        self.assertLessEqual({"P11CLICK11", "P12CLICK12", "P6REDNL x"}, keys)

    def test_a_name_past_the_limit_or_the_character_set_is_refused_and_nothing_made(self):
        before, contents = self.fight()
        for name in (LONG, "Bad#1", "-Dash", "3 Rat#"):
            run = self.player(f"+combat/npc {name}=thug")
            self.assertIn("cannot be a name", run.text, name)
            self.assertIn(f"1 to {NAME_MAX} characters", run.text)
            self.assertLess(len(run.text), 300, "a refusal quotes the name cut short")
            self.assertEqual(len(self.state().combatants), before, name)
            self.assertEqual(self.room1.contents, contents, name)

    def test_a_comma_list_with_one_bad_name_makes_none(self):
        before, contents = self.fight()
        run = self.player("+combat/npc Good1,Good2,Bad#3=thug")
        self.assertIn("cannot be a name", run.text)
        self.assertEqual(len(self.state().combatants), before)
        self.assertEqual(self.room1.contents, contents)

    def test_a_plain_name_is_taken_with_its_spaces_made_single(self):
        self.fight()
        self.assertIn("Big Al joins", self.player("+combat/npc Big   Al=thug").text)
        self.assertIn("O'Neil-2 joins", self.player("+combat/npc O'Neil-2=thug").text)
        names = {c.name for c in self.state().combatants}
        self.assertLessEqual({"Big Al", "O'Neil-2"}, names)

    def test_the_service_checks_the_name_whoever_calls_it(self):
        from wodcombat.combat.core.sheet import Sheet
        from wodcombat.world import combat_service

        before, contents = self.fight()
        script = combat_in(self.room1)
        with self.assertRaises(InputError):
            combat_service.add_npc(script, NESTED, Sheet(), f"#{self.char2.id}", self.char2)
        self.assertEqual(len(self.state().combatants), before)
        self.assertEqual(self.room1.contents, contents)


class TestFreeTextThroughCommands(CombatTest):
    def test_a_link_split_over_two_specialties_is_stored_as_plain_text(self):
        self.player('+sheet/spec brawl=|lcA|lt|lc|le\\"+alert(document.cookie)]);/*')
        self.player("+sheet/spec dodge=*/function Evennia(){}//|ltSHEETCLICK|le")
        specs = dict(self.char2.sheet.get().specialties)
        self.assertEqual(set(specs), {"Brawl", "Dodge"})
        for text in specs.values():
            self.assertNotIn("|", text)
        self.assertEqual(specs["Dodge"], "*/function Evennia(){}//SHEETCLICK")

    def test_colours_and_line_breaks_are_dropped_from_a_specialty(self):
        run = self.player("+sheet/spec brawl=|rRed|/Kicks|n")
        self.assertIn("Brawl specialty set to 'RedKicks'", run.text)

    def test_a_specialty_over_its_length_is_refused_and_the_sheet_kept(self):
        self.player("+sheet/spec brawl=Kicks")
        run = self.player("+sheet/spec brawl=" + "K" * 3000)
        self.assertIn("at most 40 characters", run.text)
        self.assertEqual(self.char2.sheet.get().specialties["Brawl"], "Kicks")


# ---------------------------------------------------------------- the pure functions


def test_the_nested_link_leaves_only_its_visible_words():
    assert plain_text(NESTED) == "P11CLICK11"
    assert plain_text(URL) == "P12CLICK12"
    assert plain_text(COLOURS) == "P6REDNL x"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("|lcutexr/[=#05a ")), max_size=40))
def test_plain_text_is_a_fixed_point_with_no_markup_character(text):
    once = plain_text(text)
    assert "|" not in once
    assert plain_text(once) == once


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_a_name_taken_is_its_own_plain_text(text):
    try:
        name = checked_name(text)
    except InputError as err:
        assert "|" not in str(err).split("cannot be a name")[0]
        return
    assert plain_text(name) == name
    assert 1 <= len(name) <= NAME_MAX


class TestLongNumbers(CombatTest):
    """A run of thousands of digits (the fuzz test typed one at +combat/timeout) is refused
    by every WoD command before a switch reads it, with what to type: int() of over 4,300
    digits raises in Python 3.12+, which had answered "Something went wrong"."""

    def test_a_number_of_thousands_of_digits_is_refused_and_nothing_changes(self):
        self.assertIn("starts a fight", self.cmd("+combat/start").text)
        before = self.state().to_dict()
        huge = "9" * 5000
        for line in (f"+combat/timeout {huge}", f"+combat/init {huge}",
                     f"+combat/mod Char=blinded {huge}", f"+sheet/set dex={huge}",
                     f"+roll {huge}"):
            text = self.cmd(line).text
            self.assertIn("no number here runs past 15 digits", text, line)
            self.assertNotIn("went wrong", text, line)
        self.assertEqual(self.state().to_dict(), before)

    def test_a_fifteen_digit_number_still_reaches_the_command(self):
        text = self.cmd("+roll 123456789012345").text
        self.assertNotIn("runs past", text)
        self.assertNotIn("went wrong", text)
