"""The state of one spotlight combat (seed 004): a frozen value stored as JSON in one Attribute.

Why a second state shape rather than the d10 ``CombatState``: the spotlight engine has no
declare/act phases, no initiative for opponents, a per-round action budget for opponents, an
HP track instead of the seven health levels, and a range band per pair of combatants. The
storage habits are the same as ``combat/d10/state.py``: plain data, defaults left out of
``to_dict`` so a big combat stays a small Attribute, ``from_dict`` tolerant of missing keys.
The operations live beside it: ``flow``, ``initiative``, ``passing``, ``turn``, ``ranges``,
``harm``, ``roster`` (see README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ..core.conditions import Condition
from ..core.errors import InputError
from ..core.values import copyable, replace

VERSION = 1
ENGINE = "spotlight"
SIDES = ("pc", "opponent")
STATUSES = ("active", "torpor", "dead", "out")  # SPOT-13: torpor / Final Death; "out": a
# non-vampire at 0 HP (the seed gives no rule for them: the Storyteller narrates it)
STAGES = ("initiative", "opening", "pcs", "closing", "ended")
AMBUSH = ("opponents", "pcs")  # SPOT-08: who got the drop


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Fighter:
    key: str
    name: str
    side: str = "pc"
    controller: str | None = None
    joined_round: int = 0  # takes turns from this round on
    # SPOT-01: 2d6 (YAML) + the highest of Wits / Blood Potency; PCs only.
    init_faces: tuple[int, ...] = ()
    init_trait: str | None = None
    init_bonus: int = 0
    init_total: int | None = None
    # SPOT-05: how many turns an opponent takes a round; ``turns`` counts those started.
    actions_per_round: int = 1
    turns: int = 0
    # SPOT-07: what this turn has used (counts, so the YAML can allow more than one).
    moves: int = 0
    actions: int = 0
    frees: int = 0
    done: bool = False
    # SPOT-11..14: the HP track.
    vampire: bool = False
    blood_potency: int = 0
    hp_max: int = 6
    final_death_at: int | None = None  # Aggravated marks that mean Final Death at 0 HP
    superficial: int = 0
    aggravated: int = 0
    status: str = "active"
    staked: bool = False  # SPOT-12
    revive_round: int | None = None  # SPOT-14: fed in torpor, back at this round's start
    revive_hp: int = 0
    # issue 31: what the organizer put on them (+combat/mod), counted in rounds
    conditions: tuple[Condition, ...] = ()
    # issue 31, the moves reading: a 7-9 owes a cost the Storyteller names (the move's name)
    cost_owed: str | None = None

    @property
    def is_pc(self) -> bool:
        return self.side == "pc"

    @property
    def hp(self) -> int:
        return max(0, self.hp_max - self.superficial - self.aggravated)

    @property
    def incapacitated(self) -> bool:
        return self.status != "active" or self.staked

    def can_act(self, round_: int) -> bool:
        return not self.incapacitated and self.joined_round <= round_

    def fresh_turn(self) -> "Fighter":
        return replace(self, moves=0, actions=0, frees=0, done=False)

    def to_dict(self) -> dict:
        full = self._full()
        return {k: v for k, v in full.items() if k in ("key", "name") or v != _DEFAULTS.get(k)}

    def _full(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "side": self.side,
            "controller": self.controller,
            "joined_round": self.joined_round,
            "init_faces": list(self.init_faces),
            "init_trait": self.init_trait,
            "init_bonus": self.init_bonus,
            "init_total": self.init_total,
            "actions_per_round": self.actions_per_round,
            "turns": self.turns,
            "moves": self.moves,
            "actions": self.actions,
            "frees": self.frees,
            "done": self.done,
            "vampire": self.vampire,
            "blood_potency": self.blood_potency,
            "hp_max": self.hp_max,
            "final_death_at": self.final_death_at,
            "superficial": self.superficial,
            "aggravated": self.aggravated,
            "status": self.status,
            "staked": self.staked,
            "revive_round": self.revive_round,
            "revive_hp": self.revive_hp,
            "conditions": [c.to_dict() for c in self.conditions],
            "cost_owed": self.cost_owed,
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "Fighter":
        def opt(v):
            return None if v is None else int(v)

        side = str(d.get("side") or "pc")
        status = str(d.get("status") or "active")
        if side not in SIDES or status not in STATUSES:
            raise InputError(f"Stored fighter {d.get('key')!r} has side {side!r} / {status!r}.")
        return cls(
            key=str(d["key"]),
            name=str(d.get("name") or d["key"]),
            side=side,
            controller=d.get("controller"),
            joined_round=int(d.get("joined_round", 0)),
            init_faces=tuple(int(f) for f in d.get("init_faces") or ()),
            init_trait=d.get("init_trait"),
            init_bonus=int(d.get("init_bonus", 0)),
            init_total=opt(d.get("init_total")),
            actions_per_round=int(d.get("actions_per_round", 1)),
            turns=int(d.get("turns", 0)),
            moves=int(d.get("moves", 0)),
            actions=int(d.get("actions", 0)),
            frees=int(d.get("frees", 0)),
            done=bool(d.get("done", False)),
            vampire=bool(d.get("vampire", False)),
            blood_potency=int(d.get("blood_potency", 0)),
            hp_max=int(d.get("hp_max", 6)),
            final_death_at=opt(d.get("final_death_at")),
            superficial=int(d.get("superficial", 0)),
            aggravated=int(d.get("aggravated", 0)),
            status=status,
            staked=bool(d.get("staked", False)),
            revive_round=opt(d.get("revive_round")),
            revive_hp=int(d.get("revive_hp", 0)),
            conditions=tuple(Condition.from_dict(c) for c in d.get("conditions") or ()),
            cost_owed=d.get("cost_owed"),
        )


_DEFAULTS = MappingProxyType(Fighter("", "")._full())  # read-only: to_dict leaves these out


@dataclass(frozen=True, slots=True)
class SpotlightOptions:
    """The fight's settings, shaped like the d10 ``Options`` where they mean the same, so
    the game side reads ``state.options.timeout`` whichever engine runs (issue 5)."""

    timeout: int | None = None  # seconds before an idle turn is defaulted; 0 off, None: server
    # SPOT-10: the band of every pair nobody has placed (+combat/range all=Hand for a brawl);
    # None: the YAML's spotlight_ranges.default
    band: int | None = None

    def to_dict(self) -> dict:
        d: dict = {"timeout": self.timeout}
        if self.band is not None:  # absent when unset: stored fights read as before
            d["band"] = self.band
        return d

    @classmethod
    def from_dict(cls, d: Mapping | None) -> "SpotlightOptions":
        timeout, band = (d or {}).get("timeout"), (d or {}).get("band")
        return cls(None if timeout is None else int(timeout),
                   None if band is None else int(band))


def pair(a: str, b: str) -> tuple[str, str]:
    """SPOT-10: a range belongs to a pair, whichever way round it is asked."""
    return (a, b) if a <= b else (b, a)


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class SpotlightState:
    id: str
    ruleset: str
    round: int = 0  # 0: before the first round (initiative)
    stage: str = "initiative"
    combatants: tuple[Fighter, ...] = ()
    order: tuple[tuple[str, ...], ...] = ()  # SPOT-02: PC slots, highest first; ties share one
    cursor: int = 0  # the PC slot the round is at
    holder: tuple[str, ...] = ()  # who has the spotlight now (a PC slot or one opponent)
    picking: bool = False  # the PC slot at ``cursor`` is done: the Storyteller picks (SPOT-04)
    ambush: str | None = None  # SPOT-08: who got the drop ...
    ambush_round: int | None = None  # ... and the round it applies to
    ranges: tuple[tuple[str, str, int], ...] = ()  # SPOT-10: (a, b, band index), a < b
    seq: int = 0
    deadline: float | None = None  # issue 5: when the idle default applies (wall clock)
    options: SpotlightOptions = SpotlightOptions()
    # V5 Willpower reroll (dice.yaml): the last attack, open to its roller's reroll until
    # anything else happens: who rolled, the act, its faces and the state before it (the
    # reroll plays the attack again from there with the new faces). None: nothing to reroll.
    last_roll: Mapping | None = None

    engine = ENGINE  # class constant: lets the command layer tell the states apart

    @property
    def turn(self) -> int:
        """The d10 state's name for the round, so shared code can show either."""
        return self.round

    @property
    def phase(self) -> str:
        return self.stage

    # ------------------------------------------------------------ lookups

    def index(self) -> dict[str, int]:
        return {c.key: i for i, c in enumerate(self.combatants)}

    def get(self, key: str) -> Fighter | None:
        for c in self.combatants:
            if c.key == key:
                return c
        return None

    def find(self, key: str) -> Fighter:
        c = self.get(key)
        if c is None:
            names = ", ".join(c.name for c in self.combatants) or "nobody yet"
            raise InputError(f"'{key}' is not in this combat. In it: {names}; to add "
                             f"someone: +combat/join or +combat/npc.")
        return c

    def with_fighters(self, changed: Mapping[str, Fighter]) -> "SpotlightState":
        if not changed:
            return self
        return replace(self, combatants=tuple(changed.get(c.key, c) for c in self.combatants))

    # ------------------------------------------------------------ storage

    def to_dict(self) -> dict:
        return {
            "v": VERSION,
            "engine": ENGINE,
            "id": self.id,
            "ruleset": self.ruleset,
            "round": self.round,
            "stage": self.stage,
            "combatants": [c.to_dict() for c in self.combatants],
            "order": [list(s) for s in self.order],
            "cursor": self.cursor,
            "holder": list(self.holder),
            "picking": self.picking,
            "ambush": self.ambush,
            "ambush_round": self.ambush_round,
            "ranges": [[a, b, band] for a, b, band in self.ranges],
            "seq": self.seq,
            "deadline": self.deadline,
            "options": self.options.to_dict(),
            # absent when unset: stored fights read as before
            **({"last_roll": self.last_roll} if self.last_roll is not None else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "SpotlightState":
        stage = str(d.get("stage") or "initiative")
        if stage not in STAGES:
            raise InputError(f"Stored combat has an unknown stage '{stage}'.")
        ambush = d.get("ambush")
        if ambush is not None and ambush not in AMBUSH:
            raise InputError(f"Stored combat has an unknown ambush side '{ambush}'.")
        ar, deadline = d.get("ambush_round"), d.get("deadline")
        return cls(
            id=str(d["id"]),
            ruleset=str(d.get("ruleset") or "spotlight"),
            round=int(d.get("round", 0)),
            stage=stage,
            combatants=tuple(Fighter.from_dict(c) for c in d.get("combatants") or ()),
            order=tuple(tuple(str(k) for k in s) for s in d.get("order") or ()),
            cursor=int(d.get("cursor", 0)),
            holder=tuple(str(k) for k in d.get("holder") or ()),
            picking=bool(d.get("picking", False)),
            ambush=ambush,
            ambush_round=None if ar is None else int(ar),
            ranges=tuple(sorted((str(a), str(b), int(n)) for a, b, n in d.get("ranges") or ())),
            seq=int(d.get("seq", 0)),
            deadline=None if deadline is None else float(deadline),
            # States stored before the idle timeout came to this engine have no options.
            options=SpotlightOptions.from_dict(d.get("options")),
            last_roll=d.get("last_roll"),
        )
