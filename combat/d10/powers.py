"""Limits on powers in combat (PWR-01..PWR-05); the movement wounds allow (HLT-07) is
wound_movement.py.

Tables are YAML: the ``powers:`` section (``rules/numetal/powers.yaml``); blood per turn
comes from the generation chart (``generations:``, read through
``combat.d10.healing_tables``). Nothing here rolls dice or changes a sheet: each check
returns the new per-turn tally or raises ``IllegalAction`` saying which limit refuses it
and what is allowed.

API
---
``TurnSpending(spent, effects, carried)``: what one character spent this turn; ``to_dict`` /
``from_dict`` for storage. ``new_turn(spending)`` keeps only the banked blood (PWR-01 house rule).
``check_spend(ruleset, sheet, spending, pool, amount, *, purpose="", one_action=False, has=())``
    PWR-01 blood per turn by generation (+ banking toward ``purpose`` over several turns),
    PWR-02 Rage/Gnosis, PWR-04 Yin/Yang chi and Demon Chi by Stamina.
``use_carried(spending, purpose) -> (spending, banked)``: the power is used; the bank empties.
``check_effect(ruleset, sheet, spending, kind, *, item="", in_effect=0)``
    PWR-03 one Arete effect a turn (artifact/invention count, talisman/device do not),
    PWR-04 one Lore evocation a turn, at most permanent Faith in effect.
``Effect(name, started_turn, lasts, starts_next_turn, kind)``; ``effect_for(ruleset, name,
turn)``; ``active(effects, turn)``; ``expire(effects, turn)``; ``count_active``: PWR-05.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

from .damage_tables import family_of
from ..core.errors import IllegalAction, InputError
from .healing_tables import blood_per_turn
from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct
from ..core.sheet import Sheet
from ..core.values import replace



_RULE = {"rule": Str(), "ref": Str()}


_RULE_DEFAULT = {"rule": "PWR"}  # a row without its rule ID: named by the family of rules


POWERS_SCHEMA = Struct(
    optional={
        "source": Str(),
        "disabled": ListOf(Str()),
        "caps": MapOf(
            Struct(
                required={"by": Str(("generation", "trait")), "families": ListOf(Str())},
                optional={"trait": Str(), **_RULE},
                defaults={"trait": "Stamina", **_RULE_DEFAULT},  # PWR-02: Stamina a turn
            )
        ),
        "carry_over": Struct(
            optional={
                "enabled": Bool(),
                "pools": ListOf(Str()),
                "not_for": ListOf(Str()),
                **_RULE,
            }
        ),
        "exclusive": ListOf(
            Struct(
                required={"pools": ListOf(Str(), min_len=2, max_len=2)},
                optional={
                    "families": ListOf(Str()),
                    "holders": ListOf(Str()),
                    "waived_by": MapOf(Int(0, 10)),
                    "one_action_waives": Bool(),
                    **_RULE,
                },
                defaults=_RULE_DEFAULT,
            )
        ),
        "effects": Struct(
            optional={
                "kinds": MapOf(Struct(required={"counts_as": Str()}, optional={"ref": Str()})),
                "limits": MapOf(
                    Struct(
                        required={"per_turn": Int(1, 20)},
                        optional={
                            "label": Str(),
                            "per_item": Bool(),
                            "max_in_effect": Str(),
                            **_RULE,
                        },
                        defaults=_RULE_DEFAULT,
                    )
                ),
            }
        ),
        "durations": Struct(
            optional={"default_turns": Int(1, 100), "next_turn": ListOf(Str()), "rule": Str()},
            defaults={"default_turns": 1, "next_turn": ()},  # PWR-05: one turn
        ),
    },
    defaults={"disabled": (), "caps": {}, "durations": {}},
)


def _key(name: str) -> str:
    return " ".join(str(name).lower().replace("_", " ").split())


def _sec(ruleset) -> dict:
    return ruleset.section("powers") or POWERS_SCHEMA.fill({})


def _on(ruleset, row: Mapping | None) -> bool:
    """A table row is in force unless its rule ID is listed under powers.disabled (a child
    ruleset switches whole rules off there: lists replace, so it states the full list)."""
    return row is not None and row.get("rule") not in _sec(ruleset)["disabled"]


def _counts(value, what: str) -> Mapping[str, int]:
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, Mapping):
        raise InputError(f"{what} must be a mapping of names to whole numbers.")
    out = {}
    for k, v in value.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{what}: '{k}: {v}' must be a name and a whole number of 0 or more.")
        if v:
            out[k] = v
    return MappingProxyType(out)


@dataclass(frozen=True, slots=True)
class TurnSpending:
    """What one character spent this turn. ``carried``: blood banked toward one power over
    several turns (PWR-01 house rule); it survives ``new_turn``, the rest does not."""

    spent: Mapping[str, int] = MappingProxyType({})  # pool -> points spent this turn
    effects: Mapping[str, int] = MappingProxyType({})  # counter -> effects this turn
    carried: Mapping[str, int] = MappingProxyType({})  # power -> blood banked toward it

    def to_dict(self) -> dict:
        return {
            "spent": dict(self.spent),
            "effects": dict(self.effects),
            "carried": dict(self.carried),
        }

    @classmethod
    def from_dict(cls, d) -> "TurnSpending":
        """Stored data back to a tally; None or {} is a fresh turn. Bad data is an InputError."""
        if d is None:
            return cls()
        if not isinstance(d, Mapping):
            raise InputError("Turn spending must be a mapping with spent, effects and carried.")
        unknown = set(d) - {"spent", "effects", "carried"}
        if unknown:
            raise InputError(f"Turn spending has unknown keys: {', '.join(sorted(unknown))}.")
        return cls(
            _counts(d.get("spent"), "spent"),
            _counts(d.get("effects"), "effects"),
            _counts(d.get("carried"), "carried"),
        )


def _bump(m: Mapping[str, int], key: str, n: int) -> Mapping[str, int]:
    out = dict(m)
    out[key] = out.get(key, 0) + n
    return MappingProxyType(out)


def new_turn(spending: TurnSpending) -> TurnSpending:
    """A new turn: spending and effects reset; blood banked toward a power stays (PWR-01)."""
    return TurnSpending(carried=spending.carried)


def use_carried(spending: TurnSpending, purpose: str) -> tuple[TurnSpending, int]:
    """PWR-01 house rule: the power is used on the last turn; returns (tally, blood banked)."""
    for name, n in spending.carried.items():
        if _key(name) == _key(purpose):
            left = {k: v for k, v in spending.carried.items() if k != name}
            return replace(spending, carried=MappingProxyType(left)), n
    return spending, 0


def _has(sheet: Sheet, ruleset, name: str, minimum: int, has: Iterable[str]) -> bool:
    """The sheet rates ``name`` at least ``minimum``, or the caller says it has it (a Gift or
    power the sheet does not hold as a trait, e.g. Chaos Mechanics)."""
    if _key(name) in {_key(h) for h in has}:
        return True
    cat = ruleset.traits
    return name in cat.traits and sheet.rating(cat, name) >= max(1, minimum)


def _cap(sheet: Sheet, ruleset, pool: str) -> tuple[int | None, str, dict | None]:
    """(cap, why, row) for spending ``pool`` in one turn; cap None = no cap."""
    row = _sec(ruleset)["caps"].get(pool)
    if not _on(ruleset, row) or family_of(sheet, ruleset) not in row["families"]:
        return None, "", None
    ref = row["rule"]  # the rule (stripped for players); its source is in the YAML
    if row["by"] == "generation":
        cap = blood_per_turn(sheet, ruleset)
        return cap, f"generation {sheet.generation} spends at most {cap} {pool} a turn ({ref})", row
    trait = row["trait"]
    cap = sheet.rating(ruleset.traits, trait)
    return cap, f"{pool} a turn is capped by {trait} {cap} ({ref})", row


def _banks(ruleset, pool: str) -> bool:
    """PWR-01 house rule in force for this pool."""
    co = _sec(ruleset).get("carry_over") or {}
    return bool(co.get("enabled") and _on(ruleset, co) and pool in (co.get("pools") or ()))


def _carries(ruleset, pool: str, purpose: str) -> bool:
    """Blood spent toward ``purpose`` is banked (not for powers listed under not_for)."""
    not_for = {_key(p) for p in (_sec(ruleset).get("carry_over") or {}).get("not_for") or ()}
    return bool(purpose.strip()) and _banks(ruleset, pool) and _key(purpose) not in not_for


def check_spend(
    ruleset,
    sheet: Sheet,
    spending: TurnSpending,
    pool: str,
    amount: int,
    *,
    purpose: str = "",
    one_action: bool = False,
    has: Iterable[str] = (),
) -> TurnSpending:
    """May ``sheet`` spend ``amount`` of ``pool`` now, given what it spent this turn?

    Returns the new tally, or raises IllegalAction naming the limit and what is allowed.
    ``purpose``: the power the points are for; with the PWR-01 house rule, blood spent toward
    it is banked over turns (see ``use_carried``). ``one_action``: this spend is for a single
    action that needs both pools of an exclusive pair (PWR-02). ``has``: Gifts/powers the
    caller knows the character has that are not sheet traits (Chaos Mechanics, Berserker).
    Does not check the pool holds enough points: ``Sheet.spend`` does that when paying.
    """
    pool = _spendable(ruleset, sheet, pool, amount)
    _check_exclusive(ruleset, sheet, spending, pool, one_action, tuple(has))
    carries = _carries(ruleset, pool, purpose)
    _check_cap(ruleset, sheet, spending, pool, amount, carries)
    new = replace(spending, spent=_bump(spending.spent, pool, amount))
    if carries:
        new = replace(new, carried=_banked(spending, pool, amount, purpose))
    return new


def _spendable(ruleset, sheet: Sheet, pool: str, amount: int) -> str:
    """The canonical name of ``pool``, once ``amount`` is a count of its points and the sheet
    keeps that pool."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise InputError(f"Spend how many points? '{amount}' is not a whole number of 1 or more.")
    pool = ruleset.traits.resolve(pool)
    if pool not in ruleset.traits.pools:
        raise InputError(f"{pool} is not a pool; spend Willpower, Blood, Rage, Gnosis, ...")
    if pool not in sheet.pools:
        raise InputError(f"A {sheet.splat} sheet has no {pool} to spend.")
    return pool


def _check_exclusive(ruleset, sheet: Sheet, spending: TurnSpending, pool: str,
                     one_action: bool, has: tuple[str, ...]) -> None:
    """PWR-02 / PWR-04: pairs of pools not both spent in one turn."""
    sec = _sec(ruleset)
    fam = family_of(sheet, ruleset)
    for pair in sec.get("exclusive") or ():
        if pool not in pair["pools"] or not _on(ruleset, pair):
            continue
        other = next(p for p in pair["pools"] if p != pool)
        if not spending.spent.get(other):
            continue
        holders = pair.get("holders") or ()
        if fam not in (pair.get("families") or ()) and not any(
            _has(sheet, ruleset, h, 1, has) for h in holders
        ):
            continue
        waivers = pair.get("waived_by") or {}
        if any(_has(sheet, ruleset, n, m, has) for n, m in waivers.items()):
            continue
        if one_action and pair.get("one_action_waives"):
            continue
        ways = [f"more {other} this turn", f"{pool} next turn"]
        if pair.get("one_action_waives"):
            ways.append("both for one action that needs both")
        ways += [f"{n} {m}+" if m > 1 else n for n, m in waivers.items()]
        raise IllegalAction(
            f"You can't spend {pair['pools'][0]} and {pair['pools'][1]} in the same turn "
            f"({pair['rule']}): {spending.spent[other]} "
            f"{other} already spent this turn. Allowed: {', '.join(ways[:-1])} or {ways[-1]}."
        )


def _check_cap(ruleset, sheet: Sheet, spending: TurnSpending, pool: str, amount: int,
               carries: bool) -> None:
    """PWR-01 / PWR-04: points of a pool a turn."""
    cap, why, _ = _cap(sheet, ruleset, pool)
    done = spending.spent.get(pool, 0)
    if cap is not None and done + amount > cap:
        left = max(0, cap - done)
        hint = f" You may spend {left} more this turn." if left else " Wait for the next turn."
        if _banks(ruleset, pool) and not carries:
            hint += (
                " A power that needs more: spend toward it over several turns with a "
                "purpose (the power's name), then use it on the last turn (house rule)."
            )
        raise IllegalAction(
            f"Too much {pool} in one turn: {why}; {done} already spent, this takes {amount}."
            + hint
        )


def _banked(spending: TurnSpending, pool: str, amount: int, purpose: str):
    """PWR-01 house rule: the bank holds blood toward ONE power ("then act on the last")."""
    for name, n in spending.carried.items():
        if _key(name) != _key(purpose) and n:
            raise IllegalAction(
                f"You are already banking {pool} toward {name} ({n} so far); use that "
                f"power first (the house rule banks toward one power at a time)."
            )
    name = next((k for k in spending.carried if _key(k) == _key(purpose)), purpose.strip())
    return _bump(spending.carried, name, amount)


def effect_kinds(ruleset) -> tuple[str, ...]:
    return tuple((_sec(ruleset).get("effects") or {}).get("kinds") or ())


def check_effect(
    ruleset,
    sheet: Sheet,
    spending: TurnSpending,
    kind: str,
    *,
    item: str = "",
    in_effect: int = 0,
) -> TurnSpending:
    """May ``sheet`` use one more effect of ``kind`` (arete, artifact, invention, talisman,
    device, lore, ...) this turn? Returns the new tally or raises IllegalAction.

    ``item``: which Talisman/Device (each has its own one-a-turn Arete, PWR-03); unnamed, the
    kind stands for one item. ``in_effect``: how many of the character's effects of this
    kind are in effect now (``count_active``), for caps such as permanent Faith (PWR-04).
    """
    sec = _sec(ruleset).get("effects") or {}
    kinds = sec.get("kinds") or {}
    found = next((k for k in kinds if _key(k) == _key(kind)), None)
    if not kinds:
        # A ruleset without PWR-03/PWR-04 (v20): nothing limits effects, so none is counted.
        raise InputError(
            f"{ruleset.name} sets no limit on power effects a turn, so there is nothing to "
            f"count: declare the power as other <text>, e.g. other casts a spell."
        )
    if found is None:
        raise InputError(
            f"'{kind}' is not a kind of effect. Use one of: {', '.join(kinds) or 'none'}."
        )
    counter = kinds[found]["counts_as"]
    limit = (sec.get("limits") or {}).get(counter)
    if not _on(ruleset, limit):
        return spending
    ref = limit["rule"]
    label = limit.get("label", counter)
    slot = f"{counter}:{_key(item) or _key(found)}" if limit.get("per_item") else counter
    used = spending.effects.get(slot, 0)
    if used >= limit["per_turn"]:
        what = f"{item or found}: " if limit.get("per_item") else ""
        raise IllegalAction(
            f"{what}only {limit['per_turn']} {label} a turn ({ref}); {used} used this turn. "
            f"Wait for the next turn."
        )
    cap_pool = limit.get("max_in_effect")
    if cap_pool:
        p = sheet.pools.get(cap_pool)
        cap = p.permanent if p else 0
        if in_effect >= cap:
            raise IllegalAction(
                f"At most {cap} {label}s in effect at once (permanent {cap_pool} {cap}; {ref}); "
                f"{in_effect} are in effect. End one first."
            )
    return replace(spending, effects=_bump(spending.effects, slot, 1))


@dataclass(frozen=True, slots=True)
class Effect:
    """A power's effect over turns. ``lasts``: turns (None: until ended, e.g. the scene).
    ``starts_next_turn``: it acts in the turn after it was used (Celerity, PWR-05)."""

    name: str
    started_turn: int
    lasts: int | None = 1
    starts_next_turn: bool = False
    kind: str = ""  # optional counter ("lore") for check_effect's in_effect

    @property
    def first_turn(self) -> int:
        return self.started_turn + (1 if self.starts_next_turn else 0)

    @property
    def last_turn(self) -> int | None:
        return None if self.lasts is None else self.first_turn + self.lasts - 1

    def active_on(self, turn: int) -> bool:
        last = self.last_turn
        return self.first_turn <= turn and (last is None or turn <= last)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "started_turn": self.started_turn,
            "lasts": self.lasts,
            "starts_next_turn": self.starts_next_turn,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "Effect":
        try:
            lasts = d.get("lasts", 1)
            return cls(
                str(d["name"]),
                int(d["started_turn"]),
                None if lasts is None else int(lasts),
                bool(d.get("starts_next_turn", False)),
                str(d.get("kind", "")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"Not an effect record: {d!r} ({exc}).") from None


def effect_for(ruleset, name: str, turn: int, *, lasts: int | None = 0, kind: str = "") -> Effect:
    """PWR-05: an effect used on ``turn``; ``lasts`` 0 = the ruleset's default (one turn),
    None = until ended. Powers listed under durations.next_turn act in the next turn."""
    dur = _sec(ruleset)["durations"]
    if lasts == 0:
        lasts = dur["default_turns"]
    elif lasts is not None and lasts < 0:
        raise InputError("An effect lasts 1 or more turns (or until ended).")
    nxt = _key(name) in {_key(n) for n in dur["next_turn"]}
    return Effect(name, turn, lasts, nxt, kind)


def active(effects: Iterable[Effect], turn: int) -> tuple[Effect, ...]:
    """The effects acting during ``turn``."""
    return tuple(e for e in effects if e.active_on(turn))


def expire(effects: Iterable[Effect], turn: int) -> tuple[Effect, ...]:
    """At the end of ``turn``: drop effects whose last turn is ``turn`` or earlier (PWR-05:
    a one-turn effect ends at the end of the turn it was used)."""
    return tuple(e for e in effects if e.last_turn is None or e.last_turn > turn)


def count_active(effects: Iterable[Effect], turn: int, kind: str) -> int:
    """How many effects of ``kind`` act during ``turn`` (check_effect's ``in_effect``)."""
    return sum(1 for e in active(effects, turn) if _key(e.kind) == _key(kind))


def check(ruleset) -> list[tuple[str, str]]:
    """Names the powers tables use that other tables must define."""
    out: list[tuple[str, str]] = []
    sec = _sec(ruleset)
    cat = ruleset.traits
    for pool, row in (sec.get("caps") or {}).items():
        if pool not in cat.pools:
            out.append((f"powers.caps.{pool}", f"'{pool}' is not in pools"))
        if row["by"] == "trait" and row.get("trait") not in cat.traits:
            out.append((f"powers.caps.{pool}.trait", f"'{row.get('trait')}' is not a trait"))
        if row["by"] == "generation" and ruleset.section("generations") is None:
            out.append((f"powers.caps.{pool}.by", "needs a generations: section"))
    co = sec.get("carry_over") or {}
    for i, pool in enumerate(co.get("pools") or ()):
        if pool not in (sec.get("caps") or {}):
            out.append((f"powers.carry_over.pools[{i}]", f"'{pool}' has no per-turn cap"))
    for i, pair in enumerate(sec.get("exclusive") or ()):
        for pool in pair["pools"]:
            if pool not in cat.pools:
                out.append((f"powers.exclusive[{i}].pools", f"'{pool}' is not in pools"))
    eff = sec.get("effects") or {}
    for kind, row in (eff.get("kinds") or {}).items():
        if row["counts_as"] not in (eff.get("limits") or {}):
            out.append(
                (f"powers.effects.kinds.{kind}.counts_as", f"'{row['counts_as']}' has no limit")
            )
    for name, row in (eff.get("limits") or {}).items():
        if row.get("max_in_effect") and row["max_in_effect"] not in cat.pools:
            out.append((f"powers.effects.limits.{name}.max_in_effect", "is not in pools"))
    return out
