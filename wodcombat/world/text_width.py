"""Text for an 80-column MUSH client: at most 78 visible columns, wrapped on words.

Every line a player reads passes through ``fit`` on its way out (Character and Account
``msg``), so no reply, room line or help page has to count its own columns; the tables
that want a hanging indent of their own (the ``+combat`` rows, the log) call ``wrap``.
Colour codes take no room on screen and are never split; a line that already fits is left
exactly as it was (aligned columns keep their spaces).
"""

from __future__ import annotations

import re
from functools import lru_cache

WIDTH = 78

# Evennia markup that takes no column (ANSIParser's codes): colours and their backgrounds
# (|r |[r |R), xterm256 (|500 |[500 |=a |[=a), truecolor (|#ff0000), styles (|n |h |H |u
# |U |i |I |s |S |* |^), and a link's hidden half (|lc<command>|lt ... |le, |lu<url>|lt).
_ZERO = re.compile(
    r"\|l[cu].*?\|lt|\|le"
    r"|\|\[?(?:[0-5]{3}|=[a-z]|#[0-9a-fA-F]{6}|[rgybmcwxRGYBMCWX])"
    r"|\|[nhHuUiIsS*^]"
)
# Markup that takes room: a literal pipe (||), a space (|_), a tab and an indent (|- |>).
_WIDE = {"||": 1, "|_": 1, "|-": 4, "|>": 4}
_WIDE_RE = re.compile(r"\|\||\|_|\|-|\|>")
_LINK = re.compile(r"\|l[cu].*?\|le")


def visible_len(text: str) -> int:
    """Columns ``text`` takes on screen."""
    if "|" not in text:
        return len(text)
    extra = 0

    def wide(match: re.Match) -> str:
        nonlocal extra
        extra += _WIDE[match.group(0)]
        return ""

    return len(_ZERO.sub("", _WIDE_RE.sub(wide, text))) + extra


def wrap(line: str, width: int = WIDTH, indent: int | None = None) -> list[str]:
    """One line as lines of at most ``width`` columns, broken between words.

    Continuation lines start ``indent`` columns in (default: two more than the line's own
    leading spaces, so a wrapped entry reads as one). A single word wider than the room
    left is cut, unless it holds colour codes (cutting those would garble them).
    """
    if len(line) <= width or visible_len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    hang = min(lead + 2 if indent is None else indent, width // 2)
    # A link's words stay together: a break inside |lc...|lt would show the command.
    body = _LINK.sub(lambda m: m.group(0).replace(" ", "\x00"), line[lead:])
    out: list[str] = []
    cur, cur_len = " " * lead, lead
    fresh = True  # nothing but the indent on the current line yet
    for word in body.split(" "):
        word = word.replace("\x00", " ")
        if not word and fresh:
            continue  # runs of spaces at a break are dropped, inside a line kept
        size = visible_len(word)
        if not fresh and cur_len + 1 + size > width:
            out.append(cur.rstrip())
            cur, cur_len, fresh = " " * hang, hang, True
            if not word:
                continue
        while size > width - cur_len and "|" not in word and fresh:
            room = width - cur_len
            out.append(cur + word[:room])
            word, size = word[room:], size - room
            cur, cur_len = " " * hang, hang
        if fresh:
            cur, cur_len = cur + word, cur_len + size
        else:
            cur, cur_len = f"{cur} {word}", cur_len + 1 + size
        fresh = False
    out.append(cur.rstrip())
    return out


@lru_cache(maxsize=512)
def fit(text: str, width: int = WIDTH) -> str:
    """Every line of ``text`` wrapped to ``width`` columns (the same text sent to a whole
    room is wrapped once: the cache)."""
    lines = text.split("\n")
    if all(len(line) <= width for line in lines):
        return text
    return "\n".join(line if len(line) <= width else _wrapped(line, width) for line in lines)


@lru_cache(maxsize=1024)
def _wrapped(line: str, width: int) -> str:
    # A fight's readers each get the room's text with their own prompt after it: different
    # texts, the same long lines (coloured rolls); each such line is wrapped once.
    return "\n".join(wrap(line, width))


#: Output that keeps its own lines: staff's Python console (printed JSON, tracebacks).
VERBATIM = frozenset({"py", "py_input", "py_output"})


_last_fit: tuple = ("", "")  # (text, fitted): a room's text is fitted once, not per reader


class Prefitted(str):
    """A text that knows its fitted form already (``prefitted``): ``msg`` sends that. A
    fight's readers each get the room's text with their own prompt after it, five different
    texts: the room's part is fitted once for all of them (issue 13)."""

    fitted: str

    def __reduce__(self):  # pickled (a msg that does not fit text) as the plain string
        return (str, (str(self),))


def prefitted(*parts: str) -> Prefitted:
    """The parts (the room's text, a reader's own lines) on separate lines; each part is
    fitted on its own (``fit`` works line by line: the same text as fitting the whole)."""
    text = Prefitted("\n".join(parts))
    text.fitted = "\n".join(fit(part) for part in parts)
    return text


def fit_message(text):
    """``fit`` for what ``msg`` takes: a string, or ``(string, {options})``."""
    global _last_fit
    if type(text) is Prefitted:
        return text.fitted
    if isinstance(text, str):
        if text is not _last_fit[0]:
            _last_fit = (text, fit(text))
        return _last_fit[1]
    if isinstance(text, tuple) and text and isinstance(text[0], str):
        opts = text[1] if len(text) > 1 and isinstance(text[1], dict) else {}
        if opts.get("type") in VERBATIM:
            return text
        return (fit(text[0]), *text[1:])
    return text
