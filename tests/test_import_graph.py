"""The import graph below the commands (issue 32): no circles, and shared modules import no
engine.

Built with ``ast`` from the source, every import counted wherever it sits (a function-level
import is still an edge: it only moves the circle to run time). ``combat/`` and
``wodcombat/`` minus ``wodcombat/commands/`` (nothing below the commands imports them; see
tests/commands for that rule), ``wodcombat/combat`` and ``wodcombat/rules`` being links to
the top-level folders. The project's quick check (/work/shared/tools/shape_check.py) does
not look inside wodcombat/.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Modules both engines (and the game side) stand on: none of them may import an engine
# module, so a reader of the shared layer never lands in d10's or spotlight's rules.
SHARED = (
    "combat.core.intents", "combat.core.events", "combat.core.outcome", "combat.core.dice_log",
    "combat.core.values", "combat.core.errors", "combat.core.dice", "combat.core.sheet",
    "combat.core.health", "combat.core.traits", "combat.core.pools", "combat.core.player_text",
    "combat.core.memo", "combat.core.rollexpr", "combat.core.conditions", "combat.core.maneuvers",
    "combat.rules.schema", "combat.rules.catalog",
)
# The spotlight engine's modules: they stand on the shared layer, never on d10's package
# (the armor table it reads lives in combat/core/maneuvers.py, shared with d10).
SPOTLIGHT = "combat.spotlight"
# Modules of one engine: the d10 engine's package, the spotlight's.
ENGINE = ("combat.d10", "combat.spotlight")


def _modules() -> dict[str, Path]:
    mods = {}
    for top in ("combat", "wodcombat"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] in (("wodcombat", "commands"), ("wodcombat", "combat"),
                                 ("wodcombat", "rules")) or "migrations" in rel.parts:
                continue
            name = ".".join(rel.with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = path
    return mods


def _canon(name: str) -> str:
    # wodcombat.combat is a link to combat/: one module under two names
    return name[len("wodcombat."):] if name.startswith("wodcombat.combat") else name


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[:len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            target = _canon(target)
            while target and target not in mods:  # "from .x import name": the module x
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: _imports(name, path, mods) for name, path in mods.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _is_engine(name: str) -> bool:
    return any(name == e or name.startswith(e + ".") for e in ENGINE)


def test_the_graph_is_read():
    """The graph is the real one: the modules are found and their edges read."""
    g = graph()
    assert len(g) > 80
    assert "combat.d10.close" in g["combat.d10.strike"]
    assert "combat.core.values" in g["combat.core.events"]
    assert "wodcombat.world.combat_service" in g


def test_circles_are_found():
    """The check can fail: a circle of three modules is one component."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_below_the_commands():
    assert circles(graph()) == []


def reach(g: dict[str, set[str]], name: str) -> set[str]:
    """Every module ``name`` imports, directly or through others."""
    seen, todo = set(), [name]
    while todo:
        for d in g.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_shared_modules_import_no_engine():
    """Not even through another module: importing the shared layer loads no engine."""
    g = graph()
    for name in SHARED:
        assert name in g, name
    bad = {name: sorted(d for d in reach(g, name) if _is_engine(d)) for name in SHARED}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_spotlight_engine_stands_on_no_d10_module():
    g = graph()
    mine = [name for name in g if name.startswith(SPOTLIGHT)]
    assert len(mine) > 10 and "combat.spotlight.engine" in mine
    bad = {name: sorted(d for d in reach(g, name) if d.startswith("combat.d10"))
           for name in mine}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_d10_combatant_lives_in_its_engine():
    """combat/d10/state.py holds the d10 combatant beside the gear it is typed with: no module
    outside the engines' packages holds engine state (issue 32, one layout)."""
    g = graph()
    assert "combat.d10.state" in g and "combat.state" not in g
    # at the top only what drives both engines (the simulator) and a sheet check of any
    # ruleset that reads d10's generation chart (trait_maximum)
    tops = [n for n, p in _modules().items() if p.parent == ROOT / "combat"
            and p.name != "__init__.py"]
    assert sorted(tops) == ["combat.simulate", "combat.trait_maximum"]
