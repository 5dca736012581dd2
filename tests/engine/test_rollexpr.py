"""+roll expressions and the pool they build (HLT-06 wound penalty on action rolls)."""

import pytest

from wodcombat.combat.core.errors import InputError
from wodcombat.combat.core.rollexpr import evaluate, parse
from wodcombat.combat.core.sheet import Sheet


@pytest.fixture
def sheet(numetal):
    s = Sheet().with_pools_for(numetal.traits)
    for trait, value in (("dex", "3"), ("brawl", "2"), ("wits", "2")):
        s = s.set(numetal.traits, trait, value)[0]
    return s


def test_traits_and_numbers(numetal, sheet):
    spec = evaluate(parse("dex+brawl vs 7"), sheet, numetal)
    assert spec.terms == (("Dexterity", 3), ("Brawl", 2)) and spec.dice == 5
    assert spec.difficulty == 7
    assert evaluate(parse("wits+3"), sheet, numetal).dice == 5
    assert evaluate(parse("6 vs 8"), sheet, numetal).dice == 6


@pytest.mark.rule("DICE-01")
def test_default_difficulty_is_the_rulesets(numetal, sheet):
    assert evaluate(parse("dex"), sheet, numetal).difficulty == 6


@pytest.mark.parametrize("text", ["dex+", "dex++brawl", "vs 6", "dex vs", "dex vs x", ""])
def test_syntax_errors(text):
    with pytest.raises(InputError, match="roll"):
        parse(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("9999", "more than"),
        ("banana vs 6", "not a trait"),
        ("5 vs 14", "Difficulty goes from 2 to 10"),
    ],
)
def test_value_errors(numetal, sheet, text, words):
    with pytest.raises(InputError, match=words):
        evaluate(parse(text), sheet, numetal)


@pytest.mark.rule("HLT-06")
def test_wound_penalty_on_action_rolls_only(numetal, sheet):
    hurt = sheet.with_health(sheet.track(numetal.section("health")).apply("lethal", 4).track)
    spec = evaluate(parse("dex+brawl"), hurt, numetal)
    assert spec.dice == 3 and spec.modifiers[0].reason.startswith("wounds (Wounded)")
    assert evaluate(parse("dex+brawl"), hurt, numetal, action=False).dice == 5
