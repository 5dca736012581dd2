"""What the organizer and staff do by hand: damage and healing marked directly, conditions
set or lifted, cover placed."""

from __future__ import annotations

from . import damage as dmg

from .damage_tables import DEAD, INCAPACITATED, TORPOR

from .soak import source_tags
from . import scheduler as sch
from .attack_values import CONDITIONS
from ..core.conditions import check_turns, known_name
from ..core.events import Event
from ..core.errors import IllegalAction, InputError
from ..core.health import DAMAGE_TYPES
from ..core.maneuvers import tables
from ..core.values import replace
from . import harm, mending
from .fight import Fight


def levels_and_kind(f: Fight, n: int, word: str) -> tuple[int, str]:
    """How many levels (1 up to the ruleset's largest pool) of which damage type (a unique
    prefix of bashing, lethal, aggravated)."""
    most = f.rules.dice.max_pool
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise InputError(f"Levels run from 1 to {most}, e.g. =2 lethal.")
    w = str(word).strip().lower()
    hits = [k for k in DAMAGE_TYPES if w and k.startswith(w)]
    if len(hits) != 1:
        types = ", ".join(DAMAGE_TYPES)
        if w and _is_source(f, w):  # "=3 fire": the type was left out, or put after
            raise InputError(f"'{word}' is a damage source; the type comes first, then the "
                             f"source, e.g. ={n} lethal {w} (types: {types}).")
        raise InputError(f"'{word}' is not a damage type: {types}.")
    return n, hits[0]


def _is_source(f: Fight, word: str) -> bool:
    """Whether ``word`` names a damage source of this ruleset (DMG-05..13: fire, sunlight,
    silver ...), as ``damage.source_tags`` reads it."""
    if not (f.rules.section("damage") or {}).get("sources"):
        return False  # a ruleset that lists none takes any word as a source
    try:
        source_tags(f.rules, word)
    except InputError:
        return False
    return True


def damage(f: Fight, key: str, n: int, kind: str, sources: tuple[str, ...] = ()) -> None:
    """``n`` levels marked by hand, through damage.py like a hit (HLT-02..05: torpor for a
    vampire, death for a mortal, reverting for a shifter ...): the levels are the rolled
    successes, unsoakable, so exactly ``n`` are marked (a vampire's DMG-15 halving is
    undone: the staffer said how many levels)."""
    n, kind = levels_and_kind(f, n, kind)
    if sources:  # from fire, sunlight, silver ...: soaked by the rules for it
        harm.sourced(f, key, n, kind, tuple(sources))
        return
    rs = f.rules
    sheet = f.sheet(key)
    condition = f.outcome_of(key, sheet)
    if condition == DEAD:
        raise IllegalAction(f"{f.name(key)} is dead already.")

    def mark(levels: int):
        return dmg.resolve_damage(rs, sheet, dice=levels, damage_type=kind, source="other",
                                  faces_damage=(rs.dice.sides,) * levels,
                                  damage_difficulty=rs.dice.base_difficulty, unsoakable=True,
                                  condition=condition,
                                  stay_active_with_rage=mending.staying(f, key))  # HLT-04

    dr = mark(n)
    if dr.halved and dr.applied < n:
        dr = mark(min(2 * n, rs.dice.max_pool))
    f.put_sheet(key, dr.sheet)
    f.emit("damage", target=key, source="staff", type=dr.damage_type, rolled=n, soaked=0,
           applied=dr.applied, health_before=dr.health_before.level,
           health_after=dr.health_after.level, outcome=dr.outcome, by=f.by,
           notes=list(dr.notes))
    f.set_outcome(key, dr.outcome)


def heal(f: Fight, key: str, n: int, kind: str, revived: bool = False) -> None:
    """Marks come off the track; a character no longer incapacitated is back in the turn.
    HLT-05: healing does not bring the dead back; staff undo a death with ``revived``."""
    if revived:
        revive(f, key)
        return
    n, kind = levels_and_kind(f, n, kind)
    sheet = f.sheet(key)
    if f.state.get(key).outcome == DEAD or sheet.fate == DEAD:
        name = f.name(key)
        raise IllegalAction(f"{name} is dead: healing does not bring the dead back. Staff "
                            f"undo a death first: +combat/heal {name}=revive")
    before = f.track(key)
    after = before.heal(kind, n)
    f.put_sheet(key, sheet.with_health(after))
    f.emit("heal", target=key, source="staff", type=kind, rolled=None, soaked=0,
           applied=before.damage - after.damage, health_before=before.level_name,
           health_after=after.level_name, outcome="none", by=f.by, levels=n)
    c = f.state.get(key)
    if c.outcome == INCAPACITATED and not dmg.is_incapacitated(f.sheet(key), f.rules):
        f.put(key, outcome="")
        f.uncondition(key, "incapacitated")


def revive(f: Fight, key: str) -> None:
    """Staff undo a death or torpor (a story decision, not a rule): the outcome goes from
    the fight and the sheet; the wounds stay until healed."""
    c = f.state.get(key)
    sheet = f.sheet(key)
    was = (c.outcome if c.outcome in (DEAD, TORPOR) else "") or sheet.fate
    if not was:
        raise IllegalAction(f"{f.name(key)} is neither dead nor in torpor; nothing to undo.")
    if sheet.fate:
        f.put_sheet(key, replace(sheet, fate=""))
    f.put(key, outcome="")
    f.uncondition(key, "incapacitated")
    f.emit("revive", actor=key, was=was, by=f.by, health=f.track(key).level_name)


#: Set by hand only, read by close.py: MAN-02's "sees behind" (everyman) and DEF-05's
#: countermagic (a lock-on power can be dodged).
BY_HAND = ("sees behind", "countermagic")


def _flags_in(node) -> set[str]:
    """The ``only_if`` / ``flag`` values of a YAML section: conditions its rows read
    (soak's ``only_if: apocalyptic_form``, healing's ``flag: salt_water``)."""
    if isinstance(node, dict):
        found = {str(v) for k, v in node.items() if k in ("only_if", "flag")
                 and isinstance(v, str)}
        return found.union(*(_flags_in(v) for v in node.values()))
    if isinstance(node, (list, tuple)):
        return set().union(*(_flags_in(v) for v in node))
    return set()


def settable_conditions(rules) -> tuple[str, ...]:
    """What the organizer may put on someone: the conditions the attack rules read, the
    turn table's (turns.yaml ``conditions``), blindness mitigations (COMP-01), the flags
    the soak and healing tables read, and BY_HAND."""
    mit = (tables(rules).comp.get("blinded") or {}).get("mitigations") or {}
    names = {*CONDITIONS, *sch.turn_rules(rules).conditions, *(m.lower() for m in mit),
             *BY_HAND, *harm.TARGET_FLAGS, mending.SALT_WATER,
             *_flags_in(rules.section("soak")), *_flags_in(rules.section("healing"))}
    return tuple(sorted(names))


def known_condition(rules, name: str) -> str:
    """``name`` as the rules spell it (knocked down = knocked_down), or InputError listing
    the conditions there are: a typo or a made-up word would change nothing in the fight."""
    return known_name(name, settable_conditions(rules))


def condition(f: Fight, key: str, name: str, remove: bool, turns: int | None = None) -> None:
    """+combat/mod: put a condition on (for ``turns`` turns, or until removed; its end is
    announced: combat/core/conditions.py) or take it off."""
    start = len(f.events)
    if remove and turns is not None:
        raise InputError(f"Take a condition off without a number: +combat/mod <name>="
                         f"!{name.strip()}.")
    if not remove:
        name = known_condition(f.rules, name)
        check_turns(turns, f.rules)
    if remove:
        f.run(sch.remove_condition(f.state, key, name, f.rules))
    else:
        f.run(sch.add_condition(f.state, key, name, f.rules, turns=turns, announce=True))
    f.events[start:] = [  # who set it, for the log
        Event(e.kind, {**e.fields, "by": f.by}) if type(e) is Event else {**e, "by": f.by}
        for e in f.events[start:]]
