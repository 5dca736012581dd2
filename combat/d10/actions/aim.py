"""aim (RNG-01): a whole turn of nothing but aiming at one target with one gun or bow; each
turn adds a die to the next shot at that target (the attack layer caps it at Perception and
checks the weapon and the target's speed: ``ranged.aim_turns``, ``attack.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ...core.maneuvers import tables
from ...core.values import replace
from ..fight import Fight
from ..gear import Aim as Aimed


@dataclass(frozen=True, slots=True)
class Aim:
    kinds: tuple[str, ...] = ("aim",)
    reads: tuple[str, ...] = ("the target", "guns and bows carried", "the aiming table "
                              "(ranged.aiming)", "the skill it asks", "the aim kept so far")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        f.state.find(a["target"])
        a["weapon"] = a.get("weapon") or f.default_weapon(key)
        f.carries(key, a["weapon"])
        if len(declared) > 1:
            raise IllegalAction("Aiming is a whole turn of doing nothing but aiming: declare "
                                "aim alone, and shoot next turn.")
        _check_weapon(f, key, a)

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        old = f.gear(key).aim
        same = old is not None and old.target == a["target"] and old.weapon == a["weapon"]
        turns = (old.turns if same else 0) + 1
        f.set_gear(key, replace(f.gear(key), aim=Aimed(a["target"], a["weapon"], turns,
                                                       f.state.turn)))
        f.emit("aim", actor=key, target=a["target"], weapon=a["weapon"], turns=turns)


def _check_weapon(f: Fight, key: str, a: dict) -> None:
    """RNG-01: guns and bows only, not shotguns or SMGs, with the skill the table asks."""
    t = tables(f.rules)
    aim = t.ranged.get("aiming") or {}
    w = t.weapon(a["weapon"])
    need = (aim.get("requires") or {}).get(w.kind)
    if need is None:
        raise IllegalAction(f"Only guns and bows can be aimed, not the {w.name}.")
    if w.cls in aim.get("forbidden_classes", ()):
        raise IllegalAction(f"A {w.cls} cannot be aimed: fire it instead.")
    sheet = f.sheet(key)
    if need and not any(sheet.rating(f.rules.traits, tr) >= n for tr, n in need.items()):
        text = " or ".join(f"{tr} {n}+" for tr, n in need.items())
        raise IllegalAction(f"Aiming the {w.name} needs {text}.")
