"""Text a player types that the game keeps and shows again: names and free text.

Stored text reaches every client that shows it and the web pages, so it must stay text.
Two kinds of code hide in it:
- terminal escapes and control characters (a raw ESC from one player clears another's
  screen; the bidi overrides reorder what others read);
- Evennia's markup, which every ``|`` starts: colours, line breaks (``|/``), links
  (``|lc<command>|lt<text>|le``, ``|lu<url>|lt<text>|le``). Evennia strips link markup from
  what players type in one pass, so a nested link survives it and becomes a live link on
  a web page (issue 30). Here markup is removed to a fixed point and every ``|`` left is
  dropped: what is kept holds no markup character at all, whatever renders it later.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Iterable

from .errors import InputError

# Terminal escapes (CSI "ESC [ ... m", OSC "ESC ] ... BEL", 8-bit CSI, "ESC c"), then any
# control character left (C0, DEL, C1) and the bidi overrides that reorder what others see.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]?|\x1b.?"
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

# A link's hidden half (the command or url it runs) goes with its markers; then every
# other markup token (Evennia's ansi.py: |r |[r |123 |[123 |=a |#ff0000 |/ |- |_ |* |^ |u
# |lt |le ...). Whatever ``|`` is still left is dropped by plain_text.
_LINK_TARGET = re.compile(r"\|l[cu].*?\|lt", re.DOTALL)
_TOKEN = re.compile(r"\|(?:l[a-z]|\[?(?:[0-5]{3}|=[a-z]|#[0-9a-fA-F]{6})|\[?[a-zA-Z]|.)?",
                    re.DOTALL)

#: Evennia's own account names are at most 30 characters (AUTH_USERNAME_VALIDATORS); an
#: NPC's name shares the room's lines with them.
NAME_MAX = 30
_NAME = re.compile(r"[^\W_][\w '.\-]*")
NAME_RULE = (f"a name is 1 to {NAME_MAX} characters: letters, digits, spaces and "
             f"- ' . _, starting with a letter or digit")


def printable(text: str) -> str:
    """``text`` without terminal escapes and control characters (tabs and newlines become
    spaces)."""
    text = _ESCAPES.sub("", str(text))
    return _CONTROLS.sub("", text.replace("\t", " ").replace("\n", " "))


def plain_text(text: str) -> str:
    """``text`` as plain text: printable, with no Evennia markup left in it (a fixed point:
    markup that removing markup uncovers is removed too, and no ``|`` is kept)."""
    text = printable(text)
    while "|" in text:
        stripped = _TOKEN.sub("", _LINK_TARGET.sub("", text))
        if stripped == text:
            break
        text = stripped
    return text.replace("|", "")


def shown(text: str, width: int = NAME_MAX) -> str:
    """What a refusal may quote of ``text``: plain, and cut to ``width``."""
    text = plain_text(text).strip()
    return text if len(text) <= width else text[: width - 3] + "..."


def checked_name(text: str) -> str:
    """``text`` as a name, or InputError saying what a name may hold (spaces inside are
    kept single)."""
    name = " ".join(str(text).split())
    if len(name) > NAME_MAX or not _NAME.fullmatch(name):
        raise InputError(f"'{shown(text)}' cannot be a name: {NAME_RULE} "
                         f"(e.g. Thug, Big-Al, Rat2).")
    return name


def did_you_mean(typed: str, choices: Iterable[str], *, n: int = 1, cutoff: float = 0.6,
                 show: Callable[[str], str] = str) -> str:
    """" Did you mean X?" (or "X or Y") for a typo among ``choices``, else "": the one hint
    every refusal of an unknown word gives (switches, traits, actions, templates), so a
    typo is answered the same way wherever it is made. ``show`` turns a choice into what
    the player would type (a switch gets its /); choices that show alike are named once."""
    close = difflib.get_close_matches(typed.strip().lower(), list(choices), n=n, cutoff=cutoff)
    names = list(dict.fromkeys(show(c) for c in close))
    return f" Did you mean {' or '.join(names)}?" if names else ""
