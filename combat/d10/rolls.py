"""Willpower and specialties on the rolls of declared actions (DICE-03, DICE-04, TURN-02).

A Willpower point for one automatic success is declared with the action it helps
(``attack Bob wp``, ``dodge wp``, or ``spend willpower 1; attack Bob``) and taken when that
roll is made; a specialty (``spec``) is claimed the same way. What can be checked when
declaring is checked then, so a declaration the sheet cannot honour is refused before
anything is spent, never at the moment of acting.
"""

from __future__ import annotations

from ..core.errors import IllegalAction
from ..core.maneuvers import tables
from .fight import Fight

ROLLED = ("attack", "dodge", "block", "parry")
WILLPOWER = "Willpower"


def fold_spend(f: Fight, actions: list[dict], activations: list[dict]) -> list[dict]:
    """``spend willpower <n>`` declared with rolled actions: the points go to the first
    ``n`` of those rolls (TURN-02, DICE-04), not to a power; what is left stays a spend."""
    if not activations:  # most declarations: nothing spent
        return activations
    rolled = [a for a in actions if a["kind"] in ROLLED and not a.get("willpower")]
    if not rolled:
        return activations
    kept = []
    for act in activations:
        pool = act.get("pool") if act.get("activate") == "spend" else None
        canon = f.rules.traits.resolve(pool) if pool else None
        if canon != WILLPOWER:
            kept.append(act)
            continue
        n = act["amount"]
        while n and rolled:
            rolled.pop(0)["willpower"] = True
            n -= 1
        if n:
            kept.append({**act, "amount": n})
    return kept


def check(f: Fight, key: str, actions: list[dict]) -> None:
    """Refuse, at declaration, Willpower the ruleset or the sheet cannot give."""
    asked = [a for a in actions if a.get("willpower") or a.get("specialty")]
    if not asked:  # most declarations: nothing to check
        return
    wanted = sum(1 for a in asked if a.get("willpower"))
    if wanted:
        name = f.name(key)
        if not f.rules.dice.willpower_success:
            raise IllegalAction("Willpower adds no success to a roll in this ruleset.")
        pool = f.sheet(key).pools.get(WILLPOWER)
        have = pool.current if pool is not None else 0
        if have < wanted:
            raise IllegalAction(f"{name} has {have} Willpower point(s); the declared rolls "
                                f"need {wanted}.")
    for a in asked:
        if a["kind"] not in ROLLED:
            raise IllegalAction(f"Willpower and specialties go on a roll (attack, dodge, "
                                f"block, parry), not on {a['kind']}.")
        if a.get("specialty") and a["kind"] != "attack":
            row = tables(f.rules).defenses["kinds"].get(a["kind"]) or {}
            traits = [row.get("ability"), *(x.get("ability") for x in
                                              row.get("alternatives", ()))]
            if not any(t and f.sheet(key).has_specialty(t) for t in traits):
                raise IllegalAction(f"{f.name(key)} has no specialty in "
                                    f"{' or '.join(t for t in traits if t)} for a "
                                    f"{a['kind']}.")


def has_willpower(f: Fight, key: str) -> bool:
    """A declared point still there when the roll is made (it may have gone since)."""
    pool = f.sheet(key).pools.get(WILLPOWER)
    return pool is not None and pool.current > 0
