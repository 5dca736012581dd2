"""The commands a host adds to its Character cmdset: ``self.add(CombatCmdSet)``.

``WODCOMBAT_COMMAND_KEYS`` renames or leaves out any of them, so a host that already has a
``+roll`` or a ``+sheet`` keeps its own: ``{"+roll": "+wodroll"}`` renames ours (a renamed
command drops its bare alias, ``roll``, which would shadow the host's), ``{"+sheet": None}``
leaves it out. Help text and replies still name them by their usual keys.
"""

from evennia import CmdSet

from wodcombat import conf

from .combat import CmdCombat
from .roll import CmdRoll
from .rules import CmdRules
from .sheet import CmdSheet

COMMANDS = (CmdSheet, CmdRoll, CmdRules, CmdCombat)


class CombatCmdSet(CmdSet):
    key = "WodCombat"

    def at_cmdset_creation(self):
        for cmd in COMMANDS:
            key = conf.command_key(cmd.key)
            if key is None:
                continue
            self.add(cmd() if key == cmd.key else cmd(key=key, aliases=[]))
