"""+sheet: show and edit World of Darkness character sheets."""

from __future__ import annotations

from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.core.sheet import HARM_KINDS
from wodcombat.combat.trait_maximum import maximum_reading, newly_over_maximum
from wodcombat.world.text_width import wrap

from .base import WodCommand
from .reader_text import sheet_lines
from .render import sheet_text


class CmdSheet(WodCommand):
    """
    Show or edit a character sheet.

    Usage:
      +sheet [<name>]
      +sheet/set <trait>=<value>
      +sheet/set <name>/<trait>=<value>
      +sheet/set/force [<name>/]<trait>=<value>
      +sheet/spec <ability>=<specialty>
      +sheet/approve <name>
      +sheet/unapprove <name>
      +sheet/equip [<name>/]<weapon>
      +sheet/unequip [<name>/]<weapon>
      +sheet/armor [<name>/]<armor||none>
      +sheet/heal <name>=<levels> <bashing||lethal||aggravated>
      +sheet/revive <name>

    Switches:
      set       - set a trait, pool or identity field on your own sheet while it
                  is unapproved (staff: on anyone, as <name>/<trait>=<value>);
                  splat=werewolf, kindred, garou ... are understood. A rating
                  stops at the ruleset's maximum (a vampire's by generation);
                  the refusal names it
      force     - staff: with /set, go past that maximum (the reply says so)
      spec      - set a specialty (empty text clears it): +sheet/spec brawl=Kicks
      approve   - staff: lock a sheet against its owner's edits
      unapprove - staff: unlock it again
      equip     - carry a weapon from the ruleset's weapons table (+combat attacks
                  "with" it; the first one carried is the one in hand)
      unequip   - stop carrying it
      armor     - wear armor from the armor table, or none
                  Gear changes in play, so it is allowed on an approved sheet.
      heal      - staff: heal levels outside a fight (logged); spotlight Harm
                  with <n> superficial harm or <n> aggravated harm
      revive    - staff: undo a death or torpor kept on the sheet (logged)

    Traits are the attributes, abilities, powers and merits of the ruleset in
    force: the one of the fight running in your room, else the game's default
    (+rules shows it). Pools take <current>/<permanent> or one number for both.
    Identity fields: splat, race, breed, form, generation.

    Under the spotlight ruleset (in a room with a spotlight fight, or a spotlight
    game), a vampire has Blood Potency and Hunger instead of a blood pool:
    +sheet/set blood potency=2 (also bp=2, potency=2) and +sheet/set hunger=2.
    There bp= means Blood Potency, as in +combat/npc; elsewhere bp= is the
    Blood pool. Blood Potency sets HP and Final Death (6 HP at 0-1, 9 at 2 ...)
    and can be the initiative trait; Hunger is how many Hunger dice you roll.

    Examples:
      +sheet
      +sheet/set dexterity=3
      +sheet/set splat=vampire
      +sheet/set willpower=4/6
      +sheet/set race=Garou
      +sheet/set Bob/strength=4
      +sheet/set/force Bob/strength=7
      +sheet/set Alice/blood potency=2
      +sheet/set hunger=2
      +sheet/approve Bob
      +sheet/equip knife
      +sheet/equip Pistol, heavy
      +sheet/armor kevlar vest
      +sheet/armor none
      +sheet/equip Bob/club
    """

    key = "+sheet"
    aliases = ["sheet"]
    wod_switches = ("set", "spec", "approve", "unapprove", "equip", "unequip", "armor",
                    "heal", "revive")
    # +sheet/set/force: staff set a rating past the ruleset's maximum (issue 28)
    flag_switches = ("force",)
    flag_takers = ("set",)

    def do_default(self):
        target = self.find_character(self.args) if self.args.strip() else self.caller
        if (
            target != self.caller
            and not self.is_staff()
            and target.location != self.caller.location
        ):
            raise IllegalAction(
                "You can look at sheets of characters in the same room; staff can look at anyone's."
            )
        if self.reads_aloud():
            self.msg("\n".join(sheet_lines(target.key, target.sheet.get(), self.ruleset_here())))
            return
        self.msg(sheet_text(target.key, target.sheet.get(), self.ruleset_here()))

    def _target_and_trait(self, verb: str):
        if not self.rhs and "=" not in self.args:
            raise InputError(
                f"Usage: +sheet/{verb} <trait>=<value>, e.g. +sheet/{verb} "
                f"{'dexterity=3' if verb == 'set' else 'brawl=Kicks'}"
            )
        lhs = self.lhs.strip()
        if "/" in lhs:
            name, _, trait = lhs.partition("/")
            target = self.find_character(name)
        else:
            target, trait = self.caller, lhs
        if target != self.caller and not self.is_staff():
            raise IllegalAction("You can only edit your own sheet; staff edit others'.")
        sheet = target.sheet.get()
        if sheet.approved and not self.is_staff():
            raise IllegalAction(
                "Your sheet is approved and locked. Ask staff to change it "
                "(or to +sheet/unapprove it)."
            )
        return target, sheet, trait.strip()

    def do_set(self):
        target, sheet, trait = self._target_and_trait("set")
        rules = self.ruleset_here()
        new, what = sheet.set(rules.traits, trait, self.rhs or "")
        over = newly_over_maximum(sheet, new, rules)
        forced = "force" in self.switch_flags
        if forced and not self.is_staff():
            raise IllegalAction("Only staff set a rating past its maximum (/force).")
        if over and not forced:
            raise InputError("\n".join(wrap(self._over_maximum(over[0], rules))))
        target.sheet.save(new)
        whose = "Your" if target == self.caller else f"{target.key}'s"
        note = "".join(f" ({canon} {value} forced past the maximum of {top} for {who})"
                       for canon, value, top, who in over)
        self.msg("\n".join(wrap(f"{whose} {what}{note}.")))

    def _over_maximum(self, over: tuple[str, int, int, str], rules) -> str:
        """Issue 28: a rating above the ruleset's maximum, what to type instead, and that
        staff may force it."""
        canon, value, top, who = over
        typed = f"{self.lhs.strip()}={(self.rhs or '').strip()}"
        prefix = self.lhs.strip().rpartition("/")[0]
        lower = f"+sheet/set {prefix + '/' if prefix else ''}{canon.lower()}={top}"
        return (f"{canon} {value} would be above the maximum of {top} for {who} "
                f"({maximum_reading(rules)}). Type {lower} instead; staff may go past "
                f"it with +sheet/set/force {typed}.")

    def do_spec(self):
        target, sheet, trait = self._target_and_trait("spec")
        new, what = sheet.set_specialty(self.ruleset_here().traits, trait, self.rhs or "")
        target.sheet.save(new)
        whose = "Your" if target == self.caller else f"{target.key}'s"
        self.msg(f"{whose} {what}.")

    def _approval(self, approved: bool):
        if not self.is_staff():
            raise IllegalAction("Only staff approve sheets.")
        if not self.args.strip():
            raise InputError(f"Usage: +sheet/{'approve' if approved else 'unapprove'} <name>")
        target = self.find_character(self.args)
        from dataclasses import replace

        target.sheet.save(replace(target.sheet.get(), approved=approved))
        state = "approved and locked" if approved else "unlocked for edits"
        self.msg(f"{target.key}'s sheet is {state}.")
        if target != self.caller:
            target.msg(f"Your sheet was {state} by {self.caller.key}.")

    def do_approve(self):
        self._approval(True)

    def do_unapprove(self):
        self._approval(False)

    # ---------------------------------------------------------------- gear

    def _gear_target(self, verb: str):
        text = self.args.strip()
        if not text:
            what = "armor|none" if verb == "armor" else "weapon"
            raise InputError(f"Usage: +sheet/{verb} [<name>/]<{what}>")
        if "/" in text:
            name, _, item = text.partition("/")
            target = self.find_character(name)
        else:
            target, item = self.caller, text
        if target != self.caller and not self.is_staff():
            raise IllegalAction("You can only change your own gear; staff change others'.")
        if not item.strip():
            raise InputError(f"Usage: +sheet/{verb} [<name>/]<item>")
        return target, target.sheet.get(), item.strip()

    def _says(self, target, verb: str) -> str:
        """'You carry' to oneself, 'Rat2 carries' about someone else (the verb agrees)."""
        if target == self.caller:
            return f"You {verb}"
        return f"{target.key} {verb[:-1] + 'ies' if verb.endswith('y') else verb + 's'}"

    def do_equip(self):
        from wodcombat.combat.core.maneuvers import tables

        target, sheet, item = self._gear_target("equip")
        weapon = tables(self.ruleset_here()).weapon(item).name
        if weapon.lower() in (w.lower() for w in sheet.weapons):
            raise IllegalAction(f"{self._says(target, 'already carry')} the {weapon}.")
        from dataclasses import replace

        target.sheet.save(replace(sheet, weapons=sheet.weapons + (weapon,)))
        self.msg(f"{self._says(target, 'now carry')}: {', '.join(sheet.weapons + (weapon,))}.")

    def do_unequip(self):
        from wodcombat.combat.core.maneuvers import tables

        target, sheet, item = self._gear_target("unequip")
        low = item.lower()
        keep = [w for w in sheet.weapons if w.lower() != low]
        if len(keep) == len(sheet.weapons):
            try:
                name = tables(self.ruleset_here()).weapon(item).name
            except InputError:
                name = item
            keep = [w for w in sheet.weapons if w.lower() != name.lower()]
            if len(keep) == len(sheet.weapons):
                have = ", ".join(sheet.weapons) or "nothing"
                raise InputError(f"{self._says(target, 'carry')} no {item} (carried: {have}).")
        from dataclasses import replace

        target.sheet.save(replace(sheet, weapons=tuple(keep)))
        self.msg(f"{self._says(target, 'now carry')}: {', '.join(keep) or 'no weapons'}.")

    def do_armor(self):
        from wodcombat.combat.core.maneuvers import tables

        target, sheet, item = self._gear_target("armor")
        name = "" if item.lower() in ("none", "off", "-") else tables(self.ruleset_here()).armor(
            item).name
        from dataclasses import replace

        target.sheet.save(replace(sheet, armor=name))
        self.msg(f"{self._says(target, 'now wear')}: {name or 'no armor'}.")

    # ---------------------------------------------------------------- life and death

    def _staff_target(self, verb: str, usage: str):
        """Staff only; a character in a running fight is healed through the fight, so the
        fight and the sheet agree."""
        if not self.is_staff():
            raise IllegalAction(f"Only staff {verb} characters by hand.")
        name = (self.lhs if self.rhs is not None else self.args).strip()
        if not name:
            raise InputError(usage)
        target = self.find_character(name)
        from wodcombat.typeclasses.combat_guard import combat_of, where

        fight = combat_of(f"#{target.id}")
        if fight is not None:
            what = "revive" if verb == "revive" else "<levels> <type>"
            raise IllegalAction(f"{target.key} is in a fight in {where(fight)}: there, use "
                                f"+combat/heal {target.key}={what}")
        return target

    def _logged(self, target, done: str, told: str) -> None:
        """Say it to the staffer and the character, and keep it in the server log."""
        from evennia.utils import logger

        logger.log_info(f"+sheet/{self.switches[0].lower()} by {self.caller.key} "
                        f"(#{self.caller.id}) on {target.key} (#{target.id}): {done}")
        self.msg(done)
        if target != self.caller:
            target.msg(told)

    def do_heal(self):
        """Staff: <name>=<levels> <type>, outside a fight (HLT-09 healing by hand)."""
        from wodcombat.combat.core.health import DAMAGE_TYPES

        usage = ("Usage: +sheet/heal <name>=<levels> <bashing|lethal|aggravated>, or "
                 "spotlight Harm: <name>=<points> <superficial|aggravated> harm")
        target = self._staff_target("heal", usage)
        words = (self.rhs or "").lower().split()
        if len(words) not in (2, 3) or not words[0].isdecimal() or int(words[0]) < 1:
            raise InputError(usage + ", e.g. +sheet/heal Bob=2 lethal")
        sheet = target.sheet.get()
        if sheet.fate == "dead":
            raise IllegalAction(f"{target.key} is dead: healing does not bring the dead "
                                f"back. Undo the death first: +sheet/revive {target.key}")
        kind = [w for w in words[1:] if w != "harm"]
        if len(kind) != 1:
            raise InputError(usage + ", e.g. +sheet/heal Bob=2 aggravated harm")
        if "harm" in words or kind == ["superficial"]:  # spotlight's Harm, not the d10 track
            if kind[0] not in HARM_KINDS:
                raise InputError(f"Harm is superficial or aggravated, not '{kind[0]}'.")
            return self._heal_harm(target, sheet, int(words[0]), kind[0])
        hits = [k for k in DAMAGE_TYPES if k.startswith(kind[0])]
        if len(hits) != 1:
            raise InputError(f"'{kind[0]}' is not a damage type: {', '.join(DAMAGE_TYPES)}, "
                             f"or superficial harm / aggravated harm (spotlight).")
        section = self.ruleset_here().section("health")
        before = sheet.track(section)
        after = before.heal(hits[0], int(words[0]))
        target.sheet.save(sheet.with_health(after))
        change = (f"{before.damage - after.damage} {hits[0]}: {before.level_name} -> "
                  f"{after.level_name}")
        self._logged(target, f"{target.key} heals {change}.",
                     f"{self.caller.key} heals you {change}.")

    def _heal_harm(self, target, sheet, points: int, kind: str) -> None:
        """Spotlight Harm (SPOT-13) is kept on the sheet apart from the d10 track: staff heal
        it by hand too, or a character left at 0 HP after a fight could never fight again."""
        had = {k: sheet.harm.get(k, 0) for k in HARM_KINDS}
        left = dict(had, **{kind: max(0, had[kind] - points)})
        target.sheet.save(sheet.with_harm(left["superficial"], left["aggravated"]))
        change = f"{had[kind] - left[kind]} {kind} Harm: {had[kind]} -> {left[kind]}"
        self._logged(target, f"{target.key} heals {change}.",
                     f"{self.caller.key} heals you {change}.")

    def do_revive(self):
        """Staff: undo a death or torpor kept on the sheet (a story decision)."""
        target = self._staff_target("revive", "Usage: +sheet/revive <name>")
        sheet = target.sheet.get()
        if not sheet.fate:
            raise IllegalAction(f"{target.key} is neither dead nor in torpor.")
        from dataclasses import replace

        target.sheet.save(replace(sheet, fate=""))
        was = "death" if sheet.fate == "dead" else sheet.fate
        self._logged(target, f"{target.key}'s {was} is undone; the wounds stay "
                             f"(+sheet/heal {target.key}=<levels> <type>).",
                     f"{self.caller.key} undoes your {was}: you can act again.")
