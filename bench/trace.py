"""A trace of everything the engines decide, to show a speed change changed nothing else.

Every ``apply`` is recorded: the intent, then either the refusal (its type and text) or the
events, the new state's ``to_dict``, the sheets it changed and where the dice stream stands
afterwards (so a change that rolls one die more, or one less, shows). Two trees give the same
trace exactly when their engines decide the same things from the same inputs.

Two sources, both deterministic:

- scenarios (``python bench/trace.py``): simulated fights of five matchups under each
  ruleset, and the recorded crowd fights of ``bench/engine.py``;
- the test suite (``bench/trace.py --tests``): every ``apply`` the tests make, grouped by
  test, through the pytest plugin ``bench/trace_plugin.py``; a test that rolls unseeded
  dice is dropped when two runs of the same tree disagree on it (``--stable``).

Usage, from the repository root (``B`` another tree, e.g. a ``git worktree`` at main)::

    python bench/trace.py --out /tmp/new.jsonl            # scenarios: one digest a case
    python bench/trace.py --root B --out /tmp/old.jsonl   # the same, run in tree B
    python bench/trace.py --compare /tmp/old.jsonl /tmp/new.jsonl

Prints, per file, a digest of the whole trace; ``--compare`` names the first cases that
differ. Not a test: the golden output is the other tree, not a file kept here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
from typing import Any, Callable

ROOT = pathlib.Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- recording


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=repr).encode


def _dice_mark(rng) -> str:
    """Where the dice stream stands: the generator's state, or the faces still queued."""
    queued = getattr(rng, "faces", None)
    if isinstance(queued, list):
        return "queued:" + ",".join(map(str, queued))
    try:
        return hashlib.sha1(repr(rng.getstate()).encode()).hexdigest()[:16]
    except Exception:  # noqa: BLE001 - a stand-in without getstate
        return type(rng).__name__


def record(intent, out, error, rng) -> str:
    """One ``apply``, as one line of JSON: what was asked, and what came of it. Tuples and
    lists read the same (the JSON keeps both as lists), other values by their repr."""
    rec: dict[str, Any] = {"intent": type(intent).__name__, "fields": {
        k: getattr(intent, k) for k in getattr(intent, "__dataclass_fields__", {})}}
    if error is not None:
        rec["refused"] = [type(error).__name__, str(error)]
    else:
        rec["events"] = [e.to_dict() for e in out.events]
        rec["state"] = out.state.to_dict()
        rec["sheets"] = {k: s.to_dict() if hasattr(s, "to_dict") else s
                         for k, s in out.sheet_changes.items()}
    rec["dice"] = _dice_mark(rng)
    return _encode(rec)


def wrap_engines(sink: Callable[[str], None]) -> Callable[[], None]:
    """Record every ``apply`` of both engines into ``sink``; returns the undo."""
    from wodcombat.combat.d10.engine import D10Engine
    from wodcombat.combat.core.errors import WodError
    from wodcombat.combat.spotlight.engine import ENGINE as SPOT

    undo = []
    for cls in {D10Engine, type(SPOT)}:
        original = cls.apply

        def apply(self, state, intent, sheets, rules, rng, _original=original, **kw):
            try:
                out = _original(self, state, intent, sheets, rules, rng, **kw)
            except WodError as why:
                sink(record(intent, None, why, rng))
                raise
            sink(record(intent, out, None, rng))
            return out

        cls.apply = apply
        undo.append((cls, original))

    def restore() -> None:
        for cls, original in undo:
            cls.apply = original

    return restore


def digest(records: list[str]) -> str:
    h = hashlib.sha256()
    for r in records:
        h.update(r.encode())
        h.update(b"\n")
    return h.hexdigest()


# ---------------------------------------------------------------- scenarios

MATCHUPS = (("thug", "gunman"), ("ghoul", "vampire"), ("garou", "thug"),
            ("vampire", "garou"), ("gunman", "ghoul"))
RULESETS = ("numetal", "revised", "v20", "everyman", "spotlight")


def scenarios(fights: int, crowd: int) -> list[tuple[str, list[str]]]:
    """(case name, its records) for every scenario."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from wodcombat.combat import simulate as sim
    from wodcombat.combat.rules.ruleset import load_ruleset
    from wodcombat.commands import matchup

    import engine as bench_engine  # bench/engine.py

    out: list[tuple[str, list[str]]] = []
    records: list[str] = []
    restore = wrap_engines(records.append)
    try:
        for ruleset in RULESETS:
            rules = load_ruleset(ROOT / "rules", ruleset)
            for a, b in MATCHUPS:
                m = sim.Matchup(str(ROOT / "rules"), ruleset,
                                matchup.parse_side(rules, a, sim.A, None),
                                matchup.parse_side(rules, b, sim.B, None))
                prepared = sim.Prepared(m, rules)
                for i in range(fights):
                    records.clear()
                    prepared.fight(sim.random.Random(f"trace:{ruleset}:{a}:{b}:{i}"),
                                   sim.Tally())
                    out.append((f"{ruleset} {a} vs {b} #{i}", list(records)))
        for ruleset in ("numetal", "revised"):
            rules = load_ruleset(ROOT / "rules", ruleset)
            for name, build in bench_engine.MATCHUPS.items():
                records.clear()
                state, intent, sheets = bench_engine.matchup_case(rules, build, 1)
                eng = bench_engine.engine_for(rules)
                rng = sim.random.Random(5)
                for _ in range(20):
                    eng.apply(state, intent, sheets, rules, rng)
                out.append((f"{ruleset} bench {name}", list(records)))
            for size in (10, 100):
                records.clear()
                bench_engine.crowd_cases(rules, size, 1, want=crowd)
                out.append((f"{ruleset} crowd of {size}", list(records)))
    finally:
        restore()
    return out


# ---------------------------------------------------------------- files


def write(cases: list[tuple[str, list[str]]], path: str | None, full: bool) -> str:
    lines = [{"case": name, "n": len(recs), "digest": digest(recs),
              **({"records": recs} if full else {})} for name, recs in cases]
    whole = hashlib.sha256("".join(c["digest"] for c in lines).encode()).hexdigest()
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            for c in lines:
                fh.write(json.dumps(c, sort_keys=True) + "\n")
    return whole


def read(path: str) -> dict[str, dict]:
    with open(path, encoding="utf-8") as fh:
        return {c["case"]: c for c in map(json.loads, fh)}


def compare(old_path: str, new_path: str, stable: str | None = None, show: int = 10) -> int:
    old, new = read(old_path), read(new_path)
    skip: set[str] = set()
    if stable:  # a second run of the old tree: cases it disagrees on are not deterministic
        again = read(stable)
        skip = {k for k in old if k in again and again[k]["digest"] != old[k]["digest"]}
    missing = sorted(set(old) - set(new) - skip)
    added = sorted(set(new) - set(old) - skip)
    differ = [k for k in old if k in new and k not in skip
              and old[k]["digest"] != new[k]["digest"]]
    print(f"{len(old)} cases before, {len(new)} after; {len(skip)} not deterministic "
          f"(left out); {len(differ)} differ, {len(missing)} missing, {len(added)} new")
    for k in differ[:show]:
        print(f"  differs: {k} ({old[k]['n']} -> {new[k]['n']} applies)")
        o, n = old[k].get("records"), new[k].get("records")
        if o and n:
            for i, (a, b) in enumerate(zip(map(json.loads, o), map(json.loads, n))):
                if a != b:
                    for field in ("intent", "refused", "events", "state", "sheets", "dice"):
                        if a.get(field) != b.get(field):
                            print(f"    apply #{i} ({a['intent']}): {field} differs")
                            print(f"      before: {json.dumps(a.get(field))[:400]}")
                            print(f"      after:  {json.dumps(b.get(field))[:400]}")
                            break
                    break
    for k in missing[:show]:
        print(f"  missing: {k}")
    return 1 if differ or missing else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write one line per case (digest) here")
    p.add_argument("--full", action="store_true", help="keep every record in --out")
    p.add_argument("--root", help="run in this tree instead (its bench/trace.py if it has one)")
    p.add_argument("--tests", nargs="*", metavar="PYTEST_ARG",
                   help="trace the test suite (arguments for pytest; default tests/engine "
                        "tests/commands -m 'not e2e')")
    p.add_argument("--fights", type=int, default=12, help="simulated fights per matchup")
    p.add_argument("--crowd", type=int, default=60, help="acts recorded per crowd")
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    p.add_argument("--stable", help="with --compare: a second run of OLD's tree")
    args = p.parse_args(argv)
    if args.compare:
        return compare(*args.compare, stable=args.stable)
    if args.root:  # this script, with that tree's code first on the path
        env = dict(os.environ, PYTHONPATH=str(pathlib.Path(args.root).resolve()),
                   WOD_TRACE_ROOT=str(pathlib.Path(args.root).resolve()))
        rest = [a for a in (argv if argv is not None else sys.argv[1:])]
        i = rest.index("--root")
        del rest[i:i + 2]
        return subprocess.call([sys.executable, __file__, *rest], env=env)
    root = pathlib.Path(os.environ.get("WOD_TRACE_ROOT") or ROOT)
    if args.tests is not None:
        out = pathlib.Path(args.out or "/tmp/wod-trace-tests.jsonl").resolve()
        targs = args.tests or ["tests/engine", "tests/commands", "-m", "not e2e"]
        env = dict(os.environ, WOD_TRACE_OUT=str(out), WOD_TRACE_FULL="1" if args.full else "",
                   PYTHONPATH=os.pathsep.join([str(root), str(ROOT / "bench")]))
        rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "trace_plugin",
                              "-p", "no:cacheprovider", *targs], cwd=root, env=env)
        print(f"trace of the tests: {out}")
        return rc
    globals()["ROOT"] = root
    cases = scenarios(args.fights, args.crowd)
    whole = write(cases, args.out, args.full)
    print(f"{len(cases)} cases, {sum(len(r) for _, r in cases)} applies, digest {whole[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
