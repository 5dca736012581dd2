"""Aborting (TURN-08) and changing (TURN-10) a declared action before acting."""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from ...core import dice
from ...core.errors import IllegalAction, InputError
from ...core.values import replace
from ..state import Combatant, CombatState, plain
from .declaring import check_actions
from .penalties import action_penalties
from .phases import check_live, finish, lost_reason, mods_dicts, put_combatant
from .rules import Step, TurnRules, turn_rules


def _swap(
    state: CombatState,
    key: str,
    to_action: Mapping,
    ruleset,
    rng,
    *,
    how: str,
    willpower: int,
    spend_willpower: bool,
    pointless: bool,
    faces: Sequence[int] | None,
) -> Step:
    """TURN-08 abort and TURN-10 change: replace the first declared action before acting."""
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    cfg = rules.abort if how == "abort" else rules.change
    _check_may_swap(state, c, how, cfg, rules)
    to = _new_action(to_action, how, cfg)
    _check_after_failure(c, cfg, to, spend_willpower)
    free = bool(pointless and cfg.get("free_if_pointless"))
    roll = None
    if free or spend_willpower:
        ok = True
    else:
        roll = _willpower_roll(willpower, cfg, faces, rng, ruleset)
        ok = roll.successes > 0
    event = {
        "event": how,
        "actor": key,
        "to": dict(to),
        "success": ok,
        "roll": roll.as_dict() if roll else None,
        "free": free,
        "spend": ({"pool": "Willpower", "amount": 1} if spend_willpower and not free else None),
        "from": dict(c.actions[0]) if c.actions and c.main else None,
    }
    if not ok:
        c2 = replace(c, abort_failed=True)
        event["performed"] = False
        event["may_spend"] = bool(cfg["spend_after_failure"])
        return finish(state, put_combatant(state, c2), rules, [event])
    c2 = _swapped(state, c, to, how, cfg, rules)
    event["performed"] = how == "abort" and to["kind"] in rules.defensive  # see _swapped
    event["index"] = 0
    event["modifiers"] = mods_dicts(action_penalties(c2, ruleset)[0])
    return finish(state, put_combatant(state, c2), rules, [event])


def _swapped(state: CombatState, c: Combatant, to: dict, how: str, cfg: Mapping,
             rules: TurnRules) -> Combatant:
    """``c`` with ``to`` in place of its first declared action (TURN-08/10); a defensive
    abort is performed at once (it answers the attack that prompted it)."""
    defensive = to["kind"] in rules.defensive
    rest = c.actions[1:] if c.main else c.actions
    # The new action is first in running order (a normal action; extras stay last).
    acts, main, reactive = check_actions(state, c, (to,) + rest, c.desperate and defensive, rules)
    # TURN-08: an abort to a non-defensive action may cost difficulty; a change (TURN-10)
    # has no such key
    diff_mod = cfg["non_defensive_difficulty"] if how == "abort" and not defensive else 0
    performed = how == "abort" and defensive  # the defense resolves with the attack now
    return replace(
        c,
        declared=True,
        actions=acts,
        main=max(main, 1),
        reactive=reactive,
        used=(0,) if performed else (),
        aborted_to=dict(to),
        abort_failed=False,
        abort_difficulty=diff_mod,
        delayed=c.delayed and not performed,
    )


def _check_may_swap(state: CombatState, c: Combatant, how: str, cfg: Mapping,
                    rules: TurnRules) -> None:
    """TURN-08 / TURN-10: ``c`` may change a declared action now: the ruleset allows it,
    actions are under way, ``c`` takes part and has not acted yet."""
    if how == "change" and not cfg.get("enabled"):
        raise IllegalAction(
            "This ruleset has no changing of declared actions; before acting "
            "you may abort to a defense (TURN-08)."
        )
    if state.phase not in ("act", "extra"):
        raise IllegalAction(
            f"An action is changed once actions are under way, not in the {state.phase} phase."
        )
    if c.lost:
        raise IllegalAction(lost_reason(c, state.turn, rules))
    if c.joined_turn > state.turn or c.init_total is None:
        raise IllegalAction(f"{c.name} takes part from turn {c.joined_turn}.")
    if c.used or c.defenses:
        raise IllegalAction(
            f"{c.name} has already acted this turn; an action can be changed "
            f"only before acting ({'TURN-08' if how == 'abort' else 'TURN-10'})."
        )


def _new_action(to_action: Mapping, how: str, cfg: Mapping) -> dict:
    """The action swapped in, checked: a kind, one an abort may go to (TURN-08). A change
    (TURN-10) may go to any action: its declared one is impossible (combat/d10/change.py
    refuses a still-possible one: "shoot instead of claw"), so "give chase or do something
    else"."""
    to = plain(to_action, "new action")
    if not isinstance(to, dict) or not isinstance(to.get("kind"), str) or not to["kind"].strip():
        raise InputError("The new action needs a kind (dodge, block, parry, ...).")
    to["kind"] = to["kind"].strip().lower()
    to.pop("extra", None)  # the new action takes the declared one's place, never an extra's
    if how == "abort":
        kinds = cfg.get("to_kinds")
        if kinds is not None and to["kind"] not in {k.lower() for k in kinds}:
            raise IllegalAction(
                f"An abort is to {', '.join(kinds)} only (TURN-08), not {to['kind']}."
            )
    return to


def _check_after_failure(c: Combatant, cfg: Mapping, to: Mapping, spend_willpower: bool) -> None:
    """TURN-08: after a failed Willpower roll the declared action stands, unless a point is
    spent where the ruleset lets it buy the roll back."""
    # Defect 21: only a ruleset whose failed roll may be bought back with a point says so.
    if c.abort_failed and not cfg["spend_after_failure"]:
        raise IllegalAction(
            f"{c.name}'s Willpower roll failed: the declared action stands this turn."
        )
    if c.abort_failed and not spend_willpower:
        raise IllegalAction(
            f"{c.name}'s Willpower roll failed: {c.name} must perform the declared "
            f"action unless they spend a Willpower point: +combat/abort {to['kind']}/wp"
        )


def _willpower_roll(willpower: int, cfg: Mapping, faces: Sequence[int] | None, rng,
                    ruleset) -> dice.Roll:
    """The Willpower roll an abort or a change takes (TURN-08/10)."""
    if isinstance(willpower, bool) or not isinstance(willpower, int) or willpower <= 0:
        raise InputError("Roll Willpower for it (give the rating) or spend a point.")
    diff = cfg["difficulty"]
    if faces is not None:  # DICE-09: a reflex roll, so no wound penalty
        roll = dice.count(tuple(faces), diff, ruleset.dice)
        if roll.pool != willpower:
            raise InputError(
                f"A Willpower {willpower} roll has {willpower} dice, not {roll.pool}."
            )
    else:
        if rng is None:
            raise InputError("No dice to roll with (rng missing).")
        roll = dice.roll(willpower, diff, rng, ruleset.dice)
    return roll


def abort(
    state: CombatState,
    key: str,
    to_action: Mapping,
    ruleset,
    rng: random.Random | None = None,
    *,
    willpower: int = 0,
    spend_willpower: bool = False,
    pointless: bool = False,
    faces: Sequence[int] | None = None,
) -> Step:
    """TURN-08: before acting, abandon the declared action for a defense.

    A reflex Willpower roll (``willpower`` dice, YAML difficulty: 6 numetal, 8 everyman) or
    a Willpower point (``spend_willpower``; the event's ``spend`` tells the caller to take
    it from the sheet). A defensive abort is performed at once (it answers the attack that
    prompted it). numetal: after a failed roll the declared action stands unless a point is
    then spent. revised switches: any new action, free if the declared one became
    ``pointless``, +1 difficulty unless defensive.
    """
    return _swap(
        state,
        key,
        to_action,
        ruleset,
        rng,
        how="abort",
        willpower=willpower,
        spend_willpower=spend_willpower,
        pointless=pointless,
        faces=faces,
    )


def change_action(
    state: CombatState,
    key: str,
    new_action: Mapping,
    ruleset,
    rng: random.Random | None = None,
    *,
    willpower: int = 0,
    spend_willpower: bool = False,
    faces: Sequence[int] | None = None,
) -> Step:
    """TURN-10 (everyman #16): a declared action became impossible: change it with a
    Willpower roll (difficulty 8) or point. Performed in turn."""
    return _swap(
        state,
        key,
        new_action,
        ruleset,
        rng,
        how="change",
        willpower=willpower,
        spend_willpower=spend_willpower,
        pointless=False,
        faces=faces,
    )
