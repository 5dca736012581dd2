"""Fixtures for end-to-end tests against a real Evennia server.

Every test under tests/e2e/ is marked `e2e` automatically (deselect them with
`bin/test -m "not e2e"`). Use the session-wide server through the `game_server`
fixture (no import needed inside tests/e2e/):

    def test_something(game_server):
        with game_server.connect() as client:
            client.create_and_login("alice", "pw-alice-1")
            client.send("look")
            client.read_until("Limbo")

Put e2e tests in tests/e2e/ (the fixtures live in this conftest). The client and
server classes are importable for type hints or custom setups:
`from tests.e2e.harness import GameServer, TelnetClient`.
"""

import os
import shutil
import tempfile

import pytest

from tests.e2e.harness import GameServer, chromium, drop_pg_database

@pytest.fixture
def browser():
    """Headless Chromium with no way to the internet (harness.chromium)."""
    yield from chromium()


_E2E_DIR = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if str(item.path).startswith(_E2E_DIR + os.sep):
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """When an e2e test fails, attach the tail of the test server's logs to the report
    (the temporary game dir, logs included, is deleted at the end of the session)."""
    report = yield
    if report.failed and "game_server" in getattr(item, "fixturenames", ()):
        server = item.funcargs.get("game_server") if hasattr(item, "funcargs") else None
        if server is not None:
            report.sections.append(("e2e server logs", server.log_tail(60)))
    return report


@pytest.fixture(scope="session")
def game_server():
    """A real Evennia server (portal + server) on free localhost ports with its own
    temporary game dir and database; stopped and removed at the end of the session.

    Attributes: host, telnet_port, web_port, admin_user, admin_password, gamedir, env;
    methods: connect() -> TelnetClient, log_tail(), gamectl(*args).
    """
    # A short path: the tree holds the server's sockets/pids/logs for this session.
    workdir = tempfile.mkdtemp(prefix="wod-e2e-")
    server = None
    try:
        server = GameServer.start(workdir)
        yield server
    finally:
        if server is not None:
            server.stop()
            if server.env.get("WOD_DATABASE_URL"):
                drop_pg_database(server.env["WOD_DATABASE_URL"])
        if os.environ.get("WOD_E2E_KEEP"):
            print(f"\n[e2e] kept test server dir: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def telnet(game_server):
    """A fresh telnet connection to the session's server (closed after the test)."""
    client = game_server.connect()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(autouse=True)
def fresh_world(request):
    """Each e2e test starts with no fight running and the admin in Limbo: the tests share
    one server (starting it costs ~20 s), and a fight left by one test would make the next
    one's `+combat/start` refuse ("already in a fight")."""
    yield
    if "game_server" not in request.fixturenames:
        return
    server = request.getfixturevalue("game_server")
    cleanup = (
        "py from evennia import ScriptDB; "
        "[s.delete() for s in ScriptDB.objects.filter(db_key='wod_combat')]; "
        "me.move_to(me.search('#2', global_search=True), quiet=True); print('clean' + '-done')"
    )
    with server.connect() as client:
        client.login(server.admin_user, server.admin_password, timeout=20)
        client.command(cleanup, until="clean-done", timeout=20)
