"""+rules: which rules are in force, and (admins) check or reload the YAML."""

from __future__ import annotations

from wodcombat.combat.rules.catalog import statement
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.world import rulebook
from wodcombat.world.spotlight_text import resolution_text
from wodcombat.world.text_width import wrap

from .base import WodCommand
from .render import header, rule


def _short(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return str(value)


VALUE_LINE = 77  # columns of a statement's value line: inside an 80-column client


def _value_line(text: str, where: str) -> str:
    """``path = value`` and the file:line it comes from, on one line: the file whole (an
    admin opens it; a cut name cannot be found), the value cut with "..." to make room."""
    room = max(20, VALUE_LINE - 11 - len(where))
    if len(text) > room:
        text = text[: room - 3] + "..."
    return f"          {text:<{room}} |x{where}|n"


class CmdRules(WodCommand):
    """
    Show the rules in force; admins check and reload the rules files.

    Usage:
      +rules
      +rules <ruleset>[=<rule ID prefix>]
      +rules/list
      +rules/check
      +rules/reload
      +rules/weapons [<ruleset>]
      +rules/armor [<ruleset>]

    +rules <ruleset> lists every catalog rule that ruleset has: where it comes
    from (its own seed, a book rule the shared core carries, with the page, or
    this game's own), this game's reading where the seed is silent or open,
    and the table values that carry it, with their file and line. Add
    =<prefix> to see one family (=DMG, =CLOSE).

    Switches:
      list    - every installed ruleset with its parent
      weapons - what you can carry (+sheet/equip <weapon>), with damage, range,
                rate of fire, clip and concealment
      armor   - what you can wear (+sheet/armor <armor>), with its rating and its
                penalty to Dexterity rolls
      check   - admin: validate the files, change nothing, report every error
      reload  - admin: apply the files if all of them are valid; otherwise keep
                the running rules and report every error

    Examples:
      +rules
      +rules everyman=DMG
      +rules/weapons
      +rules/armor revised
      +rules/check
    """

    key = "+rules"
    shows_rule_ids = True
    aliases = ["rules"]
    wod_switches = ("list", "check", "reload", "weapons", "armor")

    def do_default(self):
        if self.args.strip():
            return self._statement()
        ruleset = rulebook.get()
        lines = [
            header("Rules"),
            f" Default ruleset: |w{ruleset.name}|n"
            + (f" (extends {ruleset.parent})" if ruleset.parent else ""),
            f" {ruleset.description}",
            f" Rules folder: {rulebook.rules_dir()}",
        ]
        folders: dict[str, list[str]] = {}
        for path in ruleset.files:
            folder, _, name = path.rpartition("/")
            folders.setdefault(folder, []).append(name)
        lines += [f" Files in {folder}/: " + ", ".join(names) for folder, names in folders.items()]
        d = ruleset.dice
        lines.append(
            f" Dice: d{d.sides}, base difficulty {d.base_difficulty}, difficulty "
            f"{d.min_difficulty}-{d.max_difficulty}, ones cancel: "
            f"{'yes' if d.ones_cancel else 'no'}, specialty 10s double: "
            f"{'yes' if d.specialty_doubles_tens else 'no'}"
        )
        lines.append(" See +rules/list for every ruleset, +rules <ruleset> for its rules.")
        self.msg("\n".join(lines))

    def _statement(self):
        name, _, prefix = self.args.partition("=")
        rs = rulebook.library().get(name, bases=True)
        prefix = prefix.strip().upper()
        lines = [header(f"Rules: {rs.name}")]
        if rs.parent:
            lines.append(f" Extends {rs.parent}.")
        off = (rs.section("ruleset") or {}).get("switch_off") or ()
        if off:
            lines += wrap(" Switched off from " + (rs.parent or "") + ": " + ", ".join(off))
        if rs.section("spotlight"):  # issue 31: the reading of an action in force
            where = rs.origin.get(("spotlight", "resolution"))
            lines += wrap(" Actions resolve as " + resolution_text(rs)
                          + (f" (spotlight.resolution, {where[0].removeprefix('rules/')}; "
                             f"the other reading: help +combat/spotlight)" if where else ""),
                          indent=3)
        shown = [r for r in statement(rs) if r.id.startswith(prefix)]
        if not shown:
            raise InputError(f"{rs.name} has no rule starting '{prefix}'. Try =DMG or =CLOSE, "
                             f"or +rules {rs.name} for all of them.")
        for r in shown:
            source = (f"seed {r.seed}" if r.seed else f"this game's own: {r.game}" if r.game
                      else f"carried from the core: {r.book}")
            if r.seed and r.book:
                source += f"; also {r.book}"
            lines += wrap(f" |w{r.id:<9}|n{source}", indent=10)
            if r.note:  # a READING: this game's choice where the seed is silent or open
                lines += wrap(f"          This game's reading: {r.note}", indent=10)
            for path, value, where in r.values:
                lines.append(_value_line(f"{path} = {_short(value)}",
                                         where.removeprefix("rules/")))
        carried = sum(1 for r in shown if r.carried)
        game = sum(1 for r in shown if r.game and not r.seed)
        lines.append(rule())
        lines += wrap(f" {len(shown)} rule{'' if len(shown) == 1 else 's'}; "
                      f"{len(shown) - carried - game} from {rs.name}'s own document, {carried} "
                      f"carried by the core" + (f", {game} this game's own." if game else "."))
        self.msg("\n".join(lines))

    def _tables(self):
        from wodcombat.combat.core.maneuvers import tables

        name = self.args.strip() or None
        rs = rulebook.get(name)
        return rs, tables(rs)

    def do_weapons(self):
        rs, t = self._tables()
        lines = [header(f"Weapons: {rs.name}"),
                 f" {'Weapon':<20} {'Damage':<9} {'Type':<10} {'Kind':<8} {'Range':>5} "
                 f"{'Rate':>4} {'Clip':>4} {'Hide':>4}"]
        for w in sorted(t.weapons.values(), key=lambda w: (w.kind, w.name)):
            d = w.damage
            dmg = {"str": "Str", "weapon": "weapon", "fixed": str(d.bonus),
                   "none": "none"}[d.base]
            if d.base in ("str", "weapon") and d.bonus:
                dmg += f"{d.bonus:+d}"
            rng = str(w.range) if w.range else "-"
            clip = str(w.clip) if w.clip else "-"
            lines.append(f" {w.name[:20]:<20} {dmg:<9} {w.type:<10} {w.kind:<8} {rng:>5} "
                         f"{w.rate:>4} {clip:>4} {w.conceal or '-':>4}")
        lines.append(" Carry one: +sheet/equip <weapon>. Range in yards; Hide: P pocket, "
                     "J jacket,")
        lines.append(" T trenchcoat, N cannot be hidden.")
        self.msg("\n".join(lines))

    def do_armor(self):
        rs, t = self._tables()
        lines = [header(f"Armor: {rs.name}"),
                 f" {'Armor':<28} {'Rating':>6} {'Penalty':>7}  Covers"]
        for a in sorted(t.armors.values(), key=lambda a: (a.shield, a.rating, a.name)):
            covers = "shield" if a.shield else (", ".join(a.covers) or "body")
            lines.append(f" {a.name[:28]:<28} {a.rating:>6} {a.penalty:>7}  {covers[:33]}")
        lines.append(" Wear one: +sheet/armor <armor>. The rating adds to soak; the penalty "
                     "is taken")
        lines.append(" from Dexterity rolls.")
        self.msg("\n".join(lines))

    def do_list(self):
        lib = rulebook.library()
        lines = [header("Rulesets")]
        for name, rs in sorted(lib.rulesets.items()):
            mark = " |g(default)|n" if name == rulebook.default_name() else ""
            parent = f"extends {rs.parent}" if rs.parent else "root"
            parent += " (base)" if rs.is_base else ""
            # The description wraps under itself, never cut (issue 11).
            lines += wrap(f" |w{name:<12}|n {parent:<18} {rs.description}{mark}", indent=33)
        for name, issues in sorted(lib.refused.items()):
            lines.append(f" |r{name:<12} refused: {len(issues)} error(s)|n (+rules/check)")
        self.msg("\n".join(lines))

    def _report(self, lib, title: str) -> list[str]:
        lines = [header(title)]
        lines.append(f" Valid: {', '.join(sorted(lib.rulesets)) or 'none'}")
        if lib.refused:
            lines.append(rule("Errors"))
            lines += [f" |r{issue}|n" for issue in lib.issues]
            if lib.broken_parent:
                lines += wrap(" Refused because the ruleset they extend has errors: "
                              + ", ".join(f"{c} (extends {p})" for c, p
                                          in sorted(lib.broken_parent.items())) + ".")
        default = rulebook.default_name()
        if default not in lib.rulesets and default not in lib.refused:
            # Otherwise a reload refused with no error listed at all.
            lines.append(
                f" |rThe default ruleset '{default}' has no folder in {lib.root}|n "
                "(settings.WODCOMBAT_DEFAULT_RULESET)."
            )
        return lines

    def _admin(self):
        if not self.is_admin():
            raise IllegalAction("Only admins check and reload the rules files.")

    def do_check(self):
        self._admin()
        lib = rulebook.check()
        lines = self._report(lib, "Rules check")
        lines.append(
            " All rules files are valid."
            if not lib.refused and rulebook.default_name() in lib.rulesets
            else f" {len(lib.issues)} error(s); nothing was changed."
        )
        self.msg("\n".join(lines))

    def do_reload(self):
        self._admin()
        lib, applied = rulebook.reload()
        lines = self._report(lib, "Rules reload")
        lines.append(
            " Reloaded: new combats and rolls use these files; running combats keep "
            "the rules they started with."
            if applied
            else " |rNot reloaded|n: the running rules stay. Fix the errors above and "
            "+rules/reload again."
        )
        self.msg("\n".join(lines))
