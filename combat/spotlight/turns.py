"""The spotlight engine (seed 004_c9ff39560d2353e0.txt "Combat"; SPOT-01..14 of the catalog).

A different engine behind the same interface as the d10 scheduler (``combat/d10/scheduler.py``):
every operation is ``(state, ..., ruleset, [rng]) -> Step(state, events)``, events are plain
JSON-safe dicts with an ``event`` key, an illegal intent raises ``IllegalAction`` saying what
is allowed instead and the caller's (frozen) state is untouched. ``prompts(state)`` and
``pending(state)`` say whom the combat waits for.

The round (SPOT-04..06, SPOT-08):

* ``initiative``: only PCs roll (SPOT-01), 2d6 + the highest of Wits / Blood Potency (the
  seed gives no dice; the YAML default, ``spotlight.initiative``). The order is highest first
  (SPOT-02); tied PCs share a slot and act simultaneously until they settle it with ``swap``
  (SPOT-03). The Storyteller's ``advance`` starts round 1.
* ``pcs``: the PC slot at ``cursor`` has the spotlight; when its turn ends the Storyteller
  picks which opponent acts (``next_opponent``) or passes (``advance``); then the next slot.
  Opponents with ``actions_per_round`` > 1 can be picked several times a round (SPOT-05).
* ``closing``: after every PC has acted, the opponents' remaining turns (the Storyteller
  picks) and environment events (``event``, any time: SPOT-09); when no opponent turn is
  left the next round starts at the top of the order (SPOT-06; ``rounds.auto_new_round``).
* ``opening``: a round where the opponents got the drop (SPOT-08) starts with the
  Storyteller picking opponents; their turns count against their actions for the round.
  When the PCs ambush, nobody is picked between PC slots that round: the opponents take
  their turns in ``closing``.

A turn (SPOT-07): one movement of one range step (``move``), one action (``act``), one free
action (``free``); ``done`` ends it (it also ends when all three are used, or on the
Storyteller's ``advance``). Ranges (SPOT-10) are kept per pair of combatants; weapons and
powers carry a range tag from ``spotlight_ranges.tags`` that ``act`` checks.

Harm (SPOT-11..14): ``harm`` marks Superficial or Aggravated harm at once; armor reduces
only the kinds ``spotlight_harm.armor_applies_to`` names (Aggravated bypasses it). At 0 HP a
vampire with fewer Aggravated marks than the Final Death threshold of the Blood Potency
table falls into torpor, otherwise meets Final Death. ``stake`` incapacitates a vampire at
once; ``feed`` revives one in torpor ``revive_after_rounds`` later with HP equal to the
Hunger slaked.

Readings where the seed is silent (listed for the closing note):
- ambushes reorder the round, they add no turns: ambushing opponents spend their turns for
  the round in the opening; an opponent not picked then can still be picked later;
- "after about one round" of SPOT-14: the fed vampire is back at the start of the next
  round (``revive_after_rounds: 1``); HP comes back by clearing Superficial marks;
- harm past 0 HP: Aggravated overwrites Superficial marks; extra Superficial harm is lost
  (``overflow`` switches); a PC or opponent who is not a vampire is "out" at 0 HP;
- a range tag is the farthest band a weapon reaches (``max``) with an optional nearest
  (``min``; bite: Intimate only); a move changes the range to one other combatant only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..core import dice
from ..core.conditions import ended_event, split_expired
from ..core.errors import IllegalAction, InputError, RuleIssue, RulesError
from ..rules.schema import Bool, Int, ListOf, MapOf, Str, Struct
from .rouse import SCHEMA as _ROUSE_SCHEMA
from .state import AMBUSH, ENGINE, Fighter, SpotlightState, pair
from ..core.values import plain
from ..core.values import replace

# ---------------------------------------------------------------- the YAML this module reads

RESOLUTIONS = ("v5", "moves")  # spotlight.resolution; the first is the schema's default

SPOTLIGHT_SCHEMA = Struct(
    required={
        "initiative": Struct(  # SPOT-01
            required={
                "dice": Int(0, 10),
                "sides": Int(2, 100),
                "traits": ListOf(Str(), min_len=1),
            },
            optional={"source": Str()},
        ),
    },
    optional={
        "turn": Struct(  # SPOT-07
            optional={
                "moves": Int(0, 5),
                "actions": Int(0, 5),
                "free_actions": Int(0, 5),
                "end_when_all_used": Bool(),
                "source": Str(),
            }
        ),
        "rounds": Struct(  # SPOT-04..06
            optional={
                "opponent_actions": Int(1, 10),
                "auto_new_round": Bool(),
                "source": Str(),
            }
        ),
        "conditions": Struct(  # issue 31: what +combat/mod may put on someone
            required={"names": ListOf(Str(), min_len=1)},
            optional={"source": Str()},
        ),
        # issue 31: how an action is resolved, a READING (seed 004 names no dice): V5
        # pools (spotlight_attack, v5_dice) or the seed's moves (spotlight_moves)
        "resolution": Str(choices=RESOLUTIONS),
        "source": Str(),
    },
    defaults={"resolution": RESOLUTIONS[0]},
)

RANGES_SCHEMA = Struct(  # SPOT-10
    required={
        "bands": ListOf(Str(), min_len=2),
        "default": Str(),
        "tags": MapOf(
            Struct(
                required={"max": Str()},
                optional={
                    "min": Str(),
                    "kind": Str(choices=("weapon", "power", "action")),
                    "source": Str(),
                },
            )
        ),
    },
    optional={"source": Str()},
)

HARM_SCHEMA = Struct(  # SPOT-11..14
    required={
        "blood_potency": MapOf(
            Struct(required={"hp": Int(1, 100), "final_death": Int(1, 100)}), key=Int(0, 20)
        ),
    },
    optional={
        "default_hp": Int(1, 100),
        "kinds": ListOf(Str(), min_len=1),
        "armor_applies_to": ListOf(Str(choices=("superficial", "aggravated"))),
        "overflow": Struct(
            optional={
                "superficial": Str(choices=("lost", "aggravated")),
                "aggravated": Str(choices=("lost", "replace_superficial")),
            }
        ),
        "revive_after_rounds": Int(0, 10),
        "max_slake": Int(1, 20),
        "feed_heals": ListOf(Str(choices=("superficial", "aggravated")), min_len=1),
        "scene_end": Struct(
            required={"dice": Int(0, 10), "success_at": Int(1, 100)},
            optional={"hunger_on_failure": Int(0, 10), "source": Str(),
                      # V5: Superficial Harm mended per Rouse Check, by Blood Potency
                      "mend_by_blood_potency": MapOf(Int(1, 20), key=Int(0, 20))},
        ),
        "vampire_families": ListOf(Str(), min_len=1),
        "rouse": _ROUSE_SCHEMA,  # issue 31: a Discipline Power's Rouse Check (V5)
        "source": Str(),
    },
)

SECTIONS = {
    "spotlight": SPOTLIGHT_SCHEMA,
    "spotlight_ranges": RANGES_SCHEMA,
    "spotlight_harm": HARM_SCHEMA,
}

KINDS = ("superficial", "aggravated")


def engine_of(ruleset) -> str:
    """Which engine a ruleset runs: ``ruleset.engine`` in its YAML (inherited), d10 if unset."""
    meta = ruleset.section("ruleset") or {}
    return meta.get("engine") or "d10"


@dataclass(frozen=True)
class SpotRules:
    """The three spotlight sections of one loaded ruleset, read once."""

    init_dice: int
    init_sides: int
    init_traits: tuple[str, ...]
    moves: int
    actions: int
    frees: int
    end_when_all_used: bool
    opponent_actions: int
    auto_new_round: bool
    bands: tuple[str, ...]
    default_band: int
    tags: Mapping[str, tuple[int, int]]  # lowercased tag -> (nearest, farthest) band index
    bp_table: tuple[tuple[int, int, int], ...]  # (blood potency, hp, final death), ascending
    default_hp: int
    armor_kinds: frozenset[str]
    overflow_superficial: str
    overflow_aggravated: str
    revive_after: int
    max_slake: int
    vampire_families: frozenset[str]
    feed_heals: tuple[str, ...]
    scene_end: Mapping | None  # the end-of-scene Hunger Check (None: no healing)

    @classmethod
    def from_ruleset(cls, ruleset) -> "SpotRules":
        spot = ruleset.section("spotlight")
        rng = ruleset.section("spotlight_ranges")
        harm = ruleset.section("spotlight_harm")
        missing = [
            n
            for n, s in (("spotlight", spot), ("spotlight_ranges", rng), ("spotlight_harm", harm))
            if not s
        ]
        if missing:
            raise RulesError(
                [
                    RuleIssue(
                        "",
                        m,
                        f"ruleset '{ruleset.name}' has no '{m}:' section; "
                        f"the spotlight engine needs it",
                    )
                    for m in missing
                ]
            )
        problems = _problems(spot, rng, harm)
        if problems:
            raise RulesError([RuleIssue("", p, m) for p, m in problems])
        bands = tuple(rng["bands"])
        low = {b.lower(): i for i, b in enumerate(bands)}
        tags = {}
        for name, t in rng["tags"].items():
            tags[name.strip().lower()] = (
                low[t.get("min", bands[0]).lower()],
                low[t["max"].lower()],
            )
        turn, rounds = spot.get("turn") or {}, spot.get("rounds") or {}
        over = harm.get("overflow") or {}
        return cls(
            init_dice=spot["initiative"]["dice"],
            init_sides=spot["initiative"]["sides"],
            init_traits=tuple(spot["initiative"]["traits"]),
            moves=turn.get("moves", 1),
            actions=turn.get("actions", 1),
            frees=turn.get("free_actions", 1),
            end_when_all_used=turn.get("end_when_all_used", True),
            opponent_actions=rounds.get("opponent_actions", 1),
            auto_new_round=rounds.get("auto_new_round", True),
            bands=bands,
            default_band=low[rng["default"].lower()],
            tags=tags,
            bp_table=tuple(
                sorted(
                    (int(bp), r["hp"], r["final_death"]) for bp, r in harm["blood_potency"].items()
                )
            ),
            default_hp=harm.get("default_hp", 6),
            armor_kinds=frozenset(harm.get("armor_applies_to", ("superficial",))),
            overflow_superficial=over.get("superficial", "lost"),
            overflow_aggravated=over.get("aggravated", "replace_superficial"),
            revive_after=harm.get("revive_after_rounds", 1),
            max_slake=harm.get("max_slake", 5),
            vampire_families=frozenset(
                f.lower() for f in harm.get("vampire_families", ("vampire",))
            ),
            feed_heals=tuple(harm.get("feed_heals", ("aggravated", "superficial"))),
            scene_end=harm.get("scene_end"),
        )


def _problems(spot, rng, harm) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if rng:
        bands = [b.lower() for b in rng.get("bands") or ()]
        if len(set(bands)) != len(bands):
            out.append(("spotlight_ranges.bands", "a band is named twice"))
        if rng.get("default") and rng["default"].lower() not in bands:
            out.append(("spotlight_ranges.default", f"'{rng['default']}' is not in bands"))
        for name, t in (rng.get("tags") or {}).items():
            ends = []
            for end in ("min", "max"):
                if t.get(end) is None:
                    continue
                if t[end].lower() not in bands:
                    out.append(
                        (f"spotlight_ranges.tags.{name}.{end}", f"'{t[end]}' is not in bands")
                    )
                else:
                    ends.append(bands.index(t[end].lower()))
            if len(ends) == 2 and ends[0] > ends[1]:
                out.append((f"spotlight_ranges.tags.{name}", "min is farther than max"))
    if harm:
        for bp, row in (harm.get("blood_potency") or {}).items():
            if row.get("final_death") and row.get("hp") and row["final_death"] > row["hp"]:
                out.append(
                    (f"spotlight_harm.blood_potency.{bp}.final_death", "is above the row's hp")
                )
    return out


def check(ruleset) -> list[tuple[str, str]]:
    """Cross-section problems for ``sections.cross_check``: band names the tags use, and the
    initiative traits, which must be traits or pools of the ruleset."""
    spot = ruleset.section("spotlight")
    out = _problems(spot, ruleset.section("spotlight_ranges"), ruleset.section("spotlight_harm"))
    if spot:
        cat = ruleset.traits
        for i, name in enumerate(spot["initiative"]["traits"]):
            if name not in cat.traits and name not in cat.pools:
                out.append(
                    (f"spotlight.initiative.traits[{i}]", f"'{name}' is not a trait or pool")
                )
    if engine_of(ruleset) == ENGINE:
        for sec in SECTIONS:
            if not ruleset.section(sec):
                out.append((sec, "missing: the spotlight engine needs this section"))
    return out


def spot_rules(ruleset) -> SpotRules:
    return ruleset.derived(SpotRules.from_ruleset)


# ---------------------------------------------------------------- results and helpers


@dataclass(frozen=True, slots=True)
class Step:
    """The new state and what happened, in order (the d10 scheduler's shape)."""

    state: SpotlightState
    events: tuple[dict, ...]


def _live(st: SpotlightState) -> None:
    if st.stage == "ended":
        raise IllegalAction("This combat has ended. Start a new one with +combat/start.")


def _names(st: SpotlightState, keys: Iterable[str]) -> str:
    idx = st.index()
    return ", ".join(st.combatants[idx[k]].name if k in idx else k for k in keys) or "nobody"


def _put(st: SpotlightState, *fs: Fighter) -> SpotlightState:
    return st.with_fighters({f.key: f for f in fs})


def _band_name(rules: SpotRules, i: int) -> str:
    return rules.bands[i]


def _parse_band(rules: SpotRules, text: str) -> int:
    t = str(text).strip().lower()
    hits = [i for i, b in enumerate(rules.bands) if b.lower().startswith(t)] if t else []
    exact = [i for i, b in enumerate(rules.bands) if b.lower() == t]
    if exact:
        return exact[0]
    if len(hits) == 1:
        return hits[0]
    raise InputError(f"'{text}' is not a range. Ranges: {', '.join(rules.bands)}.")


def hp_row(rules: SpotRules, blood_potency: int) -> tuple[int, int]:
    """SPOT-13: (max HP, Aggravated marks for Final Death) by Blood Potency. The seed's rows
    start at "BP 0-1" and stop at BP 5; a BP past the last row uses the last row."""
    row = rules.bp_table[0]
    for r in rules.bp_table:
        if r[0] <= blood_potency:
            row = r
    return row[1], row[2]


def _open(rules: SpotRules, st: SpotlightState) -> list[str]:
    """Opponents the Storyteller can still pick this round (SPOT-04/05)."""
    return [
        c.key
        for c in st.combatants
        if c.side == "opponent" and c.can_act(st.round) and c.turns < c.actions_per_round
    ]


def _left(rules: SpotRules, c: Fighter) -> str:
    parts = []
    if c.moves < rules.moves:
        parts.append("a move (+combat/move)")
    if c.actions < rules.actions:
        parts.append("an action (+combat/act)")
    if c.frees < rules.frees:
        parts.append("a free action (+combat/free)")
    return ", ".join(parts) or "nothing: end the turn with +combat/done"


# ---------------------------------------------------------------- queries


def prompts(state: SpotlightState) -> list[tuple[str, str]]:
    """(key, what) for everyone the combat waits for: ``initiative`` (a PC to roll before
    round 1), ``act`` (holds the spotlight), ``pick`` (an opponent the Storyteller may pick
    now). Empty in a running round: the Storyteller moves on with ``advance``."""
    st = state
    if st.stage == "ended":
        return []
    if st.stage == "initiative":
        return [(c.key, "initiative") for c in st.combatants if c.is_pc and c.init_total is None]
    if st.holder:
        idx = st.index()
        return [(k, "act") for k in st.holder if not st.combatants[idx[k]].done]
    if st.stage in ("opening", "closing") or st.picking:
        return [
            (c.key, "pick")
            for c in st.combatants
            if c.side == "opponent" and c.can_act(st.round) and c.turns < c.actions_per_round
        ]
    return []


def pending(state: SpotlightState) -> list[str]:
    return [k for k, _ in prompts(state)]


def order_view(state: SpotlightState) -> list[dict]:
    """SPOT-02: the order as everyone sees it, highest first; a slot of several is a tie
    acting simultaneously (SPOT-03)."""
    idx = state.index()
    out = []
    for i, slot in enumerate(state.order):
        out.append(
            {
                "slot": i + 1,
                "keys": list(slot),
                "total": state.combatants[idx[slot[0]]].init_total if slot else None,
                "current": state.stage == "pcs" and i == state.cursor,
            }
        )
    return out


def range_between(state: SpotlightState, a: str, b: str, ruleset) -> str:
    """SPOT-10: the band between two combatants (the YAML default until someone sets it)."""
    rules = spot_rules(ruleset)
    state.find(a), state.find(b)
    return _band_name(rules, _band(state, rules, a, b))


def _band(st: SpotlightState, rules: SpotRules, a: str, b: str) -> int:
    for x, y, n in st.ranges:
        if (x, y) == pair(a, b):
            return n
    return rules.default_band if st.options.band is None else st.options.band


def _set_band(st: SpotlightState, a: str, b: str, band: int) -> SpotlightState:
    p = pair(a, b)
    rest = tuple(r for r in st.ranges if (r[0], r[1]) != p)
    return replace(st, ranges=tuple(sorted(rest + ((p[0], p[1], band),))))


def ranges_of(state: SpotlightState, key: str, ruleset) -> list[tuple[str, str]]:
    """Every other combatant and the band to them, for ``+combat``'s display."""
    rules = spot_rules(ruleset)
    return [
        (c.key, _band_name(rules, _band(state, rules, key, c.key)))
        for c in state.combatants
        if c.key != key
    ]


# ---------------------------------------------------------------- moving the round on


def _spotlight_event(st: SpotlightState, keys: tuple[str, ...], side: str) -> dict:
    return {
        "event": "spotlight",
        "round": st.round,
        "stage": st.stage,
        "who": list(keys),
        "side": side,
    }


def _new_round(st: SpotlightState, rules: SpotRules, events: list) -> SpotlightState:
    rnd = st.round + 1
    out = []
    revived, ended = [], []
    for c in st.combatants:
        c = replace(c.fresh_turn(), turns=0)
        if c.conditions:  # issue 31: those whose rounds ran out end as this one begins
            kept, gone = split_expired(c.conditions, rnd)
            c = replace(c, conditions=kept)
            ended += [{"event": "condition", **ended_event(c.key, k), "round": rnd}
                      for k in gone if k.announce]
        if c.status == "torpor" and c.revive_round is not None and c.revive_round <= rnd:
            # SPOT-14: back with HP equal to the Hunger slaked: clear Superficial marks
            # (Aggravated stays; it "can't be healed mid-combat ... unless you Feed").
            target = min(c.revive_hp, c.hp_max - c.aggravated)
            sup = max(0, c.hp_max - c.aggravated - target)
            before = c.hp
            c = replace(c, superficial=sup, status="active", revive_round=None, revive_hp=0)
            revived.append(
                {
                    "event": "revive",
                    "round": rnd,
                    "actor": c.key,
                    "hp_before": before,
                    "hp_after": c.hp,
                }
            )
        out.append(c)
    ambush = st.ambush if st.ambush_round == rnd else None
    st = replace(
        st,
        round=rnd,
        combatants=tuple(out),
        stage="opening" if ambush == "opponents" else "pcs",
        cursor=0,
        holder=(),
        picking=False,
    )
    events.append({"event": "round", "round": rnd, "ambush": ambush, "order": order_view(st)})
    events.extend(revived)
    events.extend(ended)
    return st


def _end_turn(st: SpotlightState, rules: SpotRules) -> SpotlightState:
    """The holders' turn is over: where the round goes next."""
    idx = st.index()
    was_pc = bool(st.holder) and st.combatants[idx[st.holder[0]]].is_pc
    changed = {k: replace(st.combatants[idx[k]], done=True) for k in st.holder if k in idx}
    st = replace(st.with_fighters(changed), holder=())
    if st.stage == "pcs":
        if was_pc:
            st = replace(st, picking=True)  # SPOT-04: the Storyteller picks an opponent
        else:
            st = replace(st, picking=False, cursor=st.cursor + 1)
    return st


def _settle(
    st: SpotlightState, rules: SpotRules, events: list, *, rounds: int = 1
) -> SpotlightState:
    """Move on while nobody needs to be waited for. At most ``rounds`` new rounds per call."""
    while st.stage not in ("initiative", "ended"):
        idx = st.index()
        if st.holder:
            live = [
                k
                for k in st.holder
                if k in idx
                and st.combatants[idx[k]].can_act(st.round)
                and not st.combatants[idx[k]].done
            ]
            if live:
                break
            st = _end_turn(st, rules)
            continue
        ambushing_pcs = st.ambush == "pcs" and st.ambush_round == st.round
        if st.stage == "opening":
            if _open(rules, st):
                break
            st = replace(st, stage="pcs", cursor=0, picking=False)
            continue
        if st.stage == "pcs":
            if st.picking and not _pcs_left(st):
                # SPOT-06: the last PC has acted: the round goes on with the remaining
                # opponent actions and the environment (closing), then a new round; the
                # pick after the last PC is that closing, not a pick of its own.
                st = replace(st, stage="closing", picking=False, cursor=len(st.order))
                continue
            if st.picking:
                if _open(rules, st) and not ambushing_pcs:
                    break
                st = replace(st, picking=False, cursor=st.cursor + 1)
                continue
            if st.cursor < len(st.order):
                keys = tuple(
                    k
                    for k in st.order[st.cursor]
                    if k in idx and st.combatants[idx[k]].can_act(st.round)
                )
                if keys:
                    fresh = {k: st.combatants[idx[k]].fresh_turn() for k in keys}
                    st = replace(st.with_fighters(fresh), holder=keys)
                    events.append(_spotlight_event(st, keys, "pc"))
                    break
                st = replace(st, cursor=st.cursor + 1)
                continue
            st = replace(st, stage="closing", picking=False)  # SPOT-06
            continue
        # closing: the opponents' remaining turns, then a new round from the top
        if _open(rules, st) or not rules.auto_new_round or rounds <= 0:
            break
        rounds -= 1
        st = _new_round(st, rules, events)
    return st


def _pcs_left(st: SpotlightState) -> bool:
    """A PC slot after the cursor still has someone who can act this round."""
    idx = st.index()
    return any(
        k in idx and st.combatants[idx[k]].can_act(st.round)
        for slot in st.order[st.cursor + 1 :]
        for k in slot
    )


def _where(st: SpotlightState) -> tuple:
    return (st.round, st.stage, st.cursor, st.holder, st.picking, tuple(prompts(st)))


def _finish(
    before: SpotlightState, st: SpotlightState, rules: SpotRules, events: list, *, rounds: int = 1
) -> Step:
    st = _settle(st, rules, events, rounds=rounds)
    if _where(st) != _where(before) and st.stage != "ended":
        groups: dict[str, list[str]] = {}
        for k, w in prompts(st):
            groups.setdefault(w, []).append(k)
        if not groups:
            groups["advance"] = []  # nobody to wait for: the Storyteller moves on
        for what, who in groups.items():
            events.append(
                {"event": "prompt", "round": st.round, "stage": st.stage, "what": what, "who": who}
            )
        st = replace(st, deadline=None)
    return Step(replace(st, seq=st.seq + 1), tuple(events))


# ---------------------------------------------------------------- setting up


def new_combat(id: str, ruleset, **_options) -> SpotlightState:
    """An empty spotlight combat before round 1. Options of the d10 engine (mode, flags,
    re-rolling) have no meaning here and are ignored, so one ``+combat/start`` serves both."""
    spot_rules(ruleset)  # refuse a ruleset without the spotlight tables now, not mid-fight
    return SpotlightState(str(id), ruleset.name)


def is_vampire(sheet, ruleset) -> bool:
    rules = spot_rules(ruleset)
    return ruleset.traits.family(sheet.splat).lower() in rules.vampire_families


def sheet_profile(sheet, ruleset) -> dict:
    """What ``join`` needs from a ``Sheet``: vampire or not, Blood Potency (SPOT-13), and the
    Harm the character carries from earlier fights (issue 10: Harm lives on the sheet)."""
    cat = ruleset.traits
    vampire = is_vampire(sheet, ruleset)
    bp = sheet.rating(cat, "Blood Potency") if "Blood Potency" in cat.pools else 0
    return {"vampire": vampire, "blood_potency": bp if vampire else 0,
            "superficial": sheet.harm.get("superficial", 0),
            "aggravated": sheet.harm.get("aggravated", 0)}


def initiative_ratings(sheet, ruleset) -> dict[str, int]:
    """SPOT-01: the ratings of the YAML's initiative traits on a sheet (Wits, Blood Potency)."""
    rules = spot_rules(ruleset)
    cat = ruleset.traits
    return {name: sheet.rating(cat, name) for name in rules.init_traits}


def sheet_health(sheet, ruleset) -> tuple[int, int, int]:
    """(max HP, superficial, aggravated) of a character as ``join`` brings it into a fight:
    a vampire's HP from the Blood Potency table (SPOT-13), anyone else's the YAML's
    ``default_hp``; the Harm the sheet carries kept within that track, Aggravated first."""
    p = sheet_profile(sheet, ruleset)
    rules = spot_rules(ruleset)
    hp_max = hp_row(rules, p["blood_potency"])[0] if p["vampire"] else rules.default_hp
    aggravated = min(p["aggravated"], hp_max)
    return hp_max, min(p["superficial"], hp_max - aggravated), aggravated


def _whole(value, what: str, lo: int = 0, hi: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < lo
        or (hi is not None and value > hi)
    ):
        span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise InputError(f"{what} must be a whole number, {span}, not {value!r}.")
    return value


def _zero_outcome(c: Fighter) -> tuple[str, str]:
    """SPOT-13: the status and outcome of a fighter at 0 HP."""
    if not c.vampire:
        return "out", "out"
    if c.final_death_at is not None and c.aggravated >= c.final_death_at:
        return "dead", "final_death"
    return "torpor", "torpor"


def join(
    state: SpotlightState,
    key: str,
    name: str,
    ruleset,
    *,
    is_npc: bool = False,
    controller: str | None = None,
    vampire: bool = False,
    blood_potency: int = 0,
    hp: int | None = None,
    actions_per_round: int | None = None,
    superficial: int = 0,
    aggravated: int = 0,
) -> Step:
    """Add a PC (``is_npc`` False) or an opponent. A vampire's HP and Final Death threshold
    come from the Blood Potency table (SPOT-13); anyone else has ``hp`` (or the YAML's
    ``default_hp``). ``actions_per_round``: an opponent's turns a round (SPOT-05). A PC who
    joins once round 1 is under way takes turns from the next round."""
    rules = spot_rules(ruleset)
    _live(state)
    key = str(key).strip()
    if not key:
        raise InputError("A combatant needs a key (a dbref or an NPC id).")
    old = state.get(key)
    if old is not None:
        raise IllegalAction(f"{old.name} is already in this combat; each character joins once.")
    _whole(blood_potency, "Blood Potency", 0, 20)
    if vampire:
        hp_max, fd = hp_row(rules, blood_potency)
    else:
        hp_max = rules.default_hp if hp is None else _whole(hp, "HP", 1, 100)
        fd = None
    apr = rules.opponent_actions if actions_per_round is None else actions_per_round
    _whole(apr, "Actions per round", 1, 10)
    if not is_npc and apr != 1:
        raise IllegalAction("A PC acts once a round, in initiative order (SPOT-04).")
    # Harm carried in from the sheet (issue 10) fits the track this fight gives: a smaller
    # track (a lower Blood Potency now) keeps the Aggravated marks first.
    _whole(superficial, "Superficial harm", 0)
    _whole(aggravated, "Aggravated harm", 0)
    aggravated = min(aggravated, hp_max)
    superficial = min(superficial, hp_max - aggravated)
    side = "opponent" if is_npc else "pc"
    joined = state.round + 1 if (side == "pc" and state.stage != "initiative") else state.round
    c = Fighter(
        key,
        (name or key).strip(),
        side,
        controller,
        joined,
        actions_per_round=apr,
        vampire=bool(vampire),
        blood_potency=blood_potency if vampire else 0,
        hp_max=hp_max,
        final_death_at=fd,
        superficial=superficial,
        aggravated=aggravated,
    )
    if c.hp == 0:
        c = replace(c, status=_zero_outcome(c)[0])
    ev = {
        "event": "join",
        "actor": key,
        "name": c.name,
        "npc": bool(is_npc),
        "side": side,
        "from_round": joined,
        "hp": c.hp,
        "hp_max": hp_max,
        "final_death_at": fd,
        "actions_per_round": apr,
    }
    return _finish(state, replace(state, combatants=state.combatants + (c,)), rules, [ev])


def remove(state: SpotlightState, key: str, ruleset) -> Step:
    """Take a combatant out (fled, destroyed, left the scene)."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(key)
    order, cursor, gone_here = [], state.cursor, False
    for i, slot in enumerate(state.order):
        keys = tuple(k for k in slot if k != key)
        if keys:
            order.append(keys)
        elif i < state.cursor:
            cursor -= 1
        elif i == state.cursor:
            gone_here = True  # the slot at the cursor is gone: the next one moved up
    holder = tuple(k for k in state.holder if k != key)
    st = replace(
        state,
        combatants=tuple(x for x in state.combatants if x.key != key),
        order=tuple(order),
        cursor=max(0, cursor),
        holder=holder,
        ranges=tuple(r for r in state.ranges if key not in (r[0], r[1])),
    )
    if state.stage == "pcs" and (
        (state.holder and not holder and c.is_pc) or (state.picking and gone_here)
    ):
        # The PC whose turn it was left: the Storyteller still picks an opponent after that
        # slot, and the cursor then steps onto the slot that moved up into its place.
        st = replace(st, picking=True, cursor=cursor - 1 if gone_here else cursor)
    elif state.stage == "pcs" and state.holder and not holder:
        st = replace(st, picking=False, cursor=st.cursor + 1)  # an opponent's turn ended
    return _finish(state, st, rules, [{"event": "leave", "actor": key, "name": c.name}])


def end(state: SpotlightState, ruleset) -> Step:
    rules = spot_rules(ruleset)
    _live(state)
    st = replace(state, stage="ended", holder=(), picking=False)
    return _finish(state, st, rules, [{"event": "end", "round": state.round}])


# ---------------------------------------------------------------- initiative (SPOT-01..03)


def _insert(order: tuple[tuple[str, ...], ...], st: SpotlightState, key: str, total: int):
    idx = st.index()
    out = [tuple(k for k in s if k != key) for s in order]
    out = [s for s in out if s]

    def total_of(s):
        return st.combatants[idx[s[0]]].init_total

    for i, s in enumerate(out):
        t = total_of(s)
        if t == total:
            out[i] = s + (key,)  # SPOT-03: a tie acts simultaneously until settled
            return tuple(out)
        if t < total:
            out.insert(i, (key,))
            return tuple(out)
    out.append((key,))
    return tuple(out)


def roll_initiative(
    state: SpotlightState,
    key: str,
    ruleset,
    rng: random.Random | None = None,
    *,
    ratings: Mapping[str, int] | None = None,
    faces: Iterable[int] | None = None,
    force: bool = False,
) -> Step:
    """SPOT-01: a PC rolls the YAML's dice (2d6) + the highest of its initiative traits
    (Wits or Blood Potency). ``ratings``: trait -> dots (``initiative_ratings(sheet)``).
    Opponents never roll: the Storyteller picks who acts."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(key)
    if not c.is_pc:
        raise IllegalAction(
            f"Opponents don't roll initiative (SPOT-01): after each PC the Storyteller picks "
            f"who acts with +combat/next {c.name}."
        )
    if c.init_total is not None:
        if not force:
            raise IllegalAction(
                f"{c.name} already rolled initiative {c.init_total}. A staffer can replace it "
                f"with /force before the first round."
            )
        if state.stage != "initiative":
            raise IllegalAction(
                "The order is set once round 1 starts; tied PCs can still settle who goes "
                "first with +combat/swap (SPOT-03)."
            )
    ratings = dict(ratings or {})
    values = []
    for name in rules.init_traits:
        v = ratings.get(name, 0)
        _whole(v, name, 0, 100)
        values.append((v, name))
    bonus = max(v for v, _ in values)
    trait = next(n for v, n in values if v == bonus)  # the YAML's first among equals
    if faces is not None:
        faces = tuple(int(f) for f in faces)
        if len(faces) != rules.init_dice or any(not 1 <= f <= rules.init_sides for f in faces):
            raise InputError(
                f"Initiative is {rules.init_dice}d{rules.init_sides}: "
                f"{rules.init_dice} dice of 1..{rules.init_sides}, not {list(faces)}."
            )
    else:
        if rng is None:
            raise InputError("No dice to roll with (rng missing).")
        faces = dice.roll_faces(rules.init_dice, rng, rules.init_sides)
    total = sum(faces) + bonus
    c2 = replace(c, init_faces=faces, init_trait=trait, init_bonus=bonus, init_total=total)
    st = _put(state, c2)
    order = _insert(st.order, st, key, total)
    st = replace(st, order=order)
    if state.stage == "pcs" and len(order) > len(state.order):
        # A new slot in front of the cursor moves the slot being played one place down.
        if next(i for i, s in enumerate(order) if key in s) <= state.cursor:
            st = replace(st, cursor=state.cursor + 1)
    ev = {
        "event": "initiative",
        "actor": key,
        "faces": list(faces),
        "sides": rules.init_sides,
        "trait": trait,
        "bonus": bonus,
        "ratings": {n: v for v, n in values},
        "total": total,
        "order": order_view(st),
    }
    if c.joined_round > state.round and state.stage != "initiative":
        ev["from_round"] = c.joined_round
    return _finish(state, st, rules, [ev])


def swap(state: SpotlightState, a: str, b: str, ruleset) -> Step:
    """SPOT-03: tied PCs settle who goes first: ``a`` goes before ``b``. In one simultaneous
    slot, ``a`` is split off in front; in two tied slots, they change places. Refused once
    either has taken their turn this round."""
    rules = spot_rules(ruleset)
    _live(state)
    ca, cb = state.find(a), state.find(b)
    if a == b:
        raise InputError("Name two different tied PCs: +combat/swap <first>=<second>.")
    for c in (ca, cb):
        if not c.is_pc or c.init_total is None:
            raise IllegalAction(f"{c.name} has no place in the initiative order (SPOT-01).")
    if ca.init_total != cb.init_total:
        raise IllegalAction(
            f"Only tied PCs settle their order (SPOT-03): {ca.name} has {ca.init_total}, "
            f"{cb.name} {cb.init_total}."
        )
    pos = {k: i for i, s in enumerate(state.order) for k in s}
    ia, ib = pos[a], pos[b]
    if state.stage in ("opening", "pcs", "closing"):
        late = state.stage == "closing" or min(ia, ib) < state.cursor
        if not late and min(ia, ib) == state.cursor and state.stage == "pcs":
            idx = state.index()
            late = state.picking or any(
                (lambda f: f.moves or f.actions or f.frees or f.done)(state.combatants[idx[k]])
                for k in state.holder
            )
        if late:
            raise IllegalAction(
                f"{ca.name} or {cb.name} has already had the spotlight this round; the "
                f"order can be settled before their turn."
            )
    order = list(state.order)
    if ia == ib:
        rest = tuple(k for k in order[ia] if k != a)
        order[ia : ia + 1] = [(a,), rest]
    elif ia < ib:
        raise IllegalAction(f"{ca.name} already goes before {cb.name}.")
    else:
        order[ia] = tuple(b if k == a else k for k in order[ia])
        order[ib] = tuple(a if k == b else k for k in order[ib])
    st = replace(state, order=tuple(order))
    if st.stage == "pcs" and st.holder:
        # The tied slot had the spotlight and nobody had used it: hand it out again.
        idx = st.index()
        fresh = {k: st.combatants[idx[k]].fresh_turn() for k in st.holder}
        st = replace(st.with_fighters(fresh), holder=())
    events: list[dict] = [{"event": "swap", "first": a, "second": b, "order": order_view(st)}]
    return _finish(state, st, rules, events)


def ambush(state: SpotlightState, side: str, ruleset) -> Step:
    """SPOT-08: ``side`` ("opponents" or "pcs") got the drop. Set before round 1 it shapes
    round 1; later, the next round. Opponents ambushing: the round opens with the
    Storyteller picking opponents; PCs ambushing: every PC acts before any opponent."""
    rules = spot_rules(ruleset)
    _live(state)
    s = str(side).strip().lower()
    aliases = {
        "enemies": "opponents",
        "opponent": "opponents",
        "npcs": "opponents",
        "pc": "pcs",
        "players": "pcs",
    }
    s = aliases.get(s, s)
    if s not in AMBUSH:
        raise InputError("Who ambushes? +combat/ambush opponents  or  +combat/ambush pcs.")
    rnd = state.round + 1
    st = replace(state, ambush=s, ambush_round=rnd)
    return _finish(state, st, rules, [{"event": "ambush", "side": s, "round": rnd}])


# ---------------------------------------------------------------- the spotlight (SPOT-04..09)


def advance(state: SpotlightState, ruleset) -> Step:
    """The Storyteller moves on: start round 1; end the turn of whoever has the spotlight;
    pass the pick after a PC (no opponent acts there); end the ambush opening; or, after the
    PCs, start the next round (the opponents' unused turns are forfeited)."""
    rules = spot_rules(ruleset)
    _live(state)
    events: list[dict] = []
    st = state
    if st.stage == "initiative":
        if not any(c.is_pc and c.init_total is not None for c in st.combatants):
            raise IllegalAction("No PC has rolled initiative yet: +combat/init first (SPOT-01).")
        waiting = [c.key for c in st.combatants if c.is_pc and c.init_total is None]
        st = _new_round(st, rules, events)
        if waiting:
            events[-1]["without"] = waiting  # they take their place once they roll
        return _finish(state, st, rules, events, rounds=0)
    if st.holder:
        events.append({"event": "pass", "round": st.round, "who": list(st.holder)})
        st = _end_turn(st, rules)
    elif st.stage == "pcs" and st.picking:
        events.append({"event": "pass", "round": st.round, "who": [], "pick": True})
        st = replace(st, picking=False, cursor=st.cursor + 1)
    elif st.stage == "opening":
        events.append({"event": "pass", "round": st.round, "who": [], "opening": True})
        st = replace(st, stage="pcs", cursor=0, picking=False)
    elif st.stage == "closing":
        forfeited = _open(rules, st)
        events.append({"event": "pass", "round": st.round, "who": [], "forfeited": forfeited})
        st = _new_round(st, rules, events)
        return _finish(state, st, rules, events, rounds=0)
    return _finish(state, st, rules, events)


def next_opponent(state: SpotlightState, key: str, ruleset) -> Step:
    """SPOT-04/05: the Storyteller gives the spotlight to opponent ``key`` (after a PC's
    turn, in an ambush opening, or after the PCs). Each pick is one of its turns this round."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(key)
    if c.is_pc:
        raise IllegalAction(
            f"{c.name} is a PC: PCs act in initiative order (SPOT-02); the Storyteller picks "
            f"opponents only."
        )
    if state.stage == "initiative":
        raise IllegalAction("The round hasn't started: +combat/next with no name starts it.")
    if state.holder:
        raise IllegalAction(
            f"{_names(state, state.holder)} has the spotlight; when that turn ends the "
            f"Storyteller picks the next opponent (or ends it now: +combat/next)."
        )
    if state.stage == "pcs" and not state.picking:
        raise IllegalAction("A PC's turn comes first (SPOT-04).")
    if state.stage == "pcs" and state.ambush == "pcs" and state.ambush_round == state.round:
        raise IllegalAction(
            "The PCs ambushed: every PC acts before any opponent this round (SPOT-08)."
        )
    if c.incapacitated:
        why = "staked" if c.staked else ("out of the fight" if c.status == "out" else c.status)
        raise IllegalAction(f"{c.name} is {why} and cannot act.")
    if c.turns >= c.actions_per_round:
        raise IllegalAction(
            f"{c.name} has taken {c.turns} of {c.actions_per_round} turn(s) this round "
            f"(SPOT-05). Still able to act: {_names(state, _open(rules, state))}."
        )
    c2 = replace(c.fresh_turn(), turns=c.turns + 1)
    st = replace(_put(state, c2), holder=(key,))
    events = [
        {
            **_spotlight_event(st, (key,), "opponent"),
            "turn_of_round": c2.turns,
            "actions_per_round": c2.actions_per_round,
        }
    ]
    return _finish(state, st, rules, events)


def event(state: SpotlightState, text: str, ruleset) -> Step:
    """SPOT-09: the Storyteller posts an environment event (hazard, complication, change of
    the battlefield) between turns; it is logged with the round and changes no turn."""
    rules = spot_rules(ruleset)
    _live(state)
    text = str(text or "").strip()
    if not text:
        raise InputError("Describe the event: +combat/event The floor gives way under Bob.")
    if len(text) > 2000:
        raise InputError("Keep an event under 2000 characters.")
    ev = {"event": "event", "round": state.round, "text": text}
    return _finish(state, state, rules, [ev])


def _holder(state: SpotlightState, key: str, what: str) -> Fighter:
    c = state.find(key)
    if state.stage == "initiative":  # SPOT-01: the first round starts once the PCs rolled
        if c.is_pc and c.init_total is None:
            raise IllegalAction(f"The fight has not started: {c.name} rolls initiative first "
                                f"(+combat/init); then the Storyteller starts the round.")
        raise IllegalAction("The fight has not started: once the PCs have rolled initiative, "
                            "the Storyteller starts the round (+combat/next).")
    if key not in state.holder:
        who = _names(state, state.holder) if state.holder else "nobody (the Storyteller picks)"
        raise IllegalAction(f"{c.name} can {what} only with the spotlight; it is with {who}.")
    if c.done:
        raise IllegalAction(f"{c.name}'s turn is over.")
    return c


def _after_use(c: Fighter, rules: SpotRules) -> Fighter:
    if rules.end_when_all_used and (
        c.moves >= rules.moves and c.actions >= rules.actions and c.frees >= rules.frees
    ):
        return replace(c, done=True)
    return c


def move(state: SpotlightState, key: str, other: str, direction: str, ruleset) -> Step:
    """SPOT-07/10: the turn's movement: one range step toward or away from ``other``
    (``direction``: closer/away, or the adjacent band's name)."""
    rules = spot_rules(ruleset)
    _live(state)
    c = _holder(state, key, "move")
    o = state.find(other)
    if o.key == c.key:
        raise InputError("Move relative to someone else: +combat/move <name>=closer|away.")
    if c.moves >= rules.moves:
        raise IllegalAction(
            f"{c.name} has already moved this turn (one range step, SPOT-07). Left: "
            f"{_left(rules, c)}."
        )
    cur = _band(state, rules, key, other)
    d = str(direction).strip().lower()
    if d in ("closer", "close in", "in", "toward", "towards", "+"):
        to = cur - 1
    elif d in ("away", "farther", "further", "out", "back", "-"):
        to = cur + 1
    else:
        to = _parse_band(rules, direction)
    if not 0 <= to < len(rules.bands):
        edge = rules.bands[0] if to < 0 else rules.bands[-1]
        raise IllegalAction(f"{c.name} and {o.name} are already at {edge}.")
    if abs(to - cur) != 1:
        raise IllegalAction(
            f"A move is one range step (SPOT-07): {c.name} is at {rules.bands[cur]} from "
            f"{o.name}, so {rules.bands[to]} is out of reach this turn."
        )
    c2 = _after_use(replace(c, moves=c.moves + 1), rules)
    st = _set_band(_put(state, c2), key, other, to)
    ev = {
        "event": "move",
        "actor": key,
        "other": other,
        "from": rules.bands[cur],
        "to": rules.bands[to],
        "round": state.round,
    }
    return _finish(state, st, rules, [ev])


def set_range(state: SpotlightState, a: str, b: str, band: str, ruleset) -> Step:
    """The Storyteller places two combatants at a band (the scene's set-up, or narration)."""
    rules = spot_rules(ruleset)
    _live(state)
    ca, cb = state.find(a), state.find(b)
    if a == b:
        raise InputError("Name two different combatants: +combat/range <a>/<b>=<band>.")
    n = _parse_band(rules, band)
    cur = _band(state, rules, a, b)
    st = _set_band(state, a, b, n)
    ev = {
        "event": "range",
        "a": ca.key,
        "b": cb.key,
        "from": rules.bands[cur],
        "to": rules.bands[n],
    }
    return _finish(state, st, rules, [ev])


def set_every_range(state: SpotlightState, band: str, ruleset) -> Step:
    """SPOT-10: the Storyteller places everyone at one band (a brawl starts at Hand), those
    who join later too; a pair placed before is placed again."""
    rules = spot_rules(ruleset)
    _live(state)
    n = _parse_band(rules, band)
    st = replace(state, ranges=(), options=replace(state.options, band=n))
    return _finish(state, st, rules, [{"event": "range_all", "to": rules.bands[n]}])


def range_tag(ruleset, name: str) -> tuple[str, str] | None:
    """SPOT-10: (nearest, farthest) band of a weapon or power's range tag, or None."""
    rules = spot_rules(ruleset)
    t = rules.tags.get(str(name).strip().lower())
    return None if t is None else (rules.bands[t[0]], rules.bands[t[1]])


def act(state: SpotlightState, key: str, ruleset, action: Mapping | None = None) -> Step:
    """SPOT-07: the turn's one action (a Basic Move or Discipline Power). ``action`` is a
    plain dict: ``kind`` (attack, bite, ...), optional ``target``, ``weapon`` or ``power``.
    SPOT-10: a tagged weapon, power or kind (bite) is checked against the target's range."""
    rules = spot_rules(ruleset)
    _live(state)
    c = _holder(state, key, "act")
    if c.actions >= rules.actions:
        raise IllegalAction(
            f"{c.name} has taken this turn's action (one action, SPOT-07). Left: {_left(rules, c)}."
        )
    a = plain(dict(action or {"kind": "action"}))
    kind = str(a.get("kind") or "action").strip().lower()
    a["kind"] = kind
    band = None
    tag_name = None
    target = a.get("target")
    if target is not None:
        t = state.find(str(target))
        if t.key == key:
            raise InputError("Target someone else.")
        band = _band(state, rules, key, t.key)
    for field in ("weapon", "power"):
        if a.get(field):
            name = str(a[field]).strip().lower()
            if name in rules.tags:
                tag_name = name
            elif field == "weapon":
                known = ", ".join(sorted(rules.tags)) or "none"
                raise InputError(f"'{a[field]}' has no range tag here. Tagged: {known}.")
    if tag_name is None and kind in rules.tags:
        tag_name = kind
    if tag_name is not None and target is not None:
        lo, hi = rules.tags[tag_name]
        if not lo <= band <= hi:
            reach = rules.bands[lo] if lo == hi else f"{rules.bands[lo]} to {rules.bands[hi]}"
            fix = "closer" if band > hi else "away"
            # an opponent is moved by the organizer, who names it first (issue 28)
            move = f"{t.name}={fix}" if c.is_pc else f"{c.name}={t.name}={fix}"
            raise IllegalAction(
                f"{t.name} is at {rules.bands[band]}; {tag_name} reaches {reach} (SPOT-10). "
                f"Move {fix} first (one step a turn: +combat/move {move})."
            )
    c2 = _after_use(replace(c, actions=c.actions + 1), rules)
    ev = {
        "event": "act",
        "actor": key,
        "action": a,
        "round": state.round,
        "range": None if band is None else rules.bands[band],
        "tag": tag_name,
    }
    return _finish(state, _put(state, c2), rules, [ev])


def free(state: SpotlightState, key: str, ruleset, text: str = "") -> Step:
    """SPOT-07: the turn's free action (something that takes no effort or time)."""
    rules = spot_rules(ruleset)
    _live(state)
    c = _holder(state, key, "take a free action")
    if c.frees >= rules.frees:
        raise IllegalAction(
            f"{c.name} has taken this turn's free action (SPOT-07). Left: {_left(rules, c)}."
        )
    c2 = _after_use(replace(c, frees=c.frees + 1), rules)
    ev = {"event": "free", "actor": key, "text": str(text or "").strip(), "round": state.round}
    return _finish(state, _put(state, c2), rules, [ev])


def done(state: SpotlightState, key: str, ruleset) -> Step:
    """End one's own turn (the unused parts of it are let go)."""
    rules = spot_rules(ruleset)
    _live(state)
    c = _holder(state, key, "end a turn")
    unused = {
        "moves": rules.moves - c.moves,
        "actions": rules.actions - c.actions,
        "free_actions": rules.frees - c.frees,
    }
    st = _put(state, replace(c, done=True))
    ev = {"event": "done", "actor": key, "round": state.round, "unused": unused}
    return _finish(state, st, rules, [ev])


# ---------------------------------------------------------------- harm (SPOT-11..14)


def harm_kind(word: str) -> str:
    w = str(word).strip().lower()
    for k in KINDS:
        if w and k.startswith(w):
            return k
    raise InputError(f"Harm is superficial or aggravated, not '{word}'.")


def harm(
    state: SpotlightState,
    target: str,
    amount: int,
    kind: str,
    ruleset,
    *,
    armor: int = 0,
    halve: bool = False,
    source: str | None = None,
) -> Step:
    """SPOT-11: mark ``amount`` harm of ``kind`` on ``target`` now. ``armor`` reduces the
    kinds the YAML lists (Superficial); Aggravated bypasses it. ``halve``: V5 halves
    Superficial Harm to a vampire, rounded up, after armor. Superficial past a full track
    turns Superficial marks Aggravated (V5; ``overflow``). SPOT-13: at 0 HP a vampire falls
    into torpor (Aggravated below the threshold) or meets Final Death."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(target)
    kind = harm_kind(kind)
    _whole(amount, "Harm", 0, 100)
    _whole(armor, "Armor", 0, 100)
    if c.status == "dead":
        raise IllegalAction(f"{c.name} has met Final Death already.")
    soaked = min(amount, armor) if kind in rules.armor_kinds else 0
    n = amount - soaked
    halved = 0
    if halve and kind == "superficial" and n:
        halved = n // 2  # what halving takes away: ceil(n / 2) is marked
        n -= halved
    room = c.hp_max - c.superficial - c.aggravated
    sup, agg = c.superficial, c.aggravated
    mark = min(n, room)
    over = n - mark
    upgraded = 0
    if kind == "superficial":
        sup += mark
        if over and rules.overflow_superficial == "aggravated":
            upgraded = min(over, sup)
    else:
        agg += mark
        if over and rules.overflow_aggravated == "replace_superficial":
            upgraded = min(over, sup)
    sup, agg = sup - upgraded, agg + upgraded
    c2 = replace(c, superficial=sup, aggravated=agg)
    outcome = "hurt" if (mark or upgraded) else "unhurt"
    if c2.hp == 0:
        status, outcome = _zero_outcome(c2)
        c2 = replace(c2, status=status)
        if status == "dead":
            c2 = replace(c2, revive_round=None, revive_hp=0)
    ev = {
        "event": "harm",
        "target": target,
        "kind": kind,
        "amount": amount,
        "armor": soaked,
        "halved": halved,
        "marked": mark,
        "upgraded": upgraded,
        "lost": over - upgraded,
        "hp_before": c.hp,
        "hp_after": c2.hp,
        "hp_max": c.hp_max,
        "superficial": sup,
        "aggravated": agg,
        "final_death_at": c.final_death_at,
        "outcome": outcome,
        "round": state.round,
    }
    if source:
        ev["source"] = str(source)
    return _finish(state, _put(state, c2), rules, [ev])


def stake(state: SpotlightState, target: str, ruleset) -> Step:
    """SPOT-12: a vampire staked through the heart is incapacitated at once (it loses its
    turn, the spotlight passes on) until the stake is pulled (``unstake``)."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(target)
    if not c.vampire:
        raise IllegalAction(
            f"{c.name} is not a vampire: a stake is just a weapon (+combat/harm), it doesn't "
            f"incapacitate (SPOT-12)."
        )
    if c.status == "dead":
        raise IllegalAction(f"{c.name} has met Final Death already.")
    if c.staked:
        raise IllegalAction(f"{c.name} is staked already.")
    st = _put(state, replace(c, staked=True))
    ev = {"event": "stake", "target": target, "round": state.round, "status": c.status}
    return _finish(state, st, rules, [ev])


def unstake(state: SpotlightState, target: str, ruleset) -> Step:
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(target)
    if not c.staked:
        raise IllegalAction(f"{c.name} is not staked.")
    st = _put(state, replace(c, staked=False))
    ev = {"event": "unstake", "target": target, "round": state.round, "status": c.status}
    return _finish(state, st, rules, [ev])


def feed(state: SpotlightState, target: str, slaked: int, ruleset, *,
         hunger: int | None = None) -> Step:
    """SPOT-14: blood that would slake ``slaked`` Hunger (1 or more) revives a vampire in
    torpor after one round with that much HP; its Hunger is not reduced. A vampire still up
    who feeds mid-fight (seed 004: Aggravated "can't be healed mid-combat ... unless you
    Feed") heals ``slaked`` Harm in the order of ``feed_heals`` and its Hunger (``hunger``,
    from its sheet) drops by as much; it cannot slake more Hunger than it has."""
    rules = spot_rules(ruleset)
    _live(state)
    c = state.find(target)
    _whole(slaked, "Hunger slaked", 1, rules.max_slake)
    if c.status == "active":
        return _feed_awake(state, c, slaked, hunger, rules)
    if c.status != "torpor":
        state_word = "destroyed" if c.status == "dead" else "not in torpor"
        raise IllegalAction(
            f"{c.name} is {state_word}; blood revives a vampire in torpor (SPOT-14)."
        )
    back = state.round + rules.revive_after
    st = _put(state, replace(c, revive_round=back, revive_hp=slaked))
    ev = {
        "event": "feed",
        "target": target,
        "slaked": slaked,
        "round": state.round,
        "revive_round": back,
        "hunger_reduced": 0,
    }
    if rules.revive_after == 0:  # revived on the spot: the YAML asked for no wait
        c3 = st.get(target)
        target_hp = min(slaked, c3.hp_max - c3.aggravated)
        c3 = replace(
            c3,
            superficial=max(0, c3.hp_max - c3.aggravated - target_hp),
            status="active",
            revive_round=None,
            revive_hp=0,
        )
        st = _put(st, c3)
        return _finish(
            state,
            st,
            rules,
            [
                ev,
                {
                    "event": "revive",
                    "round": state.round,
                    "actor": target,
                    "hp_before": 0,
                    "hp_after": c3.hp,
                },
            ],
        )
    return _finish(state, st, rules, [ev])


def _feed_awake(state: SpotlightState, c: Fighter, slaked: int, hunger: int | None,
                rules: SpotRules) -> Step:
    if not c.vampire:
        raise IllegalAction(f"{c.name} is not a vampire: blood heals only vampires.")
    hunger = 0 if hunger is None else int(hunger)
    if slaked > hunger:
        raise IllegalAction(
            f"{c.name}'s Hunger is {hunger}: blood can slake at most that "
            f"(+combat/feed {c.name}={max(hunger, 1)})." if hunger else
            f"{c.name} has no Hunger to slake.")
    left, marks = slaked, {"superficial": c.superficial, "aggravated": c.aggravated}
    healed = {"superficial": 0, "aggravated": 0}
    for kind in rules.feed_heals:
        n = min(left, marks[kind])
        marks[kind] -= n
        healed[kind] += n
        left -= n
    c2 = replace(c, **marks)
    ev = {"event": "feed", "target": c.key, "slaked": slaked, "round": state.round,
          "healed": healed, "hp_before": c.hp, "hp_after": c2.hp, "hp_max": c.hp_max,
          "hunger_before": hunger, "hunger_after": hunger - slaked, "hunger_reduced": slaked}
    return _finish(state, _put(state, c2), rules, [ev])


def scene_end(state: SpotlightState, ruleset, rng: random.Random,
              hungers: Mapping[str, int], sides: int = 10) -> tuple[SpotlightState, list[dict]]:
    """Seed 004: "Superficial Harm can be healed ... with a Hunger Check at the end of the
    scene". Each vampire still up with Superficial Harm makes the check (harm.yaml READING:
    V5's Rouse Check): ``dice`` dice, none at ``success_at`` or more raises its Hunger.
    With ``mend_by_blood_potency`` (V5: each Rouse Check mends that much by Blood Potency)
    it checks again until its Superficial Harm is mended or its Hunger tops the range;
    without it one check heals it all. At the top of the Hunger range it cannot check.
    ``hungers``: key -> Hunger for the vampires (from their sheets)."""
    rules = spot_rules(ruleset)
    cfg = rules.scene_end
    if not cfg:
        return state, []
    events, changed = [], {}
    for c in state.combatants:
        if not (c.vampire and c.status == "active" and c.superficial):
            continue
        hunger = int(hungers.get(c.key, 0))
        ev = {"event": "hunger_check", "actor": c.key, "hunger_before": hunger,
              "superficial": c.superficial}
        if hunger >= rules.max_slake:
            events.append({**ev, "faces": [], "passed": False, "healed": 0,
                           "hunger_after": hunger, "cannot": True})
            continue
        mend = _mend(cfg, c.blood_potency, c.superficial)
        faces, left = [], c.superficial
        while left > 0 and hunger < rules.max_slake:
            rolled = dice.roll_faces(cfg["dice"], rng, sides)
            faces += rolled
            if not any(f >= cfg["success_at"] for f in rolled):
                hunger = min(rules.max_slake, hunger + cfg.get("hunger_on_failure", 1))
            left = max(0, left - mend)
        changed[c.key] = replace(c, superficial=left)
        events.append({**ev, "faces": list(faces), "passed": hunger == ev["hunger_before"],
                       "healed": c.superficial - left, "hunger_after": hunger,
                       **({"mend": mend, "left": left} if "mend_by_blood_potency" in cfg
                          else {})})
    return state.with_fighters(changed), events


def _mend(cfg: Mapping, blood_potency: int, superficial: int) -> int:
    """Superficial Harm one check mends: the table's row for this Blood Potency (the last
    row at or below it), or all of it without a table."""
    table = cfg.get("mend_by_blood_potency")
    if not table:
        return superficial
    rows = sorted((int(bp), int(n)) for bp, n in table.items())
    return next((n for bp, n in reversed(rows) if bp <= blood_potency), rows[0][1])


# ---------------------------------------------------------------- the common interface


def summary(state: SpotlightState, ruleset) -> dict:
    """What ``+combat`` shows: round, stage, order (SPOT-02), who has the spotlight, every
    fighter's HP and state, and the ranges set so far (SPOT-10)."""
    rules = spot_rules(ruleset)
    return {
        "engine": ENGINE,
        "round": state.round,
        "stage": state.stage,
        "order": order_view(state),
        "spotlight": list(state.holder),
        "prompts": [list(p) for p in prompts(state)],
        "fighters": [
            {
                "key": c.key,
                "name": c.name,
                "side": c.side,
                "initiative": c.init_total,
                "hp": c.hp,
                "hp_max": c.hp_max,
                "superficial": c.superficial,
                "aggravated": c.aggravated,
                "status": c.status,
                "staked": c.staked,
                "turns": f"{c.turns}/{c.actions_per_round}" if not c.is_pc else None,
            }
            for c in state.combatants
        ],
        "ranges": [[a, b, rules.bands[n]] for a, b, n in state.ranges],
    }
