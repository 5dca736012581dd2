"""``json.dumps`` with its C encoder built once (issue 13).

``json.dumps(obj)`` makes a new encoder for every call (with an argument such as
``default=``, a new ``JSONEncoder`` too) and then joins its chunks; for the dozens of small
values one fight command encodes (each log record, each changed combatant, a sheet), that
set-up cost as much as the encoding itself. These encode exactly as ``json.dumps`` with its
defaults (ASCII, ", " and ": ", keys in their order) but skip the check for circular values:
one would raise ``RecursionError`` instead of ``ValueError`` (none of ours is circular).
"""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring_ascii

from wodcombat.combat.core.events import Later


def _dumps_with(fallback):
    def default(value):  # an event field made when read (a damage's detail): its value
        return value.make() if type(value) is Later else fallback(value)

    if c_make_encoder is None:  # a Python without the C accelerator
        return json.JSONEncoder(default=default).encode
    encode = c_make_encoder(None, default, encode_basestring_ascii, None, ": ", ", ", False,
                            False, True)
    join = "".join

    def dumps(obj) -> str:
        return join(encode(obj, 0))

    return dumps


#: ``json.dumps(obj)``
dumps = _dumps_with(json.JSONEncoder().default)
#: ``json.dumps(obj, default=str)``: what the combat log does with a value JSON has no form for
dumps_or_str = _dumps_with(str)
