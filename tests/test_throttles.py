"""Issue 30, point 7: a game keeps Evennia's connection, command, login and creation
throttles. The settings are read in a subprocess with a clean environment, as a game started
by bin/play reads them (this process runs under the test settings)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NAMES = (
    "MAX_COMMAND_RATE", "MAX_CONNECTION_RATE", "MAX_CHAR_LIMIT",
    "CREATION_THROTTLE_LIMIT", "CREATION_THROTTLE_TIMEOUT",
    "LOGIN_THROTTLE_LIMIT", "LOGIN_THROTTLE_TIMEOUT",
)

_READ = (
    "import json, importlib, sys; m = importlib.import_module(sys.argv[1]); "
    "print(json.dumps({n: getattr(m, n) for n in sys.argv[2:]}))"
)


def _settings(module: str, **env: str) -> dict:
    """The throttle settings `module` defines, imported in a fresh interpreter whose
    environment holds only PATH, HOME and `env` (no WOD_*, no DJANGO_*)."""
    clean = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    clean.update(env)
    done = subprocess.run(
        [sys.executable, "-c", _READ, module, *NAMES],
        cwd=REPO_ROOT, env=clean, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def evennia_defaults() -> dict:
    return _settings("evennia.settings_default")


@pytest.fixture(scope="module")
def game() -> dict:
    return _settings("server.conf.settings")


def test_a_game_limits_commands_per_second_as_evennia_does_or_less(game, evennia_defaults):
    # <= 0 turns Evennia's limiter off: on, and no looser than Evennia's default.
    assert 0 < game["MAX_COMMAND_RATE"] <= evennia_defaults["MAX_COMMAND_RATE"]
    assert 0 < game["MAX_CHAR_LIMIT"] <= evennia_defaults["MAX_CHAR_LIMIT"]


def test_a_game_queues_connections_as_evennia_does_or_slower(game, evennia_defaults):
    assert 0 < game["MAX_CONNECTION_RATE"] <= evennia_defaults["MAX_CONNECTION_RATE"]


@pytest.mark.parametrize("kind", ["CREATION", "LOGIN"])
def test_a_game_throttles_creations_and_logins(game, evennia_defaults, kind):
    limit, timeout = f"{kind}_THROTTLE_LIMIT", f"{kind}_THROTTLE_TIMEOUT"
    assert game[limit] is not None and game[timeout] is not None  # None: no throttle
    assert 0 < game[limit] <= evennia_defaults[limit]
    assert game[timeout] >= evennia_defaults[timeout]


def test_wod_e2e_is_what_turns_them_off():
    e2e = _settings("server.conf.settings", WOD_E2E="1")
    assert e2e["CREATION_THROTTLE_LIMIT"] is None and e2e["LOGIN_THROTTLE_LIMIT"] is None
    assert e2e["MAX_CONNECTION_RATE"] > 1000 and e2e["MAX_COMMAND_RATE"] > 1000


#: Files that may name WOD_E2E: the settings read it, the harness sets it, bin/play drops
#: it, and the documentation and this test talk about it.
_MAY_NAME_IT = {
    "server/conf/settings.py", "tests/e2e/harness.py", "bin/play",
    "tests/test_throttles.py", "bench/README.md", "bench/flood.py",
}


def test_only_the_e2e_harness_sets_wod_e2e():
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    naming = set()
    for path in tracked:
        try:
            with open(os.path.join(REPO_ROOT, path), encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            continue
        if re.search(r"\bWOD_E2E\b", text):
            naming.add(path)
    assert "tests/e2e/harness.py" in naming
    assert naming <= _MAY_NAME_IT, sorted(naming - _MAY_NAME_IT)


def test_bin_play_drops_wod_e2e_from_its_environment():
    env = dict(os.environ, WOD_E2E="1")
    done = subprocess.run([os.path.join(REPO_ROOT, "bin", "play"), "status"], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert "ignoring WOD_E2E" in done.stderr
