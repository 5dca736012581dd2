"""A typo gets "Did you mean ...?" wherever it is typed: switches, traits, templates and
(issue 28) the action of a declaration, all from one helper (combat/core/player_text.py)."""

import pytest

from tests.commands.test_combat import CombatTest
from wodcombat.combat.core.errors import InputError
from wodcombat.combat.core.player_text import did_you_mean
from wodcombat.commands.combat_declare import ACTION_WORDS, DeclarationParser
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import rulebook


class TestActionTypo(CombatTest):
    @pytest.mark.rule("TURN-01")
    def test_a_misspelt_action_is_answered_with_the_closest(self):
        self.setup_fight()
        before = combat_in(self.room1).attributes.get("state")
        text = self.player("+combat/declare attak Thug").text
        self.assertIn("'attak' is not an action. Did you mean attack?", text)
        self.assertIn("Actions: attack <target>", text)  # and what there is, as before
        self.assertIn("help +combat/declare", " ".join(text.split()))
        self.assertEqual(combat_in(self.room1).attributes.get("state"), before)
        self.assertNotIn("Did you mean", self.player("+combat/declare fly away").text)

    def test_a_misspelt_switch_still_gets_its_hint(self):
        self.assertIn("Did you mean /attack or /watch or /stake?",
                      self.cmd("+combat/atack Thug").text)
        # an alias is named as the switch it stands for: /pending -> /slackers
        self.assertIn("Did you mean /slackers or", self.cmd("+combat/pendng").text)


def test_every_action_word_is_one_the_parser_knows():
    """The words a typo is matched against are the parser's own: none is refused as not
    an action (each may still want more words after it)."""
    parser = DeclarationParser(rulebook.get(), lambda name: name.strip())
    for word in ACTION_WORDS:
        try:
            parser.parse(word)
        except InputError as err:
            assert "is not an action" not in str(err), word


def test_the_hint_names_each_choice_once_as_typed():
    assert did_you_mean("atack", ["attack", "atk"], show=lambda n: "/attack") == (
        " Did you mean /attack?")
    assert did_you_mean("zzz", ["attack"]) == ""
