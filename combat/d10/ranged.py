"""Ranged rules decided around the attacks of a turn (seed 000 "Ranged maneuvers", seed 001
the same for revised): what a declaration may ask of a weapon, and what a shot takes from
the turns before it (the aim, the load, the hand it is fired from).

* RNG-01 only aims of earlier turns count (aiming itself: ``actions/aim.py``).
* RNG-04 shots a turn: never above the weapon's rate of fire (multiple-action penalties
  apply as usual: the scheduler's).
* RNG-06 prepared arrows: shots from them need no nocking and are not held to the rate.
* ATK-07 / ATK-08: a bow's arrow (nocked, prepared, or a waiver) and a crossbow's bolt must
  be ready for each shot, counting the nock and reload actions declared before it; a snapped
  string must be repaired (a spare string and an action).
* RNG-07 strafing several targets with one roll (fired in ``strike.py``, with the single
  attack's steps).
* RNG-09 two weapons: the off hand, and Ambidextrous 2 waiving the multiple-action penalty.

Checked when declared, so an impossible turn is refused before anything is spent; what
changes later (a range, a weapon knocked away) loses the action when acted, never stalls it.
Each action kind's own checks and its resolution live in ``actions/`` (reload, nock, prepare,
repair, aim, attack); this module holds what spans the turn (the readiness walk) and what
an attack reads (strafe, off hand, aim turns, the load).
"""

from __future__ import annotations

from .damage_tables import DEAD
from .attack_mods import _waived
from .attack_values import WeaponState
from .weapon_ready import crossbow_reload_actions, two_weapons_no_multi_penalty
from ..core.errors import IllegalAction
from ..core.maneuvers import Weapon, tables
from ..core.pools import Modifier
from ..core.values import replace
from .fight import Fight

SHOOTING = ("firearm", "bow", "crossbow")
READYING = ("nock", "reload", "prepare", "repair")  # actions that ready a weapon to shoot


# ---------------------------------------------------------------- declaring


def shot_weapon(f: Fight, key: str, a: dict) -> Weapon | None:
    """The ranged weapon an attack action fires, or None (a punch, a pistol-whip)."""
    if a.get("kind") != "attack":
        return None
    t = tables(f.rules)
    name = a.get("weapon") or (None if a.get("maneuver") else f.in_hand(key))
    if not name:
        return None
    w = t.known_weapon(name)
    if w is None or w.kind not in SHOOTING:
        return None
    if a.get("maneuver") and t.maneuver(a["maneuver"]).kind != "weapon":
        return None  # CLOSE-06 jab: the gun as a club
    return w


def state_of(f: Fight, key: str, w: Weapon) -> WeaponState:
    """What ``key``'s ``w`` holds now (loaded, nocked, its string), fresh if never used."""
    return f.weapon_state(key, w.name) or WeaponState.fresh(w)


def check_readiness(f: Fight, key: str, actions: list[dict]) -> None:
    """RNG-04, RNG-06, ATK-07, ATK-08: walk the declared actions in order, as the weapon
    would go through them, and refuse the first shot it could not fire (after each action's
    own checks)."""
    shots = [shot_weapon(f, key, a) if a["kind"] == "attack" else None for a in actions]
    if not any(a["kind"] in READYING for a in actions) and not any(shots):
        return  # a punch or a knife (most of a brawl) has no weapon to ready
    t = tables(f.rules)
    states: dict[str, WeaponState] = {}
    rated: dict[str, int] = {}  # shots held to the rate of fire, per weapon
    steps = zip(actions, shots)
    # in the order they will be acted: normal actions first, extra ones last (MAN-06)
    if any(a.get("extra") for a in actions):
        steps = sorted(steps, key=lambda s: bool(s[0].get("extra")))
    for a, w in steps:
        name = a.get("weapon")
        if a["kind"] in READYING and name:
            w = t.weapon(name)
            states[w.name] = _readied(f, key, a, w, states)
            continue
        if w is None:
            continue
        st, free = _fired(f, key, a, w, states.get(w.name) or state_of(f, key, w))
        states[w.name] = st
        if not free:
            rated[w.name] = rated.get(w.name, 0) + 1
            if rated[w.name] > max(1, w.rate):  # RNG-04
                raise IllegalAction(f"The {w.name} fires at most {w.rate} shot(s) a turn (its "
                                    f"rate of fire); you declared {rated[w.name]}.")


def _readied(f: Fight, key: str, a: dict, w: Weapon, states: dict) -> WeaponState:
    """The state of ``w`` after a declared nock, reload, prepare or repair (ATK-07/08,
    RNG-06), or IllegalAction when that action does not fit it."""
    if a["kind"] == "nock" and w.kind != "bow":
        raise IllegalAction(f"Only a bow is nocked; the {w.name} is not a bow.")
    if a["kind"] == "reload" and w.kind not in ("firearm", "crossbow"):
        raise IllegalAction(f"Guns and crossbows are reloaded, not the {w.name} "
                            f"(a bow: nock, or prepare arrows).")
    st = states.get(w.name) or state_of(f, key, w)
    if a["kind"] == "nock":
        if not st.string_ok:
            raise IllegalAction(f"The {w.name}'s string is snapped: repair it first "
                                f"(repair; it takes a spare string and an action).")
        return replace(st, nocked=True)
    if a["kind"] == "prepare":
        return replace(st, prepared_arrows=st.prepared_arrows + a.get("arrows", 1))
    if a["kind"] == "repair":
        return replace(st, string_ok=True)
    if w.kind == "firearm":
        return replace(st, ammo=w.clip)
    if w.kind == "crossbow":
        if st.ammo:
            raise IllegalAction(f"The {w.name} is already loaded; shoot it first.")
        done = st.reload_progress + 1
        need = crossbow_reload_actions(f.rules, f.sheet(key))
        return replace(st, ammo=w.clip or 1, reload_progress=0) if done >= need else \
            replace(st, reload_progress=done)
    return st


def _fired(f: Fight, key: str, a: dict, w: Weapon, st: WeaponState) -> tuple[WeaponState, bool]:
    """(the state of ``w`` after the declared shot ``a``, whether the shot is free of the
    rate of fire: RNG-06 a prepared arrow), or IllegalAction when it could not be fired:
    ATK-07 a bow unstrung or not nocked, ATK-08 a crossbow not loaded, a gun short of the
    rounds its maneuver needs."""
    t = tables(f.rules)
    if w.kind == "bow":
        if not st.string_ok:
            raise IllegalAction(f"The {w.name}'s string is snapped: repair it first "
                                f"(repair; it takes a spare string and an action).")
        if st.nocked:
            return replace(st, nocked=False), False
        if st.prepared_arrows:
            return replace(st, prepared_arrows=st.prepared_arrows - 1), True
        if not _nock_waived(f, key, t.attacks.get("bow") or {}):
            raise IllegalAction(f"Nock an arrow before each shot of the {w.name}: declare "
                                f"nock first (an action), or prepare arrows beforehand.")
        return st, False
    if w.kind == "crossbow":
        if not st.ammo:
            need = crossbow_reload_actions(f.rules, f.sheet(key))
            raise IllegalAction(f"The {w.name} is not loaded: reloading takes {need} "
                                f"action(s); declare them before the shot (reload).")
        return replace(st, ammo=st.ammo - 1), False
    if w.kind == "firearm" and st.ammo is not None:
        m = t.maneuver(a.get("maneuver") or
                       (t.attacks.get("default_maneuver") or {}).get("firearm", "shoot"))
        need = max(1, m.rounds or 1)
        if m.empties_clip:
            need = max(1, -(-w.clip * m.min_clip_percent // 100))
        if st.ammo < need:
            raise IllegalAction(f"The {w.name} has {st.ammo} round(s) left; a "
                                f"{m.name.replace('_', ' ')} needs {need}. Reload first "
                                f"(an action).")
        return replace(st, ammo=0 if m.empties_clip else st.ammo - need), False
    return st, False


def _nock_waived(f: Fight, key: str, bow: dict) -> bool:
    """ATK-07: the house-rule waiver (numetal an Archery specialty, revised Archery 4+)."""
    return _waived(f.rules, f.sheet(key), bow.get("nock_waived_by"))


def check_strafe(f: Fight, key: str, a: dict) -> None:
    """RNG-07: only a strafe has several targets, each someone else in the fight."""
    t = tables(f.rules)
    m = t.maneuver(a.get("maneuver") or "attack") if a.get("maneuver") else None
    if m is None or not m.max_spread_yards:
        raise IllegalAction("Only a strafe attacks several targets at once: attack <a> and "
                            "<b> with <gun> as strafe.")
    for k in a["targets"]:
        c = f.state.find(k)
        if k == key:
            raise IllegalAction("You cannot strafe yourself.")
        if c.outcome == DEAD:
            raise IllegalAction(f"{c.name} is dead already.")
    spread = spread_yards(f, a["targets"])
    if spread > m.max_spread_yards:
        raise IllegalAction(f"Strafed targets must be within {m.max_spread_yards} yards of "
                            f"each other; these are {spread} apart.")


def spread_yards(f: Fight, keys) -> int:
    keys = [k for k in keys if f.state.get(k) is not None]
    return max((f.yards(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]), default=0)


def check_off_hand(f: Fight, key: str, a: dict, actions: list[dict]) -> None:
    """RNG-09: the off hand fires or strikes with a second weapon, not the main one."""
    if not a.get("weapon"):
        raise IllegalAction("Name the off-hand weapon: attack <target> with <weapon> off hand.")
    t = tables(f.rules)
    w = t.weapon(a["weapon"])
    if w.two_handed:
        raise IllegalAction(f"The {w.name} needs both hands; it cannot be an off-hand weapon.")
    main = main_hand(f, key, a, actions)
    if main is None:
        raise IllegalAction(f"The off hand is the second weapon: {f.name(key)} needs another "
                            f"weapon in the main hand.")
    if t.weapon(main).two_handed:
        raise IllegalAction(f"Both of {f.name(key)}'s hands are on the {main}.")


def main_hand(f: Fight, key: str, a: dict, actions) -> str | None:
    """The main-hand weapon beside an off-hand attack: another declared attack's weapon,
    else the first carried weapon other than the off-hand one."""
    off = a["weapon"].lower()
    for b in actions:
        if b is not a and b.get("kind") == "attack" and not b.get("off_hand") and \
                b.get("weapon") and b["weapon"].lower() != off:
            return b["weapon"]
    g = f.gear(key)
    return next((w for w in f.sheet(key).weapons
                 if w.lower() != off and not g.is_dropped(w)), None)


# ---------------------------------------------------------------- attacking


def loaded(f: Fight, key: str, weapon: str | None) -> str:
    """CLOSE-06: the ammunition kind in the gun (standard until reloaded with another)."""
    ws = f.weapon_state(key, weapon)
    return ws.load if ws is not None else "standard"


def aim_turns(f: Fight, key: str, tkey: str, weapon: str | None) -> int:
    """RNG-01: turns spent aiming at this target with this weapon, in earlier turns only."""
    aim = f.gear(key).aim
    if aim and aim.target == tkey and aim.weapon == weapon and aim.turn < f.state.turn:
        return aim.turns
    return 0


def hands(f: Fight, key: str, action: dict, mods: list[Modifier]) -> tuple[list, str | None]:
    """RNG-09: (the action's modifiers, the main-hand weapon) for an off-hand attack.
    Ambidextrous 2 and nothing but the two weapon attacks this turn: no multiple-action
    penalty on either."""
    c = f.state.get(key)
    attacks = [a for a in c.actions if a.get("kind") == "attack"]
    main = main_hand(f, key, action, c.actions) if action.get("off_hand") else None
    two = len(attacks) == 2 and len(c.actions) == 2 and any(a.get("off_hand") for a in attacks)
    if two and two_weapons_no_multi_penalty(f.rules, f.sheet(key), 0):
        kept = [m for m in mods if not m.reason.startswith("multiple actions")]
        if len(kept) < len(mods):
            f.emit("two_weapons", actor=key)
        mods = kept
    return mods, main
