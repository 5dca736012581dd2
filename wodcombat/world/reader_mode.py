"""Screen-reader mode (issue 29): one setting per account, off unless its player asks.

A screen reader reads box art and aligned columns aloud character by character ("equals
equals equals ...", "dot dot dot"), and a table cell without its column's name means
nothing read alone. An account that turns this on (``+combat/screenreader on``) reads
``+combat``, ``+sheet`` and the turn lines as one fact a line with nothing drawn: the same
facts, said in words. Stored on the Account (every character it plays reads alike).
"""

from __future__ import annotations

import re

from django.db.models.signals import post_delete, post_save
from evennia.typeclasses.attributes import Attribute

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


#: bumped whenever such an Attribute is written or deleted anywhere (its own save and delete
#: signals: this module's setter, staff, a test's cleanup): an account's setting is read from
#: its Attribute once per change, not once per message (issue 32: a fight's command asked
#: the Attribute handler once per reader, about a twentieth of a declaration's server time)
_epoch = [0]


def _on_attribute_write(sender, instance, **kwargs):
    if instance.db_key == ATTR:
        _epoch[0] += 1


post_save.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_reader_saved")
post_delete.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_reader_deleted")


def is_on(obj) -> bool:
    """Whether ``obj`` (an Account, or a character someone plays) reads in this mode. The
    answer is kept on ``obj`` with the epoch and the account it was read for (a character
    puppeted by another account asks again): a fight tells each reader every command."""
    if hasattr(obj, "puppet_object"):
        account_id = obj.id
    elif obj is None or not obj.sessions.count():  # nobody reads it: asked of the cache
        return False
    else:
        account_id = obj.db_account_id
    kept = getattr(obj, "_wod_reader", None)
    if kept is None or kept[0] != _epoch[0] or kept[1] != account_id:
        account = account_of(obj)
        on = bool(account is not None and account.attributes.get(ATTR))
        kept = obj._wod_reader = (_epoch[0], account_id, on)
    return kept[2]


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
