"""The one renderer of a fight: events in, the text the room and each person read out.

The same events are logged, so rendering a logged fight reproduces what players saw
(``bin/replay`` checks it). Names come from the state after the command, and from the
events themselves for whoever has left. Colour codes degrade to plain text on a client
without colour; nothing here decides a rule.
"""

from __future__ import annotations

import textwrap
from typing import Callable, Iterable, Mapping

from wodcombat.combat.core.events import Event
from wodcombat.combat.d10.fight import OUT_OF_ACTION

from .dice_text import v5_faces_text, v5_outcome_text
from .fight_phrases import actions_text, fmt_secs, plain, roll_line, turns_text, words
from .person_text import second_person, third_person

# What other modules take from here: the phrases are this renderer's too.
__all__ = ["PREFIX", "Names", "is_npc", "DESCRIBE", "room_lines", "room_text",
           "prompt_messages", "ahead_messages", "actions_text", "fmt_secs", "plain",
           "second_person"]

# Player text never shows rule IDs: "(DMG-09)" in an engine note is dropped.

PREFIX = "|w[Combat]|n "


class Names:
    """key -> name: the combatants of a state, plus names events carry (someone who left)
    and ``extra`` (someone outside the fight); a combatant's own name first. The state is
    asked per key (its index), not copied: a command names a few of a crowd of 100."""

    def __init__(self, state, events: Iterable[Event] = (), extra: Mapping[str, str] = {}):
        self._get = getattr(state, "get", None)
        self._names = dict(extra)
        for ev in events:
            if ev.get("actor") and ev.get("name"):
                self._names.setdefault(ev["actor"], ev["name"])

    def __call__(self, key) -> str:
        c = self._get(key) if self._get is not None and type(key) is str else None
        return c.name if c is not None else self._names.get(key, key or "?")


def is_npc(c) -> bool:
    """An NPC (d10) or an opponent (spotlight): run by the organizer and staff."""
    npc = getattr(c, "is_npc", None)
    return (not c.is_pc) if npc is None else bool(npc)


# ---------------------------------------------------------------- d10 events

_OUTCOMES = {"dead": "is DEAD", "torpor": "falls into TORPOR",
             "unconscious": "is knocked UNCONSCIOUS", "incapacitated": "is INCAPACITATED",
             "reverted": "reverts to breed form; any more damage kills",
             "rage_active": "stays up on Rage; any more damage kills",
             "dying": "is DYING: heal with Rage now (+combat/declare heal rage)"}


_MEND_HOW = {"blood": "blood", "aggravated": "blood", "regenerate": "regeneration",
             "life": "Life magic", "roll": "healing roll", "faith": "Faith", "rage": "Rage",
             "limb": "regrowth"}
_FLAGS = {"vulgar": "vulgar magic",
          "no_regeneration_until_rest": "no more regeneration until they rest",
          "berserk_frenzy": "berserk frenzy from next turn"}


def mend_text(ev: Event, n: Callable[[str], str]) -> list[str]:
    """Healing of every kind (the ``mend`` event): what, how, the cost and the time."""
    who = n(ev.get("actor", ""))
    healed = ", ".join(f"{v} {t}" for t, v in (ev.get("healed") or {}).items() if v)
    change = f"{ev['health_before']} -> {ev['health_after']}"
    how = ev.get("how")
    if how == "time":
        lines = [f"{who} heals 1 {next(iter(ev['healed']))} over {ev['time']} (marked by "
                 f"{n(ev.get('by'))}): {change}."]
        if ev.get("needs"):  # HLT-09 footnotes can be long (revised's (1)): wrap at 78
            lines += ["  " + part for part in textwrap.wrap(f"It needs {ev['needs']}.", 76)]
    elif how == "limb":
        ok = "regrown" in (ev.get("flags") or ())
        lines = [f"{who} regrows the {ev.get('part')}." if ok else
                 f"{who} fails to regrow the {ev.get('part')}: it never will."]
    else:
        paid = ", ".join(f"{v} {p}" for p, v in (ev.get("cost") or {}).items())
        by = f" from {n(ev['healer'])}" if ev.get("healer") else ""
        what = f"{_MEND_HOW.get(how, how)}{by}" + (f", {paid}" if paid else "")
        if healed:
            lines = [f"{who} heals {healed} ({what}, {ev['time']}): {change}."]
        else:
            lines = [f"{who} heals nothing ({what})."]
    lines += [f"  ({_FLAGS[f]})" for f in ev.get("flags") or () if f in _FLAGS]
    lines += [f"  ({plain(note)})" for note in ev.get("notes") or ()]
    out = []
    for line in lines:  # at most 78 columns: the track change goes on its own line
        head, sep, tail = line.rpartition(": ")
        if len(line) > 78 and sep and "->" in tail:
            out += [head + ":", "  " + tail]
        else:
            out.append(line)
    return out

_PHASE_NOTE = {("declare", False): ". Declare from the lowest initiative up.",
               ("act", False): ". Everyone has declared: actions go from the highest "
                               "initiative down.",
               ("extra", False): ": the held and extra actions, highest initiative first.",
               ("extra", True): ": the held and extra actions, highest initiative first."}

_IDLE = {"full_defense": "the game declares a full defense for them (they defend against "
                         "every attack this turn)",
         "pass": "they pass", "removed": "they are gone and leave the fight",
         "delay": "they pass their slot and may still act later this turn (+combat/act)",
         "rolled": "the game rolls their initiative"}


def _d10(ev: Event, n: Callable[[str], str], state) -> str | list[str] | None:  # noqa: C901
    k = ev.kind
    who = n(ev.get("actor", ""))
    if k == "start":
        mock = " A MOCK fight: nothing it does to sheets is kept." if ev.get("mock") else ""
        return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
                f"{ev.get('how')}). +combat/join to take part.{mock}")
    if k == "join":
        later = ev.get("from_turn", 1) > getattr(state, "turn", 1)
        return f"{who} joins the fight" + (f" (from turn {ev['from_turn']})" if later else "") \
            + "."
    if k == "leave":
        return f"{ev.get('name') or who} leaves the fight."
    if k == "deleted":
        return f"{ev.get('name')} is gone (the character was deleted) and leaves the fight."
    if k == "initiative":
        mods = "".join(f" {m['value']:+d} {m['reason']}" for m in ev.get("modifiers", []))
        text = (f"{who} rolls initiative: rating {ev['rating']} + "
                f"[{' '.join(map(str, ev['faces']))}]{mods} = {ev['total']}")
        if ev.get("from_turn"):  # rolled after this turn's order was set
            text += f" (too late for this turn: it counts from turn {ev['from_turn']})"
        left = ", ".join(f"{m['value']:+d} {m['reason']}" for m in ev.get("not_applied") or ())
        if left:  # INIT-03/05: reported, for the player to apply (+combat/init -2)
            return [text, f"  (not applied: {left})"]
        return text
    if k == "flag":
        return f"The fight is {'now' if ev['on'] else 'no longer'} marked {ev['flag']}."
    if k == "turn":  # after the last action's result, in the same message (issue 11)
        done = int(ev["turn"]) - 1
        return (f"Everyone has acted in turn {done}. " if done >= 1 else "") + \
            f"Turn {ev['turn']} begins."
    if k == "phase":
        return f"Turn {ev.get('turn')}: {ev['phase']} phase" + _PHASE_NOTE.get(
            (ev["phase"], ev.get("mode") == "simple"), ".")
    if k == "declare":
        acts = [a for a in ev["actions"] if not a.get("extra")]
        lone = (acts and not ev.get("desperate")
                and all(a.get("kind") in ("dodge", "block", "parry") for a in acts))
        if ev.get("desperate"):  # DEF-04: not "Bob declares: dodge." for /defend dodge
            return (f"{who} declares a desperate defense: {actions_text(ev['actions'], n)} "
                    f"against every attack this turn, nothing else.")
        return f"{who} declares: {actions_text(ev['actions'], n)}" + (
            " (this takes the turn's action: no attack)." if lone else ".")
    if k == "empty_pool":  # MAN-05: said when declared, not first seen as "[no dice]"
        return (f"  Warning: the split leaves {who}'s {ev['kind']} with no dice "
                f"({ev['dice']} dice, -{ev['penalty']} for the split).")
    if k == "skip":
        return f"{who} passes ({ev['what']})."
    if k == "ahead":  # pacing: what was entered stays hidden until the slot comes
        if ev["what"] == "declare":
            return f"{who} has declared ahead (revealed in their slot)."
        return f"{who} is ready to act (in their slot)."
    if k == "ahead_refused":
        return [f"{who}'s declaration made ahead no longer stands:", f"  {plain(ev['why'])}"]
    if k == "pace":
        if ev.get("ahead"):
            return (f"{n(ev.get('by'))} paces the fight ahead: declare and act when you "
                    f"like; it is revealed and resolved in your slot.")
        return f"{n(ev.get('by'))} paces the fight slot by slot: each types in their slot."
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
        if ev.get("success") and ev.get("from"):  # the declared action is given up for it
            return (f"{who} {verb} {ev['to']['kind']}: {ok}; it takes the place of the "
                    f"declared {actions_text([ev['from']], n)}.")
        return f"{who} {verb} {ev['to']['kind']}: {ok}."
    if k == "condition" and ev.get("removed"):
        return f"{who} is no longer {', '.join(ev['removed'])}."
    if k == "condition":
        c = state.get(ev.get("actor")) if hasattr(state, "get") else None
        if ev["condition"] == "incapacitated" and getattr(c, "outcome", "") in OUT_OF_ACTION:
            return None  # the damage line already said it: "Bob is DEAD."
        return f"{who} is {ev['condition']} ({turns_text(ev['from'], ev['until'])})."
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
        if ev.get("limp"):
            return f"  {who} slips out of {n(ev['holder'])}'s limp grip."
        return f"  {who} breaks free." if ev["escaped"] else f"  {who} is still held."
    if k == "grapple":
        return f"  {who} and {n(ev['target'])} are locked in a {ev['kind']}."
    if k == "outcome":
        return f"  {who} {_OUTCOMES.get(ev['outcome'], ev['outcome'])}."
    if k == "damage":
        t = n(ev.get("target"))
        change = f"{ev['health_before']} -> {ev['health_after']}"
        notes = [f"  ({plain(note)})" for note in ev.get("notes") or ()]
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
    if k == "mend":
        return mend_text(ev, n)
    if k == "stay_active":
        if not ev.get("on"):
            return f"{who} will not spend Rage to stay up past Incapacitated."
        return (f"{who} will spend {ev.get('cost')} Rage to stay up if taken past "
                f"Incapacitated.")
    if k == "impossible":  # TURN-10
        return [f"{who}'s declared {ev['kind']} is impossible now:", f"  {ev['why']}"]
    if k == "armor_damaged":  # DMG-12
        return f"  {who}'s {ev.get('armor') or 'armor'} is damaged: no soak until repaired."
    if k == "revive":
        was = "death" if ev.get("was") == "dead" else ev.get("was")
        return (f"{n(ev.get('by'))} undoes {who}'s {was}: {who} is alive "
                f"({ev.get('health')}).")
    if k == "heal":
        return (f"{n(ev.get('target'))} heals {ev.get('levels', ev['applied'])} {ev['type']} "
                f"(by {n(ev.get('by'))}): {ev['health_before']} -> {ev['health_after']}")
    if k == "attack":
        what = words(ev["maneuver"]) + (f", {ev['weapon']}" if ev.get("weapon") else "") + (
            f", at {ev['location']}" if ev.get("location") else "")
        line = f"{who} attacks {n(ev['target'])} ({what}):"
        return [line, f"  {ev['auto']}"] if ev.get("auto") else line
    if k == "strafe":  # RNG-07
        whom = ", ".join(n(t) for t in ev["targets"])
        return f"{who} strafes {whom} (strafe, {ev['weapon']}):"
    if k == "share":
        s = ev["successes"]
        return f"  {n(ev['target'])}'s share: {s} success{'es' if s != 1 else ''}."
    if k == "two_weapons":  # RNG-09
        return f"  {who} is ambidextrous: no multiple-action penalty for the two weapons."
    if k == "attack_lost":
        if ev["reason"] == "gone":
            return f"{who}'s target is no longer in the fight; the attack is lost."
        if ev["reason"] == "dead":
            return f"{who}'s target {n(ev['target'])} is already dead."
        if ev["reason"] == "impossible":
            why = third_person(plain(str(ev.get("why"))), who)  # told to the room
            return f"{who} cannot attack {n(ev['target'])} now: {why} The action is lost."
        w = ev.get("weapon")
        return f"{who}'s {w} was knocked away: the attack is lost (pick it up: ready {w})."
    if k == "ammo":
        return f"  {ev['weapon']}: {ev['left']} round(s) left."
    if k == "defense_ineffective":
        why = third_person(plain(ev["reason"]), who)
        return f"  {who}'s {ev['kind']} does not work against this attack: {why}"
    if k == "defense_waits":  # a declared defense that cannot answer this attack yet
        return f"  {who} does not defend: {plain(ev['reason'])}"
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
        return (f"  {who} is off balance: +{ev['difficulty']} difficulty on all actions "
                f"next turn.")
    if k == "staked":
        return f"  {who} is STAKED: {ev.get('detail')}."
    if k == "tackle_botched":
        if ev.get("choice") == "hurt":
            return f"  {who} botches the tackle and takes the impact instead of falling."
        return f"  {who} goes down in the botched tackle (getting up takes an action: rise)."
    if k == "drain":
        return (f"  {who} drains {ev['taken']} blood from {n(ev['target'])}"
                f" ({ev['gained']} gained).")
    if k == "riposte_ready":
        return (f"  {who} parried with the {ev['weapon']}: {ev.get('dice') or 0:+d} die on "
                f"the next attack on "
                f"{n(ev['target'])} with it.")
    if k == "ambush":
        t = n(ev["target"])
        return {"free_attack": f"  {who} springs an ambush on {t}: a free attack, "
                               f"+{ev['bonus']} dice, no defense.",
                "attacker_first": f"  {who} and {t} are even: {who} strikes first, "
                                  f"{t} may defend.",
                "spotted": f"  {t} spots {who}: no ambush."}[ev["outcome"]]
    if k == "kiss":
        s = f"  {who} drinks {ev['drained']} blood from {n(ev['target'])} in the Kiss"
        return s + (": they are helpless." if ev.get("helpless") else ".")
    if k == "kiss_resisted":
        if ev.get("resisted"):
            return f"  {who} tears free of the Kiss."
        return f"  {who} cannot break the Kiss."
    if k == "time_power":
        when = "next turn" if ev["when"] == "next_turn" else "this turn"
        s = f"  {who} uses {ev['power']}: {ev['actions']} extra action(s) {when}"
        if ev.get("steps"):
            s += f" (initiative {', '.join(f'{x:+d}' for x in ev['steps'])})"
        return s + " (declare them as: extra <action>)."
    if k == "blind_fight":
        what = "own penalty" if ev["use"] == "penalty" else "the bonus to attack them"
        return f"  {who} fights blind: {ev['points']} off {what} this turn."
    if k == "string_snapped":
        return f"  {who}'s bowstring snaps."
    if k == "effect_note":
        return f"  Effect on {who}: {ev['what'].replace('_', ' ')}" + (
            f" ({ev['detail']})" if ev.get("detail") else "")
    if k == "knockdown":
        if ev.get("kept_feet"):
            return f"  {who} keeps their feet."
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
    if k == "summary":
        names = ev.get("names") or {}
        hurt = ", ".join(f"{names.get(key, n(key))} {levels}" for key, levels in ev["hurt"])
        fell = ", ".join(f"{names.get(key, n(key))} ({o.replace('_', ' ')})"
                         for key, o in ev["fell"])
        dealt = ", ".join(f"{names.get(key, n(key))} {levels}" for key, levels in
                          ev.get("dealt") or ())
        unit = "turn" if ev.get("turns") else "round"
        many = ev.get("turns") or ev.get("rounds")
        head = (f"Fight summary ({many} {unit}{'s' if many != 1 else ''}): " if many else
                "Fight summary: ")
        return [head + (f"hurt (levels taken): {hurt}." if hurt else "nobody was hurt."),
                *([f"  Dealt (levels): {dealt}."] if dealt else []),
                *([f"  Down: {fell}."] if fell else []),
                *(["  A mock fight: every sheet is as it was before it."]
                  if ev.get("mock") else [])]
    if k == "undo":
        what = (ev.get("what") or "").strip().rstrip(":.")
        return (f"{n(ev.get('by'))} undoes the last resolution" + (f": {what}" if what else "")
                + ". The fight and its sheets are as they were before it.")
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
    from wodcombat.combat import spotlight as sp

    parts = [f"{' = '.join(n(k) for k in slot['keys'])} {slot['total']}"
             for slot in sp.order_view(state)]
    return ", ".join(parts) or "nobody has rolled"


def v5_roll_lines(who: str, target: str, ev: Event) -> list[str]:
    """A V5 contest (issue 10): the attacker's dice, the defender's, each with its Hunger
    dice apart, and the margin with the weapon's damage."""
    def side(label: str, r) -> str:
        terms = " + ".join(f"{t} {v}" for t, v in r.get("traits") or ()) or "no traits"
        pool = r.get("pool", 0)
        faces = v5_faces_text(r.get("faces") or (), int(r.get("hunger") or 0))
        return (f"  {label}: {terms} = {pool} {'die' if pool == 1 else 'dice'}: {faces} => "
                f"{v5_outcome_text(int(r.get('successes') or 0), r.get('result', ''))}")

    out = [side(f"{who} {ev.get('purpose', 'attack')}", ev)]
    if ev.get("defense"):
        out.append(side(f"{target} defends", ev["defense"]))
    margin = int(ev.get("margin") or 0)
    if margin > 0:
        out.append(f"  Margin {margin} + weapon {ev.get('bonus', 0)} = "
                   f"{margin + int(ev.get('bonus') or 0)} harm.")
    else:
        out.append(f"  Margin {margin}: a miss (the attacker needs more successes).")
    return out


def _spot(ev: Event, n: Callable[[str], str], state) -> str | list[str] | None:  # noqa: C901
    k = ev.kind
    who = n(ev.get("actor", ""))
    if k == "start":
        return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
                f"{ev.get('how')}). +combat/join to take part.")
    if k == "organizer":
        return (f"{who} runs the fight and is not in the order (+combat/join to fight as "
                f"a PC).")
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
        return "No opponent acts there."  # a pass of the pick between two PCs (SPOT-04)
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
            weapon = a.get("weapon_name") or a.get("weapon")
            w = f" with {weapon}" if weapon else ""
            return f"{who} {a['kind']}s {n(a.get('target', '?'))}{w} (at {ev.get('range')})."
        return f"{who} acts: {a.get('text') or a.get('kind')}."
    if k == "roll":
        return v5_roll_lines(who, n(ev.get("target", "")), ev) if ev.get("dice") == "v5" \
            else roll_line(who, ev)
    if k == "unharmed":
        return f"  {n(ev.get('target'))} is not harmed."
    if k == "free":
        return f"{who} takes a free action" + (f": {ev['text']}." if ev.get("text") else ".")
    if k == "done":
        return f"{who} ends the turn."
    if k == "harm":
        out = {"torpor": " and falls into TORPOR", "final_death": " and meets FINAL DEATH",
               "out": " and is OUT of the fight"}.get(ev["outcome"], "")
        steps = []
        if ev.get("armor"):
            steps.append(f"armor -{ev['armor']}")
        if ev.get("halved"):
            steps.append(f"halved -{ev['halved']}")
        if ev.get("upgraded") and ev["kind"] == "superficial":
            steps.append(f"{ev['upgraded']} turned aggravated")
        how = f" ({ev['amount']}, {', '.join(steps)})" if steps else ""
        return (f"{n(ev['target'])} takes {ev['marked'] + ev['upgraded']} {ev['kind']} harm"
                f"{how}: HP {ev['hp_before']} -> {ev['hp_after']}/{ev['hp_max']}{out}.")
    if k == "stake":
        return f"{n(ev['target'])} is staked and incapacitated."
    if k == "unstake":
        return f"The stake is pulled from {n(ev['target'])}."
    if k == "feed":
        if ev.get("healed") is not None:  # fed while up: heals Harm, Hunger drops
            healed = ", ".join(f"{v} {t}" for t, v in ev["healed"].items() if v) or "nothing"
            return (f"{n(ev['target'])} feeds (slakes {ev['slaked']} Hunger, now "
                    f"{ev['hunger_after']}): heals {healed}, HP {ev['hp_before']} -> "
                    f"{ev['hp_after']}/{ev['hp_max']}.")
        return (f"{n(ev['target'])} is given blood (slakes {ev['slaked']}): back at the start "
                f"of round {ev['revive_round']}.")
    if k == "hunger_check":
        if ev.get("cannot"):
            return (f"{who} is at Hunger {ev['hunger_before']} and cannot make the Hunger "
                    f"Check: {ev['superficial']} superficial harm stays.")
        faces = " ".join(map(str, ev["faces"]))
        res = "passed" if ev["passed"] else f"failed, Hunger {ev['hunger_after']}"
        return (f"{who} makes a Hunger Check [{faces}] ({res}) and heals {ev['healed']} "
                f"superficial harm.")
    if k == "revive":
        return f"{who} wakes from torpor with {ev['hp_after']} HP."
    if k in ("leave", "deleted", "end", "timeout", "timeout_set", "undo", "summary"):
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
    """What the room reads, each statement under the one prefix (an indented line goes on
    the one above it); rule IDs stay in the log and the staff help, not here."""
    lines = [plain(line) for line in room_lines(engine, events, state, names)]
    return "\n".join(line if line.startswith(" ") else PREFIX + line
                     for line in lines) if lines else None


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


_AHEAD = {"declare": "You have declared ahead; it will be revealed in your slot.",
          "act": "Your action is queued; it resolves in your slot.",
          "wp": "Your action is queued with its Willpower; it resolves in your slot.",
          "delay": "You will delay when your slot comes (then act with +combat/act)."}


# An NPC's declaration made ahead is told to the room, its runner there too: not again.
_AHEAD_NPC = {"act": "{}'s action is queued; it resolves in its slot.",
              "wp": "{}'s action is queued with its Willpower; it resolves in its slot.",
              "delay": "{} will delay when its slot comes."}


def ahead_messages(events: Iterable[Event], state, names: Names,
                   organizer: str | None) -> list[tuple[str, str]]:
    """(recipient, text): what was entered ahead, said to whoever entered it (an NPC's
    runner for an NPC), and why a declaration made ahead no longer stands."""
    out = []
    for ev in events:
        if ev.kind not in ("ahead", "ahead_refused"):
            continue
        key = ev.get("actor")
        c = state.get(key) if state is not None else None
        npc = c is not None and is_npc(c)
        to = organizer if npc else key
        if not to:
            continue
        if ev.kind == "ahead_refused":
            text = (f"{names(key)}'s declaration made ahead no longer stands; declare again: "
                    f"+combat/declare " + (f"{names(key)}=" if npc else "") + "<action>")
        else:
            text = (_AHEAD_NPC if npc else _AHEAD).get(ev["what"], "").format(names(key))
        if text:
            out.append((to, PREFIX + text))
    return out

