"""Issue 30, point 7: the telnet connection stops reading a client over its command rate
(wodcombat/server/flood_guard.py); lines within the rate pass to Evennia unchanged."""

from __future__ import annotations

import pytest

from wodcombat.server import flood_guard
from wodcombat.server.flood_guard import FloodGuardTelnet, Pacer
from wodcombat.server.nodelay import NoDelayTelnet


def test_a_pacer_passes_a_burst_then_the_rest_of_the_rate():
    pacer = Pacer(80, now=10.0)  # burst 10, then 70 a second
    assert [pacer.take(10.0) for _ in range(11)] == [True] * 10 + [False]
    assert pacer.wait() == pytest.approx(1 / 70)
    assert not pacer.take(10.0 + 0.5 / 70) and pacer.take(10.0 + 1.01 / 70)


def test_no_second_passes_more_than_the_rate():
    pacer = Pacer(80, now=0.0)
    passed = [t / 1000 for t in range(3000) if pacer.take(t / 1000)]  # a line a ms, 3 s
    for start in range(0, 2000, 50):
        window = [t for t in passed if start / 1000 <= t < start / 1000 + 1.0]
        assert len(window) <= 80, (start, len(window))
    assert len(passed) >= 3 * 70


def test_a_rate_of_zero_is_no_limit_as_in_evennia():
    pacer = Pacer(0, now=0.0)
    assert all(pacer.take(0.0) for _ in range(1000))


class _Transport:
    connected = True

    def __init__(self):
        self.paused = 0
        self.resumed = 0

    def pauseProducing(self):
        self.paused += 1

    def resumeProducing(self):
        self.resumed += 1


class _Handler:
    def __init__(self):
        self.lines_in: list[str] = []
        self.out: list[dict] = []

    def data_in(self, session, **kwargs):
        self.lines_in.append(kwargs["text"])

    def data_out(self, session, **kwargs):
        self.out.append(kwargs)


class _Clock:
    now = 100.0


@pytest.fixture
def guarded(monkeypatch, settings):
    settings.MAX_COMMAND_RATE = 16  # burst 2, then 14 a second; hold 16
    later, clock = [], _Clock()


    def call_later(delay, fn):
        later.append((delay, fn))
        return later[-1]  # what stands for Twisted's DelayedCall

    monkeypatch.setattr(flood_guard.reactor, "callLater", call_later)
    monkeypatch.setattr(flood_guard.time, "time", lambda: clock.now)
    proto = FloodGuardTelnet()
    proto.transport, proto.sessionhandler = _Transport(), _Handler()
    proto.transport.bufferSize = 65536
    monkeypatch.setattr(NoDelayTelnet, "connectionMade", lambda self: None)
    proto.connectionMade()
    return proto, later, clock


def test_the_portal_reads_a_telnet_socket_4_kb_at_a_time(guarded):
    proto, _, _ = guarded
    assert proto.transport.bufferSize == 4096


def test_a_flood_passes_a_burst_holds_a_second_and_warns_once(guarded, settings):
    proto, later, _ = guarded
    for i in range(1000):
        proto.data_in(text=f"look {i}\n")
    handler = proto.sessionhandler
    assert handler.lines_in == ["look 0\n", "look 1\n"]
    assert [k["text"] for k in proto.held] == [f"look {i}\n" for i in range(2, 18)]
    assert handler.out == [{"text": [[settings.COMMAND_RATE_WARNING], {}]}]
    assert proto.transport.paused == 1 and proto.transport.resumed == 0
    assert len(later) == 1 and later[0][0] == pytest.approx(1 / 14)


def test_held_lines_pass_at_the_rate_then_reading_resumes(guarded):
    proto, later, clock = guarded
    for i in range(5):
        proto.data_in(text=f"look {i}\n")
    clock.now += 1 / 14 + 1e-6
    later.pop()[1]()  # one token back: one held line passes
    assert proto.sessionhandler.lines_in[-1] == "look 2\n" and len(proto.held) == 2
    assert proto.transport.resumed == 0
    clock.now += 1.0  # a burst's worth back: the rest pass, reading resumes
    later.pop()[1]()
    assert proto.sessionhandler.lines_in[-2:] == ["look 3\n", "look 4\n"]
    assert not proto.held and proto.transport.resumed == 1 and not proto.reading_paused


def test_held_lines_of_a_closed_connection_are_dropped(guarded):
    proto, later, clock = guarded
    for _ in range(5):
        proto.data_in(text="look\n")
    proto.transport.connected = False
    clock.now += 5.0
    later.pop()[1]()
    assert len(proto.sessionhandler.lines_in) == 2 and not proto.held
