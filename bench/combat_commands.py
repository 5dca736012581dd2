"""The cost of one ``+combat/act`` (an attack resolved end to end) at 10 and 100 combatants,
and of ``+combat`` (status), ``+combat/declare`` and ``look`` in the same room.

Design card target: the cost per combatant stays flat from 10 to 100 combatants in one
combat. Each run builds one fight in a throw-away SQLite test database (like the test suite:
``server.conf.test_settings``), with N NPCs run by a staff organizer, every NPC declaring an
attack on another, then times every ``+combat/act`` of the action phase through Evennia's
real command handler (parse, locks, engine, one transaction, the log, room messages).

Run from the repository root with the project's interpreter::

    python bench/combat_commands.py              # 10 and 100 combatants
    python bench/combat_commands.py --sizes 10 50 100 --turns 2
    python bench/combat_commands.py --overrides off  # as a host game: Evennia's own classes

Columns: combatants, acts timed, median and mean wall milliseconds per act, p90, SQL
queries per act (median), the state Attribute's size; then the median milliseconds and
queries of a ``+combat`` status, a ``+combat/declare`` and a ``look`` typed in the room
(the NPCs stand in it), and the median CPU milliseconds of an act (process time: less
skewed by other load than wall time). ``--profile act`` (or status, declare, look) prints
a cProfile of those commands at the largest size (top 30 by cumulative time). Wall time on
a loaded machine varies; compare the rows with each other, not with another day's run.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.conf.test_settings")
os.environ.setdefault("WOD_TEST_DB_DIR", tempfile.mkdtemp(prefix="wod-bench-"))


def setup_django():
    """What tests/conftest.py does, then a fresh test database."""
    from unittest import mock

    import django

    django.setup()
    import evennia
    from evennia.server.manager import ServerConfigManager

    def no_conf(self, key=None, value=None, delete=False, default=None):
        return default() if callable(default) else default

    with mock.patch.object(ServerConfigManager, "conf", no_conf):
        evennia._init()
    from django.conf import settings
    from django.db import connection

    settings.TEST_ENVIRONMENT = True
    connection.creation.create_test_db(verbosity=0, autoclobber=True)


def timed(boss, text, times, queries, profiler=None, cpu=None):
    """Run ``text`` as ``boss``; its wall time and SQL statements (SAVEPOINT/RELEASE are
    transaction bookkeeping, not reads or writes) go on the lists."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        if profiler is not None:
            profiler.enable()
        t0, c0 = time.perf_counter(), time.process_time()
        boss.execute_cmd(text)
        times.append(time.perf_counter() - t0)
        if cpu is not None:
            cpu.append(time.process_time() - c0)
        if profiler is not None:
            profiler.disable()
    queries.append(sum(1 for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"].upper()))
    return ctx


def one_size(n: int, turns: int, seed: int, profiler=None, only: str = "") -> dict:
    from evennia import create_object
    from unittest import mock

    from wodcombat.combat.d10 import scheduler as sch
    from wodcombat.typeclasses.combat import combat_in

    room = create_object("typeclasses.rooms.Room", key=f"Bench{n}")
    boss = create_object("typeclasses.characters.Character", key=f"Boss{n}", location=room)
    boss.permissions.add("Developer")
    rng = random.Random(seed)
    patch = mock.patch("wodcombat.commands.base.WodCommand.rng", rng)
    patch.start()
    try:
        # slot by slot: an act is its own command (the default pace, "ahead", resolves every
        # declared action when the last one is declared: no act left to time)
        boss.execute_cmd("+combat/start slots")
        boss.execute_cmd("+combat/timeout 0")
        for i in range(n):
            boss.execute_cmd(f"+combat/npc N{i:03d}=thug")
        boss.execute_cmd("+combat/leave")
        script = combat_in(room)
        names = {c.key: c.name for c in script.get_state().combatants}
        assert len(names) == n, len(names)
        times, queries, cpu = [], [], []
        other = {k: ([], []) for k in ("status", "declare", "look")}
        safety = 0
        while script.get_state().turn <= turns:
            safety += 1
            assert safety < 20 * n * turns + 100, "the fight does not move on"
            st = script.get_state()
            waiting = sch.prompts(st)
            if not waiting:
                boss.execute_cmd("+combat/next")
                continue
            key, what = waiting[0]
            name = names[key]
            if what == "initiative":
                boss.execute_cmd(f"+combat/init {name}=4")
            elif what == "declare":
                alive = [c.name for c in st.combatants
                         if c.key != key and c.outcome in ("", "ok", "none")]
                target = alive[(list(names).index(key) + 1) % len(alive)]
                timed(boss, f"+combat/declare {name}=attack {target}", *other["declare"],
                      profiler if only == "declare" else None)
                if len(other["status"][0]) < 20:
                    timed(boss, "+combat", *other["status"],
                          profiler if only == "status" else None)
                    timed(boss, "look", *other["look"], profiler if only == "look" else None)
            else:
                ctx = timed(boss, f"+combat/act {name}", times, queries,
                            profiler if only == "act" else None, cpu)
                if os.environ.get("WOD_BENCH_SQL") and len(queries) == 3:
                    print("\n".join(q["sql"][:120] for q in ctx.captured_queries))
        size = len(script.stored_text())
        boss.execute_cmd("+combat/end")
    finally:
        patch.stop()
    ms = sorted(t * 1000 for t in times)
    out = {"n": n, "acts": len(ms), "median": statistics.median(ms),
           "mean": statistics.fmean(ms), "p90": ms[int(len(ms) * 0.9) - 1],
           "queries": statistics.median(queries), "state_kb": size / 1024,
           "cpu": statistics.median(cpu) * 1000}
    for k, (t, q) in other.items():
        out[k] = (statistics.median(t) * 1000, statistics.median(q))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--turns", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--profile", choices=("act", "status", "declare", "look"),
                    help="cProfile these commands at the largest size")
    ap.add_argument("--overrides", choices=("on", "off"), default="on",
                    help="the WODCOMBAT_* overrides of Evennia internals (WOD_OVERRIDES)")
    args = ap.parse_args(argv)
    os.environ["WOD_OVERRIDES"] = args.overrides  # read as the settings load, just below
    print(f"overrides of Evennia internals: {args.overrides}")
    t0 = time.perf_counter()
    setup_django()
    print(f"test database ready in {time.perf_counter() - t0:.1f} s")
    print(f"{'combatants':>10} {'acts':>5} {'median ms':>10} {'mean ms':>8} {'p90 ms':>7} "
          f"{'queries':>8} {'state KB':>9}   status ms/q  declare ms/q  look ms/q  act CPU ms")
    rows = []
    profiler = None
    for n in args.sizes:
        if args.profile and n == max(args.sizes):
            import cProfile

            profiler = cProfile.Profile()
        r = one_size(n, args.turns, args.seed, profiler, args.profile or "")
        rows.append(r)
        extra = "".join(f"{r[k][0]:>9.2f}/{r[k][1]:<3.0f}" for k in ("status", "declare",
                                                                      "look"))
        print(f"{r['n']:>10} {r['acts']:>5} {r['median']:>10.2f} {r['mean']:>8.2f} "
              f"{r['p90']:>7.2f} {r['queries']:>8.0f} {r['state_kb']:>9.1f}  {extra} "
              f"{r['cpu']:>10.2f}")
    if len(rows) > 1:
        lo, hi = rows[0], rows[-1]
        print(f"median per act at {hi['n']} vs {lo['n']} combatants: "
              f"x{hi['median'] / lo['median']:.2f} (flat = about x1)")
    if profiler is not None:
        import pstats

        only = os.environ.get("WOD_BENCH_PROFILE_FILTER", "")  # a regex of file paths
        if os.environ.get("WOD_BENCH_PROFILE_OUT"):
            profiler.dump_stats(os.environ["WOD_BENCH_PROFILE_OUT"])
        st = pstats.Stats(profiler).sort_stats("cumulative")
        st.print_stats(os.environ.get("WOD_PROFILE_FILTER") or only,
                       int(os.environ.get("WOD_PROFILE_LINES") or 30))


if __name__ == "__main__":
    main()
