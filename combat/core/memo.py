"""What one ``apply`` (or one simulation run) reuses, held in one explicit object.

Why: an attack asks for its plan three times with the very same values (can it be made, the
defense against it, its roll), and a simulation or a crowd asks for equal plans over and
over; building them anew is a fifth of an act or more (bench/engine.py). The engine's
modules keep no cache of their own (issue 32: a module-level cache makes the engine pure in
its results but not in its state, and not thread-safe): whoever calls ``apply`` may hand it
a ``Memo`` (``memo=``) kept for as long as it likes (the simulator: one per run); without
one, ``apply`` makes one for the call and drops it after.

A plan is a pure function of frozen inputs, so a memo never changes an answer: it only
spares building it again. Entries are looked up by value (a sheet by its fields), so a
sheet read afresh from an Attribute finds the plan an equal sheet left.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType

#: Entries one memo keeps before it starts again: steady memory in a long run (a plan holds
#: its Context and intent, about 1.7 KB; bench/soak.py --census).
SIZE = 1024
# The identity entries name the (Attack, Context) pairs of ``made``, handed out again from
# one ask to the next: as many as the memo keeps of them.
IDENTITY_SIZE = SIZE


class Memo:
    """Plans (combat/d10/attack_memo.py), their value tokens, the sheets' value numbers, soak pools
    (combat/d10/damage.py), CLOSE-08's table of declared attacks and the attacks' Sides,
    Contexts and Attacks by their fields (combat/d10/close.py, strike.py)."""

    __slots__ = ("plans", "tokens", "token_of", "values", "sheets", "_next", "last_plan",
                 "last_defense", "rulesets", "attacks", "made")

    def __init__(self) -> None:
        self.plans: dict = {}  # plan key -> (ruleset, plan, the input it holds)
        self.tokens: dict = {}  # (id(intent), id(ctx)) -> (intent, ctx, token)
        self.token_of: dict = {}  # the (intent, ctx) value -> token
        self.values: dict = {}  # a sheet's field values -> its number
        self.sheets: dict = {}  # (id(sheet), soak?) -> (sheet, number)
        self._next = itertools.count(1)
        self.last_plan = None  # the last plan by the identity of its inputs
        self.last_defense = None  # the last defense plan, likewise
        # id(ruleset) -> (ruleset, its answers: combat/d10/soak.py, close.py)
        self.rulesets: dict = {}
        # CLOSE-08: (the declarations, the attacks on each target): combat/d10/close.py
        self.attacks: tuple = ((), MappingProxyType({}))
        # (a value class, its fields) -> the one value of that class built from them: an
        # attack's Sides and Context (combat/d10/close.py) and the declared Attack (strike.py,
        # foresee.py), equal from one ask to the next
        self.made: dict = {}

    def number(self) -> int:
        """A fresh number: never handed out twice by this memo, even after it starts again."""
        return next(self._next)

    def value_number(self, value: tuple) -> int:
        """The number naming ``value`` (a sheet's fields) in this memo. Negative, so it never
        equals an ``id()`` in a key beside it."""
        key = self.values.get(value)
        if key is None:
            if len(self.values) >= SIZE:
                self.values.clear()
            key = self.values[value] = -self.number()
        return key

    def sheet_number(self, sheet, soak: bool = False) -> int:
        """The number naming a Sheet's value (``Sheet.value``), or for ``soak`` its value
        without the health marks (``Sheet.soak_value``: what a soak pool may read), found by
        identity first: hashing every field costs more than the lookup it serves."""
        ids = (id(sheet), soak)
        hit = self.sheets.get(ids)
        if hit is not None and hit[0] is sheet:
            return hit[1]
        number = self.value_number(sheet.soak_value() if soak else sheet.value())
        if len(self.sheets) >= SIZE:
            self.sheets.clear()
        self.sheets[ids] = (sheet, number)  # holds the sheet, so its id is not reused
        return number

    def for_ruleset(self, ruleset) -> dict:
        """A dict of answers kept for ``ruleset`` alone (the entry holds the ruleset, so its
        id is not reused meanwhile); emptied when full."""
        hit = self.rulesets.get(id(ruleset))
        if hit is None or hit[0] is not ruleset or len(hit[1]) > SIZE:
            hit = self.rulesets[id(ruleset)] = (ruleset, {})
        return hit[1]

    def keep(self, key: tuple, value):
        """``value``, kept in ``made`` under ``key`` (its class and fields), so the next ask
        with equal fields gets this very object: building a frozen value with a dozen
        fields costs more than finding it, and a plan lookup finds the same object by
        identity at once (combat/d10/attack_memo.py ``_token``). ``key`` names every
        argument ``value`` was built from. (A helper taking the fields as keywords and
        building the key from them cost 8% of a simulated fight's instructions:
        bench/README.md.)"""
        if len(self.made) >= SIZE:
            self.made.clear()
        self.made[key] = value
        return value

    def forget_plans(self) -> None:
        """Empty the plans and the names of their inputs together: a token only names plan
        keys, and plans kept after their tokens are gone could never be found again."""
        self.plans.clear()
        self.token_of.clear()

    def store(self, key, entry) -> None:
        if len(self.plans) >= SIZE:
            self.forget_plans()
        self.plans[key] = entry
