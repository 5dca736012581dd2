"""GMCP over a real telnet connection (issue 12): a Mudlet-like client says DO GMCP, then
gets ``Char.Vitals`` (health level, wound penalty, Willpower ...) at login and ``Char.Combat``
(turn, phase, its slot, whom the fight waits for) as the fight moves; both change after the
character is hit (HLT-01, HLT-06: the level and the penalty)."""

import json
import time
import uuid

from tests.e2e.harness import DO, IAC, SB, SE, WILL, TelnetClient

GMCP = 201


class GmcpClient(TelnetClient):
    """The harness client, but it accepts GMCP (and only GMCP) and keeps every message."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.gmcp: list[tuple[str, object]] = []

    def _process(self, data: bytes) -> str:
        buf = self._pending + data
        kept = bytearray()
        i = 0
        while i < len(buf):
            if buf[i] == IAC and i + 2 < len(buf) and buf[i + 1] == WILL and buf[i + 2] == GMCP:
                self.sock.sendall(bytes([IAC, DO, GMCP]))
                i += 3
                continue
            if buf[i] == IAC and i + 2 < len(buf) and buf[i + 1] == SB and buf[i + 2] == GMCP:
                end = buf.find(bytes([IAC, SE]), i + 3)
                if end < 0:
                    break  # the rest comes with the next read
                name, _, body = buf[i + 3:end].decode("utf-8").partition(" ")
                self.gmcp.append((name, json.loads(body) if body else None))
                i = end + 2
                continue
            kept.append(buf[i])
            i += 1
        self._pending = b""
        rest = bytes(buf[i:])
        text = super()._process(bytes(kept))
        self._pending += rest
        return text

    def last(self, name: str):
        found = [body for n, body in self.gmcp if n == name]
        return found[-1] if found else None

    def wait_for(self, name: str, pred, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for n, body in reversed(self.gmcp):
                if n == name and pred(body):
                    return body
            self.read_available(0.3)
        raise AssertionError(f"no {name} matching in time; got {self.gmcp[-8:]}")


def test_gmcp_vitals_and_combat_change_after_a_hit(game_server):
    name = "Gm" + uuid.uuid4().hex[:6]
    c = GmcpClient(game_server.host, game_server.telnet_port, timeout=20)
    game_server.clients.append(c)
    c.create_and_login(name, "pw-" + uuid.uuid4().hex[:10], timeout=20)
    c.command("+sheet/set willpower=4/6", until="set to")
    vit = c.wait_for("Char.Vitals", lambda v: v.get("willpower") == 4)
    assert vit["willpower_max"] == 6
    assert vit["health_level"] == "Healthy" and vit["wound_penalty"] == 0
    assert vit["health_boxes"] == 7 and vit["health_damage"] == 0

    c.command("+combat/start", until="starts a fight")
    c.command("+combat/npc Goon=thug", until="Goon joins")
    started = c.wait_for("Char.Combat", lambda v: v.get("active") and v.get("of") == 2)
    assert started["phase"] != "declare"
    c.command("+combat/init", until="rolls initiative")
    c.command("+combat/init Goon=4", until="rolls initiative")
    c.command("+combat/next", until="declare phase")
    declaring = c.wait_for("Char.Combat", lambda v: v.get("phase") == "declare")
    assert declaring["turn"] >= started["turn"]
    assert declaring["pending"], declaring
    assert declaring["slot"] in (1, 2)

    # the hit: 2 lethal on the character (the organizer's damage goes through the same
    # service as an attack and marks the sheet in the same transaction)
    c.command(f"+combat/damage {name}=2 lethal", until="lethal")
    hurt = c.wait_for("Char.Vitals", lambda v: v.get("health_damage") == 2)
    assert hurt["lethal"] == 2
    assert hurt["health_level"] == "Hurt" and hurt["wound_penalty"] == -1

    c.command("+combat/end", until="fight")
    c.wait_for("Char.Combat", lambda v: v.get("active") is False)
