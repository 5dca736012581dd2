"""+roll: a d10 pool from traits and numbers, shown to the room with every die."""

from __future__ import annotations

from dataclasses import replace

from wodcombat.combat.spotlight import dice as v5dice
from wodcombat.combat.spotlight import impairment as v5_impairment
from wodcombat.combat.core.dice import roll
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.core.rollexpr import evaluate, parse
from wodcombat.combat.core.pools import Modifier

from .base import WodCommand
from .render import roll_text, v5_roll_text


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

    Under the spotlight ruleset (a spotlight fight in the room, or a spotlight
    game) the dice are V5: every die of 6+ is a success, ones cancel nothing,
    each pair of 10s is a critical (4 successes); "vs <n>" is how many successes
    you need (1 unless given); a specialty adds a die; a vampire rolls as many
    Hunger dice as its Hunger, shown apart (a critical with a Hunger 10 is
    messy, a failure with a Hunger 1 is bestial). /wp is for d10 rulesets.

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
        ruleset = self.ruleset_here()
        sheet = self.caller.sheet.get()
        if sheet.fate:  # HLT-03..05: the dead and the torpid do not act
            raise IllegalAction(f"You are {sheet.fate_text} and cannot roll. Staff can undo "
                                f"it: +sheet/revive {self.caller.key}")
        expr = parse(self.args)
        if v5dice.uses_v5(ruleset):
            return self.v5(ruleset, sheet, expr)
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

    def v5(self, ruleset, sheet, expr):
        """V5 dice (issue 10): successes needed instead of a target number, Hunger dice."""
        if "wp" in self.flags:
            raise IllegalAction("V5 dice take no Willpower point here: +roll <pool> [vs <n>].")
        rules = v5dice.v5_rules(ruleset)
        needed = rules.default_difficulty if expr.difficulty is None else expr.difficulty
        if not 1 <= needed <= rules.max_difficulty:
            raise InputError(f"Under V5 dice 'vs <n>' is the successes needed, 1 to "
                             f"{rules.max_difficulty}; {needed} is outside that.")
        spec = evaluate(replace(expr, difficulty=None), sheet, ruleset,
                        action="reflex" not in self.flags)
        if "spec" in self.flags:  # V5: a specialty is one more die
            spec = spec.plus(Modifier("specialty", dice=1))
        # V5 Impairment (spotlight/dice.yaml): a full Harm track or no Willpower left
        spec = spec.plus(*(Modifier(label, dice=n) for label, n in
                           v5_impairment.sheet_terms(ruleset, sheet,
                                                     [t for t, _ in spec.terms])))
        hunger = v5dice.hunger_of(sheet, ruleset)
        result = v5dice.roll(spec.dice, hunger, self.rng, rules)
        text = v5_roll_text(self.caller.key, spec, result, needed,
                            result.successes >= needed)
        if "private" in self.flags or not self.caller.location:
            self.msg(f"|x(private)|n {text}")
        else:
            self.caller.location.msg_contents(text, from_obj=self.caller)
