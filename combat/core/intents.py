"""Everything a player, a staff member or the game can ask of a fight, as typed values.

Commands parse text into one of these; the combat service hands it to the engine's
``apply``; the log keeps its ``to_dict`` so a fight can be replayed (``bin/replay``). ``by``
is who asked (a ``#dbref``; ``#0`` is the game itself: the idle clock, a deleted character).
An intent says what was asked, never whether it is allowed: the engine decides that.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Mapping

from .errors import InputError

GAME = "#0"  # ``by`` when the game itself acts (timeouts, deletions)


@dataclass(frozen=True, slots=True, kw_only=True)
class Intent:
    kind: ClassVar[str] = ""
    by: str = GAME
    actor: str | None = None  # the combatant it is for, when there is one

    def to_dict(self) -> dict:
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return {"intent": self.kind, **d}


_KINDS: dict[str, type[Intent]] = {}


def intent(kind: str):
    """Make ``cls`` a frozen intent registered under ``kind`` (its ``to_dict`` name)."""

    def wrap(cls):
        cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        cls.kind = kind
        _KINDS[kind] = cls
        return cls

    return wrap


def from_dict(d: Mapping) -> Intent:
    cls = _KINDS.get(str(d.get("intent")))
    if cls is None:
        raise InputError(f"Unknown intent {d.get('intent')!r}.")
    kw: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in d:
            v = d[f.name]
            kw[f.name] = tuple(_freeze(x) for x in v) if isinstance(v, list) else _freeze(v)
    return cls(**kw)


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


def kinds() -> tuple[str, ...]:
    return tuple(_KINDS)


# ---------------------------------------------------------------- both engines


@intent("join")
class Join(Intent):
    name: str = ""
    is_npc: bool = False
    controller: str | None = None
    hp: int | None = None  # spotlight: an NPC's Health (SPOT-11)
    actions: int | None = None  # spotlight: an NPC's actions a round
    # The organizer as the fight opens (+combat/start): the d10 engine joins them; the
    # spotlight engine does not (staff running NPCs join only with +combat/join, issue 10).
    opening: bool = False


@intent("remove")
class Remove(Intent):
    why: str = "leave"  # leave, kick, deleted


@intent("initiative")
class RollInitiative(Intent):
    rating: int | None = None  # an NPC's rating typed by its runner (INIT-02)
    adjust: int = 0  # d10 INIT-03/05: a modifier the player applies by hand (+combat/init -2)


@intent("advance")
class Advance(Intent):
    """Move the fight on; with ``actor``: stop waiting for them (d10) or give that
    opponent the spotlight (spotlight)."""


@intent("act")
class Act(Intent):
    action: Mapping | None = None  # spotlight: what is done; d10: the declared action
    willpower: bool = False  # d10 TURN-02: the Willpower point declared for this action


@intent("damage")
class StaffDamage(Intent):
    levels: int = 0
    damage_type: str = "lethal"
    # d10: where it comes from (fire, sunlight, silver, unsoakable ...): then ``levels`` are
    # damage successes the target soaks by the rules for that source (DMG-09..15)
    sources: tuple[str, ...] = ()


@intent("heal")
class StaffHeal(Intent):
    levels: int = 0
    damage_type: str = "lethal"
    revive: bool = False  # d10: staff undo a death or torpor (no levels healed)


@intent("timeout")
class SetTimeout(Intent):
    seconds: int = 0


@intent("expire")
class Expire(Intent):
    """The idle clock: the deadline passed at ``now``; ``gone`` are pending keys whose
    character no longer exists."""

    now: float = 0.0
    gone: tuple[str, ...] = ()


@intent("end")
class End(Intent):
    pass


# ---------------------------------------------------------------- d10


@intent("declare")
class Declare(Intent):
    """TURN-01/02: ``actions`` as parsed (kind, target key, weapon, maneuver ...);
    ``activations`` done before the actions (Celerity, Rage, spending, effects, cover)."""

    actions: tuple[Mapping, ...] = ()
    activations: tuple[Mapping, ...] = ()
    desperate: bool = False


@intent("pass")
class Pass(Intent):
    pass


@intent("delay")
class Delay(Intent):
    pass


@intent("abort")
class Abort(Intent):
    to: str = "dodge"
    spend_willpower: bool = False


@intent("recover")
class Recover(Intent):
    """HLT-09, HEAL-01/03/07: the organizer marks healing by the clock: one level of
    ``damage_type`` (``rested``: a vampire's aggravated levels after a day's rest)."""

    damage_type: str = "lethal"
    place: str = "mundane"  # HEAL-07: mundane, freehold or dreaming
    chimerical: bool = False
    rested: bool = False
    levels: int = 1


@intent("change")
class Change(Intent):
    """TURN-10: replace an impossible declared action with ``to`` (an action dict)."""

    to: Mapping | None = None
    spend_willpower: bool = False


@intent("condition")
class SetCondition(Intent):
    """``turns``: how many turns it lasts (issue 31; combat/core/conditions.py counts them),
    None: until removed, or the ruleset's own length for a condition its tables time."""

    condition: str = ""
    remove: bool = False
    turns: int | None = None


@intent("cover")
class SetCover(Intent):
    level: str = "none"


@intent("pace")
class SetPace(Intent):
    """d10 pacing (issue 11): choices entered ahead of the slot, resolved in it (``ahead``),
    or each typed in its slot."""

    ahead: bool = True


@intent("flag")
class SetFlag(Intent):
    """d10 INIT-05: a combat flag (a season such as ``winter``) set or cleared by staff."""

    flag: str = ""
    remove: bool = False


# ---------------------------------------------------------------- spotlight


@intent("move")
class Move(Intent):
    other: str = ""
    direction: str = ""


@intent("free")
class Free(Intent):
    text: str = ""


@intent("done")
class Done(Intent):
    pass


@intent("swap")
class Swap(Intent):
    other: str = ""


@intent("ambush")
class Ambush(Intent):
    side: str = ""


@intent("narrate")
class Narrate(Intent):
    text: str = ""


@intent("range")
class SetRange(Intent):
    other: str = ""
    band: str = ""


@intent("stake")
class Stake(Intent):
    remove: bool = False


@intent("feed")
class Feed(Intent):
    slaked: int = 0


@intent("reroll")
class Reroll(Intent):
    """V5 (spotlight): a Willpower point rerolls these dice of the last attack (1-based
    positions among the dice that are not Hunger dice)."""

    dice: tuple[int, ...] = ()


@intent("cost")
class NameCost(Intent):
    """The moves reading (issue 31): the Storyteller names the cost a 7-9 owes."""

    text: str = ""
