"""``create <name> <password>`` at the login screen, without Evennia's confirmation.

Evennia 6.1 asks "Is this what you intended? [Y]/N?" and takes the next line typed as the
answer, so a player who types ``create`` and then ``connect`` (as every MUSH and our README
says) has their ``connect`` swallowed. Here the account is made at once; ``connect`` follows.
"""

from __future__ import annotations

import inspect

from evennia.commands.default.unloggedin import CmdUnconnectedCreate


class CmdCreateAccount(CmdUnconnectedCreate):
    __doc__ = CmdUnconnectedCreate.__doc__

    def func(self):
        run = super().func()
        if not inspect.isgenerator(run):
            return
        try:
            next(run)  # the confirmation question: answered yes, never shown
            run.send("y")
        except StopIteration:
            pass
