"""Getting a weapon ready: ATK-07 nocking and a snapped bowstring's repair, ATK-08 crossbow
reloads, RNG-05 reloading a gun, RNG-06 arrows set ready, RNG-09 two weapons without the
multiple-action penalty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.dice import Roll
from ..core.errors import IllegalAction, InputError
from ..core.maneuvers import Weapon, tables
from ..core.pools import Modifier, PoolSpec
from ..core.values import replace
from .attack_mods import _rating, _roll, _roll_terms, _waived, _wounds
from .attack_values import WeaponState


@dataclass(frozen=True, slots=True)
class ReadyResult:
    """A weapon-readying action (nock, reload, prepare arrows, repair a bowstring)."""

    action: str
    state: WeaponState
    success: bool
    roll: Roll | None  # None: an action without a roll, automatically successful (DICE-08)
    pool: PoolSpec | None
    actions_used: int
    note: str = ""


def crossbow_reload_actions(ruleset, sheet) -> int:
    """ATK-08: two actions to reload (one with a crossbow specialty; revised: Archery 4+)."""
    cb = tables(ruleset).attacks["crossbow"]
    if _waived(ruleset, sheet, cb.get("fast_reload_by")):
        return cb["fast_reload_actions"]
    return cb["reload_actions"]


def ready_weapon(ruleset, sheet, weapon: str, state: WeaponState | None, action: str, *,
                 arrows: int = 0, spare_string: bool = False, ability: str | None = None,
                 faces=None, rng: random.Random | None = None) -> ReadyResult:
    """RNG-06 reloading, ATK-07 nocking and string repair, ATK-08 crossbow reloading. Each is
    one action; those without a roll succeed automatically (DICE-08)."""
    t = tables(ruleset)
    w = t.weapon(weapon)
    st = state or WeaponState.fresh(w)
    if action == "nock":
        if w.kind != "bow":
            raise IllegalAction(f"Only a bow is nocked; the {w.name} is a {w.kind}.")
        if not st.string_ok:
            raise IllegalAction("The bowstring is snapped: repair it first.")
        return ReadyResult(action, replace(st, nocked=True), True, None, None, 1)
    if action == "prepare":
        if w.kind != "bow":
            raise IllegalAction("Only arrows can be set ready beforehand.")
        if arrows < 1:
            raise InputError("Say how many arrows to set ready, e.g. 5.")
        return ReadyResult(action, replace(st, prepared_arrows=st.prepared_arrows + arrows),
                           True, None, None, 1, "shots from prepared arrows need no nocking")
    if action == "reload":
        return _reload(ruleset, sheet, w, st)
    if action == "repair":
        return _repair(ruleset, sheet, w, st, spare_string, ability, faces, rng)
    raise InputError(f"'{action}' is not a weapon action. Use nock, prepare, reload or repair.")


def _reload(ruleset, sheet, w: Weapon, st: WeaponState) -> ReadyResult:
    """RNG-05 a gun's clip in one action; ATK-08 a crossbow's reload actions, counted."""
    if w.kind == "firearm":
        return ReadyResult("reload", replace(st, ammo=w.clip), True, None, None, 1)
    if w.kind == "crossbow":
        need = crossbow_reload_actions(ruleset, sheet)
        if st.ammo:
            raise IllegalAction(f"The {w.name} is already loaded.")
        done = st.reload_progress + 1
        if done >= need:
            return ReadyResult("reload", replace(st, ammo=w.clip or 1, reload_progress=0),
                               True, None, None, 1, "loaded")
        return ReadyResult("reload", replace(st, reload_progress=done), True, None, None, 1,
                           f"{done} of {need} reload actions done")
    raise IllegalAction(f"The {w.name} is not reloaded; guns and crossbows are.")


def _repair(ruleset, sheet, w: Weapon, st: WeaponState, spare_string: bool,
            ability: str | None, faces, rng) -> ReadyResult:
    """ATK-07: a snapped bowstring's repair: a spare string, and the best of the ruleset's
    repair rolls (or none)."""
    bow = tables(ruleset).attacks["bow"]
    if w.kind != "bow" or st.string_ok:
        raise IllegalAction("Only a bow with a snapped string needs this repair.")
    if bow["repair_needs_spare_string"] and not spare_string:
        raise IllegalAction("Repairing the string needs a spare bowstring.")
    rows = bow.get("repair_rolls") or ()
    if not rows:
        return ReadyResult("repair", replace(st, string_ok=True), True, None, None, 1)
    best = None
    for row in rows:
        if ability and ruleset.traits.resolve(ability) != row["ability"]:
            continue
        score = _rating(ruleset, sheet, row["ability"])
        if best is None or score > best[0]:
            best = (score, row)
    if best is None:
        raise IllegalAction("Repair rolls Wits + " + " or ".join(r["ability"] for r in rows))
    row = best[1]
    terms, mods, _ = _roll_terms(ruleset, sheet, row, row["attribute"], None, "Repair", False)
    mods.append(Modifier(f"{row['ability']} for the repair", difficulty=row["difficulty"]))
    mods.append(_wounds(ruleset, sheet, False))
    pool = PoolSpec(terms, (), ruleset.dice.base_difficulty).plus(*[x for x in mods if x])
    roll = _roll(faces, rng, pool.dice, pool.difficulty, ruleset.dice)
    ok = roll.successes > 0
    return ReadyResult("repair", replace(st, string_ok=ok), ok, roll, pool, 1)


def two_weapons_no_multi_penalty(ruleset, sheet, other_actions: int) -> bool:
    """RNG-09: Ambidextrous 2 and no other action that turn: the scheduler skips the
    multiple-action penalty for the two weapon attacks."""
    tw = tables(ruleset).ranged["two_weapons"]
    return other_actions == 0 and _waived(ruleset, sheet, tw.get("no_multiple_action_penalty_by"))
