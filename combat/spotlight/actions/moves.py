"""The moves reading of an action (issue 31, ``spotlight.resolution: moves``;
``combat/spotlight/moves.py`` holds its math), and the cost a 7-9 owes."""

from __future__ import annotations

from ...core import intents
from ...core.errors import IllegalAction, InputError
from ...core.outcome import Outcome
from ...core.values import replace
from .. import attack as spa
from .. import harm, turn
from .. import moves as mv
from ..tables import spot_rules
from .base import TEXT_MAX, UNARMED, Action, armor, live, named, out, sheet_or_none


def typed(raw: dict, kind: str) -> dict:
    """The act as the moves reading takes it: the move's name, its words kept short."""
    action = {**raw, "kind": kind}
    if action.get("text"):
        action["text"] = str(action["text"]).strip()[:TEXT_MAX]
    return action


class MoveAct:
    """``+combat/act <move> [<target>] [with <weapon>]``: the move's dice + its stat; 10+
    and 7-9 mark the weapon's Harm on a target when the move deals Harm (armor against
    Superficial, SPOT-11); 7-9 leaves a cost owed for the Storyteller to name
    (+combat/cost)."""

    reads = "the mover's sheet (the move's stat, weapons carried), the target's armor"

    def check(self, st, c, action: dict, sheets, rules) -> None:
        m = mv.move(rules, action["kind"])
        target = action.get("target")
        if m.target and not target:
            what = (f" ('{action['text']}' is nobody in this fight)" if action.get("text")
                    else "")
            raise InputError(f"{m.name} names whom{what}: +combat/act {m.name} <target>"
                             + (" [with <weapon>]." if m.harm and not m.tag else "."))
        if target and not m.target:
            raise InputError(f"{m.name} names nobody: +combat/act {m.name} [<what you do>].")
        move_weapon(m, action, sheet_or_none(sheets, c.key), rules)

    def resolve(self, st, c, action: dict, sheets, rules, rng) -> Outcome:
        m = mv.move(rules, action["kind"])
        target = action.get("target")
        s = sheet_or_none(sheets, c.key)
        w = move_weapon(m, action, s, rules)
        action = {k: v for k, v in action.items() if k != "weapon"}
        if w is not None:
            action["weapon"] = w.tag
            if w.name.lower() != w.tag:
                action["weapon_name"] = w.name
        elif m.tag and m.tag != m.name:
            action["power"] = m.tag  # the range check of the move's own tag (SPOT-10)
        step = turn.act(st, c.key, rules, action)
        res = mv.roll(rules, m, s.rating(rules.traits, m.stat) if s is not None else 0, rng)
        act_ev, *after_act = step.events
        rnd = act_ev["round"]
        events = [act_ev, {"event": "roll", "actor": c.key, "purpose": "move", "round": rnd,
                           **({"target": target} if target else {}), **res}]
        cur = step.state
        if m.harm and res["result"] != "miss":
            amount, kind = mv.harm_of(rules, w.tag if w is not None else m.tag)
            hit = harm.harm(cur, target, amount, kind, rules,
                            armor=armor(sheet_or_none(sheets, target), rules), source=c.key)
            hit_ev, *after_hit = hit.events
            events.append({**hit_ev, "round": rnd})
            after_act, cur = [*after_act, *after_hit], hit.state
        if res["result"] == "partial":
            cur = cur.with_fighters({c.key: replace(cur.get(c.key), cost_owed=m.name)})
        return out(cur, [*events, *after_act])


def move_weapon(m: mv.Move, action: dict, sheet, rules) -> spa.Weapon | None:
    """The weapon of a move that deals Harm: the move's own tag (bite); else the one named;
    else the first carried one the move takes; else unarmed, if the move takes it."""
    if not m.harm or m.tag:
        return None
    tags = spot_rules(rules).tags
    if action.get("weapon"):
        w = spa.weapon(rules, action["weapon"], tags)
        if m.tags is not None and w.tag not in m.tags:
            other = mv.move_taking(rules, w.tag)
            hint = (f"{other} takes it: +combat/act {other} <target> with {w.name}" if other
                    else f"+combat/act {m.name} <target> with <weapon>")
            raise IllegalAction(f"{m.name} takes {', '.join(m.tags)}, not {w.name}; {hint}.")
        return w
    for carried in getattr(sheet, "weapons", ()) or ():
        try:
            w = spa.weapon(rules, carried, tags)
        except InputError:
            continue  # carried under another ruleset's table: not usable here
        if m.tags is None or w.tag in m.tags:
            return w
    if m.tags is None or UNARMED in m.tags:
        return spa.Weapon(UNARMED, UNARMED, None)
    raise IllegalAction(f"{m.name} needs a weapon it takes ({', '.join(m.tags)}): "
                        f"+combat/act {m.name} <target> with <weapon>.")


class NameCost(Action):
    """Issue 31, the moves reading: the Storyteller names the cost a 7-9 owes, in words or
    by the number of one of the move's ``costs``."""

    intent = intents.NameCost

    def check(self, st, intent: intents.NameCost, sheets, rules) -> None:
        live(st)
        c = named(st, intent, "+combat/cost <name>=<cost>")
        if not c.cost_owed:
            raise IllegalAction(f"{c.name} owes no cost (a cost follows a 7-9 on a move).")
        self.text(c, intent, rules)

    def text(self, c, intent: intents.NameCost, rules) -> str:
        """The cost as named: the words typed, or the move's cost of that number."""
        text = str(intent.text or "").strip()[:TEXT_MAX]
        costs = mv.move(rules, c.cost_owed).costs if c.cost_owed in mv.names(rules) else ()
        if text.isdecimal():
            if not 1 <= int(text) <= len(costs):
                raise InputError(f"{c.cost_owed} lists {len(costs)} cost(s): +combat/cost "
                                 f"{c.name}=<1-{len(costs)}> or the cost in words."
                                 if costs else f"{c.cost_owed} lists no costs: name it in "
                                 f"words, +combat/cost {c.name}=<cost>.")
            text = costs[int(text) - 1]
        if not text:
            raise InputError(f"Name the cost: +combat/cost {c.name}=<cost>"
                             + (f" or =<1-{len(costs)}>." if costs else "."))
        return text

    def resolve(self, st, intent: intents.NameCost, sheets, rules, rng) -> Outcome:
        c = st.find(intent.actor)
        text = self.text(c, intent, rules)
        new = st.with_fighters({c.key: replace(c, cost_owed=None)})
        new = replace(new, seq=st.seq + 1)
        return out(new, [{"event": "cost", "actor": c.key, "move": c.cost_owed,
                          "text": text, "by": intent.by, "round": st.round}])
