"""The switches of a d10 fight's turn (seeds 000-003): declaring, the declaration
shorthands, passing, delaying, aborting, and the organizer's conditions and healing.

Each parses text into an intent for the combat service; a spotlight fight's engine refuses
these intents with what to type there instead.
"""

from __future__ import annotations

import re

from wodcombat.combat.core import intents as it
from wodcombat.combat.core.errors import IllegalAction, InputError, WodError
from wodcombat.world.combat_text import plain

from .combat_declare import COVER_WORDS, DEFENSES, ROLL_FLAGS, DeclarationParser, cover_level


_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d*)?")


def condition_turns(text: str) -> tuple[str, int | None]:
    """``blinded 3`` -> ("blinded", 3); ``blinded`` -> ("blinded", None): until removed.
    Whether 3 is allowed is the engine's (the YAML's ``condition_clock``); a word that is
    not a number stays part of the name, and the engine says it is no condition."""
    head, _, last = text.strip().rpartition(" ")
    if not head or not _NUMBER.fullmatch(last):
        return text.strip(), None
    if not last.lstrip("+-").isdecimal():
        raise InputError(f"A condition lasts a whole number of turns, not {last}: e.g. "
                         f"+combat/mod Bob={head.strip()} 3.")
    return head.strip(), int(last)


class D10Switches:
    """Mixed into ``CmdCombat`` (its ``load``, ``actor``, ``combatant``, ``apply``)."""

    def declare(self, who: str | None, text: str) -> None:
        """The declaration for the caller, an NPC, or a comma list of NPCs (the same for
        each, declared one after another). An NPC's, typed by its runner before its slot,
        is kept hidden until the slot comes (TURN-01), in any fight."""
        self.load()
        if not text.strip():
            raise InputError(self.usage())
        parsed = DeclarationParser(self.rs, lambda name: self.combatant(name).key).parse(text)
        flags = self.switch_flags - {"auto"}
        if flags:  # /declare/wp, /declare/spec: on the first action that rolls
            rolled = [a for a in parsed.actions if a["kind"] in ("attack", *DEFENSES)]
            if not rolled:
                raise InputError("/wp and /spec go on a roll: +combat/declare/wp attack <target>"
                                 " (or attack <target> wp).")
            rolled[0].update({ROLL_FLAGS[f]: True for f in flags})
        self.for_each(who, lambda c: it.Declare(
            by=self.me(), actor=c.key, actions=tuple(parsed.actions),
            activations=tuple(parsed.activations), desperate=parsed.desperate))

    def do_declare(self):
        if "auto" in self.switch_flags:
            return self.declare_defaults()
        if self.rhs is not None:
            self.declare(self.lhs, self.rhs)
        else:
            self.declare(None, self.args)

    def declare_defaults(self) -> None:
        """``/declare/auto [<npc>,...]``: each NPC not declared yet (all, or those named)
        declares its template's default (wodcombat/world/npc_defaults.py), one after another in
        declaration order; each is checked as if typed. One whose slot has not come is
        kept hidden until it does (TURN-01: revealed from low to high initiative). A
        refused NPC is named with why, and the rest go on."""
        from wodcombat.world import npc_defaults

        self.load()
        if self.switch_flags != {"auto"} or "=" in self.args:
            raise InputError("+combat/declare/auto declares every NPC's default; "
                             "+combat/declare/auto Rat1,Rat2 only theirs.")
        self.need_runner("declare for NPCs")
        if self.engine.name != "d10":
            raise IllegalAction("NPCs have no declarations in this fight: give each its "
                                "action with +combat/act <npc>=<action>.")
        named = [n for n in (p.strip() for p in self.args.split(",")) if n]
        npcs = ([self.combatant(n) for n in named] if named else
                [c for c in self.state.combatants if c.is_npc])
        slots = {k: i for i, slot in enumerate(self.state.order) for k in slot.keys}
        npcs = [c for c in npcs if c.is_npc and not c.declared and c.ahead_declare is None
                and c.outcome in npc_defaults.STANDING]
        npcs.sort(key=lambda c: slots.get(c.key, len(slots)))
        if not npcs:
            raise IllegalAction("Every NPC standing here has declared already.")
        skipped = []
        for c in npcs:
            obj = self.objects(c.key)
            template = obj.attributes.get("npc_template") if obj else None
            text = npc_defaults.declaration(template, self.state, c.key, self.rs)
            if text is None:
                skipped.append(f"{c.name}: no player character is standing to attack "
                               f"(declare for it)" if npc_defaults.template_default(template)
                               else f"{c.name} has no default (declare for it)")
                continue
            try:
                self.declare(c.key, text)
            except WodError as why:
                skipped.append(f"{c.name}: {plain(str(why))}")
            self.state = self.script.get_state()
        if skipped:
            self.msg("Not declared: " + "; ".join(skipped) + ".")

    def do_attack(self):
        if not self.args.strip():
            raise InputError("Attack whom? +combat/attack <target>[=<maneuver>], e.g. "
                             "+combat/attack Thug.")
        text = f"attack {self.lhs.strip()}"
        if self.rhs is not None:
            if not self.rhs.strip():
                raise InputError(self.usage())
            text += f" as {self.rhs.strip()}"
        self.declare(None, text)

    def _shorthand(self, word: str) -> None:
        who, rest = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        if rest.strip() and word not in ("defend", "dodge"):
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
        self.declare(self.args.strip() or None, "celerity")

    def do_rage(self):
        who, n = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        self.declare(who, f"rage {n.strip()}")

    def do_spend(self):
        who, what = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        self.declare(who, f"spend {what.strip()}")

    def do_pass(self):
        self.load()
        c = self.actor(self.args)
        self.apply(it.Pass(by=self.me(), actor=c.key))

    def do_delay(self):
        self.load()
        c = self.actor(self.args)
        self.apply(it.Delay(by=self.me(), actor=c.key))

    def do_abort(self):
        """TURN-08: <dodge|block|parry>[/wp]."""
        self.load()
        who, text = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        kind, _, flag = text.strip().lower().partition("/")
        if kind not in DEFENSES or flag not in ("", "wp") or "spec" in self.switch_flags:
            raise InputError(self.usage() + "  e.g. +combat/abort dodge or dodge/wp")
        c = self.actor(who)
        self.apply(it.Abort(by=self.me(), actor=c.key, to=kind,
                            spend_willpower=flag == "wp" or "wp" in self.switch_flags))

    def do_change(self):
        """TURN-10: [<npc>=]<action>; /wp spends a point instead of rolling Willpower."""
        self.load()
        who, text = (self.lhs, self.rhs) if self.rhs is not None else (None, self.args)
        if not text.strip() or "spec" in self.switch_flags:
            raise InputError(self.usage() + "  e.g. +combat/change move 10 toward Bob "
                             "(or /change/wp ...)")
        c = self.actor(who)
        parser = DeclarationParser(self.rs, lambda name: self.combatant(name).key)
        to = parser.action(text)
        if "activate" in to or to.get("kind") == "pass":
            raise InputError("Change to an action: +combat/change move 10 toward Bob.")
        self.apply(it.Change(by=self.me(), actor=c.key, to=to,
                             spend_willpower="wp" in self.switch_flags))

    # ---------------------------------------------------------------- staff

    def do_mod(self):
        """<name>=<condition>, <name>=!<condition>, <name>=cover <level> (RNG-03)."""
        self.load()
        self.need_runner("set conditions")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage())
        c = self.combatant(self.lhs)
        cond = self.rhs.strip().lower()
        words = cond.split()
        if words and words[0] in COVER_WORDS:
            self.apply(it.SetCover(by=self.me(), actor=c.key,
                                   level=cover_level(" ".join(words[1:]))))
            return
        remove = cond.startswith(("!", "-"))
        name, turns = condition_turns(cond[1:] if remove else cond)
        self.apply(it.SetCondition(by=self.me(), actor=c.key, condition=name, remove=remove,
                                   turns=turns))

    def do_heal(self):
        """<name>=<levels> <type>: marks off the track by hand."""
        self.load()
        self.need_runner("heal by hand")
        if (self.rhs or "").strip().lower() == "revive" and self.lhs.strip():
            c = self.combatant(self.lhs)  # staff undo a death or torpor (HLT-05)
            self.apply(it.StaffHeal(by=self.me(), actor=c.key, revive=True))
            return
        parts = (self.rhs or "").split()
        if not self.lhs.strip() or len(parts) != 2 or not parts[0].isdecimal():
            # This switch's usage, not the whole command's (start, join, init ... lines).
            raise InputError("Usage: +combat/heal <name>=<levels> <type> (levels 1 or more), "
                             "e.g. +combat/heal Bob=2 lethal; staff undo a death: "
                             "+combat/heal Bob=revive")
        c = self.combatant(self.lhs)
        self.apply(it.StaffHeal(by=self.me(), actor=c.key, levels=int(parts[0]),
                                damage_type=parts[1]))

    def do_recover(self):
        """<name>=<type> [freehold||dreaming] [chimerical] [rested]: healing by the clock
        (HLT-09, HEAL-01/03/07), one level, with the time it takes and the care it needs."""
        self.load()
        self.need_runner("mark healing by time")
        words = (self.rhs or "").lower().split()
        usage = ("Mark healing by time as: +combat/recover <name>=<type> [freehold|dreaming] "
                 "[chimerical] [rested] [<n>], e.g. +combat/recover Bob=lethal")
        if not self.lhs.strip() or not words:
            raise InputError(usage)
        c = self.combatant(self.lhs)
        kind, opts = words[0], words[1:]
        place, chimerical, rested, levels = "mundane", False, False, 1
        for w in opts:
            if w in ("freehold", "glade", "dreaming", "mundane"):
                place = "freehold" if w == "glade" else w
            elif w == "chimerical":
                chimerical = True
            elif w == "rested":
                rested = True
            elif w.isdecimal() and int(w) >= 1:
                levels = int(w)
            else:
                raise InputError(f"'{w}' is not an option here. " + usage)
        self.apply(it.Recover(by=self.me(), actor=c.key, damage_type=kind, place=place,
                              chimerical=chimerical, rested=rested, levels=levels))
