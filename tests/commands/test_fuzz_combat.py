"""Bad input never breaks a fight (issue 5, "Bad input"): property-based tests of +combat.

Hypothesis sends random strings through EVERY ``+combat`` switch (and its aliases, and the
bare command), as the plain player (char2, a combatant) and as staff (char1, the organizer),
in a running fight, through Evennia's real command handler:

* d10 (numetal): organizer Char, player Char2 joined, the NPC Thug; initiatives rolled;
  the declaration phase.
* spotlight (seed 004): the same three; round 1 begun, Char holds the spotlight. Also the
  d10-only switches, which this engine refuses with what to type instead.

For every input we assert:

* no traceback, no untrapped error, no "Something went wrong" (the WodCommand catch-all);
* an error reply (red, ``|r``) leaves the combat (the Script's ``state`` Attribute, read
  from the database) and every sheet in the room exactly as before;
* an error reply is plain words: no Python repr (``Traceback``, ``Error(``, ``<object``,
  ``{'`` ...);
* no control character reaches a stored sheet or the stored combat state.

Inputs: the strategies of ``test_fuzz_input`` (free unicode, control characters, raw ANSI,
Evennia ``|`` codes, very long lines, grammar mutations) plus a combat grammar (combatant
names, dbrefs, maneuvers, ``with``/``moving``/``=``/``,``, damage types, numbers).

One fight per test method; between examples the test puts the stored state and sheets back
itself (and deletes NPCs an input created; after a successful ``/end`` it sets the fight up
again). ``EXAMPLES`` below: inputs per switch (half as player, half as staff);
``WOD_FUZZ_SCALE=10`` searches ten times deeper.
Rule IDs: TURN-01, TURN-03 (who may declare/act when), INIT-01, INIT-02, SPOT-07 (d10
switches refused in a spotlight fight).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from contextlib import contextmanager
from unittest import mock

from evennia.utils.test_resources import EvenniaCommandTest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wodcombat.combat.core.sheet import Sheet
from wodcombat.commands import combat_odds
from wodcombat.commands.base import WodCommand
from wodcombat.commands.combat import CmdCombat
from tests.commands.test_fuzz_input import (
    ANSI,
    CATCH_ALL,
    CONTROL,
    CONTROL_CHARS,
    PIPES,
    REPR,
    SCALE,
    TRAITS,
    _strings,
    any_text,
    mutated,
    numberish,
)
from tests.helpers import run_command
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, reader_mode, rulebook

#: inputs per switch (half as player, half as staff)
EXAMPLES = 30
#: switches whose success is costly to undo (/end deletes the fight: set up again)
FEWER = {"end": 10, "start": 16}

#: a Python repr that must not appear in an error besides the ones test_fuzz_input knows
DICT_REPR = re.compile(r"\{'|\[\{|\bdict\(|\bFighter\(|\bCombatant\(|\bState\(")

WORDS = [
    "Char", "Char2", "Thug", "thug", "me", "self", "#1", "#2", "#999999", "Nobody", "all",
    "attack", "dodge", "block", "parry", "defend", "desperate", "pass", "delay", "abort",
    "celerity", "rage", "spend", "wp", "willpower", "blood", "with", "moving", "vs", "at",
    "fists", "knife", "pistol", "club", "bite", "claws", "grapple", "hold", "clinch",
    "disarm", "sweep", "tackle", "cover", "full", "light", "heavy", "aim", "split",
    "multiple", "bashing", "lethal", "aggravated", "superficial", "B", "L", "A",
    "closer", "away", "close", "near", "far", "intimate", "pcs", "npcs", "simple",
    "classic", "reroll", "numetal", "revised", "spotlight", "v20", "everyman", "thug,actions=2",
    "str=3", "dex=2", "actions=", "off", "0", "1", "2", "3", "5", "10", "-1", "99",
    "9" * 25, "1_0", "٣", "²", "1.5", "NaN", "=", "==", "/", ",", " ", "  ", "+", "-",
    "'", '"', "\\", "%s", "{0}", "{", "}",
] + TRAITS[:8]
_word = st.sampled_from(WORDS + ANSI + PIPES + CONTROL[:40])
_sep = st.sampled_from([" ", " ", "", "=", ",", "/", " with ", " moving ", " vs "])
combat_grammar = st.lists(st.tuples(_word, _sep), min_size=0, max_size=8).map(
    lambda pairs: "".join(w + s for w, s in pairs).strip(" ")
)
#: lines some switch accepts in one of the two fights: mutated, they reach the code past
#: the first checks (a refusal there must change nothing either)
VALID = [
    "Thug=attack Char2", "Thug=attack Char2 with club", "Thug=dodge", "Thug=parry",
    "attack Thug", "attack Thug with fists moving 2", "dodge", "Thug", "Char2", "Char",
    "Thug=1 lethal", "Char2=2 bashing", "Thug=3 aggravated", "Thug=cover light",
    "Thug=-cover", "Thug=prone", "Thug=!prone", "Thug=4", "Thug=12", "60", "0", "5",
    "Goon=thug", "Rat=str=1,dex=3,brawl=1", "Goon=thug,actions=2", "spotlight",
    "numetal=simple", "Thug=closer", "Thug=away", "Char2=far", "attack Thug with knife",
    "bite Thug", "Char=Char2", "pcs", "npcs", "Char/Thug=close", "Thug=2 superficial",
    "Char2=2 aggravated", "Char2=1", "wp", "celerity 2", "rage 1", "blood 1", "Thug=pass",
    "A door bursts open", "Char2=attack Thug", "Thug=delay", "1 wp", "10",
]


#: per switch, lines it accepts from the organizer in one of the fights (so the fuzzing
#: also runs past the first checks into the success path, and refusals deep inside it)
ACCEPTED = {
    "damage": ["Thug=1 lethal", "Char2=2 bashing", "Thug=1 aggravated", "Thug=2 superficial"],
    "harm": ["Thug=2 superficial", "Char2=1 aggravated"],
    "heal": ["Char2=1 bashing", "Thug=1 lethal"],
    "kick": ["Thug", "Char2"],
    "mod": ["Thug=prone", "Thug=cover light", "Char2=!prone", "Thug=-cover"],
    "declare": ["Thug=attack Char2", "Thug=attack Char2 with club moving 2", "Thug=dodge"],
    "attack": ["Thug=Char2", "Thug=Char2 with club"],
    "dodge": ["Thug"], "block": ["Thug"], "parry": ["Thug"], "defend": ["Thug"],
    "desperate": ["Thug"], "pass": ["Thug"], "delay": ["Thug"], "abort": ["Thug=dodge"],
    "celerity": ["Thug=1"], "rage": ["Thug=1"], "spend": ["Thug=wp 1"],
    "next": ["", "Thug", "Char2"], "init": ["Thug=4"], "timeout": ["60", "0", "5m", "off"],
    "npc": ["Goon=thug", "Rat=str=1,dex=3,brawl=1", "Goon=thug,actions=2"],
    "act": ["attack Thug", "attack Thug with knife", "Thug=attack Char2", "bite Thug"],
    "move": ["Thug=closer", "Thug=away", "Char2=far"], "free": ["draws a knife"],
    "done": ["", "Thug"], "swap": ["Char=Char2"], "ambush": ["pcs", "npcs"],
    "event": ["A door bursts open"], "range": ["Char/Thug=close", "Char2/Thug=far"],
    "stake": ["Char2"], "unstake": ["Char2"], "feed": ["Char2=1"], "log": ["5", "30"],
    "end": [""], "leave": [""], "join": [""], "screenreader": ["on", "off", ""],
}


@st.composite
def edited(draw, lines=tuple(VALID)):
    """A line some switch accepts, then a few character or word edits."""
    text = draw(st.sampled_from(lines))
    for _ in range(draw(st.integers(0, 2))):
        pos = draw(st.integers(0, len(text)))
        piece = draw(st.one_of(_word, st.characters(exclude_categories=["Cs"])))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            text = text[:pos] + piece + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + 1 :]
        else:
            text = text[:pos] + piece + text[pos + len(piece) :]
    return text


combat_args = st.one_of(
    st.sampled_from(["Thug", "Char2", "Char", "me"]),
    st.sampled_from(VALID),
    edited(),
    edited(),
    combat_grammar,
    combat_grammar.map(lambda s: "Thug=" + s),
    combat_grammar.map(lambda s: "Char2=" + s),
    st.builds(lambda a, b: f"{a}={b}", st.sampled_from(WORDS), numberish),
    any_text,
    mutated(),
)


def switch_names(cls) -> list[str]:
    """Every switch a +combat class takes: its own, its aliases, and "" (bare command)."""
    return ["", *cls.wod_switches, *cls.switch_aliases]


D10_SWITCHES = switch_names(CmdCombat)
SPOT_SWITCHES = D10_SWITCHES  # one command for both engines; each refuses what it does not take


def fuzz(examples: int):
    return settings(
        max_examples=max(1, int(examples * SCALE) // 2),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )


def make_sheet(ruleset=None, **traits):
    cat = rulebook.get(ruleset).traits
    sheet = Sheet().with_pools_for(cat)
    for name, value in traits.items():
        sheet, _ = sheet.set(cat, name.replace("_", " "), str(value))
    return sheet.with_pools_for(cat)


class CombatFuzzCase(EvenniaCommandTest):
    """char1: staff (Developer) with a session, organizer; char2: plain player."""

    ruleset: str | None = None

    def setUp(self):
        super().setUp()
        patcher = mock.patch.object(WodCommand, "rng", random.Random(5))
        patcher.start()
        self.addCleanup(patcher.stop)
        # +combat/odds simulates whole fights: a few per input keep the fuzzing quick
        for name, value in (("DEFAULT_TRIALS", 2), ("MAX_TRIALS", 4)):
            trials = mock.patch.object(combat_odds, name, value)
            trials.start()
            self.addCleanup(trials.stop)
        self.inputs: Counter = Counter()
        self.errors: Counter = Counter()
        self.setup_fight()

    def tearDown(self):
        script = combat_in(self.room1)
        if script:
            combatlog.forget(script.combat_id)
        self.forget_account_settings()
        super().tearDown()

    def forget_account_settings(self):
        """An input may set an account's own setting (+combat/screenreader on): the accounts
        outlive the test's rollback in Evennia's cache, so it is cleared here."""
        for account in (self.account, self.account2):
            account.attributes.remove(reader_mode.ATTR)

    def cmd(self, line, caller=None):
        caller = caller or self.char1
        return run_command(caller, line, session=self.session if caller == self.char1 else None)

    def setup_fight(self):
        raise NotImplementedError

    def remember(self):
        """What reset() puts back: the fight's stored state, sheets, the room's contents."""
        self._saved = self.snapshot()
        self._contents = {o.id for o in self.room1.contents}

    def sheeted(self):
        return [o for o in self.room1.contents if hasattr(o, "sheet") and o.sheet.exists]

    def snapshot(self):
        """The stored state (from the database, not a cache: the newest log row's, issue 13),
        the log's last seq and every sheet."""
        from django.db.models import Max
        from evennia.typeclasses.attributes import Attribute

        script = combat_in(self.room1)
        state = last = None
        if script is not None:
            attr = script.attributes.get("state", return_obj=True)
            started = Attribute.objects.filter(pk=attr.pk).values_list("db_value",
                                                                       flat=True)[0]
            cid = json.loads(started)["id"]
            state = combatlog.state_before(cid) or started
            last = combatlog.rows(cid).aggregate(last=Max("last_seq"))["last"] or 0
        sheets = {o.id: o.sheet.stored_text() for o in self.sheeted()}
        return (state, last), sheets

    def reset(self):
        self.forget_account_settings()
        for obj in list(self.room1.contents):
            if obj.id not in self._contents:  # an NPC an input created
                obj.delete()
        (state, last), sheets = self._saved
        script = combat_in(self.room1)
        if script is None:  # a successful /end
            for obj in list(self.room1.contents):
                if (hasattr(obj, "sheet") and obj.sheet.exists
                        and obj not in (self.char1, self.char2)):
                    obj.delete()
            self.setup_fight()
            return
        combatlog.rows(script.combat_id).filter(first_seq__gt=last).delete()  # its state too
        script.forget_cache()
        for obj in self.sheeted():
            text = sheets.get(obj.id)
            if text is not None:
                obj.sheet.save(Sheet.from_dict(json.loads(text)))

    @contextmanager
    def raw_messages(self, caller):
        got = []
        original = caller.msg

        def spy(*args, **kwargs):
            text = args[0] if args else kwargs.get("text")
            if isinstance(text, (tuple, list)):
                text = text[0] if text else ""
            got.append("" if text is None else str(text))
            return original(*args, **kwargs)

        caller.msg = spy
        try:
            yield got
        finally:
            caller.__dict__.pop("msg", None)

    def check(self, switch: str, line: str, staff: bool):
        caller = self.char1 if staff else self.char2
        session = self.session if staff else None
        before = self.snapshot()
        self.inputs[switch] += 1
        try:
            return self._check(switch, line, staff, caller, session, before)
        finally:
            self.reset()

    def _check(self, switch, line, staff, caller, session, before):
        with (
            self.raw_messages(caller) as raw,
            mock.patch("evennia.utils.logger.log_trace") as trace,
        ):
            run = run_command(caller, line, session=session, raise_errors=False)
        who = "staff" if staff else "player"
        shown = repr(line[:300])
        self.assertNotIn("(Traceback was logged", run.text, f"{who} {shown}:\n{run.text}")
        self.assertNotIn(CATCH_ALL, run.text, f"{who} {shown}:\n{run.text}")
        self.assertFalse(trace.called, f"{who} {shown} logged a traceback: {trace.call_args}")
        self.assertTrue(raw, f"{who} {shown}: no reply at all")
        errors = [m for m in raw if m.startswith("|r")]
        after = self.snapshot()
        if errors:
            self.errors[switch] += 1
            self.assertEqual(before, after, f"{who} {shown}: state changed on an error: {errors}")
            for text in run.messages:
                hit = REPR.search(text)
                if hit and hit.group(0).lower() in line.lower():
                    hit = None  # the error quotes what was typed
                hit = hit or (DICT_REPR.search(text) if "{" not in line else None)
                if hit:
                    self.fail(f"{who} {shown}: error not in plain words: {text!r}")
        (state, _), sheets = after
        for data in [json.loads(state) if state else "", *sheets.values()]:
            for s in _strings(data):
                self.assertFalse(CONTROL_CHARS.search(s),
                                 f"{who} {shown}: a control character was stored: {s!r}")
        return run

    def explore_one(self, switch):
        prefix = "+combat" + (f"/{switch}" if switch else "")
        head = st.sampled_from([prefix, prefix.replace("+combat", "combat", 1)])

        mine = ACCEPTED.get(switch)
        args = st.one_of(st.sampled_from(mine), edited(tuple(mine)), combat_args) if mine \
            else combat_args

        @fuzz(FEWER.get(switch, EXAMPLES))
        @given(head=head, args=args)
        def one(head, args):
            line = f"{head} {args}" if args else head
            self.check(switch, line, staff=False)
            self.check(switch, line, staff=True)

        one()

    def explore(self, switches):
        for switch in switches:
            self.explore_one(switch)
        print(f"\n{type(self).__name__}: {sum(self.inputs.values())} inputs, per switch: "
              + ", ".join(f"/{k or '(bare)'} {n} ({self.errors[k]} refused)"
                          for k, n in sorted(self.inputs.items())))
        for switch in switches:
            self.assertGreaterEqual(self.inputs[switch], 2, switch)


class TestFuzzCombatD10(CombatFuzzCase):
    """numetal, declaration phase: Thug (5) declares first, then Char2 (7), then Char (11)."""

    def setup_fight(self):
        self.char1.sheet.save(make_sheet(strength=3, dexterity=3, wits=3, brawl=2, stamina=2))
        self.char2.sheet.save(make_sheet(strength=2, dexterity=2, wits=2, dodge=1, stamina=2))
        self.assertIn("starts a fight", self.cmd("+combat/start").text)
        self.cmd("+combat/timeout 0")
        self.cmd("+combat/join", self.char2)
        self.assertIn("Thug joins", self.cmd("+combat/npc Thug=str=3,dex=2,wits=2,brawl=2,"
                                             "stamina=2").text)
        self.cmd("+combat/init")
        self.cmd("+combat/init", self.char2)
        self.cmd("+combat/init Thug=4")
        self.cmd("+combat/next")
        self.assertEqual(combat_in(self.room1).get_state().phase, "declare")
        self.remember()

    def test_every_switch(self):
        self.explore(D10_SWITCHES)


class TestFuzzCombatSpotlight(CombatFuzzCase):
    """spotlight, round 1: Char (12) holds the spotlight, Char2 (5) next, Thug an opponent."""

    def setup_fight(self):
        self.char1.sheet.save(make_sheet("spotlight", wits=3, strength=3, brawl=2,
                                         dexterity=2, melee=1))
        self.char2.sheet.save(make_sheet("spotlight", splat="vampire", wits=1,
                                         blood_potency=2))
        self.assertIn("spotlight engine", self.cmd("+combat/start spotlight").text)
        self.cmd("+combat/join", self.char2)
        self.assertIn("Thug joins", self.cmd("+combat/npc Thug=thug").text)
        self.cmd("+combat/init")
        self.cmd("+combat/init", self.char2)
        self.assertIn("Round 1 begins", self.cmd("+combat/next").text)
        self.remember()

    def test_every_switch(self):
        self.explore(SPOT_SWITCHES)


class TestCombatInputRegressions(TestFuzzCombatD10):
    """One test per bug the fuzzing found (each failed before its fix)."""

    def test_every_switch(self):  # the fuzzing itself runs once, in TestFuzzCombatD10
        pass

    def test_braces_and_funcparser_in_an_announcement(self):
        """'+combat/mod T={' saved the condition, then room.msg_contents' str.format_map
        crashed on the '{' in the announcement: the catch-all reply after a change. Issue 11:
        such a word is no condition, so it is refused, quoted as typed, with the list."""
        for cond in ("{", "}{0}", "$you()"):
            run = self.check("mod", f"+combat/mod Thug={cond}", staff=True)
            self.assertNotIn(CATCH_ALL, run.text)
            self.assertIn(f"'{cond}' is not a condition here", run.text)

    def test_a_kicked_or_leaving_fighter_is_named(self):
        """'+combat/kick Thug' told the room '#8 leaves the fight.': the name was looked up
        in the state after the fighter had left it."""
        run = self.check("kick", "+combat/kick Thug", staff=True)
        self.assertIn("Thug leaves the fight.", run.text)
        run = self.check("leave", "+combat/leave", staff=False)
        self.assertIn("Char2 leaves the fight.", run.text)

    def test_superscript_digits_are_a_plain_refusal(self):
        """'²' passes str.isdigit() but int() refuses it: '+combat/rage ²' was the catch-all
        reply. Every number a +combat switch reads now takes decimal digits only."""
        for line, staff in (("+combat/rage ²", False), ("+combat/celerity ²", False),
                            ("+combat/spend wp ²", False), ("+combat/damage Thug=² lethal", True),
                            ("+combat/heal Char2=² bashing", True), ("+combat/timeout ²", True),
                            ("+combat/timeout ²m", True), ("+combat/declare Thug=attack Char2 "
                                                          "moving ²", True)):
            run = self.check("x", line, staff=staff)
            self.assertNotIn(CATCH_ALL, run.text, line)


    def test_a_bad_name_in_a_list_changes_nothing(self):
        """'+combat/block CHAR2,0=' from the player applied the block for Char2, then
        refused '0': the refusal came after a change. Every name is checked first now."""
        run = self.check("block", "+combat/block CHAR2,0=", staff=False)
        self.assertIn("'0' is not in this fight", run.text)


class TestSpotlightInputRegressions(TestFuzzCombatSpotlight):
    def test_every_switch(self):  # the fuzzing itself runs once, in TestFuzzCombatSpotlight
        pass

    def test_superscript_digits_are_a_plain_refusal(self):
        """The spotlight switches' numbers: '²' was int()'s ValueError, not a refusal."""
        for line in ("+combat/damage Thug=² superficial", "+combat/feed Char2=²",
                     "+combat/npc Rat=thug,actions=²"):
            run = self.check("x", line, staff=True)
            self.assertNotIn(CATCH_ALL, run.text, line)
