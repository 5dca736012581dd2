"""Screen-reader mode (issue 29): one setting per account, off unless its player asks.

A screen reader reads box art and aligned columns aloud character by character ("equals
equals equals ...", "dot dot dot"), and a table cell without its column's name means
nothing read alone. An account that turns this on (``+combat/screenreader on``) reads
``+combat``, ``+sheet`` and the turn lines as one fact a line with nothing drawn: the same
facts, said in words. Stored on the Account (every character it plays reads alike).
"""

from __future__ import annotations

import re

#: the Attribute on the Account; absent is off
ATTR = "wod_screenreader"

_PREFIX = re.compile(r"^\s*(?:\|w)?\[Combat(?:: ([^\]]*))?\](?:\|n)?\s*")


def account_of(obj):
    """The account behind ``obj`` (an Account, or a character someone plays), or None."""
    if obj is None:
        return None
    if hasattr(obj, "puppet_object"):
        return obj
    if not obj.sessions.count():  # nobody reads it: asked of the cache, no query
        return None
    return obj.account


def is_on(obj) -> bool:
    account = account_of(obj)
    return bool(account is not None and account.attributes.get(ATTR))


def set_on(account, on: bool) -> None:
    if on:
        account.attributes.add(ATTR, True)
    else:
        account.attributes.remove(ATTR)


def linear(text: str) -> str:
    """The room's turn lines, one fact a line: no indentation to hear, no arrows ("->",
    "=>") read as punctuation, the prefix said as a word."""
    out = []
    for line in text.split("\n"):
        # "[Combat: Alley]" (a fight followed from elsewhere) is said "Combat in Alley:"
        line = _PREFIX.sub(lambda m: f"Combat in {m[1]}: " if m[1] else "Combat: ",
                           line).strip()
        if line:
            out.append(line.replace(" -> ", " to ").replace(" => ", ", result: "))
    return "\n".join(out)
