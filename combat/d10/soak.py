"""The soak pool (DMG-04..11, DMG-13, DMG-15, DICE-10): which family's cell of the soak table a
target rolls, the terms a condition leaves out, armor (DMG-11), shifters' breed forms and
metal vulnerabilities (DMG-09/10), damage sources and their conversions, and whether an
"unsoakable" effect really skips the roll. ``soak_pool`` returns the pool with the reason for
every term left out, or None when nothing soaks this damage; ``can_soak`` answers DMG-16's
"unless you can soak it".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from ..core.errors import InputError
from ..core.health import damage_type as parse_damage_type
from ..core.pools import Modifier, PoolSpec
from ..core.sheet import Sheet

from .damage_tables import _VULN, family_of, require_section


@dataclass(frozen=True, slots=True)
class SoakPool:
    """A soak pool with its reasons: terms (trait, dots) and armor, bonuses kept, penalties
    dropped (DICE-10), and a note for every term the rules left out."""

    family: str
    damage_type: str  # the type soaked, after conversions
    spec: PoolSpec
    dropped: tuple[Modifier, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def dice(self) -> int:
        return self.spec.dice

    @property
    def difficulty(self) -> int:
        return self.spec.difficulty

    def as_dict(self) -> dict:
        return {
            "family": self.family,
            "damage_type": self.damage_type,
            "terms": [list(t) for t in self.spec.terms],
            "modifiers": [m.as_dict() for m in self.spec.modifiers],
            "dropped": [m.as_dict() for m in self.dropped],
            "dice": self.dice,
            "difficulty": self.difficulty,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class ShifterSoak:
    """DMG-09 / DMG-10 for one hit on a shifter: the type it takes and whether Stamina soaks."""

    damage_type: str
    stamina: bool
    difficulty: int | None  # None: the usual soak difficulty
    metal: str | None  # the metal it is vulnerable to that touched it
    in_breed_form: bool
    notes: tuple[str, ...] = ()


def _soak_family(ruleset, family: str) -> str:
    sec = require_section(ruleset, "soak")
    return family if family in sec["families"] else sec["default_family"]


def _answers(memo, ruleset) -> dict | None:
    """The answers a ``Memo`` (combat/core/memo.py) keeps for ``ruleset``: rule-table answers on
    plain values (a source name, a sheet's splat/race/breed/form) and soak pools, which
    every hit asks again (bench/engine.py). None without a memo: compute each time."""
    return None if memo is None else memo.for_ruleset(ruleset)


def source_tags(ruleset, source: str, materials: Iterable[str] = (), *,
                memo=None) -> tuple[str, ...]:
    """Canonical source names, the weapon kind first; unknown names are an InputError."""
    materials = tuple(materials)
    memo = _answers(memo, ruleset)
    if memo is None:
        return _source_tags(ruleset, source, materials)
    key = ("tags", source, materials)
    try:
        return memo[key]
    except (KeyError, TypeError):
        pass
    tags = _source_tags(ruleset, source, materials)
    try:
        memo[key] = tags
    except TypeError:  # an unhashable name: just computed
        pass
    return tags


def _source_tags(ruleset, source, materials: tuple) -> tuple[str, ...]:
    sec = require_section(ruleset, "damage")
    known = sec.get("sources") or ()
    aliases = sec.get("source_aliases") or {}
    out = []
    for name in (source, *materials):
        key = " ".join(str(name).lower().split())
        key = aliases.get(key, key)
        if known and key not in known:
            raise InputError(
                f"'{name}' is not a damage source here. Use one of: {', '.join(known)}."
            )
        if key not in out:
            out.append(key)
    return tuple(out)


def _shifters(ruleset) -> dict:
    return require_section(ruleset, "shifters")


def _breed(sheet: Sheet, sec: dict) -> str:
    return (sheet.breed or sec["default_breed"]).lower()


def breed_form(sheet: Sheet, ruleset) -> str:
    """The form a shifter reverts to (HLT-04): from splats' forms and shifters.breed_form.
    Empty when the race has no forms on record."""
    sec = _shifters(ruleset)
    spec = ruleset.traits.splats.get(sheet.splat) or {}
    forms = (spec.get("forms") or {}).get(sheet.race) or ()
    if not forms:
        return ""
    how = sec["breed_form"].get(_breed(sheet, sec), "first")  # a breed not named: first
    if how == "last":
        return forms[-1]
    if how == "metis":
        return sec["metis_form"].get(sheet.race, forms[len(forms) // 2])  # none: the middle
    return forms[0]


def in_weak_breed_form(sheet: Sheet, ruleset) -> bool:
    """DMG-09 / HEAL-03: a homid or lupus (or equivalent) in its breed form. A sheet with no
    form recorded is taken to be in its breed form. Metis have no weak breed form."""
    sec = _shifters(ruleset)
    if _breed(sheet, sec) not in (sec.get("weak_breeds") or ()):
        return False
    home = breed_form(sheet, ruleset)
    return not sheet.form or not home or sheet.form.lower() == home.lower()


def shifter_soak(ruleset, sheet: Sheet, damage_type: str, tags: Iterable[str]) -> ShifterSoak:
    """DMG-09, DMG-10 (seed 000, "When does a Shifter's Stamina apply to soak?", W20 p. 255)."""
    sec = _shifters(ruleset)
    weak = in_weak_breed_form(sheet, ruleset)
    where = "breed_form" if weak else "other_forms"
    vuln = (sec.get("vulnerability") or {}).get(sheet.race)
    notes = []
    if vuln is None:
        vuln = sec.get("default_vulnerability") or _VULN.fill({"metals": {}})
        if sheet.race:
            notes.append(f"{sheet.race} not in the vulnerability table: default used")
    metal = next((t for t in tags if t in vuln["metals"]), None)
    form_txt = "breed form" if weak else "not breed form"
    if metal:
        case = sec["metal_rules"][vuln["metals"][metal]][where]
        new_type = case["damage_type"] or damage_type
        if not vuln["confirmed"]:
            notes.append(
                f"{sheet.race} {metal} vulnerability is a documented default "
                f"({vuln['note']})"
            )
        stamina = case["stamina"]
        notes.append(
            f"{metal} on {sheet.race or 'shifter'} ({form_txt}): {new_type}, "
            f"Stamina {'soaks' if stamina else 'does not soak'} (DMG-09)"
        )
        return ShifterSoak(
            new_type, stamina, case.get("soak_difficulty"), metal, weak, tuple(notes)
        )
    stamina = damage_type in sec["stamina"][where]
    if not stamina:
        notes.append(f"{form_txt}: Stamina does not soak {damage_type} (DMG-09)")
    return ShifterSoak(damage_type, stamina, None, None, weak, tuple(notes))


@dataclass(frozen=True, slots=True)
class _Plan:
    family: str  # the splat's family
    soak_family: str  # the soak table row used (DMG-05: unknown = mortal)
    damage_type: str
    conversions: tuple[str, ...]
    shifter: ShifterSoak | None


def _plan(ruleset, sheet: Sheet, damage_type: str, tags: tuple[str, ...], head_shot: bool,
          memo) -> _Plan:
    """Kept in the memo on the sheet's splat, race, breed and form: ``_make_plan`` must
    read nothing else from the sheet (ratings and pools belong in ``_soak``)."""
    memo = _answers(memo, ruleset)
    if memo is None:
        return _make_plan(ruleset, sheet, damage_type, tags, head_shot)
    key = ("plan", sheet.splat, sheet.race, sheet.breed, sheet.form, damage_type, tuple(tags),
           bool(head_shot))
    plan = memo.get(key)
    if plan is None:
        plan = memo[key] = _make_plan(ruleset, sheet, damage_type, tags, head_shot)
    return plan


def _make_plan(ruleset, sheet: Sheet, damage_type: str, tags: tuple[str, ...],
               head_shot: bool) -> _Plan:
    dsec = require_section(ruleset, "damage")
    family = family_of(sheet, ruleset)
    dtype = damage_type
    notes = []
    # DMG-15: a family may take some sources as another type (vampire: firearms bashing).
    for rule in dsec["conversions"].get(family, ()):  # a family not named converts nothing
        if rule["source"] not in tags:
            continue
        if rule.get("unless") == "head_shot" and head_shot:
            notes.append(f"{rule['source']} aimed at the head: stays {dtype} (DMG-15)")
            continue
        if rule["to"] != dtype:
            notes.append(f"{family}: {rule['source']} is {rule['to']}, not {dtype} (DMG-15)")
            dtype = rule["to"]
    shifter = None
    if family == "shifter" and ruleset.section("shifters") is not None:
        shifter = shifter_soak(ruleset, sheet, dtype, tags)
        if shifter.damage_type != dtype:
            notes.append(f"{shifter.metal}: {dtype} becomes {shifter.damage_type} (DMG-09)")
            dtype = shifter.damage_type
    return _Plan(family, _soak_family(ruleset, family), dtype, tuple(notes), shifter)


def _holds(condition: str, sheet: Sheet, plan: _Plan, flags: frozenset[str]) -> bool:
    if condition == "has_vitae":  # DMG-06: "unless out of Vitae"
        blood = sheet.pools.get("Blood")
        return bool(blood and blood.current > 0)
    if condition == "shifter_stamina":  # DMG-09
        return plan.shifter.stamina if plan.shifter else True
    if condition == "always":  # a child ruleset lifting a parent's term_if (merge keeps keys)
        return True
    return condition in flags


def _soak(
    ruleset,
    sheet: Sheet,
    plan: _Plan,
    *,
    armor_rating: int,
    armor_applies: bool,
    unarmored_part: bool,
    unsoakable: bool,
    flags: frozenset[str],
    modifiers: Iterable[Modifier],
) -> tuple[SoakPool | None, bool]:
    """The soak pool (or None) and whether armor went into it."""
    if unsoakable:
        return None, False
    sec = require_section(ruleset, "soak")
    cell = sec["families"][plan.soak_family][plan.damage_type]
    notes: list[str] = list(plan.shifter.notes if plan.shifter else ())
    if plan.soak_family != plan.family:
        notes.append(f"{plan.family} not in the soak table: soaks as {plan.soak_family} (DMG-05)")
    terms, race_can = _race_terms(ruleset, cell, sheet, plan, flags, notes)
    # DMG-11: armor adds to soak, unless it does not cover this damage or this body part.
    armor_in = armor_rating > 0 and _armor_soaks(sec["armor"], armor_applies, unarmored_part,
                                                 race_can, plan.damage_type, notes)
    if armor_in:
        terms.append(("armor", armor_rating))
    if not race_can and not armor_in:
        return None, False
    kept, dropped = _soak_modifiers(require_section(ruleset, "damage"), modifiers)
    difficulty = sec.get("difficulty") or ruleset.dice.base_difficulty
    if plan.shifter and plan.shifter.difficulty:
        difficulty = plan.shifter.difficulty  # DMG-10: Kitsune soak silver at 8
        notes.append(f"soak difficulty {difficulty} against {plan.shifter.metal} (DMG-10)")
    spec = PoolSpec(tuple(terms), (), difficulty).plus(*kept)
    return SoakPool(plan.family, plan.damage_type, spec, tuple(dropped), tuple(notes)), armor_in


def _race_terms(ruleset, cell, sheet: Sheet, plan: _Plan, flags: frozenset[str],
                notes: list[str]) -> tuple[list[tuple[str, int]], bool]:
    """DMG-04..06: the terms the family's cell of the soak table gives (each a condition may
    leave out, noted), and whether the race soaks this damage at all."""
    terms: list[tuple[str, int]] = []
    race_can = cell is not None
    if cell is not None and cell.get("only_if") and not _holds(cell["only_if"], sheet, plan, flags):
        notes.append(
            f"{plan.soak_family} soaks {plan.damage_type} only when {cell['only_if']} (DMG-05)"
        )
        race_can = False
    if race_can:
        for trait in cell["terms"]:
            cond = (cell.get("term_if") or {}).get(trait)
            if cond and not _holds(cond, sheet, plan, flags):
                if cond == "has_vitae":
                    notes.append(f"{trait} left out: out of Vitae (DMG-06)")
                elif cond != "shifter_stamina":  # the shifter note already says why
                    notes.append(f"{trait} left out: not {cond}")
                continue
            terms.append((trait, sheet.rating(ruleset.traits, trait)))
    elif cell is None:
        notes.append(f"{plan.soak_family} cannot soak {plan.damage_type} (DMG-05)")
    return terms, race_can


def _armor_soaks(armor: Mapping, applies: bool, unarmored_part: bool, race_can: bool,
                 damage_type: str, notes: list[str]) -> bool:
    """DMG-11: whether worn armor adds to this soak (each reason it does not, noted)."""
    if not applies:
        notes.append("armor does not stop this kind of damage (DMG-11)")
    elif unarmored_part:
        notes.append("an unarmored part was targeted: no armor (DMG-11)")
    elif damage_type not in armor["adds_to"]:
        notes.append(f"armor does not soak {damage_type} here (DMG-11)")
    elif not race_can and not armor["even_when_race_cannot_soak"]:
        notes.append("armor only adds to a soak the race already has (DMG-11)")
    else:
        return True
    return False


def _soak_modifiers(dsec: Mapping, modifiers: Iterable[Modifier]
                    ) -> tuple[list[Modifier], list[Modifier]]:
    """DICE-10: (kept, dropped): dice penalties (wounds, multiple actions) never reduce soak
    pools (unless ``penalties_reduce_soak``); a penalty's difficulty part stays."""
    kept, dropped = [], []
    for m in modifiers:
        if m.dice < 0 and not dsec["penalties_reduce_soak"]:
            dropped.append(m)
            if m.difficulty:
                kept.append(Modifier(m.reason, 0, m.difficulty))
        else:
            kept.append(m)
    return kept, dropped


def _soak_memo(ruleset, sheet: Sheet, plan: _Plan, armor_rating: int, armor_applies: bool,
               unarmored_part: bool, unsoakable: bool, flags: frozenset[str],
               modifiers: tuple, memo) -> tuple[SoakPool | None, bool]:
    """``_soak`` through the memo: the pool is a pure function of the plan, the sheet's
    value but its health marks (``Sheet.soak_value``) and these inputs, and every hit (and
    every DMG-16 block) asks it. The entry holds the plan, so its id is not reused while
    the entry lives."""
    answers = _answers(memo, ruleset)
    try:
        key = ("soak", id(plan), memo.sheet_number(sheet, soak=True), armor_rating,
               armor_applies, unarmored_part, unsoakable, flags, modifiers)
        hit = answers.get(key)
    except (TypeError, AttributeError):  # no memo, an unhashable modifier, not a Sheet

        hit = key = None
    if hit is not None and hit[0] is plan:
        return hit[1]
    value = _soak(ruleset, sheet, plan, armor_rating=armor_rating, armor_applies=armor_applies,
                  unarmored_part=unarmored_part, unsoakable=unsoakable, flags=flags,
                  modifiers=modifiers)
    if key is not None:
        answers[key] = (plan, value)
    return value


def soak_pool(
    ruleset,
    sheet: Sheet,
    damage_type: str,
    *,
    source: str = "other",
    materials: Iterable[str] = (),
    head_shot: bool = False,
    armor_rating: int = 0,
    armor_applies: bool = True,
    unarmored_part: bool = False,
    unsoakable: bool = False,
    chimerical: bool = False,
    flags: Iterable[str] = (),
    modifiers: Iterable[Modifier] = (),
    memo=None,
) -> SoakPool | None:
    """DMG-04..DMG-11, DMG-15, DICE-10: the pool the target rolls, or None if nothing soaks.
    ``memo`` (combat/core/memo.py) spares building the same pools again."""
    dtype = parse_damage_type(damage_type)
    tags = source_tags(ruleset, source, materials, memo=memo)
    plan = _plan(ruleset, sheet, dtype, tags, head_shot, memo)
    flagset = frozenset(flags) | ({"chimerical"} if chimerical else frozenset())
    pool, _ = _soak_memo(ruleset, sheet, plan, max(0, armor_rating), armor_applies,
                         unarmored_part, unsoakable, flagset, tuple(modifiers), memo)
    return pool


def can_soak(ruleset, sheet: Sheet, damage_type: str, **kwargs) -> bool:
    """True when the target has soak dice against this damage (DMG-16 asks this)."""
    pool = soak_pool(ruleset, sheet, damage_type, **kwargs)
    return pool is not None and pool.dice > 0


def can_soak_worn(ruleset, sheet: Sheet, damage_type: str, armor_rating: int, memo) -> bool:
    """``can_soak`` against an attack's damage (no source, flags or modifiers) with the
    armor worn (DMG-16: worn armor soaks lethal too, so it lets a mortal block), kept in
    the memo by the sheet's soak value: a block asks it on every attack."""
    answers = _answers(memo, ruleset)
    try:
        key = ("can_soak", memo.sheet_number(sheet, soak=True), damage_type, armor_rating)
        hit = answers.get(key)
    except (TypeError, AttributeError):  # no memo, an unhashable input, not a Sheet
        return can_soak(ruleset, sheet, damage_type, armor_rating=armor_rating, memo=memo)
    if hit is None:
        hit = answers[key] = can_soak(ruleset, sheet, damage_type, armor_rating=armor_rating,
                                      memo=memo)
    return hit


def unsoakable_applies(ruleset, *, enemy_hit_by_success: bool,
                       victim_soaks_anything: bool = False) -> bool:
    """DMG-13: whether damage a power calls "unsoakable" really skips the soak roll.

    revised: against an enemy hit by your successful action the word is ignored (the enemy
    soaks by damage type as usual); against you or an ally, from a failed or mixed-blessing
    action, it applies as written; someone explicitly able to soak any damage still soaks.
    Default (``as_written``): the word always applies. Pass the result as ``unsoakable``."""
    sec = require_section(ruleset, "damage")["unsoakable"]
    if victim_soaks_anything and sec["soak_anything_wins"]:
        return False
    if enemy_hit_by_success and sec["enemy_hit_by_success"] == "ignore":
        return False
    return True
