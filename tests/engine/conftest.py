import dataclasses
import pathlib

import pytest

from wodcombat.combat.core.sheet import Sheet
from wodcombat.combat.rules.ruleset import load_ruleset

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="session")
def numetal():
    return load_ruleset(RULES, "numetal")


def sheet(rs, weapons=(), **traits) -> Sheet:
    """A sheet of ``rs`` with ``traits`` set as +sheet/set would, carrying ``weapons``."""
    s = Sheet()
    for name, value in traits.items():
        s, _ = s.set(rs.traits, name, str(value))
    return dataclasses.replace(s, weapons=tuple(weapons))
