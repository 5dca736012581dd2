"""What the room reads of a spotlight fight: one small function per event kind, looked up
in ``RENDER``; the kinds both engines say alike come from the d10 table."""

from __future__ import annotations

from typing import Callable

from wodcombat.combat.spotlight import moves as mv
from wodcombat.combat.core.events import Event

from . import d10_text
from .dice_text import v5_faces_text, v5_outcome_text
from .fight_phrases import roll_line
from .text_width import wrap


def order_text(state, n) -> str:
    from wodcombat.combat.spotlight import flow as spotlight_flow

    parts = [f"{' = '.join(n(k) for k in slot['keys'])} {slot['total']}"
             for slot in spotlight_flow.order_view(state)]
    return ", ".join(parts) or "nobody has rolled"


def resolution_text(rules) -> str:
    """Which reading of an action is in force (issue 31), for +combat and +rules."""
    if mv.in_force(rules):
        example = " (an example table)" if (rules.section("spotlight_moves") or {}).get(
            "example") else ""
        return (f"moves{example}: 2d6 + a stat; 10+ full success, 7-9 success at a "
                f"cost, 6- miss. A reading: the seed names no dice.")
    return ("V5 pools: your pool against the defender's, Hunger dice apart. A reading: "
            "the seed names no dice.")


def v5_roll_lines(who: str, target: str, ev: Event) -> list[str]:
    """A V5 contest (issue 10): the attacker's dice, the defender's, each with its Hunger
    dice apart, and the margin with the weapon's damage."""
    def side(label: str, r) -> str:
        terms = " + ".join(f"{t} {v}" for t, v in r.get("traits") or ()) or "no traits"
        pool = r.get("pool", 0)
        faces = v5_faces_text(r.get("faces") or (), int(r.get("hunger") or 0))
        return (f"  {label}: {terms} = {pool} {'die' if pool == 1 else 'dice'}: {faces} => "
                f"{v5_outcome_text(int(r.get('successes') or 0), r.get('result', ''))}")

    out = [side(f"{who} {ev.get('purpose', 'attack')}", ev)]
    d = ev.get("defense") or {}
    if d:
        out.append(side(f"{target} {'fights back' if d.get('fights_back') else 'defends'}", d))
    margin = int(ev.get("margin") or 0)
    counter = d.get("counter") or {}
    if margin > 0 and ev.get("purpose") == "grapple":
        out.append(f"  Margin {margin}: {target} is held.")
    elif margin > 0:
        out.append(f"  Margin {margin} + weapon {ev.get('bonus', 0)} = "
                   f"{margin + int(ev.get('bonus') or 0)} harm.")
    elif counter.get("harm"):  # V5 close combat: the defender won fighting back
        out.append(f"  {target} wins by {-margin} + weapon {counter.get('bonus', 0)} = "
                   f"{counter['harm']} harm to {who}.")
    else:
        out.append(f"  Margin {margin}: a miss (the attacker needs more successes).")
    return out



def _who(ev: Event, n: Callable[[str], str]) -> str:
    return n(ev.get("actor", ""))


# ---------------------------------------------------------------- the fight and the round


def _start(ev, n, state):
    return (f"{n(ev.get('organizer'))} starts a fight ({ev.get('ruleset')}, "
            f"{ev.get('how')}). +combat/join to take part.")


def _organizer(ev, n, state):
    return (f"{_who(ev, n)} runs the fight and is not in the order (+combat/join to fight as "
            f"a PC).")


def _join(ev, n, state):
    side = "opponent" if ev.get("npc") else "PC"
    turns = (f", {ev['actions_per_round']} turns a round"
             if ev.get("npc") and ev.get("actions_per_round", 1) > 1 else "")
    return f"{_who(ev, n)} joins the fight ({side}, {ev['hp']}/{ev['hp_max']} HP{turns})."


def _initiative(ev, n, state):
    faces = " ".join(map(str, ev["faces"]))
    dice = "2d6 " if ev.get("sides") == 6 and len(ev["faces"]) == 2 else ""
    return (f"{_who(ev, n)} rolls initiative: {dice}[{faces}] + {ev['trait']} {ev['bonus']} = "
            f"{ev['total']}")


def _round(ev, n, state):
    amb = {"opponents": " The opponents got the drop: they act first.",
           "pcs": " The PCs got the drop: every PC acts first."}.get(ev.get("ambush"), "")
    return f"Round {ev['round']} begins.{amb} Order: {order_text(state, n)}"


def _spotlight(ev, n, state):
    return f"The spotlight is on {', '.join(n(x) for x in ev['who'])}."


def _pass(ev, n, state):
    if ev.get("who"):
        return f"{', '.join(n(x) for x in ev['who'])}'s turn ends."
    if ev.get("forfeited"):
        return "The round ends; unused opponent turns are lost."
    return "No opponent acts there."  # a pass of the pick between two PCs (SPOT-04)


def _swap(ev, n, state):
    return f"{n(ev['first'])} goes before {n(ev['second'])}."


def _ambush(ev, n, state):
    side = "The opponents" if ev["side"] == "opponents" else "The PCs"
    return f"{side} get the drop in round {ev['round']}."


def _event(ev, n, state):
    return f"|yEnvironment:|n {ev['text']}"


# ---------------------------------------------------------------- a turn in the spotlight


def _move(ev, n, state):
    return f"{_who(ev, n)} moves from {ev['from']} to {ev['to']} of {n(ev['other'])}."


def _range(ev, n, state):
    return f"{n(ev['a'])} and {n(ev['b'])} are now at {ev['to']}."


def _range_all(ev, n, state):
    return f"Everyone is now at {ev['to']} range from everyone else (and so is anyone who joins)."


def _act(ev, n, state):
    who = _who(ev, n)
    a = ev.get("action") or {}
    if a.get("kind") in ("attack", "bite"):
        weapon = a.get("weapon_name") or a.get("weapon")
        w = f" with {weapon}" if weapon else ""
        return f"{who} {a['kind']}s {n(a.get('target', '?'))}{w} (at {ev.get('range')})."
    if a.get("kind") == "grapple":
        return f"{who} grapples {n(a.get('target', '?'))} (at {ev.get('range')})."
    if a.get("kind") == "power":
        on = f" on {n(a['target'])} (at {ev.get('range')})" if a.get("target") else ""
        return f"{who} uses {a.get('power')}{on}."
    if a.get("kind") not in (None, "other", "action"):  # a move (issue 31)
        weapon = a.get("weapon_name") or a.get("weapon")
        on = f" on {n(a['target'])}" if a.get("target") else ""
        w = f" with {weapon}" if weapon else ""
        at = f" (at {ev.get('range')})" if ev.get("range") else ""
        what = f": {a['text']}" if a.get("text") else ""
        return f"{who} makes a move, {a['kind']}{on}{w}{at}{what}."
    return f"{who} acts: {a.get('text') or a.get('kind')}."


def move_roll_lines(who: str, ev: Event) -> list[str]:
    """The moves reading (issue 31): the dice + the stat, the band, what the table says;
    on 7-9 the room is told the cost is the Storyteller's to name, and the choices."""
    stat, rating = ev.get("stat") or ("no stat", 0)
    faces = " ".join(map(str, ev.get("faces") or ()))
    dice = f"{len(ev.get('faces') or ())}d{ev.get('sides')}"
    band = {"full": "full success", "partial": "success at a cost",
            "miss": "miss"}.get(ev.get("result"), str(ev.get("result")))
    out = [f"  {who} rolls {ev.get('move')}: {dice} [{faces}] + {stat} {rating} = "
           f"{ev.get('total')} => {band}."]
    if ev.get("text"):
        out += wrap(f"  {ev['text']}")
    if ev.get("result") == "partial":
        out += wrap(f"  The cost is the Storyteller's to name: +combat/cost {who}=<cost>"
                    + (", or one of these by its number:" if ev.get("costs") else "."))
        for i, cost in enumerate(ev.get("costs") or (), 1):
            out += wrap(f"    {i}) {cost}", indent=7)
    return out


def _roll(ev, n, state):
    who = _who(ev, n)
    if ev.get("dice") == "moves":
        return move_roll_lines(who, ev)
    return v5_roll_lines(who, n(ev.get("target", "")), ev) if ev.get("dice") == "v5" \
        else roll_line(who, ev)


def _rouse(ev, n, state):
    """V5 Rouse Check for a Discipline Power (issue 31)."""
    faces = " ".join(map(str, ev["faces"]))
    res = ("passed" if ev["passed"] else
           f"failed: Hunger {ev['hunger_before']} -> {ev['hunger_after']}")
    return f"  {_who(ev, n)} rouses the blood [{faces}]: {res}."


def _reroll(ev, n, state):
    """V5 Willpower reroll: the dice named, their old and new faces."""
    which = ", ".join(str(p) for p in ev["positions"])
    old, new = " ".join(map(str, ev["old"])), " ".join(map(str, ev["new"]))
    return (f"{_who(ev, n)} spends {ev['spent']} {ev['pool']} ({ev['left']} left), "
            f"rerolls {which}: [{old}] -> [{new}].")


def _cost(ev, n, state):
    return f"The cost of {_who(ev, n)}'s {ev.get('move')}: {ev.get('text')}."


def _unharmed(ev, n, state):
    if ev.get("held") is False:  # a grapple lost (V5)
        return f"  {n(ev.get('target'))} is not held."
    return f"  {n(ev.get('target'))} is not harmed."


def _free(ev, n, state):
    return f"{_who(ev, n)} takes a free action" + (
        f": {ev['text']}." if ev.get("text") else ".")


def _done(ev, n, state):
    return f"{_who(ev, n)} ends the turn."


# ---------------------------------------------------------------- harm, blood and torpor


def _harm(ev, n, state):
    out = {"torpor": " and falls into TORPOR", "final_death": " and meets FINAL DEATH",
           "out": " and is OUT of the fight"}.get(ev["outcome"], "")
    steps = []
    if ev.get("armor"):
        steps.append(f"armor -{ev['armor']}")
    if ev.get("halved"):
        steps.append(f"halved -{ev['halved']}")
    if ev.get("upgraded") and ev["kind"] == "superficial":
        steps.append(f"{ev['upgraded']} turned aggravated")
    how = f" ({ev['amount']}, {', '.join(steps)})" if steps else ""
    return (f"{n(ev['target'])} takes {ev['marked'] + ev['upgraded']} {ev['kind']} harm"
            f"{how}: HP {ev['hp_before']} -> {ev['hp_after']}/{ev['hp_max']}{out}.")


def _condition(ev, n, state):
    """Issue 31: put on for some rounds or until removed; taken off, or its rounds over."""
    who = _who(ev, n)
    if ev.get("removed"):
        return f"{who} is no longer {', '.join(ev['removed'])}."
    first, last = ev["from"], ev.get("until")
    if last is None:
        return f"{who} is {ev['condition']} (until removed)."
    span = f"round {first}" if last == first else f"rounds {first} to {last}"
    return f"{who} is {ev['condition']} ({span})."


def _stake(ev, n, state):
    return f"{n(ev['target'])} is staked and incapacitated."


def _unstake(ev, n, state):
    return f"The stake is pulled from {n(ev['target'])}."


def _feed(ev, n, state):
    if ev.get("healed") is not None:  # fed while up: heals Harm, Hunger drops
        healed = ", ".join(f"{v} {t}" for t, v in ev["healed"].items() if v) or "nothing"
        return (f"{n(ev['target'])} feeds (slakes {ev['slaked']} Hunger, now "
                f"{ev['hunger_after']}): heals {healed}, HP {ev['hp_before']} -> "
                f"{ev['hp_after']}/{ev['hp_max']}.")
    return (f"{n(ev['target'])} is given blood (slakes {ev['slaked']}): back at the start "
            f"of round {ev['revive_round']}.")


def _hunger_check(ev, n, state):
    who = _who(ev, n)
    if ev.get("cannot"):
        return (f"{who} is at Hunger {ev['hunger_before']} and cannot make the Hunger "
                f"Check: {ev['superficial']} superficial harm stays.")
    faces = " ".join(map(str, ev["faces"]))
    if ev.get("mend") is not None:  # V5: checks one after another, mending by BP
        checks = len(ev["faces"])
        hunger = (f"Hunger {ev['hunger_before']} -> {ev['hunger_after']}"
                  if ev["hunger_after"] != ev["hunger_before"] else "Hunger unchanged")
        stays = (f"; at Hunger {ev['hunger_after']} no more: {ev['left']} superficial "
                 f"harm stays" if ev["left"] else "")
        return (f"{who} makes {checks} Hunger Check{'s' if checks != 1 else ''} [{faces}] "
                f"({hunger}), mending {ev['mend']} a check: heals {ev['healed']} "
                f"superficial harm{stays}.")
    res = "passed" if ev["passed"] else f"failed, Hunger {ev['hunger_after']}"
    return (f"{who} makes a Hunger Check [{faces}] ({res}) and heals {ev['healed']} "
            f"superficial harm.")


def _revive(ev, n, state):
    return f"{_who(ev, n)} wakes from torpor with {ev['hp_after']} HP."


RENDER: dict[str, Callable] = {
    "start": _start, "organizer": _organizer, "join": _join, "initiative": _initiative,
    "round": _round, "spotlight": _spotlight, "pass": _pass, "swap": _swap,
    "ambush": _ambush, "event": _event,
    "move": _move, "range": _range, "range_all": _range_all, "act": _act, "roll": _roll,
    "reroll": _reroll, "rouse": _rouse, "unharmed": _unharmed, "cost": _cost,
    "free": _free, "done": _done,
    "harm": _harm, "condition": _condition, "stake": _stake, "unstake": _unstake, "feed": _feed,
    "hunger_check": _hunger_check, "revive": _revive,
    # Said the same way under either engine.
    **{k: d10_text.RENDER[k] for k in ("leave", "deleted", "end", "timeout", "timeout_set",
                                      "undo", "summary")},
}
