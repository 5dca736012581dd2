"""Declaring (TURN-01/02, MAN-05..08, DEF-04, TURN-09/11): the checks and the step."""

from __future__ import annotations

from typing import Mapping, Sequence

from ...core.errors import IllegalAction, InputError
from ...core.events import Event
from ...core.values import copier
from ..state import Combatant, CombatState, plain
from .penalties import action_penalties
from .phases import check_live, finish, lost_reason, mods_dicts, names_of, put_combatant, waiting_of
from .rules import Step, TurnRules, turn_rules

# ---------------------------------------------------------------- declaring


def check_actions(
    st: CombatState, c: Combatant, actions: Sequence[Mapping], desperate: bool, rules: TurnRules
) -> tuple[tuple[dict, ...], int, tuple[int, ...]]:
    """Validate a declaration (TURN-02, MAN-05..08, DEF-04, TURN-09, TURN-11) and put it in
    running order: normal actions first, supernatural extras last (MAN-06)."""
    acts, normal, extra = _parsed(actions)
    if len(acts) > rules.ma_max:
        raise InputError(
            f"{len(acts)} actions is more than this game allows in one turn ({rules.ma_max})."
        )
    if extra:
        _check_extras(c, extra, rules)
    if (
        c.rage_spent
        and len(normal) > 1
        and (rules.extra_sources.get("rage") or {}).get("excludes_split")
    ):
        raise IllegalAction(
            "Shifters spend Rage or split their pools for extra actions, not "
            "both (MAN-08, W20 p. 266): declare one normal action."
        )
    if not rules.powers_in_split and len(normal) > 1 and any(a.get("power") for a in normal):
        raise IllegalAction(
            "Powers may never be part of a multiple action (TURN-11): declare " "the power alone."
        )
    defensive = rules.defensive
    if desperate:
        bad = [a["kind"] for a in acts if a["kind"] not in defensive]
        if bad:
            raise IllegalAction(
                f"Desperate defense is a whole turn of defenses (DEF-04): "
                f"only {', '.join(sorted(defensive))}, not {bad[0]}."
            )
    _check_anticipated(st, c, acts, rules)
    ordered = tuple(normal + extra) if extra else tuple(normal)
    if desperate:
        main = 0
        reactive = tuple(range(len(ordered)))
    else:
        main = len(normal) if rules.split_in_main else min(1, len(normal))
        reactive = tuple([i for i, a in enumerate(ordered) if a["kind"] in defensive])
    return ordered, main, reactive


def _parsed(actions: Sequence[Mapping]) -> tuple[list[dict], list[dict], list[dict]]:
    """The declared actions as plain dicts with their kind (and extra source) in lower
    case: (all, the normal ones, the supernatural extras)."""
    # A tuple or a list (what the engine passes) needs no ``Sequence`` check: an ABC check
    # costs more than the rest of a one-action declaration's bookkeeping here.
    if type(actions) not in (tuple, list) and (
        isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence)
    ):
        raise InputError("Declare a list of actions, e.g. [{'kind': 'strike', 'target': ...}].")
    acts, normal, extra = [], [], []
    for n, raw in enumerate(actions, 1):
        a = plain(raw, f"action {n}")
        if not isinstance(a, dict) or not isinstance(a.get("kind"), str) or not a["kind"].strip():
            raise InputError(f"Action {n} needs a kind (strike, dodge, ...).")
        a["kind"] = a["kind"].strip().lower()
        if a.get("extra"):
            a["extra"] = str(a["extra"]).strip().lower()
        (extra if a.get("extra") else normal).append(a)  # "extra": " " is a normal action
        acts.append(a)
    return acts, normal, extra


def _check_anticipated(st: CombatState, c: Combatant, acts: list[dict],
                       rules: TurnRules) -> None:
    """TURN-09: a defense declared ``against`` another combatant's anticipated attack."""
    defensive = rules.defensive
    for a in acts:
        target = a.get("against")
        if target is None:
            continue
        if not rules.anticipated:
            raise IllegalAction("This ruleset has no defense against anticipated attacks.")
        if a["kind"] not in defensive:
            raise IllegalAction(
                f"Only a defense ({', '.join(sorted(defensive))}) can be "
                f"declared against an anticipated attack (TURN-09)."
            )
        if target == c.key or st.get(str(target)) is None:
            raise InputError(f"'{target}' is not another combatant in this fight.")


def _check_extras(c: Combatant, extra: list[dict], rules: TurnRules) -> None:
    """MAN-06..08: each extra action names a source this ruleset has, and no more of them
    than the combatant was granted this turn."""
    granted = c.extras
    counts: dict[str, int] = {}
    for a in extra:
        src = a["extra"]
        spec = rules.extra_sources.get(src)
        if spec is None:
            known = ", ".join(sorted(rules.extra_sources)) or "none"
            raise InputError(f"'{src}' is not a source of extra actions here (known: {known}).")
        counts[src] = counts.get(src, 0) + 1
        if spec.get("physical_only") and a.get("mental"):
            raise IllegalAction(
                f"{src.title()} extra actions must be physical, not mental "
                f"(MAN-07, VtM p. 153)."
            )
    for src, n in counts.items():
        if n > granted.get(src, 0):
            have = granted.get(src, 0)
            how = (
                "activate it the turn before (MAN-07)"
                if rules.extra_sources[src]["starts"] == "next_turn"
                else "spend for them before declaring (MAN-08)"
            )
            raise IllegalAction(
                f"{c.name} has {have} {src} action(s) this turn, not {n}; to get them, {how}."
            )


def _passed(st: CombatState, key: str) -> bool:
    slot = _slot_of(st, key)
    return slot is not None and slot < st.cursor


def _slot_of(st: CombatState, key: str) -> int | None:
    for i, slot in enumerate(st.order):
        if key in slot.keys:
            return i
    return None


def declare(
    state: CombatState,
    key: str,
    actions: Sequence[Mapping],
    ruleset,
    *,
    desperate: bool = False,
    early: bool = False,
) -> Step:
    """Declare this turn's actions (TURN-01/02); ``desperate`` for DEF-04; ``early`` for the
    runner declaring an NPC at the start of a simple-mode turn (TURN-05).

    Action dicts belong to the attack layer; the scheduler reads ``kind``, ``extra`` (a
    source such as ``celerity``: a supernatural extra action), ``against`` (TURN-09: the
    attacker whose anticipated attack this defense answers), ``willpower`` and ``power``
    (TURN-02: what ``act`` may spend or use), ``mental`` (Celerity is physical only).
    """
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    _check_may_declare(state, c, rules)
    _check_declare_time(state, c, rules, early)
    acts, main, reactive = check_actions(state, c, actions, desperate, rules)
    c = _DECLARED(c, True, acts, main, reactive, bool(desperate))
    events = [
        Event("declare", {
            "actor": key,
            "actions": [dict(a) for a in acts],
            "desperate": bool(desperate),
            "early": bool(early),
            "penalties": [mods_dicts(m) for m in action_penalties(c, ruleset)],
        })
    ]
    return finish(state, put_combatant(state, c), rules, events)


# what a declaration sets on the combatant (a positional copier: combat/core/values.py)
_DECLARED = copier(Combatant, "declared", "actions", "main", "reactive", "desperate")


def _check_may_declare(state: CombatState, c: Combatant, rules: TurnRules) -> None:
    """TURN-01/02: ``c`` takes part this turn, has not lost it, has not declared yet and has
    rolled initiative."""
    if c.joined_turn > state.turn:
        raise IllegalAction(
            f"{c.name} joined during turn {state.turn} and takes part from "
            f"turn {c.joined_turn}."
        )
    if c.lost:
        raise IllegalAction(lost_reason(c, state.turn, rules))
    if c.declared:
        hint = " or change it (TURN-10)" if rules.change.get("enabled") else ""
        raise IllegalAction(
            f"{c.name} has already declared this turn. Before acting, "
            f"{c.name} may abort to a defense (TURN-08){hint}."
        )
    if c.init_total is None:
        raise IllegalAction(f"{c.name} has no initiative yet: +combat/init first.")


def _check_declare_time(state: CombatState, c: Combatant, rules: TurnRules,
                        early: bool) -> None:
    """TURN-01: declarations go from lowest to highest initiative in the declaration phase;
    TURN-05: in the simple mode each declares in turn, and the runner may declare an NPC
    early."""
    simple = state.options.mode == "simple"
    waiting = waiting_of(state)
    if (state.phase == "declare" and not early and len(waiting) == 1
            and waiting[0] == (c.key, "declare")):
        return  # TURN-01: the slot the turn waits for (most declarations)
    waiting = dict(waiting)
    if early:
        if not (simple and rules.npc_early and c.is_npc):
            raise IllegalAction(
                "Only NPCs may be declared ahead of their turn, and only in the "
                "simple mode (TURN-05)."
            )
        slot = _slot_of(state, c.key)
        if state.phase == "act" and slot is not None and slot < state.cursor:
            raise IllegalAction(f"{c.name}'s place in this turn has passed.")
        if state.phase not in ("initiative", "act"):
            raise IllegalAction(
                f"NPCs are declared early at the start of a turn, not in the "
                f"{state.phase} phase."
            )
    elif state.phase == "declare":
        # A slot already passed (the character recovered from a lost turn): declare late.
        # Looked for only when the turn is not waiting for this declaration (the usual case).
        if waiting.get(c.key) != "declare" and not _passed(state, c.key):
            raise IllegalAction(
                f"Not {c.name}'s turn to declare: waiting for {names_of(state, waiting)}. "
                f"Declarations go from lowest to highest initiative (TURN-01)."
            )
    elif state.phase == "act" and simple:
        if waiting.get(c.key) != "declare" and not c.delayed:
            raise IllegalAction(
                f"Not {c.name}'s turn: waiting for {names_of(state, waiting)}. In the simple mode "
                f"each character declares and acts in turn, highest initiative first (TURN-05)."
            )
    else:
        after = (": declare once the organizer moves the fight on (+combat/next)"
                 if state.phase == "initiative" else ".")
        raise IllegalAction(
            f"Actions are declared in the declaration phase (TURN-02); it is now the "
            f"{state.phase} phase of turn {state.turn}{after}"
        )
