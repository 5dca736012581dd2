"""The seven-level health track (HLT-01, HLT-02, HLT-03, DMG-18).

Marks are counted by type and shown worst first (aggravated, lethal, bashing), as on a paper
sheet. What happens past Incapacitated depends on who is hurt (torpor, death, ...); the track
only reports the overflow and the engine decides (HLT-04, HLT-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from ..rules.schema import Bool, Int, ListOf, Optional, Str, Struct
from .values import fast_init, replace

DAMAGE_TYPES = ("bashing", "lethal", "aggravated")  # DMG-18
SYMBOL = {"bashing": "/", "lethal": "X", "aggravated": "*"}

SCHEMA = Struct(
    required={
        "levels": ListOf(
            Struct(
                required={"name": Str(), "penalty": Optional(Int(-10, 0))},
                optional={
                    "move": Str(),  # HLT-07: movement limit at this level
                    "move_yards": Optional(Int(0, 100)),
                    "heal_bashing": Str(),  # HLT-09: natural healing time of one level
                    "heal_lethal": Str(),
                    "medical_care": Bool(),
                    # HLT-09: the footnote of this level's time, per type (None: no care
                    # needed), e.g. "medical care (Medicine 2+) or lasting impairment".
                    "care_bashing": Optional(Str()),
                    "care_lethal": Optional(Str()),
                },
                # HLT-07: a level that names no limit moves freely (wound_movement.moves
                # may say what "full" allows; a word it does not name limits nothing)
                defaults={"move": "full"},
            ),
            min_len=1,
        )
    },
    optional={"source": Str(), "notes": Str()},
)


def damage_type(word: str) -> str:
    if word in DAMAGE_TYPES:  # already canonical: every hit passes its type through here
        return word
    w = word.strip().lower()
    for t in DAMAGE_TYPES:
        if w and (t.startswith(w) or (w == "agg" and t == "aggravated")):
            return t
    raise InputError(f"'{word}' is not a damage type. Use bashing, lethal or aggravated.")


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    penalty: int | None  # None: cannot act (Incapacitated)
    move: str = "full"


def _levels_of(section: dict) -> tuple[Level, ...]:
    """The levels of a health section. The engine's hot path builds them once per ruleset
    and keeps them on it (combat/d10/damage_tables.py ``track_of``: ``Ruleset.derived``)."""
    return tuple(Level(lv["name"], lv["penalty"], lv["move"]) for lv in section["levels"])


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Applied:
    """What one application of damage did: the new track and what went past Incapacitated."""

    track: "HealthTrack"
    marked: int  # boxes newly filled
    converted: int  # HLT-03: bashing past Incapacitated that became lethal
    overflow_lethal: int  # levels past Incapacitated: the splat's rule decides (HLT-04)
    overflow_aggravated: int  # HLT-05

    @property
    def overflow(self) -> int:
        return self.overflow_lethal + self.overflow_aggravated


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class HealthTrack:
    levels: tuple[Level, ...]
    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0

    @classmethod
    def from_section(cls, section: dict, marks: dict | None = None) -> "HealthTrack":
        levels = _levels_of(section)
        marks = marks or {}
        track = cls(levels, *(max(0, int(marks.get(t, 0) or 0)) for t in DAMAGE_TYPES))
        return track.clipped()

    def clipped(self) -> "HealthTrack":
        """Never more marks than boxes; keep the worst marks (data from old saves)."""
        room = len(self.levels)
        agg = min(self.aggravated, room)
        leth = min(self.lethal, room - agg)
        bash = min(self.bashing, room - agg - leth)
        if bash == self.bashing and leth == self.lethal and agg == self.aggravated:
            return self  # frozen: the same value, without a copy
        return replace(self, bashing=bash, lethal=leth, aggravated=agg)

    def marks(self) -> dict[str, int]:
        return {"bashing": self.bashing, "lethal": self.lethal, "aggravated": self.aggravated}

    @property
    def capacity(self) -> int:
        return len(self.levels)

    @property
    def damage(self) -> int:
        return self.bashing + self.lethal + self.aggravated

    @property
    def incapacitated(self) -> bool:
        """HLT-02: health 0 (every box marked) is Incapacitated."""
        return self.damage >= self.capacity

    @property
    def level(self) -> Level | None:
        """The level the character is at, or None when unhurt."""
        return self.levels[self.damage - 1] if self.damage else None

    @property
    def level_name(self) -> str:
        lv = self.level
        return lv.name if lv else "Healthy"

    @property
    def penalty(self) -> int:
        """Dice lost on action pools (HLT-06 decides where it applies). 0 when unhurt."""
        lv = self.level
        if lv is None:
            return 0
        return lv.penalty if lv.penalty is not None else 0

    def boxes(self) -> list[str]:
        """One symbol per box, worst first: '*' aggravated, 'X' lethal, '/' bashing, ' ' free."""
        return (
            ["*"] * self.aggravated
            + ["X"] * self.lethal
            + ["/"] * self.bashing
            + [" "] * (self.capacity - self.damage)
        )

    def apply(self, kind: str, levels: int) -> Applied:
        if kind not in DAMAGE_TYPES:
            raise InputError(f"'{kind}' is not a damage type. Use bashing, lethal or aggravated.")
        track, converted, over = self, 0, {"lethal": 0, "aggravated": 0}
        n = max(0, levels)
        # Free boxes fill one mark each (HLT-02); done in one step rather than box by box.
        marked = min(n, max(0, self.capacity - self.damage))
        if marked:
            b, le, ag = self.bashing, self.lethal, self.aggravated
            if kind == "bashing":
                b += marked
            elif kind == "lethal":
                le += marked
            else:
                ag += marked
            track = type(self)(self.levels, b, le, ag)
        for _ in range(n - marked):
            hit = kind
            if hit == "bashing":
                hit = "lethal"  # HLT-03: more bashing on a full track is lethal
                converted += 1
            over[hit] += 1
            # The box shows the worst wound: a lesser mark is overwritten.
            lesser = [t for t in DAMAGE_TYPES[: DAMAGE_TYPES.index(hit)] if getattr(track, t)]
            if lesser:
                src = lesser[0]
                track = replace(
                    track, **{src: getattr(track, src) - 1, hit: getattr(track, hit) + 1}
                )
        return Applied(track, marked, converted, over["lethal"], over["aggravated"])

    def heal(self, kind: str, levels: int) -> "HealthTrack":
        if kind not in DAMAGE_TYPES:
            raise InputError(f"'{kind}' is not a damage type. Use bashing, lethal or aggravated.")
        return replace(self, **{kind: max(0, getattr(self, kind) - max(0, levels))})
