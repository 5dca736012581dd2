"""Found by playing the game over telnet (2026-12-02, branch play): each test replays what a
player typed and checks the reply. Rule IDs: ../shared/rules-catalog.md."""

import pytest

from tests.commands.test_combat import CombatTest
from tests.commands import test_combat_defenses as defenses
from tests.commands.test_combat_effects import EffectsTest


class TestDeclarationEcho(CombatTest):
    @pytest.mark.rule("TURN-02")
    def test_declaration_shows_location_position_and_willpower(self):
        """'+combat/declare attack Thug at head from flank wp' was echoed as 'attack Thug':
        the room (and the player) did not hear the targeting, the flank or the Willpower
        point, which TURN-02 says is declared."""
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge wp")
        text = self.cmd("+combat/declare attack Thug at head from flank wp").text
        self.assertIn("Char declares: attack Thug at head from flank (Willpower).", text)
        status = self.cmd("+combat").text
        self.assertIn("dodge (Willpower)", status)
        self.assertIn("from flank (Willpower)", status)  # wrapped under the name


class TestDefenseRefusalNarrated(EffectsTest):
    arm = defenses.TestRefusedDefenses.arm
    attack_into = defenses.TestRefusedDefenses.attack_into

    @pytest.mark.rule("DEF-01", "DMG-16")
    def test_a_useless_block_is_told_about_the_defender(self):
        """The room heard "Thug2's block does not work against this attack: You can't block
        lethal damage you cannot soak." - 'You' addressed everyone watching."""
        self.arm(char_weapon="knife")
        text = self.attack_into("block", "knife")
        self.assertIn("Thug's block does not work against this attack: Thug can't block "
                      "lethal damage they", text)
        self.assertNotIn("You can't", text)
