"""Server -> portal text in fewer, cheaper AMP trips (issue 13).

Why: every ``msg`` to a session is one AMP command from the Server to the Portal. Evennia
pickles it, compresses it with zlib at level 9 (about 20 us for a 600-byte line: deflate's
set-up, whatever the level) and asks for an answer, which the Server must then read and
match to a Deferred. A fight's announce sends one message per reader, so with five readers
an act made five such trips, about a third of what the whole command cost beyond ``look``.

What this does, on the game's own AMP protocol classes (settings.AMP_*_PROTOCOL_CLASS):

- Messages the Server sends in one pass of the reactor go to the Portal as ONE command,
  ``WodMsgBatch``: the list of ``(sessid, kwargs)`` Evennia would have sent one by one, in
  the same order. It is sent at the next reactor pass (``callLater(0)``: before the
  reactor writes to any socket, so nothing waits longer), and before any other AMP
  command (a disconnect after a goodbye line, a reload) so the order the Portal sees is
  the order they were sent in.
- It asks for no answer: the Portal's responder catches and logs its own errors, as
  Evennia's ``portal_receive_server2portal`` does.
- Its payload is compressed only when it is large (``COMPRESS_FROM``): the Server and the
  Portal share a local link, where bytes cost next to nothing and deflating them does not
  (level 9 on a 100-line ``+combat`` table: 8 kB, 180 us; level 6: 60 us; sent as it is:
  nothing). Payloads of several AMP values (a long help page, a log) are still deflated.

A Portal that runs older code (``evennia reload`` restarts only the Server) does not know
the batch command, and an unknown command without an answer would make it drop the link.
So the Server first asks ``WodBatchHello`` (with an answer): until a Portal says yes, or if
it answers with an error, each message goes as Evennia's own ``MsgServer2Portal``, which
that Portal knows, only without asking for the answer.
"""

from __future__ import annotations

import zlib
from io import BytesIO
from itertools import count

import evennia
from evennia.server.portal import amp
from evennia.utils import logger
from twisted.internet import reactor
from twisted.protocols import amp as tamp

from wodcombat.server.nodelay import NoDelayAMPClient, NoDelayAMPServer

COMPRESS_FROM = 32768  # payload bytes; below this a batch goes as it is
MAX_BATCH = 200  # messages in one command; more start another (bounds its size)
_CHUNK = amp.AMP_MAXLEN - 16  # an AMP value holds at most AMP_MAXLEN bytes, flag included
_RAW, _ZLIB = b"\x00", b"\x01"


class Packed(amp.Compressed):
    """Evennia's long-value argument (split over several AMP keys when long), with a flag
    byte saying whether the chunk is deflated."""

    def toBox(self, name, strings, objects, proto):
        value = BytesIO(objects[str(name, "utf-8")])
        strings[name] = self.toStringProto(value.read(_CHUNK), proto)
        for counter in count(2):
            chunk = value.read(_CHUNK)
            if not chunk:
                break
            strings[b"%s.%d" % (name, counter)] = self.toStringProto(chunk, proto)

    def toString(self, inObject):
        raw = tamp.String.toString(self, inObject)
        if len(raw) < COMPRESS_FROM:
            return _RAW + raw
        return _ZLIB + zlib.compress(raw)

    def fromString(self, inString):
        if inString[:1] == _ZLIB:
            return tamp.String.fromString(self, zlib.decompress(inString[1:]))
        return tamp.String.fromString(self, inString[1:])


class WodBatchHello(tamp.Command):
    """Does this Portal take ``WodMsgBatch``? (An older one answers with an error.)"""

    commandName = b"WodBatchHello"
    arguments = []
    response = []


class WodMsgBatch(tamp.Command):
    """Server -> Portal: a pickled list of ``(sessid, kwargs)``, each as ``MsgServer2Portal``
    would carry it."""

    commandName = b"WodMsgBatch"
    arguments = [(b"packed_data", Packed())]
    requiresAnswer = False


class MsgServer2PortalNoAnswer(amp.MsgServer2Portal):
    """Evennia's own message command (any Portal knows it), without asking for the answer:
    its responder logs its errors itself and returns nothing we would use."""

    commandName = b"MsgServer2Portal"
    requiresAnswer = False


class BatchingAMPServer(NoDelayAMPServer):
    """The Portal's end: answers the hello and delivers a batch as Evennia delivers one."""

    @WodBatchHello.responder
    def portal_receive_batch_hello(self):
        return {}

    @WodMsgBatch.responder
    def portal_receive_batch(self, packed_data):
        try:
            batch = self.data_in(packed_data)
        except Exception:
            logger.log_trace(f"WodMsgBatch: packed_data len {len(packed_data)}")
            return {}
        sessions = evennia.PORTAL_SESSION_HANDLER
        for sessid, kwargs in batch:
            try:  # one bad message must not cost the others theirs
                session = sessions.get(sessid, None)
                if session:
                    sessions.data_out(session, **kwargs)
            except Exception:
                logger.log_trace(f"WodMsgBatch: a message to session {sessid}")
        return {}


class BatchingAMPClient(NoDelayAMPClient):
    """The Server's end: gathers the messages of a reactor pass into one command."""

    batching = False  # set once the Portal said it takes WodMsgBatch

    def connectionMade(self):
        self.batching = False
        self._pending = []
        self._flush_call = None
        super().connectionMade()
        self.callRemote(WodBatchHello).addCallbacks(self._portal_batches, self._portal_old)

    def _portal_batches(self, _answer):
        self.batching = True

    def _portal_old(self, failure):
        # An older Portal answers UnhandledCommand; a link lost before the answer is
        # reconnected and asked again. Either way: one message a command meanwhile.
        logger.log_info(f"AMP: no message batches for now ({failure.getErrorMessage()}); "
                        "messages go one by one")

    def send_MsgServer2Portal(self, session, **kwargs):
        if not self.batching:
            return self.callRemote(MsgServer2PortalNoAnswer,
                                   packed_data=amp.dumps((session.sessid, kwargs)))
        self._pending.append((session.sessid, kwargs))
        if len(self._pending) >= MAX_BATCH:
            self.flush()
        elif self._flush_call is None:
            self._flush_call = reactor.callLater(0, self.flush)
        return None

    def flush(self) -> None:
        """Send the gathered messages now (also called before any other command)."""
        if self._flush_call is not None:
            if self._flush_call.active():
                self._flush_call.cancel()
            self._flush_call = None
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        tamp.AMP.callRemote(self, WodMsgBatch, packed_data=amp.dumps(batch))

    def callRemote(self, command, *args, **kwargs):
        if getattr(self, "_pending", None):
            self.flush()  # whatever was sent before this goes before it
        return super().callRemote(command, *args, **kwargs)

    def connectionLost(self, reason):
        if self._flush_call is not None and self._flush_call.active():
            self._flush_call.cancel()
        self._flush_call, self._pending = None, []
        super().connectionLost(reason)
