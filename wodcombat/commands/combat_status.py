"""The ``+combat`` status screen, from the engine's ``view`` of the fight."""

from __future__ import annotations

from wodcombat.combat.d10.fight import OUT_OF_ACTION
from wodcombat.world.combat_text import Names, actions_text
from wodcombat.world.fight_phrases import conditions_shown
from wodcombat.world.spotlight_text import resolution_text
from wodcombat.world.text_width import wrap

from .render import header


def status_text(script, engine, state, rules, sheets, organizer: str) -> str:
    """The table, drawn once per state (issue 13: a ``+combat`` with nothing new costs no
    more in a fight of 100 than of 10): kept on the script until the state, a sheet
    anywhere (``sheets_epoch``), the organizer or the rules change."""
    from wodcombat.typeclasses.sheets import sheets_epoch

    key = (sheets_epoch(), organizer, rules)
    # a plain attribute of the cached script, as its other caches (typeclasses/combat.py):
    # ``ndb`` costs a handler lookup on every status (issue 32)
    kept = getattr(script, "_wod_status", None)
    if kept is not None and kept[0] is state and kept[1] == key:
        return kept[2]
    text = "\n".join(status_lines(engine, state, rules, sheets, organizer))
    script._wod_status = (state, key, text)
    return text


def status_lines(engine, state, rules, sheets, organizer: str) -> list[str]:
    view = engine.view(state, sheets, rules)
    names = Names(state)
    return (_d10 if view["engine"] == "d10" else _spotlight)(view, rules, names, organizer)


def _d10(view, rules, names, organizer) -> list[str]:
    reroll = ", initiative every turn" if view["reroll"] else ""
    reroll += ", choices entered ahead" if view.get("ahead") else ""
    lines = [header(f"Combat: {rules.name}, turn {view['turn']}, {view['phase']} phase"),
             f" Mode: {view['mode']}{reroll}   Organizer: {organizer}"]
    if view["waiting"]:
        lines.append(" Now: " + ", ".join(f"{names(k)} ({w})" for k, w in view["waiting"]))
    tags = [" ".join(t for t, on in (("[NPC]", r["npc"]), ("[delayed]", r["delayed"]),
                                     ("[ahead]", r.get("ahead"))) if on)
            for r in view["rows"]]
    width = max([6, *map(len, tags)])  # one column, as wide as this screen's widest tags
    for r, tag in zip(view["rows"], tags):
        init = "--" if r["init"] is None else str(r["init"])
        decl = actions_text(r["actions"], names) if r["actions"] is not None else "-"
        hl, conds = r["health"], r["conditions"]
        if r["outcome"] in OUT_OF_ACTION:  # said once: not "Incapacitated (incapacitated)
            conds = [k for k in conds if k != "incapacitated"]  # (DEAD) ... (incapacitated)"
        if r["outcome"] and r["outcome"] not in ("ok", "incapacitated"):
            hl = f"{hl} ({r['outcome'].upper()})"
        gear = (r["hand"] or "unarmed") + (f", {r['armor']}" if r["armor"] else "")
        conds = conditions_shown(conds, r.get("timers"))
        conds = f"  ({', '.join(conds)})" if conds else ""
        lines += wrap(f" {init:>3}  {r['name']:<16} {tag:<{width}} {hl:<14} [{gear}] "
                      f"{decl}{conds}", indent=6)
    if view["ranges"]:  # RNG-05: pairs placed or moved apart (others stand at the start)
        lines.append(" Ranges: " + "; ".join(f"{names(a)}-{names(b)} {y} yd"
                                             for a, b, y in view["ranges"]))
    return lines


def _spotlight(view, rules, names, organizer) -> list[str]:
    order = ", ".join(f"{' = '.join(names(k) for k in slot['keys'])} {slot['total']}"
                      for slot in view["order"]) or "nobody has rolled"
    lines = [header(f"Combat: {rules.name} (spotlight), round {view['round']}, "
                    f"{view['stage']}"),
             f" Organizer: {organizer}", f" Order (highest first): {order}"]
    lines += wrap(" Actions: " + resolution_text(rules), indent=10)  # issue 31
    if view["holder"]:
        lines.append(" Spotlight: " + ", ".join(names(k) for k in view["holder"]))
    if view["waiting"]:
        lines.append(" Now: " + _spotlight_now(view["waiting"], names))
    elif view["stage"] != "ended":
        lines.append(" Now: the Storyteller moves on (+combat/next)")
    lines.append(f" {'Name':<16} {'Side':<9} {'Init':>4}  {'HP':>5}  Superficial "
                 f"Aggravated  Status")
    # Highest initiative first, as the order above (issue 28); who has not rolled, last.
    rows = sorted(view["rows"], key=lambda r: (r["init"] is None, -(r["init"] or 0)))
    for r in rows:
        init = "--" if r["init"] is None else str(r["init"])
        side = f"NPC {r['turns']}/{r['actions_per_round']}" if r["npc"] else "PC"
        lines.append(f" {r['name']:<16} {side:<9} {init:>4}  {r['hp']:>2}/{r['hp_max']:<2}  "
                     f"{r['superficial']:>11} {r['aggravated']:>10}  {r['status']}")
    if any(r["npc"] for r in rows):  # issue 28: "NPC 0/1" said nothing to a new organizer
        lines.append(" NPC n/m: the turns an NPC has taken this round, of the m it gets.")
    held = [f"{r['name']} {', '.join(conditions_shown(r['conditions'], r['timers'], 'round'))}"
            for r in rows if r.get("conditions")]
    if held:  # issue 31: what the organizer put on them, with the rounds left
        lines += wrap(" Conditions: " + "; ".join(held), indent=6)
    owed = [f"{r['name']} ({r['cost_owed']})" for r in rows if r.get("cost_owed")]
    if owed:  # issue 31: a 7-9 on a move, its cost for the organizer to name
        lines += wrap(" Cost owed: " + ", ".join(owed) + "; the organizer names it: "
                      "+combat/cost <name>=<cost>", indent=6)
    if view["ranges"]:
        lines.append(" Ranges: " + "; ".join(f"{names(a)}-{names(b)} {band}"
                                             for a, b, band in view["ranges"]))
    return lines


def _spotlight_now(waiting, names) -> str:
    """SPOT-04: while the Storyteller picks, the opponents waited for are the ones that may
    be picked, not holders of the spotlight (it is with nobody); the web page says the same."""
    picks = [names(k) for k, w in waiting if w == "pick"]
    now = [f"{names(k)} ({w})" for k, w in waiting if w != "pick"]
    if picks:
        now.append(f"the organizer picks an opponent ({', '.join(picks)}) or passes; the "
                   f"spotlight is with nobody")
    return ", ".join(now)
