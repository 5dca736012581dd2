"""Setting a combat up, joining and leaving, and initiative (INIT-01..06)."""

from __future__ import annotations

import random
from typing import Iterable, Mapping, Sequence

from ...core import dice
from ...core.errors import IllegalAction, InputError
from ...core.events import Event
from ...core.values import copier, replace
from ..state import MODES, Combatant, CombatState, Options, Slot
from .phases import check_live, condition_initiative, finish, names_of, new_turn, prompts, settle
from .rules import InitRequest, Step, TurnRules, turn_rules

# ---------------------------------------------------------------- setting up


def new_combat(
    id: str,
    ruleset,
    *,
    mode: str | None = None,
    reroll_initiative: bool | None = None,
    flags: Iterable[str] = (),
    timeout: int | None = None,
    ahead: bool = False,
) -> CombatState:
    """An empty combat in turn 1's initiative phase; the mode is fixed from here (TURN-05).
    ``ahead``: the pacing where choices are entered ahead of the slot (Options.ahead)."""
    rules = turn_rules(ruleset)
    mode = (mode or rules.default_mode).strip().lower()
    if mode not in MODES:
        raise InputError(f"Combat mode must be {' or '.join(MODES)}, not '{mode}'.")
    _check_options(ruleset.name, rules, mode, reroll_initiative)
    reroll = rules.reroll_default if reroll_initiative is None else bool(reroll_initiative)
    opts = Options(mode, reroll, timeout, tuple(sorted({f.strip().lower() for f in flags})),
                   bool(ahead))
    return CombatState(str(id), ruleset.name, opts)


def _check_options(name: str, rules: TurnRules, mode: str | None, reroll: bool | None) -> None:
    """TURN-05 and INIT-04 are numetal's options; another ruleset refuses them by name."""
    if mode is not None and mode not in rules.modes:
        raise IllegalAction(
            f"The {mode} turn (declare and act high to low) is not in the {name} rules; "
            f"{name} plays the {' or '.join(rules.modes)} turn. Type +combat/start {name}."
        )
    if reroll and not rules.reroll_option:
        raise IllegalAction(
            f"Rolling initiative every turn (reroll) is not in the {name} rules. "
            f"Type +combat/start {name}."
        )


def set_options(
    state: CombatState,
    ruleset,
    *,
    mode: str | None = None,
    reroll_initiative: bool | None = None,
    flags: Iterable[str] | None = None,
    timeout: int | None = None,
    ahead: bool | None = None,
) -> Step:
    """Change combat options. The mode only before turn 1 starts (TURN-05: "agreed upon
    before combat starts"); re-rolling (INIT-04) from the next turn; flags (INIT-05) at the
    next initiative roll."""
    rules = turn_rules(ruleset)
    check_live(state)
    _check_options(ruleset.name, rules, mode and mode.strip().lower(), reroll_initiative)
    o = state.options
    if mode is not None:
        mode = mode.strip().lower()
        if mode not in MODES:
            raise InputError(f"Combat mode must be {' or '.join(MODES)}, not '{mode}'.")
        if mode != o.mode and not (state.turn == 1 and state.phase == "initiative"):
            raise IllegalAction(
                "The turn mode is agreed before the combat starts (TURN-05); "
                "end this combat and start a new one to change it."
            )
        o = replace(o, mode=mode)
    if reroll_initiative is not None:
        o = replace(o, reroll_initiative=bool(reroll_initiative))
    if flags is not None:
        o = replace(o, flags=tuple(sorted({f.strip().lower() for f in flags if f.strip()})))
    if timeout is not None:
        o = replace(o, timeout=int(timeout))
    if ahead is not None:
        o = replace(o, ahead=bool(ahead))
    events = [{"event": "options", **o.to_dict()}]
    return finish(state, replace(state, options=o), rules, events)


def join(
    state: CombatState,
    key: str,
    name: str,
    ruleset,
    *,
    is_npc: bool = False,
    controller: str | None = None,
) -> Step:
    """Add a combatant. During an initiative phase they take part in this turn; later, from
    the next turn (the order of a running turn is already set), and they may roll now."""
    rules = turn_rules(ruleset)
    check_live(state)
    key = str(key).strip()
    if not key:
        raise InputError("A combatant needs a key (a dbref or an NPC id).")
    old = state.get(key)
    if old is not None:
        raise IllegalAction(
            f"{old.name} is already in this combat (since turn "
            f"{old.joined_turn}); each character joins once."
        )
    joined = state.turn if state.phase == "initiative" else state.turn + 1
    c = Combatant(key, (name or key).strip(), bool(is_npc), controller, joined)
    events = [{"event": "join", "actor": key, "name": c.name, "npc": c.is_npc, "from_turn": joined}]
    return finish(state, replace(state, combatants=state.combatants + (c,)), rules, events)


def remove(state: CombatState, key: str, ruleset) -> Step:
    """Take a combatant out (fled, destroyed, left the scene)."""
    rules = turn_rules(ruleset)
    check_live(state)
    c = state.find(key)
    order, cursor = [], state.cursor
    for i, slot in enumerate(state.order):
        keys = tuple(k for k in slot.keys if k != key)
        if keys:
            order.append(Slot(slot.initiative, slot.rating, keys))
        elif i < state.cursor:
            cursor -= 1
    st = replace(
        state,
        combatants=tuple(x for x in state.combatants if x.key != key),
        order=tuple(order),
        cursor=max(0, cursor),
    )
    return finish(state, st, rules, [{"event": "leave", "actor": key, "name": c.name}])


def end(state: CombatState, ruleset) -> Step:
    rules = turn_rules(ruleset)
    check_live(state)
    st = replace(state, phase="ended", order=(), cursor=0)
    return finish(state, st, rules, [{"event": "end", "turn": state.turn}])


# ---------------------------------------------------------------- initiative


def _init_modifiers(
    st: CombatState, rules: TurnRules, req: InitRequest
) -> tuple[list[tuple[str, int]], list[dict]]:
    applied: list[tuple[str, int]] = []
    unapplied: list[dict] = []
    for reason, value in req.manual:  # INIT-03: what the player accounts for by hand
        if int(value):
            applied.append((str(reason), int(value)))
    race = (req.race or "").strip().lower()
    for row in rules.race_mods:  # INIT-05
        if (
            race
            and row["race"].lower() == race
            and (not row.get("flag") or row["flag"].lower() in st.options.flags)
        ):
            reason = row.get("reason") or f"{row['race']}"
            if rules.apply_race_modifiers:
                applied.append((reason, row["value"]))
            else:
                unapplied.append({"reason": reason, "value": row["value"]})
    if req.wound_penalty:  # INIT-03
        value = -abs(int(req.wound_penalty))
        if rules.apply_wound_penalty:
            applied.append(("wounds", value))
        else:
            unapplied.append({"reason": "wounds", "value": value})
    return applied, unapplied


def roll_initiatives(
    state: CombatState,
    requests: Iterable[InitRequest | Mapping],
    ruleset,
    rng: random.Random | None = None,
) -> Step:
    """INIT-01/02: rating + 1d10 for each request, in one pass (100 NPCs cost O(n))."""
    rules = turn_rules(ruleset)
    check_live(state)
    idx = state.index()
    changed: dict[str, Combatant] = {}
    events: list[dict] = []
    for req in requests:
        if type(req) is not InitRequest and isinstance(req, Mapping):  # no ABC check per roll
            req = InitRequest(**req)
        if req.key not in idx:
            state.find(req.key)  # raises with the names in the combat
        c = changed.get(req.key) or state.combatants[idx[req.key]]
        participant = c.joined_turn <= state.turn
        _check_may_roll(state, c, req, participant)
        rating = _rating_of(c, req)
        faces = _init_faces(req, rules, rng)
        applied, unapplied = _init_modifiers(state, rules, req)
        total = rating + sum(faces) + sum(v for _, v in applied)
        c = _ROLLED(c, rating, faces, tuple(applied), total)
        changed[c.key] = c
        ev = {
            "actor": c.key,
            "rating": rating,
            "faces": list(faces),
            "modifiers": [{"reason": r, "value": v} for r, v in applied],
            "total": total,
            "not_applied": unapplied,
        }
        cond = condition_initiative(c, state.turn + (0 if participant else 1), rules)
        if cond:
            ev["conditions"] = cond  # COMP-04: applied to the order, not to the roll
        if not participant:
            ev["from_turn"] = c.joined_turn
        events.append(Event("initiative", ev))
    return finish(state, state.with_combatants(changed), rules, events)


# what a roll sets on the combatant (a positional copier: combat/core/values.py)
_ROLLED = copier(Combatant, "rating", "init_faces", "init_mods", "init_total")


def _check_may_roll(state: CombatState, c: Combatant, req: InitRequest,
                    participant: bool) -> None:
    """INIT-04: one roll a turn; a staffer's /force replaces one made this initiative phase."""
    if c.init_total is None:
        return
    if participant and state.phase != "initiative":
        raise IllegalAction(
            f"{c.name} already has initiative {c.init_total} for this turn; the order "
            f"is set. It is re-rolled each turn only when the combat's re-roll option "
            f"is on (INIT-04)."
        )
    if not req.force:
        raise IllegalAction(
            f"{c.name} already rolled initiative {c.init_total} this "
            f"turn. A staffer can replace it with /force."
        )


def _rating_of(c: Combatant, req: InitRequest) -> int:
    """INIT-01/02: the rating given, or the one stored by an earlier roll."""
    rating = c.rating if req.rating is None else req.rating
    if rating is None:
        raise InputError(
            f"{c.name} needs an initiative rating: +combat/init "
            f"{c.name}=<Dexterity + Wits> (INIT-02)."
        )
    if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 30:
        raise InputError(
            f"An initiative rating is a whole number from 0 to 30, not {rating!r}."
        )
    return rating


def _init_faces(req: InitRequest, rules: TurnRules, rng) -> tuple[int, ...]:
    """The initiative die faces: the exact ones given, checked, or rolled."""
    if req.faces is None:
        if rng is None:
            raise InputError("No dice to roll with (rng missing).")
        return dice.roll_faces(rules.init_dice, rng, rules.sides)
    faces = tuple(int(f) for f in req.faces)
    if len(faces) != rules.init_dice or any(not 1 <= f <= rules.sides for f in faces):
        raise InputError(
            f"Initiative rolls {rules.init_dice} die/dice of 1..{rules.sides}"
            f", not {list(faces)}."
        )
    return faces


def roll_initiative(
    state: CombatState,
    key: str,
    ruleset,
    rng: random.Random | None = None,
    *,
    rating: int | None = None,
    race: str = "",
    wound_penalty: int = 0,
    manual: Sequence[tuple[str, int]] = (),
    faces: Sequence[int] | None = None,
    force: bool = False,
) -> Step:
    """INIT-01: rating (Dex + Wits, from the sheet; INIT-02: typed for an NPC) + 1d10.

    ``wound_penalty`` (negative or positive, taken as a penalty) is applied only where the
    ruleset says so (INIT-03; numetal reports it as ``not_applied``); ``race`` picks INIT-05
    rows whose flag (e.g. ``winter``) is set on the combat.
    """
    req = InitRequest(
        key,
        rating,
        race,
        wound_penalty,
        tuple((str(r), int(v)) for r, v in manual),
        None if faces is None else tuple(faces),
        force,
    )
    return roll_initiatives(state, [req], ruleset, rng)


def advance(state: CombatState, ruleset) -> Step:
    """Move on when nobody is waited for: start turn 1, or push past an idle turn.
    While someone is pending, the organizer uses ``skip`` (``+combat/next <name>``)."""
    rules = turn_rules(ruleset)
    check_live(state)
    waiting = prompts(state)
    if waiting:
        listing = "; ".join(f"{names_of(state, [k])} ({w})" for k, w in waiting)
        raise IllegalAction(
            f"Still waiting for: {listing}. To move on without them, skip "
            f"each: +combat/next <name>."
        )
    events: list[dict] = []
    if state.phase == "initiative" and not any(
        c.joined_turn <= state.turn and c.init_total is not None for c in state.combatants
    ):
        if not any(c.joined_turn > state.turn for c in state.combatants):
            raise IllegalAction("Nobody has rolled initiative yet: +combat/init first.")
        st = new_turn(state, rules, events)  # everyone sat this turn out
    else:
        st = settle(state, rules, events, allow_start=True, boundaries=1)
    return finish(state, st, rules, events, allow_start=True, boundaries=0)
