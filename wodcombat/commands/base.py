"""What every World of Darkness command shares: switch dispatch, permission checks, and the
promise that a player never sees a traceback.

Each command follows the FS3 shape: ``parse`` (MuxCommand), then a ``do_<switch>`` method
that checks and returns an error or does the work. Engine errors (``WodError``) become the
message that explains what to type instead; anything unexpected is logged for staff and the
player is told nothing was changed.
"""

from __future__ import annotations

import random
import re

from evennia.commands.default.muxcommand import MuxCommand
from evennia.utils import logger

from wodcombat.combat.core.errors import WodError
from wodcombat.combat.core.player_text import did_you_mean, plain_text
from wodcombat.world.dice_source import GAME_DICE, GameDice
from wodcombat.world.combat_text import plain, second_person
from wodcombat.world.text_width import wrap


def output_cap() -> int:
    from wodcombat import conf

    return conf.get("WODCOMBAT_MAX_OUTPUT")


def cut_output(text: str, room: int, hint: str) -> str:
    """The whole lines of ``text`` that fit in ``room`` characters, then a note of how many
    lines were left out and what shows them (the note itself may pass ``room``)."""
    lines = text.split("\n")
    kept, used = [], 0
    for line in lines:
        if used + len(line) + 1 > room:
            break
        kept.append(line)
        used += len(line) + 1
    left = len(lines) - len(kept)
    note = (f"|y... {left} more line{'s' if left != 1 else ''} left out (a reply stops at "
            f"{output_cap():,} characters); {hint}.|n")
    return "\n".join([*kept, *wrap(note)])


# "  +combat/join  - join the fight": a first page's Usage line may say what it does.
_USAGE_NOTE = re.compile(r"\s{2,}- .*$")


def usage_blocks(doc: str) -> list[list[str]]:
    """Each Usage block of a docstring (one a help page), its lines without their notes."""
    blocks: list[list[str]] = []
    on = False
    for line in doc.splitlines():
        if line.strip().lower().startswith("usage"):
            on = True
            blocks.append([])
        elif on and not line.strip():
            on = False
        elif on:
            blocks[-1].append(_USAGE_NOTE.sub("", line.strip()))
    return [b for b in blocks if b]


def usage_switch(line: str, key: str) -> str | None:
    """The switch a Usage line is for: "+combat/start [<ruleset>]" -> "start"."""
    first = line.split()[0].rstrip(",").lower() if line.split() else ""
    parts = first.split("/")
    return parts[1] if len(parts) > 1 and parts[0] == key.lower() else None


#: no count, rating, time or position this game reads is longer; a longer run of digits is
#: refused before any switch parses it (int() of over 4,300 digits raises in Python 3.12+)
MAX_DIGITS = 15
_LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))


class WhenAsked:
    """A yes or no worked out only when someone asks (``bool(...)``): the permission checks
    a command may need cost more than the rest of its parsing (issue 13)."""

    __slots__ = ("_ask",)

    def __init__(self, ask):
        self._ask = ask

    def __bool__(self) -> bool:
        return bool(self._ask())


class WodCommand(MuxCommand):
    """Dispatches ``+cmd/switch`` to ``do_switch`` (bare command: ``do_default``)."""

    #: the switches this command takes; a unique prefix is accepted (/app -> /approve).
    #: Not MuxCommand's switch_options: that one ignores unknown switches and goes on.
    wod_switches: tuple[str, ...] = ()
    locks = "cmd:all()"
    help_category = "World of Darkness"
    #: +rules speaks of the catalog itself: its replies keep the rule IDs.
    shows_rule_ids = False
    #: Dice come from here; tests replace it with exact faces (randomness injected).
    rng: random.Random = GAME_DICE
    #: switch -> method name, for aliases such as /pending -> slackers
    switch_aliases: dict[str, str] = {}

    def expand_switch(self, typed: str) -> str | None:
        typed = typed.lower()
        typed = self.switch_aliases.get(typed, typed)
        names = (*self.wod_switches, *self.switch_aliases)
        if typed in names:
            return self.switch_aliases.get(typed, typed)
        hits = {self.switch_aliases.get(n, n) for n in names if n.startswith(typed)}
        return hits.pop() if len(hits) == 1 else None

    def bad_switch(self, typed: str) -> None:
        """The closest switches first (a typo: /atack -> /attack), then all of them."""
        names = (*self.wod_switches, *self.switch_aliases)
        guess = did_you_mean(typed, names, n=3,
                             show=lambda n: f"/{self.switch_aliases.get(n, n)}")
        allowed = ", ".join(f"/{s}" for s in self.wod_switches) or "none"
        self.msg(
            f"|r{self.key}: unknown switch /{typed}.|n{guess} Switches: {allowed}. "
            f"See |whelp {self.key}|n."
        )

    def parse(self):
        # Terminal escapes, control characters and Evennia markup are never part of what a
        # player meant to a game command (a client's stray ESC, a pasted NUL, a colour or a
        # link hidden in a name); drop them before switches and args are read, so no command
        # can store or echo them to others (combat/core/player_text.py says why).
        self.args = plain_text(self.args or "")
        super().parse()
        # "+combat/start=simple": MuxCommand reads "start=simple" as the switch (no space
        # before the =); what follows the = belongs to the arguments.
        if self.switches and "=" in self.switches[-1]:
            last, _, rest = self.switches[-1].partition("=")
            self.switches = [*self.switches[:-1], last]
            self.args = f"={rest} {self.args}".rstrip()
            self.lhs, self.rhs = "", self.args[1:].strip()
            self.lhslist, self.rhslist = [], [p.strip() for p in self.rhs.split(",")]

    #: switches that modify another one instead of naming a method (``+combat/declare/wp``);
    #: the ones given are in ``self.switch_flags``
    flag_switches: tuple[str, ...] = ()
    #: the switches those flags go with
    flag_takers: tuple[str, ...] = ()

    def msg(self, text=None, to_obj=None, from_obj=None, session=None, **kwargs):
        """What this command tells its caller stops at ``WODCOMBAT_MAX_OUTPUT`` characters
        (issue 30: one +combat printed 22 KB), cut at a line boundary with a note; others
        are told in full (the room's text is bounded by the caps on a fight)."""
        if to_obj is None or to_obj == self.caller:
            text = self._within_output(text)
            if text is None:
                return
        super().msg(text, to_obj=to_obj, from_obj=from_obj, session=session, **kwargs)

    def _within_output(self, text):
        """``text`` as the caller may still be sent it; None once a reply was cut."""
        body = text[0] if isinstance(text, tuple) and text else text
        if not isinstance(body, str):
            return text
        sent = getattr(self, "_output_sent", 0)
        cap = output_cap()
        if sent >= cap:
            return None
        self._output_sent = sent + len(body)
        if sent + len(body) <= cap:
            return text
        self._output_sent = cap  # what follows in this command is left out with it
        cut = cut_output(body, cap - sent, self.rest_hint())
        return (cut, *text[1:]) if isinstance(text, tuple) else cut

    def rest_hint(self) -> str:
        """What shows what a cut reply left out; commands with narrower forms say which."""
        return f"help {self.key} shows narrower forms"

    def func(self):
        self._output_sent = 0
        if isinstance(self.rng, GameDice):
            self.rng.command_started()
        flags = [s for s in self.switches if s.lower() in self.flag_switches]
        main = [s for s in self.switches if s.lower() not in self.flag_switches]
        self.switch_flags = frozenset(s.lower() for s in flags)
        if len(main) > 1 or (flags and not main):
            self.msg(f"|r{self.key}: use one switch at a time.|n See |whelp {self.key}|n.")
            return
        switch = self.expand_switch(main[0]) if main else "default"
        self.switch_now = switch
        handler = getattr(self, f"do_{switch}", None) if switch else None
        if handler is None:
            self.bad_switch(main[0])
            return
        if self.switch_flags and switch not in self.flag_takers:
            given = " ".join(f"/{f}" for f in sorted(self.switch_flags))
            takers = ", ".join(f"/{t}" for t in self.flag_takers)
            self.msg(f"|r{self.key}: {given} goes with {takers}, not /{switch}.|n")
            return
        if _LONG_NUMBER.search(self.args or ""):
            self.msg(f"|r{self.key}: no number here runs past {MAX_DIGITS} digits; type a "
                     f"smaller one.|n See |whelp {self.key}|n.")
            return
        try:
            handler()
        except WodError as err:  # said to a player: no rule IDs (the log and help keep them)
            text = str(err) if self.shows_rule_ids else plain(str(err))
            self.msg(f"|r{second_person(text, self.caller.key)}|n")
        except Exception:
            logger.log_trace(f"{self.key} failed on {self.raw_string!r}")
            self.msg(
                "|rSomething went wrong on our side; nothing was changed. "
                "Staff can see the details in the server log.|n"
            )

    # ---------------------------------------------------------------- helpers

    def usage(self) -> str:
        """The Usage lines of the help: the reply to a bare or malformed command. A help
        split into pages (Evennia's ``# subtopics``) has a Usage block on each; the lines
        of the switch typed come first (+combat/start's own form), else the first page's."""
        blocks = usage_blocks(self.__doc__ or "")
        if not blocks:
            return f"See help {self.key}."
        switch = getattr(self, "switch_now", None)
        own = [ln for block in blocks for ln in block
               if switch and usage_switch(ln, self.key) == switch]
        return "Usage: " + " | ".join(own or blocks[0])

    def ruleset_here(self):
        """The ruleset in force where the caller stands: the one of the fight running in the
        room (per-scene rules: a spotlight fight's sheets, dice and gear), else the
        server's default (issue 10: +sheet/set blood potency, +roll with V5 dice)."""
        from wodcombat.typeclasses.combat import combat_in
        from wodcombat.world import rulebook

        script = combat_in(self.caller.location)
        return script.ruleset() if script is not None else rulebook.get()

    def is_staff(self) -> bool:
        return self._has_perm("Builder")

    def reads_aloud(self) -> bool:
        """The account typing this chose screen-reader mode (+combat/screenreader on)."""
        from wodcombat.world import reader_mode

        account = getattr(self, "account", None)
        return reader_mode.is_on(account) if account is not None else False

    def is_admin(self) -> bool:
        return self._has_perm("Admin")

    def _has_perm(self, name: str) -> bool:
        """What the lock ``perm(<name>)`` answers (the superuser passes), by calling its lock
        function: ``check_lockstring`` parses and evals the string on every call, a sixth
        of a millisecond that every fight command paid once or twice (issue 13)."""
        from evennia.locks.lockfuncs import perm

        caller = self.caller
        if getattr(caller.locks, "lock_bypass", False):
            return True
        return bool(perm(caller, caller, name))

    def find_character(self, name: str):
        """A character by name, anywhere (staff commands), with a clear message if not."""
        from evennia.utils.search import search_object

        from wodcombat.combat.core.errors import InputError

        name = name.strip()
        if not name:
            raise InputError("Name a character.")
        if name.lower() in ("me", "self"):
            return self.caller
        hits = [o for o in search_object(name, exact=True) if hasattr(o, "sheet")]
        if not hits:
            hits = [
                o
                for o in self.caller.search(name, global_search=True, quiet=True) or []
                if hasattr(o, "sheet")
            ]
        if not hits:
            raise InputError(f"No character called '{name}'.")
        if len(hits) > 1:
            where = ", ".join(f"{h.key}(#{h.id})" for h in hits[:5])
            raise InputError(f"'{name}' matches several characters: {where}. Use #dbref.")
        return hits[0]
