"""Pacing (issue 11): choices entered ahead of one's slot, revealed and resolved in it.

A pose-paced MUSH scene must not wait on a keyboard that has nothing to decide. With the
fight's ``ahead`` option on, the rules of the turn stay as they are, only the typing moves:

* TURN-01: declarations are revealed from low to high initiative. A declaration typed before
  one's slot is checked at once (a refusal changes nothing), kept hidden on the combatant,
  and revealed (counted as made) when the slot comes, in order.
* TURN-03: actions go from high to low. When an actor's slot comes and the declared action
  leaves nothing to choose, it resolves by itself; ``+combat/act`` typed early is kept for
  the slot (with ``/wp``: the declared Willpower), ``+combat/delay`` typed early holds the
  action when the slot comes (TURN-04).
* What still needs the player waits for them: an action that became impossible where the
  ruleset lets it change (TURN-10), and a delayed character's moment (TURN-04).

``pump`` runs after every intent of a fight with the option on: it reveals and resolves
whatever the turn has reached, and stops at the first slot that needs someone.
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import attrgetter, is_

from . import scheduler as sch
from ..core.errors import IllegalAction, WodError
from ..core.values import replace
from . import acting, declare
from .fight import Fight

ACT, WILLPOWER, DELAY = "act", "wp", "delay"


class _NoDice(random.Random):
    """The dice of a declaration checked ahead: a declaration that rolls at once (an
    ambush, healing by a reflex) cannot be kept for later."""

    def random(self):  # every other method of Random draws through here or getrandbits
        raise IllegalAction("That is rolled at once, not kept for later: declare it when "
                            "your slot comes.")

    def getrandbits(self, k):
        return int(self.random())

    def randint(self, a, b):
        return int(self.random())


def _slot(st, key: str) -> int | None:
    for i, slot in enumerate(st.order):
        if key in slot.keys:
            return i
    return None


def ahead_of_slot(f: Fight, key: str, npc_held: bool = False) -> bool:
    """Whether a declaration from ``key`` now is one entered ahead of the slot: in a fight
    paced ahead, or (``npc_held``) an NPC's in any fight, declared early by its runner
    (+combat/declare/auto, +combat/declare Rat=...) and revealed in its slot (TURN-01)."""
    st = f.state
    c = st.get(key)
    if not (st.options.ahead or (npc_held and c is not None and c.is_npc)):
        return False
    if c is None or c.declared or c.lost or c.init_total is None or c.joined_turn > st.turn:
        return False
    simple = st.options.mode == "simple"
    if st.phase != ("act" if simple else "declare"):
        return False
    if simple and c.is_npc and sch.turn_rules(f.rules).npc_early:
        return False  # TURN-05: NPCs are declared at the start of a simple turn already
    slot = _slot(st, key)
    waiting = dict(sch.prompts(st))
    return slot is not None and slot > st.cursor and waiting.get(key) != "declare"


def declare_ahead(f: Fight, key: str, actions, activations, desperate: bool) -> None:
    """Check the declaration as if the slot had come (a refusal changes nothing), then keep
    it hidden until it does."""
    st = f.state
    trial = Fight(replace(st, cursor=_slot(st, key)), f._sheets, f.rules, _NoDice(), f.by,
                  f.memo)
    trial.changed = dict(f.changed)
    declare.declare(trial, key, actions, activations, desperate)
    f.put(key, ahead_declare={"actions": [dict(a) for a in actions],
                              "activations": [dict(a) for a in activations],
                              "desperate": bool(desperate)})
    f.emit("ahead", actor=key, what="declare")


def act_ahead(f: Fight, key: str, what: str) -> bool:
    """``+combat/act`` (``what``: act or wp) or ``+combat/delay`` typed before the slot:
    kept for it. False when it is not ahead of the slot (the normal rules answer)."""
    st = f.state
    c = st.get(key)
    if not st.options.ahead or c is None or c.lost or c.init_total is None:
        return False
    waiting = dict(sch.prompts(st))
    if waiting.get(key) in ("act", "declare") or c.delayed:
        return False
    if st.phase == "act" or st.phase == "extra":
        if not c.declared or not _has_action_left(c, st.phase):
            return False
        slot = _slot(st, key)
        if slot is None or slot <= st.cursor:
            return False
    elif st.phase != "declare" or not (c.declared or c.ahead_declare):
        return False
    f.put(key, ahead_act=what)
    f.emit("ahead", actor=key, what=what)
    return True


def _has_action_left(c, phase: str) -> bool:
    return sch._next_index(c, phase) is not None


_AHEAD_DECLARE = attrgetter("ahead_declare")


def pump(f: Fight) -> None:
    """Reveal and resolve what the turn has reached; stop where someone must choose. In a
    fight paced slot by slot only NPC declarations held for their slot are revealed."""
    ahead = f.state.options.ahead
    # asked after every intent: whether anyone holds a declaration, in C (a crowd of 100)
    if not ahead and all(map(is_, map(_AHEAD_DECLARE, f.state.combatants), repeat(None))):
        return
    stuck: set[str] = set()
    moved_any = False
    for _ in range(4 * len(f.state.combatants) + 8):
        if f.state.phase == "ended":
            break
        moved = False
        for key, what in sch.prompts(f.state):
            if key in stuck:
                continue
            c = f.state.get(key)
            if what == "declare" and c.ahead_declare is not None:
                moved = _reveal(f, key, c.ahead_declare) or True
            elif what == "act" and ahead and not c.delayed:
                moved = _resolve(f, key, c.ahead_act)
                if not moved:
                    stuck.add(key)
                    continue
            if moved:
                break
        if not moved:
            break
        moved_any = True
    if moved_any:  # one set of prompts: where the turn stopped, not each slot it passed
        f.events[:] = [e for e in f.events if e.get("event") != "prompt"]
        f.events.extend(sch.prompt_events(f.state))


def _saved(f: Fight):
    return f.state, dict(f.changed), len(f.events)


def _restore(f: Fight, saved) -> None:
    f.state, f.changed, n = saved[0], dict(saved[1]), saved[2]
    del f.events[n:]


def _reveal(f: Fight, key: str, kept: dict) -> bool:
    """TURN-01: the slot has come: the declaration kept ahead is made now. If the fight
    changed so that it no longer stands (its target died ...), the player declares again."""
    f.put(key, ahead_declare=None)
    saved = _saved(f)
    try:
        declare.declare(f, key, kept.get("actions") or (), kept.get("activations") or (),
                        bool(kept.get("desperate")))
    except WodError as why:
        _restore(f, saved)
        f.emit("ahead_refused", actor=key, what="declare", why=str(why))
    return True


def _resolve(f: Fight, key: str, asked: str) -> bool:
    """TURN-03/04: the act slot has come: the declared action resolves by itself, unless it
    needs the player (TURN-10: impossible now, and the ruleset lets it change)."""
    c = f.state.get(key)
    if c.ahead_act:
        f.put(key, ahead_act="")
    saved = _saved(f)
    if asked == DELAY and f.state.cursor < len(f.state.order):
        f.run(sch.delay(f.state, key, f.rules))
        return True
    try:
        acting.act(f, key, willpower=asked == WILLPOWER)
    except WodError:
        _restore(f, saved)
        return False
    return True
