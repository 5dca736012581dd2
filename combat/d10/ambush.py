"""MAN-01, ambush (seed 000; M20 p. 416): the attacker's Dexterity + Stealth against the
target's Perception + Alertness, resisted. Win: a free attack, the extra successes as
dice, that the target cannot defend; tie: the attacker goes first and the target may
defend; lose: spotted, initiative as normal. Someone already in combat cannot be ambushed.

READING (rules/README.md): an ambush is sprung while declaring, in the target's first turn
of the fight (before that turn's acting, so nobody is "already in combat"), as the
ambusher's whole declaration: ``ambush <target> [with <weapon>] [as <maneuver>]``. It
resolves at once, ahead of everyone. Won: the free attack is made and the ambusher then
declares the turn as usual. Tied: the attack made first is the ambusher's action for the
turn (they are done declaring); the target defends with the defense they declared, or
else a dodge (they may defend, and nobody waits for them to choose). Lost: nothing
happens and they declare as usual. Once a fight per ambusher.
"""

from __future__ import annotations

from . import scheduler as sch
from .attack_values import Side
from .reflex_rolls import resolve_ambush
from ..core.errors import IllegalAction
from .close import close_of, set_close
from .fight import Fight, roll_event
from .strike import attack


def spring(f: Fight, key: str, a: dict, alone: bool) -> None:
    st = f.state
    t = st.find(a["target"])
    name = f.name(key)
    if not alone:
        raise IllegalAction("An ambush is the whole declaration: ambush <target> [with "
                            "<weapon>] [as <maneuver>]; declare the rest after it.")
    if dict(sch.prompts(st)).get(key) != "declare":
        raise IllegalAction(f"Not {name}'s turn to declare; an ambush is sprung then.")
    if close_of(f, key).ambush is not None:
        raise IllegalAction(f"{name} has sprung an ambush in this fight already.")
    if st.phase != "declare" or st.turn > max(1, t.joined_turn):
        raise IllegalAction(f"{t.name} is already in the fight and cannot be ambushed; "
                            f"attack as usual (from flank or rear, if it fits).")
    res = resolve_ambush(f.rules, f.sheet(key), f.sheet(t.key),
                         target_side=Side(in_combat=False), rng=f.rng)
    f.events.append(roll_event(key, "ambush", res.attacker_pool, res.attacker_roll))
    f.events.append(roll_event(t.key, "spot the ambush", res.target_pool, res.target_roll))
    f.emit("ambush", actor=key, target=t.key, outcome=res.outcome, bonus=res.bonus_dice)
    set_close(f, key, ambush=(t.key, res.outcome, res.bonus_dice))
    if res.outcome == "spotted":
        return
    action = {k: v for k, v in a.items() if k != "activate"}
    action["kind"] = "attack"
    now = None
    if res.outcome == "attacker_first":  # the target may defend: as declared, else a dodge
        declared = [x["kind"] for x in t.actions if x.get("kind") in ("dodge", "block", "parry")]
        now = declared[0] if declared else "dodge"
    attack(f, key, action, (), defense_now=now)
    if res.outcome == "attacker_first":  # the attack was the turn's action
        f.run(sch.skip(f.state, key, f.rules))
