"""Rolls that are not attacks: COMP-04 the knockdown roll (a reflex: DICE-09, no wound
penalty), COMP-01 Blind Fighting, MAN-01 an ambush (Stealth against Alertness) and
CLOSE-03/05 escaping a grapple.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.dice import Roll
from ..core.errors import IllegalAction
from ..core.maneuver_schemas import ROLL
from ..core.maneuvers import fera_trait_difficulty, tables
from ..core.pools import Modifier, PoolSpec
from .attack_mods import _rating, _roll, _roll_terms, _wounds
from .attack_values import Side


@dataclass(frozen=True, slots=True)
class ReflexResult:
    """A reflex roll (DICE-09): not an action, no wound penalty, no multiple-action penalty."""

    what: str
    pool: PoolSpec
    roll: Roll
    counts_as_action: bool = False


@dataclass(frozen=True, slots=True)
class KnockdownResult:
    """COMP-04: success: up at once, -2 initiative next turn; failure: getting up takes an
    action; botch: also one unsoakable bashing (numetal)."""

    reflex: ReflexResult
    standing: bool
    initiative_next_turn: int
    stand_needs_action: bool
    damage: int
    damage_type: str
    soakable: bool

    @property
    def roll(self) -> Roll:
        return self.reflex.roll


def _reflex_pool(ruleset, sheet, attribute, ability, difficulty, extra_mods, sense=""):
    row = ROLL.fill({"attribute": attribute, "ability": ability})  # DICE-07 at the base
    terms, mods, _ = _roll_terms(ruleset, sheet, row, attribute, None, "This roll", False)
    used = {n for n, _ in terms}
    for why, d in fera_trait_difficulty(ruleset, sheet, used, sense):
        mods.append(Modifier(why, difficulty=d))
    mods += [m for m in extra_mods if m]
    return PoolSpec(terms, (), difficulty).plus(*[m for m in mods if m])


def knockdown_check(ruleset, sheet, *, difficulty: int = 0, absolute: int | None = None,
                    faces=None, rng: random.Random | None = None) -> KnockdownResult:
    """COMP-04 knockdown roll, Dexterity + Athletics, a reflex (DICE-09: no wound penalty).
    ``difficulty`` is the maneuver's change (sweep +2, tackle +1); ``absolute`` a fixed one."""
    kd = tables(ruleset).comp["knockdown"]
    # The change from the base difficulty is a named modifier, so the log says why a
    # knockdown is rolled at 7 or 8 (issue 9, defect 26).
    base = ruleset.dice.base_difficulty
    change = (absolute - base) if absolute is not None else difficulty
    why = Modifier("knockdown maneuver", difficulty=change) if change else None
    pool = _reflex_pool(ruleset, sheet, kd["attribute"], kd["ability"], base, [why])
    roll = _roll(faces, rng, pool.dice, pool.difficulty, ruleset.dice)
    reflex = ReflexResult("knockdown", pool, roll)
    if roll.successes:
        return KnockdownResult(reflex, True, kd["success_initiative"], False, 0, "", True)
    if roll.botch:
        return KnockdownResult(reflex, False, 0, True, kd["botch_damage"], kd["botch_type"],
                               kd["botch_soakable"])
    return KnockdownResult(reflex, False, 0, True, 0, "", True)


def blind_fighting(ruleset, sheet, *, faces=None, rng: random.Random | None = None
                   ) -> tuple[ReflexResult, int]:
    """COMP-01: Perception + Blind Fighting (a reflex, blindness penalty not applied); the
    first success is worth 1 point, each 2 more another (spent on the own penalty or on the
    bonus to attack you, close combat only)."""
    bf = tables(ruleset).comp["blinded"]["blind_fighting"]
    ability = bf["ability"]
    if _rating(ruleset, sheet, ability) < 1:
        raise IllegalAction(f"You have no {ability}.")
    pool = _reflex_pool(ruleset, sheet, bf["attribute"], ability,
                        ruleset.dice.base_difficulty, ())
    roll = _roll(faces, rng, pool.dice, pool.difficulty, ruleset.dice)
    s = roll.successes
    points = 0 if s < 1 else bf["first"] + (s - 1) // bf["per_extra"]
    return ReflexResult("blind fighting", pool, roll), points


@dataclass(frozen=True, slots=True)
class AmbushResult:
    """MAN-01: free_attack (with bonus dice), attacker_first (tie: target may only defend), or
    spotted (roll initiative normally)."""

    attacker_pool: PoolSpec
    attacker_roll: Roll
    target_pool: PoolSpec
    target_roll: Roll
    outcome: str
    bonus_dice: int


def resolve_ambush(ruleset, attacker, target, *, target_side: Side | None = None,
                   sense: str | None = None, attacker_faces=None, target_faces=None,
                   rng: random.Random | None = None, ignore_wounds: bool = False
                   ) -> AmbushResult:
    """MAN-01: resisted Dexterity + Stealth against Perception + Alertness; someone already in
    combat cannot be ambushed."""
    side = target_side or Side(in_combat=False)
    if side.in_combat:
        raise IllegalAction("The target is already in combat and cannot be ambushed.")
    amb = tables(ruleset).man["ambush"]
    arow, trow = amb["attacker"], amb["target"]
    base = ruleset.dice.base_difficulty
    apool = _reflex_pool(ruleset, attacker, arow["attribute"], arow["ability"], base,
                         [_wounds(ruleset, attacker, ignore_wounds)])
    tpool = _reflex_pool(ruleset, target, trow["attribute"], trow["ability"], base, (),
                         sense or trow["sense"])
    ar = _roll(attacker_faces, rng, apool.dice, apool.difficulty, ruleset.dice)
    tr = _roll(target_faces, rng, tpool.dice, tpool.difficulty, ruleset.dice)
    margin = ar.successes - tr.successes
    if margin > 0:
        bonus = margin if amb["bonus_dice"] == "margin" else margin - 1
        return AmbushResult(apool, ar, tpool, tr, "free_attack", bonus)
    return AmbushResult(apool, ar, tpool, tr, "attacker_first" if margin == 0 else "spotted", 0)


@dataclass(frozen=True, slots=True)
class EscapeResult:
    escaper_pool: PoolSpec
    escaper_roll: Roll
    holder_pool: PoolSpec
    holder_roll: Roll
    escaped: bool


def resolve_escape(ruleset, escaper, holder, *, escaper_faces=None, holder_faces=None,
                   rng: random.Random | None = None, extra=()) -> EscapeResult:
    """CLOSE-03 / CLOSE-05: resisted Strength + Brawl; the escaper needs more successes. The
    escape is the escaper's action (wounds count); holding on is the holder's reflex."""
    esc = tables(ruleset).man["escape"]
    base = ruleset.dice.base_difficulty
    epool = _reflex_pool(ruleset, escaper, esc["attribute"], esc["ability"], base,
                         [_wounds(ruleset, escaper, False), *extra])
    hpool = _reflex_pool(ruleset, holder, esc["attribute"], esc["ability"], base, ())
    er = _roll(escaper_faces, rng, epool.dice, epool.difficulty, ruleset.dice)
    hr = _roll(holder_faces, rng, hpool.dice, hpool.difficulty, ruleset.dice)
    return EscapeResult(epool, er, hpool, hr, er.successes > hr.successes)
