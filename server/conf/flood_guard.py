"""A telnet connection that stops reading from a client once it is over its command rate.

Why (issue 30, measured by bench/flood.py): Evennia refuses a session's lines beyond
MAX_COMMAND_RATE a second in the Portal's session handler, but only after the Portal has
read, telnet-parsed and split every line, and it answers each refused line with its own
warning. One client writing `look` as fast as its socket takes it hands the Portal tens of
thousands of lines a second to refuse, all in the one thread that also reads every other
client and the Server's answers: another player's `look` then waits for seconds. Here the
first line over the rate gets the warning, the rest of what was read is dropped before the
session handler sees it, and the Portal stops reading that socket until the second is over;
the flooder's own socket buffers fill and its writes block. Lines within the rate pass on to
Evennia's own check unchanged, so what a session may do is what Evennia allows.
"""

from __future__ import annotations

import time

from django.conf import settings
from twisted.internet import reactor

from server.conf.nodelay import NoDelayTelnet


class LineBudget:
    """Lines a session may send in the current one-second window (Evennia's own window:
    it starts with the first line more than a second after the last window began)."""

    def __init__(self, rate: float):
        self.rate = rate
        self.window_start = float("-inf")
        self.used = 0

    def take(self, now: float) -> bool:
        """Count one line at ``now``; False when it is over the rate."""
        if self.rate <= 0:  # Evennia's "no limit"
            return True
        if now - self.window_start > 1.0:
            self.window_start, self.used = now, 0
        self.used += 1
        return self.used <= self.rate

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.window_start + 1.0 - now)


class FloodGuardTelnet(NoDelayTelnet):
    def connectionMade(self):
        self.line_budget = LineBudget(float(settings.MAX_COMMAND_RATE))
        self.reading_paused = False
        super().connectionMade()

    def data_in(self, **kwargs):
        now = time.time()
        if self.line_budget.take(now):
            super().data_in(**kwargs)
        elif not self.reading_paused:
            self._pause(now)

    def _pause(self, now: float) -> None:
        """Warn once, stop reading until the window is over (the lines already read and
        not yet split are refused as they come: data_in drops them while paused)."""
        self.reading_paused = True
        self.sessionhandler.data_out(self, text=[[settings.COMMAND_RATE_WARNING], {}])
        self.transport.pauseProducing()
        reactor.callLater(self.line_budget.seconds_left(now) + 0.001, self._resume)

    def _resume(self) -> None:
        self.reading_paused = False
        if self.transport.connected:
            self.transport.resumeProducing()
