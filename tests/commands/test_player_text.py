"""Player text names no rules (issue 11): refusals and the room's lines carry no catalog
IDs such as TURN-01 (the log, the YAML and the staff help keep them)."""

import re

from tests.commands.test_combat_effects import EffectsTest

RULE_ID = re.compile(r"\b[A-Z]{2,5}-\d{2}\b")


class TestNoRuleIds(EffectsTest):
    def test_refusals_and_room_text_carry_no_rule_ids(self):
        seen = []
        self.setup_fight()
        for line in ("+combat/act", "+combat/declare attack Thug as claw",
                     "+combat/declare attack Thug moving 99", "+combat/delay"):
            seen.append(self.cmd(line).text)
        self.cmd("+combat/declare Thug=attack Char2 as sweep")
        seen.append(self.player("+combat/declare dodge").text)
        seen.append(self.cmd("+combat/declare attack Thug as tackle").text)
        with self.dice(*[8] * 30):
            seen.append(self.cmd("+combat/act").text)
            seen.append(self.cmd("+combat/act Thug").text)
        text = "\n".join(seen)
        self.assertIn("Nobody acts until everyone has declared", text)
        self.assertEqual(RULE_ID.findall(text), [], text)
