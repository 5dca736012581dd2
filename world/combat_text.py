"""The one renderer of a fight: events in, the text the room and each person read out.

The same events are logged, so rendering a logged fight reproduces what players saw
(``bin/replay`` checks it). Names come from the state after the command, and from the
events themselves for whoever has left. Colour codes degrade to plain text on a client
without colour; nothing here decides a rule.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from combat.core.events import Event
from combat.pools import Modifier

from .dice_text import faces_text, outcome_text

# Player text never shows rule IDs: "(DMG-09)" in an engine note is dropped.
RULE_ID = re.compile(r"\s*\(?\b[A-Z]{3,5}-\d{2}\b\)?")

PREFIX = "|w[Combat]|n "


class Names:
    """key -> name: the combatants of a state, plus names events carry (someone who left)."""

    def __init__(self, state, events: Iterable[Event] = (), extra: Mapping[str, str] = {}):
        self._names = dict(extra)
        for ev in events:
            if ev.get("actor") and ev.get("name"):
                self._names.setdefault(ev["actor"], ev["name"])
        for c in getattr(state, "combatants", ()):
            self._names[c.key] = c.name

    def __call__(self, key) -> str:
        return self._names.get(key, key or "?")


def is_npc(c) -> bool:
    """An NPC (d10) or an opponent (spotlight): run by the organizer and staff."""
    npc = getattr(c, "is_npc", None)
    return (not c.is_pc) if npc is None else bool(npc)


# ---------------------------------------------------------------- shared


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


def actions_text(actions, name: Callable[[str], str]) -> str:
    out = []
    for a in actions:
        k = a.get("kind", "?")
        if k == "attack":
            s = f"attack {name(a.get('target', '?'))}"
            if a.get("weapon"):
                s += f" with {a['weapon']}"
            if a.get("maneuver") and a["maneuver"] != "attack":
                s += f" as {a['maneuver']}"
            if a.get("moving"):
                s += f" moving {a['moving']} yd"
        elif k == "other":
            s = f"other: {a.get('text', '')}"
        elif k in ("dodge", "block", "parry"):
            s = k + (f" {a['how']}" if a.get("how") else "")
            s += f" against {name(a['against'])}" if a.get("against") else ""
        else:
            s = k + (f" against {name(a['against'])}" if a.get("against") else "")
        out.append(s)
    return "; ".join(out) or "nothing"


def fmt_secs(secs: float) -> str:
    secs = int(round(secs))
    if secs < 60:
        return f"{secs}s"
    if secs < 3600:
        return f"{secs // 60}m {secs % 60:02d}s"
    return f"{secs // 3600}h {secs % 3600 // 60:02d}m"


# ---------------------------------------------------------------- d10 events

_OUTCOMES = {"dead": "is DEAD", "torpor": "falls into TORPOR",
             "unconscious": "is knocked UNCONSCIOUS", "incapacitated": "is INCAPACITATED",
             "reverted": "reverts to breed form; any more damage kills",
             "rage_active": "stays up on Rage; any more damage kills",
             "dying": "is DYING unless healed with Rage now"}

_IDLE = {"full_defense": "the game declares a full defense for them (they defend against "
                         "every attack this turn)",
         "pass": "they pass", "removed": "they are gone and leave the fight"}


def _d10(ev: Event, n: Callable[[str], str], state) -> str | list[str] | None:  # noqa: C901
    k = ev.kind
    who = n(ev.get("actor", ""))
    if k == "start":
        return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
                f"{ev.get('how')}). +combat/join to take part.")
    if k == "join":
        later = ev.get("from_turn", 1) > getattr(state, "turn", 1)
        return f"{who} joins the fight" + (f" (from turn {ev['from_turn']})" if later else "")
    if k == "leave":
        return f"{ev.get('name') or who} leaves the fight."
    if k == "deleted":
        return f"{ev.get('name')} is gone (the character was deleted) and leaves the fight."
    if k == "initiative":
        mods = "".join(f" {m['value']:+d} {m['reason']}" for m in ev.get("modifiers", []))
        text = (f"{who} rolls initiative: rating {ev['rating']} + "
                f"[{' '.join(map(str, ev['faces']))}]{mods} = {ev['total']}")
        left = ", ".join(f"{m['value']:+d} {m['reason']}" for m in ev.get("not_applied") or ())
        if left:  # INIT-03/05: reported, for the player to apply (+combat/init -2)
            return [text, f"  (not applied: {left})"]
        return text
    if k == "flag":
        return f"The fight is {'now' if ev['on'] else 'no longer'} marked {ev['flag']}."
    if k == "turn":
        return f"Turn {ev['turn']} begins."
    if k == "phase":
        return f"Turn {ev.get('turn')}: {ev['phase']} phase."
    if k == "declare":
        return f"{who} declares: {actions_text(ev['actions'], n)}."
    if k == "skip":
        return f"{who} passes ({ev['what']})."
    if k == "delay":
        return f"{who} delays."
    if k in ("abort", "change"):
        ok = "succeeds" if ev.get("success") else "fails"
        if not ev.get("success") and ev.get("may_spend") is not None:
            verb = "aborts to" if k == "abort" else "changes to"
            line = f"{who} {verb} {ev['to']['kind']}: fails; the declared action stands"
            if not ev["may_spend"]:
                return line + "."
            again = (f"+combat/abort {ev['to']['kind']}/wp" if k == "abort" else
                     "+combat/change/wp <action>")
            return [line, f"  unless a Willpower point is spent: {again}"]
        verb = "aborts to" if k == "abort" else "changes to"
        return f"{who} {verb} {ev['to']['kind']}: {ok}."
    if k == "condition" and ev.get("removed"):
        return f"{who} is no longer {', '.join(ev['removed'])}."
    if k == "condition":
        return f"{who} is {ev['condition']} (turns {ev['from']}..{ev['until'] or 'on'})."
    if k == "end":
        return "The fight is over."
    if k == "roll":
        return roll_line(who, ev)
    if k == "spend":
        return f"{who} spends {ev['amount']} {ev['pool']} ({ev['purpose']}); {ev['left']} left."
    if k == "activate":
        if ev["power"] == "celerity":
            return (f"{who} activates Celerity {ev['dots']}: {ev['dots']} extra physical "
                    f"action(s) next turn.")
        return f"{who} spends Rage: {ev['amount']} extra action(s) this turn."
    if k == "effect":
        return f"{who} uses a {ev['kind']} effect" + (f" ({ev['item']})" if ev.get("item")
                                                      else "") + "."
    if k == "cover":
        if ev["cover"] == "none":
            return f"{who} is out of cover."
        out = f", shooting out +{ev['to_hit']}" if ev.get("to_hit") else ""
        return (f"{who} is in {ev['cover']} cover: shots at them +{ev['to_be_hit']} "
                f"difficulty{out}.")
    if k == "action":
        if ev["kind"] == "move" and ev.get("target"):
            way = "toward" if ev.get("direction") == "toward" else "away from"
            return (f"{who} moves {ev['yards']} yards {way} {n(ev['target'])} (now "
                    f"{ev['range']} yards apart).")
        return {"other": f"{who} acts: {ev.get('text', '')}",
                "move": f"{who} moves {ev.get('yards')} yards.",
                "rise": f"{who} gets up.",
                "ready": f"{who} picks up the {ev.get('weapon')}."}.get(
            ev["kind"], f"{who} performs {ev['kind']}.")
    if k == "weapon":
        st = ev.get("state") or {}
        ammo = f"; {st['ammo']} round(s) ready" if st.get("ammo") is not None else ""
        note = f" ({ev['note']})" if ev.get("note") else ""
        return f"{who} {ev['action']}s the {ev['weapon']}{ammo}{note}."
    if k == "aim":
        return (f"{who} aims the {ev['weapon']} at {n(ev['target'])} ({ev['turns']} "
                f"turn(s)).")
    if k == "escape":
        if not ev.get("holder"):
            return f"{who} is not held by anyone."
        return f"  {who} breaks free." if ev["escaped"] else f"  {who} is still held."
    if k == "grapple":
        return f"  {who} and {n(ev['target'])} are locked in a {ev['kind']}."
    if k == "outcome":
        return f"  {who} {_OUTCOMES.get(ev['outcome'], ev['outcome'])}."
    if k == "damage":
        t = n(ev.get("target"))
        change = f"{ev['health_before']} -> {ev['health_after']}"
        notes = [f"  ({RULE_ID.sub('', note)})" for note in ev.get("notes") or ()]
        if ev.get("source") == "staff":
            return [f"{t} takes {ev['applied']} {ev['type']} (by {n(ev.get('by'))}): {change}",
                    *notes]
        if ev.get("by"):  # staff damage from a source (DMG-09..15): soaked like a hit
            return [f"{t} takes {ev['applied']} {ev['type']} from {ev['source']} (by "
                    f"{n(ev.get('by'))}): {change}",
                    f"  ({ev['rolled']} levels, {ev['soaked']} soaked)", *notes]
        if ev.get("why"):
            return (f"  {t} takes {ev['applied']} {ev['type']} ({ev['why']}; {ev['rolled']}, "
                    f"{ev['soaked']} soaked): {change}")
        return (f"  {t} takes {ev['applied']} {ev['type']} ({ev['rolled']} rolled, "
                f"{ev['soaked']} soaked): {change}")
    if k == "impossible":  # TURN-10
        return [f"{who}'s declared {ev['kind']} is impossible now:", f"  {ev['why']}"]
    if k == "armor_damaged":  # DMG-12
        return f"  {who}'s {ev.get('armor') or 'armor'} is damaged: no soak until repaired."
    if k == "heal":
        return (f"{n(ev.get('target'))} heals {ev.get('levels', ev['applied'])} {ev['type']} "
                f"(by {n(ev.get('by'))}): {ev['health_before']} -> {ev['health_after']}")
    if k == "attack":
        what = ev["maneuver"] + (f", {ev['weapon']}" if ev.get("weapon") else "") + (
            f", at {ev['location']}" if ev.get("location") else "")
        line = f"{who} attacks {n(ev['target'])} ({what}):"
        return [line, f"  {ev['auto']}"] if ev.get("auto") else line
    if k == "attack_lost":
        if ev["reason"] == "gone":
            return f"{who}'s target is no longer in the fight; the attack is lost."
        if ev["reason"] == "dead":
            return f"{who}'s target {n(ev['target'])} is already dead."
        if ev["reason"] == "impossible":
            return (f"{who} cannot attack {n(ev['target'])} now: {ev.get('why')} The action "
                    f"is lost.")
        w = ev.get("weapon")
        return f"{who}'s {w} was knocked away: the attack is lost (pick it up: ready {w})."
    if k == "ammo":
        return f"  {ev['weapon']}: {ev['left']} round(s) left."
    if k == "defense_ineffective":
        return f"  {who}'s {ev['kind']} does not work against this attack: {ev['reason']}"
    if k == "counter":
        return f"  {who}'s parry turns on {n(ev['target'])}:"
    if k == "miss":
        return "  BOTCH: the attack goes badly wrong." if ev.get("botch") else "  Miss."
    if k == "hit":
        why = " (the target cannot move: at least one success)" if ev.get("immobile") else ""
        return f"  Hit with {ev['net']} net success{'es' if ev['net'] != 1 else ''}{why}."
    if k == "dazed":
        return f"  {who} is dazed and loses next turn's actions."
    if k == "off_balance":
        return f"  {who} is off balance: +{ev['difficulty']} difficulty next turn."
    if k == "staked":
        return f"  {who} is STAKED: {ev.get('detail')}."
    if k == "tackle_botched":
        return f"  {who} goes down in the botched tackle (getting up takes an action: rise)."
    if k == "string_snapped":
        return f"  {who}'s bowstring snaps."
    if k == "effect_note":
        return f"  Effect on {who}: {ev['what'].replace('_', ' ')}" + (
            f" ({ev['detail']})" if ev.get("detail") else "")
    if k == "knockdown":
        if ev.get("standing"):
            return (f"  {who} is knocked down but gets up at once: {ev['initiative']:+d} "
                    f"initiative next turn.")
        return f"  {who} is knocked down and stays on the ground (rise takes an action)."
    if k == "disarm":
        t, w = n(ev["target"]), ev.get("weapon")
        if ev.get("ok"):
            return f"  {t}'s {w} flies away (pick it up: ready {w})."
        return f"  {t} keeps hold of the weapon."
    if k == "range":
        return f"{who} and {n(ev['other'])} are now {ev['yards']} yards apart."
    if k == "timeout_set":
        secs = ev["seconds"]
        return (f"{n(ev.get('by'))} sets the idle timeout to "
                + (f"{fmt_secs(secs)}: whoever the turn waits for longer than that gets the "
                   f"default (pass, or a full defense when declaring)."
                   if secs else "off: the turn waits as long as it takes."))
    if k == "timeout":
        did = _IDLE.get(ev["default"], ev["default"])
        if not ev.get("actor"):  # the Storyteller's pick (spotlight)
            return f"Time is up for the Storyteller's {ev['what']}: {did}."
        return f"Time is up for {who} ({ev['what']}): {did}."
    return None


# ---------------------------------------------------------------- spotlight events


def order_text(state, n) -> str:
    from combat import spotlight as sp

    parts = [f"{' = '.join(n(k) for k in slot['keys'])} {slot['total']}"
             for slot in sp.order_view(state)]
    return ", ".join(parts) or "nobody has rolled"


def _spot(ev: Event, n: Callable[[str], str], state) -> str | list[str] | None:  # noqa: C901
    k = ev.kind
    who = n(ev.get("actor", ""))
    if k == "start":
        return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
                f"{ev.get('how')}). +combat/join to take part.")
    if k == "join":
        side = "opponent" if ev.get("npc") else "PC"
        turns = (f", {ev['actions_per_round']} turns a round"
                 if ev.get("npc") and ev.get("actions_per_round", 1) > 1 else "")
        return f"{who} joins the fight ({side}, {ev['hp']}/{ev['hp_max']} HP{turns})."
    if k == "initiative":
        faces = " ".join(map(str, ev["faces"]))
        dice = "2d6 " if ev.get("sides") == 6 and len(ev["faces"]) == 2 else ""
        return (f"{who} rolls initiative: {dice}[{faces}] + {ev['trait']} {ev['bonus']} = "
                f"{ev['total']}")
    if k == "round":
        amb = {"opponents": " The opponents got the drop: they act first.",
               "pcs": " The PCs got the drop: every PC acts first."}.get(ev.get("ambush"), "")
        return f"Round {ev['round']} begins.{amb} Order: {order_text(state, n)}"
    if k == "spotlight":
        return f"The spotlight is on {', '.join(n(x) for x in ev['who'])}."
    if k == "pass":
        if ev.get("who"):
            return f"{', '.join(n(x) for x in ev['who'])}'s turn ends."
        if ev.get("forfeited"):
            return "The round ends; unused opponent turns are lost."
        return "No opponent acts there."
    if k == "swap":
        return f"{n(ev['first'])} goes before {n(ev['second'])}."
    if k == "ambush":
        side = "The opponents" if ev["side"] == "opponents" else "The PCs"
        return f"{side} get the drop in round {ev['round']}."
    if k == "event":
        return f"|yEnvironment:|n {ev['text']}"
    if k == "move":
        return f"{who} moves from {ev['from']} to {ev['to']} of {n(ev['other'])}."
    if k == "range":
        return f"{n(ev['a'])} and {n(ev['b'])} are now at {ev['to']}."
    if k == "act":
        a = ev.get("action") or {}
        if a.get("kind") in ("attack", "bite"):
            w = f" with {a['weapon']}" if a.get("weapon") else ""
            return f"{who} {a['kind']}s {n(a.get('target', '?'))}{w} (at {ev.get('range')})."
        return f"{who} acts: {a.get('text') or a.get('kind')}."
    if k == "roll":
        return roll_line(who, ev)
    if k == "unharmed":
        return f"  {n(ev.get('target'))} is not harmed."
    if k == "free":
        return f"{who} takes a free action" + (f": {ev['text']}." if ev.get("text") else ".")
    if k == "done":
        return f"{who} ends the turn."
    if k == "harm":
        out = {"torpor": " and falls into TORPOR", "final_death": " and meets FINAL DEATH",
               "out": " and is OUT of the fight"}.get(ev["outcome"], "")
        return (f"{n(ev['target'])} takes {ev['marked'] + ev['upgraded']} {ev['kind']} harm: "
                f"HP {ev['hp_before']} -> {ev['hp_after']}/{ev['hp_max']}{out}.")
    if k == "stake":
        return f"{n(ev['target'])} is staked and incapacitated."
    if k == "unstake":
        return f"The stake is pulled from {n(ev['target'])}."
    if k == "feed":
        return (f"{n(ev['target'])} is given blood (slakes {ev['slaked']}): back at the start "
                f"of round {ev['revive_round']}.")
    if k == "revive":
        return f"{who} wakes from torpor with {ev['hp_after']} HP."
    if k in ("leave", "deleted", "end", "timeout", "timeout_set"):
        return _d10(ev, n, state)
    return None


DESCRIBE = {"d10": _d10, "spotlight": _spot}


def room_lines(engine: str, events: Iterable[Event], state, names: Names) -> list[str]:
    """Every line the room reads, in the order things happened."""
    describe = DESCRIBE[engine]
    out: list[str] = []
    for ev in events:
        if ev.kind == "prompt":
            continue
        text = describe(ev, names, state)
        if isinstance(text, list):
            out.extend(text)
        elif text:
            out.append(text)
    return out


def room_text(engine: str, events: Iterable[Event], state, names: Names) -> str | None:
    lines = room_lines(engine, events, state, names)
    return PREFIX + "\n".join(lines) if lines else None


# ---------------------------------------------------------------- prompts


_HOW = {
    "d10": {"initiative": "roll initiative: +combat/init",
            "declare": "declare: +combat/declare <action>", "act": "act: +combat/act"},
    "spotlight": {"initiative": "roll initiative: +combat/init",
                  "act": "act: +combat/act, /move, /free, /done"},
}


def prompt_messages(engine: str, events: Iterable[Event], state, names: Names,
                    already: set, organizer: str | None) -> list[tuple[str, str]]:
    """(recipient key, text): each newly pending person is told it is their turn, and the
    organizer who is left (and whose NPCs are up). ``already``: (key, what) pairs waited
    for before this command, who are not told again."""
    out: list[tuple[str, str]] = []
    prompts = [ev for ev in events if ev.kind == "prompt"][-3:]
    for p in prompts:
        what, who = p["what"], list(p.get("who") or ())
        if what == "advance":
            if organizer:
                out.append((organizer, PREFIX + "Nobody is pending: +combat/next moves on."))
            continue
        if what == "pick":
            if organizer:
                out.append((organizer, PREFIX + "Pick an opponent: +combat/next <opponent> ("
                            + ", ".join(names(k) for k in who) + "), or +combat/next to pass."))
            continue
        how = _HOW[engine].get(what, what)
        for key in who:
            c = state.get(key)
            if c is None or (key, what) in already:
                continue
            if not is_npc(c):
                out.append((key, PREFIX + f"Your turn to {how}"))
            elif organizer and engine == "spotlight":
                out.append((organizer, PREFIX + f"{c.name} has the spotlight: +combat/act "
                                                f"{c.name}=attack <target>, /move, /done"))
            elif organizer:
                sep = {"declare": "=<action>", "initiative": "[=<rating>]"}.get(what, "")
                verb = "roll initiative" if what == "initiative" else what
                switch = "init" if what == "initiative" else what
                out.append((organizer, PREFIX + f"{c.name}'s turn to {verb}: "
                                                f"+combat/{switch} {c.name}{sep}"))
        if engine == "d10" and organizer and who and {(k, what) for k in who} != already:
            out.append((organizer, PREFIX + f"Waiting for ({what}): "
                        + ", ".join(names(k) for k in who)))
    return out


def organizer_notes(events: Iterable[Event]) -> str | None:
    """When everyone has declared (the act phase begins) or acted (the turn is over)."""
    notes = []
    for ev in events:
        if ev.kind == "phase" and ev.get("phase") == "act" and ev.get("mode") != "simple":
            notes.append(f"Everyone has declared (turn {ev.get('turn')}); actions begin.")
        elif ev.kind == "turn":
            notes.append(f"Everyone has acted in turn {int(ev.get('turn', 1)) - 1}.")
    return PREFIX + " ".join(notes) if notes else None
