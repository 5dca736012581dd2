"""Harm (SPOT-11..14): ``harm`` marks Superficial or Aggravated harm at once; armor reduces
only the kinds ``spotlight_harm.armor_applies_to`` names (Aggravated bypasses it). At 0 HP a
vampire with fewer Aggravated marks than the Final Death threshold of the Blood Potency
table falls into torpor, otherwise meets Final Death. ``stake`` incapacitates a vampire at
once; ``feed`` revives one in torpor ``revive_after_rounds`` later with HP equal to the
Hunger slaked; the end of the scene's Hunger Check heals Superficial Harm.

Readings where the seed is silent:
- "after about one round" of SPOT-14: the fed vampire is back at the start of the next
  round (``revive_after_rounds: 1``); HP comes back by clearing Superficial marks;
- harm past 0 HP: the ``overflow`` switches (the shipped YAML, V5: Superficial on a full
  track turns a Superficial mark Aggravated, Aggravated overwrites Superficial marks; left
  out, extra Superficial is lost); a PC or opponent who is not a vampire is "out" at 0 HP.
"""

from __future__ import annotations

import random
from typing import Mapping

from ..core import dice
from ..core.errors import IllegalAction, InputError
from ..core.values import replace
from .flow import Step, finish, live, put, whole
from .state import Fighter, SpotlightState
from .tables import SpotRules, spot_rules


KINDS = ("superficial", "aggravated")


def harm_kind(word: str) -> str:
    w = str(word).strip().lower()
    for k in KINDS:
        if w and k.startswith(w):
            return k
    raise InputError(f"Harm is superficial or aggravated, not '{word}'.")


def zero_outcome(c: Fighter) -> tuple[str, str]:
    """SPOT-13: the status and outcome of a fighter at 0 HP."""
    if not c.vampire:
        return "out", "out"
    if c.final_death_at is not None and c.aggravated >= c.final_death_at:
        return "dead", "final_death"
    return "torpor", "torpor"


def harm(
    state: SpotlightState,
    target: str,
    amount: int,
    kind: str,
    ruleset,
    *,
    armor: int = 0,
    halve: bool = False,
    source: str | None = None,
) -> Step:
    """SPOT-11: mark ``amount`` harm of ``kind`` on ``target`` now. ``armor`` reduces the
    kinds the YAML lists (Superficial); Aggravated bypasses it. ``halve``: V5 halves
    Superficial Harm to a vampire, rounded up, after armor. Superficial past a full track
    turns Superficial marks Aggravated (V5; ``overflow``). SPOT-13: at 0 HP a vampire falls
    into torpor (Aggravated below the threshold) or meets Final Death."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(target)
    kind = harm_kind(kind)
    whole(amount, "Harm", 0, 100)
    whole(armor, "Armor", 0, 100)
    if c.status == "dead":
        raise IllegalAction(f"{c.name} has met Final Death already.")
    soaked = min(amount, armor) if kind in rules.armor_kinds else 0
    n = amount - soaked
    halved = 0
    if halve and kind == "superficial" and n:
        halved = n // 2  # what halving takes away: ceil(n / 2) is marked
        n -= halved
    c2, marks, outcome = _mark(c, kind, n, rules)
    ev = {"event": "harm", "target": target, "kind": kind, "amount": amount,
          "armor": soaked, "halved": halved, **marks,
          "hp_before": c.hp, "hp_after": c2.hp, "hp_max": c.hp_max,
          "superficial": c2.superficial, "aggravated": c2.aggravated,
          "final_death_at": c.final_death_at, "outcome": outcome,
          "round": state.round}
    if source:
        ev["source"] = str(source)
    return finish(state, put(state, c2), rules, [ev])


def _mark(c: Fighter, kind: str, n: int, rules: SpotRules) -> tuple[Fighter, dict, str]:
    """``n`` marks of ``kind`` on the track: what fits is marked; past a full track the
    ``overflow`` switches turn Superficial marks Aggravated or lose the rest; at 0 HP the
    fighter's status (SPOT-13). The fighter after, the event's counts, the outcome."""
    sup, agg = c.superficial, c.aggravated
    mark = min(n, c.hp_max - sup - agg)
    over = n - mark
    upgraded = 0
    if kind == "superficial":
        sup += mark
        if over and rules.overflow_superficial == "aggravated":
            upgraded = min(over, sup)
    else:
        agg += mark
        if over and rules.overflow_aggravated == "replace_superficial":
            upgraded = min(over, sup)
    c2 = replace(c, superficial=sup - upgraded, aggravated=agg + upgraded)
    outcome = "hurt" if (mark or upgraded) else "unhurt"
    if c2.hp == 0:
        status, outcome = zero_outcome(c2)
        c2 = replace(c2, status=status)
        if status == "dead":
            c2 = replace(c2, revive_round=None, revive_hp=0)
    return c2, {"marked": mark, "upgraded": upgraded, "lost": over - upgraded}, outcome


def stake(state: SpotlightState, target: str, ruleset) -> Step:
    """SPOT-12: a vampire staked through the heart is incapacitated at once (it loses its
    turn, the spotlight passes on) until the stake is pulled (``unstake``)."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(target)
    if not c.vampire:
        raise IllegalAction(
            f"{c.name} is not a vampire: a stake is just a weapon (+combat/harm), it doesn't "
            f"incapacitate (SPOT-12)."
        )
    if c.status == "dead":
        raise IllegalAction(f"{c.name} has met Final Death already.")
    if c.staked:
        raise IllegalAction(f"{c.name} is staked already.")
    st = put(state, replace(c, staked=True))
    ev = {"event": "stake", "target": target, "round": state.round, "status": c.status}
    return finish(state, st, rules, [ev])


def unstake(state: SpotlightState, target: str, ruleset) -> Step:
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(target)
    if not c.staked:
        raise IllegalAction(f"{c.name} is not staked.")
    st = put(state, replace(c, staked=False))
    ev = {"event": "unstake", "target": target, "round": state.round, "status": c.status}
    return finish(state, st, rules, [ev])


def feed(state: SpotlightState, target: str, slaked: int, ruleset, *,
         hunger: int | None = None) -> Step:
    """SPOT-14: blood that would slake ``slaked`` Hunger (1 or more) revives a vampire in
    torpor after one round with that much HP; its Hunger is not reduced. A vampire still up
    who feeds mid-fight (seed 004: Aggravated "can't be healed mid-combat ... unless you
    Feed") heals ``slaked`` Harm in the order of ``feed_heals`` and its Hunger (``hunger``,
    from its sheet) drops by as much; it cannot slake more Hunger than it has."""
    rules = spot_rules(ruleset)
    live(state)
    c = state.find(target)
    whole(slaked, "Hunger slaked", 1, rules.max_slake)
    if c.status == "active":
        return _feed_awake(state, c, slaked, hunger, rules)
    if c.status != "torpor":
        state_word = "destroyed" if c.status == "dead" else "not in torpor"
        raise IllegalAction(
            f"{c.name} is {state_word}; blood revives a vampire in torpor (SPOT-14)."
        )
    back = state.round + rules.revive_after
    st = put(state, replace(c, revive_round=back, revive_hp=slaked))
    ev = {
        "event": "feed",
        "target": target,
        "slaked": slaked,
        "round": state.round,
        "revive_round": back,
        "hunger_reduced": 0,
    }
    if rules.revive_after == 0:  # revived on the spot: the YAML asked for no wait
        c3 = st.get(target)
        target_hp = min(slaked, c3.hp_max - c3.aggravated)
        c3 = replace(
            c3,
            superficial=max(0, c3.hp_max - c3.aggravated - target_hp),
            status="active",
            revive_round=None,
            revive_hp=0,
        )
        st = put(st, c3)
        return finish(
            state,
            st,
            rules,
            [
                ev,
                {
                    "event": "revive",
                    "round": state.round,
                    "actor": target,
                    "hp_before": 0,
                    "hp_after": c3.hp,
                },
            ],
        )
    return finish(state, st, rules, [ev])


def _feed_awake(state: SpotlightState, c: Fighter, slaked: int, hunger: int | None,
                rules: SpotRules) -> Step:
    if not c.vampire:
        raise IllegalAction(f"{c.name} is not a vampire: blood heals only vampires.")
    hunger = 0 if hunger is None else int(hunger)
    if slaked > hunger:
        raise IllegalAction(
            f"{c.name}'s Hunger is {hunger}: blood can slake at most that "
            f"(+combat/feed {c.name}={max(hunger, 1)})." if hunger else
            f"{c.name} has no Hunger to slake.")
    left, marks = slaked, {"superficial": c.superficial, "aggravated": c.aggravated}
    healed = {"superficial": 0, "aggravated": 0}
    for kind in rules.feed_heals:
        n = min(left, marks[kind])
        marks[kind] -= n
        healed[kind] += n
        left -= n
    c2 = replace(c, **marks)
    ev = {"event": "feed", "target": c.key, "slaked": slaked, "round": state.round,
          "healed": healed, "hp_before": c.hp, "hp_after": c2.hp, "hp_max": c.hp_max,
          "hunger_before": hunger, "hunger_after": hunger - slaked, "hunger_reduced": slaked}
    return finish(state, put(state, c2), rules, [ev])


def scene_end(state: SpotlightState, ruleset, rng: random.Random,
              hungers: Mapping[str, int], sides: int = 10) -> tuple[SpotlightState, list[dict]]:
    """Seed 004: "Superficial Harm can be healed ... with a Hunger Check at the end of the
    scene". Each vampire still up with Superficial Harm makes the check (harm.yaml READING:
    V5's Rouse Check): ``dice`` dice, none at ``success_at`` or more raises its Hunger.
    With ``mend_by_blood_potency`` (V5: each Rouse Check mends that much by Blood Potency)
    it checks again until its Superficial Harm is mended or its Hunger tops the range;
    without it one check heals it all. At the top of the Hunger range it cannot check.
    ``hungers``: key -> Hunger for the vampires (from their sheets)."""
    rules = spot_rules(ruleset)
    cfg = rules.scene_end
    if not cfg:
        return state, []
    events, changed = [], {}
    for c in state.combatants:
        if not (c.vampire and c.status == "active" and c.superficial):
            continue
        hunger = int(hungers.get(c.key, 0))
        ev = {"event": "hunger_check", "actor": c.key, "hunger_before": hunger,
              "superficial": c.superficial}
        if hunger >= rules.max_slake:
            events.append({**ev, "faces": [], "passed": False, "healed": 0,
                           "hunger_after": hunger, "cannot": True})
            continue
        mend = _mend(cfg, c.blood_potency, c.superficial)
        faces, left = [], c.superficial
        while left > 0 and hunger < rules.max_slake:
            rolled = dice.roll_faces(cfg["dice"], rng, sides)
            faces += rolled
            if not any(f >= cfg["success_at"] for f in rolled):
                hunger = min(rules.max_slake, hunger + cfg["hunger_on_failure"])
            left = max(0, left - mend)
        changed[c.key] = replace(c, superficial=left)
        events.append({**ev, "faces": list(faces), "passed": hunger == ev["hunger_before"],
                       "healed": c.superficial - left, "hunger_after": hunger,
                       **({"mend": mend, "left": left} if "mend_by_blood_potency" in cfg
                          else {})})
    return state.with_fighters(changed), events


def _mend(cfg: Mapping, blood_potency: int, superficial: int) -> int:
    """Superficial Harm one check mends: the table's row for this Blood Potency (the last
    row at or below it), or all of it without a table."""
    table = cfg.get("mend_by_blood_potency")
    if not table:
        return superficial
    rows = sorted((int(bp), int(n)) for bp, n in table.items())
    return next((n for bp, n in reversed(rows) if bp <= blood_potency), rows[0][1])
