"""Which traits a sheet may hold, their ranges and aliases: read from the ``traits:`` and
``splats:`` sections, so an admin adds a Discipline or a splat in YAML, not in code."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .errors import InputError
from .player_text import did_you_mean
from ..rules.schema import Int, ListOf, MapOf, Optional, Str, Struct

KINDS = ("attribute", "ability", "power", "merit", "background", "virtue", "other")

TRAITS_SCHEMA = Struct(
    required={
        "categories": MapOf(
            Struct(
                required={"kind": Str(KINDS), "names": ListOf(Str(), min_len=1)},
                optional={
                    "range": ListOf(Int(0, 100), 2, 2),
                    "default": Int(0, 100),
                    "label": Str(),
                },
                defaults={"range": (0, 5)},
            )
        )
    },
    optional={
        # DICE-06: a secondary ability names the primary abilities it relates to.
        "secondary_of": MapOf(ListOf(Str(), min_len=1)),
        "aliases": MapOf(Str()),
        "source": Str(),
        # Issue 28: the highest rating +sheet/set takes (staff may force past it). Absent:
        # none but each category's range. by_generation "yes": a splat that uses a
        # generation takes its generation chart row's trait_max instead of ``rating``.
        "maximum": Struct(
            required={"rating": Int(0, 100), "kinds": ListOf(Str(KINDS), min_len=1)},
            optional={"by_generation": Str(choices=("yes", "no")), "source": Str(),
                      # a trait with a range of its own, whatever the splat or generation
                      "ratings": MapOf(Int(0, 100))},
        ),
    },
)

POOLS_SCHEMA = MapOf(
    Struct(
        optional={
            "range": ListOf(Int(0, 1000), 2, 2),
            "default": Int(0, 1000),
            "label": Str(),
            "permanent": Str(choices=("yes", "no")),
            "aliases": ListOf(Str()),
        },
        defaults={"range": (0, 10), "permanent": "yes", "aliases": ()},
    )
)

SPLATS_SCHEMA = MapOf(
    Struct(
        required={"pools": ListOf(Str())},
        optional={
            "label": Str(),
            "family": Str(),  # soak/health rows look splats up by family (vampire, shifter, ...)
            "supernatural": Optional(Str(choices=("yes", "no"))),
            "races": ListOf(Str()),
            "breeds": ListOf(Str()),
            "forms": MapOf(ListOf(Str())),  # race -> its forms, breed form first
            "uses_generation": Str(choices=("yes", "no")),
            "source": Str(),
            "aliases": ListOf(Str()),  # other names players type: kindred, fae ...
            "race_aliases": MapOf(Str()),  # a name that means one race: werewolf -> Garou
        },
    )
)


@dataclass(frozen=True, slots=True)
class TraitDef:
    name: str
    category: str
    kind: str
    lo: int
    hi: int
    default: int


@dataclass(frozen=True, slots=True)
class PoolDef:
    name: str
    lo: int
    hi: int
    default: int
    has_permanent: bool


def _key(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split())


@dataclass(frozen=True)
class TraitCatalog:
    traits: Mapping[str, TraitDef]  # canonical name -> definition
    categories: Mapping[str, tuple[str, ...]]  # category -> names in sheet order
    labels: Mapping[str, str]
    secondary_of: Mapping[str, tuple[str, ...]]
    pools: Mapping[str, PoolDef]
    splats: Mapping[str, dict]
    _lookup: Mapping[str, str]  # lowercased name or alias -> canonical name

    @classmethod
    def from_ruleset(cls, ruleset) -> "TraitCatalog":
        section = ruleset.section("traits") or {"categories": {}}
        traits, categories, labels = {}, {}, {}
        for cat, spec in section["categories"].items():
            lo, hi = spec["range"]
            names = tuple(spec["names"])
            categories[cat] = names
            labels[cat] = spec.get("label", cat.title())
            for n in names:
                traits[n] = TraitDef(n, cat, spec["kind"], lo, hi, spec.get("default", lo))
        pools = {}
        for name, spec in (ruleset.section("pools") or {}).items():
            lo, hi = spec["range"]
            pools[name] = PoolDef(
                name, lo, hi, spec.get("default", lo), spec["permanent"] == "yes"
            )
        lookup = {_key(n): n for n in (*traits, *pools)}
        for alias, target in (section.get("aliases") or {}).items():
            lookup[_key(alias)] = target
        for name, spec in (ruleset.section("pools") or {}).items():
            for alias in spec["aliases"]:
                lookup[_key(alias)] = name
        return cls(
            MappingProxyType(traits),
            MappingProxyType(categories),
            MappingProxyType(labels),
            MappingProxyType({k: tuple(v) for k, v in (section.get("secondary_of") or {}).items()}),
            MappingProxyType(pools),
            MappingProxyType(dict(ruleset.section("splats") or {})),
            MappingProxyType(lookup),
        )

    def problems(self) -> list[tuple[str, str]]:
        """Cross-table checks the schema cannot make (names that must exist elsewhere)."""
        out = []
        for alias, target in self._lookup.items():
            if target not in self.traits and target not in self.pools:
                out.append((f"traits.aliases.{alias}", f"'{target}' is not a trait or pool"))
        for sec, prims in self.secondary_of.items():
            for p in (sec, *prims):
                if p not in self.traits:
                    out.append((f"traits.secondary_of.{sec}", f"'{p}' is not a trait"))
        for splat, spec in self.splats.items():
            for i, pool in enumerate(spec.get("pools", ())):
                if pool not in self.pools:
                    out.append((f"splats.{splat}.pools[{i}]", f"'{pool}' is not in pools"))
            for alias, race in (spec.get("race_aliases") or {}).items():
                if race not in spec.get("races", ()):
                    out.append((f"splats.{splat}.race_aliases.{alias}",
                                f"'{race}' is not one of its races"))
        return out

    # ------------------------------------------------------------------ lookups

    def resolve(self, name: str) -> str:
        """Canonical trait or pool name for what a player typed, or a helpful InputError."""
        key = _key(name)
        if key in self._lookup:
            return self._lookup[key]
        prefixed = sorted({v for k, v in self._lookup.items() if k.startswith(key)}) if key else []
        if len(prefixed) == 1:
            return prefixed[0]
        hint = did_you_mean(key, self._lookup, show=self._lookup.__getitem__)
        if len(prefixed) > 1:
            hint = f" It could be: {', '.join(prefixed[:6])}."
        raise InputError(f"'{name}' is not a trait here.{hint}")

    def resolve_splat(self, name: str) -> tuple[str, str]:
        """(splat, race) for what a player typed: a splat, its label or one of its
        ``aliases`` (race ""), or a race or ``race_aliases`` name that only one splat has
        (garou, werewolf -> shifter, Garou)."""
        key = _key(name)
        for splat, spec in self.splats.items():
            names = (splat, spec.get("label", splat), *spec.get("aliases", ()))
            if key in {_key(n) for n in names}:
                return splat, ""
        races = {}
        for splat, spec in self.splats.items():
            pairs = [(r, r) for r in spec.get("races", ())]
            pairs += list((spec.get("race_aliases") or {}).items())
            for word, race in pairs:
                races.setdefault(_key(word), set()).add((splat, race))
        if len(races.get(key, ())) == 1:
            return next(iter(races[key]))
        words = [*self.splats, *(a for s in self.splats.values() for a in s.get("aliases", ())),
                 *races]
        hint = did_you_mean(key, words, cutoff=0.5)
        raise InputError(
            f"'{name}' is not a splat here.{hint} Choose one of: {', '.join(self.splats)}."
        )

    def pools_for(self, splat: str) -> tuple[str, ...]:
        spec = self.splats.get(splat) or {}
        return tuple(spec.get("pools", ("Willpower",)))

    def family(self, splat: str) -> str:
        return (self.splats.get(splat) or {}).get("family", splat)
