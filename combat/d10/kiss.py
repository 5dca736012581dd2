"""CLOSE-14, the Kiss (everyman, seed 002 "Bite"), in a fight: a vampire's draining bite
latches on (``combat/d10/kiss_rules.py`` decides the blood and who resists how). While it lasts a
mortal victim is helpless: they can only try to resist, if the rules let them (Willpower
9+); a vampire victim rolls Self-Control at difficulty 8. Each turn the vampire bites
again to keep drinking; the Kiss ends when the victim resists, either breaks the grapple,
or the vampire does not drink again next turn.
"""

from __future__ import annotations

from . import kiss_rules as kissrules
from . import scheduler as sch
from ..core.errors import IllegalAction
from .fight import Fight, roll_event

CONDITION = "kissed"


def enabled(f: Fight) -> bool:
    return bool((f.rules.section("kiss") or {}).get("enabled"))


def drink(f: Fight, key: str, tkey: str) -> None:
    """One turn of the Kiss: blood moves, the victim is held by it until next turn."""
    res = kissrules.drain(f.rules, f.sheet(key), f.sheet(tkey))
    f.put_sheet(key, res.vampire)
    f.put_sheet(tkey, res.victim)
    f.condition(tkey, CONDITION, turns=2)  # this turn and the next: bite again to go on
    f.emit("kiss", actor=key, target=tkey, drained=res.drained, helpless=res.helpless,
           notes=list(res.notes))


def kissed(f: Fight, key: str) -> bool:
    c = f.state.get(key)
    return bool(c) and CONDITION in sch.active_conditions(c, f.state.turn)


def check_helpless(f: Fight, key: str, actions) -> None:
    """A victim helpless under the Kiss can only try to resist (``actions/resist.py``) or
    pass, known when declaring."""
    if not enabled(f) or not kissed(f, key) or not kissrules.is_helpless(f.rules, f.sheet(key)):
        return
    bad = [a["kind"] for a in actions if a["kind"] not in ("resist", "pass")]
    if bad:
        raise IllegalAction(f"{f.name(key)} is helpless under the Kiss: only resist (if "
                            f"the rules allow it) or pass.")


def resist(f: Fight, key: str) -> None:
    """The victim's roll this turn; success breaks the Kiss and the grapple."""
    res = kissrules.resist(f.rules, f.sheet(key), rng=f.rng)
    f.events.append(roll_event(key, "resist the Kiss", None, res.roll,
                               traits=[[res.trait, res.roll.pool]]))
    if res.resisted:
        f.uncondition(key, CONDITION)
        grip = f.gear(key).grapple
        f.release(key, grip.other if grip else None)
    f.emit("kiss_resisted", actor=key, resisted=res.resisted)
