"""Smoke test: a player can create an account, log in and look around over telnet."""

import os
import uuid

import pytest


def test_create_connect_look(telnet):
    name = "smoke" + uuid.uuid4().hex[:6]
    password = "pw-" + uuid.uuid4().hex[:10]

    screen = telnet.read_until("create <username> <password>", timeout=15)
    assert "connect <username> <password>" in screen

    # No "Is this what you intended?" (issue 11): it took the next line typed as its answer.
    telnet.send(f"create {name} {password}")
    created = telnet.expect(rf"account '{name}' was created", timeout=15)
    assert "intended" not in created.string

    telnet.send(f"connect {name} {password}")
    telnet.read_until(f"You become {name}", timeout=15)

    telnet.send("look")
    telnet.read_until("Limbo", timeout=10)


def test_admin_account_and_helpers(game_server):
    with game_server.connect() as client:
        client.read_until("connect", timeout=15)
        client.login(game_server.admin_user, game_server.admin_password, timeout=15)
        client.send("look")
        client.read_until("Limbo", timeout=10)

    with game_server.connect() as client:
        name = "helper" + uuid.uuid4().hex[:6]
        client.create_and_login(name, "pw-" + uuid.uuid4().hex[:10], timeout=15)
        reply = client.command("look", until="Limbo", timeout=10)
        assert "Limbo" in reply


def test_the_running_server_uses_wal_and_synchronous_normal(game_server):
    """Issue 13: the pragmas in force on the server's own database connection."""
    if os.environ.get("WOD_DATABASE_URL") or os.environ.get("DATABASE_URL"):
        pytest.skip("SQLite's pragmas; this run's server is on PostgreSQL")
    with game_server.connect() as client:
        client.read_until("connect", timeout=15)
        client.login(game_server.admin_user, game_server.admin_password, timeout=15)
        out = client.command(
            "py from django.db import connection as c; k = c.cursor(); "
            "print('PRAGMAS %s %s E%s' % (k.execute('PRAGMA journal_mode').fetchone()[0], "
            "k.execute('PRAGMA synchronous').fetchone()[0], 'ND'))",
            until=" END", timeout=15)
        assert "PRAGMAS wal 1 END" in out, out  # synchronous 1 = NORMAL


def test_the_server_end_of_the_portal_link_sends_without_delay(game_server):
    """Issue 13: TCP_NODELAY on the server's AMP socket (wodcombat/server/nodelay.py); the portal's
    telnet, websocket and AMP sockets use the same classes (server/conf/settings.py)."""
    with game_server.connect() as client:
        client.read_until("connect", timeout=15)
        client.login(game_server.admin_user, game_server.admin_password, timeout=15)
        out = client.command(
            "py import socket, evennia; p = evennia.EVENNIA_SERVER_SERVICE.amp_protocol; "
            "print('NODELAY %s %s E%s' % (type(p).__name__, p.transport.getHandle()"
            ".getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), 'ND'))",
            until=" END", timeout=15)
        # BatchingAMPClient: a NoDelayAMPClient that also batches (wodcombat/server/amp_batch.py)
        assert "NODELAY BatchingAMPClient 1 END" in out, out


def test_the_portal_takes_the_servers_message_batches(game_server):
    """Issue 13: the Portal answered the Server's hello, so messages go in batches
    (wodcombat/server/amp_batch.py); this very reply came through one."""
    with game_server.connect() as client:
        client.read_until("connect", timeout=15)
        client.login(game_server.admin_user, game_server.admin_password, timeout=15)
        out = client.command(
            "py import evennia; print('BATCHING %s E%s' % ("
            "evennia.EVENNIA_SERVER_SERVICE.amp_protocol.batching, 'ND'))",
            until=" END", timeout=15)
        assert "BATCHING True END" in out, out
