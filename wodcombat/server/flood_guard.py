"""A telnet connection that paces a client's lines and stops reading a client that floods.

Why (issue 30, measured by bench/flood.py): Evennia refuses a session's lines beyond
MAX_COMMAND_RATE a second in the Portal's session handler, but only after the Portal has
read, telnet-parsed and split every line, and it answers each refused line with its own
warning. One client writing `look` as fast as its socket takes it hands the Portal tens of
thousands of lines a second to refuse, all in the one thread that also reads every other
client and the Server's answers: another player's `look` then waited seconds. And the
rate's lines pass in a burst when each second begins: 80 looks queued at the Server at
once, ~140 ms of its CPU, which another player's command waits behind.

Here a session's lines pass at once up to a small burst, then at the rate, evenly; the
lines waiting are held (at most one second's worth) and the Portal stops reading that
socket until they have passed, so the flooder's own socket buffers fill and its writes
block. A line that finds the hold full is refused, with one warning until the hold empties.
In any second at most MAX_COMMAND_RATE lines pass, so Evennia's own check never refuses.
The Portal reads 4 KB from the socket at a time, not 64 KB, so what it parses of a flood
between two other clients' turns stays small.
"""

from __future__ import annotations

import time
from collections import deque

from django.conf import settings
from twisted.internet import reactor

from wodcombat.server.nodelay import NoDelayTelnet

# Bytes the Portal reads from a telnet socket at a time (Twisted's default is 64 KB, some
# 11,000 lines of `look` to parse and split in one go while every other client waits).
# A player's line is at most MAX_CHAR_LIMIT (6,000) characters: two reads.
READ_SIZE = 4096

# The burst is this share of a second's lines (10 at Evennia's 80): a pasted handful of
# commands passes at once; what follows passes at the rest of the rate.
BURST_SHARE = 1 / 8


class Pacer:
    """A token bucket: ``burst`` lines at once, then ``rate - burst`` a second, so no
    one-second window holds more than ``rate`` lines. A rate <= 0 is Evennia's "no limit"."""

    def __init__(self, rate: float, now: float):
        self.burst = max(1.0, rate * BURST_SHARE)
        self.refill = max(1.0, rate - self.burst)
        self.unlimited = rate <= 0
        self.tokens, self.stamp = self.burst, now

    def take(self, now: float) -> bool:
        """One line at ``now``: True if it may pass."""
        if self.unlimited:
            return True
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.refill)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds from the last ``take`` until a line may pass."""
        return max(0.0, (1.0 - self.tokens) / self.refill)


class FloodGuardTelnet(NoDelayTelnet):
    def connectionMade(self):
        rate = float(settings.MAX_COMMAND_RATE)
        self.pacer = Pacer(rate, time.time())
        self.held: deque = deque()
        self.hold_limit = max(1, int(rate))
        self.reading_paused = self.warned = False
        self.drain_call = None
        if hasattr(self.transport, "bufferSize"):
            self.transport.bufferSize = READ_SIZE
        super().connectionMade()

    def data_in(self, **kwargs):
        if not self.held and self.pacer.take(time.time()):
            super().data_in(**kwargs)
            return
        if len(self.held) < self.hold_limit:
            self.held.append(kwargs)
        elif not self.warned:
            self.warned = True
            self.sessionhandler.data_out(self, text=[[settings.COMMAND_RATE_WARNING], {}])
        self._hold()

    def _hold(self) -> None:
        """Stop reading this socket and pass the held lines at the rate."""
        if not self.reading_paused:
            self.reading_paused = True
            self.transport.pauseProducing()
        if self.drain_call is None:
            self.drain_call = reactor.callLater(self.pacer.wait(), self._drain)

    def _drain(self) -> None:
        self.drain_call = None
        if not self.transport.connected:
            self.held.clear()
            return
        now = time.time()
        while self.held and self.pacer.take(now):
            super().data_in(**self.held.popleft())
        if self.held:
            self.drain_call = reactor.callLater(self.pacer.wait(), self._drain)
            return
        self.reading_paused = self.warned = False
        self.transport.resumeProducing()
