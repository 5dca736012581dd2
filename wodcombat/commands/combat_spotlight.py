"""The switches of a spotlight fight (seed 004, SPOT-01..14): the turn's move, free action
and end, the Storyteller's tools, and the text of ``+combat/act``.

Each parses text into an intent for the combat service; a d10 fight's engine refuses the
spotlight-only intents with what to type there instead.
"""

from __future__ import annotations

from wodcombat.combat.spotlight import moves as spotlight_moves
from wodcombat.combat.core import intents as it
from wodcombat.combat.core.errors import IllegalAction, InputError

from .combat_declare import split_words

VERBS = ("attack", "bite", "grapple")
POWER = "power"  # +combat/act power <power> [on <target>]: a Discipline Power (SPOT-07)


class SpotlightSwitches:
    """Mixed into ``CmdCombat`` (its ``load``, ``actor``, ``combatant``, ``apply``)."""

    def split_npc(self) -> tuple[str | None, str]:
        """``<npc>=<rest>`` or ``<rest>``."""
        if self.rhs is not None and "=" in self.args:
            return self.lhs.strip(), self.args.split("=", 1)[1].strip()
        return None, self.args.strip()

    def _is_combatant(self, text: str) -> bool:
        try:
            self.combatant(text)
            return True
        except InputError:
            return False

    def act_words(self) -> tuple[str | None, dict | None]:
        """(who, what): ``[<npc>=][attack|bite <target> [with <weapon>]|<what>]``; a bare
        name is who acts, nothing at all is the declared (d10) or plain (spotlight) act."""
        who, text = self.split_npc()
        words = text.split()
        moves = spotlight_moves.names(self.rs)  # issue 31: none but under the moves reading
        if who is None:
            at = next((i for i, w in enumerate(words) if w.lower() in VERBS
                       or (w.lower() == POWER and self._power_at(words, i))), None)
            if at is None and moves:  # "<npc> <move> ...": a move after an NPC's name
                at = next((i for i, w in enumerate(words) if w.lower() in moves and (
                    i == 0 or self._is_combatant(" ".join(words[:i])))), None)
            if at is not None:
                who, words = " ".join(words[:at]) or None, words[at:]
            elif words and self._is_combatant(text):
                who, words = text, []
        if not words:
            return who, None
        if words[0].lower() == POWER:
            power, target = split_words(" ".join(words[1:]), "on")
            action = {"kind": POWER, "power": power}
            if target:
                action["target"] = self.combatant(target).key
            return who, action
        if words[0].lower() in moves:
            return who, self.move_words(words)
        if words[0].lower() not in VERBS:
            return who, {"kind": "other", "text": " ".join(words)}
        target, weapon = split_words(" ".join(words[1:]), "with")
        if not target:
            raise InputError("Attack whom? +combat/act attack <target> [with <weapon>].")
        action = {"kind": words[0].lower(), "target": self.combatant(target).key}
        if weapon:
            action["weapon"] = weapon.strip().lower()
        return who, action

    def _power_at(self, words, at: int) -> bool:
        """'power' opens a power's use first, or after the name of whoever uses it; in
        other words it is just a word of what is done ('act draws on the power of ...')."""
        return at == 0 or self._is_combatant(" ".join(words[:at]))

    def move_words(self, words: list[str]) -> dict:
        """``<move> [<target>] [with <weapon>]`` (the moves reading): the rest names a
        combatant, else it is what the character does, in words."""
        target, weapon = split_words(" ".join(words[1:]), "with")
        action = {"kind": words[0].lower()}
        if weapon:
            action["weapon"] = weapon.strip().lower()
        if target and self._is_combatant(target):
            action["target"] = self.combatant(target).key
        elif target:
            action["text"] = target.strip()
        return action

    def do_cost(self):
        """The moves reading: the organizer names the cost a 7-9 owes (issue 31)."""
        self.load()
        self.need_runner("name a cost")
        if not self.rhs or not self.lhs.strip():
            raise InputError("+combat/cost <name>=<cost>, or =<number> for one the move "
                             "lists, e.g. +combat/cost Bob=1.")
        c = self.combatant(self.lhs)
        self.apply(it.NameCost(by=self.me(), actor=c.key, text=self.rhs.strip()))

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
        self.apply(it.Move(by=self.me(), actor=c.key, other=t.key, direction=direction))

    def do_free(self):
        self.load()
        who, text = self.split_npc()
        self.apply(it.Free(by=self.me(), actor=self.actor(who).key, text=text))

    def do_done(self):
        self.load()
        self.apply(it.Done(by=self.me(), actor=self.actor(self.args).key))

    def do_swap(self):
        """SPOT-03: tied PCs settle who goes first."""
        self.load()
        if not self.rhs or not self.lhs.strip():
            raise InputError("+combat/swap <goes first>=<goes second>, for tied PCs.")
        a, b = self.combatant(self.lhs), self.combatant(self.rhs)
        if self.me() not in (a.key, b.key) and not self.can_run():
            raise IllegalAction("Only the tied players (or the organizer) settle their order.")
        self.apply(it.Swap(by=self.me(), actor=a.key, other=b.key))

    def do_ambush(self):
        """SPOT-08: one side gets the drop."""
        self.load()
        self.need_runner("declare an ambush")
        self.apply(it.Ambush(by=self.me(), side=self.args.strip()))

    def do_event(self):
        """SPOT-09: an environment event between turns."""
        self.load()
        self.need_runner("post environment events")
        self.apply(it.Narrate(by=self.me(), text=self.args.strip()))

    def do_range(self):
        """SPOT-10: the Storyteller places two combatants at a band."""
        self.load()
        self.need_runner("set ranges")
        left, slash, right = (self.lhs or "").partition("/")
        if self.rhs and not slash and left.strip().lower() in ("all", "everyone"):
            self.apply(it.SetRange(by=self.me(), actor="*", band=self.rhs.strip()))
            return
        if not slash or not self.rhs:
            raise InputError("+combat/range <a>/<b>=<range>, e.g. +combat/range Bob/Thug=Far, "
                             "or everyone at once: +combat/range all=Hand.")
        a, b = self.combatant(left), self.combatant(right)
        self.apply(it.SetRange(by=self.me(), actor=a.key, other=b.key, band=self.rhs.strip()))

    def do_stake(self):
        """SPOT-12: a staked vampire is incapacitated at once."""
        self.load()
        self.need_runner("stake someone")
        self.apply(it.Stake(by=self.me(), actor=self.combatant(self.args).key))

    def do_unstake(self):
        self.load()
        self.need_runner("pull a stake")
        self.apply(it.Stake(by=self.me(), actor=self.combatant(self.args).key, remove=True))

    def do_feed(self):
        """SPOT-14: blood that slakes <n> Hunger revives a vampire in torpor next round."""
        self.load()
        if self.state.get(self.me()) is None and not self.can_run():
            raise IllegalAction("You are not in this fight: +combat/join first.")
        amount = (self.rhs or "").strip()
        if not self.lhs.strip() or not amount.isdecimal():
            raise InputError("+combat/feed <name>=<hunger slaked>, e.g. +combat/feed Bob=2.")
        c = self.combatant(self.lhs)
        self.apply(it.Feed(by=self.me(), actor=c.key, slaked=int(amount)))

    def do_reroll(self):
        """V5 Willpower reroll: ``[<npc>=]<die>[,<die>...]``, the attack's dice that are not
        Hunger dice, counted from the left as shown."""
        self.load()
        who, text = self.split_npc()
        words = text.replace(",", " ").split()
        if not words or not all(w.isdecimal() for w in words):
            raise InputError("+combat/reroll <die>[,<die>...]: up to three of your last "
                             "attack's dice that are not Hunger dice, counted from the left "
                             "as shown, e.g. +combat/reroll 1,3 (an NPC: "
                             "+combat/reroll <npc>=1,3).")
        last = getattr(self.state, "last_roll", None)
        if who is None and last and (last["actor"] == self.me() or self.can_run()):
            who = self.state.find(last["actor"]).name  # the roll open to a reroll
        c = self.actor(who)
        self.apply(it.Reroll(by=self.me(), actor=c.key, dice=tuple(int(w) for w in words)))
