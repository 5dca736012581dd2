"""Soak bench (issue 14): many clients in many fights on one real server, for a long time.

Not a test: it prints figures and problems and never asserts. It starts a throw-away
Evennia server with the e2e harness (``tests/e2e/harness.py``: its own game dir, SQLite
database and free ports on 127.0.0.1), creates ``--clients`` player accounts over telnet,
puts them in ``--fights`` rooms and plays random fights there for ``--minutes``:

* one thread per fight drives it with its own telnet clients: the organizer asks
  ``+combat/slackers`` who the turn waits for and that client types something (an attack on
  a random combatant, a dodge, a pass, an act, sometimes a bad command); NPCs are run by
  the organizer (``+combat/declare Goon1=attack X``, ``+combat/act Goon1``); when nobody is
  waited for the organizer types ``+combat/next``;
* now and then a player is left idle on purpose so the fight's idle timeout fires;
* now and then the shared admin client (staff) teleports into the room and types a staff
  command (damage, heal, undo, log, status, fights), and the organizer undoes;
* a fight is ended with ``+combat/end`` after a few turns (sooner once someone is down)
  and a new one starts in the room.

Every command is followed by a marker line (an unknown command, ``zzmk<n>``), and its reply
is everything up to Evennia's "Command 'zzmk<n>' is not available.", so no reply text has
to be guessed. Counted: commands, errors (a reply with "Traceback" or "went wrong", or no
reply in time), stuck fights (nobody waited for and ``+combat/next`` does not move the fight
on; or the same turn, phase and waiting list for more than 3x the idle timeout, so the
timeout did not fire), fights completed, idle timeouts that fired, the server's RSS after
the first minute and at the end, and "Traceback" lines in the server log.

    .venv/bin/python bench/soak.py                                  # 30 min, 100 clients, 20 fights
    .venv/bin/python bench/soak.py --minutes 2 --clients 10 --fights 3
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
import sys
import tempfile
import threading
import time
import traceback

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

from tests.e2e import harness  # noqa: E402
from tests.e2e.harness import GameServer, TelnetClient  # noqa: E402

REPLY_TIMEOUT = 30.0  # seconds to wait for one command's reply before counting an error
SLACK = re.compile(r"^\s*(\S+)\s+(?:\[NPC\])?\s*(\w+)\s+waiting", re.M)
CLOCK = re.compile(r"Waiting for: turn (\d+), (\w+) phase")
STATUS_TURN = re.compile(r"Combat: .*?, turn (\d+), (\w+) phase")
ERROR_MARKS = ("Traceback", "went wrong")
NPC_TEMPLATES = ("thug", "gunman", "ghoul", "vampire")


# --------------------------------------------------------------------------- counters


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.commands = 0
        self.errors = 0  # replies with a traceback / "went wrong"
        self.reply_timeouts = 0
        self.disconnects = 0
        self.broadcast_errors = 0  # "Traceback"/"went wrong" in text a client did not ask for
        self.stuck = 0
        self.fights_started = 0
        self.fights_completed = 0
        self.turns = 0
        self.idle_waits = 0  # players left idle on purpose
        self.idle_fired = 0  # ... and the timeout passed for them
        self.idle_max_wait = 0.0
        self.timeouts_seen = 0  # "Time is up for" lines seen by the organizers
        self.staff_commands = 0
        self.bad_commands = 0
        self.samples: list[str] = []  # first few problems, for the report
        self.thread_crashes = 0
        self.ended: dict[str, int] = {}  # why fights were ended

    def end(self, why: str) -> None:
        with self.lock:
            self.ended[why] = self.ended.get(why, 0) + 1

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)

    def problem(self, kind: str, text: str, **kw):
        with self.lock:
            for k, v in kw.items():
                setattr(self, k, getattr(self, k) + v)
            if len(self.samples) < 12:
                self.samples.append(f"[{kind}] {text.strip()[-1500:]}")


STATS = Stats()


def check_reply(who: str, line: str, out: str) -> None:
    if any(m in out for m in ERROR_MARKS):
        STATS.problem("error", f"{who}> {line}\n{out}", errors=1)


# --------------------------------------------------------------------------- a client


class Player:
    """One telnet client logged in as one character; ``do`` sends a command and returns its
    whole reply (up to a marker command's "not available")."""

    def __init__(self, server: GameServer, name: str, password: str):
        self.server, self.name, self.password = server, name, password
        self.tc: TelnetClient | None = None
        self.n = 0
        self.watch = False  # an organizer: count the room's "Time is up for" lines

    def seen(self, text: str) -> None:
        if self.watch and "Time is up for" in text:
            STATS.add(timeouts_seen=text.count("Time is up for"))

    def open(self, create: bool) -> None:
        self.tc = self.server.connect(timeout=REPLY_TIMEOUT)
        if create:
            self.tc.create_and_login(self.name, self.password, timeout=60)
        else:
            self.tc.read_until("connect", 60)
            self.tc.login(self.name, self.password, 60)
        self.tc.read_available(0.2)

    def reopen(self) -> None:
        try:
            if self.tc:
                self.tc.close()
        except OSError:
            pass
        try:
            self.open(create=False)
        except Exception as err:  # noqa: BLE001 - counted, the fight goes on
            STATS.problem("reconnect", f"{self.name}: {err!r}", errors=1)

    def do(self, line: str, timeout: float = REPLY_TIMEOUT) -> str:
        self.n += 1
        mark = f"zzmk{self.n}"
        STATS.add(commands=1)
        try:
            self.tc.send(line)
            self.tc.send(mark)
            out = self.tc.read_until(f"'{mark}' is not available", timeout)
        except TimeoutError:
            text = self.tc._buffer if self.tc else ""
            STATS.problem("no reply", f"{self.name}> {line} (no reply in {timeout:.0f} s)\n"
                          f"{text[-500:]}", reply_timeouts=1)
            if self.tc:
                self.tc._buffer = ""
            return text
        except (ConnectionError, OSError) as err:
            STATS.problem("disconnect", f"{self.name}> {line}: {err!r}"[:600], disconnects=1)
            self.reopen()
            return ""
        check_reply(self.name, line, out)
        self.seen(out)
        return out

    def drain(self) -> str:
        """What arrived unasked (room messages); read so no socket buffer fills up."""
        if not self.tc:
            return ""
        try:
            text = self.tc.read_available(0.01)
        except (ConnectionError, OSError):
            STATS.add(disconnects=1)
            self.reopen()
            return ""
        if any(m in text for m in ERROR_MARKS):
            STATS.problem("broadcast", f"{self.name} saw:\n{text}", broadcast_errors=1)
        self.seen(text)
        return text


class Admin:
    """The shared staff client: one fight thread at a time teleports it in and uses it."""

    def __init__(self, player: Player):
        self.p = player
        self.lock = threading.Lock()
        self.where = None

    def run(self, room: int, lines: list[str]) -> list[str]:
        outs = []
        with self.lock:
            if self.where != room:
                self.p.do(f"@tel/quiet #{room}")
                self.where = room
            for line in lines:
                outs.append(self.p.do(line))
            self.p.drain()
        return outs


# --------------------------------------------------------------------------- a fight


def parse_slackers(out: str):
    m = CLOCK.search(out)
    turn, phase = (int(m[1]), m[2]) if m else (None, None)
    if "There is no fight" in out:
        phase = "none"
    pending = [(n, w) for n, w in SLACK.findall(out)]
    return turn, phase, pending


class Fight(threading.Thread):
    def __init__(self, idx: int, room: int, players: list[Player], admin: Admin,
                 deadline_box: list, stop: threading.Event, seed: int):
        super().__init__(name=f"fight{idx}", daemon=True)
        self.idx, self.room, self.players, self.admin = idx, room, players, admin
        self.deadline_box, self.stop = deadline_box, stop
        self.rng = random.Random(seed)
        self.by_name = {p.name.lower(): p for p in players}
        self.org = players[0]
        self.org.watch = True
        self.npcs: list[str] = []
        self.timeout = 15
        self.ready = threading.Event()
        self.failed_setup = False

    # -- helpers
    def running(self) -> bool:
        dl = self.deadline_box[0]
        return not self.stop.is_set() and (dl is None or time.monotonic() < dl)

    def names(self) -> list[str]:
        return [p.name for p in self.players] + self.npcs

    def pick_target(self, me: str) -> str:
        others = [n for n in self.names() if n.lower() != me.lower()]
        return self.rng.choice(others) if others else me

    def drain_all(self) -> None:
        for p in self.players:
            p.drain()

    def think(self) -> None:
        time.sleep(self.rng.uniform(0.05, 0.4))

    # -- setup
    def setup(self) -> None:
        for p in self.players:
            p.open(create=True)
        self.admin.run(self.room, [f"@tel/quiet {p.name}=#{self.room}" for p in self.players])
        for p in self.players:
            for trait in ("dex", "wits", "str", "sta", "brawl", "dodge"):
                p.do(f"+sheet/set {trait}={self.rng.randint(1, 4)}")
        self.drain_all()

    def revived(self, p: Player, out: str) -> bool:
        """A character the last fight killed (or put in torpor) is refused a new one; staff
        undo that first, as a game's staff would (``+sheet/revive``)."""
        if "+sheet/revive" not in out:
            return False
        self.admin.run(self.room, [f"+sheet/revive {p.name}"])
        STATS.add(staff_commands=1)
        return True

    def start_fight(self) -> bool:
        out = self.org.do("+combat/start")
        if "already running" in out:
            self.admin.run(self.room, ["+combat/end"])
            out = self.org.do("+combat/start")
        if self.revived(self.org, out):
            out = self.org.do("+combat/start")
        if "starts a fight" not in out:
            STATS.problem("start", f"{self.org.name}> +combat/start\n{out}", errors=1)
            return False
        STATS.add(fights_started=1)
        self.timeout = self.rng.choice((10, 15, 20))
        self.org.do(f"+combat/timeout {self.timeout}")
        for p in self.players[1:]:
            if self.revived(p, p.do("+combat/join")):
                p.do("+combat/join")
        for p in self.players:  # wounds stay on the sheets from the last fight
            for kind in ("aggravated", "lethal", "bashing"):
                self.org.do(f"+combat/heal {p.name}=7 {kind}")
        n = self.rng.randint(1, 2)
        self.npcs = [f"Goon{i}" for i in range(1, n + 1)]
        tmpl = self.rng.choice(NPC_TEMPLATES)
        self.org.do(f"+combat/npc {','.join(self.npcs)}={tmpl}")
        self.max_turns = self.rng.randint(2, 5)
        self.drain_all()
        return True

    def end_fight(self, completed: bool = True) -> None:
        out = self.org.do("+combat/end")
        if "fight is over" not in out.lower():
            self.admin.run(self.room, ["+combat/end"])
        if completed:
            STATS.add(fights_completed=1)
        self.npcs = []
        self.drain_all()

    # -- one move for whoever the turn waits for
    def move_for(self, name: str, what: str, attempts: int) -> None:
        is_npc = name in self.npcs
        safe = attempts >= 3  # refused a few times: something surely legal
        r = self.rng.random()
        if is_npc:
            client = self.org
            if what == "initiative":
                line = f"+combat/init {name}={self.rng.randint(1, 7)}"
            elif what == "declare":
                if safe or r < 0.15:
                    line = f"+combat/declare {name}=dodge"
                elif r < 0.2:
                    line = f"+combat/pass {name}"
                else:
                    line = f"+combat/declare {name}=attack {self.pick_target(name)}"
            else:
                line = f"+combat/pass {name}" if (safe or r < 0.05) else f"+combat/act {name}"
        else:
            client = self.by_name.get(name.lower())
            if client is None:
                STATS.problem("parse", f"unknown pending name {name!r} in room {self.room}")
                return
            if what == "initiative":
                line = "+combat/init"
            elif what == "declare":
                if safe:
                    line = "+combat/pass"
                elif r < 0.45:
                    line = f"+combat/declare attack {self.pick_target(name)}"
                elif r < 0.6:
                    line = "+combat/declare dodge"
                elif r < 0.7:
                    line = "+combat/pass"
                elif r < 0.8:
                    line = f"+combat/declare attack {self.pick_target(name)}; dodge"
                elif r < 0.85:
                    line = f"+combat/attack {self.pick_target(name)}=sweep"
                elif r < 0.9:
                    line = "+combat/defend"
                else:
                    line = self.rng.choice(("+combat/declare attack Nobody",
                                            "+combat/declare flarp the gizmo",
                                            "+combat/declare attack",
                                            "+combat/act"))
                    STATS.add(bad_commands=1)
            else:
                if safe or r < 0.06:
                    line = "+combat/pass"
                elif r < 0.1:
                    line = "+combat/abort dodge"
                elif r < 0.13:
                    line = "+combat/act Goon1"  # not theirs to run: refused
                    STATS.add(bad_commands=1)
                else:
                    line = "+combat/act"
        client.do(line)

    def noise(self) -> None:
        """Something off-turn: a look at the fight, a bad switch, a staff command."""
        r = self.rng.random()
        if r < 0.04:
            p = self.rng.choice(self.players)
            p.do(self.rng.choice(("+combat", "+combat/slackers", "+combat/log 3",
                                  "+combat/timeout", "+combat/zap", "+combat/init Goon1=abc",
                                  f"+combat/damage {self.pick_target(p.name)}=1 bashing",
                                  "+combat/next")))
        elif r < 0.07:
            target = self.rng.choice(self.names())
            kind = self.rng.choice(("bashing", "lethal"))
            line = self.rng.choice((f"+combat/damage {target}=1 {kind}",
                                    f"+combat/heal {target}=1 {kind}",
                                    "+combat/undo", "+combat/log 5", "+combat",
                                    "+combat/fights"))
            STATS.add(staff_commands=1)
            self.admin.run(self.room, [line])
        elif r < 0.08:
            self.org.do("+combat/undo")

    # -- the loop
    def run(self):
        try:
            try:
                self.setup()
            except Exception as err:  # noqa: BLE001
                self.failed_setup = True
                STATS.problem("setup", f"fight {self.idx}: {err!r}\n{traceback.format_exc()}",
                              errors=1)
                return
            finally:
                self.ready.set()
            while self.deadline_box[0] is None and not self.stop.is_set():
                time.sleep(0.2)
            while self.running():
                if not self.start_fight():
                    time.sleep(2)
                    continue
                self.play()
                if self.running():
                    self.end_fight()
        except Exception:  # noqa: BLE001 - a crash of the driver is reported, not raised
            STATS.problem("thread", f"fight {self.idx}:\n{traceback.format_exc()}",
                          thread_crashes=1)

    def play(self) -> None:
        key, since, attempts = None, time.monotonic(), 0
        idle_key, idle_since = None, 0.0
        last_turn = 1
        steps = 0
        while self.running():
            steps += 1
            if steps % 8 == 0:
                self.drain_all()
            out = self.org.do("+combat/slackers")
            turn, phase, pending = parse_slackers(out)
            if phase in ("none", "ended") or turn is None:
                if phase == "none":
                    STATS.problem("lost", f"fight in room {self.room} vanished:\n{out}")
                STATS.end(f"phase {phase}")
                return
            if turn != last_turn:
                STATS.add(turns=turn - last_turn if turn > last_turn else 0)
                last_turn = turn
                if turn > self.max_turns:
                    STATS.end("turns")
                    return
                if turn >= 2 and self.someone_down():
                    STATS.end("someone down")
                    return
            now = time.monotonic()
            new_key = (turn, phase, tuple(pending))
            if new_key != key:
                if idle_key is not None:  # the turn moved on while a player idled
                    waited = now - idle_since
                    STATS.add(idle_fired=1)
                    with STATS.lock:
                        STATS.idle_max_wait = max(STATS.idle_max_wait, waited)
                    idle_key = None
                key, since, attempts = new_key, now, 0
            elif now - since > 3 * self.timeout + 5:
                STATS.problem("stuck", f"room {self.room}: {phase} phase of turn {turn} waits "
                              f"for {pending} for {now - since:.0f} s (timeout "
                              f"{self.timeout} s)\n{out}", stuck=1)
                STATS.end("stuck")
                return
            if not pending:
                nxt = self.org.do("+combat/next")
                out2 = self.org.do("+combat/slackers")
                t2, p2, pend2 = parse_slackers(out2)
                if (t2, p2) == (turn, phase) and not pend2:
                    STATS.problem("stuck", f"room {self.room}: nobody pending and "
                                  f"+combat/next did not move turn {turn} {phase} on\n"
                                  f"{nxt}\n{out2}", stuck=1)
                    STATS.end("stuck")
                    return
                self.think()
                continue
            if idle_key is not None:  # waiting on purpose for the timeout
                time.sleep(1.0)
                continue
            name, what = pending[0]
            if (name not in self.npcs and what in ("declare", "act")
                    and self.rng.random() < 0.02):
                idle_key, idle_since = key, now
                STATS.add(idle_waits=1)
                continue
            if attempts >= 6:  # refused again and again: let the timeout decide
                time.sleep(1.0)
                continue
            attempts += 1
            self.move_for(name, what, attempts)
            self.noise()
            self.think()

    def someone_down(self) -> bool:
        out = self.org.do("+combat")
        return bool(re.search(r"Incapacitated|\((DEAD|TORPOR|INCAPACITATED)", out))


# --------------------------------------------------------------------------- the run


def rss_kb(server: GameServer) -> int | None:
    try:
        with open(os.path.join(server.gamedir, "server", "server.pid")) as fh:
            pid = int(fh.read().strip())
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def log_tracebacks(server: GameServer) -> tuple[int, str]:
    count, last = 0, ""
    for path in sorted(glob.glob(os.path.join(server.gamedir, "server", "logs", "server.log*"))):
        try:
            with open(path, errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            continue
        for i, line in enumerate(lines):
            if "Traceback" in line:
                count += 1
                last = "\n".join(lines[max(0, i - 2):i + 14])
    return count, last


def snapshot(admin: Admin, where: str | None, name: str) -> None:
    """A tracemalloc snapshot of the server, dumped by the admin's ``py`` (``--snapshots``);
    compare two with ``tracemalloc.Snapshot.load(b).compare_to(load(a), "lineno")``."""
    if not where:
        return
    path = os.path.join(os.path.abspath(where), f"{name}.snap")
    with admin.lock:
        admin.p.do(f"py import gc, tracemalloc; gc.collect(); "
                   f"tracemalloc.take_snapshot().dump({path!r})", timeout=120)
        admin.p.drain()


def census(admin: Admin, where: str | None, name: str, cost: bool = False) -> None:
    """What is alive in the server (``bench/census.py``), dumped by the admin's ``py``
    (``--census``): run there through ``runpy``, so a normal server imports nothing of it."""
    if not where:
        return
    path = os.path.join(os.path.abspath(where), f"{name}.json")
    script = os.path.join(REPO_ROOT, "bench", "census.py")
    with admin.lock:
        admin.p.do(f"py import runpy; runpy.run_path({script!r})['dump']({path!r}, {cost})",
                   timeout=120)
        admin.p.drain()


def mb(kb: int | None) -> str:
    return "?" if kb is None else f"{kb / 1024:.1f} MB"


def progress(t0: float, rss) -> str:
    s = STATS
    el = time.monotonic() - t0
    return (f"[{el / 60:5.1f} min] cmds {s.commands} ({s.commands / max(el, 1):.1f}/s)  "
            f"errors {s.errors}  no-reply {s.reply_timeouts}  stuck {s.stuck}  "
            f"fights done {s.fights_completed}  turns {s.turns}  idle fired "
            f"{s.idle_fired}/{s.idle_waits}  staff {s.staff_commands}  RSS {mb(rss)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--fights", type=int, default=20)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the server's game dir (logs)")
    ap.add_argument("--snapshots", metavar="DIR", default=None,
                    help="run the server under tracemalloc and dump a snapshot to DIR after "
                         "the first minute and at the end (slow: for finding growth)")
    ap.add_argument("--census", metavar="DIR", default=None,
                    help="once a minute, write what is alive in the server (objects by type, "
                         "caches, allocator) to DIR/minNN.json (bench/census.py compares two)")
    ap.add_argument("--ports", default=None, metavar="LO-HI",
                    help="the range the server may listen on (default: any free port)")
    args = ap.parse_args(argv)
    if args.fights < 1 or args.clients < 2 * args.fights:
        ap.error("need at least 2 clients per fight")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"soak: {args.minutes} min, {args.clients} clients in {args.fights} fights, "
          f"seed {seed}", flush=True)

    if args.ports:
        import live  # bench/live.py (this script's folder is on sys.path when run)

        lo, hi = (int(x) for x in args.ports.split("-"))
        harness.free_ports = live.ports_in(lo, hi + 1)
    if args.census:
        os.makedirs(args.census, exist_ok=True)
    if args.snapshots:
        os.makedirs(args.snapshots, exist_ok=True)
        os.environ["PYTHONTRACEMALLOC"] = "5"  # the server inherits it (harness env)
    workdir = tempfile.mkdtemp(prefix="wod-soak-")
    server = None
    stop = threading.Event()
    deadline_box: list = [None]
    fights: list[Fight] = []
    rss_first = rss_end = None
    t_setup = time.monotonic()
    try:
        server = GameServer.start(workdir)
        print(f"server up in {server.start_seconds:.1f} s (telnet 127.0.0.1:"
              f"{server.telnet_port}, game dir {server.gamedir})", flush=True)
        admin = Player(server, server.admin_user, server.admin_password)
        admin.open(create=False)
        shared = Admin(admin)
        rooms = []
        for i in range(args.fights):
            out = admin.do(f"@dig SoakRoom{i}")
            m = re.search(r"#(\d+)", out[out.find("Created"):]) if "Created" in out else None
            if not m:
                raise RuntimeError(f"@dig failed:\n{out}")
            rooms.append(int(m[1]))
        tag = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(3))
        players = [Player(server, f"S{tag}{i:03d}", f"pw-{tag}-{i}-{rng.randrange(10**6)}")
                   for i in range(args.clients)]
        for i in range(args.fights):
            group = players[i::args.fights]
            fights.append(Fight(i, rooms[i], group, shared, deadline_box, stop,
                                rng.randrange(1 << 30)))
        for f in fights:
            f.start()
        setup_limit = time.monotonic() + 600
        for f in fights:
            f.ready.wait(max(0.0, setup_limit - time.monotonic()))
        bad = [f.idx for f in fights if f.failed_setup or not f.ready.is_set()]
        print(f"setup: {args.clients} accounts in {args.fights} rooms in "
              f"{time.monotonic() - t_setup:.0f} s" + (f"; fights not set up: {bad}" if bad
                                                      else ""), flush=True)
        if len(bad) == len(fights):
            raise RuntimeError("no fight could be set up")

        t0 = time.monotonic()
        deadline_box[0] = t0 + args.minutes * 60
        rss_start = rss_kb(server)
        print(f"RSS at start of play: {mb(rss_start)}", flush=True)
        census(shared, args.census, "min00")
        next_report = t0 + 60
        while time.monotonic() < deadline_box[0]:
            time.sleep(max(0.0, min(1.0, deadline_box[0] - time.monotonic())))
            if time.monotonic() >= next_report:
                rss = rss_kb(server)
                if rss_first is None:
                    rss_first = rss
                    snapshot(shared, args.snapshots, "first")
                census(shared, args.census, f"min{round((time.monotonic() - t0) / 60):02d}")
                print(progress(t0, rss), flush=True)
                next_report += 60
            if not any(f.is_alive() for f in fights):
                print("every fight thread has stopped", flush=True)
                break
        played = time.monotonic() - t0
        stop.set()
        for f in fights:
            f.join(timeout=max(1.0, t0 + played + 120 - time.monotonic()))
        still = [f.name for f in fights if f.is_alive()]
        rss_end = rss_kb(server)
        snapshot(shared, args.snapshots, "end")
        census(shared, args.census, "end", cost=True)
        if rss_first is None:
            rss_first = rss_start
        tb_count, tb_last = log_tracebacks(server)

        s = STATS
        print("\n==================== soak report ====================")
        print(f"played {played / 60:.1f} min (seed {seed}); {args.clients} clients, "
              f"{args.fights} fights" + (f"; threads still running: {still}" if still else ""))
        print(f"commands sent       {s.commands} ({s.commands / max(played, 1):.1f}/s)")
        print(f"errors              {s.errors + s.reply_timeouts + s.broadcast_errors} "
              f"(traceback/went wrong in a reply: {s.errors}, no reply in "
              f"{REPLY_TIMEOUT:.0f} s: {s.reply_timeouts}, in room text: {s.broadcast_errors})")
        print(f"disconnects         {s.disconnects}")
        print(f"stuck fights        {s.stuck}")
        print(f"fights started      {s.fights_started}, completed {s.fights_completed}, "
              f"turns played {s.turns}")
        print("fights ended by     " + (", ".join(f"{k}: {v}" for k, v in
                                                   sorted(s.ended.items())) or "-"))
        print(f"idle on purpose     {s.idle_waits}, the turn moved on for {s.idle_fired} "
              f"(longest wait {s.idle_max_wait:.0f} s); 'Time is up' lines seen "
              f"{s.timeouts_seen}")
        print(f"staff commands      {s.staff_commands}; bad commands {s.bad_commands}")
        print(f"driver crashes      {s.thread_crashes}")
        growth = (f"{(rss_end - rss_first) * 100 / rss_first:+.1f}%"
                  if rss_first and rss_end else "?")
        print(f"server RSS          after 1st minute {mb(rss_first)}, at end {mb(rss_end)} "
              f"({growth}); at start of play {mb(rss_start)}")
        print(f"server log          {tb_count} 'Traceback' lines")
        if s.samples:
            print("\nfirst problems:")
            for text in s.samples:
                print("  " + text.replace("\n", "\n    "))
        if tb_last:
            print("\nlast traceback in the server log:\n  " + tb_last.replace("\n", "\n  "))
        print("=====================================================", flush=True)
        return 0
    finally:
        stop.set()
        if server is not None:
            server.stop()
            if args.keep:
                print(f"kept game dir: {server.gamedir}")
            else:
                server.cleanup()
        elif not args.keep:
            import shutil
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
