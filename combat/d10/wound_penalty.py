"""HLT-06 / HLT-08, wound penalties: the dice a roll of each kind loses to the health track
(``damage.wounds``: which kinds, which families count only some damage types), the
Willpower that ignores them for a turn, and paying such costs from a sheet's pools. An
incapacitated character cannot act.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ..core.errors import IllegalAction, InputError
from ..core.health import DAMAGE_TYPES, HealthTrack
from ..core.pools import Modifier
from ..core.sheet import Pool, Sheet
from ..core.values import replace

from .damage_tables import ROLL_KINDS, family_of, require_section, track_of


def _wound_track(sheet: Sheet, ruleset) -> HealthTrack:
    track = track_of(sheet, ruleset)
    only = (require_section(ruleset, "damage").get("wounds") or {}).get("count_only") or {}
    kinds = only.get(sheet.splat, only.get(family_of(sheet, ruleset)))
    if kinds is None:
        return track
    # revised (The Risen p. 50): some splats count only some marks for penalties.
    return replace(track, **{t: (getattr(track, t) if t in kinds else 0) for t in DAMAGE_TYPES})


def wound_modifier(
    sheet: Sheet, ruleset, kind_of_roll: str, ignore_wounds: bool = False
) -> Modifier | None:
    """HLT-06: the wound penalty for a roll of ``kind_of_roll`` (one of ROLL_KINDS), or None.

    Wounds cost dice on action pools only: never reflexes, soak or damage (seed 000, Wound
    penalties), and Arete only once the mage is incapacitated (M20). HLT-08: ``ignore_wounds``
    (a Willpower spent this turn, see ``spend_to_ignore_wounds``) drops the penalty.
    An incapacitated character cannot act: asking for an action's modifier raises
    IllegalAction, since there is no number of dice that makes it legal.
    """
    if kind_of_roll not in ROLL_KINDS:
        raise InputError(
            f"'{kind_of_roll}' is not a kind of roll: use one of {', '.join(ROLL_KINDS)}."
        )
    return _wound_modifier(sheet, ruleset, kind_of_roll, ignore_wounds)


def _wound_modifier(sheet: Sheet, ruleset, kind_of_roll: str, ignore_wounds: bool):
    sec = require_section(ruleset, "damage")["wounds"]
    applies = kind_of_roll in sec["applies_to"]
    exempt = kind_of_roll in sec["exempt_unless_incapacitated"]
    if not applies and not exempt:
        return None
    track = _wound_track(sheet, ruleset)
    if track.incapacitated:
        raise IllegalAction(
            f"Incapacitated: no {kind_of_roll} roll is possible"
            + (
                "; Willpower cannot ignore wounds past Incapacitated (HLT-08)."
                if ignore_wounds
                else "."
            )
        )
    if exempt and not applies:
        return None
    if ignore_wounds or not track.penalty:
        return None
    return Modifier(f"wounds ({track.level_name})", dice=track.penalty)


def spend_to_ignore_wounds(sheet: Sheet, ruleset) -> Sheet:
    """HLT-08: spend a Willpower to ignore wound penalties for one turn (not incapacitated)."""
    sec = require_section(ruleset, "damage")["wounds"]
    if _wound_track(sheet, ruleset).incapacitated and not sec["ignore_when_incapacitated"]:
        raise IllegalAction("Willpower cannot ignore wounds once you are Incapacitated (HLT-08).")
    return pay_costs(sheet, sec["ignore_cost"], "ignore wound penalties")


def pay_costs(sheet: Sheet, cost: Mapping[str, int], why: str) -> Sheet:
    """Spend every pool in ``cost`` or refuse with what is missing (nothing half-spent)."""
    pools = dict(sheet.pools)
    for name, n in cost.items():
        if not n:
            continue
        p = pools.get(name)
        if p is None:
            # A sheet whose splat was set under other rules (a spotlight vampire has Blood
            # Potency and Hunger, no Blood) is told how to give it the pool.
            raise IllegalAction(f"A {sheet.splat} has no {name} to {why}: this sheet has no "
                                f"{name} pool (+sheet/set {name.lower()}=<n> gives it one).")
        if p.current < n:
            raise IllegalAction(f"Not enough {name} to {why}: it takes {n}, you have {p.current}.")
        pools[name] = Pool(p.current - n, p.permanent)
    return replace(sheet, pools=MappingProxyType(pools))
