"""How high a trait may be rated on a sheet (issue 28): the ruleset's ``traits.maximum``.

READING (rules/README.md, rules/core/traits.yaml): no seed states a maximum. A splat that
uses a generation takes its generation chart row's trait_max (V20 p. 121), a trait listed
in ``ratings`` its own (Arete to 10, M20), everyone else the section's ``rating``.
"""

from __future__ import annotations

from .d10.healing_tables import generation
from .core.sheet import Sheet


def trait_maximum(sheet: Sheet, ruleset, canon: str) -> tuple[int, str] | None:
    """(the highest rating ``canon`` may have on ``sheet``, whom that maximum is for: "a
    13th-generation vampire"), or None when the ruleset sets none for that trait. Where no
    generation chart is loaded (spotlight), a vampire takes the section's ``rating``."""
    spec = (ruleset.section("traits") or {}).get("maximum")
    trait = ruleset.traits.traits.get(canon)
    if spec is None or trait is None or trait.kind not in spec["kinds"]:
        return None
    splat = ruleset.traits.splats.get(sheet.splat) or {}
    label = str(splat.get("label", sheet.splat)).lower()
    if canon in spec.get("ratings", {}):  # a trait with a range of its own (Arete: M20)
        return spec["ratings"][canon], _a(label)
    if (spec.get("by_generation") == "yes" and splat.get("uses_generation") == "yes"
            and ruleset.section("generations")):  # spotlight: Blood Potency, no chart
        top = generation(ruleset, sheet.generation).trait_max
        return top, f"a {_ordinal(sheet.generation)}-generation {label}"
    return spec["rating"], _a(label)


def _a(label: str) -> str:
    """The label with its article: 'a mortal', 'an ahroun'."""
    return f"{'an' if label[:1] in 'aeiou' else 'a'} {label}"


def _ordinal(n: int) -> str:
    """13 -> "13th", 3 -> "3rd" (the generations run 3 to 15)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if not 11 <= n % 100 <= 13 else "th"
    return f"{n}{suffix}"


def newly_over_maximum(before: Sheet, after: Sheet, ruleset) -> list[tuple[str, int, int, str]]:
    """(trait, rating, maximum, whom it is for) of each trait ``after`` has above its
    maximum that ``before`` had not: a rating set too high, or a generation or splat that
    lowers the maximum under a rating already there. A sheet staff forced past it is not
    refused again for an edit that leaves the forced trait as it is."""
    def over(sheet: Sheet) -> dict[str, tuple[int, int, str]]:
        found = {}
        for canon, value in sheet.traits.items():
            top = trait_maximum(sheet, ruleset, canon)
            if top is not None and value > top[0]:
                found[canon] = (value, *top)
        return found

    was = over(before)
    return [(canon, *v) for canon, v in over(after).items() if was.get(canon) != v]


def maximum_reading(ruleset) -> str:
    """How the ruleset's maximum is read, in words a refusal can give (issue 28: it is a
    READING, and the player is told so)."""
    spec = (ruleset.section("traits") or {}).get("maximum") or {}
    by_gen = spec.get("by_generation") == "yes" and ruleset.section("generations")
    rating = spec.get("rating")
    return (f"as this game reads the rules: by generation where there is one, else {rating}"
            if by_gen else f"as this game reads the rules: {rating}")
