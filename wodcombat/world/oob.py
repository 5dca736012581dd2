"""Out-of-band data for MUSH clients (issue 12): GMCP ``Char.Vitals`` and ``Char.Combat``.

Evennia's telnet portal turns ``session.msg(char_vitals=...)`` into the GMCP message
``Char.Vitals {...}`` (and into MSDP ``CHAR_VITALS`` for clients that chose MSDP); the web
client gets the same data as an OOB websocket message. Mudlet and other clients draw gauges
from it (README: "Gauges in Mudlet").

Each session remembers what it was last sent, so a message goes out only when its values
changed. Sent to sessions directly (not ``obj.msg``): what a room or a player reads is not
touched, and an NPC (no session) costs nothing. Nothing here queries the database: the sheet
and the fight's state are in memory when these are called.
"""

from __future__ import annotations

from . import combatlog, rulebook
from .listeners import listeners_and_keys

VITALS = "char_vitals"  # GMCP Char.Vitals
COMBAT = "char_combat"  # GMCP Char.Combat


def vitals(sheet, rules) -> dict:
    """The sheet's health level, wound penalty and pools as flat keys for client gauges:
    ``willpower`` / ``willpower_max``, ``blood`` / ``blood_max`` ... (the pools the splat
    has), the track's boxes and marks (HLT-01..06)."""
    track = sheet.track(rules.section("health"))
    out = {"health_level": "Incapacitated" if track.incapacitated else track.level_name,
           "wound_penalty": track.penalty, "incapacitated": track.incapacitated,
           "health_boxes": track.capacity, "health_damage": track.damage,
           **track.marks()}
    for name, pool in sheet.pools.items():
        out[name.lower()] = pool.current
        out[name.lower() + "_max"] = pool.permanent
    return out


def combat_state(engine, state, key: str) -> dict:
    """Where the fight stands for ``key``: turn and phase (a spotlight fight's round and
    stage), its place in the order, whom the fight waits for and whether that is ``key``."""
    turn, phase = combatlog.clock(state)
    if phase == "ended" or state.get(key) is None:
        return {"active": False}
    waiting = engine.prompts(state)
    order = [c.key for c in sorted(state.combatants, key=lambda c: -(c.init_total or -99))]
    me = state.get(key)
    out = {"active": True, "id": state.id, "engine": engine.name, "turn": turn,
           "phase": phase, "slot": order.index(key) + 1, "of": len(order),
           "init": me.init_total,
           "pending": [{"key": k, "name": state.get(k).name if state.get(k) else k,
                        "what": w} for k, w in waiting],
           "your_turn": any(k == key for k, _ in waiting)}
    if hasattr(me, "hp"):  # spotlight: the Harm track lives in the fight (SPOT-10)
        out.update(hp=me.hp, hp_max=me.hp_max, superficial=me.superficial,
                   aggravated=me.aggravated, status=me.status)
    return out


def _wants(session) -> bool:
    """A telnet client that negotiated GMCP or MSDP, or a web page that draws the gauges (a
    web client without ``webclient_gauges.js`` would print each message as an error)."""
    if not session.protocol_flags.get("OOB"):
        return False  # a plain telnet client asked for no GMCP: nothing to encode and send
    web = str(getattr(session, "protocol_key", "")).startswith("webclient")
    return not web or bool(session.ndb.wod_gauges)


def accept_web(session) -> None:
    """A web page said it draws the gauges (``wodcombat/inputfuncs.py``): from now on it is
    sent them, starting with everything it has not been sent yet."""
    session.ndb.wod_gauges = True
    session.ndb.wod_oob = {}


def _send(obj, name: str, payload: dict) -> None:
    for session in obj.sessions.all():
        if not _wants(session):
            continue
        sent = session.ndb.wod_oob
        if sent is None:
            sent = session.ndb.wod_oob = {}
        if sent.get(name) == payload:
            continue
        sent[name] = payload
        session.msg(**{name: ((), payload)})


def send_vitals(obj, sheet=None) -> None:
    """Tell ``obj``'s sessions its vitals if they changed (``sheet``: the one just saved)."""
    if not _listens(obj):
        return
    if sheet is None:
        sheet = obj.sheet.get()
    _send(obj, VITALS, vitals(sheet, rulebook.get()))


def _listens(obj) -> bool:
    """Whether any of ``obj``'s sessions negotiated out-of-band data (GMCP, MSDP, web)."""
    if obj is None or getattr(obj, "db_account_id", None) is None:
        return False  # nobody puppets it (an NPC of a crowd): no session to ask
    return any(_wants(s) for s in obj.sessions.all())


def send_combat(obj, engine, state) -> None:
    if _listens(obj):
        _send(obj, COMBAT, combat_state(engine, state, f"#{obj.id}"))


def with_text(obj, engine, before, state) -> dict | None:
    """Char.Combat for ``obj`` to go in the same message as the room's text (issue 32: each
    message is its own trip to the portal, ~0.09 ms of the server's time without batching;
    Evennia's ``msg`` puts the text last, so the client reads Char.Combat just before the
    text, as it reads Char.Vitals, instead of just after):
    ``{COMBAT: ((), payload)}`` when ``obj`` is in the fight (or just left it) and has one
    session, which wants out-of-band data; ``{}`` when there is nothing to send (nobody plays
    it, its session did not ask, it is not in the fight, its session has this payload
    already); None when ``combat_changed`` is to decide (several sessions)."""
    session = _one_reader(obj)
    if session is None or session is _NOBODY:  # several sessions: None; nobody asked: {}
        return None if session is None else {}
    key = f"#{obj.id}"
    if state.get(key) is None and before.get(key) is None:
        return {}
    return _fresh(session, COMBAT, combat_state(engine, state, key))


def vitals_with_text(obj, sheet) -> dict | None:
    """Char.Vitals of ``sheet`` (just committed) for ``obj`` to go in the same message as the
    room's text, as ``with_text``: before it, as when it went at the commit. None when
    ``send_vitals`` is to decide (several sessions)."""
    session = _one_reader(obj)
    if session is None or session is _NOBODY:  # several sessions: None; nobody asked: {}
        return None if session is None else {}
    return _fresh(session, VITALS, vitals(sheet, rulebook.get()))


_NOBODY = object()  # _one_reader: no session of ``obj`` wants out-of-band data


def _one_reader(obj):
    """``obj``'s one session, when it asked for out-of-band data; ``_NOBODY`` when no session
    of it did (nobody plays it, or its one session did not ask); None when it has several
    (the callers' own rule decides)."""
    if getattr(obj, "db_account_id", None) is None:
        return _NOBODY
    sessions = obj.sessions.all()
    if len(sessions) > 1:
        return None
    if not sessions or not _wants(sessions[0]):
        return _NOBODY
    return sessions[0]


def _fresh(session, name: str, payload: dict) -> dict:
    """``{name: ((), payload)}`` to send, remembered as sent; {} if it was sent already."""
    sent = session.ndb.wod_oob
    if sent is None:
        sent = session.ndb.wod_oob = {}
    if sent.get(name) == payload:
        return {}
    sent[name] = payload
    return {name: ((), payload)}


def combat_changed(engine, before, state, objects, room=None, told=frozenset()) -> None:
    """After a fight's commit: each combatant (and anyone who just left it) with a session
    hears where the fight stands now. ``told``: the ids of objects in ``room`` that
    ``with_text`` answered for already (sent, or nothing to send)."""
    keys = state.index().keys() | before.index().keys()  # set operations in C: a crowd's
    # Issue 13: in ``room``, only its listeners (kept while its contents are the same) are
    # asked; NPCs of a crowd nobody runs are not looked up and asked one by one.
    if room is not None:
        here, in_room = listeners_and_keys(room, objects.rooms)
        for obj in here:
            if (obj.db_account_id is not None and obj.id not in told
                    and f"#{obj.id}" in keys):
                send_combat(obj, engine, state)
        keys -= in_room
    for key in keys:  # combatants elsewhere (walked out, or just left the fight)
        obj = objects(key)
        if obj is not None and obj.db_account_id is not None:
            send_combat(obj, engine, state)
