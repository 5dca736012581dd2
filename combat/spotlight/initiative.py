"""Initiative (SPOT-01..03): PCs roll the YAML's dice + the highest of their initiative
traits; the order is highest first; tied PCs act simultaneously until they settle it.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping

from ..core import dice
from ..core.errors import IllegalAction, InputError
from ..core.values import replace
from .flow import Step, finish, live, order_view, put, whole
from .state import SpotlightState
from .tables import spot_rules


def initiative_ratings(sheet, ruleset) -> dict[str, int]:
    """SPOT-01: the ratings of the YAML's initiative traits on a sheet (Wits, Blood Potency)."""
    rules = spot_rules(ruleset)
    cat = ruleset.traits
    return {name: sheet.rating(cat, name) for name in rules.init_traits}


def _insert(order: tuple[tuple[str, ...], ...], st: SpotlightState, key: str, total: int):
    idx = st.index()
    out = [tuple(k for k in s if k != key) for s in order]
    out = [s for s in out if s]

    def total_of(s):
        return st.combatants[idx[s[0]]].init_total

    for i, s in enumerate(out):
        t = total_of(s)
        if t == total:
            out[i] = s + (key,)  # SPOT-03: a tie acts simultaneously until settled
            return tuple(out)
        if t < total:
            out.insert(i, (key,))
            return tuple(out)
    out.append((key,))
    return tuple(out)


def roll_initiative(state: SpotlightState, key: str, ruleset,
                    rng: random.Random | None = None, *,
                    ratings: Mapping[str, int] | None = None,
                    faces: Iterable[int] | None = None, force: bool = False) -> Step:
    """SPOT-01: a PC rolls the YAML's dice (2d6) + the highest of its initiative traits
    (Wits or Blood Potency). ``ratings``: trait -> dots (``initiative_ratings(sheet)``).
    Opponents never roll: the Storyteller picks who acts."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(key)
    _may_roll(state, c, force)
    ratings, values = dict(ratings or {}), []
    for name in rules.init_traits:
        v = ratings.get(name, 0)  # no rating: no dots
        whole(v, name, 0, 100)
        values.append((v, name))
    bonus = max(v for v, _ in values)
    trait = next(n for v, n in values if v == bonus)  # the YAML's first among equals
    faces = _faces(rules, faces, rng)
    total = sum(faces) + bonus
    c2 = replace(c, init_faces=faces, init_trait=trait, init_bonus=bonus, init_total=total)
    st = put(state, c2)
    order = _insert(st.order, st, key, total)
    st = replace(st, order=order)
    if state.stage == "pcs" and len(order) > len(state.order):
        # A new slot in front of the cursor moves the slot being played one place down.
        if next(i for i, s in enumerate(order) if key in s) <= state.cursor:
            st = replace(st, cursor=state.cursor + 1)
    ev = {"event": "initiative", "actor": key, "faces": list(faces),
          "sides": rules.init_sides, "trait": trait, "bonus": bonus,
          "ratings": {n: v for v, n in values}, "total": total, "order": order_view(st)}
    if c.joined_round > state.round and state.stage != "initiative":
        ev["from_round"] = c.joined_round
    return finish(state, st, rules, [ev])


def _may_roll(state: SpotlightState, c, force: bool) -> None:
    """SPOT-01: PCs only, once (a staffer's /force replaces a roll before round 1)."""
    if not c.is_pc:
        raise IllegalAction(
            f"Opponents don't roll initiative (SPOT-01): after each PC the Storyteller picks "
            f"who acts with +combat/next {c.name}."
        )
    if c.init_total is not None:
        if not force:
            raise IllegalAction(
                f"{c.name} already rolled initiative {c.init_total}. A staffer can replace it "
                f"with /force before the first round."
            )
        if state.stage != "initiative":
            raise IllegalAction(
                "The order is set once round 1 starts; tied PCs can still settle who goes "
                "first with +combat/swap (SPOT-03)."
            )


def _faces(rules, faces: Iterable[int] | None, rng: random.Random | None) -> tuple[int, ...]:
    """The initiative dice: the faces given (checked against the YAML's dice), or rolled."""
    if faces is not None:
        faces = tuple(int(f) for f in faces)
        if len(faces) != rules.init_dice or any(not 1 <= f <= rules.init_sides for f in faces):
            raise InputError(
                f"Initiative is {rules.init_dice}d{rules.init_sides}: "
                f"{rules.init_dice} dice of 1..{rules.init_sides}, not {list(faces)}."
            )
        return faces
    if rng is None:
        raise InputError("No dice to roll with (rng missing).")
    return dice.roll_faces(rules.init_dice, rng, rules.init_sides)


def swap(state: SpotlightState, a: str, b: str, ruleset) -> Step:
    """SPOT-03: tied PCs settle who goes first: ``a`` goes before ``b``. In one simultaneous
    slot, ``a`` is split off in front; in two tied slots, they change places. Refused once
    either has taken their turn this round."""
    rules = spot_rules(ruleset)
    live(state)
    ca, cb = state.find(a), state.find(b)
    if a == b:
        raise InputError("Name two different tied PCs: +combat/swap <first>=<second>.")
    for c in (ca, cb):
        if not c.is_pc or c.init_total is None:
            raise IllegalAction(f"{c.name} has no place in the initiative order (SPOT-01).")
    if ca.init_total != cb.init_total:
        raise IllegalAction(
            f"Only tied PCs settle their order (SPOT-03): {ca.name} has {ca.init_total}, "
            f"{cb.name} {cb.init_total}."
        )
    pos = {k: i for i, s in enumerate(state.order) for k in s}
    ia, ib = pos[a], pos[b]
    if state.stage in ("opening", "pcs", "closing"):
        late = state.stage == "closing" or min(ia, ib) < state.cursor
        if not late and min(ia, ib) == state.cursor and state.stage == "pcs":
            idx = state.index()
            late = state.picking or any(
                (lambda f: f.moves or f.actions or f.frees or f.done)(state.combatants[idx[k]])
                for k in state.holder
            )
        if late:
            raise IllegalAction(
                f"{ca.name} or {cb.name} has already had the spotlight this round; the "
                f"order can be settled before their turn."
            )
    order = list(state.order)
    if ia == ib:
        rest = tuple(k for k in order[ia] if k != a)
        order[ia : ia + 1] = [(a,), rest]
    elif ia < ib:
        raise IllegalAction(f"{ca.name} already goes before {cb.name}.")
    else:
        order[ia] = tuple(b if k == a else k for k in order[ia])
        order[ib] = tuple(a if k == b else k for k in order[ib])
    st = replace(state, order=tuple(order))
    if st.stage == "pcs" and st.holder:
        # The tied slot had the spotlight and nobody had used it: hand it out again.
        idx = st.index()
        fresh = {k: st.combatants[idx[k]].fresh_turn() for k in st.holder}
        st = replace(st.with_fighters(fresh), holder=())
    events: list[dict] = [{"event": "swap", "first": a, "second": b, "order": order_view(st)}]
    return finish(state, st, rules, events)
