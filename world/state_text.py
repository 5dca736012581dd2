"""A fight's stored text, written at a cost that does not grow with the fight (issue 13).

The stored state is ``json.dumps(state.to_dict())``, byte for byte (``bin/replay`` compares
digests of it). A command changes a few combatants; the engine's states are frozen and keep
every combatant it did not touch as the very same object, so each combatant's JSON is kept
per object and only the changed ones are encoded again. The rest of the state (turn, order,
options ...) is small and encoded as usual.
"""

from __future__ import annotations

from combat.values import replace

from . import jsontext

#: ``json.dumps`` defaults: "{" key ": " value (", " key ": " value)* "}"
_dumps = jsontext.dumps  # json.dumps, its encoder built once


class StateText:
    """One fight's encoder: ``text(state)`` == ``json.dumps(state.to_dict())``."""

    def __init__(self):
        # id(combatant) -> (combatant, its JSON); the object is kept so the id stays its own
        self._parts: dict[int, tuple[object, str]] = {}
        self.encoded = 0  # combatants encoded by the last call (tests count them)

    def text(self, state) -> str:
        parts, kept, encoded = self._parts, {}, 0
        combatants = []
        for c in state.combatants:
            hit = parts.get(id(c))
            if hit is None or hit[0] is not c:
                hit = (c, _dumps(c.to_dict()))
                encoded += 1
            kept[id(c)] = hit
            combatants.append(hit[1])
        self._parts, self.encoded = kept, encoded  # only the current fight's are kept
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

