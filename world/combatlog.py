"""The combat log: one JSON Lines file per combat, one object per event.

Why a file and not the database: the log is append-only, read rarely (``+combat/log``, a
staffer checking a roll), and may grow long; a file costs the game no query per event.

Each line: ``seq`` (increasing across the whole file), ``ts`` (unix time), ``combat`` (its
id), ``ruleset``, ``turn``, ``phase``, ``event`` and the event's own fields (the scheduler's
events and the ``roll`` / ``damage`` / ``condition`` events the command layer adds).
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Iterable, Mapping

from django.conf import settings

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_last_seq: dict[str, int] = {}  # combat id -> last seq written (the file is the truth)


def log_dir() -> str:
    return settings.COMBAT_LOG_DIR


def path_for(combat_id: str) -> str:
    return os.path.join(log_dir(), _SAFE.sub("_", str(combat_id)) + ".jsonl")


def _tail_seq(path: str) -> int:
    """The seq of the file's last line (after a reload the memory cache is empty)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 65536))
            lines = [ln for ln in fh.read().splitlines() if ln.strip()]
    except FileNotFoundError:
        return 0
    for line in reversed(lines):
        try:
            return int(json.loads(line).get("seq", 0))
        except (ValueError, AttributeError):
            continue
    return 0


#: records ``+combat/log`` leaves out: bookkeeping, not something that happened
QUIET = frozenset({"intent", "prompt", "act", "defend", "extra_actions"})


def event_of(record: Mapping):
    """A log record as the event it recorded (for the renderer)."""
    from combat.core.events import Event

    return Event.from_dict({k: v for k, v in record.items()
                            if k not in ("seq", "ts", "combat", "ruleset")})


def clock(state) -> tuple[int, str]:
    """(turn, phase) of a state: a d10 turn and phase, or a spotlight round and stage."""
    if hasattr(state, "round"):
        return state.round, state.stage
    return state.turn, state.phase


def build(combat_id: str, ruleset: str, turn: int, phase: str, events: Iterable[Mapping],
          *, seq: int = 0, now: float = 0.0) -> list[dict]:
    """The log records of ``events``, numbered from ``seq`` + 1 (pure; ``bin/replay``
    rebuilds a command's records this way to compare them with the logged ones).

    ``turn`` and ``phase`` are where the combat stood before these events; the d10
    ``turn``/``phase`` and the spotlight ``round``/stage events move them on, so each record
    says when it happened. An event's own ``turn``/``phase`` field (an act's main/extra) is
    kept as ``event_turn``/``event_phase``. Values are as JSON keeps them (lists, not
    tuples).
    """
    records = []
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
        records.append(json.loads(json.dumps(rec, default=str)))
    return records


def write(combat_id: str, ruleset: str, turn: int, phase: str,
          events: Iterable[Mapping]) -> list[dict]:
    """Append ``events`` (see ``build``); returns the records written (with their seq)."""
    events = list(events)
    if not events:
        return []
    path = path_for(combat_id)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    seq = _last_seq.get(combat_id)
    if seq is None:
        seq = _tail_seq(path)
    records = build(combat_id, ruleset, turn, phase, events, seq=seq, now=time.time())
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records))
    _last_seq[combat_id] = records[-1]["seq"]
    return records


def read(combat_id: str, last: int | None = None) -> list[dict]:
    """Every record (or the ``last`` ones), oldest first; unreadable lines are skipped."""
    out = []
    try:
        with open(path_for(combat_id), encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
    except FileNotFoundError:
        return []
    return out[-last:] if last else out


def forget(combat_id: str) -> None:
    """Drop the in-memory seq (tests simulating a reload)."""
    _last_seq.pop(combat_id, None)
