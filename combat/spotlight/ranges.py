"""Ranges (SPOT-10): a band per pair of combatants, the YAML's default until someone sets
it; weapons and powers carry a range tag from ``spotlight_ranges.tags`` that an action
checks (``turn.act``). READING: a range tag is the farthest band a weapon reaches (``max``)
with an optional nearest (``min``; bite: Intimate only).
"""

from __future__ import annotations

from ..core.errors import InputError
from ..core.values import replace
from .flow import Step, finish, live
from .state import SpotlightState, pair
from .tables import SpotRules, parse_band, spot_rules


def _band_name(rules: SpotRules, i: int) -> str:
    return rules.bands[i]


def band_of(st: SpotlightState, rules: SpotRules, a: str, b: str) -> int:
    for x, y, n in st.ranges:
        if (x, y) == pair(a, b):
            return n
    return rules.default_band if st.options.band is None else st.options.band


def set_band(st: SpotlightState, a: str, b: str, band: int) -> SpotlightState:
    p = pair(a, b)
    rest = tuple(r for r in st.ranges if (r[0], r[1]) != p)
    return replace(st, ranges=tuple(sorted(rest + ((p[0], p[1], band),))))


def range_between(state: SpotlightState, a: str, b: str, ruleset) -> str:
    """SPOT-10: the band between two combatants (the YAML default until someone sets it)."""
    rules = spot_rules(ruleset)
    state.find(a), state.find(b)
    return _band_name(rules, band_of(state, rules, a, b))


def range_tag(ruleset, name: str) -> tuple[str, str] | None:
    """SPOT-10: (nearest, farthest) band of a weapon or power's range tag, or None."""
    rules = spot_rules(ruleset)
    t = rules.tags.get(str(name).strip().lower())
    return None if t is None else (rules.bands[t[0]], rules.bands[t[1]])


def set_range(state: SpotlightState, a: str, b: str, band: str, ruleset) -> Step:
    """The Storyteller places two combatants at a band (the scene's set-up, or narration)."""
    rules = spot_rules(ruleset)
    live(state)
    ca, cb = state.find(a), state.find(b)
    if a == b:
        raise InputError("Name two different combatants: +combat/range <a>/<b>=<band>.")
    n = parse_band(rules, band)
    cur = band_of(state, rules, a, b)
    st = set_band(state, a, b, n)
    ev = {
        "event": "range",
        "a": ca.key,
        "b": cb.key,
        "from": rules.bands[cur],
        "to": rules.bands[n],
    }
    return finish(state, st, rules, [ev])


def set_every_range(state: SpotlightState, band: str, ruleset) -> Step:
    """SPOT-10: the Storyteller places everyone at one band (a brawl starts at Hand), those
    who join later too; a pair placed before is placed again."""
    rules = spot_rules(ruleset)
    live(state)
    n = parse_band(rules, band)
    st = replace(state, ranges=(), options=replace(state.options, band=n))
    return finish(state, st, rules, [{"event": "range_all", "to": rules.bands[n]}])
