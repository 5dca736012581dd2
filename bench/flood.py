"""Flood bench (issue 30, point 7): one client floods ``look`` while another plays.

Starts a throw-away server through the e2e harness (``tests/e2e/harness.py``: its own game
dir and SQLite database on 127.0.0.1) with a game's throttles (``game_throttles``: no
WOD_E2E, so Evennia's connection, login, creation and command limits are at their defaults),
creates and logs in two accounts over telnet (the creation throttle lets two through), then:

* baseline: client B types ``look`` every ``--interval`` seconds and times each answer, and a
  new connection is timed until its login screen arrives;
* flood: client A sends ``look`` lines as fast as its socket takes them (for ``--seconds``
  or ``--max-lines``), reading everything that comes back, while B goes on as before and a
  new connection is opened half way through.

It prints B's p50/p95/max answer times, how many of A's lines were answered and how many
refused by the command throttle ("You entered commands too fast"), the Server's and Portal's
CPU over each phase, and the new connection's wait. Loopback only; bounded in time.

    python bench/flood.py                       # 20 s of flood, free ports
    python bench/flood.py --port-base 4140      # listen on 4140-4149 only
    python bench/flood.py --e2e-settings        # as the e2e harness runs (WOD_E2E=1)

Not a test; nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

import live  # bench/live.py (this script's folder is on sys.path when run)
from live import REPLY_TIMEOUT, cpu_seconds, pct
from tests.e2e import harness
from tests.e2e.harness import GameServer, TelnetClient

LINE = b"look\r\n"
ANSWER = b"Limbo"  # the room's name heads every answer to look
REFUSAL = b"You entered commands too fast"
LOGIN_SCREEN = "create <username>"
TARGET_P95_MS = 100.0


# --------------------------------------------------------------------------- clients


class Counter:
    """Occurrences of some byte strings in a stream that arrives in chunks (a match split
    between two chunks is counted once)."""

    def __init__(self, *needles: bytes):
        self.counts = dict.fromkeys(needles, 0)
        self._keep = max(len(n) for n in needles) - 1
        self._tail = b""

    def feed(self, data: bytes) -> None:
        buf = self._tail + data
        for needle in self.counts:
            self.counts[needle] += buf.count(needle)
        self._tail = buf[-self._keep:]


class Flooder:
    """Client A: a logged-in telnet socket, one thread writing ``look`` lines as fast as
    the socket takes them, one reading and counting answers and refusals."""

    def __init__(self, client: TelnetClient, seconds: float, max_lines: int):
        self.sock = client.sock
        self.seconds, self.max_lines = seconds, max_lines
        self.sent_bytes = 0
        self.counter = Counter(ANSWER, REFUSAL)
        self.stop_reading = threading.Event()
        self.writer = threading.Thread(target=self._write, daemon=True)
        self.reader = threading.Thread(target=self._read, daemon=True)

    @property
    def lines(self) -> int:
        return self.sent_bytes // len(LINE)

    def start(self) -> None:
        self.sock.settimeout(0.5)
        self.reader.start()
        self.writer.start()

    def _write(self) -> None:
        chunk = LINE * 200
        limit = self.max_lines * len(LINE)
        deadline = time.monotonic() + self.seconds
        while time.monotonic() < deadline and self.sent_bytes < limit:
            try:
                self.sent_bytes += self.sock.send(chunk[: limit - self.sent_bytes])
            except TimeoutError:
                continue
            except OSError:
                return

    def _read(self) -> None:
        while not self.stop_reading.is_set():
            try:
                data = self.sock.recv(1 << 16)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            self.counter.feed(data)

    def finish(self, drain: float) -> None:
        """Wait for the writer, then read what the server still sends for ``drain`` s."""
        self.writer.join()
        time.sleep(drain)
        self.stop_reading.set()
        self.reader.join()


class Typist(threading.Thread):
    """Client B: ``look`` every ``interval`` seconds until told to stop; each answer's
    time from the line sent to the room's name read back."""

    def __init__(self, client: TelnetClient, interval: float):
        super().__init__(daemon=True)
        self.client, self.interval = client, interval
        self.rtts: list[float] = []
        self.sent_at: list[float] = []  # monotonic time each answered look was sent
        self.missed = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            t0 = time.perf_counter()
            self.client._buffer = ""  # what came unasked is not this answer
            self.client.send("look")
            try:
                self.client.read_until(ANSWER.decode(), REPLY_TIMEOUT)
                self.rtts.append(time.perf_counter() - t0)
                self.sent_at.append(time.monotonic())
            except TimeoutError:
                self.missed += 1
            self.halt.wait(max(0.0, self.interval - (time.perf_counter() - t0)))


def time_login_screen(server: GameServer) -> float | None:
    """Seconds from connecting until a new connection shows the login screen."""
    t0 = time.perf_counter()
    try:
        with TelnetClient(server.host, server.telnet_port, timeout=REPLY_TIMEOUT) as c:
            c.read_until(LOGIN_SCREEN, REPLY_TIMEOUT)
    except (OSError, TimeoutError, ConnectionError):
        return None
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- phases


@dataclass(frozen=True)
class Phase:
    name: str
    seconds: float
    rtts: tuple[float, ...]
    worst_at: float  # seconds into the phase the slowest answer's look was sent
    missed: int
    login_screen: float | None
    server_cpu: float
    portal_cpu: float
    lines: int = 0
    answered: int = 0
    refused: int = 0


class Pids:
    def __init__(self, server: GameServer):
        self.server, self.portal = (_pid(server, n) for n in ("server", "portal"))

    def cpu(self) -> tuple[float, float]:
        return cpu_seconds(self.server), cpu_seconds(self.portal)


def _pid(server: GameServer, name: str) -> int:
    with open(os.path.join(server.gamedir, "server", f"{name}.pid")) as fh:
        return int(fh.read().strip())


def run_phase(name: str, server: GameServer, pids: Pids, b: TelnetClient, seconds: float,
              interval: float, flooder: Flooder | None = None) -> Phase:
    """B types for ``seconds`` (with A flooding if given); a new connection half way."""
    typist = Typist(b, interval)
    cpu0, t0 = pids.cpu(), time.monotonic()
    if flooder:
        flooder.start()
    typist.start()
    time.sleep(seconds / 2)
    login = time_login_screen(server)
    time.sleep(max(0.0, t0 + seconds - time.monotonic()))
    typist.halt.set()
    typist.join()
    if flooder:
        flooder.finish(drain=2.0)
    cpu1, elapsed = pids.cpu(), time.monotonic() - t0
    counts = flooder.counter.counts if flooder else {}
    worst = max(range(len(typist.rtts)), key=typist.rtts.__getitem__, default=None)
    worst_at = typist.sent_at[worst] - t0 if worst is not None else float("nan")
    return Phase(name, elapsed, tuple(typist.rtts), worst_at, typist.missed, login,
                 cpu1[0] - cpu0[0], cpu1[1] - cpu0[1],
                 flooder.lines if flooder else 0, counts.get(ANSWER, 0), counts.get(REFUSAL, 0))


def report(phase: Phase) -> None:
    r = phase.rtts
    ms = [pct(list(r), p) * 1000 for p in (50, 95)] + [max(r, default=float("nan")) * 1000]
    login = "never" if phase.login_screen is None else f"{phase.login_screen * 1000:.0f} ms"
    print(f"\n{phase.name} ({phase.seconds:.1f} s)")
    print(f"  B: {len(r)} looks answered, {phase.missed} not within {REPLY_TIMEOUT:.0f} s; "
          f"p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms, max {ms[2]:.1f} ms "
          f"(at {phase.worst_at:.1f} s) "
          f"({'ok' if ms[1] < TARGET_P95_MS else 'OVER'}: p95 target {TARGET_P95_MS:.0f} ms)")
    if phase.lines:
        print(f"  A: {phase.lines} look lines sent ({phase.lines / phase.seconds:.0f}/s), "
              f"{phase.answered} answered, {phase.refused} refused by the throttle, "
              f"{phase.lines - phase.answered - phase.refused} neither")
    print(f"  new connection: login screen after {login}")
    print(f"  CPU: Server {phase.server_cpu:.2f} s ({phase.server_cpu / phase.seconds:.0%}), "
          f"Portal {phase.portal_cpu:.2f} s ({phase.portal_cpu / phase.seconds:.0%})")


# --------------------------------------------------------------------------- main


def login(server: GameServer, name: str) -> TelnetClient:
    client = server.connect(timeout=REPLY_TIMEOUT)
    client.create_and_login(name, secrets.token_urlsafe(12), timeout=REPLY_TIMEOUT)
    client.read_available(0.5)
    return client


def parse(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="flood length (default 20)")
    ap.add_argument("--baseline-seconds", type=float, default=10.0)
    ap.add_argument("--max-lines", type=int, default=5_000_000, help="A stops after these")
    ap.add_argument("--interval", type=float, default=0.1, help="B's pace (default 0.1 s)")
    ap.add_argument("--port-base", type=int, default=None,
                    help="listen on ports BASE..BASE+9 only (default: any free port)")
    ap.add_argument("--e2e-settings", action="store_true",
                    help="the e2e harness's settings (WOD_E2E=1: throttles off but commands)")
    ap.add_argument("--keep", action="store_true", help="keep the server's game dir")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    if args.port_base is not None:
        harness.free_ports = live.ports_in(args.port_base, args.port_base + 10)
    throttles = "e2e settings (WOD_E2E=1)" if args.e2e_settings else "a game's default throttles"
    print(f"flood: {args.seconds:.0f} s of look from A, B every {args.interval * 1000:.0f} ms; "
          f"{throttles}", flush=True)
    print(live.machine(), flush=True)
    server = None
    try:
        server = GameServer.start(tempfile.mkdtemp(prefix="wod-flood-"), web=False,
                                  game_throttles=not args.e2e_settings)
        print(f"server up in {server.start_seconds:.1f} s (telnet 127.0.0.1:"
              f"{server.telnet_port})", flush=True)
        pids = Pids(server)
        tag = f"{os.getpid() % 10000:04d}"
        a, b = login(server, f"Flood{tag}"), login(server, f"Typist{tag}")
        report(run_phase("baseline: no flood", server, pids, b, args.baseline_seconds,
                         args.interval))
        flooder = Flooder(a, args.seconds, args.max_lines)
        report(run_phase("flood: A sends look as fast as its socket takes it", server, pids,
                         b, args.seconds, args.interval, flooder))
        return 0
    finally:
        live.stop_server(server, args.keep)


if __name__ == "__main__":
    sys.exit(main())
