"""Scale bench (issue 13): does a fight command cost the same at 10 and at 100 combatants?

Not a test: it prints figures and never asserts. It starts a throw-away server with the e2e
harness and the bench probe on (as ``bench/load.py`` does; ports in 4500-4549 unless
``--ports`` says otherwise). For each size in ``--sizes`` the admin (staff) starts a fight in
a room of its own, adds that many NPCs with ``+combat/npc <n> <prefix>=<traits>`` (20 at a
time, the command's limit; ``bench/combat_commands.py`` does the same in-process), leaves
the fight, sets every NPC's initiative and plays ``--turns`` turns for them from one telnet
client (a smaller size plays as many more turns as make about the same number of commands).
Every turn is cut into batches, one command kind a batch, each of them one command per
combatant:

* ``look``            the admin looks at the room (the NPCs stand in it);
* ``+combat``         the fight's status (it lists every combatant: it grows with them);
* ``+combat/declare`` ``<npc>=attack <the next npc>``, lowest initiative first;
* ``+combat/act``     ``<npc>``, highest initiative first: attack, damage and soak rolls;
* ``marker``          only the end-of-reply marker, whose CPU the other kinds have taken off.

The order of the kinds rotates from turn to turn (declare before act). The server process's
CPU is read before and after each batch; the probe counts SQL statements and the handler's
CPU per command. Printed: a table per size and the ratio of the largest size to the smallest
(target: at most 1.2x for act, declare and status).

    .venv/bin/python bench/scale.py                    # 10, 50 and 100 combatants, 4 turns at 100
    .venv/bin/python bench/scale.py --quick            # 10 and 100, 2 turns
    .venv/bin/python bench/scale.py --sizes 10 200 --turns 2
    .venv/bin/python bench/scale.py --interleave --sizes 10 100   # the sizes played in turn

``--interleave`` sets every size's fight up first and then plays one turn of the largest and
as many commands of each other size in turn: on a machine whose speed changes from minute to
minute (this VM's does, by 20-40%), the sequential runs put the sizes in different minutes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

import live  # bench/live.py (this script's folder is on sys.path when run)
from load import ORDERS, SHARES, TARGETS, status_rows

KINDS = [
    ("look", "look"),
    ("+combat", "+combat"),
    ("+combat/declare", "+combat/declare"),
    ("+combat/act", "+combat/act"),
]
KEYS = dict(KINDS)
TRAITS = "str=2,dex=3,brawl=2,sta=5,wits=2"  # most attacks hit; few daze (see load.py)
LIMIT = 1.2
NPC_CHUNK = 20


class Fight:
    """One size's fight: its room, its NPCs in initiative order, what was measured."""

    def __init__(self, admin: live.Client, n: int, prefix: str):
        self.n, self.room = n, live.dig_room(admin, f"ScaleRoom{n}{prefix}")
        admin.do(f"@tel/quiet #{self.room}")
        # slot by slot: each act its own command (see load.py)
        out = admin.do("+combat/start slots")
        if "starts a fight" not in out:
            raise RuntimeError(f"+combat/start:\n{out}")
        admin.do("+combat/timeout 0")
        names = []
        for c in range(0, n, NPC_CHUNK):  # the command makes at most 20 at once
            chunk = f"{prefix}{chr(ord('a') + c // NPC_CHUNK)}"
            count = min(NPC_CHUNK, n - c)
            out = admin.do(f"+combat/npc {count} {chunk}={TRAITS}")
            names += [f"{chunk}{i}" for i in range(1, count + 1)]
        admin.do("+combat/leave")
        for name in names:
            admin.do(f"+combat/init {name}=4")
        admin.do("+combat/next")
        status = admin.do("+combat")
        self.order = [name for name, _ in status_rows(status)]
        if len(self.order) != n:
            raise RuntimeError(f"{len(self.order)} combatants, not {n}:\n{out[-600:]}\n"
                               f"{status}")
        self.samples, self.refused, self.turns = live.Samples(), [], 0

    def play_turn(self, admin: live.Client, pid: int) -> None:
        """One turn: a batch of each kind, in the order of this turn (``ORDERS``)."""
        order, samples = self.order, self.samples
        for kind in ORDERS[self.turns % len(ORDERS)]:
            lines, expect = [], []
            if kind == "+combat/declare":
                for name in reversed(order):
                    target = order[(order.index(name) + 1) % len(order)]
                    lines.append(f"+combat/declare {name}=attack {target}")
                    expect.append(f"{name} declares")
            elif kind == "+combat/act":
                lines = [f"+combat/act {name}" for name in order]
                expect = [f"{name} attacks" for name in order]
            elif kind != "marker":
                lines, expect = [kind] * self.n, [""] * self.n
            before = admin.probe()
            c0 = live.cpu_seconds(pid)
            if kind == "marker":
                for _ in range(self.n):
                    admin.marker_only()
                    samples.rtt(kind, admin.last_rtt)
            else:
                for line, want in zip(lines, expect):
                    reply = admin.do(line)
                    samples.rtt(kind, admin.last_rtt)
                    if want not in reply:
                        self.refused.append(f"{line}\n{reply[-400:]}")
            samples.batch(kind, live.cpu_seconds(pid) - c0, self.n)
            samples.add_probe(kind, KEYS.get(kind, kind), before, admin.probe())
        for name, health in status_rows(admin.do("+combat")):  # unmeasured
            if health != "Healthy":
                admin.do(f"+combat/heal {name}=7 bashing")
        self.turns += 1

    def finish(self, admin: live.Client) -> dict:
        admin.do(f"@tel/quiet #{self.room}")
        admin.do("+combat/end")
        marker = self.samples.batch_cpu.get("marker", [])
        marker_cpu = statistics.median(marker) if marker else 0.0
        print(f"\n--- {self.n} combatants: {self.turns} turns, {len(self.refused)} commands "
              f"refused; marker {marker_cpu * 1000:.2f} ms CPU each", flush=True)
        rows = live.table(self.samples, KINDS, marker_cpu)
        live.verdict(rows, TARGETS)  # issue 32: the ratios to look hold at every size
        live.floors(rows, ("+combat/declare", "+combat/act"), SHARES)
        for text in self.refused[:3]:
            print("  refused: " + text.replace("\n", "\n    "))
        return {row["kind"]: row for row in rows}


def prefix(i: int) -> str:
    """The NPC names' prefix of the ``i``-th size (unique in one server)."""
    return "N" + "abcdefghjk"[i % 10] + "x"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 100])
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--quick", action="store_true", help="sizes 10 and 100, 2 turns")
    ap.add_argument("--interleave", action="store_true",
                    help="set every size up first, then play them in turn (the machine's "
                    "slow minutes fall on all sizes alike)")
    ap.add_argument("--ports", default="4500-4549", help="range the server may listen on")
    ap.add_argument("--keep", action="store_true", help="keep the server's game dir")
    ap.add_argument("--profile", metavar="COMMAND", default=None,
                    help="cProfile this command word in the server (at the last size), "
                    "e.g. +combat/act")
    ap.add_argument("--sql", action="store_true",
                    help="print the SQL of the last act and declare (of the last size)")
    live.add_overrides_option(ap)
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes, args.turns = [10, 100], 2
    lo, hi = (int(x) for x in args.ports.split("-"))
    print(f"scale: sizes {args.sizes}, {args.turns} turns at {max(args.sizes)} (more at the "
          f"smaller sizes: the same number of commands); ports {lo}-{hi}", flush=True)
    print(live.machine(), flush=True)
    print(live.use_overrides(args), flush=True)
    workdir = tempfile.mkdtemp(prefix="wod-scale-")
    server = None
    try:
        server = live.start_server(workdir, (lo, hi + 1))
        pid = live.server_pid(server)
        print(f"server up in {server.start_seconds:.1f} s (pid {pid}); CPU from "
              f"{live.cpu_source(pid)}", flush=True)
        admin = live.Client(server, server.admin_user, server.admin_password).open(False)
        results = {}
        # Each size plays about as many commands as the largest: 4 turns of 10 are 40
        # commands of a kind, too few batches to take a median of on a shared machine.
        turns = {n: args.turns * max(1, round(max(args.sizes) / n)) for n in args.sizes}
        if args.interleave:
            # Every fight set up first, then one turn of the largest and as many commands of
            # each other size in turn, over and over: a shared machine's slow and quick
            # minutes fall on every size alike, and every size is measured in a server
            # holding all of them (the ratio is the fight's, not the heap's).
            fights = [Fight(admin, n, prefix(i)) for i, n in enumerate(args.sizes)]
            if args.profile:
                live.start_profile(admin, args.profile.lower())  # every size, mixed
            for _ in range(args.turns):
                for f in fights:
                    admin.do(f"@tel/quiet #{f.room}")
                    for _ in range(turns[f.n] // args.turns):
                        f.play_turn(admin, pid)
            for f in fights:
                results[f.n] = f.finish(admin)
        else:
            for i, n in enumerate(args.sizes):
                t0 = time.monotonic()
                if args.profile and i == len(args.sizes) - 1:
                    live.start_profile(admin, args.profile.lower())  # the last size only
                f = Fight(admin, n, prefix(i))
                for _ in range(turns[n]):
                    f.play_turn(admin, pid)
                results[n] = f.finish(admin)
                print(f"({time.monotonic() - t0:.0f} s)", flush=True)
        lo_n, hi_n = min(results), max(results)
        if lo_n != hi_n:
            print(f"\n{hi_n} vs {lo_n} combatants, per command (target <= {LIMIT}x):")
            print(f"{'kind':<16}{'cpu ms':>25}{'handler ms':>25}{'sql':>20}{'p50 ms':>25}")
            for kind, _ in KINDS:
                a, b = results[lo_n][kind], results[hi_n][kind]
                cells = []
                for f in ("cpu", "handler", "sql", "p50"):
                    digits = 1 if f == "sql" else 2
                    x = b[f] / a[f] if a[f] else float("nan")
                    mark = "" if kind == "look" or f == "p50" or x != x else \
                        (" ok" if x <= LIMIT else " !")
                    ratio = f"x{x:.2f}" if x == x else "-"
                    cell = f"{a[f]:.{digits}f} -> {b[f]:.{digits}f} {ratio}{mark}"
                    cells.append(f"{cell:>{20 if f == 'sql' else 25}}")
                print(f"{kind:<16}" + "".join(cells))
            print("  (! over the target; look is the yardstick, not a target; p50 is the "
                  "round trip, for reference)")
        if args.sql:
            print()
            live.show_sql(admin, ["+combat/act", "+combat/declare"])
        if args.profile:
            print()
            live.show_profile(admin, args.profile.lower())
        print()
        print(live.COLUMNS)
        return 0
    finally:
        live.stop_server(server, args.keep)


if __name__ == "__main__":
    sys.exit(main())
