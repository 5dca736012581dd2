"""attack: one target, or several in a strafe (RNG-07); with a weapon, a maneuver (CLOSE-*,
RNG-08), the off hand (RNG-09), moving while attacking (MAN-04).

Checked when declared as far as the sheet and the fight decide it then; the rest (the range
after everyone has moved) when acted (``foresee.impossible``). Resolved by ``strike.py``: the
roll, the defense, damage and every consequence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ...core.maneuvers import movement_yards, tables
from .. import close, ranged, wound_movement
from ..fight import Fight
from ..strike import attack, strafe
from .base import earlier, wounded_move


@dataclass(frozen=True, slots=True)
class Attack:
    kinds: tuple[str, ...] = ("attack",)
    reads: tuple[str, ...] = (
        "the target (in the fight, alive)", "weapons carried, in hand, knocked away",
        "run yards and wounds (MAN-04, HLT-07)", "the maneuver and weapon tables",
        "the grapple and last turn's tackle (CLOSE-01..05)", "yards between strafed targets")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        t = f.state.find(a["target"])
        if t.key == key:
            raise IllegalAction("You cannot attack yourself.")
        if t.outcome == "dead":
            raise IllegalAction(f"{t.name} is dead already.")
        if a.get("weapon"):
            f.carries(key, a["weapon"])
        if a.get("moving"):
            _moving(f, key, a["moving"])
        if a.get("targets"):
            ranged.check_strafe(f, key, a)  # RNG-07
        if a.get("off_hand"):
            ranged.check_off_hand(f, key, a, declared)  # RNG-09
        _check_burst(f, key, a)
        close.check_attack(f, key, a, earlier(declared, a))  # CLOSE-01..05, CLOSE-10

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        if a.get("targets"):
            strafe(f, key, a, mods)  # RNG-07 several targets
        else:
            attack(f, key, a, mods)


def _moving(f: Fight, key: str, yards: int) -> None:
    """MAN-04: up to half the run while attacking."""
    wa = tables(f.rules).movement["while_acting"]
    run = movement_yards(f.rules, f.sheet(key), "run")
    limit = run * wa["max_percent_of_run"] // 100
    if yards > limit:
        raise IllegalAction(
            f"{f.name(key)} can move at most {limit} yards while attacking (half a "
            f"run of {run}); to go {yards} yards, declare move {yards} "
            f"as its own action.")
    wounded_move(f, key, yards, wound_movement.ACTING)


def _check_burst(f: Fight, key: str, a: dict) -> None:
    """RNG-08: a burst or a spray needs the weapon's burst setting and rate of fire; an
    unknown maneuver is refused by name."""
    if not a.get("maneuver"):
        return
    t = tables(f.rules)
    w = ranged.shot_weapon(f, key, a)
    if w is None:
        t.maneuver(a["maneuver"])
        return
    m = t.maneuver(a["maneuver"])
    if not m.min_rate:
        return
    if w.burst is False:
        raise IllegalAction(f"The {w.name} has no burst setting. Fire single shots.")
    if w.rate < m.min_rate:
        raise IllegalAction(f"A {m.name} needs a rate of fire of {m.min_rate}+; the "
                            f"{w.name}'s is {w.rate}. Fire single shots instead.")
