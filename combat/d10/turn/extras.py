"""Extra actions: Celerity (MAN-07) and Rage (MAN-08)."""

from __future__ import annotations

from ...core.errors import IllegalAction, InputError
from ...core.values import replace
from ..state import Combatant, CombatState
from .phases import check_live, finish, lost_reason, put_combatant
from .rules import Step, TurnRules, turn_rules

# ---------------------------------------------------------------- extra actions


def activate_celerity(state: CombatState, key: str, dots: int, ruleset) -> Step:
    """MAN-07: spend a blood point (a reflex, so once a turn): one extra physical action per
    dot next turn. The event's ``spend`` tells the caller which pool to take it from."""
    rules = turn_rules(ruleset)
    check_live(state)
    spec = rules.extra_sources.get("celerity")
    if spec is None:
        raise IllegalAction("This ruleset gives no extra actions for Celerity.")
    if isinstance(dots, bool) or not isinstance(dots, int) or not 1 <= dots <= 10:
        raise InputError(f"Celerity dots must be 1 to 10, not {dots!r}.")
    c = state.find(key)
    act_map = dict(c.activations)
    per_turn = spec["activations_per_turn"]
    if act_map.get("celerity") == state.turn and per_turn <= 1:
        raise IllegalAction(
            f"{c.name} already activated Celerity this turn; it is a reflex, "
            f"once a turn (MAN-07)."
        )
    act_map["celerity"] = state.turn
    if spec["starts"] == "next_turn":
        extra = dict(c.next_extra)
        extra["celerity"] = dots
        c2 = replace(
            c, next_extra=tuple(sorted(extra.items())), activations=tuple(sorted(act_map.items()))
        )
        for_turn = state.turn + 1
    else:
        if c.declared:
            raise IllegalAction(
                "Celerity's extra actions must be declared: activate it before "
                "declaring (TURN-02)."
            )
        extra = c.extras
        extra["celerity"] = dots
        c2 = replace(
            c,
            extra_actions=tuple(sorted(extra.items())),
            activations=tuple(sorted(act_map.items())),
        )
        for_turn = state.turn
    ev = {
        "event": "extra_actions",
        "actor": key,
        "source": "celerity",
        "count": dots,
        "turn": for_turn,
        "spend": {"pool": spec.get("pool", "Blood"), "amount": spec["cost"]},
    }
    return finish(state, put_combatant(state, c2), rules, [ev])


def spend_rage(
    state: CombatState,
    key: str,
    points: int,
    ruleset,
    *,
    rage: int,
    dex: int,
    wits: int,
    frenzy: bool = False,
) -> Step:
    """MAN-08: Rage for extra actions this turn, one per point, at most half ``rage`` (round
    down) per turn; declared (TURN-02), so spent before declaring. The lowest of ``dex`` and
    ``wits`` (only ``dex`` in ``frenzy``) is recorded: more actions than that makes all of
    them +3 difficulty (see ``action_penalties``). Spending Rage forbids splitting."""
    rules = turn_rules(ruleset)
    check_live(state)
    spec = rules.extra_sources.get("rage")
    if spec is None:
        raise IllegalAction("This ruleset gives no extra actions for Rage.")
    for name, v in (("points", points), ("rage", rage), ("dex", dex), ("wits", wits)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{name} must be a whole number, not {v!r}.")
    if points < 1:
        raise InputError("Spend at least one Rage point.")
    c = state.find(key)
    _check_may_spend_rage(state, c, rules)
    cap = rage // spec["cap_divisor"]
    if c.rage_spent + points > cap:
        raise IllegalAction(
            f"{c.name} can spend at most {cap} Rage for extra actions this turn "
            f"(half of Rage {rage}, MAN-08); already spent {c.rage_spent}."
        )
    limit = dex if (frenzy and spec["frenzy_ignores_wits"]) else min(dex, wits)
    extra = c.extras
    extra["rage"] = extra.get("rage", 0) + points
    c2 = replace(
        c,
        extra_actions=tuple(sorted(extra.items())),
        rage_spent=c.rage_spent + points,
        action_cap=limit,
    )
    ev = {
        "event": "extra_actions",
        "actor": key,
        "source": "rage",
        "count": points,
        "turn": state.turn,
        "cap": cap,
        "action_cap": limit,
        "spend": {"pool": spec.get("pool", "Rage"), "amount": points * spec["cost"]},
    }
    return finish(state, put_combatant(state, c2), rules, [ev])


def _check_may_spend_rage(state: CombatState, c: Combatant, rules: TurnRules) -> None:
    """MAN-08 with TURN-02: Rage for extra actions is spent before declaring, by one who
    takes part this turn and has not lost it."""
    if c.lost:
        raise IllegalAction(lost_reason(c, state.turn, rules))
    if c.declared:
        raise IllegalAction(
            f"{c.name} has declared already: Rage for extra actions is spent "
            f"and declared in the declaration (TURN-02)."
        )
    if c.joined_turn > state.turn:
        raise IllegalAction(f"{c.name} takes part from turn {c.joined_turn}.")
    if state.phase not in ("initiative", "declare") and not (
        state.phase == "act" and state.options.mode == "simple"
    ):
        raise IllegalAction(
            f"Rage for extra actions is spent before declaring, not in the {state.phase} phase."
        )
