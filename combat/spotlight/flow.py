"""How a spotlight round moves on (SPOT-01..09): who the fight waits for, and where the
spotlight goes once nobody needs to be waited for.

The round:

* ``initiative``: only PCs roll (SPOT-01), 2d6 + the highest of Wits / Blood Potency (the
  seed gives no dice; the YAML default, ``spotlight.initiative``). The order is highest first
  (SPOT-02); tied PCs share a slot and act simultaneously until they settle it with ``swap``
  (SPOT-03). The Storyteller's ``advance`` starts round 1.
* ``pcs``: the PC slot at ``cursor`` has the spotlight; when its turn ends the Storyteller
  picks which opponent acts (``next_opponent``) or passes (``advance``); then the next slot.
  Opponents with ``actions_per_round`` > 1 can be picked several times a round (SPOT-05).
* ``closing``: after every PC has acted, the opponents' remaining turns (the Storyteller
  picks) and environment events (``event``, any time: SPOT-09); when no opponent turn is
  left the next round starts at the top of the order (SPOT-06; ``rounds.auto_new_round``).
* ``opening``: a round where the opponents got the drop (SPOT-08) starts with the
  Storyteller picking opponents; their turns count against their actions for the round.
  When the PCs ambush, nobody is picked between PC slots that round: the opponents take
  their turns in ``closing``.

Every operation of the engine is ``(state, ..., ruleset, [rng]) -> Step(state, events)`` and
ends in ``finish``; events are plain JSON-safe dicts with an ``event`` key; an illegal intent
raises ``IllegalAction`` saying what is allowed instead, the caller's frozen state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..core.conditions import ended_event, split_expired
from ..core.errors import IllegalAction, InputError
from ..core.values import replace
from .state import Fighter, SpotlightState
from .tables import SpotRules


@dataclass(frozen=True, slots=True)
class Step:
    """The new state and what happened, in order (the d10 scheduler's shape)."""

    state: SpotlightState
    events: tuple[dict, ...]


def live(st: SpotlightState) -> None:
    if st.stage == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def names_of(st: SpotlightState, keys: Iterable[str]) -> str:
    idx = st.index()
    return ", ".join(st.combatants[idx[k]].name if k in idx else k for k in keys) or "nobody"


def put(st: SpotlightState, *fs: Fighter) -> SpotlightState:
    return st.with_fighters({f.key: f for f in fs})


def whole(value, what: str, lo: int = 0, hi: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < lo
        or (hi is not None and value > hi)
    ):
        span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise InputError(f"{what} must be a whole number, {span}, not {value!r}.")
    return value


def open_picks(st: SpotlightState) -> list[str]:
    """Opponents the Storyteller can still pick this round (SPOT-04/05)."""
    return [
        c.key
        for c in st.combatants
        if c.side == "opponent" and c.can_act(st.round) and c.turns < c.actions_per_round
    ]


def prompts(state: SpotlightState) -> list[tuple[str, str]]:
    """(key, what) for everyone the combat waits for: ``initiative`` (a PC to roll before
    round 1), ``act`` (holds the spotlight), ``pick`` (an opponent the Storyteller may pick
    now). Empty in a running round: the Storyteller moves on with ``advance``."""
    st = state
    if st.stage == "ended":
        return []
    if st.stage == "initiative":
        return [(c.key, "initiative") for c in st.combatants if c.is_pc and c.init_total is None]
    if st.holder:
        idx = st.index()
        return [(k, "act") for k in st.holder if not st.combatants[idx[k]].done]
    if st.stage in ("opening", "closing") or st.picking:
        return [(k, "pick") for k in open_picks(st)]
    return []


def pending(state: SpotlightState) -> list[str]:
    return [k for k, _ in prompts(state)]


def order_view(state: SpotlightState) -> list[dict]:
    """SPOT-02: the order as everyone sees it, highest first; a slot of several is a tie
    acting simultaneously (SPOT-03)."""
    idx = state.index()
    out = []
    for i, slot in enumerate(state.order):
        out.append(
            {
                "slot": i + 1,
                "keys": list(slot),
                "total": state.combatants[idx[slot[0]]].init_total if slot else None,
                "current": state.stage == "pcs" and i == state.cursor,
            }
        )
    return out


def spotlight_event(st: SpotlightState, keys: tuple[str, ...], side: str) -> dict:
    return {
        "event": "spotlight",
        "round": st.round,
        "stage": st.stage,
        "who": list(keys),
        "side": side,
    }


def new_round(st: SpotlightState, rules: SpotRules, events: list) -> SpotlightState:
    rnd = st.round + 1
    out = []
    revived, ended = [], []
    for c in st.combatants:
        c = replace(c.fresh_turn(), turns=0)
        if c.conditions:  # issue 31: those whose rounds ran out end as this one begins
            kept, gone = split_expired(c.conditions, rnd)
            c = replace(c, conditions=kept)
            ended += [{"event": "condition", **ended_event(c.key, k), "round": rnd}
                      for k in gone if k.announce]
        if c.status == "torpor" and c.revive_round is not None and c.revive_round <= rnd:
            # SPOT-14: back with HP equal to the Hunger slaked: clear Superficial marks
            # (Aggravated stays; it "can't be healed mid-combat ... unless you Feed").
            target = min(c.revive_hp, c.hp_max - c.aggravated)
            sup = max(0, c.hp_max - c.aggravated - target)
            before = c.hp
            c = replace(c, superficial=sup, status="active", revive_round=None, revive_hp=0)
            revived.append(
                {
                    "event": "revive",
                    "round": rnd,
                    "actor": c.key,
                    "hp_before": before,
                    "hp_after": c.hp,
                }
            )
        out.append(c)
    ambush = st.ambush if st.ambush_round == rnd else None
    st = replace(
        st,
        round=rnd,
        combatants=tuple(out),
        stage="opening" if ambush == "opponents" else "pcs",
        cursor=0,
        holder=(),
        picking=False,
    )
    events.append({"event": "round", "round": rnd, "ambush": ambush, "order": order_view(st)})
    events.extend(revived)
    events.extend(ended)
    return st


def end_turn(st: SpotlightState, rules: SpotRules) -> SpotlightState:
    """The holders' turn is over: where the round goes next."""
    idx = st.index()
    was_pc = bool(st.holder) and st.combatants[idx[st.holder[0]]].is_pc
    changed = {k: replace(st.combatants[idx[k]], done=True) for k in st.holder if k in idx}
    st = replace(st.with_fighters(changed), holder=())
    if st.stage == "pcs":
        if was_pc:
            st = replace(st, picking=True)  # SPOT-04: the Storyteller picks an opponent
        else:
            st = replace(st, picking=False, cursor=st.cursor + 1)
    return st


def _settle(
    st: SpotlightState, rules: SpotRules, events: list, *, rounds: int = 1
) -> SpotlightState:
    """Move on while nobody needs to be waited for. At most ``rounds`` new rounds per call."""
    while st.stage not in ("initiative", "ended"):
        idx = st.index()
        if st.holder:
            acting = [
                k
                for k in st.holder
                if k in idx
                and st.combatants[idx[k]].can_act(st.round)
                and not st.combatants[idx[k]].done
            ]
            if acting:
                break
            st = end_turn(st, rules)
            continue
        ambushing_pcs = st.ambush == "pcs" and st.ambush_round == st.round
        if st.stage == "opening":
            if open_picks(st):
                break
            st = replace(st, stage="pcs", cursor=0, picking=False)
            continue
        if st.stage == "pcs":
            if st.picking and not _pcs_left(st):
                # SPOT-06: the last PC has acted: the round goes on with the remaining
                # opponent actions and the environment (closing), then a new round; the
                # pick after the last PC is that closing, not a pick of its own.
                st = replace(st, stage="closing", picking=False, cursor=len(st.order))
                continue
            if st.picking:
                if open_picks(st) and not ambushing_pcs:
                    break
                st = replace(st, picking=False, cursor=st.cursor + 1)
                continue
            if st.cursor < len(st.order):
                keys = tuple(
                    k
                    for k in st.order[st.cursor]
                    if k in idx and st.combatants[idx[k]].can_act(st.round)
                )
                if keys:
                    fresh = {k: st.combatants[idx[k]].fresh_turn() for k in keys}
                    st = replace(st.with_fighters(fresh), holder=keys)
                    events.append(spotlight_event(st, keys, "pc"))
                    break
                st = replace(st, cursor=st.cursor + 1)
                continue
            st = replace(st, stage="closing", picking=False)  # SPOT-06
            continue
        # closing: the opponents' remaining turns, then a new round from the top
        if open_picks(st) or not rules.auto_new_round or rounds <= 0:
            break
        rounds -= 1
        st = new_round(st, rules, events)
    return st


def _pcs_left(st: SpotlightState) -> bool:
    """A PC slot after the cursor still has someone who can act this round."""
    idx = st.index()
    return any(
        k in idx and st.combatants[idx[k]].can_act(st.round)
        for slot in st.order[st.cursor + 1 :]
        for k in slot
    )


def _where(st: SpotlightState) -> tuple:
    return (st.round, st.stage, st.cursor, st.holder, st.picking, tuple(prompts(st)))


def finish(
    before: SpotlightState, st: SpotlightState, rules: SpotRules, events: list, *, rounds: int = 1
) -> Step:
    st = _settle(st, rules, events, rounds=rounds)
    if _where(st) != _where(before) and st.stage != "ended":
        groups: dict[str, list[str]] = {}
        for k, w in prompts(st):
            groups.setdefault(w, []).append(k)
        if not groups:
            groups["advance"] = []  # nobody to wait for: the Storyteller moves on
        for what, who in groups.items():
            events.append(
                {"event": "prompt", "round": st.round, "stage": st.stage, "what": what, "who": who}
            )
        st = replace(st, deadline=None)
    return Step(replace(st, seq=st.seq + 1), tuple(events))
