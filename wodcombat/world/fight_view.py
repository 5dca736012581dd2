"""What the website shows of the running fights (issue 12): read only.

The combat page reads the same things the commands read: the fight's state as the engine's
``view`` sees it (what ``+combat`` prints), the sheets' health tracks, and the log's rows for
what the room read after each command (the ``text`` of its ``intent`` record, the very
string ``combat_service.announce`` sent). Nothing here writes.

Who sees what: staff (Builder and up) every fight; a player the fights one of their
characters is in, and the fights their organizer made public (``+combat/public``).
"""

from __future__ import annotations

import json

from wodcombat.combat.core.errors import IllegalAction

from . import combatlog, combat_text
from .fight_phrases import conditions_shown
from .spotlight_text import resolution_text
from .web_text import to_html, to_plain

#: how many commands' room text the page shows
RECENT = 8
PUBLIC_ATTR = "public"


def is_staff(account) -> bool:
    return bool(account and account.is_authenticated and (
        account.is_superuser or account.check_permstring("Builder")))


def characters(account) -> list:
    """The characters the account plays: its playable characters (created by it) and any
    it is linked to as their account (made by staff and handed over)."""
    if not account or not account.is_authenticated:
        return []
    from evennia.objects.models import ObjectDB

    found = {c.id: c for c in account.characters}
    for obj in ObjectDB.objects.filter(db_account=account):
        found.setdefault(obj.id, obj)
    return [found[k] for k in sorted(found)]


def character_keys(account) -> set[str]:
    """``#dbref`` of every character the account plays."""
    return {f"#{c.id}" for c in characters(account)}


def fights():
    from wodcombat.typeclasses.combat_guard import combat_scripts

    out = []
    for script in combat_scripts():
        try:
            script.get_state()
        except Exception:  # a broken fight must not hide the others (as +combat/fights)
            continue
        out.append(script)
    return out


def is_public(script) -> bool:
    return bool(script.attributes.get(PUBLIC_ATTR))


def may_see(account, script) -> bool:
    if is_staff(account) or is_public(script):
        return True
    state = script.get_state()
    return any(state.get(k) is not None for k in character_keys(account))


def visitor(account, script) -> dict:
    """What the page offers this visitor (issue 29): ``keys``, their characters in the fight
    (what it waits on them for is in ``waiting``); ``runs``, whether they organize it or are
    staff (the controls for the fight and its NPCs); ``staff``; the NPC ``templates`` for
    those who run it. Only what to draw: every control is a +combat line the command
    checks again."""
    mine = character_keys(account)
    state = script.get_state()
    staff = is_staff(account)
    runs = staff or (script.organizer in mine)
    out = {"keys": sorted(k for k in mine if state.get(k) is not None), "runs": runs,
           "staff": staff, "templates": []}
    if runs:
        from .prototypes import NPC_TEMPLATES

        out["templates"] = sorted(NPC_TEMPLATES)
    return out


def visible(account) -> list:
    return [s for s in fights() if may_see(account, s)]


def find(combat_id: str):
    for script in fights():
        if script.combat_id == combat_id:
            return script
    return None


def summary(script) -> dict:
    """One line of a list of fights (front page, fight list)."""
    state = script.get_state()
    turn, phase = combatlog.clock(state)
    room = script.obj
    return {"id": state.id, "room": to_plain(room.key) if room else "?",
            "ruleset": script.ruleset_name,
            "turn": turn, "phase": phase, "fighters": len(state.combatants),
            "public": is_public(script)}


def _track(sheet, rules) -> dict | None:
    """A d10 health track as boxes (HLT-01): each level's name and penalty with its mark,
    the worst marks at the top as the sheet shows them ('*' aggravated, 'X' lethal, '/'
    bashing, ' ' free)."""
    if sheet is None:
        return None
    track = sheet.track(rules.section("health"))
    return {"boxes": [{"level": lv.name, "penalty": lv.penalty, "mark": m}
                      for lv, m in zip(track.levels, track.boxes())],
            "level": "Incapacitated" if track.incapacitated else track.level_name,
            "penalty": track.penalty}


def _plain_names(state):
    """key -> the name as page text (issue 30: names are players' words; the page shows
    them as text, with no colour code or link left in them)."""
    names = combat_text.Names(state)
    return lambda key: to_plain(names(key))


def _row(r: dict, view: dict, names, sheets, rules) -> dict:
    row = {k: v for k, v in r.items() if k != "actions"}
    if "name" in row:
        row["name"] = to_plain(row["name"])
    if "conditions" in row:  # issue 31: with the turns (rounds) left of those that end
        unit = "turn" if view["engine"] == "d10" else "round"
        row["conditions"] = conditions_shown(row["conditions"], row.get("timers"), unit)
    if "actions" in r:
        row["declared"] = (to_plain(combat_text.actions_text(r["actions"], names))
                           if r["actions"] is not None else None)
    if view["engine"] == "d10":
        try:
            row["track"] = _track(sheets.get(r["key"]), rules)  # None: no sheet
        except IllegalAction:
            row["track"] = None
    return row


def _recent(state) -> tuple[list[dict], int]:
    """What the room read after the last commands, as HTML (``web_text.to_html``: the one
    way players' words become markup), and the last log seq."""
    recent, version = [], 0
    for row in combatlog.rows(state.id).only("last_seq", "records").order_by(
            "-first_seq")[:RECENT]:
        version = max(version, row.last_seq)
        for rec in json.loads(row.records):
            if rec.get("event") == "intent" and rec.get("text"):
                recent.append({"seq": rec["seq"], "turn": rec.get("turn"),
                               "html": to_html(rec["text"])})
    recent.reverse()
    return recent, version


def log_texts(script) -> tuple[str, list[str]]:
    """The fight's title and every text its room read, oldest first (undone ones too: the
    room read them, then the undo)."""
    s = summary(script)
    texts = [rec["text"] for rec in combatlog.read(script.combat_id)
             if rec.get("event") == "intent" and rec.get("text")]
    return f"Fight in {s['room']} ({s['ruleset']}), {script.combat_id}", texts


def snapshot(script) -> dict:
    """Everything the combat page draws, JSON-safe. ``version``: the last log seq, so the
    page redraws only when something happened."""
    state = script.get_state()
    engine = script.engine()
    rules = script.ruleset()
    from .combat_service import Objects, Sheets

    objects = Objects()
    sheets = Sheets(objects)  # what +combat hands the engine's view too
    view = engine.view(state, sheets, rules)
    names = _plain_names(state)
    turn, phase = combatlog.clock(state)
    rows = [_row(r, view, combat_text.Names(state), sheets, rules) for r in view["rows"]]
    waiting = [{"key": k, "name": names(k), "what": w} for k, w in view["waiting"]]
    recent, version = _recent(state)
    org = objects(script.organizer)  # its character's name, as +combat says it, fighting or not
    out = {**summary(script), "engine": view["engine"], "turn": turn, "phase": phase,
           "organizer": to_plain(org.key) if org else "-", "waiting": waiting, "rows": rows,
           "recent": recent, "version": version}
    if view["engine"] == "d10":
        out.update(mode=view["mode"], reroll=view["reroll"],
                   ranges=[[names(a), names(b), y] for a, b, y in view["ranges"]])
    else:
        # issue 31: the reading in force and the costs owed, as +combat prints them
        out.update(reading=resolution_text(rules),
                   owed=[{"name": to_plain(r["name"]), "move": r["cost_owed"]}
                         for r in view["rows"] if r.get("cost_owed")],
                   order=[{"names": [names(k) for k in s["keys"]], "total": s["total"]}
                          for s in view["order"]],
                   holder=[names(k) for k in view["holder"]],
                   ranges=[[names(a), names(b), band] for a, b, band in view["ranges"]])
    return out
