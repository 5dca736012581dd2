"""The combat log: the fight's records in the database, exported as JSON Lines.

Each command appends ONE row (``world.models.CombatRecord``) inside the transaction that
saves the fight's state and the sheets it changed, so the log can never lose or keep a
command the state did not (issue 14). After the commit the records are appended to
``COMBAT_LOG_DIR/<combat id>.jsonl``, an export for tools (``bin/replay``) and people; a
missing export is rebuilt from the rows.

Each record: ``seq`` (increasing over the whole fight), ``ts`` (unix time), ``combat`` (its
id), ``ruleset``, ``turn``, ``phase``, ``event`` and the event's own fields.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Iterable, Mapping

from django.conf import settings
from django.db import transaction

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_last_seq: dict[str, int] = {}  # combat id -> last seq written (the rows are the truth)
_exported: dict[str, tuple[int, int]] = {}  # combat id -> (last seq, size) of its export
_open: dict[str, tuple] = {}  # export path -> (its file open for appending, its inode)
_OPEN_MAX = 64  # more than a game's fights at once (load.py plays 20): each one a descriptor

#: ``json.dumps(rec, default=str)`` with its encoder built once (dumps with an argument
#: builds a new one per call: a fifth of encoding a command's records)
_encode = json.JSONEncoder(default=str).encode

#: records ``+combat/log`` leaves out: bookkeeping, not something that happened
QUIET = frozenset({"intent", "prompt", "defend", "extra_actions"})


class RawJSON(str):
    """A record's field already encoded as JSON (the sheets an intent read, as stored): the
    record's text splices it in as it is, after the other fields, instead of decoding and
    encoding it again (issue 13)."""

    __slots__ = ()


def log_dir() -> str:
    return settings.COMBAT_LOG_DIR


def path_for(combat_id: str) -> str:
    return os.path.join(log_dir(), _SAFE.sub("_", str(combat_id)) + ".jsonl")


def event_of(record: Mapping):
    """A log record as the event it recorded (for the renderer)."""
    from combat.core.events import Event

    ev = {k: v for k, v in record.items() if k not in ("seq", "ts", "combat", "ruleset")}
    if record.get("event") == "start":  # the record's ruleset is the one the start named
        ev["ruleset"] = record.get("ruleset")
    return Event.from_dict(ev)


def clock(state) -> tuple[int, str]:
    """(turn, phase) of a state: a d10 turn and phase, or a spotlight round and stage."""
    if hasattr(state, "round"):
        return state.round, state.stage
    return state.turn, state.phase


def build(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
          *, seq: int = 0, now: float = 0.0) -> list[dict]:
    return _build(combat_id, ruleset, turn, phase, events, seq=seq, now=now)[0]


def _build(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
           *, seq: int = 0, now: float = 0.0, decoded: bool = True
           ) -> tuple[list[dict], list[str]]:
    """The log records of ``events``, numbered from ``seq`` + 1 (pure; ``bin/replay``
    rebuilds a command's records this way to compare them with the logged ones).

    ``turn`` and ``phase`` are where the combat stood before these events; the d10
    ``turn``/``phase`` and the spotlight ``round``/stage events move them on, so each record
    says when it happened. An event's own ``turn``/``phase`` field (an act's main/extra) is
    kept as ``event_turn``/``event_phase``. Values are as JSON keeps them (lists, not
    tuples). ``decoded=False``: the records as built, not read back from their JSON (a
    command's write needs only their texts and seqs; decoding them cost a fifth of its log
    write).
    """
    records, texts = [], []
    for ev in events:
        kind = ev.get("event", "note")
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
        rec = {"seq": seq, "ts": round(now, 3), "combat": combat_id, "ruleset": ruleset,
               "turn": turn, "phase": phase, "event": kind}
        for k, v in ev.items():
            if k in ("turn", "phase") and kind not in ("turn", "phase", "prompt"):
                rec["event_" + k] = v
            elif k not in ("event", "seq", "ts", "combat", "ruleset", "turn", "phase"):
                rec[k] = v
        # Encoded once: the row and the export are these texts (dumping the decoded record
        # again gives the same text), the record is what JSON keeps.
        raw = [k for k, v in rec.items() if type(v) is RawJSON] if kind == "intent" else ()
        if raw:
            head = _encode({k: v for k, v in rec.items() if k not in raw})[:-1]
            texts.append(head + "".join(f", {_encode(k)}: {rec[k]}" for k in raw) + "}")
        else:
            texts.append(_encode(rec))
        records.append(json.loads(texts[-1]) if decoded else rec)
    return records, texts


def _last(combat_id: str) -> int:
    seq = _last_seq.get(combat_id)
    if seq is None:  # after a reload: one query, then the memory keeps it
        from .models import CombatRecord

        row = CombatRecord.objects.filter(combat=combat_id).order_by("-last_seq").first()
        seq = row.last_seq if row else 0
    return seq


def write(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
          *, undo: Mapping | str | None = None) -> list[dict]:
    """Append ``events`` as one row (call it inside the transaction that saves the state);
    the JSONL export follows the commit. ``undo``: what restoring the fight to before this
    command needs (or its JSON already). Returns the records (with their seq) as built:
    what the row holds is their JSON, which ``read`` decodes."""
    from . import plain_writes

    events = list(events)
    if not events:
        return []
    records, texts = _build(combat_id, ruleset, turn, phase, events, seq=_last(combat_id),
                            now=time.time(), decoded=False)
    if undo and not isinstance(undo, str):
        undo = json.dumps(undo)
    plain_writes.insert_record(combat_id, records[0]["seq"], records[-1]["seq"], turn,
                               "[" + ", ".join(texts) + "]", undo or "")
    _last_seq[combat_id] = records[-1]["seq"]
    transaction.on_commit(lambda: export(combat_id, records, texts))
    return records


def export(combat_id: str, records: list[dict], texts: list[str] | None = None) -> None:
    """Append committed ``records`` (``texts``: their JSON if known) to the JSONL file; a
    file that is missing (or behind) is rebuilt from the rows first."""
    path = path_for(combat_id)
    try:
        st = os.stat(path)
        size, inode = st.st_size, st.st_ino
    except FileNotFoundError:
        size = inode = None
    # The file as this process left it (same size, ending at the seq before these) needs no
    # reading; otherwise its tail says where it ends.
    if _exported.get(combat_id) != (records[0]["seq"] - 1, size):
        if size is None:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        if _file_last_seq(path) != records[0]["seq"] - 1:
            rebuild(combat_id)
            _exported[combat_id] = (records[-1]["seq"], os.path.getsize(path))
            return
    fh = _appender(path, inode)
    fh.write("".join(t + "\n" for t in (texts or map(json.dumps, records))))
    fh.flush()  # on disk before the next command reads its size (and for bin/replay)
    _exported[combat_id] = (records[-1]["seq"], fh.tell())


def _appender(path: str, inode: int | None):
    """The export's file, open for appending: kept open between commands (opening and
    closing it was half of an export's cost, issue 13), the ``_OPEN_MAX`` latest only. A
    file replaced since (a rebuild, someone's hand) has another inode: opened anew."""
    kept = _open.pop(path, None)
    if kept is not None and (inode is None or kept[1] != inode):
        kept[0].close()
        kept = None
    if kept is None:
        fh = open(path, "a", encoding="utf-8")
        kept = (fh, os.fstat(fh.fileno()).st_ino)
    _open[path] = kept  # the latest last
    while len(_open) > _OPEN_MAX:
        _open.pop(next(iter(_open)))[0].close()
    return kept[0]


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
    from .models import CombatRecord

    return CombatRecord.objects.filter(combat=combat_id).order_by("first_seq")


def read(combat_id: str, last: int | None = None) -> list[dict]:
    """Every record (or the ``last`` ones), oldest first, from the rows."""
    out = [r for row in rows(combat_id) for r in json.loads(row.records)]
    return out[-last:] if last else out


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
    """Drop what memory keeps of a fight's log: its last seq (a reload, a transaction rolled
    back) and where its export ends (a fight that ended: nothing is written to it again,
    and a long-running game would keep both for every fight it ever had)."""
    _last_seq.pop(combat_id, None)
    _exported.pop(combat_id, None)
    kept = _open.pop(path_for(combat_id), None)  # nor an open file
    if kept is not None:
        kept[0].close()
