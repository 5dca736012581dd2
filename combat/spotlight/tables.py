"""The spotlight sections of one loaded ruleset, read once (``ruleset.derived``): the
numbers every operation of a fight reads (SPOT-01..14), and the two lookups on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..core.errors import InputError, RuleIssue, RulesError
from .schema import problems


@dataclass(frozen=True)
class SpotRules:
    """The three spotlight sections of one loaded ruleset, read once."""

    init_dice: int
    init_sides: int
    init_traits: tuple[str, ...]
    moves: int
    actions: int
    frees: int
    end_when_all_used: bool
    opponent_actions: int
    auto_new_round: bool
    bands: tuple[str, ...]
    default_band: int
    tags: Mapping[str, tuple[int, int]]  # lowercased tag -> (nearest, farthest) band index
    bp_table: tuple[tuple[int, int, int], ...]  # (blood potency, hp, final death), ascending
    default_hp: int
    armor_kinds: frozenset[str]
    overflow_superficial: str
    overflow_aggravated: str
    revive_after: int
    max_slake: int
    vampire_families: frozenset[str]
    feed_heals: tuple[str, ...]
    scene_end: Mapping | None  # the end-of-scene Hunger Check (None: no healing)

    @classmethod
    def from_ruleset(cls, ruleset) -> "SpotRules":
        spot = ruleset.section("spotlight")
        rng = ruleset.section("spotlight_ranges")
        harm = ruleset.section("spotlight_harm")
        missing = [
            n
            for n, s in (("spotlight", spot), ("spotlight_ranges", rng), ("spotlight_harm", harm))
            if not s
        ]
        if missing:
            raise RulesError(
                [
                    RuleIssue(
                        "",
                        m,
                        f"ruleset '{ruleset.name}' has no '{m}:' section; "
                        f"the spotlight engine needs it",
                    )
                    for m in missing
                ]
            )
        found = problems(spot, rng, harm)
        if found:
            raise RulesError([RuleIssue("", p, m) for p, m in found])
        bands = tuple(rng["bands"])
        low = {b.lower(): i for i, b in enumerate(bands)}
        tags = {}
        for name, t in rng["tags"].items():
            tags[name.strip().lower()] = (
                low[t.get("min", bands[0]).lower()],
                low[t["max"].lower()],
            )
        turn, rounds = spot.get("turn") or {}, spot.get("rounds") or {}
        over = harm.get("overflow") or {}
        return cls(
            init_dice=spot["initiative"]["dice"],
            init_sides=spot["initiative"]["sides"],
            init_traits=tuple(spot["initiative"]["traits"]),
            moves=turn.get("moves", 1),
            actions=turn.get("actions", 1),
            frees=turn.get("free_actions", 1),
            end_when_all_used=turn.get("end_when_all_used", True),
            opponent_actions=rounds.get("opponent_actions", 1),
            auto_new_round=rounds.get("auto_new_round", True),
            bands=bands,
            default_band=low[rng["default"].lower()],
            tags=tags,
            bp_table=tuple(
                sorted(
                    (int(bp), r["hp"], r["final_death"]) for bp, r in harm["blood_potency"].items()
                )
            ),
            default_hp=harm.get("default_hp", 6),
            armor_kinds=frozenset(harm.get("armor_applies_to", ("superficial",))),
            overflow_superficial=over.get("superficial", "lost"),
            overflow_aggravated=over.get("aggravated", "replace_superficial"),
            revive_after=harm.get("revive_after_rounds", 1),
            max_slake=harm.get("max_slake", 5),
            vampire_families=frozenset(
                f.lower() for f in harm.get("vampire_families", ("vampire",))
            ),
            feed_heals=tuple(harm.get("feed_heals", ("aggravated", "superficial"))),
            scene_end=harm.get("scene_end"),
        )


def spot_rules(ruleset) -> SpotRules:
    return ruleset.derived(SpotRules.from_ruleset)


def parse_band(rules: SpotRules, text: str) -> int:
    t = str(text).strip().lower()
    hits = [i for i, b in enumerate(rules.bands) if b.lower().startswith(t)] if t else []
    exact = [i for i, b in enumerate(rules.bands) if b.lower() == t]
    if exact:
        return exact[0]
    if len(hits) == 1:
        return hits[0]
    raise InputError(f"'{text}' is not a range. Ranges: {', '.join(rules.bands)}.")


def hp_row(rules: SpotRules, blood_potency: int) -> tuple[int, int]:
    """SPOT-13: (max HP, Aggravated marks for Final Death) by Blood Potency. The seed's rows
    start at "BP 0-1" and stop at BP 5; a BP past the last row uses the last row."""
    row = rules.bp_table[0]
    for r in rules.bp_table:
        if r[0] <= blood_potency:
            row = r
    return row[1], row[2]
