"""Found by playing the game over telnet (2026-12-02, branch play): each test replays what a
player typed and checks the reply. Rule IDs: ../shared/rules-catalog.md."""

import pytest

from tests.commands.test_combat import CombatTest


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
