"""How many full attack resolutions the pure engine manages per second on one core.

Design card target: at least 50,000 a second (``../shared/design.md``, Performance targets),
and a cost per combatant that stays flat from 10 to 100 combatants in one combat.

One "resolution" is what ``+combat/act`` asks of the engine for an attack, called exactly as
``commands/combat.py`` calls it (``engine_resolve_attack`` / ``engine_resolve_damage``):
``resolve_attack`` (attack pool, attack roll, the target's defense roll cancelling successes,
damage dice with extra successes) with a fresh ``can_soak`` lambda, then, on a damaging hit,
the target's standing condition from its track and ``resolve_damage(**result.soak_kwargs())``
(damage roll, soak as a reflex from the soak table, health marks, outcome, daze).
Rendering, the log and the database are not included: they are the Evennia side's cost.

Run from the repository root with the project's interpreter::

    python bench/engine.py                # every scenario, ~1 s each
    python bench/engine.py --seconds 3    # longer runs, steadier figures
    python bench/engine.py --n 20000      # a fixed number of resolutions per scenario
    python bench/engine.py --only brawl   # scenarios whose name contains "brawl"
    python bench/engine.py --profile crinos  # cProfile one scenario (top 25 by own time)

Dice come from ``random.Random(seed)`` so two runs roll the same faces.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
from dataclasses import replace

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from combat import damage as dmg  # noqa: E402
from combat.attack import Attack, Context, Defense, resolve_attack  # noqa: E402
from combat.ruleset import load_ruleset  # noqa: E402
from combat.sheet import Pool, Sheet  # noqa: E402

# ---------------------------------------------------------------- the engine calls, as the
# command makes them (commands/combat.py: engine_resolve_attack, engine_resolve_damage,
# CombatCommand.target_condition).


def target_condition(rs, sheet: Sheet) -> str:
    track = sheet.track(rs.section("health"))
    return dmg.INCAPACITATED if track.incapacitated else dmg.OK


def resolve_once(rs, a_sheet, t_sheet, intent, ctx, defense, rng):
    """One full attack resolution; returns (AttackResult, DamageResult or None)."""
    res = resolve_attack(rs, a_sheet, t_sheet, intent, ctx, defense, rng=rng,
                         can_soak=lambda kind: dmg.can_soak(rs, t_sheet, kind))
    if not res.hit or not res.deals_damage:
        return res, None
    dr = dmg.resolve_damage(rs, t_sheet, rng=rng, condition=target_condition(rs, t_sheet),
                            **res.soak_kwargs())
    return res, dr


# ---------------------------------------------------------------- sheets


def mk(splat="mortal", *, race="", form="", weapons=(), armor="", pools=None,
       **traits) -> Sheet:
    pools = {k: Pool(v, max(v, 10)) for k, v in (pools or {}).items()}
    return Sheet.from_dict({
        "splat": splat, "race": race, "form": form, "weapons": list(weapons), "armor": armor,
        "pools": {k: {"current": p.current, "permanent": p.permanent} for k, p in pools.items()},
        "traits": {k.replace("_", " "): v for k, v in traits.items()},
    })


FIGHTER = dict(Dexterity=3, Strength=3, Stamina=3, Perception=2, Wits=2, Brawl=3, Melee=3,
               Firearms=3, Athletics=2, Dodge=2)
VICTIM = dict(Dexterity=2, Strength=2, Stamina=2, Wits=2, Brawl=1, Dodge=2, Melee=2)


def brawl_vs_dodge():
    return (mk(**FIGHTER), mk(**VICTIM), Attack("a", "b"), Context(), Defense("b", "dodge"))


def melee_vs_parry():
    return (mk(weapons=("Sword",), **FIGHTER), mk(weapons=("Sword",), **VICTIM),
            Attack("a", "b", weapon="Sword"), Context(target=replace(Context().target,
                                                                      weapon="Sword")),
            Defense("b", "parry", weapon="Sword"))


def firearm_vs_vampire():
    vamp = mk("vampire", pools={"Blood": 10, "Willpower": 5}, Fortitude=2, **VICTIM)
    return (mk(weapons=("Pistol, heavy",), **FIGHTER), vamp,
            Attack("a", "b", weapon="Pistol, heavy"), Context(range_yards=10),
            Defense("b", "dodge", to_cover=True))


def crinos_claws():
    garou = dict(FIGHTER, Strength=5, Dexterity=4, Stamina=5)
    a = mk("shifter", race="Garou", form="Crinos", pools={"Rage": 5, "Gnosis": 3}, **garou)
    t = mk("shifter", race="Garou", form="Crinos", pools={"Rage": 4, "Gnosis": 3},
           **dict(VICTIM, Stamina=4))
    # DMG-16: a block against aggravated claws asks the target's can_soak (the lambda).
    return a, t, Attack("a", "b", maneuver="claw"), Context(), Defense("b", "block")


MATCHUPS = {
    "brawl vs dodge": brawl_vs_dodge,
    "melee (Sword) vs parry": melee_vs_parry,
    "firearm vs vampire w/ Fortitude": firearm_vs_vampire,
    "Crinos claws vs block": crinos_claws,
}


def crowd(n: int, seed: int) -> list[Sheet]:
    """``n`` distinct sheets (different dots, splats), as a combat of n combatants has."""
    r = random.Random(seed)
    out = []
    for i in range(n):
        t = {k: r.randint(1, 4) for k in ("Dexterity", "Strength", "Stamina", "Wits")}
        t.update({k: r.randint(0, 4) for k in ("Brawl", "Dodge", "Melee", "Athletics")})
        kind = i % 3
        if kind == 0:
            out.append(mk(**t))
        elif kind == 1:
            out.append(mk("vampire", pools={"Blood": 10, "Willpower": 5},
                          Fortitude=r.randint(0, 3), **t))
        else:
            out.append(mk("shifter", race="Garou", form="Homid",
                          pools={"Rage": 4, "Gnosis": 3}, **t))
    return out


# ---------------------------------------------------------------- runners


def run_matchup(rs, build, n, seconds, seed):
    """The same two sheets every time: what a balance simulation of one matchup does."""
    a, t, intent, ctx, defense = build()
    rng = random.Random(seed)
    done, hits = 0, 0
    start = time.process_time()
    deadline = start + seconds if n is None else None
    while True:
        for _ in range(500):
            _, dr = resolve_once(rs, a, t, intent, ctx, defense, rng)
            hits += dr is not None
        done += 500
        if (n is not None and done >= n) or (deadline and time.process_time() >= deadline):
            break
    return done, time.process_time() - start, hits


def run_crowd(rs, size, n, seconds, seed):
    """A combat of ``size`` combatants: random attacker and target each time, brawl vs
    dodge; each hit's new sheet replaces the target's (a fresh one once incapacitated), as
    in a real fight, so every hurt sheet is a new object the engine has not seen."""
    sheets = crowd(size, seed)
    fresh = list(sheets)
    pick = random.Random(seed + 1)
    pairs = []
    for _ in range(4096):
        i = pick.randrange(size)
        j = (i + 1 + pick.randrange(size - 1)) % size
        pairs.append((i, j))
    intent, ctx = Attack("a", "b"), Context()
    defense = Defense("b", "dodge")
    rng = random.Random(seed)
    done, hits, k = 0, 0, 0
    start = time.process_time()
    deadline = start + seconds if n is None else None
    while True:
        for _ in range(500):
            i, j = pairs[k & 4095]
            k += 1
            _, dr = resolve_once(rs, sheets[i], sheets[j], intent, ctx, defense, rng)
            if dr is not None:
                hits += 1
                sheets[j] = fresh[j] if dr.condition != dmg.OK else dr.sheet
        done += 500
        if (n is not None and done >= n) or (deadline and time.process_time() >= deadline):
            break
    return done, time.process_time() - start, hits


def scenarios(rs, args):
    for name, build in MATCHUPS.items():
        yield name, lambda n, secs, b=build: run_matchup(rs, b, n, secs, args.seed)
    for size in (10, 100):
        yield (f"crowd of {size}: brawl vs dodge",
               lambda n, secs, s=size: run_crowd(rs, s, n, secs, args.seed))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=None, help="resolutions per scenario")
    p.add_argument("--seconds", type=float, default=1.0, help="time per scenario (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default="numetal")
    p.add_argument("--rules", default=str(ROOT / "rules"), help="the rules folder")
    p.add_argument("--only", default="", help="run scenarios whose name contains this")
    p.add_argument("--profile", default="", help="cProfile the scenario matching this")
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

        name, fn = chosen[0]
        fn(1000, 0)  # warm the caches first, as a running server has them
        prof = cProfile.Profile()
        prof.runcall(fn, args.n, args.seconds)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    print(f"ruleset {rs.name}, Python {sys.version.split()[0]}, seed {args.seed}")
    print(f"{'scenario':<36} {'resolutions':>11} {'per second':>11} {'us each':>8} {'hit%':>5}")
    for name, fn in chosen:
        fn(1000, 0)  # warm-up (caches, allocator), as a running server has them
        done, secs, hits = fn(args.n, args.seconds)
        print(f"{name:<36} {done:>11,} {done / secs:>11,.0f} {secs / done * 1e6:>8.1f} "
              f"{100 * hits / done:>5.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
