"""The spotlight engine's attack: a V5 contest (issue 10), because seed 004 gives no dice.

Seed 004 ("Combat") says what a turn holds (SPOT-07), how far a weapon reaches (SPOT-10) and
how Harm is marked (SPOT-11..14), but not which dice an attack rolls or how much Harm it
deals (those are its "Basic Moves", outside the seed). The seed is a V5 hack, so this
ruleset's YAML (``spotlight_attack:``) makes an attack what V5 makes it:

* the attacker rolls the traits listed for the weapon's range tag (or the ``default`` row),
  the defender rolls ``defense.pool``; both are V5 pools (``combat/spotlight/dice.py``: no ones
  cancelling, no botch, a pair of 10s = 4 successes), a vampire's with Hunger dice;
* the attacker hits on more successes than the defender (a tie is a miss); the Harm is the
  margin plus the weapon's damage (``bonus``: the weapon's own row in ``weapons``, else its
  tag's), of the row's ``kind`` (Superficial, unless the row says Aggravated: a vampire's
  bite, claws); a target who is not a vampire takes a sharp or piercing weapon's
  ``vs_mortal`` kind (V5: Aggravated from blades, bullets, arrows), and an attacker
  without fangs (not a vampire) bites as ``without_fangs`` says (no +2, Superficial);
* armor and the halving of Superficial Harm to vampires are applied where Harm is marked
  (``combat/spotlight.harm``).

Pure: no Evennia import; the dice come from an injected ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ..core.errors import InputError
from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct
from . import dice as v5dice

KIND = Str(choices=("superficial", "aggravated"))
ROW = Struct(
    optional={
        "pool": ListOf(Str(), min_len=1),
        "bonus": Int(0, 20),
        "kind": KIND,
        # V5: a sharp or piercing weapon's Harm to a target that is not a vampire
        "vs_mortal": KIND,
        # V5: what the row does in the hands (mouth) of an attacker without fangs
        "without_fangs": Struct(required={"bonus": Int(0, 20), "kind": KIND}),
        "source": Str(),
    }
)

ATTACK_SCHEMA = Struct(
    required={
        "default": Struct(
            required={"pool": ListOf(Str(), min_len=1)},
            optional={"bonus": Int(0, 20), "kind": KIND, "source": Str()},
            defaults={"bonus": 0, "kind": "superficial"},  # V5: fists, Superficial
        ),
        "defense": Struct(required={"pool": ListOf(Str())}, optional={"source": Str()}),
    },
    optional={
        "tags": MapOf(ROW),
        "weapons": MapOf(Struct(required={"tag": Str()},
                                optional={"bonus": Int(0, 20), "source": Str()})),
        "halve_superficial_for": ListOf(Str()),
        # V5: in close combat the defender may fight back (Brawl or Melee)
        "close_defense": Struct(required={"within": Str(), "fight_back": Bool()},
                                optional={"source": Str()}),
        # V5: a bite needs the target held; a grapple won holds it
        "bite_hold": Struct(required={"condition": Str(), "rounds": Int(1, 20)},
                            optional={"source": Str()}),
        "source": Str(),
    },
)

SECTIONS = MappingProxyType({"spotlight_attack": ATTACK_SCHEMA})


def check(ruleset) -> list[tuple[str, str]]:
    """Every trait a pool names is a trait of the ruleset; every weapon of the weapons table
    has a range tag (issue 10: a weapon without one cannot be used), and every tag named is
    a tag of ``spotlight_ranges``."""
    sec = ruleset.section("spotlight_attack")
    if not sec:
        return []
    known = ruleset.traits.traits
    out = []
    rows = [("spotlight_attack.default", sec["default"]),
            ("spotlight_attack.defense", sec["defense"])]
    rows += [(f"spotlight_attack.tags.{k}", v) for k, v in (sec.get("tags") or {}).items()]
    for path, row in rows:
        for name in row.get("pool") or ():
            if name not in known:
                out.append((f"{path}.pool", f"'{name}' is not a trait of this ruleset"))
    ranges = {str(t).lower() for t in ((ruleset.section("spotlight_ranges") or {}).get("tags")
                                       or {})}
    mapped = {str(k).lower(): v for k, v in (sec.get("weapons") or {}).items()}
    for name, row in (sec.get("weapons") or {}).items():
        if ranges and str(row["tag"]).lower() not in ranges:
            out.append((f"spotlight_attack.weapons.{name}.tag",
                        f"'{row['tag']}' is not a tag of spotlight_ranges"))
    for name in ((ruleset.section("weapons") or {}).get("items") or {}):
        if ranges and name.lower() not in mapped and name.lower() not in ranges:
            out.append(("spotlight_attack.weapons",
                        f"weapon '{name}' has no range tag: add it here with its tag"))
    return out


@dataclass(frozen=True, slots=True)
class AttackRow:
    """``kind`` / ``bonus``: the Harm against a vampire; ``vs_mortal``: the kind against
    anyone else (None: ``kind``); ``fangless``: (bonus, kind) for an attacker without fangs
    (None: as anyone)."""

    tag: str | None
    pool: tuple[str, ...]
    bonus: int
    kind: str
    vs_mortal: str | None = None
    fangless: tuple[int, str] | None = None

    def harm_of(self, fangs: bool, target_vampire: bool) -> tuple[int, str]:
        """(weapon damage, kind) for this attacker against this target."""
        bonus, kind = (self.bonus, self.kind)
        if self.fangless and not fangs:
            bonus, kind = self.fangless
        if self.vs_mortal and not target_vampire:
            kind = self.vs_mortal
        return bonus, kind


@dataclass(frozen=True, slots=True)
class Weapon:
    """What a typed or carried weapon is here: its range tag and V5 damage."""

    name: str
    tag: str
    bonus: int | None  # the weapon's own damage, else the tag's


def _section(ruleset) -> dict:
    sec = ruleset.section("spotlight_attack")
    if not sec:
        raise InputError(
            f"Ruleset '{ruleset.name}' has no spotlight_attack: table; mark Harm by hand "
            f"with +combat/damage <name>=<n> superficial|aggravated."
        )
    return sec


def attack_row(ruleset, tag: str | None) -> AttackRow:
    """The row for a range tag (a weapon, bite ...), or the default row."""
    sec = _section(ruleset)
    base = sec["default"]
    row = (sec.get("tags") or {}).get(str(tag).lower()) if tag else None
    row = row or {}
    kind = str(row.get("kind", base["kind"]))  # a tag's row states what differs
    fangless = row.get("without_fangs")
    return AttackRow(
        tag,
        tuple(row.get("pool") or base["pool"]),
        int(row.get("bonus", base["bonus"])),
        kind,
        row.get("vs_mortal"),
        (int(fangless["bonus"]), str(fangless["kind"])) if fangless else None,
    )


def weapon(ruleset, text: str, tags: Mapping) -> Weapon:
    """A weapon as typed (``pistol``, ``Pistol, light``, ``pist``) or as carried on the sheet:
    a range tag by its name, else a row of ``spotlight_attack.weapons`` (exact name, then a
    unique prefix). ``tags``: the range tags of ``spotlight_ranges`` (lowercased)."""
    low = str(text).strip().lower()
    if low in tags:
        return Weapon(low, low, None)
    rows = {str(k).lower(): (k, v) for k, v in (_section(ruleset).get("weapons") or {}).items()}
    hit = rows.get(low)
    if hit is None:
        starts = [v for k, v in rows.items() if k.startswith(low)] if low else []
        hit = starts[0] if len(starts) == 1 else None
    if hit is None:
        raise InputError(
            f"'{text}' has no range tag here. Tagged: {', '.join(sorted(tags)) or 'none'}; "
            f"or a weapon of +rules/weapons.")
    name, row = hit
    return Weapon(str(name), str(row["tag"]).lower(), row.get("bonus"))


def attack_defense(ruleset) -> tuple[str, ...]:
    """The traits of the defender's pool."""
    return tuple(_section(ruleset)["defense"]["pool"])


def bite_hold(ruleset) -> tuple[str, int] | None:
    """(condition, rounds): the hold a won grapple puts on, which a bite needs (V5); None:
    a bite needs no hold and a grapple is an attack like any other."""
    row = _section(ruleset).get("bite_hold")
    return (str(row["condition"]).lower(), int(row["rounds"])) if row else None


def close_within(ruleset) -> str | None:
    """The farthest band an attack reaches and is still close combat, where the defender
    may fight back (V5); None: the dodge is the only defense."""
    row = _section(ruleset).get("close_defense")
    return str(row["within"]) if row and row["fight_back"] else None


def halves(ruleset, family: str) -> bool:
    """V5: Superficial Harm to a vampire is halved (rounded up), after armor."""
    fams = _section(ruleset).get("halve_superficial_for") or ()
    return str(family).lower() in {f.lower() for f in fams}


def _roll(pool_names, ratings: Mapping[str, int], hunger: int, rng, rules,
          kept: v5dice.V5Roll | None = None, penalties=()) -> tuple[list, int, v5dice.V5Roll]:
    """The pool's terms (V5 Impairment's ``penalties`` last), size and dice: rolled, or
    ``kept`` (a Willpower reroll plays the attack again with the dice it already has)."""
    terms = [[name, int(ratings.get(name, 0))] for name in pool_names]
    terms += [[str(label), int(dice)] for label, dice in penalties]
    pool = max(0, sum(v for _, v in terms))
    if kept is not None:
        return terms, kept.pool, kept
    return terms, pool, v5dice.roll(pool, min(hunger, max(pool, 0)), rng, rules)


def _size(pool_names, ratings: Mapping[str, int], penalties) -> int:
    return sum(int(ratings.get(n, 0)) for n in pool_names) + sum(int(v) for _, v in penalties)


def resolve(
    ruleset,
    tag: str | None,
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    rng: random.Random,
    *,
    attacker_hunger: int = 0,
    defender_hunger: int = 0,
    attacker_vampire: bool = False,
    target_vampire: bool = False,
    bonus: int | None = None,
    kept: tuple[v5dice.V5Roll, v5dice.V5Roll] | None = None,
    impaired: tuple[list, list] = ((), ()),
    fight_back: tuple[AttackRow, int | None, list] | None = None,
) -> dict:
    """Roll one contested attack. ``attacker`` / ``defender``: trait -> dots for the pools;
    ``bonus``: the weapon's own damage (None: the tag's). A vampire has fangs (its bite's
    bonus and kind); a target that is not a vampire takes a sharp or piercing weapon's
    ``vs_mortal`` kind (V5). Returns the log's ``roll`` fields (attacker and defender dice
    apart, Hunger dice marked) plus ``harm`` and ``kind``. ``kept``: (attack, defense) dice
    already rolled, used instead of rolling (a Willpower reroll); ``impaired``: the V5
    Impairment terms (``[label, -dice]``) of the attacker's and the defender's pools;
    ``fight_back``: in close combat, the defender's own attack (its row, its weapon's own
    damage, its Impairment terms): it rolls that pool instead of the dodge when it is the
    larger (READING, attack.yaml), and winning it deals its margin + weapon damage to the
    attacker (``counter``)."""
    row = attack_row(ruleset, tag)
    sec = _section(ruleset)
    rules = v5dice.v5_rules(ruleset)
    ka, kd = kept or (None, None)
    a_terms, a_pool, a = _roll(row.pool, attacker, attacker_hunger, rng, rules, ka,
                               impaired[0])
    d_names, d_penalty, back = sec["defense"]["pool"], impaired[1], None
    if fight_back is not None and _size(fight_back[0].pool, defender, fight_back[2]) > _size(
            d_names, defender, d_penalty):
        back = fight_back
        d_names, d_penalty = back[0].pool, back[2]
    d_terms, d_pool, d = _roll(d_names, defender, defender_hunger, rng, rules, kd, d_penalty)
    margin = a.successes - d.successes
    hit = margin > 0  # READING (attack.yaml): a tie is a miss
    dmg, kind = row.harm_of(attacker_vampire, target_vampire)
    dmg = dmg if bonus is None else int(bonus)
    defense = {"traits": d_terms, "pool": d_pool, **d.as_dict(), "result": d.result(not hit)}
    if back is not None:
        defense.update(_counter(back, margin, target_vampire, attacker_vampire))
    return {"traits": a_terms, "pool": a_pool, **a.as_dict(), "result": a.result(hit),
            "defense": defense, "margin": margin, "bonus": dmg,
            "harm": margin + dmg if hit else 0, "kind": kind, "tag": tag, "dice": "v5"}


def _counter(back: tuple, margin: int, target_vampire: bool, attacker_vampire: bool) -> dict:
    """The defender who fought back (V5 close combat): its weapon's damage and kind, and
    the Harm it deals the attacker when it won (its margin + that damage)."""
    c_dmg, c_kind = back[0].harm_of(target_vampire, attacker_vampire)
    c_dmg = c_dmg if back[1] is None else int(back[1])
    return {"fights_back": True,
            "counter": {"bonus": c_dmg, "kind": c_kind, "tag": back[0].tag,
                        "harm": -margin + c_dmg if margin < 0 else 0}}
