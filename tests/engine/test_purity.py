"""combat/ is a pure engine: importable in a plain interpreter with no Evennia, Django or
Twisted (design card). Checked two ways: by reading the imports, and by importing every
module in a fresh interpreter where those packages are blocked."""

import ast
import pathlib
import subprocess
import sys

COMBAT = pathlib.Path(__file__).resolve().parents[2] / "combat"
FORBIDDEN = ("evennia", "django", "twisted")


def test_no_forbidden_import_statements():
    offenders = []
    for path in COMBAT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert not offenders, offenders


def test_every_module_imports_with_frameworks_blocked():
    modules = sorted(f"combat.{p.stem}" for p in COMBAT.glob("*.py") if p.stem != "__init__")
    code = (
        "import sys\n"
        f"for name in {FORBIDDEN!r}: sys.modules[name] = None\n"
        f"import importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
        "from wodcombat.combat.rules.ruleset import load_library\n"
        f"lib = load_library({str(COMBAT.parent / 'rules')!r})\n"
        "assert 'numetal' in lib.rulesets, lib.issues\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=COMBAT.parent,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
