"""Replay a logged fight: re-apply each logged intent to the replayed state with the dice it
consumed and the sheets it read, and report the first thing that differs (issue 8).

It is the test of purity (the engine decides only from its inputs) and what audits and undo
build on. Three things are compared after each command, in this order: the log records of
its events (everything but ``seq`` and ``ts``), the fingerprint of the state it committed,
and the text the room read (rendered again from the replayed events).

No database: the log file and the rules folder are all it reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from wodcombat.combat.d10 import idle
from wodcombat.combat.core import intents as it
from wodcombat.combat.core.dice_log import OutOfDice, ReplayDice
from wodcombat.combat.core.engine import engine_of_state
from wodcombat.combat.core.events import Event
from wodcombat.combat.core.errors import WodError
from wodcombat.combat.core.sheet import Sheet

from . import combat_text, combatlog
from .combat_text import Names

_META = ("seq", "ts")


@dataclass(frozen=True)
class Difference:
    command: int  # 1-based index of the command in the log
    seq: int | None  # the log seq where it shows
    what: str  # "events", "state", "text", "error"
    logged: object
    replayed: object

    def __str__(self) -> str:
        return (f"command {self.command} (log seq {self.seq}): {self.what} differ\n"
                f"  logged:   {self.logged}\n  replayed: {self.replayed}")


@dataclass(frozen=True)
class Report:
    commands: int  # commands re-applied
    difference: Difference | None

    @property
    def ok(self) -> bool:
        return self.difference is None


def read(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


_HEADS = ("intent", "undo")  # the record that begins a command in the log


def _commands(records: list[dict]) -> Iterable[tuple[list[dict], dict, list[dict]]]:
    """(prelude, intent or undo record, event records) for each command in the log."""
    prelude: list[dict] = []
    i = 0
    while i < len(records):
        rec = records[i]
        if rec["event"] not in _HEADS:
            prelude.append(rec)
            i += 1
            continue
        j = i + 1
        while j < len(records) and records[j]["event"] not in (*_HEADS, "start") \
                and not records[j].get("prelude"):
            j += 1
        yield prelude, rec, records[i + 1:j]
        prelude = []
        i = j


def _strip(records: Iterable[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in _META} for r in records]


def sheets_read(asked: dict, carried: dict[str, Sheet]) -> dict[str, Sheet]:
    """The sheets an intent's command read: those its record logs, and (a record that says
    ``sheets_carried``) every other one as the log last gave it, but for those it found no
    sheet for. ``carried`` takes the logged ones."""
    logged = {k: Sheet.from_dict(v) for k, v in asked.get("sheets", {}).items()}
    carried.update(logged)
    if not asked.get("sheets_carried"):
        return logged  # logged before issue 13's change: every sheet read is in the record
    missing = asked.get("no_sheet") or ()
    return {k: v for k, v in carried.items() if k not in missing}


def carry_changes(carried: dict[str, Sheet], changes) -> None:
    """A re-applied command's sheet changes, as the next command reads them back from
    their stored JSON."""
    for key, sheet in changes.items():
        carried[key] = Sheet.from_dict(json.loads(json.dumps(sheet.to_dict())))


def replay(records: list[dict], load_rules: Callable[[str], object]) -> Report:
    """Re-apply every command of one fight's log; ``load_rules(name)`` gives its rules."""
    from .combat_service import digest

    start = next((r for r in records if r["event"] == "start"), None)
    if start is None or "state" not in start:
        raise WodError("The log has no start record with the fight's first state.")
    rules = load_rules(start["ruleset"])
    engine = engine_of_state(start["state"])
    state = engine.load(start["state"])
    done = 0
    befores: dict[int, object] = {}  # intent seq -> the state before it (for undo)
    carried: dict[str, Sheet] = {}  # each sheet as the log last gave it (sheet_log.py)
    for n, (prelude, asked, logged) in enumerate(_commands(records), 1):
        seq = logged[0]["seq"] if logged else asked["seq"]
        if asked["event"] == "undo":  # the state goes back to before the undone command
            carried.clear()  # and its sheets: the commands after it log them again
            state = befores[asked["undone"]]
            if asked.get("fresh_clock"):  # since issue 28 an undo restarts a clock run out
                state = idle.fresh_clock(state, asked["now"])
            state = engine.stamp(state, asked.get("timeout"), asked.get("now", 0.0))
            mine_digest = digest(json.dumps(state.to_dict()))
            if mine_digest != asked.get("digest"):
                return Report(done, Difference(n, seq, "state", asked.get("digest"),
                                               mine_digest))
            done += 1
            continue
        befores[asked["seq"]] = state
        intent = it.from_dict(asked["intent"])
        sheets = sheets_read(asked, carried)
        turn, phase = asked["turn"], asked["phase"]
        try:
            out = engine.apply(state, intent, sheets, rules, ReplayDice(asked.get("dice", ())))
        except (WodError, OutOfDice) as err:
            return Report(done, Difference(n, seq, "error", "applied", repr(err)))
        carry_changes(carried, out.sheet_changes)
        events = [e.to_dict() for e in out.events]
        mine = combatlog.build(start["combat"], start["ruleset"], turn, phase, events)
        if _strip(mine) != _strip(logged):
            first = next((i for i, (a, b) in enumerate(zip(_strip(logged), _strip(mine)))
                          if a != b), min(len(logged), len(mine)))
            return Report(done, Difference(
                n, logged[first]["seq"] if first < len(logged) else seq, "events",
                _strip(logged)[first] if first < len(logged) else None,
                _strip(mine)[first] if first < len(mine) else None))
        state = engine.stamp(out.state, asked.get("timeout"), asked.get("now", 0.0))
        if "digest" in asked:
            mine_digest = digest(json.dumps(state.to_dict()))
            if mine_digest != asked["digest"]:
                return Report(done, Difference(n, seq, "state", asked["digest"], mine_digest))
        if "text" in asked:
            shown = (*(Event.from_dict(p) for p in prelude), *out.events)
            text = combat_text.room_text(engine.name, shown, state, Names(state, shown))
            if text != asked["text"]:
                return Report(done, Difference(n, seq, "text", asked["text"], text))
        done += 1
    return Report(done, None)
