"""The attack tables of one ruleset as small frozen values (weapons, armor, maneuvers,
locations) and the table rules that roll no dice: CLOSE-10 a form's maneuvers, MAN-03
movement, MAN-09 time powers, PWR-06 Fera trait difficulties and jagged skin, RNG-07
strafe shares. The validated plain data (maneuver_schemas.py) is turned into values once
per ruleset and kept on it (the engine resolves tens of thousands of attacks a second, so
per-attack YAML walking is avoided); the attack modules (``combat/d10/attack_*.py``) read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, InputError
from .player_text import did_you_mean
from .values import replace

from .maneuver_schemas import (
    ARMOR_SCHEMA,
    ATTACKS_SCHEMA,
    ATTACK_KINDS,
    COMPLICATIONS_SCHEMA,
    DEFENSES_SCHEMA,
    FERA_SCHEMA,
    MANEUVERS_SCHEMA,
    MOVEMENT_SCHEMA,
    RANGED_SCHEMA,
    TARGETING_SCHEMA,
    TIME_POWERS_SCHEMA,
    WEAPONS_SCHEMA,
    _DAMAGE,
)


@dataclass(frozen=True, slots=True)
class Damage:
    """A parsed damage expression: ``base`` is "str", "weapon", "fixed" or "none"."""

    base: str
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int) -> "Damage":
        m = _DAMAGE.match(str(text).strip())
        if not m:
            raise InputError(f"'{text}' is not a damage expression (Str+1, weapon+2, 5, none).")
        word, sign, num, fixed = m.groups()
        if fixed is not None:
            return cls("fixed", int(fixed))
        if word is None:
            return cls("none", 0)
        bonus = int(num or 0) * (-1 if sign == "-" else 1)
        return cls("weapon" if word.lower() == "weapon" else "str", bonus)


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    damage: Damage
    type: str
    kind: str
    cls: str = ""
    range: int = 0
    rate: int = 1
    clip: int = 0
    conceal: str = ""
    two_handed: bool = False
    length: int = 0
    throwing: bool = False
    weight_lb: int = 0
    autofire: bool = False
    burst: bool | None = None  # RNG-08: None: by the rate of fire; False: no burst setting
    source: str = ""
    material: str = ""
    scope: bool = False
    ammo: tuple[str, ...] = ()  # CLOSE-06: the ammunition kinds it can be loaded with
    spare_strings: int = 0  # ATK-07: spare bowstrings carried with a bow

    @classmethod
    def from_row(cls, name: str, row: dict) -> "Weapon":
        return cls(
            name=name, damage=Damage.parse(row["damage"]), type=row["type"], kind=row["kind"],
            cls=row["class"], range=row["range"], rate=row["rate"], clip=row["clip"],
            conceal=row["conceal"], two_handed=row["two_handed"], length=row["length"],
            throwing=row["throwing"], weight_lb=row["weight_lb"], autofire=row["autofire"],
            burst=row["burst"], source=row.get("source") or row["kind"],
            material=row["material"], scope=row["scope"], ammo=tuple(row["ammo"]),
            spare_strings=row["spare_strings"],
        )


@dataclass(frozen=True, slots=True)
class Armor:
    name: str
    rating: int
    penalty: int
    covers: tuple[str, ...] = ()
    applies_to: tuple[str, ...] = ("kinetic",)
    shield: bool = False

    def stops(self, source: str) -> bool:
        """DMG-11: does this armor stop this damage source (groups already expanded)?"""
        return source in self.applies_to

    def covers_part(self, part: str | None) -> bool:
        """DMG-11 / MAN-10: ``part`` None means no location was targeted (the whole body)."""
        return part is None or part in self.covers


@dataclass(frozen=True, slots=True)
class EffectSpec:
    effect: str
    who: str = "target"
    difficulty: int = 0
    absolute: int | None = None
    value: int = 0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Maneuver:
    """One row of ``maneuvers.list``; ``for_weapon`` applies its armed/unarmed overrides."""

    name: str
    kind: str
    damage: Damage
    type: str
    weapon: str = "optional"
    weapon_kinds: tuple[str, ...] = ()
    weapon_classes: tuple[str, ...] = ()
    needs_flag: str = ""
    min_rate: int = 0
    min_clip_percent: int = 0
    roll: bool = True
    attribute: str | None = None
    dice: int = 0
    difficulty: int = 0
    forms: str = ""
    natural: str = ""
    needs_grapple: tuple[str, ...] = ()
    target_needs_weapon: bool = False
    deals_damage: bool = True
    effects: tuple[EffectSpec, ...] = ()
    botch_effects: tuple[EffectSpec, ...] = ()
    rounds: int = 0
    empties_clip: bool = False
    targeting: bool = True
    max_spread_yards: int = 0
    dodge_difficulty: int = 0
    single_target: str = "all"
    rubber_becomes: str = ""
    source: str = ""
    armed: tuple[tuple[str, Any], ...] = ()  # overrides with a weapon (items of a mapping)
    unarmed: tuple[tuple[str, Any], ...] = ()  # overrides without one

    @classmethod
    def from_row(cls, name: str, row: dict) -> "Maneuver":
        def effects(key):
            return tuple(EffectSpec(e["effect"], e["who"], e["difficulty"], e["absolute"],
                                    e["value"], e["detail"])
                         for e in row[key])

        return cls(
            name=name, kind=row["kind"], damage=Damage.parse(row["damage"]), type=row["type"],
            weapon=row["weapon"], weapon_kinds=tuple(row["weapon_kinds"]),
            weapon_classes=tuple(row["weapon_classes"]), needs_flag=row["needs_flag"],
            min_rate=row["min_rate"], min_clip_percent=row["min_clip_percent"],
            roll=row["roll"], attribute=row["attribute"], dice=row["dice"],
            difficulty=row["difficulty"], forms=row["forms"], natural=row["natural"],
            needs_grapple=tuple(row["needs_grapple"]),
            target_needs_weapon=row["target_needs_weapon"], deals_damage=row["deals_damage"],
            effects=effects("effects"), botch_effects=effects("botch_effects"),
            rounds=row["rounds"], empties_clip=row["empties_clip"], targeting=row["targeting"],
            max_spread_yards=row["max_spread_yards"], dodge_difficulty=row["dodge_difficulty"],
            single_target=row["single_target"], rubber_becomes=row["rubber_becomes"],
            source=row["source"], armed=tuple(sorted(row["armed"].items())),
            unarmed=tuple(sorted(row["unarmed"].items())),
        )

    def for_weapon(self, armed: bool) -> "Maneuver":
        over = dict(self.armed if armed else self.unarmed)
        if not over:
            return self
        changes = {k: v for k, v in over.items() if k != "damage"}
        if "damage" in over:
            changes["damage"] = Damage.parse(over["damage"])
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Location:
    name: str
    size: str
    part: str
    difficulty: int
    damage: int
    bypasses_armor: bool = False


def _norm(text: str) -> str:
    return " ".join(str(text).lower().replace("_", " ").split())


def _known(table: dict, name: str, index: dict | None = None):
    """The entry ``name`` names, case and spacing aside, or None: for a caller asking
    whether a name is in a table (a parry item may be a weapon or a shield), where a miss is
    an answer, not a typo to suggest a fix for (the suggestion costs a fuzzy match).
    ``index``: normalised names to values; built here only when the exact name misses."""
    hit = table.get(name)
    if hit is None:
        if index is None:
            index = {_norm(k): v for k, v in table.items()}
        hit = index.get(_norm(name))
    return hit


def _find(table: dict, name: str, what: str, hint, index: dict | None = None):
    """Case-insensitive lookup with a suggestion: a player typed this name. ``index`` maps
    normalised names to values (built once per table, so the usual lookup is one dict hit).
    ``hint``: text, or a function making it (a sorted list of names, built only for the
    refusal: every attack looks maneuvers up)."""
    hit = _known(table, name, index)
    if hit is not None:
        return hit
    key = _norm(name)
    starts = [k for k in table if _norm(k).startswith(key)] if key else []
    if len(starts) == 1:
        return table[starts[0]]
    tip = did_you_mean(key, [_norm(k) for k in table])
    if len(starts) > 1:
        # Names may hold a comma ("Pistol, light"): a list of them is joined with "or".
        sep = " or " if any("," in k for k in starts) else ", "
        tip = f" It could be: {sep.join(starts[:6])}."
    if callable(hint):
        hint = hint()
    raise InputError(f"'{name}' is not a {what} here.{tip} {hint}".rstrip())


class Tables:
    """Typed views of one ruleset's attack sections, built once per ruleset."""

    def __init__(self, ruleset):
        sec = ruleset.section
        self.ruleset = ruleset
        # A section the ruleset lacks (switched off, or a root ruleset without it): the
        # schema's defaults, with no rows.
        self.attacks: dict = sec("attacks") or ATTACKS_SCHEMA.fill({"kinds": {}})
        self.defenses: dict = sec("defenses") or DEFENSES_SCHEMA.fill({"kinds": {}})
        self.man: dict = sec("maneuvers") or MANEUVERS_SCHEMA.fill({"list": {}})
        self.ranged: dict = sec("ranged") or RANGED_SCHEMA.fill({})
        self.targeting: dict = sec("targeting") or TARGETING_SCHEMA.fill(
            {"sizes": {}, "locations": {}})
        self.comp: dict = sec("complications") or COMPLICATIONS_SCHEMA.fill({})
        self.movement: dict = sec("movement") or MOVEMENT_SCHEMA.fill({"paces": {}})
        self.raw_time_powers: dict = sec("time_powers") or TIME_POWERS_SCHEMA.fill({"powers": {}})
        self.time_powers: dict = self.raw_time_powers["powers"]
        self.fera: dict = sec("fera_notes") or FERA_SCHEMA.fill({})
        weapons = sec("weapons") or WEAPONS_SCHEMA.fill({"items": {}})
        armor = sec("armor") or ARMOR_SCHEMA.fill({"items": {}})
        self.ammo: dict = weapons["ammo"]
        self.armor_rules: dict = {k: v for k, v in armor.items() if k != "items"}
        self.weapons = {n: Weapon.from_row(n, r) for n, r in weapons["items"].items()}
        groups = armor["source_groups"]

        def expand(names):
            return tuple(x for n in names for x in groups.get(n, (n,)))

        self.armors = {
            n: Armor(n, r["rating"], r["penalty"], tuple(r["covers"]), expand(r["applies_to"]),
                     r["shield"])
            for n, r in armor["items"].items()
        }
        self.maneuvers = {n: Maneuver.from_row(n, r) for n, r in self.man["list"].items()}
        sizes = self.targeting["sizes"]
        # A size no row of ``sizes`` names is refused by problems(): no change meanwhile.
        nosize = {"difficulty": 0, "damage": 0}
        self.locations = {
            n: Location(n, r["size"], r["part"], sizes.get(r["size"], nosize)["difficulty"],
                        sizes.get(r["size"], nosize)["damage"], r["bypasses_armor"])
            for n, r in self.targeting["locations"].items()
        }

        self._index = {id(tbl): {_norm(k): v for k, v in tbl.items()}
                       for tbl in (self.weapons, self.armors, self.maneuvers, self.locations)}

    # -------------------------------------------------------- lookups (player-typed names)

    def weapon(self, name: str) -> Weapon:
        return _find(self.weapons, name, "weapon", "See the weapons table: +rules/weapons",
                     self._index[id(self.weapons)])

    def known_weapon(self, name: str | None) -> Weapon | None:
        """The weapon ``name`` names, or None when it is no weapon (armor, a typo ...)."""
        return _known(self.weapons, name, self._index[id(self.weapons)]) if name else None

    def armor(self, name: str) -> Armor:
        return _find(self.armors, name, "kind of armor", "See the armor table: +rules/armor",
                     self._index[id(self.armors)])

    def maneuver(self, name: str) -> Maneuver:
        return _find(self.maneuvers, name, "maneuver",
                     lambda: "Maneuvers: " + ", ".join(sorted(self.maneuvers)) + ".",
                     self._index[id(self.maneuvers)])

    def location(self, name: str) -> Location:
        return _find(self.locations, name, "target location",
                     lambda: "Locations: " + ", ".join(sorted(self.locations)) + ".",
                     self._index[id(self.locations)])

    def problems(self) -> list[tuple[str, str]]:
        """Names one table uses that another must define (for a ruleset cross-check)."""
        out = []
        limits = self.man["form_limits"]
        for name, m in self.maneuvers.items():
            if m.forms and m.forms not in limits:
                out.append((f"maneuvers.list.{name}.forms", f"'{m.forms}' is not in form_limits"))
        for kind, name in self.attacks["default_maneuver"].items():
            if self.maneuvers and name not in self.maneuvers:
                out.append((f"attacks.default_maneuver.{kind}", f"'{name}' is not a maneuver"))
        for name, loc in self.locations.items():
            if loc.size not in self.targeting["sizes"]:
                out.append((f"targeting.locations.{name}.size", f"'{loc.size}' is not a size"))
        for w in self.targeting["stake"]["weapons"]:
            if w not in self.weapons:
                out.append(("targeting.stake.weapons", f"'{w}' is not in weapons.items"))
        for kind in ATTACK_KINDS:
            if self.attacks["kinds"] and kind not in self.attacks["kinds"]:
                out.append(("attacks.kinds", f"no row for attack kind '{kind}'"))
        catalog = self.ruleset.traits
        for kind, row in {**self.attacks["kinds"], **self.defenses["kinds"]}.items():
            for t in (row["attribute"], row["ability"],
                      *(a["ability"] for a in row["alternatives"])):
                if t not in catalog.traits:
                    out.append((f"kinds.{kind}", f"'{t}' is not a trait"))
        return out


def tables(ruleset) -> Tables:
    """The typed tables of ``ruleset`` (built on first use, then cached)."""
    return ruleset.derived(Tables)


def form_allowed(ruleset, maneuver: Maneuver, sheet) -> None:
    """CLOSE-10: refuse a maneuver the attacker's race cannot do in its current form. A
    group whose "*" key is listed holds every race it does not name to those forms (an
    empty list: not at all), as revised's arm sweep, "Garou in Crinos" (CLOSE-11)."""
    if not maneuver.forms:
        return
    limits = tables(ruleset).man["form_limits"][maneuver.forms]  # problems(): it is there
    what = maneuver.name.replace("_", " ")
    forms = limits.get(sheet.race)
    if forms is None and "*" in limits:
        if sheet.form not in limits["*"]:
            who = " or ".join(f"a {race} in {'/'.join(f)} form"
                              for race, f in limits.items() if race != "*")
            raise IllegalAction(f"Only {who} can {what}. Try sweep instead.")
        return
    if forms is not None and sheet.form and sheet.form not in forms:
        raise IllegalAction(
            f"A {sheet.race} can {what} only in "
            f"{'/'.join(forms)} form, not in {sheet.form}. Shift first, or bite/claw instead."
        )


def movement_yards(ruleset, sheet, pace: str, all_fours: bool = False) -> int:
    """MAN-03: yards a turn at a pace (walk 7, jog 12+Dex, run 20+3xDex), changed by form:
    Crinos +2 on all fours, Hispo x1.5, Lupus x2 (rounded down)."""
    t = tables(ruleset)
    paces = t.movement["paces"]
    if pace not in paces:
        raise InputError(f"'{pace}' is not a pace. Use one of: {', '.join(paces)}.")
    row = paces[pace]
    dex = sheet.rating(ruleset.traits, "Dexterity")
    yards = row["base"] + row["per_dexterity"] * dex
    form = t.movement["forms"].get(sheet.form) if sheet.form else None
    if form:
        yards = yards * form["percent"] // 100
        if all_fours:
            yards += form["all_fours_bonus"]
    return yards


@dataclass(frozen=True, slots=True)
class TimeGrant:
    """MAN-09: what a time power gives. ``when``: this_turn, next_turn, each_turn_rest_of_scene;
    ``initiative_steps``: initiative change of each extra action (Faith)."""

    power: str
    actions: int
    when: str
    initiative_steps: tuple[int, ...] = ()
    once_per_scene: bool = False
    note: str = ""


def time_power_actions(ruleset, name: str, amount: int) -> TimeGrant:
    """MAN-09: extra actions from Distort Time, Quicksilver, Dream Time, Faith, Tempus Fugit.
    ``amount`` is successes, points or dots as the row's ``per`` says."""
    powers = tables(ruleset).time_powers
    row = _find(powers, name, "time power", "Powers: " + ", ".join(powers) + ".")
    canon = next(k for k, v in powers.items() if v is row)
    off = tables(ruleset).raw_time_powers["disabled"]
    if canon in off:
        have = ", ".join(k for k in powers if k not in off)
        raise IllegalAction(f"This game's rules give no extra actions for {canon} "
                            f"(time powers here: {have}).")
    if amount < 0:
        raise InputError("The amount of successes or points cannot be negative.")
    n = row["amount"] if row["per"] == "fixed" else amount // row["divisor"]
    if row["cap"] is not None:
        n = min(n, row["cap"])
    step = row["initiative_step"]
    steps = tuple(step * (i + 1) for i in range(n)) if step else ()
    return TimeGrant(canon, n, row["when"], steps,
                     row["once_per_scene"] or row["once_per_scene_per_target"], row["note"])


def _race_form_match(row: dict, sheet) -> bool:
    if row["race"] != sheet.race:
        return False
    if "forms" in row and sheet.form not in row["forms"]:
        return False
    if "not_forms" in row and (not sheet.form or sheet.form in row["not_forms"]):
        return False
    return True


def fera_trait_difficulty(ruleset, sheet, traits, sense: str = "") -> list[tuple[str, int]]:
    """PWR-06: (reason, difficulty) for a pool using ``traits``: Corax Athletics in Crinos or
    Corvid -1; Gurahl Perception by smell -2 / by sight +2 outside Homid."""
    fera = tables(ruleset).fera
    out = []
    for row in fera["trait_difficulty"]:
        if row["trait"] in traits and _race_form_match(row, sheet):
            out.append((f"{sheet.race} in {sheet.form} ({row['trait']})", row["difficulty"]))
    if sense:
        for row in fera["senses"]:
            if row["trait"] in traits and row["sense"] == sense and _race_form_match(row, sheet):
                out.append((f"{sheet.race} {sense} in {sheet.form}", row["difficulty"]))
    return out


def jagged_skin(ruleset, target) -> tuple[int, str] | None:
    """PWR-06: Rokea in Chasmus or Gladius hurt whoever hits them barehanded."""
    for row in tables(ruleset).fera["jagged_skin"]:
        if _race_form_match(row, target):
            return row["damage"], row["type"]
    return None


def strafe_shares(total: int, targets: tuple[str, ...], leftover_to: tuple[str, ...] = (),
                  single_target: str = "halve") -> dict[str, int]:
    """RNG-07: successes divided evenly; the attacker places leftovers (one each, in the order
    given, then in target order); one target alone gets half (rounded down)."""
    if not targets:
        raise InputError("Strafing needs at least one target.")
    if len(targets) == 1:
        return {targets[0]: total // 2 if single_target == "halve" else total}
    base, left = divmod(total, len(targets))
    shares = dict.fromkeys(targets, base)
    for key in [k for k in leftover_to if k in shares] + [k for k in targets
                                                        if k not in leftover_to]:
        if left <= 0:
            break
        shares[key] += 1
        left -= 1
    return shares
