"""The turn scheduler: initiative, who declares and acts when, extra actions, aborts.

Every operation is a pure function ``(state, intent..., ruleset, rng) -> Step(state, events)``:
nothing is stored or printed here. Events (``core.events.Event``, or plain JSON-safe dicts
``{"event": ...}``: both read ``e["event"]`` and ``e.get(...)`` alike) are for
the combat log and the renderer; an illegal intent raises ``IllegalAction`` saying why and
what is allowed instead, and leaves the caller's state untouched (states are frozen).

The turn (seed 000 "Basics"; TURN-xx / INIT-xx of the rules catalog):

* ``initiative``: everyone taking part rolls (INIT-01); turn 1 waits for the organizer's
  ``advance`` so late arrivals can still join; later turns re-roll only with the combat
  option (INIT-04) and otherwise go straight on.
* ``declare`` (classic mode): slots from low to high initiative (TURN-01); multiple actions,
  powers, Willpower and extra actions are declared here (TURN-02).
* ``act``: the main phase, high to low (TURN-03): one action each (TURN-06), or every split
  action in everyman's turn (TURN-11). The simple mode (TURN-05) has no declare phase:
  each slot declares, then acts, high to low.
* ``extra``: the remaining actions in the same order (TURN-06/07); supernatural extras last
  (MAN-06).

The order is a tuple of slots; everyone in a slot shares initiative and rating and acts
simultaneously (INIT-06). ``cursor`` points at the slot the phase waits for. A character who
delays (TURN-04) may act at any later moment of that phase; when the slots are done, the
delayed ones still holding an action are waited for, higher rating first (INIT-06: "or delay
until the same moment"), before the next phase starts.

Declared defenses (block, dodge, parry; TURN-09 anticipated ones) never hold the turn up:
they wait for an attack and are spent by ``defend`` when the attack layer resolves one.

Cost: each operation is O(n) in the number of combatants (one index, one pass to replace a
combatant); sorting happens once per phase.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..core import dice
from ..core.events import Event
from ..core.errors import IllegalAction, InputError, RuleIssue, RulesError
from ..core.pools import Modifier
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..core.conditions import ended_event, split_expired
from .state import MODES, Combatant, CombatState, Condition, Options, Slot, plain
from ..core.values import copier, fast_init, replace

# ---------------------------------------------------------------- the YAML this module reads

INITIATIVE_SCHEMA = Struct(
    required={
        "dice": Int(0, 5),  # INIT-01: + 1d10
        "apply_wound_penalty": Bool(),  # INIT-03
        "rating": ListOf(Str(), min_len=1),  # INIT-01: the traits summed into the rating
        "reroll_option": Bool(),  # INIT-04: may a fight ask for initiative every turn
    },
    optional={
        "apply_race_modifiers": Bool(),  # INIT-05
        "reroll_each_turn": Bool(),  # INIT-04: the combat option's default
        "modifiers": ListOf(
            Struct(  # INIT-05
                required={"race": Str(), "value": Int(-10, 10)},
                optional={"flag": Str(), "reason": Str(), "source": Str()},
            )
        ),
        "source": Str(),
    },
)

_EXTRA_SOURCE = Struct(
    required={"starts": Str(choices=("this_turn", "next_turn"))},
    optional={
        "activations_per_turn": Int(1, 10),
        "physical_only": Bool(),
        "pool": Str(),
        "cost": Int(0, 10),
        "cap_divisor": Int(1, 10),
        "excludes_split": Bool(),
        "over_limit_difficulty": Int(0, 10),
        "frenzy_ignores_wits": Bool(),
        "source": Str(),
    },
)

TURNS_SCHEMA = Struct(
    required={
        "default_mode": Str(choices=MODES),
        # TURN-05: the modes an organizer may choose at /start (numetal adds simple).
        "modes": ListOf(Str(choices=MODES), min_len=1),
        "split_actions_in_main_phase": Bool(),
        "defensive_kinds": ListOf(Str(), min_len=1),
        "multiple_actions": Struct(
            required={"first": Int(0, 10), "step": Int(0, 10)},
            optional={"max_declared": Int(1, 100), "source": Str()},
        ),
        "abort": Struct(
            required={"difficulty": Int(1, 10), "to_kinds": Optional(ListOf(Str()))},
            optional={
                "spend_after_failure": Bool(),
                "free_if_pointless": Bool(),
                "non_defensive_difficulty": Int(0, 5),
                "source": Str(),
            },
        ),
    },
    optional={
        "npc_early_declaration": Bool(),
        "anticipated_defense": Bool(),
        "powers_in_split": Bool(),
        "desperate_defense": Struct(required={"step": Int(0, 10)}, optional={"source": Str()}),
        "extra_sources": MapOf(_EXTRA_SOURCE),
        "change": Struct(
            required={"enabled": Bool()},
            optional={"difficulty": Int(1, 10), "source": Str(),
                      "spend_after_failure": Bool()},
        ),
        "conditions": MapOf(
            Struct(
                optional={
                    "starts": Str(choices=("now", "next_turn")),
                    "turns": Optional(Int(1, 100)),
                    "lose_actions": Bool(),
                    "initiative": Int(-10, 10),
                    "removed_by": ListOf(Str()),
                    "source": Str(),
                },
            )
        ),
        # Idle players (read by combat/d10/idle.py): what the game declares for someone who lets
        # the combat's timeout pass: nothing (pass) or a full (desperate) defense.
        "idle": Struct(
            required={"declare": Str(choices=("pass", "full_defense"))},
            optional={"defense": Str(choices=("dodge", "block", "parry")), "source": Str()},
        ),
        "source": Str(),
    },
)

SCHEMA = {"initiative": INITIATIVE_SCHEMA, "turns": TURNS_SCHEMA}


@dataclass(frozen=True)
class TurnRules:
    """The ``initiative:`` and ``turns:`` sections, read once per loaded ruleset."""

    init_dice: int
    sides: int
    apply_wound_penalty: bool
    apply_race_modifiers: bool
    reroll_default: bool
    reroll_option: bool
    race_mods: tuple[dict, ...]
    default_mode: str
    modes: tuple[str, ...]
    npc_early: bool
    split_in_main: bool
    defensive: frozenset[str]
    anticipated: bool
    powers_in_split: bool
    ma_first: int
    ma_step: int
    ma_max: int
    desperate_step: int
    extra_sources: Mapping[str, dict]
    abort: Mapping[str, Any]
    change: Mapping[str, Any]
    conditions: Mapping[str, dict]

    @classmethod
    def from_ruleset(cls, ruleset) -> "TurnRules":
        init, turns = ruleset.section("initiative"), ruleset.section("turns")
        if not init or not turns:
            missing = "initiative" if not init else "turns"
            raise RulesError(
                [
                    RuleIssue(
                        "",
                        missing,
                        f"ruleset '{ruleset.name}' has no "
                        f"'{missing}:' section; the d10 turn needs it",
                    )
                ]
            )
        ma = turns["multiple_actions"]
        return cls(
            init_dice=init["dice"],
            sides=ruleset.dice.sides,
            apply_wound_penalty=init["apply_wound_penalty"],
            apply_race_modifiers=init.get("apply_race_modifiers", True),
            reroll_default=init.get("reroll_each_turn", False),
            reroll_option=init["reroll_option"],
            race_mods=tuple(init.get("modifiers") or ()),
            default_mode=turns["default_mode"],
            modes=tuple(turns["modes"]),
            npc_early=turns.get("npc_early_declaration", False),
            split_in_main=turns["split_actions_in_main_phase"],
            defensive=frozenset(k.lower() for k in turns["defensive_kinds"]),
            anticipated=turns.get("anticipated_defense", False),
            powers_in_split=turns.get("powers_in_split", True),
            ma_first=ma["first"],
            ma_step=ma["step"],
            ma_max=ma.get("max_declared", 10),
            desperate_step=(turns.get("desperate_defense") or {"step": 1})["step"],
            extra_sources={k.lower(): v for k, v in (turns.get("extra_sources") or {}).items()},
            abort=turns["abort"],
            change=turns.get("change") or {"enabled": False},
            conditions={k.lower(): v for k, v in (turns.get("conditions") or {}).items()},
        )


def turn_rules(ruleset) -> TurnRules:
    return ruleset.derived(TurnRules.from_ruleset)


# ---------------------------------------------------------------- results


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Step:
    """The new state and what happened, in order."""

    state: CombatState
    events: tuple  # Events and plain dicts (see the module doc)


@dataclass(frozen=True, slots=True)
class InitRequest:
    """One initiative roll in a batch (``roll_initiatives``)."""

    key: str
    rating: int | None = None  # None: the rating stored by an earlier roll (re-rolls)
    race: str = ""
    wound_penalty: int = 0
    manual: tuple[tuple[str, int], ...] = ()  # INIT-03: what the player accounts for by hand
    faces: tuple[int, ...] | None = None  # exact faces (tests, a staffer re-entering a roll)
    force: bool = False  # replace a roll already made in the initiative phase


# ---------------------------------------------------------------- queries


def initiative_rating(sheet, ruleset) -> int:
    """INIT-01: the rating from a ``Sheet``: the traits ``initiative.rating`` names summed
    (Dexterity + Wits). NPCs without a sheet give the number (INIT-02)."""
    names = ruleset.section("initiative")["rating"]
    return sum(sheet.rating(ruleset.traits, name) for name in names)


def effective_initiative(c: Combatant, turn: int, ruleset) -> int:
    """The total the order uses this turn: the roll plus conditions' initiative effects
    (COMP-04 knockdown: -2 initiative next turn)."""
    rules = turn_rules(ruleset)
    return (c.init_total or 0) + _condition_initiative(c, turn, rules)


def _condition_initiative(c: Combatant, turn: int, rules: TurnRules) -> int:
    if not c.conditions:  # most combatants, at every phase's sort
        return 0
    return sum(
        (rules.conditions.get(k.name) or {}).get("initiative", 0)
        for k in c.conditions
        if k.active(turn)
    )


def active_conditions(c: Combatant, turn: int) -> tuple[str, ...]:
    return tuple(k.name for k in c.conditions if k.active(turn))


def _window(c: Combatant, phase: str) -> range:
    if phase != "act" and c.delayed:  # TURN-04: a held main action goes on into the extras
        return range(0, len(c.actions))
    return range(0, c.main) if phase == "act" else range(c.main, len(c.actions))


def _next_index(c: Combatant, phase: str) -> int | None:
    """The next declared action this phase runs (defenses wait for attacks instead)."""
    if not c.actions:
        return None
    used, reactive = c.used, c.reactive  # a few indices each: a tuple is searched fastest
    for i in _window(c, phase):
        if i not in used and i not in reactive:
            return i
    return None


def _wants(st: CombatState, c: Combatant, tail: bool = False) -> str | None:
    """What the turn waits for from ``c`` in its slot: initiative, declare, act, or nothing."""
    if c.lost or c.joined_turn > st.turn:
        return None
    if st.phase == "initiative":
        return "initiative" if c.init_total is None else None
    if c.init_total is None or st.phase not in ("declare", "act", "extra"):
        return None
    if st.phase == "declare":
        return None if c.declared else "declare"
    if c.delayed and not tail:
        return None
    if st.phase == "act" and st.options.mode == "simple" and not c.declared:
        return "declare"
    return "act" if _next_index(c, st.phase) is not None else None


def _tail(st: CombatState) -> list[tuple[str, str]]:
    """After the last slot: the delayed who still hold an action, higher rating first,
    equal ratings together (INIT-06, "delay until the same moment")."""
    waiting = [(c, w) for c in st.combatants if c.delayed and (w := _wants(st, c, tail=True))]
    if not waiting:
        return []
    if st.phase == "act" and all(w == "act" for _, w in waiting) and any(
        not c.delayed and not c.lost and c.joined_turn <= st.turn and c.init_total is not None
        and _next_index(c, "extra") is not None
        for c in st.combatants
    ):
        return []  # TURN-04: "at any point later in the turn": the extra phase goes on
    top = max(c.rating or 0 for c, _ in waiting)
    return [(c.key, w) for c, w in waiting if (c.rating or 0) == top]


def _scan(st: CombatState, idx: dict[str, int]) -> tuple[int, list[tuple[str, str]]]:
    """The first slot from the cursor that waits for someone, and who; or the tail."""
    cur = st.cursor
    while cur < len(st.order):
        found = []
        for k in st.order[cur].keys:
            i = idx.get(k)
            if i is not None and (w := _wants(st, st.combatants[i])):
                found.append((k, w))
        if found:
            return cur, found
        cur += 1
    return cur, _tail(st)


def prompts(state: CombatState) -> list[tuple[str, str]]:
    """(key, what) for everyone the turn waits for now; what is initiative/declare/act."""
    return list(_waiting_of(state))


def _waiting_of(state: CombatState) -> tuple[tuple[str, str], ...]:
    """``prompts`` as the tuple kept on the state, not a copy (for readers here only).
    A command asks this of the same state several times (the checks, ``_finish``
    comparing before and after); a state is frozen, so the answer is kept on it."""
    waiting = state._waiting
    if waiting is None:
        waiting = _remember(state, _prompts(state))
    return waiting


def _prompts(state: CombatState) -> list[tuple[str, str]]:
    if state.phase == "ended":
        return []
    if state.phase == "initiative":
        return [(c.key, "initiative") for c in state.combatants if _wants(state, c)]
    return _scan(state, state.index())[1]


def _remember(state: CombatState, waiting: Iterable[tuple[str, str]]) -> tuple:
    """Keep ``prompts(state)`` on the state (its ``_waiting`` cache, combat/d10/state.py)."""
    waiting = tuple(waiting)
    object.__setattr__(state, "_waiting", waiting)
    return waiting


def pending(state: CombatState) -> list[str]:
    """The keys the turn waits for (the "slackers" list)."""
    return [k for k, _ in prompts(state)]


def simultaneous_with(state: CombatState, key: str) -> tuple[str, ...]:
    """Who shares ``key``'s slot in this phase (INIT-06): their actions resolve together."""
    for slot in state.order:
        if key in slot.keys:
            return tuple(k for k in slot.keys if k != key)
    return ()


def anticipated_defense(
    state: CombatState, defender: str, attacker: str
) -> tuple[int, dict] | None:
    """TURN-09: the unused defense ``defender`` declared against ``attacker``'s anticipated
    attack, as (index, action), so the attack layer resolves them together."""
    c = state.find(defender)
    for i in c.reactive:
        if i not in c.used and c.actions[i].get("against") == attacker:
            return i, c.actions[i]
    return None


# Hot copies (every act starts a phase or a turn): positional copiers made once here
# (combat/core/values.py ``copier``), in the order of their fields below.
_NEW_PHASE = copier(CombatState, "phase", "order", "cursor")
# What a new turn resets on each combatant (TURN-01): the values passed in this order.
_NEW_TURN = copier(Combatant, "declared", "actions", "main", "reactive", "desperate", "used",
                   "defenses", "delayed", "aborted_to", "abort_failed", "abort_difficulty",
                   "extra_actions", "next_extra", "rage_spent", "action_cap", "conditions",
                   "lost", "ahead_declare", "ahead_act", "late")


def action_penalties(combatant: Combatant, ruleset) -> tuple[tuple[Modifier, ...], ...]:
    """The modifiers the turn puts on each declared action, by index.

    MAN-05: N declared actions: -N dice on the first, -(N+1) on the second, ...; DEF-04:
    desperate defense: -1 on the second, -2 on the third instead; MAN-06: supernatural extra
    actions carry none (Celerity 3 + 2 actions: -2, -3, 0, 0, 0); MAN-08: Rage spent and
    more actions than the lowest of Dex/Wits: +3 difficulty on all; TURN-08 revised: a
    changed action that is not defensive is +1 difficulty.
    """
    acts = combatant.actions
    if (len(acts) == 1 and not (combatant.aborted_to is not None and combatant.abort_difficulty)
            and (combatant.action_cap is None or combatant.action_cap >= 1)):
        return ((),)  # one action, not changed, within the cap: nothing (asked thrice an act)
    rules = turn_rules(ruleset)
    normal = sum(1 for a in acts if not a.get("extra"))
    over = None
    rage = rules.extra_sources.get("rage") or {}
    if combatant.action_cap is not None and len(acts) > combatant.action_cap:
        diff = rage.get("over_limit_difficulty", 0)
        if diff:
            over = Modifier(
                f"{len(acts)} actions, more than Dexterity/Wits ({combatant.action_cap})",
                difficulty=diff,
            )
    out, pos = [], 0
    for i, a in enumerate(acts):
        mods: list[Modifier] = []
        if combatant.desperate:
            if i and rules.desperate_step:
                mods.append(Modifier("desperate defense", dice=-i * rules.desperate_step))
        elif not a.get("extra"):
            if normal >= 2:
                penalty = normal * rules.ma_first + pos * rules.ma_step
                mods.append(Modifier(f"multiple actions ({normal})", dice=-penalty))
            pos += 1
        if i == 0 and combatant.aborted_to is not None and combatant.abort_difficulty:
            mods.append(Modifier("changed action", difficulty=combatant.abort_difficulty))
        if over:
            mods.append(over)
        out.append(tuple(mods))
    return tuple(out)


def penalty_for(combatant: Combatant, index: int, ruleset) -> tuple[Modifier, ...]:
    """The modifiers of the ``index``-th declared action (0-based)."""
    table = action_penalties(combatant, ruleset)
    if not 0 <= index < len(table):
        raise InputError(
            f"{combatant.name} declared {len(table)} action(s); there is no "
            f"action #{index + 1}."
        )
    return table[index]


# ---------------------------------------------------------------- plumbing


def _live(st: CombatState) -> None:
    if st.phase == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def _lost(conds: Iterable[Condition], turn: int, rules: TurnRules) -> bool:
    return any(
        k.active(turn) and (rules.conditions.get(k.name) or {}).get("lose_actions") for k in conds
    )


def _lost_reason(c: Combatant, turn: int, rules: TurnRules) -> str:
    names = [
        k.name
        for k in c.conditions
        if k.active(turn) and (rules.conditions.get(k.name) or {}).get("lose_actions")
    ]
    rule = " (COMP-02)" if "dazed" in names else ""
    return (
        f"{c.name} is {' and '.join(names) or 'out of action'} and loses all actions "
        f"this turn{rule}."
    )


def _names(st: CombatState, keys: Iterable[str]) -> str:
    idx = st.index()
    out = [st.combatants[idx[k]].name if k in idx else k for k in keys]
    return ", ".join(out) or "nobody"


def _mods_dicts(mods: Iterable[Modifier]) -> list[dict]:
    return [m.as_dict() for m in mods]


def _begin(st: CombatState, rules: TurnRules, phase: str, events: list) -> CombatState:
    """Start a phase: sort once (INIT-06 key: initiative, then rating, then join order)."""
    turn = st.turn
    # Sorted on (-initiative, -rating, place in the fight): ties keep the join order.
    ranked = []
    for i, c in enumerate(st.combatants):
        if c.joined_turn <= turn and c.init_total is not None:
            total = c.init_total + _condition_initiative(c, turn, rules)
            ranked.append((-total, -(c.rating or 0), i, c.key))
    ranked.sort()
    slots: list[Slot] = []
    for total, rating, _, key in ranked:
        total, rating = -total, -rating
        if slots and slots[-1].initiative == total and slots[-1].rating == rating:
            slots[-1] = Slot(total, rating, slots[-1].keys + (key,))
        else:
            slots.append(Slot(total, rating, (key,)))
    if phase == "declare":
        slots.reverse()  # TURN-01: declaration from low to high
    st = _NEW_PHASE(st, phase, tuple(slots), 0)
    events.append(
        Event("phase", {
            "turn": turn,
            "phase": phase,
            "mode": st.options.mode,
            "order": [s.to_dict() for s in slots],
        })
    )
    return st


def _new_turn(st: CombatState, rules: TurnRules, events: list) -> CombatState:
    turn = st.turn + 1
    reroll = st.options.reroll_initiative
    out, expired, told = [], [], []
    for c in st.combatants:
        if c.conditions:
            conds, ended = split_expired(c.conditions, turn)
            expired += [{"actor": c.key, "condition": k.name} for k in ended]
            # issue 31: one put on by hand with an end: the room hears that it ends
            told += [Event("condition", ended_event(c.key, k)) for k in ended if k.announce]
            lost = _lost(conds, turn, rules)
        else:  # most combatants: nothing expires, nothing takes the turn away
            conds, lost = (), False
        c = _NEW_TURN(c, False, (), 0, (), False, (), 0, False, None, False, 0, c.next_extra,
                      (), 0, None, conds, lost, None, "", False)
        # INIT-04: the rating is kept, so NPCs re-roll without retyping it; a roll made late
        # in the turn before counts for this turn (it was made for it).
        if reroll and not (c.joined_turn == turn and c.init_total is not None):
            c = replace(c, init_faces=(), init_mods=(), init_total=None)
        out.append(c)
    st = replace(st, turn=turn, phase="initiative", combatants=tuple(out), order=(), cursor=0)
    events.append(Event("turn", {"turn": turn, "expired": expired}))
    events.extend(told)
    if any(_wants(st, c) for c in st.combatants):
        events.append(
            Event("phase", {
                "turn": turn,
                "phase": "initiative",
                "mode": st.options.mode,
                "order": [],
            })
        )
    return st


def _settle(
    st: CombatState, rules: TurnRules, events: list, *, allow_start: bool, boundaries: int = 1
) -> CombatState:
    """Move the cursor, phase and turn on while nobody is waited for.

    Turn 1 leaves the initiative phase only on the organizer's ``advance`` (so everyone can
    join first). At most ``boundaries`` turn ends are crossed per call, so a combat where
    nobody can act (all dazed) does not spin.
    """
    st, cur, found = _settle_at(st, rules, events, allow_start, boundaries)
    if cur != st.cursor:
        st = replace(st, cursor=cur)
    if found is not None:
        _remember(st, found)  # what ``prompts`` would scan again, from the same cursor
    return st


def _settle_at(
    st: CombatState, rules: TurnRules, events: list, allow_start: bool, boundaries: int
) -> tuple[CombatState, int, list | None]:
    """``_settle`` without its last copy: (the state, the cursor it must get, who it then
    waits for or None: ask ``prompts``). ``_finish`` makes that copy along with its own
    (seq, deadline): one copy of the state per operation instead of two (bench/engine.py)."""
    while st.phase != "ended":
        if st.phase == "initiative":
            if any(_wants(st, c) for c in st.combatants):
                break
            ready = any(
                c.joined_turn <= st.turn and c.init_total is not None for c in st.combatants
            )
            if not ready or (st.turn == 1 and not allow_start):
                break
            st = _begin(st, rules, "act" if st.options.mode == "simple" else "declare", events)
            continue
        cur, found = _scan(st, st.index())
        if found:
            return st, cur, found
        if st.phase == "declare":
            st = _begin(st, rules, "act", events)  # sets the cursor itself
        elif st.phase == "act":
            st = _begin(st, rules, "extra", events)
        else:
            if boundaries <= 0:
                return st, cur, found  # nobody, from ``cur`` on
            boundaries -= 1
            st = _new_turn(st, rules, events)
    return st, st.cursor, None


def prompt_events(st: CombatState) -> list[dict]:
    """The ``prompt`` events for who the turn waits for now, grouped by what."""
    groups: dict[str, list[str]] = {}
    for k, w in _waiting_of(st):
        groups.setdefault(w, []).append(k)
    if not groups and st.phase != "ended":
        groups["advance"] = []  # nobody to wait for: the organizer moves on
    return [Event("prompt", {"turn": st.turn, "phase": st.phase, "what": what, "who": who})
            for what, who in groups.items()]


def _where(st: CombatState) -> tuple:
    return (st.turn, st.phase, st.cursor, _waiting_of(st))


def _finish(
    before: CombatState,
    st: CombatState,
    rules: TurnRules,
    events: list,
    *,
    allow_start: bool = False,
    boundaries: int = 1,
) -> Step:
    st, cur, found = _settle_at(st, rules, events, allow_start, boundaries)
    waiting = _waiting_of(st) if found is None else tuple(found)
    now = (st.turn, st.phase, cur, waiting)
    if now != _where(before):
        # a new prompt gets a new deadline from the caller
        st = replace(st, cursor=cur, deadline=None, seq=st.seq + 1)
        _remember(st, waiting)
        events.extend(prompt_events(st))
    else:
        st = replace(st, cursor=cur, seq=st.seq + 1)
        _remember(st, waiting)  # the copy waits for the same (seq and deadline do not count)
    return Step(st, tuple(events))


def _finish_spent(before: CombatState, st: CombatState, rules: TurnRules, events: list) -> Step:
    """``_finish`` after a declared defense was spent (``defend``): a defense waits for
    attacks and never holds the turn up (``_next_index`` skips it), so who the turn waits
    for cannot change. When ``before`` is known to wait at its cursor's slot, the settling
    ``_finish`` would do finds exactly that again: only ``seq`` moves on."""
    waiting = before._waiting
    if (waiting and before.cursor < len(before.order)
            and all(k in before.order[before.cursor].keys
                    and _wants(st, st.get(k)) == what for k, what in waiting)):
        # each one waited for in the cursor's own slot, not as a delayed one after the
        # slots (TURN-04): that is what the settling scan from the cursor finds
        st = replace(st, seq=st.seq + 1)
        _remember(st, waiting)
        return Step(st, tuple(events))
    return _finish(before, st, rules, events)


def _put(st: CombatState, c: Combatant) -> CombatState:
    return st.with_combatants({c.key: c})


# ---------------------------------------------------------------- setting up


def new_combat(
    id: str,
    ruleset,
    *,
    mode: str | None = None,
    reroll_initiative: bool | None = None,
    flags: Iterable[str] = (),
    timeout: int | None = None,
    ahead: bool = False,
) -> CombatState:
    """An empty combat in turn 1's initiative phase; the mode is fixed from here (TURN-05).
    ``ahead``: the pacing where choices are entered ahead of the slot (Options.ahead)."""
    rules = turn_rules(ruleset)
    mode = (mode or rules.default_mode).strip().lower()
    if mode not in MODES:
        raise InputError(f"Combat mode must be {' or '.join(MODES)}, not '{mode}'.")
    _check_options(ruleset.name, rules, mode, reroll_initiative)
    reroll = rules.reroll_default if reroll_initiative is None else bool(reroll_initiative)
    opts = Options(mode, reroll, timeout, tuple(sorted({f.strip().lower() for f in flags})),
                   bool(ahead))
    return CombatState(str(id), ruleset.name, opts)


def _check_options(name: str, rules: TurnRules, mode: str | None, reroll: bool | None) -> None:
    """TURN-05 and INIT-04 are numetal's options; another ruleset refuses them by name."""
    if mode is not None and mode not in rules.modes:
        raise IllegalAction(
            f"The {mode} turn (declare and act high to low) is not in the {name} rules; "
            f"{name} plays the {' or '.join(rules.modes)} turn. Type +combat/start {name}."
        )
    if reroll and not rules.reroll_option:
        raise IllegalAction(
            f"Rolling initiative every turn (reroll) is not in the {name} rules. "
            f"Type +combat/start {name}."
        )


def set_options(
    state: CombatState,
    ruleset,
    *,
    mode: str | None = None,
    reroll_initiative: bool | None = None,
    flags: Iterable[str] | None = None,
    timeout: int | None = None,
    ahead: bool | None = None,
) -> Step:
    """Change combat options. The mode only before turn 1 starts (TURN-05: "agreed upon
    before combat starts"); re-rolling (INIT-04) from the next turn; flags (INIT-05) at the
    next initiative roll."""
    rules = turn_rules(ruleset)
    _live(state)
    _check_options(ruleset.name, rules, mode and mode.strip().lower(), reroll_initiative)
    o = state.options
    if mode is not None:
        mode = mode.strip().lower()
        if mode not in MODES:
            raise InputError(f"Combat mode must be {' or '.join(MODES)}, not '{mode}'.")
        if mode != o.mode and not (state.turn == 1 and state.phase == "initiative"):
            raise IllegalAction(
                "The turn mode is agreed before the combat starts (TURN-05); "
                "end this combat and start a new one to change it."
            )
        o = replace(o, mode=mode)
    if reroll_initiative is not None:
        o = replace(o, reroll_initiative=bool(reroll_initiative))
    if flags is not None:
        o = replace(o, flags=tuple(sorted({f.strip().lower() for f in flags if f.strip()})))
    if timeout is not None:
        o = replace(o, timeout=int(timeout))
    if ahead is not None:
        o = replace(o, ahead=bool(ahead))
    events = [{"event": "options", **o.to_dict()}]
    return _finish(state, replace(state, options=o), rules, events)


def join(
    state: CombatState,
    key: str,
    name: str,
    ruleset,
    *,
    is_npc: bool = False,
    controller: str | None = None,
) -> Step:
    """Add a combatant. During an initiative phase they take part in this turn; later, from
    the next turn (the order of a running turn is already set), and they may roll now."""
    rules = turn_rules(ruleset)
    _live(state)
    key = str(key).strip()
    if not key:
        raise InputError("A combatant needs a key (a dbref or an NPC id).")
    old = state.get(key)
    if old is not None:
        raise IllegalAction(
            f"{old.name} is already in this combat (since turn "
            f"{old.joined_turn}); each character joins once."
        )
    joined = state.turn if state.phase == "initiative" else state.turn + 1
    c = Combatant(key, (name or key).strip(), bool(is_npc), controller, joined)
    events = [{"event": "join", "actor": key, "name": c.name, "npc": c.is_npc, "from_turn": joined}]
    return _finish(state, replace(state, combatants=state.combatants + (c,)), rules, events)


def remove(state: CombatState, key: str, ruleset) -> Step:
    """Take a combatant out (fled, destroyed, left the scene)."""
    rules = turn_rules(ruleset)
    _live(state)
    c = state.find(key)
    order, cursor = [], state.cursor
    for i, slot in enumerate(state.order):
        keys = tuple(k for k in slot.keys if k != key)
        if keys:
            order.append(Slot(slot.initiative, slot.rating, keys))
        elif i < state.cursor:
            cursor -= 1
    st = replace(
        state,
        combatants=tuple(x for x in state.combatants if x.key != key),
        order=tuple(order),
        cursor=max(0, cursor),
    )
    return _finish(state, st, rules, [{"event": "leave", "actor": key, "name": c.name}])


def end(state: CombatState, ruleset) -> Step:
    rules = turn_rules(ruleset)
    _live(state)
    st = replace(state, phase="ended", order=(), cursor=0)
    return _finish(state, st, rules, [{"event": "end", "turn": state.turn}])


# ---------------------------------------------------------------- initiative


def _init_modifiers(
    st: CombatState, rules: TurnRules, req: InitRequest
) -> tuple[list[tuple[str, int]], list[dict]]:
    applied: list[tuple[str, int]] = []
    unapplied: list[dict] = []
    for reason, value in req.manual:  # INIT-03: what the player accounts for by hand
        if int(value):
            applied.append((str(reason), int(value)))
    race = (req.race or "").strip().lower()
    for row in rules.race_mods:  # INIT-05
        if (
            race
            and row["race"].lower() == race
            and (not row.get("flag") or row["flag"].lower() in st.options.flags)
        ):
            reason = row.get("reason") or f"{row['race']}"
            if rules.apply_race_modifiers:
                applied.append((reason, row["value"]))
            else:
                unapplied.append({"reason": reason, "value": row["value"]})
    if req.wound_penalty:  # INIT-03
        value = -abs(int(req.wound_penalty))
        if rules.apply_wound_penalty:
            applied.append(("wounds", value))
        else:
            unapplied.append({"reason": "wounds", "value": value})
    return applied, unapplied


def roll_initiatives(
    state: CombatState,
    requests: Iterable[InitRequest | Mapping],
    ruleset,
    rng: random.Random | None = None,
) -> Step:
    """INIT-01/02: rating + 1d10 for each request, in one pass (100 NPCs cost O(n))."""
    rules = turn_rules(ruleset)
    _live(state)
    idx = state.index()
    changed: dict[str, Combatant] = {}
    events: list[dict] = []
    for req in requests:
        if isinstance(req, Mapping):
            req = InitRequest(**req)
        if req.key not in idx:
            state.find(req.key)  # raises with the names in the combat
        c = changed.get(req.key) or state.combatants[idx[req.key]]
        participant = c.joined_turn <= state.turn
        if c.init_total is not None:
            if participant and state.phase != "initiative":
                raise IllegalAction(
                    f"{c.name} already has initiative {c.init_total} for this turn; the order "
                    f"is set. It is re-rolled each turn only when the combat's re-roll option "
                    f"is on (INIT-04)."
                )
            if not req.force:
                raise IllegalAction(
                    f"{c.name} already rolled initiative {c.init_total} this "
                    f"turn. A staffer can replace it with /force."
                )
        rating = c.rating if req.rating is None else req.rating
        if rating is None:
            raise InputError(
                f"{c.name} needs an initiative rating: +combat/init "
                f"{c.name}=<Dexterity + Wits> (INIT-02)."
            )
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 30:
            raise InputError(
                f"An initiative rating is a whole number from 0 to 30, not {rating!r}."
            )
        if req.faces is not None:
            faces = tuple(int(f) for f in req.faces)
            if len(faces) != rules.init_dice or any(not 1 <= f <= rules.sides for f in faces):
                raise InputError(
                    f"Initiative rolls {rules.init_dice} die/dice of 1..{rules.sides}"
                    f", not {list(faces)}."
                )
        else:
            if rng is None:
                raise InputError("No dice to roll with (rng missing).")
            faces = dice.roll_faces(rules.init_dice, rng, rules.sides)
        applied, unapplied = _init_modifiers(state, rules, req)
        total = rating + sum(faces) + sum(v for _, v in applied)
        c = replace(c, rating=rating, init_faces=faces, init_mods=tuple(applied), init_total=total)
        changed[c.key] = c
        ev = {
            "actor": c.key,
            "rating": rating,
            "faces": list(faces),
            "modifiers": [{"reason": r, "value": v} for r, v in applied],
            "total": total,
            "not_applied": unapplied,
        }
        cond = _condition_initiative(c, state.turn + (0 if participant else 1), rules)
        if cond:
            ev["conditions"] = cond  # COMP-04: applied to the order, not to the roll
        if not participant:
            ev["from_turn"] = c.joined_turn
        events.append(Event("initiative", ev))
    return _finish(state, state.with_combatants(changed), rules, events)


def roll_initiative(
    state: CombatState,
    key: str,
    ruleset,
    rng: random.Random | None = None,
    *,
    rating: int | None = None,
    race: str = "",
    wound_penalty: int = 0,
    manual: Sequence[tuple[str, int]] = (),
    faces: Sequence[int] | None = None,
    force: bool = False,
) -> Step:
    """INIT-01: rating (Dex + Wits, from the sheet; INIT-02: typed for an NPC) + 1d10.

    ``wound_penalty`` (negative or positive, taken as a penalty) is applied only where the
    ruleset says so (INIT-03; numetal reports it as ``not_applied``); ``race`` picks INIT-05
    rows whose flag (e.g. ``winter``) is set on the combat.
    """
    req = InitRequest(
        key,
        rating,
        race,
        wound_penalty,
        tuple((str(r), int(v)) for r, v in manual),
        None if faces is None else tuple(faces),
        force,
    )
    return roll_initiatives(state, [req], ruleset, rng)


def advance(state: CombatState, ruleset) -> Step:
    """Move on when nobody is waited for: start turn 1, or push past an idle turn.
    While someone is pending, the organizer uses ``skip`` (``+combat/next <name>``)."""
    rules = turn_rules(ruleset)
    _live(state)
    waiting = prompts(state)
    if waiting:
        listing = "; ".join(f"{_names(state, [k])} ({w})" for k, w in waiting)
        raise IllegalAction(
            f"Still waiting for: {listing}. To move on without them, skip "
            f"each: +combat/next <name>."
        )
    events: list[dict] = []
    if state.phase == "initiative" and not any(
        c.joined_turn <= state.turn and c.init_total is not None for c in state.combatants
    ):
        if not any(c.joined_turn > state.turn for c in state.combatants):
            raise IllegalAction("Nobody has rolled initiative yet: +combat/init first.")
        st = _new_turn(state, rules, events)  # everyone sat this turn out
    else:
        st = _settle(state, rules, events, allow_start=True, boundaries=1)
    return _finish(state, st, rules, events, allow_start=True, boundaries=0)


# ---------------------------------------------------------------- declaring


def _check_actions(
    st: CombatState, c: Combatant, actions: Sequence[Mapping], desperate: bool, rules: TurnRules
) -> tuple[tuple[dict, ...], int, tuple[int, ...]]:
    """Validate a declaration (TURN-02, MAN-05..08, DEF-04, TURN-09, TURN-11) and put it in
    running order: normal actions first, supernatural extras last (MAN-06)."""
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
    ordered = tuple(normal + extra) if extra else tuple(normal)
    if desperate:
        main = 0
        reactive = tuple(range(len(ordered)))
    else:
        main = len(normal) if rules.split_in_main else min(1, len(normal))
        reactive = tuple([i for i, a in enumerate(ordered) if a["kind"] in defensive])
    return ordered, main, reactive


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
    _live(state)
    c = state.find(key)
    _check_may_declare(state, c, rules)
    _check_declare_time(state, c, rules, early)
    acts, main, reactive = _check_actions(state, c, actions, desperate, rules)
    c = replace(
        c, declared=True, actions=acts, main=main, reactive=reactive, desperate=bool(desperate)
    )
    events = [
        {
            "event": "declare",
            "actor": key,
            "actions": [dict(a) for a in acts],
            "desperate": bool(desperate),
            "early": bool(early),
            "penalties": [_mods_dicts(m) for m in action_penalties(c, ruleset)],
        }
    ]
    return _finish(state, _put(state, c), rules, events)


def _check_may_declare(state: CombatState, c: Combatant, rules: TurnRules) -> None:
    """TURN-01/02: ``c`` takes part this turn, has not lost it, has not declared yet and has
    rolled initiative."""
    if c.joined_turn > state.turn:
        raise IllegalAction(
            f"{c.name} joined during turn {state.turn} and takes part from "
            f"turn {c.joined_turn}."
        )
    if c.lost:
        raise IllegalAction(_lost_reason(c, state.turn, rules))
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
    waiting = dict(_waiting_of(state))
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
                f"Not {c.name}'s turn to declare: waiting for {_names(state, waiting)}. "
                f"Declarations go from lowest to highest initiative (TURN-01)."
            )
    elif state.phase == "act" and simple:
        if waiting.get(c.key) != "declare" and not c.delayed:
            raise IllegalAction(
                f"Not {c.name}'s turn: waiting for {_names(state, waiting)}. In the simple mode "
                f"each character declares and acts in turn, highest initiative first (TURN-05)."
            )
    else:
        after = (": declare once the organizer moves the fight on (+combat/next)"
                 if state.phase == "initiative" else ".")
        raise IllegalAction(
            f"Actions are declared in the declaration phase (TURN-02); it is now the "
            f"{state.phase} phase of turn {state.turn}{after}"
        )


# ---------------------------------------------------------------- acting


def _why_not_act(st: CombatState, c: Combatant, waiting: dict, rules: TurnRules) -> str:
    if st.phase not in ("act", "extra"):
        return (
            f"Nobody acts until everyone has declared (TURN-01/TURN-03); waiting for "
            f"{_names(st, waiting)} ({st.phase})."
        )
    if _next_index(c, st.phase) is None:
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
        f"Not {c.name}'s turn: waiting for {_names(st, waiting)} (highest initiative acts "
        f"first, TURN-03). Only a character who delayed may act out of turn (TURN-04); "
        f"to defend now, abort (TURN-08)."
    )


def _act_checks(state: CombatState, key: str, ruleset, rules: TurnRules, willpower: bool,
                power: str | None):
    """What ``act`` checks before anything changes: (combatant, index, action, interrupt,
    waiting), or IllegalAction saying why ``key`` cannot act now."""
    _live(state)
    c = state.find(key)
    if c.lost:
        raise IllegalAction(_lost_reason(c, state.turn, rules))
    waiting = dict(_waiting_of(state))
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
            and _next_index(c, state.phase) is not None
        ):
            interrupt = True  # TURN-04: a delayed character acts at any later moment
        else:
            raise IllegalAction(_why_not_act(state, c, waiting, rules))
    i = _next_index(c, state.phase)
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
    conds = c.conditions and tuple(
        k
        for k in c.conditions
        if a["kind"] not in (rules.conditions.get(k.name) or {}).get("removed_by", ())
    )
    c2 = replace(c, used=c.used + (i,), conditions=conds)
    if c2.delayed and _next_index(c2, state.phase) is None:
        c2 = replace(c2, delayed=False)
    if interrupt:
        together: tuple[str, ...] = ()
    elif state.cursor < len(state.order):
        together = tuple(k for k in state.order[state.cursor].keys if k != key)
    else:  # the delayed at the end of the phase, equal ratings together (INIT-06)
        together = tuple(k for k in waiting if k != key)
    events = [
        Event("act", {
            "actor": key,
            "index": i,
            "action": dict(a),
            "phase": "main" if state.phase == "act" else "extra",
            "modifiers": _mods_dicts(mods),
            "interrupt": interrupt,
            "simultaneous": list(together),
            "removed": [k.name for k in c.conditions if k not in conds],
        })
    ]
    return _finish(state, _put(state, c2), rules, events)


def delay(state: CombatState, key: str, ruleset) -> Step:
    """TURN-04: hold the action; act at any later moment of this phase with ``act``."""
    rules = turn_rules(ruleset)
    _live(state)
    c = state.find(key)
    waiting = dict(_waiting_of(state))
    if state.phase not in ("act", "extra") or key not in waiting:
        raise IllegalAction(
            f"{c.name} can delay only when it is their turn to act; the turn waits for "
            f"{_names(state, waiting)} to {'declare' if state.phase == 'declare' else 'act'}."
        )
    if state.cursor >= len(state.order):
        raise IllegalAction(
            "Everyone else has acted: act now (+combat/act) or pass " "(+combat/pass)."
        )
    events = [{"event": "delay", "actor": key, "phase": state.phase}]
    return _finish(state, _put(state, replace(c, delayed=True)), rules, events)


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
    _live(state)
    c = state.find(key)
    if state.phase not in ("act", "extra"):
        raise IllegalAction(
            f"Attacks and defenses happen in the action phases, not the {state.phase} phase."
        )
    if c.lost:
        raise IllegalAction(_lost_reason(c, state.turn, rules))
    kind = kind.strip().lower() if kind else None
    if kind is not None and kind not in rules.defensive:
        raise InputError(f"'{kind}' is not a defense; use {', '.join(sorted(rules.defensive))}.")
    if c.desperate:
        return _defend_desperately(state, c, rules, against, kind)
    pick = _declared_defense(state, c, against, kind)
    mods = action_penalties(c, ruleset)[pick]
    c2 = replace(c, used=c.used + (pick,))
    ev = Event("defend", {
        "actor": key,
        "against": against,
        "index": pick,
        "action": dict(c.actions[pick]),
        "modifiers": _mods_dicts(mods),
        "desperate": False,
        "anticipated": c.actions[pick].get("against") is not None,
    })
    return _finish_spent(state, _put(state, c2), rules, [ev])


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
        "modifiers": _mods_dicts(m for m in mods if m.dice),
        "desperate": True,
    })
    return _finish_spent(state, _put(state, c2), rules, [ev])


def _declared_defense(state: CombatState, c: Combatant, against: str | None,
                      kind: str | None) -> int:
    """The index of ``c``'s declared defense that answers ``against``'s attack now: one
    declared against that attacker first (TURN-09), then a general one; one declared as the
    k-th action waits for the extra phase (TURN-07). None left: IllegalAction."""
    free = [i for i in c.reactive if i not in c.used]
    usable = [i for i in free if state.phase == "extra" or i < c.main]
    if kind:
        usable = [i for i in usable if c.actions[i]["kind"] == kind]
    pick = next(
        (i for i in usable if against is not None and c.actions[i].get("against") == against), None
    )
    if pick is None:
        pick = next((i for i in usable if c.actions[i].get("against") is None), None)
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
                f"{_names(state, [c.actions[i]['against']])}'s attack (TURN-09). "
                f"To defend against this one, abort (TURN-08)."
            )
        raise IllegalAction(
            f"{c.name} has no declared defense left this turn; aborting to one "
            f"takes a Willpower roll or point (TURN-08)."
        )
    return pick


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
    _live(state)
    c = state.find(key)
    cfg = rules.abort if how == "abort" else rules.change
    _check_may_swap(state, c, how, cfg, rules)
    to = _new_action(to_action, how, cfg)
    defensive = to["kind"] in rules.defensive
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
        event["may_spend"] = bool(cfg.get("spend_after_failure", True))
        return _finish(state, _put(state, c2), rules, [event])
    rest = c.actions[1:] if c.main else c.actions
    # The new action is first in running order (a normal action; extras stay last).
    acts, main, reactive = _check_actions(state, c, (to,) + rest, c.desperate and defensive, rules)
    diff_mod = 0 if defensive else cfg.get("non_defensive_difficulty", 0)
    performed = how == "abort" and defensive  # the defense resolves with the attack now
    c2 = replace(
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
    event["performed"] = performed
    event["index"] = 0
    event["modifiers"] = _mods_dicts(action_penalties(c2, ruleset)[0])
    return _finish(state, _put(state, c2), rules, [event])


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
        raise IllegalAction(_lost_reason(c, state.turn, rules))
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
    if c.abort_failed and not cfg.get("spend_after_failure", True):
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
    diff = cfg.get("difficulty", 6)
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


def skip(state: CombatState, key: str, ruleset) -> Step:
    """The organizer's ``+combat/next <name>`` (or a player passing): stop waiting for
    ``key`` now. Initiative: sits this turn out. Declaration: declares nothing. Acting: the
    actions of this phase are forfeited (declared defenses stay)."""
    rules = turn_rules(ruleset)
    _live(state)
    c = state.find(key)
    waiting = dict(_waiting_of(state))
    what = waiting.get(key)
    if what is None:
        raise IllegalAction(
            f"The combat is not waiting for {c.name}; it waits for {_names(state, waiting)}."
        )
    forfeited: list[int] = []
    if what == "initiative":
        c2 = replace(c, joined_turn=state.turn + 1)
    elif what == "declare":
        c2 = replace(c, declared=True, actions=(), main=0, reactive=(), delayed=False)
    else:
        forfeited = [i for i in _window(c, state.phase) if i not in c.used and i not in c.reactive]
        c2 = replace(c, used=c.used + tuple(forfeited), delayed=False)
    events = [{"event": "skip", "actor": key, "what": what, "forfeited": forfeited}]
    return _finish(state, _put(state, c2), rules, events)


# ---------------------------------------------------------------- extra actions


def activate_celerity(state: CombatState, key: str, dots: int, ruleset) -> Step:
    """MAN-07: spend a blood point (a reflex, so once a turn): one extra physical action per
    dot next turn. The event's ``spend`` tells the caller which pool to take it from."""
    rules = turn_rules(ruleset)
    _live(state)
    spec = rules.extra_sources.get("celerity")
    if spec is None:
        raise IllegalAction("This ruleset gives no extra actions for Celerity.")
    if isinstance(dots, bool) or not isinstance(dots, int) or not 1 <= dots <= 10:
        raise InputError(f"Celerity dots must be 1 to 10, not {dots!r}.")
    c = state.find(key)
    act_map = dict(c.activations)
    per_turn = spec.get("activations_per_turn", 1)
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
        "spend": {"pool": spec.get("pool", "Blood"), "amount": spec.get("cost", 1)},
    }
    return _finish(state, _put(state, c2), rules, [ev])


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
    _live(state)
    spec = rules.extra_sources.get("rage")
    if spec is None:
        raise IllegalAction("This ruleset gives no extra actions for Rage.")
    for name, v in (("points", points), ("rage", rage), ("dex", dex), ("wits", wits)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{name} must be a whole number, not {v!r}.")
    if points < 1:
        raise InputError("Spend at least one Rage point.")
    c = state.find(key)
    if c.lost:
        raise IllegalAction(_lost_reason(c, state.turn, rules))
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
    cap = rage // spec.get("cap_divisor", 2)
    if c.rage_spent + points > cap:
        raise IllegalAction(
            f"{c.name} can spend at most {cap} Rage for extra actions this turn "
            f"(half of Rage {rage}, MAN-08); already spent {c.rage_spent}."
        )
    limit = dex if (frenzy and spec.get("frenzy_ignores_wits", True)) else min(dex, wits)
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
        "spend": {"pool": spec.get("pool", "Rage"), "amount": points * spec.get("cost", 1)},
    }
    return _finish(state, _put(state, c2), rules, [ev])


# ---------------------------------------------------------------- conditions


def add_condition(
    state: CombatState, key: str, name: str, ruleset, *, turns: int | None = None,
    announce: bool = False,
) -> Step:
    """Put a condition on ``key`` (COMP-02 dazed, COMP-04 knocked_down / prone, ...).

    Its timing and effects come from ``turns.conditions``; names the table doesn't know are
    kept for other layers (e.g. ``blinded``) and last ``turns`` turns from now (None: until
    removed; combat/core/conditions.py says how they are counted). A condition of the same name
    is replaced. ``announce``: the room is told when its turns run out (put on by hand).
    """
    rules = turn_rules(ruleset)
    _live(state)
    c = state.find(key)
    name = name.strip().lower()
    if not name:
        raise InputError("Name the condition (dazed, knocked_down, prone, ...).")
    spec = rules.conditions.get(name) or {}
    start = state.turn + (1 if spec.get("starts", "now") == "next_turn" else 0)
    length = spec.get("turns") if turns is None else turns
    if length is not None and (not isinstance(length, int) or length < 1):
        raise InputError(f"A condition lasts at least one turn, not {length!r}.")
    until = None if length is None else start + length - 1
    conds = tuple(k for k in c.conditions if k.name != name) + (
        Condition(name, start, until, announce and until is not None),)
    lost = _lost(conds, state.turn, rules)
    c2 = replace(c, conditions=conds, lost=lost, delayed=c.delayed and not lost)
    effects = {k: v for k, v in spec.items() if k in ("lose_actions", "initiative", "removed_by")}
    ev = Event("condition", {
        "actor": key,
        "condition": name,
        "added": [name],  # the combat log's condition shape: added / removed
        "from": start,
        "until": until,
        "effects": effects,
    })
    return _finish(state, _put(state, c2), rules, [ev])


def remove_condition(state: CombatState, key: str, name: str, ruleset) -> Step:
    """End a condition early (everyman: blood/Rage/WP spent to ignore dazing; getting up)."""
    rules = turn_rules(ruleset)
    _live(state)
    c = state.find(key)
    name = name.strip().lower()
    if not any(k.name == name for k in c.conditions):
        have = ", ".join(k.name for k in c.conditions) or "none"
        raise IllegalAction(f"{c.name} is not {name} (conditions: {have}).")
    conds = tuple(k for k in c.conditions if k.name != name)
    c2 = replace(c, conditions=conds, lost=_lost(conds, state.turn, rules))
    ev = Event("condition", {"actor": key, "condition": name, "removed": [name]})
    return _finish(state, _put(state, c2), rules, [ev])
