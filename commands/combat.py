"""+combat: run a World of Darkness fight in a room (the Evennia side of the engine).

Every switch follows one shape: load the room's combat (``typeclasses.combat``), check who
may do this, compute the new state and sheets with the pure engine (``combat.scheduler``,
``combat.attack``, ``combat.damage``), then ``commit`` everything at once and tell the room
what happened, with every die. A refusal raises before anything is saved, so it changes
nothing.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from combat import damage as dmg
from combat import scheduler as sch
from combat.attack import Attack, Context, Defense, resolve_attack
from combat.errors import IllegalAction, InputError
from combat.maneuvers import tables
from combat.pools import Modifier
from combat.sheet import Sheet
from typeclasses.combat import COMBAT_KEY, CombatScript, combat_in
from world import combatlog, rulebook

from .base import WodCommand
from .render import header

DEFENSES = ("dodge", "block", "parry")


# ---------------------------------------------------------------- thin adapters to the engine
# The attack layer is still growing; these keep the calls in one place so a changed API is a
# one-line fix.


def engine_resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, rng):
    return resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, rng=rng,
                          can_soak=lambda kind: dmg.can_soak(rs, t_sheet, kind))


def engine_resolve_damage(rs, t_sheet, result, rng, condition):
    return dmg.resolve_damage(rs, t_sheet, rng=rng, condition=condition,
                              **result.soak_kwargs())


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
      +combat/declare [<npc>=]<action>[; <action>]
      +combat/act [<npc>]
      +combat/next [<name>]

    Switches:
      start    - start a fight here; you organize it (and join it). =simple: each
                 character declares and acts in turn; =reroll: initiative every turn
      join     - join the fight in this room
      leave    - leave it
      init     - roll your initiative (Dexterity + Wits + 1d10). Organizer/staff:
                 <npc>=<rating> for an NPC
      npc      - organizer/staff: <name>=<traits> makes an NPC here and joins it,
                 e.g. +combat/npc Thug=str=3,dex=3,brawl=2,stamina=2
      next     - organizer/staff: move on (start the turn, next phase); with a
                 name, stop waiting for that combatant
      declare  - declare your action(s) when it is your turn (lowest initiative
                 first). Actions: attack <target> [with <weapon>] [as <maneuver>],
                 dodge, block, parry, pass, other <text>; several: separate with ;
      attack   - shorthand: +combat/attack <target>[=<maneuver>]
      dodge    - shorthand: declare a dodge
      pass     - do nothing now (declare nothing, or give up your action)
      act      - perform your declared action when it is your turn (highest
                 initiative first); an attack is rolled and resolved at once
      delay    - hold your action and act later this turn with /act
      abort    - before acting, switch to <dodge||block||parry>; add /wp to spend
                 a Willpower point instead of rolling Willpower
      log      - the last <count> entries of the combat log
      end      - organizer/staff: end the fight
      mod      - organizer/staff: <name>=<condition> (dazed, knocked_down ...);
                 <name>=!<condition> removes it
      damage   - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>
      heal     - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>
      kick     - organizer/staff: take <name> out of the fight

    A turn: everyone rolls initiative, the organizer types +combat/next, then
    everyone declares from the lowest initiative to the highest, then acts from
    the highest to the lowest. The game tells you when it is your turn. A
    declared dodge, block or parry is rolled automatically when you are attacked.

    Examples:
      +combat/start
      +combat/join
      +combat/init
      +combat/npc Thug=str=3,dex=3,wits=2,brawl=2,stamina=2
      +combat/init Thug=5
      +combat/next
      +combat/declare attack Thug
      +combat/declare attack Thug with knife as weapon_strike; dodge
      +combat/declare Thug=attack Bob
      +combat/act
      +combat/act Thug
      +combat/abort dodge/wp
      +combat/damage Bob=2 lethal
    """

    key = "+combat"
    aliases = ["combat"]
    wod_switches = ("start", "join", "leave", "init", "npc", "next", "declare", "attack",
                    "dodge", "pass", "act", "delay", "abort", "log", "end", "mod", "damage",
                    "heal", "kick")

    # ================================================================ plumbing

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
        name = name.strip()
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
        if kind == "leave":
            return f"{n} leaves the fight."
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
        if kind == "condition":
            return f"{n} is {ev['condition']} (turns {ev['from']}..{ev['until'] or 'on'})."
        if kind == "condition_removed":
            return f"{n} is no longer {ev['condition']}."
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
            elif k == "other":
                s = f"other: {a.get('text', '')}"
            else:
                s = k + (f" against {self.name(a['against'])}" if a.get("against") else "")
            out.append(s)
        return "; ".join(out) or "nothing"

    def announce(self, records) -> None:
        room = self.caller.location
        lines = []
        prompts = []
        for rec in records:
            if rec["event"] == "prompt":
                prompts.append(rec)
                continue
            text = rec.get("_text") or self.describe(rec)
            if text:
                lines.append(text)
        lines += self.lines
        if lines and room:
            room.msg_contents("|w[Combat]|n " + "\n".join(lines))
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
                    sep = "=<action>" if what == "declare" else ""
                    organizer.msg(f"|w[Combat]|n {c.name}'s turn to {what}: "
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
            tags = (" [NPC]" if c.is_npc else "") + (" [delayed]" if c.delayed else "")
            conds = ", ".join(k.name for k in c.conditions if k.active(st.turn))
            lines.append(f" {init:>3}  {c.name:<16}{tags} {hl:<14} {decl}"
                         + (f"  ({conds})" if conds else ""))
        self.msg("\n".join(lines))

    # ================================================================ setting up

    def do_start(self):
        room = self.caller.location
        if room is None:
            raise IllegalAction("You need to be somewhere to start a fight.")
        if combat_in(room):
            raise IllegalAction("A fight is already running here: +combat to see it, "
                                "+combat/join to join.")
        name = self.lhs.strip() if self.args.strip() else ""
        rs = rulebook.get(name or None)
        opts = {o.strip().lower() for o in (self.rhs or "").split(",") if o.strip()}
        unknown = opts - {"simple", "classic", "reroll"}
        if unknown or ("simple" in opts and "classic" in opts):
            raise InputError(self.usage())
        sch.turn_rules(rs)  # refuse a ruleset without a turn before creating anything
        from evennia import create_script

        with transaction.atomic():
            script = create_script(CombatScript, key=COMBAT_KEY, obj=room, persistent=True)
            state = sch.new_combat(CombatScript.new_id(room), rs,
                                   mode="simple" if "simple" in opts else
                                   ("classic" if "classic" in opts else None),
                                   reroll_initiative=True if "reroll" in opts else None)
            script.setup(state, rs.name, self.me())
            self.script, self.rs, self.state = script, rs, state
            self.before = state
            self.events, self.sheets, self.lines = [{"event": "start", "organizer": self.me(),
                                                    **state.options.to_dict()}], {}, []
            self.lines.append(f"{self.caller.key} starts a fight ({rs.name}, "
                              f"{state.options.mode} mode). +combat/join to take part.")
            self.run(sch.join(self.state, self.me(), self.caller.key, rs))
            self.commit()

    def do_join(self):
        self.load()
        self.run(sch.join(self.state, self.me(), self.caller.key, self.rs))
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

    def do_npc(self):
        self.load()
        self.need_runner("create NPCs")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage() + "  e.g. +combat/npc Thug=str=3,dex=3,brawl=2")
        name = self.lhs.strip()
        if any(c.name.lower() == name.lower() for c in self.state.combatants):
            raise IllegalAction(f"Someone called {name} is already in this fight.")
        cat = self.rs.traits
        sheet = Sheet().with_pools_for(cat)
        raw = self.args.split("=", 1)[1]
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

    def parse_action(self, text: str, actor_key: str) -> dict:
        words = text.strip().split()
        if not words:
            raise InputError(self.usage())
        kind = words[0].lower()
        if kind == "attack":
            rest = " ".join(words[1:])
            maneuver = weapon = None
            low = rest.lower()
            if " as " in f" {low}":
                idx = f" {low}".rindex(" as ")
                rest, maneuver = rest[:max(0, idx - 1)], rest[idx + 3:].strip()
                low = rest.lower()
            if " with " in f" {low}":
                idx = f" {low}".rindex(" with ")
                rest, weapon = rest[:max(0, idx - 1)], rest[idx + 5:].strip()
            target = self.combatant(rest)
            if target.key == actor_key:
                raise IllegalAction("You cannot attack yourself.")
            t = tables(self.rs)
            action = {"kind": "attack", "target": target.key}
            if weapon:
                action["weapon"] = t.weapon(weapon).name
            if maneuver:
                action["maneuver"] = t.maneuver(maneuver).name
            return action
        if kind in DEFENSES:
            action = {"kind": kind}
            if len(words) >= 3 and words[1].lower() == "against":  # TURN-09
                action["against"] = self.combatant(" ".join(words[2:])).key
            elif len(words) > 1:
                raise InputError(f"'{text.strip()}': {kind} [against <attacker>]")
            return action
        if kind == "other":
            if len(words) < 2:
                raise InputError("Say what: other <text>.")
            return {"kind": "other", "text": " ".join(words[1:])}
        if kind == "pass":
            return {"kind": "pass"}
        raise InputError(f"'{words[0]}' is not an action: attack <target>, dodge, block, parry, "
                         f"pass or other <text>.")

    def declare(self, who: str | None, text: str) -> None:
        self.load()
        c = self.actor(who)
        parts = [p for p in text.split(";")]
        if not text.strip() or any(not p.strip() for p in parts):
            raise InputError(self.usage())
        actions = [self.parse_action(p, c.key) for p in parts]
        if any(a["kind"] == "pass" for a in actions):
            if len(actions) > 1:
                raise InputError("'pass' is a whole turn of nothing; declare it alone.")
            self.run(sch.skip(self.state, c.key, self.rs))
        else:
            self.run(sch.declare(self.state, c.key, actions, self.rs))
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

    def do_dodge(self):
        if self.args.strip():
            raise InputError(self.usage())
        self.declare(None, "dodge")

    def do_pass(self):
        self.load()
        c = self.actor(self.args)
        self.run(sch.skip(self.state, c.key, self.rs))
        self.commit()

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
        # Validate on the current state first; the attack's own changes (the defense spent,
        # a daze) belong to this moment of the turn, before ``act`` may move the turn on.
        probe = sch.act(self.state, c.key, self.rs)
        ev = next(e for e in probe.events if e.get("event") == "act")
        action = ev["action"]
        if action["kind"] == "attack":
            self.resolve_attack(c, action, ev)
        elif action["kind"] == "other":
            self.lines.append(f"{c.name} acts: {action.get('text', '')}")
        else:
            self.lines.append(f"{c.name} performs {action['kind']}.")
        self.run(sch.act(self.state, c.key, self.rs))
        self.commit()

    def target_condition(self, sheet: Sheet) -> str:
        track = sheet.track(self.rs.section("health"))
        return dmg.INCAPACITATED if track.incapacitated else dmg.OK

    def resolve_attack(self, c, action: dict, act_ev: dict) -> None:
        rs = self.rs
        tkey = action.get("target")
        if self.state.get(tkey) is None:
            self.lines.append(f"{c.name}'s target is no longer in the fight; the attack is lost.")
            return
        t = self.state.get(tkey)
        a_sheet, t_sheet = self.sheet_of(c.key), self.sheet_of(tkey)
        # The target's declared defense (DEF-01..03; TURN-09 anticipated first).
        defense = None
        try:
            dstep = sch.defend(self.state, tkey, rs, against=c.key)
            self.run(dstep)
            dev = next(e for e in dstep.events if e.get("event") == "defend")
            defense = Defense(tkey, dev["action"]["kind"],
                              extra=tuple(Modifier(**m) for m in dev.get("modifiers", [])))
        except IllegalAction:
            to = t.aborted_to
            if to and to.get("kind") in DEFENSES and not to.get("resolved"):  # TURN-08
                defense = Defense(tkey, to["kind"])
                t2 = replace(t, aborted_to={**to, "resolved": True})
                self.state = self.state.with_combatants({tkey: t2})
        intent = Attack(c.key, tkey, maneuver=action.get("maneuver") or "attack",
                        weapon=action.get("weapon"))
        ctx = Context(extra=tuple(Modifier(**m) for m in act_ev.get("modifiers", [])))
        res = engine_resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, self.rng)
        self.lines.append(f"{c.name} attacks {t.name} ({res.maneuver}"
                          f"{', ' + res.weapon if res.weapon else ''}):")
        if res.roll is not None:
            self.events.append(roll_event(c.key, "attack", res.pool, res.roll))
            self.lines.append(roll_line(c.name, "attack", res.pool, res.roll))
        elif res.auto:
            self.lines.append(f"  {res.auto}")
        if res.defense is not None:
            d = res.defense
            self.events.append(roll_event(tkey, "defense", d.pool, d.roll))
            self.lines.append(roll_line(t.name, d.defense.kind, d.pool, d.roll))
        if res.costs:
            self.put_sheet(c.key, dmg.pay_costs(a_sheet, dict(res.costs), "attack"))
        if not res.hit:
            self.lines.append("  BOTCH: the attack goes badly wrong." if res.botch
                              else "  Miss.")
            return
        self.lines.append(f"  Hit with {res.net} net success{'es' if res.net != 1 else ''}.")
        for e in res.effects:
            self.lines.append(f"  Effect on {self.name(tkey) if e.who == 'target' else c.name}: "
                              f"{e.kind.replace('_', ' ')}"
                              + (f" ({e.detail})" if e.detail else ""))
        if not res.deals_damage:
            return
        dr = engine_resolve_damage(rs, t_sheet, res, self.rng, self.target_condition(t_sheet))
        self.events.append(roll_event(c.key, "damage", res.damage, dr.damage_roll))
        self.lines.append(roll_line(c.name, f"damage ({dr.damage_type})", res.damage,
                                    dr.damage_roll))
        if dr.soak_roll is not None:
            self.events.append(roll_event(tkey, "soak", dr.soak.spec, dr.soak_roll))
            self.lines.append(roll_line(t.name, "soak", dr.soak.spec, dr.soak_roll))
        before, after = dr.health_before, dr.health_after
        self.events.append({
            "event": "damage", "actor": c.key, "target": tkey, "source": res.damage_source,
            "type": dr.damage_type, "rolled": dr.levels_rolled, "soaked": dr.soaked,
            "applied": dr.applied, "health_before": before.level,
            "health_after": after.level, "outcome": dr.outcome, "dazed": dr.dazed,
            "detail": dr.as_dict(),
        })
        self.put_sheet(tkey, dr.sheet)
        self.lines.append(f"  {t.name} takes {dr.applied} {dr.damage_type} "
                          f"({dr.levels_rolled} rolled, {dr.soaked} soaked): "
                          f"{before.level} -> {after.level}"
                          + (f"; {dr.outcome.upper()}" if dr.outcome != "none" else ""))
        if dr.dazed and "dazed" in sch.turn_rules(rs).conditions:  # COMP-02
            self.run(sch.add_condition(self.state, tkey, "dazed", rs))
            self.lines.append(f"  {t.name} is dazed and loses next turn's actions.")

    # ================================================================ log

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
        if cond.startswith(("!", "-")):
            self.run(sch.remove_condition(self.state, c.key, cond[1:], self.rs))
            self.events.append({"event": "condition", "actor": c.key, "added": [],
                                "removed": [cond[1:].strip()], "by": self.me()})
        else:
            self.run(sch.add_condition(self.state, c.key, cond, self.rs))
            self.events.append({"event": "condition", "actor": c.key, "added": [cond],
                                "removed": [], "by": self.me()})
        self.commit()

    def _levels(self):
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage())
        parts = self.rhs.split()
        if len(parts) != 2 or not parts[0].isdigit() or not 1 <= int(parts[0]) <= 20:
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
        self.hand_health(c, n, kind, heal=False)

    def do_heal(self):
        self.load()
        self.need_runner("heal by hand")
        c, n, kind = self._levels()
        self.hand_health(c, n, kind, heal=True)

    def hand_health(self, c, n: int, kind: str, heal: bool) -> None:
        sheet = self.sheet_of(c.key)
        health = self.rs.section("health")
        before = sheet.track(health)
        after = before.heal(kind, n) if heal else before.apply(kind, n).track
        self.put_sheet(c.key, sheet.with_health(after))
        self.events.append({
            "event": "heal" if heal else "damage", "target": c.key, "source": "staff",
            "type": kind, "rolled": None, "soaked": 0,
            "applied": before.damage - after.damage if heal else after.damage - before.damage,
            "health_before": before.level_name, "health_after": after.level_name,
            "outcome": "incapacitated" if after.incapacitated and not before.incapacitated
            else "none", "by": self.me(),
        })
        verb = "heals" if heal else "takes"
        self.lines.append(f"{c.name} {verb} {n} {kind} (by {self.caller.key}): "
                          f"{before.level_name} -> {after.level_name}")
        self.commit()
