"""Connection classes that send small writes at once (TCP_NODELAY), selected in settings.

Why: a MUSH command's answer is a few hundred bytes. With Nagle's algorithm on, the portal
holds such a write back until the previous one is acknowledged, and the client's delayed
ACK makes that about 40-50 ms per command on loopback, for a no-op as for a fight; the
portal-server AMP link pays it again. With TCP_NODELAY on both ends of every socket the
answer leaves as soon as it is written (issue 13: `look` 50 ms -> 6-7 ms round trip).
"""

from __future__ import annotations

from evennia.server.amp_client import AMPServerClientProtocol
from evennia.server.portal.amp_server import AMPServerProtocol
from evennia.server.portal.telnet import TelnetProtocol
from evennia.server.portal.webclient import WebSocketClient


def nodelay(transport) -> None:
    """Turn Nagle off on ``transport`` (a TCP transport; others have no such option)."""
    setter = getattr(transport, "setTcpNoDelay", None)
    if setter is not None:
        try:
            setter(True)
        except OSError:  # the socket went away already
            pass


class NoDelayTelnet(TelnetProtocol):
    def connectionMade(self):
        nodelay(self.transport)
        super().connectionMade()


class NoDelayWebSocket(WebSocketClient):
    def connectionMade(self):
        nodelay(self.transport)
        super().connectionMade()


class NoDelayAMPServer(AMPServerProtocol):
    def connectionMade(self):
        nodelay(self.transport)
        super().connectionMade()


class NoDelayAMPClient(AMPServerClientProtocol):
    def connectionMade(self):
        nodelay(self.transport)
        super().connectionMade()
