"""Declaring (TURN-01/02): what is spent before the actions, and the actions checked against
the sheet before they are stored, so a refused declaration changes nothing.

Each declared action is checked by its kind's class (``actions/``), then what spans the
turn (the weapons' readiness, a stake, the Kiss, the first attack's pool). Activations come
next (MAN-07 Celerity, MAN-08 Rage, PWR-01..04 spending and effects, RNG-03 cover: where you
stand is not an action), then the actions go to the scheduler.
"""

from __future__ import annotations

from .dazed import daze_pool, daze_pools
from . import powers
from . import scheduler as sch
from ..core.errors import IllegalAction, InputError
from ..core.maneuver_schemas import COVER
from ..core.maneuvers import tables
from ..core.values import replace
from . import ambush, close, foresee, kiss, mending, ranged, rolls, split_dice, timepower
from .actions import action_for
from .fight import Fight
from .spending import keep_spending, pay, spending_of


def declare(f: Fight, key: str, actions, activations, desperate: bool) -> None:
    c = f.state.find(key)
    # HEAL-*, HLT-08: reflexive healing is done now, not scheduled as an action.
    actions, heals = mending.split(f, key, [dict(a) for a in actions])
    activations = rolls.fold_spend(f, actions, [dict(a) for a in activations])
    rolls.check(f, key, actions)
    check_actions(f, key, actions, activations)
    for a in activations:  # spent before declaring (TURN-02, MAN-07/08)
        if a["activate"] == "ambush":  # MAN-01: resolves at once, ahead of everyone
            ambush.spring(f, key, dict(a), alone=len(activations) == 1 and not actions)
            continue
        activate(f, key, dict(a))
    for a in heals:
        mending.reflex(f, key, a)
    for a in actions:  # the extra sources are known now that Rage was spent
        if a.get("extra") and a["extra"] not in ("celerity", "rage"):
            a["extra"] = extra_source(f, key)
    if not actions:
        return
    if "pass" in [a["kind"] for a in actions]:
        if len(actions) > 1:
            raise InputError("'pass' is a whole turn of nothing; declare it alone.")
        f.run(sch.skip(f.state, key, f.rules))
        return
    st = f.state
    # TURN-05: in the simple mode the runner declares NPCs at the start of the turn.
    early = (c.is_npc and st.options.mode == "simple" and not c.delayed
             and dict(sch.prompts(st)).get(key) != "declare")
    try:
        f.run(sch.declare(st, key, actions, f.rules, desperate=desperate, early=early))
    except IllegalAction as why:
        raise IllegalAction(f"{why}{_shake_hint(f, key)}") from None
    split_dice.warn_empty(f, key)


def check_actions(f: Fight, key: str, actions: list[dict], activations=()) -> None:
    """The declared actions against the sheet and the fight: each by its kind's own checks
    (``actions/<kind>.py``), then what spans the declaration. Also a TURN-10 change's."""
    for a in actions:
        action_for(a["kind"]).check(f, key, a, actions)
    ranged.check_readiness(f, key, actions)  # RNG-04/06, ATK-07/08: the turn's shots
    close.check_staked(f, key, actions, activations)  # MAN-11
    kiss.check_helpless(f, key, actions)  # CLOSE-14
    foresee.check_attacks(f, key, actions)


def _shake_hint(f: Fight, key: str) -> str:
    """COMP-02 (everyman): a dazed character told it loses its actions learns the way out."""
    c = f.state.find(key)
    if not c.lost or "dazed" not in sch.active_conditions(c, f.state.turn):
        return ""
    mine = daze_pools(f.sheet(key), f.rules)
    if not mine:
        return ""
    return f" A point of {' or '.join(mine)} shakes it off: shake {mine[0].lower()}."


def extra_source(f: Fight, key: str) -> str:
    """Which granted source an ``extra <action>`` uses: Celerity, then Rage."""
    granted = f.state.get(key).extras
    for src in ("celerity", "rage", timepower.SOURCE):
        if granted.get(src):
            return src
    raise IllegalAction(f"{f.name(key)} has no extra actions this turn: Celerity (activated "
                        f"the turn before), rage <n> or a time power first.")


def activate(f: Fight, key: str, a: dict) -> None:
    what = a["activate"]
    sheet = f.sheet(key)
    if what == "celerity":  # MAN-07
        dots = sheet.rating(f.rules.traits, "Celerity")
        if dots < 1:
            raise IllegalAction(f"{f.name(key)} has no Celerity.")
        step = sch.activate_celerity(f.state, key, dots, f.rules)
        spend = next(e["spend"] for e in step.events if e.get("event") == "extra_actions")
        f.run(step)
        pay(f, key, spend["pool"], spend["amount"], "celerity")
        f.emit("activate", actor=key, power="celerity", dots=dots)
    elif what == "rage":  # MAN-08
        cat = f.rules.traits
        rage = sheet.pools.get("Rage")
        if rage is None:
            raise IllegalAction(f"{f.name(key)} has no Rage to spend.")
        step = sch.spend_rage(f.state, key, a["amount"], f.rules, rage=rage.permanent,
                              dex=sheet.rating(cat, "Dexterity"), wits=sheet.rating(cat, "Wits"))
        spend = next(e["spend"] for e in step.events if e.get("event") == "extra_actions")
        f.run(step)
        pay(f, key, spend["pool"], spend["amount"], "extra actions")
        f.emit("activate", actor=key, power="rage", amount=a["amount"])
    elif what == "cover":
        set_cover(f, key, a["level"])
    elif what == "effect":  # PWR-03 one Arete effect, PWR-04 one Lore evocation a turn
        spending = powers.check_effect(f.rules, sheet, spending_of(f, key), a["what"],
                                       item=a.get("item", ""))
        keep_spending(f, key, spending)
        f.emit("effect", actor=key, kind=a["what"], item=a.get("item", ""))
    elif what == "spend":
        pay(f, key, a["pool"], a["amount"], "power")
    elif what == "time":  # MAN-09
        timepower.activate(f, key, a["power"], a["amount"])
    elif what == "blindfight":  # COMP-01 / MAN-12
        close.blind_fight(f, key, a["use"])
    elif what == "shake":  # COMP-02
        shake_daze(f, key, a["pool"])
    else:
        raise InputError(f"'{what}' is not something to spend or activate.")


def shake_daze(f: Fight, key: str, pool: str) -> None:
    """COMP-02 (everyman, seed 002 Dazing): a point of a pool the rules let this family spend
    ignores the daze, at once (not an action), before or during the turn it would cost."""
    if not any(k.name == "dazed" for k in f.state.find(key).conditions):
        raise IllegalAction(f"{f.name(key)} is not dazed.")
    canon = daze_pool(f.sheet(key), f.rules, pool)
    pay(f, key, canon, 1, "shake off the daze")
    f.run(sch.remove_condition(f.state, key, "dazed", f.rules))


def set_cover(f: Fight, key: str, level: str, by: str | None = None) -> None:
    """RNG-03: the cover stays on the combatant until changed; the attack engine reads it
    for shots at them (+to be hit) and from them (+to hit out)."""
    if level not in COVER:
        raise InputError(f"Cover is one of: {', '.join(COVER)}, e.g. cover good.")
    f.set_gear(key, replace(f.gear(key), cover=level))
    row = (tables(f.rules).ranged.get("cover") or {}).get(level) or {}
    ev = {"actor": key, "cover": level, "to_be_hit": row.get("to_be_hit", 0),
          "to_hit": row.get("to_hit", 0)}
    if by:
        ev["by"] = by
    f.emit("cover", **ev)
