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
        spot, rng, harm = _sections(ruleset)
        turn, rounds, over = spot["turn"], spot["rounds"], harm["overflow"]
        return cls(
            init_dice=spot["initiative"]["dice"],
            init_sides=spot["initiative"]["sides"],
            init_traits=tuple(spot["initiative"]["traits"]),
            moves=turn["moves"],
            actions=turn["actions"],
            frees=turn["free_actions"],
            end_when_all_used=turn["end_when_all_used"],
            opponent_actions=rounds["opponent_actions"],
            auto_new_round=rounds["auto_new_round"],
            **_bands(rng),
            bp_table=tuple(sorted((int(bp), r["hp"], r["final_death"])
                                  for bp, r in harm["blood_potency"].items())),
            default_hp=harm["default_hp"],
            armor_kinds=frozenset(harm["armor_applies_to"]),
            overflow_superficial=over["superficial"],
            overflow_aggravated=over["aggravated"],
            revive_after=harm["revive_after_rounds"],
            max_slake=harm["max_slake"],
            vampire_families=frozenset(f.lower() for f in harm["vampire_families"]),
            feed_heals=tuple(harm["feed_heals"]),
            scene_end=harm.get("scene_end"),  # optional: no Hunger Check without it
        )


def _sections(ruleset) -> tuple[dict, dict, dict]:
    """The three sections, refused (every problem named) when one is missing or they
    disagree (a band the tags name, the Blood Potency rows)."""
    names = ("spotlight", "spotlight_ranges", "spotlight_harm")
    secs = tuple(ruleset.section(n) for n in names)
    missing = [n for n, s in zip(names, secs) if not s]
    if missing:
        raise RulesError([RuleIssue("", m, f"ruleset '{ruleset.name}' has no '{m}:' section; "
                                    f"the spotlight engine needs it") for m in missing])
    found = problems(*secs)
    if found:
        raise RulesError([RuleIssue("", p, m) for p, m in found])
    return secs


def _bands(rng: Mapping) -> dict:
    """SPOT-10: the bands, the default one, and each tag's (nearest, farthest) index."""
    bands = tuple(rng["bands"])
    low = {b.lower(): i for i, b in enumerate(bands)}
    tags = {name.strip().lower(): (low[t.get("min", bands[0]).lower()], low[t["max"].lower()])
            for name, t in rng["tags"].items()}
    return {"bands": bands, "default_band": low[rng["default"].lower()], "tags": tags}


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
