"""``evennia wodcombat copy-rules <dir>`` and ``evennia wodcombat check [<dir>]``: the rules
from the shell (Evennia hands a command it does not know to Django's management commands).

``copy-rules`` copies the rules shipped with the package into a folder of the admin's, to
edit and then name in ``WODCOMBAT_RULES_DIR``; it never writes over a file already there.
``check`` reads a rules folder (default: the one the settings name) and prints every error
by file, line and key path, as ``+rules/check`` does in the game; it exits 1 if any ruleset
is refused or the default ruleset is missing, so a deploy script can stop on it.
"""

from __future__ import annotations

import os
import shutil

from django.core.management.base import BaseCommand, CommandError

from wodcombat import conf
from wodcombat.combat.rules.ruleset import load_library


class Command(BaseCommand):
    help = "World of Darkness combat: copy the shipped rules out, or check a rules folder."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        copy = sub.add_parser("copy-rules", help="copy the shipped rules into DIR to edit")
        copy.add_argument("dir")
        check = sub.add_parser("check", help="validate a rules folder (default: the one in "
                                             "WODCOMBAT_RULES_DIR)")
        check.add_argument("dir", nargs="?")

    def handle(self, *args, **options):
        try:
            if options["action"] == "copy-rules":
                self._copy(options["dir"])
            else:
                self._check(options["dir"])
        except conf.SettingError as err:
            raise CommandError(str(err)) from None

    def _copy(self, target: str) -> None:
        source = conf.DEFAULTS["WODCOMBAT_RULES_DIR"]
        target = os.path.abspath(target)
        clashes = [rel for rel in _files(source) if os.path.exists(os.path.join(target, rel))]
        if clashes:
            raise CommandError(f"{target} already holds {clashes[0]} (and {len(clashes) - 1} "
                               "more of the rules' files): nothing was copied. Name an empty "
                               "or new folder.")
        shutil.copytree(source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.pyc"))
        self.stdout.write(
            f"Copied the rules to {target} ({len(_files(target))} files).\n"
            f"Use them: WODCOMBAT_RULES_DIR = {target!r} in server/conf/settings.py,\n"
            f"then `evennia wodcombat check` and `evennia reload` (or +rules/reload).")

    def _check(self, folder: str | None) -> None:
        root = os.path.abspath(folder) if folder else conf.rules_dir()
        if not os.path.isdir(root):
            raise CommandError(f"{root} is not a folder: name a rules folder, e.g. the one "
                               "`evennia wodcombat copy-rules <dir>` made.")
        lib = load_library(root)
        default = conf.get("WODCOMBAT_DEFAULT_RULESET")
        self.stdout.write(f"Rules check: {root}")
        self.stdout.write(f" Valid: {', '.join(sorted(lib.rulesets)) or 'none'}")
        for issue in lib.issues:
            self.stdout.write(f" {issue}")
        for child, parent in sorted(lib.broken_parent.items()):
            self.stdout.write(f" {child}: refused, it extends {parent}, which has errors")
        missing = default not in lib.rulesets and default not in lib.refused
        if missing:
            self.stdout.write(f" The default ruleset '{default}' has no folder in {root} "
                              "(settings.WODCOMBAT_DEFAULT_RULESET).")
        if lib.refused or missing:
            raise CommandError(f"{len(lib.issues)} error(s) in {root}.")
        self.stdout.write(" All rules files are valid.")


def _files(root: str) -> list[str]:
    out = []
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(here, n), root) for n in names
                if not n.endswith((".py", ".pyc"))]
    return sorted(out)
