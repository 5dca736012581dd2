"""Close combat and complications from the fight's own facts (seed 000 "Close combat
maneuvers", "Complications"; V20 p. 273-277).

``strike.attack`` asks this module for what an attack's ``Attack`` and ``Context`` need that
the fight knows and the pure attack layer (``combat/d10/attack.py``) cannot see: how many foes
engage each side (CLOSE-08), how fast each side moves (COMP-05), a riposte earned by a parry
(CLOSE-09), a tackle last turn (CLOSE-01 bite), a dazed target (COMP-02), a held target
(COMP-03), blindness mitigations and Blind Fighting (COMP-01, MAN-12), an ambush won (MAN-01),
and the off-balance penalty after a tackle on every action (CLOSE-12). The checks the
declared actions call (``actions/attack.py``, ``actions/defend.py``) are here, against what is
known when they are made: a claw without the power, a bite not allowed, what a grapple
forbids, a parry with nothing to parry with; and a staked vampire moving (CLOSE-01/02,
CLOSE-03/05, DEF-03, MAN-11).
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter, is_not, itemgetter
from types import MappingProxyType
from typing import Mapping

from . import scheduler as sch
from .attack_defense import _parry_item
from .attack_plan import _natural
from .attack_values import CONDITIONS, Attack, Context, Magic, Side
from .reflex_rolls import blind_fighting
from ..core.errors import IllegalAction, InputError
from ..core.maneuver_schemas import PACES
from ..core.maneuvers import form_allowed, movement_yards, tables
from ..core.pools import Modifier, PoolSpec
from ..core.sheet import Pool
from ..core.memo import Memo
from ..core.values import replace
from . import kiss  # CLOSE-01 drain: where the rules have the Kiss (CLOSE-14), it is one
from .fight import OUT_OF_ACTION, Fight, roll_event
from .gear import Close

GRAPPLERS = ("clinch", "hold")
NO_CLOSE = Close()  # a frozen value: one shared empty one instead of a new one per question
_NO_CONDITIONS: frozenset[str] = frozenset()


# ---------------------------------------------------------------- facts of the fight


def close_of(f: Fight, key: str) -> Close:
    return f.gear(key).close or NO_CLOSE


def set_close(f: Fight, key: str, **changes) -> None:
    if f.state.get(key) is None:
        return
    f.set_gear(key, replace(f.gear(key), close=replace(close_of(f, key), **changes)))


def _maneuver(f: Fight, name: str | None):
    return tables(f.rules).maneuver(name) if name else None


def is_close(f: Fight, who: str, action: dict) -> bool:
    """Whether a declared attack is made in close combat (CLOSE-08 counts only those)."""
    if action.get("magic"):
        return False
    weapon = action.get("weapon")
    name = action.get("maneuver")
    if not name and not weapon:
        try:
            weapon = f.in_hand(who)
        except IllegalAction:
            weapon = None
    # CLOSE-08 asks this of every declared attack on both sides of each attack made: the
    # answer depends on the tables alone, so the apply's (or the run's) memo keeps it for
    # the ruleset, bounded like every memo table (a refusal is not kept).
    answers = f.memo.for_ruleset(f.rules)
    key = ("is_close", name, weapon)
    try:
        return answers[key]
    except KeyError:
        answer = answers[key] = _is_close(f.rules, name, weapon)
        return answer


def _is_close(ruleset, name: str | None, weapon: str | None) -> bool:
    t = tables(ruleset)
    m = t.maneuver(name) if name else None
    if m is None:
        kind = t.weapon(weapon).kind if weapon else "brawl"
    else:
        m = m.for_weapon(bool(weapon))
        kind = t.weapon(weapon).kind if m.kind == "weapon" and weapon else m.kind
    row = t.attacks["kinds"].get(kind) or {}
    return row.get("range", "close") == "close"


def opponents(f: Fight, key: str) -> int:
    """CLOSE-08: how many others declared a close attack on ``key`` this turn (at least 1)."""
    return engaged(f, (key,))[key]


def engaged(f: Fight, keys: tuple[str, ...]) -> dict[str, int]:
    """``opponents`` of each of ``keys`` (an attacker and a target): of the attacks declared
    on each (``_attacks_on``), those of a foe still in action and made in close combat, one
    per foe however many they declared. Only the declarations on these keys are looked at,
    so an attack costs the same in a crowd of 100 as in a duel."""
    combatants = f.state.combatants
    on = _attacks_on(combatants, f.memo)
    out = {}
    for k in keys:
        n, seen = 0, ()
        for i, a in on.get(k, ()):
            c = combatants[i]
            if (i not in seen and c.declared and c.key != k and c.outcome not in OUT_OF_ACTION
                    and is_close(f, c.key, a)):
                n += 1
                seen += (i,)  # one foe counts once, however many attacks they declared
        out[k] = max(1, n)
    return out


_ACTIONS = attrgetter("actions")
# The last table of ``_attacks_on`` is kept in the memo (combat/core/memo.py ``attacks``) with
# the declarations it was built from, as one pair replaced whole (a reader never sees the one
# without the other). Declarations change only when someone declares; every attack and
# declared attack asks (a scan of every declaration each time was the cost of an act that
# grew with a crowd: bench/engine.py).
# A declaration changes one combatant's actions: the table is mended at the few places that
# changed (a rebuild read every declaration of a crowd of 100 on each one, bench/scale.py).
# A small fight is rebuilt: reading a duel's few declarations costs less than mending
# (bin/simulate's fights, bench/callgrind.py).
_MEND_AT_MOST = 4
_MEND_FROM = 8


def _attacks_on(combatants, memo: Memo) -> Mapping[str, tuple[tuple[int, dict], ...]]:
    """target key -> ((place of the attacker in ``combatants``, the declared attack), ...),
    in the order of the fight. Kept for the next call while the declarations are the same
    (compared by identity first, then by value: the answer depends on nothing else; whether
    each attacker is still in action and attacks in close combat is asked anew)."""
    declared = tuple(map(_ACTIONS, combatants))
    last, table = memo.attacks
    if last == declared:
        return table
    places = range(len(declared))
    if len(last) == len(declared) >= _MEND_FROM:
        changed = list(compress(places, map(is_not, last, declared)))
        if len(changed) <= _MEND_AT_MOST:
            table = _mended(table, last, declared, changed)
            memo.attacks = (declared, table)
            return table
    on: dict[str, list] = {}
    for i in places:
        for a in declared[i]:
            t = a.get("target")
            if t is not None and a.get("kind") == "attack":
                on.setdefault(t, []).append((i, a))
    table = MappingProxyType({t: tuple(v) for t, v in on.items()})
    memo.attacks = (declared, table)
    return table


_PLACE = itemgetter(0)


def _mended(table, last, declared, changed: list[int]):
    """``table`` (built from ``last``) for ``declared``, which differs at ``changed``: the
    entries of the targets those places attacked or attack now, rebuilt in the same order
    a whole build gives (by place, then as declared)."""
    gone = set(changed)
    on = dict(table)
    for t in {a.get("target") for i in changed for a in (*last[i], *declared[i])}:
        entries = [e for e in table.get(t, ()) if e[0] not in gone]
        entries += [(i, a) for i in changed for a in declared[i]
                    if a.get("target") == t and a.get("kind") == "attack"]
        entries.sort(key=_PLACE)  # stable: one place's attacks stay as declared
        if entries:
            on[t] = tuple(entries)
        else:
            on.pop(t, None)
    return MappingProxyType(on)


def speed(f: Fight, key: str) -> str:
    """COMP-05: the pace of the yards ``key`` declared to move this turn (a move, or moving
    while attacking): faster than a walk makes attacks to and from them harder."""
    return _speed(f, key, f.state.get(key))


def _speed(f: Fight, key: str, c) -> str:
    if c is None or not c.declared:
        return "still"
    yards = 0
    for a in c.actions:
        yards += int(a.get("yards") or 0) if a.get("kind") == "move" else int(a.get("moving") or 0)
    if yards <= 0:
        return "still"
    sheet = f.sheet(key)
    pace = "walk"
    for p in PACES[PACES.index("walk"):]:
        if yards > movement_yards(f.rules, sheet, p):
            pace = PACES[min(PACES.index(p) + 1, len(PACES) - 1)]
    return pace


def _powers(f: Fight, have: tuple[str, ...]) -> frozenset[str]:
    """COMP-01: blindness mitigations (Heightened Senses, Eyes of the Beast) are set on a
    combatant like conditions (+combat/mod Bob=heightened senses); ``have``: its active
    conditions."""
    if not have:
        return frozenset()
    mit = (tables(f.rules).comp.get("blinded") or {}).get("mitigations") or {}
    return frozenset(p for p in mit if p.lower() in have)


def side(f: Fight, c, foes: int, weapon: str | None = None, moved: int = 0) -> Side:
    """The attack layer's ``Side`` for the combatant ``c``: what ``Fight.side`` knows
    (conditions, weapon in hand, cover, yards moved) and what the fight adds (``foes``: its
    ``opponents``). An equal Side asked before is handed out again (the memo's ``made``)."""
    key = c.key
    if c.conditions:
        have = sch.active_conditions(c, f.state.turn)
        conds = frozenset(have) & CONDITIONS
    else:  # most sides of most attacks
        have, conds = (), _NO_CONDITIONS
    gear = c.gear
    grip = gear.grapple
    if grip and grip.held:  # COMP-03: held in a hold = partly immobilized
        conds = conds | {"immobilized"}
    bf = gear.close.blind_fight if gear.close is not None else None
    pen, bonus = (bf[1], bf[2]) if bf and bf[0] == f.state.turn else (0, 0)
    speed, cover, hand = _speed(f, key, c), gear.cover, weapon or f.in_hand(key, c)
    powers = _powers(f, have) if have else _NO_CONDITIONS
    behind = "sees behind" in have
    # the key: every argument of the Side built below (one left out hands out a stale Side)
    fields = (Side, conds, speed, moved, cover, hand, powers, foes, pen, bonus, behind)
    made = f.memo.made.get(fields)
    if made is not None:
        return made
    return f.memo.keep(fields, Side(
        conditions=conds, speed=speed, moved_yards=moved, cover=cover, weapon=hand,
        active_powers=powers, opponents=foes, blind_fight_penalty=pen,
        blind_fight_bonus=bonus, sees_behind=behind))


def attack_fields(action: dict) -> dict:
    """What the declared action adds to ``Attack``: CLOSE-01 drain / sever, CLOSE-06 ammo."""
    out = {}
    for k in ("drain", "sever"):
        if action.get(k):
            out[k] = True
    if action.get("ammo"):
        out["ammo"] = action["ammo"]
    return out


def off_balance(f: Fight, key: str) -> Modifier | None:
    """CLOSE-12: "+1 difficulty to all actions next turn" after being tackled."""
    pen = f.gear(key).penalty
    if pen and pen.turn == f.state.turn:
        return Modifier(pen.reason, difficulty=pen.difficulty)
    return None


def context(f: Fight, key: str, tkey: str, weapon: str | None, *, range_yards: int,
            grapple: str = "", weapon_state=None, ignore_wounds: bool = False,
            hand: str | None = None,
            moved: int = 0, extra: tuple[Modifier, ...] = (),
            foes: Mapping[str, int] | None = None) -> Context:
    """The ``Context`` of ``key``'s attack on ``tkey`` with ``weapon`` (``hand``: the weapon
    held, when not that one; ``moved``: yards moved while attacking): the fields only the
    fight knows, and the range, grapple, weapon state and HLT-08 from the caller. ``foes``:
    CLOSE-08's count of each side when the caller sets it (foresee.py: a check that no
    count refuses). An equal Context asked before is handed out again (the memo's
    ``made``): the plan lookups then find it by identity (attack_memo.py ``_token``)."""
    if foes is None:
        foes = engaged(f, (tkey, key))
    me_c, t_c = f.state.get(key), f.state.get(tkey)
    attacker = side(f, me_c, foes[key], hand or weapon, moved)
    tside = side(f, t_c, foes[tkey])
    if "dazed" in tside.conditions:  # COMP-02: attacking a dazed target
        diff = (f.rules.section("damage").get("dazed") or {}).get("attack_difficulty")
        if diff:
            extra += (Modifier("target dazed", difficulty=diff),)
    me = me_c.gear.close or NO_CLOSE
    rip = me.riposte
    riposte = bool(rip and rip[0] == tkey and rip[1] == weapon
                   and rip[2] >= f.state.turn - 1)
    tackled = bool(me.tackled and me.tackled[0] == tkey
                   and me.tackled[1] == f.state.turn - 1)
    amb = me.ambush
    bonus = amb[2] if amb and amb[0] == tkey and amb[1] == "free_attack" else 0
    # the Sides by identity: they come from ``made`` too, and hashing a Side runs its
    # dataclass __hash__ over every field (the entry holds them, so no id is reused); with
    # them, every argument of the Context built below
    fields = (Context, id(attacker), id(tside), riposte, tackled, bonus, extra, range_yards,
              grapple, weapon_state, ignore_wounds)
    made = f.memo.made.get(fields)
    if made is not None:
        return made
    return f.memo.keep(fields, Context(
        attacker=attacker, target=tside, riposte=riposte, tackled_last_turn=tackled,
        ambush_bonus=bonus, extra=extra, range_yards=range_yards, grapple=grapple,
        weapon_state=weapon_state, ignore_wounds=ignore_wounds))


def defense_extra(f: Fight, key: str) -> tuple[Modifier, ...]:
    pen = off_balance(f, key)
    return (pen,) if pen else ()


def ambush_defenseless(f: Fight, key: str, tkey: str) -> bool:
    """MAN-01: a won ambush is a free attack: the target cannot defend."""
    amb = close_of(f, key).ambush
    return bool(amb and amb[0] == tkey and amb[1] == "free_attack")


def after_attack(f: Fight, key: str, tkey: str, action: dict, res) -> None:
    """What an attack leaves for later: a riposte spent or earned (CLOSE-09), a tackle that
    lets a vampire bite next turn (CLOSE-01), an ambush used (MAN-01)."""
    me = close_of(f, key)
    if me is NO_CLOSE and res.maneuver != "tackle" and res.defense is None:
        return  # nothing earned, nothing to spend: most attacks
    if me.riposte:
        set_close(f, key, riposte=None)
    if me.ambush and me.ambush[1] == "free_attack":  # MAN-01: the free attack is spent
        set_close(f, key, ambush=(me.ambush[0], "used", 0))
    if res.maneuver == "tackle" and res.hit:
        set_close(f, key, tackled=(tkey, f.state.turn))
    d = res.defense
    if d is not None and d.defense.kind == "parry" and d.roll.successes > 0 and not res.hit:
        item = d.defense.weapon
        w = tables(f.rules).known_weapon(item)
        if w is not None and w.kind in ("melee", "thrown"):
            set_close(f, tkey, riposte=(key, w.name, f.state.turn))
            f.emit("riposte_ready", actor=tkey, target=key, weapon=w.name,
                   dice=tables(f.rules).man.get("riposte_dice"))


# ---------------------------------------------------------------- knockdowns


def knockdown_stands(f: Fight) -> bool:
    """CLOSE-11/12 read against COMP-04 (see the YAML's READING): whether a successful roll
    against a maneuver's knockdown leaves the target standing with no penalty."""
    kd = tables(f.rules).comp.get("knockdown") or {}
    return kd.get("maneuver_success") == "stands"


# ---------------------------------------------------------------- declared now


def parry_item(f: Fight, key: str) -> str | None:
    sheet = f.sheet(key)
    g = f.gear(key)
    for w in sheet.weapons:
        if g.is_dropped(w):
            continue
        try:
            _parry_item(f.rules, sheet, w)
            return w
        except (IllegalAction, InputError):
            continue
    if sheet.armor:
        try:
            _parry_item(f.rules, sheet, sheet.armor)
            return sheet.armor
        except (IllegalAction, InputError):
            pass
    return None


def check_parry(f: Fight, key: str) -> None:
    """DEF-03: parrying needs a melee weapon or a shield in hand."""
    if parry_item(f, key) is None:
        raise IllegalAction(f"{f.name(key)} has no weapon or shield to parry with: block "
                            f"(close combat) or dodge instead, or +sheet/equip a weapon first.")


STAKED_OK = ("other", "pass")


def check_staked(f: Fight, key: str, actions, activations) -> None:
    """MAN-11: a staked vampire is conscious but cannot move or spend blood."""
    c = f.state.get(key)
    if c is None or not c.conditions or "staked" not in sch.active_conditions(c, f.state.turn):
        return
    name = f.name(key)
    for a in actions:
        if a["kind"] not in STAKED_OK:
            raise IllegalAction(f"{name} is staked: no moving, only what needs no motion "
                                f"(other <text>, e.g. Auspex) or pass, until the stake is "
                                f"pulled.")
    for a in activations:
        what = a.get("activate")
        pool = str(a.get("pool") or "")
        if what == "celerity" or (what == "spend" and
                                  f.rules.traits.resolve(pool) == "Blood"):
            raise IllegalAction(f"{name} is staked and cannot spend blood.")


def check_attack(f: Fight, key: str, a: dict, earlier) -> None:
    """What can be known at declaration about a close attack (issue 9 #22): the maneuver
    fits the form (CLOSE-10), a claw or bite is possible (CLOSE-01/02), the grapple allows
    it (CLOSE-03/05). What changes later (a clinch that fails) loses the action then.
    ``earlier``: what the same declaration asked before ``a``."""
    if a.get("magic"):
        return
    t = tables(f.rules)
    name = a.get("maneuver")
    if name:
        m = t.maneuver(name)
    else:  # "attack Bob": the default maneuver of what is in hand (a strike ...)
        hand = a.get("weapon") or f.in_hand(key)
        name = (t.attacks.get("default_maneuver") or {}).get(
            t.weapon(hand).kind if hand else "unarmed")
        m = t.maneuver(name) if name else None
    sheet = f.sheet(key)
    tkey = a["target"]
    grip = f.gear(key).grapple
    if earlier:  # what the same declaration did first: an escape, a clinch or hold
        escaping = any(e.get("kind") == "escape" for e in earlier)
        locks = {e.get("maneuver") for e in earlier
                 if e.get("kind") == "attack" and e.get("target") == tkey}
    else:
        escaping, locks = False, set()
    if m is not None:
        form_allowed(f.rules, m, sheet)
    name = m.name if m is not None else None
    if grip and not escaping:
        allowed = (t.man.get("grapples") or {}).get(grip.kind, {}).get("allowed", ())
        if grip.other != tkey or name not in allowed:
            raise IllegalAction(
                f"Locked in a {grip.kind} with {f.name(grip.other)}, {f.name(key)} may only "
                f"{', '.join(x.replace('_', ' ') for x in allowed)} them, escape, or act "
                f"without moving limbs (other <text>).")
    if m is None:
        return
    if m.needs_grapple and not (grip and grip.other == tkey and grip.kind in m.needs_grapple) \
            and not locks & set(m.needs_grapple):
        raise IllegalAction(f"A {m.name.replace('_', ' ')} needs a {' or '.join(m.needs_grapple)}"
                            f" with {f.name(tkey)} first: declare attack {f.name(tkey)} as "
                            f"{m.needs_grapple[0]}.")
    if m.natural:
        held = grip.kind if grip and grip.other == tkey else ""
        if not held and locks & set(GRAPPLERS):
            held = next(x for x in GRAPPLERS if x in locks)
        me = close_of(f, key)
        tackled = bool(me.tackled and me.tackled[0] == tkey
                       and me.tackled[1] == f.state.turn - 1)
        ctx = Context(grapple=held, tackled_last_turn=tackled)
        _natural(f.rules, sheet, ctx, m, Attack(key, tkey, maneuver=m.name,
                                                **attack_fields(a)))


# ---------------------------------------------------------------- COMP-01 Blind Fighting


def blind_fight(f: Fight, key: str, use: str) -> None:
    """COMP-01 / MAN-12: Perception + Blind Fighting as a reflex; each point earned goes to
    the own close-combat penalty (``penalty``) or against the bonus to attack you
    (``bonus``), for this turn."""
    if use not in ("penalty", "bonus"):
        raise InputError("Blind Fighting as: blindfight penalty|bonus.")
    res, points = blind_fighting(f.rules, f.sheet(key), rng=f.rng)
    f.events.append(roll_event(key, "blind fighting", res.pool, res.roll))
    pen, bon = (points, 0) if use == "penalty" else (0, points)
    set_close(f, key, blind_fight=(f.state.turn, pen, bon))
    f.emit("blind_fight", actor=key, points=points, use=use)


# ---------------------------------------------------------------- CLOSE-01 drain


def drain(f: Fight, key: str, tkey: str, most: int) -> None:
    """CLOSE-01: "Vampire can drain blood instead (up to 3 per turn)": blood moves from the
    victim's pool (when the sheet keeps one) to the vampire's, up to its maximum. Where the
    rules have the Kiss (CLOSE-14), the draining bite is the Kiss."""
    if kiss.enabled(f):
        kiss.drink(f, key, tkey)
        return
    victim, me = f.sheet(tkey), f.sheet(key)
    vb, mb = victim.pools.get("Blood"), me.pools.get("Blood")
    taken = min(most, vb.current) if vb is not None else most
    if vb is not None and taken:
        f.put_sheet(tkey, victim.spend("Blood", taken))
    gained = 0
    if mb is not None:
        gained = min(taken, max(0, mb.permanent - mb.current))
        if gained:
            pools = {**me.pools, "Blood": Pool(mb.current + gained, mb.permanent)}
            f.put_sheet(key, replace(me, pools=MappingProxyType(pools)))
    f.emit("drain", actor=key, target=tkey, taken=taken, gained=gained)


# ---------------------------------------------------------------- DEF-05 combat magic


def magic_of(f: Fight, key: str, action: dict):
    """DEF-05: a damaging power declared as ``magic <target> roll <pool> damage <n> ...``:
    the roll is the traits (or dice) the power's own rules name, the damage its dice."""
    spec = action.get("magic")
    if not spec:
        return None
    sheet = f.sheet(key)
    terms = []
    for word in spec["roll"]:
        if str(word).isdecimal():
            terms.append(("power", int(word)))
        else:
            canon = f.rules.traits.resolve(word)
            terms.append((canon, sheet.rating(f.rules.traits, canon)))
    diff = spec.get("difficulty") or f.rules.dice.base_difficulty
    return Magic(spec.get("name") or "magic", PoolSpec(tuple(terms), (), diff),
                 spec["damage"], spec.get("type") or "lethal", ranged=True,
                 lock_on=bool(spec.get("lock_on")), area=bool(spec.get("area")))


def countermagic(f: Fight, key: str) -> bool:
    """DEF-05: something of the defender's negates a power that locks on (set by the
    Storyteller as a condition: +combat/mod Bob=countermagic)."""
    c = f.state.get(key)
    return bool(c) and bool(c.conditions) and \
        "countermagic" in sch.active_conditions(c, f.state.turn)
