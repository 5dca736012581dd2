"""The d10 engine: ``apply`` dispatches each intent to the part of the rules that owns it.

Every handler works on a ``Fight`` (the state, sheets and events of this one call) and
returns nothing; ``apply`` packs the result into an ``Outcome``. A refusal raises before the
caller keeps anything, so it changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from . import idle
from . import scheduler as sch
from ..core import intents as it
from ..core.events import events_of
from ..core.outcome import Outcome
from .damage import health_pool_of
from .damage_tables import INCAPACITATED
from ..core.errors import IllegalAction, InputError
from ..core.memo import Memo
from .state import CombatState
from ..core.values import replace
from . import acting, change, declare, flags, mending, pacing, staff
from .declare import set_cover
from .fight import OUT_OF_ACTION, Fight


def _join(f: Fight, i: it.Join) -> None:
    """HLT-03..05: the dead and the torpid stay out of fights until staff undo it. HLT-02:
    one whose track is already at Incapacitated (hurt before the fight) joins out of
    action, as if the blow had landed in it: the turn does not wait for the initiative and
    the declarations they cannot make."""
    try:
        sheet = f.sheet(i.actor)
    except IllegalAction:
        sheet = None
    fate = sheet.fate if sheet is not None else ""
    if fate:
        name = i.name or i.actor
        raise IllegalAction(f"{name} is {'dead' if fate == 'dead' else 'in ' + fate} and "
                            f"cannot join a fight. Staff can undo it: +sheet/revive {name}")
    step = sch.join(f.state, i.actor, i.name, f.rules, is_npc=i.is_npc,
                    controller=i.controller)
    if sheet is None or f.outcome_of(i.actor, sheet) != INCAPACITATED:
        f.run(step)
        return
    # Who the turn waits for is told once, after the outcome: not first "your turn to roll
    # initiative" to someone who then cannot.
    f.run(sch.Step(step.state, tuple(e for e in step.events
                                     if getattr(e, "kind", None) != "prompt")))
    f.set_outcome(i.actor, INCAPACITATED)


def _remove(f: Fight, i: it.Remove) -> None:
    c = f.state.find(i.actor)
    if i.why == "deleted":
        f.emit("deleted", actor=i.actor, name=c.name)
    f.run(sch.remove(f.state, i.actor, f.rules))


def _initiative(f: Fight, i: it.RollInitiative) -> None:
    """INIT-01 from the sheet; INIT-02 an NPC's runner may type the rating instead."""
    c = f.state.find(i.actor)
    if i.rating is not None:
        if not c.is_npc:
            raise IllegalAction("Roll your own initiative from your sheet: +combat/init")
        f.run(sch.roll_initiative(f.state, c.key, f.rules, f.rng, rating=i.rating))
        return
    sheet = f.sheet(c.key)
    manual = (("by hand", i.adjust),) if i.adjust else ()  # INIT-03/05: the player's own
    f.run(sch.roll_initiative(f.state, c.key, f.rules, f.rng,
                              rating=sch.initiative_rating(sheet, f.rules), race=sheet.race,
                              wound_penalty=f.track(c.key).penalty, manual=manual))


def _advance(f: Fight, i: it.Advance) -> None:
    if i.actor:
        f.run(sch.skip(f.state, i.actor, f.rules))  # stop waiting for them
    else:
        f.run(sch.advance(f.state, f.rules))


def _act(f: Fight, i: it.Act) -> None:
    """TURN-03: the declared action, in its slot; what to do was said when declaring. Typed
    before the slot in a fight paced ahead, it is kept for the slot."""
    if i.action:
        raise IllegalAction(
            "You act what you declared: +combat/act (an NPC: +combat/act <npc>); "
            f"'{i.action.get('text') or i.action.get('kind')}' is not someone in this fight.")
    if pacing.act_ahead(f, i.actor, pacing.WILLPOWER if i.willpower else pacing.ACT):
        return
    acting.act(f, i.actor, willpower=i.willpower)


def _declare(f: Fight, i: it.Declare) -> None:
    """TURN-01/02 in the actor's slot; before it, in a fight paced ahead (or an NPC's, in
    any fight: its runner declared it early), kept hidden until the slot comes."""
    if pacing.ahead_of_slot(f, i.actor, npc_held=True):
        pacing.declare_ahead(f, i.actor, i.actions, i.activations, i.desperate)
    else:
        declare.declare(f, i.actor, i.actions, i.activations, i.desperate)


def _pass(f: Fight, i: it.Pass) -> None:
    if pacing.ahead_of_slot(f, i.actor):  # declaring nothing, ahead of the slot
        pacing.declare_ahead(f, i.actor, ({"kind": "pass"},), (), False)
    else:
        f.run(sch.skip(f.state, i.actor, f.rules))


def _delay(f: Fight, i: it.Delay) -> None:
    """TURN-04; before the act slot, in a fight paced ahead: held when the slot comes."""
    if not pacing.act_ahead(f, i.actor, pacing.DELAY):
        f.run(sch.delay(f.state, i.actor, f.rules))


def _pace(f: Fight, i: it.SetPace) -> None:
    f.run(sch.set_options(f.state, f.rules, ahead=i.ahead))
    f.emit("pace", ahead=bool(i.ahead), by=i.by)


def _range(f: Fight, i: it.SetRange) -> None:
    """RNG-05: the Storyteller places two combatants ``band`` yards apart."""
    f.state.find(i.other)
    if i.other == i.actor:
        raise InputError("Name two different combatants: +combat/range <a>/<b>=<yards>.")
    raw = str(i.band).strip().lower().removesuffix("yards").removesuffix("yd").strip()
    if not raw.isdecimal():
        raise InputError(f"'{i.band}' is not a distance in yards: +combat/range "
                         f"<a>/<b>=<yards>, e.g. +combat/range Bob/Thug=15.")
    f.set_yards(i.actor, i.other, int(raw))
    f.emit("range", actor=i.actor, other=i.other, yards=int(raw), by=i.by)


def _timeout(f: Fight, i: it.SetTimeout) -> None:
    if isinstance(i.seconds, bool) or not isinstance(i.seconds, int) or i.seconds < 0:
        raise InputError(f"A timeout is a whole number of seconds (0: off), not "
                         f"{i.seconds!r}: +combat/timeout <seconds>.")
    f.run(sch.set_options(f.state, f.rules, timeout=i.seconds))
    f.state = replace(f.state, deadline=None)  # the current wait restarts on the new clock
    f.emit("timeout_set", seconds=i.seconds, by=i.by)


def _expire(f: Fight, i: it.Expire) -> None:
    """The idle clock. A missing initiative is rolled from the sheet (INIT-01; an NPC with
    its rating typed before rolls with it, INIT-02) instead of sitting the turn out."""
    if not idle.due(f.state, i.now):
        return
    deadline = f.state.deadline
    for key, what in sch.prompts(f.state):
        if what != "initiative" or key in i.gone:
            continue
        c = f.state.get(key)
        try:
            sheet = f.sheet(key)
        except IllegalAction:
            continue
        rating = c.rating if c.is_npc and c.rating is not None else sch.initiative_rating(
            sheet, f.rules)
        f.emit("timeout", actor=key, what="initiative", default=idle.ROLLED,
               deadline=deadline)
        f.run(sch.roll_initiative(f.state, key, f.rules, f.rng, rating=rating,
                                  race=sheet.race, wound_penalty=f.track(key).penalty))
    f.state = replace(f.state, deadline=deadline)  # the others still owe what is due
    step = idle.expire(f.state, f.rules, i.now, frozenset(i.gone))
    if step is not None:
        f.run(step)


HANDLERS: dict[type, Callable[[Fight, Any], None]] = {
    it.Join: _join,
    it.Remove: _remove,
    it.RollInitiative: _initiative,
    it.Advance: _advance,
    it.Declare: _declare,
    it.Pass: _pass,
    it.Delay: _delay,
    it.SetPace: _pace,
    it.Abort: lambda f, i: acting.abort(f, i.actor, i.to, i.spend_willpower),
    it.Change: lambda f, i: change.change(f, i.actor, dict(i.to or {}), i.spend_willpower),
    it.Act: _act,
    it.SetCondition: lambda f, i: staff.condition(f, i.actor, i.condition, i.remove, i.turns),
    it.SetCover: lambda f, i: set_cover(f, i.actor, i.level, by=i.by),
    it.StaffDamage: lambda f, i: staff.damage(f, i.actor, i.levels, i.damage_type, i.sources),
    it.SetFlag: lambda f, i: flags.set_flag(f, i.flag, i.remove),
    it.StaffHeal: lambda f, i: staff.heal(f, i.actor, i.levels, i.damage_type, i.revive),
    it.Recover: lambda f, i: mending.recover(f, i.actor, i.damage_type, place=i.place,
                                             chimerical=i.chimerical, rested=i.rested,
                                             levels=i.levels),
    it.SetRange: _range,
    it.SetTimeout: _timeout,
    it.Expire: _expire,
    it.End: lambda f, i: f.run(sch.end(f.state, f.rules)),
}

# What each spotlight-only intent means here, for the player who typed it.
NOT_HERE = {
    it.Move: "move as your declared action: +combat/declare move <yards>",
    it.Free: "a d10 turn has no free action; declare what you do: +combat/declare",
    it.Done: "your turn ends when you have acted: +combat/act, or +combat/pass",
    it.Swap: "equal initiatives act at once; to go later, +combat/delay",
    it.Ambush: "attack from hiding: +combat/declare attack <target> from rear",
    it.Narrate: "describe it in a pose, or set a condition: +combat/mod <name>=<condition>",
    it.Stake: "stake with an attack (as stake) or by hand: +combat/mod <name>=staked",
    it.Feed: "heal by hand: +combat/heal <name>=<levels> <type>",
    it.Reroll: "Willpower is spent as you declare: +combat/declare/wp <action>",
    it.NameCost: "a d10 roll owes no cost; narrate a botch's mishap in a pose",
}

# RNG-05 places pairs in yards; one band for everyone is spotlight's (SPOT-10).
EVERY_RANGE = ("Everyone at one range is for a spotlight fight's bands; here place two at a "
               "time, in yards: +combat/range <a>/<b>=<yards>, e.g. +combat/range Bob/Thug=15.")


class D10Engine:
    name = "d10"

    def new_combat(self, combat_id: str, rules, options: Mapping[str, Any]) -> Outcome:
        """TURN-05 ``mode`` (classic or simple) and INIT-04 ``reroll`` from /start; the pace
        (``ahead``: True, False, or None for the game's ``default_pace``, "ahead" or "slots";
        neither given: slot by slot, as fights were before pacing)."""
        sch.turn_rules(rules)  # refuse a ruleset without a turn before creating anything
        ahead = options.get("ahead")
        if ahead is None:
            ahead = options.get("default_pace") == "ahead"
        state = sch.new_combat(combat_id, rules, mode=options.get("mode"),
                               reroll_initiative=True if options.get("reroll") else None,
                               ahead=bool(ahead))
        how = f"{state.options.mode} mode" + (", choices entered ahead" if
                                               state.options.ahead else "")
        return Outcome(state, {}, events_of([{"event": "start", "engine": self.name,
                                              "how": how, **state.options.to_dict()}]))

    def apply(self, state: CombatState, intent: it.Intent, sheets: Mapping, rules,
              rng: random.Random, *, memo: Memo | None = None) -> Outcome:
        handler = HANDLERS.get(type(intent))
        if handler is None:
            why = NOT_HERE.get(type(intent), "see help +combat")
            raise IllegalAction(f"That is not part of this fight's rules: {why}.")
        if isinstance(intent, it.SetRange) and intent.actor == "*":
            raise IllegalAction(EVERY_RANGE)
        if intent.actor is not None and not isinstance(intent, it.Join):
            state.find(intent.actor)  # someone in this fight, or a clear refusal
        f = Fight(state, sheets, rules, rng, intent.by, Memo() if memo is None else memo)
        handler(f, intent)
        pacing.pump(f)  # a fight paced ahead: reveal and resolve what the turn has reached
        return Outcome(f.state, dict(f.changed), events_of(f.events))

    def load(self, data: Mapping) -> CombatState:
        return CombatState.from_dict(data)

    def prompts(self, state: CombatState) -> list[tuple[str, str]]:
        return [] if state.phase == "ended" else sch.prompts(state)

    def pending(self, state: CombatState) -> list[str]:
        return sch.pending(state)

    # the idle clock (combat/d10/idle.py): a deadline on the state, applied by ``Expire``
    def stamp(self, state: CombatState, timeout: int | None, now: float) -> CombatState:
        return idle.stamp(state, timeout, now)

    def due(self, state: CombatState, now: float) -> bool:
        return idle.due(state, now)

    def remaining(self, state: CombatState, now: float) -> float | None:
        return idle.remaining(state, now)

    def timeout(self, state: CombatState) -> int | None:
        return state.options.timeout

    def view(self, state: CombatState, sheets: Mapping, rules) -> dict:
        """What the status screen and the web page show: each combatant in initiative
        order with health, gear in hand, declarations and conditions."""
        f = Fight(state, sheets, rules, random.Random(0), "")
        rows = []
        for c in sorted(state.combatants, key=lambda x: -(x.init_total or -99)):
            try:
                track = f.track(c.key)
                health = track.level_name
                pool = health_pool_of(rules, f.sheet(c.key))  # DMG-14: Corpus instead
                if pool:
                    health = f"{pool} {f.sheet(c.key).pools[pool].current}"
                # said once: the track's level may be "Incapacitated" already, and a worse
                # outcome (dead, torpor ...) is shown instead
                if (track.incapacitated and "incapacitated" not in health.lower()
                        and (c.outcome not in OUT_OF_ACTION or c.outcome == INCAPACITATED)):
                    health += " (incapacitated)"
                hand = f.in_hand(c.key)
                armor = f.sheet(c.key).armor
            except IllegalAction:
                health, hand, armor = "?", "?", ""
            active = [k for k in c.conditions if k.active(state.turn)]
            conds = [k.name for k in active]
            # issue 31: turns left, counting this one, of those that end by themselves
            timers = {k.name: k.left(state.turn) for k in active if k.until_turn is not None}
            if c.gear.grapple:
                conds.append(f"{c.gear.grapple.kind} with {f.name(c.gear.grapple.other)}")
            if c.gear.cover != "none":  # RNG-03
                conds.append(f"{c.gear.cover} cover")
            rows.append({"key": c.key, "name": c.name, "npc": c.is_npc, "init": c.init_total,
                         "delayed": c.delayed, "health": health, "outcome": c.outcome,
                         "ahead": c.ahead_declare is not None or bool(c.ahead_act),
                         "hand": hand, "armor": armor,
                         "actions": list(c.actions) if c.declared else None,
                         "conditions": conds, "timers": timers})
        return {"engine": self.name, "turn": state.turn, "phase": state.phase,
                "mode": state.options.mode, "reroll": state.options.reroll_initiative,
                "ahead": state.options.ahead,
                "waiting": self.prompts(state), "rows": rows,
                "ranges": [list(r) for r in state.ranges]}

    def default_actor(self, state: CombatState, by: str, runs_npcs: bool) -> str | None:
        """Who a command with no name is for: the one who typed it."""
        return by if state.get(by) is not None else None


ENGINE = D10Engine()

