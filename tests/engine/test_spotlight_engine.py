"""The spotlight engine behind the one interface (combat/spotlight/engine.py; seed 004,
SPOT-01..14; issues 5 and 8): every intent kind, with exact dice faces."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from wodcombat.combat.spotlight import ranges
from wodcombat.combat.core import intents as I
from wodcombat.combat.core.engine import engine_for, engine_of_state
from wodcombat.combat.core.events import Event
from wodcombat.combat.core.errors import IllegalAction, InputError, RulesError
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.spotlight.engine import ENGINE, SpotlightEngine
from wodcombat.combat.spotlight.state import SpotlightOptions, SpotlightState
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
ALICE, BOB, GHOUL, ELDER, STAFF = "#1", "#2", "#3", "#4", "#9"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "spotlight")


def sheet(rs, **traits) -> Sheet:
    s = Sheet()
    for name, value in traits.items():
        s, _ = s.set(rs.traits, name, str(value))
    return s


@pytest.fixture(scope="module")
def sheets(rs):
    """Alice: BP 3 (12 HP), Wits 2, Dex 3, Melee 2; Bob: BP 1 (6 HP), Wits 3; Elder: BP 4.
    Ghoul has no sheet: an HP-only opponent."""
    return {
        ALICE: sheet(rs, splat="vampire", bp=3, wits=2, dexterity=3, melee=2, brawl=2),
        BOB: sheet(rs, splat="vampire", bp=1, wits=3, dexterity=2, firearms=2),
        ELDER: sheet(rs, splat="vampire", bp=4, strength=3, brawl=3),
    }


class Lazy(dict):
    """A sheet mapping that records what was read (the service loads sheets lazily)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.read: list[str] = []

    def __getitem__(self, key):
        self.read.append(key)
        return super().__getitem__(key)


class Run:
    """Applies intents like the service will, keeping every event."""

    def __init__(self, rs, sheets, state=None):
        # A copy: Harm and Hunger the engine writes back land here (issue 10), not in the
        # module's sheets.
        self.rs, self.sheets = rs, sheets if isinstance(sheets, Lazy) else dict(sheets)
        self.state = state or ENGINE.new_combat("c1", rs, {}).state
        self.events: list[Event] = []

    def __call__(self, intent, *faces):
        out = ENGINE.apply(self.state, intent, self.sheets, self.rs, FixedDice(*faces))
        for key, s in out.sheet_changes.items():  # issue 10: Harm persists on the sheet
            assert (s.harm.get("superficial", 0), s.harm.get("aggravated", 0)) == (
                (out.state.get(key).superficial, out.state.get(key).aggravated)
                if out.state.get(key) else (s.harm.get("superficial", 0),
                                            s.harm.get("aggravated", 0)))
            self.sheets[key] = s
        assert all(isinstance(e, Event) for e in out.events)
        self.state = out.state
        self.events.extend(out.events)
        return out

    def of(self, kind):
        return [e for e in self.events if e.kind == kind]

    def last(self, kind):
        return self.of(kind)[-1]

    def refused(self, intent, err=IllegalAction, match=None):
        """Refused with no dice rolled (FixedDice has no faces) and nothing changed."""
        before = self.state.to_dict()
        with pytest.raises(err, match=match):
            ENGINE.apply(self.state, intent, self.sheets, self.rs, FixedDice())
        assert self.state.to_dict() == before


def scene(rs, sheets, *, elder_actions=2):
    """Alice (init 12) and Bob (init 6); opponents Ghoul (7 HP) and Elder (2 turns)."""
    r = Run(rs, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=BOB, actor=BOB, name="Bob"))
    r(I.Join(by=STAFF, actor=GHOUL, name="Ghoul", is_npc=True, controller=STAFF, hp=7))
    r(I.Join(by=STAFF, actor=ELDER, name="Elder", is_npc=True, controller=STAFF,
             actions=elder_actions))
    r(I.RollInitiative(by=ALICE, actor=ALICE), 4, 5)  # 9 + Blood Potency 3 = 12
    r(I.RollInitiative(by=BOB), 1, 2)  # 3 + Wits 3 = 6; actor defaults to who typed it
    return r


def started(rs, sheets, **kw):
    r = scene(rs, sheets, **kw)
    r(I.Advance(by=STAFF))
    return r


# ---------------------------------------------------------------- setting up


def test_new_combat_start_event_and_no_modes(rs):
    out = ENGINE.new_combat("c9", rs, {})
    assert isinstance(out.state, SpotlightState) and out.state.stage == "initiative"
    assert out.events == (Event("start", {"engine": "spotlight", "ruleset": "spotlight",
                                          "how": "spotlight engine"}),)
    assert out.sheet_changes == {}
    for opts in ({"mode": "simple"}, {"reroll": True}, {"classic": True}, {"ahead": True}):
        with pytest.raises(IllegalAction, match=r"no modes \(=simple, =reroll, =ahead are "
                                                r"for d10"):
            ENGINE.new_combat("c9", rs, opts)
    # unset options are no options, nor is the game's default pace of d10 fights (issue
    # 28); the idle timeout is taken
    assert ENGINE.new_combat("c9", rs, {"mode": None, "reroll": False, "ahead": None,
                                        "default_pace": "ahead"}).state.options == \
        SpotlightOptions()
    assert ENGINE.new_combat("c9", rs, {"timeout": 90}).state.options.timeout == 90
    with pytest.raises(RulesError, match="spotlight engine needs it"):
        ENGINE.new_combat("c9", load_ruleset(RULES, "numetal"), {})


def test_engine_is_picked_by_ruleset_and_stored_state(rs):
    assert isinstance(ENGINE, SpotlightEngine) and ENGINE.name == "spotlight"
    assert engine_for(rs) is ENGINE
    data = json.loads(json.dumps(ENGINE.new_combat("c1", rs, {}).state.to_dict()))
    assert engine_of_state(data) is ENGINE
    assert ENGINE.load(data) == ENGINE.new_combat("c1", rs, {}).state


@pytest.mark.rule("SPOT-05", "SPOT-11", "SPOT-13")
def test_join_pc_from_sheet_npc_with_hp_and_turns(rs, sheets):
    lazy = Lazy(sheets)
    r = Run(rs, lazy)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    assert lazy.read == [ALICE]  # only the joiner's sheet is read
    a = r.state.get(ALICE)
    assert (a.vampire, a.blood_potency, a.hp_max, a.final_death_at) == (True, 3, 12, 6)
    r(I.Join(by=STAFF, actor=GHOUL, name="Ghoul", is_npc=True, controller=STAFF, hp=7))
    g = r.state.get(GHOUL)
    assert (g.side, g.vampire, g.hp_max, g.controller, g.actions_per_round) == (
        "opponent", False, 7, STAFF, 1)
    r(I.Join(by=STAFF, actor=ELDER, name="Elder", is_npc=True, actions=2))
    e = r.state.get(ELDER)
    assert (e.vampire, e.hp_max, e.final_death_at, e.actions_per_round) == (True, 15, 8, 2)
    ev = r.last("join")
    assert (ev["actor"], ev["npc"], ev["hp"], ev["actions_per_round"]) == (ELDER, True, 15, 2)
    # refusals: no sheet for a PC, a second NPC of the same name, joining twice
    r.refused(I.Join(by="#7", actor="#7", name="Carol"), match="Carol has no sheet here")
    r.refused(I.Join(by=STAFF, actor="#8", name="ghoul", is_npc=True),
              match="Someone called ghoul is already in this fight")
    r.refused(I.Join(by=ALICE, actor=ALICE, name="Alice"), match="already in this combat")
    r.refused(I.Join(by=BOB, actor=BOB, name="Bob", actions=2), match="SPOT-04")


@pytest.mark.rule("SPOT-04", "SPOT-05")
def test_pc_acts_once_a_round_whatever_opponents_get(rs, sheets, tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(RULES / "numetal", root / "numetal")
    shutil.copytree(RULES / "core", root / "core")
    shutil.copytree(RULES / "spotlight", root / "spotlight")
    (root / "busy").mkdir()
    (root / "busy" / "ruleset.yaml").write_text(
        "ruleset: {extends: spotlight}\n"
        "spotlight: {rounds: {opponent_actions: 2}}\n"
    )
    busy = load_ruleset(root, "busy")
    r = Run(busy, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=STAFF, actor=GHOUL, name="Ghoul", is_npc=True))
    assert r.state.get(ALICE).actions_per_round == 1
    assert r.state.get(GHOUL).actions_per_round == 2  # the YAML's, for opponents


# ---------------------------------------------------------------- the round


@pytest.mark.rule("SPOT-01", "SPOT-02")
def test_initiative_pcs_roll_from_their_sheet(rs, sheets):
    r = scene(rs, sheets)
    a, b = r.of("initiative")
    assert (a["actor"], a["faces"], a["trait"], a["bonus"], a["total"]) == (
        ALICE, [4, 5], "Blood Potency", 3, 12)
    assert (b["actor"], b["faces"], b["trait"], b["bonus"], b["total"]) == (
        BOB, [1, 2], "Wits", 3, 6)
    assert r.state.order == ((ALICE,), (BOB,))
    assert [s["keys"] for s in b["order"]] == [[ALICE], [BOB]]  # SPOT-02: shown to all
    # SPOT-01: opponents never roll, typed rating or not
    r.refused(I.RollInitiative(by=STAFF, actor=GHOUL, rating=5), match="SPOT-01")
    r.refused(I.RollInitiative(by=STAFF, actor=GHOUL), match="SPOT-01")
    r.refused(I.RollInitiative(by="#7"), match="not in this fight: \\+combat/join")
    r.refused(I.RollInitiative(by=ALICE), match="already rolled")


@pytest.mark.rule("SPOT-04", "SPOT-05", "SPOT-06")
def test_advance_and_the_storyteller_picks(rs, sheets):
    r = scene(rs, sheets)
    out = r(I.Advance(by=STAFF))  # starts round 1
    assert [e.kind for e in out.events][:2] == ["round", "spotlight"]
    assert ENGINE.prompts(r.state) == [(ALICE, "act")] and ENGINE.pending(r.state) == [ALICE]
    r.refused(I.Advance(by=STAFF, actor=GHOUL), match="Alice has the spotlight")
    r(I.Done(by=ALICE))
    assert ENGINE.prompts(r.state) == [(GHOUL, "pick"), (ELDER, "pick")]
    r.refused(I.Advance(by=STAFF, actor=BOB), match="PCs act in initiative order")
    r(I.Advance(by=STAFF, actor=ELDER))  # SPOT-04: the Storyteller picks the Elder
    assert r.state.holder == (ELDER,) and r.last("spotlight")["turn_of_round"] == 1
    r(I.Done(by=STAFF, actor=ELDER))
    assert r.state.holder == (BOB,)
    r(I.Done(by=BOB))  # the last PC: on to the closing part (SPOT-06, issue 10)
    assert r.state.stage == "closing"
    r(I.Advance(by=STAFF))  # end the round; the unused turns are lost
    assert r.last("pass")["forfeited"] == [GHOUL, ELDER]
    assert (r.state.round, r.state.holder) == (2, (ALICE,))


@pytest.mark.rule("SPOT-03")
def test_swap_settles_a_tie(rs, sheets):
    r = Run(rs, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=BOB, actor=BOB, name="Bob"))
    r(I.RollInitiative(by=ALICE), 3, 4)  # 7 + 3 = 10
    r(I.RollInitiative(by=BOB), 3, 4)  # 7 + 3 = 10: tied, one slot
    assert r.state.order == ((ALICE, BOB),)
    r(I.Swap(by=BOB, actor=BOB, other=ALICE))
    assert r.state.order == ((BOB,), (ALICE,))
    assert r.last("swap").fields["first"] == BOB
    r.refused(I.Swap(by=BOB, actor=BOB, other=ALICE), match="already goes before")
    r.refused(I.Swap(by=BOB, other=ALICE), InputError, match="Name whom")


@pytest.mark.rule("SPOT-08", "SPOT-09", "SPOT-10")
def test_ambush_narrate_and_range(rs, sheets):
    r = scene(rs, sheets)
    r(I.Ambush(by=STAFF, side="npcs"))
    assert r.last("ambush").fields == {"side": "opponents", "round": 1}
    r.refused(I.Ambush(by=STAFF, side="nobody"), InputError, match="Who ambushes")
    r(I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="far"))
    assert ranges.range_between(r.state, GHOUL, ALICE, rs) == "Far"
    assert (r.last("range")["from"], r.last("range")["to"]) == ("Close", "Far")
    r.refused(I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="yonder"), InputError,
              match="Ranges: Intimate")
    r(I.Advance(by=STAFF))
    assert r.state.stage == "opening"  # SPOT-08: the opponents act first this round
    r(I.Narrate(by=STAFF, text="The roof starts to burn."))
    assert r.last("event").fields == {"round": 1, "text": "The roof starts to burn."}
    r.refused(I.Narrate(by=STAFF, text="  "), InputError, match="Describe the event")


# ---------------------------------------------------------------- a turn


@pytest.mark.rule("SPOT-07", "SPOT-10")
def test_move_free_done(rs, sheets):
    r = started(rs, sheets)
    r(I.Move(by=ALICE, other=GHOUL, direction="closer"))
    ev = r.last("move")
    assert (ev["actor"], ev["other"], ev["from"], ev["to"]) == (ALICE, GHOUL, "Close", "Hand")
    r.refused(I.Move(by=ALICE, other=ELDER, direction="closer"), match="already moved")
    r.refused(I.Move(by=BOB, other=GHOUL, direction="away"), match="only with the spotlight")
    r(I.Free(by=ALICE, text="draws a knife"))
    assert r.last("free").fields == {"actor": ALICE, "text": "draws a knife", "round": 1}
    r.refused(I.Free(by=ALICE, text="again"), match="free action")
    r(I.Done(by=ALICE))
    assert r.last("done")["unused"] == {"moves": 0, "actions": 1, "free_actions": 0}
    assert r.state.picking


@pytest.mark.rule("SPOT-07", "SPOT-10", "SPOT-11")
def test_attack_rolls_from_the_sheet_and_marks_harm(rs, sheets):
    r = started(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="Hand"))
    # Alice (Hunger 1: her first die is a Hunger die) against Ghoul (no sheet: no dice)
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL, "weapon": "Knife"}),
            6, 7, 2, 10, 1)
    kinds = [e.kind for e in out.events]
    assert kinds[:3] == ["act", "roll", "harm"]  # one beat: act, roll, harm
    act, roll, harm = out.events[:3]
    assert act["action"] == {"kind": "attack", "target": GHOUL, "weapon": "knife"}
    assert (act["range"], act["tag"]) == ("Hand", "knife")
    # every input of the V5 contest: the YAML's knife row, Alice's Dexterity 3 + Melee 2;
    # the 1 cancels nothing (issue 10)
    assert roll.fields == {
        "actor": ALICE, "purpose": "attack", "target": GHOUL, "round": 1,
        "traits": [["Dexterity", 3], ["Melee", 2]], "pool": 5,
        "faces": [6, 7, 2, 10, 1], "hunger": 1, "hunger_faces": [6], "successes": 3,
        "criticals": 0, "messy": False, "result": "success",
        "defense": {"traits": [["Dexterity", 0], ["Athletics", 0]], "pool": 0, "faces": [],
                    "hunger": 0, "hunger_faces": [], "successes": 0, "criticals": 0,
                    "messy": False, "result": "failure"},
        "margin": 3, "bonus": 2, "tag": "knife", "dice": "v5",
    }
    # margin 3 + the knife's 2 = 5, marked at once (SPOT-11); a blade against a target who
    # is not a vampire is Aggravated (V5, issue 31)
    assert (harm["target"], harm["kind"], harm["marked"], harm["source"]) == (
        GHOUL, "aggravated", 5, ALICE)
    assert (harm["hp_before"], harm["hp_after"], harm["round"]) == (7, 2, 1)
    assert r.state.get(GHOUL).aggravated == 5 and r.state.get(ALICE).actions == 1
    r.refused(I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL}),
              match="taken this turn's action")


@pytest.mark.rule("SPOT-11")
def test_attack_miss_leaves_the_target_unharmed(rs, sheets):
    r = started(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="Hand"))
    out = r(I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL}), 1, 2, 3)
    # unarmed by default: Strength 1 + Brawl 2 (the default row), a botch does no harm
    act, roll, miss = out.events[:3]
    assert act["action"]["weapon"] == "unarmed"
    assert (roll["traits"], roll["faces"], roll["successes"]) == (
        [["Strength", 1], ["Brawl", 2]], [1, 2, 3], 0)
    assert miss == Event("unharmed", {"actor": ALICE, "target": GHOUL, "round": 1})
    assert r.state.get(GHOUL).hp == 7 and not r.of("harm")


@pytest.mark.rule("SPOT-10", "SPOT-11", "SPOT-13")
def test_bite_at_intimate_is_aggravated_and_the_turn_moves_on(rs, sheets):
    r = started(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=ELDER, band="Intimate"))
    r(I.Move(by=ALICE, other=GHOUL, direction="closer"))
    r(I.Free(by=ALICE))
    # the bite is the last part of Alice's turn: the round moves on after the Harm
    # Alice's Str 1 + Brawl 2 [8 9 6] = 3 against the Elder, who fights back (issue 31,
    # V5 close combat): Str 3 + Brawl 3, larger than his dodge [2 2 2 2 2 2] = 0
    r(I.SetCondition(by=STAFF, actor=ELDER, condition="grappled"))  # V5: held first
    out = r(I.Act(by=ALICE, action={"kind": "bite", "target": ELDER}), 8, 9, 6,
            2, 2, 2, 2, 2, 2)
    kinds = [e.kind for e in out.events]
    assert kinds[:3] == ["act", "roll", "harm"] and "prompt" in kinds[3:]
    harm = out.events[2]
    assert (harm["kind"], harm["marked"], harm["armor"]) == ("aggravated", 5, 0)  # 3 + 2
    assert r.state.get(ELDER).aggravated == 5 and r.state.picking


@pytest.mark.rule("SPOT-07", "SPOT-10")
def test_act_refusals_change_nothing(rs, sheets):
    r = started(rs, sheets)
    r(I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="Hand"))
    r.refused(I.Act(by=ALICE, action={"kind": "attack", "target": ALICE}),
              match="cannot attack yourself")
    r.refused(I.Act(by=ALICE, action={"kind": "attack"}), InputError, match="Attack whom")
    r.refused(I.Act(by=ALICE, action={"kind": "bite", "target": GHOUL, "weapon": "knife"}),
              InputError, match="bite needs no weapon")
    r.refused(I.Act(by=ALICE, action={"kind": "bite", "target": GHOUL}),
              match="bite reaches Intimate")  # SPOT-10, no dice rolled
    r.refused(I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL, "weapon": "banana"}),
              InputError, match="no range tag")
    r.refused(I.Act(by=BOB, action={"kind": "action"}), match="only with the spotlight")
    r.refused(I.Act(by="#7", action={"kind": "action"}), match="not in this fight")
    # an attacker with no sheet (an HP-only opponent) cannot roll
    r(I.Done(by=ALICE))
    r(I.Advance(by=STAFF, actor=GHOUL))
    r.refused(I.Act(by=STAFF, actor=GHOUL, action={"kind": "attack", "target": ALICE}),
              match="Ghoul has no sheet here")


@pytest.mark.rule("SPOT-07")
def test_act_in_words(rs, sheets):
    r = started(rs, sheets)
    r(I.Act(by=ALICE, action={"kind": "other", "text": "  smashes the fuse box " + "x" * 400}))
    a = r.last("act")["action"]
    assert a["kind"] == "other" and a["text"].startswith("smashes") and len(a["text"]) == 300
    r(I.Done(by=ALICE))
    r(I.Advance(by=STAFF, actor=ELDER))
    r(I.Act(by=STAFF, actor=ELDER))  # no action given: a plain action
    assert r.last("act")["action"] == {"kind": "action"}
    assert not r.of("roll")


# ---------------------------------------------------------------- harm


@pytest.mark.rule("SPOT-11", "SPOT-13", "SPOT-14")
def test_staff_damage_and_no_heal(rs, sheets):
    r = scene(rs, sheets)
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=2, damage_type="agg"))
    ev = r.last("harm")
    assert (ev["target"], ev["kind"], ev["marked"], ev["source"]) == (
        BOB, "aggravated", 2, f"staff {STAFF}")
    r.refused(I.StaffDamage(by=STAFF, actor=BOB, levels=1), InputError,
              match="superficial or aggravated, not 'lethal'")
    r.refused(I.StaffDamage(by=STAFF, levels=1, damage_type="superficial"), InputError,
              match="Name whom")
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=4, damage_type="superficial"))
    assert r.last("harm")["outcome"] == "torpor"  # 0 HP, 2 Aggravated < 3 (SPOT-13)
    r.refused(I.StaffHeal(by=STAFF, actor=BOB, levels=1), match=r"\+combat/feed")


@pytest.mark.rule("SPOT-12", "SPOT-14")
def test_stake_unstake_and_feed(rs, sheets):
    r = started(rs, sheets)
    r(I.Stake(by=STAFF, actor=ALICE))
    assert r.last("stake")["target"] == ALICE and r.state.get(ALICE).staked
    assert r.state.holder == ()  # incapacitated at once: the turn ends (SPOT-12)
    r.refused(I.Stake(by=STAFF, actor=GHOUL), match="not a vampire")
    r(I.Stake(by=STAFF, actor=ALICE, remove=True))
    assert r.last("unstake")["target"] == ALICE and not r.state.get(ALICE).staked
    r.refused(I.Feed(by=STAFF, actor=BOB, slaked=2), match="Hunger is 1")  # awake: heals
    r(I.StaffDamage(by=STAFF, actor=BOB, levels=6, damage_type="superficial"))
    r.refused(I.Feed(by=STAFF, actor=BOB, slaked=0), InputError, match="Hunger slaked")
    r(I.Feed(by=ALICE, actor=BOB, slaked=2))
    ev = r.last("feed")
    assert (ev["target"], ev["slaked"], ev["revive_round"]) == (BOB, 2, 2)


# ---------------------------------------------------------------- leaving and ending


def test_remove_leave_kick_deleted_and_end(rs, sheets):
    r = started(rs, sheets)
    r.refused(I.Remove(by="#7"), match="You are not in this fight")
    r.refused(I.Remove(by=STAFF, actor="#7", why="kick"), InputError, match="not in this")
    r.refused(I.Remove(by=BOB, why="flee"), InputError, match="leave, kick, deleted")
    r(I.Remove(by=BOB))
    assert r.last("leave").fields == {"actor": BOB, "name": "Bob", "why": "leave"}
    r(I.Remove(by=STAFF, actor=GHOUL, why="kick"))
    assert r.last("leave")["why"] == "kick" and r.state.get(GHOUL) is None
    out = r(I.Remove(actor=ALICE, why="deleted"))  # the game: a deleted character
    assert [e.kind for e in out.events][:2] == ["deleted", "leave"]
    assert out.events[0].fields == {"actor": ALICE, "name": "Alice"}
    same = ENGINE.apply(r.state, I.Remove(actor=ALICE, why="deleted"), sheets, rs, FixedDice())
    assert same.state is r.state and same.events == ()  # gone already: nothing to do
    r(I.End(by=STAFF))
    assert r.last("end").fields == {"round": 1} and r.state.stage == "ended"
    r.refused(I.Advance(by=STAFF), match="ended")
    r.refused(I.SetTimeout(by=STAFF, seconds=60), match="ended")


# ---------------------------------------------------------------- d10-only intents


@pytest.mark.parametrize("intent, switch, hint", [
    (I.Declare(by=ALICE), "declare", "there is no declaration"),
    (I.Declare(by=ALICE, actions=({"kind": "attack", "target": GHOUL},)), "attack",
     "+combat/act attack <target>"),
    (I.Declare(by=ALICE, actions=({"kind": "dodge"},)), "dodge", "no declared defenses"),
    (I.Declare(by=ALICE, actions=({"kind": "dodge", "desperate": True},)), "defend",
     "no declared defenses"),
    (I.Declare(by=ALICE, activations=({"activate": "celerity"},)), "celerity",
     "one move, one action, one free action"),
    (I.Declare(by=ALICE, activations=({"activate": "spend", "pool": "blood", "amount": 1},)),
     "spend", "SPOT-07"),
    (I.Pass(by=ALICE), "pass", "+combat/done"),
    (I.Delay(by=ALICE), "delay", "initiative order"),
    (I.Abort(by=ALICE), "abort", "nothing declared to abort"),
    (I.SetCover(by=STAFF, actor=ALICE, level="good"), "mod", "range"),
])
@pytest.mark.rule("SPOT-07")
def test_d10_only_intents_are_refused_with_a_hint(rs, sheets, intent, switch, hint):
    r = started(rs, sheets)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(r.state, intent, sheets, rs, FixedDice())
    text = str(err.value)
    assert text.startswith(f"+combat/{switch} is for d10 combats; this fight runs the "
                           f"spotlight engine: ")
    assert hint in text


# ---------------------------------------------------------------- the idle clock (issue 5)


@pytest.mark.rule("SPOT-01", "SPOT-04")
def test_timeout_set_stamp_due_remaining(rs, sheets):
    r = scene(rs, sheets)
    out = r(I.SetTimeout(by=STAFF, seconds=60))
    assert out.events == (Event("timeout_set", {"seconds": 60, "by": STAFF}),)
    assert r.state.options.timeout == 60
    assert ENGINE.load(json.loads(json.dumps(r.state.to_dict()))) == r.state
    r.refused(I.SetTimeout(by=STAFF, seconds=-5), InputError, match="whole number")
    # before round 1 the Storyteller starts the round when they like: no deadline (SPOT-01)
    assert ENGINE.stamp(r.state, 60, 1000.0).deadline is None
    r(I.Advance(by=STAFF))
    st = ENGINE.stamp(r.state, 60, 1000.0)
    assert st.deadline == 1060.0
    assert ENGINE.stamp(st, 60, 1030.0).deadline == 1060.0  # the same prompt keeps it
    assert ENGINE.stamp(st, 0, 1030.0).deadline is None  # off
    assert ENGINE.stamp(st, None, 1030.0).deadline is None
    assert (ENGINE.due(st, 1059.0), ENGINE.due(st, 1060.0)) == (False, True)
    assert (ENGINE.remaining(st, 1000.5), ENGINE.remaining(st, 2000.0)) == (59.5, 0.0)
    assert ENGINE.remaining(r.state, 0.0) is None
    # the turn moving on clears the deadline; a new timeout restarts the current wait
    assert ENGINE.apply(st, I.Done(by=ALICE), sheets, rs, FixedDice()).state.deadline is None
    assert ENGINE.apply(st, I.SetTimeout(by=STAFF, seconds=30), sheets, rs,
                        FixedDice()).state.deadline is None


@pytest.mark.rule("SPOT-04", "SPOT-07")
def test_expire_ends_an_idle_holders_turn(rs, sheets):
    r = started(rs, sheets)
    r.state = ENGINE.stamp(r.state, 60, 1000.0)
    not_yet = ENGINE.apply(r.state, I.Expire(now=1059.0), sheets, rs, FixedDice())
    assert not_yet.state is r.state and not_yet.events == ()
    out = r(I.Expire(now=1061.0))
    assert out.events[0] == Event("timeout", {"actor": ALICE, "what": "act",
                                              "default": "pass", "deadline": 1060.0})
    assert out.events[1].kind == "done" and out.events[1]["actor"] == ALICE
    assert r.state.deadline is None and r.state.picking  # as +combat/done would
    assert ENGINE.prompts(r.state) == [(GHOUL, "pick"), (ELDER, "pick")]


@pytest.mark.rule("SPOT-04", "SPOT-06")
def test_expire_passes_an_idle_pick(rs, sheets):
    r = started(rs, sheets)
    r(I.Done(by=ALICE))
    r.state = ENGINE.stamp(r.state, 60, 0.0)
    out = r(I.Expire(now=60.0))
    assert out.events[0] == Event("timeout", {"actor": None, "what": "pick", "default": "pass",
                                              "deadline": 60.0, "who": [GHOUL, ELDER]})
    assert out.events[1].kind == "pass" and r.state.holder == (BOB,)
    assert len(r.of("timeout")) == 1  # one pick, passed once


@pytest.mark.rule("SPOT-04")
def test_expire_removes_the_gone(rs, sheets):
    r = started(rs, sheets)
    r.state = ENGINE.stamp(r.state, 60, 0.0)
    out = r(I.Expire(now=61.0, gone=(ALICE,)))
    assert out.events[0] == Event("timeout", {"actor": ALICE, "what": "act",
                                              "default": "removed", "deadline": 60.0})
    assert out.events[1].fields == {"actor": ALICE, "name": "Alice", "why": "deleted"}
    assert r.state.get(ALICE) is None and len(r.of("timeout")) == 1


# ---------------------------------------------------------------- the log's intents replay


@pytest.mark.rule("SPOT-01", "SPOT-04", "SPOT-07", "SPOT-10", "SPOT-11", "SPOT-12")
def test_intents_round_trip_through_their_dicts(rs, sheets):
    script = [
        (I.Join(by=ALICE, actor=ALICE, name="Alice"), ()),
        (I.Join(by=STAFF, actor=GHOUL, name="Ghoul", is_npc=True, hp=7, actions=2), ()),
        (I.RollInitiative(by=ALICE), (2, 2)),
        (I.SetTimeout(by=STAFF, seconds=120), ()),
        (I.Ambush(by=STAFF, side="pcs"), ()),
        (I.SetRange(by=STAFF, actor=ALICE, other=GHOUL, band="Far"), ()),
        (I.Narrate(by=STAFF, text="Rain."), ()),
        (I.Advance(by=STAFF), ()),
        (I.Move(by=ALICE, other=GHOUL, direction="closer"), ()),
        (I.Free(by=ALICE, text="aims"), ()),
        (I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL, "weapon": "pistol"}),
         (9, 9, 9)),
        (I.Advance(by=STAFF, actor=GHOUL), ()),
        (I.StaffDamage(by=STAFF, actor=GHOUL, levels=1, damage_type="superficial"), ()),
        (I.Done(by=STAFF, actor=GHOUL), ()),
        (I.Expire(now=5.0, gone=(GHOUL,)), ()),
        (I.End(by=STAFF), ()),
    ]
    st = ENGINE.new_combat("c1", rs, {}).state
    for intent, faces in script:
        again = I.from_dict(json.loads(json.dumps(intent.to_dict())))
        assert again == intent
        a = ENGINE.apply(st, intent, sheets, rs, FixedDice(*faces))
        b = ENGINE.apply(st, again, sheets, rs, FixedDice(*faces))
        assert a == b
        st = a.state
    assert st.stage == "ended"


# ---------------------------------------------------------------- storage


def test_state_without_options_still_loads(rs, sheets):
    data = scene(rs, sheets).state.to_dict()
    old = {k: v for k, v in data.items() if k != "options"}  # stored before issue 5
    assert ENGINE.load(old).options == SpotlightOptions(None)
    assert ENGINE.load(old) == ENGINE.load(data)


@pytest.mark.rule("SPOT-01")
def test_acting_before_the_first_round_says_what_comes_first(rs, sheets):
    """Before the Storyteller starts the first round, an action is refused with the step
    that comes first: the PC's own initiative, or the start (+combat/next)."""
    r = Run(rs, sheets)
    r(I.Join(by=ALICE, actor=ALICE, name="Alice"))
    r(I.Join(by=STAFF, actor=GHOUL, name="Ghoul", is_npc=True, controller=STAFF, hp=7))
    r.refused(I.Act(by=ALICE, action={"kind": "attack", "target": GHOUL}),
              match=r"Alice rolls initiative first \(\+combat/init\)")
    r(I.RollInitiative(by=ALICE, actor=ALICE), 4, 5)
    r.refused(I.Move(by=ALICE, other=GHOUL, direction="closer"),
              match=r"the Storyteller starts the round \(\+combat/next\)")
