"""What the room reads of a d10 fight: one small function per event kind (or per pair of
kinds said alike), looked up in ``RENDER`` by the event's kind."""

from __future__ import annotations

import textwrap
from typing import Callable

from wodcombat.combat.core.events import Event
from wodcombat.combat.d10.fight import OUT_OF_ACTION

from .fight_phrases import actions_text, fmt_secs, plain, roll_line, turns_text, words
from .person_text import third_person

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


def _who(ev: Event, n: Callable[[str], str]) -> str:
    return n(ev.get("actor", ""))


# ---------------------------------------------------------------- the fight and who is in it


def _start(ev, n, state):
    mock = " A MOCK fight: nothing it does to sheets is kept." if ev.get("mock") else ""
    return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
            f"{ev.get('how')}). +combat/join to take part.{mock}")


def _join(ev, n, state):
    later = ev.get("from_turn", 1) > getattr(state, "turn", 1)
    return f"{_who(ev, n)} joins the fight" + (
        f" (from turn {ev['from_turn']})" if later else "") + "."


def _leave(ev, n, state):
    return f"{ev.get('name') or _who(ev, n)} leaves the fight."


def _deleted(ev, n, state):
    return f"{ev.get('name')} is gone (the character was deleted) and leaves the fight."


def _initiative(ev, n, state):
    mods = "".join(f" {m['value']:+d} {m['reason']}" for m in ev.get("modifiers", []))
    text = (f"{_who(ev, n)} rolls initiative: rating {ev['rating']} + "
            f"[{' '.join(map(str, ev['faces']))}]{mods} = {ev['total']}")
    if ev.get("from_turn"):  # rolled after this turn's order was set
        text += f" (too late for this turn: it counts from turn {ev['from_turn']})"
    left = ", ".join(f"{m['value']:+d} {m['reason']}" for m in ev.get("not_applied") or ())
    if left:  # INIT-03/05: reported, for the player to apply (+combat/init -2)
        return [text, f"  (not applied: {left})"]
    return text


def _flag(ev, n, state):
    return f"The fight is {'now' if ev['on'] else 'no longer'} marked {ev['flag']}."


def _turn(ev, n, state):  # after the last action's result, in the same message (issue 11)
    done = int(ev["turn"]) - 1
    return (f"Everyone has acted in turn {done}. " if done >= 1 else "") + \
        f"Turn {ev['turn']} begins."


def _phase(ev, n, state):
    return f"Turn {ev.get('turn')}: {ev['phase']} phase" + _PHASE_NOTE.get(
        (ev["phase"], ev.get("mode") == "simple"), ".")


def _end(ev, n, state):
    return "The fight is over."


def _range(ev, n, state):
    return f"{_who(ev, n)} and {n(ev['other'])} are now {ev['yards']} yards apart."


def _summary(ev, n, state):
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


# ---------------------------------------------------------------- staff and pacing


def _undo(ev, n, state):
    what = (ev.get("what") or "").strip().rstrip(":.")
    return (f"{n(ev.get('by'))} undoes the last resolution" + (f": {what}" if what else "")
            + ". The fight and its sheets are as they were before it.")


def _timeout_set(ev, n, state):
    secs = ev["seconds"]
    return (f"{n(ev.get('by'))} sets the idle timeout to "
            + (f"{fmt_secs(secs)}: whoever the turn waits for longer than that gets the "
               f"default (pass, or a full defense when declaring)."
               if secs else "off: the turn waits as long as it takes."))


def _timeout(ev, n, state):
    did = _IDLE.get(ev["default"], ev["default"])
    if not ev.get("actor"):  # the Storyteller's pick (spotlight)
        return f"Time is up for the Storyteller's {ev['what']}: {did}."
    return f"Time is up for {_who(ev, n)} ({ev['what']}): {did}."


def _pace(ev, n, state):
    if ev.get("ahead"):
        return (f"{n(ev.get('by'))} paces the fight ahead: declare and act when you "
                f"like; it is revealed and resolved in your slot.")
    return f"{n(ev.get('by'))} paces the fight slot by slot: each types in their slot."


def _revive(ev, n, state):
    who = _who(ev, n)
    was = "death" if ev.get("was") == "dead" else ev.get("was")
    return (f"{n(ev.get('by'))} undoes {who}'s {was}: {who} is alive "
            f"({ev.get('health')}).")


def _heal(ev, n, state):
    return (f"{n(ev.get('target'))} heals {ev.get('levels', ev['applied'])} {ev['type']} "
            f"(by {n(ev.get('by'))}): {ev['health_before']} -> {ev['health_after']}")


# ---------------------------------------------------------------- declaring


def _declare(ev, n, state):
    who = _who(ev, n)
    acts = [a for a in ev["actions"] if not a.get("extra")]
    lone = (acts and not ev.get("desperate")
            and all(a.get("kind") in ("dodge", "block", "parry") for a in acts))
    if ev.get("desperate"):  # DEF-04: not "Bob declares: dodge." for /defend dodge
        return (f"{who} declares a desperate defense: {actions_text(ev['actions'], n)} "
                f"against every attack this turn, nothing else.")
    return f"{who} declares: {actions_text(ev['actions'], n)}" + (
        " (this takes the turn's action: no attack)." if lone else ".")


def _empty_pool(ev, n, state):  # MAN-05: said when declared, not first seen as "[no dice]"
    return (f"  Warning: the split leaves {_who(ev, n)}'s {ev['kind']} with no dice "
            f"({ev['dice']} dice, -{ev['penalty']} for the split).")


def _skip(ev, n, state):
    return f"{_who(ev, n)} passes ({ev['what']})."


def _ahead(ev, n, state):  # pacing: what was entered stays hidden until the slot comes
    if ev["what"] == "declare":
        return f"{_who(ev, n)} has declared ahead (revealed in their slot)."
    return f"{_who(ev, n)} is ready to act (in their slot)."


def _ahead_refused(ev, n, state):
    return [f"{_who(ev, n)}'s declaration made ahead no longer stands:",
            f"  {plain(ev['why'])}"]


def _delay(ev, n, state):
    return f"{_who(ev, n)} delays."


def _abort_or_change(ev, n, state):
    who, k = _who(ev, n), ev.kind
    ok = "succeeds" if ev.get("success") else "fails"
    verb = "aborts to" if k == "abort" else "changes to"
    if not ev.get("success") and ev.get("may_spend") is not None:
        line = f"{who} {verb} {ev['to']['kind']}: fails; the declared action stands"
        if not ev["may_spend"]:
            return line + "."
        again = (f"+combat/abort {ev['to']['kind']}/wp" if k == "abort" else
                 "+combat/change/wp <action>")
        return [line, f"  unless a Willpower point is spent: {again}"]
    if ev.get("success") and ev.get("from"):  # the declared action is given up for it
        return (f"{who} {verb} {ev['to']['kind']}: {ok}; it takes the place of the "
                f"declared {actions_text([ev['from']], n)}.")
    return f"{who} {verb} {ev['to']['kind']}: {ok}."


def _impossible(ev, n, state):  # TURN-10
    return [f"{_who(ev, n)}'s declared {ev['kind']} is impossible now:", f"  {ev['why']}"]


# ---------------------------------------------------------------- powers, pools and stances


def _condition(ev, n, state):
    who = _who(ev, n)
    if ev.get("removed"):
        return f"{who} is no longer {', '.join(ev['removed'])}."
    c = state.get(ev.get("actor")) if hasattr(state, "get") else None
    if ev["condition"] == "incapacitated" and getattr(c, "outcome", "") in OUT_OF_ACTION:
        return None  # the damage line already said it: "Bob is DEAD."
    return f"{who} is {ev['condition']} ({turns_text(ev['from'], ev['until'])})."


def _roll(ev, n, state):
    return roll_line(_who(ev, n), ev)


def _spend(ev, n, state):
    return (f"{_who(ev, n)} spends {ev['amount']} {ev['pool']} ({ev['purpose']}); "
            f"{ev['left']} left.")


def _activate(ev, n, state):
    if ev["power"] == "celerity":
        return (f"{_who(ev, n)} activates Celerity {ev['dots']}: {ev['dots']} extra physical "
                f"action(s) next turn.")
    return f"{_who(ev, n)} spends Rage: {ev['amount']} extra action(s) this turn."


def _effect(ev, n, state):
    return f"{_who(ev, n)} uses a {ev['kind']} effect" + (
        f" ({ev['item']})" if ev.get("item") else "") + "."


def _cover(ev, n, state):
    if ev["cover"] == "none":
        return f"{_who(ev, n)} is out of cover."
    out = f", shooting out +{ev['to_hit']}" if ev.get("to_hit") else ""
    return (f"{_who(ev, n)} is in {ev['cover']} cover: shots at them +{ev['to_be_hit']} "
            f"difficulty{out}.")


def _stay_active(ev, n, state):
    if not ev.get("on"):
        return f"{_who(ev, n)} will not spend Rage to stay up past Incapacitated."
    return (f"{_who(ev, n)} will spend {ev.get('cost')} Rage to stay up if taken past "
            f"Incapacitated.")


def _time_power(ev, n, state):
    when = "next turn" if ev["when"] == "next_turn" else "this turn"
    s = f"  {_who(ev, n)} uses {ev['power']}: {ev['actions']} extra action(s) {when}"
    if ev.get("steps"):
        s += f" (initiative {', '.join(f'{x:+d}' for x in ev['steps'])})"
    return s + " (declare them as: extra <action>)."


def _blind_fight(ev, n, state):
    what = "own penalty" if ev["use"] == "penalty" else "the bonus to attack them"
    return f"  {_who(ev, n)} fights blind: {ev['points']} off {what} this turn."


def _effect_note(ev, n, state):
    return f"  Effect on {_who(ev, n)}: {ev['what'].replace('_', ' ')}" + (
        f" ({ev['detail']})" if ev.get("detail") else "")


# ---------------------------------------------------------------- acting


def _action(ev, n, state):
    who = _who(ev, n)
    if ev["kind"] == "move" and ev.get("target"):
        way = "toward" if ev.get("direction") == "toward" else "away from"
        return (f"{who} moves {ev['yards']} yards {way} {n(ev['target'])} (now "
                f"{ev['range']} yards apart).")
    return {"other": f"{who} acts: {ev.get('text', '')}",
            "move": f"{who} moves {ev.get('yards')} yards.",
            "rise": f"{who} gets up.",
            "ready": f"{who} picks up the {ev.get('weapon')}."}.get(
        ev["kind"], f"{who} performs {ev['kind']}.")


def _weapon(ev, n, state):
    st = ev.get("state") or {}
    ammo = f"; {st['ammo']} round(s) ready" if st.get("ammo") is not None else ""
    note = f" ({ev['note']})" if ev.get("note") else ""
    return f"{_who(ev, n)} {ev['action']}s the {ev['weapon']}{ammo}{note}."


def _aim(ev, n, state):
    return (f"{_who(ev, n)} aims the {ev['weapon']} at {n(ev['target'])} ({ev['turns']} "
            f"turn(s)).")


def _string_snapped(ev, n, state):  # ATK-07
    return (f"  The botch snaps {_who(ev, n)}'s bowstring: no shot until it is mended "
            f"with a spare string (an action: +combat/declare repair).")


def _ammo(ev, n, state):
    return f"  {ev['weapon']}: {ev['left']} round(s) left."


# ---------------------------------------------------------------- an attack and its defense


def _attack(ev, n, state):
    what = words(ev["maneuver"]) + (f", {ev['weapon']}" if ev.get("weapon") else "") + (
        f", at {ev['location']}" if ev.get("location") else "")
    line = f"{_who(ev, n)} attacks {n(ev['target'])} ({what}):"
    return [line, f"  {ev['auto']}"] if ev.get("auto") else line


def _strafe(ev, n, state):  # RNG-07
    whom = ", ".join(n(t) for t in ev["targets"])
    return f"{_who(ev, n)} strafes {whom} (strafe, {ev['weapon']}):"


def _share(ev, n, state):
    s = ev["successes"]
    return f"  {n(ev['target'])}'s share: {s} success{'es' if s != 1 else ''}."


def _two_weapons(ev, n, state):  # RNG-09
    return (f"  {_who(ev, n)} is ambidextrous: no multiple-action penalty for the two "
            f"weapons.")


def _attack_lost(ev, n, state):
    who = _who(ev, n)
    if ev["reason"] == "gone":
        return f"{who}'s target is no longer in the fight; the attack is lost."
    if ev["reason"] == "dead":
        return f"{who}'s target {n(ev['target'])} is already dead."
    if ev["reason"] == "impossible":
        why = third_person(plain(str(ev.get("why"))), who)  # told to the room
        return f"{who} cannot attack {n(ev['target'])} now: {why} The action is lost."
    w = ev.get("weapon")
    return f"{who}'s {w} was knocked away: the attack is lost (pick it up: ready {w})."


def _defense_ineffective(ev, n, state):
    who = _who(ev, n)
    why = third_person(plain(ev["reason"]), who)
    return f"  {who}'s {ev['kind']} does not work against this attack: {why}"


def _defense_waits(ev, n, state):  # a declared defense that cannot answer this attack yet
    return f"  {_who(ev, n)} does not defend: {plain(ev['reason'])}"


def _counter(ev, n, state):
    return f"  {_who(ev, n)}'s parry turns on {n(ev['target'])}:"


# What a botched attack costs beyond the miss: the seeds name it for a bow (ATK-07) and a
# tackle (CLOSE-12) only, each event worded by its own line after the miss.
BOTCH_COSTS = frozenset({"string_snapped", "tackle_botched"})


def _miss(ev, n, state, after=()):
    """``after``: the events that follow this one in the same command."""
    if not ev.get("botch"):
        return "  Miss."
    for later in after:
        if later.kind in ("miss", "hit", "roll"):
            break
        if later.kind in BOTCH_COSTS:
            return "  BOTCH: the attack fails, and worse:"
    # DICE-02: otherwise a botched attack is a failure and no more (a READING, rules/README.md)
    return ("  BOTCH: the attack fails; by these rules nothing worse (the Storyteller may "
            "narrate it).")


_miss.looks_ahead = True


def _hit(ev, n, state):
    why = " (the target cannot move: at least one success)" if ev.get("immobile") else ""
    return f"  Hit with {ev['net']} net success{'es' if ev['net'] != 1 else ''}{why}."


def _riposte_ready(ev, n, state):
    return (f"  {_who(ev, n)} parried with the {ev['weapon']}: {ev.get('dice') or 0:+d} die "
            f"on the next attack on "
            f"{n(ev['target'])} with it.")


def _ambush(ev, n, state):
    who, t = _who(ev, n), n(ev["target"])
    return {"free_attack": f"  {who} springs an ambush on {t}: a free attack, "
                           f"+{ev['bonus']} dice, no defense.",
            "attacker_first": f"  {who} and {t} are even: {who} strikes first, "
                              f"{t} may defend.",
            "spotted": f"  {t} spots {who}: no ambush."}[ev["outcome"]]


# ---------------------------------------------------------------- what an attack does


def _halved(ev) -> str:
    """DMG-15: a vampire's bashing is halved after the soak; every step that changes the
    number is shown, as spotlight's "5, halved -2" (issue 31, finding 4)."""
    cut = ev["rolled"] - ev["soaked"] - ev["applied"]
    return f", halved -{cut}" if cut > 0 else ""


def _damage(ev, n, state):
    t = n(ev.get("target"))
    change = f"{ev['health_before']} -> {ev['health_after']}"
    notes = [f"  ({plain(note)})" for note in ev.get("notes") or ()]
    if ev.get("source") == "staff":
        return [f"{t} takes {ev['applied']} {ev['type']} (by {n(ev.get('by'))}): {change}",
                *notes]
    if ev.get("by"):  # staff damage from a source (DMG-09..15): soaked like a hit
        return [f"{t} takes {ev['applied']} {ev['type']} from {ev['source']} (by "
                f"{n(ev.get('by'))}): {change}",
                f"  ({ev['rolled']} levels, {ev['soaked']} soaked{_halved(ev)})", *notes]
    if ev.get("why"):
        return (f"  {t} takes {ev['applied']} {ev['type']} ({ev['why']}; {ev['rolled']}, "
                f"{ev['soaked']} soaked{_halved(ev)}): {change}")
    return (f"  {t} takes {ev['applied']} {ev['type']} ({ev['rolled']} rolled, "
            f"{ev['soaked']} soaked{_halved(ev)}): {change}")


def _mend(ev, n, state):
    return mend_text(ev, n)


def _outcome(ev, n, state):
    return f"  {_who(ev, n)} {_OUTCOMES.get(ev['outcome'], ev['outcome'])}."


def _armor_damaged(ev, n, state):  # DMG-12
    return (f"  {_who(ev, n)}'s {ev.get('armor') or 'armor'} is damaged: no soak until "
            f"repaired.")


def _escape(ev, n, state):
    who = _who(ev, n)
    if not ev.get("holder"):
        return f"{who} is not held by anyone."
    if ev.get("limp"):
        return f"  {who} slips out of {n(ev['holder'])}'s limp grip."
    return f"  {who} breaks free." if ev["escaped"] else f"  {who} is still held."


def _grapple(ev, n, state):
    return f"  {_who(ev, n)} and {n(ev['target'])} are locked in a {ev['kind']}."


def _dazed(ev, n, state):
    return f"  {_who(ev, n)} is dazed and loses next turn's actions."


def _off_balance(ev, n, state):
    return (f"  {_who(ev, n)} is off balance: +{ev['difficulty']} difficulty on all actions "
            f"next turn.")


def _staked(ev, n, state):
    return f"  {_who(ev, n)} is STAKED: {ev.get('detail')}."


def _tackle_botched(ev, n, state):
    if ev.get("choice") == "hurt":
        return f"  {_who(ev, n)} botches the tackle and takes the impact instead of falling."
    return (f"  {_who(ev, n)} goes down in the botched tackle (getting up takes an action: "
            f"rise).")


def _knockdown(ev, n, state):
    who = _who(ev, n)
    if ev.get("kept_feet"):
        return f"  {who} keeps their feet."
    if ev.get("standing"):
        return (f"  {who} is knocked down but gets up at once: {ev['initiative']:+d} "
                f"initiative next turn.")
    return f"  {who} is knocked down and stays on the ground (rise takes an action)."


def _disarm(ev, n, state):
    t, w = n(ev["target"]), ev.get("weapon")
    if ev.get("ok"):
        return f"  {t}'s {w} flies away (pick it up: ready {w})."
    return f"  {t} keeps hold of the weapon."


def _drain(ev, n, state):
    return (f"  {_who(ev, n)} drains {ev['taken']} blood from {n(ev['target'])}"
            f" ({ev['gained']} gained).")


def _kiss(ev, n, state):
    s = f"  {_who(ev, n)} drinks {ev['drained']} blood from {n(ev['target'])} in the Kiss"
    return s + (": they are helpless." if ev.get("helpless") else ".")


def _kiss_resisted(ev, n, state):
    if ev.get("resisted"):
        return f"  {_who(ev, n)} tears free of the Kiss."
    return f"  {_who(ev, n)} cannot break the Kiss."


RENDER: dict[str, Callable] = {
    "start": _start, "join": _join, "leave": _leave, "deleted": _deleted,
    "initiative": _initiative, "flag": _flag, "turn": _turn, "phase": _phase, "end": _end,
    "range": _range, "summary": _summary,
    "undo": _undo, "timeout_set": _timeout_set, "timeout": _timeout, "pace": _pace,
    "revive": _revive, "heal": _heal,
    "declare": _declare, "empty_pool": _empty_pool, "skip": _skip, "ahead": _ahead,
    "ahead_refused": _ahead_refused, "delay": _delay, "abort": _abort_or_change,
    "change": _abort_or_change, "impossible": _impossible,
    "condition": _condition, "roll": _roll, "spend": _spend, "activate": _activate,
    "effect": _effect, "cover": _cover, "stay_active": _stay_active,
    "time_power": _time_power, "blind_fight": _blind_fight, "effect_note": _effect_note,
    "action": _action, "weapon": _weapon, "aim": _aim, "string_snapped": _string_snapped,
    "ammo": _ammo,
    "attack": _attack, "strafe": _strafe, "share": _share, "two_weapons": _two_weapons,
    "attack_lost": _attack_lost, "defense_ineffective": _defense_ineffective,
    "defense_waits": _defense_waits, "counter": _counter, "miss": _miss, "hit": _hit,
    "riposte_ready": _riposte_ready, "ambush": _ambush,
    "damage": _damage, "mend": _mend, "outcome": _outcome, "armor_damaged": _armor_damaged,
    "escape": _escape, "grapple": _grapple, "dazed": _dazed, "off_balance": _off_balance,
    "staked": _staked, "tackle_botched": _tackle_botched, "knockdown": _knockdown,
    "disarm": _disarm, "drain": _drain, "kiss": _kiss, "kiss_resisted": _kiss_resisted,
}
