"""+combat: run a World of Darkness fight in a room (the Evennia side of the engine).

Every switch follows one shape: load the room's combat (``typeclasses.combat``), check who
may do this, compute the new state and sheets with the pure engine (``combat.scheduler``,
``combat.attack``, ``combat.damage``), then ``commit`` everything at once and tell the room
what happened, with every die. A refusal raises before anything is saved, so it changes
nothing.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace

from django.db import transaction

from combat import damage as dmg
from combat import dice
from combat import scheduler as sch
from combat.attack import (
    CONDITIONS,
    Attack,
    Context,
    Defense,
    Side,
    WeaponState,
    disarm_succeeds,
    knockdown_check,
    ready_weapon,
    resolve_attack,
    resolve_escape,
    stake_holds,
)
from combat.errors import IllegalAction, InputError
from combat.maneuvers import COVER, movement_yards, tables
from combat.pools import Modifier
from combat.sheet import Sheet
from typeclasses import combat_guard
from typeclasses.combat import COMBAT_KEY, CombatScript, combat_in
from world import combatlog, rulebook

from .base import WodCommand
from .render import header

DEFENSES = ("dodge", "block", "parry")
# RNG-03: everyman calls cover Concealment (same values); both words are accepted.
COVER_WORDS = ("cover", "concealment")
# MAN-04: "attack Bob moving 3" (an optional "yards"/"yd" after the number).
MOVING = re.compile(r"(?:^|\s)moving(?:\s+(\S+))?(?:\s+(?:yards?|yds?)\b)?", re.IGNORECASE)
# HLT-02..05 outcomes that take a combatant out of the turn (they keep their place in
# +combat and the log; the turn no longer waits for them).
OUT_OF_ACTION = frozenset({dmg.INCAPACITATED, dmg.UNCONSCIOUS, dmg.TORPOR, dmg.DEAD})


def _powers():
    """``combat.powers`` (PWR-01..04 per-turn limits), or None while it is not written."""
    try:
        from combat import powers
    except ImportError:
        return None
    return powers


def check_power_spend(ruleset, sheet, spending, pool: str, amount: int, purpose: str):
    """THE call site for the per-turn power limits (PWR-01 blood per turn by generation,
    PWR-02 Rage and Gnosis not in one turn, PWR-04 chi): returns the new TurnSpending or
    raises IllegalAction. Without ``combat/powers.py`` only the pool itself limits."""
    powers = _powers()
    if powers is None or spending is None:
        return spending
    return powers.check_spend(ruleset, sheet, spending, pool, amount, purpose=purpose)


def tell_room(room, text: str) -> None:
    """Send ``text`` to everyone in ``room`` as it is. Not ``room.msg_contents``: that one
    runs the text through ``str.format_map`` and the $funcparser, so a player's own words in
    it (an NPC name or a condition like ``{`` or ``$you()``) crashed the announcement after
    the command had already been saved, or were rewritten (issue 5, found by fuzzing)."""
    for obj in room.contents:
        obj.msg(text)


def roll_event(actor, purpose, spec, roll) -> dict:
    """The log's ``roll`` event: every input of one roll."""
    return {
        "event": "roll", "actor": actor, "purpose": purpose,
        "traits": [list(t) for t in spec.terms] if spec is not None else [],
        "pool": roll.pool,
        "modifiers": [m.as_dict() for m in spec.modifiers] if spec is not None else [],
        "difficulty": roll.difficulty, "faces": list(roll.faces), "specialty": roll.specialty,
        "willpower": roll.willpower, "successes": roll.successes, "botch": roll.botch,
    }


def roll_line(name, purpose, spec, roll) -> str:
    terms = " + ".join(f"{t} {v}" for t, v in spec.terms) if spec is not None else ""
    mods = "".join(f", {m}" for m in spec.modifiers) if spec is not None else ""
    faces = " ".join(str(f) for f in roll.faces) or "no dice"
    result = ("BOTCH" if roll.botch else
              f"{roll.successes} success{'es' if roll.successes != 1 else ''}")
    return (f"  {name} {purpose}: {terms or 'dice'}{mods} = {roll.pool} vs {roll.difficulty}: "
            f"[{faces}] => {result}")


class CmdCombat(WodCommand):
    """
    Run a fight: initiative, declaring, acting, damage.

    Usage:
      +combat
      +combat/start [<ruleset>][=simple||reroll]
      +combat/join
      +combat/init [<npc>=<rating>]
      +combat/declare [<npc>=]<action>[; <action>...]
      +combat/act [<npc>]
      +combat/next [<name>]

    Switches:
      start     - start a fight here; you organize it (and join it). =simple: each
                  character declares and acts in turn (TURN-05); =reroll: initiative
                  every turn; both: =simple,reroll
      join      - join the fight in this room
      leave     - leave it
      init      - roll your initiative (Dexterity + Wits + 1d10). Organizer/staff:
                  <npc>=<rating> for an NPC
      declare   - declare your action(s) when the game says it is your turn (lowest
                  initiative first). Several actions separated by ; are a split: each
                  loses dice (2 actions: -2 and -3). See ACTIONS below.
      attack    - shorthand: +combat/attack <target>[=<maneuver>]
      dodge, block, parry - shorthand: declare that defense
      defend    - shorthand: a desperate defense all turn (/defend [dodge||block||parry])
      pass      - do nothing now (declare nothing, or give up your action)
      act       - perform your declared action when it is your turn (highest
                  initiative first); an attack is rolled and resolved at once
      delay     - hold your action and act later this turn with /act
      abort     - before acting, switch to <dodge||block||parry>; add /wp to spend
                  a Willpower point instead of rolling Willpower
      celerity  - spend a blood point: next turn one extra action per Celerity dot
      rage      - /rage <n>: spend Rage for n extra actions this turn (before declaring)
      spend     - /spend <pool> <n>: spend Blood, Gnosis, Quintessence ... for a power
      log       - the last <count> entries of the combat log (default 10)
      npc       - organizer/staff: <name>=<template> or <name>=<trait>=<n>,... makes an
                  NPC here and joins it; /templates lists the templates
      templates - the ready NPC templates (also: +combat/npc with nothing after it)
      next      - organizer/staff: move on (start the turn, next phase); with a
                  name, stop waiting for that combatant
      mod       - organizer/staff: <name>=<condition> (prone, blinded, dazed, grappled,
                  staked, immobilized ...); <name>=!<condition> removes it;
                  <name>=cover <none||light||good||superior> sets their cover (RNG-03)
      damage    - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>; past
                  Incapacitated it does what an attack would (torpor, death ...)
      heal      - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>
      kick      - organizer/staff: take <name> out of the fight
      end       - organizer/staff: end the fight
      timeout   - organizer/staff: <seconds> (or 5m; 0 turns it off) the turn waits for
                  someone idle before the game passes for them (or, declaring, gives
                  them a full defense); with nothing after it, shows the setting
      slackers  - who the turn waits for and for how long (also /pending)

    ACTIONS (for /declare; the organizer types <npc>=<action> for an NPC):
      attack <target> [with <weapon>] [as <maneuver>] [at <location>] [from flank||rear]
             [moving <yards>]
             moving: move while attacking, up to half your run, -1 die a yard
             (MAN-04; everyman, v20: no penalty);
             maneuvers: strike, kick, bite, claw, clinch, clinch_strike, hold,
             disarm, sweep, tackle, weapon_strike, shoot, burst, throw ...;
             locations: head, arm, leg, hand, heart, eye ...
      dodge, block, parry [against <attacker>] - rolled when you are attacked
      defend [dodge||block||parry]  - desperate defense: defend against every
             attack this turn (-1 die on the 2nd, -2 on the 3rd ...), nothing else
      aim <target> [with <weapon>]  - +1 die per turn on your next shot at them
      reload [<weapon>]      - reload a gun or crossbow (nock: nock an arrow)
      move <yards>           - move, as the whole action
      cover <level>          - you are in none, light, good or superior cover (RNG-03):
             shots at you +1/+2/+3 difficulty; shooting out of good/superior
             cover +1/+2. Not an action; it stays until you declare another.
      rise                   - stand up after being knocked down
      escape                 - break out of a clinch or hold (Strength + Brawl, resisted)
      ready <weapon>         - pick up a weapon that was knocked away
      celerity               - spend a blood point for extra actions next turn
      extra <action>         - an extra action from Celerity or Rage, e.g. extra attack Bob
      rage <n>               - spend Rage for n extra actions this turn
      spend <pool> <n>       - spend points of a pool (checked against per-turn limits:
             blood by generation, Rage or Gnosis, chi)
      effect <kind> [<item>] - use a power effect: arete, lore ... (one a turn)
      pass, other <text>

    A turn: everyone rolls initiative, the organizer types +combat/next, then
    everyone declares from the lowest initiative to the highest, then acts from
    the highest to the lowest. The game tells you when it is your turn. A
    declared dodge, block or parry is rolled automatically when you are attacked.
    Damage, soak, wounds, knockdowns, grapples, disarms and deaths are worked
    out for you; weapons come from your sheet (+sheet/equip <weapon>, see
    help +sheet). +combat shows the order, declarations, health and conditions.

    Examples:
      +combat/start
      +combat/join
      +combat/init
      +combat/npc Thug=thug
      +combat/npc Rat=str=1,dex=3,brawl=1
      +combat/init Thug=5
      +combat/next
      +combat/declare attack Thug
      +combat/declare attack Thug with knife; dodge
      +combat/declare attack Thug as sweep
      +combat/declare attack Bob with pistol, heavy at head
      +combat/declare Thug=attack Bob
      +combat/declare rage 2; attack Thug; extra attack Thug; extra attack Thug
      +combat/defend
      +combat/act
      +combat/act Thug
      +combat/abort dodge/wp
      +combat/damage Bob=2 lethal
      +combat/declare cover good; attack Thug with pistol
      +combat/declare attack Thug moving 3
      +combat/mod Thug=cover superior

    Under the spotlight ruleset (+combat/start spotlight; seed 004), a fight runs
    differently: PCs act in initiative order, the organizer gives opponents the
    spotlight, and a turn is one move, one action and one free action:
      /act [attack||bite <target> [with <weapon>]||<what>] - your action
      /move <target>=closer||away||<range> - your move (one range step)
      /free [<what>]  - your free action      /done - end your turn
      /next <opponent> - organizer: that opponent takes the spotlight (/next alone
                  moves the fight on)
      /swap <first>=<second> - tied PCs settle who goes first
      /ambush pcs||npcs - organizer: one side is ambushed
      /event <text>  - organizer: something happens between turns
      /range <a>/<b>=<range> - organizer: place two combatants at a range band
      /stake <name>, /unstake <name> - organizer: stake (incapacitates a vampire)
      /feed <name>=<hunger slaked> - blood revives a vampire in torpor
      /damage <name>=<n> superficial||aggravated - organizer: mark Harm
    Declaring, /dodge, /parry, /rage and the like are d10 only there.
    """

    key = "+combat"
    aliases = ["combat"]
    wod_switches = ("start", "join", "leave", "init", "npc", "templates", "next", "declare",
                    "attack", "dodge", "block", "parry", "defend", "pass", "act", "delay",
                    "abort", "celerity", "rage", "spend", "log", "end", "mod", "damage",
                    "heal", "kick", "timeout", "slackers")
    switch_aliases = {"npcs": "templates", "list": "templates", "desperate": "defend",
                      "pending": "slackers"}

    # ================================================================ plumbing

    def func(self):
        # Issue 4: a spotlight combat (its ruleset's YAML says ``engine: spotlight``) is run
        # by commands/combat_spotlight.py; everything in this class is the d10 engine's.
        from .combat_spotlight import spotlight_handler

        handler = spotlight_handler(self)
        return handler.func() if handler is not None else super().func()

    def me(self) -> str:
        return f"#{self.caller.id}"

    def load(self) -> None:
        self.script = combat_in(self.caller.location)
        if self.script is None:
            raise IllegalAction("There is no fight in this room. Start one: +combat/start")
        self.rs = self.script.ruleset()
        self.state = self.before = self.script.get_state()
        self.events: list[dict] = []
        self.sheets: dict[str, tuple[object, Sheet]] = {}
        self.lines: list[str] = []  # extra text for the room (rolls), in order

    def run(self, step: sch.Step) -> None:
        self.state = step.state
        self.events.extend(step.events)

    def can_run(self) -> bool:
        return self.is_staff() or self.script.organizer == self.me()

    def need_runner(self, what: str) -> None:
        if not self.can_run():
            raise IllegalAction(f"Only the organizer or staff can {what}.")

    def obj_of(self, key: str):
        cache = getattr(self, "_objs", None)
        if cache is None:
            loc = self.caller.location
            cache = self._objs = {f"#{o.id}": o for o in (loc.contents if loc else [])}
        if key not in cache:
            from evennia.utils.search import search_object

            hits = search_object(key)
            cache[key] = hits[0] if hits else None
        return cache[key]

    def sheet_of(self, key: str) -> Sheet:
        if key in self.sheets:
            return self.sheets[key][1]
        obj = self.obj_of(key)
        if obj is None or not hasattr(obj, "sheet"):
            raise IllegalAction(f"{self.name(key)} has no sheet here.")
        return obj.sheet.get()

    def put_sheet(self, key: str, sheet: Sheet) -> None:
        self.sheets[key] = (self.obj_of(key), sheet)

    def name(self, key: str) -> str:
        c = self.state.get(key)
        return c.name if c else key

    def combatant(self, name: str):
        """A combatant by name (exact, then unique prefix) or #dbref."""
        name = (name or "").strip()
        if not name:
            raise InputError(self.usage())
        if name.lower() in ("me", "self"):
            name = self.me()
        if name.startswith("#"):
            c = self.state.get(name)
        else:
            low = name.lower()
            c = next((x for x in self.state.combatants if x.name.lower() == low), None)
            if c is None:
                hits = [x for x in self.state.combatants if x.name.lower().startswith(low)]
                c = hits[0] if len(hits) == 1 else None
        if c is None:
            names = ", ".join(x.name for x in self.state.combatants) or "nobody yet"
            raise InputError(f"'{name}' is not in this fight. In it: {names}.")
        return c

    def actor(self, name: str | None):
        """Who the caller acts for: themself, or an NPC they run."""
        if not name or not name.strip():
            c = self.state.get(self.me())
            if c is None:
                raise IllegalAction("You are not in this fight: +combat/join first.")
            return c
        c = self.combatant(name)
        if c.key == self.me():
            return c
        if not c.is_npc:
            raise IllegalAction(f"You can only act for your own character, not {c.name}; "
                                f"the organizer and staff run NPCs.")
        if not self.can_run():
            raise IllegalAction(f"Only the organizer or staff run NPCs such as {c.name}.")
        return c

    def commit(self) -> None:
        records = self.script.commit(self.state, list(self.sheets.values()), self.events,
                                     before=self.before)
        self.announce(records)

    # ================================================================ telling people

    def describe(self, ev: dict) -> str | None:
        kind, n = ev.get("event"), self.name(ev.get("actor", ""))
        if kind == "join":
            return f"{n} joins the fight" + (f" (from turn {ev['from_turn']})"
                                             if ev.get("from_turn", 1) > self.state.turn else "")
        if kind == "leave":  # gone from the state already: the event keeps the name
            return f"{ev.get('name') or n} leaves the fight."
        if kind == "initiative":
            mods = "".join(f" {m['value']:+d} {m['reason']}" for m in ev.get("modifiers", []))
            return (f"{n} rolls initiative: rating {ev['rating']} + "
                    f"[{' '.join(map(str, ev['faces']))}]{mods} = {ev['total']}")
        if kind == "turn":
            return f"Turn {ev['turn']} begins."
        if kind == "phase":
            return f"Turn {ev.get('turn', self.state.turn)}: {ev['phase']} phase."
        if kind == "declare":
            return f"{n} declares: {self.actions_text(ev['actions'])}."
        if kind == "skip":
            return f"{n} passes ({ev['what']})."
        if kind == "delay":
            return f"{n} delays."
        if kind in ("abort", "change"):
            ok = "succeeds" if ev.get("success") else "fails"
            return f"{n} aborts to {ev['to']['kind']}: {ok}."
        if kind == "condition" and ev.get("removed"):
            return f"{n} is no longer {', '.join(ev['removed'])}."
        if kind == "condition":
            return f"{n} is {ev['condition']} (turns {ev['from']}..{ev['until'] or 'on'})."
        if kind == "end":
            return "The fight is over."
        return None

    def actions_text(self, actions) -> str:
        out = []
        for a in actions:
            k = a.get("kind", "?")
            if k == "attack":
                s = f"attack {self.name(a.get('target', '?'))}"
                if a.get("weapon"):
                    s += f" with {a['weapon']}"
                if a.get("maneuver") and a["maneuver"] != "attack":
                    s += f" as {a['maneuver']}"
                if a.get("moving"):
                    s += f" moving {a['moving']} yd"
            elif k == "other":
                s = f"other: {a.get('text', '')}"
            else:
                s = k + (f" against {self.name(a['against'])}" if a.get("against") else "")
            out.append(s)
        return "; ".join(out) or "nothing"

    def announce(self, records) -> None:
        room = self.caller.location
        lines, after = [], []  # a new phase or turn is told after what led to it
        prompts = []
        for rec in records:
            if rec["event"] == "prompt":
                prompts.append(rec)
                continue
            text = rec.get("_text") or self.describe(rec)
            if text:
                # conditions an attack causes (dazed, prone) read best after the attack
                (after if rec["event"] in ("phase", "turn", "condition") else lines).append(text)
        lines += self.lines + after
        if lines and room:
            tell_room(room, "|w[Combat]|n " + "\n".join(lines))
        for p in prompts[-3:]:
            self.prompt(p)

    def prompt(self, p: dict) -> None:
        """Tell each newly pending person it is their turn, and the organizer who is left.
        Someone already waited for before this command is not told again."""
        what, who = p["what"], p["who"]
        organizer = self.obj_of(self.script.organizer) if self.script.organizer else None
        if what == "advance":
            if organizer:
                organizer.msg("|w[Combat]|n Nobody is pending: +combat/next moves on.")
            return
        old = set(sch.prompts(self.before)) if self.before.phase != "ended" else set()
        how = {"initiative": "roll initiative: +combat/init",
               "declare": "declare: +combat/declare <action>",
               "act": "act: +combat/act"}.get(what, what)
        for key in who:
            c = self.state.get(key)
            if c is None or (key, what) in old:
                continue
            if c.is_npc:
                if organizer:
                    sep = {"declare": "=<action>", "initiative": "[=<rating>]"}.get(what, "")
                    verb = "roll initiative" if what == "initiative" else what
                    organizer.msg(f"|w[Combat]|n {c.name}'s turn to {verb}: "
                                  f"+combat/{'init' if what == 'initiative' else what} "
                                  f"{c.name}{sep}")
            else:
                obj = self.obj_of(key)
                if obj:
                    obj.msg(f"|w[Combat]|n Your turn to {how}")
        if organizer and who and {(k, what) for k in who} != old:
            organizer.msg(f"|w[Combat]|n Waiting for ({what}): "
                          + ", ".join(self.name(k) for k in who))

    # ================================================================ show

    def do_default(self):
        if self.args.strip():
            raise InputError(self.usage())
        self.load()
        st, rs = self.state, self.rs
        waiting = dict(sch.prompts(st))
        reroll = ", initiative every turn" if st.options.reroll_initiative else ""
        org = self.obj_of(self.script.organizer) if self.script.organizer else None
        lines = [header(f"Combat: {rs.name}, turn {st.turn}, {st.phase} phase"),
                 f" Mode: {st.options.mode}{reroll}   Organizer: {org.key if org else '-'}"]
        if waiting:
            lines.append(" Now: " + ", ".join(f"{self.name(k)} ({w})" for k, w in waiting.items()))
        health = rs.section("health")
        for c in sorted(st.combatants, key=lambda x: -(x.init_total or -99)):
            init = "--" if c.init_total is None else str(c.init_total)
            decl = self.actions_text(c.actions) if c.declared else "-"
            try:
                track = self.sheet_of(c.key).track(health)
                hl = track.level_name + (" (incapacitated)" if track.incapacitated else "")
            except IllegalAction:
                hl = "?"
            if c.outcome and c.outcome not in (dmg.OK, dmg.INCAPACITATED):
                hl = f"{hl} ({c.outcome.upper()})"
            tags = ("[NPC]" if c.is_npc else "") + (" [delayed]" if c.delayed else "")
            conds = [k.name for k in c.conditions if k.active(st.turn)]
            conds += [f"{g['kind']} with {self.name(g['with'])}"
                      for g in [(c.gear or {}).get("grapple")] if g]
            if (c.gear or {}).get("cover"):  # RNG-03
                conds.append(f"{c.gear['cover']} cover")
            try:
                hand = self.in_hand(c.key)
                sheet = self.sheet_of(c.key)
                gear = (hand or "unarmed") + (f", {sheet.armor}" if sheet.armor else "")
            except IllegalAction:
                gear = "?"
            lines.append(f" {init:>3}  {c.name:<16} {tags:<6} {hl:<14} [{gear}] {decl}"
                         + (f"  ({', '.join(conds)})" if conds else ""))
        self.msg("\n".join(lines))

    # ================================================================ setting up

    def do_start(self):
        room = self.caller.location
        if room is None:
            raise IllegalAction("You need to be somewhere to start a fight.")
        if combat_in(room):
            raise IllegalAction("A fight is already running here: +combat to see it, "
                                "+combat/join to join.")
        combat_guard.refuse_second_combat(self.me(), self.caller.key)  # issue 5
        rs = rulebook.get(self.lhs.strip() or None)
        # The engine's own part (checked before anything is created), then the shared part.
        state, start_event, how = self.new_fight(CombatScript.new_id(room), rs)
        from evennia import create_script

        with transaction.atomic():
            script = create_script(CombatScript, key=COMBAT_KEY, obj=room, persistent=True)
            script.setup(state, rs.name, self.me())
            self.script, self.rs, self.state, self.before = script, rs, state, state
            self.events = [{"event": "start", "organizer": self.me(), **start_event}]
            self.sheets = {}
            self.lines = [f"{self.caller.key} starts a fight ({rs.name}, {how}). "
                          f"+combat/join to take part."]
            self.join_self()
            self.commit()

    def new_fight(self, combat_id: str, rs):
        """A new d10 combat from the /start options: (state, start event fields, label)."""
        opts = {o.strip().lower() for o in (self.rhs or "").split(",") if o.strip()}
        unknown = opts - {"simple", "classic", "reroll"}
        if unknown or ("simple" in opts and "classic" in opts):
            raise InputError(self.usage())
        sch.turn_rules(rs)  # refuse a ruleset without a turn before creating anything
        state = sch.new_combat(combat_id, rs,
                               mode="simple" if "simple" in opts else
                               ("classic" if "classic" in opts else None),
                               reroll_initiative=True if "reroll" in opts else None)
        return state, state.options.to_dict(), f"{state.options.mode} mode"

    def join_self(self) -> None:
        self.run(sch.join(self.state, self.me(), self.caller.key, self.rs))

    def do_join(self):
        self.load()
        combat_guard.refuse_second_combat(self.me(), self.caller.key, here=self.script)
        self.join_self()
        self.commit()

    def do_leave(self):
        self.load()
        self.actor(None)
        self.run(sch.remove(self.state, self.me(), self.rs))
        self.commit()

    def do_kick(self):
        self.load()
        self.need_runner("take someone out of the fight")
        c = self.combatant(self.args)
        self.run(sch.remove(self.state, c.key, self.rs))
        self.commit()

    def do_templates(self):
        from world.prototypes import NPC_TEMPLATES

        lines = [header("NPC templates: +combat/npc <name>=<template>")]
        for key, row in NPC_TEMPLATES.items():
            sheet = Sheet.from_dict(row["sheet"])
            gear = ", ".join(sheet.weapons) + (f"; {sheet.armor}" if sheet.armor else "")
            lines.append(f" {key:<10} {row['desc']}" + (f" [{gear}]" if gear else ""))
        lines.append(" Or a trait list: +combat/npc Rat=str=1,dex=3,brawl=1")
        self.msg("\n".join(lines))

    def template_sheet(self, text: str) -> Sheet | None:
        from world.prototypes import NPC_TEMPLATE_ALIASES, NPC_TEMPLATES

        key = " ".join(text.lower().split())
        key = NPC_TEMPLATE_ALIASES.get(key, key)
        row = NPC_TEMPLATES.get(key)
        if row is None:
            hits = [k for k in NPC_TEMPLATES if k.startswith(key)] if key else []
            if len(hits) != 1:
                import difflib

                guess = difflib.get_close_matches(key, list(NPC_TEMPLATES), n=1)
                tip = f" Did you mean {guess[0]}?" if guess else ""
                raise InputError(f"'{text.strip()}' is not an NPC template.{tip} Templates: "
                                 f"{', '.join(NPC_TEMPLATES)} (+combat/templates), or give "
                                 f"traits: <name>=str=3,dex=2,...")
            row = NPC_TEMPLATES[hits[0]]
        return Sheet.from_dict(row["sheet"]).with_pools_for(self.rs.traits)

    def do_npc(self):
        if not self.args.strip():
            return self.do_templates()
        self.load()
        self.need_runner("create NPCs")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage() + "  e.g. +combat/npc Thug=thug or "
                             "+combat/npc Thug=str=3,dex=3,brawl=2")
        name = self.lhs.strip()
        if any(c.name.lower() == name.lower() for c in self.state.combatants):
            raise IllegalAction(f"Someone called {name} is already in this fight.")
        cat = self.rs.traits
        raw = self.args.split("=", 1)[1]
        if "=" not in raw:
            sheet = self.template_sheet(raw)
        else:
            sheet = Sheet().with_pools_for(cat)
            for part in raw.split(","):
                trait, eq, value = part.partition("=")
                if not eq or not trait.strip():
                    raise InputError(f"'{part.strip()}' is not <trait>=<value>. " + self.usage())
                sheet, _ = sheet.set(cat, trait, value)
        from evennia import create_object

        with transaction.atomic():
            npc = create_object("typeclasses.characters.NPC", key=name,
                                location=self.caller.location)
            npc.sheet.save(sheet)
            key = f"#{npc.id}"
            self._objs = None
            self.run(sch.join(self.state, key, name, self.rs, is_npc=True,
                              controller=self.script.organizer))
            self.commit()

    def do_end(self):
        self.load()
        self.need_runner("end the fight")
        self.run(sch.end(self.state, self.rs))
        self.commit()
        self.script.delete()

    # ================================================================ initiative and turn

    def do_init(self):
        self.load()
        if self.rhs is not None:
            c = self.actor(self.lhs)
            if c.key == self.me() or not c.is_npc:
                raise IllegalAction("Roll your own initiative from your sheet: +combat/init")
            try:
                rating = int(self.rhs.strip())
            except ValueError:
                raise InputError(self.usage()) from None
            self.run(sch.roll_initiative(self.state, c.key, self.rs, self.rng, rating=rating))
        else:
            c = self.actor(self.args)
            sheet = self.sheet_of(c.key)
            track = sheet.track(self.rs.section("health"))
            self.run(sch.roll_initiative(
                self.state, c.key, self.rs, self.rng,
                rating=sch.initiative_rating(sheet, self.rs), race=sheet.race,
                wound_penalty=track.penalty))
        self.commit()

    def do_next(self):
        self.load()
        self.need_runner("move the fight on")
        if self.args.strip():
            c = self.combatant(self.args)
            self.run(sch.skip(self.state, c.key, self.rs))
        else:
            self.run(sch.advance(self.state, self.rs))
        self.commit()

    # ================================================================ declaring

    def _split_words(self, rest: str, word: str) -> tuple[str, str | None]:
        """``rest`` cut at the last `` <word> ``: (before, after) or (rest, None)."""
        low = f" {rest.lower()} "
        key = f" {word} "
        if key not in low:
            return rest, None
        idx = low.rindex(key)
        before, after = rest[:max(0, idx - 1)], rest[idx + len(key) - 1:]
        return before.strip(), after.strip()

    def parse_moving(self, rest: str, actor_key: str) -> tuple[str, int]:
        """MAN-04: ``moving <yards>`` anywhere in an attack, checked against half the run
        distance now, so a refused declaration changes nothing."""
        m = MOVING.search(rest)
        if m is None:
            return rest, 0
        raw = m.group(1) or ""
        if not raw.isdecimal() or int(raw) < 1:
            raise InputError("Move while attacking as: attack <target> moving <yards>, "
                             "e.g. attack Bob moving 3.")
        yards = int(raw)
        wa = tables(self.rs).movement.get("while_acting") or {}
        run = movement_yards(self.rs, self.sheet_of(actor_key), "run")
        limit = run * wa.get("max_percent_of_run", 50) // 100
        if yards > limit:
            raise IllegalAction(f"{self.name(actor_key)} can move at most {limit} yards while "
                                f"attacking (half a run of {run}, MAN-04); to go {yards} "
                                f"yards, declare move {yards} as its own action.")
        return (rest[:m.start()] + " " + rest[m.end():]).strip(), yards

    def parse_attack(self, rest: str, actor_key: str) -> dict:
        rest, moving = self.parse_moving(rest, actor_key)
        rest, position = self._split_words(rest, "from")
        rest, location = self._split_words(rest, "at")
        rest, maneuver = self._split_words(rest, "as")
        rest, weapon = self._split_words(rest, "with")
        target = self.combatant(rest)
        if target.key == actor_key:
            raise IllegalAction("You cannot attack yourself.")
        if target.outcome == dmg.DEAD:
            raise IllegalAction(f"{target.name} is dead already.")
        t = tables(self.rs)
        action = {"kind": "attack", "target": target.key}
        if weapon:
            action["weapon"] = t.weapon(weapon).name
            self.check_carried(actor_key, action["weapon"])
        if maneuver:
            action["maneuver"] = t.maneuver(maneuver).name
        if location:
            action["location"] = t.location(location).name
        if position is not None:
            pos = position.lower()
            if pos not in ("flank", "rear", "behind", "front"):
                raise InputError("Attack from flank or rear (MAN-02), e.g. attack Bob from rear.")
            action["position"] = "rear" if pos == "behind" else pos
        if moving:
            action["moving"] = moving
        return action

    def check_carried(self, key: str, weapon: str) -> None:
        sheet = self.sheet_of(key)
        if weapon.lower() not in [w.lower() for w in sheet.weapons]:
            have = ", ".join(sheet.weapons) or "none"
            raise IllegalAction(f"{self.name(key)} carries no {weapon} (weapons: {have}). "
                                f"Equip it first: +sheet/equip {weapon}")
        if weapon.lower() in [w.lower() for w in self.gear(key).get("dropped", ())]:
            raise IllegalAction(f"{self.name(key)}'s {weapon} was knocked away; pick it up "
                                f"first: +combat/declare ready {weapon}")

    def default_weapon(self, key: str, kinds=("firearm", "crossbow", "bow")) -> str:
        """The first carried, not dropped weapon of these kinds (reload, aim)."""
        t = tables(self.rs)
        dropped = {w.lower() for w in self.gear(key).get("dropped", ())}
        for name in self.sheet_of(key).weapons:
            try:
                w = t.weapon(name)
            except InputError:
                continue
            if w.kind in kinds and name.lower() not in dropped:
                return w.name
        raise IllegalAction(f"{self.name(key)} carries no {'/'.join(kinds)} weapon for that.")

    def parse_action(self, text: str, actor_key: str) -> dict:
        """One declared action as the plain dict the scheduler stores, or an activation
        (``{"activate": ...}``: Celerity, Rage, spending) done before declaring."""
        words = text.strip().split()
        if not words:
            raise InputError(self.usage())
        kind = words[0].lower()
        rest = " ".join(words[1:])
        if kind in ("extra", "celerity", "rage") and len(words) > 1 and not (
                kind == "rage" and rest.isdecimal()):
            # MAN-06: an extra action from Celerity or Rage, outside the split penalty.
            inner = self.parse_action(rest, actor_key)
            if inner.get("activate") or inner["kind"] == "pass":
                raise InputError("'extra' goes before an action: extra attack Bob.")
            inner["extra"] = kind  # "extra": the source is picked after activations
            return inner
        if kind == "celerity":
            return {"activate": "celerity"}
        if kind == "rage":
            if not rest.isdecimal() or int(rest) < 1:
                raise InputError("Spend Rage as: rage <points>, e.g. rage 2.")
            return {"activate": "rage", "amount": int(rest)}
        if kind == "spend":
            if len(words) != 3 or not words[2].isdecimal() or int(words[2]) < 1:
                raise InputError("Spend as: spend <pool> <points>, e.g. spend blood 2.")
            return {"activate": "spend", "pool": words[1], "amount": int(words[2])}
        if kind == "effect":  # PWR-03 one Arete effect, PWR-04 one Lore evocation a turn
            if not words[1:]:
                raise InputError("Use a power as: effect <kind> [<item>], e.g. effect arete.")
            return {"activate": "effect", "what": words[1].lower(),
                    "item": " ".join(words[2:])}
        if kind == "attack":
            return self.parse_attack(rest, actor_key)
        if kind in COVER_WORDS:  # RNG-03: where you stand, not an action
            return {"activate": "cover", "level": self.cover_level(rest)}
        if kind in DEFENSES:
            action = {"kind": kind}
            if len(words) >= 3 and words[1].lower() == "against":  # TURN-09
                action["against"] = self.combatant(" ".join(words[2:])).key
            elif len(words) > 1:
                raise InputError(f"'{text.strip()}': {kind} [against <attacker>]")
            return action
        if kind in ("defend", "desperate"):  # DEF-04
            how = rest.lower() or "dodge"
            if how not in DEFENSES:
                raise InputError("Desperate defense: defend [dodge|block|parry].")
            return {"kind": how, "desperate": True}
        if kind == "aim":  # RNG-01
            target, weapon = self._split_words(rest, "with")
            t = self.combatant(target)
            name = tables(self.rs).weapon(weapon).name if weapon else self.default_weapon(
                actor_key)
            self.check_carried(actor_key, name)
            return {"kind": "aim", "target": t.key, "weapon": name}
        if kind in ("reload", "nock"):  # RNG-06, ATK-07/08
            name = tables(self.rs).weapon(rest).name if rest else self.default_weapon(
                actor_key, ("firearm", "crossbow") if kind == "reload" else ("bow",))
            self.check_carried(actor_key, name)
            return {"kind": kind, "weapon": name}
        if kind == "move":  # MAN-03
            if not rest.isdecimal() or int(rest) < 1:
                raise InputError("Move as: move <yards>, e.g. move 10.")
            yards = int(rest)
            most = movement_yards(self.rs, self.sheet_of(actor_key), "run")
            if yards > most:
                raise IllegalAction(f"{self.name(actor_key)} runs at most {most} yards a turn "
                                    f"(MAN-03).")
            return {"kind": "move", "yards": yards}
        if kind in ("rise", "escape"):
            if rest:
                raise InputError(f"'{kind}' takes nothing after it.")
            return {"kind": kind}
        if kind == "ready":
            if not rest:
                raise InputError("Ready which weapon? ready <weapon>")
            name = tables(self.rs).weapon(rest).name
            if name.lower() not in [w.lower() for w in self.gear(actor_key).get("dropped", ())]:
                raise IllegalAction(f"{name} was not knocked away; nothing to pick up.")
            return {"kind": "ready", "weapon": name}
        if kind == "other":
            if len(words) < 2:
                raise InputError("Say what: other <text>.")
            return {"kind": "other", "text": rest}
        if kind == "pass":
            return {"kind": "pass"}
        raise InputError(f"'{words[0]}' is not an action: attack <target>, dodge, block, parry, "
                         f"defend, aim, reload, move, rise, escape, celerity, rage <n>, "
                         f"spend <pool> <n>, pass or other <text>. See help +combat.")

    def extra_source(self, key: str) -> str:
        """Which granted source an ``extra <action>`` uses: Celerity, then Rage."""
        granted = self.state.get(key).extras
        for src in ("celerity", "rage"):
            if granted.get(src):
                return src
        raise IllegalAction(f"{self.name(key)} has no extra actions this turn: Celerity "
                            f"(activated the turn before) or rage <n> first (MAN-07/08).")

    def declare(self, who: str | None, text: str) -> None:
        self.load()
        c = self.actor(who)
        parts = [p for p in text.split(";")]
        if not text.strip() or any(not p.strip() for p in parts):
            raise InputError(self.usage())
        parsed = [self.parse_action(p, c.key) for p in parts]
        activations = [a for a in parsed if a.get("activate")]
        for a in activations:  # spent before declaring (TURN-02, MAN-07/08)
            self.activate(c, a)
        # The extra sources are known now that Rage was spent.
        actions = [a for a in parsed if not a.get("activate")]
        for a in actions:
            if a.get("extra") and a["extra"] not in ("celerity", "rage"):
                a["extra"] = self.extra_source(c.key)
        if not actions:
            self.commit()
            return
        desperate = any(a.pop("desperate", False) for a in actions)
        if any(a["kind"] == "pass" for a in actions):
            if len(actions) > 1:
                raise InputError("'pass' is a whole turn of nothing; declare it alone.")
            self.run(sch.skip(self.state, c.key, self.rs))
        else:
            early = False
            st = self.state
            if c.is_npc and st.options.mode == "simple" and dict(sch.prompts(st)).get(
                    c.key) != "declare" and not c.delayed:
                early = True  # TURN-05: the runner declares NPCs at the start of the turn
            self.run(sch.declare(self.state, c.key, actions, self.rs, desperate=desperate,
                                 early=early))
        self.commit()

    def do_declare(self):
        if self.rhs is not None:
            self.declare(self.lhs, self.rhs)
        else:
            self.declare(None, self.args)

    def do_attack(self):
        if not self.args.strip():
            raise InputError(self.usage())
        text = f"attack {self.lhs.strip()}"
        if self.rhs is not None:
            if not self.rhs.strip():
                raise InputError(self.usage())
            text += f" as {self.rhs.strip()}"
        self.declare(None, text)

    def _shorthand(self, word: str) -> None:
        who, rest = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        if rest.strip() and word != "defend":
            raise InputError(self.usage())
        self.declare(who, f"{word} {rest.strip()}".strip())

    def do_dodge(self):
        self._shorthand("dodge")

    def do_block(self):
        self._shorthand("block")

    def do_parry(self):
        self._shorthand("parry")

    def do_defend(self):
        self._shorthand("defend")

    def do_celerity(self):
        who = self.args.strip() or None
        self.declare(who, "celerity")

    def do_rage(self):
        who, n = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        self.declare(who, f"rage {n.strip()}")

    def do_spend(self):
        who, what = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        self.declare(who, f"spend {what.strip()}")

    def do_pass(self):
        self.load()
        c = self.actor(self.args)
        self.run(sch.skip(self.state, c.key, self.rs))
        self.commit()

    # ================================================================ powers and pools

    def spending_of(self, c):
        """This turn's TurnSpending for ``c`` (PWR-01..04), from the combat state."""
        powers = _powers()
        if powers is None:
            return None
        sp = c.spending or {}
        old = powers.TurnSpending.from_dict(sp.get("value") or {})
        # A new turn resets the tally; blood banked toward a power stays (PWR-01).
        return old if sp.get("turn") == self.state.turn else powers.new_turn(old)

    def keep_spending(self, key: str, spending) -> None:
        if spending is None:
            return
        c = self.state.get(key)
        self.state = self.state.with_combatants({key: replace(
            c, spending={"turn": self.state.turn, "value": spending.to_dict()})})

    def pay(self, c, pool: str, amount: int, purpose: str) -> None:
        """Take ``amount`` of ``pool`` from ``c``'s sheet after the per-turn power limits
        (``check_power_spend``); logged as a ``spend`` event."""
        sheet = self.sheet_of(c.key)
        canon = self.rs.traits.resolve(pool) if pool else pool
        if canon not in sheet.pools:
            have = ", ".join(sheet.pools) or "none"
            raise IllegalAction(f"{c.name} has no {pool} to spend (pools: {have}).")
        spending = check_power_spend(self.rs, sheet, self.spending_of(self.state.get(c.key)),
                                     canon, amount, purpose)
        try:
            new = sheet.spend(canon, amount)
        except InputError as err:
            raise IllegalAction(f"{c.name}: {err}") from None
        self.put_sheet(c.key, new)
        self.keep_spending(c.key, spending)
        left = new.pools[canon].current
        self.events.append({"event": "spend", "actor": c.key, "pool": canon, "amount": amount,
                            "purpose": purpose, "left": left})
        self.lines.append(f"{c.name} spends {amount} {canon} ({purpose}); {left} left.")

    def activate(self, c, a: dict) -> None:
        what = a["activate"]
        sheet = self.sheet_of(c.key)
        if what == "celerity":  # MAN-07
            dots = sheet.rating(self.rs.traits, "Celerity")
            if dots < 1:
                raise IllegalAction(f"{c.name} has no Celerity.")
            step = sch.activate_celerity(self.state, c.key, dots, self.rs)
            spend = next(e["spend"] for e in step.events if e.get("event") == "extra_actions")
            self.run(step)
            self.pay(c, spend["pool"], spend["amount"], "celerity")
            self.lines.append(f"{c.name} activates Celerity {dots}: {dots} extra physical "
                              f"action(s) next turn.")
        elif what == "rage":  # MAN-08
            cat = self.rs.traits
            rage = sheet.pools.get("Rage")
            if rage is None:
                raise IllegalAction(f"{c.name} has no Rage to spend.")
            step = sch.spend_rage(self.state, c.key, a["amount"], self.rs,
                                  rage=rage.permanent, dex=sheet.rating(cat, "Dexterity"),
                                  wits=sheet.rating(cat, "Wits"))
            spend = next(e["spend"] for e in step.events if e.get("event") == "extra_actions")
            self.run(step)
            self.pay(c, spend["pool"], spend["amount"], "extra actions")
            self.lines.append(f"{c.name} spends Rage: {a['amount']} extra action(s) this turn.")
        elif what == "cover":
            self.set_cover(c.key, a["level"])
        elif what == "effect":
            powers = _powers()
            if powers is None:
                raise IllegalAction("Power effects are not tracked in this game yet.")
            spending = powers.check_effect(self.rs, sheet, self.spending_of(
                self.state.get(c.key)), a["what"], item=a["item"])
            self.keep_spending(c.key, spending)
            self.events.append({"event": "effect", "actor": c.key, "kind": a["what"],
                                "item": a["item"]})
            self.lines.append(f"{c.name} uses a {a['what']} effect"
                              + (f" ({a['item']})" if a["item"] else "") + ".")
        else:
            self.pay(c, a["pool"], a["amount"], "power")

    # ================================================================ acting

    def do_delay(self):
        self.load()
        c = self.actor(self.args)
        self.run(sch.delay(self.state, c.key, self.rs))
        self.commit()

    def do_abort(self):
        self.load()
        who, text = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        kind, _, flag = text.strip().lower().partition("/")
        if kind not in DEFENSES or flag not in ("", "wp"):
            raise InputError(self.usage() + "  e.g. +combat/abort dodge or dodge/wp")
        c = self.actor(who)
        sheet = self.sheet_of(c.key)
        wp = sheet.pools.get("Willpower")
        spend = flag == "wp"
        if spend:
            if wp is None or wp.current < 1:
                raise IllegalAction(f"{c.name} has no Willpower point to spend.")
            self.put_sheet(c.key, sheet.spend("Willpower", 1))
        rating = wp.permanent if wp else 0
        if not spend and rating < 1:
            raise IllegalAction(f"{c.name} has no Willpower to roll.")
        step = sch.abort(self.state, c.key, {"kind": kind}, self.rs, self.rng,
                         willpower=rating, spend_willpower=spend)
        self.run(step)
        for ev in step.events:
            if ev.get("event") == "abort" and ev.get("roll"):
                r = ev["roll"]
                self.events.append({"event": "roll", "actor": c.key, "purpose": "abort",
                                    "traits": [["Willpower", rating]], "pool": r["pool"],
                                    "modifiers": [], "difficulty": r["difficulty"],
                                    "faces": r["faces"], "specialty": False,
                                    "willpower": False, "successes": r["successes"],
                                    "botch": r["botch"]})
                self.lines.append(f"  {c.name} Willpower {rating} vs {r['difficulty']}: "
                                  f"[{' '.join(map(str, r['faces']))}] => {r['successes']}")
        self.commit()

    def do_act(self):
        self.load()
        c = self.actor(self.args)
        # Validate on the current state first; the action's own changes (the defense spent,
        # a knockdown) belong to this moment of the turn, before ``act`` moves the turn on.
        probe = sch.act(self.state, c.key, self.rs)
        ev = next(e for e in probe.events if e.get("event") == "act")
        action = ev["action"]
        kind = action["kind"]
        if kind == "attack":
            self.resolve_attack(c, action, ev)
        elif kind == "other":
            self.lines.append(f"{c.name} acts: {action.get('text', '')}")
        elif kind in ("reload", "nock"):
            self.ready(c, action)
        elif kind == "aim":
            self.aim(c, action)
        elif kind == "move":
            self.lines.append(f"{c.name} moves {action['yards']} yards.")
        elif kind == "rise":
            self.lines.append(f"{c.name} gets up (COMP-04).")
        elif kind == "escape":
            self.escape(c)
        elif kind == "ready":
            g = self.gear(c.key)
            g["dropped"] = [w for w in g.get("dropped", ()) if w.lower() != action[
                "weapon"].lower()]
            self.set_gear(c.key, g)
            self.lines.append(f"{c.name} picks up the {action['weapon']}.")
        else:
            self.lines.append(f"{c.name} performs {kind}.")
        self.finish_act(c)
        self.commit()

    def finish_act(self, c) -> None:
        """Mark the action done. An attacker put out of action by their own attack (a parry
        counter, jagged skin) still used it; the turn then goes on without them."""
        cur = self.state.get(c.key)
        if cur is None:
            return
        if cur.lost:
            step = sch.act(self.state.with_combatants({c.key: replace(cur, lost=False)}),
                           c.key, self.rs)
            st = step.state
            if st.turn == self.state.turn:
                st = st.with_combatants({c.key: replace(st.get(c.key), lost=True)})
            self.state = st
            self.events.extend(step.events)
        else:
            self.run(sch.act(self.state, c.key, self.rs))

    # ---------------------------------------------------------------- per-combatant gear

    def gear(self, key: str) -> dict:
        c = self.state.get(key)
        return copy.deepcopy(c.gear) if c is not None and c.gear else {}

    def set_gear(self, key: str, gear: dict) -> None:
        c = self.state.get(key)
        self.state = self.state.with_combatants({key: replace(c, gear={
            k: v for k, v in gear.items() if v not in (None, [], {})} or None)})

    def weapon_state(self, key: str, weapon: str | None) -> WeaponState | None:
        if not weapon:
            return None
        d = self.gear(key).get("weapons", {}).get(weapon)
        return WeaponState(**d) if d else None

    def keep_weapon_state(self, key: str, ws: WeaponState | None) -> None:
        if ws is None:
            return
        g = self.gear(key)
        g.setdefault("weapons", {})[ws.weapon] = ws.as_dict()
        self.set_gear(key, g)

    def in_hand(self, key: str) -> str | None:
        """The weapon ``key`` holds: the first carried one not knocked away (CLOSE-04)."""
        dropped = {w.lower() for w in self.gear(key).get("dropped", ())}
        for w in self.sheet_of(key).weapons:
            if w.lower() not in dropped:
                return w
        return None

    def side(self, key: str, weapon: str | None = None, moved: int = 0) -> Side:
        c = self.state.get(key)
        conds = frozenset(sch.active_conditions(c, self.state.turn)) & CONDITIONS
        return Side(conditions=conds, weapon=weapon or self.in_hand(key),
                    cover=(c.gear or {}).get("cover") or "none", moved_yards=moved)

    def cover_level(self, text: str) -> str:
        """RNG-03: one of the cover levels (a unique prefix is enough)."""
        word = text.strip().lower()
        hits = [k for k in COVER if k.startswith(word)] if word else []
        if len(hits) != 1:
            raise InputError(f"Cover is one of: {', '.join(COVER)}, e.g. cover good.")
        return hits[0]

    def set_cover(self, key: str, level: str, by: str | None = None) -> None:
        """RNG-03: keep the cover on the combatant (until changed); the attack engine reads
        it for shots at them (+to be hit) and from them (+to hit out)."""
        g = self.gear(key)
        if level == "none":
            g.pop("cover", None)
        else:
            g["cover"] = level
        self.set_gear(key, g)
        ev = {"event": "cover", "actor": key, "cover": level}
        if by:
            ev["by"] = by
        self.events.append(ev)
        row = (tables(self.rs).ranged.get("cover") or {}).get(level) or {}
        hit, out = row.get("to_be_hit", 0), row.get("to_hit", 0)
        if level == "none":
            self.lines.append(f"{self.name(key)} is out of cover.")
        else:
            self.lines.append(f"{self.name(key)} is in {level} cover (RNG-03): shots at them "
                              f"+{hit} difficulty" + (f", shooting out +{out}" if out else "")
                              + ".")

    def ready(self, c, action: dict) -> None:
        """RNG-06 reload, ATK-07 nock, ATK-08 crossbow reload: one action each."""
        name = action["weapon"]
        res = ready_weapon(self.rs, self.sheet_of(c.key), name, self.weapon_state(c.key, name),
                           action["kind"], rng=self.rng)
        self.keep_weapon_state(c.key, res.state)
        ammo = f"; {res.state.ammo} round(s) ready" if res.state.ammo is not None else ""
        self.events.append({"event": "weapon", "actor": c.key, "action": action["kind"],
                            "weapon": name, "state": res.state.as_dict(), "note": res.note})
        self.lines.append(f"{c.name} {action['kind']}s the {name}{ammo}"
                          + (f" ({res.note})" if res.note else "") + ".")

    def aim(self, c, action: dict) -> None:
        """RNG-01: each turn of aiming adds a die to the next shot at that target (the
        attack layer caps it at Perception and checks the weapon and the target's speed)."""
        g = self.gear(c.key)
        old = g.get("aim") or {}
        same = old.get("target") == action["target"] and old.get("weapon") == action["weapon"]
        turns = (old.get("turns", 0) if same else 0) + 1
        g["aim"] = {"target": action["target"], "weapon": action["weapon"], "turns": turns}
        self.set_gear(c.key, g)
        self.lines.append(f"{c.name} aims the {action['weapon']} at "
                          f"{self.name(action['target'])} ({turns} turn(s)).")

    def escape(self, c) -> None:
        """CLOSE-03 / CLOSE-05: resisted Strength + Brawl against the holder."""
        grip = self.gear(c.key).get("grapple")
        if not grip or self.state.get(grip["with"]) is None:
            self.lines.append(f"{c.name} is not held by anyone.")
            self.release(c.key, None)
            return
        other = grip["with"]
        res = resolve_escape(self.rs, self.sheet_of(c.key), self.sheet_of(other), rng=self.rng)
        self.events.append(roll_event(c.key, "escape", res.escaper_pool, res.escaper_roll))
        self.events.append(roll_event(other, "hold on", res.holder_pool, res.holder_roll))
        self.lines.append(roll_line(c.name, "escape", res.escaper_pool, res.escaper_roll))
        self.lines.append(roll_line(self.name(other), "hold on", res.holder_pool,
                                    res.holder_roll))
        if res.escaped:
            self.release(c.key, other)
            self.lines.append(f"  {c.name} breaks free.")
        else:
            self.lines.append(f"  {c.name} is still held.")

    def condition(self, key: str, name: str, *, turns: int | None = None) -> None:
        self.run(sch.add_condition(self.state, key, name, self.rs, turns=turns))

    def uncondition(self, key: str, name: str) -> None:
        c = self.state.get(key)
        if c is not None and any(k.name == name for k in c.conditions):
            self.run(sch.remove_condition(self.state, key, name, self.rs))

    def grapple(self, a_key: str, t_key: str, how: str) -> None:
        """CLOSE-03 clinch / CLOSE-05 hold: both are locked together until one escapes."""
        for me, other in ((a_key, t_key), (t_key, a_key)):
            g = self.gear(me)
            g["grapple"] = {"with": other, "kind": how}
            self.set_gear(me, g)
            self.condition(me, "grappled")
        self.lines.append(f"  {self.name(a_key)} and {self.name(t_key)} are locked in a "
                          f"{how} (CLOSE-0{'3' if how == 'clinch' else '5'}).")

    def release(self, key: str, other: str | None) -> None:
        for k in (key, other):
            if k is None or self.state.get(k) is None:
                continue
            g = self.gear(k)
            g.pop("grapple", None)
            self.set_gear(k, g)
            self.uncondition(k, "grappled")

    # ---------------------------------------------------------------- attacks

    def outcome_of(self, key: str, sheet: Sheet) -> str:
        """The target's state for damage.py (HLT-02..05): the kept outcome, else the track."""
        c = self.state.get(key)
        if c is not None and c.outcome and c.outcome != dmg.OK:
            return c.outcome
        track = sheet.track(self.rs.section("health"))
        return dmg.INCAPACITATED if track.incapacitated else dmg.OK

    def set_outcome(self, key: str, outcome: str) -> None:
        """Keep the outcome on the combatant; out of action (incapacitated, unconscious,
        torpor, dead) means the turn no longer waits for them, and the room is told."""
        c = self.state.get(key)
        if c is None or outcome in ("", "none") or outcome == c.outcome:
            return
        self.state = self.state.with_combatants({key: replace(c, outcome=outcome)})
        self.events.append({"event": "outcome", "actor": key, "outcome": outcome,
                            "before": c.outcome or dmg.OK})
        if outcome in OUT_OF_ACTION and not any(k.name == "incapacitated"
                                                for k in c.conditions):
            self.condition(key, "incapacitated")
        if grip := self.gear(key).get("grapple"):
            if outcome in OUT_OF_ACTION:
                self.release(key, grip["with"])
        text = {dmg.DEAD: "is DEAD", dmg.TORPOR: "falls into TORPOR",
                dmg.UNCONSCIOUS: "is knocked UNCONSCIOUS",
                dmg.INCAPACITATED: "is INCAPACITATED",
                dmg.REVERTED: "reverts to breed form; any more damage kills",
                dmg.RAGE_ACTIVE: "stays up on Rage; any more damage kills",
                dmg.DYING: "is DYING unless healed with Rage now"}.get(outcome, outcome)
        self.lines.append(f"  {c.name} {text}.")

    def apply_levels(self, key: str, levels: int, kind: str, source: str, *,
                     soakable: bool, why: str) -> None:
        """Fixed levels of damage (a knockdown botch, Rokea jagged skin): soaked with a
        reflex roll when soakable, then marked; logged like any damage."""
        sheet = self.sheet_of(key)
        soaked, spec, sroll = 0, None, None
        if soakable:
            pool = dmg.soak_pool(self.rs, sheet, kind, source=source)
            if pool is not None and pool.dice > 0:
                spec = pool.spec
                sroll = dice.roll(pool.dice, pool.difficulty, self.rng, self.rs.dice,
                                  can_botch=False)
                soaked = min(levels, sroll.successes)
                self.events.append(roll_event(key, "soak", spec, sroll))
                self.lines.append(roll_line(self.name(key), "soak", spec, sroll))
        health = self.rs.section("health")
        before = sheet.track(health)
        applied = levels - soaked
        after = before.apply(kind, applied).track if applied else before
        self.put_sheet(key, sheet.with_health(after))
        outcome = "none"
        if after.incapacitated and not before.incapacitated:
            outcome = dmg.INCAPACITATED
        self.events.append({
            "event": "damage", "target": key, "source": source, "type": kind,
            "rolled": levels, "soaked": soaked, "applied": applied,
            "health_before": before.level_name, "health_after": after.level_name,
            "outcome": outcome, "why": why,
        })
        self.lines.append(f"  {self.name(key)} takes {applied} {kind} ({why}; {levels}, "
                          f"{soaked} soaked): {before.level_name} -> {after.level_name}")
        self.set_outcome(key, outcome)

    def deal(self, attacker_key: str, key: str, dice_pool, kind: str, source: str,
             label: str, **kw):
        """Roll ``dice_pool`` damage against ``key`` through damage.py and mark it."""
        t_sheet = self.sheet_of(key)
        dr = dmg.resolve_damage(self.rs, t_sheet, dice=dice_pool.dice, damage_type=kind,
                                source=source, rng=self.rng,
                                condition=self.outcome_of(key, t_sheet), **kw)
        self.events.append(roll_event(attacker_key, "damage", dice_pool, dr.damage_roll))
        self.lines.append(roll_line(self.name(attacker_key), f"{label} ({dr.damage_type})",
                                    dice_pool, dr.damage_roll))
        if dr.soak_roll is not None:
            self.events.append(roll_event(key, "soak", dr.soak.spec, dr.soak_roll))
            self.lines.append(roll_line(self.name(key), "soak", dr.soak.spec, dr.soak_roll))
        before, after = dr.health_before, dr.health_after
        self.events.append({
            "event": "damage", "actor": attacker_key, "target": key, "source": source,
            "type": dr.damage_type, "rolled": dr.levels_rolled, "soaked": dr.soaked,
            "applied": dr.applied, "health_before": before.level,
            "health_after": after.level, "outcome": dr.outcome, "dazed": dr.dazed,
            "detail": dr.as_dict(),
        })
        self.put_sheet(key, dr.sheet)
        self.lines.append(f"  {self.name(key)} takes {dr.applied} {dr.damage_type} "
                          f"({dr.levels_rolled} rolled, {dr.soaked} soaked): "
                          f"{before.level} -> {after.level}")
        self.set_outcome(key, dr.outcome)
        return dr

    def resolve_attack(self, c, action: dict, act_ev: dict) -> None:
        rs = self.rs
        tkey = action.get("target")
        t = self.state.get(tkey)
        if t is None:
            self.lines.append(f"{c.name}'s target is no longer in the fight; the attack is lost.")
            return
        if t.outcome == dmg.DEAD:
            self.lines.append(f"{c.name}'s target {t.name} is already dead.")
            return
        weapon = action.get("weapon")
        if not weapon and not action.get("maneuver"):
            # "attack Goon" with a knife in hand is a knife attack; "as strike" punches.
            weapon = self.in_hand(c.key)
        a_sheet, t_sheet = self.sheet_of(c.key), self.sheet_of(tkey)
        a_gear = self.gear(c.key)
        if weapon and weapon.lower() in [w.lower() for w in a_gear.get("dropped", ())]:
            self.lines.append(f"{c.name}'s {weapon} was knocked away: the attack is lost "
                              f"(pick it up: ready {weapon}).")
            return
        # The target's declared defense (DEF-01..04; TURN-09 anticipated first).
        defense = None
        parry_with = self.in_hand(tkey)
        try:
            kind = t.actions[0]["kind"] if t.desperate and t.actions else None
            dstep = sch.defend(self.state, tkey, rs, against=c.key, kind=kind)
            self.run(dstep)
            dev = next(e for e in dstep.events if e.get("event") == "defend")
            defense = Defense(tkey, dev["action"]["kind"], weapon=parry_with,
                              extra=tuple(Modifier(**m) for m in dev.get("modifiers", [])))
        except IllegalAction:
            to = t.aborted_to
            if to and to.get("kind") in DEFENSES and not to.get("resolved"):  # TURN-08
                defense = Defense(tkey, to["kind"], weapon=parry_with)
                t2 = replace(self.state.get(tkey), aborted_to={**to, "resolved": True})
                self.state = self.state.with_combatants({tkey: t2})
        if defense is not None and defense.kind == "parry" and not parry_with:
            self.lines.append(f"  {t.name} has no weapon in hand to parry with.")
            defense = None
        grip = a_gear.get("grapple") or {}
        aim = a_gear.get("aim") or {}
        aim_turns = aim.get("turns", 0) if (aim.get("target") == tkey
                                            and aim.get("weapon") == weapon) else 0
        extra = [Modifier(**m) for m in act_ev.get("modifiers", [])]
        pen = a_gear.get("penalty") or {}
        if pen.get("turn") == self.state.turn:  # CLOSE-12: tackled last turn
            extra.append(Modifier(pen.get("reason", "off balance"),
                                  difficulty=pen.get("difficulty", 0)))
        intent = Attack(c.key, tkey, maneuver=action.get("maneuver") or "attack",
                        weapon=weapon, location=action.get("location"),
                        position=action.get("position") or "front", aim_turns=aim_turns)
        ctx = Context(attacker=self.side(c.key, weapon, moved=action.get("moving", 0)),
                      target=self.side(tkey),
                      grapple=grip.get("kind", "") if grip.get("with") == tkey else "",
                      weapon_state=self.weapon_state(c.key, weapon), extra=tuple(extra))
        res = resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, rng=self.rng,
                             can_soak=lambda k: dmg.can_soak(rs, t_sheet, k))
        if aim or res.weapon_after is not None:
            g = self.gear(c.key)
            g.pop("aim", None)  # RNG-01: the aim is spent on this shot
            if res.weapon_after is not None:
                g.setdefault("weapons", {})[res.weapon_after.weapon] = res.weapon_after.as_dict()
            self.set_gear(c.key, g)
        self.lines.append(f"{c.name} attacks {t.name} ({res.maneuver}"
                          f"{', ' + res.weapon if res.weapon else ''}"
                          f"{', at ' + res.location if res.location else ''}):")
        if res.roll is not None:
            self.events.append(roll_event(c.key, "attack", res.pool, res.roll))
            self.lines.append(roll_line(c.name, "attack", res.pool, res.roll))
        elif res.auto:
            self.lines.append(f"  {res.auto}")
        if res.weapon_after is not None and res.weapon_after.ammo is not None:
            self.lines.append(f"  {res.weapon_after.weapon}: {res.weapon_after.ammo} round(s) "
                              f"left.")
        if res.defense is not None:
            d = res.defense
            self.events.append(roll_event(tkey, "defense", d.pool, d.roll))
            self.lines.append(roll_line(t.name, d.defense.kind, d.pool, d.roll))
            if d.counter is not None:  # DMG-17: the parry hurts the attacker
                self.lines.append(f"  {t.name}'s parry turns on {c.name} (DMG-17):")
                self.deal(tkey, c.key, d.counter, d.counter_type, "melee", "parry damage")
        if res.costs:
            self.put_sheet(c.key, dmg.pay_costs(self.sheet_of(c.key), dict(res.costs),
                                                "attack"))
        if not res.hit:
            self.lines.append("  BOTCH: the attack goes badly wrong." if res.botch
                              else "  Miss.")
            self.apply_effects(c, tkey, res, None)
            return
        why = ""
        if res.roll is not None and res.roll.successes < res.successes:
            # COMP-03: a fully immobilized (or staked) target is hit with at least one
            # success; say so, or the dice above look like a miss.
            why = " (the target cannot move: at least one success, COMP-03)"
        self.lines.append(f"  Hit with {res.net} net success{'es' if res.net != 1 else ''}"
                          f"{why}.")
        dr = None
        if res.deals_damage:
            dr = self.deal(c.key, tkey, res.damage, res.damage_type, res.damage_source,
                           "damage", materials=res.materials, armor_rating=res.armor_rating,
                           armor_applies=res.armor_stops_source,
                           unarmored_part=res.unarmored_part, head_shot=res.head_shot)
            if dr.dazed and "dazed" in sch.turn_rules(rs).conditions and \
                    self.state.get(tkey).outcome not in OUT_OF_ACTION:  # COMP-02
                self.condition(tkey, "dazed")
                self.lines.append(f"  {t.name} is dazed and loses next turn's actions.")
        self.apply_effects(c, tkey, res, dr)

    def apply_effects(self, c, tkey: str, res, dr) -> None:
        """What the hit (or botch) does beyond damage: knockdowns (COMP-04, CLOSE-11/12),
        grapples (CLOSE-03/05), disarms (CLOSE-04), stakes (MAN-11), jagged skin (PWR-06),
        a thrown weapon leaving the hand."""
        turn = self.state.turn
        for e in res.effects:
            who = tkey if e.who == "target" else c.key
            if self.state.get(who) is None:
                continue
            if e.kind == "knockdown_check":
                if self.state.get(who).outcome in OUT_OF_ACTION:
                    continue
                self.knockdown(who, e.difficulty, e.absolute)
            elif e.kind == "grapple":
                self.grapple(c.key, tkey, e.detail or "clinch")
            elif e.kind == "next_turn_difficulty":  # CLOSE-12: off balance next turn
                g = self.gear(who)
                g["penalty"] = {"turn": turn + 1, "difficulty": e.value,
                                "reason": "tackled last turn"}
                self.set_gear(who, g)
                self.lines.append(f"  {self.name(who)} is off balance: +{e.value} difficulty "
                                  f"next turn.")
            elif e.kind in ("disarm_if_damage_over", "disarmed"):
                self.disarm(c, tkey, res, e)
            elif e.kind == "staked_if_damage" and dr is not None:  # MAN-11
                if stake_holds(res, dr.applied):
                    self.condition(tkey, "staked")
                    self.lines.append(f"  {self.name(tkey)} is STAKED: {e.detail} (MAN-11).")
            elif e.kind == "attacker_damage":  # PWR-06 Rokea jagged skin, DMG-17 ...
                self.apply_levels(c.key, e.value, e.detail or "lethal", "other",
                                  soakable=True, why=f"{self.name(tkey)}'s jagged skin")
            elif e.kind == "knocked_down_or_damage":  # CLOSE-12 botched tackle
                self.condition(who, "prone")
                self.lines.append(f"  {self.name(who)} goes down in the botched tackle "
                                  f"(getting up takes an action: rise).")
            elif e.kind == "weapon_thrown":
                g = self.gear(c.key)
                g["dropped"] = sorted(set(g.get("dropped", [])) | {e.detail})
                self.set_gear(c.key, g)
            elif e.kind == "string_snapped":
                self.lines.append(f"  {c.name}'s bowstring snaps (ATK-07).")
            else:
                self.lines.append(f"  Effect on {self.name(who)}: {e.kind.replace('_', ' ')}"
                                  + (f" ({e.detail})" if e.detail else ""))

    def knockdown(self, key: str, difficulty: int, absolute: int | None) -> None:
        """COMP-04: Dexterity + Athletics reflex. Up at once with -2 initiative next turn;
        failure: on the ground (rise takes an action); botch: also 1 unsoakable bashing."""
        kd = knockdown_check(self.rs, self.sheet_of(key), difficulty=difficulty,
                             absolute=absolute, rng=self.rng)
        name = self.name(key)
        self.events.append(roll_event(key, "knockdown", kd.reflex.pool, kd.roll))
        self.lines.append(roll_line(name, "knockdown", kd.reflex.pool, kd.roll))
        if kd.standing:
            self.condition(key, "knocked_down")
            self.lines.append(f"  {name} is knocked down but gets up at once: "
                              f"{kd.initiative_next_turn:+d} initiative next turn.")
            return
        self.condition(key, "prone")
        self.lines.append(f"  {name} is knocked down and stays on the ground "
                          f"(rise takes an action).")
        if kd.damage:
            self.apply_levels(key, kd.damage, kd.damage_type, "fall",
                              soakable=kd.soakable, why="botched knockdown roll")

    def disarm(self, c, tkey: str, res, e) -> None:
        """CLOSE-04: roll the damage pool only to compare it with the target's Strength."""
        weapon = e.detail or self.in_hand(tkey)
        if e.kind == "disarmed":
            ok, line = True, None
        else:
            if res.damage is None:
                return
            roll = dice.roll(res.damage.dice, res.damage.difficulty, self.rng, self.rs.dice,
                             can_botch=False)
            self.events.append(roll_event(c.key, "disarm", res.damage, roll))
            line = roll_line(c.name, f"disarm (over Strength {e.value})", res.damage, roll)
            ok = disarm_succeeds(res, roll.successes)
        if line:
            self.lines.append(line)
        if ok and weapon:
            g = self.gear(tkey)
            g["dropped"] = sorted(set(g.get("dropped", [])) | {weapon})
            self.set_gear(tkey, g)
            self.events.append({"event": "disarm", "actor": c.key, "target": tkey,
                                "weapon": weapon})
            self.lines.append(f"  {self.name(tkey)}'s {weapon} flies away (pick it up: "
                              f"ready {weapon}).")
        else:
            self.lines.append(f"  {self.name(tkey)} keeps hold of the weapon.")

    # ================================================================ log

    def do_timeout(self):  # issue 5: commands/combat_idle.py
        from .combat_idle import do_timeout

        do_timeout(self)

    def do_slackers(self):
        from .combat_idle import do_slackers

        do_slackers(self)

    def do_log(self):
        self.load()
        arg = self.args.strip()
        try:
            count = int(arg) if arg else 10
        except ValueError:
            raise InputError(self.usage()) from None
        if not 1 <= count <= 200:
            raise InputError("Show from 1 to 200 entries.")
        recs = combatlog.read(self.script.combat_id, count)
        lines = [header(f"Combat log: last {len(recs)}")]
        for r in recs:
            body = {k: v for k, v in r.items()
                    if k not in ("seq", "ts", "combat", "ruleset", "turn", "phase", "event",
                                 "detail")}
            lines.append(f" {r['seq']:>4} t{r['turn']} {r['phase']:<10} {r['event']:<11} "
                         + ", ".join(f"{k}={v}" for k, v in body.items())[:300])
        self.msg("\n".join(lines))

    # ================================================================ staff tools

    def do_mod(self):
        self.load()
        self.need_runner("set conditions")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage())
        c = self.combatant(self.lhs)
        cond = self.rhs.strip().lower()
        words = cond.split()
        if words and words[0] in COVER_WORDS:  # RNG-03
            self.set_cover(c.key, self.cover_level(" ".join(words[1:])), by=self.me())
            self.commit()
            return
        before = len(self.events)
        if cond.startswith(("!", "-")):
            self.run(sch.remove_condition(self.state, c.key, cond[1:], self.rs))
        else:
            self.run(sch.add_condition(self.state, c.key, cond, self.rs))
        for ev in self.events[before:]:
            ev["by"] = self.me()  # who set it, for the log
        self.commit()

    def _levels(self):
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage())
        parts = self.rhs.split()
        if len(parts) != 2 or not parts[0].isdecimal() or not 1 <= int(parts[0]) <= 20:
            raise InputError(self.usage() + "  e.g. =2 lethal")
        kind = parts[1].lower()
        kinds = ("bashing", "lethal", "aggravated")
        full = [k for k in kinds if k.startswith(kind)]
        if len(full) != 1:
            raise InputError(f"'{parts[1]}' is not a damage type: bashing, lethal, aggravated.")
        return self.combatant(self.lhs), int(parts[0]), full[0]

    def do_damage(self):
        self.load()
        self.need_runner("apply damage by hand")
        c, n, kind = self._levels()
        self.staff_damage(c, n, kind)

    def staff_damage(self, c, n: int, kind: str) -> None:
        """``n`` levels marked by hand, through damage.py like a hit (HLT-02..05: torpor for
        a vampire, death for a mortal, reverting for a shifter ...): the levels are the
        rolled successes, unsoakable, so exactly ``n`` are marked (a vampire's DMG-15 halving
        is undone: the staffer said how many levels)."""
        rs = self.rs
        sheet = self.sheet_of(c.key)
        condition = self.outcome_of(c.key, sheet)
        if condition == dmg.DEAD:
            raise IllegalAction(f"{c.name} is dead already.")

        def mark(levels: int):
            return dmg.resolve_damage(rs, sheet, dice=levels, damage_type=kind,
                                      source="other", faces_damage=(rs.dice.sides,) * levels,
                                      damage_difficulty=rs.dice.base_difficulty,
                                      unsoakable=True, condition=condition)

        dr = mark(n)
        if dr.halved and dr.applied < n:
            dr = mark(min(2 * n, rs.dice.max_pool))
        before, after = dr.health_before, dr.health_after
        self.put_sheet(c.key, dr.sheet)
        self.events.append({
            "event": "damage", "target": c.key, "source": "staff", "type": dr.damage_type,
            "rolled": n, "soaked": 0, "applied": dr.applied,
            "health_before": before.level, "health_after": after.level,
            "outcome": dr.outcome, "by": self.me(),
        })
        self.lines.append(f"{c.name} takes {dr.applied} {dr.damage_type} (by "
                          f"{self.caller.key}): {before.level} -> {after.level}")
        for note in dr.notes:
            self.lines.append(f"  ({note})")
        self.set_outcome(c.key, dr.outcome)
        self.commit()

    def do_heal(self):
        """Staff healing by hand: marks come off the track, logged as a ``heal`` event."""
        self.load()
        self.need_runner("heal by hand")
        c, n, kind = self._levels()
        sheet = self.sheet_of(c.key)
        before = sheet.track(self.rs.section("health"))
        after = before.heal(kind, n)
        self.put_sheet(c.key, sheet.with_health(after))
        self.events.append({
            "event": "heal", "target": c.key, "source": "staff", "type": kind,
            "rolled": None, "soaked": 0, "applied": before.damage - after.damage,
            "health_before": before.level_name, "health_after": after.level_name,
            "outcome": "none", "by": self.me(),
        })
        if c.outcome == dmg.INCAPACITATED and not after.incapacitated:
            self.state = self.state.with_combatants({c.key: replace(c, outcome="")})
            self.uncondition(c.key, "incapacitated")
        self.lines.append(f"{c.name} heals {n} {kind} (by {self.caller.key}): "
                          f"{before.level_name} -> {after.level_name}")
        self.commit()
