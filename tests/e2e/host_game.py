"""A stock Evennia game with the combat system added the README's way (issue 27).

``HostGame.create`` makes a virtualenv, pip-installs the wheel built from this checkout into
it, runs ``evennia --init`` in a temp dir and adds the plugin's documented lines to the new
game's own files (``add_plugin``); ``start`` migrates and starts it on free ports. Nothing of
this repository is on the host's path: it imports the plugin from the venv only.

The venv's dependencies (Evennia, Django, ...) are this checkout's venv's, through one .pth
file: the test installs the plugin, not Evennia again from the network.
"""

from __future__ import annotations

import glob
import os
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass, field

from tests.e2e.harness import REPO_ROOT, TelnetClient, free_ports

# The lines README.md's "Add it to your game" shows, file by file: (file, where, line).
# ``where`` is the stock line the new one goes after, or None for the end of the file.
CMDSET_IMPORT = "from wodcombat.commands.cmdset import CombatCmdSet"
CMDSET_ADD = "        self.add(CombatCmdSet)"
MIXIN_IMPORT = "from wodcombat.typeclasses.characters import CombatCharacterMixin"
MIXIN_CLASS = "class Character(CombatCharacterMixin, ObjectParent, DefaultCharacter):"
URLS_LINE = '    path("", include("wodcombat.urls")),'
APP_LINE = 'INSTALLED_APPS += ["wodcombat"]'
RULES_LINES = ('WODCOMBAT_RULES_DIR = os.path.join(GAME_DIR, "rules")  # after copy-rules',
               'WODCOMBAT_DEFAULT_RULESET = "numetal"')
WEBCLIENT_LINES = ('{% extends "webclient/webclient.html" %}',
                   '{% block scripts %}{{ block.super }}{% include "wod/webclient_gauges.html" %}'
                   '{% endblock %}')
DOCUMENTED = (APP_LINE, CMDSET_IMPORT, CMDSET_ADD.strip(), MIXIN_IMPORT, MIXIN_CLASS,
              URLS_LINE.strip(), *RULES_LINES, *WEBCLIENT_LINES)


def build_wheel(dest: str) -> str:
    """``pip wheel .`` of this checkout, as CI builds it; the wheel's path. What setuptools
    leaves in the checkout (build/, wodcombat.egg-info/) is removed if it was not there."""
    leftovers = [os.path.join(REPO_ROOT, name) for name in ("build", "wodcombat.egg-info")]
    fresh = [path for path in leftovers if not os.path.exists(path)]
    try:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                        "--disable-pip-version-check", "-w", dest, REPO_ROOT],
                       check=True, capture_output=True, text=True, timeout=300)
    finally:
        for path in fresh:
            shutil.rmtree(path, ignore_errors=True)
    return glob.glob(os.path.join(dest, "wodcombat-*.whl"))[0]


def make_venv(path: str, wheel: str) -> str:
    """A venv with the wheel pip-installed; its python."""
    subprocess.run([sys.executable, "-m", "venv", path], check=True, timeout=120)
    python = os.path.join(path, "bin", "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                              "['purelib'])"], check=True, capture_output=True,
                             text=True).stdout.strip()
    with open(os.path.join(purelib, "wodcombat_test_deps.pth"), "w") as fh:
        fh.write(sysconfig.get_paths()["purelib"] + "\n")
    # the scripts pip writes for the deps' entry points: Evennia's launcher runs `twistd`
    for script, entry in (("twistd", "from twisted.scripts.twistd import run as main"),
                          ("evennia", "from evennia.server.evennia_launcher import main")):
        target = os.path.join(path, "bin", script)
        with open(target, "w") as fh:
            fh.write(f"#!{python}\nimport sys\n{entry}\nsys.exit(main())\n")
        os.chmod(target, 0o755)
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    wheel], check=True, capture_output=True, text=True, timeout=300)
    return python


def _insert(path: str, after: str | None, lines: list[str]) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if after is None:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    else:
        assert after in text, f"{after!r} is not in the stock {path}"
        text = text.replace(after, after + "\n" + "\n".join(lines), 1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def _replace(path: str, old: str, new: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert old in text, f"{old!r} is not in the stock {path}"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new, 1))


def add_plugin(gamedir: str, rules_dir: bool = False, extra_settings: str = "") -> None:
    """The README's lines, in a game ``evennia --init`` made (``rules_dir``: step 5 too; step 6,
    the web client's gauges, always)."""
    g = lambda *p: os.path.join(gamedir, *p)  # noqa: E731
    settings = [APP_LINE]
    if rules_dir:
        settings += ["import os", RULES_LINES[0], RULES_LINES[1]]
    _replace(g("server", "conf", "settings.py"), "\n######################################"
             "################################\n# Settings given in secret_settings.py",
             "\n" + "\n".join(settings) + "\n" + extra_settings + "\n####################"
             "##################################################\n# Settings given in "
             "secret_settings.py")
    _insert(g("commands", "default_cmdsets.py"), "from evennia import default_cmds",
            [CMDSET_IMPORT])
    _insert(g("commands", "default_cmdsets.py"), "        super().at_cmdset_creation()\n"
            "        #\n        # any commands you add below will overload the default ones.\n"
            "        #", [CMDSET_ADD])
    _insert(g("typeclasses", "characters.py"),
            "from evennia.objects.objects import DefaultCharacter", [MIXIN_IMPORT])
    _replace(g("typeclasses", "characters.py"),
             "class Character(ObjectParent, DefaultCharacter):", MIXIN_CLASS)
    _insert(g("web", "urls.py"), '    path("", include("web.website.urls")),', [URLS_LINE])
    with open(g("web", "templates", "webclient", "webclient.html"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(WEBCLIENT_LINES) + "\n")


@dataclass
class HostGame:
    python: str
    gamedir: str
    env: dict
    telnet_port: int
    web_port: int
    admin_password: str
    clients: list = field(default_factory=list)

    @classmethod
    def create(cls, workdir: str, wheel: str, name: str = "hostgame", **plugin) -> HostGame:
        python = make_venv(os.path.join(workdir, "venv"), wheel)
        subprocess.run([python, "-m", "evennia.server.evennia_launcher", "--init", name],
                       cwd=workdir, check=True, capture_output=True, timeout=120)
        gamedir = os.path.join(workdir, name)
        telnet, web, websocket, proxy, amp = free_ports(5)
        ports = (f'TELNET_INTERFACES = ["127.0.0.1"]\nWEBSERVER_INTERFACES = ["127.0.0.1"]\n'
                 f"TELNET_PORTS = [{telnet}]\nWEBSERVER_PORTS = [({web}, {proxy})]\n"
                 f"WEBSOCKET_CLIENT_PORT = {websocket}\nAMP_PORT = {amp}\n")
        plugin["extra_settings"] = ports + plugin.get("extra_settings", "")
        add_plugin(gamedir, **plugin)
        password = secrets.token_urlsafe(10)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DJANGO_", "WOD_", "TEST_DB", "PYTHONPATH"))}
        env.update(EVENNIA_SUPERUSER_USERNAME="admin", EVENNIA_SUPERUSER_PASSWORD=password,
                   EVENNIA_SUPERUSER_EMAIL="admin@example.org", PYTHONUNBUFFERED="1",
                   PATH=os.path.dirname(python) + os.pathsep + env.get("PATH", ""))
        return cls(python, gamedir, env, telnet, web, password)

    def evennia(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([self.python, "-m", "evennia.server.evennia_launcher", *args],
                              cwd=self.gamedir, env=self.env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)

    def start(self, timeout: float = 120) -> None:
        for step in (("migrate",), ("start",)):
            result = self.evennia(*step)
            assert result.returncode == 0, (step, result.stdout, result.stderr, self.log())
        # The first start runs Evennia's initial setup, then restarts the Server once.
        deadline = time.monotonic() + timeout
        while "successfully restarted" not in self.log(400):
            if time.monotonic() > deadline:
                raise RuntimeError("the host game never finished its first start\n" + self.log())
            time.sleep(0.3)
        while True:
            try:
                with TelnetClient("127.0.0.1", self.telnet_port, timeout=2) as probe:
                    probe.read_until("connect", timeout=5)
                    return
            except (OSError, TimeoutError, ConnectionError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the host game never answered on telnet\n" + self.log())
                time.sleep(0.3)

    def connect(self) -> TelnetClient:
        client = TelnetClient("127.0.0.1", self.telnet_port, timeout=20)
        self.clients.append(client)
        client.read_until("connect", 20)
        return client

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        self.evennia("stop", timeout=120)

    def log(self, lines: int = 40) -> str:
        out = []
        for name in ("server.log", "portal.log"):
            path = os.path.join(self.gamedir, "server", "logs", name)
            if os.path.exists(path):
                with open(path, errors="replace") as fh:
                    out.append(f"--- {name}\n" + "\n".join(fh.read().splitlines()[-lines:]))
        return "\n".join(out)


class Typist:
    """Types a line and returns everything read until the game answered it (an unknown
    command typed after it marks the end, as the README tour test does)."""

    def __init__(self, client: TelnetClient):
        self.client, self.marks = client, 0

    def __call__(self, line: str) -> str:
        self.marks += 1
        mark = f"zzhostmark{self.marks}"
        self.client.send(line)
        self.client.send(mark)
        out = self.client.read_until(mark, timeout=30)
        out += self.client.read_until("available", timeout=30)
        return out[:out.rindex("Command")] if "Command" in out else out


def waiting(reply: str) -> list[tuple[str, str]]:
    """(name, what) a fight waits for, from its ``+combat`` table."""
    m = re.search(r"^ Now: (.+)$", reply, re.M)
    return re.findall(r"(\S+) \((\w+)\)", m[1]) if m else []
