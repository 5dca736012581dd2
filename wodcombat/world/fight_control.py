"""The fight page as the organizer's control surface (issue 29): one ``+combat`` line, run as
the visitor's character through Evennia's own command handler.

Nothing here decides who may do what: the line goes through ``cmdhandler`` exactly as if
the character had typed it (cmdsets, locks, the command's own organizer and staff checks,
the combat service), so the room reads the same lines and a refusal is the command's own
text. This module only picks the character, checks that the line is a ``+combat`` line,
runs it in the server's main thread (commands and the combat service assume it; a web
request is served from Twisted's thread pool) and hands back what the character was told.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from wodcombat.combat.core.player_text import printable

from . import fight_view
from .web_text import to_plain

#: longer than any +combat line a player types (a split declaration with every option)
LINE_MAX = 400
#: the command's key, then a switch, a space or nothing
_COMBAT_LINE = re.compile(r"\+combat(?=$|[/\s])", re.IGNORECASE)


class Refused(Exception):
    """A request the page refuses before any command runs: ``status`` is its HTTP code."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def checked_line(text) -> str:
    """``text`` as one ``+combat`` line, or Refused(400) saying what to send instead."""
    if not isinstance(text, str) or not text.strip():
        raise Refused(400, "Send a +combat line, e.g. +combat/next.")
    line = text.strip()
    if printable(line) != line or "\n" in line:
        raise Refused(400, "Send one line of plain text: +combat/<switch> ...")
    if len(line) > LINE_MAX:
        raise Refused(400, f"That line is longer than {LINE_MAX} characters.")
    if not _COMBAT_LINE.match(line):
        raise Refused(400, "The fight page runs +combat commands only, e.g. +combat/next; "
                           "type anything else in the game.")
    return line


def actor(account, script):
    """The account's character that runs a line in this fight: the one fighting in it,
    else the organizer's, else (staff) one standing in the fight's room; None if none."""
    state = script.get_state()
    mine = [c for c in fight_view.characters(account) if hasattr(c, "execute_cmd")]
    for pick in (lambda c: state.get(f"#{c.id}") is not None,
                 lambda c: f"#{c.id}" == script.organizer,
                 lambda c: fight_view.is_staff(account) and c.location == script.obj):
        found = [c for c in mine if pick(c)]
        if found:
            return found[0]
    return None


def run(account, script, text) -> list[str]:
    """Run ``text`` (checked) as the account's character in this fight; what the character
    was told, as plain lines of text. Refused(403) when none of the account's characters
    is in the fight, organizes it, or (staff) stands in its room; Refused(409) when that
    character is not in the room now (nobody plays it: Evennia keeps it off the map)."""
    line = checked_line(text)
    char = actor(account, script)
    where = to_plain(script.obj.key) if script.obj else "the fight's room"
    if char is None:
        raise Refused(403, f"None of your characters is in this fight; go to {where} "
                           f"to run it from here.")
    if char.location != script.obj:  # Evennia takes a character nobody plays off the map
        raise Refused(409, f"{to_plain(char.key)} is not in {where} now: connect to the "
                           f"game (the web client will do) and go there first.")
    return in_main_thread(_execute, char, account, line)


def in_main_thread(func, *args):
    """``func(*args)`` in the reactor's thread, waited for, when called from a web request's
    thread; called at once when there is no running reactor (tests, scripts)."""
    from twisted.internet import reactor, threads
    from twisted.python import threadable

    if reactor.running and not threadable.isInIOThread():
        return threads.blockingCallFromThread(reactor, func, *args)
    done = func(*args)
    got: list = []
    done.addBoth(got.append)
    if not got:  # a command that waits (none of ours does): nothing to hand back yet
        return []
    if isinstance(got[0], BaseException) or hasattr(got[0], "raiseException"):
        got[0].raiseException()
    return got[0]


def _execute(char, account, line):
    """Deferred: the lines ``char`` was told while ``line`` ran (nicks are not applied: the
    line the page checked is the line that runs)."""
    from evennia.commands.cmdhandler import cmdhandler

    told: list[str] = []
    with _as_account(char, account), _recording(char, told):
        sessions = char.sessions.get()
        done = cmdhandler(char, line, callertype="object", session=sessions[0]
                          if sessions else None)
    return done.addCallback(lambda _: told)


@contextmanager
def _recording(char, told: list[str]):
    """Every text sent to ``char`` also lands in ``told`` (the sessions still get it)."""
    before = char.__dict__.get("msg")
    original = char.msg

    def msg(text=None, *args, **kwargs):
        body = text[0] if isinstance(text, (tuple, list)) and text else text
        if isinstance(body, str):
            told.append(to_plain(body))
        return original(text, *args, **kwargs)

    char.msg = msg
    try:
        yield
    finally:
        if before is None:
            char.__dict__.pop("msg", None)
        else:
            char.msg = before


@contextmanager
def _as_account(char, account):
    """The line runs with the account's permissions, as when it puppets the character:
    Evennia's ``perm()`` lock asks ``char.account``, which it clears when nobody plays the
    character. Bound in memory only, for this line."""
    if char.db_account_id == account.id:
        yield
        return
    before = char.db_account
    char.db_account = account
    try:
        yield
    finally:
        char.db_account = before
