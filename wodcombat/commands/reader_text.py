"""``+combat`` and ``+sheet`` for a screen reader (issue 29, ``world/reader_mode.py``): the
facts the drawn screens show, one a line, with no box art, leader dots or aligned columns
(a column's value says its column's name instead)."""

from __future__ import annotations

from wodcombat.combat.spotlight import roster as spotlight_roster
from wodcombat.combat.spotlight import schema as spotlight_schema
from wodcombat.combat.core.sheet import HARM_KINDS
from wodcombat.combat.d10.fight import OUT_OF_ACTION
from wodcombat.world.combat_text import Names, actions_text
from wodcombat.world.spotlight_text import resolution_text

from .combat_status import _spotlight_now


def status_lines(engine, state, rules, sheets, organizer: str) -> list[str]:
    view = engine.view(state, sheets, rules)
    names = Names(state)
    return (_d10 if view["engine"] == "d10" else _spotlight)(view, rules, names, organizer)


def _d10(view, rules, names, organizer) -> list[str]:
    how = [f"mode {view['mode']}"]
    if view["reroll"]:
        how.append("initiative every turn")
    if view.get("ahead"):
        how.append("choices entered ahead")
    lines = [f"Combat: {rules.name}, turn {view['turn']}, {view['phase']} phase.",
             f"Organizer: {organizer}. {', '.join(how).capitalize()}."]
    if view["waiting"]:
        lines.append("Now: " + ", ".join(f"{names(k)} ({w})" for k, w in view["waiting"])
                     + ".")
    lines.append(f"{len(view['rows'])} in the fight, highest initiative first:")
    for r in view["rows"]:
        lines.append(_d10_row(r, names))
    if view["ranges"]:
        lines += [f"Range: {names(a)} to {names(b)}, {y} yards." for a, b, y in view["ranges"]]
    return lines


def _d10_row(r, names) -> str:
    tags = [t for t, on in (("NPC", r["npc"]), ("delayed", r["delayed"]),
                            ("entered ahead", r.get("ahead"))) if on]
    who = r["name"] + (f" ({', '.join(tags)})" if tags else "")
    init = "no initiative yet" if r["init"] is None else f"initiative {r['init']}"
    health = r["health"]
    if r["outcome"] and r["outcome"] not in ("ok", "incapacitated"):
        health += f", {r['outcome']}"
    conds = [k for k in r["conditions"]
             if not (r["outcome"] in OUT_OF_ACTION and k == "incapacitated")]
    gear = (r["hand"] or "unarmed") + (f", armor {r['armor']}" if r["armor"] else "")
    declared = (f"declared {actions_text(r['actions'], names)}" if r["actions"] is not None
                else "declared nothing")
    out = f"{who}: {init}; health {health}; {gear}; {declared}"
    return out + (f"; conditions: {', '.join(conds)}." if conds else ".")


def _spotlight(view, rules, names, organizer) -> list[str]:
    order = ", ".join(f"{' and '.join(names(k) for k in slot['keys'])} {slot['total']}"
                      for slot in view["order"]) or "nobody has rolled"
    lines = [f"Combat: {rules.name} (spotlight), round {view['round']}, {view['stage']}.",
             f"Organizer: {organizer}.", f"Order, highest first: {order}.",
             "Actions: " + resolution_text(rules)]  # issue 31: the reading in force
    if view["holder"]:
        lines.append("Spotlight: " + ", ".join(names(k) for k in view["holder"]) + ".")
    if view["waiting"]:
        lines.append("Now: " + _spotlight_now(view["waiting"], names) + ".")
    elif view["stage"] != "ended":
        lines.append("Now: the Storyteller moves on (+combat/next).")
    rows = sorted(view["rows"], key=lambda r: (r["init"] is None, -(r["init"] or 0)))
    for r in rows:
        side = (f"NPC, {r['turns']} of {r['actions_per_round']} turns taken this round"
                if r["npc"] else "PC")
        init = "no initiative yet" if r["init"] is None else f"initiative {r['init']}"
        lines.append(f"{r['name']} ({side}): {init}; HP {r['hp']} of {r['hp_max']}; "
                     f"{r['superficial']} superficial, {r['aggravated']} aggravated; "
                     f"{r['status']}.")
    lines += [f"Cost owed: {r['name']} ({r['cost_owed']}); the organizer names it with "
              f"+combat/cost {r['name']}=<cost>." for r in rows if r.get("cost_owed")]
    lines += [f"Range: {names(a)} to {names(b)}, {band}." for a, b, band in view["ranges"]]
    return lines


# ---------------------------------------------------------------- +sheet


def sheet_lines(name: str, sheet, ruleset) -> list[str]:
    """What ``render.sheet_text`` draws, said: each trait group on its line, its traits
    rated above zero by name (the rest said to be 0), pools, health, fate and gear."""
    cat = ruleset.traits
    splat = cat.splats.get(sheet.splat, {}).get("label", sheet.splat.title())
    ident = [f"Splat: {splat}"] + [f"{label}: {value}" for label, value in (
        ("Race", sheet.race), ("Breed", sheet.breed), ("Form", sheet.form)) if value]
    if cat.splats.get(sheet.splat, {}).get("uses_generation") == "yes":
        ident.append(f"Generation: {sheet.generation}")
    ident.append("approved" if sheet.approved else "not approved yet")
    lines = [f"Sheet: {name}.", ". ".join(ident) + "."]
    for category, names in cat.categories.items():
        if names:
            lines.append(_group(cat, sheet, category, names))
    if sheet.specialties:
        lines.append("Specialties: " + ", ".join(
            f"{k} ({v})" for k, v in sorted(sheet.specialties.items())) + ".")
    pools = [(f"{p} {pool.current} of {pool.permanent}"
              if cat.pools.get(p) and cat.pools[p].has_permanent else f"{p} {pool.current}")
             for p, pool in sheet.pools.items()]
    lines.append("Pools: " + (", ".join(pools) or "none") + ".")
    lines.append(_health(sheet, ruleset))
    if sheet.fate:
        lines.append(f"{sheet.fate_text.capitalize()}: cannot roll or join a fight "
                     f"(staff: +sheet/revive).")
    if sheet.weapons:
        lines.append("Weapons: " + ", ".join(sheet.weapons) + ".")
    if sheet.armor:
        lines.append(f"Armor: {sheet.armor}.")
    return lines


def _group(cat, sheet, category, names) -> str:
    label = cat.labels.get(category, category)
    rated = [f"{n} {sheet.rating(cat, n)}" + (", with a specialty"
                                               if sheet.has_specialty(n) else "")
             for n in names if sheet.rating(cat, n)]
    if not rated:
        return f"{label}: all 0."
    rest = "; the rest 0" if len(rated) < len(names) else ""
    return f"{label}: {'; '.join(rated)}{rest}."


def _health(sheet, ruleset) -> str:
    if spotlight_schema.engine_of(ruleset) == "spotlight":  # SPOT-13: HP and Harm
        hp_max, superficial, aggravated = spotlight_roster.sheet_health(sheet, ruleset)
        return (f"Health: HP {hp_max - superficial - aggravated} of {hp_max}; "
                f"{superficial} superficial, {aggravated} aggravated.")
    track = sheet.track(ruleset.section("health"))
    marks = track.boxes()
    hurt = [f"{sum(1 for m in marks if m == mark)} {kind}" for mark, kind in
            (("*", "aggravated"), ("X", "lethal"), ("/", "bashing"))
            if any(m == mark for m in marks)]
    state = "Incapacitated" if track.incapacitated else track.level_name
    if track.penalty and not track.incapacitated:
        state += f", {track.penalty:+d} dice"
    harm = (f"{', '.join(hurt)} of {len(marks)} levels" if hurt
            else f"no damage, {len(marks)} levels")
    line = f"Health: {state}; {harm}."
    if sheet.harm and spotlight_schema.engine_of(ruleset) != "spotlight":
        line += " Harm carried from a spotlight fight: " + ", ".join(
            f"{sheet.harm[k]} {k}" for k in HARM_KINDS
            if sheet.harm.get(k)) + "."
    return line
