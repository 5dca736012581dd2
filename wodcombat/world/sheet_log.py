"""Which sheets a command's log record carries (issue 13).

Replay re-applies each logged intent with the sheets the engine read. Logging every sheet
read, in full, cost a command more than any other part of its log row (a dict and a JSON
encoding per sheet, 2-3 kB each). A sheet is logged now only when the log does not already
say what it is: the first time the fight reads it, and after anything outside the fight's
commands changed it (staff ``+sheet/set``, a mock fight putting sheets back). Replay carries
each sheet forward from the last one logged, or from the change its own re-applied command
made (``wodcombat/world/combat_replay.py``); intent records written this way say so
(``sheets_carried``), older ones are replayed as before.

What the log gives is kept per fight in memory (a reload starts over: the next command logs
every sheet it reads again), as the stored JSON text, so "unchanged" is one string compare;
a logged sheet is that stored text spliced in, never encoded again.
"""

from __future__ import annotations

from . import jsontext

_dumps = jsontext.dumps  # json.dumps, its encoder built once


def known(script) -> dict[str, str]:
    """key -> the sheet's stored JSON as the fight's log last gave it."""
    kept = getattr(script, "wod_sheets_logged", None)
    if kept is None:
        kept = script.wod_sheets_logged = {}
    return kept


def forget(script) -> None:
    """After a rollback or an undo (sheets put back outside the engine): log them again."""
    script.wod_sheets_logged = None


def to_log(sheets, given: dict[str, str]) -> dict[str, str]:
    """The sheets ``sheets`` (the service's lazy mapping) read that the log cannot carry
    forward: key -> JSON text. A sheet with no stored text (stored as a dict before issue
    13) is encoded and always logged."""
    out = {}
    texts = sheets.texts
    for key, sheet in sheets.read.items():
        text = texts.get(key)
        if text is None:
            out[key] = _dumps(sheet.to_dict())
        elif given.get(key) != text:
            out[key] = text
    return out


def text_of(sheets, key: str) -> str:
    """One sheet read, as JSON (its stored text when it has one)."""
    text = sheets.texts.get(key)
    return text if text is not None else _dumps(sheets.read[key].to_dict())


def as_json(texts: dict[str, str]) -> str:
    """``json.dumps`` of key -> sheet, from each sheet's JSON text."""
    return "{" + ", ".join(f"{_dumps(k)}: {t}" for k, t in texts.items()) + "}"


def remember(given: dict[str, str], logged: dict[str, str], changed) -> None:
    """After the commit: what was logged, and each changed sheet as stored now
    (``changed``: (key, character) pairs)."""
    given.update(logged)
    for key, obj in changed:
        text = obj.sheet.stored_text()
        if text is None:
            given.pop(key, None)
        else:
            given[key] = text
