"""Acting, delaying, defending and passing (TURN-03/04/06/07/09, DEF-04)."""

from __future__ import annotations

from ...core.errors import IllegalAction, InputError
from ...core.events import Event
from ...core.pools import Modifier
from ...core.values import copier, replace
from ..state import Combatant, CombatState
from .penalties import action_penalties
from .phases import (
    Draft,
    check_live,
    finish,
    finish_spent,
    lost_reason,
    mods_dicts,
    names_of,
    next_index,
    put_combatant,
    waiting_of,
    window,
)
from .rules import Step, TurnRules, turn_rules

# ---------------------------------------------------------------- acting


def _why_not_act(st: CombatState, c: Combatant, waiting: dict, rules: TurnRules) -> str:
    if st.phase not in ("act", "extra"):
        return (
            f"Nobody acts until everyone has declared (TURN-01/TURN-03); waiting for "
            f"{names_of(st, waiting)} ({st.phase})."
        )
    if next_index(c, st.phase) is None:
        unused = [i for i in range(len(c.actions)) if i not in c.used]
        if st.phase == "act" and any(i >= c.main and i not in c.reactive for i in unused):
            waits = [i for i in unused if i < c.main and i in c.reactive]
            if waits:  # "dodge; attack Bob": nothing was taken yet, the dodge waits
                return (
                    f"{c.name}'s {c.actions[waits[0]]['kind']} resolves when {c.name} is "
                    f"attacked; the other actions come in the extra phase (TURN-06/07)."
                )
            return (
                f"{c.name} has taken the main-phase action; the other actions come in the "
                f"extra phase (TURN-06/07)."
            )
        if any(i in c.reactive for i in unused) or c.desperate:
            return (
                f"{c.name}'s remaining declared actions are defenses: they resolve when "
                f"{c.name} is attacked."
            )
        if not c.declared and st.options.mode == "classic":
            return f"{c.name} declared nothing this turn."
        return f"{c.name} has no declared action left this turn."
    return (
        f"Not {c.name}'s turn: waiting for {names_of(st, waiting)} (highest initiative acts "
        f"first, TURN-03). Only a character who delayed may act out of turn (TURN-04); "
        f"to defend now, abort (TURN-08)."
    )


def _act_checks(state: CombatState, key: str, ruleset, rules: TurnRules, willpower: bool,
                power: str | None):
    """What ``act`` checks before anything changes: (combatant, index, action, interrupt,
    waiting), or IllegalAction saying why ``key`` cannot act now."""
    check_live(state)
    c = state.find(key)
    if c.lost:
        raise IllegalAction(lost_reason(c, state.turn, rules))
    waiting = dict(waiting_of(state))
    interrupt = False
    if state.phase == "act" and (
        waiting.get(key) == "declare"
        or (c.delayed and not c.declared and state.options.mode == "simple")
    ):
        raise IllegalAction(f"{c.name} must declare first (TURN-05): +combat/declare.")
    if waiting.get(key) != "act":
        if (
            state.phase in ("act", "extra")
            and c.delayed
            and next_index(c, state.phase) is not None
        ):
            interrupt = True  # TURN-04: a delayed character acts at any later moment
        else:
            raise IllegalAction(_why_not_act(state, c, waiting, rules))
    i = next_index(c, state.phase)
    a = c.actions[i]
    if willpower and not a.get("willpower"):
        raise IllegalAction(
            f"Spending Willpower must be declared with the action (TURN-02); "
            f"{c.name} declared none for this {a['kind']}."
        )
    if power and str(a.get("power", "")).lower() != power.strip().lower():
        raise IllegalAction(
            f"Using a power must be declared with the action (TURN-02); "
            f"{c.name} declared {a.get('power') or 'no power'} for this "
            f"{a['kind']}."
        )
    return c, i, a, interrupt, waiting


def next_action(state: CombatState, key: str, ruleset, *, willpower: bool = False
                ) -> tuple[int, dict, tuple[Modifier, ...]]:
    """(index, action, modifiers) of what ``act`` would perform now, checked the same way,
    without performing it: the attack layer resolves it first, then ``act`` marks it done."""
    c, i, a, _, _ = _act_checks(state, key, ruleset, turn_rules(ruleset), willpower, None)
    return i, a, action_penalties(c, ruleset)[i]


def act(
    state: CombatState, key: str, ruleset, *, willpower: bool = False, power: str | None = None
) -> Step:
    """Perform ``key``'s next declared action in this phase.

    The event carries the declared action and its modifiers (``action_penalties``) for the
    attack layer to resolve. ``willpower``/``power``: what this action spends or uses, which
    must have been declared (TURN-02).
    """
    rules = turn_rules(ruleset)
    c, i, a, interrupt, waiting = _act_checks(state, key, ruleset, rules, willpower, power)
    mods = action_penalties(c, ruleset)[i]
    if c.conditions:
        kind = a["kind"]
        conds = tuple(k for k in c.conditions
                      if kind not in (rules.conditions.get(k.name) or {}).get("removed_by", ()))
        removed = [k.name for k in c.conditions if k not in conds]
        c2 = _USED(c, c.used + (i,), conds)
    else:  # most actors: no condition to take off
        removed = []
        c2 = _USED_ONLY(c, c.used + (i,))
    if c2.delayed and next_index(c2, state.phase) is None:
        c2 = replace(c2, delayed=False)
    if interrupt:
        together: list[str] = []
    elif state.cursor < len(state.order):
        together = [k for k in state.order[state.cursor].keys if k != key]
    else:  # the delayed at the end of the phase, equal ratings together (INIT-06)
        together = [k for k in waiting if k != key]
    events = [
        Event("act", {
            "actor": key,
            "index": i,
            "action": dict(a),
            "phase": "main" if state.phase == "act" else "extra",
            "modifiers": [m.as_dict() for m in mods] if mods else [],
            "interrupt": interrupt,
            "simultaneous": together,
            "removed": removed,
        })
    ]
    return finish(state, Draft(state).put(c2), rules, events)


# what an act changes on the actor (positional copiers: combat/core/values.py)
_USED = copier(Combatant, "used", "conditions")
_USED_ONLY = copier(Combatant, "used")


def delay(state: CombatState, key: str, ruleset) -> Step:
    """TURN-04: hold the action; act at any later moment of this phase with ``act``."""
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    waiting = dict(waiting_of(state))
    if state.phase not in ("act", "extra") or key not in waiting:
        raise IllegalAction(
            f"{c.name} can delay only when it is their turn to act; the turn waits for "
            f"{names_of(state, waiting)} to {'declare' if state.phase == 'declare' else 'act'}."
        )
    if state.cursor >= len(state.order):
        raise IllegalAction(
            "Everyone else has acted: act now (+combat/act) or pass " "(+combat/pass)."
        )
    events = [{"event": "delay", "actor": key, "phase": state.phase}]
    return finish(state, put_combatant(state, replace(c, delayed=True)), rules, events)


def defense_not_due(state: CombatState, c, against: str | None) -> tuple[str, int]:
    """Why ``c``'s unspent declared defense cannot answer ``against``'s attack now, and its
    place: ("later", i) a split's k-th action, due in the extra phase (TURN-07); ("reserved",
    i) declared against another's anticipated attack (TURN-09); ("", -1) neither."""
    free = [i for i in c.reactive if i not in c.used]
    later = [i for i in free if i >= c.main and state.phase == "act"]
    if later:
        return "later", later[0]
    reserved = [i for i in free if c.actions[i].get("against") not in (None, against)]
    return ("reserved", reserved[0]) if reserved else ("", -1)


def defend(
    state: CombatState, key: str, ruleset, *, against: str | None = None, kind: str | None = None
) -> Step:
    """Spend a declared defense when an attack comes (block, dodge, parry).

    A defense declared against ``against``'s anticipated attack (TURN-09) is used first, then
    any general one of that kind. A desperate defender (DEF-04) defends as often as attacked:
    -1 die on the second, -2 on the third. A defense declared as the k-th action has that
    action's multiple-action penalty (MAN-05) and, being the k-th, happens in the extra phase
    when k > 1 (TURN-07); without one left, the defender may abort (TURN-08).
    """
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    if state.phase not in ("act", "extra"):
        raise IllegalAction(
            f"Attacks and defenses happen in the action phases, not the {state.phase} phase."
        )
    if c.lost:
        raise IllegalAction(lost_reason(c, state.turn, rules))
    kind = kind.strip().lower() if kind else None
    if kind is not None and kind not in rules.defensive:
        raise InputError(f"'{kind}' is not a defense; use {', '.join(sorted(rules.defensive))}.")
    if c.desperate:
        return _defend_desperately(state, c, rules, against, kind)
    pick = _declared_defense(state, c, against, kind)
    mods = action_penalties(c, ruleset)[pick]
    c2 = _USED_ONLY(c, c.used + (pick,))
    ev = Event("defend", {
        "actor": key,
        "against": against,
        "index": pick,
        "action": dict(c.actions[pick]),
        "modifiers": mods_dicts(mods),
        "desperate": False,
        "anticipated": c.actions[pick].get("against") is not None,
    })
    return finish_spent(state, Draft(state).put(c2), rules, [ev])


def _defend_desperately(state: CombatState, c: Combatant, rules: TurnRules,
                        against: str | None, kind: str | None) -> Step:
    """DEF-04: a desperate defender defends as often as attacked, -1 die on the second,
    -2 on the third ...; the k-th defense spends the k-th action declared, if any."""
    k = c.defenses
    if k < len(c.actions):
        a = dict(c.actions[k])
        if kind:
            a["kind"] = kind  # any defense may answer; the declaration said "defend"
    elif kind:
        a = {"kind": kind}
    else:
        raise InputError("Which defense? block, dodge or parry.")
    mods = (Modifier("desperate defense", dice=-k * rules.desperate_step),) if k else ()
    used = c.used + ((k,) if k < len(c.actions) else ())
    c2 = replace(c, defenses=k + 1, used=used)
    ev = Event("defend", {
        "actor": c.key,
        "against": against,
        "index": k,
        "action": a,
        "modifiers": mods_dicts(m for m in mods if m.dice),
        "desperate": True,
    })
    return finish_spent(state, Draft(state).put(c2), rules, [ev])


def _declared_defense(state: CombatState, c: Combatant, against: str | None,
                      kind: str | None) -> int:
    """The index of ``c``'s declared defense that answers ``against``'s attack now: one
    declared against that attacker first (TURN-09), then a general one; one declared as the
    k-th action waits for the extra phase (TURN-07). None left: IllegalAction."""
    pick, extra = None, state.phase == "extra"
    for i in c.reactive:  # one pass: the first against that attacker, else the first general
        if i in c.used or not (extra or i < c.main):
            continue
        a = c.actions[i]
        if kind and a["kind"] != kind:
            continue
        named = a.get("against")
        if named is None:
            if pick is None:
                pick = i
        elif named == against:
            return i
    if pick is None:
        why, i = defense_not_due(state, c, against)
        if why == "later":
            raise IllegalAction(
                f"{c.name}'s {c.actions[i]['kind']} is action #{i + 1}: it "
                f"happens in the extra phase (TURN-07). To defend now, abort (TURN-08)."
            )
        if why == "reserved":
            raise IllegalAction(
                f"{c.name}'s declared defense answers "
                f"{names_of(state, [c.actions[i]['against']])}'s attack (TURN-09). "
                f"To defend against this one, abort (TURN-08)."
            )
        raise IllegalAction(
            f"{c.name} has no declared defense left this turn; aborting to one "
            f"takes a Willpower roll or point (TURN-08)."
        )
    return pick

def skip(state: CombatState, key: str, ruleset) -> Step:
    """The organizer's ``+combat/next <name>`` (or a player passing): stop waiting for
    ``key`` now. Initiative: sits this turn out. Declaration: declares nothing. Acting: the
    actions of this phase are forfeited (declared defenses stay)."""
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    waiting = dict(waiting_of(state))
    what = waiting.get(key)
    if what is None:
        raise IllegalAction(
            f"The combat is not waiting for {c.name}; it waits for {names_of(state, waiting)}."
        )
    forfeited: list[int] = []
    if what == "initiative":
        c2 = replace(c, joined_turn=state.turn + 1)
    elif what == "declare":
        c2 = replace(c, declared=True, actions=(), main=0, reactive=(), delayed=False)
    else:
        forfeited = [i for i in window(c, state.phase) if i not in c.used and i not in c.reactive]
        c2 = replace(c, used=c.used + tuple(forfeited), delayed=False)
    events = [{"event": "skip", "actor": key, "what": what, "forfeited": forfeited}]
    return finish(state, put_combatant(state, c2), rules, events)
