"""+sheet: show and edit World of Darkness character sheets."""

from __future__ import annotations

from combat.errors import IllegalAction, InputError
from world import rulebook

from .base import WodCommand
from .render import sheet_text


class CmdSheet(WodCommand):
    """
    Show or edit a character sheet.

    Usage:
      +sheet [<name>]
      +sheet/set <trait>=<value>
      +sheet/set <name>/<trait>=<value>
      +sheet/spec <ability>=<specialty>
      +sheet/approve <name>
      +sheet/unapprove <name>
      +sheet/equip [<name>/]<weapon>
      +sheet/unequip [<name>/]<weapon>
      +sheet/armor [<name>/]<armor||none>

    Switches:
      set       - set a trait, pool or identity field on your own sheet while it
                  is unapproved (staff: on anyone, as <name>/<trait>=<value>);
                  splat=werewolf, kindred, garou ... are understood
      spec      - set a specialty (empty text clears it): +sheet/spec brawl=Kicks
      approve   - staff: lock a sheet against its owner's edits
      unapprove - staff: unlock it again
      equip     - carry a weapon from the ruleset's weapons table (+combat attacks
                  "with" it; the first one carried is the one in hand)
      unequip   - stop carrying it
      armor     - wear armor from the armor table, or none
                  Gear changes in play, so it is allowed on an approved sheet.

    Traits are the attributes, abilities, powers and merits of the active ruleset
    (+rules shows which). Pools take <current>/<permanent> or one number for both.
    Identity fields: splat, race, breed, form, generation.

    Examples:
      +sheet
      +sheet/set dexterity=3
      +sheet/set splat=vampire
      +sheet/set willpower=4/6
      +sheet/set race=Garou
      +sheet/set Bob/strength=4
      +sheet/approve Bob
      +sheet/equip knife
      +sheet/equip Pistol, heavy
      +sheet/armor kevlar vest
      +sheet/armor none
      +sheet/equip Bob/club
    """

    key = "+sheet"
    aliases = ["sheet"]
    wod_switches = ("set", "spec", "approve", "unapprove", "equip", "unequip", "armor")

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
        self.msg(sheet_text(target.key, target.sheet.get(), rulebook.get()))

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
        new, what = sheet.set(rulebook.get().traits, trait, self.rhs or "")
        target.sheet.save(new)
        whose = "Your" if target == self.caller else f"{target.key}'s"
        self.msg(f"{whose} {what}.")

    def do_spec(self):
        target, sheet, trait = self._target_and_trait("spec")
        new, what = sheet.set_specialty(rulebook.get().traits, trait, self.rhs or "")
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
        from combat.maneuvers import tables

        target, sheet, item = self._gear_target("equip")
        weapon = tables(rulebook.get()).weapon(item).name
        if weapon.lower() in (w.lower() for w in sheet.weapons):
            raise IllegalAction(f"{self._says(target, 'already carry')} the {weapon}.")
        from dataclasses import replace

        target.sheet.save(replace(sheet, weapons=sheet.weapons + (weapon,)))
        self.msg(f"{self._says(target, 'now carry')}: {', '.join(sheet.weapons + (weapon,))}.")

    def do_unequip(self):
        from combat.maneuvers import tables

        target, sheet, item = self._gear_target("unequip")
        low = item.lower()
        keep = [w for w in sheet.weapons if w.lower() != low]
        if len(keep) == len(sheet.weapons):
            try:
                name = tables(rulebook.get()).weapon(item).name
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
        from combat.maneuvers import tables

        target, sheet, item = self._gear_target("armor")
        name = "" if item.lower() in ("none", "off", "-") else tables(rulebook.get()).armor(
            item).name
        from dataclasses import replace

        target.sheet.save(replace(sheet, armor=name))
        self.msg(f"{self._says(target, 'now wear')}: {name or 'no armor'}.")
