"""The spotlight engine behind the one engine interface (issue 8; seed 004, SPOT-01..14).

``ENGINE.apply(state, intent, sheets, rules, rng) -> Outcome`` runs a spotlight fight: it
turns a typed intent (``combat/core/intents.py``) into calls of the pure spotlight steps
(``combat/spotlight/turns.py``, ``combat/spotlight/attack.py``) and returns the new state and the
events. Every game decision a spotlight ``+combat`` command used to take lives here, so the
command only parses text into an intent, checks who may ask (organizer/staff or player) and
renders events; the text it prints is rebuilt from the events' fields alone.

Why an adapter and not a rewrite: ``combat/spotlight/turns.py`` is the tested rules engine; this
module adds what sat in the command (the attack roll and its Harm, reading sheets, the
refusals of d10-only intents) and the idle clock (issue 5), nothing else.

Readings where the seed and the old command are silent (listed for the lead):
- idle clock: the fight has no deadline before round 1 (the Storyteller's ``advance`` starts
  it and never waits for a PC who has not rolled, SPOT-01/04); a holder of the spotlight who
  is idle ends the turn as ``done`` would; the Storyteller idle on a pick passes it as
  ``advance`` would (SPOT-04/06); a deleted character the fight waits for is removed;
- a PC always acts once a round (SPOT-04), whatever the YAML gives opponents;
- Harm is kept on the character's sheet as well as in the fight (issue 10): every command
  that changes someone's Harm returns their sheet with the new marks, so a character who
  leaves hurt or meets Final Death joins the next fight with that Harm; feeding and the
  end-of-scene Hunger Check write the vampire's Hunger back too;
- the organizer is not joined by +combat/start (issue 10: staff running the opponents are
  not a PC unless they +combat/join).

Pure: no Evennia, Django or Twisted import; dice come from the injected ``random.Random``.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from . import flow, harm, initiative, passing, ranges, roster, tables, turn
from . import attack as spa
from . import conditions as spc
from . import rouse
from . import impairment as imp
from . import moves as mv
from . import dice as v5dice
from ..core import intents
from ..core.events import events_of
from ..core.outcome import Outcome
from ..core.errors import IllegalAction, InputError
from .state import ENGINE as NAME
from .state import SpotlightState
from ..core.values import replace

PASS, REMOVED = "pass", "removed"  # the idle defaults, as combat/d10/idle.py names them
ATTACKS = ("attack", "bite", "grapple")  # the acts that roll (spotlight_attack)
HOLDS = "grapple"  # V5: a grapple won holds the target (attack.yaml bite_hold)
POWER = "power"  # a Discipline Power: a vampire's Rouse Check (SPOT-07, issue 31)
UNARMED = "unarmed"  # the range tag of an attack named without a weapon
TEXT_MAX = 300  # an act described in words: kept short in the log
REMOVE_WHY = ("leave", "kick", "deleted")

# ---------------------------------------------------------------- d10-only intents

# What a player typed that only the d10 engine takes, and what to do here instead. Keyed by
# intent kind; ``DECLARED`` refines ``declare`` by what was declared (the d10 shorthands
# /attack, /dodge, /celerity ... are declarations).
D10_ONLY = {
    "declare": "there is no declaration: on your turn use +combat/act, /move, /free, /done",
    "pass": "end your turn with +combat/done",
    "delay": "the spotlight moves in initiative order; end your turn with +combat/done",
    "abort": "there is nothing declared to abort; act on your turn with +combat/act",
    "cover": "there is no cover here: what counts is the range (+combat/move, SPOT-10)",
    "heal": "blood revives a vampire in torpor: +combat/feed <name>=<hunger slaked>",
}
DECLARED = {
    "attack": "attack on your turn: +combat/act attack <target> [with <weapon>]",
    "dodge": "there are no declared defenses here; act on your turn with +combat/act",
    "block": "there are no declared defenses here; act on your turn with +combat/act",
    "parry": "there are no declared defenses here; act on your turn with +combat/act",
    "defend": "there are no declared defenses here; act on your turn with +combat/act",
    "celerity": "a turn is one move, one action, one free action (SPOT-07)",
    "rage": "a turn is one move, one action, one free action (SPOT-07)",
    "spend": "a turn is one move, one action, one free action (SPOT-07)",
}
SWITCH = {"cover": "mod"}  # the switch a player types for these kinds


def _declared_word(intent: intents.Intent) -> str:
    """The d10 shorthand a declaration came from (``attack``, ``dodge``, ``celerity`` ...)."""
    words = [str(a.get("activate", "")) for a in getattr(intent, "activations", ())]
    for a in getattr(intent, "actions", ()):
        words.append("defend" if a.get("desperate") else str(a.get("kind", "")))
    words = ["spend" if w == "effect" else w for w in words]
    return next((w for w in words if w in DECLARED), "declare")


def d10_only(intent: intents.Intent) -> str:
    """The refusal of an intent this engine does not take, with what to type instead."""
    if intent.kind == "declare":
        word = _declared_word(intent)
        hint = DECLARED.get(word, D10_ONLY["declare"])
    else:
        word = SWITCH.get(intent.kind, intent.kind)
        hint = D10_ONLY.get(intent.kind, "see +combat for what this fight takes")
    return (f"+combat/{word} is for d10 combats; this fight runs the spotlight engine: "
            f"{hint}. See +combat for the state.")


# ---------------------------------------------------------------- the idle clock (issue 5)


def waited(state: SpotlightState) -> list[tuple[str, str]]:
    """The prompts the idle clock defaults: everyone the fight waits for once round 1 is
    under way. Before it (SPOT-01) the Storyteller starts the round whenever they like, PCs
    who have not rolled or not: nobody stalls the fight, so nobody gets a deadline."""
    if state.stage in ("initiative", "ended"):
        return []
    return flow.prompts(state)


def stamp(state: SpotlightState, timeout: int | None, now: float) -> SpotlightState:
    """``combat/idle.stamp`` for this engine: give a new prompt its deadline (the engine
    clears it whenever the turn moves on), or clear it when nobody is waited for or the
    timeout is off (None or 0)."""
    if not timeout or timeout <= 0 or not waited(state):
        return state if state.deadline is None else replace(state, deadline=None)
    if state.deadline is None:
        return replace(state, deadline=float(now) + int(timeout))
    return state


def due(state: SpotlightState, now: float) -> bool:
    return state.stage != "ended" and state.deadline is not None and now >= state.deadline


def remaining(state: SpotlightState, now: float) -> float | None:
    """Seconds left before the timeout (0 when due), or None without a deadline."""
    if state.deadline is None:
        return None
    return max(0.0, state.deadline - now)


# ---------------------------------------------------------------- helpers


Handler = Callable[[SpotlightState, Any, Mapping[str, Any], Any, random.Random], Outcome]
_HANDLERS: dict[str, Handler] = {}


def _handles(cls: type[intents.Intent]):
    def wrap(fn: Handler) -> Handler:
        _HANDLERS[cls.kind] = fn
        return fn

    return wrap


def _out(state: SpotlightState, events) -> Outcome:
    return Outcome(state, {}, events_of(events))


def _step(step: flow.Step) -> Outcome:
    return _out(step.state, step.events)


def _live(state: SpotlightState) -> None:
    if state.stage == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def _own(state: SpotlightState, intent: intents.Intent):
    """The fighter an intent is for: ``actor``, else the one who typed it."""
    key = intent.actor or intent.by
    c = state.get(key)
    if c is None and key == intent.by:
        raise IllegalAction("You are not in this fight: +combat/join first.")
    return c or state.find(key)


def _named(state: SpotlightState, intent: intents.Intent, usage: str):
    """The fighter an intent names (a target: kick, damage, stake ...)."""
    if not intent.actor:
        raise InputError(f"Name whom: {usage}.")
    return state.find(intent.actor)


def _sheet(sheets: Mapping[str, Any], key: str, name: str):
    """One sheet, read only when needed (``sheets`` may load lazily)."""
    try:
        return sheets[key]
    except KeyError:
        raise IllegalAction(f"{name} has no sheet here.") from None


def _sheet_or_none(sheets: Mapping[str, Any], key: str):
    try:
        return sheets[key]
    except KeyError:
        return None


# ---------------------------------------------------------------- setting up


@_handles(intents.Join)
def _join(st, intent: intents.Join, sheets, rules, rng) -> Outcome:
    """PCs from their sheet (vampire, Blood Potency: SPOT-13); opponents from theirs when
    they have one (a template), else plain HP (``hp``) and turns a round (SPOT-05)."""
    _live(st)
    if not intent.actor:
        raise InputError("Who joins? A combatant needs a key (a dbref).")
    key, name = intent.actor, (intent.name or intent.actor).strip()
    if intent.opening:  # issue 10: the organizer runs the fight; a PC only by /join
        return _out(st, [{"event": "organizer", "actor": key, "name": name}])
    if intent.is_npc and any(c.name.lower() == name.lower() for c in st.combatants):
        raise IllegalAction(f"Someone called {name} is already in this fight.")
    if intent.is_npc:
        sheet = _sheet_or_none(sheets, key)
        profile = roster.sheet_profile(sheet, rules) if sheet is not None else {}
        apr = intent.actions
    else:
        profile = roster.sheet_profile(_sheet(sheets, key, name), rules)
        apr = 1 if intent.actions is None else intent.actions  # SPOT-04: once a round
    step = roster.join(st, key, name, rules, is_npc=intent.is_npc, controller=intent.controller,
                   hp=intent.hp, actions_per_round=apr, **profile)
    return _step(step)


@_handles(intents.Remove)
def _remove(st, intent: intents.Remove, sheets, rules, rng) -> Outcome:
    """Leave, kick, or the game removing a deleted character (a no-op once gone)."""
    if intent.why not in REMOVE_WHY:
        raise InputError(f"A removal is {', '.join(REMOVE_WHY)}, not '{intent.why}'.")
    key = intent.actor or intent.by
    c = st.get(key)
    first: list[dict] = []
    if intent.why == "deleted":
        if c is None or st.stage == "ended":
            return Outcome(st)
        first = [{"event": "deleted", "actor": key, "name": c.name}]
    elif c is None and intent.why == "leave":
        raise IllegalAction("You are not in this fight.")
    step = roster.remove(st, key, rules)
    events = [{**e, "why": intent.why} if e.get("event") == "leave" else e for e in step.events]
    return _out(step.state, first + events)


@_handles(intents.End)
def _end(st, intent, sheets, rules, rng) -> Outcome:
    """The end of the scene: the vampires' Hunger Check heals their Superficial Harm (seed
    004, harm.yaml READING), then the fight ends; Harm and Hunger go back to the sheets."""
    _live(st)
    hungers = {}
    for c in st.combatants:
        if c.vampire and c.status == "active" and c.superficial:
            s = _sheet_or_none(sheets, c.key)
            hungers[c.key] = v5dice.hunger_of(s, rules) if s is not None else 0
    sides = v5dice.v5_rules(rules).sides if v5dice.uses_v5(rules) else 10
    healed, checks = harm.scene_end(st, rules, rng, hungers, sides)
    step = roster.end(healed, rules)
    out = _out(step.state, [*checks, *step.events])
    return _with_hunger(out, checks, sheets, rules)


def _with_hunger(out: Outcome, events, sheets, rules) -> Outcome:
    """Write the Hunger that feeding or a Hunger Check changed back to the sheets."""
    changes = dict(out.sheet_changes)
    pool = v5dice.v5_rules(rules).hunger_pool if v5dice.uses_v5(rules) else "Hunger"
    for ev in events:
        key = ev.get("target") or ev.get("actor")
        if "hunger_after" not in ev or ev["hunger_after"] == ev.get("hunger_before"):
            continue
        s = changes.get(key) or _sheet_or_none(sheets, key)
        if s is not None:
            changes[key] = s.with_pool_current(pool, ev["hunger_after"])
    return Outcome(out.state, changes, out.events)


# ---------------------------------------------------------------- the round (SPOT-01..09)


@_handles(intents.RollInitiative)
def _initiative(st, intent: intents.RollInitiative, sheets, rules, rng) -> Outcome:
    """SPOT-01: only PCs roll, the YAML's dice + the highest of their initiative traits."""
    _live(st)
    if intent.rating is not None:
        raise IllegalAction("Opponents don't roll initiative (SPOT-01); roll your own "
                            "with +combat/init.")
    if intent.adjust:
        raise IllegalAction("Initiative here takes no modifier by hand: +combat/init.")
    c = _own(st, intent)
    ratings = initiative.initiative_ratings(_sheet(sheets, c.key, c.name), rules) if c.is_pc else {}
    return _step(initiative.roll_initiative(st, c.key, rules, rng, ratings=ratings))


@_handles(intents.Advance)
def _advance(st, intent: intents.Advance, sheets, rules, rng) -> Outcome:
    """SPOT-04..06: the Storyteller gives an opponent the spotlight, or moves on."""
    if intent.actor:
        return _step(passing.next_opponent(st, intent.actor, rules))
    return _step(passing.advance(st, rules))


@_handles(intents.Swap)
def _swap(st, intent: intents.Swap, sheets, rules, rng) -> Outcome:
    """SPOT-03: tied PCs settle it: ``actor`` goes before ``other``."""
    a = _named(st, intent, "+combat/swap <goes first>=<goes second>")
    return _step(initiative.swap(st, a.key, intent.other, rules))


@_handles(intents.Ambush)
def _ambush(st, intent: intents.Ambush, sheets, rules, rng) -> Outcome:
    return _step(passing.ambush(st, intent.side, rules))  # SPOT-08


@_handles(intents.Narrate)
def _narrate(st, intent: intents.Narrate, sheets, rules, rng) -> Outcome:
    return _step(passing.event(st, intent.text, rules))  # SPOT-09


@_handles(intents.SetCondition)
def _condition(st, intent: intents.SetCondition, sheets, rules, rng) -> Outcome:
    """Issue 31: a condition put on for some rounds, or until removed, or taken off."""
    c = _named(st, intent, "+combat/mod <name>=<condition> [<rounds>]")
    if intent.remove:
        if intent.turns is not None:
            raise InputError(f"Take a condition off without a number: +combat/mod "
                             f"<name>=!{intent.condition.strip()}.")
        return _step(spc.take_off(st, c.key, intent.condition, rules))
    return _step(spc.put_on(st, c.key, intent.condition, intent.turns, rules))


@_handles(intents.SetRange)
def _range(st, intent: intents.SetRange, sheets, rules, rng) -> Outcome:
    """SPOT-10: the Storyteller places two combatants at a band, or everyone (actor "*")."""
    if intent.actor == "*":
        return _step(ranges.set_every_range(st, intent.band, rules))
    a = _named(st, intent, "+combat/range <a>/<b>=<range>")
    return _step(ranges.set_range(st, a.key, intent.other, intent.band, rules))


# ---------------------------------------------------------------- a turn (SPOT-07)


@_handles(intents.Move)
def _move(st, intent: intents.Move, sheets, rules, rng) -> Outcome:
    c = _own(st, intent)
    return _step(turn.move(st, c.key, intent.other, intent.direction, rules))


@_handles(intents.Free)
def _free(st, intent: intents.Free, sheets, rules, rng) -> Outcome:
    c = _own(st, intent)
    return _step(turn.free(st, c.key, rules, intent.text))


@_handles(intents.Done)
def _done(st, intent: intents.Done, sheets, rules, rng) -> Outcome:
    c = _own(st, intent)
    return _step(turn.done(st, c.key, rules))


def _action(raw: Mapping | None, key: str) -> dict:
    """The act as ``spotlight.act`` takes it: an attack or bite names a target (not
    oneself); an attack may name a weapon (else the one carried: ``_weapon``), a bite none
    (SPOT-10: the bite is its own range tag); anything else is an action in words."""
    a = dict(raw or {})
    kind = str(a.get("kind") or "action").strip().lower()
    if kind in ATTACKS:
        target = str(a.get("target") or "").strip()
        if not target:
            raise InputError("Attack whom? +combat/act attack <target> [with <weapon>].")
        if target == key:
            raise IllegalAction("You cannot attack yourself.")
        weapon = str(a.get("weapon") or "").strip().lower()
        if kind != "attack":
            if weapon:
                raise InputError(f"A {kind} needs no weapon: +combat/act {kind} <target>.")
            return {"kind": kind, "target": target}
        out = {"kind": kind, "target": target}
        return {**out, "weapon": weapon} if weapon else out
    if kind == POWER:
        out = {"kind": kind, "power": str(a.get("power") or "").strip()}
        target = str(a.get("target") or "").strip()
        if target == key:
            raise IllegalAction("Use the power on someone else, or on no one.")
        return {**out, "target": target} if target else out
    if kind == "other":
        text = str(a.get("text") or "").strip()[:TEXT_MAX]
        if not text:
            raise InputError("Say what you do: +combat/act <what>.")
        return {"kind": kind, "text": text}
    return {**a, "kind": kind}


def _weapon(action: dict, sheet, rules) -> spa.Weapon | None:
    """The weapon of an attack (issue 10): the one named (a range tag, or a row of the
    weapons table such as ``Pistol, light``), else the first one the sheet carries (the one
    in hand, as in the d10 engine), else unarmed. None for a bite (its own tag)."""
    if action["kind"] != "attack":
        return None
    tags = tables.spot_rules(rules).tags
    named = action.get("weapon")
    if named:
        return spa.weapon(rules, named, tags)
    for carried in getattr(sheet, "weapons", ()) or ():
        try:
            return spa.weapon(rules, carried, tags)
        except InputError:
            continue  # carried under another ruleset's table: not usable here
    return spa.Weapon(UNARMED, UNARMED, None)


@_handles(intents.Act)
def _act(st, intent: intents.Act, sheets, rules, rng) -> Outcome:
    """SPOT-07: the turn's one action; an attack is rolled and its Harm marked at once."""
    _live(st)
    if intent.willpower:
        raise IllegalAction("A spotlight action takes no Willpower point: +combat/act "
                            "<what>.")
    c = _own(st, intent)
    kind = str((intent.action or {}).get("kind") or "").strip().lower()
    if kind in mv.names(rules):  # issue 31: the moves reading
        return _move_act(st, c, {**intent.action, "kind": kind}, sheets, rules, rng)
    action = _action(intent.action, c.key)
    if action["kind"] == POWER:
        return _power(st, c, action, sheets, rules, rng)
    if action["kind"] not in ATTACKS:
        return _step(turn.act(st, c.key, rules, action))
    sheet = _sheet(sheets, c.key, c.name)
    w = _weapon(action, sheet, rules)
    if w is not None:
        action = {**action, "weapon": w.tag}
        if w.name.lower() != w.tag:
            action["weapon_name"] = w.name
    step = turn.act(st, c.key, rules, action)
    if action["kind"] == "bite":
        _check_hold(step.state, c, action["target"], rules)
    out = _attack(step, c, action, w, sheet, sheets, rules, rng)
    return _open_reroll(st, out, c.key, action, w)


def _check_hold(state: SpotlightState, c, target: str, rules) -> None:
    """V5 (attack.yaml READING): a bite needs the target held (the hold condition: a
    grapple won, or put on by the organizer), unless it is down (torpor, out, staked)."""
    hold = spa.bite_hold(rules)
    t = state.find(target)
    if hold is None or t.status != "active" or t.staked:
        return
    if not any(k.name == hold[0] and k.active(max(state.round, 1)) for k in t.conditions):
        raise IllegalAction(f"A bite needs {t.name} held: grapple first (+combat/act grapple "
                            f"{t.name}), and bite on a later turn while the hold lasts.")


def _power(st, c, action: dict, sheets, rules, rng) -> Outcome:
    """SPOT-07 "Any Basic Move or Discipline Power": a power is a trait the user has a dot
    in; a vampire with a sheet makes V5's Rouse Check for it (harm.yaml ``rouse``), which
    may raise its Hunger (written back to the sheet), and is refused at the top of the
    Hunger range. Anyone else uses it with no check."""
    rr = rouse.rouse_rules(rules)
    if rr is None:
        return _step(turn.act(st, c.key, rules, action))
    name = rouse.power_name(rules, str(action.get("power") or ""))
    action = {**action, "power": name}
    sheet = _sheet_or_none(sheets, c.key)
    if sheet is not None and sheet.rating(rules.traits, name) < 1:
        raise IllegalAction(f"{c.name} has no dots in {name}: +sheet shows the powers.")
    step = turn.act(st, c.key, rules, action)
    if not c.vampire or sheet is None:
        return _step(step)
    check = rouse.check(v5dice.hunger_of(sheet, rules), rng, rr,
                        v5dice.v5_rules(rules).sides)
    ev = {"event": "rouse", "actor": c.key, "power": name, **check}
    act_ev, *after = step.events
    return _with_hunger(_out(step.state, [act_ev, ev, *after]), [ev], sheets, rules)


def _open_reroll(before: SpotlightState, out: Outcome, key: str, action: dict, w) -> Outcome:
    """V5 Willpower reroll (dice.yaml): the attack stays open to its roller's reroll until
    anything else happens; what the reroll needs to play it again is kept in the state."""
    roll = next(e for e in out.events if e.get("event") == "roll")
    weapon = None if w is None else [w.name, w.tag, w.bonus]
    last = {"actor": key, "action": dict(action), "weapon": weapon,
            "faces": list(roll["faces"]), "hunger": roll["hunger"],
            "defense": [list(roll["defense"]["faces"]), roll["defense"]["hunger"]],
            "before": replace(before, last_roll=None).to_dict()}
    return Outcome(replace(out.state, last_roll=last), out.sheet_changes, out.events)


@_handles(intents.Reroll)
def _reroll(st, intent: intents.Reroll, sheets, rules, rng) -> Outcome:
    """V5 Willpower reroll: one Willpower point, up to three of the attack's dice that are
    not Hunger dice rolled again, the attack played again from just before it with the new
    dice (the defender's dice kept); once a roll."""
    _live(st)
    c = _own(st, intent)
    last = st.last_roll
    if not last or last["actor"] != c.key:
        raise IllegalAction("There is no roll of yours to reroll: a Willpower reroll comes "
                            "right after your attack, before anything else happens.")
    v5 = v5dice.v5_rules(rules)
    if v5.reroll is None:
        raise IllegalAction("This ruleset has no Willpower reroll.")
    pool, cost, most = v5.reroll
    old = v5dice.count(last["faces"], last["hunger"], v5)
    picks = _picks(intent.dice, len(old.normal_faces), most)
    sheet = _sheet(sheets, c.key, c.name)
    spent = sheet.spend(pool, cost)
    new = v5dice.reroll(old, picks, rng, v5)
    before = SpotlightState.from_dict(last["before"])
    action, w = dict(last["action"]), last["weapon"]
    w = None if w is None else spa.Weapon(w[0], w[1], w[2])
    step = turn.act(before, c.key, rules, action)
    defense = v5dice.count(last["defense"][0], last["defense"][1], v5)
    out = _attack(step, c, action, w, sheet, sheets, rules, rng, kept=(new, defense),
                  replay=True)
    ev = {"event": "reroll", "actor": c.key, "positions": list(picks),
          "old": [old.normal_faces[p - 1] for p in picks],
          "new": [new.normal_faces[p - 1] for p in picks],
          "pool": pool, "spent": cost, "left": spent.pools[pool].current}
    events = [ev, *out.events]
    state = replace(out.state, last_roll=None, seq=st.seq + 1, deadline=st.deadline)
    return Outcome(state, {**out.sheet_changes, c.key: spent}, events_of(events))


def _picks(dice, normal: int, most: int) -> tuple[int, ...]:
    """The positions typed (1-based among the dice that are not Hunger dice), checked."""
    usage = (f"+combat/reroll <die>[,<die>...]: up to {most} of your {normal} dice that are "
             f"not Hunger dice, counted from the left as shown, e.g. +combat/reroll 1,3.")
    picks = tuple(dice or ())
    if not picks or len(picks) > most or len(set(picks)) != len(picks):
        raise InputError(usage)
    if any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= normal
           for p in picks):
        raise InputError(usage)
    return picks


def _attack(step: flow.Step, c, action: dict, w, sheet, sheets, rules, rng,
            kept=None, replay: bool = False) -> Outcome:
    """A V5 contest (combat/spotlight/attack.py, issue 10): the attacker's pool against the
    defender's, Hunger dice for vampires; Harm = margin + weapon damage on the target, with
    worn armor against Superficial (SPOT-11) and Superficial to vampires halved (V5); in
    close combat a defender who fought back and won deals its own Harm to the attacker.
    The attack reads as one beat in the log: act, roll, harm, then wherever the round
    went. ``replay`` (a Willpower reroll): the act and what followed it are not told
    again."""
    tag = w.tag if w is not None else action["kind"]
    row = spa.attack_row(rules, tag)
    cat = rules.traits
    target = action["target"]
    tc = step.state.find(target)
    tsheet = _sheet_or_none(sheets, target)
    defense = spa.attack_defense(rules)
    back = _fight_back(rules, tag, tc, tsheet)
    ratings = {n: sheet.rating(cat, n) for n in row.pool}
    t_names = (*defense, *(back[0].pool if back else ()))
    t_ratings = {n: tsheet.rating(cat, n) for n in t_names} if tsheet is not None else {}
    vampire = roster.is_vampire(sheet, rules)
    # V5 Impairment: 0 HP (the Harm track full) or no Willpower left
    impaired = (imp.terms(rules, row.pool, health_full=step.state.find(c.key).hp <= 0,
                          willpower_left=imp.willpower_left(sheet, rules)),
                imp.terms(rules, defense, health_full=tc.hp <= 0,
                          willpower_left=imp.willpower_left(tsheet, rules)))
    res = spa.resolve(rules, tag, ratings, t_ratings, rng,
                      attacker_hunger=v5dice.hunger_of(sheet, rules) if vampire else 0,
                      defender_hunger=v5dice.hunger_of(tsheet, rules) if tc.vampire else 0,
                      attacker_vampire=vampire, target_vampire=tc.vampire,
                      bonus=w.bonus if w is not None else None, kept=kept,
                      impaired=impaired, fight_back=back)
    act_ev, *after_act = step.events
    rnd = act_ev["round"]
    roll = {"event": "roll", "actor": c.key, "purpose": "attack", "target": target,
            "round": rnd, **{k: v for k, v in res.items() if k not in ("harm", "kind")}}
    hold = spa.bite_hold(rules) if tag == HOLDS else None
    if hold is not None:  # V5: a grapple won holds the target; it deals no Harm
        roll["purpose"] = HOLDS
        hit = (spc.put_on(step.state, target, hold[0], hold[1], rules) if res["margin"] > 0
               else flow.Step(step.state, ({"event": "unharmed", "actor": c.key,
                                          "target": target, "held": False},)))
    elif res["harm"] <= 0:
        hit = flow.Step(step.state, ({"event": "unharmed", "actor": c.key, "target": target,
                                    "round": rnd},))
    else:
        hit = harm.harm(step.state, target, res["harm"], res["kind"], rules,
                      armor=_armor(tsheet, rules),
                      halve=tsheet is not None and tc.vampire
                      and spa.halves(rules, cat.family(tsheet.splat)),
                      source=c.key)
    hit_ev, *after_hit = hit.events
    counter = (res["defense"].get("counter") or {}).get("harm", 0)
    after, state = [], hit.state
    if counter > 0 and state.find(c.key).status == "active":
        back_step = harm.harm(state, c.key, counter, res["defense"]["counter"]["kind"], rules,
                            armor=_armor(sheet, rules),
                            halve=vampire and spa.halves(rules, cat.family(sheet.splat)),
                            source=target)
        after, state = [{**e, "round": rnd} for e in back_step.events], back_step.state
    told = [] if replay else [act_ev]
    events = [*told, roll, {**hit_ev, "round": rnd}, *after,
              *([] if replay else after_act), *after_hit]
    return _out(state, events)


def _fight_back(rules, tag: str, tc, tsheet) -> tuple | None:
    """V5 close combat (attack.yaml READING): against an attack whose reach ends within
    ``close_defense.within``, a defender who is up and has a sheet may fight back with the
    first close-combat weapon it carries (else its fists): (row, weapon damage, Impairment
    terms). None: it can only dodge."""
    within = spa.close_within(rules)
    tags = tables.spot_rules(rules).tags
    if within is None or tsheet is None or tc.status != "active" or tag not in tags:
        return None
    limit = tables.spot_rules(rules).bands.index(within)
    if tags[tag][1] > limit:
        return None
    w = spa.Weapon(UNARMED, UNARMED, None)
    for carried in getattr(tsheet, "weapons", ()) or ():
        try:
            found = spa.weapon(rules, carried, tags)
        except InputError:
            continue
        if found.tag in tags and tags[found.tag][1] <= limit:
            w = found
            break
    row = spa.attack_row(rules, w.tag)
    terms = imp.terms(rules, row.pool, health_full=tc.hp <= 0,
                      willpower_left=imp.willpower_left(tsheet, rules))
    return row, w.bonus, terms


def _move_weapon(m: mv.Move, action: dict, sheet, rules) -> spa.Weapon | None:
    """The weapon of a move that deals Harm: the move's own tag (bite); else the one named;
    else the first carried one the move takes; else unarmed, if the move takes it."""
    if not m.harm or m.tag:
        return None
    tags = tables.spot_rules(rules).tags
    if action.get("weapon"):
        w = spa.weapon(rules, action["weapon"], tags)
        if m.tags is not None and w.tag not in m.tags:
            other = mv.move_taking(rules, w.tag)
            hint = (f"{other} takes it: +combat/act {other} <target> with {w.name}" if other
                    else f"+combat/act {m.name} <target> with <weapon>")
            raise IllegalAction(f"{m.name} takes {', '.join(m.tags)}, not {w.name}; {hint}.")
        return w
    for carried in getattr(sheet, "weapons", ()) or ():
        try:
            w = spa.weapon(rules, carried, tags)
        except InputError:
            continue  # carried under another ruleset's table: not usable here
        if m.tags is None or w.tag in m.tags:
            return w
    if m.tags is None or UNARMED in m.tags:
        return spa.Weapon(UNARMED, UNARMED, None)
    raise IllegalAction(f"{m.name} needs a weapon it takes ({', '.join(m.tags)}): "
                        f"+combat/act {m.name} <target> with <weapon>.")


def _move_act(st, c, action: dict, sheets, rules, rng) -> Outcome:
    """Issue 31, ``resolution: moves``: the move's dice + its stat; 10+ and 7-9 mark the
    weapon's Harm on a target when the move deals Harm (armor against Superficial,
    SPOT-11); 7-9 leaves a cost owed for the Storyteller to name (+combat/cost)."""
    m = mv.move(rules, action["kind"])
    if action.get("text"):
        action["text"] = str(action["text"]).strip()[:TEXT_MAX]
    target = action.get("target")
    if m.target and not target:
        what = f" ('{action['text']}' is nobody in this fight)" if action.get("text") else ""
        raise InputError(f"{m.name} names whom{what}: +combat/act {m.name} <target>"
                         + (" [with <weapon>]." if m.harm and not m.tag else "."))
    if target and not m.target:
        raise InputError(f"{m.name} names nobody: +combat/act {m.name} [<what you do>].")
    sheet = _sheet_or_none(sheets, c.key)
    w = _move_weapon(m, action, sheet, rules)
    action = {k: v for k, v in action.items() if k != "weapon"}
    if w is not None:
        action["weapon"] = w.tag
        if w.name.lower() != w.tag:
            action["weapon_name"] = w.name
    elif m.tag and m.tag != m.name:
        action["power"] = m.tag  # the range check of the move's own tag (SPOT-10)
    step = turn.act(st, c.key, rules, action)
    rating = sheet.rating(rules.traits, m.stat) if sheet is not None else 0
    res = mv.roll(rules, m, rating, rng)
    act_ev, *after_act = step.events
    rnd = act_ev["round"]
    events = [act_ev, {"event": "roll", "actor": c.key, "purpose": "move", "round": rnd,
                       **({"target": target} if target else {}), **res}]
    cur = step.state
    if m.harm and res["result"] != "miss":
        amount, kind = mv.harm_of(rules, w.tag if w is not None else m.tag)
        hit = harm.harm(cur, target, amount, kind, rules,
                      armor=_armor(_sheet_or_none(sheets, target), rules), source=c.key)
        hit_ev, *after_hit = hit.events
        events.append({**hit_ev, "round": rnd})
        after_act, cur = [*after_act, *after_hit], hit.state
    if res["result"] == "partial":
        cur = cur.with_fighters({c.key: replace(cur.get(c.key), cost_owed=m.name)})
    return _out(cur, [*events, *after_act])


@_handles(intents.NameCost)
def _name_cost(st, intent: intents.NameCost, sheets, rules, rng) -> Outcome:
    """Issue 31, the moves reading: the Storyteller names the cost a 7-9 owes, in words or
    by the number of one of the move's ``costs``."""
    _live(st)
    c = _named(st, intent, "+combat/cost <name>=<cost>")
    if not c.cost_owed:
        raise IllegalAction(f"{c.name} owes no cost (a cost follows a 7-9 on a move).")
    text = str(intent.text or "").strip()[:TEXT_MAX]
    costs = mv.move(rules, c.cost_owed).costs if c.cost_owed in mv.names(rules) else ()
    if text.isdecimal():
        if not 1 <= int(text) <= len(costs):
            raise InputError(f"{c.cost_owed} lists {len(costs)} cost(s): +combat/cost "
                             f"{c.name}=<1-{len(costs)}> or the cost in words."
                             if costs else f"{c.cost_owed} lists no costs: name it in "
                             f"words, +combat/cost {c.name}=<cost>.")
        text = costs[int(text) - 1]
    if not text:
        raise InputError(f"Name the cost: +combat/cost {c.name}=<cost>"
                         + (f" or =<1-{len(costs)}>." if costs else "."))
    new = st.with_fighters({c.key: replace(c, cost_owed=None)})
    new = replace(new, seq=st.seq + 1)
    return _out(new, [{"event": "cost", "actor": c.key, "move": c.cost_owed, "text": text,
                       "by": intent.by, "round": st.round}])


def _armor(sheet, rules) -> int:
    """SPOT-11: the rating of the armor the target wears (the ruleset's armor table)."""
    if sheet is None or not sheet.armor:
        return 0
    from ..core.maneuvers import tables

    try:
        return tables(rules).armor(sheet.armor).rating
    except InputError:
        return 0  # worn under another ruleset's table: it stops nothing here


# ---------------------------------------------------------------- harm (SPOT-11..14)


@_handles(intents.StaffDamage)
def _damage(st, intent: intents.StaffDamage, sheets, rules, rng) -> Outcome:
    """SPOT-11: staff mark Harm by hand (superficial or aggravated)."""
    c = _named(st, intent, "+combat/damage <name>=<n> superficial|aggravated")
    if intent.sources:
        raise InputError("Harm here names no source: +combat/damage <name>=<n> "
                         "superficial|aggravated.")
    return _step(harm.harm(st, c.key, intent.levels, intent.damage_type, rules,
                         source=f"staff {intent.by}"))


@_handles(intents.StaffHeal)
def _heal(st, intent, sheets, rules, rng) -> Outcome:
    """Seed 004 heals nothing mid-combat; only blood revives a vampire in torpor (SPOT-14)."""
    raise IllegalAction(d10_only(intent))


@_handles(intents.Stake)
def _stake(st, intent: intents.Stake, sheets, rules, rng) -> Outcome:
    """SPOT-12: staked at once; ``remove`` pulls the stake."""
    c = _named(st, intent, "+combat/stake <name>")
    return _step((harm.unstake if intent.remove else harm.stake)(st, c.key, rules))


@_handles(intents.Feed)
def _feed(st, intent: intents.Feed, sheets, rules, rng) -> Outcome:
    """SPOT-14: blood slaking ``slaked`` Hunger revives a vampire in torpor."""
    c = _named(st, intent, "+combat/feed <name>=<hunger slaked>")
    hunger = None
    if c.status == "active":
        s = _sheet_or_none(sheets, c.key)
        hunger = v5dice.hunger_of(s, rules) if s is not None and v5dice.uses_v5(rules) else 0
    step = harm.feed(st, c.key, intent.slaked, rules, hunger=hunger)
    return _with_hunger(_step(step), [e for e in step.events if e.get("event") == "feed"],
                        sheets, rules)


# ---------------------------------------------------------------- the clock's intents


@_handles(intents.SetTimeout)
def _set_timeout(st, intent: intents.SetTimeout, sheets, rules, rng) -> Outcome:
    """Issue 5: the fight's idle timeout (0: off); the current wait restarts on it."""
    _live(st)
    secs = intent.seconds
    if isinstance(secs, bool) or not isinstance(secs, int) or secs < 0:
        raise InputError(f"A timeout is a whole number of seconds (0: off), not {secs!r}.")
    new = replace(st, options=replace(st.options, timeout=secs), deadline=None, seq=st.seq + 1)
    return _out(new, [{"event": "timeout_set", "seconds": secs, "by": intent.by}])


def _timeout(st: SpotlightState, key: str | None, what: str, did: str, **extra) -> dict:
    return {"event": "timeout", "actor": key, "what": what, "default": did,
            "deadline": st.deadline, **extra}


@_handles(intents.Expire)
def _expire(st, intent: intents.Expire, sheets, rules, rng) -> Outcome:
    """Issue 5: the deadline passed: the idle default for everyone the fight waited for.
    ``gone`` (deleted characters) leave first, since that may end the turn; then a holder
    of the spotlight ends the turn (``done``), and a Storyteller's pick is passed once
    (``advance``: SPOT-04, or the round's end, SPOT-06). Only the prompts of the deadline
    are defaulted; the caller stamps the next one's. Not due: nothing changes."""
    if not due(st, intent.now):
        return Outcome(st)
    prompted = waited(st)
    cur, events = st, []
    for key, what in prompted:
        if key in intent.gone and cur.get(key) is not None:
            step = roster.remove(cur, key, rules)
            events += [_timeout(st, key, what, REMOVED)]
            events += [{**e, "why": "deleted"} if e.get("event") == "leave" else e
                       for e in step.events]
            cur = step.state
    for key, what in prompted:
        if key in intent.gone or dict(flow.prompts(cur)).get(key) != what:
            continue  # gone, or an earlier default already moved the fight past them
        if what == "act":
            step, ev = turn.done(cur, key, rules), _timeout(st, key, what, PASS)
        else:  # a pick: the Storyteller's, so it names every opponent that could act
            picks = [k for k, w in flow.prompts(cur) if w == what]
            step, ev = passing.advance(cur, rules), _timeout(st, None, what, PASS, who=picks)
        events += [ev, *step.events]
        cur = step.state
    return _out(replace(cur, deadline=None), events)


def _harm_to_sheets(before: SpotlightState, out: Outcome, sheets) -> Outcome:
    """Issue 10: Harm persists on the character like d10 health: whoever's marks changed
    gets their sheet back with the new marks (someone without a sheet keeps them in the
    fight only)."""
    changes, changed = dict(out.sheet_changes), False
    for c in out.state.combatants:
        old = before.get(c.key)
        if old is None or (old.superficial, old.aggravated) == (c.superficial, c.aggravated):
            continue
        s = changes.get(c.key) or _sheet_or_none(sheets, c.key)
        if s is not None:
            changes[c.key], changed = s.with_harm(c.superficial, c.aggravated), True
    return Outcome(out.state, changes, out.events) if changed else out


# ---------------------------------------------------------------- the engine


class SpotlightEngine:
    """The ``combat.core.engine.Engine`` of a spotlight ruleset (``engine: spotlight``)."""

    name = NAME

    def new_combat(self, combat_id: str, rules, options: Mapping[str, Any]) -> Outcome:
        """A fight before round 1. The d10 modes (simple, classic, reroll) mean nothing
        here and are refused, and so is a pace (=ahead, =slots: the spotlight goes from one
        to the next); ``timeout`` (seconds) is the only option taken, and the game's
        ``default_pace`` for d10 fights is not for this one."""
        opts = dict(options or {})
        timeout = opts.pop("timeout", None)
        opts.pop("default_pace", None)
        if any(v not in (None, False, "", (), []) for v in opts.values()):
            raise IllegalAction("A spotlight fight has no modes (=simple, =reroll, =ahead "
                                "are for d10 rulesets): +combat/start spotlight")
        state = roster.new_combat(combat_id, rules)
        if timeout is not None:
            state = replace(state, options=replace(state.options, timeout=int(timeout)))
        start = {"event": "start", "engine": NAME, "ruleset": rules.name,
                 "how": "spotlight engine"}
        return _out(state, [start])

    def apply(self, state: SpotlightState, intent: intents.Intent, sheets: Mapping[str, Any],
              rules, rng: random.Random, *, memo=None) -> Outcome:
        # ``memo`` (combat/core/memo.py): the d10 engine's plans; nothing here is worth keeping.
        handler = _HANDLERS.get(intent.kind)
        if handler is None:
            raise IllegalAction(d10_only(intent))
        out = handler(state, intent, sheets, rules, rng)
        if out.events and out.state.last_roll is state.last_roll is not None:
            # the roll stood until something else happened: no reroll of it any more
            out = Outcome(replace(out.state, last_roll=None), out.sheet_changes, out.events)
        return _harm_to_sheets(state, out, sheets)

    def load(self, data: Mapping) -> SpotlightState:
        return SpotlightState.from_dict(data)

    def prompts(self, state: SpotlightState) -> list[tuple[str, str]]:
        return flow.prompts(state)

    def pending(self, state: SpotlightState) -> list[str]:
        return flow.pending(state)

    # The idle clock, shaped like combat/d10/idle.py so the service treats both engines alike.

    def stamp(self, state: SpotlightState, timeout: int | None, now: float) -> SpotlightState:
        return stamp(state, timeout, now)

    def due(self, state: SpotlightState, now: float) -> bool:
        return due(state, now)

    def remaining(self, state: SpotlightState, now: float) -> float | None:
        return remaining(state, now)

    def timeout(self, state: SpotlightState) -> int | None:
        return state.options.timeout

    def view(self, state: SpotlightState, sheets: Mapping, rules) -> dict:
        """What the status screen and the web page show: the order, who holds the
        spotlight, each fighter's Harm and status, the range between every pair."""
        rows = []
        for c in state.combatants:
            # SPOT-12: a staked vampire is incapacitated at once, whatever its HP.
            status = (("incapacitated, staked" if c.status == "active" else
                       f"{c.status}, staked") if c.staked else c.status)
            if c.revive_round is not None:
                status += f", wakes round {c.revive_round}"
            active = [k for k in c.conditions if k.active(max(state.round, 1))]
            rows.append({"key": c.key, "name": c.name, "npc": not c.is_pc,
                         "init": c.init_total, "turns": c.turns,
                         "actions_per_round": c.actions_per_round, "hp": c.hp,
                         "hp_max": c.hp_max, "superficial": c.superficial,
                         "aggravated": c.aggravated, "status": status,
                         "conditions": [k.name for k in active],
                         # issue 31: a 7-9 on a move whose cost is not yet named
                         **({"cost_owed": c.cost_owed} if c.cost_owed else {}),
                         # issue 31: rounds left, counting this one
                         "timers": {k.name: k.left(max(state.round, 1)) for k in active
                                    if k.until_turn is not None}})
        keys = [c.key for c in state.combatants]
        pairs = [(a, b, ranges.range_between(state, a, b, rules))
                  for i, a in enumerate(keys) for b in keys[i + 1:]]
        return {"engine": self.name, "resolution": mv.resolution(rules),
                "round": state.round, "stage": state.stage,
                "order": flow.order_view(state), "holder": list(state.holder),
                "waiting": self.prompts(state), "rows": rows, "ranges": pairs}

    def default_actor(self, state: SpotlightState, by: str, runs_npcs: bool) -> str | None:
        """Who an act with no name is for: your PC when it has the spotlight; else, for
        whoever runs the opponents, the opponent holding it (SPOT-04/05); else your PC."""
        mine = state.get(by)
        if mine is not None and mine.key in state.holder:
            return mine.key
        if runs_npcs:
            opp = [k for k in state.holder if not state.get(k).is_pc]
            if opp:
                return opp[0]
        return mine.key if mine is not None else None


ENGINE = SpotlightEngine()
