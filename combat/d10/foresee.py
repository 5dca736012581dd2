"""Declared attacks checked when declared (TURN-02, defect: declarations checked only at act).

What the sheet and the fight decide already at declaration (natural weapons the character
lacks, a maneuver the weapon cannot make, a specialty not on the sheet, a gun without the
rounds) is refused then, before anything is spent (Rage, blood), so the turn never stalls on
an action that could never be made. What only the moment of acting decides (the range after
everyone has moved) is left to that moment, where an impossible attack loses the action or,
where the ruleset allows it, changes to a related one (TURN-10).
"""

from __future__ import annotations

from .attack_resolve import build_attack_pool
from .attack_values import Attack
from ..core.errors import IllegalAction
from . import close
from .fight import Fight

# actions of one's own that change what a later attack in the same declaration can do
PREPARES = frozenset({"move", "reload", "nock", "ready", "escape", "rise", "aim"})


def check_attacks(f: Fight, key: str, actions: list[dict]) -> None:
    """The first attack of a declaration, as things stand; a later one may depend on what
    the earlier ones do (a bite after a clinch: close.check_declared judges those)."""
    for a in actions:
        kind = a["kind"]
        if kind in PREPARES:
            return  # what follows depends on it: judged when acted
        if kind == "attack":
            probe(f, key, a)
            return


def probe(f: Fight, key: str, a: dict) -> None:
    weapon = _weapon(f, key, a)
    gear = f.gear(key)
    if gear.is_dropped(weapon):
        return  # "ready" it first; told when acting
    try:
        _pool(f, key, a, weapon, 0, gear, counted=False)
    except IllegalAction as why:
        raise IllegalAction(f"{f.name(key)} cannot declare that attack: {why}") from None


def attack_pool(f: Fight, key: str, a: dict):
    """The declared attack's pool as things stand, before the turn's own penalties (None:
    its weapon was knocked away, so "ready" comes first)."""
    weapon = _weapon(f, key, a)
    gear = f.gear(key)
    if gear.is_dropped(weapon):
        return None  # "ready" it first; told when acting
    return _pool(f, key, a, weapon, 0, gear)  # where everyone stands is decided when acting


def _weapon(f: Fight, key: str, a: dict) -> str | None:
    return a.get("weapon") or (None if a.get("maneuver") else f.in_hand(key))


def _pool(f: Fight, key: str, a: dict, weapon: str | None, yards: int, gear=None,
          counted: bool = True):
    """The declared attack ``a`` built as the attack layer would, ``yards`` apart
    (``gear``: the attacker's, when the caller has it at hand). Not ``counted``: each side
    taken as engaged by one foe, for a caller that asks only whether the attack can be made.
    CLOSE-08's count of the foes engaging a side only adds difficulty (attack_mods.py
    ``_outnumbered``: a modifier, never a refusal; tests/engine/test_foresee.py holds the
    check to the counted pool), and counting reads the declarations on both sides, on
    every declaration made."""
    tkey = a["target"]
    intent = _attack(f, key, tkey, a, weapon)
    if gear is None:
        gear = f.gear(key)
    grip = gear.grapple
    ctx = close.context(f, key, tkey, weapon,  # a tackle last turn, a riposte ...
                        range_yards=yards, foes=None if counted else {key: 1, tkey: 1},
                        grapple=grip.kind if grip and grip.other == tkey else "",
                        weapon_state=gear.weapon(weapon))
    return build_attack_pool(f.rules, f.sheet(key), f.sheet(tkey), intent, ctx, memo=f.memo)


def _attack(f: Fight, key: str, tkey: str, a: dict, weapon: str | None) -> Attack:
    """The declared attack as the attack layer's ``Attack``: one value, so one object per
    run, kept in the memo's ``made`` as the act's (strike.py ``_attack``); each declaration
    asks for it again."""
    # the key: every argument of the Attack ``_made`` builds (one left out hands out a stale one)
    fields = (Attack, key, tkey, a.get("maneuver") or "attack", weapon, a.get("location"),
              a.get("position") or "front", a.get("ability"), bool(a.get("specialty")))
    try:
        made = f.memo.made.get(fields)
    except TypeError:  # a field that is no name: made afresh (the attack layer refuses it)
        return _made(fields)
    return made if made is not None else f.memo.keep(fields, _made(fields))


def _made(fields: tuple) -> Attack:
    return Attack(*fields[1:5], location=fields[5], position=fields[6], ability=fields[7],
                  specialty=fields[8])


def impossible(f: Fight, key: str, a: dict) -> str | None:
    """Why the declared action ``a`` cannot be made now, or None (TURN-10). An attack is
    impossible when its target left the fight, is dead, or the attack cannot be made as
    things stand (out of reach, nothing to shoot with ...); an aim or a move toward
    someone, when that someone is gone."""
    tkey = a.get("target")
    if not tkey:
        return None
    t = f.state.get(tkey)
    if t is None:
        return "the target has left the fight"
    if t.outcome == "dead":
        return f"{t.name} is dead"
    if a["kind"] != "attack":
        return None
    weapon = _weapon(f, key, a)
    if f.gear(key).is_dropped(weapon):
        return f"the {weapon} was knocked away"
    try:
        _pool(f, key, a, weapon, f.yards(key, tkey), counted=False)
    except IllegalAction as why:
        return str(why)
    return None
