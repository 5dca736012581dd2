"""prepare (RNG-06: arrows set ready for later shots, each shot from them needs no nocking
and is free of the rate of fire) and repair (ATK-07: a snapped bowstring; a spare string and
an action, Wits + Archery or Wits + Crafts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...core.errors import IllegalAction
from ...core.maneuvers import tables
from ...core.values import replace
from ..attack_values import WeaponState
from ..weapon_ready import ready_weapon
from ..fight import Fight, roll_event
from ..ranged import state_of


@dataclass(frozen=True, slots=True)
class Prepare:
    kinds: tuple[str, ...] = ("prepare", "repair")
    reads: tuple[str, ...] = ("bows carried", "the bow's string and spare strings",
                              "the arrows prepared", "Wits, Archery, Crafts (the repair roll)")

    def check(self, f: Fight, key: str, a: dict, declared: Sequence[dict]) -> None:
        a["weapon"] = a.get("weapon") or f.default_weapon(key, ("bow",))
        f.carries(key, a["weapon"])
        w = tables(f.rules).weapon(a["weapon"])
        if w.kind != "bow":
            raise IllegalAction(f"Only a bow's arrows are prepared or its string "
                                f"repaired; the {w.name} is not a bow.")
        if a["kind"] != "repair":
            return
        st = state_of(f, key, w)
        if st.string_ok:
            raise IllegalAction(f"The {w.name}'s string is whole; nothing to repair.")
        if w.spare_strings <= st.strings_used:
            raise IllegalAction(f"Repairing the {w.name} takes a spare bowstring, and "
                                f"{f.name(key)} has none left.")

    def resolve(self, f: Fight, key: str, a: dict, mods) -> None:
        name = a["weapon"]
        w = tables(f.rules).weapon(name)
        st = f.weapon_state(key, name) or WeaponState.fresh(w)
        spares = w.spare_strings - st.strings_used
        res = ready_weapon(f.rules, f.sheet(key), name, st, a["kind"],
                           arrows=a.get("arrows", 0), spare_string=spares > 0, rng=f.rng)
        new = res.state
        if a["kind"] == "repair":
            new = replace(new, strings_used=st.strings_used + 1)  # used up, success or not
            if res.roll is not None:
                f.events.append(roll_event(key, "repair", res.pool, res.roll))
        f.set_gear(key, f.gear(key).with_weapon(new))
        if a["kind"] == "prepare":
            note = f"{new.prepared_arrows} arrow(s) ready"
        else:
            note = ("the string is mended" if res.success else "the repair fails") + \
                f"; {max(0, spares - 1)} spare string(s) left"
        f.emit("weapon", actor=key, action=a["kind"], weapon=name, state=new.as_dict(),
               note=note)
