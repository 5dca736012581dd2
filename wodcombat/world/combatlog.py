"""The combat log: the fight's records in the database, exported as JSON Lines.

Each command appends ONE row (``wodcombat.models.CombatRecord``) inside the transaction that
saves the fight's state and the sheets it changed, so the log can never lose or keep a
command the state did not (issue 14). The rows are the log; ``WODCOMBAT_LOG_DIR/<combat
id>.jsonl`` is an export of them for tools (``bin/replay``) and people, appended to with
what the fight committed since at each tick of its clock
(``wodcombat/typeclasses/combat_timers.py``, every 2 s), when it ends and when the server
stops (issue 13: one file write a tick, not a ``stat``, a write and a flush per command).
An export that is missing or behind (a crash between a commit and the next tick) is rebuilt
from the rows.

Each record: ``seq`` (increasing over the whole fight), ``ts`` (unix time), ``combat`` (its
id), ``ruleset``, ``turn``, ``phase``, ``event`` and the event's own fields.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Iterable, Mapping

from wodcombat import conf
from django.db import transaction

from wodcombat.combat.core.events import Event

from . import jsontext

_str = json.encoder.encode_basestring_ascii  # json.dumps of a str, without the encoder call

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_last_seq: dict[str, int] = {}  # combat id -> last seq written (the rows are the truth)
_exported: dict[str, tuple[int, int]] = {}  # combat id -> (last seq, size) of its export
#: combat id -> [first seq, last seq, record texts]: committed, not exported yet
_pending: dict[str, list] = {}

#: ``json.dumps(rec, default=str)`` with its encoder built once (dumps with an argument
#: builds a new one per call: a fifth of encoding a command's records; wodcombat/world/jsontext.py)
_encode = jsontext.dumps_or_str

#: records ``+combat/log`` leaves out: bookkeeping, not something that happened
QUIET = frozenset({"intent", "prompt", "defend", "extra_actions"})


class RawJSON(str):
    """A record's field already encoded as JSON (the sheets an intent read, as stored): the
    record's text splices it in as it is, after the other fields, instead of decoding and
    encoding it again (issue 13)."""

    __slots__ = ()


def log_dir() -> str:
    return conf.log_dir()


def path_for(combat_id: str) -> str:
    return os.path.join(log_dir(), _SAFE.sub("_", str(combat_id)) + ".jsonl")


def event_of(record: Mapping):
    """A log record as the event it recorded (for the renderer)."""
    from wodcombat.combat.core.events import Event

    ev = {k: v for k, v in record.items() if k not in ("seq", "ts", "combat", "ruleset")}
    if record.get("event") == "start":  # the record's ruleset is the one the start named
        ev["ruleset"] = record.get("ruleset")
    return Event.from_dict(ev)


def clock(state) -> tuple[int, str]:
    """(turn, phase) of a state: a d10 turn and phase, or a spotlight round and stage."""
    if hasattr(state, "round"):
        return state.round, state.stage
    return state.turn, state.phase


#: a record's own fields: an event's field of the same name is dropped, or (its own turn
#: and phase, but for the events that move the clock) kept as ``event_turn``/``event_phase``
_RESERVED = frozenset({"event", "seq", "ts", "combat", "ruleset", "turn", "phase"})
_CLOCK_EVENTS = frozenset({"turn", "phase", "prompt"})


def build(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
          *, seq: int = 0, now: float = 0.0) -> list[dict]:
    return [json.loads(t) for t in texts(combat_id, ruleset, turn, phase, events, seq=seq,
                                         now=now)]


def texts(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable,
          *, seq: int = 0, now: float = 0.0) -> list[str]:
    """The log records of ``events`` (dicts, or the engine's ``Event`` values), numbered from
    ``seq`` + 1, as JSON texts (pure; ``bin/replay`` rebuilds a command's records this way,
    through ``build``, to compare them with the logged ones).

    ``turn`` and ``phase`` are where the combat stood before these events; the d10
    ``turn``/``phase`` and the spotlight ``round``/stage events move them on, so each record
    says when it happened. An event's own ``turn``/``phase`` field (an act's main/extra) is
    kept as ``event_turn``/``event_phase``. Values are as JSON keeps them (lists, not
    tuples). Each text is what ``json.dumps`` gives for the record, so the row, the export
    and a record decoded and dumped again agree byte for byte.
    """
    out = []
    ts = repr(round(now, 3))  # json.dumps writes a float as its repr
    fight = f"{_encode(combat_id)}, \"ruleset\": {_encode(ruleset)}"
    clock = None  # (turn, phase) the encoded part below is for
    for ev in events:
        kind = ev.get("event", "note") if type(ev) is not Event else ev.kind
        if kind == "turn":
            turn = ev.get("turn", turn)
        elif kind == "phase":
            phase = ev.get("phase", phase)
            turn = ev.get("turn", turn)
        elif kind == "round":  # spotlight: the round is the turn, the stage the phase
            turn = ev.get("round", turn)
            phase = "opening" if ev.get("ambush") == "opponents" else "pcs"
        elif kind in ("spotlight", "prompt") and ev.get("stage"):
            phase = ev["stage"]
        seq += 1
        fields = ev.fields if type(ev) is Event else None
        if fields is not None and _RESERVED.isdisjoint(fields):
            # Issue 13: most events: the record's own fields as text, then the event's
            # fields encoded as they are (no record dict copied from them).
            if clock != (turn, phase):
                clock = (turn, phase)
                when = f"\"turn\": {_encode(turn)}, \"phase\": {_encode(phase)}"
            head = (f"{{\"seq\": {seq}, \"ts\": {ts}, \"combat\": {fight}, {when}, "
                    f"\"event\": {_str(kind) if type(kind) is str else _encode(kind)}")
            out.append(head + ", " + _encode(fields)[1:] if fields else head + "}")
            continue
        rec = {"seq": seq, "ts": round(now, 3), "combat": combat_id, "ruleset": ruleset,
               "turn": turn, "phase": phase, "event": kind}
        moved = kind not in _CLOCK_EVENTS
        for k, v in (ev.to_dict() if type(ev) is Event else ev).items():
            if k not in _RESERVED:
                rec[k] = v
            elif moved and (k == "turn" or k == "phase"):
                rec["event_" + k] = v
        raw = [k for k, v in rec.items() if type(v) is RawJSON] if kind == "intent" else ()
        if raw:
            head = _encode({k: v for k, v in rec.items() if k not in raw})[:-1]
            out.append(head + "".join(f", {_encode(k)}: {rec[k]}" for k in raw) + "}")
        else:
            out.append(_encode(rec))
    return out


def _last(combat_id: str) -> int:
    seq = _last_seq.get(combat_id)
    if seq is None:  # after a reload: one query, then the memory keeps it
        from wodcombat.models import CombatRecord

        row = CombatRecord.objects.filter(combat=combat_id).order_by("-last_seq").first()
        seq = row.last_seq if row else 0
    return seq


def write(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
          *, undo: Mapping | str | None = None, state: str = "") -> list[dict]:
    """Append ``events`` as one row (call it inside the transaction that saves the sheets);
    the JSONL export follows the commit. ``undo``: what restoring the fight to before this
    command needs beyond the row before it (or its JSON already); ``state``: the fight's
    state after it, as JSON. Returns the records' JSON texts (``read`` decodes the row's)."""
    from . import plain_writes

    first = _last(combat_id) + 1
    done = texts(combat_id, ruleset, turn, phase, events, seq=first - 1, now=time.time())
    if not done:
        return []
    if undo and not isinstance(undo, str):
        undo = jsontext.dumps(undo)
    last = first + len(done) - 1
    plain_writes.insert_record(combat_id, first, last, turn, "[" + ", ".join(done) + "]",
                               undo or "", state)
    _last_seq[combat_id] = last
    transaction.on_commit(lambda: _queue(combat_id, first, last, done))
    return done


def _queue(combat_id: str, first: int, last: int, texts: list[str]) -> None:
    """Committed records wait for the next ``flush`` of their fight."""
    kept = _pending.get(combat_id)
    if kept is not None and kept[1] != first - 1:  # not what follows: export those first
        flush(combat_id)
        kept = None
    if kept is None:
        _pending[combat_id] = [first, last, list(texts)]
    else:
        kept[1] = last
        kept[2].extend(texts)


def flush(combat_id: str) -> None:
    """Append what ``combat_id`` committed since the last flush to its export. A failure is
    logged, never raised: the rows are the log, and the next flush rebuilds what is
    missing."""
    kept = _pending.pop(combat_id, None)
    if kept is not None:
        try:
            export(combat_id, kept[0], kept[1], kept[2])
        except Exception:
            from evennia.utils import logger

            logger.log_trace(f"combat: could not export the log of {combat_id}")


def flush_all() -> None:
    """Every fight's export up to date (the server is stopping)."""
    for combat_id in list(_pending):
        flush(combat_id)


def export(combat_id: str, first: int, last: int, texts: list[str]) -> None:
    """Append committed records ``first``..``last`` (their JSON ``texts``) to the JSONL
    file; a file that is missing (or behind) is rebuilt from the rows instead."""
    path = path_for(combat_id)
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        size = None
    # The file as this process left it (same size, ending at the seq before these) needs no
    # reading; otherwise its tail says where it ends.
    if _exported.get(combat_id) != (first - 1, size):
        if size is None:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        if _file_last_seq(path) != first - 1:
            rebuild(combat_id)
            _exported[combat_id] = (last, os.path.getsize(path))
            return
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(t + "\n" for t in texts))
        _exported[combat_id] = (last, fh.tell())


def rebuild(combat_id: str) -> str:
    """Write the JSONL export anew from the rows; returns its path."""
    path = path_for(combat_id)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in read(combat_id)))
    os.replace(tmp, path)
    return path


def _file_last_seq(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 65536))
            lines = [ln for ln in fh.read().splitlines() if ln.strip()]
    except FileNotFoundError:
        return 0
    for line in reversed(lines):
        try:
            return int(json.loads(line).get("seq", 0))
        except (ValueError, AttributeError):
            continue
    return 0


def rows(combat_id: str):
    from wodcombat.models import CombatRecord

    return CombatRecord.objects.filter(combat=combat_id).order_by("first_seq")


def read(combat_id: str, last: int | None = None) -> list[dict]:
    """Every record (or the ``last`` ones), oldest first, from the rows."""
    out = [r for text in rows(combat_id).values_list("records", flat=True)
           for r in json.loads(text)]
    return out[-last:] if last else out


def state_before(combat_id: str, seq: int | None = None) -> str | None:
    """The fight's stored state as the newest row before ``seq`` (None: the newest row of
    all) left it; None if no such row keeps one (rows written before issue 13), so the
    Script's ``state`` Attribute has it."""
    from .state_text import read_back

    found = rows(combat_id).exclude(state="")
    if seq is not None:
        found = found.filter(last_seq__lt=seq)
    # Issue 13: most rows keep only what their command changed (wodcombat/world/state_text.py)
    return read_back(found.order_by("-last_seq").values_list("state", flat=True).iterator())


def undone(records: list[dict]) -> set[int]:
    """The seqs of every record of the commands an undo reverted (they stay in the log)."""
    heads = {r["undone"] for r in records if r.get("event") == "undo"}
    out: set[int] = set()
    current = None
    for r in records:
        if r.get("event") in ("intent", "undo", "start"):
            current = r["seq"] if r["seq"] in heads else None
        if current is not None:
            out.add(r["seq"])
    return out


def forget(combat_id: str) -> None:
    """Drop what memory keeps of a fight's log, once its export has what it committed: its
    last seq (a reload, a transaction rolled back) and where its export ends (a fight that
    ended: nothing is written to it again, and a long-running game would keep both for
    every fight it ever had)."""
    flush(combat_id)
    _last_seq.pop(combat_id, None)
    _exported.pop(combat_id, None)
