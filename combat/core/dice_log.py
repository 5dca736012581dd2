"""Dice that remember what they rolled, and dice that roll it again (issue 8: replay).

``RecordingDice`` wraps the game's generator and keeps every face it dealt; the log stores
them with the intent. ``ReplayDice`` deals those faces back in order, so re-applying a
logged intent to its logged state reproduces its events exactly (``bin/replay``). Both
answer through ``randint``, the path ``wodcombat.combat.core.dice.roll_faces`` takes for
such generators.
"""

from __future__ import annotations

import random


_RANDINT = random.Random.randint


class RecordingDice(random.Random):
    def __init__(self, inner: random.Random):
        super().__init__(0)
        self.inner = inner
        self.faces: list[int] = []
        # A generator with the stock ``randint`` (the game's) deals a face from one
        # ``random()``, uniform like ``randint`` and a fifth of its cost (combat/core/dice.py
        # ``roll_faces`` says the same); one with its own (tests' exact faces) is asked.
        own = getattr(inner.randint, "__func__", None) is not _RANDINT
        self._draw = inner.randint if own else None
        self._random = inner.random

    def randint(self, a: int, b: int) -> int:
        if self._draw is not None:
            face = self._draw(a, b)
        else:
            face = a + int(self._random() * (b - a + 1))
        self.faces.append(face)
        return face


class OutOfDice(Exception):
    """A replay asked for more dice than the log recorded: the engine is not what it was."""


class ReplayDice(random.Random):
    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self.faces):
            raise OutOfDice(f"the log recorded {len(self.faces)} dice; the replay wants more")
        face = self.faces[self.used]
        self.used += 1
        return face
