"""Range between combatants is fight state (RNG-05): the organizer places two combatants,
moving toward or away changes it, and a shot reads it (point-blank, beyond normal range,
beyond the maximum); a close attack on someone out of reach loses the action instead of
stalling the turn. Set-up as in test_combat_gaps: Char acts first, Thug declares first."""

import pytest

from tests.commands.test_combat import make_sheet
from tests.commands.test_combat_effects import EffectsTest


class TestRange(EffectsTest):
    def gunman(self):
        """Char with a heavy pistol (normal range 30, maximum 60): Dex 3 + Firearms 2."""
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2,
                                         stamina=2, firearms=2))
        self.cmd("+sheet/equip pistol, heavy")
        self.setup_fight()

    def shoot_at(self, yards: int):
        self.assertIn(f"Char and Thug are now {yards} yards apart",
                      self.cmd(f"+combat/range Char/Thug={yards}").text)
        self.cmd("+combat/declare Thug=pass")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug with pistol, heavy")
        with self.dice(2, 2, 2, 2, 2):
            return self.cmd("+combat/act").text

    @pytest.mark.rule("RNG-05")
    def test_point_blank_within_two_yards(self):
        self.gunman()
        self.shoot_at(2)
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["difficulty"], 4)  # 6 - 2 point-blank
        self.assertIn({"reason": "point-blank", "difficulty": -2}, roll["modifiers"])

    @pytest.mark.rule("RNG-05")
    def test_beyond_normal_range_is_harder(self):
        self.gunman()
        self.shoot_at(40)
        roll = self.rolls("attack")[-1]
        self.assertEqual(roll["difficulty"], 8)  # 6 + 2 beyond 30 yards
        self.assertIn({"reason": "beyond normal range (30 yd)", "difficulty": 2},
                      roll["modifiers"])

    @pytest.mark.rule("RNG-05")
    def test_beyond_the_maximum_misses_without_a_roll(self):
        self.gunman()
        text = self.shoot_at(61)
        self.assertIn("beyond the Pistol, heavy's maximum of 60", text)
        self.assertIn("Miss.", text)
        self.assertEqual(self.rolls("attack"), [])

    @pytest.mark.rule("RNG-05", "MAN-03")
    def test_close_attack_out_of_reach_loses_the_action_and_the_turn_goes_on(self):
        self.setup_fight()
        self.cmd("+combat/range Char/Thug=5")
        self.cmd("+combat/declare Thug=pass")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare attack Thug")
        text = self.cmd("+combat/act").text
        self.assertIn("Char cannot attack Thug now", text)
        self.assertIn("Move closer first", text)
        self.assertNotIn("went wrong", text)
        self.assertEqual(self.state().turn, 2)  # nobody else had an action: next turn

    @pytest.mark.rule("RNG-05", "MAN-03")
    def test_moving_toward_someone_closes_the_range(self):
        self.setup_fight()
        self.cmd("+combat/range Char/Thug=5")
        self.cmd("+combat/declare Thug=move 3 away from Char")
        self.player("+combat/declare pass")
        self.cmd("+combat/declare move 7 toward Thug")
        self.assertIn("Char moves 7 yards toward Thug (now 0 yards apart)",
                      self.cmd("+combat/act").text)
        self.assertIn("Thug moves 3 yards away from Char (now 3 yards apart)",
                      self.cmd("+combat/act Thug").text)
        self.assertEqual(self.state().range_between(self.key("Char"), self.key("Thug"), 1), 3)
        self.assertIn("Char-Thug 3 yd", self.cmd("+combat").text)

    def test_bad_range_input_changes_nothing(self):
        self.setup_fight()
        before = self.state().to_dict()
        for line, want in (("+combat/range Char/Thug=far", "not a distance in yards"),
                           ("+combat/range Char=5", "+combat/range <a>/<b>"),
                           ("+combat/range Char/Char=5", "two different"),
                           # RNG-05: one band for everyone is spotlight's (SPOT-10)
                           ("+combat/range all=Hand", "place two at a time, in yards")):
            self.assertIn(want, self.cmd(line).text)
        self.assertIn("Only the organizer or staff", self.player("+combat/range Char/Thug=5").text)
        self.assertEqual(self.state().to_dict(), before)
