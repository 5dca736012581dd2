"""A fight's stored text, written at a cost that does not grow with the fight (issue 13).

The stored state is ``json.dumps(state.to_dict())``, byte for byte (``bin/replay`` compares
digests of it). A command changes a few combatants; the engine's states are frozen and keep
every combatant it did not touch as the very same object, so each combatant's JSON is kept
per object and only the changed ones are encoded again. The rest of the state (turn, order,
options ...) is small and encoded as usual.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not

from combat.values import replace

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
        else:  # someone joined or left: the others' texts found by identity
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
        combatants = self._combatant_texts(state.combatants)
        head = replace(state, combatants=()).to_dict()  # the engine's copier: a third the cost
        if head.get("combatants") != []:  # not the shape this was written for: encode it all
            return _dumps(state.to_dict())
        # The keys before and after "combatants" as one dict each, their braces cut off: two
        # encoder calls, not one per key (a dozen of them, each paying json.dumps' own cost).
        keys = list(head)
        at = keys.index("combatants")
        items = ['"combatants": [' + ", ".join(combatants) + "]"]
        if at:
            items.insert(0, _dumps({k: head[k] for k in keys[:at]})[1:-1])
        if at + 1 < len(keys):
            items.append(_dumps({k: head[k] for k in keys[at + 1:]})[1:-1])
        return "{" + ", ".join(items) + "}"

