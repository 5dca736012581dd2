"""An attack, a bite, a grapple (SPOT-07, SPOT-10, SPOT-11; issue 10): a V5 contest rolled
and its Harm marked at once (``combat/spotlight/attack.py`` holds the contest's math)."""

from __future__ import annotations

from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from ...core.values import replace
from .. import attack as spa
from .. import conditions as spc
from .. import harm, roster, turn
from .. import impairment as imp
from .. import dice as v5dice
from ..flow import Step
from ..state import SpotlightState
from ..tables import spot_rules
from .base import UNARMED, armor, out, sheet, sheet_or_none

HOLDS = "grapple"  # V5: a grapple won holds the target (attack.yaml bite_hold)


class Attack:
    """``+combat/act attack <target> [with <weapon>]``: the weapon named, else the one
    carried, else fists; the defender dodges, or in close combat may fight back."""

    reads = "the attacker's sheet (pool, weapons, Hunger, Willpower), the target's"

    def check(self, st, c, action: dict, sheets, rules) -> None:
        weapon_of(action, sheet(sheets, c.key, c.name), rules)

    def resolve(self, st, c, action: dict, sheets, rules, rng) -> Outcome:
        s = sheet(sheets, c.key, c.name)
        w = weapon_of(action, s, rules)
        if w is not None:
            action = {**action, "weapon": w.tag}
            if w.name.lower() != w.tag:
                action["weapon_name"] = w.name
        step = turn.act(st, c.key, rules, action)
        self.before_roll(step.state, c, action["target"], rules)
        result = contest(step, c, action, w, s, sheets, rules, rng)
        return open_reroll(st, result, c.key, action, w)

    def before_roll(self, state: SpotlightState, c, target: str, rules) -> None:
        return None


class Grapple(Attack):
    """``+combat/act grapple <target>``: with ``bite_hold`` in the YAML, a grapple won puts
    the hold on the target instead of Harm (V5); without it, an attack like any other."""


class Bite(Attack):
    """``+combat/act bite <target>``: its own range tag (SPOT-10, Intimate); V5
    (attack.yaml READING): it needs the target held, unless the target is down (torpor,
    out, staked)."""

    def before_roll(self, state: SpotlightState, c, target: str, rules) -> None:
        hold = spa.bite_hold(rules)
        t = state.find(target)
        if hold is None or t.status != "active" or t.staked:
            return
        if not any(k.name == hold[0] and k.active(max(state.round, 1)) for k in t.conditions):
            raise IllegalAction(f"A bite needs {t.name} held: grapple first (+combat/act "
                                f"grapple {t.name}), and bite on a later turn while the "
                                f"hold lasts.")


def weapon_of(action: dict, sheet, rules) -> spa.Weapon | None:
    """The weapon of an attack (issue 10): the one named (a range tag, or a row of the
    weapons table such as ``Pistol, light``), else the first one the sheet carries (the one
    in hand, as in the d10 engine), else unarmed. None for a bite (its own tag)."""
    if action["kind"] != "attack":
        return None
    tags = spot_rules(rules).tags
    named = action.get("weapon")
    if named:
        return spa.weapon(rules, named, tags)
    for carried in getattr(sheet, "weapons", ()) or ():
        try:
            return spa.weapon(rules, carried, tags)
        except InputError:
            continue  # carried under another ruleset's table: not usable here
    return spa.Weapon(UNARMED, UNARMED, None)


def open_reroll(before: SpotlightState, result: Outcome, key: str, action: dict,
                w) -> Outcome:
    """V5 Willpower reroll (dice.yaml): the attack stays open to its roller's reroll until
    anything else happens; what the reroll needs to play it again is kept in the state."""
    roll = next(e for e in result.events if e.get("event") == "roll")
    weapon = None if w is None else [w.name, w.tag, w.bonus]
    last = {"actor": key, "action": dict(action), "weapon": weapon,
            "faces": list(roll["faces"]), "hunger": roll["hunger"],
            "defense": [list(roll["defense"]["faces"]), roll["defense"]["hunger"]],
            "before": replace(before, last_roll=None).to_dict()}
    return Outcome(replace(result.state, last_roll=last), result.sheet_changes,
                   result.events)


def contest(step: Step, c, action: dict, w, sheet, sheets, rules, rng,
            kept=None, replay: bool = False) -> Outcome:
    """A V5 contest (combat/spotlight/attack.py, issue 10): the attacker's pool against the
    defender's, Hunger dice for vampires; Harm = margin + weapon damage on the target, with
    worn armor against Superficial (SPOT-11) and Superficial to vampires halved (V5); in
    close combat a defender who fought back and won deals its own Harm to the attacker.
    The attack reads as one beat in the log: act, roll, harm, then wherever the round
    went. ``replay`` (a Willpower reroll): the act and what followed it are not told
    again."""
    tag = w.tag if w is not None else action["kind"]
    target = action["target"]
    tc = step.state.find(target)
    tsheet = sheet_or_none(sheets, target)
    res = _roll(step.state.find(c.key), sheet, tc, tsheet, tag, w, rules, rng, kept)
    act_ev, *after_act = step.events
    rnd = act_ev["round"]
    holds = tag == HOLDS and spa.bite_hold(rules) is not None
    roll = {"event": "roll", "actor": c.key, "purpose": HOLDS if holds else "attack",
            "target": target, "round": rnd,
            **{k: v for k, v in res.items() if k not in ("harm", "kind")}}
    hit = _land(step.state, c.key, tc, tsheet, res, holds, rules, rnd)
    hit_ev, *after_hit = hit.events
    after, state = _counter(hit.state, c.key, sheet, target, res, rules, rnd)
    told = [] if replay else [act_ev]
    events = [*told, roll, {**hit_ev, "round": rnd}, *after,
              *([] if replay else after_act), *after_hit]
    return out(state, events)


def _roll(me, sheet, tc, tsheet, tag: str, w, rules, rng, kept) -> dict:
    """Both pools read from the sheets, V5 Impairment on each (0 HP: the Harm track full;
    no Willpower left), and the contest rolled (or ``kept``: a reroll's dice)."""
    row = spa.attack_row(rules, tag)
    cat = rules.traits
    defense = spa.attack_defense(rules)
    back = fight_back(rules, tag, tc, tsheet)
    ratings = {n: sheet.rating(cat, n) for n in row.pool}
    t_names = (*defense, *(back[0].pool if back else ()))
    t_ratings = {n: tsheet.rating(cat, n) for n in t_names} if tsheet is not None else {}
    vampire = roster.is_vampire(sheet, rules)
    impaired = (imp.terms(rules, row.pool, health_full=me.hp <= 0,
                          willpower_left=imp.willpower_left(sheet, rules)),
                imp.terms(rules, defense, health_full=tc.hp <= 0,
                          willpower_left=imp.willpower_left(tsheet, rules)))
    return spa.resolve(rules, tag, ratings, t_ratings, rng,
                       attacker_hunger=v5dice.hunger_of(sheet, rules) if vampire else 0,
                       defender_hunger=v5dice.hunger_of(tsheet, rules) if tc.vampire else 0,
                       attacker_vampire=vampire, target_vampire=tc.vampire,
                       bonus=w.bonus if w is not None else None, kept=kept,
                       impaired=impaired, fight_back=back)


def _land(state: SpotlightState, key: str, tc, tsheet, res: dict, holds: bool, rules,
          rnd: int) -> Step:
    """What the attack does to its target: a grapple won puts the hold on (V5; it deals no
    Harm), a miss leaves it unharmed, a hit marks its Harm (armor, V5 halving)."""
    target = tc.key
    if holds:
        hold = spa.bite_hold(rules)
        if res["margin"] > 0:
            return spc.put_on(state, target, hold[0], hold[1], rules)
        return Step(state, ({"event": "unharmed", "actor": key, "target": target,
                             "held": False},))
    if res["harm"] <= 0:
        return Step(state, ({"event": "unharmed", "actor": key, "target": target,
                             "round": rnd},))
    return harm.harm(state, target, res["harm"], res["kind"], rules,
                     armor=armor(tsheet, rules),
                     halve=tsheet is not None and tc.vampire
                     and spa.halves(rules, rules.traits.family(tsheet.splat)),
                     source=key)


def _counter(state: SpotlightState, key: str, sheet, target: str, res: dict, rules,
             rnd: int) -> tuple[list, SpotlightState]:
    """V5 close combat: a defender who fought back and won deals its Harm to the attacker
    (still up), with the attacker's armor and halving."""
    counter = (res["defense"].get("counter") or {}).get("harm", 0)
    if counter <= 0 or state.find(key).status != "active":
        return [], state
    vampire = roster.is_vampire(sheet, rules)
    back = harm.harm(state, key, counter, res["defense"]["counter"]["kind"], rules,
                     armor=armor(sheet, rules),
                     halve=vampire and spa.halves(rules, rules.traits.family(sheet.splat)),
                     source=target)
    return [{**e, "round": rnd} for e in back.events], back.state


def fight_back(rules, tag: str, tc, tsheet) -> tuple | None:
    """V5 close combat (attack.yaml READING): against an attack whose reach ends within
    ``close_defense.within``, a defender who is up and has a sheet may fight back with the
    first close-combat weapon it carries (else its fists): (row, weapon damage, Impairment
    terms). None: it can only dodge."""
    within = spa.close_within(rules)
    tags = spot_rules(rules).tags
    if within is None or tsheet is None or tc.status != "active" or tag not in tags:
        return None
    limit = spot_rules(rules).bands.index(within)
    if tags[tag][1] > limit:
        return None
    w = spa.Weapon(UNARMED, UNARMED, None)
    for carried in getattr(tsheet, "weapons", ()) or ():
        try:
            found = spa.weapon(rules, carried, tags)
        except InputError:
            continue
        if found.tag in tags and tags[found.tag][1] <= limit:
            w = found
            break
    row = spa.attack_row(rules, w.tag)
    terms = imp.terms(rules, row.pool, health_full=tc.hp <= 0,
                      willpower_left=imp.willpower_left(tsheet, rules))
    return row, w.bonus, terms
