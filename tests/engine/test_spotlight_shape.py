"""The spotlight engine's shape (issue 32): ``apply`` a read-only table from intent to one
small action class, the act's kind to its own class; the rule numbers in the schemas (a
table that leaves one out still plays, SPOT-05..07, SPOT-11..14); no module over 600 lines,
no function over 60, no mutable module-level state in combat/spotlight."""

from __future__ import annotations

import ast
import pathlib
import shutil

import pytest
import yaml

from wodcombat.combat.core import intents as I
from wodcombat.combat.core.errors import IllegalAction
from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.combat.spotlight import initiative, roster
from wodcombat.combat.spotlight.actions import attack, moves, power, turn
from wodcombat.combat.spotlight.actions.base import Action
from wodcombat.combat.spotlight.dice import v5_rules
from wodcombat.combat.spotlight.engine import ACTIONS, ENGINE
from wodcombat.combat.spotlight.tables import spot_rules

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SPOTLIGHT = ROOT / "combat" / "spotlight"
ALICE, BOB = "#1", "#2"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(RULES, "spotlight")


def _kinds(cls=I.Intent) -> set[str]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub.kind} | _kinds(sub)
    return out


def test_apply_is_a_read_only_table_from_intent_to_its_action():
    assert set(ACTIONS) < _kinds()  # the rest are d10's, refused with a hint (engine tests)
    for kind, action in ACTIONS.items():
        assert isinstance(action, Action) and action.intent.kind == kind
        assert type(action).__doc__ and action.reads  # says what it does and reads
    with pytest.raises(TypeError):
        ACTIONS["act"] = ACTIONS["done"]  # type: ignore[index]


def test_an_act_goes_to_the_class_of_its_kind(rs):
    moves_rs = load_ruleset(RULES, "spotlight-moves")
    c = type("C", (), {"key": ALICE})()
    act = ACTIONS["act"]

    def kind(action, rules=rs):
        return type(act.kind(c, I.Act(by=ALICE, action=action), rules)[0])

    assert kind({"kind": "attack", "target": BOB}) is attack.Attack
    assert kind({"kind": "bite", "target": BOB}) is attack.Bite
    assert kind({"kind": "grapple", "target": BOB}) is attack.Grapple
    assert kind({"kind": "power", "power": "Celerity"}) is power.Power
    assert kind({"kind": "other", "text": "hides"}) is turn.Plain
    move = next(iter(moves_rs.section("spotlight_moves")["moves"]))
    assert kind({"kind": move}, moves_rs) is moves.MoveAct


@pytest.mark.rule("SPOT-07")
def test_spot07_check_refuses_before_any_die_and_changes_nothing(rs):
    """``check`` takes no dice: what it refuses is refused before anything is rolled."""
    sheets = {ALICE: Sheet().set(rs.traits, "splat", "vampire")[0]}
    st = ENGINE.new_combat("c", rs, {}).state
    for key, name in ((ALICE, "Alice"), (BOB, "Bob")):
        st = ENGINE.apply(st, I.Join(by=key, actor=key, name=name),
                          {**sheets, BOB: sheets[ALICE]}, rs, None).state
    before = st.to_dict()
    with pytest.raises(IllegalAction, match="takes no Willpower point"):
        ACTIONS["act"].check(st, I.Act(by=ALICE, willpower=True, action={}), sheets, rs)
    with pytest.raises(IllegalAction, match="Bob has no sheet here"):
        ACTIONS["act"].check(st, I.Act(by=BOB, action={"kind": "attack", "target": ALICE}),
                             sheets, rs)
    assert st.to_dict() == before


def _strip(path: pathlib.Path, section: str, keys: tuple[str, ...]) -> None:
    data = yaml.safe_load(path.read_text())
    for k in keys:
        del data[section][k]
    path.write_text(yaml.safe_dump(data))


@pytest.mark.rule("SPOT-05", "SPOT-06", "SPOT-07", "SPOT-11", "SPOT-13", "SPOT-14")
def test_spot07_a_table_that_leaves_a_number_out_plays_the_schema_default(tmp_path):
    """The defaults live in the schemas (never a ``.get(key, n)`` in Python): a ruleset
    stating only what it must still reads every number."""
    root = tmp_path / "rules"
    for name in ("numetal", "core", "spotlight"):
        shutil.copytree(RULES / name, root / name)
    here = root / "spotlight"
    _strip(here / "turns.yaml", "spotlight", ("turn", "rounds"))
    _strip(here / "harm.yaml", "spotlight_harm",
           ("default_hp", "vampire_families", "armor_applies_to", "overflow",
            "revive_after_rounds", "max_slake", "feed_heals"))
    _strip(here / "dice.yaml", "v5_dice",
           ("sides", "critical_pair_bonus", "default_difficulty", "max_difficulty",
            "max_pool", "hunger_pool"))
    bare = load_ruleset(root, "spotlight")
    r = spot_rules(bare)
    assert (r.moves, r.actions, r.frees, r.end_when_all_used) == (1, 1, 1, True)
    assert (r.opponent_actions, r.auto_new_round) == (1, True)
    assert (r.default_hp, r.armor_kinds, r.revive_after, r.max_slake) == (
        6, frozenset({"superficial"}), 1, 5)
    assert (r.overflow_superficial, r.overflow_aggravated) == ("lost", "replace_superficial")
    assert (r.vampire_families, r.feed_heals) == (
        frozenset({"vampire"}), ("aggravated", "superficial"))
    v5 = v5_rules(bare)
    assert (v5.sides, v5.critical_pair_bonus, v5.max_pool, v5.hunger_pool) == (
        10, 2, 30, "Hunger")
    st = roster.join(roster.new_combat("x", bare), "a", "Alice", bare).state
    step = initiative.roll_initiative(st, "a", bare, ratings={"Wits": 2}, faces=[3, 4])
    assert step.events[0]["total"] == 9


# ---------------------------------------------------------------- the code's shape


def _sources():
    return sorted(SPOTLIGHT.rglob("*.py"))


def test_no_spotlight_module_over_600_lines_nor_function_over_60():
    long = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        if len(text.splitlines()) > 600:
            long.append(f"{rel}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > 60:
                    long.append(f"{rel}:{node.lineno} {node.name}: {n} lines")
    assert long == []


MUTABLE = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def test_no_mutable_module_level_state_in_combat_spotlight():
    """A module-level dict, list or set (a registry, a cache) is state every fight shares;
    a table is read-only (``MappingProxyType``, a tuple) or built per ruleset."""
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = getattr(node, "value", None)
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(value, MUTABLE):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        found += [f"{path.relative_to(ROOT)}:{n.lineno} global" for n in ast.walk(tree)
                  if isinstance(n, ast.Global)]
    assert found == []
