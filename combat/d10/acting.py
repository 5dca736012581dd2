"""Acting (TURN-03/04/06/07/08): the declared action performed in its slot, aborts, and the
actions that are not attacks (aim, reload, move, rise, escape, ready)."""

from __future__ import annotations

from . import damage as dmg
from . import scheduler as sch
from .reflex_rolls import resolve_escape
from .weapon_ready import ready_weapon
from ..core.values import replace
from . import change, close, kiss, mending, ranged
from .fight import OUT_OF_ACTION, Fight, roll_event
from .gear import Aim
from .strike import attack, strafe


def act(f: Fight, key: str, willpower: bool = False) -> None:
    # Checked on the current state first; the action's own changes (the defense spent, a
    # knockdown) belong to this moment of the turn, before ``act`` moves the turn on.
    # ``willpower``: +combat/act/wp, honoured only if declared (TURN-02).
    index, action, mods = sch.next_action(f.state, key, f.rules, willpower=willpower)
    kind = action["kind"]
    change.offer(f, key, action, index)
    if kind == "attack" and action.get("targets"):
        strafe(f, key, action, mods)  # RNG-07 several targets
    elif kind == "attack":
        attack(f, key, action, mods)
    elif kind in ("prepare", "repair"):
        ranged.ready(f, key, action)  # RNG-06, ATK-07
    elif kind in ("reload", "nock"):
        ready(f, key, action)
    elif kind == "aim":
        aim(f, key, action)
    elif kind == "escape":
        escape(f, key)
    elif kind == "resist":  # CLOSE-14
        kiss.resist(f, key)
    elif kind == "move" and action.get("target"):
        move_relative(f, key, action)
    elif kind == "heal":  # HEAL-08, HEAL-09
        mending.act(f, key, action)
    else:
        if kind == "ready":
            f.set_gear(key, f.gear(key).pick_up(action["weapon"]))
        f.emit("action", actor=key, kind=kind,
               **{k: action[k] for k in ("text", "yards", "weapon") if k in action})
    finish(f, key)


def finish(f: Fight, key: str) -> None:
    """Mark the action done. An attacker put out of action by their own attack (a parry
    counter, jagged skin) still used it; the turn then goes on without them."""
    cur = f.state.get(key)
    if cur is None:
        return
    if not cur.lost:
        f.run(sch.act(f.state, key, f.rules))
        return
    step = sch.act(f.state.with_combatants({key: replace(cur, lost=False)}), key, f.rules)
    st = step.state
    if st.turn == f.state.turn:
        st = st.with_combatants({key: replace(st.get(key), lost=True)})
    f.state = st
    f.events.extend(step.events)


def move_relative(f: Fight, key: str, action: dict) -> None:
    """MAN-03 toward or away from someone: the range to them changes by the yards run
    (RNG-05); a target who has left the fight makes it a plain move."""
    other = action["target"]
    if f.state.get(other) is None:
        f.emit("action", actor=key, kind="move", yards=action["yards"])
        return
    sign = -1 if action.get("direction", "toward") == "toward" else 1
    yards = max(0, f.yards(key, other) + sign * action["yards"])
    f.set_yards(key, other, yards)
    f.emit("action", actor=key, kind="move", yards=action["yards"], target=other,
           direction=action.get("direction", "toward"), range=yards)


def ready(f: Fight, key: str, action: dict) -> None:
    """RNG-06 reload, ATK-07 nock, ATK-08 crossbow reload: one action each."""
    name = action["weapon"]
    res = ready_weapon(f.rules, f.sheet(key), name, f.weapon_state(key, name), action["kind"],
                       rng=f.rng)
    st, note = res.state, res.note
    if action.get("ammo"):  # CLOSE-06: loaded with rubber, silver ... rounds
        st, note = replace(st, load=action["ammo"]), f"{action['ammo']} rounds"
    f.set_gear(key, f.gear(key).with_weapon(st))
    f.emit("weapon", actor=key, action=action["kind"], weapon=name, state=st.as_dict(),
           note=note)


def aim(f: Fight, key: str, action: dict) -> None:
    """RNG-01: each turn of aiming adds a die to the next shot at that target (the attack
    layer caps it at Perception and checks the weapon and the target's speed)."""
    old = f.gear(key).aim
    same = old is not None and old.target == action["target"] and \
        old.weapon == action["weapon"]
    turns = (old.turns if same else 0) + 1
    f.set_gear(key, replace(f.gear(key), aim=Aim(action["target"], action["weapon"], turns,
                                                 f.state.turn)))
    f.emit("aim", actor=key, target=action["target"], weapon=action["weapon"], turns=turns)


def escape(f: Fight, key: str) -> None:
    """CLOSE-03 / CLOSE-05: resisted Strength + Brawl against the holder."""
    grip = f.gear(key).grapple
    if not grip or f.state.get(grip.other) is None:
        f.emit("escape", actor=key, holder=None, escaped=False)
        f.release(key, None)
        return
    other = grip.other
    if (f.state.get(other).outcome in OUT_OF_ACTION
            or dmg.is_incapacitated(f.sheet(other), f.rules)):
        # HLT-02: an incapacitated holder cannot act, so cannot hold on (issue 9, 26).
        f.release(key, other)
        f.emit("escape", actor=key, holder=other, escaped=True, limp=True)
        return
    res = resolve_escape(f.rules, f.sheet(key), f.sheet(other), rng=f.rng,
                         extra=close.defense_extra(f, key))  # CLOSE-12 off balance
    f.events.append(roll_event(key, "escape", res.escaper_pool, res.escaper_roll))
    f.events.append(roll_event(other, "hold on", res.holder_pool, res.holder_roll))
    if res.escaped:
        f.release(key, other)
    f.emit("escape", actor=key, holder=other, escaped=res.escaped)


def abort(f: Fight, key: str, to: str, spend: bool) -> None:
    """TURN-08: a Willpower roll (or a point) to switch to a defense before acting."""
    if to == "parry":  # DEF-03: refused before any Willpower is rolled or spent
        close.check_parry(f, key)
    rating = f.willpower_for_reflex(key, spend)
    step = sch.abort(f.state, key, {"kind": to}, f.rules, f.rng, willpower=rating,
                     spend_willpower=spend)
    f.tell_willpower_roll(key, step, "abort", rating)
    f.run(step)
