"""A fight's stored text, written at a cost that does not grow with the fight (issue 13).

The stored state is ``json.dumps(state.to_dict())``, byte for byte (``bin/replay`` compares
digests of it). A command changes a few combatants; the engine's states are frozen and keep
every combatant it did not touch as the very same object, so each combatant's JSON is kept
per object and only the changed ones are encoded again. The rest of the state (turn, order,
options ...) is small and encoded as usual.
"""

from __future__ import annotations

import json
from itertools import compress
from operator import is_not

from wodcombat.combat.core.values import replace

from . import jsontext

#: ``json.dumps`` defaults: "{" key ": " value (", " key ": " value)* "}"
_dumps = jsontext.dumps  # json.dumps, its encoder built once


class StateText:
    """One fight's encoder: ``text(state)`` == ``json.dumps(state.to_dict())``."""

    def __init__(self):
        # the combatants of the last call and their JSON texts, in order
        self._combatants: tuple = ()
        self._texts: list[str] = []
        self.encoded = 0  # combatants encoded by the last call (tests count them)
        # what the last call changed, for ``delta``: (combatants before, combatants after,
        # indexes changed or None when someone joined or left, the head's keys and JSON items)
        self._last: tuple | None = None
        self._changed: list[int] | None = None  # places the last call re-encoded
        self._keys_before: tuple = ()  # the stored state's head keys (``committed``)
        self._items_before: list[str] = []  # and its head's JSON items
        self._order: tuple = (None, "")  # the last ``order`` tuple and its JSON item

    def _combatant_texts(self, combatants: tuple) -> list[str]:
        old, texts = self._combatants, self._texts
        if len(old) == len(combatants):
            # The same places (most commands): which objects differ, found in C (map over
            # ``is not``; a Python loop over a crowd of 100 cost more than the encoding).
            changed = list(compress(range(len(combatants)), map(is_not, old, combatants)))
            if changed:
                texts = texts.copy()
                for i in changed:
                    texts[i] = _dumps(combatants[i].to_dict())
            self.encoded = len(changed)
            self._changed = changed
        else:  # someone joined or left: the others' texts found by identity
            self._changed = None
            known = {id(c): t for c, t in zip(old, texts)}
            texts, self.encoded = [], 0
            for c in combatants:
                t = known.get(id(c))
                if t is None:
                    t = _dumps(c.to_dict())
                    self.encoded += 1
                texts.append(t)
        # kept with the objects themselves, so an id above is never another object's
        self._combatants, self._texts = combatants, texts
        return texts

    def text(self, state) -> str:
        before = self._combatants
        combatants = self._combatant_texts(state.combatants)
        # The engine's copier (a third the cost of to_dict on the whole); the slots of the
        # phase (one key per combatant) change only when a phase starts: kept encoded.
        order = state.order
        if self._order[0] is order:
            head = replace(state, combatants=(), order=()).to_dict()
        else:
            head = replace(state, combatants=()).to_dict()
            self._order = (order, '"order": ' + _dumps(head.get("order")))
        self._last = None
        if head.get("combatants") != [] or "order" not in head:  # not the shape this was
            return _dumps(state.to_dict())  # written for: encode it all
        # The keys between those two as one dict each, their braces cut off: an encoder call
        # per run of keys, not one per key (a dozen of them, each paying json.dumps' own cost).
        items, run = [], []
        for k in head:
            if k == "combatants" or k == "order":
                if run:
                    items.append(_dumps({r: head[r] for r in run})[1:-1])
                    run = []
                items.append('"combatants": [' + ", ".join(combatants) + "]"
                             if k == "combatants" else self._order[1])
            else:
                run.append(k)
        if run:
            items.append(_dumps({r: head[r] for r in run})[1:-1])
        self._last = (before, state.combatants, self._changed, tuple(head),
                      [t for t in items if not t.startswith('"combatants": [')])
        return "{" + ", ".join(items) + "}"

    def delta(self, old_state, state) -> str | None:
        """``state``'s text as a change of ``old_state``'s (the one stored before it): the
        combatants that are new objects, by place, and the head's items that changed, as
        ``DELTA`` JSON. None when only the whole text will do: the last ``text`` call was not
        for ``state`` right after ``old_state``, someone joined or left, or the head's keys
        changed. Issue 13: a log row then holds what the command changed, not the whole
        fight (not the phase's slots either, one key per combatant, unless a phase began)."""
        last = self._last
        if (last is None or old_state is None or last[0] is not old_state.combatants
                or last[1] is not state.combatants or last[2] is None
                or last[3] != self._keys_before):
            return None
        changed = ", ".join(f'"{i}": {self._texts[i]}' for i in last[2])
        was = self._items_before
        head = (last[4] if len(was) != len(last[4]) else
                [t for t, w in zip(last[4], was) if t is not w and t != w])
        return "{" + ", ".join([f'{DELTA}{{{changed}}}', *head]) + "}"

    def committed(self) -> None:
        """The last ``text`` is now the stored one: the next delta's head compares with
        its."""
        if self._last is not None:
            self._keys_before, self._items_before = self._last[3], self._last[4]


#: how a log row's state that is a delta begins (a whole state begins '{"v": ')
DELTA = '"delta": '
_DELTA_HEAD = "{" + DELTA


def is_delta(text: str) -> bool:
    return text.startswith(_DELTA_HEAD)


def read_back(newest_first) -> str | None:
    """The newest state's text from a fight's row states, newest first (each whole or a
    delta of the one before): from the newest to the last whole one, then forward. None
    without any; ValueError when the deltas have no whole state under them."""
    deltas = []
    for text in newest_first:
        if not is_delta(text):
            if not deltas:
                return text
            whole = json.loads(text)
            for delta in reversed(deltas):
                apply_delta(whole, delta)
            return _dumps(whole)
        deltas.append(text)
    if deltas:
        raise ValueError("the log keeps changes of a state it lacks")
    return None


def apply_delta(whole: dict, delta: str) -> dict:
    """The state (as ``json.loads`` of its text) that ``delta`` made of ``whole``, in place:
    its head keys replaced where they stand, its combatants replaced by place, so that
    ``json.dumps`` of the result is the text ``StateText.text`` gave for it."""
    d = json.loads(delta)
    changed = d.pop("delta")
    whole.update(d)
    combatants = whole["combatants"]
    for i, c in changed.items():
        combatants[int(i)] = c
    return whole

