"""The game's dice source against the OS's (issue 13): microseconds per d10 face.

    .venv/bin/python bench/dice.py
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wodcombat.world.dice_source import GameDice  # noqa: E402

N = 200_000


def per_face(rng) -> float:
    start = time.perf_counter()
    for _ in range(N):
        rng.randint(1, 10)
    return (time.perf_counter() - start) / N * 1e6


if __name__ == "__main__":
    system, game = per_face(random.SystemRandom()), per_face(GameDice())
    print(f"SystemRandom  {system:6.3f} us per d10")
    print(f"GameDice      {game:6.3f} us per d10  ({system / game:.1f}x faster)")
