"""+combat under the spotlight engine (seed 004; SPOT-01..14; issue 4).

``commands/combat.py`` hands a command here (``spotlight_handler``) when the room's combat
runs the spotlight engine, or when ``+combat/start`` names a ruleset whose YAML says
``engine: spotlight``; the engine is chosen by the YAML, never by the ruleset's name. The
shape is the d10 command's: load, check who may do it, compute with the pure engine
(``combat.spotlight``), commit state and log at once, tell the room. A refusal raises before
anything is saved.

Design choices:
* Harm lives in the combat's state (the spotlight ``Fighter``'s HP track), not on the
  sheet: the sheet's health track is the d10 one, and seed 004's harm is per scene.
* The attack roll is the YAML house default of ``combat/spotlight_attack.py`` (the seed gives
  no dice); staff mark Harm by hand with ``/damage``.
* The log's ``turn`` is the round and its ``phase`` the stage (initiative, opening, pcs,
  closing), moved on by the engine's ``round`` events and the ``stage`` the events carry.
"""

from __future__ import annotations

from django.db import transaction

from combat import spotlight as sp
from combat import spotlight_attack as spa
from combat.errors import IllegalAction, InputError, WodError
from combat.sheet import Sheet
from typeclasses.combat import combat_in
from world import combatlog, rulebook

from .base import WodCommand
from .combat import CmdCombat, tell_room
from .render import header

# d10 switches that mean nothing here, and what to use instead.
D10_ONLY = {
    "declare": "there is no declaration: on your turn use +combat/act, /move, /free, /done",
    "attack": "attack on your turn: +combat/act attack <target> [with <weapon>]",
    "dodge": "there are no declared defenses here; act on your turn with +combat/act",
    "block": "there are no declared defenses here; act on your turn with +combat/act",
    "parry": "there are no declared defenses here; act on your turn with +combat/act",
    "defend": "there are no declared defenses here; act on your turn with +combat/act",
    "pass": "end your turn with +combat/done",
    "delay": "the spotlight moves in initiative order; end your turn with +combat/done",
    "abort": "there is nothing declared to abort; act on your turn with +combat/act",
    "celerity": "a turn is one move, one action, one free action (SPOT-07)",
    "rage": "a turn is one move, one action, one free action (SPOT-07)",
    "spend": "a turn is one move, one action, one free action (SPOT-07)",
    "mod": "stake with +combat/stake <name>, mark Harm with +combat/damage",
    "heal": "blood revives a vampire in torpor: +combat/feed <name>=<hunger slaked>",
}


def spotlight_handler(cmd: CmdCombat):
    """A ``CmdCombatSpotlight`` carrying ``cmd``'s parsed input when this command is for a
    spotlight combat, else None (the d10 command goes on)."""
    try:
        switch = cmd.expand_switch(cmd.switches[0]) if len(cmd.switches) == 1 else None
        if switch == "start":
            name = cmd.lhs.strip() if (cmd.args or "").strip() else ""
            try:
                rs = rulebook.get(name or None)
            except WodError:
                return None  # the d10 command reports the unknown ruleset
            if sp.engine_of(rs) != "spotlight":
                return None
        else:
            script = combat_in(cmd.caller.location)
            if script is None or getattr(script.get_state(), "engine", "d10") != "spotlight":
                return None
    except Exception:  # never let the check itself break +combat: the d10 path reports
        return None
    handler = CmdCombatSpotlight()
    handler.__dict__.update(cmd.__dict__)
    return handler


def log_events(script, before, events) -> list[dict]:
    """Append events to the JSONL log with the standard fields; ``turn`` is the round and
    ``phase`` the stage at the moment of each event."""
    out, chunk = [], []
    turn, phase = before.round, before.stage
    key = (turn, phase)
    for ev in events:
        if ev.get("event") == "round":
            turn = ev.get("round", turn)
            phase = "opening" if ev.get("ambush") == "opponents" else "pcs"
        elif ev.get("event") in ("spotlight", "prompt") and ev.get("stage"):
            phase = ev["stage"]
        if (turn, phase) != key and chunk:
            out += combatlog.write(script.combat_id, script.ruleset_name, key[0], key[1], chunk)
            chunk = []
        key = (turn, phase)
        chunk.append(ev)
    if chunk:
        out += combatlog.write(script.combat_id, script.ruleset_name, key[0], key[1], chunk)
    return out


class CmdCombatSpotlight(CmdCombat):
    """
    A spotlight fight (seed 004): PCs in initiative order, the Storyteller picks opponents.

    Usage:
      +combat
      +combat/start spotlight
      +combat/init
      +combat/next [<opponent>]
      +combat/act [<npc>=][attack||bite <target> [with <weapon>]||<what>]
      +combat/move [<npc>=]<target>=closer||away||<range>
      +combat/free [<what>]   +combat/done
      +combat/swap <first>=<second>   +combat/ambush pcs||npcs
      +combat/event <text>   +combat/range <a>/<b>=<range>
      +combat/damage <name>=<n> superficial||aggravated
      +combat/stake <name>   +combat/unstake <name>   +combat/feed <name>=<hunger slaked>
      +combat/npc <name>=<template or traits>[,actions=<n>]
    """

    wod_switches = ("start", "join", "leave", "init", "npc", "templates", "next", "act",
                    "move", "free", "done", "swap", "ambush", "event", "range", "damage",
                    "stake", "unstake", "feed", "log", "end", "kick")
    switch_aliases = {"npcs": "templates", "list": "templates", "harm": "damage"}

    def func(self):
        return WodCommand.func(self)  # not CmdCombat.func: that hook is what sent us here

    def expand_switch(self, typed: str) -> str | None:
        mine = super().expand_switch(typed)
        if mine is not None:
            return mine
        low = typed.lower()
        hits = [k for k in D10_ONLY if k.startswith(low)] if low else []
        d10 = low if low in D10_ONLY else (hits[0] if len(hits) == 1 else None)
        if d10 is not None:
            self._d10_switch = d10
            return "d10only"
        return None

    def do_d10only(self):
        sw = self._d10_switch
        raise IllegalAction(f"+combat/{sw} is for d10 combats; this fight runs the spotlight "
                            f"engine: {D10_ONLY[sw]}. See +combat for the state.")

    # ================================================================ plumbing

    def commit(self) -> None:
        self.script.commit(self.state, list(self.sheets.values()), [], before=self.before)
        self.announce(log_events(self.script, self.before, self.events))

    def actor(self, name: str | None):
        """Who the caller acts for: a named NPC they run, else their PC if it has the
        spotlight, else the opponent holding the spotlight when they run the NPCs."""
        if name and name.strip():
            c = self.combatant(name)
            if c.key == self.me():
                return c
            if c.is_pc:
                raise IllegalAction(f"You can only act for your own character, not {c.name}; "
                                    f"the organizer and staff run the opponents.")
            if not self.can_run():
                raise IllegalAction(f"Only the organizer or staff run opponents such as "
                                    f"{c.name}.")
            return c
        mine = self.state.get(self.me())
        if mine is not None and mine.key in self.state.holder:
            return mine
        if self.can_run():
            opp = [k for k in self.state.holder if not self.state.get(k).is_pc]
            if opp:
                return self.state.get(opp[0])
        if mine is None:
            raise IllegalAction("You are not in this fight: +combat/join first.")
        return mine

    def profile(self, key: str) -> dict:
        return sp.sheet_profile(self.sheet_of(key), self.rs)

    # ================================================================ telling people

    def describe(self, ev: dict) -> str | None:  # noqa: C901 - one line per event kind
        kind = ev.get("event")
        n = self.name(ev.get("actor", ""))
        if kind == "start":
            return None
        if kind == "join":
            side = "opponent" if ev.get("npc") else "PC"
            return (f"{n} joins the fight ({side}, {ev['hp']}/{ev['hp_max']} HP"
                    + (f", {ev['actions_per_round']} turns a round" if ev.get("npc")
                       and ev.get("actions_per_round", 1) > 1 else "") + ").")
        if kind == "leave":
            return f"{ev.get('name') or n} leaves the fight."
        if kind == "initiative":
            return (f"{n} rolls initiative: 2d6 [{' '.join(map(str, ev['faces']))}] + "
                    f"{ev['trait']} {ev['bonus']} = {ev['total']}"
                    if ev.get("sides") == 6 and len(ev["faces"]) == 2 else
                    f"{n} rolls initiative: [{' '.join(map(str, ev['faces']))}] + "
                    f"{ev['trait']} {ev['bonus']} = {ev['total']}")
        if kind == "round":
            amb = {"opponents": " The opponents got the drop: they act first.",
                   "pcs": " The PCs got the drop: every PC acts first."}.get(ev.get("ambush"), "")
            return f"Round {ev['round']} begins.{amb} Order: {self.order_text()}"
        if kind == "spotlight":
            return f"The spotlight is on {', '.join(self.name(k) for k in ev['who'])}."
        if kind == "pass":
            if ev.get("who"):
                return f"{', '.join(self.name(k) for k in ev['who'])}'s turn ends."
            if ev.get("forfeited"):
                return "The round ends; unused opponent turns are lost."
            return "No opponent acts there."
        if kind == "swap":
            return f"{self.name(ev['first'])} goes before {self.name(ev['second'])}."
        if kind == "ambush":
            who = "The opponents" if ev["side"] == "opponents" else "The PCs"
            return f"{who} get the drop in round {ev['round']} (SPOT-08)."
        if kind == "event":
            return f"|yEnvironment:|n {ev['text']}"
        if kind == "move":
            return f"{n} moves from {ev['from']} to {ev['to']} of {self.name(ev['other'])}."
        if kind == "range":
            return f"{self.name(ev['a'])} and {self.name(ev['b'])} are now at {ev['to']}."
        if kind == "act":
            a = ev.get("action") or {}
            if a.get("kind") in ("attack", "bite"):
                w = f" with {a['weapon']}" if a.get("weapon") else ""
                return (f"{n} {a['kind']}s {self.name(a.get('target', '?'))}{w} "
                        f"(at {ev.get('range')}).")
            return f"{n} acts: {a.get('text') or a.get('kind')}."
        if kind == "free":
            return f"{n} takes a free action" + (f": {ev['text']}." if ev.get("text") else ".")
        if kind == "done":
            return f"{n} ends the turn."
        if kind == "harm":
            out = {"torpor": " and falls into TORPOR", "final_death": " and meets FINAL DEATH",
                   "out": " and is OUT of the fight"}.get(ev["outcome"], "")
            return (f"{self.name(ev['target'])} takes {ev['marked'] + ev['upgraded']} "
                    f"{ev['kind']} harm: HP {ev['hp_before']} -> {ev['hp_after']}/"
                    f"{ev['hp_max']}{out}.")
        if kind == "stake":
            return f"{self.name(ev['target'])} is staked and incapacitated (SPOT-12)."
        if kind == "unstake":
            return f"The stake is pulled from {self.name(ev['target'])}."
        if kind == "feed":
            return (f"{self.name(ev['target'])} is given blood (slakes {ev['slaked']}): back "
                    f"at the start of round {ev['revive_round']} (SPOT-14).")
        if kind == "revive":
            return f"{n} wakes from torpor with {ev['hp_after']} HP."
        if kind == "end":
            return "The fight is over."
        return None

    def order_text(self) -> str:
        parts = []
        for slot in sp.order_view(self.state):
            names = " = ".join(self.name(k) for k in slot["keys"])
            parts.append(f"{names} {slot['total']}")
        return ", ".join(parts) or "nobody has rolled"

    def announce(self, records) -> None:
        room = self.caller.location
        lines, prompts = [], []
        for rec in records:
            if rec["event"] == "prompt":
                prompts.append(rec)
                continue
            text = self.describe(rec)
            if text:
                lines.append(text)
        lines += self.lines
        if lines and room:
            tell_room(room, "|w[Combat]|n " + "\n".join(lines))
        for p in prompts[-3:]:
            self.prompt(p)

    def prompt(self, p: dict) -> None:
        organizer = self.obj_of(self.script.organizer) if self.script.organizer else None
        what, who = p["what"], p["who"]
        if what in ("advance", "pick"):
            if organizer:
                if what == "pick":
                    organizer.msg("|w[Combat]|n Pick an opponent: +combat/next <opponent> ("
                                  + ", ".join(self.name(k) for k in who)
                                  + "), or +combat/next to pass.")
                else:
                    organizer.msg("|w[Combat]|n Nobody is pending: +combat/next moves on.")
            return
        how = {"initiative": "roll initiative: +combat/init",
               "act": "act: +combat/act, /move, /free, /done"}.get(what, what)
        for key in who:
            c = self.state.get(key)
            if c is None:
                continue
            if c.is_pc:
                obj = self.obj_of(key)
                if obj:
                    obj.msg(f"|w[Combat]|n Your turn to {how}")
            elif organizer:
                organizer.msg(f"|w[Combat]|n {c.name} has the spotlight: +combat/act "
                              f"{c.name}=attack <target>, /move, /done")

    # ================================================================ show

    def do_default(self):
        if self.args.strip():
            raise InputError(self.usage())
        self.load()
        st = self.state
        org = self.obj_of(self.script.organizer) if self.script.organizer else None
        lines = [header(f"Combat: {self.rs.name} (spotlight), round {st.round}, {st.stage}"),
                 f" Organizer: {org.key if org else '-'}"]
        lines.append(f" Order (highest first): {self.order_text()}")
        if st.holder:
            lines.append(" Spotlight: " + ", ".join(self.name(k) for k in st.holder))
        waiting = sp.prompts(st)
        if waiting:
            lines.append(" Now: " + ", ".join(f"{self.name(k)} ({w})" for k, w in waiting))
        elif st.stage not in ("ended",):
            lines.append(" Now: the Storyteller moves on (+combat/next)")
        lines.append(f" {'Name':<16} {'Side':<9} {'Init':>4}  {'HP':>5}  Superficial "
                     f"Aggravated  Status")
        for c in st.combatants:
            init = "--" if c.init_total is None else str(c.init_total)
            status = c.status + (", staked" if c.staked else "")
            if c.revive_round is not None:
                status += f", wakes round {c.revive_round}"
            side = "PC" if c.is_pc else f"NPC {c.turns}/{c.actions_per_round}"
            lines.append(f" {c.name:<16} {side:<9} {init:>4}  {c.hp:>2}/{c.hp_max:<2}  "
                         f"{c.superficial:>11} {c.aggravated:>10}  {status}")
        keys = [c.key for c in st.combatants]
        pairs = [f"{self.name(a)}-{self.name(b)} {sp.range_between(st, a, b, self.rs)}"
                 for i, a in enumerate(keys) for b in keys[i + 1:]]
        if pairs:
            lines.append(" Ranges: " + "; ".join(pairs))
        self.msg("\n".join(lines))

    # ================================================================ setting up

    def new_fight(self, combat_id: str, rs):
        if self.rhs:
            raise IllegalAction("A spotlight fight has no modes (=simple, =reroll are for "
                                "d10 rulesets): +combat/start spotlight")
        return sp.new_combat(combat_id, rs), {"engine": "spotlight"}, "spotlight engine"

    def join_self(self) -> None:
        self.run(sp.join(self.state, self.me(), self.caller.key, self.rs,
                         **self.profile(self.me())))

    def do_leave(self):
        self.load()
        if self.state.get(self.me()) is None:
            raise IllegalAction("You are not in this fight.")
        self.run(sp.remove(self.state, self.me(), self.rs))
        self.commit()

    def do_kick(self):
        self.load()
        self.need_runner("take someone out of the fight")
        self.run(sp.remove(self.state, self.combatant(self.args).key, self.rs))
        self.commit()

    def do_npc(self):
        if not self.args.strip():
            return self.do_templates()
        self.load()
        self.need_runner("create NPCs")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage() + "  e.g. +combat/npc Thug=thug or "
                             "+combat/npc Boss=thug,actions=2")
        name = self.lhs.strip()
        if any(c.name.lower() == name.lower() for c in self.state.combatants):
            raise IllegalAction(f"Someone called {name} is already in this fight.")
        raw = self.args.split("=", 1)[1]
        parts = [p.strip() for p in raw.split(",")]
        actions = None
        rest = []
        for p in parts:
            k, eq, v = p.partition("=")
            if eq and k.strip().lower() in ("actions", "turns"):
                if not v.strip().isdecimal():
                    raise InputError("actions=<n>: how many turns a round (SPOT-05), e.g. 2.")
                actions = int(v.strip())
            else:
                rest.append(p)
        cat = self.rs.traits
        if len(rest) == 1 and "=" not in rest[0]:
            sheet = self.template_sheet(rest[0])
        else:
            sheet = Sheet().with_pools_for(cat)
            for part in rest:
                trait, eq, value = part.partition("=")
                if not eq or not trait.strip():
                    raise InputError(f"'{part}' is not <trait>=<value>. " + self.usage())
                sheet, _ = sheet.set(cat, trait, value)
        profile = sp.sheet_profile(sheet, self.rs)
        from evennia import create_object

        with transaction.atomic():
            npc = create_object("typeclasses.characters.NPC", key=name,
                                location=self.caller.location)
            npc.sheet.save(sheet)
            key = f"#{npc.id}"
            self._objs = None
            self.run(sp.join(self.state, key, name, self.rs, is_npc=True,
                             controller=self.script.organizer, actions_per_round=actions,
                             **profile))
            self.commit()

    def do_end(self):
        self.load()
        self.need_runner("end the fight")
        self.run(sp.end(self.state, self.rs))
        self.commit()
        self.script.delete()

    # ================================================================ the round

    def do_init(self):
        """SPOT-01: only PCs roll: the YAML's dice + the highest of Wits / Blood Potency."""
        self.load()
        if self.rhs is not None:
            raise IllegalAction("Opponents don't roll initiative (SPOT-01); roll your own "
                                "with +combat/init.")
        c = self.combatant(self.args) if self.args.strip() else self.state.get(self.me())
        if c is None:
            raise IllegalAction("You are not in this fight: +combat/join first.")
        if c.is_pc and c.key != self.me():
            raise IllegalAction(f"{c.name} rolls their own initiative.")
        ratings = sp.initiative_ratings(self.sheet_of(c.key), self.rs) if c.is_pc else {}
        self.run(sp.roll_initiative(self.state, c.key, self.rs, self.rng, ratings=ratings))
        self.commit()

    def do_next(self):
        """SPOT-04..06: the Storyteller moves on, or gives an opponent the spotlight."""
        self.load()
        self.need_runner("move the fight on")
        if self.args.strip():
            c = self.combatant(self.args)
            self.run(sp.next_opponent(self.state, c.key, self.rs))
        else:
            self.run(sp.advance(self.state, self.rs))
        self.commit()

    def do_swap(self):
        """SPOT-03: tied PCs settle who goes first."""
        self.load()
        if not self.rhs or not self.lhs.strip():
            raise InputError("+combat/swap <goes first>=<goes second>, for tied PCs (SPOT-03).")
        a, b = self.combatant(self.lhs), self.combatant(self.rhs)
        if self.me() not in (a.key, b.key) and not self.can_run():
            raise IllegalAction("Only the tied players (or the organizer) settle their order.")
        self.run(sp.swap(self.state, a.key, b.key, self.rs))
        self.commit()

    def do_ambush(self):
        """SPOT-08."""
        self.load()
        self.need_runner("declare an ambush")
        self.run(sp.ambush(self.state, self.args, self.rs))
        self.commit()

    def do_event(self):
        """SPOT-09: an environment event between turns."""
        self.load()
        self.need_runner("post environment events")
        self.run(sp.event(self.state, self.args, self.rs))
        self.commit()

    def do_range(self):
        """SPOT-10: the Storyteller places two combatants at a band."""
        self.load()
        self.need_runner("set ranges")
        left, slash, right = (self.lhs or "").partition("/")
        if not slash or not self.rhs:
            raise InputError("+combat/range <a>/<b>=<range>, e.g. +combat/range Bob/Thug=Far.")
        a, b = self.combatant(left), self.combatant(right)
        self.run(sp.set_range(self.state, a.key, b.key, self.rhs, self.rs))
        self.commit()

    # ================================================================ a turn (SPOT-07)

    def split_npc(self) -> tuple[str | None, str]:
        """``<npc>=<rest>`` or ``<rest>``."""
        if self.rhs is not None and "=" in self.args:
            return self.lhs.strip(), self.args.split("=", 1)[1].strip()
        return None, self.args.strip()

    def do_move(self):
        """SPOT-07/10: one range step toward or away from someone."""
        self.load()
        parts = [p.strip() for p in self.args.split("=")]
        if len(parts) == 3:
            who, target, direction = parts
        elif len(parts) == 2:
            who, (target, direction) = None, parts
        else:
            raise InputError("+combat/move <target>=closer|away|<range> (an NPC: "
                             "+combat/move <npc>=<target>=closer).")
        c = self.actor(who)
        t = self.combatant(target)
        self.run(sp.move(self.state, c.key, t.key, direction, self.rs))
        self.commit()

    def do_act(self):
        """SPOT-07: the turn's action; an attack is rolled and its Harm marked at once."""
        self.load()
        who, text = self.split_npc()
        words = text.split()
        verbs = ("attack", "bite")
        if who is None:
            at = next((i for i, w in enumerate(words) if w.lower() in verbs), None)
            if at is not None:
                who, words = " ".join(words[:at]) or None, words[at:]
            elif words and self._is_combatant(text):
                who, words = text, []
        c = self.actor(who)
        if not words:
            action = {"kind": "action"}
        elif words[0].lower() in verbs:
            rest = " ".join(words[1:])
            target, weapon = self._split_words(rest, "with")
            if not target:
                raise InputError("Attack whom? +combat/act attack <target> [with <weapon>].")
            t = self.combatant(target)
            if t.key == c.key:
                raise IllegalAction("You cannot attack yourself.")
            kind = words[0].lower()
            action = {"kind": kind, "target": t.key}
            if kind == "attack":
                action["weapon"] = (weapon or "unarmed").strip().lower()
            elif weapon:
                raise InputError("A bite needs no weapon: +combat/act bite <target>.")
        else:
            action = {"kind": "other", "text": " ".join(words)[:300]}
        self.run(sp.act(self.state, c.key, self.rs, action))
        if action.get("target"):
            self.attack(c, action)
        self.commit()

    def _is_combatant(self, text: str) -> bool:
        try:
            self.combatant(text)
            return True
        except InputError:
            return False

    def attack(self, c, action: dict) -> None:
        """The YAML house roll (combat/spotlight_attack.py), then Harm (SPOT-11..13)."""
        tag = action.get("weapon") or action["kind"]
        row = spa.attack_row(self.rs, tag)
        sheet = self.sheet_of(c.key)
        ratings = {n: sheet.rating(self.rs.traits, n) for n in row.pool}
        res = spa.resolve(self.rs, tag, ratings, self.rng)
        self.events.append({"event": "roll", "actor": c.key, "purpose": "attack",
                            **{k: v for k, v in res.items() if k not in ("harm", "kind")}})
        terms = " + ".join(f"{n} {v}" for n, v in res["traits"])
        self.lines.append(f"  {c.name} attack: {terms} = {res['pool']} vs {res['difficulty']}: "
                          f"[{' '.join(map(str, res['faces'])) or 'no dice'}] => "
                          f"{res['successes']} success{'es' if res['successes'] != 1 else ''}")
        if res["harm"] <= 0:
            self.lines.append(f"  {self.name(action['target'])} is not harmed.")
            return
        self.run(sp.harm(self.state, action["target"], res["harm"], res["kind"], self.rs,
                         source=c.key))

    def do_free(self):
        self.load()
        who, text = self.split_npc()
        self.run(sp.free(self.state, self.actor(who).key, self.rs, text))
        self.commit()

    def do_done(self):
        self.load()
        self.run(sp.done(self.state, self.actor(self.args).key, self.rs))
        self.commit()

    # ================================================================ harm (SPOT-11..14)

    def do_damage(self):
        """SPOT-11: staff mark Harm by hand."""
        self.load()
        self.need_runner("mark Harm by hand")
        parts = (self.rhs or "").split()
        if not self.lhs.strip() or len(parts) != 2 or not parts[0].isdecimal():
            raise InputError("+combat/damage <name>=<n> superficial|aggravated, "
                             "e.g. +combat/damage Bob=2 superficial.")
        c = self.combatant(self.lhs)
        self.run(sp.harm(self.state, c.key, int(parts[0]), parts[1], self.rs,
                         source=f"staff {self.me()}"))
        self.commit()

    def do_stake(self):
        """SPOT-12: a staked vampire is incapacitated at once."""
        self.load()
        self.need_runner("stake someone")
        self.run(sp.stake(self.state, self.combatant(self.args).key, self.rs))
        self.commit()

    def do_unstake(self):
        self.load()
        self.need_runner("pull a stake")
        self.run(sp.unstake(self.state, self.combatant(self.args).key, self.rs))
        self.commit()

    def do_feed(self):
        """SPOT-14: blood that slakes <n> Hunger revives a vampire in torpor next round."""
        self.load()
        if self.state.get(self.me()) is None and not self.can_run():
            raise IllegalAction("You are not in this fight: +combat/join first.")
        amount = (self.rhs or "").strip()
        if not self.lhs.strip() or not amount.isdecimal():
            raise InputError("+combat/feed <name>=<hunger slaked>, e.g. +combat/feed Bob=2.")
        c = self.combatant(self.lhs)
        self.run(sp.feed(self.state, c.key, int(amount), self.rs))
        self.commit()
