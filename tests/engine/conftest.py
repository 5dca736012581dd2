import pathlib

import pytest

from wodcombat.combat.rules.ruleset import load_ruleset

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="session")
def numetal():
    return load_ruleset(RULES, "numetal")
