"""The spotlight engine (seed 004, ruleset ``spotlight``): SPOT-01..14 with exact dice faces."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from wodcombat.combat.spotlight import flow, harm, initiative, passing, ranges, roster, schema
from wodcombat.combat.spotlight import tables, turn
from wodcombat.combat.core.errors import IllegalAction, InputError, RulesError
from wodcombat.combat.rules.ruleset import load_library, load_ruleset
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.spotlight.state import SpotlightState
from tests.fixed_dice import FixedDice

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "spotlight")


class Fight:
    """A tiny driver: applies steps, keeps every event, so tests read like a scene."""

    def __init__(self, rs, state=None):
        self.rs = rs
        self.state = state or roster.new_combat("c1", rs)
        self.events: list[dict] = []

    def __call__(self, fn, *args, **kw):
        if fn is turn.act:  # act(state, key, ruleset, action), like the d10 scheduler's act
            step = fn(self.state, args[0], self.rs, *args[1:], **kw)
        else:
            step = fn(self.state, *args, self.rs, **kw)
        self.state = step.state
        self.events.extend(step.events)
        return step

    def last(self, kind):
        return [e for e in self.events if e["event"] == kind][-1]

    def of(self, kind):
        return [e for e in self.events if e["event"] == kind]


def scene(rs, *, elder_actions=2, ambush=None):
    """Alice (BP 2, init 12), Bob (BP 1, init 6); opponents Ghoul and Elder (2 turns)."""
    f = Fight(rs)
    f(roster.join, "a", "Alice", vampire=True, blood_potency=2)
    f(roster.join, "b", "Bob", vampire=True, blood_potency=1)
    f(roster.join, "g", "Ghoul", is_npc=True)
    f(
        roster.join,
        "e",
        "Elder",
        is_npc=True,
        vampire=True,
        blood_potency=4,
        actions_per_round=elder_actions,
    )
    f(initiative.roll_initiative, "a", ratings={"Wits": 2, "Blood Potency": 3}, faces=[4, 5])
    f(initiative.roll_initiative, "b", ratings={"Wits": 3, "Blood Potency": 1}, faces=[1, 2])
    if ambush:
        f(passing.ambush, ambush)
    return f


# ---------------------------------------------------------------- SPOT-01..03 initiative


@pytest.mark.rule("SPOT-01")
def test_spot01_pcs_roll_2d6_plus_higher_of_wits_or_blood_potency(rs):
    f = scene(rs)
    a, b = f.of("initiative")
    assert (a["faces"], a["trait"], a["bonus"], a["total"]) == ([4, 5], "Blood Potency", 3, 12)
    assert (b["faces"], b["trait"], b["bonus"], b["total"]) == ([1, 2], "Wits", 3, 6)
    # SPOT-01: opponents don't roll
    with pytest.raises(IllegalAction, match="SPOT-01"):
        initiative.roll_initiative(f.state, "g", rs, ratings={"Wits": 3}, faces=[6, 6])
    # the dice come from the YAML: two faces of 1..6
    f(roster.join, "c", "Carol")
    with pytest.raises(InputError, match="2d6"):
        initiative.roll_initiative(f.state, "c", rs, ratings={"Wits": 1}, faces=[7, 1])
    with pytest.raises(InputError, match="2d6"):
        initiative.roll_initiative(f.state, "c", rs, ratings={"Wits": 1}, faces=[3])
    # rolled with the injected rng when no faces are given
    step = initiative.roll_initiative(f.state, "c", rs, FixedDice(2, 3), ratings={"Wits": 1})
    assert step.events[0]["faces"] == [2, 3] and step.events[0]["total"] == 6
    with pytest.raises(IllegalAction, match="already rolled"):
        initiative.roll_initiative(f.state, "a", rs, ratings={"Wits": 1}, faces=[1, 1])


@pytest.mark.rule("SPOT-01")
def test_spot01_ratings_from_a_sheet_and_yaml_dice_changeable(rs, tmp_path):
    cat = rs.traits
    sheet, _ = Sheet().set(cat, "splat", "vampire")
    sheet, _ = sheet.set(cat, "wits", "2")
    sheet, _ = sheet.set(cat, "bp", "4")  # the alias reaches Blood Potency here
    assert initiative.initiative_ratings(sheet, rs) == {"Wits": 2, "Blood Potency": 4}
    assert roster.sheet_profile(sheet, rs) == {"vampire": True, "blood_potency": 4,
                                             "superficial": 0, "aggravated": 0}
    # An admin changes the dice in YAML: a child ruleset rolling 1d10 + the trait.
    root = tmp_path / "rules"
    shutil.copytree(RULES / "numetal", root / "numetal")
    shutil.copytree(RULES / "core", root / "core")
    shutil.copytree(RULES / "spotlight", root / "spotlight")
    (root / "d10init").mkdir()
    (root / "d10init" / "ruleset.yaml").write_text(
        "ruleset: {extends: spotlight}\n"
        "spotlight: {initiative: {dice: 1, sides: 10, traits: [Wits, Blood Potency]}}\n"
    )
    child = load_ruleset(root, "d10init")
    st = roster.join(roster.new_combat("x", child), "a", "Alice", child).state
    ev = initiative.roll_initiative(st, "a", child, ratings={"Wits": 2}, faces=[9]).events[0]
    assert ev["total"] == 11 and ev["sides"] == 10


@pytest.mark.rule("SPOT-02")
def test_spot02_order_highest_first_visible_to_all(rs):
    f = scene(rs)
    f(roster.join, "c", "Carol")
    f(initiative.roll_initiative, "c", ratings={"Wits": 4}, faces=[2, 3])  # 9: between 12 and 6
    assert f.state.order == (("a",), ("c",), ("b",))
    view = f.last("initiative")["order"]
    assert [(s["keys"], s["total"]) for s in view] == [(["a"], 12), (["c"], 9), (["b"], 6)]


@pytest.mark.rule("SPOT-03")
def test_spot03_tie_acts_simultaneously_until_swapped(rs):
    f = Fight(rs)
    f(roster.join, "a", "Alice")
    f(roster.join, "b", "Bob")
    f(roster.join, "g", "Ghoul", is_npc=True)
    f(initiative.roll_initiative, "a", ratings={"Wits": 2}, faces=[3, 4])  # 9
    f(initiative.roll_initiative, "b", ratings={"Wits": 3}, faces=[2, 4])  # 9
    assert f.state.order == (("a", "b"),)  # one slot: simultaneous
    f(passing.advance)
    assert f.last("spotlight")["who"] == ["a", "b"]
    assert flow.pending(f.state) == ["a", "b"]
    # The tied players settle it: Bob first. The slot splits; the spotlight is handed again.
    f(initiative.swap, "b", "a")
    assert f.state.order == (("b",), ("a",))
    assert f.last("spotlight")["who"] == ["b"]
    with pytest.raises(IllegalAction, match="already goes before"):
        initiative.swap(f.state, "b", "a", rs)
    # swap back while Bob has not used his turn
    f(initiative.swap, "a", "b")
    assert f.state.order == (("a",), ("b",)) and f.state.holder == ("a",)
    f(turn.free, "a", text="draws")
    with pytest.raises(IllegalAction, match="already had the spotlight"):
        initiative.swap(f.state, "b", "a", rs)


@pytest.mark.rule("SPOT-03")
def test_spot03_swap_refused_unless_tied(rs):
    f = scene(rs)
    with pytest.raises(IllegalAction, match="SPOT-03"):
        initiative.swap(f.state, "b", "a", rs)
    with pytest.raises(IllegalAction, match="no place"):
        initiative.swap(f.state, "g", "a", rs)


# ---------------------------------------------------------------- SPOT-04..06, 08, 09


@pytest.mark.rule("SPOT-04")
def test_spot04_pc_then_storyteller_picks_an_opponent(rs):
    f = scene(rs)
    f(passing.advance)
    assert flow.prompts(f.state) == [("a", "act")]
    with pytest.raises(IllegalAction, match="Alice has the spotlight"):
        passing.next_opponent(f.state, "g", rs)
    with pytest.raises(IllegalAction, match="only with the spotlight; it is with Alice"):
        turn.act(f.state, "b", rs, {"kind": "attack"})
    f(turn.done, "a")
    # the Storyteller's choice: any opponent with a turn left
    assert flow.prompts(f.state) == [("g", "pick"), ("e", "pick")]
    assert f.last("prompt")["what"] == "pick"
    with pytest.raises(IllegalAction, match="PCs act in initiative order"):
        passing.next_opponent(f.state, "b", rs)
    f(passing.next_opponent, "e")
    assert f.state.holder == ("e",) and f.last("spotlight")["side"] == "opponent"
    f(turn.done, "e")
    assert f.state.holder == ("b",)  # then the next PC
    assert [e["who"] for e in f.of("spotlight")] == [["a"], ["e"], ["b"]]


@pytest.mark.rule("SPOT-04")
def test_spot04_storyteller_may_pass_the_pick(rs):
    f = scene(rs)
    f(passing.advance)
    f(turn.done, "a")
    f(passing.advance)  # no opponent acts after Alice
    assert f.state.holder == ("b",)
    assert f.last("pass")["pick"] is True


@pytest.mark.rule("SPOT-05")
def test_spot05_an_opponent_acts_several_times_a_round(rs):
    f = scene(rs, elder_actions=2)
    f(passing.advance)
    f(turn.done, "a")
    f(passing.next_opponent, "e")
    assert f.last("spotlight")["turn_of_round"] == 1
    f(turn.done, "e")
    f(turn.done, "b")
    # after the PCs: Elder's second turn and Ghoul's turn are left (SPOT-06)
    assert f.state.stage in ("pcs", "closing")
    f(passing.next_opponent, "e")
    assert f.last("spotlight")["turn_of_round"] == 2
    f(turn.done, "e")
    with pytest.raises(IllegalAction, match="2 of 2 turn"):
        passing.next_opponent(f.state, "e", rs)


@pytest.mark.rule("SPOT-06")
def test_spot06_remaining_opponent_turns_after_the_pcs_then_a_new_round(rs):
    f = scene(rs, elder_actions=2)
    f(passing.advance)
    f(turn.done, "a")
    f(passing.advance)  # pass
    f(turn.done, "b")  # the last PC: straight on to the closing part of the round (issue 10)
    assert f.state.stage == "closing" and f.state.round == 1
    assert flow.pending(f.state) == ["g", "e"]
    f(passing.next_opponent, "g")
    f(turn.done, "g")
    f(passing.next_opponent, "e")
    f(turn.done, "e")
    f(passing.next_opponent, "e")
    f(turn.done, "e")
    # nobody has a turn left: round 2 from the top of the order
    rnd = f.last("round")
    assert rnd["round"] == 2 and f.state.holder == ("a",)
    assert [c.turns for c in f.state.combatants if not c.is_pc] == [0, 0]


@pytest.mark.rule("SPOT-06")
def test_spot06_storyteller_ends_the_round_with_turns_left(rs):
    f = scene(rs)
    f(passing.advance)
    f(turn.done, "a")
    f(passing.advance)
    f(turn.done, "b")
    f(passing.advance)  # closing: forfeit the remaining opponent turns
    assert f.last("pass")["forfeited"] == ["g", "e"]
    assert f.state.round == 2 and f.state.holder == ("a",)


@pytest.mark.rule("SPOT-09")
def test_spot09_environment_event_between_turns(rs):
    f = scene(rs)
    f(passing.advance)
    f(turn.done, "a")
    before = f.state
    f(passing.event, "The warehouse roof starts to burn.")
    ev = f.last("event")
    assert ev == {"event": "event", "round": 1, "text": "The warehouse roof starts to burn."}
    assert (f.state.holder, f.state.picking, f.state.round) == (
        before.holder,
        before.picking,
        before.round,
    )
    with pytest.raises(InputError, match="Describe the event"):
        passing.event(f.state, "   ", rs)


@pytest.mark.rule("SPOT-08")
def test_spot08_ambushed_pcs_opponents_act_first_that_round(rs):
    f = scene(rs, ambush="opponents")
    f(passing.advance)
    assert f.last("round")["ambush"] == "opponents" and f.state.stage == "opening"
    assert flow.prompts(f.state) == [("g", "pick"), ("e", "pick")]
    with pytest.raises(IllegalAction):
        turn.act(f.state, "a", rs, {"kind": "attack"})
    for k in ("e", "g", "e"):
        f(passing.next_opponent, k)
        f(turn.done, k)
    # the opponents used their turns: the PCs now go one after the other
    assert f.state.stage == "pcs" and f.state.holder == ("a",)
    f(turn.done, "a")
    assert f.state.holder == ("b",)
    f(turn.done, "b")
    # one round only: round 2 alternates again
    assert f.last("round") == {**f.last("round"), "round": 2, "ambush": None}
    f(turn.done, "a")
    assert flow.prompts(f.state) == [("g", "pick"), ("e", "pick")]


@pytest.mark.rule("SPOT-08")
def test_spot08_ambushing_pcs_all_act_before_any_opponent(rs):
    f = scene(rs, ambush="pcs")
    f(passing.advance)
    f(turn.done, "a")
    # no pick after Alice: straight to Bob
    assert f.state.holder == ("b",)
    f(turn.done, "b")
    assert f.state.stage == "closing"
    with pytest.raises(IllegalAction, match="SPOT-08|PC"):
        passing.next_opponent(f.state, "a", rs)
    for k in ("g", "e", "e"):
        f(passing.next_opponent, k)
        f(turn.done, k)
    assert f.state.round == 2
    f(turn.done, "a")
    assert f.state.picking  # round 2: the Storyteller picks after Alice again


# ---------------------------------------------------------------- SPOT-07, SPOT-10


@pytest.mark.rule("SPOT-07")
def test_spot07_one_move_one_action_one_free_action(rs):
    f = scene(rs)
    f(passing.advance)
    f(turn.move, "a", "g", "closer")
    with pytest.raises(IllegalAction, match=r"already moved.*an action.*a free action"):
        turn.move(f.state, "a", "e", "closer", rs)
    f(turn.act, "a", {"kind": "attack", "target": "g", "weapon": "knife"})
    with pytest.raises(IllegalAction, match=r"taken this turn's action.*Left: a free action"):
        turn.act(f.state, "a", rs, {"kind": "attack", "target": "g", "weapon": "knife"})
    assert f.state.holder == ("a",)
    f(turn.free, "a", text="shouts a warning")
    # all three used: the turn is over and the Storyteller picks
    assert f.state.holder == () and f.state.picking
    with pytest.raises(IllegalAction, match="only with the spotlight"):
        turn.free(f.state, "a", rs, text="again")


@pytest.mark.rule("SPOT-10")
def test_spot10_ranges_per_pair_one_step_per_move(rs):
    f = scene(rs)
    assert ranges.range_between(f.state, "a", "g", rs) == "Close"  # YAML default
    f(passing.advance)
    f(turn.move, "a", "g", "closer")
    ev = f.last("move")
    assert (ev["from"], ev["to"]) == ("Close", "Hand")
    # symmetric: the pair has one range
    assert ranges.range_between(f.state, "g", "a", rs) == "Hand"
    assert ranges.range_between(f.state, "a", "e", rs) == "Close"  # other pairs unchanged
    f(turn.done, "a")
    f(passing.next_opponent, "g")
    with pytest.raises(IllegalAction, match="one range step"):
        turn.move(f.state, "g", "a", "Distant", rs)
    f(turn.move, "g", "a", "Intimate")
    assert ranges.range_between(f.state, "a", "g", rs) == "Intimate"
    f(turn.done, "g")
    f(ranges.set_range, "b", "e", "int")  # the Storyteller places them; a unique prefix works
    with pytest.raises(IllegalAction, match="already at Intimate"):
        turn.move(f.state, "b", "e", "closer", rs)
    with pytest.raises(InputError, match="Ranges: Intimate, Hand, Close, Far, Distant"):
        turn.move(f.state, "b", "e", "nearby", rs)


@pytest.mark.rule("SPOT-10")
def test_spot10_everyone_at_one_band_replaces_the_default_and_the_pairs(rs):
    f = scene(rs)
    f(ranges.set_range, "a", "g", "Far")
    f(ranges.set_every_range, "hand")
    assert f.last("range_all")["to"] == "Hand"
    assert f.state.ranges == ()
    assert {ranges.range_between(f.state, "a", k, rs) for k in ("e", "g")} == {"Hand"}
    back = type(f.state).from_dict(f.state.to_dict())  # stored and read back
    assert ranges.range_between(back, "g", "e", rs) == "Hand"
    assert "band" not in scene(rs).state.options.to_dict()  # unset: stored as before
    with pytest.raises(InputError, match="Ranges: Intimate, Hand"):
        ranges.set_every_range(f.state, "nearby", rs)


@pytest.mark.rule("SPOT-10")
def test_spot10_range_tags_checked_bite_needs_intimate(rs):
    f = scene(rs)
    f(ranges.set_range, "a", "g", "Hand")
    f(ranges.set_range, "a", "e", "Far")
    f(passing.advance)
    with pytest.raises(IllegalAction, match=r"Hand; bite reaches Intimate.*closer"):
        turn.act(f.state, "a", rs, {"kind": "bite", "target": "g"})
    with pytest.raises(IllegalAction, match=r"Far; pistol reaches Intimate to Close"):
        turn.act(f.state, "a", rs, {"kind": "attack", "target": "e", "weapon": "pistol"})
    with pytest.raises(InputError, match="no range tag"):
        turn.act(f.state, "a", rs, {"kind": "attack", "target": "g", "weapon": "banana"})
    # refused acts used nothing: the rifle reaches Far
    f(turn.act, "a", {"kind": "attack", "target": "e", "weapon": "rifle"})
    assert (f.last("act")["range"], f.last("act")["tag"]) == ("Far", "rifle")
    assert ranges.range_tag(rs, "bite") == ("Intimate", "Intimate")


@pytest.mark.rule("SPOT-10")
def test_spot10_bite_at_intimate_allowed(rs):
    f = scene(rs)
    f(ranges.set_range, "a", "g", "Hand")
    f(passing.advance)
    f(turn.move, "a", "g", "closer")
    f(turn.act, "a", {"kind": "bite", "target": "g"})
    assert (f.last("act")["range"], f.last("act")["tag"]) == ("Intimate", "bite")


@pytest.mark.rule("SPOT-10")
def test_spot10_broken_range_table_is_refused(tmp_path):
    root = tmp_path / "rules"
    shutil.copytree(RULES / "numetal", root / "numetal")
    shutil.copytree(RULES / "core", root / "core")
    shutil.copytree(RULES / "spotlight", root / "spotlight")
    (root / "bad").mkdir()
    (root / "bad" / "ruleset.yaml").write_text(
        "ruleset: {extends: spotlight}\n"
        "spotlight_ranges: {tags: {lance: {max: Yonder}, net: {min: Far, max: Hand}}}\n"
    )
    lib = load_library(root)
    assert "spotlight" in lib.rulesets and "bad" not in lib.rulesets
    text = "\n".join(str(i) for i in lib.refused["bad"])
    assert "spotlight_ranges.tags.lance.max" in text and "'Yonder' is not in bands" in text
    assert "min is farther than max" in text


# ---------------------------------------------------------------- SPOT-11..14 harm


@pytest.mark.rule("SPOT-11")
def test_spot11_superficial_reduced_by_armor_aggravated_bypasses(rs):
    f = scene(rs)
    f(harm.harm, "a", 3, "superficial", armor=2)
    ev = f.last("harm")
    assert (ev["marked"], ev["armor"], ev["hp_before"], ev["hp_after"]) == (1, 2, 9, 8)
    f(harm.harm, "a", 3, "agg", armor=2)
    ev = f.last("harm")
    assert (ev["kind"], ev["marked"], ev["armor"], ev["hp_after"]) == ("aggravated", 3, 0, 5)
    assert (ev["superficial"], ev["aggravated"], ev["outcome"]) == (1, 3, "hurt")
    a = f.state.get("a")
    assert (a.superficial, a.aggravated, a.hp) == (1, 3, 5)  # marked at once
    with pytest.raises(InputError, match="superficial or aggravated"):
        harm.harm(f.state, "a", 1, "lethal", rs)


@pytest.mark.rule("SPOT-12")
def test_spot12_staked_vampire_incapacitated_at_once(rs):
    f = scene(rs)
    f(passing.advance)
    f(harm.stake, "a")  # staked during her own turn: the turn ends now
    assert f.state.holder == () and f.state.picking
    f(passing.advance)
    f(turn.done, "b")
    f(passing.advance)
    # round 2: Alice is skipped, Bob has the spotlight
    assert f.state.round == 2 and f.state.holder == ("b",)
    f(harm.unstake, "a")
    f(turn.done, "b")
    f(passing.advance)
    assert f.state.round == 3 and f.state.holder == ("a",)
    with pytest.raises(IllegalAction, match="not a vampire"):
        harm.stake(f.state, "g", rs)
    st = harm.stake(f.state, "e", rs).state
    with pytest.raises(IllegalAction, match="staked"):
        passing.next_opponent(turn.done(st, "a", rs).state, "e", rs)


@pytest.mark.rule("SPOT-13")
def test_spot13_hp_and_final_death_threshold_by_blood_potency(rs):
    rules = tables.spot_rules(rs)
    table = {bp: tables.hp_row(rules, bp) for bp in range(0, 8)}
    assert table == {
        0: (6, 3),
        1: (6, 3),
        2: (9, 5),
        3: (12, 6),
        4: (15, 8),
        5: (18, 9),
        6: (18, 9),
        7: (18, 9),
    }
    f = scene(rs)
    assert (f.state.get("e").hp_max, f.state.get("e").final_death_at) == (15, 8)


@pytest.mark.rule("SPOT-13")
def test_spot13_zero_hp_torpor_below_half_aggravated(rs):
    f = scene(rs)  # Alice: 9 HP, Final Death at 5 Aggravated
    f(harm.harm, "a", 4, "aggravated")
    f(harm.harm, "a", 5, "superficial")
    ev = f.last("harm")
    assert (ev["hp_after"], ev["outcome"]) == (0, "torpor")
    assert f.state.get("a").status == "torpor"
    f(passing.advance)
    assert f.state.holder == ("b",)  # Alice in torpor is skipped


@pytest.mark.rule("SPOT-13")
def test_spot13_zero_hp_final_death_at_half_or_more_aggravated(rs):
    f = scene(rs)
    f(harm.harm, "a", 4, "superficial")
    f(harm.harm, "a", 5, "aggravated")
    ev = f.last("harm")
    assert (ev["hp_after"], ev["aggravated"], ev["outcome"]) == (0, 5, "final_death")
    assert f.state.get("a").status == "dead"
    with pytest.raises(IllegalAction, match="Final Death"):
        harm.harm(f.state, "a", 1, "superficial", rs)
    with pytest.raises(IllegalAction, match="destroyed"):
        harm.feed(f.state, "a", 2, rs)


@pytest.mark.rule("SPOT-13")
def test_spot13_aggravated_on_a_full_track_replaces_superficial(rs):
    """SPOT-13 with V5's overflow (issue 10): Superficial on a full track turns Superficial
    marks Aggravated instead of being lost; Aggravated overwrites Superficial."""
    f = scene(rs)  # Bob: 6 HP, Final Death at 3
    f(harm.harm, "b", 6, "superficial")
    assert f.last("harm")["outcome"] == "torpor"
    f(harm.harm, "b", 2, "superficial")
    ev = f.last("harm")
    assert (ev["lost"], ev["upgraded"], ev["superficial"], ev["aggravated"]) == (0, 2, 4, 2)
    assert ev["outcome"] == "torpor"
    f(harm.harm, "b", 3, "aggravated")
    ev = f.last("harm")
    assert (ev["upgraded"], ev["superficial"], ev["aggravated"]) == (3, 1, 5)
    assert ev["outcome"] == "final_death"


@pytest.mark.rule("SPOT-13")
def test_spot13_non_vampire_is_out_at_zero(rs):
    f = scene(rs)
    f(harm.harm, "g", 6, "aggravated")
    assert f.last("harm")["outcome"] == "out"
    f(passing.advance)
    f(turn.done, "a")
    assert flow.prompts(f.state) == [("e", "pick")]


@pytest.mark.rule("SPOT-14")
def test_spot14_feeding_revives_after_one_round_with_hp_equal_to_slaked(rs):
    f = scene(rs)
    f(passing.advance)
    f(harm.harm, "a", 2, "aggravated")
    f(harm.harm, "a", 7, "superficial")  # 0 HP, 2 Aggravated < 5: torpor; her turn ends
    assert f.state.get("a").status == "torpor" and f.state.holder == ()
    with pytest.raises(InputError, match="Hunger slaked"):
        harm.feed(f.state, "a", 0, rs)
    with pytest.raises(IllegalAction, match="no Hunger to slake"):
        harm.feed(f.state, "b", 1, rs)  # awake, fed mid-fight: its sheet's Hunger (none here)
    f(harm.feed, "a", 3)
    ev = f.last("feed")
    assert (ev["slaked"], ev["revive_round"], ev["hunger_reduced"]) == (3, 2, 0)
    assert f.state.get("a").status == "torpor"  # not yet: after one round
    f(passing.advance)
    f(turn.done, "b")  # the last PC: on to the closing part
    f(passing.advance)  # the Storyteller ends the round
    rev = f.last("revive")
    assert (rev["round"], rev["hp_before"], rev["hp_after"]) == (2, 0, 3)
    a = f.state.get("a")
    assert (a.status, a.hp, a.aggravated, a.superficial) == ("active", 3, 2, 4)
    assert f.state.holder == ("a",)  # back in the order this round


# ---------------------------------------------------------------- the common interface


def test_state_round_trips_through_json(rs):
    f = scene(rs)
    f(ranges.set_range, "a", "g", "Far")
    f(passing.advance)
    f(turn.move, "a", "g", "closer")
    f(harm.harm, "b", 2, "aggravated")
    data = json.loads(json.dumps(f.state.to_dict()))
    back = SpotlightState.from_dict(data)
    assert back == f.state
    assert back.engine == "spotlight" and data["engine"] == "spotlight"
    assert ranges.range_between(back, "g", "a", rs) == "Close"


def test_engine_switch_and_sections(rs):
    numetal = load_ruleset(RULES, "numetal")
    assert schema.engine_of(rs) == "spotlight" and schema.engine_of(numetal) == "d10"
    with pytest.raises(RulesError, match="spotlight engine needs it"):
        roster.new_combat("x", numetal)
    # the spotlight ruleset keeps numetal's sheet and adds the vampire pools
    assert rs.traits.pools_for("vampire") == ("Willpower", "Blood Potency", "Hunger")
    assert "Blood Potency" not in numetal.traits.pools


def test_end_and_ended_combat_refuses(rs):
    f = scene(rs)
    f(roster.end)
    assert f.last("end") == {"event": "end", "round": 0}
    with pytest.raises(IllegalAction, match="ended"):
        passing.advance(f.state, rs)
    assert flow.prompts(f.state) == []


def test_remove_the_holder_passes_the_spotlight(rs):
    f = scene(rs)
    f(passing.advance)
    f(roster.remove, "a")
    assert f.state.holder == () and f.state.picking  # the Storyteller still picks
    f(passing.advance)
    assert f.state.holder == ("b",)
