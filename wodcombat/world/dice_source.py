"""The game's dice: fast, and still unpredictable to players.

``random.SystemRandom`` reads the OS for every draw (a system call each, about ten times the
cost of the whole engine's arithmetic for an attack, issue 13). The Mersenne Twister of
``random.Random`` is fast, but it is not a secure generator: its whole state can in theory
be rebuilt from 624 consecutive 32-bit outputs. A player sees only d10 faces (about 3.3 bits
each), and the generator here is seeded from the OS and reseeded from it every
``RESEED_COMMANDS`` commands, so no run of faces a player could collect comes from one state
for long enough to be predicted. Reseeding between commands, not between draws, keeps the
draws themselves at the C generator's speed.
"""

from __future__ import annotations

import os
import random

#: Commands between reseeds from the OS. A command draws at most a few dozen faces, so one
#: state yields a few hundred d10 faces: far fewer than the ~6,000 rebuilding it would need.
RESEED_COMMANDS = 16


class GameDice(random.Random):
    """A ``random.Random`` seeded from ``os.urandom`` and reseeded every few commands."""

    def __init__(self, reseed_commands: int = RESEED_COMMANDS):
        self._every = reseed_commands
        self._left = reseed_commands
        super().__init__(os.urandom(32))

    def command_started(self) -> None:
        """Called once per command (and per idle-clock tick) before any die is drawn."""
        self._left -= 1
        if self._left <= 0:
            self.seed(os.urandom(32))
            self._left = self._every


#: One source for the whole game process (commands and the idle clock).
GAME_DICE = GameDice()
