"""End-to-end harness: a real Evennia server (portal + server processes) on free
ports with a throw-away database, and a tiny telnet client to talk to it.

The server runs from a *shadow game dir* in a temp folder: every top-level entry of
the repo is symlinked into it, except `server/`, which is a real folder holding
symlinks to `server/conf` etc. plus its own `logs/`, database, pid files and
`.static/`. Evennia writes `server/server.pid`, `server/portal.pid`, the logs and the
collected static files relative to the game dir it runs in, so the test server never
touches (or clashes with) a developer's `bin/play` server in the repo.

Setup and start go through `bin/gamectl.py`, the same code `bin/play` runs.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMECTL = os.path.join(REPO_ROOT, "bin", "gamectl.py")

# Entries of server/ that belong to one running instance and are not shared.
_SERVER_PRIVATE = {"logs", "__pycache__"}
_SERVER_PRIVATE_SUFFIXES = (".db3", ".pid", ".restart", ".db3-journal", ".db3-wal", ".db3-shm")

_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# Telnet protocol bytes (RFC 854).
IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240


# --------------------------------------------------------------------------- helpers


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """`count` distinct TCP ports that are free right now on `host`."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((host, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def make_shadow_gamedir(dest: str, repo_root: str = REPO_ROOT) -> str:
    """Build a symlinked copy of the game dir at `dest` (see module docstring)."""
    os.makedirs(dest, exist_ok=True)
    for name in os.listdir(repo_root):
        if name.startswith(".") or name in ("server", "tests"):
            continue
        os.symlink(os.path.join(repo_root, name), os.path.join(dest, name))
    server_src = os.path.join(repo_root, "server")
    server_dst = os.path.join(dest, "server")
    os.makedirs(os.path.join(server_dst, "logs"), exist_ok=True)
    for name in os.listdir(server_src):
        if (
            name in _SERVER_PRIVATE
            or name.startswith(".")
            or name.endswith(_SERVER_PRIVATE_SUFFIXES)
        ):
            continue
        os.symlink(os.path.join(server_src, name), os.path.join(server_dst, name))
    return dest


def strip_ansi(text: str) -> str:
    return _ANSI_RE.sub("", text)


# --------------------------------------------------------------------------- telnet


class TelnetClient:
    """Minimal line-oriented telnet client (telnetlib is gone in Python 3.13).

    Refuses every telnet option the server offers (so Evennia's handshakes finish
    at once and nothing gets compressed), strips negotiation/subnegotiation bytes
    and ANSI colour codes from what it returns.

        with server.connect() as c:
            c.read_until("connect")          # the login screen
            c.send("create bob secret123")
            c.expect(r"account '(\\w+)' was created")
    """

    def __init__(self, host: str, port: int, timeout: float = 10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.default_timeout = timeout
        self._pending = b""  # undecoded bytes (may end inside an IAC sequence)
        self._buffer = ""  # decoded, cleaned text not yet consumed by read_until/expect
        self.transcript = ""  # everything received, cleaned (for failure messages)

    # -- context manager
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    # -- output
    def send(self, line: str) -> None:
        data = line.encode("utf-8").replace(bytes([IAC]), bytes([IAC, IAC]))
        self.sock.sendall(data + b"\r\n")

    def send_raw(self, data: bytes) -> None:
        """Send bytes exactly as given (no encoding, no IAC doubling, no line end): for
        tests of what a broken or hostile client can put on the wire."""
        self.sock.sendall(data)

    # -- input
    def _process(self, data: bytes) -> str:
        """Strip telnet commands from data (answering negotiations); return text."""
        buf = self._pending + data
        out = bytearray()
        replies = bytearray()
        i = 0
        n = len(buf)
        while i < n:
            b = buf[i]
            if b != IAC:
                out.append(b)
                i += 1
                continue
            if i + 1 >= n:
                break  # incomplete
            cmd = buf[i + 1]
            if cmd == IAC:
                out.append(IAC)
                i += 2
            elif cmd in (DO, DONT, WILL, WONT):
                if i + 2 >= n:
                    break
                opt = buf[i + 2]
                if cmd == DO:
                    replies += bytes([IAC, WONT, opt])
                elif cmd == WILL:
                    replies += bytes([IAC, DONT, opt])
                i += 3
            elif cmd == SB:
                end = buf.find(bytes([IAC, SE]), i + 2)
                if end < 0:
                    break
                i = end + 2
            else:  # NOP, GA, and other two-byte commands
                i += 2
        self._pending = bytes(buf[i:])
        if replies:
            try:
                self.sock.sendall(bytes(replies))
            except OSError:
                pass
        text = out.decode("utf-8", errors="replace").replace("\r", "")
        return strip_ansi(text)

    def _fill(self, deadline: float) -> bool:
        """Receive once (until deadline). False on timeout; raises on EOF."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        self.sock.settimeout(remaining)
        try:
            data = self.sock.recv(65536)
        except TimeoutError:  # socket.timeout is an alias of TimeoutError
            return False
        if not data:
            raise ConnectionError(f"server closed the connection; received:\n{self.transcript}")
        text = self._process(data)
        self._buffer += text
        self.transcript += text
        return True

    def _wait(self, pattern, timeout: float | None) -> tuple[str, re.Match]:
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + (self.default_timeout if timeout is None else timeout)
        while True:
            match = regex.search(self._buffer)
            if match:
                consumed = self._buffer[: match.end()]
                self._buffer = self._buffer[match.end() :]
                return consumed, match
            if not self._fill(deadline):
                raise TimeoutError(
                    f"did not see {regex.pattern!r} in time; unread text:\n{self._buffer}"
                )

    def expect(self, pattern: str | re.Pattern, timeout: float | None = None) -> re.Match:
        """Wait for regex `pattern`; consume the buffer up to the end of the match."""
        return self._wait(pattern, timeout)[1]

    def read_until(self, text: str, timeout: float | None = None) -> str:
        """Wait for literal `text`; return (and consume) everything up to and including it."""
        return self._wait(re.escape(text), timeout)[0]

    def read_available(self, wait: float = 0.3) -> str:
        """Return whatever arrives within `wait` seconds (and everything buffered)."""
        deadline = time.monotonic() + wait
        while self._fill(deadline):
            pass
        text, self._buffer = self._buffer, ""
        return text

    def command(self, line: str, until: str, timeout: float | None = None) -> str:
        """send(line) then read_until(until)."""
        self.send(line)
        return self.read_until(until, timeout)

    # -- Evennia login screen
    def create_account(self, name: str, password: str, timeout: float | None = None) -> str:
        """`create <name> <password>` at the login screen, answering Evennia's
        "Is this what you intended? [Y]/N?" confirmation. Returns the reply text."""
        self.send(f"create {name} {password}")
        consumed, match = self._wait(
            rf"Is this what you intended\?|account '{re.escape(name)}' was created", timeout
        )
        if match.group(0).startswith("Is this"):
            self.send("Y")
            more, _ = self._wait(rf"account '{re.escape(name)}' was created", timeout)
            consumed += more
        return consumed

    def login(
        self, name: str, password: str, timeout: float | None = None, until: str | None = None
    ) -> str:
        """`connect <name> <password>`; returns once Evennia puppets the character
        ("You become <name>.", or the text `until` if given)."""
        self.send(f"connect {name} {password}")
        return self.read_until(until or f"You become {name}", timeout)

    def create_and_login(self, name: str, password: str, timeout: float | None = None) -> str:
        """Wait for the login screen, create the account and connect with it."""
        self.read_until("connect", timeout)
        self.create_account(name, password, timeout)
        return self.login(name, password, timeout)


# --------------------------------------------------------------------------- server


@dataclass
class GameServer:
    """A running throw-away Evennia server. Create with `GameServer.start(tmpdir)`."""

    gamedir: str
    env: dict
    host: str
    telnet_port: int
    web_port: int
    admin_user: str
    admin_password: str
    start_seconds: float = 0.0
    clients: list = field(default_factory=list)

    @classmethod
    def start(cls, workdir: str, web: bool = True, timeout: float = 120.0,
              game_throttles: bool = False) -> GameServer:
        """``game_throttles``: run with a game's login, creation and connection throttles
        (no WOD_E2E), for a bench of what they do; tests need them off."""
        gamedir = make_shadow_gamedir(os.path.join(workdir, "game"))
        telnet, web_port, websocket, web_proxy, amp = free_ports(5)
        admin_password = secrets.token_urlsafe(10)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DJANGO_", "TEST_DB")) and k != "WOD_E2E"}
        if not game_throttles:
            env["WOD_E2E"] = "1"
        env.update(
            WOD_INTERFACE="127.0.0.1",
            WOD_TELNET_PORT=str(telnet),
            WOD_WEB_PORT=str(web_port),
            WOD_WEBSOCKET_PORT=str(websocket),
            WOD_WEB_PROXY_PORT=str(web_proxy),
            WOD_AMP_PORT=str(amp),
            WOD_WEB_ENABLED="1" if web else "0",
            WOD_DB_PATH=os.path.join(gamedir, "server", "evennia.db3"),
            WOD_SECRET_KEY=secrets.token_urlsafe(40),
            WOD_ADMIN_USER="admin",
            WOD_ADMIN_PASSWORD=admin_password,
            PYTHONUNBUFFERED="1",
        )
        if env.get("WOD_DATABASE_URL") or env.get("DATABASE_URL"):
            # PostgreSQL (issue 12): a database of its own, as the SQLite file is
            env["WOD_DATABASE_URL"] = create_pg_database(
                env.get("WOD_DATABASE_URL") or env["DATABASE_URL"])
            env.pop("DATABASE_URL", None)
        server = cls(gamedir, env, "127.0.0.1", telnet, web_port, "admin", admin_password)
        t0 = time.monotonic()
        try:
            result = server.gamectl("start", check=False, timeout=timeout)
            if result.returncode != 0:
                raise RuntimeError(
                    f"test server failed to start:\n{result.stdout}\n{result.stderr}\n"
                    + server.log_tail()
                )
            server.wait_for_telnet(timeout=timeout)
        except BaseException:
            server.stop()  # never leave a half-started portal/server behind
            raise
        server.start_seconds = time.monotonic() - t0
        return server

    # -- control
    def gamectl(self, *args: str, check: bool = True, timeout: float = 60.0):
        return subprocess.run(
            [sys.executable, GAMECTL, "--gamedir", self.gamedir, *args],
            cwd=self.gamedir,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )

    def wait_for_telnet(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            try:
                with TelnetClient(self.host, self.telnet_port, timeout=2) as probe:
                    probe.read_until("connect", timeout=max(0.5, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError, ConnectionError) as err:
                last_error = err
                time.sleep(0.2)
        raise RuntimeError(f"telnet port never answered ({last_error})\n{self.log_tail()}")

    def connect(self, timeout: float = 10.0) -> TelnetClient:
        client = TelnetClient(self.host, self.telnet_port, timeout=timeout)
        self.clients.append(client)
        return client

    def _pids(self) -> list[int]:
        pids = []
        for name in ("server.pid", "portal.pid"):
            try:
                with open(os.path.join(self.gamedir, "server", name)) as fh:
                    pids.append(int(fh.read().strip()))
            except (OSError, ValueError):
                pass
        return pids

    def _our_processes(self) -> list[int]:
        """Pids of twistd processes whose command line names this server's game dir
        (its --pidfile is inside it): found even if a pid file was never written."""
        marker = os.path.join(self.gamedir, "server") + os.sep
        pids = []
        if not os.path.isdir("/proc"):
            return pids
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    cmdline = fh.read().decode(errors="replace")
            except OSError:
                continue
            if marker in cmdline and "twistd" in cmdline:
                pids.append(int(entry))
        return pids

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        self.clients.clear()
        pids = set(self._pids()) | set(self._our_processes())
        if not pids:
            return
        try:
            self.gamectl("stop", check=False, timeout=60)
        except subprocess.TimeoutExpired:
            pass
        # Make sure the processes we started are gone (only these pids, nothing else).
        pids |= set(self._our_processes())
        deadline = time.monotonic() + 10
        for pid in sorted(pids):
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def stop_and_start(self, timeout: float = 120.0) -> float:
        """Stop the server completely (portal and server processes gone) and start it again
        on the same game dir, database and ports, as `start` does. Open clients are closed
        (a full stop drops every connection). Returns the seconds the restart took."""
        t0 = time.monotonic()
        self.stop()
        if self._our_processes():
            raise RuntimeError(f"server processes still running after stop\n{self.log_tail()}")
        result = self.gamectl("start", check=False, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(
                f"test server failed to start again:\n{result.stdout}\n{result.stderr}\n"
                + self.log_tail()
            )
        self.wait_for_telnet(timeout=timeout)
        return time.monotonic() - t0

    def crash_and_start(self, down: float = 0.0, timeout: float = 120.0) -> float:
        """kill -9 the Server and Portal (no shutdown hook runs, nothing is paused), stay
        down ``down`` seconds, then start again as `start` does. Returns the restart time."""
        for client in self.clients:
            client.close()
        self.clients.clear()
        for pid in self._our_processes():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        deadline = time.monotonic() + 10
        while self._our_processes() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(down)
        t0 = time.monotonic()
        result = self.gamectl("start", check=False, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(f"test server failed to start after the crash:\n"
                               f"{result.stdout}\n{result.stderr}\n" + self.log_tail())
        self.wait_for_telnet(timeout=timeout)
        return time.monotonic() - t0

    def log_tail(self, lines: int = 40) -> str:
        parts = []
        for name in ("server.log", "portal.log"):
            path = os.path.join(self.gamedir, "server", "logs", name)
            try:
                with open(path, errors="replace") as fh:
                    tail = fh.read().splitlines()[-lines:]
                parts.append(f"--- {name} ---\n" + "\n".join(tail))
            except OSError:
                parts.append(f"--- {name}: missing ---")
        return "\n".join(parts)

    def cleanup(self) -> None:
        shutil.rmtree(os.path.dirname(self.gamedir), ignore_errors=True)
        if self.env.get("WOD_DATABASE_URL"):
            drop_pg_database(self.env["WOD_DATABASE_URL"])


def _pg_admin(url: str):
    """An autocommit connection to the server ``url`` names (CREATE/DROP DATABASE)."""
    import psycopg
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)


def create_pg_database(url: str) -> str:
    """A new empty database on the server ``url`` names; returns its URL."""
    from urllib.parse import urlsplit, urlunsplit

    name = "wod_e2e_" + secrets.token_hex(4)
    with _pg_admin(url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def drop_pg_database(url: str) -> None:
    from urllib.parse import urlsplit

    name = urlsplit(url).path.lstrip("/")
    if not name.startswith("wod_e2e_"):
        return  # never drop a database this harness did not make
    try:
        with _pg_admin(url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception:  # the server may be gone already at the end of CI
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        return True
    # a zombie child of ours would still "exist"; the daemons are not our children
    return True


CHROMIUM = os.environ.get("WOD_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("WOD_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,1000")


def chromium(capabilities=None):
    """Debian's headless Chromium (bin/setup-system installs it) for a browser test, as a
    generator a fixture yields from; ``capabilities`` adds to the driver's options (a
    network log). Without Chromium: the test fails under WOD_REQUIRE_BROWSER (CI), else
    skips."""
    import pytest

    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("WOD_REQUIRE_BROWSER"):
            pytest.fail(f"no {CHROMIUM} / {CHROMEDRIVER}: run bin/setup-system")
        pytest.skip("Chromium is not installed (bin/setup-system installs it)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="wod-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    for name, value in (capabilities or {}).items():
        options.set_capability(name, value)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
