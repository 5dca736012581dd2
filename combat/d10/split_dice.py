"""MAN-05: a split takes dice from every action in it; an action it leaves with no dice is
said when declared (issue 11: it was accepted without a word, and the player learned it only
from a roll of "[no dice]")."""

from __future__ import annotations

from . import scheduler as sch
from .attack_mods import _roll_terms, _wounds
from ..core.errors import WodError
from ..core.maneuvers import tables
from . import foresee
from .fight import Fight

DEFENSES = ("dodge", "block", "parry")


def dice_before_split(f: Fight, key: str, a: dict) -> int | None:
    """The action's dice as things stand, before the turn's penalties (None: not known
    until acted, or not a roll this can judge now)."""
    try:
        if a["kind"] == "attack" and a.get("target") and not a.get("magic"):
            pool = foresee.attack_pool(f, key, a)
            return None if pool is None or not pool.terms else pool.dice
        if a["kind"] in DEFENSES:
            row = tables(f.rules).defenses["kinds"].get(a["kind"])
            if row is None:
                return None
            sheet = f.sheet(key)
            terms, _, _ = _roll_terms(f.rules, sheet, row, row["attribute"], a.get("ability"),
                                      a["kind"], False)
            wounds = _wounds(f.rules, sheet, False)
            return sum(v for _, v in terms) + (wounds.dice if wounds else 0)
    except WodError:  # what acting will refuse, it refuses then
        return None
    return None


def warn_empty(f: Fight, key: str) -> None:
    """An ``empty_pool`` event for each declared action the split leaves at 0 dice."""
    c = f.state.get(key)
    if c is None or len(c.actions) < 2:
        return
    for i, (a, mods) in enumerate(zip(c.actions, sch.action_penalties(c, f.rules))):
        penalty = -sum(m.dice for m in mods)
        if penalty <= 0:
            continue
        dice = dice_before_split(f, key, a)
        if dice is not None and dice - penalty <= 0:
            f.emit("empty_pool", actor=key, index=i, kind=a["kind"], dice=dice,
                   penalty=penalty)
