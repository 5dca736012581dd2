"""The state of one combat: a frozen value stored as plain JSON data in one Attribute.

Why one value: a combat must survive ``evennia reload`` and a restart, and every command
must see one consistent snapshot. The scheduler (``combat/d10/scheduler.py``) turns a state and
an intent into a new state and events; this module only holds the shapes and their storage.

Sheets stay out: a combatant is a stable key (the character's dbref or an NPC id) plus what
only the combat knows (initiative, declarations, what was done this turn, conditions).
Declared actions are plain dicts the attack layer defines (``{"kind": "punch", "target":
"#12", ...}``); the scheduler reads only a few keys of them (see ``scheduler.declare``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..core.conditions import Condition
from .gear import EMPTY as EMPTY_GEAR
from .gear import Gear, Spending
from ..core.errors import InputError
from ..core.values import copier, copyable, fast_init, plain, replace

VERSION = 1
MODES = ("classic", "simple")  # TURN-01/TURN-03 vs TURN-05
PHASES = ("initiative", "declare", "act", "extra", "ended")


def _pairs(value: Mapping | Iterable | None) -> tuple[tuple[str, int], ...]:
    """A small name -> count table kept as sorted pairs, so the value stays hashable-ish
    and its JSON form is stable."""
    items = value.items() if isinstance(value, Mapping) else (value or ())
    return tuple(sorted((str(k), int(v)) for k, v in items if int(v)))


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Options:
    mode: str = "classic"  # TURN-05: chosen at combat start
    reroll_initiative: bool = False  # INIT-04
    timeout: int | None = None  # seconds before an idle player is a "slacker" (later issue)
    flags: tuple[str, ...] = ()  # scene/combat flags such as "winter" (INIT-05)
    # Pacing (issue 11): declarations and acts may be entered ahead of one's slot; they are
    # revealed and resolved when the slot comes (TURN-01 low to high, TURN-03 high to low),
    # and a declared action with nothing left to choose resolves by itself in its slot.
    ahead: bool = False

    def to_dict(self) -> dict:
        d = {
            "mode": self.mode,
            "reroll_initiative": self.reroll_initiative,
            "timeout": self.timeout,
            "flags": list(self.flags),
        }
        if self.ahead:
            d["ahead"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "Options":
        d = d or {}
        mode = str(d.get("mode") or "classic")
        if mode not in MODES:
            raise InputError(f"Combat mode must be one of {', '.join(MODES)}, not '{mode}'.")
        timeout = d.get("timeout")
        return cls(
            mode,
            bool(d.get("reroll_initiative", False)),
            None if timeout is None else int(timeout),
            tuple(sorted({str(f).lower() for f in d.get("flags") or ()})),
            bool(d.get("ahead", False)),
        )


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Combatant:
    key: str
    name: str
    is_npc: bool = False
    controller: str | None = None  # who may type for it (an NPC's runner); None: itself
    joined_turn: int = 1  # takes part in turns from this one on
    # INIT-01: the rating (Dex + Wits), the die faces, the modifiers applied, the total.
    rating: int | None = None
    init_faces: tuple[int, ...] = ()
    init_mods: tuple[tuple[str, int], ...] = ()
    init_total: int | None = None
    # This turn's declaration: normal actions first, supernatural extras last (MAN-06).
    declared: bool = False
    actions: tuple[dict, ...] = ()
    main: int = 0  # how many of ``actions`` belong to the main phase (TURN-06/07)
    reactive: tuple[int, ...] = ()  # indices that wait for an attack (defenses, TURN-09)
    desperate: bool = False  # DEF-04
    used: tuple[int, ...] = ()  # indices performed or forfeited this turn
    defenses: int = 0  # desperate defenses taken this turn
    delayed: bool = False  # TURN-04
    aborted_to: dict | None = None  # TURN-08/10: the action that replaced index 0
    abort_failed: bool = False  # TURN-08: the roll failed; only a WP point changes it now
    abort_difficulty: int = 0  # revised: +1 on a changed action that is not defensive
    # MAN-06..08: extra actions granted this turn / next turn, by source.
    extra_actions: tuple[tuple[str, int], ...] = ()
    next_extra: tuple[tuple[str, int], ...] = ()
    activations: tuple[tuple[str, int], ...] = ()  # source -> last turn it was activated
    rage_spent: int = 0
    action_cap: int | None = None  # MAN-08: lowest of Dex/Wits when Rage was spent
    conditions: tuple[Condition, ...] = ()
    lost: bool = False  # loses all actions this turn (COMP-02), from the conditions
    # The worst health outcome so far (HLT-02..05: incapacitated, torpor, dead ...), the
    # typed ``gear`` (cover, grapple, aim, dropped weapons, weapon readiness: d10/gear.py)
    # and this turn's power ``spending`` (PWR-01..04).
    outcome: str = ""
    gear: Gear = EMPTY_GEAR
    spending: Spending | None = None
    # Pacing (Options.ahead): a declaration entered ahead of the slot, kept hidden until the
    # slot comes ({"actions", "activations", "desperate"}); what was asked ahead for the act
    # slot ("act", "wp": act with the declared Willpower, "delay"); ``late``: the idle clock
    # passed this declaration slot (a late declaration is still taken this phase).
    ahead_declare: dict | None = None
    ahead_act: str = ""
    late: bool = False

    @property
    def extras(self) -> dict[str, int]:
        return dict(self.extra_actions)

    def to_dict(self) -> dict:
        """Plain data; values still at their defaults are left out (100 combatants stay a
        small Attribute), and ``from_dict`` fills them back in."""
        full = self._full_dict()
        return {k: v for k, v in full.items() if k in ("key", "name") or v != _DEFAULTS.get(k)}

    def _full_dict(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "is_npc": self.is_npc,
            "controller": self.controller,
            "joined_turn": self.joined_turn,
            "rating": self.rating,
            "init_faces": list(self.init_faces),
            "init_mods": [[r, v] for r, v in self.init_mods],
            "init_total": self.init_total,
            "declared": self.declared,
            "actions": copy.deepcopy(list(self.actions)),
            "main": self.main,
            "reactive": list(self.reactive),
            "desperate": self.desperate,
            "used": list(self.used),
            "defenses": self.defenses,
            "delayed": self.delayed,
            "aborted_to": copy.deepcopy(self.aborted_to),
            "abort_failed": self.abort_failed,
            "abort_difficulty": self.abort_difficulty,
            "extra_actions": dict(self.extra_actions),
            "next_extra": dict(self.next_extra),
            "activations": dict(self.activations),
            "rage_spent": self.rage_spent,
            "action_cap": self.action_cap,
            "conditions": [c.to_dict() for c in self.conditions],
            "lost": self.lost,
            "outcome": self.outcome,
            "gear": self.gear.to_dict() or None,
            "spending": self.spending.to_dict() if self.spending else None,
            "ahead_declare": copy.deepcopy(self.ahead_declare),
            "ahead_act": self.ahead_act,
            "late": self.late,
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "Combatant":
        def opt_int(v):
            return None if v is None else int(v)

        return cls(
            key=str(d["key"]),
            name=str(d.get("name") or d["key"]),
            is_npc=bool(d.get("is_npc", False)),
            controller=d.get("controller"),
            joined_turn=int(d.get("joined_turn", 1)),
            rating=opt_int(d.get("rating")),
            init_faces=tuple(int(f) for f in d.get("init_faces") or ()),
            init_mods=tuple((str(r), int(v)) for r, v in d.get("init_mods") or ()),
            init_total=opt_int(d.get("init_total")),
            declared=bool(d.get("declared", False)),
            actions=tuple(plain(a) for a in d.get("actions") or ()),
            main=int(d.get("main", 0)),
            reactive=tuple(int(i) for i in d.get("reactive") or ()),
            desperate=bool(d.get("desperate", False)),
            used=tuple(int(i) for i in d.get("used") or ()),
            defenses=int(d.get("defenses", 0)),
            delayed=bool(d.get("delayed", False)),
            aborted_to=plain(d["aborted_to"]) if d.get("aborted_to") is not None else None,
            abort_failed=bool(d.get("abort_failed", False)),
            abort_difficulty=int(d.get("abort_difficulty", 0)),
            extra_actions=_pairs(d.get("extra_actions")),
            next_extra=_pairs(d.get("next_extra")),
            activations=_pairs(d.get("activations")),
            rage_spent=int(d.get("rage_spent", 0)),
            action_cap=opt_int(d.get("action_cap")),
            conditions=tuple(Condition.from_dict(c) for c in d.get("conditions") or ()),
            lost=bool(d.get("lost", False)),
            outcome=str(d.get("outcome") or ""),
            gear=Gear.from_dict(d.get("gear")),
            spending=Spending.from_dict(d.get("spending")),
            ahead_declare=(plain(d["ahead_declare"]) if d.get("ahead_declare") is not None
                           else None),
            ahead_act=str(d.get("ahead_act") or ""),
            late=bool(d.get("late", False)),
        )


_DEFAULTS = Combatant("", "")._full_dict()


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Slot:
    """One place in the order: everyone in it shares initiative and rating and acts
    simultaneously (INIT-06)."""

    initiative: int
    rating: int
    keys: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"initiative": self.initiative, "rating": self.rating, "keys": list(self.keys)}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Slot":
        return cls(int(d["initiative"]), int(d["rating"]), tuple(str(k) for k in d["keys"]))


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class CombatState:
    id: str
    ruleset: str
    options: Options = field(default_factory=Options)
    turn: int = 1
    phase: str = "initiative"
    combatants: tuple[Combatant, ...] = ()
    order: tuple[Slot, ...] = ()  # this phase's slots in visiting order
    cursor: int = 0  # index into ``order``: the slot the phase waits for
    seq: int = 0  # bumped by every operation: log order, stale-write checks
    deadline: float | None = None  # when the current prompt times out (set by the caller)
    # RNG-05: yards between two combatants, set by staff and by moving; (a, b, yards) with
    # a < b. A pair not listed stands at the ruleset's starting range.
    ranges: tuple[tuple[str, str, int], ...] = ()
    # Two caches, not part of the value (left out of equality, repr and to_dict); a command
    # looks combatants up and asks who the turn waits for dozens of times (bench/engine.py).
    # ``_index``: (the combatants tuple, key -> position in it), checked by identity, so a
    # copy with the same combatants (a new cursor, phase, seq) keeps it, and
    # ``with_combatants`` hands it on (the positions do not change).
    _index: tuple | None = field(default=None, repr=False, compare=False)
    # ``_waiting``: the scheduler's ``prompts`` of this very value (combat/d10/scheduler.py);
    # not an __init__ field, so every copy starts without it.
    _waiting: tuple | None = field(default=None, init=False, repr=False, compare=False)

    # ------------------------------------------------------------ lookups

    def index(self) -> dict[str, int]:
        """key -> position (the first, should a stored state hold a key twice); built once
        per combatants tuple, so lookups stay O(1). Shared: do not change it."""
        cached = self._index
        if cached is not None and cached[0] is self.combatants:
            return cached[1]
        idx: dict[str, int] = {}
        for i, c in enumerate(self.combatants):
            idx.setdefault(c.key, i)
        object.__setattr__(self, "_index", (self.combatants, idx))  # a cache: see above
        return idx

    def get(self, key: str) -> Combatant | None:
        cached = self._index  # ``index()`` inlined: a command asks this dozens of times
        if cached is not None and cached[0] is self.combatants:
            i = cached[1].get(key)
        else:
            i = self.index().get(key)
        return None if i is None else self.combatants[i]

    def find(self, key: str) -> Combatant:
        c = self.get(key)
        if c is None:
            names = ", ".join(c.name for c in self.combatants) or "nobody yet"
            raise InputError(f"'{key}' is not in this combat. In it: {names}; to add "
                             f"someone: +combat/join or +combat/npc.")
        return c

    def range_between(self, a: str, b: str, default: int) -> int:
        if not self.ranges:  # nobody placed or moved yet: asked on every attack
            return default
        lo, hi = (a, b) if a <= b else (b, a)
        return next((y for x, z, y in self.ranges if x == lo and z == hi), default)

    def with_range(self, a: str, b: str, yards: int) -> "CombatState":
        lo, hi = sorted((a, b))
        rest = tuple(r for r in self.ranges if (r[0], r[1]) != (lo, hi))
        return replace(self, ranges=tuple(sorted(rest + ((lo, hi, int(yards)),))))

    def with_combatants(self, changed: Mapping[str, Combatant]) -> "CombatState":
        """Replace the combatants named in ``changed`` (keys not in the fight are ignored):
        a copy of the tuple and one store per change, so the cost hardly grows with n."""
        if not changed:
            return self
        idx = self.index()
        if len(idx) != len(self.combatants):  # a stored state with a key twice: all of them
            return replace(self, combatants=tuple(changed.get(c.key, c)
                                                  for c in self.combatants), _index=None)
        out = list(self.combatants)
        same_keys = True
        for key, c in changed.items():
            i = idx.get(key)
            if i is not None:
                out[i] = c
                same_keys = same_keys and c.key == key
        new = tuple(out)
        return _WITH_COMBATANTS(self, new, (new, idx) if same_keys else None)

    def with_combatant(self, c: Combatant) -> "CombatState":
        """``with_combatants({c.key: c})`` for the one combatant most steps change, without
        the mapping."""
        idx = self.index()
        i = idx.get(c.key)
        if i is None:  # not in the fight: ignored, as by ``with_combatants``
            return self
        if len(idx) != len(self.combatants):
            return self.with_combatants({c.key: c})
        out = list(self.combatants)
        out[i] = c
        new = tuple(out)
        return _WITH_COMBATANTS(self, new, (new, idx))

    # ------------------------------------------------------------ storage

    def to_dict(self) -> dict:
        return {
            "v": VERSION,
            "id": self.id,
            "ruleset": self.ruleset,
            "options": self.options.to_dict(),
            "turn": self.turn,
            "phase": self.phase,
            "combatants": [c.to_dict() for c in self.combatants],
            "order": [s.to_dict() for s in self.order],
            "cursor": self.cursor,
            "seq": self.seq,
            "deadline": self.deadline,
            "ranges": [list(r) for r in self.ranges],
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "CombatState":
        phase = str(d.get("phase") or "initiative")
        if phase not in PHASES:
            raise InputError(f"Stored combat has an unknown phase '{phase}'.")
        deadline = d.get("deadline")
        return cls(
            id=str(d["id"]),
            ruleset=str(d.get("ruleset") or "numetal"),
            options=Options.from_dict(d.get("options")),
            turn=int(d.get("turn", 1)),
            phase=phase,
            combatants=tuple(Combatant.from_dict(c) for c in d.get("combatants") or ()),
            order=tuple(Slot.from_dict(s) for s in d.get("order") or ()),
            cursor=int(d.get("cursor", 0)),
            seq=int(d.get("seq", 0)),
            deadline=None if deadline is None else float(deadline),
            ranges=tuple((str(a), str(b), int(y)) for a, b, y in d.get("ranges") or ()),
        )


# hot copies (every step of an act): positional copiers, made once (combat/core/values.py)
_WITH_COMBATANTS = copier(CombatState, "combatants", "_index")
