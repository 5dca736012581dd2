"""Attack and defense plans through a ``Memo`` (combat/core/memo.py) handed down from
``apply``: plans are pure functions of frozen inputs, so neither the three asks of one attack
nor a simulation of one matchup (bench/engine.py) builds them again. Without a memo (a test,
a tool) each ask builds its plan. The ruleset is matched by identity (its mappings are not
hashable); each entry holds it (and any input keyed by id), so an id cannot be reused while
the entry lives. Refusals are not kept.
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

from ..core.memo import IDENTITY_SIZE, Memo
from ..core.memo import SIZE as MEMO_SIZE
from ..core.sheet import Sheet
from .attack_defense import _check_magic_defense, _defense_plan
from .attack_plan import _Plan, _prepare, _TargetFacts
from .attack_values import Attack, Context, Defense, Side


def _ident(x, memo: Memo):
    """How a key names a plan input: a Sheet by its value, so a sheet read afresh from an
    Attribute on each command finds the plan an equal sheet left; anything else by identity
    (its entry holds it, so the id is not reused meanwhile)."""
    return memo.sheet_number(x) if type(x) is Sheet else id(x)


_ATTACK_FIELDS = attrgetter(*(f.name for f in fields(Attack)))


_CONTEXT_FIELDS = attrgetter(*(f.name for f in fields(Context)
                               if f.name not in ("attacker", "target")))


_SIDE_FIELDS = attrgetter(*(f.name for f in fields(Side)))


_DEFENSE_FIELDS = attrgetter(*(f.name for f in fields(Defense)))


def _token(intent: Attack, ctx: Context, memo: Memo) -> int:
    """A number naming the value of (intent, ctx), for the plan keys: hashing a Context (its
    sides, frozensets, ...) costs more than the plan lookup itself, and both plan lookups of
    an attack need it. Found by identity first (a combat reuses its objects), then by value
    (a command builds new equal ones); a number is never reused for another value.
    Raises TypeError for an unhashable input, as a key holding it would."""
    ids = (id(intent), id(ctx))
    hit = memo.tokens.get(ids)
    if hit is not None and hit[0] is intent and hit[1] is ctx:
        return hit[2]
    if type(intent) is Attack and type(ctx) is Context and type(ctx.attacker) is Side \
            and type(ctx.target) is Side:
        # the same value as (intent, ctx) compares, flat: hashed and compared in C without
        # the dataclasses' own __hash__/__eq__ (two thirds of the cost)
        value = (_ATTACK_FIELDS(intent), _CONTEXT_FIELDS(ctx), _SIDE_FIELDS(ctx.attacker),
                 _SIDE_FIELDS(ctx.target))
    else:
        value = (intent, ctx)
    tok = memo.token_of.get(value)
    if tok is None:
        if len(memo.token_of) >= MEMO_SIZE:
            memo.forget_plans()
        tok = memo.token_of[value] = memo.number()
    if len(memo.tokens) >= IDENTITY_SIZE:
        memo.tokens.clear()
    memo.tokens[ids] = (intent, ctx, tok)  # holds both, so neither id is reused meanwhile
    return tok


def _plan(ruleset, attacker, target, intent: Attack, ctx: Context, memo: Memo | None) -> _Plan:
    """``_prepare`` through the memo: the last answer by identity first (an attack asks
    three times with the very same values), then by value, under a key without the target
    (plans that read nothing of it), then with the target's facts."""
    if memo is None:
        return _prepare(ruleset, attacker, _TargetFacts(ruleset, target), intent, ctx)
    last = memo.last_plan
    if (last is not None and last[0] is intent and last[1] is ctx and last[2] is attacker
            and last[3] is target and last[4] is ruleset):
        return last[5]
    plan = _plan_by_value(ruleset, attacker, target, intent, ctx, memo)
    memo.last_plan = (intent, ctx, attacker, target, ruleset, plan)
    return plan


def _plan_by_value(ruleset, attacker, target, intent: Attack, ctx: Context,
                   memo: Memo) -> _Plan:
    try:
        base = ("attack", id(ruleset), _ident(attacker, memo), _token(intent, ctx, memo))
        hit = memo.plans.get(base)
    except TypeError:  # an unhashable input: just compute
        return _prepare(ruleset, attacker, _TargetFacts(ruleset, target), intent, ctx)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    facts = _TargetFacts(ruleset, target)
    full = (*base, facts.key())
    hit = memo.plans.get(full)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    value = _prepare(ruleset, attacker, facts, intent, ctx)
    memo.store(full if facts.used else base, (ruleset, value, attacker))
    return value


_ASKS_SOAK = object()  # a defense-plan entry: this defense turns on can_soak (see _defense)


def _defense(ruleset, defender, attacker, defense: Defense, plan: _Plan, ctx: Context,
             can_soak, intent: Attack, memo: Memo | None):
    """The defense plan: through the memo, the last answer by identity first (an attack
    asks twice, is the defense usable and its roll, with the very same values)."""
    if memo is None:
        _check_magic_defense(ruleset, intent, defense)
        return _defense_plan(ruleset, defender, attacker, defense, plan, ctx, can_soak)
    last = memo.last_defense
    if (last is not None and last[0] is defense and last[1] is plan and last[2] is ctx
            and last[3] is defender and last[4] is attacker and last[5] is ruleset
            and last[6] is can_soak and last[7] is intent):
        return last[8]
    value = _defense_by_value(ruleset, defender, attacker, defense, plan, ctx, can_soak,
                              intent, memo)
    memo.last_defense = (defense, plan, ctx, defender, attacker, ruleset, can_soak, intent,
                         value)
    return value


def _defense_by_value(ruleset, defender, attacker, defense: Defense, plan: _Plan,
                      ctx: Context, can_soak, intent: Attack, memo: Memo):
    # The defense plan reads the defender, not the attacker: the key leaves the attacker out,
    # and names the attack by the plan facts the defense reads.
    try:
        key = ("defense", id(ruleset), _ident(defender, memo),
               _DEFENSE_FIELDS(defense) if type(defense) is Defense else defense, plan.kind,
               plan.range,
               plan.damage_type, plan.auto_hit, plan.maneuver.name, plan.barehanded,
               _token(intent, ctx, memo))
        hit = memo.plans.get(key)
    except TypeError:  # an unhashable input: just compute
        hit, key = None, None
    if hit is not None and hit[0] is ruleset:
        if hit[1] is not _ASKS_SOAK:
            return hit[1]
        # DMG-16: a block against lethal or aggravated damage that turned on the defender's
        # ``can_soak`` answer. ``can_soak`` is a fresh lambda on every +combat/act, so the
        # key holds its answer (asked once, as the plan would), not the function.
        if can_soak is None:  # the plan refuses: it needs the answer
            return _defense_plan(ruleset, defender, attacker, defense, plan, ctx, None)
        answer = bool(can_soak(plan.damage_type))
        key = (*key, answer)
        hit = memo.plans.get(key)
        if hit is not None and hit[0] is ruleset:
            return hit[1]
        value = _defense_plan(ruleset, defender, attacker, defense, plan, ctx,
                              lambda _type: answer)
        memo.store(key, (ruleset, value, defender))
        return value
    _check_magic_defense(ruleset, intent, defense)
    asked: list[bool] = []
    soak = can_soak
    if can_soak is not None:
        def soak(damage_type):
            asked.append(bool(can_soak(damage_type)))
            return asked[-1]
    value = _defense_plan(ruleset, defender, attacker, defense, plan, ctx, soak)
    if key is not None:
        if asked:
            memo.store(key, (ruleset, _ASKS_SOAK, defender))
            key = (*key, asked[0])
        memo.store(key, (ruleset, value, defender))
    return value
