"""What ``bench/load.py`` and ``bench/scale.py`` share: a real server with the bench probe on,
telnet clients that time a command's round trip, the server process's CPU, and the table.

Not a test; nothing here asserts. The server is the e2e harness's (``tests/e2e/harness.py``:
a throw-away game dir and SQLite database on 127.0.0.1), started with ``WOD_BENCH_PROBE=1``
(``server/bench_probe.py``) so the server counts SQL statements and its own CPU per command.
"""

from __future__ import annotations

import json
import os
import platform
import re
import socket
import statistics
import sys
import threading
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

from tests.e2e import harness  # noqa: E402
from tests.e2e.harness import DO, IAC, WILL, GameServer, TelnetClient  # noqa: E402

REPLY_TIMEOUT = 60.0
PORTS = (4500, 4550)  # the range this bench may listen on (--ports changes it)
ERROR_MARKS = ("Traceback", "went wrong")


# --------------------------------------------------------------------------- server

GMCP = 201


class GmcpTelnet(TelnetClient):
    """A client that says DO GMCP, as Mudlet does (``--gmcp``): the server then sends it
    Char.Vitals and Char.Combat (wodcombat/world/oob.py); the harness drops their bytes."""

    def _process(self, data: bytes) -> str:
        offer = bytes([IAC, WILL, GMCP])
        if offer in data:
            data = data.replace(offer, b"")
            self.sock.sendall(bytes([IAC, DO, GMCP]))
        return super()._process(data)


def ports_in(lo: int, hi: int):
    """A ``free_ports`` for the harness that only hands out ports in [lo, hi)."""

    def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
        found = []
        for port in range(lo, hi):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                s.bind((host, port))
            except OSError:
                continue
            finally:
                s.close()
            found.append(port)
            if len(found) == count:
                return found
        raise RuntimeError(f"fewer than {count} free ports in {lo}-{hi - 1}")

    return free_ports


def start_server(workdir: str, ports: tuple[int, int] = PORTS) -> GameServer:
    os.environ["WOD_BENCH_PROBE"] = "1"  # the harness copies os.environ into the server's
    harness.free_ports = ports_in(*ports)
    return GameServer.start(workdir, web=False)


def stop_server(server: GameServer | None, keep: bool) -> None:
    """Stop a bench's throw-away server; its game dir is removed unless ``keep``."""
    if server is None:
        return
    server.stop()
    if keep:
        print(f"kept game dir: {server.gamedir}")
    else:
        server.cleanup()


def server_pid(server: GameServer) -> int:
    with open(os.path.join(server.gamedir, "server", "server.pid")) as fh:
        return int(fh.read().strip())


_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU (user + system) the process has used: nanoseconds from every thread's
    ``/proc/<pid>/task/<tid>/schedstat``, else ``/proc/<pid>/stat`` in clock ticks."""
    total, ok = 0, False
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as fh:
                    total += int(fh.read().split()[0])
                    ok = True
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        pass
    if ok:
        return total / 1e9
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def cpu_source(pid: int) -> str:
    return ("schedstat (ns, all threads)" if os.path.exists(f"/proc/{pid}/task/{pid}/schedstat")
            else f"/proc/<pid>/stat (1/{_TICK} s ticks)")


# --------------------------------------------------------------------------- a client


class Client:
    """One telnet session. ``do`` sends a line and a marker (``@benchmark <n>``, answered by the
    probe at once) and returns the reply up to the marker's answer, with the round trip in
    ``last_rtt``."""

    def __init__(self, server: GameServer, name: str, password: str, gmcp: bool = False):
        self.server, self.name, self.password = server, name, password
        self.gmcp = gmcp
        self.tc: TelnetClient | None = None
        self.n = 0
        self.last_rtt = 0.0
        self.errors: list[str] = []

    def open(self, create: bool) -> Client:
        if self.gmcp:
            self.tc = GmcpTelnet(self.server.host, self.server.telnet_port,
                                 timeout=REPLY_TIMEOUT)
            self.server.clients.append(self.tc)
        else:
            self.tc = self.server.connect(timeout=REPLY_TIMEOUT)
        if create:
            self.tc.create_and_login(self.name, self.password, timeout=REPLY_TIMEOUT)
        else:
            self.tc.read_until("connect", REPLY_TIMEOUT)
            self.tc.login(self.name, self.password, REPLY_TIMEOUT)
        self.tc.read_available(0.2)
        return self

    def do(self, line: str) -> str:
        self.n += 1
        mark = f"zzmk{self.n}"
        self.tc._buffer = ""  # room text that arrived unasked is not this reply
        t0 = time.perf_counter()
        self.tc.send(line)
        self.tc.send(f"@benchmark {mark}")
        out = self.tc.read_until(f"BENCHMARK {mark}\n", REPLY_TIMEOUT)
        self.last_rtt = time.perf_counter() - t0
        if any(m in out for m in ERROR_MARKS) and len(self.errors) < 5:
            self.errors.append(f"{self.name}> {line}\n{out[-800:]}")
        return out

    def marker_only(self) -> str:
        """Just a marker: what ``do`` adds to every command, measured on its own."""
        self.n += 1
        mark = f"zzmk{self.n}"
        self.tc._buffer = ""
        t0 = time.perf_counter()
        self.tc.send(f"@benchmark {mark}")
        out = self.tc.read_until(f"BENCHMARK {mark}\n", REPLY_TIMEOUT)
        self.last_rtt = time.perf_counter() - t0
        return out

    def probe(self, reset: bool = False, sql: bool = False) -> dict:
        """The server's tally (a superuser's session); ``reset`` clears it afterwards;
        ``sql``: instead, the statements of the last command of each key."""
        self.tc._buffer = ""
        self.tc.send("@benchprobe/sql" if sql else "@benchprobe")
        m = self.tc.expect(r"BENCHPROBE (\{.*\})\n", REPLY_TIMEOUT)
        if reset:
            self.tc.send("@benchprobe/reset")
            self.tc.read_until("BENCHPROBE reset", REPLY_TIMEOUT)
        return json.loads(m[1])


def dig_room(admin: Client, name: str) -> int:
    out = admin.do(f"@dig {name}")
    m = re.search(r"#(\d+)", out[out.find("Created"):]) if "Created" in out else None
    if not m:
        raise RuntimeError(f"@dig failed:\n{out}")
    return int(m[1])


# --------------------------------------------------------------------------- figures


class Samples:
    """Per command kind: CPU per command of each batch, the probe's statements and handler
    CPU, and every round trip."""

    def __init__(self):
        self.lock = threading.Lock()
        self.batch_cpu: dict[str, list[float]] = {}  # seconds per command, one per batch
        self.rtts: dict[str, list[float]] = {}
        self.probe: dict[str, dict[str, float]] = {}
        self.batch_handler: dict[str, list[float]] = {}  # handler seconds per command
        self.batch_engine: dict[str, list[float]] = {}  # of them inside an engine's apply

    def rtt(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.rtts.setdefault(kind, []).append(seconds)

    def batch(self, kind: str, cpu: float, commands: int) -> None:
        if commands:
            self.batch_cpu.setdefault(kind, []).append(cpu / commands)

    def add_probe(self, kind: str, key: str, before: dict, after: dict) -> None:
        """What the probe counted for ``key`` between two dumps, as one batch of ``kind``."""
        row, old = after.get(key), before.get(key, {})
        if not row:
            return
        diff = {f: v - old.get(f, 0) for f, v in row.items()}
        if diff["commands"] <= 0:
            return
        mine = self.probe.setdefault(kind, dict.fromkeys(row, 0))
        for f, v in diff.items():
            mine[f] = mine.get(f, 0) + v
        self.batch_handler.setdefault(kind, []).append(diff["cpu_s"] / diff["commands"])
        self.batch_engine.setdefault(kind, []).append(diff.get("engine_s", 0.0)
                                                      / diff["commands"])


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def add_overrides_option(ap) -> None:
    """``--overrides off``: the server runs with every override of an Evennia internal off
    (``WOD_OVERRIDES=off``, server/conf/settings.py), as a host game would have them."""
    ap.add_argument("--overrides", choices=("on", "off"), default="on",
                    help="the WODCOMBAT_* overrides of Evennia internals (default on)")


def use_overrides(args) -> str:
    """Pass ``--overrides`` to the server this process starts; a line saying which."""
    os.environ["WOD_OVERRIDES"] = args.overrides
    return f"overrides of Evennia internals: {args.overrides}"


def machine() -> str:
    return (f"machine: {os.cpu_count()} cores, {platform.machine()}, Linux "
            f"{platform.release()}, Python {platform.python_version()}; load average "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


COLUMNS = """\
columns:
  cpu ms     server process CPU (user+sys, all its threads) over a batch of this kind,
             per command, minus a marker's CPU (measured the same way); median of batches
  handler ms the server's main-thread CPU inside Evennia's text input function for the
             command alone (probe: time.thread_time), per command; median of batches
  sql        SQL statements per command (probe: Django execute_wrapper), mean; of them
  sel / wr   SELECTs / writes (INSERT, UPDATE, DELETE); the rest: BEGIN, SAVEPOINT, RELEASE
  p50..p99   round trip, client side: line sent until its reply's end was read (the
             answer to the "@benchmark <n>" line sent right after it), ms
  x look     the column's ratio to look's (cpu ms, sql, p50)
  engine ms  of handler ms, the part inside the engine's apply (probe), median of batches
  floor      what the command costs without its engine: cpu ms minus engine ms (look, the
             durable write, the messages, the text), and its ratio to look's cpu ms"""


def start_profile(admin: Client, key: str) -> None:
    admin.tc._buffer = ""
    admin.tc.send(f"@benchprobe/profile {key}")
    admin.tc.read_until(f"BENCHPROBE profiling {key}", REPLY_TIMEOUT)


def show_profile(admin: Client, key: str) -> None:
    """Print the server's cProfile of the commands of ``key`` (see ``start_profile``)."""
    admin.tc._buffer = ""
    admin.tc.send("@benchprobe/profile")
    out = admin.tc.read_until("BENCHPROBE end", REPLY_TIMEOUT)
    print(f"server-side cProfile of every {key} since setup (its figures above are inflated "
          "by the profiler):")
    for line in out.replace("BENCHPROBE end", "").strip("\n").splitlines():
        print("  " + line)


def show_sql(admin: Client, keys: list[str]) -> None:
    """Print the SQL statements of the last command of each key (the probe keeps them)."""
    last = admin.probe(sql=True)
    for key in keys:
        statements = last.get(key, [])
        print(f"SQL of the last {key} ({len(statements)} statements):")
        for sql in statements:
            print(f"  {sql}")


def table(samples: Samples, kinds: list[tuple[str, str]], marker_cpu: float,
          base: str = "look") -> list[dict]:
    """Print one row per (kind, probe key); return the rows."""
    rows = []
    for kind, _key in kinds:
        cpu = samples.batch_cpu.get(kind, [])
        pr = samples.probe.get(kind, {})
        n = pr.get("commands", 0) or 0
        r = samples.rtts.get(kind, [])
        rows.append({
            "kind": kind,
            "batches": len(cpu),
            "cmds": len(r),
            "cpu": (statistics.median(cpu) - marker_cpu) * 1000 if cpu else float("nan"),
            "handler": (statistics.median(samples.batch_handler[kind]) * 1000
                        if samples.batch_handler.get(kind) else float("nan")),
            "engine": (statistics.median(samples.batch_engine[kind]) * 1000
                       if samples.batch_engine.get(kind) else float("nan")),
            "sql": (pr.get("selects", 0) + pr.get("writes", 0) + pr.get("transaction", 0)
                    + pr.get("other", 0)) / n if n else float("nan"),
            "sel": pr.get("selects", 0) / n if n else float("nan"),
            "wr": pr.get("writes", 0) / n if n else float("nan"),
            "p50": pct(r, 50) * 1000, "p95": pct(r, 95) * 1000, "p99": pct(r, 99) * 1000,
        })
    by = {row["kind"]: row for row in rows}
    b = by.get(base)
    print(f"{'kind':<16}{'cmds':>6}{'cpu ms':>8}{'x look':>7}{'handler ms':>11}{'x look':>7}"
          f"{'sql':>6}{'sel':>6}{'wr':>5}{'x look':>7}{'p50':>7}{'p95':>7}{'p99':>7}"
          f"{'x look':>7}")

    def ratio(row, f):
        if not b or not b[f] or b[f] != b[f] or row[f] != row[f]:
            return "    -"
        return f"{row[f] / b[f]:5.2f}"

    for row in rows:
        print(f"{row['kind']:<16}{row['cmds']:>6}{row['cpu']:>8.2f}{ratio(row, 'cpu'):>7}"
              f"{row['handler']:>11.2f}{ratio(row, 'handler'):>7}{row['sql']:>6.1f}"
              f"{row['sel']:>6.1f}{row['wr']:>5.1f}{ratio(row, 'sql'):>7}{row['p50']:>7.1f}"
              f"{row['p95']:>7.1f}{row['p99']:>7.1f}{ratio(row, 'p50'):>7}")
    return rows


def floors(rows: list[dict], kinds: tuple[str, ...], shares: dict[str, float] | None = None,
           base: str = "look") -> None:
    """For each of ``kinds``: the engine's time and share of the handler's, and the floor the
    command stands on without its engine; ``shares``: the most share each kind may have
    (issue 32: an act's engine at most 10% of its server time)."""
    by = {row["kind"]: row for row in rows}
    b = by.get(base)
    if not b:
        return
    print(f"{'kind':<16}{'engine ms':>10}{'share':>7}{'floor ms':>10}{'x look':>7}"
          f"  (share: of handler ms; floor: cpu ms - engine ms)")
    for kind in kinds:
        row = by.get(kind)
        if not row or row["engine"] != row["engine"]:
            continue
        share = row["engine"] / row["handler"] if row["handler"] else float("nan")
        floor = row["cpu"] - row["engine"]
        x = floor / b["cpu"] if b["cpu"] else float("nan")
        limit = (shares or {}).get(kind)
        mark = "" if limit is None else f"  share <= {limit:.0%}: " + (
            "ok" if share <= limit else "OVER")
        print(f"{kind:<16}{row['engine']:>10.3f}{share:>7.0%}{floor:>10.2f}{x:>7.2f}{mark}")


def verdict(rows: list[dict], targets: dict[str, float], base: str = "look") -> None:
    by = {row["kind"]: row for row in rows}
    b = by.get(base)
    if not b:
        return
    print(f"targets (cpu ms and handler ms vs {base}):")
    for kind, limit in targets.items():
        row = by.get(kind)
        if not row:
            continue
        parts = []
        for f in ("cpu", "handler"):
            if b[f] and b[f] == b[f] and row[f] == row[f]:
                x = row[f] / b[f]
                parts.append(f"{f} x{x:.2f} {'ok' if x <= limit else 'OVER'}")
        print(f"  {kind:<16}<= {limit}x {base}: " + ", ".join(parts))
