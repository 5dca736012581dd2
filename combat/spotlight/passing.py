"""The Storyteller moves the spotlight (SPOT-04..09): starts a round, ends a turn, picks
the opponent who acts, passes; ambushes (SPOT-08) and environment events (SPOT-09).

READING (the seed is silent): ambushes reorder the round, they add no turns: ambushing
opponents spend their turns for the round in the opening; an opponent not picked then can
still be picked later.
"""

from __future__ import annotations

from ..core.errors import IllegalAction, InputError
from ..core.values import replace
from .flow import (Step, end_turn, finish, live, names_of, new_round, open_picks, put,
                   spotlight_event)
from .state import AMBUSH, SpotlightState
from .tables import spot_rules


def ambush(state: SpotlightState, side: str, ruleset) -> Step:
    """SPOT-08: ``side`` ("opponents" or "pcs") got the drop. Set before round 1 it shapes
    round 1; later, the next round. Opponents ambushing: the round opens with the
    Storyteller picking opponents; PCs ambushing: every PC acts before any opponent."""
    rules = spot_rules(ruleset)
    live(state)
    s = str(side).strip().lower()
    aliases = {
        "enemies": "opponents",
        "opponent": "opponents",
        "npcs": "opponents",
        "pc": "pcs",
        "players": "pcs",
    }
    s = aliases.get(s, s)
    if s not in AMBUSH:
        raise InputError("Who ambushes? +combat/ambush opponents  or  +combat/ambush pcs.")
    rnd = state.round + 1
    st = replace(state, ambush=s, ambush_round=rnd)
    return finish(state, st, rules, [{"event": "ambush", "side": s, "round": rnd}])


def advance(state: SpotlightState, ruleset) -> Step:
    """The Storyteller moves on: start round 1; end the turn of whoever has the spotlight;
    pass the pick after a PC (no opponent acts there); end the ambush opening; or, after the
    PCs, start the next round (the opponents' unused turns are forfeited)."""
    rules = spot_rules(ruleset)
    live(state)
    events: list[dict] = []
    st = state
    if st.stage == "initiative":
        if not any(c.is_pc and c.init_total is not None for c in st.combatants):
            raise IllegalAction("No PC has rolled initiative yet: +combat/init first (SPOT-01).")
        waiting = [c.key for c in st.combatants if c.is_pc and c.init_total is None]
        st = new_round(st, rules, events)
        if waiting:
            events[-1]["without"] = waiting  # they take their place once they roll
        return finish(state, st, rules, events, rounds=0)
    if st.holder:
        events.append({"event": "pass", "round": st.round, "who": list(st.holder)})
        st = end_turn(st, rules)
    elif st.stage == "pcs" and st.picking:
        events.append({"event": "pass", "round": st.round, "who": [], "pick": True})
        st = replace(st, picking=False, cursor=st.cursor + 1)
    elif st.stage == "opening":
        events.append({"event": "pass", "round": st.round, "who": [], "opening": True})
        st = replace(st, stage="pcs", cursor=0, picking=False)
    elif st.stage == "closing":
        forfeited = open_picks(st)
        events.append({"event": "pass", "round": st.round, "who": [], "forfeited": forfeited})
        st = new_round(st, rules, events)
        return finish(state, st, rules, events, rounds=0)
    return finish(state, st, rules, events)


def next_opponent(state: SpotlightState, key: str, ruleset) -> Step:
    """SPOT-04/05: the Storyteller gives the spotlight to opponent ``key`` (after a PC's
    turn, in an ambush opening, or after the PCs). Each pick is one of its turns this round."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(key)
    if c.is_pc:
        raise IllegalAction(
            f"{c.name} is a PC: PCs act in initiative order (SPOT-02); the Storyteller picks "
            f"opponents only."
        )
    if state.stage == "initiative":
        raise IllegalAction("The round hasn't started: +combat/next with no name starts it.")
    if state.holder:
        raise IllegalAction(
            f"{names_of(state, state.holder)} has the spotlight; when that turn ends the "
            f"Storyteller picks the next opponent (or ends it now: +combat/next)."
        )
    if state.stage == "pcs" and not state.picking:
        raise IllegalAction("A PC's turn comes first (SPOT-04).")
    if state.stage == "pcs" and state.ambush == "pcs" and state.ambush_round == state.round:
        raise IllegalAction(
            "The PCs ambushed: every PC acts before any opponent this round (SPOT-08)."
        )
    if c.incapacitated:
        why = "staked" if c.staked else ("out of the fight" if c.status == "out" else c.status)
        raise IllegalAction(f"{c.name} is {why} and cannot act.")
    if c.turns >= c.actions_per_round:
        raise IllegalAction(
            f"{c.name} has taken {c.turns} of {c.actions_per_round} turn(s) this round "
            f"(SPOT-05). Still able to act: {names_of(state, open_picks(state))}."
        )
    c2 = replace(c.fresh_turn(), turns=c.turns + 1)
    st = replace(put(state, c2), holder=(key,))
    events = [
        {
            **spotlight_event(st, (key,), "opponent"),
            "turn_of_round": c2.turns,
            "actions_per_round": c2.actions_per_round,
        }
    ]
    return finish(state, st, rules, events)


def event(state: SpotlightState, text: str, ruleset) -> Step:
    """SPOT-09: the Storyteller posts an environment event (hazard, complication, change of
    the battlefield) between turns; it is logged with the round and changes no turn."""
    rules = spot_rules(ruleset)
    live(state)
    text = str(text or "").strip()
    if not text:
        raise InputError("Describe the event: +combat/event The floor gives way under Bob.")
    if len(text) > 2000:
        raise InputError("Keep an event under 2000 characters.")
    ev = {"event": "event", "round": state.round, "text": text}
    return finish(state, state, rules, [ev])
