"""The schemas of the attack sections a ruleset holds (``rules/*/maneuvers.yaml``,
``weapons.yaml``, ``armor.yaml``): attack kinds, defenses, maneuvers, ranged rules,
targeting, complications, movement, time powers, Fera notes, weapons and armor, with the
default every key a ruleset may leave out plays by (issue 32: the one place such a number
lives). combat/rules/sections.py registers them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .health import DAMAGE_TYPES
from ..rules.schema import Bool, Int, ListOf, MapOf, Optional, Spec, Str, Struct



ATTACK_KINDS = ("brawl", "melee", "thrown", "firearm", "bow", "crossbow")


RANGED_KINDS = ("thrown", "firearm", "bow", "crossbow")


PACES = ("still", "walk", "jog", "run")  # COMP-05 / RNG-01 compare speeds in this order


COVER = ("none", "light", "good", "superior")


_DAMAGE = re.compile(r"^(?:(str|strength|weapon)\s*(?:([+-])\s*(\d+))?|(\d+)|none)$", re.I)


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
              "escape": {"attribute": "Strength", "ability": "Brawl"},  # CLOSE-03/05
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
