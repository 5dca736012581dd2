"""Issue 29: the web client is sent ``Char.Vitals`` / ``Char.Combat`` only once its page says
it draws them (``wod_gauges``); Evennia's stock page would print each as an error."""

from __future__ import annotations

from types import SimpleNamespace

from wodcombat import inputfuncs
from wodcombat.world import oob


class Session:
    def __init__(self, protocol_key: str, oob_flag: bool = True):
        self.protocol_key = protocol_key
        self.protocol_flags = {"OOB": oob_flag}
        self.ndb = SimpleNamespace(wod_oob=None, wod_gauges=None)
        self.sent = []
        self.puppet = None

    def msg(self, **kwargs):
        self.sent.append(kwargs)


class Obj:
    db_account_id = 1

    def __init__(self, *sessions):
        self.sessions = SimpleNamespace(all=lambda: list(sessions))


def test_a_telnet_client_that_negotiated_gmcp_is_sent_the_gauges():
    telnet = Session("telnet")
    oob._send(Obj(telnet), oob.VITALS, {"willpower": 4})
    assert telnet.sent == [{oob.VITALS: ((), {"willpower": 4})}]


def test_a_web_client_is_sent_nothing_until_its_page_asks_then_everything():
    web, plain = Session("webclient/websocket"), Session("telnet", oob_flag=False)
    obj = Obj(web, plain)
    oob._send(obj, oob.VITALS, {"willpower": 4})
    assert web.sent == [] and plain.sent == [] and not oob._listens(obj)

    sends = []
    web.puppet = SimpleNamespace(send_gauges=lambda: sends.append("gauges"))
    inputfuncs.wod_gauges(web)
    assert sends == ["gauges"] and oob._listens(obj)
    oob._send(obj, oob.VITALS, {"willpower": 4})
    assert len(web.sent) == 1 and plain.sent == []
    oob._send(obj, oob.VITALS, {"willpower": 4})  # unchanged: not sent again
    assert len(web.sent) == 1


def test_asking_again_resends_what_was_already_sent():
    web = Session("webclient/websocket")
    oob.accept_web(web)
    oob._send(Obj(web), oob.VITALS, {"willpower": 4})
    oob.accept_web(web)  # the page reloaded: it has drawn nothing yet
    oob._send(Obj(web), oob.VITALS, {"willpower": 4})
    assert len(web.sent) == 2
