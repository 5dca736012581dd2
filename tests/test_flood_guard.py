"""Issue 30, point 7: the telnet connection stops reading a client over its command rate
(server/conf/flood_guard.py); lines within the rate pass to Evennia unchanged."""

from __future__ import annotations

import pytest

from server.conf import flood_guard
from server.conf.flood_guard import FloodGuardTelnet, LineBudget


def test_a_budget_passes_rate_lines_a_window_then_refuses():
    budget = LineBudget(3)
    assert [budget.take(10.0 + i / 100) for i in range(5)] == [True, True, True, False, False]
    assert budget.seconds_left(10.5) == pytest.approx(0.5)


def test_a_new_window_starts_more_than_a_second_after_the_last():
    budget = LineBudget(1)
    assert budget.take(10.0) and not budget.take(10.9) and not budget.take(11.0)
    assert budget.take(11.01)


def test_a_rate_of_zero_is_no_limit_as_in_evennia():
    budget = LineBudget(0)
    assert all(budget.take(10.0) for _ in range(1000))


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


@pytest.fixture
def guarded(monkeypatch, settings):
    settings.MAX_COMMAND_RATE = 5
    later = []
    monkeypatch.setattr(flood_guard.reactor, "callLater",
                        lambda delay, fn, *a: later.append((delay, fn)))
    monkeypatch.setattr(flood_guard.time, "time", lambda: 100.0)
    proto = FloodGuardTelnet()
    proto.line_budget = LineBudget(float(settings.MAX_COMMAND_RATE))
    proto.reading_paused = False
    proto.transport, proto.sessionhandler = _Transport(), _Handler()
    return proto, later


def test_a_flood_passes_the_rate_warns_once_and_stops_reading(guarded, settings):
    proto, later = guarded
    for i in range(1000):
        proto.data_in(text=f"look {i}\n")
    handler = proto.sessionhandler
    assert handler.lines_in == [f"look {i}\n" for i in range(5)]
    assert handler.out == [{"text": [[settings.COMMAND_RATE_WARNING], {}]}]
    assert proto.transport.paused == 1 and proto.transport.resumed == 0
    assert len(later) == 1 and 0 < later[0][0] <= 1.01


def test_reading_resumes_when_the_window_is_over(guarded):
    proto, later = guarded
    for _ in range(6):
        proto.data_in(text="look\n")
    later[0][1]()
    assert proto.transport.resumed == 1 and not proto.reading_paused
