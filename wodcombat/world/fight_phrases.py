"""The phrases both renderers use: a roll, a list of declared actions, a span of turns, a
time, and an engine note without its rule IDs (player text names no rules)."""

from __future__ import annotations

import re
from typing import Callable

from wodcombat.combat.core.events import Event
from wodcombat.combat.core.pools import Modifier

from .dice_text import faces_text, outcome_text


def roll_line(name: str, ev: Event) -> str:
    """'  Alice attack: Dexterity 3 + Brawl 2, wounds -1 dice = 4 vs 6: [..] => 2 successes'"""
    terms = " + ".join(f"{t} {v}" for t, v in ev.get("traits") or ())
    mods = "".join(f", {Modifier(**m)}" for m in ev.get("modifiers") or ())
    extras = []
    if ev.get("specialty"):
        extras.append("specialty")
    if ev.get("willpower"):
        extras.append("Willpower +1 success")
    extra = f" ({', '.join(extras)})" if extras else ""
    label = ev.get("label") or ev.get("purpose", "roll")
    result = outcome_text(ev.get("successes", 0), bool(ev.get("botch")),
                          failure="0 successes")
    diff = ev.get("difficulty") or 0
    faces = faces_text(ev.get("faces") or (), diff)
    return (f"  {name} {label}: {terms or 'dice'}{mods} = {ev.get('pool')} vs {diff}{extra}: "
            f"[{faces}] => {result}")


def turns_text(first: int, last: int | None) -> str:
    """A condition's span: "turn 2", "turns 2 to 4", "from turn 3 on"."""
    if last is None:
        return f"from turn {first} on"
    return f"turn {first}" if last == first else f"turns {first} to {last}"


def conditions_shown(names, timers, unit: str = "turn") -> list[str]:
    """Conditions as +combat and the fight page show them: "blinded: 2 turns left" for one
    with an end (the turns left count the current one: combat/core/conditions.py), "blinded:
    last turn" in its last, a plain name for one that lasts until removed."""
    out = []
    for name in names:
        left = (timers or {}).get(name)
        if left is None:
            out.append(name)
        elif left <= 1:
            out.append(f"{name}: last {unit}")
        else:
            out.append(f"{name}: {left} {unit}s left")
    return out


def words(ident: str) -> str:
    """A rules table's name as a player reads it (and may type it back): weapon_strike ->
    weapon strike (the declaration parser reads either)."""
    return str(ident).replace("_", " ")


def actions_text(actions, name: Callable[[str], str]) -> str:
    out = []
    for a in actions:
        k = a.get("kind", "?")
        if k == "attack":
            whom = " and ".join(name(t) for t in a.get("targets") or [a.get("target", "?")])
            s = f"attack {whom}"
            if a.get("weapon"):
                s += f" with {a['weapon']}" + (" off hand" if a.get("off_hand") else "")
            if a.get("maneuver") and a["maneuver"] != "attack":
                s += f" as {words(a['maneuver'])}"
            if a.get("location"):
                s += f" at {a['location']}"
            if a.get("position") and a["position"] != "front":
                s += f" from {a['position']}"
            if a.get("moving"):
                s += f" moving {a['moving']} yd"
            if a.get("ability"):
                s += f" using {a['ability']}"
            if a.get("ammo"):
                s += f" using {a['ammo']}"
            s += "".join(f" {w}" for f, w in (("drain", "draining"), ("sever", "severing"))
                         if a.get(f))
        elif k == "other":
            s = f"other: {a.get('text', '')}"
        elif k == "heal":
            s = f"heal ({a.get('how')})"
        elif k == "prepare":
            s = f"prepare {a.get('arrows')} arrow(s)"
        elif k in ("dodge", "block", "parry"):
            s = k + (f" {a['how']}" if a.get("how") else "")
            s += f" against {name(a['against'])}" if a.get("against") else ""
        else:
            s = k + (f" against {name(a['against'])}" if a.get("against") else "")
        # TURN-02: Willpower spent is declared, so the room hears it (and the specialty)
        # with the rest, not first at /act.
        spent = [w for f, w in (("specialty", "specialty"), ("willpower", "Willpower"))
                 if a.get(f)]
        out.append(s + (f" ({', '.join(spent)})" if spent else ""))
    return "; ".join(out) or "nothing"


def fmt_secs(secs: float) -> str:
    secs = int(round(secs))
    if secs < 60:
        return f"{secs}s"
    if secs < 3600:
        return f"{secs // 60}m {secs % 60:02d}s"
    return f"{secs // 3600}h {secs % 3600 // 60:02d}m"



# "(TURN-06/07)" too: a family's second number may follow without its prefix.
_RULE_ID = re.compile(r"\s*\((?:[A-Z]{2,5}-\d{2}(?:/\d{2}\b)*[/, ]*)+\)"
                      r"|,?\s*\b[A-Z]{2,5}-\d{2}\b(?:/(?:[A-Z]{2,5}-)?\d{2}\b)*")


# Every rule ID has a capital, a hyphen and a digit in a row: a line without one (most of
# them) skips the long pattern above, which costs several times this search (issue 13).
_MAYBE_RULE_ID = re.compile(r"[A-Z]-\d")


def plain(note: str) -> str:
    """A note from the engine without its rule IDs (player text names no rules)."""
    if _MAYBE_RULE_ID.search(note) is None:
        return note.rstrip()
    return _RULE_ID.sub("", note).rstrip()
