"""A character sheet as one plain value: what is stored in one Attribute, and the rules for
changing it. Every change returns a new Sheet or raises InputError; nothing is half-applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .errors import InputError
from .health import DAMAGE_TYPES, HealthTrack
from .player_text import plain_text
from .traits import TraitCatalog
from .values import copyable, replace

VERSION = 1
IDENTITY = ("splat", "race", "breed", "form", "generation")
#: a specialty is a word or two on a sheet line ("Kicks", "Knife fighting"), not a note
SPECIALTY_MAX = 40


def _int(text: str, what: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise InputError(f"{what} needs a whole number, not '{text}'. Example: {what}=3") from None


# Spotlight Harm kinds kept on the sheet (seed 004, SPOT-13), apart from the d10 track.
HARM_KINDS = ("superficial", "aggravated")


@dataclass(frozen=True, slots=True)
class Pool:
    current: int
    permanent: int


@copyable  # copied at every step of a fight: combat/core/values.py
@dataclass(frozen=True)
class Sheet:
    splat: str = "mortal"
    race: str = ""
    breed: str = ""
    form: str = ""
    generation: int = 13
    traits: Mapping[str, int] = field(default_factory=dict)
    specialties: Mapping[str, str] = field(default_factory=dict)
    pools: Mapping[str, Pool] = field(default_factory=dict)
    health: Mapping[str, int] = field(default_factory=dict)
    weapons: tuple[str, ...] = ()
    armor: str = ""
    approved: bool = False
    # HLT-03..05: an outcome that outlasts the fight (``dead``, ``torpor``); "" while the
    # character lives and can act. Only staff undo it (+sheet/revive, +combat/heal =revive).
    fate: str = ""
    # The spotlight ruleset's Harm (SPOT-11, issue 10): Superficial and Aggravated marks kept
    # between fights, as ``health`` keeps the d10 levels. Empty: unhurt.
    harm: Mapping[str, int] = field(default_factory=dict)

    # ------------------------------------------------------------ storage

    @classmethod
    def from_dict(cls, data: Mapping | None) -> "Sheet":
        """Tolerant of missing keys, so an old or empty Attribute still reads."""
        data = dict(data or {})
        pools = {
            k: Pool(int(v.get("current", 0)), int(v.get("permanent", 0)))
            for k, v in (data.get("pools") or {}).items()
            if isinstance(v, Mapping)
        }
        return cls(
            splat=str(data.get("splat") or "mortal"),
            race=str(data.get("race") or ""),
            breed=str(data.get("breed") or ""),
            form=str(data.get("form") or ""),
            generation=int(data.get("generation") or 13),
            traits=MappingProxyType(
                {str(k): int(v) for k, v in (data.get("traits") or {}).items()}
            ),
            specialties=MappingProxyType(dict(data.get("specialties") or {})),
            pools=MappingProxyType(pools),
            health=MappingProxyType(
                {t: int((data.get("health") or {}).get(t, 0)) for t in DAMAGE_TYPES}
            ),
            weapons=tuple(data.get("weapons") or ()),
            armor=str(data.get("armor") or ""),
            approved=bool(data.get("approved", False)),
            fate=str(data.get("fate") or ""),
            harm=MappingProxyType(
                {k: int(v) for k, v in (data.get("harm") or {}).items() if int(v)}
            ),
        )

    def to_dict(self) -> dict:
        return {
            "version": VERSION,
            "splat": self.splat,
            "race": self.race,
            "breed": self.breed,
            "form": self.form,
            "generation": self.generation,
            "traits": dict(self.traits),
            "specialties": dict(self.specialties),
            "pools": {
                k: {"current": p.current, "permanent": p.permanent} for k, p in self.pools.items()
            },
            "health": dict(self.health),
            "weapons": list(self.weapons),
            "armor": self.armor,
            "approved": self.approved,
            **({"fate": self.fate} if self.fate else {}),
            "harm": dict(self.harm),
        }

    # ------------------------------------------------------------ reading

    def rating(self, catalog: TraitCatalog, name: str) -> int:
        """A trait's dots (its default when unset) or a pool's current value."""
        if name in self.pools:
            return self.pools[name].current
        if name in catalog.pools:
            return catalog.pools[name].default
        trait = catalog.traits.get(name)
        return self.traits.get(name, trait.default if trait else 0)

    def value(self) -> tuple:
        """Every field as one hashable tuple, built once per instance: plan memos
        (combat/core/memo.py) match sheets by value with it, so a sheet read afresh from an
        Attribute on each command still finds the plan an equal sheet left. Kept in the
        instance ``__dict__`` beside the (frozen) fields, like a cached hash;
        ``with_health`` drops it."""
        value = self.__dict__.get("_value")
        if value is None:
            value = self.__dict__["_value"] = (
                self.splat, self.race, self.breed, self.form, self.generation,
                tuple(self.traits.items()), tuple(self.specialties.items()),
                tuple(self.pools.items()), tuple(self.health.items()),
                tuple(self.weapons), self.armor, self.approved, self.fate,
                tuple(sorted(self.harm.items())))
        return value

    def soak_value(self) -> tuple:
        """``value`` of every field but the health marks: what a soak pool may read
        (ratings, pools, splat, armor; never the track: DICE-10, no wound penalty). A hit
        changes only the marks (``with_health`` keeps this tuple), so the next hit on the
        same character finds its soak pool again (combat/d10/damage.py ``_soak``)."""
        value = self.__dict__.get("_soak_value")
        if value is None:
            value = self.__dict__["_soak_value"] = (
                "no health", self.splat, self.race, self.breed, self.form,
                self.generation, tuple(self.traits.items()),
                tuple(self.specialties.items()), tuple(self.pools.items()),
                tuple(self.weapons), self.armor, self.approved, self.fate,
                tuple(sorted(self.harm.items())))
        return value

    @property
    def fate_text(self) -> str:
        """What keeps the character from acting, for players ("" when nothing does)."""
        return {"dead": "dead", "torpor": "in torpor"}.get(self.fate, self.fate)

    def has_specialty(self, name: str) -> bool:
        return bool(self.specialties.get(name))

    def track(self, section: dict) -> HealthTrack:
        return HealthTrack.from_section(section, dict(self.health))

    def pool(self, name: str) -> Pool | None:
        return self.pools.get(name)

    # ------------------------------------------------------------ changing

    def with_pools_for(self, catalog: TraitCatalog) -> "Sheet":
        """Give the sheet exactly the pools its splat has, keeping values it already had."""
        pools = {}
        for name in catalog.pools_for(self.splat):
            d = catalog.pools[name]
            pools[name] = self.pools.get(name, Pool(d.default, d.default))
        return replace(self, pools=MappingProxyType(pools))

    def set(self, catalog: TraitCatalog, name: str, value: str) -> tuple["Sheet", str]:
        """Set one trait, pool or identity field from typed text; returns (sheet, what changed)."""
        key = name.strip().lower()
        value = str(value).strip()
        if not key:
            raise InputError("Name a trait: +sheet/set dexterity=3")
        if key in IDENTITY:
            return self._set_identity(catalog, key, value)
        canon = catalog.resolve(name)
        if canon in catalog.pools:
            return self._set_pool(catalog, canon, value)
        trait = catalog.traits[canon]
        n = _int(value, canon)
        if not trait.lo <= n <= trait.hi:
            raise InputError(f"{canon} goes from {trait.lo} to {trait.hi}; {n} is outside that.")
        traits = dict(self.traits)
        traits[canon] = n
        return replace(self, traits=MappingProxyType(traits)), f"{canon} set to {n}"

    def _set_pool(self, catalog, canon, value) -> tuple["Sheet", str]:
        d = catalog.pools[canon]
        if canon not in catalog.pools_for(self.splat):
            raise InputError(
                f"A {self.splat} sheet has no {canon}. Its pools are: "
                f"{', '.join(catalog.pools_for(self.splat))}."
            )
        cur_text, _, perm_text = value.partition("/")
        cur = _int(cur_text, canon)
        perm = _int(perm_text, canon) if perm_text else (cur if d.has_permanent else d.hi)
        if not d.has_permanent:
            perm = d.hi
        for n in (cur, perm):
            if not d.lo <= n <= d.hi:
                raise InputError(f"{canon} goes from {d.lo} to {d.hi}; {n} is outside that.")
        if cur > perm and d.has_permanent:
            raise InputError(
                f"Current {canon} ({cur}) cannot be above permanent ({perm}). "
                f"Type {canon}=<current>/<permanent>, e.g. {canon}=3/5."
            )
        pools = dict(self.pools)
        pools[canon] = Pool(cur, perm)
        shown = f"{cur}/{perm}" if d.has_permanent else str(cur)
        return replace(self, pools=MappingProxyType(pools)), f"{canon} set to {shown}"

    def _set_identity(self, catalog, key, value) -> tuple["Sheet", str]:
        if key == "splat":
            splat, race = catalog.resolve_splat(value)
            sheet = replace(self, splat=splat, race=race, breed="", form="").with_pools_for(
                catalog)
            return sheet, f"splat set to {splat}" + (f", race {race}" if race else "")
        spec = catalog.splats.get(self.splat) or {}
        if key == "generation":
            if spec.get("uses_generation") != "yes":
                raise InputError(f"A {self.splat} has no generation.")
            n = _int(value, "generation")
            if not 3 <= n <= 15:
                raise InputError("Generation goes from 3 to 15.")
            return replace(self, generation=n), f"generation set to {n}"
        if key == "form":
            forms = (spec.get("forms") or {}).get(self.race, ())
            if not forms:
                raise InputError(
                    f"A {self.race or self.splat} has no forms to choose. "
                    f"Set a race first: +sheet/set race=Garou"
                )
            return self._choose(key, value, forms)
        options = spec.get("races" if key == "race" else "breeds") or ()
        if not options:
            raise InputError(f"A {self.splat} has no {key} to choose.")
        return self._choose(key, value, options)

    def _choose(self, key, value, options) -> tuple["Sheet", str]:
        for opt in options:
            if opt.lower() == value.lower():
                changes = {key: opt}
                if key == "race":
                    changes["form"] = ""
                return replace(self, **changes), f"{key} set to {opt}"
        raise InputError(f"'{value}' is not a {key} here. Choose one of: {', '.join(options)}.")

    def set_specialty(self, catalog: TraitCatalog, name: str, text: str) -> tuple["Sheet", str]:
        canon = catalog.resolve(name)
        if canon in catalog.pools:
            raise InputError(f"{canon} is a pool; specialties go on attributes and abilities.")
        specs = dict(self.specialties)
        typed, text = text.strip(), " ".join(plain_text(text).split())
        if typed and not text:
            raise InputError("Type the specialty in plain text, e.g. +sheet/spec brawl=Kicks")
        if len(text) > SPECIALTY_MAX:
            raise InputError(f"A specialty is at most {SPECIALTY_MAX} characters (that one is "
                             f"{len(text)}), e.g. +sheet/spec brawl=Kicks")
        if text:
            specs[canon] = text
            msg = f"{canon} specialty set to '{text}'"
        else:
            specs.pop(canon, None)
            msg = f"{canon} specialty cleared"
        return replace(self, specialties=MappingProxyType(specs)), msg

    def with_health(self, track: HealthTrack) -> "Sheet":
        # ``replace`` re-runs __init__ over every field; a Sheet has no __post_init__, so a
        # copy of the fields with the new marks is the same value, cheaper on every hit.
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_value", None)  # the marks differ: rebuilt on use
        # (``_soak_value`` stays: it leaves the marks out)
        object.__setattr__(new, "health", MappingProxyType(track.marks()))
        return new

    def with_harm(self, superficial: int, aggravated: int) -> "Sheet":
        """The spotlight Harm marks (issue 10: Harm persists on the character)."""
        marks = {k: v for k, v in (("superficial", superficial), ("aggravated", aggravated))
                 if v}
        return replace(self, harm=MappingProxyType(marks))

    def with_pool_current(self, pool: str, current: int) -> "Sheet":
        """A pool's current value set by the rules (a vampire's Hunger after feeding)."""
        p = self.pools.get(pool)
        if p is None:
            return self
        pools = dict(self.pools)
        pools[pool] = Pool(current, p.permanent)
        return replace(self, pools=MappingProxyType(pools))

    def spend(self, pool: str, n: int) -> "Sheet":
        """Spend ``n`` points of a pool or refuse with the reason (nothing changes)."""
        p = self.pools.get(pool)
        if p is None:
            raise InputError(f"A {self.splat} sheet has no {pool} to spend.")
        if p.current < n:
            raise InputError(f"Not enough {pool}: you have {p.current}, it takes {n}.")
        pools = dict(self.pools)
        pools[pool] = Pool(p.current - n, p.permanent)
        return replace(self, pools=MappingProxyType(pools))
