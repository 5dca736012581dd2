"""Who is in a spotlight fight: a new fight, joining (a vampire's HP by Blood Potency,
SPOT-13; an opponent's turns a round, SPOT-05), leaving, the end; and what a sheet brings
into a fight (issue 10: Harm lives on the sheet).
"""

from __future__ import annotations

from ..core.errors import IllegalAction, InputError
from ..core.values import replace
from .flow import Step, finish, live, whole
from .harm import zero_outcome
from .state import Fighter, SpotlightState
from .tables import hp_row, spot_rules


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


def sheet_health(sheet, ruleset) -> tuple[int, int, int]:
    """(max HP, superficial, aggravated) of a character as ``join`` brings it into a fight:
    a vampire's HP from the Blood Potency table (SPOT-13), anyone else's the YAML's
    ``default_hp``; the Harm the sheet carries kept within that track, Aggravated first."""
    p = sheet_profile(sheet, ruleset)
    rules = spot_rules(ruleset)
    hp_max = hp_row(rules, p["blood_potency"])[0] if p["vampire"] else rules.default_hp
    aggravated = min(p["aggravated"], hp_max)
    return hp_max, min(p["superficial"], hp_max - aggravated), aggravated


def join(state: SpotlightState, key: str, name: str, ruleset, *, is_npc: bool = False,
         controller: str | None = None, vampire: bool = False, blood_potency: int = 0,
         hp: int | None = None, actions_per_round: int | None = None, superficial: int = 0,
         aggravated: int = 0) -> Step:
    """Add a PC (``is_npc`` False) or an opponent. A vampire's HP and Final Death threshold
    come from the Blood Potency table (SPOT-13); anyone else has ``hp`` (or the YAML's
    ``default_hp``). ``actions_per_round``: an opponent's turns a round (SPOT-05). A PC who
    joins once round 1 is under way takes turns from the next round."""
    rules = spot_rules(ruleset)
    live(state)
    key = str(key).strip()
    if not key:
        raise InputError("A combatant needs a key (a dbref or an NPC id).")
    old = state.get(key)
    if old is not None:
        raise IllegalAction(f"{old.name} is already in this combat; each character joins once.")
    whole(blood_potency, "Blood Potency", 0, 20)
    if vampire:
        hp_max, fd = hp_row(rules, blood_potency)
    else:
        hp_max = rules.default_hp if hp is None else whole(hp, "HP", 1, 100)
        fd = None
    apr = rules.opponent_actions if actions_per_round is None else actions_per_round
    whole(apr, "Actions per round", 1, 10)
    if not is_npc and apr != 1:
        raise IllegalAction("A PC acts once a round, in initiative order (SPOT-04).")
    superficial, aggravated = _carried(hp_max, superficial, aggravated)
    side = "opponent" if is_npc else "pc"
    joined = state.round + 1 if (side == "pc" and state.stage != "initiative") else state.round
    c = Fighter(key, (name or key).strip(), side, controller, joined, actions_per_round=apr,
                vampire=bool(vampire), blood_potency=blood_potency if vampire else 0,
                hp_max=hp_max, final_death_at=fd, superficial=superficial,
                aggravated=aggravated)
    if c.hp == 0:
        c = replace(c, status=zero_outcome(c)[0])
    ev = {"event": "join", "actor": key, "name": c.name, "npc": bool(is_npc), "side": side,
          "from_round": joined, "hp": c.hp, "hp_max": hp_max, "final_death_at": fd,
          "actions_per_round": apr}
    return finish(state, replace(state, combatants=state.combatants + (c,)), rules, [ev])


def _carried(hp_max: int, superficial: int, aggravated: int) -> tuple[int, int]:
    """Harm carried in from the sheet (issue 10) fits the track this fight gives: a smaller
    track (a lower Blood Potency now) keeps the Aggravated marks first."""
    whole(superficial, "Superficial harm", 0)
    whole(aggravated, "Aggravated harm", 0)
    aggravated = min(aggravated, hp_max)
    return min(superficial, hp_max - aggravated), aggravated


def remove(state: SpotlightState, key: str, ruleset) -> Step:
    """Take a combatant out (fled, destroyed, left the scene)."""
    rules = spot_rules(ruleset)
    live(state)
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
    return finish(state, st, rules, [{"event": "leave", "actor": key, "name": c.name}])


def end(state: SpotlightState, ruleset) -> Step:
    rules = spot_rules(ruleset)
    live(state)
    st = replace(state, stage="ended", holder=(), picking=False)
    return finish(state, st, rules, [{"event": "end", "round": state.round}])
