"""Server -> Portal messages in batches (wodcombat/server/amp_batch.py), over an in-memory link:
what the Portal delivers, in which order, and what it answers (issue 13)."""

from types import SimpleNamespace

import evennia
import pytest
from evennia.server.portal import amp
from twisted.internet import task
from twisted.internet.testing import StringTransport
from twisted.protocols import amp as tamp

from wodcombat.server import amp_batch
from wodcombat.server.nodelay import NoDelayAMPServer


class Sessions:
    """The Portal's session handler, as far as a message's delivery goes."""

    def __init__(self, ids=(1, 2, 3)):
        self.ids, self.out = set(ids), []

    def get(self, sessid, default=None):
        return sessid if sessid in self.ids else default

    def data_out(self, session, **kwargs):
        self.out.append((session, kwargs))


class Link:
    """A BatchingAMPClient (the Server's end) and a Portal protocol, bytes pumped by hand."""

    def __init__(self, portal_cls=amp_batch.BatchingAMPServer):
        self.server_tr, self.portal_tr = StringTransport(), StringTransport()
        server_side = SimpleNamespace(get_info_dict=dict, run_initial_setup=lambda: None)
        self.server = amp_batch.BatchingAMPClient()
        self.server.factory = SimpleNamespace(server=server_side, broadcasts=[])
        self.portal = portal_cls()
        self.portal.factory = SimpleNamespace(broadcasts=[], server_connection=None,
                                              launcher_connection=None)
        self.portal.makeConnection(self.portal_tr)
        self.server.makeConnection(self.server_tr)
        # connectionMade sent the Portal a session sync, then the hello: pass the hello only
        boxes = tamp.parseString(self.server_tr.value())
        self.server_tr.clear()
        self.to_portal(b"".join(b.serialize() for b in boxes
                                if b.get(b"_command") == b"WodBatchHello"))

    def to_portal(self, data=None):
        data = self.server_tr.value() if data is None else data
        self.server_tr.clear()
        if data:
            self.portal.dataReceived(data)

    def to_server(self):
        data = self.portal_tr.value()
        self.portal_tr.clear()
        if data:
            self.server.dataReceived(data)
        return data


@pytest.fixture
def sessions(monkeypatch):
    handler = Sessions()
    monkeypatch.setattr(evennia, "PORTAL_SESSION_HANDLER", handler, raising=False)
    return handler


@pytest.fixture
def clock(monkeypatch):
    fake = task.Clock()
    monkeypatch.setattr(amp_batch, "reactor", fake)
    return fake


def text(line):
    return {"text": ((line,), {}), "options": {}}


def send(link, sessid, line):
    link.server.send_MsgServer2Portal(SimpleNamespace(sessid=sessid), **text(line))


def test_the_messages_of_one_reactor_pass_reach_the_portal_as_one_command(sessions, clock):
    link = Link()
    link.to_server()  # the hello's answer
    assert link.server.batching
    for sessid, line in ((1, "Alice attacks Bob."), (2, "Alice attacks Bob."), (1, "Roll!")):
        send(link, sessid, line)
    assert link.server_tr.value() == b""  # nothing leaves before the reactor's next pass
    clock.advance(0)
    wire = link.server_tr.value()
    assert wire.count(b"WodMsgBatch") == 1 and b"_ask" not in wire
    link.to_portal()
    assert sessions.out == [(1, text("Alice attacks Bob.")), (2, text("Alice attacks Bob.")),
                            (1, text("Roll!"))]
    assert link.portal_tr.value() == b""  # no answer to read back


def test_a_message_to_a_session_the_portal_lost_is_dropped_the_others_go(sessions, clock):
    link = Link()
    link.to_server()
    send(link, 9, "gone")
    send(link, 3, "here")
    clock.advance(0)
    link.to_portal()
    assert sessions.out == [(3, text("here"))]


def test_any_other_command_goes_after_the_messages_sent_before_it(sessions, clock):
    link = Link()
    link.to_server()
    send(link, 1, "Goodbye!")
    link.server.send_AdminServer2Portal(SimpleNamespace(sessid=1), operation=amp.SDISCONN)
    wire = link.server_tr.value()
    assert wire.index(b"WodMsgBatch") < wire.index(b"AdminServer2Portal")
    clock.advance(0)  # the flush already happened: nothing more is sent
    assert link.server_tr.value() == wire


def test_before_the_portal_answers_each_message_goes_as_evennias_own_without_answer(
        sessions, clock):
    link = Link()  # the hello's answer has not reached the Server yet
    assert not link.server.batching
    answered = link.portal_tr.value()
    send(link, 2, "early")
    wire = link.server_tr.value()
    assert b"MsgServer2Portal" in wire and b"_ask" not in wire
    link.to_portal()
    assert sessions.out == [(2, text("early"))]
    assert link.portal_tr.value() == answered  # the hello's answer only


def test_an_older_portal_keeps_the_link_and_gets_one_message_a_command(sessions, clock):
    link = Link(portal_cls=NoDelayAMPServer)  # no batch responder: answers with an error
    link.to_server()
    assert not link.server.batching
    assert not link.portal_tr.disconnecting and not link.server_tr.disconnecting
    send(link, 1, "still here")
    link.to_portal()
    assert sessions.out == [(1, text("still here"))]


def test_a_long_message_is_compressed_and_split_as_amp_requires(sessions, clock):
    link = Link()
    link.to_server()
    long_line = "".join(f"line {i} of a long page\n" for i in range(20000))  # ~500 kB
    send(link, 1, long_line)
    send(link, 2, "short")
    clock.advance(0)
    wire = link.server_tr.value()
    assert len(wire) < len(long_line) // 4  # deflated
    link.to_portal()
    assert sessions.out == [(1, text(long_line)), (2, text("short"))]


def test_a_short_message_is_sent_as_it_is():
    packed = amp_batch.Packed()
    data = amp.dumps([(1, text("short"))])
    assert packed.toString(data) == b"\x00" + data
    assert packed.fromString(packed.toString(data)) == data
    big = b"x" * (amp_batch.COMPRESS_FROM + 10)
    assert packed.toString(big)[:1] == b"\x01"
    assert packed.fromString(packed.toString(big)) == big


def test_a_big_batch_does_not_wait_for_the_reactor(sessions, clock):
    link = Link()
    link.to_server()
    for i in range(amp_batch.MAX_BATCH):
        send(link, 1, f"m{i}")
    assert link.server_tr.value().count(b"WodMsgBatch") == 1  # sent at the limit
    clock.advance(0)
    link.to_portal()
    assert [kw["text"][0][0] for _, kw in sessions.out] == [
        f"m{i}" for i in range(amp_batch.MAX_BATCH)]
