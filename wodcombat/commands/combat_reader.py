"""+combat/screenreader (issue 29): the account's choice of screen-reader mode
(``wodcombat/world/reader_mode.py``): +combat, +sheet and the turn lines one fact a line."""

from __future__ import annotations

from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.world import reader_mode

_SAY = {True: "Screen-reader mode is on: +combat, +sheet and the fight's turn lines come "
              "one fact a line, with nothing drawn. +combat/screenreader off turns it off.",
        False: "Screen-reader mode is off: +combat and +sheet are drawn as tables. "
               "+combat/screenreader on says them one fact a line."}


class ReaderSwitches:
    """The ``/screenreader`` switch of +combat."""

    def do_screenreader(self):
        account = getattr(self, "account", None)
        if account is None:
            raise IllegalAction("Screen-reader mode belongs to an account: log in to set it.")
        arg = self.args.strip().lower()
        if arg not in ("", "on", "off"):
            raise InputError("Usage: +combat/screenreader on||off (alone: the setting).")
        if arg:
            reader_mode.set_on(account, arg == "on")
        self.msg(_SAY[reader_mode.is_on(account)])
