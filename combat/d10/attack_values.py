"""What an attack passes around: the intent (``Attack``), the two sides' facts (``Side``,
``Context``), a defense (``Defense``), a ranged weapon's readiness (``WeaponState``) and the
frozen results (``AttackResult``, ``DefenseResult``, ``Effect``).

The d10 attack chain (seed 000, NuMetal combat page; V20 p. 271-278): these values
(attack_values), the traits and modifiers of a pool (attack_mods), the plan of one attack
(attack_plan, kept in a memo by attack_memo), the defenses (attack_defense), the rolls and
outcome (attack_resolve), weapon readiness (weapon_ready) and the reflex rolls (reflex_rolls).
What a hit hands on goes to combat/d10/damage.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import Roll
from ..core.maneuver_schemas import PACES
from ..core.maneuvers import Weapon
from ..core.pools import Modifier, PoolSpec
from ..core.values import copyable, fast_init

# Conditions the combat may report on a side; a closed set so a typo is caught.
CONDITIONS = frozenset({
    "blinded",  # COMP-01
    "prone",  # COMP-04: knocked down and not yet up
    "immobilized",  # COMP-03: held but struggling
    "immobilized_fully",  # COMP-03: tied up, paralysed
    "staked",  # MAN-11: counts as fully immobilized
    "grappled",  # locked in a clinch or hold (with anyone)
    "dazed",  # COMP-02 (damage.py decides it; attacks on the dazed are damage.py's -2 diff)
})


SPEEDS = PACES


@dataclass(frozen=True, slots=True)
class Magic:
    """DEF-05: a damaging power whose pool the power's own code built; only its defense and
    DMG-03 run here."""

    name: str
    pool: PoolSpec
    damage_dice: int
    damage_type: str = "lethal"
    source: str = "power"  # a damage source damage.py knows (power, fire, electricity ...)
    ranged: bool = True
    lock_on: bool = False  # e.g. a Forces + Life effect with a success on Life
    area: bool = False  # area of effect: escape the area instead of defending


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Attack:
    """What the attacker declared."""

    attacker: str
    target: str
    maneuver: str = "attack"  # "attack": the weapon kind's default (attacks.default_maneuver)
    weapon: str | None = None
    location: str | None = None  # MAN-10: arm, head, heart ...
    position: str = "front"  # MAN-02: front, flank, rear
    aim_turns: int = 0  # RNG-01: turns spent aiming before this shot
    scope: bool = False  # RNG-01: scope or laser sight fitted
    off_hand: bool = False  # RNG-09
    ability: str | None = None  # pick one of the allowed abilities (else the best one)
    specialty: bool = False  # DICE-03: claim a specialty in the rolled trait
    willpower: bool = False  # DICE-04: spend a Willpower for one automatic success
    ammo: str = "standard"  # CLOSE-06 rubber bullets, silver ...
    drain: bool = False  # CLOSE-01: a vampire's bite drains blood instead of damage
    sever: bool = False  # CLOSE-01: a Redcap's bite tries to sever a limb
    magic: Magic | None = None  # DEF-05
    extra: tuple[Modifier, ...] = ()  # declared situational modifiers, each with its reason


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Side:
    """Plain facts the combat knows about one side of an attack."""

    conditions: frozenset[str] = frozenset()
    speed: str = "still"  # COMP-05, RNG-01: still, walk, jog, run
    moved_yards: int = 0  # MAN-04: yards moved while acting this turn
    cover: str = "none"  # RNG-03: none, light, good, superior
    weapon: str | None = None  # weapon in hand (target: CLOSE-13, disarm; attacker: main hand)
    active_powers: frozenset[str] = frozenset()  # COMP-01: Heightened Senses, Eyes of the Beast
    opponents: int = 1  # CLOSE-08: foes engaging this side in close combat this turn
    blind_fight_penalty: int = 0  # COMP-01: Blind Fighting points spent on own penalty
    blind_fight_bonus: int = 0  # COMP-01: points spent against the bonus to attack this side
    varna: str = ""  # CLOSE-01: e.g. "Gila Monster" for a Mokole
    sees_behind: bool = False  # MAN-02 everyman variant
    in_combat: bool = True  # MAN-01: someone in combat cannot be ambushed


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True, slots=True)
class WeaponState:
    """A ranged weapon's readiness, as plain values the combat saves between turns."""

    weapon: str
    ammo: int | None = None  # rounds in the clip / bolt on the crossbow; None: not tracked
    nocked: bool = False  # ATK-07: an arrow nocked and drawn
    string_ok: bool = True  # ATK-07: a botch snaps the bowstring
    reload_progress: int = 0  # ATK-08: crossbow reload actions spent so far
    prepared_arrows: int = 0  # RNG-06: arrows set ready (stuck in the ground ...)
    strings_used: int = 0  # ATK-07: spare bowstrings used for repairs in this fight
    load: str = "standard"  # CLOSE-06: the ammunition kind loaded (weapons.ammo)

    @classmethod
    def fresh(cls, weapon: Weapon) -> "WeaponState":
        """Ready as carried into a fight: guns and crossbows loaded, no arrow nocked."""
        if weapon.kind in ("firearm", "crossbow"):
            return cls(weapon.name, ammo=weapon.clip or 1)
        return cls(weapon.name)

    def as_dict(self) -> dict:
        return {"weapon": self.weapon, "ammo": self.ammo, "nocked": self.nocked,
                "string_ok": self.string_ok, "reload_progress": self.reload_progress,
                "prepared_arrows": self.prepared_arrows, "strings_used": self.strings_used,
                "load": self.load}


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Context:
    """What the scheduler and the combat know about this attack (attacker's point of view)."""

    attacker: Side = field(default_factory=Side)
    target: Side = field(default_factory=Side)
    range_yards: int = 1
    grapple: str = ""  # "clinch" or "hold" when attacker and target are locked together
    tackled_last_turn: bool = False  # CLOSE-01: the attacker tackled the target last turn
    riposte: bool = False  # CLOSE-09: attacker parried this target with this weapon
    ambush_bonus: int = 0  # MAN-01: dice from a won ambush roll
    shots_this_turn: int = 1  # RNG-04: shots declared with this weapon this turn
    spread_yards: int = 0  # RNG-07: widest gap between strafed targets
    weapon_state: WeaponState | None = None  # None: WeaponState.fresh
    ignore_wounds: bool = False  # HLT-08: a Willpower spent to ignore wound penalties
    room_to_dodge: bool = True  # DEF-02: room to bob and weave
    extra: tuple[Modifier, ...] = ()  # from the scheduler: multiple actions (MAN-05..08) ...


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class Defense:
    """A declared defense against one attack (DEF-01..03)."""

    defender: str
    kind: str  # block, dodge, parry
    weapon: str | None = None  # parry: the weapon or shield
    prone: bool = False  # dodge a gunshot by dropping to the ground
    to_cover: bool = False  # dodge a gunshot by moving behind cover
    countermagic: bool = False  # DEF-05: something negating a lock-on power is up
    ability: str | None = None
    specialty: bool = False
    willpower: bool = False
    extra: tuple[Modifier, ...] = ()  # from the scheduler: DEF-04 desperate defense, ...


@dataclass(frozen=True, slots=True)
class Effect:
    """Something the hit (or the botch) causes beyond damage, for the combat to apply.

    kinds: grapple (detail clinch/hold), knockdown_check (difficulty relative or absolute),
    next_turn_difficulty, disarm_if_damage_over (value: pre-soak damage successes to beat),
    disarmed, staked_if_damage (value: levels after soak), drain_blood (value: at most),
    severed, attacker_damage (value, detail: damage type; soakable as usual),
    knocked_down_or_damage (value: damage if chosen), string_snapped, weapon_thrown.
    """

    kind: str
    who: str = "target"
    value: int = 0
    difficulty: int = 0
    absolute: int | None = None
    detail: str = ""


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class DefenseResult:
    defense: Defense
    pool: PoolSpec
    roll: Roll
    counter: PoolSpec | None = None  # DMG-17: damage dice against the attacker
    counter_type: str = ""


@fast_init  # built many times per command: combat/core/values.py
@dataclass(frozen=True, slots=True)
class AttackResult:
    intent: Attack
    context: Context
    target: str
    maneuver: str
    attack_kind: str  # brawl, melee, thrown, firearm, bow, crossbow, magic
    range: str  # close or ranged
    weapon: str | None
    pool: PoolSpec | None  # None: no roll (DICE-08 automatic, or an automatic miss)
    roll: Roll | None
    defense: DefenseResult | None
    successes: int  # the attack's successes (RNG-07: this target's share)
    net: int  # DMG-03: after the defense's successes
    hit: bool
    botch: bool  # the attack botched (never when COMP-03 forces a success)
    auto: str  # why no roll was needed ("" when rolled)
    damage: PoolSpec | None  # the damage pool when hit (see deals_damage)
    deals_damage: bool  # False: roll it only to compare (CLOSE-04 disarm), never apply it
    damage_type: str
    damage_source: str  # damage.py's source word: brawl, kick, bite, melee, firearm, fire ...
    materials: tuple[str, ...]  # extra sources touching the target: silver ... (DMG-09)
    armor: str | None  # the target's armor, if any
    armor_rating: int
    armor_stops_source: bool  # DMG-11: the armor table's say for this damage source
    unarmored_part: bool  # DMG-11 / MAN-10: the targeted part is not covered (or bypasses)
    location: str | None
    part: str | None
    head_shot: bool  # DMG-15
    effects: tuple[Effect, ...]
    costs: tuple[tuple[str, int], ...]  # pools the attacker spends (Willpower, Glamour)
    weapon_before: WeaponState | None
    weapon_after: WeaponState | None

    @property
    def damage_dice(self) -> int:
        """Dice damage.py rolls; 0 when nothing is dealt (a miss, a hold, a drain)."""
        return self.damage.dice if self.damage is not None and self.deals_damage else 0

    @property
    def armor_applies(self) -> bool:
        """DMG-11: the target's armor adds to soak against this hit."""
        return bool(self.armor_rating and self.armor_stops_source and not self.unarmored_part)

    def soak_kwargs(self) -> dict:
        """The keyword arguments ``wodcombat.combat.d10.damage.resolve_damage`` takes for this
        hit (the damage dice already include DMG-02's extra successes)."""
        return {"dice": self.damage_dice, "damage_type": self.damage_type,
                "source": self.damage_source, "materials": self.materials,
                "armor_rating": self.armor_rating, "armor_applies": self.armor_stops_source,
                "unarmored_part": self.unarmored_part, "head_shot": self.head_shot}
