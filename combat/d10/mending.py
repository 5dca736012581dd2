"""Healing in a d10 fight (HEAL-01..10, HLT-08, HLT-09): the pure rules of ``combat/d10/healing.py``
and ``combat/d10/field_healing.py`` played from a declaration or a staff switch.

What heals when (the seeds):

- reflexive, not an action, done the moment it is declared (``+combat/declare heal ...``):
  blood (HEAL-01 vampires, HEAL-02 ghouls, HEAL-05 Ananasi: one blood a level, capped by
  blood per turn), the Ananasi's aggravated healing (HEAL-05), shifter regeneration (HEAL-03:
  once a turn, a reflex Stamina roll in a fight), Rage-healing past Incapacitated (HEAL-04:
  once a scene, even while out of action), ghoul limbs (HEAL-02), a mage's Life effect (HEAL-06,
  one Arete effect a turn), the werewolves' in-combat roll that "can be done automatically"
  (HEAL-09), and Willpower spent to ignore wound penalties for the turn (HLT-08);
- an action, performed in its slot (``+combat/act``): the vampires' and ghouls' in-combat
  healing roll (HEAL-09) and a demon's turn of concentration per Faith (HEAL-08);
- by the clock, outside the turn (``+combat/recover``, organizer/staff): natural healing with
  its medical-care footnote (HLT-09), the breed-form shifter's rate (HEAL-03), changelings'
  tables (HEAL-07) and a vampire's aggravated wounds after a day's rest (HEAL-01).

Every heal emits one ``mend`` event (what was healed, what it cost, how long it takes, the
track before and after) after the roll it made, if any.
"""

from __future__ import annotations

from . import damage as dmg

from .damage_tables import DEAD, INCAPACITATED, OK, family_of

from .wound_penalty import spend_to_ignore_wounds
from . import field_healing as fh
from . import healing as hl
from . import heal_time as ht  # HLT-09, HEAL-07: healing with time
from . import shifter_healing as sh  # HEAL-03/04
from . import powers
from . import scheduler as sch
from ..core.errors import IllegalAction, InputError
from ..core.health import damage_type as parse_type
from ..core.pools import PoolSpec
from .fight import Fight, roll_event
from .spending import keep_spending, spending_of

# how -> what it is, for messages; the action ones take the declared action.
REFLEX = ("blood", "aggravated", "regenerate", "rage", "limb", "life", "wounds", "stay")
ACTIONS = ("faith",)
HOWS = REFLEX + ACTIONS + ("roll",)

# conditions kept on the combatant (names the turn table does not know: no effect there)
REGENERATED = "regenerated"          # HEAL-03: once a turn
NO_REGENERATION = "no_regeneration"  # HEAL-03: a botched roll, until the shifter rests
RAGE_HEALED = "rage_healed"          # HEAL-04: once a scene (this fight)
BERSERK = "berserk"                  # HEAL-04: berserk frenzy from the next turn
IGNORING_WOUNDS = "ignoring_wounds"  # HLT-08: this turn
SALT_WATER = "salt_water"            # HEAL-05: a Rokea immersed in salt water (staff sets it)
ROLLED = "healing_rolled"            # HEAL-09: one in-combat healing roll a turn
STAY_ACTIVE = "stay_active"          # HLT-04: spend Rage to stay up past Incapacitated


def has(f: Fight, key: str, name: str) -> bool:
    c = f.state.get(key)
    return c is not None and any(k.name == name and k.active(f.state.turn)
                                 for k in c.conditions)


def mark(f: Fight, key: str, name: str, turns: int | None = None) -> None:
    """Keep a bookkeeping condition (once a turn, once a scene ...) without announcing it:
    the ``mend`` event says what happened."""
    f.state = sch.add_condition(f.state, key, name, f.rules, turns=turns).state


def is_reflex(f: Fight, key: str, a: dict) -> bool:
    """Whether a declared heal is reflexive (done now) or the declared action."""
    how = a["how"]
    if how == "roll":  # HEAL-09: a werewolf's roll "can be done automatically"
        row = ((f.rules.section("field_healing") or {}).get("in_combat") or {}).get(
            family_of(f.sheet(key), f.rules))
        return bool(row and row.get("reflex"))
    return how in REFLEX


def split(f: Fight, key: str, actions: list[dict]) -> tuple[list[dict], list[dict]]:
    """(the actions to schedule, the reflexive heals to do now)."""
    keep, now = [], []
    for a in actions:
        (now if a.get("kind") == "heal" and is_reflex(f, key, a) else keep).append(a)
    return keep, now


# ---------------------------------------------------------------- events


def _mend(f: Fight, key: str, res: hl.HealResult, how: str, **extra) -> None:
    f.put_sheet(key, res.sheet)
    f.emit("mend", actor=key, how=how, healed=dict(res.healed), cost=dict(res.cost),
           time=res.time, health_before=res.health_before.level,
           health_after=res.health_after.level, flags=sorted(res.flags),
           notes=list(res.notes), **extra)
    back_up(f, key)


def back_up(f: Fight, key: str) -> None:
    """Healed out of Incapacitated (HLT-02): back in the turn. The worse outcomes past it
    (torpor, reverted, dying ...) are changed only by the rule that heals them (HEAL-04)."""
    c = f.state.get(key)
    if c.outcome == INCAPACITATED and not dmg.is_incapacitated(f.sheet(key), f.rules):
        f.put(key, outcome="")
        f.uncondition(key, "incapacitated")


def _roll(f: Fight, key: str, purpose: str, terms, roll) -> None:
    spec = PoolSpec(tuple(terms), (), roll.difficulty)
    f.events.append(roll_event(key, purpose, spec, roll))


def _kind(a: dict, default=None) -> str | None:
    t = a.get("type")
    return parse_type(t) if t else default


# ---------------------------------------------------------------- reflexive


# how -> the `healing:` table it needs and what to call it when the ruleset has none
TABLES = {"blood": ("healers", "blood healing"), "aggravated": ("healers", "blood healing"),
          "regenerate": ("regeneration", "regeneration"), "rage": ("rage_heal", "Rage-healing"),
          "limb": ("limb_regeneration", "regrowing limbs"), "life": ("mage", "Life magic healing")}


def check_table(f: Fight, key: str, how: str) -> None:
    """A ruleset without the table (everyman, v20: the core has no supernatural healing)
    refuses the heal by name, and points to the in-combat roll where the ruleset has one."""
    table, what = TABLES.get(how, (None, ""))
    if table is None or (f.rules.section("healing") or {}).get(table):
        return
    rows = (f.rules.section("field_healing") or {}).get("in_combat") or {}
    roll = (" In a fight: heal roll." if family_of(f.sheet(key), f.rules) in rows else "")
    raise IllegalAction(f"This game's rules have no {what}; wounds heal with time "
                        f"(the organizer's +combat/recover).{roll}")


def reflex(f: Fight, key: str, a: dict) -> None:
    how = a["how"]
    if f.state.get(key).outcome == DEAD:
        raise IllegalAction(f"{f.name(key)} is dead.")
    check_table(f, key, how)
    {"blood": _blood, "aggravated": _aggravated, "regenerate": _regenerate, "rage": _rage,
     "limb": _limb, "life": _life, "wounds": _wounds, "roll": _roll_heal,
     "stay": _stay}[how](f, key, a)


def _blood(f: Fight, key: str, a: dict) -> None:
    """HEAL-01/02/05: one blood a level of bashing or lethal, within blood per turn."""
    sheet = f.sheet(key)
    n = a["levels"]
    track = f.track(key)
    kind = _kind(a)
    if kind == "aggravated":
        raise IllegalAction("Blood heals aggravated wounds differently: heal aggravated.")
    if kind:
        split_ = {kind: n}
    else:  # the worst first: lethal, then bashing
        le = min(n, track.lethal)
        split_ = {"lethal": le, "bashing": n - le}
    spending = spending_of(f, key)
    spent = spending.spent.get("Blood", 0)
    res = hl.heal_with_blood(sheet, f.rules, bashing=split_.get("bashing", 0),
                             lethal=split_.get("lethal", 0), spent_this_turn=spent)
    for pool, cost in res.cost.items():
        keep_spending(f, key, powers.check_spend(f.rules, sheet, spending_of(f, key), pool,
                                                 cost))
    _mend(f, key, res, "blood")


def _aggravated(f: Fight, key: str, a: dict) -> None:
    """HEAL-01: a vampire needs a full day's rest first (staff: /recover ... rested);
    HEAL-05: an Ananasi spends five blood a level, over five turns."""
    sheet = f.sheet(key)
    try:
        res = hl.heal_aggravated_with_blood(sheet, f.rules, levels=a["levels"])
    except IllegalAction as why:
        if "rest" in str(why):
            raise IllegalAction(
                "Aggravated wounds heal with blood only after a full day's rest; after it, "
                "the organizer marks it: +combat/recover <name>=aggravated rested") from None
        raise
    _mend(f, key, res, "aggravated")


def _regenerate(f: Fight, key: str, a: dict) -> None:
    """HEAL-03: a level a turn; a fight is stress, so first a reflex Stamina roll at 8
    (failure: none this turn; botch: none until the shifter rests)."""
    if has(f, key, REGENERATED):
        raise IllegalAction(f"{f.name(key)} has regenerated this turn already (a level a turn).")
    flags = (SALT_WATER,) if has(f, key, SALT_WATER) else ()
    try:
        res = sh.regenerate(f.sheet(key), f.rules, kind=_kind(a), stressed=True,
                            blocked_until_rest=has(f, key, NO_REGENERATION), flags=flags,
                            rng=f.rng)
    except IllegalAction as why:
        if "breed form" not in str(why):
            raise
        raise IllegalAction(f"{why} The organizer marks it by time: +combat/recover "
                            f"{f.name(key)}=<type>.") from None
    if res.roll is not None:
        stress = (f.rules.section("healing").get("regeneration") or {}).get("stress_roll")
        _roll(f, key, "regeneration",
              [(stress["trait"], f.sheet(key).rating(f.rules.traits, stress["trait"]))],
              res.roll)
    mark(f, key, REGENERATED, turns=1)
    if "no_regeneration_until_rest" in res.flags:
        mark(f, key, NO_REGENERATION)
    _mend(f, key, res, "regenerate")


def _rage(f: Fight, key: str, a: dict) -> None:
    """HEAL-04: once a scene, past Incapacitated: Rage at 8, each success a level counted
    back from Incapacitated; berserk frenzy from the next turn. Works out of action."""
    c = f.state.get(key)
    sheet = f.sheet(key)
    condition = f.outcome_of(key, sheet)
    res = sh.rage_heal(sheet, f.rules, condition=condition,
                       used_this_scene=has(f, key, RAGE_HEALED), rng=f.rng)
    pool = (f.rules.section("healing").get("rage_heal") or {}).get("pool")
    _roll(f, key, "rage healing", [(pool, sheet.pools[pool].current)], res.roll)
    mark(f, key, RAGE_HEALED)
    f.put_sheet(key, res.sheet)
    new = res.condition or condition
    if new == OK:
        f.put(key, outcome="")
        f.uncondition(key, "incapacitated")
    elif new != c.outcome:
        f.set_outcome(key, new)
    if "berserk_frenzy" in res.flags:
        # READING: marked now, through the end of the next turn (it starts next turn).
        mark(f, key, BERSERK, turns=2)
    f.emit("mend", actor=key, how="rage", healed=dict(res.healed), cost={}, time=res.time,
           health_before=res.health_before.level, health_after=res.health_after.level,
           flags=sorted(res.flags), notes=list(res.notes), outcome=new)


def _limb(f: Fight, key: str, a: dict) -> None:
    """HEAL-02: a ghoul regrows a part: a Willpower, 1-3 blood and Stamina at 8 (less a
    century of age each); failure: that part never regrows."""
    sheet = f.sheet(key)
    res = hl.regenerate_limb(sheet, f.rules, part=a["part"], age_years=a.get("age", 0),
                             rng=f.rng)
    sec = f.rules.section("healing").get("limb_regeneration") or {}
    _roll(f, key, "regrow a limb", [(sec["trait"], sheet.rating(f.rules.traits, sec["trait"]))],
          res.roll)
    _mend(f, key, res, "limb", part=a["part"])


def _life(f: Fight, key: str, a: dict) -> None:
    """HEAL-06: the levels the mage's Arete roll won (rolled with +roll, an ordinary magic
    roll); healing another takes Life 3, aggravated is vulgar and costs Quintessence. One
    Arete effect a turn (PWR-03)."""
    caster = f.sheet(key)
    other = a.get("target")
    if other == key:
        other = None
    target = f.sheet(other) if other else None
    res = hl.mage_heal(caster, f.rules, kind=a.get("type") or "lethal", levels=a["levels"],
                       target=target)
    keep_spending(f, key, powers.check_effect(f.rules, caster, spending_of(f, key), "arete"))
    if other:
        f.put_sheet(key, res.payer)
        _mend(f, other, res, "life", healer=key)
    else:
        _mend(f, key, res, "life")


def _wounds(f: Fight, key: str, a: dict) -> None:
    """HLT-08: a Willpower ignores wound penalties for this turn (not when incapacitated)."""
    sheet = f.sheet(key)
    paid = spend_to_ignore_wounds(sheet, f.rules)  # refused once incapacitated
    if has(f, key, IGNORING_WOUNDS):
        raise IllegalAction(f"{f.name(key)} already ignores wound penalties this turn.")
    f.put_sheet(key, paid)
    mark(f, key, IGNORING_WOUNDS, turns=1)
    f.emit("spend", actor=key, pool="Willpower",
           amount=sheet.pools["Willpower"].current - paid.pools["Willpower"].current,
           purpose="ignore wound penalties this turn", left=paid.pools["Willpower"].current)


def _stay(f: Fight, key: str, a: dict) -> None:
    """HLT-04 (numetal): a shifter taken past Incapacitated by lethal damage "may spend Rage
    to remain active". Damage comes in the middle of someone else's action, so the choice
    is made ahead: it stands for the rest of the fight (``stay off`` takes it back)."""
    sheet = f.sheet(key)
    if a.get("off"):
        f.uncondition(key, STAY_ACTIVE)
        f.emit("stay_active", actor=key, on=False)
        return
    if family_of(sheet, f.rules) != "shifter" or "Rage" not in sheet.pools:
        raise IllegalAction("Only a shifter with Rage can stay active on Rage.")
    table = (f.rules.section("damage") or {}).get("past_incapacitated") or {}
    if (table.get("shifter") or {}).get("lethal") != "rage_or_revert":
        raise IllegalAction("In this game a shifter past Incapacitated reverts to breed form; "
                            "Rage cannot keep it up.")
    mark(f, key, STAY_ACTIVE)
    f.emit("stay_active", actor=key, on=True,
           cost=(f.rules.section("damage") or {}).get("rage_to_stay_active"))


def staying(f: Fight, key: str) -> bool:
    return has(f, key, STAY_ACTIVE)


def _roll_heal(f: Fight, key: str, a: dict) -> None:
    """HEAL-09: the in-combat healing roll (everyman); once a turn, reflex or action."""
    if has(f, key, ROLLED):
        raise IllegalAction(f"{f.name(key)} has made a healing roll this turn already.")
    mark(f, key, ROLLED, turns=1)
    sheet = f.sheet(key)
    ignore = has(f, key, IGNORING_WOUNDS)  # HLT-08
    res = fh.combat_heal(f.rules, sheet, kind=_kind(a), rng=f.rng, ignore_wounds=ignore)
    spec = fh.combat_heal_pool(f.rules, sheet, ignore_wounds=ignore)
    f.events.append(roll_event(key, "healing", spec, res.roll))
    _mend(f, key, res, "roll")


# ---------------------------------------------------------------- actions


def check(f: Fight, key: str, a: dict) -> None:
    """At declaration: what can be refused now is refused now (issue 9, defect 22)."""
    how = a["how"]
    sheet = f.sheet(key)
    if how == "faith":
        sec = (f.rules.section("field_healing") or {}).get("demon")
        if not sec:
            raise IllegalAction("This game's rules have no Faith healing.")
        if family_of(sheet, f.rules) not in sec.get("families", ()):
            raise IllegalAction("Only demons heal by spending Faith.")
        pool = sheet.pools.get(sec["pool"])
        if pool is None or pool.current < 1:
            raise IllegalAction(f"{f.name(key)} has no {sec['pool']} to spend.")
        # READING (HEAL-08): one Faith per declared turn of concentration; the damage taken
        # since declaring it is what interrupts it.
        a["hurt"] = f.track(key).damage
    elif how == "roll":
        rows = (f.rules.section("field_healing") or {}).get("in_combat")
        if not rows:
            raise IllegalAction("This game's rules have no in-combat healing roll.")
        if family_of(sheet, f.rules) not in rows:
            raise IllegalAction(f"Only these heal in combat with a roll: {', '.join(rows)}.")


def act(f: Fight, key: str, action: dict) -> None:
    how = action["how"]
    if how == "roll":
        _roll_heal(f, key, action)
        return
    # HEAL-08: damaged during the turn of concentration: fails, Faith kept.
    damaged = f.track(key).damage > action.get("hurt", f.track(key).damage)
    kind = _kind(action)
    if kind is None:
        track = f.track(key)
        kind = "lethal" if track.lethal else "bashing"
    res = fh.demon_heal(f.rules, f.sheet(key), faith=1, kind=kind, damaged=damaged)
    _mend(f, key, res, "faith")


# ---------------------------------------------------------------- by the clock


PLACES = ht.PLACES


def recover(f: Fight, key: str, kind: str, *, place: str = "mundane",
            chimerical: bool = False, rested: bool = False, levels: int = 1) -> None:
    """Time-based healing marked by the organizer: one level of ``kind`` (a vampire's
    aggravated wounds after a day's rest: ``levels``), with the time it takes and the care
    it needs (HLT-09 footnotes, HEAL-03 breed form, HEAL-07 changelings)."""
    kind = parse_type(kind)
    if place not in PLACES:
        raise InputError(f"'{place}' is not a place: use one of {', '.join(PLACES)}.")
    sheet = f.sheet(key)
    fam = family_of(sheet, f.rules)
    if rested:
        if kind != "aggravated":
            raise InputError("'rested' is for aggravated wounds healed with blood.")
        res = hl.heal_aggravated_with_blood(sheet, f.rules, levels=levels, rested=True)
        _mend(f, key, res, "aggravated", by=f.by)
        return
    if isinstance(levels, bool) or levels != 1:
        raise InputError("Time heals one level at a time: +combat/recover <name>=<type>.")
    if fam == "changeling" and (f.rules.section("healing") or {}).get("changeling"):
        # HEAL-07's tables where the ruleset has them; elsewhere the health table (HLT-09).
        t = ht.changeling_heal_time(sheet, f.rules, kind, chimerical=chimerical, place=place)
    else:
        if chimerical or place != "mundane":
            raise InputError("Chimerical wounds, freeholds and the Dreaming are for "
                             "changelings.")
        t = ht.natural_heal_time(sheet, f.rules, kind)
    before = f.track(key)
    after = before.heal(kind, 1)
    f.put_sheet(key, sheet.with_health(after))
    f.emit("mend", actor=key, how="time", healed={kind: 1}, cost={}, time=t.text,
           health_before=dmg.HealthState.of(before).level,
           health_after=dmg.HealthState.of(after).level, flags=[], notes=list(t.notes),
           needs=t.needs, by=f.by)
    back_up(f, key)
