"""How many declared attacks the d10 engine acts out per second on one core, through ``apply``.

Design card target: at least 50,000 a second (``../shared/design.md``, Performance targets),
and a cost per combatant that stays flat from 10 to 100 combatants in one combat.

One "resolution" is one ``+combat/act`` for a declared attack, called the way the combat
service calls it (``wodcombat/world/combat_service.py``)::

    engine_for(rules).apply(state, Act(by=key, actor=key), sheets, rules, rng)

on a state in the act phase that waits for that attacker. That is everything the engine does
for the command: the scheduler's checks, the target's declared defense spent, the attack,
defense, damage and soak rolls, health marks and outcome, the effects of the hit, the events,
and the scheduler moving the turn on (the next slot, the next phase, a new turn).

The fight states are built once per scenario with the same intents the game sends (``Join``,
``RollInitiative``, ``Advance``, ``Declare``, ``Act``); ``apply`` is pure, so acting again and
again on the same pre-act state is valid, and that is what is timed. Not timed: the service's
side (reading sheets from Attributes, ``RecordingDice``, the log, rendering, the database).

Run from the repository root with the project's interpreter::

    python bench/engine.py                # every scenario, ~1 s each
    python bench/engine.py --seconds 3    # longer runs, steadier figures
    python bench/engine.py --n 20000      # a fixed number of resolutions per scenario
    python bench/engine.py --only crowd   # scenarios whose name contains "crowd"
    python bench/engine.py --profile claws  # cProfile one scenario (top 25 by own time)
    python bench/engine.py --declare      # declarations (+combat/declare) instead of acts

``--declare`` times ``apply(state, Declare(...), sheets, rules, rng)`` the same way, on
recorded pre-declaration states: the declarations of ``bin/simulate thug gunman`` (the
balance simulator's fights) and of the crowds of 10 and 100 (half ``attack <foe>``, half
``dodge; attack <foe>``).

Dice come from ``random.Random(seed)`` so two runs roll the same faces.
"""

from __future__ import annotations

import argparse
import pathlib
import os
import random
import sys
import time
from collections.abc import Mapping
from dataclasses import replace

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wodcombat.combat.core import intents as it  # noqa: E402
from wodcombat.combat.core.engine import engine_for  # noqa: E402
from wodcombat.combat.d10.fight import OUT_OF_ACTION  # noqa: E402
from wodcombat.combat.core.errors import WodError  # noqa: E402
from wodcombat.combat.core.memo import Memo  # noqa: E402
from wodcombat.combat.rules.ruleset import load_ruleset  # noqa: E402
from wodcombat.combat.core.sheet import Sheet  # noqa: E402

# ---------------------------------------------------------------- sheets, as +sheet/set makes them


def mk(rs, splat="mortal", *, race="", form="", weapons=(), pools=None, **traits) -> Sheet:
    """A sheet set up the way ``+sheet/set`` does it (``Sheet.set``), then ``+sheet/equip``."""
    cat = rs.traits
    s = Sheet().with_pools_for(cat)
    for key, value in (("splat", splat), ("race", race), ("form", form)):
        if value:
            s, _ = s.set(cat, key, value)
    for name, value in {**traits, **(pools or {})}.items():
        s, _ = s.set(cat, name.replace("_", " "), str(value))
    return replace(s, weapons=tuple(weapons)) if weapons else s


FIGHTER = dict(Dexterity=3, Strength=3, Stamina=3, Perception=2, Wits=2, Brawl=3, Melee=3,
               Firearms=3, Athletics=2, Dodge=2)
VICTIM = dict(Dexterity=2, Strength=2, Stamina=2, Wits=2, Brawl=1, Dodge=2, Melee=2)

ATTACK = {"kind": "attack", "target": "b"}


def fists_vs_dodge(rs):
    return mk(rs, **FIGHTER), mk(rs, **VICTIM), ATTACK, {"kind": "dodge"}


def knife_vs_parry(rs):
    return (mk(rs, weapons=("Knife",), **FIGHTER), mk(rs, weapons=("Knife",), **VICTIM),
            {**ATTACK, "weapon": "Knife"}, {"kind": "parry"})


def sword_vs_parry(rs):
    return (mk(rs, weapons=("Sword",), **FIGHTER), mk(rs, weapons=("Sword",), **VICTIM),
            {**ATTACK, "weapon": "Sword"}, {"kind": "parry"})


def pistol_vs_vampire(rs):
    vamp = mk(rs, "vampire", pools={"Blood": "10/10"}, Fortitude=2, **VICTIM)
    return (mk(rs, weapons=("Pistol, heavy",), **FIGHTER), vamp,
            {**ATTACK, "weapon": "Pistol, heavy"}, {"kind": "dodge", "how": "cover"})


def crinos_claws(rs):
    garou = dict(FIGHTER, Strength=5, Dexterity=4, Stamina=5)
    a = mk(rs, "shifter", race="Garou", form="Crinos", pools={"Rage": "5/5", "Gnosis": "3/3"},
           **garou)
    t = mk(rs, "shifter", race="Garou", form="Crinos", pools={"Rage": "4/4", "Gnosis": "3/3"},
           **dict(VICTIM, Stamina=4))
    # DMG-16: a block against aggravated claws asks whether the target can soak them.
    return a, t, {**ATTACK, "maneuver": "claw"}, {"kind": "block"}


MATCHUPS = {
    "fists vs dodge": fists_vs_dodge,
    "knife vs parry": knife_vs_parry,
    "sword vs parry": sword_vs_parry,
    "heavy pistol vs vampire in cover": pistol_vs_vampire,
    "Crinos claws vs block": crinos_claws,
}


def crowd_sheets(rs, n: int, seed: int) -> dict[str, Sheet]:
    """``n`` distinct sheets (different dots, splats), as a combat of n combatants has."""
    r = random.Random(seed)
    out = {}
    for i in range(n):
        t = {k: r.randint(1, 4) for k in ("Dexterity", "Strength", "Stamina", "Wits")}
        t.update({k: r.randint(0, 4) for k in ("Brawl", "Dodge", "Melee", "Athletics")})
        kind = i % 3
        if kind == 0:
            s = mk(rs, **t)
        elif kind == 1:
            s = mk(rs, "vampire", Fortitude=r.randint(0, 3), **t)
        else:
            s = mk(rs, "shifter", race="Garou", form="Homid", pools={"Rage": "4/4"}, **t)
        out[f"#{100 + i}"] = s
    return out


class FreshSheets(Mapping):
    """Like the service's ``Sheets``: each sheet read once per command, as a new object (the
    game reads it from an Attribute each time), so ``Sheet.value`` is rebuilt as it is
    in the game. The copy stands in for ``Sheet.from_dict``, which is the service's cost."""

    __slots__ = ("_base", "_read")

    def __init__(self, base: Mapping[str, Sheet]):
        self._base = base
        self._read: dict[str, Sheet] = {}

    def __getitem__(self, key: str) -> Sheet:
        s = self._read.get(key)
        if s is None:
            old = self._base[key]
            s = object.__new__(Sheet)
            s.__dict__.update(old.__dict__)
            s.__dict__.pop("_value", None)
            s.__dict__.pop("_soak_value", None)
            self._read[key] = s
        return s

    def __iter__(self):
        return iter(self._base)

    def __len__(self) -> int:
        return len(self._base)


# ---------------------------------------------------------------- fights, built with intents


class Builder:
    """A fight driven through ``apply`` with the intents the commands send."""

    def __init__(self, rs, sheets: dict[str, Sheet], seed: int, cid: str = "bench"):
        self.rs, self.engine = rs, engine_for(rs)
        self.sheets = dict(sheets)
        self.rng = random.Random(seed)
        self.state = self.engine.new_combat(cid, rs, {}).state

    def apply(self, intent: it.Intent):
        out = self.engine.apply(self.state, intent, self.sheets, self.rs, self.rng)
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        return out

    def start(self) -> None:
        for key in self.sheets:
            self.apply(it.Join(by=key, actor=key, name=f"N{key[1:]}"))
        for key in self.sheets:
            self.apply(it.RollInitiative(by=key, actor=key))
        self.apply(it.Advance(by=next(iter(self.sheets))))

    def run_until_act(self, plan) -> tuple[str, str] | None:
        """Answer prompts (``plan(key)`` gives a declaration) until one waits to act."""
        for _ in range(10 * len(self.sheets) + 10):
            waiting = self.engine.prompts(self.state)
            if not waiting:
                if self.state.phase == "ended":
                    return None
                self.apply(it.Advance(by=next(iter(self.sheets))))
                continue
            key, what = waiting[0]
            if what == "act":
                return key, what
            if what == "declare":
                self.apply(it.Declare(by=key, actor=key, actions=plan(key)))
            elif what == "initiative":
                self.apply(it.RollInitiative(by=key, actor=key))
            else:
                raise RuntimeError(f"unexpected prompt: {key} {what}")
        raise RuntimeError(f"the fight does not reach an act: {self.engine.prompts(self.state)}")


def matchup_case(rs, build, seed):
    """Two combatants, turn 1's act phase waiting for the attacker ``a``; ``b`` defends."""
    a, b, attack, defense = build(rs)
    f = Builder(rs, {"a": a, "b": b}, seed)
    f.start()
    got = f.run_until_act(lambda key: (attack,) if key == "a" else (defense,))
    assert got == ("a", "act"), got
    return f.state, it.Act(by="a", actor="a"), f.sheets


def crowd_cases(rs, size: int, seed: int, want: int = 400, turns: int = 3):
    """Pre-act moments of real fights of ``size``: each turn half the crowd declares
    ``attack <random able foe>`` and the other half ``dodge; attack <random able foe>`` (the
    dodge is ready in the act phase, the split attack comes in the extra phase, TURN-07);
    every act is recorded (state, intent, sheets) and then made. A fight runs ``turns`` turns
    (wounds pile up), then a fresh one starts, until ``want`` moments are kept."""
    base = crowd_sheets(rs, size, seed)
    pick = random.Random(seed + 1)
    cases, fight = [], 0
    while len(cases) < want:
        f = Builder(rs, base, seed + 1000 * fight, cid=f"crowd{fight}")
        fight += 1
        f.start()

        def plan(key, f=f):
            able = [c.key for c in f.state.combatants
                    if c.key != key and c.outcome not in OUT_OF_ACTION]
            attack = {"kind": "attack", "target": pick.choice(able)}
            return ({"kind": "dodge"}, attack) if int(key[1:]) % 2 else (attack,)

        while len(cases) < want and f.state.turn <= turns:
            got = f.run_until_act(plan)
            if got is None:
                break
            key = got[0]
            intent = it.Act(by=key, actor=key)
            cases.append((f.state, intent, dict(f.sheets)))
            f.apply(intent)
    return cases


# ---------------------------------------------------------------- declarations


class _Recorder:
    """Stands in for the engine in a simulated fight: every ``Declare`` is kept with the
    state and sheets it was made on, then applied as usual."""

    def __init__(self, engine, kept: list):
        self._engine, self.kept = engine, kept

    def apply(self, state, intent, sheets, rules, rng, **kw):
        if isinstance(intent, it.Declare):
            self.kept.append((state, intent, dict(sheets)))
        return self._engine.apply(state, intent, sheets, rules, rng, **kw)

    def __getattr__(self, name):
        return getattr(self._engine, name)


def simulated_declarations(rs, a: str, b: str, seed: int, want: int = 400):
    """The declarations of ``bin/simulate a b`` (the balance simulator's fights, on the
    game's engine path), each with the state and sheets it was made on."""
    from wodcombat.combat import simulate as sim
    from wodcombat.commands import matchup

    m = sim.Matchup(str(ROOT / "rules"), rs.name, matchup.parse_side(rs, a, sim.A, None),
                    matchup.parse_side(rs, b, sim.B, None))
    p = sim.Prepared(m, rs)
    kept: list = []
    p.engine = _Recorder(p.engine, kept)
    rng, tally = random.Random(seed), sim.Tally()
    while len(kept) < want:
        p.fight(rng, tally)
    return kept[:want]


def crowd_declarations(rs, size: int, seed: int, want: int = 400, turns: int = 3):
    """Pre-declaration moments of the crowd fights (``crowd_cases``: half the crowd
    ``attack <random able foe>``, the other half ``dodge; attack <random able foe>``)."""
    base = crowd_sheets(rs, size, seed)
    pick = random.Random(seed + 1)
    cases, fight = [], 0
    while len(cases) < want:
        f = Builder(rs, base, seed + 1000 * fight, cid=f"crowd{fight}")
        fight += 1
        f.start()

        def plan(key, f=f):
            able = [c.key for c in f.state.combatants
                    if c.key != key and c.outcome not in OUT_OF_ACTION]
            attack = {"kind": "attack", "target": pick.choice(able)}
            return ({"kind": "dodge"}, attack) if int(key[1:]) % 2 else (attack,)

        kept: list = []
        f.engine = _Recorder(f.engine, kept)
        while len(cases) + len(kept) < want and f.state.turn <= turns:
            got = f.run_until_act(plan)
            if got is None:
                break
            f.apply(it.Act(by=got[0], actor=got[0]))
        cases += kept
    return cases[:want]


# ---------------------------------------------------------------- runners


def timed(rs, cases, n, seconds, seed, fresh, memo=None):
    """``apply`` each (state, Act, sheets) in turn; (resolutions, CPU seconds, hits). A hit
    is an attack that got through the defense (a ``hit`` event). ``memo``: one
    ``combat.core.memo.Memo`` kept over the run, as the simulator keeps one (None: each call
    makes its own, as a game command does)."""
    apply = engine_for(rs).apply
    rng = random.Random(seed)
    m = len(cases)
    done, hits, k = 0, 0, 0
    start = time.process_time()
    deadline = start + seconds if n is None else None
    while True:
        for _ in range(500):
            state, intent, sheets = cases[k % m]
            k += 1
            try:
                out = apply(state, intent, FreshSheets(sheets) if fresh else sheets, rs, rng,
                            memo=memo)
            except WodError:  # a refused declaration (the simulator then falls back)
                continue
            for e in out.events:
                if e.kind == "hit":
                    hits += 1
                    break
        done += 500
        if (n is not None and done >= n) or (deadline and time.process_time() >= deadline):
            break
    return done, time.process_time() - start, hits


def scenarios(rs, args):
    if args.declare:
        yield ("declare: thug vs gunman (bin/simulate)",
               lambda: (simulated_declarations(rs, "thug", "gunman", args.seed), False))
        for size in (10, 100):
            yield (f"declare: crowd of {size}",
                   lambda s=size: (crowd_declarations(rs, s, args.seed), True))
        return
    for name, build in MATCHUPS.items():
        yield name, lambda b=build: ([matchup_case(rs, b, args.seed)], False)
    for size in (10, 100):
        yield (f"crowd of {size}: random pairs",
               lambda s=size: (crowd_cases(rs, s, args.seed), True))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=None, help="resolutions per scenario")
    p.add_argument("--seconds", type=float, default=1.0, help="time per scenario (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default="numetal")
    p.add_argument("--rules", default=str(ROOT / "rules"), help="the rules folder")
    p.add_argument("--only", default="", help="run scenarios whose name contains this")
    p.add_argument("--profile", default="", help="cProfile the scenario matching this")
    p.add_argument("--declare", action="store_true",
                   help="time declarations (+combat/declare) instead of acts")
    p.add_argument("--memo", choices=("run", "call"), default="run",
                   help="run: one combat.core.memo.Memo per scenario, as the simulator keeps one "
                        "per run (default); call: a new one per apply, as a game command")
    args = p.parse_args(argv)
    rs = load_ruleset(args.rules, args.ruleset)
    chosen = [(name, fn) for name, fn in scenarios(rs, args)
              if (args.profile or args.only).lower() in name.lower()]
    if not chosen:
        print("No scenario matches; names: " + ", ".join(n for n, _ in scenarios(rs, args)))
        return 2
    if args.profile:
        import cProfile
        import pstats

        name, build = chosen[0]
        cases, fresh = build()
        memo = Memo() if args.memo == "run" else None
        timed(rs, cases, 1000, 0, args.seed, fresh, memo)  # warm the memo first
        prof = cProfile.Profile()
        prof.runcall(timed, rs, cases, args.n, args.seconds, args.seed, fresh, memo)
        print(f"profile of: {name}")
        if os.environ.get("WOD_BENCH_PROFILE_OUT"):  # for pstats (callers, callees)
            prof.dump_stats(os.environ["WOD_BENCH_PROFILE_OUT"])
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    print(f"ruleset {rs.name}, engine {engine_for(rs).name}, Python {sys.version.split()[0]}, "
          f"seed {args.seed}, memo per {args.memo}")
    print(f"{'scenario':<40} {'resolutions':>11} {'per second':>11} {'us each':>8} {'hit%':>5}")
    for name, build in chosen:
        cases, fresh = build()
        memo = Memo() if args.memo == "run" else None
        timed(rs, cases, 1000, 0, args.seed, fresh, memo)  # warm-up (memo, allocator)
        done, secs, hits = timed(rs, cases, args.n, args.seconds, args.seed, fresh, memo)
        print(f"{name:<40} {done:>11,} {done / secs:>11,.0f} {secs / done * 1e6:>8.1f} "
              f"{'-' if args.declare else f'{100 * hits / done:.0f}':>5}")  # no hits declaring
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
