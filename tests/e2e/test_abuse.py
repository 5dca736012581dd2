"""Hostile bytes over a real telnet connection (issue 5, "Bad input"): very long lines,
control characters, broken UTF-8 and raw ANSI escapes from a logged-in player. The server
stays up, that connection gets a reply or is ignored, and another player is unaffected.
"""

from __future__ import annotations

import uuid

import pytest

#: (what, bytes sent by the abuser; every payload ends its line)
PAYLOADS = [
    ("10 KB line", b"x" * 10240 + b"\r\n"),
    ("10 KB +roll", b"+roll " + b"dex+" * 2560 + b"\r\n"),
    ("10 KB +sheet/spec", b"+sheet/spec brawl=" + b"K" * 10240 + b"\r\n"),
    ("control characters", b"+roll 3\x00\x01\x02\x07\x08\x0b\x0c\x7f vs 6\r\n"),
    ("control characters in a name", b"+sheet/set str\x00\x1f=3\r\n"),
    ("broken UTF-8", b"+roll \xc3\x28 + \xa0\xa1 vs \xe2\x82\r\n"),
    ("overlong and surrogate UTF-8", b"+sheet \xc0\xaf\xed\xa0\x80\xf8\x88\x80\x80\x80\r\n"),
    ("lone continuation bytes", b"\x80\x81\x82\x83\r\n"),
    ("ANSI escapes", b"+roll \x1b[31m3\x1b[0m vs \x1b[2J6\r\n"),
    ("ANSI title and reset", b"\x1b]0;pwned\x07\x1bc+sheet/spec brawl=\x1b[5mKicks\r\n"),
    ("8-bit CSI", b"+rules \x9b2J\x9b31m\r\n"),
    ("bare CR and LF storm", b"\r\r\n\n\n\r\n" * 50),
    ("20 KB without a line end, then one", b"y" * 20480 + b"\r\n"),
]


def _login(game_server, prefix: str):
    client = game_server.connect(timeout=15)
    name = prefix + uuid.uuid4().hex[:6]
    client.create_and_login(name, "pw-" + uuid.uuid4().hex[:10], timeout=20)
    client.read_available(0.5)
    return client, name


def _still_fine(client, name: str) -> None:
    client.read_available(0.3)  # what the room saw of the abuser (same room) so far
    client.send("+roll 3")
    client.expect(rf"{name} rolls 3 = 3 dice vs 6: \[[0-9 ]+\] =>", timeout=15)
    assert "Limbo" in client.command("look", until="Limbo", timeout=15)


@pytest.fixture(scope="module")
def bystander(game_server):
    client, name = _login(game_server, "calm")
    yield client, name
    client.close()


@pytest.mark.parametrize("what,payload", PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_hostile_bytes_harm_no_one_else(game_server, bystander, what, payload):
    abuser, abuser_name = _login(game_server, "rowdy")
    try:
        abuser.send_raw(payload)
        # that connection: an error reply, or nothing at all, or a closed connection
        try:
            text = abuser.read_available(1.5)
            assert "Traceback" not in text, text
            assert "Something went wrong" not in text, text
        except ConnectionError:
            pass  # the server dropped the hostile connection: allowed
        client, name = bystander
        _still_fine(client, name)
        # the server still takes new connections
        with game_server.connect(timeout=15) as probe:
            probe.read_until("connect", timeout=15)
    finally:
        abuser.close()
    assert "Traceback" not in game_server.log_tail(200), game_server.log_tail(200)


def test_abuser_can_go_on_after_garbage(game_server):
    """Garbage does not leave the connection in a state where good input stops working."""
    client, name = _login(game_server, "sorry")
    try:
        for _, payload in PAYLOADS[3:11]:
            client.send_raw(payload)
        client.read_available(1.5)
        _still_fine(client, name)
    finally:
        client.close()
