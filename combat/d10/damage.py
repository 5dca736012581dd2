"""The whole hit (DMG-01..03, DMG-12..15, HLT-02..05): the damage roll, the soak (soak.py), the
health track and what lies past Incapacitated. Every table and switch is YAML (``damage:``,
``soak:``, ``shifters:``: damage_tables.py); nothing here knows a ruleset's name.

``damage_pool(base, attack_successes, ruleset=None)``: DMG-02, the damage dice once the
attack's successes beyond the first are added. ``net_attack_successes(attack, defense)``:
DMG-03, 0 means a miss. ``resolve_damage(ruleset, target, *, dice, damage_type, ...)``:
the chain for one hit; exact faces (``faces_damage`` / ``faces_soak``) or ``rng``; the
target's standing ``condition`` before the hit (the combat state keeps it: "dies on any
further damage" is not a health mark). ``DamageResult`` holds the request, both rolls,
the soak pool, every count, the health before and after, the outcome and new condition,
the dazed flag (COMP-02, before DMG-15 halving), what was spent and the new Sheet: enough
for a staffer to recompute the hit from the combat log (``as_dict()``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from ..core import dice as dicemod
from ..core.errors import IllegalAction, InputError
from ..core.health import Applied, HealthTrack, damage_type as parse_damage_type
from ..core.pools import Modifier
from ..core.sheet import Pool, Sheet
from ..core.values import fast_init, replace

from .damage_tables import (
    CONDITIONS,
    DEAD,
    DOOMED,
    DYING,
    INCAPACITATED,
    OK,
    RAGE_ACTIVE,
    REVERTED,
    SEVERITY,
    TORPOR,
    UNCONSCIOUS,
    family_of,
    require_section,
    levels_of,
    track_of,
    tracks_of,
)
from .damage_rules import DamageRules, damage_rules
from .dazed import daze_threshold, is_dazed
from .soak import SoakPool, _plan, _soak_memo, breed_form, source_tags
from .wound_penalty import pay_costs


def damage_pool(base: int, attack_successes: int, ruleset=None) -> int:
    """DMG-02: each attack success beyond the first adds a damage die (seed 000, Damage)."""
    per = 1
    if ruleset is not None:
        per = require_section(ruleset, "damage")["dice_per_extra_success"]
    return max(0, base) + max(0, attack_successes - 1) * per


def net_attack_successes(attack: int, defense: int) -> int:
    """DMG-03: each defense success cancels one attack success; equal or more defense
    successes and the attack fails (0). Every d10 seed agrees, so there is no switch."""
    return max(0, max(0, attack) - max(0, defense))


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class HealthState:
    """The track as the log shows it: level name, penalty, marks and the boxes."""

    level: str
    penalty: int | None
    bashing: int
    lethal: int
    aggravated: int
    boxes: str

    @classmethod
    def of(cls, track: HealthTrack) -> "HealthState":
        b, le, ag = track.bashing, track.lethal, track.aggravated
        lv = track.levels[b + le + ag - 1] if b + le + ag else None
        # the boxes as HealthTrack.boxes draws them, worst first, in one string
        free = len(track.levels) - b - le - ag
        return cls(lv.name if lv else "Healthy", lv.penalty if lv else 0, b, le, ag,
                   "*" * ag + "X" * le + "/" * b + " " * (free if free > 0 else 0))

    def as_dict(self) -> dict:
        return {"level": self.level, "penalty": self.penalty, "bashing": self.bashing,
                "lethal": self.lethal, "aggravated": self.aggravated, "boxes": self.boxes}


def health_states(ruleset) -> Mapping[tuple[int, int, int], HealthState]:
    """``HealthState.of`` every track of the ruleset's (damage_tables.tracks_of), by its
    marks, built once (``Ruleset.derived(health_states)``): each hit shows two."""
    return MappingProxyType({k: HealthState.of(t)
                             for k, t in ruleset.derived(tracks_of).items()})


def health_state(track: HealthTrack, ruleset, dr: DamageRules | None = None) -> HealthState:
    """``HealthState.of(track)``, read from the ruleset's table when the track has its
    levels (any other, built by hand, is worked out); ``dr``: its ``DamageRules``."""
    if track.levels is (ruleset.derived(levels_of) if dr is None else dr.levels):
        state = ruleset.derived(health_states).get(
            (track.bashing, track.lethal, track.aggravated))
        if state is not None:
            return state
    return HealthState.of(track)


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DamageRequest:
    """Every input of one hit, as given (the log keeps it for recomputation)."""

    dice: int
    damage_type: str
    source: str
    materials: tuple[str, ...] = ()
    faces_damage: tuple[int, ...] | None = None
    faces_soak: tuple[int, ...] | None = None
    damage_difficulty: int | None = None
    armor_rating: int = 0
    armor_applies: bool = True
    unarmored_part: bool = False
    head_shot: bool = False
    unsoakable: bool = False
    chimerical: bool = False
    flags: tuple[str, ...] = ()
    soak_modifiers: tuple[Modifier, ...] = ()
    condition: str = OK
    stay_active_with_rage: bool = False


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DamageResult:
    ruleset: str
    request: DamageRequest
    family: str
    damage_type: str  # after conversions (DMG-09, DMG-10, DMG-15)
    conversions: tuple[str, ...]
    damage_roll: dicemod.Roll
    soak: SoakPool | None
    soak_roll: dicemod.Roll | None
    levels_rolled: int  # damage successes
    soaked: int
    penetrating: int  # levels_rolled - soaked: what COMP-02 compares
    applied: int  # levels put on the track (DMG-14), after DMG-15 halving
    halved: bool
    marked: int  # boxes newly filled
    overflow: int  # levels past Incapacitated (HLT-03..HLT-05)
    track_before: HealthTrack = field(repr=False)
    track_after: HealthTrack = field(repr=False)
    # the two tracks as the log shows them (each read twice: the event and its detail)
    health_before: HealthState = field(repr=False)
    health_after: HealthState = field(repr=False)
    condition_before: str
    condition: str
    outcome: str  # "none" or the new condition this hit caused
    dazed: bool
    daze_threshold: int
    armor_applied: bool
    armor_damaged: bool  # DMG-12
    spent: Mapping[str, int]
    sheet: Sheet = field(repr=False)
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        # Not ``dataclasses.asdict``: it deep-copies recursively and was a tenth of a hit's
        # cost. The request's values are plain or tuples of plain values (the modifiers
        # aside), kept as JSON keeps them (lists), so a logged event reads back equal.
        r = self.request
        fd, fs = r.faces_damage, r.faces_soak
        req = {"dice": r.dice, "damage_type": r.damage_type, "source": r.source,
               "materials": list(r.materials),
               "faces_damage": None if fd is None else list(fd),
               "faces_soak": None if fs is None else list(fs),
               "damage_difficulty": r.damage_difficulty, "armor_rating": r.armor_rating,
               "armor_applies": r.armor_applies, "unarmored_part": r.unarmored_part,
               "head_shot": r.head_shot, "unsoakable": r.unsoakable, "chimerical": r.chimerical,
               "flags": list(r.flags),
               "soak_modifiers": [m.as_dict() for m in r.soak_modifiers],
               "condition": r.condition, "stay_active_with_rage": r.stay_active_with_rage}
        return {
            "ruleset": self.ruleset,
            "request": req,
            "family": self.family,
            "damage_type": self.damage_type,
            "conversions": list(self.conversions),
            "damage_roll": self.damage_roll.as_dict(),
            "soak": self.soak.as_dict() if self.soak else None,
            "soak_roll": self.soak_roll.as_dict() if self.soak_roll else None,
            "levels_rolled": self.levels_rolled,
            "soaked": self.soaked,
            "penetrating": self.penetrating,
            "applied": self.applied,
            "halved": self.halved,
            "marked": self.marked,
            "overflow": self.overflow,
            "health_before": self.health_before.as_dict(),
            "health_after": self.health_after.as_dict(),
            "condition_before": self.condition_before,
            "condition": self.condition,
            "outcome": self.outcome,
            "dazed": self.dazed,
            "daze_threshold": self.daze_threshold,
            "armor_applied": self.armor_applied,
            "armor_damaged": self.armor_damaged,
            "spent": dict(self.spent),
            "notes": list(self.notes),
        }


def faces_for(given, pool: int, rng, sides: int, what: str) -> tuple[int, ...]:
    if given is None:
        if pool <= 0:
            return ()
        if rng is None:
            raise InputError(f"Give {what} faces or an rng to roll them.")
        return dicemod.roll_faces(pool, rng, sides)
    faces = tuple(int(f) for f in given)
    if len(faces) != pool:
        raise InputError(f"The {what} pool is {pool} dice but {len(faces)} faces were given.")
    if any(not 1 <= f <= sides for f in faces):
        raise InputError(f"{what.title()} faces must be from 1 to {sides}: {list(faces)}.")
    return faces


def resolve_damage(
    ruleset,
    target: Sheet,
    *,
    dice: int,
    damage_type: str,
    source: str = "other",
    materials: Iterable[str] = (),
    faces_damage: Iterable[int] | None = None,
    faces_soak: Iterable[int] | None = None,
    rng: random.Random | None = None,
    damage_difficulty: int | None = None,
    armor_rating: int = 0,
    armor_applies: bool = True,
    unarmored_part: bool = False,
    head_shot: bool = False,
    unsoakable: bool = False,
    chimerical: bool = False,
    flags: Iterable[str] = (),
    soak_modifiers: Iterable[Modifier] = (),
    condition: str = OK,
    stay_active_with_rage: bool = False,
    memo=None,
) -> DamageResult:
    """DMG-01..DMG-15, DMG-18, HLT-02..HLT-05, COMP-02, DICE-10 for one hit (see module doc).
    ``memo`` (combat/core/memo.py) spares building the same soak pools again."""
    request = DamageRequest(
        int(dice),
        damage_type,
        source,
        tuple(materials),
        None if faces_damage is None else tuple(faces_damage),
        None if faces_soak is None else tuple(faces_soak),
        damage_difficulty,
        int(armor_rating),
        bool(armor_applies),
        bool(unarmored_part),
        bool(head_shot),
        bool(unsoakable),
        bool(chimerical),
        tuple(flags),
        tuple(soak_modifiers),
        condition,
        bool(stay_active_with_rage),
    )
    return resolve_request(ruleset, target, request, rng, memo)


def resolve_request(ruleset, target: Sheet, request: DamageRequest, rng,
                    memo=None) -> DamageResult:
    """``resolve_damage`` of a request built (its fields of the types ``resolve_damage``
    gives them): the rolls, the track and the outcome."""
    condition = request.condition
    if condition not in CONDITIONS:
        raise InputError(f"'{condition}' is not a condition: use one of {', '.join(CONDITIONS)}.")
    if condition == DEAD:
        raise IllegalAction("The target is already dead.")
    dr = damage_rules(ruleset)
    rules = ruleset.dice
    dtype = parse_damage_type(request.damage_type)  # DMG-18
    tags = source_tags(ruleset, request.source, request.materials, memo=memo)
    plan = _plan(ruleset, target, dtype, tags, request.head_shot, memo)
    droll = _damage_roll(rules, dr, request, rng)
    rolled = droll.successes
    soak, armor_in, sroll = _soak_roll(ruleset, dr, target, plan, request, rolled, rng, memo)
    soaked = min(rolled, sroll.successes if sroll else 0)
    penetrating = rolled - soaked

    # DMG-15: bashing applied to a vampire is halved (round down) after the soak roll.
    halved = plan.damage_type in dr.halve_after_soak.get(plan.family, ())
    applied = penetrating // 2 if halved else penetrating

    before = track_of(target, ruleset)
    pool_name = _health_pool(dr, target, ruleset)
    result, sheet, state_before, state_after, down = _marked(ruleset, dr, target, plan,
                                                             applied, before, pool_name)
    # HLT-02..HLT-05: the outcome.
    new, sheet, notes, spent = _condition_after(ruleset, require_section(ruleset, "damage"),
                                                plan, request, result, sheet, applied, down)
    if pool_name and result.marked:
        notes.append(f"{pool_name} -{result.marked}")

    daze_limit = daze_threshold(ruleset, target)  # COMP-02, on the successes after soak

    # DMG-12 (revised): armor damaged by pre-soak damage of at least twice its rating.
    multiple = dr.armor_damaged_at
    armor_damaged = bool(multiple and armor_in and rolled >= multiple * request.armor_rating)

    return DamageResult(
        ruleset=ruleset.name, request=request, family=plan.family,
        damage_type=plan.damage_type, conversions=plan.conversions,
        damage_roll=droll, soak=soak, soak_roll=sroll,
        levels_rolled=rolled, soaked=soaked, penetrating=penetrating, applied=applied,
        halved=halved and penetrating > 0, marked=result.marked, overflow=result.overflow,
        track_before=before, track_after=result.track,
        health_before=state_before, health_after=state_after,
        condition_before=condition, condition=new,
        outcome=new if new != condition else "none",
        dazed=is_dazed(ruleset, target, penetrating, daze_limit), daze_threshold=daze_limit,
        armor_applied=armor_in, armor_damaged=armor_damaged,
        spent=MappingProxyType(spent), sheet=sheet, notes=tuple(notes),
    )


def _damage_roll(rules, dr: DamageRules, request: DamageRequest, rng) -> dicemod.Roll:
    """DMG-01: the damage roll; a botch is only a failure (unless ``damage_can_botch``)."""
    pool = max(0, request.dice)
    dicemod.check_pool(pool, rules)
    difficulty = (rules.base_difficulty if request.damage_difficulty is None
                  else request.damage_difficulty)
    if request.faces_damage is None and rng is not None:  # drawn and counted in one call
        return dicemod.roll_count(pool, difficulty, rng, rules, can_botch=dr.damage_can_botch)
    dfaces = faces_for(request.faces_damage, pool, rng, rules.sides, "damage")
    return dicemod.count(dfaces, difficulty, rules, can_botch=dr.damage_can_botch)


def _soak_roll(ruleset, dr: DamageRules, target: Sheet, plan, request: DamageRequest,
               rolled: int, rng, memo):
    """DMG-04..DMG-11: (the soak pool, whether armor is in it, the soak roll): a reflex that
    cannot botch, no wound penalty (DICE-10); not rolled when no damage succeeded."""
    flagset = frozenset(request.flags) | ({"chimerical"} if request.chimerical else frozenset())
    soak, armor_in = _soak_memo(ruleset, target, plan, max(0, request.armor_rating),
                                request.armor_applies, request.unarmored_part,
                                request.unsoakable, flagset, request.soak_modifiers, memo)
    sroll = None
    if soak is not None and rolled > 0:
        rules = ruleset.dice
        if request.faces_soak is None and rng is not None:  # drawn and counted in one call
            sroll = dicemod.roll_count(soak.dice, soak.difficulty, rng, rules,
                                       can_botch=dr.soak_can_botch)
        else:
            sfaces = faces_for(request.faces_soak, soak.dice, rng, rules.sides, "soak")
            sroll = dicemod.count(sfaces, soak.difficulty, rules, can_botch=dr.soak_can_botch)
    return soak, armor_in, sroll


def _marked(ruleset, dr: DamageRules, target: Sheet, plan, applied: int,
            before: HealthTrack, pool_name: str | None):
    """DMG-14, HLT-02, HLT-03: the levels marked on the track, or on a wraith's Corpus
    instead (revised): (result, sheet, health before, health after, incapacitated)."""
    if pool_name:
        result, sheet, state_before, state_after = _corpus_hit(target, pool_name, plan,
                                                               applied, before)
    else:
        result = before.apply(plan.damage_type, applied)
        sheet = target.with_health(result.track)
        state_before = health_state(before, ruleset, dr)
        state_after = health_state(result.track, ruleset, dr)
    down = is_incapacitated(sheet, ruleset) if pool_name else result.track.incapacitated
    return result, sheet, state_before, state_after, down


def _condition_after(ruleset, dsec: Mapping, plan, request: DamageRequest, result, sheet: Sheet,
                     applied: int, down: bool) -> tuple[str, Sheet, list[str], dict[str, int]]:
    """(the target's condition after the hit, its sheet, notes, what it spent): HLT-02
    Incapacitated at health 0; past it (HLT-03..05) the family's row decides (death, torpor,
    unconsciousness, a shifter's Rage to stay active or its reverting), and any further
    damage kills the doomed."""
    condition = request.condition
    notes: list[str] = []
    spent: dict[str, int] = {}
    new = condition
    if condition in DOOMED and applied > 0:
        new = DEAD
        notes.append(f"already {condition}: any further damage kills (HLT-04)")
    elif result.overflow:
        # HLT-03: bashing past Incapacitated is lethal on the track, so it takes the lethal
        # row (issue 9, defect 9: a shifter bashed on and on must not stay unconscious).
        over = "lethal" if result.converted else plan.damage_type
        table = dsec.get("past_incapacitated") or {}
        row = {**(table.get("default") or {}), **(table.get(plan.family) or {})}
        rule = row.get(over) or row.get("lethal") or "dead"
        rage = sheet.pools.get("Rage")
        if rule == "dying":
            candidate = DYING if rage and rage.current > 0 else DEAD
        elif rule == "rage_or_revert":
            cost = dsec["rage_to_stay_active"]
            if request.stay_active_with_rage and rage and rage.current >= cost:
                sheet = pay_costs(sheet, {"Rage": cost}, "stay active")
                spent["Rage"] = cost
                candidate = RAGE_ACTIVE
            else:
                if request.stay_active_with_rage:
                    notes.append("not enough Rage to stay active: reverts (HLT-04)")
                candidate = REVERTED
        else:
            candidate = {
                "dead": DEAD,
                "torpor": TORPOR,
                "unconscious": UNCONSCIOUS,
                "reverted": REVERTED,
            }[rule]
        if candidate == REVERTED:
            home = breed_form(sheet, ruleset)
            if home and home != sheet.form:
                notes.append(f"reverts to {home} (HLT-04)")
                sheet = replace(sheet, form=home)
        new = candidate if SEVERITY[candidate] > SEVERITY[condition] else condition
    elif down and SEVERITY[condition] < SEVERITY[INCAPACITATED]:
        new = INCAPACITATED  # HLT-02: health 0
        table = dsec.get("past_incapacitated") or {}
        row = {**(table.get("default") or {}), **(table.get(plan.family) or {})}
        if plan.damage_type == "bashing" and row.get("bashing") == "unconscious":
            # HLT-04 READING: a shifter brought to Incapacitated by bashing falls
            # unconscious and keeps its form.
            new = UNCONSCIOUS
    return new, sheet, notes, spent


def health_pool_of(ruleset, sheet: Sheet) -> str | None:
    """DMG-14 (revised): the pool that is this sheet's health instead of the track ("Corpus
    for Wraiths/Risen"), when the ruleset names one for its splat or family and the sheet
    has it; else None (the seven-level track)."""
    return _health_pool(damage_rules(ruleset), sheet, ruleset)


def _health_pool(dr: DamageRules, sheet: Sheet, ruleset) -> str | None:
    hp = dr.health_pool
    if not hp:
        return None
    name = hp.get(sheet.splat) or hp.get(family_of(sheet, ruleset))
    return name if name and sheet.pools.get(name) is not None else None


def is_incapacitated(sheet: Sheet, ruleset) -> bool:
    """HLT-02: health 0, on the track or (DMG-14, revised) in the health pool."""
    name = _health_pool(damage_rules(ruleset), sheet, ruleset)
    if name:
        return sheet.pools[name].current <= 0
    return track_of(sheet, ruleset).incapacitated  # one of the ruleset's built tracks


def _pool_state(name: str, pool: Pool) -> HealthState:
    """A health pool as the log shows it: "Corpus 3" (no wound penalty: the track is
    unmarked)."""
    lost = max(0, pool.permanent - pool.current)
    return HealthState(f"{name} {pool.current}", 0, 0, 0, 0,
                       "X" * lost + " " * max(0, pool.current))


def _corpus_hit(target: Sheet, name: str, plan, applied: int, track: HealthTrack):
    """DMG-14 (revised): "Unsoaked damage decreases target's health (Corpus for
    Wraiths/Risen)": the levels come off the pool instead of the track; past 0 they go
    over as past a full track (HLT-03: bashing becomes lethal)."""
    p = target.pools[name]
    lost = min(applied, max(0, p.current))
    over = applied - lost
    kind = plan.damage_type
    converted = over if kind == "bashing" else 0
    result = Applied(track, lost, converted, over if kind != "aggravated" else 0,
                     over if kind == "aggravated" else 0)
    after = Pool(p.current - lost, p.permanent)
    sheet = replace(target, pools=MappingProxyType({**target.pools, name: after}))
    return result, sheet, _pool_state(name, p), _pool_state(name, after)
