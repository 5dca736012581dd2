"""Exact dice for tests: a stand-in for random.Random that returns queued faces."""

import random


class FixedDice(random.Random):
    def __init__(self, *faces: int):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        if not self.faces:
            raise AssertionError("the test ran out of queued dice faces")
        face = self.faces.pop(0)
        assert a <= face <= b, f"face {face} outside {a}..{b}"
        return face
