"""The d10 engine's actions, one small class per kind (issue 32): ``ACTIONS`` maps each
declared kind to the action that checks it when declared (``check``) and performs it in its
slot (``resolve``). ``declare.py`` and ``acting.py`` dispatch through ``action_for``.

A kind no action names (one the scheduler accepts that has no rule of its own when acted) is
a plain action, as it always was: its event says what was done.
"""

from __future__ import annotations

from types import MappingProxyType

from .aim import Aim
from .attack import Attack
from .base import Action
from .defend import Defend
from .escape import Escape
from .heal import Heal
from .move import Move
from .pickup import PickUp
from .plain import Plain
from .prepare import Prepare
from .reload import Reload
from .resist import Resist

PLAIN = Plain()
ACTIONS: MappingProxyType[str, Action] = MappingProxyType({
    kind: action
    for action in (Attack(), Aim(), Reload(), Prepare(), PickUp(), Move(), Escape(), Resist(),
                   Heal(), Defend(), PLAIN)
    for kind in action.kinds
})


def action_for(kind: str) -> Action:
    return ACTIONS.get(kind, PLAIN)
