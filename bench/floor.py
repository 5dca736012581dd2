"""What the least an attack can cost is in this Python: the floor under bench/engine.py.

The design card asks 50,000 attacks a second through ``apply`` (20 us each). An attack
cannot do less than what it hands back: the dice rolled and counted, the events of what
happened (the log and the room are made from them), the attacker's action marked used,
the target's health track and sheet changed, a new state. This times exactly those
pieces, built with the engine's own values (``Roll``, ``Event``, ``Combatant``,
``CombatState``, ``Sheet``), with none of the rules that decide them: no pools from the
sheet, no modifiers, no defense plan, no soak plan, no conditions, no scheduler.

    python bench/floor.py            # about 5 s

The sum is a lower bound for any engine that keeps this state and event shape; the gap
between it and bench/engine.py's figure is the rules themselves.
"""

from __future__ import annotations

import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wodcombat.combat.core import dice  # noqa: E402
from wodcombat.combat.d10.damage_tables import track_of  # noqa: E402
from wodcombat.combat.core.events import Event  # noqa: E402
from wodcombat.combat.d10.fight import roll_event  # noqa: E402
from wodcombat.combat.core.pools import PoolSpec  # noqa: E402
from wodcombat.combat.rules.ruleset import load_ruleset  # noqa: E402
from wodcombat.combat.core.sheet import Sheet  # noqa: E402
from wodcombat.combat.d10.state import Combatant, CombatState  # noqa: E402
from wodcombat.combat.core.values import replace  # noqa: E402


def per_call(fn, n: int = 20000) -> float:
    """Microseconds per call of ``fn`` (best of three runs of ``n``)."""
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, time.process_time() - t)
    return best / n * 1e6


def main() -> int:
    rs = load_ruleset(ROOT / "rules", "numetal")
    rng = random.Random(1)
    spec = PoolSpec((("Dexterity", 3), ("Brawl", 3)), (), 6)
    a = Combatant("#1", "Attacker", init_total=9, declared=True,
                  actions=({"kind": "attack", "target": "#2"},), main=1)
    b = Combatant("#2", "Target", init_total=7, declared=True,
                  actions=({"kind": "dodge"},), main=1, reactive=(0,))
    state = CombatState("floor", "numetal", combatants=(a, b), phase="act")
    sheet = Sheet().with_pools_for(rs.traits)
    track = track_of(sheet, rs)

    def rolls():  # attack 6, defense 4, damage 4, soak 3 dice: rolled and counted
        for n in (6, 4, 4, 3):
            dice.count(dice.roll_faces(n, rng), 6, rs.dice)

    def events():  # attack, 4 rolls, defend, hit, damage (with its detail), act, prompt
        r = dice.count((7, 3, 9, 1, 6, 8), 6, rs.dice)
        out = [Event("attack", {"actor": "#1", "target": "#2", "maneuver": "strike"})]
        out += [roll_event("#1", "attack", spec, r) for _ in range(4)]
        out.append(Event("defend", {"actor": "#2", "against": "#1", "index": 0}))
        out.append(Event("hit", {"actor": "#1", "target": "#2", "net": 2}))
        out.append(Event("damage", {"actor": "#1", "target": "#2", "applied": 2,
                                    "detail": {"request": {"dice": 4}, "levels": 2}}))
        out.append(Event("act", {"actor": "#1", "index": 0, "action": {"kind": "attack"}}))
        out.append(Event("prompt", {"turn": 1, "what": "act", "who": ["#2"]}))
        return tuple(out)

    def state_change():  # the action used, the defense spent, the target's track marked, a state
        a2 = replace(a, used=(0,))
        b2 = replace(b, used=(0,))
        s2 = state.with_combatants({"#1": a2, "#2": b2})
        replace(s2, cursor=1, seq=s2.seq + 1)
        sheet.with_health(track.apply("lethal", 2).track)

    parts = {"dice (17 rolled and counted)": per_call(rolls),
             "events (10, as the engine builds them)": per_call(events),
             "state and sheet (2 combatants, 1 state, 1 sheet)": per_call(state_change)}
    total = sum(parts.values())
    print(f"Python {sys.version.split()[0]}: the least one attack hands back, no rules")
    for name, us in parts.items():
        print(f"  {name:<50} {us:6.1f} us")
    print(f"  {'sum':<50} {total:6.1f} us = at most {1e6 / total:,.0f} attacks a second")
    print("  (the design card's 50,000 a second leaves 20 us for all of an attack)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
