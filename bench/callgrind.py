"""A fixed piece of engine work between two markers, for counting its instructions.

Wall time on a shared machine moves 20-30% from run to run; callgrind's instruction count
does not (it moves 1-2% with the hash seed, so fix it). This runs the work once to warm the
caches, then again between two ``os.getppid()`` calls, which callgrind is told to dump at::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --dump-before=os_getppid \\
        --callgrind-out-file=/tmp/cg.out python bench/callgrind.py declare 500
    grep -h '^summary:\\|^totals:' /tmp/cg.out.2     # the timed part; divide by the count

Kinds: ``fight`` (whole ``bin/simulate thug gunman`` fights, numetal), ``declare`` (the
declarations of those fights, ``engine.py --declare``), ``declare10`` / ``declare100`` (those
of a crowd of 10 / 100), ``act`` (fists vs dodge, as ``engine.py``), ``act10`` / ``act100``
(the acts of ``engine.py``'s crowds of 10 / 100, sheets read afresh per call).
"""

from __future__ import annotations

import os
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import engine as B  # noqa: E402

from wodcombat.combat import simulate as sim  # noqa: E402
from wodcombat.combat.core.memo import Memo  # noqa: E402
from wodcombat.combat.rules.ruleset import load_ruleset  # noqa: E402


def main(kind: str, n: int) -> None:
    rules = load_ruleset(ROOT / "rules", "numetal")
    if kind == "fight":
        from wodcombat.commands import matchup

        m = sim.Matchup(str(ROOT / "rules"), "numetal",
                        matchup.parse_side(rules, "thug", sim.A, None),
                        matchup.parse_side(rules, "gunman", sim.B, None))
        p = sim.Prepared(m, rules)
        for i in range(20):
            p.fight(random.Random(i), sim.Tally())
        rng, tally = random.Random(1), sim.Tally()
        os.getppid()
        for _ in range(n):
            p.fight(rng, tally)
        os.getppid()
        return
    if kind == "declare":
        cases, fresh = B.simulated_declarations(rules, "thug", "gunman", 1), False
    elif kind in ("declare10", "declare100"):
        cases, fresh = B.crowd_declarations(rules, int(kind[7:]), 1), True
    elif kind == "act":
        cases, fresh = [B.matchup_case(rules, B.fists_vs_dodge, 1)], False
    elif kind in ("act10", "act100"):
        cases, fresh = B.crowd_cases(rules, int(kind[3:]), 1), True
    else:
        raise SystemExit(f"unknown kind {kind!r}: fight, declare, declare10, declare100, act, "
                         f"act10, act100")
    memo = Memo() if os.environ.get("BENCH_MEMO") == "run" else None
    B.timed(rules, cases, 500, 0, 1, fresh, memo)
    os.getppid()
    B.timed(rules, cases, n, 0, 1, fresh, memo)  # whole chunks of 500
    os.getppid()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
