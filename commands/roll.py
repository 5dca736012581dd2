"""+roll: a d10 pool from traits and numbers, shown to the room with every die."""

from __future__ import annotations

from combat.dice import roll
from combat.errors import IllegalAction
from combat.rollexpr import evaluate, parse
from world import rulebook

from .base import WodCommand
from .render import roll_text


class CmdRoll(WodCommand):
    """
    Roll a World of Darkness dice pool.

    Usage:
      +roll <expression> [vs <difficulty>]

    Switches:
      spec     - a specialty applies: each 10 counts as two successes
      wp       - spend a Willpower point: one automatic success (deducted)
      private  - only you see the result
      reflex   - a reflex roll (soak, abort ...): wound penalties do not apply

    The expression adds and subtracts traits and numbers. The difficulty is the
    ruleset's base (6) unless given. Wound penalties apply to action rolls.
    Switches combine: +roll/spec/wp dex+melee vs 7

    Examples:
      +roll dex+brawl vs 7
      +roll 6 vs 8
      +roll wits+3
      +roll/spec dex+firearms
      +roll/wp/private willpower vs 8
    """

    key = "+roll"
    aliases = ["roll"]
    wod_switches = ("spec", "wp", "private", "reflex")

    def func(self):
        # Switches here combine (/spec/wp), so they are flags, not a dispatch.
        flags = [self.expand_switch(s) for s in self.switches]
        if None in flags:
            self.bad_switch(self.switches[flags.index(None)])
            return
        self.flags = set(flags)
        self.switches = []
        super().func()

    def do_default(self):
        ruleset = rulebook.get()
        sheet = self.caller.sheet.get()
        if sheet.fate:  # HLT-03..05: the dead and the torpid do not act
            raise IllegalAction(f"You are {sheet.fate_text} and cannot roll. Staff can undo "
                                f"it: +sheet/revive {self.caller.key}")
        expr = parse(self.args)
        spec = evaluate(expr, sheet, ruleset, action="reflex" not in self.flags)
        spend = "wp" in self.flags
        new_sheet = sheet
        if spend:
            if "Willpower" not in sheet.pools:
                raise IllegalAction("Your sheet has no Willpower to spend.")
            new_sheet = sheet.spend("Willpower", 1)
        result = roll(
            spec.dice,
            spec.difficulty,
            self.rng,
            ruleset.dice,
            specialty="spec" in self.flags,
            willpower=spend,
        )
        if spend:
            self.caller.sheet.save(new_sheet)
        text = roll_text(self.caller.key, spec, result)
        if spend:
            text += f" |x(Willpower now {new_sheet.pools['Willpower'].current})|n"
        if "private" in self.flags or not self.caller.location:
            self.msg(f"|x(private)|n {text}")
        else:
            self.caller.location.msg_contents(text, from_obj=self.caller)
