"""The combat service: load the state and the sheets involved, ``apply`` the intent, commit
state + changed sheets + the log in one transaction, tell the room (issue 8).

Everything that changes a fight comes through here: the ``+combat`` command, the idle
clock (``wodcombat/typeclasses/combat_timers.py``) and a character's deletion
(``wodcombat/typeclasses/combat_guard.py``). The engine (``wodcombat.combat.core``) decides;
this module only reads, writes and sends, and never asks which engine runs.

The log holds, before each command's events, an ``intent`` record: what was asked, the
dice it consumed and the sheets it read, so ``bin/replay`` can re-apply it and compare.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wodcombat import conf
from django.db import transaction

from wodcombat.combat.d10 import idle
from wodcombat.combat.core import intents as it
from wodcombat.combat.core.dice_log import RecordingDice
from wodcombat.combat.core.engine import engine_for
from wodcombat.combat.core.events import Event
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.core.memo import Memo
from wodcombat.combat.core.player_text import checked_name, plain_text

from . import (combat_limits, combat_text, combatlog, fight_relay, jsontext, oob, reader_mode,
               sheet_log)
from .listeners import listeners
from .dice_source import GAME_DICE
from .text_width import prefitted
from .combat_text import Names

_dumps = jsontext.dumps  # json.dumps, its encoder built once
COMBAT_KEY = "wod_combat"
SCRIPT_TYPECLASS = "wodcombat.typeclasses.combat.CombatScript"


# ---------------------------------------------------------------- reading


def names_of(state, events, objects: "Objects") -> Names:
    """Names for the room's text, with whoever acted from outside the fight (staff who left
    it and still deal damage or undo) named, not shown as "#1"."""
    inside = getattr(state, "get", None)  # its index, per key: no set of a crowd built
    extra = {}
    for ev in events:
        by = ev.get("by")
        if (by and type(by) is str and by not in extra
                and (inside is None or inside(by) is None)):
            obj = objects(by)
            if obj is not None:
                extra[by] = obj.key
    return Names(state, events, extra)


class Objects:
    """Game objects by ``#dbref``, each looked up once per command: from the server's cache
    of loaded objects (where whatever is in the room is), else the database. Issue 13: no
    map of the room's contents is built (a crowd of 100 NPCs paid for it on every command)."""

    def __init__(self, exclude=None):
        self._exclude = exclude
        self._cache: dict[str, Any] = {}
        self.rooms: dict = {}  # a stock room's listeners, drawn once (listeners.py)

    def forget(self) -> None:
        self._cache = {}
        self.rooms = {}

    def __call__(self, key: str | None):
        if not key:
            return None
        cache = self._cache
        if key in cache:
            return cache[key]
        from evennia.objects.models import ObjectDB

        try:
            pk = int(key.lstrip("#"))
        except ValueError:
            pk = None
        obj = None
        if pk is not None:
            obj = ObjectDB.get_cached_instance(pk) or ObjectDB.objects.filter(id=pk).first()
        cache[key] = None if obj is self._exclude else obj
        return cache[key]


class Sheets(dict):
    """The engine's ``sheets``: each character's sheet read once, when the engine asks.
    ``texts`` keeps the stored JSON each was parsed from (the log splices it in as it is),
    ``missing`` the keys asked for that have no sheet here (replay must refuse them too).

    A dict of the sheets read so far, reading on a miss (``__missing__``): the engine asks
    for the same sheets again and again (about ten times in an act, twenty in a ``+combat``
    table), and a repeated ask is then a plain dict lookup, not a Python method (issue 32).
    The engines ask with ``[]`` only; ``in``, ``get`` and iterating see the sheets read so
    far (what ``read`` was before: the log and undo ask it which were read)."""

    def __init__(self, objects: Objects):
        super().__init__()
        self._objects = objects
        self.texts: dict[str, str | None] = {}
        self.missing: list[str] = []

    @property
    def read(self) -> dict:
        """The sheets read so far, by key (this mapping itself)."""
        return self

    def __missing__(self, key: str):
        obj = self._objects(key)
        if obj is None or not hasattr(obj, "sheet"):
            if key not in self.missing:
                self.missing.append(key)
            raise KeyError(key)
        sheet, self.texts[key] = obj.sheet.read()
        self[key] = sheet
        return sheet


# ---------------------------------------------------------------- applying


@dataclass(frozen=True)
class Applied:
    script: Any
    before: Any
    state: Any
    events: tuple[Event, ...]
    records: list[str]  # the log records' JSON
    text: str | None  # what the room read
    names: Names | None = None  # who is who in that text (drawn once for room and prompts)


# The plans the engine may reuse from one command to the next (combat/core/memo.py), handed to
# ``apply`` explicitly: a sheet read afresh from its Attribute finds the plan an equal one
# left (a new memo per command built every plan anew: 0.4 M instructions more per act,
# bench/callgrind.py). Bounded (combat/core/memo.py SIZE); it never changes an answer, only
# spares building it, so nothing a test leaves in it can leak into another's result.
ENGINE_MEMO = Memo()


def digest(stored: str) -> str:
    """A short fingerprint of a stored state: replay compares it after each command."""
    return hashlib.sha1(stored.encode()).hexdigest()[:16]


def timeout_of(engine, state) -> tuple[int, str]:
    """(seconds, where it comes from): the fight's own, or the server's default."""
    own = engine.timeout(state)
    if own is not None:
        return int(own), "set for this fight"
    return conf.get("WODCOMBAT_DEFAULT_TIMEOUT"), "server default"


def run(script, intent: it.Intent, rng: random.Random, *, objects: Objects | None = None,
        prelude: tuple[dict, ...] = (), now: float | None = None,
        own_transaction: bool = True) -> Applied:
    """Apply ``intent`` to ``script``'s fight; commit; tell the room. Raises (changing
    nothing) when the engine refuses. ``own_transaction``: False when the caller's
    transaction holds this one (a fight's start, a new NPC)."""
    engine = script.engine()
    rules = script.ruleset()
    before = script.get_state()
    if isinstance(intent, it.Join):  # every way into a fight passes the fight's caps
        combat_limits.check_join(before, intent)
    objects = objects or Objects()
    sheets = Sheets(objects)
    dice = RecordingDice(rng)
    out = engine.apply(before, intent, sheets, rules, dice, memo=ENGINE_MEMO)
    now = time.time() if now is None else now
    timeout = timeout_of(engine, out.state)[0]
    state = engine.stamp(out.state, timeout, now)
    changed = []
    for key, sheet in out.sheet_changes.items():
        obj = objects(key)
        if obj is None:
            raise IllegalAction(f"{key} has no sheet here.")
        changed.append((obj, sheet))
    prelude = tuple({**e, "prelude": True} for e in prelude)  # told before the intent
    events = (*(Event.from_dict(e) for e in prelude), *out.events)
    names = names_of(state, events, objects)
    text = combat_text.room_text(engine.name, events, state, names)
    stored = script.dump(state)
    given = sheet_log.known(script)
    logged = sheet_log.to_log(sheets, given)  # the rest the log already gives (replay)
    asked = {"event": "intent", "intent": intent.to_dict(), "dice": list(dice.faces),
             "sheets": combatlog.RawJSON(sheet_log.as_json(logged)), "sheets_carried": True,
             "now": now, "timeout": timeout, "digest": digest(stored), "text": text}
    if sheets.missing:
        asked["no_sheet"] = list(sheets.missing)
    undo_sheets = {k: sheet_log.text_of(sheets, k) if k in sheets.read else
                   _dumps(o.sheet.get().to_dict())
                   for (o, _), k in zip(changed, out.sheet_changes)}
    # The state it started from is the row before's (wodcombat/typeclasses/combat.py); the sheets:
    undo = '{"sheets": ' + sheet_log.as_json(undo_sheets) + "}"
    if is_mock(script):  # a rehearsal: each sheet as it was before the fight first changed it
        kept = dict(script.attributes.get("mock_sheets") or {})
        fresh = {k: json.loads(undo_sheets[k]) for k in out.sheet_changes if k not in kept}
        if fresh:
            script.attributes.add("mock_sheets", {**kept, **fresh})
    # Issue 32: the owners of the sheets it changed hear their vitals with the room's text
    # (announce), not in a message of their own at the commit; inside a caller's transaction
    # and in a rehearsal (its sheets put back) at the commit, as before.
    later = own_transaction and not is_mock(script)
    records = script.commit(state, changed, [*prelude, asked, *out.events], before=before,
                            stored=stored, undo=undo, tell=not later)
    sheet_log.remember(given, logged, ((k, o) for (o, _), k in zip(changed,
                                                                      out.sheet_changes)))
    if is_mock(script) and isinstance(intent, it.Remove) and intent.actor:
        put_back(script, objects, only=intent.actor)
    done = Applied(script, before, state, events, records, text, names)
    announce(done, objects, changed if later else ())
    return done


def announce(done: Applied, objects: Objects, vitals=()) -> None:
    """The room reads what happened (ending with "everyone has declared" or "acted" when
    that is so), then whoever is now up is told. ``vitals``: (character, sheet) pairs just
    committed whose owners are to hear their vitals (GMCP), with the text where it can."""
    script, engine = done.script, done.script.engine()
    names = done.names or names_of(done.state, done.events, objects)
    room = script.obj
    already = set(engine.prompts(done.before))
    organizer = script.organizer
    personal: dict[str, list[str]] = {}  # key -> what they alone are told, in order
    pending = set(engine.prompts(done.state))
    for key, msg in (*combat_text.prompt_messages(engine.name, done.events, done.state, names,
                                                  already, organizer, pending),
                     *combat_text.ahead_messages(done.events, done.state, names, organizer)):
        personal.setdefault(key, []).append(msg)
    # Issue 13: one message per reader: the room's text with their own prompt after it (each
    # message is a trip to the portal, the biggest cost of a command after the database).
    told = set()  # who had the fight's GMCP with the text (oob.with_text)
    hurt = _vitals_first(vitals, room if done.text else None)
    if done.text and room is not None:
        # not msg_contents: it would $funcparse players' words
        for obj in listeners(room, objects.rooms):
            if getattr(obj, "is_npc", False) and not obj.sessions.count():  # staff puppet one
                continue
            own = personal.pop(f"#{obj.id}", None)
            text = prefitted(done.text, *own) if own else done.text
            gmcp = oob.with_text(obj, engine, done.before, done.state)
            if gmcp is not None:
                told.add(obj.id)
            if obj.id in hurt:
                gmcp = {**_vitals_of(obj, hurt.pop(obj.id)), **(gmcp or {})}
            obj.msg(reader_mode.linear(text) if reader_mode.is_on(obj) else text,
                    **(gmcp or {}))
    for obj, sheet in hurt.values():  # not among the room's readers after all
        oob.send_vitals(obj, sheet)
    for key, msgs in personal.items():  # told though not in the room (or nothing to read)
        obj = objects(key)
        if obj is not None:
            reader = reader_mode.is_on(obj)
            for msg in msgs:
                obj.msg(reader_mode.linear(msg) if reader else msg)
    fight_relay.relay(done, objects)  # watchers, the staff and relay channels, scene logs
    oob.combat_changed(engine, done.before, done.state, objects, room, told)  # the rest


def _vitals_first(vitals, room) -> dict:
    """Tell now, before the room's text, the owners of ``vitals`` (pairs) that will not
    read it in one message (elsewhere, several sessions: as at the commit); the rest, by
    object id, go with their text."""
    later = {}
    for obj, sheet in vitals:
        if room is not None and obj.location == room and obj.sessions.count() == 1:
            later[obj.id] = (obj, sheet)
        else:
            oob.send_vitals(obj, sheet)
    return later


def _vitals_of(obj, pair) -> dict:
    more = oob.vitals_with_text(obj, pair[1])
    if more is None:  # several sessions after all: on its own, as before
        oob.send_vitals(obj, pair[1])
        return {}
    return more


# ---------------------------------------------------------------- starting and NPCs


def new_id(room) -> str:
    """Unique over the game's life (database ids can come back after a rollback)."""
    return f"{room.id}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"


def start(room, rules, options: Mapping, organizer, rng: random.Random,
          mock: bool = False) -> Applied:
    """A new fight in ``room`` under ``rules``; the engine decides whether the organizer
    joins it (``opening``: d10 yes, spotlight no). ``mock``: staff rehearse: every sheet
    the fight changes is put back when it ends."""
    from evennia import create_script

    engine = engine_for(rules)
    out = engine.new_combat(new_id(room), rules, options)
    key = f"#{organizer.id}"
    first = out.events[0].to_dict()
    first.update(organizer=key, ruleset=rules.name, state=out.state.to_dict())
    if mock:
        first["mock"] = True
    script = None
    try:
        with transaction.atomic():
            script = create_script(SCRIPT_TYPECLASS, key=COMBAT_KEY, obj=room, persistent=True)
            script.setup(out.state, rules.name, key)
            if mock:
                script.set_mock()
            join = it.Join(by=key, actor=key, name=plain_text(organizer.key), opening=True)
            return run(script, join, rng, prelude=(first,), own_transaction=False)
    except BaseException:
        # Refused (or failed): the row is gone, the object and its timer are not.
        if script is not None:
            from wodcombat.typeclasses.rollback import discard_unborn

            discard_unborn(script)
        raise


def add_npc(script, name: str, sheet, by: str, rng: random.Random,
            template: str | None = None, **join) -> Applied:
    """Create the NPC object here with ``sheet`` and join it, all or nothing; the fight
    remembers it made this NPC (removed with the fight unless staff keep it). The NPC keeps
    the name of its ``template`` (its default action: wodcombat/world/npc_defaults.py)."""
    from evennia import create_object

    name = checked_name(name)  # every caller, not only the command that parsed it
    combat_limits.check_room(script.get_state(), npcs=1)  # before the object is made
    with transaction.atomic():
        npc = create_object(conf.npc_typeclass(), key=name, location=script.obj)
        npc.sheet.save(sheet)
        if template:
            npc.attributes.add("npc_template", template)
        key = f"#{npc.id}"
        script.attributes.add("npcs", [*(script.attributes.get("npcs") or []), key])
        return run(script, it.Join(by=by, actor=key, name=name, is_npc=True,
                                   controller=script.organizer, **join), rng,
                   own_transaction=False)


def add_npcs(script, names, sheet, by: str, rng: random.Random,
             template: str | None = None, **join) -> list[Applied]:
    """Several NPCs of one sheet, each its own resolution; the whole list is refused before
    any is made when it passes a cap (issue 30)."""
    combat_limits.check_batch(len(names))
    combat_limits.check_room(script.get_state(), npcs=len(names))
    return [add_npc(script, name, sheet, by, rng, template=template, **join)
            for name in names]


def is_mock(script) -> bool:
    return script.is_mock


def put_back(script, objects: Objects, only: str | None = None) -> list[str]:
    """A mock fight: the sheets it changed as they were before it (names put back)."""
    from wodcombat.combat.core.sheet import Sheet

    kept = dict(script.attributes.get("mock_sheets") or {})
    done = []
    for key, data in list(kept.items()):
        if only is not None and key != only:
            continue
        obj = objects(key)
        if obj is not None and hasattr(obj, "sheet"):
            obj.sheet.save(Sheet.from_dict(data))
            done.append(obj.key)
        kept.pop(key)
    script.attributes.add("mock_sheets", kept)
    return done


def made_here(script, key: str) -> bool:
    return key in (script.attributes.get("npcs") or [])


def discard_npc(script, key: str, objects: Objects) -> str | None:
    """Delete an NPC the fight made (its name, or None if it was not made here)."""
    obj = objects(key)
    if obj is None or not made_here(script, key):
        return None
    name = obj.key
    obj.delete()
    return name


def summary(script, state) -> dict:
    """Who was hurt, how much, and who fell, from the fight's log (undone commands left
    out): the ``summary`` record told and logged when the fight ends."""
    records = combatlog.read(script.combat_id)
    skip = combatlog.undone(records)
    hurt: dict[str, int] = {}
    dealt: dict[str, int] = {}
    fell: dict[str, str] = {}
    for r in records:
        kind, target = r.get("event"), r.get("target")
        if r["seq"] in skip:
            continue
        if kind == "damage" and target:
            hurt[target] = hurt.get(target, 0) + int(r.get("applied") or 0)
            if r.get("actor") and r["actor"] != target:
                dealt[r["actor"]] = dealt.get(r["actor"], 0) + int(r.get("applied") or 0)
        elif kind == "heal" and target:
            hurt[target] = hurt.get(target, 0) - int(r.get("applied") or 0)
        elif kind == "harm":  # spotlight: Harm marked (and upgraded)
            hurt[target] = hurt.get(target, 0) + int(r.get("marked", 0)) + int(
                r.get("upgraded", 0))
            if r.get("outcome") in ("torpor", "final_death", "out"):  # SPOT-13
                fell[target] = r["outcome"]
        elif kind == "outcome" and r.get("actor"):
            fell[r["actor"]] = r["outcome"]
    names = {c.key: c.name for c in state.combatants}
    for r in records:  # whoever left the fight keeps their name in the summary
        if r.get("event") in ("join", "leave") and r.get("actor") and r.get("name"):
            names.setdefault(r["actor"], r["name"])
    length = ({"turns": int(state.turn)} if hasattr(state, "turn") else
              {"rounds": int(getattr(state, "round", 0) or 0)})
    return {"event": "summary", **length,
            "hurt": [[k, n] for k, n in hurt.items() if n > 0],
            "dealt": [[k, n] for k, n in dealt.items() if n > 0],
            "fell": [[k, o] for k, o in fell.items() if o not in ("ok", "")],
            "names": {k: names.get(k, k) for k in {*hurt, *fell, *dealt}},
            "mock": is_mock(script)}


def end(script, by: str, rng: random.Random, keep_npcs: bool = False) -> Applied:
    """End the fight: the summary and the end are logged and told; the script goes, and the
    NPCs made for the fight with it unless ``keep_npcs``."""
    objects = Objects()
    done = run(script, it.End(by=by), rng, objects=objects,
               prelude=(summary(script, script.get_state()),))
    npcs = list(script.attributes.get("npcs") or [])
    if is_mock(script):
        put_back(script, objects)
    combat_id = script.combat_id
    script.delete()
    # after the export of the end's records (an on_commit callback registered before)
    transaction.on_commit(lambda: combatlog.forget(combat_id))
    if not keep_npcs:
        for key in npcs:
            obj = objects(key)
            if obj is not None:
                obj.delete()
    return done


# ---------------------------------------------------------------- the game acting


def expire_due(script, now: float | None = None, rng: random.Random | None = None
               ) -> Applied | None:
    """The idle clock: apply the defaults if the deadline has passed (``now`` for tests)."""
    engine = script.engine()
    state = script.get_state()
    now = time.time() if now is None else now
    if not engine.due(state, now):
        return None
    objects = Objects()
    gone = tuple(k for k in engine.pending(state) if objects(k) is None)
    if rng is None:
        GAME_DICE.command_started()
    return run(script, it.Expire(now=now, gone=gone), rng or GAME_DICE, objects=objects,
               now=now)


def remove_deleted(script, obj) -> Applied | None:
    """Take ``obj`` (being deleted) out of ``script``'s fight; the room is told."""
    key = f"#{obj.id}"
    if script.get_state().get(key) is None:
        return None
    return run(script, it.Remove(actor=key, why="deleted"), GAME_DICE,
               objects=Objects(exclude=obj))



# ---------------------------------------------------------------- undo


def _undoable(script, state):
    """(the command's log row, its intent record) that an undo reverts now, or None: the
    latest command not yet undone, then further back while it is in the current turn."""
    undone: set[int] = set()
    turn = combatlog.clock(state)[0]
    latest = True
    for row in combatlog.rows(script.combat_id).defer("state").order_by("-first_seq"):
        records = json.loads(row.records)
        for r in records:
            if r["event"] == "undo":
                undone.add(r["undone"])
        asked = next((r for r in records if r["event"] == "intent"), None)
        if any(r["event"] in ("undo", "start") for r in records) or asked is None:
            if any(r["event"] == "start" for r in records):
                return None  # the fight's start is ended, not undone
            continue
        if asked["seq"] in undone:
            latest = False
            continue
        if not latest and row.turn != turn:
            return None
        return row, asked
    return None


def undo(script, by: str, rng: random.Random) -> Applied:
    """Revert the last resolution exactly (state, sheets, pools spent), say so, and mark it
    undone in the log (nothing is deleted). Repeated, it walks back within the turn."""
    from wodcombat.combat.core.sheet import Sheet

    engine = script.engine()
    before = script.get_state()
    found = _undoable(script, before)
    if found is None:
        raise IllegalAction("Nothing to undo in this turn.")
    row, asked = found
    kept = json.loads(row.undo)
    objects = Objects()
    if "state" not in kept:  # issue 13: the row before keeps the state the command started from
        kept["state"] = json.loads(combatlog.state_before(script.combat_id, row.first_seq)
                                   or script.started_text())
    # A deadline that has run out (the undone command was the clock's own) starts again from
    # now (issue 28); the event says so, for bin/replay.
    now = time.time()
    state = idle.fresh_clock(engine.load(kept["state"]), now)
    timeout = timeout_of(engine, state)[0]
    state = engine.stamp(state, timeout, now)
    sheets = []
    for key, data in kept["sheets"].items():
        obj = objects(key)
        if obj is not None:  # a deleted character keeps nothing to restore
            sheets.append((obj, Sheet.from_dict(data)))
    what = (asked.get("text") or "").replace(combat_text.PREFIX, "").split("\n")[0]
    ev = {"event": "undo", "undone": asked["seq"], "intent": asked["intent"]["intent"],
          "by": by, "what": what, "now": now, "timeout": timeout, "fresh_clock": True}
    stored = script.dump(state)
    ev["digest"] = digest(stored)
    events = (Event.from_dict(ev),)
    text = combat_text.room_text(engine.name, events, state, names_of(state, events, objects))
    records = script.commit(state, sheets, [ev], before=before, stored=stored)
    sheet_log.forget(script)  # sheets put back outside the engine: the next command logs them
    done = Applied(script, before, state, events, records, text)
    announce(done, objects)
    return done
