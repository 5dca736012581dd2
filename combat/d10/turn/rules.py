"""The d10 turn's YAML (``initiative:``, ``turns:``) read once per ruleset, and the
values every turn operation returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.errors import RuleIssue, RulesError
from ...core.pools import Modifier
from ...core.values import fast_init
from ...rules.schema import Bool, Int, ListOf, MapOf, Optional, Str, Struct
from ..state import MODES, CombatState

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
    defaults={"apply_race_modifiers": True, "reroll_each_turn": False, "modifiers": []},
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
    defaults={"activations_per_turn": 1, "cost": 1, "cap_divisor": 2,
              "frenzy_ignores_wits": True, "over_limit_difficulty": 0},
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
            defaults={"max_declared": 10},
        ),
        "abort": Struct(
            required={"difficulty": Int(1, 10), "to_kinds": Optional(ListOf(Str()))},
            optional={
                "spend_after_failure": Bool(),
                "free_if_pointless": Bool(),
                "non_defensive_difficulty": Int(0, 5),
                "source": Str(),
            },
            defaults={"spend_after_failure": True, "non_defensive_difficulty": 0},
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
            defaults={"difficulty": 6, "spend_after_failure": True},
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
    defaults={"npc_early_declaration": False, "anticipated_defense": False,
              "powers_in_split": True, "desperate_defense": {"step": 1},
              "change": {"enabled": False}, "extra_sources": {}, "conditions": {}},
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
    # MAN-05, made once per ruleset: ``ma_rows[n]``, the modifiers of each of n plain
    # declared actions (one each from two actions on); a split is asked for them at the
    # check, the act and each defense (bench/engine.py, the crowds)
    ma_rows: tuple[tuple[tuple[Modifier, ...], ...], ...]
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
            apply_race_modifiers=init["apply_race_modifiers"],
            reroll_default=init["reroll_each_turn"],
            reroll_option=init["reroll_option"],
            race_mods=tuple(init["modifiers"]),
            default_mode=turns["default_mode"],
            modes=tuple(turns["modes"]),
            npc_early=turns["npc_early_declaration"],
            split_in_main=turns["split_actions_in_main_phase"],
            defensive=frozenset(k.lower() for k in turns["defensive_kinds"]),
            anticipated=turns["anticipated_defense"],
            powers_in_split=turns["powers_in_split"],
            ma_first=ma["first"],
            ma_step=ma["step"],
            ma_max=ma["max_declared"],
            ma_rows=multiple_action_rows(ma["first"], ma["step"], ma["max_declared"]),
            desperate_step=turns["desperate_defense"]["step"],
            extra_sources={k.lower(): v for k, v in turns["extra_sources"].items()},
            abort=turns["abort"],
            change=turns["change"],
            conditions={k.lower(): v for k, v in turns["conditions"].items()},
        )


def multiple_action_rows(first: int, step: int, most: int
                         ) -> tuple[tuple[tuple[Modifier, ...], ...], ...]:
    """MAN-05: N declared actions: -N dice on the first (``first`` x N), one more (``step``)
    on each next; the rows for N from 0 to ``most`` (a declaration is refused past it)."""
    return tuple(
        tuple((Modifier(f"multiple actions ({n})", dice=-(n * first + k * step)),) if n >= 2
              else () for k in range(n))
        for n in range(most + 1))


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
