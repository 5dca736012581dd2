"""The spotlight engine behind the one engine interface (issue 8; seed 004, SPOT-01..14).

``ENGINE.apply(state, intent, sheets, rules, rng) -> Outcome`` runs a spotlight fight: the
table ``ACTIONS`` turns a typed intent (``combat/core/intents.py``) into its action
(``combat/spotlight/actions/``), which checks it, calls the pure spotlight operations and
returns the new state and the events. Every game decision a spotlight ``+combat`` command
used to take lives here, so the command only parses text into an intent, checks who may ask
(organizer/staff or player) and renders events; the text it prints is rebuilt from the
events' fields alone. An intent only the d10 engine takes is refused with what to type
instead (``refusals.py``); the idle clock is ``idle.py``.

Readings where the seed and the old command are silent (listed for the lead):
- a PC always acts once a round (SPOT-04), whatever the YAML gives opponents;
- Harm is kept on the character's sheet as well as in the fight (issue 10): every command
  that changes someone's Harm returns their sheet with the new marks, so a character who
  leaves hurt or meets Final Death joins the next fight with that Harm; feeding and the
  end-of-scene Hunger Check write the vampire's Hunger back too;
- the organizer is not joined by +combat/start (issue 10: staff running the opponents are
  not a PC unless they +combat/join).

Pure: no Evennia, Django or Twisted import; dice come from the injected ``random.Random``.
"""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Mapping

from ..core import intents
from ..core.errors import IllegalAction
from ..core.outcome import Outcome
from ..core.values import replace
from . import flow, idle, ranges, roster
from . import moves as mv
from .actions import clock, harm, moves, reroll, rounds, setup, turn
from .actions.base import Action, harm_to_sheets, out
from .refusals import d10_only
from .state import ENGINE as NAME
from .state import SpotlightState

# The table from intent kind to the action that plays it (an intent not here is d10's).
ACTIONS: Mapping[str, Action] = MappingProxyType({a.intent.kind: a for a in (
    setup.Join(), setup.Remove(), setup.End(),
    rounds.RollInitiative(), rounds.Advance(), rounds.Swap(), rounds.Ambush(),
    rounds.Narrate(), rounds.SetCondition(), rounds.SetRange(),
    turn.Move(), turn.Free(), turn.Done(), turn.Act(), reroll.Reroll(), moves.NameCost(),
    harm.StaffDamage(), harm.StaffHeal(), harm.Stake(), harm.Feed(),
    clock.SetTimeout(), clock.Expire(),
)})


class SpotlightEngine:
    """The ``combat.core.engine.Engine`` of a spotlight ruleset (``engine: spotlight``)."""

    name = NAME

    def new_combat(self, combat_id: str, rules, options: Mapping[str, Any]) -> Outcome:
        """A fight before round 1. The d10 modes (simple, classic, reroll) mean nothing
        here and are refused, and so is a pace (=ahead, =slots: the spotlight goes from one
        to the next); ``timeout`` (seconds) is the only option taken, and the game's
        ``default_pace`` for d10 fights is not for this one."""
        opts = dict(options or {})
        timeout = opts.pop("timeout", None)
        opts.pop("default_pace", None)
        if any(v not in (None, False, "", (), []) for v in opts.values()):
            raise IllegalAction("A spotlight fight has no modes (=simple, =reroll, =ahead "
                                "are for d10 rulesets): +combat/start spotlight")
        state = roster.new_combat(combat_id, rules)
        if timeout is not None:
            state = replace(state, options=replace(state.options, timeout=int(timeout)))
        start = {"event": "start", "engine": NAME, "ruleset": rules.name,
                 "how": "spotlight engine"}
        return out(state, [start])

    def apply(self, state: SpotlightState, intent: intents.Intent, sheets: Mapping[str, Any],
              rules, rng: random.Random, *, memo=None) -> Outcome:
        # ``memo`` (combat/core/memo.py): the d10 engine's plans; nothing here is worth keeping.
        action = ACTIONS.get(intent.kind)
        if action is None:
            raise IllegalAction(d10_only(intent))
        result = action(state, intent, sheets, rules, rng)
        if result.events and result.state.last_roll is state.last_roll is not None:
            # the roll stood until something else happened: no reroll of it any more
            result = Outcome(replace(result.state, last_roll=None), result.sheet_changes,
                             result.events)
        return harm_to_sheets(state, result, sheets)

    def load(self, data: Mapping) -> SpotlightState:
        return SpotlightState.from_dict(data)

    def prompts(self, state: SpotlightState) -> list[tuple[str, str]]:
        return flow.prompts(state)

    def pending(self, state: SpotlightState) -> list[str]:
        return flow.pending(state)

    # The idle clock, shaped like combat/d10/idle.py so the service treats both engines alike.

    def stamp(self, state: SpotlightState, timeout: int | None, now: float) -> SpotlightState:
        return idle.stamp(state, timeout, now)

    def due(self, state: SpotlightState, now: float) -> bool:
        return idle.due(state, now)

    def remaining(self, state: SpotlightState, now: float) -> float | None:
        return idle.remaining(state, now)

    def timeout(self, state: SpotlightState) -> int | None:
        return state.options.timeout

    def view(self, state: SpotlightState, sheets: Mapping, rules) -> dict:
        """What the status screen and the web page show: the order, who holds the
        spotlight, each fighter's Harm and status, the range between every pair."""
        rows = []
        for c in state.combatants:
            # SPOT-12: a staked vampire is incapacitated at once, whatever its HP.
            status = (("incapacitated, staked" if c.status == "active" else
                       f"{c.status}, staked") if c.staked else c.status)
            if c.revive_round is not None:
                status += f", wakes round {c.revive_round}"
            active = [k for k in c.conditions if k.active(max(state.round, 1))]
            rows.append({"key": c.key, "name": c.name, "npc": not c.is_pc,
                         "init": c.init_total, "turns": c.turns,
                         "actions_per_round": c.actions_per_round, "hp": c.hp,
                         "hp_max": c.hp_max, "superficial": c.superficial,
                         "aggravated": c.aggravated, "status": status,
                         "conditions": [k.name for k in active],
                         # issue 31: a 7-9 on a move whose cost is not yet named
                         **({"cost_owed": c.cost_owed} if c.cost_owed else {}),
                         # issue 31: rounds left, counting this one
                         "timers": {k.name: k.left(max(state.round, 1)) for k in active
                                    if k.until_turn is not None}})
        keys = [c.key for c in state.combatants]
        pairs = [(a, b, ranges.range_between(state, a, b, rules))
                  for i, a in enumerate(keys) for b in keys[i + 1:]]
        return {"engine": self.name, "resolution": mv.resolution(rules),
                "round": state.round, "stage": state.stage,
                "order": flow.order_view(state), "holder": list(state.holder),
                "waiting": self.prompts(state), "rows": rows, "ranges": pairs}

    def default_actor(self, state: SpotlightState, by: str, runs_npcs: bool) -> str | None:
        """Who an act with no name is for: your PC when it has the spotlight; else, for
        whoever runs the opponents, the opponent holding it (SPOT-04/05); else your PC."""
        mine = state.get(by)
        if mine is not None and mine.key in state.holder:
            return mine.key
        if runs_npcs:
            opp = [k for k in state.holder if not state.get(k).is_pc]
            if opp:
                return opp[0]
        return mine.key if mine is not None else None


ENGINE = SpotlightEngine()
