"""reload (RNG-06 a gun, ATK-08 a crossbow: one of the actions it takes) and nock (ATK-07 an
arrow on a bow): one action each. A gun may be loaded with a kind of round (CLOSE-06)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction, InputError
from ...core.maneuvers import tables
from ...core.values import replace
from ..weapon_ready import ready_weapon
from ..fight import Fight


@dataclass(frozen=True, slots=True)
class Reload:
    kinds: tuple[str, ...] = ("reload", "nock")
    reads: tuple[str, ...] = ("weapons carried", "the weapon's load, clip and string",
                              "the ammunition table (CLOSE-06)", "the crossbow's reload actions")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        # whether the weapon takes this action, and its state after it: ranged.check_readiness
        kinds = ("firearm", "crossbow") if a["kind"] == "reload" else ("bow",)
        a["weapon"] = a.get("weapon") or f.default_weapon(key, kinds)
        f.carries(key, a["weapon"])
        if a["kind"] == "reload" and a.get("ammo"):
            _check_ammo(f, a)

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        name = a["weapon"]
        res = ready_weapon(f.rules, f.sheet(key), name, f.weapon_state(key, name), a["kind"],
                           rng=f.rng)
        st, note = res.state, res.note
        if a.get("ammo"):  # CLOSE-06: loaded with rubber, silver ... rounds
            st, note = replace(st, load=a["ammo"]), f"{a['ammo']} rounds"
        f.set_gear(key, f.gear(key).with_weapon(st))
        f.emit("weapon", actor=key, action=a["kind"], weapon=name, state=st.as_dict(),
               note=note)


def _check_ammo(f: Fight, a: dict) -> None:
    """CLOSE-06: a gun loaded with an ammunition kind its row takes (weapons.ammo)."""
    t = tables(f.rules)
    w = t.weapon(a["weapon"])
    if a["ammo"] not in t.ammo:
        raise InputError(f"'{a['ammo']}' is not a kind of ammunition here. Known: "
                         f"{', '.join(t.ammo)}.")
    if w.kind != "firearm" or (w.ammo and a["ammo"] not in w.ammo):
        takes = ", ".join(w.ammo) if w.kind == "firearm" and w.ammo else "no special rounds"
        raise IllegalAction(f"The {w.name} takes {takes}, not {a['ammo']}.")
