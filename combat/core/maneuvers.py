"""The attack tables a ruleset holds: attack kinds, defenses, maneuvers, ranged rules, targeting,
complications, movement, time powers, Fera notes, weapons and armor (``rules/*/maneuvers.yaml``,
``weapons.yaml``, ``armor.yaml``).

This module owns the schemas of those sections and turns the validated plain data into small
frozen values the attack modules (``combat/d10/attack_*.py``) read. Nothing here rolls dice.
The tables of one ruleset are built once and cached (the engine must resolve tens of
thousands of attacks a second, so per-attack YAML walking is avoided).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, InputError
from .health import DAMAGE_TYPES
from .player_text import did_you_mean
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Spec, Str, Struct
from .values import replace

ATTACK_KINDS = ("brawl", "melee", "thrown", "firearm", "bow", "crossbow")
RANGED_KINDS = ("thrown", "firearm", "bow", "crossbow")
PACES = ("still", "walk", "jog", "run")  # COMP-05 / RNG-01 compare speeds in this order
COVER = ("none", "light", "good", "superior")
_DAMAGE = re.compile(r"^(?:(str|strength|weapon)\s*(?:([+-])\s*(\d+))?|(\d+)|none)$", re.I)


# ---------------------------------------------------------------- schema pieces


@dataclass(frozen=True)
class DamageExpr(Spec):
    """A damage expression: ``Str``, ``Str+1``, ``Str-1``, ``weapon``, ``weapon+2``, ``5``,
    ``none``. Checked at load so a typo is an admin's error, not a crash mid-combat."""

    doc = "a damage like Str+1, weapon+2, 5 or none"

    def check(self, value, path, problems):
        text = str(value).strip() if isinstance(value, (str, int)) else None
        if isinstance(value, bool) or text is None or not _DAMAGE.match(text):
            problems.append((path, f"expected {self.doc}, got {value!r}"))
            return None
        return text


_DIFF = Int(-10, 10)
_TYPE = Str(DAMAGE_TYPES)
_TYPE_OR_WEAPON = Str(DAMAGE_TYPES + ("weapon",))

ROLL = Struct(
    required={"attribute": Str(), "ability": Str()},
    optional={
        "range": Str(("close", "ranged", "any")),
        # explicit substitutions a rule states; difficulty omitted = DICE-06 derives it
        "alternatives": ListOf(Struct(required={"ability": Str()},
                                      optional={"difficulty": _DIFF})),
        "missing_difficulty": _DIFF,  # DICE-07 / ATK-02 / ATK-09
        "difficulty": _DIFF,
    },
    defaults={"alternatives": (), "missing_difficulty": 0, "difficulty": 0},
)

# null switches that way off (a child ruleset cannot delete a key its parent set)
WAIVER = Struct(optional={"specialty_of": Optional(Str()), "specialty_named": Optional(Str()),
                          "trait": Str(),
                          "at_least": Int(0, 10)},
                defaults={"at_least": 1})

ATTACKS_SCHEMA = Struct(
    required={"kinds": MapOf(ROLL)},
    optional={
        "source": Str(),
        # the maneuver a plain "attack" is, by weapon kind (unarmed: no weapon)
        "default_maneuver": Struct(optional={k: Str() for k in ("unarmed",) + ATTACK_KINDS},
                                   defaults=dict.fromkeys(("unarmed",) + ATTACK_KINDS, "strike")),
        # DICE-06: difficulty change of a related secondary for a primary, and the reverse
        "substitution": Struct(optional={"secondary_for_primary": _DIFF,
                                         "primary_for_secondary": _DIFF,
                                         "derived": Bool()},  # false: no DICE-06 (v20)
                               defaults={"secondary_for_primary": -1, "primary_for_secondary": 1,
                                         "derived": True}),
        "close_reach_yards": Int(0, 1000),
        "throwing": Struct(optional={
            "melee_with_throwing_weapon": _DIFF, "throwing_melee_weapon": _DIFF,
            "yards_per_strength": Int(0, 100), "full_range_up_to_lb": Int(0, 1000),
            "yards_lost_per_step": Int(0, 100), "step_lb": Int(1, 1000),
            "min_yards": Int(0, 100), "normal_range": Str(("maximum", "half")),
            "lift_lb_by_strength": ListOf(Int(0, 100000), min_len=1),
        }, defaults={  # ATK-04, ATK-06 (V20 p. 274): 5 x Strength yards up to 3 lb, -5 per 2 lb
            "melee_with_throwing_weapon": 1, "throwing_melee_weapon": 1,
            "yards_per_strength": 5, "full_range_up_to_lb": 3, "yards_lost_per_step": 5,
            "step_lb": 2, "min_yards": 1, "normal_range": "maximum", "lift_lb_by_strength": (),
        }),
        "bow": Struct(optional={
            "nock_actions": Int(0, 5), "nock_waived_by": Optional(WAIVER),
            "botch_snaps_string": Bool(), "repair_needs_spare_string": Bool(),
            "repair_rolls": ListOf(ROLL, min_len=1),
        }, defaults={"botch_snaps_string": True, "repair_needs_spare_string": True}),  # ATK-07
        "crossbow": Struct(optional={
            "reload_actions": Int(0, 10), "fast_reload_actions": Int(0, 10),
            "fast_reload_by": Optional(WAIVER),
        }, defaults={"reload_actions": 2, "fast_reload_actions": 1}),  # ATK-08
    },
    defaults={"default_maneuver": {}, "substitution": {}, "close_reach_yards": 1,
              "throwing": {}, "bow": {}, "crossbow": {}},
)

DEFENSES_SCHEMA = Struct(
    required={"kinds": MapOf(ROLL)},
    optional={
        "source": Str(),
        "block_lethal_requires": Str(("soak", "soak_fortitude_armor_or_weapon",
                                        "fortitude_armor_or_weapon", "nothing")),
        "dodge_vs_firearms_requires_cover_or_prone": Bool(),
        "dodge_cannot_botch_races": ListOf(Str()),
        "dodge_ranged_kinds": ListOf(Str(ATTACK_KINDS)),
        "parry_weapon_kinds": ListOf(Str(ATTACK_KINDS)),
        "parry_counter": Optional(Struct(
            required={"against": Str(("unarmed", "any"))},
            optional={"weapon_types": ListOf(_TYPE), "dice_per_extra_success": Int(0, 10)},
            defaults={"weapon_types": ("lethal", "aggravated"), "dice_per_extra_success": 1},
        )),
        "magic_lock_on_defendable": Bool(),
        "magic_area_defendable": Bool(),
    },
    defaults={"block_lethal_requires": "soak",  # DMG-16
              "dodge_vs_firearms_requires_cover_or_prone": True, "dodge_cannot_botch_races": (),
              "dodge_ranged_kinds": ("firearm",), "parry_weapon_kinds": ("melee",),  # DEF-02
              "magic_lock_on_defendable": False, "magic_area_defendable": False},
)

EFFECT = Struct(
    required={"effect": Str(("grapple", "knockdown_check", "next_turn_difficulty", "disarm",
                             "knocked_down_or_damage"))},
    optional={"who": Str(("attacker", "target")), "difficulty": _DIFF,
              "absolute": Int(1, 10), "value": Int(-100, 100), "detail": Str()},
    defaults={"who": "target", "difficulty": 0, "absolute": None, "value": 0, "detail": ""},
)

_OVERRIDE = Struct(optional={"kind": Str(ATTACK_KINDS), "attribute": Str(), "dice": _DIFF,
                             "difficulty": _DIFF, "damage": DamageExpr(),
                             "type": _TYPE_OR_WEAPON})

MANEUVER = Struct(
    required={"kind": Str(ATTACK_KINDS + ("weapon",)), "damage": DamageExpr(),
              "type": _TYPE_OR_WEAPON},
    optional={
        "weapon": Str(("none", "required", "optional")),
        "weapon_kinds": ListOf(Str(ATTACK_KINDS)),
        "weapon_classes": ListOf(Str()),
        "needs_flag": Str(("burst", "autofire")),
        "min_rate": Int(0, 100),
        "min_clip_percent": Int(0, 100),
        "roll": Bool(),
        "attribute": Str(),
        "dice": _DIFF,
        "difficulty": _DIFF,
        "forms": Str(),
        "natural": Str(("bite", "claw")),
        "needs_grapple": ListOf(Str(("clinch", "hold"))),
        "target_needs_weapon": Bool(),
        "deals_damage": Bool(),
        "effects": ListOf(EFFECT),
        "botch_effects": ListOf(EFFECT),
        "rounds": Int(0, 1000),
        "empties_clip": Bool(),
        "targeting": Bool(),
        "max_spread_yards": Int(0, 1000),
        "dodge_difficulty": _DIFF,
        "single_target": Str(("halve", "all")),
        "rubber_becomes": _TYPE,
        "source": Str(),
        "unarmed": _OVERRIDE,
        "armed": _OVERRIDE,
        "ids": Str(),
        "note": Str(),
    },
    # What a maneuver row that leaves a key out is (an ordinary, rolled, damaging attack)
    defaults={"weapon": "optional", "weapon_kinds": (), "weapon_classes": (), "needs_flag": "",
              "min_rate": 0, "min_clip_percent": 0, "roll": True, "attribute": None, "dice": 0,
              "difficulty": 0, "forms": "", "natural": "", "needs_grapple": (),
              "target_needs_weapon": False, "deals_damage": True, "effects": (),
              "botch_effects": (), "rounds": 0, "empties_clip": False, "targeting": True,
              "max_spread_yards": 0, "dodge_difficulty": 0, "single_target": "all",
              "rubber_becomes": "", "source": "", "armed": {}, "unarmed": {}},
)

_NATURAL = Struct(optional={"bite": Str(("none", "normal", "extra")), "claw": Bool()},
                  defaults={"bite": "none", "claw": False})

MANEUVERS_SCHEMA = Struct(
    required={"list": MapOf(MANEUVER)},
    optional={
        "source": Str(),
        "form_limits": MapOf(MapOf(ListOf(Str()))),
        "flank": Struct(optional={"flank_dice": _DIFF, "rear_dice": _DIFF,
                                  "lost_if_target_sees_behind": Bool()},
                        defaults={"flank_dice": 1, "rear_dice": 2,  # MAN-02
                                  "lost_if_target_sees_behind": False}),
        "ambush": Struct(optional={
            "attacker": ROLL, "target": Struct(required={"attribute": Str(), "ability": Str()},
                                               optional={"sense": Str()},
                                               defaults={"sense": ""}),
            "bonus_dice": Str(("margin", "margin_minus_one")),
        }, defaults={"attacker": {"attribute": "Dexterity", "ability": "Stealth"},  # MAN-01
                     "target": {"attribute": "Perception", "ability": "Alertness"},
                     "bonus_dice": "margin"}),
        "multiple_opponents": Struct(optional={
            "per_extra": Int(0, 10), "max": Int(0, 20),
            "applies_to": ListOf(Str(("attack", "defense"))),
            # CLOSE-08: which attackers count once there are two or more: every one of them
            # (everyman: two attackers = +2) or each beyond the first (absent: V20/numetal).
            "counts": Str(("every", "extra")),
        }, defaults={"per_extra": 1, "max": 4,  # CLOSE-08
                     "applies_to": ("attack", "defense")}),
        "riposte_dice": _DIFF,
        "weapon_length_dice": _DIFF,
        "grapples": MapOf(Struct(optional={"allowed": ListOf(Str()),
                                           "defenses": ListOf(Str())},
                                 defaults={"allowed": (), "defenses": ()})),
        "escape": Struct(required={"attribute": Str(), "ability": Str()}),
        "natural_weapons": MapOf(MapOf(_NATURAL)),
        "bite": Struct(optional={
            "vampire_needs_grapple": Bool(), "redcap_race": Str(),
            "redcap_cost": Struct(required={"pool": Str(), "points": Int(0, 10)}),
            "extra_damage": DamageExpr(),
            "varna_damage": MapOf(Struct(required={"race": Str(), "damage": DamageExpr()},
                                         optional={"form": Str()})),
            "vampire_drain_max": Int(0, 20),
            "everyone_needs_grapple": Bool(),  # everyman CLOSE-01
            "aggravated_families": Optional(ListOf(Str())),  # everyman: [vampire, shifter]
            "other_type": _TYPE,  # the bite's type for the other families
            "sever": Struct(optional={"difficulty": _DIFF, "successes": Int(1, 20),
                                      "successes_if_grappled": Int(1, 20),
                                      "damage": Int(0, 20)},
                            defaults={"difficulty": 3, "successes": 5,  # CLOSE-01 (Redcap)
                                      "successes_if_grappled": 3, "damage": 3}),
        }, defaults={"vampire_needs_grapple": True, "vampire_drain_max": 3,  # CLOSE-01
                     "everyone_needs_grapple": False, "aggravated_families": None,
                     "other_type": "lethal"}),
        "claw_sources": ListOf(Struct(
            required={"family": Str(), "type": _TYPE, "label": Str()},
            optional={"trait": Str(), "at_least": Int(0, 10), "natural": Bool()},
            defaults={"at_least": 1, "natural": False},
        )),
    },
    defaults={"form_limits": {}, "flank": {}, "ambush": {}, "multiple_opponents": {},
              "riposte_dice": 1, "weapon_length_dice": -1, "grapples": {},  # CLOSE-09, -13
              "natural_weapons": {}, "bite": {}, "claw_sources": ()},
)

RANGED_SCHEMA = Struct(optional={
    "source": Str(),
    "range_bands": Struct(optional={
        "point_blank_yards": Int(0, 100), "point_blank_difficulty": _DIFF,
        "beyond_normal_difficulty": _DIFF, "miss_beyond_multiple": Int(1, 100),
    }, defaults={"point_blank_yards": 2, "point_blank_difficulty": -2,  # RNG-02, RNG-03
                 "beyond_normal_difficulty": 2, "miss_beyond_multiple": 2}),
    "aiming": Struct(optional={
        "dice_per_turn": Int(0, 10), "max_trait": Str(), "scope_dice": Int(0, 10),
        "requires": MapOf(MapOf(Int(0, 10))), "forbidden_classes": ListOf(Str()),
        "target_max_speed": Str(PACES),
    }, defaults={"dice_per_turn": 1, "max_trait": "Perception", "scope_dice": 2,  # RNG-01
                 "requires": {}, "forbidden_classes": ()}),
    "cover": MapOf(Struct(required={"to_be_hit": _DIFF, "to_hit": _DIFF},
                          optional={"exposed": ListOf(Str()), "note": Str()},
                          defaults={"exposed": ()})),
    "two_weapons": Struct(optional={
        "off_hand_difficulty": _DIFF, "off_hand_waived_by": Optional(WAIVER),
        "no_multiple_action_penalty_by": Optional(WAIVER),
    }, defaults={"off_hand_difficulty": 1}),  # RNG-09
}, defaults={"range_bands": {}, "aiming": {}, "cover": {}, "two_weapons": {}})

TARGETING_SCHEMA = Struct(
    required={"sizes": MapOf(Struct(required={"difficulty": _DIFF, "damage": Int(-10, 10)})),
              "locations": MapOf(Struct(required={"size": Str(), "part": Str()},
                                        optional={"bypasses_armor": Bool()},
                                        defaults={"bypasses_armor": False}))},
    optional={
        "source": Str(),
        "head_parts": ListOf(Str()),
        "stake": Struct(optional={"location": Str(), "min_damage": Int(0, 20),
                                  "families": ListOf(Str()), "weapons": ListOf(Str()),
                                  "effects": Str()},
                        defaults={"min_damage": 3, "families": (), "weapons": (),  # MAN-11
                                  "effects": ""}),
    },
    defaults={"head_parts": ("head",), "stake": {}},
)

COMPLICATIONS_SCHEMA = Struct(optional={
    "source": Str(),
    "blinded": Struct(optional={
        "attacks_on_blinded_dice": _DIFF, "close_difficulty": _DIFF,
        "ranged_difficulty": Optional(_DIFF), "defense_difficulty": _DIFF,
        "mitigations": MapOf(Str(("half", "none"))),
        "blind_fighting": Struct(required={"attribute": Str(), "ability": Str()},
                                 optional={"first": Int(0, 10), "per_extra": Int(1, 10)},
                                 defaults={"first": 1, "per_extra": 2}),
    }, defaults={"attacks_on_blinded_dice": 2, "close_difficulty": 2,  # COMP-01
                 "ranged_difficulty": 6, "defense_difficulty": 2, "mitigations": {},
                 "blind_fighting": {"attribute": "Perception", "ability": "Blind Fighting"}}),
    "immobilized": Struct(optional={"partial_dice": _DIFF,
                                    "full": Str(("min_one_success", "auto_hit"))},
                          defaults={"partial_dice": 2, "full": "min_one_success"}),  # COMP-03
    "knockdown": Struct(optional={
        "attribute": Str(), "ability": Str(), "success_initiative": _DIFF,
        "botch_damage": Int(0, 10), "botch_type": _TYPE, "botch_soakable": Bool(),
        "prone_close_attack_dice": _DIFF, "attacks_on_prone_dice": _DIFF,
        "maneuver_success": Str(("stands", "up_minus_initiative")),
    }, defaults={"attribute": "Dexterity", "ability": "Athletics",  # COMP-04
                 "success_initiative": -2, "botch_damage": 1, "botch_type": "bashing",
                 "botch_soakable": False, "prone_close_attack_dice": -2,
                 "attacks_on_prone_dice": 2, "maneuver_success": "up_minus_initiative"}),
    "movement": Struct(optional={"attacker_faster_than_walk": _DIFF,
                                 "target_faster_than_walk": _DIFF},
                       defaults={"attacker_faster_than_walk": 1,  # COMP-05
                                 "target_faster_than_walk": 1}),
}, defaults={"blinded": {}, "immobilized": {}, "knockdown": {}, "movement": {}})

MOVEMENT_SCHEMA = Struct(
    required={"paces": MapOf(Struct(required={"base": Int(0, 1000),
                                              "per_dexterity": Int(0, 100)}))},
    optional={
        "source": Str(),
        "forms": MapOf(Struct(optional={"all_fours_bonus": Int(0, 100),
                                        "percent": Int(1, 1000)},
                              defaults={"all_fours_bonus": 0, "percent": 100})),
        "while_acting": Struct(optional={"max_percent_of_run": Int(0, 100),
                                         "dice_per_yard": Int(-10, 0)},
                               defaults={"max_percent_of_run": 50,  # MAN-04
                                         "dice_per_yard": -1}),
        "starting_range_yards": Int(0, 1000),
    },
    defaults={"forms": {}, "while_acting": {}},
)

TIME_POWERS_SCHEMA = Struct(
    required={"powers": MapOf(Struct(
        required={"when": Str(("this_turn", "next_turn", "each_turn_rest_of_scene")),
                  "per": Str(("successes", "points", "dots", "fixed"))},
        optional={"power": Str(), "divisor": Int(1, 10), "amount": Int(0, 20),
                  "cap": Optional(Int(0, 50)), "initiative_step": Int(-10, 0),
                  "once_per_scene": Bool(), "once_per_scene_per_target": Bool(),
                  "note": Str()},
        defaults={"divisor": 1, "amount": 1, "cap": None, "initiative_step": 0,
                  "once_per_scene": False, "once_per_scene_per_target": False, "note": ""},
    ))},
    optional={"source": Str(), "disabled": ListOf(Str())},
    defaults={"disabled": ()},
)

_FERA_ROW = {"race": Str()}
_FERA_OPT = {"forms": ListOf(Str()), "not_forms": ListOf(Str()), "note": Str()}
FERA_SCHEMA = Struct(defaults={"trait_difficulty": (), "senses": (), "jagged_skin": ()},
                     optional={
    "source": Str(),
    "trait_difficulty": ListOf(Struct(required={**_FERA_ROW, "trait": Str(),
                                                "difficulty": _DIFF}, optional=_FERA_OPT)),
    "senses": ListOf(Struct(required={**_FERA_ROW, "sense": Str(), "trait": Str(),
                                      "difficulty": _DIFF}, optional=_FERA_OPT)),
    "jagged_skin": ListOf(Struct(required={**_FERA_ROW, "damage": Int(0, 20), "type": _TYPE},
                                 optional=_FERA_OPT)),
})

WEAPONS_SCHEMA = Struct(
    required={"items": MapOf(Struct(
        required={"damage": DamageExpr(), "type": _TYPE, "kind": Str(ATTACK_KINDS)},
        optional={
            "class": Str(), "range": Int(0, 100000), "rate": Int(0, 1000),
            "clip": Int(0, 10000), "conceal": Str(("P", "J", "T", "N")),
            "two_handed": Bool(), "length": Int(0, 10), "throwing": Bool(),
            "weight_lb": Int(0, 100000), "autofire": Bool(), "burst": Bool(),
            "source": Str(), "material": Str(), "scope": Bool(), "note": Str(),
            "ammo": ListOf(Str()), "spare_strings": Int(0, 100),
        },
        # "source" left out: the weapon's kind (Weapon.from_row)
        defaults={"class": "", "range": 0, "rate": 1, "clip": 0, "conceal": "",
                  "two_handed": False, "length": 0, "throwing": False, "weight_lb": 0,
                  "autofire": False, "burst": None, "material": "", "scope": False,
                  "ammo": (), "spare_strings": 0},
    ))},
    optional={
        "source": Str(), "editable": Bool(),
        "ammo": MapOf(Struct(optional={"type": _TYPE, "material": Str(), "note": Str()})),
    },
    defaults={"ammo": {}},
)

ARMOR_SCHEMA = Struct(
    required={"items": MapOf(Struct(
        required={"rating": Int(0, 20), "penalty": Int(0, 10)},
        optional={"class": Int(0, 10), "covers": ListOf(Str()), "applies_to": ListOf(Str()),
                  "shield": Bool(), "note": Str()},
        defaults={"covers": (), "applies_to": ("kinetic",), "shield": False},  # DMG-11
    ))},
    optional={
        "source": Str(), "editable": Bool(),
        "penalty_as": Str(("difficulty", "dice")),
        "penalty_applies_to": ListOf(Str(("attack", "block", "dodge", "parry"))),
        "source_groups": MapOf(ListOf(Str())),
    },
    defaults={"penalty_as": "difficulty", "penalty_applies_to": ("attack",),  # ATK-03
              "source_groups": {}},
)

# Section name -> schema; combat/rules/sections.py registers these.
SCHEMAS = {
    "attacks": ATTACKS_SCHEMA,
    "defenses": DEFENSES_SCHEMA,
    "maneuvers": MANEUVERS_SCHEMA,
    "ranged": RANGED_SCHEMA,
    "targeting": TARGETING_SCHEMA,
    "complications": COMPLICATIONS_SCHEMA,
    "movement": MOVEMENT_SCHEMA,
    "time_powers": TIME_POWERS_SCHEMA,
    "fera_notes": FERA_SCHEMA,
    "weapons": WEAPONS_SCHEMA,
    "armor": ARMOR_SCHEMA,
}
SCHEMA = SCHEMAS  # the brief's name for "this module's schema(s)"


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Damage:
    """A parsed damage expression: ``base`` is "str", "weapon", "fixed" or "none"."""

    base: str
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int) -> "Damage":
        m = _DAMAGE.match(str(text).strip())
        if not m:
            raise InputError(f"'{text}' is not a damage expression (Str+1, weapon+2, 5, none).")
        word, sign, num, fixed = m.groups()
        if fixed is not None:
            return cls("fixed", int(fixed))
        if word is None:
            return cls("none", 0)
        bonus = int(num or 0) * (-1 if sign == "-" else 1)
        return cls("weapon" if word.lower() == "weapon" else "str", bonus)


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    damage: Damage
    type: str
    kind: str
    cls: str = ""
    range: int = 0
    rate: int = 1
    clip: int = 0
    conceal: str = ""
    two_handed: bool = False
    length: int = 0
    throwing: bool = False
    weight_lb: int = 0
    autofire: bool = False
    burst: bool | None = None  # RNG-08: None: by the rate of fire; False: no burst setting
    source: str = ""
    material: str = ""
    scope: bool = False
    ammo: tuple[str, ...] = ()  # CLOSE-06: the ammunition kinds it can be loaded with
    spare_strings: int = 0  # ATK-07: spare bowstrings carried with a bow

    @classmethod
    def from_row(cls, name: str, row: dict) -> "Weapon":
        return cls(
            name=name, damage=Damage.parse(row["damage"]), type=row["type"], kind=row["kind"],
            cls=row["class"], range=row["range"], rate=row["rate"], clip=row["clip"],
            conceal=row["conceal"], two_handed=row["two_handed"], length=row["length"],
            throwing=row["throwing"], weight_lb=row["weight_lb"], autofire=row["autofire"],
            burst=row["burst"], source=row.get("source") or row["kind"],
            material=row["material"], scope=row["scope"], ammo=tuple(row["ammo"]),
            spare_strings=row["spare_strings"],
        )


@dataclass(frozen=True, slots=True)
class Armor:
    name: str
    rating: int
    penalty: int
    covers: tuple[str, ...] = ()
    applies_to: tuple[str, ...] = ("kinetic",)
    shield: bool = False

    def stops(self, source: str) -> bool:
        """DMG-11: does this armor stop this damage source (groups already expanded)?"""
        return source in self.applies_to

    def covers_part(self, part: str | None) -> bool:
        """DMG-11 / MAN-10: ``part`` None means no location was targeted (the whole body)."""
        return part is None or part in self.covers


@dataclass(frozen=True, slots=True)
class EffectSpec:
    effect: str
    who: str = "target"
    difficulty: int = 0
    absolute: int | None = None
    value: int = 0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Maneuver:
    """One row of ``maneuvers.list``; ``for_weapon`` applies its armed/unarmed overrides."""

    name: str
    kind: str
    damage: Damage
    type: str
    weapon: str = "optional"
    weapon_kinds: tuple[str, ...] = ()
    weapon_classes: tuple[str, ...] = ()
    needs_flag: str = ""
    min_rate: int = 0
    min_clip_percent: int = 0
    roll: bool = True
    attribute: str | None = None
    dice: int = 0
    difficulty: int = 0
    forms: str = ""
    natural: str = ""
    needs_grapple: tuple[str, ...] = ()
    target_needs_weapon: bool = False
    deals_damage: bool = True
    effects: tuple[EffectSpec, ...] = ()
    botch_effects: tuple[EffectSpec, ...] = ()
    rounds: int = 0
    empties_clip: bool = False
    targeting: bool = True
    max_spread_yards: int = 0
    dodge_difficulty: int = 0
    single_target: str = "all"
    rubber_becomes: str = ""
    source: str = ""
    armed: tuple[tuple[str, Any], ...] = ()  # overrides with a weapon (items of a mapping)
    unarmed: tuple[tuple[str, Any], ...] = ()  # overrides without one

    @classmethod
    def from_row(cls, name: str, row: dict) -> "Maneuver":
        def effects(key):
            return tuple(EffectSpec(e["effect"], e["who"], e["difficulty"], e["absolute"],
                                    e["value"], e["detail"])
                         for e in row[key])

        return cls(
            name=name, kind=row["kind"], damage=Damage.parse(row["damage"]), type=row["type"],
            weapon=row["weapon"], weapon_kinds=tuple(row["weapon_kinds"]),
            weapon_classes=tuple(row["weapon_classes"]), needs_flag=row["needs_flag"],
            min_rate=row["min_rate"], min_clip_percent=row["min_clip_percent"],
            roll=row["roll"], attribute=row["attribute"], dice=row["dice"],
            difficulty=row["difficulty"], forms=row["forms"], natural=row["natural"],
            needs_grapple=tuple(row["needs_grapple"]),
            target_needs_weapon=row["target_needs_weapon"], deals_damage=row["deals_damage"],
            effects=effects("effects"), botch_effects=effects("botch_effects"),
            rounds=row["rounds"], empties_clip=row["empties_clip"], targeting=row["targeting"],
            max_spread_yards=row["max_spread_yards"], dodge_difficulty=row["dodge_difficulty"],
            single_target=row["single_target"], rubber_becomes=row["rubber_becomes"],
            source=row["source"], armed=tuple(sorted(row["armed"].items())),
            unarmed=tuple(sorted(row["unarmed"].items())),
        )

    def for_weapon(self, armed: bool) -> "Maneuver":
        over = dict(self.armed if armed else self.unarmed)
        if not over:
            return self
        changes = {k: v for k, v in over.items() if k != "damage"}
        if "damage" in over:
            changes["damage"] = Damage.parse(over["damage"])
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Location:
    name: str
    size: str
    part: str
    difficulty: int
    damage: int
    bypasses_armor: bool = False


# ---------------------------------------------------------------- the cached tables


def _norm(text: str) -> str:
    return " ".join(str(text).lower().replace("_", " ").split())


def _known(table: dict, name: str, index: dict | None = None):
    """The entry ``name`` names, case and spacing aside, or None: for a caller asking
    whether a name is in a table (a parry item may be a weapon or a shield), where a miss is
    an answer, not a typo to suggest a fix for (the suggestion costs a fuzzy match).
    ``index``: normalised names to values; built here only when the exact name misses."""
    hit = table.get(name)
    if hit is None:
        if index is None:
            index = {_norm(k): v for k, v in table.items()}
        hit = index.get(_norm(name))
    return hit


def _find(table: dict, name: str, what: str, hint, index: dict | None = None):
    """Case-insensitive lookup with a suggestion: a player typed this name. ``index`` maps
    normalised names to values (built once per table, so the usual lookup is one dict hit).
    ``hint``: text, or a function making it (a sorted list of names, built only for the
    refusal: every attack looks maneuvers up)."""
    hit = _known(table, name, index)
    if hit is not None:
        return hit
    key = _norm(name)
    starts = [k for k in table if _norm(k).startswith(key)] if key else []
    if len(starts) == 1:
        return table[starts[0]]
    tip = did_you_mean(key, [_norm(k) for k in table])
    if len(starts) > 1:
        # Names may hold a comma ("Pistol, light"): a list of them is joined with "or".
        sep = " or " if any("," in k for k in starts) else ", "
        tip = f" It could be: {sep.join(starts[:6])}."
    if callable(hint):
        hint = hint()
    raise InputError(f"'{name}' is not a {what} here.{tip} {hint}".rstrip())


class Tables:
    """Typed views of one ruleset's attack sections, built once per ruleset."""

    def __init__(self, ruleset):
        sec = ruleset.section
        self.ruleset = ruleset
        # A section the ruleset lacks (switched off, or a root ruleset without it): the
        # schema's defaults, with no rows.
        self.attacks: dict = sec("attacks") or ATTACKS_SCHEMA.fill({"kinds": {}})
        self.defenses: dict = sec("defenses") or DEFENSES_SCHEMA.fill({"kinds": {}})
        self.man: dict = sec("maneuvers") or MANEUVERS_SCHEMA.fill({"list": {}})
        self.ranged: dict = sec("ranged") or RANGED_SCHEMA.fill({})
        self.targeting: dict = sec("targeting") or TARGETING_SCHEMA.fill(
            {"sizes": {}, "locations": {}})
        self.comp: dict = sec("complications") or COMPLICATIONS_SCHEMA.fill({})
        self.movement: dict = sec("movement") or MOVEMENT_SCHEMA.fill({"paces": {}})
        self.raw_time_powers: dict = sec("time_powers") or TIME_POWERS_SCHEMA.fill({"powers": {}})
        self.time_powers: dict = self.raw_time_powers["powers"]
        self.fera: dict = sec("fera_notes") or FERA_SCHEMA.fill({})
        weapons = sec("weapons") or WEAPONS_SCHEMA.fill({"items": {}})
        armor = sec("armor") or ARMOR_SCHEMA.fill({"items": {}})
        self.ammo: dict = weapons["ammo"]
        self.armor_rules: dict = {k: v for k, v in armor.items() if k != "items"}
        self.weapons = {n: Weapon.from_row(n, r) for n, r in weapons["items"].items()}
        groups = armor["source_groups"]

        def expand(names):
            return tuple(x for n in names for x in groups.get(n, (n,)))

        self.armors = {
            n: Armor(n, r["rating"], r["penalty"], tuple(r["covers"]), expand(r["applies_to"]),
                     r["shield"])
            for n, r in armor["items"].items()
        }
        self.maneuvers = {n: Maneuver.from_row(n, r) for n, r in self.man["list"].items()}
        sizes = self.targeting["sizes"]
        # A size no row of ``sizes`` names is refused by problems(): no change meanwhile.
        nosize = {"difficulty": 0, "damage": 0}
        self.locations = {
            n: Location(n, r["size"], r["part"], sizes.get(r["size"], nosize)["difficulty"],
                        sizes.get(r["size"], nosize)["damage"], r["bypasses_armor"])
            for n, r in self.targeting["locations"].items()
        }

        self._index = {id(tbl): {_norm(k): v for k, v in tbl.items()}
                       for tbl in (self.weapons, self.armors, self.maneuvers, self.locations)}

    # -------------------------------------------------------- lookups (player-typed names)

    def weapon(self, name: str) -> Weapon:
        return _find(self.weapons, name, "weapon", "See the weapons table: +rules/weapons",
                     self._index[id(self.weapons)])

    def known_weapon(self, name: str | None) -> Weapon | None:
        """The weapon ``name`` names, or None when it is no weapon (armor, a typo ...)."""
        return _known(self.weapons, name, self._index[id(self.weapons)]) if name else None

    def armor(self, name: str) -> Armor:
        return _find(self.armors, name, "kind of armor", "See the armor table: +rules/armor",
                     self._index[id(self.armors)])

    def maneuver(self, name: str) -> Maneuver:
        return _find(self.maneuvers, name, "maneuver",
                     lambda: "Maneuvers: " + ", ".join(sorted(self.maneuvers)) + ".",
                     self._index[id(self.maneuvers)])

    def location(self, name: str) -> Location:
        return _find(self.locations, name, "target location",
                     lambda: "Locations: " + ", ".join(sorted(self.locations)) + ".",
                     self._index[id(self.locations)])

    def problems(self) -> list[tuple[str, str]]:
        """Names one table uses that another must define (for a ruleset cross-check)."""
        out = []
        limits = self.man["form_limits"]
        for name, m in self.maneuvers.items():
            if m.forms and m.forms not in limits:
                out.append((f"maneuvers.list.{name}.forms", f"'{m.forms}' is not in form_limits"))
        for kind, name in self.attacks["default_maneuver"].items():
            if self.maneuvers and name not in self.maneuvers:
                out.append((f"attacks.default_maneuver.{kind}", f"'{name}' is not a maneuver"))
        for name, loc in self.locations.items():
            if loc.size not in self.targeting["sizes"]:
                out.append((f"targeting.locations.{name}.size", f"'{loc.size}' is not a size"))
        for w in self.targeting["stake"]["weapons"]:
            if w not in self.weapons:
                out.append(("targeting.stake.weapons", f"'{w}' is not in weapons.items"))
        for kind in ATTACK_KINDS:
            if self.attacks["kinds"] and kind not in self.attacks["kinds"]:
                out.append(("attacks.kinds", f"no row for attack kind '{kind}'"))
        catalog = self.ruleset.traits
        for kind, row in {**self.attacks["kinds"], **self.defenses["kinds"]}.items():
            for t in (row["attribute"], row["ability"],
                      *(a["ability"] for a in row["alternatives"])):
                if t not in catalog.traits:
                    out.append((f"kinds.{kind}", f"'{t}' is not a trait"))
        return out


def tables(ruleset) -> Tables:
    """The typed tables of ``ruleset`` (built on first use, then cached)."""
    return ruleset.derived(Tables)


# ---------------------------------------------------------------- table rules without dice


def form_allowed(ruleset, maneuver: Maneuver, sheet) -> None:
    """CLOSE-10: refuse a maneuver the attacker's race cannot do in its current form. A
    group whose "*" key is listed holds every race it does not name to those forms (an
    empty list: not at all), as revised's arm sweep, "Garou in Crinos" (CLOSE-11)."""
    if not maneuver.forms:
        return
    limits = tables(ruleset).man["form_limits"][maneuver.forms]  # problems(): it is there
    what = maneuver.name.replace("_", " ")
    forms = limits.get(sheet.race)
    if forms is None and "*" in limits:
        if sheet.form not in limits["*"]:
            who = " or ".join(f"a {race} in {'/'.join(f)} form"
                              for race, f in limits.items() if race != "*")
            raise IllegalAction(f"Only {who} can {what}. Try sweep instead.")
        return
    if forms is not None and sheet.form and sheet.form not in forms:
        raise IllegalAction(
            f"A {sheet.race} can {what} only in "
            f"{'/'.join(forms)} form, not in {sheet.form}. Shift first, or bite/claw instead."
        )


def movement_yards(ruleset, sheet, pace: str, all_fours: bool = False) -> int:
    """MAN-03: yards a turn at a pace (walk 7, jog 12+Dex, run 20+3xDex), changed by form:
    Crinos +2 on all fours, Hispo x1.5, Lupus x2 (rounded down)."""
    t = tables(ruleset)
    paces = t.movement["paces"]
    if pace not in paces:
        raise InputError(f"'{pace}' is not a pace. Use one of: {', '.join(paces)}.")
    row = paces[pace]
    dex = sheet.rating(ruleset.traits, "Dexterity")
    yards = row["base"] + row["per_dexterity"] * dex
    form = t.movement["forms"].get(sheet.form) if sheet.form else None
    if form:
        yards = yards * form["percent"] // 100
        if all_fours:
            yards += form["all_fours_bonus"]
    return yards


@dataclass(frozen=True, slots=True)
class TimeGrant:
    """MAN-09: what a time power gives. ``when``: this_turn, next_turn, each_turn_rest_of_scene;
    ``initiative_steps``: initiative change of each extra action (Faith)."""

    power: str
    actions: int
    when: str
    initiative_steps: tuple[int, ...] = ()
    once_per_scene: bool = False
    note: str = ""


def time_power_actions(ruleset, name: str, amount: int) -> TimeGrant:
    """MAN-09: extra actions from Distort Time, Quicksilver, Dream Time, Faith, Tempus Fugit.
    ``amount`` is successes, points or dots as the row's ``per`` says."""
    powers = tables(ruleset).time_powers
    row = _find(powers, name, "time power", "Powers: " + ", ".join(powers) + ".")
    canon = next(k for k, v in powers.items() if v is row)
    off = tables(ruleset).raw_time_powers["disabled"]
    if canon in off:
        have = ", ".join(k for k in powers if k not in off)
        raise IllegalAction(f"This game's rules give no extra actions for {canon} "
                            f"(time powers here: {have}).")
    if amount < 0:
        raise InputError("The amount of successes or points cannot be negative.")
    n = row["amount"] if row["per"] == "fixed" else amount // row["divisor"]
    if row["cap"] is not None:
        n = min(n, row["cap"])
    step = row["initiative_step"]
    steps = tuple(step * (i + 1) for i in range(n)) if step else ()
    return TimeGrant(canon, n, row["when"], steps,
                     row["once_per_scene"] or row["once_per_scene_per_target"], row["note"])


def _race_form_match(row: dict, sheet) -> bool:
    if row["race"] != sheet.race:
        return False
    if "forms" in row and sheet.form not in row["forms"]:
        return False
    if "not_forms" in row and (not sheet.form or sheet.form in row["not_forms"]):
        return False
    return True


def fera_trait_difficulty(ruleset, sheet, traits, sense: str = "") -> list[tuple[str, int]]:
    """PWR-06: (reason, difficulty) for a pool using ``traits``: Corax Athletics in Crinos or
    Corvid -1; Gurahl Perception by smell -2 / by sight +2 outside Homid."""
    fera = tables(ruleset).fera
    out = []
    for row in fera["trait_difficulty"]:
        if row["trait"] in traits and _race_form_match(row, sheet):
            out.append((f"{sheet.race} in {sheet.form} ({row['trait']})", row["difficulty"]))
    if sense:
        for row in fera["senses"]:
            if row["trait"] in traits and row["sense"] == sense and _race_form_match(row, sheet):
                out.append((f"{sheet.race} {sense} in {sheet.form}", row["difficulty"]))
    return out


def jagged_skin(ruleset, target) -> tuple[int, str] | None:
    """PWR-06: Rokea in Chasmus or Gladius hurt whoever hits them barehanded."""
    for row in tables(ruleset).fera["jagged_skin"]:
        if _race_form_match(row, target):
            return row["damage"], row["type"]
    return None


def strafe_shares(total: int, targets: tuple[str, ...], leftover_to: tuple[str, ...] = (),
                  single_target: str = "halve") -> dict[str, int]:
    """RNG-07: successes divided evenly; the attacker places leftovers (one each, in the order
    given, then in target order); one target alone gets half (rounded down)."""
    if not targets:
        raise InputError("Strafing needs at least one target.")
    if len(targets) == 1:
        return {targets[0]: total // 2 if single_target == "halve" else total}
    base, left = divmod(total, len(targets))
    shares = dict.fromkeys(targets, base)
    for key in [k for k in leftover_to if k in shares] + [k for k in targets
                                                        if k not in leftover_to]:
        if left <= 0:
            break
        shares[key] += 1
        left -= 1
    return shares
