"""COMP-02, dazed: more successes after soak than the target's Stamina (mortals) or Stamina + 2
(supernaturals) leave it dazed; the pools a family may spend to shake it off
(``damage.dazed`` in the YAML).
"""

from __future__ import annotations


from ..core.errors import IllegalAction
from ..core.sheet import Sheet

from .damage_rules import damage_rules, daze_margin
from .damage_tables import family_of, require_section
from .wound_penalty import pay_costs


def daze_threshold(ruleset, sheet: Sheet) -> int:
    """COMP-02: Stamina for mortals (and ghouls, "mortal+"), Stamina + 2 for supernaturals."""
    rules = damage_rules(ruleset)
    return (sheet.rating(ruleset.traits, rules.daze_trait)
            + daze_margin(ruleset, sheet.splat, rules))


def is_dazed(ruleset, sheet: Sheet, successes_after_soak: int, limit: int | None = None) -> bool:
    """COMP-02: numetal "exceed" (over); everyman "equal to or over" (at_least). ``limit``:
    the target's ``daze_threshold`` when the caller already has it."""
    if successes_after_soak <= 0:
        return False
    if limit is None:
        limit = daze_threshold(ruleset, sheet)
    if damage_rules(ruleset).daze_at_least:
        return successes_after_soak >= limit
    return successes_after_soak > limit


def daze_pools(sheet: Sheet, ruleset) -> list[str]:
    """COMP-02 (everyman): the pools ``damage.dazed.spend_to_ignore`` lets this sheet's
    family spend a point of to ignore a daze (none: it stays dazed)."""
    allowed = (require_section(ruleset, "damage").get("dazed") or {}).get("spend_to_ignore") or {}
    family = family_of(sheet, ruleset)
    return [p for p, families in allowed.items() if family in families]


def daze_pool(sheet: Sheet, ruleset, pool: str) -> str:
    """COMP-02 (everyman): "A blood point, rage point or willpower (for mortals) can be spent
    to ignore this": the canonical name of ``pool`` when ``daze_pools`` has it, else
    IllegalAction saying what may be spent."""
    if not (require_section(ruleset, "damage").get("dazed") or {}).get("spend_to_ignore"):
        raise IllegalAction(
            "This game's rules give no way to shake off a daze; the "
            "next turn's actions are lost."
        )
    family = family_of(sheet, ruleset)
    mine = daze_pools(sheet, ruleset)
    if not mine:
        raise IllegalAction(f"Nothing lets a {family} shake off a daze in this game; the "
                            f"next turn's actions are lost.")
    canon = ruleset.traits.resolve(pool)
    if canon not in mine:
        raise IllegalAction(f"A {family} shakes off a daze with a point of {' or '.join(mine)}"
                            f", e.g. shake {mine[0].lower()}.")
    return canon


def shake_off_daze(sheet: Sheet, ruleset, pool: str) -> Sheet:
    """COMP-02 (everyman): pay the point of ``pool`` that ignores the daze (``daze_pool``)."""
    return pay_costs(sheet, {daze_pool(sheet, ruleset, pool): 1}, "shake off the daze")
