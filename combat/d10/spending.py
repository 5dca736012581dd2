"""What a combatant spends on powers in a turn (PWR-01..04): the tally kept on the combatant
and a payment checked against it, for declaring (Celerity, Rage, a pool spent) and for
healing with blood or an Arete effect (``mending.py``).
"""

from __future__ import annotations

from . import powers
from ..core.errors import IllegalAction, InputError
from ..core.sheet import Sheet
from .fight import Fight
from .gear import Spending


def spending_of(f: Fight, key: str) -> powers.TurnSpending:
    """This turn's tally for ``key`` (PWR-01..04); a new turn starts afresh, blood banked
    toward a power stays (PWR-01)."""
    sp = f.state.get(key).spending
    if sp is None:
        return powers.TurnSpending()
    return sp.value if sp.turn == f.state.turn else powers.new_turn(sp.value)


def keep_spending(f: Fight, key: str, value: powers.TurnSpending) -> None:
    f.put(key, spending=Spending(f.state.turn, value))


def pay(f: Fight, key: str, pool: str, amount: int, purpose: str) -> None:
    """Take ``amount`` of ``pool`` after the per-turn power limits (PWR-01 blood per turn by
    generation, PWR-02 Rage and Gnosis not in one turn, PWR-04 chi)."""
    sheet: Sheet = f.sheet(key)
    canon = f.rules.traits.resolve(pool) if pool else pool
    name = f.name(key)
    if canon not in sheet.pools:
        have = ", ".join(sheet.pools) or "none"
        raise IllegalAction(f"{name} has no {pool} to spend (pools: {have}).")
    spending = powers.check_spend(f.rules, sheet, spending_of(f, key), canon, amount,
                                  purpose=purpose)
    try:
        new = sheet.spend(canon, amount)
    except InputError as err:
        raise IllegalAction(f"{name}: {err}") from None
    f.put_sheet(key, new)
    keep_spending(f, key, spending)
    f.emit("spend", actor=key, pool=canon, amount=amount, purpose=purpose,
           left=new.pools[canon].current)
