"""What a web client may tell the server (Evennia's ``INPUT_FUNC_MODULES``; the app adds this
module in ``apps.py``): every public callable here is an input function.

The web client shows an "Unhandled event" error for any message it has no handler for, so
``Char.Vitals`` and ``Char.Combat`` go to a web client only once its page says it draws them
(``wodcombat/static/wod/webclient_gauges.js`` sends ``wod_gauges`` when it logs in). A
telnet client asks for them by negotiating GMCP or MSDP, as before.
"""

from .world import oob as _oob


def wod_gauges(session, *args, **kwargs):
    """The web page draws the gauges: send them now and whenever they change."""
    _oob.accept_web(session)
    puppet = session.puppet
    if puppet is not None and hasattr(puppet, "send_gauges"):
        puppet.send_gauges()
