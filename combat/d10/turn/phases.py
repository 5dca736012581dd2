"""Phases and prompts: who the turn waits for, and moving the cursor, phase and turn on."""

from __future__ import annotations

from typing import Iterable

from ...core.conditions import ended_event, split_expired
from ...core.errors import IllegalAction
from ...core.events import Event
from ...core.pools import Modifier
from ...core.values import copier, replace
from ..state import Combatant, CombatState, Condition, Slot
from .rules import Step, TurnRules, turn_rules

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
    return (c.init_total or 0) + condition_initiative(c, turn, rules)


def condition_initiative(c: Combatant, turn: int, rules: TurnRules) -> int:
    if not c.conditions:  # most combatants, at every phase's sort
        return 0
    return sum(
        (rules.conditions.get(k.name) or {}).get("initiative", 0)
        for k in c.conditions
        if k.active(turn)
    )


def active_conditions(c: Combatant, turn: int) -> tuple[str, ...]:
    return tuple(k.name for k in c.conditions if k.active(turn))


def window(c: Combatant, phase: str) -> range:
    if phase != "act" and c.delayed:  # TURN-04: a held main action goes on into the extras
        return range(0, len(c.actions))
    return range(0, c.main) if phase == "act" else range(c.main, len(c.actions))


def next_index(c: Combatant, phase: str) -> int | None:
    """The next declared action this phase runs (defenses wait for attacks instead)."""
    if not c.actions:
        return None
    used, reactive = c.used, c.reactive  # a few indices each: a tuple is searched fastest
    for i in window(c, phase):
        if i not in used and i not in reactive:
            return i
    return None


def _wants(st: CombatState, c: Combatant, tail: bool = False) -> str | None:
    """What the turn waits for from ``c`` in its slot: initiative, declare, act, or nothing."""
    if c.lost or c.joined_turn > st.turn:
        return None
    phase = st.phase
    if phase == "initiative":
        return "initiative" if c.init_total is None else None
    if c.init_total is None or phase not in ("declare", "act", "extra"):
        return None
    if phase == "declare":
        return None if c.declared else "declare"
    if c.delayed and not tail:
        return None
    if phase == "act" and not c.declared and st.options.mode == "simple":
        return "declare"
    return "act" if next_index(c, phase) is not None else None


def _tail(st: CombatState) -> list[tuple[str, str]]:
    """After the last slot: the delayed who still hold an action, higher rating first,
    equal ratings together (INIT-06, "delay until the same moment")."""
    waiting = [(c, w) for c in st.combatants if c.delayed and (w := _wants(st, c, tail=True))]
    if not waiting:
        return []
    if st.phase == "act" and all(w == "act" for _, w in waiting) and any(
        not c.delayed and not c.lost and c.joined_turn <= st.turn and c.init_total is not None
        and next_index(c, "extra") is not None
        for c in st.combatants
    ):
        return []  # TURN-04: "at any point later in the turn": the extra phase goes on
    top = max(c.rating or 0 for c, _ in waiting)
    return [(c.key, w) for c, w in waiting if (c.rating or 0) == top]


def _scan(st: CombatState, idx: dict[str, int]) -> tuple[int, list[tuple[str, str]]]:
    """The first slot from the cursor that waits for someone, and who; or the tail."""
    cur, order, combatants = st.cursor, st.order, st.combatants
    while cur < len(order):
        found = []
        for k in order[cur].keys:
            i = idx.get(k)
            if i is not None and (w := _wants(st, combatants[i])):
                found.append((k, w))
        if found:
            return cur, found
        cur += 1
    return cur, _tail(st)


def prompts(state: CombatState) -> list[tuple[str, str]]:
    """(key, what) for everyone the turn waits for now; what is initiative/declare/act."""
    return list(waiting_of(state))


def waiting_of(state: CombatState) -> tuple[tuple[str, str], ...]:
    """``prompts`` as the tuple kept on the state, not a copy (for readers here only).
    A command asks this of the same state several times (the checks, ``finish``
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


# The one copy of the state a scheduler operation makes (``Draft.freeze``): positional
# (combat/core/values.py ``copier``), every field an operation may move, in this order.
_FROZEN = copier(CombatState, "turn", "phase", "combatants", "order", "cursor", "seq",
                 "deadline", "_index")
# What a new turn resets on each combatant (TURN-01): the values passed in this order.
_NEW_TURN = copier(Combatant, "declared", "actions", "main", "reactive", "desperate", "used",
                   "defenses", "delayed", "aborted_to", "abort_failed", "abort_difficulty",
                   "extra_actions", "next_extra", "rage_spent", "action_cap", "conditions",
                   "lost", "ahead_declare", "ahead_act", "late")



class Draft:
    """One scheduler operation's state while it moves on: the actor's change put, the
    cursor, phase and turn moved (a new phase sorted, a new turn's combatants reset), in
    place, then frozen into one ``CombatState`` copy (``freeze``) instead of one per step
    (an act that ends a turn made five: bench/engine.py). It answers what the readers here
    ask of a state (turn, phase, options, combatants, order, cursor, ``index``, ``get``);
    nobody outside this package sees one."""

    __slots__ = ("base", "turn", "phase", "options", "combatants", "order", "cursor", "_idx")

    def __init__(self, st: CombatState):
        self.base = st
        self.turn, self.phase, self.options = st.turn, st.phase, st.options
        self.combatants, self.order, self.cursor = st.combatants, st.order, st.cursor
        self._idx = st.index()

    def index(self) -> dict[str, int]:
        return self._idx  # combatants are replaced in their places: the positions hold

    def get(self, key: str) -> Combatant | None:
        i = self._idx.get(key)
        return None if i is None else self.combatants[i]

    def put(self, c: Combatant) -> "Draft":
        """``CombatState.with_combatant``: ``c`` in its key's place (every place, in a
        stored state holding the key twice); someone not in the fight is ignored."""
        i = self._idx.get(c.key)
        if i is not None:
            out = list(self.combatants)
            if len(self._idx) == len(out):
                out[i] = c
            else:
                out = [c if x.key == c.key else x for x in out]
            self.combatants = tuple(out)
        return self

    def freeze(self, seq: int, deadline: float | None) -> CombatState:
        base = self.base
        combatants = self.combatants
        if combatants is base.combatants:
            index = base._index
        else:  # same keys in the same places: the index holds (not with a key twice)
            index = (combatants, self._idx) if len(self._idx) == len(combatants) else None
        return _FROZEN(base, self.turn, self.phase, combatants, self.order, self.cursor, seq,
                       deadline, index)


# ---------------------------------------------------------------- plumbing


def check_live(st: CombatState) -> None:
    if st.phase == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def loses_actions(conds: Iterable[Condition], turn: int, rules: TurnRules) -> bool:
    return any(
        k.active(turn) and (rules.conditions.get(k.name) or {}).get("lose_actions") for k in conds
    )


def lost_reason(c: Combatant, turn: int, rules: TurnRules) -> str:
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


def names_of(st: CombatState, keys: Iterable[str]) -> str:
    idx = st.index()
    out = [st.combatants[idx[k]].name if k in idx else k for k in keys]
    return ", ".join(out) or "nobody"


def mods_dicts(mods: Iterable[Modifier]) -> list[dict]:
    return [m.as_dict() for m in mods]


def _begin(st: Draft, rules: TurnRules, phase: str, events: list) -> None:
    """Start a phase: sort once (INIT-06 key: initiative, then rating, then join order)."""
    turn = st.turn
    # Sorted on (-initiative, -rating, place in the fight): ties keep the join order.
    ranked = []
    for i, c in enumerate(st.combatants):
        total = c.init_total
        if c.joined_turn <= turn and total is not None:
            if c.conditions:  # most combatants have none
                total += condition_initiative(c, turn, rules)
            ranked.append((-total, -(c.rating or 0), i, c.key))
    ranked.sort()
    # (initiative, rating, keys) runs of equal initiative and rating: one slot each
    runs: list[list] = []
    for total, rating, _, key in ranked:
        if runs and runs[-1][0] == -total and runs[-1][1] == -rating:
            runs[-1][2].append(key)
        else:
            runs.append([-total, -rating, [key]])
    if phase == "declare":
        runs.reverse()  # TURN-01: declaration from low to high
    st.phase, st.cursor = phase, 0
    st.order = tuple([Slot(t, r, tuple(keys)) for t, r, keys in runs])
    events.append(
        Event("phase", {
            "turn": turn,
            "phase": phase,
            "mode": st.options.mode,
            "order": [{"initiative": t, "rating": r, "keys": keys} for t, r, keys in runs],
        })
    )


def _initiative_due(st: CombatState) -> tuple[bool, bool]:
    """In the initiative phase: (someone still owes a roll, someone taking part this turn
    has rolled): ``_wants`` for each, in one pass."""
    turn, ready = st.turn, False
    for c in st.combatants:
        if c.joined_turn <= turn:
            if c.init_total is not None:
                ready = True
            elif not c.lost:
                return True, ready
    return False, ready


def new_turn(st: CombatState, rules: TurnRules, events: list) -> CombatState:
    """TURN-01: the next turn begins (its initiative phase); the conditions that ended are
    told."""
    d = Draft(st)
    _turn_over(d, rules, events)
    return d.freeze(st.seq, st.deadline)


def _turn_over(st: Draft, rules: TurnRules, events: list) -> None:
    turn = st.turn + 1
    reroll = st.options.reroll_initiative
    out, expired, told = [], [], []
    for c in st.combatants:
        if c.conditions:
            conds, ended = split_expired(c.conditions, turn)
            expired += [{"actor": c.key, "condition": k.name} for k in ended]
            # issue 31: one put on by hand with an end: the room hears that it ends
            told += [Event("condition", ended_event(c.key, k)) for k in ended if k.announce]
            lost = loses_actions(conds, turn, rules)
        else:  # most combatants: nothing expires, nothing takes the turn away
            conds, lost = (), False
        c = _NEW_TURN(c, False, (), 0, (), False, (), 0, False, None, False, 0, c.next_extra,
                      (), 0, None, conds, lost, None, "", False)
        # INIT-04: the rating is kept, so NPCs re-roll without retyping it; a roll made late
        # in the turn before counts for this turn (it was made for it).
        if reroll and not (c.joined_turn == turn and c.init_total is not None):
            c = replace(c, init_faces=(), init_mods=(), init_total=None)
        out.append(c)
    # the same keys in the same places: the index is handed on
    st.turn, st.phase, st.combatants, st.order, st.cursor = turn, "initiative", tuple(out), (), 0
    events.append(Event("turn", {"turn": turn, "expired": expired}))
    events.extend(told)
    if _initiative_due(st)[0]:
        events.append(
            Event("phase", {
                "turn": turn,
                "phase": "initiative",
                "mode": st.options.mode,
                "order": [],
            })
        )


def settle(
    st: CombatState, rules: TurnRules, events: list, *, allow_start: bool, boundaries: int = 1
) -> CombatState:
    """Move the cursor, phase and turn on while nobody is waited for.

    Turn 1 leaves the initiative phase only on the organizer's ``advance`` (so everyone can
    join first). At most ``boundaries`` turn ends are crossed per call, so a combat where
    nobody can act (all dazed) does not spin.
    """
    d = Draft(st)
    cur, found = _settle_at(d, rules, events, allow_start, boundaries)
    if (cur != st.cursor or d.phase != st.phase or d.turn != st.turn
            or d.order is not st.order or d.combatants is not st.combatants):
        d.cursor = cur
        st = d.freeze(st.seq, st.deadline)
    if found is not None:
        _remember(st, found)  # what ``prompts`` would scan again, from the same cursor
    return st


def _settle_at(st: Draft, rules: TurnRules, events: list, allow_start: bool,
               boundaries: int) -> tuple[int, list | None]:
    """``settle`` on a draft, without freezing it: (the cursor it must get, who it then
    waits for or None: ask ``prompts``). ``finish`` freezes it with its own (seq, deadline):
    one copy of the state per operation (bench/engine.py)."""
    while st.phase != "ended":
        if st.phase == "initiative":
            due, ready = _initiative_due(st)
            if due or not ready or (st.turn == 1 and not allow_start):
                break
            _begin(st, rules, "act" if st.options.mode == "simple" else "declare", events)
            continue
        cur, found = _scan(st, st.index())
        if found:
            return cur, found
        if st.phase == "declare":
            _begin(st, rules, "act", events)  # sets the cursor itself
        elif st.phase == "act":
            _begin(st, rules, "extra", events)
        else:
            if boundaries <= 0:
                return cur, found  # nobody, from ``cur`` on
            boundaries -= 1
            _turn_over(st, rules, events)
    return st.cursor, None


def prompt_events(st: CombatState) -> list[dict]:
    """The ``prompt`` events for who the turn waits for now, grouped by what."""
    groups: dict[str, list[str]] = {}
    for k, w in waiting_of(st):
        groups.setdefault(w, []).append(k)
    if not groups and st.phase != "ended":
        groups["advance"] = []  # nobody to wait for: the organizer moves on
    return [Event("prompt", {"turn": st.turn, "phase": st.phase, "what": what, "who": who})
            for what, who in groups.items()]


def _where(st: CombatState) -> tuple:
    return (st.turn, st.phase, st.cursor, waiting_of(st))


def finish(
    before: CombatState,
    st: CombatState | Draft,
    rules: TurnRules,
    events: list,
    *,
    allow_start: bool = False,
    boundaries: int = 1,
) -> Step:
    """The operation's state (``st``: the state after its change, or a ``Draft`` of it)
    settled (``settle``) and frozen once, ``seq`` moved on; a new prompt gets new events
    and a new deadline from the caller."""
    d = st if type(st) is Draft else Draft(st)
    cur, found = _settle_at(d, rules, events, allow_start, boundaries)
    d.cursor = cur
    # found None: stopped at the initiative or the end, where ``_prompts`` answers alone
    waiting = tuple(_prompts(d)) if found is None else tuple(found)
    seq = d.base.seq + 1
    if (d.turn, d.phase, cur, waiting) != _where(before):
        st = d.freeze(seq, None)
        object.__setattr__(st, "_waiting", waiting)  # ``_remember``, the tuple at hand
        events.extend(prompt_events(st))
    else:  # the copy waits for the same (seq and deadline do not count)
        st = d.freeze(seq, d.base.deadline)
        object.__setattr__(st, "_waiting", waiting)
    return Step(st, tuple(events))


def finish_spent(before: CombatState, st: Draft, rules: TurnRules, events: list) -> Step:
    """``finish`` after a declared defense was spent (``defend``; ``st``: a draft with the
    defender's change): a defense waits for attacks and never holds the turn up
    (``next_index`` skips it), so who the turn waits for cannot change. When ``before`` is
    known to wait at its cursor's slot, the settling ``finish`` would do finds exactly that
    again: only ``seq`` moves on."""
    waiting = before._waiting
    if (waiting and before.cursor < len(before.order)
            and all(k in before.order[before.cursor].keys
                    and _wants(st, st.get(k)) == what for k, what in waiting)):
        # each one waited for in the cursor's own slot, not as a delayed one after the
        # slots (TURN-04): that is what the settling scan from the cursor finds
        new = st.freeze(before.seq + 1, before.deadline)
        _remember(new, waiting)
        return Step(new, tuple(events))
    return finish(before, st, rules, events)


def put_combatant(st: CombatState, c: Combatant) -> Draft:
    """``st`` with ``c`` in its key's place, as the ``Draft`` ``finish`` settles and freezes:
    one copy of the state for the operation, not one here and one there."""
    return Draft(st).put(c)
