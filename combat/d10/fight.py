"""One ``apply`` call's working context: the state as it changes, the sheets read and
written, the events so far.

``apply`` is pure from the outside (a frozen state in, a new one out); inside, one intent
runs many small rule steps, and each needs the latest state and sheets. ``Fight`` holds them
for the length of one call and is thrown away after it.
"""

from __future__ import annotations

import random
from typing import Mapping

from . import damage as dmg

from .damage_tables import DEAD, INCAPACITATED, OK, TORPOR, UNCONSCIOUS, track_of
from . import scheduler as sch
from .attack_values import CONDITIONS, Side, WeaponState
from ..core.events import Event
from ..core.errors import IllegalAction, InputError
from ..core.maneuvers import tables
from ..core.memo import Memo
from ..core.pools import PoolSpec
from ..core.sheet import Sheet
from .state import CombatState
from ..core.values import replace
from .gear import Gear, Grip

# HLT-02..05 outcomes that take a combatant out of the turn (they keep their place in the
# fight and the log; the turn no longer waits for them).
OUT_OF_ACTION = frozenset({INCAPACITATED, UNCONSCIOUS, TORPOR, DEAD})
# HLT-03..05: the outcomes kept on the sheet after the fight (the next fight refuses them).
KEPT_ON_SHEET = frozenset({TORPOR, DEAD})


def roll_event(actor: str, purpose: str, spec: PoolSpec | None, roll, **extra) -> Event:
    """The ``roll`` event: every input of one roll, enough to recount it by hand."""
    mods = spec.modifiers if spec is not None else ()
    return Event("roll", {
        "actor": actor, "purpose": purpose,
        "traits": list(map(list, spec.terms)) if spec is not None else [],
        "pool": roll.pool,
        "modifiers": [m.as_dict() for m in mods] if mods else [],
        "difficulty": roll.difficulty, "faces": list(roll.faces), "specialty": roll.specialty,
        "willpower": roll.willpower, "successes": roll.successes, "botch": roll.botch,
        **extra,
    })


class Fight:
    def __init__(self, state: CombatState, sheets: Mapping[str, Sheet], rules,
                 rng: random.Random, by: str, memo: Memo | None = None):
        self.state = state
        # what this call reuses (combat/core/memo.py): the attack and soak plans
        self.memo = Memo() if memo is None else memo
        self.rules = rules
        self.rng = rng
        self.by = by
        self._sheets = sheets
        self.changed: dict[str, Sheet] = {}
        # Events as the rules emit them (``Event``s) and as the scheduler's steps give them
        # (dicts); ``apply`` hands them all out as ``Event``s (core/events.py ``events_of``).
        self.events: list[Event | dict] = []

    # ------------------------------------------------------------ state and events

    def run(self, step: sch.Step) -> None:
        self.state = step.state
        self.events.extend(step.events)

    def emit(self, event: str, /, **fields) -> None:
        self.events.append(Event(event, fields))  # ``fields`` is this call's own dict

    def name(self, key: str) -> str:
        c = self.state.get(key)
        return c.name if c else key

    def put(self, key: str, **changes) -> None:
        c = self.state.get(key)
        if c is not None:
            self.state = self.state.with_combatants({key: replace(c, **changes)})

    # ------------------------------------------------------------ sheets

    def sheet(self, key: str) -> Sheet:
        if key in self.changed:
            return self.changed[key]
        try:
            return self._sheets[key]
        except KeyError:
            raise IllegalAction(f"{self.name(key)} has no sheet here.") from None

    def put_sheet(self, key: str, sheet: Sheet) -> None:
        self.changed[key] = sheet

    def willpower_for_reflex(self, key: str, spend: bool) -> int:
        """TURN-08/10: a Willpower point taken now (``spend``) or the permanent rating to
        roll; returns the rating. Refused without one."""
        sheet = self.sheet(key)
        wp = sheet.pools.get("Willpower")
        if spend:
            if wp is None or wp.current < 1:
                raise IllegalAction(f"{self.name(key)} has no Willpower point to spend.")
            self.put_sheet(key, sheet.spend("Willpower", 1))
        rating = wp.permanent if wp else 0
        if not spend and rating < 1:
            raise IllegalAction(f"{self.name(key)} has no Willpower to roll.")
        return rating

    def tell_willpower_roll(self, key: str, step, event: str, rating: int) -> None:
        """The Willpower roll of an abort or a change, told before what it decided."""
        for ev in step.events:
            if ev.get("event") == event and ev.get("roll"):
                r = ev["roll"]
                self.emit("roll", actor=key, purpose=event, traits=[["Willpower", rating]],
                          pool=r["pool"], modifiers=[], difficulty=r["difficulty"],
                          faces=r["faces"], specialty=False, willpower=False,
                          successes=r["successes"], botch=r["botch"])

    def track(self, key: str):
        return track_of(self.sheet(key), self.rules)  # the levels built once per ruleset

    # ------------------------------------------------------------ range (RNG-05)

    def yards(self, a: str, b: str) -> int:
        start = tables(self.rules).movement["starting_range_yards"]
        return self.state.range_between(a, b, start)

    def set_yards(self, a: str, b: str, yards: int) -> None:
        self.state = self.state.with_range(a, b, yards)

    # ------------------------------------------------------------ gear

    def gear(self, key: str) -> Gear:
        c = self.state.get(key)
        return c.gear if c is not None else Gear()

    def set_gear(self, key: str, gear: Gear) -> None:
        self.put(key, gear=gear)

    def weapon_state(self, key: str, weapon: str | None) -> WeaponState | None:
        return self.gear(key).weapon(weapon)

    def armor_rating(self, key: str) -> int:
        """The rating of the armor ``key`` wears (0 without any)."""
        worn = self.sheet(key).armor
        return tables(self.rules).armor(worn).rating if worn else 0

    def in_hand(self, key: str, c=None) -> str | None:
        """The weapon ``key`` holds: the first carried one not knocked away (CLOSE-04).
        ``c``: ``key``'s combatant now, when the caller has it at hand."""
        weapons = self.sheet(key).weapons
        if not weapons:
            return None
        if c is None:
            c = self.state.get(key)
        if c is None or not c.gear.dropped:  # the common case, asked several times an attack
            return weapons[0]
        g = c.gear
        return next((w for w in weapons if not g.is_dropped(w)), None)

    def carries(self, key: str, weapon: str) -> None:
        """Refuse a weapon ``key`` does not carry, or one knocked out of their hand."""
        sheet = self.sheet(key)
        if weapon.lower() not in [w.lower() for w in sheet.weapons]:
            have = ", ".join(sheet.weapons) or "none"
            raise IllegalAction(f"{self.name(key)} carries no {weapon} (weapons: {have}). "
                                f"Equip it first: +sheet/equip {weapon}")
        if self.gear(key).is_dropped(weapon):
            raise IllegalAction(f"{self.name(key)}'s {weapon} was knocked away; pick it up "
                                f"first: +combat/declare ready {weapon}")

    def default_weapon(self, key: str, kinds=("firearm", "crossbow", "bow")) -> str:
        """The first carried, not dropped weapon of these kinds (reload, aim)."""
        t = tables(self.rules)
        g = self.gear(key)
        for name in self.sheet(key).weapons:
            try:
                w = t.weapon(name)
            except InputError:
                continue
            if w.kind in kinds and not g.is_dropped(name):
                return w.name
        raise IllegalAction(f"{self.name(key)} carries no {'/'.join(kinds)} weapon for that.")

    def side(self, key: str, weapon: str | None = None, moved: int = 0) -> Side:
        c = self.state.get(key)
        conds = frozenset(sch.active_conditions(c, self.state.turn)) & CONDITIONS
        return Side(conditions=conds, weapon=weapon or self.in_hand(key),
                    cover=c.gear.cover, moved_yards=moved)

    # ------------------------------------------------------------ conditions and outcomes

    def condition(self, key: str, name: str, *, turns: int | None = None) -> None:
        self.run(sch.add_condition(self.state, key, name, self.rules, turns=turns))

    def uncondition(self, key: str, name: str) -> None:
        c = self.state.get(key)
        if c is not None and any(k.name == name for k in c.conditions):
            self.run(sch.remove_condition(self.state, key, name, self.rules))

    def grapple(self, a_key: str, t_key: str, how: str) -> None:
        """CLOSE-03 clinch / CLOSE-05 hold: both are locked together until one escapes."""
        for me, other in ((a_key, t_key), (t_key, a_key)):
            held = how == "hold" and me == t_key  # COMP-03: the one held
            self.set_gear(me, replace(self.gear(me), grapple=Grip(other, how, held)))
            self.condition(me, "grappled")
        self.emit("grapple", actor=a_key, target=t_key, kind=how)

    def release(self, key: str, other: str | None) -> None:
        for k in (key, other):
            if k is None or self.state.get(k) is None:
                continue
            self.set_gear(k, replace(self.gear(k), grapple=None))
            self.uncondition(k, "grappled")

    def outcome_of(self, key: str, sheet: Sheet) -> str:
        """The target's state for damage.py (HLT-02..05): the kept outcome, else the track."""
        c = self.state.get(key)
        if c is not None and c.outcome and c.outcome != OK:
            return c.outcome
        return INCAPACITATED if dmg.is_incapacitated(sheet, self.rules) else OK

    def set_outcome(self, key: str, outcome: str) -> None:
        """Keep the outcome on the combatant; out of action (incapacitated, unconscious,
        torpor, dead) means the turn no longer waits for them."""
        c = self.state.get(key)
        if c is None or outcome in ("", "none") or outcome == c.outcome:
            return
        self.put(key, outcome=outcome)
        self.emit("outcome", actor=key, outcome=outcome, before=c.outcome or OK)
        if outcome in KEPT_ON_SHEET:
            sheet = self.sheet(key)
            if sheet.fate != outcome:
                self.put_sheet(key, replace(sheet, fate=outcome))
        if outcome in OUT_OF_ACTION and not any(k.name == "incapacitated"
                                                for k in c.conditions):
            self.condition(key, "incapacitated")
        grip = self.gear(key).grapple
        if grip and outcome in OUT_OF_ACTION:
            self.release(key, grip.other)
