"""The engine contract (issue 8): what the game side may rely on from ``engine_for(rules)``,
whichever engine it got. One suite, run under every ruleset (numetal, revised, everyman and
v20 pick the d10 engine, spotlight the spotlight engine); the test bodies never name an
engine. Where the two turns differ (d10 declares before acting, spotlight acts on its turn;
spotlight NPCs roll no initiative) a small script table keyed by ``engine.name`` says how to
get there, and the assertions after it are the same.

Every ``apply`` goes through ``Run``, which checks the invariants on every call:

* the intent round-trips through JSON and the round-tripped intent gives an identical
  Outcome from the same state and faces (purity, determinism: a log can be replayed);
* the input state is not mutated and the sheets mapping is read-only (it cannot be written);
* every queued die face is used (exact dice);
* every event is an ``Event`` whose dict round-trips and is JSON-safe (the event schema);
* the new state round-trips through JSON and ``engine_of_state`` finds the same engine;
* ``sheet_changes`` holds only keys of combatants, each value a ``Sheet``.

Plain pytest, exact dice, no Evennia.
"""

from __future__ import annotations

import copy
import functools
import json
import pathlib
from collections.abc import Mapping

import pytest

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for, engine_of_state
from wodcombat.combat.core.events import Event
from wodcombat.combat.core.outcome import Outcome
from wodcombat.combat.core.errors import IllegalAction, InputError, WodError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Sheet
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
RULESETS = ("numetal", "revised", "everyman", "v20", "spotlight")

ALICE, BOB, GOON, STAFF, NOBODY = "#1", "#2", "#3", "#9", "#77"
NOW = 1000.0


@functools.cache
def ruleset(name: str):
    return load_ruleset(RULES, name)


@pytest.fixture(scope="module", params=RULESETS)
def rs(request):
    return ruleset(request.param)


@pytest.fixture
def engine(rs):
    return engine_for(rs)


# Which engine each ruleset picks, for the collection-time tables below (never used in a
# test body to choose what to check).
ENGINE_OF = {name: engine_for(ruleset(name)).name for name in RULESETS}


# ---------------------------------------------------------------- sheets


def make_sheet(rs, **traits) -> Sheet:
    """A sheet with the traits this ruleset's sheet has: v20 has no Dodge ability (V20
    dodges with Dexterity + Athletics), so a Dodge rating is left off there."""
    s = Sheet()
    for name, value in traits.items():
        try:
            s, _ = s.set(rs.traits, name, str(value))
        except InputError:
            if name.title() in rs.traits.traits:  # a real mistake, not a missing ability
                raise
    return s


def make_sheets(rs) -> dict[str, Sheet]:
    """The same three mortals under every ruleset (the trait names are shared, but for
    Dodge, which v20 does not have)."""
    return {
        ALICE: make_sheet(rs, splat="mortal", dexterity=3, wits=2, strength=2, stamina=2,
                          brawl=2, dodge=2, melee=2),
        BOB: make_sheet(rs, splat="mortal", dexterity=2, wits=3, strength=2, stamina=2,
                        brawl=1, dodge=1),
        GOON: make_sheet(rs, splat="mortal", dexterity=2, wits=2, strength=2, stamina=2,
                         brawl=2),
    }


class Sheets(Mapping):
    """A read-only sheet mapping that records every key read (the service loads sheets
    lazily: an engine should read only what it needs)."""

    def __init__(self, data: Mapping[str, Sheet]):
        self._data = dict(data)
        self.read: list[str] = []

    def __getitem__(self, key):
        self.read.append(key)
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)


# ---------------------------------------------------------------- the invariants


def keys_of(engine, state, sheets, rs) -> set[str]:
    return {row["key"] for row in engine.view(state, sheets, rs)["rows"]}


def row_of(engine, state, sheets, rs, key) -> dict | None:
    return next((r for r in engine.view(state, sheets, rs)["rows"] if r["key"] == key), None)


def check_events(out: Outcome) -> None:
    """The event schema: ``Event`` values whose dicts round-trip and are JSON-safe."""
    assert isinstance(out.events, tuple)
    for e in out.events:
        assert isinstance(e, Event), e
        assert isinstance(e.kind, str) and e.kind
        d = e.to_dict()
        assert d["event"] == e.kind
        assert Event.from_dict(d) == e
        json.dumps(d, allow_nan=False)  # JSON-safe: no sets, objects, NaN ...


def events_of_a_fight(rs) -> list[Event]:
    """Every event of a short fight: joins, initiative, an attack that hits, staff damage,
    a timeout, a removal, the end."""
    run = started(rs)
    name = run.engine.name
    TO_ATTACK[name](run)
    run(ATTACK[name], *ATTACK_FACES[name][0], *ATTACK_FACES[name][1])
    run(I.StaffDamage(by=STAFF, actor=BOB, levels=2, damage_type=STAFF_DAMAGE[name]))
    run(I.SetTimeout(by=STAFF, seconds=30))
    run.state = run.engine.stamp(run.state, 30, now=NOW)
    run(I.Expire(now=NOW + 30))
    run(I.Remove(by=BOB, actor=BOB))
    run(I.End(by=STAFF))
    return run.events


def check_state(engine, state) -> None:
    """The stored state: JSON round trip to an equal state, of the same engine."""
    data = state.to_dict()
    stored = json.loads(json.dumps(data))
    assert engine.load(stored).to_dict() == data
    assert engine_of_state(stored) is engine
    assert engine_of_state(data) is engine


def check_outcome(engine, before_keys: set[str], out: Outcome, sheets, rs) -> None:
    assert isinstance(out, Outcome)
    check_events(out)
    check_state(engine, out.state)
    after_keys = keys_of(engine, out.state, sheets, rs)
    assert set(out.sheet_changes) <= before_keys | after_keys, out.sheet_changes
    for key, sheet in out.sheet_changes.items():
        assert isinstance(sheet, Sheet), (key, sheet)


def apply_checked(engine, state, intent, sheets: Mapping, rs, faces=()) -> Outcome:
    """``engine.apply`` with every invariant of the contract checked around it."""
    again = I.from_dict(json.loads(json.dumps(intent.to_dict())))
    assert again == intent, (again, intent)
    before = copy.deepcopy(state.to_dict())
    dice = FixedDice(*faces)
    out = engine.apply(state, intent, Sheets(sheets), rs, dice)
    assert dice.faces == [], f"faces left unused: {dice.faces}"
    assert state.to_dict() == before, "apply mutated its input state"
    twin = engine.apply(state, again, Sheets(sheets), rs, FixedDice(*faces))
    assert twin.state.to_dict() == out.state.to_dict()
    assert twin.events == out.events
    assert dict(twin.sheet_changes) == dict(out.sheet_changes)
    check_outcome(engine, keys_of(engine, state, sheets, rs), out, sheets, rs)
    return out


class Run:
    """A fight driven through the interface as the combat service drives it."""

    def __init__(self, rs, sheets=None, options=None):
        self.rs = rs
        self.engine = engine_for(rs)
        self.sheets = dict(sheets or make_sheets(rs))
        out = self.engine.new_combat("c1", rs, dict(options or {}))
        check_outcome(self.engine, set(), out, self.sheets, rs)
        self.state = out.state
        self.events: list[Event] = list(out.events)
        self.log: list[tuple[str, tuple[int, ...]]] = []  # (intent JSON, faces), as logged

    def __call__(self, intent, *faces) -> Outcome:
        out = apply_checked(self.engine, self.state, intent, self.sheets, self.rs, faces)
        self.log.append((json.dumps(intent.to_dict()), faces))
        self.state = out.state
        self.sheets.update(out.sheet_changes)
        self.events.extend(out.events)
        return out

    def refused(self, intent, *faces) -> WodError:
        """Refused (IllegalAction or InputError), the state unchanged; the error."""
        before = copy.deepcopy(self.state.to_dict())
        with pytest.raises(WodError) as err:
            self.engine.apply(self.state, intent, Sheets(self.sheets), self.rs,
                              FixedDice(*faces))
        assert isinstance(err.value, (IllegalAction, InputError)), err.value
        assert self.state.to_dict() == before
        return err.value

    # views through the interface
    def keys(self) -> set[str]:
        return keys_of(self.engine, self.state, self.sheets, self.rs)

    def row(self, key) -> dict | None:
        return row_of(self.engine, self.state, self.sheets, self.rs, key)

    def prompts(self):
        return self.engine.prompts(self.state)

    def pending(self):
        return self.engine.pending(self.state)


# ---------------------------------------------------------------- per-engine scripts
#
# How each engine gets to the same point. Faces are exact: d10 initiative is 1d10 + Dex +
# Wits (Alice 5, Bob 5); spotlight initiative is 2d6 + the best initiative trait, and only PCs
# roll (SPOT-01).

INITIATIVE = {
    "d10": {ALICE: (9,), BOB: (5,)},  # Alice 14, Bob 10
    "spotlight": {ALICE: (6, 5), BOB: (2, 1)},  # Alice 13, Bob 6 (Wits 3 + 3)
}


def npc_initiative(run: Run) -> None:
    """d10: the runner types the NPC's rating (INIT-02); spotlight: opponents never roll."""
    if run.engine.name == "d10":
        run(I.RollInitiative(by=STAFF, actor=GOON, rating=4), 3)


def joined(rs) -> Run:
    run = Run(rs)
    run(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    run(I.Join(by=BOB, actor=BOB, name="Bob"))
    run(I.Join(by=STAFF, actor=GOON, name="Goon", is_npc=True, controller=STAFF))
    return run


def rolled(rs) -> Run:
    run = joined(rs)
    faces = INITIATIVE[run.engine.name]
    run(I.RollInitiative(by=ALICE, actor=ALICE), *faces[ALICE])
    run(I.RollInitiative(by=BOB, actor=BOB), *faces[BOB])
    npc_initiative(run)
    return run


def started(rs) -> Run:
    """Round/turn 1 under way: the fight waits for someone."""
    run = rolled(rs)
    run(I.Advance(by=STAFF))
    assert run.pending()
    return run


def _d10_to_attack(run: Run) -> None:
    """d10 (classic mode): everyone declares, low initiative first; Alice attacks Goon."""
    run(I.Declare(by=STAFF, actor=GOON, actions=({"kind": "pass"},)))
    run(I.Declare(by=BOB, actor=BOB, actions=({"kind": "pass"},)))
    run(I.Declare(by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON},)))


def _spotlight_to_attack(run: Run) -> None:
    """spotlight: Alice holds the spotlight; fists reach Hand, so she steps closer first."""
    run(I.Move(by=ALICE, actor=ALICE, other=GOON, direction="closer"))


TO_ATTACK = {"d10": _d10_to_attack, "spotlight": _spotlight_to_attack}
# The attack itself: d10 acts what was declared; spotlight says what it does.
ATTACK = {
    "d10": I.Act(by=ALICE, actor=ALICE),
    "spotlight": I.Act(by=ALICE, actor=ALICE, action={"kind": "attack", "target": GOON}),
}
# Attack roll faces, then whatever the hit rolls: d10 Dex 3 + Brawl 2 (two successes), the
# damage Strength 2 + 1 extra success (three), Goon's soak Stamina 2 (one); spotlight
# Strength 2 + Brawl 2 (two successes) against Goon fighting back with Strength 2 + Brawl 2
# (none; issue 31, V5 close combat: larger than his dodge's 2 dice): a V5 contest, margin 2
# (issue 10: 2 Superficial).
ATTACK_FACES = {"d10": ((9, 9, 2, 2, 2), (9, 9, 9, 9, 2)),
                "spotlight": ((9, 9, 2, 2), (2, 2, 2, 2))}
STAFF_DAMAGE = {"d10": "lethal", "spotlight": "superficial"}
# An intent kind the other engine takes and this one does not.
FOREIGN = {
    "d10": (I.Move(by=ALICE, actor=ALICE, other=GOON, direction="closer"),),
    "spotlight": (I.Declare(by=ALICE, actor=ALICE,
                            actions=({"kind": "attack", "target": GOON},)),),
}
# Every intent kind only the other engine takes.
FOREIGN_ALL = {
    "d10": (
        I.Move(by=ALICE, actor=ALICE, other=GOON, direction="closer"),
        I.Free(by=ALICE, actor=ALICE, text="draws"),
        I.Done(by=ALICE, actor=ALICE),
        I.Swap(by=ALICE, actor=ALICE, other=BOB),
        I.Ambush(by=STAFF, side="pcs"),
        I.Narrate(by=STAFF, text="The roof burns."),
        I.Stake(by=STAFF, actor=GOON),
        I.Feed(by=STAFF, actor=GOON, slaked=1),
    ),
    "spotlight": (
        I.Declare(by=ALICE, actor=ALICE, actions=({"kind": "attack", "target": GOON},)),
        I.Pass(by=ALICE, actor=ALICE),
        I.Delay(by=ALICE, actor=ALICE),
        I.Abort(by=ALICE, actor=ALICE),
        I.SetCover(by=STAFF, actor=GOON, level="good"),
        I.SetFlag(by=STAFF, flag="winter", remove=True),
        I.Change(by=ALICE, actor=ALICE, to={"kind": "dodge"}),
        I.StaffHeal(by=STAFF, actor=GOON, levels=1),
    ),
}


# ---------------------------------------------------------------- 1. new_combat


def test_new_combat_starts_and_its_state_round_trips(rs, engine):
    out = engine.new_combat("c1", rs, {})
    assert isinstance(out, Outcome)
    assert out.events and out.events[0].kind == "start"
    assert out.events[0]["engine"] == engine.name
    assert dict(out.sheet_changes) == {}
    check_events(out)
    data = out.state.to_dict()
    assert engine.load(json.loads(json.dumps(data))).to_dict() == data
    assert engine_of_state(data) is engine
    assert engine_of_state(json.loads(json.dumps(data))) is engine
    assert engine.prompts(out.state) == [] and engine.pending(out.state) == []


def test_engine_for_and_engine_of_state_agree(rs, engine):
    assert engine_for(rs) is engine
    run = started(rs)
    assert engine_of_state(run.state.to_dict()) is engine


# ---------------------------------------------------------------- 2. the shared intents


def test_join_two_pcs_and_an_npc(rs):
    run = joined(rs)
    joins = [e for e in run.events if e.kind == "join"]
    assert [(e["actor"], e["npc"]) for e in joins] == [
        (ALICE, False), (BOB, False), (GOON, True)]
    assert run.keys() == {ALICE, BOB, GOON}
    assert [run.row(k)["npc"] for k in (ALICE, BOB, GOON)] == [False, False, True]
    assert [run.row(k)["name"] for k in (ALICE, BOB, GOON)] == ["Alice", "Bob", "Goon"]
    assert {ALICE, BOB} <= set(run.pending())  # (d10 also waits for the NPC's rating)
    assert all(what == "initiative" for _, what in run.prompts())
    # joining twice is refused and changes nothing
    run.refused(I.Join(by=ALICE, actor=ALICE, name="Alice"))


def test_roll_initiative_from_the_sheets(rs):
    run = joined(rs)
    faces = INITIATIVE[run.engine.name]
    for key in (ALICE, BOB):
        out = run(I.RollInitiative(by=key, actor=key), *faces[key])
        (ev,) = [e for e in out.events if e.kind == "initiative"]
        assert ev["actor"] == key and ev["faces"] == list(faces[key])
        assert run.row(key)["init"] == ev["total"]
        assert key not in run.pending()
    assert run.row(ALICE)["init"] > run.row(BOB)["init"]
    # once a turn/round: a second roll is refused
    run.refused(I.RollInitiative(by=ALICE, actor=ALICE), *faces[ALICE])


def test_advance_starts_the_fight(rs):
    run = rolled(rs)
    assert all(what == "initiative" for _, what in run.prompts())
    out = run(I.Advance(by=STAFF))
    assert out.events
    assert run.pending() and all(what != "initiative" for _, what in run.prompts())


def test_act_an_attack(rs):
    run = started(rs)
    name = run.engine.name
    TO_ATTACK[name](run)
    attack_faces, hit_faces = ATTACK_FACES[name]
    before = run.row(GOON)
    out = run(ATTACK[name], *attack_faces, *hit_faces)
    rolls = [e for e in out.events if e.kind == "roll" and e["purpose"] == "attack"]
    assert len(rolls) == 1
    (roll,) = rolls
    assert roll["actor"] == ALICE and roll["faces"] == list(attack_faces)
    assert roll["successes"] == 2 and roll["pool"] == len(attack_faces)
    after_roll = out.events[out.events.index(roll) + 1:]
    assert any(e.get("target") == GOON for e in after_roll)  # the hit lands on Goon
    assert run.row(GOON) != before  # and shows on Goon
    # the action is used: the same attack again is refused, nothing changes
    run.refused(ATTACK[name], *attack_faces, *hit_faces)


def test_staff_damage(rs):
    run = started(rs)
    before = run.row(GOON)
    out = run(I.StaffDamage(by=STAFF, actor=GOON, levels=2,
                            damage_type=STAFF_DAMAGE[run.engine.name]))
    assert any(e.get("target") == GOON for e in out.events)
    assert set(out.sheet_changes) <= {GOON}
    assert run.row(GOON) != before
    assert run.row(ALICE) is not None and run.row(BOB) is not None


def test_remove(rs):
    run = started(rs)
    out = run(I.Remove(by=BOB, actor=BOB))
    assert any(e.kind == "leave" and e["actor"] == BOB for e in out.events)
    assert run.keys() == {ALICE, GOON}
    assert BOB not in run.pending()
    run.refused(I.Remove(by=STAFF, actor=BOB, why="kick"))  # gone already


def test_end(rs):
    run = started(rs)
    out = run(I.End(by=STAFF))
    assert any(e.kind == "end" for e in out.events)
    assert run.prompts() == [] and run.pending() == []
    assert not run.engine.due(run.engine.stamp(run.state, 30, NOW), NOW + 3600)
    run.refused(I.End(by=STAFF))  # ended already
    run.refused(I.Advance(by=STAFF))


def test_a_whole_fight_replays_identically(rs):
    """The log of intents (as stored JSON) replayed from a new combat with the same faces
    gives the same state, sheets and events (``bin/replay``)."""
    run = started(rs)
    name = run.engine.name
    TO_ATTACK[name](run)
    run(ATTACK[name], *ATTACK_FACES[name][0], *ATTACK_FACES[name][1])
    run(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type=STAFF_DAMAGE[name]))
    run(I.SetTimeout(by=STAFF, seconds=30))
    run(I.End(by=STAFF))
    replay = Run(rs)
    for data, faces in run.log:
        replay(I.from_dict(json.loads(data)), *faces)
    assert replay.state.to_dict() == run.state.to_dict()
    assert replay.sheets == run.sheets
    assert replay.events == run.events


def test_a_fight_leaves_nothing_growing_on_the_ruleset(rs):
    """Issue 32: what the engine derives from the rules is built once and kept on the
    ruleset, read-only; whatever play reuses lives in the call's (or the run's) ``Memo``.
    Two fights leave the same derived tables, the very same objects, none a plain dict,
    list or set that play could fill (CLOSE-08's "is this attack close" answers once did)."""
    events_of_a_fight(rs)
    first = dict(rs.__dict__.get("_derived") or {})
    events_of_a_fight(rs)
    after = rs.__dict__.get("_derived") or {}
    assert after.keys() == first.keys()
    assert all(after[k] is v for k, v in first.items())
    growing = [getattr(k, "__qualname__", k) for k, v in after.items()
               if type(v) in (dict, list, set)]
    assert growing == []


# ---------------------------------------------------------------- 3. the event schema


def test_every_event_of_a_fight_is_an_event_and_json_safe(rs):
    events = events_of_a_fight(rs)
    kinds = {e.kind for e in events}
    assert {"start", "join", "initiative", "roll", "timeout_set", "timeout", "leave",
            "end"} <= kinds
    for e in events:
        assert isinstance(e, Event)
        assert Event.from_dict(e.to_dict()) == e
        json.dumps(e.to_dict(), allow_nan=False)


@pytest.mark.parametrize("rs_name", RULESETS)
def test_a_logged_event_reads_back_equal(rs_name):
    """JSON-safe strictly: an event read back from the log equals the one the fight emitted
    (replays and renders compare them)."""
    for e in events_of_a_fight(ruleset(rs_name)):
        stored = json.loads(json.dumps(e.to_dict()))
        assert Event.from_dict(stored) == e, e.kind


# ---------------------------------------------------------------- 4. intents as data


def _one_of_each_kind() -> list[I.Intent]:
    return [
        I.Join(by=ALICE, actor=ALICE, name="Alice", is_npc=False, controller=STAFF, hp=7,
               actions=2),
        I.Remove(by=STAFF, actor=BOB, why="kick"),
        I.RollInitiative(by=STAFF, actor=GOON, rating=4),
        I.Advance(by=STAFF, actor=GOON),
        I.Act(by=ALICE, action={"kind": "attack", "target": GOON, "weapon": "knife"}),
        I.StaffDamage(by=STAFF, actor=GOON, levels=2, damage_type="aggravated"),
        I.StaffHeal(by=STAFF, actor=GOON, levels=1, damage_type="bashing"),
        I.SetTimeout(by=STAFF, seconds=30),
        I.Expire(now=1030.5, gone=(BOB, GOON)),
        I.End(by=STAFF),
        I.Declare(by=ALICE, actor=ALICE,
                  actions=({"kind": "attack", "target": GOON, "weapon": "Knife"},
                           {"kind": "dodge", "how": "prone"}),
                  activations=({"activate": "spend", "pool": "Blood", "amount": 1},),
                  desperate=True),
        I.Pass(by=ALICE), I.Delay(by=ALICE), I.Abort(by=ALICE, to="block", spend_willpower=True),
        I.SetCondition(by=STAFF, actor=GOON, condition="blinded", turns=3),
        I.SetCover(by=STAFF, actor=GOON, level="good"),
        I.SetFlag(by=STAFF, flag="winter"), I.SetPace(by=STAFF, ahead=True),
        I.Change(by=ALICE, actor=ALICE, to={"kind": "move", "yards": 5}, spend_willpower=True),
        I.Move(by=ALICE, other=GOON, direction="away"), I.Free(by=ALICE, text="draws"),
        I.Done(by=ALICE), I.Swap(by=ALICE, actor=ALICE, other=BOB),
        I.Ambush(by=STAFF, side="npcs"), I.Narrate(by=STAFF, text="Rain."),
        I.SetRange(by=STAFF, actor=ALICE, other=GOON, band="Far"),
        I.Stake(by=STAFF, actor=GOON, remove=True), I.Feed(by=STAFF, actor=GOON, slaked=2),
        I.Reroll(by=ALICE, dice=(1, 3)),
        I.NameCost(by=STAFF, actor=GOON, text="1"),  # issue 31: spotlight's moves reading
        I.Recover(by=STAFF, actor=GOON, damage_type="bashing", place="freehold",
                  chimerical=True),
    ]


def test_every_intent_kind_round_trips_through_json():
    samples = _one_of_each_kind()
    assert sorted(i.kind for i in samples) == sorted(I.kinds())
    for intent in samples:
        data = json.loads(json.dumps(intent.to_dict()))
        assert data["intent"] == intent.kind
        assert I.from_dict(data) == intent


def test_every_intent_is_taken_or_refused_cleanly(rs):
    """Any intent kind at all, applied mid-fight, gives a checked Outcome or a WodError that
    changes nothing: never another exception."""
    for intent in _one_of_each_kind():
        run = started(rs)
        before = copy.deepcopy(run.state.to_dict())
        try:
            out = run.engine.apply(run.state, intent, Sheets(run.sheets), rs,
                                   FixedDice(*[5] * 40))
        except WodError:
            assert run.state.to_dict() == before
            continue
        assert run.state.to_dict() == before
        check_outcome(run.engine, {ALICE, BOB, GOON}, out, run.sheets, rs)


# ---------------------------------------------------------------- 5. refusals


def test_refused_unknown_combatant_changes_nothing(rs):
    run = started(rs)
    for intent in (I.StaffDamage(by=STAFF, actor=NOBODY, levels=1,
                                 damage_type=STAFF_DAMAGE[run.engine.name]),
                   I.Remove(by=STAFF, actor=NOBODY, why="kick"),
                   I.Act(by=NOBODY, actor=NOBODY)):
        run.refused(intent)


def test_refused_unknown_combatant_says_what_to_type(rs):
    run = started(rs)
    err = run.refused(I.StaffDamage(by=STAFF, actor=NOBODY, levels=1,
                                    damage_type=STAFF_DAMAGE[run.engine.name]))
    assert "+combat/" in str(err)


def test_refused_foreign_intent_kind_says_what_to_type(rs):
    run = started(rs)
    for intent in FOREIGN[run.engine.name]:
        err = run.refused(intent)
        assert "+combat/" in str(err), str(err)


def _foreign_params():
    for name in RULESETS:
        for intent in FOREIGN_ALL[ENGINE_OF[name]]:
            yield pytest.param(name, intent, id=f"{name}-{intent.kind}")


@pytest.mark.parametrize("rs_name, intent", list(_foreign_params()))
def test_every_foreign_intent_kind_is_refused_with_what_to_type(rs_name, intent):
    run = started(ruleset(rs_name))
    err = run.refused(intent)
    assert "+combat/" in str(err), str(err)


# ---------------------------------------------------------------- 6. the idle clock


def test_set_timeout_and_the_clock(rs):
    run = started(rs)
    e = run.engine
    assert e.timeout(run.state) is None
    out = run(I.SetTimeout(by=STAFF, seconds=30))
    assert any(ev.kind == "timeout_set" and ev["seconds"] == 30 for ev in out.events)
    assert e.timeout(run.state) == 30
    assert e.remaining(run.state, NOW) is None  # no deadline until stamped
    stamped = e.stamp(run.state, 30, now=NOW)
    assert e.remaining(stamped, NOW) == 30
    assert e.due(stamped, NOW + 29) is False
    assert e.due(stamped, NOW + 30) is True
    assert e.remaining(stamped, NOW + 30) == 0 and e.remaining(stamped, NOW + 99) == 0
    assert e.stamp(stamped, 30, now=NOW + 10) == stamped  # the same wait keeps its deadline
    assert e.remaining(e.stamp(stamped, 0, now=NOW), NOW) is None  # 0: off
    assert e.remaining(e.stamp(stamped, None, now=NOW), NOW) is None
    check_state(e, stamped)
    # a new timeout restarts the current wait
    again = apply_checked(e, stamped, I.SetTimeout(by=STAFF, seconds=60), run.sheets, rs)
    assert e.remaining(again.state, NOW) is None and e.timeout(again.state) == 60


@pytest.mark.parametrize("rs_name", RULESETS)
def test_a_negative_timeout_is_refused(rs_name):
    run = started(ruleset(rs_name))
    err = run.refused(I.SetTimeout(by=STAFF, seconds=-1))
    assert isinstance(err, InputError)


def test_stamp_needs_someone_waited_for(rs):
    run = started(rs)
    run(I.End(by=STAFF))
    assert run.engine.remaining(run.engine.stamp(run.state, 30, now=NOW), NOW) is None


def test_expire_before_the_deadline_changes_nothing(rs):
    run = started(rs)
    run(I.SetTimeout(by=STAFF, seconds=30))
    run.state = run.engine.stamp(run.state, 30, now=NOW)
    out = run(I.Expire(now=NOW + 29))
    assert out.state.to_dict() == run.state.to_dict() and out.events == ()


def test_expire_applies_a_default(rs):
    run = started(rs)
    run(I.SetTimeout(by=STAFF, seconds=30))
    run.state = run.engine.stamp(run.state, 30, now=NOW)
    waited = run.prompts()
    out = run(I.Expire(now=NOW + 30))
    timeouts = [e for e in out.events if e.kind == "timeout"]
    assert timeouts
    first = timeouts[0]
    assert first["what"] == waited[0][1] and isinstance(first["default"], str)
    assert first["deadline"] == NOW + 30
    assert first["actor"] in (waited[0][0], None)
    assert run.prompts() != waited  # the fight moved on
    assert run.keys() == {ALICE, BOB, GOON}  # nobody was removed
    assert run.engine.remaining(run.state, NOW + 30) is None  # the caller stamps anew


def test_expire_removes_the_gone(rs):
    run = started(rs)
    run(I.SetTimeout(by=STAFF, seconds=30))
    run.state = run.engine.stamp(run.state, 30, now=NOW)
    gone = run.pending()[0]
    out = run(I.Expire(now=NOW + 30, gone=(gone,)))
    (ev,) = [e for e in out.events if e.kind == "timeout" and e["actor"] == gone]
    assert ev["default"] == "removed"
    assert any(e.kind == "leave" and e["actor"] == gone for e in out.events)
    assert gone not in run.keys() and gone not in run.pending()


# ---------------------------------------------------------------- 7. sheet_changes


def test_sheet_changes_are_combatants_sheets(rs):
    """Checked on every apply by ``Run``; here the intents that change health."""
    run = started(rs)
    name = run.engine.name
    TO_ATTACK[name](run)
    out = run(ATTACK[name], *ATTACK_FACES[name][0], *ATTACK_FACES[name][1])
    assert set(out.sheet_changes) <= {GOON}
    out = run(I.StaffDamage(by=STAFF, actor=BOB, levels=1, damage_type=STAFF_DAMAGE[name]))
    assert set(out.sheet_changes) <= {BOB}
    assert all(isinstance(s, Sheet) for s in out.sheet_changes.values())


# ---------------------------------------------------------------- 8. sheets read lazily


def test_advance_reads_no_sheet(rs):
    run = rolled(rs)
    sheets = Sheets(run.sheets)
    out = run.engine.apply(run.state, I.Advance(by=STAFF), sheets, rs, FixedDice())
    assert sheets.read == []
    assert out.events


def test_join_and_initiative_read_only_their_own_sheet(rs):
    run = Run(rs)
    sheets = Sheets(run.sheets)
    run.state = run.engine.apply(run.state, I.Join(by=ALICE, actor=ALICE, name="Alice"),
                                 sheets, rs, FixedDice()).state
    assert set(sheets.read) <= {ALICE}
    sheets = Sheets(run.sheets)
    run.engine.apply(run.state, I.RollInitiative(by=ALICE, actor=ALICE), sheets, rs,
                     FixedDice(*INITIATIVE[run.engine.name][ALICE]))
    assert set(sheets.read) == {ALICE}


def test_prompts_and_pending_agree(rs):
    run = joined(rs)
    assert run.pending() == [k for k, _ in run.prompts()]
    run = started(rs)
    assert run.pending() == [k for k, _ in run.prompts()]
    prompts = run.prompts()
    assert all(isinstance(k, str) and isinstance(w, str) for k, w in prompts)
    json.dumps(run.engine.view(run.state, run.sheets, rs))
