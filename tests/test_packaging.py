"""Issue 27: the plugin is one import root, each module loaded under one name, and the wheel
``pip wheel .`` builds holds the code, the rules, the migrations, the templates and the
scripts, and nothing of this repository's own game."""

import glob
import importlib
import os
import pkgutil
import sys
import tempfile
import zipfile

import wodcombat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv") + os.sep
GAME_FOLDERS = ("commands", "typeclasses", "world", "server", "web", "combat")


def plugin_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(wodcombat.__path__, "wodcombat."):
        names.append(info.name)
    return names


def test_every_module_is_loaded_under_one_name():
    for name in plugin_modules():
        importlib.import_module(name)
    by_file = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        real = os.path.realpath(path) if path else ""
        if real.startswith(ROOT + os.sep) and not real.startswith(VENV):
            by_file.setdefault(real, []).append(name)
    twice = {path: names for path, names in by_file.items() if len(names) > 1}
    assert not twice, twice
    # the engine is reached only as wodcombat.combat: a host's own `combat` is never ours
    engine = os.path.join(ROOT, "combat") + os.sep
    stray = [names for path, names in by_file.items() if path.startswith(engine)
             and not all(n.startswith("wodcombat.combat") for n in names)]
    assert not stray, stray


def test_the_walk_finds_the_engine_the_rules_loader_and_the_app():
    names = set(plugin_modules())
    for name in ("wodcombat.combat.core.engine", "wodcombat.combat.rules.ruleset", "wodcombat.apps",
                 "wodcombat.commands.cmdset", "wodcombat.migrations.0001_initial",
                 "wodcombat.management.commands.wodcombat"):
        assert name in names, name


def test_no_plugin_module_imports_the_game_by_its_folder_names():
    """The plugin never imports this game's commands/, typeclasses/, world/, server/, web/
    or a top-level combat: a host has its own of those names."""
    bad = []
    for path in glob.glob(os.path.join(ROOT, "wodcombat", "**", "*.py"), recursive=True):
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                words = line.split()
                if len(words) >= 2 and words[0] in ("from", "import") and \
                        words[1].split(".")[0] in GAME_FOLDERS:
                    bad.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not bad, bad


def test_the_wheel_holds_the_rules_migrations_and_pages():
    from tests.e2e.host_game import build_wheel

    with tempfile.TemporaryDirectory() as dest:
        names = zipfile.ZipFile(build_wheel(dest)).namelist()
    yaml_in_repo = glob.glob(os.path.join(ROOT, "rules", "**", "*.yaml"), recursive=True)
    rules = [n for n in names if n.startswith("wodcombat/rules/") and n.endswith(".yaml")]
    assert len(rules) == len(yaml_in_repo) > 40
    assert "wodcombat/rules/README.md" in names
    for name in ("wodcombat/migrations/0001_initial.py", "wodcombat/templates/wod/fight.html",
                 "wodcombat/static/wod/combat.js", "wodcombat/combat/core/engine.py",
                 "wodcombat/apps.py"):
        assert name in names, name
    tops = {n.split("/")[0] for n in names}
    assert tops == {"wodcombat", "wodcombat-0.1.0.dist-info"}, tops
