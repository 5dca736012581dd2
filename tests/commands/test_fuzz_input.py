"""Bad input never breaks anything (issue 5, "Bad input"): property-based tests.

Hypothesis sends random strings through every ``+roll``, ``+sheet`` and ``+rules`` switch,
as a plain player (char2) and as staff (char1), through Evennia's real command handler.
For every input we assert:

* no traceback and no "Something went wrong" (the WodCommand catch-all) reply;
* an error reply (red, ``|r``) leaves every sheet and the running rules exactly as before;
* an error reply is plain words: no Python repr (``Traceback``, ``Error(``, ``<object`` ...).

Inputs: free unicode text (control characters included), raw ANSI escapes, Evennia ``|``
colour codes, very long lines, and lines built from the real grammar (trait names,
aliases, numbers, ``+``/``-``, ``vs``, ``=``, ``/``, names) with random mutations.

How many inputs each command gets is ``EXAMPLES`` below (per test method: one command
family, as player and as staff). One Evennia fixture serves all examples of a method (a
fresh fixture per example would cost ~1 s each), so the test resets the sheets and the
rulebook itself between examples.

Rule IDs: DICE-01..DICE-05 (roll parsing and difficulty), HLT-06 (wound penalties on
action rolls) are exercised by the +roll inputs.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from unittest import mock

from evennia.utils.test_resources import EvenniaCommandTest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wodcombat.combat.core.sheet import Sheet
from wodcombat.commands.base import WodCommand
from wodcombat.models import CombatSheet
from tests.helpers import run_command
from wodcombat.typeclasses.sheets import rows_changed
from wodcombat.world import rulebook

#: inputs per test method (each method is one command family; half as player, half as staff)
EXAMPLES = {
    "roll": 500,
    "roll_switches": 150,
    "sheet_set": 400,
    "sheet_spec": 200,
    "sheet_view_approve": 200,
    "rules": 150,
    "rules_admin": 12,  # +rules/check and /reload read every YAML file: slow, args ignored
}


#: WOD_FUZZ_SCALE=10 bin/test tests/commands/test_fuzz_input.py: a ten times deeper search
SCALE = float(os.environ.get("WOD_FUZZ_SCALE", "1"))


def fuzz(family: str):
    """Hypothesis settings for one command family: EXAMPLES[family] inputs, each run as
    player and as staff, no deadline (the first example pays for warm caches)."""
    return settings(
        max_examples=max(1, int(EXAMPLES[family] * SCALE) // 2),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


# --------------------------------------------------------------------------- strategies

TRAITS = [
    "dex",
    "dexterity",
    "str",
    "Strength",
    "wits",
    "brawl",
    "melee",
    "firearms",
    "animal ken",
    "blind fighting",
    "self-control",
    "willpower",
    "wp",
    "blood",
    "rage",
    "gnosis",
    "potence",
    "celerity",
    "stamina",
    "Alertness",
    "academics",
    "ambidextrous",
]
IDENTITY = ["splat", "race", "breed", "form", "generation"]
SPLATS = ["vampire", "mortal", "shifter", "mage", "ghoul", "changeling", "kuei-jin", "Garou"]
NAMES = ["Char", "Char2", "me", "self", "#1", "#2", "*Char", "Obj", "Room", "#999999"]
ANSI = [
    "\x1b[31m",
    "\x1b[0m",
    "\x1b[1;32;40m",
    "\x1b]0;title\x07",
    "\x1b[2J",
    "\x1b[",
    "\x1b",
    "\x9b31m",
    "\x1bc",
    "\x1b[999999999999999999999m",
]
PIPES = [
    "|r",
    "|n",
    "|/",
    "|-",
    "|_",
    "|[b",
    "|500",
    "|[500",
    "|#ff0000",
    "|[#00ff00",
    "||",
    "|",
    "|u",
    "|*",
    "|^",
    "|=z",
    "|lclook|lt",
    "|le",
    "$you()",
    "{",
    "}",
    "%s",
    "{0}",
    "%(x)s",
]
CONTROL = [chr(c) for c in (*range(0, 32), 127, *range(0x80, 0xA0))] + [
    "\u200b",
    "\u202e",
    "\ufeff",
    "\ud7ff",
    "\U0001f600",
    "\u0301",
    "²",
    "٣",
    "Ⅻ",
    "ﬁ",
    "K",
    "ſ",
]
TOKENS = (
    TRAITS
    + IDENTITY
    + SPLATS
    + NAMES
    + ANSI
    + PIPES
    + CONTROL
    + [
        "+",
        "-",
        "vs",
        "vs.",
        "versus",
        "diff",
        "difficulty",
        "@",
        "=",
        "/",
        " ",
        "  ",
        ",",
        "0",
        "1",
        "3",
        "6",
        "10",
        "11",
        "30",
        "31",
        "-1",
        "99",
        "9" * 30,
        "1_0",
        "0x10",
        "3/5",
        "5/3",
        "1e3",
        "½",
        "NaN",
        "inf",
        "None",
        "'",
        '"',
        "\\",
        "#",
        "*",
        ":",
        ";",
        "\t",
        "\n",
    ]
)

_token = st.sampled_from(TOKENS)
_sep = st.sampled_from(["", " ", " ", " ", "+", "-", "=", "/", " vs "])
grammar = st.lists(st.tuples(_token, _sep), min_size=0, max_size=10).map(
    lambda pairs: "".join(t + s for t, s in pairs)
)


@st.composite
def mutated(draw):
    """A line from the real grammar, then a few random character edits."""
    text = draw(grammar)
    for _ in range(draw(st.integers(0, 3))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.characters(exclude_categories=["Cs"]))
        if op == "insert":
            text = text[:pos] + ch + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + 1 :]
        else:
            text = text[:pos] + ch + text[pos + 1 :]
    return text


#: things that look like numbers to someone (or to str.isdigit): ², ٣, ①, 1_0, 0x10 ...
numberish = st.one_of(
    st.integers(-20, 40).map(str),
    st.sampled_from(["²", "٣", "³", "①", "൧", "Ⅻ", "1_0", "0x10", "1e3", "½", "٣٣", "+3", "-0"]),
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=3),
)
_term = st.one_of(st.sampled_from(TRAITS), numberish, mutated())
#: +roll lines shaped like the real grammar: terms joined by signs, maybe "vs <difficulty>"
roll_line = st.builds(
    lambda terms, signs, vs, diff: (
        "".join(
            t + (signs[i % len(signs)] if i < len(terms) - 1 else "") for i, t in enumerate(terms)
        )
        + (vs + diff if vs else "")
    ),
    st.lists(_term, min_size=1, max_size=5),
    st.lists(st.sampled_from(["+", "-", " + ", " - ", "++", "+-", " "]), min_size=1, max_size=3),
    st.sampled_from(["", " vs ", " vs. ", " versus ", " diff ", " @ ", " vs", " VS "]),
    st.one_of(numberish, _token),
)

long_lines = st.builds(
    lambda piece, n: (piece * n)[:12000],
    st.one_of(_token, st.text(min_size=1, max_size=5)),
    st.integers(100, 3000),
)
any_text = st.one_of(
    st.text(max_size=60),
    roll_line,
    numberish,
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40),
    st.lists(st.sampled_from(CONTROL + ANSI + PIPES), max_size=15).map("".join),
    grammar,
    mutated(),
    mutated(),
    long_lines,
)
switch_text = st.one_of(
    st.sampled_from(["", "/", "//", "/spec/wp", "/wp/wp", "/sp", "/x", "/S", "/set/spec"]),
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters=" "), max_size=8).map(
        lambda s: "/" + s
    ),
)

# --------------------------------------------------------------------------- checks

CATCH_ALL = "Something went wrong"
#: what a Python repr or a leaked exception looks like; an error must not contain these
REPR = re.compile(
    r"Traceback|Error\(|Exception|<object|<[a-z_.]+ object at|object at 0x|\bNoneType\b|"
    r"invalid literal for|has no attribute|KeyError|ValueError|TypeError|\(Traceback was logged",
)


#: what must never be stored in a sheet: it would reach every client that shows the sheet
#: (ESC starts terminal escapes that clear screens or retitle windows)
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _strings(data):
    """Every string (keys and values) inside a stored sheet dict."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):  # Evennia hands back _SaverDict, not dict
        for k, v in data.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(data, Sequence):
        for v in data:
            yield from _strings(v)


class FuzzCase(EvenniaCommandTest):
    """char1: staff (Developer) with a session; char2: plain player, same room."""

    def setUp(self):
        super().setUp()
        # Sheets with something to break: a wounded vampire (pools, generation, wound
        # penalty HLT-06) and an approved Garou shifter with a specialty (staff).
        traits = rulebook.get().traits
        vampire, _ = self.char2.sheet.get().set(traits, "splat", "vampire")
        vampire, _ = vampire.set_specialty(traits, "brawl", "Kicks")
        self.char2.sheet.save(replace(vampire, health={"bashing": 2, "lethal": 1}))
        garou, _ = self.char1.sheet.get().set(traits, "splat", "shifter")
        garou, _ = garou.set(traits, "race", "Garou")
        self.char1.sheet.save(replace(garou, approved=True))
        self.inputs = 0
        self._saved_library = rulebook.library()
        self._sheets = self.snapshot()

    def snapshot(self):
        return (
            self.char1.sheet.stored_text(),
            self.char2.sheet.stored_text(),
            rulebook._library,
        )

    def reset(self):
        """Put the sheets and rules back as setUp left them (one fixture, many examples)."""
        c1, c2, _lib = self._sheets
        for char, data in ((self.char1, c1), (self.char2, c2)):
            if data is None:
                CombatSheet.objects.filter(obj_id=char.id).delete()
                rows_changed()
            else:
                char.sheet.save(Sheet.from_dict(json.loads(data)))
        rulebook._library = self._saved_library

    @contextmanager
    def raw_messages(self, caller):
        """What caller.msg received, colour codes kept (an error starts with |r)."""
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

    def check(self, line: str, staff: bool):
        caller = self.char1 if staff else self.char2
        session = self.session if staff else None
        before = self.snapshot()
        self.inputs += 1
        try:
            return self._check(line, staff, caller, session, before)
        finally:
            self.reset()  # also after a failure: Hypothesis replays it and must see the same

    def _check(self, line, staff, caller, session, before):
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
        errors = [m for m in raw if m.startswith("|r")]
        self.assertTrue(raw, f"{who} {shown}: no reply at all")
        if errors:
            self.assertEqual(
                before, self.snapshot(), f"{who} {shown}: state changed on an error: {errors}"
            )
            for text in run.messages:
                hit = REPR.search(text)
                if hit and hit.group(0).lower() not in line.lower():
                    self.fail(f"{who} {shown}: error not in plain words: {text!r}")
        for data in self.snapshot()[:2]:
            for text in _strings(data):
                self.assertFalse(
                    CONTROL_CHARS.search(text),
                    f"{who} {shown}: a control character was stored on a sheet: {text!r}",
                )
        return run

    def both(self, line: str):
        self.check(line, staff=False)
        self.check(line, staff=True)

    def explore(self, family: str, make_line, **strategies):
        """Run EXAMPLES[family] generated lines, each as player and as staff.

        @given sits on an inner function: Hypothesis refuses it on a Django TestCase
        method (it wants a transaction per example; we reset state ourselves instead).
        """

        @fuzz(family)
        @given(**strategies)
        def one(**drawn):
            self.both(make_line(**drawn))

        one()
        self.assertGreaterEqual(self.inputs, 2)


class TestFuzzRoll(FuzzCase):
    """+roll <anything> and +roll/<any switches> <anything> (DICE-01..05, HLT-06)."""

    def setUp(self):
        super().setUp()
        # Dice never run out: a fixed-seed Random (exact faces are not the point here).
        patcher = mock.patch.object(WodCommand, "rng", random.Random(5))
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_roll(self):
        self.explore(
            "roll", lambda args: f"+roll {args}", args=st.one_of(roll_line, any_text, roll_line)
        )

    def test_roll_switches(self):
        self.explore(
            "roll_switches",
            lambda switches, args: f"+roll{switches} {args}",
            switches=switch_text,
            args=any_text,
        )


class TestFuzzSheet(FuzzCase):
    def test_set(self):
        self.explore(
            "sheet_set",
            lambda target, trait, eq, value: f"+sheet/set {target}{trait}{eq}{value}",
            target=st.one_of(st.just(""), st.sampled_from(NAMES).map(lambda n: n + "/"), any_text),
            trait=st.one_of(st.sampled_from(TRAITS + IDENTITY), any_text),
            eq=st.sampled_from(["=", "", " = ", "=="]),
            value=st.one_of(st.sampled_from(SPLATS + TOKENS), numberish, any_text),
        )

    def test_spec(self):
        self.explore(
            "sheet_spec",
            lambda target, trait, value: f"+sheet/spec {target}{trait}={value}",
            target=st.one_of(st.just(""), st.sampled_from(NAMES).map(lambda n: n + "/")),
            trait=st.one_of(st.sampled_from(TRAITS), any_text),
            value=any_text,
        )

    def test_view_approve(self):
        self.explore(
            "sheet_view_approve",
            lambda switch, args: f"+sheet{switch} {args}",
            switch=st.sampled_from(["", "/approve", "/unapprove", "/app", "/un", "/bogus"]),
            args=st.one_of(st.sampled_from(NAMES), any_text),
        )


class TestFuzzRules(FuzzCase):
    def test_rules(self):
        self.explore(
            "rules",
            lambda switch, args: f"+rules{switch} {args}",
            switch=st.sampled_from(["", "/list", "/li", "/l", "/x", "/"]),
            args=any_text,
        )

    def test_rules_admin(self):
        self.explore(
            "rules_admin",
            lambda switch, args: f"+rules{switch} {args}",
            switch=st.sampled_from(["/check", "/reload", "/che", "/rel"]),
            args=any_text,
        )


class TestInputRegressions(FuzzCase):
    """One test per bug the fuzzing found (each failed before its fix)."""

    def test_unicode_digit_difficulty_is_a_plain_error(self):
        """DICE-05: '²' passes str.isdigit() but int() refuses it; was the catch-all reply."""
        for line in ("+roll dex vs ²", "+roll 3 vs ①", "+roll wits @ ³"):
            run = self.check(line, staff=False)
            self.assertIn("The difficulty must be a number", run.text, line)

    def test_control_characters_never_stored_on_a_sheet(self):
        """A raw ESC in a specialty went to every client that showed the sheet."""
        run = self.player("+sheet/spec brawl=\x1b[2J\x1b]0;pwned\x07Kicks\x00")
        self.assertIn("Brawl specialty set to 'Kicks'", run.text)
        self.assertEqual(self.char2.sheet.get().specialties["Brawl"], "Kicks")

    def test_control_characters_in_a_command_are_dropped(self):
        """A stray NUL or escape inside a line is ignored, not part of a trait name."""
        self.assertIn("Strength set to 3", self.player("+sheet/set str\x00ength=\x1b[1m3").text)
        self.assertEqual(self.char2.sheet.get().traits["Strength"], 3)

    def test_specialty_of_only_escapes_is_refused(self):
        """Engine level: text that is nothing but escapes is refused, not stored empty."""
        from wodcombat.combat.core.errors import InputError
        from wodcombat.combat.core.player_text import printable
        from wodcombat.combat.core.sheet import Sheet

        traits = rulebook.get().traits
        with self.assertRaises(InputError):
            Sheet().set_specialty(traits, "brawl", "\x1b[31m\x07")
        self.assertEqual(printable("a\x1b[31mb\x9b1mc\td\u202e"), "abc d")

    def player(self, line):
        return run_command(self.char2, line)
