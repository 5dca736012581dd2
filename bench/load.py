"""Load bench (issue 13): what a fight command costs the real server next to ``look``.

Not a test: it prints figures and never asserts. It starts a throw-away server with the e2e
harness (its own game dir and SQLite database, ports in 4500-4549 unless ``--ports`` says
otherwise) and the bench probe on (``WOD_BENCH_PROBE=1``, ``server/bench_probe.py``), creates
``--clients`` players in ``--fights`` rooms, one fight a room, and plays ``--turns`` turns.
Every turn is cut into batches, one command kind a batch, run by every fight at once (one
thread per fight, its players one after the other):

* ``look``            each player looks at the room;
* ``+combat``         each player reads the fight's status;
* ``+combat/declare`` each player declares ``attack <the next player>`` (lowest initiative
  first, the order the status lists, reversed);
* ``+combat/act``     each player acts (highest initiative first): the attack is rolled and,
  when it hits, its damage and the target's soak (5 dice to hit, so most do; Strength 2
  against Stamina 5, so hardly anyone is dazed and loses an action);
* ``marker``          each player sends only the end-of-reply marker, whose cost the other
  kinds carry and have taken off.

The order of the kinds rotates from turn to turn (the declare batch always before the act
batch), so load and drift hit every kind alike. Between turns, unmeasured, the organizers
heal the bruises so nobody falls. The server process's CPU is read before and after each
batch (``/proc``); the probe counts each command's SQL statements and its CPU inside the
server. Medians over the batches, percentiles over every command.

    .venv/bin/python bench/load.py                 # 100 clients, 20 fights, 12 turns
    .venv/bin/python bench/load.py --quick         # 20 clients, 4 fights, 10 turns
    .venv/bin/python bench/load.py --clients 40 --fights 8 --turns 20 --keep
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import threading
import time
import traceback

import live  # bench/live.py (this script's folder is on sys.path when run)

KINDS = [  # (kind as printed, the probe's key)
    ("look", "look"),
    ("+combat", "+combat"),
    ("+combat/declare", "+combat/declare"),
    ("+combat/act", "+combat/act"),
]
KEYS = dict(KINDS)
TARGETS = {"+combat/act": 2.0, "+combat/declare": 1.6, "+combat": 0.8}  # issue 32
SHARES = {"+combat/act": 0.10}  # issue 32: the engine's share of an act's server time
ORDERS = [  # per turn, rotating; the declare batch comes before the act batch
    ["look", "+combat/declare", "+combat", "+combat/act", "marker"],
    ["+combat", "+combat/declare", "marker", "+combat/act", "look"],
    ["marker", "+combat/declare", "look", "+combat/act", "+combat"],
]
ROW = re.compile(r"^\s+-?\d+\s+(\S+)\s+(\S.*?)\s{2,}", re.M)


def status_rows(out: str) -> list[tuple[str, str]]:
    """(name, health) in the order the latest status lists them (highest initiative first)."""
    out = out[out.rfind("Combat:"):]
    return [(m[1], m[2].strip()) for m in ROW.finditer(out)]


class Fight(threading.Thread):
    def __init__(self, idx, room, players, admin, plan, samples, problems):
        super().__init__(name=f"fight{idx}", daemon=True)
        self.idx, self.room, self.players, self.admin = idx, room, players, admin
        self.plan, self.samples, self.problems = plan, samples, problems
        self.by_name = {p.name: p for p in players}
        self.org = players[0]
        self.order: list[str] = []
        self.refused = 0
        self.failed = False

    def setup(self) -> None:
        for p in self.players:
            p.open(create=True)
        with self.admin.lock:
            for p in self.players:
                self.admin.client.do(f"@tel/quiet {p.name}=#{self.room}")
        for p in self.players:
            for trait in ("str=2", "dex=3", "brawl=2", "sta=5", "wits=2"):
                p.do(f"+sheet/set {trait}")
        # slot by slot: an act is its own command (the default pace, "ahead", resolves
        # every declared action when the last one is declared)
        out = self.org.do("+combat/start slots")
        if "starts a fight" not in out:
            raise RuntimeError(f"+combat/start:\n{out}")
        self.org.do("+combat/timeout 0")
        for p in self.players[1:]:
            p.do("+combat/join")
        for p in self.players:
            p.do("+combat/init")
        self.org.do("+combat/next")
        self.order = [n for n, _ in status_rows(self.org.do("+combat"))]
        if sorted(self.order) != sorted(self.by_name):
            raise RuntimeError(f"status does not list the players: {self.order}")

    def heal(self) -> None:
        for name, health in status_rows(self.org.do("+combat")):
            if health != "Healthy":
                self.org.do(f"+combat/heal {name}=7 bashing")

    def one(self, kind: str) -> None:
        if kind == "marker":
            for p in self.players:
                p.marker_only()
                self.samples.rtt(kind, p.last_rtt)
            return
        if kind == "+combat/declare":
            names = list(reversed(self.order))
        else:
            names = list(self.order)
        for name in names:
            p = self.by_name[name]
            if kind == "+combat/declare":
                target = self.order[(self.order.index(name) + 1) % len(self.order)]
                out = p.do(f"+combat/declare attack {target}")
                ok = f"{name} declares" in out
            elif kind == "+combat/act":
                out = p.do("+combat/act")
                ok = f"{name} attacks" in out
            else:
                out = p.do(kind)
                ok = True
            self.samples.rtt(kind, p.last_rtt)
            if not ok:
                self.refused += 1
                self.problems.append(f"fight {self.idx}: {name}> {kind}\n{out[-600:]}")

    def run(self) -> None:
        try:
            self.setup()
        except Exception:  # noqa: BLE001 - reported; the fight sits the batches out
            self.failed = True
            self.problems.append(f"fight {self.idx} setup:\n{traceback.format_exc()}")
        for step in self.plan.steps():
            self.plan.barrier.wait()  # the main thread reads the CPU in between
            if self.failed or step == "setup":  # "setup": set up (above) before it
                self.plan.barrier.wait()
                continue
            try:
                if step == "heal":
                    self.heal()
                else:
                    self.one(step)
            except Exception:  # noqa: BLE001
                self.failed = True
                self.problems.append(f"fight {self.idx} {step}:\n{traceback.format_exc()}")
            self.plan.barrier.wait()


class Plan:
    def __init__(self, turns: int, fights: int):
        self.turns = turns
        self.barrier = threading.Barrier(fights + 1)

    def steps(self) -> list[str]:
        out = ["setup"]  # the fights set up before it ends
        for t in range(self.turns):
            out += ORDERS[t % len(ORDERS)] + ["heal"]
        return out


class AdminBox:
    def __init__(self, client):
        self.client = client
        self.lock = threading.Lock()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--fights", type=int, default=20)
    ap.add_argument("--turns", type=int, default=12)
    ap.add_argument("--quick", action="store_true", help="20 clients, 4 fights, 10 turns")
    ap.add_argument("--ports", default="4500-4549", help="range the server may listen on")
    ap.add_argument("--seed", type=int, default=None, help="account names only")
    ap.add_argument("--keep", action="store_true", help="keep the server's game dir")
    ap.add_argument("--profile", metavar="COMMAND", default=None,
                    help="cProfile this command word in the server, e.g. +combat/act")
    ap.add_argument("--sql", action="store_true",
                    help="print the SQL statements of the last act and declare")
    ap.add_argument("--gmcp", action="store_true",
                    help="players' clients say DO GMCP (Mudlet): Char.Vitals, Char.Combat")
    live.add_overrides_option(ap)
    args = ap.parse_args(argv)
    if args.quick:
        args.clients, args.fights, args.turns = 20, 4, 10
    if args.fights < 1 or args.clients < 2 * args.fights:
        ap.error("need at least 2 clients per fight")
    lo, hi = (int(x) for x in args.ports.split("-"))
    rng = random.Random(args.seed)
    print(f"load: {args.clients} clients in {args.fights} fights, {args.turns} turns; "
          f"ports {lo}-{hi}", flush=True)
    print(live.machine(), flush=True)
    print(live.use_overrides(args) + ("; players' clients accept GMCP" if args.gmcp else ""),
          flush=True)

    workdir = tempfile.mkdtemp(prefix="wod-load-")
    server = None
    samples = live.Samples()
    problems: list[str] = []
    t_start = time.monotonic()
    try:
        server = live.start_server(workdir, (lo, hi + 1))
        pid = live.server_pid(server)
        print(f"server up in {server.start_seconds:.1f} s (pid {pid}, telnet "
              f"127.0.0.1:{server.telnet_port}); CPU from {live.cpu_source(pid)}", flush=True)
        admin = live.Client(server, server.admin_user, server.admin_password).open(False)
        rooms = [live.dig_room(admin, f"LoadRoom{i}") for i in range(args.fights)]
        tag = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(3))
        players = [live.Client(server, f"L{tag}{i:03d}", f"pw-{tag}-{i}-{rng.randrange(10**6)}",
                               gmcp=args.gmcp)
                   for i in range(args.clients)]
        plan = Plan(args.turns, args.fights)
        box = AdminBox(admin)
        fights = [Fight(i, rooms[i], players[i::args.fights], box, plan, samples, problems)
                  for i in range(args.fights)]
        for f in fights:
            f.start()
        for step in plan.steps():
            plan.barrier.wait(timeout=900)  # every fight ready: go
            c0 = live.cpu_seconds(pid)
            plan.barrier.wait(timeout=900)  # every fight done with the step
            c1 = live.cpu_seconds(pid)
            # The fights wait at the next barrier while the probe is read.
            if step == "setup":
                print(f"setup done in {time.monotonic() - t_start:.0f} s", flush=True)
                t_play = time.monotonic()
                if args.profile:
                    live.start_profile(admin, args.profile.lower())
                before = admin.probe()
            elif step == "heal":
                before = admin.probe()
            else:
                n = sum(len(f.players) for f in fights if not f.failed)
                samples.batch(step, c1 - c0, n)
                after = admin.probe()
                samples.add_probe(step, KEYS.get(step, step), before, after)
                before = after
        played = time.monotonic() - t_play
        for f in fights:
            f.join(timeout=30)
        marker = samples.batch_cpu.get("marker", [])
        marker_cpu = live.statistics.median(marker) if marker else 0.0

        print(f"\nplayed {args.turns} turns in {played:.0f} s; {sum(f.refused for f in fights)} "
              f"commands refused or not understood; fights failed: "
              f"{[f.idx for f in fights if f.failed] or 'none'}")
        print(f"marker ('@benchmark <n>', answered by the probe): {marker_cpu * 1000:.2f} ms "
              f"server CPU each,\n  taken off every kind's cpu ms; p50 round trip "
              f"{live.pct(samples.rtts.get('marker', []), 50) * 1000:.1f} ms")
        print()
        rows = live.table(samples, KINDS, marker_cpu)
        print()
        live.verdict(rows, TARGETS)
        print()
        live.floors(rows, ("+combat/declare", "+combat/act"), SHARES)
        if args.sql:
            print()
            live.show_sql(admin, ["+combat/act", "+combat/declare", "look", "+combat"])
        if args.profile:
            print()
            live.show_profile(admin, args.profile.lower())
        print()
        print(live.COLUMNS)
        errors = [e for p in players + [admin] for e in p.errors]
        if problems or errors:
            print("\nproblems (first few):")
            for text in (problems + errors)[:8]:
                print("  " + text.replace("\n", "\n    "))
        return 0
    finally:
        live.stop_server(server, args.keep)


if __name__ == "__main__":
    sys.exit(main())
