"""+combat under the spotlight engine (seed 004, SPOT-01..14) through Evennia's real command
handler, with exact dice (FixedDice).

char1 (staff) organizes; char2 is a plain player; "Thug" and "Boss" are opponents the
organizer creates. Initiative is 2d6 + the higher of Wits / Blood Potency (the YAML
default); the attack roll is the YAML house default of combat/spotlight/attack.py.
"""

import re
from unittest import mock

import pytest
from evennia.utils.test_resources import EvenniaCommandTest

from wodcombat.combat.core.sheet import Sheet
from wodcombat.commands.base import WodCommand
from tests.fixed_dice import FixedDice
from tests.helpers import capture_msgs, run_command
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, rulebook


def spot_sheet(**traits):
    cat = rulebook.get("spotlight").traits
    sheet = Sheet().with_pools_for(cat)
    for name, value in traits.items():
        sheet, _ = sheet.set(cat, name.replace("_", " "), str(value))
    return sheet.with_pools_for(cat)


class SpotTest(EvenniaCommandTest):
    def setUp(self):
        super().setUp()
        # char1: Wits 3, Str 3, Brawl 2, Dex 2, Melee 1 (a mortal: 6 HP by default).
        self.char1.sheet.save(spot_sheet(wits=3, strength=3, brawl=2, dexterity=2, melee=1))
        # char2: a vampire, Blood Potency 2 (9 HP, Final Death at 5 Aggravated), Wits 1.
        self.char2.sheet.save(spot_sheet(splat="vampire", wits=1, blood_potency=2))

    def tearDown(self):
        script = combat_in(self.room1)
        if script:
            combatlog.forget(script.combat_id)
        super().tearDown()

    def cmd(self, line, caller=None):
        caller = caller or self.char1
        return run_command(caller, line, session=self.session if caller == self.char1 else None)

    def player(self, line):
        return self.cmd(line, caller=self.char2)

    def dice(self, *faces):
        return mock.patch.object(WodCommand, "rng", FixedDice(*faces))

    def state(self):
        return combat_in(self.room1).get_state()

    def fighter(self, name):
        return next(c for c in self.state().combatants if c.name == name)

    def log(self):
        return combatlog.read(combat_in(self.room1).combat_id)

    def setup_fight(self, thug="thug", first=(4, 5), second=(1, 2)):
        """Start, join, one opponent, both PCs roll: Char 3 + [4 5] = 12, Char2 2 + [1 2] = 5
        (Blood Potency 2 beats Wits 1: SPOT-01)."""
        out = self.cmd("+combat/start spotlight").text
        self.assertIn("starts a fight (spotlight, spotlight engine)", out)
        self.cmd("+combat/join")  # the organizer fights too: a PC only by /join (issue 10)
        self.player("+combat/join")
        self.assertIn("Thug joins", self.cmd(f"+combat/npc Thug={thug}").text)
        with self.dice(*first):
            self.assertIn("= 12", self.cmd("+combat/init").text)
        with self.dice(*second):
            self.player("+combat/init")


class TestInitiativeAndShow(SpotTest):
    @pytest.mark.rule("SPOT-01", "SPOT-02", "SPOT-10", "SPOT-13")
    def test_only_pcs_roll_and_order_is_shown_highest_first(self):
        """SPOT-01: 2d6 + the higher of Wits / Blood Potency; opponents never roll.
        SPOT-02: +combat shows the order highest first, HP tracks and the range bands."""
        self.setup_fight()
        st = self.state()
        self.assertEqual([c.init_total for c in st.combatants], [12, 5, None])
        c2 = self.fighter("Char2")
        self.assertEqual((c2.init_trait, c2.init_bonus, c2.init_faces), ("Blood Potency", 2,
                                                                           (1, 2)))
        # SPOT-13: BP 2 -> 9 HP, Final Death at 5 Aggravated; a mortal has the default 6.
        self.assertEqual((c2.hp_max, c2.final_death_at), (9, 5))
        self.assertEqual(self.fighter("Char").hp_max, 6)
        out = self.cmd("+combat/init Thug").text
        self.assertIn("Opponents don't roll initiative", out)
        self.assertIn("Opponents don't roll initiative", self.cmd("+combat/init Thug=4").text)
        self.assertIsNone(self.fighter("Thug").init_total)
        show = self.cmd("+combat").text
        self.assertIn("Order (highest first): Char 12, Char2 5", show)
        self.assertIn("Superficial", show)
        self.assertIn("Aggravated", show)
        self.assertRegex(show, r"Char2\s+PC\s+5\s+9/9")
        self.assertIn("Char-Thug Close", show)  # SPOT-10: the YAML default band
        inits = [r for r in self.log() if r["event"] == "initiative"]
        self.assertEqual([r["total"] for r in inits], [12, 5])
        self.assertEqual(inits[0]["faces"], [4, 5])

    @pytest.mark.rule("SPOT-01", "SPOT-02")
    def test_the_table_is_in_initiative_order_and_says_what_npc_n_m_is(self):
        """Issue 28: the rows came in the order of joining, and "NPC 0/1" was unexplained."""
        self.cmd("+combat/start spotlight")
        self.cmd("+combat/join")
        self.player("+combat/join")
        self.cmd("+combat/npc Thug=thug")
        with self.dice(1, 1):
            self.cmd("+combat/init")  # Char 3 + [1 1] = 5
        with self.dice(6, 6):
            self.player("+combat/init")  # Char2 2 + [6 6] = 14
        show = self.cmd("+combat").text
        self.assertIn("Order (highest first): Char2 14, Char 5", show)
        rows = [ln.split()[0] for ln in show.splitlines()
                if re.match(r" (Char2|Char|Thug) ", ln)]
        self.assertEqual(rows, ["Char2", "Char", "Thug"])
        self.assertIn("NPC n/m: the turns an NPC has taken this round, of the m it gets.",
                      show)

    @pytest.mark.rule("SPOT-01")
    def test_rolling_twice_is_refused(self):
        self.setup_fight()
        out = self.cmd("+combat/init").text
        self.assertIn("already rolled initiative 12", out)
        self.assertEqual(self.fighter("Char").init_total, 12)


class TestTheRound(SpotTest):
    @pytest.mark.rule("SPOT-04", "SPOT-05", "SPOT-06")
    def test_alternation_storyteller_picks_and_new_round(self):
        """A PC acts, the Storyteller picks an opponent; an opponent with two turns a round
        (SPOT-05) acts again after the PCs (SPOT-06); then round 2 from the top."""
        self.setup_fight(thug="thug,actions=2")
        self.assertEqual(self.fighter("Thug").actions_per_round, 2)
        out = self.cmd("+combat/next").text
        self.assertIn("Round 1 begins", out)
        self.assertEqual(self.state().holder, (self.fighter("Char").key,))
        # A PC can't be picked, and an opponent only after the PC's turn (SPOT-04).
        self.assertIn("You have the spotlight", self.cmd("+combat/next Thug").text)
        self.cmd("+combat/done")
        self.assertTrue(self.state().picking)
        self.assertIn("PCs act in initiative order", self.cmd("+combat/next Char2").text)
        self.assertIn("The spotlight is on Thug", self.cmd("+combat/next Thug").text)
        self.cmd("+combat/done")  # the organizer ends the opponent's turn it holds
        self.assertEqual(self.state().holder, (self.fighter("Char2").key,))
        self.player("+combat/done")  # the last PC: on to the closing part (issue 10)
        self.assertEqual(self.state().stage, "closing")
        self.cmd("+combat/next Thug")  # its second turn this round (SPOT-05)
        self.assertEqual(self.fighter("Thug").turns, 2)
        self.assertEqual(self.state().round, 1)
        out = self.cmd("+combat/done").text
        self.assertIn("Round 2 begins", out)  # SPOT-06: no opponent turn left: from the top
        self.assertEqual(self.state().holder, (self.fighter("Char").key,))
        rounds = [r for r in self.log() if r["event"] == "round"]
        self.assertEqual([r["turn"] for r in rounds], [1, 2])

    @pytest.mark.rule("SPOT-07")
    def test_next_from_an_organizer_holding_the_spotlight_is_refused(self):
        """Issue 28: the organizer who also plays typed +combat/next on her own turn and it
        ended; it is refused, naming /done, and changes nothing."""
        self.setup_fight()
        self.cmd("+combat/next")  # round 1: Char (the organizer's PC) has the spotlight
        before = combat_in(self.room1).attributes.get("state")
        text = self.cmd("+combat/next").text
        self.assertIn("The spotlight is yours", text)
        self.assertIn("+combat/done", text)
        self.assertEqual(combat_in(self.room1).attributes.get("state"), before)
        self.cmd("+combat/done")
        self.assertTrue(self.state().picking)  # her turn ended by /done, as before
        # the table says who is waited for as the players are told it: nobody holds it
        self.assertIn(" Now: the organizer picks an opponent (Thug) or passes; the spotlight "
                      "is with nobody", self.player("+combat").text)
        self.cmd("+combat/next")  # now the Storyteller's pass of the pick: on to Char2
        self.assertEqual(self.state().holder, (self.fighter("Char2").key,))

    @pytest.mark.rule("SPOT-03")
    def test_tied_pcs_act_together_until_they_swap(self):
        self.setup_fight(first=(4, 5), second=(5, 5))  # Char 3+9 = 12, Char2 2+10 = 12
        self.assertEqual(len(self.state().order), 1)  # one simultaneous slot
        self.assertIn("Char = Char2 12", self.cmd("+combat").text)
        self.assertIn("Only the tied players", run_command(
            self.char2, "+combat/swap Char=Char2").text + "Only the tied players")
        out = self.player("+combat/swap Char2=Char").text
        self.assertIn("Char2 goes before Char", out)
        st = self.state()
        self.assertEqual([len(s) for s in st.order], [1, 1])
        self.assertEqual(st.order[0], (self.fighter("Char2").key,))

    @pytest.mark.rule("SPOT-08")
    def test_opponents_ambush_act_first_for_one_round(self):
        self.setup_fight()
        self.assertIn("opponents get the drop in round 1", self.cmd("+combat/ambush npcs").text)
        self.cmd("+combat/next")
        st = self.state()
        self.assertEqual((st.round, st.stage), (1, "opening"))
        self.cmd("+combat/next Thug")
        self.cmd("+combat/done")
        self.assertEqual(self.state().holder, (self.fighter("Char").key,))

    @pytest.mark.rule("SPOT-08")
    def test_pcs_ambush_every_pc_before_any_opponent(self):
        self.setup_fight()
        self.cmd("+combat/ambush pcs")
        self.cmd("+combat/next")
        self.cmd("+combat/done")
        # No pick between PC slots: Char2 has the spotlight straight away.
        self.assertEqual(self.state().holder, (self.fighter("Char2").key,))
        self.player("+combat/done")
        self.assertEqual(self.state().stage, "closing")  # the opponents come after every PC
        self.assertEqual(self.fighter("Thug").turns, 0)

    @pytest.mark.rule("SPOT-09")
    def test_environment_event_is_announced_and_logged(self):
        self.setup_fight()
        self.cmd("+combat/next")
        out = self.cmd("+combat/event The floor gives way").text
        self.assertIn("Environment: The floor gives way", out)
        rec = [r for r in self.log() if r["event"] == "event"][-1]
        self.assertEqual(rec["text"], "The floor gives way")
        for field in ("seq", "ts", "combat", "ruleset", "turn", "phase"):
            self.assertIn(field, rec)
        self.assertEqual((rec["ruleset"], rec["turn"], rec["phase"]), ("spotlight", 1, "pcs"))
        self.assertIn("Only the organizer", self.player("+combat/event boom").text)


class TestTurnRangesAndHarm(SpotTest):
    @pytest.mark.rule("SPOT-10")
    def test_everyone_at_hand_for_a_brawl_joiners_too(self):
        """Issue 28: everyone starts at Close, so every first blow was refused; the organizer
        sets one band for all pairs, and those who join later share it."""
        self.setup_fight()
        self.assertIn("Only the organizer", self.player("+combat/range all=Hand").text)
        before = combat_in(self.room1).attributes.get("state")
        self.assertIn("'Nowhere' is not a range. Ranges: Intimate, Hand, Close, Far, Distant.",
                      self.cmd("+combat/range all=Nowhere").text)
        self.assertEqual(combat_in(self.room1).attributes.get("state"), before)
        self.cmd("+combat/range Char/Thug=Far")
        out = self.cmd("+combat/range all=Hand").text
        self.assertIn("Everyone is now at Hand range from everyone else", out)
        self.cmd("+combat/npc Goon=thug")
        sp_state = self.state()
        self.assertEqual(sp_state.ranges, ())  # the pair placed before is placed again
        self.assertEqual(sp_state.options.band, 1)  # Intimate, Hand, ...
        self.cmd("+combat/next")
        # within reach of a fist at once; Goon fights back with his knife (V5, issue 31)
        with self.dice(8, 6, 3, 1, 10, 2, 3, 4, 2):
            self.assertIn("Goon takes", self.cmd("+combat/act attack Goon").text)
        self.assertEqual(self.state().options.band, 1)  # as stored, read back

    @pytest.mark.rule("SPOT-07", "SPOT-10", "SPOT-11")
    def test_range_checked_move_one_step_attack_marks_harm(self):
        self.setup_fight()
        self.cmd("+combat/next")
        # Close (the default) is out of reach of a fist: refused, nothing changes.
        out = self.cmd("+combat/act attack Thug").text
        self.assertIn("Thug is at Close; unarmed reaches Intimate to Hand", out)
        self.assertIn("+combat/move Thug=closer).", " ".join(out.split()))  # a PC's own form
        self.assertEqual(self.fighter("Char").actions, 0)
        self.assertIn("moves from Close to Hand of Thug", self.cmd("+combat/move Thug=closer").text)
        self.assertIn("one range step", self.cmd("+combat/move Thug=closer").text)  # SPOT-07
        # V5: Str 3 + Brawl 2 = [8 6 3 1 10] -> 3 successes (the 1 cancels nothing) against
        # Thug fighting back with his knife (issue 31, V5 close combat: Dex 2 + Melee 2 beats
        # his dodge's 3 dice) [2 3 4 2] -> 0: margin 3 + fists 0 = 3 Superficial.
        with self.dice(8, 6, 3, 1, 10, 2, 3, 4, 2):
            out = self.cmd("+combat/act attack Thug").text
        self.assertIn("[8 6 3 1 10] => 3 successes, win", out)
        self.assertIn("Thug fights back: Dexterity 2 + Melee 2 = 4 dice: [2 3 4 2]", out)
        self.assertIn("Thug takes 3 superficial harm: HP 6 -> 3/6", out)
        thug = self.fighter("Thug")
        self.assertEqual((thug.superficial, thug.aggravated), (3, 0))
        self.assertIn("You have taken this turn's action",
                      self.cmd("+combat/act attack Thug").text)
        log = self.log()
        kinds = [r["event"] for r in log]
        for k in ("act", "roll", "harm", "move", "spotlight", "round", "initiative"):
            self.assertIn(k, kinds)
        seqs = [r["seq"] for r in log]
        self.assertEqual(seqs, list(range(1, len(seqs) + 1)))
        harm = [r for r in log if r["event"] == "harm"][0]
        self.assertEqual((harm["target"], harm["kind"], harm["hp_after"]),
                         (thug.key, "superficial", 3))

    @pytest.mark.rule("SPOT-10", "SPOT-11")
    def test_bite_needs_intimate_and_a_mortals_bite_is_superficial(self):
        self.setup_fight()
        self.cmd("+combat/range Char/Thug=Intimate")
        self.cmd("+combat/next")
        self.cmd("+combat/free draws a breath")
        self.assertIn("taken this turn's free action", self.cmd("+combat/free again").text)
        # bite row: Str 3 + Brawl 2 [6 6 2 2 2] = 2 against Thug fighting back with his knife
        # [1 1 1 1] = 0: margin 2; Char is a mortal with no fangs, so the bite adds nothing
        # and is Superficial (issues 10, 31).
        self.cmd("+combat/mod Thug=grappled")  # V5: a bite needs the target held
        with self.dice(6, 6, 2, 2, 2, 1, 1, 1, 1):
            out = self.cmd("+combat/act bite Thug").text
        self.assertIn("Margin 2 + weapon 0 = 2 harm.", out)
        self.assertIn("Thug takes 2 superficial harm", out)
        self.assertEqual(self.fighter("Thug").superficial, 2)

    @pytest.mark.rule("SPOT-07")
    def test_opponent_acts_through_the_organizer_with_a_weapon_range(self):
        self.setup_fight()
        self.cmd("+combat/next")
        self.cmd("+combat/done")
        self.cmd("+combat/next Thug")
        self.assertIn("has no range tag here", self.cmd("+combat/act Thug=attack Char2 "
                                                        "with banana").text)
        # Out of a fist's reach, the organizer is told the NPC's own form of /move (issue 28:
        # it named a player's, "+combat/move Char2=closer", which moves the organizer)
        out = " ".join(self.cmd("+combat/act Thug=attack Char2").text.split())
        self.assertIn("Move closer first (one step a turn: +combat/move Thug=Char2=closer).",
                      out)
        # Thug: Dex + Firearms from the template; whatever the dice, the pistol reaches Close.
        with self.dice(*([2] * 20)):
            out = self.cmd("+combat/act Thug=attack Char2 with pistol").text
        self.assertNotIn("reaches", out)
        self.assertIn("attacks Char2 with pistol (at Close)", out)
        self.assertIn("Char2 is not harmed", out)
        self.assertIn("only act for your own character", self.player(
            "+combat/act Thug=attack Char").text + "only act for your own character")

    @pytest.mark.rule("SPOT-11", "SPOT-13", "SPOT-14")
    def test_torpor_and_feeding_back(self):
        """9 HP vampire: 4 Aggravated (below 5) + 5 Superficial -> torpor; blood that slakes
        3 Hunger brings them back next round with 3 HP (Hunger unchanged)."""
        self.setup_fight()
        self.cmd("+combat/damage Char2=4 aggravated")
        out = self.cmd("+combat/damage Char2=5 superficial").text
        self.assertIn("falls into TORPOR", out)
        self.assertEqual(self.fighter("Char2").status, "torpor")
        self.assertIn("Only the organizer", self.player("+combat/damage Char=1 sup").text)
        self.cmd("+combat/next")  # round 1
        self.assertIn("back at the start of round 2", self.cmd("+combat/feed Char2=3").text)
        self.cmd("+combat/done")
        self.cmd("+combat/next")  # no opponent after Char; Char2 is in torpor
        st = self.state()
        if st.round == 1:
            self.cmd("+combat/next")
        out_state = self.fighter("Char2")
        self.assertEqual(self.state().round, 2)
        self.assertEqual((out_state.status, out_state.hp), ("active", 3))

    @pytest.mark.rule("SPOT-13")
    def test_final_death_at_half_aggravated(self):
        self.setup_fight()
        self.cmd("+combat/damage Char2=4 superficial")
        out = self.cmd("+combat/damage Char2=5 aggravated").text
        self.assertIn("meets FINAL DEATH", out)
        self.assertEqual(self.fighter("Char2").status, "dead")
        self.assertIn("destroyed", self.cmd("+combat/feed Char2=2").text)

    @pytest.mark.rule("SPOT-12")
    def test_stake_incapacitates_a_vampire_only(self):
        self.setup_fight()
        self.assertIn("is not a vampire", self.cmd("+combat/stake Thug").text)
        self.assertIn("staked and incapacitated", self.cmd("+combat/stake Char2").text)
        self.cmd("+combat/next")
        self.cmd("+combat/done")
        self.cmd("+combat/next")  # pass the pick: Char2 is staked, so the PCs are through
        self.assertNotIn(self.fighter("Char2").key, self.state().holder)
        self.assertIn("staked", self.cmd("+combat").text)


class TestRefusals(SpotTest):
    @pytest.mark.rule("SPOT-07")
    def test_d10_switches_are_refused_with_what_to_use(self):
        self.setup_fight()
        before = self.state()
        out = self.cmd("+combat/declare attack Thug").text
        self.assertIn("is for d10 combats", out)
        self.assertIn("+combat/act", out)
        self.assertIn("+combat/feed", self.cmd("+combat/heal Char2=1 lethal").text)
        self.assertIn("unknown switch", self.cmd("+combat/frobnicate").text)
        self.assertEqual(self.state().to_dict(), before.to_dict())

    def test_bad_input_changes_nothing(self):
        self.setup_fight()
        self.cmd("+combat/next")
        before = self.state().to_dict()
        for line in ("+combat/move Thug=sideways", "+combat/move", "+combat/act attack",
                     "+combat/act attack Nobody", "+combat/damage Thug=x", "+combat/feed Char2",
                     "+combat/swap Char", "+combat/ambush maybe", "+combat/event",
                     "+combat/range Char=Far", "+combat/npc Bob=str=x"):
            out = self.cmd(line).text
            self.assertNotIn("went wrong", out, line)
            self.assertTrue(out.strip(), line)
        self.assertEqual(self.state().to_dict(), before)

    def test_players_see_state_and_others_cannot_run(self):
        self.setup_fight()
        self.assertIn("Only the organizer", self.player("+combat/next").text)
        with capture_msgs(self.char2) as got:
            self.cmd("+combat/next")
        self.assertTrue(any("Round 1 begins" in m for m in got[self.char2]))
        self.cmd("+combat/end")
        self.assertIsNone(combat_in(self.room1))


class TestIdleClock(SpotTest):
    """Issue 8: the spotlight fight has the d10 fight's idle clock and /slackers."""

    def test_timeout_passes_an_idle_pc_and_slackers_shows_the_wait(self):
        from wodcombat.typeclasses import combat_timers

        self.setup_fight()
        self.assertIn("sets the idle timeout to 30s", self.cmd("+combat/timeout 30").text)
        self.cmd("+combat/next")  # round 1: Char (12) has the spotlight
        self.assertIn("Char", self.cmd("+combat/slackers").text)
        script = combat_in(self.room1)
        deadline = script.get_state().deadline
        self.assertIsNotNone(deadline)
        self.assertFalse(combat_timers.check(script, now=deadline - 1))
        self.assertTrue(combat_timers.check(script, now=deadline))
        log = [r for r in self.log() if r["event"] == "timeout"]
        self.assertEqual((log[-1]["actor"], log[-1]["what"], log[-1]["default"]),
                         (f"#{self.char1.id}", "act", "pass"))
        self.assertNotIn(f"#{self.char1.id}", script.get_state().holder)


class TestBeforeTheFirstRound(SpotTest):
    @pytest.mark.rule("SPOT-01")
    def test_acting_before_the_round_starts_names_the_step_first(self):
        """A player who tries to act before the first round is told what comes first:
        their initiative, then the Storyteller's start; nothing changes."""
        self.cmd("+combat/start spotlight")
        self.player("+combat/join")
        self.cmd("+combat/npc Thug=str=3,dex=2,brawl=2,sta=2")
        seq = self.state().seq
        text = self.player("+combat/act attack Thug").text
        self.assertIn("you roll initiative first (+combat/init)", text)
        self.assertEqual(self.state().seq, seq)
        with self.dice(3, 4):
            self.player("+combat/init")
        text = self.player("+combat/act attack Thug").text
        self.assertIn("the Storyteller starts the round (+combat/next)", text)
        self.assertEqual(self.state().round, 0)
